//! Where time comes from. Code that decides by time (the log-in back-off, sign-up
//! windows, token `iat`/`exp`, session expiry and renewal, ticket and pending log-in
//! expiry) reads a [`Clock`] instead of the system's, so tests can hold time still or
//! move it on without sleeping.

use std::{
    fmt,
    sync::Mutex,
    time::{Duration, SystemTime},
};

/// A source of wall-clock time. Wall-clock (not monotonic) time, so that several
/// instances sharing a database agree on it.
pub trait Clock: Send + Sync + fmt::Debug + 'static {
    /// Now.
    fn now(&self) -> SystemTime;

    /// Now, as a UTC date-time (stored timestamps).
    fn now_utc(&self) -> chrono::DateTime<chrono::Utc> {
        self.now().into()
    }

    /// Now, in whole Unix seconds (token claims, session and ticket expiry).
    fn unix_secs(&self) -> i64 {
        self.now_utc().timestamp()
    }

    /// Now, in Unix milliseconds (the shared limits' stored times).
    fn unix_millis(&self) -> i64 {
        unix_millis(self.now())
    }
}

/// `at` in Unix milliseconds (negative before 1970).
pub fn unix_millis(at: SystemTime) -> i64 {
    match at.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

/// The time `ms` Unix milliseconds name.
pub fn from_unix_millis(ms: i64) -> SystemTime {
    let span = Duration::from_millis(ms.unsigned_abs());
    if ms >= 0 {
        SystemTime::UNIX_EPOCH + span
    } else {
        SystemTime::UNIX_EPOCH - span
    }
}

/// The system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that moves only when told to (tests).
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<SystemTime>,
}

impl ManualClock {
    /// A clock standing at `now`.
    pub fn at(now: SystemTime) -> Self {
        Self {
            now: Mutex::new(now),
        }
    }

    /// A clock standing at the system's present time.
    pub fn starting_now() -> Self {
        Self::at(SystemTime::now())
    }

    /// Moves the clock on by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        *now += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// How long from `earlier` to `later`; zero when `later` is not after it (a clock set
/// back does not make a negative span).
pub fn since(later: SystemTime, earlier: SystemTime) -> Duration {
    later.duration_since(earlier).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_advanced() {
        let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let clock = ManualClock::at(start);
        assert_eq!(clock.now(), start);
        clock.advance(Duration::from_millis(1500));
        assert_eq!(since(clock.now(), start), Duration::from_millis(1500));
        assert_eq!(since(start, clock.now()), Duration::ZERO, "never negative");
    }

    #[test]
    fn advancing_moves_every_reading_of_the_clock() {
        let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let clock = ManualClock::at(start);
        assert_eq!(clock.unix_secs(), 1_800_000_000);
        assert_eq!(clock.now_utc().timestamp(), 1_800_000_000);
        clock.advance(Duration::from_millis(2500));
        assert_eq!(
            clock.unix_secs(),
            1_800_000_002,
            "whole seconds, rounded down"
        );
        assert_eq!(clock.now_utc().timestamp_millis(), 1_800_000_002_500);
        assert_eq!(clock.unix_millis(), 1_800_000_002_500);
    }

    #[test]
    fn unix_millis_round_trip_on_both_sides_of_1970() {
        for ms in [0, 1, 1_800_000_002_500, -1500] {
            assert_eq!(unix_millis(from_unix_millis(ms)), ms);
        }
    }
}
