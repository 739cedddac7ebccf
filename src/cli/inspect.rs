//! `html2rss inspect SOURCE --format json`: the page model and what the engines saw.

use anyhow::bail;
use chrono::Utc;
use serde::Serialize;
use url::Url;

use crate::dom::EncodingSource;
use crate::engines::Engine;
use crate::engines::timepattern::{self, DateContext, TimeNode, TimePatternDb, extract::GroupReport};
use crate::model::Page;

#[derive(Serialize)]
struct Inspection {
    /// The page model; `page.date` is the newest item date of a list page.
    page: Page,
    /// Every date the time-pattern engine found, with its node address and pattern.
    time_nodes: Vec<TimeNode>,
    /// The time nodes grouped by pattern, each group's blocks with their scores.
    groups: Vec<GroupReport>,
    engine: Engine,
    confidence: f32,
    encoding_source: EncodingSource,
    nodes: usize,
}

pub fn run(source: &str, base_url: Option<&Url>, format: &str) -> anyhow::Result<()> {
    if format != "json" {
        bail!("inspect prints JSON only (--format json), not '{format}'");
    }
    let source = super::load(source, base_url)?;
    let doc = source.parse()?;
    let context = DateContext::new(Utc::now().fixed_offset());
    let analysis = timepattern::analyze(&doc, TimePatternDb::builtin(), &context);
    let inspection = Inspection {
        page: analysis.extraction.page,
        time_nodes: analysis.time_nodes,
        groups: analysis.groups,
        engine: analysis.extraction.engine,
        confidence: analysis.extraction.confidence,
        encoding_source: doc.encoding_source,
        nodes: doc.len(),
    };
    println!("{}", serde_json::to_string_pretty(&inspection)?);
    Ok(())
}
