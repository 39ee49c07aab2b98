//! `/api/me/favorites`.

use axum::extract::State;

use super::instrument_dto;
use crate::{
    accounts::extract::Member,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    market::{
        dto::{FavoritesRequest, InstrumentDto},
        service, MarketState,
    },
};

/// The member's favourites, in their order.
#[utoipa::path(get, path = "/api/me/favorites", tag = "market", security(("bearer" = [])), responses(
    (status = 200, body = [InstrumentDto]),
    (status = 401, body = ErrorBody),
))]
pub async fn get_favorites(
    State(state): State<MarketState>,
    member: Member,
) -> Result<ApiJson<Vec<InstrumentDto>>, ApiError> {
    let list = service::favorites(&state, member.user.id).await?;
    Ok(ApiJson(
        list.iter()
            .map(|i| instrument_dto(&state.service, i))
            .collect(),
    ))
}

/// Replaces the member's favourites with `ids`, in that order.
#[utoipa::path(put, path = "/api/me/favorites", tag = "market", security(("bearer" = [])), request_body = FavoritesRequest, responses(
    (status = 200, body = [InstrumentDto]),
    (status = 401, body = ErrorBody),
    (status = 422, description = "`invalid_input`: `ids` too long, duplicated, malformed or unknown", body = ErrorBody),
))]
pub async fn put_favorites(
    State(state): State<MarketState>,
    member: Member,
    ApiJson(body): ApiJson<FavoritesRequest>,
) -> Result<ApiJson<Vec<InstrumentDto>>, ApiError> {
    let list = service::set_favorites(&state, member.user.id, &body.ids).await?;
    Ok(ApiJson(
        list.iter()
            .map(|i| instrument_dto(&state.service, i))
            .collect(),
    ))
}
