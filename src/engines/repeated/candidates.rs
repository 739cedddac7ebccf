//! Candidate lists of records: clusters of sibling elements of one kind that each hold a
//! headline link, merged across containers of one kind, read and scored (see the module docs).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;
use url::Url;

use crate::dom::{Document, NodeId};
use crate::engines::links::Link;
use crate::engines::record::{
    HeadlineSlot, LEAD_LEVELS, OFF_LIST, OFF_LIST_TAGS, align_headlines, has_title, has_word, is_heading, is_main,
    is_secondary, link_range, links_in, marked_as_title, tag_path, title_of, url_shape, usual_url_shape,
};
use crate::engines::timepattern::db::is_cjk;

/// Elements whose content is not page text, and children that never start a record.
const HIDDEN: &[&str] = &["script", "style", "template", "noscript", "head", "svg", "select", "textarea"];
const NOT_RECORDS: &[&str] = &["script", "style", "template", "noscript", "br", "hr", "wbr", "link", "meta", "input"];

/// Class words that say which state a record is in, not which kind of record it is (zebra
/// stripes, the first or current entry, a pinned post).
const STATE_WORDS: &[&str] = &[
    "odd",
    "even",
    "alt",
    "first",
    "last",
    "active",
    "current",
    "selected",
    "open",
    "hover",
    "new",
    "hot",
    "sticky",
    "featured",
    "pinned",
    "highlight",
    "highlighted",
    "visible",
    "hidden",
    "show",
    "fade",
    "in",
];
/// Prefixes of class words that generators put on each record for its own category, tags,
/// format or author (WordPress `post_class()`: `category-news tag-rust format-video`), and for
/// what it happens to hold (`has-post-thumbnail`, Hugo Stack's `has-image` on posts with a
/// cover and none on the others, `no-image`, `with-excerpt`), and the category classes by which
/// a script filters a grid (Isotope's and MixItUp's `filter-print`, `cat-news`, `term-12`).
const PER_RECORD_PREFIXES: &[&str] = &[
    "category-",
    "cat-",
    "term-",
    "filter-",
    "tag-",
    "format-",
    "author-",
    "status-",
    "has-",
    "no-",
    "with-",
    "without-",
];
/// Class/id words of containers that are no item list (beyond the time-pattern engine's).
const OFF_LIST_MORE: &[&str] = &["tagcloud", "share", "social", "toc"];
/// Class/id words of a pager. An element so named that wraps a list of titles is no pager but
/// the list's wrapper, named for the script that pages it (Divi's
/// `et_pb_ajax_pagination_container`, "load more" themes): a pager's links are page numbers.
const PAGER: &[&str] = &["pagination", "pager"];
/// Landmark roles of page parts that are no item list.
const OFF_LIST_ROLES: &[&str] = &["navigation", "banner", "contentinfo", "complementary", "menu", "menubar"];

/// Two children are of one kind when at least this share of their class words is common.
const SAME_KIND: f32 = 0.5;
/// Headline length (weighted characters, a CJK character counting two) from which a list
/// reads as titles rather than as menu entries or tags.
const TITLE_CHARS: f32 = 20.0;
/// The least title factor: short titles make a list unlikely, not impossible.
const MIN_TITLE_FACTOR: f32 = 0.05;
/// Placement factors: a sidebar, footer, menu or comment section; a "recent posts" widget;
/// a list outside the page's `<main>`.
const OFF_LIST_PLACEMENT: f32 = 0.15;
const SECONDARY_PLACEMENT: f32 = 0.5;
const OUTSIDE_MAIN: f32 = 0.5;

/// One record of a list.
#[derive(Debug, Clone)]
pub struct Record {
    /// The list's container: the parent of the record's element.
    pub container: NodeId,
    /// The element of the cluster that starts the record.
    pub element: NodeId,
    /// The record's extent in pre-order, `start..end`: the element, and where the elements of
    /// its kind are not adjacent, its following siblings up to the next record.
    pub start: NodeId,
    pub end: NodeId,
    /// The record's headline (an index into the page's links), inside the element.
    pub headline: Option<usize>,
}

/// Why a candidate scores what it does; the score is their product (see the module docs).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Factors {
    pub records: usize,
    /// Records with a headline, counted once per headline URL and title.
    pub headlines: usize,
    /// `headlines / records`.
    pub share: f32,
    /// Mean headline length (weighted characters) and its factor.
    pub title_chars: f32,
    pub title: f32,
    /// Mean text outside links per record (weighted characters) and its factor.
    pub text_chars: f32,
    pub text: f32,
    /// Mean share of a record's headline-link text that goes to its own headline's URL.
    pub focus: f32,
    /// 1 in the main content; less in sidebars, footers, menus, "recent posts".
    pub placement: f32,
    /// 1 inside the page's `<main>` (or a page without one), less outside it.
    pub main: f32,
}

