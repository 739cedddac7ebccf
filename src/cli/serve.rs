//! `html2rss serve`: configuration (file, then environment, then flags), the store, the web
//! server and the updater together, stopped gracefully by SIGINT or SIGTERM.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use crate::config::Config;
use crate::store::Store;
use crate::updater::{Pool, PoolConfig, RefreshContext, follow_store};
use crate::web::{self, AppState, WebSettings};

/// A line for the operator on stderr. Unlike `eprintln!`, a closed stderr (a supervisor gone,
/// a pipe nobody reads any more) does not panic: the server keeps serving.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

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
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("html2rss=info"));
    // A second start in one process (tests) finds the subscriber set already; that is fine.
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    // Opening the store creates or migrates the database now, so that a bad file stops the
    // server at start rather than at its first request.
    let store = Store::open(&config.db)
        .with_context(|| format!("cannot use the database {}", crate::store::shown(&config.db)))?;
    let listener =
        std::net::TcpListener::bind(&config.listen).with_context(|| format!("cannot listen on {}", config.listen))?;
    let address = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        // Blocking work (SQLite, extraction) is bounded by the web and updater semaphores;
        // tokio's default of 512 threads would only let a burst grow memory.
        .max_blocking_threads(64)
        .enable_all()
        .build()?;
    let db = store.location();
    runtime.block_on(async move {
        let token = web::admin_token(config.admin_token.as_deref(), &store).context("cannot set up the admin token")?;
        let generated = token.generated.then(|| token.token.clone());
        let ctx = Arc::new(RefreshContext::from_config(&config, store)?);
        // On a shared store: what the other servers change, told as it happens.
        if let Some(events) = ctx.store.events() {
            tokio::spawn(follow_store(ctx.clone(), events));
        }
        let pool = Pool::start(ctx.clone(), PoolConfig::from_config(&config));
        let state = AppState::new(ctx, Some(pool.status()), WebSettings::from_config(&config), token.token)
            .context("cannot set up the web server")?;
        let server = web::server(listener, Arc::new(state))?;
        let handle = server.handle();
        let running = tokio::spawn(server);
        say!("html2rss listening on http://{address} (database {db}); admin page /admin");
        if let Some(token) = generated {
            say!("html2rss: generated the admin token (shown only now; kept in the database):\n  {token}");
        }
        shutdown_signal().await?;
        say!("html2rss: stopping (requests and refreshes in flight may finish)");
        handle.stop(true).await;
        let stopped = pool.shutdown(config.updater.shutdown_grace).await;
        if stopped.abandoned > 0 {
            say!("html2rss: abandoned {} refreshes; their sources are refreshed after the restart", stopped.abandoned);
        }
        running.await.context("the web server task failed")??;
        Ok(())
    })
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() -> anyhow::Result<()> {
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        interrupted = tokio::signal::ctrl_c() => interrupted?,
        _ = terminate.recv() => {}
    }
    Ok(())
}
