//! Portfolios: a member's portfolios and the transactions recorded in them
//! (moat-portfolio computes everything else — holdings, cash, returns — from these).
//!
//! Every operation takes the member's `user_id` and touches only portfolios that
//! member owns: another member's portfolio behaves exactly like one that does not
//! exist (`None`, `false` or [`StorageError::NotFound`]). Amounts are exact decimal
//! strings on both backends and parsed back into [`Decimal`]. As in `accounts`, the
//! SQL is portable and one implementation, [`impl_portfolio_storage`], serves both
//! pools.
//!
//! Callers validate (name length, kinds, currencies, the fields each kind needs);
//! the schema's checks back them up and surface as [`StorageError::Invalid`]. The
//! caps ([`MAX_PORTFOLIOS`], [`MAX_TRANSACTIONS_PER_PORTFOLIO`]) are enforced here and
//! surface as [`StorageError::LimitReached`].
//!
//! A member's portfolios (and their transactions) are deleted when the member's
//! account is deleted: the schema does it when the member's row becomes a tombstone.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use moat_market::InstrumentId;
use rust_decimal::Decimal;

use crate::StorageError;

/// Most portfolios a member keeps.
pub const MAX_PORTFOLIOS: usize = 20;
/// Most transactions one portfolio holds.
pub const MAX_TRANSACTIONS_PER_PORTFOLIO: usize = 50_000;
/// Longest portfolio name, in characters (the schema checks it too).
pub const MAX_PORTFOLIO_NAME_CHARS: usize = 60;

/// The transaction kinds the schema accepts (moat-portfolio's `TxKind::as_str`).
pub const TRANSACTION_KINDS: [&str; 8] = [
    "buy",
    "sell",
    "dividend",
    "deposit",
    "withdrawal",
    "fee",
    "tax",
    "split",
];

/// What the broker says may be spent on orders, as the member last entered it.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderableCash {
    pub amount: Decimal,
    pub currency: String,
    /// When the member read the figure.
    pub updated_at: DateTime<Utc>,
}

/// A stored portfolio.
#[derive(Debug, Clone, PartialEq)]
pub struct PortfolioRow {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    /// `KRW` or `USD`.
    pub base_currency: String,
    /// `moving_average` or `fifo` (moat-portfolio's `CostMethod::as_str`).
    pub cost_method: String,
    pub broker: Option<String>,
    /// Order among the member's portfolios (ascending; gaps allowed).
    pub position: i64,
    pub orderable_cash: Option<OrderableCash>,
    pub created_at: DateTime<Utc>,
    /// The last change to the portfolio's settings, orderable cash or transactions.
    pub updated_at: DateTime<Utc>,
    /// Goes up by one with every write to the portfolio or its transactions, in the
    /// same database transaction: what a cached result was computed from.
    pub revision: i64,
}

/// What creating a portfolio needs. It goes after the member's other portfolios.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPortfolio {
    pub name: String,
    pub base_currency: String,
    pub cost_method: String,
    pub broker: Option<String>,
}

/// A change to a portfolio's settings: `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PortfolioUpdate {
    pub name: Option<String>,
    pub base_currency: Option<String>,
    pub cost_method: Option<String>,
    /// `Some(None)` clears the broker.
    pub broker: Option<Option<String>>,
}

