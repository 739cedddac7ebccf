//! The server's configuration: a TOML file (`serve --config FILE`) where every option has a
//! default that works on a laptop, so an empty file (or none) is a working configuration.
//! Unknown keys are errors, so a typo is reported with its line instead of being ignored.
//! The README's "Configuration" section documents every option.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use crate::fetch::{Backoff, DEFAULT_USER_AGENT, FetchConfig};

/// The environment variable that sets the admin token (it wins over the file).
pub const ADMIN_TOKEN_ENV: &str = "HTML2RSS_ADMIN_TOKEN";

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Address the server listens on.
    pub listen: String,
    /// The database: a SQLite file, or a `postgres://` address.
    pub db: PathBuf,
    /// Directory of mapping rules; `None`: the rules shipped inside the binary.
    pub rules_dir: Option<PathBuf>,
    /// Directory of time-pattern files; `None`: the patterns shipped inside the binary.
    pub time_patterns_dir: Option<PathBuf>,
    /// Token for rule upload and the admin page; `None`: generated at first start and stored.
    pub admin_token: Option<String>,
    /// Items in a feed: the newest N the store keeps for the source.
    pub items_per_feed: usize,
    /// How long the first request for a new URL waits for its fetch and extraction.
    #[serde(deserialize_with = "duration")]
    pub first_fetch_deadline: Duration,
    /// First fetches (URLs not stored yet) allowed per client IP per minute; 0: no limit.
    pub first_fetches_per_minute: u32,
    /// Require a per-feed access token on `/rss` (`&token=`, shown on the admin page).
    pub require_feed_tokens: bool,
    /// The server's public address (`https://feeds.example.org`), for feed self links and
    /// OPML; `None`: taken from each request's `Host`.
    pub public_url: Option<String>,
    /// Memory for rendered feeds kept ready to serve: bytes, or a size like `"16MiB"`.
    #[serde(deserialize_with = "byte_size")]
    pub feed_cache_size: u64,
    /// How long a feed's stamp (its version) read from the store is trusted without reading it
    /// again: another process's change to a feed is seen this late at most. On PostgreSQL the
    /// servers are told of changes at once, and this is only how long a change told to nobody
    /// (the listener reconnecting) could go unseen.
    #[serde(deserialize_with = "duration")]
    pub stamp_ttl: Duration,
    pub fetch: FetchSection,
    pub updater: UpdaterSection,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FetchSection {
    /// Allow fetching loopback, private and link-local addresses (turns the SSRF guard off).
    pub allow_private: bool,
    #[serde(deserialize_with = "duration")]
    pub connect_timeout: Duration,
    /// Longest silence while a response streams in.
    #[serde(deserialize_with = "duration")]
    pub read_timeout: Duration,
    /// Time for a whole fetch, redirects and body included.
    #[serde(deserialize_with = "duration")]
    pub timeout: Duration,
    /// Largest page accepted (after decompression): bytes, or a string like `"10MiB"`.
    #[serde(deserialize_with = "byte_size")]
    pub max_body_size: u64,
    pub max_redirects: usize,
    pub user_agent: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UpdaterSection {
    /// Workers that refresh only fresh sources (new URLs), so they never wait behind old ones.
    pub fresh_workers: usize,
    /// Workers for all other sources.
    pub workers: usize,
    /// Update interval a new source starts with; the updater adapts it within the bounds.
    #[serde(deserialize_with = "duration")]
    pub default_interval: Duration,
    #[serde(deserialize_with = "duration")]
    pub min_interval: Duration,
    #[serde(deserialize_with = "duration")]
    pub max_interval: Duration,
    /// Least time between two requests to the same host.
    #[serde(deserialize_with = "duration")]
    pub per_host_delay: Duration,
    /// Back-off after a failure starts here and doubles per consecutive failure…
    #[serde(deserialize_with = "duration")]
    pub backoff_base: Duration,
    /// …up to this.
    #[serde(deserialize_with = "duration")]
    pub backoff_max: Duration,
    /// A source that has not been fetched successfully for this long is marked unhealthy and
    /// refreshed only once per `backoff_max` (it is never dropped).
    #[serde(deserialize_with = "duration")]
    pub unhealthy_after: Duration,
    /// The longest an idle worker sleeps before looking for due sources again.
    #[serde(deserialize_with = "duration")]
    pub idle_poll: Duration,
    /// At shutdown, how long refreshes in flight may take to finish before they are abandoned.
    #[serde(deserialize_with = "duration")]
    pub shutdown_grace: Duration,
    /// For sources with full text: most item pages fetched after one refresh (the newest
    /// items without content first; the rest wait for the next refresh). 0: none.
    pub max_article_fetches: usize,
    /// Item pages of different hosts fetched at once during one refresh (one host always gets
    /// one request at a time, with `per_host_delay` between them).
    pub article_concurrency: usize,
    /// Items whose list page shows no date: most of their article pages read for their dates
    /// after one refresh (not on first fetches; full-text reads give dates without counting
    /// here). 0: they keep the time they were first seen.
    pub article_dates: usize,
    /// Train a template for each site that has a feed (at most once a day per site), which
    /// the engine choice then uses for the site's pages.
    pub train_templates: bool,
    /// How long a claimed source stays with its worker: a server that dies mid-refresh leaves
    /// its sources to the others after this. `None`: longer than any refresh the other
    /// settings allow ([`crate::updater::lease_for`]); shorter lets a slow refresh be
    /// refreshed twice at once.
    #[serde(deserialize_with = "opt_duration")]
    pub source_lease: Option<Duration>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".into(),
            db: PathBuf::from("html2rss.db"),
            rules_dir: None,
            time_patterns_dir: None,
            admin_token: None,
            items_per_feed: 50,
            first_fetch_deadline: Duration::from_secs(20),
            first_fetches_per_minute: 10,
            require_feed_tokens: false,
            public_url: None,
            feed_cache_size: 8 << 20,
            stamp_ttl: Duration::from_secs(10),
            fetch: FetchSection::default(),
            updater: UpdaterSection::default(),
        }
    }
}

