//! The store on real SQLite files in temporary directories and on a real PostgreSQL server
//! that the tests start (`common::postgres`): the same tests on both, and each backend's own
//! (files, schema versions, the command line).

mod common;

use std::collections::HashMap;
use std::io::BufRead;
use std::time::Duration;

use chrono::{DateTime, FixedOffset, TimeZone, Utc};
use html2rss::engines::{Engine, Extraction};
use html2rss::feed::{self, FeedMeta, Format};
use html2rss::fetch::Validators;
use html2rss::fetch::polite::HostWait;
use html2rss::model::{Item, Page, Subject};
use html2rss::store::{
    ArticleFields, ArticleUpdate, DateOrigin, DueFilter, FetchRecord, Health, HostHealth, NewRule, SCHEMA_VERSION,
    SourceSettings, Store, StoreError, StoreEvent, StoredRender, Template,
};
use url::Url;

fn at(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_700_000_000 + seconds, 0).unwrap()
}

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fn settings() -> SourceSettings {
    SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(3600) }
}

fn item(title: &str, link: Option<&str>, date: Option<&str>) -> Item {
    let mut item = Item::new(title);
    item.link = link.map(url);
    item.date = date.map(|d| DateTime::parse_from_rfc3339(d).unwrap());
    item
}

fn extraction(subjects: Vec<(Option<&str>, Vec<Item>)>) -> Extraction {
    let mut page = Page::new(url("https://news.example/"), "Example News", "UTF-8");
    page.subjects =
        subjects.into_iter().map(|(title, items)| Subject { title: title.map(str::to_string), items }).collect();
    Extraction { page, engine: Engine::TimePattern, confidence: 0.75 }
}

/// Where a test's database is: a SQLite file in a temporary directory, or a new database on
/// the test binary's PostgreSQL server.
enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Db {
    fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    fn postgres() -> Db {
        Db::Postgres(common::postgres::database())
    }

    fn location(&self) -> std::path::PathBuf {
        match self {
            Db::Sqlite(dir) => dir.path().join("html2rss.db"),
            Db::Postgres(address) => address.into(),
        }
    }

    fn open(&self) -> Store {
        Store::open(self.location()).unwrap()
    }
}

/// The tests that hold for both backends, run on each.
macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $test() { super::$test(&super::Db::sqlite()) })*
        }
        mod postgres {
            $(#[test] fn $test() { super::$test(&super::Db::postgres()) })*
        }
    };
}

on_both_backends!(
    merging_keeps_first_seen_undated_dates_and_items_that_left_the_page,
    the_feed_is_the_newest_n_items_in_date_then_page_order,
    due_sources_come_fresh_first_then_most_overdue,
    fetch_records_count_failures_and_keep_validators_and_items,
    rules_templates_and_settings_round_trip,
    concurrent_writers_and_readers_do_not_fail_busy,
    leases_resets_reschedules_and_feed_versions,
    article_content_is_stored_once_failures_are_counted_and_a_merge_keeps_the_content,
    renders_are_kept_for_their_feed_version_and_go_with_their_source,
    claims_from_two_stores_never_overlap,
);

#[test]
fn a_new_file_is_migrated_in_wal_mode_and_reopens_with_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("feeds.db");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let (source, created) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    assert!(created);
    drop(store);

    let raw = rusqlite::Connection::open(&path).unwrap();
    let mode: String = raw.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    drop(raw);

    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let again = store.source_by_url(&url("https://news.example/")).unwrap().unwrap();
    assert_eq!(again, source);
    let (same, created) = store.add_source(&url("https://news.example/"), &settings(), at(5)).unwrap();
    assert!(!created);
    assert_eq!(same.id, source.id);
}

#[test]
fn a_newer_schema_is_refused_and_a_failed_migration_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let newer = dir.path().join("newer.db");
    rusqlite::Connection::open(&newer).unwrap().pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    let error = Store::open(&newer).unwrap_err();
    assert!(matches!(error, StoreError::TooNew { found, .. } if found == SCHEMA_VERSION + 1), "{error}");

    // A file where migration 1 cannot run (a table of the same name is in the way): the
    // migration fails as a whole, the version stays 0 and no table of it is left behind.
    let blocked = dir.path().join("blocked.db");
    let raw = rusqlite::Connection::open(&blocked).unwrap();
    raw.execute_batch("CREATE TABLE items (x); INSERT INTO items VALUES (42);").unwrap();
    drop(raw);
    let error = Store::open(&blocked).unwrap_err();
    assert!(matches!(error, StoreError::Migration { version: 1, .. }), "{error}");
    let raw = rusqlite::Connection::open(&blocked).unwrap();
    let version: u32 = raw.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    let tables: Vec<String> = raw
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let kept: i64 = raw.query_row("SELECT x FROM items", [], |r| r.get(0)).unwrap();
    assert_eq!((version, tables, kept), (0, vec!["items".to_string()], 42));
}

