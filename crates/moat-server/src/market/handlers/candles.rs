//! `/api/instruments/{id}/candles`.

use axum::extract::{Path, Query, State};

use crate::{
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{
        dto::{CandleDto, CandleParams, CandlesDto},
        service, MarketState,
    },
};

/// Candles for a chart range.
#[utoipa::path(get, path = "/api/instruments/{id}/candles", tag = "market", params(("id" = String, Path), CandleParams), responses(
    (status = 200, body = CandlesDto),
    (status = 404, body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: unknown `range`", body = ErrorBody),
))]
pub async fn get_candles(
    State(state): State<MarketState>,
    Path(raw): Path<String>,
    Query(params): Query<CandleParams>,
) -> Result<ApiJson<CandlesDto>, ApiError> {
    let inst = state.service.find(&raw)?;
    let chart = service::chart(&state.service, &inst, params.range.as_deref()).await?;
    Ok(ApiJson(CandlesDto {
        instrument_id: inst.id.to_string(),
        range: chart.range,
        interval: chart.interval.to_owned(),
        candles: chart.candles.iter().map(CandleDto::from).collect(),
    }))
}
