//! Portfolios: settings, the list with totals, and the requests that change them.

use moat_storage::PortfolioRow;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::TotalsDto;
use crate::{
    http::error::ErrorCode,
    market::dto::rfc3339,
    portfolio::{cache::LedgerState, service::api_field},
};

/// A transaction that cannot be applied (a sell of more than was held, left by old
/// data): the portfolio's figures stop before it, and the member is told which one to
/// fix.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct LedgerIssueDto {
    pub portfolio_id: i64,
    pub transaction_id: i64,
    pub trade_date: String,
    /// The transaction's kind (`sell`, …).
    pub kind: String,
    pub instrument_id: Option<String>,
    /// The field at fault (`quantity`, …), as the transaction API names it.
    pub field: String,
    /// Why it cannot apply (`insufficient_quantity`, …).
    pub code: ErrorCode,
    /// The values the message names (`instrument`, `held`, `date` …).
    pub params: std::collections::BTreeMap<String, String>,
    /// English; the UI words it from `code`.
    pub message: String,
}

impl LedgerIssueDto {
    /// The issue that stopped `ledger` of portfolio `portfolio_id`, if any.
    pub fn of(portfolio_id: i64, ledger: &LedgerState) -> Option<Self> {
        let issue = ledger.issue.as_ref()?;
        let tx = ledger.stopped_at()?;
        Some(Self {
            portfolio_id,
            transaction_id: tx.id,
            trade_date: tx.trade_date.to_string(),
            kind: tx.kind.as_str().to_owned(),
            instrument_id: tx.instrument.as_ref().map(ToString::to_string),
            field: api_field(issue.field).to_owned(),
            code: issue.code.into(),
            params: issue.params.clone(),
            message: issue.message.clone(),
        })
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct OrderableCashDto {
    /// Decimal string.
    pub amount: String,
    pub currency: String,
    pub updated_at: Option<String>,
}

/// A portfolio's settings.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct PortfolioDto {
    pub id: i64,
    pub name: String,
    /// `KRW` or `USD`.
    pub base_currency: String,
    /// `moving_average` or `fifo`.
    pub cost_method: String,
    pub broker: Option<String>,
    pub position: i64,
    pub orderable_cash: Option<OrderableCashDto>,
    pub created_at: String,
}

impl From<&PortfolioRow> for PortfolioDto {
    fn from(p: &PortfolioRow) -> Self {
        Self {
            id: p.id,
            name: p.name.clone(),
            base_currency: p.base_currency.clone(),
            cost_method: p.cost_method.clone(),
            broker: p.broker.clone(),
            position: p.position,
            orderable_cash: p.orderable_cash.as_ref().map(|c| OrderableCashDto {
                amount: c.amount.to_string(),
                currency: c.currency.clone(),
                updated_at: Some(rfc3339(c.updated_at)),
            }),
            created_at: rfc3339(p.created_at),
        }
    }
}

#[derive(Deserialize, IntoParams)]
pub struct CurrencyParams {
    /// `original` (each portfolio in its base currency), `KRW` or `USD`.
    pub currency: Option<String>,
}

/// One portfolio with its totals.
#[derive(Serialize, ToSchema)]
pub struct PortfolioWithTotals {
    pub portfolio: PortfolioDto,
    /// Amounts rounded to the currency's minor unit.
    pub totals: TotalsDto,
    /// The transaction the totals stop before, when one cannot be applied.
    pub ledger_issue: Option<LedgerIssueDto>,
}

#[derive(Serialize, ToSchema)]
pub struct PortfolioList {
    pub portfolios: Vec<PortfolioWithTotals>,
    /// Every portfolio combined (KRW unless `currency=USD`); zeros without portfolios.
    pub meta: TotalsDto,
}

#[derive(Deserialize, ToSchema)]
pub struct NewPortfolioRequest {
    pub name: String,
    /// `KRW` or `USD`.
    pub base_currency: String,
    /// `moving_average` (default) or `fifo`.
    pub cost_method: Option<String>,
    pub broker: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct PortfolioPatch {
    pub name: Option<String>,
    pub cost_method: Option<String>,
    /// Empty or null clears it.
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<String>)]
    pub broker: Option<Option<String>>,
    /// `{amount, currency}` sets the orderable cash; null clears it.
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<OrderableCashDto>)]
    pub orderable_cash: Option<Option<OrderableCashDto>>,
}

/// `Some(None)` for an explicit null, `None` for an absent field.
mod double_option {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }
}

#[derive(Deserialize, ToSchema)]
pub struct PortfolioOrder {
    /// Every one of the member's portfolio ids, once, in the new order.
    pub ids: Vec<i64>,
}
