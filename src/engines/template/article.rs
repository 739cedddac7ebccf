//! Labeling article pages (the pages the feed's items link to) and inducing the article part
//! of the template (`blog-extraction-dice-bigram-rules.txt` §3 with the key-path paper's
//! generalization and the data-objects paper's semantic density).
//!
//! The content is the element whose text best matches the item's content or description by
//! the bottom-up bigram Dice algorithm. A description that is only the first lines of the
//! post matches a paragraph best; the key-path paper then climbs from paragraph-level elements
//! to their container, and the n-gram semantic density gives a second opinion: when the Dice
//! peak lies outside the densest wrapper, the wrapper wins. Comments are never the content.
//! Title, author and date are found the same way and resolved by tree distance to the content.
//! Each page gives its best rule for each field (by `id`, else `class`, else absolute path);
//! the rule that holds on the most pages wins.

use chrono::{DateTime, FixedOffset};

use crate::dom::{Document, NodeData, NodeId};
use crate::engines::rules::{ArticleRule, Field, Support};
use crate::feed::reader::FeedItem;
use crate::path::{Path, Step, Test};

use super::dates::{DateMatch, DateReader, compare_read};
use super::list::{DateLabel, LONG_TITLE, match_title, tree_distance};
use super::paths::{RuleKind, node_rules};
use super::text::{self, FeedTitle, TitleMatch};
use super::{density, dice};

/// A Dice coefficient at least this high means the feed held the whole text.
const FULL_TEXT: f32 = 0.75;
/// Targets shorter than this (in characters) say too little to find the content by.
const MIN_TARGET: usize = 40;
/// Elements that hold part of a text, not a text: the content is their container.
const PARTS: &[&str] = &[
    "p",
    "span",
    "em",
    "strong",
    "b",
    "i",
    "a",
    "li",
    "ul",
    "ol",
    "blockquote",
    "pre",
    "code",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "figure",
    "figcaption",
    "table",
    "tbody",
    "tr",
    "td",
    "th",
    "font",
    "small",
    "sup",
    "sub",
    "dl",
    "dt",
    "dd",
    "br",
    "img",
    "section",
];

/// Whether an element is (the start of) a comment section: its `id` or a class starts with
/// `comment` (comments, comment-list, commentlist…), or names a comment system.
fn is_comment_region(doc: &Document, node: NodeId) -> bool {
    let names =
        doc.attr(node, "id").into_iter().chain(doc.attr(node, "class").into_iter().flat_map(str::split_whitespace));
    names.map(str::to_ascii_lowercase).any(|n| {
        n.starts_with("comment")
            || n.starts_with("disqus")
            || matches!(n.as_str(), "respond" | "replies" | "utterances" | "giscus" | "remark42" | "isso-thread")
    })
}

/// For every node, whether it lies in a comment section.
pub fn comment_regions(doc: &Document) -> Vec<bool> {
    let mut inside = vec![false; doc.len()];
    let mut node = doc.root();
    while node.index() < doc.len() {
        if doc.is_element(node) && is_comment_region(doc, node) {
            let end = doc.node(node).end;
            inside[node.index()..end.index()].iter_mut().for_each(|b| *b = true);
            node = end;
        } else {
            node = NodeId(node.0 + 1);
        }
    }
    inside
}

/// What labeling found on one article page.
#[derive(Debug, Clone, Default)]
pub struct ArticleLabels {
    pub title: Option<NodeId>,
    pub content: Option<NodeId>,
    /// The content node's Dice coefficient against the feed's text.
    pub content_score: f32,
    pub author: Option<(NodeId, Option<String>)>,
    pub date: Option<DateLabel>,
}

/// The parts of a feed item to find on its page: its title, and the text its body should
/// match. A title that holds the content (longer than a title can be) is split at the page's
/// title: the page text it starts with is the title, the rest is the content.
struct Targets {
    title: String,
    body: Option<String>,
}

