//! `rule suggest`: the `auto` engine's list written as a mapping rule, so that a person can
//! freeze it, read it and edit it.
//!
//! Whichever engine made the list, its items are anchored on the page the same way: each
//! item's headline link, and its *record* — the largest subtree around the link that holds no
//! other item's link (the `<li>`, the `<article>`, the table row). Then, from the most general
//! rule to the most specific, the first one that reproduces the items (links and titles, in
//! order) on the page itself is taken:
//!
//! 1. the records' containers by class and id (the key-path paper's paths, anchored on the
//!    nearest element with a stable `id`), the records by tag and merged class;
//! 2. the containers by their indexed absolute paths (paper §2.1.2's merge);
//! 3. one subject per item, by the record's absolute path — exact for this page, brittle for
//!    others (the suggestion says so).
//!
//! Field paths are relative to the record and merged over the items the way the paper merges
//! marked examples: an index stays where all items agree.

use std::collections::HashSet;

use url::Url;

use super::Analysis;
use crate::dom::{Document, NodeId, collapse_whitespace};
use crate::engines::record::title_node;
use crate::engines::rules::{self, ItemRule, Rule, SubjectRule, UrlPattern};
use crate::engines::timepattern::TimeSource;
use crate::model::{Item, Page};
use crate::path::{AttrPredicate, Path, Pattern, Step, Test};

/// How general the suggested rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generality {
    /// Containers by class and id: serves the site's other pages of this kind too.
    KeyPaths,
    /// Containers by indexed position: serves pages laid out exactly like this one.
    Positions,
    /// One subject per item: reproduces this page only.
    ThisPage,
}

/// A suggested rule and how well it reproduces the `auto` result.
#[derive(Debug, Clone)]
pub struct Suggestion {
    pub rule: Rule,
    pub generality: Generality,
    /// Items of the `auto` result the rule gives again, in order (link and title).
    pub reproduced: usize,
    pub items: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum SuggestError {
    #[error("no item list was found on {0}: there is nothing to write a rule for")]
    NoItems(Url),
    #[error("item {index} ('{title}') has no link on the page to anchor a rule on")]
    NoAnchor { index: usize, title: String },
}

/// Where one item sits on the page.
struct Anchored {
    /// The record: the largest subtree around the link without another item's link.
    record: NodeId,
    link: NodeId,
    title: NodeId,
    /// The date's node, and the attribute it was read from.
    date: Option<(NodeId, Option<String>)>,
    /// The element with the record's text besides its headline (an excerpt).
    description: Option<NodeId>,
}

/// The rule that reproduces the `auto` result of `analysis` on `doc`.
pub fn suggest(doc: &Document, analysis: &Analysis) -> Result<Suggestion, SuggestError> {
    let page = &analysis.extraction.page;
    let items: Vec<&Item> = page.items().collect();
    if items.is_empty() {
        return Err(SuggestError::NoItems(doc.url.clone()));
    }
    let anchored = anchor(doc, analysis, &items)?;
    let template = Rule {
        name: Some(format!("suggested for {}", doc.url)),
        urls: UrlPattern::parse(doc.url.as_str()).into_iter().collect(),
        link: matches!(doc.url.scheme(), "http" | "https").then(|| doc.url.clone()),
        encoding: Some(doc.encoding),
        timezone: None,
        date_format: None,
        page_date: None,
        subjects: Vec::new(),
        article: None,
        support: Default::default(),
    };
    let fields = fields(doc, &anchored);
    let mut best: Option<Suggestion> = None;
    let attempts = [Generality::KeyPaths, Generality::Positions, Generality::ThisPage];
    for generality in attempts {
        for subjects in subject_rules(doc, &anchored, fields.as_ref(), generality) {
            let rule = Rule { subjects, ..template.clone() };
            let reproduced = reproduced(&items, &rules::apply(&rule, doc, chrono::Utc::now()).page);
            let suggestion = Suggestion { rule, generality, reproduced, items: items.len() };
            if reproduced == items.len() {
                return Ok(suggestion);
            }
            if best.as_ref().is_none_or(|b| b.reproduced < reproduced) {
                best = Some(suggestion);
            }
        }
    }
    // Every attempt yields at least one rule, so there is a best one.
    best.ok_or_else(|| SuggestError::NoItems(doc.url.clone()))
}

/// Each item's link, title, date and record.
fn anchor(doc: &Document, analysis: &Analysis, items: &[&Item]) -> Result<Vec<Anchored>, SuggestError> {
    let links: Vec<(NodeId, Url)> = doc
        .ids()
        .filter(|&n| doc.is_tag(n, "a"))
        .filter_map(|n| Some((n, doc.attr(n, "href").and_then(|h| doc.resolve(h))?)))
        .collect();
    let mut used: HashSet<NodeId> = HashSet::new();
    let mut chosen: Vec<(NodeId, NodeId)> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let no_anchor = || SuggestError::NoAnchor { index, title: item.title.clone() };
        let link = item.link.as_ref().ok_or_else(no_anchor)?;
        let title_node = |a: NodeId| title_node(doc, a);
        let same = || links.iter().filter(|(n, url)| url == link && !used.contains(n));
        // The link whose text is the title, else the first one to the item.
        let (node, _) = same()
            .find(|&&(n, _)| doc.text(title_node(n)) == item.title)
            .or_else(|| same().next())
            .ok_or_else(no_anchor)?;
        used.insert(*node);
        chosen.push((*node, title_node(*node)));
    }
    let mut nodes: Vec<NodeId> = chosen.iter().map(|&(link, _)| link).collect();
    nodes.sort_unstable();
    let others_in = |top: NodeId, own: NodeId| {
        let from = nodes.partition_point(|&n| n < top);
        nodes[from..].iter().take_while(|&&n| n < doc.node(top).end).any(|&n| n != own)
    };
    let time_nodes = &analysis.time.time_nodes;
    Ok(chosen
        .into_iter()
        .zip(items)
        .map(|((link, title), item)| {
            let mut record = link;
            while let Some(parent) = doc.parent(record) {
                if doc.tag(parent).is_none_or(|t| matches!(t, "body" | "html")) || others_in(parent, link) {
                    break;
                }
                record = parent;
            }
            let date = item.date.and_then(|date| {
                time_nodes
                    .iter()
                    .find(|n| n.date == date && doc.contains(record, n.node))
                    .map(|n| (n.node, (n.source == TimeSource::Attribute).then(|| n.attribute.clone()).flatten()))
            });
            let description = description_node(doc, record, link);
            Anchored { record, link, title, date, description }
        })
        .collect())
}

