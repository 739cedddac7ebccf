//! The n-gram semantic density of `data-objects-from-web-feeds.txt` (§4.2, Algorithm 1): the
//! wrapper of a feed item's data object is the block that holds the densest text nodes, where
//! a text node's density is how many of the item's n-grams it contains per word.
//!
//! The paper groups conceptual nodes under their closest `div`; pages written in HTML5 wrap
//! articles in `article`, `section` and `main` as well, so those count as blocks too.

use std::collections::{HashMap, HashSet};

use crate::dom::{Document, NodeData, NodeId};

use super::text::words;

/// Elements whose text is not page content.
const NON_CONTENT: &[&str] = &["script", "style", "template", "noscript", "head"];
/// The blocks a data object is confined in.
const BLOCKS: &[&str] = &["div", "article", "section", "main", "body", "td", "blockquote"];
/// A wrapper must hold at least this share of the item's concepts (the paper's consistency).
const CONSISTENT: f32 = 0.5;

/// The wrapper node of the data object described by `target` (the item's title and
/// description) inside `top`, or `None` when no n-gram of it is on the page. `excluded`
/// subtrees (comments) are not looked into.
pub fn wrapper(doc: &Document, top: NodeId, target: &str, excluded: impl Fn(NodeId) -> bool) -> Option<NodeId> {
    let tokens = words(target);
    let concepts: HashSet<&str> = tokens.iter().map(String::as_str).filter(|w| is_concept(w)).collect();
    // n = 3 first; when no 3-gram matches (a description that rewords the article), single
    // concepts, as the paper falls back to concepts.
    for n in [3, 1] {
        if tokens.len() < n {
            continue;
        }
        let grams: HashSet<&[String]> = tokens.windows(n).filter(|g| n > 1 || is_concept(&g[0])).collect();
        if let Some(zone) = densest_zone(doc, top, &grams, n, &excluded) {
            return consistent_ancestor(doc, top, zone, &concepts);
        }
    }
    None
}

/// A word that characterizes the text: not a short function word (CJK characters count).
fn is_concept(word: &str) -> bool {
    word.chars().count() >= 3 || word.chars().any(super::text::is_cjk)
}

/// The semantic node (the closest block above some conceptual text node, one holding n-grams
/// of the target) whose conceptual descendants have the largest sum of densities.
fn densest_zone(
    doc: &Document,
    top: NodeId,
    grams: &HashSet<&[String]>,
    n: usize,
    excluded: &impl Fn(NodeId) -> bool,
) -> Option<NodeId> {
    let mut conceptual: Vec<(NodeId, f32)> = Vec::new();
    let mut zones: HashSet<NodeId> = HashSet::new();
    let mut node = top;
    let end = doc.node(top).end;
    while node < end {
        let data = &doc.node(node).data;
        let skip = match data {
            NodeData::Element { name, .. } => NON_CONTENT.contains(&&**name) || excluded(node),
            _ => false,
        };
        if skip {
            node = doc.node(node).end;
            continue;
        }
        if let NodeData::Text(text) = data {
            let tokens = words(text);
            if tokens.len() >= n {
                let matches = tokens.windows(n).filter(|g| grams.contains(g)).count();
                if matches > 0 {
                    conceptual.push((node, matches as f32 / tokens.len() as f32));
                    let block = doc.ancestors(node).take_while(|&a| doc.contains(top, a)).find(|&a| is_block(doc, a));
                    zones.extend(block);
                }
            }
        }
        node = NodeId(node.0 + 1);
    }
    let mut sums: HashMap<NodeId, f32> = HashMap::new();
    for (node, density) in conceptual {
        for zone in doc.ancestors(node).take_while(|&a| doc.contains(top, a)).filter(|a| zones.contains(a)) {
            *sums.entry(zone).or_default() += density;
        }
    }
    // Ties go to the deeper zone (the tighter wrapper).
    sums.into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(doc.node(a.0).depth.cmp(&doc.node(b.0).depth)))
        .map(|(zone, _)| zone)
}

fn is_block(doc: &Document, node: NodeId) -> bool {
    doc.tag(node).is_some_and(|t| BLOCKS.contains(&t))
}

/// Climb from the zone while it does not hold half of the concepts.
fn consistent_ancestor(doc: &Document, top: NodeId, zone: NodeId, concepts: &HashSet<&str>) -> Option<NodeId> {
    if concepts.is_empty() {
        return Some(zone);
    }
    let mut node = zone;
    loop {
        let present: HashSet<String> = words(&doc.text(node)).into_iter().collect();
        let held = concepts.iter().filter(|c| present.contains(**c)).count();
        if held as f32 >= CONSISTENT * concepts.len() as f32 {
            return Some(node);
        }
        if node == top {
            return None;
        }
        node = doc.parent(node)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;
    use url::Url;

    #[test]
    fn the_densest_block_wraps_the_article_not_the_comments() {
        // The paper's Figure 4–6: the description's n-grams also appear in a comment and in a
        // list of recent posts, but less densely.
        let html = r#"<body><div id=post><h1>A study on how to study</h1>
            <div class=entry><p>One of the most delightful aspects of being a scientist is that you're always learning.</p>
            <p>Your colleagues teach you things. Your students teach you things.</p></div></div>
            <div id=comments><ol><li><p>Someone said: One of the most delightful aspects of being a scientist is that
            you're ... and many other words in this long comment that goes on and on about nothing in particular.</p></li></ol></div>
            <div id=recent><ul><li>A study on how to study</li><li>Zozobra</li></ul></div></body>"#;
        let d = parse_str(html, &Url::parse("https://example.org/").unwrap()).unwrap();
        let target = "A study on how to study One of the most delightful aspects of being a scientist is that you're always learning. Your colleagues teach you things.";
        let w = wrapper(&d, d.root(), target, |_| false).unwrap();
        assert!(
            matches!(d.attr(w, "class"), Some("entry")) || d.attr(w, "id") == Some("post"),
            "{:?}",
            d.attr(w, "id")
        );
        let comments = d.ids().find(|&n| d.attr(n, "id") == Some("comments")).unwrap();
        let w = wrapper(&d, d.root(), target, |n| n == comments).unwrap();
        assert!(!d.contains(comments, w));
        assert_eq!(wrapper(&d, d.root(), "zebra quagga okapi", |_| false), None);
    }
}
