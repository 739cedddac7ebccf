//! The publication and modification dates of an article page.
//!
//! Sources, most trusted first: the page's machine-readable metadata (meta tags, JSON-LD,
//! microdata), `<time>` elements, the URL (`/2020/06/07/`, switchable), and last a date
//! written for people near the headline ([`visible_date`]). Comment dates are never taken:
//! time elements and visible dates inside comment sections are skipped.

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use regex::Regex;
use serde::Serialize;
use url::Url;

use super::metadata::{Metadata, is_comment_zone};
use crate::dom::{Document, NodeId};
use crate::engines::timepattern::{self, DateContext, Precision};

/// Where a date was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateSource {
    /// `<meta property="article:published_time">` and the like.
    Meta,
    /// A JSON-LD `datePublished` / `dateModified`.
    JsonLd,
    /// A `<time>` element or an element marked as a date (`pubdate`, `class="published"`).
    TimeElement,
    /// A date in the page's URL.
    Url,
    /// A date written in the page text near the headline.
    Text,
}

/// A date and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FoundDate {
    pub date: DateTime<FixedOffset>,
    pub source: DateSource,
}

/// Meta keys (property, name, itemprop or http-equiv, lower-case) that give the publication
/// date, most specific first.
const PUBLISHED_META: &[&str] = &[
    "article:published_time",
    "article:published",
    "og:published_time",
    "og:article:published_time",
    "datepublished",
    "article.published",
    "published_time",
    "published-date",
    "publish-date",
    "publish_date",
    "publishdate",
    "publication_date",
    "pubdate",
    "pub_date",
    "sailthru.date",
    "parsely-pub-date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "dc.date",
    "dcterms.date",
    "citation_publication_date",
    "citation_date",
    "originalpublicationdate",
    "article_date_original",
    "cxenseparse:recs:publishtime",
    "rnews:datepublished",
    "weibo:article:create_at",
    "og:pubdate",
    "datecreated",
    "date",
    "displaydate",
    "release_date",
    "uploaddate",
];

/// Meta keys that give the last modification.
const MODIFIED_META: &[&str] = &[
    "article:modified_time",
    "article:modified",
    "og:updated_time",
    "datemodified",
    "dc.date.modified",
    "dcterms.modified",
    "last-modified",
    "lastmod",
    "article.updated",
    "updated_time",
];

/// Plausible years for a page date: older dates are birthdays and founding years; later ones
/// are typos or events.
fn plausible(date: &DateTime<FixedOffset>) -> bool {
    (1995..=Utc::now().year() + 1).contains(&date.year())
}

/// The page's publication date (`url_dates`: whether the URL may give it).
pub fn published(doc: &Document, meta: &Metadata, title_node: Option<NodeId>, url_dates: bool) -> Option<FoundDate> {
    let lang = meta.lang.as_deref();
    let found = |source| move |date| FoundDate { date, source };
    // Machine-readable dates, most trusted first.
    let mut machine: Vec<FoundDate> = PUBLISHED_META
        .iter()
        .flat_map(|key| meta.tags.values(key))
        .filter_map(|v| parse_machine_date(v, lang))
        .map(found(DateSource::Meta))
        .collect();
    machine.extend(
        meta.json_ld
            .iter()
            .filter_map(|n| n.date_published.as_deref().and_then(|v| parse_machine_date(v, lang)))
            .map(found(DateSource::JsonLd)),
    );
    let url = url_dates.then(|| url_date(&doc.url)).flatten();
    let visible = || visible_date(doc, title_node, meta.lang.as_deref());
    let first =
        machine.first().copied().or_else(|| time_element(doc, title_node, lang).map(found(DateSource::TimeElement)));
    match first {
        Some(first) => Some(local_day(first, &machine, url, visible)),
        None => url.map(found(DateSource::Url)).or_else(|| visible().map(found(DateSource::Text))),
    }
    .filter(|d| plausible(&d.date))
}

/// Timestamps are often stored in UTC while the page shows its own day: 02:54 UTC on May 2
/// is May 1 in New York. When the best date is a UTC time, a date within a day of it that
/// knows the site's day — a machine date with the site's offset, the date written near the
/// headline, the URL's date — gives the day.
fn local_day(
    first: FoundDate,
    machine: &[FoundDate],
    url: Option<DateTime<FixedOffset>>,
    visible: impl FnOnce() -> Option<DateTime<FixedOffset>>,
) -> FoundDate {
    let utc_time = first.date.offset().local_minus_utc() == 0 && first.date.time() != NaiveTime::MIN;
    if !utc_time {
        return first;
    }
    let near = |d: &DateTime<FixedOffset>| (d.date_naive() - first.date.date_naive()).num_days().abs() <= 1;
    machine
        .iter()
        .find(|c| c.date.offset().local_minus_utc() != 0 && near(&c.date))
        .copied()
        .or_else(|| visible().filter(near).map(|date| FoundDate { date, source: DateSource::Text }))
        .or_else(|| url.filter(near).map(|date| FoundDate { date, source: DateSource::Url }))
        .unwrap_or(first)
}

