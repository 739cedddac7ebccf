//! The worker pool around [`super::refresh_claimed`] (the paper's update crawler, §3.2).
//!
//! Each worker claims one due source at a time from the store (`claim_due` leases it, so no
//! other worker takes it; a refresh that dies leaves it due again when the lease runs out).
//! Fresh workers take only fresh sources (new URLs), so new subscriptions never wait behind the
//! old ones; normal workers take any due source, fresh ones first. A source is due when
//! `now - last_update >= update_interval`, which the store keeps as `next_due`.
//!
//! Politeness: one worker at a time owns a host. A worker that claims a source of a host
//! another worker owns parks it with that owner, which refreshes the host's sources one after
//! the other (with the host's delay between them) before it claims anew; so a site with many
//! pages gets them fetched back to back, never two at once, and the other workers go on with
//! other hosts. When a host may not be asked for longer than the pool's patience (a long
//! `Retry-After`, a back-off, another server on the store holding it), its sources are handed
//! back to the store, due when it may.
//!
//! Shutdown: no new claims; refreshes in flight get a grace period to finish, then are
//! abandoned. Every store write is one transaction, so an abandoned refresh has written all of
//! a step or nothing of it, and its source's lease makes it due again.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;
use url::Url;

use super::{HostTurn, RefreshContext, refresh_claimed, schedule};
use crate::fetch::polite::HostWait;
use crate::store::{DueFilter, Source};

/// The pool's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolConfig {
    /// Workers that refresh only fresh sources.
    pub fresh_workers: usize,
    /// Workers for every source, fresh ones first.
    pub workers: usize,
    /// How long a claimed source is leased to its worker.
    pub lease: Duration,
    /// The longest an idle worker sleeps before it looks for due sources again (it is woken
    /// earlier when a source falls due or is added).
    pub idle_poll: Duration,
    /// The longest a worker waits for a host's turn instead of handing the source back.
    pub host_patience: Duration,
}

impl PoolConfig {
    pub fn from_config(config: &crate::config::Config) -> PoolConfig {
        PoolConfig {
            fresh_workers: config.updater.fresh_workers,
            workers: config.updater.workers,
            lease: super::lease_for(config),
            idle_poll: config.updater.idle_poll,
            // Waiting out a host's delay is worth it when it is short.
            host_patience: config.updater.per_host_delay.saturating_mul(2).max(Duration::from_secs(5)),
        }
    }
}

/// What one worker is doing, for the admin page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkerActivity {
    pub fresh_only: bool,
    /// The source being refreshed, and since when.
    pub refreshing: Option<(Url, DateTime<Utc>)>,
}

/// A view of the running pool: wake it, see what it does.
#[derive(Clone)]
pub struct PoolStatus {
    shared: Arc<Shared>,
}

struct Shared {
    ctx: Arc<RefreshContext>,
    config: PoolConfig,
    wake: Notify,
    activity: Mutex<Vec<WorkerActivity>>,
    /// Hosts a worker owns, with the claimed sources parked for it.
    hosts: Mutex<HashMap<String, VecDeque<Source>>>,
}

/// Sources parked per host at most; more are handed back to the store for later.
const MAX_PARKED: usize = 64;

pub struct Pool {
    shared: Arc<Shared>,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

/// How a shutdown went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shutdown {
    /// Workers that were stopped after the grace period, in the middle of a refresh.
    pub abandoned: usize,
}

impl Pool {
    /// Start the workers on the current runtime.
    pub fn start(ctx: Arc<RefreshContext>, config: PoolConfig) -> Pool {
        let kinds: Vec<bool> =
            std::iter::repeat_n(true, config.fresh_workers).chain(std::iter::repeat_n(false, config.workers)).collect();
        let activity = kinds.iter().map(|&fresh_only| WorkerActivity { fresh_only, refreshing: None }).collect();
        let shared = Arc::new(Shared {
            ctx,
            config,
            wake: Notify::new(),
            activity: Mutex::new(activity),
            hosts: Mutex::new(HashMap::new()),
        });
        let (stop, stopped) = watch::channel(false);
        let tasks = kinds
            .into_iter()
            .enumerate()
            .map(|(slot, fresh_only)| {
                let filter = if fresh_only { DueFilter::Fresh } else { DueFilter::All };
                tokio::spawn(work(shared.clone(), slot, filter, stopped.clone()))
            })
            .collect();
        Pool { shared, stop, tasks }
    }

