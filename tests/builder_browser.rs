//! The rule builder driven in a real headless Chromium through WebDriver (Debian's `chromium`
//! and `chromium-driver`, which `.ci/run` installs): the admin opens a loopback page in the
//! builder, clicks two items' titles (every item of the list is highlighted), clicks one
//! item's date (the preview items get dates), saves, and `/rss` serves the rule's items while
//! `/admin` lists the rule. A screenshot goes to `tests/artifacts/builder.png`.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::browser::{browser, driver};
use common::http::{Reply, TestServer};
use common::server::{ADMIN_TOKEN, client, config, start};
use fantoccini::{Client, Locator};
use reqwest::StatusCode;
use serde_json::json;

/// A blog list with a sidebar, a script and a handler that must not run in the builder.
fn blog() -> TestServer {
    TestServer::start(|_| {
        let posts: String = (1..=5)
            .map(|i| {
                format!(
                    r#"<div class="post"><h2><a href="/p/{i}">Post number {i} of the blog</a></h2>
                    <span class="date">2024-05-{:02}</span><p>What post {i} says.</p></div>"#,
                    20 - i
                )
            })
            .collect();
        Reply::html(format!(
            r#"<html><head><title>Blog</title><script>document.title = "script ran";</script></head>
            <body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main>{posts}</main>
            <img src="/none.png" onerror="document.title = 'handler ran'"></body></html>"#
        ))
    })
}

