//! Yahoo Finance, chart API v8 (`/v8/finance/chart/{symbol}`): daily candles, 5-minute
//! bars, dividends and splits, and quotes from the chart's `meta`. No key; the data is
//! delayed, so every quote is [`QuoteState::Delayed`].
//!
//! What is read, and the traps:
//!
//! - OHLC and volume come from `indicators.quote[0]`. Yahoo adjusts these for every
//!   split known when the request is made (AAPL's 2020-01-02 close reads 75.0875, its
//!   as-traded 300.35 divided by the 4:1 split of 2020-08-31; the volume is multiplied
//!   likewise), but **not** for dividends. That is what Moat wants, so they are used
//!   as they are. `indicators.adjclose` (adjusted for splits *and* dividends) is
//!   ignored.
//! - A bar whose open, high, low or close is `null` (no trade in that interval, or a
//!   placeholder) is skipped, never read as zero. A `null` volume with prices is 0.
//! - Timestamps are bar starts in UTC. A daily bar's date is the exchange-local date
//!   of its timestamp, in `meta.exchangeTimezoneName` (or `meta.gmtoffset` when the
//!   zone is unknown): a KRX bar stamped 2024-01-01T15:00Z is 2024-01-02 in Seoul.
//!   When Yahoo repeats a day (the session under way), the last bar wins.
//! - Dividends and splits come under `events`, as objects keyed by timestamp strings
//!   (`"1604673000": {"amount": 0.205, "date": 1604673000}`); their dates are
//!   exchange-local too. Dividend amounts keep their decimals (at most 6).
//! - `chart.error` non-null: "No data found…"/"Not Found" → `UnknownSymbol`, anything
//!   else → `Source(description)`. A 404 from the chart endpoint → `UnknownSymbol`.
//! - Floats become decimals through their shortest string, then the instrument's
//!   [`PriceGrid`] (see the [module documentation](super)).

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{DateTime, Days, FixedOffset, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Deserialize;

use super::http::{self, Expect};
use super::{decimal_from_f64, exchange_time_zone, round_price, shorten, PriceGrid};
use crate::{
    Bar, DailyCandle, Dividend, Exchange, Instrument, InstrumentId, PriceProvider, ProviderError,
    ProviderKind, Quote, QuoteState, Split, INTRADAY_BAR_MINUTES,
};

/// Where Yahoo's chart API lives.
pub const DEFAULT_BASE_URL: &str = "https://query1.finance.yahoo.com";

/// Moat's index ids and Yahoo's symbols for them.
pub const INDEX_SYMBOLS: [(&str, &str); 8] = [
    ("KOSPI", "^KS11"),
    ("KOSDAQ", "^KQ11"),
    ("KOSPI200", "^KS200"),
    ("SPX", "^GSPC"),
    ("IXIC", "^IXIC"),
    ("DJI", "^DJI"),
    ("NDX", "^NDX"),
    ("SOX", "^SOX"),
];

/// Yahoo's symbol for an instrument:
///
/// - `KRX:005930` → `005930.KS` on the KOSPI board, `.KQ` on KOSDAQ; a KRX instrument
///   without a board is taken as KOSPI (where KRX ETFs list);
/// - `NYSE:BRK.B` → `BRK-B` (Yahoo writes share classes with a dash);
/// - indices by [`INDEX_SYMBOLS`] (`INDEX:KOSPI` → `^KS11`, `INDEX:SPX` → `^GSPC`, …);
/// - `FX:USDKRW` → `KRW=X` (Yahoo's USD pairs drop the base), `FX:EURUSD` → `EURUSD=X`;
/// - `CRYPTO:BTC` → `BTC-USD` (in the instrument's currency, USD when empty).
///
/// Anything else is `Unsupported`.
pub fn yahoo_symbol(instrument: &Instrument) -> Result<String, ProviderError> {
    let symbol = instrument.id.symbol();
    match instrument.id.exchange() {
        Exchange::Krx => {
            let suffix = match instrument.board {
                Some(crate::Board::Kosdaq) => "KQ",
                Some(crate::Board::Kospi) | None => "KS",
            };
            Ok(format!("{symbol}.{suffix}"))
        }
        Exchange::Nyse | Exchange::Nasdaq => Ok(symbol.replace('.', "-")),
        Exchange::Index => INDEX_SYMBOLS
            .iter()
            .find(|(id, _)| *id == symbol)
            .map(|(_, y)| (*y).to_string())
            .ok_or(ProviderError::Unsupported),
        Exchange::Fx => {
            let valid = symbol.len() == 6 && symbol.bytes().all(|b| b.is_ascii_uppercase());
            if !valid {
                return Err(ProviderError::Unsupported);
            }
            let (base, quote) = symbol.split_at(3);
            if base == "USD" {
                Ok(format!("{quote}=X"))
            } else {
                Ok(format!("{base}{quote}=X"))
            }
        }
        Exchange::Crypto => {
            let currency = instrument.currency.trim();
            let currency = if currency.is_empty() { "USD" } else { currency };
            Ok(format!("{symbol}-{}", currency.to_ascii_uppercase()))
        }
    }
}

/// The chart's `meta`, the parts Moat reads.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartMeta {
    pub symbol: String,
    pub currency: Option<String>,
    /// `EQUITY`, `ETF`, `INDEX`, `CURRENCY`, `CRYPTOCURRENCY`, …
    pub instrument_type: Option<String>,
    /// `meta.exchangeTimezoneName`, e.g. `America/New_York`.
    pub exchange_timezone: Option<String>,
    /// `meta.gmtoffset`: seconds east of UTC at the time of the request.
    pub gmtoffset_secs: Option<i32>,
    pub regular_market_price: Option<Decimal>,
    pub regular_market_time: Option<DateTime<Utc>>,
    /// `meta.previousClose`: the previous session's close (only in some answers).
    pub previous_close: Option<Decimal>,
    /// `meta.chartPreviousClose`: the close before the first bar of the chart.
    pub chart_previous_close: Option<Decimal>,
    pub day_high: Option<Decimal>,
    pub day_low: Option<Decimal>,
    pub day_volume: Option<i64>,
    /// `1d`, `5m`, `1m`, …
    pub granularity: Option<String>,
}

