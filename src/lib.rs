//! html2rss: feeds for web pages that have none.
//!
//! Data flows one way: fetch → dom → engine → model → feed/store → web.

pub mod article_pages;
pub mod cli;
pub mod config;
pub mod dom;
pub mod engines;
pub mod eval;
pub mod feed;
pub mod fetch;
pub mod model;
pub mod path;
pub mod sanitize;
pub mod store;
pub mod updater;
pub mod web;
