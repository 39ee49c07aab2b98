//! The server's own spans: an `/api/*` request that carries a W3C `traceparent`
//! (the browser's tracing sends it to Moat's own origin) gets one span in the
//! browser's trace — its parent is the incoming span id — named `METHOD /route`
//! (the matched route, never the raw path with ids or query). `X-Highlight-Request:
//! <session secure id>/<request id>` links it to the recorded session.
//!
//! Each storage call the request makes on its own task becomes a child span of it,
//! `db <operation>` (kind CLIENT, `db.system` and `db.operation` attributes), so one
//! trace shows the click, the API call and the database work (`moat_storage::probe`).
//! The market service's and outgoing HTTP calls have no spans of their own.
//!
//! Recording costs a header parse and a `try_send` per span on a bounded channel; a
//! writer task stores spans in batches off the request path, and drops them (never
//! waits) when the queue is full. Untraced requests pay one task-local lookup per
//! storage call.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    extract::{MatchedPath, Request, State},
    http::HeaderMap,
    middleware::Next,
    response::Response,
};
use moat_storage::{observability::NewSpan, probe, ObservabilityStorage};
use serde_json::json;
use tokio::sync::mpsc;

use super::{now_ns, redact};
use crate::observability::ObservabilityState;

/// The service name of the server's spans.
pub const SERVICE: &str = "moat-server";
/// OTLP span kinds.
const KIND_SERVER: i64 = 2;
const KIND_CLIENT: i64 = 3;
/// Database spans kept for one request; a request making more (a bulk import) keeps
/// its first ones and counts the rest on the request's span (`db.calls.dropped`).
pub const MAX_DB_SPANS_PER_REQUEST: usize = 200;
/// OTLP status codes.
const STATUS_UNSET: i64 = 0;
const STATUS_ERROR: i64 = 2;

/// `(trace id, parent span id)` of a valid, sampled `traceparent`
/// (`00-<32 hex>-<16 hex>-<2 hex flags>`).
pub fn parse_traceparent(value: &str) -> Option<(String, String)> {
    let mut parts = value.trim().split('-');
    let version = parts.next()?;
    let trace_id = parts.next()?;
    let span_id = parts.next()?;
    let flags = parts.next()?;
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    let valid = hex(version, 2)
        && version != "ff"
        && (version != "00" || parts.next().is_none())
        && hex(trace_id, 32)
        && hex(span_id, 16)
        && hex(flags, 2)
        && trace_id.bytes().any(|b| b != b'0')
        && span_id.bytes().any(|b| b != b'0');
    let sampled = u8::from_str_radix(flags, 16).ok()? & 1 == 1;
    (valid && sampled).then(|| (trace_id.to_ascii_lowercase(), span_id.to_ascii_lowercase()))
}

