//! What a portfolio is worth and how it did: valuation, performance, allocation.
//! Figures that come straight from `moat_portfolio` keep their [`Decimal`] here, so
//! they are written exactly as the domain type would write them (decimal strings).

use moat_portfolio::{
    performance::{ExplanationCode, Period},
    valuation::{CashValue, HoldingValue, Totals},
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::LedgerIssueDto;

/// A portfolio's totals in `currency`, rounded to its minor unit (decimal strings).
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct TotalsDto {
    pub currency: String,
    /// Holdings only.
    #[schema(value_type = String)]
    pub market_value: Decimal,
    #[schema(value_type = String)]
    pub cash: Decimal,
    /// Holdings plus cash.
    #[schema(value_type = String)]
    pub total_value: Decimal,
    #[schema(value_type = String)]
    pub cost_basis: Decimal,
    #[schema(value_type = String)]
    pub unrealised_gain: Decimal,
    /// Of every holding, closed ones included.
    #[schema(value_type = String)]
    pub realised_gain: Decimal,
    #[schema(value_type = String)]
    pub dividends_net: Decimal,
    #[schema(value_type = String)]
    pub day_change: Decimal,
    /// Unrealised gain in per cent of cost.
    #[schema(value_type = String)]
    pub return_percent: Decimal,
    #[schema(value_type = String)]
    pub day_change_percent: Decimal,
}

impl From<Totals> for TotalsDto {
    fn from(t: Totals) -> Self {
        Self {
            currency: t.currency,
            market_value: t.market_value,
            cash: t.cash,
            total_value: t.total_value,
            cost_basis: t.cost_basis,
            unrealised_gain: t.unrealised_gain,
            realised_gain: t.realised_gain,
            dividends_net: t.dividends_net,
            day_change: t.day_change,
            return_percent: t.return_percent,
            day_change_percent: t.day_change_percent,
        }
    }
}

/// The catalogue's names of a holding's instrument.
#[derive(Debug, Clone)]
pub struct InstrumentNames {
    pub name_ko: String,
    pub name_en: String,
    pub ticker: String,
    pub kind: String,
    pub sector: String,
}

/// One open holding, in `currency` (decimal strings).
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct HoldingDto {
    pub instrument: String,
    /// The display currency (the trade currency in `original` mode).
    pub currency: String,
    /// The currency the instrument trades in.
    pub trade_currency: String,
    #[schema(value_type = String)]
    pub quantity: Decimal,
    #[schema(value_type = String)]
    pub average_cost: Decimal,
    #[schema(value_type = String)]
    pub cost_basis: Decimal,
    #[schema(value_type = String)]
    pub price: Decimal,
    #[schema(value_type = String)]
    pub previous_close: Decimal,
    /// No latest price was given; `price` is a fallback.
    pub price_missing: bool,
    #[schema(value_type = String)]
    pub market_value: Decimal,
    #[schema(value_type = String)]
    pub unrealised_gain: Decimal,
    /// Unrealised gain in per cent of cost (zero when cost is zero).
    #[schema(value_type = String)]
    pub return_percent: Decimal,
    #[schema(value_type = String)]
    pub day_change: Decimal,
    #[schema(value_type = String)]
    pub day_change_percent: Decimal,
    #[schema(value_type = String)]
    pub realised_gain: Decimal,
    #[schema(value_type = String)]
    pub dividends_net: Decimal,
    /// `market_value` in the totals currency.
    #[schema(value_type = String)]
    pub market_value_total: Decimal,
    /// Share of the portfolio's total value (cash included), in per cent.
    #[schema(value_type = String)]
    pub weight_percent: Decimal,
    /// The instrument's names (this and the next four are absent when the catalogue
    /// does not know it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_ko: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_en: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticker: Option<String>,
    /// `stock`, `etf`, `index`, `currency` or `crypto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sector: Option<String>,
}

impl HoldingDto {
    pub fn new(h: HoldingValue, names: Option<InstrumentNames>) -> Self {
        Self {
            instrument: h.instrument.to_string(),
            currency: h.currency,
            trade_currency: h.trade_currency,
            quantity: h.quantity,
            average_cost: h.average_cost,
            cost_basis: h.cost_basis,
            price: h.price,
            previous_close: h.previous_close,
            price_missing: h.price_missing,
            market_value: h.market_value,
            unrealised_gain: h.unrealised_gain,
            return_percent: h.return_percent,
            day_change: h.day_change,
            day_change_percent: h.day_change_percent,
            realised_gain: h.realised_gain,
            dividends_net: h.dividends_net,
            market_value_total: h.market_value_total,
            weight_percent: h.weight_percent,
            name_ko: names.as_ref().map(|n| n.name_ko.clone()),
            name_en: names.as_ref().map(|n| n.name_en.clone()),
            ticker: names.as_ref().map(|n| n.ticker.clone()),
            kind: names.as_ref().map(|n| n.kind.clone()),
            sector: names.map(|n| n.sector),
        }
    }
}

/// Cash in one currency.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct CashDto {
    pub currency: String,
    #[schema(value_type = String)]
    pub amount: Decimal,
    /// `amount` in the totals currency, at the latest rate.
    #[schema(value_type = String)]
    pub amount_total: Decimal,
    #[schema(value_type = String)]
    pub weight_percent: Decimal,
}

