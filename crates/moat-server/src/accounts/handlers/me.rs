//! `/api/me` and `/api/me/password`: the logged-in member's own account (its export
//! and deletion are every area's, in `crate::member_data`).

use axum::extract::State;

use crate::{
    accounts::{
        dto::{ChangePasswordRequest, Me, TokenResponse, UpdateMeRequest},
        extract::{ClientIp, Member},
        service, AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
};

/// The logged-in member's account.
#[utoipa::path(get, path = "/api/me", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = Me),
    (status = 401, body = ErrorBody),
))]
pub async fn get_me(
    State(state): State<AccountsState>,
    member: Member,
) -> Result<ApiJson<Me>, ApiError> {
    Ok(ApiJson(service::me_of(&state, &member.user).await?))
}

/// Changes the nickname; the answer is a new token carrying it.
#[utoipa::path(patch, path = "/api/me", tag = "accounts", security(("bearer" = [])), request_body = UpdateMeRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, body = ErrorBody),
    (status = 409, description = "`nickname_taken`", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update_me(
    State(state): State<AccountsState>,
    member: Member,
    ApiJson(body): ApiJson<UpdateMeRequest>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    let token = service::rename(&state, &member, &body.nickname).await?;
    Ok(ApiJson(TokenResponse { token }))
}

/// Sets a new password (the current one is required when there is one). Every
/// session ends; the answer is a new token.
#[utoipa::path(post, path = "/api/me/password", tag = "accounts", security(("bearer" = [])), request_body = ChangePasswordRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, body = ErrorBody),
    (status = 422, description = "`fields.current_password` or `fields.new_password`", body = ErrorBody),
    (status = 429, body = ErrorBody),
))]
pub async fn change_password(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    member: Member,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    let token = service::change_password(
        &state,
        ip,
        &member.user,
        body.current_password.as_deref(),
        &body.new_password,
    )
    .await?;
    Ok(ApiJson(TokenResponse { token }))
}
