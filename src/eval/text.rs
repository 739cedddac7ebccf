//! Text comparisons of the corpus metrics: title normalization and token F1.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;

/// NFKC, whitespace collapsed, trimmed, case-folded.
pub fn normalize_title(title: &str) -> String {
    let nfkc: String = title.nfkc().collect();
    crate::dom::collapse_whitespace(&nfkc).to_lowercase()
}

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("valid regex"));

/// Unicode `\w+` tokens, not lower-cased.
pub fn tokens(text: &str) -> Vec<&str> {
    WORD.find_iter(text).map(|m| m.as_str()).collect()
}

/// Token-level precision, recall and F1 of `output` against `truth` (multisets).
/// Empty output scores 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TokenScore {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

pub fn token_f1(output: &str, truth: &str) -> TokenScore {
    let out = tokens(output);
    let gold = tokens(truth);
    if out.is_empty() || gold.is_empty() {
        return TokenScore::default();
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for t in &gold {
        *counts.entry(t).or_default() += 1;
    }
    let mut tp = 0usize;
    for t in &out {
        if let Some(c) = counts.get_mut(t)
            && *c > 0
        {
            *c -= 1;
            tp += 1;
        }
    }
    let precision = tp as f64 / out.len() as f64;
    let recall = tp as f64 / gold.len() as f64;
    let f1 = if tp == 0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    TokenScore { precision, recall, f1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_compare_after_nfkc_and_case_folding() {
        assert_eq!(normalize_title("  Ｈｅｌｌｏ\n  World "), "hello world");
    }

    #[test]
    fn token_f1_counts_multisets() {
        let s = token_f1("a a b", "a b b c");
        assert!((s.precision - 2.0 / 3.0).abs() < 1e-9);
        assert!((s.recall - 0.5).abs() < 1e-9);
        assert_eq!(token_f1("", "a").f1, 0.0);
        assert_eq!(token_f1("日本 語", "日本 語").f1, 1.0);
    }
}
