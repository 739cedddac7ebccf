//! The links of a page, classified once: which can be an item's headline, and which are
//! "read more", comment counts, category/tag/author pages or the page itself.

use url::Url;

use crate::dom::{Document, NodeId};

/// What a link is, for item extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// Can be an item's headline.
    Headline,
    /// "Read more", "3 comments", "»", a page number, a link to the page itself.
    Generic,
    /// A category, tag, author or date-archive page.
    Taxonomy,
}

#[derive(Debug, Clone)]
pub struct Link {
    pub node: NodeId,
    pub url: Url,
    /// Visible text; for an image-only link, the image's `alt` or `title`; for a link without
    /// content (an overlay stretched over a card), its accessible name.
    pub text: String,
    pub kind: LinkKind,
    /// How much the link looks like a headline (its length, a heading around it).
    pub quality: f32,
}

/// Link texts that never name an item (compared lower-case, without surrounding punctuation).
const GENERIC: &[&str] = &[
    "read more",
    "more",
    "continue reading",
    "continue",
    "read",
    "read the rest",
    "read full article",
    "full article",
    "full story",
    "permalink",
    "link",
    "reply",
    "share",
    "tweet",
    "edit",
    "view",
    "details",
    "next",
    "previous",
    "prev",
    "older posts",
    "newer posts",
    "阅读全文",
    "阅读更多",
    "查看全文",
    "查看更多",
    "更多",
    "详情",
    "全文",
    "閱讀全文",
    "閱讀更多",
    "繼續閱讀",
    "更多內容",
    "続きを読む",
    "続き",
    "もっと見る",
    "詳細",
    "더 보기",
    "더보기",
    "자세히",
    "자세히 보기",
    "weiterlesen",
    "mehr",
    "mehr lesen",
    "lire la suite",
    "lire plus",
    "suite",
    "leer más",
    "leer mas",
    "seguir leyendo",
    "más",
    "leggi tutto",
    "leggi di più",
    "continua a leggere",
    "continua",
    "ler mais",
    "leia mais",
    "continuar lendo",
    "lees meer",
    "verder lezen",
    "meer",
    "читать далее",
    "подробнее",
    "далее",
    "czytaj dalej",
    "czytaj więcej",
    "więcej",
];

/// A call to open the item, in English: one of these verbs, then at most three of
/// [`CALL_WORDS`] ("Read story", "View the full article", "Learn more", "Read the case
/// study"). Card themes put such a button under each title; it names no item.
const CALL_VERBS: &[&str] = &["read", "view", "see", "learn", "continue", "keep", "discover", "explore", "find"];
const CALL_WORDS: &[&str] = &[
    "more", "the", "full", "whole", "story", "article", "post", "entry", "rest", "on", "now", "this", "here", "out",
    "reading", "case", "study", "report", "details", "all",
];

/// Words that make a link a comment link ("3 Comments", "评论(2)").
const COMMENT_WORDS: &[&str] = &[
    "comment",
    "评论",
    "評論",
    "留言",
    "コメント",
    "댓글",
    "kommentar",
    "commentaire",
    "comentario",
    "commento",
    "reactie",
    "комментар",
    "komentarz",
];

/// Path segments of taxonomy pages.
const TAXONOMY_SEGMENTS: &[&str] = &[
    "tag",
    "tags",
    "category",
    "categories",
    "cat",
    "author",
    "authors",
    "topic",
    "topics",
    "label",
    "labels",
    "user",
    "users",
    "people",
    "profile",
    "search",
    "page",
];

impl Link {
    pub fn is_headline(&self) -> bool {
        self.kind == LinkKind::Headline
    }
}

/// Fewest different pages that links of one short text lead to for the text to be a button's
/// label ("続きを見る", "En savoir plus" under every card): a title names one post, so few
/// posts share it, while a label is repeated on every record of a list (three records at
/// least, the fewest a list is taken from).
const LABEL_MIN_TARGETS: usize = 3;
/// Most words of a button's label: a call to act is a few words ("Go somewhere", "Zum
/// Artikel", "اقرأ المزيد"); a recurring title of a series ("Weekly notes 12") differs in its
/// number anyway.
const LABEL_MAX_WORDS: usize = 4;
const LABEL_MAX_CHARS: usize = 24;

