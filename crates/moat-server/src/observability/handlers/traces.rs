//! `/api/operator/observe/traces/{trace_id}`: a trace's spans.

use axum::extract::{Path, State};

use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    observability::{dto::TraceDto, service, ObservabilityState},
};

/// A trace's spans: the browser's and the server's, ready for a waterfall.
#[utoipa::path(get, path = "/api/operator/observe/traces/{trace_id}", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("trace_id" = String, Path, description = "32 hex digits")), responses(
    (status = 200, body = TraceDto),
    (status = 400, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_trace(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Path(trace_id): Path<String>,
) -> Result<ApiJson<TraceDto>, ApiError> {
    Ok(ApiJson(service::trace(&state, &trace_id).await?))
}
