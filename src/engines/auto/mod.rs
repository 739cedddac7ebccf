//! The `auto` engine: time patterns (ATP), repeated patterns (ARP) and structured data on one
//! page, combined.
//!
//! The repeated-pattern engine proposes the candidate lists (every list of records of one kind
//! on the page, with a score from its structure). The other two vote:
//!
//! - **time patterns**: when the dates of the page make a list (two or more items), a candidate
//!   whose headlines are that list's items is weighed up by its agreement (F1 of the two sets of
//!   URLs: ×1 to ×2), and a candidate with none of them is halved;
//! - **structured data**: when the page declares items (JSON-LD, microdata, microformats,
//!   `<article>` with `<time>`), a candidate whose records are the marked elements (one mark
//!   per record) or whose headlines are the declared URLs is weighed up by that share, and one
//!   with none is halved.
//!
//! The best candidate after the votes gives the items, and each record takes its date from the
//! time patterns: the date of the time-pattern item with the same URL, else the date inside the
//! record of the kind most records have, else a JSON-LD date for its URL. When the time
//! patterns found a list that no candidate reproduces (at least half of its items), the dated
//! list wins: the dates are stronger evidence than a repeated structure that misses them.
//!
//! A page that declares itself one article (`og:type` `article`, JSON-LD about itself) keeps
//! only what the dates make: its undated lists are menus, tags and related links.
//!
//! Where the engines agree, confidence is high; [`Analysis::report`] lists the candidates with
//! their scores and votes and says why the winner won, for `inspect`.

pub mod suggest;

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use url::Url;

use crate::dom::{Document, NodeId, collapse_whitespace};
use crate::engines::article::Article;
use crate::engines::links::Link;
use crate::engines::record::{is_heading, marked_as_title, url_shape, usual_url_shape};
use crate::engines::regions::in_furniture;
use crate::engines::repeated::{self, Candidate, CandidateReport, Record};
use crate::engines::structured::{self, Source, Structured, StructuredReport, without_fragment};
use crate::engines::timepattern::{self, DateContext, DateRole, TimeNode, TimePatternDb};
use crate::engines::{Engine, Extraction};
use crate::model::Page;

/// A vote against a candidate (the other engine found a list, and none of it is here).
const AGAINST: f32 = 0.5;
/// Agreement (F1 of the URLs) from which the dated list and a candidate are one list.
const AGREES: f32 = 0.8;
/// The share of the time-pattern list a candidate must reproduce to be taken over it.
const COVERS_DATED_LIST: f32 = 0.5;

/// How the candidate lists fared.
pub struct Analysis {
    pub time: timepattern::Analysis,
    pub repeated: repeated::Analysis,
    pub structured: Structured,
    /// Candidate lists with their votes, best first.
    pub ranked: Vec<Ranked>,
    pub choice: Choice,
    pub extraction: Extraction,
    /// Most items show no date of their own on the page (before any is dated by its address):
    /// a related-links box of dated addresses is no dated list.
    pub undated: bool,
}

/// A main text of its own shorter than this (weighted characters: about 50 English words, or
/// 150 Chinese characters; a news brief is longer) is a teaser or a site's blurb, not an
/// article.
const MIN_ARTICLE_CHARS: usize = 300;
/// Text nodes shorter than this are not looked up in the main text: dates, counts and labels
/// appear anywhere, and a record's prose is made of longer runs.
const MIN_MATCHED_CHARS: usize = 12;
/// A main text of a short article (weighted characters: a sentence or two) is one when its
/// headline leads the page's list: below it, a sidebar's label or a comment.
const MIN_SHORT_ARTICLE_CHARS: usize = 80;
/// The least focus (share of a record's headline text that goes to its own item) of a list
/// that is a page's content: page blocks that hold an article and its comments spread over
/// many links.
const LIST_FOCUS: f32 = 0.8;
/// Shortest titles (on average; characters but spaces, a CJK character counting two) of a list
/// that is the page's content: a few words each ("More ranting" is 11, "Notes on walking" 14),
/// where a menu's or a tag list's labels are a word ("Archives", "About me": 7 or 8).
const LISTED_TITLE_CHARS: f32 = 11.0;
/// Most text of a record beside its title, per character of the title, in a list that is the
/// page's content: a teaser of a sentence or two (a title of 30 characters, a teaser of 100);
/// a page's blocks that each hold an article run to paragraphs.
const TEASER_TEXT_PER_TITLE: f32 = 4.0;
/// Text beside a list (characters) from which the list is not the page's content: about 80
/// English words, an article's length rather than an archive's introduction.
const MAX_TEXT_BESIDE_LIST: usize = 500;

/// A candidate of the repeated-pattern engine with the votes of the other two.
#[derive(Debug, Clone)]
pub struct Ranked {
    /// Index into `repeated.candidates`.
    pub candidate: usize,
    /// Agreement with the time-pattern list (None: the dates make no list).
    pub time_vote: Option<f32>,
    /// Share of the time-pattern list's items among the candidate's headlines.
    pub time_recall: Option<f32>,
    /// Agreement with the structured data (None: the page declares no list).
    pub structured_vote: Option<f32>,
    pub score: f32,
}

/// Which engine's list the page got.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "engine")]
pub enum Choice {
    /// The records of a repeated-pattern candidate (index into `ranked`).
    Repeated { rank: usize },
    /// The time-pattern engine's list.
    TimePattern,
    /// The one post the page shows (see [`lone_post`]).
    LonePost,
    /// No list.
    Nothing,
}

/// What `inspect` prints about the choice.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub choice: Choice,
    /// Why the choice was made.
    pub reason: String,
    pub time_pattern_items: usize,
    pub time_pattern_confidence: f32,
    pub structured: StructuredReport,
    pub candidates: Vec<RankedReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RankedReport {
    #[serde(flatten)]
    pub candidate: CandidateReport,
    pub time_vote: Option<f32>,
    pub structured_vote: Option<f32>,
    /// The score with the votes.
    pub final_score: f32,
    pub selected: bool,
}

/// How many candidates `inspect` shows.
const REPORTED: usize = 30;

/// The page's items: the one function other modules call.
pub fn extract(doc: &Document, db: &TimePatternDb, context: &DateContext) -> Extraction {
    analyze(doc, db, context).extraction
}

