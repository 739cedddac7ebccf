//! Items a page declares in structured data: JSON-LD (`ItemList`, lists of `BlogPosting`,
//! `NewsArticle` …), microdata (`itemscope` elements of article-like types), the `h-entry` /
//! `hentry` microformats, and `<article>` elements that hold a `<time>`.
//!
//! The declarations are not the extraction: JSON-LD names items by URL and may list other
//! items than the page shows; markup marks elements, and themes put `hentry` or `<article>`
//! on sidebars too. So they are *votes*: the `auto` engine counts how many of a candidate
//! list's records are marked, or have a declared URL, and weighs the candidate by it.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use serde_json::Value;
use url::Url;

use crate::dom::{Document, NodeId};
use crate::engines::timepattern::{DateContext, parse_date};

/// JSON-LD scripts longer than this are skipped (a page's structured data is a few kB).
const MAX_JSON_LD_BYTES: usize = 1 << 20;

/// schema.org types of things a feed item can be.
const ITEM_TYPES: &[&str] = &[
    "Article",
    "BlogPosting",
    "NewsArticle",
    "Report",
    "ScholarlyArticle",
    "TechArticle",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReviewNewsArticle",
    "SocialMediaPosting",
    "DiscussionForumPosting",
    "LiveBlogPosting",
    "Review",
    "Recipe",
    "Product",
    "Event",
    "JobPosting",
    "CreativeWork",
    "VideoObject",
    "PodcastEpisode",
    "Episode",
    "ListItem",
];

/// schema.org types of articles (a page about one of them is an article page).
const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "BlogPosting",
    "NewsArticle",
    "ScholarlyArticle",
    "TechArticle",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReviewNewsArticle",
    "Report",
];

/// Where a declaration came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    JsonLd,
    Microdata,
    Microformats,
    ArticleTime,
}

/// An element the page marks as one item.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    pub node: NodeId,
    pub source: Source,
}

/// An item the page declares by URL (JSON-LD).
#[derive(Debug, Clone, Serialize)]
pub struct Declared {
    pub url: Url,
    pub title: Option<String>,
    pub date: Option<DateTime<FixedOffset>>,
    /// An article type (`Article`, `BlogPosting`, `NewsArticle` …), not a list entry or product.
    #[serde(skip)]
    pub article: bool,
}

/// What the page declares.
#[derive(Debug, Clone, Default)]
pub struct Structured {
    /// Marked elements, in page order; a mark inside another of the same source is left out
    /// (an `<article>` in an `<article>`).
    pub marks: Vec<Mark>,
    /// JSON-LD items other than the page itself, by URL.
    pub declared: Vec<Declared>,
    /// The page declares itself one article (`og:type` `article`, or a JSON-LD article about
    /// the page's own URL): its undated lists are related links, not its items.
    pub page_is_article: bool,
}

/// How many marks and URLs of each source, for `inspect`.
#[derive(Debug, Clone, Serialize)]
pub struct StructuredReport {
    pub json_ld_items: usize,
    pub microdata: usize,
    pub microformats: usize,
    pub article_time: usize,
}

impl Structured {
    pub fn report(&self) -> StructuredReport {
        let count = |s: Source| self.marks.iter().filter(|m| m.source == s).count();
        StructuredReport {
            json_ld_items: self.declared.len(),
            microdata: count(Source::Microdata),
            microformats: count(Source::Microformats),
            article_time: count(Source::ArticleTime),
        }
    }

    /// Whether the page declares a list: two or more items by one source.
    pub fn declares_list(&self) -> bool {
        self.declared.len() >= 2
            || [Source::Microdata, Source::Microformats, Source::ArticleTime]
                .iter()
                .any(|&s| self.marks.iter().filter(|m| m.source == s).count() >= 2)
    }

    /// The declared item with this URL (compared without fragment).
    pub fn by_url(&self) -> HashMap<Url, &Declared> {
        self.declared.iter().map(|d| (without_fragment(&d.url), d)).collect()
    }