/// The item fields as paths from the record, merged over the items; `None` when the items'
/// fields differ in shape (the rule is then written per item).
struct Fields {
    title: Path,
    link: Path,
    date: Option<Path>,
    description: Option<Path>,
}

fn fields(doc: &Document, anchored: &[Anchored]) -> Option<Fields> {
    let merged = |target: &dyn Fn(&Anchored) -> Option<Path>| -> Option<Path> {
        let paths: Vec<Path> = anchored.iter().map(target).collect::<Option<_>>()?;
        Path::merge_all(&paths)
    };
    let title = merged(&|a| Path::relative(doc, a.record, a.title))?;
    let link = merged(&|a| Path::relative(doc, a.record, a.link))?;
    // A date path when most items have a date and all of them sit alike.
    let dated: Vec<&Anchored> = anchored.iter().filter(|a| a.date.is_some()).collect();
    let date = (dated.len() * 2 > anchored.len())
        .then(|| {
            let paths: Vec<Path> = dated.iter().map(|a| date_path(doc, a)).collect::<Option<_>>()?;
            Path::merge_all(&paths)
        })
        .flatten();
    let described: Vec<Path> = anchored.iter().filter_map(|a| Path::relative(doc, a.record, a.description?)).collect();
    let description = (described.len() * 2 > anchored.len()).then(|| Path::merge_all(&described)).flatten();
    Some(Fields { title, link, date, description })
}

/// Least text of an excerpt, in characters.
const MIN_DESCRIPTION_CHARS: usize = 20;

/// The element of the record with the most text that neither holds nor is inside the headline
/// link (the outermost one of equal text: a summary wrapper rather than its paragraph).
fn description_node(doc: &Document, record: NodeId, link: NodeId) -> Option<NodeId> {
    let mut best: Option<(NodeId, usize)> = None;
    for node in doc.descendants(record) {
        let skip = doc.tag(node).is_none_or(|t| matches!(t, "script" | "style" | "template" | "noscript" | "a"));
        if skip || doc.contains(node, link) || doc.contains(link, node) {
            continue;
        }
        let chars = doc.text(node).chars().count();
        if chars >= MIN_DESCRIPTION_CHARS && best.is_none_or(|(_, most)| chars > most) {
            best = Some((node, chars));
        }
    }
    best.map(|(node, _)| node)
}

