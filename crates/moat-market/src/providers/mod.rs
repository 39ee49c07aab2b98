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
//! [`decimal_from_f64`], and then rounded by [`round_price`]. Alpha Vantage and the ECB
//! send decimal strings, parsed directly, and rounded the same way.
//!
//! There is one rounding rule, [`crate::ticks`]'s: a price from a source is rounded half
//! away from zero to the number of decimals of the instrument's [`PriceGrid`] at that
//! price ([`ticks::round_dp`]), but not moved onto the tick (split-adjusted history
//! need not lie on today's tick):
//!
//! | instrument | grid | decimals |
//! |---|---|---|
//! | KRX stocks and ETFs | [`PriceGrid::KrxStock`], [`PriceGrid::KrxEtf`] | 0 |
//! | NYSE and NASDAQ stocks and ETFs, crypto | [`PriceGrid::UsEquity`], [`PriceGrid::Crypto`] | 2, or 4 below 1 |
//! | indices | [`PriceGrid::Index`] | 2 |
//! | currency pairs (and every FX rate) | [`PriceGrid::Fx`] | 6 significant digits, never fewer than 2 decimals ([`ticks::fx_decimals`]) |
//!
//! Prices carry exactly that many decimals (`75.10`, `71200`); FX rates are then
//! normalised ([`round_rate`]: `1.0856`, `1179.94`, not `1.08560`), so the ECB's
//! published rates pass through as published.

use std::str::FromStr;

use chrono_tz::Tz;
use rust_decimal::Decimal;

use crate::{ticks, Market, ProviderError};

pub mod alpha_vantage;
pub mod ecb;
pub mod http;
pub mod yahoo;

pub use crate::ticks::PriceGrid;
pub use alpha_vantage::AlphaVantageProvider;
pub use ecb::EcbProvider;
pub use yahoo::YahooProvider;

/// A price from a source on `grid`: [`ticks::round_dp`] (see the table in the module
/// documentation); FX rates are normalised as by [`round_rate`].
pub fn round_price(grid: PriceGrid, price: Decimal) -> Decimal {
    match grid {
        PriceGrid::Fx => round_rate(price),
        _ => ticks::round_dp(grid, price),
    }
}

/// Rounds an FX rate to the FX grid's decimals ([`ticks::fx_decimals`]: 6 significant
/// digits but never fewer than 2 decimals), half away from zero, and normalises it:
/// USD/KRW `1179.939901…` → `1179.94`, USD/JPY `150.12345` → `150.123`, EUR/USD
/// `1.12208259` → `1.12208`, KRW/USD `0.00084750079…` → `0.000847501`. This is the
/// precision the ECB publishes its own rates with, so the ECB's direct rates pass
/// through unchanged (`1.0856` stays `1.0856`).
pub fn round_rate(rate: Decimal) -> Decimal {
    ticks::round_dp(PriceGrid::Fx, rate).normalize()
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
    fn providers_round_half_away_from_zero_to_the_grid_decimals() {
        let cases = [
            (PriceGrid::UsEquity, "75.0875015258789", "75.09"),
            (PriceGrid::UsEquity, "75.085", "75.09"),
            (PriceGrid::UsEquity, "75.1", "75.10"),
            (PriceGrid::UsEquity, "0.123456", "0.1235"),
            (PriceGrid::UsEquity, "-0.123450", "-0.1235"),
            (PriceGrid::Crypto, "0.123456", "0.1235"),
            (PriceGrid::KrxStock, "71200.5", "71201"),
            (PriceGrid::KrxStock, "71200", "71200"),
            // Off the 5-won tick (a split-adjusted price): kept, in whole won.
            (PriceGrid::KrxEtf, "35012.4", "35012"),
            (PriceGrid::Index, "2501.2345", "2501.23"),
            (PriceGrid::Fx, "1.1220825910568237", "1.12208"),
            (PriceGrid::Fx, "1.08560", "1.0856"),
        ];
        for (grid, price, want) in cases {
            assert_eq!(
                round_price(grid, d(price)).to_string(),
                want,
                "{grid:?} {price}"
            );
        }
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