/// One bar as Yahoo sent it: decimals not yet on a price grid.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartBar {
    pub start: DateTime<Utc>,
    /// The exchange-local date of `start`.
    pub date: NaiveDate,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
    pub volume: i64,
}

/// A parsed chart answer. Bars, dividends and splits are oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub meta: ChartMeta,
    /// Bars with all four prices present, split-adjusted, unrounded.
    pub bars: Vec<ChartBar>,
    pub dividends: Vec<Dividend>,
    pub splits: Vec<Split>,
}

impl Chart {
    /// The grid suggested by the chart itself (`meta.instrumentType`, `meta.currency`),
    /// for when no [`Instrument`] is at hand: currencies, indices and crypto by type;
    /// stocks and ETFs priced in KRW on the KRX grids (whole won), any other on the US
    /// equity grid (cents, 4 decimals below 1).
    pub fn grid(&self) -> PriceGrid {
        let krw = self
            .meta
            .currency
            .as_deref()
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("KRW"));
        match self.meta.instrument_type.as_deref() {
            Some("CURRENCY") => PriceGrid::Fx,
            Some("INDEX") => PriceGrid::Index,
            Some("CRYPTOCURRENCY") => PriceGrid::Crypto,
            Some("ETF") if krw => PriceGrid::KrxEtf,
            _ if krw => PriceGrid::KrxStock,
            _ => PriceGrid::UsEquity,
        }
    }

    /// The bars as daily candles on `grid`, one per exchange-local date (the last bar
    /// of a date wins), oldest first.
    pub fn daily_candles(&self, grid: PriceGrid) -> Vec<DailyCandle> {
        let mut candles: Vec<DailyCandle> = Vec::with_capacity(self.bars.len());
        for bar in &self.bars {
            let candle = DailyCandle {
                date: bar.date,
                open: round_price(grid, bar.open),
                high: round_price(grid, bar.high),
                low: round_price(grid, bar.low),
                close: round_price(grid, bar.close),
                volume: bar.volume,
            };
            match candles.last_mut() {
                Some(last) if last.date == candle.date => *last = candle,
                _ => candles.push(candle),
            }
        }
        candles
    }

    /// The bars as intraday bars on `grid`, oldest first.
    pub fn intraday_bars(&self, grid: PriceGrid) -> Vec<Bar> {
        self.bars
            .iter()
            .map(|bar| Bar {
                start: bar.start,
                open: round_price(grid, bar.open),
                high: round_price(grid, bar.high),
                low: round_price(grid, bar.low),
                close: round_price(grid, bar.close),
                volume: bar.volume,
            })
            .collect()
    }

    /// A quote from the chart's `meta`, with the daily bars filling the gaps:
    ///
    /// - price: `regularMarketPrice`; as of: `regularMarketTime` (both required);
    /// - previous close: `meta.previousClose`, else the close of the last bar dated
    ///   before the session of `regularMarketTime`, else `chartPreviousClose`;
    /// - open: the session's bar, else the price; high and low: `regularMarketDayHigh`/
    ///   `Low`, else the session's bar, else the price; volume likewise from
    ///   `regularMarketVolume`, else 0.
    pub fn quote(
        &self,
        instrument_id: &InstrumentId,
        grid: PriceGrid,
    ) -> Result<Quote, ProviderError> {
        let missing = |what: &str| ProviderError::Malformed(format!("chart meta without {what}"));
        let price = self
            .meta
            .regular_market_price
            .ok_or_else(|| missing("regularMarketPrice"))?;
        let as_of = self
            .meta
            .regular_market_time
            .ok_or_else(|| missing("regularMarketTime"))?;
        let session = self.local_date(as_of.timestamp());
        let session_bar = self.bars.iter().rev().find(|b| b.date == session);
        let previous_close = self
            .meta
            .previous_close
            .or_else(|| {
                self.bars
                    .iter()
                    .rev()
                    .find(|b| b.date < session)
                    .map(|b| b.close)
            })
            .or(self.meta.chart_previous_close)
            .ok_or_else(|| missing("a previous close"))?;
        let open = session_bar.map(|b| b.open).unwrap_or(price);
        let high = self
            .meta
            .day_high
            .or(session_bar.map(|b| b.high))
            .unwrap_or(price);
        let low = self
            .meta
            .day_low
            .or(session_bar.map(|b| b.low))
            .unwrap_or(price);
        let volume = self
            .meta
            .day_volume
            .or(session_bar.map(|b| b.volume))
            .unwrap_or(0);
        Ok(Quote {
            instrument_id: instrument_id.clone(),
            price: round_price(grid, price),
            previous_close: round_price(grid, previous_close),
            open: round_price(grid, open),
            high: round_price(grid, high),
            low: round_price(grid, low),
            volume,
            as_of,
            state: QuoteState::Delayed,
            source: ProviderKind::Yahoo.as_str().to_string(),
            simulated: false,
        })
    }

    fn local_date(&self, timestamp: i64) -> NaiveDate {
        local_date(
            timestamp,
            self.meta.exchange_timezone.as_deref(),
            self.meta.gmtoffset_secs,
        )
    }
}

