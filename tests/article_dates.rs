//! Dates from article pages, in the real server: a loopback blog whose list page shows no dates
//! and whose article pages carry them (a meta tag, JSON-LD, a `<time>` element; one page
//! without a date, one missing). The first fetch asks no article page and serves first-seen
//! dates; one refresh later `/rss` shows each item with its article's date; the missing page is
//! tried a bounded number of times; no two requests to the site overlap; `article_dates = 0`
//! turns it off; full text gives the dates from its own reads; items stored before the
//! migration keep their dates.

mod common;

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use common::http::{Reply, Span, TestServer};
use common::server::{ADMIN_TOKEN, client, config, start};
use html2rss::config::Config;
use html2rss::store::{DateOrigin, Store};
use html2rss::updater::{DateRun, MAX_ARTICLE_ATTEMPTS, refresh_source};
use url::Url;

const TOPICS: [&str; 5] = ["harbour", "orchard", "railway", "glacier", "lighthouse"];

/// The date each article page carries, and how: `None` for the page without a date (3) and
/// the missing page (4).
fn published(i: usize) -> Option<&'static str> {
    ["2023-11-02T08:30:00+01:00", "2023-10-15T12:00:00+00:00", "2023-09-30T00:00:00+00:00", "", ""]
        .get(i)
        .copied()
        .filter(|d| !d.is_empty())
}

fn list_html() -> String {
    let posts: String = TOPICS
        .iter()
        .enumerate()
        .map(|(i, topic)| {
            format!(
                r#"<article class="post"><h2><a href="/notes/{i}">Notes on the {topic}</a></h2>
                <p>A few words about the {topic} and what it looked like this week, as seen from the
                pier by the old customs house.</p></article>"#
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>Quiet Notes</title></head><body>
        <header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
        <main><h1>Quiet Notes</h1>{posts}</main><footer>Quiet Notes, written by hand</footer></body></html>"#
    )
}

fn article_html(i: usize) -> String {
    let topic = TOPICS[i];
    let (head, byline) = match (i, published(i)) {
        (0, Some(date)) => (format!(r#"<meta property="article:published_time" content="{date}">"#), String::new()),
        (1, Some(date)) => (
            format!(
                r#"<script type="application/ld+json">{{"@context": "https://schema.org", "@type": "BlogPosting",
                "headline": "Notes on the {topic}", "datePublished": "{date}"}}</script>"#
            ),
            String::new(),
        ),
        (2, Some(_)) => {
            (String::new(), r#"<p class="meta"><time datetime="2023-09-30">30 September 2023</time></p>"#.into())
        }
        _ => (String::new(), String::new()),
    };
    let paragraphs: String = (1..=4)
        .map(|p| {
            format!(
                "<p>Part {p} on the {topic}: the people who keep the {topic} running told us how the \
                 season went, what the weather did to their plans, and why visitors keep coming back.</p>"
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>Notes on the {topic} - Quiet Notes</title>{head}</head>
        <body><header><a href="/">Quiet Notes</a></header>
        <article><h1>Notes on the {topic}</h1>{byline}{paragraphs}</article><footer>Quiet Notes</footer></body></html>"#
    )
}

/// The blog: `/notes/4` is missing; each article answer takes a little while, so overlapping
/// requests would be seen.
fn blog() -> TestServer {
    TestServer::start(|request| {
        if request.path == "/" {
            return Reply::html(list_html());
        }
        match request.path.strip_prefix("/notes/").and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if n < 4 => {
                std::thread::sleep(Duration::from_millis(20));
                Reply::html(article_html(n))
            }
            _ => Reply::status(404),
        }
    })
}

/// How often each article page was asked for, by index.
fn article_requests(site: &TestServer) -> Vec<usize> {
    let paths: Vec<String> = site.requests().into_iter().map(|r| r.path).collect();
    (0..TOPICS.len()).map(|i| paths.iter().filter(|p| **p == format!("/notes/{i}")).count()).collect()
}

fn no_overlap(spans: &[Span]) {
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            assert!(!a.overlaps(b), "two requests to the site overlapped: {a:?} and {b:?}");
        }
    }
}

/// The feed's entries as (article index, date), by index.
fn dates(body: &[u8]) -> Vec<(usize, DateTime<Utc>)> {
    let feed = feed_rs::parser::parse(body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)));
    let mut dates: Vec<(usize, DateTime<Utc>)> = feed
        .entries
        .iter()
        .map(|e| {
            let link = Url::parse(&e.links[0].href).unwrap();
            let index = link.path().trim_start_matches("/notes/").parse().unwrap();
            (index, e.published.unwrap_or_else(|| panic!("{link} has no date")))
        })
        .collect();
    dates.sort();
    dates
}

