//! The publication and modification dates of an article page.
//!
//! Every source gives its candidates — the page's machine-readable metadata (meta tags,
//! JSON-LD, microdata), `<time>` elements and elements marked as dates, the URL (`/2020/06/07/`,
//! switchable), datelines written for people near the headline (and, when there are none, a
//! "Posted on" line, an element named after its date or a `<time>` anywhere in the post) —
//! and the day that the most trusted independent sources agree on wins ([`agreed`]), not the
//! first found. Dates of comments, related posts, sidebars and footers are refused, copyright
//! lines date nothing, "updated" lines give the modification, and relative dates ("3 hours
//! ago") count only when the fetch time is known.

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike, Utc};
use regex::Regex;
use serde::Serialize;
use url::Url;

use super::content::CAPTION_WORDS;
use super::metadata::{Metadata, class_words, is_comment_zone, names_may_hold};
use crate::dom::{Document, NodeId, is_block};
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
/// date, with how much they are trusted: keys that only a publication date fills (4), and keys
/// that some sites fill with other dates (3: `date`, `dc.date`, creation and upload dates).
const PUBLISHED_META: &[(&str, f32)] = &[
    ("article:published_time", 4.0),
    ("article:published", 4.0),
    ("og:published_time", 4.0),
    ("og:article:published_time", 4.0),
    ("datepublished", 4.0),
    ("article.published", 4.0),
    ("published_time", 4.0),
    ("published-date", 4.0),
    ("publish-date", 4.0),
    ("publish_date", 4.0),
    ("publishdate", 4.0),
    ("publication_date", 4.0),
    ("pubdate", 3.0),
    ("pub_date", 3.0),
    ("sailthru.date", 3.0),
    ("parsely-pub-date", 4.0),
    ("dc.date.issued", 4.0),
    ("dcterms.issued", 4.0),
    ("dc.date.created", 3.0),
    ("dcterms.created", 3.0),
    ("dc.date", 3.0),
    ("dcterms.date", 3.0),
    ("citation_publication_date", 4.0),
    ("citation_date", 3.0),
    ("originalpublicationdate", 4.0),
    ("article_date_original", 4.0),
    ("cxenseparse:recs:publishtime", 4.0),
    ("rnews:datepublished", 4.0),
    ("weibo:article:create_at", 3.0),
    ("og:pubdate", 3.0),
    ("datecreated", 3.0),
    ("date", 3.0),
    ("displaydate", 3.0),
    ("release_date", 3.0),
    ("uploaddate", 3.0),
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

/// How much each other source is trusted. A JSON-LD article about the page is written by the
/// CMS for machines, as the publication meta tags are; a JSON-LD web page's date may be the
/// page's, not the article's. An element marked as the publication date is the byline's; an
/// unmarked `<time>` or a dateline by the headline usually is. The URL's date is the day the
/// CMS filed the article (a later edit does not move it).
const JSON_LD_ARTICLE: f32 = 4.0;
const JSON_LD_PAGE: f32 = 2.0;
const TIME_MARKED: f32 = 3.0;
const TIME_NEAR_HEADLINE: f32 = 2.0;
const TIME_FIRST: f32 = 1.0;
const URL_WEIGHT: f32 = 2.0;
const TEXT_DATELINE: f32 = 2.0;
const TEXT_BYLINE: f32 = 1.0;

/// Plausible years for a page date: older dates are birthdays and founding years; later ones
/// are typos or events.
fn plausible(date: &DateTime<FixedOffset>) -> bool {
    (1995..=Utc::now().year() + 1).contains(&date.year())
}

/// A date some source gives for the page, and how much that source is trusted.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    date: DateTime<FixedOffset>,
    source: DateSource,
    weight: f32,
    /// The source wrote a time of day without a zone (`2024/03/05 20:15:22`): the site's own
    /// clock, read as UTC for want of its offset.
    wall_clock: bool,
}

impl Candidate {
    fn new(date: DateTime<FixedOffset>, source: DateSource, weight: f32, written: &str) -> Candidate {
        Candidate { date, source, weight, wall_clock: !writes_zone(written) }
    }

    /// A timestamp in UTC with a time of day: the day the site showed may be the one before or
    /// after (02:54 UTC on May 2 is May 1 in New York). A time on the site's own clock is on
    /// the day it says.
    fn day_unsure(&self) -> bool {
        self.date.offset().local_minus_utc() == 0 && self.date.time() != NaiveTime::MIN && !self.wall_clock
    }

    fn supports(&self, day: NaiveDate) -> bool {
        let own = self.date.date_naive();
        own == day || (self.day_unsure() && (own - day).num_days().abs() <= 1)
    }
}

/// The date that the most trusted independent sources agree on: each day scores, per source
/// (meta tags, JSON-LD, time elements, URL, text), the weight of its most trusted candidate
/// for that day, so that one source repeating itself does not outvote another. A UTC
/// timestamp supports the days on either side too; a source that knows the site's day then
/// tips the balance. Ties go to the day a single candidate is most sure of.
fn agreed(candidates: &[Candidate]) -> Option<FoundDate> {
    let days: Vec<NaiveDate> = candidates.iter().map(|c| c.date.date_naive()).collect();
    let score = |day: NaiveDate| -> f32 {
        let mut best: Vec<(DateSource, f32)> = Vec::new();
        for c in candidates.iter().filter(|c| c.supports(day)) {
            match best.iter_mut().find(|(s, _)| *s == c.source) {
                Some((_, w)) => *w = w.max(c.weight),
                None => best.push((c.source, c.weight)),
            }
        }
        best.iter().map(|(_, w)| w).sum()
    };
    // The candidate that names the day itself, most trusted first (then the first found).
    let own = |day: NaiveDate| {
        candidates
            .iter()
            .filter(|c| c.date.date_naive() == day)
            .max_by(|a, b| a.weight.total_cmp(&b.weight).then(std::cmp::Ordering::Greater))
    };
    let day = days.iter().copied().max_by(|&a, &b| {
        score(a).total_cmp(&score(b)).then_with(|| {
            let (wa, wb) = (own(a).map_or(0.0, |c| c.weight), own(b).map_or(0.0, |c| c.weight));
            wa.total_cmp(&wb).then(std::cmp::Ordering::Greater)
        })
    })?;
    let chosen = own(day)?;
    // A day written without a time that a UTC timestamp supports is that timestamp's local
    // day: the timestamp gives the instant (a feed reader sorts and shows instants; midnight
    // UTC of the shown day may be a day away from it).
    let instant = (chosen.date.time() == NaiveTime::MIN)
        .then(|| {
            candidates
                .iter()
                .filter(|c| c.day_unsure() && c.date.date_naive() != day && c.supports(day))
                .max_by(|a, b| a.weight.total_cmp(&b.weight))
                .and_then(|c| on_day(c.date, day))
        })
        .flatten();
    Some(FoundDate { date: instant.unwrap_or(chosen.date), source: chosen.source })
}