/// Everything the three engines saw and how the list was chosen.
pub fn analyze(doc: &Document, db: &TimePatternDb, context: &DateContext) -> Analysis {
    let time = timepattern::analyze(doc, db, context);
    let repeated = repeated::analyze(doc);
    let structured = structured::find(doc, context);

    let dated: HashSet<Url> =
        time.extraction.page.items().filter_map(|i| i.link.as_ref()).map(without_fragment).collect();
    let dated_list = dated.len() >= 2;
    let declared: HashSet<Url> = structured.declared.iter().map(|d| without_fragment(&d.url)).collect();
    let declares_list = structured.declares_list();

    let mut ranked: Vec<Ranked> = repeated
        .candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_list() && !(dated_list && splits_dated_records(c, &repeated.links, &dated)))
        .map(|(index, candidate)| {
            let urls: HashSet<Url> = candidate.headline_urls(&repeated.links).map(without_fragment).collect();
            let common = urls.intersection(&dated).count() as f32;
            let time_vote = dated_list.then(|| 2.0 * common / (urls.len() + dated.len()) as f32);
            let time_recall = dated_list.then(|| common / dated.len() as f32);
            let structured_vote =
                declares_list.then(|| structured_agreement(doc, candidate, &urls, &declared, &structured));
            let score = candidate.score * vote_factor(time_vote) * vote_factor(structured_vote);
            Ranked { candidate: index, time_vote, time_recall, structured_vote, score }
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score));

    let covers_dated = |r: &Ranked| r.time_recall.is_none_or(|recall| recall >= COVERS_DATED_LIST);
    // An article page's undated lists are its menus, tags and related links: only dates (or
    // a list the dates agree with) make items there. Unless the list is what the page holds:
    // generators declare every page an article, archives included.
    let holds_the_page = |r: &Ranked| {
        let candidate = &repeated.candidates[r.candidate];
        // A list of titles in the page's content, not links in prose or a page's blocks
        // (several records with titles of a few words or more, each about one item, that are
        // most of their text or head a teaser of a sentence or two), and no text of an
        // article's length beside it. A teaser's title is marked as one (a heading): paragraphs
        // of prose with a link each are no teasers.
        let f = &candidate.factors;
        let titled = || {
            candidate
                .records
                .iter()
                .all(|r| r.headline.is_some_and(|h| marked_as_title(doc, &repeated.links, &repeated.links[h])))
        };
        f.headlines >= 3
            && f.title_chars >= LISTED_TITLE_CHARS
            && (f.text_chars < f.title_chars || (f.text_chars < TEASER_TEXT_PER_TITLE * f.title_chars && titled()))
            && f.placement >= 1.0
            && f.focus >= LIST_FOCUS
            && (candidate.text_beside(doc) as usize) < MAX_TEXT_BESIDE_LIST
    };
    let article_page = structured.page_is_article && !ranked.first().is_some_and(holds_the_page);
    let choice = match ranked.first() {
        _ if article_page && !ranked.first().is_some_and(|r| r.time_vote.is_some_and(|v| v >= AGREES)) => {
            if time.extraction.page.item_count() > 0 { Choice::TimePattern } else { Choice::Nothing }
        }
        _ if dated_list && !ranked.iter().any(covers_dated) => Choice::TimePattern,
        Some(_) => Choice::Repeated { rank: 0 },
        None if time.extraction.page.item_count() > 0 => Choice::TimePattern,
        None => Choice::Nothing,
    };
    // A dated list is covered by some candidate, but maybe not the best one: the best one that
    // covers it wins over candidates that do not (they are other lists of the page).
    let choice = match choice {
        Choice::Repeated { .. } if dated_list && !covers_dated(&ranked[0]) => {
            Choice::Repeated { rank: ranked.iter().position(covers_dated).unwrap_or(0) }
        }
        other => other,
    };
    // No list in the page's content: the page may show one post.
    let in_content =
        |rank: usize| repeated.candidates[ranked[rank].candidate].records.iter().any(|r| !in_furniture(doc, r.element));
    let lone = match choice {
        Choice::Nothing => lone_post(doc, &time, &repeated, &structured),
        Choice::Repeated { rank } if !in_content(rank) => lone_post(doc, &time, &repeated, &structured),
        _ => None,
    };
    let choice = if lone.is_some() { Choice::LonePost } else { choice };

    let mut repeated = repeated;
    if let Choice::Repeated { rank } = choice {
        let chosen = ranked[rank].candidate;
        // On a page whose list shows dates, a section of such records that shows none, or
        // dates of another kind ("May, 2021" beside "2024-11-05"), is other content
        // (publications, projects), not more of the list.
        let nodes = &time.time_nodes;
        let groups_of = |c: &Candidate| -> BTreeMap<&str, usize> {
            let mut groups = BTreeMap::new();
            for r in &c.records {
                let from = nodes.partition_point(|n| n.node < r.start);
                let to = nodes.partition_point(|n| n.node < r.end).max(from);
                for n in &nodes[from..to] {
                    *groups.entry(n.group.as_str()).or_insert(0) += 1;
                }
            }
            groups
        };
        let usual = groups_of(&repeated.candidates[chosen]).into_iter().max_by_key(|&(_, n)| n).map(|(g, _)| g);
        let usual = usual.map(str::to_string);
        repeated::join_sections(&repeated.links, &mut repeated.candidates, chosen, |c| {
            !dated_list || usual.as_deref().is_some_and(|g| groups_of(c).contains_key(g))
        });
        repeated::add_same_kind(doc, &repeated.links, &mut repeated.candidates[chosen]);
        let dated = |start: NodeId, end: NodeId| {
            nodes.get(nodes.partition_point(|n| n.node < start)).is_some_and(|n| n.node < end)
        };
        repeated::add_leads(doc, &repeated.links, &mut repeated.candidates[chosen], dated);
        repeated::drop_offsite_sections(doc, &repeated.links, &mut repeated.candidates[chosen]);
    }
    let mut extraction = match choice {
        Choice::Repeated { rank } => {
            let candidate = &repeated.candidates[ranked[rank].candidate];
            let rival = ranked.iter().enumerate().filter(|&(i, _)| i != rank).map(|(_, r)| r.score).fold(0.0, f32::max);
            records_extraction(doc, &time, &repeated, &structured, candidate, &ranked[rank], rival)
        }
        Choice::TimePattern => time.extraction.clone(),
        Choice::LonePost => lone.unwrap_or_else(|| time.extraction.clone()),
        Choice::Nothing => Extraction {
            page: Page::new(doc.url.clone(), doc.title(), doc.encoding.name()),
            engine: Engine::RepeatedPattern,
            confidence: 0.0,
        },
    };
    let undated = is_undated(&extraction.page);
    dates_from_links(&mut extraction.page, context.now);
    Analysis { time, repeated, structured, ranked, choice, extraction, undated }
}