/// A list of records of one kind, under one or more containers of one kind.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The containers, in page order.
    pub containers: Vec<NodeId>,
    /// `tag.class.words` the records share.
    pub signature: String,
    pub records: Vec<Record>,
    pub factors: Factors,
    pub score: f32,
}

impl Candidate {
    /// Two or more records with distinct headlines.
    pub fn is_list(&self) -> bool {
        self.factors.headlines >= 2 && self.score > 0.0
    }

    /// Records found beside the list's own, with their containers, kept in page order.
    fn add_records(&mut self, records: Vec<Record>) {
        for record in records {
            if !self.containers.contains(&record.container) {
                self.containers.push(record.container);
            }
            self.records.push(record);
        }
        self.containers.sort();
        self.records.sort_by_key(|r| r.start);
    }

    /// The headline URLs of the records, in page order (repeats included).
    pub fn headline_urls<'l>(&self, links: &'l [Link]) -> impl Iterator<Item = &'l Url> + use<'l, '_> {
        self.records.iter().filter_map(|r| r.headline.map(|h| &links[h].url))
    }

    /// The page's content text (outside headers, menus, sidebars and footers) that lies
    /// outside the records' elements, in weighted characters: next to nothing on an archive page (even
    /// one its metadata calls an article), an article's whole text beside its related links.
    pub fn text_beside(&self, doc: &Document) -> u32 {
        let mut beside = 0u32;
        let mut record = 0;
        let mut i = 0u32;
        while (i as usize) < doc.len() {
            let id = NodeId(i);
            if let Some(tag) = doc.tag(id) {
                // `<body class="right-sidebar">` says where the sidebar is, not that it is one.
                let page_wide = matches!(tag, "html" | "body");
                if HIDDEN.contains(&tag) || (!page_wide && off_list(doc, id)) {
                    i = doc.node(id).end.0;
                    continue;
                }
            } else if let Some(text) = doc.text_node(id) {
                // The records' own elements: text between them (paragraphs around a list of
                // pictures, prose around links) is beside the list.
                let element_end = |r: &Record| doc.node(r.element).end;
                while record < self.records.len() && element_end(&self.records[record]) <= id {
                    record += 1;
                }
                if self.records.get(record).is_none_or(|r| r.element > id) {
                    beside += weight(text);
                }
            }
            i += 1;
        }
        beside
    }

    /// 0 to 1, from the structure alone: most records have a headline, there are enough of them,
    /// no rival scores nearly as well, and the list is in the main content.
    pub fn structure_confidence(&self, rival: f32) -> f32 {
        let f = &self.factors;
        let size = (f.headlines as f32 / 5.0).min(1.0).sqrt();
        let margin = if self.score > 0.0 { 1.0 - 0.5 * (rival / self.score).min(1.0) } else { 0.0 };
        (f.share * size * margin * f.placement * f.main).clamp(0.0, 1.0)
    }
}

/// Weighted characters: a CJK character carries about two Latin letters' worth of text.
pub fn weight(text: &str) -> u32 {
    text.chars().filter(|c| !c.is_whitespace()).map(|c| if is_cjk(c) { 2 } else { 1 }).sum()
}

/// Prefix sums of visible text, all of it and the part inside links, by node id: the text of
/// any range of the page in constant time.
struct TextIndex {
    total: Vec<u32>,
    linked: Vec<u32>,
}

impl TextIndex {
    fn build(doc: &Document) -> TextIndex {
        let n = doc.len();
        let mut total = vec![0u32; n + 1];
        let mut linked = vec![0u32; n + 1];
        let (mut hidden_until, mut link_until) = (0u32, 0u32);
        for i in 0..n as u32 {
            let id = NodeId(i);
            let mut chars = 0;
            let mut in_link = 0;
            if i >= hidden_until {
                if let Some(tag) = doc.tag(id) {
                    if HIDDEN.contains(&tag) {
                        hidden_until = doc.node(id).end.0;
                    } else if tag == "a" && i >= link_until {
                        link_until = doc.node(id).end.0;
                    }
                } else if let Some(text) = doc.text_node(id) {
                    chars = weight(text);
                    if i < link_until {
                        in_link = chars;
                    }
                }
            }
            total[i as usize + 1] = total[i as usize] + chars;
            linked[i as usize + 1] = linked[i as usize] + in_link;
        }
        TextIndex { total, linked }
    }

    fn text(&self, start: NodeId, end: NodeId) -> u32 {
        self.total[end.index()] - self.total[start.index()]
    }