/// `instant` written in the whole-hour UTC offset nearest to UTC under which it falls on
/// `day` (the site's own offset is unknown; the instant is what matters).
fn on_day(instant: DateTime<FixedOffset>, day: NaiveDate) -> Option<DateTime<FixedOffset>> {
    let seconds = instant.time().num_seconds_from_midnight() as i32;
    let hours = if instant.date_naive() < day { (86_400 - seconds + 3_599) / 3_600 } else { -(seconds / 3_600 + 1) };
    let offset = FixedOffset::east_opt(hours * 3_600)?;
    Some(instant.with_timezone(&offset)).filter(|d| d.date_naive() == day)
}

/// What the page says about its dates: the page, its metadata, the headline element, and
/// what a date written for people is read against.
pub struct DateInputs<'a> {
    pub doc: &'a Document,
    pub meta: &'a Metadata,
    pub title_node: Option<NodeId>,
    /// Whether a date in the URL (`/2020/06/07/`) may serve as the publication date.
    pub url_dates: bool,
    /// When the page was fetched: relative dates ("3 hours ago") count back from it; without
    /// it they date nothing.
    pub fetched: Option<DateTime<FixedOffset>>,
}

/// The page's publication and last modification dates.
pub fn page_dates(inputs: &DateInputs) -> (Option<FoundDate>, Option<FoundDate>) {
    let shown = shown_dates(inputs.doc, inputs.title_node, inputs.meta.lang.as_deref(), inputs.fetched);
    (published(inputs, &shown), modified(inputs, &shown))
}

/// The page's publication date.
fn published(inputs: &DateInputs, shown: &[Shown]) -> Option<FoundDate> {
    let DateInputs { doc, meta, url_dates, .. } = *inputs;
    let lang = meta.lang.as_deref();
    let mut candidates: Vec<Candidate> = Vec::new();
    for (key, weight) in PUBLISHED_META {
        for value in meta.tags.values(key) {
            if let Some(date) = parse_machine_date(value, lang) {
                candidates.push(Candidate::new(date, DateSource::Meta, *weight, value));
            }
        }
    }
    for node in &meta.json_ld {
        let published = node.date_published.as_deref();
        if let Some((date, value)) = published.and_then(|v| Some((parse_machine_date(v, lang)?, v))) {
            let weight = if node.rank == 2 { JSON_LD_ARTICLE } else { JSON_LD_PAGE };
            candidates.push(Candidate::new(date, DateSource::JsonLd, weight, value));
        }
    }
    candidates.extend(shown.iter().filter(|d| !d.modified).map(|d| d.candidate));
    if let Some(date) = url_dates.then(|| url_date(&doc.url)).flatten() {
        candidates.push(Candidate::new(date, DateSource::Url, URL_WEIGHT, ""));
    }
    let on_utc = |c: &Candidate| c.date.offset().local_minus_utc() == 0 && c.date.time() != NaiveTime::MIN;
    if candidates.iter().any(on_utc)
        && let Some(offset) = site_offset(&candidates, &timestamp_offsets(doc))
    {
        for c in candidates.iter_mut().filter(|c| on_utc(c)) {
            // A UTC instant is shown on the site's clock; a time written on that clock keeps
            // its hour and takes the site's offset.
            let local = offset.from_local_datetime(&c.date.naive_local()).single();
            c.date = if c.wall_clock { local.unwrap_or(c.date) } else { c.date.with_timezone(&offset) };
        }
    }
    candidates.retain(|c| plausible(&c.date));
    agreed(&candidates)
}

/// The UTC offset the site writes its times in, when its timestamps show one other than UTC:
/// then a UTC timestamp's local day is known.
fn site_offset(candidates: &[Candidate], offsets: &[FixedOffset]) -> Option<FixedOffset> {
    let known = candidates.iter().map(|c| *c.date.offset()).chain(offsets.iter().copied());
    let mut counts: Vec<(FixedOffset, usize)> = Vec::new();
    for offset in known.filter(|o| o.local_minus_utc() != 0) {
        match counts.iter_mut().find(|(o, _)| *o == offset) {
            Some((_, n)) => *n += 1,
            None => counts.push((offset, 1)),
        }
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(o, _)| o)
}

static TIMESTAMP_OFFSET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?([+-][0-9]{2}:?[0-9]{2})|[0-9]{2}:[0-9]{2}:[0-9]{2} ([+-][0-9]{4})")
        .expect("valid regex")
});

/// The UTC offsets of the timestamps a page holds for machines (`<time datetime>`, JSON-LD and
/// the page's script data: a TV schedule's or a live blog's as well as the article's, they are
/// the site's).
fn timestamp_offsets(doc: &Document) -> Vec<FixedOffset> {
    let mut offsets = Vec::new();
    for n in doc.ids() {
        let text = match doc.tag(n) {
            Some("time") => doc.attr(n, "datetime"),
            Some("script") => doc.children(n).iter().filter_map(|&c| doc.text_node(c)).next(),
            _ => None,
        };
        let Some(text) = text else { continue };
        for caps in TIMESTAMP_OFFSET.captures_iter(text) {
            offsets.extend(caps.get(1).or_else(|| caps.get(2)).and_then(|m| parse_offset(m.as_str())));
        }
    }
    offsets
}

/// The page's last modification date, when it says: metadata first, else an "updated" line
/// or element by the headline.
fn modified(inputs: &DateInputs, shown: &[Shown]) -> Option<FoundDate> {
    let meta = inputs.meta;
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
        .map(|(date, source)| FoundDate { date, source })
        .or_else(|| {
            let updates: Vec<Candidate> = shown.iter().filter(|d| d.modified).map(|d| d.candidate).collect();
            agreed(&updates)
        })
        .filter(|d| plausible(&d.date))
}

