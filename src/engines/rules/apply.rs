//! Applying a rule to a parsed page: the paper's Step 2 of SAMR.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use url::Url;

use super::{Field, ItemRule, Rule, parse_date};
use crate::dom::{Document, NodeId};
use crate::engines::record::without_date;
use crate::engines::{Engine, Extraction, article};
use crate::model::{Item, Page, Subject};
use crate::path::{Path, Target};
use crate::sanitize::sanitize_html;

/// Extract the page model with a rule. Every node the subject path selects is a subject (kept
/// when it has items); every node the item path selects under it is an item, kept when it has
/// a title or a link. The confidence is the share of (item, field path) pairs that found
/// something, times the share of subject paths that gave items: 0 when nothing matched.
pub fn apply(rule: &Rule, doc: &Document, now: DateTime<Utc>) -> Extraction {
    let mut page = Page::new(doc.url.clone(), doc.title(), doc.encoding.name());
    page.date = rule.page_date.as_ref().and_then(|path| {
        path.select(doc, doc.root()).iter().find_map(|target| parse_date(&target.text(doc), rule, now))
    });
    let mut used = HashSet::new();
    let (mut found, mut looked_for, mut productive_subjects) = (0usize, 0usize, 0usize);
    for subject_rule in &rule.subjects {
        let mut productive = false;
        for subject_node in subject_rule.path.select_nodes(doc, doc.root()) {
            let title = subject_rule.title.as_ref().and_then(|path| first_text(doc, path, subject_node));
            let mut items = Vec::new();
            for item_node in subject_rule.item.path.select_nodes(doc, subject_node) {
                // Subjects that nest (a `//` path) must not give an item twice.
                if !used.insert(item_node) {
                    continue;
                }
                let Some((item, hits)) = extract_item(rule, &subject_rule.item, doc, item_node, now) else { continue };
                found += hits;
                looked_for += Field::ALL.iter().filter(|&&f| subject_rule.item.field(f).is_some()).count();
                items.push(item);
            }
            if !items.is_empty() {
                productive = true;
                page.subjects.push(Subject { title, items });
            }
        }
        productive_subjects += usize::from(productive);
    }
    let confidence = if looked_for == 0 {
        0.0
    } else {
        (found as f32 / looked_for as f32) * (productive_subjects as f32 / rule.subjects.len() as f32)
    };
    Extraction { page, engine: Engine::Rule, confidence }
}

/// One item, with how many of the item's field paths found something.
fn extract_item(
    rule: &Rule,
    spec: &ItemRule,
    doc: &Document,
    node: NodeId,
    now: DateTime<Utc>,
) -> Option<(Item, usize)> {
    let mut hits = 0;
    let mut hit = |found: bool| hits += usize::from(found);
    let (link, anchor) = match &spec.link {
        Some(path) => path.select(doc, node).iter().find_map(|&t| link_of(doc, t, node)).unzip(),
        None => first_link(doc, node).unzip(),
    };
    hit(spec.link.is_some() && link.is_some());
    let title_node = match &spec.title {
        Some(path) => path.select(doc, node).into_iter().find(|t| !t.text(doc).is_empty()),
        // Without a title path, the text of the link.
        None => anchor.flatten().map(Target::Node).filter(|t| !t.text(doc).is_empty()),
    };
    let mut title = title_node.map(|t| t.text(doc));
    hit(spec.title.is_some() && title.is_some());
    if title.is_none() && link.is_none() {
        return None;
    }
    let mut date = None;
    if let Some(path) = &spec.date {
        date = path.select(doc, node).into_iter().find_map(|t| Some((t, parse_date(&t.text(doc), rule, now)?)));
        hit(date.is_some());
    }
    // A title element that holds the date shown ("Post title Jun 3, 2024") gives the title
    // without it, as the time-pattern engine reads such titles.
    if let (Some(Target::Node(title_node)), Some((Target::Node(date_node), _))) = (title_node, date)
        && title_node != date_node
        && doc.contains(title_node, date_node)
        && let Some(text) = title.as_mut()
    {
        let stripped = without_date(text, &doc.text(date_node));
        if !stripped.is_empty() {
            *text = stripped;
        }
    }
    let mut item = Item::new(title.unwrap_or_default());
    item.link = link;
    item.date = date.map(|(_, d)| d);
    if let Some(path) = &spec.author {
        item.author = first_text(doc, path, node);
        hit(item.author.is_some());
    }
    if let Some(path) = &spec.description {
        item.description = html_of(doc, path, node);
        hit(item.description.is_some());
    }
    if let Some(path) = &spec.content {
        item.content = html_of(doc, path, node);
        hit(item.content.is_some());
    }
    Some((item, hits))
}

