//! OTLP protobuf turned into the OTLP/JSON shape, for the one lenient parser: ids as
//! hex, 64-bit numbers as decimal strings, bytes as base64.

use base64::Engine;
use prost::Message;
use serde_json::{json, Value};

use opentelemetry_proto::tonic::{
    collector::{metrics::v1::ExportMetricsServiceRequest, trace::v1::ExportTraceServiceRequest},
    common::v1::{any_value, AnyValue, KeyValue},
    metrics::v1::{metric, number_data_point, Metric},
    trace::v1::Span,
};

use super::Signal;

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

/// An `Export…ServiceRequest` of `signal` as OTLP/JSON.
pub fn to_json(bytes: &[u8], signal: Signal) -> Result<Value, prost::DecodeError> {
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
    use crate::observability::service::otlp::{parse_traces, Parsed};

    const NOW: i64 = 1_790_000_000_000;

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
        let doc = to_json(&req.encode_to_vec(), Signal::Traces).unwrap();
        let Parsed::Spans(spans, 0) = parse_traces(&doc, NOW).unwrap() else {
            panic!()
        };
        assert_eq!(spans[0].trace_id, "01".repeat(16));
        assert_eq!(spans[0].span_id, "02".repeat(8));
        assert_eq!(spans[0].service, "svc");
        assert_eq!(spans[0].parent_span_id, None);
        assert!(to_json(b"\xff\xff\xff", Signal::Traces).is_err());
    }
}
