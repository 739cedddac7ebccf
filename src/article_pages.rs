//! Items' article pages, fetched politely and read by [`crate::engines::enrich`] for their
//! full text. The server's updater and `extract --full-text` both use [`ArticlePages`].
//!
//! Politeness is the updater's own: one request at a time per host with the gate's minimum
//! delay between requests ([`HostGate`], shared with page refreshes in the server, so an
//! enrichment never hammers a host the updater is also fetching), `Retry-After` and back-off.
//! Pages of different hosts are fetched concurrently, up to a bound. Each distinct URL is
//! fetched once per run, whatever number of items link to it. Parsing and extraction run on
//! the blocking pool, off the async workers, after the host's permit is released.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use url::Url;

use crate::dom::{self, ParseOptions};
use crate::engines::enrich::{Found, read_article};
use crate::engines::rules::Rule;
use crate::fetch::{FetchError, Fetcher, HostGate};
use crate::model::Item;

/// Why an item's page gave no full text. The item stays as it was.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ArticlePageError {
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error("{url} cannot be read as a page: {reason}")]
    Page { url: String, reason: String },
    #[error("no article content found on {url}")]
    NoContent { url: String },
    #[error("reading {url} stopped unexpectedly: {reason}")]
    Task { url: String, reason: String },
}

/// What happened to one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Its page gave it content.
    Enriched,
    /// Not tried: it has content already, or no http(s) link.
    Skipped,
    /// Not tried: the run's page budget was spent, or the host asked for a long quiet; a
    /// later run may do it.
    Deferred,
    /// Its page failed: the index into [`EnrichReport::failures`].
    Failed(usize),
}

/// What a run did.
#[derive(Debug, Default)]
pub struct EnrichReport {
    /// One per item given, in order.
    pub outcomes: Vec<Outcome>,
    /// Pages asked for (each distinct URL once).
    pub requested: usize,
    /// The pages that failed, each once, with why.
    pub failures: Vec<(Url, ArticlePageError)>,
}

impl EnrichReport {
    /// Items that got content.
    pub fn enriched(&self) -> usize {
        self.count(|o| o == Outcome::Enriched)
    }

    /// Items whose page failed.
    pub fn failed(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Failed(_)))
    }

    /// Items left for a later run by the page budget.
    pub fn deferred(&self) -> usize {
        self.count(|o| o == Outcome::Deferred)
    }

    fn count(&self, f: impl Fn(Outcome) -> bool) -> usize {
        self.outcomes.iter().filter(|&&o| f(o)).count()
    }
}

/// Fetches items' pages and gives the items their full text.
pub struct ArticlePages<'a> {
    pub fetcher: &'a Fetcher,
    /// One request at a time per host, with its minimum delay.
    pub gate: &'a HostGate,
    /// Pages in flight at once (to different hosts: one host gets one at a time).
    pub concurrency: usize,
    /// Most distinct pages one run fetches; items beyond are [`Outcome::Deferred`].
    pub max_pages: usize,
    /// Longest quiet a host may ask for (its `Retry-After`, a back-off after errors) before
    /// its pages are left for a later run ([`Outcome::Deferred`]) instead of waited for.
    pub patience: Duration,
}

/// What reading one page gave.
enum Read {
    Found(Vec<Found>),
    /// The host asked for more quiet than the run's patience.
    HostResting,
    Failed(ArticlePageError),
}

/// One distinct page and the items that link to it.
struct Wanted {
    url: Url,
    items: Vec<usize>,
}

/// The pages in an order that takes each host in turn (and keeps each host's own order), so
/// that the bounded concurrency is not spent waiting for one host's turn while others idle.
fn alternate_hosts(pages: Vec<Wanted>) -> Vec<Wanted> {
    let total = pages.len();
    let mut by_host: Vec<(String, VecDeque<Wanted>)> = Vec::new();
    for page in pages {
        let host = page.url.host_str().unwrap_or_default().to_ascii_lowercase();
        match by_host.iter_mut().find(|(h, _)| *h == host) {
            Some((_, queue)) => queue.push_back(page),
            None => by_host.push((host, VecDeque::from([page]))),
        }
    }
    let mut ordered = Vec::with_capacity(total);
    while ordered.len() < total {
        ordered.extend(by_host.iter_mut().filter_map(|(_, queue)| queue.pop_front()));
    }
    ordered
}