/// The visible text of the first target that has any.
fn first_text(doc: &Document, path: &Path, context: NodeId) -> Option<String> {
    path.select(doc, context).iter().map(|t| t.text(doc)).find(|text| !text.is_empty())
}

/// The link a field target stands for, and the `<a>` it came from: an attribute's value; a
/// link's own href; the link around it (a title's text inside `<a>`), not above the item;
/// else the first link inside it.
fn link_of(doc: &Document, target: Target, item: NodeId) -> Option<(Url, Option<NodeId>)> {
    let node = match target {
        Target::Attr(node, name) => return doc.attr(node, name).and_then(|href| doc.resolve(href)).map(|u| (u, None)),
        Target::Node(node) => node,
    };
    let enclosing = std::iter::once(node)
        .chain(doc.ancestors(node).take_while(|&a| doc.contains(item, a)))
        .find_map(|n| own_link(doc, n));
    enclosing.or_else(|| first_link(doc, node))
}

fn own_link(doc: &Document, node: NodeId) -> Option<(Url, Option<NodeId>)> {
    if !matches!(doc.tag(node), Some("a" | "area")) {
        return None;
    }
    doc.attr(node, "href").and_then(|href| doc.resolve(href)).map(|url| (url, Some(node)))
}

/// The node's own link, else the first link inside it that resolves.
fn first_link(doc: &Document, node: NodeId) -> Option<(Url, Option<NodeId>)> {
    std::iter::once(node).chain(doc.descendants(node)).find_map(|n| own_link(doc, n))
}

