//! html5ever's tree builder writes into a scratch arena (linked siblings, because the parser
//! moves nodes around: foster parenting, the adoption agency); at the end the tree is laid
//! out again in pre-order as our `Node`s.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, QualName, parse_document};

use super::{Node, NodeData, NodeId};

type Handle = usize;

enum Scratch {
    Document,
    /// Comments, doctypes, processing instructions and template contents: kept while parsing
    /// (the parser holds handles to them) and dropped from the final tree.
    Ignored,
    Element {
        name: QualName,
        attrs: Vec<Attribute>,
    },
    Text(StrTendril),
}

struct ScratchNode {
    data: Scratch,
    parent: Option<Handle>,
    first_child: Option<Handle>,
    last_child: Option<Handle>,
    prev: Option<Handle>,
    next: Option<Handle>,
}

struct Sink {
    nodes: RefCell<Vec<ScratchNode>>,
    /// `<template>` element → its contents fragment.
    templates: RefCell<Vec<(Handle, Handle)>>,
    quirks: Cell<QuirksMode>,
}

impl Sink {
    fn new_node(&self, data: Scratch) -> Handle {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(ScratchNode { data, parent: None, first_child: None, last_child: None, prev: None, next: None });
        nodes.len() - 1
    }

    fn detach(&self, node: Handle) {
        let mut nodes = self.nodes.borrow_mut();
        let (parent, prev, next) = {
            let n = &mut nodes[node];
            (n.parent.take(), n.prev.take(), n.next.take())
        };
        match next {
            Some(next) => nodes[next].prev = prev,
            None => {
                if let Some(parent) = parent {
                    nodes[parent].last_child = prev;
                }
            }
        }
        match prev {
            Some(prev) => nodes[prev].next = next,
            None => {
                if let Some(parent) = parent {
                    nodes[parent].first_child = next;
                }
            }
        }
    }

    fn append_node(&self, parent: Handle, child: Handle) {
        self.detach(child);
        let mut nodes = self.nodes.borrow_mut();
        let last = nodes[parent].last_child;
        nodes[child].parent = Some(parent);
        nodes[child].prev = last;
        match last {
            Some(last) => nodes[last].next = Some(child),
            None => nodes[parent].first_child = Some(child),
        }
        nodes[parent].last_child = Some(child);
    }

    fn insert_before(&self, sibling: Handle, child: Handle) {
        self.detach(child);
        let mut nodes = self.nodes.borrow_mut();
        let parent = nodes[sibling].parent;
        let prev = nodes[sibling].prev;
        nodes[child].parent = parent;
        nodes[child].next = Some(sibling);
        nodes[child].prev = prev;
        nodes[sibling].prev = Some(child);
        match prev {
            Some(prev) => nodes[prev].next = Some(child),
            None => {
                if let Some(parent) = parent {
                    nodes[parent].first_child = Some(child);
                }
            }
        }
    }

    /// Append text to `previous` if it is a text node, else make a new text node.
    fn text_or_node(&self, child: NodeOrText<Handle>, previous: Option<Handle>) -> Option<Handle> {
        match child {
            NodeOrText::AppendNode(node) => Some(node),
            NodeOrText::AppendText(text) => {
                if let Some(prev) = previous
                    && let Scratch::Text(existing) = &mut self.nodes.borrow_mut()[prev].data
                {
                    existing.push_tendril(&text);
                    return None;
                }
                Some(self.new_node(Scratch::Text(text)))
            }
        }
    }
}

