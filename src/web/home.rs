//! `GET /`: the home page. One field for a page's address; with `?url=` the page shows the
//! feed as readers will get it (the same first fetch and stored feed as `/rss`, options
//! included), who found the items and how sure it is, the site's own feed when the page
//! advertises one, and the subscribe links. It works without JavaScript (the form is a GET to
//! `/`); `home.js` only adds the copy buttons.
//!
//! When the server requires feed tokens, feeds are made by its admin only: a visitor without
//! the admin cookie is told so, and the admin gets links that carry the feed's token.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use super::admin::{ASSET_VERSION, html};
use super::rss::{RssQuery, stamp_for};
use super::{AppState, auth};
use crate::engines::Engine;
use crate::feed::Format;
use crate::feed::reader::html_to_text;
use crate::model::Page;
use crate::store::StoredFeed;

/// Characters of an item's description shown in the preview: enough to recognize it.
const DESCRIPTION_CHARS: usize = 280;

/// What the form holds, echoed back so the options survive a preview.
#[derive(Default)]
struct Form {
    url: String,
    full: bool,
    include: String,
    exclude: String,
    limit: String,
}

struct PreviewItem {
    title: String,
    link: String,
    date: String,
    date_iso: String,
    description: String,
}

struct Preview {
    title: String,
    page_url: String,
    /// Who found the items, and how sure it was.
    engine: String,
    confidence: String,
    full_text: bool,
    /// The feed the page itself advertises, if any.
    page_feed: Option<String>,
    items: Vec<PreviewItem>,
    /// Items the stored feed has before the options (include, exclude, limit) are applied.
    before_options: usize,
    links: Vec<(&'static str, String)>,
}

/// Why no preview: a heading for people and the server's reason.
struct Problem {
    heading: &'static str,
    reason: String,
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    asset_version: String,
    form: Form,
    preview: Option<Preview>,
    problem: Option<Problem>,
    /// Feeds need tokens and this visitor is not the admin.
    admin_only: bool,
}

pub async fn page(request: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let form = read_form(request.query_string());
    let admin_only = state.settings.require_feed_tokens && !auth::is_admin(&request, &state.admin_token);
    let mut page = HomePage { asset_version: ASSET_VERSION.clone(), form, preview: None, problem: None, admin_only };
    if page.form.url.trim().is_empty() || admin_only {
        return html(StatusCode::OK, page.render());
    }
    let status = match preview(&request, &state).await {
        Ok(preview) => {
            page.preview = Some(preview);
            StatusCode::OK
        }
        Err((status, problem)) => {
            page.problem = Some(problem);
            status
        }
    };
    html(status, page.render())
}

fn read_form(query: &str) -> Form {
    let mut form = Form::default();
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        let value = value.into_owned();
        match name.as_ref() {
            "url" => form.url = value,
            "full" => form.full = matches!(value.as_str(), "1" | "true" | "yes" | "on"),
            "include" => form.include = value,
            "exclude" => form.exclude = value,
            "limit" => form.limit = value,
            _ => {}
        }
    }
    form
}

