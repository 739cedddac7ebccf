//! The real server on port 0 against loopback page servers: `/rss` first fetch and stored
//! answers, 304s, rule upload changing the feed, `/admin` and `/metrics`; single-flight first
//! fetches; the error answers; bad uploads that change nothing. The first of these, `/healthz`
//! and two `serve` processes sharing one database run on PostgreSQL too.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::http::{Reply, TestServer};
use common::server::{ADMIN_TOKEN, client, config, start};
use html2rss::feed::{FeedMeta, Format};
use html2rss::store::{SCHEMA_VERSION, SourceId, Store};
use html2rss::updater::{Schedule, refresh_source};
use reqwest::StatusCode;

/// A news page with dated items, a "most read" list, and the feed it advertises (with the
/// same items, so whichever engine reads the page, the feed is the same).
fn page_html() -> String {
    let items = story_items(3);
    format!(
        r#"<!doctype html><html><head><title>Loopback Daily</title>
        <link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>
        <body><h1>Loopback Daily</h1><ul class="news">{items}</ul>
        <h2>Most read</h2><ol class="popular"><li><a href="/popular/a">Popular A</a></li><li><a href="/popular/b">Popular B</a></li></ol>
        </body></html>"#
    )
}

fn feed_xml() -> String {
    let items: String = (1..=3)
        .map(|i| {
            format!(
                "<item><title>Story number {i}</title><link>/news/{i}</link><pubDate>{} May 2024 10:00:00 +0000</pubDate></item>",
                20 - i
            )
        })
        .collect();
    format!(
        r#"<rss version="2.0"><channel><title>Loopback Daily</title><link>/</link><description>d</description>{items}</channel></rss>"#
    )
}

fn news_site() -> TestServer {
    TestServer::start(|request| match request.path.as_str() {
        "/feed.xml" => Reply::status(200).header("Content-Type", "application/rss+xml").body(feed_xml()),
        "/" => Reply::html(page_html()),
        _ => Reply::status(404),
    })
}

fn titles(body: &[u8]) -> Vec<String> {
    let feed = feed_rs::parser::parse(body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)));
    feed.entries.iter().map(|e| e.title.as_ref().unwrap().content.clone()).collect()
}

const POPULAR_RULE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<page>
  <name>Loopback most read</name>
  <url>http://127.0.0.1:*/</url>
  <subject path="//OL[@class=popular]"><item path="LI"><title>A</title><link>A/@href</link></item></subject>
</page>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rss_from_first_fetch_to_304_to_an_uploaded_rule_seen_on_admin_and_metrics() {
    let dir = tempfile::tempdir().unwrap();
    rss_from_first_fetch_to_an_uploaded_rule(&dir.path().join("feeds.db")).await;
}

/// The same on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rss_from_first_fetch_to_304_to_an_uploaded_rule_on_postgres() {
    rss_from_first_fetch_to_an_uploaded_rule(Path::new(&common::postgres::database())).await;
}

