//! Enrichment: items from any engine get what their article pages say — the full content
//! (sanitized HTML), the author, and the date and title where the item has none.
//!
//! A site's template, when there is one, reads the article page first (its `<article>` part:
//! learned paths are more exact than any guess); whatever it does not find comes from the
//! generic article extractor ([`crate::engines::article`]), guided by the item's own title and
//! description (the data-objects paper's n-gram density picks the right text on pages with
//! several candidates). Fetching the pages is the caller's: [`crate::article_pages`] does it politely
//! for the server and the command line; tests and local files pass a loader to [`enrich_all`].

use chrono::{DateTime, Utc};
use url::Url;

use crate::dom::Document;
use crate::engines::article;
use crate::engines::rules::Rule;
use crate::engines::template::article_item;
use crate::model::Item;

/// What an article page gave an item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Found {
    /// The page's main content, sanitized HTML.
    pub content: Option<String>,
    pub author: Option<String>,
    pub title: Option<String>,
    pub date: Option<chrono::DateTime<chrono::FixedOffset>>,
}

impl Found {
    /// Give `item` the content (replacing a teaser the item may carry), and the author, date
    /// and title where it has none. Whether the item has content now.
    pub fn apply_to(self, item: &mut Item) -> bool {
        if self.content.is_some() {
            item.content = self.content;
        }
        if item.author.is_none() {
            item.author = self.author;
        }
        if item.date.is_none() {
            item.date = self.date;
        }
        if item.title.trim().is_empty()
            && let Some(title) = self.title.filter(|t| !t.trim().is_empty())
        {
            item.title = title;
        }
        item.content.is_some()
    }
}

/// Read an item's article page: the template's article part first, the generic extractor
/// (with the item's title and description as hints) for what it does not find.
pub fn read_article(template: Option<&Rule>, item: &Item, doc: &Document, now: DateTime<Utc>) -> Found {
    let hints = article::Hints {
        title: (!item.title.trim().is_empty()).then(|| item.title.clone()),
        description: item.description.clone(),
        ..article::Hints::default()
    };
    let page = article_item(template, doc, now, &hints);
    Found {
        content: page.content,
        author: page.author.filter(|a| !a.trim().is_empty()),
        title: (!page.title.trim().is_empty()).then_some(page.title),
        date: page.date,
    }
}

/// Give an item what its article page `doc` says (see [`Found::apply_to`]). Whether the item
/// has content now.
pub fn enrich(template: Option<&Rule>, item: &mut Item, doc: &Document, now: DateTime<Utc>) -> bool {
    read_article(template, item, doc, now).apply_to(item)
}

/// [`enrich`] every item that has a link, loading its article page with `load` (a closure over
/// local files, or pages a test already has). Pages that fail to load are returned with their
/// errors; their items stay as they were.
pub fn enrich_all<E>(
    template: Option<&Rule>,
    items: &mut [Item],
    mut load: impl FnMut(&Url) -> Result<Document, E>,
    now: DateTime<Utc>,
) -> Vec<(Url, E)> {
    let mut failures = Vec::new();
    for item in items.iter_mut() {
        let Some(link) = item.link.clone() else { continue };
        match load(&link) {
            Ok(doc) => {
                enrich(template, item, &doc, now);
            }
            Err(e) => failures.push((link, e)),
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::{ParseOptions, parse};

    const ARTICLE: &str = r#"<html><head><title>Rain in Spain | The Daily</title>
        <meta name="author" content="Ann Writer">
        <meta property="article:published_time" content="2024-03-05T10:00:00+01:00"></head>
        <body><nav><a href="/">Home</a> <a href="/world">World</a></nav>
        <article><h1>Rain in Spain</h1>
        <p>The rain in Spain falls mainly on the plain, the forecasters said on Tuesday, and it
        will keep falling for the rest of the week across the central regions of the country.</p>
        <p>Farmers welcomed the rain after a dry winter that left reservoirs at a third of their
        capacity, while cities braced for flooding in low streets near the rivers.</p>
        <p>Read the <a href="/weather/spain">full forecast</a> on our weather pages.</p></article>
        <footer>Copyright The Daily</footer></body></html>"#;

    fn doc() -> Document {
        let url = Url::parse("https://news.example/world/rain-in-spain").unwrap();
        parse(ARTICLE.as_bytes(), &url, &ParseOptions::default()).unwrap()
    }

    #[test]
    fn without_a_template_the_generic_extractor_fills_the_item() {
        let mut item = Item::new("Rain in Spain");
        item.link = Some(Url::parse("https://news.example/world/rain-in-spain").unwrap());
        item.description = Some("The rain in Spain falls mainly on the plain".into());
        assert!(enrich(None, &mut item, &doc(), Utc::now()));
        let content = item.content.as_deref().unwrap();
        assert!(content.contains("Farmers welcomed the rain"), "{content}");
        assert!(content.contains(r#"href="https://news.example/weather/spain""#), "{content}");
        assert!(!content.contains("Copyright"), "{content}");
        assert_eq!(item.author.as_deref(), Some("Ann Writer"));
        assert_eq!(item.date.unwrap().to_rfc3339(), "2024-03-05T10:00:00+01:00");
        // The item's own title and description stay.
        assert_eq!(item.title, "Rain in Spain");
        assert_eq!(item.description.as_deref(), Some("The rain in Spain falls mainly on the plain"));
    }

    #[test]
    fn what_the_item_has_is_kept_except_a_teaser_content() {
        let mut item = Item::new("");
        item.author = Some("Desk".into());
        item.date = chrono::DateTime::parse_from_rfc3339("2024-03-06T08:00:00Z").ok();
        item.content = Some("<p>Teaser</p>".into());
        enrich(None, &mut item, &doc(), Utc::now());
        assert_eq!(item.author.as_deref(), Some("Desk"));
        assert_eq!(item.date.unwrap().to_rfc3339(), "2024-03-06T08:00:00+00:00");
        assert_eq!(item.title, "Rain in Spain");
        assert!(item.content.as_deref().unwrap().contains("Farmers welcomed"));
    }

    #[test]
    fn a_page_without_an_article_leaves_the_content_as_it_was() {
        let url = Url::parse("https://news.example/empty").unwrap();
        let empty = parse(b"<html><body></body></html>", &url, &ParseOptions::default()).unwrap();
        let mut item = Item::new("Something");
        assert!(!enrich(None, &mut item, &empty, Utc::now()));
        assert_eq!(item.content, None);
    }
}
