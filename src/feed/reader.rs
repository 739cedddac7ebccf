//! Reading a site's own feed for training templates: RSS 0.9x/1.0/2.0, Atom and JSON Feed
//! (via `feed-rs`) into plain owned items, and finding a page's feeds.
//!
//! Titles, summaries and contents come out as plain text: tags stripped, entities decoded,
//! whitespace collapsed (the WTM paper's cleaning of feed values, so that they compare with a
//! page's visible text). Dates keep the offset the feed wrote them with: a page shows the
//! author's local day, and `feed-rs` alone would turn every date into UTC.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};
use url::Url;

use crate::dom::{self, Document};

/// Feeds larger than this are refused before parsing (real feeds are a few megabytes at most).
pub const MAX_FEED_BYTES: usize = 32 * 1024 * 1024;

/// A feed read for training.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainingFeed {
    pub title: String,
    /// The site the feed belongs to (its `<link>` / `alternate` link), when it says.
    pub site: Option<Url>,
    pub items: Vec<FeedItem>,
}

/// One feed item. The title is plain text; the summary and content are kept as the feed wrote
/// them and turned into plain text when first asked for (a feed of full posts is mostly
/// markup, and training reads the text of only the few items it finds on its pages).
#[derive(Debug, Clone, PartialEq)]
pub struct FeedItem {
    pub title: String,
    /// The item's page (`<link>`, Atom `alternate`, JSON `url`), resolved against the feed URL.
    pub link: Option<Url>,
    /// Published, else updated; in the offset the feed wrote.
    pub date: Option<DateTime<FixedOffset>>,
    pub author: Option<String>,
    summary: Option<FeedText>,
    content: Option<FeedText>,
}

/// A feed value as written, and its plain text once computed.
#[derive(Debug, Clone, PartialEq)]
struct FeedText {
    raw: String,
    html: bool,
    text: OnceLock<String>,
}

impl FeedText {
    fn new(raw: String, html: bool) -> FeedText {
        FeedText { raw, html, text: OnceLock::new() }
    }

    /// The plain text, `None` when it is empty.
    fn text(&self) -> Option<&str> {
        let text = self.text.get_or_init(|| text_of(&self.raw, self.html));
        (!text.is_empty()).then_some(text.as_str())
    }
}

impl FeedItem {
    pub fn new(title: impl Into<String>, link: Option<Url>, date: Option<DateTime<FixedOffset>>) -> FeedItem {
        FeedItem { title: title.into(), link, date, author: None, summary: None, content: None }
    }

    /// Set the summary as the feed wrote it (`html`: whether it is markup).
    pub fn with_summary(mut self, raw: impl Into<String>, html: bool) -> FeedItem {
        self.summary = Some(FeedText::new(raw.into(), html));
        self
    }

    /// Set the content as the feed wrote it (`html`: whether it is markup).
    pub fn with_content(mut self, raw: impl Into<String>, html: bool) -> FeedItem {
        self.content = Some(FeedText::new(raw.into(), html));
        self
    }

    pub fn with_author(mut self, author: impl Into<String>) -> FeedItem {
        self.author = Some(author.into());
        self
    }

    /// `<description>` / `<summary>` / JSON `summary`, as plain text.
    pub fn summary(&self) -> Option<&str> {
        self.summary.as_ref().and_then(FeedText::text)
    }

    /// `content:encoded` / `<content>` / JSON `content_html` or `content_text`, as plain text.
    pub fn content(&self) -> Option<&str> {
        self.content.as_ref().and_then(FeedText::text)
    }

    /// The summary as the feed wrote it, and whether it is markup.
    pub fn summary_markup(&self) -> Option<(&str, bool)> {
        self.summary.as_ref().map(|t| (t.raw.as_str(), t.html))
    }

    /// The content as the feed wrote it, and whether it is markup.
    pub fn content_markup(&self) -> Option<(&str, bool)> {
        self.content.as_ref().map(|t| (t.raw.as_str(), t.html))
    }

