//! Rendered feeds kept ready to serve. Writing a feed costs more than reading it from the
//! store, so `/rss` keeps the text of recently asked feeds, keyed by source, format and the
//! address readers use (it is in the feed's self link), and checks on every request that the
//! store's feed has not moved on (its version and interval, which sets the `ttl`). The cache
//! holds at most a budget of bytes and forgets the oldest entries first.
//!
//! Hand-written rather than moka (a `sync::Cache` with a byte weigher): in `bench_rss.sh`
//! (10,000 feeds, 8 MiB) moka served requests spread over all feeds at 0.31-0.34 of
//! `/healthz`, this one at 0.38 (its inserts cost more, and nearly every request there is one).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, Utc};

use url::Url;

use crate::feed::Format;
use crate::store::{FeedStamp, SourceId};
use crate::updater::FeedChanges;

/// Stamps kept at most (they are small); when full, the kept ones are dropped.
const MAX_STAMPS: usize = 200_000;

/// The stamps of stored feeds by page URL, so that a request for a feed nothing changed needs
/// no store read at all.
pub struct StampCache {
    /// How long a stamp is trusted without asking again, even when no change was told: the
    /// store may be written by another process too (`stamp_ttl`).
    ttl: Duration,
    stamps: Mutex<HashMap<Url, Known>>,
}

struct Known {
    stamp: FeedStamp,
    /// The change number noted before the stamp was read.
    noted: u64,
    read_at: Instant,
}

impl StampCache {
    pub fn new(ttl: Duration) -> StampCache {
        StampCache { ttl, stamps: Mutex::default() }
    }

    /// The stamp of `url`'s feed, if the one kept is still good.
    pub fn get(&self, url: &Url, changes: &FeedChanges, now: Instant) -> Option<FeedStamp> {
        let stamps = self.stamps.lock().unwrap_or_else(PoisonError::into_inner);
        let known = stamps.get(url)?;
        let fresh = now.duration_since(known.read_at) < self.ttl && changes.number(known.stamp.id) <= known.noted;
        fresh.then_some(known.stamp)
    }

    /// Keep a stamp read after noting the change number `noted`.
    pub fn put(&self, url: &Url, stamp: FeedStamp, noted: u64, now: Instant) {
        let mut stamps = self.stamps.lock().unwrap_or_else(PoisonError::into_inner);
        if stamps.len() >= MAX_STAMPS {
            stamps.clear();
        }
        stamps.insert(url.clone(), Known { stamp, noted, read_at: now });
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CacheKey {
    pub source: SourceId,
    pub format: Format,
    /// The self link's address: the configured public URL or the request's host.
    pub origin: Arc<str>,
    /// The access token in the self link, when feeds have tokens.
    pub token: bool,
    /// The feed options (`include`, `exclude`, `limit`) as a query, empty without them.
    pub filter: Arc<str>,
}

/// A feed's text and its validators.
#[derive(Debug)]
pub struct Rendered {
    pub feed_version: u64,
    pub update_interval: Duration,
    pub body: Bytes,
    /// A strong validator: a hash of the body.
    pub etag: String,
    pub last_modified: DateTime<Utc>,
}

impl Rendered {
    pub fn is_current(&self, stamp: &FeedStamp) -> bool {
        self.feed_version == stamp.feed_version && self.update_interval == stamp.update_interval
    }
}

pub struct FeedCache {
    budget: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<CacheKey, Arc<Rendered>>,
    /// Keys in insertion order, for eviction.
    order: VecDeque<CacheKey>,
    bytes: usize,
}

impl FeedCache {
    pub fn new(budget: usize) -> FeedCache {
        FeedCache { budget, inner: Mutex::new(Inner::default()) }
    }

    /// The cached text, if it is still what the store would give.
    pub fn get(&self, key: &CacheKey, stamp: &FeedStamp) -> Option<Arc<Rendered>> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.entries.get(key).filter(|r| r.is_current(stamp)).cloned()
    }

    pub fn put(&self, key: CacheKey, rendered: Arc<Rendered>) {
        let size = rendered.body.len() + key.origin.len();
        if size > self.budget {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        match inner.entries.insert(key.clone(), rendered) {
            Some(old) => inner.bytes -= old.body.len() + key.origin.len(),
            None => inner.order.push_back(key),
        }
        inner.bytes += size;
        while inner.bytes > self.budget {
            let Some(oldest) = inner.order.pop_front() else { break };
            if let Some(old) = inner.entries.remove(&oldest) {
                inner.bytes -= old.body.len() + oldest.origin.len();
            }
        }
    }

    /// Entries and bytes held, for `/metrics`.
    pub fn usage(&self) -> (usize, usize) {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        (inner.entries.len(), inner.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: i64) -> CacheKey {
        CacheKey {
            source: SourceId(id),
            format: Format::Rss,
            origin: Arc::from("http://h"),
            token: false,
            filter: Arc::from(""),
        }
    }

    fn rendered(version: u64, size: usize) -> Arc<Rendered> {
        Arc::new(Rendered {
            feed_version: version,
            update_interval: Duration::from_secs(60),
            body: Bytes::from(vec![b'x'; size]),
            etag: String::new(),
            last_modified: DateTime::<Utc>::MIN_UTC,
        })
    }

    fn stamp(id: i64, version: u64) -> FeedStamp {
        FeedStamp {
            id: SourceId(id),
            feed_version: version,
            update_interval: Duration::from_secs(60),
            last_modified: DateTime::<Utc>::MIN_UTC,
            item_count: 1,
            full_text: false,
        }
    }

    #[test]
    fn stamps_are_kept_until_their_source_changes_or_they_age() {
        let ttl = Duration::from_secs(10);
        let cache = StampCache::new(ttl);
        let changes = FeedChanges::default();
        let url = Url::parse("https://example.org/").unwrap();
        let t0 = Instant::now();
        assert!(cache.get(&url, &changes, t0).is_none());
        let noted = changes.current();
        cache.put(&url, stamp(1, 1), noted, t0);
        assert_eq!(cache.get(&url, &changes, t0), Some(stamp(1, 1)));
        changes.touch(SourceId(2));
        assert!(cache.get(&url, &changes, t0).is_some(), "another source changed");
        changes.touch(SourceId(1));
        assert!(cache.get(&url, &changes, t0).is_none(), "its source changed");
        cache.put(&url, stamp(1, 2), changes.current(), t0);
        assert!(cache.get(&url, &changes, t0 + ttl).is_none(), "too old");
    }

    #[test]
    fn entries_are_current_until_the_feed_moves_on_and_the_oldest_go_first() {
        let cache = FeedCache::new(100);
        cache.put(key(1), rendered(1, 40));
        assert!(cache.get(&key(1), &stamp(1, 1)).is_some());
        assert!(cache.get(&key(1), &stamp(1, 2)).is_none(), "a newer version");
        let longer = FeedStamp { update_interval: Duration::from_secs(120), ..stamp(1, 1) };
        assert!(cache.get(&key(1), &longer).is_none(), "another ttl");
        cache.put(key(2), rendered(1, 40));
        cache.put(key(1), rendered(2, 40));
        assert_eq!(cache.usage(), (2, 96));
        cache.put(key(3), rendered(1, 40));
        assert!(cache.get(&key(1), &stamp(1, 2)).is_none(), "the oldest key went first");
        assert!(cache.get(&key(3), &stamp(3, 1)).is_some());
        cache.put(key(4), rendered(1, 500));
        assert!(cache.get(&key(4), &stamp(4, 1)).is_none(), "larger than the budget");
        assert!(cache.usage().1 <= 100);
    }
}