/// The feed of the asked page as `/rss` serves it, or why there is none.
async fn preview(request: &HttpRequest, state: &web::Data<AppState>) -> Result<Preview, (StatusCode, Problem)> {
    // Empty form fields are no options, and a bare host is a page too.
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(request.query_string().as_bytes())
        .into_owned()
        .filter(|(_, value)| !value.trim().is_empty())
        .map(|(name, value)| if name == "url" { (name, with_scheme(&value)) } else { (name, value) })
        .collect();
    let query_string = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish();
    let query = RssQuery::parse(&query_string)
        .map_err(|reason| (StatusCode::BAD_REQUEST, Problem { heading: "That address cannot be used", reason }))?;
    let stamp = match stamp_for(request, state, &query).await {
        Ok(stamp) => stamp,
        Err(response) => return Err(refused(response).await),
    };
    let store = state.ctx.store.clone();
    let items = state.settings.items_per_feed;
    let stored = match state.blocking(move || store.feed(stamp.id, items)).await {
        Ok(Ok(Some(stored))) => stored,
        Ok(Ok(None)) => return Err(internal("the feed was deleted just now".into())),
        Ok(Err(error)) => return Err(internal(error.to_string())),
        Err(response) => return Err(refused(response).await),
    };
    let StoredFeed { source, mut page } = stored;
    let before_options = page.item_count();
    query.filter.apply(&mut page);
    let origin = state.origin(request);
    let links = [("RSS", Format::Rss), ("Atom", Format::Atom), ("JSON Feed", Format::Json)]
        .into_iter()
        .map(|(name, format)| (name, state.filtered_feed_url(&origin, &query.url, format, &query.filter)))
        .collect();
    Ok(Preview {
        title: source.title.clone().filter(|t| !t.trim().is_empty()).unwrap_or_else(|| page.title.clone()),
        page_url: source.url.to_string(),
        engine: source.engine.map(engine_label).unwrap_or_default().to_string(),
        confidence: source.confidence.map(|c| format!("{:.0} %", c * 100.0)).unwrap_or_default(),
        full_text: query.full || source.settings.full_text,
        page_feed: source.page_feed.as_ref().map(ToString::to_string),
        before_options,
        links,
        items: preview_items(&page),
    })
}

/// Who found the items, said for people.
fn engine_label(engine: Engine) -> &'static str {
    match engine {
        Engine::Rule => "a mapping rule for this page",
        Engine::Template => "the template learned from the site's feed",
        Engine::TimePattern => "the dates on the page (time patterns)",
        Engine::RepeatedPattern => "the page's repeated records",
        Engine::Feed => "the site's own feed",
    }
}

fn preview_items(page: &Page) -> Vec<PreviewItem> {
    page.items()
        .map(|item| {
            let text = item.description.as_deref().map(html_to_text).unwrap_or_default();
            let description = match text.char_indices().nth(DESCRIPTION_CHARS) {
                Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
                None => text,
            };
            PreviewItem {
                title: item.title.clone(),
                link: item.link.as_ref().map(ToString::to_string).unwrap_or_default(),
                date: item.date.map(|d| d.format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default(),
                date_iso: item.date.map(|d| d.to_rfc3339()).unwrap_or_default(),
                description,
            }
        })
        .collect()
}

/// `example.org/news` means `https://example.org/news`: people paste addresses without scheme.
fn with_scheme(text: &str) -> String {
    let text = text.trim();
    if text.contains("://") { text.to_string() } else { format!("https://{text}") }
}

/// `/rss`'s answer (a status and a plain reason) said for people.
async fn refused(response: HttpResponse) -> (StatusCode, Problem) {
    let status = response.status();
    let body = actix_web::body::to_bytes(response.into_body()).await.unwrap_or_default();
    let reason = String::from_utf8_lossy(&body).trim().to_string();
    let heading = match status {
        StatusCode::FORBIDDEN => "This server will not fetch that page",
        StatusCode::UNPROCESSABLE_ENTITY => "No items found on that page",
        StatusCode::TOO_MANY_REQUESTS => "Too many new feeds from your address",
        StatusCode::GATEWAY_TIMEOUT => "The page is taking long",
        StatusCode::BAD_GATEWAY => "The site did not give the page",
        status if status.is_client_error() => "That page cannot be used",
        _ => "Something went wrong on this server",
    };
    (status, Problem { heading, reason })
}

fn internal(reason: String) -> (StatusCode, Problem) {
    (StatusCode::INTERNAL_SERVER_ERROR, Problem { heading: "Something went wrong on this server", reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_without_scheme_are_https_and_options_are_read() {
        assert_eq!(with_scheme(" example.org/news "), "https://example.org/news");
        assert_eq!(with_scheme("http://example.org/"), "http://example.org/");
        let form = read_form("url=example.org&full=on&include=rust&exclude=&limit=5");
        assert_eq!(
            (form.url.as_str(), form.full, form.include.as_str(), form.exclude.as_str(), form.limit.as_str()),
            ("example.org", true, "rust", "", "5")
        );
    }
}
