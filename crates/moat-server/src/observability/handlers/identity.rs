//! `PUT /api/observe/sessions/{secure_id}/member`: the member binds the session their
//! web app records to themselves (see `service::bind_session` for why the recorder's
//! own `identifySession` is only a claim).

use axum::{
    extract::{Path, State},
    http::StatusCode,
};

use crate::{
    accounts::extract::Member,
    http::error::{ApiError, ErrorBody},
    observability::{service, ObservabilityState},
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
    let user = &member.user;
    service::bind_session(&state, &secure_id, user.id, user.nickname.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}
