//! Rules, templates and settings. Rules are stored as uploaded; parsing and validating the XML
//! is the rules engine's job, done before they get here.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{Result, Store, backend};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct RuleId(pub i64);

/// A rule to store: its name and `<url>` patterns, already read from the validated XML.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRule {
    pub name: String,
    pub url_patterns: Vec<String>,
    /// The rule file, verbatim.
    pub xml: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    pub id: RuleId,
    pub name: String,
    pub url_patterns: Vec<String>,
    pub xml: String,
    pub created: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

/// A template learned from a site's feed, written as a mapping rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Template {
    /// The site it was trained for (its host).
    pub site: String,
    pub xml: String,
    pub confidence: f32,
    pub trained_at: DateTime<Utc>,
}

/// A rule's `<url>` patterns as stored: a JSON array.
pub(super) fn patterns_json(rule: &NewRule) -> String {
    serde_json::Value::from(rule.url_patterns.clone()).to_string()
}

impl Store {
    pub fn add_rule(&self, rule: &NewRule, now: DateTime<Utc>) -> Result<Rule> {
        backend!(self, add_rule(rule, now))
    }

    /// Replace a rule's name, patterns and XML, keeping its id and creation time. `None` when
    /// there is no such rule.
    pub fn replace_rule(&self, id: RuleId, rule: &NewRule, now: DateTime<Utc>) -> Result<Option<Rule>> {
        backend!(self, replace_rule(id, rule, now))
    }

    pub fn rule(&self, id: RuleId) -> Result<Option<Rule>> {
        backend!(self, rule(id))
    }

    /// Every rule, oldest first.
    pub fn rules(&self) -> Result<Vec<Rule>> {
        backend!(self, rules())
    }

    /// Delete a rule; sources pinned to it go back to the engine choice. Returns whether it
    /// existed.
    pub fn delete_rule(&self, id: RuleId) -> Result<bool> {
        backend!(self, delete_rule(id))
    }

    /// Store a template, replacing the site's previous one.
    pub fn put_template(&self, template: &Template) -> Result<()> {
        backend!(self, put_template(template))
    }

    pub fn template(&self, site: &str) -> Result<Option<Template>> {
        backend!(self, template(site))
    }

    /// Every template, by site.
    pub fn templates(&self) -> Result<Vec<Template>> {
        backend!(self, templates())
    }

    pub fn delete_template(&self, site: &str) -> Result<bool> {
        backend!(self, delete_template(site))
    }

    pub fn setting(&self, key: &str) -> Result<Option<String>> {
        backend!(self, setting(key))
    }

    pub fn set_setting(&self, key: &str, value: &str) -> Result<()> {
        backend!(self, set_setting(key, value))
    }

    /// The setting's value, or `make()` stored as its value when it has none (in one
    /// transaction, so concurrent callers agree), e.g. the admin token generated at first start.
    /// Returns the value and whether it was just stored.
    pub fn setting_or_insert(&self, key: &str, make: impl FnOnce() -> String) -> Result<(String, bool)> {
        backend!(self, setting_or_insert(key, make))
    }
}
