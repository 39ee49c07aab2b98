//! Changes to a portfolio's transactions, each validated and written in one atomic
//! step: the portfolio's ledger is locked ([`moat_storage::PortfolioStorage::lock_ledger`]:
//! a row lock in PostgreSQL, an immediate transaction in SQLite), the change is checked
//! against the ledger as it stands under the lock, and only then written and committed.
//! Two parallel sells of the last ten shares therefore cannot both pass the check, on
//! one instance or several.
//!
//! A change is refused only for problems it brings: a ledger that was already invalid
//! (old data) accepts changes that leave its existing problems as they were, so the
//! member can still record trades and fix the transaction that breaks it.

use std::{collections::HashSet, sync::Arc};

use axum::http::StatusCode;
use moat_portfolio::{csv_file, validate, Issue, IssueCode, PortfolioSettings, Transaction};
use moat_storage::{LedgerWrite, NewTransaction, PortfolioRow, TransactionRow};

use super::{
    cache::LedgerState,
    dto::TransactionDto,
    service::{invalid_transaction, new_to_domain, not_found, settings_of},
};
use crate::{
    http::{error::ApiError, idempotency::Idempotency},
    portfolio::PortfolioState,
};

/// The id a transaction being added has while it is checked (storage assigns the real
/// one, which is larger than every existing id).
const PROVISIONAL_ID: i64 = i64::MAX;

/// Refuses `next` (the ledger after a change) when it has a problem that `current` did
/// not have. Runs off the async workers: a heavy ledger takes milliseconds to replay.
async fn check_change(
    settings: PortfolioSettings,
    current: Arc<LedgerState>,
    next: Arc<Vec<Transaction>>,
) -> Result<(), ApiError> {
    let new_problems = tokio::task::spawn_blocking(move || {
        let after = validate(&settings, &next).errors;
        if current.issue.is_none() {
            return after;
        }
        let before: HashSet<(i64, IssueCode)> = validate(&settings, &current.transactions)
            .errors
            .into_iter()
            .map(|i| (i.transaction_id, i.code))
            .collect();
        after
            .into_iter()
            .filter(|i| !before.contains(&(i.transaction_id, i.code)))
            .collect::<Vec<Issue>>()
    })
    .await
    .map_err(ApiError::internal)?;
    if new_problems.is_empty() {
        Ok(())
    } else {
        Err(invalid_transaction(&new_problems))
    }
}

/// Locks the member's portfolio `id` for a change, or 404.
async fn lock(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
) -> Result<Box<dyn LedgerWrite>, ApiError> {
    state
        .storage
        .lock_ledger(user_id, id)
        .await?
        .ok_or_else(not_found)
}

/// Commits and keeps the committed ledger (`next`, with its provisional id made
/// real) in the cache under the new revision.
async fn commit(
    state: &PortfolioState,
    ledger: Box<dyn LedgerWrite>,
    next: Option<Vec<Transaction>>,
) -> Result<PortfolioRow, ApiError> {
    let row = ledger.commit().await?;
    if let Some(mut next) = next {
        next.sort_by_key(Transaction::sort_key);
        state.ledgers.keep(&row, next);
    }
    Ok(row)
}

/// What an added transaction answers: 201 and the transaction, first or replayed.
pub struct Added {
    pub status: StatusCode,
    pub body: serde_json::Value,
    pub replayed: bool,
}

/// Records `new` in the member's portfolio `id` after checking it against the
/// portfolio's ledger, at most once per idempotency key.
pub async fn add_transaction(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
    new: &NewTransaction,
    idempotency: Option<&Idempotency>,
) -> Result<Added, ApiError> {
    let mut ledger = lock(state, user_id, id).await?;
    if let Some(idem) = idempotency {
        if let Some(stored) = ledger
            .idempotent_response(&idem.key, idem.oldest_kept())
            .await?
        {
            let (status, body) = idem.replay(stored)?;
            return Ok(Added {
                status,
                body,
                replayed: true,
            });
        }
    }
    let current = state.ledgers.locked(&mut *ledger).await?;
    let mut next = current.transactions.clone();
    next.push(new_to_domain(PROVISIONAL_ID, new));
    let next = Arc::new(next);
    check_change(settings_of(ledger.portfolio()), current, next.clone()).await?;
    let row = ledger.add(new).await?;
    let body = serde_json::to_value(TransactionDto::from(&row)).map_err(ApiError::internal)?;
    if let Some(idem) = idempotency {
        let answer = idem.answer(StatusCode::CREATED, &body);
        match ledger
            .remember_response(&idem.key, &answer, idem.oldest_kept())
            .await
        {
            // Another request stored an answer under this key meanwhile (through
            // another portfolio: this one is locked): it cannot be this request.
            Err(moat_storage::StorageError::Conflict(_)) => {
                return Err(crate::http::idempotency::reused())
            }
            other => other?,
        }
    }
    let mut next = Arc::unwrap_or_clone(next);
    if let Some(last) = next.last_mut() {
        last.id = row.id;
    }
    commit(state, ledger, Some(next)).await?;
    Ok(Added {
        status: StatusCode::CREATED,
        body,
        replayed: false,
    })
}