/// The texts, lower case, that links to [`LABEL_MIN_TARGETS`] different pages or more share:
/// the labels of buttons repeated on every record, in whatever language.
fn repeated_labels(links: &[(NodeId, Url, String)]) -> std::collections::HashSet<String> {
    let mut targets: std::collections::HashMap<String, Vec<&Url>> = std::collections::HashMap::new();
    for (_, url, text) in links {
        let key = text.trim().to_lowercase();
        if key.is_empty() || key.chars().count() > LABEL_MAX_CHARS || key.split_whitespace().count() > LABEL_MAX_WORDS {
            continue;
        }
        let seen = targets.entry(key).or_default();
        if !seen.contains(&url) {
            seen.push(url);
        }
    }
    targets.into_iter().filter(|(_, urls)| urls.len() >= LABEL_MIN_TARGETS).map(|(text, _)| text).collect()
}

/// Every `<a href>` of the page that leads to another page, in page order.
pub fn page_links(doc: &Document) -> Vec<Link> {
    let page = without_fragment(&doc.url);
    let mut image_only = std::collections::HashSet::new();
    let anchors: Vec<(NodeId, Url, String)> = doc
        .ids()
        .filter(|&id| doc.is_tag(id, "a"))
        .filter_map(|id| {
            let url = doc.attr(id, "href").and_then(|h| doc.resolve(h))?;
            // The text a reader sees: a "Read more" whose title is for screen readers only
            // (WordPress's `screen-reader-text`) is a "Read more"; a link that is only such
            // text (an icon's label) is named by it.
            let icon = |n: NodeId| crate::engines::record::is_icon(doc, n);
            let seen = doc.text_without(id, |n| icon(n) || crate::engines::article::content::is_unseen(doc, n));
            let text = if seen.is_empty() { doc.text_without(id, icon) } else { seen };
            if !text.is_empty() {
                return Some((id, url, text));
            }
            // A link without text is named by its image's `alt` or `title`, else its accessible
            // name; named so before labels are counted, an icon's "More details" on every
            // card is the label it is.
            image_only.insert(id);
            let img = doc.descendants(id).find(|&n| doc.is_tag(n, "img"));
            let name = img
                .and_then(|i| doc.attr(i, "alt").or_else(|| doc.attr(i, "title")))
                .map(crate::dom::collapse_whitespace)
                .filter(|alt| !alt.is_empty())
                .unwrap_or_else(|| accessible_name(doc, id));
            Some((id, url, name))
        })
        .collect();
    let labels = repeated_labels(&anchors);
    let mut links = Vec::new();
    for (id, url, mut text) in anchors {
        let image_only = image_only.contains(&id);
        let own = without_fragment(&url) == page;
        // A "Read more" or a bare thumbnail is named by its card's heading, when the heading
        // links nowhere itself.
        // A label repeated on every card is read as such only when the card's heading names
        // it: a classified ad's title may be repeated too ("Free couch").
        let label = is_generic(&text) || labels.contains(&text.trim().to_lowercase());
        let card_heading = (!own && label).then(|| card_heading(doc, id, &url)).flatten();
        let named_by_heading = card_heading.is_some();
        if let Some(heading) = card_heading {
            text = heading;
        }
        let kind = if own || is_generic(&text) || is_file(&url) {
            LinkKind::Generic
        } else if is_taxonomy(doc, id, &url) {
            LinkKind::Taxonomy
        } else {
            LinkKind::Headline
        };
        let mut quality = quality(doc, id, &text, image_only && !named_by_heading, named_by_heading);
        // A card that links its post twice in text, the title and then a subtitle or excerpt
        // (Substack's archive), is titled by the first: a later link to the same page never
        // outranks it, however long its text, unless the later one is marked as the title (a
        // heading, a title class) or the first is a label of one word ("v4.12", "New").
        let marked = |n: NodeId| crate::engines::record::is_titled(doc, n);
        if let Some(title) = links.last().filter(|l: &&Link| {
            l.url == url
                && doc.has_text(l.node)
                && (l.text.split_whitespace().count() >= 2
                    || l.text.chars().any(crate::engines::timepattern::db::is_cjk))
                && id.0 - l.node.0 <= SAME_CARD_NODES
        }) && !image_only
            && !in_heading(doc, id, named_by_heading)
            && !marked(id)
            && !doc.parent(id).is_some_and(marked)
        {
            quality = quality.min(title.quality * 0.9);
        }
        links.push(Link { node: id, url, text, kind, quality });
    }
    links
}

