//! Using a template: list pages give their items (the learned item path, or, on list pages of
//! another layout than the training page — archives, categories — the links that have the
//! shape of the site's item links); article pages give one item with its full content, which
//! is also what items from any engine get from their article pages ([`crate::engines::enrich`]).
//! Where the template finds nothing on an article page, the generic article extractor
//! ([`crate::engines::article`]) does.

use std::collections::HashMap;
use std::sync::LazyLock;

use chrono::{DateTime, Datelike, FixedOffset, Utc};
use regex::Regex;
use url::Url;

use crate::dom::{Document, NodeId};
use crate::engines::article;
use crate::engines::rules::{self, Rule};
use crate::engines::{Engine, Extraction};
use crate::model::{Item, Page, Subject};
use crate::path::{Path, Target};
use crate::sanitize::sanitize_html;

use super::confidence;
use super::dates::DateReader;
use super::links::{LinkShape, Site, bare_host};

/// The learned item path must find at least this share of what the item links on the page
/// suggest, or the page has another layout and the links are used instead.
const STRICT_SHARE: f32 = 0.5;

/// The shapes of the site's item links, read back from the article part's `<url>`s.
pub fn item_shapes(rule: &Rule) -> Vec<LinkShape> {
    rule.article.iter().flat_map(|a| a.urls.iter()).filter_map(LinkShape::from_pattern).collect()
}

/// Whether the page is one of the site's articles by its URL.
pub fn is_article_url(rule: &Rule, url: &Url) -> bool {
    let shapes = item_shapes(rule);
    let host = [bare_host(url)];
    shapes.iter().any(|s| s.matches(url, &host))
}