/// Dates from the items' addresses. A date shown without its year ("3月4日", "Mar 4") is given
/// the latest such day before now; an item whose address holds its whole date (`/2024/03/04/`,
/// `/20240304`) on that month and day was written in that address's year, as the address was
/// written when the post was. An item that shows no date at all (a block theme's query loop
/// without post meta) is dated by its address the same way; not by a day after now, which is
/// an event's.
fn dates_from_links(page: &mut Page, now: DateTime<FixedOffset>) {
    use chrono::Datelike;
    for item in page.subjects.iter_mut().flat_map(|s| s.items.iter_mut()) {
        let Some(link) = item.link.as_ref() else { continue };
        let Some(in_link) = crate::engines::article::date::url_date(link) else { continue };
        match item.date {
            Some(date) => {
                let same_day = (in_link.month(), in_link.day()) == (date.month(), date.day());
                if same_day && in_link.year() != date.year() {
                    item.date = date.with_year(in_link.year()).or(item.date);
                }
            }
            None if in_link <= now => item.date = Some(in_link),
            None => {}
        }
    }
}

/// The one post a page shows (a blog's last page, a new blog's home), as its only item: the
/// page marks one element in its content as an item (`<article>` with a `<time>`, `h-entry`,
/// microdata; not an article page by its own declaration), and that element holds a headline
/// linking to another page and little text besides (a teaser: a whole post shown on the page
/// is the page's article). Its date is the one its markup calls the publication date, else
/// the first it shows.
fn lone_post(
    doc: &Document,
    time: &timepattern::Analysis,
    repeated: &repeated::Analysis,
    structured: &Structured,
) -> Option<Extraction> {
    if structured.page_is_article {
        return None;
    }
    let mut marked: Vec<NodeId> = structured.marks.iter().map(|m| m.node).filter(|&n| !in_furniture(doc, n)).collect();
    // A theme that shows no dates still wraps its post in `<article>`, HTML's element for one
    // self-contained composition (a blog entry): on a page with no other mark, that is the mark.
    if marked.is_empty() {
        marked = doc.ids().filter(|&n| doc.is_tag(n, "article") && !in_furniture(doc, n)).collect();
    }
    let own = own_addresses(doc);
    let is_own = |url: &Url| own.iter().any(|own| same_page(own, url));
    if marked.is_empty() {
        marked.extend(headed_block(doc, &repeated.links, &is_own));
    }
    let &first = marked.first()?;
    // Marks nest (an `h-entry` `<article>` with its `<time>`): one outermost mark.
    if marked.iter().any(|&n| !doc.contains(first, n) && !doc.contains(n, first)) {
        return None;
    }
    let mark = marked.iter().copied().filter(|&n| doc.contains(n, first)).min().unwrap_or(first);
    let end = doc.node(mark).end;
    // Its headline links to the post, another page than this one (an article's headline may
    // link to the article itself).
    let headline =
        repeated.links.iter().find(|l| l.node > mark && l.node < end && l.is_headline() && !is_own(&l.url))?;
    let text = collapse_whitespace(&doc.text(mark));
    if weight(&text).saturating_sub(weight(&headline.text)) >= MIN_ARTICLE_CHARS {
        return None;
    }
    let shown: Vec<&TimeNode> = time.time_nodes.iter().filter(|n| n.node > mark && n.node < end).collect();
    let date = shown.iter().find(|n| n.role == DateRole::Published).or(shown.first()).map(|n| n.date);
    let mut item = crate::model::Item::new(headline.text.clone());
    item.link = Some(headline.url.clone());
    item.date = date;
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    page.date = date;
    page.subjects.push(crate::model::Subject { title: None, items: vec![item] });
    // One element's markup, without a repeated structure or a dated list to agree with it.
    Some(Extraction { page, engine: Engine::RepeatedPattern, confidence: 0.5 })
}

/// Where no markup marks a post, the block of the one heading in the page's content that links
/// to another page of the site (`<h2><a>`, or a link around an `<h2>`): a post's teaser under
/// its title, as every theme writes one. Several such headings are a list, none a page without
/// posts; the footer's credits and the menu are furniture, no post.
fn headed_block(doc: &Document, links: &[Link], is_own: &dyn Fn(&Url) -> bool) -> Option<NodeId> {
    let heading_of = |link: &Link| {
        let within = doc.ancestors(link.node).find(|&a| is_heading(doc, a));
        within.or_else(|| doc.descendants(link.node).find(|&d| is_heading(doc, d)))
    };
    let mut headed = links
        .iter()
        .filter(|l| l.is_headline() && l.url.host() == doc.url.host() && !is_own(&l.url) && !in_furniture(doc, l.node));
    let link = headed.find(|l| heading_of(l).is_some())?;
    if headed.any(|l| heading_of(l).is_some() && without_fragment(&l.url) != without_fragment(&link.url)) {
        return None;
    }
    // The block holds the heading and the link, whichever is outside the other.
    let heading = heading_of(link)?;
    let outer = if doc.contains(heading, link.node) { heading } else { link.node };
    doc.parent(outer)
}

/// Containers a candidate must have to show a layout of rows (two could be chance).
const MIN_ROWS: usize = 3;

/// Whether a candidate's records are the cells of the dated list's rows (no list of items): it has several
/// containers holding the same number (two or more) of its records each, and where a container
/// holds a dated item's headline it holds one, always at the same place (a forum's row of
/// avatar, thread and latest-post cells; a table row's title and author links). Containers
/// without one are other columns of the rows (the last post's link and author), so at most
/// half of them. Cards in the rows of a grid are dated at every place, or at places that vary.
fn splits_dated_records(candidate: &Candidate, links: &[Link], dated: &HashSet<Url>) -> bool {
    let mut rows: BTreeMap<NodeId, Vec<&Record>> = BTreeMap::new();
    for record in &candidate.records {
        rows.entry(record.container).or_default().push(record);
    }
    // Records added beside the list (one a container) are no row.
    let rows: Vec<&Vec<&Record>> = rows.values().filter(|cells| cells.len() >= 2).collect();
    let Some(width) = rows.first().map(|cells| cells.len()) else { return false };
    if rows.iter().any(|cells| cells.len() != width) {
        return false;
    }
    let is_dated = |record: &Record| record.headline.is_some_and(|h| dated.contains(&without_fragment(&links[h].url)));
    let (mut place, mut dated_rows) = (None, 0);
    for cells in &rows {
        let mut dated_places = (0..width).filter(|&i| is_dated(cells[i]));
        match (dated_places.next(), dated_places.next()) {
            (None, _) => continue,
            (Some(first), None) if *place.get_or_insert(first) == first => dated_rows += 1,
            _ => return false,
        }
    }
    dated_rows >= MIN_ROWS && dated_rows * 2 >= rows.len()
}

