//! Who may do what: the admin token (rule upload and delete, the admin page, OPML), per-feed
//! access tokens for `/rss` (optional), and the per-client rate limit on first fetches.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use actix_web::HttpRequest;
use actix_web::http::header::{AUTHORIZATION, COOKIE};
use governor::Quota;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;
use url::Url;

use crate::store::{Store, StoreError};

/// The cookie the admin page's login sets.
pub const ADMIN_COOKIE: &str = "html2rss_admin";
const ADMIN_TOKEN_SETTING: &str = "admin_token";
const FEED_KEY_SETTING: &str = "feed_token_key";

/// The admin token in force, and whether it was just generated (then it must be shown once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminToken {
    pub token: String,
    pub generated: bool,
}

/// The configured admin token (file or `HTML2RSS_ADMIN_TOKEN`), else the one stored at first
/// start, else a new random one, stored now.
pub fn admin_token(configured: Option<&str>, store: &Store) -> Result<AdminToken, StoreError> {
    if let Some(token) = configured.map(str::trim).filter(|t| !t.is_empty()) {
        return Ok(AdminToken { token: token.to_string(), generated: false });
    }
    let (token, generated) = store.setting_or_insert(ADMIN_TOKEN_SETTING, random_hex)?;
    Ok(AdminToken { token, generated })
}

/// The secret behind per-feed tokens, made at first start and kept in the store.
pub fn feed_key(store: &Store) -> Result<String, StoreError> {
    Ok(store.setting_or_insert(FEED_KEY_SETTING, random_hex)?.0)
}

/// 32 random bytes as hex, from the operating system's seeded CSPRNG.
fn random_hex() -> String {
    let mut bytes = [0u8; 32];
    rand::fill(&mut bytes);
    hex::encode(bytes)
}

/// Whether the request carries the admin token: `Authorization: Bearer TOKEN`, or the login
/// cookie (`SameSite=Strict`, so other sites cannot make a browser send it).
pub fn is_admin(request: &HttpRequest, token: &str) -> bool {
    has_bearer(request, token) || has_cookie(request, token)
}

/// `Authorization: Bearer TOKEN`, which a browser never adds by itself.
fn has_bearer(request: &HttpRequest, token: &str) -> bool {
    request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|given| same(given.trim(), token))
}

/// The admin page's login cookie.
fn has_cookie(request: &HttpRequest, token: &str) -> bool {
    request
        .headers()
        .get_all(COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == ADMIN_COOKIE && same(value, token))
}

/// The header that carries the CSRF token on requests that change something.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The admin page's CSRF token: derived from the admin token, so it changes with it and needs
/// no storage; the page puts it in the header of its requests.
pub fn csrf_token(admin_token: &str) -> String {
    hex::encode(&hmac_sha256(admin_token.as_bytes(), b"html2rss csrf")[..16])
}

/// Whether the request may change something: the admin token as a bearer header (a browser
/// never adds that by itself), or the login cookie together with the CSRF token in
/// [`CSRF_HEADER`] (which another site's page cannot read, so cannot send).
pub fn may_change(request: &HttpRequest, token: &str) -> bool {
    let csrf = || {
        request
            .headers()
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|given| same(given.trim(), &csrf_token(token)))
    };
    has_bearer(request, token) || (has_cookie(request, token) && csrf())
}

/// Compare secrets in time that does not depend on where they differ (`subtle`); only the
/// length, which is no secret, shows.
pub fn same(given: &str, expected: &str) -> bool {
    given.as_bytes().ct_eq(expected.as_bytes()).into()
}

/// The access token of one feed: HMAC-SHA256 of its page URL under the server's feed key,
/// 128 bits in hex. Anyone with the token reads that feed; no token opens another one.
pub fn feed_token(key: &str, url: &Url) -> String {
    hex::encode(&hmac_sha256(key.as_bytes(), url.as_str().as_bytes())[..16])
}

fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    mac.finalize().into_bytes().to_vec()
}

/// Per client address, `per_minute` first fetches, refilled continuously (`governor`'s GCRA:
/// a burst of `per_minute`, one more every `60 / per_minute` seconds).
pub struct RateLimiter<C: Clock = DefaultClock> {
    limiter: Option<KeyedLimiter<C>>,
    clock: C,
}

type KeyedLimiter<C> =
    governor::RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// Above this many tracked clients, those whose bucket is full again are forgotten.
const TRACKED_CLIENTS: usize = 10_000;

impl RateLimiter {
    /// `per_minute` of 0: no limit.
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter::with_clock(per_minute, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    pub fn with_clock(per_minute: u32, clock: C) -> RateLimiter<C> {
        let limiter = NonZeroU32::new(per_minute).map(|n| {
            governor::RateLimiter::new(Quota::per_minute(n), DefaultKeyedStateStore::default(), clock.clone())
        });
        RateLimiter { limiter, clock }
    }

    /// Take one first fetch for `client`; `Err(wait)` when it has none left.
    pub fn take(&self, client: IpAddr) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else { return Ok(()) };
        if limiter.len() > TRACKED_CLIENTS {
            limiter.retain_recent();
        }
        limiter.check_key(&client).map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2 of RFC 4231.
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(hex::encode(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        // Test case 6: a key longer than the block.
        let mac = hmac_sha256(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First");
        assert_eq!(hex::encode(mac), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    }

    #[test]
    fn feed_tokens_differ_per_url_and_key() {
        let a = Url::parse("https://example.org/a").unwrap();
        let b = Url::parse("https://example.org/b").unwrap();
        assert_eq!(feed_token("k", &a).len(), 32);
        assert_eq!(feed_token("k", &a), feed_token("k", &a));
        assert_ne!(feed_token("k", &a), feed_token("k", &b));
        assert_ne!(feed_token("k", &a), feed_token("other", &a));
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "abcd"));
    }

    #[test]
    fn the_rate_limit_refills_over_a_minute() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(2, clock.clone());
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        assert!(limiter.take(ip).is_ok() && limiter.take(ip).is_ok());
        let wait = limiter.take(ip).unwrap_err();
        assert!(wait > Duration::from_secs(29) && wait <= Duration::from_secs(30), "{wait:?}");
        assert!(limiter.take(other).is_ok(), "per client");
        clock.advance(Duration::from_secs(30));
        assert!(limiter.take(ip).is_ok());
        assert!(limiter.take(ip).is_err());
        assert!(RateLimiter::new(0).take(ip).is_ok());
    }
}
