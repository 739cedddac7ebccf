//! Labeling list pages with the feed's items and inducing the item template (the WTM paper's
//! matcher and rule composer, with the key-path paper's paths and merging).
//!
//! Each feed item is found on the page by its link first (after normalization), then by its
//! title (exact, contained, or similar by Dice), and its date among the dates near it. Items
//! of the page's main list share one structure: where a feed item is linked from several places
//! (the list, a "recent posts" widget, the navigation), the place whose structure most items
//! share wins — the paper's resolution of multiple matches by the other fields of the item.
//! Each item's record is the largest subtree around it that holds no other item; the records'
//! key paths merge into the item path, and the fields' paths relative to the records merge into
//! the field paths.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset};

use crate::dom::{Document, NodeData, NodeId};
use crate::engines::rules::{Field, ItemRule, Support};
use crate::feed::reader::FeedItem;
use crate::path::{Path, Step, Target, Test};

use super::dates::{DateMatch, DateReader, compare_read};
use super::links::{LinkKey, Site};
use super::paths::{merge, merge_majority, relative_key, unique_path};
use super::text::{self, FeedTitle, TitleMatch};
use crate::engines::regions::in_furniture;

/// Largest subtree searched around a link for the item's title.
const NEAR_NODES: usize = 400;
/// How many of the links to one item are looked at.
const MAX_LINKS_PER_ITEM: usize = 8;
/// How many levels above a link its title is looked for.
const NEAR_LEVELS: usize = 4;
/// A feed title longer than this (in characters) may hold more than a title (the key-path
/// paper's feeds whose title is the content): a page text that starts it may be its title.
pub const LONG_TITLE: usize = 80;
/// A page text standing for a long feed title must have at least this many characters.
const MIN_TITLE_PREFIX: usize = 8;

/// Where a date was found: an element's text, or one of its attributes (`datetime`).
#[derive(Debug, Clone, PartialEq)]
pub struct DateLabel {
    pub node: NodeId,
    pub attr: Option<String>,
    pub date: DateTime<FixedOffset>,
    pub quality: DateMatch,
}

/// One feed item found on a list page.
#[derive(Debug, Clone)]
pub struct Record {
    /// Index of the feed item.
    pub item: usize,
    /// The item's subtree.
    pub node: NodeId,
    /// The element holding its title.
    pub title: NodeId,
    /// The `<a>` linking to the item's page.
    pub anchor: Option<NodeId>,
    pub date: Option<DateLabel>,
    pub description: Option<NodeId>,
    pub author: Option<NodeId>,
}

/// What labeling found on a page.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    /// Items of the main list, in page order.
    pub records: Vec<Record>,
    /// Feed items found anywhere on the page (by link or title).
    pub located: usize,
}

/// A place on the page that may be an item's title, with the link next to it.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    item: usize,
    title: NodeId,
    anchor: Option<NodeId>,
    score: f32,
}

/// Compare a page text with a feed title; a long title (that may hold the content) also
/// matches the page text it starts with.
pub fn match_title(feed_title: &FeedTitle, page_text: &str) -> Option<TitleMatch> {
    let found = feed_title.matches(page_text);
    if found.is_some() || feed_title.chars() <= LONG_TITLE {
        return found;
    }
    let page = text::normalize(page_text);
    let page = text::strip_ellipsis(&page);
    (page.chars().count() >= MIN_TITLE_PREFIX && feed_title.text().starts_with(page))
        .then_some(TitleMatch::Contained(0.5))
}

/// The page's links by key: every `<a href>` of the body.
fn anchors_by_key(doc: &Document, body: NodeId, site: &Site) -> HashMap<LinkKey, Vec<NodeId>> {
    let mut map: HashMap<LinkKey, Vec<NodeId>> = HashMap::new();
    for node in std::iter::once(body).chain(doc.descendants(body)) {
        if !doc.is_tag(node, "a") {
            continue;
        }
        if let Some(url) = doc.attr(node, "href").and_then(|h| doc.resolve(h)) {
            map.entry(site.key(&url)).or_default().push(node);
        }
    }
    map
}

/// The tags from the body down to a node: the structure items of one list share.
fn signature(doc: &Document, node: NodeId) -> String {
    let mut tags: Vec<&str> = std::iter::once(node).chain(doc.ancestors(node)).filter_map(|n| doc.tag(n)).collect();
    tags.reverse();
    tags.join("/")
}

