//! Polling maths.

use std::time::Duration;

use chrono::{DateTime, Utc};

/// The shortest interval between two polls of one feed.
pub const MIN_INTERVAL: Duration = Duration::from_secs(15 * 60);
/// The longest interval between two polls of one feed.
pub const MAX_INTERVAL: Duration = Duration::from_secs(24 * 3600);
/// The delay after the first error.
pub const ERROR_BACKOFF_BASE: Duration = Duration::from_secs(60);
/// The longest delay after errors.
pub const ERROR_BACKOFF_MAX: Duration = Duration::from_secs(3 * 24 * 3600);
/// The longest `Retry-After` honoured.
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(24 * 3600);
/// ± this fraction of an interval is random.
pub const JITTER: f64 = 0.25;

/// The interval until the next poll, from the feed's item times.
pub fn next_interval(item_times: &[DateTime<Utc>], now: DateTime<Utc>) -> Duration {
    let _ = (item_times, now);
    todo!()
}

/// The delay after `error_count` consecutive errors (1 for the first).
pub fn error_backoff(error_count: u32) -> Duration {
    let _ = error_count;
    todo!()
}

/// A `Retry-After` value (seconds or an HTTP-date), clamped to [`RETRY_AFTER_MAX`].
pub fn parse_retry_after(value: &str, now: DateTime<Utc>) -> Option<Duration> {
    let _ = (value, now);
    todo!()
}

/// `d` moved by up to ±[`JITTER`]: `rnd` 0 gives −25 %, 0.5 none, 1 +25 %.
pub fn jitter(d: Duration, rnd: f64) -> Duration {
    let _ = (d, rnd);
    todo!()
}
