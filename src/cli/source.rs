//! SOURCE arguments: a local file (optionally gzipped) or a URL.

use std::io::Read;
use std::path::Path;

use anyhow::Context;
use url::Url;

use crate::dom::{self, Document, ParseOptions};
use crate::fetch::{FetchConfig, Fetcher};

/// The bytes of a page and where it lives.
#[derive(Debug)]
pub struct Source {
    pub bytes: Vec<u8>,
    pub url: Url,
    /// The `charset` of the HTTP `Content-Type`, for fetched pages.
    pub header_charset: Option<String>,
}

impl Source {
    pub fn parse(&self) -> anyhow::Result<Document> {
        let options = ParseOptions { header_charset: self.header_charset.clone(), ..ParseOptions::default() };
        dom::parse(&self.bytes, &self.url, &options).with_context(|| format!("cannot parse {}", self.url))
    }
}

/// Load SOURCE: an http(s) URL is fetched with the SSRF guard on; anything else is a local
/// file, whose URL is `base_url` when given, else its `file:` URL. (A fetched page's URL is
/// where it was found, after redirects; `base_url` is for local files.)
pub fn load(source: &str, base_url: Option<&Url>) -> anyhow::Result<Source> {
    load_with(source, base_url, &FetchConfig::default())
}

/// [`load`] with the fetcher configured (tests allow loopback addresses).
pub fn load_with(source: &str, base_url: Option<&Url>, fetch: &FetchConfig) -> anyhow::Result<Source> {
    if source.contains("://") {
        let url = Url::parse(source).with_context(|| format!("{source} is not a valid URL"))?;
        if url.scheme() != "file" {
            return fetch_source(&url, fetch);
        }
        let path = url.to_file_path().map_err(|_| anyhow::anyhow!("{source} is not a local file"))?;
        return read_file(&path, base_url);
    }
    read_file(Path::new(source), base_url)
}

/// Fetch a page on a small runtime of its own: the command line has no other use for one.
fn fetch_source(url: &Url, config: &FetchConfig) -> anyhow::Result<Source> {
    let fetcher = Fetcher::new(config)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let response = runtime.block_on(fetcher.get(url)).with_context(|| format!("cannot fetch {url}"))?;
    Ok(Source { bytes: response.body, url: response.url, header_charset: response.charset })
}

fn read_file(path: &Path, base_url: Option<&Url>) -> anyhow::Result<Source> {
    let source = path.display();
    let raw = std::fs::read(path).with_context(|| format!("cannot read {source}"))?;
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .with_context(|| format!("{source} is not valid gzip"))?;
        out
    } else {
        raw
    };
    let url = match base_url {
        Some(url) => url.clone(),
        None => {
            let absolute = std::fs::canonicalize(path).with_context(|| format!("cannot resolve {source}"))?;
            Url::from_file_path(&absolute)
                .map_err(|_| anyhow::anyhow!("cannot make a URL of {}", absolute.display()))?
        }
    };
    Ok(Source { bytes, url, header_charset: None })
}
