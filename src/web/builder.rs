//! The rule builder (admin): a page shown inert, where clicks on two items' titles (then on one
//! item's date, description, link) become a mapping rule, with the same merge as `html2rss
//! rule merge` ([`derive_rule`]) and the same element paths as the engines use.
//!
//! - `GET /builder?url=U`: the builder page (askama, `static/builder.js`); `?rule=ID` opens
//!   an uploaded rule for editing: its marks on the page it was written for, and saving
//!   replaces it.
//! - `GET /builder/frame?url=U`: the page fetched through the guard and the host gate, without
//!   scripts, frames, handlers or refreshes, a `<base>` for its images and styles, and every
//!   element's absolute path in `data-h2r-path`. Served with a CSP `sandbox` (no script runs,
//!   even opened on its own) and framed only by our own pages.
//! - `POST /builder/rule` (JSON `{url, marks, name, url_pattern}`): the rule the marks make, its
//!   XML, the items it extracts from the page, the paths of the item elements to highlight,
//!   and warnings. Saving is `POST /rules` with the XML.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, X_FRAME_OPTIONS};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use url::Url;

use super::admin::{ASSET_VERSION, html};
use super::rss::fetch_status;
use super::{AppState, auth, json, plain};
use crate::dom::{self, Document, ParseOptions};
use crate::engines::rules::{self, Mark, Rule, UrlPattern, derive_rule};
use crate::fetch::{FetchOutcome, Response, Validators};
use crate::path::Path;

/// Pages kept for the builder's clicks (each click asks for the rule again, and the page is
/// not fetched again for it): a few, for a few minutes.
const KEPT_PAGES: usize = 4;
const KEEP_FOR: Duration = Duration::from_secs(600);
/// The attribute that carries an element's absolute path in the inert page.
const PATH_ATTR: &str = "data-h2r-path";
/// Items listed in the builder's panel: enough to see that the rule is right.
const SHOWN_ITEMS: usize = 30;

/// The pages the builder fetched lately.
#[derive(Default)]
pub struct BuilderPages(Mutex<Vec<(Url, Instant, Arc<Response>)>>);

impl BuilderPages {
    fn get(&self, url: &Url) -> Option<Arc<Response>> {
        let pages = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        pages.iter().find(|(u, at, _)| u == url && at.elapsed() < KEEP_FOR).map(|(_, _, page)| page.clone())
    }

    fn put(&self, url: Url, page: Arc<Response>) {
        let mut pages = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        pages.retain(|(u, at, _)| *u != url && at.elapsed() < KEEP_FOR);
        if pages.len() >= KEPT_PAGES {
            pages.remove(0);
        }
        pages.push((url, Instant::now(), page));
    }
}

#[derive(Template)]
#[template(path = "builder.html")]
struct BuilderPage {
    asset_version: String,
    csrf_token: String,
    url: String,
    frame: String,
    name: String,
    pattern: String,
    /// JSON list of the marks to start from (an edited rule's), empty for none.
    marks: String,
    /// The uploaded rule that saving replaces.
    replaces: String,
}

/// The query of the builder page.
struct BuilderQuery {
    url: Option<Url>,
    rule: Option<i64>,
}

/// The `url` query parameter, checked as `/rss` checks it.
fn page_url(request: &HttpRequest) -> Result<Option<Url>, String> {
    Ok(builder_query(request)?.url)
}

fn builder_query(request: &HttpRequest) -> Result<BuilderQuery, String> {
    let mut query = BuilderQuery { url: None, rule: None };
    for (name, value) in url::form_urlencoded::parse(request.query_string().as_bytes()) {
        let value = value.trim();
        match name.as_ref() {
            "url" if !value.is_empty() => {
                let mut url = Url::parse(value).map_err(|e| format!("`{value}` is not a valid URL: {e}"))?;
                if !matches!(url.scheme(), "http" | "https") {
                    return Err(format!("`{value}`: only http and https pages have feeds here"));
                }
                url.set_fragment(None);
                query.url = Some(url);
            }
            "rule" => query.rule = Some(value.parse().map_err(|_| format!("`rule={value}` is not a rule id"))?),
            _ => {}
        }
    }
    Ok(query)
}

