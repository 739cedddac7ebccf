//! HTML bytes → our own arena tree.
//!
//! The tree is the one a browser builds (html5ever does the parsing), stored flat in pre-order:
//! a node's id *is* its pre-order index, so "the nodes between two nodes" is a range and "the
//! subtree of n" is `n..end(n)`. Comments, doctypes and processing instructions are dropped;
//! text nodes are kept as the parser made them (whitespace included).

mod build;
mod charset;
mod head;
mod limits;
mod serialize;

pub use serialize::{VOID as VOID_ELEMENTS, escape};

use std::fmt;

use markup5ever::LocalName;
use url::Url;

pub use charset::{Decoded, EncodingSource, decode};
pub use head::{FeedLink, HeadInfo, scan_head};
pub use limits::{MAX_REOPENED, Nesting, estimate_nesting};

/// Why a page was not turned into a tree.
#[derive(Debug, thiserror::Error)]
pub enum DomError {
    #[error("page is {size} bytes, more than the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
    #[error("page nests elements at least {depth} deep, more than the limit of {limit}")]
    TooDeep { depth: usize, limit: usize },
    #[error(
        "page leaves formatting elements open that the parser would reopen more than {limit} times (a tree far larger than its markup)"
    )]
    TooManyReopened { limit: usize },
}

/// Limits and hints for [`parse`].
#[derive(Debug, Clone)]
pub struct ParseOptions {
    /// Pages larger than this are refused before decoding.
    pub max_bytes: usize,
    /// Pages whose estimated element nesting is deeper than this are refused before the tree
    /// is built (html5ever's tree builder is quadratic in depth).
    pub max_depth: usize,
    /// The `charset` parameter of the HTTP `Content-Type` header, when there was one.
    pub header_charset: Option<String>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { max_bytes: 16 * 1024 * 1024, max_depth: 1000, header_charset: None }
    }
}

/// A node's id: its index in pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone)]
pub enum NodeData {
    Document,
    Element { name: LocalName, attrs: Vec<(LocalName, String)> },
    Text(String),
}

#[derive(Debug, Clone)]
pub struct Node {
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// Index of this node in its parent's children.
    pub position: u32,
    /// One past the last node of this node's subtree (pre-order).
    pub end: NodeId,
    pub depth: u32,
    pub data: NodeData,
}

/// The paper's node address: the child indexes from the document down, e.g. `0.1.19.3.0`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Address(pub Vec<u32>);

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

/// A parsed page.
#[derive(Debug, Clone)]
pub struct Document {
    nodes: Vec<Node>,
    /// Where the page was fetched from (a `file:` URL for local files).
    pub url: Url,
    /// What relative links resolve against: `<base href>` if the page has one, else `url`.
    pub base: Url,
    /// The encoding the bytes were decoded with, and how it was chosen.
    pub encoding: &'static encoding_rs::Encoding,
    pub encoding_source: EncodingSource,
    /// What the head scan found (feeds, base, meta charset).
    pub head: HeadInfo,
}

/// Elements whose text is not page content.
const NON_CONTENT: &[&str] = &["script", "style", "template", "head"];

/// Elements that break a line when rendered; text on both sides is separated by a space.
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

pub fn is_block(tag: &str) -> bool {
    BLOCK.contains(&tag)
}

/// Parse page bytes fetched from `url`.
pub fn parse(bytes: &[u8], url: &Url, options: &ParseOptions) -> Result<Document, DomError> {
    check_size(bytes, options)?;
    let head = scan_head(bytes);
    let decoded = decode(bytes, options.header_charset.as_deref(), head.meta_charset.as_deref());
    Ok(build_document(decoded, head, url))
}

/// Parse a page that is already text (tests, rule previews, the article extractor's own
/// intermediate HTML): it is UTF-8, so no detector reads it (sniffing a page costs about as
/// much as parsing it).
pub fn parse_str(html: &str, url: &Url) -> Result<Document, DomError> {
    let bytes = html.as_bytes();
    check_size(bytes, &ParseOptions::default())?;
    let head = scan_head(bytes);
    let decoded = Decoded { text: html.to_owned(), encoding: encoding_rs::UTF_8, source: EncodingSource::Text };
    Ok(build_document(decoded, head, url))
}

/// Refuse pages too large or too deeply nested to build a tree of.
fn check_size(bytes: &[u8], options: &ParseOptions) -> Result<(), DomError> {
    if bytes.len() > options.max_bytes {
        return Err(DomError::TooLarge { size: bytes.len(), limit: options.max_bytes });
    }
    let nesting = estimate_nesting(bytes, options.max_depth);
    if nesting.depth > options.max_depth {
        return Err(DomError::TooDeep { depth: nesting.depth, limit: options.max_depth });
    }
    if nesting.reopened > MAX_REOPENED {
        return Err(DomError::TooManyReopened { limit: MAX_REOPENED });
    }
    Ok(())
}

