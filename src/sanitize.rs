//! Descriptions and content go to feed readers as HTML: no scripts, no event handlers,
//! absolute links, and lazy-loaded images repaired so they show without JavaScript.

use ammonia::UrlRelative;
use lol_html::{RewriteStrSettings, element, rewrite_str};
use url::Url;

/// Attributes where lazy-loading scripts keep the real image address.
const LAZY_SRC: &[&str] = &["data-src", "data-lazy-src", "data-original", "data-actualsrc", "data-url"];
const LAZY_SRCSET: &[&str] = &["data-srcset", "data-lazy-srcset"];

/// Sanitize an HTML fragment; relative links resolve against `base`.
pub fn sanitize_html(fragment: &str, base: &Url) -> String {
    let repaired = repair_lazy_images(fragment);
    ammonia::Builder::default().url_relative(UrlRelative::RewriteWithBase(base.clone())).clean(&repaired).to_string()
}

/// Move the real address of lazy images into `src`; a `srcset` gives its widest candidate.
fn repair_lazy_images(fragment: &str) -> String {
    let settings = RewriteStrSettings::new().append_element_content_handler(element!("img", |img| {
        let placeholder = img.get_attribute("src").is_none_or(|s| s.trim().is_empty() || s.starts_with("data:"));
        if !placeholder {
            return Ok(());
        }
        let lazy = LAZY_SRC.iter().find_map(|a| img.get_attribute(a)).filter(|s| !s.trim().is_empty());
        let from_srcset = || {
            LAZY_SRCSET
                .iter()
                .chain(["srcset"].iter())
                .find_map(|a| img.get_attribute(a))
                .and_then(|set| widest_candidate(&set))
        };
        if let Some(src) = lazy.or_else(from_srcset) {
            img.set_attribute("src", &src)?;
        }
        Ok(())
    }));
    // lol_html only fails on its own memory limits; the fragment is then used as it is.
    rewrite_str(fragment, settings).unwrap_or_else(|_| fragment.to_string())
}

/// `a.jpg 300w, b.jpg 800w` → `b.jpg`.
fn widest_candidate(srcset: &str) -> Option<String> {
    srcset
        .split(',')
        .filter_map(|candidate| {
            let mut parts = candidate.split_whitespace();
            let url = parts.next()?;
            let width = parts.next().and_then(|d| d.trim_end_matches(['w', 'x']).parse::<f64>().ok()).unwrap_or(1.0);
            Some((url.to_string(), width))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(url, _)| url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(html: &str) -> String {
        sanitize_html(html, &Url::parse("https://example.org/blog/post").unwrap())
    }

    #[test]
    fn removes_scripts_and_handlers() {
        let out = clean(r#"<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(1)">x</a></p>"#);
        assert!(!out.contains("script") && !out.contains("onclick") && !out.contains("javascript"), "{out}");
        assert!(out.contains("Hi"));
    }

    #[test]
    fn makes_links_absolute() {
        let out = clean(r#"<a href="../about">About</a><img src="/i.png">"#);
        assert!(out.contains(r#"href="https://example.org/about""#), "{out}");
        assert!(out.contains(r#"src="https://example.org/i.png""#), "{out}");
    }

    #[test]
    fn repairs_lazy_images() {
        let out = clean(r#"<img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg">"#);
        assert!(out.contains(r#"src="https://example.org/real.jpg""#), "{out}");
        let out = clean(r#"<img data-srcset="/s.jpg 300w, /l.jpg 1200w">"#);
        assert!(out.contains(r#"src="https://example.org/l.jpg""#), "{out}");
    }
}
