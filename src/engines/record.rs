//! What the list engines share to read a *record* of a page — a range of nodes in pre-order
//! (`start..end`) that holds one item — as a feed item: where a container sits on the page
//! (main content, or a sidebar, footer, menu), the headline's text, and the item's description,
//! image and author.

use url::Url;

use crate::dom::{Document, NodeId, collapse_whitespace};
use crate::engines::links::Link;
use crate::engines::timepattern::{TimeNode, TimeSource};
use crate::sanitize::sanitize_html;

/// Longest description kept, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1000;

/// Class/id words of containers that hold no item list of the page (a class word that starts
/// with one: `sidebar-left`, `widget_recent_entries`, `commentlist`).
pub const OFF_LIST: &[&str] = &["sidebar", "widget", "footer", "comment", "related", "breadcrumb", "navbar", "menu"];
/// Class/id words of containers that rank posts ("popular", "most read") or set them aside:
/// they repeat other lists, or are no stream, wherever they sit.
const RANKED: &[&str] = &["popular", "trending", "most", "aside"];
/// Class/id words of a list in the site's order of publication ("recent posts"): in a sidebar
/// it repeats the page's list, but inside the page's declared main content it is the page's
/// stream (a homepage's "Featured" cards over its "Recent posts").
const CHRONOLOGICAL: &[&str] = &["recent"];
pub const OFF_LIST_TAGS: &[&str] = &["aside", "footer", "nav"];

/// How many wrappers above the list's containers a lead story may sit: a theme's list is a
/// grid in a container in a section, and the hero a section beside it.
pub const LEAD_LEVELS: usize = 4;

/// The shape of a post's address: its host and path with the last segment a wildcard and
/// numeric segments (years, months, ids) any number: `/blog/*`, `/#/#/*`.
pub fn url_shape(url: &Url) -> String {
    let segments: Vec<&str> = url.path().split('/').filter(|s| !s.is_empty()).collect();
    let mut shape = url.host_str().unwrap_or_default().to_string();
    for (i, segment) in segments.iter().enumerate() {
        shape.push('/');
        if i + 1 == segments.len() {
            shape.push('*');
        } else if segment.bytes().all(|b| b.is_ascii_digit()) {
            shape.push('#');
        } else {
            shape.push_str(segment);
        }
    }
    shape
}

/// The address shape most of a list's headlines share, when more than half of its `records`
/// have it: a shape only half of them share says nothing about a post's address.
pub fn usual_url_shape<'u>(urls: impl Iterator<Item = &'u Url>, records: usize) -> Option<String> {
    let mut shapes: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for url in urls {
        *shapes.entry(url_shape(url)).or_default() += 1;
    }
    let (shape, count) = shapes.into_iter().max_by_key(|&(_, count)| count)?;
    (count * 2 > records).then_some(shape)
}

/// Whether a headline link is marked as a title: in or around a heading or a title-classed
/// element that links nowhere else (a heading holding links to other pages too is a row of
/// tabs or a menu), or holding one.
pub fn marked_as_title(doc: &Document, links: &[Link], link: &Link) -> bool {
    let alone = |a: NodeId| link_range(links, a, doc.node(a).end).all(|i| links[i].url == link.url);
    doc.ancestors(link.node).take(3).any(|a| (is_heading(doc, a) || is_titled(doc, a)) && alone(a))
        || is_titled(doc, link.node)
        || heading_inside(doc, link.node).is_some()
}

/// Whether the element is named as a list that usually repeats or ranks other lists, not the
/// page's own (see [`RANKED`], [`CHRONOLOGICAL`]); `in_main`: it is known to sit in the page's
/// declared main content.
pub fn is_secondary(doc: &Document, node: NodeId, in_main: bool) -> bool {
    has_word(doc, node, RANKED) || (!in_main && has_word(doc, node, CHRONOLOGICAL))
}

/// The page's declared main content: `<main>` or `role="main"`.
pub fn is_main(doc: &Document, node: NodeId) -> bool {
    doc.is_tag(node, "main") || doc.attr(node, "role").is_some_and(|r| r.eq_ignore_ascii_case("main"))
}

