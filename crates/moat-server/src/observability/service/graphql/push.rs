//! The replay pushes: `PushSessionEvents` and `PushPayloadCompressed` (base64 of gzip
//! of the push) and `PushPayload` (older clients, uncompressed). Each is decoded and
//! parsed off the async workers, checked against the session's byte budget and
//! stored; a push sent again (the same payload id) is stored once.

use serde::Deserialize;
use serde_json::{json, Value};

use moat_storage::observability::{NewErrorOccurrence, NewPush};

use super::{check_secure_id, data, vars, Call, GqlError};
use crate::observability::{
    ingest::{self, Embedded, EventsField, ParsedPush, PayloadId, PushBody},
    limits, now_ms,
};

#[derive(Deserialize)]
struct CompressedVars {
    session_secure_id: String,
    payload_id: PayloadId,
    data: String,
}

/// `PushSessionEvents` and `PushPayloadCompressed`: base64 of gzip of the push.
pub(super) async fn push_compressed(
    call: &Call<'_>,
    raw: &str,
    key: &str,
) -> Result<Value, GqlError> {
    let CompressedVars {
        session_secure_id,
        payload_id,
        data: encoded,
    } = vars(raw)?;
    check_secure_id(&session_secure_id)?;
    let cfg = &call.observe.config;
    let now = now_ms();
    let sent_at = ingest::plausible(payload_id.0, now).unwrap_or(now);
    let (max_gz, max_json) = (cfg.max_body_bytes, cfg.max_decompressed_bytes);
    let budget = call.observe.inflate.clone();
    // Decoding and parsing are CPU work: off the async workers. The decompression
    // budget is reserved between the two steps, before a thread is taken for the second.
    let gz = tokio::task::spawn_blocking(move || limits::base64_limited(&encoded, max_gz))
        .await
        .map_err(GqlError::internal)??;
    let charge = budget.reserve(&gz, max_json)?;
    let (gz, parsed) = tokio::task::spawn_blocking(move || -> Result<_, GqlError> {
        // The charge is held until the text and its parse are dropped.
        let (raw, _charge) = limits::gunzip_budgeted(&gz, max_json, &budget, charge)?;
        let json = limits::json_text(raw)?;
        let parsed = ingest::parse_push(&json, sent_at, now, false).map_err(GqlError::bad)?;
        Ok((gz, parsed))
    })
    .await
    .map_err(GqlError::internal)??;
    if !call.drop_all {
        let gz_len = gz.len() as i64;
        let chunk = if parsed.events > 0 { gz } else { Vec::new() };
        store_push(
            call,
            &session_secure_id,
            payload_id.0,
            chunk,
            gz_len,
            parsed,
            now,
        )
        .await?;
    }
    Ok(data(key, Value::Null))
}

#[derive(Deserialize)]
struct PayloadVars<'a> {
    session_secure_id: String,
    #[serde(default)]
    payload_id: Option<PayloadId>,
    #[serde(borrow, default)]
    events: Option<EventsField<'a>>,
    #[serde(default)]
    messages: Option<Embedded>,
    #[serde(default)]
    resources: Option<Embedded>,
    #[serde(default)]
    errors: Option<Vec<Value>>,
    #[serde(default)]
    is_beacon: Option<bool>,
    #[serde(default)]
    has_session_unloaded: Option<bool>,
    #[serde(default)]
    #[allow(dead_code)]
    highlight_logs: Option<String>,
}

/// `PushPayload` (older clients): the same fields, uncompressed. Without a payload
/// id the server's clock stands in (retries are then not recognised).
pub(super) async fn push_payload(call: &Call<'_>, raw: &str, key: &str) -> Result<Value, GqlError> {
    let raw = raw.to_owned();
    let now = now_ms();
    let (secure_id, payload_id, gz, parsed) =
        tokio::task::spawn_blocking(move || -> Result<_, GqlError> {
            let v: PayloadVars<'_> = vars(&raw)?;
            let payload_id = v.payload_id.map_or(now, |p| p.0);
            let sent_at = ingest::plausible(payload_id, now).unwrap_or(now);
            let body = PushBody {
                events: v.events,
                messages: v.messages,
                resources: v.resources,
                errors: v.errors,
                is_beacon: v.is_beacon,
                has_session_unloaded: v.has_session_unloaded,
                payload_id: None,
                session_secure_id: None,
            };
            let mut parsed =
                ingest::parse_body(&body, sent_at, now, true).map_err(GqlError::bad)?;
            // Kept in the same form as a compressed push, so one reader serves both.
            let gz = if parsed.events > 0 {
                let events = std::mem::take(&mut parsed.raw_events).join(",");
                gzip(format!("{{\"events\":{{\"events\":[{events}]}}}}").as_bytes())
                    .map_err(GqlError::internal)?
            } else {
                Vec::new()
            };
            Ok((v.session_secure_id, payload_id, gz, parsed))
        })
        .await
        .map_err(GqlError::internal)??;
    check_secure_id(&secure_id)?;
    let events = parsed.events;
    if !call.drop_all {
        store_push(
            call,
            &secure_id,
            payload_id,
            gz,
            call.body_len as i64,
            parsed,
            now,
        )
        .await?;
    }
    Ok(data(key, json!(events)))
}

fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes)?;
    e.finish()
}

/// Checks the session's budget, works out replay offsets and stores the push.
async fn store_push(
    call: &Call<'_>,
    secure_id: &str,
    payload_id: i64,
    chunk: Vec<u8>,
    bytes: i64,
    parsed: ParsedPush,
    now: i64,
) -> Result<(), GqlError> {
    let session = call.session(secure_id).await?;
    let budget = call.observe.config.session_budget_bytes;
    if session.bytes_received.saturating_add(bytes) as u64 > budget {
        return Err(GqlError::quota());
    }
    // Replay offsets count from the session's first replay event (client clock).
    let base = match (session.first_event_at, parsed.first_ts) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let errors = parsed
        .errors
        .into_iter()
        .map(|e| NewErrorOccurrence {
            replay_offset_ms: base.map_or(0, |b| (e.ts - b).max(0)),
            fingerprint: e.fingerprint,
            error_type: e.error_type,
            message: e.message,
            ts: e.ts,
            url: e.url,
            source: e.source,
            stack: e.stack,
        })
        .collect();
    let push = NewPush {
        session_id: session.id,
        payload_id,
        data: chunk,
        events: parsed.events,
        first_ts: parsed.first_ts,
        last_ts: parsed.last_ts,
        received_at: now,
        bytes,
        first_url: parsed.first_url,
        timeline: parsed.timeline,
        console: parsed.console,
        resources: parsed.resources,
        errors,
    };
    let stored = call.state.storage.obs_store_push(&push).await?;
    if !stored {
        tracing::debug!(payload_id, "a push arrived again: already stored");
    }
    Ok(())
}