/// The exchange-local date of a Unix time: in the named zone when chrono-tz knows it,
/// else at the fixed `gmtoffset`, else in UTC.
fn local_date(timestamp: i64, zone: Option<&str>, gmtoffset: Option<i32>) -> NaiveDate {
    let utc = DateTime::<Utc>::from_timestamp(timestamp, 0).unwrap_or_default();
    if let Some(tz) = zone.and_then(|z| z.parse::<Tz>().ok()) {
        return utc.with_timezone(&tz).date_naive();
    }
    if let Some(offset) = gmtoffset.and_then(FixedOffset::east_opt) {
        return utc.with_timezone(&offset).date_naive();
    }
    utc.date_naive()
}

#[derive(Deserialize)]
struct Envelope {
    chart: Option<RawChart>,
}

#[derive(Deserialize)]
struct RawChart {
    result: Option<Vec<RawResult>>,
    error: Option<RawError>,
}

#[derive(Deserialize)]
struct RawError {
    code: Option<String>,
    description: Option<String>,
}

#[derive(Deserialize)]
struct RawResult {
    meta: RawMeta,
    #[serde(default)]
    timestamp: Option<Vec<Option<i64>>>,
    events: Option<RawEvents>,
    indicators: Option<RawIndicators>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMeta {
    symbol: Option<String>,
    currency: Option<String>,
    instrument_type: Option<String>,
    exchange_timezone_name: Option<String>,
    gmtoffset: Option<i64>,
    regular_market_price: Option<f64>,
    regular_market_time: Option<i64>,
    previous_close: Option<f64>,
    chart_previous_close: Option<f64>,
    regular_market_day_high: Option<f64>,
    regular_market_day_low: Option<f64>,
    regular_market_volume: Option<f64>,
    data_granularity: Option<String>,
}

#[derive(Deserialize)]
struct RawEvents {
    dividends: Option<HashMap<String, RawDividend>>,
    splits: Option<HashMap<String, RawSplit>>,
}

#[derive(Deserialize)]
struct RawDividend {
    amount: Option<f64>,
    date: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawSplit {
    date: Option<i64>,
    numerator: Option<f64>,
    denominator: Option<f64>,
    split_ratio: Option<String>,
}

#[derive(Deserialize)]
struct RawIndicators {
    #[serde(default)]
    quote: Vec<RawQuote>,
}

#[derive(Deserialize, Default)]
struct RawQuote {
    open: Option<Vec<Option<f64>>>,
    high: Option<Vec<Option<f64>>>,
    low: Option<Vec<Option<f64>>>,
    close: Option<Vec<Option<f64>>>,
    volume: Option<Vec<Option<f64>>>,
}

/// Parses a chart answer (the body of `/v8/finance/chart/{symbol}`).
pub fn parse_chart(body: &[u8]) -> Result<Chart, ProviderError> {
    let trimmed = body.trim_ascii_start();
    if trimmed.first() == Some(&b'<') {
        return Err(ProviderError::Malformed("HTML instead of JSON".into()));
    }
    let envelope: Envelope = serde_json::from_slice(body)
        .map_err(|e| ProviderError::Malformed(format!("not a Yahoo chart: {e}")))?;
    let chart = envelope
        .chart
        .ok_or_else(|| ProviderError::Malformed("not a Yahoo chart: no `chart`".into()))?;
    if let Some(error) = chart.error {
        return Err(chart_error(&error));
    }
    let result = chart
        .result
        .and_then(|r| r.into_iter().next())
        .ok_or_else(|| ProviderError::Malformed("a Yahoo chart without a result".into()))?;
    let meta = read_meta(result.meta)?;
    let zone = meta.exchange_timezone.clone();
    let offset = meta.gmtoffset_secs;
    let date_of = |ts: i64| local_date(ts, zone.as_deref(), offset);

    let timestamps = result.timestamp.unwrap_or_default();
    let quote = result
        .indicators
        .and_then(|i| i.quote.into_iter().next())
        .unwrap_or_default();
    if !timestamps.is_empty() && quote.close.is_none() {
        return Err(ProviderError::Malformed(
            "a Yahoo chart with timestamps but no prices".into(),
        ));
    }
    let at = |series: &Option<Vec<Option<f64>>>, i: usize| {
        series.as_ref().and_then(|s| s.get(i).copied().flatten())
    };
    let mut bars = Vec::with_capacity(timestamps.len());
    for (i, ts) in timestamps.iter().enumerate() {
        let (Some(ts), Some(o), Some(h), Some(l), Some(c)) = (
            *ts,
            at(&quote.open, i),
            at(&quote.high, i),
            at(&quote.low, i),
            at(&quote.close, i),
        ) else {
            continue;
        };
        let start = DateTime::<Utc>::from_timestamp(ts, 0)
            .ok_or_else(|| ProviderError::Malformed(format!("timestamp out of range: {ts}")))?;
        bars.push(ChartBar {
            start,
            date: date_of(ts),
            open: decimal_from_f64(o)?,
            high: decimal_from_f64(h)?,
            low: decimal_from_f64(l)?,
            close: decimal_from_f64(c)?,
            volume: at(&quote.volume, i).map(volume_from_f64).unwrap_or(0),
        });
    }
    bars.sort_by_key(|b| b.start);

    let currency = meta.currency.clone().unwrap_or_default();
    let mut dividends = Vec::new();
    let mut splits = Vec::new();
    if let Some(events) = result.events {
        for (key, d) in events.dividends.unwrap_or_default() {
            let ts = event_time(d.date, &key)?;
            let amount = d.amount.ok_or_else(|| {
                ProviderError::Malformed(format!("dividend {key} without an amount"))
            })?;
            let amount = decimal_from_f64(amount)?
                .round_dp_with_strategy(6, RoundingStrategy::MidpointAwayFromZero)
                .normalize();
            dividends.push(Dividend {
                ex_date: date_of(ts),
                pay_date: None,
                record_date: None,
                amount,
                currency: currency.clone(),
            });
        }
        for (key, s) in events.splits.unwrap_or_default() {
            let ts = event_time(s.date, &key)?;
            let (numerator, denominator) = split_ratio(&s)
                .ok_or_else(|| ProviderError::Malformed(format!("split {key} without a ratio")))?;
            splits.push(Split {
                date: date_of(ts),
                numerator,
                denominator,
            });
        }
    }
    dividends.sort_by_key(|d| d.ex_date);
    splits.sort_by_key(|s| s.date);
    Ok(Chart {
        meta,
        bars,
        dividends,
        splits,
    })
}

fn chart_error(error: &RawError) -> ProviderError {
    let code = error.code.as_deref().unwrap_or("");
    let description = error.description.as_deref().unwrap_or("");
    let text = format!("{code} {description}").to_ascii_lowercase();
    if text.contains("no data found") || text.contains("not found") || text.contains("delisted") {
        ProviderError::UnknownSymbol
    } else {
        let message = if description.is_empty() {
            code
        } else {
            description
        };
        ProviderError::Source(shorten(message, 200))
    }
}

fn read_meta(raw: RawMeta) -> Result<ChartMeta, ProviderError> {
    let decimal = |v: Option<f64>| v.map(decimal_from_f64).transpose();
    Ok(ChartMeta {
        symbol: raw.symbol.unwrap_or_default(),
        currency: raw.currency.filter(|c| !c.is_empty()),
        instrument_type: raw.instrument_type,
        exchange_timezone: raw.exchange_timezone_name,
        gmtoffset_secs: raw.gmtoffset.and_then(|o| i32::try_from(o).ok()),
        regular_market_price: decimal(raw.regular_market_price)?,
        regular_market_time: raw
            .regular_market_time
            .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0)),
        previous_close: decimal(raw.previous_close)?,
        chart_previous_close: decimal(raw.chart_previous_close)?,
        day_high: decimal(raw.regular_market_day_high)?,
        day_low: decimal(raw.regular_market_day_low)?,
        day_volume: raw.regular_market_volume.map(volume_from_f64),
        granularity: raw.data_granularity,
    })
}

