//! Hostile input, refused or bounded rather than crashed on: a page nested 100,000 deep, a
//! page of hundreds of thousands of elements, a feed of 100,000 items. Built here, in memory.

use html2rss::dom::{self, ParseOptions};
use html2rss::engines::auto;
use html2rss::engines::timepattern::{DateContext, TimePatternDb};
use html2rss::feed::reader;
use url::Url;

fn base() -> Url {
    Url::parse("https://hostile.example/").unwrap()
}

#[test]
fn a_page_nested_100_000_deep_is_refused_with_the_reason() {
    let html = format!("<html><body>{}x{}</body></html>", "<div>".repeat(100_000), "</div>".repeat(100_000));
    let error = dom::parse(html.as_bytes(), &base(), &ParseOptions::default()).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("deep") && message.contains("limit of 1000"), "{message}");
}

/// 900 distinct bold elements left open, then paragraphs: the parser would reopen all 900 in
/// each paragraph, two million elements the markup never wrote.
#[test]
fn a_page_that_would_reopen_millions_of_elements_is_refused_with_the_reason() {
    let opened: String = (0..900).map(|i| format!("<b id=b{i}>")).collect();
    let html = format!("<html><body><p>{opened}{}</body></html>", "<p>x".repeat(2500));
    let error = dom::parse(html.as_bytes(), &base(), &ParseOptions::default()).unwrap_err();
    assert!(error.to_string().contains("reopen more than 1000000 times"), "{error}");
}

/// 40,000 dated entries (200,000 elements): the page is read, every entry is an item, and
/// nothing is refused for being merely long.
#[test]
fn a_page_of_200_000_elements_gives_its_items() {
    let entries: String = (0..40_000)
        .map(|i| format!(r#"<li><a href="/p/{i}">Item number {i}</a> <time>2024-01-{:02}</time></li>"#, i % 28 + 1))
        .collect();
    let html = format!("<html><body><ul>{entries}</ul></body></html>");
    let doc = dom::parse(html.as_bytes(), &base(), &ParseOptions::default()).unwrap();
    assert!(doc.len() > 200_000);
    let context = DateContext::new(chrono::Utc::now().fixed_offset());
    let extraction = auto::extract(&doc, TimePatternDb::builtin(), &context);
    assert_eq!(extraction.page.item_count(), 40_000);
    assert!(extraction.page.items().all(|i| i.date.is_some()));
}

#[test]
fn a_feed_of_100_000_items_is_read_whole() {
    let items: String = (0..100_000)
        .map(|i| {
            format!("<item><title>Item {i}</title><link>https://hostile.example/{i}</link><guid>g{i}</guid></item>")
        })
        .collect();
    let xml = format!(
        r#"<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title><link>https://hostile.example/</link>{items}</channel></rss>"#
    );
    let feed = reader::read_feed(xml.as_bytes(), &base()).unwrap();
    assert_eq!(feed.items.len(), 100_000);
    assert_eq!(feed.items[99_999].title, "Item 99999");
}
