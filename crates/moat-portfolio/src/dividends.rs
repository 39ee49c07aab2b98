//! Dividends for a member: entitlement, withholding tax, a 12-month forward projection,
//! yield and yield on cost.
//!
//! **Entitlement.** Whoever holds the shares at the end of the day before the ex-date is
//! entitled: amount = that quantity × the per-share amount.
//!
//! **Withholding.** By the instrument's country ([`country_of`]), at configurable rates
//! ([`WithholdingRates`], defaulting to 15.4 % in Korea — 14 % income tax plus 1.4 %
//! local tax — and 15 %, the US treaty rate for Korean residents).
//!
//! **Projection.** The last 12 months' schedule repeats: every dividend with an ex-date
//! in the 12 months up to and including `as_of` is expected again a year later, at the
//! same per-share amount, on today's quantity. It falls in the month of its pay date
//! (its ex-date when the pay date is unknown), placed in the 12-month window that starts
//! with `as_of`'s month, so each past payment is projected exactly once. Announced
//! future dividends are not added on top (they would count twice with last year's).

use std::collections::{BTreeMap, HashMap};

use chrono::{Datelike, Months, NaiveDate};
use moat_market::{Dividend, Exchange, InstrumentId};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::PortfolioError;
use crate::ledger::Ledger;
use crate::money::FxRates;

/// Korean dividend withholding: 14 % income tax + 1.4 % local income tax.
pub const KR_DIVIDEND_WITHHOLDING: Decimal = Decimal::from_parts(154, 0, 0, false, 3);
/// US dividend withholding for Korean residents (the tax treaty rate).
pub const US_DIVIDEND_WITHHOLDING: Decimal = Decimal::from_parts(15, 0, 0, false, 2);
/// Months in the projection and in the trailing yield.
pub const PROJECTION_MONTHS: u32 = 12;

/// Withholding rates by country (fractions: 0.154 is 15.4 %).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WithholdingRates {
    /// ISO 3166-1 alpha-2 country → rate.
    pub by_country: BTreeMap<String, Decimal>,
    /// For countries not listed.
    pub other: Decimal,
}

impl Default for WithholdingRates {
    fn default() -> Self {
        Self {
            by_country: BTreeMap::from([
                ("KR".to_owned(), KR_DIVIDEND_WITHHOLDING),
                ("US".to_owned(), US_DIVIDEND_WITHHOLDING),
            ]),
            other: Decimal::ZERO,
        }
    }
}

impl WithholdingRates {
    pub fn rate_for(&self, country: &str) -> Decimal {
        self.by_country.get(country).copied().unwrap_or(self.other)
    }

    /// `gross` after withholding at `country`'s rate.
    pub fn net_of(&self, gross: Decimal, country: &str) -> Decimal {
        gross - gross * self.rate_for(country)
    }
}

/// The country whose tax applies to an instrument's dividends: `KR` for KRX, `US` for
/// NYSE and NASDAQ, empty otherwise.
pub fn country_of(instrument: &InstrumentId) -> &'static str {
    match instrument.exchange() {
        Exchange::Krx => "KR",
        Exchange::Nyse | Exchange::Nasdaq => "US",
        _ => "",
    }
}

/// A dividend the portfolio is entitled to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entitlement {
    pub instrument: InstrumentId,
    pub ex_date: NaiveDate,
    pub pay_date: Option<NaiveDate>,
    /// Held at the end of the day before the ex-date.
    pub quantity: Decimal,
    pub per_share: Decimal,
    pub currency: String,
    pub gross: Decimal,
    pub withholding: Decimal,
    pub net: Decimal,
}

/// Every dividend in `history` (per instrument) that the ledger's holdings are entitled
/// to, in ex-date order.
pub fn entitlements(
    ledger: &Ledger,
    history: &HashMap<InstrumentId, Vec<Dividend>>,
    rates: &WithholdingRates,
) -> Vec<Entitlement> {
    let mut out = Vec::new();
    for h in ledger.holdings.values() {
        for d in history.get(&h.instrument).into_iter().flatten() {
            let Some(day_before) = d.ex_date.pred_opt() else {
                continue;
            };
            let quantity = h.quantity_on(day_before);
            if quantity <= Decimal::ZERO {
                continue;
            }
            let gross = quantity * d.amount;
            let withholding = gross * rates.rate_for(country_of(&h.instrument));
            out.push(Entitlement {
                instrument: h.instrument.clone(),
                ex_date: d.ex_date,
                pay_date: d.pay_date,
                quantity,
                per_share: d.amount,
                currency: d.currency.clone(),
                gross,
                withholding,
                net: gross - withholding,
            });
        }
    }
    out.sort_by(|a, b| {
        a.ex_date
            .cmp(&b.ex_date)
            .then_with(|| a.instrument.cmp(&b.instrument))
    });
    out
}

