//! The log-in back-off and the sign-up limits, behind one [`Limiter`] trait.
//!
//! Deciding and counting are one atomic step: an attempt first *reserves* a slot
//! ([`Limiter::reserve_login`], [`Limiter::reserve_signup`]), and only then is the
//! password checked or the account made. A reserved log-in counts as a failure from
//! the moment it is reserved, so attempts in flight use up the allowance too: with 50
//! parallel log-ins for one account, [`FREE_LOGIN_FAILURES`] passwords are checked and
//! the rest are refused. The attempt is then settled: a failed log-in keeps its slot, a
//! successful one clears its keys; a sign-up that made an account keeps its slot, one
//! that did not (a taken email or nickname) gives it back. A permit dropped without
//! being settled (the request was cancelled) keeps its slot.
//!
//! [`DbLimiter`], the server's limiter, keeps the counts in the database
//! ([`moat_storage::LimitsStorage`]), so every instance sharing it sees the same counts
//! and a restart forgets nothing; each step is one database transaction, atomic across
//! instances (docs/scale-out.md, "Shared limits"). [`MemoryLimiter`] keeps them in
//! memory, per instance (tests and the benchmark compare the two). The mail limits are
//! sliding windows behind [`WindowLimit`], in the database ([`DbWindowLimiter`]) or in
//! memory ([`WindowLimiter`]).

use std::{
    collections::{HashMap, VecDeque},
    net::IpAddr,
    sync::{Arc, Mutex},
    time::{Duration, SystemTime},
};

use async_trait::async_trait;
use moat_storage::{Limited, LimitsStorage, LoginRule};

use crate::{
    clock::{from_unix_millis, since, unix_millis, Clock},
    http::error::ApiError,
};

/// Failed log-ins allowed before back-off starts.
pub const FREE_LOGIN_FAILURES: u32 = 5;
/// The first wait after the free failures; it doubles with each further failure.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);
/// The longest wait; a key quiet for this long has its failures forgiven.
pub const MAX_BACKOFF: Duration = Duration::from_secs(15 * 60);
/// The sign-up window.
pub const SIGNUP_WINDOW: Duration = Duration::from_secs(60 * 60);
/// Entries kept before idle ones are swept.
const SWEEP_AT: usize = 10_000;

/// The back-off as the database's steps take it: the constants above, in milliseconds.
pub const LOGIN_RULE: LoginRule = LoginRule {
    free_failures: FREE_LOGIN_FAILURES,
    first_backoff_ms: FIRST_BACKOFF.as_millis() as i64,
    max_backoff_ms: MAX_BACKOFF.as_millis() as i64,
};

/// The wait for the n-th failure past the free ones (0-based): 1 s, 2 s, 4 s, … ≤ 15 min.
pub fn backoff(extra_failures: u32) -> Duration {
    FIRST_BACKOFF
        .checked_mul(1u32.checked_shl(extra_failures).unwrap_or(u32::MAX))
        .unwrap_or(MAX_BACKOFF)
        .min(MAX_BACKOFF)
}

/// The keys a log-in attempt counts against: the client address and the account
/// (its email, or `#<user id>` for a member without one).
pub fn login_keys(ip: IpAddr, account: &str) -> [String; 2] {
    [format!("ip:{ip}"), format!("account:{account}")]
}

/// Why an attempt may not go ahead.
#[derive(Debug)]
pub enum LimitError {
    /// Over the limit: try again after this long.
    Wait(Duration),
    /// The limiter itself failed (e.g. its database); the attempt is refused.
    Failed(anyhow::Error),
}

impl From<LimitError> for ApiError {
    fn from(e: LimitError) -> Self {
        match e {
            LimitError::Wait(wait) => ApiError::rate_limited(wait),
            LimitError::Failed(e) => ApiError::internal(e.context("the rate limiter failed")),
        }
    }
}

/// How a reserved attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A log-in with the right password; a sign-up that made an account.
    Succeeded,
    /// A log-in with a wrong password (or an unknown account); a sign-up that made no
    /// account.
    Failed,
}