/// A date shown on the page (a `<time>` element, an element marked as a date, a dateline),
/// and whether it says when the page was updated rather than published.
struct Shown {
    candidate: Candidate,
    modified: bool,
}

/// How far (in nodes of the page) from the headline a `<time>` element may date the article.
const TIME_ELEMENT_WINDOW: u32 = 400;

/// The dates shown for people near the headline: `<time>` elements and elements marked as
/// dates, and datelines in the text. Dates of comments, related posts, sidebars and footers
/// are refused; "updated" ones are told apart.
fn shown_dates(
    doc: &Document,
    title_node: Option<NodeId>,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
) -> Vec<Shown> {
    let Some(body) = doc.first_tag("body") else { return Vec::new() };
    let (mut shown, far_time) = time_elements(doc, body, title_node, lang);
    // The text nodes are listed once for the datelines and the far lines.
    let texts = shown_texts(doc, body);
    shown.extend(datelines(doc, &texts, title_node, lang, fetched));
    // Nothing dates the page by its headline: many blog themes put the date at the end of the
    // post ("Posted on June 7, 2020 in News", a `<time>` in the post's footer), past any window
    // a long post leaves. A line that says it is the publication, and the `<time>` nearest the
    // headline, are then the page's date; a bare date deep in the text is not (it is an event).
    // The same holds for the "Last updated on" line of documentation generators' pages, the
    // page's date when it shows no publication.
    let need = [shown.iter().all(|s| s.modified), shown.iter().all(|s| !s.modified)];
    if need[0] {
        shown.extend(far_time.map(|candidate| Shown { candidate, modified: false }));
        // Themes name the element of a post's date after it (`post-date`, `meta-date`,
        // `article__date`, `postDate`) and place it anywhere: above the headline past the
        // tags and categories, or below the post.
        shown.extend(date_classed(doc, body, title_node, lang, fetched));
        shown.extend(dated_lines_far(doc, &texts, title_node, lang, fetched, need));
    }
    shown
}

/// Class words of the elements that mark a publication date, and an update.
const PUBLISHED_CLASSES: &[&str] = &["published", "entry-date", "dt-published", "date-published", "pubdate"];
const UPDATED_CLASSES: &[&str] = &["updated", "modified", "dt-updated", "date-modified", "lastmodified"];

/// Most characters of the text an element shows beside a timestamp in its `title`: a
/// relative date or a short date, not a paragraph that happens to have a tooltip.
const TITLED_TEXT_MAX_CHARS: usize = 40;

static TIMESTAMP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{1,2}:[0-9]{2}").expect("valid regex"));

/// The timestamp in an element's `title` (`2024-03-05T15:42:00-05:00`, `Tue Mar 05 2024
/// 15:42:00 GMT-0500`) when the element shows a short text: a full date or a time of day, so
/// that a title naming a month ("March 2024") does not count.
fn titled_timestamp(doc: &Document, n: NodeId) -> Option<&str> {
    let title = doc.attr(n, "title")?;
    (TIMESTAMP.is_match(title) && doc.text(n).trim().chars().count() <= TITLED_TEXT_MAX_CHARS).then_some(title)
}

/// `<time>` elements and elements marked as dates: those marked as the publication (or the
/// update), and the unmarked `<time>` nearest the headline (without a headline, the first).
///
/// Also gives the unmarked `<time>` nearest the headline beyond the window, for a page whose
/// only `<time>` sits at the end of a long post.
fn time_elements(
    doc: &Document,
    body: NodeId,
    title_node: Option<NodeId>,
    lang: Option<&str>,
) -> (Vec<Shown>, Option<Candidate>) {
    let mut shown = Vec::new();
    let mut nearest: Option<(u32, Candidate)> = None;
    let mut far: Option<(u32, Candidate)> = None;
    for n in doc.descendants(body) {
        let Some(tag) = doc.tag(n) else { continue };
        // Compared in place, without a lower-case copy: this runs for every element.
        let class = doc.attr(n, "class").unwrap_or_default();
        let has_class = |names: &[&str]| {
            class.split_ascii_whitespace().any(|c| names.iter().any(|name| c.eq_ignore_ascii_case(name)))
        };
        let itemprop = doc.attr(n, "itemprop").unwrap_or_default();
        let has_itemprop = |name: &str| itemprop.split_ascii_whitespace().any(|p| p.eq_ignore_ascii_case(name));
        let marked_published =
            doc.attr(n, "pubdate").is_some() || has_class(PUBLISHED_CLASSES) || has_itemprop("datepublished");
        let marked_updated = has_class(UPDATED_CLASSES) || has_itemprop("datemodified");
        // A relative date shown to people ("3 days ago") with its timestamp in a tooltip, as
        // forums, code hosts and news sites write it, is a `<time>` in all but name.
        let titled = tag != "time" && titled_timestamp(doc, n).is_some();
        if tag != "time" && !titled && !marked_published && !marked_updated {
            continue;
        }
        // An unmarked `<time>` may say what it dates by the label before it.
        let label =
            if tag == "time" && !marked_published && !marked_updated { time_label(doc, n) } else { String::new() };
        let marked_updated = marked_updated || ANY_UPDATE_WORD.is_match(&label);
        let marked_published = marked_published || (!marked_updated && published_word(&label).is_some());
        // A `<time>` that says what it dates ("This page was last modified on") in an aside of
        // the headline's own `<article>` (documentation's metadata box) dates this page.
        let labelled = !label.is_empty() && (marked_updated || marked_published);
        if is_elsewhere(doc, n, title_node) && !(labelled && in_headline_article_aside(doc, n, title_node)) {
            continue;
        }
        let value = doc
            .attr(n, "datetime")
            .or_else(|| doc.attr(n, "content"))
            .or_else(|| doc.attr(n, "title").filter(|_| tag == "abbr" || titled))
            .map(str::to_string)
            .unwrap_or_else(|| doc.text(n));
        let Some(date) = parse_machine_date(&value, lang).or_else(|| read_visible_date(&value, lang)) else {
            continue;
        };
        if marked_published || marked_updated {
            let candidate = Candidate::new(date, DateSource::TimeElement, TIME_MARKED, &value);
            shown.push(Shown { candidate, modified: marked_updated && !marked_published });
            continue;
        }
        let distance = match title_node {
            Some(t) => t.0.abs_diff(n.0),
            None => n.0,
        };
        if title_node.is_some_and(|_| distance > TIME_ELEMENT_WINDOW) {
            // Only after the headline: a `<time>` above it, far away, belongs to the page's
            // header or another post.
            if title_node.is_some_and(|t| n > t) && far.is_none_or(|(d, _)| distance < d) {
                far = Some((distance, Candidate::new(date, DateSource::TimeElement, TIME_FIRST, &value)));
            }
            continue;
        }
        if nearest.is_none_or(|(d, _)| distance < d) {
            let weight = if title_node.is_some() { TIME_NEAR_HEADLINE } else { TIME_FIRST };
            nearest = Some((distance, Candidate::new(date, DateSource::TimeElement, weight, &value)));
        }
    }
    shown.extend(nearest.map(|(_, candidate)| Shown { candidate, modified: false }));
    (shown, far.map(|(_, candidate)| candidate))
}

