//! Daily FX rates of a currency pair over a span of dates.

use chrono::{Duration, Utc};
use moat_market::{Exchange, FxRate, InstrumentId};

use super::{parse_date, MarketService};
use crate::http::error::{ApiError, ErrorCode, FieldError};

/// Longest span of FX rates one request returns.
pub const FX_MAX_DAYS: i64 = 5 * 366;
/// Default span of FX rates.
pub const FX_DEFAULT_DAYS: i64 = 30;

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
    let known = InstrumentId::new(Exchange::Fx, &pair)
        .ok()
        .and_then(|id| service.instrument(&id));
    if pair.len() != 6 || known.is_none() {
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