impl Outcome {
    /// `Succeeded` for `Ok`.
    pub fn of<T, E>(result: &Result<T, E>) -> Self {
        if result.is_ok() {
            Self::Succeeded
        } else {
            Self::Failed
        }
    }
}

/// A reserved log-in attempt. Settle it with [`Limiter::settle_login`]; dropped
/// unsettled, it stays a failure.
#[derive(Debug)]
#[must_use = "settle the attempt; a dropped permit stays a failure"]
pub struct LoginPermit {
    /// Each key with its failure count including this attempt.
    pub charged: Vec<(String, u32)>,
}

/// A reserved sign-up. Settle it with [`Limiter::settle_signup`]; dropped unsettled, it
/// stays used.
#[derive(Debug)]
#[must_use = "settle the sign-up; a dropped permit stays used"]
pub struct SignupPermit {
    pub ip: IpAddr,
    /// When the slot was taken.
    pub at: SystemTime,
}

/// The log-in back-off and sign-up limits. Every method is one atomic step, also
/// under parallel requests (and, for a shared implementation, across instances).
#[async_trait]
pub trait Limiter: Send + Sync {
    /// Reserves one log-in attempt against all `keys` at once: refused with the
    /// longest wait when any key must wait (nothing is charged then), else charged to
    /// every key as a failure until settled. The reservation that uses up the free
    /// failures starts the first wait, so no further attempt starts while it runs.
    async fn reserve_login(&self, keys: &[String]) -> Result<LoginPermit, LimitError>;

    /// Settles a log-in: a failure keeps its slot and its wait now runs from this
    /// moment; a success clears the keys (failures in flight at that moment are
    /// forgiven with the rest).
    async fn settle_login(&self, permit: LoginPermit, outcome: Outcome) -> anyhow::Result<()>;

    /// Reserves a sign-up from `ip`, or refuses with the wait until the oldest one in
    /// the window expires.
    async fn reserve_signup(&self, ip: IpAddr) -> Result<SignupPermit, LimitError>;

    /// Settles a sign-up: one that made an account keeps its slot, one that did not
    /// gives it back.
    async fn settle_signup(&self, permit: SignupPermit, outcome: Outcome) -> anyhow::Result<()>;
}

/// The window of the mail limits.
pub const MAIL_WINDOW: Duration = Duration::from_secs(60 * 60);
/// "Send me a reset link" requests per client IP per [`MAIL_WINDOW`]; over it: `429`.
pub const RESET_REQUESTS_PER_IP: u32 = 10;
/// Mails of one kind sent to one address (or member) per [`MAIL_WINDOW`]; over it the
/// request is answered as usual and nothing is sent (so the answer still says nothing
/// about the address).
pub const MAILS_PER_ADDRESS: u32 = 3;

/// A count of events per key in a sliding window (the mail limits).
#[async_trait]
pub trait WindowLimit: Send + Sync {
    /// Counts one event for `key`, or refuses (counting nothing) with the wait until
    /// the oldest event in the window leaves it (at least a second).
    async fn take(&self, key: &str) -> Result<(), LimitError>;
}

/// The shortest wait a [`WindowLimit`] answers.
pub const MIN_WINDOW_WAIT: Duration = Duration::from_secs(1);

/// A [`WindowLimit`] in memory, per instance like [`MemoryLimiter`].
pub struct WindowLimiter {
    clock: Arc<dyn Clock>,
    limit: u32,
    window: Duration,
    events: Mutex<HashMap<String, VecDeque<SystemTime>>>,
}

impl WindowLimiter {
    pub fn new(limit: u32, window: Duration, clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            limit,
            window,
            events: Mutex::default(),
        }
    }
}

#[async_trait]
impl WindowLimit for WindowLimiter {
    async fn take(&self, key: &str) -> Result<(), LimitError> {
        let now = self.clock.now();
        let mut map = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_AT {
            map.retain(|_, q| q.back().is_some_and(|t| since(now, *t) < self.window));
        }
        let q = map.entry(key.to_owned()).or_default();
        while q.front().is_some_and(|t| since(now, *t) >= self.window) {
            q.pop_front();
        }
        if q.len() >= self.limit as usize {
            let oldest = q.front().copied().unwrap_or(now);
            return Err(LimitError::Wait(
                (self.window.saturating_sub(since(now, oldest))).max(MIN_WINDOW_WAIT),
            ));
        }
        q.push_back(now);
        Ok(())
    }
}