/// A stored transaction (moat-portfolio's `Transaction`, plus where it lives).
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionRow {
    pub id: i64,
    pub portfolio_id: i64,
    /// One of [`TRANSACTION_KINDS`].
    pub kind: String,
    pub trade_date: NaiveDate,
    pub instrument_id: Option<InstrumentId>,
    pub quantity: Decimal,
    pub price: Decimal,
    pub fee: Decimal,
    pub tax: Decimal,
    pub currency: String,
    pub fx_rate: Option<Decimal>,
    pub split_numerator: Option<u32>,
    pub split_denominator: Option<u32>,
    pub note: String,
    /// Identifies the imported source row (CSV import), `None` for rows entered by hand.
    pub import_fingerprint: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What recording (or replacing) a transaction needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTransaction {
    /// One of [`TRANSACTION_KINDS`]; anything else is `Invalid`.
    pub kind: String,
    pub trade_date: NaiveDate,
    pub instrument_id: Option<InstrumentId>,
    pub quantity: Decimal,
    pub price: Decimal,
    pub fee: Decimal,
    pub tax: Decimal,
    pub currency: String,
    pub fx_rate: Option<Decimal>,
    /// Both or neither, each above zero (else `Invalid`).
    pub split_numerator: Option<u32>,
    pub split_denominator: Option<u32>,
    pub note: String,
    /// Ignored by [`PortfolioStorage::update_transaction`]: a row keeps where it came
    /// from when edited.
    pub import_fingerprint: Option<String>,
}

impl NewTransaction {
    /// A transaction of `kind` with every amount zero, no instrument, no split, no
    /// note and no fingerprint: a starting point for callers and tests.
    pub fn new(kind: &str, trade_date: NaiveDate, currency: &str) -> Self {
        Self {
            kind: kind.to_owned(),
            trade_date,
            instrument_id: None,
            quantity: Decimal::ZERO,
            price: Decimal::ZERO,
            fee: Decimal::ZERO,
            tax: Decimal::ZERO,
            currency: currency.to_owned(),
            fx_rate: None,
            split_numerator: None,
            split_denominator: None,
            note: String::new(),
            import_fingerprint: None,
        }
    }
}

/// Storage of portfolios and transactions. Part of [`crate::Storage`].
///
/// Every method is scoped to the member `user_id`: another member's portfolio (or a
/// transaction in one) is treated exactly as a missing one.
#[async_trait]
pub trait PortfolioStorage: Send + Sync {
    /// Number of portfolios the member has.
    async fn portfolio_count(&self, user_id: i64) -> Result<i64, StorageError>;

    /// Creates a portfolio after the member's others. `LimitReached("portfolios")` at
    /// [`MAX_PORTFOLIOS`]; `NotFound` when the member does not exist or is deleted;
    /// `Invalid` when a field breaks the schema's checks.
    async fn create_portfolio(
        &self,
        user_id: i64,
        new: &NewPortfolio,
    ) -> Result<PortfolioRow, StorageError>;

    /// The member's portfolios by position (then id).
    async fn list_portfolios(&self, user_id: i64) -> Result<Vec<PortfolioRow>, StorageError>;

    /// One of the member's portfolios.
    async fn portfolio(&self, user_id: i64, id: i64) -> Result<Option<PortfolioRow>, StorageError>;

    /// Changes the given settings; `None` when the portfolio is not the member's.
    async fn update_portfolio(
        &self,
        user_id: i64,
        id: i64,
        update: &PortfolioUpdate,
    ) -> Result<Option<PortfolioRow>, StorageError>;

    /// Deletes the portfolio and its transactions; `false` when it is not the
    /// member's.
    async fn delete_portfolio(&self, user_id: i64, id: i64) -> Result<bool, StorageError>;

    /// Puts the member's portfolios in the order of `ids`, which must name each of the
    /// member's portfolios exactly once (else `Invalid`, and nothing changes).
    async fn reorder_portfolios(&self, user_id: i64, ids: &[i64]) -> Result<(), StorageError>;

    /// Sets (or, with `None`, clears) the orderable cash; `None` when the portfolio is
    /// not the member's.
    async fn set_orderable_cash(
        &self,
        user_id: i64,
        id: i64,
        cash: Option<&OrderableCash>,
    ) -> Result<Option<PortfolioRow>, StorageError>;

    /// The portfolio's transactions by trade date, then id (ledger order). `NotFound`
    /// when the portfolio is not the member's.
    async fn transactions(
        &self,
        user_id: i64,
        portfolio_id: i64,
    ) -> Result<Vec<TransactionRow>, StorageError>;

    /// Every transaction of every portfolio of the member, by trade date then id (the
    /// combined view across portfolios).
    async fn transactions_of_member(
        &self,
        user_id: i64,
    ) -> Result<Vec<TransactionRow>, StorageError>;

    /// Locks the portfolio's ledger for one change and returns it, or `None` when the
    /// portfolio is not the member's. Until the handle is committed or dropped, every
    /// other writer of this portfolio waits (on every instance): a row lock in
    /// PostgreSQL, an immediate (write-locking) transaction in SQLite. Readers do not
    /// wait. What the caller reads through the handle is therefore what its writes
    /// apply to, so a check made on it (a sell against the shares held) cannot be
    /// raced. Dropping the handle without committing changes nothing.
    async fn lock_ledger(
        &self,
        user_id: i64,
        portfolio_id: i64,
    ) -> Result<Option<Box<dyn LedgerWrite>>, StorageError>;

    /// Records a transaction without any check but the schema's; `None` when the
    /// portfolio is not the member's; `LimitReached("transactions")` at
    /// [`MAX_TRANSACTIONS_PER_PORTFOLIO`].
    async fn add_transaction(
        &self,
        user_id: i64,
        portfolio_id: i64,
        tx: &NewTransaction,
    ) -> Result<Option<TransactionRow>, StorageError> {
        let Some(mut ledger) = self.lock_ledger(user_id, portfolio_id).await? else {
            return Ok(None);
        };
        let row = ledger.add(tx).await?;
        ledger.commit().await?;
        Ok(Some(row))
    }

    /// Replaces every field of a transaction but its fingerprint; `None` when it is
    /// not in that portfolio or the portfolio is not the member's.
    async fn update_transaction(
        &self,
        user_id: i64,
        portfolio_id: i64,
        tx_id: i64,
        tx: &NewTransaction,
    ) -> Result<Option<TransactionRow>, StorageError> {
        let Some(mut ledger) = self.lock_ledger(user_id, portfolio_id).await? else {
            return Ok(None);
        };
        let Some(row) = ledger.update(tx_id, tx).await? else {
            return Ok(None);
        };
        ledger.commit().await?;
        Ok(Some(row))
    }

    /// Deletes a transaction; `false` when it is not in that portfolio or the
    /// portfolio is not the member's.
    async fn delete_transaction(
        &self,
        user_id: i64,
        portfolio_id: i64,
        tx_id: i64,
    ) -> Result<bool, StorageError> {
        let Some(mut ledger) = self.lock_ledger(user_id, portfolio_id).await? else {
            return Ok(false);
        };
        if !ledger.delete(tx_id).await? {
            return Ok(false);
        }
        ledger.commit().await?;
        Ok(true)
    }

    /// Records many transactions in one database transaction: all of them or, on any
    /// error, none. Returns how many. `NotFound` when the portfolio is not the
    /// member's; `LimitReached("transactions")` when they would take the portfolio
    /// past [`MAX_TRANSACTIONS_PER_PORTFOLIO`].
    async fn import_transactions(
        &self,
        user_id: i64,
        portfolio_id: i64,
        txs: &[NewTransaction],
    ) -> Result<u64, StorageError> {
        let Some(mut ledger) = self.lock_ledger(user_id, portfolio_id).await? else {
            return Err(StorageError::NotFound);
        };
        let n = ledger.insert_many(txs).await?;
        ledger.commit().await?;
        Ok(n)
    }

    /// The distinct import fingerprints in the portfolio (to spot rows imported
    /// before). `NotFound` when the portfolio is not the member's.
    async fn import_fingerprints(
        &self,
        user_id: i64,
        portfolio_id: i64,
    ) -> Result<Vec<String>, StorageError>;
}

/// The stored first answer to a request made with an `Idempotency-Key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotentResponse {
    /// Identifies the request (the caller's hash of its method, path and body).
    pub request_hash: String,
    pub status: u16,
    /// The response body, as sent.
    pub body: String,
    pub created_at: DateTime<Utc>,
}