/// Whether a word of the element's `class` or `id` starts with one of `keywords`.
pub fn has_word(doc: &Document, node: NodeId, keywords: &[&str]) -> bool {
    ["class", "id"].iter().filter_map(|a| doc.attr(node, a)).any(|value| {
        value.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).any(|w| {
            keywords.iter().any(|k| w.len() >= k.len() && w.as_bytes()[..k.len()].eq_ignore_ascii_case(k.as_bytes()))
        })
    })
}

pub fn is_heading(doc: &Document, node: NodeId) -> bool {
    doc.tag(node).is_some_and(|t| matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
}

/// Whether the element's class names it a title or headline, or its microdata property does
/// (`itemprop=headline`, `itemprop=name`).
pub fn is_titled(doc: &Document, node: NodeId) -> bool {
    let class = doc.attr(node, "class").is_some_and(|c| {
        c.as_bytes().windows(5).any(|w| w.eq_ignore_ascii_case(b"title"))
            || c.as_bytes().windows(8).any(|w| w.eq_ignore_ascii_case(b"headline"))
    });
    class
        || doc.attr(node, "itemprop").is_some_and(|p| {
            p.split_whitespace().any(|w| w.eq_ignore_ascii_case("headline") || w.eq_ignore_ascii_case("name"))
        })
}

/// A heading inside a link that wraps a whole item (title, excerpt, author, date): an `h1`–`h6`
/// or an element whose class or microdata property says title or headline.
pub fn heading_inside(doc: &Document, link: NodeId) -> Option<NodeId> {
    doc.descendants(link).find(|&n| (is_heading(doc, n) || is_titled(doc, n)) && doc.has_text(n))
}

/// The heading of the card that an empty link (an overlay named by `aria-label`) is stretched
/// over: the first heading among the link's siblings' content that holds no link itself.
fn overlaid_heading(doc: &Document, link: NodeId) -> Option<NodeId> {
    if doc.has_text(link) {
        return None;
    }
    let card = doc.parent(link)?;
    doc.descendants(card).find(|&n| {
        (is_heading(doc, n) || is_titled(doc, n))
            && doc.has_text(n)
            && !std::iter::once(n).chain(doc.descendants(n)).any(|d| doc.is_tag(d, "a"))
    })
}

/// Most nodes of a link read as a card: a card is a title, a meta line and a summary; a link
/// around more is a broken page's, and is not searched (each block is compared with the rest).
const CARD_MAX_NODES: u32 = 200;

/// Block elements whose text, inside a link, is one part of a card.
const CARD_BLOCKS: &[&str] = &["div", "p", "header", "section", "figcaption", "strong"];

/// The title of a link that wraps a whole card made of plain blocks (utility-class themes: a
/// bold `<div>` for the title, then the meta line and the summary; no heading, no `title`
/// class): of the blocks of text without blocks in it, when the link holds two or more, the
/// one that shares the most words with the link's slug (`/posts/why-we-moved-to-bazel/`): at
/// least two, or half of the slug's. A kicker, an author or a date line may come first; the address names the post.
/// Without a slug of words (`/p/123`, a non-Latin slug) the link's text stays the title.
fn slug_block_inside(doc: &Document, link: NodeId) -> Option<NodeId> {
    if doc.node(link).end.0 - link.0 > CARD_MAX_NODES {
        return None;
    }
    let href = doc.attr(link, "href")?;
    let path = href.split(['?', '#']).next().unwrap_or_default();
    let slug = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    let slug = percent_encoding::percent_decode_str(slug).decode_utf8_lossy().to_lowercase();
    let slug_words: Vec<&str> = slug.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 2).collect();
    let is_block = |n: NodeId| doc.tag(n).is_some_and(|t| CARD_BLOCKS.contains(&t));
    let leaves: Vec<NodeId> = doc
        .descendants(link)
        .filter(|&n| is_block(n) && doc.has_text(n) && !doc.descendants(n).any(|d| is_block(d) && doc.has_text(d)))
        .collect();
    if leaves.len() < 2 {
        return None;
    }
    let shared = |n: NodeId| {
        let text = doc.text(n).to_lowercase();
        let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
        slug_words.iter().filter(|w| words.contains(w)).count()
    };
    // The first of the best, so that a summary repeating the title's words does not win.
    let (best, score) =
        leaves.iter().map(|&n| (n, shared(n))).fold((leaves[0], 0), |a, b| if b.1 > a.1 { b } else { a });
    (score >= SLUG_MIN_SHARED_WORDS || 2 * score >= slug_words.len().max(1) && score > 0).then_some(best)
}