/// A [`WindowLimit`] in the database, shared by every instance: the events of key `k`
/// are stored under `<name>:k`.
pub struct DbWindowLimiter {
    storage: Arc<dyn LimitsStorage>,
    clock: Arc<dyn Clock>,
    name: &'static str,
    limit: u32,
    window: Duration,
}

impl DbWindowLimiter {
    pub fn new(
        storage: Arc<dyn LimitsStorage>,
        name: &'static str,
        limit: u32,
        window: Duration,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            storage,
            clock,
            name,
            limit,
            window,
        }
    }
}

#[async_trait]
impl WindowLimit for DbWindowLimiter {
    async fn take(&self, key: &str) -> Result<(), LimitError> {
        let taken = self
            .storage
            .take_window_event(
                &format!("{}:{key}", self.name),
                self.limit,
                millis(self.window),
                self.clock.unix_millis(),
            )
            .await
            .map_err(|e| LimitError::Failed(e.into()))?;
        match taken {
            Limited::Granted(()) => Ok(()),
            Limited::Wait(ms) => Err(LimitError::Wait(wait(ms).max(MIN_WINDOW_WAIT))),
        }
    }
}

/// `d` in whole milliseconds.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// A stored wait in milliseconds.
fn wait(ms: i64) -> Duration {
    Duration::from_millis(ms.max(0).unsigned_abs())
}

/// The [`Limiter`] shared through the database: the failures of each log-in key and
/// the sign-ups of each address are rows that every instance reads and writes in one
/// transaction per step (see [`moat_storage::LimitsStorage`]); they survive a restart.
pub struct DbLimiter {
    storage: Arc<dyn LimitsStorage>,
    clock: Arc<dyn Clock>,
    signups_per_hour: u32,
}

impl DbLimiter {
    pub fn new(
        storage: Arc<dyn LimitsStorage>,
        signups_per_hour: u32,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            storage,
            clock,
            signups_per_hour,
        }
    }

    fn signup_key(ip: IpAddr) -> String {
        format!("signup:{ip}")
    }
}

#[async_trait]
impl Limiter for DbLimiter {
    async fn reserve_login(&self, keys: &[String]) -> Result<LoginPermit, LimitError> {
        let reserved = self
            .storage
            .reserve_login_attempt(keys, &LOGIN_RULE, self.clock.unix_millis())
            .await
            .map_err(|e| LimitError::Failed(e.into()))?;
        match reserved {
            Limited::Granted(charged) => Ok(LoginPermit { charged }),
            Limited::Wait(ms) => Err(LimitError::Wait(wait(ms))),
        }
    }

    async fn settle_login(&self, permit: LoginPermit, outcome: Outcome) -> anyhow::Result<()> {
        self.storage
            .settle_login_attempt(
                &permit.charged,
                outcome == Outcome::Succeeded,
                &LOGIN_RULE,
                self.clock.unix_millis(),
            )
            .await?;
        Ok(())
    }

    async fn reserve_signup(&self, ip: IpAddr) -> Result<SignupPermit, LimitError> {
        let now = self.clock.unix_millis();
        let taken = self
            .storage
            .take_window_event(
                &Self::signup_key(ip),
                self.signups_per_hour,
                millis(SIGNUP_WINDOW),
                now,
            )
            .await
            .map_err(|e| LimitError::Failed(e.into()))?;
        match taken {
            Limited::Granted(()) => Ok(SignupPermit {
                ip,
                at: from_unix_millis(now),
            }),
            Limited::Wait(ms) => Err(LimitError::Wait(wait(ms))),
        }
    }

    async fn settle_signup(&self, permit: SignupPermit, outcome: Outcome) -> anyhow::Result<()> {
        if outcome == Outcome::Succeeded {
            return Ok(());
        }
        self.storage
            .return_window_event(&Self::signup_key(permit.ip), unix_millis(permit.at))
            .await?;
        Ok(())
    }
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    /// Failures, in flight ones included.
    count: u32,
    blocked_until: SystemTime,
    last: SystemTime,
}

