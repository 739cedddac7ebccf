//! Items' article pages, fetched politely and read for the items: their full text by
//! [`crate::engines::enrich`] ([`ArticlePages::enrich`]), or only their date by the generic
//! article extractor ([`ArticlePages::dates`], for items whose list page shows none). The
//! server's updater and `extract --full-text` use it.
//!
//! Politeness is the updater's own: one request at a time per host with the host's minimum
//! delay between requests ([`Hosts`], shared with page refreshes in the server and across the
//! servers of a shared store, so article pages never hammer a host the updater is also fetching), `Retry-After` and back-off.
//! Pages of different hosts are fetched concurrently, up to a bound. Each distinct URL is
//! fetched once per run, whatever number of items link to it. Parsing and extraction run on
//! the blocking pool, off the async workers, after the host's permit is released.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, FixedOffset, Utc};
use futures_util::StreamExt;
use url::Url;

use crate::dom::{self, Document, ParseOptions};
use crate::engines::article;
use crate::engines::enrich::{Found, read_article};
use crate::engines::rules::Rule;
use crate::fetch::{FetchError, Fetcher};
use crate::model::Item;
use crate::updater::Hosts;

/// Why an item's article page gave nothing. The item stays as it was.
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

/// What full text did to one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Its page gave it content.
    Enriched,
    /// Not tried: it has content already, or no http(s) link.
    Skipped,
    /// Not tried: the run's page budget was spent, or the host asked for a long quiet; a
    /// later run may do it.
    Deferred,
    /// Its page failed: the index into [`Report::failures`].
    Failed(usize),
}

/// What reading one item's page for its date gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateOutcome {
    /// The page's date: its publication, else its last modification.
    Found(DateTime<FixedOffset>),
    /// The page was read and shows no date.
    NotOnPage,
    /// Not tried: no http(s) link.
    Skipped,
    /// Not tried: the run's page budget was spent, or the host asked for a long quiet.
    Deferred,
    /// Its page failed: the index into [`Report::failures`].
    Failed(usize),
}

/// What a run did.
#[derive(Debug)]
pub struct Report<O> {
    /// One per item given, in order.
    pub outcomes: Vec<O>,
    /// Pages asked for (each distinct URL once).
    pub requested: usize,
    /// The pages that failed, each once, with why.
    pub failures: Vec<(Url, ArticlePageError)>,
}

/// What a full-text run did.
pub type EnrichReport = Report<Outcome>;
/// What a run reading dates did.
pub type DateReport = Report<DateOutcome>;

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

/// Fetches items' pages and reads them.
pub struct ArticlePages<'a> {
    pub fetcher: &'a Fetcher,
    /// One request at a time per host, with its minimum delay.
    pub hosts: &'a Hosts,
    /// Pages in flight at once (to different hosts: one host gets one at a time).
    pub concurrency: usize,
    /// Most distinct pages one run fetches; items beyond are deferred.
    pub max_pages: usize,
    /// Longest quiet a host may ask for (its `Retry-After`, a back-off after errors) before
    /// its pages are left for a later run (deferred) instead of waited for.
    pub patience: Duration,
}

/// Reads a parsed page for one item that links to it (on the blocking pool).
type Reader<T> = Arc<dyn Fn(&Document, &Item) -> T + Send + Sync>;

/// What reading one page gave: one `T` per item that links to it.
enum Read<T> {
    Found(Vec<T>),
    /// The host asked for more quiet than the run's patience.
    HostResting,
    Failed(ArticlePageError),
}

/// One distinct page and the items that link to it.
struct Wanted {
    url: Url,
    items: Vec<usize>,
}

/// What a visit gave one item.
enum Visited<T> {
    /// Its page (this URL) was read.
    Read(Url, T),
    Skipped,
    Deferred,
    /// The index into the visit's failures.
    Failed(usize),
}

/// What [`ArticlePages::visit`] gave: one [`Visited`] per item.
struct Visit<T> {
    items: Vec<Visited<T>>,
    requested: usize,
    failures: Vec<(Url, ArticlePageError)>,
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
    /// something. Items whose page fails stay as they were; a page without content still gives
    /// its author, date and title.
    pub async fn enrich(&self, template: Option<Arc<Rule>>, items: &mut [Item], now: DateTime<Utc>) -> EnrichReport {
        let reader: Reader<Found> = Arc::new(move |doc, item| read_article(template.as_deref(), item, doc, now));
        let visit = self.visit(items, |item| item.content.is_none(), reader).await;
        let mut failures = visit.failures;
        // One failure per page, however many items link to it.
        let mut no_content: HashMap<Url, usize> = HashMap::new();
        let outcomes = visit
            .items
            .into_iter()
            .zip(items.iter_mut())
            .map(|(visited, item)| match visited {
                Visited::Read(url, found) => {
                    if found.apply_to(item) {
                        Outcome::Enriched
                    } else {
                        Outcome::Failed(*no_content.entry(url).or_insert_with_key(|url| {
                            failures.push((url.clone(), ArticlePageError::NoContent { url: url.to_string() }));
                            failures.len() - 1
                        }))
                    }
                }
                Visited::Skipped => Outcome::Skipped,
                Visited::Deferred => Outcome::Deferred,
                Visited::Failed(failure) => Outcome::Failed(failure),
            })
            .collect();
        Report { outcomes, requested: visit.requested, failures }
    }

