//! Rule files: reading them with exact error positions, and writing them back.
//!
//! Rule files come from strangers (`POST /rules`), so the reader is strict: a size cap, no
//! DOCTYPE (so no entity declarations: no billion laughs, no external entities), only the five
//! predefined entities and character references, and every unknown element or attribute is an
//! error rather than something silently ignored.

use std::io::Read;
use std::str::FromStr;

use chrono_tz::Tz;
use quick_xml::events::{BytesStart, Event};
use url::Url;

use std::collections::BTreeMap;

use super::{
    ArticleRule, DateFormat, Field, ItemRule, Place, Rule, RuleError, RuleErrorKind, SubjectRule, Support, UrlPattern,
};
use crate::path::Path;

/// Rule files larger than this are refused; real rules are a few kilobytes.
pub const MAX_RULE_BYTES: usize = 1 << 20;

const PAGE_CHILDREN: &str = "name, url, link, encoding, timezone, format, date, subject, article";
const SUBJECT_CHILDREN: &str = "title, item";
const ITEM_CHILDREN: &str = "title, link, date, description, author, content";
const ARTICLE_CHILDREN: &str = "url, title, author, date, content";
/// Attributes of an element that holds a path: a learned path's training support.
const SUPPORT_ATTRIBUTES: [&str; 2] = ["matched", "of"];

/// Read a file, refusing it once it is larger than the cap (without reading all of it).
pub(super) fn read_capped(path: &std::path::Path) -> Result<Vec<u8>, RuleErrorKind> {
    let file = std::fs::File::open(path).map_err(|e| RuleErrorKind::Read(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_RULE_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|e| RuleErrorKind::Read(e.to_string()))?;
    if bytes.len() > MAX_RULE_BYTES {
        let size = std::fs::metadata(path).map(|m| m.len() as usize).unwrap_or(bytes.len());
        return Err(RuleErrorKind::TooLarge { size, limit: MAX_RULE_BYTES });
    }
    Ok(bytes)
}

/// Decode a rule file (BOM, else the encoding its XML declaration names, else UTF-8), then parse.
pub(super) fn parse_bytes(bytes: &[u8], origin: &str) -> Result<Rule, RuleError> {
    let whole_file = |kind| RuleError { origin: origin.to_string(), line: 0, column: 0, kind };
    if bytes.len() > MAX_RULE_BYTES {
        return Err(whole_file(RuleErrorKind::TooLarge { size: bytes.len(), limit: MAX_RULE_BYTES }));
    }
    let (encoding, body) = match encoding_rs::Encoding::for_bom(bytes) {
        Some((encoding, bom)) => (encoding, &bytes[bom..]),
        None => (declared_encoding(bytes).unwrap_or(encoding_rs::UTF_8), bytes),
    };
    if encoding == encoding_rs::UTF_8 {
        return match std::str::from_utf8(body) {
            Ok(text) => parse(text, origin),
            Err(e) => {
                let valid = std::str::from_utf8(&body[..e.valid_up_to()]).unwrap_or_default();
                let (line, column) = line_column(valid, valid.len());
                Err(RuleError {
                    origin: origin.to_string(),
                    line,
                    column,
                    kind: RuleErrorKind::Encoding { encoding: "UTF-8".into() },
                })
            }
        };
    }
    match encoding.decode_without_bom_handling_and_without_replacement(body) {
        Some(text) => parse(&text, origin),
        None => Err(whole_file(RuleErrorKind::Encoding { encoding: encoding.name().to_string() })),
    }
}

/// The `encoding="..."` of an XML declaration at the start of the bytes (ASCII-compatible
/// encodings only: UTF-16 files are recognised by their BOM).
fn declared_encoding(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = bytes.strip_prefix(b"<?xml")?;
    let end = head.iter().position(|&b| b == b'>')?;
    let decl = std::str::from_utf8(&head[..end]).ok()?;
    let after = &decl[decl.find("encoding")? + "encoding".len()..];
    let after = after.trim_start().strip_prefix('=')?.trim_start();
    let quote = after.chars().next().filter(|&q| q == '"' || q == '\'')?;
    let label = after[1..].split(quote).next()?;
    let encoding = encoding_rs::Encoding::for_label(label.trim().as_bytes())?;
    // A declaration that says UTF-16 in ASCII bytes is wrong about itself; read it as UTF-8.
    (encoding.is_ascii_compatible()).then_some(encoding)
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    (line, before[line_start..].chars().count() + 1)
}

pub(super) fn parse(xml: &str, origin: &str) -> Result<Rule, RuleError> {
    if xml.len() > MAX_RULE_BYTES {
        return Err(RuleError {
            origin: origin.to_string(),
            line: 0,
            column: 0,
            kind: RuleErrorKind::TooLarge { size: xml.len(), limit: MAX_RULE_BYTES },
        });
    }
    let mut reader = quick_xml::Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    Parser { input: xml, origin, reader, at: 0 }.document()
}

/// Text of an element or attribute, entities resolved, with the byte offset in the file of
/// each of its characters (so that an error inside a path points at the right column).
struct Value {
    text: String,
    offsets: Vec<usize>,
    /// Where the value ends (for errors past its last character).
    end: usize,
}

impl Value {
    fn new(end: usize) -> Value {
        Value { text: String::new(), offsets: Vec::new(), end }
    }

    fn push(&mut self, c: char, offset: usize) {
        self.text.push(c);
        self.offsets.push(offset);
    }

    /// Raw text without references (an XML text event or CDATA), line ends normalized.
    fn push_raw(&mut self, raw: &str, start: usize) {
        let mut chars = raw.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\r' {
                if chars.peek().is_some_and(|&(_, next)| next == '\n') {
                    continue;
                }
                self.push('\n', start + i);
            } else {
                self.push(c, start + i);
            }
        }
    }

    /// The offset of the character at `index` (a path error's position).
    fn offset(&self, index: usize) -> usize {
        self.offsets.get(index).copied().unwrap_or(self.end)
    }

    /// Index of the first character that is not white space.
    fn first_visible(&self) -> usize {
        self.text.chars().position(|c| !c.is_whitespace()).unwrap_or(0)
    }

    fn trimmed(&self) -> &str {
        self.text.trim()
    }
}

