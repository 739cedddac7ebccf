//! Schema migrations, numbered as SQLite's (a version is the same schema on both), the version
//! kept in the table `html2rss_schema` (PostgreSQL has no `user_version`). Migration N takes
//! the schema from N-1 to N in one transaction with the version bump; DDL is transactional
//! here, so a failed migration leaves the database as it was. Never edit a released
//! migration; add the next one, to both backends.

use super::client::{Conn, Sql, Tx};

use crate::store::{Result, SCHEMA_VERSION, StoreError};

const MIGRATIONS: &[&str] = &[
    include_str!("migrations/001_initial.sql"),
    include_str!("migrations/002_refresh_state.sql"),
    include_str!("migrations/003_full_text.sql"),
    include_str!("migrations/004_article_dates.sql"),
    include_str!("migrations/005_page_feed.sql"),
    include_str!("migrations/006_renders.sql"),
    include_str!("migrations/007_host_leases.sql"),
    include_str!("migrations/008_notifications.sql"),
    include_str!("migrations/009_claim_order.sql"),
];

pub const MIGRATION_COUNT: usize = MIGRATIONS.len();

/// The advisory lock migrations hold, so that servers starting at once migrate in turn (any
/// number; "html2rss" in ASCII).
const MIGRATION_LOCK: i64 = 0x6874_6d6c_3272_7373;

/// The database's schema version (0: none yet).
pub fn version(client: &impl Sql) -> Result<u32> {
    let exists: bool = client.query_one("SELECT to_regclass('html2rss_schema') IS NOT NULL", &[])?.try_get(0)?;
    if !exists {
        return Ok(0);
    }
    let version: i64 = match client.query_opt("SELECT version FROM html2rss_schema", &[])? {
        Some(row) => row.try_get(0)?,
        None => 0,
    };
    u32::try_from(version).map_err(|e| super::bad_value("schema version", e))
}

/// Apply every migration the database has not had yet; the version it had.
pub fn migrate(client: &mut Conn) -> Result<u32> {
    let mut first_found = None;
    loop {
        let tx = client.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        let found = version(&tx)?;
        let had = *first_found.get_or_insert(found);
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew { found, supported: SCHEMA_VERSION });
        }
        if found == SCHEMA_VERSION {
            return Ok(had);
        }
        let version = found + 1;
        let step = |tx: &Tx| -> std::result::Result<(), tokio_postgres::Error> {
            tx.batch_execute(MIGRATIONS[found as usize])?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS html2rss_schema (version BIGINT NOT NULL); DELETE FROM html2rss_schema",
            )?;
            tx.execute("INSERT INTO html2rss_schema (version) VALUES ($1)", &[&i64::from(version)])?;
            Ok(())
        };
        step(&tx).map_err(|error| StoreError::Migration { version, error: error.into() })?;
        tx.commit().map_err(|error| StoreError::Migration { version, error: error.into() })?;
    }
}
