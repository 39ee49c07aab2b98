//! Lenient OTLP/JSON: the spans and data points of an export request, redacted and
//! cut to size, and how many records were skipped. Pure functions, no I/O.

use base64::Engine;
use serde_json::{Map, Value};

use moat_storage::observability::{NewMetric, NewSpan};

use crate::observability::{
    ingest::plausible,
    limits::{self, MAX_RECORDS_PER_REQUEST, MAX_TEXT_CHARS},
    redact, vitals,
};

/// The attribute naming the recorded session.
pub const SESSION_ATTRIBUTE: &str = "highlight.session_id";
/// Attributes kept per span or data point.
const MAX_ATTRIBUTES: usize = 128;

/// What a request yields: the usable records and how many were skipped.
pub enum Parsed {
    Spans(Vec<NewSpan>, u64),
    Metrics(Vec<NewMetric>, u64),
}

impl Parsed {
    /// Records skipped.
    pub fn rejected(&self) -> u64 {
        match self {
            Parsed::Spans(_, n) | Parsed::Metrics(_, n) => *n,
        }
    }
}

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

#[cfg(test)]
mod tests {
    use serde_json::json;

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
}
