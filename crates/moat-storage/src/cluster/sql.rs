//! The SQL of [`ClusterStorage`], one implementation for both backends.

use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

use crate::cluster::{check_lease_args, ClusterStorage};
use crate::sql::{Sql, SqlStorage};

#[async_trait::async_trait]
impl<DB: Sql> ClusterStorage for SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    usize: ColumnIndex<DB::Row>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<bool, crate::StorageError> {
        let _db = crate::probe::op("acquire_lease");
        check_lease_args(name, holder, ttl_ms)?;
        // One statement: the row is inserted, or updated only when the lease is this
        // holder's or has run out; RETURNING yields a row only when it was written.
        let row: Option<(String,)> = sqlx::query_as(
            "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
             WHERE leases.holder = excluded.holder OR leases.expires_at <= $4
             RETURNING holder",
        )
        .bind(name)
        .bind(holder)
        .bind(now_ms.saturating_add(ttl_ms))
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some_and(|(h,)| h == holder))
    }

    async fn release_lease(&self, name: &str, holder: &str) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("release_lease");
        sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
            .bind(name)
            .bind(holder)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn lease_holder(&self, name: &str) -> Result<Option<(String, i64)>, crate::StorageError> {
        let _db = crate::probe::op("lease_holder");
        Ok(
            sqlx::query_as("SELECT holder, expires_at FROM leases WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?,
        )
    }
}
