//! `POST /public`: the session recorder's GraphQL channel (design/recorder-protocol.md).
//!
//! There is no GraphQL engine: the request's `operationName` picks a handler, and the
//! reply is exactly what the client expects, `{"data": {"<field>": …}}`, where
//! `<field>` is the operation's root field (read from the query text, so an alias or
//! another client version still gets its key). Failures are GraphQL errors, always
//! JSON: `{"data": null, "errors": [{"message": …, "extensions": {"code": …}}]}` with
//! a 4xx (5xx for our own failures). Over a byte budget the answer is
//! `{"data": null, "errors": [{"message": "BillingQuotaExceeded"}]}` with 200: the
//! recorder then stops without retrying. Bad input stores nothing.

use std::sync::Arc;

use axum::{
    body::Body,
    extract::State,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::{json, value::RawValue, Map, Value};

use moat_storage::observability::{
    NewErrorOccurrence, NewFeedback, NewMetric, NewObsSession, NewPush, ObsSessionRow,
};

use super::{
    drop_list,
    ingest::{self, Embedded, EventsField, ParsedPush, PayloadId, PushBody},
    limits::{self, DecodeError, MAX_SECURE_ID_CHARS, MAX_TEXT_CHARS},
    now_ms, redact, vitals, Observe,
};
use crate::{accounts::extract::ClientIp, observability::ObservabilityState};

/// The message that stops the recorder without retries.
pub const QUOTA_MESSAGE: &str = "BillingQuotaExceeded";
/// What `initializeSession` answers as the project id (a positive integer string).
pub const PROJECT_ID: &str = "1";
/// Longest feedback text kept.
const MAX_FEEDBACK_CHARS: usize = 5_000;
/// User-object and property keys kept per session.
const MAX_PROPERTIES: usize = 100;

/// A GraphQL failure.
#[derive(Debug)]
pub struct GqlError {
    status: StatusCode,
    code: &'static str,
    message: String,
    retry_after: Option<u64>,
}

impl GqlError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "BAD_USER_INPUT", message)
    }

    fn internal(e: impl std::fmt::Display) -> Self {
        tracing::error!(error = e.to_string(), "observability ingest failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_SERVER_ERROR",
            "Something went wrong on our side.",
        )
    }

    fn quota() -> Self {
        Self::new(StatusCode::OK, "", QUOTA_MESSAGE)
    }
}

impl From<DecodeError> for GqlError {
    fn from(e: DecodeError) -> Self {
        match e {
            DecodeError::TooLarge(..) => Self::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "PAYLOAD_TOO_LARGE",
                e.to_string(),
            ),
            DecodeError::Busy => Self {
                retry_after: Some(limits::RETRY_AFTER_SECS),
                ..Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "OVERLOADED",
                    "The ingest is busy; try again shortly.",
                )
            },
            other => Self::bad(other.to_string()),
        }
    }
}

impl From<moat_storage::StorageError> for GqlError {
    fn from(e: moat_storage::StorageError) -> Self {
        Self::internal(format!("{e:#}"))
    }
}

impl IntoResponse for GqlError {
    fn into_response(self) -> Response {
        let body = if self.code.is_empty() {
            json!({"data": null, "errors": [{"message": self.message}]})
        } else {
            json!({"data": null, "errors": [{"message": self.message, "extensions": {"code": self.code}}]})
        };
        let mut response = json_response(self.status, &body);
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
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

/// `{"data": {field: value}}`.
fn data(field: &str, value: Value) -> Response {
    let mut map = Map::new();
    map.insert(field.to_owned(), value);
    json_response(StatusCode::OK, &json!({ "data": map }))
}

#[derive(Deserialize)]
struct GqlRequest<'a> {
    #[serde(default)]
    query: Option<String>,
    #[serde(rename = "operationName", default)]
    operation_name: Option<String>,
    #[serde(borrow, default)]
    variables: Option<&'a RawValue>,
}

/// What every handler needs to know of the request.
struct Call<'a> {
    state: &'a ObservabilityState,
    observe: &'a Observe,
    ip_hash: String,
    user_agent: Option<String>,
    body_len: usize,
    /// A crawler: answer as usual, store nothing.
    drop_all: bool,
}

