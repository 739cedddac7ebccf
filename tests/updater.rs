//! The updater against loopback page servers: one refresh (conditional GET, unchanged pages,
//! failures that keep the last good feed, items that leave the page, back-off, Retry-After,
//! dates from article pages for undated items) and the worker pool (fresh first, one request
//! per host, shutdown).

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use common::http::{Reply, Request, TestServer};
use html2rss::engines::Engine;
use html2rss::engines::choose::Engines;
use html2rss::engines::rules::RuleSet;
use html2rss::fetch::{Backoff, FetchConfig, FetchError, Fetcher};
use html2rss::store::{DateOrigin, Health, NewRule, Source, SourceSettings, Store};
use html2rss::updater::{
    ArticleSettings, DateRun, FeedChanges, Hosts, MAX_ARTICLE_ATTEMPTS, Pool, PoolConfig, RefreshContext, RefreshError,
    RefreshOutcome, Schedule, Stats, refresh_source,
};
use url::Url;

type Handler = Arc<dyn Fn(&Request) -> Reply + Send + Sync>;

/// A page server whose answers the test changes as it goes.
struct Site {
    server: TestServer,
    handler: Arc<Mutex<Handler>>,
}

impl Site {
    fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Site {
        let handler: Arc<Mutex<Handler>> = Arc::new(Mutex::new(Arc::new(handler)));
        let current = handler.clone();
        let server = TestServer::start(move |request| {
            let handler = current.lock().unwrap().clone();
            handler(request)
        });
        Site { server, handler }
    }

    fn set(&self, handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) {
        *self.handler.lock().unwrap() = Arc::new(handler);
    }

    fn url(&self, path: &str) -> Url {
        Url::parse(&self.server.url(path)).unwrap()
    }
}

/// A news list: (title, date) per item, links `/a/N` by title.
fn news(items: &[(&str, Option<&str>)]) -> String {
    let rows: String = items
        .iter()
        .map(|(title, date)| {
            let date = date.map(|d| format!(" <span>{d}</span>")).unwrap_or_default();
            format!("<li><a href=\"/a/{}\">{title}</a>{date}</li>", title.replace(' ', "-"))
        })
        .collect();
    format!("<html><head><title>Loopback news</title></head><body><ul class=news>{rows}</ul></body></html>")
}

const RULE: &str = r#"<page><name>loopback news</name><url>http://127.0.0.1:*</url>
    <subject path="//UL[@class=news]"><item path="LI"><title>A</title><date>SPAN</date></item></subject></page>"#;

fn t(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_717_200_000 + seconds, 0).unwrap()
}

const HOUR: Duration = Duration::from_secs(3600);

fn schedule() -> Schedule {
    Schedule {
        default_interval: HOUR,
        min_interval: Duration::from_secs(600),
        max_interval: Duration::from_secs(7 * 24 * 3600),
        backoff: Backoff { base: Duration::from_secs(60), max: Duration::from_secs(6 * 3600) },
        unhealthy_after: Duration::from_secs(2 * 24 * 3600),
    }
}

/// A store with the loopback rule uploaded, and a context on it. The host gate backs off by
/// milliseconds, so the tests never wait for it unless they mean to. Dates are not read from
/// article pages (see [`context_reading_dates`]).
fn context(dir: &tempfile::TempDir, per_host_delay: Duration) -> Arc<RefreshContext> {
    context_reading_dates(dir, per_host_delay, 0)
}