/// The page's last modification date, when it says.
pub fn modified(meta: &Metadata) -> Option<FoundDate> {
    let lang = meta.lang.as_deref();
    let from_meta = MODIFIED_META
        .iter()
        .find_map(|key| meta.tags.values(key).find_map(|v| parse_machine_date(v, lang)).map(|d| (d, DateSource::Meta)));
    from_meta
        .or_else(|| {
            meta.json_ld
                .iter()
                .find_map(|n| n.date_modified.as_deref().and_then(|v| parse_machine_date(v, lang)))
                .map(|d| (d, DateSource::JsonLd))
        })
        .filter(|(d, _)| plausible(d))
        .map(|(date, source)| FoundDate { date, source })
}

/// How far (in nodes of the page) from the headline a `<time>` element may date the article.
const TIME_ELEMENT_WINDOW: u32 = 400;

/// A `<time>` element (or one marked `pubdate` / `class="published"`) that dates the article:
/// one explicitly marked as the publication wins; else the nearest to the headline (bylines sit
/// just before or after it), else, without a headline, the first outside link lists. Comment
/// sections are skipped.
fn time_element(doc: &Document, title_node: Option<NodeId>, lang: Option<&str>) -> Option<DateTime<FixedOffset>> {
    let body = doc.first_tag("body")?;
    let mut best: Option<(u32, DateTime<FixedOffset>)> = None;
    for n in doc.descendants(body) {
        let Some(tag) = doc.tag(n) else { continue };
        let is_time = tag == "time";
        let marked = doc.attr(n, "pubdate").is_some()
            || doc.attr(n, "class").is_some_and(|c| {
                c.split_ascii_whitespace().any(|c| matches!(c, "published" | "entry-date" | "dt-published"))
            });
        if !is_time && !marked {
            continue;
        }
        if is_comment_zone(doc, n) {
            continue;
        }
        let value = doc
            .attr(n, "datetime")
            .or_else(|| doc.attr(n, "content"))
            .or_else(|| doc.attr(n, "title").filter(|_| tag == "abbr"))
            .map(str::to_string)
            .unwrap_or_else(|| doc.text(n));
        let Some(date) = parse_machine_date(&value, lang).or_else(|| read_visible_date(&value, lang)) else {
            continue;
        };
        if marked {
            return Some(date);
        }
        let distance = match title_node {
            Some(t) => t.0.abs_diff(n.0),
            None if in_link_list(doc, n) => continue,
            None => n.0,
        };
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, date));
        }
    }
    best.filter(|&(d, _)| title_node.is_none() || d <= TIME_ELEMENT_WINDOW).map(|(_, date)| date)
}

/// Whether a node sits in a list of links to other pages (related posts, "latest news").
fn in_link_list(doc: &Document, node: NodeId) -> bool {
    doc.ancestors(node).take(6).any(|a| matches!(doc.tag(a), Some("li" | "nav" | "aside")))
}

static URL_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^0-9])((?:19|20)[0-9]{2})[/_.-]([0-9]{1,2})[/_.-]([0-9]{1,2})(?:[^0-9]|$)").expect("valid regex")
});
static URL_COMPACT_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[/_-])((?:19|20)[0-9]{2})([01][0-9])([0-3][0-9])(?:[/_.-]|$)").expect("valid regex")
});

/// A date in a URL's path: `/2020/06/07/`, `/2020-06-07-title`, `/20200607/`.
pub fn url_date(url: &Url) -> Option<DateTime<FixedOffset>> {
    let path = url.path();
    let caps = URL_DATE.captures(path).or_else(|| URL_COMPACT_DATE.captures(path))?;
    let number = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
    let date = NaiveDate::from_ymd_opt(number(1)? as i32, number(2)?, number(3)?)?;
    Some(at_midnight(date))
}

fn at_midnight(date: NaiveDate) -> DateTime<FixedOffset> {
    utc().from_utc_datetime(&date.and_time(NaiveTime::MIN))
}

fn utc() -> FixedOffset {
    FixedOffset::east_opt(0).expect("zero offset")
}

