//! Main-text metrics on the article sets (corpus README §4, §4b, §6), set by set and for the
//! tune and check halves: mean token precision, recall and F1 of the generic article extractor
//! against the set's main text, the share of pages with F1 ≥ 0.9, pages with no text at all,
//! throughput, and upstream's 4-token-shingle variant for comparing with zyte's published
//! figures.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::time::Instant;

use super::HalfTable;
use super::corpus::{ARTICLE_SETS, ArticlePage, CorpusError, article_pages};
use super::split::Half;
use super::text::{TokenScore, token_f1, tokens};
use crate::dom::{self, ParseOptions};
use crate::engines::article::{self, Hints};

/// One page's scores.
#[derive(Debug, Clone)]
pub struct PageScore {
    pub set: &'static str,
    pub half: Half,
    /// No text was extracted (or the page did not parse).
    pub empty: bool,
    pub id: String,
    pub url: String,
    pub tokens: TokenScore,
    /// Upstream's shingle TP, FP, FN, normalized to sum to 1.
    pub shingles: [f64; 3],
}

/// Scores over a set of article pages.
#[derive(Debug, Clone)]
pub struct ArticleReport {
    pub pages: Vec<PageScore>,
    pub bytes: usize,
    /// Parse and extraction time.
    pub seconds: f64,
}

impl ArticleReport {
    /// The pages of one set (all sets: `None`) in one half (both: `None`).
    pub fn select(&self, set: Option<&str>, half: Option<Half>) -> ArticleReport {
        let pages = self
            .pages
            .iter()
            .filter(|p| set.is_none_or(|s| s == p.set) && half.is_none_or(|h| h == p.half))
            .cloned()
            .collect();
        ArticleReport { pages, bytes: 0, seconds: 0.0 }
    }

    /// Pages where nothing was extracted.
    pub fn empty(&self) -> usize {
        self.pages.iter().filter(|p| p.empty).count()
    }

    fn mean(&self, f: impl Fn(&PageScore) -> f64) -> f64 {
        if self.pages.is_empty() {
            return 0.0;
        }
        self.pages.iter().map(f).sum::<f64>() / self.pages.len() as f64
    }

    pub fn precision(&self) -> f64 {
        self.mean(|p| p.tokens.precision)
    }

    pub fn recall(&self) -> f64 {
        self.mean(|p| p.tokens.recall)
    }

    pub fn f1(&self) -> f64 {
        self.mean(|p| p.tokens.f1)
    }

    /// Share of pages with token F1 ≥ 0.9.
    pub fn share_f1_90(&self) -> f64 {
        self.mean(|p| if p.tokens.f1 >= 0.9 { 1.0 } else { 0.0 })
    }

    /// Upstream's `evaluate.py`: mean precision over pages with output, mean recall over
    /// pages with ground truth, F1 of the two means.
    pub fn shingle_scores(&self) -> TokenScore {
        let mean =
            |values: Vec<f64>| if values.is_empty() { 0.0 } else { values.iter().sum::<f64>() / values.len() as f64 };
        let precision = mean(
            self.pages
                .iter()
                .filter(|p| p.shingles[0] + p.shingles[1] > 0.0)
                .map(|p| shingle_precision(p.shingles))
                .collect(),
        );
        let recall = mean(
            self.pages
                .iter()
                .filter(|p| p.shingles[0] + p.shingles[2] > 0.0)
                .map(|p| shingle_recall(p.shingles))
                .collect(),
        );
        let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
        TokenScore { precision, recall, f1 }
    }
}

fn shingle_precision([tp, fp, fn_]: [f64; 3]) -> f64 {
    if fp == 0.0 && fn_ == 0.0 {
        1.0
    } else if tp == 0.0 && fp == 0.0 {
        0.0
    } else {
        tp / (tp + fp)
    }
}

fn shingle_recall([tp, fp, fn_]: [f64; 3]) -> f64 {
    if fp == 0.0 && fn_ == 0.0 {
        1.0
    } else if tp == 0.0 && fn_ == 0.0 {
        0.0
    } else {
        tp / (tp + fn_)
    }
}

/// 4-token shingles as upstream counts them (a text shorter than 4 tokens is one shingle).
fn shingles(text: &str) -> HashMap<Vec<&str>, usize> {
    let words = tokens(text);
    let mut counts = HashMap::new();
    let n = 4;
    for i in 0..words.len().saturating_sub(n - 1).max(1) {
        let shingle: Vec<&str> = words[i..(i + n).min(words.len())].to_vec();
        if !shingle.is_empty() {
            *counts.entry(shingle).or_insert(0) += 1;
        }
    }
    counts
}

