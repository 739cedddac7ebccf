//! Paths of learned templates: key paths (the key-path paper's tags with `id` and `class`),
//! made to select exactly one node where they must, merged with wildcards, and the three kinds
//! of rules of the Dice paper (by `id`, by `class`, by absolute path).

use crate::dom::{Document, NodeId};
use crate::path::{AttrPredicate, Path, Pattern, Step, Test};

/// The key path of a node without predicates on HTML and BODY (their classes say which kind
/// of page it is — `home`, `paged-2`, `archive` — and differ between the pages of a site).
pub fn key_path(doc: &Document, node: NodeId) -> Path {
    let mut path = Path::key_path(doc, node);
    for step in path.steps.iter_mut().take(2) {
        if matches!(&step.test, Test::Element(name) if name == "html" || name == "body") {
            step.predicates.clear();
        }
    }
    path
}

/// The elements from the document down to `node` that its key path's steps stand for.
fn chain(doc: &Document, node: NodeId) -> Vec<NodeId> {
    let mut nodes: Vec<NodeId> = std::iter::once(node)
        .chain(doc.ancestors(node))
        .filter(|&n| n != doc.root() && !doc.tag(n).is_some_and(|t| matches!(t, "tbody" | "thead" | "tfoot")))
        .collect();
    nodes.reverse();
    nodes
}

/// A key path that selects exactly `node`: indexes are added, from the top, only at the steps
/// where the key path alone is ambiguous.
pub fn unique_path(doc: &Document, node: NodeId) -> Path {
    let mut path = key_path(doc, node);
    let nodes = chain(doc, node);
    if nodes.len() != path.steps.len() {
        return Path::of(doc, node);
    }
    for i in 0..path.steps.len() {
        if path.select_nodes(doc, doc.root()) == [node] {
            return path;
        }
        let prefix = Path { absolute: true, steps: path.steps[..=i].to_vec() };
        if prefix.select_nodes(doc, doc.root()).len() > 1 {
            let context = if i == 0 { doc.root() } else { nodes[i - 1] };
            let mut step = path.steps[i].clone();
            step.index = None;
            let siblings = Path { absolute: false, steps: vec![step] }.select_nodes(doc, context);
            path.steps[i].index = siblings.iter().position(|&s| s == nodes[i]);
        }
    }
    if path.select_nodes(doc, doc.root()) == [node] { path } else { Path::of(doc, node) }
}

/// The key path from `ancestor` down to `node` (no indexes), relative to `ancestor`.
pub fn relative_key(doc: &Document, ancestor: NodeId, node: NodeId) -> Option<Path> {
    if !doc.contains(ancestor, node) {
        return None;
    }
    let top = Path::key_path(doc, ancestor).steps.len();
    let steps = Path::key_path(doc, node).steps;
    Some(Path { absolute: false, steps: steps.get(top..)?.to_vec() })
}

/// Merge paths of the same shape into the one that selects them all (the paper's merge, with
/// the key-path paper's attribute wildcards), and generalize the wildcards.
pub fn merge(paths: &[Path]) -> Option<Path> {
    let mut merged = Path::merge_all(paths)?;
    generalize(&mut merged);
    Some(merged)
}

/// A merged value `post-3*` came from ids such as `post-335` and `post-329`: the digits before
/// the wildcard are the varying number too (`post-*`), or another page's posts would not match.
pub fn generalize(path: &mut Path) {
    for step in &mut path.steps {
        for predicate in &mut step.predicates {
            if let Some(Pattern(value)) = &mut predicate.value
                && let Some(prefix) = value.strip_suffix('*')
            {
                let trimmed = prefix.trim_end_matches(|c: char| c.is_ascii_digit());
                *value = format!("{trimmed}*");
            }
        }
    }
}

/// Group paths by shape (same steps apart from indexes and attribute values) and merge the
/// largest group; `None` when no two paths share a shape and there is more than one path.
pub fn merge_majority(paths: &[Path]) -> Option<Path> {
    if paths.is_empty() {
        return None;
    }
    let mut groups: Vec<Vec<Path>> = Vec::new();
    for path in paths {
        match groups.iter_mut().find(|g| g[0].merge(path).is_some()) {
            Some(group) => group.push(path.clone()),
            None => groups.push(vec![path.clone()]),
        }
    }
    let largest = groups.iter().max_by_key(|g| g.len())?;
    merge(largest)
}