async fn rss_from_first_fetch_to_an_uploaded_rule(db: &Path) {
    let server = start(&config(db), true);
    let site = news_site();
    let page = site.url("/");
    let http = client();

    // First request: fetched and extracted at once.
    let first = http.get(server.rss(&page, "")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()["content-type"], "application/rss+xml; charset=utf-8");
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    assert!(etag.starts_with('"') && etag.len() > 10, "a strong ETag: {etag}");
    assert!(first.headers().contains_key("last-modified"));
    let body = first.bytes().await.unwrap();
    let text = String::from_utf8_lossy(&body).to_string();
    let mut found = titles(&body);
    found.sort();
    assert_eq!(found, ["Story number 1", "Story number 2", "Story number 3"], "{text}");
    assert!(text.contains("<ttl>"), "the ttl says how often the feed changes: {text}");
    let page_requests = site.requests().iter().filter(|r| r.path == "/").count();
    assert_eq!(page_requests, 1);
    let source = server.ctx.store.source_by_url(&url::Url::parse(&page).unwrap()).unwrap().unwrap();
    assert_eq!(source.engine, Some(html2rss::engines::Engine::TimePattern), "no rule: the dates found the items");
    assert!(!source.fresh, "the first fetch was recorded");

    // Again, with the ETag: 304 from the store, nothing fetched.
    let again = http.get(server.rss(&page, "")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());
    let head = http.head(server.rss(&page, "")).send().await.unwrap();
    assert_eq!((head.status(), head.headers()["etag"].to_str().unwrap()), (StatusCode::OK, etag.as_str()));
    let since = http
        .get(server.rss(&page, "&format=atom"))
        .header("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")
        .send()
        .await
        .unwrap();
    assert_eq!(since.status(), StatusCode::NOT_MODIFIED);
    let atom = http.get(server.rss(&page, "&format=atom")).send().await.unwrap();
    assert_eq!(atom.headers()["content-type"], "application/atom+xml; charset=utf-8");
    assert_eq!(titles(&atom.bytes().await.unwrap()).len(), 3);
    assert_eq!(site.requests().iter().filter(|r| r.path == "/").count(), 1, "later requests come from the store");

    // Upload a rule for the page: the updater extracts it again and the feed changes.
    let uploaded = http.post(server.url("/rules")).bearer_auth(ADMIN_TOKEN).body(POPULAR_RULE).send().await.unwrap();
    assert_eq!(uploaded.status(), StatusCode::CREATED);
    let location = uploaded.headers()["location"].to_str().unwrap().to_string();
    let answer: serde_json::Value = serde_json::from_str(&uploaded.text().await.unwrap()).unwrap();
    assert_eq!((answer["name"].as_str(), answer["sources"].as_u64()), (Some("Loopback most read"), Some(1)));
    let start = Instant::now();
    let changed = loop {
        let response = http.get(server.rss(&page, "")).header("If-None-Match", &etag).send().await.unwrap();
        if response.status() == StatusCode::OK {
            let titles = titles(&response.bytes().await.unwrap());
            if titles.iter().any(|t| t == "Popular A") {
                break titles;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the feed did not change after the rule upload");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(changed.contains(&"Popular B".to_string()), "{changed:?}");
    assert!(changed.contains(&"Story number 1".to_string()), "items that left the extraction stay: {changed:?}");
    let stored = http.get(server.url(&location)).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    assert_eq!(stored.text().await.unwrap(), POPULAR_RULE);

    // The admin page shows the source, its engine and the rule.
    let admin = http.get(server.url("/admin")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    assert_eq!(admin.status(), StatusCode::OK);
    let admin = admin.text().await.unwrap();
    for expected in [page.as_str(), "Loopback Daily", ">rule", "Loopback most read", "badge ok", "http://127.0.0.1:*/"]
    {
        assert!(admin.contains(expected), "the admin page lacks {expected:?}");
    }
    let denied = http.get(server.url("/admin")).send().await.unwrap();
    assert_eq!(denied.status(), StatusCode::UNAUTHORIZED);

    // And the metrics count it all.
    let metrics = http.get(server.url("/metrics")).send().await.unwrap().text().await.unwrap();
    let value = |line: &str| -> f64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(line)?.strip_prefix(' ').map(|v| v.trim().parse().unwrap()))
            .unwrap_or_else(|| panic!("no {line} in\n{metrics}"))
    };
    assert!(value("html2rss_http_requests_total{route=\"/rss\",status=\"200\"}") >= 3.0);
    assert!(value("html2rss_http_requests_total{route=\"/rss\",status=\"304\"}") >= 2.0);
    assert_eq!(value("html2rss_http_requests_total{route=\"/rules\",status=\"201\"}"), 1.0);
    assert_eq!(value("html2rss_first_fetches_total{result=\"ok\"}"), 1.0);
    assert!(value("html2rss_fetches_total") >= 2.0);
    assert!(value("html2rss_refreshes_total{outcome=\"extracted\"}") >= 2.0);
    assert_eq!(value("html2rss_sources"), 1.0);
    assert_eq!(value("html2rss_items"), 5.0);
    assert_eq!(value("html2rss_rules"), 1.0);
    assert_eq!(value("html2rss_updater_workers{kind=\"fresh\"}"), 1.0);
    assert!(metrics.contains("html2rss_updater_queue "));

    // OPML lists the feed.
    let opml = http.get(server.url("/opml")).bearer_auth(ADMIN_TOKEN).send().await.unwrap().text().await.unwrap();
    assert!(opml.contains("xmlUrl=\"http://127.0.0.1:"), "{opml}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_first_requests_share_one_fetch() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = TestServer::start(|request| match request.path.as_str() {
        "/feed.xml" => Reply::status(200).header("Content-Type", "application/rss+xml").body(feed_xml()),
        _ => {
            std::thread::sleep(Duration::from_millis(300));
            Reply::html(page_html())
        }
    });
    let http = client();
    let url = server.rss(&site.url("/"), "");
    let answers = futures_util::future::join_all((0..8).map(|_| {
        let http = http.clone();
        let url = url.clone();
        async move {
            let response = http.get(url).send().await.unwrap();
            (response.status(), response.headers()["etag"].to_str().unwrap().to_string())
        }
    }))
    .await;
    assert!(answers.iter().all(|(status, etag)| *status == StatusCode::OK && *etag == answers[0].1), "{answers:?}");
    assert_eq!(site.requests().iter().filter(|r| r.path == "/").count(), 1, "one fetch for eight readers");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_statuses_with_reasons_never_fake_items() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = config(&dir.path().join("feeds.db"));
    settings.first_fetch_deadline = Duration::from_secs(2);
    settings.first_fetches_per_minute = 6;
    let server = start(&settings, false);
    let site = TestServer::start(|request| match request.path.as_str() {
        "/broken" => Reply::status(500),
        "/slow" => Reply::Hang,
        "/empty" => Reply::html("<html><head><title>Nothing</title></head><body><p>No list here.</p></body></html>"),
        _ => Reply::status(404),
    });
    let http = client();
    let get = |url: String| {
        let http = http.clone();
        async move {
            let response = http.get(url).send().await.unwrap();
            let status = response.status();
            let content_type = response.headers()["content-type"].to_str().unwrap().to_string();
            let text = response.text().await.unwrap();
            assert_eq!(content_type, "text/plain; charset=utf-8", "{text}");
            (status, text)
        }
    };
    let (status, text) = get(server.url("/rss")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("missing the `url` parameter"), "{text}");
    let (status, text) = get(server.rss("ftp://example.org/x", "")).await;
    assert_eq!((status, text.contains("only http and https")), (StatusCode::BAD_REQUEST, true), "{text}");
    let (status, text) = get(server.rss(&site.url("/empty"), "")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(text.contains("finds no items"), "{text}");
    let (status, text) = get(server.rss(&site.url("/slow"), "")).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    assert!(text.contains("still being fetched"), "{text}");
    // Another host name for the same server: the gate holds 127.0.0.1 for the hung request.
    let other = |path: &str| format!("http://localhost:{}{path}", site.port());
    let (status, text) = get(server.rss(&other("/broken"), "")).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert!(text.contains("answered HTTP 500"), "{text}");
    // A failed first fetch leaves no source behind.
    let sources = server.ctx.store.sources().unwrap();
    assert!(sources.iter().all(|s| !s.url.path().starts_with("/broken") && !s.url.path().starts_with("/empty")));
    // Six first fetches per minute from one address: the seventh new URL waits. (The server
    // that failed with a 500 is backed off: `/gone` goes to a third name.)
    let third = |path: &str| format!("http://[::ffff:127.0.0.1]:{}{path}", site.port());
    for path in ["/gone", "/gone-too", "/gone-three"] {
        let (status, text) = get(server.rss(&third(path), "")).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{text}");
    }
    let (status, text) = get(server.rss(&third("/one-too-many"), "")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{text}");
    assert!(text.contains("too many new feeds"), "{text}");
    server.stop().await;

    // With the guard on (the default), loopback is refused: 403.
    let guarded_dir = tempfile::tempdir().unwrap();
    let mut guarded = config(&guarded_dir.path().join("feeds.db"));
    guarded.fetch.allow_private = false;
    let server = start(&guarded, false);
    let (status, text) = get(server.rss(&site.url("/empty"), "")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(text.contains("does not fetch such addresses"), "{text}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feed_tokens_open_only_their_own_feed() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = config(&dir.path().join("feeds.db"));
    settings.require_feed_tokens = true;
    let server = start(&settings, false);
    let site = news_site();
    let http = client();
    let denied = http.get(server.rss(&site.url("/"), "")).send().await.unwrap();
    assert_eq!(denied.status(), StatusCode::FORBIDDEN);
    let key = server.ctx.store.setting("feed_token_key").unwrap().unwrap();
    let page = url::Url::parse(&site.url("/")).unwrap();
    let token = html2rss::web::auth::feed_token(&key, &page);
    let other = html2rss::web::auth::feed_token(&key, &url::Url::parse(&site.url("/other")).unwrap());
    let wrong = http.get(server.rss(&site.url("/"), &format!("&token={other}"))).send().await.unwrap();
    assert_eq!(wrong.status(), StatusCode::FORBIDDEN);
    let allowed = http.get(server.rss(&site.url("/"), &format!("&token={token}"))).send().await.unwrap();
    assert_eq!(allowed.status(), StatusCode::OK);
    let body = allowed.text().await.unwrap();
    assert!(body.contains(&format!("token={token}")), "the self link carries the token: {body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_uploads_get_the_right_4xx_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let http = client();
    let upload = |body: Vec<u8>, token: Option<&'static str>| {
        let http = http.clone();
        let url = server.url("/rules");
        async move {
            let mut request = http.post(url).body(body);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request.send().await.unwrap();
            (response.status(), response.text().await.unwrap())
        }
    };
    let (status, text) = upload(
        b"<page><subject path=\"/\">\n  <item path=\"LI\"><title>A</title></item>\n</page>".to_vec(),
        Some(ADMIN_TOKEN),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
    assert!(text.starts_with("upload:3:"), "malformed XML, with line and column: {text}");
    let bomb =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rules/broken/doctype-billion-laughs.xml")).unwrap();
    let (status, text) = upload(bomb, Some(ADMIN_TOKEN)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
    assert!(text.contains("DOCTYPE declarations are refused"), "{text}");
    let (status, text) = upload(
        b"<page>\n<subject path=\"/\"><item path=\"LI\"><colour>A</colour></item></subject></page>".to_vec(),
        Some(ADMIN_TOKEN),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    assert!(text.starts_with("upload:2:") && text.contains("unknown element <colour>"), "{text}");
    let (status, text) = upload(
        b"<page><subject path=\"/\"><item path=\"LI\"><title>A</title></item></subject></page>".to_vec(),
        Some(ADMIN_TOKEN),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    assert!(text.contains("names no pages"), "{text}");
    let (status, text) = upload(POPULAR_RULE.as_bytes().to_vec(), Some("wrong-token")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{text}");
    let (status, _) = upload(POPULAR_RULE.as_bytes().to_vec(), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // 50 MB: refused by its length, before it is read.
    let huge = vec![b'x'; 50 * 1024 * 1024];
    let (status, text) = upload(huge, Some(ADMIN_TOKEN)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{text}");
    // Streamed without a length: cut off at the cap.
    let chunks = futures_util::stream::iter((0..50).map(|_| Ok::<_, std::io::Error>(vec![b'<'; 1024 * 1024])));
    let response = http
        .post(server.url("/rules"))
        .bearer_auth(ADMIN_TOKEN)
        .body(reqwest::Body::wrap_stream(chunks))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);

    assert!(server.ctx.store.rules().unwrap().is_empty(), "nothing was stored");
    let listed = http.get(server.url("/rules")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    assert_eq!(listed.text().await.unwrap().trim(), "[]");
    let (status, _) = upload(POPULAR_RULE.as_bytes().to_vec(), Some(ADMIN_TOKEN)).await;
    assert_eq!(status, StatusCode::CREATED, "a good upload still works after the bad ones");
    let deleted = http.delete(server.url("/rules/1")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let gone = http.get(server.url("/rules/1")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_is_tried_on_a_page_without_being_saved() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = news_site();
    let http = client();
    let encoded: String = url::form_urlencoded::byte_serialize(site.url("/").as_bytes()).collect();
    let response = http
        .post(server.url(&format!("/rules/test?url={encoded}")))
        .bearer_auth(ADMIN_TOKEN)
        .body(POPULAR_RULE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let tried: serde_json::Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_eq!(tried["items"], 2);
    assert_eq!(tried["extraction"]["page"]["subjects"][0]["items"][0]["title"], "Popular A");
    assert!(server.ctx.store.rules().unwrap().is_empty() && server.ctx.store.sources().unwrap().is_empty());
    server.stop().await;
}

/// The admin surface: its pages forbid inline script and framing; the login cookie is
/// `HttpOnly` and `SameSite=Strict`; guessing the token from one address is cut off after a
/// few tries per minute, the right token included, with the time to wait; a change made with
/// the cookie needs the page's CSRF token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_logins_are_limited_and_its_pages_carry_a_security_policy() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let login = http.get(server.url("/admin")).send().await.unwrap();
    assert_eq!(login.status(), StatusCode::UNAUTHORIZED);
    let policy = login.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert_eq!(login.headers()["x-frame-options"], "DENY");

    let right = http.get(server.url(&format!("/admin?token={ADMIN_TOKEN}"))).send().await.unwrap();
    assert_eq!(right.status(), StatusCode::SEE_OTHER);
    let cookie = right.headers()["set-cookie"].to_str().unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"),
        "{cookie}"
    );

    let mut statuses = Vec::new();
    for n in 0..12 {
        let guess = http.get(server.url(&format!("/admin?token=guess{n}"))).send().await.unwrap();
        statuses.push(guess.status());
    }
    // One try went to the right token: nine wrong ones answer 401, then the address waits.
    assert!(statuses[..9].iter().all(|s| *s == StatusCode::UNAUTHORIZED), "{statuses:?}");
    assert!(statuses[9..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
    let limited = http.get(server.url(&format!("/admin?token={ADMIN_TOKEN}"))).send().await.unwrap();
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(limited.headers()["retry-after"].to_str().unwrap().parse::<u64>().unwrap() >= 1);
    // Requests with the token in a header are not logins, and are not limited.
    let bearer = http.get(server.url("/admin")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    assert_eq!(bearer.status(), StatusCode::OK);

    // A request another site makes the signed-in browser send carries the cookie but not the
    // page's CSRF token: refused, and nothing is stored.
    let cookie = cookie.split(';').next().unwrap().to_string();
    let forged = http.post(server.url("/rules")).header("cookie", &cookie).body(POPULAR_RULE).send().await.unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(server.ctx.store.rules().unwrap().is_empty());
    let page = http.get(server.url("/admin")).header("cookie", &cookie).send().await.unwrap().text().await.unwrap();
    let csrf = page.split(r#"name="csrf-token" content=""#).nth(1).unwrap().split('"').next().unwrap().to_string();
    let wrong = http
        .post(server.url("/rules"))
        .header("cookie", &cookie)
        .header("x-csrf-token", "0".repeat(csrf.len()))
        .body(POPULAR_RULE)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::FORBIDDEN);
    let made = http
        .post(server.url("/rules"))
        .header("cookie", &cookie)
        .header("x-csrf-token", &csrf)
        .body(POPULAR_RULE)
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), StatusCode::CREATED);
    assert_eq!(server.ctx.store.rules().unwrap().len(), 1);
    server.stop().await;
}

/// Feed options: `include`, `exclude` and `limit` shape one reader's feed of a stored page;
/// each set of options is its own feed (own `ETag`, self link with the options); bad ones
/// are a 400 with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_exclude_and_limit_shape_the_feed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = news_site();
    let http = client();
    let get = |options: &str| http.get(server.rss(&site.url("/"), options)).send();
    let all = get("").await.unwrap();
    let all_tag = all.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(titles(&all.bytes().await.unwrap()), ["Story number 1", "Story number 2", "Story number 3"]);

    let some = get("&exclude=number%202&limit=1").await.unwrap();
    assert_eq!(some.status(), StatusCode::OK);
    assert_ne!(some.headers()["etag"].to_str().unwrap(), all_tag);
    let body = some.bytes().await.unwrap();
    assert_eq!(titles(&body), ["Story number 1"]);
    assert!(String::from_utf8_lossy(&body).contains("exclude=number+2&amp;limit=1"), "the self link keeps the options");
    let matching = get("&include=%28%3Fi%29STORY%20NUMBER%20%5B23%5D").await.unwrap();
    assert_eq!(titles(&matching.bytes().await.unwrap()), ["Story number 2", "Story number 3"]);
    // The unfiltered feed is unchanged by the others.
    let again = get("").await.unwrap();
    assert_eq!(again.headers()["etag"].to_str().unwrap(), all_tag);

    let bad = get("&include=%28").await.unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    assert!(bad.text().await.unwrap().contains("`include` is not a usable regular expression"));
    server.stop().await;
}

/// `count` dated stories as list items, newest first.
fn story_items(count: usize) -> String {
    (1..=count)
        .map(|i| {
            format!(
                "<li><a href=\"/news/{i}\">Story number {i}</a> <span class=date>2024-05-{:02} 10:00</span></li>",
                20 - i
            )
        })
        .collect()
}

/// A news page of `count` dated stories, which the time patterns read.
fn stories_html(count: usize) -> String {
    let items = story_items(count);
    format!(
        "<!doctype html><html><head><title>Loopback Daily</title></head><body><ul class=\"news\">{items}</ul></body></html>"
    )
}

/// The feed as the writer gives it now from the stored items, with the self link `self_url`.
fn fresh_render(store: &Store, id: SourceId, items: usize, format: Format, self_url: &str) -> String {
    let feed = store.feed(id, items).unwrap().unwrap();
    let source = &feed.source;
    let meta = FeedMeta {
        self_url: Some(url::Url::parse(self_url).unwrap()),
        updated: source.last_change.unwrap_or(source.created).fixed_offset(),
        ttl_minutes: Some(Schedule::ttl_minutes(source.settings.update_interval)),
    };
    html2rss::feed::write(&feed.page, format, &meta)
}

/// A refresh that changes a feed keeps its renders in every format; `/rss` serves the stored
/// render with the reader's self link, equal to a fresh render, and a changed feed replaces
/// it and its `ETag`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feeds_are_served_from_stored_renders_that_a_change_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(&dir.path().join("feeds.db"));
    let server = start(&config, false);
    let stories = Arc::new(AtomicUsize::new(3));
    let count = stories.clone();
    let site = TestServer::start(move |request| match request.path.as_str() {
        "/" => Reply::html(stories_html(count.load(Ordering::SeqCst))),
        _ => Reply::status(404),
    });
    let page = site.url("/");
    let http = client();
    let first = http.get(server.rss(&page, "")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    let store = &server.ctx.store;
    let source = store.source_by_url(&url::Url::parse(&page).unwrap()).unwrap().unwrap();
    let formats = [(Format::Rss, ""), (Format::Atom, "&format=atom"), (Format::Json, "&format=json")];
    for (format, _) in formats {
        let render = store.render(source.id, format).unwrap().expect("the first fetch kept a render of each format");
        assert_eq!(render.feed_version, source.feed_version, "{format}");
    }
    for (format, extra) in formats {
        let served = http.get(server.rss(&page, extra)).send().await.unwrap().text().await.unwrap();
        assert_eq!(served, fresh_render(store, source.id, config.items_per_feed, format, &server.rss(&page, extra)));
        assert_eq!(titles(served.as_bytes()), ["Story number 1", "Story number 2", "Story number 3"], "{format}");
    }

    // Served from the stored render, not rendered: a server with an empty cache gives what the
    // store holds, here altered behind its back.
    let mut altered = store.render(source.id, Format::Rss).unwrap().unwrap();
    altered.body = altered.body.replace("Story number 2", "Story number two, as stored");
    assert!(store.put_renders(source.id, &[altered]).unwrap());
    let second = start(&config, false);
    let served = http.get(second.rss(&page, "")).send().await.unwrap().text().await.unwrap();
    assert!(served.contains("Story number two, as stored"), "{served}");
    assert!(served.contains(&format!("href=\"http://{}/rss?url=", second.addr)), "its own self link: {served}");
    second.stop().await;

    // The page changes: the refresh replaces the renders, readers get the new feed and ETag.
    stories.store(4, Ordering::SeqCst);
    let refreshed = refresh_source(&server.ctx, source.id, chrono::Utc::now()).await.unwrap();
    assert_eq!(refreshed.merge.unwrap().new, 1);
    let render = store.render(source.id, Format::Rss).unwrap().unwrap();
    assert_eq!(render.feed_version, refreshed.source.feed_version);
    assert!(!render.body.contains("as stored"));
    let changed = http.get(server.rss(&page, "")).header("If-None-Match", &etag).send().await.unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
    let served = changed.text().await.unwrap();
    assert_eq!(served, fresh_render(store, source.id, config.items_per_feed, Format::Rss, &server.rss(&page, "")));
    assert_eq!(titles(served.as_bytes()).len(), 4);
    server.stop().await;
}

/// A database of the schema version before renders (feeds stored, no renders) is migrated when
/// the server opens it and still serves its feeds: each is rendered and kept at its first request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feeds_stored_before_renders_were_kept_are_served_and_rendered_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("feeds.db");
    let config = config(&db);
    let site = news_site();
    let page = site.url("/");
    let http = client();
    let server = start(&config, false);
    assert_eq!(http.get(server.rss(&page, "")).send().await.unwrap().status(), StatusCode::OK);
    server.stop().await;
    // What version 5, the last without renders, left: the same file without the renders table.
    let raw = rusqlite::Connection::open(&db).unwrap();
    raw.execute_batch("DROP TABLE renders; PRAGMA user_version = 5;").unwrap();
    drop(raw);

    let server = start(&config, false);
    let store = &server.ctx.store;
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let source = store.source_by_url(&url::Url::parse(&page).unwrap()).unwrap().unwrap();
    assert!(store.render(source.id, Format::Atom).unwrap().is_none());
    let served = http.get(server.rss(&page, "&format=atom")).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    let served = served.text().await.unwrap();
    let self_url = server.rss(&page, "&format=atom");
    assert_eq!(served, fresh_render(store, source.id, config.items_per_feed, Format::Atom, &self_url));
    assert_eq!(titles(served.as_bytes()).len(), 3);
    for format in [Format::Rss, Format::Atom, Format::Json] {
        assert!(store.render(source.id, format).unwrap().is_some(), "{format} kept at the first request");
    }
    assert_eq!(site.requests().iter().filter(|r| r.path == "/").count(), 1, "served from the store");
    server.stop().await;
}

/// `/healthz` reads the store's last ping: a database file that went away is a 503 with the
/// reason, though the server's open connections would still answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_is_503_when_the_store_is_unreachable() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("feeds.db");
    let server = start(&config(&db), false);
    let http = client();
    let ok = http.get(server.url("/healthz")).send().await.unwrap();
    assert_eq!((ok.status(), ok.text().await.unwrap().as_str()), (StatusCode::OK, "ok\n"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let started = Instant::now();
    loop {
        let answer = http.get(server.url("/healthz")).send().await.unwrap();
        if answer.status() == StatusCode::SERVICE_UNAVAILABLE {
            let reason = answer.text().await.unwrap();
            assert!(reason.contains("store unreachable") && reason.contains("feeds.db"), "{reason}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "still healthy without its database");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.stop().await;
}

/// On PostgreSQL, `/healthz` is 503 with the reason when the database is gone (dropped, its
/// connections cut), and the pooled connections are not taken for an answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_is_503_when_the_postgres_database_is_gone() {
    let db = common::postgres::database();
    let server = start(&config(Path::new(&db)), false);
    let http = client();
    let ok = http.get(server.url("/healthz")).send().await.unwrap();
    assert_eq!((ok.status(), ok.text().await.unwrap().as_str()), (StatusCode::OK, "ok\n"));
    common::postgres::drop_database(&db);
    let started = Instant::now();
    loop {
        // The first failing ping may find its pooled connection cut; the next ones say why.
        let answer = http.get(server.url("/healthz")).send().await.unwrap();
        let status = answer.status();
        let reason = answer.text().await.unwrap();
        if status == StatusCode::SERVICE_UNAVAILABLE && reason.contains("does not exist") {
            assert!(
                reason.starts_with("store unreachable") && reason.contains(&db[db.rfind('/').unwrap() + 1..]),
                "{reason}"
            );
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "not unhealthy for the reason yet: {status} {reason}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.stop().await;
}

/// Two `html2rss serve` processes on one PostgreSQL database (the reason for the backend): the
/// page the first one fetched is served by the second from the store, without a fetch; both
/// stop cleanly on SIGTERM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_database_serve_the_same_feeds() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    let db = common::postgres::database();
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join("html2rss.toml");
    std::fs::write(
        &settings,
        "first_fetches_per_minute = 0\n[fetch]\nallow_private = true\n[updater]\nper_host_delay = \"0s\"\n",
    )
    .unwrap();
    let serve = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_html2rss"))
            .args(["serve", "--listen", "127.0.0.1:0", "--db", &db, "--config"])
            .arg(&settings)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let line = loop {
            let line = lines.next().expect("the server ended before listening").unwrap();
            if line.starts_with("html2rss listening on http://") {
                break line;
            }
        };
        std::thread::spawn(move || for _ in lines {});
        let address = line.split("http://").nth(1).unwrap().split_whitespace().next().unwrap().to_string();
        assert!(line.contains(&format!("(database {db})")), "{line}");
        (child, address)
    };
    let (mut first, first_address) = serve();
    let (mut second, second_address) = serve();
    let site = news_site();
    let page = site.url("/");
    let encoded: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let http = client();
    for address in [&first_address, &second_address] {
        let response = http.get(format!("http://{address}/rss?url={encoded}")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{address}");
        let mut found = titles(&response.bytes().await.unwrap());
        found.sort();
        assert_eq!(found, ["Story number 1", "Story number 2", "Story number 3"], "{address}");
        let health = http.get(format!("http://{address}/healthz")).send().await.unwrap();
        assert_eq!(health.status(), StatusCode::OK);
    }
    assert_eq!(site.requests().iter().filter(|r| r.path == "/").count(), 1, "the second server read the store");
    for child in [&mut first, &mut second] {
        let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
        assert!(status.success());
    }
    for child in [&mut first, &mut second] {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < Duration::from_secs(15), "a server did not stop on SIGTERM");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(status.success(), "{status}");
    }
}
