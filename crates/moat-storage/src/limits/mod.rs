//! Limits shared by every instance through the database: the log-in back-off, sliding
//! windows of events (sign-ups per address, the mail limits) and byte budgets per
//! address (the telemetry ingest). The server's limiters (`DbLimiter` and friends)
//! decide nothing themselves: each of their steps is one method here, atomic across
//! instances.
//!
//! Each step locks the rows of its keys and writes them back in one transaction:
//! SQLite takes the write lock at `BEGIN IMMEDIATE`, so the step cannot fail on a stale
//! snapshot; PostgreSQL inserts the missing rows (`ON CONFLICT DO NOTHING`) and locks
//! them with `SELECT … FOR UPDATE`, both in key order, so two steps over the same keys
//! wait for each other instead of deadlocking. What a step decides is computed by the
//! pure functions of this module ([`LoginRule::reserve`], [`take_event`],
//! [`charge_budget`]) from the locked rows.
//!
//! Times are Unix milliseconds from the server's clock (its `Clock`, so tests can move
//! time on). Every row has an `expires_at_ms` after which it behaves exactly as if it
//! were absent; [`LimitsStorage::delete_expired_limits`] sweeps such rows in batches.

mod sql;

use async_trait::async_trait;

use crate::StorageError;

/// The log-in back-off's rule (the server's constants, in milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginRule {
    /// Failures allowed before back-off starts.
    pub free_failures: u32,
    /// The first wait; it doubles with each further failure.
    pub first_backoff_ms: i64,
    /// The longest wait; a key quiet this long has its failures forgiven.
    pub max_backoff_ms: i64,
}

/// Whether a step went ahead: `Granted`, or refused with a wait in milliseconds (and
/// nothing was charged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Limited<T> {
    Granted(T),
    Wait(i64),
}

/// The failed log-ins of one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureRow {
    pub key: String,
    /// Failures, attempts in flight included.
    pub failures: i64,
    pub blocked_until_ms: i64,
    pub last_ms: i64,
}

impl FailureRow {
    /// A key without failures (what an absent or expired row means).
    pub fn fresh(key: &str, now_ms: i64) -> Self {
        Self {
            key: key.to_owned(),
            failures: 0,
            blocked_until_ms: now_ms,
            last_ms: now_ms,
        }
    }
}

impl LoginRule {
    /// The wait for the n-th failure past the free ones (0-based): the first wait,
    /// doubled n times, at most the longest.
    pub fn backoff_ms(&self, extra_failures: u32) -> i64 {
        if extra_failures >= 62 {
            return self.max_backoff_ms;
        }
        self.first_backoff_ms
            .checked_mul(1i64 << extra_failures)
            .unwrap_or(self.max_backoff_ms)
            .min(self.max_backoff_ms)
    }

    /// Reserves one attempt against every row at once: refused with the longest wait
    /// when any row must wait (the rows are left as they were), else each row is
    /// charged one failure (a row quiet for the longest wait starts afresh) and the one
    /// that uses up the free failures starts its wait. Returns each key with its count.
    pub fn reserve(&self, rows: &mut [FailureRow], now_ms: i64) -> Limited<Vec<(String, u32)>> {
        let wait = rows
            .iter()
            .map(|r| (r.blocked_until_ms - now_ms).max(0))
            .max()
            .unwrap_or(0);
        if wait > 0 {
            return Limited::Wait(wait);
        }
        let free = i64::from(self.free_failures);
        for r in rows.iter_mut() {
            if (now_ms - r.last_ms).max(0) >= self.max_backoff_ms {
                r.failures = 0;
            }
            r.failures = (r.failures + 1).min(i64::from(u32::MAX));
            r.last_ms = now_ms;
            if r.failures >= free {
                r.blocked_until_ms = now_ms + self.backoff_ms((r.failures - free) as u32);
            }
        }
        Limited::Granted(
            rows.iter()
                .map(|r| (r.key.clone(), r.failures as u32))
                .collect(),
        )
    }

    /// Settles a failed attempt that was charged `charged` on `row`: its wait now runs
    /// from this moment. False (nothing changes) when a success cleared the key since.
    pub fn settle_failure(&self, row: &mut FailureRow, charged: u32, now_ms: i64) -> bool {
        if row.failures < i64::from(charged) {
            return false;
        }
        row.last_ms = now_ms;
        if charged >= self.free_failures {
            let until = now_ms + self.backoff_ms(charged - self.free_failures);
            row.blocked_until_ms = row.blocked_until_ms.max(until);
        }
        true
    }

    /// When `row` stops mattering: once quiet for the longest wait it is forgiven, and
    /// its wait (never longer than the longest) is over.
    pub fn expires_at(&self, row: &FailureRow) -> i64 {
        if row.failures == 0 {
            return row.blocked_until_ms.min(row.last_ms);
        }
        (row.last_ms + self.max_backoff_ms).max(row.blocked_until_ms)
    }
}

/// Counts one event at `now_ms` in a sliding window of `window_ms` holding at most
/// `limit` events (`events` are the key's event times), or refuses, counting nothing,
/// with the wait until the oldest event leaves the window.
pub fn take_event(events: &mut Vec<i64>, limit: u32, window_ms: i64, now_ms: i64) -> Limited<()> {
    events.retain(|t| (now_ms - t).max(0) < window_ms);
    if events.len() >= limit as usize {
        let oldest = events.iter().copied().min().unwrap_or(now_ms);
        return Limited::Wait((window_ms - (now_ms - oldest).max(0)).max(0));
    }
    events.push(now_ms);
    Limited::Granted(())
}

