//! The updater's throughput when pages are slow: SOURCES sources on a loopback server that
//! answers each page after 200 ms, refreshed by a pool of WORKERS workers (the full refresh:
//! conditional fetch, parse, engine choice (time patterns), merge, record). Each source has its
//! own host name (pinned to loopback), since one host gets one request at a time.
//!
//! The latency bound is SOURCES × 0.2 s / WORKERS; the baseline, measured in the same run, is
//! the same pages fetched by WORKERS concurrent plain fetches with nothing else done.
//!
//! `cargo bench --bench updater` (SOURCES, WORKERS and DELAY_MS in the environment change the
//! defaults of 2000, 32 and 200). With `DB=postgres://…` (an empty database) it then measures
//! the updater on PostgreSQL with one server and with two sharing the store, each with WORKERS
//! workers, its own pool of connections and its own per-host politeness over the shared host
//! leases.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use futures_util::StreamExt;
use html2rss::engines::choose::Engines;
use html2rss::engines::rules::RuleSet;
use html2rss::fetch::{Backoff, FetchConfig, Fetcher, Validators};
use html2rss::store::{SourceSettings, Store};
use html2rss::updater::{ArticleSettings, FeedChanges, Hosts, Pool, PoolConfig, RefreshContext, Schedule, Stats};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use url::Url;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A list page of ten dated stories, different for every host.
fn page(host: &str) -> String {
    let items: String = (0..10)
        .map(|i| {
            format!(
                "<li><a href=\"/posts/{host}-story-{i}\">Story {i} from {host}, a headline of the usual length</a> \
                 <span class=date>2024-05-{:02} 10:{:02}</span><p>The first lines of the story.</p></li>",
                28 - i,
                i * 3
            )
        })
        .collect();
    format!(
        "<!doctype html><html><head><title>{host}</title></head><body><h1>{host}</h1><ul class=news>{items}</ul></body></html>"
    )
}

/// A page server that answers every request after `delay`, on its own thread and runtime.
fn slow_server(delay: Duration) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            loop {
                let Ok((mut stream, _)) = listener.accept().await else { continue };
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0u8; 2048];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let text = String::from_utf8_lossy(&request);
                    let host = text
                        .lines()
                        .find_map(|l| l.strip_prefix("host: ").or_else(|| l.strip_prefix("Host: ")))
                        .unwrap_or("unknown")
                        .split(':')
                        .next()
                        .unwrap_or("unknown")
                        .to_string();
                    tokio::time::sleep(delay).await;
                    let body = page(&host);
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = stream.write_all(head.as_bytes()).await;
                    let _ = stream.write_all(body.as_bytes()).await;
                });
            }
        });
    });
    addr
}

/// CPU seconds this process has used (user + system), from /proc.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime and stime are 14 and 15.
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or_default().split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Peak resident memory of this process, in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let sources = env("SOURCES", 2000) as usize;
    let workers = env("WORKERS", 32) as usize;
    let delay = Duration::from_millis(env("DELAY_MS", 200));
    let bound = delay.as_secs_f64() * sources as f64 / workers as f64;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let server = slow_server(delay);
    let hosts: Vec<String> = (0..sources).map(|i| format!("site{i}.bench.test")).collect();
    let urls: Vec<Url> =
        hosts.iter().map(|h| Url::parse(&format!("http://{h}:{}/news", server.port())).unwrap()).collect();
    let fetch = FetchConfig {
        allow_private: true,
        pinned: hosts.iter().map(|h| (h.clone(), server)).collect(),
        ..FetchConfig::default()
    };
    let fetcher = Fetcher::new(&fetch).unwrap();
    println!(
        "updater: {sources} sources, each on its own host, pages answered after {} ms, {workers} workers; load {}",
        delay.as_millis(),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );

    // Baseline: the same pages, WORKERS plain fetches at a time, nothing else.
    let (cpu, start) = (cpu_seconds(), Instant::now());
    let fetched = runtime.block_on(async {
        futures_util::stream::iter(&urls)
            .map(|url| {
                let fetcher = fetcher.clone();
                async move { fetcher.fetch(url, &Validators::default()).await.is_ok() }
            })
            .buffer_unordered(workers)
            .filter(|ok| std::future::ready(*ok))
            .count()
            .await
    });
    let baseline = start.elapsed().as_secs_f64();
    let baseline_cpu = cpu_seconds() - cpu;
    assert_eq!(fetched, sources, "the baseline fetches failed");

    // The updater: every source fresh, the pool refreshing them all.
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(dir.path().join("feeds.db")).unwrap();
    let run = refresh_all(&runtime, &[sqlite], &fetcher, &urls, workers);
    println!("  latency bound          {bound:>8.2} s   ({sources} × {:.1} s / {workers})", delay.as_secs_f64());
    println!(
        "  baseline (fetch only)  {baseline:>8.2} s   {:>7.1} pages/s   CPU {baseline_cpu:.2} s",
        sources as f64 / baseline
    );
    run.print("updater", sources);
    println!("  updater / baseline     {:>8.2}×   updater / bound {:.2}×", run.wall / baseline, run.wall / bound);
    println!("  peak memory {:.0} MiB", peak_mib());

    // On PostgreSQL (`DB=postgres://…`, an empty database): the same with one server, then with
    // two sharing the store (two stores, pools and politeness layers in this process, each
    // with WORKERS workers), each on new host names so that every source is fresh again.
    let Ok(db) = std::env::var("DB") else { return };
    let hosts_of = |run: &str| -> Vec<Url> {
        (0..sources)
            .map(|i| Url::parse(&format!("http://site{i}.{run}.bench.test:{}/news", server.port())).unwrap())
            .collect()
    };
    let (one_urls, two_urls) = (hosts_of("one"), hosts_of("two"));
    let pinned = one_urls.iter().chain(&two_urls).map(|u| (u.host_str().unwrap().to_string(), server)).collect();
    let fetcher = Fetcher::new(&FetchConfig { allow_private: true, pinned, ..FetchConfig::default() }).unwrap();
    let open = || Store::open(&db).expect("DB must be a PostgreSQL address");
    let one = refresh_all(&runtime, &[open()], &fetcher, &one_urls, workers);
    one.print("postgres, one server", sources);
    let two = refresh_all(&runtime, &[open(), open()], &fetcher, &two_urls, workers);
    two.print("postgres, two servers", sources);
    println!("  two servers / one      {:>8.2}× the pages per second", one.wall / two.wall);
}