/// Wait until the script `check` (JavaScript returning a boolean) holds in the current frame.
async fn until(client: &Client, check: &str) {
    let start = Instant::now();
    loop {
        if client.execute(check, vec![]).await.unwrap().as_bool() == Some(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "never true: {check}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn count(client: &Client, script: &str) -> u64 {
    client.execute(script, vec![]).await.unwrap().as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clicked_titles_and_a_date_become_a_saved_rule_that_serves_the_feed() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = blog();
    let page = site.url("/blog");
    let driver = driver();
    let chrome = browser(&driver).await;

    chrome.goto(&server.url(&format!("/admin?token={ADMIN_TOKEN}"))).await.unwrap();
    let encoded: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    chrome.goto(&server.url(&format!("/builder?url={encoded}"))).await.unwrap();
    until(&chrome, "return document.getElementById('builder').dataset.ready === '1'").await;

    // The page is inert: its script and its handler did not run, and none is left in it.
    chrome.enter_frame(0).await.unwrap();
    until(&chrome, "return document.readyState === 'complete'").await;
    assert_eq!(chrome.execute("return document.title", vec![]).await.unwrap(), "Blog");
    assert_eq!(count(&chrome, "return document.querySelectorAll('script, [onerror]').length").await, 0);

    // Two titles: every post is highlighted, and nothing else.
    let titles = chrome.find_all(Locator::Css(".post h2 a")).await.unwrap();
    titles[0].click().await.unwrap();
    titles[1].click().await.unwrap();
    chrome.enter_parent_frame().await.unwrap();
    until(&chrome, "return document.getElementById('status').dataset.count === '5'").await;
    chrome.enter_frame(0).await.unwrap();
    assert_eq!(count(&chrome, "return document.querySelectorAll('[data-h2r-hit]').length").await, 5);
    assert_eq!(count(&chrome, "return document.querySelectorAll('.post[data-h2r-hit]').length").await, 5);
    assert_eq!(chrome.execute("return document.title", vec![]).await.unwrap(), "Blog", "no navigation");

    // A date: the items get dates and the warning about them goes.
    chrome.enter_parent_frame().await.unwrap();
    assert!(chrome.find(Locator::Id("warnings")).await.unwrap().text().await.unwrap().contains("no date"));
    chrome.find(Locator::Css("input[value=date]")).await.unwrap().click().await.unwrap();
    chrome.enter_frame(0).await.unwrap();
    chrome.find(Locator::Css(".post .date")).await.unwrap().click().await.unwrap();
    chrome.enter_parent_frame().await.unwrap();
    until(&chrome, "return document.getElementById('items').textContent.includes('2024-05-19')").await;
    assert!(!chrome.find(Locator::Id("warnings")).await.unwrap().text().await.unwrap().contains("no date"));
    let xml = chrome.find(Locator::Id("rule-xml")).await.unwrap().prop("value").await.unwrap().unwrap();
    assert!(xml.contains("<date>"), "{xml}");

    // Save: the rule is stored and serves the page's feed.
    chrome.find(Locator::Id("save")).await.unwrap().click().await.unwrap();
    until(&chrome, "return !!document.getElementById('saved').dataset.id").await;
    let shot = chrome.screenshot().await.unwrap();
    let artifacts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::write(artifacts.join("builder.png"), shot).unwrap();

    // The saved rule opens in the builder with its marks, and saving again replaces it.
    let first_id = chrome.execute("return document.getElementById('saved').dataset.id", vec![]).await.unwrap();
    let first_id = first_id.as_str().unwrap().to_string();
    chrome.goto(&server.url(&format!("/builder?rule={first_id}"))).await.unwrap();
    until(&chrome, "return document.getElementById('status').dataset.count === '5'").await;
    chrome.enter_frame(0).await.unwrap();
    assert_eq!(count(&chrome, "return document.querySelectorAll('.post[data-h2r-hit]').length").await, 5);
    chrome.enter_parent_frame().await.unwrap();
    let xml = chrome.find(Locator::Id("rule-xml")).await.unwrap().prop("value").await.unwrap().unwrap();
    assert!(xml.contains("<date>"), "the edited rule keeps its date: {xml}");
    let name = chrome.find(Locator::Id("rule-name")).await.unwrap();
    name.clear().await.unwrap();
    name.send_keys("Blog posts").await.unwrap();
    until(&chrome, "return document.getElementById('rule-xml').value.includes('Blog posts')").await;
    chrome.find(Locator::Id("save")).await.unwrap().click().await.unwrap();
    until(
        &chrome,
        &format!("return document.getElementById('saved').textContent.includes('Rule {first_id} is deleted')"),
    )
    .await;
    let rules = server.ctx.store.rules().unwrap();
    assert_eq!(rules.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["Blog posts"]);
    chrome.close().await.unwrap();

    let http = client();
    let response = http.get(server.rss(&page, "")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let feed = feed_rs::parser::parse(&response.bytes().await.unwrap()[..]).unwrap();
    let titles: Vec<String> = feed.entries.iter().map(|e| e.title.clone().unwrap().content).collect();
    assert_eq!(titles, (1..=5).map(|i| format!("Post number {i} of the blog")).collect::<Vec<_>>());
    assert!(feed.entries.iter().all(|e| e.published.is_some() || e.updated.is_some()), "dated items");
    let source = server.ctx.store.sources().unwrap().pop().unwrap();
    assert_eq!(source.engine, Some(html2rss::engines::Engine::Rule));
    let admin = http.get(server.url("/admin")).bearer_auth(ADMIN_TOKEN).send().await.unwrap();
    let admin = admin.text().await.unwrap();
    assert!(admin.contains("Blog posts") && admin.contains("/builder?rule="), "the admin page lists the rule to edit");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_builder_is_for_the_admin_and_its_rule_requests_need_the_csrf_token() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    let site = blog();
    let encoded: String = url::form_urlencoded::byte_serialize(site.url("/blog").as_bytes()).collect();
    let http = client();
    for path in [format!("/builder?url={encoded}"), format!("/builder/frame?url={encoded}")] {
        let response = http.get(server.url(&path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{path}");
    }
    // The frame: framed by us only, sandboxed even when opened on its own.
    let frame = http.get(server.url(&format!("/builder/frame?url={encoded}"))).bearer_auth(ADMIN_TOKEN).send().await;
    let frame = frame.unwrap();
    let policy = frame.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(policy.starts_with("sandbox") && policy.contains("frame-ancestors 'self'"), "{policy}");
    let body = frame.text().await.unwrap();
    assert!(!body.contains("<script") && !body.contains("onerror"), "{body}");
    assert!(body.contains(&format!(r#"<base href="{}""#, site.url("/blog"))), "{body}");

    let marks = json!({"url": site.url("/blog"), "marks": ["title=/HTML[0]/BODY[0]/MAIN[0]/DIV[0]/H2[0]/A[0]"]});
    let cookie = format!("html2rss_admin={ADMIN_TOKEN}");
    let forged = http
        .post(server.url("/builder/rule"))
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .body(marks.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN, "a cookie without the CSRF token");
    // With the token: one title is not enough, and the answer says what to do.
    let answer = http
        .post(server.url("/builder/rule"))
        .bearer_auth(ADMIN_TOKEN)
        .header("content-type", "application/json")
        .body(marks.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(answer.text().await.unwrap().contains("two different items"));
    server.stop().await;
}
