//! A linear pre-scan that estimates how deeply a page nests its elements, so a hostile page
//! (100,000 nested `<div>`) is refused before html5ever's tree builder, which is quadratic in
//! depth, spends minutes on it.
//!
//! The estimate follows the two rules of HTML's tree construction that decide depth on real,
//! sloppy pages: a `<p>` (`<li>`, `<dt>`, `<dd>`) closes the open one of its kind, and the
//! formatting elements it closes with it (`<b>`, `<i>`, `<font>`…) stay *active* and are
//! reopened inside the next one, at most three identical ones (the "Noah's Ark" clause). So
//! an old transcript writing `<p><b>Q. …` a thousand times without `</b>` nests a few deep,
//! as every browser builds it, not a thousand.

use std::collections::BTreeMap;

/// Elements that never hold children.
const VOID: &[&[u8]] = &[
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta", b"param", b"source",
    b"track", b"wbr",
];

/// Elements whose end tag may be left out and that only live inside tables, selects or ruby:
/// the parser closes them implicitly, so they do not count.
const OPTIONAL_END: &[&[u8]] = &[
    b"option",
    b"optgroup",
    b"tr",
    b"td",
    b"th",
    b"thead",
    b"tbody",
    b"tfoot",
    b"colgroup",
    b"caption",
    b"rb",
    b"rt",
    b"rp",
    b"rtc",
    b"html",
    b"head",
    b"body",
];

/// The formatting elements of HTML's "list of active formatting elements".
const FORMATTING: &[&[u8]] =
    &[b"a", b"b", b"big", b"code", b"em", b"font", b"i", b"nobr", b"s", b"small", b"strike", b"strong", b"tt", b"u"];

/// Elements whose end tag may be left out and that the next one of their kind closes.
const CLOSED_BY_KIND: &[&[u8]] = &[b"p", b"li", b"dt", b"dd"];

/// Block elements whose start tag closes an open `<p>`: a paragraph never holds a block.
const CLOSES_P: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"dd",
    b"dt",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"header",
    b"hgroup",
    b"li",
    b"listing",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"p",
    b"pre",
    b"section",
    b"summary",
    b"table",
    b"ul",
];

/// Elements whose content is raw text: tags inside them are not tags.
const RAW_TEXT: &[&[u8]] = &[b"script", b"style", b"textarea", b"title", b"xmp", b"plaintext"];

/// HTML keeps at most this many identical active formatting elements (the Noah's Ark clause).
const NOAHS_ARK: usize = 3;

/// Most formatting elements the parser may reopen in a page. Each reopened element is a node
/// the markup never wrote; a real page reopens a few per paragraph (3,000 for a thousand
/// paragraphs), while a thousand distinct unclosed `<b id=…>` before a million `<p>x` would
/// make the parser build a billion nodes from a few megabytes.
pub const MAX_REOPENED: usize = 1_000_000;

/// How a page nests its elements, as far as the pre-scan reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nesting {
    /// The maximum number of elements open at once.
    pub depth: usize,
    /// How many formatting elements the parser reopens in new paragraphs.
    pub reopened: usize,
}

/// How deeply the parser would nest the page, and how many elements it would reopen. The scan
/// stops as soon as the depth passes `give_up_above` or the reopened elements pass
/// [`MAX_REOPENED`] (the page is refused then, and the rest would only cost time), so the
/// answer is exact up to that and "more" beyond.
pub fn estimate_nesting(bytes: &[u8], give_up_above: usize) -> Nesting {
    let mut tree = OpenElements::default();
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == b'<') {
        i += offset + 1;
        let rest = &bytes[i..];
        if rest.starts_with(b"!--") {
            i = find(bytes, i + 3, b"-->").map_or(bytes.len(), |e| e + 3);
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = i + usize::from(closing);
        let name_len = bytes[name_start..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'-').count();
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            continue;
        }
        let name = bytes[name_start..name_start + name_len].to_ascii_lowercase();
        let tag_end = bytes[name_start..].iter().position(|&b| b == b'>').map_or(bytes.len(), |e| name_start + e);
        i = tag_end.min(bytes.len());
        if VOID.contains(&name.as_slice()) || OPTIONAL_END.contains(&name.as_slice()) {
            continue;
        }
        if closing {
            tree.end(&name);
            continue;
        }
        if RAW_TEXT.contains(&name.as_slice()) {
            let mut close = b"</".to_vec();
            close.extend_from_slice(&name);
            i = find_ignore_case(bytes, i, &close).unwrap_or(bytes.len());
            continue;
        }
        let self_closing = tag_end > 0 && bytes.get(tag_end - 1) == Some(&b'/');
        if !self_closing {
            tree.start(name, &bytes[name_start..tag_end.min(bytes.len())]);
        }
        if tree.max > give_up_above || tree.reopened > MAX_REOPENED {
            break;
        }
    }
    Nesting { depth: tree.max, reopened: tree.reopened }
}

