//! The market area's part of a member's data: their favourite instruments.

use async_trait::async_trait;
use serde::Serialize;
use utoipa::ToSchema;

use super::MarketState;
use crate::{
    accounts::extract::Member,
    http::error::ApiError,
    member_data::{MemberData, MemberTable},
};

/// The member's favourites, as they download them.
#[derive(Serialize, ToSchema)]
pub struct MarketExport {
    /// Favourite instrument ids, in the member's order.
    pub favorites: Vec<String>,
}

#[async_trait]
impl MemberData for MarketState {
    type Export = MarketExport;

    const TABLES: &'static [MemberTable] = &[MemberTable {
        table: "favorites",
        column: "user_id",
    }];

    async fn export(&self, member: &Member) -> Result<MarketExport, ApiError> {
        let favorites = self.storage.favorites(member.user.id).await?;
        Ok(MarketExport {
            favorites: favorites.iter().map(ToString::to_string).collect(),
        })
    }

    async fn delete(&self, member: &Member) -> Result<(), ApiError> {
        Ok(self.storage.set_favorites(member.user.id, &[]).await?)
    }
}
