//! Renders: each source's feed as last written, in every format, so that serving a feed is one
//! point read instead of reading and writing its items. What a render is made of (the feed
//! writer, the item count) is the caller's; the store only keeps it, and keeps it only while
//! it is of the source's current feed.

use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::sources::{FeedStamp, SourceId};
use super::{Result, Seconds, Store, bad_column, duration_secs, seconds, unsigned};
use crate::feed::Format;

/// A source's feed in one format as written for keeping, and what it was written from.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRender {
    pub format: Format,
    pub feed_version: u64,
    /// The update interval it was written with (its `ttl`).
    pub update_interval: Duration,
    /// The newest items it holds at most.
    pub item_limit: usize,
    pub last_modified: DateTime<Utc>,
    /// A strong validator of the body.
    pub etag: String,
    /// The feed's text; see [`crate::feed::FeedTemplate`].
    pub body: String,
}

impl StoredRender {
    /// Whether it is the feed the stamp describes, with `item_limit` items at most.
    pub fn is_current(&self, stamp: &FeedStamp, item_limit: usize) -> bool {
        self.feed_version == stamp.feed_version
            && self.update_interval == stamp.update_interval
            && self.item_limit == item_limit
    }
}

impl Store {
    /// Keep a source's renders, replacing the ones it had, in one transaction: only when the
    /// source's feed is still the one they were written from (a render of an older version
    /// never replaces a newer one). Whether they were kept.
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
                        i64::try_from(render.feed_version).unwrap_or(i64::MAX),
                        duration_secs(render.update_interval),
                        i64::try_from(render.item_limit).unwrap_or(i64::MAX),
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

    /// The source's kept render in `format`, whichever feed version it is of.
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

    /// Whether the source's kept renders are of its current feed with `item_limit` items.
    pub fn renders_current(&self, id: SourceId, item_limit: usize) -> Result<bool> {
        self.with(|conn| {
            // Renders are kept all formats at once, so one tells for all.
            let current = conn
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM renders r JOIN sources s ON s.id = r.source_id
                                    WHERE r.source_id = ?1 AND r.format = 'rss' AND r.item_limit = ?2
                                      AND r.feed_version = s.feed_version AND r.update_interval = s.update_interval)",
                )?
                .query_row(params![id.0, i64::try_from(item_limit).unwrap_or(i64::MAX)], |row| row.get(0))?;
            Ok(current)
        })
    }
}