fn build_document(decoded: Decoded, head: HeadInfo, url: &Url) -> Document {
    let nodes = build::build(&decoded.text);
    let base = head
        .base_href
        .as_deref()
        .and_then(|href| url.join(href.trim()).ok())
        .filter(|base| matches!(base.scheme(), "http" | "https" | "file"))
        .unwrap_or_else(|| url.clone());
    Document { nodes, url: url.clone(), base, encoding: decoded.encoding, encoding_source: decoded.source, head }
}

impl Document {
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Every node id in pre-order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).parent
    }

    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.node(id).children
    }

    /// The nodes strictly inside `id`'s subtree, in pre-order.
    pub fn descendants(&self, id: NodeId) -> impl Iterator<Item = NodeId> + use<> {
        (id.0 + 1..self.node(id).end.0).map(NodeId)
    }

    /// Whether `ancestor` is `node` or one of its ancestors.
    pub fn contains(&self, ancestor: NodeId, node: NodeId) -> bool {
        ancestor <= node && node < self.node(ancestor).end
    }

    /// Ancestors of `id`, nearest first, the document last.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.parent(id), move |&n| self.parent(n))
    }

    /// The nearest common ancestor of two nodes.
    pub fn common_ancestor(&self, a: NodeId, b: NodeId) -> NodeId {
        let mut n = a;
        while !self.contains(n, b) {
            n = self.parent(n).unwrap_or(self.root());
        }
        n
    }

    /// Tag name (lower-case) of an element; `None` for text and the document.
    pub fn tag(&self, id: NodeId) -> Option<&str> {
        match &self.node(id).data {
            NodeData::Element { name, .. } => Some(name),
            _ => None,
        }
    }

    pub fn is_element(&self, id: NodeId) -> bool {
        matches!(self.node(id).data, NodeData::Element { .. })
    }

    pub fn is_tag(&self, id: NodeId, tag: &str) -> bool {
        self.tag(id) == Some(tag)
    }

    pub fn attr(&self, id: NodeId, attr: &str) -> Option<&str> {
        self.attrs(id).find(|(name, _)| *name == attr).map(|(_, value)| value)
    }

    pub fn attrs(&self, id: NodeId) -> impl Iterator<Item = (&str, &str)> {
        let attrs: &[(LocalName, String)] = match &self.node(id).data {
            NodeData::Element { attrs, .. } => attrs,
            _ => &[],
        };
        attrs.iter().map(|(name, value)| (&**name, value.as_str()))
    }

    /// The text of a text node, as parsed; `None` for other nodes.
    pub fn text_node(&self, id: NodeId) -> Option<&str> {
        match &self.node(id).data {
            NodeData::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Whether `id` is a text node with something other than whitespace in it.
    pub fn is_content_text(&self, id: NodeId) -> bool {
        self.text_node(id).is_some_and(|t| !t.trim().is_empty())
    }

    /// The visible text of a subtree with whitespace collapsed, a space at block boundaries,
    /// and script/style skipped.
    pub fn text(&self, id: NodeId) -> String {
        self.text_without(id, |_| false)
    }

    /// [`Document::text`] without the subtrees of the elements `skip` names.
    pub fn text_without(&self, id: NodeId, skip: impl Fn(NodeId) -> bool) -> String {
        let mut out = String::new();
        self.push_text(id, &skip, &mut out);
        collapse_whitespace(&out)
    }

    /// The non-blank text nodes of a subtree that [`Document::text`] reads (none inside a
    /// script, style or template).
    pub fn visible_texts(&self, id: NodeId) -> impl Iterator<Item = &str> + '_ {
        self.visible_text_nodes(id).map(|(_, text)| text)
    }

    /// [`Document::visible_texts`] with the id of each text node.
    pub fn visible_text_nodes(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &str)> + '_ {
        let end = self.node(id).end.0;
        let mut i = id.0;
        std::iter::from_fn(move || {
            while i < end {
                let node = &self.nodes[i as usize];
                i += 1;
                match &node.data {
                    NodeData::Text(text) if !text.trim().is_empty() => return Some((NodeId(i - 1), &**text)),
                    NodeData::Element { name, .. } if NON_CONTENT.contains(&&**name) => i = node.end.0,
                    _ => {}
                }
            }
            None
        })
    }

    /// Whether [`Document::text`] of `id` would be non-empty, without building it.
    pub fn has_text(&self, id: NodeId) -> bool {
        self.visible_texts(id).next().is_some()
    }

    fn push_text(&self, id: NodeId, skip: &impl Fn(NodeId) -> bool, out: &mut String) {
        if let Some(text) = self.text_node(id) {
            out.push_str(text);
            return;
        }
        let end = self.node(id).end.0;
        let mut i = id.0 + 1;
        // Block elements that are open, by the end of their subtree: when we pass it, a space.
        let mut open_blocks: Vec<u32> = Vec::new();
        while i < end {
            while open_blocks.last().is_some_and(|&e| e <= i) {
                open_blocks.pop();
                out.push(' ');
            }
            let node = &self.nodes[i as usize];
            match &node.data {
                NodeData::Text(text) => out.push_str(text),
                NodeData::Element { name, .. } => {
                    if NON_CONTENT.contains(&&**name) || skip(NodeId(i)) {
                        i = node.end.0;
                        continue;
                    }
                    if is_block(name) {
                        out.push(' ');
                        open_blocks.push(node.end.0);
                    }
                }
                NodeData::Document => {}
            }
            i += 1;
        }
    }

    /// The paper's address of a node: child indexes from the document down.
    pub fn address(&self, id: NodeId) -> Address {
        let mut parts: Vec<u32> = std::iter::once(id)
            .chain(self.ancestors(id))
            .filter(|&n| n != self.root())
            .map(|n| self.node(n).position)
            .collect();
        parts.reverse();
        Address(parts)
    }

    /// The first element with this tag, in document order.
    pub fn first_tag(&self, tag: &str) -> Option<NodeId> {
        self.ids().find(|&n| self.is_tag(n, tag))
    }

    /// The URLs the page declares for itself: `<link rel=canonical>` and `og:url`, which every
    /// generator and CMS writes and which a saved copy keeps.
    pub fn declared_urls(&self) -> Vec<Url> {
        let canonical = self
            .ids()
            .filter(|&n| {
                self.is_tag(n, "link") && self.attr(n, "rel").is_some_and(|r| r.eq_ignore_ascii_case("canonical"))
            })
            .filter_map(|n| self.attr(n, "href"));
        let og_url = self
            .ids()
            .filter(|&n| {
                self.is_tag(n, "meta") && self.attr(n, "property").is_some_and(|p| p.eq_ignore_ascii_case("og:url"))
            })
            .filter_map(|n| self.attr(n, "content"));
        canonical.chain(og_url).filter_map(|h| self.resolve(h)).collect()
    }

    /// `<title>` text.
    pub fn title(&self) -> String {
        self.first_tag("title").map(|n| self.text(n)).unwrap_or_default()
    }

    /// The page's declared language (`<html lang>`), lower-case.
    pub fn lang(&self) -> Option<String> {
        let html = self.first_tag("html")?;
        let lang = self.attr(html, "lang").or_else(|| self.attr(html, "xml:lang"))?;
        let lang = lang.trim().to_ascii_lowercase();
        (!lang.is_empty()).then_some(lang)
    }

    /// Resolve a link found in the page against its base; only http(s) links are kept.
    pub fn resolve(&self, href: &str) -> Option<Url> {
        let href = href.trim();
        if href.is_empty() || href.starts_with('#') {
            return None;
        }
        let url = self.base.join(href).ok()?;
        matches!(url.scheme(), "http" | "https" | "file").then_some(url)
    }

    /// Whether a link stays on the page's site: the same host without `www.`, or one a
    /// subdomain of the other (`news.example.org` on `example.org`). A page or link without a
    /// host (a local file) is taken as on the site.
    pub fn is_on_site(&self, link: &Url) -> bool {
        let bare = |url: &Url| url.host_str().map(|h| h.trim_start_matches("www.").to_ascii_lowercase());
        match (bare(&self.url), bare(link)) {
            (Some(site), Some(host)) => {
                host == site || host.ends_with(&format!(".{site}")) || site.ends_with(&format!(".{host}"))
            }
            _ => true,
        }
    }

    /// `outerHTML` of a node.
    pub fn outer_html(&self, id: NodeId) -> String {
        let mut out = String::new();
        serialize::node(self, id, &mut out);
        out
    }

    /// The document without anything active in it (scripts, frames, handlers: see
    /// [`serialize::inert`]), `head_start` first in its head, elements annotated by `annotate`.
    pub fn inert_html(&self, head_start: &str, annotate: &dyn Fn(NodeId) -> Option<(&'static str, String)>) -> String {
        let mut out = String::from("<!DOCTYPE html>");
        serialize::inert(self, head_start, annotate, &mut out);
        out
    }

    /// `innerHTML` of a node.
    pub fn inner_html(&self, id: NodeId) -> String {
        let mut out = String::new();
        for &child in self.children(id) {
            serialize::node(self, child, &mut out);
        }
        out
    }
}