pub async fn page(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !auth::is_admin(&request, &state.admin_token) {
        return super::unauthorized();
    }
    let query = match builder_query(&request) {
        Ok(query) => query,
        Err(reason) => return plain(StatusCode::BAD_REQUEST, &reason),
    };
    let mut url = query.url;
    let (mut name, mut pattern, mut marks, mut replaces) = (None, None, String::new(), String::new());
    if let Some(id) = query.rule {
        let store = state.ctx.store.clone();
        let stored = match state.blocking(move || store.rule(crate::store::RuleId(id))).await {
            Ok(Ok(Some(stored))) => stored,
            Ok(Ok(None)) => return plain(StatusCode::NOT_FOUND, &format!("no rule {id}")),
            Ok(Err(error)) => return super::store_error(error),
            Err(response) => return response,
        };
        let rule = match Rule::parse(&stored.xml, &format!("rule {id}")) {
            Ok(rule) => rule,
            Err(error) => return plain(StatusCode::UNPROCESSABLE_ENTITY, &error.to_string()),
        };
        // The page it was written for, else one its patterns name exactly.
        url = url
            .or_else(|| rule.link.clone())
            .or_else(|| rule.urls.iter().find(|p| !p.as_str().contains('*')).and_then(|p| Url::parse(p.as_str()).ok()));
        let Some(page_url) = &url else {
            return plain(StatusCode::BAD_REQUEST, "the rule names no page: open it with &url= of a page it serves");
        };
        let page = match fetched(&state, page_url).await {
            Ok(page) => page,
            Err(response) => return response,
        };
        let found = state.blocking(move || parse(&page).map(|doc| marks_of(&rule, &doc))).await;
        marks = match found {
            Ok(Ok(found)) => serde_json::to_string(&found).unwrap_or_default(),
            Ok(Err(reason)) => return plain(StatusCode::UNPROCESSABLE_ENTITY, &reason),
            Err(response) => return response,
        };
        name = Some(stored.name);
        pattern = Some(stored.url_patterns.join(" "));
        replaces = id.to_string();
    }
    let encoded =
        |url: &Url| url::form_urlencoded::Serializer::new(String::new()).append_pair("url", url.as_str()).finish();
    let page = BuilderPage {
        asset_version: ASSET_VERSION.clone(),
        csrf_token: auth::csrf_token(&state.admin_token),
        frame: url.as_ref().map(|u| format!("/builder/frame?{}", encoded(u))).unwrap_or_default(),
        name: name.or_else(|| url.as_ref().and_then(Url::host_str).map(|h| format!("{h} list"))).unwrap_or_default(),
        pattern: pattern.or_else(|| url.as_ref().map(ToString::to_string)).unwrap_or_default(),
        url: url.map(String::from).unwrap_or_default(),
        marks,
        replaces,
    };
    html(StatusCode::OK, page.render())
}

/// The marks that make `rule` again on `doc`: its title (or link) on the first two items, its
/// other fields on the first item, as the builder's clicks would have made them.
fn marks_of(rule: &Rule, doc: &Document) -> Vec<String> {
    let Some(subject) = rule.subjects.first() else { return Vec::new() };
    let items: Vec<_> = subject
        .path
        .select_nodes(doc, doc.root())
        .into_iter()
        .flat_map(|s| subject.item.path.select_nodes(doc, s))
        .take(2)
        .collect();
    let item_rule = &subject.item;
    let mark = |field: &str, path: &Option<Path>, item| {
        let node = path.as_ref()?.select(doc, item).first()?.node();
        Some(format!("{field}={}", Path::of(doc, node)))
    };
    let key = if item_rule.title.is_some() { ("title", &item_rule.title) } else { ("link", &item_rule.link) };
    let mut marks: Vec<String> = items.iter().filter_map(|&item| mark(key.0, key.1, item)).collect();
    if let Some(&first) = items.first() {
        for (field, path) in
            [("date", &item_rule.date), ("description", &item_rule.description), ("link", &item_rule.link)]
        {
            if field != key.0 {
                marks.extend(mark(field, path, first));
            }
        }
    }
    marks
}

