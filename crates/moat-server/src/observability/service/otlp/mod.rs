//! `POST /v1/traces` and `POST /v1/metrics`: OTLP/HTTP, JSON (what the browser's
//! exporter sends) or `application/x-protobuf` (other OTLP senders), optionally
//! gzipped. Protobuf is turned into the OTLP/JSON shape first (`protobuf`), so one
//! lenient parser (`parse`) serves both: ids as hex (or base64), `*UnixNano` as
//! strings or numbers, enums as numbers or names, empty values tolerated. A record
//! that cannot be used (bad ids, an implausible time) is skipped and counted in
//! `partialSuccess`; a body that is not OTLP at all is a 400. Spans and data points
//! are linked to recorded sessions by their `highlight.session_id` attribute (or the
//! resource's).
//!
//! Replies: `{}` (JSON) or an empty protobuf message. Over the ingest's concurrency
//! or its decompression budget: 503 with `Retry-After`; over the per-address budget:
//! 429 with `Retry-After`. The exporter retries both.

mod parse;
mod protobuf;

use std::net::IpAddr;

use axum::http::StatusCode; // the status an OTLP failure is answered with (no axum otherwise)
use prost::Message;
use serde_json::{json, Value};

use crate::observability::{
    drop_list,
    limits::{self, BudgetError, DecodeError},
    now_ms, ObservabilityState,
};

pub use parse::{id_hex, parse_metrics, parse_traces, Parsed, SESSION_ATTRIBUTE};

/// The protobuf content type, of requests and of their replies.
pub const PROTOBUF: &str = "application/x-protobuf";

/// What a request exports.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Signal {
    Traces,
    Metrics,
}

/// How a request body is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Json,
    Protobuf,
}

/// A request body's format and whether it is gzipped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Encoding {
    pub format: Format,
    pub gzipped: bool,
}

impl Encoding {
    /// Reads the `Content-Type` (JSON when absent) and `Content-Encoding` headers'
    /// values: anything but JSON or protobuf, or an encoding but gzip, is a 415.
    pub fn of(
        content_type: Option<&str>,
        content_encoding: Option<&str>,
    ) -> Result<Self, OtlpError> {
        let content_type = content_type
            .unwrap_or("application/json")
            .to_ascii_lowercase();
        let format = if content_type.starts_with(PROTOBUF) {
            Format::Protobuf
        } else if content_type.starts_with("application/json")
            || content_type.starts_with("text/plain")
        {
            // The browser exporter may send JSON as text/plain (sendBeacon).
            Format::Json
        } else {
            return Err(OtlpError(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Send application/json or application/x-protobuf.".into(),
                None,
            ));
        };
        let gzipped = match content_encoding.map(|v| v.trim().to_ascii_lowercase()) {
            None => false,
            Some(e) if e.is_empty() || e == "identity" => false,
            Some(e) if e == "gzip" => true,
            Some(_) => {
                return Err(OtlpError(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "Only gzip content encoding is accepted.".into(),
                    None,
                ))
            }
        };
        Ok(Self { format, gzipped })
    }
}

/// An OTLP failure: status, message, optional `Retry-After` seconds.
#[derive(Debug)]
pub struct OtlpError(pub StatusCode, pub String, pub Option<u64>);

impl OtlpError {
    /// No ingest slot freed up in time: 503 with `Retry-After`.
    pub fn busy() -> Self {
        Self(
            StatusCode::SERVICE_UNAVAILABLE,
            "The ingest is busy; retry later.".into(),
            Some(limits::RETRY_AFTER_SECS),
        )
    }

    /// The JSON error body, `{"code": <status>, "message": …}`.
    pub fn body(&self) -> Value {
        json!({"code": self.0.as_u16(), "message": self.1})
    }
}

impl From<DecodeError> for OtlpError {
    fn from(e: DecodeError) -> Self {
        match e {
            DecodeError::TooLarge(..) => Self(StatusCode::PAYLOAD_TOO_LARGE, e.to_string(), None),
            DecodeError::Busy => Self::busy(),
            _ => Self(StatusCode::BAD_REQUEST, e.to_string(), None),
        }
    }
}

/// A success reply, in the request's format.
#[derive(Debug)]
pub enum OtlpReply {
    Json(Value),
    /// An encoded `Export…ServiceResponse` (content type [`PROTOBUF`]).
    Protobuf(Vec<u8>),
}

