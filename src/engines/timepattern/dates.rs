//! Dates from text: the public date API of the time-pattern engine. Any engine that meets a
//! date string calls [`parse_date`] (the longest date in a text) or [`find_dates`] (every date
//! in a text) with a [`DateContext`]: the fetch time for relative dates ("3 hours ago",
//! "昨天"), the timezone for dates that name none, and the page language for the day/month
//! order of numeric dates (`03/04/2020`).

use std::ops::Range;

use chrono::{
    DateTime, Datelike, Duration, FixedOffset, Months, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike,
};
use chrono_tz::Tz;
use serde::Serialize;

use super::db::{Fields, Order, RawMatch, TimePatternDb, Unit};

/// What a date string is read against.
#[derive(Debug, Clone)]
pub struct DateContext {
    /// The fetch time: relative dates count back from it, and dates without a year take the
    /// year that puts them at or before it.
    pub now: DateTime<FixedOffset>,
    /// The timezone of dates that name none (the page's or the rule's; UTC by default).
    pub timezone: Tz,
    /// The page language (a BCP 47 tag such as `en-GB`), for the day/month order of numeric
    /// dates. `None`: the page's `<html lang>` when a page is at hand, else day first.
    pub lang: Option<String>,
}

impl DateContext {
    /// Now, in UTC, with no language. Whole seconds: "3 hours ago" is not that precise, and
    /// feeds show dates to the second.
    pub fn new(now: DateTime<FixedOffset>) -> DateContext {
        let now = now.with_nanosecond(0).unwrap_or(now);
        DateContext { now, timezone: Tz::UTC, lang: None }
    }

    pub fn with_timezone(mut self, timezone: Tz) -> DateContext {
        self.timezone = timezone;
        self
    }

    pub fn with_lang(mut self, lang: impl Into<String>) -> DateContext {
        self.lang = Some(lang.into());
        self
    }

    /// Today in the context's timezone.
    fn today(&self) -> NaiveDate {
        self.now.with_timezone(&self.timezone).date_naive()
    }

    /// A local date and time in the context's timezone (the earlier one across a DST change).
    fn local(&self, naive: NaiveDateTime) -> Option<DateTime<FixedOffset>> {
        self.timezone.from_local_datetime(&naive).earliest().map(|d| d.fixed_offset())
    }
}

/// How much of a date a text gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
}

/// A date read from a text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParsedDate {
    pub date: DateTime<FixedOffset>,
    pub precision: Precision,
    /// The time pattern that matched, in the paper's notation.
    pub pattern: String,
    /// The language file of the pattern (`en`, `zh-Hans`, `numeric` …).
    pub language: String,
    /// Where the date is in the text (byte offsets).
    pub span: Range<usize>,
    /// Counted back from the context's `now` ("3 hours ago", "yesterday") or completed from it
    /// (a date without a year, a bare time).
    pub relative: bool,
}

/// The longest date in `text`, read with the shipped Time Pattern DB.
pub fn parse_date(text: &str, context: &DateContext) -> Option<ParsedDate> {
    TimePatternDb::builtin().parse_date(text, context)
}

/// Every date in `text` (longest first where they overlap), in text order.
pub fn find_dates(text: &str, context: &DateContext) -> Vec<ParsedDate> {
    TimePatternDb::builtin().find_dates(text, context)
}

impl TimePatternDb {
    /// The longest date in `text`. Numeric dates that read both ways (`03/04/2020`) take the
    /// order of the context's language.
    pub fn parse_date(&self, text: &str, context: &DateContext) -> Option<ParsedDate> {
        let readings = self.longest(text);
        let order = context.lang.as_deref().and_then(|l| self.order_for(l));
        self.pick_reading(&readings, order).and_then(|m| self.resolve(m, context))
    }

    /// Every date in `text`, in text order.
    pub fn find_dates(&self, text: &str, context: &DateContext) -> Vec<ParsedDate> {
        let order = context.lang.as_deref().and_then(|l| self.order_for(l));
        self.all_longest(text)
            .into_iter()
            .filter_map(|m| {
                // The other readings of the same span, for the language's order.
                let readings: Vec<RawMatch> = self
                    .raw_matches(&text[m.start..m.end])
                    .into_iter()
                    .filter(|r| r.start == 0 && r.end == m.end - m.start)
                    .map(|r| RawMatch { start: m.start, end: m.end, ..r })
                    .collect();
                let chosen = self.pick_reading(&readings, order).unwrap_or(&m);
                self.resolve(chosen, context)
            })
            .collect()
    }

