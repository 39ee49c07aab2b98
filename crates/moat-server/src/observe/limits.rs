//! Limits of the ingest: body caps, guarded decompression (the compressed payload is
//! attacker-controlled: sizes are checked before and after, and the decompressor is
//! read through a `take()` so a gzip bomb stops after the cap), a JSON nesting cap,
//! and the per-IP byte budget.

use std::{
    collections::HashMap,
    io::Read,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use base64::Engine;

/// Deepest JSON nesting accepted anywhere in an ingest body. rrweb's snapshot of a
/// DOM takes two levels per element, so this allows pages 500 elements deep; serde's
/// own limit (128) still applies where the ingest parses into generic values.
pub const MAX_JSON_DEPTH: usize = 1000;

/// Longest session secure id accepted (the recorder's are 28 characters).
pub const MAX_SECURE_ID_CHARS: usize = 64;

/// Whether `id` can be a session secure id: 1 to [`MAX_SECURE_ID_CHARS`] of `A-Z a-z
/// 0-9 - _`.
pub fn is_secure_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_SECURE_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Stored text fields: messages, URLs, user names …
pub const MAX_TEXT_CHARS: usize = 2000;
/// Recorded request and response bodies are kept up to this many characters (the
/// recorder cuts most bodies at 65,536; spec §9).
pub const MAX_STORED_BODY_CHARS: usize = 65_536;
/// Items of one kind kept from one push (console messages, resources, errors,
/// timeline items); the rest of the push is still stored.
pub const MAX_ITEMS_PER_PUSH: usize = 2_000;
/// Stack frames kept per error.
pub const MAX_STACK_FRAMES: usize = 50;
/// Metrics accepted in one `pushMetrics` or OTLP request; spans in one OTLP request.
pub const MAX_RECORDS_PER_REQUEST: usize = 5_000;

/// How long a request waits for an ingest slot before the answer is 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(2);
/// `Retry-After` seconds sent with a 503 (overloaded).
pub const RETRY_AFTER_SECS: u64 = 5;
/// The per-IP budget's window.
pub const IP_WINDOW: Duration = Duration::from_secs(3600);

/// Why an ingest body was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecodeError {
    #[error("the {0} is larger than {1} bytes")]
    TooLarge(&'static str, usize),
    #[error("the data is not valid base64")]
    Base64,
    #[error("the data is not valid gzip")]
    Gzip,
    #[error("the data is not UTF-8 text")]
    Utf8,
    #[error("the JSON is nested deeper than {MAX_JSON_DEPTH} levels")]
    TooDeep,
    #[error("the request body could not be read")]
    Read,
}

/// Standard padded base64 (spaces and line breaks tolerated), refused before
/// decoding when the decoded size would pass `max_decoded`.
pub fn base64_limited(text: &str, max_decoded: usize) -> Result<Vec<u8>, DecodeError> {
    if text.len() / 4 * 3 > max_decoded + 3 {
        return Err(DecodeError::TooLarge("compressed payload", max_decoded));
    }
    let compact: String;
    let text = if text.contains(|c: char| c.is_ascii_whitespace()) {
        compact = text.split_ascii_whitespace().collect();
        compact.as_str()
    } else {
        text
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| DecodeError::Base64)?;
    if bytes.len() > max_decoded {
        return Err(DecodeError::TooLarge("compressed payload", max_decoded));
    }
    Ok(bytes)
}

/// Decompresses gzip, reading at most `max` bytes out (one more tells it is over).
pub fn gunzip_limited(gz: &[u8], max: usize) -> Result<Vec<u8>, DecodeError> {
    let decoder = flate2::read::MultiGzDecoder::new(gz);
    let mut out = Vec::with_capacity((gz.len() * 4).min(max));
    decoder
        .take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|_| DecodeError::Gzip)?;
    if out.len() > max {
        return Err(DecodeError::TooLarge("decompressed payload", max));
    }
    if out.is_empty() {
        return Err(DecodeError::Gzip);
    }
    Ok(out)
}

