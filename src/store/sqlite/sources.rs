//! Sources on SQLite.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{OptionalExtension, Row, ToSql, TransactionBehavior, named_params, params};
use url::Url;

use super::{Rfc3339, Seconds, Sqlite, bad_column, opt_time, seconds, unsigned};
use crate::fetch::Validators;
use crate::store::catalog::RuleId;
use crate::store::sources::{
    DueFilter, FeedStamp, FetchRecord, Health, Source, SourceId, SourceSettings, Stats, engine_from_name,
};
use crate::store::{Result, StoreError, duration_secs, later};

impl ToSql for Health {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for Health {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Health::parse(value.as_str()?).ok_or(FromSqlError::InvalidType)
    }
}

const COLUMNS: &str = "id, url, rule_id, full_text, update_interval, engine, confidence, title, page_date, encoding, \
     last_fetch, last_duration_ms, last_change, next_due, http_status, error, consecutive_failures, health, fresh, \
     etag, last_modified, item_count, created, body_hash, last_success, feed_version, page_feed";

fn from_row(row: &Row) -> rusqlite::Result<Source> {
    let url: String = row.get(1)?;
    let engine = match row.get::<_, Option<String>>(5)? {
        Some(name) => Some(engine_from_name(name).map_err(|e| bad_column(5, e))?),
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

pub(super) fn get(conn: &rusqlite::Connection, id: SourceId) -> Result<Option<Source>> {
    let sql = format!("SELECT {COLUMNS} FROM sources WHERE id = ?1");
    Ok(conn.prepare_cached(&sql)?.query_row([id.0], from_row).optional()?)
}

impl Sqlite {
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

    pub fn delete_source(&self, id: SourceId) -> Result<bool> {
        self.with(|conn| Ok(conn.prepare_cached("DELETE FROM sources WHERE id = ?1")?.execute([id.0])? == 1))
    }

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

    pub fn reschedule(&self, id: SourceId, next_due: DateTime<Utc>) -> Result<()> {
        self.with(|conn| {
            let changed = conn
                .prepare_cached("UPDATE sources SET next_due = ?2 WHERE id = ?1")?
                .execute(params![id.0, seconds(next_due)])?;
            if changed == 0 { Err(StoreError::NoSuchSource(id.0)) } else { Ok(()) }
        })
    }

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

    pub fn due_sources(&self, now: DateTime<Utc>, filter: DueFilter, limit: usize) -> Result<Vec<Source>> {
        self.with(|conn| due(conn, now, filter, limit))
    }

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