/// Class words of the parts of a page that date other pages or other people's words: related
/// and recommended posts, sidebars and their widgets, comments.
const ELSEWHERE_STEMS: &[&str] =
    &["related", "recommend", "popular", "trending", "sidebar", "widget", "comment", "disqus", "respond", "replies"];

/// Whether a node dates something else than the page: it sits in a comment section, a list of
/// related posts, a sidebar, the page's navigation or footer, a picture's caption (the day the
/// photo was taken), or a list item beside a link to another page. The parts that hold the
/// headline are the article's, whatever they are called.
fn is_elsewhere(doc: &Document, node: NodeId, title_node: Option<NodeId>) -> bool {
    if is_comment_zone(doc, node) {
        return true;
    }
    std::iter::once(node)
        .chain(doc.ancestors(node))
        .filter(|&a| doc.is_element(a))
        .take_while(|&a| title_node.is_none_or(|t| !doc.contains(a, t)))
        .any(|a| {
            matches!(doc.tag(a), Some("nav" | "aside" | "menu"))
                || (doc.is_tag(a, "footer") && !is_post_footer(doc, a, title_node))
                || is_named_elsewhere(doc, a)
                || doc.is_tag(a, "figcaption")
                || (doc.is_tag(a, "li") && links_elsewhere(doc, a, node))
                || names_other_page(doc, a, node)
        })
}

/// Whether `element` is a link to another page that says more than the date it holds: a
/// teaser's link (title and date in one `<a>`, as related-story cards are written), whose date
/// is that story's. A link of the date alone goes to the day's archive and dates the page.
fn names_other_page(doc: &Document, element: NodeId, date: NodeId) -> bool {
    /// Letters beyond the date's own that make a link's text a title, not a date's words.
    const TITLE_MIN_CHARS: usize = 12;
    doc.is_tag(element, "a")
        && element != date
        && doc.attr(element, "href").is_some_and(|href| is_other_page(doc, href))
        && doc.text(element).chars().filter(|c| c.is_alphanumeric()).count()
            >= doc.text(date).chars().filter(|c| c.is_alphanumeric()).count() + TITLE_MIN_CHARS
}

/// Whether `href` leads to another page than this one (not an anchor of it).
fn is_other_page(doc: &Document, href: &str) -> bool {
    doc.resolve(href).is_some_and(|mut there| {
        let mut here = doc.url.clone();
        here.set_fragment(None);
        there.set_fragment(None);
        there != here
    })
}

/// Whether `node` sits in an `<aside>` of the `<article>` that holds the headline, and in no
/// comment section or part named for other posts.
fn in_headline_article_aside(doc: &Document, node: NodeId, title_node: Option<NodeId>) -> bool {
    let Some(title) = title_node else { return false };
    let mut chain = doc.ancestors(node).filter(|&a| doc.is_element(a));
    let Some(aside) = chain.by_ref().take_while(|&a| !doc.contains(a, title)).find(|&a| doc.is_tag(a, "aside")) else {
        return false;
    };
    !is_comment_zone(doc, node)
        && doc
            .ancestors(aside)
            .take_while(|&a| doc.is_element(a))
            .any(|a| doc.is_tag(a, "article") && doc.contains(a, title))
        && !std::iter::once(aside)
            .chain(doc.ancestors(node).take_while(|&a| a != aside))
            .any(|a| is_named_elsewhere(doc, a))
}

/// Whether an element's class words name a part that dates something else ([`ELSEWHERE_STEMS`],
/// or a caption's [`CAPTION_WORDS`]).
fn is_named_elsewhere(doc: &Document, element: NodeId) -> bool {
    class_words(doc, element)
        .iter()
        .any(|w| ELSEWHERE_STEMS.iter().any(|s| w.contains(s)) || CAPTION_WORDS.contains(&w.as_str()))
}

/// A post's own `<footer>` (its byline and date below the headline), not the page's: inside an
/// `<article>`, or beside the headline's header.
fn is_post_footer(doc: &Document, footer: NodeId, title_node: Option<NodeId>) -> bool {
    doc.ancestors(footer).any(|b| doc.is_tag(b, "article"))
        || title_node.is_some_and(|t| doc.parent(footer).is_some_and(|p| doc.contains(p, t)))
}

/// Whether an element holds a link to another page (not an anchor of this one), other than
/// one the date itself is written in (a date linking to the day's archive).
fn links_elsewhere(doc: &Document, element: NodeId, date: NodeId) -> bool {
    let links = doc.descendants(element).filter(|&d| doc.is_tag(d, "a") && !doc.contains(d, date));
    links.filter_map(|a| doc.attr(a, "href")).any(|href| is_other_page(doc, href))
}

static URL_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^0-9])((?:19|20)[0-9]{2})[/_.-]([0-9]{1,2})[/_.-]([0-9]{1,2})(?:[^0-9]|$)").expect("valid regex")
});
static URL_COMPACT_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[/_-])((?:19|20)[0-9]{2})([01][0-9])([0-3][0-9])(?:[/_.-]|$)").expect("valid regex")
});
/// The year, then the month and day as one segment: Chinese news sites' `/2024/0305/`.
static URL_YEAR_MONTHDAY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/((?:19|20)[0-9]{2})/([01][0-9])([0-3][0-9])/").expect("valid regex"));

