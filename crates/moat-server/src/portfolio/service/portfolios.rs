//! Portfolios: the list with totals (and the meta portfolio's), and the checks of a new
//! or changed portfolio.

use std::collections::BTreeMap;

use chrono::Utc;
use moat_portfolio::{value_ledger, CostMethod, CurrencyMode};
use moat_storage::{
    NewPortfolio, OrderableCash, PortfolioRow, PortfolioUpdate, MAX_PORTFOLIO_NAME_CHARS,
};
use rust_decimal::Decimal;

use super::{
    domain_error, instruments_of, ledgers_in, meta_mode, meta_valuation, not_found, owned,
    parts_of, snapshot, LazyFx,
};
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    portfolio::dto::{
        LedgerIssueDto, NewPortfolioRequest, PortfolioList, PortfolioPatch, PortfolioWithTotals,
    },
    portfolio::PortfolioState,
};

/// The member's portfolios in their order, each with its totals in `mode`, and the
/// meta portfolio's totals (KRW unless `mode` is USD).
pub async fn list_with_totals(
    state: &PortfolioState,
    user_id: i64,
    mode: CurrencyMode,
) -> Result<PortfolioList, ApiError> {
    let rows = state.storage.list_portfolios(user_id).await?;
    let ledgers = state.ledgers.ledgers_of(state, user_id, &rows).await?;
    let parts = parts_of(&rows, ledgers);
    let snap = snapshot(state, &instruments_of(&parts)).await;
    let meta_mode = meta_mode(mode);
    // The ledgers as shown, and in the meta portfolio's one currency when that differs
    // (both kept between reads).
    let mut fx = LazyFx::for_parts(&parts);
    let shown_ledgers = ledgers_in(state, &parts, mode, &mut fx).await?;
    let meta_ledgers = if mode == meta_mode {
        None
    } else {
        Some(ledgers_in(state, &parts, meta_mode, &mut fx).await?)
    };
    let mut portfolios = Vec::new();
    let mut values = Vec::new();
    for (i, (row, part)) in rows.iter().zip(&parts).enumerate() {
        let shown = value_ledger(&shown_ledgers[i], mode, &snap).map_err(domain_error)?;
        let in_meta = match &meta_ledgers {
            None => shown.clone(),
            Some(l) => value_ledger(&l[i], meta_mode, &snap).map_err(domain_error)?,
        };
        values.push(in_meta);
        portfolios.push(PortfolioWithTotals {
            portfolio: row.into(),
            totals: shown.rounded().totals.into(),
            ledger_issue: LedgerIssueDto::of(row.id, &part.ledger),
        });
    }
    let combined = meta_valuation(&values, meta_mode, &snap)?;
    Ok(PortfolioList {
        portfolios,
        meta: combined.rounded().totals.into(),
    })
}

fn check_name(errors: &mut BTreeMap<String, FieldError>, name: &str) -> String {
    let name = name.trim().to_owned();
    let n = name.chars().count();
    if n == 0 || n > MAX_PORTFOLIO_NAME_CHARS {
        errors.insert(
            "name".into(),
            FieldError::new(
                ErrorCode::TooLong,
                format!("1 to {MAX_PORTFOLIO_NAME_CHARS} characters."),
            )
            .param("max", MAX_PORTFOLIO_NAME_CHARS),
        );
    }
    name
}

fn check_cost_method(
    errors: &mut BTreeMap<String, FieldError>,
    raw: Option<&str>,
) -> Option<String> {
    raw.map(|m| match CostMethod::parse(m) {
        Some(m) => m.as_str().to_owned(),
        None => {
            errors.insert(
                "cost_method".into(),
                FieldError::new(ErrorCode::Invalid, "moving_average or fifo."),
            );
            String::new()
        }
    })
}

