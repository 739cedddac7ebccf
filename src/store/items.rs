//! Items: what sources' pages listed, accumulated like a real feed.
//!
//! An item is identified by its source and [`feed::guid`]. The first time it is seen it gets
//! `first_seen = now` and, when the page gives no date, that time as its date, so a reader
//! sees an undated item once, with a date that later sightings do not move; only its article
//! page's date may replace it, once ([`Store::record_dates`]; [`DateOrigin`] says where a
//! date comes from). Later sightings update `last_seen`, its position and whatever the page
//! now says (a field the page no longer gives keeps its stored value). Nothing is deleted: an
//! item that scrolled off the page stays in the feed until newer ones push it out of the
//! newest N.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset, Utc};
use serde::Serialize;
use url::Url;

use super::sources::{Source, SourceId};
use super::{Result, Store, backend};
use crate::engines::Extraction;
use crate::model::{Item, Page, Subject};

/// What a merge did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct MergeReport {
    /// Items seen for the first time.
    pub new: usize,
    /// Known items whose title, link, date, text or author changed.
    pub changed: usize,
    /// Known items seen again as they were.
    pub unchanged: usize,
    /// Items the page listed twice (same GUID); the first one counts.
    pub duplicates: usize,
}

/// An item with its bookkeeping.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredItem {
    pub guid: String,
    /// The title of the subject the item was listed under.
    pub subject: Option<String>,
    /// The item; its date is always set (first seen, for undated items).
    pub item: Item,
    /// Where the item's date comes from.
    pub date_origin: DateOrigin,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
}

/// Where a stored item's date comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DateOrigin {
    /// Its list page (items stored before article dates existed count as this too).
    Page,
    /// The list page gave none: the time the item was first seen.
    FirstSeen,
    /// The list page gave none; its article page did.
    Article,
}

impl DateOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            DateOrigin::Page => "page",
            DateOrigin::FirstSeen => "first-seen",
            DateOrigin::Article => "article",
        }
    }

    pub(super) fn parse(text: &str) -> Option<DateOrigin> {
        [DateOrigin::Page, DateOrigin::FirstSeen, DateOrigin::Article].into_iter().find(|o| o.as_str() == text)
    }
}

/// A source and its newest items as a page, ready for [`feed::write`].
#[derive(Debug, Clone)]
pub struct StoredFeed {
    pub source: Source,
    pub page: Page,
}

/// The stored fields of an item, as compared and written by a merge.
#[derive(Debug, PartialEq)]
pub(super) struct Fields {
    pub subject: Option<String>,
    pub title: String,
    pub link: Option<String>,
    /// RFC 3339 with the page's offset.
    pub date: String,
    pub description: Option<String>,
    pub content: Option<String>,
    pub author: Option<String>,
}

impl Fields {
    /// What a merge stores for an item the page lists under `subject`: what the page says now;
    /// a field it no longer gives keeps its `kept` value (`None`: a new item), and an item
    /// without a date keeps its stored one, or is dated `now` when new.
    pub(super) fn merged(subject: Option<&str>, item: &Item, kept: Option<&Fields>, now: DateTime<Utc>) -> Fields {
        let or_kept = |new: Option<&str>, old: Option<&Option<String>>| {
            new.map(str::to_string).or_else(|| old.cloned().flatten())
        };
        let title = match (item.title.trim().is_empty(), kept) {
            (true, Some(old)) => old.title.clone(),
            _ => item.title.clone(),
        };
        let date = match (item.date, kept) {
            (Some(date), _) => date.to_rfc3339(),
            (None, Some(old)) => old.date.clone(),
            (None, None) => now.fixed_offset().to_rfc3339(),
        };
        Fields {
            subject: or_kept(subject, kept.map(|k| &k.subject)),
            title,
            link: or_kept(item.link.as_ref().map(Url::as_str), kept.map(|k| &k.link)),
            date,
            description: or_kept(item.description.as_deref(), kept.map(|k| &k.description)),
            content: or_kept(item.content.as_deref(), kept.map(|k| &k.content)),
            author: or_kept(item.author.as_deref(), kept.map(|k| &k.author)),
        }
    }

    /// The date in Unix seconds, for ordering.
    pub(super) fn date_ts(&self) -> std::result::Result<i64, chrono::ParseError> {
        DateTime::parse_from_rfc3339(&self.date).map(|d| d.timestamp())
    }
}

impl Store {
    /// Merge an extraction of a source's page into its items, in one transaction; also keep
    /// the page's title, date and encoding and the engine that made it. `last_change` becomes
    /// `now` when an item was added or changed.
    pub fn merge(&self, id: SourceId, extraction: &Extraction, now: DateTime<Utc>) -> Result<MergeReport> {
        backend!(self, merge(id, extraction, now))
    }

    /// The newest `limit` items of a source: by date, newest first; items of the same date in
    /// page order.
    pub fn items(&self, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
        backend!(self, items(id, limit))
    }