/// A portfolio's ledger locked for one change ([`PortfolioStorage::lock_ledger`]).
/// Nothing is visible to others before [`LedgerWrite::commit`]; dropping the handle
/// rolls everything back.
#[async_trait]
pub trait LedgerWrite: Send {
    /// The portfolio as it stood when locked.
    fn portfolio(&self) -> &PortfolioRow;

    /// Its transactions by trade date, then id (ledger order).
    async fn transactions(&mut self) -> Result<Vec<TransactionRow>, StorageError>;

    /// The distinct import fingerprints in the portfolio.
    async fn import_fingerprints(&mut self) -> Result<Vec<String>, StorageError>;

    /// Records a transaction. `LimitReached("transactions")` at
    /// [`MAX_TRANSACTIONS_PER_PORTFOLIO`]; `Invalid` when it breaks the schema's checks.
    async fn add(&mut self, tx: &NewTransaction) -> Result<TransactionRow, StorageError>;

    /// Records many transactions; `LimitReached("transactions")` when they would take
    /// the portfolio past [`MAX_TRANSACTIONS_PER_PORTFOLIO`].
    async fn insert_many(&mut self, txs: &[NewTransaction]) -> Result<u64, StorageError>;

    /// Replaces every field of a transaction but its fingerprint; `None` when it is not
    /// in this portfolio.
    async fn update(
        &mut self,
        tx_id: i64,
        tx: &NewTransaction,
    ) -> Result<Option<TransactionRow>, StorageError>;

    /// Deletes a transaction; `false` when it is not in this portfolio.
    async fn delete(&mut self, tx_id: i64) -> Result<bool, StorageError>;

    /// The member's stored answer under `key`, if one was stored at or after `since`.
    async fn idempotent_response(
        &mut self,
        key: &str,
        since: DateTime<Utc>,
    ) -> Result<Option<IdempotentResponse>, StorageError>;

    /// Stores the answer under the member's `key` (replacing one older than `since`),
    /// and forgets the member's answers older than `since`. `Conflict("idempotency_key")`
    /// when a concurrent request stored one under the key first.
    async fn remember_response(
        &mut self,
        key: &str,
        response: &IdempotentResponse,
        since: DateTime<Utc>,
    ) -> Result<(), StorageError>;

    /// Adds one to the portfolio's revision, makes every change visible, and returns
    /// the portfolio as it now stands.
    async fn commit(self: Box<Self>) -> Result<PortfolioRow, StorageError>;
}

/// A `portfolios` row as both backends return it.
#[derive(sqlx::FromRow)]
pub(crate) struct PortfolioDbRow {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub base_currency: String,
    pub cost_method: String,
    pub broker: Option<String>,
    pub position: i64,
    pub orderable_cash: Option<String>,
    pub orderable_cash_currency: Option<String>,
    pub orderable_cash_updated_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub revision: i64,
}

