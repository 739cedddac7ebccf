//! Feed-trained templates (DESIGN.md, engine 3): a site's own feed labels the site's pages,
//! and what the labels have in common is written as a mapping rule that serves the site's
//! other pages — list pages the feed does not cover (page 2, archives, categories) and the
//! full text, author and date of article pages.
//!
//! - [`list`]: labeling list pages with the feed's items and inducing the item path (the WTM
//!   paper's matcher and rule composer, the key-path paper's paths and merging);
//! - [`article`]: labeling article pages (the Dice paper's bottom-up bigram algorithm in
//!   [`dice`], the data-objects paper's semantic density in [`density`]) and inducing the
//!   `<article>` part by the most frequent best rule;
//! - [`apply`]: using a template on list pages and article pages (and, through
//!   [`crate::engines::enrich`], on the article pages of items from any engine);
//! - [`text`], [`dates`], [`links`], [`paths`]: comparisons, dates, link shapes, paths.
//!
//! A template is a [`Rule`]: its `<subject>`/`<item>` describe the list pages, its
//! `<article>` the article pages, and every learned path carries its training support
//! (`matched="9" of="10"`), from which [`confidence`] is computed.

pub mod apply;
pub mod article;
pub mod dates;
pub mod density;
pub mod dice;
pub mod links;
pub mod list;
pub mod paths;
pub mod text;

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use url::Url;

use crate::dom::Document;
use crate::engines::rules::{ArticleRule, Field, Place, Rule, SubjectRule, Support};
use crate::feed::reader::TrainingFeed;

pub use apply::{Applied, apply, article_item, content_text, extract, extract_explained, template_article};

use dates::DateReader;
use links::{LinkShape, Site};

/// Why no template was learned.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("the feed has no items with a link to train on")]
    NoItems,
    #[error(
        "the feed is a comment feed ({0}): a template learned from it would take comments for the content; \
         give the site's post feed"
    )]
    CommentFeed(String),
    #[error("no pages to train on: give the site's list pages and the pages of some of the feed's items")]
    NoPages,
    #[error("the template matched too few training items: {0}")]
    TooFew(String),
}

/// A learned template, with how sure it is and what it was learned from.
#[derive(Debug, Clone)]
pub struct Trained {
    pub rule: Rule,
    pub confidence: f32,
    /// What each page gave and what could not be learned, for people.
    pub notes: Vec<String>,
}

/// Fewer training items than this on a list page, or article pages, make a template that is
/// less sure of itself (see [`confidence`]).
const FEW_ITEMS: u32 = 3;

