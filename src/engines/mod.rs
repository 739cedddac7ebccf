//! The engines: each turns a parsed page into the same model.
//!
//! - `rules`: the paper's SAMR, mapping rules written in XML;
//! - `timepattern`: the paper's ATP, items found by the dates on the page;
//! - `repeated`: the paper's ARP, items found by the page's repeated record structure;
//! - `structured`: items the page declares (JSON-LD, microdata, microformats, `<article>`);
//! - `auto`: time patterns, repeated patterns and structured data together;
//! - `links`, `record`: what the list engines share (link kinds, reading a record as an item);
//! - `template`: templates learned from the site's own feed (written as mapping rules);
//! - `article`: the main content and metadata of an article page;
//! - `enrich`: items from any engine given the full text of their article pages;
//! - `choose`: which engine serves a page;
//! - `advertised`: the page's own feed, read into the model (the last resort of the choice).

pub mod advertised;
pub mod auto;
pub mod choose;
pub mod enrich;
pub mod links;
pub mod record;
pub mod regions;
pub mod repeated;
pub mod rules;
pub mod structured;
pub mod template;
pub mod timepattern;

use serde::Serialize;

use crate::model::Page;

/// Which engine made a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    Rule,
    TimePattern,
    Template,
    RepeatedPattern,
    Feed,
}

/// An engine's result: the page, who made it, and how sure it is (0 to 1).
#[derive(Debug, Clone, Serialize)]
pub struct Extraction {
    pub page: Page,
    pub engine: Engine,
    pub confidence: f32,
}

pub mod article;
