//! Market data: instruments, daily candles, intraday bars, latest quotes, FX rates,
//! dividends and splits, members' favourites and the providers' status
//! (docs/market.md).
//!
//! Prices are stored as exact decimal strings on both backends and parsed back into
//! [`Decimal`]; batches are written in one transaction with multi-row inserts. As in
//! `accounts`, the SQL (`sql.rs`) is portable and one implementation serves both
//! backends.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use moat_market::{
    Bar, Board, DailyCandle, Dividend, FxRate, Instrument, InstrumentId, Kind, Quote, QuoteState,
    Split,
};
use rust_decimal::Decimal;

use crate::StorageError;

mod sql;

/// Rows per multi-row `INSERT` (well under both backends' bind-parameter limits).
pub const INSERT_CHUNK_ROWS: usize = 500;
/// Most favourites a member keeps.
pub const MAX_FAVORITES: usize = 100;

/// The key of an FX pair's daily rates among the price series (`fx:USD/KRW`).
pub fn fx_series(base: &str, quote: &str) -> String {
    format!("fx:{base}/{quote}")
}

/// One price series' version (table `price_versions`): `version` rises when a write
/// touches a day on or before `last_date` (a correction, an import, a gap filled) or
/// comes from another source than the last one, not when the same source appends days
/// after it. A series never written has no row: take it as
/// version 0 (stored series start at 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceVersion {
    /// An instrument id, or [`fx_series`]'s key.
    pub series: String,
    pub version: i64,
    /// The last day stored.
    pub last_date: NaiveDate,
}

/// What a market's provider last did.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderStatus {
    pub market: String,
    pub provider: String,
    pub last_success: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub last_error_at: Option<DateTime<Utc>>,
}

/// Market data operations.
#[async_trait]
pub trait MarketStorage: Send + Sync {
    /// Inserts or updates instruments (by id) in one transaction; returns how many.
    async fn upsert_instruments(&self, instruments: &[Instrument]) -> Result<u64, StorageError>;

    /// Every instrument, by id.
    async fn list_instruments(&self) -> Result<Vec<Instrument>, StorageError>;

    async fn instrument(&self, id: &InstrumentId) -> Result<Option<Instrument>, StorageError>;

    /// Inserts or replaces candles of one instrument in one transaction.
    async fn upsert_daily_candles(
        &self,
        id: &InstrumentId,
        candles: &[DailyCandle],
        source: &str,
    ) -> Result<(), StorageError>;