fn merging_keeps_first_seen_undated_dates_and_items_that_left_the_page(db: &Db) {
    let store = db.open();
    let (source, _) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    let mut old = item("Old story", Some("https://news.example/old"), Some("2023-01-02T10:00:00+08:00"));
    old.description = Some("<p>first words</p>".into());
    let first = extraction(vec![(
        Some("World"),
        vec![
            old.clone(),
            item("Undated story", Some("https://news.example/undated"), None),
            item("No link at all", None, None),
            item("Old story again", Some("https://news.example/old"), None),
        ],
    )]);
    // A merge for no source fails and is rolled back; the store works on after it (PostgreSQL:
    // its connection goes back to the pool out of the failed transaction).
    for _ in 0..3 {
        let missing = store.merge(html2rss::store::SourceId(4242), &first, at(50)).unwrap_err();
        assert!(matches!(missing, StoreError::NoSuchSource(4242)), "{missing}");
    }
    let report = store.merge(source.id, &first, at(100)).unwrap();
    assert_eq!((report.new, report.changed, report.unchanged, report.duplicates), (3, 0, 0, 1));

    // The second look: a new undated item on top, the old story retitled and without its
    // description, the undated story as before, the link-less item gone from the page.
    let mut retitled = item("Old story, updated", Some("https://news.example/old"), None);
    retitled.author = Some("A. Writer".into());
    let second = extraction(vec![(
        Some("World"),
        vec![
            item("Breaking", Some("https://news.example/new"), None),
            retitled,
            item("Undated story", Some("https://news.example/undated"), None),
        ],
    )]);
    let report = store.merge(source.id, &second, at(200)).unwrap();
    assert_eq!((report.new, report.changed, report.unchanged), (1, 1, 1));

    let items: HashMap<String, _> =
        store.items(source.id, 100).unwrap().into_iter().map(|s| (s.item.title.clone(), s)).collect();
    assert_eq!(items.len(), 4, "nothing is deleted: {:?}", items.keys());
    let undated = &items["Undated story"];
    assert_eq!((undated.first_seen, undated.last_seen), (at(100), at(200)));
    assert_eq!(undated.item.date, Some(at(100).fixed_offset()), "an undated item keeps its first-seen date");
    assert_eq!(undated.guid, "https://news.example/undated");
    let gone = &items["No link at all"];
    assert_eq!((gone.first_seen, gone.last_seen), (at(100), at(100)));
    assert_eq!(gone.guid, feed::guid(&item("No link at all", None, None)));
    let updated = &items["Old story, updated"];
    assert_eq!(updated.first_seen, at(100));
    assert_eq!(updated.item.date, old.date, "a page that drops a date does not erase it");
    assert_eq!(updated.item.description, old.description, "a page that drops a field does not erase it");
    assert_eq!(updated.item.author.as_deref(), Some("A. Writer"));
    assert_eq!(items["Breaking"].item.date, Some(at(200).fixed_offset()));

    let source = store.source(source.id).unwrap().unwrap();
    assert_eq!((source.item_count, source.last_change), (4, Some(at(200))));
    assert_eq!((source.engine, source.title.as_deref()), (Some(Engine::TimePattern), Some("Example News")));

    // The same page again changes nothing but last-seen; last_change stays.
    let report = store.merge(source.id, &second, at(300)).unwrap();
    assert_eq!((report.new, report.changed, report.unchanged), (0, 0, 3));
    let source = store.source(source.id).unwrap().unwrap();
    assert_eq!(source.last_change, Some(at(200)));
    let undated = store.items(source.id, 100).unwrap().into_iter().find(|s| s.item.title == "Undated story").unwrap();
    assert_eq!((undated.item.date, undated.last_seen), (Some(at(100).fixed_offset()), at(300)));
    assert_eq!(undated.date_origin, DateOrigin::FirstSeen);
    assert_eq!(items["Old story, updated"].date_origin, DateOrigin::Page);

    // A date the page gives later replaces the first-seen one, and says it came from the page.
    let dated = extraction(vec![(
        Some("World"),
        vec![item("Undated story", Some("https://news.example/undated"), Some("2023-03-04T05:06:07Z"))],
    )]);
    assert_eq!(store.merge(source.id, &dated, at(400)).unwrap().changed, 1);
    let undated = store.items(source.id, 100).unwrap().into_iter().find(|s| s.item.title == "Undated story").unwrap();
    assert_eq!(
        (undated.date_origin, undated.item.date),
        (DateOrigin::Page, DateTime::parse_from_rfc3339("2023-03-04T05:06:07Z").ok())
    );
}

fn the_feed_is_the_newest_n_items_in_date_then_page_order(db: &Db) {
    let store = db.open();
    let (source, _) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    let day = |d: u32| format!("2024-03-{d:02}T08:00:00+01:00");
    let sports: Vec<Item> = (1..=15)
        .map(|d| item(&format!("Sports {d}"), Some(&format!("https://news.example/s/{d}")), Some(&day(d))))
        .collect();
    // Two stories on the same day keep their page order.
    let politics = vec![
        item("Politics A", Some("https://news.example/p/a"), Some(&day(20))),
        item("Politics B", Some("https://news.example/p/b"), Some(&day(20))),
    ];
    store.merge(source.id, &extraction(vec![(Some("Sports"), sports), (Some("Politics"), politics)]), at(0)).unwrap();

    let feed = store.feed(source.id, 5).unwrap().unwrap();
    let titles: Vec<&str> = feed.page.items().map(|i| i.title.as_str()).collect();
    assert_eq!(titles, ["Politics A", "Politics B", "Sports 15", "Sports 14", "Sports 13"]);
    let subjects: Vec<(Option<&str>, usize)> =
        feed.page.subjects.iter().map(|s| (s.title.as_deref(), s.items.len())).collect();
    assert_eq!(subjects, [(Some("Politics"), 2), (Some("Sports"), 3)]);
    assert_eq!((feed.page.link.as_str(), feed.page.title.as_str()), ("https://news.example/", "Example News"));
    let date = DateTime::parse_from_rfc3339(&day(20)).unwrap();
    assert_eq!(feed.page.items().next().unwrap().date, Some(date));
    assert_eq!(date.offset(), &FixedOffset::east_opt(3600).unwrap(), "the page's offset is kept");

    let xml = feed::write(&feed.page, Format::Rss, &FeedMeta::new(at(0).fixed_offset()));
    let channel = rss::Channel::read_from(xml.as_bytes()).unwrap();
    assert_eq!(channel.items().len(), 5);
    assert_eq!(channel.items()[2].link(), Some("https://news.example/s/15"));
    assert!(store.feed(html2rss::store::SourceId(9999), 5).unwrap().is_none());
}

