//! `/api/legal` (the terms and the privacy policy), their publication by operators,
//! and `/api/me/consents` (a member accepts the current versions).

use axum::extract::{Path, State};

use crate::{
    accounts::{
        dto::{AcceptConsentsRequest, LegalDocumentInfo, Me, PublishLegalRequest},
        extract::{Member, Operator},
        service, AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
};

/// The current version of each published document (none before an operator publishes).
#[utoipa::path(get, path = "/api/legal", tag = "accounts", responses(
    (status = 200, body = Vec<LegalDocumentInfo>),
))]
pub async fn list_legal(
    State(state): State<AccountsState>,
) -> Result<ApiJson<Vec<LegalDocumentInfo>>, ApiError> {
    Ok(ApiJson(service::legal_documents(&state).await?))
}

/// Publishes a new version of `terms` or `privacy` (operators only): every member
/// accepts it at their next log-in.
#[utoipa::path(put, path = "/api/admin/legal/{kind}", tag = "accounts", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("kind" = String, Path, description = "`terms` or `privacy`")), request_body = PublishLegalRequest, responses(
    (status = 200, body = LegalDocumentInfo),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
    (status = 404, description = "not `terms` or `privacy`", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn publish_legal(
    State(state): State<AccountsState>,
    _operator: Operator,
    Path(kind): Path<String>,
    ApiJson(body): ApiJson<PublishLegalRequest>,
) -> Result<ApiJson<LegalDocumentInfo>, ApiError> {
    Ok(ApiJson(
        service::publish_legal(&state, &kind, &body.body).await?,
    ))
}

/// Accepts the current versions of the documents; answers the account.
#[utoipa::path(post, path = "/api/me/consents", tag = "accounts", security(("bearer" = [])), request_body = AcceptConsentsRequest, responses(
    (status = 200, body = Me),
    (status = 401, body = ErrorBody),
    (status = 422, description = "`invalid_input`: `consents` (`consent_required`)", body = ErrorBody),
))]
pub async fn accept_consents(
    State(state): State<AccountsState>,
    member: Member,
    ApiJson(body): ApiJson<AcceptConsentsRequest>,
) -> Result<ApiJson<Me>, ApiError> {
    Ok(ApiJson(
        service::accept_consents(&state, &member.user, &body.consents).await?,
    ))
}