/// Most nodes from a card's title link to its next link to the same page, within one card.
const SAME_CARD_NODES: u32 = 30;

/// How far up from a link its card may be: the link's wrapper (`<p class="more">`, a figure),
/// the card, and one level of layout inside it.
const CARD_LEVELS: usize = 3;

/// A teaser's text besides its title, at most (characters): a summary of a sentence or three.
/// A section of an article that ends in a "Read more" to its source says more.
const TEASER_CHARS: usize = 300;

/// The text of the heading that titles a link's card: the link leads to a page of the site
/// (a card of the site's own posts), the first ancestor within [`CARD_LEVELS`] that holds a
/// heading holds exactly one, that heading holds no link, every link of the card leads where
/// this one does, to a tag or author page or to a picture (one card, one post, filed under a
/// topic chip and a byline, shown full size), and the card's text besides the heading is a
/// teaser's.
/// That is how a card whose title is a plain heading is read by people: the heading names what
/// "Read more" opens.
fn card_heading(doc: &Document, id: NodeId, url: &Url) -> Option<String> {
    if url.host_str() != doc.url.host_str() {
        return None;
    }
    let target = without_fragment(url);
    let card = doc.ancestors(id).take(CARD_LEVELS).find(|&a| doc.descendants(a).any(|n| is_heading(doc, n)))?;
    let mut headings = doc.descendants(card).filter(|&n| is_heading(doc, n));
    let heading = headings.next()?;
    let one_heading = headings.all(|h| doc.contains(heading, h));
    let unlinked = !doc.descendants(heading).any(|n| doc.is_tag(n, "a"));
    let one_target = doc.descendants(card).filter(|&n| doc.is_tag(n, "a")).all(|a| {
        doc.attr(a, "href")
            .and_then(|h| doc.resolve(h))
            .is_some_and(|u| without_fragment(&u) == target || is_taxonomy(doc, a, &u) || is_file(&u))
    });
    let text = crate::dom::collapse_whitespace(&doc.text(heading));
    let teaser = doc.text(card).chars().filter(|c| !c.is_whitespace()).count()
        <= TEASER_CHARS + text.chars().filter(|c| !c.is_whitespace()).count();
    (one_heading && unlinked && one_target && teaser && !text.is_empty()).then_some(text)
}

fn is_heading(doc: &Document, node: NodeId) -> bool {
    doc.tag(node).is_some_and(|t| HEADINGS.contains(&t))
}

/// The name assistive technology reads for an element without text of its own (WAI-ARIA's
/// accessible name): the text of the elements `aria-labelledby` points to, else `aria-label`,
/// else `title`. Card themes stretch an empty link over the whole card and name it this way.
fn accessible_name(doc: &Document, id: NodeId) -> String {
    let labelled_by = doc.attr(id, "aria-labelledby").map(|ids| {
        let texts: Vec<String> = ids
            .split_whitespace()
            .filter_map(|target| doc.ids().find(|&n| doc.attr(n, "id") == Some(target)))
            .map(|n| doc.text(n))
            .collect();
        texts.join(" ")
    });
    labelled_by
        .filter(|name| !name.trim().is_empty())
        .or_else(|| doc.attr(id, "aria-label").map(str::to_string))
        .or_else(|| doc.attr(id, "title").map(str::to_string))
        .map(|name| crate::dom::collapse_whitespace(&name))
        .unwrap_or_default()
}

fn without_fragment(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    url
}

