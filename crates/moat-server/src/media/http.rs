//! `GET`/`HEAD /media/{*key}`: an object streamed from the store through Moat.
//!
//! - One range per request (`bytes=a-b`, `bytes=a-`, `bytes=-n`) → 206 with
//!   `Content-Range`; a range that starts past the end, a reversed one, or a suffix of
//!   zero bytes → 416 with `Content-Range: bytes */LEN`. Several ranges, another unit
//!   or an unreadable header: the whole object (RFC 9110 lets a server ignore `Range`).
//! - `If-Range` with the current ETag keeps the range; anything else (another ETag, a
//!   date) gets the whole object, 200.
//! - `If-None-Match` naming the current ETag (or `*`) → 304.
//! - The body is read chunk by chunk from the store as the client takes it; the
//!   response carries [`Uncompressed`], which the compression layer respects.

use std::ops::Range;

use axum::{
    body::Body,
    extract::rejection::PathRejection,
    extract::{Path, State},
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::Response,
};

use super::{MediaError, MediaKey, MediaState, ObjectInfo};
use crate::http::error::{ApiError, ErrorCode};

/// `Cache-Control` of served objects: public, kept an hour, then revalidated by ETag.
/// Moat's own keys are content-addressed (a new upload is a new key), so an hour of
/// staleness never shows an old image under a new page.
pub const CACHE_CONTROL: &str = "public, max-age=3600";

/// The `Content-Security-Policy` of served objects: opened on their own (not as an
/// `<img>` of a page), an object is a sandboxed document that may run nothing, so a
/// stored file can never act as a page of Moat's origin.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/// A marker on responses the compression layer must leave alone (ranged media:
/// compressing would break `Content-Length`, `Content-Range` and the ETag).
#[derive(Clone, Copy, Debug)]
pub struct Uncompressed;

/// What the request's `Range` asks for, against an object of `len` bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum RangeAnswer {
    /// No usable `Range`: the whole object, 200.
    Whole,
    /// 206 with these bytes.
    Partial(Range<u64>),
    /// 416.
    Unsatisfiable,
}

/// Reads a `Range` header value against an object of `len` bytes.
pub fn parse_range(value: &str, len: u64) -> RangeAnswer {
    let Some(spec) = value.trim().strip_prefix("bytes=") else {
        return RangeAnswer::Whole;
    };
    if spec.contains(',') {
        return RangeAnswer::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeAnswer::Whole;
    };
    let number = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    match (first.trim().is_empty(), last.trim().is_empty()) {
        // bytes=-n: the last n bytes.
        (true, false) => match number(last) {
            Some(0) => RangeAnswer::Unsatisfiable,
            Some(_) if len == 0 => RangeAnswer::Unsatisfiable,
            Some(n) => RangeAnswer::Partial(len.saturating_sub(n)..len),
            None => RangeAnswer::Whole,
        },
        // bytes=a-: from a to the end.
        (false, true) => match number(first) {
            Some(a) if a >= len => RangeAnswer::Unsatisfiable,
            Some(a) => RangeAnswer::Partial(a..len),
            None => RangeAnswer::Whole,
        },
        (false, false) => match (number(first), number(last)) {
            (Some(a), Some(b)) if b < a => RangeAnswer::Unsatisfiable,
            (Some(a), Some(_)) if a >= len => RangeAnswer::Unsatisfiable,
            (Some(a), Some(b)) => RangeAnswer::Partial(a..b.min(len - 1) + 1),
            _ => RangeAnswer::Whole,
        },
        (true, true) => RangeAnswer::Whole,
    }
}

/// Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 asks).
fn none_match_hits(value: &str, etag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    value.trim() == "*" || value.split(',').any(|t| bare(t) == bare(etag))
}

/// Whether `If-Range` lets the range stand: only the current, strong ETag does.
fn if_range_holds(headers: &HeaderMap, etag: &str) -> bool {
    match headers.get(header::IF_RANGE).and_then(|v| v.to_str().ok()) {
        None => true,
        Some(v) => !v.trim().starts_with("W/") && v.trim() == etag,
    }
}

fn bad_key(problem: super::KeyProblem) -> ApiError {
    ApiError::bad_request(
        ErrorCode::InvalidMediaKey,
        format!("Not a media key: {problem}."),
    )
}

fn not_found() -> ApiError {
    ApiError::not_found("There is no such file.")
}

fn common_headers(info: &ObjectInfo) -> [(header::HeaderName, HeaderValue); 7] {
    let value = |s: &str| HeaderValue::from_str(s).unwrap_or(HeaderValue::from_static(""));
    [
        (header::ETAG, value(&info.etag)),
        (
            header::LAST_MODIFIED,
            value(
                &info
                    .last_modified
                    .format("%a, %d %b %Y %H:%M:%S GMT")
                    .to_string(),
            ),
        ),
        (header::ACCEPT_RANGES, HeaderValue::from_static("bytes")),
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static(CACHE_CONTROL),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::CONTENT_TYPE,
            HeaderValue::from_str(&info.content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
        ),
    ]
}

/// How many times a read starts over when the object is replaced between its `head`
/// and its `get`.
const READ_ATTEMPTS: usize = 3;

