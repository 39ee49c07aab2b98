//! Recorded sessions: the list, one session with its timeline, and its replay by pages.

use moat_storage::observability::{ObsSessionFilter, ObsSessionRow};
use serde_json::Value;

use super::params::{bool_param, bounded_limit, id_param, limit_param, time_param};
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    observability::{
        dto::{
            json_field, ObsSessionDetail, ObsSessionDto, ObsSessionList, ReplayParams,
            SessionListParams, TimelineItemDto,
        },
        ingest, limits, ObservabilityState,
    },
};

/// Items of each kind in a session's timeline.
pub const MAX_TIMELINE_ITEMS: i64 = 2_000;

/// Chunks of one replay page by default, and at most. A 30-minute session is about
/// 900 chunks (one push every 2 s); a page of 100 is about 2 MB of compressed pushes
/// (10 MB of events) read, decompressed and written in well under a second, so the
/// player starts on the first page while the rest loads behind it.
pub const REPLAY_PAGE_DEFAULT_CHUNKS: i64 = 100;
pub const REPLAY_PAGE_MAX_CHUNKS: i64 = 200;

/// Recorded sessions matching the filters, newest first, a page at a time.
pub async fn list_sessions(
    state: &ObservabilityState,
    p: SessionListParams,
) -> Result<ObsSessionList, ApiError> {
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
    Ok(ObsSessionList {
        sessions: rows.iter().map(ObsSessionDto::from).collect(),
        next_before,
    })
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

/// One session with its timeline by time: page loads, navigations, clicks, console
/// messages, network requests and errors.
pub async fn session_detail(
    state: &ObservabilityState,
    secure_id: &str,
) -> Result<ObsSessionDetail, ApiError> {
    let s = session_by_id(state, secure_id).await?;
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
    Ok(ObsSessionDetail {
        session: ObsSessionDto::from(&s),
        timeline,
    })
}

/// One page of the session's replay as the JSON text of an
/// [`ObsReplay`](crate::observability::dto::ObsReplay): written directly, the stored
/// events spliced in as recorded, never parsed into values.
pub async fn replay_page(
    state: &ObservabilityState,
    secure_id: String,
    p: ReplayParams,
) -> Result<String, ApiError> {
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
    let s = session_by_id(state, &secure_id).await?;
    let (chunks, total) = tokio::try_join!(
        state.storage.obs_replay_chunks(s.id, after, limit),
        state.storage.obs_replay_chunk_count(s.id),
    )?;
    let page_chunks = chunks.len() as i64;
    let next_after = (page_chunks == limit)
        .then(|| chunks.last().map(|c| c.payload_id))
        .flatten();
    let max = state.observe.config.max_decompressed_bytes;
    tokio::task::spawn_blocking(move || -> String {
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
    .map_err(ApiError::internal)
}
