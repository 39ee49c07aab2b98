//! Alpha Vantage (`/query?function=…&apikey=…`): US stocks and ETFs, and FX.
//!
//! Coverage, and why:
//!
//! - **US stocks and ETFs** (`NYSE:`, `NASDAQ:`; `BRK.B` is sent as `BRK-B`).
//!   KRX stocks (Alpha Vantage's `.KRX`/`.KS` coverage is patchy and unreliable),
//!   indices, crypto and currency pairs are `Unsupported` as instruments; FX rates
//!   come through [`FxProvider`] (`FX_DAILY`).
//! - **Daily candles**: on the free tier `TIME_SERIES_DAILY` gives as-traded prices,
//!   so a second call (`SPLITS`) fetches the split history and the candles are
//!   adjusted here: prices of days before a split are divided by its ratio, volumes
//!   multiplied. With [`AlphaVantageProvider::with_premium`] a single
//!   `TIME_SERIES_DAILY_ADJUSTED` call is made instead and its `8. split coefficient`
//!   column drives the same adjustment (its `5. adjusted close`, which is also
//!   dividend-adjusted, is not used). `outputsize=compact` (the last 100 sessions)
//!   when `from` is within the last 140 days, else `full`.
//! - **Quotes**: `GLOBAL_QUOTE`, marked `Delayed`, `as_of` the close (16:00 New York)
//!   of its `latest trading day`, or `now` when that is earlier. An empty
//!   `"Global Quote": {}` means an unknown symbol.
//! - **Intraday bars: `Unsupported`.** The free tier allows 25 calls a day and gives
//!   no current-session intraday data (real-time and 15-minute-delayed intraday are
//!   premium entitlements), which makes it useless for a live 1D chart.
//! - **Corporate actions**: `DIVIDENDS` and `SPLITS`.
//!
//! Errors come with HTTP 200 and one key: `Note` or `Information` (rate limit,
//! premium endpoint) → `RateLimited`, except an `Information` about a missing,
//! invalid or demo API key → `Source`; `Error Message` → `UnknownSymbol` when it is the
//! "Invalid API call" answer to a call with a symbol, else `Source`. Numbers arrive as
//! strings and are parsed straight into decimals.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Days, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use rust_decimal::Decimal;
use serde_json::{Map, Value};

use super::http::{self, Expect};
use super::{currency_code, round_price, round_rate, shorten, PriceGrid};
use crate::{
    Bar, DailyCandle, Dividend, Exchange, FxProvider, FxRate, Instrument, InstrumentId, Kind,
    PriceProvider, ProviderError, ProviderKind, Quote, QuoteState, Split,
};

/// Where Alpha Vantage lives.
pub const DEFAULT_BASE_URL: &str = "https://www.alphavantage.co";

/// `compact` covers the last 100 sessions: about 140 calendar days.
const COMPACT_DAYS: u64 = 140;

/// Alpha Vantage's symbol for an instrument: US stocks and ETFs only, share classes
/// with a dash (`NYSE:BRK.B` → `BRK-B`). Everything else is `Unsupported`.
pub fn av_symbol(instrument: &Instrument) -> Result<String, ProviderError> {
    match (instrument.id.exchange(), instrument.kind) {
        (Exchange::Nyse | Exchange::Nasdaq, Kind::Stock | Kind::Etf) => {
            Ok(instrument.id.symbol().replace('.', "-"))
        }
        _ => Err(ProviderError::Unsupported),
    }
}

/// Parses `body` as a JSON object and turns Alpha Vantage's in-band errors into
/// [`ProviderError`]s (see the module documentation). `has_symbol`: the call named a
/// symbol or currency, so "Invalid API call" means that symbol is unknown.
pub fn read_body(body: &[u8], has_symbol: bool) -> Result<Map<String, Value>, ProviderError> {
    if body.trim_ascii_start().first() == Some(&b'<') {
        return Err(ProviderError::Malformed("HTML instead of JSON".into()));
    }
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ProviderError::Malformed(format!("not JSON: {e}")))?;
    let Value::Object(object) = value else {
        return Err(ProviderError::Malformed("not a JSON object".into()));
    };
    let text = |key: &str| {
        object.get(key).map(|v| {
            v.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string())
        })
    };
    if text("Note").is_some() {
        return Err(ProviderError::RateLimited {
            retry_after_secs: None,
        });
    }
    if let Some(info) = text("Information") {
        let lower = info.to_ascii_lowercase();
        let limited = [
            "rate limit",
            "premium",
            "call frequency",
            "requests per",
            "per day",
            "per minute",
        ]
        .iter()
        .any(|w| lower.contains(w));
        let key_problem = (lower.contains("api key") || lower.contains("apikey"))
            && ["invalid", "missing", "demo"]
                .iter()
                .any(|w| lower.contains(w));
        if key_problem && !limited {
            return Err(ProviderError::Source(shorten(&info, 200)));
        }
        return Err(ProviderError::RateLimited {
            retry_after_secs: None,
        });
    }
    if let Some(message) = text("Error Message") {
        if has_symbol && message.to_ascii_lowercase().contains("invalid api call") {
            return Err(ProviderError::UnknownSymbol);
        }
        return Err(ProviderError::Source(shorten(&message, 200)));
    }
    Ok(object)
}