    pub fn status(&self) -> PoolStatus {
        PoolStatus { shared: self.shared.clone() }
    }

    /// Stop claiming, give refreshes in flight `grace` to finish, then abandon them.
    pub async fn shutdown(self, grace: Duration) -> Shutdown {
        let _ = self.stop.send(true);
        let deadline = tokio::time::Instant::now() + grace;
        let mut abandoned = 0;
        for mut task in self.tasks {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
                // Wait for the abort, so that the task's futures are dropped when we return.
                let _ = task.await;
                abandoned += 1;
            }
        }
        Shutdown { abandoned }
    }
}

impl PoolStatus {
    /// Sources were added or made due: idle workers look now.
    pub fn wake(&self) {
        self.shared.wake.notify_waiters();
    }

    pub fn workers(&self) -> Vec<WorkerActivity> {
        self.shared.activity.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub fn config(&self) -> &PoolConfig {
        &self.shared.config
    }
}

async fn work(shared: Arc<Shared>, slot: usize, filter: DueFilter, mut stop: watch::Receiver<bool>) {
    let ctx = &shared.ctx;
    while !*stop.borrow() {
        // Listen for wake-ups before looking, so one that comes while we look is not missed.
        let woken = shared.wake.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        let now = Utc::now();
        let store = ctx.store.clone();
        let lease = shared.config.lease;
        let claimed = tokio::task::spawn_blocking(move || store.claim_due(now, filter, 1, lease)).await;
        let source = match claimed {
            Ok(Ok(mut sources)) if !sources.is_empty() => sources.swap_remove(0),
            Ok(Ok(_)) => {
                let sleep = idle_sleep(&shared, filter, now).await;
                tokio::select! {
                    _ = tokio::time::sleep(sleep) => {}
                    _ = &mut woken => {}
                    _ = stop.changed() => {}
                }
                continue;
            }
            Ok(Err(error)) => {
                tracing::error!("the updater cannot claim sources: {error}");
                tokio::select! {
                    _ = tokio::time::sleep(shared.config.idle_poll) => {}
                    _ = stop.changed() => {}
                }
                continue;
            }
            Err(error) => {
                tracing::error!("the updater's claim failed: {error}");
                continue;
            }
        };
        let host = host_key(&source.url);
        if !own_or_park(&shared, &host, source.clone()) {
            continue;
        }
        // This worker owns the host: its source, then those parked meanwhile, one at a time.
        let mut next = Some(source);
        while let Some(source) = next {
            if *stop.borrow() {
                hand_back(&shared, &host, source, Duration::ZERO).await;
                break;
            }
            let permit = match host_permit(&shared, &source.url, &mut stop).await {
                Ok(permit) => permit,
                Err(wait) => {
                    hand_back(&shared, &host, source, wait).await;
                    break;
                }
            };
            let started = Utc::now();
            set_activity(&shared, slot, Some((source.url.clone(), started)));
            let url = source.url.clone();
            if let Err(error) = refresh_claimed(ctx, source, permit, started).await {
                tracing::info!("refresh of {url} failed: {error}");
            }
            set_activity(&shared, slot, None);
            next = next_parked(&shared, &host);
        }
    }
}

fn host_key(url: &Url) -> String {
    url.host_str().unwrap_or_default().to_ascii_lowercase()
}

/// Take the host for this worker (`true`), or park the source with the worker that has it.
fn own_or_park(shared: &Shared, host: &str, source: Source) -> bool {
    let mut hosts = shared.hosts.lock().unwrap_or_else(PoisonError::into_inner);
    match hosts.get_mut(host) {
        None => {
            hosts.insert(host.to_string(), VecDeque::new());
            true
        }
        // Claimed again after its lease ran out while it waited here: it is parked already.
        Some(parked) if parked.iter().any(|p| p.id == source.id) => false,
        Some(parked) if parked.len() < MAX_PARKED => {
            parked.push_back(source);
            false
        }
        Some(_) => {
            drop(hosts);
            // A long queue for one host: leave the rest in the store for a while.
            reschedule_detached(shared, source, Duration::from_secs(1));
            false
        }
    }
}

/// The next parked source of the host; none: the host is given up.
fn next_parked(shared: &Shared, host: &str) -> Option<Source> {
    let mut hosts = shared.hosts.lock().unwrap_or_else(PoisonError::into_inner);
    let next = hosts.get_mut(host).and_then(VecDeque::pop_front);
    if next.is_none() {
        hosts.remove(host);
    }
    next
}

/// The host's turn when it can be had within the pool's patience; else how long to wait.
async fn host_permit(shared: &Shared, url: &Url, stop: &mut watch::Receiver<bool>) -> Result<HostTurn, Duration> {
    let hosts = &shared.ctx.hosts;
    let patience = shared.config.host_patience;
    match hosts.try_acquire(url).await {
        Ok(permit) => return Ok(permit),
        // Longer than we would wait: hand back.
        Err(HostWait::Wait(delay)) if delay > patience => return Err(delay),
        // A short delay, or a request of the web server or of another server holding the
        // host: wait.
        Err(_) => {}
    }
    tokio::select! {
        permit = tokio::time::timeout(patience, hosts.acquire(url)) => permit.map_err(|_| patience),
        _ = stop.changed() => Err(Duration::ZERO),
    }
}

/// Give the host up: this source and the ones parked for it go back to the store, due after
/// `wait` (at least a second: due times are whole seconds).
async fn hand_back(shared: &Shared, host: &str, source: Source, wait: Duration) {
    let parked = shared.hosts.lock().unwrap_or_else(PoisonError::into_inner).remove(host).unwrap_or_default();
    let next_due = schedule::after(Utc::now(), wait.max(Duration::from_secs(1)));
    let ids: Vec<_> = std::iter::once(source.id).chain(parked.iter().map(|s| s.id)).collect();
    let store = shared.ctx.store.clone();
    let handed = tokio::task::spawn_blocking(move || ids.into_iter().try_for_each(|id| store.reschedule(id, next_due)));
    match handed.await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::error!("cannot hand sources of {host} back: {error}"),
        Err(error) => tracing::error!("cannot hand sources of {host} back: {error}"),
    }
}

