//! `POST /public`: the session recorder's GraphQL channel (design/recorder-protocol.md).
//!
//! There is no GraphQL engine: the request's `operationName` picks an operation, and
//! the reply is exactly what the client expects, `{"data": {"<field>": …}}`, where
//! `<field>` is the operation's root field (read from the query text, so an alias or
//! another client version still gets its key). Failures are GraphQL errors, always
//! JSON: `{"data": null, "errors": [{"message": …, "extensions": {"code": …}}]}` with
//! a 4xx (5xx for our own failures). Over a byte budget the answer is
//! `{"data": null, "errors": [{"message": "BillingQuotaExceeded"}]}` with 200: the
//! recorder then stops without retrying. Bad input stores nothing.
//!
//! The operations: `session` (initializeSession, identifySession,
//! addSessionProperties, addSessionFeedback), `push` (the replay pushes) and
//! `metrics` (pushMetrics). The handler reads the body; everything after is here.

mod metrics;
mod push;
mod session;

use std::net::IpAddr;

use axum::http::StatusCode; // the status a GraphQL error is answered with (no axum otherwise)
use serde::Deserialize;
use serde_json::{json, value::RawValue, Map, Value};

use moat_storage::observability::{NewObsSession, ObsSessionRow};

use crate::observability::{
    drop_list,
    limits::{self, DecodeError, MAX_SECURE_ID_CHARS},
    now_ms, redact, ObservabilityState, Observe,
};

pub use session::{CLAIMED_IDENTIFIER_KEY, CLAIMED_OBJECT_KEY};

/// The message that stops the recorder without retries.
pub const QUOTA_MESSAGE: &str = "BillingQuotaExceeded";
/// What `initializeSession` answers as the project id (a positive integer string).
pub const PROJECT_ID: &str = "1";
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

    /// No ingest slot freed up in time: 503 with `Retry-After`.
    pub fn busy() -> Self {
        Self {
            retry_after: Some(limits::RETRY_AFTER_SECS),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "OVERLOADED",
                "The ingest is busy; try again shortly.",
            )
        }
    }

    /// The HTTP status it is answered with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Seconds for a `Retry-After` header, if the client should retry.
    pub fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }

    /// The GraphQL error document.
    pub fn body(&self) -> Value {
        if self.code.is_empty() {
            json!({"data": null, "errors": [{"message": self.message}]})
        } else {
            json!({"data": null, "errors": [{"message": self.message, "extensions": {"code": self.code}}]})
        }
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
            DecodeError::Busy => Self::busy(),
            other => Self::bad(other.to_string()),
        }
    }
}

impl From<moat_storage::StorageError> for GqlError {
    fn from(e: moat_storage::StorageError) -> Self {
        Self::internal(format!("{e:#}"))
    }
}

/// `{"data": {field: value}}`.
fn data(field: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(field.to_owned(), value);
    json!({ "data": map })
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

/// What every operation needs to know of the request.
struct Call<'a> {
    state: &'a ObservabilityState,
    observe: &'a Observe,
    ip_hash: String,
    user_agent: Option<String>,
    body_len: usize,
    /// A crawler: answer as usual, store nothing.
    drop_all: bool,
}

/// Answers a request body (read within the ingest's caps, while holding an ingest
/// slot) from `ip` with `user_agent`: the reply document of its operation.
pub async fn handle(
    state: &ObservabilityState,
    ip: IpAddr,
    user_agent: Option<String>,
    bytes: &[u8],
) -> Result<Value, GqlError> {
    let observe: &Observe = &state.observe;
    match observe.ip_budgets.charge(ip, bytes.len() as u64).await {
        Ok(()) => {}
        Err(limits::BudgetError::Spent(_)) => return Err(GqlError::quota()),
        Err(limits::BudgetError::Failed(e)) => {
            // Its database is failing: the push could not be stored either; retry later.
            tracing::warn!(
                error = format!("{e:#}"),
                "the ingest's budget cannot be read"
            );
            return Err(GqlError::busy());
        }
    }
    if limits::json_depth(bytes) > limits::MAX_JSON_DEPTH {
        return Err(DecodeError::TooDeep.into());
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| GqlError::bad("The body is not UTF-8 text."))?;
    let request: GqlRequest<'_> = serde_json::from_str(text)
        .map_err(|e| GqlError::bad(format!("The body is not a GraphQL request: {e}")))?;
    let Some(op) = request.operation_name.as_deref().filter(|o| !o.is_empty()) else {
        return Err(GqlError::bad("operationName is required."));
    };
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
        "initializeSession" => session::initialize(&call, vars, &key("initializeSession")).await,
        "PushSessionEvents" => push::push_compressed(&call, vars, &key("pushSessionEvents")).await,
        "PushPayloadCompressed" => {
            push::push_compressed(&call, vars, &key("pushPayloadCompressed")).await
        }
        "PushPayload" => push::push_payload(&call, vars, &key("pushPayload")).await,
        "identifySession" => session::identify(&call, vars, &key("identifySession")).await,
        "addSessionProperties" => {
            session::add_properties(&call, vars, &key("addSessionProperties")).await
        }
        "addSessionFeedback" => {
            session::add_feedback(&call, vars, &key("addSessionFeedback")).await
        }
        "pushMetrics" => metrics::push_metrics(&call, vars, &key("pushMetrics")).await,
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

    /// The session `secure_id`, created if new.
    async fn session(&self, secure_id: &str) -> Result<ObsSessionRow, GqlError> {
        check_secure_id(secure_id)?;
        Ok(self
            .state
            .storage
            .obs_ensure_session(&self.new_session(secure_id))
            .await?)
    }
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
}
