//! `GET /rss?url=U[&format=rss|atom|json][&full=1][&token=T][&include=RE][&exclude=RE][&limit=N]`:
//! the feed of a page. `include`/`exclude`/`limit` ([`FeedFilter`]) shape what one reader gets
//! and are part of the feed's identity (its cache entry, self link and so its `ETag`).
//!
//! `full=1` turns full text on for the page's source (items get the content and author of
//! their article pages; see [`crate::updater::enrich_stored`]). It is a setting of the source,
//! not of the request: one page has one feed, rendered and cached once for every reader, and
//! `full=1` never turns full text off. A new URL asked for with `full=1` gets its items'
//! content in its first fetch; a stored source that had it off is made due at once, and the
//! updater's next refresh adds the content, which changes the feed's `ETag` (until then readers
//! get the feed as it was, and `304` for it).
//!
//! A stored feed is answered from its stored render (written when a refresh changed the feed;
//! see [`crate::updater::renders`]) with the reader's self link filled in, through the cache of
//! rendered feeds, with a strong `ETag` and `Last-Modified` and `304` for readers that have it
//! already. A feed stored before renders were kept is rendered and kept at its first request.
//! A URL not stored yet is fetched and extracted at once (the updater's own
//! [`refresh_source`]), within the configured deadline; concurrent first requests for one URL
//! share that one fetch, which runs to its end even when the readers stop waiting, so the next
//! request finds the feed stored. Across servers on one store, the server that adds the source
//! leases it for its fetch; another server asked for the URL meanwhile waits for that fetch
//! instead of fetching the page too.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use actix_web::http::StatusCode;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_TYPE, ETAG, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, RETRY_AFTER,
};
use actix_web::{HttpRequest, HttpResponse, web};
use bytes::Bytes;
use chrono::Utc;
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use sha2::{Digest, Sha256};
use url::Url;

use super::cache::{CacheKey, Rendered};
use super::{AppState, auth, plain, store_error};
use crate::feed::filter::FeedFilter;
use crate::feed::{self, FeedMeta, FeedTemplate, Format};
use crate::fetch::{FetchError, FetchErrorKind};
use crate::store::{FeedStamp, SourceId, SourceSettings, StoredRender};
use crate::updater::{RefreshError, Schedule, refresh_source, render_stored};

/// A first fetch in flight; every request waiting for the URL holds a clone.
pub type Flight = Shared<BoxFuture<'static, Result<(), Arc<RefreshError>>>>;

/// The query of `/rss` (and of the home page's preview), checked.
pub(super) struct RssQuery {
    pub url: Url,
    pub format: Format,
    token: Option<String>,
    /// `full=1`: turn full text on for the source.
    pub full: bool,
    pub filter: FeedFilter,
}

impl RssQuery {
    pub fn parse(query: &str) -> Result<RssQuery, String> {
        let (mut url, mut format, mut token, mut full) = (None, Format::Rss, None, false);
        let (mut include, mut exclude, mut limit) = (None, None, None);
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            match name.as_ref() {
                "url" => url = Some(value.into_owned()),
                "include" => include = Some(value.into_owned()),
                "exclude" => exclude = Some(value.into_owned()),
                "limit" => limit = Some(value.into_owned()),
                "format" => format = value.parse()?,
                "token" => token = Some(value.into_owned()),
                "full" => {
                    full = match value.as_ref() {
                        "1" | "true" | "yes" | "on" => true,
                        "0" | "false" | "no" | "off" | "" => false,
                        other => return Err(format!("`full={other}`: use full=1 for full text")),
                    }
                }
                _ => {}
            }
        }
        let filter = FeedFilter::parse(include.as_deref(), exclude.as_deref(), limit.as_deref())?;
        let text = url.ok_or("missing the `url` parameter: /rss?url=https://example.org/news (URL-encoded)")?;
        let mut url = Url::parse(text.trim()).map_err(|e| format!("`{text}` is not a valid URL: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("`{text}`: only http and https pages have feeds here"));
        }
        if url.host().is_none() {
            return Err(format!("`{text}` has no host"));
        }
        // The fragment is never sent to the server: one page, one feed.
        url.set_fragment(None);
        Ok(RssQuery { url, format, token, full, filter })
    }
}

