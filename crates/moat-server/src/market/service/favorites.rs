//! A member's favourite instruments, in their order.

use std::{collections::HashSet, sync::Arc};

use moat_market::{Instrument, InstrumentId};
use moat_storage::MAX_FAVORITES;

use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    market::MarketState,
};

/// The member's favourites the catalogue knows, in their order.
pub async fn favorites(
    state: &MarketState,
    user_id: i64,
) -> Result<Vec<Arc<Instrument>>, ApiError> {
    let ids = state.storage.favorites(user_id).await?;
    Ok(ids
        .iter()
        .filter_map(|id| state.service.instrument(id))
        .collect())
}

/// Replaces the member's favourites with `ids` (as the request wrote them), in that
/// order, and answers the new list. `invalid_input` on `ids` when there are more than
/// [`MAX_FAVORITES`], or one is malformed, unknown or listed twice.
pub async fn set_favorites(
    state: &MarketState,
    user_id: i64,
    raw_ids: &[String],
) -> Result<Vec<Arc<Instrument>>, ApiError> {
    if raw_ids.len() > MAX_FAVORITES {
        return Err(ApiError::invalid_field(
            "ids",
            FieldError::new(
                ErrorCode::TooManyFavorites,
                format!("At most {MAX_FAVORITES} favourites."),
            )
            .param("max", MAX_FAVORITES),
        ));
    }
    let mut seen = HashSet::new();
    let mut ids = Vec::with_capacity(raw_ids.len());
    for raw in raw_ids {
        let id: InstrumentId = raw.parse().map_err(|_| {
            ApiError::invalid_field(
                "ids",
                FieldError::new(
                    ErrorCode::InvalidId,
                    format!("{raw:?} is not an instrument id."),
                ),
            )
        })?;
        if state.service.instrument(&id).is_none() {
            return Err(ApiError::invalid_field(
                "ids",
                FieldError::new(
                    ErrorCode::UnknownInstrument,
                    format!("There is no instrument {id}."),
                )
                .param("value", &id),
            ));
        }
        if !seen.insert(id.clone()) {
            return Err(ApiError::invalid_field(
                "ids",
                FieldError::new(ErrorCode::Duplicate, format!("{id} is listed twice."))
                    .param("value", &id),
            ));
        }
        ids.push(id);
    }
    state.storage.set_favorites(user_id, &ids).await?;
    favorites(state, user_id).await
}
