//! A trace's spans: the browser's and the server's.

use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    observability::{
        dto::{SpanDto, TraceDto},
        ObservabilityState,
    },
};

/// The trace's spans (`trace_id` as in the path: 32 hex digits, any case), each
/// placed from the trace's first span.
pub async fn trace(state: &ObservabilityState, trace_id: &str) -> Result<TraceDto, ApiError> {
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
    Ok(TraceDto {
        spans: spans.iter().map(|s| SpanDto::new(s, start)).collect(),
        trace_id,
    })
}
