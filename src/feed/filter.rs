//! Feed options of `/rss`: keep only items matching `include`, drop those matching `exclude`
//! (regular expressions on the title and the description's text), at most `limit` items.
//! Strangers write these patterns, so they are short and compiled with size limits; the
//! `regex` crate runs in linear time, so no pattern can make matching blow up.

use regex::{Regex, RegexBuilder};

use crate::model::Page;

use super::reader::html_to_text;

/// Longest pattern accepted, in characters.
pub const MAX_PATTERN_CHARS: usize = 256;
/// Compiled program size allowed per pattern (the crate's default is 10 MiB).
const MAX_PROGRAM_BYTES: usize = 256 * 1024;

/// The options of one feed; the default keeps everything.
#[derive(Debug, Clone, Default)]
pub struct FeedFilter {
    include: Option<Regex>,
    exclude: Option<Regex>,
    limit: Option<usize>,
}

impl FeedFilter {
    /// Check the options as given in a query; the error names the option and the problem.
    pub fn parse(include: Option<&str>, exclude: Option<&str>, limit: Option<&str>) -> Result<FeedFilter, String> {
        let limit = match limit.map(str::trim).filter(|l| !l.is_empty()) {
            None => None,
            Some(text) => match text.parse::<usize>() {
                Ok(n) if n >= 1 => Some(n),
                _ => return Err(format!("`limit={text}`: give a number of items, 1 or more")),
            },
        };
        Ok(FeedFilter { include: pattern("include", include)?, exclude: pattern("exclude", exclude)?, limit })
    }

    pub fn is_empty(&self) -> bool {
        self.include.is_none() && self.exclude.is_none() && self.limit.is_none()
    }

    /// The options as query pairs, in one order: part of a feed's identity (its cache entry,
    /// its self link).
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(include) = &self.include {
            pairs.push(("include", include.as_str().to_string()));
        }
        if let Some(exclude) = &self.exclude {
            pairs.push(("exclude", exclude.as_str().to_string()));
        }
        if let Some(limit) = self.limit {
            pairs.push(("limit", limit.to_string()));
        }
        pairs
    }

    /// Keep the items the options let through, newest order kept.
    pub fn apply(&self, page: &mut Page) {
        if self.is_empty() {
            return;
        }
        let mut left = self.limit.unwrap_or(usize::MAX);
        for subject in &mut page.subjects {
            subject.items.retain(|item| {
                let text =
                    format!("{}\n{}", item.title, item.description.as_deref().map(html_to_text).unwrap_or_default());
                let kept = self.include.as_ref().is_none_or(|r| r.is_match(&text))
                    && !self.exclude.as_ref().is_some_and(|r| r.is_match(&text))
                    && left > 0;
                left -= usize::from(kept);
                kept
            });
        }
    }
}

fn pattern(option: &str, text: Option<&str>) -> Result<Option<Regex>, String> {
    let Some(text) = text.filter(|t| !t.is_empty()) else { return Ok(None) };
    if text.chars().count() > MAX_PATTERN_CHARS {
        return Err(format!("`{option}`: the pattern is longer than {MAX_PATTERN_CHARS} characters"));
    }
    RegexBuilder::new(text)
        .size_limit(MAX_PROGRAM_BYTES)
        .dfa_size_limit(MAX_PROGRAM_BYTES)
        .build()
        .map(Some)
        .map_err(|e| format!("`{option}` is not a usable regular expression: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Item, Subject};

    fn page(titles: &[(&str, &str)]) -> Page {
        let mut page = Page::new(url::Url::parse("https://example.org/").unwrap(), "News", "UTF-8");
        let items = titles
            .iter()
            .map(|(title, description)| Item {
                description: (!description.is_empty()).then(|| format!("<p>{description}</p>")),
                ..Item::new(*title)
            })
            .collect();
        page.subjects.push(Subject { title: None, items });
        page
    }

    fn titles(page: &Page) -> Vec<&str> {
        page.items().map(|i| i.title.as_str()).collect()
    }

    #[test]
    fn include_exclude_and_limit_on_titles_and_descriptions() {
        let news =
            [("Rust 2.0 released", ""), ("Weather", "rain and Rust on bridges"), ("Sports", ""), ("Rust tips", "")];
        let mut all = page(&news);
        FeedFilter::default().apply(&mut all);
        assert_eq!(titles(&all).len(), 4);
        let mut rust = page(&news);
        FeedFilter::parse(Some("(?i)rust"), Some("tips"), None).unwrap().apply(&mut rust);
        assert_eq!(titles(&rust), ["Rust 2.0 released", "Weather"]);
        let mut two = page(&news);
        FeedFilter::parse(None, Some("^Weather"), Some("2")).unwrap().apply(&mut two);
        assert_eq!(titles(&two), ["Rust 2.0 released", "Sports"]);
        let filter = FeedFilter::parse(Some("a"), None, Some("3")).unwrap();
        assert_eq!(filter.query_pairs(), [("include", "a".to_string()), ("limit", "3".to_string())]);
    }

    #[test]
    fn bad_options_are_refused_with_reasons() {
        for (include, limit, reason) in [
            (Some("(unclosed"), None, "`include` is not a usable regular expression"),
            (Some("a{1000}{1000}"), None, "`include` is not a usable regular expression"),
            (None, Some("0"), "`limit=0`"),
            (None, Some("many"), "`limit=many`"),
        ] {
            let error = FeedFilter::parse(include, None, limit).unwrap_err();
            assert!(error.contains(reason), "{error}");
        }
        let long = "a".repeat(MAX_PATTERN_CHARS + 1);
        assert!(FeedFilter::parse(None, Some(&long), None).unwrap_err().contains("longer than 256"));
    }
}
