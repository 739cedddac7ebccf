//! `GET /admin`: the status page (askama templates in `templates/`, CSS and JS from `static/`
//! built into the binary), its login, and `GET /opml`; the page plumbing the home page shares.
//!
//! The page works without JavaScript; the script only shows times relative to now and makes
//! the rule forms send their requests. Askama escapes every value, so page titles, URLs and
//! error messages from the web are shown as text.

use std::collections::HashMap;
use std::sync::LazyLock;

use actix_web::http::StatusCode;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, LOCATION, RETRY_AFTER, SET_COOKIE,
    X_FRAME_OPTIONS,
};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::{AppState, auth, plain, store_error};
use crate::feed::Format;
use crate::store::{ArticleCounts, DateCounts, Health, Source, SourceId, Stats};
use crate::updater::MAX_ARTICLE_ATTEMPTS;

const CSS: &str = include_str!("../../static/admin.css");
const JS: &str = include_str!("../../static/admin.js");
const HOME_JS: &str = include_str!("../../static/home.js");
const BUILDER_JS: &str = include_str!("../../static/builder.js");
/// Sources shown per page of the admin page.
const PAGE_SIZE: usize = 100;
/// Newest item titles shown per source: enough to see at a glance that a feed is right.
const LATEST_ITEMS: usize = 3;

/// A version of the static files for their URLs, so browsers may keep them for long.
pub(super) static ASSET_VERSION: LazyLock<String> = LazyLock::new(|| {
    hex::encode(
        &Sha256::new().chain_update(CSS).chain_update(JS).chain_update(HOME_JS).chain_update(BUILDER_JS).finalize()
            [..6],
    )
});

pub async fn asset(request: HttpRequest) -> HttpResponse {
    let (body, content_type) = match request.match_info().get("file") {
        Some("admin.css") => (CSS, "text/css; charset=utf-8"),
        Some("admin.js") => (JS, "text/javascript; charset=utf-8"),
        Some("home.js") => (HOME_JS, "text/javascript; charset=utf-8"),
        Some("builder.js") => (BUILDER_JS, "text/javascript; charset=utf-8"),
        _ => return plain(StatusCode::NOT_FOUND, "not found"),
    };
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, content_type))
        .insert_header((CACHE_CONTROL, "public, max-age=86400"))
        .body(body)
}

/// A time as the page shows it: machine-readable for the script, readable without it.
struct When {
    iso: String,
    text: String,
}

impl When {
    fn of(time: Option<DateTime<Utc>>) -> When {
        match time {
            Some(t) => When { iso: t.to_rfc3339(), text: t.format("%Y-%m-%d %H:%M UTC").to_string() },
            None => When { iso: String::new(), text: "never".into() },
        }
    }
}

struct SourceRow {
    url: String,
    feed: String,
    /// The home page's preview of the feed: its items as readers get them.
    preview: String,
    /// The rule builder on the page: "fix this feed".
    builder: String,
    /// The newest items' titles.
    latest: String,
    title: String,
    engine: String,
    confidence: String,
    last_fetch: When,
    took: String,
    status: String,
    items: u64,
    /// Empty when the list page dates every item; else how many of the items it gives no
    /// date have their article's date, and how many have none to take.
    dates: String,
    /// Empty when full text is off; else how many items have content, and failures.
    full_text: String,
    next_due: When,
    error: String,
    health: &'static str,
}

struct RuleRow {
    id: i64,
    name: String,
    patterns: String,
    updated: When,
}

struct WorkerRow {
    kind: &'static str,
    url: String,
    since: When,
}

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    version: &'static str,
    asset_version: String,
    /// Sent back by the page's script in `X-CSRF-Token` when it changes rules.
    csrf_token: String,
    uptime: String,
    stats: Stats,
    refreshes: Vec<(&'static str, u64)>,
    fetches: u64,
    fetch_errors: u64,
    items_new: u64,
    workers: Vec<WorkerRow>,
    updater_running: bool,
    sources: Vec<SourceRow>,
    shown_from: usize,
    shown_to: usize,
    matching: usize,
    previous: Option<String>,
    next: Option<String>,
    health: String,
    rules: Vec<RuleRow>,
    templates: Vec<(String, String, When)>,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    asset_version: String,
    failed: bool,
}

/// Our pages load scripts, styles and images from our origin only, run no inline script,
/// post forms only to us, and are framed by no one.
const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub(super) fn html(status: StatusCode, rendered: Result<String, askama::Error>) -> HttpResponse {
    match rendered {
        Ok(body) => HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .insert_header((CONTENT_SECURITY_POLICY, PAGE_POLICY))
            .insert_header((X_FRAME_OPTIONS, "DENY"))
            .body(body),
        Err(error) => plain(StatusCode::INTERNAL_SERVER_ERROR, &format!("the page failed: {error}")),
    }
}

