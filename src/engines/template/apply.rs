//! Using a template. A page is an article page or a list page, by its URL (the template's
//! list sections, the shape of the site's post links) and by what it holds (a list of the
//! site's posts, or a text with few links to them). An article page gives one item with its
//! full content, which is also what items from any engine get from their article pages
//! ([`crate::engines::enrich`]); the template's content path gives way to the generic article
//! extractor ([`crate::engines::article`]) where it finds much less text.
//!
//! A list page is checked before the template serves it: the list part (of the layout whose
//! items look most like the site's posts) must find at least two of the site's posts, mostly
//! posts, and not miss more of the posts that the `auto` engine finds on the page than it
//! finds. A homepage template on an archive of another layout fails the check; then the
//! links with the shape of the site's posts make the list where they hold more posts than
//! `auto`'s list, else the template gives way to `auto` ([`Applied::GivesWay`]).

use std::cell::{LazyCell, OnceCell};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use chrono::{DateTime, Datelike, FixedOffset, Utc};
use regex::Regex;
use url::Url;

use crate::dom::{Document, NodeId};
use crate::engines::rules::{self, Rule, SubjectRule};
use crate::engines::timepattern::{DateContext, TimePatternDb};
use crate::engines::{Engine, Extraction, article, auto};
use crate::model::{Item, Page, Subject};
use crate::path::{Path, Target};

use super::confidence;
use super::dates::DateReader;
use super::links::{LinkKey, LinkShape, Site, bare_host};
use super::list::tree_distance;
use super::text;
use crate::engines::regions::in_furniture;

/// What a template makes of a page.
#[derive(Debug, Clone)]
pub enum Applied {
    /// The template serves the page: a list page's items, or an article page as one item.
    Serves(Extraction),
    /// The template does not fit this list page (why, for people): `auto`'s list stands for it.
    GivesWay(String),
}

/// The shapes of the site's item links, read back from the article part's `<url>`s.
pub fn item_shapes(rule: &Rule) -> Vec<LinkShape> {
    rule.article.iter().flat_map(|a| a.urls.iter()).filter_map(LinkShape::from_pattern).collect()
}

/// Which links of a page are the site's posts: links with the shape of the site's item links
/// (any link of the page's host when the template knows no shape), other than the page itself.
struct Posts {
    shapes: Vec<LinkShape>,
    hosts: [String; 1],
    site: Site,
    own: LinkKey,
}

impl Posts {
    fn new(rule: &Rule, doc: &Document) -> Posts {
        let site = Site::new([&doc.url]);
        let own = site.key(&doc.url);
        Posts { shapes: item_shapes(rule), hosts: [bare_host(&doc.url)], site, own }
    }

    /// Whether a URL has the shape of the site's posts.
    fn has_post_shape(&self, url: &Url) -> bool {
        if self.shapes.is_empty() {
            return bare_host(url) == self.hosts[0];
        }
        self.shapes.iter().any(|s| s.matches(url, &self.hosts))
    }

    fn is_post(&self, url: &Url) -> bool {
        self.site.key(url) != self.own && self.has_post_shape(url)
    }

    /// The distinct posts among items' links.
    fn of<'i>(&self, items: impl Iterator<Item = &'i Item>) -> HashSet<LinkKey> {
        items.filter_map(|i| i.link.as_ref()).filter(|l| self.is_post(l)).map(|l| self.site.key(l)).collect()
    }
}