/// A JSON volume (an integer, sometimes written as a float) as whole units.
fn volume_from_f64(v: f64) -> i64 {
    if v.is_finite() && v > 0.0 {
        // `as` saturates; volumes are far below 2^53 in practice.
        v.round() as i64
    } else {
        0
    }
}

/// An event's time: its `date` field, else its key.
fn event_time(date: Option<i64>, key: &str) -> Result<i64, ProviderError> {
    date.or_else(|| key.trim().parse().ok())
        .ok_or_else(|| ProviderError::Malformed(format!("event without a time: {key}")))
}

/// `numerator`/`denominator`, else `splitRatio` (`"4:1"`, `"1:10"`), as whole numbers.
fn split_ratio(s: &RawSplit) -> Option<(u32, u32)> {
    let whole = |v: f64| {
        (v.is_finite() && v >= 1.0 && v.fract() == 0.0 && v <= u32::MAX as f64).then_some(v as u32)
    };
    if let (Some(n), Some(d)) = (s.numerator.and_then(whole), s.denominator.and_then(whole)) {
        return Some((n, d));
    }
    let (n, d) = s.split_ratio.as_deref()?.split_once([':', '/'])?;
    let n: u32 = n.trim().parse().ok()?;
    let d: u32 = d.trim().parse().ok()?;
    (n > 0 && d > 0).then_some((n, d))
}