/// ×(1 + agreement) for a vote with some agreement, [`AGAINST`] for one with none, 1 without
/// a vote.
fn vote_factor(vote: Option<f32>) -> f32 {
    match vote {
        None => 1.0,
        Some(v) if v > 0.0 => 1.0 + v,
        Some(_) => AGAINST,
    }
}

/// The share of a candidate's records that the page marks as items (one mark of a source in
/// the record's element: a mark around several records is a list, not an item), or whose
/// headline is a JSON-LD item, whichever is larger.
fn structured_agreement(
    doc: &Document,
    candidate: &Candidate,
    urls: &HashSet<Url>,
    declared: &HashSet<Url>,
    structured: &Structured,
) -> f32 {
    let records = candidate.records.len().max(1) as f32;
    let marked = candidate
        .records
        .iter()
        .filter(|r| {
            let mut per_source: BTreeMap<Source, usize> = BTreeMap::new();
            let end = doc.node(r.element).end;
            for mark in structured.marks_in(r.element, end) {
                *per_source.entry(mark.source).or_default() += 1;
            }
            // The record is inside a mark (the mark is the record's own element or lies between).
            let around = structured
                .marks
                .iter()
                .any(|m| m.node < r.element && doc.contains(m.node, r.element) && !doc.contains(m.node, r.container));
            around || per_source.values().any(|&n| n == 1)
        })
        .count() as f32;
    let by_url =
        if declared.is_empty() { 0.0 } else { urls.intersection(declared).count() as f32 / urls.len().max(1) as f32 };
    (marked / records).max(by_url)
}

/// The extraction from a candidate's records, with dates from the time patterns.
fn records_extraction(
    doc: &Document,
    time: &timepattern::Analysis,
    repeated: &repeated::Analysis,
    structured: &Structured,
    candidate: &Candidate,
    ranked: &Ranked,
    rival: f32,
) -> Extraction {
    let links = &repeated.links;
    let nodes = &time.time_nodes;
    // The time-pattern engine's date of each of its items.
    let dated: HashMap<Url, DateTime<FixedOffset>> =
        time.extraction.page.items().filter_map(|i| Some((without_fragment(i.link.as_ref()?), i.date?))).collect();
    let declared = structured.by_url();
    let in_record = |r: &Record| -> &[TimeNode] {
        let from = nodes.partition_point(|n| n.node < r.start);
        let to = nodes.partition_point(|n| n.node < r.end);
        &nodes[from..to.max(from)]
    };
    // The kind of date most records show (their publication date, not "updated" or a comment's).
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for record in &candidate.records {
        let groups: HashSet<&str> = in_record(record).iter().map(|n| n.group.as_str()).collect();
        for group in groups {
            *kinds.entry(group).or_default() += 1;
        }
    }
    // A kind of date that only a few records show is no date of the list's items.
    let headed = candidate.records.iter().filter(|r| r.headline.is_some()).count();
    let usual = kinds
        .into_iter()
        .max_by_key(|&(_, count)| count)
        .filter(|&(_, count)| count * 2 >= headed)
        .map(|(group, _)| group.to_string());
    // A list whose records mostly show some date, of whatever kinds ("Today", "3 days ago",
    // "3d" side by side, each kind a minority).
    let dated_list = candidate.records.iter().filter(|r| !in_record(r).is_empty()).count() * 2 >= headed;
    let date_of = |r: &Record| -> Option<(DateTime<FixedOffset>, Option<TimeNode>)> {
        let url = without_fragment(&links[r.headline?].url);
        let shown = in_record(r);
        // The record's own publication date, as its markup or label says, beats every other
        // date it shows (dates quoted in a whole post's text).
        if let Some(node) = shown.iter().find(|n| n.role == DateRole::Published) {
            return Some((node.date, Some(node.clone())));
        }
        if let Some(&date) = dated.get(&url) {
            return Some((date, shown.iter().find(|n| n.date == date).cloned()));
        }
        // The record's publication date before a modification date of the usual kind.
        let of_usual_kind = || shown.iter().filter(|n| Some(&n.group) == usual.as_ref());
        if let Some(node) = of_usual_kind().find(|n| n.role != DateRole::Modified).or_else(|| of_usual_kind().next()) {
            return Some((node.date, Some(node.clone())));
        }
        // A record whose date shows in another format than the others' ("21 Nov 2026" among
        // "25 Nov 2026, 16:40", "1d" among "Today" and "2 days ago") still has its
        // machine-readable one (`<time datetime>`).
        let machine_readable = shown.iter().find(|n| n.attribute.is_some() && n.role != DateRole::Modified);
        if let Some(node) = machine_readable.filter(|_| dated_list) {
            return Some((node.date, Some(node.clone())));
        }
        declared.get(&url).and_then(|d| d.date).map(|date| (date, None))
    };
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    page.subjects = repeated::subjects(doc, links, candidate, &date_of);
    // Dated items of the time patterns' list that the records miss (another section, records
    // of another kind): the dates are evidence enough that they are items of the page.
    let listed: HashSet<Url> = page.items().filter_map(|i| i.link.as_ref()).map(without_fragment).collect();
    for subject in &time.extraction.page.subjects {
        let items: Vec<_> = subject
            .items
            .iter()
            .filter(|i| i.link.as_ref().is_some_and(|l| !listed.contains(&without_fragment(l))))
            .cloned()
            .collect();
        if !items.is_empty() {
            page.subjects.push(crate::model::Subject { title: subject.title.clone(), items });
        }
    }
    page.date = page.items().filter_map(|i| i.date).max();
    // Independent evidence: the structure, the dates and the declarations each make it likelier.
    let structure = candidate.structure_confidence(rival);
    let time_agreement = ranked.time_vote.unwrap_or(0.0);
    let structured_agreement = ranked.structured_vote.unwrap_or(0.0);
    let doubt = (1.0 - structure) * (1.0 - 0.8 * time_agreement) * (1.0 - 0.6 * structured_agreement);
    let confidence = if page.item_count() == 0 { 0.0 } else { (1.0 - doubt).clamp(0.0, 1.0) };
    // The engine named is the one whose evidence made the list: where the dated list agrees,
    // these are the time patterns' items (the records only give their extents).
    let engine = if time_agreement >= AGREES { Engine::TimePattern } else { Engine::RepeatedPattern };
    Extraction { page, engine, confidence }
}