fn due_sources_come_fresh_first_then_most_overdue(db: &Db) {
    let store = db.open();
    let add = |u: &str, now| store.add_source(&url(u), &settings(), now).unwrap().0;
    let overdue = add("https://a.example/", at(0));
    let later = add("https://b.example/", at(10));
    let fresh = add("https://c.example/", at(50));
    let record = |next_due| FetchRecord {
        at: at(20),
        duration: Duration::from_millis(120),
        http_status: Some(200),
        error: None,
        validators: Some(Validators { etag: Some("\"e1\"".into()), last_modified: None }),
        body_hash: None,
        page_feed: None,
        next_due,
        update_interval: None,
        health: Health::Ok,
    };
    store.record_fetch(overdue.id, &record(at(30))).unwrap();
    store.record_fetch(later.id, &record(at(1000))).unwrap();

    let ids = |sources: Vec<html2rss::store::Source>| sources.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(ids(store.due_sources(at(100), DueFilter::All, 10).unwrap()), [fresh.id, overdue.id]);
    assert_eq!(ids(store.due_sources(at(100), DueFilter::Fresh, 10).unwrap()), [fresh.id]);
    assert_eq!(ids(store.due_sources(at(100), DueFilter::Normal, 10).unwrap()), [overdue.id]);
    assert_eq!(ids(store.due_sources(at(100), DueFilter::All, 1).unwrap()), [fresh.id]);
    assert_eq!(ids(store.due_sources(at(2000), DueFilter::Normal, 10).unwrap()), [overdue.id, later.id]);
    assert_eq!(store.stats(at(100)).unwrap().due, 2);

    // A claim hides the sources until the lease runs out or their fetch is recorded.
    let claimed = store.claim_due(at(100), DueFilter::All, 10, Duration::from_secs(300)).unwrap();
    assert_eq!(ids(claimed), [fresh.id, overdue.id]);
    assert!(store.claim_due(at(101), DueFilter::All, 10, Duration::from_secs(300)).unwrap().is_empty());
    assert_eq!(ids(store.due_sources(at(400), DueFilter::All, 10).unwrap()), [fresh.id, overdue.id]);
    let recorded = store.record_fetch(fresh.id, &record(at(5000))).unwrap();
    assert!(!recorded.fresh);
    assert_eq!(ids(store.due_sources(at(400), DueFilter::All, 10).unwrap()), [overdue.id]);
}

fn fetch_records_count_failures_and_keep_validators_and_items(db: &Db) {
    let store = db.open();
    let (source, _) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    assert!(source.fresh && source.next_due == at(0) && source.health == Health::Ok);
    store.merge(source.id, &extraction(vec![(None, vec![item("Kept", None, None)])]), at(1)).unwrap();
    let ok = FetchRecord {
        at: at(10),
        duration: Duration::from_millis(250),
        http_status: Some(200),
        error: None,
        validators: Some(Validators { etag: Some("\"v1\"".into()), last_modified: Some("Mon, 01 Jan 2024".into()) }),
        body_hash: Some("ab12".into()),
        page_feed: Some(url("https://news.example/feed.xml")),
        next_due: at(3610),
        update_interval: Some(Duration::from_secs(3600)),
        health: Health::Ok,
    };
    let s = store.record_fetch(source.id, &ok).unwrap();
    assert_eq!(
        (s.http_status, s.last_fetch, s.last_duration),
        (Some(200), Some(at(10)), Some(Duration::from_millis(250)))
    );
    assert_eq!(s.validators.etag.as_deref(), Some("\"v1\""));

    let failed = FetchRecord {
        at: at(4000),
        http_status: Some(503),
        error: Some("https://news.example/ answered HTTP 503".into()),
        validators: None,
        body_hash: None,
        page_feed: None,
        next_due: at(4100),
        update_interval: None,
        health: Health::Failing,
        ..ok.clone()
    };
    store.record_fetch(source.id, &failed).unwrap();
    let s = store.record_fetch(source.id, &failed).unwrap();
    assert_eq!((s.consecutive_failures, s.health, s.http_status), (2, Health::Failing, Some(503)));
    assert_eq!(s.validators, ok.validators.clone().unwrap(), "a failure keeps the validators");
    assert_eq!(s.body_hash.as_deref(), Some("ab12"), "a failure keeps the body hash");
    let page_feed = s.page_feed.as_ref().map(url::Url::as_str);
    assert_eq!(page_feed, Some("https://news.example/feed.xml"), "a failure keeps the page's feed");
    assert_eq!(s.last_success, Some(at(10)), "the last success is the last fetch without error");
    assert_eq!(s.settings.update_interval, Duration::from_secs(3600));
    assert_eq!(store.items(source.id, 10).unwrap().len(), 1, "a failure keeps the items");
    let stats = store.stats(at(4000)).unwrap();
    assert_eq!((stats.sources, stats.failing, stats.items, stats.fresh), (1, 1, 1, 0));

    let s = store.record_fetch(source.id, &FetchRecord { at: at(5000), ..ok.clone() }).unwrap();
    assert_eq!((s.consecutive_failures, s.error, s.health), (0, None, Health::Ok));
    let s = store.record_fetch(source.id, &FetchRecord { health: Health::StoppedMatching, ..ok.clone() }).unwrap();
    assert_eq!(s.health, Health::StoppedMatching);
    assert_eq!(store.stats(at(0)).unwrap().stopped_matching, 1);

    let missing = store.record_fetch(html2rss::store::SourceId(777), &ok).unwrap_err();
    assert!(matches!(missing, StoreError::NoSuchSource(777)));
}

