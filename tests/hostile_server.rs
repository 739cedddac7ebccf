//! Hostile page servers against the real server (port 0) and a loopback page server: each gets
//! a bounded answer, an error that names the problem or a correct feed, and what was stored
//! before is never lost. (Bombs, huge headers and private addresses: `tests/fetch.rs`; huge
//! and deep pages and feeds: `tests/hostile.rs`.)

mod common;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::http::{Reply, TestServer};
use common::server::{client, config, start};
use html2rss::updater::refresh_source;
use reqwest::StatusCode;

/// A dated list page of `titles`, linking `/posts/N`.
fn list(titles: &[String]) -> String {
    let rows: String = titles
        .iter()
        .enumerate()
        .map(|(i, title)| {
            format!("<li><a href=\"/posts/{i}\">{title}</a> <span>2024-05-{:02} 10:00</span></li>", 20 - i)
        })
        .collect();
    format!("<html><head><title>Hostile</title></head><body><ul>{rows}</ul></body></html>")
}

fn titles(base: &str) -> Vec<String> {
    (0..4).map(|i| format!("{base} story number {i}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_hostile_server_gets_a_bounded_answer_that_names_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = config(&dir.path().join("feeds.db"));
    // The fetch gives up before the reader's deadline, so its own reason is the answer.
    settings.fetch.timeout = Duration::from_secs(2);
    let server = start(&settings, false);
    let page = list(&titles("Café"));
    let windows_1252: Vec<u8> = page.chars().map(|c| if c == 'é' { 0xE9 } else { c as u8 }).collect();
    let site = TestServer::start(move |request| match request.path.as_str() {
        // One byte a second: never idle long enough for a read timeout, so the total one ends it.
        "/trickle" => Reply::Stream {
            headers: vec![("Content-Type".into(), "text/html".into())],
            total: 10_000,
            chunk: 1,
            pause: Duration::from_secs(1),
        },
        "/endless" => Reply::Stream {
            headers: vec![("Content-Type".into(), "text/html".into())],
            total: usize::MAX,
            chunk: 64 * 1024,
            pause: Duration::ZERO,
        },
        // Promises 100,000 bytes, sends a part, and hangs up.
        "/cut" => Reply::html(&page.as_bytes()[..200]).header("Content-Length", "100000"),
        "/loop" => Reply::redirect(302, "/loop"),
        // A charset nobody knows: ignored, the page's bytes (UTF-8) are read as they are.
        "/bogus-charset" => {
            Reply::status(200).header("Content-Type", "text/html; charset=x-no-such").body(page.clone())
        }
        // The header says UTF-8, the bytes and the meta say windows-1252: the header wins (as in
        // browsers), the one bad byte becomes U+FFFD, and the items are still read.
        "/lying-charset" => Reply::status(200)
            .header("Content-Type", "text/html; charset=utf-8")
            .body([b"<meta charset=windows-1252>".as_slice(), &windows_1252].concat()),
        _ => Reply::status(404),
    });
    let http = client();
    for (path, status, reason) in [
        ("/trickle", StatusCode::GATEWAY_TIMEOUT, "timed out"),
        ("/endless", StatusCode::BAD_GATEWAY, "larger than the limit"),
        ("/cut", StatusCode::BAD_GATEWAY, "/cut"),
        ("/loop", StatusCode::BAD_GATEWAY, "redirects"),
    ] {
        let response = http.get(server.rss(&site.url(path), "")).send().await.unwrap();
        assert_eq!(response.status(), status, "{path}");
        let text = response.text().await.unwrap();
        assert!(text.contains(reason), "{path}: {text}");
    }
    for (path, first_title) in
        [("/bogus-charset", "Café story number 0"), ("/lying-charset", "Caf\u{FFFD} story number 0")]
    {
        let response = http.get(server.rss(&site.url(path), "")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let feed = feed_rs::parser::parse(&response.bytes().await.unwrap()[..]).unwrap();
        assert_eq!(feed.entries.len(), 4, "{path}");
        assert_eq!(feed.entries[0].title.as_ref().unwrap().content, first_title, "{path}");
    }
    // Nothing that failed was kept as a source with no feed.
    assert_eq!(server.ctx.store.sources().unwrap().len(), 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_different_on_every_fetch_keeps_one_item_per_story_and_a_cut_fetch_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let fetches = Arc::new(AtomicUsize::new(0));
    let counter = fetches.clone();
    let site = TestServer::start(move |request| {
        // The server looks for the site's feed too (to learn a template): there is none.
        if request.path != "/news" {
            return Reply::status(404);
        }
        let n = counter.fetch_add(1, Ordering::SeqCst);
        // Every answer differs: another order, a view count in every title, a new ad block.
        let mut order: Vec<usize> = (0..4).collect();
        order.rotate_left(n % 4);
        let rows: String = order
            .iter()
            .map(|i| {
                let (views, day) = (100 + n, 20 - i);
                format!("<li><a href=\"/posts/{i}\">Hostile story number {i} ({views} views)</a> <span>2024-05-{day:02} 10:00</span></li>")
            })
            .collect();
        let body = format!(
            "<html><head><title>Hostile</title></head><body><div class=ad>Ad {n}</div><ul>{rows}</ul></body></html>"
        );
        if n == 3 {
            // One fetch hangs up mid-body.
            return Reply::html(&body.as_bytes()[..150]).header("Content-Length", "100000");
        }
        Reply::html(body)
    });
    let page = site.url("/news");
    let http = client();
    assert_eq!(http.get(server.rss(&page, "")).send().await.unwrap().status(), StatusCode::OK);
    let source = server.ctx.store.sources().unwrap().pop().unwrap();
    let mut failures = Vec::new();
    for _ in 0..5 {
        if let Err(error) = refresh_source(&server.ctx, source.id, chrono::Utc::now()).await {
            failures.push(error.to_string());
        }
    }
    assert!(failures.len() == 1 && failures[0].contains("/news"), "the cut fetch fails with its page: {failures:?}");
    // Every refresh read the page (the HTTP client may send one again on a fresh connection
    // when the test server had closed the kept one).
    assert!(fetches.load(Ordering::SeqCst) >= 6);
    let items = server.ctx.store.items(source.id, 100).unwrap();
    let guids: HashSet<&str> = items.iter().map(|i| i.guid.as_str()).collect();
    let links: HashSet<String> =
        items.iter().filter_map(|i| i.item.link.as_ref()).map(|l| l.path().to_string()).collect();
    assert_eq!((items.len(), guids.len()), (4, 4), "one item per story, however the page changed");
    assert_eq!(links, (0..4).map(|i| format!("/posts/{i}")).collect::<HashSet<_>>());
    // The cut fetch was an error with its reason; the feed stayed whole.
    let response = http.get(server.rss(&page, "")).send().await.unwrap();
    let feed = feed_rs::parser::parse(&response.bytes().await.unwrap()[..]).unwrap();
    assert_eq!(feed.entries.len(), 4);
    server.stop().await;
}