/// Yahoo Finance as a [`PriceProvider`].
#[derive(Debug, Clone)]
pub struct YahooProvider {
    client: reqwest::Client,
    base_url: String,
}

impl YahooProvider {
    /// `base_url` is [`DEFAULT_BASE_URL`] in production; tests point it elsewhere.
    pub fn new(client: reqwest::Client, base_url: impl Into<String>) -> Self {
        Self {
            client,
            base_url: base_url.into(),
        }
    }

    /// [`http::client`] and [`DEFAULT_BASE_URL`].
    pub fn with_defaults() -> Self {
        Self::new(http::client(), DEFAULT_BASE_URL)
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// GETs and parses one chart. A 404 is an unknown symbol.
    pub async fn chart(
        &self,
        symbol: &str,
        query: &[(&str, &str)],
    ) -> Result<Chart, ProviderError> {
        let url = http::url(&self.base_url, &["v8", "finance", "chart", symbol], query)?;
        let fetched = http::fetch(&self.client, url).await?;
        if fetched.status == 404 {
            return Err(ProviderError::UnknownSymbol);
        }
        http::check(&fetched, Expect::Json, Utc::now())?;
        parse_chart(&fetched.body)
    }

    /// The daily chart with events for `from..=to`, asked with a day of margin either
    /// side (bars are then kept by exchange-local date).
    async fn daily_chart(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Chart, ProviderError> {
        let symbol = yahoo_symbol(instrument)?;
        let period1 = utc_midnight(from.checked_sub_days(Days::new(1)).unwrap_or(from));
        let period2 = utc_midnight(to.checked_add_days(Days::new(2)).unwrap_or(to));
        let (p1, p2) = (period1.to_string(), period2.to_string());
        self.chart(
            &symbol,
            &[
                ("period1", &p1),
                ("period2", &p2),
                ("interval", "1d"),
                ("events", "div,splits"),
                ("includePrePost", "false"),
            ],
        )
        .await
    }
}

fn utc_midnight(date: NaiveDate) -> i64 {
    date.and_time(NaiveTime::MIN).and_utc().timestamp()
}

#[async_trait]
impl PriceProvider for YahooProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Yahoo
    }