fn date_path(doc: &Document, anchored: &Anchored) -> Option<Path> {
    let (mut node, mut attribute) = anchored.date.clone()?;
    // A date shown in a `<time datetime>` is read from the attribute: it is exact.
    let time = std::iter::once(node).chain(doc.parent(node)).find(|&n| doc.is_tag(n, "time"));
    if let Some(time) = time.filter(|&t| doc.attr(t, "datetime").is_some() && doc.contains(anchored.record, t)) {
        (node, attribute) = (time, Some("datetime".to_string()));
    }
    let mut path = Path::relative(doc, anchored.record, node)?;
    if let Some(name) = attribute {
        path.steps.push(Step { deep: false, test: Test::Attribute(name.clone()), predicates: Vec::new(), index: None });
    }
    Some(path)
}

/// The subject rules to try at one level of generality, most general first.
fn subject_rules(
    doc: &Document,
    anchored: &[Anchored],
    fields: Option<&Fields>,
    generality: Generality,
) -> Vec<Vec<SubjectRule>> {
    let item_rule = |path: Path, fields: &Fields| ItemRule {
        title: Some(fields.title.clone()),
        link: Some(fields.link.clone()),
        date: fields.date.clone(),
        description: fields.description.clone(),
        ..ItemRule::new(path)
    };
    if generality == Generality::ThisPage {
        let subjects = anchored
            .iter()
            .map(|a| {
                let own = Fields {
                    title: Path::relative(doc, a.record, a.title).unwrap_or_else(here),
                    link: Path::relative(doc, a.record, a.link).unwrap_or_else(here),
                    date: date_path(doc, a),
                    description: a.description.and_then(|d| Path::relative(doc, a.record, d)),
                };
                SubjectRule { path: Path::of(doc, a.record), title: None, item: item_rule(here(), &own) }
            })
            .collect();
        return vec![subjects];
    }
    let Some(fields) = fields else { return Vec::new() };
    let tag = doc.tag(anchored[0].record).unwrap_or_default();
    if anchored.iter().any(|a| doc.tag(a.record) != Some(tag)) {
        return Vec::new();
    }
    let mut containers: Vec<NodeId> = anchored.iter().filter_map(|a| container(doc, a.record)).collect();
    containers.dedup();
    let container_paths: Vec<Path> = match generality {
        Generality::KeyPaths => containers.iter().map(|&c| key_path(doc, c)).collect(),
        _ => containers.iter().map(|&c| Path::of(doc, c)).collect(),
    };
    let Some(subject_path) = Path::merge_all(&container_paths) else { return Vec::new() };
    let mut item_steps = Vec::new();
    if let Some(class) = merged_class(doc, anchored) {
        let mut step = Step::element(tag, None);
        step.predicates.push(AttrPredicate { name: "class".into(), value: Some(class) });
        item_steps.push(step);
    }
    item_steps.push(Step::element(tag, None));
    item_steps
        .into_iter()
        .map(|step| {
            let item_path = Path { absolute: false, steps: vec![step] };
            vec![SubjectRule { path: subject_path.clone(), title: None, item: item_rule(item_path, fields) }]
        })
        .collect()
}

/// The empty relative path: the context node itself (`.`).
fn here() -> Path {
    Path { absolute: false, steps: Vec::new() }
}

/// The parent as paths see it (TBODY, THEAD and TFOOT are transparent).
fn container(doc: &Document, node: NodeId) -> Option<NodeId> {
    let mut parent = doc.parent(node)?;
    while doc.tag(parent).is_some_and(|t| matches!(t, "tbody" | "thead" | "tfoot")) {
        parent = doc.parent(parent)?;
    }
    Some(parent)
}

/// The records' class, merged (common prefix and `*`), when every record has one and the
/// merge says more than "some class".
fn merged_class(doc: &Document, anchored: &[Anchored]) -> Option<Pattern> {
    let mut classes =
        anchored.iter().map(|a| doc.attr(a.record, "class").map(collapse_whitespace).filter(|c| !c.is_empty()));
    let first = Pattern(classes.next()??);
    let merged = classes.try_fold(first, |acc, class| Some(acc.merge(&Pattern(class?))))?;
    (merged.0 != "*").then_some(merged)
}