fn targets(doc: &Document, item: &FeedItem, excluded: &[bool]) -> Targets {
    let body = item.body().map(str::to_string);
    if item.title.chars().count() <= LONG_TITLE {
        return Targets { title: item.title.clone(), body };
    }
    // The key-path paper's feeds whose title holds the content: the longest heading that starts
    // the feed's title, with a text's worth of it left over, is the real title.
    let feed_title = text::normalize(&item.title);
    let mut found: Option<String> = None;
    for node in doc.ids().filter(|&n| doc.is_element(n) && !excluded[n.index()]) {
        if !matches!(doc.tag(node), Some("h1" | "h2" | "h3" | "title")) {
            continue;
        }
        let own = text::normalize(&doc.text(node));
        let own = text::strip_ellipsis(&own).to_string();
        let rest = feed_title.len().saturating_sub(own.len());
        if own.chars().count() >= 8
            && rest >= MIN_TARGET
            && feed_title.starts_with(&own)
            && found.as_ref().is_none_or(|f| own.len() > f.len())
        {
            found = Some(own);
        }
    }
    match found {
        Some(title) => {
            let rest = feed_title[title.len()..].trim().to_string();
            let body = match body {
                Some(b) if b.chars().count() > rest.chars().count() => Some(b),
                _ => Some(rest),
            };
            Targets { title, body }
        }
        None => Targets { title: item.title.clone(), body },
    }
}

/// Label an article page with its feed item.
pub fn label(doc: &Document, item: &FeedItem, dates: &DateReader) -> ArticleLabels {
    let Some(body) = doc.first_tag("body") else { return ArticleLabels::default() };
    let excluded = comment_regions(doc);
    let targets = targets(doc, item, &excluded);
    let mut labels = ArticleLabels::default();
    if let Some(target) = targets.body.as_deref().filter(|t| t.chars().count() >= MIN_TARGET) {
        let scores = dice::score(doc, body, &text::bigrams(target), |n| excluded[n.index()]);
        if let Some((best, score)) = scores.best() {
            labels.content_score = score;
            // A paragraph is part of a text, never the whole content (a description that is
            // the first paragraph matches it exactly); a `section` only when the feed's text
            // is not the whole of it.
            let climbed = climb_parts(doc, best, body, score < FULL_TEXT);
            let node = if score >= FULL_TEXT {
                climbed
            } else {
                let hint = format!("{} {}", targets.title, target.chars().take(2000).collect::<String>());
                match density::wrapper(doc, body, &hint, |n| excluded[n.index()]) {
                    Some(w) if !doc.contains(w, climbed) && !doc.contains(climbed, w) => w,
                    _ => climbed,
                }
            };
            labels.content = Some(node);
        }
    }
    let sizes = text::visible_chars(doc);
    labels.title = title_node(doc, body, &targets.title, labels.content, &excluded, &sizes);
    let anchor = labels.content.or(labels.title).unwrap_or(body);
    labels.author = item.author.as_deref().and_then(|a| author_node(doc, body, a, anchor, &excluded, &sizes));
    labels.date = item.date.and_then(|d| date_node(doc, d, labels.title.unwrap_or(anchor), dates, &excluded));
    labels
}

/// From a paragraph-level element up to the element that holds the whole text.
fn climb_parts(doc: &Document, node: NodeId, top: NodeId, sections: bool) -> NodeId {
    let mut node = node;
    while node != top && doc.tag(node).is_some_and(|t| PARTS.contains(&t) && (sections || t != "section")) {
        match doc.parent(node) {
            Some(parent) => node = parent,
            None => break,
        }
    }
    node
}

/// The rank of a title element: headings first, `h1` best.
fn heading_rank(doc: &Document, node: NodeId) -> u8 {
    match doc.tag(node) {
        Some("h1") => 6,
        Some("h2") => 5,
        Some("h3") => 4,
        Some("h4" | "h5" | "h6") => 3,
        Some("header") => 2,
        _ => 1,
    }
}