impl Analysis {
    /// Whether the page is an article rather than a list of items, given what the article
    /// extractor made of it: a page without a list is one; else the main text must have a
    /// text of its own — at least [`MIN_ARTICLE_CHARS`] beyond what the list's records hold —,
    /// or be a short article's sentences under its headline or beside furniture (menus, footer
    /// links) when the list is undated, or followed by comments.
    /// On a list page the main text is missing, a teaser, or the records themselves (full
    /// posts on a blog's homepage); on an article page the list is its related posts, menus
    /// or comments, beside the text, or a list of links inside it that holds little of it.
    ///
    /// Metadata is no evidence either way: list pages of many generators carry
    /// `og:type=article` and a publication date.
    pub fn is_article_page(&self, doc: &Document, article: &Article) -> bool {
        let page = &self.extraction.page;
        if page.item_count() == 0 {
            return true;
        }
        // A page titled with the site's name alone is its home or a section: its dated list is
        // what it offers, and its text (an intro box, an "about me") is no article. Undated, the
        // list is the site's only at its root address (some themes title every page, posts too,
        // with the site's name). Unless a heading of the page links to the address the page
        // declares for itself: a post's own page, under such a theme.
        let at_home = doc.url.path() == "/";
        if article.title_is_site_name && (!self.undated || at_home) && !heads_its_declared_address(doc) {
            return false;
        }
        let Some(content) = article.content_text.as_deref() else { return false };
        if article.title_node.is_some_and(|t| self.is_a_leads_title(doc, t)) {
            return false;
        }
        let total = weight(content);
        // The headline the extractor found may be one record's title (a theme that heads every
        // post of its list with an `<h1>`): then the page has no headline of its own.
        let title_node = article.title_node.filter(|&t| !is_a_records_title(doc, &self.repeated.links, page, t));
        let records = item_records(doc, &self.repeated.links, page, title_node);
        let undated = self.undated;
        // A row of labels is a menu, not a list of items, however little text the page has.
        if undated && are_labels(page) {
            return true;
        }
        let held = std::cell::OnceCell::new();
        let held = || *held.get_or_init(|| text_in(doc, &records, content));
        if total >= MIN_SHORT_ARTICLE_CHARS {
            // A headline that names the page (not the site) makes its sentences an article, and
            // an undated list beside them its menu, resources or related links, wherever they
            // sit; list pages date their posts or name themselves by the site. The sentences
            // must be the page's own, beyond its records' (not the teasers of a homepage whose
            // headline repeats its title), and stand under the headline before the list: a page
            // whose headline names its list ("Journal") has a tagline there at most, its
            // sentences elsewhere (a newsletter box, a bio).
            let headlined = title_node.is_some() && !article.title_is_site_name;
            let own = || total.saturating_sub(held()) >= MIN_SHORT_ARTICLE_CHARS;
            let speaks = || match text_under_headline(doc, title_node, &records, &self.repeated.links, content) {
                None => true,
                Some(under) => {
                    under >= MIN_SHORT_ARTICLE_CHARS && !names_its_list(doc, title_node, &records, page, under)
                }
            };
            if (undated && ((headlined && speaks()) || records.iter().all(|&r| in_furniture(doc, r))) && own())
                || (headline_leads(doc, &records, title_node) && self.list_is_off_content(doc))
            {
                return true;
            }
        }
        // A text of its own is prose: a column of labels, counts or times is a list's furniture,
        // and the page's footer is on every page of the site.
        let prose = prose_weight(content).saturating_sub(footer_text_in(doc, content));
        if prose < MIN_ARTICLE_CHARS {
            return false;
        }
        // Lines of links and the records' text are mostly the same lines (a list's rows): the
        // larger of the two is the list's, not their sum. The lines of links are weighed only
        // when the records' text leaves the page a text of its own.
        prose.saturating_sub(held()) >= MIN_ARTICLE_CHARS
            && prose.saturating_sub(linked_weight(&self.repeated.links, content)) >= MIN_ARTICLE_CHARS
    }

    /// Whether the headline links to another post, of the address shape of the chosen list's
    /// posts: the page shows that post (the newest one in full above the older ones) beside
    /// its list. An article's headline links to the article itself, if anywhere (its address,
    /// the ones it declares, the title the page names itself by).
    fn is_a_leads_title(&self, doc: &Document, title: NodeId) -> bool {
        let Some(candidate) = self.chosen() else { return false };
        let links = &self.repeated.links;
        let Some(shape) = usual_url_shape(candidate.headline_urls(links), candidate.records.len()) else {
            return false;
        };
        let within = |n: NodeId| n == title || doc.contains(title, n) || doc.contains(n, title);
        let page_title = collapse_whitespace(&doc.title()).to_lowercase();
        let own = own_addresses(doc);
        links.iter().filter(|l| within(l.node)).any(|link| {
            url_shape(&link.url) == shape
                && !link.url.path().trim_matches('/').is_empty()
                && !page_title.contains(&collapse_whitespace(&link.text).to_lowercase())
                && !own.iter().any(|own| same_page(own, &link.url))
        })
    }

    /// Whether the list's records sit where no item list of the page does (a comment section, a
    /// sidebar, a "recent posts" box, by tag, landmark role or class): comments and widgets are
    /// dated too, so their dates do not make them the page's items.
    fn list_is_off_content(&self, doc: &Document) -> bool {
        let Some(candidate) = self.chosen() else { return false };
        let headlines: Vec<NodeId> =
            candidate.records.iter().filter_map(|r| Some(self.repeated.links[r.headline?].node)).collect();
        let unendorsed = headlines.iter().filter(|&&n| is_unendorsed(doc, n)).count();
        2 * unendorsed > headlines.len()
    }

    /// The candidates with their scores and votes, and why the winner won.
    pub fn report(&self, doc: &Document) -> Report {
        let selected = match self.choice {
            Choice::Repeated { rank } => Some(rank),
            _ => None,
        };
        let candidates = self
            .ranked
            .iter()
            .enumerate()
            .take(REPORTED)
            .map(|(rank, r)| RankedReport {
                candidate: self.repeated.report(doc, &self.repeated.candidates[r.candidate]),
                time_vote: r.time_vote.map(round),
                structured_vote: r.structured_vote.map(round),
                final_score: round(r.score),
                selected: selected == Some(rank),
            })
            .collect();
        Report {
            choice: self.choice,
            reason: self.reason(),
            time_pattern_items: self.time.extraction.page.item_count(),
            time_pattern_confidence: round(self.time.extraction.confidence),
            structured: self.structured.report(),
            candidates,
        }
    }