/// Reads the body within the caps (declared length first, then while reading).
pub(crate) async fn read_capped(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<bytes::Bytes, DecodeError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
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

pub(crate) fn user_agent(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| redact::truncate(ua, 512))
}

/// `POST /public`.
pub async fn public(
    State(state): State<ObservabilityState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Body,
) -> Response {
    match handle(&state, ip, &headers, body).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn handle(
    state: &ObservabilityState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, GqlError> {
    let observe: &Arc<Observe> = &state.observe;
    let limit = observe.config.max_body_bytes;
    let declared_over = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > limit as u64);
    if declared_over {
        return Err(DecodeError::TooLarge("request body", limit).into());
    }
    let Some(_slot) = observe.slot().await else {
        return Err(GqlError {
            retry_after: Some(limits::RETRY_AFTER_SECS),
            ..GqlError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "OVERLOADED",
                "The ingest is busy; try again shortly.",
            )
        });
    };
    let bytes = read_capped(headers, body, limit).await?;
    if observe.ip_budgets.charge(ip, bytes.len() as u64).is_err() {
        return Err(GqlError::quota());
    }
    if limits::json_depth(&bytes) > limits::MAX_JSON_DEPTH {
        return Err(DecodeError::TooDeep.into());
    }
    let text =
        std::str::from_utf8(&bytes).map_err(|_| GqlError::bad("The body is not UTF-8 text."))?;
    let request: GqlRequest<'_> = serde_json::from_str(text)
        .map_err(|e| GqlError::bad(format!("The body is not a GraphQL request: {e}")))?;
    let Some(op) = request.operation_name.as_deref().filter(|o| !o.is_empty()) else {
        return Err(GqlError::bad("operationName is required."));
    };
    let user_agent = user_agent(headers);
    let call = Call {
        state,
        observe,
        ip_hash: observe.hash_ip(ip),
        drop_all: user_agent.as_deref().is_some_and(drop_list::is_crawler),
        user_agent,
        body_len: bytes.len(),
    };
    let vars = request.variables.map(RawValue::get).unwrap_or("{}");
    let key = |default: &'static str| response_key(request.query.as_deref(), op, default);
    match op {
        "initializeSession" => initialize_session(&call, vars, &key("initializeSession")).await,
        "PushSessionEvents" => push_compressed(&call, vars, &key("pushSessionEvents")).await,
        "PushPayloadCompressed" => {
            push_compressed(&call, vars, &key("pushPayloadCompressed")).await
        }
        "PushPayload" => push_payload(&call, vars, &key("pushPayload")).await,
        "identifySession" => identify_session(&call, vars, &key("identifySession")).await,
        "addSessionProperties" => {
            add_session_properties(&call, vars, &key("addSessionProperties")).await
        }
        "addSessionFeedback" => add_session_feedback(&call, vars, &key("addSessionFeedback")).await,
        "pushMetrics" => push_metrics(&call, vars, &key("pushMetrics")).await,
        "Ignore" => Ok(data(&key("ignore"), Value::Null)),
        "GetSamplingConfig" => Ok(data(&key("sampling"), json!({"spans": [], "logs": []}))),
        other => Err(GqlError::new(
            StatusCode::BAD_REQUEST,
            "UNKNOWN_OPERATION",
            format!("Unknown operation {:?}.", redact::truncate(other, 64)),
        )),
    }
}

