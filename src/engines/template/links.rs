//! Links of a site: comparing a feed's item links with a page's hrefs, and the shapes of the
//! site's item links and list pages as `<url>` patterns.

use std::collections::{BTreeMap, HashSet};

use percent_encoding::percent_decode_str;
use url::Url;

use crate::engines::rules::UrlPattern;

/// A host without `www.`, lower-cased.
pub fn bare_host(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
    host.strip_prefix("www.").map(str::to_string).unwrap_or(host)
}

/// A link reduced to what names a page of the site (corpus README §6, without the host for
/// the site's own hosts: a page may link to itself through another name of the site).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkKey {
    /// `None` for a host of the site.
    pub host: Option<String>,
    pub path: String,
    pub query: Option<String>,
}

/// The hosts of one site.
#[derive(Debug, Clone, Default)]
pub struct Site {
    hosts: HashSet<String>,
}

impl Site {
    pub fn new<'a>(urls: impl IntoIterator<Item = &'a Url>) -> Site {
        Site { hosts: urls.into_iter().map(bare_host).filter(|h| !h.is_empty()).collect() }
    }

    pub fn add(&mut self, url: &Url) {
        let host = bare_host(url);
        if !host.is_empty() {
            self.hosts.insert(host);
        }
    }

    /// Fragment dropped, `http` = `https`, path percent-decoded, a trailing `index.html` and `/`
    /// dropped.
    pub fn key(&self, url: &Url) -> LinkKey {
        let host = bare_host(url);
        let mut path = percent_decode_str(url.path()).decode_utf8_lossy().into_owned();
        for suffix in ["index.html", "index.htm"] {
            if let Some(stripped) = path.strip_suffix(suffix) {
                path.truncate(stripped.len());
                break;
            }
        }
        while path.ends_with('/') {
            path.pop();
        }
        LinkKey { host: (!self.hosts.contains(&host)).then_some(host), path, query: url.query().map(str::to_string) }
    }
}

/// The shape of a group of item links: per path segment, the segment itself when every link
/// has it, else any segment. Numbers and the last segment (the slug) always vary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkShape {
    host: String,
    segments: Vec<Option<String>>,
    trailing_slash: bool,
}