/// The severity order of health, problems first.
fn severity(health: Health) -> u8 {
    match health {
        Health::StoppedMatching => 0,
        Health::Unhealthy => 1,
        Health::Failing => 2,
        Health::Ok => 3,
    }
}

pub async fn page(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let query: Vec<(String, String)> =
        url::form_urlencoded::parse(request.query_string().as_bytes()).into_owned().collect();
    let param = |name: &str| query.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    // Log in: the token from the form becomes a cookie, and the address loses the token.
    if let Some(token) = param("token") {
        if let Some(client) = request.peer_addr().map(|a| a.ip())
            && let Err(wait) = state.logins.take(client)
        {
            let mut response = plain(StatusCode::TOO_MANY_REQUESTS, "too many login attempts from your address");
            if let Ok(value) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            return response;
        }
        if !auth::same(token.trim(), &state.admin_token) {
            let page = LoginPage { asset_version: ASSET_VERSION.clone(), failed: true };
            return html(StatusCode::UNAUTHORIZED, page.render());
        }
        return HttpResponse::SeeOther()
            .insert_header((LOCATION, "/admin"))
            .insert_header((
                SET_COOKIE,
                format!(
                    "{}={}; Path=/; HttpOnly; SameSite=Strict{}",
                    auth::ADMIN_COOKIE,
                    state.admin_token,
                    // Over TLS (directly or behind a proxy that says so) the cookie never
                    // travels in clear.
                    if request.connection_info().scheme() == "https" { "; Secure" } else { "" }
                ),
            ))
            .finish();
    }
    if !auth::is_admin(&request, &state.admin_token) {
        let page = LoginPage { asset_version: ASSET_VERSION.clone(), failed: false };
        return html(StatusCode::UNAUTHORIZED, page.render());
    }
    let health = param("health").unwrap_or_default();
    let page_number: usize = param("page").and_then(|p| p.parse().ok()).unwrap_or(1).max(1);
    let store = state.ctx.store.clone();
    let loaded = state
        .blocking(move || -> crate::store::Result<_> {
            let counts = (store.article_counts()?, store.date_counts(MAX_ARTICLE_ATTEMPTS)?);
            Ok((store.stats(Utc::now())?, store.sources()?, store.rules()?, store.templates()?, counts))
        })
        .await;
    let (stats, mut sources, rules, templates, counts) = match loaded {
        Ok(Ok(loaded)) => loaded,
        Ok(Err(error)) => return store_error(error),
        Err(response) => return response,
    };
    sources.retain(|s| health.is_empty() || s.health.as_str() == health);
    sources.sort_by(|a, b| severity(a.health).cmp(&severity(b.health)).then_with(|| a.url.cmp(&b.url)));
    let matching = sources.len();
    let start = (page_number - 1) * PAGE_SIZE;
    let origin = state.origin(&request);
    let shown: Vec<SourceId> = sources.iter().skip(start).take(PAGE_SIZE).map(|s| s.id).collect();
    let store = state.ctx.store.clone();
    let latest = state
        .blocking(move || -> crate::store::Result<HashMap<SourceId, String>> {
            shown
                .into_iter()
                .map(|id| {
                    let titles: Vec<String> =
                        store.items(id, LATEST_ITEMS)?.into_iter().map(|i| i.item.title).collect();
                    Ok((id, titles.join(" · ")))
                })
                .collect()
        })
        .await;
    let latest = match latest {
        Ok(Ok(latest)) => latest,
        Ok(Err(error)) => return store_error(error),
        Err(response) => return response,
    };
    let rows: Vec<SourceRow> = sources
        .iter()
        .skip(start)
        .take(PAGE_SIZE)
        .map(|s| SourceRow {
            latest: latest.get(&s.id).cloned().unwrap_or_default(),
            ..source_row(&state, &origin, s, &counts)
        })
        .collect();
    let link = |n: usize| {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        if !health.is_empty() {
            query.append_pair("health", &health);
        }
        query.append_pair("page", &n.to_string());
        format!("/admin?{}", query.finish())
    };
    let updater = state.ctx.stats.snapshot();
    let workers = state
        .pool
        .as_ref()
        .map(|pool| {
            pool.workers()
                .into_iter()
                .map(|w| WorkerRow {
                    kind: if w.fresh_only { "fresh" } else { "normal" },
                    url: w.refreshing.as_ref().map(|(u, _)| u.to_string()).unwrap_or_default(),
                    since: When::of(w.refreshing.map(|(_, since)| since)),
                })
                .collect()
        })
        .unwrap_or_default();
    let page = AdminPage {
        version: env!("CARGO_PKG_VERSION"),
        asset_version: ASSET_VERSION.clone(),
        csrf_token: auth::csrf_token(&state.admin_token),
        uptime: format_duration(state.started.elapsed()),
        stats,
        refreshes: updater.refreshes.iter().map(|(o, n)| (o.as_str(), *n)).collect(),
        fetches: updater.fetches,
        fetch_errors: updater.fetch_errors.iter().map(|(_, n)| n).sum(),
        items_new: updater.items_new,
        workers,
        updater_running: state.pool.is_some(),
        shown_from: if rows.is_empty() { 0 } else { start + 1 },
        shown_to: start + rows.len(),
        sources: rows,
        matching,
        previous: (page_number > 1).then(|| link(page_number - 1)),
        next: (start + PAGE_SIZE < matching).then(|| link(page_number + 1)),
        health,
        rules: rules
            .into_iter()
            .map(|r| RuleRow {
                id: r.id.0,
                name: r.name,
                patterns: r.url_patterns.join(" "),
                updated: When::of(Some(r.updated)),
            })
            .collect(),
        templates: templates
            .into_iter()
            .map(|t| (t.site, format!("{:.0} %", t.confidence * 100.0), When::of(Some(t.trained_at))))
            .collect(),
    };
    html(StatusCode::OK, page.render())
}

