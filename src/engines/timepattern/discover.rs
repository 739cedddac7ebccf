//! Discovery of time nodes (paper §2.2.1): a pre-order walk of the page that reads every text
//! node against the Time Pattern DB (the longest match wins), plus `<time datetime>` and other
//! date-bearing attributes, then grouping of the time nodes by pattern.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate};
use serde::Serialize;

use super::dates::{DateContext, Precision};
use super::db::{Fields, Order, RawMatch, TimePatternDb};
use crate::dom::{Address, Document, NodeId, collapse_whitespace};
use crate::engines::record::has_word;

/// Text longer than this is prose that mentions a date, not a date line.
const MAX_TEXT_CHARS: usize = 200;
/// A date split over several small elements (`<span>15</span><span>Mar</span>…`) is read from
/// their common element when its subtree is at most this many nodes and this much text.
const SPLIT_DATE_NODES: u32 = 12;
const SPLIT_DATE_CHARS: usize = 40;
/// The least share of a text node that its date must fill; for dates without digits.
const MIN_PURITY: f32 = 0.15;
const MIN_WORD_PURITY: f32 = 0.6;
/// The least share for a date completed from now (no year, or counted back): "Posted 3 hours
/// ago by Ann Lee" fills half its line, an event in a sentence a fifth.
const MIN_COMPLETED_PURITY: f32 = 0.3;
/// Attribute values longer than this are not dates.
const MAX_ATTR_CHARS: usize = 80;

/// Elements whose text is not page content or not a date line.
const SKIPPED: &[&str] = &["script", "style", "template", "head", "noscript", "select", "textarea", "svg", "math"];

/// Attributes that carry a date on any element.
const DATE_ATTRS: &[&str] = &["datetime", "data-date", "data-datetime", "data-time", "data-published", "title"];

/// Where a time node's date was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeSource {
    /// A text node (the paper's time node).
    Text,
    /// The text of a small element whose date is split over several text nodes.
    Element,
    /// An attribute (`<time datetime>`, `title`, `itemprop=datePublished content`).
    Attribute,
}

/// What a page says one of its dates is. Ordered: a publication date is an item's date before
/// an unmarked one, and an unmarked one before a modification date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DateRole {
    Modified,
    Unmarked,
    Published,
}

/// A node of the page that holds a date.
#[derive(Debug, Clone, Serialize)]
pub struct TimeNode {
    #[serde(serialize_with = "serialize_node")]
    pub node: NodeId,
    #[serde(serialize_with = "serialize_address")]
    pub address: Address,
    /// The text the date was read from (visible text, or the attribute value).
    pub text: String,
    pub source: TimeSource,
    /// The attribute the date was read from, when it came from one.
    pub attribute: Option<String>,
    /// The pattern of the date as the page shows it (notation), or `@attr` for invisible dates.
    pub pattern: String,
    /// The group: the pattern with day and month order left open (`##/##/yyyy`), or `tag@attr`.
    pub group: String,
    pub date: DateTime<FixedOffset>,
    pub precision: Precision,
    /// Share of the node's text that is the date (1 for a pure date line).
    pub purity: f32,
    /// What the page says the date is: a publication date ("Posted on …", `datePublished`,
    /// hAtom's `published`), a modification date ("Updated on …", `dateModified`), or neither.
    pub role: DateRole,
    /// The readings of the visible date (two for `03/04/2020`), resolved per group.
    #[serde(skip)]
    readings: Vec<RawMatch>,
    /// A date read from an attribute wins over the visible one (it is exact).
    #[serde(skip)]
    from_attribute: bool,
}

fn serialize_node<S: serde::Serializer>(node: &NodeId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(node.0)
}

fn serialize_address<S: serde::Serializer>(address: &Address, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(address)
}

/// Time nodes that share a group key (paper: "we group the nodes matching the same pattern").
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub key: String,
    /// Indexes into the time nodes, in page order.
    pub nodes: Vec<usize>,
    /// The day/month order chosen for the group's numeric dates, when they had a choice.
    pub order: Option<Order>,
}