fn rules_templates_and_settings_round_trip(db: &Db) {
    let store = db.open();
    let new = NewRule {
        name: "Example news".into(),
        url_patterns: vec!["https://news.example/*".into(), "https://news.example.org/world/*".into()],
        xml: "<rule><url>https://news.example/*</url></rule>".into(),
    };
    let rule = store.add_rule(&new, at(0)).unwrap();
    assert_eq!(
        (rule.name.as_str(), rule.url_patterns.clone(), rule.created),
        ("Example news", new.url_patterns.clone(), at(0))
    );
    assert_eq!(store.rule(rule.id).unwrap().as_ref(), Some(&rule));

    let edited = NewRule { name: "Example world news".into(), url_patterns: vec![], ..new.clone() };
    let replaced = store.replace_rule(rule.id, &edited, at(60)).unwrap().unwrap();
    assert_eq!((replaced.id, replaced.created, replaced.updated), (rule.id, at(0), at(60)));
    assert!(replaced.url_patterns.is_empty());
    let second = store.add_rule(&new, at(70)).unwrap();
    assert_eq!(store.rules().unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), [rule.id, second.id]);

    // A source pinned to a rule falls back to the engine choice when the rule goes.
    let pinned = SourceSettings { rule: Some(rule.id), ..settings() };
    let (source, _) = store.add_source(&url("https://news.example/world"), &pinned, at(0)).unwrap();
    assert_eq!(source.settings.rule, Some(rule.id));
    assert!(store.delete_rule(rule.id).unwrap());
    assert!(!store.delete_rule(rule.id).unwrap());
    assert!(store.rule(rule.id).unwrap().is_none());
    assert!(store.replace_rule(rule.id, &new, at(80)).unwrap().is_none());
    assert_eq!(store.source(source.id).unwrap().unwrap().settings.rule, None);
    store.update_settings(source.id, &SourceSettings { rule: Some(second.id), full_text: true, ..settings() }).unwrap();
    let s = store.source(source.id).unwrap().unwrap();
    assert_eq!((s.settings.rule, s.settings.full_text), (Some(second.id), true));

    let template = Template { site: "news.example".into(), xml: "<rule/>".into(), confidence: 0.5, trained_at: at(0) };
    store.put_template(&template).unwrap();
    let retrained = Template { xml: "<rule><item/></rule>".into(), confidence: 0.875, trained_at: at(99), ..template };
    store.put_template(&retrained).unwrap();
    store.put_template(&Template { site: "blog.example".into(), ..retrained.clone() }).unwrap();
    assert_eq!(store.template("news.example").unwrap(), Some(retrained.clone()));
    assert_eq!(
        store.templates().unwrap().iter().map(|t| t.site.as_str()).collect::<Vec<_>>(),
        ["blog.example", "news.example"]
    );
    assert!(store.delete_template("news.example").unwrap());
    assert!(store.template("news.example").unwrap().is_none());
    let stats = store.stats(at(0)).unwrap();
    assert_eq!((stats.rules, stats.templates), (1, 1));

    assert_eq!(store.setting("admin_token").unwrap(), None);
    let (token, inserted) = store.setting_or_insert("admin_token", || "generated-1".into()).unwrap();
    assert_eq!((token.as_str(), inserted), ("generated-1", true));
    let (token, inserted) = store.setting_or_insert("admin_token", || panic!("must not generate twice")).unwrap();
    assert_eq!((token.as_str(), inserted), ("generated-1", false));
    store.set_setting("admin_token", "chosen").unwrap();
    assert_eq!(store.setting("admin_token").unwrap().as_deref(), Some("chosen"));

    assert!(store.delete_source(source.id).unwrap());
    assert!(store.source(source.id).unwrap().is_none());
}

