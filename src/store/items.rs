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

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, FixedOffset, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{OptionalExtension, Row, ToSql, TransactionBehavior, params};
use serde::Serialize;
use url::Url;

use super::sources::{self, Source, SourceId, engine_name};
use super::{Result, Rfc3339, Seconds, Store, StoreError, bad_column, seconds, unsigned};
use crate::engines::Extraction;
use crate::feed;
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
}

impl ToSql for DateOrigin {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for DateOrigin {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        [DateOrigin::Page, DateOrigin::FirstSeen, DateOrigin::Article]
            .into_iter()
            .find(|o| Ok(o.as_str()) == value.as_str())
            .ok_or(FromSqlError::InvalidType)
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
struct Fields {
    subject: Option<String>,
    title: String,
    link: Option<String>,
    date: String,
    description: Option<String>,
    content: Option<String>,
    author: Option<String>,
}

impl Store {
    /// Merge an extraction of a source's page into its items, in one transaction; also keep
    /// the page's title, date and encoding and the engine that made it. `last_change` becomes
    /// `now` when an item was added or changed.
    pub fn merge(&self, id: SourceId, extraction: &Extraction, now: DateTime<Utc>) -> Result<MergeReport> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let page = &extraction.page;
            let found = tx
                .prepare_cached(
                    "UPDATE sources SET engine = ?2, confidence = ?3, title = ?4, page_date = ?5, encoding = ?6,
                            feed_version = feed_version + (title IS NOT ?4 OR page_date IS NOT ?5)
                     WHERE id = ?1",
                )?
                .execute(params![
                    id.0,
                    engine_name(extraction.engine),
                    f64::from(extraction.confidence),
                    page.title,
                    page.date.map(Rfc3339),
                    page.encoding,
                ])?;
            if found == 0 {
                return Err(StoreError::NoSuchSource(id.0));
            }
            let mut report = MergeReport::default();
            let mut seen = HashSet::new();
            let mut select = tx.prepare_cached(
                "SELECT id, subject, title, link, date, description, content, author
                 FROM items WHERE source_id = ?1 AND guid = ?2",
            )?;
            let mut insert = tx.prepare_cached(
                "INSERT INTO items (source_id, guid, subject, title, link, date, date_ts, description, content, author,
                                    position, first_seen, last_seen, date_origin)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?13)",
            )?;
            // A date the page gives now wins over a first-seen or article date.
            let mut update = tx.prepare_cached(
                "UPDATE items SET subject = ?2, title = ?3, link = ?4, date = ?5, date_ts = ?6, description = ?7,
                                  content = ?8, author = ?9, position = ?10, last_seen = ?11,
                                  date_origin = CASE WHEN ?12 THEN 'page' ELSE date_origin END
                 WHERE id = ?1",
            )?;
            for (position, (subject, item)) in page.items_with_subject().enumerate() {
                let guid = feed::guid(item);
                if !seen.insert(guid.clone()) {
                    report.duplicates += 1;
                    continue;
                }
                let stored = select.query_row(params![id.0, guid], stored_fields).optional()?;
                let now_fields = |keep: Option<&Fields>| {
                    let or_kept = |new: Option<&str>, old: Option<&Option<String>>| {
                        new.map(str::to_string).or_else(|| old.cloned().flatten())
                    };
                    let title = match (item.title.trim().is_empty(), keep) {
                        (true, Some(old)) => old.title.clone(),
                        _ => item.title.clone(),
                    };
                    let date = match (item.date, keep) {
                        (Some(date), _) => date.to_rfc3339(),
                        (None, Some(old)) => old.date.clone(),
                        (None, None) => now.fixed_offset().to_rfc3339(),
                    };
                    Fields {
                        subject: or_kept(subject, keep.map(|k| &k.subject)),
                        title,
                        link: or_kept(item.link.as_ref().map(Url::as_str), keep.map(|k| &k.link)),
                        date,
                        description: or_kept(item.description.as_deref(), keep.map(|k| &k.description)),
                        content: or_kept(item.content.as_deref(), keep.map(|k| &k.content)),
                        author: or_kept(item.author.as_deref(), keep.map(|k| &k.author)),
                    }
                };
                match stored {
                    None => {
                        let f = now_fields(None);
                        let date_ts = timestamp(&f.date)?;
                        insert.execute(params![
                            id.0,
                            guid,
                            f.subject,
                            f.title,
                            f.link,
                            f.date,
                            date_ts,
                            f.description,
                            f.content,
                            f.author,
                            position as i64,
                            seconds(now),
                            if item.date.is_some() { DateOrigin::Page } else { DateOrigin::FirstSeen },
                        ])?;
                        report.new += 1;
                    }
                    Some((row_id, old)) => {
                        let f = now_fields(Some(&old));
                        let date_ts = timestamp(&f.date)?;
                        if f == old {
                            report.unchanged += 1;
                        } else {
                            report.changed += 1;
                        }
                        update.execute(params![
                            row_id,
                            f.subject,
                            f.title,
                            f.link,
                            f.date,
                            date_ts,
                            f.description,
                            f.content,
                            f.author,
                            position as i64,
                            seconds(now),
                            item.date.is_some(),
                        ])?;
                    }
                }
            }
            drop((select, insert, update));
            tx.prepare_cached(
                "UPDATE sources SET item_count = item_count + ?2,
                                    last_change = CASE WHEN ?3 THEN ?4 ELSE last_change END,
                                    feed_version = feed_version + ?3
                 WHERE id = ?1",
            )?
            .execute(params![id.0, report.new as i64, report.new + report.changed > 0, seconds(now)])?;
            tx.commit()?;
            Ok(report)
        })
    }

    /// The newest `limit` items of a source: by date, newest first; items of the same date in
    /// page order.
    pub fn items(&self, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
        self.with(|conn| newest(conn, id, limit))
    }

    /// A source's feed: its page with the newest `limit` items, grouped into subjects where
    /// neighbours share one. `None` for an unknown source.
    pub fn feed(&self, id: SourceId, limit: usize) -> Result<Option<StoredFeed>> {
        self.with(|conn| {
            let Some(source) = sources::get(conn, id)? else { return Ok(None) };
            let items = newest(conn, id, limit)?;
            Ok(Some(StoredFeed { page: page_of(&source, items), source }))
        })
    }
}

