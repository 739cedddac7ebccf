//! HTML serialization of a subtree (the HTML spec's fragment serialization algorithm).

use super::{Document, NodeData, NodeId};

const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];
const RAW_TEXT: &[&str] = &["script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"];

/// Append the HTML of `id`'s subtree (iteratively: depth is unbounded).
pub fn node(doc: &Document, id: NodeId, out: &mut String) {
    enum Step {
        Open(NodeId),
        Close(NodeId),
    }
    let mut stack = vec![Step::Open(id)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close(n) => {
                out.push_str("</");
                out.push_str(doc.tag(n).unwrap_or_default());
                out.push('>');
            }
            Step::Open(n) => match &doc.node(n).data {
                NodeData::Document => {
                    stack.extend(doc.children(n).iter().rev().map(|&c| Step::Open(c)));
                }
                NodeData::Text(text) => {
                    let raw = doc.parent(n).and_then(|p| doc.tag(p)).is_some_and(|t| RAW_TEXT.contains(&t));
                    if raw {
                        out.push_str(text);
                    } else {
                        escape(text, false, out);
                    }
                }
                NodeData::Element { name, attrs } => {
                    out.push('<');
                    out.push_str(name);
                    for (attr, value) in attrs {
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        escape(value, true, out);
                        out.push('"');
                    }
                    out.push('>');
                    if !VOID.contains(&&**name) {
                        stack.push(Step::Close(n));
                        stack.extend(doc.children(n).iter().rev().map(|&c| Step::Open(c)));
                    }
                }
            },
        }
    }
}

pub fn escape(text: &str, attribute: bool, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            '"' if attribute => out.push_str("&quot;"),
            '<' if !attribute => out.push_str("&lt;"),
            '>' if !attribute => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// Elements that run code, embed other documents or move the page elsewhere: left out of an
/// inert copy, with everything inside them.
const ACTIVE: &[&str] = &["script", "noscript", "iframe", "frame", "frameset", "object", "embed", "applet", "base"];

/// The whole document as inert HTML, for showing it inside one of our pages: no active
/// elements, no event handler attributes, no `javascript:` URLs, no `<meta http-equiv>` (a
/// refresh would navigate away), `head_start` (trusted HTML) first in `<head>`, and
/// `annotate`'s attribute (name and value) added to each element it gives one for.
pub fn inert(
    doc: &Document,
    head_start: &str,
    annotate: &dyn Fn(NodeId) -> Option<(&'static str, String)>,
    out: &mut String,
) {
    enum Step {
        Open(NodeId),
        Close(NodeId),
    }
    let mut stack = vec![Step::Open(doc.root())];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close(n) => {
                out.push_str("</");
                out.push_str(doc.tag(n).unwrap_or_default());
                out.push('>');
            }
            Step::Open(n) => match &doc.node(n).data {
                NodeData::Document => stack.extend(doc.children(n).iter().rev().map(|&c| Step::Open(c))),
                NodeData::Text(text) => {
                    let raw = doc.parent(n).and_then(|p| doc.tag(p)).is_some_and(|t| RAW_TEXT.contains(&t));
                    if raw {
                        // Only `style` and the like remain; `</` cannot close them early here.
                        out.push_str(&text.replace("</", "<\\/"));
                    } else {
                        escape(text, false, out);
                    }
                }
                NodeData::Element { name, attrs } => {
                    let active =
                        ACTIVE.contains(&&**name) || (&**name == "meta" && doc.attr(n, "http-equiv").is_some());
                    if active {
                        continue;
                    }
                    out.push('<');
                    out.push_str(name);
                    for (attr, value) in attrs {
                        let script_url =
                            value.trim_start().get(..11).is_some_and(|s| s.eq_ignore_ascii_case("javascript:"));
                        if attr.starts_with("on") || attr.starts_with("data-h2r") || script_url || &**attr == "srcdoc" {
                            continue;
                        }
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        escape(value, true, out);
                        out.push('"');
                    }
                    if let Some((attr, value)) = annotate(n) {
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        escape(&value, true, out);
                        out.push('"');
                    }
                    out.push('>');
                    if &**name == "head" {
                        out.push_str(head_start);
                    }
                    if !VOID.contains(&&**name) {
                        stack.push(Step::Close(n));
                        stack.extend(doc.children(n).iter().rev().map(|&c| Step::Open(c)));
                    }
                }
            },
        }
    }
}
