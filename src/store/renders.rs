//! Renders: each source's feed as last written, in every format, so that serving a feed is one
//! point read instead of reading and writing its items. What a render is made of (the feed
//! writer, the item count) is the caller's; the store only keeps it, and keeps it only while
//! it is of the source's current feed.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::sources::{FeedStamp, SourceId};
use super::{Result, Store, backend};
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
        backend!(self, put_renders(id, renders))
    }

    /// The source's kept render in `format`, whichever feed version it is of.
    pub fn render(&self, id: SourceId, format: Format) -> Result<Option<StoredRender>> {
        backend!(self, render(id, format))
    }

    /// Whether the source's kept renders are of its current feed with `item_limit` items.
    pub fn renders_current(&self, id: SourceId, item_limit: usize) -> Result<bool> {
        backend!(self, renders_current(id, item_limit))
    }
}