pub async fn feed(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let query = match RssQuery::parse(request.query_string()) {
        Ok(query) => query,
        Err(reason) => return plain(StatusCode::BAD_REQUEST, &reason),
    };
    if state.settings.require_feed_tokens {
        let expected = auth::feed_token(&state.feed_key, &query.url);
        if !query.token.as_deref().is_some_and(|given| auth::same(given, &expected)) {
            return plain(
                StatusCode::FORBIDDEN,
                "this feed needs its access token (`&token=`); ask the server's admin",
            );
        }
    }
    match stamp_for(&request, &state, &query).await {
        Ok(stamp) => stored(&request, &state, &query, stamp).await,
        Err(response) => response,
    }
}

/// The stamp of the page's stored feed, fetching the page first when it is new (within the
/// first-fetch deadline), and with full text turned on when the query asks for it. The error
/// is the answer to give: a status and a plain reason.
pub(super) async fn stamp_for(
    request: &HttpRequest,
    state: &web::Data<AppState>,
    query: &RssQuery,
) -> Result<FeedStamp, HttpResponse> {
    let stamp = match known_stamp(state, &query.url).await? {
        Some(stamp) if stamp.item_count > 0 => stamp,
        _ => first_fetch(request, state, &query.url, query.full).await?,
    };
    if query.full && !stamp.full_text {
        turn_on_full_text(state, stamp).await?;
    }
    Ok(stamp)
}

/// Turn full text on for a stored source and make it due, so that the updater adds the
/// content of its items at its next look (woken now).
async fn turn_on_full_text(state: &web::Data<AppState>, stamp: FeedStamp) -> Result<(), HttpResponse> {
    let store = state.ctx.store.clone();
    let changed =
        state.blocking(move || store.set_full_text(stamp.id, true, Utc::now())).await?.map_err(store_error)?;
    if changed {
        // The kept stamps say "off" until they are read again.
        state.ctx.changes.touch(stamp.id);
        if let Some(pool) = &state.pool {
            pool.wake();
        }
    }
    Ok(())
}

/// The stamp of a stored feed: kept from an earlier request while its source is unchanged,
/// else read from the store (and kept when the feed has items).
async fn known_stamp(state: &web::Data<AppState>, url: &Url) -> Result<Option<FeedStamp>, HttpResponse> {
    let now = Instant::now();
    if let Some(stamp) = state.stamps.get(url, &state.ctx.changes, now) {
        return Ok(Some(stamp));
    }
    let noted = state.ctx.changes.current();
    // One indexed row, read here on the HTTP worker like a stored render (see [`made`]).
    let stamp = state.ctx.store.feed_stamp(url).map_err(store_error)?;
    if let Some(stamp) = stamp.filter(|s| s.item_count > 0) {
        state.stamps.put(url, stamp, noted, now);
    }
    Ok(stamp)
}

/// Fetch a new URL now (or join the fetch already running for it) and return its stamp.
async fn first_fetch(
    request: &HttpRequest,
    state: &web::Data<AppState>,
    url: &Url,
    full_text: bool,
) -> Result<FeedStamp, HttpResponse> {
    let flight = {
        let mut flights = state.flights.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match flights.get(url) {
            Some(flight) => flight.clone(),
            None => {
                if let Some(client) = request.peer_addr().map(|a| a.ip())
                    && let Err(wait) = state.limiter.take(client)
                {
                    state.metrics.first_fetch("rate-limited");
                    let mut response = plain(
                        StatusCode::TOO_MANY_REQUESTS,
                        "too many new feeds from your address; feeds already made are not limited, try new ones later",
                    );
                    if let Ok(value) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
                        response.headers_mut().insert(RETRY_AFTER, value);
                    }
                    return Err(response);
                }
                let flight = start_flight(state, url, full_text);
                flights.insert(url.clone(), flight.clone());
                flight
            }
        }
    };
    match tokio::time::timeout(state.settings.first_fetch_deadline, flight).await {
        Err(_) => {
            state.metrics.first_fetch("deadline");
            Err(plain(
                StatusCode::GATEWAY_TIMEOUT,
                &format!(
                    "{url} did not give a feed within {} s; it is still being fetched, try again shortly",
                    state.settings.first_fetch_deadline.as_secs_f32()
                ),
            ))
        }
        Ok(Err(error)) => {
            state.metrics.first_fetch("failed");
            Err(plain(refresh_status(&error), &error.to_string()))
        }
        Ok(Ok(())) => {
            state.metrics.first_fetch("ok");
            match known_stamp(state, url).await? {
                Some(stamp) if stamp.item_count > 0 => Ok(stamp),
                _ => Err(plain(StatusCode::UNPROCESSABLE_ENTITY, "no items found")),
            }
        }
    }
}