fn stored_fields(row: &Row) -> rusqlite::Result<(i64, Fields)> {
    Ok((
        row.get(0)?,
        Fields {
            subject: row.get(1)?,
            title: row.get(2)?,
            link: row.get(3)?,
            date: row.get(4)?,
            description: row.get(5)?,
            content: row.get(6)?,
            author: row.get(7)?,
        },
    ))
}

fn timestamp(rfc3339: &str) -> rusqlite::Result<i64> {
    DateTime::parse_from_rfc3339(rfc3339).map(|d| d.timestamp()).map_err(|e| bad_column(5, e))
}

fn newest(conn: &rusqlite::Connection, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
    let mut statement = conn.prepare_cached(
        "SELECT guid, subject, title, link, date, description, content, author, first_seen, last_seen, date_origin
         FROM items WHERE source_id = ?1 ORDER BY date_ts DESC, position, id LIMIT ?2",
    )?;
    let rows = statement.query_map(params![id.0, i64::try_from(limit).unwrap_or(i64::MAX)], stored_item)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A row of `guid, subject, title, link, date, description, content, author, first_seen,
/// last_seen, date_origin`.
fn stored_item(row: &Row) -> rusqlite::Result<StoredItem> {
    let link = match row.get::<_, Option<String>>(3)? {
        Some(link) => Some(Url::parse(&link).map_err(|e| bad_column(3, e))?),
        None => None,
    };
    Ok(StoredItem {
        guid: row.get(0)?,
        subject: row.get(1)?,
        item: Item {
            title: row.get(2)?,
            link,
            date: Some(row.get::<_, Rfc3339>(4)?.0),
            description: row.get(5)?,
            content: row.get(6)?,
            author: row.get(7)?,
        },
        first_seen: row.get::<_, Seconds>(8)?.0,
        last_seen: row.get::<_, Seconds>(9)?.0,
        date_origin: row.get(10)?,
    })
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
        self.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT guid, subject, title, link, date, description, content, author, first_seen, last_seen,
                        date_origin
                 FROM items
                 WHERE source_id = ?1 AND content IS NULL AND article_attempts < ?3
                   AND (link LIKE 'http://%' OR link LIKE 'https://%')
                 ORDER BY date_ts DESC, position, id LIMIT ?2",
            )?;
            let rows = statement
                .query_map(params![id.0, i64::try_from(limit).unwrap_or(i64::MAX), max_attempts], stored_item)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    /// Keep what items' article pages gave, in one transaction: content (only for items that
    /// still have none), author and title where the item has none; a failure only counts the
    /// attempt and keeps its reason. When content was stored, the feed changed (`last_change`,
    /// `feed_version`). Returns how many items got content.
    pub fn record_articles(&self, id: SourceId, updates: &[ArticleUpdate], now: DateTime<Utc>) -> Result<usize> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut stored = 0;
            {
                let mut found = tx.prepare_cached(
                    "UPDATE items SET content = ?3, author = coalesce(author, ?4),
                            title = CASE WHEN trim(title) = '' AND ?5 IS NOT NULL THEN ?5 ELSE title END,
                            article_attempts = article_attempts + 1, article_error = NULL
                     WHERE source_id = ?1 AND guid = ?2 AND content IS NULL",
                )?;
                let mut failed = tx.prepare_cached(
                    "UPDATE items SET article_attempts = article_attempts + 1, article_error = ?3
                     WHERE source_id = ?1 AND guid = ?2",
                )?;
                for update in updates {
                    match &update.outcome {
                        Ok(fields) => {
                            stored += found.execute(params![
                                id.0,
                                update.guid,
                                fields.content,
                                fields.author,
                                fields.title
                            ])?;
                        }
                        Err(reason) => {
                            failed.execute(params![id.0, update.guid, reason])?;
                        }
                    }
                }
            }
            if stored > 0 {
                tx.prepare_cached(
                    "UPDATE sources SET last_change = ?2, feed_version = feed_version + 1 WHERE id = ?1",
                )?
                .execute(params![id.0, seconds(now)])?;
            }
            tx.commit()?;
            Ok(stored)
        })
    }

    /// [`ArticleCounts`] of every source that has full text on.
    pub fn article_counts(&self) -> Result<HashMap<SourceId, ArticleCounts>> {
        self.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT i.source_id, count(*), count(i.content),
                        coalesce(sum(i.content IS NULL AND i.article_error IS NOT NULL), 0)
                 FROM items i JOIN sources s ON s.id = i.source_id
                 WHERE s.full_text
                 GROUP BY i.source_id",
            )?;
            let rows = statement.query_map([], |row| {
                Ok((
                    SourceId(row.get(0)?),
                    ArticleCounts {
                        items: unsigned(row, 1)?,
                        with_content: unsigned(row, 2)?,
                        failed: unsigned(row, 3)?,
                    },
                ))
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
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
        self.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT guid, subject, title, link, date, description, content, author, first_seen, last_seen,
                        date_origin
                 FROM items
                 WHERE source_id = ?1 AND date_origin = 'first-seen' AND date_attempts < ?3
                   AND (link LIKE 'http://%' OR link LIKE 'https://%')
                   AND NOT (?4 AND content IS NULL AND article_attempts < ?3)
                 ORDER BY date_ts DESC, position, id LIMIT ?2",
            )?;
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let rows = statement.query_map(params![id.0, limit, max_attempts, full_text], stored_item)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
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
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut dated = 0;
            {
                let mut found = tx.prepare_cached(
                    "UPDATE items SET date = ?3, date_ts = ?4, date_origin = 'article', date_attempts = date_attempts + 1
                     WHERE source_id = ?1 AND guid = ?2 AND date_origin = 'first-seen'",
                )?;
                let mut tried = tx.prepare_cached(
                    "UPDATE items SET date_attempts = max(date_attempts + 1, ?3)
                     WHERE source_id = ?1 AND guid = ?2 AND date_origin = 'first-seen'",
                )?;
                for update in updates {
                    match update.read {
                        DateRead::Found(date) => {
                            dated += found.execute(params![id.0, update.guid, Rfc3339(date), date.timestamp()])?;
                        }
                        DateRead::NotOnPage => {
                            tried.execute(params![id.0, update.guid, max_attempts])?;
                        }
                        DateRead::Failed => {
                            tried.execute(params![id.0, update.guid, 0])?;
                        }
                    }
                }
            }
            if dated > 0 {
                tx.prepare_cached(
                    "UPDATE sources SET last_change = ?2, feed_version = feed_version + 1 WHERE id = ?1",
                )?
                .execute(params![id.0, seconds(now)])?;
            }
            tx.commit()?;
            Ok(dated)
        })
    }

    /// [`DateCounts`] of every source with items whose list page gave no date; an item whose
    /// page was tried `max_attempts` times is counted as not found.
    pub fn date_counts(&self, max_attempts: u32) -> Result<HashMap<SourceId, DateCounts>> {
        self.with(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT source_id, count(*), coalesce(sum(date_origin = 'article'), 0),
                        coalesce(sum(date_origin = 'first-seen' AND date_attempts >= ?1), 0)
                 FROM items WHERE date_origin != 'page'
                 GROUP BY source_id",
            )?;
            let rows = statement.query_map([max_attempts], |row| {
                Ok((
                    SourceId(row.get(0)?),
                    DateCounts {
                        undated: unsigned(row, 1)?,
                        from_articles: unsigned(row, 2)?,
                        not_found: unsigned(row, 3)?,
                    },
                ))
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}