/// A field name without Alpha Vantage's `"N. "` numbering: `"4. close"` → `"close"`,
/// `"5. Exchange Rate"` → `"exchange rate"` (lower-cased).
fn field_name(key: &str) -> String {
    let name = match key.split_once(". ") {
        Some((n, rest))
            if n.len() <= 3
                && n.starts_with(|c: char| c.is_ascii_digit())
                && n.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            rest
        }
        _ => key,
    };
    name.trim().to_ascii_lowercase()
}

/// The fields of an object by [`field_name`].
fn fields(object: &Map<String, Value>) -> BTreeMap<String, &Value> {
    object.iter().map(|(k, v)| (field_name(k), v)).collect()
}

fn malformed(what: impl std::fmt::Display) -> ProviderError {
    ProviderError::Malformed(what.to_string())
}

fn get_str<'a>(fields: &BTreeMap<String, &'a Value>, name: &str) -> Option<&'a str> {
    fields.get(name).and_then(|v| v.as_str()).map(str::trim)
}

fn req_decimal(fields: &BTreeMap<String, &Value>, name: &str) -> Result<Decimal, ProviderError> {
    let s = get_str(fields, name).ok_or_else(|| malformed(format!("missing `{name}`")))?;
    parse_decimal(s)
        .ok_or_else(|| malformed(format!("`{name}` is not a number: {}", shorten(s, 40))))
}

fn opt_decimal(
    fields: &BTreeMap<String, &Value>,
    name: &str,
) -> Result<Option<Decimal>, ProviderError> {
    match get_str(fields, name) {
        None | Some("") | Some("None") | Some("-") => Ok(None),
        Some(_) => req_decimal(fields, name).map(Some),
    }
}

/// A decimal string, also in exponent form; a trailing `%` is dropped.
fn parse_decimal(s: &str) -> Option<Decimal> {
    let s = s.trim().trim_end_matches('%');
    s.parse::<Decimal>()
        .ok()
        .or_else(|| Decimal::from_scientific(s).ok())
}

fn parse_volume(s: &str) -> Option<i64> {
    let s = s.trim();
    s.parse::<i64>().ok().or_else(|| {
        let d = parse_decimal(s)?;
        (d >= Decimal::ZERO)
            .then(|| i64::try_from(d.round()).ok())
            .flatten()
    })
}

fn parse_date(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d").ok()
}

fn opt_date(fields: &BTreeMap<String, &Value>, name: &str) -> Option<NaiveDate> {
    get_str(fields, name).and_then(parse_date)
}

/// One row of a time series, as sent (no adjustment, no rounding).
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesRow {
    /// The row's key: a date (at 00:00) for daily series, a local date-time for
    /// intraday ones (in [`TimeSeries::time_zone`]).
    pub stamp: NaiveDateTime,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub close: Decimal,
    /// Absent in FX series.
    pub volume: Option<i64>,
    /// `TIME_SERIES_DAILY_ADJUSTED` only: adjusted for splits and dividends.
    pub adjusted_close: Option<Decimal>,
    pub dividend_amount: Option<Decimal>,
    pub split_coefficient: Option<Decimal>,
}

/// A parsed `Time Series …` answer (`TIME_SERIES_DAILY`, `…_DAILY_ADJUSTED`,
/// `…_INTRADAY`, `FX_DAILY`), rows oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSeries {
    /// `Meta Data` → `Symbol` (or `From Symbol` for FX).
    pub symbol: Option<String>,
    /// `Meta Data` → `To Symbol` for FX.
    pub to_symbol: Option<String>,
    /// `Meta Data` → `Time Zone` (`US/Eastern`, `UTC`).
    pub time_zone: Option<String>,
    pub rows: Vec<SeriesRow>,
}

