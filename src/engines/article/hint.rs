//! The data-objects paper's n-gram semantic density (`data-objects-from-web-feeds.txt` §4):
//! a feed item's title and description locate the item's article on its page.
//!
//! Conceptual nodes are the page's text blocks that contain n-grams of the hint; their
//! density is matches per word; the wrapper is the container whose conceptual nodes have the
//! largest density sum; it must be semantically consistent (hold at least half of the hint's
//! concepts), else its ancestors are tried. n = 3 first, then single concepts (the paper's
//! fallback when the description rephrases the article rather than quoting it).
//!
//! Deviations from the paper, and why: the paper's conceptual nodes are leaf *elements*, so a
//! paragraph with one link in it splits in two; we take the text that belongs to each block
//! element instead. Its concepts are stemmed, stop-word-filtered terms; we take words of four
//! or more letters (no stemmer or stop list per language), which keeps the same role.

use std::collections::HashSet;

use crate::dom::{Document, NodeData, NodeId, is_block};

/// Containers that may wrap a data object (the paper found `div` "almost always").
const CONTAINERS: &[&str] = &["div", "article", "section", "main", "td", "body"];

/// Share of the hint's concepts a wrapper must hold (the paper: "in practice ≥ 0.5").
pub const CONSISTENCY: f64 = 0.5;

/// Lower-case word tokens.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// The hint's concepts: its words of four or more characters.
fn concepts(hint: &str) -> HashSet<String> {
    words(hint).into_iter().filter(|w| w.chars().count() >= 4).collect()
}

/// Share of the hint's concepts that `text` contains.
pub fn consistency(text: &str, hint: &str) -> f64 {
    let wanted = concepts(hint);
    if wanted.is_empty() {
        return 1.0;
    }
    let have: HashSet<String> = words(text).into_iter().collect();
    wanted.iter().filter(|c| have.contains(*c)).count() as f64 / wanted.len() as f64
}

fn ngrams(words: &[String], n: usize) -> HashSet<Vec<String>> {
    words.windows(n).map(<[String]>::to_vec).collect()
}

/// The node wrapping the article that `hint` (title and description text) describes.
pub fn wrapper(doc: &Document, scope: NodeId, hint: &str) -> Option<NodeId> {
    let hint_words = words(hint);
    [3, 1].into_iter().find_map(|n| {
        let grams = if n == 1 { concepts(hint).into_iter().map(|c| vec![c]).collect() } else { ngrams(&hint_words, n) };
        if grams.is_empty() {
            return None;
        }
        let node = densest_container(doc, scope, &grams, n)?;
        consistent_ancestor(doc, node, scope, hint)
    })
}

/// Text of every block element: its own text, not its nested blocks'.
fn block_texts(doc: &Document, scope: NodeId) -> Vec<(NodeId, String)> {
    let mut texts: Vec<(NodeId, String)> = Vec::new();
    let mut owners: Vec<(NodeId, usize)> = Vec::new(); // (block, index in texts)
    for n in std::iter::once(scope).chain(doc.descendants(scope)) {
        while owners.last().is_some_and(|&(b, _)| !doc.contains(b, n)) {
            owners.pop();
        }
        match &doc.node(n).data {
            NodeData::Element { name, .. } if matches!(&**name, "script" | "style" | "template") => {}
            NodeData::Element { name, .. } if is_block(name) || n == scope => {
                owners.push((n, texts.len()));
                texts.push((n, String::new()));
            }
            NodeData::Text(t) => {
                let inside_skipped = doc.ancestors(n).take(1).any(|p| matches!(doc.tag(p), Some("script" | "style")));
                if let (Some(&(_, i)), false) = (owners.last(), inside_skipped) {
                    texts[i].1.push_str(t);
                    texts[i].1.push(' ');
                }
            }
            _ => {}
        }
    }
    texts
}

