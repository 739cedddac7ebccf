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
            // Three statements whatever the page's length (reading the stored items, inserting
            // the new, updating the rest), not two per item: under many concurrent refreshes,
            // PostgreSQL's cost is per statement more than per row.
            let mut report = MergeReport::default();
            let mut seen = HashSet::new();
            let mut listed = Vec::new();
            for (position, (subject, item)) in page.items_with_subject().enumerate() {
                let guid = feed::guid(item);
                if seen.insert(guid.clone()) {
                    listed.push((position, subject, item, guid));
                } else {
                    report.duplicates += 1;
                }
            }
            let guids: Vec<&str> = listed.iter().map(|(.., guid)| guid.as_str()).collect();
            let mut stored: HashMap<String, (i64, Fields)> = tx
                .query(
                    "SELECT guid, id, subject, title, link, date, description, content, author
                     FROM items WHERE source_id = $1 AND guid = ANY($2)",
                    &[&id.0, &guids],
                )?
                .iter()
                .map(|row| Ok((row.try_get(0)?, stored_fields(row)?)))
                .collect::<Result<_>>()?;
            let mut new = Rows::default();
            let mut kept = Rows::default();
            for (position, subject, item, guid) in listed {
                let old = stored.remove(&guid);
                let f = Fields::merged(subject, item, old.as_ref().map(|(_, old)| old), now);
                let rows = match &old {
                    None => {
                        report.new += 1;
                        new.origins
                            .push(if item.date.is_some() { DateOrigin::Page } else { DateOrigin::FirstSeen }.as_str());
                        new.guids.push(guid);
                        &mut new
                    }
                    Some((row_id, old)) => {
                        if f == *old {
                            report.unchanged += 1;
                        } else {
                            report.changed += 1;
                        }
                        kept.ids.push(*row_id);
                        kept.page_dates.push(item.date.is_some());
                        &mut kept
                    }
                };
                rows.date_ts.push(f.date_ts().map_err(|e| bad_value("date", e))?);
                rows.positions.push(signed(position));
                rows.push(f);
            }
            if !new.guids.is_empty() {
                tx.execute(
                    "INSERT INTO items (source_id, guid, subject, title, link, date, date_ts, description, content,
                                        author, position, first_seen, last_seen, date_origin)
                     SELECT $1, guid, subject, title, link, date, date_ts, description, content, author, position,
                            $11, $11, origin
                     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[],
                                 $8::text[], $9::text[], $10::text[], $12::bigint[], $13::text[])
                          AS n (guid, subject, title, link, date, date_ts, description, content, author, position,
                                origin)",
                    &[
                        &id.0,
                        &new.guids,
                        &new.subjects,
                        &new.titles,
                        &new.links,
                        &new.dates,
                        &new.date_ts,
                        &new.descriptions,
                        &new.contents,
                        &new.authors,
                        &now.timestamp(),
                        &new.positions,
                        &new.origins,
                    ],
                )?;
            }
            if !kept.ids.is_empty() {
                // A date the page gives now wins over a first-seen or article date.
                tx.execute(
                    "UPDATE items i SET subject = k.subject, title = k.title, link = k.link, date = k.date,
                            date_ts = k.date_ts, description = k.description, content = k.content,
                            author = k.author, position = k.position, last_seen = $11,
                            date_origin = CASE WHEN k.page_date THEN 'page' ELSE i.date_origin END
                     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
                                 $7::text[], $8::text[], $9::text[], $10::bigint[], $12::boolean[])
                          AS k (id, subject, title, link, date, date_ts, description, content, author, position,
                                page_date)
                     WHERE i.id = k.id",
                    &[
                        &kept.ids,
                        &kept.subjects,
                        &kept.titles,
                        &kept.links,
                        &kept.dates,
                        &kept.date_ts,
                        &kept.descriptions,
                        &kept.contents,
                        &kept.authors,
                        &kept.positions,
                        &now.timestamp(),
                        &kept.page_dates,
                    ],
                )?;
            }
            tx.execute_and_commit(
                "UPDATE sources SET item_count = item_count + $2,
                                    last_change = CASE WHEN $3::boolean THEN $4 ELSE last_change END,
                                    feed_version = feed_version + CASE WHEN $3::boolean THEN 1 ELSE 0 END
                 WHERE id = $1",
                &[&id.0, &signed(report.new), &(report.new + report.changed > 0), &now.timestamp()],
            )?;
            Ok(report)
        })
    }

    pub fn items(&self, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
        self.with(|client| newest(client, id, limit))
    }

    pub fn feed(&self, id: SourceId, limit: usize) -> Result<Option<(Source, Vec<StoredItem>)>> {
        self.with(|client| {
            // One round trip: a refresh renders its feed after every change.
            let (source, items) = client
                .query_opt_and_query((&sources::by_id_sql(), &[&id.0]), (&newest_sql(), &[&id.0, &signed(limit)]))?;
            let Some(source) = source else { return Ok(None) };
            Ok(Some((sources::from_row(&source)?, items.iter().map(stored_item).collect::<Result<_>>()?)))
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
                tx.execute_and_commit(
                    "UPDATE sources SET last_change = $2, feed_version = feed_version + 1 WHERE id = $1",
                    &[&id.0, &now.timestamp()],
                )?;
            } else {
                tx.commit()?;
            }
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
                tx.execute_and_commit(
                    "UPDATE sources SET last_change = $2, feed_version = feed_version + 1 WHERE id = $1",
                    &[&id.0, &now.timestamp()],
                )?;
            } else {
                tx.commit()?;
            }
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

/// The stored fields of a row `guid, id, subject, title, link, date, description, content, author`.
fn stored_fields(row: &Row) -> Result<(i64, Fields)> {
    Ok((
        row.try_get(1)?,
        Fields {
            subject: row.try_get(2)?,
            title: row.try_get(3)?,
            link: row.try_get(4)?,
            date: row.try_get(5)?,
            description: row.try_get(6)?,
            content: row.try_get(7)?,
            author: row.try_get(8)?,
        },
    ))
}

/// Items a merge writes, a column per array (`unnest` turns them back into rows); `guids` and
/// `origins` for new items, `ids` and `page_dates` for stored ones.
#[derive(Default)]
struct Rows {
    guids: Vec<String>,
    origins: Vec<&'static str>,
    ids: Vec<i64>,
    page_dates: Vec<bool>,
    subjects: Vec<Option<String>>,
    titles: Vec<String>,
    links: Vec<Option<String>>,
    dates: Vec<String>,
    date_ts: Vec<i64>,
    descriptions: Vec<Option<String>>,
    contents: Vec<Option<String>>,
    authors: Vec<Option<String>>,
    positions: Vec<i64>,
}

impl Rows {
    fn push(&mut self, fields: Fields) {
        self.subjects.push(fields.subject);
        self.titles.push(fields.title);
        self.links.push(fields.link);
        self.dates.push(fields.date);
        self.descriptions.push(fields.description);
        self.contents.push(fields.content);
        self.authors.push(fields.author);
    }
}

/// A source's newest items (`$1`: its id, `$2`: how many).
fn newest_sql() -> String {
    format!("SELECT {ITEM_COLUMNS} FROM items WHERE source_id = $1 ORDER BY date_ts DESC, position, id LIMIT $2")
}

fn newest(client: &impl Sql, id: SourceId, limit: usize) -> Result<Vec<StoredItem>> {
    client.query(&newest_sql(), &[&id.0, &signed(limit)])?.iter().map(stored_item).collect()
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