/// The in-memory [`Limiter`]: failures per key, sign-ups per IP, one lock each.
pub struct MemoryLimiter {
    clock: Arc<dyn Clock>,
    signups_per_hour: u32,
    failures: Mutex<HashMap<String, Failures>>,
    signups: Mutex<HashMap<IpAddr, VecDeque<SystemTime>>>,
}

impl MemoryLimiter {
    pub fn new(signups_per_hour: u32, clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            signups_per_hour,
            failures: Mutex::default(),
            signups: Mutex::default(),
        }
    }
}

#[async_trait]
impl Limiter for MemoryLimiter {
    async fn reserve_login(&self, keys: &[String]) -> Result<LoginPermit, LimitError> {
        let now = self.clock.now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_AT {
            map.retain(|_, f| since(now, f.last) < MAX_BACKOFF);
        }
        let wait = keys
            .iter()
            .filter_map(|k| map.get(k))
            .map(|f| since(f.blocked_until, now))
            .max()
            .unwrap_or_default();
        if !wait.is_zero() {
            return Err(LimitError::Wait(wait));
        }
        let charged = keys
            .iter()
            .map(|key| {
                let f = map.entry(key.clone()).or_insert(Failures {
                    count: 0,
                    blocked_until: now,
                    last: now,
                });
                // A quiet spell as long as the longest wait forgives old failures.
                if since(now, f.last) >= MAX_BACKOFF {
                    f.count = 0;
                }
                f.count = f.count.saturating_add(1);
                f.last = now;
                if f.count >= FREE_LOGIN_FAILURES {
                    f.blocked_until = now + backoff(f.count - FREE_LOGIN_FAILURES);
                }
                (key.clone(), f.count)
            })
            .collect();
        Ok(LoginPermit { charged })
    }

    async fn settle_login(&self, permit: LoginPermit, outcome: Outcome) -> anyhow::Result<()> {
        let now = self.clock.now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        for (key, count) in permit.charged {
            match outcome {
                Outcome::Succeeded => {
                    map.remove(&key);
                }
                Outcome::Failed => {
                    // Unless a success cleared the key meanwhile.
                    let Some(f) = map.get_mut(&key).filter(|f| f.count >= count) else {
                        continue;
                    };
                    f.last = now;
                    if count >= FREE_LOGIN_FAILURES {
                        let until = now + backoff(count - FREE_LOGIN_FAILURES);
                        f.blocked_until = f.blocked_until.max(until);
                    }
                }
            }
        }
        Ok(())
    }

    async fn reserve_signup(&self, ip: IpAddr) -> Result<SignupPermit, LimitError> {
        let now = self.clock.now();
        let mut map = self.signups.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= SWEEP_AT {
            map.retain(|_, q| q.back().is_some_and(|t| since(now, *t) < SIGNUP_WINDOW));
        }
        let q = map.entry(ip).or_default();
        while q.front().is_some_and(|t| since(now, *t) >= SIGNUP_WINDOW) {
            q.pop_front();
        }
        if q.len() >= self.signups_per_hour as usize {
            let oldest = q.front().copied().unwrap_or(now);
            return Err(LimitError::Wait(
                SIGNUP_WINDOW.saturating_sub(since(now, oldest)),
            ));
        }
        q.push_back(now);
        Ok(SignupPermit { ip, at: now })
    }