/// The inner HTML of every target, sanitized with the page's base; text and attributes are
/// escaped. `None` when there is nothing.
pub fn html_of(doc: &Document, path: &Path, context: NodeId) -> Option<String> {
    let mut html = String::new();
    for target in path.select(doc, context) {
        match target {
            Target::Node(node) if doc.is_element(node) => {
                html.push_str(&article::content::visible_inner_html(doc, node))
            }
            other => html.push_str(&quick_xml::escape::escape(other.text(doc))),
        }
    }
    if html.trim().is_empty() {
        return None;
    }
    // Markup-free HTML is escaped text already: ammonia would return it unchanged, slowly.
    if !html.contains('<') {
        return Some(html.trim().to_string());
    }
    let clean = sanitize_html(&html, &doc.base);
    (!clean.trim().is_empty()).then(|| clean.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;

    fn doc(html: &str) -> Document {
        parse_str(html, &Url::parse("https://example.org/news/").unwrap()).unwrap()
    }

    fn rule(xml: &str) -> Rule {
        Rule::parse(xml, "test").unwrap_or_else(|e| panic!("{e}"))
    }

    fn now() -> DateTime<Utc> {
        Utc::now()
    }

    const PAPER_PAGE: &str = r#"<html><head><title>Daily</title></head><body><table><tr>
        <div>WORLD <a href="/w/1">w1</a></div>
        <div><b>BUSINESS</b> <a href="/b/1">First deal</a> 2005-03-15 <a href="/b/2">Second deal</a> 2005-03-14</div>
        </tr></table>"#;

    #[test]
    fn the_papers_example_merged_title_path_extracts_the_subject() {
        // §2.1.2: the merged title path /HTML[0]/BODY[0]/TABLE[0]/TR[0]/DIV[1]/A/TEXT[0].
        // html5ever moves the DIVs out of the table (foster parenting), so here they are
        // BODY's children; the path keeps the paper's shape.
        let d = doc(PAPER_PAGE);
        let r = rule(
            r#"<?xml version = "1.0" encoding = "UTF-8"?>
            <page>
              <link>https://example.org/news/</link>
              <encoding>UTF-8</encoding>
              <subject path="/HTML[0]/BODY[0]/DIV[1]">
                <title>B[0]</title>
                <item path="A">
                  <title>TEXT[0]</title>
                  <link>.</link>
                </item>
              </subject>
            </page>"#,
        );
        let extraction = apply(&r, &d, now());
        assert_eq!(extraction.engine, Engine::Rule);
        assert_eq!(extraction.confidence, 1.0);
        let page = &extraction.page;
        assert_eq!(page.title, "Daily");
        assert_eq!(page.subjects.len(), 1);
        assert_eq!(page.subjects[0].title.as_deref(), Some("BUSINESS"));
        let items: Vec<_> = page.items().map(|i| (i.title.as_str(), i.link.as_ref().unwrap().as_str())).collect();
        assert_eq!(items, [("First deal", "https://example.org/b/1"), ("Second deal", "https://example.org/b/2")]);
    }

    #[test]
    fn defaults_link_from_the_title_and_text_from_the_link() {
        let d = doc(r##"<base href="https://cdn.example.net/"><ul>
            <li><h3><a href="p1">One</a></h3><p>Short <b>bold</b> <script>x()</script></p><span class=by> Ann </span></li>
            <li><h3>Two</h3><a href="#top">top</a><a href="p2">more</a><time datetime="2024-05-06T07:08:09+02:00">May</time></li>
            <li><p>no title, no link</p></li>
            <li><a href="javascript:void(0)">Three</a></li>
        </ul>"##);
        let r = rule(
            r#"<page><subject path="//UL"><item path="LI">
                 <title>H3</title><date>TIME/@datetime</date><description>P</description><author>SPAN</author>
               </item></subject></page>"#,
        );
        let page = apply(&r, &d, now()).page;
        let items: Vec<&Item> = page.items().collect();
        assert_eq!(items.len(), 2, "{items:#?}");
        // No link path: the item's first link that resolves (`#top` does not); <base> wins.
        assert_eq!(items[0].link.as_ref().unwrap().as_str(), "https://cdn.example.net/p1");
        assert_eq!(items[1].link.as_ref().unwrap().as_str(), "https://cdn.example.net/p2");
        assert_eq!(items[0].description.as_deref(), Some("Short <b>bold</b>"));
        assert_eq!(items[0].author.as_deref(), Some("Ann"));
        assert_eq!(items[1].date.unwrap().to_rfc3339(), "2024-05-06T07:08:09+02:00");
        // `A` is a child of the item: the first item's link is in its H3, so it keeps only its
        // link; the fourth keeps only its title (its link is not http).
        let r = rule(r#"<page><subject path="/"><item path="//LI"><title>A</title></item></subject></page>"#);
        let page = apply(&r, &d, now()).page;
        let titles: Vec<_> = page.items().map(|i| (i.title.as_str(), i.link.is_some())).collect();
        assert_eq!(titles, [("", true), ("top", true), ("Three", false)]);
    }

    #[test]
    fn link_paths_take_the_link_around_inside_or_an_attribute() {
        let d = doc(r#"<div class=post><h2><a href="/a"><span>Title A</span></a></h2><img data-href="/img"></div>"#);
        let link = |path: &str| {
            let r = rule(&format!(
                r#"<page><subject path="/"><item path="//DIV[@class=post]"><link>{path}</link></item></subject></page>"#
            ));
            let page = apply(&r, &d, now()).page;
            let item = page.items().next().cloned();
            item.map(|i| (i.title, i.link.map(|l| l.path().to_string())))
        };
        assert_eq!(link("H2/A/SPAN"), Some(("Title A".into(), Some("/a".into()))));
        assert_eq!(link("H2"), Some(("Title A".into(), Some("/a".into()))));
        assert_eq!(link("H2/A/SPAN/TEXT[0]"), Some(("Title A".into(), Some("/a".into()))));
        assert_eq!(link("IMG/@data-href"), Some((String::new(), Some("/img".into()))));
        assert_eq!(link("P"), None);
    }

    #[test]
    fn subjects_without_items_are_dropped_and_lower_the_confidence() {
        let d = doc(r#"<div id=a><h2>A</h2><p><a href=/1>1</a></p></div><div id=b><h2>B</h2></div>"#);
        let r = rule(
            r#"<page>
              <date>//P[9]</date>
              <subject path="//DIV"><title>H2</title><item path="P"><title>A</title><date>A</date></item></subject>
              <subject path="//SECTION"><item path="P"><title>A</title></item></subject>
            </page>"#,
        );
        let extraction = apply(&r, &d, now());
        assert_eq!(extraction.page.subjects.len(), 1);
        assert_eq!(extraction.page.subjects[0].title.as_deref(), Some("A"));
        assert_eq!(extraction.page.date, None);
        // Title found, date not (1 of 2), and one subject path of two gave items.
        assert_eq!(extraction.confidence, 0.25);
    }

    #[test]
    fn a_rule_that_matches_nothing_has_no_confidence() {
        let d = doc("<p>nothing</p>");
        let r = rule(r#"<page><subject path="//UL"><item path="LI"><title>A</title></item></subject></page>"#);
        let extraction = apply(&r, &d, now());
        assert_eq!(extraction.page.item_count(), 0);
        assert_eq!(extraction.confidence, 0.0);
    }
}
