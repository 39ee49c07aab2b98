//! `/api/fx/{pair}` and `/api/fx/{pair}/rate`.

use axum::extract::{Path, Query, State};

use crate::{
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{
        dto::{FxDto, FxParams, FxRateDto, FxRateOnDto, FxRateOnParams},
        service, MarketState,
    },
};

/// Daily FX rates of a pair (`USDKRW`: one USD in KRW).
#[utoipa::path(get, path = "/api/fx/{pair}", tag = "market", params(("pair" = String, Path, description = "e.g. `USDKRW`"), FxParams), responses(
    (status = 200, body = FxDto),
    (status = 404, description = "unknown pair", body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: bad dates or a span over 5 years", body = ErrorBody),
))]
pub async fn get_fx(
    State(state): State<MarketState>,
    Path(pair): Path<String>,
    Query(params): Query<FxParams>,
) -> Result<ApiJson<FxDto>, ApiError> {
    let series = service::fx_series(
        &state.service,
        &pair,
        params.from.as_deref(),
        params.to.as_deref(),
    )
    .await?;
    Ok(ApiJson(FxDto {
        pair: series.pair,
        rates: series.rates.iter().map(FxRateDto::from).collect(),
    }))
}

/// A pair's rate for a date (`USDKRW`: one USD in KRW), to prefill a trade's exchange
/// rate: the last daily rate on or before the date, within 14 days; either direction of
/// a stored pair (`KRWUSD` too).
#[utoipa::path(get, path = "/api/fx/{pair}/rate", tag = "market", params(("pair" = String, Path, description = "e.g. `USDKRW` or `KRWUSD`"), FxRateOnParams), responses(
    (status = 200, body = FxRateOnDto),
    (status = 404, description = "a pair the market has no rates for", body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: a bad date", body = ErrorBody),
))]
pub async fn get_fx_rate_on(
    State(state): State<MarketState>,
    Path(pair): Path<String>,
    Query(params): Query<FxRateOnParams>,
) -> Result<ApiJson<FxRateOnDto>, ApiError> {
    let on = service::fx_rate_on(&state.service, &pair, params.date.as_deref()).await?;
    Ok(ApiJson(FxRateOnDto {
        pair: on.pair,
        date: on.date.to_string(),
        rate: on.rate.map(|(_, r)| r.to_string()),
        rate_date: on.rate.map(|(d, _)| d.to_string()),
    }))
}
