//! The accounts' application logic that other modules call.

use std::net::IpAddr;

use axum::http::StatusCode;

use super::{extract::Member, AccountsState, RECENT_LOGIN};
use crate::http::error::{ApiError, ErrorCode};

/// Checks that the member may delete their account now: the password when the
/// account has one, else a log-in under [`RECENT_LOGIN`] old (`403
/// reauthentication_required`).
pub async fn confirm_deletion(
    state: &AccountsState,
    ip: IpAddr,
    member: &Member,
    password: Option<&str>,
) -> Result<(), ApiError> {
    let user = &member.user;
    if user.password_hash.is_some() {
        super::routes::confirm_password(state, ip, user, "password", password).await
    } else if state.auth.now() - member.session.issued_at > RECENT_LOGIN.as_secs() as i64 {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::ReauthenticationRequired,
            "Log in again, then delete the account within 10 minutes.",
        ))
    } else {
        Ok(())
    }
}
