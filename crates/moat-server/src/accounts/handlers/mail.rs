//! The links sent by e-mail: `/api/auth/password-reset…` (forgot password) and
//! `/api/me/email/verification`, `/api/auth/email-verification` (the member's
//! address).

use axum::{extract::State, http::StatusCode};

use crate::{
    accounts::{
        dto::{
            EmailVerificationConfirm, EmailVerificationRequest, PasswordResetAvailability,
            PasswordResetConfirm, PasswordResetRequest, TokenResponse,
        },
        extract::{ClientIp, Member},
        service, AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
};

/// Whether "forgot password" can send a link (else: ask the operator).
#[utoipa::path(get, path = "/api/auth/password-reset", tag = "accounts", responses(
    (status = 200, body = PasswordResetAvailability),
))]
pub async fn password_reset_availability(
    State(state): State<AccountsState>,
) -> ApiJson<PasswordResetAvailability> {
    ApiJson(PasswordResetAvailability {
        available: service::password_reset_available(&state),
    })
}

/// Sends a reset link to the address if it is a member's. The answer is the same
/// either way (`202`, no body), and comes before anything is looked up.
#[utoipa::path(post, path = "/api/auth/password-reset", tag = "accounts", request_body = PasswordResetRequest, responses(
    (status = 202, description = "A link was sent if the address is a member's"),
    (status = 409, description = "`mail_not_configured`: ask the operator", body = ErrorBody),
    (status = 422, description = "`invalid_input` (`email`)", body = ErrorBody),
    (status = 429, description = "`rate_limited`", body = ErrorBody),
))]
pub async fn request_password_reset(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<PasswordResetRequest>,
) -> Result<StatusCode, ApiError> {
    service::request_password_reset(&state, ip, &body.email, body.language).await?;
    Ok(StatusCode::ACCEPTED)
}

/// Sets a new password with the token of a reset link: every session ends; the
/// answer is a new token.
#[utoipa::path(post, path = "/api/auth/password-reset/confirm", tag = "accounts", request_body = PasswordResetConfirm, responses(
    (status = 200, body = TokenResponse),
    (status = 422, description = "`invalid_input`: `token` (`link_expired`) or `new_password`", body = ErrorBody),
))]
pub async fn reset_password(
    State(state): State<AccountsState>,
    ApiJson(body): ApiJson<PasswordResetConfirm>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    let token = service::reset_password(&state, &body.token, &body.new_password).await?;
    Ok(ApiJson(TokenResponse { token }))
}

/// Sends the member a new link verifying their email (nothing when it is verified
/// already).
#[utoipa::path(post, path = "/api/me/email/verification", tag = "accounts", security(("bearer" = [])), request_body = EmailVerificationRequest, responses(
    (status = 202, description = "Sent (or nothing to verify)"),
    (status = 401, body = ErrorBody),
    (status = 409, description = "`mail_not_configured`", body = ErrorBody),
    (status = 429, description = "`rate_limited`", body = ErrorBody),
))]
pub async fn request_verification(
    State(state): State<AccountsState>,
    member: Member,
    ApiJson(body): ApiJson<EmailVerificationRequest>,
) -> Result<StatusCode, ApiError> {
    service::request_verification(&state, &member.user, body.language).await?;
    Ok(StatusCode::ACCEPTED)
}

/// Verifies the email with the token of a verification link (no log-in needed: the
/// link may be opened in another browser).
#[utoipa::path(post, path = "/api/auth/email-verification", tag = "accounts", request_body = EmailVerificationConfirm, responses(
    (status = 204, description = "Verified"),
    (status = 422, description = "`invalid_input`: `token` (`link_expired`)", body = ErrorBody),
))]
pub async fn confirm_verification(
    State(state): State<AccountsState>,
    ApiJson(body): ApiJson<EmailVerificationConfirm>,
) -> Result<StatusCode, ApiError> {
    service::confirm_verification(&state, &body.token).await?;
    Ok(StatusCode::NO_CONTENT)
}