/// One expected payment in the projection, in the projection's currency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectedDividend {
    pub instrument: InstrumentId,
    /// The last year's ex-date this repeats.
    pub based_on_ex_date: NaiveDate,
    pub quantity: Decimal,
    pub per_share: Decimal,
    pub gross: Decimal,
    pub net: Decimal,
}

/// One month of the projection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectedMonth {
    /// The first day of the month.
    pub month: NaiveDate,
    pub gross: Decimal,
    pub net: Decimal,
    pub items: Vec<ProjectedDividend>,
}

/// The 12-month forward projection (see the module doc), in `currency` at the latest
/// rates `fx`: always [`PROJECTION_MONTHS`] months, starting with `as_of`'s.
pub fn project(
    ledger: &Ledger,
    history: &HashMap<InstrumentId, Vec<Dividend>>,
    rates: &WithholdingRates,
    as_of: NaiveDate,
    currency: &str,
    fx: &FxRates,
) -> Result<Vec<ProjectedMonth>, PortfolioError> {
    let first = as_of.with_day(1).expect("day 1 exists");
    let mut months: Vec<ProjectedMonth> = (0..PROJECTION_MONTHS)
        .map(|i| ProjectedMonth {
            month: first + Months::new(i),
            gross: Decimal::ZERO,
            net: Decimal::ZERO,
            items: Vec::new(),
        })
        .collect();
    let window_start = as_of - Months::new(PROJECTION_MONTHS);
    for h in ledger.open_holdings() {
        let quantity = h.quantity();
        for d in history.get(&h.instrument).into_iter().flatten() {
            if d.ex_date <= window_start || d.ex_date > as_of {
                continue;
            }
            let rate =
                fx.rate(&d.currency, currency)
                    .ok_or_else(|| PortfolioError::FxUnavailable {
                        from: d.currency.clone(),
                        to: currency.to_owned(),
                    })?;
            let paid = d.pay_date.unwrap_or(d.ex_date);
            let index =
                (month_number(paid) - month_number(first)).rem_euclid(PROJECTION_MONTHS as i32);
            let gross = quantity * d.amount * rate;
            let net = rates.net_of(gross, country_of(&h.instrument));
            let m = &mut months[index as usize];
            m.gross += gross;
            m.net += net;
            m.items.push(ProjectedDividend {
                instrument: h.instrument.clone(),
                based_on_ex_date: d.ex_date,
                quantity,
                per_share: d.amount,
                gross,
                net,
            });
        }
    }
    Ok(months)
}

fn month_number(d: NaiveDate) -> i32 {
    d.year() * 12 + d.month0() as i32
}

/// Per-share dividends with an ex-date in the 12 months up to and including `as_of`.
pub fn trailing_per_share(history: &[Dividend], as_of: NaiveDate) -> Decimal {
    let start = as_of - Months::new(PROJECTION_MONTHS);
    history
        .iter()
        .filter(|d| d.ex_date > start && d.ex_date <= as_of)
        .map(|d| d.amount)
        .sum()
}

/// Trailing 12-month dividends per share over `price`, in per cent (zero for a zero
/// price). Gross: before withholding, as yields are quoted.
pub fn dividend_yield(history: &[Dividend], as_of: NaiveDate, price: Decimal) -> Decimal {
    if price <= Decimal::ZERO {
        return Decimal::ZERO;
    }
    trailing_per_share(history, as_of) * Decimal::ONE_HUNDRED / price
}

/// Trailing 12-month dividends per share over the average cost per share, in per cent:
/// what the member's own money earns.
pub fn yield_on_cost(history: &[Dividend], as_of: NaiveDate, average_cost: Decimal) -> Decimal {
    dividend_yield(history, as_of, average_cost)
}
