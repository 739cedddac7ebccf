//! Who may do what: the admin token (rule upload and delete, the admin page, OPML), per-feed
//! access tokens for `/rss` (optional), and the per-client rate limit on first fetches.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::HttpRequest;
use actix_web::http::header::{AUTHORIZATION, COOKIE};
use sha2::{Digest, Sha256};
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
    let bearer = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    if bearer.is_some_and(|given| same(given, token)) {
        return true;
    }
    request
        .headers()
        .get_all(COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == ADMIN_COOKIE && same(value, token))
}

/// Compare secrets in time that does not depend on where they differ.
pub fn same(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The access token of one feed: HMAC-SHA256 of its page URL under the server's feed key,
/// 128 bits in hex. Anyone with the token reads that feed; no token opens another one.
pub fn feed_token(key: &str, url: &Url) -> String {
    hex::encode(&hmac_sha256(key.as_bytes(), url.as_str().as_bytes())[..16])
}

/// HMAC (RFC 2104) over SHA-256.
fn hmac_sha256(key: &[u8], message: &[u8]) -> Vec<u8> {
    const BLOCK: usize = 64;
    let mut padded = [0u8; BLOCK];
    if key.len() > BLOCK {
        padded[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        padded[..key.len()].copy_from_slice(key);
    }
    let inner_pad: Vec<u8> = padded.iter().map(|b| b ^ 0x36).collect();
    let outer_pad: Vec<u8> = padded.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::new().chain_update(&inner_pad).chain_update(message).finalize();
    Sha256::new().chain_update(&outer_pad).chain_update(inner).finalize().to_vec()
}

/// A token bucket per client address: `per_minute` first fetches, refilled continuously.
pub struct RateLimiter {
    per_minute: u32,
    clients: Mutex<HashMap<IpAddr, Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Forget buckets idle this long (they are full again by then).
const IDLE: Duration = Duration::from_secs(120);

impl RateLimiter {
    /// `per_minute` of 0: no limit.
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter { per_minute, clients: Mutex::new(HashMap::new()) }
    }

    /// Take one token for `client`; `Err(wait)` when it has none left.
    pub fn take(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let mut clients = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        if clients.len() > 10_000 {
            clients.retain(|_, b| now.duration_since(b.at) < IDLE);
        }
        let bucket = clients.entry(client).or_insert(Bucket { tokens: capacity, at: now });
        bucket.tokens = (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * per_second).min(capacity);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }
}

#[cfg(test)]
mod tests {
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
        let limiter = RateLimiter::new(2);
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        let t0 = Instant::now();
        assert!(limiter.take(ip, t0).is_ok() && limiter.take(ip, t0).is_ok());
        let wait = limiter.take(ip, t0).unwrap_err();
        assert!(wait > Duration::from_secs(29) && wait <= Duration::from_secs(30), "{wait:?}");
        assert!(limiter.take(other, t0).is_ok(), "per client");
        assert!(limiter.take(ip, t0 + Duration::from_secs(30)).is_ok());
        assert!(RateLimiter::new(0).take(ip, t0).is_ok());
    }
}
