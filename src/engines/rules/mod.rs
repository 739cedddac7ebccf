//! The paper's SAMR engine (`html2rss-mapping-rules-and-time-patterns.txt` §2.1): mapping rules
//! written in XML say where a page's date, subjects and items are, with paths of
//! [`crate::path`].
//!
//! A rule is the paper's Figure 1, extended compatibly (see `rules/README.md`):
//!
//! ```xml
//! <page>
//!   <name>Example news</name>                       <!-- extension -->
//!   <url>https://example.org/news/*</url>           <!-- extension: pages the rule serves -->
//!   <link>https://example.org/news/</link>          <!-- the paper's page URL -->
//!   <encoding>UTF-8</encoding>
//!   <timezone>Asia/Tokyo</timezone>                 <!-- extension -->
//!   <format>%Y年%m月%d日</format>                    <!-- extension: chrono date format -->
//!   <date>//DIV[@id=updated]</date>
//!   <subject path="//DIV[@class=news]">
//!     <title>H2</title>
//!     <item path="UL/LI">
//!       <title>A</title> <link>A</link> <date>SPAN</date> <description>P</description>
//!       <author>SPAN[@class=by]</author> <content>DIV</content>   <!-- extensions -->
//!     </item>
//!   </subject>
//!   <article>                                        <!-- extension: article pages -->
//!     <url>https://example.org/news/*/*/</url>
//!     <title matched="3" of="3">//H1</title>         <!-- training support (templates) -->
//!     <content>//DIV[@class=entry]</content>
//!   </article>
//! </page>
//! ```

mod apply;
mod date;
mod merge;
mod set;
mod xml;

use std::collections::BTreeMap;
use std::fmt;

use chrono_tz::Tz;
use url::Url;

use crate::path::{Path, PathError, Pattern};

pub use apply::{apply, html_of};
pub use date::parse_date;
pub use merge::{Mark, MarkField, MergeError, derive_rule};
pub use set::{RuleSet, SHIPPED};
pub use xml::MAX_RULE_BYTES;

/// A mapping rule: where the items of a page (or of every page a `<url>` pattern matches) are.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub name: Option<String>,
    /// Pages the rule serves (`<url>`, `*` matches any run of characters).
    pub urls: Vec<UrlPattern>,
    /// The paper's `<link>`: the page the rule was written for. It serves as the URL pattern
    /// of a rule without `<url>`; the page model's link is always the page's own URL.
    pub link: Option<Url>,
    /// The paper's `<encoding>`: how the page was encoded when the rule was written. Only a
    /// record: pages are decoded by what they declare and contain.
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// Where dates without an offset are (UTC when absent).
    pub timezone: Option<Tz>,
    /// How the page writes its dates, tried before the common formats.
    pub date_format: Option<DateFormat>,
    /// The paper's page date (last update), a path from the document.
    pub page_date: Option<Path>,
    pub subjects: Vec<SubjectRule>,
    /// Where an article page's own fields are (extension; learned templates write it).
    pub article: Option<ArticleRule>,
    /// How many training examples each learned path matched (`matched`/`of` attributes).
    pub support: BTreeMap<Place, Support>,
}

/// An `<article>`: where the title, author, date and content of an article page are, for the
/// pages its `<url>` patterns match (the site's item links). Paths start at the document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArticleRule {
    pub urls: Vec<UrlPattern>,
    pub title: Option<Path>,
    pub author: Option<Path>,
    pub date: Option<Path>,
    pub content: Option<Path>,
}

impl ArticleRule {
    /// The fields an article part may have, in the order rules are written.
    pub const FIELDS: [Field; 4] = [Field::Title, Field::Author, Field::Date, Field::Content];

    pub fn field(&self, field: Field) -> Option<&Path> {
        match field {
            Field::Title => self.title.as_ref(),
            Field::Author => self.author.as_ref(),
            Field::Date => self.date.as_ref(),
            Field::Content => self.content.as_ref(),
            Field::Link | Field::Description => None,
        }
    }