/// How many text nodes from the headline on are searched for a visible date.
const VISIBLE_DATE_WINDOW: usize = 60;
/// How many text nodes before the headline are searched (section and date lines above it).
const VISIBLE_DATE_BEFORE: usize = 12;
/// Longest texts that count as a dateline (tried in turn) or a byline with a date.
const VISIBLE_DATE_MAX_CHARS: [usize; 2] = [40, 80];

/// The last resort: a date written for people near the headline (the byline's "June 7, 2020").
/// Of the dates in the text nodes around the headline, the nearest wins; without a headline,
/// the first in the body.
///
/// This function decides *where* to look; [`read_visible_date`] decides *how* a text reads
/// as a date. The time-pattern engine's multilingual DB belongs there.
pub fn visible_date(doc: &Document, title_node: Option<NodeId>, lang: Option<&str>) -> Option<DateTime<FixedOffset>> {
    let body = doc.first_tag("body")?;
    let texts: Vec<NodeId> = doc.descendants(body).filter(|&n| doc.is_content_text(n)).collect();
    // Position of the headline among the text nodes.
    let anchor = title_node.map_or(0, |t| texts.partition_point(|&n| n < t));
    let from = if title_node.is_some() { anchor.saturating_sub(VISIBLE_DATE_BEFORE) } else { 0 };
    let to = (anchor + VISIBLE_DATE_WINDOW).min(texts.len());
    let mut candidates: Vec<(usize, NodeId)> = (from..to).map(|i| (i.abs_diff(anchor), texts[i])).collect();
    candidates.sort_by_key(|&(distance, n)| (distance, n));
    let texts: Vec<&str> = candidates
        .into_iter()
        .map(|(_, n)| n)
        // The headline's own words and comments date something else.
        .filter(|&n| title_node.is_none_or(|t| !doc.contains(t, n)))
        .filter(|&n| !is_comment_zone(doc, n))
        .filter_map(|n| doc.text_node(n).map(str::trim))
        .collect();
    // A date in a sentence ("On July 31, the senators…") is an event; a dateline's date
    // stands nearly alone: short texts first.
    VISIBLE_DATE_MAX_CHARS
        .iter()
        .find_map(|&max| texts.iter().filter(|t| t.chars().count() <= max).find_map(|t| read_visible_date(t, lang)))
}

/// A day written for people in `text`, in the page's language (which orders numeric dates
/// such as `03/04/2020`): the Time Pattern DB reads it. Only dates that name their day count:
/// relative and year-less dates need the fetch time, which a page read later does not have.
pub fn read_visible_date(text: &str, lang: Option<&str>) -> Option<DateTime<FixedOffset>> {
    let text = text.trim();
    if text.is_empty() || text.len() > 200 {
        return None;
    }
    let mut context = DateContext::new(Utc::now().fixed_offset());
    if let Some(lang) = lang {
        context = context.with_lang(lang);
    }
    let found = timepattern::parse_date(text, &context)?;
    (found.precision >= Precision::Day && !found.relative).then_some(found.date).filter(plausible)
}

static ISO_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})",
        r"(?:[T ]+([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:[.,][0-9]+)?)?)?",
        r"\s*(Z|[+-][0-9]{2}(?::?[0-9]{2})?|UTC|GMT)?",
    ))
    .expect("valid regex")
});
static COMPACT_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*([0-9]{4})([0-9]{2})([0-9]{2})(?:T?([0-9]{2})([0-9]{2})([0-9]{2})?)?\s*(Z|[+-][0-9]{2}:?[0-9]{2})?\s*$",
    )
    .expect("valid regex")
});
static EPOCH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*([0-9]{10})([0-9]{3})?\s*$").expect("valid regex"));

/// A date written for machines: ISO 8601 and its loose variants, RFC 2822, compact
/// `yyyymmdd`, Unix seconds or milliseconds, and as a fallback the forms people write.
/// A date without a time is taken at midnight; a time without an offset as UTC, so the day
/// written is the day kept.
pub fn parse_machine_date(text: &str, lang: Option<&str>) -> Option<DateTime<FixedOffset>> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Ok(date) = DateTime::parse_from_rfc3339(text) {
        return Some(date).filter(plausible);
    }
    if let Some(caps) = ISO_DATE.captures(text).or_else(|| COMPACT_DATE.captures(text)) {
        let number = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
        let date = NaiveDate::from_ymd_opt(number(1)? as i32, number(2)?, number(3)?)?;
        let time = match number(4) {
            Some(h) => NaiveTime::from_hms_opt(h, number(5).unwrap_or(0), number(6).unwrap_or(0))?,
            None => NaiveTime::MIN,
        };
        let offset = caps.get(7).and_then(|m| parse_offset(m.as_str())).unwrap_or_else(utc);
        return offset.from_local_datetime(&NaiveDateTime::new(date, time)).single().filter(plausible);
    }
    if let Ok(date) = DateTime::parse_from_rfc2822(text) {
        return Some(date).filter(plausible);
    }
    if let Some(caps) = EPOCH.captures(text) {
        let seconds: i64 = caps.get(1)?.as_str().parse().ok()?;
        return DateTime::from_timestamp(seconds, 0).map(|d| d.fixed_offset()).filter(plausible);
    }
    read_visible_date(text, lang)
}

