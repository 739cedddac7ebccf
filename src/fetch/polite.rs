//! Politeness toward the sites we fetch, as primitives for the updater: a per-host gate (one
//! request at a time, a minimum delay between requests, waits the host asked for, back-off
//! after errors) and exponential back-off with jitter.
//!
//! The split follows lychee's client / rate-limit split: the [`super::Fetcher`] knows nothing
//! about hosts' patience; the caller holds a [`HostPermit`] around each fetch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};
use tokio::time::Instant;
use url::Url;

/// No host's request to wait (a huge `Retry-After`, a long back-off) keeps the gate closed
/// for longer than this; the source's own schedule still applies.
pub const MAX_DEFER: Duration = Duration::from_secs(24 * 3600);

/// Exponential back-off with "equal jitter": after `n` consecutive failures, a delay drawn
/// uniformly from `[d/2, d]` where `d = min(max, base · 2^(n-1))`. The jitter spreads retries of
/// sources that failed together (one host down) instead of sending them back in one burst.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    pub base: Duration,
    pub max: Duration,
}

impl Backoff {
    /// The delay before the next attempt after `failures` consecutive failures (none: zero).
    pub fn delay(&self, failures: u32) -> Duration {
        self.delay_with(failures, rand::random::<f64>())
    }

    /// [`Backoff::delay`] with the random draw `unit` in `[0, 1)` given.
    fn delay_with(&self, failures: u32, unit: f64) -> Duration {
        if failures == 0 {
            return Duration::ZERO;
        }
        let ceiling = self.base.saturating_mul(2u32.saturating_pow(failures - 1)).min(self.max);
        ceiling.mul_f64(0.5 + 0.5 * unit.clamp(0.0, 1.0))
    }
}

struct HostState {
    /// No request to the host starts before this.
    not_before: Instant,
    /// Consecutive failed requests to the host.
    failures: u32,
}

type Slot = Arc<AsyncMutex<HostState>>;

/// Why [`HostGate::try_acquire`] did not give a permit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostWait {
    /// A request to the host is in flight.
    Busy,
    /// The host may be asked again after this long.
    Wait(Duration),
}

/// One request at a time per host, with a minimum delay between the end of one request and
/// the start of the next. Hosts are URL host names, lowercased: pages of one site on different
/// ports count as one host.
pub struct HostGate {
    min_delay: Duration,
    backoff: Backoff,
    hosts: Mutex<Hosts>,
}

struct Hosts {
    slots: HashMap<String, Slot>,
    /// Forget idle hosts when the map grows past this (amortised: it doubles after each sweep).
    sweep_at: usize,
}

impl HostGate {
    /// `backoff` is applied per host on [`HostPermit::failed`].
    pub fn new(min_delay: Duration, backoff: Backoff) -> HostGate {
        HostGate { min_delay, backoff, hosts: Mutex::new(Hosts { slots: HashMap::new(), sweep_at: 1024 }) }
    }

    /// Wait until the host of `url` may be asked, then hold it until the permit is dropped.
    pub async fn acquire(&self, url: &Url) -> HostPermit {
        let state = self.slot(url).lock_owned().await;
        tokio::time::sleep_until(state.not_before).await;
        HostPermit { state, min_delay: self.min_delay, backoff: self.backoff }
    }

    /// [`HostGate::acquire`], unless the host asked for more than `patience` of quiet (its
    /// `Retry-After`, a back-off after errors): `None` then. Waiting for the requests before
    /// ours to finish does not count against the patience.
    pub async fn acquire_within(&self, url: &Url, patience: Duration) -> Option<HostPermit> {
        let state = self.slot(url).lock_owned().await;
        if state.not_before > Instant::now() + patience {
            return None;
        }
        tokio::time::sleep_until(state.not_before).await;
        Some(HostPermit { state, min_delay: self.min_delay, backoff: self.backoff })
    }

    /// A permit if the host of `url` may be asked now; else how long to wait. For a scheduler
    /// that would rather do another source than wait.
    pub fn try_acquire(&self, url: &Url) -> Result<HostPermit, HostWait> {
        let state = self.slot(url).try_lock_owned().map_err(|_| HostWait::Busy)?;
        let now = Instant::now();
        if state.not_before > now {
            return Err(HostWait::Wait(state.not_before - now));
        }
        Ok(HostPermit { state, min_delay: self.min_delay, backoff: self.backoff })
    }

    /// How many hosts the gate remembers (in flight, waiting, or recently asked).
    pub fn hosts(&self) -> usize {
        self.hosts.lock().unwrap_or_else(PoisonError::into_inner).slots.len()
    }

    fn slot(&self, url: &Url) -> Slot {
        let key = url.host_str().unwrap_or_default().to_ascii_lowercase();
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        if hosts.slots.len() >= hosts.sweep_at {
            let now = Instant::now();
            // Idle: nobody holds or waits for the slot, and it imposes no wait any more.
            hosts.slots.retain(|_, slot| {
                Arc::strong_count(slot) > 1 || slot.try_lock().map_or(true, |s| s.not_before > now || s.failures > 0)
            });
            hosts.sweep_at = (hosts.slots.len() * 2).max(1024);
        }
        let now = Instant::now();
        hosts
            .slots
            .entry(key)
            .or_insert_with(|| Arc::new(AsyncMutex::new(HostState { not_before: now, failures: 0 })))
            .clone()
    }
}

/// The right to send one request to a host. Dropping it lets the next request to the host
/// start after the gate's minimum delay (or later, when deferred).
pub struct HostPermit {
    state: OwnedMutexGuard<HostState>,
    min_delay: Duration,
    backoff: Backoff,
}

