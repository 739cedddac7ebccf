//! The HTTP API (actix-web; the only module that knows actix).
//!
//! | route | who | what |
//! |---|---|---|
//! | `GET /[?url=U&full&include&exclude&limit]` | anyone (the admin when feeds need tokens) | the home page: preview a page's feed, subscribe |
//! | `GET /rss?url=U[&format=rss\|atom\|json][&token=T]` | anyone (token when required) | the feed of a page |
//! | `POST /rules` | admin | upload a mapping rule (XML) |
//! | `GET /rules`, `GET /rules/{id}`, `DELETE /rules/{id}` | admin | list, read, delete rules |
//! | `POST /rules/test?url=U` | admin | apply a rule (the body) to a page; nothing is saved |
//! | `GET /admin` | admin | the status page |
//! | `GET /builder?url=U`, `GET /builder/frame?url=U`, `POST /builder/rule` | admin | the rule builder |
//! | `GET /opml` | admin | every feed, for readers to import |
//! | `GET /healthz`, `GET /metrics` | anyone | liveness and store reachability, Prometheus text |
//!
//! Errors are an HTTP status with a plain-text reason, never fake items. [`server`] runs on an
//! already bound listener, so tests bind port 0.

mod admin;
pub mod auth;
mod builder;
mod cache;
mod home;
mod metrics;
mod rss;
mod rules;

use std::collections::HashMap;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use actix_web::dev::{Server, Service};
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderValue};
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use url::Url;

use crate::config::Config;
use crate::feed::filter::FeedFilter;
use crate::store::{Store, StoreError};
use crate::updater::{PoolStatus, RefreshContext, lease_for};

pub use auth::{AdminToken, admin_token};

/// `/rss` renders (and other blocking store work) at once at most; more would only add threads
/// and store connections (and memory), not speed, on a machine of a few cores. Point reads
/// run on the HTTP workers.
const STORE_SLOTS: usize = 4;
/// How often the store is pinged for `/healthz`.
const PING_EVERY: Duration = Duration::from_secs(1);
/// Admin login tries per client address and minute: a person mistyping the token needs a
/// few; guessing 128 random bits at this rate never ends.
const LOGINS_PER_MINUTE: u32 = 10;

/// What the web server is told by the configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct WebSettings {
    pub items_per_feed: usize,
    pub first_fetch_deadline: Duration,
    pub first_fetches_per_minute: u32,
    pub require_feed_tokens: bool,
    pub public_url: Option<Url>,
    pub feed_cache_size: u64,
    /// How long a feed's stamp read from the store is trusted.
    pub stamp_ttl: Duration,
    /// The update interval a new source starts with.
    pub default_interval: Duration,
    /// How long a first fetch holds its new source before the updater may take it.
    pub lease: Duration,
}

impl WebSettings {
    pub fn from_config(config: &Config) -> WebSettings {
        WebSettings {
            items_per_feed: config.items_per_feed,
            first_fetch_deadline: config.first_fetch_deadline,
            first_fetches_per_minute: config.first_fetches_per_minute,
            require_feed_tokens: config.require_feed_tokens,
            public_url: config.public_url.as_deref().and_then(|u| Url::parse(u).ok()),
            feed_cache_size: config.feed_cache_size,
            stamp_ttl: config.stamp_ttl,
            default_interval: config.updater.default_interval,
            lease: lease_for(config),
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    ctx: Arc<RefreshContext>,
    /// The updater, when it runs in this process.
    pool: Option<PoolStatus>,
    settings: WebSettings,
    admin_token: String,
    feed_key: String,
    /// First fetches in flight, by URL: concurrent first requests share one.
    flights: Mutex<HashMap<Url, rss::Flight>>,
    cache: cache::FeedCache,
    stamps: cache::StampCache,
    /// `/rss` renders at once at most: each holds a store connection and a blocking thread.
    store_slots: tokio::sync::Semaphore,
    limiter: auth::RateLimiter,
    /// Admin logins (`/admin?token=`) per client address: guessing the token is slowed to
    /// [`LOGINS_PER_MINUTE`] tries, whatever the comparison costs.
    logins: auth::RateLimiter,
    metrics: metrics::WebMetrics,
    /// The store's last ping, for `/healthz`.
    health: Arc<StoreHealth>,
    /// Pages the rule builder fetched lately.
    builder_pages: builder::BuilderPages,
    /// The runtime first fetches run on (not an HTTP worker's: a first fetch outlives the
    /// request that started it when the reader gives up waiting).
    runtime: tokio::runtime::Handle,
    started: Instant,
}

impl AppState {
    /// Call from within the tokio runtime that should run first fetches.
    pub fn new(
        ctx: Arc<RefreshContext>,
        pool: Option<PoolStatus>,
        settings: WebSettings,
        admin_token: String,
    ) -> Result<AppState, StoreError> {
        let feed_key = auth::feed_key(&ctx.store)?;
        let health = Arc::new(StoreHealth::default());
        tokio::spawn(ping_store(Arc::downgrade(&health), ctx.store.clone()));
        Ok(AppState {
            cache: cache::FeedCache::new(usize::try_from(settings.feed_cache_size).unwrap_or(usize::MAX)),
            stamps: cache::StampCache::new(settings.stamp_ttl),
            store_slots: tokio::sync::Semaphore::new(STORE_SLOTS),
            limiter: auth::RateLimiter::new(settings.first_fetches_per_minute),
            logins: auth::RateLimiter::new(LOGINS_PER_MINUTE),
            ctx,
            pool,
            settings,
            admin_token,
            feed_key,
            flights: Mutex::new(HashMap::new()),
            metrics: metrics::WebMetrics::default(),
            builder_pages: builder::BuilderPages::default(),
            health,
            runtime: tokio::runtime::Handle::current(),
            started: Instant::now(),
        })
    }

    /// The feed address of a page as readers subscribe to it (`token` included when required).
    pub fn feed_url(&self, origin: &str, page: &Url, format: crate::feed::Format) -> String {
        self.filtered_feed_url(origin, page, format, &FeedFilter::default())
    }

    /// [`AppState::feed_url`] with feed options.
    pub fn filtered_feed_url(
        &self,
        origin: &str,
        page: &Url,
        format: crate::feed::Format,
        filter: &FeedFilter,
    ) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.append_pair("url", page.as_str());
        if format != crate::feed::Format::Rss {
            query.append_pair("format", &format.to_string());
        }
        query.extend_pairs(filter.query_pairs());
        if self.settings.require_feed_tokens {
            query.append_pair("token", &auth::feed_token(&self.feed_key, page));
        }
        format!("{}/rss?{}", origin.trim_end_matches('/'), query.finish())
    }

    /// Where this server is reached: the configured public address, else the request's host.
    fn origin(&self, request: &HttpRequest) -> String {
        match &self.settings.public_url {
            Some(url) => url.as_str().trim_end_matches('/').to_string(),
            None => {
                let info = request.connection_info();
                format!("{}://{}", info.scheme(), info.host())
            }
        }
    }

    /// Run store (or other blocking) work off the HTTP workers.
    async fn blocking<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, HttpResponse> {
        web::block(f).await.map_err(|e| plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("internal error: {e}")))
    }
}

