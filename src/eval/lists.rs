//! List-page metrics (corpus README §6): occupancy (item recall), accuracy (item precision
//! where the ground truth is complete), title and date match, counts, duplicates, per page and
//! in total, and the throughput of parse + extract.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use chrono::{DateTime, Duration as Days, FixedOffset, NaiveDate};
use serde::Serialize;

use super::corpus::{CorpusError, ListPage, ListSet, ListTruth};
use super::links::NormalizedLink;
use super::split::Half;
use super::text::normalize_title;
use super::{HalfTable, percent};
use crate::dom::{self, Document, ParseOptions};
use crate::model::Page;

/// Why a list page could not be scored.
#[derive(Debug, thiserror::Error)]
pub enum ListEvalError {
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    #[error("{page}: {source}")]
    Parse { page: String, source: dom::DomError },
}

/// What an engine gives the evaluation for one page: the page model, and every date the page
/// shows (the raw time nodes, before any choice), which tells whether the items show dates.
pub struct Output {
    pub page: Page,
    pub shown_dates: Vec<NaiveDate>,
}

/// The scores of one list page.
#[derive(Debug, Clone, Serialize)]
pub struct PageScore {
    pub set: ListSet,
    pub half: Half,
    pub name: String,
    /// Whether the page shows its items' dates: at least half of the ground-truth items have
    /// their day (±1) among the dates found on the page; for pages without ground-truth dates,
    /// at least half as many dates as expected items.
    pub dated: bool,
    /// Ground-truth items (deduplicated), or the expected count.
    pub expected: usize,
    /// Output items, after deduplication by normalized link.
    pub output: usize,
    pub duplicates: usize,
    pub matched: usize,
    /// Set when the truth is a list of items.
    pub occupancy: Option<f64>,
    /// Set when the truth is complete.
    pub accuracy: Option<f64>,
    /// Matched items with a ground-truth title, and how many titles are equal / contain
    /// one another after normalization.
    pub titled: usize,
    pub title_equal: usize,
    pub title_lenient: usize,
    /// Matched items with a ground-truth date; with an output date on the same day, within a
    /// day, and with any output date.
    pub truth_dated: usize,
    pub date_same_day: usize,
    pub date_within_day: usize,
    pub date_any: usize,
    /// Set when the truth is a count: |output − expected| / expected.
    pub count_error: Option<f64>,
    pub bytes: usize,
    pub seconds: f64,
}