impl Default for FetchSection {
    fn default() -> Self {
        let defaults = FetchConfig::default();
        FetchSection {
            allow_private: defaults.allow_private,
            connect_timeout: defaults.connect_timeout,
            read_timeout: defaults.read_timeout,
            timeout: defaults.total_timeout,
            max_body_size: defaults.max_body_bytes,
            max_redirects: defaults.max_redirects,
            user_agent: DEFAULT_USER_AGENT.into(),
        }
    }
}

impl Default for UpdaterSection {
    fn default() -> Self {
        UpdaterSection {
            fresh_workers: 2,
            workers: 8,
            default_interval: Duration::from_secs(3600),
            min_interval: Duration::from_secs(10 * 60),
            max_interval: Duration::from_secs(7 * 24 * 3600),
            per_host_delay: Duration::from_secs(2),
            backoff_base: Duration::from_secs(5 * 60),
            backoff_max: Duration::from_secs(24 * 3600),
            unhealthy_after: Duration::from_secs(3 * 24 * 3600),
            idle_poll: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
            max_article_fetches: 20,
            article_concurrency: 4,
            // As many as full text: a new subscription's undated backlog (a feed holds 50) is
            // dated within three refreshes, and one refresh holds its worker for at most 20
            // polite requests to the site.
            article_dates: 20,
            train_templates: true,
            source_lease: None,
        }
    }
}

/// Why the configuration was not loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration {path}: {error}")]
    Read { path: PathBuf, error: std::io::Error },
    /// `message` is the TOML parser's, with the line, column and the offending text.
    #[error("configuration {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("configuration {path}: `{key}` {reason}")]
    Invalid { path: PathBuf, key: &'static str, reason: String },
}

