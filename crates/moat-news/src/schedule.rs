//! Polling maths (design notes, "Polling etiquette").
//!
//! - Interval: Miniflux's entries-per-week formula, `one week / entries in the last
//!   week` (168 a week → 1 h; none → the maximum), floored at [`MIN_INTERVAL`] (FreshRSS's
//!   per-feed minimum) and capped at [`MAX_INTERVAL`]. A feed that keeps only its newest
//!   items (ZDNet Korea keeps 30, spanning 6–21 h) undercounts its week, so the interval
//!   is also kept at most half the time its items reach back (now − the oldest item):
//!   two polls fit in the window and nothing falls out of it unseen.
//! - Errors: exponential backoff from [`ERROR_BACKOFF_BASE`] doubling to
//!   [`ERROR_BACKOFF_MAX`]. The base is the per-feed minimum (15 min) rather than
//!   Squirro's 1 min, because a 429 counts as an ordinary error (FreshRSS#6712) and a
//!   retry sooner than the minimum would break the etiquette the minimum stands for; the
//!   cap is Squirro's 3 days (Miniflux uses a week), so a feed repaired after an outage
//!   is read again within 3 days. 15 min · 2⁸ = 64 h: the 10th error reaches the cap.
//! - `Retry-After`: seconds or an HTTP-date, clamped to [`RETRY_AFTER_MAX`] (robot.villas
//!   PR #132); per host, which the caller keeps (Feeder PR #292).
//! - Jitter: ±[`JITTER`] (Squirro), so feeds added together drift apart.

use std::time::Duration;

use chrono::{DateTime, NaiveDateTime, Utc};

/// The shortest interval between two polls of one feed.
pub const MIN_INTERVAL: Duration = Duration::from_secs(15 * 60);
/// The longest interval between two polls of one feed.
pub const MAX_INTERVAL: Duration = Duration::from_secs(24 * 3600);
/// The delay after the first error.
pub const ERROR_BACKOFF_BASE: Duration = MIN_INTERVAL;
/// The longest delay after errors.
pub const ERROR_BACKOFF_MAX: Duration = Duration::from_secs(3 * 24 * 3600);
/// The longest `Retry-After` honoured.
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(24 * 3600);
/// ± this fraction of an interval is random.
pub const JITTER: f64 = 0.25;
/// The span Miniflux's formula counts entries over.
pub const WEEK: Duration = Duration::from_secs(7 * 24 * 3600);

/// The interval until the next poll, from the times of the items the feed holds now.
/// Times in the future are ignored.
pub fn next_interval(item_times: &[DateTime<Utc>], now: DateTime<Utc>) -> Duration {
    let ages: Vec<Duration> = item_times
        .iter()
        .filter_map(|t| (now - *t).to_std().ok())
        .collect();
    let weekly = ages.iter().filter(|age| **age <= WEEK).count();
    if weekly == 0 {
        return MAX_INTERVAL;
    }
    let mut interval = WEEK / weekly as u32;
    if let Some(reach) = ages.iter().max() {
        interval = interval.min(*reach / 2);
    }
    interval.clamp(MIN_INTERVAL, MAX_INTERVAL)
}

/// The delay after `error_count` consecutive errors (1 for the first; 0 gives zero).
pub fn error_backoff(error_count: u32) -> Duration {
    if error_count == 0 {
        return Duration::ZERO;
    }
    let doublings = (error_count - 1).min(32);
    ERROR_BACKOFF_BASE
        .saturating_mul(1u32 << doublings.min(31))
        .min(ERROR_BACKOFF_MAX)
}

/// A `Retry-After` value (delay seconds, or an HTTP-date in any of the three formats
/// HTTP allows), clamped to [`RETRY_AFTER_MAX`]; a date in the past gives zero.
pub fn parse_retry_after(value: &str, now: DateTime<Utc>) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // A number too long for u64 is still "a long time".
        let secs = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(secs).min(RETRY_AFTER_MAX));
    }
    let at = http_date(value)?;
    let wait = (at - now).to_std().unwrap_or(Duration::ZERO);
    Some(wait.min(RETRY_AFTER_MAX))
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 and asctime (RFC 9110 §5.6.7).
fn http_date(value: &str) -> Option<DateTime<Utc>> {
    if let Ok(d) = DateTime::parse_from_rfc2822(value) {
        return Some(d.with_timezone(&Utc));
    }
    for format in ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(value, format) {
            return Some(naive.and_utc());
        }
    }
    None
}

