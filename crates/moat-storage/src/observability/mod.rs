//! Observability: recorded browser sessions (replay chunks, console, network, errors,
//! feedback, a navigation/click timeline), metrics and spans, as Moat's own ingest
//! receives them (docs/observability.md).
//!
//! Every time is an `i64` of milliseconds since the Unix epoch (spans: nanoseconds), so
//! both backends compare and purge with integer ranges and the SQL (`sql.rs`) is
//! portable: one implementation serves both backends. Callers parse,
//! redact and cap what they pass in; storage only keeps it.
//!
//! A push is stored in one transaction keyed by `(session, payload_id)`: a replayed
//! push changes nothing ([`ObservabilityStorage::obs_store_push`] returns `false`).

use async_trait::async_trait;

use crate::StorageError;

mod sql;

/// Rows per multi-row `INSERT` (well under both backends' bind-parameter limits).
pub const OBS_INSERT_CHUNK: usize = 200;

/// What `initializeSession` (or a first push for an unknown id) knows of a session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewObsSession {
    pub secure_id: String,
    pub environment: String,
    pub app_version: Option<String>,
    pub client_version: Option<String>,
    pub service_name: Option<String>,
    pub fingerprint: Option<String>,
    pub client_id: Option<String>,
    pub user_agent: Option<String>,
    pub ip_hash: Option<String>,
    pub now_ms: i64,
}

/// A stored session.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ObsSessionRow {
    pub id: i64,
    pub secure_id: String,
    pub user_identifier: Option<String>,
    /// JSON object.
    pub user_object: Option<String>,
    /// JSON object.
    pub properties: Option<String>,
    pub environment: String,
    pub app_version: Option<String>,
    pub client_version: Option<String>,
    pub service_name: Option<String>,
    pub user_agent: Option<String>,
    pub started_at: i64,
    pub last_push_at: i64,
    pub first_event_at: Option<i64>,
    pub first_url: Option<String>,
    pub has_errors: bool,
    pub has_feedback: bool,
    pub bytes_received: i64,
    pub event_count: i64,
    pub error_count: i64,
}

const SESSION_COLUMNS: &str = "id, secure_id, user_identifier, user_object, properties, \
    environment, app_version, client_version, service_name, user_agent, started_at, \
    last_push_at, first_event_at, first_url, has_errors, has_feedback, bytes_received, \
    event_count, error_count";

/// Filters of the operator's session list. Newest first; `before_id` pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObsSessionFilter {
    /// Exact member identifier (from identifySession).
    pub member: Option<String>,
    pub environment: Option<String>,
    /// `started_at >= from_ms`.
    pub from_ms: Option<i64>,
    /// `started_at < to_ms`.
    pub to_ms: Option<i64>,
    pub has_errors: Option<bool>,
    pub has_feedback: Option<bool>,
    /// Only sessions with a smaller id (the last id of the previous page).
    pub before_id: Option<i64>,
    pub limit: i64,
}

/// A navigation, reload or click derived from the replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTimelineItem {
    pub ts: i64,
    /// `load`, `navigate`, `reload` or `click`.
    pub kind: String,
    /// JSON object.
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewConsoleMessage {
    pub ts: i64,
    pub level: String,
    pub message: String,
    /// JSON array of frames.
    pub trace: Option<String>,
}

/// A network request, already redacted.
#[derive(Debug, Clone, PartialEq)]
pub struct NewResource {
    pub ts: i64,
    pub initiator: String,
    pub method: Option<String>,
    pub url: String,
    pub status: Option<i64>,
    pub duration_ms: Option<f64>,
    pub transfer_size: Option<i64>,
    /// JSON objects.
    pub request_headers: Option<String>,
    pub response_headers: Option<String>,
    pub request_body: Option<String>,
    pub response_body: Option<String>,
}

/// One error occurrence and the group it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewErrorOccurrence {
    pub fingerprint: String,
    pub error_type: String,
    pub message: String,
    /// Client clock.
    pub ts: i64,
    pub replay_offset_ms: i64,
    pub url: Option<String>,
    pub source: Option<String>,
    /// JSON array of frames.
    pub stack: Option<String>,
}

