//! `/api/operator/observe/vitals`: the web vitals report.

use axum::extract::{Query, State};

use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    observability::{
        dto::{VitalsParams, VitalsReport},
        service, ObservabilityState,
    },
};

/// Web vitals at the 75th percentile, overall and per page, rated against the
/// spec's thresholds.
#[utoipa::path(get, path = "/api/operator/observe/vitals", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(VitalsParams), responses(
    (status = 200, body = VitalsReport),
    (status = 400, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn vitals_report(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Query(p): Query<VitalsParams>,
) -> Result<ApiJson<VitalsReport>, ApiError> {
    Ok(ApiJson(service::vitals_report(&state, p).await?))
}
