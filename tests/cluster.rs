//! Two real `html2rss serve` processes on one PostgreSQL database, refreshing 500 sources on 50
//! loopback hosts (`127.0.0.2` to `127.0.0.51`, each its own page server): every source is
//! refreshed; no source by two servers at once; no host ever gets two requests at once, nor two
//! closer than the per-host delay, whichever servers sent them (the page servers record each
//! request's span and who sent it). Then one server is killed (-9) in the middle of a refresh:
//! the other takes its sources over within the lease time, and no item a reader was served is
//! lost. And a new URL asked of both servers at once is fetched once.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use common::binary::{assert_none_lost, kill_mid_request, read_feed, serve};
use common::http::{Reply, Span, TestServer};
use html2rss::store::{NewRule, SourceSettings, Store};
use url::Url;

const HOSTS: usize = 50;
const SOURCES_PER_HOST: usize = 10;
const PER_HOST_DELAY: Duration = Duration::from_millis(50);
/// A page takes this long to answer: a refresh is in flight long enough to be killed in it.
const ANSWER_TIME: Duration = Duration::from_millis(10);
/// Sources are refreshed this often (at most 9 s apart): one server alone keeps up with 500.
const INTERVAL: Duration = Duration::from_secs(8);
/// How long a claimed source stays with its server: longer than an update interval, so that a
/// source whose due time is further away than that is one a server holds. A host lease lasts
/// the fetch timeout, the per-host delay and 5 s (`updater::hosts`), less.
const SOURCE_LEASE: Duration = Duration::from_secs(12);
const FETCH_TIMEOUT: &str = "2s";
/// A killed server's sources are taken over after their lease, plus a due time's rounding to
/// whole seconds, a claim, and the host's turn.
const TAKEOVER: Duration = Duration::from_secs(12 + 5);
/// The surviving server refreshes every source within this of the kill, alone.
const ALONE: Duration = Duration::from_secs(30);

const RULE: &str = r#"<page><name>cluster pages</name><url>http://127.0.0.*</url>
    <subject path="//UL"><item path="LI"><title>A</title></item></subject></page>"#;

/// The store on `db`, with the rule that reads the page servers' lists.
fn store_with_rule(db: &str) -> Store {
    let store = Store::open(db).unwrap();
    let rule =
        NewRule { name: "cluster pages".into(), url_patterns: vec!["http://127.0.0.*".into()], xml: RULE.into() };
    store.add_rule(&rule, Utc::now()).unwrap();
    store
}

/// A client for the servers under test.
fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build().unwrap()
}