/// One push of a session: the replay chunk and everything parsed from it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPush {
    pub session_id: i64,
    pub payload_id: i64,
    /// The gzip as received (empty without replay events).
    pub data: Vec<u8>,
    pub events: i64,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
    /// Server clock.
    pub received_at: i64,
    /// Counted against the session's budget.
    pub bytes: i64,
    pub first_url: Option<String>,
    pub timeline: Vec<NewTimelineItem>,
    pub console: Vec<NewConsoleMessage>,
    pub resources: Vec<NewResource>,
    pub errors: Vec<NewErrorOccurrence>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFeedback {
    pub session_id: i64,
    pub user_name: Option<String>,
    pub user_email: Option<String>,
    pub verbatim: String,
    pub ts: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewMetric {
    pub session_secure_id: Option<String>,
    pub name: String,
    pub value: f64,
    pub category: String,
    pub page: String,
    pub ts: i64,
    /// JSON object.
    pub tags: Option<String>,
    /// `graphql` or `otlp`.
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct NewSpan {
    /// 32 lowercase hex digits.
    pub trace_id: String,
    /// 16 lowercase hex digits.
    pub span_id: String,
    pub parent_span_id: Option<String>,
    pub name: String,
    pub service: String,
    pub kind: i64,
    pub start_ns: i64,
    pub end_ns: i64,
    /// OTLP status code: 0 unset, 1 ok, 2 error.
    pub status_code: i64,
    pub status_message: Option<String>,
    /// JSON object.
    pub attributes: Option<String>,
    pub session_secure_id: Option<String>,
}

/// A stored span (as [`NewSpan`]).
pub type SpanRow = NewSpan;

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ReplayChunkRow {
    pub payload_id: i64,
    pub data: Vec<u8>,
    pub events: i64,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TimelineRow {
    pub ts: i64,
    pub kind: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ConsoleRow {
    pub ts: i64,
    pub level: String,
    pub message: String,
    pub trace: Option<String>,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ResourceRow {
    pub ts: i64,
    pub initiator: String,
    pub method: Option<String>,
    pub url: String,
    pub status: Option<i64>,
    pub duration_ms: Option<f64>,
    pub transfer_size: Option<i64>,
    pub request_headers: Option<String>,
    pub response_headers: Option<String>,
    pub request_body: Option<String>,
    pub response_body: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ErrorGroupRow {
    pub id: i64,
    pub fingerprint: String,
    pub error_type: String,
    pub message: String,
    /// Server clock.
    pub first_seen: i64,
    pub last_seen: i64,
    pub occurrences: i64,
    pub sample_stack: Option<String>,
    /// Distinct sessions with an occurrence still stored.
    pub sessions: i64,
    /// Distinct identified members among them.
    pub members: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ErrorOccurrenceRow {
    pub id: i64,
    pub group_id: i64,
    pub session_secure_id: String,
    pub user_identifier: Option<String>,
    pub ts: i64,
    pub replay_offset_ms: i64,
    pub url: Option<String>,
    pub message: String,
    pub source: Option<String>,
    pub stack: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FeedbackRow {
    pub id: i64,
    pub session_secure_id: String,
    pub user_identifier: Option<String>,
    pub user_name: Option<String>,
    pub user_email: Option<String>,
    pub verbatim: String,
    pub ts: i64,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct MetricPoint {
    pub name: String,
    pub page: String,
    pub value: f64,
}

/// Rows per observability table (tests and the operator's overview).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObsCounts {
    pub sessions: i64,
    pub replay_chunks: i64,
    pub timeline: i64,
    pub console: i64,
    pub resources: i64,
    pub error_groups: i64,
    pub error_occurrences: i64,
    pub feedback: i64,
    pub metrics: i64,
    pub spans: i64,
}

impl ObsCounts {
    /// Rows of every table but the sessions themselves.
    pub fn data_rows(&self) -> i64 {
        self.replay_chunks
            + self.timeline
            + self.console
            + self.resources
            + self.error_groups
            + self.error_occurrences
            + self.feedback
            + self.metrics
            + self.spans
    }
}

/// Storage of the observability data. Part of [`crate::Storage`].
#[async_trait]
pub trait ObservabilityStorage: Send + Sync {
    /// Creates the session, or refreshes what a repeated `initializeSession` (reload,
    /// second tab) says of it; the start time and counters stay.
    async fn obs_upsert_session(&self, new: &NewObsSession) -> Result<ObsSessionRow, StorageError>;

    /// The session, created with only what `new` says when it does not exist yet
    /// (a push for an id this server has not initialised); an existing one is unchanged.
    async fn obs_ensure_session(&self, new: &NewObsSession) -> Result<ObsSessionRow, StorageError>;

    async fn obs_session(&self, secure_id: &str) -> Result<Option<ObsSessionRow>, StorageError>;

    /// Binds the session to a member: sets the member identifier and user object
    /// (JSON), unless another member is bound to it already. `true` when the session is
    /// now bound to `user_identifier` (newly, or again with a fresh user object),
    /// `false` when it belongs to another member (nothing changes). One statement, so of
    /// two members binding the same session at once exactly one wins.
    async fn obs_bind_session(
        &self,
        session_id: i64,
        user_identifier: &str,
        user_object: &str,
    ) -> Result<bool, StorageError>;

    /// Replaces the session's properties (a JSON object the caller merged).
    async fn obs_set_session_properties(
        &self,
        session_id: i64,
        properties: &str,
    ) -> Result<(), StorageError>;

    /// Stores a push in one transaction; `false` (and nothing changed) when the
    /// session has this payload id already.
    async fn obs_store_push(&self, push: &NewPush) -> Result<bool, StorageError>;

    async fn obs_add_feedback(&self, feedback: &NewFeedback) -> Result<(), StorageError>;

    async fn obs_add_metrics(&self, metrics: &[NewMetric]) -> Result<(), StorageError>;

    /// Stores spans; one already stored (same trace and span id) is skipped. Returns
    /// how many were new.
    async fn obs_add_spans(&self, spans: &[NewSpan]) -> Result<u64, StorageError>;

    /// Sessions matching the filter, newest first.
    async fn obs_list_sessions(
        &self,
        filter: &ObsSessionFilter,
    ) -> Result<Vec<ObsSessionRow>, StorageError>;

    /// Up to `limit` chunks holding replay events, by payload id, after payload id
    /// `after` (from the first when `None`): one page of the replay.
    async fn obs_replay_chunks(
        &self,
        session_id: i64,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Vec<ReplayChunkRow>, StorageError>;

    /// How many chunks hold the session's replay events.
    async fn obs_replay_chunk_count(&self, session_id: i64) -> Result<i64, StorageError>;

    async fn obs_timeline(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<TimelineRow>, StorageError>;

    async fn obs_console(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<ConsoleRow>, StorageError>;

    async fn obs_resources(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<ResourceRow>, StorageError>;

    /// The session's error occurrences by time.
    async fn obs_session_errors(
        &self,
        session_id: i64,
        limit: i64,
    ) -> Result<Vec<ErrorOccurrenceRow>, StorageError>;

    /// Error groups, most recently seen first.
    async fn obs_error_groups(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<ErrorGroupRow>, StorageError>;

    async fn obs_error_group(&self, id: i64) -> Result<Option<ErrorGroupRow>, StorageError>;

    /// A group's occurrences, newest first.
    async fn obs_error_occurrences(
        &self,
        group_id: i64,
        limit: i64,
    ) -> Result<Vec<ErrorOccurrenceRow>, StorageError>;

    /// Feedback, newest first; `before_id` pages.
    async fn obs_feedback(
        &self,
        limit: i64,
        before_id: Option<i64>,
    ) -> Result<Vec<FeedbackRow>, StorageError>;

    /// Values of a category's metrics with `from_ms <= ts < to_ms` (at most `limit`,
    /// newest first).
    async fn obs_metric_values(
        &self,
        category: &str,
        from_ms: i64,
        to_ms: i64,
        limit: i64,
    ) -> Result<Vec<MetricPoint>, StorageError>;

    /// A trace's spans by start time.
    async fn obs_trace_spans(&self, trace_id: &str) -> Result<Vec<SpanRow>, StorageError>;

    /// Deletes at most `batch` rows older than `cutoff_ms` from the first table that
    /// has any (a session's rows before the session, so no delete cascades far).
    /// Returns how many; 0 when nothing older is left.
    async fn obs_purge_batch(&self, cutoff_ms: i64, batch: i64) -> Result<u64, StorageError>;

    async fn obs_counts(&self) -> Result<ObsCounts, StorageError>;

    /// The sessions bound to a member (`user_identifier`), newest first: the member's
    /// data in this area.
    async fn obs_member_sessions(
        &self,
        user_identifier: &str,
    ) -> Result<Vec<ObsSessionRow>, StorageError>;

    /// Deletes the sessions bound to a member with everything recorded in them
    /// (replay, timeline, console, resources, errors, feedback, metrics, spans).
    /// Returns how many sessions went. Idempotent.
    async fn obs_delete_member_sessions(&self, user_identifier: &str) -> Result<u64, StorageError>;
}

/// Statements of [`ObservabilityStorage::obs_purge_batch`], in order: `$1` is the
/// cut-off (in ms, or in ns where the flag says so), `$2` the batch size.
pub(crate) const PURGE_STATEMENTS: [(&str, bool); 10] = [
    (
        "DELETE FROM obs_replay_chunks WHERE id IN (SELECT c.id FROM obs_replay_chunks c \
     JOIN obs_sessions s ON s.id = c.session_id WHERE s.last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_timeline WHERE id IN (SELECT c.id FROM obs_timeline c \
     JOIN obs_sessions s ON s.id = c.session_id WHERE s.last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_console WHERE id IN (SELECT c.id FROM obs_console c \
     JOIN obs_sessions s ON s.id = c.session_id WHERE s.last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_resources WHERE id IN (SELECT c.id FROM obs_resources c \
     JOIN obs_sessions s ON s.id = c.session_id WHERE s.last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_error_occurrences WHERE id IN (SELECT c.id FROM obs_error_occurrences c \
     JOIN obs_sessions s ON s.id = c.session_id WHERE s.last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_feedback WHERE id IN (SELECT c.id FROM obs_feedback c \
     JOIN obs_sessions s ON s.id = c.session_id WHERE s.last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_sessions WHERE id IN (SELECT id FROM obs_sessions \
     WHERE last_push_at < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_error_groups WHERE id IN (SELECT id FROM obs_error_groups \
     WHERE last_seen < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_metrics WHERE id IN (SELECT id FROM obs_metrics WHERE ts < $1 LIMIT $2)",
        false,
    ),
    (
        "DELETE FROM obs_spans WHERE id IN (SELECT id FROM obs_spans WHERE start_ns < $1 LIMIT $2)",
        true,
    ),
];

pub(crate) const SESSION_SELECT: &str = "SELECT {cols} FROM obs_sessions";

pub(crate) fn session_columns() -> &'static str {
    SESSION_COLUMNS
}

pub(crate) const OCCURRENCE_SELECT: &str =
    "SELECT o.id, o.group_id, s.secure_id AS session_secure_id, \
    s.user_identifier, o.ts, o.replay_offset_ms, o.url, o.message, o.source, o.stack \
    FROM obs_error_occurrences o JOIN obs_sessions s ON s.id = o.session_id";

pub(crate) const GROUP_SELECT: &str = "SELECT g.id, g.fingerprint, g.error_type, g.message, \
    g.first_seen, g.last_seen, g.occurrences, g.sample_stack, \
    (SELECT COUNT(DISTINCT o.session_id) FROM obs_error_occurrences o WHERE o.group_id = g.id) AS sessions, \
    (SELECT COUNT(DISTINCT s.user_identifier) FROM obs_error_occurrences o \
       JOIN obs_sessions s ON s.id = o.session_id WHERE o.group_id = g.id) AS members \
    FROM obs_error_groups g";

pub(crate) const SPAN_COLUMNS: &str = "trace_id, span_id, parent_span_id, name, service, kind, \
    start_ns, end_ns, status_code, status_message, attributes, session_secure_id";
