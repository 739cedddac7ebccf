//! The whole `extract` of one page: parse, the engine choice (time patterns, repeated records),
//! and the article extractor, on any bytes.
#![no_main]

use std::sync::LazyLock;

use chrono::{TimeZone, Utc};
use html2rss::dom::{ParseOptions, parse};
use html2rss::engines::article;
use html2rss::engines::choose::Engines;
use html2rss::engines::rules::RuleSet;
use libfuzzer_sys::fuzz_target;
use url::Url;

static ENGINES: LazyLock<Engines> = LazyLock::new(|| Engines::new(RuleSet::new()));

fn extract(bytes: &[u8]) {
    let url = Url::parse("https://fuzz.example/news/").unwrap();
    let Ok(doc) = parse(bytes, &url, &ParseOptions::default()) else { return };
    let now = Utc.with_ymd_and_hms(2024, 5, 20, 12, 0, 0).unwrap();
    let _ = ENGINES.choose(&doc, &url, None, now);
    let _ = article::extract(&doc, &article::Hints::default());
}

fuzz_target!(
    // The built-in Time Pattern DB compiles once, on first use: not inside an input's 1 s.
    init: extract(b"<ul><li><a href=/a>A story</a> 2024-05-20</li></ul>"),
    |bytes: &[u8]| extract(bytes)
);
