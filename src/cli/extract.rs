//! `html2rss extract SOURCE [--base-url URL] [--algorithm auto|rule|timepattern] [--rule FILE]
//! [--format rss|atom|json]`: the feed of a page, printed.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow};
use chrono::Utc;
use clap::ValueEnum;
use url::Url;

use crate::dom::Document;
use crate::engines::Extraction;
use crate::engines::rules::{self, Rule, RuleSet};
use crate::engines::timepattern::{self, DateContext, TimePatternDb};
use crate::feed::{self, FeedMeta, Format};

/// Which engine extracts the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Algorithm {
    /// The best engine for the page (for now: time patterns).
    #[default]
    Auto,
    /// A mapping rule: `--rule FILE`, or the shipped rule whose `<url>` matches the page.
    Rule,
    /// Items found by the dates on the page (the paper's ATP).
    Timepattern,
}

impl Algorithm {
    /// Run the engine on a parsed page; `context.now` is the fetch time relative dates count from.
    pub fn extract(self, doc: &Document, rule: Option<&Rule>, context: &DateContext) -> anyhow::Result<Extraction> {
        Ok(match self {
            Algorithm::Auto | Algorithm::Timepattern => timepattern::extract(doc, TimePatternDb::builtin(), context),
            Algorithm::Rule => {
                let shipped;
                let rule = match rule {
                    Some(rule) => rule,
                    None => {
                        shipped = RuleSet::shipped().context("a shipped rule is broken")?;
                        shipped
                            .find(&doc.url)
                            .ok_or_else(|| anyhow!("no shipped rule serves {}; pass --rule FILE", doc.url))?
                    }
                };
                let extraction = rules::apply(rule, doc, context.now.to_utc());
                if extraction.page.item_count() == 0 {
                    eprintln!("warning: the rule '{}' finds no items on {}", rule.label(), doc.url);
                }
                extraction
            }
        })
    }
}

pub fn run(
    source: &str,
    base_url: Option<&Url>,
    algorithm: Algorithm,
    rule_file: Option<&Path>,
    format: Format,
) -> anyhow::Result<()> {
    let rule = rule_file.map(Rule::load).transpose()?;
    let doc = super::load(source, base_url)?.parse()?;
    let now = Utc::now().fixed_offset();
    let extraction = algorithm.extract(&doc, rule.as_ref(), &DateContext::new(now))?;
    let feed = feed::write(&extraction.page, format, &FeedMeta::new(now));
    writeln!(std::io::stdout().lock(), "{feed}").context("cannot write the feed")?;
    Ok(())
}