/// `d` moved by up to ±[`JITTER`]: `rnd` 0 gives −25 %, 0.5 none, 1 +25 % (`rnd` is
/// clamped to 0..=1; NaN gives `d`).
pub fn jitter(d: Duration, rnd: f64) -> Duration {
    if rnd.is_nan() {
        return d;
    }
    let factor = 1.0 + JITTER * (2.0 * rnd.clamp(0.0, 1.0) - 1.0);
    d.mul_f64(factor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 28, 12, 0, 0)
            .single()
            .expect("a valid date")
    }

    fn every(step: chrono::Duration, count: i64) -> Vec<DateTime<Utc>> {
        (0..count).map(|i| now() - step * i as i32).collect()
    }

    #[test]
    fn the_interval_follows_the_feeds_pace() {
        // Miniflux's figures: 168 a week → 60 min; 3 a week → 56 h, capped at 24 h.
        let hourly = every(chrono::Duration::hours(1), 24 * 7);
        assert_eq!(next_interval(&hourly, now()), Duration::from_secs(3600));
        let sparse = every(chrono::Duration::hours(56), 3);
        assert_eq!(next_interval(&sparse, now()), MAX_INTERVAL);
        // 2,016 a week (every 5 min) → floored at 15 min.
        let busy = every(chrono::Duration::minutes(5), 2016);
        assert_eq!(next_interval(&busy, now()), MIN_INTERVAL);
        assert_eq!(next_interval(&[], now()), MAX_INTERVAL);
        let stale = every(chrono::Duration::days(1), 5)
            .into_iter()
            .map(|t| t - chrono::Duration::days(30))
            .collect::<Vec<_>>();
        assert_eq!(next_interval(&stale, now()), MAX_INTERVAL);
    }

    #[test]
    fn a_short_window_keeps_the_interval_below_it() {
        // 30 items over the last 6 hours (a feed that keeps its 30 newest): Miniflux
        // alone says 5.6 h, which would miss items; half the window is 3 h.
        let window = every(chrono::Duration::minutes(12), 31);
        assert_eq!(next_interval(&window, now()), Duration::from_secs(3 * 3600));
        // Future-dated items don't count.
        let mut with_future = window.clone();
        with_future.push(now() + chrono::Duration::days(3));
        assert_eq!(
            next_interval(&with_future, now()),
            Duration::from_secs(3 * 3600)
        );
    }

    #[test]
    fn error_backoff_doubles_up_to_its_cap() {
        assert_eq!(error_backoff(0), Duration::ZERO);
        assert_eq!(error_backoff(1), Duration::from_secs(15 * 60));
        assert_eq!(error_backoff(2), Duration::from_secs(30 * 60));
        assert_eq!(error_backoff(5), Duration::from_secs(4 * 3600));
        assert_eq!(error_backoff(9), Duration::from_secs(64 * 3600));
        assert_eq!(error_backoff(10), ERROR_BACKOFF_MAX);
        assert_eq!(error_backoff(u32::MAX), ERROR_BACKOFF_MAX);
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(
            parse_retry_after("120", now()),
            Some(Duration::from_secs(120))
        );
        assert_eq!(parse_retry_after(" 0 ", now()), Some(Duration::ZERO));
        assert_eq!(
            parse_retry_after("999999999999999999999999", now()),
            Some(RETRY_AFTER_MAX)
        );
        assert_eq!(
            parse_retry_after("Sat, 28 Nov 2026 12:10:00 GMT", now()),
            Some(Duration::from_secs(600))
        );
        assert_eq!(
            parse_retry_after("Saturday, 28-Nov-26 12:10:00 GMT", now()),
            Some(Duration::from_secs(600))
        );
        assert_eq!(
            parse_retry_after("Sat Nov 28 12:10:00 2026", now()),
            Some(Duration::from_secs(600))
        );
        assert_eq!(
            parse_retry_after("Fri, 27 Nov 2026 12:00:00 GMT", now()),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("Mon, 28 Dec 2026 12:00:00 GMT", now()),
            Some(RETRY_AFTER_MAX)
        );
        for bad in ["", "-5", "1.5", "soon", "12 minutes"] {
            assert_eq!(parse_retry_after(bad, now()), None, "input {bad:?}");
        }
    }

    #[test]
    fn jitter_stays_within_a_quarter() {
        let hour = Duration::from_secs(3600);
        assert_eq!(jitter(hour, 0.0), Duration::from_secs(2700));
        assert_eq!(jitter(hour, 0.5), hour);
        assert_eq!(jitter(hour, 1.0), Duration::from_secs(4500));
        assert_eq!(jitter(hour, 7.0), Duration::from_secs(4500));
        assert_eq!(jitter(hour, f64::NAN), hour);
    }
}