/// The stack of open elements and the active formatting elements, as far as depth needs them.
#[derive(Default)]
struct OpenElements {
    /// Open elements, innermost last, each with its key in `active` when it is a formatting one.
    stack: Vec<(Vec<u8>, Option<u64>)>,
    /// How many of each element name are open, so an end tag with no open element costs nothing.
    open_by_name: std::collections::HashMap<Vec<u8>, usize>,
    /// Active formatting elements in document order: name, whole tag (identity for the Noah's
    /// Ark clause; attribute order counts, which can only keep more), and whether it is open.
    active: BTreeMap<u64, (Vec<u8>, Vec<u8>, bool)>,
    /// How many active formatting elements are closed, waiting to be reopened.
    closed: usize,
    next_key: u64,
    max: usize,
    reopened: usize,
}

impl OpenElements {
    fn start(&mut self, name: Vec<u8>, tag: &[u8]) {
        if CLOSES_P.contains(&name.as_slice()) {
            self.close_open(|open| open == b"p");
        }
        if CLOSED_BY_KIND.contains(&name.as_slice()) {
            let dt_or_dd = |other: &[u8]| matches!(other, b"dt" | b"dd");
            self.close_open(|open| open == name || (dt_or_dd(&name) && dt_or_dd(open)));
            self.push(name, None);
            // Text follows, and text reopens what the closed one held.
            self.reopen_active();
            return;
        }
        // A link inside a link is impossible: a second `<a>` closes the first.
        if name == b"a" && self.active.values().any(|(active, _, _)| active == b"a") {
            self.end(b"a");
        }
        self.reopen_active();
        if FORMATTING.contains(&name.as_slice()) {
            let identical: Vec<u64> = self.active.iter().filter(|(_, a)| a.1 == tag).map(|(k, _)| *k).collect();
            if identical.len() >= NOAHS_ARK {
                self.forget_active(identical[0]);
            }
            let key = self.next_key;
            self.next_key += 1;
            self.active.insert(key, (name.clone(), tag.to_vec(), true));
            self.push(name, Some(key));
        } else {
            self.push(name, None);
        }
    }

    /// Closes the innermost open element that `closes` when only formatting elements sit above
    /// it (then it is in scope); with anything else between, the estimate keeps both open,
    /// which can only make it deeper than the parser's tree.
    fn close_open(&mut self, closes: impl Fn(&[u8]) -> bool) {
        let Some(position) = self.stack.iter().rposition(|(open, key)| key.is_none() || closes(open)) else {
            return;
        };
        if closes(&self.stack[position].0) {
            self.pop_to(position);
        }
    }

    /// An end tag closes the innermost open element of its name; a formatting one also ends
    /// its active entry, open or already closed by a paragraph.
    fn end(&mut self, name: &[u8]) {
        let active = FORMATTING.contains(&name).then(|| self.active.iter().rev().find(|(_, a)| a.0 == name));
        if let Some(key) = active.flatten().map(|(key, _)| *key) {
            self.forget_active(key);
        }
        if self.open_by_name.get(name).copied().unwrap_or(0) == 0 {
            return;
        }
        let position = self.stack.iter().rposition(|(open, _)| open == name).expect("counted as open");
        self.pop_to(position);
    }