/// Whether the address is a picture's or a download's file (a lightbox's full-size picture, a
/// release's archives and installers): a feed's items are pages, and the page of the picture
/// or the release is its card's other link. Documents (a paper's PDF) and audio (an episode)
/// may be what a list offers, and stay.
fn is_file(url: &Url) -> bool {
    let path = url.path().to_ascii_lowercase();
    FILE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

const FILE_EXTENSIONS: &[&str] = &[
    ".jpg",
    ".jpeg",
    ".png",
    ".gif",
    ".webp",
    ".avif",
    ".svg",
    ".bmp",
    ".tif",
    ".tiff",
    ".zip",
    ".gz",
    ".tgz",
    ".xz",
    ".bz2",
    ".zst",
    ".7z",
    ".rar",
    ".dmg",
    ".pkg",
    ".exe",
    ".msi",
    ".deb",
    ".rpm",
    ".apk",
    ".appimage",
    ".iso",
    ".whl",
    ".jar",
    ".sha256",
    ".sig",
    ".asc",
];

fn is_generic(text: &str) -> bool {
    let lower = text.to_lowercase();
    // A bare address shown as the link's text names no item ("http://amzn.to/2iJF").
    let trimmed = lower.trim();
    if ["http://", "https://", "www."].iter().any(|p| trimmed.starts_with(p)) && !trimmed.contains(' ') {
        return true;
    }
    let core = lower.trim_matches(|c: char| !c.is_alphanumeric());
    // A version ("3.4.0", "2.1") names a release: changelogs and release pages link them.
    if core.chars().count() <= 1 || (core.chars().all(|c| !c.is_alphabetic()) && !is_version(core)) {
        // Empty, a page number, "»", "#".
        return true;
    }
    // "3 Comments", "评论(2)", "Leave a comment"; not a headline that is about comments
    // ("在bash文件中寫comment"): the comment word is a word of its own, give or take a count
    // or a plural, with at most two short words around it.
    let chars = core.chars().count();
    let counted = core.chars().any(|c| c.is_ascii_digit());
    let comment = (chars <= 16 || (counted && chars <= 24)) && {
        let words: Vec<&str> = core.split_whitespace().collect();
        let is_comment_word = |word: &str| {
            COMMENT_WORDS.iter().any(|w| word.contains(w) && word.chars().count() <= w.chars().count() + 4)
        };
        let others = words.iter().filter(|w| !is_comment_word(w)).count();
        others < words.len() && others <= 2 && words.iter().all(|w| is_comment_word(w) || w.chars().count() <= 5)
    };
    let words: Vec<&str> = core.split_whitespace().collect();
    let call = words.len() <= 4
        && words.first().is_some_and(|w| CALL_VERBS.contains(w))
        && words[1..].iter().all(|w| CALL_WORDS.contains(w));
    GENERIC.contains(&core) || comment || call
}

/// Levels above a link that may name it the author's: the Person element around its `url`
/// link, and a wrapper of the name; higher up, a whole post marks its author inside it.
const AUTHOR_LEVELS: usize = 2;

fn is_taxonomy(doc: &Document, id: NodeId, url: &Url) -> bool {
    let rel = doc.attr(id, "rel").unwrap_or_default().to_ascii_lowercase();
    if ["tag", "category", "author"].iter().any(|r| rel.split_whitespace().any(|w| w == *r)) {
        return true;
    }
    // Microdata's author (`itemprop="author"`, a Person whose `url` this is): a byline's link
    // to the writer's page, the way a forum names each reply's poster.
    let authored = |n: NodeId| {
        doc.attr(n, "itemprop").is_some_and(|p| {
            p.split_ascii_whitespace().any(|w| w.eq_ignore_ascii_case("author") || w.eq_ignore_ascii_case("creator"))
        })
    };
    if std::iter::once(id).chain(doc.ancestors(id).take(AUTHOR_LEVELS)).any(authored) {
        return true;
    }
    let segments: Vec<String> = url
        .path_segments()
        .map(|s| s.filter(|s| !s.is_empty()).map(|s| s.to_ascii_lowercase()).collect())
        .unwrap_or_default();
    // `/tags/rust/`, `/blog/category/news/world/`, `/page/2/`: a taxonomy word followed by
    // a name or two (not `/upload/user/1/2020-7-2/report.pdf`). Names of categories, tags and
    // authors are a few words; a slug of four or more words is a post filed under one
    // (`/topics/retail/google-survey-finds-retailers-struggle`).
    let slug = segments.last().is_some_and(|s| s.split(['-', '_']).filter(|w| !w.is_empty()).count() >= 4);
    // A code forge's release (`/releases/tag/v2.14.0`, `/-/tags/1.2`) is named by its version;
    // a blog's tags are words.
    let release = segments.last().is_some_and(|s| is_version(s.trim_start_matches('v')));
    if !slug
        && !release
        && segments.iter().enumerate().any(|(i, s)| TAXONOMY_SEGMENTS.contains(&s.as_str()) && segments.len() - i <= 3)
    {
        return true;
    }
    if is_date_archive(&segments) {
        return true;
    }
    url.query_pairs().any(|(k, _)| matches!(k.as_ref(), "tag" | "cat" | "category" | "author"))
}

/// Years a date archive's address may start with: a blog's, not a post number (Tistory's
/// `/98`, `/2024/98`).
const ARCHIVE_YEARS: std::ops::RangeInclusive<u32> = 1990..=2100;

/// Words that a date archive's path may start with (Hexo's `/archives/2021/05/`, a blog's
/// `/blog/2021/`): a section of the site, not a post.
const ARCHIVE_PREFIXES: &[&str] = &["archives", "archive", "date", "blog", "posts", "news"];

/// A date archive's path: a year, then a month and a day at most (`/2021/`, `/2021/05/`,
/// `/2021/5/3/`, `/archives/2021/05/`).
fn is_date_archive(segments: &[String]) -> bool {
    let segments = match segments {
        [first, rest @ ..] if ARCHIVE_PREFIXES.contains(&first.as_str()) => rest,
        _ => segments,
    };
    let number = |s: &String| s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse::<u32>().ok()).flatten();
    let numbers: Vec<Option<u32>> = segments.iter().map(number).collect();
    match numbers[..] {
        [Some(year), ref rest @ ..] if rest.len() <= 2 => {
            let ranges = [1..=12, 1..=31];
            ARCHIVE_YEARS.contains(&year)
                && segments[0].len() == 4
                && rest.iter().zip(ranges).all(|(n, range)| n.is_some_and(|n| range.contains(&n)))
        }
        _ => false,
    }
}

