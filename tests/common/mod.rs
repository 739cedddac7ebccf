//! Shared test helpers: where the development corpus is.
#![allow(dead_code)] // each test binary uses its own part of this module

use std::path::PathBuf;

pub mod binary;
pub mod browser;
pub mod http;
pub mod postgres;
pub mod server;

/// The development corpus (`../shared/corpus` next to the checkout, or `HTML2RSS_CORPUS`).
/// Its pages may not be copied into the repository, so tests read them in place.
pub fn corpus_dir() -> PathBuf {
    let candidates = [
        std::env::var_os("HTML2RSS_CORPUS").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")),
        Some(PathBuf::from("/work/shared/corpus")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.join("README.md").is_file())
        .expect("the development corpus is missing: set HTML2RSS_CORPUS to its directory")
}

/// Every HTML page of the corpus (`.html` and `.html.gz`), sorted.
pub fn corpus_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    let mut dirs = vec![corpus_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                dirs.push(path);
            } else if name.ends_with(".html") || name.ends_with(".html.gz") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The list pages of one set in the tune half of the corpus (SPLIT.tsv), where the engines are
/// developed and the tests hold them to their thresholds; the check half is only measured
/// (`html2rss eval`).
pub fn tune_pages(set: html2rss::eval::corpus::ListSet) -> Vec<html2rss::eval::corpus::ListPage> {
    html2rss::eval::corpus::list_pages(&corpus_dir())
        .unwrap()
        .into_iter()
        .filter(|p| p.set == set && p.half == html2rss::eval::split::Half::Tune)
        .collect()
}

/// The pages of one article set (`articles/zyte`, ...).
pub fn article_set(set: &str) -> Vec<html2rss::eval::corpus::ArticlePage> {
    html2rss::eval::corpus::article_pages(&corpus_dir()).unwrap().into_iter().filter(|p| p.set == set).collect()
}
