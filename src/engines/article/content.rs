//! The main content of an article page: our DOM is pruned of what is certainly not the
//! article (navigation, comments, share bars, related posts, newsletter and author boxes,
//! hidden elements, the headline), Readability (the `dom_smoothie` crate) picks the content
//! among the rest, and its result is cleaned again, sanitized, and turned into plain text.

use std::sync::LazyLock;

use dom_smoothie::{CandidateSelectMode, Config, Readability};
use regex::Regex;

use super::metadata::{
    attribute_words, class_words, is_comment_heading, is_comment_item, is_comment_zone, names_comments, title_key,
};
use crate::dom::{self, Document, NodeData, NodeId, is_block};
use crate::engines::record::is_heading;
use crate::sanitize::sanitize_html;

/// What the metadata found on the page, to recognize the headline and byline in the content.
#[derive(Debug, Clone, Copy, Default)]
pub struct Landmarks<'a> {
    pub title: Option<&'a str>,
    /// The headline element, when it is inside the scope.
    pub title_node: Option<NodeId>,
    pub author: Option<&'a str>,
    /// The page's own summary (`og:description`): the standfirst, often.
    pub description: Option<&'a str>,
}

/// An article's main content.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    /// Sanitized HTML with absolute links and repaired lazy images.
    pub html: String,
    /// Plain text: one paragraph per block, separated by blank lines; captions left out.
    pub text: String,
}

/// Elements that are never article text.
const DROPPED_TAGS: &[&str] = &[
    "script", "style", "template", "svg", "canvas", "iframe", "object", "embed", "input", "select", "textarea",
    "button", "link", "meta", "dialog", "head", "title",
];
/// Elements that are page furniture unless they hold most of the page's text.
const FURNITURE_TAGS: &[&str] = &["nav", "aside", "footer", "header", "menu"];
const FURNITURE_ROLES: &[&str] = &[
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "dialog",
    "alertdialog",
    "menu",
    "menubar",
    "toolbar",
];

/// Class and id words of boilerplate blocks: navigation, advertising, bylines and dates, tags,
/// affiliate disclosures.
#[rustfmt::skip]
const BOILERPLATE_WORDS: &[&str] = &[
    "respond", "replies", "recirc", "trending", "popular", "mostpopular", "outbrain", "taboola", "promo", "promos",
    "gdpr", "modal", "overlay",
    "ad", "ads", "advertisement", "advertising", "adsbygoogle", "dfp",
    "nav", "navbar", "navigation", "menu", "pager", "masthead", "toolbar", "skip", "foot",
    "dateline", "timestamp", "date", "meta", "tags", "taglist", "keywords",
    "hidden", "hide", "invisible", "bio", "biography",
    "disclosure",
];
/// Stems of boilerplate class and id words, found inside compound words as well
/// (`postauthor`, `sharebar`, `jp-relatedposts`): comments, sharing, related and recommended
/// posts, newsletter and subscription boxes, cookie banners, sponsors, sidebars and their
/// widgets, footers, bylines and author boxes, a post's metadata line (WordPress's classic
/// `postmetadata`: "This entry was posted … filed under …"), donation appeals (`donate-box`,
/// `donation`). Legal notices are [`LEGAL_STEMS`], dropped whatever their size.
#[rustfmt::skip]
const BOILERPLATE_STEMS: &[&str] = &[
    "comment", "disqus", "share", "sharing", "social", "related", "recommend",
    "newsletter", "subscri", "signup", "paywall", "cookie", "consent", "popup",
    "advert", "sponsor", "sidebar", "widget", "footer", "breadcrumb", "pagination",
    "byline", "author", "metadata", "donat",
];
/// Words that hold a stem but name the article: an opinion column's `commentary`, and the text
/// a news site shows its subscribers (`subscriber-premium`, `subscriber-only`), where a sign-up
/// box says `subscribe` or `subscription`.
const NOT_BOILERPLATE: &[&str] = &["commentary", "commentaries", "subscriber", "subscribers"];
/// Two-word boilerplate marks (`read-more`, `sr-only`).
const BOILERPLATE_PAIRS: &[(&str, &str)] = &[
    ("more", "stories"),
    ("more", "articles"),
    ("read", "next"),
    ("read", "more"),
    ("read", "also"),
    ("see", "also"),
    ("sr", "only"),
    ("visually", "hidden"),
    ("screen", "reader"),
    ("post", "navigation"),
];

/// A boilerplate block is dropped only when it holds less than this share of the page's
/// non-link text: a wrapper with a misleading class (`article has-comments`) holds the
/// article and stays.
const BOILERPLATE_MAX_SHARE: f64 = 0.4;

/// Text statistics of every subtree, from prefix sums over the pre-order arena.
struct TextStats {
    /// Characters of visible text before node i (pre-order), and of text inside links.
    text: Vec<u32>,
    link: Vec<u32>,
}

impl TextStats {
    fn new(doc: &Document) -> TextStats {
        let mut text = Vec::with_capacity(doc.len() + 1);
        let mut link = Vec::with_capacity(doc.len() + 1);
        text.push(0);
        link.push(0);
        // Ends of the open `<a>` and non-content subtrees around the current node.
        let mut link_end = 0u32;
        let mut skip_end = 0u32;
        for n in doc.ids() {
            let (mut t, mut l) = (*text.last().unwrap_or(&0), *link.last().unwrap_or(&0));
            match &doc.node(n).data {
                NodeData::Text(s) if n.0 >= skip_end => {
                    let chars = s.chars().filter(|c| !c.is_whitespace()).count() as u32;
                    t += chars;
                    if n.0 < link_end {
                        l += chars;
                    }
                }
                NodeData::Element { name, .. } => {
                    let end = doc.node(n).end.0;
                    if &**name == "a" && end > link_end {
                        link_end = end;
                    }
                    if matches!(&**name, "script" | "style" | "template" | "head" | "noscript") && end > skip_end {
                        skip_end = end;
                    }
                }
                _ => {}
            }
            text.push(t);
            link.push(l);
        }
        TextStats { text, link }
    }

    fn chars(&self, doc: &Document, n: NodeId) -> u32 {
        self.text[doc.node(n).end.index()] - self.text[n.index()]
    }

    fn link_chars(&self, doc: &Document, n: NodeId) -> u32 {
        self.link[doc.node(n).end.index()] - self.link[n.index()]
    }

    /// Text outside links between two positions of the pre-order arena.
    fn prose_between(&self, from: usize, to: usize) -> u32 {
        (self.text[to] - self.link[to]) - (self.text[from] - self.link[from])
    }

    /// Text outside links: what articles are made of.
    fn prose(&self, doc: &Document, n: NodeId) -> u32 {
        self.chars(doc, n) - self.link_chars(doc, n)
    }
}

/// Class words of embedded posts (a tweet quoted in the article is the article's).
const EMBED_WORDS: &[&str] = &["embed", "embedded", "tweet", "quote", "blockquote"];

fn is_embed(words: &[String]) -> bool {
    words.iter().any(|w| EMBED_WORDS.contains(&w.as_str()))
}

/// Whether class words name boilerplate, where the words in `own` name nothing alone (two-word
/// marks such as `read-more` still count).
fn is_boilerplate_class_but(words: &[String], own: &[String]) -> bool {
    if is_embed(words) {
        return false;
    }
    words.iter().filter(|w| !own.contains(w)).any(|w| {
        BOILERPLATE_WORDS.contains(&w.as_str())
            || names_comments(w)
            || (BOILERPLATE_STEMS.iter().any(|stem| w.contains(stem)) && !NOT_BOILERPLATE.contains(&w.as_str()))
    }) || words.windows(2).any(|p| BOILERPLATE_PAIRS.iter().any(|(a, b)| p[0] == *a && p[1] == *b))
}

/// Class words of the page's bars; a heading styled with one (Docusaurus's
/// `anchorWithStickyNavbar`) is not a bar, and one inside a bar goes with it.
const NAVIGATION_WORDS: &[&str] = &["nav", "navbar", "navigation", "menu", "pager", "toolbar", "masthead"];

/// Whether an element's class says it is boilerplate. A heading is read by its `class` alone,
/// without navigation words: its `id` is most often a slug of its own text
/// (`#sharing-data-between-threads`, `#related-work`), and a box's title says what the box is
/// (`related-posts-title`), a metadata line what it holds (`<h2 class="date">`).
fn is_boilerplate_element(doc: &Document, n: NodeId) -> bool {
    is_boilerplate_element_but(doc, n, &[])
}

/// [`is_boilerplate_element`], reading none of the class words in `own` (the main text's own).
fn is_boilerplate_element_but(doc: &Document, n: NodeId, own: &[String]) -> bool {
    if is_heading(doc, n) {
        let mut words = attribute_words(doc, n, &["class"]);
        words.retain(|w| !NAVIGATION_WORDS.contains(&w.as_str()));
        is_boilerplate_class_but(&words, own)
    } else if doc.is_tag(n, "p") && doc.text(n).chars().count() > META_LINE_MAX_CHARS {
        // A paragraph longer than any metadata line is text, marked for the dateline it opens
        // with (a press release's `<p class="dateline">DAYTON, Ohio, March 8 /PRNewswire/ --
        // The company today…`), not a date or byline line.
        let mut words = class_words(doc, n);
        words.retain(|w| !METADATA_LINE_WORDS.contains(&w.as_str()));
        is_boilerplate_class_but(&words, own)
    } else {
        is_boilerplate_class_but(&class_words(doc, n), own)
    }
}

/// A reader's comment by its schema.org microdata, as forums and blog engines mark each reply
/// whatever their classes say: an item the page names its `comment`, or one of a run of
/// sibling `Comment` items after the first (XenForo marks the topic's first post a `Comment`
/// too). Answers are not comments: a Q&A page's accepted answer is its text.
fn is_marked_comment(doc: &Document, n: NodeId) -> bool {
    let named_comment =
        doc.attr(n, "itemprop").is_some_and(|p| p.split_whitespace().any(|p| p.eq_ignore_ascii_case("comment")));
    let after_another = || {
        doc.parent(n).is_some_and(|p| doc.children(p).iter().take_while(|&&c| c != n).any(|&c| is_comment_item(doc, c)))
    };
    named_comment || (is_comment_item(doc, n) && after_another())
}

/// Class words that name a metadata line (its date): on a whole paragraph, they name its first
/// words. Not `byline`: a long "byline" paragraph is the author's biography after the text.
const METADATA_LINE_WORDS: &[&str] = &["dateline", "timestamp", "date", "meta"];

/// Stems of the class and id words of a site's legal notice (`c_copyright`, `disclaimer`): the
/// same on every page of the site, never the article, however long (a sports league's list
/// of trademarks outweighs a short match report).
const LEGAL_STEMS: &[&str] = &["copyright", "disclaimer"];

fn is_legal_notice(words: &[String]) -> bool {
    words.iter().any(|w| LEGAL_STEMS.iter().any(|stem| w.contains(stem)))
}

/// Longest site notice: a copyright line with the site's credits and a line of thanks
/// ("(c) 2012 The Curious Brain | powered by WordPress with Barecity"), not a paragraph.
const SITE_NOTICE_MAX_CHARS: u32 = 250;
/// A copyright mark and the year it claims ("© 2012", "(c) 2009-2012", "Copyright © 2021"):
/// what every site's notice says, and a sentence of an article about copyright rarely does.
static COPYRIGHT_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:©|\(c\)|copyright)(?:\s*(?:©|\(c\)))?\s*(?:19|20)\d\d\b").expect("valid regex")
});

