//! Sources: the pages readers subscribed to, their schedule and their fetch history.

use std::time::Duration;

use chrono::{DateTime, FixedOffset, Utc};
use serde::Serialize;
use url::Url;

use super::catalog::RuleId;
use super::{Result, Store, backend};
use crate::engines::Engine;
use crate::fetch::Validators;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SourceId(pub i64);

/// How a source is doing, for the admin page. The updater decides; the store keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Health {
    Ok,
    /// Recent fetches failed.
    Failing,
    /// Fetches have failed for a long time; the source is refreshed rarely.
    Unhealthy,
    /// The page is fetched but extraction finds no items any more ("rule stopped matching");
    /// the last good items are kept.
    StoppedMatching,
}

impl Health {
    pub fn as_str(self) -> &'static str {
        match self {
            Health::Ok => "ok",
            Health::Failing => "failing",
            Health::Unhealthy => "unhealthy",
            Health::StoppedMatching => "stopped-matching",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Health> {
        [Health::Ok, Health::Failing, Health::Unhealthy, Health::StoppedMatching]
            .into_iter()
            .find(|h| h.as_str() == text)
    }
}

/// What the user or the admin chose for a source.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceSettings {
    /// An uploaded rule pinned to the source; `None` lets the engine choice decide.
    pub rule: Option<RuleId>,
    /// Fetch each item's page for its full text.
    pub full_text: bool,
    /// How often the source is refreshed (the updater adapts it).
    pub update_interval: Duration,
}

/// A source as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub id: SourceId,
    pub url: Url,
    pub settings: SourceSettings,
    /// The engine of the last extraction, and its confidence.
    pub engine: Option<Engine>,
    pub confidence: Option<f32>,
    /// The page's title, date and encoding from the last extraction.
    pub title: Option<String>,
    pub page_date: Option<DateTime<FixedOffset>>,
    pub encoding: Option<String>,
    pub last_fetch: Option<DateTime<Utc>>,
    pub last_duration: Option<Duration>,
    /// The last time an item was added or changed.
    pub last_change: Option<DateTime<Utc>>,
    pub next_due: DateTime<Utc>,
    /// The HTTP status of the last fetch (`None` when no answer came).
    pub http_status: Option<u16>,
    /// The last fetch's error; `None` after a success.
    pub error: Option<String>,
    pub consecutive_failures: u32,
    pub health: Health,
    /// Inserted and not fetched yet: refreshed before the others (the paper's fresh URLs).
    pub fresh: bool,
    /// For the next conditional GET.
    pub validators: Validators,
    pub item_count: u64,
    pub created: DateTime<Utc>,
    /// SHA-256 (hex) of the page body last extracted; an identical body needs no extraction.
    pub body_hash: Option<String>,
    /// The last fetch that succeeded (a 304 included).
    pub last_success: Option<DateTime<Utc>>,
    /// Goes up whenever a merge changes what the feed shows; a rendered feed is current while
    /// this (and the update interval, which sets its `ttl`) is unchanged.
    pub feed_version: u64,
    /// The feed the page advertised when it was last read.
    pub page_feed: Option<Url>,
}

/// A source's feed, as far as caching its rendered text goes: [`Store::feed_stamp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedStamp {
    pub id: SourceId,
    pub feed_version: u64,
    /// Sets the feed's `ttl`.
    pub update_interval: Duration,
    /// The last change of its items, else when the source was added.
    pub last_modified: DateTime<Utc>,
    pub item_count: u64,
    /// Whether the source's items get their full text.
    pub full_text: bool,
}

/// The outcome of one fetch (and extraction) of a source, as [`Store::record_fetch`] keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchRecord {
    pub at: DateTime<Utc>,
    pub duration: Duration,
    /// `None` when no HTTP answer came (network error, timeout, refused address).
    pub http_status: Option<u16>,
    /// `None` for a success (a 304 included); an error adds one to the consecutive failures,
    /// a success resets them.
    pub error: Option<String>,
    /// `Some`: replace the stored validators (after a 200 or a 304); `None`: keep them.
    pub validators: Option<Validators>,
    /// `Some`: the hash of the body that was extracted; `None`: keep the stored one.
    pub body_hash: Option<String>,
    /// The feed the page advertises; kept with the body hash (when the page was read).
    pub page_feed: Option<Url>,
    pub next_due: DateTime<Utc>,
    /// `Some`: the adapted update interval.
    pub update_interval: Option<Duration>,
    pub health: Health,
}

/// Which due sources to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DueFilter {
    /// Fresh sources first, then by due time.
    All,
    Fresh,
    Normal,
}

/// Counts for `/metrics` and `/admin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Stats {
    pub sources: u64,
    pub fresh: u64,
    /// Sources due now.
    pub due: u64,
    /// Sources whose last fetch failed.
    pub failing: u64,
    pub unhealthy: u64,
    pub stopped_matching: u64,
    pub items: u64,
    pub rules: u64,
    pub templates: u64,
}