/// Words a card's title block shares with the link's slug that name it whatever the slug's
/// length; one word of a long slug may be chance ("the"), one of a two-word slug is half of it.
const SLUG_MIN_SHARED_WORDS: usize = 2;

/// The element that shows a headline link's title: its heading when the link wraps a whole
/// item or is an empty overlay over the item's card, the block of a card made of plain blocks
/// that its slug names, else the link itself.
pub fn title_node(doc: &Document, link: NodeId) -> NodeId {
    heading_inside(doc, link)
        .or_else(|| overlaid_heading(doc, link))
        .or_else(|| slug_block_inside(doc, link))
        .or_else(|| bold_lead_inside(doc, link))
        .unwrap_or(link)
}

/// The bold title of a link that also holds its description (`<a><strong>Title</strong>
/// <span>What it is about.</span></a>`, the "writing" and "projects" lists of personal sites):
/// the link's text opens with a `<strong>` or `<b>` of two words or more (or a CJK phrase), not
/// a label ("New:"), and the rest of its text is in elements of its own or after a line break.
/// A bold word that only starts the title's own sentence is followed by plain text, and the
/// whole link stays the title.
fn bold_lead_inside(doc: &Document, link: NodeId) -> Option<NodeId> {
    let mut parts = doc.children(link).iter().copied().filter(|&c| doc.is_element(c) || doc.has_text(c));
    let bold = parts.next().filter(|&b| matches!(doc.tag(b), Some("strong" | "b")))?;
    let title = doc.text(bold);
    let title = title.trim();
    let phrase = title.split_whitespace().count() >= 2
        || title.chars().filter(|&c| crate::engines::timepattern::db::is_cjk(c)).count() >= 4;
    let mut rest = parts.peekable();
    let mut broken = false;
    let described = rest.peek().is_some()
        && rest.all(|part| {
            broken |= doc.is_tag(part, "br");
            doc.is_element(part) || broken
        });
    (phrase && !title.ends_with(':') && described && doc.node(link).end.0 - link.0 <= CARD_MAX_NODES).then_some(bold)
}

/// The headline's text: its heading when the link wraps a whole item (or is an empty overlay
/// over the item's card), else the link's text without the date when the date is inside the
/// link.
pub fn title_of(doc: &Document, link: &Link, date: Option<&TimeNode>) -> String {
    let shown = title_node(doc, link.node);
    let text = if shown == link.node { link.text.clone() } else { doc.text_without(shown, |n| is_icon(doc, n)) };
    match date.filter(|d| doc.contains(shown, d.node) && d.source != TimeSource::Attribute) {
        Some(date) => without_date(&text, date.date_text()),
        None => text,
    }
}

/// An element of a title that shows only a symbol or two (an emoji page icon, a star): the
/// page's decoration, set right against the title's first word.
pub fn is_icon(doc: &Document, n: NodeId) -> bool {
    doc.node(n).end.0 - n.0 <= 3 && {
        let text = doc.text(n);
        !text.is_empty() && text.chars().count() <= 3 && !text.chars().any(char::is_alphanumeric)
    }
}

/// Whether [`title_of`] without a date would give a title, without building it.
pub fn has_title(doc: &Document, link: &Link) -> bool {
    let shown = title_node(doc, link.node);
    if shown == link.node { !link.text.is_empty() } else { doc.has_text(shown) }
}

/// Punctuation that separates a date from a title on one line ("2024-05-01 - Title",
/// "Title | May 1, 2024").
const DATE_SEPARATORS: &[char] = &['-', '–', '—', '|', '·', '•', ':', '：', ',', '，', '/', '~', '»', '«', '>'];