    /// Pops the element at `position` and everything above it; formatting elements above it
    /// stay active, closed, to be reopened.
    fn pop_to(&mut self, position: usize) {
        for (name, key) in self.stack.drain(position..) {
            if let Some(count) = self.open_by_name.get_mut(&name) {
                *count -= 1;
            }
            if let Some(active) = key.and_then(|key| self.active.get_mut(&key)) {
                active.2 = false;
                self.closed += 1;
            }
        }
    }

    fn forget_active(&mut self, key: u64) {
        if let Some((_, _, false)) = self.active.remove(&key) {
            self.closed -= 1;
        }
    }

    fn reopen_active(&mut self) {
        if self.closed == 0 {
            return;
        }
        self.closed = 0;
        let closed: Vec<(u64, Vec<u8>)> =
            self.active.iter().filter(|(_, a)| !a.2).map(|(k, a)| (*k, a.0.clone())).collect();
        self.reopened += closed.len();
        for (key, name) in closed {
            self.active.get_mut(&key).expect("listed above").2 = true;
            self.push(name, Some(key));
        }
    }

    fn push(&mut self, name: Vec<u8>, key: Option<u64>) {
        match self.open_by_name.get_mut(name.as_slice()) {
            Some(count) => *count += 1,
            None => {
                self.open_by_name.insert(name.clone(), 1);
            }
        }
        self.stack.push((name, key));
        self.max = self.max.max(self.stack.len());
    }
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::{MAX_REOPENED, estimate_nesting};

    fn depth(html: &str) -> usize {
        estimate_nesting(html.as_bytes(), usize::MAX).depth
    }

    #[test]
    fn counts_nesting_not_siblings() {
        assert_eq!(depth("<div><div><span>x</span></div></div><div></div>"), 3);
        assert_eq!(depth("<ul><li>a<li>b<li>c</ul><p>x<p>y<br><img src=x>"), 2);
        assert_eq!(depth("<div/><div/><div/>"), 0);
    }

    #[test]
    fn ignores_tags_in_comments_and_scripts() {
        assert_eq!(depth("<!-- <div><div> --><script>'<div><div><div>'</script><b>x</b>"), 1);
    }

    #[test]
    fn sees_hostile_nesting() {
        assert_eq!(depth(&"<div>".repeat(5000)), 5000);
        assert_eq!(depth(&"<b>".repeat(5000)), 5000);
        assert_eq!(depth(&"<p><div>".repeat(2000)), 2000);
        assert_eq!(depth(&"<a href=x>".repeat(2000)), 1, "a second link closes the first");
        assert_eq!(depth(&"<p><a href=x>".repeat(2000)), 2);
        assert_eq!(estimate_nesting("<div>".repeat(5000).as_bytes(), 1000).depth, 1001);
    }

    /// Paragraphs that each open a `<b>` and never close it: every browser closes the `<b>`
    /// with its paragraph and reopens at most three identical ones in the next (html5lib
    /// builds this page 8 deep with `html` and `body`).
    #[test]
    fn unclosed_bold_in_every_paragraph_stays_shallow() {
        let page = format!("<article><h1>Day 3</h1>{}</article>", "<p><b>Q. A line.".repeat(1000));
        assert_eq!(depth(&page), 6);
        let distinct: String = (0..1000).map(|i| format!("<p><b id=q{i}>Q. A line.")).collect();
        assert!(depth(&distinct) > 1000, "distinct attributes escape the Noah's Ark clause and really nest");
        assert_eq!(estimate_nesting(page.as_bytes(), usize::MAX).reopened, 3 * 999 - 3);
    }

    /// Unclosed formatting elements with distinct attributes, then many paragraphs: each
    /// paragraph reopens all of them, a tree far larger than the markup.
    #[test]
    fn counts_the_elements_paragraphs_reopen() {
        let opened: String = (0..900).map(|i| format!("<b id=b{i}>")).collect();
        let page = format!("<p>{opened}{}", "<p>x".repeat(2000));
        let nesting = estimate_nesting(page.as_bytes(), 1000);
        assert!(nesting.depth <= 1000 && nesting.reopened > MAX_REOPENED, "{nesting:?}");
    }
}
