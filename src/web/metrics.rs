//! `GET /metrics`: Prometheus text format — requests, first fetches, the feed cache, the
//! updater's fetches, errors, items and queue, and the store's counts.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use actix_web::{HttpResponse, web};
use chrono::Utc;

use super::{AppState, store_error};

/// The web server's own counters.
#[derive(Default)]
pub struct WebMetrics {
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    first_fetches: Mutex<BTreeMap<&'static str, u64>>,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
}

impl WebMetrics {
    pub fn request(&self, route: &str, status: u16) {
        let mut requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        match requests.get_mut(&(route.to_string(), status)) {
            Some(count) => *count += 1,
            None => {
                requests.insert((route.to_string(), status), 1);
            }
        }
    }

    pub fn first_fetch(&self, result: &'static str) {
        *self.first_fetches.lock().unwrap_or_else(PoisonError::into_inner).entry(result).or_default() += 1;
    }

    pub fn cache(&self, hit: bool) {
        let counter = if hit { &self.cache_hits } else { &self.cache_misses };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// Label values are URL routes and fixed words; escape what the format requires anyway.
fn label(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let store = state.ctx.store.clone();
    let stats = match state.blocking(move || store.stats(Utc::now())).await {
        Ok(Ok(stats)) => stats,
        Ok(Err(error)) => return store_error(error),
        Err(response) => return response,
    };
    let mut out = String::new();
    family(&mut out, "html2rss_http_requests_total", "counter", "HTTP requests answered, by route and status.");
    for ((route, status), count) in state.metrics.requests.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        let _ = writeln!(out, "html2rss_http_requests_total{{route=\"{}\",status=\"{status}\"}} {count}", label(route));
    }
    family(&mut out, "html2rss_first_fetches_total", "counter", "First requests for new URLs, by result.");
    for (result, count) in state.metrics.first_fetches.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        let _ = writeln!(out, "html2rss_first_fetches_total{{result=\"{result}\"}} {count}");
    }
    family(
        &mut out,
        "html2rss_feed_cache_requests_total",
        "counter",
        "Stored feeds answered from the cache of filled feeds (hit) or from the store (miss).",
    );
    let _ = writeln!(
        out,
        "html2rss_feed_cache_requests_total{{result=\"hit\"}} {}\nhtml2rss_feed_cache_requests_total{{result=\"miss\"}} {}",
        state.metrics.cache_hits.load(Ordering::Relaxed),
        state.metrics.cache_misses.load(Ordering::Relaxed)
    );
    let (entries, bytes) = state.cache.usage();
    family(&mut out, "html2rss_feed_cache_bytes", "gauge", "Bytes of rendered feeds kept.");
    let _ = writeln!(out, "html2rss_feed_cache_bytes {bytes}");
    family(&mut out, "html2rss_feed_cache_entries", "gauge", "Rendered feeds kept.");
    let _ = writeln!(out, "html2rss_feed_cache_entries {entries}");