/// The element holding the item's title: the best match (headings first); of nested elements
/// with the same text the outermost; ties go to the one nearest the content.
fn title_node(
    doc: &Document,
    body: NodeId,
    title: &str,
    content: Option<NodeId>,
    excluded: &[bool],
    sizes: &[u32],
) -> Option<NodeId> {
    let limit = title.chars().count() * 2 + 60;
    let feed_title = FeedTitle::new(title);
    type Rank = (f32, u8, std::cmp::Reverse<u32>);
    let mut best: Option<(Rank, NodeId)> = None;
    let mut node = body;
    let end = doc.node(body).end;
    while node < end {
        if excluded[node.index()] || matches!(doc.tag(node), Some("script" | "style")) {
            node = doc.node(node).end;
            continue;
        }
        if doc.is_element(node) && sizes[node.index()] as usize <= limit {
            let own = doc.text(node);
            if own.chars().count() <= limit
                && let Some(m) = match_title(&feed_title, &own)
            {
                let distance = content.map_or(0, |c| tree_distance(doc, c, node));
                let rank = (m.score(), heading_rank(doc, node), std::cmp::Reverse(distance));
                // `>` keeps the outer of nested equals (pre-order visits it first), unless the
                // inner one is a better heading.
                let better = best
                    .as_ref()
                    .is_none_or(|(r, _)| rank.0.total_cmp(&r.0).then(rank.1.cmp(&r.1)).then(rank.2.cmp(&r.2)).is_gt());
                if better && !matches!(m, TitleMatch::Similar(d) if d < 0.8) {
                    best = Some((rank, node));
                }
            }
        }
        node = NodeId(node.0 + 1);
    }
    best.map(|(_, node)| node)
}

/// The element naming the author nearest the content (the smallest element whose text is the
/// name, or the name with a few words such as "by"), else a `<meta>` author.
fn author_node(
    doc: &Document,
    body: NodeId,
    author: &str,
    anchor: NodeId,
    excluded: &[bool],
    sizes: &[u32],
) -> Option<(NodeId, Option<String>)> {
    let name = text::normalize(author);
    if name.is_empty() {
        return None;
    }
    let limit = name.chars().filter(|c| !c.is_whitespace()).count() + 24;
    let mut best: Option<(u32, NodeId)> = None;
    for node in doc.descendants(body) {
        // Only elements with a short text, whose children do not name the author already.
        if !doc.is_element(node) || excluded[node.index()] || sizes[node.index()] as usize > limit {
            continue;
        }
        if !names(doc, node, &name) || doc.children(node).iter().any(|&c| doc.is_element(c) && names(doc, c, &name)) {
            continue;
        }
        let distance = tree_distance(doc, node, anchor);
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, node));
        }
    }
    if let Some((_, node)) = best {
        return Some((node, None));
    }
    doc.ids()
        .filter(|&n| doc.is_tag(n, "meta"))
        .find(|&n| {
            let names_author = doc
                .attr(n, "name")
                .or(doc.attr(n, "property"))
                .is_some_and(|v| v.to_ascii_lowercase().contains("author"));
            names_author && doc.attr(n, "content").is_some_and(|c| text::normalize(c) == name)
        })
        .map(|n| (n, Some("content".to_string())))
}

/// Whether an element's text holds the (normalized) name with at most a few words around it.
fn names(doc: &Document, node: NodeId, name: &str) -> bool {
    let own = text::normalize(&doc.text(node));
    own.contains(name) && own.len() <= name.len() + 24
}

/// Attributes that hold dates, on any element (`<time datetime>`, `<meta content>`).
const DATE_ATTRIBUTES: &[&str] = &["datetime", "content", "data-date"];