/// The best element for a title in the subtree of `top` (the deepest of the best).
fn title_in(doc: &Document, top: NodeId, title: &FeedTitle) -> Option<(NodeId, f32)> {
    let mut best: Option<(NodeId, f32)> = None;
    for node in std::iter::once(top).chain(doc.descendants(top)) {
        if !doc.is_element(node) || matches!(doc.tag(node), Some("script" | "style")) {
            continue;
        }
        let Some(m) = match_title(title, &doc.text(node)) else { continue };
        if best.is_none_or(|(_, s)| m.score() >= s) {
            best = Some((node, m.score()));
        }
    }
    best
}

/// Candidates for one feed item: each link to it, with its title (the link's own text, or a
/// title near it).
fn candidates(
    doc: &Document,
    body: NodeId,
    item: usize,
    feed_item: &FeedItem,
    anchors: &[NodeId],
    out: &mut Vec<Candidate>,
) {
    let before = out.len();
    let title = FeedTitle::new(&feed_item.title);
    // A page links to a post a few times at most (title, thumbnail, "read more"); more links
    // to it say nothing more.
    for &anchor in anchors.iter().take(MAX_LINKS_PER_ITEM) {
        if let Some(m) = match_title(&title, &doc.text(anchor)) {
            out.push(Candidate { item, title: anchor, anchor: Some(anchor), score: m.score() });
            continue;
        }
        // A thumbnail or "read more" link: the title is near it.
        let mut level = anchor;
        for _ in 0..NEAR_LEVELS {
            let Some(parent) = doc.parent(level).filter(|&p| doc.contains(body, p)) else { break };
            level = parent;
            if doc.node(level).end.0 - level.0 > NEAR_NODES as u32 {
                break;
            }
            if let Some((node, score)) = title_in(doc, level, &title) {
                out.push(Candidate { item, title: node, anchor: Some(anchor), score });
                break;
            }
        }
    }
    if out.len() == before
        && let Some(&anchor) = anchors.first()
    {
        // Linked, but under another title: the link stands for the item (its text is the
        // page's title for it).
        out.push(Candidate { item, title: anchor, anchor: Some(anchor), score: 0.1 });
    }
}

/// Label a list page with the feed's items.
pub fn label(doc: &Document, items: &[FeedItem], site: &Site, dates: &DateReader) -> Labels {
    let Some(body) = doc.first_tag("body") else { return Labels::default() };
    let anchors = anchors_by_key(doc, body, site);
    let mut found: Vec<Candidate> = Vec::new();
    let mut by_title: Option<HashMap<String, Vec<NodeId>>> = None;
    for (i, item) in items.iter().enumerate() {
        let linked = item.link.as_ref().and_then(|l| anchors.get(&site.key(l)));
        match linked {
            Some(list) => candidates(doc, body, i, item, list, &mut found),
            None => {
                // Not linked: an element whose whole text is the title (exact only, since
                // nothing else confirms it).
                let map = by_title.get_or_insert_with(|| short_texts(doc, body));
                for &node in map.get(&text::normalize(&item.title)).into_iter().flatten() {
                    let anchor = std::iter::once(node).chain(doc.descendants(node)).find(|&n| doc.is_tag(n, "a"));
                    let anchor = anchor.or_else(|| doc.ancestors(node).take(3).find(|&n| doc.is_tag(n, "a")));
                    found.push(Candidate { item: i, title: node, anchor, score: 2.0 });
                }
            }
        }
    }
    let located = {
        let mut seen: Vec<usize> = found.iter().map(|c| c.item).collect();
        seen.dedup();
        seen.len()
    };
    let chosen = main_list(doc, &found);
    let mut records = records_of(doc, &chosen);
    for record in &mut records {
        let item = &items[record.item];
        record.date = item.date.and_then(|d| date_in(doc, record.node, record.title, d, dates));
        // An excerpt is short: the summary says it (the content is only read without one).
        record.description = item.summary().or_else(|| item.content()).and_then(|b| description_in(doc, record, b));
        record.author = item.author.as_deref().and_then(|a| author_in(doc, record.node, a));
    }
    Labels { records, located }
}

