//! Rules, templates and settings on PostgreSQL.

use chrono::{DateTime, Utc};
use tokio_postgres::Row;

use super::client::Sql;
use super::{Postgres, bad_value, time};
use crate::store::Result;
use crate::store::catalog::{NewRule, Rule, RuleId, Template, patterns_json};

const RULE_COLUMNS: &str = "id, name, url_patterns, xml, created, updated";

fn rule_from_row(row: &Row) -> Result<Rule> {
    let patterns: String = row.try_get(2)?;
    Ok(Rule {
        id: RuleId(row.try_get(0)?),
        name: row.try_get(1)?,
        url_patterns: serde_json::from_str(&patterns).map_err(|e| bad_value("url_patterns", e))?,
        xml: row.try_get(3)?,
        created: time(row, 4)?,
        updated: time(row, 5)?,
    })
}

fn template_from_row(row: &Row) -> Result<Template> {
    Ok(Template {
        site: row.try_get(0)?,
        xml: row.try_get(1)?,
        confidence: row.try_get::<_, f64>(2)? as f32,
        trained_at: time(row, 3)?,
    })
}

impl Postgres {
    pub fn add_rule(&self, rule: &NewRule, now: DateTime<Utc>) -> Result<Rule> {
        self.with(|client| {
            let sql = format!(
                "INSERT INTO rules (name, url_patterns, xml, created, updated) VALUES ($1, $2, $3, $4, $4)
                 RETURNING {RULE_COLUMNS}"
            );
            rule_from_row(&client.query_one(&sql, &[&rule.name, &patterns_json(rule), &rule.xml, &now.timestamp()])?)
        })
    }

    pub fn replace_rule(&self, id: RuleId, rule: &NewRule, now: DateTime<Utc>) -> Result<Option<Rule>> {
        self.with(|client| {
            let sql = format!(
                "UPDATE rules SET name = $2, url_patterns = $3, xml = $4, updated = $5 WHERE id = $1
                 RETURNING {RULE_COLUMNS}"
            );
            let row =
                client.query_opt(&sql, &[&id.0, &rule.name, &patterns_json(rule), &rule.xml, &now.timestamp()])?;
            row.as_ref().map(rule_from_row).transpose()
        })
    }

    pub fn rule(&self, id: RuleId) -> Result<Option<Rule>> {
        self.with(|client| {
            let sql = format!("SELECT {RULE_COLUMNS} FROM rules WHERE id = $1");
            client.query_opt(&sql, &[&id.0])?.as_ref().map(rule_from_row).transpose()
        })
    }

    pub fn rules(&self) -> Result<Vec<Rule>> {
        self.with(|client| {
            let sql = format!("SELECT {RULE_COLUMNS} FROM rules ORDER BY id");
            client.query(&sql, &[])?.iter().map(rule_from_row).collect()
        })
    }

    pub fn delete_rule(&self, id: RuleId) -> Result<bool> {
        self.with(|client| Ok(client.execute("DELETE FROM rules WHERE id = $1", &[&id.0])? == 1))
    }

    pub fn put_template(&self, template: &Template) -> Result<()> {
        self.with(|client| {
            client.execute(
                "INSERT INTO templates (site, xml, confidence, trained_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (site) DO UPDATE SET xml = $2, confidence = $3, trained_at = $4",
                &[&template.site, &template.xml, &f64::from(template.confidence), &template.trained_at.timestamp()],
            )?;
            Ok(())
        })
    }

    pub fn template(&self, site: &str) -> Result<Option<Template>> {
        self.with(|client| {
            let sql = "SELECT site, xml, confidence, trained_at FROM templates WHERE site = $1";
            client.query_opt(sql, &[&site])?.as_ref().map(template_from_row).transpose()
        })
    }

    pub fn templates(&self) -> Result<Vec<Template>> {
        self.with(|client| {
            let sql = "SELECT site, xml, confidence, trained_at FROM templates ORDER BY site";
            client.query(sql, &[])?.iter().map(template_from_row).collect()
        })
    }

    pub fn delete_template(&self, site: &str) -> Result<bool> {
        self.with(|client| Ok(client.execute("DELETE FROM templates WHERE site = $1", &[&site])? == 1))
    }

    pub fn setting(&self, key: &str) -> Result<Option<String>> {
        self.with(|client| {
            let row = client.query_opt("SELECT value FROM settings WHERE key = $1", &[&key])?;
            Ok(row.map(|row| row.try_get(0)).transpose()?)
        })
    }

    pub fn set_setting(&self, key: &str, value: &str) -> Result<()> {
        self.with(|client| {
            client.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2",
                &[&key, &value],
            )?;
            Ok(())
        })
    }

    /// The insert does nothing when another server stored a value first; that value is then
    /// the answer, so every server agrees.
    pub fn setting_or_insert(&self, key: &str, make: impl FnOnce() -> String) -> Result<(String, bool)> {
        self.with(|client| {
            let select = "SELECT value FROM settings WHERE key = $1";
            if let Some(row) = client.query_opt(select, &[&key])? {
                return Ok((row.try_get(0)?, false));
            }
            let value = make();
            let inserted = client.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                &[&key, &value],
            )?;
            if inserted == 1 {
                return Ok((value, true));
            }
            Ok((client.query_one(select, &[&key])?.try_get(0)?, false))
        })
    }
}
