//! Dividends: an instrument's, the calendar's and the member's own.

use moat_market::{Dividend, InstrumentId};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::LedgerIssueDto;

#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct DividendDto {
    pub instrument_id: String,
    pub ex_date: String,
    pub record_date: Option<String>,
    pub pay_date: Option<String>,
    /// Per share, decimal string.
    pub amount: String,
    pub currency: String,
}

impl DividendDto {
    pub fn new(id: &InstrumentId, d: &Dividend) -> Self {
        Self {
            instrument_id: id.to_string(),
            ex_date: d.ex_date.to_string(),
            record_date: d.record_date.map(|d| d.to_string()),
            pay_date: d.pay_date.map(|d| d.to_string()),
            amount: d.amount.normalize().to_string(),
            currency: d.currency.clone(),
        }
    }
}

#[derive(Deserialize, IntoParams)]
pub struct RangeParams {
    /// `YYYY-MM-DD`; default a year ago (calendar: today).
    pub from: Option<String>,
    /// `YYYY-MM-DD`; default a year ahead (calendar: 31 days after `from`).
    pub to: Option<String>,
}

#[derive(Deserialize, IntoParams)]
pub struct CalendarParams {
    pub from: Option<String>,
    pub to: Option<String>,
    /// `KR`, `US` or `all` (default).
    pub country: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CalendarDividend {
    #[serde(flatten)]
    pub dividend: DividendDto,
    pub name_ko: String,
    pub name_en: String,
    pub ticker: String,
}

#[derive(Deserialize, IntoParams)]
pub struct MyDividendParams {
    /// `KRW` (default) or `USD`: the currency of the projection and yields.
    pub currency: Option<String>,
}

/// A dividend the member recorded. Amounts are decimal strings in `currency`; names
/// are empty when the catalogue does not know the instrument.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct ReceivedDividendDto {
    pub portfolio_id: i64,
    pub transaction_id: i64,
    pub instrument_id: String,
    pub name_ko: String,
    pub name_en: String,
    pub ticker: String,
    pub date: String,
    pub quantity: String,
    pub per_share: String,
    pub currency: String,
    pub gross: String,
    /// Withheld.
    pub tax: String,
    pub net: String,
}

/// A dividend owed by a holding on a past ex-date and not yet recorded (offered for
/// one-tap recording), after withholding by country.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct EntitlementDto {
    pub portfolio_id: i64,
    pub portfolio_name: String,
    pub instrument_id: String,
    pub name_ko: String,
    pub name_en: String,
    pub ticker: String,
    pub ex_date: String,
    pub pay_date: Option<String>,
    pub quantity: String,
    pub per_share: String,
    pub currency: String,
    pub gross: String,
    /// Withheld.
    pub tax: String,
    pub net: String,
    /// The rate to the portfolio's base currency on the pay date, when it differs.
    pub fx_rate: Option<String>,
}

/// Projected dividends of one month (`YYYY-MM`), decimal strings.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct ProjectionMonthDto {
    pub month: String,
    pub gross: String,
    pub net: String,
}

/// The member's dividends: received, entitled (not yet recorded), the 12-month
/// projection by month, trailing yield and yield on cost — after withholding.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct MyDividendsDto {
    /// `KRW` or `USD`: the currency of the projection and yields.
    pub currency: String,
    pub received: Vec<ReceivedDividendDto>,
    pub entitlements: Vec<EntitlementDto>,
    pub projection: Vec<ProjectionMonthDto>,
    /// A year of dividends at today's holdings over their value, in per cent; null
    /// without holdings.
    pub trailing_yield: Option<String>,
    /// The same over their cost.
    pub yield_on_cost: Option<String>,
    pub ledger_issues: Vec<LedgerIssueDto>,
}

#[derive(Deserialize, IntoParams)]
pub struct DividendDraftParams {
    /// The instrument, `KRX:005930`.
    pub instrument: String,
    /// `YYYY-MM-DD`, the dividend's date in the form (its pay date); default today.
    pub date: Option<String>,
}

/// What the transaction form fills in for a dividend of `instrument_id` recorded on a
/// date: the dividend paid then (the last ex-date on or before it, within
/// `DIVIDEND_DRAFT_LOOKBACK_DAYS`), the shares held on its ex-date (at the end of the day
/// before) and the withholding at the configured rate of the instrument's country.
/// Amounts are decimal strings in `currency`; the dividend's fields are absent when the
/// market knows none.
#[derive(Serialize, ToSchema, Debug, Clone)]
pub struct DividendDraftDto {
    pub instrument_id: String,
    /// `KR`, `US`, or empty when no rate applies.
    pub country: String,
    /// The withholding rate, a fraction (`0.154`).
    pub withholding_rate: String,
    pub currency: String,
    pub ex_date: Option<String>,
    pub pay_date: Option<String>,
    pub per_share: Option<String>,
    /// Shares held on the ex-date (on `date` when no dividend is known); `0` when none.
    pub quantity: String,
    /// The withholding on `quantity × per_share`, rounded to the currency's minor unit.
    pub tax: Option<String>,
}
