//! The SQL of [`LimitsStorage`], one implementation for both backends: each step is one
//! write transaction ([`Sql::BEGIN_WRITE`]) that makes sure its keys have rows
//! (`INSERT … ON CONFLICT DO NOTHING`, in key order), reads them locked
//! ([`Sql::FOR_UPDATE`], in key order), decides with the pure functions of
//! [`crate::limits`] and writes the rows back.

use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

use crate::limits::{
    charge_budget, decode_events, encode_events, take_event, Budget, FailureRow, Limited,
    LimitsStorage, LoginRule,
};
use crate::sql::{RowsAffected, Sql, SqlStorage};
use crate::StorageError;

/// Attempts at finding every key's row locked: a sweep may delete an expired row
/// between the insert-if-absent and the locking read, and the next attempt inserts it.
const LOCK_ATTEMPTS: usize = 3;

/// `$from, $from+1, …` for `n` parameters.
fn params(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys sorted and without repeats: the order every step locks them in.
fn sorted_keys(keys: &[String]) -> Vec<String> {
    let mut keys = keys.to_vec();
    keys.sort();
    keys.dedup();
    keys
}

#[async_trait::async_trait]
impl<DB: Sql> LimitsStorage for SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn reserve_login_attempt(
        &self,
        keys: &[String],
        rule: &LoginRule,
        now_ms: i64,
    ) -> Result<Limited<Vec<(String, u32)>>, StorageError> {
        let _db = crate::probe::op("reserve_login_attempt");
        let keys = sorted_keys(keys);
        if keys.is_empty() {
            return Ok(Limited::Granted(Vec::new()));
        }
        let mut tx = begin::<DB>(&self.pool).await?;
        // A key without a row gets one that means "no failures" (expired at once).
        let values = (0..keys.len())
            .map(|i| format!("(${}, 0, $1, $1, $1)", i + 2))
            .collect::<Vec<_>>()
            .join(", ");
        let insert = format!(
            "INSERT INTO limit_failures (key, failures, blocked_until_ms, last_ms, expires_at_ms)
             VALUES {values} ON CONFLICT (key) DO NOTHING"
        );
        let select = format!(
            "SELECT key, failures, blocked_until_ms, last_ms FROM limit_failures
             WHERE key IN ({}) ORDER BY key {}",
            params(1, keys.len()),
            DB::FOR_UPDATE
        );
        let mut rows = Vec::new();
        for _ in 0..LOCK_ATTEMPTS {
            let mut q = sqlx::query(&insert).bind(now_ms);
            for key in &keys {
                q = q.bind(key.as_str());
            }
            q.execute(&mut *tx).await?;
            let mut q = sqlx::query_as::<_, (String, i64, i64, i64)>(&select);
            for key in &keys {
                q = q.bind(key.as_str());
            }
            rows = q.fetch_all(&mut *tx).await?;
            if rows.len() == keys.len() {
                break;
            }
        }
        if rows.len() != keys.len() {
            return Err(StorageError::Invalid("limit_failures rows vanished"));
        }
        let mut rows: Vec<FailureRow> = rows
            .into_iter()
            .map(|(key, failures, blocked_until_ms, last_ms)| FailureRow {
                key,
                failures,
                blocked_until_ms,
                last_ms,
            })
            .collect();
        let decided = rule.reserve(&mut rows, now_ms);
        if let Limited::Granted(_) = decided {
            for row in &rows {
                write_failures(&mut *tx, row, rule.expires_at(row)).await?;
            }
        }
        tx.commit().await?;
        Ok(decided)
    }

    async fn settle_login_attempt(
        &self,
        charged: &[(String, u32)],
        succeeded: bool,
        rule: &LoginRule,
        now_ms: i64,
    ) -> Result<(), StorageError> {
        let _db = crate::probe::op("settle_login_attempt");
        let keys = sorted_keys(&charged.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>());
        if keys.is_empty() {
            return Ok(());
        }
        let mut tx = begin::<DB>(&self.pool).await?;
        // Locked in key order first, also to delete them: a statement's own locking
        // order is not defined, and two orders could deadlock with a reservation.
        let select = format!(
            "SELECT key, failures, blocked_until_ms, last_ms FROM limit_failures
             WHERE key IN ({}) ORDER BY key {}",
            params(1, keys.len()),
            DB::FOR_UPDATE
        );
        let mut q = sqlx::query_as::<_, (String, i64, i64, i64)>(&select);
        for key in &keys {
            q = q.bind(key.as_str());
        }
        let rows = q.fetch_all(&mut *tx).await?;
        if succeeded {
            let sql = format!(
                "DELETE FROM limit_failures WHERE key IN ({})",
                params(1, keys.len())
            );
            let mut q = sqlx::query(&sql);
            for key in &keys {
                q = q.bind(key.as_str());
            }
            q.execute(&mut *tx).await?;
            tx.commit().await?;
            return Ok(());
        }
        for (key, failures, blocked_until_ms, last_ms) in rows {
            let mut row = FailureRow {
                key,
                failures,
                blocked_until_ms,
                last_ms,
            };
            let Some((_, count)) = charged.iter().find(|(k, _)| *k == row.key) else {
                continue;
            };
            if rule.settle_failure(&mut row, *count, now_ms) {
                write_failures(&mut *tx, &row, rule.expires_at(&row)).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn take_window_event(
        &self,
        key: &str,
        limit: u32,
        window_ms: i64,
        now_ms: i64,
    ) -> Result<Limited<()>, StorageError> {
        let _db = crate::probe::op("take_window_event");
        let mut tx = begin::<DB>(&self.pool).await?;
        let mut stored = None;
        for _ in 0..LOCK_ATTEMPTS {
            sqlx::query(
                "INSERT INTO limit_windows (key, events, expires_at_ms) VALUES ($1, '', $2)
                 ON CONFLICT (key) DO NOTHING",
            )
            .bind(key)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
            stored = sqlx::query_scalar::<_, String>(&format!(
                "SELECT events FROM limit_windows WHERE key = $1 {}",
                DB::FOR_UPDATE
            ))
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
            if stored.is_some() {
                break;
            }
        }
        let stored = stored.ok_or(StorageError::Invalid("limit_windows row vanished"))?;
        let mut events = decode_events(&stored)?;
        let decided = take_event(&mut events, limit, window_ms, now_ms);
        if let Limited::Granted(()) = decided {
            let last = events.iter().copied().max().unwrap_or(now_ms);
            sqlx::query("UPDATE limit_windows SET events = $2, expires_at_ms = $3 WHERE key = $1")
                .bind(key)
                .bind(encode_events(&events))
                .bind(last.saturating_add(window_ms))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(decided)
    }

    async fn return_window_event(&self, key: &str, at_ms: i64) -> Result<(), StorageError> {
        let _db = crate::probe::op("return_window_event");
        let mut tx = begin::<DB>(&self.pool).await?;
        let stored = sqlx::query_scalar::<_, String>(&format!(
            "SELECT events FROM limit_windows WHERE key = $1 {}",
            DB::FOR_UPDATE
        ))
        .bind(key)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(stored) = stored {
            let mut events = decode_events(&stored)?;
            if let Some(i) = events.iter().rposition(|t| *t == at_ms) {
                events.remove(i);
                sqlx::query("UPDATE limit_windows SET events = $2 WHERE key = $1")
                    .bind(key)
                    .bind(encode_events(&events))
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    async fn charge_budget(
        &self,
        key: &str,
        amount: u64,
        limit: u64,
        window_ms: i64,
        now_ms: i64,
    ) -> Result<Limited<()>, StorageError> {
        let _db = crate::probe::op("charge_budget");
        let mut tx = begin::<DB>(&self.pool).await?;
        let mut stored = None;
        for _ in 0..LOCK_ATTEMPTS {
            sqlx::query(
                "INSERT INTO limit_budgets (key, window_start_ms, used, expires_at_ms)
                 VALUES ($1, $2, 0, $3) ON CONFLICT (key) DO NOTHING",
            )
            .bind(key)
            .bind(now_ms)
            .bind(now_ms.saturating_add(window_ms))
            .execute(&mut *tx)
            .await?;
            stored = sqlx::query_as::<_, (i64, i64)>(&format!(
                "SELECT window_start_ms, used FROM limit_budgets WHERE key = $1 {}",
                DB::FOR_UPDATE
            ))
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
            if stored.is_some() {
                break;
            }
        }
        let (window_start_ms, used) =
            stored.ok_or(StorageError::Invalid("limit_budgets row vanished"))?;
        let mut budget = Budget {
            window_start_ms,
            used,
        };
        let decided = charge_budget(&mut budget, amount, limit, window_ms, now_ms);
        // Written either way: a window that ran its length restarted even if refused.
        sqlx::query(
            "UPDATE limit_budgets SET window_start_ms = $2, used = $3, expires_at_ms = $4
             WHERE key = $1",
        )
        .bind(key)
        .bind(budget.window_start_ms)
        .bind(budget.used)
        .bind(budget.window_start_ms.saturating_add(window_ms))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(decided)
    }

    async fn delete_expired_limits(&self, now_ms: i64, batch: u32) -> Result<u64, StorageError> {
        let _db = crate::probe::op("delete_expired_limits");
        let mut deleted = 0;
        for table in ["limit_failures", "limit_windows", "limit_budgets"] {
            // Rows a live step holds are passed over (the sweep never waits on a step,
            // so the two cannot deadlock), and the outer condition is checked again on
            // a row a step renewed meanwhile.
            let sql = format!(
                "DELETE FROM {table} WHERE expires_at_ms <= $1 AND key IN
                 (SELECT key FROM {table} WHERE expires_at_ms <= $1 LIMIT $2 {})",
                DB::FOR_UPDATE_SKIP_LOCKED
            );
            deleted += sqlx::query(&sql)
                .bind(now_ms)
                .bind(i64::from(batch))
                .execute(&self.pool)
                .await?
                .rows_affected();
        }
        Ok(deleted)
    }
}

/// Opens a step's write transaction ([`Sql::BEGIN_WRITE`]), committed without waiting
/// for the disk where the database allows ([`Sql::RELAXED_COMMIT`]): a limit step
/// lost to a database crash costs a few hundred milliseconds of counts, while a sync
/// per step would cost a disk flush per log-in check.
async fn begin<DB: Sql>(
    pool: &sqlx::Pool<DB>,
) -> Result<sqlx::Transaction<'static, DB>, StorageError>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
{
    let mut tx = pool.begin_with(DB::BEGIN_WRITE).await?;
    if !DB::RELAXED_COMMIT.is_empty() {
        sqlx::query(DB::RELAXED_COMMIT).execute(&mut *tx).await?;
    }
    Ok(tx)
}

/// Writes one key's failures back (inside the step's transaction).
async fn write_failures<'c, DB: Sql>(
    conn: &'c mut DB::Connection,
    row: &FailureRow,
    expires_at_ms: i64,
) -> Result<(), StorageError>
where
    &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + Type<DB>,
{
    sqlx::query(
        "UPDATE limit_failures
         SET failures = $2, blocked_until_ms = $3, last_ms = $4, expires_at_ms = $5
         WHERE key = $1",
    )
    .bind(row.key.as_str())
    .bind(row.failures)
    .bind(row.blocked_until_ms)
    .bind(row.last_ms)
    .bind(expires_at_ms)
    .execute(conn)
    .await?;
    Ok(())
}
