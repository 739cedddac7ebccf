//! `/rules`: upload, list, read, delete and try mapping rules (all need the admin token).
//!
//! An upload is read up to the rule size cap (more is `413`, without reading the rest), parsed
//! with the rules engine's own checks (no DOCTYPE, so no entity bombs; every error with its
//! line and column) and only then stored. The sources the rule serves are extracted again at
//! their next refresh, which is made due at once.

use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_LENGTH, LOCATION};
use actix_web::{HttpRequest, HttpResponse, web};
use chrono::Utc;
use futures_util::StreamExt;
use serde::Serialize;
use url::Url;

use super::{AppState, auth, json, plain, store_error, unauthorized};
use crate::dom::{self, ParseOptions};
use crate::engines::rules::{self, MAX_RULE_BYTES, Rule, RuleError, RuleErrorKind};
use crate::fetch::Validators;
use crate::store::{NewRule, RuleId};

/// Read a request body up to `limit` bytes; `Err` is the `413` (or a broken upload's `400`).
async fn read_capped(request: &HttpRequest, mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, HttpResponse> {
    let too_large = || plain(StatusCode::PAYLOAD_TOO_LARGE, &format!("a rule file may have at most {limit} bytes"));
    let declared = request.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| plain(StatusCode::BAD_REQUEST, &format!("the upload broke off: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A refused rule: a file that is not well-formed (or hostile) XML is a bad request; a
/// well-formed file that is not a valid rule is unprocessable. The body names line and column.
fn rule_error(error: &RuleError) -> HttpResponse {
    let status = match &error.kind {
        RuleErrorKind::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        RuleErrorKind::Read(_)
        | RuleErrorKind::Encoding { .. }
        | RuleErrorKind::Xml(_)
        | RuleErrorKind::Doctype
        | RuleErrorKind::Entity(_)
        | RuleErrorKind::NoRoot
        | RuleErrorKind::AfterRoot { .. }
        | RuleErrorKind::Unclosed { .. } => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    plain(status, &error.to_string())
}

/// Parse an uploaded rule; the text to store is the upload itself when it is UTF-8 (comments
/// and layout kept), else the rule written anew.
#[expect(clippy::result_large_err, reason = "the error is the answer the handler returns at once")]
fn parse_upload(body: &[u8]) -> Result<(Rule, String), HttpResponse> {
    let rule = Rule::from_bytes(body, "upload").map_err(|e| rule_error(&e))?;
    if rule.urls.is_empty() && rule.link.is_none() {
        return Err(plain(
            StatusCode::UNPROCESSABLE_ENTITY,
            "upload: the rule names no pages: add <url>https://example.org/news/*</url> (or the paper's <link>)",
        ));
    }
    let xml = match std::str::from_utf8(body) {
        Ok(text) if Rule::parse(text, "upload").is_ok_and(|same| same == rule) => text.to_string(),
        _ => rule.to_xml(),
    };
    Ok((rule, xml))
}

#[derive(Serialize)]
struct Uploaded {
    id: i64,
    name: String,
    url_patterns: Vec<String>,
    /// Sources the rule serves: their pages are extracted again now.
    sources: usize,
}

/// The answer to a request that may not change anything: without the admin token, 401; signed
/// in by the cookie but without the CSRF token (a request another site made the browser send),
/// 403.
fn refuse_change(request: &HttpRequest, state: &AppState) -> Option<HttpResponse> {
    if auth::may_change(request, &state.admin_token) {
        None
    } else if auth::is_admin(request, &state.admin_token) {
        Some(plain(
            StatusCode::FORBIDDEN,
            "the CSRF token is missing or wrong: send the admin page's token in X-CSRF-Token, or use `Authorization: Bearer TOKEN`",
        ))
    } else {
        Some(unauthorized())
    }
}

pub async fn upload(request: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> HttpResponse {
    if let Some(refused) = refuse_change(&request, &state) {
        return refused;
    }
    let body = match read_capped(&request, payload, MAX_RULE_BYTES).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let (rule, xml) = match parse_upload(&body) {
        Ok(parsed) => parsed,
        Err(response) => return response,
    };
    let new =
        NewRule { name: rule.label(), url_patterns: rule.urls.iter().map(|u| u.as_str().to_string()).collect(), xml };
    let ctx = state.ctx.clone();
    let stored = state
        .blocking(move || {
            let now = Utc::now();
            let stored = ctx.store.add_rule(&new, now)?;
            ctx.reload_rules()?;
            let sources = reset_served(&ctx.store, &rule, now)?;
            Ok::<_, crate::store::StoreError>((stored, sources))
        })
        .await;
    let (stored, sources) = match stored {
        Ok(Ok(done)) => done,
        Ok(Err(error)) => return store_error(error),
        Err(response) => return response,
    };
    if let Some(pool) = &state.pool {
        pool.wake();
    }
    let mut response = json(
        StatusCode::CREATED,
        &Uploaded { id: stored.id.0, name: stored.name, url_patterns: stored.url_patterns, sources },
    );
    if let Ok(location) = format!("/rules/{}", stored.id.0).parse() {
        response.headers_mut().insert(LOCATION, location);
    }
    response
}

/// Make the sources a rule serves due now, to be extracted again.
fn reset_served(store: &crate::store::Store, rule: &Rule, now: chrono::DateTime<Utc>) -> crate::store::Result<usize> {
    let served: Vec<_> = store.sources()?.into_iter().filter(|s| rule.matches_url(&s.url)).map(|s| s.id).collect();
    store.reset_sources(&served, now)
}

#[derive(Serialize)]
struct Listed {
    id: i64,
    name: String,
    url_patterns: Vec<String>,
    created: chrono::DateTime<Utc>,
    updated: chrono::DateTime<Utc>,
}

pub async fn list(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !auth::is_admin(&request, &state.admin_token) {
        return unauthorized();
    }
    let store = state.ctx.store.clone();
    match state.blocking(move || store.rules()).await {
        Ok(Ok(rules)) => {
            let listed: Vec<Listed> = rules
                .into_iter()
                .map(|r| Listed {
                    id: r.id.0,
                    name: r.name,
                    url_patterns: r.url_patterns,
                    created: r.created,
                    updated: r.updated,
                })
                .collect();
            json(StatusCode::OK, &listed)
        }
        Ok(Err(error)) => store_error(error),
        Err(response) => response,
    }
}

#[expect(clippy::result_large_err, reason = "the error is the answer the handler returns at once")]
fn rule_id(request: &HttpRequest) -> Result<RuleId, HttpResponse> {
    let text = request.match_info().get("id").unwrap_or_default();
    text.parse()
        .map(RuleId)
        .map_err(|_| plain(StatusCode::NOT_FOUND, &format!("no rule `{text}`: rule ids are numbers")))
}

pub async fn get(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !auth::is_admin(&request, &state.admin_token) {
        return unauthorized();
    }
    let id = match rule_id(&request) {
        Ok(id) => id,
        Err(response) => return response,
    };
    let store = state.ctx.store.clone();
    match state.blocking(move || store.rule(id)).await {
        Ok(Ok(Some(rule))) => HttpResponse::Ok().content_type("application/xml; charset=utf-8").body(rule.xml),
        Ok(Ok(None)) => plain(StatusCode::NOT_FOUND, &format!("no rule {}", id.0)),
        Ok(Err(error)) => store_error(error),
        Err(response) => response,
    }
}

pub async fn delete(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if let Some(refused) = refuse_change(&request, &state) {
        return refused;
    }
    let id = match rule_id(&request) {
        Ok(id) => id,
        Err(response) => return response,
    };
    let ctx = state.ctx.clone();
    let deleted = state
        .blocking(move || {
            let Some(stored) = ctx.store.rule(id)? else { return Ok(false) };
            ctx.store.delete_rule(id)?;
            ctx.reload_rules()?;
            if let Ok(rule) = Rule::parse(&stored.xml, "stored rule") {
                reset_served(&ctx.store, &rule, Utc::now())?;
            }
            Ok::<_, crate::store::StoreError>(true)
        })
        .await;
    match deleted {
        Ok(Ok(true)) => {
            if let Some(pool) = &state.pool {
                pool.wake();
            }
            HttpResponse::NoContent().finish()
        }
        Ok(Ok(false)) => plain(StatusCode::NOT_FOUND, &format!("no rule {}", id.0)),
        Ok(Err(error)) => store_error(error),
        Err(response) => response,
    }
}

#[derive(Serialize)]
struct Tried {
    url: String,
    rule: String,
    items: usize,
    extraction: crate::engines::Extraction,
}

/// `POST /rules/test?url=U` with a rule as the body: fetch the page (politely, through the
/// guard), apply the rule, show what it finds. Nothing is stored.
pub async fn test(request: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> HttpResponse {
    if let Some(refused) = refuse_change(&request, &state) {
        return refused;
    }
    let target = url::form_urlencoded::parse(request.query_string().as_bytes())
        .find(|(name, _)| name == "url")
        .map(|(_, value)| value.into_owned());
    let Some(target) = target else {
        return plain(
            StatusCode::BAD_REQUEST,
            "missing the `url` parameter: POST /rules/test?url=https://example.org/news",
        );
    };
    let url = match Url::parse(&target) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => url,
        _ => return plain(StatusCode::BAD_REQUEST, &format!("`{target}` is not an http(s) URL")),
    };
    let body = match read_capped(&request, payload, MAX_RULE_BYTES).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    let rule = match Rule::from_bytes(&body, "upload") {
        Ok(rule) => rule,
        Err(error) => return rule_error(&error),
    };
    let ctx = &state.ctx;
    let permit = ctx.hosts.acquire(&url).await;
    let fetched = ctx.fetcher.fetch(&url, &Validators::default()).await;
    drop(permit);
    ctx.stats.fetched(fetched.as_ref().err().map(crate::fetch::FetchError::kind));
    let response = match fetched {
        Ok(crate::fetch::FetchOutcome::Fetched(response)) => response,
        Ok(crate::fetch::FetchOutcome::NotModified { .. }) => {
            return plain(StatusCode::BAD_GATEWAY, &format!("{url} answered 304 to a plain GET"));
        }
        Err(error) => return plain(super::rss::fetch_status(&error), &error.to_string()),
    };
    let label = rule.label();
    let applied = state
        .blocking(move || {
            let options = ParseOptions { header_charset: response.charset.clone(), ..ParseOptions::default() };
            dom::parse(&response.body, &response.url, &options).map(|doc| rules::apply(&rule, &doc, Utc::now()))
        })
        .await;
    match applied {
        Ok(Ok(extraction)) => json(
            StatusCode::OK,
            &Tried { url: url.to_string(), rule: label, items: extraction.page.item_count(), extraction },
        ),
        Ok(Err(error)) => plain(StatusCode::UNPROCESSABLE_ENTITY, &format!("{url} cannot be read as a page: {error}")),
        Err(response) => response,
    }
}