/// Elements of the body with a short text (a title's length), by normalized text.
fn short_texts(doc: &Document, body: NodeId) -> HashMap<String, Vec<NodeId>> {
    let mut map: HashMap<String, Vec<NodeId>> = HashMap::new();
    let mut node = body;
    let end = doc.node(body).end;
    while node < end {
        if matches!(doc.tag(node), Some("script" | "style" | "head")) {
            node = doc.node(node).end;
            continue;
        }
        // Only elements with few nodes below can have a title's text.
        if doc.is_element(node) && doc.node(node).end.0 - node.0 < 20 {
            let text = doc.text(node);
            if (3..=LONG_TITLE * 2).contains(&text.len()) {
                map.entry(text::normalize(&text)).or_default().push(node);
            }
        }
        node = NodeId(node.0 + 1);
    }
    map
}

/// The candidates of the page's main list. Candidates are grouped by structure (the tags from
/// the body down to the title); a group's list is then extended by the other items that sit
/// in the same container under another structure (a thumbnail link beside a plain heading, a
/// featured first post), in an entry of the same tag. A list of two or more items in the page's
/// content beats those in its furniture ([`in_furniture`]); then the group whose extended list
/// has the most items wins (then the better title matches, then the earlier one).
fn main_list(doc: &Document, found: &[Candidate]) -> Vec<Candidate> {
    let mut by_signature: HashMap<String, Vec<&Candidate>> = HashMap::new();
    for candidate in found {
        by_signature.entry(signature(doc, candidate.title)).or_default().push(candidate);
    }
    type Rank = (bool, usize, f32, std::cmp::Reverse<NodeId>);
    let mut best_list: Option<(Rank, HashMap<usize, Candidate>)> = None;
    for group in by_signature.values() {
        let list = extended_list(doc, group, found);
        let score: f32 = group.iter().map(|c| c.score).sum::<f32>() / group.len() as f32;
        let first = group.iter().map(|c| c.title).min().unwrap_or(NodeId(u32::MAX));
        // A list in the page's content beats any in its furniture: a "recent posts" widget
        // may list more of the feed's items than the main list shows.
        let in_content = list.len() >= 2 && !group.iter().any(|c| in_furniture(doc, c.title));
        let rank = (in_content, list.len(), score, std::cmp::Reverse(first));
        let better = best_list.as_ref().is_none_or(|(r, _)| {
            rank.0.cmp(&r.0).then(rank.1.cmp(&r.1)).then(rank.2.total_cmp(&r.2)).then(rank.3.cmp(&r.3)).is_gt()
        });
        if better {
            best_list = Some((rank, list));
        }
    }
    let Some((_, list)) = best_list else { return Vec::new() };
    let mut chosen: Vec<Candidate> = list.into_values().collect();
    chosen.sort_by_key(|c| c.title);
    // One place holds one item: two items labeled at the same title (a title that two feed
    // items share) keep the first.
    chosen.dedup_by_key(|c| c.title);
    chosen
}

/// A group's items (the best candidate of each), extended by the other items found in the
/// group's container in entries of the group's entry tag.
fn extended_list(doc: &Document, group: &[&Candidate], found: &[Candidate]) -> HashMap<usize, Candidate> {
    let mut best: HashMap<usize, Candidate> = HashMap::new();
    let keep_best = |best: &mut HashMap<usize, Candidate>, candidate: Candidate| {
        let better = best.get(&candidate.item).is_none_or(|b| candidate.score > b.score);
        if better {
            best.insert(candidate.item, candidate);
        }
    };
    for &&candidate in group {
        keep_best(&mut best, candidate);
    }
    if best.len() < 2 {
        return best;
    }
    let Some(container) = group.iter().map(|c| c.title).reduce(|a, b| doc.common_ancestor(a, b)) else {
        return best;
    };
    let entry_of =
        |node: NodeId| std::iter::once(node).chain(doc.ancestors(node)).find(|&a| doc.parent(a) == Some(container));
    let entry_tag = group.iter().find_map(|c| entry_of(c.title)).and_then(|e| doc.tag(e));
    let known: Vec<usize> = best.keys().copied().collect();
    for candidate in found {
        if known.contains(&candidate.item) || !doc.contains(container, candidate.title) {
            continue;
        }
        if entry_of(candidate.title).and_then(|e| doc.tag(e)) == entry_tag {
            keep_best(&mut best, *candidate);
        }
    }
    best
}