/// A row of the summary: pages of one scope (a set, or the site-pair homepages) in one half of
/// the corpus (or both: `half` is `None`), all of them or only those that show their items'
/// dates.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub scope: String,
    pub half: Option<Half>,
    pub dated_only: bool,
    pub pages: usize,
    pub occupancy_macro: Option<f64>,
    pub occupancy_micro: Option<f64>,
    pub accuracy_pages: usize,
    pub accuracy_macro: Option<f64>,
    pub accuracy_micro: Option<f64>,
    pub title_equal: Option<f64>,
    pub title_lenient: Option<f64>,
    pub date_same_day: Option<f64>,
    pub date_within_day: Option<f64>,
    pub date_any: Option<f64>,
    pub count_pages: usize,
    pub count_exact: Option<f64>,
    pub count_within_10: Option<f64>,
    pub count_error_mean: Option<f64>,
    pub duplicates: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Throughput {
    pub pages: usize,
    pub megabytes: f64,
    pub seconds: f64,
    pub mb_per_second: f64,
    pub pages_per_second: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ListReport {
    pub pages: Vec<PageScore>,
    pub summaries: Vec<Summary>,
    pub throughput: Throughput,
}

type InScope = fn(&PageScore) -> bool;

/// The scopes of the summaries: each set, the site-pair homepages, and the site pairs and
/// themes together (list pages of static sites with feed ground truth).
const SCOPES: [(&str, InScope); 6] = [
    ("sitepairs", |s| s.set == ListSet::Sitepairs),
    ("sitepairs homepages", |s| s.set == ListSet::Sitepairs && s.name.ends_with("/index.html")),
    ("themes", |s| s.set == ListSet::Themes),
    ("sitepairs + themes", |s| matches!(s.set, ListSet::Sitepairs | ListSet::Themes)),
    ("feedless", |s| s.set == ListSet::Feedless),
    ("gerapy", |s| s.set == ListSet::Gerapy),
];

/// Run `extract` (parse + engine) over the list pages and score it. Only `extract` is timed.
pub fn evaluate(pages: &[ListPage], mut extract: impl FnMut(&Document) -> Output) -> Result<ListReport, ListEvalError> {
    let mut scores = Vec::new();
    let mut total = Duration::ZERO;
    let mut bytes_total = 0;
    for page in pages {
        let bytes = page.bytes()?;
        let started = Instant::now();
        let doc = dom::parse(&bytes, &page.url, &ParseOptions::default())
            .map_err(|source| ListEvalError::Parse { page: page.name.clone(), source })?;
        let output = extract(&doc);
        let elapsed = started.elapsed();
        total += elapsed;
        bytes_total += bytes.len();
        let mut score = score_page(page, &output);
        score.bytes = bytes.len();
        score.seconds = elapsed.as_secs_f64();
        scores.push(score);
    }
    let mut summaries = Vec::new();
    for (scope, in_scope) in SCOPES {
        for dated_only in [false, true] {
            for half in [Some(Half::Tune), Some(Half::Check), None] {
                let chosen: Vec<&PageScore> = scores
                    .iter()
                    .filter(|s| in_scope(s) && (!dated_only || s.dated) && half.is_none_or(|h| s.half == h))
                    .collect();
                if !chosen.is_empty() {
                    summaries.push(summarize(scope, half, dated_only, &chosen));
                }
            }
        }
    }
    let seconds = total.as_secs_f64().max(1e-9);
    let megabytes = bytes_total as f64 / 1e6;
    let throughput = Throughput {
        pages: scores.len(),
        megabytes,
        seconds,
        mb_per_second: megabytes / seconds,
        pages_per_second: scores.len() as f64 / seconds,
    };
    Ok(ListReport { pages: scores, summaries, throughput })
}

fn same_day(a: &DateTime<FixedOffset>, b: &DateTime<FixedOffset>, slack: i64) -> bool {
    // Each date's calendar day in its own offset (README §6).
    (a.date_naive() - b.date_naive()).num_days().abs() <= slack
}

/// Score one page's output against its ground truth.
pub fn score_page(page: &ListPage, output: &Output) -> PageScore {
    let mut seen: HashSet<NormalizedLink> = HashSet::new();
    let mut items = Vec::new();
    let mut duplicates = 0;
    for item in output.page.items() {
        let Some(link) = &item.link else { continue };
        let normalized = page.normalize(link);
        if seen.insert(normalized.clone()) {
            items.push((normalized, item));
        } else {
            duplicates += 1;
        }
    }
    let shown: HashSet<NaiveDate> = output.shown_dates.iter().copied().collect();
    let mut score = PageScore {
        set: page.set,
        half: page.half,
        name: page.name.clone(),
        dated: false,
        expected: 0,
        output: items.len(),
        duplicates,
        matched: 0,
        occupancy: None,
        accuracy: None,
        titled: 0,
        title_equal: 0,
        title_lenient: 0,
        truth_dated: 0,
        date_same_day: 0,
        date_within_day: 0,
        date_any: 0,
        count_error: None,
        bytes: 0,
        seconds: 0.0,
    };
    match &page.truth {
        ListTruth::Count(expected) => {
            score.expected = *expected;
            score.dated = shown.len().max(output.shown_dates.len()) * 2 >= *expected;
            score.count_error = Some((items.len() as f64 - *expected as f64).abs() / (*expected).max(1) as f64);
        }
        ListTruth::Items { items: truth, complete } => {
            let mut truth_seen = HashSet::new();
            let truth: Vec<_> = truth.iter().filter(|t| truth_seen.insert(page.normalize(&t.link))).collect();
            score.expected = truth.len();
            let truth_days: Vec<NaiveDate> = truth.iter().filter_map(|t| t.date.map(|d| d.date_naive())).collect();
            score.dated = if truth_days.is_empty() {
                output.shown_dates.len() * 2 >= truth.len()
            } else {
                let on_page =
                    truth_days.iter().filter(|d| (-1..=1).any(|k| shown.contains(&(**d + Days::days(k))))).count();
                on_page * 2 >= truth_days.len()
            };
            for t in &truth {
                let Some((_, item)) = items.iter().find(|(link, _)| *link == page.normalize(&t.link)) else {
                    continue;
                };
                score.matched += 1;
                if let Some(title) = &t.title {
                    score.titled += 1;
                    let (a, b) = (normalize_title(title), normalize_title(&item.title));
                    if a == b {
                        score.title_equal += 1;
                    }
                    if !b.is_empty() && (a.contains(&b) || b.contains(&a)) {
                        score.title_lenient += 1;
                    }
                }
                if let Some(truth_date) = &t.date {
                    score.truth_dated += 1;
                    if let Some(date) = &item.date {
                        score.date_any += 1;
                        if same_day(date, truth_date, 0) {
                            score.date_same_day += 1;
                        }
                        if same_day(date, truth_date, 1) {
                            score.date_within_day += 1;
                        }
                    }
                }
            }
            if !truth.is_empty() {
                score.occupancy = Some(score.matched as f64 / truth.len() as f64);
            }
            if *complete {
                score.accuracy = Some(if items.is_empty() { 0.0 } else { score.matched as f64 / items.len() as f64 });
            }
        }
    }
    score
}

fn ratio(numerator: usize, denominator: usize) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let values: Vec<f64> = values.collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

fn summarize(scope: &str, half: Option<Half>, dated_only: bool, pages: &[&PageScore]) -> Summary {
    let sum = |f: fn(&PageScore) -> usize| pages.iter().map(|p| f(p)).sum::<usize>();
    let with_truth: Vec<&&PageScore> = pages.iter().filter(|p| p.occupancy.is_some()).collect();
    let complete: Vec<&&PageScore> = pages.iter().filter(|p| p.accuracy.is_some()).collect();
    let counted: Vec<&&PageScore> = pages.iter().filter(|p| p.count_error.is_some()).collect();
    Summary {
        scope: scope.to_string(),
        half,
        dated_only,
        pages: pages.len(),
        occupancy_macro: mean(with_truth.iter().filter_map(|p| p.occupancy)),
        occupancy_micro: ratio(with_truth.iter().map(|p| p.matched).sum(), with_truth.iter().map(|p| p.expected).sum()),
        accuracy_pages: complete.len(),
        accuracy_macro: mean(complete.iter().filter_map(|p| p.accuracy)),
        accuracy_micro: ratio(complete.iter().map(|p| p.matched).sum(), complete.iter().map(|p| p.output).sum()),
        title_equal: ratio(sum(|p| p.title_equal), sum(|p| p.titled)),
        title_lenient: ratio(sum(|p| p.title_lenient), sum(|p| p.titled)),
        date_same_day: ratio(sum(|p| p.date_same_day), sum(|p| p.truth_dated)),
        date_within_day: ratio(sum(|p| p.date_within_day), sum(|p| p.truth_dated)),
        date_any: ratio(sum(|p| p.date_any), sum(|p| p.truth_dated)),
        count_pages: counted.len(),
        count_exact: ratio(counted.iter().filter(|p| p.count_error == Some(0.0)).count(), counted.len()),
        count_within_10: ratio(
            counted.iter().filter(|p| p.count_error.is_some_and(|e| e <= 0.1)).count(),
            counted.len(),
        ),
        count_error_mean: mean(counted.iter().filter_map(|p| p.count_error)),
        duplicates: sum(|p| p.duplicates),
    }
}

impl ListReport {
    /// The summary of one scope and half (`None`: both halves).
    pub fn summary(&self, scope: &str, half: Option<Half>, dated_only: bool) -> Option<&Summary> {
        self.summaries.iter().find(|s| s.scope == scope && s.half == half && s.dated_only == dated_only)
    }

    /// The report as a readable table: one line per page, then each scope's summary with the
    /// tune and check halves side by side.
    pub fn table(&self) -> String {
        let mut out = String::new();
        out.push_str("List pages (README §6). occ = occupancy, acc = accuracy (complete truth only), title =/⊂, date = same day / ±1 / any\n");
        out.push_str(&format!(
            "{:<58} {:>5} {:>5} {:>4} {:>4} {:>4} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6}\n",
            "page", "half", "dated", "exp", "out", "dup", "occ", "acc", "title=", "date=", "date±1", "count", "ms"
        ));
        for p in &self.pages {
            let title = ratio(p.title_equal, p.titled);
            let date = ratio(p.date_same_day, p.truth_dated);
            let date1 = ratio(p.date_within_day, p.truth_dated);
            let count = match p.count_error {
                Some(_) => format!("{:+.0}%", (p.output as f64 / p.expected.max(1) as f64 - 1.0) * 100.0),
                None => "-".into(),
            };
            out.push_str(&format!(
                "{:<58} {:>5} {:>5} {:>4} {:>4} {:>4} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6.1}\n",
                truncate(&p.name, 58),
                p.half.name(),
                if p.dated { "yes" } else { "no" },
                p.expected,
                p.output,
                p.duplicates,
                percent(p.occupancy),
                percent(p.accuracy),
                percent(title),
                percent(date),
                percent(date1),
                count,
                p.seconds * 1000.0
            ));
        }
        for (scope, _) in SCOPES {
            for dated_only in [false, true] {
                let halves = [Half::Tune, Half::Check].map(|h| self.summary(scope, Some(h), dated_only));
                if halves.iter().all(Option::is_none) {
                    continue;
                }
                let label = format!("{scope} ({})", if dated_only { "pages that show dates" } else { "all pages" });
                let mut table = HalfTable::new(&label);
                let mut row = |name: &str, cell: &dyn Fn(&Summary) -> String| {
                    table.row(name, halves.map(|s| s.map_or_else(|| "-".to_string(), cell)));
                };
                row("pages", &|s| s.pages.to_string());
                row("occupancy macro / micro", &|s| {
                    format!("{} / {}", percent(s.occupancy_macro), percent(s.occupancy_micro))
                });
                row("accuracy macro / micro (pages)", &|s| {
                    format!("{} / {} ({})", percent(s.accuracy_macro), percent(s.accuracy_micro), s.accuracy_pages)
                });
                row("titles equal / contained", &|s| {
                    format!("{} / {}", percent(s.title_equal), percent(s.title_lenient))
                });
                row("dates same day / ±1 / any", &|s| {
                    format!("{} / {} / {}", percent(s.date_same_day), percent(s.date_within_day), percent(s.date_any))
                });
                row("counts exact / within 10% (pages)", &|s| {
                    format!("{} / {} ({})", percent(s.count_exact), percent(s.count_within_10), s.count_pages)
                });
                row("duplicates", &|s| s.duplicates.to_string());
                out.push('\n');
                out.push_str(&table.to_string());
            }
        }
        let t = &self.throughput;
        out.push_str(&format!(
            "\nthroughput (parse + extract): {} pages, {:.1} MB in {:.2} s = {:.1} MB/s, {:.0} pages/s\n",
            t.pages, t.megabytes, t.seconds, t.mb_per_second, t.pages_per_second
        ));
        out
    }
}

fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut out: String = text.chars().take(width - 1).collect();
        out.push('…');
        out
    }
}
