//! What can go wrong fetching a page, in classes the web layer turns into HTTP statuses.

use std::net::IpAddr;
use std::time::Duration;

/// Why a page was not fetched. [`FetchError::kind`] says which HTTP answer fits.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FetchError {
    #[error("{url} cannot be fetched: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("{url}: only http and https URLs are fetched, not {scheme}")]
    Scheme { url: String, scheme: String },
    #[error("{}", refusal(host, ip, reason))]
    Refused { host: String, ip: IpAddr, reason: &'static str },
    #[error("{url}: more than {max} redirects")]
    TooManyRedirects { url: String, max: usize },
    #[error("{url} answered HTTP {status}")]
    Status { url: String, status: u16, retry_after: Option<Duration> },
    #[error("{url}: {reason}")]
    Network { url: String, reason: String },
    #[error("{url}: timed out")]
    Timeout { url: String },
    #[error("{url}: the page is larger than the limit of {limit} bytes")]
    TooLarge { url: String, limit: u64 },
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

/// Classes of [`FetchError`], one per HTTP answer the server gives for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchErrorKind {
    /// 400: the URL is malformed or not http(s).
    BadRequest,
    /// 403: the URL leads to an address the guard refuses.
    Refused,
    /// 502: the upstream server failed (status, network, redirect loop).
    Upstream,
    /// 504: the upstream server did not answer in time.
    Timeout,
    /// 413 (or 502): the page is larger than the size cap.
    TooLarge,
    /// 500: our own configuration is broken.
    Internal,
}

impl FetchError {
    pub fn kind(&self) -> FetchErrorKind {
        match self {
            FetchError::BadUrl { .. } | FetchError::Scheme { .. } => FetchErrorKind::BadRequest,
            FetchError::Refused { .. } => FetchErrorKind::Refused,
            FetchError::TooManyRedirects { .. } | FetchError::Status { .. } | FetchError::Network { .. } => {
                FetchErrorKind::Upstream
            }
            FetchError::Timeout { .. } => FetchErrorKind::Timeout,
            FetchError::TooLarge { .. } => FetchErrorKind::TooLarge,
            FetchError::Client(_) => FetchErrorKind::Internal,
        }
    }

    /// How long the server asked us to wait (`Retry-After` on a 429 or 503), if it did.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// Whether trying again later may succeed (network trouble, timeouts, 408, 429, 5xx),
    /// as opposed to errors that stay until the URL or the page changes.
    pub fn is_transient(&self) -> bool {
        match self {
            FetchError::Network { .. } | FetchError::Timeout { .. } => true,
            FetchError::Status { status, .. } => matches!(status, 408 | 429 | 500..=599),
            _ => false,
        }
    }
}

fn refusal(host: &str, ip: &IpAddr, reason: &str) -> String {
    let literal = host.trim_start_matches('[').trim_end_matches(']') == ip.to_string();
    let address = if literal { String::new() } else { format!(" ({ip})") };
    format!("{host} is {reason}{address}; this server does not fetch such addresses")
}
