//! The updater: the paper's update crawler (§3.2) as a feed server needs it.
//!
//! [`refresh_source`] refreshes one source and is a plain library function (tests and the
//! first request for a URL call it directly): a conditional fetch with the stored validators
//! → parse, off the async runtime → the engine choice → merge into the store → record status,
//! validators, timings and the next due time. A `304` or a body identical to the last one
//! extracted costs no extraction. A failed fetch, or an extraction that suddenly finds nothing,
//! keeps the last good feed and says so in the source's health.
//!
//! A source with full text on then gets the full text of its items ([`enrich_stored`]): the
//! newest stored items without content have their article pages fetched (through the same
//! per-host gate as page refreshes) and read by [`crate::engines::enrich`]; the content and
//! author are stored. A page that fails leaves its item as it was, and is tried again at later
//! refreshes, [`MAX_ARTICLE_ATTEMPTS`] times in all.
//!
//! Items whose list page shows no date are stored with the time they were first seen; a
//! source that is not new then has their article pages read for their dates ([`date_stored`];
//! for full-text sources the full-text read gives the date too). Not on a first fetch: a
//! reader is waiting for it.
//!
//! A source that is not new then has its site's template trained when one is due
//! ([`train::train_site`]: at most once a day per site, when the site has a feed).
//!
//! Last, when the refresh changed the feed, it is rendered in every format and kept in the
//! store ([`renders`]): readers are served those renders.
//!
//! [`pool`] is the loop around it: workers for fresh and for normal sources, per-host
//! politeness, graceful shutdown. [`follow`] applies here what other servers on a shared
//! store change.

pub mod changes;
pub mod follow;
pub mod hosts;
pub mod pool;
pub mod renders;
pub mod schedule;
pub mod stats;
pub mod train;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, FixedOffset, Utc};
use sha2::{Digest, Sha256};
use url::Url;

use crate::article_pages::{ArticlePageError, ArticlePages, DateOutcome, Outcome};
use crate::config::Config;
use crate::dom::{self, ParseOptions};
use crate::engines::Extraction;
use crate::engines::advertised::read_feed;
use crate::engines::choose::{Choice, Engines, SiteTemplate};
use crate::engines::rules::Rule;
use crate::fetch::{FetchError, FetchOutcome, Fetcher, Response, Validators};
use crate::model::Item;
use crate::store::{
    ArticleFields, ArticleUpdate, DateOrigin, DateRead, DateUpdate, FetchRecord, Health, MergeReport, Source, SourceId,
    Store, StoreError,
};

pub use changes::FeedChanges;
pub use follow::follow_store;
pub use hosts::{HostTurn, Hosts, LeaseCountsSnapshot};
pub use pool::{Pool, PoolConfig, PoolStatus, WorkerActivity};
pub use renders::render_stored;
pub use schedule::Schedule;
pub use stats::{DateRun, RefreshOutcome, Stats, StatsSnapshot};

/// Everything a refresh needs. Shared by the pool's workers and the web server.
pub struct RefreshContext {
    pub store: Store,
    pub fetcher: Fetcher,
    /// One request at a time per host (across the servers of a shared store), for the pool and
    /// the web server's first fetches alike.
    pub hosts: Hosts,
    pub engines: Arc<Engines>,
    pub schedule: Schedule,
    pub stats: Stats,
    /// Sources whose feeds this process changed (for the web server's stamp cache).
    pub changes: FeedChanges,
    /// How item pages are fetched, for full text and for dates.
    pub articles: ArticleSettings,
    /// Train templates for sites that have a feed ([`train::train_site`]).
    pub train_templates: bool,
    /// The newest items a feed holds: its stored renders are written with this many.
    pub items_per_feed: usize,
}

/// How item pages are fetched after a refresh, for full text and for dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArticleSettings {
    /// Most item pages a full-text source has fetched after one refresh; 0: no full text.
    pub max_per_refresh: usize,
    /// Most item pages fetched only for their dates after one refresh; 0: items the list page
    /// gives no date keep the time they were first seen.
    pub max_dates_per_refresh: usize,
    /// Item pages of different hosts fetched at once.
    pub concurrency: usize,
    /// A host that asks for a longer quiet (`Retry-After`, back-off) is left for a later
    /// refresh instead of holding the worker.
    pub patience: Duration,
}

