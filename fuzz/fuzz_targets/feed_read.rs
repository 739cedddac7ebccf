//! Feed reading (RSS, Atom, JSON Feed): any bytes are read or refused; a feed read, written as
//! RSS and read back has the same items.
#![no_main]

use html2rss::engines::advertised::read_feed;
use html2rss::feed::{FeedMeta, Format, write};
use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|bytes: &[u8]| {
    let feed_url = Url::parse("https://fuzz.example/feed.xml").unwrap();
    let page_url = Url::parse("https://fuzz.example/").unwrap();
    let Ok(read) = read_feed(bytes, &feed_url, &page_url, None) else { return };
    let meta = FeedMeta { self_url: None, updated: chrono::DateTime::UNIX_EPOCH.fixed_offset(), ttl_minutes: None };
    let written = write(&read.page, Format::Rss, &meta);
    let Ok(again) = read_feed(written.as_bytes(), &feed_url, &page_url, None) else {
        assert_eq!(read.page.item_count(), 0, "the written feed does not read back:\n{written}");
        return;
    };
    let titles = |page: &html2rss::model::Page| page.items().map(|i| i.title.clone()).collect::<Vec<_>>();
    assert_eq!(titles(&again.page), titles(&read.page), "{written}");
});