    /// Set a field; `false` (and nothing set) for a field articles do not have.
    pub fn set_field(&mut self, field: Field, path: Option<Path>) -> bool {
        let slot = match field {
            Field::Title => &mut self.title,
            Field::Author => &mut self.author,
            Field::Date => &mut self.date,
            Field::Content => &mut self.content,
            Field::Link | Field::Description => return false,
        };
        *slot = path;
        true
    }

    /// Whether the part serves this URL (one of its patterns matches).
    pub fn matches_url(&self, url: &Url) -> bool {
        self.urls.iter().any(|p| p.matches(url))
    }
}

/// Where a path sits in a rule, to say how well it was supported in training.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// The path of the i-th `<subject>`.
    Subject(usize),
    /// The `<item path>` of the i-th subject.
    Item(usize),
    /// A field of the i-th subject's item.
    ItemField(usize, Field),
    /// A field of `<article>`.
    Article(Field),
}

/// A learned path's training support: it matched `matched` of `of` training examples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Support {
    pub matched: u32,
    pub of: u32,
}

impl Support {
    pub fn ratio(self) -> f32 {
        if self.of == 0 { 0.0 } else { self.matched as f32 / self.of as f32 }
    }
}

/// A `<subject path=...>`: every node the path selects is one subject.
#[derive(Debug, Clone, PartialEq)]
pub struct SubjectRule {
    /// From the document (absolute, or relative to the document).
    pub path: Path,
    /// Relative to the subject node.
    pub title: Option<Path>,
    pub item: ItemRule,
}

/// An `<item path=...>`: every node the path selects under a subject is one item, and the
/// field paths are relative to it.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRule {
    /// Relative to the subject node (absolute paths are allowed).
    pub path: Path,
    pub title: Option<Path>,
    pub link: Option<Path>,
    pub date: Option<Path>,
    pub description: Option<Path>,
    pub author: Option<Path>,
    pub content: Option<Path>,
}

/// The fields of an item, in the order rules are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Title,
    Link,
    Date,
    Description,
    Author,
    Content,
}

impl Field {
    pub const ALL: [Field; 6] =
        [Field::Title, Field::Link, Field::Date, Field::Description, Field::Author, Field::Content];

    /// The element name in a rule file.
    pub fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Link => "link",
            Field::Date => "date",
            Field::Description => "description",
            Field::Author => "author",
            Field::Content => "content",
        }
    }

    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl ItemRule {
    pub fn new(path: Path) -> ItemRule {
        ItemRule { path, title: None, link: None, date: None, description: None, author: None, content: None }
    }

    pub fn field(&self, field: Field) -> Option<&Path> {
        self.field_slot(field).as_ref()
    }

    pub fn set_field(&mut self, field: Field, path: Option<Path>) {
        *self.field_slot_mut(field) = path;
    }

    fn field_slot(&self, field: Field) -> &Option<Path> {
        match field {
            Field::Title => &self.title,
            Field::Link => &self.link,
            Field::Date => &self.date,
            Field::Description => &self.description,
            Field::Author => &self.author,
            Field::Content => &self.content,
        }
    }

    fn field_slot_mut(&mut self, field: Field) -> &mut Option<Path> {
        match field {
            Field::Title => &mut self.title,
            Field::Link => &mut self.link,
            Field::Date => &mut self.date,
            Field::Description => &mut self.description,
            Field::Author => &mut self.author,
            Field::Content => &mut self.content,
        }
    }
}

/// A `<format>`: a chrono `strftime` format, checked and compiled when the rule is loaded.
#[derive(Debug, Clone)]
pub struct DateFormat {
    text: String,
    items: Vec<chrono::format::Item<'static>>,
}

/// A `<format>` chrono does not understand, and where (a character index).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct DateFormatError {
    pub message: String,
    pub position: usize,
}

