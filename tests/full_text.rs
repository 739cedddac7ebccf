//! Full text in the server: `/rss?url=…&full=1` on a loopback site whose list page links to
//! article pages. A new URL gets its items' content in its first fetch; a stored source that
//! had full text off gets it at its next refresh, with a new ETag; content and author are served
//! in RSS, Atom and JSON Feed; a failing article page leaves its item as it was and is counted;
//! enriched items are not fetched again; no two requests to the site overlap.

mod common;

use std::time::Duration;

use chrono::Utc;
use common::http::{Reply, Span, TestServer};
use common::server::{ADMIN_TOKEN, client, config, start};
use html2rss::updater::refresh_source;
use reqwest::StatusCode;
use url::Url;

const TOPICS: [&str; 4] = ["lighthouse", "vineyard", "observatory", "ferry"];

fn list_html(items: usize) -> String {
    let items: String = (0..items)
        .map(|i| {
            format!(
                r#"<li><a href="/news/{i}">News about the {}</a> <span class=date>2024-05-{:02} 10:00</span></li>"#,
                TOPICS[i],
                20 - i
            )
        })
        .collect();
    format!(
        "<!doctype html><html><head><title>Loopback Gazette</title></head>\
         <body><h1>Loopback Gazette</h1><ul class=news>{items}</ul></body></html>"
    )
}

fn article_html(i: usize) -> String {
    let topic = TOPICS[i];
    let paragraphs: String = (1..=4)
        .map(|p| {
            format!(
                "<p>Part {p} on the {topic}: the people who keep the {topic} running told the Gazette how \
                 the season went, what the weather did to their plans, and why visitors keep coming back \
                 to the {topic} year after year.</p>"
            )
        })
        .collect();
    format!(
        r#"<!doctype html><html><head><title>News about the {topic} | Loopback Gazette</title>
        <meta name="author" content="Reporter {i}"></head>
        <body><header><a href="/">Loopback Gazette</a></header>
        <article><h1>News about the {topic}</h1>{paragraphs}</article>
        <aside>Subscribe to our newsletter</aside></body></html>"#
    )
}

/// The site: a list of `items` posts; `/news/N` is an article for N in `articles`, else 404.
/// Each article answer takes a little while, so overlapping requests would be seen.
fn gazette(items: usize, articles: std::ops::Range<usize>) -> TestServer {
    TestServer::start(move |request| {
        if request.path == "/" {
            return Reply::html(list_html(items));
        }
        match request.path.strip_prefix("/news/").and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if articles.contains(&n) => {
                std::thread::sleep(Duration::from_millis(20));
                Reply::html(article_html(n))
            }
            _ => Reply::status(404),
        }
    })
}

fn articles_requested(site: &TestServer) -> Vec<String> {
    let mut paths: Vec<String> =
        site.requests().into_iter().map(|r| r.path).filter(|p| p.starts_with("/news/")).collect();
    paths.sort();
    paths
}

fn no_overlap(spans: &[Span]) {
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            assert!(!a.overlaps(b), "two requests to the site overlapped: {a:?} and {b:?}");
        }
    }
}

/// The entries of a feed (any format) as (link path, content, author).
fn entries(body: &[u8]) -> Vec<(String, Option<String>, Option<String>)> {
    let feed = feed_rs::parser::parse(body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)));
    let mut entries: Vec<_> = feed
        .entries
        .iter()
        .map(|e| {
            let link = Url::parse(&e.links[0].href).unwrap().path().to_string();
            let content = e.content.as_ref().and_then(|c| c.body.clone());
            let author = e.authors.first().and_then(|a| a.name.clone()).filter(|n| !n.is_empty());
            (link, content, author)
        })
        .collect();
    entries.sort();
    entries
}

