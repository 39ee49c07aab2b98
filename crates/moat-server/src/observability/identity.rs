//! Whose recorded session it is (docs/observability.md, "Whose session").
//!
//! The recorder's `identifySession` arrives without the member's token, so anyone who
//! knows a session's secure id could send it: it is kept only as a claim
//! (`graphql::identify_session`). What the operator sees as the session's member, and
//! filters by, is set here, by the member's own authenticated request: the web app,
//! logged in, binds the session it records to the member whose token it sends. A
//! session belongs to the first member bound to it; that member may bind it again (a
//! new nickname), another member's token is refused and changes nothing.

use axum::{
    extract::{Path, State},
    http::StatusCode,
};
use serde_json::json;

use super::limits;
use crate::{
    accounts::extract::Member,
    http::error::{ApiError, ErrorBody, ErrorCode, FieldError},
    observability::ObservabilityState,
};

/// Binds a recorded session to the calling member: the session's member becomes the
/// caller's user id and its user object `{"nickname": …}`, as stored on the server.
#[utoipa::path(put, path = "/api/observe/sessions/{secure_id}/member", tag = "observability", security(("bearer" = [])),
    params(("secure_id" = String, Path, description = "The recorder's session secure id.")), responses(
    (status = 204, description = "The session is bound to the caller"),
    (status = 400, description = "`invalid_parameter`: not a session secure id", body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 404, description = "`not_found`: no recorded session has this id", body = ErrorBody),
    (status = 409, description = "`session_bound`: the session belongs to another member; nothing changes", body = ErrorBody),
))]
pub async fn bind_session(
    State(state): State<ObservabilityState>,
    member: Member,
    Path(secure_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    if !limits::is_secure_id(&secure_id) {
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
        .obs_session(&secure_id)
        .await?
        .ok_or_else(|| ApiError::not_found("No recorded session has this id."))?;
    let user = &member.user;
    let object = json!({ "nickname": user.nickname.as_deref().unwrap_or_default() });
    let bound = state
        .storage
        .obs_bind_session(session.id, &user.id.to_string(), &object.to_string())
        .await?;
    if !bound {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ErrorCode::SessionBound,
            "This recorded session belongs to another member.",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}