/// Upstream's shingle TP, FP, FN of one page, normalized to sum to 1.
pub fn shingle_match(output: &str, truth: &str) -> [f64; 3] {
    let (out, gold) = (shingles(output), shingles(truth));
    let (mut tp, mut fp, mut fn_) = (0.0, 0.0, 0.0);
    for key in out.keys().chain(gold.keys().filter(|k| !out.contains_key(*k))) {
        let (o, g) = (*out.get(key).unwrap_or(&0) as f64, *gold.get(key).unwrap_or(&0) as f64);
        tp += o.min(g);
        fp += (o - g).max(0.0);
        fn_ += (g - o).max(0.0);
    }
    let sum = tp + fp + fn_;
    if sum > 0.0 { [tp / sum, fp / sum, fn_ / sum] } else { [0.0; 3] }
}

/// Score the extractor on the given pages.
pub fn evaluate_pages(pages: &[ArticlePage]) -> Result<ArticleReport, CorpusError> {
    let mut report = ArticleReport { pages: Vec::with_capacity(pages.len()), bytes: 0, seconds: 0.0 };
    for page in pages {
        let bytes = page.bytes()?;
        report.bytes += bytes.len();
        let start = Instant::now();
        let text = dom::parse(&bytes, &page.url, &ParseOptions::default())
            .ok()
            .and_then(|doc| article::extract(&doc, &Hints::default()).content_text)
            .unwrap_or_default();
        report.seconds += start.elapsed().as_secs_f64();
        report.pages.push(PageScore {
            set: page.set,
            half: page.half,
            empty: text.is_empty(),
            id: page.id.clone(),
            url: page.url.to_string(),
            tokens: token_f1(&text, &page.body),
            shingles: shingle_match(&text, &page.body),
        });
    }
    Ok(report)
}

/// Score the extractor on every article set of `CORPUS/articles`.
pub fn evaluate(corpus: &Path) -> Result<ArticleReport, CorpusError> {
    evaluate_pages(&article_pages(corpus)?)
}

impl fmt::Display for ArticleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "article pages: main text by the generic extractor, token P/R/F1 per page, mean per set")?;
        for set in ARTICLE_SETS {
            let halves = [Half::Tune, Half::Check].map(|h| self.select(Some(set), Some(h)));
            if halves.iter().all(|r| r.pages.is_empty()) {
                continue;
            }
            let mut table = HalfTable::new(&format!("articles/{set}"));
            let mut row = |name: &str, cell: &dyn Fn(&ArticleReport) -> String| {
                table
                    .row(name, [&halves[0], &halves[1]].map(|r| if r.pages.is_empty() { "-".into() } else { cell(r) }));
            };
            row("pages", &|r| r.pages.len().to_string());
            row("token F1 (P / R)", &|r| format!("{:.3} ({:.3} / {:.3})", r.f1(), r.precision(), r.recall()));
            row("pages with F1 >= 0.9", &|r| format!("{:.1}%", 100.0 * r.share_f1_90()));
            row("pages with no text", &|r| r.empty().to_string());
            if set == "zyte" {
                row("shingle F1 (upstream's evaluate.py)", &|r| format!("{:.3}", r.shingle_scores().f1));
            }
            write!(f, "{table}")?;
        }
        write!(
            f,
            "  speed   {:.1} pages/s  {:.2} MB/s  (parse + extract)",
            self.pages.len() as f64 / self.seconds.max(1e-9),
            self.bytes as f64 / 1e6 / self.seconds.max(1e-9)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shingles_follow_upstream() {
        let truth = "one two three four five";
        assert_eq!(shingle_match(truth, truth), [1.0, 0.0, 0.0]);
        // Output "one two three four" shares 1 of the truth's 2 shingles and has no extra one.
        let [tp, fp, fn_] = shingle_match("one two three four", truth);
        assert!((tp - 0.5).abs() < 1e-9 && fp == 0.0 && (fn_ - 0.5).abs() < 1e-9);
        // Empty output: nothing predicted, everything missed.
        assert_eq!(shingle_match("", truth), [0.0, 0.0, 1.0]);
        // Short texts are one shingle.
        assert_eq!(shingle_match("a b", "a b"), [1.0, 0.0, 0.0]);
    }
}