/// Parses any `Time Series …` answer.
pub fn parse_time_series(body: &[u8]) -> Result<TimeSeries, ProviderError> {
    let object = read_body(body, true)?;
    let meta = object
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Meta Data"))
        .and_then(|(_, v)| v.as_object())
        .map(fields)
        .unwrap_or_default();
    let series = object
        .iter()
        .find(|(k, _)| k.starts_with("Time Series"))
        .and_then(|(_, v)| v.as_object())
        .ok_or_else(|| malformed("no `Time Series` in the answer"))?;
    let mut rows = Vec::with_capacity(series.len());
    for (key, value) in series {
        let stamp = NaiveDateTime::parse_from_str(key.trim(), "%Y-%m-%d %H:%M:%S")
            .or_else(|_| NaiveDateTime::parse_from_str(key.trim(), "%Y-%m-%d %H:%M"))
            .ok()
            .or_else(|| parse_date(key).map(|d| d.and_time(NaiveTime::MIN)))
            .ok_or_else(|| malformed(format!("not a date: {}", shorten(key, 40))))?;
        let row = value
            .as_object()
            .map(fields)
            .ok_or_else(|| malformed(format!("row {key} is not an object")))?;
        let volume = match get_str(&row, "volume") {
            Some(v) => {
                Some(parse_volume(v).ok_or_else(|| malformed(format!("bad volume on {key}")))?)
            }
            None => None,
        };
        rows.push(SeriesRow {
            stamp,
            open: req_decimal(&row, "open")?,
            high: req_decimal(&row, "high")?,
            low: req_decimal(&row, "low")?,
            close: req_decimal(&row, "close")?,
            volume,
            adjusted_close: opt_decimal(&row, "adjusted close")?,
            dividend_amount: opt_decimal(&row, "dividend amount")?,
            split_coefficient: opt_decimal(&row, "split coefficient")?,
        });
    }
    rows.sort_by_key(|r| r.stamp);
    Ok(TimeSeries {
        symbol: get_str(&meta, "symbol")
            .or_else(|| get_str(&meta, "from symbol"))
            .map(str::to_string),
        to_symbol: get_str(&meta, "to symbol").map(str::to_string),
        time_zone: meta
            .iter()
            .find(|(k, _)| k.ends_with("time zone"))
            .and_then(|(_, v)| v.as_str())
            .map(str::to_string),
        rows,
    })
}

impl TimeSeries {
    /// Intraday rows as bars, their labels read as bar starts in the series' time zone
    /// (UTC when it is unknown), unrounded. Whether Alpha Vantage labels bars by their
    /// start or end has varied; Moat does not use its intraday data (see the module
    /// documentation).
    pub fn bars(&self) -> Vec<Bar> {
        let tz: Tz = self
            .time_zone
            .as_deref()
            .and_then(|z| z.parse().ok())
            .unwrap_or(chrono_tz::UTC);
        self.rows
            .iter()
            .filter_map(|r| {
                let start = tz
                    .from_local_datetime(&r.stamp)
                    .earliest()?
                    .with_timezone(&Utc);
                Some(Bar {
                    start,
                    open: r.open,
                    high: r.high,
                    low: r.low,
                    close: r.close,
                    volume: r.volume.unwrap_or(0),
                })
            })
            .collect()
    }

    /// The splits recorded in a `TIME_SERIES_DAILY_ADJUSTED` series (rows whose split
    /// coefficient is not 1).
    pub fn splits(&self) -> Vec<Split> {
        self.rows
            .iter()
            .filter_map(|r| {
                let c = r.split_coefficient?;
                if c == Decimal::ONE {
                    return None;
                }
                let (numerator, denominator) = split_from_factor(c)?;
                Some(Split {
                    date: r.stamp.date(),
                    numerator,
                    denominator,
                })
            })
            .collect()
    }
}

/// A split factor (`4.0000`, `0.3333`, `1.5`) as a ratio of small whole numbers
/// (4/1, 1/3, 3/2): the smallest denominator up to 100 that makes the factor (or its
/// inverse, for reverse splits) whole within 0.1 %.
pub fn split_from_factor(factor: Decimal) -> Option<(u32, u32)> {
    if factor <= Decimal::ZERO {
        return None;
    }
    let reverse = factor < Decimal::ONE;
    let f = if reverse {
        Decimal::ONE / factor
    } else {
        factor
    };
    let tolerance = Decimal::new(1, 3);
    for d in 1u32..=100 {
        let scaled = f * Decimal::from(d);
        let whole = scaled.round();
        if whole.is_zero() {
            continue;
        }
        if ((scaled - whole) / whole).abs() <= tolerance {
            let n = u32::try_from(whole).ok()?;
            return Some(if reverse { (d, n) } else { (n, d) });
        }
    }
    None
}

/// Split-adjusts as-traded daily rows: each row's prices are divided, and its volume
/// multiplied, by the ratios of every split dated after it; then the prices go on
/// `grid`. Rows of intraday series are treated by their date.
pub fn split_adjusted_candles(
    rows: &[SeriesRow],
    splits: &[Split],
    grid: PriceGrid,
) -> Vec<DailyCandle> {
    rows.iter()
        .map(|r| {
            let date = r.stamp.date();
            let mut factor = Decimal::ONE;
            for s in splits.iter().filter(|s| s.date > date && s.denominator > 0) {
                factor = factor * Decimal::from(s.numerator) / Decimal::from(s.denominator);
            }
            let price = |p: Decimal| {
                round_price(
                    grid,
                    if factor == Decimal::ONE {
                        p
                    } else {
                        p / factor
                    },
                )
            };
            let volume = r.volume.unwrap_or(0);
            let volume = if factor == Decimal::ONE {
                volume
            } else {
                i64::try_from((Decimal::from(volume) * factor).round()).unwrap_or(i64::MAX)
            };
            DailyCandle {
                date,
                open: price(r.open),
                high: price(r.high),
                low: price(r.low),
                close: price(r.close),
                volume,
            }
        })
        .collect()
}

