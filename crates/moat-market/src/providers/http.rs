//! The small HTTP layer the adapters share: one `reqwest::Client` with timeouts and a
//! User-Agent, a bounded GET, and the classification of answers into
//! [`ProviderError`]s.
//!
//! Classification ([`check`]):
//!
//! | answer | error |
//! |---|---|
//! | connection refused, DNS failure, timeout, broken body | `Unreachable` |
//! | 429 | `RateLimited { retry_after_secs }` from `Retry-After` (seconds or an HTTP date) |
//! | any other status outside 2xx | `Source("HTTP 503 Service Unavailable…")` |
//! | 2xx with a `text/html` content type, or a body starting with `<` where JSON is expected | `Malformed("HTML instead of JSON")` |
//! | 2xx with an HTML page where XML is expected | `Malformed("HTML instead of XML")` |
//! | 2xx with an empty body | `Malformed("empty answer")` |
//!
//! Adapters may look at the status first for their own rules (Yahoo's chart 404 means
//! an unknown symbol). Error messages never contain the request URL, which may carry
//! an API key.

use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::{header, Client, StatusCode, Url};

use super::shorten;
use crate::ProviderError;

/// Connect and whole-request timeout.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Sent with every request. Yahoo refuses some non-browser agents, hence the
/// `Mozilla/5.0 (compatible; …)` form.
pub const USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; Moat/",
    env!("CARGO_PKG_VERSION"),
    "; market data)"
);

/// Answers larger than this are refused (the full ECB history is about 7 MB).
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// A client with [`TIMEOUT`] for connecting and for the whole request, [`USER_AGENT`]
/// and gzip. Panics only when the TLS backend cannot be initialised, as
/// `reqwest::Client::new` does.
pub fn client() -> Client {
    Client::builder()
        .timeout(TIMEOUT)
        .connect_timeout(TIMEOUT)
        .user_agent(USER_AGENT)
        .gzip(true)
        .build()
        .expect("the HTTP client (TLS backend) could not be initialised")
}

/// What the body is expected to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Json,
    Xml,
}

/// A completed answer, whatever its status.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub status: u16,
    /// The `Content-Type` header, lower-cased.
    pub content_type: Option<String>,
    /// The raw `Retry-After` header.
    pub retry_after: Option<String>,
    pub body: Vec<u8>,
}

/// GETs `url` (with [`TIMEOUT`] and [`USER_AGENT`] even when `client` has none) and
/// reads the whole body. Only transport failures are errors here; see [`check`].
pub async fn fetch(client: &Client, url: Url) -> Result<Fetched, ProviderError> {
    let mut response = client
        .get(url)
        .timeout(TIMEOUT)
        .header(header::USER_AGENT, USER_AGENT)
        .header(
            header::ACCEPT,
            "application/json, application/xml;q=0.9, */*;q=0.5",
        )
        .send()
        .await
        .map_err(transport_error)?;
    let status = response.status().as_u16();
    let header_text = |name: header::HeaderName| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_string())
    };
    let content_type = header_text(header::CONTENT_TYPE).map(|v| v.to_ascii_lowercase());
    let retry_after = header_text(header::RETRY_AFTER);
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(ProviderError::Malformed(format!(
                "answer larger than {MAX_BODY_BYTES} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Fetched {
        status,
        content_type,
        retry_after,
        body,
    })
}

/// [`fetch`] then [`check`]: the body of a good answer.
pub async fn get(client: &Client, url: Url, expect: Expect) -> Result<Vec<u8>, ProviderError> {
    let fetched = fetch(client, url).await?;
    check(&fetched, expect, Utc::now())?;
    Ok(fetched.body)
}

/// Classifies an answer (see the module documentation). `now` turns a `Retry-After`
/// HTTP date into seconds.
pub fn check(fetched: &Fetched, expect: Expect, now: DateTime<Utc>) -> Result<(), ProviderError> {
    let status = fetched.status;
    if status == 429 {
        return Err(ProviderError::RateLimited {
            retry_after_secs: fetched
                .retry_after
                .as_deref()
                .and_then(|v| retry_after_secs(v, now)),
        });
    }
    if !(200..300).contains(&status) {
        return Err(ProviderError::Source(status_message(fetched)));
    }
    let html_type = fetched
        .content_type
        .as_deref()
        .is_some_and(|t| t.contains("text/html"));
    let start = first_non_space(&fetched.body);
    match expect {
        Expect::Json if html_type || start == Some(b'<') => {
            Err(ProviderError::Malformed("HTML instead of JSON".into()))
        }
        Expect::Xml if html_type || looks_like_html(&fetched.body) => {
            Err(ProviderError::Malformed("HTML instead of XML".into()))
        }
        _ if start.is_none() => Err(ProviderError::Malformed("empty answer".into())),
        _ => Ok(()),
    }
}

/// `Retry-After` as seconds from `now`: either delay-seconds or an HTTP date (a date
/// in the past is 0).
pub fn retry_after_secs(value: &str, now: DateTime<Utc>) -> Option<u64> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(secs);
    }
    let at = DateTime::parse_from_rfc2822(value).ok()?;
    Some((at.with_timezone(&Utc) - now).num_seconds().max(0) as u64)
}