    fn unlinked(&self, start: NodeId, end: NodeId) -> u32 {
        self.text(start, end) - (self.linked[end.index()] - self.linked[start.index()])
    }
}

/// A child's kind: its tag and class words.
struct Kind<'d> {
    tag: &'d str,
    words: Vec<String>,
}

/// The class words that say what kind of element this is (see [`STATE_WORDS`] and
/// [`PER_RECORD_PREFIXES`]; words with digits are ids and counters), sorted.
fn class_words(doc: &Document, node: NodeId) -> Vec<String> {
    let all: Vec<String> =
        doc.attr(node, "class").unwrap_or_default().split_whitespace().map(str::to_lowercase).collect();
    // A BEM modifier (`card--featured` beside `card`) varies the look of one record of a kind.
    let modifier = |w: &str| w.split_once("--").is_some_and(|(block, _)| all.iter().any(|b| b == block));
    let mut words: Vec<String> = all
        .iter()
        .filter(|w| {
            !w.chars().any(|c| c.is_ascii_digit())
                && !STATE_WORDS.contains(&w.as_str())
                && !PER_RECORD_PREFIXES.iter().any(|p| w.starts_with(p))
                && !modifier(w)
        })
        .cloned()
        .collect();
    words.sort();
    words.dedup();
    words
}

fn overlap(a: &[String], b: &[String]) -> f32 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let common = a.iter().filter(|w| b.binary_search(w).is_ok()).count();
    common as f32 / (a.len() + b.len() - common) as f32
}

/// A cluster of children of one kind under one container.
struct RawList {
    container: NodeId,
    signature: String,
    records: Vec<Record>,
}

/// Every candidate list of the page, scored (unsorted).
pub fn candidates(doc: &Document, links: &[Link]) -> Vec<Candidate> {
    let text = TextIndex::build(doc);
    let headline_nodes: Vec<NodeId> = links.iter().filter(|l| l.is_headline()).map(|l| l.node).collect();
    let headlines_in = |start: NodeId, end: NodeId| {
        headline_nodes.partition_point(|&n| n < end) - headline_nodes.partition_point(|&n| n < start)
    };
    let mut raw: Vec<RawList> = Vec::new();
    let mut i = 0u32;
    while (i as usize) < doc.len() {
        let id = NodeId(i);
        i += 1;
        let Some(tag) = doc.tag(id) else { continue };
        if HIDDEN.contains(&tag) {
            i = doc.node(id).end.0;
            continue;
        }
        if headlines_in(id, doc.node(id).end) < 2 {
            // Nothing below can hold two records.
            i = doc.node(id).end.0;
            continue;
        }
        raw.extend(lists_under(doc, id, &headlines_in));
    }
    let main = doc.ids().find(|&n| is_main(doc, n));
    merge(doc, raw)
        .into_iter()
        .map(|(mut containers, signature, mut records)| {
            add_lone_records(doc, &headlines_in, &mut containers, &signature, &mut records);
            score(doc, links, &text, main, containers, signature, records)
        })
        .collect()
}

/// A section of a list that holds a single record (a day with one post, a category with one
/// paper) is no list of its own: next to the list's containers, a container of their kind
/// (tag and class words) gives its records of the list's kind too.
fn add_lone_records(
    doc: &Document,
    headlines_in: &impl Fn(NodeId, NodeId) -> usize,
    containers: &mut Vec<NodeId>,
    signature: &str,
    records: &mut Vec<Record>,
) {
    let mut parts = signature.split('.');
    let tag = parts.next().unwrap_or_default();
    let words: Vec<&str> = parts.collect();
    let of_kind = |node: NodeId| {
        doc.tag(node) == Some(tag) && {
            let own = class_words(doc, node);
            words.iter().all(|w| own.iter().any(|o| o == w))
        }
    };
    let same_kind = |a: NodeId, b: NodeId| doc.tag(a) == doc.tag(b) && class_words(doc, a) == class_words(doc, b);
    // Sections beside the containers, and sections one level down in wrappers of the kind that
    // wraps the containers (`<section class="year"><h2>2019</h2><ul>…</ul></section>`).
    let mut parents: Vec<NodeId> = containers.iter().filter_map(|&c| doc.parent(c)).collect();
    parents.dedup();
    let mut places = parents.clone();
    for &parent in &parents {
        if let Some(grandparent) = doc.parent(parent) {
            places.extend(doc.children(grandparent).iter().copied().filter(|&a| a != parent && same_kind(a, parent)));
        }
    }
    places.sort_unstable();
    places.dedup();
    let mut found = Vec::new();
    for parent in places {
        for &sibling in doc.children(parent) {
            if containers.contains(&sibling) || found.iter().any(|r: &Record| r.container == sibling) {
                continue;
            }
            if !same_kind(sibling, containers[0]) {
                continue;
            }
            let members: Vec<NodeId> = doc.children(sibling).iter().copied().filter(|&c| of_kind(c)).collect();
            for (k, &element) in members.iter().enumerate() {
                if headlines_in(element, doc.node(element).end) == 0 {
                    continue;
                }
                let end = members.get(k + 1).copied().unwrap_or(doc.node(sibling).end);
                found.push(Record { container: sibling, element, start: element, end, headline: None });
            }
        }
    }
    for record in found {
        if !containers.contains(&record.container) {
            containers.push(record.container);
        }
        records.push(record);
    }
    containers.sort();
    records.sort_by_key(|r| r.start);
}

