//! `html2rss eval CORPUS_DIR`: scores the engines on a corpus laid out like `../shared/corpus/`.

use std::path::Path;

use anyhow::Context;

use crate::eval::{articles, dates, site_articles};

pub fn run(corpus: &Path) -> anyhow::Result<()> {
    let articles =
        articles::evaluate(corpus).with_context(|| format!("cannot score the articles of {}", corpus.display()))?;
    println!("{articles}\n");
    let dates = dates::evaluate(corpus).with_context(|| format!("cannot score the dates of {}", corpus.display()))?;
    println!("{dates}\n");
    let site_articles = site_articles::evaluate(corpus)
        .with_context(|| format!("cannot score the site-pair articles of {}", corpus.display()))?;
    println!("{site_articles}");
    Ok(())
}
