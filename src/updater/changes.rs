//! Which sources' feeds this process changed, so that the web server can keep what it read
//! from the store (a feed's stamp) until the feed changes, without asking the store on every
//! request. Every refresh touches its source after its store writes are committed, which gives
//! the source the next change number. A reader notes the current number before it reads the
//! store; what it read stays good while the source's number is not above the one it noted.
//!
//! On a shared store the other servers' changes are touched here too, as the store tells them
//! ([`super::follow_store`]).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use crate::store::SourceId;

#[derive(Debug, Default)]
pub struct FeedChanges {
    inner: Mutex<Changes>,
}

#[derive(Debug, Default)]
struct Changes {
    /// The last change number of each source changed since start.
    sources: HashMap<SourceId, u64>,
    /// The number of the last change of every source at once.
    all: u64,
    next: u64,
}

impl FeedChanges {
    /// The source's feed (its items, title, update interval) may have changed.
    pub fn touch(&self, id: SourceId) {
        let mut changes = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        changes.next += 1;
        let number = changes.next;
        changes.sources.insert(id, number);
    }

    /// Every source's feed may have changed (changes were not told while the store's listener
    /// was away).
    pub fn touch_all(&self) {
        let mut changes = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        changes.next += 1;
        changes.all = changes.next;
        // Every number kept is below `all` now.
        changes.sources.clear();
    }

    /// The number of the last change: note it before reading the store.
    pub fn current(&self) -> u64 {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).next
    }

    /// The number of the source's last change (0: none since start).
    pub fn number(&self, id: SourceId) -> u64 {
        let changes = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        changes.sources.get(&id).copied().unwrap_or(changes.all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_change_only_for_the_touched_source() {
        let changes = FeedChanges::default();
        assert_eq!(changes.number(SourceId(1)), 0);
        let noted = changes.current();
        changes.touch(SourceId(1));
        assert!(changes.number(SourceId(1)) > noted, "a read noted before the change is stale");
        let first = changes.number(SourceId(1));
        assert!(first > 0);
        changes.touch(SourceId(2));
        assert_eq!(changes.number(SourceId(1)), first);
        changes.touch(SourceId(1));
        assert!(changes.number(SourceId(1)) > first);
    }

    #[test]
    fn touching_all_makes_every_earlier_read_stale() {
        let changes = FeedChanges::default();
        changes.touch(SourceId(1));
        let noted = changes.current();
        changes.touch_all();
        assert!(changes.number(SourceId(1)) > noted, "a source changed before");
        assert!(changes.number(SourceId(2)) > noted, "a source never changed");
        let after = changes.current();
        assert_eq!(changes.number(SourceId(2)), after, "a read noted after is good");
        changes.touch(SourceId(2));
        assert!(changes.number(SourceId(2)) > after);
        assert_eq!(changes.number(SourceId(1)), after);
    }
}