/// Apply a template to a page. `auto` gives the `auto` engine's analysis of the page; it is
/// asked for only when the page is a list page or the template takes it for an article.
pub fn apply<'a>(
    rule: &Rule,
    doc: &Document,
    now: DateTime<Utc>,
    auto: impl FnOnce() -> &'a auto::Analysis,
) -> Applied {
    let posts = Posts::new(rule, doc);
    let (strict, in_content) = strict_items(rule, doc, now, &posts);
    let strict_posts = posts.of(strict.page.items());
    let listed_in_content = if in_content { strict_posts.len() } else { 0 };
    let auto = LazyCell::new(auto);
    if is_article_page(rule, doc, now, &posts, listed_in_content) && !auto_finds_a_list(doc, &posts, *auto) {
        return Applied::Serves(article_page(rule, doc, now));
    }
    let trust = confidence(rule);
    let listed = strict.page.item_count();
    let anchors = anchors_by_key(doc, &posts.site);
    // `auto`'s posts, but not those it found in the page's furniture only (a "recent posts"
    // widget is no evidence against the template's main list).
    let auto_posts: HashSet<LinkKey> = posts
        .of(auto.extraction.page.items())
        .into_iter()
        .filter(|key| anchors.get(key).is_none_or(|nodes| nodes.iter().any(|&a| !in_furniture(doc, a))))
        .collect();
    let missed = auto_posts.difference(&strict_posts).count();
    // Mostly posts: at least half of the template's items link to posts (a list part that
    // lands on a tag cloud or a menu of another layout does not).
    let fits = strict_posts.len() >= 2 && strict_posts.len() * 2 >= listed && missed <= strict_posts.len();
    if fits {
        return Applied::Serves(Extraction { confidence: strict.confidence * trust, ..strict });
    }
    let dates = DateReader::new(rule.timezone, now);
    let by_links = if posts.shapes.is_empty() { Vec::new() } else { by_item_links(doc, &posts, &dates) };
    // The links with the shape of the site's posts stand for `auto`'s list where they hold
    // every post it found there: they are the site's posts by the feed's own link shapes (no
    // tag or page link among them), and their dates are read by the template (year headings
    // of archives, date attributes), which `auto` knows nothing of.
    let by_links_posts = posts.of(by_links.iter());
    if by_links.len() >= 2 && auto_posts.is_subset(&by_links_posts) {
        let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
        page.subjects.push(Subject { title: None, items: by_links });
        // Found without the learned paths: half as sure.
        return Applied::Serves(Extraction { page, engine: Engine::Template, confidence: 0.5 * trust });
    }
    if auto_posts.is_empty() && !strict_posts.is_empty() {
        return Applied::Serves(Extraction { confidence: strict.confidence * trust, ..strict });
    }
    Applied::GivesWay(format!(
        "its list part finds {} of the site's posts ({listed} items), the auto engine {} more",
        strict_posts.len(),
        missed
    ))
}

