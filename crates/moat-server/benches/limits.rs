//! The added latency of a log-in check (reserve + settle) with the limits shared
//! through the database, next to the in-memory limiter's, in one run (issue 18,
//! "Targets"). Prints p50 and p99 per limiter; no assertions.
//!
//!   MOAT_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
//!   cargo bench -p moat-server --bench limits
//!
//! Each check is one log-in as the server makes it: reserve against its two keys (the
//! client address and the account), then settle. Half the checks succeed (the keys'
//! rows are deleted) and half fail (they are updated); each check uses keys of its own
//! address and account, so no back-off builds up and every check does the full work.

use std::{
    net::{IpAddr, Ipv4Addr},
    sync::Arc,
    time::{Duration, Instant},
};

use moat_server::{
    accounts::rate_limit::{login_keys, DbLimiter, Limiter, MemoryLimiter, Outcome},
    clock::SystemClock,
};
use moat_storage::testing::TestDatabase;

const ITERATIONS: usize = 2_000;
const WARM_UP: usize = 200;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

async fn measure(limiter: &dyn Limiter, run: u32) -> (Duration, Duration) {
    let mut times = Vec::with_capacity(ITERATIONS);
    for i in 0..WARM_UP + ITERATIONS {
        let ip = IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + (run << 16) + i as u32));
        let keys = login_keys(ip, &format!("member{i}@x.io"));
        let outcome = if i % 2 == 0 {
            Outcome::Succeeded
        } else {
            Outcome::Failed
        };
        let started = Instant::now();
        let permit = limiter.reserve_login(&keys).await.expect("reserved");
        limiter
            .settle_login(permit, outcome)
            .await
            .expect("settled");
        if i >= WARM_UP {
            times.push(started.elapsed());
        }
    }
    times.sort();
    (percentile(&times, 0.50), percentile(&times, 0.99))
}

fn us(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

#[tokio::main]
async fn main() {
    let clock = Arc::new(SystemClock);
    let memory = MemoryLimiter::new(10, clock.clone());
    let sqlite = TestDatabase::sqlite();
    let postgres = TestDatabase::postgres().await;
    let mut rows = vec![("memory", measure(&memory, 1).await)];
    let s = sqlite.storage().await;
    rows.push((
        "SQLite",
        measure(&DbLimiter::new(s.clone(), 10, clock.clone()), 2).await,
    ));
    s.close().await;
    if let Some(pg) = &postgres {
        let s = pg.storage().await;
        rows.push((
            "PostgreSQL",
            measure(&DbLimiter::new(s.clone(), 10, clock.clone()), 3).await,
        ));
        s.close().await;
    }
    let (mem_p50, mem_p99) = rows[0].1;
    println!(
        "log-in check (reserve + settle), {ITERATIONS} checks each after {WARM_UP} to warm up:"
    );
    println!(
        "{:<11} {:>9} {:>9} {:>16} {:>16}",
        "limiter", "p50 µs", "p99 µs", "added p50 µs", "added p99 µs"
    );
    for (name, (p50, p99)) in &rows {
        println!(
            "{:<11} {:>9} {:>9} {:>16} {:>16}",
            name,
            us(*p50),
            us(*p99),
            us(p50.saturating_sub(mem_p50)),
            us(p99.saturating_sub(mem_p99)),
        );
    }
    if postgres.is_none() {
        println!("(PostgreSQL skipped: MOAT_TEST_POSTGRES_URL is not set)");
    }
}
