//! Applying a mapping rule to a parsed page, against parsing that page, in the same run: the
//! rule's cost beyond parsing. `cargo bench --bench rules`.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use chrono::Utc;
use html2rss::engines::rules::{self, Rule};
use html2rss::eval::corpus::list_pages;

/// (rule file, corpus list page): the two largest pages with a shipped rule.
const CASES: &[(&str, &str)] =
    &[("fool-author.xml", "09-fool-com.input.html"), ("craigslist-search.xml", "07-craigslist.input.html")];

fn main() {
    let corpus = common::corpus_dir();
    let pages = list_pages(&corpus).expect("the corpus");
    let now = Utc::now();
    for (rule_file, page_name) in CASES {
        let rule = Rule::load(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules").join(rule_file)).unwrap();
        let page = pages.iter().find(|p| p.name == *page_name).expect("the page");
        let bytes = page.bytes().unwrap();
        let doc = html2rss::dom::parse(&bytes, &page.url, &Default::default()).unwrap();
        let items = rules::apply(&rule, &doc, now).page.item_count();

        // Parsing and applying alternate, so a busy machine slows both alike.
        let (mut parse, mut apply) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            parse = parse.min(common::per_call(20, || {
                std::hint::black_box(html2rss::dom::parse(&bytes, &page.url, &Default::default()).unwrap());
            }));
            apply = apply.min(common::per_call(500, || {
                std::hint::black_box(rules::apply(&rule, &doc, now));
            }));
        }
        println!(
            "{page_name} ({:.0} KB, {} nodes, {items} items) with {rule_file}:",
            bytes.len() as f64 / 1e3,
            doc.len()
        );
        println!("  dom::parse (baseline): {:8.1} µs", parse.as_secs_f64() * 1e6);
        println!(
            "  rules::apply:          {:8.1} µs  ({:.0} items/ms)",
            apply.as_secs_f64() * 1e6,
            items as f64 / (apply.as_secs_f64() * 1e3)
        );
        println!("  apply / parse:         {:8.3}", apply.as_secs_f64() / parse.as_secs_f64());
    }
}
