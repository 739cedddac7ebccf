//! Throughput of the `auto` engine over the corpus list pages, against parsing the same pages
//! in the same run (the baseline): parsing alone, each engine alone after parsing (time
//! patterns, repeated patterns, structured data), and parse + auto extraction.
//! `cargo bench --bench auto`.

mod common;

use std::time::Duration;

use chrono::DateTime;
use html2rss::dom::{self, Document};
use html2rss::engines::timepattern::{self, DateContext, TimePatternDb};
use html2rss::engines::{auto, repeated, structured};

fn main() {
    let (inputs, mb) = common::list_page_inputs();
    let db = TimePatternDb::builtin();
    let context = DateContext::new(DateTime::parse_from_rfc3339("2024-05-15T12:00:00Z").unwrap());
    let parse =
        |(bytes, url): &(Vec<u8>, url::Url)| -> Document { dom::parse(bytes, url, &Default::default()).unwrap() };
    let docs: Vec<Document> = inputs.iter().map(parse).collect();
    println!("{} list pages, {:.1} MB", inputs.len(), mb);

    let parsing = common::best_of_3(|| {
        for input in &inputs {
            std::hint::black_box(parse(input));
        }
    });
    let time_patterns = common::best_of_3(|| {
        for doc in &docs {
            std::hint::black_box(timepattern::extract(doc, db, &context));
        }
    });
    let repeated_patterns = common::best_of_3(|| {
        for doc in &docs {
            std::hint::black_box(repeated::analyze(doc));
        }
    });
    let structured_data = common::best_of_3(|| {
        for doc in &docs {
            std::hint::black_box(structured::find(doc, &context));
        }
    });
    let extraction = common::best_of_3(|| {
        for doc in &docs {
            std::hint::black_box(auto::extract(doc, db, &context));
        }
    });
    let whole = parsing + extraction;
    let rate = |d: Duration| mb / d.as_secs_f64();
    let per_second = |d: Duration| inputs.len() as f64 / d.as_secs_f64();
    println!("dom::parse (baseline):          {:7.1} MB/s  {:6.0} pages/s", rate(parsing), per_second(parsing));
    println!("  time patterns alone:          {:7.1} MB/s", rate(time_patterns));
    println!("  repeated patterns alone:      {:7.1} MB/s", rate(repeated_patterns));
    println!("  structured data alone:        {:7.1} MB/s", rate(structured_data));
    println!("  auto extraction (after parse): {:6.1} MB/s  {:6.0} pages/s", rate(extraction), per_second(extraction));
    println!("parse + auto:                   {:7.1} MB/s  {:6.0} pages/s", rate(whole), per_second(whole));
    println!(
        "auto extraction / parse: {:.2}× (the issue's bound: 2×)",
        extraction.as_secs_f64() / parsing.as_secs_f64()
    );
}