    async fn settle_signup(&self, permit: SignupPermit, outcome: Outcome) -> anyhow::Result<()> {
        if outcome == Outcome::Succeeded {
            return Ok(());
        }
        let mut map = self.signups.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = map.get_mut(&permit.ip) {
            if let Some(i) = q.iter().rposition(|t| *t == permit.at) {
                q.remove(i);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use moat_storage::{testing::TestDatabase, Storage};

    use super::*;
    use crate::clock::ManualClock;

    const IP: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    /// Attempts started at once in the parallel tests.
    const TASKS: usize = 200;

    /// A limiter under test and the clock it reads; a database one keeps its database
    /// (dropped with the case).
    /// `n` failed log-ins on `keys`, each reserved and settled.
    async fn fail_logins(limiter: &dyn Limiter, keys: &[String], n: u32) {
        for _ in 0..n {
            let permit = limiter.reserve_login(keys).await.unwrap();
            limiter.settle_login(permit, Outcome::Failed).await.unwrap();
        }
    }

    struct Case {
        name: &'static str,
        limiter: Arc<dyn Limiter>,
        clock: Arc<ManualClock>,
        _db: Option<TestDatabase>,
    }

    /// The in-memory limiter, then the database one on SQLite and, with
    /// `MOAT_TEST_POSTGRES_URL`, on PostgreSQL: every semantic test runs on each.
    async fn cases(signups_per_hour: u32) -> Vec<Case> {
        let clock = Arc::new(ManualClock::starting_now());
        let mut cases = vec![Case {
            name: "memory",
            limiter: Arc::new(MemoryLimiter::new(signups_per_hour, clock.clone())),
            clock,
            _db: None,
        }];
        for db in TestDatabase::all().await {
            let clock = Arc::new(ManualClock::starting_now());
            cases.push(Case {
                name: db.backend.as_str(),
                limiter: Arc::new(DbLimiter::new(
                    db.storage().await,
                    signups_per_hour,
                    clock.clone(),
                )),
                clock,
                _db: Some(db),
            });
        }
        cases
    }

    fn wait_of<T: std::fmt::Debug>(r: Result<T, LimitError>) -> Duration {
        match r {
            Err(LimitError::Wait(wait)) => wait,
            other => panic!("expected a wait, got {other:?}"),
        }
    }

    /// Starts `TASKS` log-in reservations at once on a multi-threaded runtime, taking
    /// turns over `limiters` (instances); returns the permits granted and the number
    /// refused.
    async fn reserve_in_parallel(
        limiters: &[Arc<dyn Limiter>],
        keys: &[String; 2],
    ) -> (Vec<LoginPermit>, usize) {
        let barrier = Arc::new(tokio::sync::Barrier::new(TASKS));
        let tasks: Vec<_> = (0..TASKS)
            .map(|i| {
                let limiter = limiters[i % limiters.len()].clone();
                let (keys, barrier) = (keys.clone(), barrier.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    limiter.reserve_login(&keys).await
                })
            })
            .collect();
        let (mut granted, mut refused) = (Vec::new(), 0);
        for t in tasks {
            match t.await.unwrap() {
                Ok(permit) => granted.push(permit),
                Err(LimitError::Wait(_)) => refused += 1,
                Err(e) => panic!("{e:?}"),
            }
        }
        (granted, refused)
    }

    /// Starts `TASKS` sign-ups from [`IP`] at once, taking turns over `limiters`; every
    /// other one makes no account and gives its slot back. Then takes what is left of
    /// the allowance one by one: made accounts plus those are exactly the allowance.
    async fn sign_up_in_parallel(limiters: &[Arc<dyn Limiter>], allowance: u32) {
        let barrier = Arc::new(tokio::sync::Barrier::new(TASKS));
        let tasks: Vec<_> = (0..TASKS)
            .map(|i| {
                let r = limiters[i % limiters.len()].clone();
                let barrier = barrier.clone();
                tokio::spawn(async move {
                    barrier.wait().await;
                    let permit = r.reserve_signup(IP).await?;
                    // Every other one finds its email taken and gives its slot back.
                    let outcome = if i % 4 < 2 {
                        Outcome::Succeeded
                    } else {
                        Outcome::Failed
                    };
                    r.settle_signup(permit, outcome)
                        .await
                        .map_err(LimitError::Failed)?;
                    Ok::<_, LimitError>(outcome)
                })
            })
            .collect();
        let mut made = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(Outcome::Succeeded) => made += 1,
                Ok(Outcome::Failed) | Err(LimitError::Wait(_)) => {}
                Err(e) => panic!("{e:?}"),
            }
        }
        assert!(made <= allowance, "{made} accounts");
        // Whatever the interleaving, the allowance is used up exactly by made accounts.
        let mut extra = 0;
        while let Ok(permit) = limiters[0].reserve_signup(IP).await {
            limiters[0]
                .settle_signup(permit, Outcome::Succeeded)
                .await
                .unwrap();
            extra += 1;
        }
        assert_eq!(made + extra, allowance);
    }

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
    fn the_stored_rule_is_the_same_back_off() {
        assert_eq!(LOGIN_RULE.free_failures, FREE_LOGIN_FAILURES);
        for n in (0..80).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!(
                Duration::from_millis(LOGIN_RULE.backoff_ms(n) as u64),
                backoff(n),
                "{n}"
            );
        }
    }

    #[tokio::test]
    async fn five_failures_are_free_then_a_wait_per_ip_and_per_account() {
        for Case {
            name,
            limiter: r,
            clock,
            ..
        } in cases(10).await
        {
            let keys = login_keys(IP, "a@x.io");
            fail_logins(&*r, &keys, FREE_LOGIN_FAILURES).await;
            assert_eq!(
                wait_of(r.reserve_login(&keys).await),
                FIRST_BACKOFF,
                "{name}"
            );
            // Per account from another IP, and per IP for another account.
            let other_ip: IpAddr = "10.0.0.1".parse().unwrap();
            wait_of(r.reserve_login(&login_keys(other_ip, "a@x.io")).await);
            wait_of(r.reserve_login(&login_keys(IP, "b@x.io")).await);
            // A refused attempt charged nothing: the unrelated pair is still free.
            let free = r.reserve_login(&login_keys(other_ip, "b@x.io")).await;
            r.settle_login(free.unwrap(), Outcome::Succeeded)
                .await
                .unwrap();
            // After the wait, one more attempt; its failure doubles the wait.
            clock.advance(FIRST_BACKOFF);
            let permit = r.reserve_login(&keys).await.unwrap();
            r.settle_login(permit, Outcome::Failed).await.unwrap();
            assert_eq!(wait_of(r.reserve_login(&keys).await), backoff(1), "{name}");
            // A success clears both keys.
            clock.advance(backoff(1));
            let permit = r.reserve_login(&keys).await.unwrap();
            r.settle_login(permit, Outcome::Succeeded).await.unwrap();
            fail_logins(&*r, &keys, FREE_LOGIN_FAILURES).await;
        }
    }

    #[tokio::test]
    async fn the_wait_runs_from_the_failure_not_from_the_reservation() {
        for Case {
            name,
            limiter: r,
            clock,
            ..
        } in cases(10).await
        {
            let keys = login_keys(IP, "a@x.io");
            fail_logins(&*r, &keys, FREE_LOGIN_FAILURES - 1).await;
            let last = r.reserve_login(&keys).await.unwrap();
            // The password check takes a while; the wait starts when it has failed.
            let check = Duration::from_millis(700);
            clock.advance(check);
            r.settle_login(last, Outcome::Failed).await.unwrap();
            assert_eq!(
                wait_of(r.reserve_login(&keys).await),
                FIRST_BACKOFF,
                "{name}"
            );
        }
    }

    #[tokio::test]
    async fn quiet_keys_are_forgiven_after_the_longest_wait() {
        for Case {
            name,
            limiter: r,
            clock,
            ..
        } in cases(10).await
        {
            let keys = login_keys(IP, "a@x.io");
            fail_logins(&*r, &keys, FREE_LOGIN_FAILURES).await;
            clock.advance(MAX_BACKOFF);
            for _ in 0..FREE_LOGIN_FAILURES {
                let permit = r.reserve_login(&keys).await.unwrap();
                assert!(
                    permit
                        .charged
                        .iter()
                        .all(|(_, n)| *n <= FREE_LOGIN_FAILURES),
                    "{name}: {permit:?}"
                );
                r.settle_login(permit, Outcome::Failed).await.unwrap();
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn parallel_log_ins_get_exactly_the_free_slots_then_one_per_wait() {
        for Case {
            name,
            limiter: r,
            clock,
            ..
        } in cases(10).await
        {
            let keys = login_keys(IP, "a@x.io");
            let rs = [r.clone()];
            let (granted, refused) = reserve_in_parallel(&rs, &keys).await;
            assert_eq!(
                granted.len(),
                FREE_LOGIN_FAILURES as usize,
                "{name}: in flight"
            );
            assert_eq!(refused, TASKS - FREE_LOGIN_FAILURES as usize);
            // While they are in flight, and after they failed, the rest wait.
            wait_of(r.reserve_login(&keys).await);
            for permit in granted {
                r.settle_login(permit, Outcome::Failed).await.unwrap();
            }
            assert_eq!(
                wait_of(r.reserve_login(&keys).await),
                FIRST_BACKOFF,
                "{name}"
            );
            // When the wait is over, exactly one attempt goes ahead.
            clock.advance(FIRST_BACKOFF);
            let (granted, refused) = reserve_in_parallel(&rs, &keys).await;
            assert_eq!(granted.len(), 1, "{name}");
            assert_eq!(refused, TASKS - 1);
            for permit in granted {
                r.settle_login(permit, Outcome::Failed).await.unwrap();
            }
            assert_eq!(wait_of(r.reserve_login(&keys).await), backoff(1), "{name}");
        }
    }

    #[tokio::test]
    async fn a_dropped_permit_stays_a_failure() {
        for Case { limiter: r, .. } in cases(10).await {
            let keys = login_keys(IP, "a@x.io");
            for _ in 0..FREE_LOGIN_FAILURES {
                // Cancelled before the password check ended.
                let _ = r.reserve_login(&keys).await.unwrap();
            }
            wait_of(r.reserve_login(&keys).await);
        }
    }

    #[tokio::test]
    async fn sign_ups_are_limited_per_ip_per_hour_and_unused_ones_come_back() {
        for Case {
            name,
            limiter: r,
            clock,
            ..
        } in cases(3).await
        {
            let mut permits = Vec::new();
            for _ in 0..3 {
                permits.push(r.reserve_signup(IP).await.unwrap());
            }
            let wait = wait_of(r.reserve_signup(IP).await);
            assert_eq!(wait, SIGNUP_WINDOW, "{name}");
            let other = r.reserve_signup("10.0.0.2".parse().unwrap()).await;
            r.settle_signup(other.unwrap(), Outcome::Succeeded)
                .await
                .unwrap();
            // One made no account: its slot is free again; made ones stay used.
            let unused = permits.pop().unwrap();
            r.settle_signup(unused, Outcome::Failed).await.unwrap();
            for permit in permits {
                r.settle_signup(permit, Outcome::Succeeded).await.unwrap();
            }
            let again = r.reserve_signup(IP).await.unwrap();
            r.settle_signup(again, Outcome::Succeeded).await.unwrap();
            wait_of(r.reserve_signup(IP).await);
            // The window moves on.
            clock.advance(SIGNUP_WINDOW);
            let later = r.reserve_signup(IP).await.unwrap();
            r.settle_signup(later, Outcome::Succeeded).await.unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn parallel_sign_ups_get_exactly_the_allowance() {
        const ALLOWANCE: u32 = 10;
        for case in cases(ALLOWANCE).await {
            sign_up_in_parallel(&[case.limiter], ALLOWANCE).await;
        }
    }

    /// Two limiters, each over its own connection pool to one database: two instances.
    async fn two_instances(
        db: &TestDatabase,
        signups_per_hour: u32,
        clock: &Arc<ManualClock>,
    ) -> [Arc<dyn Limiter>; 2] {
        let one = || async {
            Arc::new(DbLimiter::new(
                db.storage().await,
                signups_per_hour,
                clock.clone(),
            )) as Arc<dyn Limiter>
        };
        [one().await, one().await]
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn two_instances_share_exactly_the_free_slots_between_them() {
        for db in TestDatabase::all().await {
            let clock = Arc::new(ManualClock::starting_now());
            let instances = two_instances(&db, 10, &clock).await;
            let keys = login_keys(IP, "a@x.io");
            let (granted, refused) = reserve_in_parallel(&instances, &keys).await;
            assert_eq!(
                granted.len(),
                FREE_LOGIN_FAILURES as usize,
                "{:?}: between both instances",
                db.backend
            );
            assert_eq!(refused, TASKS - FREE_LOGIN_FAILURES as usize);
            // Settled on the other instance than the one that reserved it.
            for permit in granted {
                instances[1]
                    .settle_login(permit, Outcome::Failed)
                    .await
                    .unwrap();
            }
            assert_eq!(
                wait_of(instances[0].reserve_login(&keys).await),
                FIRST_BACKOFF
            );
            clock.advance(FIRST_BACKOFF);
            let (granted, _) = reserve_in_parallel(&instances, &keys).await;
            assert_eq!(granted.len(), 1, "{:?}: one per wait", db.backend);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn two_instances_share_exactly_the_sign_up_allowance() {
        const ALLOWANCE: u32 = 10;
        for db in TestDatabase::all().await {
            let clock = Arc::new(ManualClock::starting_now());
            sign_up_in_parallel(&two_instances(&db, ALLOWANCE, &clock).await, ALLOWANCE).await;
        }
    }

    #[tokio::test]
    async fn a_restarted_instance_still_refuses() {
        for db in TestDatabase::all().await {
            let clock = Arc::new(ManualClock::starting_now());
            let keys = login_keys(IP, "a@x.io");
            {
                let storage = db.storage().await;
                let before = DbLimiter::new(storage.clone(), 2, clock.clone());
                fail_logins(&before, &keys, FREE_LOGIN_FAILURES).await;
                for _ in 0..2 {
                    let permit = before.reserve_signup(IP).await.unwrap();
                    before
                        .settle_signup(permit, Outcome::Succeeded)
                        .await
                        .unwrap();
                }
                storage.close().await;
            }
            let after = DbLimiter::new(db.storage().await, 2, clock.clone());
            assert_eq!(wait_of(after.reserve_login(&keys).await), FIRST_BACKOFF);
            assert_eq!(wait_of(after.reserve_signup(IP).await), SIGNUP_WINDOW);
        }
    }

    #[test]
    fn the_mail_limits_are_ten_requests_per_ip_and_three_mails_per_address_an_hour() {
        assert_eq!(MAIL_WINDOW, Duration::from_secs(3600));
        assert_eq!(RESET_REQUESTS_PER_IP, 10);
        assert_eq!(MAILS_PER_ADDRESS, 3);
        assert_eq!(MIN_WINDOW_WAIT, Duration::from_secs(1));
    }

    #[tokio::test]
    async fn a_window_limiter_refuses_past_its_limit_until_the_oldest_event_leaves() {
        let clock = Arc::new(ManualClock::starting_now());
        /// A window limiter, the database it keeps (if any) and its clock.
        type Window = (Arc<dyn WindowLimit>, Option<TestDatabase>, Arc<ManualClock>);
        let mut windows: Vec<Window> = vec![(
            Arc::new(WindowLimiter::new(
                2,
                Duration::from_secs(60),
                clock.clone(),
            )),
            None,
            clock,
        )];
        for db in TestDatabase::all().await {
            let clock = Arc::new(ManualClock::starting_now());
            let storage: Arc<dyn Storage> = db.storage().await;
            windows.push((
                Arc::new(DbWindowLimiter::new(
                    storage,
                    "test",
                    2,
                    Duration::from_secs(60),
                    clock.clone(),
                )),
                Some(db),
                clock,
            ));
        }
        for (w, _db, clock) in windows {
            assert!(w.take("a").await.is_ok());
            clock.advance(Duration::from_secs(10));
            assert!(w.take("a").await.is_ok());
            assert!(w.take("b").await.is_ok(), "keys are apart");
            assert_eq!(wait_of(w.take("a").await), Duration::from_secs(50));
            clock.advance(Duration::from_secs(50));
            assert!(w.take("a").await.is_ok(), "the first event left the window");
            assert!(
                w.take("a").await.is_err(),
                "the refused one was not counted, the second still is"
            );
            // Never less than a second.
            clock.advance(Duration::from_millis(9_999));
            assert_eq!(wait_of(w.take("a").await), MIN_WINDOW_WAIT);
        }
    }
}
