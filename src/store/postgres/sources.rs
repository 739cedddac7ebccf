//! Sources on PostgreSQL.

use std::time::Duration;

use tokio_postgres::Row;

use super::client::Sql;
use chrono::{DateTime, Utc};
use url::Url;

use super::{Postgres, bad_value, opt_time, time, unsigned};
use crate::fetch::Validators;
use crate::store::catalog::RuleId;
use crate::store::sources::{
    DueFilter, FeedStamp, FetchRecord, Health, Source, SourceId, SourceSettings, Stats, engine_from_name,
};
use crate::store::{Result, StoreError, duration_secs, later, signed};

const COLUMNS: &str = "id, url, rule_id, full_text, update_interval, engine, confidence, title, page_date, encoding, \
     last_fetch, last_duration_ms, last_change, next_due, http_status, error, consecutive_failures, health, fresh, \
     etag, last_modified, item_count, created, body_hash, last_success, feed_version, page_feed";

pub(super) fn from_row(row: &Row) -> Result<Source> {
    let url: String = row.try_get(1)?;
    let health: String = row.try_get(17)?;
    Ok(Source {
        id: SourceId(row.try_get(0)?),
        url: Url::parse(&url).map_err(|e| bad_value("url", e))?,
        settings: SourceSettings {
            rule: row.try_get::<_, Option<i64>>(2)?.map(RuleId),
            full_text: row.try_get(3)?,
            update_interval: Duration::from_secs(unsigned(row, 4)?),
        },
        engine: row
            .try_get::<_, Option<String>>(5)?
            .map(engine_from_name)
            .transpose()
            .map_err(|e| bad_value("engine", e))?,
        confidence: row.try_get::<_, Option<f64>>(6)?.map(|c| c as f32),
        title: row.try_get(7)?,
        page_date: row
            .try_get::<_, Option<String>>(8)?
            .map(|d| DateTime::parse_from_rfc3339(&d))
            .transpose()
            .map_err(|e| bad_value("page_date", e))?,
        encoding: row.try_get(9)?,
        last_fetch: opt_time(row, 10)?,
        last_duration: row.try_get::<_, Option<i64>>(11)?.map(|ms| Duration::from_millis(ms.max(0) as u64)),
        last_change: opt_time(row, 12)?,
        next_due: time(row, 13)?,
        http_status: row
            .try_get::<_, Option<i64>>(14)?
            .map(u16::try_from)
            .transpose()
            .map_err(|e| bad_value("http_status", e))?,
        error: row.try_get(15)?,
        consecutive_failures: u32::try_from(row.try_get::<_, i64>(16)?)
            .map_err(|e| bad_value("consecutive_failures", e))?,
        health: Health::parse(&health).ok_or_else(|| bad_value("health", format!("unknown health {health:?}")))?,
        fresh: row.try_get(18)?,
        validators: Validators { etag: row.try_get(19)?, last_modified: row.try_get(20)? },
        item_count: unsigned(row, 21)?,
        created: time(row, 22)?,
        body_hash: row.try_get(23)?,
        last_success: opt_time(row, 24)?,
        feed_version: unsigned(row, 25)?,
        // A feed address that no longer parses is only not shown.
        page_feed: row.try_get::<_, Option<String>>(26)?.and_then(|u| Url::parse(&u).ok()),
    })
}

/// A source by its id (`$1`).
pub(super) fn by_id_sql() -> String {
    format!("SELECT {COLUMNS} FROM sources WHERE id = $1")
}

pub(super) fn get(client: &impl Sql, id: SourceId) -> Result<Option<Source>> {
    client.query_opt(&by_id_sql(), &[&id.0])?.as_ref().map(from_row).transpose()
}

fn only(filter: DueFilter) -> &'static str {
    match filter {
        DueFilter::All => "TRUE",
        DueFilter::Fresh => "fresh",
        DueFilter::Normal => "NOT fresh",
    }
}

/// The sources due at `$1`, at most `$2`, in the order they are taken.
fn due_where(filter: DueFilter) -> String {
    format!("WHERE next_due <= $1 AND {} ORDER BY fresh DESC, next_due, id LIMIT $2", only(filter))
}

fn due(client: &impl Sql, now: DateTime<Utc>, filter: DueFilter, limit: usize) -> Result<Vec<Source>> {
    let sql = format!("SELECT {COLUMNS} FROM sources {}", due_where(filter));
    client.query(&sql, &[&now.timestamp(), &signed(limit)])?.iter().map(from_row).collect()
}

