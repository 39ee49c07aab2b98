//! Decoded transactions by portfolio, kept between requests.
//!
//! Reading a heavy member's 10,000 transactions from the database and decoding them
//! (decimal strings, dates) costs far more than valuing them, and every portfolio read
//! needs them. Each entry is stamped with the portfolio row's `updated_at`, which every
//! write to the portfolio or its transactions sets (moat-storage/src/portfolio.rs), in
//! the same statement batch. A read first loads the portfolio rows (it needs them for
//! the settings and the member check anyway) and uses an entry only when its stamp
//! equals the row's: a write by this instance or by another one sharing the database
//! makes the next read load afresh, so several instances never serve each other's
//! stale ledgers. The rows are read before the transactions, so a write racing a
//! load can at worst store newer transactions under the older stamp, which the next
//! read replaces.
//!
//! The cache is bounded by the number of transactions it holds ([`CAPACITY`]), evicting
//! the least recently useful portfolios first (quick_cache's CLOCK-Pro).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use moat_portfolio::Transaction;
use moat_storage::PortfolioRow;
use quick_cache::{sync::Cache, Weighter};

use super::{to_domain, to_domain_all};
use crate::{http::error::ApiError, AppState};

/// How many transactions the cache holds in all (about 200 bytes each: ~40 MB).
pub const CAPACITY: u64 = 200_000;
/// Portfolios the cache expects to hold (sizes its table).
const EXPECTED_PORTFOLIOS: usize = 2_000;

/// One portfolio's transactions as of `updated_at`, in ledger order.
#[derive(Clone)]
struct Entry {
    updated_at: DateTime<Utc>,
    transactions: Arc<Vec<Transaction>>,
}

#[derive(Clone)]
struct ByTransactions;

impl Weighter<i64, Entry> for ByTransactions {
    fn weight(&self, _key: &i64, entry: &Entry) -> u64 {
        entry.transactions.len() as u64 + 1
    }
}

pub struct TransactionCache {
    entries: Cache<i64, Entry, ByTransactions>,
}

impl Default for TransactionCache {
    fn default() -> Self {
        Self {
            entries: Cache::with_weighter(EXPECTED_PORTFOLIOS, CAPACITY, ByTransactions),
        }
    }
}

impl TransactionCache {
    fn fresh(&self, row: &PortfolioRow) -> Option<Arc<Vec<Transaction>>> {
        self.entries
            .get(&row.id)
            .filter(|e| e.updated_at == row.updated_at)
            .map(|e| e.transactions)
    }

    fn keep(&self, row: &PortfolioRow, transactions: Arc<Vec<Transaction>>) {
        self.entries.insert(
            row.id,
            Entry {
                updated_at: row.updated_at,
                transactions,
            },
        );
    }

    /// The transactions of `row` (a portfolio the caller has checked is the member's).
    pub async fn transactions(
        &self,
        state: &AppState,
        row: &PortfolioRow,
    ) -> Result<Arc<Vec<Transaction>>, ApiError> {
        if let Some(hit) = self.fresh(row) {
            return Ok(hit);
        }
        let loaded = Arc::new(to_domain_all(
            &state.storage.transactions(row.user_id, row.id).await?,
        )?);
        self.keep(row, loaded.clone());
        Ok(loaded)
    }

    /// The transactions of each of `rows` (one member's portfolios), in the same order:
    /// the fresh ones from the cache, the rest in one query when more than one is
    /// missing.
    pub async fn transactions_of(
        &self,
        state: &AppState,
        user_id: i64,
        rows: &[PortfolioRow],
    ) -> Result<Vec<Arc<Vec<Transaction>>>, ApiError> {
        let cached: Vec<Option<Arc<Vec<Transaction>>>> =
            rows.iter().map(|r| self.fresh(r)).collect();
        let missing = cached.iter().filter(|c| c.is_none()).count();
        if missing == 0 {
            return Ok(cached.into_iter().flatten().collect());
        }
        if missing == 1 {
            let mut out = Vec::with_capacity(rows.len());
            for (row, hit) in rows.iter().zip(cached) {
                out.push(match hit {
                    Some(t) => t,
                    None => self.transactions(state, row).await?,
                });
            }
            return Ok(out);
        }
        // Several to load: every transaction of the member in one query.
        let mut by_portfolio: std::collections::HashMap<i64, Vec<Transaction>> = Default::default();
        for tx in &state.storage.transactions_of_member(user_id).await? {
            by_portfolio
                .entry(tx.portfolio_id)
                .or_default()
                .push(to_domain(tx)?);
        }
        Ok(rows
            .iter()
            .zip(cached)
            .map(|(row, hit)| {
                hit.unwrap_or_else(|| {
                    let loaded = Arc::new(by_portfolio.remove(&row.id).unwrap_or_default());
                    self.keep(row, loaded.clone());
                    loaded
                })
            })
            .collect())
    }
}