    /// How many marks of each source lie in `start..end` (pre-order).
    pub fn marks_in(&self, start: NodeId, end: NodeId) -> impl Iterator<Item = &Mark> {
        let from = self.marks.partition_point(|m| m.node < start);
        self.marks[from..].iter().take_while(move |m| m.node < end)
    }
}

pub fn without_fragment(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    url
}

/// Everything the page declares.
pub fn find(doc: &Document, context: &DateContext) -> Structured {
    let mut marks = Vec::new();
    let mut declared = Vec::new();
    let mut page_is_article = false;
    // The innermost open mark of each source, by the end of its subtree.
    let mut open: HashMap<Source, NodeId> = HashMap::new();
    for id in doc.ids() {
        let Some(tag) = doc.tag(id) else { continue };
        if tag == "meta" {
            let property = doc.attr(id, "property").or_else(|| doc.attr(id, "name")).unwrap_or_default();
            let content = doc.attr(id, "content").unwrap_or_default().trim();
            page_is_article |= property.eq_ignore_ascii_case("og:type") && content.eq_ignore_ascii_case("article");
            continue;
        }
        if tag == "script" {
            let is_json_ld = doc.attr(id, "type").is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
            if is_json_ld {
                json_ld(doc, id, context, &mut declared);
            }
            continue;
        }
        let mut mark = |source: Source| {
            if open.get(&source).is_some_and(|&outer| doc.contains(outer, id)) {
                return;
            }
            open.insert(source, id);
            marks.push(Mark { node: id, source });
        };
        if doc.attr(id, "itemscope").is_some() && doc.attr(id, "itemtype").is_some_and(is_item_type) {
            mark(Source::Microdata);
        }
        if doc.attr(id, "class").is_some_and(|c| c.split_whitespace().any(|w| w == "h-entry" || w == "hentry")) {
            mark(Source::Microformats);
        }
        if tag == "article" && doc.descendants(id).any(|n| doc.is_tag(n, "time")) {
            mark(Source::ArticleTime);
        }
    }
    // The page itself is not one of its items; an article about it makes it an article page.
    let page = without_fragment(&doc.url);
    page_is_article |= declared.iter().any(|d: &Declared| d.article && without_fragment(&d.url) == page);
    declared.retain(|d: &Declared| without_fragment(&d.url) != page);
    let mut seen = std::collections::HashSet::new();
    declared.retain(|d| seen.insert(without_fragment(&d.url)));
    Structured { marks, declared, page_is_article }
}

/// `http://schema.org/BlogPosting` (or several types) names an item type.
fn is_item_type(itemtype: &str) -> bool {
    itemtype.split_whitespace().any(|t| {
        let name = t.trim_end_matches('/').rsplit(['/', '#']).next().unwrap_or_default();
        ITEM_TYPES.contains(&name)
    })
}

fn json_ld(doc: &Document, script: NodeId, context: &DateContext, out: &mut Vec<Declared>) {
    let text: String = doc.children(script).iter().filter_map(|&c| doc.text_node(c)).collect();
    if text.len() > MAX_JSON_LD_BYTES {
        return;
    }
    // serde_json refuses nesting deeper than 128: hostile input is an error, not a crash.
    let Ok(value) = serde_json::from_str::<Value>(text.trim()) else { return };
    walk(doc, &value, context, out, 0);
}

fn types(value: &Value) -> Vec<&str> {
    match value.get("@type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn string<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    match value.get(key)? {
        Value::String(s) => Some(s.as_str()),
        Value::Object(_) => value.get(key)?.get("@id").and_then(Value::as_str),
        Value::Array(items) => items.first().and_then(Value::as_str),
        _ => None,
    }
}

