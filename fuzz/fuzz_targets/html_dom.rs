//! HTML bytes → DOM: any bytes parse (or are refused with an error), never a panic or a hang.
#![no_main]

use html2rss::dom::{ParseOptions, parse};
use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|bytes: &[u8]| {
    let base = Url::parse("https://fuzz.example/page").unwrap();
    if let Ok(doc) = parse(bytes, &base, &ParseOptions::default()) {
        let _ = doc.text(doc.root());
        let _ = doc.outer_html(doc.root());
    }
});
