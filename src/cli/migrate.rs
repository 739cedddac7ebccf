//! `html2rss migrate`: create the database or bring its schema up to date, explicitly (before
//! starting servers of a new version), and say what was done. A database of a newer schema is
//! refused, as `serve` refuses it.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::config::Config;
use crate::store::{SCHEMA_VERSION, Store};

pub fn run(config: Option<&Path>, db: Option<&str>) -> anyhow::Result<()> {
    let mut config = match config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    if let Some(db) = db {
        config.db = PathBuf::from(db);
    }
    let path = sqlite_path(&config.db)?;
    let (_, had) =
        Store::open_migrated(path).with_context(|| format!("cannot migrate the database {}", path.display()))?;
    match had {
        0 => println!("{}: created at schema version {SCHEMA_VERSION}", path.display()),
        v if v == SCHEMA_VERSION => println!("{}: already at schema version {SCHEMA_VERSION}", path.display()),
        v => println!("{}: migrated from schema version {v} to {SCHEMA_VERSION}", path.display()),
    }
    Ok(())
}

/// The database setting as a SQLite file; a PostgreSQL address is refused with the reason
/// (this build stores in SQLite only), rather than taken for a file name.
pub fn sqlite_path(db: &Path) -> anyhow::Result<&Path> {
    let text = db.to_string_lossy();
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        anyhow::bail!(
            "the database {text} is a PostgreSQL address; this build of html2rss stores in a SQLite file only \
             (give a file path as db)"
        );
    }
    Ok(db)
}