    /// Candles in `from..=to`, oldest first.
    async fn daily_candles(
        &self,
        id: &InstrumentId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<DailyCandle>, StorageError>;

    /// The first day with a stored daily candle of `id`, if any.
    async fn first_candle_date(&self, id: &InstrumentId)
        -> Result<Option<NaiveDate>, StorageError>;

    /// The latest candle date of every instrument that has candles.
    async fn latest_candle_dates(&self) -> Result<Vec<(InstrumentId, NaiveDate)>, StorageError>;

    async fn upsert_intraday_bars(
        &self,
        id: &InstrumentId,
        bars: &[Bar],
        source: &str,
    ) -> Result<(), StorageError>;

    /// Bars starting in `from..to`, oldest first.
    async fn intraday_bars(
        &self,
        id: &InstrumentId,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<Bar>, StorageError>;

    async fn upsert_quotes(&self, quotes: &[Quote]) -> Result<(), StorageError>;

    async fn list_quotes(&self) -> Result<Vec<Quote>, StorageError>;

    async fn upsert_fx_rates(&self, rates: &[FxRate], source: &str) -> Result<(), StorageError>;

    /// The versions of the price series named (instrument ids and [`fx_series`] keys)
    /// that have been written, in no particular order.
    async fn price_versions(&self, series: &[String]) -> Result<Vec<PriceVersion>, StorageError>;

    /// Rates of `base` in `quote` for `from..=to`, oldest first.
    async fn fx_rates(
        &self,
        base: &str,
        quote: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<FxRate>, StorageError>;

    /// Inserts or replaces dividends of one instrument (by ex-date) in one
    /// transaction. A pay or record date that a later write leaves out is kept.
    async fn upsert_dividends(
        &self,
        id: &InstrumentId,
        dividends: &[Dividend],
        source: &str,
    ) -> Result<(), StorageError>;

    /// Dividends of one instrument with an ex-date in `from..=to`, by ex-date.
    async fn dividends(
        &self,
        id: &InstrumentId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<Dividend>, StorageError>;

    /// The dividend calendar: dividends of every instrument whose ex-date or pay date
    /// falls in `from..=to`, by ex-date then instrument; only instruments of
    /// `country` (`KR`, `US`) when given; at most `limit` rows when given.
    async fn upcoming_dividends(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        country: Option<&str>,
        limit: Option<u32>,
    ) -> Result<Vec<(InstrumentId, Dividend)>, StorageError>;

    /// Inserts or replaces splits of one instrument (by date) in one transaction.
    async fn upsert_splits(
        &self,
        id: &InstrumentId,
        splits: &[Split],
        source: &str,
    ) -> Result<(), StorageError>;

    /// Splits of one instrument effective in `from..=to`, by date.
    async fn splits(
        &self,
        id: &InstrumentId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<Split>, StorageError>;

    /// A member's favourites, in their order.
    async fn favorites(&self, user_id: i64) -> Result<Vec<InstrumentId>, StorageError>;

    /// Replaces a member's favourites with `ids`, in that order. Unknown instruments
    /// fail with `Invalid` and change nothing.
    async fn set_favorites(&self, user_id: i64, ids: &[InstrumentId]) -> Result<(), StorageError>;

    async fn record_provider_success(
        &self,
        market: &str,
        provider: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StorageError>;

    async fn record_provider_error(
        &self,
        market: &str,
        provider: &str,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StorageError>;

    async fn provider_statuses(&self) -> Result<Vec<ProviderStatus>, StorageError>;
}

pub(crate) fn dec(s: &str) -> Result<Decimal, StorageError> {
    s.parse()
        .map_err(|_| StorageError::Invalid("stored price is not a decimal"))
}

pub(crate) fn id(s: &str) -> Result<InstrumentId, StorageError> {
    s.parse()
        .map_err(|_| StorageError::Invalid("stored instrument id is malformed"))
}

#[derive(sqlx::FromRow)]
pub(crate) struct InstrumentRow {
    pub id: String,
    pub kind: String,
    pub board: Option<String>,
    pub currency: String,
    pub country: String,
    pub name_ko: String,
    pub name_en: String,
    pub sector: String,
    pub shares_outstanding: Option<i64>,
    pub reference_price: Option<String>,
    pub popularity: i64,
    pub aliases: String,
}

impl InstrumentRow {
    pub(crate) fn into_instrument(self) -> Result<Instrument, StorageError> {
        Ok(Instrument {
            id: id(&self.id)?,
            kind: Kind::parse(&self.kind).ok_or(StorageError::Invalid("stored kind is unknown"))?,
            board: self
                .board
                .as_deref()
                .map(|b| Board::parse(b).ok_or(StorageError::Invalid("stored board is unknown")))
                .transpose()?,
            currency: self.currency,
            country: self.country,
            name_ko: self.name_ko,
            name_en: self.name_en,
            sector: self.sector,
            shares_outstanding: self.shares_outstanding,
            reference_price: self.reference_price.as_deref().map(dec).transpose()?,
            popularity: self.popularity as i32,
            aliases: self
                .aliases
                .split('|')
                .filter(|a| !a.is_empty())
                .map(str::to_owned)
                .collect(),
        })
    }
}

/// Candles from the JSON array `[[date, open, high, low, close, volume], …]` that the
/// backends' JSON aggregation builds (`None`: no rows, as PostgreSQL answers).
pub(crate) fn candles_from_json(json: Option<&str>) -> Result<Vec<DailyCandle>, StorageError> {
    let Some(json) = json else {
        return Ok(Vec::new());
    };
    type Raw = (NaiveDate, String, String, String, String, i64);
    let rows: Vec<Raw> = serde_json::from_str(json)
        .map_err(|_| StorageError::Invalid("stored candles are malformed"))?;
    rows.into_iter()
        .map(|(date, open, high, low, close, volume)| {
            Ok(DailyCandle {
                date,
                open: dec(&open)?,
                high: dec(&high)?,
                low: dec(&low)?,
                close: dec(&close)?,
                volume,
            })
        })
        .collect()
}

#[derive(sqlx::FromRow)]
pub(crate) struct BarRow {
    pub start: DateTime<Utc>,
    pub open: String,
    pub high: String,
    pub low: String,
    pub close: String,
    pub volume: i64,
}

impl BarRow {
    pub(crate) fn into_bar(self) -> Result<Bar, StorageError> {
        Ok(Bar {
            start: self.start,
            open: dec(&self.open)?,
            high: dec(&self.high)?,
            low: dec(&self.low)?,
            close: dec(&self.close)?,
            volume: self.volume,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct QuoteRow {
    pub instrument_id: String,
    pub price: String,
    pub previous_close: String,
    pub open: String,
    pub high: String,
    pub low: String,
    pub volume: i64,
    pub as_of: DateTime<Utc>,
    pub state: String,
    pub source: String,
    pub simulated: bool,
}

pub(crate) fn state_str(state: QuoteState) -> &'static str {
    match state {
        QuoteState::Live => "live",
        QuoteState::Delayed => "delayed",
        QuoteState::Stale => "stale",
        QuoteState::Closed => "closed",
    }
}

impl QuoteRow {
    pub(crate) fn into_quote(self) -> Result<Quote, StorageError> {
        Ok(Quote {
            instrument_id: id(&self.instrument_id)?,
            price: dec(&self.price)?,
            previous_close: dec(&self.previous_close)?,
            open: dec(&self.open)?,
            high: dec(&self.high)?,
            low: dec(&self.low)?,
            volume: self.volume,
            as_of: self.as_of,
            state: match self.state.as_str() {
                "live" => QuoteState::Live,
                "delayed" => QuoteState::Delayed,
                "stale" => QuoteState::Stale,
                "closed" => QuoteState::Closed,
                _ => return Err(StorageError::Invalid("stored quote state is unknown")),
            },
            source: self.source,
            simulated: self.simulated,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct FxRow {
    pub base: String,
    pub quote: String,
    pub date: NaiveDate,
    pub rate: String,
}

#[derive(sqlx::FromRow)]
pub(crate) struct DividendRow {
    pub instrument_id: String,
    pub ex_date: NaiveDate,
    pub pay_date: Option<NaiveDate>,
    pub record_date: Option<NaiveDate>,
    pub amount: String,
    pub currency: String,
}

impl DividendRow {
    pub(crate) fn into_dividend(self) -> Result<(InstrumentId, Dividend), StorageError> {
        Ok((
            id(&self.instrument_id)?,
            Dividend {
                ex_date: self.ex_date,
                pay_date: self.pay_date,
                record_date: self.record_date,
                amount: dec(&self.amount)?,
                currency: self.currency,
            },
        ))
    }
}

pub(crate) fn split_from_row(
    (date, numerator, denominator): (NaiveDate, i64, i64),
) -> Result<Split, StorageError> {
    let ratio = |n: i64| {
        u32::try_from(n)
            .ok()
            .filter(|n| *n > 0)
            .ok_or(StorageError::Invalid("stored split ratio is out of range"))
    };
    Ok(Split {
        date,
        numerator: ratio(numerator)?,
        denominator: ratio(denominator)?,
    })
}

#[derive(sqlx::FromRow)]
pub(crate) struct StatusRow {
    pub market: String,
    pub provider: String,
    pub last_success: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub last_error_at: Option<DateTime<Utc>>,
}
