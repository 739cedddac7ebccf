//! `html2rss extract SOURCE [--base-url URL] [--algorithm auto|rule|timepattern|template]
//! [--rule FILE] [--template FILE] [--full-text] [--format rss|atom|json]`: the feed of a page,
//! printed.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use chrono::{DateTime, Utc};
use clap::ValueEnum;
use url::Url;

use crate::article_pages::ArticlePages;
use crate::dom::Document;
use crate::engines::rules::{self, Rule, RuleSet};
use crate::engines::timepattern::{self, DateContext, TimePatternDb};
use crate::engines::{Extraction, auto, enrich, template};
use crate::feed::{self, FeedMeta, Format};
use crate::fetch::{Backoff, FetchConfig, Fetcher};
use crate::model::{Item, Page};
use crate::updater::Hosts;

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
                let (extraction, gave_way) = template::extract_explained(rule, doc, context);
                if let Some(reason) = gave_way {
                    eprintln!(
                        "note: the template '{}' does not fit {} ({reason}); the auto engine's items instead",
                        rule.label(),
                        doc.url
                    );
                }
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
    /// Give the items the content, author and missing dates of their pages (the template's
    /// article part first, when given).
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
    if template.is_none() && algorithm == Algorithm::Template {
        bail!("--algorithm template needs --template FILE (written by `html2rss train`)");
    }
    let rule = match algorithm {
        Algorithm::Template => template.clone(),
        _ => options.rule.map(Rule::load).transpose()?,
    };
    let doc = super::load(source, base_url)?.parse()?;
    let now = Utc::now().fixed_offset();
    let mut extraction = algorithm.extract(&doc, rule.as_ref(), &DateContext::new(now))?;
    if options.full_text {
        full_text(&mut extraction.page, template.map(Arc::new), now.to_utc())?;
    }
    let feed = feed::write(&extraction.page, format, &FeedMeta::new(now));
    writeln!(std::io::stdout().lock(), "{feed}").context("cannot write the feed")?;
    Ok(())
}

/// Least time between two requests to one host for `--full-text`.
const FULL_TEXT_DELAY: Duration = Duration::from_millis(500);
/// Pages of different hosts fetched at once for `--full-text`.
const FULL_TEXT_CONCURRENCY: usize = 4;
/// Longest `Retry-After` or back-off `--full-text` waits out for a host.
const FULL_TEXT_PATIENCE: Duration = Duration::from_secs(30);
/// Most item pages `--full-text` fetches.
const FULL_TEXT_MAX_PAGES: usize = 200;

/// Give the page's items the content, author and missing dates of their pages: local files
/// (a list page saved with its articles) read from disk, web pages fetched politely. A page
/// that cannot be had leaves its item as it was, with a warning.
fn full_text(page: &mut Page, template: Option<Arc<Rule>>, now: DateTime<Utc>) -> anyhow::Result<()> {
    let counts: Vec<usize> = page.subjects.iter().map(|s| s.items.len()).collect();
    let mut items: Vec<Item> = page.subjects.iter_mut().flat_map(|s| s.items.drain(..)).collect();
    let local = |item: &Item| item.content.is_none() && item.link.as_ref().is_some_and(|l| l.scheme() == "file");
    for item in items.iter_mut().filter(|i| local(i)) {
        let Some(link) = item.link.clone() else { continue };
        match super::load(link.as_str(), None).and_then(|source| source.parse()) {
            Ok(doc) => {
                if !enrich::enrich(template.as_deref(), item, &doc, now) {
                    eprintln!("warning: no article content found on {link}");
                }
            }
            Err(error) => eprintln!("warning: no full text for {link}: {error:#}"),
        }
    }
    if items.iter().any(|i| i.content.is_none() && i.link.as_ref().is_some_and(|l| l.scheme().starts_with("http"))) {
        let fetcher = Fetcher::new(&FetchConfig::default())?;
        let hosts =
            Hosts::local(FULL_TEXT_DELAY, Backoff { base: Duration::from_secs(2), max: Duration::from_secs(10) });
        let pages = ArticlePages {
            fetcher: &fetcher,
            hosts: &hosts,
            concurrency: FULL_TEXT_CONCURRENCY,
            max_pages: FULL_TEXT_MAX_PAGES,
            patience: FULL_TEXT_PATIENCE,
        };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let report = runtime.block_on(pages.enrich(template, &mut items, now));
        for (url, error) in &report.failures {
            eprintln!("warning: no full text for {url}: {error}");
        }
        if report.deferred() > 0 {
            eprintln!(
                "warning: {} items were left without full text: at most {FULL_TEXT_MAX_PAGES} pages are fetched, \
                 and hosts that ask for a long pause are not waited for",
                report.deferred()
            );
        }
    }
    let mut items = items.into_iter();
    for (subject, count) in page.subjects.iter_mut().zip(counts) {
        subject.items = items.by_ref().take(count).collect();
    }
    Ok(())
}
