//! Rule XML: any bytes are read or refused; a rule written and read back is the same rule.
#![no_main]

use html2rss::engines::rules::Rule;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(rule) = Rule::from_bytes(bytes, "fuzz") {
        let xml = rule.to_xml();
        let again = Rule::parse(&xml, "written").unwrap_or_else(|e| panic!("{xml}\ndoes not read back: {e}"));
        assert_eq!(again, rule, "{xml}");
    }
});
