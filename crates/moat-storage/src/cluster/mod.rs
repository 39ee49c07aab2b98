//! What instances sharing one database agree on through it: leases, so that one
//! instance at a time does a job (polling a real quote provider), and a failed
//! holder's lease runs out for another to take.

use async_trait::async_trait;

use crate::StorageError;

mod sql;

/// Longest lease name and holder id, in bytes.
pub const MAX_LEASE_NAME: usize = 64;

#[async_trait]
pub trait ClusterStorage: Send + Sync {
    /// Takes or renews the lease `name` for `holder` until `now_ms + ttl_ms` (unix
    /// milliseconds), in one atomic statement: granted when nobody holds it, when
    /// `holder` holds it already, or when its holder's time ran out (`expires_at <=
    /// now_ms`). Returns whether `holder` holds it now.
    async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<bool, StorageError>;

    /// Gives the lease up if `holder` holds it (a clean shutdown), so that another
    /// instance need not wait for it to run out.
    async fn release_lease(&self, name: &str, holder: &str) -> Result<(), StorageError>;

    /// Who holds the lease and until when (unix ms), if anybody ever took it.
    async fn lease_holder(&self, name: &str) -> Result<Option<(String, i64)>, StorageError>;
}

pub(crate) fn check_lease_args(name: &str, holder: &str, ttl_ms: i64) -> Result<(), StorageError> {
    if name.is_empty()
        || name.len() > MAX_LEASE_NAME
        || holder.is_empty()
        || holder.len() > MAX_LEASE_NAME
    {
        return Err(StorageError::Invalid(
            "lease name and holder must be 1 to 64 bytes",
        ));
    }
    if ttl_ms <= 0 {
        return Err(StorageError::Invalid("a lease lasts a positive time"));
    }
    Ok(())
}