impl Postgres {
    pub fn add_source_leased(
        &self,
        url: &Url,
        settings: &SourceSettings,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> Result<(Source, bool)> {
        self.with(|client| {
            let insert = format!(
                "INSERT INTO sources (url, rule_id, full_text, update_interval, next_due, created)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (url) DO NOTHING RETURNING {COLUMNS}"
            );
            let inserted = client.query_opt(
                &insert,
                &[
                    &url.as_str(),
                    &settings.rule.map(|r| r.0),
                    &settings.full_text,
                    &duration_secs(settings.update_interval),
                    &later(now, lease).timestamp(),
                    &now.timestamp(),
                ],
            )?;
            if let Some(row) = inserted {
                return Ok((from_row(&row)?, true));
            }
            // Read committed: the conflicting row is committed, so this statement sees it.
            let select = format!("SELECT {COLUMNS} FROM sources WHERE url = $1");
            Ok((from_row(&client.query_one(&select, &[&url.as_str()])?)?, false))
        })
    }

    pub fn feed_stamp(&self, url: &Url) -> Result<Option<FeedStamp>> {
        self.with(|client| {
            let sql = "SELECT id, feed_version, update_interval, coalesce(last_change, created), item_count, full_text
                       FROM sources WHERE url = $1";
            let Some(row) = client.query_opt(sql, &[&url.as_str()])? else { return Ok(None) };
            Ok(Some(FeedStamp {
                id: SourceId(row.try_get(0)?),
                feed_version: unsigned(&row, 1)?,
                update_interval: Duration::from_secs(unsigned(&row, 2)?),
                last_modified: time(&row, 3)?,
                item_count: unsigned(&row, 4)?,
                full_text: row.try_get(5)?,
            }))
        })
    }

    pub fn source(&self, id: SourceId) -> Result<Option<Source>> {
        self.with(|client| get(client, id))
    }

    pub fn source_by_url(&self, url: &Url) -> Result<Option<Source>> {
        self.with(|client| {
            let sql = format!("SELECT {COLUMNS} FROM sources WHERE url = $1");
            client.query_opt(&sql, &[&url.as_str()])?.as_ref().map(from_row).transpose()
        })
    }

    pub fn sources(&self) -> Result<Vec<Source>> {
        self.with(|client| {
            let sql = format!("SELECT {COLUMNS} FROM sources ORDER BY url");
            client.query(&sql, &[])?.iter().map(from_row).collect()
        })
    }

    pub fn update_settings(&self, id: SourceId, settings: &SourceSettings) -> Result<()> {
        self.with(|client| {
            let changed = client.execute(
                "UPDATE sources SET rule_id = $2, full_text = $3, update_interval = $4 WHERE id = $1",
                &[&id.0, &settings.rule.map(|r| r.0), &settings.full_text, &duration_secs(settings.update_interval)],
            )?;
            if changed == 0 { Err(StoreError::NoSuchSource(id.0)) } else { Ok(()) }
        })
    }

    pub fn set_full_text(&self, id: SourceId, on: bool, now: DateTime<Utc>) -> Result<bool> {
        self.with(|client| {
            let changed = client.execute(
                "UPDATE sources SET full_text = $2, next_due = CASE WHEN $2 THEN least(next_due, $3) ELSE next_due END
                 WHERE id = $1 AND full_text IS DISTINCT FROM $2",
                &[&id.0, &on, &now.timestamp()],
            )?;
            Ok(changed == 1)
        })
    }

    pub fn delete_source(&self, id: SourceId) -> Result<bool> {
        self.with(|client| Ok(client.execute("DELETE FROM sources WHERE id = $1", &[&id.0])? == 1))
    }

    pub fn record_fetch(&self, id: SourceId, record: &FetchRecord) -> Result<Source> {
        self.with(|client| {
            let validators = record.validators.as_ref();
            // One statement, so the row it returns is the row it wrote.
            let sql = format!(
                "UPDATE sources SET
                   last_fetch = $2, last_duration_ms = $3, http_status = $4, error = $5,
                   consecutive_failures = CASE WHEN $5::text IS NULL THEN 0 ELSE consecutive_failures + 1 END,
                   last_success = CASE WHEN $5::text IS NULL THEN $2 ELSE last_success END,
                   body_hash = coalesce($6, body_hash),
                   page_feed = CASE WHEN $6::text IS NULL THEN page_feed ELSE $7 END,
                   health = $8, fresh = FALSE, next_due = $9,
                   update_interval = coalesce($10, update_interval),
                   etag = CASE WHEN $11::boolean THEN $12 ELSE etag END,
                   last_modified = CASE WHEN $11::boolean THEN $13 ELSE last_modified END
                 WHERE id = $1 RETURNING {COLUMNS}"
            );
            let row = client.query_opt(
                &sql,
                &[
                    &id.0,
                    &record.at.timestamp(),
                    &signed(record.duration.as_millis()),
                    &record.http_status.map(i64::from),
                    &record.error,
                    &record.body_hash,
                    &record.page_feed.as_ref().map(Url::as_str),
                    &record.health.as_str(),
                    &record.next_due.timestamp(),
                    &record.update_interval.map(duration_secs),
                    &validators.is_some(),
                    &validators.and_then(|v| v.etag.as_deref()),
                    &validators.and_then(|v| v.last_modified.as_deref()),
                ],
            )?;
            from_row(&row.ok_or(StoreError::NoSuchSource(id.0))?)
        })
    }

    pub fn reset_sources(&self, ids: &[SourceId], now: DateTime<Utc>) -> Result<usize> {
        let ids: Vec<i64> = ids.iter().map(|id| id.0).collect();
        self.with(|client| {
            let reset = client.execute(
                "UPDATE sources SET etag = NULL, last_modified = NULL, body_hash = NULL, next_due = $2
                 WHERE id = ANY($1)",
                &[&ids, &now.timestamp()],
            )?;
            Ok(usize::try_from(reset).unwrap_or(usize::MAX))
        })
    }

    pub fn reschedule(&self, id: SourceId, next_due: DateTime<Utc>) -> Result<()> {
        self.with(|client| {
            let changed =
                client.execute("UPDATE sources SET next_due = $2 WHERE id = $1", &[&id.0, &next_due.timestamp()])?;
            if changed == 0 { Err(StoreError::NoSuchSource(id.0)) } else { Ok(()) }
        })
    }

    pub fn next_due(&self, filter: DueFilter) -> Result<Option<DateTime<Utc>>> {
        self.with(|client| {
            let sql = format!("SELECT min(next_due) FROM sources WHERE {}", only(filter));
            opt_time(&client.query_one(&sql, &[])?, 0)
        })
    }

    pub fn due_sources(&self, now: DateTime<Utc>, filter: DueFilter, limit: usize) -> Result<Vec<Source>> {
        self.with(|client| due(client, now, filter, limit))
    }

    /// The due rows are locked (`FOR UPDATE SKIP LOCKED`) until their new due time commits:
    /// a server claiming at the same moment passes over them and takes the next ones.
    pub fn claim_due(
        &self,
        now: DateTime<Utc>,
        filter: DueFilter,
        limit: usize,
        lease: Duration,
    ) -> Result<Vec<Source>> {
        // One statement: the lock, the lease and the rows in one round trip.
        let sql = format!(
            "WITH due AS (SELECT id AS due_id, next_due AS was FROM sources {} FOR UPDATE SKIP LOCKED)
             UPDATE sources SET next_due = $3 FROM due WHERE id = due_id RETURNING {COLUMNS}, was",
            due_where(filter)
        );
        let until = later(now, lease).timestamp();
        self.with(|client| {
            let rows = client.query(&sql, &[&now.timestamp(), &signed(limit), &until])?;
            let mut claimed = rows
                .iter()
                .map(|row| Ok((from_row(row)?, row.try_get::<_, i64>("was")?)))
                .collect::<Result<Vec<_>>>()?;
            // RETURNING keeps no order: the order they were taken in.
            claimed.sort_by_key(|(source, was)| (!source.fresh, *was, source.id.0));
            Ok(claimed.into_iter().map(|(source, _)| source).collect())
        })
    }

    pub fn stats(&self, now: DateTime<Utc>) -> Result<Stats> {
        self.with(|client| {
            let row = client.query_one(
                "SELECT count(*), count(*) FILTER (WHERE fresh), count(*) FILTER (WHERE next_due <= $1),
                        count(*) FILTER (WHERE consecutive_failures > 0), count(*) FILTER (WHERE health = 'unhealthy'),
                        count(*) FILTER (WHERE health = 'stopped-matching'), coalesce(sum(item_count), 0)::bigint,
                        (SELECT count(*) FROM rules), (SELECT count(*) FROM templates)
                 FROM sources",
                &[&now.timestamp()],
            )?;
            Ok(Stats {
                sources: unsigned(&row, 0)?,
                fresh: unsigned(&row, 1)?,
                due: unsigned(&row, 2)?,
                failing: unsigned(&row, 3)?,
                unhealthy: unsigned(&row, 4)?,
                stopped_matching: unsigned(&row, 5)?,
                items: unsigned(&row, 6)?,
                rules: unsigned(&row, 7)?,
                templates: unsigned(&row, 8)?,
            })
        })
    }
}
