//! The operator's read API over recorded sessions, errors, feedback, web vitals and
//! traces: `/api/operator/observe/…`, operators only (401 without a token, 403 for a
//! member). Session times are RFC 3339; replay and timeline times are the client's
//! epoch milliseconds, as the replay events carry them.

use std::collections::{BTreeMap, BTreeSet};

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use moat_storage::observability::{
    ErrorGroupRow, ErrorOccurrenceRow, ObsSessionFilter, ObsSessionRow, SpanRow,
};

use super::{ingest, limits, vitals};
use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody, ErrorCode, FieldError},
        json::ApiJson,
    },
    observability::ObservabilityState,
};

/// Default and largest page sizes.
pub const DEFAULT_PAGE: i64 = 50;
pub const MAX_PAGE: i64 = 200;
/// Items of each kind in a session's timeline.
pub const MAX_TIMELINE_ITEMS: i64 = 2_000;
/// Occurrences listed with an error group.
pub const MAX_OCCURRENCES: i64 = 200;
/// Metric samples read for one vitals report.
pub const MAX_VITAL_SAMPLES: i64 = 200_000;
/// Default span of the vitals report.
pub const DEFAULT_VITALS_DAYS: i64 = 7;

fn rfc3339_ms(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn json_field(s: Option<&str>) -> Option<Value> {
    s.and_then(|s| serde_json::from_str(s).ok())
}

fn limit_param(raw: Option<&str>) -> Result<i64, ApiError> {
    bounded_limit(raw, DEFAULT_PAGE, MAX_PAGE)
}

/// `limit`: `default` when absent, else 1 to `max`.
fn bounded_limit(raw: Option<&str>, default: i64, max: i64) -> Result<i64, ApiError> {
    match raw {
        None | Some("") => Ok(default),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| {
                ApiError::invalid_parameter(
                    "limit",
                    FieldError::new(ErrorCode::OutOfRange, format!("1 to {max}."))
                        .param("min", 1)
                        .param("max", max),
                )
            }),
    }
}

fn id_param(name: &str, raw: Option<&str>) -> Result<Option<i64>, ApiError> {
    match raw {
        None | Some("") => Ok(None),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .map(Some)
            .ok_or_else(|| {
                ApiError::invalid_parameter(
                    name,
                    FieldError::new(ErrorCode::OutOfRange, "A positive number.").param("min", 1),
                )
            }),
    }
}

fn bool_param(name: &str, raw: Option<&str>) -> Result<Option<bool>, ApiError> {
    match raw {
        None | Some("") => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(ApiError::invalid_parameter(
            name,
            FieldError::new(ErrorCode::Invalid, "true or false."),
        )),
    }
}

/// An RFC 3339 time or a `YYYY-MM-DD` date (midnight UTC), as epoch ms.
fn time_param(name: &str, raw: Option<&str>) -> Result<Option<i64>, ApiError> {
    match raw {
        None | Some("") => Ok(None),
        Some(s) => DateTime::parse_from_rfc3339(s)
            .map(|t| t.timestamp_millis())
            .or_else(|_| {
                NaiveDate::parse_from_str(s, "%Y-%m-%d").map(|d| {
                    d.and_hms_opt(0, 0, 0)
                        .unwrap_or_default()
                        .and_utc()
                        .timestamp_millis()
                })
            })
            .map(Some)
            .map_err(|_| {
                ApiError::invalid_parameter(
                    name,
                    FieldError::new(ErrorCode::InvalidDate, "An RFC 3339 time or YYYY-MM-DD."),
                )
            }),
    }
}

/// A recorded session.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct ObsSessionDto {
    pub secure_id: String,
    /// The member (user id) who bound the session with their own token
    /// (`PUT /api/observe/sessions/{secure_id}/member`); `null` when none did. What the
    /// recorder's unauthenticated `identifySession` claimed is in `properties`
    /// (`claimed_user_identifier`, `claimed_user_object`), never here.
    pub member: Option<String>,
    /// The bound member's user object, `{"nickname": …}` as stored on the server.
    #[schema(value_type = Option<Object>)]
    pub user_object: Option<Value>,
    /// Properties from addSessionProperties, and the claim of identifySession.
    #[schema(value_type = Option<Object>)]
    pub properties: Option<Value>,
    pub environment: String,
    pub app_version: Option<String>,
    pub client_version: Option<String>,
    pub user_agent: Option<String>,
    /// First seen by the server.
    pub started_at: String,
    /// Last push received.
    pub last_push_at: String,
    /// The first replay event (client clock, epoch ms): replay offsets count from it.
    pub first_event_at: Option<i64>,
    pub first_url: Option<String>,
    pub has_errors: bool,
    pub has_feedback: bool,
    pub event_count: i64,
    pub error_count: i64,
    pub bytes_received: i64,
}

