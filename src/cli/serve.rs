//! `html2rss serve`.

use std::path::PathBuf;

use anyhow::Context;

pub fn run(_config: Option<PathBuf>, listen: Option<String>, _db: Option<PathBuf>) -> anyhow::Result<()> {
    let listen = listen.unwrap_or_else(|| "127.0.0.1:8080".to_string());
    let listener = std::net::TcpListener::bind(&listen).with_context(|| format!("cannot listen on {listen}"))?;
    eprintln!("html2rss listening on http://{}", listener.local_addr()?);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async { crate::web::server(listener)?.await })?;
    Ok(())
}