/// Which kind of rule (the Dice paper's three, best first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RuleKind {
    Id,
    Class,
    Absolute,
}

/// The best rule for a node on its page (Dice paper, `AllRules`: by `id`, else by `class`,
/// else by absolute path), each kind only if it selects exactly the node. `itemprop` and, for
/// `<meta>`, `property`/`name` count as classes (they name what a node holds).
pub fn node_rules(doc: &Document, node: NodeId) -> Vec<(RuleKind, Path)> {
    let Some(tag) = doc.tag(node) else { return Vec::new() };
    let mut rules = Vec::new();
    // `//TAG[@name=value]`, as the path parser reads it back.
    let deep = |name: &str, value: &str| Path {
        absolute: true,
        steps: vec![Step {
            deep: true,
            test: Test::Element(tag.to_string()),
            predicates: vec![AttrPredicate { name: name.to_string(), value: Some(Pattern(value.to_string())) }],
            index: None,
        }],
    };
    let unique = |path: &Path| path.select_nodes(doc, doc.root()) == [node];
    if let Some(id) = doc.attr(node, "id").map(str::trim).filter(|v| !v.is_empty() && !v.contains('*')) {
        let path = deep("id", id);
        if unique(&path) {
            rules.push((RuleKind::Id, path));
        }
    }
    let naming: &[&str] = if tag == "meta" { &["property", "name", "itemprop"] } else { &["class", "itemprop"] };
    for name in naming {
        if let Some(value) = doc.attr(node, name).map(str::trim).filter(|v| !v.is_empty() && !v.contains('*')) {
            let path = deep(name, value);
            if unique(&path) {
                rules.push((RuleKind::Class, path));
                break;
            }
        }
    }
    rules.push((RuleKind::Absolute, unique_path(doc, node)));
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;
    use url::Url;

    fn doc(html: &str) -> Document {
        parse_str(html, &Url::parse("https://example.org/").unwrap()).unwrap()
    }

    fn p(text: &str) -> Path {
        text.parse().unwrap()
    }

    #[test]
    fn unique_paths_add_indexes_only_where_needed() {
        let d = doc(r#"<body class="home"><div class=side><ul><li>x</li></ul></div>
            <div class=main><ul><li>a</li><li>b</li></ul></div><div class=main><ul><li>c</li></ul></div>"#);
        let b = d.ids().find(|&n| d.is_tag(n, "li") && d.text(n) == "b").unwrap();
        let path = unique_path(&d, b);
        assert_eq!(path.to_string(), "/HTML/BODY/DIV[@class=main][0]/UL/LI[1]");
        assert_eq!(path.select_nodes(&d, d.root()), [b]);
        let side = d.ids().find(|&n| d.attr(n, "class") == Some("side")).unwrap();
        assert_eq!(unique_path(&d, side).to_string(), "/HTML/BODY/DIV[@class=side]");
    }

    #[test]
    fn merged_numbers_become_wildcards() {
        let merged = merge(&[p("DIV[@id=post-335]/H2"), p("DIV[@id=post-329]/H2")]).unwrap();
        assert_eq!(merged.to_string(), "DIV[@id=post-*]/H2");
        let majority = merge_majority(&[p("DIV/H2/A"), p("DIV/H3/A"), p("DIV/H2/A")]).unwrap();
        assert_eq!(majority.to_string(), "DIV/H2/A");
    }

    #[test]
    fn rules_by_id_then_class_then_absolute_path() {
        let d = doc(r#"<body><div id=content class=entry>x</div><div class=entry>y</div><p class=meta>z</p>
            <head><meta property="article:published_time" content="2020-01-01"></head>"#);
        let content = d.ids().find(|&n| d.attr(n, "id") == Some("content")).unwrap();
        let rules = node_rules(&d, content);
        assert_eq!(rules[0], (RuleKind::Id, p("//DIV[@id=content]")));
        // The class is not unique: no class rule.
        assert_eq!(rules.iter().map(|r| r.0).collect::<Vec<_>>(), [RuleKind::Id, RuleKind::Absolute]);
        let meta = d.ids().find(|&n| d.attr(n, "class") == Some("meta")).unwrap();
        assert_eq!(node_rules(&d, meta)[0], (RuleKind::Class, p("//P[@class=meta]")));
    }
}
