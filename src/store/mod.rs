//! The store: sources, their items and rendered feeds, rules, templates and settings. The only
//! module that knows SQL.
//!
//! Two backends behind one API: a SQLite file (the embedded default, `sqlite/`) and a
//! PostgreSQL database (`postgres/`) that several servers can share. [`Store::open`] picks one
//! by the database setting: a `postgres://` or `postgresql://` address is PostgreSQL, anything
//! else a file. Both keep the same schema at the same version numbers and give the same
//! answers; what a call means (the merge rules, what is kept) is written once in this module's
//! files, and each backend has only its SQL and row mapping.
//!
//! The API is synchronous; the async server calls it from `spawn_blocking`. [`Store`] is cheap
//! to clone and safe to share: each call borrows a connection from the backend's pool.
//!
//! Every write that reads before it writes is one transaction, safe with other writers: on
//! SQLite `BEGIN IMMEDIATE` (writers queue on the busy timeout), on PostgreSQL row locks
//! (`FOR UPDATE`, `SKIP LOCKED` where a claim may pass over a row another server holds).
//!
//! Times are `DateTime<Utc>` passed in by the caller (tests use fixed clocks) and stored in
//! whole seconds.

mod catalog;
mod events;
mod hosts;
mod items;
mod postgres;
mod renders;
mod sources;
mod sqlite;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

pub use catalog::{NewRule, Rule, RuleId, Template};
pub use events::StoreEvent;
pub use hosts::{HostHealth, HostLease, HostLeases};
pub use items::{
    ArticleCounts, ArticleFields, ArticleUpdate, DateCounts, DateOrigin, DateRead, DateUpdate, MergeReport, StoredFeed,
    StoredItem,
};
pub use renders::StoredRender;
pub use sources::{DueFilter, FeedStamp, FetchRecord, Health, Source, SourceId, SourceSettings, Stats};
pub use sqlite::SCHEMA_VERSION;

// The two backends' migrations are numbered alike: a version is the same schema on both.
const _: () = assert!(postgres::MIGRATION_COUNT == SCHEMA_VERSION as usize);

/// A backend's own error, where a variant is shared by both.
pub type BackendError = Box<dyn std::error::Error + Send + Sync>;

/// Why a store call failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the database {path}: {error}")]
    Open { path: std::path::PathBuf, error: rusqlite::Error },
    /// The address is shown without its password.
    #[error("cannot connect to {address}: {}", reason(&**.error))]
    Connect { address: String, error: BackendError },
    #[error("database migration {version} failed: {}", reason(&**.error))]
    Migration { version: u32, error: BackendError },
    #[error("the database has schema version {found}, newer than this program's {supported}; use a newer html2rss")]
    TooNew { found: u32, supported: u32 },
    #[error("no source with id {0}")]
    NoSuchSource(i64),
    #[error("a stored {column} does not read back: {error}")]
    BadValue { column: &'static str, error: BackendError },
    #[error("{0} is a SQLite check; PostgreSQL has none like it")]
    SqliteOnly(&'static str),
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database error: {}", reason(.0))]
    Postgres(#[from] tokio_postgres::Error),
    #[error("no database connection: {0}")]
    Pool(#[from] r2d2::Error),
}

/// An error and the errors it comes from, on one line: a `postgres` error says only "db
/// error" itself, and why in its source.
fn reason(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = cause.source();
    }
    text
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The database. Clones share one pool of connections.
#[derive(Clone)]
pub struct Store {
    backend: Arc<Backend>,
}

enum Backend {
    Sqlite(sqlite::Sqlite),
    Postgres(postgres::Postgres),
}

/// `backend!(self, method(args))`: call the method of whichever backend the store has.
macro_rules! backend {
    ($store:expr, $method:ident($($arg:expr),* $(,)?)) => {
        match &*$store.backend {
            $crate::store::Backend::Sqlite(db) => db.$method($($arg),*),
            $crate::store::Backend::Postgres(db) => db.$method($($arg),*),
        }
    };
}
use backend;

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("location", &self.location()).finish()
    }
}

/// Whether the database setting is a PostgreSQL address rather than a SQLite file.
fn is_postgres(db: &Path) -> bool {
    db.to_str().is_some_and(|text| text.starts_with("postgres://") || text.starts_with("postgresql://"))
}

/// The database setting as it may be shown (messages, logs): a file as it is, a PostgreSQL
/// address without its password.
pub fn shown(db: &Path) -> String {
    match db.to_str() {
        Some(address) if is_postgres(db) => postgres::without_password(address),
        _ => db.display().to_string(),
    }
}

impl Store {
    /// Open the database and bring its schema up to date: a `postgres://` or `postgresql://`
    /// address is a PostgreSQL database (which must exist), anything else a SQLite file
    /// (created when missing).
    pub fn open(db: impl AsRef<Path>) -> Result<Store> {
        Ok(Store::open_migrated(db)?.0)
    }

    /// [`Store::open`], telling which schema version the database had before (0: new).
    pub fn open_migrated(db: impl AsRef<Path>) -> Result<(Store, u32)> {
        let db = db.as_ref();
        let (backend, had) = match db.to_str() {
            Some(address) if is_postgres(db) => {
                let (db, had) = postgres::Postgres::open(address)?;
                (Backend::Postgres(db), had)
            }
            _ => {
                let (db, had) = sqlite::Sqlite::open(db)?;
                (Backend::Sqlite(db), had)
            }
        };
        Ok((Store { backend: Arc::new(backend) }, had))
    }

    /// Where the database is, for people: the file, or the PostgreSQL address without its
    /// password.
    pub fn location(&self) -> String {
        match &*self.backend {
            Backend::Sqlite(db) => db.path().display().to_string(),
            Backend::Postgres(db) => db.address().to_string(),
        }
    }

    /// The schema version of the database.
    pub fn schema_version(&self) -> Result<u32> {
        backend!(self, schema_version())
    }

    /// SQLite's own consistency check: `"ok"` when the file is sound. PostgreSQL has no such
    /// check of a whole database: [`StoreError::SqliteOnly`].
    pub fn integrity_check(&self) -> Result<String> {
        match &*self.backend {
            Backend::Sqlite(db) => db.integrity_check(),
            Backend::Postgres(_) => Err(StoreError::SqliteOnly("integrity_check")),
        }
    }

    /// Whether the database answers a read (`/healthz`).
    pub fn ping(&self) -> Result<()> {
        backend!(self, ping())
    }
}

/// A duration in whole seconds, saturating.
fn duration_secs(d: Duration) -> i64 {
    i64::try_from(d.as_secs()).unwrap_or(i64::MAX)
}

/// `t + d`, saturating at the end of chrono's range.
fn later(t: DateTime<Utc>, d: Duration) -> DateTime<Utc> {
    chrono::TimeDelta::from_std(d).ok().and_then(|d| t.checked_add_signed(d)).unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// A count or limit as the databases' signed 64-bit integer, saturating.
fn signed(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}