impl ArticleSettings {
    pub fn from_config(config: &Config) -> ArticleSettings {
        ArticleSettings {
            max_per_refresh: config.updater.max_article_fetches,
            max_dates_per_refresh: config.updater.article_dates,
            concurrency: config.updater.article_concurrency.max(1),
            // Longer than the host's own delay, shorter than any back-off worth its name.
            patience: config.updater.per_host_delay.saturating_mul(2).max(Duration::from_secs(30)),
        }
    }
}

/// An item's article page is tried at most this many times (at this many refreshes), for its
/// content and for its date alike: a page that fails that often is not coming back soon.
pub const MAX_ARTICLE_ATTEMPTS: u32 = 3;

impl RefreshContext {
    /// The context a configuration describes, on an open store: the fetcher, the per-host
    /// politeness (with host leases on a shared store), the engines with the store's uploaded rules loaded.
    pub fn from_config(config: &Config, store: Store) -> Result<RefreshContext, SetupError> {
        let fetcher = Fetcher::new(&config.fetch_config()).map_err(SetupError::Fetcher)?;
        let engines = Engines::load(config.rules_dir.as_deref(), config.time_patterns_dir.as_deref())?;
        let u = &config.updater;
        let hosts = Hosts::new(u.per_host_delay, config.backoff(), store.host_leases(), config.fetch.timeout);
        let context = RefreshContext {
            store,
            fetcher,
            hosts,
            engines: Arc::new(engines),
            schedule: Schedule {
                default_interval: config.updater.default_interval,
                min_interval: config.updater.min_interval,
                max_interval: config.updater.max_interval,
                backoff: config.backoff(),
                unhealthy_after: config.updater.unhealthy_after,
            },
            stats: Stats::default(),
            changes: FeedChanges::default(),
            articles: ArticleSettings::from_config(config),
            train_templates: config.updater.train_templates,
            items_per_feed: config.items_per_feed,
        };
        context.reload_rules().map_err(SetupError::Store)?;
        Ok(context)
    }

    /// Load the uploaded rules from the store into the engines (after an upload or a delete).
    /// A stored rule that no longer parses (a newer program wrote it) is skipped with a warning.
    pub fn reload_rules(&self) -> Result<usize, StoreError> {
        let mut set = crate::engines::rules::RuleSet::new();
        for stored in self.store.rules()? {
            match Rule::parse(&stored.xml, &format!("rule {}", stored.id.0)) {
                Ok(rule) => set.add(rule),
                Err(error) => tracing::warn!("skipping stored rule {}: {error}", stored.id.0),
            }
        }
        let count = set.len();
        self.engines.set_uploaded(set);
        Ok(count)
    }
}

/// Why the updater could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Fetcher(FetchError),
    #[error(transparent)]
    Engines(#[from] crate::engines::choose::EnginesError),
    #[error(transparent)]
    Store(StoreError),
}

/// Why a refresh did not give items. Everything but `Store`, `NoSuchSource` and `Task` has
/// been recorded on the source (error, health, next try) when it is returned.
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error("{url} cannot be read as a page: {reason}")]
    Page { url: String, reason: String },
    /// No engine found items (and the page's own feed, if it advertises one, gave none).
    #[error("{made_by} finds no items on {url}{}", feed_note.as_deref().map(|n| format!("; {n}")).unwrap_or_default())]
    NoItems { url: String, made_by: String, feed_note: Option<String> },
    #[error("no source with id {0}")]
    NoSuchSource(i64),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the refresh stopped unexpectedly: {0}")]
    Task(String),
}

/// A refresh that worked.
#[derive(Debug, Clone)]
pub struct Refreshed {
    /// The source as recorded after the refresh.
    pub source: Source,
    pub outcome: RefreshOutcome,
    /// What the merge did (only for [`RefreshOutcome::Extracted`]).
    pub merge: Option<MergeReport>,
    /// Which engine made the items, for people (only for [`RefreshOutcome::Extracted`]).
    pub made_by: Option<String>,
    /// What the full-text step did (only for sources with full text on).
    pub articles: Option<ArticleRun>,
    /// What reading article pages for dates did (only when it is on and the source was not
    /// new).
    pub dates: Option<DateRun>,
    /// What training the site's template did (only when training is on and the source was
    /// not new).
    pub training: Option<train::Training>,
}