fn concurrent_writers_and_readers_do_not_fail_busy(db: &Db) {
    let store = db.open();
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                let (source, _) =
                    store.add_source(&url(&format!("https://site{t}.example/")), &settings(), at(0)).unwrap();
                for round in 0..40 {
                    let items = (0..5)
                        .map(|i| {
                            item(
                                &format!("{t}/{round}/{i}"),
                                Some(&format!("https://site{t}.example/{round}/{i}")),
                                None,
                            )
                        })
                        .collect();
                    store.merge(source.id, &extraction(vec![(None, items)]), at(round)).unwrap();
                    store.feed(source.id, 20).unwrap().unwrap();
                    store.stats(at(round)).unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    assert_eq!(store.stats(at(0)).unwrap().items, 4 * 40 * 5);
    if let Db::Sqlite(..) = db {
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}

/// kill -9 a process in the middle of merges: every merge it reported committed is there, and
/// the file is sound. The test runs itself as the child (`CRASH_CHILD_DB` set).
#[test]
fn kill_9_loses_nothing_committed() {
    const NAME: &str = "kill_9_loses_nothing_committed";
    if let Some(db) = std::env::var_os("CRASH_CHILD_DB") {
        let store = Store::open(&db).unwrap();
        let (source, _) = store.add_source(&url("https://crash.example/"), &settings(), at(0)).unwrap();
        for round in 0.. {
            let items = (0..20)
                .map(|i| item(&format!("{round}/{i}"), Some(&format!("https://crash.example/{round}/{i}")), None));
            store.merge(source.id, &extraction(vec![(None, items.collect())]), at(round)).unwrap();
            println!("committed {round}");
        }
        unreachable!();
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([NAME, "--exact", "--nocapture", "--test-threads=1"])
        .env("CRASH_CHILD_DB", &db)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut committed = None;
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        if let Some(round) = line.unwrap().strip_prefix("committed ") {
            committed = Some(round.parse::<i64>().unwrap());
            if committed >= Some(200) {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let last = committed.expect("the child committed nothing");
    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let source = store.source_by_url(&url("https://crash.example/")).unwrap().unwrap();
    let items = store.items(source.id, usize::MAX).unwrap();
    assert!(items.len() as i64 >= (last + 1) * 20, "{} items, {} rounds committed", items.len(), last + 1);
    assert_eq!(source.item_count, items.len() as u64, "the item count moved with the items");
}

fn leases_resets_reschedules_and_feed_versions(db: &Db) {
    let store = db.open();
    let lease = Duration::from_secs(60);
    let (leased, created) = store.add_source_leased(&url("https://a.example/"), &settings(), at(0), lease).unwrap();
    assert!(created && leased.fresh);
    assert_eq!((leased.created, leased.next_due), (at(0), at(60)));
    assert!(store.due_sources(at(59), DueFilter::All, 10).unwrap().is_empty(), "leased: not due for the updater");
    let (again, created) = store.add_source_leased(&url("https://a.example/"), &settings(), at(5), lease).unwrap();
    assert!(!created && again.next_due == at(60), "an existing source is returned as it is");
    assert_eq!(store.next_due(DueFilter::All).unwrap(), Some(at(60)));
    assert_eq!(store.next_due(DueFilter::Normal).unwrap(), None);

    // A merge that adds or changes something bumps the feed version; seeing the same again does not.
    let id = leased.id;
    assert_eq!(leased.feed_version, 0);
    let page = extraction(vec![(None, vec![item("One", Some("https://a.example/1"), None)])]);
    store.merge(id, &page, at(1)).unwrap();
    let v1 = store.source(id).unwrap().unwrap().feed_version;
    assert!(v1 > 0);
    store.merge(id, &page, at(2)).unwrap();
    assert_eq!(store.source(id).unwrap().unwrap().feed_version, v1);
    let mut retitled = page.clone();
    retitled.page.title = "Renamed".into();
    store.merge(id, &retitled, at(3)).unwrap();
    assert!(store.source(id).unwrap().unwrap().feed_version > v1, "the page title is in the feed");

    let record = FetchRecord {
        at: at(10),
        duration: Duration::from_millis(5),
        http_status: Some(200),
        error: None,
        validators: Some(Validators { etag: Some("\"x\"".into()), last_modified: None }),
        body_hash: Some("cafe".into()),
        page_feed: None,
        next_due: at(1000),
        update_interval: None,
        health: Health::Ok,
    };
    store.record_fetch(id, &record).unwrap();
    let stamp = store.feed_stamp(&url("https://a.example/")).unwrap().unwrap();
    assert_eq!((stamp.id, stamp.item_count, stamp.update_interval), (id, 1, Duration::from_secs(3600)));
    assert_eq!((stamp.feed_version, stamp.last_modified), (store.source(id).unwrap().unwrap().feed_version, at(1)));
    assert!(store.feed_stamp(&url("https://b.example/")).unwrap().is_none());
    store.reschedule(id, at(500)).unwrap();
    assert_eq!(store.source(id).unwrap().unwrap().next_due, at(500));
    assert!(matches!(store.reschedule(html2rss::store::SourceId(99), at(1)), Err(StoreError::NoSuchSource(99))));
    assert_eq!(store.reset_sources(&[id, html2rss::store::SourceId(99)], at(20)).unwrap(), 1);
    let reset = store.source(id).unwrap().unwrap();
    assert_eq!((reset.body_hash, reset.validators, reset.next_due), (None, Validators::default(), at(20)));
    assert_eq!(store.items(id, 10).unwrap().len(), 1, "a reset keeps the items");
}

fn article_content_is_stored_once_failures_are_counted_and_a_merge_keeps_the_content(db: &Db) {
    let store = db.open();
    let (source, _) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    let items = vec![
        item("One", Some("https://news.example/1"), Some("2024-05-03T10:00:00Z")),
        item("", Some("https://news.example/2"), Some("2024-05-02T10:00:00Z")),
        item("No link", None, Some("2024-05-01T10:00:00Z")),
        item("Write to us", Some("mailto:desk@news.example"), Some("2024-04-30T10:00:00Z")),
    ];
    store.merge(source.id, &extraction(vec![(None, items.clone())]), at(1)).unwrap();
    let wanted = store.items_without_content(source.id, 10, 2).unwrap();
    let guids: Vec<String> = wanted.iter().map(|s| s.guid.clone()).collect();
    assert_eq!(wanted.iter().map(|s| s.item.link.as_ref().unwrap().path()).collect::<Vec<_>>(), ["/1", "/2"]);
    let version = store.source(source.id).unwrap().unwrap().feed_version;

    let found = |content: &str| {
        Ok(ArticleFields {
            content: content.into(),
            author: Some("Ann".into()),
            title: Some("Two, from its page".into()),
        })
    };
    let updates = [
        ArticleUpdate { guid: guids[0].clone(), outcome: found("<p>One in full</p>") },
        ArticleUpdate { guid: guids[1].clone(), outcome: Err("HTTP 503".into()) },
    ];
    assert_eq!(store.record_articles(source.id, &updates, at(2)).unwrap(), 1);
    let after = store.source(source.id).unwrap().unwrap();
    assert_eq!((after.feed_version, after.last_change), (version + 1, Some(at(2))));
    // The failed one is wanted again until it has failed `max_attempts` times.
    assert_eq!(store.items_without_content(source.id, 10, 2).unwrap().len(), 1);
    store.record_articles(source.id, &updates[1..], at(3)).unwrap();
    assert!(store.items_without_content(source.id, 10, 2).unwrap().is_empty());
    let counts = store.article_counts().unwrap();
    assert!(counts.is_empty(), "only sources with full text on are counted: {counts:?}");
    store.update_settings(source.id, &SourceSettings { full_text: true, ..settings() }).unwrap();
    let counts = store.article_counts().unwrap()[&source.id];
    assert_eq!((counts.items, counts.with_content, counts.failed), (4, 1, 1));

    // Content already there is not replaced; an empty title is filled, a non-empty one kept.
    let again = [
        ArticleUpdate { guid: guids[0].clone(), outcome: found("<p>Other</p>") },
        ArticleUpdate { guid: guids[1].clone(), outcome: found("<p>Two in full</p>") },
    ];
    assert_eq!(store.record_articles(source.id, &again, at(4)).unwrap(), 1);
    // A later merge of the page (items without content) keeps the stored content and author.
    store.merge(source.id, &extraction(vec![(None, items)]), at(5)).unwrap();
    let stored: HashMap<String, Item> =
        store.items(source.id, 10).unwrap().into_iter().map(|s| (s.guid, s.item)).collect();
    let one = &stored[&guids[0]];
    assert_eq!(
        (one.title.as_str(), one.content.as_deref(), one.author.as_deref()),
        ("One", Some("<p>One in full</p>"), Some("Ann"))
    );
    let two = &stored[&guids[1]];
    assert_eq!((two.title.as_str(), two.content.as_deref()), ("Two, from its page", Some("<p>Two in full</p>")));
}

/// Runs `html2rss migrate --db DB`: whether it succeeded, its stdout and its stderr.
fn migrate(db: &str) -> (bool, String, String) {
    let output =
        std::process::Command::new(env!("CARGO_BIN_EXE_html2rss")).args(["migrate", "--db", db]).output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `html2rss migrate` (the command line): creates a database, upgrades an old one keeping its
/// rows, says so, and refuses a newer schema and an unreachable PostgreSQL with the reason.
#[test]
fn the_migrate_command_creates_upgrades_and_refuses_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh.db");
    let (ok, out, err) = migrate(fresh.to_str().unwrap());
    assert!(ok, "{err}");
    assert!(out.contains(&format!("created at schema version {SCHEMA_VERSION}")), "{out}");
    let (ok, out, _) = migrate(fresh.to_str().unwrap());
    assert!(ok && out.contains("already at schema version"), "{out}");

    // A file at schema version 2 with a source: migrated to the current version, the source kept.
    let old = dir.path().join("old.db");
    let raw = rusqlite::Connection::open(&old).unwrap();
    raw.execute_batch(include_str!("../src/store/sqlite/migrations/001_initial.sql")).unwrap();
    raw.execute_batch(include_str!("../src/store/sqlite/migrations/002_refresh_state.sql")).unwrap();
    raw.execute_batch(
        "PRAGMA user_version = 2;
         INSERT INTO sources (id, url, update_interval, next_due, created, fresh)
           VALUES (1, 'https://notes.example/', 3600, 0, 0, 0);",
    )
    .unwrap();
    drop(raw);
    let (ok, out, err) = migrate(old.to_str().unwrap());
    assert!(ok, "{err}");
    assert!(out.contains(&format!("migrated from schema version 2 to {SCHEMA_VERSION}")), "{out}");
    let store = Store::open(&old).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert!(store.source_by_url(&url("https://notes.example/")).unwrap().is_some());

    let newer = dir.path().join("newer.db");
    rusqlite::Connection::open(&newer).unwrap().pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    let (ok, _, err) = migrate(newer.to_str().unwrap());
    assert!(!ok);
    assert!(err.contains("newer.db") && err.contains("newer than this program"), "{err}");

    // A PostgreSQL server that is not there (a socket directory that does not exist): the
    // reason names the address, without its password, and no file is made of the address.
    let (ok, _, err) = migrate("postgres://feeds:secret@%2Fnonexistent-html2rss/feeds");
    assert!(!ok);
    assert!(err.contains("cannot connect to postgres://feeds:***@%2Fnonexistent-html2rss/feeds"), "{err}");
    assert!(!err.contains("secret"), "{err}");
    assert!(!std::path::Path::new("postgres:").exists(), "no file was made of the address");
}

/// `html2rss migrate --db postgres://…`: the same story on PostgreSQL.
#[test]
fn the_migrate_command_creates_upgrades_and_refuses_postgres_databases() {
    let fresh = common::postgres::database();
    let (ok, out, err) = migrate(&fresh);
    assert!(ok, "{err}");
    assert_eq!(out, format!("{fresh}: created at schema version {SCHEMA_VERSION}\n"));
    let (ok, out, _) = migrate(&fresh);
    assert!(ok && out.contains("already at schema version"), "{out}");

    // A database at schema version 2 with a source: migrated, the source kept.
    let old = common::postgres::database();
    let mut raw = common::postgres::client(&old);
    raw.batch_execute(include_str!("../src/store/postgres/migrations/001_initial.sql")).unwrap();
    raw.batch_execute(include_str!("../src/store/postgres/migrations/002_refresh_state.sql")).unwrap();
    raw.batch_execute(
        "CREATE TABLE html2rss_schema (version BIGINT NOT NULL); INSERT INTO html2rss_schema VALUES (2);
         INSERT INTO sources (url, update_interval, next_due, created, fresh)
           VALUES ('https://notes.example/', 3600, 0, 0, FALSE);",
    )
    .unwrap();
    let (ok, out, err) = migrate(&old);
    assert!(ok, "{err}");
    assert!(out.contains(&format!("migrated from schema version 2 to {SCHEMA_VERSION}")), "{out}");
    let version: i64 = raw.query_one("SELECT version FROM html2rss_schema", &[]).unwrap().get(0);
    assert_eq!(version, i64::from(SCHEMA_VERSION));
    let store = Store::open(&old).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert!(store.source_by_url(&url("https://notes.example/")).unwrap().is_some());

    raw.execute("UPDATE html2rss_schema SET version = $1", &[&i64::from(SCHEMA_VERSION + 1)]).unwrap();
    let (ok, _, err) = migrate(&old);
    assert!(!ok);
    assert!(err.contains(&old) && err.contains("newer than this program"), "{err}");
}

/// PostgreSQL: a new database is migrated and reopens with its data; the version is in
/// `html2rss_schema`; a newer schema is refused; a migration that fails leaves nothing of it.
#[test]
fn a_postgres_database_is_versioned_in_a_table_and_a_failed_migration_changes_nothing() {
    let db = common::postgres::database();
    let store = Store::open(&db).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    store.ping().unwrap();
    let (source, created) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    assert!(created);
    drop(store);
    let mut raw = common::postgres::client(&db);
    let version: i64 = raw.query_one("SELECT version FROM html2rss_schema", &[]).unwrap().get(0);
    assert_eq!(version, i64::from(SCHEMA_VERSION));
    let (store, had) = Store::open_migrated(&db).unwrap();
    assert_eq!(had, SCHEMA_VERSION);
    assert_eq!(store.source_by_url(&url("https://news.example/")).unwrap(), Some(source));
    assert!(matches!(store.integrity_check(), Err(StoreError::SqliteOnly(_))));

    raw.execute("UPDATE html2rss_schema SET version = $1", &[&i64::from(SCHEMA_VERSION + 1)]).unwrap();
    let error = Store::open(&db).unwrap_err();
    assert!(matches!(error, StoreError::TooNew { found, .. } if found == SCHEMA_VERSION + 1), "{error}");

    let blocked = common::postgres::database();
    let mut raw = common::postgres::client(&blocked);
    raw.batch_execute("CREATE TABLE items (x BIGINT); INSERT INTO items VALUES (42);").unwrap();
    let error = Store::open(&blocked).unwrap_err();
    assert!(matches!(error, StoreError::Migration { version: 1, .. }), "{error}");
    let tables: Vec<String> = raw
        .query("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1", &[])
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    let kept: i64 = raw.query_one("SELECT x FROM items", &[]).unwrap().get(0);
    assert_eq!((tables, kept), (vec!["items".to_string()], 42), "no table of migration 1, nor the version table");
}

/// Servers sharing one database never claim the same source: two stores (two pools), four
/// threads each, claiming until nothing is due; every source is claimed exactly once.
fn claims_from_two_stores_never_overlap(db: &Db) {
    let first = db.open();
    let second = db.open();
    for n in 0..120 {
        first.add_source(&url(&format!("https://site{n}.example/")), &settings(), at(0)).unwrap();
    }
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let store = if t % 2 == 0 { first.clone() } else { second.clone() };
            std::thread::spawn(move || {
                let mut claimed = Vec::new();
                loop {
                    let sources = store.claim_due(at(10), DueFilter::All, 3, Duration::from_secs(600)).unwrap();
                    if sources.is_empty() {
                        return claimed;
                    }
                    claimed.extend(sources.into_iter().map(|s| s.id));
                }
            })
        })
        .collect();
    let mut claimed: Vec<_> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let total = claimed.len();
    claimed.sort();
    claimed.dedup();
    assert_eq!((total, claimed.len()), (120, 120), "each source claimed once");
    assert!(second.due_sources(at(10), DueFilter::All, 10).unwrap().is_empty());
}

/// Renders are kept only for the feed version they were written from, replaced by the next
/// one, read back as written, and go with their source.
fn renders_are_kept_for_their_feed_version_and_go_with_their_source(db: &Db) {
    let store = db.open();
    let (source, _) = store.add_source(&url("https://news.example/"), &settings(), at(0)).unwrap();
    let one = item("One", Some("https://news.example/1"), Some("2024-05-01T10:00:00Z"));
    store.merge(source.id, &extraction(vec![(None, vec![one])]), at(1)).unwrap();
    let version = store.source(source.id).unwrap().unwrap().feed_version;
    let render = |feed_version: u64, body: &str| StoredRender {
        format: Format::Atom,
        feed_version,
        update_interval: Duration::from_secs(3600),
        item_limit: 50,
        last_modified: at(1),
        etag: format!("tag of {body}"),
        body: body.to_string(),
    };
    assert!(store.render(source.id, Format::Atom).unwrap().is_none());
    assert!(!store.renders_current(source.id, 50).unwrap());
    assert!(store.put_renders(source.id, &[render(version, "first")]).unwrap());
    assert_eq!(store.render(source.id, Format::Atom).unwrap(), Some(render(version, "first")));
    assert!(store.render(source.id, Format::Json).unwrap().is_none(), "one row per format");
    assert!(!store.put_renders(source.id, &[render(version - 1, "older")]).unwrap(), "an older version");
    assert_eq!(store.render(source.id, Format::Atom).unwrap().unwrap().body, "first");

    let two = item("Two", Some("https://news.example/2"), Some("2024-05-02T10:00:00Z"));
    store.merge(source.id, &extraction(vec![(None, vec![two])]), at(2)).unwrap();
    let newer = store.source(source.id).unwrap().unwrap().feed_version;
    assert!(newer > version);
    assert!(store.put_renders(source.id, &[render(newer, "second")]).unwrap());
    assert_eq!(store.render(source.id, Format::Atom).unwrap().unwrap().body, "second");
    assert!(store.delete_source(source.id).unwrap());
    assert!(store.render(source.id, Format::Atom).unwrap().is_none(), "deleted with its source");
}

/// Host leases (PostgreSQL only; SQLite has none): one holder at a time, whoever the server;
/// given back with the host's quiet time, which counts troubled requests; a lease that runs out
/// (its server died) lets the next holder in.
#[test]
fn host_leases_take_turns_keep_the_quiet_and_run_out() {
    assert!(Db::sqlite().open().host_leases().is_none(), "one process owns a SQLite file");
    let db = Db::postgres();
    let (first, second) = (db.open().host_leases().unwrap(), db.open().host_leases().unwrap());
    let hold = Duration::from_secs(60);
    let lease = first.take("a.example", "one/1", hold).unwrap().unwrap();
    assert_eq!(second.take("a.example", "two/1", hold).unwrap(), Err(HostWait::Busy));
    assert!(second.take("b.example", "two/2", hold).unwrap().is_ok(), "another host is another lease");
    let mut counted = None;
    first
        .release(&lease, HostHealth::Troubled, |failures| {
            counted = Some(failures);
            Duration::from_secs(30)
        })
        .unwrap();
    assert_eq!(counted, Some(1));
    let Err(HostWait::Wait(wait)) = second.take("a.example", "two/3", hold).unwrap() else { panic!("not quiet") };
    assert!(wait > Duration::from_secs(28) && wait <= Duration::from_secs(30), "{wait:?}");
    // Giving back a lease twice, or one that another holder has since, changes nothing.
    first.release(&lease, HostHealth::Fine, |_| Duration::ZERO).unwrap();
    assert!(matches!(second.take("a.example", "two/4", hold).unwrap(), Err(HostWait::Wait(_))));

    let lease = first.take("c.example", "one/2", Duration::from_millis(300)).unwrap().unwrap();
    assert_eq!(second.take("c.example", "two/5", hold).unwrap(), Err(HostWait::Busy));
    std::thread::sleep(Duration::from_millis(400));
    let taken = second.take("c.example", "two/6", hold).unwrap().expect("a lease that ran out is free");
    first.release(&lease, HostHealth::Troubled, |_| Duration::from_secs(600)).unwrap();
    assert_eq!(first.take("c.example", "one/3", hold).unwrap(), Err(HostWait::Busy), "the late release did nothing");
    let mut counted = None;
    second
        .release(&taken, HostHealth::Fine, |failures| {
            counted = Some(failures);
            Duration::ZERO
        })
        .unwrap();
    assert_eq!(counted, Some(0));
    assert!(first.take("c.example", "one/4", hold).unwrap().is_ok());
}

/// The next event a store's listener tells, within 5 s.
fn next_event(events: &mut tokio::sync::mpsc::UnboundedReceiver<StoreEvent>) -> StoreEvent {
    let asked = std::time::Instant::now();
    loop {
        match events.try_recv() {
            Ok(event) => return event,
            Err(tokio::sync::mpsc::error::TryRecvError::Empty) if asked.elapsed() < Duration::from_secs(5) => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(error) => panic!("no event in 5 s: {error}"),
        }
    }
}

/// A PostgreSQL store tells every listener what any process changed: a source's feed (not a
/// claim nor a merge that changed nothing), a deleted source, the rules. A listener whose
/// connection is cut listens again, and says so first (what changed meanwhile was told to
/// nobody). SQLite has no listeners.
#[test]
fn a_postgres_store_tells_its_listeners_what_changed_and_listens_again_when_cut_off() {
    assert!(Db::sqlite().open().events().is_none(), "one process owns a SQLite file");
    let db = Db::postgres();
    let (listener, writer) = (db.open(), db.open());
    let mut events = listener.events().unwrap();
    assert_eq!(next_event(&mut events), StoreEvent::Listening);

    let (source, _) = writer.add_source(&url("https://a.example/"), &settings(), at(0)).unwrap();
    let page = extraction(vec![(None, vec![item("One", Some("https://a.example/1"), None)])]);
    writer.merge(source.id, &page, at(1)).unwrap();
    assert_eq!(next_event(&mut events), StoreEvent::FeedChanged(source.id));
    // Nothing a reader sees changes here: the next event is the rule's.
    writer.merge(source.id, &page, at(2)).unwrap();
    writer.claim_due(at(3_000_000), DueFilter::All, 10, Duration::from_secs(60)).unwrap();
    let rule = NewRule { name: "r".into(), url_patterns: vec!["https://a.example/*".into()], xml: "<page/>".into() };
    let added = writer.add_rule(&rule, at(4)).unwrap();
    assert_eq!(next_event(&mut events), StoreEvent::RulesChanged);
    writer.delete_rule(added.id).unwrap();
    assert_eq!(next_event(&mut events), StoreEvent::RulesChanged);
    writer.delete_source(source.id).unwrap();
    assert_eq!(next_event(&mut events), StoreEvent::FeedChanged(source.id));

    let db_address = db.location().to_str().unwrap().to_string();
    let cut: i64 = common::postgres::client(&db_address)
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'html2rss listener'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(cut, 1, "one listener");
    assert_eq!(next_event(&mut events), StoreEvent::Listening, "listening again");
    writer.add_rule(&rule, at(5)).unwrap();
    assert_eq!(next_event(&mut events), StoreEvent::RulesChanged);
}