    /// The chosen candidate, when the items come from repeated records.
    pub fn chosen(&self) -> Option<&Candidate> {
        match self.choice {
            Choice::Repeated { rank } => Some(&self.repeated.candidates[self.ranked[rank].candidate]),
            _ => None,
        }
    }

    fn reason(&self) -> String {
        let dated = self.time.extraction.page.item_count();
        match self.choice {
            Choice::Nothing if self.structured.page_is_article => {
                "no list: the page declares itself an article, and no dates make a list on it".into()
            }
            Choice::Nothing => "no list: no repeated records with headlines and no dated items".into(),
            Choice::LonePost => {
                "one post: the page marks one item in its content (a teaser with its headline), and no \
                 list of records lies there"
                    .into()
            }
            Choice::TimePattern if self.structured.page_is_article => format!(
                "the page declares itself an article: its dates make a list of {dated} items, its undated \
                 repeated records are not items"
            ),
            Choice::TimePattern if self.ranked.is_empty() => {
                format!("the dates make a list of {dated} items; no repeated records with headlines")
            }
            Choice::TimePattern => format!(
                "the dates make a list of {dated} items and no repeated-record candidate holds half of it; \
                 the dated list wins over the best candidate ({})",
                self.repeated.candidates[self.ranked[0].candidate].signature
            ),
            Choice::Repeated { rank } => {
                let winner = &self.ranked[rank];
                let candidate = &self.repeated.candidates[winner.candidate];
                let mut parts = vec![format!(
                    "{} records <{}> with {} distinct headlines (structure score {:.2})",
                    candidate.records.len(),
                    candidate.signature,
                    candidate.factors.headlines,
                    candidate.score
                )];
                match winner.time_vote {
                    Some(v) if v >= AGREES => parts.push(format!("the dated list agrees ({:.0}%)", v * 100.0)),
                    Some(v) if v > 0.0 => parts.push(format!("the dated list agrees in part ({:.0}%)", v * 100.0)),
                    Some(_) => parts.push("the dated list is elsewhere".into()),
                    None => parts.push("the page dates no list".into()),
                }
                match winner.structured_vote {
                    Some(v) if v > 0.0 => parts.push(format!("structured data agrees ({:.0}%)", v * 100.0)),
                    Some(_) => parts.push("structured data marks other elements".into()),
                    None => parts.push("no structured data".into()),
                }
                if rank > 0 {
                    parts.push(format!(
                        "better-scored candidates miss the dated list ({})",
                        self.repeated.candidates[self.ranked[0].candidate].signature
                    ));
                } else if let Some(second) = self.ranked.get(1) {
                    parts.push(format!(
                        "next best {} scores {:.2} against {:.2}",
                        self.repeated.candidates[second.candidate].signature, second.score, winner.score
                    ));
                }
                parts.join("; ")
            }
        }
    }
}

fn round(value: f32) -> f32 {
    (value * 1000.0).round() / 1000.0
}

/// Weighted characters: a CJK character carries about two Latin letters' worth of text.
fn weight(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).map(|c| if is_cjk(c) { 2 } else { 1 }).sum()
}

fn is_cjk(c: char) -> bool {
    matches!(u32::from(c), 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xAC00..=0xD7AF)
}

/// Weighted characters of the text's paragraphs longer than a label: a column of labels,
/// counts or times (an archive widget's months, "26 minutes ago") is no article's text. A
/// paragraph counts once: an article does not repeat itself, while a list's pager and its
/// "showing 1-20 of 85" line stand above and below the list.
fn prose_weight(text: &str) -> usize {
    prose_paragraphs(text).map(|(_, w)| w).sum()
}

/// The text's paragraphs longer than a label, each once, with their weights.
fn prose_paragraphs(text: &str) -> impl Iterator<Item = (&str, usize)> {
    let mut seen = HashSet::new();
    text.split("\n\n")
        .map(str::trim)
        .filter(move |p| seen.insert(*p))
        .map(|p| (p, weight(p)))
        .filter(|&(_, w)| w > LABEL_CHARS)
}

/// Weighted characters of the main text's paragraphs that are mostly link text: a line of
/// links (a facet list's "austin, TX (aus)", a ranking's "1 Headline 23,581") is navigation,
/// while an article's paragraphs carry their links inside sentences.
fn linked_weight(links: &[Link], content: &str) -> usize {
    let mut texts: Vec<String> = links.iter().map(|l| collapse_whitespace(&l.text)).filter(|t| weight(t) > 2).collect();
    texts.sort_unstable();
    texts.dedup();
    prose_paragraphs(content)
        .filter(|&(p, w)| 2 * texts.iter().filter(|t| p.contains(t.as_str())).map(|t| weight(t)).sum::<usize>() >= w)
        .map(|(_, w)| w)
        .sum()
}

/// Weighted characters of the main text that lie in the page's footer: a `<footer>` or
/// `contentinfo` landmark of the page, or an element its class or id names a footer (as
/// templates wrote it before HTML5), outside an article or section (an entry's own footer holds
/// its byline). An address, a phone number and a licence number are the site's, on every
/// page; where a list page has no other prose, the extractor returns them.
fn footer_text_in(doc: &Document, content: &str) -> usize {
    // Not a wrapper of the whole page whose classes name what it holds (`<body
    // class="footer-widgets-active">`), nor one that holds a page's headline.
    let wraps_page = |n: NodeId| {
        matches!(doc.tag(n), Some("html" | "body" | "main" | "article"))
            || doc.descendants(n).any(|d| doc.is_tag(d, "h1"))
    };
    let is_footer = |n: NodeId| {
        doc.is_tag(n, "footer")
            || doc.attr(n, "role").is_some_and(|r| r.trim().eq_ignore_ascii_case("contentinfo"))
            || crate::engines::article::metadata::class_words(doc, n).iter().any(|w| w == "footer")
    };
    let in_entry = |n: NodeId| doc.ancestors(n).any(|a| matches!(doc.tag(a), Some("article" | "section" | "main")));
    let mut held = 0;
    let mut n = doc.root().0;
    while n < doc.node(doc.root()).end.0 {
        let id = NodeId(n);
        if doc.is_element(id) && is_footer(id) && !wraps_page(id) && !in_entry(id) {
            for piece in doc.visible_texts(id) {
                let piece = collapse_whitespace(piece);
                if piece.chars().count() >= MIN_MATCHED_CHARS && content.contains(&piece) {
                    held += weight(&piece);
                }
            }
            n = doc.node(id).end.0;
        } else {
            n += 1;
        }
    }
    held
}