    /// Among readings of one span, the one whose day/month order the language prefers
    /// (month first for `mdy` and `ymd` languages, day first otherwise and when unknown).
    pub(crate) fn pick_reading<'m>(&self, readings: &'m [RawMatch], order: Option<Order>) -> Option<&'m RawMatch> {
        let month_first = matches!(order, Some(Order::Mdy | Order::Ymd));
        readings
            .iter()
            .find(|m| match self.patterns()[m.pattern].order {
                Some(Order::Dmy) => !month_first,
                Some(_) => month_first,
                None => true,
            })
            .or_else(|| readings.first())
    }

    /// A match as a date.
    pub(crate) fn resolve(&self, m: &RawMatch, context: &DateContext) -> Option<ParsedDate> {
        let pattern = &self.patterns()[m.pattern];
        let (date, precision, relative) = resolve_fields(&m.fields, context)?;
        Some(ParsedDate {
            date,
            precision,
            pattern: pattern.notation.clone(),
            language: self.language_of(pattern).to_string(),
            span: m.start..m.end,
            relative,
        })
    }
}

fn hour24(fields: &Fields) -> Option<u32> {
    let hour = fields.hour?;
    Some(match fields.pm {
        Some(true) if hour < 12 => hour + 12,
        Some(false) if hour == 12 => 0,
        Some(_) if hour > 12 => return None,
        _ => hour,
    })
}

fn time_of(fields: &Fields) -> Option<(NaiveTime, Precision)> {
    let Some(hour) = hour24(fields) else {
        return Some((NaiveTime::MIN, Precision::Day));
    };
    let precision = match (fields.minute, fields.second) {
        (_, Some(_)) => Precision::Second,
        (Some(_), None) => Precision::Minute,
        _ => Precision::Hour,
    };
    let second = fields.second.unwrap_or(0).min(59);
    let time = NaiveTime::from_hms_nano_opt(hour, fields.minute.unwrap_or(0), second, fields.nanos)?;
    Some((time, precision))
}

