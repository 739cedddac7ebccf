//! What an article page says about itself: meta tags (Open Graph, Dublin Core, Parse.ly,
//! Sailthru, microdata), JSON-LD, and the headline element that matches them.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;
use url::Url;

use crate::dom::{Document, NodeId, collapse_whitespace};

/// Every `<meta>` value of a page by key (its `property`, `name`, `itemprop` or `http-equiv`,
/// lower-case), in page order; microdata dates and authors on other elements too.
#[derive(Debug, Clone, Default)]
pub struct MetaTags {
    entries: Vec<(String, String)>,
}

impl MetaTags {
    pub fn collect(doc: &Document) -> MetaTags {
        let mut entries = Vec::new();
        for n in doc.ids() {
            let Some(tag) = doc.tag(n) else { continue };
            if tag == "meta" {
                let Some(content) = doc.attr(n, "content").map(str::trim).filter(|c| !c.is_empty()) else { continue };
                for key_attr in ["property", "name", "itemprop", "http-equiv"] {
                    if let Some(key) = doc.attr(n, key_attr) {
                        if key_attr == "itemprop" && is_comment_zone(doc, n) {
                            continue;
                        }
                        entries.push((key.trim().to_ascii_lowercase(), content.to_string()));
                    }
                }
                continue;
            }
            // Microdata on visible elements: `<span itemprop="datePublished" content=...>`.
            let Some(prop) = doc.attr(n, "itemprop") else { continue };
            let prop = prop.trim().to_ascii_lowercase();
            if !matches!(prop.as_str(), "datepublished" | "datemodified" | "datecreated" | "author" | "headline") {
                continue;
            }
            if is_comment_zone(doc, n) {
                continue;
            }
            let value = match (doc.attr(n, "datetime"), doc.attr(n, "content")) {
                (Some(v), _) | (None, Some(v)) => v.trim().to_string(),
                // A Person's name, not the whole card with its biography.
                _ => doc
                    .descendants(n)
                    .find(|&d| doc.attr(d, "itemprop") == Some("name"))
                    .map_or_else(|| doc.text(n), |d| doc.text(d)),
            };
            if !value.is_empty() {
                // Visible microdata authors rank after the meta tags (`microdata:author`).
                let key = if prop == "author" { "microdata:author".to_string() } else { prop };
                entries.push((key, value));
            }
        }
        let mut tags = MetaTags { entries };
        tags.expand_parsely_page();
        tags
    }

