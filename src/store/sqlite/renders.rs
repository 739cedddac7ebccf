//! Renders on SQLite.

use std::time::Duration;

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{Seconds, Sqlite, bad_column, seconds, unsigned};
use crate::feed::Format;
use crate::store::renders::StoredRender;
use crate::store::sources::SourceId;
use crate::store::{Result, duration_secs, signed};

impl Sqlite {
    pub fn put_renders(&self, id: SourceId, renders: &[StoredRender]) -> Result<bool> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut kept = 0;
            {
                let mut put = tx.prepare_cached(
                    "INSERT OR REPLACE INTO renders
                       (source_id, format, feed_version, update_interval, item_limit, last_modified, etag, body)
                     SELECT id, ?2, ?3, ?4, ?5, ?6, ?7, ?8 FROM sources
                     WHERE id = ?1 AND feed_version = ?3 AND update_interval = ?4",
                )?;
                for render in renders {
                    kept += put.execute(params![
                        id.0,
                        render.format.to_string(),
                        signed(render.feed_version),
                        duration_secs(render.update_interval),
                        signed(render.item_limit),
                        seconds(render.last_modified),
                        render.etag,
                        render.body,
                    ])?;
                }
            }
            if kept < renders.len() {
                return Ok(false);
            }
            tx.commit()?;
            Ok(true)
        })
    }

    pub fn render(&self, id: SourceId, format: Format) -> Result<Option<StoredRender>> {
        self.with(|conn| {
            let render = conn
                .prepare_cached(
                    "SELECT feed_version, update_interval, item_limit, last_modified, etag, body
                     FROM renders WHERE source_id = ?1 AND format = ?2",
                )?
                .query_row(params![id.0, format.to_string()], |row| {
                    Ok(StoredRender {
                        format,
                        feed_version: unsigned(row, 0)?,
                        update_interval: Duration::from_secs(unsigned(row, 1)?),
                        item_limit: usize::try_from(unsigned(row, 2)?).map_err(|e| bad_column(2, e))?,
                        last_modified: row.get::<_, Seconds>(3)?.0,
                        etag: row.get(4)?,
                        body: row.get(5)?,
                    })
                })
                .optional()?;
            Ok(render)
        })
    }

    pub fn renders_current(&self, id: SourceId, item_limit: usize) -> Result<bool> {
        self.with(|conn| {
            // Renders are kept all formats at once, so one tells for all.
            let current = conn
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM renders r JOIN sources s ON s.id = r.source_id
                                    WHERE r.source_id = ?1 AND r.format = 'rss' AND r.item_limit = ?2
                                      AND r.feed_version = s.feed_version AND r.update_interval = s.update_interval)",
                )?
                .query_row(params![id.0, signed(item_limit)], |row| row.get(0))?;
            Ok(current)
        })
    }
}