/// Apply a template to a page, and where it gives way, the `auto` engine (built-in time
/// patterns).
pub fn extract(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Extraction {
    extract_explained(rule, doc, &DateContext::new(now.fixed_offset())).0
}

/// [`extract`] with the dates read in `context`, and why the template gave way to `auto`
/// (`None`: it served the page).
pub fn extract_explained(rule: &Rule, doc: &Document, context: &DateContext) -> (Extraction, Option<String>) {
    let analysis = OnceCell::new();
    let analyze = || analysis.get_or_init(|| auto::analyze(doc, TimePatternDb::builtin(), context));
    match apply(rule, doc, context.now.to_utc(), analyze) {
        Applied::Serves(extraction) => (extraction, None),
        Applied::GivesWay(reason) => {
            let auto = analysis
                .into_inner()
                .map_or_else(|| auto::extract(doc, TimePatternDb::builtin(), context), |a| a.extraction);
            (auto, Some(reason))
        }
    }
}

/// Whether a page is one of the site's articles rather than a list: not by the URL of a list
/// section, by its URL (the shape of the site's posts; without shapes, where the article part
/// finds its fields), no list of posts in the page's content by the template's list part
/// (`listed`: how many; a menu or a widget of the site's pages in its furniture is on its
/// article pages too), and a main text that does not read as a list of the site's posts (an
/// archive page with the posts' layout or link shape: `/archive/` has the shape of `/slug/`
/// posts).
fn is_article_page(rule: &Rule, doc: &Document, now: DateTime<Utc>, posts: &Posts, listed: usize) -> bool {
    let list_url = rule.urls.iter().any(|p| p.matches(&doc.url));
    let article_url = !posts.shapes.is_empty() && posts.has_post_shape(&doc.url);
    if (list_url && !article_url) || listed >= 2 {
        return false;
    }
    let by_fields = || posts.shapes.is_empty() && template_article(rule, doc, now).is_some();
    (article_url || by_fields()) && !reads_as_list(rule, doc, now, posts)
}

/// Whether the `auto` engine takes the page for a list of at least [`LIST_POSTS`] of the site's
/// posts: where the template knows the page only by the shape of its URL (`/index2.html` has
/// the shape of `/slug.html` posts) and reads a layout it never saw, the article-or-list
/// decision that weighs the page's own text against its records is the better judge (a page
/// of teasers has prose, but every block of it is a post's summary under its headline).
fn auto_finds_a_list(doc: &Document, posts: &Posts, analysis: &auto::Analysis) -> bool {
    posts.of(analysis.extraction.page.items()).len() >= LIST_POSTS
        && !analysis.is_article_page(doc, &article::extract(doc, &article::Hints::default()))
}

/// A text node outside links with at least this many characters (not spaces) is prose: a
/// sentence, or a clause of a language written without spaces; dates, tags and counts beside
/// an archive's links are shorter.
const PROSE_CHARS: usize = 25;
/// A list links to at least this many of the site's posts: an article's own text may link to
/// the previous and the next post.
const LIST_POSTS: usize = 3;

/// How much of a page region is text of its own and how much is links to the site's posts.
#[derive(Debug, Default)]
pub struct TextMix {
    pub prose: usize,
    pub post_links: usize,
    pub posts: usize,
}

/// The mix of the page's main text: what the template's content path selects, else the
/// body without its furniture.
fn text_mix(rule: &Rule, doc: &Document, posts: &Posts) -> TextMix {
    let content = rule
        .article
        .as_ref()
        .and_then(|a| a.content.as_ref())
        .and_then(|p| p.select_nodes(doc, doc.root()).first().copied());
    let Some(scope) = content.or_else(|| doc.first_tag("body")) else { return TextMix::default() };
    let skip_furniture = content.is_none();
    let mut mix = TextMix::default();
    let mut linked_posts = HashSet::new();
    let mut node = scope;
    let end = doc.node(scope).end;
    while node < end {
        if matches!(doc.tag(node), Some("script" | "style" | "template"))
            || (skip_furniture && doc.is_element(node) && in_furniture(doc, node))
        {
            node = doc.node(node).end;
            continue;
        }
        if let Some(text) = doc.text_node(node) {
            let chars = text.chars().filter(|c| !c.is_whitespace()).count();
            let link = doc.ancestors(node).take_while(|&a| a != scope).find(|&a| doc.is_tag(a, "a"));
            match link.and_then(|a| doc.attr(a, "href")).and_then(|h| doc.resolve(h)) {
                Some(url) if posts.is_post(&url) => {
                    mix.post_links += chars;
                    linked_posts.insert(posts.site.key(&url));
                }
                Some(_) => {}
                None if chars >= PROSE_CHARS => mix.prose += chars,
                None => {}
            }
        }
        node = NodeId(node.0 + 1);
    }
    mix.posts = linked_posts.len();
    mix
}

/// Whether a page's main text is a list of the site's posts rather than prose: the content
/// path selects several entries, links to at least [`LIST_POSTS`] posts outweigh its prose,
/// or it links to several posts, has no sentence at all and no date where the site's
/// articles show theirs (a short archive at a URL of the posts' shape, `/archives/` beside
/// `/slug/` posts; a photo post without a sentence still has its date, and links to the
/// previous and the next post).
fn reads_as_list(rule: &Rule, doc: &Document, now: DateTime<Utc>, posts: &Posts) -> bool {
    let entries =
        rule.article.as_ref().and_then(|a| a.content.as_ref()).map_or(0, |p| p.select_nodes(doc, doc.root()).len());
    if entries >= 2 {
        return true;
    }
    let mix = text_mix(rule, doc, posts);
    if mix.posts >= LIST_POSTS && mix.post_links >= mix.prose {
        return true;
    }
    let dates_articles = rule.article.as_ref().is_some_and(|a| a.date.is_some());
    let undated = || template_article(rule, doc, now).is_none_or(|item| item.date.is_none());
    mix.posts >= 2 && mix.prose == 0 && dates_articles && undated()
}

/// The page's links by key: every `<a href>` of the body.
fn anchors_by_key(doc: &Document, site: &Site) -> HashMap<LinkKey, Vec<NodeId>> {
    let mut map: HashMap<LinkKey, Vec<NodeId>> = HashMap::new();
    for node in doc.ids().filter(|&n| doc.is_tag(n, "a")) {
        if let Some(url) = doc.attr(node, "href").and_then(|h| doc.resolve(h)) {
            map.entry(site.key(&url)).or_default().push(node);
        }
    }
    map
}

/// An article page as one item with its content: the template's confidence, times the share
/// of its article part's fields that it found (the generic extractor fills in the rest).
fn article_page(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Extraction {
    let (item, found) = read_article(Some(rule), doc, now, &article::Hints::default());
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    page.date = item.date;
    page.subjects.push(Subject { title: None, items: vec![item] });
    Extraction { page, engine: Engine::Template, confidence: confidence(rule) * found }
}

/// The learned list paths' items, their years completed from their links: of the layouts
/// the template knows (one list part each), the one whose items are the most posts; and
/// whether that part's list lies in the page's content (not in its furniture).
fn strict_items(rule: &Rule, doc: &Document, now: DateTime<Utc>, posts: &Posts) -> (Extraction, bool) {
    let mut best: Option<(usize, usize)> = None;
    let mut extractions = Vec::new();
    for (n, part) in rule.subjects.iter().enumerate() {
        let found = if rule.subjects.len() == 1 {
            rules::apply(rule, doc, now)
        } else {
            rules::apply(&Rule { subjects: vec![part.clone()], ..rule.clone() }, doc, now)
        };
        let count = posts.of(found.page.items()).len();
        if best.is_none_or(|(_, c)| count > c) {
            best = Some((n, count));
        }
        extractions.push(found);
    }
    let Some((n, _)) = best else {
        return (Extraction { engine: Engine::Template, ..rules::apply(rule, doc, now) }, false);
    };
    let mut strict = extractions.swap_remove(n);
    for subject in &mut strict.page.subjects {
        for item in &mut subject.items {
            item.date = item.date.map(|d| year_from_link(d, item.link.as_ref()));
        }
    }
    let undated = strict.page.items().any(|i| i.date.is_none());
    if undated {
        date_from_siblings(&rule.subjects[n], doc, &mut strict.page, &DateReader::new(rule.timezone, now), posts);
    }
    let in_content = rule.subjects[n].path.select_nodes(doc, doc.root()).iter().any(|&s| !in_furniture(doc, s));
    (Extraction { engine: Engine::Template, ..strict }, in_content)
}

/// Undated items of a list part take the date of a sibling element of their entry (a date
/// heading before each entry, `<h1>date</h1><section>post</section>`), where the page's
/// entries have such siblings on one side ([`sibling_dates`]); an item is matched to its entry
/// by the entry's first link.
fn date_from_siblings(part: &SubjectRule, doc: &Document, page: &mut Page, dates: &DateReader, posts: &Posts) {
    let entries: Vec<NodeId> =
        part.path.select_nodes(doc, doc.root()).into_iter().flat_map(|s| part.item.path.select_nodes(doc, s)).collect();
    let first_link = |entry: NodeId| {
        std::iter::once(entry)
            .chain(doc.descendants(entry))
            .filter(|&n| doc.is_tag(n, "a"))
            .find_map(|a| doc.attr(a, "href").and_then(|h| doc.resolve(h)))
            .map(|u| posts.site.key(&u))
    };
    let by_link: HashMap<LinkKey, DateTime<FixedOffset>> = entries
        .iter()
        .zip(sibling_dates(doc, &entries, dates))
        .filter_map(|(&entry, date)| Some((first_link(entry)?, date?)))
        .collect();
    for subject in &mut page.subjects {
        for item in subject.items.iter_mut().filter(|i| i.date.is_none()) {
            let found = item.link.as_ref().and_then(|l| by_link.get(&posts.site.key(l)));
            item.date = found.map(|&d| year_from_link(d, item.link.as_ref()));
        }
    }
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

/// A list of another layout: the page's links with the shape of the site's item links (outside
/// its furniture), in the group (same tags and classes from the document down) with the most
/// distinct links, and for each link its record (the largest subtree with no other item's
/// link), the record's title (the longest text of the links to the item, else its first
/// heading) and its first date.
fn by_item_links(doc: &Document, posts: &Posts, dates: &DateReader) -> Vec<Item> {
    let Some(body) = doc.first_tag("body") else { return Vec::new() };
    let site = &posts.site;
    let mut groups: HashMap<String, Vec<(NodeId, Url)>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for node in doc.descendants(body).filter(|&n| doc.is_tag(n, "a")) {
        let Some(url) = doc.attr(node, "href").and_then(|h| doc.resolve(h)) else { continue };
        if !posts.is_post(&url) || in_furniture(doc, node) {
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
    let mut records = Vec::new();
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
        let title = record_title(doc, record, *anchor, &same_link, dates);
        let mut item = Item::new(title);
        item.date = record_date(doc, record, *anchor, dates).map(|d| year_from_link(d, Some(url)));
        item.link = Some(url.clone());
        items.push(item);
        records.push(record);
    }
    if items.iter().any(|i| i.date.is_none()) {
        for ((item, date), (_, url)) in items.iter_mut().zip(sibling_dates(doc, &records, dates)).zip(&anchors) {
            if item.date.is_none() {
                item.date = date.map(|d| year_from_link(d, Some(url)));
            }
        }
    }
    items
}

/// The records' dates in sibling elements of their own (`<dt>date</dt><dd><a>title</a></dd>`,
/// a date element before or after each entry's element), from the side where the records'
/// link-free siblings hold dates most often (before, on a tie): the page decides whether a
/// date opens or closes its record, so that no record takes its neighbour's date.
fn sibling_dates(doc: &Document, records: &[NodeId], dates: &DateReader) -> Vec<Option<DateTime<FixedOffset>>> {
    let sibling_date = |record: NodeId, step: isize| {
        let parent = doc.parent(record)?;
        let siblings: Vec<NodeId> = doc.children(parent).iter().copied().filter(|&n| doc.is_element(n)).collect();
        let at = siblings.iter().position(|&n| n == record)?;
        let sibling = *siblings.get(at.checked_add_signed(step)?)?;
        let linked = std::iter::once(sibling).chain(doc.descendants(sibling)).any(|n| doc.is_tag(n, "a"));
        if linked { None } else { record_date(doc, sibling, sibling, dates) }
    };
    let before: Vec<_> = records.iter().map(|&r| sibling_date(r, -1)).collect();
    let after: Vec<_> = records.iter().map(|&r| sibling_date(r, 1)).collect();
    let count = |side: &[Option<_>]| side.iter().filter(|d| d.is_some()).count();
    if count(&after) > count(&before) { after } else { before }
}

/// Characters that separate a date or a bullet from a title in a link's text.
const TITLE_SEPARATORS: [char; 9] = ['-', '–', '—', ':', '|', '»', '·', '•', '/'];

const HEADINGS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];

/// A record's title: a heading inside a link to the item or around one (`<a><h1>…</h1></a>`,
/// `<h2><a>…</a></h2>`), else the longest text of the links to the item without the parts
/// that are only a date (`<a><time>09-25</time> Title</a>`), else the record's heading
/// nearest the link (a card whose link is an empty overlay beside its heading).
fn record_title(doc: &Document, record: NodeId, anchor: NodeId, same_link: &[NodeId], dates: &DateReader) -> String {
    let is_heading = |n: NodeId| doc.tag(n).is_some_and(|t| HEADINGS.contains(&t));
    let around_or_inside = same_link.iter().find_map(|&a| {
        let inside = doc.descendants(a).find(|&n| is_heading(n));
        let around = doc.ancestors(a).take_while(|&n| doc.contains(record, n)).find(|&n| is_heading(n));
        inside.or(around)
    });
    // A date has few letters besides its month name; a title with a date in it has more.
    let only_date = |t: &str| dates.read(t).is_some() && t.chars().filter(|c| c.is_alphabetic()).count() <= 12;
    let without_dates = |a: NodeId| {
        let parts: Vec<&str> =
            doc.descendants(a).filter_map(|n| doc.text_node(n)).map(str::trim).filter(|t| !t.is_empty()).collect();
        // Parts without a letter or digit are separators (`2023-09-05 - Title`, `:: Title`).
        let kept: Vec<&str> =
            parts.iter().copied().filter(|t| !only_date(t) && t.chars().any(char::is_alphanumeric)).collect();
        let title = crate::dom::collapse_whitespace(&kept.join(" "));
        title.trim_matches(|c: char| TITLE_SEPARATORS.contains(&c) || c.is_whitespace()).to_string()
    };
    // A heading's date (`<h2>Title <small>2022-01-23</small></h2>`) is no part of the title.
    around_or_inside
        .map(without_dates)
        .filter(|t| !t.is_empty())
        .or_else(|| {
            same_link.iter().map(|&a| without_dates(a)).filter(|t| !t.is_empty()).max_by_key(|t| t.chars().count())
        })
        .or_else(|| {
            let headings = doc.descendants(record).filter(|&n| is_heading(n) && !doc.text(n).is_empty());
            headings.min_by_key(|&h| tree_distance(doc, h, anchor)).map(|h| doc.text(h))
        })
        .unwrap_or_default()
}

/// Attributes that hold a record's date for machines: `<time datetime>`, microdata's
/// `content`, and the `data-date` that archive themes write on each entry.
const DATE_ATTRIBUTES: [&str; 3] = ["datetime", "content", "data-date"];

/// A date attribute's value: a date as any page writes it, or a compact `20150614`
/// (`data-date` of archive themes, which no text date reader takes for a date).
fn read_attribute_date(value: &str, dates: &DateReader) -> Option<DateTime<FixedOffset>> {
    let value = value.trim();
    if value.len() == 8 && value.bytes().all(|b| b.is_ascii_digit()) {
        return dates.read(&format!("{}-{}-{}", &value[..4], &value[4..6], &value[6..]));
    }
    dates.read(value)
}

/// A year heading of an archive: `2019`, `2019年`, or with its count of posts, `2019 (26)`.
static YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*((?:19|20)[0-9]{2})\s*[年년]?\s*(?:[(（]\s*[0-9]+\s*[)）])?\s*$").expect("valid regex")
});

/// The date of a record nearest its link: a date attribute (`<time datetime>`), else a text
/// (a record that holds its neighbours' entries too — an entry alone in its month of an
/// archive — holds their dates). A text without a year takes the year of the nearest year
/// heading above the record (archives grouped by year).
fn record_date(doc: &Document, record: NodeId, anchor: NodeId, dates: &DateReader) -> Option<DateTime<FixedOffset>> {
    let nodes = || std::iter::once(record).chain(doc.descendants(record));
    let nearest = |found: &mut Option<(u32, DateTime<FixedOffset>)>, node: NodeId, date: DateTime<FixedOffset>| {
        let distance = tree_distance(doc, node, anchor);
        if found.is_none_or(|(d, _)| distance < d) {
            *found = Some((distance, date));
        }
    };
    let mut from_attribute = None;
    for n in nodes().filter(|&n| doc.is_element(n)) {
        if let Some(date) =
            DATE_ATTRIBUTES.iter().find_map(|a| doc.attr(n, a).and_then(|v| read_attribute_date(v, dates)))
        {
            nearest(&mut from_attribute, n, date);
        }
    }
    if let Some((_, date)) = from_attribute {
        return Some(date);
    }
    let mut from_text: Option<(u32, (NodeId, super::dates::ReadDate))> = None;
    for n in nodes() {
        let Some(text) = doc.text_node(n).filter(|t| t.bytes().any(|b| b.is_ascii_digit())) else { continue };
        let Some(found) = dates.read_precise(text) else { continue };
        let distance = tree_distance(doc, n, anchor);
        if from_text.as_ref().is_none_or(|(d, _)| distance < *d) {
            from_text = Some((distance, (n, found)));
        }
    }
    let (_, (node, found)) = from_text?;
    if !found.completed {
        return Some(found.date);
    }
    let year = (0..node.0)
        .rev()
        .take(2000)
        .filter_map(|i| doc.text_node(NodeId(i)))
        .find_map(|t| YEAR.captures(t).and_then(|c| c[1].parse::<i32>().ok()));
    Some(year.and_then(|y| found.date.with_year(y)).unwrap_or(found.date))
}

/// The share of the article part's fields that the template found on the page (its content
/// only where it was kept).
fn article_fields_found(rule: &Rule, item: &Item, content_kept: bool) -> f32 {
    let Some(article) = &rule.article else { return 0.0 };
    let wanted = [article.title.is_some(), article.content.is_some(), article.author.is_some(), article.date.is_some()];
    let found =
        [!item.title.is_empty(), item.content.is_some() && content_kept, item.author.is_some(), item.date.is_some()];
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
    let content = article.content.as_ref().and_then(|p| rules::html_of(doc, p, doc.root()));
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
    read_article(rule, doc, now, hints).0
}

/// The template's content has much less text than the generic extractor's below this share
/// of its words.
const MUCH_LESS: f32 = 0.5;
/// The template's content is elsewhere than the generic extractor's when less than this share
/// of its words are in the generic extractor's text.
const ELSEWHERE: f32 = 0.5;
/// The generic extractor's text says little below this many words (CJK characters count one
/// each): on the page of a short post it is often a box beside it (a licence, a "buy me a
/// coffee"), and only an article-sized text outweighs the learned path.
const ARTICLE_WORDS: usize = 80;

/// [`article_item`], with the share of the template's article fields found on the page.
fn read_article(rule: Option<&Rule>, doc: &Document, now: DateTime<Utc>, hints: &article::Hints) -> (Item, f32) {
    let generic = article::extract(doc, hints);
    let Some((rule, mut item)) = rule.and_then(|rule| template_article(rule, doc, now).map(|item| (rule, item))) else {
        let mut item = Item::new("");
        item.link = Some(doc.url.clone());
        fill_from(&mut item, generic);
        return (item, 0.0);
    };
    let generic_words = generic.content_text.as_deref().map(text::words).unwrap_or_default();
    let template_words = content_text(rule, doc).map(|t| text::words(&t)).unwrap_or_default();
    let content_kept = !gives_way_to_generic(&template_words, &generic_words);
    if !content_kept {
        item.content = None;
    }
    let found = article_fields_found(rule, &item, content_kept);
    fill_from(&mut item, generic);
    (item, found)
}

/// Whether the template's content gives way to the generic extractor's: it is much shorter
/// than an article-sized generic text, and lies elsewhere on the page (a box that held the text on the training pages, on a page
/// of another layout). A short text that the generic extractor's holds is the template's to
/// keep: the generic extractor adds the tags and links around a short post, and a feed-trained
/// path knows where the text ends.
fn gives_way_to_generic(template: &[String], generic: &[String]) -> bool {
    if generic.len() < ARTICLE_WORDS || template.len() as f32 >= MUCH_LESS * generic.len() as f32 {
        return false;
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for word in generic {
        *counts.entry(word).or_default() += 1;
    }
    let held = template
        .iter()
        .filter(|w| counts.get_mut(w.as_str()).is_some_and(|c| std::mem::replace(c, c.saturating_sub(1)) > 0))
        .count();
    (held as f32) < ELSEWHERE * template.len() as f32
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

/// The plain text of the content the template finds on an article page.
pub fn content_text(rule: &Rule, doc: &Document) -> Option<String> {
    let text = path_text(doc, rule.article.as_ref()?.content.as_ref()?);
    (!text.is_empty()).then_some(text)
}

/// The text a content path selects, as its content gives it: without what readers do not see.
pub(super) fn path_text(doc: &Document, path: &Path) -> String {
    let texts: Vec<String> = path
        .select(doc, doc.root())
        .into_iter()
        .map(|target| match target {
            Target::Node(node) => article::content::visible_text(doc, node),
            other => other.text(doc),
        })
        .filter(|t| !t.is_empty())
        .collect();
    texts.join(" ")
}
