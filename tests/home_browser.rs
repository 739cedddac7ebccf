//! The home page (`GET /`) as people use it: in headless Chromium (Debian's `chromium` and
//! `chromium-driver`, which `.ci/run` installs) a page address is typed into the form and
//! previewed, the preview shows the items the feed will hold, and its subscribe links answer
//! with exactly those items; the options are set in the same form. Screenshots go to
//! `tests/artifacts/` (git ignores it) for people to look at.

mod common;

use std::path::PathBuf;

use common::browser::{browser, chromium, driver, png_size};
use common::http::{Reply, TestServer};
use common::server::{ADMIN_TOKEN, client, config, start};
use fantoccini::Locator;
use reqwest::StatusCode;
use reqwest::header::ETAG;

/// A dated list page that also advertises its own feed.
fn news_site() -> TestServer {
    TestServer::start(|request| match request.path.as_str() {
        "/gone" => Reply::status(503),
        "/empty" => Reply::html("<html><head><title>Nothing</title></head><body><p>Nothing here.</p></body></html>"),
        _ => Reply::html(
            r#"<html><head><title>Loopback news</title>
            <link rel="alternate" type="application/rss+xml" title="News" href="/feed.xml"></head>
            <body><h1>Loopback news</h1><ul class="news">
            <li><a href="/posts/rust-release">Rust release notes</a> <span>2024-05-20 10:00</span><p>What changed in the compiler.</p></li>
            <li><a href="/posts/sponsored">Sponsored: buy things</a> <span>2024-05-19 09:00</span><p>An advertisement.</p></li>
            <li><a href="/posts/linux-kernel">Linux kernel merge window</a> <span>2024-05-18 08:00</span><p>The new drivers.</p></li>
            <li><a href="/posts/sqlite">SQLite and its file format</a> <span>2024-05-17 07:00</span><p>Pages and cells.</p></li>
            </ul></body></html>"#,
        ),
    })
}

