//! `/api/operator/observe/feedback`: the feedback the operator reads; `POST
//! /api/feedback`: feedback sent without the session recorder.

use axum::{
    extract::{FromRef, FromRequestParts, Query, State},
    http::{header, request::Parts, StatusCode},
};

use crate::{
    accounts::extract::Operator,
    accounts::{
        extract::{ClientIp, Member},
        AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    observability::{
        dto::{FeedbackList, FeedbackParams, SendFeedbackRequest},
        service::{self, FeedbackSender},
        ObservabilityState,
    },
};

/// The member when the request carries a token (checked as for any member route: a bad
/// token is `401 token_invalid`), nobody without one.
pub struct MaybeMember(pub Option<Member>);

impl<S> FromRequestParts<S> for MaybeMember
where
    AccountsState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if !parts.headers.contains_key(header::AUTHORIZATION) {
            return Ok(Self(None));
        }
        Ok(Self(Some(Member::from_request_parts(parts, state).await?)))
    }
}

/// Longest `User-Agent` kept with a direct feedback's session, in characters.
const MAX_USER_AGENT_CHARS: usize = 512;

/// Sends feedback without the session recorder (recording off, or a browser it skips),
/// as a visitor or a member (by the token). Stored with the recorder's feedback, under a
/// session of its own without a replay; the operator reads it at
/// `/api/operator/observe/feedback`.
#[utoipa::path(post, path = "/api/feedback", tag = "observability", security((), ("bearer" = [])),
    request_body = SendFeedbackRequest, responses(
    (status = 204, description = "Stored"),
    (status = 401, description = "`token_invalid`: a token was sent and it is not valid", body = ErrorBody),
    (status = 422, description = "`invalid_input`: `required`/`too_long` text, `too_long` name, `email_invalid`/`too_long` address; nothing is stored", body = ErrorBody),
    (status = 429, description = "`rate_limited`: this address sent too much feedback this hour (`Retry-After`)", body = ErrorBody),
))]
pub async fn send_feedback(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    MaybeMember(member): MaybeMember,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<SendFeedbackRequest>,
) -> Result<StatusCode, ApiError> {
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| crate::observability::redact::truncate(ua, MAX_USER_AGENT_CHARS));
    let sender = FeedbackSender {
        ip,
        user_agent,
        member: member
            .as_ref()
            .map(|m| (m.user.id, m.user.nickname.as_deref())),
    };
    service::send_feedback(&state, sender, body).await?;
    Ok(StatusCode::NO_CONTENT)
}

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