/// An error answer: the status and a plain-text reason.
pub(crate) fn plain(status: StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status).content_type("text/plain; charset=utf-8").body(format!("{message}\n"))
}

/// A store failure as an answer.
pub(crate) fn store_error(error: StoreError) -> HttpResponse {
    tracing::error!("store: {error}");
    plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("internal error: {error}"))
}

/// Whether the store answered its last ping.
struct StoreHealth {
    ok: AtomicBool,
    /// Why it did not.
    reason: Mutex<String>,
}

impl Default for StoreHealth {
    fn default() -> StoreHealth {
        // The store was just opened: it answered.
        StoreHealth { ok: AtomicBool::new(true), reason: Mutex::new(String::new()) }
    }
}

/// Ping the store every [`PING_EVERY`] until the server is gone.
async fn ping_store(health: Weak<StoreHealth>, store: Store) {
    let mut tick = tokio::time::interval(PING_EVERY);
    loop {
        tick.tick().await;
        let Some(health) = health.upgrade() else { return };
        let pinging = store.clone();
        let answer = match tokio::task::spawn_blocking(move || pinging.ping()).await {
            Ok(answer) => answer.map_err(|e| e.to_string()),
            Err(error) => Err(error.to_string()),
        };
        if let Err(reason) = &answer {
            *health.reason.lock().unwrap_or_else(PoisonError::into_inner) = reason.clone();
        }
        health.ok.store(answer.is_ok(), Ordering::Relaxed);
    }
}

/// Liveness and store reachability, from the last ping of a background tick: `/healthz` is
/// polled often (and is `bench_rss.sh`'s measure of the HTTP stack alone), so it reads a flag
/// and never waits for the store itself.
async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    if state.health.ok.load(Ordering::Relaxed) {
        return HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok\n");
    }
    let reason = state.health.reason.lock().unwrap_or_else(PoisonError::into_inner).clone();
    plain(StatusCode::SERVICE_UNAVAILABLE, &format!("store unreachable: {reason}"))
}

/// The server on an already bound listener, started; await it (or its handle's `stop`) to end.
pub fn server(listener: TcpListener, state: Arc<AppState>) -> std::io::Result<Server> {
    let data = web::Data::from(state);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .wrap_fn(|request, service| {
                let state = request.app_data::<web::Data<AppState>>().cloned();
                let route = request.match_pattern().unwrap_or_else(|| "other".to_string());
                let call = service.call(request);
                async move {
                    let response = call.await?;
                    if let Some(state) = state {
                        state.metrics.request(&route, response.status().as_u16());
                    }
                    Ok(response)
                }
            })
            .route("/", web::get().to(home::page))
            .route("/rss", web::get().to(rss::feed))
            .route("/rss", web::head().to(rss::feed))
            .route("/rules", web::post().to(rules::upload))
            .route("/rules", web::get().to(rules::list))
            .route("/rules/test", web::post().to(rules::test))
            .route("/rules/{id}", web::get().to(rules::get))
            .route("/rules/{id}", web::delete().to(rules::delete))
            .route("/admin", web::get().to(admin::page))
            .route("/builder", web::get().to(builder::page))
            .route("/builder/frame", web::get().to(builder::frame))
            .route("/builder/rule", web::post().to(builder::rule))
            .route("/static/{file}", web::get().to(admin::asset))
            .route("/opml", web::get().to(admin::opml))
            .route("/healthz", web::get().to(healthz))
            .route("/metrics", web::get().to(metrics::metrics))
            .default_service(web::to(|| async { plain(StatusCode::NOT_FOUND, "not found") }))
    })
    .disable_signals()
    .listen(listener)?
    .run();
    Ok(server)
}

/// The answer to a request without the admin token.
pub(crate) fn unauthorized() -> HttpResponse {
    let mut response =
        plain(StatusCode::UNAUTHORIZED, "this needs the admin token: send `Authorization: Bearer TOKEN`");
    response.headers_mut().insert(actix_web::http::header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// A JSON answer.
pub(crate) fn json(status: StatusCode, value: &impl serde::Serialize) -> HttpResponse {
    match serde_json::to_string_pretty(value) {
        Ok(body) => HttpResponse::build(status).insert_header((CONTENT_TYPE, "application/json")).body(body),
        Err(error) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("internal error: {error}")),
    }
}
