//! When a source is refreshed next: adaptive intervals after a success, back-off after a failure.
//!
//! The interval follows how often the page really gets new items. Update intervals range from
//! minutes to weeks across sites (data-objects paper §3), so one fixed interval either hammers
//! quiet pages or misses busy ones. An item "arrives" at its date, or when we first saw it if
//! that was earlier (a date in the future is a time-zone slip, not a promise); the newest
//! arrivals give the rate. The gap is measured up to `now`, so a page that went quiet slows
//! down by itself even though no item tells us so.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::fetch::Backoff;
use crate::store::{Health, Source, StoredItem};

/// How many of the newest items the rate is estimated from.
pub const RATE_WINDOW: usize = 10;

/// The updater's timing policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// The interval of a new source, until its items say otherwise.
    pub default_interval: Duration,
    pub min_interval: Duration,
    pub max_interval: Duration,
    /// After failures (per source, and per host in the gate).
    pub backoff: Backoff,
    /// A source that has not been fetched successfully for this long is unhealthy: it is
    /// refreshed only once per `backoff.max`, and never dropped.
    pub unhealthy_after: Duration,
}

impl Schedule {
    /// The interval after a successful refresh, from the source's newest items (as the store
    /// orders them: newest first); fewer than two items keep `current`.
    pub fn adapt(&self, items: &[StoredItem], now: DateTime<Utc>, current: Duration) -> Duration {
        let mut arrivals: Vec<DateTime<Utc>> = items
            .iter()
            .map(|stored| {
                let dated = stored.item.date.map_or(stored.first_seen, |d| d.with_timezone(&Utc));
                dated.min(stored.first_seen)
            })
            .collect();
        if arrivals.len() < 2 {
            return current.clamp(self.min_interval, self.max_interval);
        }
        arrivals.sort_unstable_by(|a, b| b.cmp(a));
        arrivals.truncate(RATE_WINDOW);
        let oldest = arrivals[arrivals.len() - 1];
        // The mean time between arrivals, counting the quiet time since the newest one.
        let span = (now - oldest).to_std().unwrap_or(Duration::ZERO);
        let gap = span / arrivals.len() as u32;
        gap.clamp(self.min_interval, self.max_interval)
    }

    /// Health and the delay before the next try after a failed refresh (`failures` counts this
    /// one). `retry_after` is what the server asked for. A source whose last success (or, never
    /// successful, its creation) is older than `unhealthy_after` is unhealthy and slowed to
    /// `backoff.max`; `stopped_matching` marks a page that is fetched but gives no items any
    /// more while the source has items.
    pub fn after_failure(
        &self,
        source: &Source,
        failures: u32,
        retry_after: Option<Duration>,
        stopped_matching: bool,
        now: DateTime<Utc>,
    ) -> (Health, Duration) {
        let failing_since = source.last_success.unwrap_or(source.created);
        let unhealthy = (now - failing_since).to_std().is_ok_and(|d| d >= self.unhealthy_after);
        // A server's `Retry-After` is honoured up to the longest backoff: a year (hostile, or a
        // mistake) would silence the feed, and unhealthy sources are tried that often anyway.
        let asked = retry_after.unwrap_or(Duration::ZERO).min(self.backoff.max);
        let mut delay = self.backoff.delay(failures).max(asked);
        if unhealthy {
            delay = delay.max(self.backoff.max);
        }
        let health = match (stopped_matching, unhealthy) {
            (true, _) => Health::StoppedMatching,
            (false, true) => Health::Unhealthy,
            (false, false) => Health::Failing,
        };
        (health, delay)
    }

    /// The RSS `ttl` for a source refreshed every `interval`: readers need not ask more often.
    pub fn ttl_minutes(interval: Duration) -> u32 {
        u32::try_from(interval.as_secs().div_ceil(60)).unwrap_or(u32::MAX).max(1)
    }
}