/// Each item's record: the highest ancestor of its title and link that holds no other item.
fn records_of(doc: &Document, chosen: &[Candidate]) -> Vec<Record> {
    let marks: Vec<Vec<NodeId>> = chosen.iter().map(|c| std::iter::once(c.title).chain(c.anchor).collect()).collect();
    let mut records = Vec::new();
    for (i, candidate) in chosen.iter().enumerate() {
        let region = marks[i].iter().copied().reduce(|a, b| doc.common_ancestor(a, b)).unwrap_or(candidate.title);
        let holds_other =
            |node: NodeId| marks.iter().enumerate().any(|(j, m)| j != i && m.iter().any(|&n| doc.contains(node, n)));
        if holds_other(region) {
            continue;
        }
        let mut node = region;
        while let Some(parent) = doc.parent(node) {
            if parent == doc.root() || doc.is_tag(parent, "body") || holds_other(parent) {
                break;
            }
            node = parent;
        }
        // A lone item has no neighbour to stop it: its record is its region.
        if chosen.len() == 1 {
            node = region;
        }
        records.push(Record {
            item: candidate.item,
            node,
            title: candidate.title,
            anchor: candidate.anchor,
            date: None,
            description: None,
            author: None,
        });
    }
    records
}

/// Attributes that hold dates.
const DATE_ATTRIBUTES: &[&str] = &["datetime", "content", "title", "data-date", "data-time"];

/// Distance between two nodes in the tree (edges).
pub fn tree_distance(doc: &Document, a: NodeId, b: NodeId) -> u32 {
    let common = doc.common_ancestor(a, b);
    let depth = |n: NodeId| doc.node(n).depth;
    depth(a) + depth(b) - 2 * depth(common)
}

/// The item's date inside its record: the best match with the feed's date (an attribute with
/// the instant beats a text with the day), the nearest to the title on ties.
fn date_in(
    doc: &Document,
    record: NodeId,
    title: NodeId,
    feed_date: DateTime<FixedOffset>,
    dates: &DateReader,
) -> Option<DateLabel> {
    let mut best: Option<(DateLabel, u32)> = None;
    let mut consider = |label: DateLabel| {
        let distance = tree_distance(doc, label.node, title);
        let better = best.as_ref().is_none_or(|(b, d)| {
            (label.quality, label.attr.is_some(), std::cmp::Reverse(distance))
                > (b.quality, b.attr.is_some(), std::cmp::Reverse(*d))
        });
        if better {
            best = Some((label, distance));
        }
    };
    for node in std::iter::once(record).chain(doc.descendants(record)) {
        match &doc.node(node).data {
            NodeData::Element { name, .. } if matches!(&**name, "script" | "style") => {}
            NodeData::Element { .. } => {
                for attr in DATE_ATTRIBUTES {
                    let Some(value) = doc.attr(node, attr) else { continue };
                    if let Some(found) = dates.read_precise(value)
                        && let Some(quality) = compare_read(&found, feed_date)
                    {
                        consider(DateLabel { node, attr: Some((*attr).to_string()), date: found.date, quality });
                    }
                }
                // Dates split over several inline elements: read short elements whole.
                let small = doc.node(node).end.0 - node.0 <= 8;
                if small && !doc.children(node).iter().all(|&c| doc.text_node(c).is_some()) {
                    let text = doc.text(node);
                    if text.len() <= 80
                        && let Some(found) = dates.read_precise(&text)
                        && let Some(quality) = compare_read(&found, feed_date)
                    {
                        consider(DateLabel { node, attr: None, date: found.date, quality });
                    }
                }
            }
            NodeData::Text(text) => {
                let Some(parent) = doc.parent(node) else { continue };
                if doc.ancestors(node).any(|a| matches!(doc.tag(a), Some("script" | "style"))) {
                    continue;
                }
                if let Some(found) = dates.read_precise(text)
                    && let Some(quality) = compare_read(&found, feed_date)
                {
                    consider(DateLabel { node: parent, attr: None, date: found.date, quality });
                }
            }
            NodeData::Document => {}
        }
    }
    best.map(|(label, _)| label)
}