impl From<CashValue> for CashDto {
    fn from(c: CashValue) -> Self {
        Self {
            currency: c.currency,
            amount: c.amount,
            amount_total: c.amount_total,
            weight_percent: c.weight_percent,
        }
    }
}

/// A portfolio (or the meta portfolio) valued now, rounded.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct ValuationDto {
    /// `original`, `krw` or `usd`.
    pub mode: String,
    /// Open holdings, in instrument order.
    pub holdings: Vec<HoldingDto>,
    pub cash: Vec<CashDto>,
    pub totals: TotalsDto,
    /// When it was valued (RFC 3339).
    pub as_of: String,
    /// The transactions the figures stop before.
    pub ledger_issues: Vec<LedgerIssueDto>,
}

#[derive(Deserialize, IntoParams)]
pub struct PerformanceParams {
    /// `original`, `KRW` or `USD`.
    pub currency: Option<String>,
    /// `INDEX:KOSPI` (default for KRW) or `INDEX:SPX`.
    pub benchmark: Option<String>,
}

/// A day of the chart; returns in per cent since the base day (decimal strings).
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct ChartPointDto {
    pub date: String,
    pub value: String,
    pub flow: String,
    /// Time-weighted, in per cent.
    pub cumulative_return: String,
    /// The benchmark's change in per cent; null without its close.
    pub benchmark_return: Option<String>,
}

/// Why the returns differ, with the numbers the sentence needs (per cent, money).
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct ExplanationDto {
    /// `no_flows`, `similar`, `added_before_rise`, `added_before_fall`,
    /// `withdrew_before_rise`, `withdrew_before_fall`, `mwr_above`, `mwr_below` or
    /// `mwr_unavailable`.
    #[schema(value_type = String)]
    pub code: ExplanationCode,
    pub difference: Option<String>,
    pub flow_date: Option<String>,
    pub flow_amount: Option<String>,
    pub flow_share: Option<String>,
    pub return_after_flow: Option<String>,
}

/// Returns over one period, in per cent: the money-weighted return over the period
/// itself (like the time-weighted one, not annualised) beside the annual XIRR.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct PeriodReturnDto {
    /// `1M`, `3M`, `YTD`, `1Y` or `ALL`.
    #[schema(value_type = String)]
    pub period: Period,
    pub start: String,
    pub end: String,
    pub twr: String,
    pub mwr: Option<String>,
    pub mwr_annual: Option<String>,
    pub simple: String,
    pub gain: String,
    pub start_value: String,
    pub end_value: String,
    pub net_flows: String,
    pub explanation: ExplanationDto,
}

/// Daily values with the cumulative return beside a benchmark's, and the returns
/// of each period.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct PerformanceDto {
    pub currency: String,
    /// The benchmark's instrument id.
    pub benchmark: String,
    pub points: Vec<ChartPointDto>,
    pub periods: Vec<PeriodReturnDto>,
    pub ledger_issues: Vec<LedgerIssueDto>,
}

#[derive(Deserialize, IntoParams)]
pub struct AllocationParams {
    /// `holding`, `sector`, `country`, `currency` or `asset_class`.
    pub by: Option<String>,
    pub currency: Option<String>,
}

/// One slice of the allocation.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct AllocationSliceDto {
    /// The holding's instrument id, sector, country, currency or asset class.
    pub key: String,
    /// Decimal string, in the totals currency.
    pub value: String,
    /// Share of the total value in per cent (decimal string).
    pub weight_percent: String,
}