    async fn daily_candles(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<DailyCandle>, ProviderError> {
        if from > to {
            return Ok(Vec::new());
        }
        let chart = self.daily_chart(instrument, from, to).await?;
        let grid = PriceGrid::from(instrument);
        Ok(chart
            .daily_candles(grid)
            .into_iter()
            .filter(|c| (from..=to).contains(&c.date))
            .collect())
    }

    /// 5-minute bars of the regular session (`interval=5m`, `includePrePost=false`)
    /// between local midnights of `date`; bars starting after `now`, on another local
    /// date, or off the 5-minute grid (Yahoo's running last point) are dropped.
    async fn intraday_bars(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<Vec<Bar>, ProviderError> {
        let symbol = yahoo_symbol(instrument)?;
        let tz = exchange_time_zone(instrument.market());
        let local_midnight = |d: NaiveDate| {
            tz.from_local_datetime(&d.and_time(NaiveTime::MIN))
                .earliest()
                .map(|t| t.timestamp())
                .unwrap_or_else(|| utc_midnight(d))
        };
        let next = date.checked_add_days(Days::new(1)).unwrap_or(date);
        let (p1, p2) = (
            local_midnight(date).to_string(),
            local_midnight(next).to_string(),
        );
        let chart = self
            .chart(
                &symbol,
                &[
                    ("period1", &p1),
                    ("period2", &p2),
                    ("interval", "5m"),
                    ("includePrePost", "false"),
                ],
            )
            .await?;
        let step = i64::from(INTRADAY_BAR_MINUTES) * 60;
        let grid = PriceGrid::from(instrument);
        Ok(chart
            .intraday_bars(grid)
            .into_iter()
            .filter(|b| {
                b.start <= now
                    && b.start.timestamp() % step == 0
                    && b.start.with_timezone(&tz).date_naive() == date
            })
            .collect())
    }

    /// From the meta of a 5-day daily chart (see [`Chart::quote`]); always `Delayed`.
    async fn quote(
        &self,
        instrument: &Instrument,
        _now: DateTime<Utc>,
    ) -> Result<Quote, ProviderError> {
        let symbol = yahoo_symbol(instrument)?;
        let chart = self
            .chart(
                &symbol,
                &[
                    ("range", "5d"),
                    ("interval", "1d"),
                    ("includePrePost", "false"),
                ],
            )
            .await?;
        chart.quote(&instrument.id, PriceGrid::from(instrument))
    }

    async fn corporate_actions(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<(Vec<Dividend>, Vec<Split>), ProviderError> {
        if from > to {
            return Ok((Vec::new(), Vec::new()));
        }
        let chart = self.daily_chart(instrument, from, to).await?;
        let range = from..=to;
        let mut dividends = chart.dividends;
        dividends.retain(|d| range.contains(&d.ex_date));
        if dividends.iter().any(|d| d.currency.is_empty()) {
            for d in &mut dividends {
                d.currency = instrument.currency.clone();
            }
        }
        let mut splits = chart.splits;
        splits.retain(|s| range.contains(&s.date));
        Ok((dividends, splits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Kind};

    fn instrument(id: &str, kind: Kind, board: Option<Board>, currency: &str) -> Instrument {
        Instrument {
            id: id.parse().unwrap(),
            kind,
            board,
            currency: currency.into(),
            country: String::new(),
            name_ko: String::new(),
            name_en: String::new(),
            sector: String::new(),
            shares_outstanding: None,
            reference_price: None,
            popularity: 0,
            aliases: Vec::new(),
        }
    }

    #[test]
    fn providers_yahoo_symbols_map_from_moat_ids() {
        let cases = [
            (
                instrument("KRX:005930", Kind::Stock, Some(Board::Kospi), "KRW"),
                "005930.KS",
            ),
            (
                instrument("KRX:247540", Kind::Stock, Some(Board::Kosdaq), "KRW"),
                "247540.KQ",
            ),
            (
                instrument("KRX:069500", Kind::Etf, None, "KRW"),
                "069500.KS",
            ),
            (instrument("NYSE:BRK.B", Kind::Stock, None, "USD"), "BRK-B"),
            (instrument("NASDAQ:AAPL", Kind::Stock, None, "USD"), "AAPL"),
            (instrument("INDEX:KOSPI", Kind::Index, None, "KRW"), "^KS11"),
            (
                instrument("INDEX:KOSDAQ", Kind::Index, None, "KRW"),
                "^KQ11",
            ),
            (
                instrument("INDEX:KOSPI200", Kind::Index, None, "KRW"),
                "^KS200",
            ),
            (instrument("INDEX:SPX", Kind::Index, None, "USD"), "^GSPC"),
            (instrument("INDEX:IXIC", Kind::Index, None, "USD"), "^IXIC"),
            (instrument("INDEX:DJI", Kind::Index, None, "USD"), "^DJI"),
            (instrument("INDEX:NDX", Kind::Index, None, "USD"), "^NDX"),
            (instrument("INDEX:SOX", Kind::Index, None, "USD"), "^SOX"),
            (
                instrument("FX:USDKRW", Kind::Currency, None, "KRW"),
                "KRW=X",
            ),
            (
                instrument("FX:EURUSD", Kind::Currency, None, "USD"),
                "EURUSD=X",
            ),
            (
                instrument("CRYPTO:BTC", Kind::Crypto, None, "USD"),
                "BTC-USD",
            ),
        ];
        for (i, want) in cases {
            assert_eq!(yahoo_symbol(&i).unwrap(), want, "{}", i.id);
        }
        for id in ["INDEX:FTSE", "FX:USD"] {
            let i = instrument(id, Kind::Index, None, "USD");
            assert!(
                matches!(yahoo_symbol(&i), Err(ProviderError::Unsupported)),
                "{id}"
            );
        }
    }

    const CHART: &str = r#"{"chart":{"result":[{"meta":{"currency":"KRW","symbol":"005930.KS",
        "exchangeTimezoneName":"Asia/Seoul","gmtoffset":32400,"instrumentType":"EQUITY",
        "regularMarketPrice":71200.0,"regularMarketTime":1704178800,"chartPreviousClose":70000.0},
        "timestamp":[1704096000,1704153600,1704182400],
        "events":{"dividends":{"1704153600":{"amount":361.0,"date":1704153600}}},
        "indicators":{"quote":[{"open":[70100.0,null,71000.0],"high":[71500.0,null,71600.0],
        "low":[69900.0,null,70900.0],"close":[71200.0,null,71300.0],"volume":[1000,null,null]}]}}],
        "error":null}}"#;

