//! The simplified XPath of the HTML2RSS paper (Definition 4), extended as the key-path paper
//! does it.
//!
//! ```text
//! /HTML[0]/BODY[0]/TABLE/TR[1]/A          absolute; [i] is 0-based; no index = all
//! /HTML[0]/BODY[0]/DIV[1]/A[0]/TEXT[0]    TEXT[i]: the (i+1)th non-blank text child
//! A/@href                                 an attribute as the last step
//! DIV[@class=post-*]/H2                   attribute predicates, `*` matches any run of chars
//! DIV[@id=*]   DIV[@class]                any value / attribute present
//! DIV[@class=post,@id=post-*][0]          several predicates; the index counts matching siblings
//! //ARTICLE/H2/A   DIV//A   */A           `//` = any depth below, `*` = any element
//! ```
//!
//! Tag names are case-insensitive. TBODY, THEAD and TFOOT are transparent: a path written
//! against raw HTML (`TABLE/TR`), a browser's DOM (`TABLE/TBODY/TR`) or ours selects the same
//! rows, so these steps are dropped when a path is parsed. Blank text nodes are formatting and
//! do not count in `TEXT[i]`.

use std::fmt;
use std::str::FromStr;

use crate::dom::{Document, NodeId, collapse_whitespace};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Path {
    /// Starts at the document (`/...`) rather than at a context node.
    pub absolute: bool,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Step {
    /// `//` before this step: any depth below the context rather than its children.
    pub deep: bool,
    pub test: Test,
    pub predicates: Vec<AttrPredicate>,
    pub index: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Test {
    /// An element of this name (lower-case).
    Element(String),
    /// `*`: any element.
    AnyElement,
    /// `TEXT`: a non-blank text node.
    Text,
    /// `@name`: an attribute of the context element (last step only).
    Attribute(String),
}

/// `[@name]` or `[@name=pattern]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AttrPredicate {
    pub name: String,
    pub value: Option<Pattern>,
}

/// An attribute value with `*` wildcards; matches the whole value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern(pub String);

/// What a path selects: a node, or an attribute of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target<'d> {
    Node(NodeId),
    Attr(NodeId, &'d str),
}

impl Target<'_> {
    pub fn node(&self) -> NodeId {
        match *self {
            Target::Node(n) | Target::Attr(n, _) => n,
        }
    }

    /// The text of the target: an attribute's value, or the node's visible text.
    pub fn text(&self, doc: &Document) -> String {
        match *self {
            Target::Node(n) => doc.text(n),
            Target::Attr(n, name) => doc.attr(n, name).unwrap_or_default().trim().to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad path at character {position}: {message}")]
pub struct PathError {
    /// 0-based character offset into the path text.
    pub position: usize,
    pub message: String,
}

const TRANSPARENT: &[&str] = &["tbody", "thead", "tfoot"];

impl Pattern {
    pub fn matches(&self, value: &str) -> bool {
        glob_match(&self.0, value)
    }

    /// The key-path paper's attribute merge: equal values stay, otherwise the common prefix
    /// followed by `*` (just `*` when there is none: only the attribute's presence matters).
    pub fn merge(&self, other: &Pattern) -> Pattern {
        if self == other {
            return self.clone();
        }
        let prefix: String =
            self.0.chars().zip(other.0.chars()).take_while(|(a, b)| a == b && *a != '*').map(|(a, _)| a).collect();
        Pattern(format!("{prefix}*"))
    }
}

/// `*` matches any run of characters, everything else itself.
fn glob_match(pattern: &str, value: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == value;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !value.starts_with(first) || value.len() < first.len() + last.len() || !value.ends_with(last) {
        return false;
    }
    let mut rest = &value[first.len()..value.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

impl AttrPredicate {
    /// Values compare with their whitespace collapsed (`class="post\n  animated"`), as key
    /// paths write them and as XML reads attribute values back (newlines become spaces).
    fn matches(&self, doc: &Document, node: NodeId) -> bool {
        match (doc.attr(node, &self.name), &self.value) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(value), Some(pattern)) => pattern.matches(&collapse_whitespace(value)),
        }
    }
}

impl Step {
    pub fn element(name: &str, index: Option<usize>) -> Step {
        Step { deep: false, test: Test::Element(name.to_ascii_lowercase()), predicates: Vec::new(), index }
    }

    /// Whether `node` passes this step's test and predicates (not its index).
    fn accepts(&self, doc: &Document, node: NodeId) -> bool {
        let test = match &self.test {
            Test::Element(name) => doc.tag(node) == Some(name),
            Test::AnyElement => doc.is_element(node),
            Test::Text => doc.is_content_text(node),
            Test::Attribute(_) => false,
        };
        test && self.predicates.iter().all(|p| p.matches(doc, node))
    }
}

/// Children of `node` with TBODY/THEAD/TFOOT replaced by their children.
fn effective_children(doc: &Document, node: NodeId, out: &mut Vec<NodeId>) {
    for &child in doc.children(node) {
        if doc.tag(child).is_some_and(|t| TRANSPARENT.contains(&t)) {
            effective_children(doc, child, out);
        } else {
            out.push(child);
        }
    }
}

/// The parent of `node` as paths see it (TBODY/THEAD/TFOOT skipped).
fn effective_parent(doc: &Document, node: NodeId) -> Option<NodeId> {
    let mut parent = doc.parent(node)?;
    while doc.tag(parent).is_some_and(|t| TRANSPARENT.contains(&t)) {
        parent = doc.parent(parent)?;
    }
    Some(parent)
}

impl Path {
    /// Nodes (or attributes) this path selects, in document order, without duplicates.
    /// `context` is where a relative path starts; absolute paths ignore it.
    pub fn select<'d>(&self, doc: &'d Document, context: NodeId) -> Vec<Target<'d>> {
        let mut current = vec![if self.absolute { doc.root() } else { context }];
        let mut children = Vec::new();
        for step in &self.steps {
            if let Test::Attribute(name) = &step.test {
                return current
                    .into_iter()
                    .filter_map(|n| doc.attrs(n).find(|(attr, _)| attr == name).map(|(attr, _)| Target::Attr(n, attr)))
                    .collect();
            }
            let mut next = Vec::new();
            let mut covered_until = NodeId(0);
            for &ctx in &current {
                if step.deep {
                    // Contexts inside an earlier context's subtree were already covered.
                    if ctx < covered_until {
                        continue;
                    }
                    covered_until = doc.node(ctx).end;
                    if step.index.is_none() {
                        // Without an index, sibling positions do not matter: one scan of the
                        // subtree (TBODY/THEAD/TFOOT themselves are never selected).
                        let transparent = |n| doc.tag(n).is_some_and(|t| TRANSPARENT.contains(&t));
                        next.extend(doc.descendants(ctx).filter(|&n| !transparent(n) && step.accepts(doc, n)));
                        continue;
                    }
                    // With an index, every element below ctx is a parent to try the step on.
                    let parents = std::iter::once(ctx).chain(doc.descendants(ctx)).filter(|&n| {
                        (doc.is_element(n) || n == doc.root()) && !doc.tag(n).is_some_and(|t| TRANSPARENT.contains(&t))
                    });
                    for parent in parents {
                        children.clear();
                        effective_children(doc, parent, &mut children);
                        step_children(doc, step, &children, &mut next);
                    }
                } else {
                    children.clear();
                    effective_children(doc, ctx, &mut children);
                    step_children(doc, step, &children, &mut next);
                }
            }
            next.sort_unstable();
            next.dedup();
            current = next;
            if current.is_empty() {
                break;
            }
        }
        current.into_iter().map(Target::Node).collect()
    }

    /// The nodes this path selects (attribute targets give their element).
    pub fn select_nodes(&self, doc: &Document, context: NodeId) -> Vec<NodeId> {
        let mut nodes: Vec<NodeId> = self.select(doc, context).iter().map(Target::node).collect();
        nodes.dedup();
        nodes
    }

    /// The absolute path of a node: `/HTML[0]/BODY[0]/DIV[2]/A[0]` (or `.../TEXT[i]`), every
    /// step indexed among its same-name siblings.
    pub fn of(doc: &Document, node: NodeId) -> Path {
        Path { absolute: true, steps: steps_between(doc, doc.root(), node, false) }
    }

    /// The absolute path of an attribute: `/HTML[0]/BODY[0]/A[3]/@href`.
    pub fn of_attr(doc: &Document, node: NodeId, attr: &str) -> Path {
        let mut path = Path::of(doc, node);
        path.steps.push(Step {
            deep: false,
            test: Test::Attribute(attr.to_string()),
            predicates: Vec::new(),
            index: None,
        });
        path
    }

    /// The key-path paper's path of a node: no indexes, but each element's `id` and `class`.
    pub fn key_path(doc: &Document, node: NodeId) -> Path {
        Path { absolute: true, steps: steps_between(doc, doc.root(), node, true) }
    }

    /// The relative path from `ancestor` down to `node` (indexed), or `None` if `ancestor`
    /// does not contain `node`. An empty path selects the context itself.
    pub fn relative(doc: &Document, ancestor: NodeId, node: NodeId) -> Option<Path> {
        doc.contains(ancestor, node).then(|| Path { absolute: false, steps: steps_between(doc, ancestor, node, false) })
    }

    /// `self` followed by the steps of a relative path.
    pub fn join(&self, relative: &Path) -> Path {
        let mut steps = self.steps.clone();
        steps.extend(relative.steps.iter().cloned());
        Path { absolute: self.absolute, steps }
    }

    /// The paper's rule merging (§2.1.2): two paths of the same shape become the path that
    /// selects both, an index kept only where they agree and attribute values merged.
    /// `.../A[0]/TEXT[0]` + `.../A[1]/TEXT[0]` → `.../A/TEXT[0]`. `None` if the shapes differ.
    pub fn merge(&self, other: &Path) -> Option<Path> {
        if self.absolute != other.absolute || self.steps.len() != other.steps.len() {
            return None;
        }
        let steps = self.steps.iter().zip(&other.steps).map(|(a, b)| merge_step(a, b)).collect::<Option<Vec<_>>>()?;
        Some(Path { absolute: self.absolute, steps })
    }

    /// The key-path paper's merge: the common prefix of steps with the same node test
    /// (attributes merged), or `None` if that prefix is shorter than `min_len` steps.
    pub fn merge_prefix(&self, other: &Path, min_len: usize) -> Option<Path> {
        if self.absolute != other.absolute {
            return None;
        }
        let steps: Vec<Step> = self.steps.iter().zip(&other.steps).map_while(|(a, b)| merge_step(a, b)).collect();
        (steps.len() >= min_len && !steps.is_empty()).then_some(Path { absolute: self.absolute, steps })
    }

    /// Merge many paths with [`Path::merge`].
    pub fn merge_all<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Option<Path> {
        let mut paths = paths.into_iter();
        let first = paths.next()?.clone();
        paths.try_fold(first, |acc, p| acc.merge(p))
    }

    /// The path without its last step.
    pub fn parent(&self) -> Option<Path> {
        let (_, rest) = self.steps.split_last()?;
        Some(Path { absolute: self.absolute, steps: rest.to_vec() })
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether the path ends in an attribute step (`.../@href`).
    pub fn selects_attribute(&self) -> bool {
        matches!(self.steps.last(), Some(Step { test: Test::Attribute(_), .. }))
    }
}

fn merge_step(a: &Step, b: &Step) -> Option<Step> {
    if a.test != b.test || a.deep != b.deep {
        return None;
    }
    let predicates = a
        .predicates
        .iter()
        .filter_map(|pa| {
            let pb = b.predicates.iter().find(|pb| pb.name == pa.name)?;
            let value = match (&pa.value, &pb.value) {
                (Some(va), Some(vb)) => Some(va.merge(vb)),
                _ => None,
            };
            Some(AttrPredicate { name: pa.name.clone(), value })
        })
        .collect();
    let index = if a.index == b.index { a.index } else { None };
    Some(Step { deep: a.deep, test: a.test.clone(), predicates, index })
}

/// Apply one (non-attribute) step to the effective children of one parent.
fn step_children(doc: &Document, step: &Step, children: &[NodeId], out: &mut Vec<NodeId>) {
    let mut matching = children.iter().copied().filter(|&c| step.accepts(doc, c));
    match step.index {
        Some(i) => out.extend(matching.nth(i)),
        None => out.extend(matching),
    }
}

/// Steps from `top` (exclusive) down to `node`.
fn steps_between(doc: &Document, top: NodeId, node: NodeId, key_attrs: bool) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut n = node;
    let mut siblings = Vec::new();
    while n != top {
        let Some(parent) = effective_parent(doc, n) else { break };
        if doc.tag(n).is_some_and(|t| TRANSPARENT.contains(&t)) {
            n = parent;
            continue;
        }
        let test = match doc.tag(n) {
            Some(tag) => Test::Element(tag.to_string()),
            None => Test::Text,
        };
        let mut step = Step { deep: false, test, predicates: Vec::new(), index: None };
        if key_attrs {
            for name in ["id", "class"] {
                if let Some(value) = doc.attr(n, name).map(collapse_whitespace).filter(|v| !v.is_empty()) {
                    step.predicates.push(AttrPredicate { name: name.to_string(), value: Some(Pattern(value)) });
                }
            }
        } else {
            siblings.clear();
            effective_children(doc, parent, &mut siblings);
            let position = siblings.iter().filter(|&&s| step.accepts(doc, s)).position(|&s| s == n);
            step.index = position;
        }
        steps.push(step);
        n = parent;
    }
    steps.reverse();
    steps
}

// ----- text form -----

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str(if self.absolute { "/" } else { "." });
        }
        for (i, step) in self.steps.iter().enumerate() {
            if step.deep {
                // A relative path that starts deep is `.//X`: `//X` would be absolute.
                if i == 0 && !self.absolute {
                    f.write_str(".")?;
                }
                f.write_str("//")?;
            } else if i > 0 || self.absolute {
                f.write_str("/")?;
            }
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.test {
            Test::Element(name) => f.write_str(&name.to_ascii_uppercase())?,
            Test::AnyElement => f.write_str("*")?,
            Test::Text => f.write_str("TEXT")?,
            Test::Attribute(name) => return write!(f, "@{name}"),
        }
        if !self.predicates.is_empty() {
            f.write_str("[")?;
            for (i, p) in self.predicates.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "@{}", p.name)?;
                if let Some(Pattern(value)) = &p.value {
                    if value.is_empty() || value.contains([']', ',', '"', '\'', '[']) || value.trim() != value {
                        // `\` and `"` are escaped, so a value ending in a backslash reads back.
                        write!(f, "=\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))?;
                    } else {
                        write!(f, "={value}")?;
                    }
                }
            }
            f.write_str("]")?;
        }
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