/// The engine's name as stored (its kebab-case serde name).
pub(super) fn engine_name(engine: Engine) -> String {
    match serde_json::to_value(engine) {
        Ok(serde_json::Value::String(name)) => name,
        // Engine serializes as a plain string; any other shape would be a change to Engine.
        other => format!("{other:?}"),
    }
}

/// The engine a stored name names.
pub(super) fn engine_from_name(name: String) -> serde_json::Result<Engine> {
    serde_json::from_value(serde_json::Value::String(name))
}

impl Store {
    /// The source for `url`, created (fresh, due at once) when it is new. `settings` apply
    /// only to a new source. Returns the source and whether it was created.
    pub fn add_source(&self, url: &Url, settings: &SourceSettings, now: DateTime<Utc>) -> Result<(Source, bool)> {
        self.add_source_leased(url, settings, now, Duration::ZERO)
    }

    /// [`Store::add_source`], a new source leased to the caller for `lease` (due only then), so
    /// that the updater does not fetch it too while the caller does (the first request for a
    /// URL fetches it at once). An existing source is returned as it is.
    pub fn add_source_leased(
        &self,
        url: &Url,
        settings: &SourceSettings,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<(Source, bool)> {
        backend!(self, add_source_leased(url, settings, now, lease))
    }

    /// What the server needs to answer `/rss` for `url` from a rendered feed it keeps: the
    /// source's id and what its feed's text depends on. One indexed row, no text columns.
    pub fn feed_stamp(&self, url: &Url) -> Result<Option<FeedStamp>> {
        backend!(self, feed_stamp(url))
    }

    pub fn source(&self, id: SourceId) -> Result<Option<Source>> {
        backend!(self, source(id))
    }

    pub fn source_by_url(&self, url: &Url) -> Result<Option<Source>> {
        backend!(self, source_by_url(url))
    }

    /// Every source, by URL (the admin page, OPML export).
    pub fn sources(&self) -> Result<Vec<Source>> {
        backend!(self, sources())
    }

    pub fn update_settings(&self, id: SourceId, settings: &SourceSettings) -> Result<()> {
        backend!(self, update_settings(id, settings))
    }

    /// Turn a source's full text on or off. Turning it on makes the source due at `now` (unless
    /// it is due earlier), so that the updater soon gives its stored items their full text.
    /// Returns whether the setting changed.
    pub fn set_full_text(&self, id: SourceId, on: bool, now: DateTime<Utc>) -> Result<bool> {
        backend!(self, set_full_text(id, on, now))
    }

    /// Delete a source and its items. Returns whether it existed.
    pub fn delete_source(&self, id: SourceId) -> Result<bool> {
        backend!(self, delete_source(id))
    }

    /// Keep the outcome of a fetch: status, error, validators, schedule, health. The source is
    /// no longer fresh. Items are not touched: a failed fetch keeps the last good feed.
    pub fn record_fetch(&self, id: SourceId, record: &FetchRecord) -> Result<Source> {
        backend!(self, record_fetch(id, record))
    }

    /// Forget what the last fetch of these sources left to skip work (validators, body hash) and
    /// make them due at `now`: their pages are extracted again at the next refresh, e.g. after
    /// a rule that serves them was uploaded or deleted. Returns how many sources there were.
    pub fn reset_sources(&self, ids: &[SourceId], now: DateTime<Utc>) -> Result<usize> {
        backend!(self, reset_sources(ids, now))
    }

    /// Move a source's next refresh to `next_due` without recording a fetch: a claimed source
    /// handed back because its host may not be asked yet.
    pub fn reschedule(&self, id: SourceId, next_due: DateTime<Utc>) -> Result<()> {
        backend!(self, reschedule(id, next_due))
    }

    /// When the earliest source falls due (`None`: no sources), so that an idle updater knows
    /// how long it may sleep.
    pub fn next_due(&self, filter: DueFilter) -> Result<Option<DateTime<Utc>>> {
        backend!(self, next_due(filter))
    }

    /// Sources due at `now` (`next_due <= now`): fresh ones first, then the longest overdue.
    pub fn due_sources(&self, now: DateTime<Utc>, filter: DueFilter, limit: usize) -> Result<Vec<Source>> {
        backend!(self, due_sources(now, filter, limit))
    }

    /// [`Store::due_sources`], and each one's `next_due` pushed to `now + lease` in the same
    /// transaction, so that another worker, poll or server does not take it too. Recording its
    /// fetch sets the real next due time; a refresh that dies (crash, abandoned at shutdown)
    /// leaves the source due again when the lease runs out.
    pub fn claim_due(
        &self,
        now: DateTime<Utc>,
        filter: DueFilter,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Source>> {
        backend!(self, claim_due(now, filter, limit, lease))
    }

    /// Counts for `/metrics` and `/admin`, with "due" counted at `now`.
    pub fn stats(&self, now: DateTime<Utc>) -> Result<Stats> {
        backend!(self, stats(now))
    }
}
