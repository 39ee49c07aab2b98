//! The session's operations: `initializeSession` (the session's environment and
//! versions), `identifySession` (a claim, never the member), `addSessionProperties`
//! and `addSessionFeedback`.

use serde::Deserialize;
use serde_json::{json, Map, Value};

use moat_storage::observability::{NewFeedback, NewObsSession, ObsSessionRow};

use super::{check_secure_id, data, opt_text, vars, Call, GqlError, MAX_PROPERTIES, PROJECT_ID};
use crate::observability::{ingest, limits::MAX_TEXT_CHARS, now_ms, redact};

/// Longest feedback text kept.
const MAX_FEEDBACK_CHARS: usize = 5_000;

impl Call<'_> {
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

pub(super) async fn initialize(call: &Call<'_>, raw: &str, key: &str) -> Result<Value, GqlError> {
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
/// authenticated binding (`service::identity`).
pub(super) async fn identify(call: &Call<'_>, raw: &str, key: &str) -> Result<Value, GqlError> {
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

pub(super) async fn add_properties(
    call: &Call<'_>,
    raw: &str,
    key: &str,
) -> Result<Value, GqlError> {
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

pub(super) async fn add_feedback(call: &Call<'_>, raw: &str, key: &str) -> Result<Value, GqlError> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