/// Every time node of the page, in pre-order.
pub fn discover(doc: &Document, db: &TimePatternDb, context: &DateContext) -> Vec<TimeNode> {
    let mut nodes = Vec::new();
    let end = doc.len() as u32;
    let mut year_context: Option<i32> = None;
    // The day of the last day heading (the day of the times of day shown under it), and the
    // heading's index in `nodes`.
    let mut day_context: Option<(NaiveDate, usize)> = None;
    // Indexes in `nodes` of the day headings that gave their day to a time, ascending, once each.
    let mut day_headings: Vec<usize> = Vec::new();
    let mut i = 0u32;
    while i < end {
        let id = NodeId(i);
        let node = doc.node(id);
        if let Some(tag) = doc.tag(id) {
            if SKIPPED.contains(&tag) || is_duration(doc, id) {
                i = node.end.0;
                continue;
            }
            if let Some(found) = attribute_date(doc, db, context, id) {
                let consumed = found.source != TimeSource::Attribute || tag == "time";
                nodes.push(found);
                if consumed {
                    i = node.end.0;
                    continue;
                }
            } else if let Some((mut found, read_to)) = split_date(doc, db, context, id) {
                if let Some(year) = year_context {
                    found.set_missing_year(year, db, context);
                }
                nodes.push(found);
                i = read_to;
                continue;
            }
        } else if let Some(text) = doc.text_node(id) {
            if let Some(year) = year_heading(doc, id, text) {
                year_context = Some(year);
            } else if let Some(mut found) = text_date(db, context, id, doc, text) {
                if let Some(year) = year_context {
                    found.set_missing_year(year, db, context);
                }
                if let Some((day, heading)) = day_context
                    && found.set_missing_day(day, db, context)
                    && day_headings.last() != Some(&heading)
                {
                    day_headings.push(heading);
                }
                if is_day_heading(doc, id, &found) {
                    day_context = Some((found.date.date_naive(), nodes.len()));
                }
                nodes.push(found);
            }
        }
        i += 1;
    }
    // A day heading that gave its day to the times of day under it is their day, not a date of
    // a record of its own (it would take the first post's headline and sections of two posts
    // would read as a list of headings).
    let mut index = 0;
    nodes.retain(|_| {
        index += 1;
        day_headings.binary_search(&(index - 1)).is_err()
    });
    let mut elements: Vec<NodeId> = nodes.iter().filter_map(|n| date_element(doc, n)).collect();
    elements.sort();
    elements.dedup();
    let roles: Vec<DateRole> = nodes.iter().map(|n| date_role(doc, n, &elements)).collect();
    for (node, role) in nodes.iter_mut().zip(roles) {
        node.role = role;
    }
    nodes
}

/// Class/id words of an element that shows a length of time (a video's or an episode's), whose
/// "12:31" or "1:02:33" reads like a time of day. Sites name it so (video grids, podcast
/// players); schema.org and HTML mark it below.
const DURATION_WORDS: &[&str] = &["duration", "runtime"];
/// schema.org's properties of type Duration (lowercase).
const DURATION_PROPS: &[&str] = &["duration", "timerequired", "cooktime", "preptime", "totaltime", "performtime"];

/// An element that shows a length of time, not a moment: named so by its class, marked as a
/// schema.org duration (`itemprop="duration"`, `timeRequired`, `cookTime`…), or a `<time>`
/// whose `datetime` is a duration (`PT12M31S`, HTML's duration syntax).
fn is_duration(doc: &Document, id: NodeId) -> bool {
    let itemprop = doc.attr(id, "itemprop").unwrap_or_default().to_ascii_lowercase();
    let iso_duration = doc.attr(id, "datetime").is_some_and(|v| v.trim_start().starts_with(['P', 'p']));
    DURATION_PROPS.contains(&itemprop.as_str()) || iso_duration || has_word(doc, id, DURATION_WORDS)
}