/// The five predefined entities and character references; nothing else.
fn resolve_reference(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code).filter(|&c| c != '\0')
        }
    }
}

/// A child element of a container, just after its start tag.
struct Child<'a> {
    name: String,
    tag: BytesStart<'a>,
    /// `<name/>`: no content and no end tag.
    empty: bool,
    at: usize,
}

struct Parser<'a> {
    input: &'a str,
    origin: &'a str,
    reader: quick_xml::Reader<&'a [u8]>,
    /// Byte offset where the event just read starts.
    at: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, offset: usize, kind: RuleErrorKind) -> RuleError {
        let (line, column) = line_column(self.input, offset);
        RuleError { origin: self.origin.to_string(), line, column, kind }
    }

    /// Where a slice borrowed from the input starts in it.
    fn offset_of(&self, slice: &str, fallback: usize) -> usize {
        let start = self.input.as_ptr() as usize;
        let at = slice.as_ptr() as usize;
        if at >= start && at + slice.len() <= start + self.input.len() { at - start } else { fallback }
    }

    fn next(&mut self) -> Result<Event<'a>, RuleError> {
        self.at = self.reader.buffer_position() as usize;
        match self.reader.read_event() {
            Ok(Event::DocType(_)) => Err(self.error(self.at, RuleErrorKind::Doctype)),
            Ok(event) => Ok(event),
            Err(e) => Err(self.error(self.reader.error_position() as usize, RuleErrorKind::Xml(e.to_string()))),
        }
    }

    /// Text where elements were expected; the error points at its first visible character.
    fn unexpected_text(&self, element: &str, text: &str) -> RuleError {
        let mut shown: String = text.trim().chars().take(40).collect();
        if text.trim().chars().count() > 40 {
            shown.push('…');
        }
        let blank = text.len() - text.trim_start().len();
        let at = self.offset_of(text, self.at) + blank;
        self.error(at, RuleErrorKind::UnexpectedText { element: element.to_string(), text: shown })
    }

    fn document(mut self) -> Result<Rule, RuleError> {
        let rule = loop {
            match self.next()? {
                Event::Decl(_) | Event::Comment(_) | Event::PI(_) => {}
                Event::Text(text) if is_blank(&text) => {}
                Event::Start(tag) => {
                    let at = self.at;
                    self.check_root(&tag, at)?;
                    break self.page(at, false)?;
                }
                Event::Empty(tag) => {
                    let at = self.at;
                    self.check_root(&tag, at)?;
                    break self.page(at, true)?;
                }
                Event::Eof => return Err(self.error(self.at, RuleErrorKind::NoRoot)),
                Event::Text(text) => return Err(self.unexpected_text("the document", &text)),
                Event::CData(_) | Event::GeneralRef(_) | Event::End(_) | Event::DocType(_) => {
                    return Err(self.unexpected_text("the document", "markup before <page>"));
                }
            }
        };
        loop {
            match self.next()? {
                Event::Eof => return Ok(rule),
                Event::Comment(_) | Event::PI(_) => {}
                Event::Text(text) if is_blank(&text) => {}
                Event::Start(tag) | Event::Empty(tag) => {
                    let found = tag.name().as_ref().to_string();
                    return Err(self.error(self.at, RuleErrorKind::AfterRoot { found }));
                }
                Event::Text(text) => return Err(self.unexpected_text("the document", &text)),
                _ => return Err(self.unexpected_text("the document", "markup after </page>")),
            }
        }
    }

    fn check_root(&self, tag: &BytesStart, at: usize) -> Result<(), RuleError> {
        let name = tag.name().as_ref().to_string();
        if name != "page" {
            return Err(self.error(at, RuleErrorKind::Root(name)));
        }
        self.attributes(tag, "page", &[]).map(drop)
    }

    /// The next child element of a container, or `None` at its end (at once for an empty
    /// container). Comments and blank text between elements are skipped; anything else is an
    /// error.
    fn child(&mut self, parent: &str, parent_empty: bool) -> Result<Option<Child<'a>>, RuleError> {
        if parent_empty {
            return Ok(None);
        }
        loop {
            match self.next()? {
                Event::Start(tag) => {
                    return Ok(Some(Child { name: tag.name().as_ref().to_string(), tag, empty: false, at: self.at }));
                }
                Event::Empty(tag) => {
                    return Ok(Some(Child { name: tag.name().as_ref().to_string(), tag, empty: true, at: self.at }));
                }
                Event::End(_) => return Ok(None),
                Event::Comment(_) | Event::PI(_) => {}
                Event::Text(text) if is_blank(&text) => {}
                Event::Text(text) => return Err(self.unexpected_text(parent, &text)),
                Event::CData(data) => return Err(self.unexpected_text(parent, &data)),
                Event::GeneralRef(reference) => return Err(self.unexpected_text(parent, &format!("&{};", &*reference))),
                Event::Eof => {
                    return Err(self.error(self.at, RuleErrorKind::Unclosed { element: parent.to_string() }));
                }
                Event::Decl(_) | Event::DocType(_) => {
                    return Err(self.unexpected_text(parent, "a declaration"));
                }
            }
        }
    }

    /// The text content of a leaf element (after its start tag was read).
    fn value(&mut self, element: &str, empty: bool) -> Result<Value, RuleError> {
        let mut value = Value::new(self.reader.buffer_position() as usize);
        if empty {
            return Ok(value);
        }
        loop {
            match self.next()? {
                Event::Text(text) => {
                    let start = self.offset_of(&text, self.at);
                    value.push_raw(&text, start);
                }
                Event::CData(data) => {
                    let start = self.offset_of(&data, self.at);
                    value.push_raw(&data, start);
                }
                Event::GeneralRef(reference) => match resolve_reference(&reference) {
                    Some(c) => value.push(c, self.at),
                    None => return Err(self.error(self.at, RuleErrorKind::Entity(reference.to_string()))),
                },
                Event::Comment(_) | Event::PI(_) => {}
                Event::End(_) => {
                    value.end = self.at;
                    return Ok(value);
                }
                Event::Start(tag) | Event::Empty(tag) => {
                    let found = tag.name().as_ref().to_string();
                    return Err(self.error(self.at, RuleErrorKind::NestedElement { element: element.into(), found }));
                }
                Event::Eof => {
                    return Err(self.error(self.at, RuleErrorKind::Unclosed { element: element.to_string() }));
                }
                Event::Decl(_) | Event::DocType(_) => return Err(self.unexpected_text(element, "a declaration")),
            }
        }
    }

    /// The attributes of a tag, each checked against `allowed`, with resolved values.
    fn attributes(
        &self,
        tag: &BytesStart,
        element: &str,
        allowed: &[&str],
    ) -> Result<Vec<(String, Value, usize)>, RuleError> {
        let tag_at = self.at;
        let mut out = Vec::new();
        for attribute in tag.attributes() {
            let attribute = attribute.map_err(|e| {
                self.error(tag_at, RuleErrorKind::BadAttribute { element: element.to_string(), message: e.to_string() })
            })?;
            let name = attribute.key.as_ref().to_string();
            let name_at = self.offset_of(attribute.key.as_ref(), tag_at);
            if !allowed.contains(&name.as_str()) {
                return Err(self.error(name_at, RuleErrorKind::UnknownAttribute { name, element: element.to_string() }));
            }
            let raw: &str = &attribute.value;
            let start = self.offset_of(raw, tag_at);
            let mut value = Value::new(start + raw.len());
            let mut rest = raw.char_indices();
            while let Some((i, c)) = rest.next() {
                if c != '&' {
                    // Attribute-value normalization: line breaks and tabs are spaces.
                    value.push(if matches!(c, '\t' | '\n' | '\r') { ' ' } else { c }, start + i);
                    continue;
                }
                let reference: String = rest.by_ref().map(|(_, c)| c).take_while(|&c| c != ';').collect();
                match resolve_reference(&reference) {
                    Some(resolved) => value.push(resolved, start + i),
                    None => return Err(self.error(start + i, RuleErrorKind::Entity(reference))),
                }
            }
            out.push((name, value, name_at));
        }
        Ok(out)
    }

    fn page(&mut self, start: usize, empty: bool) -> Result<Rule, RuleError> {
        let mut rule = Rule {
            name: None,
            urls: Vec::new(),
            link: None,
            encoding: None,
            timezone: None,
            date_format: None,
            page_date: None,
            subjects: Vec::new(),
            article: None,
            support: BTreeMap::new(),
        };
        let mut seen: Vec<String> = Vec::new();
        while let Some(Child { name, tag, empty, at }) = self.child("page", empty)? {
            if !matches!(name.as_str(), "url" | "subject") {
                if seen.contains(&name) {
                    return Err(self.error(at, RuleErrorKind::Duplicate { name, parent: "page".into() }));
                }
                seen.push(name.clone());
            }
            if name == "subject" {
                let index = rule.subjects.len();
                rule.subjects.push(self.subject(&tag, empty, at, index, &mut rule.support)?);
                continue;
            }
            if name == "article" {
                rule.article = Some(self.article(&tag, empty, &mut rule.support)?);
                continue;
            }
            if !PAGE_CHILDREN.split(", ").any(|known| known == name) {
                return Err(self.unknown_element(at, name, "page", PAGE_CHILDREN));
            }
            self.attributes(&tag, &name, &[])?;
            let value = self.value(&name, empty)?;
            let text = value.trimmed();
            let bad =
                |message: String| Err(self.error(value.offset(value.first_visible()), RuleErrorKind::Value(message)));
            if text.is_empty() && name != "date" {
                return Err(self.error(at, RuleErrorKind::Missing { element: name, what: "a value".into() }));
            }
            match name.as_str() {
                "name" => rule.name = Some(text.to_string()),
                "url" => match UrlPattern::parse(text) {
                    Ok(pattern) => rule.urls.push(pattern),
                    Err(message) => return bad(message),
                },
                "link" => match Url::parse(text) {
                    Ok(url) if matches!(url.scheme(), "http" | "https") => rule.link = Some(url),
                    Ok(_) => return bad(format!("<link> '{text}' is not an http(s) URL")),
                    Err(e) => return bad(format!("<link> '{text}' is not a URL: {e}")),
                },
                "encoding" => match encoding_rs::Encoding::for_label(text.as_bytes()) {
                    Some(encoding) => rule.encoding = Some(encoding),
                    None => return bad(format!("unknown encoding '{text}'")),
                },
                "timezone" => match Tz::from_str(text) {
                    Ok(tz) => rule.timezone = Some(tz),
                    Err(_) => return bad(format!("unknown time zone '{text}' (use an IANA name such as Asia/Tokyo)")),
                },
                "format" => match DateFormat::new(text) {
                    Ok(format) => rule.date_format = Some(format),
                    Err(e) => {
                        let at = value.offset(value.first_visible() + e.position);
                        return Err(self.error(at, RuleErrorKind::Value(e.message)));
                    }
                },
                _ => rule.page_date = Some(self.path(&value, "<page> <date>")?),
            }
        }
        if rule.subjects.is_empty() && rule.article.is_none() {
            return Err(self.error(
                start,
                RuleErrorKind::Missing {
                    element: "page".into(),
                    what: "at least one <subject path=...> (or an <article>)".into(),
                },
            ));
        }
        Ok(rule)
    }

    fn unknown_element(&self, at: usize, name: String, parent: &str, expected: &str) -> RuleError {
        self.error(
            at,
            RuleErrorKind::UnknownElement { name, parent: parent.to_string(), expected: expected.to_string() },
        )
    }

    /// Parse a path value; an error points at the offending character.
    fn path(&self, value: &Value, place: &str) -> Result<Path, RuleError> {
        value
            .text
            .parse::<Path>()
            .map_err(|e| self.error(value.offset(e.position), RuleErrorKind::path(place, &value.text, &e)))
    }

    /// The required `path` attribute of a subject or item (elements, not an attribute), and
    /// its training support.
    fn path_attribute(&self, tag: &BytesStart, element: &str, at: usize) -> Result<(Path, Option<Support>), RuleError> {
        let attributes = self.attributes(tag, element, &["path", "matched", "of"])?;
        let support = self.support(&attributes, element, at)?;
        let Some((_, value, _)) = attributes.into_iter().find(|(name, _, _)| name == "path") else {
            return Err(
                self.error(at, RuleErrorKind::MissingAttribute { name: "path".into(), element: element.into() })
            );
        };
        let path = self.path(&value, &format!("<{element} path>"))?;
        if path.selects_attribute() {
            return Err(self.error(
                value.offset(value.first_visible()),
                RuleErrorKind::Value(format!("the path of <{element}> must select elements, not an attribute")),
            ));
        }
        Ok((path, support))
    }

    /// `matched="M" of="N"`: both or neither, whole numbers, M at most N.
    fn support(
        &self,
        attributes: &[(String, Value, usize)],
        element: &str,
        at: usize,
    ) -> Result<Option<Support>, RuleError> {
        let number = |name: &str| -> Result<Option<u32>, RuleError> {
            let Some((_, value, name_at)) = attributes.iter().find(|(n, _, _)| n == name) else { return Ok(None) };
            value.trimmed().parse::<u32>().map(Some).map_err(|_| {
                self.error(
                    *name_at,
                    RuleErrorKind::BadAttribute {
                        element: element.to_string(),
                        message: format!("'{name}' must be a whole number, not '{}'", value.trimmed()),
                    },
                )
            })
        };
        match (number("matched")?, number("of")?) {
            (None, None) => Ok(None),
            (Some(matched), Some(of)) if matched <= of => Ok(Some(Support { matched, of })),
            (Some(matched), Some(of)) => Err(self.error(
                at,
                RuleErrorKind::BadAttribute {
                    element: element.to_string(),
                    message: format!("matched=\"{matched}\" is more than of=\"{of}\""),
                },
            )),
            (Some(_), None) => {
                Err(self.error(at, RuleErrorKind::MissingAttribute { name: "of".into(), element: element.to_string() }))
            }
            (None, Some(_)) => Err(self
                .error(at, RuleErrorKind::MissingAttribute { name: "matched".into(), element: element.to_string() })),
        }
    }

    /// A field element holding one path, with its training support.
    fn field_path(
        &mut self,
        tag: &BytesStart,
        name: &str,
        parent: &str,
        empty: bool,
    ) -> Result<(Path, Option<Support>), RuleError> {
        let at = self.at;
        let attributes = self.attributes(tag, name, &SUPPORT_ATTRIBUTES)?;
        let support = self.support(&attributes, name, at)?;
        let value = self.value(name, empty)?;
        Ok((self.path(&value, &format!("<{parent}> <{name}>"))?, support))
    }

    fn subject(
        &mut self,
        tag: &BytesStart,
        empty: bool,
        start: usize,
        index: usize,
        support: &mut BTreeMap<Place, Support>,
    ) -> Result<SubjectRule, RuleError> {
        let (path, path_support) = self.path_attribute(tag, "subject", start)?;
        support.extend(path_support.map(|s| (Place::Subject(index), s)));
        let (mut title, mut item) = (None, None);
        while let Some(Child { name, tag, empty, at }) = self.child("subject", empty)? {
            match name.as_str() {
                "title" if title.is_some() => return Err(self.duplicate(at, name, "subject")),
                "title" => title = Some(self.field_path(&tag, "title", "subject", empty)?.0),
                "item" if item.is_some() => return Err(self.duplicate(at, name, "subject")),
                "item" => item = Some(self.item(&tag, empty, at, index, support)?),
                _ => return Err(self.unknown_element(at, name, "subject", SUBJECT_CHILDREN)),
            }
        }
        let Some(item) = item else {
            return Err(self.error(
                start,
                RuleErrorKind::Missing { element: "subject".into(), what: "an <item path=...>".into() },
            ));
        };
        Ok(SubjectRule { path, title, item })
    }

    fn duplicate(&self, at: usize, name: String, parent: &str) -> RuleError {
        self.error(at, RuleErrorKind::Duplicate { name, parent: parent.to_string() })
    }

    fn item(
        &mut self,
        tag: &BytesStart,
        empty: bool,
        start: usize,
        index: usize,
        support: &mut BTreeMap<Place, Support>,
    ) -> Result<ItemRule, RuleError> {
        let (path, path_support) = self.path_attribute(tag, "item", start)?;
        support.extend(path_support.map(|s| (Place::Item(index), s)));
        let mut item = ItemRule::new(path);
        while let Some(Child { name, tag, empty, at }) = self.child("item", empty)? {
            let Some(field) = Field::from_name(&name) else {
                return Err(self.unknown_element(at, name, "item", ITEM_CHILDREN));
            };
            if item.field(field).is_some() {
                return Err(self.duplicate(at, name, "item"));
            }
            let (path, path_support) = self.field_path(&tag, field.name(), "item", empty)?;
            support.extend(path_support.map(|s| (Place::ItemField(index, field), s)));
            item.set_field(field, Some(path));
        }
        if item.title.is_none() && item.link.is_none() {
            return Err(self.error(
                start,
                RuleErrorKind::Missing { element: "item".into(), what: "a <title> or a <link>".into() },
            ));
        }
        Ok(item)
    }
}

