//! The store in one SQLite file.
//!
//! Each call borrows a connection from a small pool (an idle connection keeps its
//! prepared-statement cache, so a hot `/rss` read costs no `open` and no SQL parsing; opening
//! one per call would cost both, every time).
//!
//! Durability: WAL journal with `synchronous = NORMAL`. In WAL mode a commit is appended to the
//! log before the call returns, so a killed process (kill -9, panic, OOM) loses nothing that
//! was committed and never corrupts the file; only an OS crash or power cut can roll back the
//! last commits, and even then the file stays consistent. `FULL` would fsync on every commit
//! to guard against power loss too, at a cost of milliseconds per write, for feeds that are
//! refetched anyway. Readers never block the writer, nor the writer the readers.
//!
//! Every write is one transaction (`BEGIN IMMEDIATE` when it reads before writing, so two
//! writers queue on the busy timeout instead of failing).

mod catalog;
mod items;
mod migrations;
mod renders;
mod sources;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, FixedOffset, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, ToSql};

pub use migrations::SCHEMA_VERSION;

use super::{Result, StoreError};

/// How long a call waits for another connection's write to finish before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle connections kept for reuse; more may be open at once, the rest are closed after use.
const POOL_SIZE: usize = 8;

/// How much of the file each connection reads through memory-mapped I/O instead of read(2).
/// A `/rss` request that misses the feed cache reads one stored render (~8 KB: a few pages
/// and the index pages above them) from anywhere in the file. Through read(2) the kernel copies
/// each page into the connection's page cache; mapped, SQLite reads it where it is, in the OS's
/// page cache (on a 10,000-feed file, 370 MB: 5.5–6.6 µs a read against 8.3–9.7 µs, three
/// rounds each). The size only reserves address space (8 pooled connections: 8 GiB of the
/// 128 TiB a 64-bit process has; where a map fails, SQLite reads as before): the memory is the
/// OS's page cache, which holds those pages either way, and shows in the server's resident
/// size as file pages (`RssFile`, counted once for each connection that touched them). 1 GiB
/// covers a file of nearly 30,000 such feeds; beyond it, the rest is read with read(2) as before.
/// Writes still go through write(2), and in WAL mode a page newer than the file is read from
/// the log, so readers and writers see what they did. The cost: an I/O error on a mapped page
/// (a failing disk, the file truncated under the server) stops the process (SIGBUS) instead of
/// failing the call.
const MMAP_SIZE: i64 = 1 << 30;

/// A SQLite file and its pool of connections.
pub(super) struct Sqlite {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl Sqlite {
    /// Open (or create) the file and bring its schema up to date; the version it had (0: new).
    pub fn open(path: &Path) -> Result<(Sqlite, u32)> {
        let path = path.to_path_buf();
        let mut conn = connect(&path)?;
        // The journal mode is a property of the file: set once, before any transaction.
        conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))
            .map_err(|error| StoreError::Open { path: path.clone(), error })?;
        let had = migrations::migrate(&mut conn)?;
        Ok((Sqlite { path, idle: Mutex::new(vec![conn]) }, had))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the file (`PRAGMA user_version`).
    pub fn schema_version(&self) -> Result<u32> {
        self.with(|conn| Ok(conn.pragma_query_value(None, "user_version", |row| row.get(0))?))
    }

    /// SQLite's own consistency check: `"ok"` when the file is sound.
    pub fn integrity_check(&self) -> Result<String> {
        self.with(|conn| Ok(conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))?))
    }

    /// Whether the database file answers a read, on a connection of its own that may not create
    /// the file: a pooled connection keeps a removed or replaced file open and would answer for
    /// a database that is gone.
    pub fn ping(&self) -> Result<()> {
        let path = &self.path;
        let open = || -> rusqlite::Result<()> {
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn = Connection::open_with_flags(path, flags)?;
            conn.busy_timeout(BUSY_TIMEOUT)?;
            conn.query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get::<_, i64>(0))?;
            Ok(())
        };
        open().map_err(|error| StoreError::Open { path: path.clone(), error })
    }

    /// Run `f` on a pooled connection.
    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> Result<T>) -> Result<T> {
        let pooled = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut conn = match pooled {
            Some(conn) => conn,
            None => connect(&self.path)?,
        };
        let result = f(&mut conn);
        // An open transaction was rolled back when its guard dropped, so the connection is clean.
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < POOL_SIZE {
            idle.push(conn);
        }
        result
    }
}

fn connect(path: &Path) -> Result<Connection> {
    let open = || -> rusqlite::Result<Connection> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // 1 MiB of page cache per connection (SQLite's default is 2 MiB): the pool holds up to
        // POOL_SIZE connections, the OS caches the file anyway, and the server must stay small.
        conn.pragma_update(None, "cache_size", -1024)?;
        conn.pragma_update(None, "mmap_size", MMAP_SIZE)?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(conn)
    };
    open().map_err(|error| StoreError::Open { path: path.to_path_buf(), error })
}

/// A time stored as Unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seconds(DateTime<Utc>);

impl ToSql for Seconds {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.timestamp()))
    }
}

impl FromSql for Seconds {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let seconds = i64::column_result(value)?;
        DateTime::from_timestamp(seconds, 0).map(Seconds).ok_or(FromSqlError::OutOfRange(seconds))
    }
}

/// A date with its offset, stored as RFC 3339 text.
struct Rfc3339(DateTime<FixedOffset>);

impl ToSql for Rfc3339 {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0.to_rfc3339()))
    }
}

impl FromSql for Rfc3339 {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let text = value.as_str()?;
        DateTime::parse_from_rfc3339(text).map(Rfc3339).map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

fn seconds(t: DateTime<Utc>) -> Seconds {
    Seconds(t)
}

fn opt_time(value: Option<Seconds>) -> Option<DateTime<Utc>> {
    value.map(|s| s.0)
}

/// A stored value that does not parse (a URL, an engine name), as a column conversion error.
fn bad_column(column: usize, error: impl std::error::Error + Send + Sync + 'static) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, Box::new(error))
}

/// A count or duration column: stored as SQLite's signed integer, never negative.
fn unsigned(row: &rusqlite::Row, column: usize) -> rusqlite::Result<u64> {
    let value: i64 = row.get(column)?;
    u64::try_from(value)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Integer, Box::new(e)))
}
