//! Adapters for real public sources: Yahoo Finance (chart v8), Alpha Vantage and the
//! European Central Bank's euro reference rates.
//!
//! Every adapter has two halves:
//!
//! - **pure parsers** that take the bytes of an answer and return domain types or a
//!   [`ProviderError`] (`yahoo::parse_chart`, `alpha_vantage::parse_time_series`,
//!   `ecb::parse_reference_rates`, …). They are tested on recorded real answers and
//!   never panic on what a source sends;
//! - a thin **HTTP half** (`YahooProvider`, `AlphaVantageProvider`, `EcbProvider`) that
//!   builds the request, classifies the answer through [`http`] and calls the parser.
//!   Base URLs are fields so tests can point them at a local server.
//!
//! # Numbers
//!
//! Prices are never computed in `f64`. Yahoo sends JSON floats: each is turned into a
//! [`Decimal`] through its shortest round-trip string (`75.0875015258789`), see
//! [`decimal_from_f64`], and then rounded to the instrument's price grid
//! ([`PriceGrid`]). Alpha Vantage and the ECB send decimal strings, parsed directly.
//!
//! The price grid (rounding half away from zero):
//!
//! | instrument | decimals |
//! |---|---|
//! | stocks, ETFs and crypto priced in KRW (or JPY) | 0 |
//! | stocks, ETFs and crypto in USD (and other currencies) | 2, or 4 when the price is below 1 |
//! | indices | 2 |
//! | currency pairs (and every FX rate) | 6 significant digits, never fewer than 2 decimals ([`round_rate`]) |
//!
//! Prices on a grid carry exactly that many decimals (`75.10`, `71200`); rates are
//! normalised (`1.0856`, `1179.94`).

use std::str::FromStr;

use chrono_tz::Tz;
use rust_decimal::{Decimal, RoundingStrategy};

use crate::{Instrument, Kind, Market, ProviderError};

pub mod alpha_vantage;
pub mod ecb;
pub mod http;
pub mod yahoo;

pub use alpha_vantage::AlphaVantageProvider;
pub use ecb::EcbProvider;
pub use yahoo::YahooProvider;

/// The decimals a price is rounded to (see the table in the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceGrid {
    /// Whole units: KRW (and JPY) stocks, ETFs and crypto.
    Whole,
    /// Cents, or 4 decimals below 1: USD and other currencies.
    Cents,
    /// Index points: 2 decimals.
    Points,
    /// FX rates: [`round_rate`].
    Rate,
}

impl PriceGrid {
    /// The grid of an instrument: by kind first (currency pairs, indices), then by its
    /// price currency.
    pub fn for_instrument(instrument: &Instrument) -> Self {
        Self::for_kind(instrument.kind, &instrument.currency)
    }

    pub fn for_kind(kind: Kind, currency: &str) -> Self {
        match kind {
            Kind::Currency => PriceGrid::Rate,
            Kind::Index => PriceGrid::Points,
            _ if is_whole_unit_currency(currency) => PriceGrid::Whole,
            _ => PriceGrid::Cents,
        }
    }

    /// Rounds half away from zero onto the grid.
    pub fn round(self, price: Decimal) -> Decimal {
        let dp = match self {
            PriceGrid::Whole => 0,
            PriceGrid::Points => 2,
            PriceGrid::Cents if price.abs() < Decimal::ONE => 4,
            PriceGrid::Cents => 2,
            PriceGrid::Rate => return round_rate(price),
        };
        let mut rounded = price.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
        rounded.rescale(dp);
        rounded
    }
}

/// Currencies whose prices are quoted in whole units.
fn is_whole_unit_currency(currency: &str) -> bool {
    matches!(currency.trim().to_ascii_uppercase().as_str(), "KRW" | "JPY")
}

/// Rounds an FX rate to 6 significant digits but never to fewer than 2 decimals, half
/// away from zero, and normalises it: USD/KRW `1179.939901…` → `1179.94`, USD/JPY
/// `150.12345` → `150.123`, EUR/USD `1.12208259` → `1.12208`, KRW/USD `0.00084750079…` →
/// `0.000847501`. This is the precision the ECB publishes its own rates with, so the
/// ECB's direct rates pass through unchanged.
pub fn round_rate(rate: Decimal) -> Decimal {
    let abs = rate.abs();
    if abs.is_zero() {
        return Decimal::ZERO;
    }
    let dp: u32 = if abs >= Decimal::ONE {
        // Digits before the point.
        let int_digits = abs.trunc().normalize().to_string().len() as u32;
        6u32.saturating_sub(int_digits).max(2)
    } else {
        // Zeros right after the point (0.000847 has 3).
        let mut zeros = 0u32;
        let mut v = abs;
        let tenth = Decimal::new(1, 1);
        while v < tenth && zeros < 20 {
            v *= Decimal::TEN;
            zeros += 1;
        }
        (6 + zeros).min(28)
    };
    rate.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
}