impl PortfolioDbRow {
    pub(crate) fn into_row(self) -> Result<PortfolioRow, StorageError> {
        let orderable_cash = match (
            self.orderable_cash,
            self.orderable_cash_currency,
            self.orderable_cash_updated_at,
        ) {
            (Some(amount), Some(currency), Some(updated_at)) => Some(OrderableCash {
                amount: dec(&amount)?,
                currency,
                updated_at,
            }),
            _ => None,
        };
        Ok(PortfolioRow {
            id: self.id,
            user_id: self.user_id,
            name: self.name,
            base_currency: self.base_currency,
            cost_method: self.cost_method,
            broker: self.broker,
            position: self.position,
            orderable_cash,
            created_at: self.created_at,
            updated_at: self.updated_at,
            revision: self.revision,
        })
    }
}

/// A `transactions` row as both backends return it.
#[derive(sqlx::FromRow)]
pub(crate) struct TransactionDbRow {
    pub id: i64,
    pub portfolio_id: i64,
    pub kind: String,
    pub trade_date: NaiveDate,
    pub instrument_id: Option<String>,
    pub quantity: String,
    pub price: String,
    pub fee: String,
    pub tax: String,
    pub currency: String,
    pub fx_rate: Option<String>,
    pub split_numerator: Option<i64>,
    pub split_denominator: Option<i64>,
    pub note: String,
    pub import_fingerprint: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TransactionDbRow {
    pub(crate) fn into_row(self) -> Result<TransactionRow, StorageError> {
        let ratio = |n: Option<i64>| {
            n.map(|n| {
                u32::try_from(n)
                    .map_err(|_| StorageError::Invalid("stored split ratio is out of range"))
            })
            .transpose()
        };
        Ok(TransactionRow {
            id: self.id,
            portfolio_id: self.portfolio_id,
            kind: self.kind,
            trade_date: self.trade_date,
            instrument_id: self
                .instrument_id
                .as_deref()
                .map(crate::market::id)
                .transpose()?,
            quantity: dec(&self.quantity)?,
            price: dec(&self.price)?,
            fee: dec(&self.fee)?,
            tax: dec(&self.tax)?,
            currency: self.currency,
            fx_rate: self.fx_rate.as_deref().map(dec).transpose()?,
            split_numerator: ratio(self.split_numerator)?,
            split_denominator: ratio(self.split_denominator)?,
            note: self.note,
            import_fingerprint: self.import_fingerprint,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

fn dec(s: &str) -> Result<Decimal, StorageError> {
    s.parse()
        .map_err(|_| StorageError::Invalid("stored amount is not a decimal"))
}

pub(crate) const PORTFOLIO_COLUMNS: &str =
    "id, user_id, name, base_currency, cost_method, broker, position, orderable_cash, \
     orderable_cash_currency, orderable_cash_updated_at, created_at, updated_at, revision";

pub(crate) const TRANSACTION_COLUMNS: &str =
    "id, portfolio_id, kind, trade_date, instrument_id, quantity, price, fee, tax, currency, \
     fx_rate, split_numerator, split_denominator, note, import_fingerprint, created_at, updated_at";

/// The `INSERT` head of a transaction; [`push_transaction`] binds one row's values.
pub(crate) const TRANSACTION_INSERT: &str =
    "INSERT INTO transactions (portfolio_id, kind, trade_date, instrument_id, quantity, price, \
     fee, tax, currency, fx_rate, split_numerator, split_denominator, note, import_fingerprint, \
     created_at, updated_at) ";

/// Binds one transaction's values in [`TRANSACTION_INSERT`]'s column order.
pub(crate) fn push_transaction<'args, DB>(
    b: &mut sqlx::query_builder::Separated<'_, 'args, DB, &'static str>,
    portfolio_id: i64,
    tx: &NewTransaction,
    now: DateTime<Utc>,
) where
    DB: sqlx::Database,
    i64: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
    Option<i64>: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
    String: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
    Option<String>: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
    NaiveDate: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
    DateTime<Utc>: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
{
    b.push_bind(portfolio_id)
        .push_bind(tx.kind.clone())
        .push_bind(tx.trade_date)
        .push_bind(tx.instrument_id.as_ref().map(ToString::to_string))
        .push_bind(tx.quantity.to_string())
        .push_bind(tx.price.to_string())
        .push_bind(tx.fee.to_string())
        .push_bind(tx.tax.to_string())
        .push_bind(tx.currency.clone())
        .push_bind(tx.fx_rate.map(|r| r.to_string()))
        .push_bind(tx.split_numerator.map(i64::from))
        .push_bind(tx.split_denominator.map(i64::from))
        .push_bind(tx.note.clone())
        .push_bind(tx.import_fingerprint.clone())
        .push_bind(now)
        .push_bind(now);
}

/// Maps a failed schema check to `Invalid` naming what is wrong; other errors pass
/// through.
pub(crate) fn invalid_or(e: sqlx::Error) -> StorageError {
    if let Some(db) = e.as_database_error() {
        if db.kind() == sqlx::error::ErrorKind::CheckViolation {
            let what = format!("{} {}", db.constraint().unwrap_or(""), db.message());
            let message = if what.contains("transactions_kind") {
                "unknown transaction kind"
            } else if what.contains("transactions_split_ratio") {
                "a split ratio needs both terms, each above zero"
            } else if what.contains("portfolios_name_length") {
                "portfolio name must be 1 to 60 characters"
            } else if what.contains("portfolios_base_currency") {
                "base currency must be KRW or USD"
            } else if what.contains("portfolios_cost_method") {
                "cost method must be moving_average or fifo"
            } else {
                "a value is out of range"
            };
            return StorageError::Invalid(message);
        }
    }
    StorageError::Database(e)
}

/// The one implementation of [`PortfolioStorage`], for a storage type with a `pool`
/// field of a sqlx pool type, and that pool's database type (for multi-row inserts).
///
/// Writes that must see a consistent set of rows start with a write that takes the
/// lock they need: the member's row for the set of portfolios (creating, reordering),
/// the portfolio's row for its transactions (which also checks ownership and bumps the
/// portfolio's `updated_at`). SQLite then holds the write lock from the first
/// statement, and PostgreSQL serialises writers on that row.
macro_rules! impl_portfolio_storage {
    ($ty:ty, $db:ty, $ledger:ident, $begin:literal) => {
        /// A locked ledger of this backend ([`$crate::portfolio::LedgerWrite`]).
        pub struct $ledger {
            tx: sqlx::Transaction<'static, $db>,
            portfolio: $crate::portfolio::PortfolioRow,
        }

        #[async_trait::async_trait]
        impl $crate::portfolio::LedgerWrite for $ledger {
            fn portfolio(&self) -> &$crate::portfolio::PortfolioRow {
                &self.portfolio
            }

            async fn transactions(
                &mut self,
            ) -> Result<Vec<$crate::portfolio::TransactionRow>, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_transactions");
                use $crate::portfolio::{TransactionDbRow, TRANSACTION_COLUMNS};
                let rows: Vec<TransactionDbRow> = sqlx::query_as(&format!(
                    "SELECT {TRANSACTION_COLUMNS} FROM transactions
                     WHERE portfolio_id = $1 ORDER BY trade_date, id"
                ))
                .bind(self.portfolio.id)
                .fetch_all(&mut *self.tx)
                .await?;
                rows.into_iter().map(TransactionDbRow::into_row).collect()
            }

            async fn import_fingerprints(&mut self) -> Result<Vec<String>, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_import_fingerprints");
                Ok(sqlx::query_scalar(
                    "SELECT DISTINCT import_fingerprint FROM transactions
                     WHERE portfolio_id = $1 AND import_fingerprint IS NOT NULL
                     ORDER BY import_fingerprint",
                )
                .bind(self.portfolio.id)
                .fetch_all(&mut *self.tx)
                .await?)
            }

            async fn add(
                &mut self,
                new: &$crate::portfolio::NewTransaction,
            ) -> Result<$crate::portfolio::TransactionRow, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_add");
                use $crate::portfolio::{
                    invalid_or, push_transaction, TransactionDbRow, MAX_TRANSACTIONS_PER_PORTFOLIO,
                    TRANSACTION_COLUMNS, TRANSACTION_INSERT,
                };
                let count: i64 =
                    sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE portfolio_id = $1")
                        .bind(self.portfolio.id)
                        .fetch_one(&mut *self.tx)
                        .await?;
                if count >= MAX_TRANSACTIONS_PER_PORTFOLIO as i64 {
                    return Err($crate::StorageError::LimitReached("transactions"));
                }
                let now = chrono::Utc::now();
                let mut q = sqlx::QueryBuilder::<$db>::new(TRANSACTION_INSERT);
                q.push_values(std::iter::once(new), |mut b, new| {
                    push_transaction(&mut b, self.portfolio.id, new, now);
                });
                q.push(format!(" RETURNING {TRANSACTION_COLUMNS}"));
                let row: TransactionDbRow = q
                    .build_query_as()
                    .fetch_one(&mut *self.tx)
                    .await
                    .map_err(invalid_or)?;
                row.into_row()
            }

            async fn insert_many(
                &mut self,
                txs: &[$crate::portfolio::NewTransaction],
            ) -> Result<u64, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_insert_many");
                use $crate::portfolio::{
                    invalid_or, push_transaction, MAX_TRANSACTIONS_PER_PORTFOLIO, TRANSACTION_INSERT,
                };
                let count: i64 =
                    sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE portfolio_id = $1")
                        .bind(self.portfolio.id)
                        .fetch_one(&mut *self.tx)
                        .await?;
                if count as u64 + txs.len() as u64 > MAX_TRANSACTIONS_PER_PORTFOLIO as u64 {
                    return Err($crate::StorageError::LimitReached("transactions"));
                }
                let now = chrono::Utc::now();
                for chunk in txs.chunks($crate::market::INSERT_CHUNK_ROWS) {
                    let mut q = sqlx::QueryBuilder::<$db>::new(TRANSACTION_INSERT);
                    q.push_values(chunk, |mut b, new| {
                        push_transaction(&mut b, self.portfolio.id, new, now);
                    });
                    q.build().execute(&mut *self.tx).await.map_err(invalid_or)?;
                }
                Ok(txs.len() as u64)
            }

            async fn update(
                &mut self,
                tx_id: i64,
                new: &$crate::portfolio::NewTransaction,
            ) -> Result<Option<$crate::portfolio::TransactionRow>, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_update");
                use $crate::portfolio::{invalid_or, TransactionDbRow, TRANSACTION_COLUMNS};
                let row: Option<TransactionDbRow> = sqlx::query_as(&format!(
                    "UPDATE transactions SET kind = $1, trade_date = $2, instrument_id = $3,
                         quantity = $4, price = $5, fee = $6, tax = $7, currency = $8,
                         fx_rate = $9, split_numerator = $10, split_denominator = $11,
                         note = $12, updated_at = $13
                     WHERE id = $14 AND portfolio_id = $15 RETURNING {TRANSACTION_COLUMNS}"
                ))
                .bind(&new.kind)
                .bind(new.trade_date)
                .bind(new.instrument_id.as_ref().map(ToString::to_string))
                .bind(new.quantity.to_string())
                .bind(new.price.to_string())
                .bind(new.fee.to_string())
                .bind(new.tax.to_string())
                .bind(&new.currency)
                .bind(new.fx_rate.map(|r| r.to_string()))
                .bind(new.split_numerator.map(i64::from))
                .bind(new.split_denominator.map(i64::from))
                .bind(&new.note)
                .bind(chrono::Utc::now())
                .bind(tx_id)
                .bind(self.portfolio.id)
                .fetch_optional(&mut *self.tx)
                .await
                .map_err(invalid_or)?;
                row.map(TransactionDbRow::into_row).transpose()
            }

            async fn delete(&mut self, tx_id: i64) -> Result<bool, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_delete");
                let done = sqlx::query("DELETE FROM transactions WHERE id = $1 AND portfolio_id = $2")
                    .bind(tx_id)
                    .bind(self.portfolio.id)
                    .execute(&mut *self.tx)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn idempotent_response(
                &mut self,
                key: &str,
                since: chrono::DateTime<chrono::Utc>,
            ) -> Result<Option<$crate::portfolio::IdempotentResponse>, $crate::StorageError> {
                let _db = $crate::probe::op("idempotent_response");
                let row: Option<(String, i32, String, chrono::DateTime<chrono::Utc>)> = sqlx::query_as(
                    "SELECT request_hash, status, body, created_at FROM idempotency_keys
                     WHERE user_id = $1 AND key = $2 AND created_at >= $3",
                )
                .bind(self.portfolio.user_id)
                .bind(key)
                .bind(since)
                .fetch_optional(&mut *self.tx)
                .await?;
                row.map(|(request_hash, status, body, created_at)| {
                    Ok($crate::portfolio::IdempotentResponse {
                        request_hash,
                        status: u16::try_from(status)
                            .map_err(|_| $crate::StorageError::Invalid("stored status is out of range"))?,
                        body,
                        created_at,
                    })
                })
                .transpose()
            }

            async fn remember_response(
                &mut self,
                key: &str,
                response: &$crate::portfolio::IdempotentResponse,
                since: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("remember_response");
                sqlx::query("DELETE FROM idempotency_keys WHERE user_id = $1 AND created_at < $2")
                    .bind(self.portfolio.user_id)
                    .bind(since)
                    .execute(&mut *self.tx)
                    .await?;
                let inserted = sqlx::query(
                    "INSERT INTO idempotency_keys (user_id, key, request_hash, status, body, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, key) DO NOTHING",
                )
                .bind(self.portfolio.user_id)
                .bind(key)
                .bind(&response.request_hash)
                .bind(i32::from(response.status))
                .bind(&response.body)
                .bind(response.created_at)
                .execute(&mut *self.tx)
                .await?;
                if inserted.rows_affected() == 0 {
                    return Err($crate::StorageError::Conflict("idempotency_key"));
                }
                Ok(())
            }

            async fn commit(
                mut self: Box<Self>,
            ) -> Result<$crate::portfolio::PortfolioRow, $crate::StorageError> {
                let _db = $crate::probe::op("ledger_commit");
                use $crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
                let row: PortfolioDbRow = sqlx::query_as(&format!(
                    "UPDATE portfolios SET revision = revision + 1, updated_at = $1 WHERE id = $2
                     RETURNING {PORTFOLIO_COLUMNS}"
                ))
                .bind(chrono::Utc::now())
                .bind(self.portfolio.id)
                .fetch_one(&mut *self.tx)
                .await?;
                self.tx.commit().await?;
                row.into_row()
            }
        }

