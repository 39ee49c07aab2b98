//! `[news]`: feeds, polling politeness, limits and retention (docs/news.md).

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Section};

/// `[news]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct NewsConfig {
    /// Add and enable the default list of public feeds on start (a fresh install
    /// contacts no outside host until this is on or the operator adds feeds).
    pub default_feeds: bool,
    /// The operator's contact (an e-mail address or URL) in the User-Agent; SEC's
    /// fair-access policy asks for one.
    pub contact: String,
    /// Days an article is kept.
    pub retention_days: u32,
    /// Seconds between looks for feeds that are due.
    pub poll_tick_secs: u64,
    /// Feeds fetched at once, over all hosts.
    pub max_concurrent_fetches: usize,
    /// Requests in flight to one host at once.
    pub per_host_concurrency: usize,
    /// Milliseconds between the starts of two requests to one host (SEC's hosts are
    /// held to at least 100 ms, its 10 requests per second).
    pub per_host_interval_ms: u64,
    /// The largest feed body, decompressed, in bytes.
    pub max_feed_bytes: u64,
    /// The largest article image, in bytes.
    pub max_image_bytes: u64,
    /// Seconds a fetch may take from connect to the body's last byte (below the API's
    /// 30 s request timeout, so that the operator's "fetch now" reports it).
    pub fetch_timeout_secs: u64,
    /// Redirects followed per fetch.
    pub max_redirects: usize,
    /// Fetch articles' images into the media store (served from Moat's origin).
    pub images: bool,
    /// Seed feeds from configuration (added once, by URL; the operator's page edits
    /// them afterwards).
    pub feeds: Vec<FeedSeed>,
}

/// A feed in `[[news.feeds]]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FeedSeed {
    pub url: String,
    /// `KR` or `US`.
    pub country: String,
    /// `ko`, `en`, …
    pub language: String,
    pub source_name: String,
    #[serde(default = "yes")]
    pub enabled: bool,
}

fn yes() -> bool {
    true
}

/// The default of `retention_days`.
pub const DEFAULT_RETENTION_DAYS: u32 = 180;

impl Default for NewsConfig {
    fn default() -> Self {
        Self {
            default_feeds: false,
            contact: String::new(),
            retention_days: DEFAULT_RETENTION_DAYS,
            poll_tick_secs: 30,
            max_concurrent_fetches: 16,
            per_host_concurrency: 2,
            per_host_interval_ms: 250,
            max_feed_bytes: 10 * 1024 * 1024,
            max_image_bytes: 5 * 1024 * 1024,
            fetch_timeout_secs: 20,
            max_redirects: 5,
            images: true,
            feeds: Vec::new(),
        }
    }
}

/// Countries news is kept for.
pub const COUNTRIES: [&str; 2] = ["KR", "US"];

impl Section for NewsConfig {
    const NAME: &'static str = "news";
    const ENV_KEYS: &'static [&'static str] = &[
        "default_feeds",
        "contact",
        "retention_days",
        "poll_tick_secs",
        "max_concurrent_fetches",
        "per_host_concurrency",
        "per_host_interval_ms",
        "max_feed_bytes",
        "max_image_bytes",
        "fetch_timeout_secs",
        "max_redirects",
        "images",
    ];

    fn validate(&self) -> Result<(), ConfigError> {
        if self.retention_days == 0 || self.retention_days > 3650 {
            return Err(ConfigError::key("news.retention_days", "1 to 3650"));
        }
        if self.poll_tick_secs == 0 || self.poll_tick_secs > 3600 {
            return Err(ConfigError::key("news.poll_tick_secs", "1 to 3600"));
        }
        if self.max_concurrent_fetches == 0 || self.max_concurrent_fetches > 256 {
            return Err(ConfigError::key("news.max_concurrent_fetches", "1 to 256"));
        }
        if self.per_host_concurrency == 0 || self.per_host_concurrency > 16 {
            return Err(ConfigError::key("news.per_host_concurrency", "1 to 16"));
        }
        if self.per_host_interval_ms > 60_000 {
            return Err(ConfigError::key("news.per_host_interval_ms", "0 to 60000"));
        }
        if !(64 * 1024..=200 * 1024 * 1024).contains(&self.max_feed_bytes) {
            return Err(ConfigError::key("news.max_feed_bytes", "64 KiB to 200 MiB"));
        }
        if !(16 * 1024..=50 * 1024 * 1024).contains(&self.max_image_bytes) {
            return Err(ConfigError::key("news.max_image_bytes", "16 KiB to 50 MiB"));
        }
        if self.fetch_timeout_secs == 0 || self.fetch_timeout_secs > 25 {
            return Err(ConfigError::key("news.fetch_timeout_secs", "1 to 25"));
        }
        if self.max_redirects > 20 {
            return Err(ConfigError::key("news.max_redirects", "0 to 20"));
        }
        if self.contact.len() > 200 || self.contact.chars().any(char::is_control) {
            return Err(ConfigError::key(
                "news.contact",
                "at most 200 characters, no control characters",
            ));
        }
        for (i, feed) in self.feeds.iter().enumerate() {
            if !COUNTRIES.contains(&feed.country.as_str()) {
                return Err(ConfigError::key(
                    &format!("news.feeds[{i}].country"),
                    "KR or US",
                ));
            }
            if !feed.url.starts_with("http://") && !feed.url.starts_with("https://") {
                return Err(ConfigError::key(
                    &format!("news.feeds[{i}].url"),
                    "an http:// or https:// URL",
                ));
            }
            if feed.source_name.trim().is_empty() {
                return Err(ConfigError::key(
                    &format!("news.feeds[{i}].source_name"),
                    "not empty",
                ));
            }
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[news]
# Turn on Moat's default list of public feeds (Korean outlets, DART, SEC EDGAR). Off:
# a fresh install contacts no outside host until the operator adds feeds or uses the
# one-click default list on /operator/news.
default_feeds = {default_feeds}
# Your contact (e-mail or URL) in the User-Agent: SEC asks every client for one.
contact = "{contact}"
# Days an article is kept.
retention_days = {retention}
# Seconds between looks for due feeds (each feed has its own interval, 15 min to 24 h,
# from how often it posts).
poll_tick_secs = {tick}
# Politeness: feeds fetched at once, requests per host at once, and milliseconds
# between two requests to one host (SEC hosts: at least 100).
max_concurrent_fetches = {conc}
per_host_concurrency = {host_conc}
per_host_interval_ms = {host_ms}
# Limits of one fetch: body bytes after decompression, image bytes, seconds, redirects.
max_feed_bytes = {feed_bytes}
max_image_bytes = {image_bytes}
fetch_timeout_secs = {timeout}
max_redirects = {redirects}
# Copy articles' images into the media store, served from Moat's own origin.
images = {images}
# Feeds to add on start, once each (then edited on /operator/news):
# [[news.feeds]]
# url = "https://example.com/rss.xml"
# country = "KR"
# language = "ko"
# source_name = "Example"
"#,
            default_feeds = self.default_feeds,
            contact = self.contact,
            retention = self.retention_days,
            tick = self.poll_tick_secs,
            conc = self.max_concurrent_fetches,
            host_conc = self.per_host_concurrency,
            host_ms = self.per_host_interval_ms,
            feed_bytes = self.max_feed_bytes,
            image_bytes = self.max_image_bytes,
            timeout = self.fetch_timeout_secs,
            redirects = self.max_redirects,
            images = self.images,
        )
    }
}
