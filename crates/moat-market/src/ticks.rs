//! Price grids: the tick size (호가가격단위) each instrument's prices move in, the
//! number of decimals its prices carry, rounding onto either, and KRX's daily price
//! limits (가격제한폭). Decimal arithmetic only, never floating point. This is the one
//! place Moat's rounding rules live: the simulator rounds onto the tick, the provider
//! adapters and the price import round to the decimals ([`round_dp`]).
//!
//! # Grids
//!
//! | grid | applies to | tick |
//! | --- | --- | --- |
//! | [`PriceGrid::KrxStock`] | KRX stocks (KOSPI and KOSDAQ) | by price, [`KRX_STOCK_TICKS`] |
//! | [`PriceGrid::KrxEtf`] | KRX ETFs and ETNs | 1 won below 2,000 won, 5 won from 2,000 won ([`KRX_ETF_TICKS`]) |
//! | [`PriceGrid::UsEquity`] | NYSE and NASDAQ stocks and ETFs | $0.01 at or above $1.00, $0.0001 below (Reg NMS Rule 612) |
//! | [`PriceGrid::Index`] | indices | 0.01 |
//! | [`PriceGrid::Fx`] | currency pairs (`FX:USDKRW`) | six significant digits, never coarser than 0.01 ([`fx_decimals`]) |
//! | [`PriceGrid::Crypto`] | crypto in USD | $0.01 at or above $1.00, $0.0001 below |
//!
//! The KRX stock table is the unified one used by KOSPI and KOSDAQ since 2023-01-25.
//! Tick sizes depend on the price, so the grid is not uniform; every band's lower bound
//! is a multiple of the ticks on both sides of it, which keeps floor, ceiling and
//! nearest well defined: the tick used is the one of the price being rounded.
//!
//! **FX rates** are not traded in a fixed increment; what matters is precision relative
//! to the rate, so their "tick" is the last of six significant digits, and never finer
//! than two decimals for rates of 1,000 and more:
//!
//! | rate | decimals | example |
//! | --- | --- | --- |
//! | ≥ 1,000 | 2 | USD/KRW `1384.56` (how Korean banks and 서울외국환중개 quote it) |
//! | 100 – 999.99… | 3 | USD/JPY `150.123` |
//! | 10 – 99.99… | 4 | USD/TWD `32.4567` |
//! | 1 – 9.99… | 5 | EUR/USD `1.08561` (one more than the 4-decimal pip) |
//! | below 1 | six significant | GBP/USD inverse `0.782300`, KRW/USD `0.000722543` |
//!
//! A flat two decimals (this grid's earlier rule) is right for USD/KRW but throws away
//! the rate for EUR/USD (`1.09` is 0.4 % off `1.0856`). Six significant digits is the
//! precision the ECB publishes its reference rates with (at most), so they pass through
//! unchanged, and cross rates computed from them keep the precision of their inputs.
//!
//! Prices are expected to be positive. On the KRX, US and crypto grids zero and negative
//! prices use the smallest tick; on the FX grid a negative rate uses the tick of its
//! absolute value, and zero the coarsest (0.01).
//!
//! # Rounding rules
//!
//! - [`floor_to_tick`]: the greatest grid price ≤ the price.
//! - [`ceil_to_tick`]: the least grid price ≥ the price.
//! - [`round_to_tick`]: the nearest grid price; **ties away from zero** (upward, for
//!   the positive prices this is meant for). KRX itself has no "nearest" rule; this is
//!   for displaying and simulating prices.
//! - [`round_dp`]: the nearest price with the grid's number of [`decimals`] at that
//!   price, ties away from zero, **without** moving it onto the tick. This is for
//!   prices that come from elsewhere (a provider's JSON floats, an imported file):
//!   split-adjusted history need not lie on today's tick (a KRX close of 53,000 won
//!   before a 1:50 split reads 1,060 won, on no 5-won tick), so such prices are only
//!   cut to the grid's precision (KRX whole won, US cents, …), never moved.
//!
//! Results carry as many decimal places as their tick (`92500`, `189.40`, `0.5123`,
//! `1.08560`).
//!
//! # Price limits
//!
//! KRX stocks and ETFs may trade at most ±30 % from the base price (기준가격, normally
//! the previous close): the upper limit is base × 1.3 rounded **down** to the grid, the
//! lower limit base × 0.7 rounded **up** to the grid (each with the tick of the
//! resulting price). Leveraged ETFs' wider limits (the ratio times the leverage) are not
//! modelled. US markets have no daily limits, only intraday Limit Up-Limit Down bands,
//! which are not modelled; indices, FX and crypto have none either.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::instrument::{Exchange, Instrument, Kind};