/// The page, fetched now or lately.
async fn fetched(state: &AppState, url: &Url) -> Result<Arc<Response>, HttpResponse> {
    if let Some(page) = state.builder_pages.get(url) {
        return Ok(page);
    }
    let mut permit = state.ctx.hosts.acquire(url).await;
    let result = state.ctx.fetcher.fetch(url, &Validators::default()).await;
    permit.record(&result);
    match result {
        Ok(FetchOutcome::Fetched(response)) => {
            let response = Arc::new(response);
            state.builder_pages.put(url.clone(), response.clone());
            Ok(response)
        }
        Ok(FetchOutcome::NotModified { .. }) => Err(plain(StatusCode::BAD_GATEWAY, &format!("{url} answered 304"))),
        Err(error) => Err(plain(fetch_status(&error), &error.to_string())),
    }
}

/// The page's DOM, or why it cannot be read.
fn parse(page: &Response) -> Result<Document, String> {
    let options = ParseOptions { header_charset: page.charset.clone(), ..ParseOptions::default() };
    dom::parse(&page.body, &page.url, &options).map_err(|e| format!("{}: {e}", page.url))
}

/// The inert page may show the site's images, styles and fonts, and nothing may run in it.
const FRAME_POLICY: &str = "sandbox allow-same-origin; default-src 'none'; img-src * data:; \
     style-src * 'unsafe-inline'; font-src * data:; media-src *; form-action 'none'; frame-ancestors 'self'";

pub async fn frame(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if !auth::is_admin(&request, &state.admin_token) {
        return super::unauthorized();
    }
    let url = match page_url(&request) {
        Ok(Some(url)) => url,
        Ok(None) => return plain(StatusCode::BAD_REQUEST, "missing the `url` parameter"),
        Err(reason) => return plain(StatusCode::BAD_REQUEST, &reason),
    };
    let page = match fetched(&state, &url).await {
        Ok(page) => page,
        Err(response) => return response,
    };
    let made = state
        .blocking(move || {
            let doc = parse(&page)?;
            let mut base = String::new();
            dom::escape(page.url.as_str(), true, &mut base);
            let head = format!(
                "<base href=\"{base}\"><style>[data-h2r-hit]{{outline:2px solid #0969da!important;\
                 background:rgba(9,105,218,.10)!important}}[data-h2r-mark]{{outline:3px solid #cf222e!important}}\
                 [{PATH_ATTR}]{{cursor:pointer}}</style>"
            );
            let annotate = |node| {
                let element = doc.is_element(node) && !matches!(doc.tag(node), Some("html" | "head"));
                element.then(|| (PATH_ATTR, Path::of(&doc, node).to_string()))
            };
            Ok::<_, String>(doc.inert_html(&head, &annotate))
        })
        .await;
    match made {
        Ok(Ok(body)) => HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((CONTENT_SECURITY_POLICY, FRAME_POLICY))
            .insert_header((X_FRAME_OPTIONS, "SAMEORIGIN"))
            .insert_header((CACHE_CONTROL, "no-store"))
            .body(body),
        Ok(Err(reason)) => plain(StatusCode::UNPROCESSABLE_ENTITY, &reason),
        Err(response) => response,
    }
}

/// What the builder's script sends.
#[derive(Deserialize)]
struct RuleRequest {
    url: String,
    /// `FIELD=PATH`, as `rule merge --mark` takes them.
    marks: Vec<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    url_pattern: String,
}