impl FromStr for Path {
    type Err = PathError;

    fn from_str(text: &str) -> Result<Path, PathError> {
        Parser { chars: text.chars().collect(), at: 0 }.path()
    }
}

impl serde::Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn error<T>(&self, message: impl Into<String>) -> Result<T, PathError> {
        Err(PathError { position: self.at, message: message.into() })
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn path(mut self) -> Result<Path, PathError> {
        self.skip_spaces();
        if self.at == self.chars.len() {
            return self.error("empty path");
        }
        let absolute = self.peek() == Some('/');
        if self.chars[self.at..].iter().collect::<String>().trim() == "." {
            return Ok(Path { absolute: false, steps: Vec::new() });
        }
        if self.chars[self.at..].iter().collect::<String>().trim() == "/" {
            return Ok(Path { absolute: true, steps: Vec::new() });
        }
        // `./X` and `.//X`: relative, written from the context node.
        if self.peek() == Some('.') && self.chars.get(self.at + 1) == Some(&'/') {
            self.at += 1;
        }
        let mut steps = Vec::new();
        let mut first = true;
        loop {
            let deep = if self.eat('/') {
                self.eat('/')
            } else if first {
                false
            } else {
                return self.error("expected '/' between steps");
            };
            first = false;
            let step = self.step(deep)?;
            let is_attribute = matches!(step.test, Test::Attribute(_));
            let transparent = matches!(&step.test, Test::Element(n) if TRANSPARENT.contains(&n.as_str()));
            if !transparent {
                steps.push(step);
            }
            self.skip_spaces();
            if self.at == self.chars.len() {
                break;
            }
            if is_attribute {
                return self.error("an attribute step (@name) must be the last step");
            }
        }
        if steps.is_empty() {
            return self.error("a path of only TBODY/THEAD/TFOOT steps selects nothing");
        }
        Ok(Path { absolute, steps })
    }