/// Least link text between the end of the main text and a site notice: the sidebar or menus
/// that stand between an article and its site's footer. An agency's line right after the
/// story ("Copyright 2008 The Associated Press. All rights reserved."), or after the story's
/// last paragraphs where each sits in a box of its own, is the story's.
const SITE_NOTICE_GAP_LINK_CHARS: u32 = 200;

/// A site's notice set apart from the article but not in a `<footer>`: a short block that
/// claims a year's copyright, after the main text and the links that follow it (old themes
/// end the page's column with a `<div class="credit">` after the sidebar). Whatever the block
/// says besides goes with it: it is the site's, on every page.
fn is_site_notice(doc: &Document, n: NodeId, main_text: NodeId, stats: &TextStats) -> bool {
    let text_end = doc.node(main_text).end.index();
    n.index() >= text_end
        && stats.link[n.index()] - stats.link[text_end] >= SITE_NOTICE_GAP_LINK_CHARS
        && matches!(doc.tag(n), Some("div" | "p" | "section" | "small" | "center"))
        && stats.chars(doc, n) <= SITE_NOTICE_MAX_CHARS
        && COPYRIGHT_YEAR.is_match(&doc.text(n))
}

/// A form that asks for a password or an e-mail address ([`asks_for_account`]): a sign-up,
/// log-in, newsletter or comment box, the site's and never the article's, however long the
/// terms it shows. (A form that wraps the whole page, as ASP.NET pages do, holds the headline
/// and is not taken for one.)
fn is_account_form(doc: &Document, n: NodeId) -> bool {
    doc.tag(n) == Some("form") && doc.descendants(n).any(|d| doc.tag(d) == Some("input") && asks_for_account(doc, d))
}

/// An input for a password or an e-mail address: by its type, or, in forms older than
/// `type="email"` and in many mailing-list services' snippets, a text field whose name or
/// autofill hint says e-mail (`name="email"`, `name="EMAIL"`, `autocomplete="email"`).
fn asks_for_account(doc: &Document, input: NodeId) -> bool {
    let kind = doc.attr(input, "type").map(str::trim).unwrap_or("text");
    if kind.eq_ignore_ascii_case("password") || kind.eq_ignore_ascii_case("email") {
        return true;
    }
    let named_email = |attr: &str| {
        doc.attr(input, attr).is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("email") || v.contains("e-mail")
        })
    };
    kind.eq_ignore_ascii_case("text") && (named_email("name") || named_email("autocomplete"))
}

/// Most text outside links that a sign-up box holds besides its form: a heading and a line of
/// pitch ("Email Newsletter Sign-up. Custom-curated news highlights, delivered weekday
/// mornings."), not a paragraph of the article.
const ACCOUNT_BOX_EXTRA_CHARS: u32 = 150;

/// A box around an account form ([`is_account_form`]; `forms`: all of them, in page order)
/// that says little besides: its heading and pitch go with the form.
fn is_account_box(doc: &Document, n: NodeId, forms: &[NodeId], stats: &TextStats) -> bool {
    let end = doc.node(n).end.0;
    let inside = &forms[forms.partition_point(|f| f.0 < n.0)..forms.partition_point(|f| f.0 < end)];
    if inside.is_empty() {
        return false;
    }
    // The forms' own text, counting a form inside another once.
    let mut forms_text = 0;
    let mut covered = 0;
    for &form in inside {
        if form.0 >= covered {
            forms_text += stats.prose(doc, form);
            covered = doc.node(form).end.0;
        }
    }
    matches!(doc.tag(n), Some("div" | "section" | "aside"))
        && stats.prose(doc, n) - forms_text <= ACCOUNT_BOX_EXTRA_CHARS
}

/// The labels that disclosure rules and ad networks put on an ad, in the languages of the
/// time patterns' most common sites (lower case).
const AD_LABELS: &[&str] = &[
    "sponsored",
    "advertisement",
    "anzeige",
    "werbung",
    "publicité",
    "publicidad",
    "pubblicità",
    "reklama",
    "广告",
    "広告",
];
/// The labels news sites put before a link to another of their stories inside the text ("READ
/// MORE: …", Le Monde's "Lire aussi | …"), in the same languages (lower case).
const READ_ALSO_LABELS: &[&str] = &[
    "read more",
    "read also",
    "also read",
    "see also",
    "lire aussi",
    "à lire aussi",
    "lesen sie auch",
    "mehr zum thema",
    "leer más",
    "lee también",
    "leggi anche",
    "相关阅读",
    "延伸阅读",
    "あわせて読みたい",
    "関連記事",
];
/// Most text outside links that a labelled line holds besides its label (a separator, "by").
const LABELLED_LINE_EXTRA_CHARS: usize = 4;

/// A line that is an ad or a pointer to another story by its label: a paragraph, item or box
/// with no block inside that says "Sponsored:" or "- Advertisement -" ([`AD_LABELS`]) or "Read
/// more:" ([`READ_ALSO_LABELS`]) and is otherwise a link (of words or of a picture).
fn is_labelled_line(doc: &Document, n: NodeId, stats: &TextStats) -> bool {
    if !matches!(doc.tag(n), Some("p" | "div" | "li" | "section")) || holds_block(doc, n) {
        return false;
    }
    let prose = stats.prose(doc, n) as usize;
    // No label with its extra is longer than 20 characters: most blocks stop here, unread.
    if prose > 20 {
        return false;
    }
    let linked = stats.link_chars(doc, n) > 0 || doc.descendants(n).any(|d| doc.is_tag(d, "a") && holds_media(doc, d));
    let text = doc.text(n).to_lowercase();
    let text = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    linked
        && AD_LABELS
            .iter()
            .chain(READ_ALSO_LABELS)
            .any(|label| text.starts_with(label) && prose <= label.chars().count() + LABELLED_LINE_EXTRA_CHARS)
}

/// Most characters of a license notice with what goes with it: the author, the permalink and
/// the license's name ("Author: … Link: … Licensed under CC BY-NC-ND 4.0"), a few lines.
const LICENSE_BOX_MAX_CHARS: u32 = 300;
/// Most of them outside links: labels and one sentence ("All posts on this blog are licensed
/// under CC BY-NC-SA 4.0 unless stated otherwise."), not a paragraph of the text that links a
/// license.
const LICENSE_BOX_MAX_PROSE: u32 = 120;

/// A link to the license the page is published under: `rel="license"` (HTML's own mark), or
/// the address of a Creative Commons or GNU license.
fn is_license_link(doc: &Document, a: NodeId) -> bool {
    let rel = doc.attr(a, "rel").is_some_and(|r| r.split_ascii_whitespace().any(|w| w.eq_ignore_ascii_case("license")));
    // Licenses are linked by their absolute, lower-case address: read as text, not resolved
    // (this is asked of every link in every small block).
    rel || doc.attr(a, "href").is_some_and(|href| {
        ["creativecommons.org/licenses/", "creativecommons.org/publicdomain/", "gnu.org/licenses/"]
            .iter()
            .any(|license| href.contains(license))
    })
}

/// A license notice: a short block that links the license the post is published under, with
/// the author and permalink lines that come with it (blogs end every post with one). The
/// largest such block goes, since the page is walked from the top.
fn is_license_box(doc: &Document, n: NodeId, stats: &TextStats) -> bool {
    stats.chars(doc, n) <= LICENSE_BOX_MAX_CHARS
        && stats.prose(doc, n) <= LICENSE_BOX_MAX_PROSE
        && doc.descendants(n).any(|d| doc.is_tag(d, "a") && is_license_link(doc, d))
}

/// Hidden from sight, or decorative (`aria-hidden`): not the article's text.
fn is_hidden(doc: &Document, n: NodeId) -> bool {
    is_not_rendered(doc, n) || doc.attr(n, "aria-hidden").is_some_and(|v| v.trim() == "true")
}

/// Not drawn at all: the `hidden` attribute, `display: none`, `visibility: hidden`; unless it
/// is the whole text of a teaser beside it, which a "more" toggle opens.
fn is_not_rendered(doc: &Document, n: NodeId) -> bool {
    is_hidden_by_markup(doc, n) && !expands_teaser(doc, n)
}

fn is_hidden_by_markup(doc: &Document, n: NodeId) -> bool {
    doc.attr(n, "hidden").is_some()
        || doc.attr(n, "style").is_some_and(|s| {
            let s: String = s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
            s.contains("display:none") || s.contains("visibility:hidden")
        })
}

/// Characters of a teaser just before its ellipsis that the whole text must hold: a clause,
/// too long to meet in another text by chance.
const TEASER_CUT_CHARS: usize = 40;
/// What may follow a teaser's ellipsis (characters): its toggle's label ("more", "[+]",
/// "read more").
const TOGGLE_LABEL_CHARS: usize = 20;

/// Whether a hidden element is the expanded form of the visible element just before it: that
/// one's text ends in an ellipsis (and maybe its toggle's label), and the hidden text goes on
/// from the clause the ellipsis cuts (reviews and product pages show a teaser and hide the
/// whole text until "more" is clicked).
fn expands_teaser(doc: &Document, n: NodeId) -> bool {
    let Some(teaser) = previous_element(doc, n) else { return false };
    if is_hidden_by_markup(doc, teaser) {
        return false;
    }
    let shown = doc.text(teaser);
    let Some(cut) = shown.rfind("...").or_else(|| shown.rfind('…')) else { return false };
    if shown[cut..].trim_start_matches(['.', '…']).chars().count() > TOGGLE_LABEL_CHARS {
        return false;
    }
    let before: Vec<char> = shown[..cut].trim_end().chars().collect();
    if before.len() < TEASER_CUT_CHARS {
        return false;
    }
    let clause: String = before[before.len() - TEASER_CUT_CHARS..].iter().collect();
    let whole = doc.text(n);
    whole.len() > shown.len() && whole.contains(&clause)
}

/// A visible teaser whose whole text follows it hidden: the whole text stands for it.
fn is_expanded_teaser(doc: &Document, n: NodeId) -> bool {
    next_element(doc, n).is_some_and(|next| is_hidden_by_markup(doc, next) && expands_teaser(doc, next))
}

fn previous_element(doc: &Document, n: NodeId) -> Option<NodeId> {
    let siblings = doc.children(doc.parent(n)?);
    siblings[..doc.node(n).position as usize].iter().rev().find(|&&s| doc.is_element(s)).copied()
}

fn next_element(doc: &Document, n: NodeId) -> Option<NodeId> {
    let siblings = doc.children(doc.parent(n)?);
    siblings[doc.node(n).position as usize + 1..].iter().find(|&&s| doc.is_element(s)).copied()
}

/// Screen-reader-only text (`sr-only`, `visually-hidden`, `screen-reader-text`): an icon's
/// spoken label ("open in new window"), which sighted readers and feeds never show.
fn is_screen_reader_only(words: &[String]) -> bool {
    const PAIRS: [(&str, &str); 3] = [("sr", "only"), ("visually", "hidden"), ("screen", "reader")];
    words.windows(2).any(|p| PAIRS.iter().any(|(a, b)| p[0] == *a && p[1] == *b))
}

