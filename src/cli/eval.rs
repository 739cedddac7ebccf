//! `html2rss eval CORPUS_DIR [--algorithm ...] [--json]`: the engines scored on a corpus laid
//! out like `../shared/corpus/` (its README §6). One section per kind of page.

use std::path::Path;

use anyhow::Context;
use chrono::Utc;

use super::extract::Algorithm;
use crate::engines::timepattern::{DateContext, TimePatternDb, discover};
use crate::eval::corpus;
use crate::eval::lists::{self, Output};

pub fn run(corpus_dir: &Path, algorithm: Algorithm, json: bool) -> anyhow::Result<()> {
    let context = DateContext::new(Utc::now().fixed_offset());

    // List pages: occupancy, accuracy, title and date match, counts, throughput.
    let pages = corpus::list_pages(corpus_dir).with_context(|| format!("cannot load {}", corpus_dir.display()))?;
    let db = TimePatternDb::builtin();
    let report = lists::evaluate(&pages, |doc| {
        let page = algorithm.extract(doc, &context).page;
        // Every date the page shows (not only the chosen ones): does the page date its items?
        let shown_dates = discover::discover(doc, db, &context).iter().map(|n| n.date.date_naive()).collect();
        Output { page, shown_dates }
    })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "lists": report }))?);
    } else {
        print!("{}", report.table());
    }
    Ok(())
}
