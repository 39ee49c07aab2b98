//! `/api/operator/observe/feedback`: feedback sent from recorded sessions.

use axum::extract::{Query, State};

use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    observability::{
        dto::{FeedbackList, FeedbackParams},
        service, ObservabilityState,
    },
};

/// Feedback sent from recorded sessions, newest first.
#[utoipa::path(get, path = "/api/operator/observe/feedback", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(FeedbackParams), responses(
    (status = 200, body = FeedbackList),
    (status = 400, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn list_feedback(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Query(p): Query<FeedbackParams>,
) -> Result<ApiJson<FeedbackList>, ApiError> {
    Ok(ApiJson(service::list_feedback(&state, p).await?))
}