const fn units(n: u32, scale: u32) -> Decimal {
    Decimal::from_parts(n, 0, 0, false, scale)
}

/// KRX stock tick sizes (KOSPI and KOSDAQ, since 2023-01-25), in won: a price below
/// the first number moves in ticks of the second; at or above the last bound, in
/// [`KRX_STOCK_TOP_TICK`].
pub const KRX_STOCK_TICKS: [(Decimal, Decimal); 6] = [
    (units(2_000, 0), units(1, 0)),
    (units(5_000, 0), units(5, 0)),
    (units(20_000, 0), units(10, 0)),
    (units(50_000, 0), units(50, 0)),
    (units(200_000, 0), units(100, 0)),
    (units(500_000, 0), units(500, 0)),
];
/// KRX stock tick at or above 500,000 won.
pub const KRX_STOCK_TOP_TICK: Decimal = units(1_000, 0);
/// KRX ETF and ETN tick sizes, in won: 1 won below 2,000 won; at or above it,
/// [`KRX_ETF_TOP_TICK`].
pub const KRX_ETF_TICKS: [(Decimal, Decimal); 1] = [(units(2_000, 0), units(1, 0))];
/// KRX ETF and ETN tick at or above 2,000 won.
pub const KRX_ETF_TOP_TICK: Decimal = units(5, 0);
/// US equity (and crypto) tick at or above [`US_SUB_DOLLAR_BOUND`]: one cent.
pub const US_TICK: Decimal = units(1, 2);
/// US equity (and crypto) tick below [`US_SUB_DOLLAR_BOUND`]: $0.0001 (Rule 612).
pub const US_SUB_DOLLAR_TICK: Decimal = units(1, 4);
/// The price below which US equities and crypto quote in [`US_SUB_DOLLAR_TICK`]: $1.00.
pub const US_SUB_DOLLAR_BOUND: Decimal = units(1, 0);
/// Index points: two decimal places.
pub const TWO_DECIMALS_TICK: Decimal = units(1, 2);
/// Significant digits of an FX rate ([`fx_decimals`]).
pub const FX_SIGNIFICANT_DIGITS: u32 = 6;
/// The fewest decimal places of an FX rate ([`fx_decimals`]).
pub const FX_MIN_DECIMALS: u32 = 2;
/// KRX upper price limit factor: base price × 1.3 (+30 %).
pub const KRX_UPPER_LIMIT_FACTOR: Decimal = units(13, 1);
/// KRX lower price limit factor: base price × 0.7 (−30 %).
pub const KRX_LOWER_LIMIT_FACTOR: Decimal = units(7, 1);

/// The most decimal places a [`Decimal`] holds.
const MAX_SCALE: u32 = 28;

/// Which tick table an instrument's prices follow. Build it from an instrument
/// (`PriceGrid::from(&instrument)`) or an exchange and kind
/// (`PriceGrid::from((Exchange::Krx, Kind::Stock))`); every function here accepts any
/// of the three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PriceGrid {
    /// KRX stocks: the price-dependent table [`KRX_STOCK_TICKS`].
    KrxStock,
    /// KRX ETFs and ETNs: [`KRX_ETF_TICKS`].
    KrxEtf,
    /// NYSE and NASDAQ stocks and ETFs: [`US_TICK`], [`US_SUB_DOLLAR_TICK`] below $1.
    UsEquity,
    /// Index points: [`TWO_DECIMALS_TICK`].
    Index,
    /// Currency pairs: six significant digits, at least two decimals ([`fx_decimals`]).
    Fx,
    /// Crypto in USD: [`US_TICK`], [`US_SUB_DOLLAR_TICK`] below $1.
    Crypto,
}

