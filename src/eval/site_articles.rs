//! The article pages of `lists/sitepairs` (corpus README §1) against their own feed items:
//! the page date against the item's date (its day in the feed's own offset), and, where the
//! feed carries the full text, the main text against it — once without a hint and once with
//! the item's title and a teaser of its text as the hint (what a feed's description gives).

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use super::HalfTable;
use super::corpus::{CorpusError, sites};
use super::links::LinkNormalizer;
use super::split::Half;
use super::text::{TokenScore, token_f1, tokens};
use crate::dom::{self, ParseOptions};
use crate::engines::article::{self, Hints};
use crate::feed::reader;

/// A feed body with at least this many words is taken for the article's full text.
const FULL_TEXT_TOKENS: usize = 100;
/// Words of the item's text that make the teaser given as the hint.
const TEASER_WORDS: usize = 40;

/// Scores over the site-pair and theme article pages, per half of the corpus.
#[derive(Debug, Clone, Default)]
pub struct SiteArticleReport {
    pub tune: SiteArticleScores,
    pub check: SiteArticleScores,
    pub pages: Vec<SiteArticlePage>,
}

/// What the generic extractor found on one article page, with its feed item's day and (when
/// the feed carries it) full text: `eval --json` prints them, so that other tools can be
/// scored on the same pages.
#[derive(Debug, Clone, Serialize)]
pub struct SiteArticlePage {
    pub half: Half,
    pub file: PathBuf,
    pub url: String,
    /// The feed item's day, in the feed's own offset.
    pub truth_day: Option<NaiveDate>,
    pub day: Option<NaiveDate>,
    /// The feed item's full text, and the generic extractor's main text, without a hint.
    pub truth_text: Option<String>,
    pub text: Option<String>,
}

impl SiteArticleReport {
    pub fn half(&self, half: Half) -> &SiteArticleScores {
        match half {
            Half::Tune => &self.tune,
            Half::Check => &self.check,
        }
    }
}

/// Scores over the article pages of one half.
#[derive(Debug, Clone, Default)]
pub struct SiteArticleScores {
    pub pages: usize,
    /// Pages whose feed item has a date, and of them those dated the same day / within a day.
    pub dated: usize,
    pub exact: usize,
    pub within_a_day: usize,
    pub undated_output: usize,
    /// Main-text scores on the pages whose feed item carries the full text, with the pages.
    pub texts: Vec<String>,
    pub generic: Vec<TokenScore>,
    pub hinted: Vec<TokenScore>,
}

fn mean_f1(scores: &[TokenScore]) -> f64 {
    if scores.is_empty() { 0.0 } else { scores.iter().map(|s| s.f1).sum::<f64>() / scores.len() as f64 }
}

impl SiteArticleScores {
    pub fn generic_f1(&self) -> f64 {
        mean_f1(&self.generic)
    }

    pub fn hinted_f1(&self) -> f64 {
        mean_f1(&self.hinted)
    }
}

/// Score the article pages of `CORPUS/lists/sitepairs` and `CORPUS/lists/themes`.
pub fn evaluate(corpus: &Path) -> Result<SiteArticleReport, CorpusError> {
    let mut halves = SiteArticleReport::default();
    let mut pages = Vec::new();
    for site in sites(corpus)? {
        let report = match site.half {
            Half::Tune => &mut halves.tune,
            Half::Check => &mut halves.check,
        };
        let normalizer = LinkNormalizer::for_site(&site.base_url, &site.host_aliases);
        let bytes = fs::read(&site.feed).map_err(|source| CorpusError::Read { path: site.feed.clone(), source })?;
        let feed = reader::read_feed(&bytes, &site.base_url)
            .map_err(|e| CorpusError::Invalid { path: site.feed.clone(), message: e.to_string() })?;
        let items = feed.items;
        for (file, url) in site.articles() {
            let Some(item) = items
                .iter()
                .find(|i| i.link.as_ref().is_some_and(|l| normalizer.normalize(l) == normalizer.normalize(&url)))
            else {
                continue;
            };
            let bytes = fs::read(&file).map_err(|source| CorpusError::Read { path: file.clone(), source })?;
            let Ok(doc) = dom::parse(&bytes, &url, &ParseOptions::default()) else { continue };
            report.pages += 1;
            let generic = article::extract(&doc, &Hints::default());
            let body_text = item.body().filter(|b| tokens(b).len() >= FULL_TEXT_TOKENS);
            // README §6: year 1 (`0001-01-01`, Go's zero time) is a feed's way of saying "no date".
            let truth_date = item.date.filter(|d| d.year() > 1);
            pages.push(SiteArticlePage {
                half: site.half,
                file: file.clone(),
                url: url.to_string(),
                truth_day: truth_date.map(|d| d.date_naive()),
                day: generic.date().map(|d| d.date_naive()),
                truth_text: body_text.map(str::to_string),
                text: body_text.and(generic.content_text.clone()),
            });
            if let Some(truth) = truth_date {
                report.dated += 1;
                match generic.date() {
                    Some(date) => {
                        let days = (date.date_naive() - truth.date_naive()).num_days().abs();
                        report.exact += usize::from(days == 0);
                        report.within_a_day += usize::from(days <= 1);
                    }
                    None => report.undated_output += 1,
                }
            }
            let Some(body_text) = body_text else { continue };
            let words = tokens(body_text);
            report.texts.push(format!("{}/{}", site.name, file.file_name().unwrap_or_default().to_string_lossy()));
            report.generic.push(token_f1(generic.content_text.as_deref().unwrap_or_default(), body_text));
            let teaser = words[..TEASER_WORDS].join(" ");
            let hints = Hints { title: Some(item.title.clone()), description: Some(teaser), ..Hints::default() };
            let hinted = article::extract(&doc, &hints);
            report.hinted.push(token_f1(hinted.content_text.as_deref().unwrap_or_default(), body_text));
        }
    }
    halves.pages = pages;
    Ok(halves)
}

impl fmt::Display for SiteArticleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut table = HalfTable::new("site-pair and theme article pages, against their own feed item");
        let halves = [&self.tune, &self.check];
        let mut row = |name: &str, cell: &dyn Fn(&SiteArticleScores) -> String| table.row(name, halves.map(cell));
        row("pages", &|s| s.pages.to_string());
        row("page date exact day", &|s| format!("{}/{}", s.exact, s.dated));
        row("page date within a day", &|s| format!("{}/{}", s.within_a_day, s.dated));
        row("no page date", &|s| s.undated_output.to_string());
        row("pages with the feed's full text", &|s| s.generic.len().to_string());
        row("token F1 without / with a hint", &|s| format!("{:.3} / {:.3}", s.generic_f1(), s.hinted_f1()));
        write!(f, "{table}")
    }
}