impl Parser<'_> {
    /// `<article>`: URL patterns and field paths from the document.
    fn article(
        &mut self,
        tag: &BytesStart,
        empty: bool,
        support: &mut BTreeMap<Place, Support>,
    ) -> Result<ArticleRule, RuleError> {
        self.attributes(tag, "article", &[])?;
        let mut article = ArticleRule::default();
        while let Some(Child { name, tag, empty, at }) = self.child("article", empty)? {
            if name == "url" {
                self.attributes(&tag, "url", &[])?;
                let value = self.value("url", empty)?;
                match UrlPattern::parse(value.trimmed()) {
                    Ok(pattern) => article.urls.push(pattern),
                    Err(message) => {
                        return Err(self.error(value.offset(value.first_visible()), RuleErrorKind::Value(message)));
                    }
                }
                continue;
            }
            let field = Field::from_name(&name).filter(|f| ArticleRule::FIELDS.contains(f));
            let Some(field) = field else {
                return Err(self.unknown_element(at, name, "article", ARTICLE_CHILDREN));
            };
            if article.field(field).is_some() {
                return Err(self.duplicate(at, name, "article"));
            }
            let (path, path_support) = self.field_path(&tag, field.name(), "article", empty)?;
            support.extend(path_support.map(|s| (Place::Article(field), s)));
            article.set_field(field, Some(path));
        }
        Ok(article)
    }
}