/// The reply key of the operation's root field: the alias or field name that
/// follows the operation's opening brace in the query text (fragments before it are
/// skipped), else `default`.
pub fn response_key(query: Option<&str>, op: &str, default: &str) -> String {
    let found = query.and_then(|q| {
        let mut start = 0;
        // The definition `query|mutation <op>` (a fragment may come first).
        let def = loop {
            let i = q[start..].find(op)? + start;
            let before = q[..i].trim_end();
            let after = q[i + op.len()..].chars().next();
            let word_end = after.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            if word_end && (before.ends_with("query") || before.ends_with("mutation")) {
                break i;
            }
            start = i + op.len();
        };
        let brace = q[def..].find('{')? + def;
        let rest = q[brace + 1..].trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    });
    found.unwrap_or_else(|| default.to_owned())
}

fn vars<'a, T: Deserialize<'a>>(raw: &'a str) -> Result<T, GqlError> {
    serde_json::from_str(raw)
        .map_err(|e| GqlError::bad(format!("The variables are not valid: {e}")))
}

fn check_secure_id(id: &str) -> Result<(), GqlError> {
    if limits::is_secure_id(id) {
        Ok(())
    } else {
        Err(GqlError::bad(format!(
            "session_secure_id must be 1 to {MAX_SECURE_ID_CHARS} of A-Z, a-z, 0-9, - and _."
        )))
    }
}

fn opt_text(v: Option<String>, max: usize) -> Option<String> {
    v.filter(|s| !s.is_empty())
        .map(|s| redact::truncate(&s, max))
}

impl Call<'_> {
    fn new_session(&self, secure_id: &str) -> NewObsSession {
        NewObsSession {
            secure_id: secure_id.to_owned(),
            user_agent: self.user_agent.clone(),
            ip_hash: Some(self.ip_hash.clone()),
            now_ms: now_ms(),
            ..NewObsSession::default()
        }
    }

    /// Merges `new` (string values) into the session's properties, up to
    /// `MAX_PROPERTIES` keys.
    async fn merge_properties(
        &self,
        session: &ObsSessionRow,
        new: Map<String, Value>,
    ) -> Result<(), GqlError> {
        let mut merged = session
            .properties
            .as_deref()
            .and_then(|p| serde_json::from_str::<Value>(p).ok())
            .unwrap_or_else(|| json!({}));
        if let Value::Object(into) = &mut merged {
            for (k, val) in new {
                if into.len() < MAX_PROPERTIES || into.contains_key(&k) {
                    into.insert(k, val);
                }
            }
        }
        self.state
            .storage
            .obs_set_session_properties(session.id, &merged.to_string())
            .await?;
        Ok(())
    }

    async fn session(&self, secure_id: &str) -> Result<ObsSessionRow, GqlError> {
        check_secure_id(secure_id)?;
        Ok(self
            .state
            .storage
            .obs_ensure_session(&self.new_session(secure_id))
            .await?)
    }
}

#[derive(Deserialize)]
#[allow(non_snake_case)]
struct InitVars {
    session_secure_id: String,
    #[serde(default)]
    environment: Option<String>,
    #[serde(default)]
    appVersion: Option<String>,
    #[serde(default)]
    clientVersion: Option<String>,
    #[serde(default)]
    serviceName: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    fingerprint: Option<String>,
    #[serde(default)]
    client_id: Option<String>,
    // Typed so that a wrong type is refused; not stored.
    #[serde(default)]
    #[allow(dead_code)]
    enable_strict_privacy: Option<bool>,
    #[serde(default)]
    #[allow(dead_code)]
    enable_recording_network_contents: Option<bool>,
    #[serde(default)]
    #[allow(dead_code)]
    disable_session_recording: Option<bool>,
    #[serde(default)]
    #[allow(dead_code)]
    network_recording_domains: Option<Vec<String>>,
}