/// The clusters of `container`'s children that hold two or more records with headline links.
fn lists_under(doc: &Document, container: NodeId, headlines_in: &impl Fn(NodeId, NodeId) -> usize) -> Vec<RawList> {
    let children: Vec<NodeId> = doc
        .children(container)
        .iter()
        .copied()
        .filter(|&c| doc.tag(c).is_some_and(|t| !NOT_RECORDS.contains(&t)))
        .collect();
    if children.len() < 2 {
        return Vec::new();
    }
    // Greedy clustering: a child joins the first cluster whose first member is of its kind.
    let mut clusters: Vec<(Kind, Vec<usize>)> = Vec::new();
    for (position, &child) in children.iter().enumerate() {
        let kind = Kind { tag: doc.tag(child).unwrap_or_default(), words: class_words(doc, child) };
        match clusters.iter_mut().find(|(k, _)| k.tag == kind.tag && overlap(&k.words, &kind.words) >= SAME_KIND) {
            Some((_, members)) => members.push(position),
            None => clusters.push((kind, vec![position])),
        }
    }
    let mut lists = Vec::new();
    for (kind, positions) in clusters {
        if positions.len() < 2 {
            continue;
        }
        let with_headline =
            positions.iter().filter(|&&p| headlines_in(children[p], doc.node(children[p]).end) > 0).count();
        if with_headline < 2 {
            continue;
        }
        // Where records of one kind are not adjacent, a record runs up to the next one; the last
        // one as far as the typical distance between records.
        let period = median_gap(&positions);
        let records = positions
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let element = children[p];
                let end = match positions.get(k + 1) {
                    Some(&next) => children[next],
                    None => children.get(p + period).copied().unwrap_or(doc.node(container).end),
                };
                Record { container, element, start: element, end, headline: None }
            })
            .collect();
        // The words all members share name the kind.
        let common: Vec<String> = kind
            .words
            .iter()
            .filter(|w| positions.iter().all(|&p| class_words(doc, children[p]).contains(w)))
            .cloned()
            .collect();
        let signature = std::iter::once(kind.tag.to_string()).chain(common).collect::<Vec<_>>().join(".");
        lists.push(RawList { container, signature, records });
    }
    lists
}

fn median_gap(positions: &[usize]) -> usize {
    let mut gaps: Vec<usize> = positions.windows(2).map(|w| w[1] - w[0]).collect();
    if gaps.is_empty() {
        return 1;
    }
    gaps.sort_unstable();
    gaps[gaps.len() / 2].max(1)
}

/// The kind of a container: tag and class words of it and every ancestor.
fn key_path(doc: &Document, node: NodeId) -> String {
    let mut steps: Vec<String> = std::iter::once(node)
        .chain(doc.ancestors(node))
        .filter_map(|n| {
            doc.tag(n)
                .map(|tag| std::iter::once(tag.to_string()).chain(class_words(doc, n)).collect::<Vec<_>>().join("."))
        })
        .collect();
    steps.reverse();
    steps.join("/")
}

/// Lists of the same kind of records under containers of the same kind are one candidate (the
/// sections of a page, the rows of a grid), in page order.
fn merge(doc: &Document, raw: Vec<RawList>) -> Vec<(Vec<NodeId>, String, Vec<Record>)> {
    let mut order: Vec<(String, String)> = Vec::new();
    let mut groups: HashMap<(String, String), (Vec<NodeId>, Vec<Record>)> = HashMap::new();
    for list in raw {
        let key = (key_path(doc, list.container), list.signature);
        let group = groups.entry(key.clone()).or_insert_with(|| {
            order.push(key.clone());
            (Vec::new(), Vec::new())
        });
        group.0.push(list.container);
        group.1.extend(list.records);
    }
    order
        .into_iter()
        .filter_map(|key| {
            let (containers, mut records) = groups.remove(&key)?;
            records.sort_by_key(|r| r.start);
            Some((containers, key.1, records))
        })
        .collect()
}

