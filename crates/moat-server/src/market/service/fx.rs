//! Daily FX rates of a currency pair over a span of dates.

use chrono::{Duration, NaiveDate, Utc};
use moat_market::{Exchange, FxRate, InstrumentId};
use rust_decimal::Decimal;

use super::{parse_date, MarketService};
use crate::http::error::{ApiError, ErrorCode, FieldError};

/// Longest span of FX rates one request returns.
pub const FX_MAX_DAYS: i64 = 5 * 366;
/// Default span of FX rates.
pub const FX_DEFAULT_DAYS: i64 = 30;

/// How far before a date the rate used for it may be: a long holiday (설날, 추석 with
/// a weekend) or a missing day of history. Older rates are not offered.
pub const FX_RATE_LOOKBACK_DAYS: i64 = 14;
/// Decimal places of a rate read the other way round (`KRWUSD` from `USDKRW`).
pub const FX_INVERSE_DP: u32 = 10;

/// A pair's daily rates.
#[derive(Debug, Clone)]
pub struct FxSeries {
    /// The pair, upper case (`USDKRW`).
    pub pair: String,
    /// Oldest first.
    pub rates: Vec<FxRate>,
}

/// The daily rates of `pair` (`USDKRW`, any case) from `from` (`YYYY-MM-DD`, default
/// [`FX_DEFAULT_DAYS`] before `to`) to `to` (default today), at most
/// [`FX_MAX_DAYS`] apart; 404 when the catalogue has no such pair.
pub async fn fx_series(
    service: &MarketService,
    pair: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<FxSeries, ApiError> {
    let pair = pair.to_ascii_uppercase();
    if !is_stored_pair(service, &pair) {
        return Err(ApiError::not_found(format!(
            "There are no rates for {pair}."
        )));
    }
    let today = Utc::now().date_naive();
    let to = parse_date("to", to, today)?;
    let from = parse_date("from", from, to - Duration::days(FX_DEFAULT_DAYS))?;
    if from > to {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::DatesReversed, "Must not be after `to`."),
        ));
    }
    if (to - from).num_days() > FX_MAX_DAYS {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::SpanTooLong, "At most 5 years per request.")
                .param("max_days", FX_MAX_DAYS),
        ));
    }
    let (base, quote) = pair.split_at(3);
    let rates = service.fx_rates(base, quote, from, to).await?;
    Ok(FxSeries { pair, rates })
}

/// The rate of a pair for a date: the last stored daily rate on or before it.
#[derive(Debug, Clone, PartialEq)]
pub struct FxRateOn {
    /// The pair asked for, upper case (`USDKRW`, or `KRWUSD`).
    pub pair: String,
    /// The date asked for.
    pub date: NaiveDate,
    /// The rate and the date it was fixed, when one is stored within
    /// [`FX_RATE_LOOKBACK_DAYS`] before `date`.
    pub rate: Option<(NaiveDate, Decimal)>,
}

/// Whether the catalogue has rates of `pair` (upper case, six letters: `USDKRW`).
fn is_stored_pair(service: &MarketService, pair: &str) -> bool {
    pair.len() == 6
        && pair.is_ascii()
        && InstrumentId::new(Exchange::Fx, pair)
            .ok()
            .and_then(|id| service.instrument(&id))
            .is_some()
}

/// The catalogue's stored pair for `pair`: itself, or its inverse (`KRWUSD` → `USDKRW`).
fn stored_pair(service: &MarketService, pair: &str) -> Option<(String, bool)> {
    if pair.len() != 6 || !pair.is_ascii() {
        return None;
    }
    let (base, quote) = pair.split_at(3);
    let inverse = format!("{quote}{base}");
    if is_stored_pair(service, pair) {
        Some((pair.to_owned(), false))
    } else if is_stored_pair(service, &inverse) {
        Some((inverse, true))
    } else {
        None
    }
}

/// One unit of the pair's first currency in the second on `date` (`YYYY-MM-DD`,
/// default today): the last rate stored on or before it within
/// [`FX_RATE_LOOKBACK_DAYS`], read the other way round when the catalogue stores the
/// inverse pair. 404 for a pair the market does not know either way.
pub async fn fx_rate_on(
    service: &MarketService,
    pair: &str,
    date: Option<&str>,
) -> Result<FxRateOn, ApiError> {
    let pair = pair.to_ascii_uppercase();
    let Some((stored, inverse)) = stored_pair(service, &pair) else {
        return Err(ApiError::not_found(format!(
            "There are no rates for {pair}."
        )));
    };
    let date = parse_date("date", date, Utc::now().date_naive())?;
    let (base, quote) = stored.split_at(3);
    let from = date - Duration::days(FX_RATE_LOOKBACK_DAYS);
    let rates = service.fx_rates(base, quote, from, date).await?;
    let rate = rates
        .iter()
        .filter(|r| r.date <= date && r.rate > Decimal::ZERO)
        .max_by_key(|r| r.date)
        .map(|r| {
            let rate = if inverse {
                (Decimal::ONE / r.rate).round_dp(FX_INVERSE_DP).normalize()
            } else {
                r.rate
            };
            (r.date, rate)
        });
    Ok(FxRateOn { pair, date, rate })
}