/// `GET`/`HEAD /media/{*key}`.
pub async fn serve(
    State(state): State<MediaState>,
    method: Method,
    key: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // A path that does not decode (`%FF`) is a bad key too, not the framework's 400.
    let Ok(Path(key)) = key else {
        return Err(bad_key(super::KeyProblem::Character));
    };
    let key = MediaKey::parse(&key).map_err(bad_key)?;
    for _ in 0..READ_ATTEMPTS {
        let info = match state.store.head(&key).await {
            Ok(info) => info,
            Err(MediaError::NotFound) => return Err(not_found()),
            Err(e) => return Err(ApiError::internal(e)),
        };
        let mut response = Response::builder();
        for (name, value) in common_headers(&info) {
            response = response.header(name, value);
        }
        let response = response.extension(Uncompressed);
        if let Some(inm) = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
        {
            if none_match_hits(inm, &info.etag) {
                return response
                    .status(StatusCode::NOT_MODIFIED)
                    .body(Body::empty())
                    .map_err(ApiError::internal);
            }
        }
        let answer = match headers.get(header::RANGE).and_then(|v| v.to_str().ok()) {
            Some(range) if if_range_holds(&headers, &info.etag) => parse_range(range, info.size),
            _ => RangeAnswer::Whole,
        };
        let (status, range) = match answer {
            RangeAnswer::Unsatisfiable => {
                return response
                    .status(StatusCode::RANGE_NOT_SATISFIABLE)
                    .header(header::CONTENT_RANGE, format!("bytes */{}", info.size))
                    .header(header::CONTENT_LENGTH, 0)
                    .body(Body::empty())
                    .map_err(ApiError::internal);
            }
            RangeAnswer::Whole => (StatusCode::OK, 0..info.size),
            RangeAnswer::Partial(r) => (StatusCode::PARTIAL_CONTENT, r),
        };
        let mut response = response
            .status(status)
            .header(header::CONTENT_LENGTH, range.end - range.start);
        if status == StatusCode::PARTIAL_CONTENT {
            response = response.header(
                header::CONTENT_RANGE,
                format!("bytes {}-{}/{}", range.start, range.end - 1, info.size),
            );
        }
        if method == Method::HEAD {
            return response.body(Body::empty()).map_err(ApiError::internal);
        }
        let asked = (status == StatusCode::PARTIAL_CONTENT).then(|| range.clone());
        match state.store.get(&key, asked, Some(&info.etag)).await {
            Ok(object) => {
                return response
                    .body(Body::from_stream(object.body))
                    .map_err(ApiError::internal);
            }
            // Replaced since the head: read it again.
            Err(MediaError::Changed) => continue,
            Err(MediaError::NotFound) => return Err(not_found()),
            Err(e) => return Err(ApiError::internal(e)),
        }
    }
    Err(ApiError::internal(anyhow::anyhow!(
        "media object {key} kept changing while being read"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_as_rfc_9110_says() {
        use RangeAnswer::*;
        let cases: &[(&str, u64, RangeAnswer)] = &[
            ("bytes=0-9", 100, Partial(0..10)),
            ("bytes=90-200", 100, Partial(90..100)),
            ("bytes=99-99", 100, Partial(99..100)),
            ("bytes=50-", 100, Partial(50..100)),
            ("bytes=-10", 100, Partial(90..100)),
            ("bytes=-500", 100, Partial(0..100)),
            ("bytes=100-", 100, Unsatisfiable),
            ("bytes=100-200", 100, Unsatisfiable),
            ("bytes=9-3", 100, Unsatisfiable),
            ("bytes=-0", 100, Unsatisfiable),
            ("bytes=0-", 0, Unsatisfiable),
            ("bytes=-1", 0, Unsatisfiable),
            ("bytes=0-1,5-6", 100, Whole),
            ("items=0-1", 100, Whole),
            ("bytes=a-b", 100, Whole),
            ("bytes=-", 100, Whole),
            ("bytes=+1-2", 100, Whole),
            ("bytes=99999999999999999999999-", 100, Whole),
        ];
        for (value, len, want) in cases {
            assert_eq!(&parse_range(value, *len), want, "{value} of {len}");
        }
    }

    #[test]
    fn validators_compare_as_rfc_9110_says() {
        assert!(none_match_hits("\"a\"", "\"a\""));
        assert!(none_match_hits("W/\"a\", \"b\"", "\"a\""));
        assert!(none_match_hits("*", "\"a\""));
        assert!(!none_match_hits("\"b\"", "\"a\""));
        let mut h = HeaderMap::new();
        assert!(if_range_holds(&h, "\"a\""));
        h.insert(header::IF_RANGE, HeaderValue::from_static("\"a\""));
        assert!(if_range_holds(&h, "\"a\""));
        h.insert(header::IF_RANGE, HeaderValue::from_static("W/\"a\""));
        assert!(!if_range_holds(&h, "\"a\""), "a weak tag never matches");
        h.insert(
            header::IF_RANGE,
            HeaderValue::from_static("Sat, 28 Nov 2026 08:00:00 GMT"),
        );
        assert!(!if_range_holds(&h, "\"a\""), "a date: the whole object");
    }
}