/// A `GLOBAL_QUOTE` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalQuote {
    pub symbol: String,
    pub open: Decimal,
    pub high: Decimal,
    pub low: Decimal,
    pub price: Decimal,
    pub volume: i64,
    pub latest_trading_day: NaiveDate,
    pub previous_close: Decimal,
    pub change: Option<Decimal>,
    /// `-0.5852%` → `-0.5852`.
    pub change_percent: Option<Decimal>,
}

/// Parses a `GLOBAL_QUOTE` answer; `"Global Quote": {}` is an unknown symbol.
pub fn parse_global_quote(body: &[u8]) -> Result<GlobalQuote, ProviderError> {
    let object = read_body(body, true)?;
    let quote = object
        .get("Global Quote")
        .and_then(|v| v.as_object())
        .ok_or_else(|| malformed("no `Global Quote` in the answer"))?;
    if quote.is_empty() {
        return Err(ProviderError::UnknownSymbol);
    }
    let f = fields(quote);
    Ok(GlobalQuote {
        symbol: get_str(&f, "symbol").unwrap_or_default().to_string(),
        open: req_decimal(&f, "open")?,
        high: req_decimal(&f, "high")?,
        low: req_decimal(&f, "low")?,
        price: req_decimal(&f, "price")?,
        volume: get_str(&f, "volume")
            .and_then(parse_volume)
            .ok_or_else(|| malformed("missing `volume`"))?,
        latest_trading_day: opt_date(&f, "latest trading day")
            .ok_or_else(|| malformed("missing `latest trading day`"))?,
        previous_close: req_decimal(&f, "previous close")?,
        change: opt_decimal(&f, "change")?,
        change_percent: opt_decimal(&f, "change percent")?,
    })
}

impl GlobalQuote {
    /// As a Moat quote on `grid`, `as_of` the 16:00 New York close of the latest
    /// trading day, or `now` when that is earlier.
    pub fn to_quote(
        &self,
        instrument_id: &InstrumentId,
        grid: PriceGrid,
        now: DateTime<Utc>,
    ) -> Quote {
        let close = NaiveTime::from_hms_opt(16, 0, 0).unwrap_or(NaiveTime::MIN);
        let as_of = chrono_tz::America::New_York
            .from_local_datetime(&self.latest_trading_day.and_time(close))
            .earliest()
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or(now)
            .min(now);
        Quote {
            instrument_id: instrument_id.clone(),
            price: round_price(grid, self.price),
            previous_close: round_price(grid, self.previous_close),
            open: round_price(grid, self.open),
            high: round_price(grid, self.high),
            low: round_price(grid, self.low),
            volume: self.volume,
            as_of,
            state: QuoteState::Delayed,
            source: ProviderKind::AlphaVantage.as_str().to_string(),
            simulated: false,
        }
    }
}

/// Parses an `FX_DAILY` answer into daily rates (the close of each day, through
/// [`round_rate`]), oldest first. The pair is read from the answer's `Meta Data`.
pub fn parse_fx_daily(body: &[u8]) -> Result<Vec<FxRate>, ProviderError> {
    let series = parse_time_series(body)?;
    let base = series
        .symbol
        .as_deref()
        .and_then(currency_code)
        .ok_or_else(|| malformed("FX series without `From Symbol`"))?;
    let quote = series
        .to_symbol
        .as_deref()
        .and_then(currency_code)
        .ok_or_else(|| malformed("FX series without `To Symbol`"))?;
    Ok(series
        .rows
        .iter()
        .map(|r| FxRate {
            date: r.stamp.date(),
            base: base.clone(),
            quote: quote.clone(),
            rate: round_rate(r.close),
        })
        .collect())
}

/// A `CURRENCY_EXCHANGE_RATE` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ExchangeRate {
    pub from: String,
    pub to: String,
    /// As sent (not rounded).
    pub rate: Decimal,
    pub bid: Option<Decimal>,
    pub ask: Option<Decimal>,
    /// `Last Refreshed` in its `Time Zone` (UTC when absent or unknown).
    pub as_of: DateTime<Utc>,
}

