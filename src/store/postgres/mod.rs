//! The store in a PostgreSQL database, for several servers sharing one store.
//!
//! Clients of the `postgres` crate (the synchronous wrapper over tokio-postgres) in an r2d2
//! pool (with a manager of our own: r2d2 keeps only the text of a connection error, and
//! `postgres` errors say why only in their source). The schema is SQLite's, in PostgreSQL's types: times are Unix seconds (`BIGINT`),
//! flags `BOOLEAN`, and a rendered feed `BYTEA` (it holds a NUL). Writes that read before
//! they write lock the rows they read; claiming due sources skips rows another server holds.
//!
//! No TLS: connect over a Unix socket or a trusted network (`sslmode=require` is refused).

mod catalog;
mod items;
mod migrations;
mod renders;
mod sources;

use std::time::Duration;

use ::postgres::{Client, NoTls, Row};
use chrono::{DateTime, Utc};

pub(super) use migrations::MIGRATION_COUNT;

use super::{BackendError, Result, StoreError};

/// Most connections one server opens: the updater's workers and the web server's blocking
/// calls share them, and PostgreSQL's default is 100 connections for all servers together.
const POOL_SIZE: u32 = 16;
/// How long opening a connection, or waiting for a free one, may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// `/healthz`'s ping gives up sooner: it runs once a second.
const PING_TIMEOUT: Duration = Duration::from_secs(2);

type Pool = r2d2::Pool<Manager>;

/// Opens the pool's connections.
struct Manager(::postgres::Config);

/// A connection error that says why (r2d2 keeps only its text).
#[derive(Debug, thiserror::Error)]
#[error("{}", super::reason(.0))]
struct ConnectError(::postgres::Error);

impl r2d2::ManageConnection for Manager {
    type Connection = Client;
    type Error = ConnectError;

    fn connect(&self) -> std::result::Result<Client, ConnectError> {
        self.0.connect(NoTls).map_err(ConnectError)
    }

    fn is_valid(&self, client: &mut Client) -> std::result::Result<(), ConnectError> {
        client.simple_query("").map(drop).map_err(ConnectError)
    }

    fn has_broken(&self, client: &mut Client) -> bool {
        client.is_closed()
    }
}

pub(super) struct Postgres {
    /// The address without its password.
    address: String,
    /// Always `Some` until dropped.
    pool: Option<Pool>,
}

impl Postgres {
    /// Connect, bring the schema up to date and start the pool; the version the database had
    /// (0: new).
    pub fn open(address: &str) -> Result<(Postgres, u32)> {
        let shown = without_password(address);
        let refused = |error: BackendError| StoreError::Connect { address: shown.clone(), error };
        let mut config: ::postgres::Config = address.parse().map_err(|e: ::postgres::Error| refused(e.into()))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("html2rss");
        }
        let had = off_runtime(|| {
            let mut client = config.connect(NoTls).map_err(|e| refused(e.into()))?;
            migrations::migrate(&mut client)
        })?;
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(0))
            .connection_timeout(CONNECT_TIMEOUT)
            // A connection the server closed is noticed when returned (`is_closed`) and
            // replaced; checking each one out with a query would cost a round trip per call.
            .test_on_check_out(false)
            .build_unchecked(Manager(config));
        Ok((Postgres { address: shown, pool: Some(pool) }, had))
    }

    pub fn address(&self) -> &str {
        &self.address
    }

    fn pool(&self) -> &Pool {
        self.pool.as_ref().expect("the pool lives until the store is dropped")
    }

    /// Run `f` on a pooled connection.
    fn with<T: Send>(&self, f: impl FnOnce(&mut Client) -> Result<T> + Send) -> Result<T> {
        off_runtime(|| f(&mut *self.pool().get()?))
    }

    pub fn schema_version(&self) -> Result<u32> {
        self.with(migrations::version)
    }

    pub fn ping(&self) -> Result<()> {
        off_runtime(|| {
            let mut client = self.pool().get_timeout(PING_TIMEOUT)?;
            client.simple_query("SELECT 1")?;
            Ok(())
        })
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // Closing a client blocks on its runtime, like every call.
        let pool = self.pool.take();
        off_runtime(move || drop(pool));
    }
}

/// Run `f` where the `postgres` client may block: each client drives its connection on a
/// runtime of its own, which tokio refuses to start on an async worker thread. Off a runtime
/// (the store's callers use `spawn_blocking`) `f` just runs; on a multi-threaded runtime's
/// worker it runs in `block_in_place`; on a current-thread runtime on a thread of its own.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    match tokio::runtime::Handle::try_current().map(|handle| handle.runtime_flavor()) {
        Err(_) => f(),
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(f),
        Ok(_) => std::thread::scope(|scope| match scope.spawn(f).join() {
            Ok(value) => value,
            Err(panic) => std::panic::resume_unwind(panic),
        }),
    }
}

/// The address as it may be shown: without its password.
pub(super) fn without_password(address: &str) -> String {
    match url::Url::parse(address) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        Ok(_) => address.to_string(),
        Err(_) => "the PostgreSQL address (not a valid URL)".to_string(),
    }
}

/// A stored value that does not read back (a URL, an engine name).
fn bad_value(column: &'static str, error: impl Into<BackendError>) -> StoreError {
    StoreError::BadValue { column, error: error.into() }
}

/// A time column (Unix seconds).
fn time(row: &Row, column: usize) -> Result<DateTime<Utc>> {
    let seconds: i64 = row.try_get(column)?;
    DateTime::from_timestamp(seconds, 0).ok_or_else(|| bad_value("time", format!("{seconds} is out of range")))
}

fn opt_time(row: &Row, column: usize) -> Result<Option<DateTime<Utc>>> {
    match row.try_get::<_, Option<i64>>(column)? {
        Some(seconds) => DateTime::from_timestamp(seconds, 0)
            .map(Some)
            .ok_or_else(|| bad_value("time", format!("{seconds} is out of range"))),
        None => Ok(None),
    }
}

/// A count or duration column: a signed integer, never negative.
fn unsigned(row: &Row, column: usize) -> Result<u64> {
    let value: i64 = row.try_get(column)?;
    u64::try_from(value).map_err(|e| bad_value("count", e))
}
