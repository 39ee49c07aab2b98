//! `/api/market/providers`.

use axum::extract::State;

use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{dto::ProviderStatusDto, service, MarketState},
};

/// The providers per market (operators only).
#[utoipa::path(get, path = "/api/market/providers", tag = "market", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), responses(
    (status = 200, body = [ProviderStatusDto]),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn providers(
    State(state): State<MarketState>,
    _operator: Operator,
) -> Result<ApiJson<Vec<ProviderStatusDto>>, ApiError> {
    let statuses = service::provider_statuses(&state).await?;
    Ok(ApiJson(
        statuses.into_iter().map(ProviderStatusDto::from).collect(),
    ))
}