/// Fields → (date, precision, relative). `None` for impossible dates (February 30th).
fn resolve_fields(fields: &Fields, context: &DateContext) -> Option<(DateTime<FixedOffset>, Precision, bool)> {
    let now = context.now;
    if fields.now {
        return Some((now, Precision::Minute, true));
    }
    if let (Some(count), Some(unit)) = (fields.count, fields.unit) {
        let count = count.clamp(0, 10_000);
        let (date, precision) = match unit {
            Unit::Second => (now - Duration::seconds(count), Precision::Minute),
            Unit::Minute => (now - Duration::minutes(count), Precision::Minute),
            Unit::Hour => (now - Duration::hours(count), Precision::Hour),
            Unit::Day => (now - Duration::days(count), Precision::Day),
            Unit::Week => (now - Duration::weeks(count), Precision::Day),
            Unit::Month => (now.checked_sub_months(Months::new(count as u32))?, Precision::Month),
            Unit::Year => (now.checked_sub_months(Months::new(12 * count as u32))?, Precision::Year),
        };
        return Some((date, precision, true));
    }
    let (time, time_precision) = time_of(fields)?;
    let today = context.today();
    let at = |date: NaiveDate| -> Option<DateTime<FixedOffset>> {
        let naive = date.and_time(time);
        match fields.zone {
            Some(zone) => zone.from_local_datetime(&naive).single(),
            None => context.local(naive),
        }
    };
    if let Some(offset) = fields.day_offset {
        let date = today.checked_add_signed(Duration::days(offset))?;
        return Some((at(date)?, time_precision, true));
    }
    let year = fields.year.or_else(|| {
        fields.year2.map(|yy| {
            let century = if yy as i32 > today.year() % 100 + 1 { 1900 } else { 2000 };
            century + yy as i32
        })
    });
    match (year, fields.month, fields.day) {
        // Only a time ("16:13"): today's news; a time later than now was yesterday.
        (None, None, None) => {
            let date = at(today)?;
            if date > now + Duration::hours(1) {
                return Some((at(today.pred_opt()?)?, time_precision, true));
            }
            Some((date, time_precision, true))
        }
        // A day of the month with a time ("28 日 18:46"): this month, or the last.
        (None, None, Some(day)) => {
            let this_month = NaiveDate::from_ymd_opt(today.year(), today.month(), day);
            let date = match this_month.and_then(&at) {
                Some(d) if d <= now + Duration::days(1) => d,
                _ => {
                    let last = today.with_day(1)?.pred_opt()?;
                    at(NaiveDate::from_ymd_opt(last.year(), last.month(), day)?)?
                }
            };
            Some((date, time_precision, true))
        }
        // Month and day without a year: the latest such date not after now (February 29 of
        // the last leap year, up to four years back).
        (None, Some(month), Some(day)) => {
            let date = (0..=4).find_map(|back| {
                let date = at(NaiveDate::from_ymd_opt(today.year() - back, month, day)?)?;
                (date <= now + Duration::days(2)).then_some(date)
            })?;
            Some((date, time_precision, true))
        }
        (Some(year), Some(month), day) => {
            let date = NaiveDate::from_ymd_opt(year, month, day.unwrap_or(1))?;
            let precision = if day.is_some() { time_precision } else { Precision::Month };
            Some((at(date)?, precision, false))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn context() -> DateContext {
        DateContext::new(DateTime::parse_from_rfc3339("2024-05-15T12:00:00+00:00").unwrap())
    }

    fn day(text: &str, context: &DateContext) -> String {
        parse_date(text, context).unwrap_or_else(|| panic!("no date in {text:?}")).date.format("%Y-%m-%d").to_string()
    }

    #[test]
    fn zones_in_the_text_win_over_the_context() {
        let ctx = context().with_timezone(chrono_tz::Asia::Tokyo);
        let d = parse_date("2018-09-05 23:18:29 +0900 JST", &ctx).unwrap();
        assert_eq!(d.date.to_rfc3339(), "2018-09-05T23:18:29+09:00");
        let d = parse_date("2021-05-04", &ctx).unwrap();
        assert_eq!(d.date.to_rfc3339(), "2021-05-04T00:00:00+09:00");
        assert_eq!(d.precision, Precision::Day);
        let d = parse_date("Tue, 20 Apr 2021 00:00:00 +0000", &ctx).unwrap();
        assert_eq!(d.date.to_rfc3339(), "2021-04-20T00:00:00+00:00");
        let d = parse_date("2018-10-22T00:00:00.000Z", &context()).unwrap();
        assert_eq!((d.date.to_rfc3339(), d.precision), ("2018-10-22T00:00:00+00:00".into(), Precision::Second));
    }

    #[test]
    fn relative_dates_count_back_from_now() {
        let ctx = context();
        assert_eq!(parse_date("3 hours ago", &ctx).unwrap().date.to_rfc3339(), "2024-05-15T09:00:00+00:00");
        assert_eq!(day("yesterday", &ctx), "2024-05-14");
        assert_eq!(parse_date("昨天 12:30", &ctx).unwrap().date.to_rfc3339(), "2024-05-14T12:30:00+00:00");
        let d = parse_date("3 hours ago", &ctx).unwrap();
        assert!(d.relative);
    }

    #[test]
    fn dates_without_a_year_are_the_latest_before_now() {
        let ctx = context();
        assert_eq!(day("Jan 14", &ctx), "2024-01-14");
        assert_eq!(day("Dec 14", &ctx), "2023-12-14");
        // A time later than now was yesterday's.
        assert_eq!(day("16:13", &ctx), "2024-05-14");
        assert_eq!(day("11:13", &ctx), "2024-05-15");
        // February 29 is the last leap year's (an archive's year heading then says which).
        let in_2026 = DateContext::new(DateTime::parse_from_rfc3339("2026-11-27T12:00:00+00:00").unwrap());
        assert_eq!(day("Feb 29", &in_2026), "2024-02-29");
        assert_eq!(day("Mar 4", &in_2026), "2026-03-04");
    }

    #[test]
    fn ambiguous_numeric_dates_follow_the_language() {
        assert_eq!(day("03/04/2020", &context().with_lang("en-US")), "2020-03-04");
        assert_eq!(day("03/04/2020", &context().with_lang("en-GB")), "2020-04-03");
        assert_eq!(day("03/04/2020", &context().with_lang("fr")), "2020-04-03");
        // Only one reading is a date.
        assert_eq!(day("13/04/2020", &context().with_lang("en-US")), "2020-04-13");
    }

    #[test]
    fn impossible_dates_are_not_dates() {
        assert!(parse_date("2021-02-30", &context()).is_none_or(|d| d.pattern != "yyyy-mm-dd"));
    }

    #[test]
    fn find_dates_returns_every_date_in_order() {
        let dates = find_dates("Created 2021-10-20 | Updated 21 October 2021", &context());
        let days: Vec<String> = dates.iter().map(|d| d.date.format("%F").to_string()).collect();
        assert_eq!(days, ["2021-10-20", "2021-10-21"]);
    }
}