/// Whether a link is marked as user content or as not vouched for (`rel=ugc`, `rel=nofollow`):
/// what commenters link to. A site never marks the links to its own posts so.
fn is_unendorsed(doc: &Document, link: NodeId) -> bool {
    doc.attr(link, "rel").is_some_and(|rel| {
        rel.split_ascii_whitespace().any(|w| w.eq_ignore_ascii_case("ugc") || w.eq_ignore_ascii_case("nofollow"))
    })
}

/// Whether most items of the list have no date: an article's related links, menus or comments
/// are undated; a list page's records are dated posts.
fn is_undated(page: &Page) -> bool {
    let dated = page.items().filter(|item| item.date.is_some()).count();
    2 * dated <= page.item_count()
}

/// Longest title (weighted characters) of a menu entry or a label ("Home", "About me"): post
/// titles are longer (the repeated-pattern engine reads titles from 20 on).
const LABEL_CHARS: usize = 12;

/// Whether every item's title is a label: the list is a menu, whatever element holds it.
fn are_labels(page: &Page) -> bool {
    page.items().all(|item| weight(&item.title) <= LABEL_CHARS)
}

/// Weighted characters of the visible text between the headline and the first record after it
/// that is a list's entry (None without a headline or such a record). A record whose link's
/// text the main text holds is a paragraph of that text with a link in it, not an entry: a
/// list's titles are its own, and the main text leaves them out.
fn text_under_headline(
    doc: &Document,
    title: Option<NodeId>,
    records: &[NodeId],
    links: &[Link],
    content: &str,
) -> Option<usize> {
    let from = doc.node(title?).end;
    let in_text = |record: NodeId| {
        links.iter().filter(|l| doc.contains(record, l.node)).any(|l| {
            let text = doc.text(l.node);
            !text.is_empty() && content.contains(&text)
        })
    };
    let to = records.iter().copied().filter(|&r| r >= from && !in_text(r)).min()?;
    Some(doc.visible_text_nodes(doc.root()).filter(|(n, _)| *n >= from && *n < to).map(|(_, t)| weight(t)).sum())
}

/// Whether the headline names the list under it ("Essays", "Open positions"): the list's first
/// record follows it with no heading between (an article's related links or blogroll come
/// under a heading of their own, "More posts"), and the list's titles outweigh the sentences
/// under the headline (`under`: a section's intro, not an article).
fn names_its_list(doc: &Document, title: Option<NodeId>, records: &[NodeId], page: &Page, under: usize) -> bool {
    let Some(title) = title else { return false };
    let from = doc.node(title).end;
    let Some(first) = records.iter().copied().filter(|&r| r >= from).min() else { return false };
    let headed = (from.0..first.0).map(NodeId).any(|n| is_heading(doc, n));
    let titles: usize = page.items().map(|item| weight(&item.title)).sum();
    !headed && titles > under
}

/// Whether the page's headline (the heading its metadata names) comes before every record: an
/// article's related links or comments follow its headline; a list page's heading, if any,
/// names the site.
fn headline_leads(doc: &Document, records: &[NodeId], title: Option<NodeId>) -> bool {
    let Some(title) = title else { return false };
    records.iter().all(|r| r.0 >= doc.node(title).end.0)
}

/// The element of each item of the list: the outermost ancestor of a link to the item that
/// holds no link to another item (the record's card, post or row), whatever engine made the
/// list. An element that holds the page's headline is the article, not a record of a list
/// beside it (a list of two links, one in the text and one elsewhere, climbs that far).
fn item_records(doc: &Document, links: &[Link], page: &Page, title_node: Option<NodeId>) -> Vec<NodeId> {
    let items: HashSet<Url> = page.items().filter_map(|i| i.link.as_ref()).map(without_fragment).collect();
    let mut anchors: Vec<(NodeId, Url)> =
        links.iter().map(|l| (l.node, without_fragment(&l.url))).filter(|(_, url)| items.contains(url)).collect();
    anchors.sort_by_key(|(n, _)| *n);
    let holds_other = |element: NodeId, url: &Url| {
        let end = doc.node(element).end;
        let from = anchors.partition_point(|(n, _)| *n < element);
        anchors[from..].iter().take_while(|(n, _)| *n < end).any(|(_, u)| u != url)
    };
    let mut records: Vec<NodeId> = Vec::new();
    for (anchor, url) in &anchors {
        let mut record = *anchor;
        while let Some(parent) = doc.parent(record).filter(|&p| doc.is_element(p) && !holds_other(p, url)) {
            record = parent;
        }
        if title_node.is_some_and(|t| doc.contains(record, t))
            || doc.is_tag(record, "body")
            || doc.is_tag(record, "html")
        {
            continue;
        }
        records.push(record);
    }
    records.sort();
    // A record inside another (two links to one item) counts once.
    records.dedup_by(|inner, outer| doc.contains(*outer, *inner));
    records
}

/// Whether the headline is a link that lies in a record with at least two others of its kind
/// (tag and class) in the list: it is that record's title, not the page's. An article's own
/// headline links nowhere else, though its wrapper may be of its related cards' kind; elements
/// without a class are of no kind (a page's header, post and footer may all be plain `<div>`s).
fn is_a_records_title(doc: &Document, links: &[Link], page: &Page, title: NodeId) -> bool {
    let is_link = |n: NodeId| doc.is_tag(n, "a") && doc.attr(n, "href").is_some();
    if !doc.descendants(title).chain(doc.ancestors(title)).any(is_link) {
        return false;
    }
    let records = item_records(doc, links, page, None);
    let kind = |r: NodeId| (doc.tag(r), doc.attr(r, "class").map(str::trim).filter(|c| !c.is_empty()));
    records.iter().find(|&&r| doc.contains(r, title)).is_some_and(|&own| {
        kind(own).1.is_some() && records.iter().filter(|&&r| r != own && kind(r) == kind(own)).count() >= 2
    })
}