/// A date in a URL's path: `/2020/06/07/`, `/2020-06-07-title`, `/20200607/`, `/2020/0607/`.
pub fn url_date(url: &Url) -> Option<DateTime<FixedOffset>> {
    let path = url.path();
    let caps = URL_DATE
        .captures(path)
        .or_else(|| URL_COMPACT_DATE.captures(path))
        .or_else(|| URL_YEAR_MONTHDAY.captures(path))?;
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
/// Longest label read before a `<time>`: "Last updated on", "Publié le", "更新日".
const TIME_LABEL_MAX_CHARS: usize = 24;

/// The label just before a `<time>` element, lower case: the text of its previous siblings
/// back to the previous `<time>` (`<span>投稿日</span><time>…</time><span>更新日</span><time>`,
/// "Published <time> · Updated <time>"); for a `<time>` alone in its wrapper, the wrapper's.
fn time_label(doc: &Document, time: NodeId) -> String {
    let mut node = time;
    // Up from wrappers that hold nothing but the `<time>` (`<span><time>…</time></span>`).
    while let Some(parent) = doc.parent(node) {
        if doc.text(parent).trim() != doc.text(time).trim() || doc.tag(parent).is_some_and(is_block) {
            break;
        }
        node = parent;
    }
    let Some(parent) = doc.parent(node) else { return String::new() };
    let siblings = doc.children(parent);
    let at = siblings.iter().position(|&c| c == node).unwrap_or_default();
    let before = siblings[..at]
        .iter()
        .rev()
        .take_while(|&&c| !doc.is_tag(c, "time") && !doc.descendants(c).any(|d| doc.is_tag(d, "time")));
    let mut label: Vec<String> = before.map(|&c| doc.text(c)).collect();
    label.reverse();
    let label = label.concat();
    let label = label.trim();
    let start = label.char_indices().rev().nth(TIME_LABEL_MAX_CHARS - 1).map_or(0, |(i, _)| i);
    label[start..].to_lowercase()
}

/// How many text nodes before the headline are searched (section and date lines above it).
const VISIBLE_DATE_BEFORE: usize = 12;
/// Longest texts that count as a dateline, and as a byline with a date: a date in a sentence
/// ("On July 31, the senators…") is an event.
const DATELINE_MAX_CHARS: usize = 40;
const BYLINE_MAX_CHARS: usize = 80;

/// Words that say a date is an update, not the publication (in the page's languages).
#[rustfmt::skip]
const UPDATE_WORDS: &[&str] = &[
    "updated", "update", "modified", "edited", "revised", "mis à jour", "mise à jour", "modifié", "actualisé",
    "aktualisiert", "geändert", "actualizado", "actualización", "atualizado", "atualização", "aggiornato",
    "bijgewerkt", "zaktualizowano", "обновлено", "güncelleme", "güncellendi", "更新", "修改", "수정", "업데이트",
];
/// Marks of a copyright line: its year or date is the site's, not the article's.
const COPYRIGHT_MARKS: &[&str] = &["©", "(c)", "copyright", "版权", "著作権"];
/// Any of the update words, and of the copyright marks, in one pass over a text.
static ANY_UPDATE_WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(&any_of(UPDATE_WORDS)).expect("valid regex"));
static ANY_COPYRIGHT_MARK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&any_of(COPYRIGHT_MARKS)).expect("valid regex"));

/// Datelines near the headline: of the dates in the text nodes around it, the nearest short
/// one (a dateline), else the nearest byline-length one; one that says "updated" is the
/// modification. Without a headline, the first in the body.
///
/// This function decides *where* to look; [`read_visible_date`] decides *how* a text reads
/// as a date. The time-pattern engine's multilingual DB belongs there.
fn datelines(
    doc: &Document,
    texts: &[NodeId],
    title_node: Option<NodeId>,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
) -> Vec<Shown> {
    // Position of the headline among the text nodes.
    let anchor = title_node.map_or(0, |t| texts.partition_point(|&n| n < t));
    let from = if title_node.is_some() { anchor.saturating_sub(VISIBLE_DATE_BEFORE) } else { 0 };
    let to = (anchor + VISIBLE_DATE_WINDOW).min(texts.len());
    let mut nearby: Vec<(usize, usize)> = (from..to).map(|i| (i.abs_diff(anchor), i)).collect();
    nearby.sort();
    // The day each nearby text reads as, alone or with its parts: read once, though the byline
    // pass looks again at the texts the dateline pass looked at.
    let mut written: Vec<Option<Option<DateTime<FixedOffset>>>> = vec![None; to - from];
    let mut shown = Vec::new();
    for (max, weight) in [(DATELINE_MAX_CHARS, TEXT_DATELINE), (BYLINE_MAX_CHARS, TEXT_BYLINE)] {
        let mut found = [false, false];
        for &(_, i) in &nearby {
            let n = texts[i];
            // The headline's own words date something else.
            if title_node.is_some_and(|t| doc.contains(t, n)) {
                continue;
            }
            let Some(text) = doc.text_node(n).map(str::trim) else { continue };
            let chars = text.chars().count();
            let lower = text.to_lowercase();
            // A byline that says it gives the publication ("This entry was posted on Sunday,
            // June 7th, 2020 at 10:15 am and is filed under…") may run past a byline's length.
            let published_at = published_word(&lower);
            let long_published = max == BYLINE_MAX_CHARS && chars <= PUBLISHED_LINE_MAX_CHARS;
            // A story's first paragraph may open with its dateline.
            let opening = (max == DATELINE_MAX_CHARS && chars > max).then(|| wire_dateline(text)).flatten();
            if chars > max && opening.is_none() && !(long_published && published_at.is_some()) {
                continue;
            }
            if ANY_COPYRIGHT_MARK.is_match(&lower) {
                continue;
            }
            // A line that says "published" gives the date after that word, whatever else it
            // dates ("Updated June 9 · Published June 7").
            let said = published_at.and_then(|_| published_line_date(text, &lower, lang, fetched));
            let opened = opening.and_then(|day| read_shown_date(day, lang, fetched));
            let date = said.or(opened).or_else(|| {
                (chars <= max)
                    .then(|| {
                        *written[i - from].get_or_insert_with(|| {
                            read_shown_date(text, lang, fetched).or_else(|| {
                                is_date_part(text).then(|| split_date(doc, n, title_node, lang, fetched)).flatten()
                            })
                        })
                    })
                    .flatten()
            });
            let Some(date) = date else { continue };
            if is_elsewhere(doc, n, title_node) {
                continue;
            }
            // "Updated:" may be a label of its own just before the date (a label has no date).
            let label = i
                .checked_sub(1)
                .and_then(|j| doc.text_node(texts[j]))
                .filter(|l| l.len() <= 40 && !l.chars().any(|c| c.is_ascii_digit()))
                .unwrap_or_default()
                .to_lowercase();
            let modified = said.is_none() && (ANY_UPDATE_WORD.is_match(&lower) || ANY_UPDATE_WORD.is_match(&label));
            if !found[usize::from(modified)] {
                found[usize::from(modified)] = true;
                shown.push(Shown { candidate: Candidate::new(date, DateSource::Text, weight, text), modified });
            }
            if found == [true, true] {
                break;
            }
        }
        if found[0] {
            break;
        }
    }
    shown
}

