//! Link normalization for comparing item links (corpus README §6).

use percent_encoding::percent_decode_str;
use url::Url;

/// A link reduced to what identifies a page: host, decoded path and query.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NormalizedLink {
    pub host: String,
    pub path: String,
    pub query: Option<String>,
}

/// Normalizes links of one site: hosts in `aliases` count as `canonical_host`.
#[derive(Debug, Clone, Default)]
pub struct LinkNormalizer {
    pub canonical_host: Option<String>,
    pub aliases: Vec<String>,
}

impl LinkNormalizer {
    pub fn for_site(base_url: &Url, aliases: &[String]) -> LinkNormalizer {
        LinkNormalizer {
            canonical_host: base_url.host_str().map(bare_host),
            aliases: aliases.iter().map(|h| bare_host(h)).collect(),
        }
    }

    /// Fragment dropped, http = https, host lower-cased without `www.` (aliases replaced),
    /// path percent-decoded, trailing `index.html`/`index.htm` then `/` removed, query kept.
    pub fn normalize(&self, url: &Url) -> NormalizedLink {
        let mut host = url.host_str().map(bare_host).unwrap_or_default();
        if let Some(canonical) = &self.canonical_host
            && self.aliases.contains(&host)
        {
            host = canonical.clone();
        }
        let mut path = percent_decode_str(url.path()).decode_utf8_lossy().into_owned();
        for suffix in ["index.html", "index.htm"] {
            if let Some(stripped) = path.strip_suffix(suffix) {
                path = stripped.to_string();
                break;
            }
        }
        while path.ends_with('/') {
            path.pop();
        }
        NormalizedLink { host, path, query: url.query().map(str::to_string) }
    }
}

fn bare_host(host: &str) -> String {
    let host = host.to_ascii_lowercase();
    host.strip_prefix("www.").map(str::to_string).unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_as_the_corpus_readme_says() {
        let n = LinkNormalizer::for_site(&Url::parse("http://blog.example.com/").unwrap(), &["alias.github.io".into()]);
        let a =
            n.normalize(&Url::parse("https://WWW.Blog.Example.com/posts/%E6%97%A5%e6%9c%ac/index.html#top").unwrap());
        let b = n.normalize(&Url::parse("http://blog.example.com/posts/日本/").unwrap());
        let c = n.normalize(&Url::parse("https://alias.github.io/posts/日本").unwrap());
        assert_eq!(a, b);
        assert_eq!(b, c);
        assert_ne!(a, n.normalize(&Url::parse("http://blog.example.com/posts/日本?page=2").unwrap()));
    }
}