/// An element a reader does not see: not rendered, or screen-reader-only. Decorative
/// (`aria-hidden`) parts are drawn, so a site's content path keeps them.
pub fn is_unseen(doc: &Document, n: NodeId) -> bool {
    doc.is_element(n) && (is_not_rendered(doc, n) || is_screen_reader_only(&class_words(doc, n)))
}

/// The text of `scope` without the subtrees a reader does not see.
pub fn visible_text(doc: &Document, scope: NodeId) -> String {
    doc.text_without(scope, |n| is_unseen(doc, n))
}

/// The HTML inside `scope` without the subtrees a reader does not see: the content a rule's
/// or a template's path selects.
pub fn visible_inner_html(doc: &Document, scope: NodeId) -> String {
    let mut marks = vec![Mark::Keep; doc.len()];
    let mut n = scope.0 + 1;
    while n < doc.node(scope).end.0 {
        let id = NodeId(n);
        if is_unseen(doc, id) {
            marks[id.index()] = Mark::Drop;
            n = doc.node(id).end.0;
        } else {
            n += 1;
        }
    }
    let mut out = String::new();
    serialize_kept(doc, scope, &marks, &mut out);
    out
}

/// What becomes of a node when the page is written out again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Keep,
    /// Left out with its subtree.
    Drop,
    /// Kept without `class` and `id`: an embedded post whose `social` or `share` class would
    /// make Readability throw it away, a code comment's `comment`.
    Unclassed,
    /// Kept without `id`: a heading, whose id is a slug of its words.
    Unnamed,
    /// Part of a table that lays out the page, written as a `<div>`.
    Layout,
    /// A wrapper of one of the text's sections, written as a `<section>`.
    Section,
    /// A page builder's module of the text ([`same_kind_modules`]), written as a `<section>`
    /// without `class` and `id` (the builder's names, `widget` among them, would weigh
    /// against it in Readability).
    Module,
    /// A wrapper inside such a module, written without its tags (its children in its place).
    Unwrapped,
    /// Hidden by its markup until a script shows it, and kept: written without `hidden` and
    /// `style`, which would make Readability throw it away.
    Shown,
    /// A callout of the text ([`is_callout`]), written as a plain `<div>`: Readability drops
    /// every `<aside>` and the `alert` role.
    Callout,
}

/// Which subtrees of `scope` to leave out before Readability sees the page (`by_class`: the
/// small blocks whose class words name boilerplate; else only those that name comments).
fn prune(doc: &Document, scope: NodeId, title_node: Option<NodeId>, by_class: bool) -> Vec<Mark> {
    let stats = TextStats::new(doc);
    let total = stats.prose(doc, scope).max(1) as f64;
    // The article element that holds the headline; other article elements are teasers.
    let main_article = title_node.and_then(|t| doc.ancestors(t).find(|&a| is_article_element(doc, a)));
    let main_text = main_text_block(doc, scope, &stats);
    let modules = main_text.map(|m| same_kind_modules(doc, m, title_node, &stats)).unwrap_or_default();
    // A page builder's name for its modules says nothing against one of them.
    let own_words = match (main_text, modules.own) {
        (Some(text), Some(_)) => own_words(doc, text, title_node),
        _ => Vec::new(),
    };
    let mut marks = vec![Mark::Keep; doc.len()];
    let account_forms: Vec<NodeId> =
        (scope.0..doc.node(scope).end.0).map(NodeId).filter(|&n| is_account_form(doc, n)).collect();
    // The parent of a heading that opened a comment section: its later children are comments.
    let mut comments_in: Option<NodeId> = None;
    let mut n = scope.0 + 1;
    let end = doc.node(scope).end.0;
    while n < end {
        let id = NodeId(n);
        let Some(tag) = doc.tag(id) else {
            n += 1;
            continue;
        };
        let words = class_words(doc, id);
        let small = || (stats.prose(doc, id) as f64) < BOILERPLATE_MAX_SHARE * total;
        // The wrappers of the headline and of the main text are the article's, whatever their
        // class says (`content-with-sidebar`, `article has-comments`).
        let holds_title = title_node.is_some_and(|t| doc.contains(id, t));
        let holds_text = main_text.is_some_and(|m| doc.contains(id, m));
        // A box of teaser cards after the main text is another story's furniture ("Recent
        // Posts"); one before it may be the page's own list of stories above a footer's prose.
        let after_text = || main_text.is_some_and(|m| id.0 >= doc.node(m).end.0);
        // Inside the main text block, unless that block is the whole page (a mail archive's
        // message, set right in the `<body>`).
        let in_text = || main_text.is_some_and(|m| m != scope && doc.contains(m, id));
        let parent = doc.parent(id);
        // Not a heading inside the main text: generators derive a heading's id from its words
        // (`<h2 id="comments">` of a post about code comments).
        if is_comment_heading(doc, id) && !holds_title && !main_text.is_some_and(|m| doc.contains(m, id)) {
            comments_in = parent;
        }
        let in_comments = comments_in.is_some() && parent == comments_in && !holds_title && !holds_text;
        let callout = is_callout(doc, id, main_text, &stats);
        let drop = DROPPED_TAGS.contains(&tag)
            || Some(id) == title_node
            || in_comments
            || (small()
                && ((FURNITURE_TAGS.contains(&tag) && !callout)
                    || doc.attr(id, "role").is_some_and(|r| FURNITURE_ROLES.contains(&r.trim()))
                    || is_hidden(doc, id)
                    || (tag == "noscript" && !holds_media(doc, id))
                    || (tag == "table" && is_month_grid(doc, id))
                    || (matches!(tag, "ul" | "ol")
                        && (is_teaser_list(doc, id, &stats) || is_dated_link_list(doc, id)))
                    || titles_dated_link_list(doc, id)
                    || (!holds_title && !in_text() && is_post_navigation(doc, id, &stats))
                    || (!holds_title
                        && !holds_text
                        && if by_class {
                            is_boilerplate_element_but(doc, id, &own_words)
                        } else {
                            is_comment_zone(doc, id)
                        })
                    || main_article
                        .is_some_and(|a| is_article_element(doc, id) && !doc.contains(id, a) && !doc.contains(a, id))))
            || (by_class && !holds_title && !holds_text && is_legal_notice(&words))
            // A box of other stories' cards after the text that says less than the text,
            // whatever its share of the page (a news site's column of a dozen teasers beside a
            // short story); one that says more is the page's own list (a shop's products
            // under its intro).
            || (matches!(tag, "div" | "section" | "aside")
                && after_text()
                && main_text.is_some_and(|m| stats.prose(doc, id) < stats.prose(doc, m))
                && is_teaser_list(doc, id, &stats))
            || (title_node.is_some()
                && !holds_title
                && (is_account_form(doc, id) || (!holds_text && is_account_box(doc, id, &account_forms, &stats))))
            || is_labelled_line(doc, id, &stats)
            || main_text.is_some_and(|m| is_site_notice(doc, id, m, &stats))
            || (!holds_title && !holds_text && is_license_box(doc, id, &stats))
            || (!holds_title && !holds_text && is_marked_comment(doc, id))
            || is_lazy_placeholder(doc, id)
            || (is_tag_link(doc, id) && !in_sentence(doc, id))
            || (by_class && !holds_title && is_taxonomy_line(doc, id, &stats))
            || is_heading_control(doc, id, &stats)
            || is_expanded_teaser(doc, id);
        if drop {
            marks[id.index()] = Mark::Drop;
            n = doc.node(id).end.0;
        } else if matches!(tag, "pre" | "code") {
            // Inside code, class words name the language's parts (`<span class="comment">` is
            // a code comment, not a reader's): the block is kept whole, its parts written
            // without them so that Readability keeps them too.
            for part in doc.descendants(id).filter(|&d| doc.is_element(d)) {
                marks[part.index()] = Mark::Unclassed;
            }
            n = doc.node(id).end.0;
        } else {
            if callout {
                marks[id.index()] = Mark::Callout;
            } else if is_hidden_by_markup(doc, id) {
                // Too much of the page's text to be a hidden menu or dialog: the article,
                // revealed by a script (WeChat's `#js_content`, fade-in themes).
                marks[id.index()] = Mark::Shown;
            } else if is_embed(&words)
                || (by_class
                    && !own_words.is_empty()
                    && is_boilerplate_element(doc, id)
                    && !is_boilerplate_element_but(doc, id, &own_words))
            {
                // Kept for its own kind's name (a page builder's `elementor-widget`): written
                // without it, so that Readability does not take it for a sidebar's widget.
                marks[id.index()] = Mark::Unclassed;
            } else if is_heading(doc, id) && !is_comment_heading(doc, id) {
                // Readability reads a heading's id like its class, and drops one whose id, a
                // slug of its words, says `related` (`#related-work`); a comment section's
                // heading goes as before. Nor does it see the class of a heading kept here
                // (read above): `subheader` and `recipe-header` name a heading of the text,
                // and Readability drops every heading whose class says "header".
                marks[id.index()] = if is_header_named(doc, id) { Mark::Unclassed } else { Mark::Unnamed };
            }
            n += 1;
        }
    }
    if let Some(text) = main_text {
        mark_layout_table(doc, text, &mut marks);
        mark_sections(doc, text, &stats, &mut marks);
        mark_modules(doc, &modules, &mut marks);
    }
    marks
}

/// Least share of a callout's text outside links: a note is sentences; a "read also" box
/// inside the body is links.
const CALLOUT_MIN_PROSE_SHARE: f64 = 0.7;

/// A callout of the text: an `<aside>` or an element with the `alert` or `note` role inside the
/// main text block, holding prose (a note, a warning, a background box: Zenn's `:::message`,
/// Docsy's alerts, news sites' info boxes). Sidebars and teaser boxes sit outside the body or
/// are links.
fn is_callout(doc: &Document, n: NodeId, main_text: Option<NodeId>, stats: &TextStats) -> bool {
    let marked = doc.is_tag(n, "aside")
        || doc.attr(n, "role").is_some_and(|r| matches!(r.trim().to_ascii_lowercase().as_str(), "alert" | "note"));
    let chars = stats.chars(doc, n);
    marked
        && main_text.is_some_and(|m| m != n && doc.contains(m, n))
        && chars > 0
        && stats.prose(doc, n) as f64 >= CALLOUT_MIN_PROSE_SHARE * chars as f64
}

/// Least text outside links (characters, not counting its heading) of a wrapper that is a
/// section of the text: a paragraph of two or three sentences, more than a teaser card's
/// summary line.
const SECTION_MIN_PROSE: u32 = 200;

/// An article written in sections, each in a wrapper of its own that opens with the section's
/// heading (`<li><h4>Earnings</h4><blockquote><p>…`, `<div class="section"><h2>…</h2><div
/// class="body">…`: handbooks, documentation, reports). Readability scores each section's
/// paragraphs for their inner wrapper and keeps the best section alone, since wrappers
/// (`div`, `li`) do not pass their sections' scores on; written as `<section>`s, whose
/// siblings it weighs as parts of one text, the article keeps every section. Only the
/// ancestors of the main text block are searched, and a wrapper counts when a sibling of the
/// same tag is a section too.
fn mark_sections(doc: &Document, main_text: NodeId, stats: &TextStats, marks: &mut [Mark]) {
    let is_section = |n: NodeId| {
        matches!(doc.tag(n), Some("div" | "li"))
            && marks[n.index()] == Mark::Keep
            && doc.children(n).iter().copied().find(|&c| doc.is_element(c)).is_some_and(|first| {
                is_heading(doc, first)
                    && stats.prose(doc, n).saturating_sub(stats.prose(doc, first)) >= SECTION_MIN_PROSE
            })
    };
    let mut found = Vec::new();
    for wrapper in doc.ancestors(main_text).skip(1) {
        let sections: Vec<NodeId> = doc.children(wrapper).iter().copied().filter(|&c| is_section(c)).collect();
        let tag_of = |n: NodeId| doc.tag(n).unwrap_or_default();
        let kinds = |n: NodeId| sections.iter().filter(|&&s| tag_of(s) == tag_of(n)).count();
        found.extend(sections.iter().copied().filter(|&s| kinds(s) >= 2));
    }
    for section in found {
        marks[section.index()] = Mark::Section;
    }
}

