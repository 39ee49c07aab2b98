//! The retention job: once an hour (the first run a minute after start), data older
//! than `observe.retention_days` is deleted in batches of [`PURGE_BATCH`] rows, each
//! batch its own statement, so a purge never holds the database for long. Sessions
//! go with their last push; error groups with their last sighting; metrics and spans
//! by their own time.

use std::{sync::Arc, time::Duration};

use moat_storage::{ObservabilityStorage, StorageError};

/// Rows deleted per statement.
pub const PURGE_BATCH: i64 = 1_000;
/// Time between runs.
pub const PURGE_EVERY: Duration = Duration::from_secs(3600);
/// Delay of the first run after start.
pub const FIRST_PURGE_AFTER: Duration = Duration::from_secs(60);

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Deletes everything older than `cutoff_ms` (ms since the epoch), batch by batch.
/// Returns the rows deleted.
pub async fn purge_before(
    storage: &dyn ObservabilityStorage,
    cutoff_ms: i64,
) -> Result<u64, StorageError> {
    let mut total = 0;
    loop {
        let n = storage.obs_purge_batch(cutoff_ms, PURGE_BATCH).await?;
        if n == 0 {
            return Ok(total);
        }
        total += n;
        // Let other work at the database between batches.
        tokio::task::yield_now().await;
    }
}

/// The cut-off for a retention of `days` at `now_ms`.
pub fn cutoff(now_ms: i64, days: u32) -> i64 {
    now_ms - i64::from(days) * DAY_MS
}

/// Runs the job until the process ends.
pub fn spawn(
    storage: Arc<dyn ObservabilityStorage>,
    retention_days: u32,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        tokio::time::sleep(FIRST_PURGE_AFTER).await;
        let mut every = tokio::time::interval(PURGE_EVERY);
        loop {
            every.tick().await;
            let cut = cutoff(super::now_ms(), retention_days);
            match purge_before(storage.as_ref(), cut).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(rows = n, retention_days, "observability data purged"),
                Err(e) => tracing::warn!(error = format!("{e:#}"), "observability purge failed"),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cutoff_is_whole_days_back() {
        assert_eq!(cutoff(100 * DAY_MS, 30), 70 * DAY_MS);
    }
}
