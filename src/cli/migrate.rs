//! `html2rss migrate`: create the database or bring its schema up to date, explicitly (before
//! starting servers of a new version), and say what was done. A database of a newer schema is
//! refused, as `serve` refuses it. The database is a SQLite file or a PostgreSQL address.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::config::Config;
use crate::store::{self, SCHEMA_VERSION, Store};

pub fn run(config: Option<&Path>, db: Option<&str>) -> anyhow::Result<()> {
    let mut config = match config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    if let Some(db) = db {
        config.db = PathBuf::from(db);
    }
    let (store, had) = Store::open_migrated(&config.db)
        .with_context(|| format!("cannot migrate the database {}", store::shown(&config.db)))?;
    let db = store.location();
    match had {
        0 => println!("{db}: created at schema version {SCHEMA_VERSION}"),
        v if v == SCHEMA_VERSION => println!("{db}: already at schema version {SCHEMA_VERSION}"),
        v => println!("{db}: migrated from schema version {v} to {SCHEMA_VERSION}"),
    }
    Ok(())
}