/// Replaces transaction `tx_id` of the member's portfolio `id` with `new`, if the
/// ledger stays valid.
pub async fn update_transaction(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
    tx_id: i64,
    new: &NewTransaction,
) -> Result<TransactionRow, ApiError> {
    let mut ledger = lock(state, user_id, id).await?;
    let current = state.ledgers.locked(&mut *ledger).await?;
    let mut next = current.transactions.clone();
    let Some(slot) = next.iter_mut().find(|t| t.id == tx_id) else {
        return Err(no_such_transaction());
    };
    *slot = new_to_domain(tx_id, new);
    let next = Arc::new(next);
    check_change(settings_of(ledger.portfolio()), current, next.clone()).await?;
    let row = ledger
        .update(tx_id, new)
        .await?
        .ok_or_else(no_such_transaction)?;
    commit(state, ledger, Some(Arc::unwrap_or_clone(next))).await?;
    Ok(row)
}

/// Deletes transaction `tx_id` of the member's portfolio `id`, unless that would leave
/// a later sell without its shares.
pub async fn delete_transaction(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
    tx_id: i64,
) -> Result<(), ApiError> {
    let mut ledger = lock(state, user_id, id).await?;
    let current = state.ledgers.locked(&mut *ledger).await?;
    let mut next = current.transactions.clone();
    let before = next.len();
    next.retain(|t| t.id != tx_id);
    if next.len() == before {
        return Err(no_such_transaction());
    }
    let next = Arc::new(next);
    check_change(settings_of(ledger.portfolio()), current, next.clone()).await?;
    if !ledger.delete(tx_id).await? {
        return Err(no_such_transaction());
    }
    commit(state, ledger, Some(Arc::unwrap_or_clone(next))).await?;
    Ok(())
}

/// What an import did.
pub struct Imported {
    pub imported: u64,
    pub skipped_duplicates: usize,
}

/// Imports the rows of a checked preview into the member's portfolio `id`. The rows
/// already there (by fingerprint) and the whole ledger are checked again under the
/// lock: a transaction recorded since the preview, or the same file imported twice at
/// once, is seen.
pub async fn import(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
    rows: Vec<csv_file::PreviewRow>,
) -> Result<Result<Imported, Vec<csv_file::RowError>>, ApiError> {
    let mut ledger = lock(state, user_id, id).await?;
    let current = state.ledgers.locked(&mut *ledger).await?;
    let settings = settings_of(ledger.portfolio());
    let existing = current.clone();
    let checked = tokio::task::spawn_blocking(move || {
        csv_file::recheck(rows, &settings, &existing.transactions)
    })
    .await
    .map_err(ApiError::internal)?;
    let rows = match checked {
        Ok(rows) => rows,
        Err(errors) => return Ok(Err(errors)),
    };
    let skipped = rows.iter().filter(|r| r.duplicate).count();
    let new: Vec<NewTransaction> = rows
        .iter()
        .filter(|r| !r.duplicate)
        .map(|r| to_new(&r.transaction))
        .collect();
    let imported = ledger.insert_many(&new).await?;
    // The new rows' ids are the database's: the next read loads them.
    commit(state, ledger, None).await?;
    Ok(Ok(Imported {
        imported,
        skipped_duplicates: skipped,
    }))
}

/// A parsed import row as storage records it, with its fingerprint.
fn to_new(t: &Transaction) -> NewTransaction {
    NewTransaction {
        kind: t.kind.as_str().to_owned(),
        trade_date: t.trade_date,
        instrument_id: t.instrument.clone(),
        quantity: t.quantity,
        price: t.price,
        fee: t.fee,
        tax: t.tax,
        currency: t.currency.clone(),
        fx_rate: t.fx_rate,
        split_numerator: t.split.map(|s| s.numerator),
        split_denominator: t.split.map(|s| s.denominator),
        note: t.note.clone(),
        import_fingerprint: Some(csv_file::fingerprint(t)),
    }
}

fn no_such_transaction() -> ApiError {
    ApiError::not_found("There is no such transaction.")
}
