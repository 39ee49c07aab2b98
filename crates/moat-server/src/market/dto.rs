//! Every request and response type of the market API, as the OpenAPI document names
//! them. Prices travel as decimal strings, times as RFC 3339 ([`rfc3339`]).

use chrono::{DateTime, SecondsFormat, Utc};
use moat_market::{Bar, FxRate, Instrument, Quote, QuoteState};
use moat_storage::ProviderStatus;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::service::Stats;

/// A time as the API writes it: RFC 3339 in UTC, whole seconds (`2025-03-14T09:00:00Z`).
pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// An instrument.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct InstrumentDto {
    /// `EXCHANGE:SYMBOL`, e.g. `KRX:005930`.
    pub id: String,
    pub ticker: String,
    /// `KRX`, `NYSE`, `NASDAQ`, `INDEX`, `FX` or `CRYPTO`.
    pub exchange: String,
    /// `KOSPI` or `KOSDAQ` for Korean listings.
    pub board: Option<String>,
    /// `stock`, `etf`, `index`, `currency` or `crypto`.
    pub kind: String,
    pub currency: String,
    pub country: String,
    pub name_ko: String,
    pub name_en: String,
    pub sector: String,
    pub shares_outstanding: Option<i64>,
    /// Prices come from the simulator (the UI labels them).
    pub simulated: bool,
}

impl InstrumentDto {
    /// `i`, labelled `simulated` when its prices come from the simulator.
    pub fn new(i: &Instrument, simulated: bool) -> Self {
        Self {
            id: i.id.to_string(),
            ticker: i.ticker().to_owned(),
            exchange: i.id.exchange().as_str().to_owned(),
            board: i.board.map(|b| b.as_str().to_owned()),
            kind: i.kind.as_str().to_owned(),
            currency: i.currency.clone(),
            country: i.country.clone(),
            name_ko: i.name_ko.clone(),
            name_en: i.name_en.clone(),
            sector: i.sector.clone(),
            shares_outstanding: i.shares_outstanding,
            simulated,
        }
    }
}

/// The latest price of an instrument.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct QuoteDto {
    pub instrument_id: String,
    /// Decimal string.
    pub price: String,
    pub previous_close: String,
    /// `price - previous_close`.
    pub change: String,
    /// Per cent of the previous close, two decimals.
    pub change_percent: String,
    pub open: String,
    pub high: String,
    pub low: String,
    pub volume: i64,
    /// RFC 3339.
    pub as_of: String,
    /// `live`, `delayed`, `stale` (the source failed; last good value) or `closed`.
    pub state: String,
    pub source: String,
    pub simulated: bool,
}

impl From<&Quote> for QuoteDto {
    fn from(q: &Quote) -> Self {
        Self {
            instrument_id: q.instrument_id.to_string(),
            price: q.price.to_string(),
            previous_close: q.previous_close.to_string(),
            change: q.change().to_string(),
            change_percent: {
                // Always two decimals ("0.00", "1.00"), not "0" or "1".
                let mut percent = q.change_percent().round_dp(2);
                percent.rescale(2);
                percent.to_string()
            },
            open: q.open.to_string(),
            high: q.high.to_string(),
            low: q.low.to_string(),
            volume: q.volume,
            as_of: rfc3339(q.as_of),
            state: match q.state {
                QuoteState::Live => "live",
                QuoteState::Delayed => "delayed",
                QuoteState::Stale => "stale",
                QuoteState::Closed => "closed",
            }
            .to_owned(),
            source: q.source.clone(),
            simulated: q.simulated,
        }
    }
}

/// Key figures of the stock page (decimal strings; null when unknown).
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct StatsDto {
    pub previous_close: Option<String>,
    pub open: Option<String>,
    pub day_high: Option<String>,
    pub day_low: Option<String>,
    pub week52_high: Option<String>,
    pub week52_low: Option<String>,
    pub volume: Option<i64>,
    /// Price × shares outstanding, in the instrument's currency.
    pub market_cap: Option<String>,
    /// Trailing twelve months of dividends over the price, per cent (once dividends exist).
    pub dividend_yield: Option<String>,
}

impl From<&Stats> for StatsDto {
    fn from(s: &Stats) -> Self {
        let text = |d: Option<rust_decimal::Decimal>| d.map(|d| d.to_string());
        Self {
            previous_close: text(s.previous_close),
            open: text(s.open),
            day_high: text(s.day_high),
            day_low: text(s.day_low),
            week52_high: text(s.week52_high),
            week52_low: text(s.week52_low),
            volume: s.volume,
            market_cap: text(s.market_cap),
            dividend_yield: text(s.dividend_yield),
        }
    }
}

