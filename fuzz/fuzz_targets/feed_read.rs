//! Feed reading (RSS, Atom, JSON Feed): any bytes are read or refused; a feed read, written as
//! RSS and read back has the same items (same count and links). Titles are compared from the
//! first rewrite on: RSS does not say whether a title is text or HTML, and the reader decodes
//! one level of markup (`&lt;b&gt;` in a title is `<b>`, then markup), so a title whose text
//! holds a tag (found by fuzzing) loses it once, and from then on reads back the same.
#![no_main]

use html2rss::engines::advertised::read_feed;
use html2rss::feed::{FeedMeta, Format, write};
use html2rss::model::Page;
use libfuzzer_sys::fuzz_target;
use url::Url;

fn rewrite(page: &Page) -> Page {
    let feed_url = Url::parse("https://fuzz.example/feed.xml").unwrap();
    let meta = FeedMeta { self_url: None, updated: chrono::DateTime::UNIX_EPOCH.fixed_offset(), ttl_minutes: None };
    let written = write(page, Format::Rss, &meta);
    match read_feed(written.as_bytes(), &feed_url, &page.link, None) {
        Ok(read) => read.page,
        Err(error) => panic!("the written feed does not read back ({error}):\n{written}"),
    }
}

fn titles(page: &Page) -> Vec<&str> {
    page.items().map(|i| i.title.as_str()).collect()
}

fn links(page: &Page) -> Vec<Option<&Url>> {
    page.items().map(|i| i.link.as_ref()).collect()
}

fuzz_target!(|bytes: &[u8]| {
    let feed_url = Url::parse("https://fuzz.example/feed.xml").unwrap();
    let page_url = Url::parse("https://fuzz.example/").unwrap();
    let Ok(read) = read_feed(bytes, &feed_url, &page_url, None) else { return };
    if read.page.item_count() == 0 {
        return;
    }
    let once = rewrite(&read.page);
    assert_eq!(links(&once), links(&read.page));
    let twice = rewrite(&once);
    assert_eq!(titles(&twice), titles(&once));
    assert_eq!(links(&twice), links(&once));
});