    /// The longest text the feed gives for the item's body: its content, else its summary.
    pub fn body(&self) -> Option<&str> {
        match (self.content(), self.summary()) {
            (Some(c), Some(s)) if s.chars().count() > c.chars().count() => Some(s),
            (Some(c), _) => Some(c),
            (None, s) => s,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FeedReadError {
    #[error("{origin}: the feed is {size} bytes, more than the limit of {limit}")]
    TooLarge { origin: String, size: usize, limit: usize },
    #[error("{origin}: not a feed (RSS, Atom or JSON Feed): {message}")]
    Parse { origin: String, message: String },
    #[error("{origin}: the feed has no items")]
    Empty { origin: String },
}

/// Read a feed's bytes; `feed_url` is where it was found (relative links resolve against it)
/// and names it in errors.
pub fn read_feed(bytes: &[u8], feed_url: &Url) -> Result<TrainingFeed, FeedReadError> {
    let origin = feed_url.to_string();
    if bytes.len() > MAX_FEED_BYTES {
        return Err(FeedReadError::TooLarge { origin, size: bytes.len(), limit: MAX_FEED_BYTES });
    }
    // Instant → the offset it was written with, filled in by the timestamp parser.
    let offsets: Arc<Mutex<HashMap<i64, i32>>> = Arc::default();
    // A parser keeps state from a failed parse (feed-rs 3 then panics), so each attempt gets
    // its own.
    let parse = |bytes: &[u8]| {
        let recorder = Arc::clone(&offsets);
        feed_rs::parser::Builder::new()
            .base_uri(Some(feed_url.as_str()))
            .timestamp_parser(move |text| {
                let date = parse_feed_date(text)?;
                if let Ok(mut map) = recorder.lock() {
                    map.insert(date.timestamp(), date.offset().local_minus_utc());
                }
                Some(date.to_utc())
            })
            .build()
            .parse(bytes)
    };
    // Feeds written by string templates often hold a bare `&` or an HTML entity, which no XML
    // parser accepts; feed readers read them anyway, and so do we: once as written, then, if
    // that fails, with those ampersands escaped.
    let feed = parse(bytes).or_else(|error| match escape_stray_ampersands(bytes) {
        Some(repaired) => parse(&repaired),
        None => Err(error),
    });
    let feed = feed.map_err(|e| FeedReadError::Parse { origin: origin.clone(), message: e.to_string() })?;
    let offsets = offsets.lock().map(|m| m.clone()).unwrap_or_default();
    let with_offset = |date: DateTime<Utc>| {
        let offset = offsets.get(&date.timestamp()).and_then(|&s| FixedOffset::east_opt(s));
        date.with_timezone(&offset.unwrap_or(FixedOffset::east_opt(0).expect("zero offset")))
    };
    let site = page_link(&feed.links, feed_url);
    let items: Vec<FeedItem> = feed
        .entries
        .iter()
        .map(|entry| {
            let title = entry.title.as_ref().map(|t| text_of(&t.content, is_html(&t.content_type))).unwrap_or_default();
            let author = entry.authors.iter().find_map(|p| {
                let name = p.name.as_deref().map(dom::collapse_whitespace).filter(|n| !n.is_empty());
                name.or_else(|| p.email.clone())
            });
            FeedItem {
                title,
                link: page_link(&entry.links, feed_url),
                date: entry.published.or(entry.updated).map(with_offset),
                author,
                summary: entry.summary.as_ref().map(|t| FeedText::new(t.content.clone(), is_html(&t.content_type))),
                content: entry
                    .content
                    .as_ref()
                    .and_then(|c| Some(FeedText::new(c.body.clone()?, is_html(&c.content_type)))),
            }
        })
        .collect();
    if items.is_empty() {
        return Err(FeedReadError::Empty { origin });
    }
    let title = feed.title.as_ref().map(|t| text_of(&t.content, is_html(&t.content_type))).unwrap_or_default();
    Ok(TrainingFeed { title, site, items })
}

/// The feed with every `&` that does not start an XML reference (`&amp;`, `&lt;`, `&gt;`,
/// `&quot;`, `&apos;`, `&#N;`, `&#xH;`) written as `&amp;`, outside CDATA sections; `None` when
/// there is none. An HTML entity such as `&nbsp;` becomes text (`&amp;nbsp;`), which the HTML
/// of a description decodes again.
fn escape_stray_ampersands(bytes: &[u8]) -> Option<Vec<u8>> {
    const CDATA_OPEN: &[u8] = b"<![CDATA[";
    let is_reference = |rest: &[u8]| {
        let end = rest.iter().take(12).position(|&b| b == b';');
        let Some(end) = end else { return false };
        let name = &rest[1..end];
        match name {
            b"amp" | b"lt" | b"gt" | b"quot" | b"apos" => true,
            [b'#', b'x' | b'X', hex @ ..] => !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit),
            [b'#', digits @ ..] => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
            _ => false,
        }
    };
    let mut out = Vec::with_capacity(bytes.len() + 64);
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(CDATA_OPEN) {
            let end = bytes[i..].windows(3).position(|w| w == b"]]>").map_or(bytes.len(), |p| i + p + 3);
            out.extend_from_slice(&bytes[i..end]);
            i = end;
            continue;
        }
        if bytes[i] == b'&' && !is_reference(&bytes[i..]) {
            out.extend_from_slice(b"&amp;");
            changed = true;
        } else {
            out.push(bytes[i]);
        }
        i += 1;
    }
    changed.then_some(out)
}

/// The page a feed or entry points to: the `alternate` link, else the first link that is not
/// a self/enclosure/replies link. Relative links resolve against the feed's URL: the web for
/// a fetched feed; for a saved feed read from disk without its URL, the disk, where its saved
/// pages live too (`train --feed FILE --page FILE`).
fn page_link(links: &[feed_rs::model::Link], feed_url: &Url) -> Option<Url> {
    let resolve = |href: &str| {
        feed_url.join(href.trim()).ok().filter(|u| match u.scheme() {
            "http" | "https" => true,
            scheme => scheme == "file" && feed_url.scheme() == "file",
        })
    };
    let alternate = links.iter().find(|l| l.rel.as_deref() == Some("alternate"));
    let other =
        || links.iter().find(|l| !matches!(l.rel.as_deref(), Some("self" | "enclosure" | "replies" | "hub" | "edit")));
    alternate.or_else(other).and_then(|l| resolve(&l.href))
}

fn is_html(mime: &impl std::fmt::Display) -> bool {
    let text = mime.to_string();
    text.contains("html")
}

/// Tag names whose presence marks a value as HTML even when the feed calls it text (RSS has no
/// type for titles and descriptions, and many feeds put markup or escaped entities there).
const HTML_TAGS: &[&str] = &[
    "a",
    "b",
    "i",
    "p",
    "br",
    "em",
    "strong",
    "span",
    "div",
    "img",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "blockquote",
    "figure",
    "table",
    "small",
    "sup",
    "sub",
    "mark",
    "del",
    "ins",
    "u",
    "s",
];

/// Whether a value carries markup: an entity, or a tag of a common HTML element.
fn looks_like_html(text: &str) -> bool {
    text.contains('&') || text.match_indices('<').any(|(at, _)| starts_known_tag(&text[at + 1..]))
}

/// Whether the text after a `<` is a tag of a common HTML element (or a comment).
fn starts_known_tag(rest: &str) -> bool {
    if rest.starts_with("!--") {
        return true;
    }
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    let after = rest[name.len()..].chars().next();
    HTML_TAGS.contains(&name.as_str()) && matches!(after, Some('>' | ' ' | '/' | '\n' | '\t'))
}

/// A feed value as plain text: HTML parsed (tags stripped, entities decoded, scripts and styles
/// dropped), whitespace collapsed. In a value not declared HTML, a `<` that does not start a
/// known tag is text (`Vec<T>`), not the start of an element.
fn text_of(value: &str, html: bool) -> String {
    // Control characters are never text (XML 1.0 cannot even carry most of them, so a title
    // holding one could not be written back into a feed); found by fuzzing feed reading.
    if value.chars().any(|c| c.is_control() && !c.is_whitespace()) {
        let value: String = value.chars().filter(|c| !c.is_control() || c.is_whitespace()).collect();
        return text_of(&value, html);
    }
    if html {
        return html_to_text(value);
    }
    if !looks_like_html(value) {
        return dom::collapse_whitespace(value);
    }
    let mut escaped = String::with_capacity(value.len() + 8);
    for (i, c) in value.char_indices() {
        if c == '<' && !starts_known_tag(&value[i + 1..]) {
            escaped.push_str("&lt;");
        } else {
            escaped.push(c);
        }
    }
    html_to_text(&escaped)
}

/// The visible text of an HTML fragment, as a page's text is computed (the fragment is text
/// already: no charset detection).
pub fn html_to_text(fragment: &str) -> String {
    let url = Url::parse("about:blank").expect("about:blank is a URL");
    let options = dom::ParseOptions { header_charset: Some("utf-8".into()), ..dom::ParseOptions::default() };
    match dom::parse(fragment.as_bytes(), &url, &options) {
        Ok(doc) => doc.text(doc.root()),
        Err(_) => dom::collapse_whitespace(fragment),
    }
}

/// A feed date with its offset: RFC 3339, RFC 2822 (with the usual deviations: `UTC`/`GMT`
/// zones, long month names, a missing weekday), and plain `YYYY-MM-DD[ HH:MM[:SS]]` (UTC).
pub fn parse_feed_date(text: &str) -> Option<DateTime<FixedOffset>> {
    let text = text.trim();
    if let Ok(date) = DateTime::parse_from_rfc3339(text) {
        return Some(date);
    }
    if let Ok(date) = DateTime::parse_from_rfc2822(text) {
        return Some(date);
    }
    // `2021-06-04 21:40:00 +0300`, `2021-06-04T21:40:00+0300`.
    for format in ["%Y-%m-%d %H:%M:%S %z", "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%d %H:%M:%S%.f %z"] {
        if let Ok(date) = DateTime::parse_from_str(text, format) {
            return Some(date);
        }
    }
    let repaired = repair_rfc2822(text);
    if let Ok(date) = DateTime::parse_from_rfc2822(&repaired) {
        return Some(date);
    }
    let utc = FixedOffset::east_opt(0)?;
    for format in ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S%.f"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(text, format) {
            return naive.and_local_timezone(utc).single();
        }
    }
    let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    day.and_hms_opt(0, 0, 0)?.and_local_timezone(utc).single()
}

