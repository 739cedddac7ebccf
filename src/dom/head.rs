//! A cheap streaming pass over the raw bytes of a page's head (lol_html): the declared charset,
//! `<base href>` and the feeds it advertises. It runs before decoding, and the fetcher can run
//! it without building a tree.

use std::cell::RefCell;

use lol_html::{HtmlRewriter, Settings, element};
use serde::Serialize;

/// A feed advertised with `<link rel="alternate" type="application/rss+xml" href=...>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeedLink {
    pub href: String,
    /// `rss`, `atom` or `json`.
    pub kind: String,
    pub title: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct HeadInfo {
    pub meta_charset: Option<String>,
    pub base_href: Option<String>,
    pub feeds: Vec<FeedLink>,
}

/// Scan the page up to `<body>`.
pub fn scan_head(bytes: &[u8]) -> HeadInfo {
    let info = RefCell::new(HeadInfo::default());
    let settings = Settings::new()
        .append_element_content_handler(element!("meta", |el| {
            let mut info = info.borrow_mut();
            if info.meta_charset.is_none() {
                info.meta_charset = el.get_attribute("charset").or_else(|| {
                    let equiv = el.get_attribute("http-equiv")?;
                    if !equiv.eq_ignore_ascii_case("content-type") {
                        return None;
                    }
                    charset_of_content_type(&el.get_attribute("content")?)
                });
            }
            Ok(())
        }))
        .append_element_content_handler(element!("base[href]", |el| {
            let mut info = info.borrow_mut();
            if info.base_href.is_none() {
                info.base_href = el.get_attribute("href");
            }
            Ok(())
        }))
        .append_element_content_handler(element!("link[rel][href]", |el| {
            let rel = el.get_attribute("rel").unwrap_or_default().to_ascii_lowercase();
            if !rel.split_ascii_whitespace().any(|r| r == "alternate") {
                return Ok(());
            }
            let mime = el.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            let kind = match mime.split(';').next().unwrap_or("").trim() {
                "application/rss+xml" | "application/rdf+xml" => "rss",
                "application/atom+xml" => "atom",
                "application/feed+json" | "application/json" => "json",
                _ => return Ok(()),
            };
            let href = el.get_attribute("href").unwrap_or_default();
            info.borrow_mut().feeds.push(FeedLink { href, kind: kind.to_string(), title: el.get_attribute("title") });
            Ok(())
        }))
        // Everything we want is in the head: stop at the body.
        .append_element_content_handler(element!("body", |_| Err("body reached".into())));
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    // An error here is our own stop signal, or a page lol_html cannot tokenize; what was found
    // up to that point is the answer either way.
    if rewriter.write(bytes).is_ok() {
        let _ = rewriter.end();
    } else {
        drop(rewriter);
    }
    info.into_inner()
}

/// `text/html; charset=gbk` → `gbk`.
pub fn charset_of_content_type(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(['"', '\'']).to_string())
            .filter(|v| !v.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_charset_base_and_feeds() {
        let page = br#"<html><head>
            <meta http-equiv="Content-Type" content="text/html; charset=GB2312">
            <base href="/blog/">
            <link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">
            <link rel="alternate" type="application/atom+xml" href="/atom.xml">
            <link rel="stylesheet" href="/s.css">
            </head><body><link rel="alternate" type="application/rss+xml" href="/late.xml">"#;
        let info = scan_head(page);
        assert_eq!(info.meta_charset.as_deref(), Some("GB2312"));
        assert_eq!(info.base_href.as_deref(), Some("/blog/"));
        let hrefs: Vec<_> = info.feeds.iter().map(|f| (f.href.as_str(), f.kind.as_str())).collect();
        assert_eq!(hrefs, [("/feed.xml", "rss"), ("/atom.xml", "atom")]);
    }
}