async fn initialize_session(call: &Call<'_>, raw: &str, key: &str) -> Result<Response, GqlError> {
    let v: InitVars = vars(raw)?;
    check_secure_id(&v.session_secure_id)?;
    if !call.drop_all {
        let new = NewObsSession {
            environment: redact::truncate(v.environment.as_deref().unwrap_or(""), 64),
            app_version: opt_text(v.appVersion, 64),
            client_version: opt_text(v.clientVersion, 64),
            service_name: opt_text(v.serviceName, 128),
            fingerprint: opt_text(v.id.or(v.fingerprint), 128),
            client_id: opt_text(v.client_id, 128),
            ..call.new_session(&v.session_secure_id)
        };
        call.state.storage.obs_upsert_session(&new).await?;
    }
    Ok(data(
        key,
        json!({"secure_id": v.session_secure_id, "project_id": PROJECT_ID, "sampling": null}),
    ))
}

#[derive(Deserialize)]
struct CompressedVars {
    session_secure_id: String,
    payload_id: PayloadId,
    data: String,
}

/// `PushSessionEvents` and `PushPayloadCompressed`: base64 of gzip of the push.
async fn push_compressed(call: &Call<'_>, raw: &str, key: &str) -> Result<Response, GqlError> {
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
async fn push_payload(call: &Call<'_>, raw: &str, key: &str) -> Result<Response, GqlError> {
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

pub(crate) fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
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

#[derive(Deserialize)]
struct IdentifyVars {
    session_secure_id: String,
    user_identifier: String,
    #[serde(default)]
    user_object: Option<Value>,
}

/// The session property keeping what an unauthenticated `identifySession` claimed.
pub const CLAIMED_IDENTIFIER_KEY: &str = "claimed_user_identifier";
/// The session property keeping the user object an `identifySession` claimed (JSON).
pub const CLAIMED_OBJECT_KEY: &str = "claimed_user_object";

/// `identifySession` comes from the browser without the member's token: anyone who
/// knows a session's id could send it. So it never sets the session's member; what it
/// claims is kept as two properties (`claimed_user_identifier`, `claimed_user_object`)
/// for the operator to read as a claim. The member is set only by the member's own
/// authenticated binding (`observe::identity`).
async fn identify_session(call: &Call<'_>, raw: &str, key: &str) -> Result<Response, GqlError> {
    let v: IdentifyVars = vars(raw)?;
    check_secure_id(&v.session_secure_id)?;
    let identifier = v.user_identifier.trim();
    if identifier.is_empty() {
        return Err(GqlError::bad("user_identifier must not be empty."));
    }
    if !call.drop_all {
        let session = call.session(&v.session_secure_id).await?;
        let mut claim = Map::new();
        claim.insert(
            CLAIMED_IDENTIFIER_KEY.to_owned(),
            Value::String(redact::truncate(identifier, 256)),
        );
        if let Some(object) = &v.user_object {
            claim.insert(
                CLAIMED_OBJECT_KEY.to_owned(),
                Value::String(redact::truncate(
                    &flatten(object).to_string(),
                    MAX_TEXT_CHARS,
                )),
            );
        }
        call.merge_properties(&session, claim).await?;
    }
    Ok(data(key, json!(v.session_secure_id)))
}

/// An object of string values (the recorder flattens them already): keys capped,
/// values cut, credential keys redacted. Anything but an object becomes `{}`.
fn flatten(value: &Value) -> Value {
    let Value::Object(map) = value else {
        return json!({});
    };
    let out: Map<String, Value> = map
        .iter()
        .take(MAX_PROPERTIES)
        .map(|(k, v)| {
            let v = if redact::is_sensitive_param(k) {
                redact::REDACTED.to_owned()
            } else {
                match v {
                    Value::String(s) => redact::truncate(s, MAX_TEXT_CHARS),
                    other => redact::truncate(&other.to_string(), MAX_TEXT_CHARS),
                }
            };
            (redact::truncate(k, 128), Value::String(v))
        })
        .collect();
    Value::Object(out)
}

#[derive(Deserialize)]
struct PropertiesVars {
    session_secure_id: String,
    #[serde(default)]
    properties_object: Option<Value>,
}

async fn add_session_properties(
    call: &Call<'_>,
    raw: &str,
    key: &str,
) -> Result<Response, GqlError> {
    let v: PropertiesVars = vars(raw)?;
    check_secure_id(&v.session_secure_id)?;
    if !call.drop_all {
        let session = call.session(&v.session_secure_id).await?;
        if let Value::Object(new) = flatten(v.properties_object.as_ref().unwrap_or(&Value::Null)) {
            call.merge_properties(&session, new).await?;
        }
    }
    Ok(data(key, json!(v.session_secure_id)))
}

#[derive(Deserialize)]
struct FeedbackVars {
    session_secure_id: String,
    #[serde(default)]
    user_name: Option<String>,
    #[serde(default)]
    user_email: Option<String>,
    verbatim: String,
    #[serde(default)]
    timestamp: Option<String>,
}

async fn add_session_feedback(call: &Call<'_>, raw: &str, key: &str) -> Result<Response, GqlError> {
    let v: FeedbackVars = vars(raw)?;
    check_secure_id(&v.session_secure_id)?;
    let now = now_ms();
    let ts = match v.timestamp.as_deref() {
        Some(t) => ingest::client_time(&Value::String(t.to_owned()), now)
            .ok_or_else(|| GqlError::bad("timestamp must be an RFC 3339 time."))?,
        None => now,
    };
    if !call.drop_all {
        let session = call.session(&v.session_secure_id).await?;
        call.state
            .storage
            .obs_add_feedback(&NewFeedback {
                session_id: session.id,
                user_name: opt_text(v.user_name, 200),
                user_email: opt_text(v.user_email, 320),
                verbatim: redact::truncate(&v.verbatim, MAX_FEEDBACK_CHARS),
                ts,
            })
            .await?;
    }
    Ok(data(key, json!(v.session_secure_id)))
}

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

async fn push_metrics(call: &Call<'_>, raw: &str, key: &str) -> Result<Response, GqlError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reply_key_is_the_root_field_of_the_named_operation() {
        let q = "mutation PushSessionEvents($session_secure_id: String!, $payload_id: ID!, $data: String!) {\n  pushSessionEvents(session_secure_id: $session_secure_id, payload_id: $payload_id, data: $data)\n}";
        assert_eq!(
            response_key(Some(q), "PushSessionEvents", "x"),
            "pushSessionEvents"
        );
        let with_fragment = "fragment MatchParts on MatchConfig { regexValue }\nquery GetSamplingConfig($organization_verbose_id: String!) {\n sampling(organization_verbose_id: $organization_verbose_id) { spans { name { ...MatchParts } } }\n}";
        assert_eq!(
            response_key(Some(with_fragment), "GetSamplingConfig", "x"),
            "sampling"
        );
        assert_eq!(
            response_key(
                Some("query Ignore($id: ID!) { ignore(id: $id) }"),
                "Ignore",
                "x"
            ),
            "ignore"
        );
        assert_eq!(response_key(None, "Ignore", "ignore"), "ignore");
        assert_eq!(response_key(Some("garbage"), "Ignore", "ignore"), "ignore");
        assert_eq!(
            response_key(Some("mutation initializeSessionX { a } mutation initializeSession { initializeSession(x: 1) { secure_id } }"), "initializeSession", "x"),
            "initializeSession"
        );
    }

    #[test]
    fn secure_ids_are_checked() {
        assert!(check_secure_id("abcDEF123_-").is_ok());
        assert!(check_secure_id("").is_err());
        assert!(check_secure_id("a b").is_err());
        assert!(check_secure_id(&"a".repeat(65)).is_err());
    }

    #[test]
    fn user_objects_are_flattened_and_redacted() {
        let v = flatten(&json!({"nickname": "개미", "id": 7, "token": "x", "deep": {"a": 1}}));
        assert_eq!(
            v,
            json!({"nickname": "개미", "id": "7", "token": "[REDACTED]", "deep": "{\"a\":1}"})
        );
        assert_eq!(flatten(&json!("x")), json!({}));
    }
}