    /// The date of each item's linked page, as the generic article extractor reads it (the
    /// publication date, else the last modification). The items are not changed.
    pub async fn dates(&self, items: &[Item]) -> DateReport {
        let reader: Reader<Option<DateTime<FixedOffset>>> = Arc::new(|doc, item| {
            let title = (!item.title.trim().is_empty()).then(|| item.title.clone());
            let (published, modified) = article::dates(doc, &article::Hints { title, ..article::Hints::default() });
            published.or(modified).map(|found| found.date)
        });
        let visit = self.visit(items, |_| true, reader).await;
        let outcomes = visit
            .items
            .into_iter()
            .map(|visited| match visited {
                Visited::Read(_, Some(date)) => DateOutcome::Found(date),
                Visited::Read(_, None) => DateOutcome::NotOnPage,
                Visited::Skipped => DateOutcome::Skipped,
                Visited::Deferred => DateOutcome::Deferred,
                Visited::Failed(failure) => DateOutcome::Failed(failure),
            })
            .collect();
        Report { outcomes, requested: visit.requested, failures: visit.failures }
    }

    /// Fetch the distinct pages of the items with an http(s) link that `wanted` picks (the
    /// fragment is not sent: `/post#comments` and `/post` are one page), at most `max_pages`,
    /// each in its host's turn, and read each with `reader` for every item that links to it.
    async fn visit<T: Send + 'static>(
        &self,
        items: &[Item],
        wanted: impl Fn(&Item) -> bool,
        reader: Reader<T>,
    ) -> Visit<T> {
        let mut visited: Vec<Visited<T>> = items.iter().map(|_| Visited::Skipped).collect();
        let mut pages: Vec<Wanted> = Vec::new();
        let mut seen: HashMap<Url, usize> = HashMap::new();
        for (index, item) in items.iter().enumerate() {
            let fetchable = |l: &&Url| matches!(l.scheme(), "http" | "https") && wanted(item);
            let Some(link) = item.link.as_ref().filter(fetchable) else { continue };
            let mut url = link.clone();
            url.set_fragment(None);
            if let Some(&page) = seen.get(&url) {
                pages[page].items.push(index);
            } else if pages.len() < self.max_pages {
                seen.insert(url.clone(), pages.len());
                pages.push(Wanted { url, items: vec![index] });
            } else {
                visited[index] = Visited::Deferred;
            }
        }
        let requested = pages.len();
        let jobs: Vec<_> = alternate_hosts(pages)
            .into_iter()
            .map(|page| {
                let hints: Vec<Item> = page.items.iter().map(|&i| items[i].clone()).collect();
                let reader = reader.clone();
                async move {
                    let read = self.read(&page.url, hints, reader).await;
                    (page, read)
                }
            })
            .collect();
        let results: Vec<(Wanted, Read<T>)> =
            futures_util::stream::iter(jobs).buffer_unordered(self.concurrency.max(1)).collect().await;
        let mut failures = Vec::new();
        for (page, read) in results {
            match read {
                Read::Found(found) => {
                    for (&index, found) in page.items.iter().zip(found) {
                        visited[index] = Visited::Read(page.url.clone(), found);
                    }
                }
                Read::Failed(error) => {
                    failures.push((page.url.clone(), error));
                    for &index in &page.items {
                        visited[index] = Visited::Failed(failures.len() - 1);
                    }
                }
                Read::HostResting => {
                    for &index in &page.items {
                        visited[index] = Visited::Deferred;
                    }
                }
            }
        }
        Visit { items: visited, requested, failures }
    }

    /// Fetch one page in its host's turn, then read it for each item that links to it.
    async fn read<T: Send + 'static>(&self, url: &Url, items: Vec<Item>, reader: Reader<T>) -> Read<T> {
        let response = {
            let Some(mut permit) = self.hosts.acquire_within(url, self.patience).await else {
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
            Ok(items.iter().map(|item| reader(&doc, item)).collect())
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
