//! Rules, templates and settings on SQLite.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Row, TransactionBehavior, params};

use super::{Seconds, Sqlite, bad_column, seconds};
use crate::store::Result;
use crate::store::catalog::{NewRule, Rule, RuleId, Template, patterns_json};

const RULE_COLUMNS: &str = "id, name, url_patterns, xml, created, updated";

fn rule_from_row(row: &Row) -> rusqlite::Result<Rule> {
    let patterns: String = row.get(2)?;
    Ok(Rule {
        id: RuleId(row.get(0)?),
        name: row.get(1)?,
        url_patterns: serde_json::from_str(&patterns).map_err(|e| bad_column(2, e))?,
        xml: row.get(3)?,
        created: row.get::<_, Seconds>(4)?.0,
        updated: row.get::<_, Seconds>(5)?.0,
    })
}

fn template_from_row(row: &Row) -> rusqlite::Result<Template> {
    Ok(Template {
        site: row.get(0)?,
        xml: row.get(1)?,
        confidence: row.get::<_, f64>(2)? as f32,
        trained_at: row.get::<_, Seconds>(3)?.0,
    })
}

impl Sqlite {
    pub fn add_rule(&self, rule: &NewRule, now: DateTime<Utc>) -> Result<Rule> {
        self.with(|conn| {
            let sql = format!(
                "INSERT INTO rules (name, url_patterns, xml, created, updated) VALUES (?1, ?2, ?3, ?4, ?4)
                 RETURNING {RULE_COLUMNS}"
            );
            let row = conn
                .prepare_cached(&sql)?
                .query_row(params![rule.name, patterns_json(rule), rule.xml, seconds(now)], rule_from_row)?;
            Ok(row)
        })
    }

    pub fn replace_rule(&self, id: RuleId, rule: &NewRule, now: DateTime<Utc>) -> Result<Option<Rule>> {
        self.with(|conn| {
            let sql = format!(
                "UPDATE rules SET name = ?2, url_patterns = ?3, xml = ?4, updated = ?5 WHERE id = ?1
                 RETURNING {RULE_COLUMNS}"
            );
            let row = conn
                .prepare_cached(&sql)?
                .query_row(params![id.0, rule.name, patterns_json(rule), rule.xml, seconds(now)], rule_from_row)
                .optional()?;
            Ok(row)
        })
    }

    pub fn rule(&self, id: RuleId) -> Result<Option<Rule>> {
        self.with(|conn| {
            let sql = format!("SELECT {RULE_COLUMNS} FROM rules WHERE id = ?1");
            Ok(conn.prepare_cached(&sql)?.query_row([id.0], rule_from_row).optional()?)
        })
    }

    pub fn rules(&self) -> Result<Vec<Rule>> {
        self.with(|conn| {
            let sql = format!("SELECT {RULE_COLUMNS} FROM rules ORDER BY id");
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement.query_map([], rule_from_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    pub fn delete_rule(&self, id: RuleId) -> Result<bool> {
        self.with(|conn| Ok(conn.prepare_cached("DELETE FROM rules WHERE id = ?1")?.execute([id.0])? == 1))
    }

    pub fn put_template(&self, template: &Template) -> Result<()> {
        self.with(|conn| {
            conn.prepare_cached(
                "INSERT INTO templates (site, xml, confidence, trained_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (site) DO UPDATE SET xml = ?2, confidence = ?3, trained_at = ?4",
            )?
            .execute(params![
                template.site,
                template.xml,
                f64::from(template.confidence),
                seconds(template.trained_at)
            ])?;
            Ok(())
        })
    }

    pub fn template(&self, site: &str) -> Result<Option<Template>> {
        self.with(|conn| {
            let sql = "SELECT site, xml, confidence, trained_at FROM templates WHERE site = ?1";
            Ok(conn.prepare_cached(sql)?.query_row([site], template_from_row).optional()?)
        })
    }

    pub fn templates(&self) -> Result<Vec<Template>> {
        self.with(|conn| {
            let mut statement =
                conn.prepare_cached("SELECT site, xml, confidence, trained_at FROM templates ORDER BY site")?;
            let rows = statement.query_map([], template_from_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    pub fn delete_template(&self, site: &str) -> Result<bool> {
        self.with(|conn| Ok(conn.prepare_cached("DELETE FROM templates WHERE site = ?1")?.execute([site])? == 1))
    }

    pub fn setting(&self, key: &str) -> Result<Option<String>> {
        self.with(|conn| {
            let sql = "SELECT value FROM settings WHERE key = ?1";
            Ok(conn.prepare_cached(sql)?.query_row([key], |row| row.get(0)).optional()?)
        })
    }

    pub fn set_setting(&self, key: &str, value: &str) -> Result<()> {
        self.with(|conn| {
            conn.prepare_cached(
                "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = ?2",
            )?
            .execute([key, value])?;
            Ok(())
        })
    }

    pub fn setting_or_insert(&self, key: &str, make: impl FnOnce() -> String) -> Result<(String, bool)> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let existing: Option<String> = tx
                .prepare_cached("SELECT value FROM settings WHERE key = ?1")?
                .query_row([key], |row| row.get(0))
                .optional()?;
            let result = match existing {
                Some(value) => (value, false),
                None => {
                    let value = make();
                    tx.prepare_cached("INSERT INTO settings (key, value) VALUES (?1, ?2)")?.execute([key, &value])?;
                    (value, true)
                }
            };
            tx.commit()?;
            Ok(result)
        })
    }
}
