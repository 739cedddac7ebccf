//! `html2rss train --feed FEED --page SOURCE [--page SOURCE ...] [--base-url URL] --out FILE`:
//! learn a site's template from its feed and pages, and write it as a mapping rule.
//!
//! A page is a URL, a local file, or `FILE=URL` (a local file and the URL it was served at:
//! the pages of a site live at different URLs, and article pages are recognized by theirs).
//! A local file without `=URL` lives at `--base-url`. Without `--feed`, the feeds the first
//! page advertises, then the common feed paths, are tried.

use std::path::Path;

use anyhow::{Context, bail};
use chrono::Utc;
use url::Url;

use super::source::Source;
use crate::dom::Document;
use crate::engines::template;
use crate::feed::reader::{self, TrainingFeed};

/// A `--page` argument: the source, and the URL it was served at when given as `FILE=URL`.
pub fn split_page(arg: &str) -> (&str, Option<&str>) {
    for marker in ["=https://", "=http://"] {
        if let Some(at) = arg.find(marker)
            && !arg[..at].contains("://")
        {
            return (&arg[..at], Some(&arg[at + 1..]));
        }
    }
    (arg, None)
}

pub fn run(feed: Option<&str>, pages: &[String], base_url: Option<&Url>, out: &Path) -> anyhow::Result<()> {
    let mut docs: Vec<Document> = Vec::new();
    for arg in pages {
        let (source, url) = split_page(arg);
        let url = match url {
            Some(text) => Some(Url::parse(text).with_context(|| format!("--page {arg}: '{text}' is not a URL"))?),
            None => base_url.cloned(),
        };
        let page = super::load(source, url.as_ref())?;
        docs.push(page.parse()?);
    }
    let feed = match feed {
        Some(source) => read(&super::load(source, base_url)?)?,
        None => discover(&docs)?,
    };
    let trained = template::train(&feed, &docs, Utc::now())?;
    for note in &trained.notes {
        eprintln!("{note}");
    }
    eprintln!("confidence {:.2}", trained.confidence);
    std::fs::write(out, trained.rule.to_xml()).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}

fn read(source: &Source) -> anyhow::Result<TrainingFeed> {
    Ok(reader::read_feed(&source.bytes, &source.url)?)
}

/// The first feed that loads among the first page's candidates.
fn discover(docs: &[Document]) -> anyhow::Result<TrainingFeed> {
    let Some(first) = docs.first() else { bail!("give at least one --page") };
    let mut tried = Vec::new();
    for candidate in reader::discover_feeds(first) {
        match super::load(candidate.as_str(), None).and_then(|s| read(&s)) {
            Ok(feed) => {
                eprintln!("feed: {candidate}");
                return Ok(feed);
            }
            Err(e) => tried.push(format!("{candidate}: {e:#}")),
        }
    }
    bail!("no feed found for {} (give --feed FEED); tried:\n  {}", first.url, tried.join("\n  "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_arguments_with_and_without_urls() {
        assert_eq!(split_page("a/index.html=https://b.org/"), ("a/index.html", Some("https://b.org/")));
        assert_eq!(split_page("x=y.html=http://b.org/p?q=1"), ("x=y.html", Some("http://b.org/p?q=1")));
        assert_eq!(split_page("https://b.org/?next=https://c.org/"), ("https://b.org/?next=https://c.org/", None));
        assert_eq!(split_page("page.html"), ("page.html", None));
    }
}
