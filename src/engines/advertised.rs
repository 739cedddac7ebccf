//! The page's own feed (`Engine::Feed`): the last resort of the engine choice. When no engine
//! finds items on a page that advertises a feed (`<link rel="alternate" type="application/rss+xml">`),
//! the feed is fetched and read with feed-rs into the page model. The same reader serves a
//! subscribed URL that is itself a feed.

use url::Url;

use crate::dom::FeedLink;
use crate::engines::{Engine, Extraction};
use crate::feed::reader::{self, FeedItem, FeedReadError};
use crate::model::{Item, Page, Subject};
use crate::sanitize::sanitize_html;

/// How sure we are that the site's feed stands for the page: it is the site's own data, but
/// it may list other or more items than the page shows (a site-wide feed on a category page).
pub const FEED_CONFIDENCE: f32 = 0.5;

/// The advertised feed to fall back on: the first one the page lists that resolves to an
/// http(s) URL (pages list their main feed first; comment feeds come later).
pub fn advertised_feed(feeds: &[FeedLink], base: &Url) -> Option<Url> {
    feeds
        .iter()
        .filter_map(|feed| base.join(feed.href.trim()).ok())
        .find(|url| matches!(url.scheme(), "http" | "https"))
}

/// Read a feed's bytes (RSS 0.9x/1.0/2.0, Atom or JSON Feed; [`reader::read_feed`]) into the
/// model of the page at `page_url`. `title` is the page's own title, when known; else the
/// feed's is used. Item texts are sanitized with the feed's address as the base of relative
/// links. The page's date is its newest item's.
pub fn read_feed(
    bytes: &[u8],
    feed_url: &Url,
    page_url: &Url,
    title: Option<&str>,
) -> Result<Extraction, FeedReadError> {
    let feed = reader::read_feed(bytes, feed_url)?;
    let page_title = title.map(str::to_string).filter(|t| !t.trim().is_empty()).unwrap_or(feed.title);
    let mut page = Page::new(page_url.clone(), page_title, "UTF-8");
    let items: Vec<Item> = feed.items.iter().filter_map(|entry| item_of(entry, feed_url)).collect();
    page.date = items.iter().filter_map(|item| item.date).max();
    if !items.is_empty() {
        page.subjects.push(Subject { title: None, items });
    }
    Ok(Extraction { page, engine: Engine::Feed, confidence: FEED_CONFIDENCE })
}

fn item_of(entry: &FeedItem, feed_url: &Url) -> Option<Item> {
    if entry.title.is_empty() && entry.link.is_none() {
        return None;
    }
    let mut item = Item::new(entry.title.clone());
    item.link = entry.link.clone();
    item.date = entry.date;
    item.description = entry.summary_markup().and_then(|(raw, html)| html_of(raw, html, feed_url));
    item.content = entry.content_markup().and_then(|(raw, html)| html_of(raw, html, feed_url));
    item.author = entry.author.clone();
    Some(item)
}

/// A feed value as sanitized HTML: plain text is escaped.
fn html_of(raw: &str, html: bool, base: &Url) -> Option<String> {
    let clean = if html { sanitize_html(raw, base) } else { quick_xml::escape::escape(raw.trim()).into_owned() };
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
        assert_eq!(items[0].date.unwrap().to_rfc3339(), "2024-05-07T10:00:00+02:00");
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
        assert!(error.to_string().starts_with("https://example.org/f: not a feed"), "{error}");
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