/// Learn a site's template from its feed and some of its pages. Pages whose URL (or canonical
/// URL) is a feed item's link are article pages; the others are list pages. `now` is for dates
/// without a year.
pub fn train(feed: &TrainingFeed, pages: &[Document], now: DateTime<Utc>) -> Result<Trained, TemplateError> {
    if feed.items.iter().all(|i| i.link.is_none()) {
        return Err(TemplateError::NoItems);
    }
    if let Some(reason) = comment_feed(feed) {
        return Err(TemplateError::CommentFeed(reason));
    }
    if pages.is_empty() {
        return Err(TemplateError::NoPages);
    }
    let mut site = Site::new(feed.items.iter().filter_map(|i| i.link.as_ref()).chain(feed.site.as_ref()));
    for doc in pages {
        site.add(&doc.url);
    }
    let dates = DateReader::new(None, now);
    let mut notes = Vec::new();
    let mut list_pages = Vec::new();
    let mut article_pages = Vec::new();
    for doc in pages {
        match article_of(doc, feed, &site) {
            Some(index) => {
                let labels = article::label(doc, &feed.items[index], &dates);
                notes.push(format!(
                    "{}: article page of \"{}\" (title {}, content {}, author {}, date {})",
                    doc.url,
                    feed.items[index].title,
                    found(labels.title.is_some()),
                    if labels.content.is_some() {
                        format!("Dice {:.2}", labels.content_score)
                    } else {
                        "not found".into()
                    },
                    found(labels.author.is_some()),
                    found(labels.date.is_some()),
                ));
                article_pages.push(article::PageLabels { doc, item: &feed.items[index], labels });
            }
            None => {
                let labels = list::label(doc, &feed.items, &site, &dates);
                notes.push(format!(
                    "{}: list page, {} feed items found, {} in its main list",
                    doc.url,
                    labels.located,
                    labels.records.len()
                ));
                list_pages.push(list::PageRecords { doc, labels });
            }
        }
    }

    let links: Vec<Url> = feed.items.iter().filter_map(|i| i.link.clone()).collect();
    let shapes = LinkShape::learn(&links, 2);
    let mut rule = Rule {
        name: Some(format!("Template for {}", site_name(feed, pages))),
        urls: Vec::new(),
        link: list_pages.first().map(|p| p.doc.url.clone()).filter(|u| matches!(u.scheme(), "http" | "https")),
        encoding: None,
        timezone: feed_timezone(feed),
        date_format: None,
        page_date: None,
        subjects: Vec::new(),
        article: None,
        support: Default::default(),
    };
    let mut reasons = Vec::new();
    if list_pages.is_empty() {
        reasons.push("no list page was given".to_string());
    } else {
        let layouts = list::induce(&list_pages, &site, &dates);
        if layouts.is_empty() {
            reasons.push("fewer than 2 feed items were found in a list of the list pages".to_string());
        }
        // One list part per layout of the list pages given, the main one (most items) first.
        for (n, learned) in layouts.into_iter().enumerate() {
            rule.support.insert(Place::Item(n), learned.item_support);
            for (field, support) in &learned.field_support {
                rule.support.insert(Place::ItemField(n, *field), *support);
            }
            rule.subjects.push(SubjectRule { path: learned.subject, title: None, item: learned.item });
        }
        if !rule.subjects.is_empty() {
            let docs: Vec<&Document> = list_pages.iter().map(|p| p.doc).collect();
            rule.urls = links::list_patterns(&docs, &shapes);
        }
    }
    if article_pages.is_empty() {
        reasons.push("no article page (a page a feed item links to) was given".to_string());
    } else {
        let (mut part, mut support) = article::induce(&article_pages, &dates);
        // The content path is kept only where it reproduces the feed's full text at least as
        // well as the generic extractor does (which then reads the content instead).
        if let Some(content) = &part.content
            && let Some(comparison) = article::compare_content(content, &article_pages)
        {
            let verdict = if comparison.keeps_path() { "kept" } else { "dropped" };
            notes.push(format!(
                "content path {verdict}: word F1 against the feed's full text {:.3}, the generic extractor's {:.3} \
                 (on {} page{} where it is not near perfect)",
                comparison.path_f1,
                comparison.generic_f1,
                comparison.pages,
                if comparison.pages == 1 { "" } else { "s" }
            ));
            if !comparison.keeps_path() {
                part.content = None;
                support.retain(|(field, _)| *field != Field::Content);
            }
        }
        if support.is_empty() {
            reasons.push("no rule held on most of the article pages".to_string());
        } else {
            for (field, s) in support {
                rule.support.insert(Place::Article(field), s);
            }
            part.urls = shapes.iter().filter_map(LinkShape::to_pattern).collect();
            rule.article = Some(part);
        }
    }
    if rule.article.is_none() && !shapes.is_empty() && !rule.subjects.is_empty() {
        // The item links' shapes still serve list pages of other layouts.
        rule.article =
            Some(ArticleRule { urls: shapes.iter().filter_map(LinkShape::to_pattern).collect(), ..Default::default() });
    }
    if rule.subjects.is_empty() && rule.article.as_ref().is_none_or(|a| !has_fields(a)) {
        return Err(TemplateError::TooFew(reasons.join("; ")));
    }
    notes.extend(reasons.into_iter().map(|r| format!("not learned: {r}")));
    let confidence = confidence(&rule);
    for (place, support) in &rule.support {
        if support.matched < FEW_ITEMS || support.ratio() < 0.8 {
            notes.push(format!(
                "low support: {} matched {} of {} training items",
                place_name(*place),
                support.matched,
                support.of
            ));
        }
    }
    Ok(Trained { rule, confidence, notes })
}