impl Config {
    /// Read and check a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text =
            std::fs::read_to_string(path).map_err(|error| ConfigError::Read { path: path.to_path_buf(), error })?;
        Config::parse(&text, path)
    }

    /// Parse and check configuration text; `path` is only for messages.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text)
            .map_err(|e| ConfigError::Parse { path: path.to_path_buf(), message: e.to_string().trim_end().into() })?;
        config.check().map_err(|(key, reason)| ConfigError::Invalid { path: path.to_path_buf(), key, reason })?;
        Ok(config)
    }

    /// Settings from the environment win over the file: `HTML2RSS_ADMIN_TOKEN`.
    pub fn apply_env(&mut self, var: impl Fn(&str) -> Option<String>) {
        if let Some(token) = var(ADMIN_TOKEN_ENV).filter(|t| !t.trim().is_empty()) {
            self.admin_token = Some(token);
        }
    }

    /// The fetcher's configuration.
    pub fn fetch_config(&self) -> FetchConfig {
        FetchConfig {
            allow_private: self.fetch.allow_private,
            connect_timeout: self.fetch.connect_timeout,
            read_timeout: self.fetch.read_timeout,
            total_timeout: self.fetch.timeout,
            max_body_bytes: self.fetch.max_body_size,
            max_redirects: self.fetch.max_redirects,
            user_agent: self.fetch.user_agent.clone(),
            pinned: Vec::new(),
        }
    }

    /// The updater's back-off after failures.
    pub fn backoff(&self) -> Backoff {
        Backoff { base: self.updater.backoff_base, max: self.updater.backoff_max }
    }

    fn check(&self) -> Result<(), (&'static str, String)> {
        let positive = |key, value: Duration| {
            if value.is_zero() { Err((key, "must be longer than zero".to_string())) } else { Ok(()) }
        };
        if self.listen.trim().is_empty() {
            return Err(("listen", "must be an address like \"127.0.0.1:8080\"".into()));
        }
        if self.items_per_feed == 0 {
            return Err(("items_per_feed", "must be at least 1".into()));
        }
        positive("first_fetch_deadline", self.first_fetch_deadline)?;
        positive("fetch.connect_timeout", self.fetch.connect_timeout)?;
        positive("fetch.read_timeout", self.fetch.read_timeout)?;
        positive("fetch.timeout", self.fetch.timeout)?;
        if self.fetch.max_body_size == 0 {
            return Err(("fetch.max_body_size", "must be more than zero bytes".into()));
        }
        if !is_header_text(&self.fetch.user_agent) {
            return Err(("fetch.user_agent", "must be printable ASCII without line breaks".into()));
        }
        if self.updater.workers == 0 {
            return Err(("updater.workers", "must be at least 1".into()));
        }
        let u = &self.updater;
        positive("updater.min_interval", u.min_interval)?;
        positive("updater.backoff_base", u.backoff_base)?;
        if u.min_interval > u.max_interval {
            return Err(("updater.min_interval", "is longer than updater.max_interval".into()));
        }
        if u.default_interval < u.min_interval || u.default_interval > u.max_interval {
            return Err(("updater.default_interval", "is outside updater.min_interval..updater.max_interval".into()));
        }
        if u.backoff_base > u.backoff_max {
            return Err(("updater.backoff_base", "is longer than updater.backoff_max".into()));
        }
        positive("updater.idle_poll", u.idle_poll)?;
        if let Some(lease) = u.source_lease {
            positive("updater.source_lease", lease)?;
        }
        if u.article_concurrency == 0 {
            return Err(("updater.article_concurrency", "must be at least 1".into()));
        }
        if let Some(public) = &self.public_url {
            match url::Url::parse(public) {
                Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {}
                _ => {
                    return Err((
                        "public_url",
                        format!("\"{public}\" is not an http(s) address like \"https://feeds.example.org\""),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Whether an HTTP header can carry `value`: visible ASCII, spaces and tabs.
fn is_header_text(value: &str) -> bool {
    value.bytes().all(|b| b == b' ' || b == b'\t' || b.is_ascii_graphic())
}

/// A duration written as a number and a unit: `"500ms"`, `"30s"`, `"10m"`, `"2h"`, `"7d"`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let bad =
        || format!("\"{text}\" is not a duration; write a number and a unit, like \"30s\", \"10m\", \"2h\" or \"7d\"");
    let n: u64 = number.parse().map_err(|_| bad())?;
    let seconds = |factor: u64| n.checked_mul(factor).map(Duration::from_secs).ok_or_else(bad);
    match unit.trim() {
        "ms" => Ok(Duration::from_millis(n)),
        "s" => seconds(1),
        "m" => seconds(60),
        "h" => seconds(3600),
        "d" => seconds(24 * 3600),
        _ => Err(bad()),
    }
}

/// A size in bytes: a number, or a number and a unit (`"512KiB"`, `"10MiB"`, `"10MB"`, `"1GiB"`).
pub fn parse_byte_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let bad = || format!("\"{text}\" is not a size; write bytes or a number and a unit, like \"10MiB\" or \"500KB\"");
    let n: u64 = number.parse().map_err(|_| bad())?;
    let factor: u64 = match unit.trim() {
        "" | "B" => 1,
        "KB" => 1000,
        "KiB" => 1 << 10,
        "MB" => 1000 * 1000,
        "MiB" => 1 << 20,
        "GB" => 1000 * 1000 * 1000,
        "GiB" => 1 << 30,
        _ => return Err(bad()),
    };
    n.checked_mul(factor).ok_or_else(bad)
}

fn duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_duration(&text).map_err(de::Error::custom)
}

fn opt_duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Duration>, D::Error> {
    duration(deserializer).map(Some)
}

fn byte_size<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    struct Size;
    impl Visitor<'_> for Size {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a number of bytes or a size like \"10MiB\"")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom("a size cannot be negative"))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            parse_byte_size(v).map_err(E::custom)
        }
    }
    deserializer.deserialize_any(Size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("html2rss.toml"))
    }

    #[test]
    fn an_empty_file_is_the_defaults_and_they_are_valid() {
        let config = parse("").unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.listen, "127.0.0.1:8080");
        assert_eq!(config.db, PathBuf::from("html2rss.db"));
        assert!(!config.fetch.allow_private);
        assert_eq!(config.fetch_config(), FetchConfig::default());
    }

    #[test]
    fn every_option_is_read() {
        let config = parse(
            r#"
            listen = "0.0.0.0:9000"
            db = "/var/lib/html2rss/feeds.db"
            rules_dir = "rules"
            time_patterns_dir = "time_patterns"
            admin_token = "s3cret"
            items_per_feed = 30
            first_fetch_deadline = "15s"
            first_fetches_per_minute = 0
            require_feed_tokens = true
            public_url = "https://feeds.example.org/"
            feed_cache_size = "4MiB"
            stamp_ttl = "1m"

            [fetch]
            allow_private = true
            connect_timeout = "5s"
            read_timeout = "1500ms"
            timeout = "1m"
            max_body_size = "2MiB"
            max_redirects = 3
            user_agent = "my-feeds/1.0"

            [updater]
            fresh_workers = 1
            workers = 32
            default_interval = "30m"
            min_interval = "5m"
            max_interval = "14d"
            per_host_delay = "500ms"
            backoff_base = "1m"
            backoff_max = "6h"
            unhealthy_after = "2d"
            idle_poll = "5s"
            shutdown_grace = "3s"
            article_dates = 0
            source_lease = "2m"
            "#,
        )
        .unwrap();
        assert_eq!(config.listen, "0.0.0.0:9000");
        assert_eq!(config.rules_dir, Some(PathBuf::from("rules")));
        assert_eq!((config.items_per_feed, config.first_fetches_per_minute), (30, 0));
        assert_eq!(config.first_fetch_deadline, Duration::from_secs(15));
        let fetch = config.fetch_config();
        assert!(fetch.allow_private);
        assert_eq!((fetch.read_timeout, fetch.total_timeout), (Duration::from_millis(1500), Duration::from_secs(60)));
        assert_eq!((fetch.max_body_bytes, fetch.max_redirects), (2 * 1024 * 1024, 3));
        assert_eq!(fetch.user_agent, "my-feeds/1.0");
        assert_eq!((config.updater.fresh_workers, config.updater.workers), (1, 32));
        assert_eq!(config.updater.max_interval, Duration::from_secs(14 * 86400));
        assert!(config.require_feed_tokens);
        assert_eq!(
            (config.public_url.as_deref(), config.feed_cache_size),
            (Some("https://feeds.example.org/"), 4 << 20)
        );
        assert_eq!((config.stamp_ttl, Config::default().stamp_ttl), (Duration::from_secs(60), Duration::from_secs(10)));
        let u = &config.updater;
        assert_eq!(
            (u.unhealthy_after, u.idle_poll, u.shutdown_grace),
            (Duration::from_secs(2 * 86400), Duration::from_secs(5), Duration::from_secs(3))
        );
        assert_eq!((u.article_dates, UpdaterSection::default().article_dates), (0, 20));
        assert_eq!((u.source_lease, UpdaterSection::default().source_lease), (Some(Duration::from_secs(120)), None));
        assert_eq!(config.backoff(), Backoff { base: Duration::from_secs(60), max: Duration::from_secs(6 * 3600) });
        assert_eq!(parse("[fetch]\nmax_body_size = 1000").unwrap().fetch.max_body_size, 1000);
    }

    #[test]
    fn a_typo_is_an_error_naming_the_key_and_line() {
        let message = parse("listen = \"127.0.0.1:1\"\n\n[updater]\nworkrs = 4\n").unwrap_err().to_string();
        assert!(message.contains("html2rss.toml"), "{message}");
        assert!(message.contains("line 4"), "{message}");
        assert!(message.contains("workrs"), "{message}");
    }

    #[test]
    fn bad_values_are_errors_naming_the_key() {
        for (text, needle) in [
            ("first_fetch_deadline = \"soon\"", "\"soon\" is not a duration"),
            ("first_fetch_deadline = 20", "invalid type"),
            ("[fetch]\nmax_body_size = \"10 potatoes\"", "is not a size"),
            ("[fetch]\nmax_body_size = -1", "cannot be negative"),
            ("items_per_feed = 0", "`items_per_feed` must be at least 1"),
            ("[fetch]\ntimeout = \"0s\"", "`fetch.timeout` must be longer than zero"),
            ("[fetch]\nuser_agent = \"a\\nb\"", "`fetch.user_agent`"),
            ("[updater]\nworkers = 0", "`updater.workers`"),
            ("[updater]\nmin_interval = \"2h\"\nmax_interval = \"1h\"", "`updater.min_interval` is longer"),
            ("[updater]\ndefault_interval = \"1m\"", "`updater.default_interval` is outside"),
            ("public_url = \"feeds.example.org\"", "`public_url`"),
            ("[updater]\nidle_poll = \"0s\"", "`updater.idle_poll`"),
        ] {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.contains(needle), "{text}: {message}");
        }
    }

    #[test]
    fn units() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(604800)));
        assert!(parse_duration("1.5h").is_err());
        assert!(parse_duration("h").is_err());
        assert!(parse_duration("99999999999999999999d").is_err());
        assert_eq!(parse_byte_size("512KiB"), Ok(524288));
        assert_eq!(parse_byte_size("10MB"), Ok(10_000_000));
        assert!(parse_byte_size("18446744073709551615GiB").is_err());
    }

    #[test]
    fn the_environment_sets_the_admin_token() {
        let mut config = parse("admin_token = \"from-file\"").unwrap();
        config.apply_env(|_| Some("  ".into()));
        assert_eq!(config.admin_token.as_deref(), Some("from-file"));
        config.apply_env(|name| (name == ADMIN_TOKEN_ENV).then(|| "from-env".into()));
        assert_eq!(config.admin_token.as_deref(), Some("from-env"));
    }

    #[test]
    fn a_missing_file_is_named() {
        let message = Config::load(Path::new("/no/such/html2rss.toml")).unwrap_err().to_string();
        assert!(message.contains("/no/such/html2rss.toml"), "{message}");
    }
}
