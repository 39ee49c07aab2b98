//! Recorded sessions: the list, one session with its timeline, and a page of its replay.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use moat_storage::observability::ObsSessionRow;

use super::{json_field, rfc3339_ms};

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
