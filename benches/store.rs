//! Store throughput on a real SQLite file: merging pages into 10,000 sources, then reading
//! feeds (newest 50 items as a page) the way `/rss` will, from the pooled [`Store`] and, as the
//! baseline in the same run, with a new connection per read (what "no pool" would cost).
//! `cargo bench --bench store`.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use html2rss::engines::{Engine, Extraction};
use html2rss::feed::{self, FeedMeta, Format};
use html2rss::model::{Item, Page, Subject};
use html2rss::store::{SourceId, SourceSettings, Store};
use url::Url;

const SOURCES: usize = 10_000;
const ITEMS: usize = 20;
const READS: usize = 20_000;

fn page(source: usize, round: usize) -> Extraction {
    let base = format!("https://site{}.example/s{source}/", source % 500);
    let mut page = Page::new(Url::parse(&base).unwrap(), format!("Site {source}"), "UTF-8");
    let items = (0..ITEMS)
        .map(|i| {
            let n = round * ITEMS + i;
            let mut item = Item::new(format!("Story {n} of source {source}: a headline of usual length"));
            item.link = Some(Url::parse(&format!("{base}story/{n}")).unwrap());
            item.date = Some(Utc.timestamp_opt(1_700_000_000 + n as i64 * 3600, 0).unwrap().fixed_offset());
            item.description = Some(format!("<p>The first lines of story {n}, as the page shows them.</p>"));
            item
        })
        .collect();
    page.subjects = vec![Subject { title: Some("News".into()), items }];
    Extraction { page, engine: Engine::TimePattern, confidence: 0.8 }
}

/// Pseudo-random source ids, the same sequence for every contender.
fn ids(n: usize) -> Vec<SourceId> {
    let mut x: u64 = 0x2545F4914F6CDD1D;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            SourceId(1 + (x % SOURCES as u64) as i64)
        })
        .collect()
}

fn percentile(mut samples: Vec<Duration>, p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 * p) as usize).min(samples.len() - 1)]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    let store = Store::open(&path).unwrap();
    let now = Utc.timestamp_opt(1_800_000_000, 0).unwrap();
    let settings = SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(3600) };

    let start = Instant::now();
    for s in 0..SOURCES {
        let extraction = page(s, 0);
        let (source, _) = store.add_source(&extraction.page.link, &settings, now).unwrap();
        store.merge(source.id, &extraction, now).unwrap();
    }
    let first = start.elapsed();
    // A second round: half the items known, half new, as a refresh finds them.
    let start = Instant::now();
    for s in 0..SOURCES {
        let mut extraction = page(s, 1);
        extraction.page.subjects[0].items.truncate(ITEMS / 2);
        extraction.page.subjects[0].items.extend(page(s, 0).page.subjects[0].items.drain(..ITEMS / 2));
        store.merge(SourceId(s as i64 + 1), &extraction, now).unwrap();
    }
    let second = start.elapsed();
    let file_mb = std::fs::metadata(&path).unwrap().len() as f64 / 1e6;
    println!("{SOURCES} sources, {} items, file {file_mb:.0} MB", store.stats(now).unwrap().items);
    println!(
        "merge, all new:     {:7.0} pages/s  {:8.0} items/s",
        SOURCES as f64 / first.as_secs_f64(),
        (SOURCES * ITEMS) as f64 / first.as_secs_f64()
    );
    println!(
        "merge, half known:  {:7.0} pages/s  {:8.0} items/s",
        SOURCES as f64 / second.as_secs_f64(),
        (SOURCES * ITEMS) as f64 / second.as_secs_f64()
    );

    let ids = ids(READS);
    let mut latencies = Vec::with_capacity(READS);
    let start = Instant::now();
    for &id in &ids {
        let t = Instant::now();
        std::hint::black_box(store.feed(id, 50).unwrap().unwrap());
        latencies.push(t.elapsed());
    }
    let pooled = start.elapsed();

    // Baseline: what each read would cost with a fresh connection and no statement cache.
    let start = Instant::now();
    for &id in &ids {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.busy_timeout(Duration::from_secs(10)).unwrap();
        let title: Option<String> =
            conn.query_row("SELECT title FROM sources WHERE id = ?1", [id.0], |r| r.get(0)).unwrap();
        let mut statement = conn
            .prepare(
                "SELECT guid, subject, title, link, date, description, content, author, first_seen, last_seen
                 FROM items WHERE source_id = ?1 ORDER BY date_ts DESC, position, id LIMIT 50",
            )
            .unwrap();
        let rows: Vec<(String, String)> =
            statement.query_map([id.0], |r| Ok((r.get(0)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
        std::hint::black_box((title, rows));
    }
    let per_call = start.elapsed();

    // Two threads reading at once (the machine has two cores).
    let start = Instant::now();
    std::thread::scope(|scope| {
        for half in ids.chunks(READS / 2) {
            let store = store.clone();
            scope.spawn(move || {
                for &id in half {
                    std::hint::black_box(store.feed(id, 50).unwrap().unwrap());
                }
            });
        }
    });
    let two_threads = start.elapsed();

    let meta = FeedMeta::new(now.fixed_offset());
    let start = Instant::now();
    for &id in &ids {
        let stored = store.feed(id, 50).unwrap().unwrap();
        std::hint::black_box(feed::write(&stored.page, Format::Rss, &meta));
    }
    let with_rss = start.elapsed();

    let rate = |d: Duration| READS as f64 / d.as_secs_f64();
    println!("feed read, connection per call (baseline): {:7.0} feeds/s", rate(per_call));
    println!(
        "feed read, pooled Store:                   {:7.0} feeds/s  p50 {:?}  p99 {:?}",
        rate(pooled),
        percentile(latencies.clone(), 0.5),
        percentile(latencies, 0.99)
    );
    println!("feed read, pooled Store, 2 threads:        {:7.0} feeds/s", rate(two_threads));
    println!("feed read + RSS write, 1 thread:           {:7.0} feeds/s", rate(with_rss));
    println!("speed-up pooled/baseline:                  {:7.2}×", per_call.as_secs_f64() / pooled.as_secs_f64());
}