/// A version number: two or more dotted numbers ("3.4.0", "2.1").
fn is_version(text: &str) -> bool {
    text.split('.').count() >= 2 && text.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];

/// Whether a link is a heading's, holds one, or is named by its card's.
fn in_heading(doc: &Document, id: NodeId, named_by_heading: bool) -> bool {
    named_by_heading
        || doc.ancestors(id).take(3).any(|a| doc.tag(a).is_some_and(|t| HEADINGS.contains(&t)))
        || crate::engines::record::heading_inside(doc, id).is_some()
}

fn quality(doc: &Document, id: NodeId, text: &str, image_only: bool, named_by_heading: bool) -> f32 {
    // CJK characters carry about two Latin letters' worth of a title each.
    let weight: usize = text.chars().map(|c| if crate::engines::timepattern::db::is_cjk(c) { 2 } else { 1 }).sum();
    // Past a long title's length, more text is a teaser, not more of a headline.
    let mut quality = (1.0 + weight.min(100) as f32).ln();
    // A link that wraps a whole card names its title inside (a heading, a title class).
    let in_heading = in_heading(doc, id, named_by_heading);
    if in_heading {
        quality += 2.0;
    }
    let titled = |n: NodeId| {
        doc.attr(n, "class").is_some_and(|c| {
            let c = c.to_ascii_lowercase();
            c.contains("title") || c.contains("headline")
        })
    };
    if titled(id) || doc.parent(id).is_some_and(titled) {
        quality += 1.0;
    }
    if image_only {
        quality *= 0.3;
    }
    // A link in the middle of a sentence ("Full Changelog: <a>v1...v2</a>", "as <a>this
    // study</a> shows") points elsewhere from a post's text; a headline stands alone or opens
    // its paragraph.
    if !in_heading && inside_prose(doc, id) {
        quality *= 0.5;
    }
    quality
}

