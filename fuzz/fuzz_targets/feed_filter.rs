//! `include`/`exclude`/`limit` as strangers write them: any text is compiled (within the size
//! limits) or refused, and applying a filter never panics.
#![no_main]

use html2rss::feed::filter::FeedFilter;
use html2rss::model::{Item, Page, Subject};
use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|text: &str| {
    let mut parts = text.splitn(3, '\n');
    let (include, exclude, limit) = (parts.next(), parts.next(), parts.next());
    let Ok(filter) = FeedFilter::parse(include, exclude, limit) else { return };
    let mut page = Page::new(Url::parse("https://fuzz.example/").unwrap(), "t", "UTF-8");
    let items = [text, "Rust 1.80 released", "<b>café</b> & ümlaut"]
        .iter()
        .map(|title| Item { description: Some(format!("<p>{title}</p>")), ..Item::new(title.to_string()) })
        .collect();
    page.subjects.push(Subject { title: None, items });
    filter.apply(&mut page);
});