        #[async_trait::async_trait]
        impl $crate::portfolio::PortfolioStorage for $ty {
            async fn portfolio_count(&self, user_id: i64) -> Result<i64, $crate::StorageError> {
                let _db = $crate::probe::op("portfolio_count");
                Ok(
                    sqlx::query_scalar("SELECT COUNT(*) FROM portfolios WHERE user_id = $1")
                        .bind(user_id)
                        .fetch_one(&self.pool)
                        .await?,
                )
            }

            async fn create_portfolio(
                &self,
                user_id: i64,
                new: &$crate::portfolio::NewPortfolio,
            ) -> Result<$crate::portfolio::PortfolioRow, $crate::StorageError> {
                let _db = $crate::probe::op("create_portfolio");
                use $crate::portfolio::{invalid_or, PortfolioDbRow, MAX_PORTFOLIOS, PORTFOLIO_COLUMNS};
                let now = chrono::Utc::now();
                let mut tx = self.pool.begin().await?;
                // Locks the member's row: concurrent creations count one after another.
                let member = sqlx::query(
                    "UPDATE users SET premium = premium WHERE id = $1 AND deleted_at IS NULL",
                )
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
                if member.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                let (count, last): (i64, i64) = sqlx::query_as(
                    "SELECT COUNT(*), COALESCE(MAX(position), -1) FROM portfolios WHERE user_id = $1",
                )
                .bind(user_id)
                .fetch_one(&mut *tx)
                .await?;
                if count >= MAX_PORTFOLIOS as i64 {
                    return Err($crate::StorageError::LimitReached("portfolios"));
                }
                let row: PortfolioDbRow = sqlx::query_as(&format!(
                    "INSERT INTO portfolios (user_id, name, base_currency, cost_method, broker, position, created_at, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING {PORTFOLIO_COLUMNS}"
                ))
                .bind(user_id)
                .bind(&new.name)
                .bind(&new.base_currency)
                .bind(&new.cost_method)
                .bind(new.broker.as_deref())
                .bind(last + 1)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(invalid_or)?;
                tx.commit().await?;
                row.into_row()
            }

