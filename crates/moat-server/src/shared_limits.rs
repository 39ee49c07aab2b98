//! The sweep of the limits shared through the database (the log-in back-off, sign-up
//! and mail windows, the ingest's budgets: `accounts::rate_limit`,
//! `observability::limits`): expired rows behave as if absent, and this job deletes
//! them in bounded batches so the tables hold only live keys.

use std::{sync::Arc, time::Duration};

use moat_storage::LimitsStorage;

use crate::clock::Clock;

/// How often each instance sweeps.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(5 * 60);
/// Rows deleted per table per statement.
pub const SWEEP_BATCH: u32 = 1_000;
/// Statements per sweep at most; what is left waits for the next sweep.
pub const SWEEP_MAX_BATCHES: u32 = 20;

/// Deletes expired rows, at most [`SWEEP_MAX_BATCHES`] batches; returns how many.
pub async fn sweep(storage: &dyn LimitsStorage, clock: &dyn Clock) -> anyhow::Result<u64> {
    let mut total = 0;
    for _ in 0..SWEEP_MAX_BATCHES {
        let deleted = storage
            .delete_expired_limits(clock.unix_millis(), SWEEP_BATCH)
            .await?;
        total += deleted;
        if deleted == 0 {
            break;
        }
    }
    Ok(total)
}

/// Sweeps every [`SWEEP_INTERVAL`] for as long as the server runs.
pub fn spawn(storage: Arc<dyn LimitsStorage>, clock: Arc<dyn Clock>) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_INTERVAL);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match sweep(storage.as_ref(), clock.as_ref()).await {
                Ok(0) => {}
                Ok(n) => tracing::debug!(rows = n, "expired limits swept"),
                Err(e) => tracing::warn!(error = format!("{e:#}"), "cannot sweep expired limits"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use moat_storage::{testing::TestDatabase, Limited};

    use super::*;
    use crate::clock::ManualClock;

    #[tokio::test]
    async fn a_sweep_deletes_what_has_expired_by_the_clock_and_keeps_the_rest() {
        for db in TestDatabase::all().await {
            let storage = db.storage().await;
            let clock = ManualClock::starting_now();
            let now = clock.unix_millis();
            for key in ["a", "b", "c"] {
                let charged = storage
                    .charge_budget(key, 1, 10, 60_000, now)
                    .await
                    .unwrap();
                assert_eq!(charged, Limited::Granted(()));
            }
            let later = now + 30_000;
            storage
                .charge_budget("d", 1, 10, 60_000, later)
                .await
                .unwrap();
            assert_eq!(sweep(storage.as_ref(), &clock).await.unwrap(), 0);
            clock.advance(Duration::from_secs(60));
            assert_eq!(
                sweep(storage.as_ref(), &clock).await.unwrap(),
                3,
                "{:?}",
                db.backend
            );
            // "d" is still counted: its window has 30 s left.
            assert_eq!(
                storage
                    .charge_budget("d", 10, 10, 60_000, clock.unix_millis())
                    .await
                    .unwrap(),
                Limited::Wait(30_000)
            );
        }
    }

    #[test]
    fn the_sweep_runs_every_five_minutes_in_bounded_batches() {
        assert_eq!(SWEEP_INTERVAL, Duration::from_secs(300));
        assert_eq!(SWEEP_BATCH, 1_000);
        assert_eq!(SWEEP_MAX_BATCHES, 20);
    }
}
