//! Fetching pages over HTTP: the only module that knows reqwest.
//!
//! A [`Fetcher`] is built once from a [`FetchConfig`] and shared (it is cheap to clone; clones
//! share one connection pool). [`Fetcher::fetch`] does one conditional GET and returns plain
//! owned data: the body with its charset and validators, or "not modified", or a
//! [`FetchError`] whose [`kind`](FetchError::kind) says which HTTP answer fits.
//!
//! Safety: the SSRF guard ([`guard`]) is on unless `allow_private` is set. Limits: connect,
//! read and total timeouts, a body-size cap counted on the decompressed bytes as they stream
//! in (so a gzip bomb is cut off too), and a redirect cap with every hop checked by the guard.
//! Proxies from the environment are ignored: through a proxy the guard would only ever see the
//! proxy's address.
//!
//! Politeness ([`polite`]) is separate: the updater holds a [`HostPermit`] around each fetch
//! and uses [`Backoff`] after failures.

mod error;
pub mod guard;
mod headers;
pub mod polite;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use reqwest::header::{
    ACCEPT, CONTENT_TYPE, ETAG, HeaderMap, HeaderValue, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, LOCATION,
    RETRY_AFTER,
};
use url::Url;

pub use error::{FetchError, FetchErrorKind};
pub use guard::{Guard, GuardedResolver, refusal_reason};
pub use headers::{content_type, retry_after};
pub use polite::{Backoff, HostGate, HostPermit};

/// The User-Agent sent unless configured otherwise: who we are, so site owners can tell.
pub const DEFAULT_USER_AGENT: &str =
    concat!("html2rss/", env!("CARGO_PKG_VERSION"), " (feed generator; fetches pages that readers subscribe to)");

const ACCEPT_HTML: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// How the fetcher behaves. `Default` is safe for a public server.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchConfig {
    /// Turn the SSRF guard off: loopback, private and link-local addresses may be fetched.
    pub allow_private: bool,
    /// Time to establish the TCP (and TLS) connection.
    pub connect_timeout: Duration,
    /// Longest wait for any single read while the response streams in.
    pub read_timeout: Duration,
    /// Time for the whole request: connecting, redirects, headers and body.
    pub total_timeout: Duration,
    /// Largest body accepted, counted after decompression.
    pub max_body_bytes: u64,
    /// Most redirects followed for one fetch.
    pub max_redirects: usize,
    pub user_agent: String,
    /// Host names pinned to addresses, like curl's `--resolve` (a port of 0 means the URL's).
    /// Pinned names skip DNS and the guard's address check: they are configuration, not input.
    pub pinned: Vec<(String, SocketAddr)>,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            allow_private: false,
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(30),
            max_body_bytes: 10 * 1024 * 1024,
            max_redirects: 5,
            user_agent: DEFAULT_USER_AGENT.to_string(),
            pinned: Vec::new(),
        }
    }
}

/// The validators of a stored response, sent back for a conditional GET.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validators {
    /// The `ETag` header, verbatim (quotes and `W/` included).
    pub etag: Option<String>,
    /// The `Last-Modified` header, verbatim.
    pub last_modified: Option<String>,
}

impl Validators {
    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }

    fn from_headers(headers: &HeaderMap) -> Validators {
        let text = |name| headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok()).map(str::to_string);
        Validators { etag: text(ETAG), last_modified: text(LAST_MODIFIED) }
    }
}

/// A fetched page (a 2xx answer), as plain owned data.
#[derive(Debug, Clone)]
pub struct Response {
    /// Where the page was found, after redirects.
    pub url: Url,
    pub status: u16,
    /// The body, decompressed.
    pub body: Vec<u8>,
    /// The media type of `Content-Type`, lowercased (`text/html`).
    pub media_type: Option<String>,
    /// The `charset` parameter of `Content-Type`, for [`crate::dom::ParseOptions::header_charset`].
    pub charset: Option<String>,
    /// The validators to store for the next conditional GET.
    pub validators: Validators,
}

/// What a conditional GET gives.
#[derive(Debug, Clone)]
pub enum FetchOutcome {
    Fetched(Response),
    /// `304 Not Modified`: the stored page is current. `validators` are the ones to keep: those
    /// the 304 carried, else the ones that were sent.
    NotModified {
        url: Url,
        validators: Validators,
    },
}

/// The HTTP client. Clones share one connection pool.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    guard: Guard,
    max_body_bytes: u64,
}