    /// An element or attribute name: a letter or `_` first (so `.` or `..` is never a name; found
    /// by fuzzing), then letters, digits, `-`, `_`, `:` and `.`.
    fn name(&mut self) -> String {
        let start = self.at;
        if !self.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
            return String::new();
        }
        while self.peek().is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn step(&mut self, deep: bool) -> Result<Step, PathError> {
        if self.eat('@') {
            let name = self.name();
            if name.is_empty() {
                return self.error("expected an attribute name after '@'");
            }
            return Ok(Step {
                deep,
                test: Test::Attribute(name.to_ascii_lowercase()),
                predicates: Vec::new(),
                index: None,
            });
        }
        let test = if self.eat('*') {
            Test::AnyElement
        } else {
            let name = self.name();
            if name.is_empty() {
                return match self.peek() {
                    None => self.error("expected a step after '/'"),
                    Some(c) => self.error(format!("expected a tag name, TEXT, * or @attribute, found '{c}'")),
                };
            }
            if name.eq_ignore_ascii_case("text") || name.eq_ignore_ascii_case("text()") {
                Test::Text
            } else {
                Test::Element(name.to_ascii_lowercase())
            }
        };
        // XPath's `text()` spelling is accepted too.
        if test == Test::Text && self.chars[self.at..].starts_with(&['(', ')']) {
            self.at += 2;
        }
        let mut step = Step { deep, test, predicates: Vec::new(), index: None };
        while self.eat('[') {
            self.skip_spaces();
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                if step.index.is_some() {
                    return self.error("a step has at most one index");
                }
                let start = self.at;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                let digits: String = self.chars[start..self.at].iter().collect();
                match digits.parse() {
                    Ok(i) => step.index = Some(i),
                    Err(_) => {
                        self.at = start;
                        return self.error("index too large");
                    }
                }
            } else {
                if step.index.is_some() {
                    return self.error("attribute predicates come before the index");
                }
                loop {
                    self.skip_spaces();
                    step.predicates.push(self.predicate()?);
                    self.skip_spaces();
                    if !self.eat(',') {
                        break;
                    }
                }
            }
            self.skip_spaces();
            if !self.eat(']') {
                return self.error("expected ']'");
            }
        }
        Ok(step)
    }

    fn predicate(&mut self) -> Result<AttrPredicate, PathError> {
        if !self.eat('@') {
            return self.error("expected an index or @attribute inside [ ]");
        }
        let name = self.name();
        if name.is_empty() {
            return self.error("expected an attribute name after '@'");
        }
        self.skip_spaces();
        if !self.eat('=') {
            return Ok(AttrPredicate { name: name.to_ascii_lowercase(), value: None });
        }
        self.skip_spaces();
        let value = match self.peek() {
            Some(q @ ('"' | '\'')) => {
                self.at += 1;
                let mut value = String::new();
                loop {
                    match self.peek() {
                        None => return self.error("unterminated quoted value"),
                        // `\"` (or `\'`) and `\\` are escapes; any other backslash is itself.
                        Some('\\') if self.chars.get(self.at + 1).is_some_and(|&c| c == q || c == '\\') => {
                            value.push(self.chars[self.at + 1]);
                            self.at += 2;
                        }
                        Some(c) if c == q => {
                            self.at += 1;
                            break;
                        }
                        Some(c) => {
                            value.push(c);
                            self.at += 1;
                        }
                    }
                }
                value
            }
            _ => {
                let start = self.at;
                while self.peek().is_some_and(|c| c != ']' && c != ',') {
                    self.at += 1;
                }
                let value: String = self.chars[start..self.at].iter().collect();
                value.trim().to_string()
            }
        };
        Ok(AttrPredicate { name: name.to_ascii_lowercase(), value: Some(Pattern(value)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;
    use url::Url;

    fn p(text: &str) -> Path {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn doc(html: &str) -> Document {
        parse_str(html, &Url::parse("https://example.org/").unwrap()).unwrap()
    }

    fn texts(doc: &Document, path: &str) -> Vec<String> {
        p(path).select(doc, doc.root()).iter().map(|t| t.text(doc)).collect()
    }

    #[test]
    fn round_trips() {
        for text in [
            "/HTML[0]/BODY[0]/TABLE/TR[1]/A",
            "/HTML[0]/BODY[0]/TABLE[0]/TR[0]/DIV[1]/A/TEXT[0]",
            "A/@href",
            "DIV[@class=post-*]/H2",
            "DIV[@class=post-content,@id=post-*][0]",
            "//ARTICLE/H2/A",
            "DIV//A",
            "*/A",
            "DIV[@class]",
            "DIV[@title=\"a, b]\"]",
            // Found by fuzzing: a relative path that starts deep (`TFOOT//X` drops the TFOOT).
            ".//A",
            // Found by fuzzing: a quoted value ending in a backslash (written `\\`).
            "DIV[@title=\"say \\\"hi\\\" \\\\\"]",
            "/",
            ".",
        ] {
            assert_eq!(p(text).to_string(), text);
            assert_eq!(p(&p(text).to_string()), p(text));
        }
        assert_eq!(p("/html[0]/body[0]/div").to_string(), "/HTML[0]/BODY[0]/DIV");
        assert_eq!(p("/HTML/BODY/TABLE/TBODY/TR").to_string(), "/HTML/BODY/TABLE/TR");
        assert_eq!(p("A/text()[0]").to_string(), "A/TEXT[0]");
        assert_eq!(p("TFOOT//A").to_string(), ".//A");
        assert_eq!(p("./DIV//A"), p("DIV//A"));
    }

    #[test]
    fn syntax_errors_name_the_position() {
        for (text, position) in [
            ("", 0),
            ("/HTML[0", 7),
            ("/HTML[x]", 6),
            ("/HTML/", 6),
            ("A/@href/B", 7),
            ("/HTML[@class=\"x]", 16),
            ("/HTML[0][1]", 9),
            ("/HTML/$", 6),
            // Found by fuzzing: `.` read as an element name (`TBODY/.` printed as `.`).
            ("TBODY/.", 6),
            ("/HTML/..", 6),
        ] {
            let err = text.parse::<Path>().unwrap_err();
            assert_eq!(err.position, position, "{text}: {err}");
        }
    }

    #[test]
    fn paper_merge_of_two_marked_titles() {
        let a = p("/HTML[0]/BODY[0]/TABLE[0]/TR[0]/DIV[1]/A[0]/TEXT[0]");
        let b = p("/HTML[0]/BODY[0]/TABLE[0]/TR[0]/DIV[1]/A[1]/TEXT[0]");
        assert_eq!(a.merge(&b).unwrap().to_string(), "/HTML[0]/BODY[0]/TABLE[0]/TR[0]/DIV[1]/A/TEXT[0]");
        assert_eq!(a.merge(&p("/HTML[0]/BODY[0]/TABLE[0]/TR[0]/DIV[1]/B[1]/TEXT[0]")), None);
    }

    #[test]
    fn key_path_paper_listing_2() {
        let p1 = p("/HTML/BODY/DIV[@id=post-2]/DIV[@class=post-header]/H1");
        let p2 = p("/HTML/BODY/DIV[@id=post-1]/DIV[@class=post-header]/B");
        let p3 = p("/HTML/BODY/SPAN[@id=post-3]/H1");
        assert_eq!(p1.merge_prefix(&p2, 3).unwrap().to_string(), "/HTML/BODY/DIV[@id=post-*]/DIV[@class=post-header]");
        assert_eq!(p1.merge_prefix(&p3, 3), None);
        // Values without a common prefix keep only the attribute's presence.
        let q = p("/HTML/BODY/DIV[@id=a1]").merge(&p("/HTML/BODY/DIV[@id=b2]")).unwrap();
        assert_eq!(q.to_string(), "/HTML/BODY/DIV[@id=*]");
        // Attributes present in only one path are dropped.
        let r = p("DIV[@id=x,@class=c]").merge(&p("DIV[@class=c]")).unwrap();
        assert_eq!(r.to_string(), "DIV[@class=c]");
    }

    #[test]
    fn key_path_paper_listing_1_selects() {
        let d = doc(r#"<body>
            <div id="post-1"><div class="post-header"><h1>One</h1></div><div class="post-content" id="post-1-c">A</div></div>
            <div id="post-2"><div class="post-header"><h1>Two</h1></div><div class="post-content" id="post-2-c">B</div></div>
            <div id="sidebar"><div class="post-header"><h1>No</h1></div></div>"#);
        assert_eq!(texts(&d, "/HTML/BODY/DIV[@id=post-*]/DIV[@class=post-header]/H1"), ["One", "Two"]);
        assert_eq!(texts(&d, "DIV[@id=post-*]//DIV[@class=post-content,@id=post-*]"), Vec::<String>::new());
        assert_eq!(texts(&d, "//DIV[@id=post-*]//DIV[@class=post-content,@id=post-*]"), ["A", "B"]);
    }

    #[test]
    fn indexes_count_same_name_siblings_and_text_skips_blanks() {
        let d = doc("<body><div><a href=/1>x</a> <b>y</b> <a href=/2>z</a></div><div><a>w</a> tail</div>");
        assert_eq!(texts(&d, "/HTML[0]/BODY[0]/DIV[0]/A[1]"), ["z"]);
        assert_eq!(texts(&d, "/HTML[0]/BODY[0]/DIV/A[0]"), ["x", "w"]);
        assert_eq!(texts(&d, "/HTML[0]/BODY[0]/DIV[1]/TEXT[0]"), ["tail"]);
        assert_eq!(texts(&d, "/HTML[0]/BODY[0]/DIV/A/@href"), ["/1", "/2"]);
        assert_eq!(texts(&d, "//A[1]"), ["z"]);
        assert_eq!(texts(&d, "//A"), ["x", "z", "w"]);
        assert_eq!(texts(&d, "/HTML/BODY//TEXT"), ["x", "y", "z", "w", "tail"]);
        assert_eq!(texts(&d, "//*[@href=/2]"), ["z"]);
    }

    #[test]
    fn tbody_is_transparent() {
        let raw = doc("<body><table><tr><td>a</td></tr><tr><td>b</td></tr></table>");
        let explicit = doc("<body><table><tbody><tr><td>a</td></tr><tr><td>b</td></tr></tbody></table>");
        for d in [&raw, &explicit] {
            assert_eq!(texts(d, "/HTML[0]/BODY[0]/TABLE[0]/TR[1]"), ["b"]);
            assert_eq!(texts(d, "/HTML[0]/BODY[0]/TABLE[0]/TBODY[0]/TR[1]"), ["b"]);
            let everything = p("//*").select_nodes(d, d.root());
            assert!(everything.iter().all(|&n| d.tag(n) != Some("tbody")));
            assert_eq!(everything.len(), 8, "html head body table tr td tr td");
            let td = d.ids().filter(|&n| d.is_tag(n, "td")).nth(1).unwrap();
            assert_eq!(Path::of(d, td).to_string(), "/HTML[0]/BODY[0]/TABLE[0]/TR[1]/TD[0]");
        }
    }

    #[test]
    fn absolute_and_relative_paths_of_nodes_select_them() {
        let d = doc("<body><ul><li><a href=/a>A</a> text</li><li><a href=/b>B</a></li></ul>");
        for node in d.ids().skip(1) {
            if d.is_tag(node, "html") || d.text_node(node).is_some_and(|t| t.trim().is_empty()) {
                continue;
            }
            let path = Path::of(&d, node);
            assert_eq!(path.select_nodes(&d, d.root()), [node], "{path}");
        }
        let li = d.ids().find(|&n| d.is_tag(n, "li")).unwrap();
        let a = d.first_tag("a").unwrap();
        assert_eq!(Path::relative(&d, li, a).unwrap().to_string(), "A[0]");
        assert_eq!(Path::of_attr(&d, a, "href").to_string(), "/HTML[0]/BODY[0]/UL[0]/LI[0]/A[0]/@href");
        assert_eq!(Path::key_path(&d, a).to_string(), "/HTML/BODY/UL/LI/A");
        // Stray spaces in attribute values do not keep a key path from its node.
        let spaced = doc(r#"<body><div class="section "><p id=" x">t</p></div>"#);
        let p = spaced.first_tag("p").unwrap();
        assert_eq!(Path::key_path(&spaced, p).to_string(), "/HTML/BODY/DIV[@class=section]/P[@id=x]");
        assert_eq!(Path::key_path(&spaced, p).select_nodes(&spaced, spaced.root()), [p]);
        assert_eq!(texts(&d, "/HTML/BODY/UL/LI/A"), ["A", "B"]);
    }

    #[test]
    fn glob_patterns() {
        assert!(glob_match("post-*", "post-12"));
        assert!(glob_match("*", ""));
        assert!(glob_match("a*b*c", "aXXbYc"));
        assert!(!glob_match("a*b*c", "acb"));
        assert!(!glob_match("post-*", "xpost-1"));
        assert!(!glob_match("ab*ba", "aba"));
    }
}