/// UTF-8 text nested no deeper than [`MAX_JSON_DEPTH`].
pub fn json_text(bytes: Vec<u8>) -> Result<String, DecodeError> {
    let text = String::from_utf8(bytes).map_err(|_| DecodeError::Utf8)?;
    if json_depth(text.as_bytes()) > MAX_JSON_DEPTH {
        return Err(DecodeError::TooDeep);
    }
    Ok(text)
}

/// The deepest nesting of `[`/`{` in a JSON text (strings skipped), in one pass
/// without recursion.
pub fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Bytes each client address may send per [`IP_WINDOW`]. In memory, per instance.
pub struct IpBudgets {
    limit: u64,
    window: Duration,
    used: Mutex<HashMap<IpAddr, (Instant, u64)>>,
}

/// Addresses tracked before stale windows are swept.
const SWEEP_AT: usize = 10_000;

impl IpBudgets {
    pub fn new(limit: u64, window: Duration) -> Self {
        Self {
            limit,
            window,
            used: Mutex::new(HashMap::new()),
        }
    }

    /// Counts `bytes` for `ip`: `Ok` while the window's total stays within the limit,
    /// else `Err(seconds until the window ends)` (and nothing is counted).
    pub fn charge(&self, ip: IpAddr, bytes: u64) -> Result<(), u64> {
        let now = Instant::now();
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if used.len() >= SWEEP_AT {
            let window = self.window;
            used.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = used.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1.saturating_add(bytes) > self.limit {
            let left = self.window.saturating_sub(now.duration_since(entry.0));
            return Err(left.as_secs().max(1));
        }
        entry.1 += bytes;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_round_trips_within_the_cap() {
        let data = b"{\"events\":[]}".repeat(10);
        assert_eq!(gunzip_limited(&gzip(&data), 1000).unwrap(), data);
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        let bomb = gzip(&vec![b'a'; 50 * 1024 * 1024]);
        assert!(
            bomb.len() < 100 * 1024,
            "50 MB of one byte compresses to {}",
            bomb.len()
        );
        let started = Instant::now();
        assert_eq!(
            gunzip_limited(&bomb, 1024 * 1024),
            Err(DecodeError::TooLarge("decompressed payload", 1024 * 1024))
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn broken_inputs_are_named() {
        assert_eq!(
            gunzip_limited(b"not gzip at all", 100),
            Err(DecodeError::Gzip)
        );
        assert_eq!(base64_limited("%%%", 100), Err(DecodeError::Base64));
        assert_eq!(
            base64_limited(&"QUFB".repeat(100), 30),
            Err(DecodeError::TooLarge("compressed payload", 30))
        );
        assert_eq!(base64_limited("QUFB\nQUFB", 30).unwrap(), b"AAAAAA");
        assert_eq!(json_text(vec![0xff, 0xfe]), Err(DecodeError::Utf8));
    }

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(json_depth(br#"{"a":[1,{"b":"[[[["}]}"#), 3);
        assert_eq!(json_depth(br#""\"[""#), 0);
        let deep = "[".repeat(MAX_JSON_DEPTH + 1) + &"]".repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(json_text(deep.into_bytes()), Err(DecodeError::TooDeep));
    }

    #[test]
    fn ip_budgets_refuse_past_the_limit_and_reset_with_the_window() {
        let b = IpBudgets::new(100, Duration::from_millis(50));
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let other: IpAddr = "203.0.113.8".parse().unwrap();
        assert!(b.charge(ip, 60).is_ok());
        assert!(b.charge(ip, 60).is_err(), "over the limit");
        assert!(b.charge(other, 60).is_ok(), "per address");
        std::thread::sleep(Duration::from_millis(60));
        assert!(b.charge(ip, 60).is_ok(), "a new window");
    }
}