/// Write the configuration of a server on `db` whose fetcher says it is `agent` (so that the
/// page servers know who asked).
fn config(dir: &Path, db: &str, agent: &str) -> PathBuf {
    let path = dir.join(format!("{agent}.toml"));
    let text = format!(
        r#"listen = "127.0.0.1:0"
        db = "{db}"
        admin_token = "cluster-test"
        items_per_feed = 100000
        first_fetches_per_minute = 0
        [fetch]
        allow_private = true
        timeout = "{FETCH_TIMEOUT}"
        user_agent = "{agent}"
        [updater]
        fresh_workers = 2
        workers = 8
        default_interval = "{interval}s"
        min_interval = "{interval}s"
        max_interval = "{}s"
        per_host_delay = "{}ms"
        idle_poll = "200ms"
        shutdown_grace = "2s"
        max_article_fetches = 0
        article_dates = 0
        train_templates = false
        source_lease = "{}s"
        "#,
        INTERVAL.as_secs() + 1,
        PER_HOST_DELAY.as_millis(),
        SOURCE_LEASE.as_secs(),
        interval = INTERVAL.as_secs(),
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// Each host's page server: every request of a page gives it a new item (and keeps the four
/// before); requests by `killed_agent` are counted, to kill it in the middle of one.
fn page_servers(killed_agent: &'static str, killed_requests: Arc<AtomicUsize>) -> Vec<TestServer> {
    (0..HOSTS)
        .map(|h| {
            let counts: Mutex<HashMap<String, usize>> = Mutex::default();
            let killed_requests = killed_requests.clone();
            TestServer::start_on([127, 0, 0, 2 + h as u8], move |request| {
                if request.header("user-agent") == Some(killed_agent) {
                    killed_requests.fetch_add(1, Ordering::SeqCst);
                }
                let n = {
                    let mut counts = counts.lock().unwrap();
                    let count = counts.entry(request.path.clone()).or_default();
                    *count += 1;
                    *count
                };
                std::thread::sleep(ANSWER_TIME);
                let items: String = (n.saturating_sub(4)..=n)
                    .map(|i| format!("<li><a href=\"{}/item/{i}\">Item {i}</a></li>", request.path))
                    .collect();
                Reply::html(format!("<html><body><ul>{items}</ul></body></html>"))
            })
        })
        .collect()
}

/// Whether each page has been asked for by `agent` (`None`: anyone) since `since`.
fn all_fetched(sites: &[TestServer], pages: &[String], agent: Option<&str>, since: Instant) -> bool {
    let mut fetched = BTreeSet::new();
    for site in sites {
        for request in site.requests() {
            if request.at >= since && agent.is_none_or(|a| request.header("user-agent") == Some(a)) {
                fetched.insert(site.url(&request.path));
            }
        }
    }
    pages.iter().all(|page| fetched.contains(page))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_politeness_and_a_killed_one_loses_its_sources_to_the_other() {
    let started = Instant::now();
    let killed_requests = Arc::new(AtomicUsize::new(0));
    let sites = page_servers("server-a", killed_requests.clone());
    let db = common::postgres::database();
    let store = store_with_rule(&db);
    let now = Utc::now();
    let pages: Vec<String> =
        sites.iter().flat_map(|site| (0..SOURCES_PER_HOST).map(move |s| site.url(&format!("/s{s}")))).collect();
    let settings = SourceSettings { rule: None, full_text: false, update_interval: INTERVAL };
    for page in &pages {
        store.add_source(&Url::parse(page).unwrap(), &settings, now).unwrap();
    }

    let dir = tempfile::tempdir().unwrap();
    let mut first = serve(&config(dir.path(), &db, "server-a"));
    let second = serve(&config(dir.path(), &db, "server-b"));

    // Every source refreshed, by one server or the other.
    while !all_fetched(&sites, &pages, None, started) {
        assert!(started.elapsed() < Duration::from_secs(40), "not every source was fetched in 40 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let refreshed = Instant::now();
    eprintln!("every source fetched after {:?}", refreshed - started);
    let stored = store.sources().unwrap();
    assert_eq!(stored.len(), HOSTS * SOURCES_PER_HOST);
    // Readers read every feed, half from each server.
    let http = client();
    let mut served = BTreeSet::new();
    for (n, page) in pages.iter().enumerate() {
        let address = if n % 2 == 0 { &first.address } else { &second.address };
        served.extend(read_feed(&http, address, page).await.expect("every feed is served"));
    }
    assert!(served.len() >= pages.len(), "only {} items served", served.len());

    // Kill the first server the moment it asks a host for a page: a refresh is in flight.
    kill_mid_request(&mut first, &killed_requests);
    let killed = Instant::now();
    // The sources a worker holds (claimed, not recorded yet) are due at the end of their lease,
    // beyond any update interval (and beyond a source handed back for its host's turn).
    let held: Vec<String> = store
        .sources()
        .unwrap()
        .into_iter()
        .filter(|s| s.next_due > Utc::now() + chrono::TimeDelta::seconds(10))
        .map(|s| s.url.to_string())
        .collect();
    eprintln!("killed after {:?}, {} sources leased", killed - started, held.len());
    assert!(!held.is_empty(), "the first server was killed in the middle of a refresh");

    // The second server refreshes the sources leased at the kill within the lease time, and
    // then every source.
    while !all_fetched(&sites, &held, Some("server-b"), killed) {
        assert!(killed.elapsed() < TAKEOVER, "the leased sources were not taken over within {TAKEOVER:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("the leased sources taken over {:?} after the kill", killed.elapsed());
    while !all_fetched(&sites, &pages, Some("server-b"), killed) {
        assert!(killed.elapsed() < ALONE, "the second server did not refresh every source within {ALONE:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!("every source refreshed {:?} after the kill", killed.elapsed());
    let mut after = BTreeSet::new();
    for page in &pages {
        after.extend(read_feed(&http, &second.address, page).await.expect("every feed is served after the kill"));
    }
    // The survivor says how its tries at host leases went.
    let metrics = http.get(format!("http://{}/metrics", second.address)).send().await.unwrap().text().await.unwrap();
    let taken = metrics
        .lines()
        .find_map(|line| line.strip_prefix("html2rss_host_leases_total{result=\"taken\"} "))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(taken.is_some_and(|n| n >= pages.len() as u64), "host leases taken: {taken:?}");
    assert_none_lost(&served, &after);
    drop(second);

    // What the hosts saw, from both servers and across the kill. A source is on one host, so
    // that no host got two requests at once means no source was fetched by two servers at once.
    let mut by_agent: HashMap<String, usize> = HashMap::new();
    for site in &sites {
        let mut spans: Vec<Span> = site.spans();
        spans.sort_by_key(|s| s.start);
        for span in &spans {
            *by_agent.entry(span.agent.clone()).or_default() += 1;
        }
        for pair in spans.windows(2) {
            let (earlier, later) = (&pair[0], &pair[1]);
            assert!(
                later.start >= earlier.end,
                "{}: {} by {} started before {} by {} ended",
                site.addr,
                later.path,
                later.agent,
                earlier.path,
                earlier.agent
            );
            // The delay is kept from the end of a request, as its server saw it; the page
            // server notes an end a little after the client had it.
            let gap = later.start - earlier.end;
            assert!(
                gap >= PER_HOST_DELAY * 4 / 5,
                "{}: {} by {} only {gap:?} after {} by {}",
                site.addr,
                later.path,
                later.agent,
                earlier.path,
                earlier.agent
            );
        }
    }
    eprintln!("requests by server: {by_agent:?}");
    for agent in ["server-a", "server-b"] {
        assert!(by_agent.get(agent).is_some_and(|&n| n >= pages.len() / 10), "{agent} did little: {by_agent:?}");
    }
    assert!(started.elapsed() < Duration::from_secs(60), "the test took {:?}", started.elapsed());
}

/// A URL asked for at once from two servers is fetched once: the server that added its source
/// fetches it, and the other waits for that fetch and serves what it stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_url_asked_of_two_servers_at_once_is_fetched_once() {
    let site = TestServer::start(|request| {
        // Slow enough that the second request comes while the first fetch runs.
        std::thread::sleep(Duration::from_millis(800));
        let items: String =
            (1..=3).map(|i| format!("<li><a href=\"{}/item/{i}\">Item {i}</a></li>", request.path)).collect();
        Reply::html(format!("<html><body><ul>{items}</ul></body></html>"))
    });
    let db = common::postgres::database();
    store_with_rule(&db);
    let dir = tempfile::tempdir().unwrap();
    let servers = [serve(&config(dir.path(), &db, "server-a")), serve(&config(dir.path(), &db, "server-b"))];
    let http = client();
    let page = site.url("/news");
    let (first, second) = tokio::join!(read_feed(&http, &servers[0].address, &page), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        read_feed(&http, &servers[1].address, &page).await
    });
    let expected: BTreeSet<String> = (1..=3).map(|i| site.url(&format!("/news/item/{i}"))).collect();
    assert_eq!(first.as_ref(), Some(&expected), "the first server's reader");
    assert_eq!(second.as_ref(), Some(&expected), "the second server's reader");
    let fetches: Vec<String> =
        site.requests().iter().map(|r| r.header("user-agent").unwrap_or_default().into()).collect();
    assert_eq!(fetches, ["server-a"], "one fetch, by the server that added the source");
}

/// The configuration of a server for the notification tests: it refreshes nothing of its own
/// accord (an hour between refreshes, and its idle workers look for due sources once an hour,
/// unless this server itself wakes them), and it trusts a feed's stamp for an hour, so that
/// within a test only a notification makes it read a feed's stamp again.
fn quiet_config(dir: &Path, db: &str, agent: &str) -> PathBuf {
    let path = dir.join(format!("{agent}-quiet.toml"));
    let text = format!(
        r#"listen = "127.0.0.1:0"
        db = "{db}"
        admin_token = "cluster-test"
        first_fetches_per_minute = 0
        stamp_ttl = "1h"
        [fetch]
        allow_private = true
        user_agent = "{agent}"
        [updater]
        default_interval = "1h"
        min_interval = "1h"
        max_interval = "1h"
        idle_poll = "1h"
        per_host_delay = "50ms"
        shutdown_grace = "2s"
        max_article_fetches = 0
        article_dates = 0
        train_templates = false
        "#
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// How long a change may take to show on the other server: far more than it takes (a
/// notification and a store read), far less than the hour a server trusts a stamp.
const TOLD_WITHIN: Duration = Duration::from_secs(20);

/// A feed one server refreshed is served changed by the other at once. The reader's server (B)
/// holds the feed's stamp and its text from a first read; its stamps are good for an hour and
/// it never fetches the page itself (its workers sleep for an hour, and the page server sees
/// no request of it), so the only way it can learn of the new item is the store's notification
/// that the feed changed. Without it, B serves the old feed for the hour.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_refreshed_by_one_server_is_served_changed_by_the_other_at_once() {
    let items = Arc::new(AtomicUsize::new(3));
    let page_items = items.clone();
    let site = TestServer::start(move |request| {
        let list: String = (1..=page_items.load(Ordering::SeqCst))
            .map(|i| format!("<li><a href=\"{}/item/{i}\">Item {i}</a></li>", request.path))
            .collect();
        Reply::html(format!("<html><body><ul>{list}</ul></body></html>"))
    });
    let db = common::postgres::database();
    store_with_rule(&db);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (serve(&quiet_config(dir.path(), &db, "server-a")), serve(&quiet_config(dir.path(), &db, "server-b")));
    let http = client();
    let page = site.url("/news");
    let links = |n: usize| -> BTreeSet<String> { (1..=n).map(|i| site.url(&format!("/news/item/{i}"))).collect() };

    // A fetches the new page; B serves it from the store, and keeps its stamp and text.
    assert_eq!(read_feed(&http, &a.address, &page).await, Some(links(3)));
    assert_eq!(read_feed(&http, &b.address, &page).await, Some(links(3)));
    assert_eq!(read_feed(&http, &b.address, &page).await, Some(links(3)), "B again, from what it keeps");

    // The page gets a fourth item, and A refreshes it now: a reader turning full text on makes
    // the source due and wakes A's workers (B's sleep on).
    items.store(4, Ordering::SeqCst);
    let full: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let turned_on = http.get(format!("http://{}/rss?url={full}&full=1", a.address)).send().await.unwrap();
    assert!(turned_on.status().is_success(), "{}", turned_on.status());
    let asked = Instant::now();
    loop {
        if read_feed(&http, &b.address, &page).await == Some(links(4)) {
            break;
        }
        assert!(asked.elapsed() < TOLD_WITHIN, "B still serves the old feed {TOLD_WITHIN:?} after A's refresh");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!("B served the new item {:?} after A was asked to refresh", asked.elapsed());
    let agents: Vec<String> =
        site.requests().iter().map(|r| r.header("user-agent").unwrap_or_default().into()).collect();
    assert!(agents.iter().all(|agent| agent == "server-a"), "B fetched nothing itself: {agents:?}");
}

const RULED_PAGE: &str = r#"<html><body><ul>
    <li><a href="/item/1">Link one</a> <span>Ruled one</span></li>
    <li><a href="/item/2">Link two</a> <span>Ruled two</span></li>
    <li><a href="/item/3">Link three</a> <span>Ruled three</span></li>
    </ul></body></html>"#;

async fn json(response: reqwest::Response) -> serde_json::Value {
    serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
}

/// The item titles of a feed (`None`: not served).
async fn read_titles(http: &reqwest::Client, address: &str, page: &str) -> Option<BTreeSet<String>> {
    let encoded: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let response = http.get(format!("http://{address}/rss?url={encoded}")).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    let feed = feed_rs::parser::parse(response.bytes().await.ok()?.as_ref()).ok()?;
    Some(feed.entries.into_iter().filter_map(|e| e.title.map(|t| t.content)).collect())
}

/// Ask `server` for new pages of `site` (each one a first fetch, extracted by that server's
/// engines) until one's titles are `wanted` or not, within [`TOLD_WITHIN`]; how long it took.
async fn until_new_pages(
    http: &reqwest::Client,
    server: &str,
    site: &TestServer,
    pages: &mut usize,
    ruled: bool,
) -> Duration {
    let wanted: BTreeSet<String> = ["Ruled one", "Ruled two", "Ruled three"].map(String::from).into();
    let started = Instant::now();
    loop {
        *pages += 1;
        let titles = read_titles(http, server, &site.url(&format!("/page{pages}"))).await;
        if (titles.as_ref() == Some(&wanted)) == ruled {
            return started.elapsed();
        }
        assert!(started.elapsed() < TOLD_WITHIN, "{server} did not take up the change in {TOLD_WITHIN:?}: {titles:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A rule uploaded to one server is listed by the other and applied by its engines at once;
/// deleted on the first, it is gone from the other. Each server holds the rules in memory and
/// loads them again only when told they changed: without the store's notification, B would
/// apply the rule only after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_uploaded_to_one_server_is_applied_by_the_other_and_deleted_from_it() {
    let site = TestServer::start(|_| Reply::html(RULED_PAGE));
    let db = common::postgres::database();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (serve(&quiet_config(dir.path(), &db, "server-a")), serve(&quiet_config(dir.path(), &db, "server-b")));
    let http = client();
    let admin = |request: reqwest::RequestBuilder| request.bearer_auth("cluster-test");
    let mut pages = 0;
    let wanted: BTreeSet<String> = ["Ruled one", "Ruled two", "Ruled three"].map(String::from).into();
    assert_ne!(read_titles(&http, &b.address, &site.url("/page0")).await, Some(wanted), "no rule yet");

    let rule = format!(
        r#"<page><name>ruled</name><url>{}/*</url>
        <subject path="//UL"><item path="LI"><title>SPAN</title><link>A</link></item></subject></page>"#,
        site.url("")
    );
    let uploaded = admin(http.post(format!("http://{}/rules", a.address))).body(rule).send().await.unwrap();
    assert_eq!(uploaded.status(), 201, "{:?}", uploaded.text().await);
    let id = json(uploaded).await["id"].as_i64().unwrap();
    let listed = json(admin(http.get(format!("http://{}/rules", b.address))).send().await.unwrap()).await;
    assert_eq!(listed[0]["id"].as_i64(), Some(id), "B lists the rule: {listed}");
    let took = until_new_pages(&http, &b.address, &site, &mut pages, true).await;
    eprintln!("B applied the rule uploaded to A after {took:?}");

    let deleted = admin(http.delete(format!("http://{}/rules/{id}", a.address))).send().await.unwrap();
    assert_eq!(deleted.status(), 204);
    let listed = json(admin(http.get(format!("http://{}/rules", b.address))).send().await.unwrap()).await;
    assert_eq!(listed, serde_json::json!([]), "B lists no rule");
    let took = until_new_pages(&http, &b.address, &site, &mut pages, false).await;
    eprintln!("B stopped applying the rule deleted on A after {took:?}");
}