fn assert_full(path: &str, content: Option<&str>, author: Option<&str>) {
    let i: usize = path.trim_start_matches("/news/").parse().unwrap();
    let content = content.unwrap_or_else(|| panic!("{path} has no content"));
    assert!(content.contains(&format!("Part 4 on the {}", TOPICS[i])), "{path}: {content}");
    assert!(!content.contains("newsletter"), "{path}: {content}");
    assert_eq!(author, Some(format!("Reporter {i}").as_str()), "{path}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_url_with_full_1_has_content_for_every_item_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir.path().join("feeds.db"));
    config.updater.per_host_delay = Duration::from_millis(10);
    let server = start(&config, false);
    let site = gazette(4, 0..4);
    let page = site.url("/");
    let http = client();

    let answer = http.get(server.rss(&page, "&full=1")).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let body = answer.bytes().await.unwrap();
    let text = String::from_utf8_lossy(&body).to_string();
    assert!(text.contains("<content:encoded>"), "{text}");
    let found = entries(&body);
    assert_eq!(found.len(), 4, "{text}");
    for (path, content, author) in &found {
        assert_full(path, content.as_deref(), author.as_deref());
    }
    for format in ["atom", "json"] {
        let body =
            http.get(server.rss(&page, &format!("&format={format}"))).send().await.unwrap().bytes().await.unwrap();
        let found = entries(&body);
        assert_eq!(found.len(), 4, "{format}");
        for (path, content, author) in &found {
            assert_full(path, content.as_deref(), author.as_deref());
        }
    }
    let json = http.get(server.rss(&page, "&format=json")).send().await.unwrap().bytes().await.unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert!(json["items"][0]["content_html"].as_str().unwrap().contains("Part 1 on the"), "{json}");

    assert_eq!(articles_requested(&site), ["/news/0", "/news/1", "/news/2", "/news/3"], "each page once");
    no_overlap(&site.spans());
    let source = server.ctx.store.source_by_url(&Url::parse(&page).unwrap()).unwrap().unwrap();
    assert!(source.settings.full_text);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_1_on_a_stored_feed_adds_content_at_the_next_refresh_and_failures_are_kept_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir.path().join("feeds.db"));
    // A delay between requests, so that the test server's clock tells them apart.
    config.updater.per_host_delay = Duration::from_millis(10);
    let server = start(&config, false);
    // Four items; the page of the last one is missing.
    let site = gazette(4, 0..3);
    let page = site.url("/");
    let http = client();

    let plain = http.get(server.rss(&page, "")).send().await.unwrap();
    let etag = plain.headers()["etag"].to_str().unwrap().to_string();
    let found = entries(&plain.bytes().await.unwrap());
    assert_eq!(found.len(), 4);
    assert!(found.iter().all(|(_, content, author)| content.is_none() && author.is_none()), "{found:?}");
    assert!(articles_requested(&site).is_empty());

    // full=1: the setting is on, the source due now; the feed is as it was until the refresh.
    let asked = http.get(server.rss(&page, "&full=1")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(asked.status(), StatusCode::NOT_MODIFIED);
    let source = server.ctx.store.source_by_url(&Url::parse(&page).unwrap()).unwrap().unwrap();
    assert!(source.settings.full_text);
    assert!(source.next_due <= Utc::now());

    // One refresh: the page is unchanged, its items get their content.
    refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    let fresh = http.get(server.rss(&page, "")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(fresh.status(), StatusCode::OK, "the content changed the feed");
    let found = entries(&fresh.bytes().await.unwrap());
    assert_eq!(found.len(), 4, "the item whose page failed is kept");
    for (path, content, author) in &found {
        if path == "/news/3" {
            assert_eq!((content, author), (&None, &None), "a failed page leaves the item as it was");
        } else {
            assert_full(path, content.as_deref(), author.as_deref());
        }
    }
    assert_eq!(articles_requested(&site), ["/news/0", "/news/1", "/news/2", "/news/3"]);

    // Another refresh: only the failed page is tried again.
    refresh_source(&server.ctx, source.id, Utc::now()).await.unwrap();
    assert_eq!(articles_requested(&site), ["/news/0", "/news/1", "/news/2", "/news/3", "/news/3"]);
    no_overlap(&site.spans());

    let metrics = http.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("html2rss_articles_total{outcome=\"enriched\"} 3"), "{metrics}");
    assert!(metrics.contains("html2rss_articles_total{outcome=\"failed\"} 2"), "{metrics}");
    let admin = http.get(server.url("/admin")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    let admin = admin.text().await.unwrap();
    assert!(admin.contains("3 of 4 (1 failed)"), "{admin}");
    server.stop().await;
}
