//! Log-in back-off and sign-up limits, in memory per instance (a restart or another
//! instance starts afresh; see ARCHITECTURE.md).

use std::{
    collections::{HashMap, VecDeque},
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

/// Failed log-ins allowed before back-off starts.
pub const FREE_LOGIN_FAILURES: u32 = 5;
/// The first wait after the free failures; it doubles with each further failure.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);
/// The longest wait.
pub const MAX_BACKOFF: Duration = Duration::from_secs(15 * 60);
/// The sign-up window.
pub const SIGNUP_WINDOW: Duration = Duration::from_secs(60 * 60);
/// Entries kept before idle ones are swept.
const SWEEP_AT: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    blocked_until: Instant,
    last: Instant,
}

/// The limiter: failures per IP and per email, sign-ups per IP.
pub struct RateLimits {
    signups_per_hour: u32,
    failures: Mutex<HashMap<String, Failures>>,
    signups: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

/// The wait for the n-th failure past the free ones (0-based): 1 s, 2 s, 4 s, … ≤ 15 min.
pub fn backoff(extra_failures: u32) -> Duration {
    FIRST_BACKOFF
        .checked_mul(1u32.checked_shl(extra_failures).unwrap_or(u32::MAX))
        .unwrap_or(MAX_BACKOFF)
        .min(MAX_BACKOFF)
}

fn ip_key(ip: IpAddr) -> String {
    format!("ip:{ip}")
}

fn email_key(email: &str) -> String {
    format!("email:{email}")
}

impl RateLimits {
    pub fn new(signups_per_hour: u32) -> Self {
        Self {
            signups_per_hour,
            failures: Mutex::default(),
            signups: Mutex::default(),
        }
    }

    /// `Err(wait)` when a log-in from `ip` or for `email` must wait.
    pub fn check_login(&self, ip: IpAddr, email: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let wait = [ip_key(ip), email_key(email)]
            .iter()
            .filter_map(|k| map.get(k))
            .map(|f| f.blocked_until.saturating_duration_since(now))
            .max()
            .unwrap_or_default();
        if wait.is_zero() {
            Ok(())
        } else {
            Err(wait)
        }
    }

    /// Records a failed log-in for both keys.
    pub fn record_failure(&self, ip: IpAddr, email: &str) {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_AT {
            map.retain(|_, f| now.duration_since(f.last) < MAX_BACKOFF);
        }
        for key in [ip_key(ip), email_key(email)] {
            let f = map.entry(key).or_insert(Failures {
                count: 0,
                blocked_until: now,
                last: now,
            });
            // A quiet spell as long as the longest wait forgives old failures.
            if now.duration_since(f.last) >= MAX_BACKOFF {
                f.count = 0;
            }
            f.count = f.count.saturating_add(1);
            f.last = now;
            if f.count >= FREE_LOGIN_FAILURES {
                f.blocked_until = now + backoff(f.count - FREE_LOGIN_FAILURES);
            }
        }
    }

    /// Forgets the failures of a successful log-in.
    pub fn record_success(&self, ip: IpAddr, email: &str) {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&ip_key(ip));
        map.remove(&email_key(email));
    }

    /// Counts a sign-up from `ip`, or `Err(wait)` when the hour's allowance is used.
    pub fn take_signup(&self, ip: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let mut map = self.signups.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_AT {
            map.retain(|_, q| {
                q.back()
                    .is_some_and(|t| now.duration_since(*t) < SIGNUP_WINDOW)
            });
        }
        let q = map.entry(ip).or_default();
        while q
            .front()
            .is_some_and(|t| now.duration_since(*t) >= SIGNUP_WINDOW)
        {
            q.pop_front();
        }
        if q.len() >= self.signups_per_hour as usize {
            let oldest = q.front().copied().unwrap_or(now);
            return Err(SIGNUP_WINDOW.saturating_sub(now.duration_since(oldest)));
        }
        q.push_back(now);
        Ok(())
    }

    /// Gives back a sign-up that did not happen (invalid input, taken email).
    pub fn return_signup(&self, ip: IpAddr) {
        let mut map = self.signups.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = map.get_mut(&ip) {
            q.pop_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IP: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[test]
    fn backoff_doubles_from_one_second_up_to_fifteen_minutes() {
        assert_eq!(backoff(0), Duration::from_secs(1));
        assert_eq!(backoff(1), Duration::from_secs(2));
        assert_eq!(backoff(5), Duration::from_secs(32));
        assert_eq!(backoff(10), MAX_BACKOFF);
        assert_eq!(backoff(40), MAX_BACKOFF);
        assert_eq!(backoff(u32::MAX), MAX_BACKOFF);
    }

    #[test]
    fn five_failures_are_free_then_a_wait() {
        let r = RateLimits::new(10);
        for _ in 0..4 {
            r.record_failure(IP, "a@x.io");
            assert!(r.check_login(IP, "a@x.io").is_ok());
        }
        r.record_failure(IP, "a@x.io");
        let wait = r.check_login(IP, "a@x.io").unwrap_err();
        assert!(wait <= Duration::from_secs(1) && !wait.is_zero());
        // Per email from another IP, and per IP for another email.
        assert!(r
            .check_login("10.0.0.1".parse().unwrap(), "a@x.io")
            .is_err());
        assert!(r.check_login(IP, "b@x.io").is_err());
        r.record_success(IP, "a@x.io");
        assert!(r.check_login(IP, "a@x.io").is_ok());
    }

    #[test]
    fn sign_ups_are_limited_per_ip_per_hour() {
        let r = RateLimits::new(3);
        for _ in 0..3 {
            r.take_signup(IP).unwrap();
        }
        let wait = r.take_signup(IP).unwrap_err();
        assert!(wait > Duration::from_secs(3500));
        assert!(r.take_signup("10.0.0.2".parse().unwrap()).is_ok());
        r.return_signup(IP);
        assert!(r.take_signup(IP).is_ok());
    }
}
