//! `html2rss extract SOURCE [--base-url URL] --algorithm rule [--rule FILE] [--format rss|atom|json]`:
//! the feed of a page, printed.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow};
use chrono::Utc;
use clap::ValueEnum;
use url::Url;

use crate::engines::rules::{self, Rule, RuleSet};
use crate::feed::{self, FeedMeta, Format};

/// Which engine extracts the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    /// A mapping rule: `--rule FILE`, or the shipped rule whose `<url>` matches the page.
    Rule,
}

pub fn run(
    source: &str,
    base_url: Option<&Url>,
    algorithm: Algorithm,
    rule_file: Option<&Path>,
    format: Format,
) -> anyhow::Result<()> {
    let page = super::load(source, base_url)?;
    let doc = page.parse()?;
    let now = Utc::now();
    let extraction = match algorithm {
        Algorithm::Rule => {
            let rule = match rule_file {
                Some(file) => Rule::load(file)?,
                None => RuleSet::shipped()
                    .context("a shipped rule is broken")?
                    .find(&doc.url)
                    .cloned()
                    .ok_or_else(|| anyhow!("no shipped rule serves {}; pass --rule FILE", doc.url))?,
            };
            let extraction = rules::apply(&rule, &doc, now);
            if extraction.page.item_count() == 0 {
                eprintln!("warning: the rule '{}' finds no items on {}", rule.label(), doc.url);
            }
            extraction
        }
    };
    let feed = feed::write(&extraction.page, format, &FeedMeta::new(now.fixed_offset()));
    writeln!(std::io::stdout().lock(), "{feed}").context("cannot write the feed")?;
    Ok(())
}
