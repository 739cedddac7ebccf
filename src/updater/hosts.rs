//! Per-host politeness for every request the server makes (refreshes, article pages, feeds,
//! training, first fetches, the rule builder): one request at a time per host, the host's
//! delay between them, its `Retry-After`, back-off after errors.
//!
//! Two layers. The process's [`HostGate`] comes first: it is free, and it is all there is on
//! SQLite, where one process owns the store. On a store several servers share (PostgreSQL), the
//! host's lease in the store ([`HostLeases`]) comes second, so that the rule holds across the
//! servers: a turn holds the gate's permit and the lease, and gives both back when dropped,
//! the lease with the time the host may be asked again.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::oneshot;
use url::Url;

use crate::fetch::polite::{HostWait, MAX_DEFER};
use crate::fetch::{Backoff, FetchError, HostGate, HostPermit};
use crate::store::{HostHealth, HostLease, HostLeases};

/// How often a server asks the store again for a host another server holds. Holders give a
/// host back as soon as its page has arrived, so this is about one short request's time; each
/// ask is one round trip to the store.
const BUSY_POLL: Duration = Duration::from_millis(50);

/// Beyond the longest request (the fetch timeout) and the host's delay, how long a host lease
/// lasts: the time between the store granting it and the request starting (a blocking thread
/// to return on, the runtime to resume the task). A lease that ran out lets another server in
/// only after the holder's request ended for sure, and the host's delay after it.
const LEASE_SLACK: Duration = Duration::from_secs(5);

/// One request at a time per host, with its delay between them: in this process, and across
/// the servers of a shared store.
pub struct Hosts {
    gate: HostGate,
    shared: Option<Arc<Shared>>,
}

struct Shared {
    leases: HostLeases,
    /// This process, in the holder of each lease it takes (with a count, so that each turn's
    /// holder is its own and a late release never gives back a later turn).
    server: String,
    turns: AtomicU64,
    /// How long a lease lasts unless given back.
    hold: Duration,
    counts: LeaseCounts,
    min_delay: Duration,
    backoff: Backoff,
}

impl Hosts {
    /// Politeness in this process only (SQLite, the command line).
    pub fn local(min_delay: Duration, backoff: Backoff) -> Hosts {
        Hosts { gate: HostGate::new(min_delay, backoff), shared: None }
    }

    /// Politeness in this process and, with `leases`, across the servers of the store: no
    /// request lasts longer than `fetch_timeout`.
    pub fn new(min_delay: Duration, backoff: Backoff, leases: Option<HostLeases>, fetch_timeout: Duration) -> Hosts {
        let shared = leases.map(|leases| {
            Arc::new(Shared {
                leases,
                server: format!("{}-{:08x}", std::process::id(), rand::random::<u32>()),
                turns: AtomicU64::new(0),
                hold: fetch_timeout.saturating_add(min_delay).saturating_add(LEASE_SLACK),
                counts: LeaseCounts::default(),
                min_delay,
                backoff,
            })
        });
        Hosts { gate: HostGate::new(min_delay, backoff), shared }
    }

    /// How the tries at host leases went, when the store is shared (`/metrics`).
    pub fn lease_counts(&self) -> Option<LeaseCountsSnapshot> {
        self.shared.as_ref().map(|shared| shared.counts.snapshot())
    }

    /// Wait for the host's turn, however long it takes.
    pub async fn acquire(&self, url: &Url) -> HostTurn {
        let permit = self.gate.acquire(url).await;
        match &self.shared {
            None => HostTurn::local(permit),
            Some(shared) => match shared.wait_for(url, None).await {
                Ok(held) => HostTurn { permit: Some(permit), held },
                Err(_) => unreachable!("without patience a turn is always waited for"),
            },
        }
    }

    /// [`Hosts::acquire`], unless the host asked for more than `patience` of quiet: `None`.
    /// Waiting for the requests before ours does not count against the patience.
    pub async fn acquire_within(&self, url: &Url, patience: Duration) -> Option<HostTurn> {
        let permit = self.gate.acquire_within(url, patience).await?;
        match &self.shared {
            None => Some(HostTurn::local(permit)),
            Some(shared) => match shared.wait_for(url, Some(patience)).await {
                Ok(held) => Some(HostTurn { permit: Some(permit), held }),
                Err(_) => {
                    permit.unused();
                    None
                }
            },
        }
    }

    /// The host's turn if it may be asked now; else whether it is busy or how long to wait.
    pub async fn try_acquire(&self, url: &Url) -> Result<HostTurn, HostWait> {
        let permit = self.gate.try_acquire(url)?;
        let Some(shared) = &self.shared else { return Ok(HostTurn::local(permit)) };
        match shared.take(url).await {
            Some(Ok(lease)) => Ok(HostTurn { permit: Some(permit), held: Some(Held::new(shared, lease)) }),
            Some(Err(wait)) => {
                permit.unused();
                Err(wait)
            }
            None => Ok(HostTurn::local(permit)),
        }
    }
}

impl Shared {
    /// Take the host's lease, waiting while another server holds it or while the host is to
    /// stay quiet, unless that quiet is longer than `patience` (`Err` with it). `Ok(None)`: the
    /// store did not answer; the request goes ahead with this process's politeness only, as
    /// the refresh around it fails at its next store write anyway, and a reader waiting for a
    /// first fetch should not wait for the store to come back.
    async fn wait_for(self: &Arc<Self>, url: &Url, patience: Option<Duration>) -> Result<Option<Held>, Duration> {
        loop {
            match self.take(url).await {
                Some(Ok(lease)) => return Ok(Some(Held::new(self, lease))),
                Some(Err(HostWait::Busy)) => tokio::time::sleep(BUSY_POLL).await,
                Some(Err(HostWait::Wait(wait))) => {
                    if patience.is_some_and(|patience| wait > patience) {
                        return Err(wait);
                    }
                    tokio::time::sleep(wait).await;
                }
                None => return Ok(None),
            }
        }
    }

