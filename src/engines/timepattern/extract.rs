//! Item extraction between time nodes (paper §2.2.3, Figure 6) and the choice of the blocks
//! that are the page's item lists.
//!
//! Figure 6 takes every `<a>` between one time node's upper bound and the next one's as an
//! item. Real pages need more, so each block is read as a list of *records*:
//!
//! 1. The block's container is the common ancestor of its time nodes; each time node lies in
//!    one child of it (its *slot*). The items are the container's children from one item's
//!    first slot to the next item's (Figure 6's bounds).
//! 2. Where an item starts relative to its date is the same for every item of a list: the
//!    headline is in the date's slot (`<li>date <a>title</a></li>`, `<article>`), or a fixed
//!    number of slots before or after it (`<h2><a>title</a></h2><p>date</p><p>excerpt</p>`).
//!    That offset is the one whose slots hold the best headline links over the whole block.
//! 3. The headline is the item's best headline link — in a heading, long, never "read more",
//!    a comment count, or a category, tag, author or archive link.
//!
//! Which blocks are the page's item lists (paper: "select all groups, or one group by a
//! heuristic rule") is decided by a score: how many items with a headline the block yields,
//! the share of its time nodes that yield one, the length of titles and item text, the date
//! precision, and where the block sits — blocks inside sidebars, footers, navigation or comment
//! sections count far less, and a page whose best block is one of those has no list. The best
//! block is taken, and other blocks join it when they are lists of the same page: sections of a
//! news portal (a good score of their own), the same list with another date format (inside
//! it), or more records of the same kind (a featured first post).
//!
//! The chosen time nodes are divided again (Figure 5); each block is a subject titled by the
//! nearest heading before it. Within a dated list, records of the same element kind without a
//! date are items too (a pinned post); dates that head sections ("Wed, 10 Nov 2021" above the
//! day's entries) date every entry of their section.
//!
//! An item is its headline's text and absolute link, the date of its purest time node (from
//! `<time datetime>` when there is one), and a description: the item's other text (without
//! title, dates, "read more", tag and share links) as plain text, HTML-escaped, at most 1000
//! characters. The page date of a list page is its newest item date.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;
use url::Url;

use super::blocks::{self, Block};
use super::dates::{DateContext, Precision};
use super::db::TimePatternDb;
use super::discover::{self, TimeNode, TimeSource};
use crate::dom::{Document, NodeId};
use crate::engines::links::{Link, page_links};
use crate::engines::record::{
    self, HeadlineSlot, OFF_LIST, OFF_LIST_TAGS, has_title, has_word, is_heading, is_main, is_secondary, tag_path,
    title_of,
};
use crate::engines::{Engine, Extraction};
use crate::model::{Item, Page, Subject};

/// Longest subject title, in characters: section titles are short.
const MAX_SUBJECT_CHARS: usize = 40;
/// A record of one item holds at most this many dates ("created", "updated", "original").
const MAX_DATES_PER_RECORD: usize = 3;
/// How far (in slots) an item's headline may be from its date in a singleton block.
const SINGLETON_WINDOW: isize = 3;

/// What the engine saw on a page: the time nodes, the groups and blocks with their scores,
/// and the extraction.
#[derive(Debug, Serialize)]
pub struct Analysis {
    pub time_nodes: Vec<TimeNode>,
    pub groups: Vec<GroupReport>,
    pub extraction: Extraction,
}

#[derive(Debug, Serialize)]
pub struct GroupReport {
    /// The pattern shared by the group (`yyyy-##-##`; `##` is a day or month), or `tag@attr`.
    pub key: String,
    pub time_nodes: usize,
    pub order: Option<super::db::Order>,
    pub blocks: Vec<BlockReport>,
}

#[derive(Debug, Serialize)]
pub struct BlockReport {
    /// Address of the block's container.
    pub container: String,
    /// Items (records) of the block and how many of them have a headline link.
    pub records: usize,
    pub items: usize,
    pub score: f32,
    pub selected: bool,
}

/// Extract the page's items by its dates.
pub fn extract(doc: &Document, db: &TimePatternDb, context: &DateContext) -> Extraction {
    analyze(doc, db, context).extraction
}