/// What the full-text step of a refresh did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ArticleRun {
    /// Items that got content.
    pub enriched: usize,
    /// Items whose page failed (fetch, parse, or no content found); they stay as they were.
    pub failed: usize,
}

/// Refresh one source now: wait for its host's turn, then [`refresh_claimed`].
pub async fn refresh_source(ctx: &RefreshContext, id: SourceId, now: DateTime<Utc>) -> Result<Refreshed, RefreshError> {
    let store = ctx.store.clone();
    let source = blocking(move || store.source(id)).await??.ok_or(RefreshError::NoSuchSource(id.0))?;
    let permit = ctx.hosts.acquire(&source.url).await;
    refresh_claimed(ctx, source, permit, now).await
}

/// Refresh a source whose host permit the caller holds (the pool takes permits without
/// waiting, so that it can do another source instead). The permit is released as soon as the
/// page has arrived.
pub async fn refresh_claimed(
    ctx: &RefreshContext,
    source: Source,
    permit: HostTurn,
    now: DateTime<Utc>,
) -> Result<Refreshed, RefreshError> {
    let started = Instant::now();
    let result = fetch_and_extract(ctx, &source, permit, now).await;
    let mut refreshed = record(ctx, &source, result, started, now).await;
    if let Ok(done) = &mut refreshed {
        if done.source.settings.full_text {
            done.articles = enrich_stored(ctx, &done.source, now).await;
        }
        // Not on a first fetch (a reader is waiting for it): from the next refresh on.
        if !source.fresh {
            done.dates = date_stored(ctx, &done.source, now).await;
            if ctx.train_templates {
                done.training = Some(train::train_site(ctx, &done.source, now).await);
                if let Some(train::Training::Failed(reason)) = &done.training {
                    tracing::info!("no template for {}: {reason}", done.source.url);
                }
            }
        }
        if done.source.item_count > 0 {
            let (store, id, items) = (ctx.store.clone(), done.source.id, ctx.items_per_feed);
            // The refresh stands without it: a request renders the feed when none is kept.
            let kept = blocking(move || renders::keep_renders(&store, id, items)).await;
            if let Err(error) = kept.and_then(|r| r.map_err(RefreshError::from)) {
                tracing::error!("cannot keep the renders of {}: {error}", done.source.url);
            }
        }
    }
    let outcome = match &refreshed {
        Ok(done) => done.outcome,
        Err(RefreshError::NoItems { .. }) => RefreshOutcome::NoItems,
        Err(_) => RefreshOutcome::Failed,
    };
    ctx.stats.refreshed(outcome, started.elapsed());
    refreshed
}

/// What the fetch and the extraction gave, before anything is recorded.
enum Fetched {
    NotModified {
        validators: Validators,
    },
    Unchanged {
        status: u16,
        validators: Validators,
    },
    /// The extraction boxed: it is large, and the other outcomes are small.
    Extracted {
        status: u16,
        validators: Validators,
        body_hash: String,
        extraction: Box<Extraction>,
        made_by: String,
        /// The feed the page advertises, if any.
        page_feed: Option<Url>,
    },
}

/// A failure with the HTTP status that came with it, if any.
struct Failure {
    error: RefreshError,
    status: Option<u16>,
}

impl From<RefreshError> for Failure {
    fn from(error: RefreshError) -> Failure {
        let status = match &error {
            RefreshError::Fetch(FetchError::Status { status, .. }) => Some(*status),
            _ => None,
        };
        Failure { error, status }
    }
}

