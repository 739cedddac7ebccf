//! The worker pool around [`super::refresh_claimed`] (the paper's update crawler, §3.2).
//!
//! Each worker claims one due source at a time from the store (`claim_due` leases it, so no
//! other worker takes it; a refresh that dies leaves it due again when the lease runs out).
//! Fresh workers take only fresh sources (new URLs), so new subscriptions never wait behind the
//! old ones; normal workers take any due source, fresh ones first. A source is due when
//! `now - last_update >= update_interval`, which the store keeps as `next_due`.
//!
//! Politeness: a worker takes its host's permit without waiting when it can. When the host is
//! busy or must not be asked yet, one worker per host may wait for it (a short wait is cheaper
//! than a round trip through the store); any other source of that host is handed back to the
//! store, due when the host may be asked again, and the worker does something else. So one
//! slow host never holds more than two workers.
//!
//! Shutdown: no new claims; refreshes in flight get a grace period to finish, then are
//! abandoned. Every store write is one transaction, so an abandoned refresh has written all of
//! a step or nothing of it, and its source's lease makes it due again.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;
use url::Url;

use super::{RefreshContext, refresh_claimed, schedule};
use crate::fetch::HostPermit;
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
            lease: super::lease_for(config.fetch.timeout),
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
    /// Hosts a worker is already waiting for.
    waiting: Mutex<HashSet<String>>,
}

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
            waiting: Mutex::new(HashSet::new()),
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
        let Some(permit) = host_turn(&shared, &source, &mut stop).await else { continue };
        let started = Utc::now();
        set_activity(&shared, slot, Some((source.url.clone(), started)));
        let url = source.url.clone();
        if let Err(error) = refresh_claimed(ctx, source, permit, started).await {
            tracing::info!("refresh of {url} failed: {error}");
        }
        set_activity(&shared, slot, None);
    }
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

/// The host's permit for a claimed source, or `None` when the source was handed back.
async fn host_turn(shared: &Shared, source: &Source, stop: &mut watch::Receiver<bool>) -> Option<HostPermit> {
    let gate = &shared.ctx.gate;
    let wait = match gate.try_acquire(&source.url) {
        Ok(permit) => return Some(permit),
        Err(wait) => wait,
    };
    let host = source.url.host_str().unwrap_or_default().to_ascii_lowercase();
    let patient = match wait {
        HostWait::Busy => true,
        HostWait::Wait(delay) => delay <= shared.config.host_patience,
    };
    if patient && shared.waiting.lock().unwrap_or_else(PoisonError::into_inner).insert(host.clone()) {
        let permit = tokio::select! {
            permit = gate.acquire(&source.url) => Some(permit),
            _ = stop.changed() => None,
        };
        shared.waiting.lock().unwrap_or_else(PoisonError::into_inner).remove(&host);
        if permit.is_some() {
            return permit;
        }
    }
    // Hand it back, due when the host may be asked (at least a second on: due times are
    // whole seconds, and a busy host's request takes a while).
    let delay = match wait {
        HostWait::Wait(delay) => delay,
        HostWait::Busy => Duration::from_secs(1),
    };
    let next_due = schedule::after(Utc::now(), delay.max(Duration::from_secs(1)));
    let store = shared.ctx.store.clone();
    let id = source.id;
    match tokio::task::spawn_blocking(move || store.reschedule(id, next_due)).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::error!("cannot hand back source {}: {error}", id.0),
        Err(error) => tracing::error!("cannot hand back source {}: {error}", id.0),
    }
    None
}

fn set_activity(shared: &Shared, slot: usize, refreshing: Option<(Url, DateTime<Utc>)>) {
    if let Some(activity) = shared.activity.lock().unwrap_or_else(PoisonError::into_inner).get_mut(slot) {
        activity.refreshing = refreshing;
    }
}