/// `t + d`, saturating.
pub fn after(t: DateTime<Utc>, d: Duration) -> DateTime<Utc> {
    chrono::TimeDelta::from_std(d).ok().and_then(|d| t.checked_add_signed(d)).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;
    use crate::store::DateOrigin;
    use chrono::TimeZone;

    const HOUR: Duration = Duration::from_secs(3600);

    fn schedule() -> Schedule {
        Schedule {
            default_interval: HOUR,
            min_interval: Duration::from_secs(600),
            max_interval: Duration::from_secs(7 * 24 * 3600),
            backoff: Backoff { base: Duration::from_secs(300), max: Duration::from_secs(24 * 3600) },
            unhealthy_after: Duration::from_secs(3 * 24 * 3600),
        }
    }

    fn at(hours: i64) -> DateTime<Utc> {
        Utc.timestamp_opt(1_700_000_000 + hours * 3600, 0).unwrap()
    }

    fn stored(date: Option<DateTime<Utc>>, first_seen: DateTime<Utc>) -> StoredItem {
        let mut item = Item::new("x");
        item.date = date.map(|d| d.fixed_offset());
        let date_origin = if date.is_some() { DateOrigin::Page } else { DateOrigin::FirstSeen };
        StoredItem { guid: "g".into(), subject: None, item, date_origin, first_seen, last_seen: first_seen }
    }

    #[test]
    fn the_interval_follows_the_rate_of_new_items_within_bounds() {
        let s = schedule();
        // A daily page, seen now: ten items a day apart.
        let daily: Vec<_> = (0..20).map(|d| stored(Some(at(-24 * d)), at(0))).collect();
        assert_eq!(s.adapt(&daily, at(0), HOUR), Duration::from_secs(9 * 24 * 3600 / 10));
        // Quiet for ten days since: slower.
        assert_eq!(s.adapt(&daily, at(240), HOUR), Duration::from_secs(19 * 24 * 3600 / 10));
        // Busy: ten items in the last ten minutes, clamped to the minimum.
        let busy: Vec<_> = (0..10).map(|m| stored(None, at(0) - chrono::TimeDelta::minutes(m))).collect();
        assert_eq!(s.adapt(&busy, at(0), HOUR), s.min_interval);
        // Years-old dates: the maximum.
        let old: Vec<_> = (0..10).map(|y| stored(Some(at(-24 * 365 * (y + 1))), at(0))).collect();
        assert_eq!(s.adapt(&old, at(0), HOUR), s.max_interval);
        // Future dates count as first seen; one item keeps the interval.
        let future = vec![stored(Some(at(1000)), at(-5)), stored(Some(at(2000)), at(-10))];
        assert_eq!(s.adapt(&future, at(0), HOUR), Duration::from_secs(5 * 3600));
        assert_eq!(s.adapt(&daily[..1], at(0), HOUR), HOUR);
    }

    fn source(created: DateTime<Utc>, last_success: Option<DateTime<Utc>>) -> Source {
        Source {
            id: crate::store::SourceId(1),
            url: url::Url::parse("https://example.org/").unwrap(),
            settings: crate::store::SourceSettings { rule: None, full_text: false, update_interval: HOUR },
            engine: None,
            confidence: None,
            title: None,
            page_date: None,
            encoding: None,
            last_fetch: None,
            last_duration: None,
            last_change: None,
            next_due: created,
            http_status: None,
            error: None,
            consecutive_failures: 0,
            health: Health::Ok,
            fresh: false,
            validators: Default::default(),
            item_count: 0,
            created,
            body_hash: None,
            last_success,
            feed_version: 0,
            page_feed: None,
        }
    }

    #[test]
    fn failures_back_off_honour_retry_after_and_turn_unhealthy_after_days() {
        let s = schedule();
        let src = source(at(0), Some(at(0)));
        let (health, delay) = s.after_failure(&src, 1, None, false, at(1));
        assert_eq!(health, Health::Failing);
        assert!(delay >= Duration::from_secs(150) && delay <= Duration::from_secs(300), "{delay:?}");
        let (_, delay) = s.after_failure(&src, 4, None, false, at(1));
        assert!(delay >= Duration::from_secs(1200) && delay <= Duration::from_secs(2400), "{delay:?}");
        let (_, delay) = s.after_failure(&src, 1, Some(HOUR), false, at(1));
        assert_eq!(delay, HOUR);
        let year = Duration::from_secs(365 * 24 * 3600);
        let (_, delay) = s.after_failure(&src, 1, Some(year), false, at(1));
        assert_eq!(delay, s.backoff.max, "a year-long Retry-After waits the longest backoff");
        let (health, delay) = s.after_failure(&src, 9, None, false, at(72));
        assert_eq!((health, delay), (Health::Unhealthy, s.backoff.max));
        // Never successful: counted from creation.
        let (health, _) = s.after_failure(&source(at(0), None), 2, None, false, at(80));
        assert_eq!(health, Health::Unhealthy);
        let (health, _) = s.after_failure(&src, 1, None, true, at(1));
        assert_eq!(health, Health::StoppedMatching);
    }

    #[test]
    fn ttl_is_the_interval_in_whole_minutes() {
        assert_eq!(Schedule::ttl_minutes(HOUR), 60);
        assert_eq!(Schedule::ttl_minutes(Duration::from_secs(90)), 2);
        assert_eq!(Schedule::ttl_minutes(Duration::from_secs(1)), 1);
    }
}
