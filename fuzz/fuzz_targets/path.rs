//! The path language: any text parses or is refused; a path printed and parsed back is the
//! same path.
#![no_main]

use html2rss::path::Path;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(path) = text.parse::<Path>() {
        let printed = path.to_string();
        let again: Path = printed.parse().unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
        assert_eq!(again, path, "{printed:?}");
    }
});