/// Everything the engine found, for `inspect` and for tuning.
pub fn analyze(doc: &Document, db: &TimePatternDb, context: &DateContext) -> Analysis {
    let mut nodes = discover::discover(doc, db, context);
    let page_lang = doc.lang();
    let groups = discover::group(&mut nodes, db, context, page_lang.as_deref());
    let links = page_links(doc);
    let view = PageView { doc, nodes: &nodes, links: &links };

    // Every block of every group, read as a list and scored.
    let mut candidates: Vec<Candidate> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let blocks = view.divide(&group.nodes);
        let slot_depth = view.slot_depth(&group.nodes, &blocks);
        for block in blocks {
            let records: Vec<Vec<usize>> =
                block.units.iter().map(|u| u.clone().map(|i| group.nodes[i]).collect()).collect();
            let list = view.read_list(&records, slot_depth);
            let score = view.score(&list);
            candidates.push(Candidate { group: g, list, score, selected: false });
        }
    }
    let chosen = select(&view, &mut candidates);

    // The chosen time nodes together, divided again: one subject per block.
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    let mut confidence = 0.0;
    if !chosen.is_empty() {
        let blocks = view.divide(&chosen);
        let slot_depth = view.slot_depth(&chosen, &blocks);
        let lists: Vec<List> = blocks
            .iter()
            .map(|block| {
                let records: Vec<Vec<usize>> =
                    block.units.iter().map(|u| u.clone().map(|i| chosen[i]).collect()).collect();
                let mut list = view.read_list(&records, slot_depth);
                list.records.extend(view.undated_records(&list));
                list.records.sort_by_key(|r| r.start);
                list
            })
            .collect();
        // A heading that is an item's headline is no subject title.
        let item_urls: HashSet<&Url> =
            lists.iter().flat_map(|l| l.records.iter().filter_map(|r| r.headline.map(|h| &links[h].url))).collect();
        let mut seen: HashSet<Url> = HashSet::new();
        let mut items_of = |records: &[Record]| -> Vec<Item> {
            records
                .iter()
                .filter_map(|r| view.item(r))
                .filter(|item| item.link.as_ref().is_some_and(|l| seen.insert(l.clone())))
                .collect()
        };
        for list in &lists {
            if let Some(sections) = view.dated_sections(list) {
                for (title, records) in sections {
                    let items = items_of(&records);
                    if !items.is_empty() {
                        page.subjects.push(Subject { title: Some(title), items });
                    }
                }
                continue;
            }
            let items = items_of(&list.records);
            if items.is_empty() {
                continue;
            }
            let title = view.subject_title(list, &item_urls);
            match page.subjects.last_mut() {
                // Untitled blocks in a row (rows of a grid) are one list.
                Some(last) if last.title.is_none() && title.is_none() => last.items.extend(items),
                _ => page.subjects.push(Subject { title, items }),
            }
        }
        page.date = page.items().filter_map(|i| i.date).max();
        let best = candidates.iter().filter(|c| c.selected).map(|c| c.score).fold(0.0, f32::max);
        confidence = view.confidence(&candidates, best, page.item_count());
    }
    let reports = groups
        .iter()
        .enumerate()
        .map(|(g, group)| GroupReport {
            key: group.key.clone(),
            time_nodes: group.nodes.len(),
            order: group.order,
            blocks: candidates
                .iter()
                .filter(|c| c.group == g)
                .map(|c| BlockReport {
                    container: doc.address(c.list.container).to_string(),
                    records: c.list.records.len(),
                    items: c.list.with_headline(),
                    score: (c.score * 100.0).round() / 100.0,
                    selected: c.selected,
                })
                .collect(),
        })
        .collect();
    let extraction = Extraction { page, engine: Engine::TimePattern, confidence };
    Analysis { time_nodes: nodes, groups: reports, extraction }
}

/// A block of a group, read as a list, with its score.
struct Candidate {
    group: usize,
    list: List,
    score: f32,
    selected: bool,
}

/// A block read as a list of records.
struct List {
    /// The common ancestor of the block's time nodes.
    container: NodeId,
    records: Vec<Record>,
    /// Off-list (sidebar …) = 0.15, secondary ("recent posts") = 0.5, else 1.
    placement: f32,
    /// The tag path from a record's slot down to its date (the most common one): records of
    /// one kind of list share it.
    shape: String,
}

impl List {
    fn with_headline(&self) -> usize {
        self.records.iter().filter(|r| r.headline.is_some()).count()
    }
}

/// One item: its time nodes, where it is, and its headline link.
struct Record {
    /// The time node whose date is the item's (the purest of the record); `None` for an
    /// undated record of a dated list.
    anchor: Option<usize>,
    dates: Vec<usize>,
    /// The item's extent in pre-order: `start..end`.
    start: NodeId,
    end: NodeId,
    headline: Option<usize>,
}

struct PageView<'a> {
    doc: &'a Document,
    nodes: &'a [TimeNode],
    links: &'a [Link],
}