impl TreeSink for Sink {
    type Handle = Handle;
    type Output = Self;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> Ref<'a, QualName> {
        Ref::map(self.nodes.borrow(), |nodes| match &nodes[*target].data {
            Scratch::Element { name, .. } => name,
            _ => panic!("html5ever asked for the name of a non-element"),
        })
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        let element = self.new_node(Scratch::Element { name, attrs });
        if flags.template {
            let contents = self.new_node(Scratch::Ignored);
            self.templates.borrow_mut().push((element, contents));
        }
        element
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.new_node(Scratch::Ignored)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.new_node(Scratch::Ignored)
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        let last = self.nodes.borrow()[*parent].last_child;
        if let Some(node) = self.text_or_node(child, last) {
            self.append_node(*parent, node);
        }
    }

    fn append_based_on_parent_node(&self, element: &Handle, prev_element: &Handle, child: NodeOrText<Handle>) {
        if self.nodes.borrow()[*element].parent.is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _name: StrTendril, _public_id: StrTendril, _system_id: StrTendril) {}

    fn get_template_contents(&self, target: &Handle) -> Handle {
        self.templates
            .borrow()
            .iter()
            .find(|(element, _)| element == target)
            .map(|&(_, contents)| contents)
            .expect("html5ever asked for the contents of a non-template")
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.quirks.set(mode);
    }

    fn append_before_sibling(&self, sibling: &Handle, child: NodeOrText<Handle>) {
        let prev = self.nodes.borrow()[*sibling].prev;
        if let Some(node) = self.text_or_node(child, prev) {
            self.insert_before(*sibling, node);
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        if let Scratch::Element { attrs: existing, .. } = &mut self.nodes.borrow_mut()[*target].data {
            for attr in attrs {
                if !existing.iter().any(|e| e.name == attr.name) {
                    existing.push(attr);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        self.detach(*target);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut child = self.nodes.borrow()[*node].first_child;
        while let Some(c) = child {
            child = self.nodes.borrow()[c].next;
            self.append_node(*new_parent, c);
        }
    }
}

/// Parse decoded HTML and lay the tree out in pre-order.
/// Characters that never show, only mark where a word may break (soft hyphens, which German
/// and Dutch news sites put in long compounds, and zero-width spaces) or are a stray byte-order
/// mark: they are no part of a title's or a text's words.
const INVISIBLE: [char; 3] = ['\u{ad}', '\u{200b}', '\u{feff}'];

fn without_invisible(text: &str) -> String {
    if text.contains(INVISIBLE) { text.replace(INVISIBLE, "") } else { text.to_string() }
}

pub fn build(html: &str) -> Vec<Node> {
    let sink = Sink {
        nodes: RefCell::new(Vec::new()),
        templates: RefCell::new(Vec::new()),
        quirks: Cell::new(QuirksMode::NoQuirks),
    };
    sink.new_node(Scratch::Document);
    let mut opts = html5ever::ParseOpts::default();
    // A feed reader runs no scripts: <noscript> content is what it sees (often the real <img>).
    opts.tree_builder.scripting_enabled = false;
    let sink = parse_document(sink, opts).one(StrTendril::from(html));
    let scratch = sink.nodes.into_inner();
    lay_out(scratch)
}

/// Pre-order walk of the scratch tree into the final arena (iterative: depth is unbounded).
fn lay_out(mut scratch: Vec<ScratchNode>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(scratch.len());
    // (scratch handle, parent id in `out`, depth)
    let mut stack: Vec<(Handle, Option<NodeId>, u32)> = vec![(0, None, 0)];
    // Nodes whose subtree is still being laid out, to set `end` when we leave them.
    let mut open: Vec<(NodeId, u32)> = Vec::new();
    while let Some((handle, parent, depth)) = stack.pop() {
        let data = match std::mem::replace(&mut scratch[handle].data, Scratch::Ignored) {
            Scratch::Ignored => continue,
            Scratch::Document => NodeData::Document,
            Scratch::Element { name, attrs } => NodeData::Element {
                name: name.local,
                attrs: attrs.into_iter().map(|a| (a.name.local, a.value.to_string())).collect(),
            },
            Scratch::Text(text) => NodeData::Text(without_invisible(&text)),
        };
        let id = NodeId(out.len() as u32);
        while open.last().is_some_and(|&(_, d)| d >= depth) {
            let (closed, _) = open.pop().expect("checked");
            out[closed.index()].end = id;
        }
        let position = match parent {
            Some(p) => {
                let siblings = &mut out[p.index()].children;
                siblings.push(id);
                siblings.len() as u32 - 1
            }
            None => 0,
        };
        out.push(Node { parent, children: Vec::new(), position, end: NodeId(id.0 + 1), depth, data });
        open.push((id, depth));
        let mut children = Vec::new();
        let mut child = scratch[handle].first_child;
        while let Some(c) = child {
            children.push(c);
            child = scratch[c].next;
        }
        for &c in children.iter().rev() {
            stack.push((c, Some(id), depth + 1));
        }
    }
    let total = NodeId(out.len() as u32);
    for (id, _) in open {
        out[id.index()].end = total;
    }
    out
}