/// The record's excerpt: the element whose text the feed's summary or content holds best
/// (most of its bigrams are the target's), the largest such, outside the title.
fn description_in(doc: &Document, record: &Record, target: &str) -> Option<NodeId> {
    let target = text::bigrams(target);
    let mut best: Option<(NodeId, usize)> = None;
    for node in doc.descendants(record.node) {
        if !doc.is_element(node) || doc.contains(node, record.title) || doc.contains(record.title, node) {
            continue;
        }
        if record.anchor.is_some_and(|a| doc.contains(node, a) && a != record.title) {
            continue;
        }
        let own = doc.text(node);
        if own.chars().count() < 20 {
            continue;
        }
        let grams = text::bigrams(&own);
        let shared = grams.iter().filter(|g| target.contains(g)).count();
        if (shared as f32) < 0.6 * grams.len() as f32 {
            continue;
        }
        if best.is_none_or(|(_, s)| shared > s) {
            best = Some((node, shared));
        }
    }
    best.map(|(node, _)| node)
}

/// The element that names the item's author (its whole text, or the name with a few words
/// around it such as "by"), the smallest such.
pub fn author_in(doc: &Document, top: NodeId, author: &str) -> Option<NodeId> {
    let name = text::normalize(author);
    if name.is_empty() {
        return None;
    }
    let mut best: Option<(NodeId, usize)> = None;
    for node in std::iter::once(top).chain(doc.descendants(top)) {
        if !doc.is_element(node) || matches!(doc.tag(node), Some("script" | "style")) {
            continue;
        }
        let own = text::normalize(&doc.text(node));
        if !own.contains(&name) || own.len() > name.len() + 24 {
            continue;
        }
        if best.is_none_or(|(_, len)| own.len() <= len) {
            best = Some((node, own.len()));
        }
    }
    best.map(|(node, _)| node)
}

// ----- induction -----

/// A subject and item rule learned from the records of one or more pages.
#[derive(Debug, Clone)]
pub struct LearnedList {
    pub subject: Path,
    pub item: ItemRule,
    pub item_support: Support,
    pub field_support: Vec<(Field, Support)>,
}

/// The records of one page, with the page.
pub struct PageRecords<'d> {
    pub doc: &'d Document,
    pub labels: Labels,
}

/// One page's main list as paths: the records' common parent, and each record's key path
/// below it with the record's index.
struct PageList {
    page: usize,
    subject: Path,
    items: Vec<(usize, Path)>,
}

/// The main list of a labeled page: the records of the majority depth (siblings of one list).
fn page_list(p: usize, page: &PageRecords) -> Option<PageList> {
    let records = &page.labels.records;
    if records.len() < 2 {
        return None;
    }
    let doc = page.doc;
    let mut depths: HashMap<u32, usize> = HashMap::new();
    for r in records {
        *depths.entry(doc.node(r.node).depth).or_default() += 1;
    }
    let (&depth, _) = depths.iter().max_by_key(|(d, n)| (**n, std::cmp::Reverse(**d)))?;
    let chosen: Vec<usize> = (0..records.len()).filter(|&i| doc.node(records[i].node).depth == depth).collect();
    if chosen.len() < 2 {
        return None;
    }
    let parent = chosen.iter().map(|&i| records[i].node).reduce(|a, b| doc.common_ancestor(a, b))?;
    let items = chosen.iter().filter_map(|&i| relative_key(doc, parent, records[i].node).map(|k| (i, k))).collect();
    Some(PageList { page: p, subject: unique_path(doc, parent), items })
}

/// The subject and item paths of pages of one layout: their merged key paths.
fn merged_paths(lists: &[&PageList]) -> Option<(Path, Path)> {
    let subjects: Vec<Path> = lists.iter().map(|l| l.subject.clone()).collect();
    let items: Vec<Path> = lists.iter().flat_map(|l| l.items.iter().map(|(_, k)| k.clone())).collect();
    Some((merge_majority(&subjects)?, merge_majority(&items)?))
}

/// Which labeled records of a page the paths select.
fn selected_on(page: &PageRecords, subject: &Path, item: &Path) -> Vec<usize> {
    let doc = page.doc;
    let nodes: Vec<NodeId> =
        subject.select_nodes(doc, doc.root()).into_iter().flat_map(|s| item.select_nodes(doc, s)).collect();
    (0..page.labels.records.len()).filter(|&i| nodes.contains(&page.labels.records[i].node)).collect()
}

/// A layout's paths must select at least this share of each of its pages' main lists: pages
/// whose merged paths would lose more (a homepage of cards and an archive of plain links)
/// are two layouts, each with its own list part.
const LAYOUT_HOLDS: f32 = 0.8;