/// The page's element (or attribute) with the item's date: the best match, nearest the title.
fn date_node(
    doc: &Document,
    feed_date: DateTime<FixedOffset>,
    near: NodeId,
    dates: &DateReader,
    excluded: &[bool],
) -> Option<DateLabel> {
    type Rank = (DateMatch, bool, std::cmp::Reverse<u32>);
    let mut best: Option<(Rank, DateLabel)> = None;
    let mut consider = |label: DateLabel| {
        let distance = if doc.first_tag("head").is_some_and(|h| doc.contains(h, label.node)) {
            // Metadata is far from everything but reliable: behind any visible date of equal
            // quality, before none.
            u32::MAX / 2
        } else {
            tree_distance(doc, label.node, near)
        };
        let rank = (label.quality, label.attr.is_some(), std::cmp::Reverse(distance));
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, label));
        }
    };
    let mut node = doc.root();
    while node.index() < doc.len() {
        if excluded[node.index()] || matches!(doc.tag(node), Some("script" | "style")) {
            node = doc.node(node).end;
            continue;
        }
        match &doc.node(node).data {
            NodeData::Element { .. } => {
                for attr in DATE_ATTRIBUTES {
                    let Some(value) = doc.attr(node, attr) else { continue };
                    if value.len() > 64 || !value.bytes().any(|b| b.is_ascii_digit()) {
                        continue;
                    }
                    if let Some(found) = dates.read_precise(value)
                        && let Some(quality) = compare_read(&found, feed_date)
                    {
                        consider(DateLabel { node, attr: Some((*attr).to_string()), date: found.date, quality });
                    }
                }
            }
            NodeData::Text(text) if text.len() <= 200 && text.bytes().any(|b| b.is_ascii_digit()) => {
                if let Some(parent) = doc.parent(node).filter(|&p| doc.is_element(p) && !doc.is_tag(p, "title"))
                    && let Some(found) = dates.read_precise(text)
                    && let Some(quality) = compare_read(&found, feed_date)
                {
                    consider(DateLabel { node: parent, attr: None, date: found.date, quality });
                }
            }
            _ => {}
        }
        node = NodeId(node.0 + 1);
    }
    best.map(|(_, label)| label)
}

// ----- induction -----

/// One page's label of one field, to check candidate rules against.
struct Labeled<'d> {
    doc: &'d Document,
    node: NodeId,
    attr: Option<String>,
    date: Option<DateTime<FixedOffset>>,
}

/// A labeled article page, with the feed item it is the page of.
pub struct PageLabels<'d> {
    pub doc: &'d Document,
    pub item: &'d FeedItem,
    pub labels: ArticleLabels,
}

/// The learned article part with each field's support (how many pages its rule holds on, of
/// the pages where the field was found).
pub fn induce(pages: &[PageLabels], dates: &DateReader) -> (ArticleRule, Vec<(Field, Support)>) {
    let mut rule = ArticleRule::default();
    let mut support = Vec::new();
    for field in ArticleRule::FIELDS {
        let labeled: Vec<Labeled> = pages
            .iter()
            .filter_map(|p| {
                let (node, attr, date) = match field {
                    Field::Title => (p.labels.title?, None, None),
                    Field::Content => (p.labels.content?, None, None),
                    Field::Author => {
                        let (node, attr) = p.labels.author.clone()?;
                        (node, attr, None)
                    }
                    Field::Date => {
                        let d = p.labels.date.as_ref()?;
                        (d.node, d.attr.clone(), Some(d.date))
                    }
                    Field::Link | Field::Description => return None,
                };
                Some(Labeled { doc: p.doc, node, attr, date })
            })
            .collect();
        if labeled.is_empty() {
            continue;
        }
        if let Some((path, hits)) = best_rule(&labeled, field, dates) {
            // Of the pages where the field was found (a post without text has no content to
            // find), most must agree; a lone page is its own majority.
            let s = Support { matched: hits, of: labeled.len() as u32 };
            if hits * 2 > s.of || s.of == 1 {
                rule.set_field(field, Some(path));
                support.push((field, s));
            }
        }
    }
    (rule, support)
}

/// A content path whose text reproduces the feed's full text this well (word F1) leaves the
/// generic extractor no room to do better.
const NEAR_PERFECT: f32 = 0.99;
/// At most this many pages are compared: the generic extractor costs a few parses of a page.
const COMPARED_PAGES: usize = 2;

/// How the learned content path and the generic article extractor reproduce the feed's full
/// text on the training pages where they differ most (mean word F1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContentComparison {
    pub pages: usize,
    pub path_f1: f32,
    pub generic_f1: f32,
}

/// Word F1 within this of each other is a tie: a few words in a thousand on one or two pages
/// say nothing about which is better, and the path learned from the site stays.
const TIE: f32 = 0.005;

