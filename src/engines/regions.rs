//! Regions of a page: its furniture (navigation, sidebars, the page's banner and footer),
//! which repeats on every page of a site, versus its content. A "recent posts" widget lists
//! the site's newest posts on every page, often more of them than the main list shows; what
//! tells them apart on any site is where they sit, by the HTML5 sectioning elements and ARIA
//! landmark roles that themes of every generator write.

use crate::dom::{Document, NodeId};

/// ARIA landmark roles of page furniture.
const FURNITURE_ROLES: &[&str] = &["navigation", "complementary", "banner", "contentinfo"];

/// Whether an element is page furniture by itself: `<nav>`, `<aside>`, a furniture role, or a
/// `<header>`/`<footer>` of the page (not one of an article or section, which holds the
/// entry's title and metadata).
fn is_furniture_element(doc: &Document, node: NodeId) -> bool {
    if doc.attr(node, "role").is_some_and(|r| FURNITURE_ROLES.iter().any(|f| r.trim().eq_ignore_ascii_case(f))) {
        return true;
    }
    match doc.tag(node) {
        Some("nav" | "aside") => true,
        Some("header" | "footer") => {
            !doc.ancestors(node).any(|a| matches!(doc.tag(a), Some("article" | "section" | "main")))
        }
        _ => false,
    }
}

/// Whether a node lies in the page's furniture.
pub fn in_furniture(doc: &Document, node: NodeId) -> bool {
    std::iter::once(node).chain(doc.ancestors(node)).any(|n| doc.is_element(n) && is_furniture_element(doc, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    #[test]
    fn navigation_sidebars_and_page_headers_are_furniture_entry_headers_are_not() {
        let doc = crate::dom::parse_str(
            r#"<body><header><a id=logo href=/>Blog</a></header>
            <main><nav><a id=menu href=/a/>A</a></nav><article><header><a id=title href=/p/>Post</a></header>
            <p><a id=inline href=/q/>q</a></p><footer><a id=tag href=/t/>t</a></footer></article></main>
            <aside><a id=recent href=/p/>Post</a></aside><div role=navigation><a id=pager href=/2/>2</a></div>
            <footer><a id=copyright href=/c/>c</a></footer></body>"#,
            &Url::parse("https://b.org/").unwrap(),
        )
        .unwrap();
        let by_id = |id: &str| doc.ids().find(|&n| doc.attr(n, "id") == Some(id)).unwrap();
        for id in ["logo", "menu", "recent", "pager", "copyright"] {
            assert!(in_furniture(&doc, by_id(id)), "{id}");
        }
        for id in ["title", "inline", "tag"] {
            assert!(!in_furniture(&doc, by_id(id)), "{id}");
        }
    }
}
