//! The portfolio area's part of a member's data: every portfolio with every
//! transaction. Deleting it removes them and the member's stored idempotent answers.

use async_trait::async_trait;
use serde::Serialize;
use utoipa::ToSchema;

use super::{PortfolioDto, PortfolioState, TransactionDto};
use crate::{
    accounts::extract::Member,
    http::error::ApiError,
    member_data::{MemberData, MemberTable},
};

/// The member's portfolios, as they download them.
#[derive(Serialize, ToSchema)]
pub struct PortfolioExport {
    /// Portfolios, in the member's order, each with every transaction.
    pub portfolios: Vec<ExportedPortfolio>,
}

#[derive(Serialize, ToSchema)]
pub struct ExportedPortfolio {
    pub portfolio: PortfolioDto,
    pub transactions: Vec<TransactionDto>,
}

#[async_trait]
impl MemberData for PortfolioState {
    type Export = PortfolioExport;

    const TABLES: &'static [MemberTable] = &[
        MemberTable {
            table: "portfolios",
            column: "user_id",
        },
        MemberTable {
            table: "idempotency_keys",
            column: "user_id",
        },
    ];

    async fn export(&self, member: &Member) -> Result<PortfolioExport, ApiError> {
        let user_id = member.user.id;
        let mut portfolios = Vec::new();
        for p in self.storage.list_portfolios(user_id).await? {
            let transactions = self.storage.transactions(user_id, p.id).await?;
            portfolios.push(ExportedPortfolio {
                portfolio: (&p).into(),
                transactions: transactions.iter().map(Into::into).collect(),
            });
        }
        Ok(PortfolioExport { portfolios })
    }

    async fn delete(&self, member: &Member) -> Result<(), ApiError> {
        Ok(self
            .storage
            .delete_member_portfolios(member.user.id)
            .await?)
    }
}
