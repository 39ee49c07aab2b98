//! `/api/operator/observe/sessions…`: recorded sessions, one with its timeline, and
//! its replay.

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};

use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    observability::{
        dto::{ObsReplay, ObsSessionDetail, ObsSessionList, ReplayParams, SessionListParams},
        service, ObservabilityState,
    },
};

/// Recorded sessions, newest first.
#[utoipa::path(get, path = "/api/operator/observe/sessions", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(SessionListParams), responses(
    (status = 200, body = ObsSessionList),
    (status = 400, description = "`invalid_parameter`", body = ErrorBody),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
))]
pub async fn list_sessions(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Query(p): Query<SessionListParams>,
) -> Result<ApiJson<ObsSessionList>, ApiError> {
    Ok(ApiJson(service::list_sessions(&state, p).await?))
}

/// One session with its timeline: page loads, navigations, clicks, console messages,
/// network requests and errors.
#[utoipa::path(get, path = "/api/operator/observe/sessions/{secure_id}", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("secure_id" = String, Path)), responses(
    (status = 200, body = ObsSessionDetail),
    (status = 403, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_session(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Path(secure_id): Path<String>,
) -> Result<ApiJson<ObsSessionDetail>, ApiError> {
    Ok(ApiJson(service::session_detail(&state, &secure_id).await?))
}

/// One page of the session's replay events, ready for an rrweb player: the player
/// starts on the first page and takes the rest as they come. The body is compressed
/// like every API response.
#[utoipa::path(get, path = "/api/operator/observe/sessions/{secure_id}/replay", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("secure_id" = String, Path), ReplayParams), responses(
    (status = 200, body = ObsReplay),
    (status = 400, description = "`invalid_parameter`", body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_replay(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Path(secure_id): Path<String>,
    Query(p): Query<ReplayParams>,
) -> Result<Response, ApiError> {
    let body = service::replay_page(&state, secure_id, p).await?;
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response())
}