/// A container by class and id, from the nearest ancestor with a stable id (`//DIV[@id=main]`)
/// or from the document: `//DIV[@id=main]/SECTION[@class=posts]/UL`. Ids with digits are
/// usually generated per page or per record, so they anchor nothing.
fn key_path(doc: &Document, node: NodeId) -> Path {
    let mut steps = Vec::new();
    let mut current = Some(node);
    let mut from_root = true;
    while let Some(n) = current {
        let Some(tag) = doc.tag(n) else { break };
        if tag == "html" {
            break;
        }
        let mut step = Step::element(tag, None);
        let id =
            doc.attr(n, "id").map(str::trim).filter(|id| !id.is_empty() && !id.chars().any(|c| c.is_ascii_digit()));
        if let Some(id) = id {
            step.deep = true;
            step.predicates.push(AttrPredicate { name: "id".into(), value: Some(Pattern(id.to_string())) });
            steps.push(step);
            from_root = false;
            break;
        }
        if let Some(class) = doc.attr(n, "class").map(collapse_whitespace).filter(|c| !c.is_empty() && tag != "body") {
            step.predicates.push(AttrPredicate { name: "class".into(), value: Some(Pattern(class)) });
        }
        steps.push(step);
        current = container(doc, n);
    }
    if from_root {
        steps.push(Step::element("html", None));
    }
    steps.reverse();
    // `//X[@id=...]/...` starts anywhere in the document: a deep first step of an absolute path.
    Path { absolute: true, steps }
}

/// How many of the expected items the rule's page gives at their place (by link and title);
/// the rule's repeated links count once (the `auto` engine gives each link once). Extra or
/// missing items shift the rest, so only the common prefix counts then.
fn reproduced(expected: &[&Item], page: &Page) -> usize {
    let mut seen = HashSet::new();
    let got: Vec<&Item> = page.items().filter(|i| i.link.as_ref().is_none_or(|l| seen.insert(l.clone()))).collect();
    let in_place = |(e, g): &(&&Item, &&Item)| same(e, g);
    if got.len() == expected.len() {
        expected.iter().zip(&got).filter(in_place).count()
    } else {
        // Never all of them: the item counts differ.
        expected.iter().zip(&got).take_while(in_place).count().min(expected.len() - 1)
    }
}

fn same(expected: &Item, got: &Item) -> bool {
    expected.link == got.link && expected.title == got.title
}

#[cfg(test)]
mod tests {
    use chrono::DateTime;

    use super::*;
    use crate::engines::auto::analyze;
    use crate::engines::timepattern::{DateContext, TimePatternDb};

    fn suggestion(html: &str) -> Suggestion {
        let doc = crate::dom::parse_str(html, &Url::parse("https://example.org/blog/").unwrap()).unwrap();
        let context = DateContext::new(DateTime::parse_from_rfc3339("2024-06-01T00:00:00Z").unwrap());
        suggest(&doc, &analyze(&doc, TimePatternDb::builtin(), &context)).unwrap()
    }

    #[test]
    fn a_list_by_class_gets_key_paths_with_title_link_date_and_description() {
        let posts: String = (1..=4)
            .map(|i| {
                format!(
                    r#"<article class="post"><h2><a href="/blog/{i}/">Post {i} has a headline</a></h2>
                       <time datetime="2024-05-0{i}">May {i}</time><p>The excerpt of post {i}, long enough.</p></article>"#
                )
            })
            .collect();
        let s = suggestion(&format!(
            r#"<body><nav><a href="/">Home</a><a href="/about/">About</a></nav><div id="content"><section class="posts">{posts}</section></div></body>"#
        ));
        assert_eq!((s.generality, s.reproduced, s.items), (Generality::KeyPaths, 4, 4));
        let subject = &s.rule.subjects[0];
        assert_eq!(subject.path.to_string(), "//DIV[@id=content]/SECTION[@class=posts]");
        let item = &subject.item;
        assert_eq!(item.path.to_string(), "ARTICLE[@class=post]");
        assert_eq!(item.title.as_ref().unwrap().to_string(), "H2[0]/A[0]");
        assert_eq!(item.date.as_ref().unwrap().to_string(), "TIME[0]/@datetime");
        assert_eq!(item.description.as_ref().unwrap().to_string(), "P[0]");
        assert_eq!(s.rule.urls[0].as_str(), "https://example.org/blog/");
    }
}
