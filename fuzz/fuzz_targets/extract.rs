//! The whole `extract` of one page: parse, the engine choice (time patterns, repeated records),
//! and the article extractor, on any bytes.
#![no_main]

use chrono::{TimeZone, Utc};
use html2rss::dom::{ParseOptions, parse};
use html2rss::engines::article;
use html2rss::engines::choose::Engines;
use html2rss::engines::rules::RuleSet;
use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|bytes: &[u8]| {
    let url = Url::parse("https://fuzz.example/news/").unwrap();
    let Ok(doc) = parse(bytes, &url, &ParseOptions::default()) else { return };
    let now = Utc.with_ymd_and_hms(2024, 5, 20, 12, 0, 0).unwrap();
    let _ = Engines::new(RuleSet::new()).choose(&doc, &url, None, now);
    let _ = article::extract(&doc, &article::Hints::default());
});