impl PriceGrid {
    /// The grid for an instrument of `kind` listed on `exchange`. The kind decides for
    /// indices, currencies and crypto wherever they are listed; otherwise the exchange
    /// does (a KRX `Etf` gets the ETF grid, any other KRX kind the stock grid).
    pub fn of(exchange: Exchange, kind: Kind) -> Self {
        match (exchange, kind) {
            (_, Kind::Index) | (Exchange::Index, _) => PriceGrid::Index,
            (_, Kind::Currency) | (Exchange::Fx, _) => PriceGrid::Fx,
            (_, Kind::Crypto) | (Exchange::Crypto, _) => PriceGrid::Crypto,
            (Exchange::Krx, Kind::Etf) => PriceGrid::KrxEtf,
            (Exchange::Krx, _) => PriceGrid::KrxStock,
            (Exchange::Nyse | Exchange::Nasdaq, _) => PriceGrid::UsEquity,
        }
    }

    /// The tick at `price`.
    pub fn tick_size(self, price: Decimal) -> Decimal {
        match self {
            PriceGrid::KrxStock => banded(&KRX_STOCK_TICKS, KRX_STOCK_TOP_TICK, price),
            PriceGrid::KrxEtf => banded(&KRX_ETF_TICKS, KRX_ETF_TOP_TICK, price),
            PriceGrid::UsEquity | PriceGrid::Crypto if price < US_SUB_DOLLAR_BOUND => {
                US_SUB_DOLLAR_TICK
            }
            PriceGrid::UsEquity | PriceGrid::Crypto => US_TICK,
            PriceGrid::Index => TWO_DECIMALS_TICK,
            PriceGrid::Fx => Decimal::new(1, fx_decimals(price)),
        }
    }

    /// The number of decimal places of a price near `price`: the tick's.
    pub fn decimals(self, price: Decimal) -> u32 {
        self.tick_size(price).scale()
    }

    /// Whether this grid has KRX daily price limits.
    pub fn has_price_limits(self) -> bool {
        matches!(self, PriceGrid::KrxStock | PriceGrid::KrxEtf)
    }
}

/// The tick of `price` in a table of `(upper bound, tick)` bands.
fn banded(bands: &[(Decimal, Decimal)], top: Decimal, price: Decimal) -> Decimal {
    bands
        .iter()
        .find(|(bound, _)| price < *bound)
        .map_or(top, |(_, tick)| *tick)
}

impl From<(Exchange, Kind)> for PriceGrid {
    fn from((exchange, kind): (Exchange, Kind)) -> Self {
        PriceGrid::of(exchange, kind)
    }
}

impl From<&Instrument> for PriceGrid {
    fn from(instrument: &Instrument) -> Self {
        PriceGrid::of(instrument.id.exchange(), instrument.kind)
    }
}

/// The decimal places of an FX rate: [`FX_SIGNIFICANT_DIGITS`] significant digits, but
/// never fewer than [`FX_MIN_DECIMALS`] (nor more than a `Decimal` holds, 28):
/// `1384.555` → 2, `150.1234` → 3, `1.0856` → 5, `0.000722543` → 9. The sign is
/// ignored; zero has 2.
pub fn fx_decimals(rate: Decimal) -> u32 {
    let abs = rate.abs().normalize();
    if abs.is_zero() {
        return FX_MIN_DECIMALS;
    }
    if abs >= Decimal::ONE {
        let int_digits = digits(abs.trunc().mantissa().unsigned_abs());
        FX_SIGNIFICANT_DIGITS
            .saturating_sub(int_digits)
            .max(FX_MIN_DECIMALS)
    } else {
        // 0.000847 is 847 × 10⁻⁶: three zeros after the point.
        let zeros = abs.scale() - digits(abs.mantissa().unsigned_abs());
        (FX_SIGNIFICANT_DIGITS + zeros).min(MAX_SCALE)
    }
}