fn source_row(
    state: &AppState,
    origin: &str,
    source: &Source,
    (articles, dates): &(HashMap<SourceId, ArticleCounts>, HashMap<SourceId, DateCounts>),
) -> SourceRow {
    let dates = match dates.get(&source.id) {
        None => String::new(),
        Some(c) if c.not_found > 0 => {
            format!("dates: {} of {} from articles ({} not found)", c.from_articles, c.undated, c.not_found)
        }
        Some(c) => format!("dates: {} of {} from articles", c.from_articles, c.undated),
    };
    let full_text = match (source.settings.full_text, articles.get(&source.id)) {
        (false, _) => String::new(),
        (true, None) => "on".into(),
        (true, Some(c)) if c.failed > 0 => format!("{} of {} ({} failed)", c.with_content, c.items, c.failed),
        (true, Some(c)) => format!("{} of {}", c.with_content, c.items),
    };
    let query = url::form_urlencoded::Serializer::new(String::new()).append_pair("url", source.url.as_str()).finish();
    SourceRow {
        url: source.url.to_string(),
        feed: state.feed_url(origin, &source.url, Format::Rss),
        preview: format!("/?{query}"),
        builder: format!("/builder?{query}"),
        latest: String::new(),
        title: source.title.clone().unwrap_or_default(),
        engine: source.engine.map(engine_name).unwrap_or_default(),
        confidence: source.confidence.map(|c| format!("{:.0} %", c * 100.0)).unwrap_or_default(),
        last_fetch: When::of(source.last_fetch),
        took: source.last_duration.map(|d| format!("{} ms", d.as_millis())).unwrap_or_default(),
        status: source.http_status.map(|s| s.to_string()).unwrap_or_else(|| "–".into()),
        items: source.item_count,
        dates,
        full_text,
        next_due: When::of(Some(source.next_due)),
        error: source.error.clone().unwrap_or_default(),
        health: source.health.as_str(),
    }
}

fn engine_name(engine: crate::engines::Engine) -> String {
    match serde_json::to_value(engine) {
        Ok(serde_json::Value::String(name)) => name,
        _ => format!("{engine:?}"),
    }
}

fn format_duration(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86400, s % 86400 / 3600),
    }
}

/// `GET /opml`: every feed, as OPML 2.0 for readers to import.
pub async fn opml(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !auth::is_admin(&request, &state.admin_token) {
        return super::unauthorized();
    }
    let store = state.ctx.store.clone();
    let sources = match state.blocking(move || store.sources()).await {
        Ok(Ok(sources)) => sources,
        Ok(Err(error)) => return store_error(error),
        Err(response) => return response,
    };
    let origin = state.origin(&request);
    let escape = |text: &str| quick_xml::escape::escape(crate::feed::xml_clean(text)).into_owned();
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n<head><title>html2rss feeds</title></head>\n<body>\n",
    );
    for source in &sources {
        let title = source.title.clone().filter(|t| !t.trim().is_empty()).unwrap_or_else(|| source.url.to_string());
        out.push_str(&format!(
            "<outline type=\"rss\" text=\"{}\" title=\"{}\" xmlUrl=\"{}\" htmlUrl=\"{}\"/>\n",
            escape(&title),
            escape(&title),
            escape(&state.feed_url(&origin, &source.url, Format::Rss)),
            escape(source.url.as_str()),
        ));
    }
    out.push_str("</body>\n</opml>\n");
    HttpResponse::Ok().content_type("text/x-opml; charset=utf-8").body(out)
}
