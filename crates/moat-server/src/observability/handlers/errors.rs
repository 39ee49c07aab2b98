//! `/api/operator/observe/errors…`: error groups and their occurrences.

use axum::extract::{Path, Query, State};

use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    observability::{
        dto::{ErrorGroupDetail, ErrorGroupList, PageParams},
        service, ObservabilityState,
    },
};

/// Error groups, most recently seen first.
#[utoipa::path(get, path = "/api/operator/observe/errors", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(PageParams), responses(
    (status = 200, body = ErrorGroupList),
    (status = 400, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn list_error_groups(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Query(p): Query<PageParams>,
) -> Result<ApiJson<ErrorGroupList>, ApiError> {
    Ok(ApiJson(service::list_error_groups(&state, p).await?))
}

/// An error group with its latest occurrences.
#[utoipa::path(get, path = "/api/operator/observe/errors/{id}", tag = "observability", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("id" = i64, Path)), responses(
    (status = 200, body = ErrorGroupDetail),
    (status = 400, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_error_group(
    State(state): State<ObservabilityState>,
    _operator: Operator,
    Path(id): Path<String>,
) -> Result<ApiJson<ErrorGroupDetail>, ApiError> {
    Ok(ApiJson(service::error_group(&state, &id).await?))
}