/// Whether an article part has a field path (not only the item links' URL patterns).
pub(crate) fn has_fields(article: &ArticleRule) -> bool {
    ArticleRule::FIELDS.iter().any(|&f| article.field(f).is_some())
}

fn found(yes: bool) -> &'static str {
    if yes { "found" } else { "not found" }
}

/// How a place of a rule is called in notes.
pub fn place_name(place: Place) -> String {
    match place {
        Place::Subject(_) => "the list path".to_string(),
        Place::Item(_) => "the item path".to_string(),
        Place::ItemField(_, field) => format!("the item's {field} path"),
        Place::Article(field) => format!("the article's {field} path"),
    }
}

/// The zone the feed writes its dates in, when all of them share one offset of whole hours:
/// the template gives its dates as the site's own feed does (the same instants; the page may
/// show them in the author's local time). Mixed offsets (daylight saving, several authors)
/// give none, and dates keep the offsets the pages give.
fn feed_timezone(feed: &TrainingFeed) -> Option<chrono_tz::Tz> {
    let mut offsets = feed.items.iter().filter_map(|i| i.date).map(|d| d.offset().local_minus_utc());
    let first = offsets.next()?;
    if !offsets.all(|o| o == first) || first % 3600 != 0 {
        return None;
    }
    // POSIX zone names count west: `Etc/GMT-8` is eight hours east of UTC.
    match -first / 3600 {
        0 => Some(chrono_tz::Tz::UTC),
        hours => format!("Etc/GMT{hours:+}").parse().ok(),
    }
}

/// The site's host, for the template's name.
fn site_name(feed: &TrainingFeed, pages: &[Document]) -> String {
    feed.site
        .as_ref()
        .or_else(|| feed.items.iter().find_map(|i| i.link.as_ref()))
        .or(pages.first().map(|d| &d.url))
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "the site".to_string())
}

/// The feed item whose page this is: by the page's URL, else its canonical URL.
fn article_of(doc: &Document, feed: &TrainingFeed, site: &Site) -> Option<usize> {
    let declared = doc.declared_urls();
    let keys: Vec<_> = std::iter::once(&doc.url).chain(&declared).map(|u| site.key(u)).collect();
    feed.items
        .iter()
        .position(|i| i.link.as_ref().is_some_and(|l| keys.contains(&site.key(l))))
        .or_else(|| article_by_title(doc, feed))
}

/// Separators between a post's title and the site's name in a `<title>` ("Post | Blog").
const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " _ ", "｜", " ｜ "];

/// A page whose URLs are no item's (a saved copy, `--page FILE` without `=URL`, whose relative
/// `og:url` resolves on the disk) is the article page of the one feed item whose title is the
/// page's `<h1>`, `og:title` or `<title>` (whole, or one part of it around a separator). A list page's `<title>` and `<h1>` name the site, or
/// its headings name several posts: a page whose headings match more than one item is no
/// article page.
fn article_by_title(doc: &Document, feed: &TrainingFeed) -> Option<usize> {
    let mut texts: Vec<String> = doc.ids().filter(|&n| doc.is_tag(n, "h1")).map(|n| doc.text(n)).collect();
    texts.extend(
        doc.ids()
            .filter(|&n| {
                doc.is_tag(n, "meta") && doc.attr(n, "property").is_some_and(|p| p.eq_ignore_ascii_case("og:title"))
            })
            .filter_map(|n| doc.attr(n, "content").map(str::to_string)),
    );
    let title = doc.title();
    texts.extend(TITLE_SEPARATORS.iter().flat_map(|s| title.split(s)).map(str::to_string));
    texts.push(title);
    let texts: HashSet<String> = texts.iter().map(|t| text::normalize(t)).filter(|t| !t.is_empty()).collect();
    // Exactly one item: several (a list's headings, a series' "Part 1" in every post) say
    // nothing about which post the page is.
    let mut matched = (0..feed.items.len()).filter(|&i| texts.contains(&text::normalize(&feed.items[i].title)));
    let index = matched.next()?;
    matched.next().is_none().then_some(index)
}

