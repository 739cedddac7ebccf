//! `html2rss serve`: configuration (file, then environment, then flags), the store, the server.

use std::path::PathBuf;

use anyhow::Context;

use crate::config::Config;
use crate::store::Store;

pub fn run(config: Option<PathBuf>, listen: Option<String>, db: Option<PathBuf>) -> anyhow::Result<()> {
    let mut config = match config {
        Some(path) => Config::load(&path)?,
        None => Config::default(),
    };
    config.apply_env(|name| std::env::var(name).ok());
    if let Some(listen) = listen {
        config.listen = listen;
    }
    if let Some(db) = db {
        config.db = db;
    }
    // Opening the store creates or migrates the database now, so that a bad file stops the
    // server at start rather than at its first request.
    let store = Store::open(&config.db).with_context(|| format!("cannot use the database {}", config.db.display()))?;
    let listener =
        std::net::TcpListener::bind(&config.listen).with_context(|| format!("cannot listen on {}", config.listen))?;
    eprintln!("html2rss listening on http://{} (database {})", listener.local_addr()?, store.path().display());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async { crate::web::server(listener)?.await })?;
    Ok(())
}
