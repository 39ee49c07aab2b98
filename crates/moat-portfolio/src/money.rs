//! Currencies, FX rates and the money rounding rule.
//!
//! **Rounding rule.** Every engine in this crate keeps full `Decimal` precision
//! internally (an average cost of 1/3 KRW stays 0.3333…; a partial sell takes the exact
//! proportional cost). Money is rounded only when it leaves the domain for display or
//! storage, with [`round_money`]: to the currency's minor unit ([`KRW_MINOR_UNITS`] = 0
//! decimal places, [`USD_MINOR_UNITS`] = 2) and **half away from zero** ("half-up":
//! 0.5 → 1, 2.345 → 2.35, −0.5 → −1). Half-up, not banker's rounding, because it is what
//! brokers' statements and spreadsheets' `ROUND` show, so the member sees the same
//! figures in Moat as on the statement beside it. Rounding each figure separately means
//! rounded parts need not add up to a rounded total to the last unit; totals are
//! computed from unrounded parts and then rounded.

use std::collections::BTreeMap;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// Korean won: no minor unit in practice (the jeon is not used).
pub const KRW: &str = "KRW";
/// US dollar.
pub const USD: &str = "USD";
/// The currencies a portfolio may be kept in and trades may be made in.
pub const SUPPORTED_CURRENCIES: [&str; 2] = [KRW, USD];

/// Decimal places of a won amount.
pub const KRW_MINOR_UNITS: u32 = 0;
/// Decimal places of a dollar amount (cents).
pub const USD_MINOR_UNITS: u32 = 2;
/// Decimal places for any other currency code (none is accepted today; kept so that
/// rounding never panics on an unexpected code).
pub const DEFAULT_MINOR_UNITS: u32 = 2;

/// The rounding strategy of [`round_money`]: half away from zero.
pub const MONEY_ROUNDING: RoundingStrategy = RoundingStrategy::MidpointAwayFromZero;

/// Decimal places of the minor unit of `currency`.
pub fn minor_units(currency: &str) -> u32 {
    match currency {
        KRW => KRW_MINOR_UNITS,
        USD => USD_MINOR_UNITS,
        _ => DEFAULT_MINOR_UNITS,
    }
}

/// Rounds `amount` of `currency` for display or storage (see the module doc).
pub fn round_money(amount: Decimal, currency: &str) -> Decimal {
    amount.round_dp_with_strategy(minor_units(currency), MONEY_ROUNDING)
}

/// True for the currencies Moat supports ([`SUPPORTED_CURRENCIES`]).
pub fn is_supported_currency(code: &str) -> bool {
    SUPPORTED_CURRENCIES.contains(&code)
}

/// FX rates on one day: `rate(from, to)` is how many units of `to` one unit of `from`
/// buys. Only one direction of a pair needs to be stored; the other is its inverse.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FxRates {
    /// `(base, quote) -> rate`: one `base` costs `rate` `quote` (`("USD", "KRW") -> 1380.5`).
    pairs: BTreeMap<(String, String), Decimal>,
}

impl FxRates {
    pub fn new() -> Self {
        Self::default()
    }

    /// One `base` costs `rate` `quote`. Non-positive rates are ignored (they would
    /// only produce nonsense values further on).
    pub fn with(mut self, base: &str, quote: &str, rate: Decimal) -> Self {
        self.set(base, quote, rate);
        self
    }

    pub fn set(&mut self, base: &str, quote: &str, rate: Decimal) {
        if rate > Decimal::ZERO {
            self.pairs.insert((base.to_owned(), quote.to_owned()), rate);
        }
    }

    /// Units of `to` per unit of `from`; 1 for the same currency; `None` when unknown.
    pub fn rate(&self, from: &str, to: &str) -> Option<Decimal> {
        if from == to {
            return Some(Decimal::ONE);
        }
        // A day holds a pair or two: a scan beats building two owned keys per lookup
        // (a daily value series asks once per holding and day).
        let mut inverse = None;
        for ((base, quote), rate) in &self.pairs {
            if base == from && quote == to {
                return Some(*rate);
            }
            if base == to && quote == from {
                inverse = Some(*rate);
            }
        }
        inverse.map(|rate| Decimal::ONE / rate)
    }

    /// `amount` of `from` in `to`, or `None` when the rate is unknown.
    pub fn convert(&self, amount: Decimal, from: &str, to: &str) -> Option<Decimal> {
        self.rate(from, to).map(|rate| amount * rate)
    }
}

/// FX rates by day. A day without rates (a weekend, a holiday) uses the latest earlier
/// day's: markets do not fix rates on days they are closed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FxHistory {
    days: BTreeMap<chrono::NaiveDate, FxRates>,
}

impl FxHistory {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that one `base` cost `rate` `quote` on `date`.
    pub fn insert(&mut self, date: chrono::NaiveDate, base: &str, quote: &str, rate: Decimal) {
        self.days.entry(date).or_default().set(base, quote, rate);
    }

    /// The rate on `date`, or on the latest earlier day that has one for the pair.
    pub fn rate_on(&self, date: chrono::NaiveDate, from: &str, to: &str) -> Option<Decimal> {
        if from == to {
            return Some(Decimal::ONE);
        }
        self.days
            .range(..=date)
            .rev()
            .find_map(|(_, rates)| rates.rate(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_away_from_zero_at_the_minor_unit() {
        assert_eq!(round_money(dec!(1234.5), KRW), dec!(1235));
        assert_eq!(round_money(dec!(1234.4999), KRW), dec!(1234));
        assert_eq!(round_money(dec!(-1234.5), KRW), dec!(-1235));
        assert_eq!(round_money(dec!(2.345), USD), dec!(2.35));
        assert_eq!(round_money(dec!(2.335), USD), dec!(2.34)); // banker's would give 2.34 too
        assert_eq!(round_money(dec!(2.325), USD), dec!(2.33)); // banker's would give 2.32
        assert_eq!(round_money(dec!(0.005), USD), dec!(0.01));
    }

    #[test]
    fn fx_rates_invert_and_carry_forward() {
        let rates = FxRates::new().with(USD, KRW, dec!(1250));
        assert_eq!(rates.rate(KRW, USD), Some(dec!(0.0008)));
        assert_eq!(rates.convert(dec!(2), USD, KRW), Some(dec!(2500)));
        assert_eq!(rates.rate(KRW, KRW), Some(Decimal::ONE));
        let mut history = FxHistory::new();
        let d = |day| chrono::NaiveDate::from_ymd_opt(2024, 1, day).unwrap();
        history.insert(d(5), USD, KRW, dec!(1300));
        assert_eq!(history.rate_on(d(4), USD, KRW), None);
        assert_eq!(history.rate_on(d(7), USD, KRW), Some(dec!(1300)));
    }
}