    #[test]
    fn providers_yahoo_null_bars_are_skipped_and_dates_are_exchange_local() {
        let chart = parse_chart(CHART.as_bytes()).unwrap();
        // 1704096000 = 2024-01-01T08:00Z = 17:00 in Seoul; 1704182400 = 2024-01-02T08:00Z.
        let dates: Vec<_> = chart.bars.iter().map(|b| b.date.to_string()).collect();
        assert_eq!(dates, ["2024-01-01", "2024-01-02"]);
        let candles = chart.daily_candles(chart.grid());
        assert_eq!(candles.len(), 2);
        assert_eq!(candles[1].close, Decimal::from(71300));
        assert_eq!(candles[1].volume, 0, "a null volume with prices is 0");
        // 1704153600 = 2024-01-02T00:00Z = 09:00 in Seoul.
        assert_eq!(chart.dividends.len(), 1);
        assert_eq!(chart.dividends[0].ex_date.to_string(), "2024-01-02");
        assert_eq!(chart.dividends[0].amount, Decimal::from(361));
        assert_eq!(chart.dividends[0].currency, "KRW");
    }

    #[test]
    fn providers_yahoo_dates_fall_back_to_the_gmt_offset() {
        let body = CHART.replace("Asia/Seoul", "Nowhere/Unknown");
        let chart = parse_chart(body.as_bytes()).unwrap();
        assert_eq!(chart.bars[0].date.to_string(), "2024-01-01");
        let body = CHART.replace("\"exchangeTimezoneName\":\"Asia/Seoul\",", "");
        let chart = parse_chart(body.as_bytes()).unwrap();
        assert_eq!(chart.bars[1].date.to_string(), "2024-01-02");
    }