/// Parses a `CURRENCY_EXCHANGE_RATE` answer.
pub fn parse_exchange_rate(body: &[u8]) -> Result<ExchangeRate, ProviderError> {
    let object = read_body(body, true)?;
    let inner = object
        .get("Realtime Currency Exchange Rate")
        .and_then(|v| v.as_object())
        .ok_or_else(|| malformed("no `Realtime Currency Exchange Rate` in the answer"))?;
    let f = fields(inner);
    let code = |name: &str| {
        get_str(&f, name)
            .map(|s| s.to_ascii_uppercase())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| malformed(format!("missing `{name}`")))
    };
    let tz: Tz = get_str(&f, "time zone")
        .and_then(|z| z.parse().ok())
        .unwrap_or(chrono_tz::UTC);
    let refreshed =
        get_str(&f, "last refreshed").ok_or_else(|| malformed("missing `Last Refreshed`"))?;
    let local = NaiveDateTime::parse_from_str(refreshed, "%Y-%m-%d %H:%M:%S")
        .map_err(|_| malformed(format!("not a time: {}", shorten(refreshed, 40))))?;
    let as_of = tz
        .from_local_datetime(&local)
        .earliest()
        .ok_or_else(|| malformed("a time that does not exist"))?
        .with_timezone(&Utc);
    Ok(ExchangeRate {
        from: code("from_currency code")?,
        to: code("to_currency code")?,
        rate: req_decimal(&f, "exchange rate")?,
        bid: opt_decimal(&f, "bid price")?,
        ask: opt_decimal(&f, "ask price")?,
        as_of,
    })
}

/// One `SYMBOL_SEARCH` match.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolMatch {
    pub symbol: String,
    pub name: String,
    /// `Equity`, `ETF`, …
    pub kind: String,
    pub region: String,
    /// `UTC-04`, as sent.
    pub timezone: String,
    pub currency: String,
    pub match_score: Option<Decimal>,
}

/// Parses a `SYMBOL_SEARCH` answer, best match first (as sent).
pub fn parse_symbol_search(body: &[u8]) -> Result<Vec<SymbolMatch>, ProviderError> {
    let object = read_body(body, false)?;
    let matches = object
        .get("bestMatches")
        .and_then(|v| v.as_array())
        .ok_or_else(|| malformed("no `bestMatches` in the answer"))?;
    matches
        .iter()
        .map(|m| {
            let f = m
                .as_object()
                .map(fields)
                .ok_or_else(|| malformed("a match is not an object"))?;
            let s = |name: &str| get_str(&f, name).unwrap_or_default().to_string();
            Ok(SymbolMatch {
                symbol: s("symbol"),
                name: s("name"),
                kind: s("type"),
                region: s("region"),
                timezone: s("timezone"),
                currency: s("currency"),
                match_score: opt_decimal(&f, "matchscore")?,
            })
        })
        .collect()
}

/// The parts of a company `OVERVIEW` answer Moat's instrument data can use.
#[derive(Debug, Clone, PartialEq)]
pub struct CompanyOverview {
    pub symbol: String,
    pub asset_type: String,
    pub name: String,
    pub exchange: String,
    pub currency: String,
    pub country: String,
    /// Alpha Vantage's own sector names (`Technology`), not GICS.
    pub sector: String,
    pub industry: String,
    pub shares_outstanding: Option<i64>,
    pub market_capitalization: Option<i64>,
    /// A fraction: `0.0529` is 5.29 %.
    pub dividend_yield: Option<Decimal>,
    pub ex_dividend_date: Option<NaiveDate>,
    pub dividend_date: Option<NaiveDate>,
}

/// Parses an `OVERVIEW` answer; `{}` is an unknown symbol.
pub fn parse_company_overview(body: &[u8]) -> Result<CompanyOverview, ProviderError> {
    let object = read_body(body, true)?;
    if object.is_empty() {
        return Err(ProviderError::UnknownSymbol);
    }
    let f = fields(&object);
    let s = |name: &str| get_str(&f, name).unwrap_or_default().to_string();
    let whole = |name: &str| get_str(&f, name).and_then(parse_volume);
    Ok(CompanyOverview {
        symbol: s("symbol"),
        asset_type: s("assettype"),
        name: s("name"),
        exchange: s("exchange"),
        currency: s("currency"),
        country: s("country"),
        sector: s("sector"),
        industry: s("industry"),
        shares_outstanding: whole("sharesoutstanding"),
        market_capitalization: whole("marketcapitalization"),
        dividend_yield: opt_decimal(&f, "dividendyield").ok().flatten(),
        ex_dividend_date: opt_date(&f, "exdividenddate"),
        dividend_date: opt_date(&f, "dividenddate"),
    })
}

/// Parses a `SPLITS` answer (`{"data": [{"effective_date": "2020-08-31",
/// "split_factor": "4.0000"}]}`), oldest first.
pub fn parse_splits(body: &[u8]) -> Result<Vec<Split>, ProviderError> {
    let object = read_body(body, true)?;
    let mut splits = Vec::new();
    for item in data_items(&object)? {
        let f = fields(item);
        let Some(date) = opt_date(&f, "effective_date") else {
            return Err(malformed("a split without `effective_date`"));
        };
        let factor = req_decimal(&f, "split_factor")?;
        let (numerator, denominator) = split_from_factor(factor)
            .ok_or_else(|| malformed(format!("split factor {factor} is not a ratio")))?;
        if numerator != denominator {
            splits.push(Split {
                date,
                numerator,
                denominator,
            });
        }
    }
    splits.sort_by_key(|s| s.date);
    Ok(splits)
}