/// The element that shows a date: the node itself, or the parent of a date in text.
fn date_element(doc: &Document, node: &TimeNode) -> Option<NodeId> {
    if doc.is_element(node.node) { Some(node.node) } else { doc.parent(node.node) }
}

/// The sibling just before (`-1`) or after (`1`) a node under its parent.
fn sibling(doc: &Document, id: NodeId, step: isize) -> Option<NodeId> {
    let children = doc.children(doc.parent(id)?);
    let at = children.iter().position(|&c| c == id)?;
    children.get(at.checked_add_signed(step)?).copied()
}

/// A short label text: trimmed, without a trailing colon, lower-case; empty when longer than a
/// label (then it is a title or a sentence).
fn label_text(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() > MAX_LABEL_CHARS {
        return String::new();
    }
    text.trim_end_matches([':', '：']).trim_end().to_lowercase()
}

/// Words that label a date as a modification date, lower-case, in the languages of the Time
/// Pattern DB. A label sits in the date's own text or just before it.
const MODIFIED_LABELS: &[&str] = &[
    "updated",
    "update",
    "modified",
    "edited",
    "last edit",
    "revised",
    "更新",
    "修改",
    "编辑于",
    "編輯於",
    "最終更新",
    "更新日",
    "수정",
    "업데이트",
    "aktualisiert",
    "geändert",
    "mis à jour",
    "modifié",
    "actualizado",
    "modificado",
    "atualizado",
    "aggiornato",
    "modificato",
    "bijgewerkt",
    "gewijzigd",
    "обновлено",
    "изменено",
    "zaktualizowano",
    "güncellendi",
];
/// Words that label a date as the publication date; they win over a modification label
/// (WordPress writes `class="entry-date published updated"` on one date).
const PUBLISHED_LABELS: &[&str] = &[
    "published",
    "posted",
    "发布",
    "發佈",
    "發表",
    "发表",
    "公開",
    "投稿",
    "게시",
    "veröffentlicht",
    "publié",
    "publicado",
    "pubblicato",
    "опубликовано",
];

/// How many nodes back a date's label is looked for, and how long a label is at most.
const LABEL_LOOKBACK: u32 = 4;
const MAX_LABEL_CHARS: usize = 30;

/// What the page says a date is: by microdata (`datePublished`, `dateModified`), `<time
/// pubdate>`, the class or id words of its element and the two above it (`entry-date
/// published`, `updated`), or a label in its text or the text just before it ("Posted on",
/// "Updated:"). The nearest element that marks it decides; publication wins where one says
/// both (WordPress writes `class="entry-date published updated"` on one date).
fn date_role(doc: &Document, node: &TimeNode, date_elements: &[NodeId]) -> DateRole {
    let element = date_element(doc, node);
    let mut says_modified = false;
    for id in element.into_iter().flat_map(|e| std::iter::once(e).chain(doc.ancestors(e)).take(3)) {
        if doc.is_tag(id, "time") && doc.attr(id, "pubdate").is_some() {
            return DateRole::Published;
        }
        if let Some(prop) = doc.attr(id, "itemprop") {
            let prop = prop.to_ascii_lowercase();
            if prop.contains("datepublished") || prop.contains("datecreated") {
                return DateRole::Published;
            }
            says_modified |= prop.contains("datemodified");
        }
        let words = ["class", "id"].iter().filter_map(|a| doc.attr(id, a)).collect::<Vec<_>>().join(" ").to_lowercase();
        if PUBLISHED_LABELS.iter().any(|l| words.contains(l)) {
            return DateRole::Published;
        }
        says_modified |= ["updated", "modified", "lastmod"].iter().any(|l| words.contains(l));
        // The nearest mark wins: a `<time class="updated">` beside the published one in a
        // "posted on" wrapper (GeneratePress, and themes built on `_s`) is the update.
        if says_modified {
            return DateRole::Modified;
        }
    }
    // The text of the date's own line, a short text just before its element ("Updated on:"),
    // and a short text just after it: Chinese and Japanese themes write the label after the
    // date (`<time>…</time>发表`). A text that follows another date is that date's label, not
    // a label of the next one.
    let own = node.text.to_lowercase();
    let shows_date = |id: NodeId| {
        let end = doc.node(id).end;
        let from = date_elements.partition_point(|&d| d < id);
        date_elements.get(from).is_some_and(|&d| d < end)
    };
    let before = element
        .and_then(|e| {
            (e.0.saturating_sub(LABEL_LOOKBACK)..e.0)
                .rev()
                .map(NodeId)
                .find(|&n| doc.text_node(n).is_some_and(|t| !t.trim().is_empty()))
        })
        .filter(|&text| !sibling(doc, text, -1).is_some_and(shows_date))
        .and_then(|text| doc.text_node(text))
        .map(label_text)
        .unwrap_or_default();
    let after = element
        .and_then(|e| sibling(doc, e, 1))
        .and_then(|next| doc.text_node(next))
        .map(label_text)
        .unwrap_or_default();
    let labelled =
        |labels: &[&str]| labels.iter().any(|l| own.contains(l) || before.ends_with(l) || after.starts_with(l));
    if labelled(PUBLISHED_LABELS) {
        DateRole::Published
    } else if says_modified || labelled(MODIFIED_LABELS) {
        DateRole::Modified
    } else {
        DateRole::Unmarked
    }
}

