//! `/api/users/{nickname}` and `/api/admin/users/{user_id}/premium`: members as
//! others see them, and the operators' premium switch.

use axum::extract::{Path, State};

use crate::{
    accounts::{
        dto::{Me, PublicProfile, SetBannedRequest, SetPremiumRequest},
        extract::Operator,
        service, AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
};

/// A member's public profile.
#[utoipa::path(get, path = "/api/users/{nickname}", tag = "accounts", params(("nickname" = String, Path)), responses(
    (status = 200, body = PublicProfile),
    (status = 404, body = ErrorBody),
))]
pub async fn get_user(
    State(state): State<AccountsState>,
    Path(nickname): Path<String>,
) -> Result<ApiJson<PublicProfile>, ApiError> {
    service::public_profile(&state, &nickname)
        .await?
        .map(ApiJson)
        .ok_or_else(|| ApiError::not_found("There is no member with this nickname."))
}

/// Turns a member's premium flag on or off (operators only).
#[utoipa::path(put, path = "/api/admin/users/{user_id}/premium", tag = "accounts", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("user_id" = i64, Path)), request_body = SetPremiumRequest, responses(
    (status = 200, body = Me),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn set_premium(
    State(state): State<AccountsState>,
    _operator: Operator,
    Path(user_id): Path<i64>,
    ApiJson(body): ApiJson<SetPremiumRequest>,
) -> Result<ApiJson<Me>, ApiError> {
    let me = service::set_premium(&state, user_id, body.premium).await?;
    Ok(ApiJson(me))
}

/// Bans a member or lifts the ban (operators only). A ban ends every session of the
/// member and closes their live sockets on every instance.
#[utoipa::path(put, path = "/api/admin/users/{user_id}/ban", tag = "accounts", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("user_id" = i64, Path)), request_body = SetBannedRequest, responses(
    (status = 204, description = "Done"),
    (status = 400, description = "`bad_request`: an operator banning themselves", body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn set_banned(
    State(state): State<AccountsState>,
    operator: Operator,
    Path(user_id): Path<i64>,
    ApiJson(body): ApiJson<SetBannedRequest>,
) -> Result<axum::http::StatusCode, ApiError> {
    service::set_banned(&state, operator.0.user.id, user_id, body.banned).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
