//! The page model written as RSS 2.0, Atom 1.0 or JSON Feed 1.1.

mod atom;
pub mod filter;
mod json;
pub mod reader;
mod rss;

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset};
use sha2::{Digest, Sha256};
use url::Url;

use crate::model::{Item, Page};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Rss,
    Atom,
    Json,
}

impl Format {
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Rss => "application/rss+xml; charset=utf-8",
            Format::Atom => "application/atom+xml; charset=utf-8",
            Format::Json => "application/feed+json; charset=utf-8",
        }
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "rss" => Ok(Format::Rss),
            "atom" => Ok(Format::Atom),
            "json" => Ok(Format::Json),
            other => Err(format!("unknown feed format '{other}' (expected rss, atom or json)")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Rss => "rss",
            Format::Atom => "atom",
            Format::Json => "json",
        })
    }
}

/// What a feed says about itself beyond the page.
#[derive(Debug, Clone)]
pub struct FeedMeta {
    /// The feed's own address (`/rss?url=...`), for self links.
    pub self_url: Option<Url>,
    /// When the feed was built; stands in for dates nobody knows where a format requires one.
    pub updated: DateTime<FixedOffset>,
    /// How long readers may cache the feed (RSS `ttl`), in minutes.
    pub ttl_minutes: Option<u32>,
}

impl FeedMeta {
    pub fn new(updated: DateTime<FixedOffset>) -> FeedMeta {
        FeedMeta { self_url: None, updated, ttl_minutes: None }
    }
}

/// Write the page as a feed.
pub fn write(page: &Page, format: Format, meta: &FeedMeta) -> String {
    match format {
        Format::Rss => rss::write(page, meta),
        Format::Atom => atom::write(page, meta),
        Format::Json => json::write(page, meta),
    }
}

/// A feed written without its self link, the one part that depends on the reader: the address
/// it uses (the configured public URL or the request's host) and the feed token. Written once
/// when the feed changes, then filled per reader with [`FeedTemplate::fill`], which copies text
/// and writes nothing anew.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedTemplate {
    format: Format,
    /// The feed with a NUL where each self link goes. No format ever writes a NUL (XML forbids
    /// it and [`xml_clean`] drops it; JSON escapes it), so the gaps are unambiguous.
    text: String,
}

impl FeedTemplate {
    /// Write the page as a feed with gaps for its self link (`meta.self_url` is not used).
    pub fn write(page: &Page, format: Format, meta: &FeedMeta) -> FeedTemplate {
        // A random address that no page's text holds, made only of characters every format
        // writes as they are, marks the self links; each becomes a NUL.
        let marker = format!("https://self-link.invalid/{:032x}", rand::random::<u128>());
        let meta = FeedMeta { self_url: Url::parse(&marker).ok(), ..meta.clone() };
        FeedTemplate { format, text: write(page, format, &meta).replace(&marker, "\0") }
    }

    /// A template as [`FeedTemplate::text`] gave it.
    pub fn from_text(format: Format, text: String) -> FeedTemplate {
        FeedTemplate { format, text }
    }

    /// The text to keep, gaps included.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The feed as [`write`] writes it with `self_url`.
    pub fn fill(&self, self_url: &Url) -> String {
        let link = match self.format {
            Format::Rss | Format::Atom => quick_xml::escape::escape(self_url.as_str()),
            Format::Json => {
                let quoted = serde_json::to_string(self_url.as_str()).expect("a string always serializes");
                std::borrow::Cow::Owned(quoted[1..quoted.len() - 1].to_string())
            }
        };
        // One pass over the text (counting the gaps first was a second): room for two links
        // (Atom has two gaps, RSS and JSON Feed one); a template with more grows the string.
        let mut out = String::with_capacity(self.text.len() + 2 * link.len());
        for (i, part) in self.text.split('\0').enumerate() {
            if i > 0 {
                out.push_str(&link);
            }
            out.push_str(part);
        }
        out
    }
}

/// A stable identifier for an item: its link, else a hash of its title.
pub fn guid(item: &Item) -> String {
    match &item.link {
        Some(link) => link.to_string(),
        None => format!("urn:sha256:{}", hex::encode(Sha256::digest(item.title.as_bytes()))),
    }
}

/// Remove the characters XML 1.0 forbids (control characters, U+FFFE/U+FFFF); they make the
/// whole feed unreadable for strict parsers.
pub fn xml_clean(text: &str) -> String {
    text.chars()
        .filter(|&c| matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}'))
        .collect()
}