/// Start the first fetch of `url` on the server's runtime.
fn start_flight(state: &web::Data<AppState>, url: &Url, full_text: bool) -> Flight {
    let task_state = state.clone();
    let task_url = url.clone();
    let task = state.runtime.spawn(async move {
        let result = first_refresh(&task_state, &task_url, full_text).await;
        task_state.flights.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&task_url);
        result.map_err(Arc::new)
    });
    async move { task.await.unwrap_or_else(|e| Err(Arc::new(RefreshError::Task(e.to_string())))) }.boxed().shared()
}

/// Add the source (leased, so the updater leaves it to us), refresh it, and forget it again
/// when it gave no feed: a URL that never worked is not kept for the updater. (A source that
/// was stored already but has no items yet, e.g. added while the server was down, is kept.)
/// With `full_text`, a new source has full text on, and the refresh adds its items' content.
async fn first_refresh(state: &AppState, url: &Url, full_text: bool) -> Result<(), RefreshError> {
    let ctx = &state.ctx;
    let now = Utc::now();
    let settings = SourceSettings { rule: None, full_text, update_interval: state.settings.default_interval };
    let (store, add_url, lease) = (ctx.store.clone(), url.clone(), state.settings.lease);
    let (source, created) =
        tokio::task::spawn_blocking(move || store.add_source_leased(&add_url, &settings, now, lease))
            .await
            .map_err(|e| RefreshError::Task(e.to_string()))??;
    if source.item_count > 0 {
        return Ok(());
    }
    // Leased and never fetched: another server's first fetch of the URL is running.
    if !created && source.last_fetch.is_none() && source.next_due > now && fetched_elsewhere(state, source.id).await? {
        return Ok(());
    }
    match refresh_source(ctx, source.id, now).await {
        Ok(_) => Ok(()),
        Err(error) if !created => Err(error),
        Err(error) => {
            let store = ctx.store.clone();
            let id = source.id;
            let forgotten = tokio::task::spawn_blocking(move || match store.source(id)? {
                Some(source) if source.item_count == 0 => store.delete_source(id),
                _ => Ok(false),
            })
            .await;
            if let Ok(Err(store_error)) = forgotten {
                tracing::error!("cannot forget the failed source {url}: {store_error}");
            }
            Err(error)
        }
    }
}

/// How often a server waiting for another server's first fetch of a URL looks at its source.
const FIRST_FETCH_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// Wait for another server's first fetch of the source: `true` when it was fetched; `false` when
/// it is ours to fetch after all, because the other fetch failed (the source was forgotten and
/// its error with it: ours tells the reader why) or the other server died (its lease ran out).
async fn fetched_elsewhere(state: &AppState, id: SourceId) -> Result<bool, RefreshError> {
    loop {
        tokio::time::sleep(FIRST_FETCH_POLL).await;
        let store = state.ctx.store.clone();
        let source = tokio::task::spawn_blocking(move || store.source(id))
            .await
            .map_err(|e| RefreshError::Task(e.to_string()))??;
        match source {
            Some(source) if source.last_fetch.is_some() => return Ok(true),
            Some(source) if source.next_due > Utc::now() => {}
            _ => return Ok(false),
        }
    }
}

