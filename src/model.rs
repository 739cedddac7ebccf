//! What every engine produces: the paper's Definitions 1–3, plus author and full content.

use chrono::{DateTime, FixedOffset};
use serde::Serialize;
use url::Url;

/// A page (Definition 3): where it lives, what it is called, and its subjects.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Page {
    pub link: Url,
    pub title: String,
    /// Publication or last-update date of the page.
    pub date: Option<DateTime<FixedOffset>>,
    /// The encoding the page was decoded with (WHATWG name).
    pub encoding: String,
    pub subjects: Vec<Subject>,
}

/// A subject (Definition 2): a titled group of items, e.g. one news section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Subject {
    pub title: Option<String>,
    pub items: Vec<Item>,
}

/// An item (Definition 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    pub title: String,
    pub link: Option<Url>,
    pub date: Option<DateTime<FixedOffset>>,
    /// Short description, sanitized HTML.
    pub description: Option<String>,
    pub author: Option<String>,
    /// Full content, sanitized HTML.
    pub content: Option<String>,
}

impl Item {
    pub fn new(title: impl Into<String>) -> Item {
        Item { title: title.into(), link: None, date: None, description: None, author: None, content: None }
    }
}

impl Page {
    pub fn new(link: Url, title: impl Into<String>, encoding: impl Into<String>) -> Page {
        Page { link, title: title.into(), date: None, encoding: encoding.into(), subjects: Vec::new() }
    }

    /// Every item of every subject, in page order.
    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.subjects.iter().flat_map(|s| s.items.iter())
    }

    /// Every item with the title of its subject.
    pub fn items_with_subject(&self) -> impl Iterator<Item = (Option<&str>, &Item)> {
        self.subjects.iter().flat_map(|s| s.items.iter().map(move |i| (s.title.as_deref(), i)))
    }

    pub fn item_count(&self) -> usize {
        self.subjects.iter().map(|s| s.items.len()).sum()
    }
}
