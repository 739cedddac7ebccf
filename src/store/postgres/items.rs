//! Items on PostgreSQL.

use std::collections::{HashMap, HashSet};

use tokio_postgres::Row;

use super::client::Sql;
use chrono::{DateTime, Utc};
use url::Url;

use super::{Postgres, bad_value, sources, time, unsigned};
use crate::engines::Extraction;
use crate::feed;
use crate::model::Item;
use crate::store::items::{
    ArticleCounts, ArticleUpdate, DateCounts, DateOrigin, DateRead, DateUpdate, Fields, MergeReport, StoredItem,
};
use crate::store::sources::{Source, SourceId, engine_name};
use crate::store::{Result, StoreError, signed};

const ITEM_COLUMNS: &str =
    "guid, subject, title, link, date, description, content, author, first_seen, last_seen, date_origin";

impl Postgres {
    pub fn merge(&self, id: SourceId, extraction: &Extraction, now: DateTime<Utc>) -> Result<MergeReport> {
        self.with(|client| {
            let tx = client.transaction()?;
            let page = &extraction.page;
            // Updating the source first locks its row: merges of one source (from two servers)
            // take turns, so each reads the items the other wrote.
            let found = tx.execute(
                "UPDATE sources SET engine = $2, confidence = $3, title = $4, page_date = $5, encoding = $6,
                        feed_version = feed_version
                            + CASE WHEN title IS DISTINCT FROM $4 OR page_date IS DISTINCT FROM $5 THEN 1 ELSE 0 END
                 WHERE id = $1",
                &[
                    &id.0,
                    &engine_name(extraction.engine),
                    &f64::from(extraction.confidence),
                    &page.title,
                    &page.date.map(|d| d.to_rfc3339()),
                    &page.encoding,
                ],
            )?;
            if found == 0 {
                return Err(StoreError::NoSuchSource(id.0));
            }
            let select = "SELECT id, subject, title, link, date, description, content, author
                 FROM items WHERE source_id = $1 AND guid = $2";
            let insert =
                "INSERT INTO items (source_id, guid, subject, title, link, date, date_ts, description, content, author,
                                    position, first_seen, last_seen, date_origin)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13)";
            // A date the page gives now wins over a first-seen or article date.
            let update =
                "UPDATE items SET subject = $2, title = $3, link = $4, date = $5, date_ts = $6, description = $7,
                                  content = $8, author = $9, position = $10, last_seen = $11,
                                  date_origin = CASE WHEN $12::boolean THEN 'page' ELSE date_origin END
                 WHERE id = $1";
            let mut report = MergeReport::default();
            let mut seen = HashSet::new();
            for (position, (subject, item)) in page.items_with_subject().enumerate() {
                let guid = feed::guid(item);
                if !seen.insert(guid.clone()) {
                    report.duplicates += 1;
                    continue;
                }
                let stored = tx.query_opt(select, &[&id.0, &guid])?.as_ref().map(stored_fields).transpose()?;
                match stored {
                    None => {
                        let f = Fields::merged(subject, item, None, now);
                        let origin = if item.date.is_some() { DateOrigin::Page } else { DateOrigin::FirstSeen };
                        tx.execute(
                            insert,
                            &[
                                &id.0,
                                &guid,
                                &f.subject,
                                &f.title,
                                &f.link,
                                &f.date,
                                &f.date_ts().map_err(|e| bad_value("date", e))?,
                                &f.description,
                                &f.content,
                                &f.author,
                                &signed(position),
                                &now.timestamp(),
                                &origin.as_str(),
                            ],
                        )?;
                        report.new += 1;
                    }
                    Some((row_id, old)) => {
                        let f = Fields::merged(subject, item, Some(&old), now);
                        if f == old {
                            report.unchanged += 1;
                        } else {
                            report.changed += 1;
                        }
                        tx.execute(
                            update,
                            &[
                                &row_id,
                                &f.subject,
                                &f.title,
                                &f.link,
                                &f.date,
                                &f.date_ts().map_err(|e| bad_value("date", e))?,
                                &f.description,
                                &f.content,
                                &f.author,
                                &signed(position),
                                &now.timestamp(),
                                &item.date.is_some(),
                            ],
                        )?;
                    }
                }
            }
            tx.execute(
                "UPDATE sources SET item_count = item_count + $2,
                                    last_change = CASE WHEN $3::boolean THEN $4 ELSE last_change END,
                                    feed_version = feed_version + CASE WHEN $3::boolean THEN 1 ELSE 0 END
                 WHERE id = $1",
                &[&id.0, &signed(report.new), &(report.new + report.changed > 0), &now.timestamp()],
            )?;
            tx.commit()?;
            Ok(report)
        })
    }

    pub fn items(&self, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
        self.with(|client| newest(client, id, limit))
    }

    pub fn feed(&self, id: SourceId, limit: usize) -> Result<Option<(Source, Vec<StoredItem>)>> {
        self.with(|client| {
            let Some(source) = sources::get(client, id)? else { return Ok(None) };
            Ok(Some((source, newest(client, id, limit)?)))
        })
    }

    pub fn items_without_content(&self, id: SourceId, limit: usize, max_attempts: u32) -> Result<Vec<StoredItem>> {
        self.with(|client| {
            let sql = format!(
                "SELECT {ITEM_COLUMNS} FROM items
                 WHERE source_id = $1 AND content IS NULL AND article_attempts < $3
                   AND (link LIKE 'http://%' OR link LIKE 'https://%')
                 ORDER BY date_ts DESC, position, id LIMIT $2"
            );
            client.query(&sql, &[&id.0, &signed(limit), &i64::from(max_attempts)])?.iter().map(stored_item).collect()
        })
    }

    pub fn record_articles(&self, id: SourceId, updates: &[ArticleUpdate], now: DateTime<Utc>) -> Result<usize> {
        self.with(|client| {
            let tx = client.transaction()?;
            let found = "UPDATE items SET content = $3, author = coalesce(author, $4),
                        title = CASE WHEN trim(title) = '' AND $5::text IS NOT NULL THEN $5 ELSE title END,
                        article_attempts = article_attempts + 1, article_error = NULL
                 WHERE source_id = $1 AND guid = $2 AND content IS NULL";
            let failed = "UPDATE items SET article_attempts = article_attempts + 1, article_error = $3
                 WHERE source_id = $1 AND guid = $2";
            let mut stored = 0;
            for update in updates {
                match &update.outcome {
                    Ok(fields) => {
                        stored +=
                            tx.execute(found, &[&id.0, &update.guid, &fields.content, &fields.author, &fields.title])?;
                    }
                    Err(reason) => {
                        tx.execute(failed, &[&id.0, &update.guid, reason])?;
                    }
                }
            }
            if stored > 0 {
                tx.execute(
                    "UPDATE sources SET last_change = $2, feed_version = feed_version + 1 WHERE id = $1",
                    &[&id.0, &now.timestamp()],
                )?;
            }
            tx.commit()?;
            Ok(usize::try_from(stored).unwrap_or(usize::MAX))
        })
    }

    pub fn article_counts(&self) -> Result<HashMap<SourceId, ArticleCounts>> {
        self.with(|client| {
            let rows = client.query(
                "SELECT i.source_id, count(*), count(i.content),
                        count(*) FILTER (WHERE i.content IS NULL AND i.article_error IS NOT NULL)
                 FROM items i JOIN sources s ON s.id = i.source_id
                 WHERE s.full_text
                 GROUP BY i.source_id",
                &[],
            )?;
            rows.iter()
                .map(|row| {
                    let counts = ArticleCounts {
                        items: unsigned(row, 1)?,
                        with_content: unsigned(row, 2)?,
                        failed: unsigned(row, 3)?,
                    };
                    Ok((SourceId(row.try_get(0)?), counts))
                })
                .collect()
        })
    }

    pub fn items_to_date(
        &self,
        id: SourceId,
        limit: usize,
        max_attempts: u32,
        full_text: bool,
    ) -> Result<Vec<StoredItem>> {
        self.with(|client| {
            let sql = format!(
                "SELECT {ITEM_COLUMNS} FROM items
                 WHERE source_id = $1 AND date_origin = 'first-seen' AND date_attempts < $3
                   AND (link LIKE 'http://%' OR link LIKE 'https://%')
                   AND NOT ($4::boolean AND content IS NULL AND article_attempts < $3)
                 ORDER BY date_ts DESC, position, id LIMIT $2"
            );
            client
                .query(&sql, &[&id.0, &signed(limit), &i64::from(max_attempts), &full_text])?
                .iter()
                .map(stored_item)
                .collect()
        })
    }

    pub fn record_dates(
        &self,
        id: SourceId,
        updates: &[DateUpdate],
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<usize> {
        self.with(|client| {
            let tx = client.transaction()?;
            let found =
                "UPDATE items SET date = $3, date_ts = $4, date_origin = 'article', date_attempts = date_attempts + 1
                 WHERE source_id = $1 AND guid = $2 AND date_origin = 'first-seen'";
            let tried = "UPDATE items SET date_attempts = greatest(date_attempts + 1, $3)
                 WHERE source_id = $1 AND guid = $2 AND date_origin = 'first-seen'";
            let mut dated = 0;
            for update in updates {
                match update.read {
                    DateRead::Found(date) => {
                        dated += tx.execute(found, &[&id.0, &update.guid, &date.to_rfc3339(), &date.timestamp()])?;
                    }
                    DateRead::NotOnPage => {
                        tx.execute(tried, &[&id.0, &update.guid, &i64::from(max_attempts)])?;
                    }
                    DateRead::Failed => {
                        tx.execute(tried, &[&id.0, &update.guid, &0i64])?;
                    }
                }
            }
            if dated > 0 {
                tx.execute(
                    "UPDATE sources SET last_change = $2, feed_version = feed_version + 1 WHERE id = $1",
                    &[&id.0, &now.timestamp()],
                )?;
            }
            tx.commit()?;
            Ok(usize::try_from(dated).unwrap_or(usize::MAX))
        })
    }

    pub fn date_counts(&self, max_attempts: u32) -> Result<HashMap<SourceId, DateCounts>> {
        self.with(|client| {
            let rows = client.query(
                "SELECT source_id, count(*), count(*) FILTER (WHERE date_origin = 'article'),
                        count(*) FILTER (WHERE date_origin = 'first-seen' AND date_attempts >= $1)
                 FROM items WHERE date_origin != 'page'
                 GROUP BY source_id",
                &[&i64::from(max_attempts)],
            )?;
            rows.iter()
                .map(|row| {
                    let counts = DateCounts {
                        undated: unsigned(row, 1)?,
                        from_articles: unsigned(row, 2)?,
                        not_found: unsigned(row, 3)?,
                    };
                    Ok((SourceId(row.try_get(0)?), counts))
                })
                .collect()
        })
    }
}