/// Collapse runs of whitespace (including no-break spaces) to one space and trim.
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(|c: char| c.is_whitespace()) {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(html: &str) -> Document {
        parse_str(html, &Url::parse("https://example.org/news/").unwrap()).unwrap()
    }

    #[test]
    fn an_inert_copy_runs_nothing_and_carries_its_annotations() {
        let page = doc(r#"<html><head><meta http-equiv="refresh" content="0;url=/x"><base href="/elsewhere/">
            <script>alert(1)</script><style>p { color: red }</style></head>
            <body onload="go()"><p class="a" onclick="go()">Text &amp; more</p><a href=" JavaScript:go()">x</a>
            <iframe src="/frame"></iframe><object data="/o"></object><noscript><img src=/n.png></noscript></body></html>"#);
        let annotate = |n| page.is_tag(n, "p").then(|| ("data-h2r-path", "/HTML[0]/BODY[0]/P[0]".to_string()));
        let html = page.inert_html("<base href=\"https://example.org/news/\">", &annotate);
        for gone in [
            "script",
            "alert",
            "onload",
            "onclick",
            "JavaScript",
            "iframe",
            "object",
            "noscript",
            "refresh",
            "/elsewhere/",
        ] {
            assert!(!html.contains(gone), "{gone} is left in {html}");
        }
        assert!(html.contains(r#"<head><base href="https://example.org/news/">"#), "{html}");
        assert!(html.contains(r#"<p class="a" data-h2r-path="/HTML[0]/BODY[0]/P[0]">Text &amp; more</p>"#), "{html}");
        assert!(html.contains("<style>p { color: red }</style>") && html.contains("<a>x</a>"), "{html}");
    }

    #[test]
    fn tree_is_in_pre_order_with_parents_and_positions() {
        let d = doc("<html><head><title>T</title></head><body><p>a<b>b</b></p><p>c</body>");
        let tags: Vec<_> = d.ids().filter_map(|n| d.tag(n)).collect();
        assert_eq!(tags, ["html", "head", "title", "body", "p", "b", "p"]);
        for id in d.ids().skip(1) {
            let parent = d.parent(id).unwrap();
            assert!(parent < id);
            assert_eq!(d.children(parent)[d.node(id).position as usize], id);
            assert!(d.contains(parent, id));
        }
        // The unclosed second <p> is a sibling of the first, not its child.
        let ps: Vec<_> = d.ids().filter(|&n| d.is_tag(n, "p")).collect();
        assert_eq!(d.parent(ps[0]), d.parent(ps[1]));
    }

    #[test]
    fn address_is_child_indexes_from_the_document() {
        let d = doc("<html><head></head><body><div></div><div><a>x</a></div></body></html>");
        let a = d.first_tag("a").unwrap();
        assert_eq!(d.address(a).to_string(), "0.1.1.0");
    }

    #[test]
    fn text_collapses_whitespace_and_separates_blocks() {
        let d = doc("<body><div><p>One\n  two</p><p>three</p><script>x()</script>four<b>five</b></div>");
        let div = d.first_tag("div").unwrap();
        assert_eq!(d.text(div), "One two three fourfive");
    }

    #[test]
    fn entities_are_decoded_and_script_does_not_break_the_tree() {
        let d = doc("<body><p>a &amp; b &lt;c&gt;</p><script>if (a < b) document.write('</p>')</script><p>d</p>");
        let ps: Vec<_> = d.ids().filter(|&n| d.is_tag(n, "p")).collect();
        assert_eq!(ps.len(), 2);
        assert_eq!(d.text(ps[0]), "a & b <c>");
    }

    #[test]
    fn base_href_wins_for_links() {
        let d = doc(r#"<head><base href="/blog/"></head><body><a href="post-1">x</a>"#);
        assert_eq!(d.resolve("post-1").unwrap().as_str(), "https://example.org/blog/post-1");
    }

    #[test]
    fn refuses_huge_and_deep_pages() {
        let url = Url::parse("https://example.org/").unwrap();
        let small = ParseOptions { max_bytes: 10, ..ParseOptions::default() };
        assert!(matches!(parse(b"<p>hello world</p>", &url, &small), Err(DomError::TooLarge { .. })));
        let deep = "<div>".repeat(100_000);
        assert!(matches!(parse(deep.as_bytes(), &url, &ParseOptions::default()), Err(DomError::TooDeep { .. })));
    }

    #[test]
    fn serializes_html_with_escaping() {
        let d = doc(r#"<body><p class="a&quot;b">x &lt; y<br>z</p>"#);
        let p = d.first_tag("p").unwrap();
        assert_eq!(d.outer_html(p), r#"<p class="a&quot;b">x &lt; y<br>z</p>"#);
    }
}
