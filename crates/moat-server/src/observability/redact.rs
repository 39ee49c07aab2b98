//! Redaction of recorded network traffic, applied on ingest whatever the client did:
//! credentials in headers, query parameters and bodies become `[REDACTED]`. The
//! recorder redacts headers itself (spec §7); any client can post to the ingest, and
//! query strings and bodies it does not touch.

use serde_json::{Map, Value};

pub const REDACTED: &str = "[REDACTED]";

/// Headers whose value is a credential (lower case), besides any name containing
/// `token`, `secret`, `password`, `api-key`/`apikey` or `cookie`.
const SENSITIVE_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "token",
    "x-moat-token",
];

/// Query and form parameters and JSON keys whose value is a credential (lower case),
/// besides any name containing `token`, `secret` or `password`.
const SENSITIVE_PARAMS: &[&str] = &[
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "code",
    "sig",
    "signature",
    "password",
    "pass",
    "passwd",
    "pwd",
    "secret",
    "client_secret",
    "api_key",
    "apikey",
    "key",
    "auth",
    "authorization",
    "jwt",
    "session",
    "ticket",
];

pub fn is_sensitive_header(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    SENSITIVE_HEADERS.contains(&n.as_str())
        || ["token", "secret", "password", "api-key", "apikey", "cookie"]
            .iter()
            .any(|p| n.contains(p))
}

pub fn is_sensitive_param(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    SENSITIVE_PARAMS.contains(&n.as_str())
        || ["token", "secret", "password"]
            .iter()
            .any(|p| n.contains(p))
}

/// A header map (`{name: value}`) with credential values replaced. Anything but an
/// object becomes `None`.
pub fn headers(value: &Value) -> Option<Value> {
    let Value::Object(map) = value else {
        return None;
    };
    let out: Map<String, Value> = map
        .iter()
        .map(|(k, v)| {
            let v = if is_sensitive_header(k) {
                Value::String(REDACTED.into())
            } else {
                match v {
                    Value::String(s) => Value::String(truncate(s, 4096)),
                    Value::Number(_) | Value::Bool(_) => v.clone(),
                    _ => Value::String(truncate(&v.to_string(), 4096)),
                }
            };
            (k.clone(), v)
        })
        .collect();
    Some(Value::Object(out))
}

/// The URL with credential query parameters (and fragment parameters) replaced;
/// the rest kept as sent.
pub fn url(raw: &str) -> String {
    let (before_fragment, fragment) = match raw.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (raw, None),
    };
    let mut out = match before_fragment.split_once('?') {
        Some((path, query)) => format!("{path}?{}", params(query)),
        None => before_fragment.to_owned(),
    };
    if let Some(f) = fragment {
        out.push('#');
        // Fragments carry tokens too (OAuth implicit flow: #access_token=…).
        if f.contains('=') {
            out.push_str(&params(f));
        } else {
            out.push_str(f);
        }
    }
    out
}

/// `a=1&token=x` → `a=1&token=[REDACTED]`.
pub fn params(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if is_sensitive_param(&percent_decoded_name(name)) => {
                format!("{name}={REDACTED}")
            }
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// Enough percent-decoding for parameter names (`access%5Ftoken`).
fn percent_decoded_name(name: &str) -> String {
    let bytes = name.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A recorded body: a JSON body has credential keys replaced (at any depth up to
/// the parser's limit), a form body its credential parameters; then the result is
/// cut to `max_chars`.
pub fn body(raw: &str, max_chars: usize) -> String {
    let trimmed = raw.trim_start();
    let redacted = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        match serde_json::from_str::<Value>(raw) {
            Ok(mut v) => {
                json_in_place(&mut v);
                v.to_string()
            }
            // Not JSON after all (or too deep): keep nothing that could hold a secret.
            Err(_) if looks_sensitive(raw) => REDACTED.to_owned(),
            Err(_) => raw.to_owned(),
        }
    } else if raw.contains('=') && !raw.contains(char::is_whitespace) {
        params(raw)
    } else {
        raw.to_owned()
    };
    truncate(&redacted, max_chars)
}

fn looks_sensitive(raw: &str) -> bool {
    let l = raw.to_ascii_lowercase();
    ["token", "secret", "password", "authorization"]
        .iter()
        .any(|p| l.contains(p))
}

/// Replaces the values of credential keys in a JSON value.
pub fn json_in_place(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if (is_sensitive_param(k) || is_sensitive_header(k)) && !v.is_null() {
                    *v = Value::String(REDACTED.into());
                } else {
                    json_in_place(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(json_in_place),
        _ => {}
    }
}

/// At most `max` characters (on a character boundary).
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_owned(),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn credential_headers_are_redacted_whatever_their_case() {
        let h = headers(&json!({
            "Authorization": "Bearer abc",
            "cookie": "a=b",
            "Proxy-Authorization": "Basic x",
            "Set-Cookie": "sid=1",
            "token": "t",
            "X-Moat-Token": "jwt",
            "X-Api-Key": "k",
            "content-type": "application/json",
            "x-request-id": "r1"
        }))
        .unwrap();
        for k in [
            "Authorization",
            "cookie",
            "Proxy-Authorization",
            "Set-Cookie",
            "token",
            "X-Moat-Token",
            "X-Api-Key",
        ] {
            assert_eq!(h[k], REDACTED, "{k}");
        }
        assert_eq!(h["content-type"], "application/json");
        assert_eq!(h["x-request-id"], "r1");
        assert!(headers(&json!("x")).is_none());
    }

    #[test]
    fn credential_query_parameters_are_redacted() {
        assert_eq!(
            url("https://moat.example/api/auth/oidc/kakao/callback?code=abc&state=s1"),
            "https://moat.example/api/auth/oidc/kakao/callback?code=[REDACTED]&state=s1"
        );
        assert_eq!(
            url("/x?token=1&access_token=2&sig=3&password=4&page=2&ACCESS%5FTOKEN=5"),
            "/x?token=[REDACTED]&access_token=[REDACTED]&sig=[REDACTED]&password=[REDACTED]&page=2&ACCESS%5FTOKEN=[REDACTED]"
        );
        assert_eq!(
            url("/cb#access_token=abc&type=bearer"),
            "/cb#access_token=[REDACTED]&type=bearer"
        );
        assert_eq!(url("/stocks/KRX:005930"), "/stocks/KRX:005930");
        assert_eq!(url("/news?q=삼성"), "/news?q=삼성");
    }

    #[test]
    fn credential_fields_of_bodies_are_redacted() {
        let b = body(
            r#"{"email":"a@b.c","password":"hunter2","nested":{"refresh_token":"r"},"list":[{"token":"t"}]}"#,
            10_000,
        );
        assert!(
            !b.contains("hunter2") && !b.contains("\"r\"") && !b.contains("\"t\""),
            "{b}"
        );
        assert!(b.contains("a@b.c"));
        assert_eq!(
            body("grant_type=password&password=x&client_secret=y", 100),
            "grant_type=password&password=[REDACTED]&client_secret=[REDACTED]"
        );
        assert_eq!(body("{\"password\": broken", 100), REDACTED);
        assert_eq!(body("plain text", 5), "plain");
    }

    #[test]
    fn truncation_respects_characters() {
        assert_eq!(truncate("삼성전자", 2), "삼성");
        assert_eq!(truncate("ab", 5), "ab");
    }
}
