//! Dates of rule fields. Every date a rule extracts goes through [`parse_date`], so that the
//! time-pattern DB can take over in one place.

use chrono::format::Parsed;
use chrono::{DateTime, Datelike, Duration, FixedOffset, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use super::Rule;
use crate::engines::timepattern::{self, DateContext};

/// ISO 8601 dates and times without an offset, as `datetime` attributes often give them.
const MACHINE_FORMATS: &[&str] = &["%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S%.f"];

/// How far into a text the rule's format is tried (dates sit at the start of their nodes).
const MAX_SCAN_CHARS: usize = 200;

/// The date in `text` (a date node's text or a `datetime` attribute): the rule's `<format>`
/// first, then RFC 3339 / RFC 2822, then the longest date the Time Pattern DB finds in the text
/// (every language and relative form it knows). A date without an offset is in the rule's
/// `<timezone>` (UTC without one), and with a `<timezone>` every date is given in it, as a feed
/// writes its dates in one zone; a date without a year is the latest such day not after `now`.
pub fn parse_date(text: &str, rule: &Rule, now: DateTime<Utc>) -> Option<DateTime<FixedOffset>> {
    let date = read_date(text, rule, now)?;
    Some(match rule.timezone {
        Some(tz) => date.with_timezone(&tz).fixed_offset(),
        None => date,
    })
}

fn read_date(text: &str, rule: &Rule, now: DateTime<Utc>) -> Option<DateTime<FixedOffset>> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let tz = rule.timezone.unwrap_or(Tz::UTC);
    if let Some(format) = &rule.date_format
        && let Some(date) = with_format(text, format.items(), tz, now)
    {
        return Some(date);
    }
    if let Ok(date) = DateTime::parse_from_rfc3339(text).or_else(|_| DateTime::parse_from_rfc2822(text)) {
        return Some(date);
    }
    // Machine dates without an offset (`datetime="2021-01-14 10:58"`), the common case of
    // rule date paths: read here, the whole Time Pattern DB need not run.
    if let Some(local) = MACHINE_FORMATS.iter().find_map(|format| NaiveDateTime::parse_from_str(text, format).ok()) {
        return in_zone(local, tz);
    }
    let context = DateContext::new(now.fixed_offset()).with_timezone(tz);
    timepattern::parse_date(text, &context).map(|found| found.date)
}