/// Decimal digits of a positive whole number (1 for 0).
fn digits(mut n: u128) -> u32 {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

/// The tick at `price` on `grid` (a [`PriceGrid`], an `&Instrument` or an
/// `(Exchange, Kind)`).
pub fn tick_size(grid: impl Into<PriceGrid>, price: Decimal) -> Decimal {
    grid.into().tick_size(price)
}

/// The number of decimal places a price near `price` is shown with on `grid`: the
/// tick's (0 for KRX, 2 or 4 for US equities and crypto, 2 for indices, 2 to 28 for FX
/// rates).
pub fn decimals(grid: impl Into<PriceGrid>, price: Decimal) -> u32 {
    grid.into().decimals(price)
}

/// Whether `price` lies on `grid`.
pub fn is_on_tick(grid: impl Into<PriceGrid>, price: Decimal) -> bool {
    let tick = tick_size(grid, price);
    (price % tick).is_zero()
}

/// The greatest grid price not above `price`.
pub fn floor_to_tick(grid: impl Into<PriceGrid>, price: Decimal) -> Decimal {
    let grid = grid.into();
    let (floor, _) = bracket(grid, price);
    with_tick_scale(grid, floor)
}

/// The least grid price not below `price`.
pub fn ceil_to_tick(grid: impl Into<PriceGrid>, price: Decimal) -> Decimal {
    let grid = grid.into();
    let (_, ceil) = bracket(grid, price);
    with_tick_scale(grid, ceil)
}

/// The grid price nearest to `price`; halfway between two, the one farther from zero.
pub fn round_to_tick(grid: impl Into<PriceGrid>, price: Decimal) -> Decimal {
    let grid = grid.into();
    let (floor, ceil) = bracket(grid, price);
    let below = price - floor;
    let above = ceil - price;
    let nearest = if below < above {
        floor
    } else if above < below || price.is_sign_positive() {
        // Ties go away from zero: up for positive prices, down for negative ones.
        ceil
    } else {
        floor
    };
    with_tick_scale(grid, nearest)
}

/// `price` rounded half away from zero to the number of [`decimals`] `grid` has at that
/// price, and written with exactly that many: `75.0875015258789` → `75.09` (US),
/// `71200.5` → `71201` (KRX), `1.1220825910568237` → `1.12208` (FX). The price is not
/// moved onto the tick (see the module documentation). When rounding up reaches a band
/// with fewer decimals, the result takes that band's (`0.99996` → `1.00` in USD).
pub fn round_dp(grid: impl Into<PriceGrid>, price: Decimal) -> Decimal {
    let grid = grid.into();
    let dp = grid.decimals(price);
    let mut rounded = price.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(dp.min(grid.decimals(rounded)));
    rounded
}

/// KRX daily price limits `(lower, upper)` for a base price (normally the previous
/// close): `upper` is base × 1.3 rounded down to the grid, `lower` base × 0.7 rounded
/// up. `None` for grids without daily limits (US, indices, FX, crypto) and for a
/// base price that is not positive.
pub fn price_limits(
    grid: impl Into<PriceGrid>,
    previous_close: Decimal,
) -> Option<(Decimal, Decimal)> {
    let grid = grid.into();
    if !grid.has_price_limits() || previous_close <= Decimal::ZERO {
        return None;
    }
    let upper = floor_to_tick(grid, previous_close * KRX_UPPER_LIMIT_FACTOR);
    let lower = ceil_to_tick(grid, previous_close * KRX_LOWER_LIMIT_FACTOR);
    Some((lower, upper))
}

/// The grid prices just below-or-at and just above-or-at `price`, with the tick of
/// `price` (band bounds are multiples of the ticks on both sides, so both are on the
/// grid).
fn bracket(grid: PriceGrid, price: Decimal) -> (Decimal, Decimal) {
    let tick = grid.tick_size(price);
    let mut rem = price % tick; // same sign as price
    if rem.is_sign_negative() && !rem.is_zero() {
        rem += tick;
    }
    let floor = price - rem;
    let ceil = if rem.is_zero() { floor } else { floor + tick };
    (floor, ceil)
}

/// `price`, a grid price, written with its tick's number of decimal places.
fn with_tick_scale(grid: PriceGrid, price: Decimal) -> Decimal {
    let mut out = price;
    out.rescale(grid.tick_size(price).scale());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn krx_stock_ticks_change_at_each_band_boundary() {
        let cases = [
            ("1", "1"),
            ("1999", "1"),
            ("2000", "5"),
            ("4995", "5"),
            ("5000", "10"),
            ("19990", "10"),
            ("20000", "50"),
            ("49950", "50"),
            ("50000", "100"),
            ("199900", "100"),
            ("200000", "500"),
            ("499500", "500"),
            ("500000", "1000"),
            ("1500000", "1000"),
        ];
        for (price, tick) in cases {
            assert_eq!(
                tick_size(PriceGrid::KrxStock, d(price)),
                d(tick),
                "tick at {price} won"
            );
        }
    }

    #[test]
    fn krx_boundary_prices_are_on_the_grid_on_both_sides() {
        for price in [
            "1999", "2000", "4995", "5000", "19990", "20000", "49950", "50000",
        ] {
            assert!(is_on_tick(PriceGrid::KrxStock, d(price)), "{price}");
        }
        for price in ["199900", "200000", "499500", "500000"] {
            assert!(is_on_tick(PriceGrid::KrxStock, d(price)), "{price}");
        }
        for price in [
            "2001", "4996", "19995", "49960", "199950", "499600", "500500",
        ] {
            assert!(!is_on_tick(PriceGrid::KrxStock, d(price)), "{price}");
        }
    }

    #[test]
    fn rounding_near_band_boundaries_uses_the_tick_of_the_price() {
        // (price, floor, ceil, nearest)
        let cases = [
            ("1999.4", "1999", "2000", "1999"),
            ("1999.5", "1999", "2000", "2000"),
            ("2003", "2000", "2005", "2005"),
            ("2002", "2000", "2005", "2000"),
            ("2002.5", "2000", "2005", "2005"),
            ("4997", "4995", "5000", "4995"),
            ("4997.5", "4995", "5000", "5000"),
            ("19994", "19990", "20000", "19990"),
            ("19995", "19990", "20000", "20000"),
            ("49960", "49950", "50000", "49950"),
            ("49975", "49950", "50000", "50000"),
            ("71234", "71200", "71300", "71200"),
            ("71250", "71200", "71300", "71300"),
            ("199950", "199900", "200000", "200000"),
            ("499700", "499500", "500000", "499500"),
            ("499750", "499500", "500000", "500000"),
            ("500400", "500000", "501000", "500000"),
            ("500500", "500000", "501000", "501000"),
        ];
        for (price, floor, ceil, nearest) in cases {
            let p = d(price);
            assert_eq!(
                floor_to_tick(PriceGrid::KrxStock, p),
                d(floor),
                "floor {price}"
            );
            assert_eq!(
                ceil_to_tick(PriceGrid::KrxStock, p),
                d(ceil),
                "ceil {price}"
            );
            assert_eq!(
                round_to_tick(PriceGrid::KrxStock, p),
                d(nearest),
                "round {price}"
            );
        }
    }

    #[test]
    fn krx_etfs_move_in_one_won_ticks_below_2000_and_five_won_ticks_from_2000() {
        let grid = PriceGrid::of(Exchange::Krx, Kind::Etf);
        assert_eq!(grid, PriceGrid::KrxEtf);
        for (price, tick) in [
            ("1", "1"),
            ("1000", "1"),
            ("1999", "1"),
            ("2000", "5"),
            ("35000", "5"),
            ("250000", "5"),
            ("600000", "5"),
        ] {
            assert_eq!(tick_size(grid, d(price)), d(tick), "ETF tick at {price}");
        }
        assert_eq!(round_to_tick(grid, d("1234.4")), d("1234"));
        assert_eq!(round_to_tick(grid, d("1999.5")), d("2000"));
        assert_eq!(floor_to_tick(grid, d("2003")), d("2000"));
        assert_eq!(ceil_to_tick(grid, d("1998.2")), d("1999"));
        assert_eq!(round_to_tick(grid, d("35012")), d("35010"));
        assert_eq!(round_to_tick(grid, d("35012.5")), d("35015"));
        assert!(is_on_tick(grid, d("1999")));
        assert!(!is_on_tick(grid, d("2001")));
    }

    #[test]
    fn us_prices_are_in_cents_from_one_dollar_and_ten_thousandths_below() {
        let grid = PriceGrid::of(Exchange::Nasdaq, Kind::Stock);
        assert_eq!(tick_size(grid, d("189.43")), d("0.01"));
        assert_eq!(tick_size(grid, d("1.00")), d("0.01"));
        assert_eq!(tick_size(grid, d("0.9999")), d("0.0001"));
        assert_eq!(round_to_tick(grid, d("189.434")).to_string(), "189.43");
        assert_eq!(round_to_tick(grid, d("189.435")).to_string(), "189.44");
        assert_eq!(round_to_tick(grid, d("189.4")).to_string(), "189.40");
        assert_eq!(round_to_tick(grid, d("0.51234")).to_string(), "0.5123");
        assert_eq!(round_to_tick(grid, d("0.99996")).to_string(), "1.00");
        assert_eq!(floor_to_tick(grid, d("0.99996")).to_string(), "0.9999");
        assert_eq!(decimals(grid, d("12")), 2);
        assert_eq!(decimals(grid, d("0.5")), 4);
        assert_eq!(
            PriceGrid::of(Exchange::Nyse, Kind::Etf),
            PriceGrid::UsEquity,
            "US ETFs follow the equity grid"
        );
    }

    #[test]
    fn indices_fx_above_1000_and_crypto_above_a_dollar_have_two_decimals() {
        let cases = [
            (Exchange::Index, Kind::Index, PriceGrid::Index),
            (Exchange::Fx, Kind::Currency, PriceGrid::Fx),
            (Exchange::Crypto, Kind::Crypto, PriceGrid::Crypto),
        ];
        for (exchange, kind, want) in cases {
            let grid = PriceGrid::from((exchange, kind));
            assert_eq!(grid, want, "{exchange} {kind:?}");
            assert_eq!(tick_size(grid, d("1384.555")), d("0.01"), "{exchange}");
            assert_eq!(round_to_tick(grid, d("1384.555")).to_string(), "1384.56");
            assert_eq!(round_to_tick(grid, d("2650")).to_string(), "2650.00");
        }
    }

    #[test]
    fn fx_rates_keep_six_significant_digits_and_at_least_two_decimals() {
        // (rate, decimals, rounded onto the tick)
        let cases = [
            ("1384.555", 2, "1384.56"),
            ("15490.116", 2, "15490.12"),
            ("1000", 2, "1000.00"),
            ("999.9996", 3, "1000.00"),
            ("150.12345", 3, "150.123"),
            ("32.45678", 4, "32.4568"),
            ("1.1220825910568237", 5, "1.12208"),
            ("1.0856", 5, "1.08560"),
            ("0.78230", 6, "0.782300"),
            ("0.0999999996", 7, "0.100000"),
            ("0.00084750423", 9, "0.000847504"),
        ];
        for (rate, dp, rounded) in cases {
            assert_eq!(fx_decimals(d(rate)), dp, "decimals of {rate}");
            assert_eq!(decimals(PriceGrid::Fx, d(rate)), dp, "decimals of {rate}");
            assert_eq!(
                round_to_tick(PriceGrid::Fx, d(rate)).to_string(),
                rounded,
                "{rate}"
            );
        }
        assert_eq!(fx_decimals(Decimal::ZERO), 2);
        assert_eq!(fx_decimals(d("-1.0856")), 5);
        assert_eq!(fx_decimals(Decimal::new(1, 28)), 28);
    }

    #[test]
    fn crypto_below_a_dollar_has_four_decimals() {
        let grid = PriceGrid::of(Exchange::Crypto, Kind::Crypto);
        assert_eq!(tick_size(grid, d("0.15234")), d("0.0001"));
        assert_eq!(round_to_tick(grid, d("0.15235")).to_string(), "0.1524");
        assert_eq!(round_to_tick(grid, d("95000.005")).to_string(), "95000.01");
    }

    #[test]
    fn round_dp_cuts_to_the_grid_decimals_without_moving_onto_the_tick() {
        let cases = [
            // A split-adjusted KRX price stays off the 5-won tick, in whole won.
            (PriceGrid::KrxStock, "1060.4", "1060"),
            (PriceGrid::KrxStock, "71200.5", "71201"),
            (PriceGrid::KrxStock, "71234", "71234"),
            (PriceGrid::KrxEtf, "35012", "35012"),
            (PriceGrid::UsEquity, "75.0875015258789", "75.09"),
            (PriceGrid::UsEquity, "75.085", "75.09"),
            (PriceGrid::UsEquity, "75.1", "75.10"),
            (PriceGrid::UsEquity, "0.123456", "0.1235"),
            (PriceGrid::UsEquity, "-0.123450", "-0.1235"),
            (PriceGrid::UsEquity, "0.99996", "1.00"),
            (PriceGrid::Index, "2501.2345", "2501.23"),
            (PriceGrid::Fx, "1.1220825910568237", "1.12208"),
            (PriceGrid::Fx, "1179.9399016572573", "1179.94"),
            (PriceGrid::Fx, "999.9996", "1000.00"),
            (PriceGrid::Crypto, "0.0612345", "0.0612"),
        ];
        for (grid, price, want) in cases {
            assert_eq!(
                round_dp(grid, d(price)).to_string(),
                want,
                "{grid:?} {price}"
            );
        }
    }

    #[test]
    fn krx_limits_are_thirty_percent_rounded_inward_onto_the_grid() {
        // (previous close, lower, upper)
        let cases = [
            // 71,200 × 1.3 = 92,560 → 92,500 (100-won ticks); × 0.7 = 49,840 → 49,850
            // (50-won ticks below 50,000).
            ("71200", "49850", "92500"),
            ("10000", "7000", "13000"),
            ("50000", "35000", "65000"),
            // 1,999 × 1.3 = 2,598.7 → 2,595; × 0.7 = 1,399.3 → 1,400.
            ("1999", "1400", "2595"),
            // 400,000 × 1.3 = 520,000 (1,000-won ticks); × 0.7 = 280,000.
            ("400000", "280000", "520000"),
            // 155,500 × 1.3 = 202,150 → 202,000; × 0.7 = 108,850 → 108,900.
            ("155500", "108900", "202000"),
            ("1", "1", "1"),
        ];
        for (close, lower, upper) in cases {
            let limits = price_limits(PriceGrid::KrxStock, d(close));
            assert_eq!(limits, Some((d(lower), d(upper))), "limits for {close}");
            let (lower, upper) = limits.unwrap();
            assert_eq!(lower.to_string(), lower.normalize().to_string(), "{close}");
            assert_eq!(upper.to_string(), upper.normalize().to_string(), "{close}");
        }
    }

    #[test]
    fn only_krx_stocks_and_etfs_have_daily_limits() {
        let none = [
            (Exchange::Nyse, Kind::Stock),
            (Exchange::Nasdaq, Kind::Etf),
            (Exchange::Index, Kind::Index),
            (Exchange::Fx, Kind::Currency),
            (Exchange::Crypto, Kind::Crypto),
        ];
        for grid in none {
            assert_eq!(price_limits(grid, d("100")), None, "{grid:?}");
        }
        assert_eq!(
            price_limits((Exchange::Krx, Kind::Etf), d("10003")),
            Some((d("7005"), d("13000"))),
            "ETF limits on the 5-won grid"
        );
        // 1,800 × 1.3 = 2,340 (5-won ticks); × 0.7 = 1,260 (1-won ticks).
        assert_eq!(
            price_limits((Exchange::Krx, Kind::Etf), d("1800")),
            Some((d("1260"), d("2340"))),
            "ETF limits across the 2,000-won band"
        );
        // 1,543 × 1.3 = 2,005.9 → 2,005; × 0.7 = 1,080.1 → 1,081.
        assert_eq!(
            price_limits((Exchange::Krx, Kind::Etf), d("1543")),
            Some((d("1081"), d("2005")))
        );
        assert_eq!(price_limits(PriceGrid::KrxStock, Decimal::ZERO), None);
    }

    fn grids() -> impl Strategy<Value = PriceGrid> {
        prop_oneof![
            Just(PriceGrid::KrxStock),
            Just(PriceGrid::KrxEtf),
            Just(PriceGrid::UsEquity),
            Just(PriceGrid::Index),
            Just(PriceGrid::Fx),
            Just(PriceGrid::Crypto),
        ]
    }

    proptest! {
        #[test]
        fn rounded_prices_lie_on_the_grid_and_bracket_the_price(
            grid in grids(),
            mantissa in 1i64..5_000_000_000,
            scale in 0u32..5,
        ) {
            let price = Decimal::new(mantissa, scale);
            let tick = tick_size(grid, price);
            let floor = floor_to_tick(grid, price);
            let ceil = ceil_to_tick(grid, price);
            let nearest = round_to_tick(grid, price);
            for p in [floor, ceil, nearest] {
                prop_assert!(is_on_tick(grid, p), "{p} on {grid:?}");
                prop_assert!((p % tick_size(grid, p)).is_zero());
            }
            prop_assert!(floor <= price && price <= ceil);
            prop_assert!(ceil - floor <= tick);
            prop_assert!(nearest == floor || nearest == ceil);
            prop_assert!((nearest - price).abs() * Decimal::TWO <= tick);
            if is_on_tick(grid, price) {
                prop_assert_eq!(floor, price);
                prop_assert_eq!(ceil, price);
                prop_assert_eq!(nearest, price);
            }
        }

        #[test]
        fn round_dp_keeps_the_grid_decimals_and_is_idempotent(
            grid in grids(),
            mantissa in 1i64..5_000_000_000_000,
            scale in 0u32..9,
        ) {
            let price = Decimal::new(mantissa, scale);
            let rounded = round_dp(grid, price);
            let dp = decimals(grid, price);
            prop_assert_eq!(rounded.scale(), decimals(grid, rounded), "{} → {}", price, rounded);
            prop_assert!((rounded - price).abs() * Decimal::TWO <= Decimal::new(1, dp));
            prop_assert_eq!(round_dp(grid, rounded).to_string(), rounded.to_string());
        }

        #[test]
        fn krx_limits_lie_on_the_grid_around_the_close(
            etf in any::<bool>(),
            raw in 1i64..3_000_000,
        ) {
            let grid = if etf { PriceGrid::KrxEtf } else { PriceGrid::KrxStock };
            let close = floor_to_tick(grid, Decimal::from(raw)).max(tick_size(grid, Decimal::ONE));
            let (lower, upper) = price_limits(grid, close).unwrap();
            prop_assert!(is_on_tick(grid, lower), "lower {lower} for {close}");
            prop_assert!(is_on_tick(grid, upper), "upper {upper} for {close}");
            prop_assert!(lower <= close && close <= upper, "{lower} <= {close} <= {upper}");
            prop_assert!(upper <= close * KRX_UPPER_LIMIT_FACTOR);
            prop_assert!(lower >= close * KRX_LOWER_LIMIT_FACTOR);
        }
    }
}
