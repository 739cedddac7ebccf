//! The real web server and updater in the test process, on port 0, with a configuration for
//! loopback pages (`allow_private`) and short intervals.

use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use html2rss::config::Config;
use html2rss::store::Store;
use html2rss::updater::{Pool, PoolConfig, RefreshContext};
use html2rss::web::{self, AppState, WebSettings};

pub const ADMIN_TOKEN: &str = "test-admin-token";

/// The configuration tests run with: loopback allowed, no per-host delay, quick updater.
pub fn config(db: &Path) -> Config {
    let text = format!(
        r#"
        db = "{}"
        admin_token = "{ADMIN_TOKEN}"
        first_fetch_deadline = "5s"
        first_fetches_per_minute = 0
        [fetch]
        allow_private = true
        timeout = "5s"
        read_timeout = "5s"
        [updater]
        fresh_workers = 1
        workers = 2
        min_interval = "1s"
        per_host_delay = "0s"
        backoff_base = "1s"
        idle_poll = "100ms"
        shutdown_grace = "2s"
        "#,
        db.display()
    );
    Config::parse(&text, Path::new("test.toml")).unwrap()
}

pub struct Running {
    pub addr: SocketAddr,
    pub ctx: Arc<RefreshContext>,
    pub pool: Option<Pool>,
    pub handle: actix_web::dev::ServerHandle,
}

impl Running {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The `/rss` address of a page.
    pub fn rss(&self, page: &str, extra: &str) -> String {
        let encoded: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
        self.url(&format!("/rss?url={encoded}{extra}"))
    }

    pub async fn stop(mut self) {
        self.handle.stop(true).await;
        if let Some(pool) = self.pool.take() {
            pool.shutdown(Duration::from_secs(2)).await;
        }
    }
}

/// Start the server (and the updater when `updater` is true) on the current runtime.
pub fn start(config: &Config, updater: bool) -> Running {
    let store = Store::open(&config.db).unwrap();
    let ctx = Arc::new(RefreshContext::from_config(config, store).unwrap());
    let pool = updater.then(|| Pool::start(ctx.clone(), PoolConfig::from_config(config)));
    let token = web::admin_token(config.admin_token.as_deref(), &ctx.store).unwrap();
    let state =
        AppState::new(ctx.clone(), pool.as_ref().map(Pool::status), WebSettings::from_config(config), token.token)
            .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = web::server(listener, Arc::new(state)).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    Running { addr, ctx, pool, handle }
}

/// A reqwest client for talking to our server (not the fetcher under test).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}
