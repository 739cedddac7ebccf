//! `html2rss extract SOURCE [--base-url URL] [--algorithm auto|timepattern] [--format rss|atom|json]`:
//! the page's feed on standard output.

use chrono::Utc;
use clap::ValueEnum;
use url::Url;

use crate::dom::Document;
use crate::engines::Extraction;
use crate::engines::timepattern::{self, DateContext, TimePatternDb};
use crate::feed::{self, FeedMeta, Format};

/// Which engine extracts the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Algorithm {
    /// The best engine for the page (for now: time patterns).
    #[default]
    Auto,
    /// Items found by the dates on the page (the paper's ATP).
    Timepattern,
}

impl Algorithm {
    /// Run the engine on a parsed page; `now` is the fetch time relative dates count from.
    pub fn extract(self, doc: &Document, context: &DateContext) -> Extraction {
        match self {
            Algorithm::Auto | Algorithm::Timepattern => timepattern::extract(doc, TimePatternDb::builtin(), context),
        }
    }
}

pub fn run(source: &str, base_url: Option<&Url>, algorithm: Algorithm, format: Format) -> anyhow::Result<()> {
    let source = super::load(source, base_url)?;
    let doc = source.parse()?;
    let now = Utc::now().fixed_offset();
    let extraction = algorithm.extract(&doc, &DateContext::new(now));
    print!("{}", feed::write(&extraction.page, format, &FeedMeta::new(now)));
    Ok(())
}