/// A title whose element holds the item's date too ("Post title 2024-05-01"), without the
/// date's text, the brackets left empty around it, and the separators between the two. Other
/// symbols of the title (an emoji, a closing quote) stay.
pub fn without_date(title: &str, date_text: &str) -> String {
    let mut title = title.replacen(date_text, " ", 1);
    for empty in ["()", "[]", "（）", "【】", "<>"] {
        title = title.replace(empty, " ");
    }
    let title = collapse_whitespace(&title);
    title.trim_matches(|c: char| c.is_whitespace() || DATE_SEPARATORS.contains(&c)).to_string()
}

/// "Share on …" buttons and social widgets: not the item's text.
pub fn is_share_widget(doc: &Document, id: NodeId) -> bool {
    ["class", "id"].iter().any(|a| {
        doc.attr(id, a).is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("share") || v.contains("social")
        })
    })
}

pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Tag names from `top` (excluded) down to `node`: `li/h2/a`.
pub fn tag_path(doc: &Document, top: NodeId, node: NodeId) -> String {
    let mut parts: Vec<&str> = std::iter::once(node)
        .chain(doc.ancestors(node))
        .take_while(|&a| a != top)
        .map(|a| doc.tag(a).unwrap_or("#text"))
        .collect();
    parts.reverse();
    parts.join("/")
}

/// A record of a list as the headline pass sees it: the node its headline paths start from,
/// the range its headline may come from, and its headline (an index into the page's links).
pub struct HeadlineSlot {
    pub top: NodeId,
    pub start: NodeId,
    pub end: NodeId,
    pub headline: Option<usize>,
}

/// Records of one list have their headlines in one place: where more than half of them found
/// theirs on one tag path from their `top`, the others take the first `usable` link on that
/// path when they have one (a locally longer link, a teaser or a thumbnail's caption, loses to
/// the list's headline place). `usable(link, record)` says whether a link can be the headline
/// of the record at that index.
pub fn align_headlines(
    doc: &Document,
    links: &[Link],
    records: &mut [HeadlineSlot],
    usable: impl Fn(usize, usize) -> bool,
) {
    if records.len() < 2 {
        return;
    }
    let path_of = |r: &HeadlineSlot, link: usize| tag_path(doc, r.top, links[link].node);
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for r in records.iter() {
        if let Some(h) = r.headline {
            *counts.entry(path_of(r, h)).or_default() += 1;
        }
    }
    let Some((path, count)) = counts.into_iter().max_by_key(|(_, c)| *c) else { return };
    if count * 2 <= records.len() {
        return;
    }
    for (index, r) in records.iter_mut().enumerate() {
        if r.headline.is_some_and(|h| path_of(r, h) == path) {
            continue;
        }
        let on_path = link_range(links, r.start, r.end).find(|&i| usable(i, index) && path_of(r, i) == path);
        if let Some(link) = on_path {
            r.headline = Some(link);
        }
    }
}

/// The indexes of the links of `links` (sorted by node) that lie in `start..end`.
pub fn link_range(links: &[Link], start: NodeId, end: NodeId) -> std::ops::Range<usize> {
    let from = links.partition_point(|l| l.node < start);
    let to = links.partition_point(|l| l.node < end);
    from..to.max(from)
}

/// The links of `links` (sorted by node) that lie in `start..end`.
pub fn links_in(links: &[Link], start: NodeId, end: NodeId) -> &[Link] {
    &links[link_range(links, start, end)]
}