/// `Z`, `+02:00`, `+0200`, `-05`, `UTC`, `GMT`.
fn parse_offset(text: &str) -> Option<FixedOffset> {
    if matches!(text, "Z" | "UTC" | "GMT") {
        return Some(utc());
    }
    let sign = if text.starts_with('-') { -1 } else { 1 };
    let digits: String = text[1..].chars().filter(char::is_ascii_digit).collect();
    let hours: i32 = digits.get(..2)?.parse().ok()?;
    let minutes: i32 = digits.get(2..4).map_or(Some(0), |m| m.parse().ok())?;
    FixedOffset::east_opt(sign * (hours * 3600 + minutes * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(date: Option<DateTime<FixedOffset>>) -> Option<String> {
        date.map(|d| d.format("%Y-%m-%d").to_string())
    }

    #[test]
    fn machine_dates_keep_the_day_as_written() {
        let cases = [
            ("2019-11-20T05:27:00-06:00", "2019-11-20"),
            ("2019-11-20T23:30:00Z", "2019-11-20"),
            ("2019-11-20 23:30:00", "2019-11-20"),
            ("2019-11-20T05:27:00.000+0000", "2019-11-20"),
            ("2019-11-20", "2019-11-20"),
            ("20191120", "2019-11-20"),
            ("Wed, 20 Nov 2019 05:27:00 +0000", "2019-11-20"),
            ("1574227620", "2019-11-20"),
            ("November 20, 2019 5:27 AM", "2019-11-20"),
        ];
        for (text, expected) in cases {
            assert_eq!(day(parse_machine_date(text, None)).as_deref(), Some(expected), "{text}");
        }
        assert_eq!(
            parse_machine_date("2019-11-20T05:27:00-06:00", None).unwrap().offset().local_minus_utc(),
            -6 * 3600
        );
        assert_eq!(parse_machine_date("not a date", None), None);
        assert_eq!(parse_machine_date("1066-10-14", None), None);
    }

    #[test]
    fn urls_give_dates_in_their_path() {
        let date = |u: &str| day(url_date(&Url::parse(u).unwrap()));
        assert_eq!(date("https://a.example/2020/06/07/title/").as_deref(), Some("2020-06-07"));
        assert_eq!(date("https://a.example/news/2020-6-7-title").as_deref(), Some("2020-06-07"));
        assert_eq!(date("https://a.example/20200607/title").as_deref(), Some("2020-06-07"));
        assert_eq!(date("https://a.example/story/12020060712/title"), None);
        assert_eq!(date("https://a.example/2020/13/45/title"), None);
        assert_eq!(date("https://a.example/news/title-1503302"), None);
    }

    #[test]
    fn numeric_dates_follow_the_language_order() {
        assert_eq!(day(read_visible_date("Posted 03/04/2020", Some("en-us"))).as_deref(), Some("2020-03-04"));
        assert_eq!(day(read_visible_date("Posted 03/04/2020", Some("en-gb"))).as_deref(), Some("2020-04-03"));
        assert_eq!(day(read_visible_date("07.06.2020, 10:15", Some("en-us"))).as_deref(), Some("2020-06-07"));
        assert_eq!(day(read_visible_date("2020年6月7日 10:15", Some("ja"))).as_deref(), Some("2020-06-07"));
        assert_eq!(day(read_visible_date("By Jane Doe | Jun. 7th, 2020", None)).as_deref(), Some("2020-06-07"));
        assert_eq!(day(read_visible_date("7 June 2020", None)).as_deref(), Some("2020-06-07"));
        assert_eq!(day(read_visible_date("martes 17 de marzo de 2020", Some("es"))).as_deref(), Some("2020-03-17"));
        assert_eq!(day(read_visible_date("9 oktober 2020 11:12", Some("nl"))).as_deref(), Some("2020-10-09"));
        assert_eq!(day(read_visible_date("1er août 2020", Some("fr"))).as_deref(), Some("2020-08-01"));
        assert_eq!(day(read_visible_date("24 نيسان / أبريل 2020", Some("ar"))).as_deref(), Some("2020-04-24"));
        assert_eq!(read_visible_date("May the force be with you 2020", None), None);
        assert_eq!(read_visible_date("Chapter 12 of 2020", None), None);
    }
}