/// `HTTP 503 Service Unavailable`, plus the body when it is short plain text or JSON.
fn status_message(fetched: &Fetched) -> String {
    let reason = StatusCode::from_u16(fetched.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    let mut message = format!("HTTP {} {reason}", fetched.status)
        .trim_end()
        .to_string();
    let is_html = fetched
        .content_type
        .as_deref()
        .is_some_and(|t| t.contains("html"))
        || first_non_space(&fetched.body) == Some(b'<');
    if !is_html {
        if let Ok(text) = std::str::from_utf8(&fetched.body) {
            let text = text.trim();
            if !text.is_empty() {
                message.push_str(": ");
                message.push_str(&shorten(text, 160));
            }
        }
    }
    message
}

fn first_non_space(body: &[u8]) -> Option<u8> {
    // Skip a UTF-8 byte-order mark too.
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    body.iter().copied().find(|b| !b.is_ascii_whitespace())
}

fn looks_like_html(body: &[u8]) -> bool {
    let head: Vec<u8> = body
        .iter()
        .copied()
        .skip_while(|b| b.is_ascii_whitespace())
        .take(512)
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let contains = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    head.starts_with(b"<!doctype html") || head.starts_with(b"<html") || contains(b"<html")
}

/// A transport failure, without the URL (it may carry an API key).
fn transport_error(error: reqwest::Error) -> ProviderError {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "connection failed"
    } else if error.is_body() || error.is_decode() {
        "the answer broke off"
    } else if error.is_builder() {
        return ProviderError::Source("the request could not be built".into());
    } else {
        "request failed"
    };
    let error = error.without_url();
    let detail = std::error::Error::source(&error)
        .map(|s| s.to_string())
        .unwrap_or_else(|| error.to_string());
    ProviderError::Unreachable(shorten(&format!("{kind}: {detail}"), 200))
}

/// `base` with `segments` appended to its path (each percent-encoded as needed) and
/// `query` pairs; a base that is not a URL is a `Source` error.
pub fn url(base: &str, segments: &[&str], query: &[(&str, &str)]) -> Result<Url, ProviderError> {
    let mut url = Url::parse(base)
        .map_err(|_| ProviderError::Source(format!("not a base URL: {}", shorten(base, 80))))?;
    {
        let mut path = url
            .path_segments_mut()
            .map_err(|_| ProviderError::Source("the base URL cannot have a path".into()))?;
        path.pop_if_empty();
        for segment in segments {
            path.push(segment);
        }
    }
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query.iter().copied());
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, content_type: &str, body: &str) -> Fetched {
        Fetched {
            status,
            content_type: Some(content_type.into()),
            retry_after: None,
            body: body.as_bytes().to_vec(),
        }
    }

    fn now() -> DateTime<Utc> {
        "2025-02-20T11:47:40Z".parse().unwrap()
    }

    #[test]
    fn providers_http_429_is_rate_limited_with_the_retry_after_hint() {
        let mut a = answer(429, "text/plain", "slow down");
        a.retry_after = Some("7".into());
        assert!(matches!(
            check(&a, Expect::Json, now()),
            Err(ProviderError::RateLimited {
                retry_after_secs: Some(7)
            })
        ));
        a.retry_after = Some("Thu, 20 Feb 2025 11:48:40 GMT".into());
        assert!(matches!(
            check(&a, Expect::Json, now()),
            Err(ProviderError::RateLimited {
                retry_after_secs: Some(60)
            })
        ));
        a.retry_after = None;
        assert!(matches!(
            check(&a, Expect::Json, now()),
            Err(ProviderError::RateLimited {
                retry_after_secs: None
            })
        ));
    }

    #[test]
    fn providers_http_errors_name_the_status_and_a_short_plain_body() {
        let err = check(
            &answer(503, "text/plain", "down for maintenance"),
            Expect::Json,
            now(),
        );
        match err {
            Err(ProviderError::Source(m)) => {
                assert_eq!(m, "HTTP 503 Service Unavailable: down for maintenance")
            }
            other => panic!("{other:?}"),
        }
        let err = check(
            &answer(500, "text/html", "<html>boom</html>"),
            Expect::Json,
            now(),
        );
        match err {
            Err(ProviderError::Source(m)) => assert_eq!(m, "HTTP 500 Internal Server Error"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn providers_http_html_where_json_or_xml_is_expected_is_malformed() {
        let page = "<!DOCTYPE html><html><body>consent</body></html>";
        for (ct, expect) in [
            ("text/html; charset=utf-8", Expect::Json),
            ("application/json", Expect::Json),
        ] {
            match check(&answer(200, ct, page), expect, now()) {
                Err(ProviderError::Malformed(m)) => assert_eq!(m, "HTML instead of JSON"),
                other => panic!("{other:?}"),
            }
        }
        match check(&answer(200, "text/xml", page), Expect::Xml, now()) {
            Err(ProviderError::Malformed(m)) => assert_eq!(m, "HTML instead of XML"),
            other => panic!("{other:?}"),
        }
        assert!(check(
            &answer(200, "text/xml", "<?xml version='1.0'?><a/>"),
            Expect::Xml,
            now()
        )
        .is_ok());
        assert!(check(&answer(200, "application/json", " {}"), Expect::Json, now()).is_ok());
        assert!(matches!(
            check(&answer(200, "application/json", "  "), Expect::Json, now()),
            Err(ProviderError::Malformed(_))
        ));
    }

    #[test]
    fn providers_http_urls_encode_path_segments_and_keep_the_base_path() {
        let u = url(
            "http://127.0.0.1:9/prefix/",
            &["v8", "finance", "chart", "KRW=X"],
            &[("a", "1 2")],
        )
        .unwrap();
        assert_eq!(
            u.as_str(),
            "http://127.0.0.1:9/prefix/v8/finance/chart/KRW=X?a=1+2"
        );
        // `^` may go as is (Yahoo takes both forms); a slash cannot escape its segment.
        let u = url(
            "https://query1.finance.yahoo.com",
            &["v8", "chart", "^GSPC", "a/b c"],
            &[],
        )
        .unwrap();
        assert_eq!(u.path(), "/v8/chart/^GSPC/a%2Fb%20c");
        assert!(matches!(
            url("not a url", &[], &[]),
            Err(ProviderError::Source(_))
        ));
    }
}