/// What refreshing every source took.
struct Run {
    wall: f64,
    cpu: f64,
    extracted: u64,
    failed: u64,
    items: u64,
}

impl Run {
    fn print(&self, name: &str, sources: usize) {
        println!(
            "  {name:<22} {:>8.2} s   {:>7.1} pages/s   CPU {:.2} s ({:.0} % of one core); extracted {}, failed {}, items {}",
            self.wall,
            sources as f64 / self.wall,
            self.cpu,
            self.cpu / self.wall * 100.0,
            self.extracted,
            self.failed,
            self.items
        );
    }
}

/// Add `urls` as fresh sources and let one pool of `workers` per store (a server each) refresh
/// them all.
fn refresh_all(
    runtime: &tokio::runtime::Runtime,
    stores: &[Store],
    fetcher: &Fetcher,
    urls: &[Url],
    workers: usize,
) -> Run {
    let now = Utc::now();
    let settings = SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(3600) };
    for url in urls {
        stores[0].add_source(url, &settings, now).unwrap();
    }
    let backoff = Backoff { base: Duration::from_secs(60), max: Duration::from_secs(3600) };
    let delay = Duration::from_secs(1);
    let contexts: Vec<Arc<RefreshContext>> = stores
        .iter()
        .map(|store| {
            Arc::new(RefreshContext {
                store: store.clone(),
                fetcher: fetcher.clone(),
                hosts: Hosts::new(delay, backoff, store.host_leases(), FetchConfig::default().total_timeout),
                engines: Arc::new(Engines::new(RuleSet::new())),
                schedule: Schedule {
                    default_interval: Duration::from_secs(3600),
                    min_interval: Duration::from_secs(600),
                    max_interval: Duration::from_secs(7 * 86400),
                    backoff,
                    unhealthy_after: Duration::from_secs(3 * 86400),
                },
                stats: Stats::default(),
                changes: FeedChanges::default(),
                articles: ArticleSettings {
                    max_per_refresh: 0,
                    max_dates_per_refresh: 0,
                    concurrency: 1,
                    patience: Duration::from_secs(5),
                },
                train_templates: false,
                items_per_feed: 50,
            })
        })
        .collect();
    let config = PoolConfig {
        fresh_workers: 0,
        workers,
        lease: Duration::from_secs(120),
        idle_poll: Duration::from_millis(20),
        host_patience: Duration::from_secs(5),
    };
    let (cpu, start) = (cpu_seconds(), Instant::now());
    let pools: Vec<Pool> =
        runtime.block_on(async { contexts.iter().map(|ctx| Pool::start(ctx.clone(), config.clone())).collect() });
    // Every 100 ms: counting the sources is a scan, and every 10 ms it took 12 % of the
    // database's time in the run it measures (pg_stat_statements).
    while stores[0].stats(Utc::now()).unwrap().fresh > 0 {
        std::thread::sleep(Duration::from_millis(100));
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    for pool in pools {
        runtime.block_on(pool.shutdown(Duration::from_secs(5)));
    }
    let (mut extracted, mut failed) = (0, 0);
    for ctx in &contexts {
        for (outcome, n) in ctx.stats.snapshot().refreshes {
            if outcome.as_str() == "extracted" { extracted += n } else { failed += n }
        }
    }
    Run { wall, cpu, extracted, failed, items: stores[0].stats(Utc::now()).unwrap().items }
}
