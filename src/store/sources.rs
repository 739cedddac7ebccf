//! Sources: the pages readers subscribed to, their schedule and their fetch history.

use std::time::Duration;

use chrono::{DateTime, FixedOffset, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{OptionalExtension, Row, ToSql, TransactionBehavior, named_params, params};
use serde::Serialize;
use url::Url;

use super::catalog::RuleId;
use super::{
    Result, Rfc3339, Seconds, Store, StoreError, bad_column, duration_secs, later, opt_time, seconds, unsigned,
};
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
}

impl ToSql for Health {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for Health {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        [Health::Ok, Health::Failing, Health::Unhealthy, Health::StoppedMatching]
            .into_iter()
            .find(|h| Ok(h.as_str()) == value.as_str())
            .ok_or(FromSqlError::InvalidType)
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

const COLUMNS: &str = "id, url, rule_id, full_text, update_interval, engine, confidence, title, page_date, encoding, \
     last_fetch, last_duration_ms, last_change, next_due, http_status, error, consecutive_failures, health, fresh, \
     etag, last_modified, item_count, created, body_hash, last_success, feed_version, page_feed";

fn from_row(row: &Row) -> rusqlite::Result<Source> {
    let url: String = row.get(1)?;
    let engine = match row.get::<_, Option<String>>(5)? {
        Some(name) => Some(serde_json::from_value(serde_json::Value::String(name)).map_err(|e| bad_column(5, e))?),
        None => None,
    };
    Ok(Source {
        id: SourceId(row.get(0)?),
        url: Url::parse(&url).map_err(|e| bad_column(1, e))?,
        settings: SourceSettings {
            rule: row.get::<_, Option<i64>>(2)?.map(RuleId),
            full_text: row.get(3)?,
            update_interval: Duration::from_secs(unsigned(row, 4)?),
        },
        engine,
        confidence: row.get::<_, Option<f64>>(6)?.map(|c| c as f32),
        title: row.get(7)?,
        page_date: row.get::<_, Option<Rfc3339>>(8)?.map(|d| d.0),
        encoding: row.get(9)?,
        last_fetch: opt_time(row.get(10)?),
        last_duration: row.get::<_, Option<i64>>(11)?.map(|ms| Duration::from_millis(ms.max(0) as u64)),
        last_change: opt_time(row.get(12)?),
        next_due: row.get::<_, Seconds>(13)?.0,
        http_status: row.get(14)?,
        error: row.get(15)?,
        consecutive_failures: row.get(16)?,
        health: row.get(17)?,
        fresh: row.get(18)?,
        validators: Validators { etag: row.get(19)?, last_modified: row.get(20)? },
        item_count: unsigned(row, 21)?,
        created: row.get::<_, Seconds>(22)?.0,
        body_hash: row.get(23)?,
        last_success: opt_time(row.get(24)?),
        feed_version: unsigned(row, 25)?,
        // A feed address that no longer parses is only not shown.
        page_feed: row.get::<_, Option<String>>(26)?.and_then(|u| Url::parse(&u).ok()),
    })
}

pub(super) fn engine_name(engine: Engine) -> String {
    match serde_json::to_value(engine) {
        Ok(serde_json::Value::String(name)) => name,
        // Engine serializes as a plain string; any other shape would be a change to Engine.
        other => format!("{other:?}"),
    }
}

pub(super) fn get(conn: &rusqlite::Connection, id: SourceId) -> Result<Option<Source>> {
    let sql = format!("SELECT {COLUMNS} FROM sources WHERE id = ?1");
    Ok(conn.prepare_cached(&sql)?.query_row([id.0], from_row).optional()?)
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
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let created =
                tx.prepare_cached(
                    "INSERT INTO sources (url, rule_id, full_text, update_interval, next_due, created)
                 VALUES (?1, ?2, ?3, ?4, ?6, ?5) ON CONFLICT (url) DO NOTHING",
                )?
                .execute(params![
                    url.as_str(),
                    settings.rule.map(|r| r.0),
                    settings.full_text,
                    duration_secs(settings.update_interval),
                    seconds(now),
                    seconds(later(now, lease)),
                ])? == 1;
            let sql = format!("SELECT {COLUMNS} FROM sources WHERE url = ?1");
            let source = tx.prepare_cached(&sql)?.query_row([url.as_str()], from_row)?;
            tx.commit()?;
            Ok((source, created))
        })
    }

    /// What the server needs to answer `/rss` for `url` from a rendered feed it keeps: the
    /// source's id and what its feed's text depends on. One indexed row, no text columns.
    pub fn feed_stamp(&self, url: &Url) -> Result<Option<FeedStamp>> {
        self.with(|conn| {
            let sql = "SELECT id, feed_version, update_interval, coalesce(last_change, created), item_count, full_text
                       FROM sources WHERE url = ?1";
            let stamp = conn
                .prepare_cached(sql)?
                .query_row([url.as_str()], |row| {
                    Ok(FeedStamp {
                        id: SourceId(row.get(0)?),
                        feed_version: unsigned(row, 1)?,
                        update_interval: Duration::from_secs(unsigned(row, 2)?),
                        last_modified: row.get::<_, Seconds>(3)?.0,
                        item_count: unsigned(row, 4)?,
                        full_text: row.get(5)?,
                    })
                })
                .optional()?;
            Ok(stamp)
        })
    }

    pub fn source(&self, id: SourceId) -> Result<Option<Source>> {
        self.with(|conn| get(conn, id))
    }

    pub fn source_by_url(&self, url: &Url) -> Result<Option<Source>> {
        self.with(|conn| {
            let sql = format!("SELECT {COLUMNS} FROM sources WHERE url = ?1");
            Ok(conn.prepare_cached(&sql)?.query_row([url.as_str()], from_row).optional()?)
        })
    }

    /// Every source, by URL (the admin page, OPML export).
    pub fn sources(&self) -> Result<Vec<Source>> {
        self.with(|conn| {
            let sql = format!("SELECT {COLUMNS} FROM sources ORDER BY url");
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement.query_map([], from_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    pub fn update_settings(&self, id: SourceId, settings: &SourceSettings) -> Result<()> {
        self.with(|conn| {
            let changed = conn
                .prepare_cached("UPDATE sources SET rule_id = ?2, full_text = ?3, update_interval = ?4 WHERE id = ?1")?
                .execute(params![
                    id.0,
                    settings.rule.map(|r| r.0),
                    settings.full_text,
                    duration_secs(settings.update_interval)
                ])?;
            if changed == 0 { Err(StoreError::NoSuchSource(id.0)) } else { Ok(()) }
        })
    }

    /// Turn a source's full text on or off. Turning it on makes the source due at `now` (unless
    /// it is due earlier), so that the updater soon gives its stored items their full text.
    /// Returns whether the setting changed.
    pub fn set_full_text(&self, id: SourceId, on: bool, now: DateTime<Utc>) -> Result<bool> {
        self.with(|conn| {
            let changed = conn
                .prepare_cached(
                    "UPDATE sources SET full_text = ?2, next_due = CASE WHEN ?2 THEN min(next_due, ?3) ELSE next_due END
                     WHERE id = ?1 AND full_text IS NOT ?2",
                )?
                .execute(params![id.0, on, seconds(now)])?;
            Ok(changed == 1)
        })
    }

    /// Delete a source and its items. Returns whether it existed.
    pub fn delete_source(&self, id: SourceId) -> Result<bool> {
        self.with(|conn| Ok(conn.prepare_cached("DELETE FROM sources WHERE id = ?1")?.execute([id.0])? == 1))
    }

    /// Keep the outcome of a fetch: status, error, validators, schedule, health. The source is
    /// no longer fresh. Items are not touched: a failed fetch keeps the last good feed.
    pub fn record_fetch(&self, id: SourceId, record: &FetchRecord) -> Result<Source> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let validators = record.validators.as_ref();
            let changed = tx
                .prepare_cached(
                    "UPDATE sources SET
                       last_fetch = :at, last_duration_ms = :duration_ms, http_status = :status, error = :error,
                       consecutive_failures = CASE WHEN :error IS NULL THEN 0 ELSE consecutive_failures + 1 END,
                       last_success = CASE WHEN :error IS NULL THEN :at ELSE last_success END,
                       body_hash = COALESCE(:body_hash, body_hash),
                       page_feed = CASE WHEN :body_hash IS NULL THEN page_feed ELSE :page_feed END,
                       health = :health, fresh = 0, next_due = :next_due,
                       update_interval = COALESCE(:interval, update_interval),
                       etag = CASE WHEN :replace_validators THEN :etag ELSE etag END,
                       last_modified = CASE WHEN :replace_validators THEN :last_modified ELSE last_modified END
                     WHERE id = :id",
                )?
                .execute(named_params! {
                    ":id": id.0,
                    ":at": seconds(record.at),
                    ":duration_ms": i64::try_from(record.duration.as_millis()).unwrap_or(i64::MAX),
                    ":status": record.http_status,
                    ":error": record.error,
                    ":health": record.health,
                    ":next_due": seconds(record.next_due),
                    ":interval": record.update_interval.map(duration_secs),
                    ":replace_validators": validators.is_some(),
                    ":etag": validators.and_then(|v| v.etag.as_deref()),
                    ":last_modified": validators.and_then(|v| v.last_modified.as_deref()),
                    ":body_hash": record.body_hash,
                    ":page_feed": record.page_feed.as_ref().map(Url::as_str),
                })?;
            if changed == 0 {
                return Err(StoreError::NoSuchSource(id.0));
            }
            let source = get(&tx, id)?.ok_or(StoreError::NoSuchSource(id.0))?;
            tx.commit()?;
            Ok(source)
        })
    }

    /// Forget what the last fetch of these sources left to skip work (validators, body hash) and
    /// make them due at `now`: their pages are extracted again at the next refresh, e.g. after
    /// a rule that serves them was uploaded or deleted. Returns how many sources there were.
    pub fn reset_sources(&self, ids: &[SourceId], now: DateTime<Utc>) -> Result<usize> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut reset = tx.prepare_cached(
                "UPDATE sources SET etag = NULL, last_modified = NULL, body_hash = NULL, next_due = ?2 WHERE id = ?1",
            )?;
            let mut count = 0;
            for id in ids {
                count += reset.execute(params![id.0, seconds(now)])?;
            }
            drop(reset);
            tx.commit()?;
            Ok(count)
        })
    }

    /// Move a source's next refresh to `next_due` without recording a fetch: a claimed source
    /// handed back because its host may not be asked yet.
    pub fn reschedule(&self, id: SourceId, next_due: DateTime<Utc>) -> Result<()> {
        self.with(|conn| {
            let changed = conn
                .prepare_cached("UPDATE sources SET next_due = ?2 WHERE id = ?1")?
                .execute(params![id.0, seconds(next_due)])?;
            if changed == 0 { Err(StoreError::NoSuchSource(id.0)) } else { Ok(()) }
        })
    }

    /// When the earliest source falls due (`None`: no sources), so that an idle updater knows
    /// how long it may sleep.
    pub fn next_due(&self, filter: DueFilter) -> Result<Option<DateTime<Utc>>> {
        let only = match filter {
            DueFilter::All => "",
            DueFilter::Fresh => "WHERE fresh = 1",
            DueFilter::Normal => "WHERE fresh = 0",
        };
        self.with(|conn| {
            let sql = format!("SELECT min(next_due) FROM sources {only}");
            let due: Option<Seconds> = conn.prepare_cached(&sql)?.query_row([], |row| row.get(0))?;
            Ok(opt_time(due))
        })
    }

    /// Sources due at `now` (`next_due <= now`): fresh ones first, then the longest overdue.
    pub fn due_sources(&self, now: DateTime<Utc>, filter: DueFilter, limit: usize) -> Result<Vec<Source>> {
        self.with(|conn| due(conn, now, filter, limit))
    }

    /// [`Store::due_sources`], and each one's `next_due` pushed to `now + lease` in the same
    /// transaction, so that another worker or poll does not take it too. Recording its fetch
    /// sets the real next due time; a refresh that dies (crash, abandoned at shutdown) leaves
    /// the source due again when the lease runs out.
    pub fn claim_due(
        &self,
        now: DateTime<Utc>,
        filter: DueFilter,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Source>> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut sources = due(&tx, now, filter, limit)?;
            let until = later(now, lease);
            let mut claim = tx.prepare_cached("UPDATE sources SET next_due = ?2 WHERE id = ?1")?;
            for source in &mut sources {
                claim.execute(params![source.id.0, seconds(until)])?;
                source.next_due = until;
            }
            drop(claim);
            tx.commit()?;
            Ok(sources)
        })
    }

    /// Counts for `/metrics` and `/admin`, with "due" counted at `now`.
    pub fn stats(&self, now: DateTime<Utc>) -> Result<Stats> {
        self.with(|conn| {
            let stats = conn
                .prepare_cached(
                    "SELECT count(*), coalesce(sum(fresh), 0), coalesce(sum(next_due <= ?1), 0),
                        coalesce(sum(consecutive_failures > 0), 0), coalesce(sum(health = 'unhealthy'), 0),
                        coalesce(sum(health = 'stopped-matching'), 0), coalesce(sum(item_count), 0),
                        (SELECT count(*) FROM rules), (SELECT count(*) FROM templates)
                 FROM sources",
                )?
                .query_row([seconds(now)], |row| {
                    Ok(Stats {
                        sources: unsigned(row, 0)?,
                        fresh: unsigned(row, 1)?,
                        due: unsigned(row, 2)?,
                        failing: unsigned(row, 3)?,
                        unhealthy: unsigned(row, 4)?,
                        stopped_matching: unsigned(row, 5)?,
                        items: unsigned(row, 6)?,
                        rules: unsigned(row, 7)?,
                        templates: unsigned(row, 8)?,
                    })
                })?;
            Ok(stats)
        })
    }
}

fn due(conn: &rusqlite::Connection, now: DateTime<Utc>, filter: DueFilter, limit: usize) -> Result<Vec<Source>> {
    let only = match filter {
        DueFilter::All => "",
        DueFilter::Fresh => "AND fresh = 1",
        DueFilter::Normal => "AND fresh = 0",
    };
    let sql =
        format!("SELECT {COLUMNS} FROM sources WHERE next_due <= ?1 {only} ORDER BY fresh DESC, next_due, id LIMIT ?2");
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map(params![seconds(now), i64::try_from(limit).unwrap_or(i64::MAX)], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