impl DateFormat {
    pub fn new(text: &str) -> Result<DateFormat, DateFormatError> {
        if text.is_empty() {
            return Err(DateFormatError { message: "the date format is empty".into(), position: 0 });
        }
        let items = chrono::format::StrftimeItems::new(text).parse_to_owned().map_err(|_| DateFormatError {
            message: format!("'{text}' is not a valid chrono date format (e.g. %Y-%m-%d %H:%M)"),
            position: bad_specifier(text),
        })?;
        Ok(DateFormat { text: text.to_string(), items })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub(crate) fn items(&self) -> &[chrono::format::Item<'static>] {
        &self.items
    }
}

/// The character index of the first `%` specifier chrono refuses.
fn bad_specifier(text: &str) -> usize {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte = |i: usize| chars.get(i).map_or(text.len(), |&(at, _)| at);
    let mut i = 0;
    while i < chars.len() {
        if chars[i].1 != '%' {
            i += 1;
            continue;
        }
        if chars.get(i + 1).is_some_and(|&(_, c)| c == '%') {
            i += 2;
            continue;
        }
        let end = (i + 1..chars.len()).find(|&j| chars[j].1 == '%').unwrap_or(chars.len());
        if chrono::format::StrftimeItems::new(&text[byte(i)..byte(end)]).parse().is_err() {
            return i;
        }
        i = end;
    }
    0
}

impl PartialEq for DateFormat {
    fn eq(&self, other: &DateFormat) -> bool {
        self.text == other.text
    }
}

/// A `<url>` pattern: `https://example.org/news/*`. Scheme and host are compared
/// case-insensitively; `*` matches any run of characters (slashes too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlPattern(Pattern);

impl UrlPattern {
    /// Check and normalize a pattern: the scheme must be `http`, `https` or `*`; scheme and
    /// host are lower-cased; a pattern naming only a host gets its `/`.
    pub fn parse(text: &str) -> Result<UrlPattern, String> {
        let text = text.trim();
        let Some((scheme, rest)) = text.split_once("://") else {
            return Err(format!("'{text}' is not a URL pattern: it must start with http://, https:// or *://"));
        };
        let scheme = scheme.to_ascii_lowercase();
        if !matches!(scheme.as_str(), "http" | "https" | "*") {
            return Err(format!("'{text}': the scheme of a URL pattern must be http, https or *"));
        }
        let (authority, path) = match rest.find('/') {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, ""),
        };
        if authority.is_empty() {
            return Err(format!("'{text}': the URL pattern has no host"));
        }
        if authority.contains(char::is_whitespace) || path.contains(char::is_whitespace) {
            return Err(format!("'{text}': a URL pattern has no spaces"));
        }
        // A host without wildcards is written the way `Url` writes it (IDNA, no default port).
        let authority = if authority.contains('*') {
            authority.to_lowercase()
        } else {
            let probe = Url::parse(&format!("http://{authority}/"))
                .map_err(|e| format!("'{text}': the host of the URL pattern is not valid ({e})"))?;
            let host = probe.host_str().unwrap_or_default().to_string();
            match probe.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        };
        let path = if path.is_empty() && !authority.ends_with('*') { "/" } else { path };
        Ok(UrlPattern(Pattern(format!("{scheme}://{authority}{path}"))))
    }

    pub fn as_str(&self) -> &str {
        &self.0.0
    }

    /// Whether the URL (without its fragment) matches, as written or percent-decoded.
    pub fn matches(&self, url: &Url) -> bool {
        let text = without_fragment(url);
        self.0.matches(text)
            || percent_encoding::percent_decode_str(text).decode_utf8().is_ok_and(|decoded| self.0.matches(&decoded))
    }

    /// How specific the pattern is: its characters other than `*`.
    fn specificity(&self) -> usize {
        self.as_str().chars().filter(|&c| c != '*').count()
    }
}

fn without_fragment(url: &Url) -> &str {
    let text = url.as_str();
    text.split_once('#').map_or(text, |(before, _)| before)
}

impl Rule {
    /// Whether the rule serves this page: one of its `<url>` patterns matches, or, for a rule
    /// without any, the URL is its `<link>`.
    pub fn matches_url(&self, url: &Url) -> bool {
        self.specificity(url).is_some()
    }

