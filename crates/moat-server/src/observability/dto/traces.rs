//! A trace's spans, for the waterfall.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use moat_storage::observability::SpanRow;

use super::json_field;

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

impl SpanDto {
    /// `s` placed in a trace whose first span starts at `trace_start` (epoch ns).
    pub fn new(s: &SpanRow, trace_start: i64) -> Self {
        Self {
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
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct TraceDto {
    pub trace_id: String,
    /// By start time.
    pub spans: Vec<SpanDto>,
}