    /// A source's feed: its page with the newest `limit` items, grouped into subjects where
    /// neighbours share one. `None` for an unknown source.
    pub fn feed(&self, id: SourceId, limit: usize) -> Result<Option<StoredFeed>> {
        Ok(backend!(self, feed(id, limit))?.map(|(source, items)| StoredFeed { page: page_of(&source, items), source }))
    }
}

fn page_of(source: &Source, items: Vec<StoredItem>) -> Page {
    let mut page = Page::new(
        source.url.clone(),
        source.title.clone().unwrap_or_default(),
        source.encoding.clone().unwrap_or_else(|| "UTF-8".into()),
    );
    page.date = source.page_date;
    for stored in items {
        match page.subjects.last_mut() {
            Some(last) if last.title == stored.subject => last.items.push(stored.item),
            _ => page.subjects.push(Subject { title: stored.subject, items: vec![stored.item] }),
        }
    }
    page
}

/// What reading an item's article page gave, for [`Store::record_articles`].
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleUpdate {
    pub guid: String,
    /// The page's content (sanitized HTML), author and title; or why it gave none.
    pub outcome: std::result::Result<ArticleFields, String>,
}

/// The fields an article page gives a stored item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArticleFields {
    pub content: String,
    /// Kept only where the item has no author.
    pub author: Option<String>,
    /// Kept only where the item's title is empty.
    pub title: Option<String>,
}

/// How a full-text source's items stand, for the admin page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ArticleCounts {
    pub items: u64,
    /// Items with content.
    pub with_content: u64,
    /// Items without content whose last attempt failed.
    pub failed: u64,
}

impl Store {
    /// A source's newest items that have an http(s) link and no content, and whose article
    /// page was tried fewer than `max_attempts` times: the ones to enrich, newest first.
    pub fn items_without_content(&self, id: SourceId, limit: usize, max_attempts: u32) -> Result<Vec<StoredItem>> {
        backend!(self, items_without_content(id, limit, max_attempts))
    }

    /// Keep what items' article pages gave, in one transaction: content (only for items that
    /// still have none), author and title where the item has none; a failure only counts the
    /// attempt and keeps its reason. When content was stored, the feed changed (`last_change`,
    /// `feed_version`). Returns how many items got content.
    pub fn record_articles(&self, id: SourceId, updates: &[ArticleUpdate], now: DateTime<Utc>) -> Result<usize> {
        backend!(self, record_articles(id, updates, now))
    }

    /// [`ArticleCounts`] of every source that has full text on.
    pub fn article_counts(&self) -> Result<HashMap<SourceId, ArticleCounts>> {
        backend!(self, article_counts())
    }
}

/// What reading an item's article page for its date gave, for [`Store::record_dates`].
#[derive(Debug, Clone, PartialEq)]
pub struct DateUpdate {
    pub guid: String,
    pub read: DateRead,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DateRead {
    /// The item's date, from its article page.
    Found(DateTime<FixedOffset>),
    /// The page was read and gives no date the item can take: it is not read again.
    NotOnPage,
    /// The page could not be had; it is tried again while attempts are left.
    Failed,
}

/// How a source's items whose list page gives no date stand, for the admin page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct DateCounts {
    /// Items the list page gave no date.
    pub undated: u64,
    /// Of those, items dated by their article page.
    pub from_articles: u64,
    /// Of those, items whose article page was read (or tried as often as allowed) without a
    /// date: they keep their first-seen date.
    pub not_found: u64,
}

impl Store {
    /// A source's newest items dated by when they were first seen, with an http(s) link, whose
    /// article page was tried fewer than `max_attempts` times: the ones to read for a date,
    /// newest first. With `full_text`, items without content that full text still tries
    /// (fewer than `max_attempts` attempts) are left out: their full-text read gives the date.
    pub fn items_to_date(
        &self,
        id: SourceId,
        limit: usize,
        max_attempts: u32,
        full_text: bool,
    ) -> Result<Vec<StoredItem>> {
        backend!(self, items_to_date(id, limit, max_attempts, full_text))
    }

    /// Keep what items' article pages gave for their dates, in one transaction: a date found
    /// replaces the first-seen date (of items still dated so; a date the list page gave since
    /// wins); every read counts an attempt, and a page read without a date counts as all
    /// `max_attempts` (reading it again would give the same). When a date was stored, the feed
    /// changed (`last_change`, `feed_version`). Returns how many items got a date.
    pub fn record_dates(
        &self,
        id: SourceId,
        updates: &[DateUpdate],
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<usize> {
        backend!(self, record_dates(id, updates, max_attempts, now))
    }

    /// [`DateCounts`] of every source with items whose list page gave no date; an item whose
    /// page was tried `max_attempts` times is counted as not found.
    pub fn date_counts(&self, max_attempts: u32) -> Result<HashMap<SourceId, DateCounts>> {
        backend!(self, date_counts(max_attempts))
    }
}