/// Items of JSON-LD: article-like objects anywhere, and the elements of `ItemList`s.
fn walk(doc: &Document, value: &Value, context: &DateContext, out: &mut Vec<Declared>, depth: usize) {
    if depth > 32 {
        return;
    }
    match value {
        Value::Array(values) => values.iter().for_each(|v| walk(doc, v, context, out, depth + 1)),
        Value::Object(map) => {
            let kinds = types(value);
            if kinds.iter().any(|t| ITEM_TYPES.contains(t)) {
                // A ListItem names its thing in `item` (an object or a URL) or itself.
                let thing = value.get("item").filter(|i| i.is_object()).unwrap_or(value);
                let url = string(thing, "url")
                    .or_else(|| string(value, "url"))
                    .or_else(|| value.get("item").and_then(Value::as_str))
                    .or_else(|| string(thing, "@id"))
                    .or_else(|| string(thing, "mainEntityOfPage"));
                if let Some(url) = url.and_then(|u| doc.resolve(u)) {
                    let title = string(thing, "headline").or_else(|| string(thing, "name")).map(str::to_string);
                    let date = string(thing, "datePublished")
                        .or_else(|| string(thing, "dateCreated"))
                        .and_then(|d| parse_date(d, context))
                        .map(|d| d.date);
                    let article = kinds.iter().any(|t| ARTICLE_TYPES.contains(t));
                    out.push(Declared { url, title, date, article });
                }
            }
            for (key, child) in map {
                if key != "@context" {
                    walk(doc, child, context, out, depth + 1);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> DateContext {
        DateContext::new(DateTime::parse_from_rfc3339("2024-06-01T00:00:00Z").unwrap())
    }

    #[test]
    fn json_ld_lists_and_posts_are_declared_by_url() {
        let doc = crate::dom::parse_str(
            r#"<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList",
              "itemListElement":[{"@type":"ListItem","position":1,"url":"/a"},
                                 {"@type":"ListItem","position":2,"item":{"@type":"BlogPosting","@id":"/b","headline":"B","datePublished":"2024-05-02"}}]}</script>
            <script type="application/ld+json">[{"@type":"BlogPosting","url":"https://example.org/news/"},{"@type":"Person","url":"/me"}]</script>
            <script type="application/ld+json">{"@type": broken</script>"#,
            &Url::parse("https://example.org/news/").unwrap(),
        )
        .unwrap();
        let found = find(&doc, &context());
        let urls: Vec<&str> = found.declared.iter().map(|d| d.url.as_str()).collect();
        // The page itself and the Person are no items.
        assert_eq!(urls, ["https://example.org/a", "https://example.org/b"]);
        assert_eq!(found.declared[1].title.as_deref(), Some("B"));
        assert_eq!(found.declared[1].date.unwrap().format("%F").to_string(), "2024-05-02");
        assert!(found.declares_list());
    }

    #[test]
    fn a_page_declares_itself_an_article_by_og_type_or_json_ld_about_itself() {
        let url = Url::parse("https://example.org/news/one/").unwrap();
        let find_in = |html: &str| find(&crate::dom::parse_str(html, &url).unwrap(), &context());
        assert!(find_in(r#"<meta property="og:type" content="article">"#).page_is_article);
        assert!(!find_in(r#"<meta property="og:type" content="website">"#).page_is_article);
        let about = |url: &str| {
            format!(r#"<script type="application/ld+json">{{"@type":"BlogPosting","url":"{url}"}}</script>"#)
        };
        assert!(find_in(&about("https://example.org/news/one/")).page_is_article);
        // An article elsewhere is an item the page lists, not the page.
        let listed = find_in(&about("/news/two/"));
        assert!(!listed.page_is_article && listed.declared.len() == 1);
    }

    #[test]
    fn markup_marks_the_outermost_element_of_each_source() {
        let doc = crate::dom::parse_str(
            r#"<main><article class="post hentry"><h2><a href="/1">One</a></h2><time>May 1</time>
                 <article><time>nested</time></article></article>
               <div itemscope itemtype="https://schema.org/BlogPosting"><a href="/2">Two</a></div>
               <div itemscope itemtype="https://schema.org/Person">Ann</div></main>"#,
            &Url::parse("https://example.org/").unwrap(),
        )
        .unwrap();
        let found = find(&doc, &context());
        let sources: Vec<Source> = found.marks.iter().map(|m| m.source).collect();
        assert_eq!(sources, [Source::Microformats, Source::ArticleTime, Source::Microdata]);
        assert!(!found.declares_list());
    }
}