/// Least text outside links (characters) of a paragraph that makes a block of the main text's
/// own kind a part of the text: two sentences.
const SAME_KIND_MIN_PROSE: u32 = 100;
/// Least share of such a block's text outside links: a module of text, not a box of links.
const SAME_KIND_MIN_PROSE_SHARE: f64 = 0.6;
/// How many wrappers up from the main text block its siblings of the same kind are looked for:
/// a page builder nests a module of text three or four deep (Divi's row > column > module >
/// inner; Elementor's widget > container).
const SAME_KIND_LEVELS: usize = 4;

/// An article set by a page builder in modules of one kind (Divi's `et_pb_row` > … >
/// `et_pb_text_inner`, Elementor's `elementor-widget-text-editor`): the intro in one module,
/// the rest in the next. Readability keeps the best module alone, as with sections; the
/// siblings of the main text block (or of a wrapper of it below the headline's) of its kind
/// that hold prose or one heading (not a teaser, whose heading links) are its modules, written
/// as `<section>`s ([`mark_modules`]). The kind is the first class name, which builders give
/// the module's type (`et_pb_row et_pb_row_3`, `elementor-element elementor-element-5e3a7f2
/// …`); a module of links (share buttons, a posts widget) holds too little prose.
fn same_kind_modules(doc: &Document, main_text: NodeId, title_node: Option<NodeId>, stats: &TextStats) -> Modules {
    let own_levels = std::iter::once(main_text).chain(doc.ancestors(main_text)).take(SAME_KIND_LEVELS);
    for own in own_levels.take_while(|&a| doc.is_element(a) && title_node.is_none_or(|t| !doc.contains(a, t))) {
        let kind_of = |n: NodeId| {
            doc.attr(n, "class")
                .and_then(|c| c.split_ascii_whitespace().next())
                .filter(|k| !is_grid_class(k) && !is_generated_class(k))
        };
        let (Some(parent), Some(kind)) = (doc.parent(own), kind_of(own)) else { continue };
        let others: Vec<NodeId> = doc
            .children(parent)
            .iter()
            .copied()
            .filter(|&c| c != own && doc.tag(c) == doc.tag(own) && kind_of(c) == Some(kind))
            .filter(|&c| {
                let prose = stats.prose(doc, c);
                // Prose: a paragraph of it, and most of the module's text (not a list of
                // teasers, whose lines are short, nor a box of links).
                let paragraph =
                    doc.descendants(c).any(|d| doc.is_tag(d, "p") && stats.prose(doc, d) >= SAME_KIND_MIN_PROSE);
                let prose_block = paragraph && prose as f64 >= SAME_KIND_MIN_PROSE_SHARE * stats.chars(doc, c) as f64;
                // A teaser's heading links to its story.
                let linked_heading =
                    doc.descendants(c).any(|d| is_heading(doc, d) && doc.descendants(d).any(|a| doc.is_tag(a, "a")));
                (prose_block || is_heading_module(doc, c, stats)) && !linked_heading && !is_post_of_its_own(doc, c)
            })
            .collect();
        if !others.is_empty() {
            let depth = doc.ancestors(main_text).take_while(|&a| a != own).count() + 1;
            return Modules { own: Some(own), others, depth };
        }
    }
    Modules::default()
}

/// A block that is a post of its own: a schema.org item (a Q&A page's answers, a forum's
/// replies), or a block with its own author or `<time>`. A page builder's modules are parts of
/// one text and carry neither.
fn is_post_of_its_own(doc: &Document, block: NodeId) -> bool {
    std::iter::once(block).chain(doc.descendants(block)).any(|d| {
        doc.attr(d, "itemscope").is_some()
            || doc.is_tag(d, "time")
            || doc.attr(d, "rel").is_some_and(|r| r.split_whitespace().any(|w| w.eq_ignore_ascii_case("author")))
            || doc.attr(d, "itemprop").is_some_and(|p| p.split_whitespace().any(|w| w.eq_ignore_ascii_case("author")))
    })
}

/// The modules of a page builder's text: the main text block's (or its wrapper's) and its
/// siblings of the same kind, with how deep the main text sits in its module.
#[derive(Default)]
struct Modules {
    own: Option<NodeId>,
    others: Vec<NodeId>,
    depth: usize,
}

/// Writes the modules (those pruning kept) as `<section>`s, their wrappers unwrapped.
fn mark_modules(doc: &Document, modules: &Modules, marks: &mut [Mark]) {
    let Some(own) = modules.own else { return };
    for &block in modules.others.iter().chain([&own]) {
        if matches!(marks[block.index()], Mark::Keep | Mark::Unclassed) {
            marks[block.index()] = Mark::Module;
            unwrap_wrappers(doc, block, modules.depth, marks);
        }
    }
}

/// Class names of CSS grid frameworks (Bootstrap, Foundation, Bulma) and generic wrappers and
/// boxes: they say where a block sits in the page's grid, or that it is a box, not what it
/// holds, and every part of a page (header, text, related stories, footer) has them. A page
/// builder's names say which module it is (`et_pb_text`, `elementor-widget-text-editor`).
#[rustfmt::skip]
const GRID_CLASSES: &[&str] = &[
    "container", "row", "col", "column", "columns", "wrapper", "wrap", "grid", "clearfix", "inner", "section",
    "module", "mod", "block", "box", "item", "component", "content",
];

/// Whether a class name is a grid framework's or a generic wrapper's (`col-xs-12`, `row`).
fn is_grid_class(class: &str) -> bool {
    let class = class.to_ascii_lowercase();
    let stem = class.split(['-', '_']).next().unwrap_or_default();
    GRID_CLASSES.contains(&stem) || GRID_CLASSES.contains(&class.as_str())
}

/// Whether a class name was generated by a CSS-in-JS library (`css-53u6y8`, `dcr-1kh4zou`,
/// `sc-hKVsly`): a hash after a short prefix, digits among letters or capitals among small
/// letters. It names a styled component, and sites style every slot of their grid with one
/// (the standfirst, the text, the donation appeal), so it says nothing of what a block holds.
fn is_generated_class(class: &str) -> bool {
    let Some((_, hash)) = class.split_once(['-', '_']) else { return false };
    let alphanumeric = hash.chars().all(|c| c.is_ascii_alphanumeric());
    let digits = hash.chars().any(|c| c.is_ascii_digit());
    let letters = hash.chars().any(|c| c.is_ascii_alphabetic());
    let mixed_case = hash.chars().any(|c| c.is_ascii_uppercase()) && hash.chars().any(|c| c.is_ascii_lowercase());
    alphanumeric && (4..=10).contains(&hash.len()) && ((digits && letters) || mixed_case)
}

/// Longest text of a module that holds a heading of the text alone.
const HEADING_MODULE_MAX_CHARS: u32 = 150;

/// A module holding one of the text's headings alone, between modules of its paragraphs (a
/// page builder's heading widget): no link, and all its text in one `<h2>`–`<h6>`.
fn is_heading_module(doc: &Document, module: NodeId, stats: &TextStats) -> bool {
    let chars = stats.chars(doc, module);
    chars > 0
        && chars <= HEADING_MODULE_MAX_CHARS
        && stats.prose(doc, module) == chars
        && doc
            .descendants(module)
            .any(|d| matches!(doc.tag(d), Some("h2" | "h3" | "h4" | "h5" | "h6")) && stats.chars(doc, d) == chars)
}

/// Marks the `<div>`s that only wrap blocks (no text or inline element of their own, which
/// would run into the next block's), down to `depth` levels inside `module`, to be
/// written without their tags: the module's paragraphs are then its children, and Readability
/// scores the module for them (it credits a paragraph's score to three ancestors at most, each
/// less).
fn unwrap_wrappers(doc: &Document, module: NodeId, depth: usize, marks: &mut [Mark]) {
    let mut level = vec![module];
    for _ in 0..depth {
        let wrappers: Vec<NodeId> = level
            .iter()
            .flat_map(|&n| doc.children(n).iter().copied())
            .filter(|&c| {
                doc.is_tag(c, "div")
                    && marks[c.index()] == Mark::Keep
                    && doc.children(c).iter().all(|&g| match doc.tag(g) {
                        Some(tag) => is_block(tag),
                        None => doc.text_node(g).is_none_or(|t| t.trim().is_empty()),
                    })
            })
            .collect();
        for &w in &wrappers {
            marks[w.index()] = Mark::Unwrapped;
        }
        level = wrappers;
    }
}

/// A table that holds the article's main text lays out the page (menu in one cell, article in
/// the next: sites built before CSS, and e-mail newsletters): no data table holds an article.
/// Its parts are written as `<div>`s, so Readability weighs the cells as blocks (the menu's
/// links drop out) instead of merging their text ("Contact UsThe Great Mill Fire").
fn mark_layout_table(doc: &Document, main_text: NodeId, marks: &mut [Mark]) {
    let table_of = |n: NodeId| doc.ancestors(n).find(|&a| doc.is_tag(a, "table"));
    let mut table = if doc.is_tag(main_text, "table") { Some(main_text) } else { table_of(main_text) };
    while let Some(t) = table {
        for part in std::iter::once(t).chain(doc.descendants(t)) {
            let is_part = matches!(doc.tag(part), Some("table" | "thead" | "tbody" | "tfoot" | "tr" | "td" | "th"));
            // A table inside a cell is a table of its own (the article's figures).
            let own = part == t || (!doc.is_tag(part, "table") && table_of(part) == Some(t));
            if is_part && own && marks[part.index()] == Mark::Keep {
                marks[part.index()] = Mark::Layout;
            }
        }
        table = table_of(t);
    }
}

/// Whether a heading's class says "header" (`subheader`, `wprm-recipe-header`): a heading of the
/// text by its own name.
fn is_header_named(doc: &Document, heading: NodeId) -> bool {
    doc.attr(heading, "class").is_some_and(|c| c.to_ascii_lowercase().contains("header"))
}

/// Longest text of a heading's control: "[edit]", "¶", "#", "Link to this section".
const HEADING_CONTROL_MAX_CHARS: usize = 24;