/// A JSON float as a [`Decimal`], through its shortest round-trip string (Rust's `f64`
/// `Display`, which never uses an exponent): `75.0875015258789` stays
/// `75.0875015258789`, never `75.08750152587890625`. No arithmetic happens in `f64`.
pub fn decimal_from_f64(value: f64) -> Result<Decimal, ProviderError> {
    if !value.is_finite() {
        return Err(ProviderError::Malformed(format!(
            "not a finite number: {value}"
        )));
    }
    Decimal::from_str(&value.to_string())
        .map_err(|_| ProviderError::Malformed(format!("number out of range: {value}")))
}

/// The time zone an instrument's trading dates are counted in. FX and crypto days are
/// UTC days.
pub fn exchange_time_zone(market: Market) -> Tz {
    match market {
        Market::Krx => chrono_tz::Asia::Seoul,
        Market::Us => chrono_tz::America::New_York,
        Market::Fx | Market::Crypto => chrono_tz::UTC,
    }
}

/// A source's message, on one line and at most `max` characters.
pub(crate) fn shorten(message: &str, max: usize) -> String {
    let one_line: String = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A three-letter ISO 4217 code, upper-cased; `None` if it is not one.
pub(crate) fn currency_code(code: &str) -> Option<String> {
    let code = code.trim();
    (code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic()))
        .then(|| code.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn providers_price_grid_rounds_half_away_from_zero_to_the_instrument_grid() {
        assert_eq!(
            PriceGrid::Cents.round(d("75.0875015258789")).to_string(),
            "75.09"
        );
        assert_eq!(PriceGrid::Cents.round(d("75.085")).to_string(), "75.09");
        assert_eq!(PriceGrid::Cents.round(d("-75.085")).to_string(), "-75.09");
        assert_eq!(PriceGrid::Cents.round(d("75.1")).to_string(), "75.10");
        assert_eq!(PriceGrid::Cents.round(d("0.123456")).to_string(), "0.1235");
        assert_eq!(PriceGrid::Whole.round(d("71200.5")).to_string(), "71201");
        assert_eq!(PriceGrid::Whole.round(d("71200")).to_string(), "71200");
        assert_eq!(
            PriceGrid::Points.round(d("2501.2345")).to_string(),
            "2501.23"
        );
        assert_eq!(
            PriceGrid::Rate.round(d("1.1220825910568237")).to_string(),
            "1.12208"
        );
    }

    #[test]
    fn providers_grid_follows_kind_then_currency() {
        assert_eq!(PriceGrid::for_kind(Kind::Stock, "KRW"), PriceGrid::Whole);
        assert_eq!(PriceGrid::for_kind(Kind::Etf, "krw"), PriceGrid::Whole);
        assert_eq!(PriceGrid::for_kind(Kind::Stock, "USD"), PriceGrid::Cents);
        assert_eq!(PriceGrid::for_kind(Kind::Crypto, "USD"), PriceGrid::Cents);
        assert_eq!(PriceGrid::for_kind(Kind::Index, "KRW"), PriceGrid::Points);
        assert_eq!(PriceGrid::for_kind(Kind::Currency, "KRW"), PriceGrid::Rate);
    }

    #[test]
    fn providers_rates_keep_six_significant_digits_and_at_least_two_decimals() {
        assert_eq!(round_rate(d("1179.9399016572573")).to_string(), "1179.94");
        assert_eq!(round_rate(d("15490.116")).to_string(), "15490.12");
        assert_eq!(round_rate(d("150.12345")).to_string(), "150.123");
        assert_eq!(round_rate(d("1.0856")).to_string(), "1.0856");
        assert_eq!(round_rate(d("0.78230")).to_string(), "0.7823");
        assert_eq!(round_rate(d("0.00084750423")).to_string(), "0.000847504");
        assert_eq!(round_rate(d("1380.555")).to_string(), "1380.56");
        assert_eq!(round_rate(Decimal::ZERO), Decimal::ZERO);
    }

    #[test]
    fn providers_floats_become_decimals_through_their_shortest_string() {
        assert_eq!(
            decimal_from_f64(75.0875015258789).unwrap().to_string(),
            "75.0875015258789"
        );
        assert_eq!(decimal_from_f64(0.205).unwrap().to_string(), "0.205");
        assert_eq!(decimal_from_f64(236.0).unwrap().to_string(), "236");
        assert!(matches!(
            decimal_from_f64(f64::NAN),
            Err(ProviderError::Malformed(_))
        ));
        assert!(matches!(
            decimal_from_f64(1e300),
            Err(ProviderError::Malformed(_))
        ));
    }

    #[test]
    fn providers_messages_are_shortened_to_one_line() {
        assert_eq!(shorten("a\n  b", 10), "a b");
        assert_eq!(shorten("abcdefghijkl", 5), "abcd…");
    }
}
