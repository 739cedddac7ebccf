//! Counters of the updater's work, for `/metrics` and `/admin`: plain atomics, read as a
//! snapshot.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

use crate::fetch::FetchErrorKind;

/// How a refresh ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefreshOutcome {
    /// New or changed items were merged (or the page was seen again as it was).
    Extracted,
    /// `304 Not Modified`: no extraction.
    NotModified,
    /// The same body as last time: no extraction.
    Unchanged,
    /// Fetched, but no engine found items: the last good feed is kept.
    NoItems,
    /// The page could not be fetched or read.
    Failed,
}

impl RefreshOutcome {
    pub const ALL: [RefreshOutcome; 5] = [
        RefreshOutcome::Extracted,
        RefreshOutcome::NotModified,
        RefreshOutcome::Unchanged,
        RefreshOutcome::NoItems,
        RefreshOutcome::Failed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RefreshOutcome::Extracted => "extracted",
            RefreshOutcome::NotModified => "not-modified",
            RefreshOutcome::Unchanged => "unchanged",
            RefreshOutcome::NoItems => "no-items",
            RefreshOutcome::Failed => "failed",
        }
    }
}

/// What reading article pages for the dates of items whose list page shows none did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct DateRun {
    /// Items that took their article's date.
    pub dated: usize,
    /// Items whose page was read but gave no date they can take: they keep first seen.
    pub not_found: usize,
    /// Items whose page could not be had (tried again at later refreshes, a few times).
    pub failed: usize,
}

/// The fetch error classes, as metric labels.
pub const FETCH_ERROR_KINDS: [(FetchErrorKind, &str); 6] = [
    (FetchErrorKind::BadRequest, "bad-url"),
    (FetchErrorKind::Refused, "refused"),
    (FetchErrorKind::Upstream, "upstream"),
    (FetchErrorKind::Timeout, "timeout"),
    (FetchErrorKind::TooLarge, "too-large"),
    (FetchErrorKind::Internal, "internal"),
];

#[derive(Debug, Default)]
pub struct Stats {
    refreshes: [AtomicU64; 5],
    fetches: AtomicU64,
    fetch_errors: [AtomicU64; 6],
    items_new: AtomicU64,
    items_changed: AtomicU64,
    refresh_millis: AtomicU64,
    articles_enriched: AtomicU64,
    articles_failed: AtomicU64,
    /// Article date reads: dated, not found, failed.
    article_dates: [AtomicU64; 3],
}

/// A copy of the counters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsSnapshot {
    pub refreshes: Vec<(RefreshOutcome, u64)>,
    pub fetches: u64,
    pub fetch_errors: Vec<(&'static str, u64)>,
    pub items_new: u64,
    pub items_changed: u64,
    /// Time spent in refreshes, all together.
    pub refresh_seconds: f64,
    /// Items of full-text sources that got their article's content.
    pub articles_enriched: u64,
    /// Items whose article page failed (fetch, parse, or no content found).
    pub articles_failed: u64,
    /// Article pages read for the dates of items whose list page shows none, by outcome.
    pub article_dates: DateRun,
}

impl Stats {
    pub fn refreshed(&self, outcome: RefreshOutcome, elapsed: std::time::Duration) {
        let index = RefreshOutcome::ALL.iter().position(|&o| o == outcome).unwrap_or(0);
        self.refreshes[index].fetch_add(1, Ordering::Relaxed);
        self.refresh_millis.fetch_add(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    pub fn fetched(&self, error: Option<FetchErrorKind>) {
        self.fetches.fetch_add(1, Ordering::Relaxed);
        if let Some(kind) = error {
            let index = FETCH_ERROR_KINDS.iter().position(|&(k, _)| k == kind).unwrap_or(0);
            self.fetch_errors[index].fetch_add(1, Ordering::Relaxed);
        }
    }

    pub fn merged(&self, new: usize, changed: usize) {
        self.items_new.fetch_add(new as u64, Ordering::Relaxed);
        self.items_changed.fetch_add(changed as u64, Ordering::Relaxed);
    }

    /// Items enriched with their article's content, and items whose article page failed.
    pub fn articles(&self, enriched: usize, failed: usize) {
        self.articles_enriched.fetch_add(enriched as u64, Ordering::Relaxed);
        self.articles_failed.fetch_add(failed as u64, Ordering::Relaxed);
    }

    /// Article pages read for dates (by full text or only for the date).
    pub fn article_dates(&self, run: DateRun) {
        for (counter, n) in self.article_dates.iter().zip([run.dated, run.not_found, run.failed]) {
            counter.fetch_add(n as u64, Ordering::Relaxed);
        }
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        StatsSnapshot {
            refreshes: RefreshOutcome::ALL.iter().zip(&self.refreshes).map(|(&o, n)| (o, load(n))).collect(),
            fetches: load(&self.fetches),
            fetch_errors: FETCH_ERROR_KINDS
                .iter()
                .zip(&self.fetch_errors)
                .map(|(&(_, name), n)| (name, load(n)))
                .collect(),
            items_new: load(&self.items_new),
            items_changed: load(&self.items_changed),
            refresh_seconds: load(&self.refresh_millis) as f64 / 1000.0,
            articles_enriched: load(&self.articles_enriched),
            articles_failed: load(&self.articles_failed),
            article_dates: DateRun {
                dated: load(&self.article_dates[0]) as usize,
                not_found: load(&self.article_dates[1]) as usize,
                failed: load(&self.article_dates[2]) as usize,
            },
        }
    }
}