impl HostPermit {
    /// Give the permit back without a request sent: the host's delay does not start.
    pub fn unused(mut self) {
        self.min_delay = Duration::ZERO;
    }

    /// Ask nothing of this host for `delay` from now, e.g. its `Retry-After`.
    pub fn defer(&mut self, delay: Duration) {
        let until = Instant::now() + delay.min(MAX_DEFER);
        self.state.not_before = self.state.not_before.max(until);
    }

    /// The request failed in a way that suggests the host is in trouble (network error,
    /// timeout, 429, 5xx): back off exponentially. Returns the host's consecutive failures.
    pub fn failed(&mut self) -> u32 {
        self.state.failures = self.state.failures.saturating_add(1);
        let delay = self.backoff.delay(self.state.failures);
        self.defer(delay);
        self.state.failures
    }

    /// The request succeeded: the host's back-off is over.
    pub fn succeeded(&mut self) {
        self.state.failures = 0;
    }

    /// Tell the gate how a request went: a success ends the host's back-off; a failure waits
    /// as long as the host's `Retry-After` asks, and backs off a host in trouble.
    pub fn record<T>(&mut self, result: &Result<T, super::FetchError>) {
        match result {
            Ok(_) => self.succeeded(),
            Err(error) => {
                if let Some(wait) = error.retry_after() {
                    self.defer(wait);
                }
                if error.is_transient() {
                    self.failed();
                }
            }
        }
    }
}

impl Drop for HostPermit {
    fn drop(&mut self) {
        let next = Instant::now() + self.min_delay;
        self.state.not_before = self.state.not_before.max(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BACKOFF: Backoff = Backoff { base: Duration::from_secs(10), max: Duration::from_secs(600) };

    #[test]
    fn backoff_doubles_within_jitter_and_stops_at_max() {
        assert_eq!(BACKOFF.delay(0), Duration::ZERO);
        for (failures, ceiling) in [(1, 10), (2, 20), (3, 40), (6, 320), (7, 600), (40, 600), (u32::MAX, 600)] {
            let ceiling = Duration::from_secs(ceiling);
            assert_eq!(BACKOFF.delay_with(failures, 0.0), ceiling / 2, "{failures}");
            assert_eq!(BACKOFF.delay_with(failures, 1.0), ceiling, "{failures}");
            let drawn = BACKOFF.delay(failures);
            assert!(drawn >= ceiling / 2 && drawn <= ceiling, "{failures}: {drawn:?}");
        }
    }

    #[test]
    fn backoff_draws_are_spread() {
        let draws: std::collections::HashSet<Duration> = (0..20).map(|_| BACKOFF.delay(3)).collect();
        assert!(draws.len() > 10, "jitter should spread retries: {draws:?}");
    }

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn one_request_per_host_and_a_delay_between() {
        let gate = HostGate::new(Duration::from_secs(2), BACKOFF);
        let first = gate.try_acquire(&url("https://Example.org/a")).unwrap();
        assert_eq!(gate.try_acquire(&url("https://example.org:8443/b")).err(), Some(HostWait::Busy));
        // Another host is independent.
        let other = gate.try_acquire(&url("https://example.com/")).unwrap();
        drop(first);
        assert_eq!(gate.try_acquire(&url("https://example.org/c")).err(), Some(HostWait::Wait(Duration::from_secs(2))));
        let start = Instant::now();
        let _second = gate.acquire(&url("https://example.org/c")).await;
        assert_eq!(start.elapsed(), Duration::from_secs(2));
        drop(other);
        assert_eq!(gate.hosts(), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn acquire_within_waits_for_the_delay_but_not_for_a_long_deferral() {
        let gate = HostGate::new(Duration::from_secs(2), BACKOFF);
        drop(gate.acquire(&url("https://example.org/a")).await);
        let start = Instant::now();
        let mut permit = gate.acquire_within(&url("https://example.org/b"), Duration::from_secs(5)).await.unwrap();
        assert_eq!(start.elapsed(), Duration::from_secs(2));
        permit.defer(Duration::from_secs(60));
        drop(permit);
        assert!(gate.acquire_within(&url("https://example.org/c"), Duration::from_secs(5)).await.is_none());
        assert!(gate.acquire_within(&url("https://example.org/c"), Duration::from_secs(61)).await.is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn deferral_and_backoff_close_the_host() {
        let gate = HostGate::new(Duration::from_secs(1), BACKOFF);
        let mut permit = gate.acquire(&url("http://slow.example/")).await;
        permit.defer(Duration::from_secs(120));
        drop(permit);
        let start = Instant::now();
        let mut permit = gate.acquire(&url("http://slow.example/")).await;
        assert_eq!(start.elapsed(), Duration::from_secs(120));
        assert_eq!(permit.failed(), 1);
        assert_eq!(permit.failed(), 2);
        drop(permit);
        let Err(HostWait::Wait(wait)) = gate.try_acquire(&url("http://slow.example/")) else { panic!() };
        assert!(wait >= Duration::from_secs(10) && wait <= Duration::from_secs(20), "{wait:?}");
        let mut permit = gate.acquire(&url("http://slow.example/")).await;
        permit.succeeded();
        permit.defer(Duration::from_secs(u64::MAX));
        drop(permit);
        assert_eq!(gate.try_acquire(&url("http://slow.example/")).err(), Some(HostWait::Wait(MAX_DEFER)));
    }
}
