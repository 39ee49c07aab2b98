//! `/api/auth/signup`, `/api/auth/login` and `/api/auth/logout`.

use axum::{extract::State, http::StatusCode};

use crate::{
    accounts::{
        dto::{LoginRequest, SignupRequest, TokenResponse},
        extract::{ClientIp, Member},
        service, AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
};

/// Creates an account with email and password; the first account of an install is
/// the operator.
#[utoipa::path(post, path = "/api/auth/signup", tag = "accounts", request_body = SignupRequest, responses(
    (status = 201, body = TokenResponse),
    (status = 409, description = "`email_taken` or `nickname_taken`", body = ErrorBody),
    (status = 422, description = "`invalid_input`, `fields` names each bad field", body = ErrorBody),
    (status = 429, description = "`rate_limited`", body = ErrorBody),
))]
pub async fn signup(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<SignupRequest>,
) -> Result<(StatusCode, ApiJson<TokenResponse>), ApiError> {
    let token = service::signup(&state, ip, &body).await?;
    Ok((StatusCode::CREATED, ApiJson(TokenResponse { token })))
}

/// Logs in with email and password; with a `link_ticket`, also links the social
/// identity it names.
#[utoipa::path(post, path = "/api/auth/login", tag = "accounts", request_body = LoginRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, description = "`invalid_credentials` (same answer for an unknown email)", body = ErrorBody),
    (status = 403, description = "`account_banned`", body = ErrorBody),
    (status = 422, description = "`invalid_input` (an expired or unknown `link_ticket`)", body = ErrorBody),
    (status = 429, description = "`rate_limited`", body = ErrorBody),
))]
pub async fn login(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<LoginRequest>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    let token = service::login(&state, ip, &body).await?;
    Ok(ApiJson(TokenResponse { token }))
}

/// Ends this session (the token stops working).
#[utoipa::path(post, path = "/api/auth/logout", tag = "accounts", security(("bearer" = [])), responses(
    (status = 204, description = "Logged out"),
    (status = 401, body = ErrorBody),
))]
pub async fn logout(
    State(state): State<AccountsState>,
    member: Member,
) -> Result<StatusCode, ApiError> {
    service::logout(&state, &member.session).await?;
    Ok(StatusCode::NO_CONTENT)
}
