//! SOURCE arguments: a local file (optionally gzipped) or a URL.

use std::io::Read;

use anyhow::{Context, bail};
use url::Url;

use crate::dom::{self, Document, ParseOptions};

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

/// Load SOURCE. A local file's URL is `base_url` when given, else its `file:` URL.
pub fn load(source: &str, base_url: Option<&Url>) -> anyhow::Result<Source> {
    if source.starts_with("http://") || source.starts_with("https://") {
        bail!("fetching URLs is not built yet; save the page and pass the file with --base-url");
    }
    let path = std::path::Path::new(source);
    let raw = std::fs::read(path).with_context(|| format!("cannot read {source}"))?;
    let bytes = if source.ends_with(".gz") {
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