/// Whether a link sits inside running text: a sentence runs into it. In a paragraph, the text
/// before the link ends in a letter or a colon ("Full Changelog:", "as shown in"); in a list
/// item, where a date may open the record ("12 Mar", "Posted on"), it is also three words or
/// more ("Fix race in watcher by"). A date or a separator before a title ("May 3, 2024 · ")
/// ends otherwise.
fn inside_prose(doc: &Document, id: NodeId) -> bool {
    let Some(block) = doc.ancestors(id).find(|&a| doc.tag(a).is_some_and(crate::dom::is_block)) else {
        return false;
    };
    let min_words = match doc.tag(block) {
        Some("p") => 1,
        Some("li") => 3,
        _ => return false,
    };
    let before: String = doc.descendants(block).take_while(|&n| n < id).filter_map(|n| doc.text_node(n)).collect();
    let before = before.trim_end();
    before.split_whitespace().count() >= min_words
        && before.chars().last().is_some_and(|c| c.is_alphabetic() || (c == ':' && min_words == 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_links() {
        let doc = crate::dom::parse_str(
            r##"<body><h2><a href="/p/1">A real headline</a></h2>
            <a href="/p/1">Read more »</a> <a href="/p/1#comments">3 Comments</a>
            <a href="/tags/rust/">rust</a> <a href="/2021/05/">May 2021</a> <a href="/about" rel="author">Ann</a>
            <a href="#top">top</a> <a href="/news/">self</a> <a href="/p/2"><img src="x.png" alt="Thumb"></a>
            <a href="javascript:void(0)">js</a> <a href="/p/3">https://example.org/p/3</a>"##,
            &Url::parse("https://example.org/news/").unwrap(),
        )
        .unwrap();
        let links = page_links(&doc);
        let kinds: Vec<(&str, LinkKind)> = links.iter().map(|l| (l.text.as_str(), l.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("A real headline", LinkKind::Headline),
                ("Read more »", LinkKind::Generic),
                ("3 Comments", LinkKind::Generic),
                ("rust", LinkKind::Taxonomy),
                ("May 2021", LinkKind::Taxonomy),
                ("Ann", LinkKind::Taxonomy),
                ("self", LinkKind::Generic),
                ("Thumb", LinkKind::Headline),
                ("https://example.org/p/3", LinkKind::Generic),
            ]
        );
        assert!(links[0].quality > links[7].quality, "a heading link beats a thumbnail");
    }

    #[test]
    fn headlines_about_comments_or_filed_under_a_topic_stay_headlines() {
        let doc = crate::dom::parse_str(
            r##"<a href="/p/1#comments">No comments</a> <a href="/p/2">评论(2)</a> <a href="/p/3">Leave a Comment</a>
            <a href="/2021/03/21/bash-comment/">在bash文件中寫comment</a>
            <a href="/topics/retail/google-survey-finds-retailers-struggle">Retailers struggle</a>
            <a href="/topics/retail/">Retail</a>"##,
            &Url::parse("https://example.org/news/").unwrap(),
        )
        .unwrap();
        let kinds: Vec<LinkKind> = page_links(&doc).iter().map(|l| l.kind).collect();
        use LinkKind::*;
        assert_eq!(kinds, [Generic, Generic, Generic, Headline, Headline, Taxonomy]);
    }

    /// A card's plain heading names its "Read more"; a section of an article that ends in a
    /// "Read more" to another site, or that says more than a teaser, stays a generic link.
    #[test]
    fn a_card_heading_names_only_a_teaser_s_read_more_to_the_site() {
        let long = "A paragraph that goes on about the subject at length. ".repeat(8);
        let doc = crate::dom::parse_str(
            &format!(
                r#"<div class="card"><h3>Our new office</h3><p>We moved.</p><a href="/office/">Read more</a></div>
                <section><h2>Rates rise</h2><p>The bank said so.</p><a href="https://news.example/r">Read more</a></section>
                <section><h2>History</h2><p>{long}</p><a href="/history/">Read more</a></section>"#
            ),
            &Url::parse("https://example.org/news/").unwrap(),
        )
        .unwrap();
        let links: Vec<(String, LinkKind)> = page_links(&doc).into_iter().map(|l| (l.text, l.kind)).collect();
        use LinkKind::*;
        let want = [("Our new office", Headline), ("Read more", Generic), ("Read more", Generic)];
        assert_eq!(links, want.map(|(t, k)| (t.to_string(), k)));
    }
}