async fn fetch_and_extract(
    ctx: &RefreshContext,
    source: &Source,
    permit: HostTurn,
    now: DateTime<Utc>,
) -> Result<Fetched, Failure> {
    let response = match polite_fetch(ctx, permit, &source.url, &source.validators).await? {
        FetchOutcome::NotModified { validators, .. } => return Ok(Fetched::NotModified { validators }),
        FetchOutcome::Fetched(response) => response,
    };
    let status = response.status;
    let body_hash = hex::encode(Sha256::digest(&response.body));
    if source.body_hash.as_deref() == Some(body_hash.as_str()) {
        return Ok(Fetched::Unchanged { status, validators: response.validators });
    }
    let validators = response.validators.clone();
    let fail = |error: RefreshError| Failure { error, status: Some(status) };
    let choice = choose(ctx, source, response, now).await.map_err(fail)?;
    if choice.extraction.page.item_count() > 0 {
        return Ok(Fetched::Extracted {
            status,
            validators,
            body_hash,
            extraction: Box::new(choice.extraction),
            made_by: choice.made_by,
            page_feed: choice.page_feed,
        });
    }
    // Nothing on the page: the feed it advertises, if any.
    let mut feed_note = None;
    if let Some(feed_url) = choice.feed_to_read() {
        match advertised(ctx, feed_url, &source.url, &choice.extraction.page.title).await {
            Ok(extraction) if extraction.page.item_count() > 0 => {
                let made_by = format!("the page's feed {feed_url}");
                let (extraction, page_feed) = (Box::new(extraction), Some(feed_url.clone()));
                return Ok(Fetched::Extracted { status, validators, body_hash, extraction, made_by, page_feed });
            }
            Ok(_) => feed_note = Some(format!("its feed {feed_url} has no items either")),
            Err(error) => feed_note = Some(format!("its feed failed: {error}")),
        }
    }
    Err(fail(RefreshError::NoItems { url: source.url.to_string(), made_by: choice.made_by, feed_note }))
}

/// Fetch with the host permit held, and tell the host gate how it went: back off a host in
/// trouble, wait as long as its `Retry-After` asks.
async fn polite_fetch(
    ctx: &RefreshContext,
    mut permit: HostTurn,
    url: &Url,
    validators: &Validators,
) -> Result<FetchOutcome, RefreshError> {
    let result = ctx.fetcher.fetch(url, validators).await;
    permit.record(&result);
    ctx.stats.fetched(result.as_ref().err().map(FetchError::kind));
    Ok(result?)
}

/// Media types of feeds: a subscribed URL that is a feed is read as one.
fn is_feed_type(media_type: Option<&str>) -> bool {
    matches!(
        media_type,
        Some(
            "application/rss+xml"
                | "application/atom+xml"
                | "application/rdf+xml"
                | "application/feed+json"
                | "application/xml"
                | "text/xml"
        )
    )
}

/// Parse the page and run the engine choice, on the blocking pool.
async fn choose(
    ctx: &RefreshContext,
    source: &Source,
    response: Response,
    now: DateTime<Utc>,
) -> Result<Choice, RefreshError> {
    let store = ctx.store.clone();
    let engines = ctx.engines.clone();
    let url = source.url.clone();
    blocking(move || {
        if is_feed_type(response.media_type.as_deref())
            && let Ok(extraction) = read_feed(&response.body, &response.url, &url, None)
            && extraction.page.item_count() > 0
        {
            return Ok(Choice { extraction, made_by: "the feed itself".into(), page_feed: None });
        }
        let template = site_template(&store, &url)?;
        let options = ParseOptions { header_charset: response.charset.clone(), ..ParseOptions::default() };
        let doc = dom::parse(&response.body, &response.url, &options)
            .map_err(|e| RefreshError::Page { url: response.url.to_string(), reason: e.to_string() })?;
        Ok(engines.choose(&doc, &url, template.as_ref(), now))
    })
    .await?
}

/// The template trained for the site of `url`, if the store has one that parses.
fn site_template(store: &Store, url: &Url) -> Result<Option<SiteTemplate>, StoreError> {
    let Some(host) = url.host_str() else { return Ok(None) };
    let Some(template) = store.template(host)? else { return Ok(None) };
    Ok(match Rule::parse(&template.xml, &format!("template for {host}")) {
        Ok(rule) => Some(SiteTemplate { rule }),
        Err(error) => {
            tracing::warn!("skipping the template for {host}: {error}");
            None
        }
    })
}

/// Fetch and read the feed a page advertises (its host's turn first).
async fn advertised(ctx: &RefreshContext, feed_url: &Url, page_url: &Url, title: &str) -> Result<Extraction, String> {
    let permit = ctx.hosts.acquire(feed_url).await;
    let response = match polite_fetch(ctx, permit, feed_url, &Validators::default()).await {
        Ok(FetchOutcome::Fetched(response)) => response,
        Ok(FetchOutcome::NotModified { .. }) => return Err(format!("{feed_url} answered 304 to a plain GET")),
        Err(error) => return Err(error.to_string()),
    };
    let page_url = page_url.clone();
    let title = (!title.trim().is_empty()).then(|| title.to_string());
    blocking(move || read_feed(&response.body, &response.url, &page_url, title.as_deref()).map_err(|e| e.to_string()))
        .await
        .map_err(|e| e.to_string())?
}