/// Takes a request body (read within the ingest's caps, while holding an ingest
/// slot) from `ip` with `user_agent`: decompresses it within the shared budget,
/// parses it off the async workers, stores what is usable (nothing for a crawler)
/// and answers how many records were skipped.
pub async fn ingest(
    state: &ObservabilityState,
    ip: IpAddr,
    user_agent: Option<&str>,
    signal: Signal,
    encoding: Encoding,
    bytes: bytes::Bytes,
) -> Result<OtlpReply, OtlpError> {
    let observe = &state.observe;
    let cfg = &observe.config;
    match observe.ip_budgets.charge(ip, bytes.len() as u64).await {
        Ok(()) => {}
        Err(BudgetError::Spent(wait)) => {
            return Err(OtlpError(
                StatusCode::TOO_MANY_REQUESTS,
                "Too much telemetry from this address; retry later.".into(),
                Some(wait),
            ))
        }
        Err(BudgetError::Failed(e)) => {
            tracing::warn!(
                error = format!("{e:#}"),
                "the ingest's budget cannot be read"
            );
            return Err(OtlpError::busy());
        }
    }
    let drop_all = user_agent.is_some_and(drop_list::is_crawler);
    let Encoding { format, gzipped } = encoding;
    let max_unzipped = cfg.max_decompressed_bytes;
    let budget = observe.inflate.clone();
    // Reserved here, before a blocking thread is taken: past the budget, 503 at once.
    let charge = if gzipped {
        budget.reserve(&bytes, max_unzipped)?
    } else {
        limits::Charge::default()
    };
    let now = now_ms();
    let parsed = tokio::task::spawn_blocking(move || -> Result<Parsed, OtlpError> {
        // The charge is held until the body and what is parsed from it are dropped.
        let (raw, _charge) = if gzipped {
            limits::gunzip_budgeted(&bytes, max_unzipped, &budget, charge)?
        } else {
            (bytes.to_vec(), charge)
        };
        let doc = match format {
            Format::Json => {
                let text = limits::json_text(raw)?;
                serde_json::from_str::<Value>(&text).map_err(|e| {
                    OtlpError(
                        StatusCode::BAD_REQUEST,
                        format!("The body is not JSON: {e}"),
                        None,
                    )
                })?
            }
            Format::Protobuf => protobuf::to_json(&raw, signal).map_err(|e| {
                OtlpError(
                    StatusCode::BAD_REQUEST,
                    format!("The body is not OTLP protobuf: {e}"),
                    None,
                )
            })?,
        };
        match signal {
            Signal::Traces => parse_traces(&doc, now),
            Signal::Metrics => parse_metrics(&doc, now),
        }
        .map_err(|m| OtlpError(StatusCode::BAD_REQUEST, m, None))
    })
    .await
    .map_err(|e| OtlpError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string(), None))??;
    if !drop_all {
        let stored = match &parsed {
            Parsed::Spans(spans, _) => state.storage.obs_add_spans(spans).await.map(|_| ()),
            Parsed::Metrics(metrics, _) => state.storage.obs_add_metrics(metrics).await,
        };
        if let Err(e) = stored {
            tracing::error!(error = format!("{e:#}"), "cannot store OTLP data");
            return Err(OtlpError(
                StatusCode::SERVICE_UNAVAILABLE,
                "Cannot store the data now; retry later.".into(),
                Some(limits::RETRY_AFTER_SECS),
            ));
        }
    }
    Ok(reply(format, signal, parsed.rejected()))
}

fn reply(format: Format, signal: Signal, rejected: u64) -> OtlpReply {
    use opentelemetry_proto::tonic::collector::{
        metrics::v1::{ExportMetricsPartialSuccess, ExportMetricsServiceResponse},
        trace::v1::{ExportTracePartialSuccess, ExportTraceServiceResponse},
    };
    let message = "some records had unusable ids or times and were skipped";
    match format {
        Format::Json => OtlpReply::Json(match (rejected, signal) {
            (0, _) => json!({}),
            (n, Signal::Traces) => {
                json!({"partialSuccess": {"rejectedSpans": n.to_string(), "errorMessage": message}})
            }
            (n, Signal::Metrics) => {
                json!({"partialSuccess": {"rejectedDataPoints": n.to_string(), "errorMessage": message}})
            }
        }),
        Format::Protobuf => OtlpReply::Protobuf(match signal {
            Signal::Traces => ExportTraceServiceResponse {
                partial_success: (rejected > 0).then(|| ExportTracePartialSuccess {
                    rejected_spans: rejected as i64,
                    error_message: message.into(),
                }),
            }
            .encode_to_vec(),
            Signal::Metrics => ExportMetricsServiceResponse {
                partial_success: (rejected > 0).then(|| ExportMetricsPartialSuccess {
                    rejected_data_points: rejected as i64,
                    error_message: message.into(),
                }),
            }
            .encode_to_vec(),
        }),
    }
}