/// Choose each record's headline and score the list.
fn score(
    doc: &Document,
    links: &[Link],
    text: &TextIndex,
    main: Option<NodeId>,
    containers: Vec<NodeId>,
    signature: String,
    mut records: Vec<Record>,
) -> Candidate {
    choose_headlines(doc, links, &mut records);
    drop_index_links(links, &mut records);
    // Items have links and titles of their own: a title that repeats from record to record
    // (`pdf`, `Download`, `Buy now`) names an action, not an item.
    let mut seen_urls: HashSet<&Url> = HashSet::new();
    let mut seen_titles: HashSet<String> = HashSet::new();
    let mut distinct = 0;
    let (mut titles, mut unlinked, mut focus, mut headed) = (0.0f32, 0.0f32, 0.0f32, 0usize);
    for record in &records {
        let Some(h) = record.headline else { continue };
        let link = &links[h];
        headed += 1;
        let title = title_of(doc, link, None);
        if seen_urls.insert(&link.url) && seen_titles.insert(title.to_lowercase()) {
            distinct += 1;
        }
        titles += weight(&title) as f32;
        unlinked += text.unlinked(record.start, record.end) as f32;
        let (mut own, mut all) = (0u32, 0u32);
        for other in links_in(links, record.start, record.end).iter().filter(|l| l.is_headline()) {
            let w = weight(&other.text).max(1);
            all += w;
            if other.url == link.url {
                own += w;
            }
        }
        focus += if all == 0 { 1.0 } else { own as f32 / all as f32 };
    }
    let mut factors = Factors { records: records.len(), headlines: distinct, ..Factors::default() };
    if headed > 0 {
        let n = headed as f32;
        factors.share = factors.headlines as f32 / records.len() as f32;
        factors.title_chars = titles / n;
        factors.title = (factors.title_chars / TITLE_CHARS).min(1.0).powf(1.5).max(MIN_TITLE_FACTOR);
        factors.text_chars = unlinked / n;
        factors.text = 1.0 + 0.25 * (1.0 + factors.text_chars / 100.0).ln();
        factors.focus = focus / n;
        factors.placement = placement(doc, containers[0], factors.title_chars >= TITLE_CHARS);
        factors.main = main_factor(doc, main, containers[0]);
    }
    let f = &factors;
    let score = f.headlines as f32 * f.share * f.share * f.title * f.text * f.focus * f.placement * f.main;
    Candidate { containers, signature, records, factors, score }
}

/// Each record's best headline link inside its element, then the list's headline place
/// ([`align_headlines`]).
fn choose_headlines(doc: &Document, links: &[Link], records: &mut [Record]) {
    let usable = |i: usize| links[i].is_headline() && has_title(doc, &links[i]);
    for record in records.iter_mut() {
        let inside = link_range(links, record.element, doc.node(record.element).end);
        record.headline = inside.filter(|&i| usable(i)).fold(None::<usize>, |best, i| match best {
            Some(b) if links[b].quality >= links[i].quality => Some(b),
            _ => Some(i),
        });
    }
    let mut slots: Vec<HeadlineSlot> = records
        .iter()
        .map(|r| HeadlineSlot {
            top: r.container,
            start: r.element,
            end: doc.node(r.element).end,
            headline: r.headline,
        })
        .collect();
    align_headlines(doc, links, &mut slots, |link, _| usable(link));
    for (record, slot) in records.iter_mut().zip(slots) {
        record.headline = slot.headline;
    }
}

/// A headline whose URL is the folder of two or more other headlines of the list (`/posts/`
/// above `/posts/a/` and `/posts/b/`, or the site's root) is the list's own index ("all posts",
/// "archives", "home"), not an item.
fn drop_index_links(links: &[Link], records: &mut [Record]) {
    let folders = |url: &Url| -> Vec<String> {
        let segments: Vec<&str> =
            url.path_segments().map(|s| s.filter(|s| !s.is_empty()).collect()).unwrap_or_default();
        (0..segments.len())
            .map(|k| format!("{}/{}", url.host_str().unwrap_or_default(), segments[..k].join("/")))
            .collect()
    };
    let mut below: HashMap<String, usize> = HashMap::new();
    let mut seen: HashSet<&Url> = HashSet::new();
    for r in records.iter() {
        if let Some(h) = r.headline
            && seen.insert(&links[h].url)
        {
            for folder in folders(&links[h].url) {
                *below.entry(folder).or_default() += 1;
            }
        }
    }
    for r in records.iter_mut() {
        let Some(h) = r.headline else { continue };
        let url = &links[h].url;
        if url.query().is_some() {
            continue;
        }
        let own = format!(
            "{}/{}",
            url.host_str().unwrap_or_default(),
            url.path_segments().map(|s| s.filter(|s| !s.is_empty()).collect::<Vec<_>>().join("/")).unwrap_or_default()
        );
        if below.get(&own).is_some_and(|&n| n >= 2) {
            r.headline = None;
        }
    }
}