/// [`context`], reading up to `article_dates` article pages per refresh for the dates of items
/// whose list page shows none.
fn context_reading_dates(
    dir: &tempfile::TempDir,
    per_host_delay: Duration,
    article_dates: usize,
) -> Arc<RefreshContext> {
    let store = Store::open(dir.path().join("feeds.db")).unwrap();
    let rule =
        NewRule { name: "loopback news".into(), url_patterns: vec!["http://127.0.0.1:*".into()], xml: RULE.into() };
    store.add_rule(&rule, t(0)).unwrap();
    let fetch = FetchConfig { allow_private: true, total_timeout: Duration::from_secs(5), ..FetchConfig::default() };
    let ctx = RefreshContext {
        store,
        fetcher: Fetcher::new(&fetch).unwrap(),
        hosts: Hosts::local(
            per_host_delay,
            Backoff { base: Duration::from_millis(20), max: Duration::from_millis(40) },
        ),
        engines: Arc::new(Engines::new(RuleSet::new())),
        schedule: schedule(),
        stats: Stats::default(),
        changes: FeedChanges::default(),
        articles: ArticleSettings {
            max_per_refresh: 10,
            max_dates_per_refresh: article_dates,
            concurrency: 2,
            patience: Duration::from_secs(5),
        },
        train_templates: false,
        items_per_feed: 50,
    };
    assert_eq!(ctx.reload_rules().unwrap(), 1);
    Arc::new(ctx)
}

fn settings() -> SourceSettings {
    SourceSettings { rule: None, full_text: false, update_interval: HOUR }
}

fn add(ctx: &RefreshContext, url: &Url, now: DateTime<Utc>) -> Source {
    ctx.store.add_source(url, &settings(), now).unwrap().0
}

fn titles(ctx: &RefreshContext, source: &Source) -> Vec<String> {
    let mut titles: Vec<String> = ctx.store.items(source.id, 100).unwrap().into_iter().map(|s| s.item.title).collect();
    titles.sort();
    titles
}

#[tokio::test]
async fn a_refresh_extracts_then_304s_and_unchanged_bodies_cost_no_extraction() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let page = news(&[("One", Some("2024-05-30")), ("Two", Some("2024-05-29")), ("Three", Some("2024-05-28"))]);
    let etag_page = page.clone();
    let site = Site::start(move |request| {
        if request.header("if-none-match") == Some("\"v1\"") {
            Reply::status(304).header("ETag", "\"v1\"")
        } else {
            Reply::html(etag_page.clone()).header("ETag", "\"v1\"")
        }
    });
    let source = add(&ctx, &site.url("/news"), t(0));
    assert!(source.fresh);

    let done = refresh_source(&ctx, source.id, t(10)).await.unwrap();
    assert_eq!(done.outcome, RefreshOutcome::Extracted);
    assert_eq!(done.made_by.as_deref(), Some("uploaded rule 'loopback news'"));
    assert_eq!(done.merge.unwrap().new, 3);
    let s = &done.source;
    assert!(!s.fresh);
    assert_eq!((s.engine, s.http_status, s.health, s.item_count), (Some(Engine::Rule), Some(200), Health::Ok, 3));
    assert_eq!(s.validators.etag.as_deref(), Some("\"v1\""));
    assert!(s.body_hash.is_some());
    // Items a day apart, the newest two days old: the interval follows them, within bounds.
    assert!(s.settings.update_interval > HOUR && s.settings.update_interval <= Duration::from_secs(7 * 86400));
    assert_eq!(s.next_due, t(10) + chrono::TimeDelta::from_std(s.settings.update_interval).unwrap());

    let done = refresh_source(&ctx, source.id, t(20)).await.unwrap();
    assert_eq!(done.outcome, RefreshOutcome::NotModified);
    assert_eq!(site.server.requests()[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(done.source.http_status, Some(304));

    // A server without validators: the same body is recognized by its hash.
    site.set(move |_| Reply::html(page.clone()));
    let done = refresh_source(&ctx, source.id, t(30)).await.unwrap();
    assert_eq!(done.outcome, RefreshOutcome::Unchanged);
    assert_eq!(done.source.validators.etag, None, "the validators the page gave this time");
    let snapshot = ctx.stats.snapshot();
    assert_eq!(snapshot.fetches, 3);
    assert_eq!(snapshot.items_new, 3);
    assert_eq!(titles(&ctx, &source), ["One", "Three", "Two"]);
}

#[tokio::test]
async fn the_last_good_feed_is_kept_when_the_page_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let good = news(&[("One", Some("2024-05-30")), ("Two", None)]);
    let page = good.clone();
    let site = Site::start(move |_| Reply::html(page.clone()));
    let source = add(&ctx, &site.url("/"), t(0));
    refresh_source(&ctx, source.id, t(10)).await.unwrap();
    let feed_before = ctx.store.feed(source.id, 50).unwrap().unwrap().page;

    // The server fails: the feed stays, the source is failing and backs off.
    site.set(|_| Reply::status(500));
    let error = refresh_source(&ctx, source.id, t(20)).await.unwrap_err();
    assert!(matches!(error, RefreshError::Fetch(FetchError::Status { status: 500, .. })), "{error}");
    let s = ctx.store.source(source.id).unwrap().unwrap();
    assert_eq!((s.health, s.http_status, s.consecutive_failures), (Health::Failing, Some(500), 1));
    assert!(s.error.as_deref().unwrap().contains("answered HTTP 500"), "{:?}", s.error);
    assert_eq!(ctx.store.feed(source.id, 50).unwrap().unwrap().page, feed_before);

    // The page changes its layout: the rule finds nothing; the feed stays, the rule is flagged.
    site.set(|_| Reply::html("<html><body><div class=redesign><a href=/x>New layout</a></div></body></html>"));
    let error = refresh_source(&ctx, source.id, t(30)).await.unwrap_err();
    assert!(matches!(error, RefreshError::NoItems { .. }), "{error}");
    let s = ctx.store.source(source.id).unwrap().unwrap();
    assert_eq!((s.health, s.http_status, s.item_count), (Health::StoppedMatching, Some(200), 2));
    assert_eq!(s.error.as_deref(), Some(error.to_string().as_str()));
    assert!(s.error.as_deref().unwrap().starts_with("uploaded rule 'loopback news' finds no items on http://"));
    assert_eq!(ctx.store.feed(source.id, 50).unwrap().unwrap().page, feed_before);
    // The broken body was not taken as "seen": the same broken page is extracted again.
    let error = refresh_source(&ctx, source.id, t(40)).await.unwrap_err();
    assert!(matches!(error, RefreshError::NoItems { .. }));

    // Fixed again, exactly as it was: healthy, nothing to extract, nothing lost.
    site.set(move |_| Reply::html(good.clone()));
    let done = refresh_source(&ctx, source.id, t(50)).await.unwrap();
    assert_eq!(
        (done.outcome, done.source.health, done.source.error.clone()),
        (RefreshOutcome::Unchanged, Health::Ok, None)
    );
    assert_eq!(ctx.store.feed(source.id, 50).unwrap().unwrap().page, feed_before);
    assert_eq!(ctx.stats.snapshot().refreshes.iter().find(|(o, _)| *o == RefreshOutcome::NoItems).unwrap().1, 2);
}