    /// Values of one key, in page order.
    pub fn values<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries.iter().filter(move |(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The first value of the first key that has one.
    pub fn first<'a>(&'a self, keys: &[&'a str]) -> Option<&'a str> {
        keys.iter().find_map(|key| self.values(key).next())
    }

    /// `<meta name="parsely-page" content='{"pub_date": ..., "author": ...}'>` holds the
    /// Parse.ly fields as JSON; they become `parsely-*` keys.
    fn expand_parsely_page(&mut self) {
        let Some(json) = self.values("parsely-page").next().and_then(|v| serde_json::from_str::<Value>(v).ok()) else {
            return;
        };
        for (field, key) in [("pub_date", "parsely-pub-date"), ("author", "parsely-author"), ("title", "parsely-title")]
        {
            if let Some(value) = json.get(field).and_then(Value::as_str) {
                self.entries.push((key.to_string(), value.to_string()));
            }
        }
    }
}

/// One JSON-LD node that describes the page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LdNode {
    /// 2 for articles and posts, 1 for web pages and other creative works.
    pub rank: u8,
    pub headline: Option<String>,
    pub authors: Vec<String>,
    pub date_published: Option<String>,
    pub date_modified: Option<String>,
    pub image: Option<String>,
    pub language: Option<String>,
}

/// schema.org types of an article or post.
const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "AnalysisNewsArticle",
    "AskPublicNewsArticle",
    "BackgroundNewsArticle",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "ReviewNewsArticle",
    "BlogPosting",
    "LiveBlogPosting",
    "SocialMediaPosting",
    "DiscussionForumPosting",
    "TechArticle",
    "ScholarlyArticle",
    "SatiricalArticle",
    "AdvertiserContentArticle",
    "Report",
];
/// Types that describe the page less precisely.
const PAGE_TYPES: &[&str] = &["WebPage", "ItemPage", "CreativeWork", "MediaObject", "VideoObject"];

/// Keys under which a JSON-LD node nests the nodes that describe the page (not comments,
/// reviews, or the publisher).
const NESTING_KEYS: &[&str] = &["@graph", "mainEntity", "mainEntityOfPage", "hasPart"];

/// The JSON-LD nodes of a page that describe it, articles first.
pub fn json_ld(doc: &Document) -> Vec<LdNode> {
    let mut nodes = Vec::new();
    for n in doc.ids() {
        if !doc.is_tag(n, "script")
            || !doc.attr(n, "type").is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
        {
            continue;
        }
        let raw = doc.text(n);
        let raw = raw.trim().trim_start_matches("//<![CDATA[").trim_start_matches("<![CDATA[");
        let raw = raw.trim_end_matches("//]]>").trim_end_matches("]]>").trim().trim_end_matches(';');
        // Broken JSON-LD is common: two objects one after the other in one script are read
        // both; what follows a syntax error (a trailing comma) is skipped.
        for value in serde_json::Deserializer::from_str(raw).into_iter::<Value>().map_while(Result::ok) {
            walk_ld(&value, &mut nodes, 0);
        }
    }
    nodes.sort_by_key(|n| std::cmp::Reverse(n.rank));
    nodes
}

fn walk_ld(value: &Value, out: &mut Vec<LdNode>, depth: usize) {
    if depth > 8 {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|v| walk_ld(v, out, depth + 1)),
        Value::Object(object) => {
            let types: Vec<&str> = match object.get("@type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let type_name = |t: &&str| t.rsplit(['/', ':']).next().unwrap_or(t).to_string();
            let rank = if types.iter().map(type_name).any(|t| ARTICLE_TYPES.contains(&t.as_str())) {
                2
            } else if types.iter().map(type_name).any(|t| PAGE_TYPES.contains(&t.as_str())) {
                1
            } else {
                0
            };
            if rank > 0 {
                let text = |key: &str| object.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
                out.push(LdNode {
                    rank,
                    headline: text("headline").or_else(|| text("name")).map(collapse_whitespace),
                    authors: object.get("author").or_else(|| object.get("creator")).map(ld_names).unwrap_or_default(),
                    date_published: text("datePublished")
                        .or_else(|| text("dateCreated"))
                        .or_else(|| text("uploadDate"))
                        .map(str::to_string),
                    date_modified: text("dateModified").map(str::to_string),
                    image: object.get("image").or_else(|| object.get("thumbnailUrl")).and_then(ld_url),
                    language: object.get("inLanguage").and_then(|l| match l {
                        Value::String(s) => Some(s.clone()),
                        Value::Object(o) => {
                            o.get("alternateName").or_else(|| o.get("name")).and_then(Value::as_str).map(str::to_string)
                        }
                        _ => None,
                    }),
                });
            }
            for key in NESTING_KEYS {
                if let Some(nested) = object.get(*key) {
                    walk_ld(nested, out, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// Names of `"author"`: a string, a Person or Organization, or a list of them.
fn ld_names(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.trim().to_string()],
        Value::Object(o) => o.get("name").map(ld_names).unwrap_or_default(),
        Value::Array(items) => items.iter().flat_map(ld_names).collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|name| is_person_name(name))
    .collect()
}

/// `"image"`: a URL, an ImageObject, or a list of them (the first).
fn ld_url(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Object(o) => o.get("url").or_else(|| o.get("contentUrl")).and_then(ld_url),
        Value::Array(items) => items.iter().find_map(ld_url),
        _ => None,
    }
}

/// An author value that names someone: not empty, not a URL, not a paragraph.
fn is_person_name(name: &str) -> bool {
    let name = name.trim();
    !name.is_empty() && name.chars().count() <= 100 && !name.contains("://") && !name.starts_with("www.")
}

/// What the page says about itself.
#[derive(Debug, Clone, Default)]
pub struct Metadata {
    pub tags: MetaTags,
    pub json_ld: Vec<LdNode>,
    /// The headline: the visible one when an `<h1>` matches what the metadata says.
    pub title: Option<String>,
    /// The headline element, when one was found.
    pub title_node: Option<NodeId>,
    pub author: Option<String>,
    /// BCP 47 language tag, lower-case.
    pub lang: Option<String>,
    pub lead_image: Option<Url>,
    /// The page's own summary (`og:description`, `description`).
    pub description: Option<String>,
    /// Whether every title the page gives itself (`<title>`, `og:title`, JSON-LD `headline`) is
    /// the site's name (`og:site_name`): the site's home or a section of it, never an article,
    /// which names its headline somewhere.
    pub title_is_site_name: bool,
}

const TITLE_META: &[&str] =
    &["og:title", "twitter:title", "dc.title", "dcterms.title", "parsely-title", "sailthru.title", "headline"];
const SITE_NAME_META: &[&str] = &["og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site"];
const AUTHOR_META: &[&str] = &[
    "author",
    "article:author",
    "parsely-author",
    "sailthru.author",
    "dc.creator",
    "dcterms.creator",
    "byl",
    "citation_author",
    "microdata:author",
];
const IMAGE_META: &[&str] =
    &["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src", "image"];
const DESCRIPTION_META: &[&str] = &["og:description", "description", "twitter:description", "dc.description"];

/// Collect the page's metadata. `hint_title` (a feed item's title) helps find the headline.
pub fn collect(doc: &Document, hint_title: Option<&str>) -> Metadata {
    let tags = MetaTags::collect(doc);
    let json_ld = json_ld(doc);
    let article_ld = json_ld.iter().filter(|n| n.rank == 2);

    // What the page says its headline is, most trusted first; then the parts of `<title>`
    // (`Headline | Site`) but the site's name, longest first.
    let mut title_candidates: Vec<String> = Vec::new();
    title_candidates.extend(hint_title.map(collapse_whitespace));
    title_candidates.extend(article_ld.clone().filter_map(|n| n.headline.clone()));
    title_candidates.extend(TITLE_META.iter().filter_map(|k| tags.values(k).next()).map(collapse_whitespace));
    let page_title = collapse_whitespace(&doc.title());
    title_candidates.push(page_title.clone());
    title_candidates.retain(|t| !t.is_empty());
    let site_names: Vec<String> = SITE_NAME_META
        .iter()
        .flat_map(|k| tags.values(k))
        .map(title_key)
        .chain(home_link_names(doc))
        .filter(|k| !k.is_empty())
        .collect();
    let mut title_parts = title_parts(&page_title);
    title_parts.retain(|p| !site_names.contains(&title_key(p)) && !title_candidates.contains(p));
    // The headline's words are in the article's URL (`/2012/10/gwt-25-final-is-here.html`), the
    // site's name seldom is; then the longer part.
    let url_words: Vec<String> = title_key(doc.url.path()).split(' ').map(str::to_string).collect();
    let in_url = |part: &str| title_key(part).split(' ').filter(|w| url_words.iter().any(|u| u == w)).count();
    title_parts.sort_by_key(|p| (std::cmp::Reverse(in_url(p)), std::cmp::Reverse(p.chars().count())));
    let title_node = headline_node(doc, &title_candidates, false).or_else(|| headline_node(doc, &title_parts, true));
    let title = title_node
        .map(|n| doc.text(n))
        .or_else(|| title_candidates.iter().find(|c| **c != page_title).cloned())
        .or_else(|| title_parts.first().cloned())
        .or_else(|| title_candidates.first().cloned());

    let author = article_ld
        .clone()
        .map(|n| n.authors.join(", "))
        .find(|a| !a.is_empty())
        .or_else(|| AUTHOR_META.iter().flat_map(|k| tags.values(k)).find(|a| is_person_name(a)).map(str::to_string))
        .or_else(|| byline_author(doc))
        .map(|a| strip_by(&collapse_whitespace(&a)).to_string())
        .filter(|a| !a.is_empty());

    let lang = doc
        .lang()
        .or_else(|| tags.first(&["content-language", "language", "dc.language", "og:locale"]).map(str::to_string))
        .or_else(|| json_ld.iter().find_map(|n| n.language.clone()))
        .map(|l| l.trim().replace('_', "-").to_ascii_lowercase())
        .filter(|l| !l.is_empty());

    let lead_image = IMAGE_META
        .iter()
        .flat_map(|k| tags.values(k))
        .map(str::to_string)
        .chain(json_ld.iter().filter_map(|n| n.image.clone()))
        .chain(
            doc.ids()
                .filter(|&n| {
                    doc.is_tag(n, "link") && doc.attr(n, "rel").is_some_and(|r| r.eq_ignore_ascii_case("image_src"))
                })
                .filter_map(|n| doc.attr(n, "href").map(str::to_string)),
        )
        .find_map(|href| doc.resolve(&href).filter(|u| u.scheme() != "file" || doc.url.scheme() == "file"));

    let description = tags.first(DESCRIPTION_META).map(collapse_whitespace).filter(|d| !d.is_empty());
    let title_is_site_name =
        !title_candidates.is_empty() && title_candidates.iter().all(|t| site_names.contains(&title_key(t)));
    Metadata { tags, json_ld, title, title_node, author, lang, lead_image, description, title_is_site_name }
}

/// `"Headline | Site"` → `["Headline", "Site"]`.
fn title_parts(title: &str) -> Vec<String> {
    let mut parts = Vec::new();
    // `Blog name: Headline` (Blogger) as well as `Headline | Site`.
    for separator in [" | ", " - ", " – ", " — ", " :: ", " » ", " · ", " : ", ": "] {
        if title.contains(separator) {
            parts.extend(title.split(separator).map(str::trim).filter(|p| !p.is_empty()).map(str::to_string));
        }
    }
    parts
}

/// The texts of the page's links to its site's home page (`/` of its own host): the logo or the
/// name in the banner, which every theme writes, names the site where no meta tag does.
fn home_link_names(doc: &Document) -> impl Iterator<Item = String> + '_ {
    doc.ids()
        .filter(|&n| doc.is_tag(n, "a"))
        .filter_map(|a| Some((a, doc.resolve(doc.attr(a, "href")?)?)))
        .filter(|(_, url)| url.host() == doc.url.host() && url.path() == "/" && url.query().is_none())
        .map(|(a, _)| title_key(&doc.text(a)))
}

/// Lower-case words of a title, for comparing titles written slightly differently.
pub fn title_key(text: &str) -> String {
    let words: Vec<String> =
        text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    words.join(" ")
}

/// The headline element: for the most trusted candidate that any heading matches, the first
/// `<h1>` (else `<h2>`, else `<h3>`) outside navigation that matches it, with `exact_first`
/// exactly before leniently; the only `<h1>` when nothing is known.
fn headline_node(doc: &Document, candidates: &[String], exact_first: bool) -> Option<NodeId> {
    let body = doc.first_tag("body")?;
    let headings: Vec<(NodeId, String, String)> = doc
        .descendants(body)
        .filter(|&n| matches!(doc.tag(n), Some("h1" | "h2" | "h3")))
        .filter(|&n| !doc.ancestors(n).any(|a| matches!(doc.tag(a), Some("nav" | "a"))))
        .filter(|&n| !links_home(doc, n))
        .map(|n| (n, title_key(&doc.text(n)), spaced_key(doc, n)))
        .filter(|(_, text, _)| !text.is_empty())
        .collect();
    // A candidate made of parts (`Blog: Headline`) is matched whole only: which part a heading
    // holds is for its parts to say, the headline's before the site's name.
    let keys: Vec<(String, bool)> =
        candidates.iter().map(|c| (title_key(c), title_parts(c).is_empty())).filter(|(k, _)| !k.is_empty()).collect();
    // Equal, or one holds the other and is not much longer (a headline with a kicker, a
    // `<title>` with the site's name; not the site's name alone).
    let matches = |text: &str, key: &str, lenient: bool| {
        let (short, long) = if text.len() <= key.len() { (text, key) } else { (key, text) };
        short == long || (lenient && short.len() >= 10 && 2 * short.len() >= long.len() && long.contains(short))
    };
    let find = |key: &str, lenient: bool, level: &str| {
        headings
            .iter()
            .find(|(n, text, spaced)| {
                doc.is_tag(*n, level) && (matches(text, key, lenient) || matches(spaced, key, lenient))
            })
            .map(|(n, _, _)| *n)
    };
    if exact_first {
        // Parts of `<title>` are guesses ("Headline | Section | Site"): a part that a heading
        // holds exactly beats one that a heading holds among other words (a section's name in a
        // "Newsletter Section" box), in the parts' order.
        if let Some(n) = keys.iter().find_map(|(key, _)| ["h1", "h2", "h3"].iter().find_map(|l| find(key, false, l))) {
            return Some(n);
        }
    }
    for (key, lenient) in &keys {
        if let Some(n) = ["h1", "h2", "h3"].iter().find_map(|level| find(key, *lenient, level)) {
            return Some(n);
        }
    }
    let h1s: Vec<NodeId> = headings.iter().map(|(n, _, _)| *n).filter(|&n| doc.is_tag(n, "h1")).collect();
    (keys.is_empty() && h1s.len() == 1).then(|| h1s[0])
}

/// A heading's [`title_key`] with its text nodes words apart: parts in elements of their own
/// are, even when no space is written between them (Spiegel's kicker and headline,
/// `<span>Wölfe</span><span>Bundesamt…</span>`, set on lines of their own by the style sheet).
fn spaced_key(doc: &Document, heading: NodeId) -> String {
    let parts: Vec<&str> = doc.descendants(heading).filter_map(|t| doc.text_node(t)).collect();
    title_key(&parts.join(" "))
}

/// A heading that links to the site's home page names the site (`<h1><a href="/">Blog</a></h1>`).
fn links_home(doc: &Document, heading: NodeId) -> bool {
    doc.descendants(heading).filter(|&d| doc.is_tag(d, "a")).filter_map(|a| doc.attr(a, "href")).any(|href| {
        doc.resolve(href).is_some_and(|u| u.host() == doc.url.host() && u.path() == "/" && u.query().is_none())
    })
}

/// `By Jane Doe` → `Jane Doe`.
fn strip_by(text: &str) -> &str {
    let text = text.trim();
    const PREFIXES: &[&str] = &[
        "written by ",
        "posted by ",
        "published by ",
        "story by ",
        "by: ",
        "by ",
        "von ",
        "por ",
        "par ",
        "di ",
        "door ",
        "av ",
    ];
    PREFIXES
        .iter()
        .find(|p| text.get(..p.len()).is_some_and(|head| head.eq_ignore_ascii_case(p)))
        .map_or(text, |p| text[p.len()..].trim())
}

/// A visible byline: `rel=author` links, then `itemprop=author`-less `class="byline|author"`.
fn byline_author(doc: &Document) -> Option<String> {
    let body = doc.first_tag("body")?;
    let rel_author = doc.descendants(body).find(|&n| {
        doc.is_tag(n, "a") && doc.attr(n, "rel").is_some_and(|r| r.split_ascii_whitespace().any(|r| r == "author"))
    });
    if let Some(n) = rel_author.filter(|&n| !is_comment_zone(doc, n)) {
        let name = doc.text(n);
        if is_person_name(&name) {
            return Some(name);
        }
    }
    doc.descendants(body)
        .filter(|&n| doc.is_element(n) && names_may_hold(doc, n, &BYLINE_NAMES))
        .filter(|&n| class_words(doc, n).iter().any(|w| matches!(w.as_str(), "byline" | "author")))
        .filter(|&n| !is_comment_zone(doc, n))
        .map(|n| doc.text(n))
        .find(|t| is_person_name(t) && t.split_whitespace().count() <= 8)
}

/// The class words of a byline, as [`names_may_hold`] looks for them.
static BYLINE_NAMES: LazyLock<Regex> = LazyLock::new(|| Regex::new("(?i)byline|author").expect("valid regex"));

/// Whether an element's `class` or `id`, as written, matches `names` (a case-insensitive regex
/// of class words): a look that spares splitting the names of the many elements named after
/// something else. A class word is a run of the letters of a name, so a name without the run
/// has no such word.
pub fn names_may_hold(doc: &Document, node: NodeId, names: &Regex) -> bool {
    ["class", "id"].iter().any(|a| doc.attr(node, a).is_some_and(|v| names.is_match(v)))
}

/// The words of an element's `class`, `id` and component name (`data-component`, which
/// component-built news sites name their blocks with instead of classes: `byline-block`,
/// `related-content`), lower-case, split at non-letters and at camelCase humps
/// (`relatedPosts` → `related`, `posts`).
pub fn class_words(doc: &Document, node: NodeId) -> Vec<String> {
    attribute_words(doc, node, &["class", "id", "data-component"])
}

/// The lower-case words of the given attributes of an element, split as [`class_words`] does.
pub fn attribute_words(doc: &Document, node: NodeId, attrs: &[&str]) -> Vec<String> {
    let mut words = Vec::new();
    for attr in attrs {
        let Some(value) = doc.attr(node, attr) else { continue };
        let mut word = String::new();
        let mut previous_lower = false;
        for c in value.chars() {
            if (!c.is_alphanumeric() || (c.is_uppercase() && previous_lower)) && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            if c.is_alphanumeric() {
                word.extend(c.to_lowercase());
            }
            previous_lower = c.is_lowercase();
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// Words that mark a page's comment section.
const COMMENT_WORDS: &[&str] = &["disqus", "respond", "replies", "reply", "reactions", "reacties"];
/// How the word for comments begins in other languages: Spanish and Portuguese `comentarios`,
/// German and Scandinavian `kommentare`, `kommentarer`, Polish, Czech and Croatian `komentarze`,
/// `komentáře`, `komentari` (the French and Italian words hold "comment").
const COMMENT_STEMS: &[&str] = &["coment", "komment", "koment"];

/// Whether a class or id word names comments: one of [`COMMENT_WORDS`], or a word holding
/// "comment" (or beginning with another language's word for it), since many templates join it
/// to another word (`commentbody`, `commentlist`, `postcomments`, `fbcomments`); an opinion
/// column's `commentary` (`comentarista`, `kommentator`: the columnist) is the article.
pub fn names_comments(word: &str) -> bool {
    let commentary = (word.starts_with("commentar") && !word.starts_with("commentaire"))
        || ["comentarist", "kommentator", "komentator"].iter().any(|c| word.starts_with(c));
    !commentary
        && (COMMENT_WORDS.contains(&word)
            || word.contains("comment")
            || COMMENT_STEMS.iter().any(|stem| word.starts_with(stem)))
}

/// A heading that opens a comment section by its class or id (`<h2 id="comments">`,
/// `<h3 id="reply-title">`): classic blog themes write the comments after it as its siblings.
/// A name of more than [`COMMENT_NAME_WORDS`] words is a generator's id made of the heading's
/// own words (`final-comment-period-rfcs`), not a theme's name for the section.
pub fn is_comment_heading(doc: &Document, node: NodeId) -> bool {
    let is_heading = doc.tag(node).is_some_and(|t| matches!(t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"));
    is_heading
        && ["id", "class"].into_iter().filter_map(|a| doc.attr(node, a)).flat_map(str::split_whitespace).any(|name| {
            let words: Vec<String> =
                name.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
            words.len() <= COMMENT_NAME_WORDS && words.iter().any(|w| names_comments(w))
        })
}

/// Words in a theme's name for a comment section's heading, at most (`comment-reply-title`).
const COMMENT_NAME_WORDS: usize = 3;

/// Whether a node is inside a comment section (by class/id, or comment microdata).
pub fn is_comment_zone(doc: &Document, node: NodeId) -> bool {
    std::iter::once(node)
        .chain(doc.ancestors(node))
        .filter(|&n| doc.is_element(n))
        .any(|n| is_comment_item(doc, n) || class_words(doc, n).iter().any(|w| names_comments(w)))
}

/// Whether an element is a schema.org comment (`itemtype="https://schema.org/Comment"`).
pub fn is_comment_item(doc: &Document, n: NodeId) -> bool {
    doc.attr(n, "itemtype")
        .is_some_and(|t| t.split_whitespace().any(|t| matches!(t.rsplit('/').next(), Some("Comment" | "UserComments"))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;

    fn doc(html: &str) -> Document {
        parse_str(html, &Url::parse("https://news.example/2020/06/07/story").unwrap()).unwrap()
    }

    #[test]
    fn json_ld_graph_and_arrays_give_the_article_first() {
        let d = doc(r#"<head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
            {"@type":"WebSite","name":"Example News"},
            {"@type":"WebPage","name":"Page","datePublished":"2020-06-01"},
            {"@type":["NewsArticle"],"headline":"Storm hits the coast","datePublished":"2020-06-07T10:00:00+02:00",
             "dateModified":"2020-06-08","author":[{"@type":"Person","name":"Jane Doe"},{"name":"John Roe"}],
             "image":{"@type":"ImageObject","url":"/img/storm.jpg"},
             "comment":[{"@type":"Comment","datePublished":"2020-06-09"}]}]}</script>
            <script type="application/ld+json">[{"@type":"BreadcrumbList"}, {"@type": "Organization", "name": "X"}]</script>
            </head><body><h1>Storm hits the coast</h1></body>"#);
        let nodes = json_ld(&d);
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].headline.as_deref(), Some("Storm hits the coast"));
        assert_eq!(nodes[0].authors, ["Jane Doe", "John Roe"]);
        assert_eq!(nodes[0].date_published.as_deref(), Some("2020-06-07T10:00:00+02:00"));
        assert_eq!(nodes[0].image.as_deref(), Some("/img/storm.jpg"));
        let meta = collect(&d, None);
        assert_eq!(meta.author.as_deref(), Some("Jane Doe, John Roe"));
        assert_eq!(meta.lead_image.unwrap().as_str(), "https://news.example/img/storm.jpg");
        assert_eq!(meta.title.as_deref(), Some("Storm hits the coast"));
        assert!(meta.title_node.is_some());
    }

    #[test]
    fn broken_json_ld_is_skipped() {
        let d = doc(r#"<script type="application/ld+json">{"@type":"NewsArticle","headline":"A",}</script>
            <script type="application/ld+json"><![CDATA[{"@type":"BlogPosting","headline":"B"}]]></script>"#);
        let nodes = json_ld(&d);
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].headline.as_deref(), Some("B"));
        // Two objects in one script, the second one broken: the first is read.
        let d = doc(
            r#"<script type="application/ld+json">{"@type":"NewsArticle","headline":"C","datePublished":"2020-10-26"}
            {"@type":"BreadcrumbList",}</script>"#,
        );
        let nodes = json_ld(&d);
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].date_published.as_deref(), Some("2020-10-26"));
    }

    #[test]
    fn meta_tags_and_microdata_are_collected_by_key() {
        let d = doc(
            r#"<head><meta property="og:title" content="From OG"><meta name="author" content="https://facebook.com/x">
            <meta name="parsely-page" content='{"pub_date":"2020-06-07T08:00:00Z","author":"Jane"}'>
            <meta name="Author" content="Jane Doe"><meta http-equiv="content-language" content="pt_BR"></head>
            <body><span itemprop="datePublished" content="2020-06-07">June 7</span>
            <div class="comments"><span itemprop="datePublished">2021-01-01</span></div></body>"#,
        );
        let tags = MetaTags::collect(&d);
        assert_eq!(tags.first(&["og:title"]), Some("From OG"));
        assert_eq!(tags.values("datepublished").collect::<Vec<_>>(), ["2020-06-07"]);
        assert_eq!(tags.first(&["parsely-pub-date"]), Some("2020-06-07T08:00:00Z"));
        let meta = collect(&d, None);
        assert_eq!(meta.author.as_deref(), Some("Jane Doe"), "URLs are not names");
        assert_eq!(meta.lang.as_deref(), Some("pt-br"));
        assert_eq!(meta.title.as_deref(), Some("From OG"));
    }

    #[test]
    fn the_headline_is_the_heading_that_matches_the_metadata() {
        let d = doc(r#"<head><title>Storm hits the coast | Example News</title></head><body>
            <header><h1>Example News</h1></header><h2>Latest</h2>
            <article><h1>Storm hits the coast</h1><p>Text.</p></article></body>"#);
        let meta = collect(&d, None);
        let node = meta.title_node.unwrap();
        assert!(d.ancestors(node).any(|a| d.is_tag(a, "article")));
        assert_eq!(meta.title.as_deref(), Some("Storm hits the coast"));
    }

    #[test]
    fn the_headline_is_the_title_part_in_the_url_not_the_site_name_linking_home() {
        // `Blog name: Headline`, the blog's name longer than the headline and in an `<h1>`.
        let html = r#"<head><title>Town Council Weekly Blog: Bridge vote delayed</title></head><body>
            <h1>Town Council Weekly Blog</h1><h3 class="post-title"><a href="/2020/06/bridge-vote-delayed.html">Bridge vote delayed</a></h3>
            <p>Text.</p></body>"#;
        let d = parse_str(html, &Url::parse("https://town.example/2020/06/bridge-vote-delayed.html").unwrap()).unwrap();
        assert_eq!(collect(&d, None).title.as_deref(), Some("Bridge vote delayed"));
        // Without a telling URL, a heading that links home names the site.
        let html = r#"<head><title>Bridge vote delayed in town | Town News</title></head><body>
            <h1><a href="/">Town News</a></h1><h2>Bridge vote delayed in town</h2></body>"#;
        let d = parse_str(html, &Url::parse("https://town.example/p?id=12").unwrap()).unwrap();
        let meta = collect(&d, None);
        assert!(d.is_tag(meta.title_node.unwrap(), "h2"), "{:?}", meta.title);
    }

    #[test]
    fn authors_come_without_by_lines_and_biographies() {
        let d = doc(r#"<body><div itemprop="author" itemscope itemtype="http://schema.org/Person">
            <span itemprop="name">Dr. Zhao</span><p>A technical blog about computer vision.</p></div></body>"#);
        assert_eq!(collect(&d, None).author.as_deref(), Some("Dr. Zhao"));
        let d = doc(r#"<head><meta name="author" content="Written by κeen"></head>
            <body><div itemprop="author">Someone Else</div></body>"#);
        assert_eq!(collect(&d, None).author.as_deref(), Some("κeen"), "meta tags rank before visible microdata");
        assert_eq!(strip_by("BY: Jane Doe"), "Jane Doe");
        assert_eq!(strip_by("İstanbul Bureau"), "İstanbul Bureau");
    }

    #[test]
    fn class_words_split_at_humps_and_punctuation() {
        let d = doc(r#"<div id="relatedPosts" class="post__share-bar  jp-relatedposts">x</div>"#);
        let div = d.first_tag("div").unwrap();
        assert_eq!(class_words(&d, div), ["post", "share", "bar", "jp", "relatedposts", "related", "posts"]);
    }
}
