//! `pushMetrics`: the recorder's metrics (web vitals among them), one row each.

use serde::Deserialize;
use serde_json::{json, Map, Value};

use moat_storage::observability::NewMetric;

use super::{check_secure_id, data, vars, Call, GqlError, MAX_PROPERTIES};
use crate::observability::{ingest, limits, now_ms, redact, vitals};

#[derive(Deserialize)]
struct MetricsVars {
    metrics: Vec<MetricInput>,
}

#[derive(Deserialize)]
struct MetricInput {
    #[serde(default)]
    session_secure_id: Option<String>,
    name: String,
    value: f64,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    timestamp: Option<Value>,
    #[serde(default)]
    tags: Option<Vec<MetricTag>>,
}

#[derive(Deserialize)]
struct MetricTag {
    name: String,
    value: Value,
}

pub(super) async fn push_metrics(call: &Call<'_>, raw: &str, key: &str) -> Result<Value, GqlError> {
    let v: MetricsVars = vars(raw)?;
    if v.metrics.len() > limits::MAX_RECORDS_PER_REQUEST {
        return Err(GqlError::bad(format!(
            "At most {} metrics per request.",
            limits::MAX_RECORDS_PER_REQUEST
        )));
    }
    let now = now_ms();
    let mut rows = Vec::with_capacity(v.metrics.len());
    for m in v.metrics {
        if let Some(id) = &m.session_secure_id {
            check_secure_id(id)?;
        }
        if !m.value.is_finite() {
            continue;
        }
        let tags: Map<String, Value> = m
            .tags
            .unwrap_or_default()
            .into_iter()
            .take(MAX_PROPERTIES)
            .map(|t| {
                let value = match t.value {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                (
                    redact::truncate(&t.name, 128),
                    Value::String(redact::truncate(&value, 512)),
                )
            })
            .collect();
        let page_url = m
            .group
            .clone()
            .or_else(|| tags.get("url").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        let (name, category) = match vitals::canonical(&m.name) {
            Some(vital) => (vital.to_owned(), vitals::WEB_VITAL_CATEGORY.to_owned()),
            None => (
                redact::truncate(&m.name, 128),
                redact::truncate(m.category.as_deref().unwrap_or(""), 64),
            ),
        };
        rows.push(NewMetric {
            session_secure_id: m.session_secure_id,
            name,
            value: m.value,
            category,
            page: vitals::page_of(&page_url),
            ts: m
                .timestamp
                .as_ref()
                .and_then(|t| ingest::client_time(t, now))
                .unwrap_or(now),
            tags: (!tags.is_empty()).then(|| Value::Object(tags).to_string()),
            source: "graphql".into(),
        });
    }
    let count = rows.len();
    if !call.drop_all {
        call.state.storage.obs_add_metrics(&rows).await?;
    }
    Ok(data(key, json!(count)))
}