#[tokio::test]
async fn items_that_leave_the_page_stay_with_their_dates_and_undated_items_keep_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let site = Site::start(|_| Reply::html(news(&[("Undated", None), ("Dated", Some("2024-05-30 08:00"))])));
    let source = add(&ctx, &site.url("/"), t(0));
    refresh_source(&ctx, source.id, t(100)).await.unwrap();

    site.set(|_| Reply::html(news(&[("Newer", None), ("Undated", None)])));
    let done = refresh_source(&ctx, source.id, t(5000)).await.unwrap();
    assert_eq!(done.merge.unwrap().new, 1);
    let items = ctx.store.items(source.id, 50).unwrap();
    let find = |title: &str| items.iter().find(|i| i.item.title == title).unwrap_or_else(|| panic!("{title} lost"));
    let undated = find("Undated");
    assert_eq!(undated.item.date.unwrap().timestamp(), t(100).timestamp(), "an undated item keeps its first date");
    assert_eq!((undated.first_seen, undated.last_seen), (t(100), t(5000)));
    let dated = find("Dated");
    assert_eq!(dated.item.date.unwrap().to_rfc3339(), "2024-05-30T08:00:00+00:00");
    assert_eq!((dated.first_seen, dated.last_seen), (t(100), t(100)), "it left the page and stays");
    let newer = find("Newer");
    assert_eq!((newer.first_seen, newer.item.date.unwrap().timestamp()), (t(5000), t(5000).timestamp()));

    // Seen again later: the undated dates still do not move.
    refresh_source(&ctx, source.id, t(9000)).await.unwrap();
    let items = ctx.store.items(source.id, 50).unwrap();
    let undated = items.iter().find(|i| i.item.title == "Undated").unwrap();
    assert_eq!(undated.item.date.unwrap().timestamp(), t(100).timestamp());
}