/// A heading that is only a year ("2021", "2021 年"): archives put one above the dates of that
/// year, which then show only month and day. (A bare number elsewhere is more often a count.)
fn year_heading(doc: &Document, id: NodeId, text: &str) -> Option<i32> {
    let parent = doc.parent(id)?;
    let heading = doc.tag(parent).is_some_and(|t| matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"));
    let marked =
        ["class", "id"].iter().any(|a| doc.attr(parent, a).is_some_and(|v| v.to_ascii_lowercase().contains("year")));
    if !heading && !marked {
        return None;
    }
    let text = text.trim();
    let digits = text.trim_end_matches(['年', '년']).trim_end();
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) || text.chars().count() > 6 {
        return None;
    }
    let year: i32 = digits.parse().ok()?;
    (1900..2100).contains(&year).then_some(year)
}

/// Levels from a date's text up to the heading it heads a day's posts with (`<h2
/// class="date-header"><span>Tuesday, March 12, 2024</span></h2>`).
const DAY_HEADING_LEVELS: usize = 2;

/// A date of a whole day (no time of day) that is a heading's whole text: the day of the
/// posts under it, which may show only their time of day.
fn is_day_heading(doc: &Document, id: NodeId, found: &TimeNode) -> bool {
    found.precision == Precision::Day
        && found.purity >= 0.9
        && doc.ancestors(id).take(DAY_HEADING_LEVELS).any(|a| {
            doc.tag(a).is_some_and(|t| matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
                && collapse_whitespace(&doc.text(a)) == found.text
        })
}

impl TimeNode {
    /// Whether the page shows a time of day and no day (`8:17`): its day is the clock's.
    pub fn shows_no_day(&self) -> bool {
        self.readings.first().is_some_and(|m| {
            let f = &m.fields;
            f.hour.is_some()
                && f.year.is_none()
                && f.year2.is_none()
                && f.month.is_none()
                && f.day.is_none()
                && f.day_offset.is_none()
                && f.count.is_none()
                && !f.now
        })
    }

    /// The part of the node's text that is the date ("May 20, 2024" of "May 20, 2024 - Title").
    pub fn date_text(&self) -> &str {
        self.readings.first().and_then(|m| self.text.get(m.start..m.end)).unwrap_or(&self.text)
    }

    /// Give a date shown without its year ("09-02") the year of the archive section it is in.
    fn set_missing_year(&mut self, year: i32, db: &TimePatternDb, context: &DateContext) {
        self.complete(db, context, |f| {
            let missing = f.year.is_none() && f.year2.is_none() && f.month.is_some() && f.day.is_some();
            if missing {
                f.year = Some(year);
            }
            missing
        });
    }

    /// Give a time of day shown alone ("9:40 PM") the day of the day heading it is under;
    /// whether it was one.
    fn set_missing_day(&mut self, day: NaiveDate, db: &TimePatternDb, context: &DateContext) -> bool {
        self.complete(db, context, |f| {
            let time_only = f.hour.is_some() && f.year.is_none() && f.year2.is_none() && f.month.is_none();
            let missing = time_only && f.day.is_none() && f.day_offset.is_none() && f.count.is_none() && !f.now;
            if missing {
                (f.year, f.month, f.day) = (Some(day.year()), Some(day.month()), Some(day.day()));
            }
            missing
        })
    }

    /// Fill in what `fill` completes in each reading's fields, and read the date again unless
    /// an attribute gave it.
    fn complete(
        &mut self,
        db: &TimePatternDb,
        context: &DateContext,
        mut fill: impl FnMut(&mut Fields) -> bool,
    ) -> bool {
        let mut changed = false;
        for m in &mut self.readings {
            changed |= fill(&mut m.fields);
        }
        if !changed || self.from_attribute {
            return changed;
        }
        if let Some(parsed) = self.readings.first().and_then(|m| db.resolve(m, context)) {
            self.date = parsed.date;
            self.precision = parsed.precision;
        }
        changed
    }
}

/// The share of a text's letters and digits that the date match holds. Punctuation and symbols
/// are not counted: the separators sites set beside a date (`» Nov 17, 2026`, `· 3 days ago`,
/// `(2024)`) are decoration, and they made a date less pure than its neighbour's. Nor is a
/// label that opens the text and says what the date is ("Posted today", "Updated: May 3").
fn purity(text: &str, m: &RawMatch) -> f32 {
    let counted = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).count();
    let head = text[..m.start].trim().trim_end_matches([':', '：']).trim_end().to_lowercase();
    let label = if PUBLISHED_LABELS.contains(&head.as_str()) || MODIFIED_LABELS.contains(&head.as_str()) {
        counted(&head)
    } else {
        0
    };
    counted(&text[m.start..m.end]) as f32 / (counted(text) - label).max(1) as f32
}

