//! Schema migrations, numbered by `PRAGMA user_version`: migration N takes the schema from
//! version N-1 to N, in one transaction with the version bump, so a crash leaves either the old
//! schema or the new one. Never edit a released migration; add the next one.

use rusqlite::{Connection, TransactionBehavior};

use crate::store::{Result, StoreError};

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

/// The schema version this program writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Apply every migration the file has not had yet; the version the file had.
pub fn migrate(conn: &mut Connection) -> Result<u32> {
    let mut first_found = None;
    loop {
        // IMMEDIATE: two processes opening a new file at once do not both migrate it.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found: u32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
        let had = *first_found.get_or_insert(found);
        if found > SCHEMA_VERSION {
            return Err(StoreError::TooNew { found, supported: SCHEMA_VERSION });
        }
        if found == SCHEMA_VERSION {
            return Ok(had);
        }
        let version = found + 1;
        let step = |tx: &rusqlite::Transaction| -> rusqlite::Result<()> {
            tx.execute_batch(MIGRATIONS[found as usize])?;
            tx.pragma_update(None, "user_version", version)
        };
        step(&tx).map_err(|error| StoreError::Migration { version, error: error.into() })?;
        tx.commit().map_err(|error| StoreError::Migration { version, error: error.into() })?;
    }
}