/// An inline control set beside a section heading in the heading's own wrapper: an edit link,
/// a permalink anchor (MediaWiki's `<div class="mw-heading"><h2>History</h2><span
/// class="mw-editsection">[edit]</span></div>`, documentation sites' `#` anchors). It holds no
/// word outside its links; left in, Readability takes the wrapper for a box of links and drops
/// the heading with it.
fn is_heading_control(doc: &Document, n: NodeId, stats: &TextStats) -> bool {
    let Some(parent) = doc.parent(n) else { return false };
    let heading = |c: NodeId| matches!(doc.tag(c), Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6"));
    let wordless = |c: NodeId| {
        !std::iter::once(c).chain(doc.descendants(c)).any(|t| {
            doc.text_node(t).is_some_and(|text| text.chars().any(char::is_alphanumeric))
                && !doc.ancestors(t).take_while(|&a| a != parent).any(|a| doc.is_tag(a, "a"))
        })
    };
    let siblings = doc.children(parent);
    // Inline: a list of links under a heading ("References") is a section of its own.
    !doc.tag(n).is_some_and(is_block)
        && stats.chars(doc, n) as usize <= HEADING_CONTROL_MAX_CHARS
        && siblings.iter().filter(|&&c| heading(c)).count() == 1
        && siblings.iter().all(|&c| heading(c) || wordless(c))
}

/// The element whose paragraphs (blocks with no block inside) hold the most text outside links,
/// outside comment sections: the article's body, made of long paragraphs, wherever layout
/// classes put it. Counting a paragraph for its parent only, an author box or a widget with
/// one long paragraph does not outweigh a body of several.
fn main_text_block(doc: &Document, scope: NodeId, stats: &TextStats) -> Option<NodeId> {
    let end = doc.node(scope).end;
    let offset = |id: NodeId| (id.0 - scope.0) as usize;
    // Whether an element has a block element inside, bottom-up over the pre-order arena.
    let mut holds_block = vec![false; end.index() - scope.index()];
    let mut paragraphs_text = vec![0u32; end.index() - scope.index()];
    for i in (scope.0..end.0).rev() {
        let id = NodeId(i);
        let Some(tag) = doc.tag(id) else { continue };
        let block = is_block(tag);
        let Some(parent) = doc.parent(id).filter(|p| p.0 >= scope.0) else { continue };
        if block && !holds_block[offset(id)] {
            paragraphs_text[offset(parent)] += stats.prose(doc, id);
        }
        holds_block[offset(parent)] |= block || holds_block[offset(id)];
    }
    let mut blocks: Vec<(u32, NodeId)> =
        (scope.0..end.0).map(NodeId).map(|id| (paragraphs_text[offset(id)], id)).filter(|&(t, _)| t > 0).collect();
    blocks.sort_by_key(|&(text, id)| (std::cmp::Reverse(text), id));
    blocks.into_iter().map(|(_, id)| id).find(|&id| !is_comment_zone(doc, id))
}

/// The class words of the main text block and of its wrapper (unless that holds the
/// headline): the page's own words for a block of its text. A page builder names every block
/// of the article so (Elementor's `elementor-widget-container` in an `elementor-widget-text-
/// editor`: "widget", a word of sidebars' boxes elsewhere), and on that page such a word says
/// nothing against a block.
fn own_words(doc: &Document, main_text: NodeId, title_node: Option<NodeId>) -> Vec<String> {
    std::iter::once(main_text)
        .chain(doc.ancestors(main_text))
        .take(2)
        .take_while(|&a| doc.is_element(a) && title_node.is_none_or(|t| !doc.contains(a, t)))
        .flat_map(|a| class_words(doc, a))
        .collect()
}

/// Whether an element shows a picture or a player (its text is not what readers see of it).
fn holds_media(doc: &Document, n: NodeId) -> bool {
    std::iter::once(n)
        .chain(doc.descendants(n))
        .any(|d| matches!(doc.tag(d), Some("img" | "picture" | "video" | "audio" | "iframe")))
        || noscript_markup(doc, n).is_some_and(|m| m.contains("<img") || m.contains("<iframe"))
}

/// Whether the element just before (or, with `below`, after) this one is a picture or a player
/// (with no more text than a credit).
fn beside_media(doc: &Document, n: NodeId, below: bool) -> bool {
    let Some(parent) = doc.parent(n) else { return false };
    let siblings = doc.children(parent);
    let position = doc.node(n).position as usize;
    let next = siblings[position + 1..].iter().find(|&&s| doc.is_element(s)).filter(|_| below);
    let previous = siblings[..position].iter().rev().find(|&&s| doc.is_element(s));
    [next, previous]
        .into_iter()
        .flatten()
        .any(|&s| holds_media(doc, s) && doc.text(s).chars().count() <= CREDIT_MAX_CHARS)
}

/// Longest text of a picture's own element (a credit, an alternative text shown).
const CREDIT_MAX_CHARS: usize = 100;

/// Fewest cells of a month's grid: four weeks.
const MONTH_GRID_MIN_CELLS: usize = 28;

/// A calendar widget: a table whose cells are day numbers (1–31) or empty, a blog's archive by
/// day. An article's tables hold figures of several digits, words and units.
fn is_month_grid(doc: &Document, table: NodeId) -> bool {
    let cells: Vec<String> = doc.descendants(table).filter(|&c| doc.is_tag(c, "td")).map(|c| doc.text(c)).collect();
    let is_day = |text: &str| {
        let text = text.trim();
        text.is_empty() || text.parse::<u8>().is_ok_and(|d| (1..=31).contains(&d))
    };
    let days = cells.iter().filter(|c| is_day(c)).count();
    cells.len() >= MONTH_GRID_MIN_CELLS && 10 * days >= 9 * cells.len()
}

/// A link to a tag or category page (`rel="tag"`): the article's keywords, not its text.
fn is_tag_link(doc: &Document, n: NodeId) -> bool {
    doc.is_tag(n, "a")
        && doc.attr(n, "rel").is_some_and(|r| r.split_ascii_whitespace().any(|r| r == "tag" || r == "category"))
}

/// Most text outside links of a line of a post's tags or categories: its labels and
/// separators ("Filed under … | 1 Comment", "This entry was posted in …. Bookmark the
/// permalink."), not a sentence of the text that links a tag.
const TAXONOMY_LINE_MAX_PROSE: u32 = 48;

/// A line that files the post under its tags or categories (a link with `rel="tag"` or
/// `rel="category"` in it, and only labels around the links): with its links left out, what
/// remains is labels and commas.
fn is_taxonomy_line(doc: &Document, n: NodeId, stats: &TextStats) -> bool {
    matches!(doc.tag(n), Some("p" | "div" | "span" | "li" | "small"))
        && stats.prose(doc, n) <= TAXONOMY_LINE_MAX_PROSE
        && !holds_block(doc, n)
        && doc.descendants(n).any(|d| is_tag_link(doc, d))
}

/// Whether a link is a word of a sentence ("I wrote about <a rel=tag>hiking</a> before"): a
/// word runs into it from the text before or after it. Links to tags in a list are set between
/// commas, separators and line breaks.
fn in_sentence(doc: &Document, link: NodeId) -> bool {
    let siblings = doc.parent(link).map(|p| doc.children(p)).unwrap_or_default();
    let Some(at) = siblings.iter().position(|&c| c == link) else { return false };
    let text_of = |i: Option<usize>| i.and_then(|i| siblings.get(i)).and_then(|&c| doc.text_node(c)).unwrap_or("");
    let before = text_of(at.checked_sub(1));
    let after = text_of(Some(at + 1));
    before.trim_end().chars().next_back().is_some_and(char::is_alphanumeric)
        || after.trim_start().chars().next().is_some_and(char::is_alphanumeric)
}

/// An `<article>` or an element with article microdata.
fn is_article_element(doc: &Document, n: NodeId) -> bool {
    doc.is_tag(n, "article")
        || doc
            .attr(n, "itemtype")
            .is_some_and(|t| t.ends_with("/Article") || t.ends_with("NewsArticle") || t.ends_with("BlogPosting"))
}

/// A lazy image's placeholder whose real image sits next to it in `<noscript>` (after it, or
/// before it as some lazy-loading plugins write it).
fn is_lazy_placeholder(doc: &Document, n: NodeId) -> bool {
    if !doc.is_tag(n, "img") {
        return false;
    }
    let Some(parent) = doc.parent(n) else { return false };
    let siblings = doc.children(parent);
    let position = doc.node(n).position as usize;
    let next = siblings[position + 1..].iter().find(|&&s| doc.is_element(s));
    let previous = siblings[..position].iter().rev().find(|&&s| doc.is_element(s));
    [next, previous].into_iter().flatten().any(|&s| {
        doc.is_tag(s, "noscript")
            && (doc.descendants(s).any(|d| doc.is_tag(d, "img"))
                || noscript_markup(doc, s).is_some_and(|m| m.contains("<img")))
    })
}

/// The markup a `<noscript>` holds as text: pages saved by a browser that ran scripts keep
/// its content escaped (`&lt;img src=…&gt;`), and a reader without scripts sees that markup.
fn noscript_markup(doc: &Document, noscript: NodeId) -> Option<String> {
    let children = doc.children(noscript);
    if children.is_empty() || !children.iter().all(|&c| doc.text_node(c).is_some()) {
        return None;
    }
    let text: String = children.iter().filter_map(|&c| doc.text_node(c)).collect();
    text.trim_start().starts_with('<').then_some(text)
}

/// HTML of `scope`'s subtree without the dropped subtrees; `<noscript>` is unwrapped (a feed
/// reader runs no scripts, so its content is what readers see), its markup parsed when a
/// browser saved it as text.
fn serialize_kept(doc: &Document, scope: NodeId, marks: &[Mark], out: &mut String) {
    enum Step {
        Open(NodeId),
        Close(NodeId),
    }
    let mut stack: Vec<Step> = doc.children(scope).iter().rev().map(|&c| Step::Open(c)).collect();
    while let Some(step) = stack.pop() {
        match step {
            Step::Close(n) => {
                out.push_str("</");
                out.push_str(written_tag(marks[n.index()], doc.tag(n).unwrap_or_default()));
                out.push('>');
            }
            Step::Open(n) if marks[n.index()] == Mark::Drop => {}
            Step::Open(n) if marks[n.index()] == Mark::Unwrapped => {
                stack.extend(doc.children(n).iter().rev().map(|&c| Step::Open(c)));
            }
            Step::Open(n) => match &doc.node(n).data {
                NodeData::Document => {}
                NodeData::Text(text) => dom::escape(text, false, out),
                NodeData::Element { name, attrs } => {
                    let children = doc.children(n).iter().rev().map(|&c| Step::Open(c));
                    if &**name == "noscript" {
                        match noscript_markup(doc, n).and_then(|m| dom::parse_str(&m, &doc.base).ok()) {
                            Some(inner) => {
                                if let Some(body) = inner.first_tag("body") {
                                    serialize_kept(&inner, body, &vec![Mark::Keep; inner.len()], out);
                                }
                            }
                            None => stack.extend(children),
                        }
                        continue;
                    }
                    if &**name == "br" {
                        match paragraph_break(doc, n) {
                            Some(Break::First) => out.push_str("</p><p>"),
                            Some(Break::Rest) => {}
                            None => out.push_str("<br>"),
                        }
                        continue;
                    }
                    out.push('<');
                    out.push_str(written_tag(marks[n.index()], name));
                    let unclassed = matches!(marks[n.index()], Mark::Unclassed | Mark::Callout | Mark::Module);
                    let unnamed = marks[n.index()] == Mark::Unnamed;
                    // An opened teaser's whole text is shown: Readability would drop it hidden.
                    let shown =
                        marks[n.index()] == Mark::Shown || (is_hidden_by_markup(doc, n) && expands_teaser(doc, n));
                    for (attr, value) in attrs {
                        if (unclassed && matches!(&**attr, "class" | "id" | "role"))
                            || (unnamed && &**attr == "id")
                            || (shown && matches!(&**attr, "style" | "hidden"))
                        {
                            continue;
                        }
                        out.push(' ');
                        out.push_str(attr);
                        out.push_str("=\"");
                        dom::escape(value, true, out);
                        out.push('"');
                    }
                    out.push('>');
                    if !dom::VOID_ELEMENTS.contains(&&**name) {
                        stack.push(Step::Close(n));
                        stack.extend(children);
                    }
                }
            },
        }
    }
}

/// The tag an element is written with.
fn written_tag(mark: Mark, tag: &str) -> &str {
    match mark {
        Mark::Layout | Mark::Callout => "div",
        Mark::Section | Mark::Module => "section",
        _ => tag,
    }
}

/// A `<br>` of a paragraph break typed as line breaks: two `<br>` or more in a row.
enum Break {
    First,
    Rest,
}

/// Where a `<p>` holds a run of `<br>`s, the run is a paragraph break, and it is written as one
/// (`</p><p>`): Readability turns such a `<p>` into a `<div>` around a new `<p>`, and then drops
/// that `<div>` whole when its first line is a link (a source credit before the lead) and its
/// link density passes Readability's limit.
fn paragraph_break(doc: &Document, br: NodeId) -> Option<Break> {
    let parent = doc.parent(br).filter(|&p| doc.is_tag(p, "p"))?;
    let siblings = doc.children(parent);
    let at = siblings.iter().position(|&s| s == br)?;
    let significant = |s: &&NodeId| doc.text_node(**s).is_none_or(|t| !t.trim().is_empty());
    let is_br = |s: Option<&NodeId>| s.is_some_and(|&s| doc.is_tag(s, "br"));
    if is_br(siblings[..at].iter().rev().find(significant)) {
        Some(Break::Rest)
    } else if is_br(siblings[at + 1..].iter().find(significant)) {
        Some(Break::First)
    } else {
        None
    }
}

/// The main content inside `scope` (the body, or a node the caller's hint points at).
pub fn extract(doc: &Document, scope: NodeId, landmarks: &Landmarks) -> Option<Content> {
    let marks = prune(doc, scope, landmarks.title_node, true);
    match readable(doc, scope, &marks, landmarks) {
        Some(content) if content.text.chars().count() >= SHORT_RESULT_CHARS => {
            Some(with_lead(content, doc, &marks, landmarks))
        }
        short => {
            let marks = prune(doc, scope, landmarks.title_node, false);
            let again = readable(doc, scope, &marks, landmarks);
            let longer = match (short, again) {
                (Some(s), Some(a)) if a.text.chars().count() <= s.text.chars().count() => s,
                (s, a) => a.or(s)?,
            };
            Some(with_lead(longer, doc, &marks, landmarks))
        }
    }
}

/// Readability's main content of the page without the pruned subtrees, cleaned again.
fn readable(doc: &Document, scope: NodeId, marks: &[Mark], landmarks: &Landmarks) -> Option<Content> {
    let mut page = String::with_capacity(64 * 1024);
    page.push_str("<html><head><title>");
    dom::escape(landmarks.title.unwrap_or_default(), false, &mut page);
    page.push_str("</title></head><body>");
    serialize_kept(doc, scope, marks, &mut page);
    page.push_str("</body></html>");

    // Readability's class scoring needs the classes; the sanitizer drops them at the end.
    // Links stay relative here and are resolved against the page's base by the sanitizer.
    // dom_smoothie's own candidate selection keeps the sections of a post that Readability.js
    // cuts off when a code block sits between them (the site-pair blogs), and scores the same
    // on the zyte news pages.
    let config = Config {
        keep_classes: true,
        disable_json_ld: true,
        candidate_select_mode: CandidateSelectMode::DomSmoothie,
        ..Config::default()
    };
    let mut readability = Readability::new(page, None, Some(config)).ok()?;
    let article = readability.parse().ok()?;
    finish(&article.content, doc, landmarks)
}

/// Readability scores blocks of some length: when the article is a few sentences (a short
/// blog post) in a block whose class names page furniture (Blogger's `widget Blog`), pruning
/// drops it and Readability falls back on a sidebar's label ("Archives"). A result shorter
/// than two sentences is read again with the class words left to Readability's own weights.
const SHORT_RESULT_CHARS: usize = 100;

/// Shortest standfirst: a sentence or two, not a label, a byline or a one-line call to sign up
/// or chat (one the page's description repeats may be shorter).
const LEAD_MIN_CHARS: usize = 120;
/// Shortest standfirst set right under the headline (the element after it, or after the
/// wrapper the headline is alone in): one full sentence, about ten words. Its place makes it
/// the dek; the sentence's closing stop tells it from a byline or a label.
const DEK_MIN_CHARS: usize = 50;
/// Longest share of a lead's text inside links: a standfirst is prose, a "read also" is not.
const LEAD_MAX_LINK_SHARE: f64 = 0.3;

/// The main text with its lead: the standfirst or summary between the headline and the body,
/// which Readability leaves out when it is not a paragraph beside the body's paragraphs (a
/// `<div class="synopsis">` before the body's `<div>`). A lead is prose between the headline
/// and the first paragraph of the main text, outside what pruning dropped, headings, links,
/// figures and captions: a block of sentences, or the page's own description (`og:description`
/// is often the standfirst).
fn with_lead(mut content: Content, doc: &Document, marks: &[Mark], landmarks: &Landmarks) -> Content {
    let Some(title) = landmarks.title_node else { return content };
    // The first paragraph of some length (a subheading may come first).
    let Some(first) = content.text.split("\n\n").find(|p| p.chars().count() >= 20) else { return content };
    let first_head: String = first.chars().take(40).collect();
    let description_key = landmarks.description.map(title_key).filter(|k| k.len() >= 40);
    let dek = dek_place(doc, title);
    // The dek is the first block of text there (a wrapper's later blocks are bylines, share
    // boxes and promotions).
    let dek_block = dek.and_then(|d| {
        let text = doc
            .descendants(d)
            .find(|&n| doc.is_content_text(n) && !doc.text_node(n).unwrap_or_default().trim().is_empty())?;
        doc.ancestors(text).take_while(|&a| doc.contains(d, a)).find(|&a| doc.tag(a).is_some_and(is_block))
    });
    // A dek set as a subheading: a heading is no byline or label, so it needs no closing stop
    // (El País, Corriere end theirs without one).
    let heading_dek = dek.is_some_and(|d| matches!(doc.tag(d), Some("h2" | "h3" | "h4" | "h5" | "h6")));
    let is_lead = |text: &str, link_chars: usize, under_headline: bool| {
        let chars = text.chars().count();
        let prose = if under_headline {
            chars >= DEK_MIN_CHARS
                && link_chars == 0
                && (text.trim_end().ends_with(SENTENCE_STOPS)
                    // A dated heading is a dateline ("Last Updated: Thursday, December 27, 2007").
                    || (heading_dek && super::date::read_visible_date(text, None).is_none()))
        } else {
            chars >= LEAD_MIN_CHARS
                && (link_chars as f64) < LEAD_MAX_LINK_SHARE * chars as f64
                && text.contains(SENTENCE_STOPS)
        };
        let described = description_key.as_ref().is_some_and(|d| {
            let key = title_key(text);
            key.len() >= 40 && (d.contains(&key) || key.contains(d.as_str()))
        });
        // A pull quote repeats a sentence of the text.
        let head: String = text.chars().take(40).collect();
        // A subheading is the dek only as a sentence: as a phrase that the description
        // repeats, it is the page's subtitle (its tagline), not text of the article.
        let subheading = under_headline && heading_dek;
        (prose || (described && !subheading)) && !content.text.contains(&head)
    };
    // One pass in document order from the headline's end to the block where the main text
    // starts (the first block whose text begins as the main text's first paragraph does),
    // skipping what pruning dropped, headings, figures, captions and controls.
    let mut leads: Vec<String> = Vec::new();
    let mut paragraph = String::new();
    let mut link_chars = 0usize;
    let mut block: Option<NodeId> = None;
    let mut caption = false;
    let mut block_checked = false;
    let mut started = false;
    let mut i = doc.node(title).end.0;
    while (i as usize) < doc.len() {
        let n = NodeId(i);
        if doc.is_element(n) {
            // A dek set as a subheading is read, unless pruning dropped it.
            let read_dek = Some(n) == dek && marks[n.index()] != Mark::Drop;
            i = if !read_dek && excluded_from_lead(doc, n, marks) { doc.node(n).end.0 } else { i + 1 };
            continue;
        }
        i += 1;
        if !doc.is_content_text(n) {
            continue;
        }
        let text = doc.text_node(n).unwrap_or_default();
        let nearest_block = doc.ancestors(n).find(|&a| doc.tag(a).is_some_and(is_block));
        if nearest_block != block {
            let lead = dom::collapse_whitespace(&paragraph);
            let under_headline = block.is_some() && block == dek_block;
            if is_lead(&lead, link_chars, under_headline) {
                leads.push(lead);
            }
            paragraph.clear();
            link_chars = 0;
            block = nearest_block;
            block_checked = false;
            // A caption shares its block with the picture or sits next to it, alone in its
            // wrapper; a header holding the headline, the lead and the byline may sit next to
            // the picture too. Right under the headline, a picture below is the lead picture
            // (or the byline's avatar), which a dek comes before; its caption follows it.
            let below = nearest_block.is_none() || nearest_block != dek_block;
            caption = nearest_block.is_some_and(|b| {
                holds_media(doc, b)
                    || beside_media(doc, b, below)
                    || doc.parent(b).is_some_and(|p| {
                        beside_media(doc, p, below)
                            && doc.children(p).iter().filter(|&&c| doc.is_element(c) && doc.has_text(c)).count() == 1
                    })
            });
        }
        // Only a block whose first words begin the main text is read whole.
        let own_head: String = dom::collapse_whitespace(text).trim().chars().take(10).collect();
        if !block_checked && !own_head.is_empty() {
            block_checked = true;
            if first_head.starts_with(&own_head)
                && block.is_some_and(|b| dom::collapse_whitespace(&doc.text(b)).starts_with(&first_head))
            {
                started = true;
                break;
            }
        }
        if caption {
            continue;
        }
        if doc.ancestors(n).any(|a| doc.is_tag(a, "a")) {
            link_chars += text.trim().chars().count();
        }
        paragraph.push_str(text);
    }
    if !started || leads.is_empty() {
        return content;
    }
    let mut html = String::new();
    for lead in &leads {
        html.push_str("<p>");
        dom::escape(lead, false, &mut html);
        html.push_str("</p>");
    }
    content.html = format!("{html}{}", content.html);
    content.text = format!("{}\n\n{}", leads.join("\n\n"), content.text);
    content
}

/// Sentence stops of the scripts the corpus holds.
const SENTENCE_STOPS: [char; 7] = ['.', '!', '?', '。', '！', '？', '…'];

/// The element right under the headline, where a dek goes: the headline's next element, or
/// the next element of the wrapper the headline is alone in (`<div class="title"><h1>`).
fn dek_place(doc: &Document, title: NodeId) -> Option<NodeId> {
    let next_element = |n: NodeId| {
        let parent = doc.parent(n)?;
        let siblings = doc.children(parent);
        let at = siblings.iter().position(|&c| c == n)?;
        siblings[at + 1..].iter().copied().find(|&c| doc.is_element(c))
    };
    let alone = |n: NodeId| {
        doc.parent(n)
            .is_some_and(|p| doc.children(p).iter().filter(|&&c| doc.is_element(c) && doc.has_text(c)).count() == 1)
    };
    let mut at = title;
    while next_element(at).is_none() && alone(at) {
        at = doc.parent(at)?;
    }
    next_element(at).filter(|&n| !doc.is_tag(n, "h1"))
}

/// Elements whose text is no lead: what pruning dropped, headings, media, captions, controls.
/// A subheading of a lead's length is the standfirst set as a heading (`<h2 class="subtitle">`
/// under the headline, as many news sites write it); [`with_lead`] still asks it to be prose.
fn excluded_from_lead(doc: &Document, n: NodeId, marks: &[Mark]) -> bool {
    let short_heading = || {
        matches!(doc.tag(n), Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
            && (doc.is_tag(n, "h1") || doc.text(n).chars().count() < LEAD_MIN_CHARS)
    };
    marks[n.index()] == Mark::Drop
        || short_heading()
        || matches!(doc.tag(n), Some("figure" | "figcaption" | "button" | "label" | "noscript" | "script" | "style"))
        || is_caption(doc, n, usize::MAX)
}

/// Clean Readability's result again (it keeps headline copies and bylines), sanitize it and
/// take its text.
fn finish(readable_html: &str, page: &Document, landmarks: &Landmarks) -> Option<Content> {
    let out = dom::parse_str(readable_html, &page.base).ok()?;
    let body = out.first_tag("body")?;
    let headline_key = landmarks.title.map(title_key).filter(|k| !k.is_empty());
    let author_key = landmarks.author.map(title_key).filter(|k| !k.is_empty());
    let stats = TextStats::new(&out);
    let total = stats.prose(&out, body).max(1) as f64;
    let mut marks = vec![Mark::Keep; out.len()];
    let mut i = body.0 + 1;
    while i < out.node(body).end.0 {
        let n = NodeId(i);
        i += 1;
        let Some(tag) = out.tag(n) else { continue };
        // Code is the text verbatim: its lines may read like a byline or a date line
        // ("Create File By Author: …", "Date: 21:12") and are still code.
        if tag == "pre" {
            i = out.node(n).end.0;
            continue;
        }
        let chars = stats.chars(&out, n) as usize;
        let is_title_copy =
            matches!(tag, "h1" | "h2" | "h3") && headline_key.as_deref().is_some_and(|k| title_key_of(&out, n) == k);
        let boilerplate = (stats.prose(&out, n) as f64) < BOILERPLATE_MAX_SHARE * total
            && (FURNITURE_TAGS.contains(&tag) || is_boilerplate_element(&out, n));
        // A paragraph, heading or list item that is nothing but a link points away from the
        // text ("Read more: …", a related story), unless it is an entry the text cites.
        let link_only = matches!(tag, "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "li")
            && chars > 0
            && stats.prose(&out, n) == 0
            && !is_cited_entry(&out, n, page, &stats, body)
            && !(is_heading(&out, n) && links_to_its_page(&out, n, page));
        let dateline = chars <= DATELINE_MAX_CHARS && is_dateline(&out, n);
        // Counted before the text is read: most elements are longer (a body's wrapper holds
        // the whole article).
        let meta_line = chars <= META_LINE_MAX_CHARS && is_meta_line(&out, n);
        let byline =
            author_key.as_deref().is_some_and(|a| chars <= a.len() + BYLINE_EXTRA_CHARS && is_byline(&out, n, a));
        if is_title_copy || boilerplate || link_only || dateline || meta_line || byline {
            marks[n.index()] = Mark::Drop;
            i = out.node(n).end.0;
        }
    }
    drop_trailing_headings(&out, body, &mut marks);
    let mut fragment = String::with_capacity(readable_html.len());
    serialize_kept(&out, body, &marks, &mut fragment);
    let html = sanitize_html(&fragment, &page.base);
    let text = block_text(&out, body, &marks);
    (!text.is_empty()).then_some(Content { html, text })
}

/// Whether every link in `n` leads to a place on the page itself: a section heading that links
/// its own anchor (`<h2 id="usage"><a href="#usage">`, documentation and wiki generators).
fn links_to_its_page(out: &Document, n: NodeId, page: &Document) -> bool {
    out.descendants(n).filter(|&a| out.is_tag(a, "a")).all(|a| {
        let href = out.attr(a, "href").unwrap_or_default().trim();
        href.starts_with('#')
            || out.resolve(href).is_some_and(|url| {
                url.fragment().is_some() && url.host() == page.url.host() && url.path() == page.url.path()
            })
    })
}

/// Least text outside links after a list (characters) for the list to be inside the text: a
/// sentence or two, not a footnote or a credit line.
const PROSE_AFTER_CITED_LIST: u32 = 100;

/// An entry of a list the text cites (a newsletter's links, a roundup, sources read): a list
/// item whose every link leads off the page's site and is named in words, in a list that the
/// text goes on after. Related stories, "read more" lines and series navigation link the
/// site's own pages, to keep readers on it; boxes of other sites' stories, shops and share
/// buttons close the text rather than sit inside it; a bare address is a source's URL, not
/// prose.
fn is_cited_entry(out: &Document, n: NodeId, page: &Document, stats: &TextStats, body: NodeId) -> bool {
    let Some(list) = out.parent(n).filter(|&l| out.is_tag(n, "li") && matches!(out.tag(l), Some("ul" | "ol"))) else {
        return false;
    };
    let mut links = out.descendants(n).filter(|&d| out.is_tag(d, "a")).peekable();
    let cites = links.peek().is_some()
        && links.all(|a| {
            let named_in_words = out.text(a).trim().contains(' ');
            let url = out.attr(a, "href").and_then(|href| out.resolve(href));
            named_in_words && url.is_some_and(|url| !page.is_on_site(&url))
        });
    cites && stats.prose_between(out.node(list).end.index(), out.node(body).end.index()) >= PROSE_AFTER_CITED_LIST
}

/// Longest heading taken for a box's title: a label of a few words ("You may also like",
/// "Related coverage from our money desk"); a longer heading is a sentence set large, which
/// some writers end their text with.
const BOX_TITLE_MAX_CHARS: usize = 60;

/// A heading opens a section: a short one with no text under it at the end of the text titled
/// a box that was left out ("Related articles" over its cards), never a part of the article.
/// A text of nothing but headings keeps them.
fn drop_trailing_headings(out: &Document, body: NodeId, marks: &mut [Mark]) {
    let mut trailing = Vec::new();
    for n in (body.0 + 1..out.node(body).end.0).rev().map(NodeId) {
        // Pictures are no section's content here: a box left out leaves its cards' thumbnails.
        if out.text_node(n).is_none_or(|t| t.trim().is_empty()) {
            continue;
        }
        let ancestors = || std::iter::once(n).chain(out.ancestors(n).take_while(|&a| a != body));
        if ancestors().any(|a| marks[a.index()] == Mark::Drop || trailing.contains(&a)) {
            continue;
        }
        match ancestors().find(|&a| is_heading(out, a)) {
            Some(h) if out.text(h).trim().chars().count() <= BOX_TITLE_MAX_CHARS => trailing.push(h),
            _ => {
                for h in trailing {
                    marks[h.index()] = Mark::Drop;
                }
                return;
            }
        }
    }
}

/// Fewest items of a list of teasers: one or two linked headings may be the article's own list.
const TEASER_LIST_MIN_ITEMS: usize = 3;

/// A list or box whose every item holds a heading that is nothing but a link to another page:
/// cards of other stories ("recent posts", "most popular"), a headline and a teaser each. The
/// items are the list's `<li>`s, or a box's children of its most common tag and class (cards
/// among a news column's spacers and ads), else of its most common tag (cards classed after
/// their posts, as WordPress writes them); the first may be the box's title written as one of
/// them (a "Recent Posts" `<div>` over `<div>` cards). An article's own lists hold points and
/// steps, and its sections' headings link, if at all, to themselves (`#intro`).
fn is_teaser_list(doc: &Document, list: NodeId, stats: &TextStats) -> bool {
    let children: Vec<NodeId> = doc.children(list).iter().copied().filter(|&c| doc.is_element(c)).collect();
    let links_away = |heading: NodeId| {
        doc.descendants(heading)
            .any(|a| doc.is_tag(a, "a") && doc.attr(a, "href").is_some_and(|h| !h.trim_start().starts_with('#')))
    };
    let is_teaser = |item: NodeId| {
        is_picture_card(doc, item, stats)
            || doc.descendants(item).any(|d| {
                matches!(doc.tag(d), Some("h2" | "h3" | "h4" | "h5" | "h6"))
                    && stats.chars(doc, d) > 0
                    && stats.prose(doc, d) == 0
                    && links_away(d)
            })
    };
    let is_title = |item: NodeId| {
        stats.link_chars(doc, item) < stats.chars(doc, item)
            && doc.text(item).trim().chars().count() <= BOX_TITLE_MAX_CHARS
            && !holds_media(doc, item)
    };
    let teasers_of_most_common = |with_class: bool| {
        let kind = |c: NodeId| {
            let class = if with_class { doc.attr(c, "class").unwrap_or("").trim() } else { "" };
            (doc.tag(c).unwrap_or(""), class)
        };
        let mut kinds: Vec<(&str, &str)> = children.iter().map(|&c| kind(c)).collect();
        kinds.sort_unstable();
        let Some(item_kind) = kinds.chunk_by(|a, b| a == b).max_by_key(|run| run.len()).map(|run| run[0]) else {
            return false;
        };
        let mut items: Vec<NodeId> = children.iter().copied().filter(|&c| kind(c) == item_kind).collect();
        if items.first().is_some_and(|&first| !is_teaser(first) && is_title(first)) {
            items.remove(0);
        }
        items.len() >= TEASER_LIST_MIN_ITEMS && items.into_iter().all(is_teaser)
    };
    teasers_of_most_common(true) || teasers_of_most_common(false)
}

/// Longest label of a post navigation's link, outside it: "Previous post:", "« Older", "上一篇："
/// (characters, not counting spaces).
const POST_NAVIGATION_LABEL_MAX_CHARS: u32 = 16;
/// Longest title of a post navigation's link (characters, not counting spaces): a long
/// headline. A link holding more is a text inside an unclosed `<a>`.
const POST_NAVIGATION_TITLE_MAX_CHARS: u32 = 150;

/// The links to the previous and the next post around the text (Typecho's `post-near`, most
/// blog themes, mail archives' "Previous message:"): a list or box of two items, each one link to another page of the site
/// and at most a short label. Readability's link density leaves them in when the text is short
/// (it then retries without its cleaning) or the titles are (CJK titles are a few characters
/// against their label's three or four).
fn is_post_navigation(doc: &Document, list: NodeId, stats: &TextStats) -> bool {
    if !matches!(doc.tag(list), Some("ul" | "ol" | "div")) {
        return false;
    }
    let items: Vec<NodeId> = doc.children(list).iter().copied().filter(|&c| doc.is_element(c)).collect();
    // No words between the items: a paragraph with a link in it is a sentence.
    if items.iter().map(|&i| stats.prose(doc, i)).sum::<u32>() != stats.prose(doc, list) {
        return false;
    }
    let links_another_post = |item: NodeId| {
        let mut links = std::iter::once(item).chain(doc.descendants(item)).filter(|&d| doc.is_tag(d, "a"));
        let url = links.next().and_then(|a| doc.attr(a, "href")).and_then(|href| doc.resolve(href));
        links.next().is_none()
            && url.is_some_and(|url| doc.is_on_site(&url) && url.path() != doc.url.path())
            && (1..=POST_NAVIGATION_TITLE_MAX_CHARS).contains(&stats.link_chars(doc, item))
            && stats.prose(doc, item) <= POST_NAVIGATION_LABEL_MAX_CHARS
    };
    // Two: a box of one link is as often a teaser card's wrapper.
    items.len() == 2 && items.into_iter().all(links_another_post)
}

/// A card whose title need not be a heading: a picture and a title that both link to the same
/// page (the picture's link holds no text, the title's nothing else), the layout of "most
/// popular" boxes and card grids whatever their markup. An article's own pictures link to
/// themselves (a larger copy), not to a page its text also links to from a title.
fn is_picture_card(doc: &Document, item: NodeId, stats: &TextStats) -> bool {
    let links: Vec<(NodeId, &str)> = doc
        .descendants(item)
        .filter(|&a| doc.is_tag(a, "a"))
        .filter_map(|a| doc.attr(a, "href").map(|h| (a, h.trim())))
        .filter(|(_, h)| !h.is_empty() && !h.starts_with('#'))
        .collect();
    links.iter().any(|&(picture, href)| {
        stats.chars(doc, picture) == 0
            && doc.descendants(picture).any(|d| doc.is_tag(d, "img"))
            && links.iter().any(|&(title, other)| {
                title != picture && other == href && stats.chars(doc, title) > 0 && {
                    // The title's block says nothing besides its link.
                    let block = doc.parent(title).unwrap_or(title);
                    stats.prose(doc, block) == 0
                }
            })
    })
}

/// A list whose every item is links to other pages and a date, nothing else ("Last 5 posts by
/// Jane Doe": `<a>Story</a> - March 21st, 2017`; a news site's "Top stories", `<a>Story</a>
/// <time>1 hour ago</time>`): a blog plugin's or widget's list of other posts. An article's own lists hold points and steps; a dated list of sources has more
/// than a link and a date to each item.
fn is_dated_link_list(doc: &Document, list: NodeId) -> bool {
    let items: Vec<NodeId> = doc.children(list).iter().copied().filter(|&c| doc.is_tag(c, "li")).collect();
    items.len() >= TEASER_LIST_MIN_ITEMS
        && items.iter().all(|&item| {
            let links_away = doc
                .descendants(item)
                .any(|a| doc.is_tag(a, "a") && doc.attr(a, "href").is_some_and(|h| !h.trim_start().starts_with('#')));
            let outside_links: String = doc
                .descendants(item)
                .filter(|&n| !doc.ancestors(n).take_while(|&a| a != item).any(|a| doc.is_tag(a, "a")))
                .filter_map(|n| doc.text_node(n))
                .collect();
            let rest = outside_links.trim_matches(|c: char| c.is_whitespace() || "-–—|·,()".contains(c));
            links_away && rest.chars().count() <= DATELINE_MAX_CHARS && super::date::is_date_or_age(rest)
        })
}

/// The heading of a list of dated links to other posts (its previous sibling, "Last 5 posts
/// by Jane Doe"), which goes with the list.
fn titles_dated_link_list(doc: &Document, heading: NodeId) -> bool {
    if !matches!(doc.tag(heading), Some("h2" | "h3" | "h4" | "h5" | "h6")) {
        return false;
    }
    let Some(parent) = doc.parent(heading) else { return false };
    let siblings = doc.children(parent);
    let next = siblings.iter().skip_while(|&&c| c != heading).skip(1).find(|&&c| doc.is_element(c));
    next.is_some_and(|&list| matches!(doc.tag(list), Some("ul" | "ol")) && is_dated_link_list(doc, list))
}

/// Longest block that is taken for a dateline.
const DATELINE_MAX_CHARS: usize = 60;

/// A block without blocks in it that is only a date (`Monday, 22 January 2018 at 0:13`).
fn is_dateline(doc: &Document, n: NodeId) -> bool {
    if !matches!(doc.tag(n), Some("p" | "div" | "span" | "time" | "h4" | "h5" | "h6")) {
        return false;
    }
    if holds_block(doc, n) {
        return false;
    }
    let text = doc.text(n);
    text.chars().count() <= DATELINE_MAX_CHARS && super::date::read_visible_date(&text, None).is_some()
}

/// Whether an element holds a block (a line break counts as one): a date or metadata line
/// is one line.
fn holds_block(doc: &Document, n: NodeId) -> bool {
    doc.descendants(n).any(|d| doc.tag(d).is_some_and(is_block))
}

/// Longest line of an article's metadata (authors, reviewers, date, reading time).
const META_LINE_MAX_CHARS: usize = 160;
/// What separates the parts of a metadata line: the glyphs bylines put between author, date
/// and reading time on every kind of site ("By Ann Lee · June 7, 2020 · 4 min read").
const META_SEPARATORS: [char; 5] = ['—', '–', '|', '·', '•'];

/// A block without blocks in it that is a line of the article's metadata: short parts between
/// separators, one of them a date, and no sentence ("Medically reviewed by Dr. Sara Lind —
/// Written by Mia Chen — Updated on April 18, 2025"), whatever its class, or none. A sentence
/// of the text with a dash and a date in it ends with its stop.
fn is_meta_line(doc: &Document, n: NodeId) -> bool {
    // Not a heading: "Day 3 · April 18, 2025" heads a part of a diary.
    if !matches!(doc.tag(n), Some("p" | "div" | "span")) {
        return false;
    }
    let text = doc.text(n);
    let text = text.trim();
    if text.chars().count() > META_LINE_MAX_CHARS || text.ends_with(SENTENCE_STOPS) || holds_block(doc, n) {
        return false;
    }
    let parts: Vec<&str> = text.split(META_SEPARATORS).map(str::trim).filter(|p| !p.is_empty()).collect();
    parts.len() >= 2
        && parts.iter().all(|p| p.chars().count() <= DATELINE_MAX_CHARS)
        && parts.iter().any(|p| super::date::read_visible_date(p, None).is_some())
}

/// A block that only names the author: `Jane Doe`, `By Jane Doe -`, `Jane Doe, Reuters`.
fn is_byline(doc: &Document, n: NodeId, author_key: &str) -> bool {
    if !matches!(doc.tag(n), Some("p" | "div" | "span" | "h4" | "h5" | "h6" | "address" | "li")) {
        return false;
    }
    let text = title_key_of(doc, n);
    text.contains(author_key) && text.len() <= author_key.len() + BYLINE_EXTRA_CHARS
}

/// What a byline may hold besides the author's name (`By`, a dash, the agency).
const BYLINE_EXTRA_CHARS: usize = 24;

fn title_key_of(doc: &Document, n: NodeId) -> String {
    title_key(&doc.text(n))
}

/// Elements whose text is not part of the article's prose: media and their captions.
const NOT_PROSE: &[&str] =
    &["figcaption", "picture", "img", "video", "audio", "script", "style", "noscript", "svg", "iframe"];

/// A `<figure>` that shows media (its text is a caption), not one that holds code, a table or
/// a quotation (Hexo and others put code blocks in figures).
fn is_media_figure(doc: &Document, n: NodeId) -> bool {
    doc.is_tag(n, "figure")
        && doc
            .descendants(n)
            .any(|d| matches!(doc.tag(d), Some("img" | "picture" | "video" | "audio" | "iframe" | "svg")))
        && !doc.descendants(n).any(|d| matches!(doc.tag(d), Some("pre" | "code" | "table" | "blockquote")))
}

/// Class words of captions and photo credits: shown in the HTML, not prose. Also the word for
/// a caption in French and German (`legende`), Portuguese (`legenda`), Spanish (`leyenda`),
/// German (`bildunterschrift`, `bildtext`), Italian (`didascalia`) and Polish (`podpis`).
#[rustfmt::skip]
pub(super) const CAPTION_WORDS: &[&str] = &[
    "caption", "captions", "credit", "credits", "legende", "legenda", "leyenda", "bildunterschrift", "bildtext",
    "didascalia", "podpis",
];
/// Class words of galleries, which hold their pictures: a `gallery-intro` without one is the
/// text that introduces the pictures, the article of a photo story.
const GALLERY_WORDS: &[&str] = &["gallery", "slideshow", "carousel", "lightbox"];

/// Class words of an image's box (`div.image` holding the image and its caption).
const IMAGE_BOX_WORDS: &[&str] = &["image", "img", "photo", "picture", "media", "thumbnail"];
/// Longest text of an image box or caption per picture: a caption, not an article that happens
/// to have a picture.
const IMAGE_BOX_MAX_CHARS: usize = 400;

/// A caption, credit, gallery or image box by its class. An image box holds a picture (or
/// follows one) and at most [`IMAGE_BOX_MAX_CHARS`] of text; a caption-classed block may be longer (a carousel's
/// captions), but not most of the main text: a `photo-gallery` section or a slideshow that
/// holds the article is the article (`total`: the main text's characters).
fn is_caption(doc: &Document, n: NodeId, total: usize) -> bool {
    let words = class_words(doc, n);
    let named = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let (named_caption, named_gallery, named_image_box) =
        (named(CAPTION_WORDS), named(GALLERY_WORDS), named(IMAGE_BOX_WORDS));
    if !named_caption && !named_gallery && !named_image_box {
        return false;
    }
    let holds_picture = || doc.descendants(n).any(|d| matches!(doc.tag(d), Some("img" | "picture" | "video")));
    let named_caption = named_caption || (named_gallery && holds_picture());
    // The text is measured only for the few elements so named: this looks at every element.
    let chars = doc.text(n).chars().count();
    let caption =
        named_caption && (chars <= IMAGE_BOX_MAX_CHARS || (chars as f64) < BOILERPLATE_MAX_SHARE * total as f64);
    // A line named for the picture right after it is its caption (`<span class="img_descr">`
    // after the `<img>`), `<figure>` or not.
    let image_box = named_image_box && chars <= IMAGE_BOX_MAX_CHARS && (holds_picture() || beside_media(doc, n, false));
    caption || image_box
}

/// The text of a subtree, one paragraph per block element, blank lines between paragraphs.
fn block_text(doc: &Document, root: NodeId, marks: &[Mark]) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut flush = |current: &mut String| {
        let paragraph = dom::collapse_whitespace(current);
        if !paragraph.is_empty() {
            paragraphs.push(paragraph);
        }
        current.clear();
    };
    let total = doc.text(root).chars().count();
    let end = doc.node(root).end.0;
    let mut open_blocks: Vec<u32> = Vec::new();
    let mut i = root.0 + 1;
    while i < end {
        while open_blocks.last().is_some_and(|&e| e <= i) {
            open_blocks.pop();
            flush(&mut current);
        }
        let id = NodeId(i);
        match &doc.node(id).data {
            NodeData::Text(text) => current.push_str(text),
            NodeData::Element { name, .. } => {
                if marks[id.index()] == Mark::Drop
                    || NOT_PROSE.contains(&&**name)
                    || is_media_figure(doc, id)
                    || is_caption(doc, id, total)
                {
                    i = doc.node(id).end.0;
                    continue;
                }
                if is_block(name) {
                    flush(&mut current);
                    open_blocks.push(doc.node(id).end.0);
                }
            }
            NodeData::Document => {}
        }
        i += 1;
    }
    flush(&mut current);
    paragraphs.join("\n\n")
}
