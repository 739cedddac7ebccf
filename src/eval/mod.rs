//! Scoring the engines on a corpus laid out like `../shared/corpus/` (its README §6 says what
//! to compute): the loaders, the link and text normalizations, and the metrics.

pub mod articles;
pub mod corpus;
pub mod dates;
pub mod decision;
pub mod links;
pub mod lists;
pub mod site_articles;
pub mod split;
pub mod template;
pub mod text;

use std::fmt;

use split::Half;

/// A percentage with one decimal, or `-` where there is nothing to measure.
pub fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", v * 100.0))
}

/// One measure per row, the tune and check halves of the corpus (SPLIT.tsv) side by side.
pub struct HalfTable {
    title: String,
    rows: Vec<(String, [String; 2])>,
}

impl HalfTable {
    pub fn new(title: &str) -> HalfTable {
        HalfTable { title: title.to_string(), rows: Vec::new() }
    }

    pub fn row(&mut self, measure: &str, halves: [String; 2]) {
        self.rows.push((measure.to_string(), halves));
    }
}

impl fmt::Display for HalfTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = |i: usize| self.rows.iter().map(|(_, h)| h[i].chars().count()).max().unwrap_or(0).max(8);
        let (tune, check) = (width(0), width(1));
        writeln!(f, "{:<40} {:>tune$}   {:>check$}", self.title, Half::Tune.name(), Half::Check.name())?;
        for (measure, [t, c]) in &self.rows {
            writeln!(f, "  {measure:<38} {t:>tune$}   {c:>check$}")?;
        }
        Ok(())
    }
}