    /// How specifically the rule names this URL (`None`: it does not serve it).
    pub(crate) fn specificity(&self, url: &Url) -> Option<usize> {
        if self.urls.is_empty() {
            let link = self.link.as_ref()?;
            return (without_fragment(link) == without_fragment(url)).then(|| link.as_str().len());
        }
        self.urls.iter().filter(|p| p.matches(url)).map(UrlPattern::specificity).max()
    }

    /// Parse a rule file's text; `origin` names it in errors (usually the file name).
    pub fn parse(xml: &str, origin: &str) -> Result<Rule, RuleError> {
        xml::parse(xml, origin)
    }

    /// Parse a rule file's bytes: UTF-8, or the encoding its XML declaration names.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Rule, RuleError> {
        xml::parse_bytes(bytes, origin)
    }

    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Rule, RuleError> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let bytes =
            xml::read_capped(path).map_err(|e| RuleError { origin: origin.clone(), line: 0, column: 0, kind: e })?;
        Rule::from_bytes(&bytes, &origin)
    }

    /// The rule as XML that [`Rule::parse`] reads back to an equal rule.
    pub fn to_xml(&self) -> String {
        xml::write(self)
    }

    /// A display name: `<name>`, else the first URL pattern, else the link.
    pub fn label(&self) -> String {
        self.name
            .clone()
            .or_else(|| self.urls.first().map(|u| u.as_str().to_string()))
            .or_else(|| self.link.as_ref().map(Url::to_string))
            .unwrap_or_else(|| "unnamed rule".to_string())
    }
}

/// Why a rule file was refused: where (`origin:line:column`, 1-based) and what.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct RuleError {
    pub origin: String,
    /// 0 when the error is about the whole file (unreadable, too large).
    pub line: usize,
    pub column: usize,
    pub kind: RuleErrorKind,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.origin, self.kind)
        } else {
            write!(f, "{}:{}:{}: {}", self.origin, self.line, self.column, self.kind)
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuleErrorKind {
    #[error("cannot read the rule file: {0}")]
    Read(String),
    #[error("the rule file is {size} bytes, more than the limit of {limit}")]
    TooLarge { size: usize, limit: usize },
    #[error("the rule file is not valid {encoding}")]
    Encoding { encoding: String },
    #[error("malformed XML: {0}")]
    Xml(String),
    #[error("DOCTYPE declarations are refused in rule files (entities could expand without bound or read files)")]
    Doctype,
    #[error("unknown entity '&{0};': only &lt; &gt; &amp; &apos; &quot; and character references are allowed")]
    Entity(String),
    #[error("the root element must be <page>, found <{0}>")]
    Root(String),
    #[error("no <page> element")]
    NoRoot,
    #[error("unexpected <{found}> after the end of <page>")]
    AfterRoot { found: String },
    #[error("unknown element <{name}> in <{parent}> (expected one of: {expected})")]
    UnknownElement { name: String, parent: String, expected: String },
    #[error("unknown attribute '{name}' on <{element}>")]
    UnknownAttribute { name: String, element: String },
    #[error("bad attribute on <{element}>: {message}")]
    BadAttribute { element: String, message: String },
    #[error("<{element}> needs a '{name}' attribute")]
    MissingAttribute { name: String, element: String },
    #[error("duplicate <{name}> in <{parent}>")]
    Duplicate { name: String, parent: String },
    #[error("<{element}> needs {what}")]
    Missing { element: String, what: String },
    #[error("<{element}> holds text, not elements: found <{found}>")]
    NestedElement { element: String, found: String },
    #[error("unexpected text in <{element}>: '{text}'")]
    UnexpectedText { element: String, text: String },
    #[error("<{element}> is not closed before the end of the file")]
    Unclosed { element: String },
    #[error("bad path in {place} '{path}': {message}")]
    Path { place: String, path: String, message: String },
    #[error("{0}")]
    Value(String),
}

impl RuleErrorKind {
    fn path(place: &str, path: &str, error: &PathError) -> RuleErrorKind {
        RuleErrorKind::Path { place: place.to_string(), path: path.trim().to_string(), message: error.message.clone() }
    }
}