/// `(session secure id, request id)` of `X-Highlight-Request`.
fn highlight_request(headers: &HeaderMap) -> Option<(String, String)> {
    let v = headers.get("x-highlight-request")?.to_str().ok()?;
    let (session, request) = v.split_once('/')?;
    let ok = |s: &str| {
        !s.is_empty()
            && s.len() <= 64
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    (ok(session) && ok(request)).then(|| (session.to_owned(), request.to_owned()))
}

fn new_span_id() -> String {
    loop {
        let id: u64 = rand::random();
        if id != 0 {
            return format!("{id:016x}");
        }
    }
}

/// One storage call made by a traced request.
struct DbCall {
    op: &'static str,
    start_ns: i64,
    elapsed: Duration,
}

/// Hears a traced request's storage calls (see `moat_storage::probe`).
#[derive(Default)]
struct DbCalls {
    calls: Mutex<Vec<DbCall>>,
    dropped: std::sync::atomic::AtomicU64,
}

impl probe::Probe for DbCalls {
    fn storage_call(&self, op: &'static str, start_ns: i64, elapsed: Duration) {
        let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        if calls.len() < MAX_DB_SPANS_PER_REQUEST {
            calls.push(DbCall {
                op,
                start_ns,
                elapsed,
            });
        } else {
            self.dropped
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

fn nanos(d: Duration) -> i64 {
    i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
}

/// Middleware on the API routes: records a span for traced requests.
pub async fn record(
    State(state): State<ObservabilityState>,
    request: Request,
    next: Next,
) -> Response {
    if !state.observe.config.server_spans {
        return next.run(request).await;
    }
    let Some((trace_id, parent)) = request
        .headers()
        .get("traceparent")
        .and_then(|v| v.to_str().ok())
        .and_then(parse_traceparent)
    else {
        return next.run(request).await;
    };
    let method = request.method().as_str().to_owned();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".into());
    let linked = highlight_request(request.headers());
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(|v| redact::truncate(v, 64));
    let start_ns = now_ns();
    let started = Instant::now();
    let db = Arc::new(DbCalls::default());
    let response = probe::scope(db.clone(), next.run(request)).await;
    let elapsed = nanos(started.elapsed());
    let status = response.status();
    let mut attributes = json!({
        "http.request.method": method,
        "http.route": route,
        "http.response.status_code": status.as_u16(),
        "request.id": request_id,
    });
    if let Some((_, highlight_request_id)) = &linked {
        attributes["highlight.request_id"] = json!(highlight_request_id);
    }
    let dropped = db.dropped.load(std::sync::atomic::Ordering::Relaxed);
    if dropped > 0 {
        attributes["db.calls.dropped"] = json!(dropped);
    }
    let span_id = new_span_id();
    let session = linked.as_ref().map(|(session, _)| session.clone());
    let calls = std::mem::take(&mut *db.calls.lock().unwrap_or_else(|e| e.into_inner()));
    let system = state.db_system;
    for call in calls {
        state.observe.record_span(NewSpan {
            trace_id: trace_id.clone(),
            span_id: new_span_id(),
            parent_span_id: Some(span_id.clone()),
            name: format!("db {}", call.op),
            service: SERVICE.into(),
            kind: KIND_CLIENT,
            start_ns: call.start_ns,
            end_ns: call.start_ns.saturating_add(nanos(call.elapsed)),
            status_code: STATUS_UNSET,
            status_message: None,
            attributes: Some(json!({ "db.system": system, "db.operation": call.op }).to_string()),
            session_secure_id: session.clone(),
        });
    }
    state.observe.record_span(NewSpan {
        trace_id,
        span_id,
        parent_span_id: Some(parent),
        name: format!("{method} {route}"),
        service: SERVICE.into(),
        kind: KIND_SERVER,
        start_ns,
        end_ns: start_ns.saturating_add(elapsed),
        status_code: if status.is_server_error() {
            STATUS_ERROR
        } else {
            STATUS_UNSET
        },
        status_message: None,
        attributes: Some(attributes.to_string()),
        session_secure_id: session,
    });
    response
}

/// The writer: stores queued spans in batches until every sender is gone.
pub async fn write_spans(
    storage: std::sync::Arc<dyn ObservabilityStorage>,
    mut rx: mpsc::Receiver<NewSpan>,
    batch: usize,
) {
    let mut buf = Vec::with_capacity(batch);
    while rx.recv_many(&mut buf, batch).await > 0 {
        if let Err(e) = storage.obs_add_spans(&buf).await {
            tracing::warn!(
                error = format!("{e:#}"),
                spans = buf.len(),
                "cannot store server spans"
            );
        }
        buf.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traceparent_is_parsed_strictly() {
        let tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        assert_eq!(
            parse_traceparent(tp),
            Some((
                "0af7651916cd43dd8448eb211c80319c".into(),
                "b7ad6b7169203331".into()
            ))
        );
        for bad in [
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00", // not sampled
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
            "garbage",
            "",
        ] {
            assert_eq!(parse_traceparent(bad), None, "{bad}");
        }
    }

    #[test]
    fn highlight_request_names_the_session() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-highlight-request",
            "abcSESSION123/req-9".parse().unwrap(),
        );
        assert_eq!(
            highlight_request(&h),
            Some(("abcSESSION123".into(), "req-9".into()))
        );
        h.insert("x-highlight-request", "no-slash".parse().unwrap());
        assert_eq!(highlight_request(&h), None);
    }
}
