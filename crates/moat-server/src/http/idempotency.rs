//! `Idempotency-Key`: a client that may send one request twice (a double tap, a retry
//! after a timeout on a flaky mobile connection) names it with a key, and the server
//! answers a repeat with the first answer instead of doing the work again.
//!
//! Keys are per member and kept [`KEY_TTL`]. Only a successful (2xx) answer is stored,
//! in the same database transaction as the work it answers, so a stored key always
//! means the work was done and a retry after a crash finds either both or neither. A
//! failed request stored nothing and changed nothing, so its retry simply runs again.
//! The same key with another request (method, path or body) is refused with 409
//! `idempotency_key_reused`.

use axum::http::{HeaderMap, StatusCode};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::error::{ApiError, ErrorCode, FieldError};

/// The request header naming a request.
pub const HEADER: &str = "idempotency-key";
/// The response header set on an answer that repeats a stored one.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";
/// How long a key and its answer are kept.
pub const KEY_TTL: chrono::Duration = chrono::Duration::hours(24);
/// Longest key accepted (a UUID is 36 characters).
pub const MAX_KEY_CHARS: usize = 255;

/// A request's key and what identifies the request.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub key: String,
    /// Hex SHA-256 of the method, the path and the body's canonical JSON.
    pub request_hash: String,
    pub now: DateTime<Utc>,
}

impl Idempotency {
    /// The key of a request, if it sent one: 1 to [`MAX_KEY_CHARS`] visible ASCII
    /// characters, else 400. `body` is the request's parsed JSON (so that the same
    /// object sent with its keys in another order is the same request).
    pub fn from_request(
        headers: &HeaderMap,
        method: &str,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<Option<Self>, ApiError> {
        let Some(raw) = headers.get(HEADER) else {
            return Ok(None);
        };
        let key = raw
            .to_str()
            .ok()
            .filter(|k| {
                !k.is_empty() && k.len() <= MAX_KEY_CHARS && k.bytes().all(|b| b.is_ascii_graphic())
            })
            .ok_or_else(|| {
                ApiError::invalid_parameter(
                    "Idempotency-Key",
                    FieldError::new(
                        ErrorCode::Invalid,
                        format!("1 to {MAX_KEY_CHARS} visible ASCII characters, such as a UUID."),
                    )
                    .param("max", MAX_KEY_CHARS),
                )
            })?;
        let mut hash = Sha256::new();
        hash.update(method.as_bytes());
        hash.update(b" ");
        hash.update(path.as_bytes());
        hash.update(b"\n");
        // serde_json's maps are ordered by key: this is the canonical form.
        hash.update(body.to_string().as_bytes());
        Ok(Some(Self {
            key: key.to_owned(),
            request_hash: format!("{:x}", hash.finalize()),
            now: Utc::now(),
        }))
    }

    /// Answers stored before this are forgotten.
    pub fn oldest_kept(&self) -> DateTime<Utc> {
        self.now - KEY_TTL
    }

    /// What to answer when an answer was stored under the key: the stored one for the
    /// same request, 409 for another.
    pub fn replay(
        &self,
        stored: moat_storage::IdempotentResponse,
    ) -> Result<(StatusCode, serde_json::Value), ApiError> {
        if stored.request_hash != self.request_hash {
            return Err(reused());
        }
        let status = StatusCode::from_u16(stored.status).map_err(ApiError::internal)?;
        let body = serde_json::from_str(&stored.body).map_err(ApiError::internal)?;
        Ok((status, body))
    }

    /// The answer to store for this request.
    pub fn answer(
        &self,
        status: StatusCode,
        body: &serde_json::Value,
    ) -> moat_storage::IdempotentResponse {
        moat_storage::IdempotentResponse {
            request_hash: self.request_hash.clone(),
            status: status.as_u16(),
            body: body.to_string(),
            created_at: self.now,
        }
    }
}

/// `409 idempotency_key_reused`.
pub fn reused() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        ErrorCode::IdempotencyKeyReused,
        "This Idempotency-Key was used for another request; send a new key.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(key: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(HEADER, key.parse().unwrap());
        h
    }

    #[test]
    fn the_same_request_with_keys_in_another_order_hashes_the_same() {
        let a: serde_json::Value = serde_json::from_str(r#"{"a":1,"b":"2"}"#).unwrap();
        let b: serde_json::Value = serde_json::from_str(r#"{"b":"2","a":1}"#).unwrap();
        let c: serde_json::Value = serde_json::from_str(r#"{"b":"3","a":1}"#).unwrap();
        let hash = |v: &serde_json::Value, path: &str| {
            Idempotency::from_request(&headers("k"), "POST", path, v)
                .unwrap()
                .unwrap()
                .request_hash
        };
        assert_eq!(hash(&a, "/x"), hash(&b, "/x"));
        assert_ne!(hash(&a, "/x"), hash(&c, "/x"), "another body");
        assert_ne!(hash(&a, "/x"), hash(&a, "/y"), "another path");
    }

    #[test]
    fn malformed_keys_are_refused() {
        let v = serde_json::Value::Null;
        for bad in ["", "has space", &"k".repeat(MAX_KEY_CHARS + 1), "키"] {
            let mut h = HeaderMap::new();
            if let Ok(value) = axum::http::HeaderValue::from_bytes(bad.as_bytes()) {
                h.insert(HEADER, value);
            } else {
                continue;
            }
            let err = Idempotency::from_request(&h, "POST", "/x", &v).unwrap_err();
            assert_eq!(err.status, StatusCode::BAD_REQUEST, "{bad:?}");
        }
        assert!(
            Idempotency::from_request(&HeaderMap::new(), "POST", "/x", &v)
                .unwrap()
                .is_none()
        );
    }
}