/// Algorithm 1's wrapper: the container with the largest sum of the densities
/// (matches / words) of the conceptual nodes inside it.
fn densest_container(doc: &Document, scope: NodeId, grams: &HashSet<Vec<String>>, n: usize) -> Option<NodeId> {
    let mut conceptual: Vec<(NodeId, f64)> = Vec::new();
    for (block, text) in block_texts(doc, scope) {
        let block_words = words(&text);
        if block_words.len() < n {
            continue;
        }
        let matches = block_words.windows(n).filter(|w| grams.contains(*w)).count();
        if matches > 0 {
            conceptual.push((block, matches as f64 / block_words.len() as f64));
        }
    }
    // Each conceptual node's semantic zone is its nearest container above it.
    let mut zones: Vec<NodeId> = conceptual
        .iter()
        .filter_map(|&(block, _)| {
            doc.ancestors(block)
                .take_while(|&a| doc.contains(scope, a))
                .find(|&a| doc.tag(a).is_some_and(|t| CONTAINERS.contains(&t)))
        })
        .collect();
    zones.sort();
    zones.dedup();
    zones
        .into_iter()
        .map(|zone| {
            let sum: f64 = conceptual.iter().filter(|(c, _)| doc.contains(zone, *c)).map(|(_, d)| d).sum();
            (zone, sum)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(zone, _)| zone)
}

/// The record that holds `node` when it is one of several alike (the posts of a blog's front
/// page, the items of a news page): the nearest ancestor-or-self with a sibling of the same tag
/// and class that has text of its own, each with a headline. Readability joins such siblings
/// into one article. Without the headlines, alike siblings are parts of one article (a
/// tutorial's code blocks, a post's paragraphs in `div`s), not posts.
pub fn record_of(doc: &Document, node: NodeId) -> Option<NodeId> {
    std::iter::once(node).chain(doc.ancestors(node)).take_while(|&n| doc.tag(n).is_some_and(|t| t != "body")).find(
        |&n| {
            let Some(parent) = doc.parent(n) else { return false };
            let signature = (doc.tag(n), doc.attr(n, "class"));
            holds_headline(doc, n)
                && doc.children(parent).iter().any(|&s| {
                    s != n
                        && (doc.tag(s), doc.attr(s, "class")) == signature
                        && doc.text(s).chars().count() >= MIN_RECORD_CHARS
                        && holds_headline(doc, s)
                })
        },
    )
}

fn holds_headline(doc: &Document, n: NodeId) -> bool {
    doc.descendants(n).any(|d| matches!(doc.tag(d), Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")))
}

/// Text a sibling needs to count as another record (not an empty twin).
const MIN_RECORD_CHARS: usize = 80;

/// Climb from `node` until the text holds enough of the hint's concepts; `None` at the scope
/// root (the paper: the whole page is no wrapper).
fn consistent_ancestor(doc: &Document, node: NodeId, scope: NodeId, hint: &str) -> Option<NodeId> {
    std::iter::once(node)
        .chain(doc.ancestors(node))
        .take_while(|&a| a != scope && doc.contains(scope, a))
        .find(|&a| consistency(&doc.text(a), hint) >= CONSISTENCY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;
    use url::Url;

    #[test]
    fn the_wrapper_is_the_densest_consistent_container() {
        let html = r#"<body>
            <div id="article"><h1>A study on how to study</h1>
              <div class="entry"><p>One of the most delightful aspects of being a scientist is that you're always
              learning. Your colleagues teach you things.</p><p>This morning the New York Times ran a piece.</p></div></div>
            <div id="comments"><ol><li><p>Being a scientist is hard, and delightful aspects are rare.</p></li>
              <li><p>I liked the piece, very delightful.</p></li></ol></div>
            <div id="recent"><ul><li>A study on how to study</li><li>Zozobra</li></ul></div></body>"#;
        let doc = parse_str(html, &Url::parse("https://blog.example/").unwrap()).unwrap();
        let body = doc.first_tag("body").unwrap();
        let hint = "A study on how to study. One of the most delightful aspects of being a scientist is that \
                    you're always learning. Your colleagues teach you things. This morning the New";
        let node = wrapper(&doc, body, hint).unwrap();
        assert!(matches!(doc.attr(node, "class").or(doc.attr(node, "id")), Some("entry" | "article")));
        assert!(doc.text(node).contains("This morning the New York Times"));
        assert!(!doc.text(node).contains("Zozobra"));
    }

    #[test]
    fn consistency_counts_concepts() {
        assert_eq!(consistency("the quick brown fox", "quick brown foxes jump"), 0.5);
        assert_eq!(consistency("anything", "a b c"), 1.0);
    }
}
