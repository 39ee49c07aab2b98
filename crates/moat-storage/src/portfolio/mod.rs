//! Portfolios: a member's portfolios and the transactions recorded in them
//! (moat-portfolio computes everything else — holdings, cash, returns — from these).
//!
//! Every operation takes the member's `user_id` and touches only portfolios that
//! member owns: another member's portfolio behaves exactly like one that does not
//! exist (`None`, `false` or [`StorageError::NotFound`]). Amounts are exact decimal
//! strings on both backends and parsed back into [`Decimal`]. As in `accounts`, the
//! SQL (`sql.rs`) is portable and one implementation serves both backends.
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

mod sql;

/// Most portfolios a member keeps.
pub const MAX_PORTFOLIOS: usize = 20;
/// Most transactions one portfolio holds.
pub const MAX_TRANSACTIONS_PER_PORTFOLIO: usize = 50_000;
/// Longest portfolio name, in characters (the schema checks it too).
pub const MAX_PORTFOLIO_NAME_CHARS: usize = 60;

/// The cost methods the schema accepts (moat-portfolio's `CostMethod::as_str`).
pub const COST_METHODS: [&str; 2] = ["moving_average", "fifo"];

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

    /// Deletes every portfolio of the member (with their transactions) and the
    /// member's stored idempotent answers: the member's data in this area, when the
    /// account is deleted. Idempotent.
    async fn delete_member_portfolios(&self, user_id: i64) -> Result<(), StorageError>;

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
            (None, None, None) => None,
            _ => return Err(StorageError::Invalid("stored orderable cash is incomplete")),
        };
        if !COST_METHODS.contains(&self.cost_method.as_str()) {
            return Err(StorageError::Invalid("stored cost method is unknown"));
        }
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
        if !TRANSACTION_KINDS.contains(&self.kind.as_str()) {
            return Err(StorageError::Invalid("stored transaction kind is unknown"));
        }
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