#[derive(Serialize)]
struct RuleAnswer {
    xml: String,
    count: usize,
    items: Vec<ItemView>,
    /// The paths of the item elements, to highlight in the page.
    hits: Vec<String>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct ItemView {
    title: String,
    link: String,
    date: String,
    description: String,
}

#[derive(Serialize)]
struct Refusal {
    error: String,
}

fn refused(status: StatusCode, error: impl ToString) -> HttpResponse {
    json(status, &Refusal { error: error.to_string() })
}

pub async fn rule(request: HttpRequest, state: web::Data<AppState>, body: web::Bytes) -> HttpResponse {
    if !auth::may_change(&request, &state.admin_token) {
        return if auth::is_admin(&request, &state.admin_token) {
            refused(StatusCode::FORBIDDEN, "the CSRF token is missing or wrong")
        } else {
            super::unauthorized()
        };
    }
    let asked: RuleRequest = match serde_json::from_slice(&body) {
        Ok(asked) => asked,
        Err(error) => return refused(StatusCode::BAD_REQUEST, format!("not a rule request: {error}")),
    };
    let url = match Url::parse(asked.url.trim()) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => url,
        _ => return refused(StatusCode::BAD_REQUEST, format!("`{}` is not an http(s) URL", asked.url)),
    };
    let marks: Vec<Mark> = match asked.marks.iter().map(|m| m.parse::<Mark>()).collect() {
        Ok(marks) => marks,
        Err(error) => return refused(StatusCode::BAD_REQUEST, error),
    };
    let pattern = match asked.url_pattern.trim() {
        "" => None,
        text => match UrlPattern::parse(text) {
            Ok(pattern) => Some(pattern),
            Err(error) => return refused(StatusCode::BAD_REQUEST, format!("the URL pattern: {error}")),
        },
    };
    let page = match fetched(&state, &url).await {
        Ok(page) => page,
        Err(response) => return response,
    };
    let name = asked.name.trim().to_string();
    let made = state
        .blocking(move || {
            let doc = parse(&page)?;
            let mut rule = derive_rule(&doc, &marks).map_err(|e| e.to_string())?;
            rule.name = (!name.is_empty()).then_some(name);
            rule.urls = pattern.into_iter().collect();
            Ok::<_, String>(answer(&rule, &doc))
        })
        .await;
    match made {
        Ok(Ok(answer)) => json(StatusCode::OK, &answer),
        Ok(Err(reason)) => refused(StatusCode::UNPROCESSABLE_ENTITY, reason),
        Err(response) => response,
    }
}

/// The rule's XML, its items on the page and the warnings a person should see.
fn answer(rule: &Rule, doc: &Document) -> RuleAnswer {
    let extraction = rules::apply(rule, doc, Utc::now());
    let page = &extraction.page;
    let hits = rule
        .subjects
        .iter()
        .flat_map(|subject| {
            subject.path.select_nodes(doc, doc.root()).into_iter().flat_map(|s| subject.item.path.select_nodes(doc, s))
        })
        .map(|node| Path::of(doc, node).to_string())
        .collect();
    let count = page.item_count();
    let mut warnings = Vec::new();
    let undated = page.items().filter(|i| i.date.is_none()).count();
    if undated > 0 {
        warnings.push(format!("{undated} of {count} items have no date: click a date of one item"));
    }
    let links: Vec<&Url> = page.items().filter_map(|i| i.link.as_ref()).collect();
    let distinct = links.iter().collect::<std::collections::HashSet<_>>().len();
    if distinct < links.len() {
        warnings.push(format!("{} items share a link with another item", links.len() - distinct));
    }
    if count == 0 {
        warnings.push("the rule finds no items on this page".into());
    }
    RuleAnswer {
        xml: rule.to_xml(),
        count,
        items: page
            .items()
            .take(SHOWN_ITEMS)
            .map(|item| ItemView {
                title: item.title.clone(),
                link: item.link.as_ref().map(ToString::to_string).unwrap_or_default(),
                date: item.date.map(|d| d.format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default(),
                description: item.description.as_deref().map(crate::feed::reader::html_to_text).unwrap_or_default(),
            })
            .collect(),
        hits,
        warnings,
    }
}