/// Whether a heading of the page (`<h1>`–`<h3>`, or a link around one) links to an address the
/// page declares for itself (`rel=canonical`, `og:url`) other than its site's home.
fn heads_its_declared_address(doc: &Document) -> bool {
    let declared: Vec<Url> = doc.declared_urls().into_iter().filter(|u| u.path() != "/").collect();
    !declared.is_empty()
        && doc.ids().filter(|&n| matches!(doc.tag(n), Some("h1" | "h2" | "h3"))).any(|h| {
            let links = doc.ancestors(h).take(2).chain(std::iter::once(h).chain(doc.descendants(h)));
            links
                .filter(|&a| doc.is_tag(a, "a"))
                .filter_map(|a| doc.resolve(doc.attr(a, "href")?))
                .any(|url| declared.iter().any(|own| same_page(own, &url)))
        })
}

/// The page's own addresses: where it was read from and what it declares (canonical, og:url).
fn own_addresses(doc: &Document) -> Vec<Url> {
    std::iter::once(doc.url.clone()).chain(doc.declared_urls()).collect()
}

/// Whether two addresses name the same page: scheme, `www.`, a trailing slash, the query (a
/// reader's address may carry tracking parameters) and the fragment aside.
fn same_page(a: &Url, b: &Url) -> bool {
    let key = |u: &Url| {
        let host = u.host_str().unwrap_or_default().trim_start_matches("www.").to_ascii_lowercase();
        (host, u.path().trim_end_matches('/').to_string())
    };
    key(a) == key(b)
}

/// Weighted characters of the records that the main text runs through: a record whose longer
/// texts the main text holds (half of them: a teaser may be cut short; its links' texts that
/// the main text leaves out not counted) counts with all its text, the short pieces of code and
/// labels included.
///
/// A record that alone holds half the main text is the article itself (a link to an item in
/// its text, the other item elsewhere), not one of several records the main text runs through —
/// unless it is one of several: the main text runs through another record of its kind (tag and
/// class) too (full posts of a blog's homepage), or two or more records of its kind together
/// hold at least as much text. Then the main text is one post of a list of full
/// posts or teasers (the extractor picked the longest), while an article's related-post cards
/// are far shorter than the article and none of them is in its text.
fn text_in(doc: &Document, records: &[NodeId], content: &str) -> usize {
    let total = weight(content);
    let texts: Vec<RecordText> =
        records.iter().map(|&r| RecordText::of(doc, &section_of(doc, r, records), content)).collect();
    let held = |text: &RecordText| text.found > 0 && 2 * text.found >= text.long;
    let dominant = |text: &RecordText| 2 * text.all >= total;
    let kind = |r: NodeId| (doc.tag(r), doc.attr(r, "class"));
    let peers = |record: NodeId| {
        records.iter().zip(&texts).filter(move |&(&other, _)| other != record && kind(other) == kind(record))
    };
    let one_of_several = |record: NodeId, text: &RecordText| {
        peers(record).any(|(_, t)| held(t))
            || (peers(record).count() >= 2 && peers(record).map(|(_, t)| t.all).sum::<usize>() >= text.all)
    };
    records
        .iter()
        .zip(&texts)
        .filter(|&(&record, text)| held(text) && (!dominant(text) || one_of_several(record, text)))
        .map(|(_, text)| text.all)
        .sum()
}

/// The elements of a record's section: a record that is a heading (a changelog's version, a
/// diary's day in one flat document) heads the siblings that follow it, up to the next heading
/// of its tag or the next record; other records are their own element.
fn section_of(doc: &Document, record: NodeId, records: &[NodeId]) -> Vec<NodeId> {
    let mut section = vec![record];
    if !is_heading(doc, record) {
        return section;
    }
    let Some(parent) = doc.parent(record) else { return section };
    let siblings = doc.children(parent);
    let from = siblings.iter().position(|&s| s == record).map_or(siblings.len(), |i| i + 1);
    for &sibling in &siblings[from..] {
        let holds_record = records.iter().any(|&r| doc.contains(sibling, r));
        if holds_record || doc.tag(sibling) == doc.tag(record) {
            break;
        }
        section.push(sibling);
    }
    section
}

/// A record's visible text as weighed against the main text.
struct RecordText {
    /// Weight of its texts of [`MIN_MATCHED_CHARS`] or more, but a link's text the main text
    /// leaves out.
    long: usize,
    /// Weight of those the main text holds.
    found: usize,
    /// Weight of all its text.
    all: usize,
}

impl RecordText {
    /// The text of a record's section ([`section_of`]).
    fn of(doc: &Document, section: &[NodeId], content: &str) -> RecordText {
        let mut text = RecordText { long: 0, found: 0, all: 0 };
        for &element in section {
            text.add(doc, element, content);
        }
        text
    }

    /// Add the visible text of one element of the record.
    fn add(&mut self, doc: &Document, record: NodeId, content: &str) {
        // A link's text that the main text leaves out (the title, "Continue reading", a screen
        // reader's copy of the title) is the list's own: a teaser card may have as much of it
        // as teaser. A card that is one link holds its teaser in that link, so a link's text the
        // main text holds counts.
        let in_link = |node: NodeId| {
            doc.is_tag(record, "a") || doc.ancestors(node).take_while(|&a| a != record).any(|a| doc.is_tag(a, "a"))
        };
        // Visible text only: a record's script (a share button's code) is no text a reader sees.
        for (node, piece) in doc.visible_text_nodes(record) {
            let piece = collapse_whitespace(piece);
            let chars = weight(&piece);
            self.all += chars;
            if piece.chars().count() < MIN_MATCHED_CHARS {
                continue;
            }
            if content.contains(&piece) {
                self.found += chars;
                self.long += chars;
            } else if !in_link(node) {
                self.long += chars;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Class "a column of labels for a main text": when a list page's only text block is an
    /// archive widget or a column of times, the extractor returns it; its lines are labels and
    /// counts, not prose, and weigh nothing against the list.
    #[test]
    fn labels_counts_and_times_are_no_prose() {
        let months = (1..=12).map(|m| format!("2018 年 {m:02} 月{}", m % 7 + 1)).collect::<Vec<_>>().join("\n\n");
        let times = ["26分钟前", "42分钟前", "1小时前", "3 hours ago"].join("\n\n");
        assert_eq!(prose_weight(&format!("{months}\n\n{times}")), 0);
        let text = "Tucked behind a high wall, the hotel is a hideaway in a busy city.\n\nQ.\n\nWhy?";
        assert_eq!(prose_weight(text), weight("Tucked behind a high wall, the hotel is a hideaway in a busy city."));
    }
}