/// Parses a `DIVIDENDS` answer (`{"data": [{"ex_dividend_date", "declaration_date",
/// "record_date", "payment_date", "amount"}]}`, `"None"` for unknown dates), oldest
/// first, in `currency`.
pub fn parse_dividends(body: &[u8], currency: &str) -> Result<Vec<Dividend>, ProviderError> {
    let object = read_body(body, true)?;
    let mut dividends = Vec::new();
    for item in data_items(&object)? {
        let f = fields(item);
        let ex_date = opt_date(&f, "ex_dividend_date")
            .ok_or_else(|| malformed("a dividend without `ex_dividend_date`"))?;
        dividends.push(Dividend {
            ex_date,
            pay_date: opt_date(&f, "payment_date"),
            record_date: opt_date(&f, "record_date"),
            amount: req_decimal(&f, "amount")?.normalize(),
            currency: currency.to_string(),
        });
    }
    dividends.sort_by_key(|d| d.ex_date);
    Ok(dividends)
}

/// The objects of `data` (an empty or absent list is no events).
fn data_items(object: &Map<String, Value>) -> Result<Vec<&Map<String, Value>>, ProviderError> {
    match object.get("data") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| {
                i.as_object()
                    .ok_or_else(|| malformed("a `data` item is not an object"))
            })
            .collect(),
        Some(_) => Err(malformed("`data` is not a list")),
    }
}

/// Alpha Vantage as a [`PriceProvider`] and an [`FxProvider`].
#[derive(Debug, Clone)]
pub struct AlphaVantageProvider {
    client: reqwest::Client,
    base_url: String,
    api_key: String,
    premium: bool,
}

impl AlphaVantageProvider {
    /// `base_url` is [`DEFAULT_BASE_URL`] in production.
    pub fn new(
        client: reqwest::Client,
        base_url: impl Into<String>,
        api_key: impl Into<String>,
    ) -> Self {
        Self {
            client,
            base_url: base_url.into(),
            api_key: api_key.into(),
            premium: false,
        }
    }

    /// A premium key: daily candles from `TIME_SERIES_DAILY_ADJUSTED` in one call.
    pub fn with_premium(mut self, premium: bool) -> Self {
        self.premium = premium;
        self
    }

    /// GETs `/query?function=…&…&apikey=…` and returns the body of a good answer.
    async fn query(&self, params: &[(&str, &str)]) -> Result<Vec<u8>, ProviderError> {
        let mut query: Vec<(&str, &str)> = params.to_vec();
        query.push(("apikey", &self.api_key));
        let url = http::url(&self.base_url, &["query"], &query)?;
        http::get(&self.client, url, Expect::Json).await
    }

    fn output_size(from: NaiveDate) -> &'static str {
        let today = Utc::now().date_naive();
        match today.checked_sub_days(Days::new(COMPACT_DAYS)) {
            Some(edge) if from >= edge => "compact",
            _ => "full",
        }
    }
}