            async fn list_portfolios(
                &self,
                user_id: i64,
            ) -> Result<Vec<$crate::portfolio::PortfolioRow>, $crate::StorageError> {
                let _db = $crate::probe::op("list_portfolios");
                use $crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
                let rows: Vec<PortfolioDbRow> = sqlx::query_as(&format!(
                    "SELECT {PORTFOLIO_COLUMNS} FROM portfolios WHERE user_id = $1 ORDER BY position, id"
                ))
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(PortfolioDbRow::into_row).collect()
            }

            async fn portfolio(
                &self,
                user_id: i64,
                id: i64,
            ) -> Result<Option<$crate::portfolio::PortfolioRow>, $crate::StorageError> {
                let _db = $crate::probe::op("portfolio");
                use $crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
                let row: Option<PortfolioDbRow> = sqlx::query_as(&format!(
                    "SELECT {PORTFOLIO_COLUMNS} FROM portfolios WHERE id = $1 AND user_id = $2"
                ))
                .bind(id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(PortfolioDbRow::into_row).transpose()
            }

            async fn update_portfolio(
                &self,
                user_id: i64,
                id: i64,
                update: &$crate::portfolio::PortfolioUpdate,
            ) -> Result<Option<$crate::portfolio::PortfolioRow>, $crate::StorageError> {
                let _db = $crate::probe::op("update_portfolio");
                use $crate::portfolio::{invalid_or, PortfolioDbRow, PORTFOLIO_COLUMNS};
                let row: Option<PortfolioDbRow> = sqlx::query_as(&format!(
                    "UPDATE portfolios SET name = COALESCE($1, name),
                         base_currency = COALESCE($2, base_currency),
                         cost_method = COALESCE($3, cost_method),
                         broker = CASE WHEN $4 THEN $5 ELSE broker END,
                         updated_at = $6, revision = revision + 1
                     WHERE id = $7 AND user_id = $8 RETURNING {PORTFOLIO_COLUMNS}"
                ))
                .bind(update.name.as_deref())
                .bind(update.base_currency.as_deref())
                .bind(update.cost_method.as_deref())
                .bind(update.broker.is_some())
                .bind(update.broker.as_ref().and_then(|b| b.as_deref()))
                .bind(chrono::Utc::now())
                .bind(id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(invalid_or)?;
                row.map(PortfolioDbRow::into_row).transpose()
            }

            async fn delete_portfolio(&self, user_id: i64, id: i64) -> Result<bool, $crate::StorageError> {
                let _db = $crate::probe::op("delete_portfolio");
                let done = sqlx::query("DELETE FROM portfolios WHERE id = $1 AND user_id = $2")
                    .bind(id)
                    .bind(user_id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn reorder_portfolios(
                &self,
                user_id: i64,
                ids: &[i64],
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("reorder_portfolios");
                let mut tx = self.pool.begin().await?;
                let member = sqlx::query(
                    "UPDATE users SET premium = premium WHERE id = $1 AND deleted_at IS NULL",
                )
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
                if member.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                let mut owned: Vec<i64> =
                    sqlx::query_scalar("SELECT id FROM portfolios WHERE user_id = $1")
                        .bind(user_id)
                        .fetch_all(&mut *tx)
                        .await?;
                owned.sort_unstable();
                let mut given = ids.to_vec();
                given.sort_unstable();
                if given != owned {
                    return Err($crate::StorageError::Invalid(
                        "the order must name each of the member's portfolios once",
                    ));
                }
                for (position, id) in ids.iter().enumerate() {
                    sqlx::query("UPDATE portfolios SET position = $1 WHERE id = $2 AND user_id = $3")
                    .bind(position as i64)
                    .bind(*id)
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn set_orderable_cash(
                &self,
                user_id: i64,
                id: i64,
                cash: Option<&$crate::portfolio::OrderableCash>,
            ) -> Result<Option<$crate::portfolio::PortfolioRow>, $crate::StorageError> {
                let _db = $crate::probe::op("set_orderable_cash");
                use $crate::portfolio::{invalid_or, PortfolioDbRow, PORTFOLIO_COLUMNS};
                let row: Option<PortfolioDbRow> = sqlx::query_as(&format!(
                    "UPDATE portfolios SET orderable_cash = $1, orderable_cash_currency = $2,
                         orderable_cash_updated_at = $3, updated_at = $4,
                         revision = revision + 1
                     WHERE id = $5 AND user_id = $6 RETURNING {PORTFOLIO_COLUMNS}"
                ))
                .bind(cash.map(|c| c.amount.to_string()))
                .bind(cash.map(|c| c.currency.as_str()))
                .bind(cash.map(|c| c.updated_at))
                .bind(chrono::Utc::now())
                .bind(id)
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(invalid_or)?;
                row.map(PortfolioDbRow::into_row).transpose()
            }

            async fn transactions(
                &self,
                user_id: i64,
                portfolio_id: i64,
            ) -> Result<Vec<$crate::portfolio::TransactionRow>, $crate::StorageError> {
                let _db = $crate::probe::op("transactions");
                use $crate::portfolio::{TransactionDbRow, TRANSACTION_COLUMNS};
                let mut conn = self.pool.acquire().await?;
                let owned: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM portfolios WHERE id = $1 AND user_id = $2")
                        .bind(portfolio_id)
                        .bind(user_id)
                        .fetch_optional(&mut *conn)
                        .await?;
                if owned.is_none() {
                    return Err($crate::StorageError::NotFound);
                }
                let rows: Vec<TransactionDbRow> = sqlx::query_as(&format!(
                    "SELECT {TRANSACTION_COLUMNS} FROM transactions
                     WHERE portfolio_id = $1 ORDER BY trade_date, id"
                ))
                .bind(portfolio_id)
                .fetch_all(&mut *conn)
                .await?;
                rows.into_iter().map(TransactionDbRow::into_row).collect()
            }

            async fn transactions_of_member(
                &self,
                user_id: i64,
            ) -> Result<Vec<$crate::portfolio::TransactionRow>, $crate::StorageError> {
                let _db = $crate::probe::op("transactions_of_member");
                use $crate::portfolio::{TransactionDbRow, TRANSACTION_COLUMNS};
                let rows: Vec<TransactionDbRow> = sqlx::query_as(&format!(
                    "SELECT {TRANSACTION_COLUMNS} FROM transactions
                     WHERE portfolio_id IN (SELECT id FROM portfolios WHERE user_id = $1)
                     ORDER BY trade_date, id"
                ))
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TransactionDbRow::into_row).collect()
            }

            async fn lock_ledger(
                &self,
                user_id: i64,
                portfolio_id: i64,
            ) -> Result<Option<Box<dyn $crate::portfolio::LedgerWrite>>, $crate::StorageError> {
                let _db = $crate::probe::op("lock_ledger");
                use $crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
                let mut tx = self.pool.begin_with($begin).await?;
                // A write as the first statement: it takes the portfolio's row lock in
                // PostgreSQL (SQLite's write lock is already held since BEGIN IMMEDIATE)
                // and checks ownership.
                let row: Option<PortfolioDbRow> = sqlx::query_as(&format!(
                    "UPDATE portfolios SET revision = revision WHERE id = $1 AND user_id = $2
                     RETURNING {PORTFOLIO_COLUMNS}"
                ))
                .bind(portfolio_id)
                .bind(user_id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                Ok(Some(Box::new($ledger {
                    tx,
                    portfolio: row.into_row()?,
                })))
            }

            async fn import_fingerprints(
                &self,
                user_id: i64,
                portfolio_id: i64,
            ) -> Result<Vec<String>, $crate::StorageError> {
                let _db = $crate::probe::op("import_fingerprints");
                let mut conn = self.pool.acquire().await?;
                let owned: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM portfolios WHERE id = $1 AND user_id = $2")
                        .bind(portfolio_id)
                        .bind(user_id)
                        .fetch_optional(&mut *conn)
                        .await?;
                if owned.is_none() {
                    return Err($crate::StorageError::NotFound);
                }
                Ok(sqlx::query_scalar(
                    "SELECT DISTINCT import_fingerprint FROM transactions
                     WHERE portfolio_id = $1 AND import_fingerprint IS NOT NULL
                     ORDER BY import_fingerprint",
                )
                .bind(portfolio_id)
                .fetch_all(&mut *conn)
                .await?)
            }
        }
    };
}
pub(crate) use impl_portfolio_storage;