/// How far into a paragraph a wire dateline may run ("NEW YORK, Sept. 30, 2025 (Reuters) —").
const WIRE_DATELINE_MAX_CHARS: usize = 60;
/// Longest place name of a wire dateline ("RIO DE JANEIRO", "SAN JUAN, Puerto Rico" is cut at
/// its comma and then reads no date: a miss, not a wrong date).
const WIRE_PLACE_MAX_CHARS: usize = 30;

/// The day of a wire dateline opening a story: a place, a comma, the day, perhaps the agency
/// in brackets, and a dash: "SPRINGFIELD, Oct. 7, 2025 — The utility…", "BERLIN, March 3
/// (Reuters) - …", "DAYTON, Ohio, March 8, 2011 /PRNewswire/ -- …". Press style of the news
/// agencies (AP, Reuters, AFP, dpa) and press-release wires, followed by most newspapers, so it
/// holds on news pages of any site; a paragraph merely opening with a place and a comma reads
/// no date after it.
fn wire_dateline(text: &str) -> Option<&str> {
    let head_end = text.char_indices().nth(WIRE_DATELINE_MAX_CHARS).map_or(text.len(), |(i, _)| i);
    let head = &text[..head_end];
    // Press releases write the dash as two hyphens (plain-text wire copy).
    let dash = head.find(['—', '–']).or_else(|| head.find(" - ")).or_else(|| head.find("--"))?;
    let (place, rest) = head[..dash].split_once(',')?;
    let place = place.trim();
    let capital = place.chars().next().is_some_and(char::is_uppercase);
    if !capital || place.chars().count() > WIRE_PLACE_MAX_CHARS || place.chars().any(char::is_numeric) {
        return None;
    }
    // The agency follows in brackets, or in slashes on press releases ("/PRNewswire/").
    rest.split(['(', '/']).next().map(str::trim).filter(|day| !day.is_empty())
}

/// Longest text nodes read as a line that says it gives the publication; the date is read in
/// the first [`PUBLISHED_READ_CHARS`] characters from the word that says so (longer lines are
/// paragraphs of the post, whose dates are events).
const PUBLISHED_LINE_MAX_CHARS: usize = 200;
const PUBLISHED_READ_CHARS: usize = 80;
/// A label such as "Posted on" or "发表于" with its date in the next text node is short.
const PUBLISHED_LABEL_MAX_CHARS: usize = 24;

/// Words that say a date is the publication (in the page's languages). Whole words only
/// where words are spaced: "unpublished" and "composted" say nothing.
#[rustfmt::skip]
const PUBLISHED_WORDS: &[&str] = &[
    "posted", "published", "publié", "posté", "publicado", "publicada", "pubblicato", "veröffentlicht",
    // A CMS's "created on" line is the publication too.
    "créé le", "creado el", "criado em", "erstellt am",
    "gepubliceerd", "geplaatst", "opublikowano", "опубликовано", "yayınlandı", "yayımlandı",
    "发表于", "發表於", "发布于", "發佈於", "發布於", "发表时间", "发布时间", "发表日期", "发布日期",
    "投稿日", "公開日", "작성일", "게시일", "등록일", "발행일",
];

/// Any of [`PUBLISHED_WORDS`], in one pass over a text: most lines of a page have none, and
/// looking for each word in turn cost a quarter of the page's dates.
static ANY_PUBLISHED_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&any_of(PUBLISHED_WORDS)).expect("valid regex"));

/// A regex (source) that matches where any of `words` occurs.
fn any_of(words: &[&str]) -> String {
    words.iter().map(|w| regex::escape(w)).collect::<Vec<_>>().join("|")
}

/// Where the first word that says "published" starts in a lower-case text.
fn published_word(lower: &str) -> Option<usize> {
    if !ANY_PUBLISHED_WORD.is_match(lower) {
        return None;
    }
    PUBLISHED_WORDS
        .iter()
        .filter_map(|w| {
            lower.match_indices(w).map(|(i, _)| i).find(|&i| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + w.len()..].chars().next();
                let spaced = !w.chars().any(crate::engines::timepattern::db::is_cjk);
                !spaced || (before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric()))
            })
        })
        .min()
}

/// The date of a line that says it gives the publication, read from that word on.
fn published_line_date(
    text: &str,
    lower: &str,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
) -> Option<DateTime<FixedOffset>> {
    let at = published_word(lower)?;
    // Lower-casing keeps byte offsets in nearly every script; where it does not, read it all.
    let from = if text.len() == lower.len() && text.is_char_boundary(at) { at } else { 0 };
    let part: String = text[from..].chars().take(PUBLISHED_READ_CHARS).collect();
    read_shown_date(&part, lang, fetched)
}

/// Elements this many levels above a text node, at most, may hold a date written over several
/// elements (`<span>07</span><span>Jun</span><span>2020</span>`, a calendar badge), and only
/// with this many nodes inside: a date has at most a few parts.
const SPLIT_DATE_LEVELS: usize = 3;
const SPLIT_DATE_MAX_NODES: usize = 16;

