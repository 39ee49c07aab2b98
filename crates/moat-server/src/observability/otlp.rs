//! `POST /v1/traces` and `POST /v1/metrics`: OTLP/HTTP, JSON (what the browser's
//! exporter sends) or `application/x-protobuf` (other OTLP senders), optionally
//! gzipped. Protobuf is turned into the OTLP/JSON shape first, so one lenient parser
//! serves both: ids as hex (or base64), `*UnixNano` as strings or numbers, enums as
//! numbers or names, empty values tolerated. A record that cannot be used (bad ids,
//! an implausible time) is skipped and counted in `partialSuccess`; a body that is
//! not OTLP at all is a 400. Spans and data points are linked to recorded sessions by
//! their `highlight.session_id` attribute (or the resource's).
//!
//! Replies: `{}` (JSON) or an empty protobuf message. Over the ingest's concurrency
//! or its decompression budget: 503 with `Retry-After`; over the per-address budget: 429 with `Retry-After`. The
//! exporter retries both.

use axum::{
    body::Body,
    extract::State,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use base64::Engine;
use prost::Message;
use serde_json::{json, Map, Value};

use moat_storage::observability::{NewMetric, NewSpan};
use opentelemetry_proto::tonic::{
    collector::{metrics::v1::ExportMetricsServiceRequest, trace::v1::ExportTraceServiceRequest},
    common::v1::{any_value, AnyValue, KeyValue},
    metrics::v1::{metric, number_data_point, Metric},
    trace::v1::Span,
};

use super::{
    drop_list, graphql,
    ingest::plausible,
    limits::{self, DecodeError, MAX_RECORDS_PER_REQUEST, MAX_TEXT_CHARS},
    now_ms, redact, vitals,
};
use crate::{accounts::extract::ClientIp, observability::ObservabilityState};

/// The attribute naming the recorded session.
pub const SESSION_ATTRIBUTE: &str = "highlight.session_id";
/// Attributes kept per span or data point.
const MAX_ATTRIBUTES: usize = 128;

const PROTOBUF: &str = "application/x-protobuf";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Signal {
    Traces,
    Metrics,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Protobuf,
}

/// An OTLP failure: status, message, optional `Retry-After`.
struct OtlpError(StatusCode, String, Option<u64>);

impl From<DecodeError> for OtlpError {
    fn from(e: DecodeError) -> Self {
        match e {
            DecodeError::TooLarge(..) => Self(StatusCode::PAYLOAD_TOO_LARGE, e.to_string(), None),
            DecodeError::Busy => Self(
                StatusCode::SERVICE_UNAVAILABLE,
                "The ingest is busy; retry later.".into(),
                Some(limits::RETRY_AFTER_SECS),
            ),
            _ => Self(StatusCode::BAD_REQUEST, e.to_string(), None),
        }
    }
}

impl IntoResponse for OtlpError {
    fn into_response(self) -> Response {
        let mut r =
            graphql::json_response(self.0, &json!({"code": self.0.as_u16(), "message": self.1}));
        if let Some(secs) = self.2 {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        r
    }
}

/// `POST /v1/traces`.
pub async fn traces(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Body,
) -> Response {
    handle(&state, ip, &headers, body, Signal::Traces)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

/// `POST /v1/metrics`.
pub async fn metrics(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Body,
) -> Response {
    handle(&state, ip, &headers, body, Signal::Metrics)
        .await
        .unwrap_or_else(IntoResponse::into_response)
}

async fn handle(
    state: &ObservabilityState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    body: Body,
    signal: Signal,
) -> Result<Response, OtlpError> {
    let observe = &state.observe;
    let cfg = &observe.config;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/json")
        .to_ascii_lowercase();
    let format = if content_type.starts_with(PROTOBUF) {
        Format::Protobuf
    } else if content_type.starts_with("application/json") || content_type.starts_with("text/plain")
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
    let gzipped = match headers
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_ascii_lowercase())
    {
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
    let Some(_slot) = observe.slot().await else {
        return Err(OtlpError(
            StatusCode::SERVICE_UNAVAILABLE,
            "The ingest is busy; retry later.".into(),
            Some(limits::RETRY_AFTER_SECS),
        ));
    };
    let bytes = graphql::read_capped(headers, body, cfg.max_body_bytes).await?;
    if let Err(wait) = observe.ip_budgets.charge(ip, bytes.len() as u64) {
        return Err(OtlpError(
            StatusCode::TOO_MANY_REQUESTS,
            "Too much telemetry from this address; retry later.".into(),
            Some(wait),
        ));
    }
    let drop_all = graphql::user_agent(headers)
        .as_deref()
        .is_some_and(drop_list::is_crawler);
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
            Format::Protobuf => protobuf_to_json(&raw, signal).map_err(|e| {
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
    let rejected = parsed.rejected();
    Ok(reply(format, signal, rejected))
}

fn reply(format: Format, signal: Signal, rejected: u64) -> Response {
    use opentelemetry_proto::tonic::collector::{
        metrics::v1::{ExportMetricsPartialSuccess, ExportMetricsServiceResponse},
        trace::v1::{ExportTracePartialSuccess, ExportTraceServiceResponse},
    };
    let message = "some records had unusable ids or times and were skipped";
    match format {
        Format::Json => {
            let body = match (rejected, signal) {
                (0, _) => json!({}),
                (n, Signal::Traces) => {
                    json!({"partialSuccess": {"rejectedSpans": n.to_string(), "errorMessage": message}})
                }
                (n, Signal::Metrics) => {
                    json!({"partialSuccess": {"rejectedDataPoints": n.to_string(), "errorMessage": message}})
                }
            };
            graphql::json_response(StatusCode::OK, &body)
        }
        Format::Protobuf => {
            let bytes = match signal {
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
            };
            (
                StatusCode::OK,
                [(header::CONTENT_TYPE, HeaderValue::from_static(PROTOBUF))],
                bytes,
            )
                .into_response()
        }
    }
}

/// What a request yields: the usable records and how many were skipped.
pub enum Parsed {
    Spans(Vec<NewSpan>, u64),
    Metrics(Vec<NewMetric>, u64),
}

impl Parsed {
    fn rejected(&self) -> u64 {
        match self {
            Parsed::Spans(_, n) | Parsed::Metrics(_, n) => *n,
        }
    }
}

// ---- lenient OTLP/JSON ---------------------------------------------------------

fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// An id as lowercase hex of `bytes` bytes: hex (any case) or base64; all-zero and
/// malformed ids are `None`.
pub fn id_hex(v: Option<&Value>, bytes: usize) -> Option<String> {
    let s = v?.as_str()?.trim();
    if s.is_empty() {
        return None;
    }
    let hex = if s.len() == bytes * 2 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        s.to_ascii_lowercase()
    } else {
        let raw = base64::engine::general_purpose::STANDARD.decode(s).ok()?;
        if raw.len() != bytes {
            return None;
        }
        raw.iter().map(|b| format!("{b:02x}")).collect()
    };
    (!hex.bytes().all(|b| b == b'0')).then_some(hex)
}

/// A number given as a number or a decimal string.
fn int(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_u64().map(|u| u.min(i64::MAX as u64) as i64))
            .or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse::<i64>().ok().or_else(|| {
            s.trim()
                .parse::<u64>()
                .ok()
                .map(|u| u.min(i64::MAX as u64) as i64)
        }),
        _ => None,
    }
}

fn float(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

/// An OTLP `AnyValue` as plain JSON.
fn any_value(v: &Value) -> Value {
    let Some(obj) = v.as_object() else {
        return Value::Null;
    };
    if let Some(s) = obj.get("stringValue") {
        return match s {
            Value::String(s) => Value::String(redact::truncate(s, MAX_TEXT_CHARS)),
            other => other.clone(),
        };
    }
    if let Some(b) = obj.get("boolValue") {
        return Value::Bool(b.as_bool().unwrap_or(b.as_str() == Some("true")));
    }
    if let Some(i) = obj.get("intValue") {
        return int(Some(i)).map_or(Value::Null, Value::from);
    }
    if let Some(d) = obj.get("doubleValue") {
        return float(Some(d)).map_or(Value::Null, Value::from);
    }
    if let Some(a) = obj.get("arrayValue") {
        return Value::Array(
            array(a, "values")
                .iter()
                .take(MAX_ATTRIBUTES)
                .map(any_value)
                .collect(),
        );
    }
    if let Some(kv) = obj.get("kvlistValue") {
        return Value::Object(attributes(array(kv, "values")));
    }
    if let Some(b) = obj.get("bytesValue") {
        return b.clone();
    }
    Value::Null
}

/// `[{key, value}]` as an object, redacted: credential keys, and URLs' credential
/// query parameters.
fn attributes(list: &[Value]) -> Map<String, Value> {
    list.iter()
        .take(MAX_ATTRIBUTES)
        .filter_map(|kv| {
            let key = kv.get("key")?.as_str()?;
            let last = key.rsplit('.').next().unwrap_or(key);
            let value = if redact::is_sensitive_param(last) || redact::is_sensitive_header(last) {
                Value::String(redact::REDACTED.into())
            } else {
                match any_value(kv.get("value").unwrap_or(&Value::Null)) {
                    Value::String(s) if key.contains("url") || key.contains("target") => {
                        if s.trim_start().starts_with('{') {
                            // e.g. `url.query_params`: a JSON object of the parameters.
                            Value::String(redact::body(&s, MAX_TEXT_CHARS))
                        } else {
                            Value::String(redact::url(&s))
                        }
                    }
                    // Recorded headers and bodies (`http.request.headers`, `…body`).
                    Value::String(s)
                        if key.contains("body")
                            || key.contains("header")
                            || s.trim_start().starts_with('{') =>
                    {
                        Value::String(redact::body(&s, MAX_TEXT_CHARS))
                    }
                    other => other,
                }
            };
            Some((redact::truncate(key, 256), value))
        })
        .collect()
}

fn session_of(attrs: &Map<String, Value>, resource: &Map<String, Value>) -> Option<String> {
    attrs
        .get(SESSION_ATTRIBUTE)
        .or_else(|| resource.get(SESSION_ATTRIBUTE))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= limits::MAX_SECURE_ID_CHARS)
        .map(str::to_owned)
}

const SPAN_KINDS: [&str; 6] = [
    "SPAN_KIND_UNSPECIFIED",
    "SPAN_KIND_INTERNAL",
    "SPAN_KIND_SERVER",
    "SPAN_KIND_CLIENT",
    "SPAN_KIND_PRODUCER",
    "SPAN_KIND_CONSUMER",
];
const STATUS_CODES: [&str; 3] = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

fn enum_value(v: Option<&Value>, names: &[&str]) -> i64 {
    match v {
        Some(Value::String(s)) => names
            .iter()
            .position(|n| n == s)
            .map(|i| i as i64)
            .or_else(|| s.parse().ok())
            .unwrap_or(0),
        other => int(other).unwrap_or(0),
    }
}

/// Spans of an `ExportTraceServiceRequest` in OTLP/JSON form.
pub fn parse_traces(doc: &Value, now_ms: i64) -> Result<Parsed, String> {
    if !doc.is_object() {
        return Err("expected an object with resourceSpans".into());
    }
    let (mut spans, mut rejected) = (Vec::new(), 0u64);
    for rs in array(doc, "resourceSpans") {
        let resource = attributes(array(
            rs.get("resource").unwrap_or(&Value::Null),
            "attributes",
        ));
        let service = resource
            .get("service.name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        for ss in array(rs, "scopeSpans")
            .iter()
            .chain(array(rs, "instrumentationLibrarySpans"))
        {
            for span in array(ss, "spans") {
                if spans.len() >= MAX_RECORDS_PER_REQUEST {
                    rejected += 1;
                    continue;
                }
                match parse_span(span, &resource, &service, now_ms) {
                    Some(s) => spans.push(s),
                    None => rejected += 1,
                }
            }
        }
    }
    Ok(Parsed::Spans(spans, rejected))
}

fn parse_span(
    span: &Value,
    resource: &Map<String, Value>,
    service: &str,
    now_ms: i64,
) -> Option<NewSpan> {
    let trace_id = id_hex(span.get("traceId"), 16)?;
    let span_id = id_hex(span.get("spanId"), 8)?;
    let start_ns = int(span.get("startTimeUnixNano"))?;
    plausible(start_ns / 1_000_000, now_ms)?;
    let end_ns = int(span.get("endTimeUnixNano"))
        .unwrap_or(start_ns)
        .max(start_ns);
    let attrs = attributes(array(span, "attributes"));
    let status = span.get("status");
    Some(NewSpan {
        trace_id,
        span_id,
        parent_span_id: id_hex(span.get("parentSpanId"), 8),
        name: redact::truncate(span.get("name").and_then(Value::as_str).unwrap_or(""), 256),
        service: redact::truncate(service, 128),
        kind: enum_value(span.get("kind"), &SPAN_KINDS),
        start_ns,
        end_ns,
        status_code: enum_value(status.and_then(|s| s.get("code")), &STATUS_CODES),
        status_message: status
            .and_then(|s| s.get("message"))
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty())
            .map(|m| redact::truncate(m, MAX_TEXT_CHARS)),
        session_secure_id: session_of(&attrs, resource),
        attributes: (!attrs.is_empty()).then(|| Value::Object(attrs).to_string()),
    })
}

/// Data points of an `ExportMetricsServiceRequest` in OTLP/JSON form. Gauges and
/// sums give their value, histograms their mean (`sum / count`); web vitals get
/// their canonical name and the `WebVital` category.
pub fn parse_metrics(doc: &Value, now_ms: i64) -> Result<Parsed, String> {
    if !doc.is_object() {
        return Err("expected an object with resourceMetrics".into());
    }
    let (mut rows, mut rejected) = (Vec::new(), 0u64);
    for rm in array(doc, "resourceMetrics") {
        let resource = attributes(array(
            rm.get("resource").unwrap_or(&Value::Null),
            "attributes",
        ));
        for sm in array(rm, "scopeMetrics")
            .iter()
            .chain(array(rm, "instrumentationLibraryMetrics"))
        {
            for metric in array(sm, "metrics") {
                let name = metric.get("name").and_then(Value::as_str).unwrap_or("");
                let (points, histogram) = if let Some(g) = metric.get("gauge") {
                    (array(g, "dataPoints"), false)
                } else if let Some(s) = metric.get("sum") {
                    (array(s, "dataPoints"), false)
                } else if let Some(h) = metric.get("histogram") {
                    (array(h, "dataPoints"), true)
                } else {
                    continue;
                };
                for point in points {
                    if rows.len() >= MAX_RECORDS_PER_REQUEST {
                        rejected += 1;
                        continue;
                    }
                    match parse_point(name, point, histogram, &resource, now_ms) {
                        Some(row) => rows.push(row),
                        None => rejected += 1,
                    }
                }
            }
        }
    }
    Ok(Parsed::Metrics(rows, rejected))
}

fn parse_point(
    name: &str,
    point: &Value,
    histogram: bool,
    resource: &Map<String, Value>,
    now_ms: i64,
) -> Option<NewMetric> {
    if name.is_empty() {
        return None;
    }
    let value = if histogram {
        let count = float(point.get("count"))?;
        let sum = float(point.get("sum"))?;
        (count > 0.0).then(|| sum / count)?
    } else {
        float(point.get("asDouble")).or_else(|| int(point.get("asInt")).map(|i| i as f64))?
    };
    let ts = match int(point.get("timeUnixNano")) {
        Some(ns) if ns > 0 => plausible(ns / 1_000_000, now_ms)?,
        _ => now_ms,
    };
    let attrs = attributes(array(point, "attributes"));
    // highlight.run puts the page's URL in `group` (last: other senders' URLs first).
    let page_url = [
        "url.full",
        "http.url",
        "url",
        "location.href",
        "page",
        "page.url",
        "group",
    ]
    .iter()
    .find_map(|k| {
        attrs
            .get(*k)
            .or_else(|| resource.get(*k))
            .and_then(Value::as_str)
    })
    .unwrap_or("");
    let (metric_name, category) = match vitals::canonical(name) {
        Some(v) => (v.to_owned(), vitals::WEB_VITAL_CATEGORY.to_owned()),
        None => (
            redact::truncate(name, 128),
            attrs
                .get("category")
                .and_then(Value::as_str)
                .map(|c| redact::truncate(c, 64))
                .unwrap_or_default(),
        ),
    };
    Some(NewMetric {
        session_secure_id: session_of(&attrs, resource),
        name: metric_name,
        value,
        category,
        page: vitals::page_of(page_url),
        ts,
        tags: (!attrs.is_empty()).then(|| Value::Object(attrs).to_string()),
        source: "otlp".into(),
    })
}

// ---- protobuf → OTLP/JSON --------------------------------------------------------

fn hex(bytes: &[u8]) -> Value {
    Value::String(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn pb_any(v: &AnyValue) -> Value {
    match &v.value {
        Some(any_value::Value::StringValue(s)) => json!({ "stringValue": s }),
        Some(any_value::Value::BoolValue(b)) => json!({ "boolValue": b }),
        Some(any_value::Value::IntValue(i)) => json!({ "intValue": i.to_string() }),
        Some(any_value::Value::DoubleValue(d)) => json!({ "doubleValue": d }),
        Some(any_value::Value::ArrayValue(a)) => {
            json!({ "arrayValue": { "values": a.values.iter().map(pb_any).collect::<Vec<_>>() } })
        }
        Some(any_value::Value::KvlistValue(kv)) => {
            json!({ "kvlistValue": { "values": pb_attrs(&kv.values) } })
        }
        Some(any_value::Value::BytesValue(b)) => {
            json!({ "bytesValue": base64::engine::general_purpose::STANDARD.encode(b) })
        }
        _ => json!({}),
    }
}

fn pb_attrs(list: &[KeyValue]) -> Vec<Value> {
    list.iter()
        .map(|kv| json!({ "key": kv.key, "value": kv.value.as_ref().map_or(json!({}), pb_any) }))
        .collect()
}

fn pb_span(s: &Span) -> Value {
    json!({
        "traceId": hex(&s.trace_id),
        "spanId": hex(&s.span_id),
        "parentSpanId": hex(&s.parent_span_id),
        "name": s.name,
        "kind": s.kind,
        "startTimeUnixNano": s.start_time_unix_nano.to_string(),
        "endTimeUnixNano": s.end_time_unix_nano.to_string(),
        "attributes": pb_attrs(&s.attributes),
        "status": s.status.as_ref().map(|st| json!({ "code": st.code, "message": st.message })),
    })
}

fn pb_metric(m: &Metric) -> Value {
    let number_points = |points: &[opentelemetry_proto::tonic::metrics::v1::NumberDataPoint]| {
        points
            .iter()
            .map(|p| {
                let mut v = json!({
                    "timeUnixNano": p.time_unix_nano.to_string(),
                    "attributes": pb_attrs(&p.attributes),
                });
                match p.value {
                    Some(number_data_point::Value::AsDouble(d)) => v["asDouble"] = json!(d),
                    Some(number_data_point::Value::AsInt(i)) => v["asInt"] = json!(i.to_string()),
                    None => {}
                }
                v
            })
            .collect::<Vec<_>>()
    };
    let data = match &m.data {
        Some(metric::Data::Gauge(g)) => {
            json!({ "gauge": { "dataPoints": number_points(&g.data_points) } })
        }
        Some(metric::Data::Sum(s)) => {
            json!({ "sum": { "dataPoints": number_points(&s.data_points) } })
        }
        Some(metric::Data::Histogram(h)) => {
            json!({ "histogram": { "dataPoints": h.data_points.iter().map(|p| json!({
            "timeUnixNano": p.time_unix_nano.to_string(),
            "count": p.count.to_string(),
            "sum": p.sum,
            "attributes": pb_attrs(&p.attributes),
        })).collect::<Vec<_>>() } })
        }
        _ => json!({}),
    };
    let mut out = json!({ "name": m.name });
    if let (Value::Object(o), Value::Object(d)) = (&mut out, data) {
        o.extend(d);
    }
    out
}

fn protobuf_to_json(bytes: &[u8], signal: Signal) -> Result<Value, prost::DecodeError> {
    Ok(match signal {
        Signal::Traces => {
            let req = ExportTraceServiceRequest::decode(bytes)?;
            json!({ "resourceSpans": req.resource_spans.iter().map(|rs| json!({
                "resource": { "attributes": rs.resource.as_ref().map_or(Vec::new(), |r| pb_attrs(&r.attributes)) },
                "scopeSpans": rs.scope_spans.iter().map(|ss| json!({
                    "spans": ss.spans.iter().map(pb_span).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>() })
        }
        Signal::Metrics => {
            let req = ExportMetricsServiceRequest::decode(bytes)?;
            json!({ "resourceMetrics": req.resource_metrics.iter().map(|rm| json!({
                "resource": { "attributes": rm.resource.as_ref().map_or(Vec::new(), |r| pb_attrs(&r.attributes)) },
                "scopeMetrics": rm.scope_metrics.iter().map(|sm| json!({
                    "metrics": sm.metrics.iter().map(pb_metric).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>() })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_790_000_000_000;

    #[test]
    fn ids_are_hex_or_base64() {
        let hex32 = "5B8EFFF798038103D269B633813FC60C";
        assert_eq!(
            id_hex(Some(&json!(hex32)), 16).unwrap(),
            hex32.to_lowercase()
        );
        let b64 = base64::engine::general_purpose::STANDARD.encode([0xab; 8]);
        assert_eq!(id_hex(Some(&json!(b64)), 8).unwrap(), "abababababababab");
        assert_eq!(id_hex(Some(&json!("")), 8), None);
        assert_eq!(id_hex(Some(&json!("0000000000000000")), 8), None);
        assert_eq!(id_hex(Some(&json!("xyz")), 8), None);
    }

    #[test]
    fn spans_parse_leniently() {
        let start = (NOW * 1_000_000).to_string();
        let doc = json!({"resourceSpans": [{
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "moat-web"}},
                                        {"key": "highlight.session_id", "value": {"stringValue": "sess1"}}]},
            "scopeSpans": [{"spans": [
                {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "parentSpanId": "",
                 "name": "GET /api/me", "kind": 3, "startTimeUnixNano": start, "endTimeUnixNano": NOW * 1_000_000 + 5_000_000,
                 "attributes": [{"key": "http.url", "value": {"stringValue": "https://m.example/api/me?token=x"}},
                                {"key": "http.status_code", "value": {"intValue": "200"}},
                                {"key": "http.request.header.authorization", "value": {"stringValue": "Bearer x"}},
                                {"key": "url.query_params", "value": {"stringValue": "{\"token\":\"abc\",\"page\":\"2\"}"}},
                                {"key": "http.request.headers", "value": {"stringValue": "{\"cookie\":\"sid=1\",\"accept\":\"*/*\"}"}},
                                {"key": "http.response.body", "value": {"stringValue": "{\"token\":\"jwt\",\"nickname\":\"a\"}"}},
                                {"key": "empty", "value": {}}],
                 "status": {"code": "STATUS_CODE_ERROR"}},
                {"traceId": "", "spanId": "eee19b7ec3c1b174", "startTimeUnixNano": start},
                {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b175", "startTimeUnixNano": "1"}
            ]}]
        }]});
        let Parsed::Spans(spans, rejected) = parse_traces(&doc, NOW).unwrap() else {
            panic!()
        };
        assert_eq!(rejected, 2, "no trace id; a time in 1970");
        let s = &spans[0];
        assert_eq!(s.service, "moat-web");
        assert_eq!(s.session_secure_id.as_deref(), Some("sess1"));
        assert_eq!(s.parent_span_id, None);
        assert_eq!((s.kind, s.status_code), (3, 2));
        assert_eq!(s.end_ns - s.start_ns, 5_000_000);
        let attrs: Value = serde_json::from_str(s.attributes.as_deref().unwrap()).unwrap();
        assert_eq!(
            attrs["http.url"],
            "https://m.example/api/me?token=[REDACTED]"
        );
        assert_eq!(attrs["http.status_code"], 200);
        assert_eq!(attrs["http.request.header.authorization"], "[REDACTED]");
        for (key, secret, kept) in [
            ("url.query_params", "abc", "2"),
            ("http.request.headers", "sid=1", "*/*"),
            ("http.response.body", "jwt", "nickname"),
        ] {
            let v = attrs[key].as_str().unwrap();
            assert!(!v.contains(secret) && v.contains(kept), "{key}: {v}");
        }
        assert!(parse_traces(&json!([1]), NOW).is_err());
    }

    #[test]
    fn web_vitals_become_web_vital_metrics() {
        let doc = json!({"resourceMetrics": [{"resource": {"attributes": []}, "scopeMetrics": [{"metrics": [
            {"name": "LCP", "gauge": {"dataPoints": [{"asDouble": 2100.5, "timeUnixNano": (NOW * 1_000_000).to_string(),
                "attributes": [{"key": "highlight.session_id", "value": {"stringValue": "s1"}},
                               {"key": "url", "value": {"stringValue": "https://m.example/stocks/123?x=1"}}]}]}},
            {"name": "api.latency", "histogram": {"dataPoints": [{"count": "4", "sum": 100}]}},
            {"name": "clicks", "sum": {"dataPoints": [{"asInt": "3"}, {"asDouble": "NaN"}]}}
        ]}]}]});
        let Parsed::Metrics(rows, rejected) = parse_metrics(&doc, NOW).unwrap() else {
            panic!()
        };
        assert_eq!(rejected, 1);
        assert_eq!(rows[0].name, "LCP");
        assert_eq!(rows[0].category, vitals::WEB_VITAL_CATEGORY);
        assert_eq!(rows[0].page, "/stocks/:id");
        assert_eq!(rows[0].session_secure_id.as_deref(), Some("s1"));
        assert_eq!(rows[1].value, 25.0);
        assert_eq!(rows[2].value, 3.0);
        assert_eq!(rows[2].ts, NOW);
    }

    #[test]
    fn protobuf_reads_like_json() {
        use opentelemetry_proto::tonic::{
            resource::v1::Resource,
            trace::v1::{ResourceSpans, ScopeSpans},
        };
        let req = ExportTraceServiceRequest {
            resource_spans: vec![ResourceSpans {
                resource: Some(Resource {
                    attributes: vec![KeyValue {
                        key: "service.name".into(),
                        value: Some(AnyValue {
                            value: Some(any_value::Value::StringValue("svc".into())),
                        }),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
                scope_spans: vec![ScopeSpans {
                    spans: vec![Span {
                        trace_id: vec![1; 16],
                        span_id: vec![2; 8],
                        name: "op".into(),
                        start_time_unix_nano: (NOW as u64) * 1_000_000,
                        end_time_unix_nano: (NOW as u64) * 1_000_000 + 10,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        let doc = protobuf_to_json(&req.encode_to_vec(), Signal::Traces).unwrap();
        let Parsed::Spans(spans, 0) = parse_traces(&doc, NOW).unwrap() else {
            panic!()
        };
        assert_eq!(spans[0].trace_id, "01".repeat(16));
        assert_eq!(spans[0].span_id, "02".repeat(8));
        assert_eq!(spans[0].service, "svc");
        assert_eq!(spans[0].parent_span_id, None);
        assert!(protobuf_to_json(b"\xff\xff\xff", Signal::Traces).is_err());
    }
}
