//! HTML serialization of a subtree (the HTML spec's fragment serialization algorithm).

use super::{Document, NodeData, NodeId};

/// Elements that never have children or an end tag.
pub const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];
const RAW_TEXT: &[&str] = &["script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"];

/// Append the HTML of `id`'s subtree (iteratively: depth is unbounded).
pub fn node(doc: &Document, id: NodeId, out: &mut String) {
    write(doc, id, &Options { inert: false, head_start: "", annotate: &|_| None }, out);
}

/// Append `text` escaped for HTML: for a double-quoted attribute value, or for element text.
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
    write(doc, doc.root(), &Options { inert: true, head_start, annotate }, out);
}

/// What a serialization leaves out and adds.
struct Options<'a> {
    inert: bool,
    head_start: &'a str,
    annotate: &'a dyn Fn(NodeId) -> Option<(&'static str, String)>,
}

fn write(doc: &Document, id: NodeId, options: &Options, out: &mut String) {
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
                NodeData::Document => stack.extend(doc.children(n).iter().rev().map(|&c| Step::Open(c))),
                NodeData::Text(text) => {
                    let raw = doc.parent(n).and_then(|p| doc.tag(p)).is_some_and(|t| RAW_TEXT.contains(&t));
                    match (raw, options.inert) {
                        // Only `style` and the like remain in an inert copy: `</` cannot end them early.
                        (true, true) => out.push_str(&text.replace("</", "<\\/")),
                        (true, false) => out.push_str(text),
                        (false, _) => escape(text, false, out),
                    }
                }
                NodeData::Element { name, attrs } => {
                    if options.inert
                        && (ACTIVE.contains(&&**name) || (&**name == "meta" && doc.attr(n, "http-equiv").is_some()))
                    {
                        continue;
                    }
                    out.push('<');
                    out.push_str(name);
                    let extra = (options.annotate)(n);
                    let added = extra.as_ref().map(|(attr, value)| (*attr, value.as_str()));
                    let kept = attrs.iter().map(|(attr, value)| (&**attr, value.as_str())).filter(|(attr, value)| {
                        !options.inert
                            || !(attr.starts_with("on")
                                || attr.starts_with("data-h2r")
                                || *attr == "srcdoc"
                                || script_url(value))
                    });
                    for (attr, value) in kept.chain(added) {
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        escape(value, true, out);
                        out.push('"');
                    }
                    out.push('>');
                    if &**name == "head" {
                        out.push_str(options.head_start);
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

fn script_url(value: &str) -> bool {
    value.trim_start().get(..11).is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
}