impl ContentComparison {
    /// The path is kept where it does at least as well as the generic extractor.
    pub fn keeps_path(&self) -> bool {
        self.path_f1 + TIE >= self.generic_f1
    }
}

/// Compare the content path's text with the generic extractor's against the feed's full text,
/// on the pages whose feed item holds the whole text (its Dice coefficient with the labeled
/// content is [`FULL_TEXT`]) and where the path is not already near perfect, the worst first.
/// `None`: nothing to compare (no full text, or the path is near perfect wherever there is).
pub fn compare_content(content: &Path, pages: &[PageLabels]) -> Option<ContentComparison> {
    let mut scored: Vec<(f32, &PageLabels, &str)> = pages
        .iter()
        .filter(|p| p.labels.content.is_some() && p.labels.content_score >= FULL_TEXT)
        .filter_map(|p| {
            let body = p.item.body()?;
            Some((text::word_f1(&super::apply::path_text(p.doc, content), body), p, body))
        })
        .filter(|(f1, _, _)| *f1 < NEAR_PERFECT)
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored.truncate(COMPARED_PAGES);
    if scored.is_empty() {
        return None;
    }
    let generic: Vec<f32> = scored
        .iter()
        .map(|(_, p, body)| {
            let article = crate::engines::article::extract(p.doc, &crate::engines::article::Hints::default());
            text::word_f1(article.content_text.as_deref().unwrap_or_default(), body)
        })
        .collect();
    let n = scored.len() as f32;
    Some(ContentComparison {
        pages: scored.len(),
        path_f1: scored.iter().map(|s| s.0).sum::<f32>() / n,
        generic_f1: generic.iter().sum::<f32>() / n,
    })
}

fn with_attr(mut path: Path, attr: Option<&str>) -> Path {
    if let Some(name) = attr {
        path.steps.push(Step {
            deep: false,
            test: Test::Attribute(name.to_string()),
            predicates: Vec::new(),
            index: None,
        });
    }
    path
}

/// The rule that holds on the most pages: each page's rules (by id, class, absolute path)
/// and the merges of same-kind rules of two pages (`post-12`, `post-13` → `post-*`); ties go
/// to the better kind, then to the rule found first.
fn best_rule(labeled: &[Labeled], field: Field, dates: &DateReader) -> Option<(Path, u32)> {
    let mut candidates: Vec<(RuleKind, Path)> = Vec::new();
    let per_page: Vec<Vec<(RuleKind, Path)>> = labeled
        .iter()
        .map(|l| node_rules(l.doc, l.node).into_iter().map(|(k, p)| (k, with_attr(p, l.attr.as_deref()))).collect())
        .collect();
    for rules in &per_page {
        for rule in rules {
            if !candidates.contains(rule) {
                candidates.push(rule.clone());
            }
        }
    }
    for (i, a) in per_page.iter().enumerate() {
        for b in &per_page[i + 1..] {
            for (ka, pa) in a {
                for (kb, pb) in b {
                    if ka != kb || pa == pb {
                        continue;
                    }
                    if let Some(mut merged) = pa.merge(pb) {
                        super::paths::generalize(&mut merged);
                        let rule = (*ka, merged);
                        if !candidates.contains(&rule) {
                            candidates.push(rule);
                        }
                    }
                }
            }
        }
    }
    let mut best: Option<((u32, std::cmp::Reverse<RuleKind>), Path)> = None;
    for (kind, path) in candidates {
        let hits = labeled.iter().filter(|l| holds(l, field, &path, dates)).count() as u32;
        let rank = (hits, std::cmp::Reverse(kind));
        if hits > 0 && best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, path));
        }
    }
    best.map(|((hits, _), path)| (path, hits))
}

