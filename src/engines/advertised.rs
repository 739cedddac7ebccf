//! The page's own feed (`Engine::Feed`): the last resort of the engine choice. When no engine
//! finds items on a page that advertises a feed (`<link rel="alternate" type="application/rss+xml">`),
//! the feed is fetched and read with feed-rs into the page model. The same reader serves a
//! subscribed URL that is itself a feed.

use chrono::{DateTime, Utc};
use url::Url;

use crate::dom::{self, FeedLink};
use crate::engines::{Engine, Extraction};
use crate::model::{Item, Page, Subject};
use crate::sanitize::sanitize_html;

/// How sure we are that the site's feed stands for the page: it is the site's own data, but
/// it may list other or more items than the page shows (a site-wide feed on a category page).
pub const FEED_CONFIDENCE: f32 = 0.5;

/// Why a feed was not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{url} is not a feed html2rss can read: {reason}")]
pub struct FeedReadError {
    pub url: String,
    pub reason: String,
}

/// The advertised feed to fall back on: the first one the page lists that resolves to an
/// http(s) URL (pages list their main feed first; comment feeds come later).
pub fn advertised_feed(feeds: &[FeedLink], base: &Url) -> Option<Url> {
    feeds
        .iter()
        .filter_map(|feed| base.join(feed.href.trim()).ok())
        .find(|url| matches!(url.scheme(), "http" | "https"))
}

/// Read a feed's bytes (RSS 0.9x/1.0/2.0, Atom or JSON Feed) into the model of the page at
/// `page_url`. `title` is the page's own title, when known; else the feed's is used. Item
/// texts are sanitized with the feed's address as the base of relative links.
pub fn read_feed(
    bytes: &[u8],
    feed_url: &Url,
    page_url: &Url,
    title: Option<&str>,
) -> Result<Extraction, FeedReadError> {
    let feed = feed_rs::parser::parse(bytes)
        .map_err(|e| FeedReadError { url: feed_url.to_string(), reason: e.to_string() })?;
    let page_title = title
        .map(str::to_string)
        .filter(|t| !t.trim().is_empty())
        .or_else(|| feed.title.as_ref().map(|t| text_of(t, feed_url)))
        .unwrap_or_default();
    let mut page = Page::new(page_url.clone(), page_title, "UTF-8");
    page.date = feed.updated.map(|d| d.fixed_offset());
    let items: Vec<Item> = feed.entries.iter().filter_map(|entry| item_of(entry, feed_url)).collect();
    if !items.is_empty() {
        page.subjects.push(Subject { title: None, items });
    }
    Ok(Extraction { page, engine: Engine::Feed, confidence: FEED_CONFIDENCE })
}

fn item_of(entry: &feed_rs::model::Entry, feed_url: &Url) -> Option<Item> {
    let base = entry.base.as_deref().and_then(|b| feed_url.join(b).ok()).unwrap_or_else(|| feed_url.clone());
    let link = entry
        .links
        .iter()
        .filter(|l| l.rel.as_deref().is_none_or(|rel| rel == "alternate"))
        .chain(entry.links.iter())
        .find_map(|l| base.join(l.href.trim()).ok().filter(|u| matches!(u.scheme(), "http" | "https")));
    let title = entry.title.as_ref().map(|t| text_of(t, &base)).unwrap_or_default();
    if title.is_empty() && link.is_none() {
        return None;
    }
    let mut item = Item::new(title);
    item.link = link;
    item.date = entry.published.or(entry.updated).map(|d: DateTime<Utc>| d.fixed_offset());
    item.description = entry.summary.as_ref().and_then(|t| html_of(t, &base));
    item.content = entry.content.as_ref().and_then(|c| c.body.as_deref()).and_then(|body| clean(body, &base));
    item.author =
        entry.authors.iter().find_map(|a| Some(a.name.as_deref()?.trim().to_string()).filter(|n| !n.is_empty()));
    Some(item)
}