    #[test]
    fn providers_yahoo_chart_errors_are_classified() {
        let not_found = r#"{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be delisted"}}}"#;
        assert!(matches!(
            parse_chart(not_found.as_bytes()),
            Err(ProviderError::UnknownSymbol)
        ));
        let bad = r#"{"chart":{"result":null,"error":{"code":"Bad Request","description":"Invalid input - interval=5m is not supported"}}}"#;
        match parse_chart(bad.as_bytes()) {
            Err(ProviderError::Source(m)) => {
                assert_eq!(m, "Invalid input - interval=5m is not supported")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_chart(b"<html></html>"),
            Err(ProviderError::Malformed(_))
        ));
        assert!(matches!(
            parse_chart(b"{\"x\":1}"),
            Err(ProviderError::Malformed(_))
        ));
        assert!(matches!(
            parse_chart(b"{\"chart\":{\"result\":[],\"error\":null}}"),
            Err(ProviderError::Malformed(_))
        ));
    }

    #[test]
    fn providers_yahoo_quote_takes_the_previous_close_from_the_bars_before_the_session() {
        let chart = parse_chart(CHART.as_bytes()).unwrap();
        let quote = chart
            .quote(&"KRX:005930".parse().unwrap(), PriceGrid::KrxStock)
            .unwrap();
        assert_eq!(quote.price, Decimal::from(71200));
        // regularMarketTime 1704178800 = 2024-01-02 16:00 KST; the 2024-01-01 bar closed 71200.
        assert_eq!(quote.previous_close, Decimal::from(71200));
        assert_eq!(quote.open, Decimal::from(71000));
        assert_eq!(quote.high, Decimal::from(71600));
        assert_eq!(quote.state, QuoteState::Delayed);
        assert_eq!(quote.source, "yahoo");
        assert!(!quote.simulated);
    }

    #[test]
    fn providers_yahoo_split_ratios_come_from_numbers_or_the_ratio_string() {
        let s = |n: Option<f64>, d: Option<f64>, r: Option<&str>| RawSplit {
            date: None,
            numerator: n,
            denominator: d,
            split_ratio: r.map(String::from),
        };
        assert_eq!(split_ratio(&s(Some(4.0), Some(1.0), None)), Some((4, 1)));
        assert_eq!(split_ratio(&s(None, None, Some("1:10"))), Some((1, 10)));
        assert_eq!(
            split_ratio(&s(Some(1.5), Some(1.0), Some("3:2"))),
            Some((3, 2))
        );
        assert_eq!(split_ratio(&s(None, None, Some("x"))), None);
    }
}
