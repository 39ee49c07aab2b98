//! A member's data across the areas: every area that stores something of a member
//! implements [`MemberData`] (what the member can download, and how it is removed
//! when they delete their account), and [`areas_with_member_data!`] lists the areas,
//! one line each. `GET /api/me/export` and `DELETE /api/me` (this module's routes)
//! call every area in that list; a test fails when a table that names a member is not
//! declared by an area in it (tests/member_data.rs).

use async_trait::async_trait;
use axum::{
    extract::State,
    http::{header, StatusCode},
    response::IntoResponse,
};
use chrono::SecondsFormat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    accounts::extract::{ClientIp, Member},
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    AppState,
};

/// A table holding members' rows, and its column naming the member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberTable {
    pub table: &'static str,
    pub column: &'static str,
}

/// An area's part in a member's data: its share of the export and its deletion.
#[async_trait]
pub trait MemberData: Send + Sync {
    /// The area's part of `GET /api/me/export`; its fields are flattened into the
    /// export, so they must not collide with another area's (a test checks).
    type Export: Serialize + Send;

    /// The area's tables that hold members' rows. Every table of the schema that
    /// names a member must be declared by exactly one area (a test checks).
    const TABLES: &'static [MemberTable];

    /// The member's data in this area, as they download it.
    async fn export(&self, member: &Member) -> Result<Self::Export, ApiError>;

    /// Removes the member's data in this area (account deletion). Runs before the
    /// account itself becomes a tombstone, and again if a deletion is retried, so it
    /// must be idempotent.
    async fn delete(&self, member: &Member) -> Result<(), ApiError>;

    /// [`MemberData::TABLES`], through a value.
    fn tables(&self) -> &'static [MemberTable] {
        Self::TABLES
    }
}

/// Declares the areas that keep member data (one line each, `field => Export`), and
/// with them the export's type, the export and the deletion of every area. Deletion
/// runs in list order: accounts comes last, since its part turns the account into a
/// tombstone and closes the member's sockets.
macro_rules! areas_with_member_data {
    ($($area:ident => $export:ty),+ $(,)?) => {
        /// Everything Moat keeps about a member, area by area (`GET /api/me/export`).
        #[derive(Serialize, ToSchema)]
        pub struct MemberExport {
            /// RFC 3339.
            pub exported_at: String,
            $(
                #[serde(flatten)]
                pub $area: $export,
            )+
        }

        async fn export_every_area(
            state: &AppState,
            member: &Member,
        ) -> Result<MemberExport, ApiError> {
            Ok(MemberExport {
                exported_at: state
                    .accounts
                    .auth
                    .now_utc()
                    .to_rfc3339_opts(SecondsFormat::Secs, true),
                $( $area: MemberData::export(&state.$area, member).await?, )+
            })
        }

        async fn delete_in_every_area(state: &AppState, member: &Member) -> Result<(), ApiError> {
            $( MemberData::delete(&state.$area, member).await?; )+
            Ok(())
        }

        /// Each area that keeps member data, with its tables.
        pub fn member_tables(state: &AppState) -> Vec<(&'static str, &'static [MemberTable])> {
            vec![$( (stringify!($area), MemberData::tables(&state.$area)) ),+]
        }
    };
}

areas_with_member_data! {
    market => crate::market::MarketExport,
    portfolio => crate::portfolio::PortfolioExport,
    observability => crate::observability::ObservabilityExport,
    accounts => crate::accounts::AccountsExport,
}

/// The routes that span every area: the export and the deletion of an account.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(export_me))
        .routes(routes!(delete_me))
}

/// Everything Moat keeps about the member, as a JSON download: the account, linked
/// logins, sessions, and each area's data (favourites, portfolios with every
/// transaction, recorded sessions).
#[utoipa::path(get, path = "/api/me/export", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = MemberExport),
    (status = 401, body = ErrorBody),
))]
pub async fn export_me(
    State(state): State<AppState>,
    member: Member,
) -> Result<impl IntoResponse, ApiError> {
    let export = export_every_area(&state, &member).await?;
    Ok((
        [
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"moat-export.json\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        ApiJson(export),
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct DeleteMeRequest {
    /// Required when the account has a password.
    #[serde(default)]
    pub password: Option<String>,
}

/// Deletes the account: every area removes the member's data, then the account
/// becomes a tombstone (content stays as "a deleted member"). Needs the password, or
/// for social-only members a log-in under 10 minutes old.
#[utoipa::path(delete, path = "/api/me", tag = "accounts", security(("bearer" = [])), request_body = DeleteMeRequest, responses(
    (status = 204, description = "Deleted"),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`reauthentication_required`", body = ErrorBody),
    (status = 422, description = "`fields.password`", body = ErrorBody),
))]
pub async fn delete_me(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    member: Member,
    ApiJson(body): ApiJson<DeleteMeRequest>,
) -> Result<StatusCode, ApiError> {
    crate::accounts::service::confirm_deletion(
        &state.accounts,
        ip,
        &member,
        body.password.as_deref(),
    )
    .await?;
    delete_in_every_area(&state, &member).await?;
    tracing::info!(user_id = member.user.id, "account deleted");
    Ok(StatusCode::NO_CONTENT)
}