/// A page part that holds no item list: a sidebar, footer, menu, pager or comment section by
/// tag, landmark role, class or id; the page's header (a `<header>` that is no article's).
fn off_list(doc: &Document, node: NodeId) -> bool {
    off_list_but_pager(doc, node) || has_word(doc, node, PAGER)
}

/// [`off_list`] but for a pager's name.
fn off_list_but_pager(doc: &Document, node: NodeId) -> bool {
    let tag = doc.tag(node).unwrap_or_default();
    OFF_LIST_TAGS.contains(&tag)
        || (tag == "header" && !doc.ancestors(node).any(|a| doc.is_tag(a, "article")))
        || doc.attr(node, "role").is_some_and(|r| OFF_LIST_ROLES.contains(&r.trim().to_ascii_lowercase().as_str()))
        || has_word(doc, node, OFF_LIST)
        || has_word(doc, node, OFF_LIST_MORE)
}

/// Where the container sits: 1 in the main content, less in page parts that hold no item list
/// or that repeat other lists. Above the page's `<main>` are only page-wide wrappers. `titled`:
/// the records' headlines read as titles, so a wrapper named for paging is no pager.
fn placement(doc: &Document, container: NodeId, titled: bool) -> f32 {
    let mut placement: f32 = 1.0;
    let in_main = std::iter::once(container).chain(doc.ancestors(container)).any(|n| is_main(doc, n));
    for node in std::iter::once(container).chain(doc.ancestors(container)) {
        if doc.tag(node).is_none_or(|tag| tag == "body" || tag == "html") {
            break;
        }
        // A pager's name on a wrapper of the list's titles names the script that pages it.
        let pager = has_word(doc, node, PAGER) && !(titled && node != container);
        if off_list_but_pager(doc, node) || pager {
            placement = placement.min(OFF_LIST_PLACEMENT);
        } else if is_secondary(doc, node, in_main) {
            placement = placement.min(SECONDARY_PLACEMENT);
        }
        if is_main(doc, node) {
            break;
        }
    }
    placement
}

/// A list outside the page's declared main content (when it declares one) is less likely its
/// item list.
fn main_factor(doc: &Document, main: Option<NodeId>, container: NodeId) -> f32 {
    let Some(main) = main else { return 1.0 };
    if doc.contains(main, container) || doc.contains(container, main) { 1.0 } else { OUTSIDE_MAIN }
}

/// The other sections of a list: candidates whose records are of the chosen one's kind (the
/// same tag and class words, a kind the classes name) under containers of another kind (a
/// portal's topics, a homepage's "Projects" and "Posts"), placed at least as well, with
/// headlines of their own, and that `belongs` accepts. Their records join the chosen candidate,
/// one subject per section.
pub fn join_sections(
    links: &[Link],
    candidates: &mut [Candidate],
    chosen: usize,
    belongs: impl Fn(&Candidate) -> bool,
) {
    let kind = candidates[chosen].signature.clone();
    if !kind.contains('.') {
        return;
    }
    let (placement, main) = (candidates[chosen].factors.placement, candidates[chosen].factors.main);
    let mut urls: HashSet<Url> = candidates[chosen].headline_urls(links).cloned().collect();
    let mut joined = Vec::new();
    for (index, other) in candidates.iter().enumerate() {
        let fits = index != chosen
            && other.signature == kind
            && other.is_list()
            && other.factors.placement >= placement
            && other.factors.main >= main
            && other.headline_urls(links).all(|u| !urls.contains(u))
            && belongs(other);
        if fits {
            urls.extend(other.headline_urls(links).cloned());
            joined.push(index);
        }
    }
    for index in joined {
        let (containers, records) = (candidates[index].containers.clone(), candidates[index].records.clone());
        let target = &mut candidates[chosen];
        target.containers.extend(containers);
        target.records.extend(records);
        target.containers.sort();
        target.records.sort_by_key(|r| r.start);
    }
}