/// Keep the outcome in the store: items (merged in one transaction), then status, validators,
/// health and schedule (another). A crash between the two leaves the items and the source
/// still leased, so it is refreshed again, which merges the same items again to no effect.
async fn record(
    ctx: &RefreshContext,
    source: &Source,
    result: Result<Fetched, Failure>,
    started: Instant,
    now: DateTime<Utc>,
) -> Result<Refreshed, RefreshError> {
    let store = ctx.store.clone();
    let schedule = ctx.schedule.clone();
    let source = source.clone();
    let duration = started.elapsed();
    let id = source.id;
    let base = FetchRecord {
        at: now,
        duration,
        http_status: None,
        error: None,
        validators: None,
        body_hash: None,
        page_feed: None,
        next_due: now,
        update_interval: None,
        health: Health::Ok,
    };
    match result {
        Ok(fetched) => {
            let (status, validators, body_hash, extracted, outcome, page_feed) = match fetched {
                Fetched::NotModified { validators } => (304, validators, None, None, RefreshOutcome::NotModified, None),
                Fetched::Unchanged { status, validators } => {
                    (status, validators, None, None, RefreshOutcome::Unchanged, None)
                }
                Fetched::Extracted { status, validators, body_hash, extraction, made_by, page_feed } => {
                    let extracted = Some((extraction, made_by));
                    (status, validators, Some(body_hash), extracted, RefreshOutcome::Extracted, page_feed)
                }
            };
            let stats_merge = blocking(move || -> Result<Refreshed, RefreshError> {
                let (merge, made_by) = match extracted {
                    Some((extraction, made_by)) => (Some(store.merge(id, &extraction, now)?), Some(made_by)),
                    None => (None, None),
                };
                let newest = store.items(id, schedule::RATE_WINDOW)?;
                let interval = schedule.adapt(&newest, now, source.settings.update_interval);
                let record = FetchRecord {
                    http_status: Some(status),
                    validators: Some(validators),
                    body_hash,
                    page_feed,
                    next_due: schedule::after(now, interval),
                    update_interval: Some(interval),
                    ..base
                };
                let source = store.record_fetch(id, &record)?;
                Ok(Refreshed { source, outcome, merge, made_by, articles: None, dates: None, training: None })
            })
            .await??;
            ctx.changes.touch(id);
            if let Some(merge) = &stats_merge.merge {
                ctx.stats.merged(merge.new, merge.changed);
            }
            Ok(stats_merge)
        }
        Err(Failure { error, status }) => {
            let retry_after = match &error {
                RefreshError::Fetch(fetch) => fetch.retry_after(),
                _ => None,
            };
            let stopped_matching = matches!(error, RefreshError::NoItems { .. }) && source.item_count > 0;
            let failures = source.consecutive_failures.saturating_add(1);
            let (health, delay) = schedule.after_failure(&source, failures, retry_after, stopped_matching, now);
            let record = FetchRecord {
                http_status: status,
                error: Some(error.to_string()),
                next_due: schedule::after(now, delay),
                health,
                ..base
            };
            if matches!(error, RefreshError::Store(_) | RefreshError::Task(_) | RefreshError::NoSuchSource(_)) {
                return Err(error);
            }
            blocking(move || store.record_fetch(id, &record)).await??;
            Err(error)
        }
    }
}