impl PageView<'_> {
    /// Figure 5 over some time nodes (indexes into `nodes`, in page order).
    fn divide(&self, members: &[usize]) -> Vec<Block> {
        let addresses: Vec<_> = members.iter().map(|&i| self.nodes[i].address.clone()).collect();
        let unit = |run: std::ops::Range<usize>, column: usize| self.record_signature(&members[run], column);
        blocks::divide(&addresses, &unit)
    }

    /// `Some(signature)` when the time nodes (which agree on their address up to `column`) are
    /// one record: a lone node, or up to three dates of different kinds (the post's date and
    /// the original's), or of one kind with no headline between them ("created … updated").
    /// Two dates of one kind with a headline between are two items: a list.
    /// The signature is the path to the record's first date: records of one list share it.
    fn record_signature(&self, run: &[usize], column: usize) -> Option<String> {
        let top = self.ancestor_at_depth(self.nodes[run[0]].node, column as u32 + 1);
        let paths: Vec<String> = run.iter().map(|&i| tag_path(self.doc, top, self.nodes[i].node)).collect();
        if run.len() > 1 {
            if run.len() > MAX_DATES_PER_RECORD {
                return None;
            }
            let kinds_differ = paths.windows(2).any(|w| w[0] != w[1]);
            let first = self.nodes[run[0]].node;
            let last = self.nodes[run[run.len() - 1]].node;
            let headline_between =
                self.links_between(first, last).any(|l| l.is_headline() && !self.doc.contains(l.node, first));
            if !kinds_differ && headline_between {
                return None;
            }
        }
        paths.into_iter().next()
    }

    fn links_between(&self, first: NodeId, last: NodeId) -> impl Iterator<Item = &Link> {
        let from = self.links.partition_point(|l| l.node <= first);
        self.links[from..].iter().take_while(move |l| l.node < last)
    }

    fn ancestor_at_depth(&self, node: NodeId, depth: u32) -> NodeId {
        std::iter::once(node).chain(self.doc.ancestors(node)).find(|&a| self.doc.node(a).depth <= depth).unwrap_or(node)
    }

    /// How far above its anchor a record's slot is, from the blocks with several records;
    /// used for blocks of one record, which have no container of their own.
    fn slot_depth(&self, members: &[usize], blocks: &[Block]) -> Option<u32> {
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for block in blocks.iter().filter(|b| b.units.len() > 1) {
            let nodes: Vec<NodeId> = block.range().map(|i| self.nodes[members[i]].node).collect();
            let container = nodes.iter().fold(nodes[0], |acc, &n| self.doc.common_ancestor(acc, n));
            for &n in &nodes {
                let up = self.doc.node(n).depth.saturating_sub(self.doc.node(container).depth + 1);
                *counts.entry(up).or_default() += 1;
            }
        }
        counts.into_iter().max_by_key(|&(up, count)| (count, std::cmp::Reverse(up))).map(|(up, _)| up)
    }

    fn anchor_of(&self, record: &[usize]) -> usize {
        // A date marked as the publication date, then an unmarked one, then a modification
        // date; among them the purest, the first on ties; visible dates before invisible ones.
        *record
            .iter()
            .max_by(|&&a, &&b| {
                let key = |i: usize| {
                    let n = &self.nodes[i];
                    (n.role, n.source != TimeSource::Attribute, (n.purity * 100.0) as u32)
                };
                key(a).cmp(&key(b)).then(b.cmp(&a))
            })
            .expect("records are not empty")
    }

    /// Read a block (its records as time-node indexes) as a list of items.
    fn read_list(&self, records: &[Vec<usize>], slot_depth: Option<u32>) -> List {
        let doc = self.doc;
        let anchors: Vec<usize> = records.iter().map(|r| self.anchor_of(r)).collect();
        let all: Vec<NodeId> = records.iter().flatten().map(|&i| self.nodes[i].node).collect();
        // The container and each record's slot (the container's child holding it).
        let (container, slots): (NodeId, Vec<NodeId>) = if records.len() > 1 {
            let container = all.iter().fold(all[0], |acc, &n| doc.common_ancestor(acc, n));
            let slots = anchors.iter().map(|&a| self.child_towards(container, self.nodes[a].node)).collect();
            (container, slots)
        } else {
            let slot = self.lone_slot(self.nodes[anchors[0]].node, records, slot_depth);
            (doc.parent(slot).unwrap_or(doc.root()), vec![slot])
        };
        let children: Vec<NodeId> =
            doc.children(container).iter().copied().filter(|&c| doc.is_element(c) || doc.is_content_text(c)).collect();
        let position = |slot: NodeId| children.iter().position(|&c| c == slot);
        // Records that share a slot are one item.
        let mut merged: Vec<(usize, Vec<usize>, usize)> = Vec::new(); // (slot index, dates, anchor)
        for ((record, &anchor), &slot) in records.iter().zip(&anchors).zip(&slots) {
            let Some(p) = position(slot) else { continue };
            match merged.last_mut() {
                Some((last, dates, _)) if *last == p => dates.extend(record),
                _ => merged.push((p, record.clone(), anchor)),
            }
        }
        let placement = self.placement(container, slots.first().copied());
        if merged.is_empty() {
            return List { container, records: Vec::new(), placement, shape: String::new() };
        }
        let mut shapes: BTreeMap<String, usize> = BTreeMap::new();
        for (_, _, anchor) in &merged {
            *shapes.entry(tag_path(self.doc, container, self.nodes[*anchor].node)).or_default() += 1;
        }
        let shape = shapes.into_iter().max_by_key(|(_, count)| *count).map(|(shape, _)| shape).unwrap_or_default();
        let offset = self.headline_offset(&children, &merged);
        let starts: Vec<usize> = merged.iter().map(|(p, _, _)| (*p as isize + offset.min(0)).max(0) as usize).collect();
        let period = median_gap(&starts).max(1);
        let mut out = Vec::new();
        for (k, (p, dates, anchor)) in merged.iter().enumerate() {
            let start = starts[k];
            let end = match starts.get(k + 1) {
                Some(&next) => next.max(start + 1),
                None => (start + period).min(children.len()).max(start + 1),
            }
            .min(children.len());
            let first = children[start];
            let last = children[end - 1];
            let (start_node, end_node) = (first, doc.node(last).end);
            let target = *p as isize + offset;
            let in_target = (0..children.len() as isize).contains(&target).then(|| children[target as usize]);
            let headline = self.best_headline(start_node, end_node, in_target, Some(&self.nodes[*anchor]));
            let mut dates = dates.clone();
            dates.sort();
            out.push(Record { anchor: Some(*anchor), dates, start: start_node, end: end_node, headline });
        }
        // The headline path shared by most items wins over a locally better link.
        self.align_headlines(&mut out);
        List { container, records: out, placement, shape }
    }

    /// The child of `ancestor` on the way down to `node`.
    fn child_towards(&self, ancestor: NodeId, node: NodeId) -> NodeId {
        std::iter::once(node)
            .chain(self.doc.ancestors(node))
            .find(|&a| self.doc.parent(a) == Some(ancestor))
            .unwrap_or(node)
    }

    /// The slot of a record alone in its block: as high above its date as the slots of the
    /// page's other lists, else the highest ancestor that still holds one headline and no
    /// other date.
    fn lone_slot(&self, anchor: NodeId, records: &[Vec<usize>], slot_depth: Option<u32>) -> NodeId {
        let doc = self.doc;
        if let Some(up) = slot_depth {
            let mut slot = anchor;
            for _ in 0..up {
                match doc.parent(slot) {
                    Some(p) if doc.parent(p).is_some() => slot = p,
                    _ => break,
                }
            }
            return slot;
        }
        let own: HashSet<NodeId> = records.iter().flatten().map(|&i| self.nodes[i].node).collect();
        let mut slot = anchor;
        while let Some(parent) = doc.parent(slot) {
            if doc.tag(parent).is_none_or(|t| t == "body" || t == "html") {
                break;
            }
            let other_date = self.nodes.iter().any(|n| doc.contains(parent, n.node) && !own.contains(&n.node));
            let headlines: HashSet<&Url> = self.headlines_in(parent, doc.node(parent).end).map(|l| &l.url).collect();
            if other_date || headlines.len() > 1 {
                break;
            }
            slot = parent;
        }
        slot
    }

    fn headlines_in(&self, start: NodeId, end: NodeId) -> impl Iterator<Item = &Link> {
        let from = self.links.partition_point(|l| l.node < start);
        self.links[from..].iter().take_while(move |l| l.node < end).filter(|l| l.is_headline())
    }

    /// The offset (in slots) from a record's date slot to its headline slot that gives the
    /// block the best headlines; ties go to the nearer offset, then to the headline first.
    fn headline_offset(&self, children: &[NodeId], merged: &[(usize, Vec<usize>, usize)]) -> isize {
        let positions: Vec<usize> = merged.iter().map(|(p, _, _)| *p).collect();
        // A record alone ("yesterday" among "6 hours ago") whose own slot holds a headline is
        // titled there: a neighbour's longer headline belongs to the neighbour's record.
        if let [p] = positions[..] {
            let slot = children[p];
            if self.headlines_in(slot, self.doc.node(slot).end).next().is_some() {
                return 0;
            }
        }
        let typical = median_gap(&positions) as isize;
        let mut support: BTreeMap<isize, f32> = BTreeMap::new();
        for (k, &p) in positions.iter().enumerate() {
            let p = p as isize;
            let low = match k {
                0 if positions.len() > 1 => -(typical - 1),
                0 => -SINGLETON_WINDOW,
                _ => positions[k - 1] as isize - p + 1,
            };
            let high = match positions.get(k + 1) {
                Some(&next) => next as isize - p - 1,
                None if positions.len() > 1 => typical - 1,
                None => SINGLETON_WINDOW,
            };
            for offset in low..=high {
                let target = p + offset;
                if !(0..children.len() as isize).contains(&target) {
                    continue;
                }
                let child = children[target as usize];
                let best = self.headlines_in(child, self.doc.node(child).end).map(|l| l.quality).fold(0.0, f32::max);
                *support.entry(offset).or_default() += best;
            }
        }
        support
            .into_iter()
            .max_by(|(a, sa), (b, sb)| sa.total_cmp(sb).then_with(|| b.abs().cmp(&a.abs())).then_with(|| b.cmp(a)))
            .map_or(0, |(offset, _)| offset)
    }

    /// The best headline link of an item: in its headline slot if it has one there.
    fn best_headline(
        &self,
        start: NodeId,
        end: NodeId,
        slot: Option<NodeId>,
        date: Option<&TimeNode>,
    ) -> Option<usize> {
        let from = self.links.partition_point(|l| l.node < start);
        let candidates = (from..self.links.len())
            .take_while(|&i| self.links[i].node < end)
            .filter(|&i| self.links[i].is_headline())
            // A link that is only the date ("2021-05-04" linking to the post) is no headline.
            .filter(|&i| !title_of(self.doc, &self.links[i], date).is_empty());
        let in_slot = |i: usize| slot.is_some_and(|s| self.doc.contains(s, self.links[i].node));
        candidates.max_by(|&a, &b| {
            let key = |i: usize| (in_slot(i), self.links[i].quality);
            let (sa, qa) = key(a);
            let (sb, qb) = key(b);
            sa.cmp(&sb).then(qa.total_cmp(&qb)).then(b.cmp(&a))
        })
    }

    /// The list's headline place ([`record::align_headlines`]), from each record's parent.
    fn align_headlines(&self, records: &mut [Record]) {
        let doc = self.doc;
        let mut slots: Vec<HeadlineSlot> = records
            .iter()
            .map(|r| HeadlineSlot {
                top: doc.parent(r.start).unwrap_or(r.start),
                start: r.start,
                end: r.end,
                headline: r.headline,
            })
            .collect();
        // A link that is only the record's date ("2021-05-04" linking to the post) is none.
        let dates: Vec<Option<&TimeNode>> = records.iter().map(|r| r.anchor.map(|a| &self.nodes[a])).collect();
        record::align_headlines(doc, self.links, &mut slots, |link, index| {
            self.links[link].is_headline() && !title_of(doc, &self.links[link], dates[index]).is_empty()
        });
        for (record, slot) in records.iter_mut().zip(slots) {
            record.headline = slot.headline;
        }
    }

    /// The records of a list that show no date (a pinned first post, a post without one): in a
    /// list whose records are each one element of the same tag and class, the other such
    /// elements of the container before its last dated record, with a headline where the dated
    /// records have theirs.
    fn undated_records(&self, list: &List) -> Vec<Record> {
        let doc = self.doc;
        if list.records.len() < 2 {
            return Vec::new();
        }
        let kind = |n: NodeId| (doc.tag(n), doc.attr(n, "class"));
        let first = list.records[0].start;
        let wrapped = list.records.iter().all(|r| {
            doc.parent(r.start) == Some(list.container)
                && r.end == doc.node(r.start).end
                && kind(r.start) == kind(first)
        });
        if !wrapped {
            return Vec::new();
        }
        let mut paths: BTreeMap<String, usize> = BTreeMap::new();
        for r in &list.records {
            if let Some(h) = r.headline {
                *paths.entry(tag_path(self.doc, list.container, self.links[h].node)).or_default() += 1;
            }
        }
        let Some((path, count)) = paths.into_iter().max_by_key(|(_, c)| *c) else { return Vec::new() };
        if count * 2 <= list.records.len() {
            return Vec::new();
        }
        let used: HashSet<NodeId> = list.records.iter().map(|r| r.start).collect();
        // After the last dated record come "more in the archives" lines, not posts.
        let last = list.records.iter().map(|r| r.start).max().unwrap_or(first);
        let mut out = Vec::new();
        for &child in doc.children(list.container).iter().filter(|&&c| c < last) {
            if used.contains(&child) || kind(child) != kind(first) {
                continue;
            }
            let end = doc.node(child).end;
            // A dated element left out was left out on purpose.
            if self.nodes.iter().any(|n| doc.contains(child, n.node)) {
                continue;
            }
            let from = self.links.partition_point(|l| l.node < child);
            let headline = (from..self.links.len()).take_while(|&i| self.links[i].node < end).find(|&i| {
                let link = &self.links[i];
                link.is_headline() && tag_path(self.doc, list.container, link.node) == path && has_title(doc, link)
            });
            if headline.is_some() {
                out.push(Record { anchor: None, dates: Vec::new(), start: child, end, headline });
            }
        }
        out
    }

    /// A list whose dates are section headings ("Wed, 10 Nov 2021" over the day's entries):
    /// when most records are dated by a heading and hold several rows with a headline on the
    /// headline path, each row is an item of the day, and the day's heading is the subject.
    fn dated_sections(&self, list: &List) -> Option<Vec<(String, Vec<Record>)>> {
        let doc = self.doc;
        let heading_of = |r: &Record| {
            let anchor = self.nodes[r.anchor?].node;
            std::iter::once(anchor)
                .chain(doc.ancestors(anchor))
                .take_while(|&n| doc.contains(r.start, n))
                .find(|&n| is_heading(doc, n))
        };
        let headed = list.records.iter().filter(|r| heading_of(r).is_some()).count();
        if list.records.is_empty() || headed * 2 <= list.records.len() {
            return None;
        }
        let mut paths: BTreeMap<String, usize> = BTreeMap::new();
        for r in &list.records {
            if let Some(h) = r.headline {
                *paths.entry(tag_path(self.doc, list.container, self.links[h].node)).or_default() += 1;
            }
        }
        let path = paths.into_iter().max_by_key(|(_, c)| *c)?.0;
        let links_of = |r: &Record| -> Vec<usize> {
            (self.links.partition_point(|l| l.node < r.start)..self.links.len())
                .take_while(|&i| self.links[i].node < r.end)
                .filter(|&i| {
                    self.links[i].is_headline() && tag_path(self.doc, list.container, self.links[i].node) == path
                })
                .collect()
        };
        let per_record: Vec<Vec<usize>> = list.records.iter().map(links_of).collect();
        // A row is the element that holds one entry: the child of the links' common ancestor in
        // the section with the most links, at the same depth in every section.
        let fullest = per_record.iter().max_by_key(|links| links.len())?;
        let common = fullest.iter().map(|&i| self.links[i].node).reduce(|a, b| doc.common_ancestor(a, b))?;
        let row_depth = doc.node(self.child_towards(common, self.links[fullest[0]].node)).depth;
        let mut sections = Vec::new();
        let mut rows_per_section = Vec::new();
        for (r, links) in list.records.iter().zip(&per_record) {
            let mut rows: Vec<Record> = Vec::new();
            for &i in links {
                let row = self.ancestor_at_depth(self.links[i].node, row_depth);
                match rows.last_mut() {
                    Some(last) if last.start == row => {
                        if last.headline.is_none_or(|h| self.links[h].quality < self.links[i].quality) {
                            last.headline = Some(i);
                        }
                    }
                    _ => rows.push(Record {
                        anchor: r.anchor,
                        dates: Vec::new(),
                        start: row,
                        end: doc.node(row).end,
                        headline: Some(i),
                    }),
                }
            }
            rows_per_section.push(rows.len());
            let title = heading_of(r).map(|h| doc.text(h)).unwrap_or_default();
            sections.push((title, rows));
        }
        rows_per_section.sort();
        (rows_per_section[rows_per_section.len() / 2] >= 2).then_some(sections)
    }

    /// Whether the container sits in a sidebar, footer, navigation or comment section.
    fn placement(&self, container: NodeId, slot: Option<NodeId>) -> f32 {
        let doc = self.doc;
        let mut placement: f32 = 1.0;
        let chain = || slot.into_iter().chain(std::iter::once(container)).chain(doc.ancestors(container));
        let in_main = chain().any(|n| is_main(doc, n));
        for node in chain() {
            if doc.tag(node).is_none_or(|tag| tag == "body" || tag == "html") {
                break;
            }
            if self.off_list(node) {
                placement = placement.min(0.15);
            } else if is_secondary(doc, node, in_main) {
                placement = placement.min(0.5);
            }
            // Above the page's main element are only page-wide wrappers ("main-and-footer").
            if is_main(doc, node) {
                break;
            }
        }
        placement
    }

    /// A sidebar, footer, navigation or comment section (by tag, class or id).
    fn off_list(&self, node: NodeId) -> bool {
        let doc = self.doc;
        doc.tag(node).is_some_and(|tag| OFF_LIST_TAGS.contains(&tag)) || has_word(doc, node, OFF_LIST)
    }

    /// How much a block looks like the page's item list.
    fn score(&self, list: &List) -> f32 {
        let items: Vec<&Record> = list.records.iter().filter(|r| r.headline.is_some()).collect();
        if items.is_empty() {
            return 0.0;
        }
        let distinct: HashSet<&Url> = items.iter().filter_map(|r| r.headline.map(|h| &self.links[h].url)).collect();
        let valid = distinct.len() as f32;
        let share = valid / list.records.len() as f32;
        let title_chars: f32 =
            items.iter().filter_map(|r| r.headline).map(|h| self.links[h].text.chars().count() as f32).sum::<f32>()
                / items.len() as f32;
        let title_factor = if title_chars < 4.0 { 0.3 } else { 1.0 };
        let text_chars: f32 =
            items.iter().map(|r| self.text_chars(r.start, r.end) as f32).sum::<f32>() / items.len() as f32;
        let text_factor = 1.0 + 0.25 * (1.0 + text_chars / 100.0).ln();
        let precision = {
            let anchors: Vec<&TimeNode> = items.iter().filter_map(|r| r.anchor).map(|a| &self.nodes[a]).collect();
            let coarse = anchors.iter().filter(|n| n.precision < Precision::Day).count();
            let hidden = anchors.iter().filter(|n| n.source == TimeSource::Attribute).count();
            let dayless = anchors.iter().filter(|n| n.shows_no_day()).count();
            let mut factor = 1.0;
            if coarse * 2 > anchors.len() {
                factor *= 0.4;
            }
            if hidden * 2 > anchors.len() {
                factor *= 0.7;
            }
            // A time of day with no day takes its day from the clock. A list of such times
            // alone is today's; beside dates that name the day in the same records, the times
            // are a video's length or a clock's, and those dates are the items'.
            if dayless * 2 > anchors.len() {
                factor *= 0.8;
            }
            factor
        };
        valid * share * share * title_factor * text_factor * precision * list.placement
    }

    fn text_chars(&self, start: NodeId, end: NodeId) -> usize {
        (start.0..end.0).filter_map(|i| self.doc.text_node(NodeId(i))).map(|t| t.trim().chars().count()).sum()
    }

    /// 0 to 1: how clearly the page's list was found.
    fn confidence(&self, candidates: &[Candidate], best: f32, items: usize) -> f32 {
        let Some(chosen) = candidates.iter().find(|c| c.selected && c.score >= best) else { return 0.0 };
        let share = chosen.list.with_headline() as f32 / chosen.list.records.len().max(1) as f32;
        let size = (items as f32 / 5.0).min(1.0);
        // A rival list nearly as good as the chosen one makes the choice doubtful.
        let rival = candidates.iter().filter(|c| !c.selected).map(|c| c.score).fold(0.0, f32::max);
        let margin = if best > 0.0 { 1.0 - 0.5 * (rival / best).min(1.0) } else { 0.0 };
        (share * size.sqrt() * margin * chosen.list.placement).clamp(0.0, 1.0)
    }

    /// A record as a feed item.
    fn item(&self, record: &Record) -> Option<Item> {
        let doc = self.doc;
        let link = &self.links[record.headline?];
        let date_node = record.anchor.map(|a| &self.nodes[a]);
        let title = title_of(doc, link, date_node);
        if title.is_empty() {
            return None;
        }
        let mut item = Item::new(title);
        item.link = Some(link.url.clone());
        item.date = date_node.map(|n| n.date);
        item.description = self.description(record, link);
        item.author = self.author(record);
        Some(item)
    }

    /// The item's text without its title, its dates and its "read more" / tag links.
    fn description(&self, record: &Record, headline: &Link) -> Option<String> {
        let dates: Vec<NodeId> = record.dates.iter().map(|&d| self.nodes[d].node).collect();
        record::description(self.doc, self.links, record.start, record.end, headline, &dates)
    }

    /// An author named in the item.
    fn author(&self, record: &Record) -> Option<String> {
        record::author(self.doc, record.start, record.end)
    }

    /// The subject title of a block (paper: FindSubject): the nearest heading before the
    /// block's first item, among the preceding siblings of the container and its ancestors.
    fn subject_title(&self, list: &List, item_urls: &HashSet<&Url>) -> Option<String> {
        let doc = self.doc;
        let first = list.records.first()?.start;
        let mut node = first;
        for _ in 0..3 {
            let parent = doc.parent(node)?;
            if doc.tag(parent).is_none_or(|t| t == "body" || t == "html") {
                return None;
            }
            let siblings = doc.children(parent);
            let at = siblings.iter().position(|&c| c == node).unwrap_or(0);
            for &sibling in siblings[..at].iter().rev().take(6) {
                // Sidebars, menus and the page banner hold headings of their own.
                if self.off_list(sibling) || doc.attr(sibling, "role") == Some("banner") {
                    continue;
                }
                // A sibling with several headlines is another list (or a featured item), not a
                // title; a section heading may link to its section.
                let mut headlines = self.headlines_in(sibling, doc.node(sibling).end);
                let first = headlines.next();
                if headlines.next().is_some() || first.is_some_and(|l| item_urls.contains(&l.url)) {
                    return None;
                }
                if let Some(title) = self.heading_in(sibling) {
                    return Some(title);
                }
            }
            node = parent;
        }
        None
    }

    fn heading_in(&self, node: NodeId) -> Option<String> {
        let doc = self.doc;
        let is_heading = |n: NodeId| {
            doc.tag(n).is_some_and(|t| matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "caption" | "legend"))
        };
        let heading = std::iter::once(node).chain(doc.descendants(node)).filter(|&n| is_heading(n)).last()?;
        // A section title is short and stands alone; a heading inside a link that wraps more
        // than the heading is a featured item.
        let in_item_link = std::iter::once(heading)
            .chain(doc.ancestors(heading))
            .take_while(|&a| doc.contains(node, a))
            .any(|a| doc.is_tag(a, "a") && doc.text(a) != doc.text(heading));
        let text = doc.text(heading);
        (!text.is_empty() && text.chars().count() <= MAX_SUBJECT_CHARS && !in_item_link).then_some(text)
    }
}