fn server_config(db: &Path) -> Config {
    let mut config = config(db);
    // A delay between requests, so that the test server's clock tells them apart.
    config.updater.per_host_delay = Duration::from_millis(10);
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undated_items_show_their_articles_dates_after_one_refresh() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&server_config(&dir.path().join("feeds.db")), false);
    let site = blog();
    let page = site.url("/");
    let http = client();

    // The first fetch: every item dated when it was first seen, no article page asked.
    let before = Utc::now();
    let first = http.get(server.rss(&page, "")).send().await.unwrap();
    assert_eq!(first.status(), 200);
    let first_dates = dates(&first.bytes().await.unwrap());
    assert_eq!(first_dates.len(), TOPICS.len(), "{first_dates:?}");
    for (i, date) in &first_dates {
        assert!(*date >= before - chrono::TimeDelta::seconds(1) && *date <= Utc::now(), "{i}: {date}");
    }
    assert_eq!(article_requests(&site), [0; 5], "the first fetch asked no article page");

    // One refresh: each page read once; the items whose pages give a date show it.
    let source = server.ctx.store.source_by_url(&Url::parse(&page).unwrap()).unwrap().unwrap();
    let done = refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    assert_eq!(done.dates, Some(DateRun { dated: 3, not_found: 1, failed: 1 }));
    assert_eq!(article_requests(&site), [1; 5]);
    let refreshed = dates(&http.get(server.rss(&page, "")).send().await.unwrap().bytes().await.unwrap());
    for ((i, date), (_, first_seen)) in refreshed.iter().zip(&first_dates) {
        match published(*i) {
            Some(expected) => assert_eq!(*date, DateTime::parse_from_rfc3339(expected).unwrap(), "{i}"),
            None => assert_eq!(date, first_seen, "{i} keeps the date it was first seen"),
        }
    }

    // Later refreshes: the page without a date is not read again, the missing one is tried a
    // bounded number of times.
    for _ in 0..MAX_ARTICLE_ATTEMPTS + 1 {
        refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    }
    assert_eq!(article_requests(&site), [1, 1, 1, 1, MAX_ARTICLE_ATTEMPTS as usize]);
    let last = dates(&http.get(server.rss(&page, "")).send().await.unwrap().bytes().await.unwrap());
    assert_eq!(last, refreshed);
    no_overlap(&site.spans());

    let metrics = http.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    for line in [
        "html2rss_article_dates_total{outcome=\"dated\"} 3",
        "html2rss_article_dates_total{outcome=\"not-found\"} 1",
        &format!("html2rss_article_dates_total{{outcome=\"failed\"}} {MAX_ARTICLE_ATTEMPTS}"),
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
    let admin = http.get(server.url("/admin")).bearer_auth(ADMIN_TOKEN).send().await.unwrap().text().await.unwrap();
    assert!(admin.contains("dates: 3 of 5 from articles (2 not found)"), "{admin}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn article_dates_0_leaves_first_seen_dates() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("feeds.db");
    let text = format!("db = \"{}\"\n[updater]\narticle_dates = 0\n", db.display());
    let mut config = server_config(&db);
    config.updater.article_dates = Config::parse(&text, Path::new("test.toml")).unwrap().updater.article_dates;
    assert_eq!(config.updater.article_dates, 0);
    let server = start(&config, false);
    let site = blog();
    let page = site.url("/");
    let http = client();

    let first = dates(&http.get(server.rss(&page, "")).send().await.unwrap().bytes().await.unwrap());
    let source = server.ctx.store.source_by_url(&Url::parse(&page).unwrap()).unwrap().unwrap();
    let done = refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    assert_eq!(done.dates, None);
    assert_eq!(article_requests(&site), [0; 5]);
    let after = dates(&http.get(server.rss(&page, "")).send().await.unwrap().bytes().await.unwrap());
    assert_eq!(after, first);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_text_reads_give_the_dates_without_a_second_request() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&server_config(&dir.path().join("feeds.db")), false);
    let site = blog();
    let page = site.url("/");
    let http = client();

    // full=1 on a new URL: its first fetch reads the article pages anyway, and so has the dates.
    let body = http.get(server.rss(&page, "&full=1")).send().await.unwrap().bytes().await.unwrap();
    let found = dates(&body);
    assert_eq!(found.len(), TOPICS.len());
    for (i, date) in &found {
        if let Some(expected) = published(*i) {
            assert_eq!(*date, DateTime::parse_from_rfc3339(expected).unwrap(), "{i}");
        }
    }
    assert_eq!(article_requests(&site), [1; 5]);
    let source = server.ctx.store.source_by_url(&Url::parse(&page).unwrap()).unwrap().unwrap();
    let origins: Vec<DateOrigin> =
        server.ctx.store.items(source.id, 10).unwrap().into_iter().map(|s| s.date_origin).collect();
    assert_eq!(origins.iter().filter(|&&o| o == DateOrigin::Article).count(), 3, "{origins:?}");

    // The next refresh: only the missing page is tried again (by full text); the date step
    // has nothing left to read.
    let done = refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    assert_eq!(done.dates, Some(DateRun::default()));
    assert_eq!(article_requests(&site), [1, 1, 1, 1, 2]);
    no_overlap(&site.spans());
    server.stop().await;
}

