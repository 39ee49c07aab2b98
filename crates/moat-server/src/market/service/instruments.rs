//! Instrument search and the key figures of the stock page.

use std::sync::Arc;

use chrono::{Duration, Utc};
use moat_market::{
    search::{MAX_LIMIT, MAX_QUERY_CHARS},
    Instrument, Kind, Quote,
};
use rust_decimal::Decimal;

use super::MarketService;
use crate::http::error::{ApiError, ErrorCode, FieldError};

/// Default and largest number of search results.
pub const SEARCH_DEFAULT_LIMIT: usize = 20;

/// The instruments best matching `q` (ticker, names, initial consonants, aliases),
/// at most `limit` of them (a whole number from 1 to 50 as the request wrote it;
/// [`SEARCH_DEFAULT_LIMIT`] when absent).
pub fn search(
    service: &MarketService,
    q: &str,
    limit: Option<&str>,
) -> Result<Vec<Arc<Instrument>>, ApiError> {
    if q.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::invalid_parameter(
            "q",
            FieldError::new(
                ErrorCode::TooLong,
                format!("At most {MAX_QUERY_CHARS} characters."),
            )
            .param("max", MAX_QUERY_CHARS),
        ));
    }
    let limit = match limit {
        None | Some("") => SEARCH_DEFAULT_LIMIT,
        Some(raw) => raw.parse::<usize>().unwrap_or(0),
    };
    if limit == 0 || limit > MAX_LIMIT {
        return Err(ApiError::invalid_parameter(
            "limit",
            FieldError::new(ErrorCode::OutOfRange, format!("From 1 to {MAX_LIMIT}."))
                .param("min", 1)
                .param("max", MAX_LIMIT),
        ));
    }
    Ok(service.catalog().index.search(q, limit))
}

/// Key figures of the stock page; `None` when unknown.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub previous_close: Option<Decimal>,
    pub open: Option<Decimal>,
    pub day_high: Option<Decimal>,
    pub day_low: Option<Decimal>,
    pub week52_high: Option<Decimal>,
    pub week52_low: Option<Decimal>,
    pub volume: Option<i64>,
    /// Price × shares outstanding (stocks only), rounded to a whole amount.
    pub market_cap: Option<Decimal>,
    /// Trailing twelve months of dividends over the price, per cent, two decimals.
    pub dividend_yield: Option<Decimal>,
}

/// The key figures of `instrument` at `quote` (its latest): the day's from the quote,
/// the 52-week range from a year of daily candles, the market cap and dividend yield.
pub async fn stats(
    service: &MarketService,
    instrument: &Instrument,
    quote: Option<&Quote>,
) -> Result<Stats, ApiError> {
    let today = Utc::now().date_naive();
    let year = service
        .daily_candles(instrument, today - Duration::days(365), today)
        .await
        .map_err(ApiError::internal)?;
    Ok(Stats {
        previous_close: quote.map(|q| q.previous_close),
        open: quote.map(|q| q.open),
        day_high: quote.map(|q| q.high),
        day_low: quote.map(|q| q.low),
        week52_high: year.iter().map(|c| c.high).max(),
        week52_low: year.iter().map(|c| c.low).min(),
        volume: quote.map(|q| q.volume),
        market_cap: match (quote, instrument.shares_outstanding, instrument.kind) {
            (Some(q), Some(shares), Kind::Stock) => Some((q.price * Decimal::from(shares)).round()),
            _ => None,
        },
        dividend_yield: match quote {
            Some(q) if matches!(instrument.kind, Kind::Stock | Kind::Etf) && !q.price.is_zero() => {
                let paid = service
                    .dividends(instrument, today - Duration::days(365), today)
                    .await
                    .map_err(ApiError::internal)?;
                let per_share: Decimal = paid.iter().map(|d| d.amount).sum();
                Some((per_share * Decimal::ONE_HUNDRED / q.price).round_dp(2))
            }
            _ => None,
        },
    })
}
