//! The telemetry ingest's endpoints, outside the OpenAPI document: `POST /public` (the
//! session recorder's GraphQL) and `POST /v1/traces`, `/v1/metrics` (OTLP/HTTP). Same
//! origin, no auth. Each waits for an ingest slot and reads the body within the
//! ingest's own caps (the API's body limit does not apply), then hands it to
//! `service::graphql` or `service::otlp` and writes their reply, in the protocol's
//! own shapes.

use axum::{
    body::Body,
    extract::State,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use serde_json::Value;

use crate::{
    accounts::extract::ClientIp,
    observability::{
        limits::DecodeError,
        redact,
        service::{
            graphql::{self, GqlError},
            otlp::{self, Encoding, OtlpError, OtlpReply, Signal},
        },
        ObservabilityState,
    },
};

/// `POST /public`.
pub async fn public(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let limit = state.observe.config.max_body_bytes;
    let reply = async {
        // An oversized body is refused before it waits for a slot.
        if declared_length(&headers).is_some_and(|n| n > limit as u64) {
            return Err(DecodeError::TooLarge("request body", limit).into());
        }
        let _slot = state.observe.slot().await.ok_or_else(GqlError::busy)?;
        let bytes = read_capped(&headers, body, limit).await?;
        graphql::handle(&state, ip, user_agent(&headers), &bytes).await
    };
    match reply.await {
        Ok(data) => json_response(StatusCode::OK, &data),
        Err(e) => e.into_response(),
    }
}

/// `POST /v1/traces`.
pub async fn traces(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Body,
) -> Response {
    otlp_export(&state, ip, &headers, body, Signal::Traces).await
}

/// `POST /v1/metrics`.
pub async fn metrics(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Body,
) -> Response {
    otlp_export(&state, ip, &headers, body, Signal::Metrics).await
}

async fn otlp_export(
    state: &ObservabilityState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    body: Body,
    signal: Signal,
) -> Response {
    let reply = async {
        let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
        let encoding = Encoding::of(text(header::CONTENT_TYPE), text(header::CONTENT_ENCODING))?;
        let _slot = state.observe.slot().await.ok_or_else(OtlpError::busy)?;
        let bytes = read_capped(headers, body, state.observe.config.max_body_bytes).await?;
        let user_agent = user_agent(headers);
        otlp::ingest(state, ip, user_agent.as_deref(), signal, encoding, bytes).await
    };
    match reply.await {
        Ok(OtlpReply::Json(body)) => json_response(StatusCode::OK, &body),
        Ok(OtlpReply::Protobuf(bytes)) => (
            StatusCode::OK,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static(otlp::PROTOBUF),
            )],
            bytes,
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

impl IntoResponse for GqlError {
    fn into_response(self) -> Response {
        with_retry_after(
            json_response(self.status(), &self.body()),
            self.retry_after(),
        )
    }
}

impl IntoResponse for OtlpError {
    fn into_response(self) -> Response {
        with_retry_after(json_response(self.0, &self.body()), self.2)
    }
}

fn with_retry_after(mut response: Response, secs: Option<u64>) -> Response {
    if let Some(secs) = secs {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// A JSON reply that no cache keeps.
fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body.to_string(),
    )
        .into_response()
}

fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

/// Reads the body within the caps (declared length first, then while reading).
async fn read_capped(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<bytes::Bytes, DecodeError> {
    let declared = declared_length(headers);
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(DecodeError::TooLarge("request body", limit));
    }
    use futures_util::StreamExt;
    let mut stream = body.into_data_stream();
    let mut buf = Vec::with_capacity(declared.map_or(8192, |n| n as usize));
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| DecodeError::Read)?;
        if buf.len() + chunk.len() > limit {
            return Err(DecodeError::TooLarge("request body", limit));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(bytes::Bytes::from(buf))
}

/// The sender's `User-Agent`, cut to 512 characters.
fn user_agent(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| redact::truncate(ua, 512))
}
