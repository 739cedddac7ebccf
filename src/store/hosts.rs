//! Host leases: politeness to a site across every server on one PostgreSQL store. A server
//! takes a host's lease before it sends the host a request and gives it back after, with the
//! time the host may be asked again (its delay, its `Retry-After`, a back-off). SQLite has
//! none: one process owns the file and keeps politeness in memory ([`Store::host_leases`] is
//! `None`).
//!
//! The times are the database's clock, so servers whose clocks disagree still take turns; a
//! lease runs out, so a server that dies holding one blocks its host only that long.

use std::time::Duration;

use super::{Backend, Result, Store};
use crate::fetch::polite::HostWait;

/// The host leases of a shared store.
#[derive(Clone)]
pub struct HostLeases {
    store: Store,
}

/// A host held by one holder, until given back or until it runs out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostLease {
    pub host: String,
    pub holder: String,
}

/// How the request made with a lease went, for the host's back-off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostHealth {
    /// It was answered: the host's back-off is over.
    Fine,
    /// It found the host in trouble (network error, timeout, 429, 5xx): one more failure.
    Troubled,
    /// Neither (a 404, a refused address, no request made): the count stays.
    Unjudged,
}

impl Store {
    /// The host leases, when several servers may share this store (PostgreSQL).
    pub fn host_leases(&self) -> Option<HostLeases> {
        match &*self.backend {
            Backend::Postgres(_) => Some(HostLeases { store: self.clone() }),
            Backend::Sqlite(_) => None,
        }
    }
}

impl HostLeases {
    /// Take `host` for `holder` for at most `hold`, if nobody holds it and its quiet time is
    /// over; else whether it is held ([`HostWait::Busy`]) or how long it is to stay quiet.
    pub fn take(&self, host: &str, holder: &str, hold: Duration) -> Result<std::result::Result<HostLease, HostWait>> {
        self.db().take_host(host, holder, hold)
    }

    /// Give `lease` back: the host may be asked again after `quiet(failures)` from now, where
    /// `failures` is its count of consecutive troubled requests after this one's `health`.
    /// A lease that ran out and was taken by another holder is left alone.
    pub fn release(&self, lease: &HostLease, health: HostHealth, quiet: impl FnOnce(u32) -> Duration) -> Result<()> {
        self.db().release_host(lease, health, quiet)
    }

    fn db(&self) -> &super::postgres::Postgres {
        match &*self.store.backend {
            Backend::Postgres(db) => db,
            Backend::Sqlite(_) => unreachable!("only a PostgreSQL store has host leases"),
        }
    }
}
