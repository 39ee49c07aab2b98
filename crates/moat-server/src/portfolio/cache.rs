//! Decoded ledgers by portfolio, kept between requests.
//!
//! Reading a heavy member's 10,000 transactions from the database and decoding them
//! (decimal strings, dates) costs far more than valuing them, and every portfolio read
//! needs them. Each entry is stamped with the portfolio's `revision`, which every write
//! to the portfolio or its transactions raises by one in the same database transaction
//! (moat-storage/src/portfolio.rs). A read first loads the portfolio rows (it needs them
//! for the settings and the member check anyway) and uses an entry only when its stamp
//! equals the row's: a write by this instance or by another one sharing the database
//! makes the next read load afresh, so several instances never serve each other's
//! stale ledgers. A write that validated a change against the locked ledger stores the
//! ledger it committed under the new revision, so the next read finds it.
//!
//! An entry also holds how much of the ledger applies ([`moat_portfolio::applicable`]):
//! a ledger left invalid by old data is valued up to its first transaction that cannot
//! apply, and that transaction is named.
//!
//! The cache is bounded by the number of transactions it holds ([`CAPACITY`]), evicting
//! the least recently useful portfolios first (quick_cache's CLOCK-Pro).

use std::sync::Arc;

use moat_portfolio::{applicable, Issue, PortfolioSettings, Transaction};
use moat_storage::{LedgerWrite, PortfolioRow};
use quick_cache::{sync::Cache, Weighter};

use super::service::{settings_of, to_domain, to_domain_all};
use crate::{http::error::ApiError, portfolio::PortfolioState};

/// How many transactions the cache holds in all (about 200 bytes each: ~40 MB).
pub const CAPACITY: u64 = 200_000;
/// Portfolios the cache expects to hold (sizes its table).
const EXPECTED_PORTFOLIOS: usize = 2_000;

/// One portfolio's ledger as of a revision.
#[derive(Debug)]
pub struct LedgerState {
    /// Every transaction, in ledger order (trade date, then id).
    pub transactions: Vec<Transaction>,
    /// How many of them, from the first, can be applied.
    applicable: usize,
    /// Why the next one cannot; `None` when all can.
    pub issue: Option<Issue>,
}

impl LedgerState {
    /// `transactions` in ledger order, checked under `settings`.
    pub fn new(settings: &PortfolioSettings, transactions: Vec<Transaction>) -> Self {
        let cut = applicable(settings, &transactions);
        Self {
            applicable: cut.transactions.len(),
            issue: cut.stopped_at,
            transactions,
        }
    }

    /// The transactions that apply: all of them, unless one cannot, and then those
    /// before it.
    pub fn usable(&self) -> &[Transaction] {
        &self.transactions[..self.applicable]
    }

    /// The transaction that stopped the ledger, if any.
    pub fn stopped_at(&self) -> Option<&Transaction> {
        let issue = self.issue.as_ref()?;
        self.transactions
            .iter()
            .find(|t| t.id == issue.transaction_id)
    }
}

/// One portfolio's ledger as of `revision`.
#[derive(Clone)]
struct Entry {
    revision: i64,
    ledger: Arc<LedgerState>,
}

#[derive(Clone)]
struct ByTransactions;

impl Weighter<i64, Entry> for ByTransactions {
    fn weight(&self, _key: &i64, entry: &Entry) -> u64 {
        entry.ledger.transactions.len() as u64 + 1
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
    fn fresh(&self, row: &PortfolioRow) -> Option<Arc<LedgerState>> {
        self.entries
            .get(&row.id)
            .filter(|e| e.revision == row.revision)
            .map(|e| e.ledger)
    }

    /// Keeps `transactions` (in ledger order) as the ledger of `row`'s revision.
    pub fn keep(&self, row: &PortfolioRow, transactions: Vec<Transaction>) -> Arc<LedgerState> {
        let ledger = Arc::new(LedgerState::new(&settings_of(row), transactions));
        self.entries.insert(
            row.id,
            Entry {
                revision: row.revision,
                ledger: ledger.clone(),
            },
        );
        ledger
    }

    /// The ledger of `row` (a portfolio the caller has checked is the member's).
    pub async fn ledger(
        &self,
        state: &PortfolioState,
        row: &PortfolioRow,
    ) -> Result<Arc<LedgerState>, ApiError> {
        if let Some(hit) = self.fresh(row) {
            return Ok(hit);
        }
        let loaded = to_domain_all(&state.storage.transactions(row.user_id, row.id).await?)?;
        Ok(self.keep(row, loaded))
    }

    /// The ledger behind a locked write, read through the lock when the cache does not
    /// have its revision.
    pub async fn locked(&self, ledger: &mut dyn LedgerWrite) -> Result<Arc<LedgerState>, ApiError> {
        if let Some(hit) = self.fresh(ledger.portfolio()) {
            return Ok(hit);
        }
        let loaded = to_domain_all(&ledger.transactions().await?)?;
        Ok(self.keep(ledger.portfolio(), loaded))
    }

    /// The ledgers of each of `rows` (one member's portfolios), in the same order: the
    /// fresh ones from the cache, the rest in one query when more than one is missing.
    pub async fn ledgers_of(
        &self,
        state: &PortfolioState,
        user_id: i64,
        rows: &[PortfolioRow],
    ) -> Result<Vec<Arc<LedgerState>>, ApiError> {
        let cached: Vec<Option<Arc<LedgerState>>> = rows.iter().map(|r| self.fresh(r)).collect();
        let missing = cached.iter().filter(|c| c.is_none()).count();
        if missing == 0 {
            return Ok(cached.into_iter().flatten().collect());
        }
        if missing == 1 {
            let mut out = Vec::with_capacity(rows.len());
            for (row, hit) in rows.iter().zip(cached) {
                out.push(match hit {
                    Some(t) => t,
                    None => self.ledger(state, row).await?,
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
                    self.keep(row, by_portfolio.remove(&row.id).unwrap_or_default())
                })
            })
            .collect())
    }
}