fn visible_date(
    db: &TimePatternDb,
    context: &DateContext,
    node: NodeId,
    doc: &Document,
    text: String,
    source: TimeSource,
) -> Option<TimeNode> {
    let readings = db.longest(&text);
    let first = readings.first()?;
    let purity = purity(&text, first);
    // A sentence that mentions a date is prose, not a date line; a relative word ("today",
    // "刚刚") is a date only when it is most of its line.
    let wordy = !text[first.start..first.end].bytes().any(|b| b.is_ascii_digit());
    if purity < MIN_PURITY || (wordy && purity < MIN_WORD_PURITY) {
        return None;
    }
    let parsed = db.resolve(first, context)?;
    // A date that needs now to complete it ("1 juli", "3 days ago") in a sentence is an event
    // the text mentions ("Vanaf 1 juli zijn we langer open."): a list's dates stand alone or
    // with a label and a name.
    if parsed.relative && purity < MIN_COMPLETED_PURITY {
        return None;
    }
    Some(TimeNode {
        node,
        address: doc.address(node),
        purity,
        role: DateRole::Unmarked,
        pattern: parsed.pattern,
        group: db.patterns()[first.pattern].shape.clone(),
        date: parsed.date,
        precision: parsed.precision,
        text,
        source,
        attribute: None,
        readings,
        from_attribute: false,
    })
}

fn text_date(db: &TimePatternDb, context: &DateContext, id: NodeId, doc: &Document, raw: &str) -> Option<TimeNode> {
    if !raw.bytes().any(|b| b.is_ascii_digit()) && raw.is_ascii() && raw.len() > 40 {
        // Relative words without digits ("yesterday") come in short lines.
        return None;
    }
    let text = collapse_whitespace(raw);
    if text.is_empty() || text.chars().count() > MAX_TEXT_CHARS {
        return None;
    }
    visible_date(db, context, id, doc, text, TimeSource::Text)
}

