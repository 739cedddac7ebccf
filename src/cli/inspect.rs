//! `html2rss inspect SOURCE --format json`: the page model and what the engines saw.

use anyhow::bail;
use serde::Serialize;
use url::Url;

use crate::dom::EncodingSource;
use crate::engines::article::{self, Hints};
use crate::model::Page;

/// The page model with the page's main content when it is an article page.
#[derive(Serialize)]
struct InspectedPage {
    #[serde(flatten)]
    page: Page,
    content_html: Option<String>,
    content_text: Option<String>,
}

#[derive(Serialize)]
struct Inspection {
    page: InspectedPage,
    encoding_source: EncodingSource,
    nodes: usize,
}

pub fn run(source: &str, base_url: Option<&Url>, format: &str) -> anyhow::Result<()> {
    if format != "json" {
        bail!("inspect prints JSON only (--format json), not '{format}'");
    }
    let source = super::load(source, base_url)?;
    let doc = source.parse()?;
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    let article = article::extract(&doc, &Hints::default());
    page.date = article.date();
    // A page whose engines found items is a list page; its "main content" would be the list.
    let (content_html, content_text) =
        if page.subjects.is_empty() { (article.content_html, article.content_text) } else { (None, None) };
    let page = InspectedPage { page, content_html, content_text };
    let inspection = Inspection { page, encoding_source: doc.encoding_source, nodes: doc.len() };
    println!("{}", serde_json::to_string_pretty(&inspection)?);
    Ok(())
}