/// An instrument with its quote and key figures.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct InstrumentDetail {
    #[serde(flatten)]
    pub instrument: InstrumentDto,
    pub quote: Option<QuoteDto>,
    pub stats: StatsDto,
}

#[derive(Deserialize, IntoParams)]
pub struct SearchParams {
    /// Ticker, name (Korean or English), Korean initial consonants or alias.
    #[serde(default)]
    pub q: String,
    /// 1 to 50 (default 20).
    #[param(value_type = Option<u32>)]
    pub limit: Option<String>,
}

/// A chart range.
#[derive(Deserialize, Serialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    #[serde(rename = "1D")]
    OneDay,
    #[serde(rename = "1W")]
    OneWeek,
    #[serde(rename = "1M")]
    OneMonth,
    #[serde(rename = "3M")]
    ThreeMonths,
    #[serde(rename = "1Y")]
    OneYear,
    #[serde(rename = "5Y")]
    FiveYears,
}

#[derive(Deserialize, IntoParams)]
pub struct CandleParams {
    /// `1D`, `1W`, `1M`, `3M`, `1Y` or `5Y` (default `1M`).
    pub range: Option<String>,
}

/// One candle: `t` is the start in Unix seconds (00:00 UTC of the date for daily and
/// weekly candles); prices are decimal strings.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct CandleDto {
    pub t: i64,
    pub o: String,
    pub h: String,
    pub l: String,
    pub c: String,
    pub v: i64,
}

impl From<&Bar> for CandleDto {
    fn from(b: &Bar) -> Self {
        Self {
            t: b.start.timestamp(),
            o: b.open.to_string(),
            h: b.high.to_string(),
            l: b.low.to_string(),
            c: b.close.to_string(),
            v: b.volume,
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct CandlesDto {
    pub instrument_id: String,
    pub range: Range,
    /// `5m`, `30m`, `1d` or `1w`.
    pub interval: String,
    pub candles: Vec<CandleDto>,
}

#[derive(Deserialize, IntoParams)]
pub struct FxParams {
    /// First date, `YYYY-MM-DD` (default 30 days ago).
    pub from: Option<String>,
    /// Last date (default today).
    pub to: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FxRateDto {
    pub date: String,
    /// One unit of the base in the quote currency, decimal string.
    pub rate: String,
}

impl From<&FxRate> for FxRateDto {
    fn from(r: &FxRate) -> Self {
        Self {
            date: r.date.to_string(),
            rate: r.rate.to_string(),
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FxDto {
    pub pair: String,
    pub rates: Vec<FxRateDto>,
}

#[derive(Deserialize, IntoParams)]
pub struct FxRateOnParams {
    /// The date, `YYYY-MM-DD` (default today).
    pub date: Option<String>,
}

/// A pair's rate for a date: the last daily rate stored on or before it (a weekend or
/// holiday takes the previous fixing), within 14 days.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FxRateOnDto {
    /// Upper case, as asked (`USDKRW`; `KRWUSD` is read from `USDKRW` inverted).
    pub pair: String,
    /// The date asked for.
    pub date: String,
    /// One unit of the first currency in the second, decimal string; null when no rate
    /// is stored within 14 days before `date`.
    pub rate: Option<String>,
    /// The day `rate` was fixed (on or before `date`); null with `rate`.
    pub rate_date: Option<String>,
}

/// An instrument with its quote.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct Priced {
    pub instrument: InstrumentDto,
    pub quote: Option<QuoteDto>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct Movers {
    pub gainers: Vec<Priced>,
    pub losers: Vec<Priced>,
}

/// The home screen's market summary.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct Overview {
    pub indices: Vec<Priced>,
    pub fx: Vec<Priced>,
    pub movers: Movers,
}

#[derive(Deserialize, ToSchema)]
pub struct FavoritesRequest {
    /// Instrument ids in the order to keep (at most 100, no duplicates).
    pub ids: Vec<String>,
}

/// What each market's provider last did.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ProviderStatusDto {
    /// `krx`, `us`, `fx` or `crypto`.
    pub market: String,
    pub provider: String,
    pub last_success: Option<String>,
    pub last_error: Option<String>,
    pub last_error_at: Option<String>,
}

impl From<ProviderStatus> for ProviderStatusDto {
    fn from(s: ProviderStatus) -> Self {
        Self {
            market: s.market,
            provider: s.provider,
            last_success: s.last_success.map(rfc3339),
            last_error: s.last_error,
            last_error_at: s.last_error_at.map(rfc3339),
        }
    }
}
