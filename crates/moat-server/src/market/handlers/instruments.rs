//! `/api/instruments/search` and `/api/instruments/{id}`.

use axum::extract::{Path, Query, State};

use super::instrument_dto;
use crate::{
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{
        dto::{InstrumentDetail, InstrumentDto, QuoteDto, SearchParams, StatsDto},
        service, MarketState,
    },
};

/// Ranked instrument search.
#[utoipa::path(get, path = "/api/instruments/search", tag = "market", params(SearchParams), responses(
    (status = 200, body = [InstrumentDto]),
    (status = 400, description = "`invalid_parameter`: `q` over 64 characters or `limit` not a whole number from 1 to 50", body = ErrorBody),
))]
pub async fn search(
    State(state): State<MarketState>,
    Query(params): Query<SearchParams>,
) -> Result<ApiJson<Vec<InstrumentDto>>, ApiError> {
    let hits = service::search(&state.service, &params.q, params.limit.as_deref())?;
    Ok(ApiJson(
        hits.iter()
            .map(|i| instrument_dto(&state.service, i))
            .collect(),
    ))
}

/// One instrument with its quote and key figures.
#[utoipa::path(get, path = "/api/instruments/{id}", tag = "market", params(("id" = String, Path, description = "e.g. `KRX:005930`")), responses(
    (status = 200, body = InstrumentDetail),
    (status = 404, body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: malformed id", body = ErrorBody),
))]
pub async fn get_instrument(
    State(state): State<MarketState>,
    Path(raw): Path<String>,
) -> Result<ApiJson<InstrumentDetail>, ApiError> {
    let inst = state.service.find(&raw)?;
    let quote = state.service.quote(&inst).await;
    let stats = service::stats(&state.service, &inst, quote.as_ref()).await?;
    Ok(ApiJson(InstrumentDetail {
        instrument: instrument_dto(&state.service, &inst),
        quote: quote.as_ref().map(QuoteDto::from),
        stats: StatsDto::from(&stats),
    }))
}
