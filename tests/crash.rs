//! Kill -9 the real `html2rss serve` during a busy refresh loop, restart it, and check that the
//! store is intact and that no item a reader had been served is lost; then stop it with
//! SIGTERM and check that it shuts down cleanly.

mod common;

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chrono::Utc;
use common::binary::{assert_none_lost, kill_mid_request, read_feed, serve};
use common::http::{Reply, TestServer};
use html2rss::store::{NewRule, SourceSettings, Store};
use url::Url;

const SOURCES: usize = 24;
const RULE: &str = r#"<page><name>crash pages</name><url>http://127.0.0.1:*</url>
    <subject path="//UL"><item path="LI"><title>A</title></item></subject></page>"#;

#[tokio::test]
async fn kill_9_during_busy_refreshes_loses_nothing_served_and_corrupts_nothing() {
    // Every request gives the page a new item (and keeps the last four).
    let counter = Arc::new(AtomicUsize::new(0));
    let count = counter.clone();
    let site = TestServer::start(move |request| {
        let n = count.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(15));
        let items: String = (n.saturating_sub(4)..=n)
            .map(|i| format!("<li><a href=\"{}/item/{i}\">Item {i}</a></li>", request.path))
            .collect();
        Reply::html(format!("<html><body><ul>{items}</ul></body></html>"))
    });

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("feeds.db");
    let store = Store::open(&db).unwrap();
    let now = Utc::now();
    store
        .add_rule(
            &NewRule { name: "crash pages".into(), url_patterns: vec!["http://127.0.0.1:*".into()], xml: RULE.into() },
            now,
        )
        .unwrap();
    let pages: Vec<String> = (0..SOURCES).map(|i| site.url(&format!("/s{i}"))).collect();
    let settings = SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(1) };
    for page in &pages {
        store.add_source(&Url::parse(page).unwrap(), &settings, now).unwrap();
    }
    drop(store);
    let config = dir.path().join("html2rss.toml");
    std::fs::write(
        &config,
        format!(
            r#"listen = "127.0.0.1:0"
            db = "{}"
            admin_token = "crash-test"
            items_per_feed = 100000
            first_fetches_per_minute = 0
            [fetch]
            allow_private = true
            timeout = "5s"
            [updater]
            fresh_workers = 2
            workers = 4
            default_interval = "1s"
            min_interval = "1s"
            per_host_delay = "0s"
            idle_poll = "100ms"
            shutdown_grace = "5s"
            "#,
            db.display()
        ),
    )
    .unwrap();

    let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build().unwrap();
    let mut server = serve(&config);
    let address = server.address.clone();
    // Read feeds while the updater refreshes every source about once a second.
    let mut served = BTreeSet::new();
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) || served.len() < SOURCES * 5 {
        for page in &pages {
            if let Some(links) = read_feed(&http, &address, page).await {
                served.extend(links);
            }
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the server served only {} items", served.len());
    }
    // Kill it the moment the updater asks for a page: a refresh is in flight.
    kill_mid_request(&mut server, &counter);

    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    drop(store);

    let mut server = serve(&config);
    let address = server.address.clone();
    let mut after = BTreeSet::new();
    for page in &pages {
        after.extend(read_feed(&http, &address, page).await.expect("every feed is served after the restart"));
    }
    assert_none_lost(&served, &after);

    // SIGTERM: a graceful stop.
    let stopped = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(stopped.success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "the server exits cleanly on SIGTERM: {status}");
    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    assert_eq!(store.sources().unwrap().len(), SOURCES);
}
