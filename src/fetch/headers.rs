//! Reading the response headers the fetcher reports: media type, charset, `Retry-After`.

use std::time::{Duration, SystemTime};

/// The media type (lowercased, e.g. `text/html`) and the `charset` parameter of a
/// `Content-Type` value.
pub fn content_type(value: &str) -> (Option<String>, Option<String>) {
    let mut parts = value.split(';');
    let media = parts.next().map(|m| m.trim().to_ascii_lowercase()).filter(|m| !m.is_empty());
    let charset = parts.find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches('"').trim();
        (!value.is_empty()).then(|| value.to_string())
    });
    (media, charset)
}

/// `Retry-After` as a delay from `now`: delay-seconds or an HTTP date (a date already past
/// means "now"). `None` when the value is neither.
pub fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // Absurdly long numbers are still a request to wait a long time.
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_parameters() {
        assert_eq!(
            content_type("Text/HTML; Charset=\"ISO-8859-1\""),
            (Some("text/html".into()), Some("ISO-8859-1".into()))
        );
        assert_eq!(content_type("text/html;charset=gbk;foo=bar"), (Some("text/html".into()), Some("gbk".into())));
        assert_eq!(content_type("text/html; boundary=x"), (Some("text/html".into()), None));
        assert_eq!(content_type("text/html; charset="), (Some("text/html".into()), None));
        assert_eq!(content_type(""), (None, None));
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(retry_after(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(retry_after("Sun, 06 Nov 1994 08:51:37 GMT", now), Some(Duration::from_secs(120)));
        // The two obsolete date forms HTTP still requires readers to accept.
        assert_eq!(retry_after("Sunday, 06-Nov-94 08:50:37 GMT", now), Some(Duration::from_secs(60)));
        assert_eq!(retry_after("Sun Nov  6 08:49:47 1994", now), Some(Duration::from_secs(10)));
        assert_eq!(retry_after("Sat, 05 Nov 1994 08:49:37 GMT", now), Some(Duration::ZERO));
        assert_eq!(retry_after("99999999999999999999999", now), Some(Duration::from_secs(u64::MAX)));
        for bad in ["", "-5", "1.5", "soon", "in 5 minutes"] {
            assert_eq!(retry_after(bad, now), None, "{bad}");
        }
    }
}
