//! The article pages of `lists/sitepairs` (corpus README §1) against their own feed items:
//! the page date against the item's date (its day in the feed's own offset), and, where the
//! feed carries the full text, the main text against it — once without a hint and once with
//! the item's title and a teaser of its text as the hint (what a feed's description gives).

use std::fmt;
use std::fs;
use std::io::BufReader;
use std::path::Path;

use chrono::{DateTime, FixedOffset};
use url::Url;

use super::corpus::{CorpusError, parse_truth_date, sites};
use super::links::LinkNormalizer;
use super::text::{TokenScore, token_f1, tokens};
use crate::dom::{self, ParseOptions};
use crate::engines::article::{self, Hints};

/// A feed item, as much of it as the scores need.
#[derive(Debug, Clone)]
struct FeedItem {
    title: String,
    link: Option<Url>,
    date: Option<DateTime<FixedOffset>>,
    /// The item's text: its content, else its description (HTML).
    body: Option<String>,
}

/// RSS 2.0 or Atom, read with the offsets of their dates kept.
fn feed_items(path: &Path, base: &Url) -> Result<Vec<FeedItem>, CorpusError> {
    let bytes = fs::read(path).map_err(|source| CorpusError::Read { path: path.to_path_buf(), source })?;
    if let Ok(channel) = rss::Channel::read_from(BufReader::new(bytes.as_slice())) {
        return Ok(channel
            .items()
            .iter()
            .map(|item| FeedItem {
                title: item.title().unwrap_or_default().to_string(),
                link: item.link().and_then(|l| base.join(l.trim()).ok()),
                date: item.pub_date().and_then(parse_truth_date),
                body: item.content().or(item.description()).map(str::to_string),
            })
            .collect());
    }
    let feed = atom_syndication::Feed::read_from(BufReader::new(bytes.as_slice())).map_err(|e| {
        CorpusError::Invalid { path: path.to_path_buf(), message: format!("neither RSS nor Atom: {e}") }
    })?;
    Ok(feed
        .entries()
        .iter()
        .map(|entry| FeedItem {
            title: entry.title().value.clone(),
            link: entry
                .links()
                .iter()
                .find(|l| l.rel() == "alternate")
                .or_else(|| entry.links().first())
                .and_then(|l| base.join(l.href().trim()).ok()),
            date: Some(*entry.published().unwrap_or(entry.updated())),
            body: entry
                .content()
                .and_then(|c| c.value())
                .map(str::to_string)
                .or_else(|| entry.summary().map(|s| s.value.clone())),
        })
        .collect())
}

/// A feed body with at least this many words is taken for the article's full text.
const FULL_TEXT_TOKENS: usize = 100;
/// Words of the item's text that make the teaser given as the hint.
const TEASER_WORDS: usize = 40;

/// Scores over the site-pair article pages.
#[derive(Debug, Clone, Default)]
pub struct SiteArticleReport {
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

impl SiteArticleReport {
    pub fn generic_f1(&self) -> f64 {
        mean_f1(&self.generic)
    }

    pub fn hinted_f1(&self) -> f64 {
        mean_f1(&self.hinted)
    }
}

/// Score the article pages of `CORPUS/lists/sitepairs`.
pub fn evaluate(corpus: &Path) -> Result<SiteArticleReport, CorpusError> {
    let mut report = SiteArticleReport::default();
    for site in sites(corpus)? {
        let normalizer = LinkNormalizer::for_site(&site.base_url, &site.host_aliases);
        let items = feed_items(&site.feed, &site.base_url)?;
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
            if let Some(truth) = item.date {
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
            let Some(body) = item.body.as_deref() else { continue };
            let body_text = dom::parse_str(body, &url).map(|d| d.text(d.root())).unwrap_or_default();
            let words = tokens(&body_text);
            if words.len() < FULL_TEXT_TOKENS {
                continue;
            }
            report.texts.push(format!("{}/{}", site.name, file.file_name().unwrap_or_default().to_string_lossy()));
            report.generic.push(token_f1(generic.content_text.as_deref().unwrap_or_default(), &body_text));
            let teaser = words[..TEASER_WORDS].join(" ");
            let hints = Hints { title: Some(item.title.clone()), description: Some(teaser), ..Hints::default() };
            let hinted = article::extract(&doc, &hints);
            report.hinted.push(token_f1(hinted.content_text.as_deref().unwrap_or_default(), &body_text));
        }
    }
    Ok(report)
}

impl fmt::Display for SiteArticleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "lists/sitepairs article pages: {} pages checked against their own feed item", self.pages)?;
        writeln!(
            f,
            "  page date   exact day {}/{}  within a day {}/{}  no date {}",
            self.exact, self.dated, self.within_a_day, self.dated, self.undated_output
        )?;
        write!(
            f,
            "  main text   vs the feed's full text on {} pages: token F1 {:.3} without a hint, {:.3} with the item's title and teaser",
            self.generic.len(),
            self.generic_f1(),
            self.hinted_f1()
        )
    }
}
