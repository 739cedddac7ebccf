//! Dates on pages, compared with a feed's dates. Every date the learner reads goes through
//! [`DateReader`], the one place where the date parser is chosen.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, FixedOffset, Utc};
use chrono_tz::Tz;

use crate::engines::rules::{self, Rule};

/// Reads dates from page text in a timezone (for dates that name none).
pub struct DateReader {
    rule: Rule,
    now: DateTime<Utc>,
}

impl DateReader {
    pub fn new(timezone: Option<Tz>, now: DateTime<Utc>) -> DateReader {
        let rule = Rule {
            name: None,
            urls: Vec::new(),
            link: None,
            encoding: None,
            timezone,
            date_format: None,
            page_date: None,
            subjects: Vec::new(),
            article: None,
            support: BTreeMap::new(),
        };
        DateReader { rule, now }
    }

    /// The first date in a text (a node's text or a date attribute).
    pub fn read(&self, text: &str) -> Option<DateTime<FixedOffset>> {
        rules::parse_date(text, &self.rule, self.now)
    }
}

/// How a date found on a page stands for a feed item's date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DateMatch {
    /// A neighbouring day: the page shows the day in another timezone than the feed's.
    NearDay,
    /// The same calendar day (in the page's or the feed's offset, or in UTC).
    SameDay,
    /// The same instant, to the minute.
    Instant,
}

/// Compare a page date with a feed date.
pub fn compare(found: DateTime<FixedOffset>, feed: DateTime<FixedOffset>) -> Option<DateMatch> {
    if (found.timestamp() - feed.timestamp()).abs() < 60 {
        return Some(DateMatch::Instant);
    }
    let day = found.date_naive();
    let feed_days = [feed.date_naive(), feed.to_utc().date_naive(), feed.with_timezone(found.offset()).date_naive()];
    if feed_days.contains(&day) {
        return Some(DateMatch::SameDay);
    }
    let near = feed_days.iter().any(|&d| (d - day).abs() <= Duration::days(1));
    near.then_some(DateMatch::NearDay)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(text).unwrap()
    }

    #[test]
    fn page_dates_against_feed_dates() {
        let reader = DateReader::new(None, Utc::now());
        let feed = date("2025-05-03T13:18:28Z");
        let on_page = |text: &str| reader.read(text).and_then(|d| compare(d, feed));
        assert_eq!(on_page("2025-05-03T21:18:28+08:00"), Some(DateMatch::Instant));
        assert_eq!(on_page("Posted on May 3, 2025"), Some(DateMatch::SameDay));
        assert_eq!(on_page("2025-05-04"), Some(DateMatch::NearDay));
        assert_eq!(on_page("2025-05-06"), None);
        assert_eq!(on_page("no date"), None);
        let tokyo = DateReader::new(Some(chrono_tz::Asia::Tokyo), Utc::now());
        assert_eq!(tokyo.read("2025-05-03 22:18").and_then(|d| compare(d, feed)), Some(DateMatch::Instant));
    }
}
