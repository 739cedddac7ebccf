//! Reading dates: the Time Pattern DB's date reading and finding on any text (in several page
//! languages).
#![no_main]

use chrono::{TimeZone, Utc};
use html2rss::engines::timepattern::{DateContext, TimePatternDb};
use libfuzzer_sys::fuzz_target;

fn read(text: &str) {
    let now = Utc.with_ymd_and_hms(2024, 5, 20, 12, 0, 0).unwrap().fixed_offset();
    let db = TimePatternDb::builtin();
    for lang in ["en", "de", "fr", "ja", "zh"] {
        let context = DateContext::new(now).with_lang(lang);
        let _ = db.parse_date(text, &context);
        let _ = db.find_dates(text, &context);
    }
}

fuzz_target!(
    // The built-in DB compiles once, on first use: not inside an input's 1 s.
    init: read("2024-05-20"),
    |text: &str| read(text)
);