/// A database written before dates came from article pages (schema 3): its items keep the
/// dates they were served with, and none is read for a date.
#[test]
fn items_stored_before_the_migration_keep_their_dates() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old = rusqlite::Connection::open(&path).unwrap();
    for sql in [
        include_str!("../src/store/sqlite/migrations/001_initial.sql"),
        include_str!("../src/store/sqlite/migrations/002_refresh_state.sql"),
        include_str!("../src/store/sqlite/migrations/003_full_text.sql"),
    ] {
        old.execute_batch(sql).unwrap();
    }
    old.execute_batch(
        "PRAGMA user_version = 3;
         INSERT INTO sources (id, url, update_interval, next_due, created, fresh)
           VALUES (1, 'https://notes.example/', 3600, 0, 0, 0);
         INSERT INTO items (source_id, guid, title, link, date, date_ts, position, first_seen, last_seen)
           VALUES (1, 'https://notes.example/1', 'One', 'https://notes.example/1',
                   '2024-05-01T00:00:00+00:00', 1714521600, 0, 1714521600, 1714521600);",
    )
    .unwrap();
    drop(old);

    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), html2rss::store::SCHEMA_VERSION);
    let source = html2rss::store::SourceId(1);
    let items = store.items(source, 10).unwrap();
    assert_eq!((items.len(), items[0].date_origin), (1, DateOrigin::Page));
    assert_eq!(items[0].item.date.unwrap().to_rfc3339(), "2024-05-01T00:00:00+00:00");
    assert!(store.items_to_date(source, 10, MAX_ARTICLE_ATTEMPTS, false).unwrap().is_empty());
}
