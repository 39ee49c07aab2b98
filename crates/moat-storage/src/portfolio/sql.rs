//! The SQL of [`PortfolioStorage`] and its [`LedgerWrite`], one implementation for
//! both backends.
//!
//! Writes that must see a consistent set of rows start with a write that takes the
//! lock they need: the member's row for the set of portfolios (creating, reordering),
//! the portfolio's row for its transactions (which also checks ownership and bumps the
//! portfolio's `updated_at`). SQLite then holds the write lock from the first
//! statement ([`Sql::BEGIN_WRITE`]), and PostgreSQL serialises writers on that row.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

use crate::portfolio::{LedgerWrite, PortfolioStorage};
use crate::sql::{RowsAffected, Sql, SqlStorage};

/// A locked ledger of one database ([`crate::portfolio::LedgerWrite`]).
pub(crate) struct SqlLedgerWrite<DB: Sql> {
    tx: sqlx::Transaction<'static, DB>,
    portfolio: crate::portfolio::PortfolioRow,
}

#[async_trait::async_trait]
impl<DB: Sql> LedgerWrite for SqlLedgerWrite<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    Option<i64>: for<'q> Encode<'q, DB>,
    Option<String>: for<'q> Encode<'q, DB>,
    Option<NaiveDate>: for<'q> Encode<'q, DB>,
    Option<DateTime<Utc>>: for<'q> Encode<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i32: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    bool: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    NaiveDate: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    DateTime<Utc>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    fn portfolio(&self) -> &crate::portfolio::PortfolioRow {
        &self.portfolio
    }

    async fn transactions(
        &mut self,
    ) -> Result<Vec<crate::portfolio::TransactionRow>, crate::StorageError> {
        let _db = crate::probe::op("ledger_transactions");
        use crate::portfolio::{TransactionDbRow, TRANSACTION_COLUMNS};
        let rows: Vec<TransactionDbRow> = sqlx::query_as(&format!(
            "SELECT {TRANSACTION_COLUMNS} FROM transactions
             WHERE portfolio_id = $1 ORDER BY trade_date, id"
        ))
        .bind(self.portfolio.id)
        .fetch_all(&mut *self.tx)
        .await?;
        rows.into_iter().map(TransactionDbRow::into_row).collect()
    }

    async fn import_fingerprints(&mut self) -> Result<Vec<String>, crate::StorageError> {
        let _db = crate::probe::op("ledger_import_fingerprints");
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
        new: &crate::portfolio::NewTransaction,
    ) -> Result<crate::portfolio::TransactionRow, crate::StorageError> {
        let _db = crate::probe::op("ledger_add");
        use crate::portfolio::{
            invalid_or, push_transaction, TransactionDbRow, MAX_TRANSACTIONS_PER_PORTFOLIO,
            TRANSACTION_COLUMNS, TRANSACTION_INSERT,
        };
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE portfolio_id = $1")
                .bind(self.portfolio.id)
                .fetch_one(&mut *self.tx)
                .await?;
        if count >= MAX_TRANSACTIONS_PER_PORTFOLIO as i64 {
            return Err(crate::StorageError::LimitReached("transactions"));
        }
        let now = chrono::Utc::now();
        let mut q = sqlx::QueryBuilder::<DB>::new(TRANSACTION_INSERT);
        q.push_values(std::iter::once(new), |mut b, new| {
            push_transaction(&mut b, self.portfolio.id, new, now);
        });
        q.push(format!(" RETURNING {TRANSACTION_COLUMNS}"));
        let row: TransactionDbRow = DB::fetch_one_built(&mut q, &mut *self.tx)
            .await
            .map_err(invalid_or)?;
        row.into_row()
    }

    async fn insert_many(
        &mut self,
        txs: &[crate::portfolio::NewTransaction],
    ) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("ledger_insert_many");
        use crate::portfolio::{
            invalid_or, push_transaction, MAX_TRANSACTIONS_PER_PORTFOLIO, TRANSACTION_INSERT,
        };
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM transactions WHERE portfolio_id = $1")
                .bind(self.portfolio.id)
                .fetch_one(&mut *self.tx)
                .await?;
        if count as u64 + txs.len() as u64 > MAX_TRANSACTIONS_PER_PORTFOLIO as u64 {
            return Err(crate::StorageError::LimitReached("transactions"));
        }
        let now = chrono::Utc::now();
        for chunk in txs.chunks(crate::market::INSERT_CHUNK_ROWS) {
            let mut q = sqlx::QueryBuilder::<DB>::new(TRANSACTION_INSERT);
            q.push_values(chunk, |mut b, new| {
                push_transaction(&mut b, self.portfolio.id, new, now);
            });
            DB::execute_built(&mut q, &mut *self.tx)
                .await
                .map_err(invalid_or)?;
        }
        Ok(txs.len() as u64)
    }

    async fn update(
        &mut self,
        tx_id: i64,
        new: &crate::portfolio::NewTransaction,
    ) -> Result<Option<crate::portfolio::TransactionRow>, crate::StorageError> {
        let _db = crate::probe::op("ledger_update");
        use crate::portfolio::{invalid_or, TransactionDbRow, TRANSACTION_COLUMNS};
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

    async fn delete(&mut self, tx_id: i64) -> Result<bool, crate::StorageError> {
        let _db = crate::probe::op("ledger_delete");
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
    ) -> Result<Option<crate::portfolio::IdempotentResponse>, crate::StorageError> {
        let _db = crate::probe::op("idempotent_response");
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
            Ok(crate::portfolio::IdempotentResponse {
                request_hash,
                status: u16::try_from(status)
                    .map_err(|_| crate::StorageError::Invalid("stored status is out of range"))?,
                body,
                created_at,
            })
        })
        .transpose()
    }

    async fn remember_response(
        &mut self,
        key: &str,
        response: &crate::portfolio::IdempotentResponse,
        since: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("remember_response");
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
            return Err(crate::StorageError::Conflict("idempotency_key"));
        }
        Ok(())
    }

    async fn commit(
        mut self: Box<Self>,
    ) -> Result<crate::portfolio::PortfolioRow, crate::StorageError> {
        let _db = crate::probe::op("ledger_commit");
        use crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
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
impl<DB: Sql> PortfolioStorage for SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    Option<i64>: for<'q> Encode<'q, DB>,
    Option<String>: for<'q> Encode<'q, DB>,
    Option<NaiveDate>: for<'q> Encode<'q, DB>,
    Option<DateTime<Utc>>: for<'q> Encode<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i32: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    bool: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    NaiveDate: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    DateTime<Utc>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn portfolio_count(&self, user_id: i64) -> Result<i64, crate::StorageError> {
        let _db = crate::probe::op("portfolio_count");
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
        new: &crate::portfolio::NewPortfolio,
    ) -> Result<crate::portfolio::PortfolioRow, crate::StorageError> {
        let _db = crate::probe::op("create_portfolio");
        use crate::portfolio::{invalid_or, PortfolioDbRow, MAX_PORTFOLIOS, PORTFOLIO_COLUMNS};
        let now = chrono::Utc::now();
        let mut tx = self.pool.begin().await?;
        // Locks the member's row: concurrent creations count one after another.
        let member =
            sqlx::query("UPDATE users SET premium = premium WHERE id = $1 AND deleted_at IS NULL")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        if member.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
        }
        let (count, last): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COALESCE(MAX(position), -1) FROM portfolios WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        if count >= MAX_PORTFOLIOS as i64 {
            return Err(crate::StorageError::LimitReached("portfolios"));
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
    ) -> Result<Vec<crate::portfolio::PortfolioRow>, crate::StorageError> {
        let _db = crate::probe::op("list_portfolios");
        use crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
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
    ) -> Result<Option<crate::portfolio::PortfolioRow>, crate::StorageError> {
        let _db = crate::probe::op("portfolio");
        use crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
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
        update: &crate::portfolio::PortfolioUpdate,
    ) -> Result<Option<crate::portfolio::PortfolioRow>, crate::StorageError> {
        let _db = crate::probe::op("update_portfolio");
        use crate::portfolio::{invalid_or, PortfolioDbRow, PORTFOLIO_COLUMNS};
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

    async fn delete_portfolio(&self, user_id: i64, id: i64) -> Result<bool, crate::StorageError> {
        let _db = crate::probe::op("delete_portfolio");
        let done = sqlx::query("DELETE FROM portfolios WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn delete_member_portfolios(&self, user_id: i64) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("delete_member_portfolios");
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM idempotency_keys WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM portfolios WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn reorder_portfolios(
        &self,
        user_id: i64,
        ids: &[i64],
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("reorder_portfolios");
        let mut tx = self.pool.begin().await?;
        let member =
            sqlx::query("UPDATE users SET premium = premium WHERE id = $1 AND deleted_at IS NULL")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        if member.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
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
            return Err(crate::StorageError::Invalid(
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
        cash: Option<&crate::portfolio::OrderableCash>,
    ) -> Result<Option<crate::portfolio::PortfolioRow>, crate::StorageError> {
        let _db = crate::probe::op("set_orderable_cash");
        use crate::portfolio::{invalid_or, PortfolioDbRow, PORTFOLIO_COLUMNS};
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
    ) -> Result<Vec<crate::portfolio::TransactionRow>, crate::StorageError> {
        let _db = crate::probe::op("transactions");
        use crate::portfolio::{TransactionDbRow, TRANSACTION_COLUMNS};
        let mut conn = self.pool.acquire().await?;
        let owned: Option<i64> =
            sqlx::query_scalar("SELECT id FROM portfolios WHERE id = $1 AND user_id = $2")
                .bind(portfolio_id)
                .bind(user_id)
                .fetch_optional(&mut *conn)
                .await?;
        if owned.is_none() {
            return Err(crate::StorageError::NotFound);
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
    ) -> Result<Vec<crate::portfolio::TransactionRow>, crate::StorageError> {
        let _db = crate::probe::op("transactions_of_member");
        use crate::portfolio::{TransactionDbRow, TRANSACTION_COLUMNS};
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
    ) -> Result<Option<Box<dyn crate::portfolio::LedgerWrite>>, crate::StorageError> {
        let _db = crate::probe::op("lock_ledger");
        use crate::portfolio::{PortfolioDbRow, PORTFOLIO_COLUMNS};
        let mut tx = self.pool.begin_with(DB::BEGIN_WRITE).await?;
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
        Ok(Some(Box::new(SqlLedgerWrite::<DB> {
            tx,
            portfolio: row.into_row()?,
        })))
    }

    async fn import_fingerprints(
        &self,
        user_id: i64,
        portfolio_id: i64,
    ) -> Result<Vec<String>, crate::StorageError> {
        let _db = crate::probe::op("import_fingerprints");
        let mut conn = self.pool.acquire().await?;
        let owned: Option<i64> =
            sqlx::query_scalar("SELECT id FROM portfolios WHERE id = $1 AND user_id = $2")
                .bind(portfolio_id)
                .bind(user_id)
                .fetch_optional(&mut *conn)
                .await?;
        if owned.is_none() {
            return Err(crate::StorageError::NotFound);
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
