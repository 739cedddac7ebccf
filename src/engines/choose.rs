//! Which engine serves a page (DESIGN.md, "Choosing"), in this order:
//!
//! 1. a mapping rule whose `<url>` matches the page: uploaded rules first, then the shipped
//!    (or configured) ones. A rule is what a person asked for, so it is authoritative: when it
//!    finds nothing, that is reported ("rule stopped matching"), not papered over by a guess;
//! 2. a template trained for the site (`engines::template` writes templates as mapping rules;
//!    the store keeps them per site) — when it finds nothing, or does not fit a list page (it
//!    checks itself against what `auto` finds there), the next engines serve the page;
//! 3. the `auto` engine: time patterns (the paper's ATP), which need nothing but dates on the
//!    page, together with repeated records (ARP) and structured data, which find undated lists;
//!    An article page whose only list is undated records (related posts, menus) goes to step 4
//!    when it advertises a feed;
//! 4. when none of these finds items, the page's own advertised feed, if it has one. Reading it
//!    needs a fetch, so the choice only names it ([`Choice::feed_to_read`]); the caller
//!    fetches it and reads it with [`super::advertised::read_feed`].

use std::cell::OnceCell;
use std::path::Path;
use std::sync::{Arc, PoisonError, RwLock};

use chrono::{DateTime, Utc};
use url::Url;

use super::advertised::advertised_feed;
use super::article;
use super::auto;
use super::rules::{self, Rule, RuleError, RuleSet};
use super::template::{self, Applied};
use super::timepattern::{DateContext, TimePatternDb, TimePatternError};
use super::{Engine, Extraction};
use crate::dom::Document;

/// A template trained for a site, ready to apply: the rule it was written as (which carries
/// how many training items each path matched, hence its confidence).
#[derive(Debug, Clone)]
pub struct SiteTemplate {
    pub rule: Rule,
}

/// What the engine choice made of a page.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The chosen engine's result (possibly without items).
    pub extraction: Extraction,
    /// Who made it, for people: `uploaded rule 'Example news'`, `the time-pattern engine`.
    pub made_by: String,
    /// The feed the page advertises, if any (shown to people; read when no engine found items).
    pub page_feed: Option<Url>,
}

impl Choice {
    /// The page's feed when no engine found items on the page: fetch it and read it.
    pub fn feed_to_read(&self) -> Option<&Url> {
        self.page_feed.as_ref().filter(|_| self.extraction.page.item_count() == 0)
    }
}

/// The engines and their data: shipped rules, uploaded rules (replaced as a whole when rules
/// are uploaded or deleted), the Time Pattern DB.
#[derive(Debug)]
pub struct Engines {
    shipped: RuleSet,
    uploaded: RwLock<Arc<RuleSet>>,
    /// `None`: the DB built into the binary.
    time_patterns: Option<TimePatternDb>,
}

