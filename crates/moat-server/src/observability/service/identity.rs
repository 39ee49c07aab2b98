//! Whose recorded session it is (docs/observability.md, "Whose session").
//!
//! The recorder's `identifySession` arrives without the member's token, so anyone who
//! knows a session's secure id could send it: it is kept only as a claim
//! (`service::graphql`'s `identifySession`). What the operator sees as the session's
//! member, and filters by, is set here, by the member's own authenticated request: the
//! web app, logged in, binds the session it records to the member whose token it
//! sends. A session belongs to the first member bound to it; that member may bind it
//! again (a new nickname), another member's token is refused and changes nothing.

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)
use serde_json::json;

use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    observability::{limits, ObservabilityState},
};

/// Binds the recorded session `secure_id` to the member `user_id`: the session's
/// member becomes that id and its user object `{"nickname": …}`, as stored on the
/// server.
pub async fn bind_session(
    state: &ObservabilityState,
    secure_id: &str,
    user_id: i64,
    nickname: Option<&str>,
) -> Result<(), ApiError> {
    if !limits::is_secure_id(secure_id) {
        return Err(ApiError::invalid_parameter(
            "secure_id",
            FieldError::new(
                ErrorCode::InvalidId,
                format!(
                    "A session secure id is 1 to {} of A-Z, a-z, 0-9, - and _.",
                    limits::MAX_SECURE_ID_CHARS
                ),
            ),
        ));
    }
    let session = state
        .storage
        .obs_session(secure_id)
        .await?
        .ok_or_else(|| ApiError::not_found("No recorded session has this id."))?;
    let object = json!({ "nickname": nickname.unwrap_or_default() });
    let bound = state
        .storage
        .obs_bind_session(session.id, &user_id.to_string(), &object.to_string())
        .await?;
    if !bound {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ErrorCode::SessionBound,
            "This recorded session belongs to another member.",
        ));
    }
    Ok(())
}
