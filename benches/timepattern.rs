//! Throughput of the time-pattern engine over the corpus list pages: parsing alone (the
//! baseline, measured in the same run), time-node discovery, and parse + whole extraction.
//! `cargo bench --bench timepattern`.

mod common;

use std::time::Duration;

use chrono::DateTime;
use html2rss::dom::{self, Document};
use html2rss::engines::timepattern::{self, DateContext, TimePatternDb};

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
    let discovery = common::best_of_3(|| {
        for doc in &docs {
            std::hint::black_box(timepattern::discover::discover(doc, db, &context));
        }
    });
    let extraction = common::best_of_3(|| {
        for doc in &docs {
            std::hint::black_box(timepattern::extract(doc, db, &context));
        }
    });
    let whole = parsing + extraction;
    let rate = |d: Duration| mb / d.as_secs_f64();
    let per_second = |d: Duration| inputs.len() as f64 / d.as_secs_f64();
    println!("dom::parse (baseline):        {:7.1} MB/s  {:6.0} pages/s", rate(parsing), per_second(parsing));
    println!("  time-node discovery alone:  {:7.1} MB/s  {:6.0} pages/s", rate(discovery), per_second(discovery));
    println!("  extraction (after parsing): {:7.1} MB/s  {:6.0} pages/s", rate(extraction), per_second(extraction));
    println!("parse + extract:              {:7.1} MB/s  {:6.0} pages/s", rate(whole), per_second(whole));
    println!("cost ratio (parse + extract)/parse: {:.2}×", whole.as_secs_f64() / parsing.as_secs_f64());
}
