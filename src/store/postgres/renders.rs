//! Renders on PostgreSQL. The body is `BYTEA`: it holds a NUL, which `TEXT` cannot.

use std::time::Duration;

use super::client::Sql;
use super::{Postgres, bad_value, time, unsigned};
use crate::feed::Format;
use crate::store::renders::StoredRender;
use crate::store::sources::SourceId;
use crate::store::{Result, duration_secs, signed};

impl Postgres {
    /// `FOR SHARE` holds the source's row until the renders are in: a merge that would make
    /// them stale waits for this transaction, then bumps the version past them.
    pub fn put_renders(&self, id: SourceId, renders: &[StoredRender]) -> Result<bool> {
        // One statement for every format: all are kept or none.
        let formats: Vec<String> = renders.iter().map(|r| r.format.to_string()).collect();
        let versions: Vec<i64> = renders.iter().map(|r| signed(r.feed_version)).collect();
        let intervals: Vec<i64> = renders.iter().map(|r| duration_secs(r.update_interval)).collect();
        let limits: Vec<i64> = renders.iter().map(|r| signed(r.item_limit)).collect();
        let modified: Vec<i64> = renders.iter().map(|r| r.last_modified.timestamp()).collect();
        let etags: Vec<&str> = renders.iter().map(|r| r.etag.as_str()).collect();
        let bodies: Vec<&[u8]> = renders.iter().map(|r| r.body.as_bytes()).collect();
        self.with(|client| {
            let put = "INSERT INTO renders
                   (source_id, format, feed_version, update_interval, item_limit, last_modified, etag, body)
                 SELECT s.id, r.format, r.feed_version, r.update_interval, r.item_limit, r.last_modified, r.etag, r.body
                 FROM sources s,
                      unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[],
                             $8::bytea[])
                        AS r (format, feed_version, update_interval, item_limit, last_modified, etag, body)
                 WHERE s.id = $1 AND s.feed_version = r.feed_version AND s.update_interval = r.update_interval
                 FOR SHARE OF s
                 ON CONFLICT (source_id, format) DO UPDATE SET
                   feed_version = excluded.feed_version, update_interval = excluded.update_interval,
                   item_limit = excluded.item_limit, last_modified = excluded.last_modified,
                   etag = excluded.etag, body = excluded.body";
            let kept =
                client.execute(put, &[&id.0, &formats, &versions, &intervals, &limits, &modified, &etags, &bodies])?;
            Ok(kept == renders.len() as u64)
        })
    }

    pub fn render(&self, id: SourceId, format: Format) -> Result<Option<StoredRender>> {
        self.with(|client| {
            let row = client.query_opt(
                "SELECT feed_version, update_interval, item_limit, last_modified, etag, body
                 FROM renders WHERE source_id = $1 AND format = $2",
                &[&id.0, &format.to_string()],
            )?;
            let Some(row) = row else { return Ok(None) };
            Ok(Some(StoredRender {
                format,
                feed_version: unsigned(&row, 0)?,
                update_interval: Duration::from_secs(unsigned(&row, 1)?),
                item_limit: usize::try_from(unsigned(&row, 2)?).map_err(|e| bad_value("item_limit", e))?,
                last_modified: time(&row, 3)?,
                etag: row.try_get(4)?,
                body: String::from_utf8(row.try_get(5)?).map_err(|e| bad_value("body", e))?,
            }))
        })
    }

    pub fn renders_current(&self, id: SourceId, item_limit: usize) -> Result<bool> {
        self.with(|client| {
            // Renders are kept all formats at once, so one tells for all.
            let row = client.query_one(
                "SELECT EXISTS (SELECT 1 FROM renders r JOIN sources s ON s.id = r.source_id
                                WHERE r.source_id = $1 AND r.format = 'rss' AND r.item_limit = $2
                                  AND r.feed_version = s.feed_version AND r.update_interval = s.update_interval)",
                &[&id.0, &signed(item_limit)],
            )?;
            Ok(row.try_get(0)?)
        })
    }
}