/// Sections of a list whose every headline leaves the page's site, when another section's lead
/// to the site's own pages: a site's posts are its own pages, and a section of the same kind
/// of record that only links elsewhere is a blogroll or the author's projects on a code host.
/// (A list whose every section links elsewhere, a link aggregator's, stays whole.) A section is
/// a container of records, or the records under one heading of a container (a hand-written
/// homepage's one column: a bio's paragraphs, then "Writing", then "Talks").
pub fn drop_offsite_sections(doc: &Document, links: &[Link], candidate: &mut Candidate) {
    let on_site = |url: &Url| doc.is_on_site(url);
    // The headings of the containers outside their records (a record's own title is no
    // section's), in page order; a record's section is the last one before it in its container.
    let in_record = |n: NodeId| candidate.records.iter().any(|r| doc.contains(r.element, n));
    let mut headings: Vec<NodeId> = candidate
        .containers
        .iter()
        .flat_map(|&c| doc.descendants(c).filter(|&n| is_heading(doc, n)))
        .filter(|&n| !in_record(n))
        .collect();
    headings.sort();
    let heading_above = |r: &Record| {
        let before = headings.partition_point(|&h| h < r.start);
        headings[..before].last().copied().filter(|&h| doc.contains(r.container, h))
    };
    let sections: Vec<(NodeId, Option<NodeId>)> =
        candidate.records.iter().map(|r| (r.container, heading_above(r))).collect();
    // (on-site headlines, headlines) of each section's records, in one pass.
    let mut counts: BTreeMap<(NodeId, Option<NodeId>), (usize, usize)> = BTreeMap::new();
    for (record, section) in candidate.records.iter().zip(&sections) {
        let (own, all) = counts.entry(*section).or_default();
        if let Some(h) = record.headline {
            *own += usize::from(on_site(&links[h].url));
            *all += 1;
        }
    }
    if counts.len() < 2 || !counts.values().any(|&(own, _)| own > 0) {
        return;
    }
    let elsewhere = |section: &(NodeId, Option<NodeId>)| counts[section].1 > 0 && counts[section].0 == 0;
    let mut sections = sections.iter();
    candidate.records.retain(|_| sections.next().is_none_or(|s| !elsewhere(s)));
    let kept: HashSet<NodeId> = candidate.records.iter().map(|r| r.container).collect();
    candidate.containers.retain(|c| kept.contains(c));
}

/// Lead stories above the list: a hero or featured post that a magazine or news theme shows in
/// a section of its own, marked up unlike the list's cards. In the list's region, before its
/// first record, a headline marked as a title (in or around a heading, a title class) that
/// leads to a new page of the address shape most of the records' headlines share is a record
/// too, if it shows a date where the records show theirs (`dated` says whether a range of
/// nodes holds a date). Sidebars, menus and page headers are not searched; nor is anything after the list.
pub fn add_leads(doc: &Document, links: &[Link], candidate: &mut Candidate, dated: impl Fn(NodeId, NodeId) -> bool) {
    let Some(first) = candidate.records.iter().map(|r| r.start).min() else { return };
    let Some(shape) = usual_url_shape(candidate.headline_urls(links), candidate.records.len()) else { return };
    // The lead of a list that dates its records shows its date too.
    let dated_list = 2 * candidate.records.iter().filter(|r| dated(r.start, r.end)).count() > candidate.records.len();
    let common = candidate.containers.iter().copied().reduce(|a, b| doc.common_ancestor(a, b)).unwrap_or(doc.root());
    // The hero often sits in a section of its own beside the list's section, a few wrappers up.
    let region =
        doc.ancestors(common).take(LEAD_LEVELS).take_while(|&a| !doc.is_tag(a, "html")).last().unwrap_or(common);
    let mut urls: HashSet<&Url> = candidate.headline_urls(links).collect();
    // A featured post set in an `<aside>` of its own (Pelican's default theme) is a lead, not a
    // sidebar: the aside holds that post's `<article>` and no headline outside it, where a
    // sidebar holds widgets of many links. The post's own links (its author, links in its
    // text) are inside its article.
    let featured_aside = |aside: NodeId, link: &Link| {
        let post = doc.descendants(aside).find(|&d| doc.is_tag(d, "article") && doc.contains(d, link.node));
        post.is_some_and(|post| {
            doc.is_tag(aside, "aside")
                && link_range(links, aside, doc.node(aside).end)
                    .all(|i| !links[i].is_headline() || links[i].url == link.url || doc.contains(post, links[i].node))
        })
    };
    let outside = |link: &Link| {
        doc.ancestors(link.node).take_while(|&a| a != region).any(|a| {
            (off_list(doc, a) && !featured_aside(a, link))
                || is_secondary(doc, a, false)
                || doc.tag(a).is_some_and(|t| HIDDEN.contains(&t))
        })
    };
    let mut leads = Vec::new();
    for (h, link) in links.iter().enumerate().take_while(|(_, l)| l.node < first) {
        if !doc.contains(region, link.node) || !link.is_headline() || urls.contains(&link.url) {
            continue;
        }
        if !marked_as_title(doc, links, link) || url_shape(&link.url) != shape || outside(link) {
            continue;
        }
        // The lead's element: the largest one around it that holds no other post (a link of
        // the posts' shape) and none of the list, so that its date and summary are its own.
        let mut element = link.node;
        while let Some(parent) = doc.parent(element).filter(|&p| p != region && !doc.contains(p, first)) {
            let others = link_range(links, parent, doc.node(parent).end)
                .any(|i| links[i].url != link.url && url_shape(&links[i].url) == shape);
            if others {
                break;
            }
            element = parent;
        }
        if dated_list && !dated(element, doc.node(element).end) {
            continue;
        }
        urls.insert(&link.url);
        let container = doc.parent(element).unwrap_or(region);
        leads.push(Record { container, element, start: element, end: doc.node(element).end, headline: Some(h) });
    }
    // A news section front shows a hero, a grid of cards and then a list of headlines, each
    // marked up its own way: all of them are the section's stories. More leads than the
    // list's own records, though, would overturn the ranking that chose this list over them.
    if leads.len() <= candidate.records.len() {
        candidate.add_records(leads);
    }
}