/// Give a full-text source's newest stored items without content the content, author (and
/// empty titles) of their article pages, with the site's template when the store has one.
/// Never fails the refresh: a store error is logged and the step skipped.
pub async fn enrich_stored(ctx: &RefreshContext, source: &Source, now: DateTime<Utc>) -> Option<ArticleRun> {
    let limit = ctx.articles.max_per_refresh;
    if limit == 0 {
        return None;
    }
    let (store, id, url) = (ctx.store.clone(), source.id, source.url.clone());
    let wanted = blocking(move || -> Result<_, StoreError> {
        let items = store.items_without_content(id, limit, MAX_ARTICLE_ATTEMPTS)?;
        Ok((items, site_template(&store, &url)?))
    })
    .await;
    let (stored, template) = match wanted {
        Ok(Ok(found)) => found,
        Ok(Err(error)) => {
            tracing::warn!("full text for {}: {error}", source.url);
            return None;
        }
        Err(error) => {
            tracing::warn!("full text for {}: {error}", source.url);
            return None;
        }
    };
    if stored.is_empty() {
        return Some(ArticleRun::default());
    }
    // Items the list page gave no date take the date of the page full text reads anyway (so no
    // page is fetched twice): without one, the article's date fills it in.
    let dates_on = ctx.articles.max_dates_per_refresh > 0;
    let undated: Vec<Option<DateTime<Utc>>> =
        stored.iter().map(|s| (dates_on && s.date_origin == DateOrigin::FirstSeen).then_some(s.first_seen)).collect();
    let (guids, mut items): (Vec<String>, Vec<Item>) = stored
        .into_iter()
        .zip(&undated)
        .map(|(s, first_seen)| {
            let mut item = s.item;
            if first_seen.is_some() {
                item.date = None;
            }
            (s.guid, item)
        })
        .collect();
    let pages = ArticlePages {
        fetcher: &ctx.fetcher,
        hosts: &ctx.hosts,
        concurrency: ctx.articles.concurrency,
        max_pages: limit,
        patience: ctx.articles.patience,
    };
    let report = pages.enrich(template.map(|t| Arc::new(t.rule)), &mut items, now).await;
    let date_updates: Vec<DateUpdate> = guids
        .iter()
        .zip(&items)
        .zip(&report.outcomes)
        .zip(&undated)
        .filter_map(|(((guid, item), outcome), first_seen)| {
            let first_seen = (*first_seen)?;
            let read = match *outcome {
                Outcome::Enriched => article_date(item.date, first_seen),
                // Read, but without content: its date is still its date.
                Outcome::Failed(failure)
                    if matches!(report.failures[failure].1, ArticlePageError::NoContent { .. }) =>
                {
                    article_date(item.date, first_seen)
                }
                Outcome::Failed(_) => DateRead::Failed,
                Outcome::Skipped | Outcome::Deferred => return None,
            };
            Some(DateUpdate { guid: guid.clone(), read })
        })
        .collect();
    let updates: Vec<ArticleUpdate> = guids
        .into_iter()
        .zip(items)
        .zip(&report.outcomes)
        .filter_map(|((guid, item), outcome)| {
            let outcome = match *outcome {
                Outcome::Enriched => Ok(ArticleFields {
                    content: item.content?,
                    author: item.author,
                    title: (!item.title.trim().is_empty()).then_some(item.title),
                }),
                Outcome::Failed(failure) => Err(report.failures[failure].1.to_string()),
                Outcome::Skipped | Outcome::Deferred => return None,
            };
            Some(ArticleUpdate { guid, outcome })
        })
        .collect();
    let run = ArticleRun { enriched: report.enriched(), failed: report.failed() };
    ctx.stats.articles(run.enriched, run.failed);
    let store = ctx.store.clone();
    match blocking(move || store.record_articles(id, &updates, now)).await {
        Ok(Ok(stored)) => {
            if stored > 0 {
                ctx.changes.touch(id);
            }
        }
        Ok(Err(error)) => tracing::warn!("full text for {}: {error}", source.url),
        Err(error) => tracing::warn!("full text for {}: {error}", source.url),
    }
    if !date_updates.is_empty() {
        record_dates(ctx, source, date_updates, now).await;
    }
    Some(run)
}

