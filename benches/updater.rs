//! The updater's throughput when pages are slow: SOURCES sources on a loopback server that
//! answers each page after 200 ms, refreshed by a pool of WORKERS workers (the full refresh:
//! conditional fetch, parse, engine choice (time patterns), merge, record). Each source has its
//! own host name (pinned to loopback), since one host gets one request at a time.
//!
//! The latency bound is SOURCES × 0.2 s / WORKERS; the baseline, measured in the same run, is
//! the same pages fetched by WORKERS concurrent plain fetches with nothing else done.
//!
//! `cargo bench --bench updater` (SOURCES, WORKERS and DELAY_MS in the environment change the
//! defaults of 2000, 32 and 200).

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
    let store = Store::open(dir.path().join("feeds.db")).unwrap();
    let now = Utc::now();
    let settings = SourceSettings { rule: None, full_text: false, update_interval: Duration::from_secs(3600) };
    for url in &urls {
        store.add_source(url, &settings, now).unwrap();
    }
    let backoff = Backoff { base: Duration::from_secs(60), max: Duration::from_secs(3600) };
    let ctx = Arc::new(RefreshContext {
        store: store.clone(),
        fetcher,
        hosts: Hosts::local(Duration::from_secs(1), backoff),
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
    });
    let config = PoolConfig {
        fresh_workers: 0,
        workers,
        lease: Duration::from_secs(120),
        idle_poll: Duration::from_millis(20),
        host_patience: Duration::from_secs(5),
    };
    let (cpu, start) = (cpu_seconds(), Instant::now());
    let pool = runtime.block_on(async { Pool::start(ctx.clone(), config) });
    loop {
        let stats = store.stats(Utc::now()).unwrap();
        if stats.fresh == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    runtime.block_on(pool.shutdown(Duration::from_secs(5)));
    let snapshot = ctx.stats.snapshot();
    let stats = store.stats(Utc::now()).unwrap();
    let extracted = snapshot.refreshes.iter().find(|(o, _)| o.as_str() == "extracted").map_or(0, |(_, n)| *n);

    println!("  latency bound          {bound:>8.2} s   ({sources} × {:.1} s / {workers})", delay.as_secs_f64());
    println!(
        "  baseline (fetch only)  {baseline:>8.2} s   {:>7.1} pages/s   CPU {baseline_cpu:.2} s",
        sources as f64 / baseline
    );
    println!(
        "  updater                {wall:>8.2} s   {:>7.1} pages/s   CPU {cpu:.2} s ({:.0} % of one core)",
        sources as f64 / wall,
        cpu / wall * 100.0
    );
    println!("  updater / baseline     {:>8.2}×   updater / bound {:.2}×", wall / baseline, wall / bound);
    println!(
        "  refreshes extracted {extracted}, failed {}, items stored {}; peak memory {:.0} MiB",
        snapshot.refreshes.iter().filter(|(o, _)| o.as_str() != "extracted").map(|(_, n)| n).sum::<u64>(),
        stats.items,
        peak_mib()
    );
}
