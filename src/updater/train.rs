//! Templates trained by the server (DESIGN.md, engine 3): a site that has a feed (advertised, or
//! at a common path) gets a template learned from that feed, the subscribed page, and a few of
//! the article pages the feed links to ([`crate::engines::template::train`]); the store keeps
//! it per host and the engine choice uses it from the next refresh on (and enrichment reads
//! article pages with it).
//!
//! At most once a day per site, successful or not (the attempt is noted in the store's
//! settings first, so a site whose training fails is not fetched again at every refresh).
//! Pages served by a mapping rule are not trained for: the rule wins anyway. Every request
//! goes through the host gate, like page refreshes.

use chrono::{DateTime, TimeDelta, Utc};
use url::Url;

use super::{RefreshContext, blocking, polite_fetch};
use crate::dom::{self, Document, ParseOptions};
use crate::engines::Engine;
use crate::engines::template::{self, Trained};
use crate::feed::reader::{self, TrainingFeed};
use crate::fetch::{FetchOutcome, Response, Validators};
use crate::store::{Source, StoreError, Template};

/// A site is trained again at most this often.
pub const RETRAIN_AFTER: TimeDelta = TimeDelta::days(1);
/// Feed candidates tried (advertised ones first), to stay polite to sites without a feed.
const FEED_CANDIDATES: usize = 4;
/// Article pages the template learns from.
const ARTICLE_PAGES: usize = 3;
/// Most fetches one training makes: the page, the feed candidates, the article pages.
pub const MAX_FETCHES: usize = 1 + FEED_CANDIDATES + ARTICLE_PAGES;
/// A template less sure of itself than this is not kept: the automatic engines do better than
/// a template that matched few of its training items.
const MIN_CONFIDENCE: f32 = 0.5;

/// What [`train_site`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Training {
    /// The site has a template younger than a day, was tried less than a day ago, or is served
    /// by a rule.
    NotDue,
    Trained(Template),
    /// Why no template was kept.
    Failed(String),
}

/// Train a template for the site of `source` when one is due; store it and make the site's
/// sources due, so that their next refresh extracts them with it.
pub async fn train_site(ctx: &RefreshContext, source: &Source, now: DateTime<Utc>) -> Training {
    let Some(site) = source.url.host_str().map(str::to_ascii_lowercase) else { return Training::NotDue };
    if source.engine == Some(Engine::Rule) {
        return Training::NotDue;
    }
    let (store, key) = (ctx.store.clone(), site.clone());
    let due = blocking(move || -> Result<bool, StoreError> {
        if store.template(&key)?.is_some_and(|t| now - t.trained_at < RETRAIN_AFTER) {
            return Ok(false);
        }
        let noted = format!("template-tried:{key}");
        let tried = store.setting(&noted)?.and_then(|v| DateTime::parse_from_rfc3339(&v).ok());
        if tried.is_some_and(|t| now - t.to_utc() < RETRAIN_AFTER) {
            return Ok(false);
        }
        store.set_setting(&noted, &now.to_rfc3339())?;
        Ok(true)
    })
    .await;
    match due {
        Ok(Ok(true)) => {}
        Ok(Ok(false)) => return Training::NotDue,
        Ok(Err(error)) => return Training::Failed(error.to_string()),
        Err(error) => return Training::Failed(error.to_string()),
    }
    let trained = match learn(ctx, &source.url, now).await {
        Ok(trained) if trained.confidence >= MIN_CONFIDENCE => trained,
        Ok(trained) => {
            return Training::Failed(format!("the template's confidence {:.2} is too low", trained.confidence));
        }
        Err(reason) => return Training::Failed(reason),
    };
    let template =
        Template { site: site.clone(), xml: trained.rule.to_xml(), confidence: trained.confidence, trained_at: now };
    let (store, kept) = (ctx.store.clone(), template.clone());
    let stored = blocking(move || -> Result<(), StoreError> {
        store.put_template(&kept)?;
        let same_site: Vec<_> = store
            .sources()?
            .into_iter()
            .filter(|s| s.url.host_str().is_some_and(|h| h.eq_ignore_ascii_case(&kept.site)))
            .map(|s| s.id)
            .collect();
        store.reset_sources(&same_site, now)?;
        Ok(())
    })
    .await;
    match stored {
        Ok(Ok(())) => Training::Trained(template),
        Ok(Err(error)) => Training::Failed(error.to_string()),
        Err(error) => Training::Failed(error.to_string()),
    }
}

/// Fetch the page, its feed and some of the feed's article pages, and train on them.
async fn learn(ctx: &RefreshContext, page_url: &Url, now: DateTime<Utc>) -> Result<Trained, String> {
    let page = fetch_doc(ctx, page_url).await?;
    let mut tried = Vec::new();
    let mut found: Option<TrainingFeed> = None;
    for candidate in reader::discover_feeds(&page).into_iter().take(FEED_CANDIDATES) {
        let feed = match fetch(ctx, &candidate).await {
            Ok(response) => {
                blocking(move || reader::read_feed(&response.body, &response.url).map_err(|e| e.to_string()))
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|read| read)
            }
            Err(error) => Err(error),
        };
        match feed {
            Ok(feed) if feed.items.iter().any(|i| i.link.is_some()) => {
                found = Some(feed);
                break;
            }
            Ok(_) => tried.push(format!("{candidate}: no items with links")),
            Err(error) => tried.push(error),
        }
    }
    let Some(feed) = found else {
        return Err(format!("no feed found for {page_url} (tried: {})", tried.join("; ")));
    };
    let host = page_url.host_str().map(|h| h.trim_start_matches("www.").to_ascii_lowercase());
    let links: Vec<Url> = feed
        .items
        .iter()
        .filter_map(|i| i.link.clone())
        .filter(|l| l.host_str().map(|h| h.trim_start_matches("www.").to_ascii_lowercase()) == host)
        .take(ARTICLE_PAGES)
        .collect();
    let mut docs = vec![page];
    for link in &links {
        // An article page that fails only makes the template learn from fewer.
        if let Ok(doc) = fetch_doc(ctx, link).await {
            docs.push(doc);
        }
    }
    blocking(move || template::train(&feed, &docs, now).map_err(|e| e.to_string())).await.map_err(|e| e.to_string())?
}

/// GET in the host's turn.
async fn fetch(ctx: &RefreshContext, url: &Url) -> Result<Response, String> {
    let permit = ctx.hosts.acquire(url).await;
    match polite_fetch(ctx, permit, url, &Validators::default()).await {
        Ok(FetchOutcome::Fetched(response)) => Ok(response),
        Ok(FetchOutcome::NotModified { .. }) => Err(format!("{url} answered 304 to a plain GET")),
        Err(error) => Err(error.to_string()),
    }
}

/// GET a page in the host's turn and parse it on the blocking pool.
async fn fetch_doc(ctx: &RefreshContext, url: &Url) -> Result<Document, String> {
    let response = fetch(ctx, url).await?;
    blocking(move || {
        let options = ParseOptions { header_charset: response.charset.clone(), ..ParseOptions::default() };
        dom::parse(&response.body, &response.url, &options).map_err(|e| format!("{}: {e}", response.url))
    })
    .await
    .map_err(|e| e.to_string())?
}