/// Learn the list rules from labeled pages: one per layout among the list pages given (a
/// homepage, an archive, a section page of another layout), the layout of the most items
/// first. Records of a shape the majority does not share (a featured first post) are left out
/// of the item path and counted as not matched.
pub fn induce(pages: &[PageRecords], site: &Site, dates: &DateReader) -> Vec<LearnedList> {
    let mut lists: Vec<PageList> = pages.iter().enumerate().filter_map(|(p, page)| page_list(p, page)).collect();
    lists.sort_by_key(|l| std::cmp::Reverse(l.items.len()));
    // Pages join the first layout whose paths, merged with theirs, still hold on every page.
    let mut layouts: Vec<Vec<&PageList>> = Vec::new();
    for list in &lists {
        let joins = layouts.iter().position(|layout| {
            let mut merged = layout.clone();
            merged.push(list);
            merged_paths(&merged).is_some_and(|(subject, item)| {
                merged.iter().all(|l| {
                    let selected = selected_on(&pages[l.page], &subject, &item);
                    let kept = l.items.iter().filter(|(i, _)| selected.contains(i)).count();
                    kept as f32 >= LAYOUT_HOLDS * l.items.len() as f32
                })
            })
        });
        match joins {
            Some(at) => layouts[at].push(list),
            None => layouts.push(vec![list]),
        }
    }
    // Feed items found on list pages that gave no list count against the main layout.
    let listless: usize =
        (0..pages.len()).filter(|p| !lists.iter().any(|l| l.page == *p)).map(|p| pages[p].labels.located).sum();
    let mut learned: Vec<LearnedList> = layouts
        .iter()
        .enumerate()
        .filter_map(|(n, layout)| {
            let located = layout.iter().map(|l| pages[l.page].labels.located).sum::<usize>();
            learn_layout(pages, layout, located + if n == 0 { listless } else { 0 }, site, dates)
        })
        .collect();
    learned.sort_by_key(|l| std::cmp::Reverse(l.item_support.matched));
    learned
}

/// The list rule of one layout's pages; `located` is how many feed items those pages show.
fn learn_layout(
    pages: &[PageRecords],
    layout: &[&PageList],
    located: usize,
    site: &Site,
    dates: &DateReader,
) -> Option<LearnedList> {
    if layout.iter().map(|l| l.items.len()).sum::<usize>() < 2 {
        return None;
    }
    let (subject, item_path) = merged_paths(layout)?;
    let selected: Vec<(usize, usize)> = layout
        .iter()
        .flat_map(|l| selected_on(&pages[l.page], &subject, &item_path).into_iter().map(|i| (l.page, i)))
        .collect();
    if selected.len() < 2 {
        return None;
    }
    let mut item = ItemRule::new(item_path);
    let mut field_support = Vec::new();
    for field in [Field::Title, Field::Link, Field::Date, Field::Description, Field::Author] {
        if let Some((path, support)) = field_path(pages, &selected, field, site, dates) {
            item.set_field(field, Some(path));
            field_support.push((field, support));
        }
    }
    if item.title.is_none() && item.link.is_none() {
        return None;
    }
    let item_support = Support { matched: selected.len() as u32, of: located.max(selected.len()) as u32 };
    Some(LearnedList { subject, item, item_support, field_support })
}

/// A field path needs at least this share of the records to be kept.
pub const MIN_FIELD_SUPPORT: f32 = 0.5;

/// The labeled target of a field in a record: a node, or an attribute of one.
fn field_target(record: &Record, field: Field) -> Option<(NodeId, Option<&str>)> {
    match field {
        Field::Title => Some((record.title, None)),
        Field::Link => record.anchor.map(|a| (a, None)),
        Field::Date => record.date.as_ref().map(|d| (d.node, d.attr.as_deref())),
        Field::Description => record.description.map(|d| (d, None)),
        Field::Author => record.author.map(|a| (a, None)),
        Field::Content => None,
    }
}