impl ArticlePages<'_> {
    /// Give every item without content the content, author, and missing date and title of its
    /// linked page; `template` is the site's template, whose article part wins where it finds
    /// something. Items whose page fails stay as they were.
    pub async fn enrich(&self, template: Option<Arc<Rule>>, items: &mut [Item], now: DateTime<Utc>) -> EnrichReport {
        let mut outcomes = vec![Outcome::Skipped; items.len()];
        let mut wanted: Vec<Wanted> = Vec::new();
        let mut seen: HashMap<Url, usize> = HashMap::new();
        for (index, item) in items.iter().enumerate() {
            let fetchable = |l: &&Url| matches!(l.scheme(), "http" | "https") && item.content.is_none();
            let Some(link) = item.link.as_ref().filter(fetchable) else { continue };
            // The fragment is not sent: `/post#comments` and `/post` are one page.
            let mut url = link.clone();
            url.set_fragment(None);
            if let Some(&page) = seen.get(&url) {
                wanted[page].items.push(index);
            } else if wanted.len() < self.max_pages {
                seen.insert(url.clone(), wanted.len());
                wanted.push(Wanted { url, items: vec![index] });
            } else {
                outcomes[index] = Outcome::Deferred;
            }
        }
        let requested = wanted.len();
        let jobs: Vec<_> = alternate_hosts(wanted)
            .into_iter()
            .map(|page| {
                let hints: Vec<Item> = page.items.iter().map(|&i| items[i].clone()).collect();
                let template = template.clone();
                async move {
                    let found = self.read(&page.url, template, hints, now).await;
                    (page, found)
                }
            })
            .collect();
        let results: Vec<(Wanted, Read)> =
            futures_util::stream::iter(jobs).buffer_unordered(self.concurrency.max(1)).collect().await;
        let mut failures = Vec::new();
        for (page, result) in results {
            match result {
                Read::Found(found) => {
                    let mut no_content = None;
                    for (&index, found) in page.items.iter().zip(found) {
                        outcomes[index] = if found.content.is_some() {
                            found.apply_to(&mut items[index]);
                            Outcome::Enriched
                        } else {
                            Outcome::Failed(*no_content.get_or_insert_with(|| {
                                failures.push((page.url.clone(), ArticlePageError::NoContent { url: page.url.to_string() }));
                                failures.len() - 1
                            }))
                        };
                    }
                }
                Read::Failed(error) => {
                    failures.push((page.url.clone(), error));
                    for &index in &page.items {
                        outcomes[index] = Outcome::Failed(failures.len() - 1);
                    }
                }
                Read::HostResting => {
                    for &index in &page.items {
                        outcomes[index] = Outcome::Deferred;
                    }
                }
            }
        }
        EnrichReport { outcomes, requested, failures }
    }

    /// Fetch one page in its host's turn, then read it for each item that links to it.
    async fn read(&self, url: &Url, template: Option<Arc<Rule>>, items: Vec<Item>, now: DateTime<Utc>) -> Read {
        let response = {
            let Some(mut permit) = self.gate.acquire_within(url, self.patience).await else {
                return Read::HostResting;
            };
            let result = self.fetcher.get(url).await;
            permit.record(&result);
            match result {
                Ok(response) => response,
                Err(error) => return Read::Failed(error.into()),
            }
        };
        let task_url = url.to_string();
        let found = tokio::task::spawn_blocking(move || {
            let options = ParseOptions { header_charset: response.charset.clone(), ..ParseOptions::default() };
            let doc = dom::parse(&response.body, &response.url, &options)
                .map_err(|e| ArticlePageError::Page { url: response.url.to_string(), reason: e.to_string() })?;
            Ok(items.iter().map(|item| read_article(template.as_deref(), item, &doc, now)).collect())
        })
        .await;
        match found {
            Ok(Ok(found)) => Read::Found(found),
            Ok(Err(error)) => Read::Failed(error),
            Err(error) => Read::Failed(ArticlePageError::Task { url: task_url, reason: error.to_string() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_take_turns_and_keep_their_own_order() {
        let pages: Vec<Wanted> = ["a/1", "a/2", "a/3", "B/1", "c/1", "b/2"]
            .iter()
            .enumerate()
            .map(|(i, p)| Wanted { url: Url::parse(&format!("https://{p}")).unwrap(), items: vec![i] })
            .collect();
        let order: Vec<usize> = alternate_hosts(pages).iter().map(|w| w.items[0]).collect();
        assert_eq!(order, [0, 3, 4, 1, 5, 2]);
    }
}