    /// One try at the host's lease. A caller that stops waiting (a timeout, a shutdown) while
    /// the store answers does not leave the host held: the lease it would have had is given
    /// back at once, unused.
    async fn take(self: &Arc<Self>, url: &Url) -> Option<Result<HostLease, HostWait>> {
        let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
        let holder = format!("{}/{}", self.server, self.turns.fetch_add(1, Ordering::Relaxed));
        let (answer, answered) = oneshot::channel();
        let shared = self.clone();
        tokio::task::spawn_blocking(move || {
            let taken = shared.leases.take(&host, &holder, shared.hold);
            if let Err(Ok(Ok(lease))) = answer.send(taken) {
                shared.release(&lease, HostHealth::Unjudged, Duration::ZERO);
            }
        });
        let counts = &self.counts;
        match answered.await {
            Ok(Ok(taken)) => {
                let count = match taken {
                    Ok(_) => &counts.taken,
                    Err(HostWait::Busy) => &counts.busy,
                    Err(HostWait::Wait(_)) => &counts.quiet,
                };
                count.fetch_add(1, Ordering::Relaxed);
                Some(taken)
            }
            Ok(Err(error)) => {
                counts.unanswered.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("politeness to {url} holds in this server only: {error}");
                None
            }
            Err(_) => {
                counts.unanswered.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("politeness to {url} holds in this server only: the store call stopped");
                None
            }
        }
    }

    /// Give a lease back: the host may be asked again after `quiet` (its delay, or the quiet it
    /// asked for), or after its back-off when it is in trouble, whichever is longer.
    fn release(&self, lease: &HostLease, health: HostHealth, quiet: Duration) {
        let backoff = self.backoff;
        let quiet = |failures: u32| {
            let backoff = if health == HostHealth::Troubled { backoff.delay(failures) } else { Duration::ZERO };
            quiet.max(backoff).min(MAX_DEFER)
        };
        if let Err(error) = self.leases.release(lease, health, quiet) {
            // It runs out by itself.
            tracing::warn!("cannot give the host {} back: {error}", lease.host);
        }
    }
}

/// How the tries at host leases went.
#[derive(Default)]
struct LeaseCounts {
    taken: AtomicU64,
    busy: AtomicU64,
    quiet: AtomicU64,
    unanswered: AtomicU64,
}

/// How the tries at host leases went, so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseCountsSnapshot {
    pub taken: u64,
    /// Another holder (this server's or another's) had the host.
    pub busy: u64,
    /// The host was to stay quiet a while longer (its delay, `Retry-After`, back-off).
    pub quiet: u64,
    /// The store did not answer; the request went ahead with this server's politeness only.
    pub unanswered: u64,
}

impl LeaseCounts {
    fn snapshot(&self) -> LeaseCountsSnapshot {
        let load = |count: &AtomicU64| count.load(Ordering::Relaxed);
        LeaseCountsSnapshot {
            taken: load(&self.taken),
            busy: load(&self.busy),
            quiet: load(&self.quiet),
            unanswered: load(&self.unanswered),
        }
    }
}

/// A host lease held for a request, and what the request told about the host.
struct Held {
    shared: Arc<Shared>,
    lease: HostLease,
    health: HostHealth,
    /// The quiet the host asked for (`Retry-After`).
    asked: Duration,
}

impl Held {
    fn new(shared: &Arc<Shared>, lease: HostLease) -> Held {
        Held { shared: shared.clone(), lease, health: HostHealth::Unjudged, asked: Duration::ZERO }
    }
}

/// The right to send one request to a host. Dropping it lets the next request to the host
/// start after the host's delay (or later, when the host asked for quiet or is in trouble).
pub struct HostTurn {
    /// Always `Some` until dropped.
    permit: Option<HostPermit>,
    /// `None` without a shared store (or when it did not answer).
    held: Option<Held>,
}

impl HostTurn {
    fn local(permit: HostPermit) -> HostTurn {
        HostTurn { permit: Some(permit), held: None }
    }

    /// Tell the turn how the request went: a success ends the host's back-off; a failure waits
    /// as long as the host's `Retry-After` asks, and backs off a host in trouble.
    pub fn record<T>(&mut self, result: &Result<T, FetchError>) {
        if let Some(permit) = &mut self.permit {
            permit.record(result);
        }
        if let Some(held) = &mut self.held {
            match result {
                Ok(_) => held.health = HostHealth::Fine,
                Err(error) => {
                    if let Some(wait) = error.retry_after() {
                        held.asked = held.asked.max(wait);
                    }
                    if error.is_transient() {
                        held.health = HostHealth::Troubled;
                    }
                }
            }
        }
    }
}

impl Drop for HostTurn {
    fn drop(&mut self) {
        let Some(Held { shared, lease, health, asked }) = self.held.take() else { return };
        // The process's permit is kept until the lease is given back, so that this server's
        // next request to the host does not find its own lease still held.
        let permit = self.permit.take();
        let give_back = move || {
            shared.release(&lease, health, shared.min_delay.max(asked));
            drop(permit);
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(give_back)),
            Err(_) => give_back(),
        }
    }
}