/// The path of one field relative to the records: the merged key path or the merged indexed
/// path, whichever gives the labeled value in more records, with how many.
fn field_path(
    pages: &[PageRecords],
    selected: &[(usize, usize)],
    field: Field,
    site: &Site,
    dates: &DateReader,
) -> Option<(Path, Support)> {
    let mut keyed = Vec::new();
    let mut indexed = Vec::new();
    let mut labeled = 0;
    for &(p, i) in selected {
        let doc = pages[p].doc;
        let record = &pages[p].labels.records[i];
        let Some((node, attr)) = field_target(record, field) else { continue };
        labeled += 1;
        let with_attr = |mut path: Path| {
            if let Some(name) = attr {
                path.steps.push(Step {
                    deep: false,
                    test: Test::Attribute(name.to_string()),
                    predicates: Vec::new(),
                    index: None,
                });
            }
            path
        };
        keyed.extend(relative_key(doc, record.node, node).map(with_attr));
        indexed.extend(Path::relative(doc, record.node, node).map(with_attr));
    }
    if labeled * 2 < selected.len().max(2) {
        return None;
    }
    // The merged key path, the merged indexed path, and the common prefix of the key paths
    // (a title in `H2/A` on most records and in `H2` on one).
    let prefix =
        keyed.iter().skip(1).try_fold(keyed.first().cloned(), |acc, p| Some(acc.and_then(|a| a.merge_prefix(p, 1))));
    let candidates: Vec<Path> = [merge_majority(&keyed), merge_majority(&indexed), merge(&indexed), prefix.flatten()]
        .into_iter()
        .flatten()
        .collect();
    let mut best: Option<(Path, u32)> = None;
    for path in candidates {
        let hits = selected
            .iter()
            .filter(|&&(p, i)| gives_label(pages[p].doc, &pages[p].labels.records[i], field, &path, site, dates))
            .count() as u32;
        if best.as_ref().is_none_or(|(_, h)| hits > *h) {
            best = Some((path, hits));
        }
    }
    let (path, hits) = best?;
    let support = Support { matched: hits, of: selected.len() as u32 };
    (hits >= 2 && support.ratio() >= MIN_FIELD_SUPPORT).then_some((path, support))
}

/// Whether applying a field path to a record gives what was labeled there (as the rules
/// engine would extract it: the first text, link or date the path selects).
fn gives_label(doc: &Document, record: &Record, field: Field, path: &Path, site: &Site, dates: &DateReader) -> bool {
    let targets = path.select(doc, record.node);
    match field {
        Field::Title => {
            let want = doc.text(record.title);
            targets.iter().map(|t| t.text(doc)).find(|t| !t.is_empty()).is_some_and(|t| t == want)
        }
        Field::Link => {
            let Some(want) = record.anchor.and_then(|a| doc.attr(a, "href")).and_then(|h| doc.resolve(h)) else {
                return false;
            };
            targets
                .iter()
                .find_map(|&t| link_of(doc, t, record.node))
                .is_some_and(|got| site.key(&got) == site.key(&want))
        }
        Field::Date => {
            let Some(want) = &record.date else { return false };
            targets.iter().find_map(|t| dates.read(&t.text(doc))).is_some_and(|got| got == want.date)
        }
        Field::Description | Field::Author => {
            let Some((want, _)) = field_target(record, field) else { return false };
            targets.first().is_some_and(|t| t.node() == want)
        }
        Field::Content => false,
    }
}

