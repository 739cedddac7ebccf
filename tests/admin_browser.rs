//! The admin page in a real browser: headless Chromium (Debian's `chromium`, which `.ci/run`
//! installs) signs in with the token, runs the page's script, and we read what a person sees:
//! the DOM after the script ran, and a phone-sized screenshot (kept in `tests/artifacts/`,
//! which git ignores).

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::browser::{chromium, png_size};
use common::http::{Reply, TestServer};
use common::server::{ADMIN_TOKEN, client, config, start};
use reqwest::StatusCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_page_in_headless_chromium_shows_sources_health_and_rules_and_runs_no_page_script() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&config(&dir.path().join("feeds.db")), false);
    // A page whose title tries to inject markup into the admin page.
    let site = TestServer::start(|request| match request.path.as_str() {
        "/gone" => Reply::status(503),
        _ => Reply::html(
            r#"<html><head><title>Evil &lt;img src=x onerror="document.body.dataset.pwned=1"&gt; news</title></head>
            <body><ul class="news">
            <li><a href="/posts/first-post">First post of the day</a> <span class=date>2024-05-20 10:00</span></li>
            <li><a href="/posts/second-post">Second post of the day</a> <span class=date>2024-05-19 10:00</span></li>
            <li><a href="/posts/third-post">Third post of the day</a> <span class=date>2024-05-18 10:00</span></li></ul></body></html>"#,
        ),
    });
    let http = client();
    let ok = http.get(server.rss(&site.url("/news"), "")).send().await.unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    let rule = r#"<page><name>Loopback &lt;b&gt;rule&lt;/b&gt;</name><url>http://127.0.0.1:*/news</url>
        <subject path="//UL"><item path="LI"><title>A</title></item></subject></page>"#;
    let uploaded = http.post(server.url("/rules")).bearer_auth(ADMIN_TOKEN).body(rule).send().await.unwrap();
    assert_eq!(uploaded.status(), StatusCode::CREATED);
    // A source whose server fails: shown as a problem, with its error.
    let store = &server.ctx.store;
    let (gone, _) = store
        .add_source(
            &url::Url::parse(&site.url("/gone")).unwrap(),
            &html2rss::store::SourceSettings {
                rule: None,
                full_text: false,
                update_interval: Duration::from_secs(3600),
            },
            chrono::Utc::now(),
        )
        .unwrap();
    let _ = html2rss::updater::refresh_source(&server.ctx, gone.id, chrono::Utc::now()).await;

    let profile = tempfile::tempdir().unwrap();
    let admin = server.url(&format!("/admin?token={ADMIN_TOKEN}"));
    let dom = tokio::task::spawn_blocking({
        let profile = profile.path().to_path_buf();
        let admin = admin.clone();
        move || chromium(&profile, &["--virtual-time-budget=3000".into(), "--dump-dom".into(), admin])
    })
    .await
    .unwrap();

    // Signed in by the token (a cookie now), on the admin page itself.
    assert!(dom.contains("<title>html2rss admin</title>"), "{dom}");
    assert!(!dom.contains("Admin token</label>"), "still on the sign-in form");
    assert!(dom.contains(r#"id="count-sources">2<"#), "two sources in the summary");
    // The hostile title is text; its markup never became an element, its handler never ran.
    assert!(dom.contains("Evil &lt;img src=x onerror=\"document.body.dataset.pwned=1\"&gt; news"), "{dom}");
    assert!(!dom.contains("data-pwned"), "the page title's script ran");
    assert!(dom.contains("Loopback &lt;b&gt;rule&lt;/b&gt;"), "the rule name is escaped too");
    // Health, engines and errors as a person reads them.
    assert!(dom.contains(r#"<span class="badge failing">failing</span>"#), "{dom}");
    assert!(dom.contains(r#"<span class="badge ok">ok</span>"#));
    assert!(dom.contains("answered HTTP 503"));
    assert!(dom.contains(">time-pattern"), "the engine of the first fetch");
    assert!(dom.contains("latest: First post of the day · Second post of the day · Third post of the day"), "{dom}");
    // The script ran: times read relative to now ("5 seconds ago", "in 1 hour").
    let times: Vec<&str> = dom.split("<time ").skip(1).map(|t| t.split("</time>").next().unwrap()).collect();
    assert!(!times.is_empty());
    for time in &times {
        let text = time.rsplit('>').next().unwrap();
        assert!(!text.contains("UTC"), "a time the script did not rewrite: {time}");
    }
    assert!(!dom.contains(ADMIN_TOKEN), "the token is not shown on the page");

    // A phone-sized screenshot for people to look at.
    let artifacts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("admin-phone.png");
    let _ = std::fs::remove_file(&shot);
    let profile = tempfile::tempdir().unwrap();
    let shot_arg = format!("--screenshot={}", shot.display());
    tokio::task::spawn_blocking({
        let profile = profile.path().to_path_buf();
        move || chromium(&profile, &["--virtual-time-budget=3000".into(), shot_arg, admin])
    })
    .await
    .unwrap();
    assert_eq!(png_size(&shot), (390, 844));
    server.stop().await;
}
