//! The linear bottom-up bigram Dice algorithm (`blog-extraction-dice-bigram-rules.txt`,
//! Algorithm 2): every element's Dice coefficient against a target text, with each node's
//! bigram set built from its children's sets (memoized) instead of from its serialized text.
//!
//! The paper keeps one set per node and unions the children's sets into it. Here the largest
//! child's set is reused and the smaller ones are merged into it ("small to large"), and the
//! size of the intersection with the target is carried along, so that each bigram is hashed
//! O(log n) times at most and no set is copied: the pass stays near-linear in the page's text
//! even where the alphabet is not small (CJK), which the paper's argument needs.

use crate::dom::{Document, NodeData, NodeId};

use super::text::{IntSet, add_bigrams};

/// Elements whose text is not page content (as `Document::text` skips them).
const NON_CONTENT: &[&str] = &["script", "style", "template", "noscript", "head"];

/// Dice coefficients of the elements of one subtree against one target.
pub struct DiceScores {
    top: NodeId,
    /// Indexed by `node - top`; 0 for text nodes and excluded elements.
    scores: Vec<f32>,
    /// Distinct bigrams of each node's text.
    sizes: Vec<u32>,
}

impl DiceScores {
    pub fn get(&self, node: NodeId) -> f32 {
        node.0.checked_sub(self.top.0).and_then(|i| self.scores.get(i as usize)).copied().unwrap_or(0.0)
    }

    /// How many distinct bigrams the node's text has.
    pub fn size(&self, node: NodeId) -> u32 {
        node.0.checked_sub(self.top.0).and_then(|i| self.sizes.get(i as usize)).copied().unwrap_or(0)
    }

    /// The element with the best coefficient (the smaller one on ties), if any is above 0.
    pub fn best(&self) -> Option<(NodeId, f32)> {
        let mut best: Option<(NodeId, f32)> = None;
        for (i, &score) in self.scores.iter().enumerate() {
            let node = NodeId(self.top.0 + i as u32);
            // Pre-order: a descendant comes later, so `>=` prefers the smaller of equals.
            if score > 0.0 && best.is_none_or(|(_, b)| score >= b) {
                best = Some((node, score));
            }
        }
        best
    }
}

/// Score every element of `top`'s subtree against `target`'s bigrams. Elements for which
/// `excluded` holds (and everything inside them) get 0 but still count in their ancestors'
/// text: an ancestor holding the comments is not the content either.
pub fn score(doc: &Document, top: NodeId, target: &IntSet, excluded: impl Fn(NodeId) -> bool) -> DiceScores {
    let end = doc.node(top).end.0;
    let len = (end - top.0) as usize;
    let mut sets: Vec<Option<IntSet>> = (0..len).map(|_| None).collect();
    let mut common = vec![0u32; len];
    let mut sizes = vec![0u32; len];
    let mut scores = vec![0f32; len];
    let slot = |n: NodeId| (n.0 - top.0) as usize;
    // Reverse pre-order visits every child before its parent.
    for id in (top.0..end).rev() {
        let node = NodeId(id);
        let i = slot(node);
        let (set, shared) = match &doc.node(node).data {
            NodeData::Text(text) => {
                let mut set = IntSet::default();
                add_bigrams(text, &mut set);
                let shared = set.iter().filter(|g| target.contains(g)).count() as u32;
                (set, shared)
            }
            NodeData::Element { name, .. } if NON_CONTENT.contains(&&**name) => {
                for &child in doc.children(node) {
                    sets[slot(child)] = None;
                }
                (IntSet::default(), 0)
            }
            _ => {
                let children = doc.children(node);
                // The largest child's set is the base; the others are merged into it.
                let largest = children.iter().copied().max_by_key(|&c| sizes[slot(c)]);
                let (mut set, mut shared) = match largest {
                    Some(c) => (sets[slot(c)].take().unwrap_or_default(), common[slot(c)]),
                    None => (IntSet::default(), 0),
                };
                for &child in children {
                    if Some(child) == largest {
                        continue;
                    }
                    let Some(other) = sets[slot(child)].take() else { continue };
                    for g in other {
                        if set.insert(g) && target.contains(&g) {
                            shared += 1;
                        }
                    }
                }
                (set, shared)
            }
        };
        sizes[i] = set.len() as u32;
        common[i] = shared;
        if doc.is_element(node) && !excluded(node) && !set.is_empty() {
            scores[i] = 2.0 * shared as f32 / (set.len() + target.len()) as f32;
        }
        sets[i] = Some(set);
    }
    DiceScores { top, scores, sizes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;
    use crate::engines::template::text::{bigrams, dice};
    use url::Url;

    fn doc(html: &str) -> Document {
        parse_str(html, &Url::parse("https://example.org/").unwrap()).unwrap()
    }

    #[test]
    fn bottom_up_scores_equal_the_direct_coefficient() {
        let d = doc("<body><div id=a><p>The quick brown fox</p><p>jumps over <b>the lazy</b> dog</p></div>\
            <div id=b><ul><li>Home</li><li>About the fox</li></ul><script>var fox = 1;</script></div>");
        let target = "the quick brown fox jumps over the lazy dog";
        let scores = score(&d, d.root(), &bigrams(target), |_| false);
        for node in d.ids().filter(|&n| d.is_element(n)) {
            // The bottom-up set is the union of the text nodes' sets: compare with the text of
            // the node's text nodes joined by spaces (words split across nodes aside).
            let joined: Vec<String> = std::iter::once(node)
                .chain(d.descendants(node))
                .filter(|&n| d.text_node(n).is_some() && !d.ancestors(n).any(|a| d.is_tag(a, "script")))
                .map(|n| d.text_node(n).unwrap().to_string())
                .collect();
            let expected =
                if joined.iter().all(|t| t.trim().is_empty()) { 0.0 } else { dice(&joined.join(" "), target) };
            assert!(
                (scores.get(node) - expected).abs() < 1e-6,
                "{:?}: {} vs {expected}",
                d.tag(node),
                scores.get(node)
            );
        }
        let (best, value) = scores.best().unwrap();
        assert_eq!(d.attr(best, "id"), Some("a"));
        assert!(value > 0.9);
    }

    #[test]
    fn excluded_elements_score_nothing_but_count_for_ancestors() {
        let d = doc(
            "<body><main><div class=post>alpha beta gamma</div><div id=comments><p>alpha beta gamma delta</p></div></main>",
        );
        let comments = d.ids().find(|&n| d.attr(n, "id") == Some("comments")).unwrap();
        let scores = score(&d, d.root(), &bigrams("alpha beta gamma delta"), |n| d.contains(comments, n));
        let (best, _) = scores.best().unwrap();
        assert!(!d.contains(comments, best));
        assert!(scores.get(d.first_tag("main").unwrap()) > 0.0);
    }
}