#[tokio::test]
async fn errors_back_off_exponentially_and_days_of_failure_make_a_source_unhealthy_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let site = Site::start(|_| Reply::status(503));
    let source = add(&ctx, &site.url("/"), t(0));
    let base = ctx.schedule.backoff.base.as_secs() as i64;
    for (round, now) in [t(10), t(1000), t(5000)].into_iter().enumerate() {
        refresh_source(&ctx, source.id, now).await.unwrap_err();
        let s = ctx.store.source(source.id).unwrap().unwrap();
        let delay = (s.next_due - now).num_seconds();
        let ceiling = base << round;
        assert!(delay >= ceiling / 2 && delay <= ceiling, "round {round}: {delay}s, ceiling {ceiling}s");
        assert_eq!((s.consecutive_failures, s.health), (round as u32 + 1, Health::Failing));
    }
    // Three days later, still failing: unhealthy, slowed to the longest back-off, still there.
    let now = t(3 * 24 * 3600);
    refresh_source(&ctx, source.id, now).await.unwrap_err();
    let s = ctx.store.source(source.id).unwrap().unwrap();
    assert_eq!(s.health, Health::Unhealthy);
    assert_eq!(s.next_due, now + chrono::TimeDelta::from_std(ctx.schedule.backoff.max).unwrap());
    // It recovers.
    site.set(|_| Reply::html(news(&[("Back", None)])));
    let done = refresh_source(&ctx, source.id, now + chrono::TimeDelta::days(1)).await.unwrap();
    assert_eq!((done.source.health, done.source.consecutive_failures), (Health::Ok, 0));
    assert_eq!(done.source.last_success, Some(now + chrono::TimeDelta::days(1)));
}

#[tokio::test]
async fn retry_after_holds_the_host_and_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let site = Site::start(|_| Reply::status(429).header("Retry-After", "1"));
    let first = add(&ctx, &site.url("/first"), t(0));
    let second = add(&ctx, &site.url("/second"), t(0));
    let error = refresh_source(&ctx, first.id, t(10)).await.unwrap_err();
    assert_eq!(error.to_string(), format!("{} answered HTTP 429", site.url("/first")));
    let s = ctx.store.source(first.id).unwrap().unwrap();
    assert!(s.next_due >= t(11), "the source waits at least as long as asked");
    // Another page of the same host waits for the host's Retry-After too.
    site.set(|_| Reply::html(news(&[("Fine", None)])));
    refresh_source(&ctx, second.id, t(10)).await.unwrap();
    let requests = site.server.requests();
    let gap = requests[1].at - requests[0].at;
    assert!(gap >= Duration::from_millis(990), "the host was asked again after {gap:?}");
}

#[tokio::test]
async fn a_page_without_items_falls_back_on_its_advertised_feed() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let site = Site::start(|request| match request.path.as_str() {
        "/feed.xml" => Reply::status(200).header("Content-Type", "application/rss+xml").body(
            r#"<rss version="2.0"><channel><title>F</title><link>http://x/</link><description>d</description>
               <item><title>From the feed</title><link>/posts/1</link></item></channel></rss>"#,
        ),
        _ => Reply::html(
            r#"<html><head><title>No list</title><link rel="alternate" type="application/rss+xml" href="/feed.xml">
               </head><body><p>Nothing to see</p></body></html>"#,
        ),
    });
    // `localhost`: no rule serves it, so no engine finds items on the page itself.
    let url = Url::parse(&format!("http://localhost:{}/", site.server.port())).unwrap();
    let source = add(&ctx, &url, t(0));
    let done = refresh_source(&ctx, source.id, t(10)).await.unwrap();
    assert_eq!(done.source.engine, Some(Engine::Feed));
    assert!(done.made_by.unwrap().starts_with("the page's feed http://localhost:"));
    let items = ctx.store.items(source.id, 10).unwrap();
    assert_eq!(items[0].item.title, "From the feed");
    assert_eq!(done.source.title.as_deref(), Some("No list"));
}

