//! `html2rss inspect SOURCE --format json`: the page model and what the engines saw.

use anyhow::bail;
use serde::Serialize;
use url::Url;

use crate::dom::EncodingSource;
use crate::model::Page;

#[derive(Serialize)]
struct Inspection {
    page: Page,
    encoding_source: EncodingSource,
    nodes: usize,
}

pub fn run(source: &str, base_url: Option<&Url>, format: &str) -> anyhow::Result<()> {
    if format != "json" {
        bail!("inspect prints JSON only (--format json), not '{format}'");
    }
    let source = super::load(source, base_url)?;
    let doc = source.parse()?;
    let page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    let inspection = Inspection { page, encoding_source: doc.encoding_source, nodes: doc.len() };
    println!("{}", serde_json::to_string_pretty(&inspection)?);
    Ok(())
}