/// Hand one source back without waiting for the store.
fn reschedule_detached(shared: &Shared, source: Source, wait: Duration) {
    let store = shared.ctx.store.clone();
    let next_due = schedule::after(Utc::now(), wait);
    tokio::task::spawn_blocking(move || {
        if let Err(error) = store.reschedule(source.id, next_due) {
            tracing::error!("cannot hand back source {}: {error}", source.id.0);
        }
    });
}

/// How long an idle worker may sleep: until the next source falls due, at most `idle_poll`.
async fn idle_sleep(shared: &Shared, filter: DueFilter, now: DateTime<Utc>) -> Duration {
    let store = shared.ctx.store.clone();
    let next = tokio::task::spawn_blocking(move || store.next_due(filter)).await;
    let until_due = match next {
        Ok(Ok(Some(due))) => (due - now).to_std().unwrap_or(Duration::ZERO),
        _ => shared.config.idle_poll,
    };
    // Due times are whole seconds: sleep into the second, not before it.
    (until_due + Duration::from_millis(10)).min(shared.config.idle_poll)
}

fn set_activity(shared: &Shared, slot: usize, refreshing: Option<(Url, DateTime<Utc>)>) {
    if let Some(activity) = shared.activity.lock().unwrap_or_else(PoisonError::into_inner).get_mut(slot) {
        activity.refreshing = refreshing;
    }
}
