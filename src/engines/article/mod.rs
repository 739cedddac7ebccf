//! Article pages: main content and metadata without a template.
//!
//! `extract(&doc, &Hints::default())` gives an [`Article`]: headline, author, publication and
//! modification dates, language, lead image, and the main content as sanitized HTML and as
//! plain text. It is the generic fallback: a trained template's content path, when one applies
//! to the page, is more exact and wins over it.
//!
//! - `metadata`: meta tags, JSON-LD, microdata, and the headline element;
//! - `date`: the page's dates (metadata, `<time>`, URL, visible text — the seam for the
//!   time-pattern engine is [`date::read_visible_date`]);
//! - `content`: pruning, Readability (`dom_smoothie`), cleaning, text;
//! - `hint`: the data-objects paper's n-gram density, used when the caller knows the feed
//!   item's title and description.

pub mod content;
pub mod date;
pub mod hint;
pub mod metadata;

use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use url::Url;

use crate::dom::{Document, NodeId};
pub use date::{DateSource, FoundDate};
pub use metadata::Metadata;

/// What the caller knows about the article beyond its page.
#[derive(Debug, Clone)]
pub struct Hints {
    /// The feed item's title.
    pub title: Option<String>,
    /// The feed item's description (HTML or text): it locates the article on pages with
    /// several candidates (the data-objects paper's n-gram density).
    pub description: Option<String>,
    /// Whether a date in the URL (`/2020/06/07/`) may serve as the publication date.
    pub url_dates: bool,
    /// When the page was fetched, if it was just now: relative dates on it ("3 hours ago")
    /// count back from it. A page read later (a saved file) has none.
    pub fetched: Option<DateTime<FixedOffset>>,
}

impl Default for Hints {
    fn default() -> Hints {
        Hints { title: None, description: None, url_dates: true, fetched: None }
    }
}

/// An article page's metadata and main content.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Article {
    pub title: Option<String>,
    pub author: Option<String>,
    pub published: Option<DateTime<FixedOffset>>,
    /// Where the publication date was found.
    pub published_source: Option<DateSource>,
    pub modified: Option<DateTime<FixedOffset>>,
    /// BCP 47 language tag, lower-case.
    pub lang: Option<String>,
    pub lead_image: Option<Url>,
    /// Sanitized HTML: no scripts, absolute links, lazy images repaired.
    pub content_html: Option<String>,
    /// Plain text, paragraphs separated by blank lines.
    pub content_text: Option<String>,
    /// The headline element on the page, when one matches the metadata.
    #[serde(skip)]
    pub title_node: Option<NodeId>,
    /// Whether the page's whole title is the site's name (its home or a section).
    #[serde(skip)]
    pub title_is_site_name: bool,
}

impl Article {
    /// The page's date for `page.date`: its publication, else its last modification.
    pub fn date(&self) -> Option<DateTime<FixedOffset>> {
        self.published.or(self.modified)
    }
}

/// Metadata and main content of an article page.
pub fn extract(doc: &Document, hints: &Hints) -> Article {
    let meta = metadata::collect(doc, hints.title.as_deref());
    let (published, modified) = date::page_dates(&date_inputs(doc, &meta, hints));
    let content = main_content(doc, &meta, hints);
    Article {
        title: meta.title.clone(),
        author: meta.author.clone(),
        published: published.map(|d| d.date),
        published_source: published.map(|d| d.source),
        modified: modified.map(|d| d.date),
        lang: meta.lang.clone(),
        lead_image: meta.lead_image.clone(),
        content_html: content.as_ref().map(|c| c.html.clone()),
        content_text: content.map(|c| c.text),
        title_node: meta.title_node,
        title_is_site_name: meta.title_is_site_name,
    }
}

/// Only the dates: cheaper than [`extract`] when the content is not wanted.
pub fn dates(doc: &Document, hints: &Hints) -> (Option<FoundDate>, Option<FoundDate>) {
    let meta = metadata::collect(doc, hints.title.as_deref());
    date::page_dates(&date_inputs(doc, &meta, hints))
}

fn date_inputs<'a>(doc: &'a Document, meta: &'a Metadata, hints: &Hints) -> date::DateInputs<'a> {
    date::DateInputs { doc, meta, title_node: meta.title_node, url_dates: hints.url_dates, fetched: hints.fetched }
}

/// The generic extractor's content, unless the caller's hint (the feed item's description)
/// says otherwise: the data-objects paper's wrapper of the item takes over when the generic
/// choice does not hold the hint's concepts (another article, a comment thread), or when the
/// wrapper is one of several alike records (posts on one page) that Readability joined.
fn main_content(doc: &Document, meta: &Metadata, hints: &Hints) -> Option<content::Content> {
    let body = doc.first_tag("body")?;
    let landmarks = content::Landmarks {
        title: meta.title.as_deref(),
        title_node: meta.title_node,
        author: meta.author.as_deref(),
        description: meta.description.as_deref(),
    };
    let generic = content::extract(doc, body, &landmarks);
    let Some(hint_text) = hint_text(doc, hints) else { return generic };
    let consistent = |c: &content::Content| hint::consistency(&c.text, &hint_text) >= hint::CONSISTENCY;
    let Some(wrapper) = hint::wrapper(doc, body, &hint_text) else { return generic };
    let scope = match hint::record_of(doc, wrapper) {
        Some(record) => record,
        None if generic.as_ref().is_some_and(consistent) => return generic,
        None => wrapper,
    };
    let title_node = meta.title_node.filter(|&t| doc.contains(scope, t));
    let scoped = content::extract(doc, scope, &content::Landmarks { title_node, ..landmarks });
    match scoped {
        Some(c) if consistent(&c) => Some(c),
        _ => generic.or(scoped),
    }
}

/// The hint's text: the feed item's title and description without markup.
fn hint_text(doc: &Document, hints: &Hints) -> Option<String> {
    let description = hints.description.as_deref().filter(|d| !d.trim().is_empty())?;
    let description_text = crate::dom::parse_str(description, &doc.base)
        .map(|d| d.text(d.root()))
        .unwrap_or_else(|_| description.to_string());
    Some(format!("{} {}", hints.title.as_deref().unwrap_or_default(), description_text))
}