/// Choose the blocks that are the page's item lists; returns their time nodes in page order.
fn select(view: &PageView, candidates: &mut [Candidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| candidates[b].score.total_cmp(&candidates[a].score));
    let Some(&best) = order.first() else { return Vec::new() };
    // Dates only in a sidebar, footer or comment section: the page has no dated list of its own.
    let best_list = &candidates[best].list;
    if candidates[best].score <= 0.0 || best_list.with_headline() < 2 || best_list.placement < 0.5 {
        return Vec::new();
    }
    candidates[best].selected = true;
    let best_score = candidates[best].score;
    let best_container = candidates[best].list.container;
    let mut links: HashSet<Url> = HashSet::new();
    let headline_urls = |list: &List| -> Vec<Url> {
        list.records.iter().filter_map(|r| r.headline.map(|h| view.links[h].url.clone())).collect()
    };
    links.extend(headline_urls(&candidates[best].list));
    let best_shape = record::usual_url_shape(links.iter(), candidates[best].list.records.len());
    for &c in &order[1..] {
        let candidate = &candidates[c];
        let urls = headline_urls(&candidate.list);
        if urls.is_empty() || candidate.list.placement < 1.0 {
            continue;
        }
        let repeated = urls.iter().filter(|u| links.contains(*u)).count();
        if repeated * 2 > urls.len() {
            continue;
        }
        let container = candidate.list.container;
        // The same list with another date format, or one of its records alone.
        let same_list = (view.doc.contains(best_container, container)
            || view.doc.parent(container) == Some(best_container))
            && candidate.score >= 0.1 * best_score;
        // Another list of the page: a section of a portal.
        let sibling_list = candidate.score >= 0.3 * best_score
            && urls.len() >= 2
            && candidate.list.with_headline() * 2 >= candidate.list.records.len();
        // More records of the same kind elsewhere: a featured first post, a section of one.
        let same_kind = candidate.group == candidates[best].group
            && candidate.list.shape == candidates[best].list.shape
            && candidate.score >= 0.1 * best_score;
        // A lead story above the list (a newspaper section's top story, a featured post): one
        // record before the list and near it, titled by a heading, leading to a page of the
        // address shape the list's headlines share.
        let lead = candidate.list.records.len() == 1
            && container < best_container
            && !view.doc.contains(container, best_container)
            && view.doc.ancestors(best_container).take(record::LEAD_LEVELS).any(|a| view.doc.contains(a, container))
            && best_shape.as_deref().is_some_and(|shape| record::url_shape(&urls[0]) == shape)
            && candidate.list.records[0]
                .headline
                .is_some_and(|h| record::marked_as_title(view.doc, view.links, &view.links[h]));
        if same_list || sibling_list || same_kind || lead {
            candidates[c].selected = true;
            links.extend(urls);
        }
    }
    let mut chosen: Vec<usize> = candidates
        .iter()
        .filter(|c| c.selected)
        .flat_map(|c| c.list.records.iter().flat_map(|r| r.dates.iter().copied()))
        .collect();
    chosen.sort();
    chosen.dedup();
    chosen
}

fn median_gap(positions: &[usize]) -> usize {
    let mut gaps: Vec<usize> = positions.windows(2).map(|w| w[1].saturating_sub(w[0])).collect();
    if gaps.is_empty() {
        return 1;
    }
    gaps.sort();
    gaps[gaps.len() / 2]
}