/// Longest part of a date written over several elements ("07", "2020", "Jun 7").
const DATE_PART_MAX_CHARS: usize = 12;

/// Whether a text may be the numeric part of a date written over several elements: short, with
/// a digit. Every such date has one, so the search starts only there (reading the joined text
/// of every short text node near the headline costs as much as the rest of the dates).
fn is_date_part(text: &str) -> bool {
    text.chars().count() <= DATE_PART_MAX_CHARS && text.chars().any(|c| c.is_ascii_digit())
}

/// A day written over several elements around text node `n`: the texts of the smallest
/// enclosing element that reads as a date, joined with spaces, as long as it stays a dateline
/// and is not (and does not hold) the headline.
fn split_date(
    doc: &Document,
    n: NodeId,
    title_node: Option<NodeId>,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
) -> Option<DateTime<FixedOffset>> {
    for a in doc.ancestors(n).take(SPLIT_DATE_LEVELS) {
        if title_node.is_some_and(|t| doc.contains(a, t) || doc.contains(t, a))
            || matches!(doc.tag(a), None | Some("body" | "html"))
            || doc.descendants(a).size_hint().0 > SPLIT_DATE_MAX_NODES
        {
            return None;
        }
        // Parts side by side are words apart ("07" "Jun" "2020"); punctuation joins as written
        // ("Jun" "7" ", " "2020").
        let mut joined = String::new();
        let mut parts = 0;
        for part in doc.descendants(a).filter(|&d| doc.is_content_text(d)).filter_map(|d| doc.text_node(d)) {
            let apart = joined.chars().next_back().is_some_and(char::is_alphanumeric)
                && part.chars().next().is_some_and(char::is_alphanumeric);
            if apart {
                joined.push(' ');
            }
            joined.push_str(part);
            parts += 1;
        }
        let joined = joined.split_whitespace().collect::<Vec<_>>().join(" ");
        if joined.chars().count() > DATELINE_MAX_CHARS {
            return None;
        }
        if parts > 1
            && let Some(date) = read_shown_date(&joined, lang, fetched)
        {
            return Some(date);
        }
    }
    None
}

/// Words of class names and ids that name an element after the date it shows. An element named
/// after an update (`date-updated`) is left to the update's own rules.
const DATE_CLASS_WORDS: &[&str] = &["date", "datetime", "pubdate", "postdate", "dateline", "datum", "fecha"];
const UPDATE_CLASS_WORDS: &[&str] = &["updated", "update", "modified", "lastmod", "edited"];
/// Any of [`DATE_CLASS_WORDS`] in a class or id as written, whatever its case.
static ANY_DATE_CLASS_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("(?i){}", any_of(DATE_CLASS_WORDS))).expect("valid regex"));

/// The element named after a date nearest the headline, whose own short text reads as a day,
/// anywhere in the page but the parts that date other pages.
fn date_classed(
    doc: &Document,
    body: NodeId,
    title_node: Option<NodeId>,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
) -> Option<Shown> {
    let mut nearest: Option<(u32, Candidate)> = None;
    for n in doc.descendants(body).filter(|&n| doc.is_element(n)) {
        let distance = title_node.map_or(n.0, |t| t.0.abs_diff(n.0));
        if nearest.is_some_and(|(d, _)| d <= distance)
            || title_node.is_some_and(|t| doc.contains(n, t) || doc.contains(t, n))
        {
            continue;
        }
        if !names_may_hold(doc, n, &ANY_DATE_CLASS_WORD) {
            continue;
        }
        let words = class_words(doc, n);
        if !words.iter().any(|w| DATE_CLASS_WORDS.contains(&w.as_str()))
            || words.iter().any(|w| UPDATE_CLASS_WORDS.contains(&w.as_str()))
        {
            continue;
        }
        // A short element only: a container named after dates (`archive-dates`) holds many.
        if doc.descendants(n).size_hint().0 > SPLIT_DATE_MAX_NODES {
            continue;
        }
        let text = doc.text(n);
        if text.chars().count() > BYLINE_MAX_CHARS || ANY_COPYRIGHT_MARK.is_match(&text.to_lowercase()) {
            continue;
        }
        let Some(date) = read_shown_date(&text, lang, fetched) else { continue };
        if is_elsewhere(doc, n, title_node) {
            continue;
        }
        nearest = Some((distance, Candidate::new(date, DateSource::Text, TEXT_BYLINE, &text)));
    }
    nearest.map(|(_, candidate)| Shown { candidate, modified: false })
}

/// The first line after the headline, anywhere in the page but the parts that date other
/// pages, that says it gives the publication ("Posted on June 7, 2020", or a "发表于" label
/// with its date in the next text node): the date at the end of a long post; and the first
/// that says it gives the update ("Last updated on June 9, 2020"), a byline's length at most
/// (a paragraph that says "update" is news). `need` says which of the two are wanted.
fn dated_lines_far(
    doc: &Document,
    texts: &[NodeId],
    title_node: Option<NodeId>,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
    mut need: [bool; 2],
) -> Vec<Shown> {
    let mut shown = Vec::new();
    let anchor = title_node.map_or(0, |t| texts.partition_point(|&n| n < t));
    for (i, &n) in texts.iter().enumerate().skip(anchor) {
        if need == [false, false] {
            break;
        }
        if title_node.is_some_and(|t| doc.contains(t, n)) {
            continue;
        }
        let Some(text) = doc.text_node(n).map(str::trim) else { continue };
        let chars = text.chars().count();
        if chars > PUBLISHED_LINE_MAX_CHARS {
            continue;
        }
        let lower = text.to_lowercase();
        let published = published_word(&lower).is_some();
        let updated = !published && chars <= BYLINE_MAX_CHARS && ANY_UPDATE_WORD.is_match(&lower);
        if !(published && need[0] || updated && need[1]) || ANY_COPYRIGHT_MARK.is_match(&lower) {
            continue;
        }
        let own = if published {
            published_line_date(text, &lower, lang, fetched)
        } else {
            read_shown_date(text, lang, fetched)
        };
        let date = own.or_else(|| {
            let next = texts.get(i + 1).and_then(|&m| doc.text_node(m)).map(str::trim)?;
            (chars <= PUBLISHED_LABEL_MAX_CHARS && next.chars().count() <= BYLINE_MAX_CHARS)
                .then(|| read_shown_date(next, lang, fetched))
                .flatten()
        });
        let Some(date) = date else { continue };
        if is_elsewhere(doc, n, title_node) {
            continue;
        }
        let candidate = Candidate::new(date, DateSource::Text, TEXT_BYLINE, text);
        shown.push(Shown { candidate, modified: updated });
        need[usize::from(updated)] = false;
    }
    shown
}