/// The HTTP status for a first fetch that failed.
fn refresh_status(error: &RefreshError) -> StatusCode {
    match error {
        RefreshError::Fetch(fetch) => fetch_status(fetch),
        RefreshError::Page { .. } | RefreshError::NoItems { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        RefreshError::NoSuchSource(_) | RefreshError::Store(_) | RefreshError::Task(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

/// The HTTP status for a failed fetch of a page.
pub fn fetch_status(error: &FetchError) -> StatusCode {
    match error.kind() {
        FetchErrorKind::BadRequest => StatusCode::BAD_REQUEST,
        FetchErrorKind::Refused => StatusCode::FORBIDDEN,
        FetchErrorKind::Upstream | FetchErrorKind::TooLarge => StatusCode::BAD_GATEWAY,
        FetchErrorKind::Timeout => StatusCode::GATEWAY_TIMEOUT,
        FetchErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Answer from the store, through the cache.
async fn stored(
    request: &HttpRequest,
    state: &web::Data<AppState>,
    query: &RssQuery,
    stamp: FeedStamp,
) -> HttpResponse {
    let origin = state.origin(request);
    let key = CacheKey {
        source: stamp.id,
        format: query.format,
        origin: Arc::from(origin.as_str()),
        token: state.settings.require_feed_tokens,
        filter: Arc::from(
            url::form_urlencoded::Serializer::new(String::new()).extend_pairs(query.filter.query_pairs()).finish(),
        ),
    };
    let rendered = match state.cache.get(&key, &stamp) {
        Some(rendered) => {
            state.metrics.cache(true);
            rendered
        }
        None => {
            state.metrics.cache(false);
            match made(state, query, stamp, &origin).await {
                Ok(Some(rendered)) => {
                    let rendered = Arc::new(rendered);
                    state.cache.put(key, rendered.clone());
                    rendered
                }
                Ok(None) => return plain(StatusCode::NOT_FOUND, "the feed was deleted just now"),
                Err(response) => return response,
            }
        }
    };
    answer(request, &rendered, query.format)
}

/// The feed as this reader gets it: its stored render with the reader's self link (one row
/// read), else rendered now. `None`: the source is gone.
async fn made(
    state: &web::Data<AppState>,
    query: &RssQuery,
    stamp: FeedStamp,
    origin: &str,
) -> Result<Option<Rendered>, HttpResponse> {
    let self_url = Url::parse(&state.filtered_feed_url(origin, &query.url, query.format, &query.filter)).ok();
    let (store, items, format) = (state.ctx.store.clone(), state.settings.items_per_feed, query.format);
    let filter = query.filter.clone();
    let self_url = match self_url {
        Some(self_url) if filter.is_empty() => self_url,
        // A filtered feed is one reader's choice among countless ones: rendered on demand (and
        // cached), never stored. So is a feed for a host that makes no address (no self link).
        self_url => {
            let _slot = state.store_slots.acquire().await.ok();
            let made = state.blocking(move || render(&store, stamp, items, format, self_url, &filter)).await?;
            return made.map_err(store_error);
        }
    };
    // One row read by its key, here on the HTTP worker: it takes less time than handing it to a
    // blocking thread and back (which measured as the larger part of serving a feed), and in
    // WAL mode a reader never waits for the writer.
    if let Some(render) = store.render(stamp.id, format).map_err(store_error)?.filter(|r| r.is_current(&stamp, items)) {
        return Ok(Some(filled(render, &self_url)));
    }
    // Stored before renders were kept, or the feed moved on since: render and keep it now.
    // The semaphore is never closed, so acquiring fails only if it were.
    let _slot = state.store_slots.acquire().await.ok();
    let rendered = state.blocking(move || render_stored(&store, stamp.id, items)).await?.map_err(store_error)?;
    Ok(rendered.and_then(|all| all.into_iter().find(|r| r.format == format)).map(|render| filled(render, &self_url)))
}

/// A stored render with the reader's self link.
fn filled(render: StoredRender, self_url: &Url) -> Rendered {
    // The stored tag is of the text without self link; the one readers get covers it too.
    let mut tag = Sha256::new();
    tag.update(render.etag.as_bytes());
    tag.update(self_url.as_str().as_bytes());
    Rendered {
        feed_version: render.feed_version,
        update_interval: render.update_interval,
        body: Bytes::from(FeedTemplate::from_text(render.format, render.body).fill(self_url)),
        etag: format!("\"{}\"", hex::encode(&tag.finalize()[..16])),
        last_modified: render.last_modified,
    }
}

/// Read the feed from the store and write it. The version recorded is the stamp's: if the
/// store moved on meanwhile, the next request renders again.
fn render(
    store: &crate::store::Store,
    stamp: FeedStamp,
    items: usize,
    format: Format,
    self_url: Option<Url>,
    filter: &FeedFilter,
) -> Result<Option<Rendered>, crate::store::StoreError> {
    let Some(mut stored) = store.feed(stamp.id, items)? else { return Ok(None) };
    filter.apply(&mut stored.page);
    let meta = FeedMeta {
        self_url,
        updated: stamp.last_modified.fixed_offset(),
        ttl_minutes: Some(Schedule::ttl_minutes(stamp.update_interval)),
    };
    let body = feed::write(&stored.page, format, &meta);
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(body.as_bytes())[..16]));
    Ok(Some(Rendered {
        feed_version: stamp.feed_version,
        update_interval: stamp.update_interval,
        body: Bytes::from(body),
        etag,
        last_modified: stamp.last_modified,
    }))
}

/// `200` with the feed, or `304` when the reader's copy is current.
fn answer(request: &HttpRequest, rendered: &Rendered, format: Format) -> HttpResponse {
    let last_modified = httpdate::fmt_http_date(SystemTime::from(rendered.last_modified));
    let headers = request.headers();
    let not_modified = match headers.get(IF_NONE_MATCH).and_then(|v| v.to_str().ok()) {
        // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); it compares weakly.
        Some(tags) => {
            tags.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == rendered.etag)
        }
        None => headers
            .get(IF_MODIFIED_SINCE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| httpdate::parse_http_date(v).ok())
            .is_some_and(|since| SystemTime::from(rendered.last_modified) <= since),
    };
    let mut response = if not_modified {
        HttpResponse::NotModified().finish()
    } else {
        HttpResponse::Ok().insert_header((CONTENT_TYPE, format.content_type())).body(rendered.body.clone())
    };
    let out = response.headers_mut();
    if let Ok(etag) = HeaderValue::from_str(&rendered.etag) {
        out.insert(ETAG, etag);
    }
    if let Ok(date) = HeaderValue::from_str(&last_modified) {
        out.insert(LAST_MODIFIED, date);
    }
    // Readers may keep the feed but ask again (cheaply: 304) each time they want it.
    out.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_is_checked_with_reasons() {
        let ok = RssQuery::parse("url=https%3A%2F%2Fexample.org%2Fnews%3Fa%3D1%23top&format=atom&token=t").unwrap();
        assert_eq!(
            (ok.url.as_str(), ok.format, ok.token.as_deref(), ok.full),
            ("https://example.org/news?a=1", Format::Atom, Some("t"), false)
        );
        assert!(RssQuery::parse("url=https%3A%2F%2Fexample.org%2F&full=1").unwrap().full);
        for (query, reason) in [
            ("", "missing the `url` parameter"),
            ("url=not%20a%20url", "is not a valid URL"),
            ("url=file%3A%2F%2F%2Fetc%2Fpasswd", "only http and https"),
            ("url=https%3A%2F%2Fexample.org%2F&format=pdf", "unknown feed format 'pdf'"),
            ("url=https%3A%2F%2Fexample.org%2F&full=please", "use full=1"),
            ("url=https%3A%2F%2Fexample.org%2F&include=%28", "`include` is not a usable regular expression"),
            ("url=https%3A%2F%2Fexample.org%2F&limit=0", "`limit=0`"),
        ] {
            let error = RssQuery::parse(query).err().unwrap();
            assert!(error.contains(reason), "{query}: {error}");
        }
    }
}