/// Apply a template to a page: a list page gives its items, an article page one item with
/// its content.
pub fn extract(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Extraction {
    let trust = confidence(rule);
    let strict = strict_items(rule, doc, now);
    let shapes = item_shapes(rule);
    let dates = DateReader::new(rule.timezone, now);
    let adaptive = if shapes.is_empty() { Vec::new() } else { by_item_links(doc, &shapes, &dates) };
    // Which kind of page: by URL where the template's patterns say it (its list sections, the
    // shape of its posts' links); where both or neither do (`/archives/` has the shape of
    // `/slug/` posts), a page that lists many of the site's posts is a list, and an article
    // page links to a few (previous, next, related).
    let strict_list = strict.page.item_count() >= 2;
    let listed = strict_list || adaptive.len() >= MANY_POSTS;
    let articles_only = rule.subjects.is_empty() && rule.article.as_ref().is_some_and(super::has_fields);
    let list_url = rule.urls.iter().any(|p| p.matches(&doc.url));
    let article_url = is_article_url(rule, &doc.url);
    let is_article = match (article_url, list_url) {
        (true, false) => !strict_list,
        (false, true) => false,
        _ => !listed && (article_url || articles_only),
    };
    if is_article {
        // The template's own fields count for the confidence; the generic extractor fills in.
        let found = template_article(rule, doc, now).map_or(0.0, |item| article_fields_found(rule, &item));
        let item = article_item(Some(rule), doc, now, &article::Hints::default());
        let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
        page.date = item.date;
        page.subjects.push(Subject { title: None, items: vec![item] });
        return Extraction { page, engine: Engine::Template, confidence: trust * found };
    }
    let list = choose_list(doc, strict, adaptive);
    Extraction { confidence: list.confidence * trust, ..list }
}

/// An article page links to fewer posts of its site than this.
const MANY_POSTS: usize = 6;

/// The items of a list page: the learned item path where it fits the page, else the links of
/// the site's item shape grouped by their place in the page.
pub fn list_items(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Extraction {
    let strict = strict_items(rule, doc, now);
    let shapes = item_shapes(rule);
    let dates = DateReader::new(rule.timezone, now);
    let adaptive = if shapes.is_empty() { Vec::new() } else { by_item_links(doc, &shapes, &dates) };
    choose_list(doc, strict, adaptive)
}

/// The learned item path's items, their years completed from their links.
fn strict_items(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Extraction {
    let mut strict = rules::apply(rule, doc, now);
    for subject in &mut strict.page.subjects {
        for item in &mut subject.items {
            item.date = item.date.map(|d| year_from_link(d, item.link.as_ref()));
        }
    }
    Extraction { engine: Engine::Template, ..strict }
}

/// The learned item path's items where they are at least half of what the site's item links
/// suggest, else the items found by the links.
fn choose_list(doc: &Document, strict: Extraction, adaptive: Vec<Item>) -> Extraction {
    let strict_count = strict.page.item_count();
    let strict_fits = strict_count >= 2 && strict_count as f32 >= STRICT_SHARE * adaptive.len() as f32;
    if strict_fits || adaptive.len() < 2 {
        return strict;
    }
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    page.date = strict.page.date;
    page.subjects.push(Subject { title: None, items: adaptive });
    // Found without the learned paths: half as sure.
    Extraction { page, engine: Engine::Template, confidence: 0.5 }
}

/// Where a link sits: the tags and classes from the document down, without ids and with
/// numbers blanked (`post-12`, `year-2021` vary between the entries of one list).
fn signature(doc: &Document, node: NodeId) -> String {
    let mut steps: Vec<String> = std::iter::once(node)
        .chain(doc.ancestors(node))
        .filter_map(|n| {
            let tag = doc.tag(n)?;
            let class = doc.attr(n, "class").map(|c| {
                let words: Vec<String> =
                    c.split_whitespace().map(|w| w.replace(|ch: char| ch.is_ascii_digit(), "#")).collect();
                words.join(".")
            });
            Some(match class {
                Some(class) if !class.is_empty() => format!("{tag}.{class}"),
                _ => tag.to_string(),
            })
        })
        .collect();
    steps.reverse();
    steps.join("/")
}

static LINK_DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/((?:19|20)[0-9]{2})/([01]?[0-9])/(?:([0-3]?[0-9])/)?").expect("valid regex"));

/// A date read without its year (`September 02`) takes the current year; when the item's link
/// holds its date (`/2021/09/02/slug/`) with the same month (and day), the link's year is
/// the right one.
pub fn year_from_link(date: DateTime<FixedOffset>, link: Option<&Url>) -> DateTime<FixedOffset> {
    let Some(caps) = link.and_then(|l| LINK_DATE.captures(l.path())) else { return date };
    let number = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
    let (Some(year), Some(month)) = (number(1), number(2)) else { return date };
    let day_agrees = number(3).is_none_or(|d| d == date.day());
    if date.year() as u32 == year || date.month() != month || !day_agrees {
        return date;
    }
    date.with_year(year as i32).unwrap_or(date)
}

/// A list of another layout: the page's links with the shape of the site's item links, in the
/// group (same tags and classes from the document down) with the most distinct links, and for
/// each link its record (the largest subtree with no other item's link), the record's title
/// (the longest text of the links to the item, else its first heading) and its first date.
fn by_item_links(doc: &Document, shapes: &[LinkShape], dates: &DateReader) -> Vec<Item> {
    let Some(body) = doc.first_tag("body") else { return Vec::new() };
    let site = Site::new([&doc.url]);
    let own = site.key(&doc.url);
    let hosts = [bare_host(&doc.url)];
    let mut groups: HashMap<String, Vec<(NodeId, Url)>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for node in doc.descendants(body).filter(|&n| doc.is_tag(n, "a")) {
        let Some(url) = doc.attr(node, "href").and_then(|h| doc.resolve(h)) else { continue };
        if site.key(&url) == own || !shapes.iter().any(|s| s.matches(&url, &hosts)) {
            continue;
        }
        let signature = signature(doc, node);
        if !groups.contains_key(&signature) {
            order.push(signature.clone());
        }
        groups.entry(signature).or_default().push((node, url));
    }
    let distinct = |links: &[(NodeId, Url)]| {
        let mut keys: Vec<_> = links.iter().map(|(_, u)| site.key(u)).collect();
        keys.sort();
        keys.dedup();
        keys.len()
    };
    let text_len = |links: &[(NodeId, Url)]| links.iter().map(|(a, _)| doc.text(*a).chars().count()).sum::<usize>();
    // The most distinct links, then the longest texts (titles rather than dates), then the
    // first group on the page.
    let Some((_, best)) = order.iter().enumerate().max_by_key(|(i, signature)| {
        let group = &groups[*signature];
        (distinct(group), text_len(group), std::cmp::Reverse(*i))
    }) else {
        return Vec::new();
    };
    let mut anchors: Vec<(NodeId, Url)> = Vec::new();
    for (node, url) in &groups[best] {
        if !anchors.iter().any(|(_, u)| site.key(u) == site.key(url)) {
            anchors.push((*node, url.clone()));
        }
    }
    let all_links: Vec<(NodeId, Url)> = groups.values().flatten().cloned().collect();
    let mut items = Vec::new();
    for (anchor, url) in &anchors {
        let key = site.key(url);
        let other_item = |node: NodeId| anchors.iter().any(|(a, u)| doc.contains(node, *a) && site.key(u) != key);
        let mut record = *anchor;
        while let Some(parent) = doc.parent(record) {
            if parent == body || other_item(parent) {
                break;
            }
            record = parent;
        }
        let same_link: Vec<NodeId> =
            all_links.iter().filter(|(a, u)| doc.contains(record, *a) && site.key(u) == key).map(|(a, _)| *a).collect();
        let title = record_title(doc, record, &same_link, dates);
        let mut item = Item::new(title);
        item.date = record_date(doc, record, dates).map(|d| year_from_link(d, Some(url)));
        item.link = Some(url.clone());
        items.push(item);
    }
    items
}

const HEADINGS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];

/// A record's title: a heading inside a link to the item or around one (`<a><h1>…</h1></a>`,
/// `<h2><a>…</a></h2>`), else the longest text of the links to the item that is not only a
/// date, else the record's first heading.
fn record_title(doc: &Document, record: NodeId, same_link: &[NodeId], dates: &DateReader) -> String {
    let is_heading = |n: NodeId| doc.tag(n).is_some_and(|t| HEADINGS.contains(&t));
    let around_or_inside = same_link.iter().find_map(|&a| {
        let inside = doc.descendants(a).find(|&n| is_heading(n));
        let around = doc.ancestors(a).take_while(|&n| doc.contains(record, n)).find(|&n| is_heading(n));
        inside.or(around).map(|h| doc.text(h)).filter(|t| !t.is_empty())
    });
    let only_date = |t: &str| dates.read(t).is_some() && t.chars().filter(|c| c.is_alphabetic()).count() <= 12;
    around_or_inside
        .or_else(|| {
            same_link
                .iter()
                .map(|&a| doc.text(a))
                .filter(|t| !t.is_empty() && !only_date(t))
                .max_by_key(|t| t.chars().count())
        })
        .or_else(|| doc.descendants(record).find(|&n| is_heading(n)).map(|h| doc.text(h)))
        .unwrap_or_default()
}

static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*((?:19|20)[0-9]{2})\s*[年년]?\s*$").expect("valid regex"));

/// The first date of a record: a date attribute (`<time datetime>`), else a text. A text
/// without a year takes the year of the nearest year heading above the record (archives
/// grouped by year).
fn record_date(doc: &Document, record: NodeId, dates: &DateReader) -> Option<DateTime<FixedOffset>> {
    let nodes = || std::iter::once(record).chain(doc.descendants(record));
    let from_attribute = nodes()
        .filter(|&n| doc.is_element(n))
        .find_map(|n| ["datetime", "content"].iter().find_map(|a| doc.attr(n, a).and_then(|v| dates.read(v))));
    if from_attribute.is_some() {
        return from_attribute;
    }
    let found = nodes()
        .filter_map(|n| doc.text_node(n))
        .filter(|t| t.bytes().any(|b| b.is_ascii_digit()))
        .find_map(|t| dates.read_precise(t))?;
    if !found.completed {
        return Some(found.date);
    }
    let year = (0..record.0)
        .rev()
        .take(2000)
        .filter_map(|i| doc.text_node(NodeId(i)))
        .find_map(|t| YEAR.captures(t).and_then(|c| c[1].parse::<i32>().ok()));
    Some(year.and_then(|y| found.date.with_year(y)).unwrap_or(found.date))
}

/// The share of the article part's fields that the template found on the page.
fn article_fields_found(rule: &Rule, item: &Item) -> f32 {
    let Some(article) = &rule.article else { return 0.0 };
    let wanted = [article.title.is_some(), article.content.is_some(), article.author.is_some(), article.date.is_some()];
    let found = [!item.title.is_empty(), item.content.is_some(), item.author.is_some(), item.date.is_some()];
    let asked = wanted.iter().filter(|&&w| w).count();
    if asked == 0 {
        return 0.0;
    }
    wanted.iter().zip(found).filter(|(w, f)| **w && *f).count() as f32 / asked as f32
}

/// An article page as one item, by the template's article part alone: `None` when the
/// template has no article part or it finds neither title nor content.
pub fn template_article(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Option<Item> {
    let article = rule.article.as_ref()?;
    let title = article.title.as_ref().and_then(|p| first_text(doc, p)).unwrap_or_default();
    let content = article.content.as_ref().and_then(|p| content_html(doc, p));
    if title.is_empty() && content.is_none() {
        return None;
    }
    let mut item = Item::new(title);
    item.link = Some(doc.url.clone());
    item.content = content;
    item.author = article.author.as_ref().and_then(|p| first_text(doc, p));
    item.date = article
        .date
        .as_ref()
        .and_then(|p| p.select(doc, doc.root()).iter().find_map(|t| rules::parse_date(&t.text(doc), rule, now)));
    Some(item)
}

/// An article page as one item: what the template's article part finds, and what it does not
/// find (or everything, without a template or an article part) from the generic article
/// extractor, which the item's title and description (when known) guide to the right text.
pub fn article_item(rule: Option<&Rule>, doc: &Document, now: DateTime<Utc>, hints: &article::Hints) -> Item {
    let mut item = rule.and_then(|rule| template_article(rule, doc, now)).unwrap_or_else(|| {
        let mut empty = Item::new("");
        empty.link = Some(doc.url.clone());
        empty
    });
    let complete = !item.title.is_empty() && item.content.is_some() && item.date.is_some();
    if !complete {
        fill_from(&mut item, article::extract(doc, hints));
    }
    item
}

/// Fill an item's missing fields from the generic extractor.
fn fill_from(item: &mut Item, generic: article::Article) {
    if item.title.is_empty() {
        item.title = generic.title.unwrap_or_default();
    }
    if item.content.is_none() {
        item.content = generic.content_html;
    }
    if item.author.is_none() {
        item.author = generic.author;
    }
    if item.date.is_none() {
        item.date = generic.published.or(generic.modified);
    }
}

fn first_text(doc: &Document, path: &Path) -> Option<String> {
    path.select(doc, doc.root()).iter().map(|t| t.text(doc)).find(|t| !t.is_empty())
}

/// The content's HTML: every selected node's inner HTML, sanitized.
fn content_html(doc: &Document, path: &Path) -> Option<String> {
    let mut html = String::new();
    for target in path.select(doc, doc.root()) {
        match target {
            Target::Node(node) if doc.is_element(node) => html.push_str(&doc.inner_html(node)),
            other => html.push_str(&quick_xml::escape::escape(other.text(doc))),
        }
    }
    let clean = sanitize_html(&html, &doc.base);
    let clean = clean.trim();
    (!clean.is_empty()).then(|| clean.to_string())
}

/// The plain text of the content the template finds on an article page.
pub fn content_text(rule: &Rule, doc: &Document) -> Option<String> {
    let path = rule.article.as_ref()?.content.as_ref()?;
    let text: Vec<String> =
        path.select(doc, doc.root()).iter().map(|t| t.text(doc)).filter(|t| !t.is_empty()).collect();
    (!text.is_empty()).then(|| text.join(" "))
}
