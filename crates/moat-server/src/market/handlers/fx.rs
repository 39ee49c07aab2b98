//! `/api/fx/{pair}`.

use axum::extract::{Path, Query, State};

use crate::{
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{
        dto::{FxDto, FxParams, FxRateDto},
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