/// `Thursday, 5 June 2021 10:00:00 UTC` → `5 Jun 2021 10:00:00 +0000`.
fn repair_rfc2822(text: &str) -> String {
    let mut words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if words.first().is_some_and(|w| w.ends_with(',')) {
        words.remove(0);
    }
    for word in &mut words {
        match word.as_str() {
            "UTC" | "UT" | "GMT" | "Z" | "-0000" => *word = "+0000".to_string(),
            w if w.len() > 3 && w.chars().all(|c| c.is_ascii_alphabetic()) => *word = w[..3].to_string(),
            _ => {}
        }
    }
    // A day written after the month (`Jun 5 2021`) goes first.
    if words.len() >= 3
        && words[0].chars().all(|c| c.is_ascii_alphabetic())
        && words[1].chars().all(|c| c.is_ascii_digit())
    {
        words.swap(0, 1);
    }
    words.join(" ")
}

/// Paths where sites commonly serve their feed, tried after the advertised ones.
pub const COMMON_FEED_PATHS: &[&str] = &[
    "feed",
    "feed/",
    "rss",
    "rss.xml",
    "atom.xml",
    "index.xml",
    "feed.xml",
    "feed.json",
    "index.rss",
    "feeds/all.atom.xml",
    "?feed=rss2",
];