/// The item's text without its title, its dates and its "read more" / tag links: plain text,
/// HTML-escaped (a feed description is HTML), at most [`MAX_DESCRIPTION_CHARS`].
pub fn description(
    doc: &Document,
    links: &[Link],
    start: NodeId,
    end: NodeId,
    headline: &Link,
    dates: &[NodeId],
) -> Option<String> {
    // A link that wraps the whole item gives up only its heading; otherwise the link goes,
    // with its heading when the heading is only the link.
    let title_node = match title_node(doc, headline.node) {
        heading if heading != headline.node => heading,
        _ => doc
            .parent(headline.node)
            .filter(|&p| is_heading(doc, p) && doc.text(p) == headline.text)
            .unwrap_or(headline.node),
    };
    let mut skip: Vec<NodeId> = vec![title_node];
    skip.extend(dates.iter().copied());
    skip.extend(links_in(links, start, end).iter().filter(|l| !l.is_headline()).map(|l| l.node));
    let mut parts: Vec<String> = Vec::new();
    let mut i = start.0;
    while i < end.0 {
        let id = NodeId(i);
        let node = doc.node(id);
        let hidden = doc.tag(id).is_some_and(|t| matches!(t, "script" | "style" | "template" | "noscript"));
        if skip.contains(&id) || hidden || is_share_widget(doc, id) {
            i = node.end.0;
            continue;
        }
        if let Some(text) = doc.text_node(id) {
            let text = collapse_whitespace(text);
            if !text.is_empty() {
                parts.push(text);
            }
        }
        i += 1;
    }
    let text = parts.join(" ");
    let text = text.trim_matches(|c: char| !c.is_alphanumeric() && !"\"'“‘«「(（[".contains(c));
    if text.chars().count() < 2 {
        return None;
    }
    let text: String = if text.chars().count() > MAX_DESCRIPTION_CHARS {
        text.chars().take(MAX_DESCRIPTION_CHARS).collect::<String>() + "…"
    } else {
        text.to_string()
    };
    Some(escape_html(&text))
}

/// An author named in the item (`rel=author`, `itemprop=author`, class `author`).
pub fn author(doc: &Document, start: NodeId, end: NodeId) -> Option<String> {
    (start.0..end.0).map(NodeId).find_map(|id| {
        let marked = doc.attr(id, "rel").is_some_and(|r| r.split_whitespace().any(|w| w == "author"))
            || doc.attr(id, "itemprop").is_some_and(|p| p == "author")
            || doc.attr(id, "class").is_some_and(|c| c.split_whitespace().any(|w| w == "author" || w == "byline"));
        if !marked {
            return None;
        }
        let name = doc.text(id);
        (!name.is_empty() && name.chars().count() <= 60).then_some(name)
    })
}

/// Attributes where pages keep an image's address (lazy loaders keep the real one apart).
const IMAGE_SOURCES: &[&str] = &["src", "data-src", "data-lazy-src", "data-original", "srcset", "data-srcset"];

/// The item's picture: the first `<img>` in the record that has an address (not a 1-pixel
/// tracker or a data: placeholder), as sanitized HTML with an absolute `src`.
pub fn image(doc: &Document, start: NodeId, end: NodeId) -> Option<String> {
    let img = (start.0..end.0).map(NodeId).find(|&id| {
        doc.is_tag(id, "img")
            && IMAGE_SOURCES.iter().filter_map(|a| doc.attr(id, a)).any(|s| {
                let s = s.trim();
                !s.is_empty() && !s.starts_with("data:")
            })
            && !["width", "height"].iter().any(|a| doc.attr(id, a).is_some_and(|v| v.trim() == "1"))
    })?;
    let html = sanitize_html(&doc.outer_html(img), &doc.base);
    html.contains("src=").then_some(html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    #[test]
    fn images_are_absolute_and_lazy_ones_repaired() {
        let doc = crate::dom::parse_str(
            r#"<div><img src="data:image/gif;base64,R0" data-src="/a.jpg" alt="A" onerror="x()"><img src="/t.gif" width="1" height="1"></div>"#,
            &Url::parse("https://example.org/news/").unwrap(),
        )
        .unwrap();
        let html = image(&doc, doc.root(), NodeId(doc.len() as u32)).unwrap();
        assert!(html.contains(r#"src="https://example.org/a.jpg""#), "{html}");
        assert!(!html.contains("onerror"), "{html}");
    }

    #[test]
    fn descriptions_leave_out_the_title_dates_and_generic_links() {
        let doc = crate::dom::parse_str(
            r#"<li><h2><a href="/p/1">Title</a></h2><span>2024-05-01</span><p>Body & more</p><a href="/p/1">Read more</a></li>"#,
            &Url::parse("https://example.org/").unwrap(),
        )
        .unwrap();
        let links = crate::engines::links::page_links(&doc);
        let date = doc.ids().find(|&n| doc.is_tag(n, "span")).unwrap();
        let li = doc.ids().find(|&n| doc.is_tag(n, "li")).unwrap();
        let text = description(&doc, &links, li, doc.node(li).end, &links[0], &[date]);
        assert_eq!(text.as_deref(), Some("Body &amp; more"));
    }
}
