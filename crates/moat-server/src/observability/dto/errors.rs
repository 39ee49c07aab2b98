//! Error groups and their occurrences.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use moat_storage::observability::{ErrorGroupRow, ErrorOccurrenceRow};

use super::{json_field, rfc3339_ms};

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
