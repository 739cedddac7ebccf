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
        self.with(|client| {
            let tx = client.transaction()?;
            let put = "INSERT INTO renders
                   (source_id, format, feed_version, update_interval, item_limit, last_modified, etag, body)
                 SELECT id, $2::text, $3::bigint, $4::bigint, $5::bigint, $6::bigint, $7::text, $8::bytea
                 FROM sources WHERE id = $1 AND feed_version = $3 AND update_interval = $4 FOR SHARE
                 ON CONFLICT (source_id, format) DO UPDATE SET
                   feed_version = excluded.feed_version, update_interval = excluded.update_interval,
                   item_limit = excluded.item_limit, last_modified = excluded.last_modified,
                   etag = excluded.etag, body = excluded.body";
            for render in renders {
                let kept = tx.execute(
                    put,
                    &[
                        &id.0,
                        &render.format.to_string(),
                        &signed(render.feed_version),
                        &duration_secs(render.update_interval),
                        &signed(render.item_limit),
                        &render.last_modified.timestamp(),
                        &render.etag,
                        &render.body.as_bytes(),
                    ],
                )?;
                if kept == 0 {
                    return Ok(false);
                }
            }
            tx.commit()?;
            Ok(true)
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
