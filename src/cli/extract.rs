//! `html2rss extract SOURCE [--base-url URL] [--algorithm auto|rule|timepattern|template]
//! [--rule FILE] [--template FILE] [--full-text] [--format rss|atom|json]`: the feed of a page,
//! printed.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use chrono::Utc;
use clap::ValueEnum;
use url::Url;

use crate::dom::Document;
use crate::engines::rules::{self, Rule, RuleSet};
use crate::engines::timepattern::{self, DateContext, TimePatternDb};
use crate::engines::{Extraction, auto, template};
use crate::feed::{self, FeedMeta, Format};

/// Which engine extracts the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Algorithm {
    /// Time patterns, repeated patterns and structured data together.
    #[default]
    Auto,
    /// A mapping rule: `--rule FILE`, or the shipped rule whose `<url>` matches the page.
    Rule,
    /// Items found by the dates on the page (the paper's ATP).
    Timepattern,
    /// A template learned by `train` from the site's feed: `--template FILE`.
    Template,
}

impl Algorithm {
    /// Run the engine on a parsed page; `context.now` is the fetch time relative dates count from.
    /// `rule` is the mapping rule of `rule` (default: the shipped one) or the template of
    /// `template` (required).
    pub fn extract(self, doc: &Document, rule: Option<&Rule>, context: &DateContext) -> anyhow::Result<Extraction> {
        Ok(match self {
            Algorithm::Auto => auto::extract(doc, TimePatternDb::builtin(), context),
            Algorithm::Timepattern => timepattern::extract(doc, TimePatternDb::builtin(), context),
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
            Algorithm::Template => {
                let rule = rule.ok_or_else(|| anyhow!("--algorithm template needs --template FILE"))?;
                let extraction = template::extract(rule, doc, context.now.to_utc());
                if extraction.page.item_count() == 0 {
                    eprintln!("warning: the template '{}' finds nothing on {}", rule.label(), doc.url);
                }
                extraction
            }
        })
    }
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
    let template = options.template.map(Rule::load).transpose()?;
    if template.is_none() && (algorithm == Algorithm::Template || options.full_text) {
        bail!("--algorithm template and --full-text need --template FILE (written by `html2rss train`)");
    }
    let rule = match algorithm {
        Algorithm::Template => template.clone(),
        _ => options.rule.map(Rule::load).transpose()?,
    };
    let doc = super::load(source, base_url)?.parse()?;
    let now = Utc::now().fixed_offset();
    let mut extraction = algorithm.extract(&doc, rule.as_ref(), &DateContext::new(now))?;
    if options.full_text
        && let Some(template) = &template
    {
        // Each item's page, fetched; a page that cannot be had leaves its item as it was.
        let load = |url: &Url| super::load(url.as_str(), None)?.parse();
        for subject in &mut extraction.page.subjects {
            for (url, error) in template::enrich_all(template, &mut subject.items, load, now.to_utc()) {
                eprintln!("warning: no full text for {url}: {error:#}");
            }
        }
    }
    let feed = feed::write(&extraction.page, format, &FeedMeta::new(now));
    writeln!(std::io::stdout().lock(), "{feed}").context("cannot write the feed")?;
    Ok(())
}