/// The link a target stands for, as the rules engine reads it: an attribute's value, the link
/// around the node (within the item), else the first link inside it.
pub fn link_of(doc: &Document, target: Target, item: NodeId) -> Option<url::Url> {
    let node = match target {
        Target::Attr(node, name) => return doc.attr(node, name).and_then(|h| doc.resolve(h)),
        Target::Node(node) => node,
    };
    let own = |n: NodeId| doc.is_tag(n, "a").then(|| doc.attr(n, "href").and_then(|h| doc.resolve(h))).flatten();
    std::iter::once(node)
        .chain(doc.ancestors(node).take_while(|&a| doc.contains(item, a)))
        .find_map(own)
        .or_else(|| doc.descendants(node).find_map(own))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;
    use url::Url;

    fn item(title: &str, link: &str, date: &str) -> FeedItem {
        FeedItem::new(title, Some(Url::parse(link).unwrap()), DateTime::parse_from_rfc3339(date).ok())
    }

    const PAGE: &str = r#"<html><body class="home"><nav><a href="/about/">About</a></nav>
        <main class="posts">
          <article class="post post-3"><h2><a href="/p/3/">Third post</a></h2><time datetime="2024-03-03T10:00:00+01:00">March 3</time><p>Third summary here, long enough.</p></article>
          <article class="post post-2"><h2><a href="/p/2/">Second post title that is quite long…</a></h2><time datetime="2024-02-02T10:00:00+01:00">Feb 2</time><p>Second summary.</p></article>
          <article class="post post-1"><a class=thumb href="/p/1/"><img src=x.png></a><h2>First post</h2><time datetime="2024-01-01T10:00:00+01:00">Jan 1</time></article>
        </main>
        <aside><h3>Recent</h3><ul><li><a href="/p/3/">Third post</a></li><li><a href="/p/2/">Second post title that is quite long and more</a></li></ul></aside>
        </body></html>"#;

    fn feed() -> Vec<FeedItem> {
        vec![
            item("Third post", "https://b.org/p/3/", "2024-03-03T09:00:00Z"),
            item("Second post title that is quite long and more", "https://b.org/p/2/", "2024-02-02T09:00:00Z"),
            item("First post", "https://b.org/p/1/", "2024-01-01T09:00:00Z"),
            item("About", "https://b.org/about/", "2020-01-01T00:00:00Z"),
            item("Not on the page", "https://b.org/p/0/", "2023-01-01T00:00:00Z"),
        ]
    }

    #[test]
    fn labels_the_main_list_not_the_sidebar_or_navigation() {
        let doc = crate::dom::parse_str(PAGE, &Url::parse("https://b.org/").unwrap()).unwrap();
        let site = Site::new([&doc.url]);
        let dates = DateReader::new(None, Utc::now());
        let labels = label(&doc, &feed(), &site, &dates);
        assert_eq!(labels.located, 4);
        let items: Vec<usize> = labels.records.iter().map(|r| r.item).collect();
        assert_eq!(items, [0, 1, 2]);
        for r in &labels.records {
            assert!(doc.is_tag(r.node, "article"), "{:?}", doc.tag(r.node));
            assert_eq!(r.date.as_ref().unwrap().quality, DateMatch::Instant);
            assert_eq!(r.date.as_ref().unwrap().attr.as_deref(), Some("datetime"));
        }
        // The thumbnail link's title is the heading next to it.
        assert!(doc.is_tag(labels.records[2].title, "h2"));
        let learned = induce(&[PageRecords { doc: &doc, labels }], &site, &dates).remove(0);
        assert_eq!(learned.subject.to_string(), "/HTML/BODY/MAIN[@class=posts]");
        assert_eq!(learned.item.path.to_string(), "ARTICLE[@class=post post-*]");
        assert_eq!(learned.item.date.as_ref().unwrap().to_string(), "TIME/@datetime");
        assert_eq!(learned.item_support, Support { matched: 3, of: 4 });
    }

    /// A "recent posts" widget lists more of the feed's items than the page's main list (page 1
    /// shows three posts, the widget the six newest): the main list is the one in the content.
    #[test]
    fn a_sidebar_widget_with_more_items_does_not_win_over_the_main_list() {
        let recent: String = (1..=6).map(|i| format!(r#"<li><a href="/p/{i}/">Post number {i}</a></li>"#)).collect();
        let main: String = (1..=3)
            .map(|i| {
                format!(r#"<div class="entry"><h2><a href="/p/{i}/">Post number {i}</a></h2><p>Summary {i}.</p></div>"#)
            })
            .collect();
        for widget in
            [format!("<aside><ul>{recent}</ul></aside>"), format!("<nav><section><ul>{recent}</ul></section></nav>")]
        {
            let html = format!(
                r#"<html><body><div id="wrap"><main>{widget}<div class="list">{main}</div></main></div></body></html>"#
            );
            let doc = crate::dom::parse_str(&html, &Url::parse("https://b.org/").unwrap()).unwrap();
            let items: Vec<FeedItem> = (1..=6)
                .map(|i| item(&format!("Post number {i}"), &format!("https://b.org/p/{i}/"), "2024-01-01T00:00:00Z"))
                .collect();
            let labels = label(&doc, &items, &Site::new([&doc.url]), &DateReader::new(None, Utc::now()));
            assert_eq!(labels.records.iter().map(|r| r.item).collect::<Vec<_>>(), [0, 1, 2], "{widget}");
            assert!(labels.records.iter().all(|r| doc.attr(r.node, "class") == Some("entry")));
        }
    }
}
