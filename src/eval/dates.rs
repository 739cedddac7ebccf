//! Page-date metrics on `dates/htmldate` (corpus README §5, §6): exact-day accuracy of the
//! page date over the dated pages, coverage, precision among pages with output, the pages
//! without a reference date separately — each with and without URL-based date guessing.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::NaiveDate;
use serde::Serialize;

use super::corpus::{CorpusError, DatePage, date_pages};
use super::split::Half;
use crate::dom::{self, ParseOptions};
use crate::engines::article::{self, DateSource, FoundDate, Hints};

/// Counts for one setting of URL date guessing.
#[derive(Debug, Clone, Default)]
pub struct DateScores {
    /// Pages with a reference date.
    pub dated: usize,
    /// Dated pages whose output day equals the reference.
    pub exact: usize,
    /// Dated pages with any output.
    pub with_output: usize,
    /// Pages without a reference date, and those of them with no output (correct).
    pub undated: usize,
    pub undated_correct: usize,
    /// Per source of the output date: (exact, output) over the dated pages.
    pub by_source: BTreeMap<String, (usize, usize)>,
}

impl DateScores {
    /// Exact-day accuracy over the dated pages (a missing output is wrong).
    pub fn accuracy(&self) -> f64 {
        self.exact as f64 / self.dated.max(1) as f64
    }

    /// Share of dated pages with any output.
    pub fn coverage(&self) -> f64 {
        self.with_output as f64 / self.dated.max(1) as f64
    }

    /// Exact-day share among dated pages with output.
    pub fn precision(&self) -> f64 {
        self.exact as f64 / self.with_output.max(1) as f64
    }

    fn add(&mut self, truth: Option<NaiveDate>, found: Option<FoundDate>) {
        let Some(truth) = truth else {
            self.undated += 1;
            self.undated_correct += usize::from(found.is_none());
            return;
        };
        self.dated += 1;
        let Some(found) = found else { return };
        self.with_output += 1;
        let exact = found.date.date_naive() == truth;
        self.exact += usize::from(exact);
        let entry = self.by_source.entry(source_name(found.source)).or_default();
        entry.0 += usize::from(exact);
        entry.1 += 1;
    }
}

fn source_name(source: DateSource) -> String {
    serde_json::to_value(source).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// The page date found on one page, with and without the URL (`eval --json` prints them, so
/// that other tools can be scored on the same pages).
#[derive(Debug, Clone, Serialize)]
pub struct PageDate {
    pub half: Half,
    pub file: PathBuf,
    pub url: String,
    pub truth: Option<NaiveDate>,
    pub with_url: Option<NaiveDate>,
    pub without_url: Option<NaiveDate>,
}

/// Scores with and without URL date guessing.
#[derive(Debug, Clone, Default)]
pub struct DateReport {
    pub with_url: DateScores,
    pub without_url: DateScores,
    pub pages_found: Vec<PageDate>,
    pub pages: usize,
    pub bytes: usize,
    /// Parse and date extraction time (both settings).
    pub seconds: f64,
}

/// The page date as `inspect` reports it: publication, else last modification.
fn page_date(doc: &dom::Document, url_dates: bool) -> Option<FoundDate> {
    let (published, modified) = article::dates(doc, &Hints { url_dates, ..Hints::default() });
    published.or(modified)
}

/// Score the page date on the given pages.
pub fn evaluate_pages(pages: &[DatePage]) -> Result<DateReport, CorpusError> {
    let mut report = DateReport::default();
    for page in pages {
        let bytes = page.bytes()?;
        report.pages += 1;
        report.bytes += bytes.len();
        let start = Instant::now();
        let doc = dom::parse(&bytes, &page.url, &ParseOptions::default()).ok();
        let with_url = doc.as_ref().and_then(|d| page_date(d, true));
        let without_url = doc.as_ref().and_then(|d| page_date(d, false));
        report.seconds += start.elapsed().as_secs_f64();
        report.with_url.add(page.date, with_url);
        report.without_url.add(page.date, without_url);
        report.pages_found.push(PageDate {
            half: page.half,
            file: page.file.clone(),
            url: page.url.to_string(),
            truth: page.date,
            with_url: with_url.map(|d| d.date.date_naive()),
            without_url: without_url.map(|d| d.date.date_naive()),
        });
    }
    Ok(report)
}

/// Score the page date on `CORPUS/dates/htmldate`.
pub fn evaluate(corpus: &Path) -> Result<DateReport, CorpusError> {
    evaluate_pages(&date_pages(corpus)?)
}

impl fmt::Display for DateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "dates/htmldate: page date of {} pages ({} dated)", self.pages, self.with_url.dated)?;
        for (name, s) in [("with URL dates   ", &self.with_url), ("without URL dates", &self.without_url)] {
            writeln!(
                f,
                "  {name}  exact day {:.1}% ({}/{})  coverage {:.1}%  precision {:.1}%  undated pages left undated {}/{}",
                100.0 * s.accuracy(),
                s.exact,
                s.dated,
                100.0 * s.coverage(),
                100.0 * s.precision(),
                s.undated_correct,
                s.undated
            )?;
        }
        let sources: Vec<String> =
            self.with_url.by_source.iter().map(|(name, (exact, total))| format!("{name} {exact}/{total}")).collect();
        writeln!(f, "  by source (with URL dates, exact/output): {}", sources.join(", "))?;
        write!(
            f,
            "  speed   {:.1} pages/s  {:.2} MB/s  (parse + dates, both settings)",
            self.pages as f64 / self.seconds.max(1e-9),
            self.bytes as f64 / 1e6 / self.seconds.max(1e-9)
        )
    }
}