fn segments(url: &Url) -> Vec<String> {
    let path = percent_decode_str(url.path()).decode_utf8_lossy().into_owned();
    path.split('/').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

impl LinkShape {
    /// Shapes of the groups of links (by host and number of segments) that hold at least
    /// `min_links` links; the largest groups first.
    pub fn learn(links: &[Url], min_links: usize) -> Vec<LinkShape> {
        // Links by host and number of segments: each link's segments, and whether it ends in `/`.
        type Members = Vec<(Vec<String>, bool)>;
        let mut groups: BTreeMap<(String, usize), Members> = BTreeMap::new();
        for link in links {
            let segs = segments(link);
            if segs.is_empty() {
                continue;
            }
            let trailing = link.path().ends_with('/');
            groups.entry((bare_host(link), segs.len())).or_default().push((segs, trailing));
        }
        let mut shapes: Vec<(usize, LinkShape)> = groups
            .into_iter()
            .filter(|(_, members)| members.len() >= min_links.max(1))
            .map(|((host, count), members)| {
                let segments = (0..count)
                    .map(|i| {
                        let first = &members[0].0[i];
                        let constant = members.iter().all(|(s, _)| &s[i] == first);
                        let numeric = first.chars().all(|c| c.is_ascii_digit());
                        (constant && !numeric && i + 1 < count).then(|| first.clone())
                    })
                    .collect();
                let trailing_slash = members.iter().filter(|(_, t)| *t).count() * 2 > members.len();
                (members.len(), LinkShape { host, segments, trailing_slash })
            })
            .collect();
        shapes.sort_by_key(|(members, _)| std::cmp::Reverse(*members));
        shapes.into_iter().map(|(_, s)| s).collect()
    }

    /// Whether a link has this shape: the same number of segments, each fixed one equal. The
    /// host must be the shape's host or one of `also_hosts` (a page's own host).
    pub fn matches(&self, url: &Url, also_hosts: &[String]) -> bool {
        let host = bare_host(url);
        if host != self.host && !also_hosts.contains(&host) {
            return false;
        }
        let segs = segments(url);
        segs.len() == self.segments.len()
            && self.segments.iter().zip(&segs).all(|(fixed, seg)| fixed.as_ref().is_none_or(|f| f == seg))
    }

    /// As a `<url>` pattern: `*://host/posts/*/`.
    pub fn to_pattern(&self) -> Option<UrlPattern> {
        let mut text = format!("*://{}/", self.host);
        for (i, seg) in self.segments.iter().enumerate() {
            match seg {
                Some(s) => text.push_str(&percent_encoding::utf8_percent_encode(s, SEGMENT).to_string()),
                None => text.push('*'),
            }
            if i + 1 < self.segments.len() || self.trailing_slash {
                text.push('/');
            }
        }
        UrlPattern::parse(&text).ok()
    }

    /// Read a `<url>` pattern back as a shape: `*` segments vary, others are fixed. `None` for
    /// patterns that are not one host and whole segments (such as `https://host/page/*` with a
    /// `*` inside a segment).
    pub fn from_pattern(pattern: &UrlPattern) -> Option<LinkShape> {
        let text = pattern.as_str();
        let (_, rest) = text.split_once("://")?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        if host.contains('*') || host.is_empty() {
            return None;
        }
        let host = host.strip_prefix("www.").unwrap_or(host).to_string();
        let trailing_slash = path.ends_with('/');
        let mut segments = Vec::new();
        for seg in path.split('/').filter(|s| !s.is_empty()) {
            match seg {
                "*" => segments.push(None),
                s if s.contains('*') => return None,
                s => segments.push(Some(percent_decode_str(s).decode_utf8_lossy().into_owned())),
            }
        }
        (!segments.is_empty()).then_some(LinkShape { host, segments, trailing_slash })
    }
}

/// Characters escaped in a fixed segment of a pattern.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'*')
    .add(b'/');

/// First path segments that name a site's list pages by convention (pagination, archives,
/// categories, tags, authors, series, the post index).
const LIST_SECTIONS: &[&str] = &[
    "page",
    "archives",
    "archive",
    "categories",
    "category",
    "tags",
    "tag",
    "topics",
    "topic",
    "series",
    "author",
    "authors",
    "posts",
    "post",
    "blog",
    "articles",
    "news",
];

/// `<url>` patterns for a site's list pages: each training list page itself, and each list
/// section (pagination, archives, categories, tags …) that the pages link to, below the
/// training page's directory or the site's root. `item_shapes` keep item links out (a Hugo
/// site's `/posts/slug/` is an article, `/posts/` and `/posts/page/2/` are lists).
pub fn list_patterns(pages: &[&crate::dom::Document], item_shapes: &[LinkShape]) -> Vec<UrlPattern> {
    let mut texts: Vec<String> = Vec::new();
    let mut push = |text: String| {
        if !texts.contains(&text) {
            texts.push(text);
        }
    };
    for doc in pages {
        let url = &doc.url;
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        let mut own = url.clone();
        own.set_fragment(None);
        push(own.as_str().to_string());
        let host = bare_host(url);
        let hosts = [host.clone()];
        for node in doc.ids().filter(|&n| doc.is_tag(n, "a")) {
            let Some(link) = doc.attr(node, "href").and_then(|h| doc.resolve(h)) else { continue };
            if bare_host(&link) != host || item_shapes.iter().any(|s| s.matches(&link, &hosts)) {
                continue;
            }
            let segs = segments(&link);
            let Some(at) = segs.iter().position(|s| LIST_SECTIONS.contains(&s.to_ascii_lowercase().as_str())) else {
                continue;
            };
            // Everything below the section: `https://host/blog/page/*`.
            let mut prefix = format!("{}://{}/", link.scheme(), link.host_str().unwrap_or_default());
            for seg in &segs[..=at] {
                prefix.push_str(&percent_encoding::utf8_percent_encode(seg, SEGMENT).to_string());
                prefix.push('/');
            }
            push(format!("{prefix}*"));
        }
    }
    texts.iter().filter_map(|t| UrlPattern::parse(t).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn keys_ignore_the_sites_hosts_scheme_index_and_slashes() {
        let site = Site::new([&u("https://blog.example.org/"), &u("https://alias.github.io/")]);
        let a = site.key(&u("http://www.blog.example.org/2021/04/%E6%97%A5/index.html#x"));
        let b = site.key(&u("https://alias.github.io/2021/04/日"));
        assert_eq!(a, b);
        assert_eq!(a.host, None);
        assert_eq!(site.key(&u("https://other.org/2021/04/日")).host.as_deref(), Some("other.org"));
    }

    #[test]
    fn shapes_of_item_links() {
        let links: Vec<Url> = [
            "https://b.org/2025/05/03/anaconda/",
            "https://b.org/2025/02/10/kv-cache/",
            "https://b.org/2024/12/01/flops/",
            "https://b.org/about/",
        ]
        .iter()
        .map(|t| u(t))
        .collect();
        let shapes = LinkShape::learn(&links, 2);
        assert_eq!(shapes.len(), 1, "the lone About page makes no shape");
        let shape = &shapes[0];
        assert!(shape.matches(&u("http://b.org/2019/01/01/old-post/"), &[]));
        assert!(!shape.matches(&u("https://b.org/archives/2025/05/"), &[]));
        assert!(!shape.matches(&u("https://c.org/2019/01/01/x/"), &[]));
        assert!(shape.matches(&u("https://c.org/2019/01/01/x/"), &["c.org".to_string()]));
        let pattern = shape.to_pattern().unwrap();
        assert_eq!(pattern.as_str(), "*://b.org/*/*/*/*/");
        assert_eq!(LinkShape::from_pattern(&pattern).as_ref(), Some(shape));

        let hugo: Vec<Url> = ["https://h.org/posts/a-b/", "https://h.org/posts/c/"].iter().map(|t| u(t)).collect();
        let shape = &LinkShape::learn(&hugo, 2)[0];
        assert_eq!(shape.to_pattern().unwrap().as_str(), "*://h.org/posts/*/");
        assert!(!shape.matches(&u("https://h.org/tags/x/"), &[]));
    }

    #[test]
    fn list_patterns_from_section_links() {
        let html = r#"<a href="/page/2/">2</a><a href="/archives/">A</a><a href="/tags/rust/">rust</a>
            <a href="/posts/hello/">post</a><a href="https://other.org/page/2/">x</a><a href="/about/">about</a>"#;
        let doc = crate::dom::parse_str(html, &u("https://h.org/")).unwrap();
        let shapes = LinkShape::learn(&[u("https://h.org/posts/hello/"), u("https://h.org/posts/bye/")], 2);
        let patterns: Vec<String> = list_patterns(&[&doc], &shapes).iter().map(|p| p.as_str().to_string()).collect();
        assert_eq!(
            patterns,
            ["https://h.org/", "https://h.org/page/*", "https://h.org/archives/*", "https://h.org/tags/*"]
        );
    }
}