/// Records of the list's kind next to it: a featured first post in a wrapper of its own. In
/// the list's region (the parent of the containers' common ancestor), an
/// element of the records' tag and class words (a kind the classes name: plain `<li>`s are too
/// common to say anything) with a new headline on the records' usual headline path is a record
/// too. Sidebars, menus and "recent posts" inside the region are not searched.
pub fn add_same_kind(doc: &Document, links: &[Link], candidate: &mut Candidate) {
    let mut parts = candidate.signature.split('.');
    let tag = parts.next().unwrap_or_default().to_string();
    let words: Vec<String> = parts.map(str::to_string).collect();
    if words.is_empty() {
        return;
    }
    let mut paths: BTreeMap<String, usize> = BTreeMap::new();
    for r in &candidate.records {
        if let Some(h) = r.headline {
            *paths.entry(tag_path(doc, r.element, links[h].node)).or_default() += 1;
        }
    }
    let Some((path, _)) = paths.into_iter().max_by_key(|&(_, count)| count) else { return };
    let common = candidate.containers.iter().copied().reduce(|a, b| doc.common_ancestor(a, b)).unwrap_or(doc.root());
    let near = doc.parent(common).unwrap_or(common);
    // Up to where a lead story may sit: a magazine theme's header of featured cards of the
    // list's own kind is a section beside the list's (Ghost's Source), a few wrappers up.
    let region =
        doc.ancestors(common).take(LEAD_LEVELS).take_while(|&a| !doc.is_tag(a, "html")).last().unwrap_or(common);
    let of_kind = |n: NodeId| doc.tag(n) == Some(tag.as_str()) && overlap(&class_words(doc, n), &words) >= SAME_KIND;
    // Beyond the list's own wrapper, a section with a heading of its own ("Publications",
    // "Projects") is another list, which [`join_sections`] weighs; an untitled one (a header
    // of featured cards) goes on the list. The section: the largest wrapper of the element
    // that does not hold the list; its heading: one outside the cards.
    let in_titled_section = |n: NodeId| {
        let section = doc.ancestors(n).take_while(|&a| a != region && !doc.contains(a, common)).last();
        section.is_some_and(|s| {
            doc.descendants(s).any(|h| is_heading(doc, h) && !doc.ancestors(h).take_while(|&a| a != s).any(of_kind))
        })
    };
    let mut urls: Vec<&Url> = candidate.headline_urls(links).collect();
    let elements: Vec<NodeId> = candidate.records.iter().map(|r| r.element).collect();
    let mut found = Vec::new();
    let mut i = region.0 + 1;
    while i < doc.node(region).end.0 {
        let id = NodeId(i);
        i += 1;
        let Some(node_tag) = doc.tag(id) else { continue };
        let in_list = elements.iter().any(|&e| doc.contains(e, id) || doc.contains(id, e));
        let aside = off_list(doc, id) || is_secondary(doc, id, false) || HIDDEN.contains(&node_tag);
        if elements.contains(&id) || aside {
            i = doc.node(id).end.0;
            continue;
        }
        if in_list || !of_kind(id) || (!doc.contains(near, id) && in_titled_section(id)) {
            continue;
        }
        let inside = link_range(links, id, doc.node(id).end);
        let headline = inside.clone().find(|&h| {
            links[h].is_headline() && tag_path(doc, id, links[h].node) == path && !urls.contains(&&links[h].url)
        });
        if let Some(h) = headline {
            urls.push(&links[h].url);
            let container = doc.parent(id).unwrap_or(region);
            found.push(Record { container, element: id, start: id, end: doc.node(id).end, headline: Some(h) });
            i = doc.node(id).end.0;
        }
    }
    candidate.add_records(found);
}