/// Whether a rule gives a page's label: the content rule selects exactly the content node;
/// the title and author rules give the node first; the date rule reads the date first.
fn holds(l: &Labeled, field: Field, path: &Path, dates: &DateReader) -> bool {
    let doc = l.doc;
    match field {
        Field::Content => path.select_nodes(doc, doc.root()) == [l.node],
        Field::Date => {
            let targets = path.select(doc, doc.root());
            targets.iter().find_map(|t| dates.read(&t.text(doc))).is_some_and(|d| Some(d) == l.date)
        }
        _ => {
            let targets = path.select(doc, doc.root());
            targets.iter().find(|t| !t.text(doc).is_empty()).is_some_and(|t| t.node() == l.node)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;
    use url::Url;

    fn page(n: u32, with_comments: bool) -> Document {
        let comments = if with_comments {
            format!(
                r#"<section id="comments"><ol class="comment-list"><li class="comment"><p>Great post {n}! I read it
                twice and learned much about the topic of post number {n}, thanks.</p><span class=by>Zed</span></li></ol></section>"#
            )
        } else {
            String::new()
        };
        let html = format!(
            r#"<html><head><title>Post {n} | Blog</title><meta property="article:published_time" content="2024-0{n}-0{n}T08:00:00+02:00"></head>
            <body><header><nav><a href="/">Home</a></nav></header><main id="main">
            <article id="post-{n}" class="post"><h1 class="entry-title">Post number {n} about things</h1>
            <div class="meta"><span class="author">Ann Author</span> · <time datetime="2024-0{n}-0{n}">0{n}/0{n}/2024</time></div>
            <div class="entry-content"><p>This is the first paragraph of post {n}, which the feed describes.</p>
            <p>A second paragraph with more words about the subject {n} and its many details.</p>
            <p>The third and last paragraph closes post {n} with a conclusion.</p></div></article>{comments}</main>
            <aside><h2>Recent</h2><ul><li>Post number 9 about things</li></ul></aside></body></html>"#
        );
        crate::dom::parse_str(&html, &Url::parse(&format!("https://b.org/p/{n}/")).unwrap()).unwrap()
    }

    fn item(n: u32, summary: bool) -> FeedItem {
        let full = format!(
            "This is the first paragraph of post {n}, which the feed describes. A second paragraph with more words about the subject {n} and its many details. The third and last paragraph closes post {n} with a conclusion."
        );
        let short = format!("This is the first paragraph of post {n}, which the feed describes.");
        let item = FeedItem::new(
            format!("Post number {n} about things"),
            Url::parse(&format!("https://b.org/p/{n}/")).ok(),
            DateTime::parse_from_rfc3339(&format!("2024-0{n}-0{n}T06:00:00Z")).ok(),
        )
        .with_author("Ann Author");
        if summary {
            item.with_summary(short, false)
        } else {
            item.with_summary(full.clone(), false).with_content(full, false)
        }
    }

    fn learn(truncated: bool, comments: bool) -> (ArticleRule, Vec<(Field, Support)>) {
        let dates = DateReader::new(None, Utc::now());
        let docs: Vec<Document> = (1..=3).map(|n| page(n, comments)).collect();
        let items: Vec<FeedItem> = (1..=3).map(|n| item(n, truncated)).collect();
        let pages: Vec<PageLabels> = docs
            .iter()
            .zip(&items)
            .map(|(doc, item)| PageLabels { doc, item, labels: label(doc, item, &dates) })
            .collect();
        induce(&pages, &dates)
    }

    #[test]
    fn full_text_feeds_give_the_content_rule_by_class() {
        let (rule, support) = learn(false, true);
        assert_eq!(rule.content.unwrap().to_string(), "//DIV[@class=entry-content]");
        assert_eq!(rule.title.unwrap().to_string(), "//H1[@class=entry-title]");
        assert_eq!(rule.author.unwrap().to_string(), "//SPAN[@class=author]");
        assert_eq!(rule.date.unwrap().to_string(), "//META[@property=article:published_time]/@content");
        assert!(support.iter().all(|(_, s)| *s == Support { matched: 3, of: 3 }), "{support:?}");
    }

    #[test]
    fn truncated_descriptions_still_give_the_whole_content() {
        let (rule, _) = learn(true, true);
        assert_eq!(rule.content.unwrap().to_string(), "//DIV[@class=entry-content]");
    }
}