fn check_broker(errors: &mut BTreeMap<String, FieldError>, raw: Option<&str>) -> Option<String> {
    let broker = raw.map(str::trim).filter(|b| !b.is_empty())?;
    if broker.chars().count() > MAX_PORTFOLIO_NAME_CHARS {
        errors.insert(
            "broker".into(),
            FieldError::new(
                ErrorCode::TooLong,
                format!("At most {MAX_PORTFOLIO_NAME_CHARS} characters."),
            )
            .param("max", MAX_PORTFOLIO_NAME_CHARS),
        );
    }
    Some(broker.to_owned())
}

/// Creates a portfolio after the member's others, or 422 naming each bad field.
pub async fn create(
    state: &PortfolioState,
    user_id: i64,
    body: &NewPortfolioRequest,
) -> Result<PortfolioRow, ApiError> {
    let mut errors = BTreeMap::new();
    let name = check_name(&mut errors, &body.name);
    let base_currency = body.base_currency.trim().to_ascii_uppercase();
    if base_currency != "KRW" && base_currency != "USD" {
        errors.insert(
            "base_currency".into(),
            FieldError::new(ErrorCode::CurrencyUnsupported, "KRW or USD."),
        );
    }
    let cost_method = check_cost_method(&mut errors, body.cost_method.as_deref())
        .unwrap_or_else(|| CostMethod::MovingAverage.as_str().to_owned());
    let broker = check_broker(&mut errors, body.broker.as_deref());
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(errors));
    }
    Ok(state
        .storage
        .create_portfolio(
            user_id,
            &NewPortfolio {
                name,
                base_currency,
                cost_method,
                broker,
            },
        )
        .await?)
}

/// Changes the member's portfolio `id` as `body` asks, or 422 naming each bad field
/// (and changes nothing).
pub async fn patch(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
    body: &PortfolioPatch,
) -> Result<PortfolioRow, ApiError> {
    let mut errors = BTreeMap::new();
    let name = body.name.as_deref().map(|n| check_name(&mut errors, n));
    let cost_method = check_cost_method(&mut errors, body.cost_method.as_deref());
    let broker = body
        .broker
        .as_ref()
        .map(|b| check_broker(&mut errors, b.as_deref()));
    let cash = match &body.orderable_cash {
        None => None,
        Some(None) => Some(None),
        Some(Some(c)) => {
            let amount = c
                .amount
                .trim()
                .parse::<Decimal>()
                .ok()
                .filter(|a| *a >= Decimal::ZERO);
            let currency = c.currency.trim().to_ascii_uppercase();
            if amount.is_none() {
                errors.insert(
                    "orderable_cash".into(),
                    FieldError::new(ErrorCode::InvalidNumber, "A decimal amount of 0 or more."),
                );
            }
            if currency != "KRW" && currency != "USD" {
                errors.insert(
                    "orderable_cash".into(),
                    FieldError::new(
                        ErrorCode::CurrencyUnsupported,
                        "The currency is KRW or USD.",
                    ),
                );
            }
            amount.map(|amount| {
                Some(OrderableCash {
                    amount,
                    currency,
                    updated_at: Utc::now(),
                })
            })
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(errors));
    }
    let mut row = owned(state, user_id, id).await?;
    let update = PortfolioUpdate {
        name,
        base_currency: None,
        cost_method,
        broker,
    };
    if update != PortfolioUpdate::default() {
        row = state
            .storage
            .update_portfolio(user_id, id, &update)
            .await?
            .ok_or_else(not_found)?;
    }
    if let Some(cash) = cash {
        row = state
            .storage
            .set_orderable_cash(user_id, id, cash.as_ref())
            .await?
            .ok_or_else(not_found)?;
    }
    Ok(row)
}

/// Puts the member's portfolios in the order `ids`, or 422 unless it names each of
/// them exactly once.
pub async fn reorder(state: &PortfolioState, user_id: i64, ids: &[i64]) -> Result<(), ApiError> {
    match state.storage.reorder_portfolios(user_id, ids).await {
        Ok(()) => Ok(()),
        Err(moat_storage::StorageError::Invalid(_)) => Err(ApiError::invalid_field(
            "ids",
            FieldError::new(
                ErrorCode::Invalid,
                "Name each of your portfolios exactly once.",
            ),
        )),
        Err(e) => Err(e.into()),
    }
}