/// Where a page's feeds may be, best first: the feeds it advertises (`<link rel=alternate>` of
/// every feed type, against its base), then the common paths below the page's directory and
/// below the site's root. Fetching them is the caller's.
pub fn discover_feeds(doc: &Document) -> Vec<Url> {
    let mut candidates: Vec<Url> = Vec::new();
    let mut push = |url: Url| {
        if matches!(url.scheme(), "http" | "https") && !candidates.contains(&url) {
            candidates.push(url);
        }
    };
    for feed in &doc.head.feeds {
        if let Ok(url) = doc.base.join(feed.href.trim()) {
            push(url);
        }
    }
    // `<a href>` to a feed in the body (blogs without head links often have a feed icon).
    for node in doc.ids() {
        if !doc.is_tag(node, "a") {
            continue;
        }
        let Some(href) = doc.attr(node, "href") else { continue };
        let lower = href.to_ascii_lowercase();
        let feedish = ["rss", "atom", "feed"].iter().any(|w| {
            lower
                .rsplit('/')
                .find(|s| !s.is_empty())
                .is_some_and(|last| last.starts_with(w) || last.ends_with(".xml") && last.contains(w))
        });
        if feedish && let Some(url) = doc.resolve(href) {
            push(url);
        }
    }
    let mut bases = vec![doc.url.join("./").ok(), doc.url.join("/").ok()];
    bases.dedup();
    for base in bases.into_iter().flatten() {
        for path in COMMON_FEED_PATHS {
            if let Ok(url) = base.join(path) {
                push(url);
            }
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url() -> Url {
        Url::parse("https://example.org/blog/feed.xml").unwrap()
    }

    #[test]
    fn control_characters_are_not_part_of_titles() {
        let rss = "<rss version=\"2.0\"><channel><title>C\u{1}hannel</title><link>https://example.org/</link>\
            <item><title>Lessons \u{1}\u{4}Hard\u{7f}#1</title><link>https://example.org/1</link></item></channel></rss>";
        let feed = read_feed(rss.as_bytes(), &Url::parse("https://example.org/feed.xml").unwrap()).unwrap();
        assert_eq!((feed.title.as_str(), feed.items[0].title.as_str()), ("Channel", "Lessons Hard#1"));
    }

    #[test]
    fn rss_with_content_encoded_html_titles_and_offsets() {
        let rss = r#"<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Blog &amp; co</title><link>https://example.org/blog/</link>
<item><title>Vec&lt;T&gt; &amp;amp; slices</title><link>/blog/vec/</link>
<pubDate>Sat, 05 Jun 2021 01:40:00 +0900</pubDate>
<description>&lt;p&gt;Short &lt;b&gt;summary&lt;/b&gt;&amp;hellip;&lt;/p&gt;</description>
<content:encoded><![CDATA[<p>Full&nbsp;text <script>x()</script>of the <em>post</em>.</p><p>Second.</p>]]></content:encoded>
<dc:creator>Ann Author</dc:creator></item>
<item><title>Plain Vec&lt;T&gt; title</title><link>https://example.org/blog/plain/</link><pubDate>Thursday, 3 June 2021 10:00:00 GMT</pubDate></item>
</channel></rss>"#;
        let feed = read_feed(rss.as_bytes(), &url()).unwrap();
        assert_eq!(feed.title, "Blog & co");
        assert_eq!(feed.site.as_ref().map(Url::as_str), Some("https://example.org/blog/"));
        let first = &feed.items[0];
        assert_eq!(first.title, "Vec<T> & slices");
        assert_eq!(first.link.as_ref().map(Url::as_str), Some("https://example.org/blog/vec/"));
        assert_eq!(first.date.unwrap().to_rfc3339(), "2021-06-05T01:40:00+09:00");
        assert_eq!(first.summary(), Some("Short summary…"));
        assert_eq!(first.content(), Some("Full text of the post. Second."));
        assert_eq!(first.author.as_deref(), Some("Ann Author"));
        assert_eq!(first.body(), Some("Full text of the post. Second."));
        let second = &feed.items[1];
        assert_eq!(second.date.unwrap().to_rfc3339(), "2021-06-03T10:00:00+00:00");
        assert_eq!(second.title, "Plain Vec<T> title");
    }

    #[test]
    fn atom_rss1_and_json_feed() {
        let atom = r#"<feed xmlns="http://www.w3.org/2005/Atom"><title type="html">A &lt;i&gt;log&lt;/i&gt;</title>
<link href="https://example.org/" rel="alternate"/><link href="https://example.org/atom.xml" rel="self"/>
<entry><title type="text">x &lt; y</title><link href="https://example.org/p/1/" rel="alternate"/>
<updated>2021-06-04T21:40:00+03:00</updated><author><name>Bo</name></author>
<summary type="html">&lt;p&gt;Sum&lt;/p&gt;</summary><content type="html">&lt;p&gt;Body&lt;/p&gt;</content></entry></feed>"#;
        let feed = read_feed(atom.as_bytes(), &url()).unwrap();
        assert_eq!(feed.title, "A log");
        let item = &feed.items[0];
        assert_eq!(item.title, "x < y");
        assert_eq!(item.date.unwrap().to_rfc3339(), "2021-06-04T21:40:00+03:00");
        assert_eq!((item.summary(), item.content()), (Some("Sum"), Some("Body")));
        assert_eq!(item.author.as_deref(), Some("Bo"));

        let rdf = r#"<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="https://example.org/"><title>R</title><link>https://example.org/</link></channel>
<item rdf:about="https://example.org/r/1"><title>One</title><link>https://example.org/r/1</link><description>D</description></item></rdf:RDF>"#;
        let feed = read_feed(rdf.as_bytes(), &url()).unwrap();
        assert_eq!(feed.items[0].title, "One");
        assert_eq!(feed.items[0].link.as_ref().map(Url::as_str), Some("https://example.org/r/1"));

        let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"J","home_page_url":"https://example.org/",
"items":[{"id":"1","url":"https://example.org/j/1","title":"Jay","content_html":"<p>Hi <b>there</b></p>",
"summary":"Hi","date_published":"2020-01-02T03:04:05-05:00","authors":[{"name":"Cy"}]}]}"#;
        let feed = read_feed(json.as_bytes(), &url()).unwrap();
        let item = &feed.items[0];
        assert_eq!(item.title, "Jay");
        assert_eq!(item.content(), Some("Hi there"));
        assert_eq!(item.date.unwrap().to_rfc3339(), "2020-01-02T03:04:05-05:00");
        assert_eq!(item.author.as_deref(), Some("Cy"));
    }

    #[test]
    fn stray_ampersands_and_html_entities_are_read_as_text() {
        let atom = r#"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Q&A&nbsp;blog</title>
            <entry><title>Cost of C&C servers</title><link href="https://example.org/cc/"/>
            <updated>2016-10-24T21:54:34+01:00</updated>
            <content type="html"><![CDATA[<p>Kept &amp; as written</p>]]> &lt;p&gt;R&D&lt;/p&gt;</content></entry></feed>"#;
        let feed = read_feed(atom.as_bytes(), &url()).unwrap();
        assert_eq!(feed.title, "Q&A blog");
        assert_eq!(feed.items[0].title, "Cost of C&C servers");
        assert_eq!(feed.items[0].content(), Some("Kept & as written R&D"));
        assert_eq!(escape_stray_ampersands(b"<a>&amp; &#38; &#x26; <![CDATA[&]]></a>"), None);
    }

    #[test]
    fn rss_091_and_bad_input() {
        let rss = r#"<rss version="0.91"><channel><title>Old</title><link>https://example.org/</link>
<item><title>Ancient</title><link>https://example.org/a</link><description>Text</description></item></channel></rss>"#;
        assert_eq!(read_feed(rss.as_bytes(), &url()).unwrap().items[0].summary(), Some("Text"));
        assert!(matches!(read_feed(b"<html><body>no</body></html>", &url()), Err(FeedReadError::Parse { .. })));
        let empty = r#"<rss version="2.0"><channel><title>E</title></channel></rss>"#;
        let err = read_feed(empty.as_bytes(), &url()).unwrap_err();
        assert!(matches!(err, FeedReadError::Empty { .. }), "{err}");
        assert!(err.to_string().contains("https://example.org/blog/feed.xml"));
    }

    #[test]
    fn discovery_lists_advertised_feeds_first() {
        let page = r#"<html><head><link rel="alternate" type="application/atom+xml" href="/atom.xml">
<link rel="alternate" type="application/feed+json" href="feed.json"></head>
<body><a href="/rss/">RSS</a><a href="/about/">About</a></body></html>"#;
        let doc = dom::parse_str(page, &Url::parse("https://example.org/blog/page/2/").unwrap()).unwrap();
        let found: Vec<String> = discover_feeds(&doc).iter().map(Url::to_string).collect();
        assert_eq!(
            found[..3],
            ["https://example.org/atom.xml", "https://example.org/blog/page/2/feed.json", "https://example.org/rss/"]
        );
        assert!(found.contains(&"https://example.org/index.xml".to_string()));
        assert!(found.contains(&"https://example.org/blog/page/2/feed".to_string()));
        assert!(!found.iter().any(|u| u.contains("about")));
    }

    #[test]
    fn feed_dates_keep_their_offsets() {
        for (text, expected) in [
            ("Tue, 20 Apr 2021 00:00:00 +0000", "2021-04-20T00:00:00+00:00"),
            ("2018-10-22T00:00:00.000Z", "2018-10-22T00:00:00+00:00"),
            ("2021-06-04T21:40:00+03:00", "2021-06-04T21:40:00+03:00"),
            ("Mon, 2 Aug 2021 10:00:00 UTC", "2021-08-02T10:00:00+00:00"),
            ("2020-02-06 23:07:17 +0800", "2020-02-06T23:07:17+08:00"),
            ("2020-02-06", "2020-02-06T00:00:00+00:00"),
        ] {
            assert_eq!(parse_feed_date(text).map(|d| d.to_rfc3339()).as_deref(), Some(expected), "{text}");
        }
        assert_eq!(parse_feed_date("soon"), None);
    }
}