/// The text nodes of `body` shown to people: not a style's or a template's, nor a script's
/// data (JSON of any post, any build). A short inline script in a byline is kept: it writes
/// the date people see (`<script>showDate("2020/04/17 01:43")</script>`).
fn shown_texts(doc: &Document, body: NodeId) -> Vec<NodeId> {
    let shown = |p: NodeId| match doc.tag(p) {
        Some("style" | "template" | "noscript") => false,
        Some("script") => doc.attr(p, "type").is_none_or(|t| {
            let t = t.trim().to_ascii_lowercase();
            t.is_empty() || t.contains("javascript") || t == "module"
        }),
        _ => true,
    };
    doc.descendants(body).filter(|&n| doc.is_content_text(n) && doc.parent(n).is_none_or(shown)).collect()
}

/// A day written for people, as [`read_visible_date`] reads it; a relative date ("3 hours
/// ago", "June 7" without a year) only when the fetch time says what it counts from.
fn read_shown_date(
    text: &str,
    lang: Option<&str>,
    fetched: Option<DateTime<FixedOffset>>,
) -> Option<DateTime<FixedOffset>> {
    let Some(fetched) = fetched else { return read_visible_date(text, lang) };
    let text = text.trim();
    if text.is_empty() || text.len() > 200 {
        return None;
    }
    let mut context = DateContext::new(fetched);
    if let Some(lang) = lang {
        context = context.with_lang(lang);
    }
    let found = timepattern::parse_date(text, &context)?;
    (found.precision >= Precision::Day).then_some(found.date).filter(plausible)
}

/// A day written for people in `text`, in the page's language (which orders numeric dates
/// such as `03/04/2020`): the Time Pattern DB reads it. Only dates that name their day count:
/// relative and year-less dates need the fetch time, which a page read later does not have.
pub fn read_visible_date(text: &str, lang: Option<&str>) -> Option<DateTime<FixedOffset>> {
    let text = text.trim();
    // Only a date with its year is not relative, and the time patterns read years in digits
    // only: a text without a digit (most of a page's) is not read.
    if text.is_empty() || text.len() > 200 || !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut context = DateContext::new(Utc::now().fixed_offset());
    if let Some(lang) = lang {
        context = context.with_lang(lang);
    }
    let found = timepattern::parse_date(text, &context)?;
    (found.precision >= Precision::Day && !found.relative).then_some(found.date).filter(plausible)
}

/// Whether `text` is nothing but a date or a time, an age ("3 hours ago", "yesterday")
/// included: what a list of other stories gives beside each link.
pub fn is_date_or_age(text: &str) -> bool {
    let text = text.trim();
    if text.is_empty() || text.len() > 200 {
        return false;
    }
    timepattern::parse_date(text, &DateContext::new(Utc::now().fixed_offset()))
        .is_some_and(|found| found.precision >= Precision::Day)
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

static WRITTEN_ZONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)[0-9](?:\s*z)$|\b(?:utc|gmt)\b|[+-][0-9]{2}:?[0-9]{2}$|[+-][0-9]{2}:[0-9]{2}|^[0-9]{9,}$")
        .expect("valid regex")
});

/// Whether a written date names its zone or is an instant (`Z`, `+07:00`, `+0700`, `GMT`, a
/// Unix time), rather than a time on the site's clock.
fn writes_zone(text: &str) -> bool {
    WRITTEN_ZONE.is_match(text.trim())
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
    fn a_utc_instant_is_written_on_the_day_the_site_showed() {
        let instant = |s: &str| DateTime::parse_from_rfc3339(s).unwrap();
        let date = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        // East of UTC: 16:00 UTC is midnight in China, the next day.
        let east = on_day(instant("2015-06-05T16:00:00Z"), date("2015-06-06")).unwrap();
        assert_eq!((east, east.offset().local_minus_utc()), (instant("2015-06-05T16:00:00Z"), 8 * 3600));
        assert_eq!(east.date_naive(), date("2015-06-06"));
        // West of UTC: 02:54 UTC is the evening before in the Americas.
        let west = on_day(instant("2020-05-02T02:54:29Z"), date("2020-05-01")).unwrap();
        assert_eq!((west, west.offset().local_minus_utc()), (instant("2020-05-02T02:54:29Z"), -3 * 3600));
        // More than a day away: no offset makes it so.
        assert_eq!(on_day(instant("2020-05-02T02:54:29Z"), date("2020-04-29")), None);
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
        assert_eq!(date("https://a.example/n1/2020/0607/c1001-4018.html").as_deref(), Some("2020-06-07"));
        assert_eq!(date("https://a.example/n1/2020/1307/c1001-4018.html"), None);
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
        assert_eq!(day(read_visible_date("Sun Jun  7 02:14:07 PST 2020", None)).as_deref(), Some("2020-06-07"));
        assert_eq!(day(read_visible_date("Sun Jun 7 02:14:07 2020", None)).as_deref(), Some("2020-06-07"));
        assert_eq!(day(read_visible_date("martes 17 de marzo de 2020", Some("es"))).as_deref(), Some("2020-03-17"));
        assert_eq!(day(read_visible_date("9 oktober 2020 11:12", Some("nl"))).as_deref(), Some("2020-10-09"));
        assert_eq!(day(read_visible_date("1er août 2020", Some("fr"))).as_deref(), Some("2020-08-01"));
        assert_eq!(day(read_visible_date("24 نيسان / أبريل 2020", Some("ar"))).as_deref(), Some("2020-04-24"));
        assert_eq!(read_visible_date("May the force be with you 2020", None), None);
        assert_eq!(read_visible_date("Chapter 12 of 2020", None), None);
    }
}