/// `<time datetime>`, `datetime`/`data-date`/`title` attributes, and `content` of elements
/// marked `itemprop="datePublished"` (or another date property).
fn attribute_date(doc: &Document, db: &TimePatternDb, context: &DateContext, id: NodeId) -> Option<TimeNode> {
    let is_date_prop = doc.attr(id, "itemprop").is_some_and(|p| p.to_ascii_lowercase().contains("date"));
    let candidates = DATE_ATTRS.iter().copied().chain(is_date_prop.then_some("content"));
    let (attr, value, m) = candidates.into_iter().find_map(|attr| {
        let raw = doc.attr(id, attr)?;
        // Machine-readable dates and tooltip dates all hold a digit; most `title` attributes
        // (link tooltips) hold none and need not go through the patterns.
        if !raw.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        let value = collapse_whitespace(raw);
        if value.chars().count() > MAX_ATTR_CHARS {
            return None;
        }
        let readings = db.longest(&value);
        let m = readings.into_iter().next()?;
        // A title that merely mentions a date is not a date attribute.
        (purity(&value, &m) >= 0.5).then_some((attr, value, m))
    })?;
    // A date completed from the time of reading (a time of day alone, `title="4:02 pm"` on
    // WordPress's permalinks) names no day: the element's own text and the dates inside it
    // (a `<time datetime>`) are read instead.
    let parsed = db.resolve(&m, context).filter(|p| !p.relative)?;
    let tag = doc.tag(id).unwrap_or_default();
    // The date as the page shows it decides the group; the attribute gives the value.
    let shown = collapse_whitespace(&doc.text(id));
    let visible = if !shown.is_empty() && shown.chars().count() <= SPLIT_DATE_CHARS {
        visible_date(db, context, id, doc, shown, TimeSource::Element)
    } else {
        None
    };
    Some(match visible {
        Some(mut node) => {
            node.attribute = Some(attr.to_string());
            // An attribute with less precision than the text (`datetime="2020-03-15"` for
            // "15 March 2020, 12:30") does not replace it.
            if parsed.precision >= node.precision.min(Precision::Day) {
                node.date = parsed.date;
                node.precision = parsed.precision;
                node.from_attribute = true;
            }
            node
        }
        None => TimeNode {
            node: id,
            address: doc.address(id),
            purity: 1.0,
            role: DateRole::Unmarked,
            pattern: format!("@{attr}"),
            group: format!("{tag}@{attr}"),
            date: parsed.date,
            precision: parsed.precision,
            text: value,
            source: TimeSource::Attribute,
            attribute: Some(attr.to_string()),
            readings: vec![m],
            from_attribute: true,
        },
    })
}

/// A small element whose text holds a longer date than any of its text nodes alone; or, in an
/// element with a link, the children before the link (an archive's `<li><span>12</span>
/// <span>Mar</span><a>…</a></li>`: the date opens the record, the link is its title). With the
/// end of what was read (the link and what follows it are read on).
fn split_date(doc: &Document, db: &TimePatternDb, context: &DateContext, id: NodeId) -> Option<(TimeNode, u32)> {
    // Only the first nodes are looked at: every element of the page comes here, and a date
    // split over elements is small.
    let subtree_end = doc.node(id).end.0;
    let first_link = (id.0 + 1..subtree_end.min(id.0 + 1 + SPLIT_DATE_NODES)).map(NodeId).find(|&n| doc.is_tag(n, "a"));
    let end = match first_link {
        // The date is read from the children before the one that holds the link.
        Some(link) => doc.ancestors(link).take_while(|&a| a != id).last().unwrap_or(link).0,
        None => subtree_end,
    };
    if end - id.0 > SPLIT_DATE_NODES {
        return None;
    }
    let texts: Vec<&str> =
        (id.0 + 1..end).filter_map(|n| doc.text_node(NodeId(n))).filter(|t| !t.trim().is_empty()).collect();
    if texts.len() < 2 {
        return None;
    }
    let text = collapse_whitespace(&texts.join(" "));
    if text.chars().count() > SPLIT_DATE_CHARS {
        return None;
    }
    let combined = db.longest(&text).into_iter().next()?;
    let best_alone = texts.iter().filter_map(|t| db.longest(t).into_iter().next()).map(|m| m.end - m.start).max();
    if best_alone.is_some_and(|alone| alone >= combined.end - combined.start) {
        return None;
    }
    Some((visible_date(db, context, id, doc, text, TimeSource::Element)?, end))
}