impl Fetcher {
    pub fn new(config: &FetchConfig) -> Result<Fetcher, FetchError> {
        let guard = Guard { enabled: !config.allow_private };
        let max_redirects = config.max_redirects;
        let policy = reqwest::redirect::Policy::custom(move |attempt| {
            // `previous` holds every URL requested so far, the original one included.
            let followed = attempt.previous().len().saturating_sub(1);
            match guard.check_redirect(attempt.url(), followed, max_redirects) {
                Ok(()) => attempt.follow(),
                Err(refusal) => attempt.error(refusal),
            }
        });
        let user_agent = HeaderValue::from_str(&config.user_agent)
            .map_err(|_| FetchError::Client(format!("the user agent {:?} is not a valid header", config.user_agent)))?;
        let mut builder = reqwest::Client::builder()
            .user_agent(user_agent)
            .connect_timeout(config.connect_timeout)
            .read_timeout(config.read_timeout)
            .timeout(config.total_timeout)
            .redirect(policy)
            .referer(false)
            .no_proxy()
            .gzip(true)
            .brotli(true)
            .dns_resolver(Arc::new(GuardedResolver { guard }));
        for (name, addr) in &config.pinned {
            builder = builder.resolve(name, *addr);
        }
        let client = builder.build().map_err(|e| FetchError::Client(error_chain(&e)))?;
        Ok(Fetcher { client, guard, max_body_bytes: config.max_body_bytes })
    }

    /// GET `url`, conditionally when `validators` are given.
    pub async fn fetch(&self, url: &Url, validators: &Validators) -> Result<FetchOutcome, FetchError> {
        // reqwest does not ask the resolver about IP-literal hosts: check them here.
        self.guard.check_url(url)?;
        let mut request = self.client.get(url.clone()).header(ACCEPT, ACCEPT_HTML);
        // A stored validator that is not a valid header value cannot be sent; fetch in full.
        if let Some(etag) = validators.etag.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            request = request.header(IF_NONE_MATCH, etag);
        }
        if let Some(date) = validators.last_modified.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            request = request.header(IF_MODIFIED_SINCE, date);
        }
        let mut response = request.send().await.map_err(|e| classify(e, url))?;
        let final_url = response.url().clone();
        let status = response.status();
        let headers = response.headers();
        if status == reqwest::StatusCode::NOT_MODIFIED {
            let fresh = Validators::from_headers(headers);
            let validators = if fresh.is_empty() { validators.clone() } else { fresh };
            return Ok(FetchOutcome::NotModified { url: final_url, validators });
        }
        if !status.is_success() {
            // reqwest hands back redirects it cannot follow, e.g. to `file:`; say why.
            if let Some(target) = status
                .is_redirection()
                .then(|| headers.get(LOCATION)?.to_str().ok())
                .flatten()
                .and_then(|location| final_url.join(location).ok())
            {
                self.guard.check_url(&target)?;
            }
            let retry_after = headers
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| headers::retry_after(v, SystemTime::now()));
            return Err(FetchError::Status { url: final_url.to_string(), status: status.as_u16(), retry_after });
        }
        let (media_type, charset) =
            headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(headers::content_type).unwrap_or_default();
        let validators = Validators::from_headers(headers);

        let too_large = || FetchError::TooLarge { url: final_url.to_string(), limit: self.max_body_bytes };
        let declared = response.content_length().unwrap_or(0);
        if declared > self.max_body_bytes {
            return Err(too_large());
        }
        let mut body = Vec::with_capacity(declared as usize);
        while let Some(chunk) = response.chunk().await.map_err(|e| classify(e, &final_url))? {
            if (body.len() + chunk.len()) as u64 > self.max_body_bytes {
                // Dropping the response closes the connection: the rest is never read.
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(FetchOutcome::Fetched(Response {
            url: final_url,
            status: status.as_u16(),
            body,
            media_type,
            charset,
            validators,
        }))
    }

    /// GET `url` unconditionally.
    pub async fn get(&self, url: &Url) -> Result<Response, FetchError> {
        match self.fetch(url, &Validators::default()).await? {
            FetchOutcome::Fetched(response) => Ok(response),
            // Servers may not answer 304 to a request without validators.
            FetchOutcome::NotModified { url, .. } => {
                Err(FetchError::Status { url: url.to_string(), status: 304, retry_after: None })
            }
        }
    }
}

/// Turn a reqwest error into ours. The guard's refusals come back from inside reqwest (from the
/// resolver or the redirect policy) as the source of its error, so they are looked for first.
fn classify(error: reqwest::Error, url: &Url) -> FetchError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
    while let Some(e) = source {
        if let Some(ours) = e.downcast_ref::<FetchError>() {
            // The resolver only knows the host; name the URL that was being fetched.
            return match ours {
                FetchError::Network { reason, .. } => {
                    FetchError::Network { url: url.to_string(), reason: reason.clone() }
                }
                other => other.clone(),
            };
        }
        source = e.source();
    }
    let url = error.url().map_or_else(|| url.to_string(), Url::to_string);
    if error.is_timeout() {
        FetchError::Timeout { url }
    } else if error.is_builder() {
        FetchError::BadUrl { url, reason: error_chain(&error) }
    } else {
        FetchError::Network { url, reason: error_chain(&error) }
    }
}

/// An error and its causes on one line, without repeating what a cause already says.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let part = e.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = e.source();
    }
    text
}
