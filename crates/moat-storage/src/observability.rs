//! Observability: recorded browser sessions (replay chunks, console, network, errors,
//! feedback, a navigation/click timeline), metrics and spans, as Moat's own ingest
//! receives them (docs/observability.md).
//!
//! Every time is an `i64` of milliseconds since the Unix epoch (spans: nanoseconds), so
//! both backends compare and purge with integer ranges and the SQL is portable: one
//! implementation, [`impl_observability_storage`], serves both pools. Callers parse,
//! redact and cap what they pass in; storage only keeps it.
//!
//! A push is stored in one transaction keyed by `(session, payload_id)`: a replayed
//! push changes nothing ([`ObservabilityStorage::obs_store_push`] returns `false`).

use async_trait::async_trait;

use crate::StorageError;

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

macro_rules! impl_observability_storage {
    ($ty:ty, $db:ty) => {
        #[async_trait::async_trait]
        impl $crate::observability::ObservabilityStorage for $ty {
            async fn obs_upsert_session(
                &self,
                new: &$crate::observability::NewObsSession,
            ) -> Result<$crate::observability::ObsSessionRow, $crate::StorageError> {
                let _db = $crate::probe::op("obs_upsert_session");
                use $crate::observability::session_columns;
                let row = sqlx::query_as(&format!(
                    "INSERT INTO obs_sessions (secure_id, environment, app_version, client_version,
                         service_name, fingerprint, client_id, user_agent, ip_hash, started_at, last_push_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
                     ON CONFLICT (secure_id) DO UPDATE SET
                         environment = excluded.environment,
                         app_version = COALESCE(excluded.app_version, obs_sessions.app_version),
                         client_version = COALESCE(excluded.client_version, obs_sessions.client_version),
                         service_name = COALESCE(excluded.service_name, obs_sessions.service_name),
                         fingerprint = COALESCE(excluded.fingerprint, obs_sessions.fingerprint),
                         client_id = COALESCE(excluded.client_id, obs_sessions.client_id),
                         user_agent = COALESCE(excluded.user_agent, obs_sessions.user_agent),
                         ip_hash = COALESCE(excluded.ip_hash, obs_sessions.ip_hash),
                         last_push_at = CASE WHEN excluded.last_push_at > obs_sessions.last_push_at
                             THEN excluded.last_push_at ELSE obs_sessions.last_push_at END
                     RETURNING {}",
                    session_columns()
                ))
                .bind(&new.secure_id)
                .bind(&new.environment)
                .bind(new.app_version.as_deref())
                .bind(new.client_version.as_deref())
                .bind(new.service_name.as_deref())
                .bind(new.fingerprint.as_deref())
                .bind(new.client_id.as_deref())
                .bind(new.user_agent.as_deref())
                .bind(new.ip_hash.as_deref())
                .bind(new.now_ms)
                .fetch_one(&self.pool)
                .await?;
                Ok(row)
            }

            async fn obs_ensure_session(
                &self,
                new: &$crate::observability::NewObsSession,
            ) -> Result<$crate::observability::ObsSessionRow, $crate::StorageError> {
                let _db = $crate::probe::op("obs_ensure_session");
                sqlx::query(
                    "INSERT INTO obs_sessions (secure_id, environment, user_agent, ip_hash, started_at, last_push_at)
                     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (secure_id) DO NOTHING",
                )
                .bind(&new.secure_id)
                .bind(&new.environment)
                .bind(new.user_agent.as_deref())
                .bind(new.ip_hash.as_deref())
                .bind(new.now_ms)
                .execute(&self.pool)
                .await?;
                self.obs_session(&new.secure_id)
                    .await?
                    .ok_or($crate::StorageError::NotFound)
            }

            async fn obs_session(
                &self,
                secure_id: &str,
            ) -> Result<Option<$crate::observability::ObsSessionRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_session");
                use $crate::observability::{session_columns, SESSION_SELECT};
                let sql = format!(
                    "{} WHERE secure_id = $1",
                    SESSION_SELECT.replace("{cols}", session_columns())
                );
                Ok(sqlx::query_as(&sql)
                    .bind(secure_id)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn obs_bind_session(
                &self,
                session_id: i64,
                user_identifier: &str,
                user_object: &str,
            ) -> Result<bool, $crate::StorageError> {
                let _db = $crate::probe::op("obs_bind_session");
                let done = sqlx::query(
                    "UPDATE obs_sessions SET user_identifier = $1, user_object = $2
                     WHERE id = $3 AND (user_identifier IS NULL OR user_identifier = $1)",
                )
                .bind(user_identifier)
                .bind(user_object)
                .bind(session_id)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn obs_set_session_properties(
                &self,
                session_id: i64,
                properties: &str,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("obs_set_session_properties");
                sqlx::query("UPDATE obs_sessions SET properties = $1 WHERE id = $2")
                    .bind(properties)
                    .bind(session_id)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn obs_store_push(
                &self,
                push: &$crate::observability::NewPush,
            ) -> Result<bool, $crate::StorageError> {
                let _db = $crate::probe::op("obs_store_push");
                use $crate::observability::OBS_INSERT_CHUNK;
                let mut tx = self.pool.begin().await?;
                // The first statement writes: the transaction holds the write lock
                // from the start (SQLite), and a replayed payload id stops here.
                let inserted = sqlx::query(
                    "INSERT INTO obs_replay_chunks (session_id, payload_id, data, events, first_ts, last_ts, received_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (session_id, payload_id) DO NOTHING",
                )
                .bind(push.session_id)
                .bind(push.payload_id)
                .bind(&push.data)
                .bind(push.events)
                .bind(push.first_ts)
                .bind(push.last_ts)
                .bind(push.received_at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if inserted == 0 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                for items in push.timeline.chunks(OBS_INSERT_CHUNK) {
                    let mut b = sqlx::QueryBuilder::<$db>::new(
                        "INSERT INTO obs_timeline (session_id, ts, kind, detail) ",
                    );
                    b.push_values(items, |mut row, item| {
                        row.push_bind(push.session_id)
                            .push_bind(item.ts)
                            .push_bind(item.kind.clone())
                            .push_bind(item.detail.clone());
                    });
                    b.build().execute(&mut *tx).await?;
                }
                for items in push.console.chunks(OBS_INSERT_CHUNK) {
                    let mut b = sqlx::QueryBuilder::<$db>::new(
                        "INSERT INTO obs_console (session_id, ts, level, message, trace) ",
                    );
                    b.push_values(items, |mut row, item| {
                        row.push_bind(push.session_id)
                            .push_bind(item.ts)
                            .push_bind(item.level.clone())
                            .push_bind(item.message.clone())
                            .push_bind(item.trace.clone());
                    });
                    b.build().execute(&mut *tx).await?;
                }
                for items in push.resources.chunks(OBS_INSERT_CHUNK) {
                    let mut b = sqlx::QueryBuilder::<$db>::new(
                        "INSERT INTO obs_resources (session_id, ts, initiator, method, url, status,
                             duration_ms, transfer_size, request_headers, response_headers,
                             request_body, response_body) ",
                    );
                    b.push_values(items, |mut row, r| {
                        row.push_bind(push.session_id)
                            .push_bind(r.ts)
                            .push_bind(r.initiator.clone())
                            .push_bind(r.method.clone())
                            .push_bind(r.url.clone())
                            .push_bind(r.status)
                            .push_bind(r.duration_ms)
                            .push_bind(r.transfer_size)
                            .push_bind(r.request_headers.clone())
                            .push_bind(r.response_headers.clone())
                            .push_bind(r.request_body.clone())
                            .push_bind(r.response_body.clone());
                    });
                    b.build().execute(&mut *tx).await?;
                }
                for e in &push.errors {
                    let group_id: i64 = sqlx::query_scalar(
                        "INSERT INTO obs_error_groups (fingerprint, error_type, message, first_seen, last_seen, occurrences, sample_stack)
                         VALUES ($1, $2, $3, $4, $4, 1, $5)
                         ON CONFLICT (fingerprint) DO UPDATE SET
                             occurrences = obs_error_groups.occurrences + 1,
                             last_seen = CASE WHEN excluded.last_seen > obs_error_groups.last_seen
                                 THEN excluded.last_seen ELSE obs_error_groups.last_seen END,
                             sample_stack = COALESCE(obs_error_groups.sample_stack, excluded.sample_stack)
                         RETURNING id",
                    )
                    .bind(&e.fingerprint)
                    .bind(&e.error_type)
                    .bind(&e.message)
                    .bind(push.received_at)
                    .bind(e.stack.as_deref())
                    .fetch_one(&mut *tx)
                    .await?;
                    sqlx::query(
                        "INSERT INTO obs_error_occurrences (group_id, session_id, ts, replay_offset_ms, url, message, source, stack)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    )
                    .bind(group_id)
                    .bind(push.session_id)
                    .bind(e.ts)
                    .bind(e.replay_offset_ms)
                    .bind(e.url.as_deref())
                    .bind(&e.message)
                    .bind(e.source.as_deref())
                    .bind(e.stack.as_deref())
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query(
                    "UPDATE obs_sessions SET
                         bytes_received = bytes_received + $1,
                         event_count = event_count + $2,
                         error_count = error_count + $3,
                         has_errors = CASE WHEN $3 > 0 THEN $4 ELSE has_errors END,
                         last_push_at = CASE WHEN $5 > last_push_at THEN $5 ELSE last_push_at END,
                         first_event_at = CASE WHEN first_event_at IS NULL OR $6 < first_event_at
                             THEN $6 ELSE first_event_at END,
                         first_url = COALESCE(first_url, $7)
                     WHERE id = $8",
                )
                .bind(push.bytes)
                .bind(push.events)
                .bind(push.errors.len() as i64)
                .bind(true)
                .bind(push.received_at)
                .bind(push.first_ts)
                .bind(push.first_url.as_deref())
                .bind(push.session_id)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(true)
            }

            async fn obs_add_feedback(
                &self,
                f: &$crate::observability::NewFeedback,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("obs_add_feedback");
                let mut tx = self.pool.begin().await?;
                sqlx::query(
                    "INSERT INTO obs_feedback (session_id, user_name, user_email, verbatim, ts)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(f.session_id)
                .bind(f.user_name.as_deref())
                .bind(f.user_email.as_deref())
                .bind(&f.verbatim)
                .bind(f.ts)
                .execute(&mut *tx)
                .await?;
                sqlx::query("UPDATE obs_sessions SET has_feedback = $1 WHERE id = $2")
                    .bind(true)
                    .bind(f.session_id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn obs_add_metrics(
                &self,
                metrics: &[$crate::observability::NewMetric],
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("obs_add_metrics");
                use $crate::observability::OBS_INSERT_CHUNK;
                if metrics.is_empty() {
                    return Ok(());
                }
                let mut tx = self.pool.begin().await?;
                for items in metrics.chunks(OBS_INSERT_CHUNK) {
                    let mut b = sqlx::QueryBuilder::<$db>::new(
                        "INSERT INTO obs_metrics (session_secure_id, name, value, category, page, ts, tags, source) ",
                    );
                    b.push_values(items, |mut row, m| {
                        row.push_bind(m.session_secure_id.clone())
                            .push_bind(m.name.clone())
                            .push_bind(m.value)
                            .push_bind(m.category.clone())
                            .push_bind(m.page.clone())
                            .push_bind(m.ts)
                            .push_bind(m.tags.clone())
                            .push_bind(m.source.clone());
                    });
                    b.build().execute(&mut *tx).await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn obs_add_spans(
                &self,
                spans: &[$crate::observability::NewSpan],
            ) -> Result<u64, $crate::StorageError> {
                let _db = $crate::probe::op("obs_add_spans");
                use $crate::observability::OBS_INSERT_CHUNK;
                if spans.is_empty() {
                    return Ok(0);
                }
                let mut added = 0;
                let mut tx = self.pool.begin().await?;
                for items in spans.chunks(OBS_INSERT_CHUNK) {
                    let mut b = sqlx::QueryBuilder::<$db>::new(
                        "INSERT INTO obs_spans (trace_id, span_id, parent_span_id, name, service, kind,
                             start_ns, end_ns, status_code, status_message, attributes, session_secure_id) ",
                    );
                    b.push_values(items, |mut row, s| {
                        row.push_bind(s.trace_id.clone())
                            .push_bind(s.span_id.clone())
                            .push_bind(s.parent_span_id.clone())
                            .push_bind(s.name.clone())
                            .push_bind(s.service.clone())
                            .push_bind(s.kind)
                            .push_bind(s.start_ns)
                            .push_bind(s.end_ns)
                            .push_bind(s.status_code)
                            .push_bind(s.status_message.clone())
                            .push_bind(s.attributes.clone())
                            .push_bind(s.session_secure_id.clone());
                    });
                    b.push(" ON CONFLICT (trace_id, span_id) DO NOTHING");
                    added += b.build().execute(&mut *tx).await?.rows_affected();
                }
                tx.commit().await?;
                Ok(added)
            }

            async fn obs_list_sessions(
                &self,
                f: &$crate::observability::ObsSessionFilter,
            ) -> Result<Vec<$crate::observability::ObsSessionRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_list_sessions");
                use $crate::observability::{session_columns, SESSION_SELECT};
                let mut b = sqlx::QueryBuilder::<$db>::new(
                    SESSION_SELECT.replace("{cols}", session_columns()),
                );
                b.push(" WHERE 1 = 1");
                if let Some(member) = &f.member {
                    b.push(" AND user_identifier = ").push_bind(member.clone());
                }
                if let Some(env) = &f.environment {
                    b.push(" AND environment = ").push_bind(env.clone());
                }
                if let Some(from) = f.from_ms {
                    b.push(" AND started_at >= ").push_bind(from);
                }
                if let Some(to) = f.to_ms {
                    b.push(" AND started_at < ").push_bind(to);
                }
                if let Some(v) = f.has_errors {
                    b.push(" AND has_errors = ").push_bind(v);
                }
                if let Some(v) = f.has_feedback {
                    b.push(" AND has_feedback = ").push_bind(v);
                }
                if let Some(before) = f.before_id {
                    b.push(" AND id < ").push_bind(before);
                }
                b.push(" ORDER BY id DESC LIMIT ").push_bind(f.limit);
                Ok(b.build_query_as().fetch_all(&self.pool).await?)
            }

            async fn obs_replay_chunks(
                &self,
                session_id: i64,
                after: Option<i64>,
                limit: i64,
            ) -> Result<Vec<$crate::observability::ReplayChunkRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_replay_chunks");
                Ok(sqlx::query_as(
                    "SELECT payload_id, data, events, first_ts, last_ts FROM obs_replay_chunks
                     WHERE session_id = $1 AND events > 0 AND payload_id > $2
                     ORDER BY payload_id LIMIT $3",
                )
                .bind(session_id)
                .bind(after.unwrap_or(i64::MIN))
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_replay_chunk_count(
                &self,
                session_id: i64,
            ) -> Result<i64, $crate::StorageError> {
                let _db = $crate::probe::op("obs_replay_chunk_count");
                Ok(sqlx::query_scalar(
                    "SELECT COUNT(*) FROM obs_replay_chunks WHERE session_id = $1 AND events > 0",
                )
                .bind(session_id)
                .fetch_one(&self.pool)
                .await?)
            }

            async fn obs_timeline(
                &self,
                session_id: i64,
                limit: i64,
            ) -> Result<Vec<$crate::observability::TimelineRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_timeline");
                Ok(sqlx::query_as(
                    "SELECT ts, kind, detail FROM obs_timeline WHERE session_id = $1
                     ORDER BY ts, id LIMIT $2",
                )
                .bind(session_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_console(
                &self,
                session_id: i64,
                limit: i64,
            ) -> Result<Vec<$crate::observability::ConsoleRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_console");
                Ok(sqlx::query_as(
                    "SELECT ts, level, message, trace FROM obs_console WHERE session_id = $1
                     ORDER BY ts, id LIMIT $2",
                )
                .bind(session_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_resources(
                &self,
                session_id: i64,
                limit: i64,
            ) -> Result<Vec<$crate::observability::ResourceRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_resources");
                Ok(sqlx::query_as(
                    "SELECT ts, initiator, method, url, status, duration_ms, transfer_size,
                         request_headers, response_headers, request_body, response_body
                     FROM obs_resources WHERE session_id = $1 ORDER BY ts, id LIMIT $2",
                )
                .bind(session_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_session_errors(
                &self,
                session_id: i64,
                limit: i64,
            ) -> Result<Vec<$crate::observability::ErrorOccurrenceRow>, $crate::StorageError>
            {
                let _db = $crate::probe::op("obs_session_errors");
                use $crate::observability::OCCURRENCE_SELECT;
                Ok(sqlx::query_as(&format!(
                    "{OCCURRENCE_SELECT} WHERE o.session_id = $1 ORDER BY o.ts, o.id LIMIT $2"
                ))
                .bind(session_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_error_groups(
                &self,
                limit: i64,
                offset: i64,
            ) -> Result<Vec<$crate::observability::ErrorGroupRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_error_groups");
                use $crate::observability::GROUP_SELECT;
                Ok(sqlx::query_as(&format!(
                    "{GROUP_SELECT} ORDER BY g.last_seen DESC, g.id DESC LIMIT $1 OFFSET $2"
                ))
                .bind(limit)
                .bind(offset)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_error_group(
                &self,
                id: i64,
            ) -> Result<Option<$crate::observability::ErrorGroupRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_error_group");
                use $crate::observability::GROUP_SELECT;
                Ok(sqlx::query_as(&format!("{GROUP_SELECT} WHERE g.id = $1"))
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn obs_error_occurrences(
                &self,
                group_id: i64,
                limit: i64,
            ) -> Result<Vec<$crate::observability::ErrorOccurrenceRow>, $crate::StorageError>
            {
                let _db = $crate::probe::op("obs_error_occurrences");
                use $crate::observability::OCCURRENCE_SELECT;
                Ok(sqlx::query_as(&format!(
                    "{OCCURRENCE_SELECT} WHERE o.group_id = $1 ORDER BY o.ts DESC, o.id DESC LIMIT $2"
                ))
                .bind(group_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_feedback(
                &self,
                limit: i64,
                before_id: Option<i64>,
            ) -> Result<Vec<$crate::observability::FeedbackRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_feedback");
                Ok(sqlx::query_as(
                    "SELECT f.id, s.secure_id AS session_secure_id, s.user_identifier, f.user_name,
                         f.user_email, f.verbatim, f.ts
                     FROM obs_feedback f JOIN obs_sessions s ON s.id = f.session_id
                     WHERE ($1 IS NULL OR f.id < $1) ORDER BY f.id DESC LIMIT $2",
                )
                .bind(before_id)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_metric_values(
                &self,
                category: &str,
                from_ms: i64,
                to_ms: i64,
                limit: i64,
            ) -> Result<Vec<$crate::observability::MetricPoint>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_metric_values");
                Ok(sqlx::query_as(
                    "SELECT name, page, value FROM obs_metrics
                     WHERE category = $1 AND ts >= $2 AND ts < $3 ORDER BY ts DESC LIMIT $4",
                )
                .bind(category)
                .bind(from_ms)
                .bind(to_ms)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_trace_spans(
                &self,
                trace_id: &str,
            ) -> Result<Vec<$crate::observability::SpanRow>, $crate::StorageError> {
                let _db = $crate::probe::op("obs_trace_spans");
                use $crate::observability::SPAN_COLUMNS;
                Ok(sqlx::query_as(&format!(
                    "SELECT {SPAN_COLUMNS} FROM obs_spans WHERE trace_id = $1 ORDER BY start_ns, id"
                ))
                .bind(trace_id)
                .fetch_all(&self.pool)
                .await?)
            }

            async fn obs_purge_batch(
                &self,
                cutoff_ms: i64,
                batch: i64,
            ) -> Result<u64, $crate::StorageError> {
                let _db = $crate::probe::op("obs_purge_batch");
                use $crate::observability::PURGE_STATEMENTS;
                for (sql, in_ns) in PURGE_STATEMENTS {
                    let cutoff = if in_ns {
                        cutoff_ms.saturating_mul(1_000_000)
                    } else {
                        cutoff_ms
                    };
                    let n = sqlx::query(sql)
                        .bind(cutoff)
                        .bind(batch.max(1))
                        .execute(&self.pool)
                        .await?
                        .rows_affected();
                    if n > 0 {
                        return Ok(n);
                    }
                }
                Ok(0)
            }

            async fn obs_counts(
                &self,
            ) -> Result<$crate::observability::ObsCounts, $crate::StorageError> {
                let _db = $crate::probe::op("obs_counts");
                let row: (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) = sqlx::query_as(
                    "SELECT (SELECT COUNT(*) FROM obs_sessions), (SELECT COUNT(*) FROM obs_replay_chunks),
                         (SELECT COUNT(*) FROM obs_timeline), (SELECT COUNT(*) FROM obs_console),
                         (SELECT COUNT(*) FROM obs_resources), (SELECT COUNT(*) FROM obs_error_groups),
                         (SELECT COUNT(*) FROM obs_error_occurrences), (SELECT COUNT(*) FROM obs_feedback),
                         (SELECT COUNT(*) FROM obs_metrics), (SELECT COUNT(*) FROM obs_spans)",
                )
                .fetch_one(&self.pool)
                .await?;
                Ok($crate::observability::ObsCounts {
                    sessions: row.0,
                    replay_chunks: row.1,
                    timeline: row.2,
                    console: row.3,
                    resources: row.4,
                    error_groups: row.5,
                    error_occurrences: row.6,
                    feedback: row.7,
                    metrics: row.8,
                    spans: row.9,
                })
            }
        }
    };
}

pub(crate) use impl_observability_storage;