fn is_blank(text: &str) -> bool {
    text.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// The rule as XML, in the order of the paper's figure with the extensions first.
pub(super) fn write(rule: &Rule) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<page>\n");
    let leaf = |out: &mut String, indent: usize, name: &str, text: &str| {
        out.push_str(&"  ".repeat(indent));
        out.push_str(&format!("<{name}>{}</{name}>\n", quick_xml::escape::escape(text)));
    };
    if let Some(name) = &rule.name {
        leaf(&mut out, 1, "name", name);
    }
    for url in &rule.urls {
        leaf(&mut out, 1, "url", url.as_str());
    }
    if let Some(link) = &rule.link {
        leaf(&mut out, 1, "link", link.as_str());
    }
    if let Some(encoding) = rule.encoding {
        leaf(&mut out, 1, "encoding", encoding.name());
    }
    if let Some(tz) = rule.timezone {
        leaf(&mut out, 1, "timezone", tz.name());
    }
    if let Some(format) = &rule.date_format {
        leaf(&mut out, 1, "format", format.as_str());
    }
    if let Some(date) = &rule.page_date {
        leaf(&mut out, 1, "date", &date.to_string());
    }
    let support = |place: Place| match rule.support.get(&place) {
        Some(s) => format!(" matched=\"{}\" of=\"{}\"", s.matched, s.of),
        None => String::new(),
    };
    let path_leaf = |out: &mut String, indent: usize, name: &str, path: &Path, place: Place| {
        out.push_str(&"  ".repeat(indent));
        let text = quick_xml::escape::escape(path.to_string());
        out.push_str(&format!("<{name}{}>{text}</{name}>\n", support(place)));
    };
    for (i, subject) in rule.subjects.iter().enumerate() {
        let path = quick_xml::escape::escape(subject.path.to_string());
        out.push_str(&format!("  <subject path=\"{path}\"{}>\n", support(Place::Subject(i))));
        if let Some(title) = &subject.title {
            leaf(&mut out, 2, "title", &title.to_string());
        }
        let path = quick_xml::escape::escape(subject.item.path.to_string());
        out.push_str(&format!("    <item path=\"{path}\"{}>\n", support(Place::Item(i))));
        for field in Field::ALL {
            if let Some(path) = subject.item.field(field) {
                path_leaf(&mut out, 3, field.name(), path, Place::ItemField(i, field));
            }
        }
        out.push_str("    </item>\n  </subject>\n");
    }
    if let Some(article) = &rule.article {
        out.push_str("  <article>\n");
        for url in &article.urls {
            leaf(&mut out, 2, "url", url.as_str());
        }
        for field in ArticleRule::FIELDS {
            if let Some(path) = article.field(field) {
                path_leaf(&mut out, 2, field.name(), path, Place::Article(field));
            }
        }
        out.push_str("  </article>\n");
    }
    out.push_str("</page>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<page>
  <name>Template for example.org</name>
  <url>https://example.org/page/*</url>
  <subject path="/HTML/BODY/MAIN" matched="1" of="1">
    <item path="ARTICLE[@class=post]" matched="9" of="10">
      <title matched="9" of="9">H2/A</title>
      <date matched="8" of="9">TIME/@datetime</date>
    </item>
  </subject>
  <article>
    <url>*://example.org/posts/*/</url>
    <title matched="3" of="3">//H1[@class=title]</title>
    <content matched="2" of="3">//DIV[@class=entry]</content>
  </article>
</page>
"#;

    #[test]
    fn article_part_and_training_support_round_trip() {
        let rule = parse(TEMPLATE, "t.xml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rule.support.get(&Place::Item(0)), Some(&Support { matched: 9, of: 10 }));
        assert_eq!(rule.support.get(&Place::ItemField(0, Field::Date)), Some(&Support { matched: 8, of: 9 }));
        assert_eq!(rule.support.get(&Place::Article(Field::Content)), Some(&Support { matched: 2, of: 3 }));
        let article = rule.article.as_ref().unwrap();
        assert_eq!(article.title.as_ref().unwrap().to_string(), "//H1[@class=title]");
        assert!(article.matches_url(&Url::parse("http://example.org/posts/hello/").unwrap()));
        assert!(!article.matches_url(&Url::parse("http://example.org/about/").unwrap()));
        assert_eq!(write(&rule), TEMPLATE);
        assert_eq!(parse(&write(&rule), "again").unwrap(), rule);
        // A rule of only an article part is a rule.
        let only = parse("<page><article><content>//MAIN</content></article></page>", "a.xml").unwrap();
        assert!(only.subjects.is_empty() && only.article.is_some());
        assert_eq!(parse(&write(&only), "again").unwrap(), only);
    }

    #[test]
    fn bad_article_parts_and_support_say_where() {
        /// A rule's text, the line and column its error names, and the kind it must be.
        type Case = (&'static str, usize, usize, fn(&RuleErrorKind) -> bool);
        let cases: [Case; 5] = [
            (
                "<page><article>\n  <link>A</link></article></page>",
                2,
                3,
                |k| matches!(k, RuleErrorKind::UnknownElement { name, parent, .. } if name == "link" && parent == "article"),
            ),
            (
                "<page><article><title>H1</title>\n<title>H2</title></article></page>",
                2,
                1,
                |k| matches!(k, RuleErrorKind::Duplicate { name, .. } if name == "title"),
            ),
            (
                "<page><article><content matched=\"4\" of=\"3\">DIV</content></article></page>",
                1,
                16,
                |k| matches!(k, RuleErrorKind::BadAttribute { message, .. } if message.contains("more than")),
            ),
            (
                "<page><subject path=\"/\" matched=\"x\" of=\"2\"><item path=\"A\"><link>.</link></item></subject></page>",
                1,
                25,
                |k| matches!(k, RuleErrorKind::BadAttribute { message, .. } if message.contains("whole number")),
            ),
            (
                "<page><subject path=\"/\"><item path=\"A\" matched=\"2\"><link>.</link></item></subject></page>",
                1,
                25,
                |k| matches!(k, RuleErrorKind::MissingAttribute { name, .. } if name == "of"),
            ),
        ];
        for (xml, line, column, kind) in cases {
            let err = parse(xml, "bad.xml").unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{xml}: {err}");
            assert!(kind(&err.kind), "{xml}: {err}");
        }
    }
}