/// A feed text as plain text: HTML titles (Atom `type="html"`) lose their markup.
fn text_of(text: &feed_rs::model::Text, base: &Url) -> String {
    if text.content_type.subty().as_ref() == "html" {
        match dom::parse_str(&text.content, base) {
            Ok(doc) => doc.text(doc.root()),
            Err(_) => dom::collapse_whitespace(&text.content),
        }
    } else {
        dom::collapse_whitespace(&text.content)
    }
}

/// A feed text as sanitized HTML: plain text is escaped.
fn html_of(text: &feed_rs::model::Text, base: &Url) -> Option<String> {
    if text.content_type.subty().as_ref() == "plain" {
        let plain = text.content.trim();
        (!plain.is_empty()).then(|| quick_xml::escape::escape(plain).into_owned())
    } else {
        clean(&text.content, base)
    }
}

fn clean(html: &str, base: &Url) -> Option<String> {
    let clean = sanitize_html(html, base);
    let clean = clean.trim();
    (!clean.is_empty()).then(|| clean.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn rss_items_become_the_model_with_absolute_links_and_clean_html() {
        let rss = br#"<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
            <title>Site feed</title><link>https://example.org/</link><description>d</description>
            <item><title>First &amp; best</title><link>/posts/1</link><pubDate>Tue, 07 May 2024 10:00:00 +0200</pubDate>
              <description>&lt;p onclick="x()"&gt;Short &lt;script&gt;bad()&lt;/script&gt;text&lt;/p&gt;</description>
              <dc:creator>Ann</dc:creator></item>
            <item><title>Undated</title><link>https://example.org/posts/2</link></item>
            <item><description>neither title nor link</description></item>
        </channel></rss>"#;
        let extraction =
            read_feed(rss, &url("https://example.org/feed.xml"), &url("https://example.org/blog/"), None).unwrap();
        assert_eq!((extraction.engine, extraction.confidence), (Engine::Feed, FEED_CONFIDENCE));
        let page = &extraction.page;
        assert_eq!((page.link.as_str(), page.title.as_str()), ("https://example.org/blog/", "Site feed"));
        let items: Vec<&Item> = page.items().collect();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].title, "First & best");
        assert_eq!(items[0].link.as_ref().unwrap().as_str(), "https://example.org/posts/1");
        assert_eq!(items[0].date.unwrap().to_rfc3339(), "2024-05-07T08:00:00+00:00");
        assert_eq!(items[0].description.as_deref(), Some("<p>Short text</p>"));
        assert_eq!(items[0].author.as_deref(), Some("Ann"));
        assert_eq!(items[1].date, None);
    }

    #[test]
    fn atom_html_titles_lose_markup_and_the_page_title_wins() {
        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom site</title><id>x</id>
            <updated>2024-05-07T10:00:00Z</updated>
            <entry><title type="html">&lt;b&gt;Bold&lt;/b&gt; news</title><id>e1</id>
              <link rel="alternate" href="https://example.org/a/1"/><updated>2024-05-07T09:00:00Z</updated>
              <content type="html">&lt;p&gt;Body&lt;/p&gt;</content></entry></feed>"#;
        let extraction =
            read_feed(atom, &url("https://example.org/atom"), &url("https://example.org/"), Some("Page title"))
                .unwrap();
        assert_eq!(extraction.page.title, "Page title");
        let item = extraction.page.items().next().unwrap();
        assert_eq!(item.title, "Bold news");
        assert_eq!(item.content.as_deref(), Some("<p>Body</p>"));
    }

    #[test]
    fn not_a_feed_is_an_error_naming_the_url() {
        let error =
            read_feed(b"<html><p>hi</p></html>", &url("https://example.org/f"), &url("https://example.org/"), None)
                .unwrap_err();
        assert!(error.to_string().starts_with("https://example.org/f is not a feed"), "{error}");
    }

    #[test]
    fn the_first_http_feed_is_the_one_to_use() {
        let link = |href: &str| FeedLink { href: href.into(), kind: "rss".into(), title: None };
        let base = url("https://example.org/blog/");
        assert_eq!(
            advertised_feed(&[link("javascript:x"), link("feed.xml")], &base),
            Some(url("https://example.org/blog/feed.xml"))
        );
        assert_eq!(advertised_feed(&[], &base), None);
    }
}