/// Why the engines' data did not load.
#[derive(Debug, thiserror::Error)]
pub enum EnginesError {
    #[error("a mapping rule is broken: {0}")]
    Rule(#[from] RuleError),
    #[error("the Time Pattern DB is broken: {0}")]
    TimePatterns(#[from] TimePatternError),
}

impl Engines {
    /// Engines with these shipped rules, the built-in time patterns, and no uploaded rules yet.
    pub fn new(shipped: RuleSet) -> Engines {
        Engines { shipped, uploaded: RwLock::new(Arc::new(RuleSet::new())), time_patterns: None }
    }

    /// The rules of `rules_dir` and the patterns of `time_patterns_dir`; either, when not
    /// given, built into the binary.
    pub fn load(rules_dir: Option<&Path>, time_patterns_dir: Option<&Path>) -> Result<Engines, EnginesError> {
        let shipped = match rules_dir {
            Some(dir) => RuleSet::load_dir(dir)?,
            None => RuleSet::shipped()?,
        };
        let time_patterns = time_patterns_dir.map(TimePatternDb::load_dir).transpose()?;
        Ok(Engines { time_patterns, ..Engines::new(shipped) })
    }

    pub fn time_patterns(&self) -> &TimePatternDb {
        self.time_patterns.as_ref().unwrap_or_else(|| TimePatternDb::builtin())
    }

    pub fn shipped(&self) -> &RuleSet {
        &self.shipped
    }

    /// The uploaded rules now in force.
    pub fn uploaded(&self) -> Arc<RuleSet> {
        self.uploaded.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub fn set_uploaded(&self, rules: RuleSet) {
        *self.uploaded.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(rules);
    }

    /// The rule that serves `url`, and whether it is an uploaded one.
    pub fn rule_for(&self, url: &Url) -> Option<(Rule, bool)> {
        if let Some(rule) = self.uploaded().find(url) {
            return Some((rule.clone(), true));
        }
        self.shipped.find(url).map(|rule| (rule.clone(), false))
    }

    /// Extract the page at `url` (the subscribed address; `doc.url` is where it was found after
    /// redirects, and rules may name either) with the engine the choice picks.
    pub fn choose(&self, doc: &Document, url: &Url, template: Option<&SiteTemplate>, now: DateTime<Utc>) -> Choice {
        let rule = self.rule_for(url).or_else(|| self.rule_for(&doc.url));
        let choice = match rule {
            Some((rule, uploaded)) => {
                let origin = if uploaded { "uploaded" } else { "shipped" };
                Choice {
                    extraction: rules::apply(&rule, doc, now),
                    made_by: format!("{origin} rule '{}'", rule.label()),
                    page_feed: None,
                }
            }
            None => self.automatic(doc, template, now),
        };
        Choice { page_feed: advertised_feed(&doc.head.feeds, &doc.base), ..choice }
    }

    /// The engines that need no rule: a trained template, then the `auto` engine.
    fn automatic(&self, doc: &Document, template: Option<&SiteTemplate>, now: DateTime<Utc>) -> Choice {
        let context = DateContext::new(now.fixed_offset());
        // `auto` runs once: for the template's check of a list page, and when it gives way.
        let analysis = OnceCell::new();
        let analyze = || analysis.get_or_init(|| auto::analyze(doc, self.time_patterns(), &context));
        let mut not_fitting = None;
        if let Some(template) = template {
            match template::apply(&template.rule, doc, now, analyze) {
                Applied::Serves(extraction) if extraction.page.item_count() > 0 => {
                    return Choice { extraction, made_by: "the site's trained template".into(), page_feed: None };
                }
                Applied::Serves(_) => {}
                Applied::GivesWay(reason) => not_fitting = Some(reason),
            }
        }
        let analysis = analysis.into_inner().unwrap_or_else(|| auto::analyze(doc, self.time_patterns(), &context));
        // An article page's undated records are its related posts or menus: the site's own
        // feed, when the page advertises one, stands better for it.
        if analysis.extraction.engine == Engine::RepeatedPattern
            && advertised_feed(&doc.head.feeds, &doc.base).is_some()
            && analysis.is_article_page(doc, &article::extract(doc, &article::Hints::default()))
        {
            let mut extraction = analysis.extraction;
            extraction.page.subjects.clear();
            return Choice { extraction, made_by: "the page's own feed (an article page)".into(), page_feed: None };
        }
        // `auto` names the engine whose evidence made the list.
        let engine = match analysis.extraction.engine {
            Engine::TimePattern => "the time-pattern engine",
            _ => "the repeated-pattern engine",
        };
        let made_by = match not_fitting {
            Some(reason) => format!("{engine} (the site's template does not fit this page: {reason})"),
            None => engine.to_string(),
        };
        Choice { extraction: analysis.extraction, made_by, page_feed: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn rule(pattern: &str, name: &str, item_path: &str) -> Rule {
        Rule::parse(
            &format!(
                r#"<page><name>{name}</name><url>{pattern}</url>
                   <subject path="//UL"><item path="{item_path}"><title>A</title></item></subject></page>"#
            ),
            "test",
        )
        .unwrap()
    }

    const PAGE: &str = r#"<html><head><title>News</title>
        <link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>
        <body><ul><li><a href="/1">One</a></li><li><a href="/2">Two</a></li></ul>
        <ol><li><a href="/3">Three</a></li></ol></body></html>"#;

    #[test]
    fn an_uploaded_rule_wins_over_a_shipped_one_which_wins_over_templates() {
        let page_url = url("https://news.example/latest");
        let doc = parse_str(PAGE, &page_url).unwrap();
        let mut shipped = RuleSet::new();
        shipped.add(rule("https://news.example/*", "shipped", "LI"));
        let engines = Engines::new(shipped);
        // The template finds what `auto` finds on the page (`/1`, `/2`, `/3` are numbered posts),
        // so it fits, and only the rules' precedence decides.
        let template = SiteTemplate { rule: rule("https://news.example/*", "learned", "//LI") };

        let choice = engines.choose(&doc, &page_url, Some(&template), Utc::now());
        assert_eq!(choice.made_by, "shipped rule 'shipped'");
        assert_eq!((choice.extraction.engine, choice.extraction.page.item_count()), (Engine::Rule, 2));

        let mut uploaded = RuleSet::new();
        uploaded.add(rule("https://news.example/late*", "mine", "LI[0]"));
        engines.set_uploaded(uploaded);
        let choice = engines.choose(&doc, &page_url, Some(&template), Utc::now());
        assert_eq!(choice.made_by, "uploaded rule 'mine'");
        assert_eq!(choice.extraction.page.item_count(), 1);
        assert!(choice.feed_to_read().is_none());

        // No rule for this page: the template.
        let other = url("https://other.example/");
        let doc = parse_str(PAGE, &other).unwrap();
        let choice = engines.choose(&doc, &other, Some(&template), Utc::now());
        assert_eq!(choice.extraction.engine, Engine::Template);
        let titles: Vec<&str> = choice.extraction.page.items().map(|i| i.title.as_str()).collect();
        assert_eq!(titles, ["One", "Two", "Three"]);
        // A hand-written rule carries no training support: the template's confidence caps it.
        let confidence = choice.extraction.confidence;
        assert!(confidence > 0.0 && confidence <= template::confidence(&template.rule), "{confidence}");
    }

    #[test]
    fn an_article_page_with_related_links_names_its_feed_and_a_list_page_does_not() {
        let sentence = "The council met on Tuesday to discuss the new budget for the city's parks and libraries. ";
        let related: String = (1..=5)
            .map(|i| format!(r#"<li class="rel"><a href="/story/{i}">Related story number {i} here</a></li>"#))
            .collect();
        let article = format!(
            r#"<html><head><title>Budget</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>
            <body><main><h1>Budget</h1><p>{}</p><p>{}</p></main><aside><ul>{related}</ul></aside></body></html>"#,
            sentence.repeat(6),
            sentence.repeat(6)
        );
        let page_url = url("https://news.example/budget");
        let engines = Engines::new(RuleSet::new());
        let choice = engines.choose(&parse_str(&article, &page_url).unwrap(), &page_url, None, Utc::now());
        assert_eq!(choice.extraction.page.item_count(), 0, "{}", choice.made_by);
        assert_eq!(choice.feed_to_read(), Some(&url("https://news.example/feed.xml")));

        // The same records without the article text: a list page, served from its records.
        let list = format!(
            r#"<html><head><title>Stories</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>
            <body><main><ul>{related}</ul></main></body></html>"#
        );
        let choice = engines.choose(&parse_str(&list, &page_url).unwrap(), &page_url, None, Utc::now());
        assert_eq!((choice.extraction.engine, choice.extraction.page.item_count()), (Engine::RepeatedPattern, 5));
        assert_eq!(choice.feed_to_read(), None);
        assert_eq!(choice.page_feed, Some(url("https://news.example/feed.xml")));
    }

    #[test]
    fn a_rule_finding_nothing_stays_chosen_and_names_the_advertised_feed() {
        let page_url = url("https://news.example/");
        let doc = parse_str(PAGE, &page_url).unwrap();
        let mut uploaded = RuleSet::new();
        uploaded.add(rule("https://news.example/*", "broken", "DIV"));
        let engines = Engines::new(RuleSet::new());
        engines.set_uploaded(uploaded);
        let choice = engines.choose(&doc, &page_url, None, Utc::now());
        assert_eq!((choice.extraction.engine, choice.extraction.page.item_count()), (Engine::Rule, 0));
        assert_eq!(choice.made_by, "uploaded rule 'broken'");
        assert_eq!(choice.feed_to_read(), Some(&url("https://news.example/feed.xml")));
    }

    #[test]
    fn without_a_rule_or_template_time_patterns_read_the_dates() {
        let page_url = url("https://dated.example/");
        let items: String = (1..=4)
            .map(|i| {
                format!(
                    "<li><a href=\"/p/{i}\">Post number {i} about things</a> <span>2024-05-{:02} 10:00</span></li>",
                    10 + i
                )
            })
            .collect();
        let html = format!("<html><head><title>Dated</title></head><body><ul>{items}</ul></body></html>");
        let doc = parse_str(&html, &page_url).unwrap();
        let choice = Engines::new(RuleSet::new()).choose(&doc, &page_url, None, Utc::now());
        assert_eq!(
            (choice.extraction.engine, choice.made_by.as_str()),
            (Engine::TimePattern, "the time-pattern engine")
        );
        assert_eq!(choice.extraction.page.item_count(), 4);
        assert!(choice.extraction.confidence > 0.0);
        assert!(choice.feed_to_read().is_none());
    }

    #[test]
    fn an_undated_list_is_found_by_its_repeated_records() {
        let page_url = url("https://undated.example/essays/");
        let items: String = (1..=6)
            .map(|i| format!(r#"<li class="essay"><a href="/essays/{i}/">Essay number {i}, on something</a></li>"#))
            .collect();
        let html = format!(
            r#"<html><head><title>Essays</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>
            <body><nav><a href="/">Home</a> <a href="/about/">About</a></nav><ul class="essays">{items}</ul></body></html>"#
        );
        let doc = parse_str(&html, &page_url).unwrap();
        let choice = Engines::new(RuleSet::new()).choose(&doc, &page_url, None, Utc::now());
        assert_eq!(
            (choice.extraction.engine, choice.made_by.as_str()),
            (Engine::RepeatedPattern, "the repeated-pattern engine")
        );
        let links: Vec<&str> = choice.extraction.page.items().filter_map(|i| i.link.as_ref()).map(Url::path).collect();
        assert_eq!(links, ["/essays/1/", "/essays/2/", "/essays/3/", "/essays/4/", "/essays/5/", "/essays/6/"]);
        assert!(choice.extraction.confidence > 0.0);
        // Items were found: the advertised feed is not needed.
        assert!(choice.feed_to_read().is_none());
    }

    #[test]
    fn rules_match_the_address_after_redirects_too() {
        let doc = parse_str(PAGE, &url("https://www.news.example/")).unwrap();
        let mut shipped = RuleSet::new();
        shipped.add(rule("https://www.news.example/", "www", "LI"));
        let choice = Engines::new(shipped).choose(&doc, &url("http://news.example/"), None, Utc::now());
        assert_eq!(choice.made_by, "shipped rule 'www'");
    }
}