impl From<&ObsSessionRow> for ObsSessionDto {
    fn from(s: &ObsSessionRow) -> Self {
        Self {
            secure_id: s.secure_id.clone(),
            member: s.user_identifier.clone(),
            user_object: json_field(s.user_object.as_deref()),
            properties: json_field(s.properties.as_deref()),
            environment: s.environment.clone(),
            app_version: s.app_version.clone(),
            client_version: s.client_version.clone(),
            user_agent: s.user_agent.clone(),
            started_at: rfc3339_ms(s.started_at),
            last_push_at: rfc3339_ms(s.last_push_at),
            first_event_at: s.first_event_at,
            first_url: s.first_url.clone(),
            has_errors: s.has_errors,
            has_feedback: s.has_feedback,
            event_count: s.event_count,
            error_count: s.error_count,
            bytes_received: s.bytes_received,
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ObsSessionList {
    pub sessions: Vec<ObsSessionDto>,
    /// Pass as `before` for the next page; absent on the last page.
    pub next_before: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
pub struct SessionListParams {
    /// Exact member (user id) bound to the session.
    pub member: Option<String>,
    /// `production`, `development`, …
    pub environment: Option<String>,
    /// Started at or after (RFC 3339 or YYYY-MM-DD).
    pub from: Option<String>,
    /// Started before (RFC 3339 or YYYY-MM-DD).
    pub to: Option<String>,
    /// `true` or `false`.
    pub has_errors: Option<String>,
    /// `true` or `false`.
    pub has_feedback: Option<String>,
    /// `next_before` of the previous page.
    pub before: Option<String>,
    /// 1 to 200 (default 50).
    pub limit: Option<String>,
}

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
    let limit = limit_param(p.limit.as_deref())?;
    let filter = ObsSessionFilter {
        member: p.member.filter(|m| !m.is_empty()),
        environment: p.environment.filter(|e| !e.is_empty()),
        from_ms: time_param("from", p.from.as_deref())?,
        to_ms: time_param("to", p.to.as_deref())?,
        has_errors: bool_param("has_errors", p.has_errors.as_deref())?,
        has_feedback: bool_param("has_feedback", p.has_feedback.as_deref())?,
        before_id: id_param("before", p.before.as_deref())?,
        limit,
    };
    let rows = state.storage.obs_list_sessions(&filter).await?;
    let next_before = (rows.len() as i64 == limit)
        .then(|| rows.last().map(|r| r.id))
        .flatten();
    Ok(ApiJson(ObsSessionList {
        sessions: rows.iter().map(ObsSessionDto::from).collect(),
        next_before,
    }))
}

/// One entry of a session's timeline.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct TimelineItemDto {
    /// Client clock, epoch ms.
    pub ts: i64,
    /// Milliseconds from the first replay event (where the replay shows it).
    pub offset_ms: Option<i64>,
    /// `load`, `navigate`, `reload`, `click`, `console`, `network` or `error`.
    pub kind: String,
    /// Kind-specific fields: `url` (load, navigate, network), `target`, `text`,
    /// `selector` (click), `level`, `message` (console), `method`, `status`,
    /// `duration_ms`, headers and bodies (network), `message`, `type`, `stack`,
    /// `group_id` (error).
    #[schema(value_type = Object)]
    pub detail: Value,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ObsSessionDetail {
    pub session: ObsSessionDto,
    /// Every item by time.
    pub timeline: Vec<TimelineItemDto>,
}

async fn session_by_id(
    state: &ObservabilityState,
    secure_id: &str,
) -> Result<ObsSessionRow, ApiError> {
    if secure_id.len() > limits::MAX_SECURE_ID_CHARS {
        return Err(ApiError::not_found("There is no such session."));
    }
    state
        .storage
        .obs_session(secure_id)
        .await?
        .ok_or_else(|| ApiError::not_found("There is no such session."))
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
    let s = session_by_id(&state, &secure_id).await?;
    let storage = &state.storage;
    let offset = |ts: i64| s.first_event_at.map(|b| (ts - b).max(0));
    let mut timeline = Vec::new();
    for t in storage.obs_timeline(s.id, MAX_TIMELINE_ITEMS).await? {
        timeline.push(TimelineItemDto {
            ts: t.ts,
            offset_ms: offset(t.ts),
            kind: t.kind,
            detail: serde_json::from_str(&t.detail).unwrap_or(Value::Null),
        });
    }
    for c in storage.obs_console(s.id, MAX_TIMELINE_ITEMS).await? {
        timeline.push(TimelineItemDto {
            ts: c.ts,
            offset_ms: offset(c.ts),
            kind: "console".into(),
            detail: serde_json::json!({
                "level": c.level, "message": c.message, "trace": json_field(c.trace.as_deref()),
            }),
        });
    }
    for r in storage.obs_resources(s.id, MAX_TIMELINE_ITEMS).await? {
        timeline.push(TimelineItemDto {
            ts: r.ts,
            offset_ms: offset(r.ts),
            kind: "network".into(),
            detail: serde_json::json!({
                "url": r.url, "initiator": r.initiator, "method": r.method, "status": r.status,
                "duration_ms": r.duration_ms, "transfer_size": r.transfer_size,
                "request_headers": json_field(r.request_headers.as_deref()),
                "response_headers": json_field(r.response_headers.as_deref()),
                "request_body": r.request_body, "response_body": r.response_body,
            }),
        });
    }
    for e in storage.obs_session_errors(s.id, MAX_TIMELINE_ITEMS).await? {
        timeline.push(TimelineItemDto {
            ts: e.ts,
            offset_ms: Some(e.replay_offset_ms),
            kind: "error".into(),
            detail: serde_json::json!({
                "group_id": e.group_id, "message": e.message, "url": e.url, "source": e.source,
                "stack": json_field(e.stack.as_deref()),
            }),
        });
    }
    timeline.sort_by_key(|t| t.ts);
    Ok(ApiJson(ObsSessionDetail {
        session: ObsSessionDto::from(&s),
        timeline,
    }))
}

/// Chunks of one replay page by default, and at most. A 30-minute session is about
/// 900 chunks (one push every 2 s); a page of 100 is about 2 MB of compressed pushes
/// (10 MB of events) read, decompressed and written in well under a second, so the
/// player starts on the first page while the rest loads behind it.
pub const REPLAY_PAGE_DEFAULT_CHUNKS: i64 = 100;
pub const REPLAY_PAGE_MAX_CHUNKS: i64 = 200;

/// One page of a session's replay (documents the shape; the body is written directly).
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ObsReplay {
    pub secure_id: String,
    /// rrweb events of this page's chunks, by payload id then timestamp, as recorded.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// Chunks on this page.
    pub chunks: i64,
    /// Chunks holding the session's replay, on every page.
    pub total_chunks: i64,
    /// Pass as `after` for the next page; absent on the last page.
    pub next_after: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
pub struct ReplayParams {
    /// `next_after` of the previous page (absent: the first page).
    pub after: Option<String>,
    /// Chunks per page, 1 to 200 (default 100).
    pub limit: Option<String>,
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
    let limit = bounded_limit(
        p.limit.as_deref(),
        REPLAY_PAGE_DEFAULT_CHUNKS,
        REPLAY_PAGE_MAX_CHUNKS,
    )?;
    let after = match p.after.as_deref() {
        None | Some("") => None,
        Some(raw) => Some(raw.parse::<i64>().map_err(|_| {
            ApiError::invalid_parameter(
                "after",
                FieldError::new(ErrorCode::Invalid, "The next_after of the previous page."),
            )
        })?),
    };
    let s = session_by_id(&state, &secure_id).await?;
    let (chunks, total) = tokio::try_join!(
        state.storage.obs_replay_chunks(s.id, after, limit),
        state.storage.obs_replay_chunk_count(s.id),
    )?;
    let page_chunks = chunks.len() as i64;
    let next_after = (page_chunks == limit)
        .then(|| chunks.last().map(|c| c.payload_id))
        .flatten();
    let max = state.observe.config.max_decompressed_bytes;
    let body = tokio::task::spawn_blocking(move || -> String {
        let mut out = String::from("{\"secure_id\":");
        out.push_str(&serde_json::to_string(&secure_id).unwrap_or_default());
        out.push_str(",\"events\":[");
        let mut first = true;
        for chunk in chunks {
            let events = limits::gunzip_limited(&chunk.data, max)
                .ok()
                .and_then(|raw| String::from_utf8(raw).ok())
                .and_then(|json| ingest::chunk_events(&json).ok());
            let Some(mut events) = events else {
                tracing::warn!(
                    payload_id = chunk.payload_id,
                    "a stored replay chunk cannot be read"
                );
                continue;
            };
            // Within a chunk, by timestamp (stable: equal times keep their order).
            events.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (_, raw) in events {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&raw);
            }
        }
        out.push_str("],\"chunks\":");
        out.push_str(&page_chunks.to_string());
        out.push_str(",\"total_chunks\":");
        out.push_str(&total.to_string());
        out.push_str(",\"next_after\":");
        match next_after {
            Some(id) => out.push_str(&id.to_string()),
            None => out.push_str("null"),
        }
        out.push('}');
        out
    })
    .await
    .map_err(ApiError::internal)?;
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

/// An error group.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct ErrorGroupDto {
    pub id: i64,
    pub fingerprint: String,
    /// `window.onerror`, `console.error`, `custom`, `React.ErrorBoundary`, …
    pub error_type: String,
    /// The first occurrence's message.
    pub message: String,
    pub first_seen: String,
    pub last_seen: String,
    /// Occurrences ever counted (retention does not lower it).
    pub occurrences: i64,
    /// Sessions with a stored occurrence.
    pub affected_sessions: i64,
    /// Identified members among them.
    pub affected_members: i64,
    /// Frames of the first occurrence: `functionName`, `fileName`, `lineNumber`,
    /// `columnNumber`.
    #[schema(value_type = Option<Vec<Object>>)]
    pub sample_stack: Option<Value>,
}

impl From<&ErrorGroupRow> for ErrorGroupDto {
    fn from(g: &ErrorGroupRow) -> Self {
        Self {
            id: g.id,
            fingerprint: g.fingerprint.clone(),
            error_type: g.error_type.clone(),
            message: g.message.clone(),
            first_seen: rfc3339_ms(g.first_seen),
            last_seen: rfc3339_ms(g.last_seen),
            occurrences: g.occurrences,
            affected_sessions: g.sessions,
            affected_members: g.members,
            sample_stack: json_field(g.sample_stack.as_deref()),
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ErrorGroupList {
    pub groups: Vec<ErrorGroupDto>,
    /// Pass as `offset` for the next page; absent on the last page.
    pub next_offset: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
pub struct PageParams {
    /// 1 to 200 (default 50).
    pub limit: Option<String>,
    /// Rows to skip.
    pub offset: Option<String>,
}

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
    let limit = limit_param(p.limit.as_deref())?;
    let offset = match p.offset.as_deref() {
        None | Some("") => 0,
        Some(s) => s.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
            ApiError::invalid_parameter(
                "offset",
                FieldError::new(ErrorCode::OutOfRange, "Zero or more.").param("min", 0),
            )
        })?,
    };
    let rows = state.storage.obs_error_groups(limit, offset).await?;
    Ok(ApiJson(ErrorGroupList {
        next_offset: (rows.len() as i64 == limit).then_some(offset + limit),
        groups: rows.iter().map(ErrorGroupDto::from).collect(),
    }))
}

/// One occurrence of an error.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct ErrorOccurrenceDto {
    pub session_secure_id: String,
    pub member: Option<String>,
    /// Client clock, epoch ms.
    pub ts: i64,
    /// Where the session's replay shows it.
    pub replay_offset_ms: i64,
    pub url: Option<String>,
    pub message: String,
    #[schema(value_type = Option<Vec<Object>>)]
    pub stack: Option<Value>,
}

impl From<&ErrorOccurrenceRow> for ErrorOccurrenceDto {
    fn from(o: &ErrorOccurrenceRow) -> Self {
        Self {
            session_secure_id: o.session_secure_id.clone(),
            member: o.user_identifier.clone(),
            ts: o.ts,
            replay_offset_ms: o.replay_offset_ms,
            url: o.url.clone(),
            message: o.message.clone(),
            stack: json_field(o.stack.as_deref()),
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ErrorGroupDetail {
    pub group: ErrorGroupDto,
    /// The newest occurrences (up to 200).
    pub occurrences: Vec<ErrorOccurrenceDto>,
    /// Distinct members among those occurrences.
    pub members: Vec<String>,
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
    let id = id_param("id", Some(&id))?.ok_or_else(|| {
        ApiError::invalid_parameter(
            "id",
            FieldError::new(ErrorCode::Required, "A positive number."),
        )
    })?;
    let group = state
        .storage
        .obs_error_group(id)
        .await?
        .ok_or_else(|| ApiError::not_found("There is no such error group."))?;
    let occurrences = state
        .storage
        .obs_error_occurrences(id, MAX_OCCURRENCES)
        .await?;
    let members: BTreeSet<String> = occurrences
        .iter()
        .filter_map(|o| o.user_identifier.clone())
        .collect();
    Ok(ApiJson(ErrorGroupDetail {
        group: ErrorGroupDto::from(&group),
        occurrences: occurrences.iter().map(ErrorOccurrenceDto::from).collect(),
        members: members.into_iter().collect(),
    }))
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct FeedbackDto {
    pub id: i64,
    pub session_secure_id: String,
    pub member: Option<String>,
    pub user_name: Option<String>,
    pub user_email: Option<String>,
    pub verbatim: String,
    /// When the user sent it (their clock).
    pub created_at: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FeedbackList {
    pub feedback: Vec<FeedbackDto>,
    /// Pass as `before` for the next page; absent on the last page.
    pub next_before: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
pub struct FeedbackParams {
    /// 1 to 200 (default 50).
    pub limit: Option<String>,
    /// `next_before` of the previous page.
    pub before: Option<String>,
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
    let limit = limit_param(p.limit.as_deref())?;
    let before = id_param("before", p.before.as_deref())?;
    let rows = state.storage.obs_feedback(limit, before).await?;
    Ok(ApiJson(FeedbackList {
        next_before: (rows.len() as i64 == limit)
            .then(|| rows.last().map(|r| r.id))
            .flatten(),
        feedback: rows
            .into_iter()
            .map(|f| FeedbackDto {
                id: f.id,
                session_secure_id: f.session_secure_id,
                member: f.user_identifier,
                user_name: f.user_name,
                user_email: f.user_email,
                verbatim: f.verbatim,
                created_at: rfc3339_ms(f.ts),
            })
            .collect(),
    }))
}

/// A vital's thresholds (spec §9): good at or below `good`, poor above `poor`.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct VitalThresholdDto {
    pub name: String,
    pub good: f64,
    pub poor: f64,
    /// `ms`, or empty for CLS (unitless).
    pub unit: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct VitalStatDto {
    /// `LCP`, `FCP`, `CLS`, `INP`, `TTFB` or `FID`.
    pub name: String,
    /// 75th percentile (nearest rank).
    pub p75: f64,
    pub samples: i64,
    /// `good`, `needs_improvement` or `poor`.
    pub rating: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct PageVitalsDto {
    /// Path with ids as `:id`; empty when the page is unknown.
    pub page: String,
    pub vitals: Vec<VitalStatDto>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct VitalsReport {
    pub from: String,
    pub to: String,
    pub thresholds: Vec<VitalThresholdDto>,
    /// All pages together.
    pub overall: Vec<VitalStatDto>,
    /// Per page, pages with the most samples first.
    pub pages: Vec<PageVitalsDto>,
    /// True when more samples existed than were read (the newest were used).
    pub truncated: bool,
}

#[derive(Deserialize, IntoParams)]
pub struct VitalsParams {
    /// From (RFC 3339 or YYYY-MM-DD); default 7 days ago.
    pub from: Option<String>,
    /// To, exclusive; default now.
    pub to: Option<String>,
}

fn stats(samples: &mut BTreeMap<&'static str, Vec<f64>>) -> Vec<VitalStatDto> {
    vitals::VITALS
        .iter()
        .filter_map(|(name, thresholds)| {
            let values = samples.get_mut(name)?;
            let p75 = vitals::p75(values)?;
            Some(VitalStatDto {
                name: (*name).to_owned(),
                p75,
                samples: values.len() as i64,
                rating: vitals::rating(p75, *thresholds).to_owned(),
            })
        })
        .collect()
}

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
    let now = super::now_ms();
    let to = time_param("to", p.to.as_deref())?.unwrap_or(now + 1);
    let from = time_param("from", p.from.as_deref())?
        .unwrap_or(to - DEFAULT_VITALS_DAYS * 24 * 3600 * 1000);
    if from >= to {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::DatesReversed, "Must be before `to`."),
        ));
    }
    let points = state
        .storage
        .obs_metric_values(vitals::WEB_VITAL_CATEGORY, from, to, MAX_VITAL_SAMPLES)
        .await?;
    let truncated = points.len() as i64 >= MAX_VITAL_SAMPLES;
    let mut overall: BTreeMap<&'static str, Vec<f64>> = BTreeMap::new();
    let mut by_page: BTreeMap<String, BTreeMap<&'static str, Vec<f64>>> = BTreeMap::new();
    for point in points {
        let Some(name) = vitals::canonical(&point.name) else {
            continue;
        };
        overall.entry(name).or_default().push(point.value);
        by_page
            .entry(point.page)
            .or_default()
            .entry(name)
            .or_default()
            .push(point.value);
    }
    let mut pages: Vec<(usize, PageVitalsDto)> = by_page
        .into_iter()
        .map(|(page, mut samples)| {
            let n = samples.values().map(Vec::len).sum();
            (
                n,
                PageVitalsDto {
                    page,
                    vitals: stats(&mut samples),
                },
            )
        })
        .collect();
    pages.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.page.cmp(&b.1.page)));
    Ok(ApiJson(VitalsReport {
        from: rfc3339_ms(from),
        to: rfc3339_ms(to),
        thresholds: vitals::VITALS
            .iter()
            .map(|(name, (good, poor))| VitalThresholdDto {
                name: (*name).to_owned(),
                good: *good,
                poor: *poor,
                unit: if *name == "CLS" {
                    String::new()
                } else {
                    "ms".into()
                },
            })
            .collect(),
        overall: stats(&mut overall),
        pages: pages.into_iter().map(|(_, p)| p).collect(),
        truncated,
    }))
}

/// A span, with its place in the trace's waterfall.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct SpanDto {
    pub span_id: String,
    pub parent_span_id: Option<String>,
    pub name: String,
    /// `moat-server` for the server's own spans.
    pub service: String,
    /// OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer.
    pub kind: i64,
    /// Epoch nanoseconds, as a decimal string (too large for a JSON number).
    pub start_unix_nano: String,
    /// Milliseconds from the trace's first span.
    pub start_offset_ms: f64,
    pub duration_ms: f64,
    /// OTLP status: 0 unset, 1 ok, 2 error.
    pub status_code: i64,
    pub status_message: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub attributes: Option<Value>,
    pub session_secure_id: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct TraceDto {
    pub trace_id: String,
    /// By start time.
    pub spans: Vec<SpanDto>,
}

fn span_dto(s: &SpanRow, trace_start: i64) -> SpanDto {
    SpanDto {
        span_id: s.span_id.clone(),
        parent_span_id: s.parent_span_id.clone(),
        name: s.name.clone(),
        service: s.service.clone(),
        kind: s.kind,
        start_unix_nano: s.start_ns.to_string(),
        start_offset_ms: (s.start_ns - trace_start) as f64 / 1e6,
        duration_ms: (s.end_ns - s.start_ns) as f64 / 1e6,
        status_code: s.status_code,
        status_message: s.status_message.clone(),
        attributes: json_field(s.attributes.as_deref()),
        session_secure_id: s.session_secure_id.clone(),
    }
}

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
    let valid = trace_id.len() == 32 && trace_id.bytes().all(|b| b.is_ascii_hexdigit());
    if !valid {
        return Err(ApiError::invalid_parameter(
            "trace_id",
            FieldError::new(ErrorCode::InvalidId, "32 hexadecimal digits."),
        ));
    }
    let trace_id = trace_id.to_ascii_lowercase();
    let spans = state.storage.obs_trace_spans(&trace_id).await?;
    let Some(start) = spans.iter().map(|s| s.start_ns).min() else {
        return Err(ApiError::not_found("There is no such trace."));
    };
    Ok(ApiJson(TraceDto {
        spans: spans.iter().map(|s| span_dto(s, start)).collect(),
        trace_id,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_as_rfc3339_or_dates() {
        assert_eq!(
            time_param("from", Some("1970-01-02")).unwrap(),
            Some(86_400_000)
        );
        assert_eq!(
            time_param("from", Some("1970-01-01T00:00:01Z")).unwrap(),
            Some(1000)
        );
        assert!(time_param("from", Some("yesterday")).is_err());
        assert_eq!(rfc3339_ms(1000), "1970-01-01T00:00:01.000Z");
    }

    #[test]
    fn page_parameters_are_checked() {
        assert_eq!(limit_param(None).unwrap(), DEFAULT_PAGE);
        assert!(limit_param(Some("0")).is_err());
        assert!(limit_param(Some("201")).is_err());
        assert_eq!(bool_param("x", Some("true")).unwrap(), Some(true));
        assert!(bool_param("x", Some("yes")).is_err());
    }
}