/// Try the format at the start of the text and at each later word start.
fn with_format(
    text: &str,
    items: &[chrono::format::Item<'static>],
    tz: Tz,
    now: DateTime<Utc>,
) -> Option<DateTime<FixedOffset>> {
    let mut previous: Option<char> = None;
    for (i, c) in text.char_indices().take(MAX_SCAN_CHARS) {
        // Where a word or a run of digits starts.
        let word_start = previous.is_none_or(|p| !p.is_alphanumeric() || p.is_ascii_digit() != c.is_ascii_digit());
        previous = Some(c);
        if !word_start {
            continue;
        }
        let mut parsed = Parsed::new();
        if chrono::format::parse_and_remainder(&mut parsed, &text[i..], items.iter()).is_err() {
            continue;
        }
        if let Some(date) = from_parsed(&mut parsed, tz, now) {
            return Some(date);
        }
    }
    None
}

fn from_parsed(parsed: &mut Parsed, tz: Tz, now: DateTime<Utc>) -> Option<DateTime<FixedOffset>> {
    if let Some(seconds) = parsed.timestamp() {
        return DateTime::from_timestamp(seconds, 0).map(|d| d.fixed_offset());
    }
    let without_year = parsed.year().is_none() && parsed.year_mod_100().is_none() && parsed.isoyear().is_none();
    if without_year {
        parsed.set_year(i64::from(now.with_timezone(&tz).year())).ok()?;
    }
    let date = parsed.to_naive_date().ok()?;
    let time = parsed.to_naive_time().unwrap_or(NaiveTime::MIN);
    let local = NaiveDateTime::new(date, time);
    let local = if without_year { not_after(local, tz, now)? } else { local };
    match parsed.offset() {
        Some(seconds) => FixedOffset::east_opt(seconds)?.from_local_datetime(&local).single(),
        None => in_zone(local, tz),
    }
}

/// A year-less date that would be in the future is last year's.
fn not_after(local: NaiveDateTime, tz: Tz, now: DateTime<Utc>) -> Option<NaiveDateTime> {
    let today = now.with_timezone(&tz).date_naive();
    if local.date() > today + Duration::days(1) { local.with_year(local.year() - 1) } else { Some(local) }
}

/// A local time in the zone; in a DST gap, the hour after.
fn in_zone(local: NaiveDateTime, tz: Tz) -> Option<DateTime<FixedOffset>> {
    tz.from_local_datetime(&local)
        .earliest()
        .or_else(|| tz.from_local_datetime(&(local + Duration::hours(1))).earliest())
        .map(|d| d.fixed_offset())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rules::DateFormat;

    fn rule(timezone: Option<&str>, format: Option<&str>) -> Rule {
        let mut rule = Rule::parse(
            r#"<page><subject path="/"><item path="//LI"><title>A</title></item></subject></page>"#,
            "test",
        )
        .unwrap();
        rule.timezone = timezone.map(|tz| tz.parse().unwrap());
        rule.date_format = format.map(|f| DateFormat::new(f).unwrap());
        rule
    }

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2024-03-10T12:00:00Z").unwrap().to_utc()
    }

    fn date(text: &str, rule: &Rule) -> Option<String> {
        parse_date(text, rule, now()).map(|d| d.to_rfc3339())
    }

    #[test]
    fn common_forms_in_the_rules_time_zone() {
        let tokyo = rule(Some("Asia/Tokyo"), None);
        for (text, expected) in [
            ("2025-12-29", "2025-12-29T00:00:00+09:00"),
            ("Posted 2021/4/20 18:05 by ann", "2021-04-20T18:05:00+09:00"),
            ("2018年7月30日", "2018-07-30T00:00:00+09:00"),
            ("2005 年 5 月 15 日 12 時 23 分", "2005-05-15T12:23:00+09:00"),
            ("2021.04.20", "2021-04-20T00:00:00+09:00"),
            ("November 6, 2022", "2022-11-06T00:00:00+09:00"),
            ("Kody Kester | Jun 26, 2022", "2022-06-26T00:00:00+09:00"),
            ("6th May 2024, 3:04 pm", "2024-05-06T15:04:00+09:00"),
            // Dates that name their offset keep their instant, given in the rule's zone.
            ("2020-02-06 23:07:17 +0800 +0800", "2020-02-07T00:07:17+09:00"),
            ("2018-10-22T00:00:00.000Z", "2018-10-22T09:00:00+09:00"),
            ("2021-01-14 10:58", "2021-01-14T10:58:00+09:00"),
            ("2021-01-14T10:58:30.250", "2021-01-14T10:58:30.250+09:00"),
            ("Tue, 20 Apr 2021 00:00:00 +0000", "2021-04-20T09:00:00+09:00"),
            // Without a year: the latest such day not after now (2024-03-10).
            ("Jan 14", "2024-01-14T00:00:00+09:00"),
            ("Dec 24", "2023-12-24T00:00:00+09:00"),
        ] {
            assert_eq!(date(text, &tokyo).as_deref(), Some(expected), "{text}");
        }
        assert_eq!(date("2021-04-20 10:00", &rule(None, None)).as_deref(), Some("2021-04-20T10:00:00+00:00"));
        // Without a zone, a date keeps the offset it names.
        assert_eq!(date("2020-02-06 23:07:17 +0800", &rule(None, None)).as_deref(), Some("2020-02-06T23:07:17+08:00"));
    }

    #[test]
    fn not_dates() {
        let utc = rule(None, None);
        for text in ["", "no date here", "order 12024-05-06", "2024-13-40", "May the force"] {
            assert_eq!(date(text, &utc), None, "{text}");
        }
    }

    #[test]
    fn the_rules_format_wins() {
        // Day first: the common forms would not read it.
        let dmy = rule(Some("Europe/Berlin"), Some("%d.%m.%Y %H:%M"));
        assert_eq!(date("am 06.05.2024 07:08 Uhr", &dmy).as_deref(), Some("2024-05-06T07:08:00+02:00"));
        let us = rule(None, Some("%m/%d/%Y"));
        assert_eq!(date("05/06/2024", &us).as_deref(), Some("2024-05-06T00:00:00+00:00"));
        // Numbers without their leading zero.
        let dmy = rule(None, Some("%d/%m/%Y"));
        assert_eq!(date("6/5/2024", &dmy).as_deref(), Some("2024-05-06T00:00:00+00:00"));
        // A format without a year.
        let md = rule(Some("Asia/Shanghai"), Some("%m月%d日"));
        assert_eq!(date("12月24日", &md).as_deref(), Some("2023-12-24T00:00:00+08:00"));
        // Text the format does not fit still gets the common forms.
        assert_eq!(date("2024-05-06", &us).as_deref(), Some("2024-05-06T00:00:00+00:00"));
    }
}