fn pool_config(fresh_workers: usize, workers: usize) -> PoolConfig {
    PoolConfig {
        fresh_workers,
        workers,
        lease: Duration::from_secs(60),
        idle_poll: Duration::from_millis(50),
        host_patience: Duration::from_secs(5),
    }
}

/// Wait until every source has been fetched since `since`, or fail after `limit`.
async fn until_fetched(ctx: &RefreshContext, ids: &[Source], since: DateTime<Utc>, limit: Duration) {
    let start = Instant::now();
    loop {
        let done = ids
            .iter()
            .filter(|s| ctx.store.source(s.id).unwrap().unwrap().last_fetch.is_some_and(|at| at >= since))
            .count();
        if done == ids.len() {
            return;
        }
        assert!(start.elapsed() < limit, "{done} of {} sources refreshed in {limit:?}", ids.len());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn second_floor() -> DateTime<Utc> {
    Utc.timestamp_opt(Utc::now().timestamp(), 0).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_refreshes_fresh_sources_before_old_ones() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let site = Site::start(|_| Reply::html(news(&[("Item", None)])));
    let start = second_floor();
    // Old sources, overdue for an hour; then new ones, due only now.
    let old: Vec<Source> =
        (0..4).map(|i| add(&ctx, &site.url(&format!("/old/{i}")), start - chrono::TimeDelta::hours(2))).collect();
    for s in &old {
        // A recorded fetch makes them normal (not fresh) sources, due an hour ago.
        let record = html2rss::store::FetchRecord {
            at: start - chrono::TimeDelta::hours(2),
            duration: Duration::ZERO,
            http_status: Some(200),
            error: None,
            validators: None,
            body_hash: None,
            page_feed: None,
            next_due: start - chrono::TimeDelta::hours(1),
            update_interval: None,
            health: Health::Ok,
        };
        ctx.store.record_fetch(s.id, &record).unwrap();
    }
    let fresh: Vec<Source> = (0..4).map(|i| add(&ctx, &site.url(&format!("/fresh/{i}")), start)).collect();
    let pool = Pool::start(ctx.clone(), pool_config(0, 1));
    let all: Vec<Source> = old.iter().chain(&fresh).cloned().collect();
    until_fetched(&ctx, &all, start, Duration::from_secs(20)).await;
    pool.shutdown(Duration::from_secs(5)).await;
    let order: Vec<String> = site.server.requests().iter().map(|r| r.path.clone()).collect();
    let fresh_done = order.iter().rposition(|p| p.starts_with("/fresh/")).unwrap();
    let old_first = order.iter().position(|p| p.starts_with("/old/")).unwrap();
    assert!(fresh_done < old_first, "fresh first: {order:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_host_never_gets_two_requests_at_once_and_waits_its_delay() {
    let dir = tempfile::tempdir().unwrap();
    let delay = Duration::from_millis(100);
    let ctx = context(&dir, delay);
    let slow = |_: &Request| {
        std::thread::sleep(Duration::from_millis(30));
        Reply::html(news(&[("Item", None)]))
    };
    let a = Site::start(slow);
    let b = Site::start(slow);
    let start = second_floor();
    let mut sources: Vec<Source> = (0..6).map(|i| add(&ctx, &a.url(&format!("/p/{i}")), start)).collect();
    // `localhost` is another host name for the gate, though the same machine.
    for i in 0..6 {
        let url = Url::parse(&format!("http://localhost:{}/p/{i}", b.server.port())).unwrap();
        sources.push(add(&ctx, &url, start));
    }
    let pool = Pool::start(ctx.clone(), pool_config(1, 4));
    until_fetched(&ctx, &sources, start, Duration::from_secs(30)).await;
    let status = pool.status();
    assert_eq!(status.workers().len(), 5);
    pool.shutdown(Duration::from_secs(5)).await;
    for site in [&a, &b] {
        assert_eq!(site.server.max_in_flight(), 1);
        let requests = site.server.requests();
        assert_eq!(requests.len(), 6, "each source once");
        for pair in requests.windows(2) {
            // Each request took 30 ms, then the host's delay of 100 ms.
            let gap = pair[1].at - pair[0].at;
            assert!(gap >= Duration::from_millis(125), "requests {gap:?} apart");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_a_short_refresh_finish_and_abandons_a_hung_one_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&dir, Duration::ZERO);
    let site = Site::start(|request| {
        if request.path == "/hang" {
            Reply::Hang
        } else {
            std::thread::sleep(Duration::from_millis(300));
            Reply::html(news(&[("Slow", None)]))
        }
    });
    let start = second_floor();
    let slow = add(&ctx, &site.url("/slow"), start);
    let pool = Pool::start(ctx.clone(), pool_config(0, 1));
    while site.server.requests().is_empty() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(pool.status().workers()[0].refreshing.is_some());
    let shutdown = pool.shutdown(Duration::from_secs(5)).await;
    assert_eq!(shutdown.abandoned, 0);
    assert_eq!(ctx.store.source(slow.id).unwrap().unwrap().item_count, 1, "the refresh in flight finished");

    let hung = add(&ctx, &Url::parse(&format!("http://localhost:{}/hang", site.server.port())).unwrap(), start);
    let pool = Pool::start(ctx.clone(), pool_config(0, 1));
    while site.server.requests().len() < 2 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let shutdown = pool.shutdown(Duration::from_millis(100)).await;
    assert_eq!(shutdown.abandoned, 1);
    let s = ctx.store.source(hung.id).unwrap().unwrap();
    assert!(s.fresh && s.last_fetch.is_none(), "nothing was recorded for the abandoned refresh");
    assert!(s.next_due > Utc::now(), "it stays leased, due again when the lease runs out");
    assert_eq!(ctx.store.integrity_check().unwrap(), "ok");
}

/// A list page for the uploaded rule (on 127.0.0.1) whose items show no date and link to
/// `http://localhost:PORT/a/NAME`: the same server, another host for the gate, so that what
/// the article pages make the gate do (a `Retry-After`) does not hold the list page.
fn undated_list(port: u16, names: &[&str]) -> String {
    let rows: String = names
        .iter()
        .map(|name| format!("<li><a href=\"http://localhost:{port}/a/{name}\">About {name}</a></li>"))
        .collect();
    format!("<html><head><title>Undated</title></head><body><ul class=news>{rows}</ul></body></html>")
}

/// An article page whose date is in `<meta property="article:published_time">`.
fn dated_article(name: &str, published: &str) -> Reply {
    Reply::html(format!(
        r#"<html><head><title>About {name}</title><meta property="article:published_time" content="{published}">
        </head><body><article><h1>About {name}</h1><p>Everything about {name}, at length.</p></article></body></html>"#
    ))
}

fn article_requests(site: &Site, name: &str) -> usize {
    site.server.requests().iter().filter(|r| r.path == format!("/a/{name}")).count()
}

#[tokio::test]
async fn undated_items_take_their_article_dates_after_the_first_fetch_if_not_later_than_first_seen() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context_reading_dates(&dir, Duration::ZERO, 10);
    let site = Site::start(|_| Reply::status(404));
    let port = site.server.port();
    let names = Arc::new(Mutex::new(vec!["early", "late", "gone"]));
    let listed = names.clone();
    site.set(move |request| match request.path.as_str() {
        "/" => Reply::html(undated_list(port, &listed.lock().unwrap())),
        "/a/early" => dated_article("early", "2024-05-01T09:00:00+02:00"),
        // Later than the item was first seen: a modification date, not its publication.
        "/a/late" => dated_article("late", "2099-01-01T00:00:00Z"),
        "/a/news" => dated_article("news", "2024-06-01T00:01:00Z"),
        _ => Reply::status(404),
    });
    let source = add(&ctx, &site.url("/"), t(0));
    let stored = |title: &str| {
        let items = ctx.store.items(source.id, 50).unwrap();
        items.into_iter().find(|i| i.item.title == format!("About {title}")).unwrap_or_else(|| panic!("{title} lost"))
    };

    // The first fetch (a reader may be waiting): first-seen dates, no article page asked.
    let done = refresh_source(&ctx, source.id, t(100)).await.unwrap();
    assert_eq!((done.merge.unwrap().new, done.dates), (3, None));
    assert_eq!(site.server.requests().len(), 1, "only the list page");
    assert_eq!(stored("early").date_origin, DateOrigin::FirstSeen);

    // The next refresh reads each undated item's page for its date.
    let done = refresh_source(&ctx, source.id, t(200)).await.unwrap();
    assert_eq!(done.outcome, RefreshOutcome::Unchanged);
    assert_eq!(done.dates, Some(DateRun { dated: 1, not_found: 1, failed: 1 }));
    let early = stored("early");
    assert_eq!(early.item.date.unwrap().to_rfc3339(), "2024-05-01T09:00:00+02:00");
    assert_eq!(early.date_origin, DateOrigin::Article);
    for kept in ["late", "gone"] {
        let item = stored(kept);
        assert_eq!(item.item.date.unwrap().timestamp(), t(100).timestamp(), "{kept} keeps first seen");
        assert_eq!(item.date_origin, DateOrigin::FirstSeen);
    }
    // The feed's order follows the new date: the early item is now the oldest.
    assert_eq!(ctx.store.items(source.id, 50).unwrap().last().unwrap().item.title, "About early");

    // A new item found by a later refresh is dated in that refresh; the failed page is tried
    // again, the others not.
    names.lock().unwrap().insert(0, "news");
    let done = refresh_source(&ctx, source.id, t(300)).await.unwrap();
    assert_eq!(done.merge.unwrap().new, 1);
    assert_eq!(done.dates, Some(DateRun { dated: 1, not_found: 0, failed: 1 }));
    assert_eq!(stored("news").item.date.unwrap().to_rfc3339(), "2024-06-01T00:01:00+00:00");
    // Tried at most MAX_ARTICLE_ATTEMPTS times in all.
    for now in [t(400), t(500), t(600)] {
        refresh_source(&ctx, source.id, now).await.unwrap();
    }
    let asked: Vec<usize> = ["early", "late", "news", "gone"].iter().map(|n| article_requests(&site, n)).collect();
    assert_eq!(asked, [1, 1, 1, MAX_ARTICLE_ATTEMPTS as usize]);
    assert_eq!(stored("gone").item.date.unwrap().timestamp(), t(100).timestamp());
    let snapshot = ctx.stats.snapshot();
    assert_eq!(snapshot.article_dates, DateRun { dated: 2, not_found: 1, failed: 3 });
}

#[tokio::test]
async fn a_host_that_asks_for_a_pause_has_its_dates_left_for_later_without_using_attempts() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context_reading_dates(&dir, Duration::ZERO, 10);
    let site = Site::start(|_| Reply::status(404));
    let port = site.server.port();
    site.set(move |request| match request.path.as_str() {
        "/" => Reply::html(undated_list(port, &["one", "two", "three"])),
        _ => Reply::status(429).header("Retry-After", "120"),
    });
    let source = add(&ctx, &site.url("/"), t(0));
    refresh_source(&ctx, source.id, t(100)).await.unwrap();
    // One page is asked and fails; the host's pause is not waited for: the others wait.
    let done = refresh_source(&ctx, source.id, t(200)).await.unwrap();
    assert_eq!(done.dates, Some(DateRun { dated: 0, not_found: 0, failed: 1 }));
    // Still resting: nothing asked, nothing counted, every item still wanted.
    let done = refresh_source(&ctx, source.id, t(300)).await.unwrap();
    assert_eq!(done.dates, Some(DateRun::default()));
    let asked = site.server.requests().iter().filter(|r| r.path.starts_with("/a/")).count();
    assert_eq!(asked, 1);
    let wanted = ctx.store.items_to_date(source.id, 10, MAX_ARTICLE_ATTEMPTS, false).unwrap();
    assert_eq!(wanted.len(), 3, "the pause used no attempts but the one that failed");
}