/// A key's budget: what was charged in the window that started at `window_start_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub window_start_ms: i64,
    pub used: i64,
}

/// Charges `amount` to `budget` when the window's total stays within `limit`, else
/// refuses (charging nothing) with the time left in the window. A window that has run
/// its length starts again at `now_ms`.
pub fn charge_budget(
    budget: &mut Budget,
    amount: u64,
    limit: u64,
    window_ms: i64,
    now_ms: i64,
) -> Limited<()> {
    if (now_ms - budget.window_start_ms).max(0) >= window_ms {
        *budget = Budget {
            window_start_ms: now_ms,
            used: 0,
        };
    }
    let amount = i64::try_from(amount).unwrap_or(i64::MAX);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    if budget.used.saturating_add(amount) > limit {
        let elapsed = (now_ms - budget.window_start_ms).max(0);
        return Limited::Wait((window_ms - elapsed).max(0));
    }
    budget.used += amount;
    Limited::Granted(())
}

/// The shared limits' steps, each atomic across instances (see the module docs).
#[async_trait]
pub trait LimitsStorage: Send + Sync {
    /// Reserves one log-in attempt against all `keys` at once ([`LoginRule::reserve`]):
    /// refused with the longest wait, charging nothing, or charged to every key.
    async fn reserve_login_attempt(
        &self,
        keys: &[String],
        rule: &LoginRule,
        now_ms: i64,
    ) -> Result<Limited<Vec<(String, u32)>>, StorageError>;

    /// Settles a reserved log-in: a success clears its keys; a failure keeps its slot
    /// and its wait runs from now ([`LoginRule::settle_failure`]).
    async fn settle_login_attempt(
        &self,
        charged: &[(String, u32)],
        succeeded: bool,
        rule: &LoginRule,
        now_ms: i64,
    ) -> Result<(), StorageError>;

    /// Counts one event for `key` at `now_ms` in a sliding window ([`take_event`]).
    async fn take_window_event(
        &self,
        key: &str,
        limit: u32,
        window_ms: i64,
        now_ms: i64,
    ) -> Result<Limited<()>, StorageError>;

    /// Gives back one event of `key` taken at `at_ms` (a sign-up that made no
    /// account); nothing when it has left the window.
    async fn return_window_event(&self, key: &str, at_ms: i64) -> Result<(), StorageError>;

    /// Charges `amount` to `key`'s budget of `limit` per window ([`charge_budget`]).
    async fn charge_budget(
        &self,
        key: &str,
        amount: u64,
        limit: u64,
        window_ms: i64,
        now_ms: i64,
    ) -> Result<Limited<()>, StorageError>;

    /// Deletes up to `batch` expired rows of each limits table; returns how many went.
    async fn delete_expired_limits(&self, now_ms: i64, batch: u32) -> Result<u64, StorageError>;
}

/// The stored form of a window's event times.
fn encode_events(events: &[i64]) -> String {
    events
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn decode_events(text: &str) -> Result<Vec<i64>, StorageError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|t| {
            t.parse()
                .map_err(|_| StorageError::Invalid("limit_windows.events"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: LoginRule = LoginRule {
        free_failures: 5,
        first_backoff_ms: 1000,
        max_backoff_ms: 900_000,
    };

    #[test]
    fn the_backoff_doubles_up_to_the_longest() {
        assert_eq!(RULE.backoff_ms(0), 1000);
        assert_eq!(RULE.backoff_ms(5), 32_000);
        assert_eq!(RULE.backoff_ms(10), 900_000);
        assert_eq!(RULE.backoff_ms(63), 900_000);
        assert_eq!(RULE.backoff_ms(u32::MAX), 900_000);
    }

    #[test]
    fn a_refused_reservation_changes_no_row() {
        let mut rows = vec![FailureRow::fresh("a", 0), FailureRow::fresh("b", 0)];
        rows[1].blocked_until_ms = 500;
        rows[1].failures = 5;
        let before = rows.clone();
        assert_eq!(RULE.reserve(&mut rows, 100), Limited::Wait(400));
        assert_eq!(rows, before);
    }

    #[test]
    fn events_round_trip_and_garbage_is_invalid() {
        assert_eq!(
            decode_events(&encode_events(&[1, -2, 30])).unwrap(),
            [1, -2, 30]
        );
        assert_eq!(decode_events("").unwrap(), Vec::<i64>::new());
        assert!(decode_events("1,x").is_err());
    }

    #[test]
    fn a_window_refuses_until_its_oldest_event_leaves() {
        let mut events = Vec::new();
        assert_eq!(take_event(&mut events, 2, 60, 0), Limited::Granted(()));
        assert_eq!(take_event(&mut events, 2, 60, 10), Limited::Granted(()));
        assert_eq!(take_event(&mut events, 2, 60, 10), Limited::Wait(50));
        assert_eq!(events, [0, 10]);
        assert_eq!(take_event(&mut events, 2, 60, 60), Limited::Granted(()));
        assert_eq!(events, [10, 60]);
    }

    #[test]
    fn a_budget_refuses_past_its_limit_and_starts_again_with_its_window() {
        let mut b = Budget {
            window_start_ms: 0,
            used: 0,
        };
        assert_eq!(
            charge_budget(&mut b, 60, 100, 1000, 0),
            Limited::Granted(())
        );
        assert_eq!(
            charge_budget(&mut b, 60, 100, 1000, 300),
            Limited::Wait(700)
        );
        assert_eq!(b.used, 60);
        assert_eq!(
            charge_budget(&mut b, 60, 100, 1000, 1000),
            Limited::Granted(())
        );
        assert_eq!(b.window_start_ms, 1000);
    }
}
