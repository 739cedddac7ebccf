//! The store in a PostgreSQL database, for several servers sharing one store.
//!
//! tokio-postgres connections, driven by a runtime of the store's own and called
//! synchronously (`client.rs`), in an r2d2 pool. The schema is SQLite's, in PostgreSQL's types: times are Unix seconds (`BIGINT`),
//! flags `BOOLEAN`, and a rendered feed `BYTEA` (it holds a NUL). Writes that read before
//! they write lock the rows they read; claiming due sources skips rows another server holds.
//!
//! No TLS: connect over a Unix socket or a trusted network (`sslmode=require` is refused).

mod catalog;
mod client;
mod hosts;
mod items;
mod listen;
mod migrations;
mod renders;
mod sources;

use std::time::Duration;

use chrono::{DateTime, Utc};
use client::Conn;
use tokio_postgres::Row;

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
struct Manager {
    config: tokio_postgres::Config,
    runtime: tokio::runtime::Handle,
}

/// A connection error that says why (r2d2 keeps only its text, and a tokio-postgres error
/// says why only in its source).
#[derive(Debug, thiserror::Error)]
#[error("{}", super::reason(&**.0))]
struct ConnectError(BackendError);

impl r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = ConnectError;

    fn connect(&self) -> std::result::Result<Conn, ConnectError> {
        client::connect(&self.config, &self.runtime).map_err(ConnectError)
    }

    fn is_valid(&self, client: &mut Conn) -> std::result::Result<(), ConnectError> {
        client.simple_query("").map_err(|e| ConnectError(e.into()))
    }

    fn has_broken(&self, client: &mut Conn) -> bool {
        client.is_closed()
    }
}

pub(super) struct Postgres {
    /// The address without its password.
    address: String,
    /// How to connect, for connections of its own (the listener's); boxed, as it is large and
    /// seldom used.
    config: Box<tokio_postgres::Config>,
    /// Both always `Some` until dropped.
    pool: Option<Pool>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Postgres {
    /// Connect, bring the schema up to date and start the pool; the version the database had
    /// (0: new).
    pub fn open(address: &str) -> Result<(Postgres, u32)> {
        let shown = without_password(address);
        let refused = |error: BackendError| StoreError::Connect { address: shown.clone(), error };
        let mut config: tokio_postgres::Config =
            address.parse().map_err(|e: tokio_postgres::Error| refused(e.into()))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("html2rss");
        }
        // One worker: it only moves bytes between the sockets and the callers.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("html2rss-postgres")
            .enable_all()
            .build()
            .map_err(|e| refused(e.into()))?;
        let mut client = client::connect(&config, runtime.handle()).map_err(refused)?;
        let had = migrations::migrate(&mut client)?;
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(0))
            .connection_timeout(CONNECT_TIMEOUT)
            // A connection the server closed is noticed when returned (`is_closed`) and
            // replaced; checking each one out with a query would cost a round trip per call.
            .test_on_check_out(false)
            .build_unchecked(Manager { config: config.clone(), runtime: runtime.handle().clone() });
        Ok((Postgres { address: shown, config: Box::new(config), pool: Some(pool), runtime: Some(runtime) }, had))
    }

    pub fn address(&self) -> &str {
        &self.address
    }

    fn pool(&self) -> &Pool {
        self.pool.as_ref().expect("the pool lives until the store is dropped")
    }

    fn runtime(&self) -> &tokio::runtime::Runtime {
        self.runtime.as_ref().expect("the runtime lives until the store is dropped")
    }

    /// Run `f` on a pooled connection.
    fn with<T>(&self, f: impl FnOnce(&mut Conn) -> Result<T>) -> Result<T> {
        f(&mut *self.pool().get()?)
    }

    pub fn schema_version(&self) -> Result<u32> {
        self.with(|client| migrations::version(&*client))
    }

    pub fn ping(&self) -> Result<()> {
        Ok(self.pool().get_timeout(PING_TIMEOUT)?.simple_query("SELECT 1")?)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // tokio refuses to drop a runtime on an async thread, and the last clone of a store
        // may go anywhere: on a thread of its own (the connections go with it).
        let (pool, runtime) = (self.pool.take(), self.runtime.take());
        let _ = std::thread::spawn(move || drop((pool, runtime))).join();
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
