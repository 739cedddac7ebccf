//! `html2rss extract SOURCE [--base-url URL] --algorithm rule|template [--rule FILE]
//! [--template FILE] [--full-text] [--format rss|atom|json]`: the feed of a page, printed.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use chrono::Utc;
use clap::ValueEnum;
use url::Url;

use crate::engines::{
    self,
    rules::{self, Rule, RuleSet},
};
use crate::feed::{self, FeedMeta, Format};

/// Which engine extracts the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Algorithm {
    /// A mapping rule: `--rule FILE`, or the shipped rule whose `<url>` matches the page.
    Rule,
    /// A template learned by `train` from the site's feed: `--template FILE`.
    Template,
}

/// The files and switches of `extract`.
pub struct Options<'a> {
    pub rule: Option<&'a Path>,
    pub template: Option<&'a Path>,
    /// Give the items the content, author and date of their pages (with the template).
    pub full_text: bool,
}

pub fn run(
    source: &str,
    base_url: Option<&Url>,
    algorithm: Algorithm,
    options: &Options,
    format: Format,
) -> anyhow::Result<()> {
    let page = super::load(source, base_url)?;
    let doc = page.parse()?;
    let now = Utc::now();
    let rule_file = options.rule;
    let template = match options.template {
        Some(file) => Some(Rule::load(file)?),
        None if algorithm == Algorithm::Template || options.full_text => {
            bail!("--algorithm template and --full-text need --template FILE (written by `html2rss train`)")
        }
        None => None,
    };
    let mut extraction = match algorithm {
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
        Algorithm::Template => {
            let rule = template.as_ref().ok_or_else(|| anyhow!("--algorithm template needs --template FILE"))?;
            let extraction = engines::template::extract(rule, &doc, now);
            if extraction.page.item_count() == 0 {
                eprintln!("warning: the template '{}' finds nothing on {}", rule.label(), doc.url);
            }
            extraction
        }
    };
    if options.full_text
        && let Some(rule) = &template
    {
        for subject in &mut extraction.page.subjects {
            let failures = engines::template::enrich_all(
                rule,
                &mut subject.items,
                |url| super::load(url.as_str(), None)?.parse(),
                now,
            );
            for (url, error) in failures {
                eprintln!("warning: no full text for {url}: {error:#}");
            }
        }
    }
    let feed = feed::write(&extraction.page, format, &FeedMeta::new(now.fixed_offset()));
    writeln!(std::io::stdout().lock(), "{feed}").context("cannot write the feed")?;
    Ok(())
}