/// Give a source's newest items dated by when they were first seen (their list page shows no
/// date) the date of their article pages, at most `max_dates_per_refresh` pages. Items that
/// full text reads anyway are left to it. Never fails the refresh: a store error is logged and
/// the step skipped.
///
/// A reader may have seen such an item with its first-seen date: its date then moves, always
/// to an earlier time (see [`article_date`]). That is kept on purpose: the first fetch serves
/// a page's whole backlog with one first-seen time, which says nothing, while the articles'
/// dates put the items in their real order and give the schedule the page's real rate; the
/// GUID does not change, so no reader sees the item twice, and an earlier date is not taken
/// for an update (Atom `updated` goes back, not forward). Items found by later refreshes are
/// dated in the same refresh, seconds after they are stored.
pub async fn date_stored(ctx: &RefreshContext, source: &Source, now: DateTime<Utc>) -> Option<DateRun> {
    let limit = ctx.articles.max_dates_per_refresh;
    if limit == 0 {
        return None;
    }
    let full_text = source.settings.full_text && ctx.articles.max_per_refresh > 0;
    let (store, id) = (ctx.store.clone(), source.id);
    let stored = match blocking(move || store.items_to_date(id, limit, MAX_ARTICLE_ATTEMPTS, full_text)).await {
        Ok(Ok(stored)) => stored,
        Ok(Err(error)) => {
            tracing::warn!("article dates for {}: {error}", source.url);
            return None;
        }
        Err(error) => {
            tracing::warn!("article dates for {}: {error}", source.url);
            return None;
        }
    };
    if stored.is_empty() {
        return Some(DateRun::default());
    }
    let items: Vec<Item> = stored.iter().map(|s| s.item.clone()).collect();
    let pages = ArticlePages {
        fetcher: &ctx.fetcher,
        hosts: &ctx.hosts,
        concurrency: ctx.articles.concurrency,
        max_pages: limit,
        patience: ctx.articles.patience,
    };
    let report = pages.dates(&items).await;
    let updates: Vec<DateUpdate> = stored
        .into_iter()
        .zip(&report.outcomes)
        .filter_map(|(s, outcome)| {
            let read = match *outcome {
                DateOutcome::Found(date) => article_date(Some(date), s.first_seen),
                DateOutcome::NotOnPage => DateRead::NotOnPage,
                DateOutcome::Failed(_) => DateRead::Failed,
                DateOutcome::Skipped | DateOutcome::Deferred => return None,
            };
            Some(DateUpdate { guid: s.guid, read })
        })
        .collect();
    Some(record_dates(ctx, source, updates, now).await)
}

/// What an article page's date means for an item first seen at `first_seen`: the list showed
/// the item then, so it was published by then. A later date is the page's last modification,
/// or a time zone read wrong; first seen is closer to the truth, and is kept.
fn article_date(date: Option<DateTime<FixedOffset>>, first_seen: DateTime<Utc>) -> DateRead {
    match date {
        Some(date) if date <= first_seen => DateRead::Found(date),
        _ => DateRead::NotOnPage,
    }
}

/// Store the date reads of a refresh, count them, and note the feed changed when dates did.
async fn record_dates(ctx: &RefreshContext, source: &Source, updates: Vec<DateUpdate>, now: DateTime<Utc>) -> DateRun {
    let mut run = DateRun::default();
    for update in &updates {
        match update.read {
            DateRead::Found(_) => run.dated += 1,
            DateRead::NotOnPage => run.not_found += 1,
            DateRead::Failed => run.failed += 1,
        }
    }
    ctx.stats.article_dates(run);
    let (store, id) = (ctx.store.clone(), source.id);
    match blocking(move || store.record_dates(id, &updates, MAX_ARTICLE_ATTEMPTS, now)).await {
        Ok(Ok(dated)) => {
            if dated > 0 {
                ctx.changes.touch(id);
            }
        }
        Ok(Err(error)) => tracing::warn!("article dates for {}: {error}", source.url),
        Err(error) => tracing::warn!("article dates for {}: {error}", source.url),
    }
    run
}

/// Run store work and extraction on the blocking pool, off the async workers.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, RefreshError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| RefreshError::Task(e.to_string()))
}

/// How long a claimed source stays leased to its worker: `updater.source_lease` when set, else
/// longer than any refresh can take (a page and an advertised feed, each within the fetch
/// timeout, the extraction, for full-text sources up to `max_article_fetches` item pages, up
/// to `article_dates` item pages for dates, and for training the page, some feeds and article
/// pages; each fetch after the host's delay).
pub fn lease_for(config: &Config) -> Duration {
    if let Some(lease) = config.updater.source_lease {
        return lease;
    }
    let fetch = config.fetch.timeout;
    let one = fetch.saturating_add(config.updater.per_host_delay);
    let training = if config.updater.train_templates { train::MAX_FETCHES } else { 0 };
    let u = &config.updater;
    let fetches = u.max_article_fetches.saturating_add(u.article_dates).saturating_add(training);
    let articles = one.saturating_mul(u32::try_from(fetches).unwrap_or(u32::MAX));
    fetch.saturating_mul(2).saturating_add(articles).saturating_add(Duration::from_secs(60))
}