    let updater = state.ctx.stats.snapshot();
    family(&mut out, "html2rss_fetches_total", "counter", "Pages and feeds fetched (first requests and updater).");
    let _ = writeln!(out, "html2rss_fetches_total {}", updater.fetches);
    family(&mut out, "html2rss_fetch_errors_total", "counter", "Failed fetches, by kind.");
    for (kind, count) in &updater.fetch_errors {
        let _ = writeln!(out, "html2rss_fetch_errors_total{{kind=\"{kind}\"}} {count}");
    }
    family(&mut out, "html2rss_refreshes_total", "counter", "Refreshes of sources, by outcome.");
    for (outcome, count) in &updater.refreshes {
        let _ = writeln!(out, "html2rss_refreshes_total{{outcome=\"{}\"}} {count}", outcome.as_str());
    }
    family(&mut out, "html2rss_refresh_seconds_total", "counter", "Time spent refreshing sources.");
    let _ = writeln!(out, "html2rss_refresh_seconds_total {:.3}", updater.refresh_seconds);
    family(&mut out, "html2rss_articles_total", "counter", "Item pages read for full text, by outcome.");
    let _ = writeln!(out, "html2rss_articles_total{{outcome=\"enriched\"}} {}", updater.articles_enriched);
    let _ = writeln!(out, "html2rss_articles_total{{outcome=\"failed\"}} {}", updater.articles_failed);
    family(
        &mut out,
        "html2rss_article_dates_total",
        "counter",
        "Item pages read for the dates of items whose list page shows none, by outcome.",
    );
    let dates = updater.article_dates;
    for (outcome, count) in [("dated", dates.dated), ("not-found", dates.not_found), ("failed", dates.failed)] {
        let _ = writeln!(out, "html2rss_article_dates_total{{outcome=\"{outcome}\"}} {count}");
    }
    family(&mut out, "html2rss_items_new_total", "counter", "Items seen for the first time.");
    let _ = writeln!(out, "html2rss_items_new_total {}", updater.items_new);
    family(&mut out, "html2rss_items_changed_total", "counter", "Known items whose fields changed.");
    let _ = writeln!(out, "html2rss_items_changed_total {}", updater.items_changed);

    family(&mut out, "html2rss_items", "gauge", "Items stored.");
    let _ = writeln!(out, "html2rss_items {}", stats.items);
    family(&mut out, "html2rss_sources", "gauge", "Sources stored.");
    let _ = writeln!(out, "html2rss_sources {}", stats.sources);
    family(&mut out, "html2rss_sources_by_health", "gauge", "Sources by health (failing: the last fetch failed).");
    for (health, count) in
        [("failing", stats.failing), ("unhealthy", stats.unhealthy), ("stopped-matching", stats.stopped_matching)]
    {
        let _ = writeln!(out, "html2rss_sources_by_health{{health=\"{health}\"}} {count}");
    }
    family(&mut out, "html2rss_rules", "gauge", "Uploaded mapping rules.");
    let _ = writeln!(out, "html2rss_rules {}", stats.rules);
    family(&mut out, "html2rss_updater_queue", "gauge", "Sources due for a refresh now (fresh ones included).");
    let _ = writeln!(out, "html2rss_updater_queue {}", stats.due);
    family(&mut out, "html2rss_updater_fresh_sources", "gauge", "Sources never fetched yet.");
    let _ = writeln!(out, "html2rss_updater_fresh_sources {}", stats.fresh);
    if let Some(leases) = state.ctx.hosts.lease_counts() {
        family(
            &mut out,
            "html2rss_host_leases_total",
            "counter",
            "Tries at a host's lease in the shared store, by result (busy: another request holds the host; \
             quiet: its delay is not over; unanswered: the store failed, and politeness held in this server only).",
        );
        for (result, count) in
            [("taken", leases.taken), ("busy", leases.busy), ("quiet", leases.quiet), ("unanswered", leases.unanswered)]
        {
            let _ = writeln!(out, "html2rss_host_leases_total{{result=\"{result}\"}} {count}");
        }
    }
    if let Some(pool) = &state.pool {
        let workers = pool.workers();
        family(&mut out, "html2rss_updater_workers", "gauge", "Updater workers, by kind.");
        let fresh = workers.iter().filter(|w| w.fresh_only).count();
        let _ = writeln!(out, "html2rss_updater_workers{{kind=\"fresh\"}} {fresh}");
        let _ = writeln!(out, "html2rss_updater_workers{{kind=\"normal\"}} {}", workers.len() - fresh);
        family(&mut out, "html2rss_updater_busy_workers", "gauge", "Updater workers refreshing a source now.");
        let _ = writeln!(
            out,
            "html2rss_updater_busy_workers {}",
            workers.iter().filter(|w| w.refreshing.is_some()).count()
        );
    }
    HttpResponse::Ok().content_type("text/plain; version=0.0.4; charset=utf-8").body(out)
}
