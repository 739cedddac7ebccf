//! Dates on pages, compared with a feed's dates. Every date the learner reads goes through
//! [`DateReader`]: RFC 3339 and RFC 2822 (attributes such as `datetime`), then the Time Pattern
//! DB (every language and form it knows), as applying a rule reads them.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Duration, FixedOffset, Utc};
use chrono_tz::Tz;

use crate::engines::rules::{self, Rule};
use crate::engines::timepattern::{self, DateContext, Precision};

/// A date read from a text, with how much of it the text gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReadDate {
    pub date: DateTime<FixedOffset>,
    pub precision: Precision,
    /// Completed from the current time: a date without its year ("September 02").
    pub completed: bool,
}

/// Reads dates from page text in a timezone (for dates that name none), as applying a rule
/// reads them (so that what labeling finds is what the template will give).
pub struct DateReader {
    rule: Rule,
    context: DateContext,
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
        let context = DateContext::new(now.fixed_offset()).with_timezone(timezone.unwrap_or(Tz::UTC));
        DateReader { rule, context, now }
    }

    /// The date a rule reads in the text (the value applying the template gives).
    pub fn read(&self, text: &str) -> Option<DateTime<FixedOffset>> {
        rules::parse_date(text, &self.rule, self.now)
    }

    /// The date in the text, with its precision and whether its year was completed.
    pub fn read_precise(&self, text: &str) -> Option<ReadDate> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        if let Ok(date) = DateTime::parse_from_rfc3339(text).or_else(|_| DateTime::parse_from_rfc2822(text)) {
            return Some(ReadDate { date, precision: Precision::Second, completed: false });
        }
        timepattern::parse_date(text, &self.context).map(|found| ReadDate {
            date: found.date,
            precision: found.precision,
            completed: found.relative,
        })
    }
}

/// How a date found on a page stands for a feed item's date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DateMatch {
    /// The page shows only the month and year (the WTM paper's `MON 2005` forms).
    Month,
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

/// Compare a date read from a page with a feed date, by the precision it was read with.
pub fn compare_read(found: &ReadDate, feed: DateTime<FixedOffset>) -> Option<DateMatch> {
    match found.precision {
        Precision::Year => None,
        Precision::Month => {
            (found.date.year() == feed.year() && found.date.month() == feed.month()).then_some(DateMatch::Month)
        }
        _ => compare(found.date, feed),
    }
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
        let on_page = |text: &str| reader.read_precise(text).and_then(|d| compare_read(&d, feed));
        assert_eq!(on_page("2025-05-03T21:18:28+08:00"), Some(DateMatch::Instant));
        assert_eq!(on_page("Posted on May 3, 2025"), Some(DateMatch::SameDay));
        assert_eq!(on_page("2025年5月3日"), Some(DateMatch::SameDay));
        assert_eq!(on_page("2025-05-04"), Some(DateMatch::NearDay));
        assert_eq!(on_page("May 2025"), Some(DateMatch::Month));
        assert_eq!(on_page("2025-05-06"), None);
        assert_eq!(on_page("no date"), None);
        let tokyo = DateReader::new(Some(chrono_tz::Asia::Tokyo), Utc::now());
        assert_eq!(tokyo.read("2025-05-03 22:18").and_then(|d| compare(d, feed)), Some(DateMatch::Instant));
        let completed = reader.read_precise("September 02").unwrap();
        assert!(completed.completed);
    }
}