/// Why a feed is a feed of comments rather than of posts: its title says so, or its items
/// link to comment anchors, or most of them link to the same page.
pub fn comment_feed(feed: &TrainingFeed) -> Option<String> {
    let title = feed.title.to_lowercase();
    if ["comments on", "comments for", "comments:", "kommentare", "commentaires", "评论", "コメント"]
        .iter()
        .any(|w| title.starts_with(w) || title.contains(&format!(" {w}")))
    {
        return Some(format!("its title is \"{}\"", feed.title));
    }
    let links: Vec<&Url> = feed.items.iter().filter_map(|i| i.link.as_ref()).collect();
    if links.is_empty() {
        return None;
    }
    let to_comments = links
        .iter()
        .filter(|l| {
            l.fragment().is_some_and(|f| f.to_ascii_lowercase().starts_with("comment"))
                || l.query().is_some_and(|q| q.contains("replytocom"))
        })
        .count();
    if to_comments * 2 > links.len() {
        return Some(format!("{to_comments} of {} items link to comment anchors", links.len()));
    }
    if links.len() >= 3 {
        let site = Site::new(links.iter().copied());
        let mut keys: Vec<_> = links.iter().map(|l| site.key(l)).collect();
        keys.sort();
        let mut most = 0;
        let mut run = 0;
        for (i, key) in keys.iter().enumerate() {
            run = if i > 0 && &keys[i - 1] == key { run + 1 } else { 1 };
            most = most.max(run);
        }
        if most * 2 > links.len() {
            return Some(format!("{most} of {} items link to the same page", links.len()));
        }
    }
    None
}

/// How sure a template is, from its training support: the list part's item path times its
/// title and link paths, the article part's paths; a part learned from fewer than
/// [`FEW_ITEMS`] examples counts for less. A rule without support (written by hand) is 0.5.
pub fn confidence(rule: &Rule) -> f32 {
    if rule.support.is_empty() {
        return 0.5;
    }
    let ratio = |place: Place| rule.support.get(&place).map(|s| (s.ratio(), s.matched));
    let few = |matched: u32| if matched < FEW_ITEMS { 0.6 } else { 1.0 };
    let mut parts = Vec::new();
    if let Some((item, matched)) = ratio(Place::Item(0)) {
        let fields: Vec<f32> =
            [Field::Title, Field::Link].iter().filter_map(|&f| ratio(Place::ItemField(0, f)).map(|r| r.0)).collect();
        let fields = if fields.is_empty() { 0.5 } else { fields.iter().sum::<f32>() / fields.len() as f32 };
        parts.push(item * fields * few(matched));
    }
    let article: Vec<(f32, u32)> = ArticleRule::FIELDS.iter().filter_map(|&f| ratio(Place::Article(f))).collect();
    if !article.is_empty() {
        let mean = article.iter().map(|a| a.0).sum::<f32>() / article.len() as f32;
        let matched = article.iter().map(|a| a.1).max().unwrap_or(0);
        parts.push(mean * few(matched));
    }
    if parts.is_empty() {
        return 0.0;
    }
    parts.iter().sum::<f32>() / parts.len() as f32
}

/// The support of a learned path, for callers that show it.
pub fn support(rule: &Rule, place: Place) -> Option<Support> {
    rule.support.get(&place).copied()
}
