//! Items on SQLite.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{OptionalExtension, Row, ToSql, TransactionBehavior, params};
use url::Url;

use super::{Rfc3339, Seconds, Sqlite, bad_column, seconds, sources, unsigned};
use crate::engines::Extraction;
use crate::feed;
use crate::model::Item;
use crate::store::items::{
    ArticleCounts, ArticleUpdate, DateCounts, DateOrigin, DateRead, DateUpdate, Fields, MergeReport, StoredItem,
};
use crate::store::sources::{Source, SourceId, engine_name};
use crate::store::{Result, StoreError, signed};

impl ToSql for DateOrigin {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for DateOrigin {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        DateOrigin::parse(value.as_str()?).ok_or(FromSqlError::InvalidType)
    }
}

impl Sqlite {
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
                match stored {
                    None => {
                        let f = Fields::merged(subject, item, None, now);
                        let date_ts = f.date_ts().map_err(|e| bad_column(5, e))?;
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
                        let f = Fields::merged(subject, item, Some(&old), now);
                        let date_ts = f.date_ts().map_err(|e| bad_column(5, e))?;
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

    pub fn items(&self, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
        self.with(|conn| newest(conn, id, limit))
    }

    pub fn feed(&self, id: SourceId, limit: usize) -> Result<Option<(Source, Vec<StoredItem>)>> {
        self.with(|conn| {
            let Some(source) = sources::get(conn, id)? else { return Ok(None) };
            Ok(Some((source, newest(conn, id, limit)?)))
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

fn newest(conn: &rusqlite::Connection, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
    let mut statement = conn.prepare_cached(
        "SELECT guid, subject, title, link, date, description, content, author, first_seen, last_seen, date_origin
         FROM items WHERE source_id = ?1 ORDER BY date_ts DESC, position, id LIMIT ?2",
    )?;
    let rows = statement.query_map(params![id.0, signed(limit)], stored_item)?;
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

impl Sqlite {
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
            let rows = statement.query_map(params![id.0, signed(limit), max_attempts], stored_item)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

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

impl Sqlite {
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
            let limit = signed(limit);
            let rows = statement.query_map(params![id.0, limit, max_attempts, full_text], stored_item)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

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
