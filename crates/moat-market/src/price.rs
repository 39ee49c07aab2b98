//! Prices: daily candles, intraday bars, quotes and FX rates. Every price is a
//! [`Decimal`]; volumes are whole shares (or units) as `i64`.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::InstrumentId;

/// One trading day, adjusted for splits (prices of days before a split are divided
/// by its ratio, volumes multiplied).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DailyCandle {
    /// The exchange-local trading date.
    pub date: NaiveDate,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
    pub volume: i64,
}

/// One intraday bar, starting at `start` and lasting the bar interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    pub start: DateTime<Utc>,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
    pub volume: i64,
}

/// How fresh a quote is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuoteState {
    /// As current as the source gives (the simulator, a real-time feed).
    Live,
    /// The source is delayed by design (most free feeds: 15–20 minutes).
    Delayed,
    /// The last fetch failed; this is the last good value.
    Stale,
    /// The market is closed; the last price of the last session.
    Closed,
}

/// The latest price of an instrument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quote {
    pub instrument_id: InstrumentId,
    pub price: Decimal,
    /// The previous session's close (the change is measured from it).
    pub previous_close: Decimal,
    /// Session open, high and low so far (equal to `price` before any trade).
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    /// Shares traded in the session so far.
    pub volume: i64,
    /// When the source says this price was current.
    pub as_of: DateTime<Utc>,
    pub state: QuoteState,
    /// Which provider produced it (`simulator`, `yahoo`, …).
    pub source: String,
    /// True when the source is the simulator: the UI labels such prices.
    pub simulated: bool,
}

impl Quote {
    /// `price - previous_close`.
    pub fn change(&self) -> Decimal {
        self.price - self.previous_close
    }

    /// Change in per cent of the previous close, or zero when that is zero (spec §5).
    pub fn change_percent(&self) -> Decimal {
        if self.previous_close.is_zero() {
            return Decimal::ZERO;
        }
        self.change() * Decimal::ONE_HUNDRED / self.previous_close
    }
}

/// A daily FX rate: one unit of `base` costs `rate` units of `quote`
/// (`USD`/`KRW` 1380.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FxRate {
    pub date: NaiveDate,
    pub base: String,
    pub quote: String,
    pub rate: Decimal,
}

/// A cash dividend per share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dividend {
    pub ex_date: NaiveDate,
    /// When the source says; many give only the ex-date.
    pub pay_date: Option<NaiveDate>,
    pub record_date: Option<NaiveDate>,
    pub amount: Decimal,
    pub currency: String,
}

/// A stock split effective on `date`: each `denominator` old shares become
/// `numerator` new ones (a 4-for-1 split is 4/1, a 1-for-10 reverse split 1/10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Split {
    pub date: NaiveDate,
    pub numerator: u32,
    pub denominator: u32,
}