fn encoded(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// The DOM of a page after its scripts ran, in a fresh browser profile.
async fn dom_of(page: String) -> String {
    tokio::task::spawn_blocking(move || {
        let profile = tempfile::tempdir().unwrap();
        chromium(profile.path(), &["--virtual-time-budget=3000".into(), "--dump-dom".into(), page])
    })
    .await
    .unwrap()
}

/// The preview's item titles, in order.
fn preview_titles(dom: &str) -> Vec<String> {
    dom.split(r#"<li class="item">"#)
        .skip(1)
        .map(|item| {
            let title = item.split(r#"class="title""#).nth(1).unwrap();
            let text = title.split_once('>').unwrap().1.split('<').next().unwrap();
            unescape(text)
        })
        .collect()
}

/// The subscribe link of one format, as the page gives it.
fn subscribe_link(dom: &str, format: &str) -> String {
    let marker = format!(r#"data-format="{format}""#);
    let before = dom.split(&marker).next().unwrap();
    let href = before.rsplit(r#"href=""#).next().unwrap().split('"').next().unwrap();
    unescape(href)
}

/// Attribute and text values as written by askama (`&#38;`) or by Chromium (`&amp;`).
fn unescape(text: &str) -> String {
    text.replace("&amp;", "&").replace("&#38;", "&").replace("&#39;", "'").replace("&#34;", "\"")
}

/// The feed's item titles and its ETag.
async fn feed_titles(link: &str) -> (Vec<String>, String) {
    let response = client().get(link).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{link}");
    let etag = response.headers()[ETAG].to_str().unwrap().to_string();
    let body = response.bytes().await.unwrap();
    let feed = feed_rs::parser::parse(&body[..]).unwrap();
    (feed.entries.into_iter().map(|e| e.title.unwrap().content).collect(), etag)
}

async fn screenshot(page: String, name: &str) {
    let artifacts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join(name);
    let _ = std::fs::remove_file(&shot);
    let shot_arg = format!("--screenshot={}", shot.display());
    tokio::task::spawn_blocking(move || {
        let profile = tempfile::tempdir().unwrap();
        chromium(profile.path(), &["--virtual-time-budget=3000".into(), shot_arg, page])
    })
    .await
    .unwrap();
    assert_eq!(png_size(&shot), (390, 844));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_address_previews_the_feed_and_its_subscribe_links_serve_those_items() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = news_site();
    let page = site.url("/news");

    // The empty home page: the form, nothing else.
    let dom = dom_of(server.url("/")).await;
    assert!(dom.contains(r#"<form method="get" action="/" id="preview-form">"#), "{dom}");
    assert!(!dom.contains("feed-preview"));

    // Pasted and previewed, typed into the form in the browser: the page is fetched now (the
    // first fetch of `/rss`).
    let driver = driver();
    let chrome = browser(&driver).await;
    chrome.goto(&server.url("/")).await.unwrap();
    chrome.find(Locator::Id("url")).await.unwrap().send_keys(&page).await.unwrap();
    chrome.find(Locator::Css("#preview-form button[type=submit]")).await.unwrap().click().await.unwrap();
    chrome.wait().for_element(Locator::Id("feed-preview")).await.unwrap();
    let dom = chrome.source().await.unwrap();
    let titles = preview_titles(&dom);
    assert_eq!(
        titles,
        ["Rust release notes", "Sponsored: buy things", "Linux kernel merge window", "SQLite and its file format"],
        "{dom}"
    );
    assert!(dom.contains(r#"<time datetime="2024-05-20T10:00:00"#), "the items' dates: {dom}");
    assert!(dom.contains("Items found by the dates on the page (time patterns)"), "{dom}");
    assert!(dom.contains(&format!(r#"This site already has a feed: <a href="{}""#, site.url("/feed.xml"))), "{dom}");
    assert!(dom.contains("<p class=\"description\">What changed in the compiler"), "descriptions are shown: {dom}");
    // The script ran: the copy buttons are shown.
    assert_eq!(dom.matches(r#"<button type="button" class="copy">Copy</button>"#).count(), 3, "{dom}");

    // Each subscribe link answers with the items the preview showed.
    let rss = subscribe_link(&dom, "RSS");
    assert!(rss.starts_with(&server.url("/rss?url=")), "{rss}");
    let (feed, plain_etag) = feed_titles(&rss).await;
    assert_eq!(feed, titles);
    for format in ["Atom", "JSON Feed"] {
        assert_eq!(feed_titles(&subscribe_link(&dom, format)).await.0, titles, "{format}");
    }

    // Options: the preview, the links and the feed agree, and the feed is another one (ETag).
    // The options, set in the same form (the address is still in it).
    chrome.find(Locator::Css("#preview-form summary")).await.unwrap().click().await.unwrap();
    chrome.find(Locator::Id("exclude")).await.unwrap().send_keys("^Sponsored").await.unwrap();
    chrome.find(Locator::Id("limit")).await.unwrap().send_keys("2").await.unwrap();
    chrome.find(Locator::Css("#preview-form button[type=submit]")).await.unwrap().click().await.unwrap();
    chrome.wait().for_element(Locator::XPath("//p[contains(., 'The options keep')]")).await.unwrap();
    let dom = chrome.source().await.unwrap();
    chrome.close().await.unwrap();
    let kept = preview_titles(&dom);
    assert_eq!(kept, ["Rust release notes", "Linux kernel merge window"], "{dom}");
    assert!(dom.contains("The options keep 2 of 4 items."), "{dom}");
    let rss = subscribe_link(&dom, "RSS");
    assert!(rss.contains("exclude=%5ESponsored") && rss.contains("limit=2") && !rss.contains("include"), "{rss}");
    let (feed, etag) = feed_titles(&rss).await;
    assert_eq!(feed, kept);
    assert_ne!(etag, plain_etag);

    screenshot(server.url(&format!("/?url={}", encoded(&page))), "home-phone.png").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_page_says_why_there_is_no_feed_and_leaves_new_feeds_to_the_admin_when_tokens_are_needed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = news_site();
    let http = client();
    let home = |page: &str| server.url(&format!("/?url={}", encoded(page)));
    for (page, status, heading, reason) in [
        (site.url("/gone"), StatusCode::BAD_GATEWAY, "The site did not give the page", "503"),
        (site.url("/empty"), StatusCode::UNPROCESSABLE_ENTITY, "No items found on that page", "no items"),
        ("ftp://example.org/".into(), StatusCode::BAD_REQUEST, "That address cannot be used", "only http and https"),
    ] {
        let response = http.get(home(&page)).send().await.unwrap();
        assert_eq!(response.status(), status, "{page}");
        let csp = response.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "{csp}");
        let body = response.text().await.unwrap();
        assert!(body.contains(heading), "{page}: {body}");
        assert!(body.contains(reason), "{page}: {body}");
        assert!(body.contains(&format!(r#"value="{page}""#)), "the form keeps the address: {body}");
    }
    // An address without a scheme is an https page (refused here: nothing listens on 443).
    let body = http.get(server.url("/?url=127.0.0.1%3A9%2Fnews")).send().await.unwrap().text().await.unwrap();
    assert!(body.contains("https://127.0.0.1:9/news"), "{body}");
    server.stop().await;

    // Feeds need tokens: a visitor is sent to the admin; the admin previews and gets links
    // that carry the feed's token.
    let dir = tempfile::tempdir().unwrap();
    let mut tokens_needed = config(&dir.path().join("feeds.db"));
    tokens_needed.require_feed_tokens = true;
    let server = start(&tokens_needed, false);
    let page = site.url("/news");
    let body = http.get(server.url(&format!("/?url={}", encoded(&page)))).send().await.unwrap().text().await.unwrap();
    assert!(body.contains("makes new feeds for its admin only"), "{body}");
    assert!(!body.contains("feed-preview"));
    assert!(server.ctx.store.sources().unwrap().is_empty(), "a visitor made no source");
    let admin = http
        .get(server.url(&format!("/?url={}", encoded(&page))))
        .header("cookie", format!("html2rss_admin={ADMIN_TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(admin.status(), StatusCode::OK);
    let body = admin.text().await.unwrap();
    let rss = subscribe_link(&body, "RSS");
    assert!(rss.contains("&token="), "{rss}");
    assert_eq!(feed_titles(&rss).await.0.len(), 4);
    server.stop().await;
}
