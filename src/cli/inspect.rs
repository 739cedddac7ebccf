//! `html2rss inspect SOURCE --format json`: the page model and what the engines saw.

use anyhow::bail;
use chrono::Utc;
use serde::Serialize;
use url::Url;

use crate::dom::EncodingSource;
use crate::engines::Engine;
use crate::engines::article::{self, Hints};
use crate::engines::auto;
use crate::engines::timepattern::{DateContext, TimeNode, TimePatternDb, extract::GroupReport};
use crate::model::Page;

/// The page model with the page's main content, whether or not the page also lists items.
#[derive(Serialize)]
struct InspectedPage {
    #[serde(flatten)]
    page: Page,
    content_html: Option<String>,
    content_text: Option<String>,
}

#[derive(Serialize)]
struct Inspection {
    /// The page model; `page.date` is the page's publication date, else (on a list page) its
    /// newest item's date.
    page: InspectedPage,
    /// Every date the time-pattern engine found, with its node address and pattern.
    time_nodes: Vec<TimeNode>,
    /// The time nodes grouped by pattern, each group's blocks with their scores.
    groups: Vec<GroupReport>,
    /// The `auto` engine's choice: the repeated-record candidates with their scores and the
    /// votes of the dates and the structured data, and why the winner won.
    auto: auto::Report,
    /// Whether the page is taken for an article rather than a list (the server's engine
    /// choice serves an article page's own feed instead of its undated related links).
    article_page: bool,
    engine: Engine,
    confidence: f32,
    encoding_source: EncodingSource,
    nodes: usize,
}

pub fn run(source: &str, base_url: Option<&Url>, format: &str) -> anyhow::Result<()> {
    if format != "json" {
        bail!("inspect prints JSON only (--format json), not '{format}'");
    }
    // A page fetched now dates its relative dates ("3 hours ago") from now; a saved file cannot.
    let fetched = Url::parse(source).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
    let source = super::load(source, base_url)?;
    let doc = source.parse()?;
    let context = DateContext::new(Utc::now().fixed_offset());
    let analysis = auto::analyze(&doc, TimePatternDb::builtin(), &context);
    let report = analysis.report(&doc);
    let hints = Hints { fetched: fetched.then_some(context.now), ..Hints::default() };
    let article = article::extract(&doc, &hints);
    let article_page = analysis.is_article_page(&doc, &article);
    let mut page = analysis.extraction.page;
    // The article extractor looks for the page's own publication date (meta tags, JSON-LD, the
    // date by the headline); a list's newest item date is the fallback, on a list page only:
    // an article's list is of other stories (related, "Top stories"), their dates not its own.
    page.date = article.date().or(page.date.filter(|_| !article_page));
    let inspection = Inspection {
        page: InspectedPage { page, content_html: article.content_html, content_text: article.content_text },
        time_nodes: analysis.time.time_nodes,
        groups: analysis.time.groups,
        auto: report,
        article_page,
        engine: analysis.extraction.engine,
        confidence: analysis.extraction.confidence,
        encoding_source: doc.encoding_source,
        nodes: doc.len(),
    };
    println!("{}", serde_json::to_string_pretty(&inspection)?);
    Ok(())
}
