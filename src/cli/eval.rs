//! `html2rss eval CORPUS_DIR [--algorithm ...] [--json]`: the engines scored on a corpus laid
//! out like `../shared/corpus/` (its README §6). One section per kind of page.

use std::path::Path;

use anyhow::Context;
use chrono::Utc;

use super::extract::Algorithm;
use crate::engines::timepattern::{DateContext, TimePatternDb, discover};
use crate::eval::lists::{self, Output};
use crate::eval::{articles, corpus, dates, site_articles, template};
use crate::model::Page;

pub fn run(corpus_dir: &Path, algorithm: Algorithm, json: bool) -> anyhow::Result<()> {
    let context = DateContext::new(Utc::now().fixed_offset());
    let cannot = |what: &str| format!("cannot score the {what} of {}", corpus_dir.display());

    // List pages: occupancy, accuracy, title and date match, counts, throughput.
    let pages = corpus::list_pages(corpus_dir).with_context(|| cannot("list pages"))?;
    let db = TimePatternDb::builtin();
    let lists = lists::evaluate(&pages, |doc| {
        // A page the algorithm cannot serve (no rule for it) scores as an empty output.
        let page = match algorithm.extract(doc, None, &context) {
            Ok(extraction) => extraction.page,
            Err(_) => Page::new(doc.url.clone(), doc.title(), doc.encoding.name()),
        };
        // Every date the page shows (not only the chosen ones): does the page date its items?
        let shown_dates = discover::discover(doc, db, &context).iter().map(|n| n.date.date_naive()).collect();
        Output { page, shown_dates }
    })?;
    // Article pages: main text, page dates, site-pair articles against their own feeds.
    let articles = articles::evaluate(corpus_dir).with_context(|| cannot("articles"))?;
    let dates = dates::evaluate(corpus_dir).with_context(|| cannot("dates"))?;
    let site_articles = site_articles::evaluate(corpus_dir).with_context(|| cannot("site-pair articles"))?;
    // Templates: trained on each site's feed, homepage and article pages; scored on the list
    // pages the training never saw and on the article pages.
    let templates = template::evaluate(corpus_dir, None).with_context(|| cannot("templates"))?;

    if json {
        let report = serde_json::json!({ "lists": lists, "templates": { "totals": templates.totals(None), "report": templates } });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}\n\n{articles}\n\n{dates}\n\n{site_articles}\n\n{templates}", lists.table());
    }
    Ok(())
}
