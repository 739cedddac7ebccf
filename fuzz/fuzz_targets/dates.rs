//! Reading dates: the Time Pattern DB's date reading and finding on any text (in several page
//! languages), and a rule's date reading with its formats.
#![no_main]

use chrono::{TimeZone, Utc};
use html2rss::engines::timepattern::{DateContext, TimePatternDb};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let now = Utc.with_ymd_and_hms(2024, 5, 20, 12, 0, 0).unwrap().fixed_offset();
    let db = TimePatternDb::builtin();
    for lang in ["en", "de", "fr", "ja", "zh"] {
        let context = DateContext::new(now).with_lang(lang);
        let _ = db.parse_date(text, &context);
        let _ = db.find_dates(text, &context);
    }
});
