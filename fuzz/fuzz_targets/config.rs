//! The configuration file: any text is read or refused with a reason, never a panic.
#![no_main]

use html2rss::config::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = Config::parse(text, std::path::Path::new("fuzz.toml"));
});