/// Group time nodes by pattern and settle the day/month order of each group's numeric dates:
/// the order every date of the group can be read in, else the page language's.
pub fn group(nodes: &mut [TimeNode], db: &TimePatternDb, context: &DateContext, page_lang: Option<&str>) -> Vec<Group> {
    let mut by_key: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, node) in nodes.iter().enumerate() {
        by_key.entry(node.group.as_str()).or_default().push(i);
    }
    let mut groups: Vec<Group> =
        by_key.into_iter().map(|(key, nodes)| Group { key: key.to_string(), nodes, order: None }).collect();
    let lang = context.lang.as_deref().or(page_lang);
    let preferred = lang.and_then(|l| db.order_for(l));
    for group in &mut groups {
        let orders_of = |node: &TimeNode| -> Vec<Order> {
            node.readings.iter().filter_map(|m| db.patterns()[m.pattern].order).collect()
        };
        if !group.nodes.iter().any(|&i| orders_of(&nodes[i]).len() > 1) {
            continue;
        }
        let mut allowed = vec![Order::Dmy, Order::Mdy, Order::Ymd];
        for &i in &group.nodes {
            let orders = orders_of(&nodes[i]);
            if !orders.is_empty() {
                allowed.retain(|o| orders.contains(o));
            }
        }
        let month_first = matches!(preferred, Some(Order::Mdy | Order::Ymd));
        let order = match allowed.as_slice() {
            [only] => *only,
            _ if month_first => Order::Mdy,
            _ => Order::Dmy,
        };
        group.order = Some(order);
        for &i in &group.nodes {
            let node = &mut nodes[i];
            if node.from_attribute {
                continue;
            }
            let chosen = node.readings.iter().find(|m| db.patterns()[m.pattern].order == Some(order));
            if let Some(parsed) = chosen.and_then(|m| db.resolve(m, context)) {
                node.date = parsed.date;
                node.precision = parsed.precision;
                node.pattern = parsed.pattern;
            }
        }
    }
    for group in &groups {
        roll_upcoming_forward(&group.nodes, nodes, db, context);
    }
    // Page order of groups: by their first node.
    groups.sort_by_key(|g| g.nodes[0]);
    groups
}

/// The fewest dates that make a group's order tell an upcoming list from a news list.
const MIN_UPCOMING_DATES: usize = 3;
/// How far ahead an upcoming list's first date may lie: a calendar or a programme starts with
/// the next weeks' events, and an archive read oldest first starts far back.
const UPCOMING_FIRST_DAYS: i64 = 62;