fn stored_fields(row: &Row) -> Result<(i64, Fields)> {
    Ok((
        row.try_get(0)?,
        Fields {
            subject: row.try_get(1)?,
            title: row.try_get(2)?,
            link: row.try_get(3)?,
            date: row.try_get(4)?,
            description: row.try_get(5)?,
            content: row.try_get(6)?,
            author: row.try_get(7)?,
        },
    ))
}

fn newest(client: &impl Sql, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
    let sql =
        format!("SELECT {ITEM_COLUMNS} FROM items WHERE source_id = $1 ORDER BY date_ts DESC, position, id LIMIT $2");
    client.query(&sql, &[&id.0, &signed(limit)])?.iter().map(stored_item).collect()
}

/// A row of [`ITEM_COLUMNS`].
fn stored_item(row: &Row) -> Result<StoredItem> {
    let link = match row.try_get::<_, Option<String>>(3)? {
        Some(link) => Some(Url::parse(&link).map_err(|e| bad_value("link", e))?),
        None => None,
    };
    let date: String = row.try_get(4)?;
    let origin: String = row.try_get(10)?;
    Ok(StoredItem {
        guid: row.try_get(0)?,
        subject: row.try_get(1)?,
        item: Item {
            title: row.try_get(2)?,
            link,
            date: Some(DateTime::parse_from_rfc3339(&date).map_err(|e| bad_value("date", e))?),
            description: row.try_get(5)?,
            content: row.try_get(6)?,
            author: row.try_get(7)?,
        },
        first_seen: time(row, 8)?,
        last_seen: time(row, 9)?,
        date_origin: DateOrigin::parse(&origin)
            .ok_or_else(|| bad_value("date_origin", format!("unknown date origin {origin:?}")))?,
    })
}