/// The feed's title: the page title, or its address.
fn title(page: &Page) -> String {
    let title = xml_clean(page.title.trim());
    if title.is_empty() { page.link.to_string() } else { title }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Subject;

    fn page() -> Page {
        let date = DateTime::parse_from_rfc3339("2024-05-06T07:08:09+08:00").unwrap();
        let mut first = Item::new("First <post> & more\u{1}");
        first.link = Some(Url::parse("https://example.org/p/1").unwrap());
        first.date = Some(date);
        first.description = Some("<p>Short <b>text</b></p>".into());
        first.author = Some("Ann Author".into());
        first.content = Some("<p>The whole text.</p>".into());
        let mut second = Item::new("Second, undated");
        second.link = Some(Url::parse("https://example.org/p/2?a=1&b=2").unwrap());
        Page {
            link: Url::parse("https://example.org/").unwrap(),
            title: "Example news".into(),
            date: Some(date),
            encoding: "UTF-8".into(),
            subjects: vec![Subject { title: Some("Tech".into()), items: vec![first, second] }],
        }
    }

    fn parse_back(format: Format) -> feed_rs::model::Feed {
        let meta = FeedMeta {
            self_url: Some(Url::parse("http://localhost/rss?url=https://example.org/").unwrap()),
            ttl_minutes: Some(60),
            ..FeedMeta::new(DateTime::parse_from_rfc3339("2024-05-07T00:00:00Z").unwrap())
        };
        let text = write(&page(), format, &meta);
        feed_rs::parser::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{format}: {e}\n{text}"))
    }

    #[test]
    fn every_format_parses_back_with_the_same_items() {
        for format in [Format::Rss, Format::Atom, Format::Json] {
            let feed = parse_back(format);
            assert_eq!(feed.title.unwrap().content, "Example news", "{format}");
            assert_eq!(feed.entries.len(), 2, "{format}");
            let first = &feed.entries[0];
            assert_eq!(first.title.as_ref().unwrap().content, "First <post> & more", "{format}");
            assert_eq!(first.links[0].href, "https://example.org/p/1", "{format}");
            let date = first.published.or(first.updated).unwrap();
            assert_eq!(date, DateTime::parse_from_rfc3339("2024-05-05T23:08:09Z").unwrap(), "{format}");
            assert_eq!(first.authors[0].name.as_deref(), Some("Ann Author"), "{format}");
            let content = first.content.as_ref().and_then(|c| c.body.clone()).unwrap();
            assert!(content.contains("The whole text."), "{format}: {content}");
            assert_eq!(feed.entries[1].links[0].href, "https://example.org/p/2?a=1&b=2", "{format}");
        }
    }

    #[test]
    fn rss_has_ttl_categories_and_guids() {
        let text =
            write(&page(), Format::Rss, &FeedMeta { ttl_minutes: Some(90), ..FeedMeta::new(page().date.unwrap()) });
        assert!(text.contains("<ttl>90</ttl>"));
        assert!(text.contains("<category>Tech</category>"));
        assert!(text.contains("<guid>https://example.org/p/1</guid>"));
        assert!(text.contains("<dc:creator>Ann Author</dc:creator>"));
        assert!(!text.contains('\u{1}'));
    }

    #[test]
    fn a_filled_template_is_the_feed_written_with_that_self_link() {
        let meta = FeedMeta { ttl_minutes: Some(60), ..FeedMeta::new(page().date.unwrap()) };
        // Characters each format escapes differently: `&` and `'` (XML), none in JSON.
        let self_url =
            Url::parse("http://h\u{e9}st:8080/o'k/rss?url=https%3A%2F%2Fexample.org%2F&format=atom&token=a+b").unwrap();
        for format in [Format::Rss, Format::Atom, Format::Json] {
            let template = FeedTemplate::write(&page(), format, &meta);
            assert!(!template.text().contains("self-link.invalid"), "{format}");
            let fresh = write(&page(), format, &FeedMeta { self_url: Some(self_url.clone()), ..meta.clone() });
            let kept = FeedTemplate::from_text(format, template.text().to_string());
            assert_eq!(kept.fill(&self_url), fresh, "{format}");
        }
    }

    #[test]
    fn guid_is_link_or_title_hash() {
        let page = page();
        let items: Vec<_> = page.items().collect();
        assert_eq!(guid(items[0]), "https://example.org/p/1");
        assert!(guid(&Item::new("x")).starts_with("urn:sha256:"));
        assert_eq!(guid(&Item::new("x")), guid(&Item::new("x")));
    }
}