/// A date without its year is the latest such date not after today, which news and archives
/// need; a calendar's, a programme's or a ticket shop's are coming. Their dates run forward
/// down the page (a news list runs back), so a group of year-less dates in ascending order whose
/// first date comes within weeks is read forward: the first from the last week on, each next
/// one not before the one above it (December, then January of the next year).
fn roll_upcoming_forward(members: &[usize], nodes: &mut [TimeNode], db: &TimePatternDb, context: &DateContext) {
    let yearless = |n: &TimeNode| {
        !n.from_attribute
            && n.readings.first().is_some_and(|m| {
                m.fields.year.is_none()
                    && m.fields.year2.is_none()
                    && m.fields.month.is_some()
                    && m.fields.day.is_some()
            })
    };
    if members.len() < MIN_UPCOMING_DATES || !members.iter().all(|&i| yearless(&nodes[i])) {
        return;
    }
    let days: Vec<NaiveDate> = members.iter().map(|&i| nodes[i].date.date_naive()).collect();
    if days.windows(2).any(|w| w[1] < w[0]) || days.first() == days.last() {
        return;
    }
    let today = context.now.date_naive();
    let on_or_after = |from: NaiveDate, day: NaiveDate| {
        (from.year()..=from.year() + 1)
            .filter_map(|y| NaiveDate::from_ymd_opt(y, day.month(), day.day()))
            .find(|d| *d >= from)
    };
    let Some(first) = on_or_after(today - chrono::Duration::days(7), days[0]) else { return };
    if (first - today).num_days() > UPCOMING_FIRST_DAYS {
        return;
    }
    let mut previous = first;
    for (&i, &day) in members.iter().zip(&days) {
        let Some(rolled) = on_or_after(previous, day) else { return };
        nodes[i].set_missing_year(rolled.year(), db, context);
        previous = rolled;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    fn context() -> DateContext {
        DateContext::new(DateTime::parse_from_rfc3339("2024-05-15T12:00:00+00:00").unwrap())
    }

    fn nodes(html: &str) -> Vec<TimeNode> {
        let doc = crate::dom::parse_str(html, &Url::parse("https://example.org/").unwrap()).unwrap();
        discover(&doc, TimePatternDb::builtin(), &context())
    }

    #[test]
    fn finds_text_time_and_attribute_dates_once_each() {
        let found = nodes(
            r#"<body><p>Posted 2005-04-06</p>
            <time datetime="2021-10-20T11:03:27+08:00">2021-10-20</time>
            <span title="Created: 2025-05-03 21:18:28">x</span>
            <meta itemprop="datePublished" content="2019-01-02">
            <div class="d"><span>15</span> <span>Mar</span> <span>2005</span></div>
            <script>var d = "2001-01-01";</script>"#,
        );
        let summary: Vec<(String, String, TimeSource)> =
            found.iter().map(|n| (n.date.to_rfc3339(), n.group.clone(), n.source)).collect();
        assert_eq!(
            summary,
            [
                ("2005-04-06T00:00:00+00:00".into(), "yyyy-##-##".into(), TimeSource::Text),
                ("2021-10-20T11:03:27+08:00".into(), "yyyy-##-##".into(), TimeSource::Element),
                ("2025-05-03T21:18:28+00:00".into(), "span@title".into(), TimeSource::Attribute),
                ("2019-01-02T00:00:00+00:00".into(), "meta@content".into(), TimeSource::Attribute),
                ("2005-03-15T00:00:00+00:00".into(), "[www[,]] ## mmm[,] yyyy".into(), TimeSource::Element),
            ]
        );
    }

    #[test]
    fn dates_without_a_year_take_the_year_heading_they_are_listed_under() {
        let found = nodes(
            "<body><table><tr><td>1961</td><td>07-24</td></tr></table>
            <h3 class=archive-year>2021 年</h3><ul><li>09-02</li></ul>",
        );
        let days: Vec<String> = found.iter().map(|n| n.date.format("%F").to_string()).collect();
        // A bare number in a table is a count, not a year heading: that year comes from now.
        assert_eq!(days, ["2023-07-24", "2021-09-02"]);
    }

    #[test]
    fn a_group_reads_its_numeric_dates_in_the_one_order_that_fits_all() {
        let mut found = nodes("<body><p>03/04/2020</p><p>13/04/2020</p><p>05/06/2020</p>");
        let groups = group(&mut found, TimePatternDb::builtin(), &context().with_lang("en-US"), None);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].order, Some(Order::Dmy));
        let days: Vec<String> = found.iter().map(|n| n.date.format("%F").to_string()).collect();
        assert_eq!(days, ["2020-04-03", "2020-04-13", "2020-06-05"]);
        // Without a date that decides, the page language does.
        let mut found = nodes("<body><p>03/04/2020</p><p>05/06/2020</p>");
        group(&mut found, TimePatternDb::builtin(), &context(), Some("en-us"));
        assert_eq!(found[0].date.format("%F").to_string(), "2020-03-04");
    }
}