#[async_trait]
impl PriceProvider for AlphaVantageProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::AlphaVantage
    }

    async fn daily_candles(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<DailyCandle>, ProviderError> {
        let symbol = av_symbol(instrument)?;
        if from > to {
            return Ok(Vec::new());
        }
        let grid = PriceGrid::from(instrument);
        let (series, splits) = if self.premium {
            let body = self
                .query(&[
                    ("function", "TIME_SERIES_DAILY_ADJUSTED"),
                    ("symbol", &symbol),
                    ("outputsize", "full"),
                ])
                .await?;
            let series = parse_time_series(&body)?;
            let splits = series.splits();
            (series, splits)
        } else {
            let body = self
                .query(&[
                    ("function", "TIME_SERIES_DAILY"),
                    ("symbol", &symbol),
                    ("outputsize", Self::output_size(from)),
                ])
                .await?;
            let series = parse_time_series(&body)?;
            let splits = parse_splits(
                &self
                    .query(&[("function", "SPLITS"), ("symbol", &symbol)])
                    .await?,
            )?;
            (series, splits)
        };
        let mut candles = split_adjusted_candles(&series.rows, &splits, grid);
        candles.retain(|c| (from..=to).contains(&c.date));
        Ok(candles)
    }

    /// Not offered: see the module documentation.
    async fn intraday_bars(
        &self,
        _instrument: &Instrument,
        _date: NaiveDate,
        _now: DateTime<Utc>,
    ) -> Result<Vec<Bar>, ProviderError> {
        Err(ProviderError::Unsupported)
    }

    async fn quote(
        &self,
        instrument: &Instrument,
        now: DateTime<Utc>,
    ) -> Result<Quote, ProviderError> {
        let symbol = av_symbol(instrument)?;
        let body = self
            .query(&[("function", "GLOBAL_QUOTE"), ("symbol", &symbol)])
            .await?;
        let quote = parse_global_quote(&body)?;
        Ok(quote.to_quote(&instrument.id, PriceGrid::from(instrument), now))
    }

    async fn corporate_actions(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<(Vec<Dividend>, Vec<Split>), ProviderError> {
        let symbol = av_symbol(instrument)?;
        if from > to {
            return Ok((Vec::new(), Vec::new()));
        }
        let body = self
            .query(&[("function", "DIVIDENDS"), ("symbol", &symbol)])
            .await?;
        let mut dividends = parse_dividends(&body, &instrument.currency)?;
        let body = self
            .query(&[("function", "SPLITS"), ("symbol", &symbol)])
            .await?;
        let mut splits = parse_splits(&body)?;
        dividends.retain(|d| (from..=to).contains(&d.ex_date));
        splits.retain(|s| (from..=to).contains(&s.date));
        Ok((dividends, splits))
    }
}

#[async_trait]
impl FxProvider for AlphaVantageProvider {
    fn kind(&self) -> ProviderKind {
        ProviderKind::AlphaVantage
    }

    /// `FX_DAILY` closes; any pair of three-letter codes Alpha Vantage knows (an
    /// unknown code is `UnknownSymbol`).
    async fn daily_rates(
        &self,
        base: &str,
        quote: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<FxRate>, ProviderError> {
        let (Some(base), Some(quote)) = (currency_code(base), currency_code(quote)) else {
            return Err(ProviderError::Unsupported);
        };
        if base == quote {
            return Err(ProviderError::Unsupported);
        }
        if from > to {
            return Ok(Vec::new());
        }
        let body = self
            .query(&[
                ("function", "FX_DAILY"),
                ("from_symbol", &base),
                ("to_symbol", &quote),
                ("outputsize", Self::output_size(from)),
            ])
            .await?;
        let mut rates = parse_fx_daily(&body)?;
        rates.retain(|r| (from..=to).contains(&r.date));
        for r in &mut rates {
            r.base.clone_from(&base);
            r.quote.clone_from(&quote);
        }
        Ok(rates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn providers_av_in_band_errors_are_classified() {
        let note = br#"{"Note": "Thank you for using Alpha Vantage! Our standard API call frequency is 5 calls per minute and 500 calls per day."}"#;
        assert!(matches!(
            read_body(note, true),
            Err(ProviderError::RateLimited {
                retry_after_secs: None
            })
        ));
        let premium =
            br#"{"Information": "Thank you for using Alpha Vantage! This is a premium endpoint."}"#;
        assert!(matches!(
            read_body(premium, true),
            Err(ProviderError::RateLimited { .. })
        ));
        let demo = br#"{"Information": "The **demo** API key is for demo purposes only. Please claim your free API key."}"#;
        assert!(matches!(
            read_body(demo, true),
            Err(ProviderError::Source(_))
        ));
        let invalid = br#"{"Error Message": "Invalid API call. Please retry or visit the documentation (https://www.alphavantage.co/documentation/) for TIME_SERIES_DAILY."}"#;
        assert!(matches!(
            read_body(invalid, true),
            Err(ProviderError::UnknownSymbol)
        ));
        assert!(matches!(
            read_body(invalid, false),
            Err(ProviderError::Source(_))
        ));
        let key = br#"{"Error Message": "the parameter apikey is invalid or missing."}"#;
        assert!(matches!(
            read_body(key, true),
            Err(ProviderError::Source(_))
        ));
        assert!(matches!(
            read_body(b"<html>", true),
            Err(ProviderError::Malformed(_))
        ));
        assert!(matches!(
            read_body(b"[1]", true),
            Err(ProviderError::Malformed(_))
        ));
    }

    #[test]
    fn providers_av_field_names_lose_their_numbering() {
        assert_eq!(field_name("4. close"), "close");
        assert_eq!(field_name("10. change percent"), "change percent");
        assert_eq!(field_name("1a. open (USD)"), "open (usd)");
        assert_eq!(field_name("effective_date"), "effective_date");
        assert_eq!(field_name("Symbol"), "symbol");
    }

    #[test]
    fn providers_av_split_factors_become_small_ratios() {
        assert_eq!(split_from_factor(d("4.0000")), Some((4, 1)));
        assert_eq!(split_from_factor(d("0.3333")), Some((1, 3)));
        assert_eq!(split_from_factor(d("0.1")), Some((1, 10)));
        assert_eq!(split_from_factor(d("1.5")), Some((3, 2)));
        assert_eq!(split_from_factor(d("0")), None);
    }

    const ADJUSTED: &str = r#"{"Meta Data": {"2. Symbol": "AAPL", "5. Time Zone": "US/Eastern"},
      "Time Series (Daily)": {
        "2020-08-31": {"1. open": "127.58", "2. high": "131.00", "3. low": "126.00", "4. close": "129.04",
                       "5. adjusted close": "125.83", "6. volume": "225702700", "7. dividend amount": "0.0000", "8. split coefficient": "4.0"},
        "2020-08-28": {"1. open": "504.05", "2. high": "505.77", "3. low": "498.31", "4. close": "499.23",
                       "5. adjusted close": "121.70", "6. volume": "46907479", "7. dividend amount": "0.0000", "8. split coefficient": "1.0"}}}"#;

    #[test]
    fn providers_av_adjusted_series_are_split_adjusted_by_their_coefficients() {
        let series = parse_time_series(ADJUSTED.as_bytes()).unwrap();
        assert_eq!(series.rows.len(), 2);
        assert_eq!(series.rows[0].stamp.date().to_string(), "2020-08-28");
        let splits = series.splits();
        assert_eq!(splits.len(), 1);
        assert_eq!((splits[0].numerator, splits[0].denominator), (4, 1));
        let candles = split_adjusted_candles(&series.rows, &splits, PriceGrid::UsEquity);
        // 499.23 / 4 = 124.8075 → 124.81; 46907479 × 4.
        assert_eq!(candles[0].close, d("124.81"));
        assert_eq!(candles[0].volume, 187_629_916);
        assert_eq!(candles[1].close, d("129.04"));
        assert_eq!(candles[1].volume, 225_702_700);
    }

    #[test]
    fn providers_av_global_quote_as_of_is_the_close_of_the_latest_trading_day() {
        let body = br#"{"Global Quote": {"01. symbol": "MSFT", "02. open": "112.6300", "03. high": "113.1700",
            "04. low": "110.6400", "05. price": "112.1300", "06. volume": "29062853",
            "07. latest trading day": "2018-10-05", "08. previous close": "112.7900",
            "09. change": "-0.6600", "10. change percent": "-0.5852%"}}"#;
        let q = parse_global_quote(body).unwrap();
        let now: DateTime<Utc> = "2018-10-08T12:00:00Z".parse().unwrap();
        let quote = q.to_quote(&"NASDAQ:MSFT".parse().unwrap(), PriceGrid::UsEquity, now);
        assert_eq!(quote.as_of.to_rfc3339(), "2018-10-05T20:00:00+00:00");
        let early: DateTime<Utc> = "2018-10-05T15:00:00Z".parse().unwrap();
        assert_eq!(
            q.to_quote(&"NASDAQ:MSFT".parse().unwrap(), PriceGrid::UsEquity, early)
                .as_of,
            early
        );
        assert!(matches!(
            parse_global_quote(br#"{"Global Quote": {}}"#),
            Err(ProviderError::UnknownSymbol)
        ));
    }

    #[test]
    fn providers_av_symbols_cover_us_stocks_only() {
        let mut i = Instrument {
            id: "NYSE:BRK.B".parse().unwrap(),
            kind: Kind::Stock,
            board: None,
            currency: "USD".into(),
            country: "US".into(),
            name_ko: String::new(),
            name_en: String::new(),
            sector: String::new(),
            shares_outstanding: None,
            reference_price: None,
            popularity: 0,
            aliases: Vec::new(),
        };
        assert_eq!(av_symbol(&i).unwrap(), "BRK-B");
        for (id, kind) in [
            ("KRX:005930", Kind::Stock),
            ("INDEX:SPX", Kind::Index),
            ("CRYPTO:BTC", Kind::Crypto),
            ("FX:USDKRW", Kind::Currency),
        ] {
            i.id = id.parse().unwrap();
            i.kind = kind;
            assert!(
                matches!(av_symbol(&i), Err(ProviderError::Unsupported)),
                "{id}"
            );
        }
    }

    #[test]
    fn providers_av_splits_and_dividends_endpoints_are_read() {
        let splits = parse_splits(br#"{"symbol": "AAPL", "data": [{"effective_date": "2020-08-31", "split_factor": "4.0000"},
            {"effective_date": "2014-06-09", "split_factor": "7.0000"}]}"#)
        .unwrap();
        assert_eq!(splits.len(), 2);
        assert_eq!(splits[0].date.to_string(), "2014-06-09");
        assert_eq!((splits[1].numerator, splits[1].denominator), (4, 1));
        let dividends = parse_dividends(
            br#"{"symbol": "MSFT", "data": [{"ex_dividend_date": "2021-11-17", "declaration_date": "2021-09-14",
              "record_date": "2021-11-18", "payment_date": "2021-12-09", "amount": "0.62"},
              {"ex_dividend_date": "2021-08-18", "declaration_date": "None", "record_date": "None", "payment_date": "None", "amount": "0.56"}]}"#,
            "USD",
        )
        .unwrap();
        assert_eq!(dividends.len(), 2);
        assert_eq!(dividends[0].ex_date.to_string(), "2021-08-18");
        assert_eq!(dividends[0].pay_date, None);
        assert_eq!(dividends[1].amount, d("0.62"));
        assert_eq!(
            dividends[1].pay_date.map(|d| d.to_string()).as_deref(),
            Some("2021-12-09")
        );
        assert!(parse_splits(br#"{"symbol": "X", "data": []}"#)
            .unwrap()
            .is_empty());
    }
}
