//! `/api/instruments/{id}/quote`.

use axum::extract::{Path, State};

use crate::{
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{dto::QuoteDto, service, MarketState},
};

/// The latest quote.
#[utoipa::path(get, path = "/api/instruments/{id}/quote", tag = "market", params(("id" = String, Path)), responses(
    (status = 200, body = QuoteDto),
    (status = 404, body = ErrorBody),
    (status = 503, description = "`quote_unavailable`: the source has given no price yet", body = ErrorBody),
))]
pub async fn get_quote(
    State(state): State<MarketState>,
    Path(raw): Path<String>,
) -> Result<ApiJson<QuoteDto>, ApiError> {
    let inst = state.service.find(&raw)?;
    let quote = service::available_quote(&state.service, &inst).await?;
    Ok(ApiJson(QuoteDto::from(&quote)))
}
