//! Parsing a recorder push (the JSON inside `PushSessionEvents`' gzip, or
//! `PushPayload`'s variables) into what storage keeps: replay-chunk facts, the
//! navigation/click timeline, console messages, redacted network resources and
//! errors with their group fingerprint. Pure functions, no I/O.
//!
//! The envelope is strict (a field of the wrong type refuses the whole push, so
//! nothing is stored); the items inside `messages`, `resources` and `errors` are
//! lenient (an item of an unexpected shape is skipped; unknown keys are ignored).
//! Replay events are never parsed beyond `type`, `timestamp` and, for custom and
//! meta events, `data`: a deep DOM snapshot stays raw JSON.

use serde::Deserialize;
use serde_json::{value::RawValue, Value};
use sha2::{Digest, Sha256};

use moat_storage::observability::{NewConsoleMessage, NewResource, NewTimelineItem};

use super::{
    drop_list,
    limits::{MAX_ITEMS_PER_PUSH, MAX_STACK_FRAMES, MAX_STORED_BODY_CHARS, MAX_TEXT_CHARS},
    redact,
};

/// rrweb event types used here.
pub const EVENT_META: i64 = 4;
pub const EVENT_CUSTOM: i64 = 5;

/// Longest console message kept, in characters.
pub const MAX_CONSOLE_CHARS: usize = 10_000;
/// Client times further than this from the server's clock are not trusted (the
/// push's send time is used instead).
const MAX_CLOCK_SKEW_MS: i64 = 400 * 24 * 3600 * 1000;
const MAX_FUTURE_MS: i64 = 24 * 3600 * 1000;

/// A payload id: a digit string (`Date.now()` at send) or a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayloadId(pub i64);

impl<'de> Deserialize<'de> for PayloadId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(i64),
            S(String),
        }
        let n = match Raw::deserialize(d)? {
            Raw::N(n) => n,
            Raw::S(s) => s
                .trim()
                .parse::<i64>()
                .map_err(|_| serde::de::Error::custom("payload_id must be a digit string"))?,
        };
        if n < 0 {
            return Err(serde::de::Error::custom("payload_id must not be negative"));
        }
        Ok(Self(n))
    }
}

/// The head of one rrweb event: enough to count, order and find custom events.
#[derive(Debug, Deserialize)]
pub struct EventHead<'a> {
    #[serde(rename = "type")]
    pub kind: i64,
    pub timestamp: f64,
    #[serde(borrow, default)]
    pub data: Option<&'a RawValue>,
}

#[derive(Debug, Deserialize)]
pub struct EventsField<'a> {
    #[serde(borrow)]
    pub events: Vec<&'a RawValue>,
}

/// `messages`, `resources` and `web_socket_events` are JSON *strings* holding an
/// object; an object itself is accepted too.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Embedded {
    Text(String),
    Json(Value),
}

impl Embedded {
    /// The array under `key` of the embedded object (or a bare array); empty when
    /// it holds anything else.
    fn items(&self, key: &str) -> Result<Vec<Value>, String> {
        let value = match self {
            Embedded::Text(t) if t.trim().is_empty() => return Ok(Vec::new()),
            Embedded::Text(t) => serde_json::from_str::<Value>(t)
                .map_err(|e| format!("`{key}` is not a JSON string: {e}"))?,
            Embedded::Json(v) => v.clone(),
        };
        Ok(match value {
            Value::Object(mut map) => match map.remove(key) {
                Some(Value::Array(items)) => items,
                _ => Vec::new(),
            },
            Value::Array(items) => items,
            _ => Vec::new(),
        })
    }
}

/// The push as the recorder sends it. Unknown keys are ignored.
#[derive(Debug, Deserialize)]
pub struct PushBody<'a> {
    #[serde(borrow, default)]
    pub events: Option<EventsField<'a>>,
    #[serde(default)]
    pub messages: Option<Embedded>,
    #[serde(default)]
    pub resources: Option<Embedded>,
    #[serde(default)]
    pub errors: Option<Vec<Value>>,
    #[serde(default)]
    pub is_beacon: Option<bool>,
    #[serde(default)]
    pub has_session_unloaded: Option<bool>,
    #[serde(default)]
    pub payload_id: Option<PayloadId>,
    #[serde(default)]
    pub session_secure_id: Option<String>,
}

/// An error as parsed, before its replay offset is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedError {
    pub fingerprint: String,
    pub error_type: String,
    pub message: String,
    pub ts: i64,
    pub url: Option<String>,
    pub source: Option<String>,
    pub stack: Option<String>,
}

/// Everything storage keeps of one push.
#[derive(Debug, Default)]
pub struct ParsedPush {
    pub events: i64,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
    pub first_url: Option<String>,
    /// The events themselves, raw (kept only for `PushPayload`, whose chunk the
    /// server compresses itself).
    pub raw_events: Vec<String>,
    pub timeline: Vec<NewTimelineItem>,
    pub console: Vec<NewConsoleMessage>,
    pub resources: Vec<NewResource>,
    pub errors: Vec<ParsedError>,
    pub dropped_errors: usize,
}

/// Parses a push. `sent_at` is the best send time known (the payload id when it is
/// a plausible time, else the server's clock); `now` is the server's clock.
pub fn parse_push(
    json: &str,
    sent_at: i64,
    now: i64,
    keep_raw_events: bool,
) -> Result<ParsedPush, String> {
    let body: PushBody<'_> =
        serde_json::from_str(json).map_err(|e| format!("the payload is not valid: {e}"))?;
    parse_body(&body, sent_at, now, keep_raw_events)
}

pub fn parse_body(
    body: &PushBody<'_>,
    sent_at: i64,
    now: i64,
    keep_raw_events: bool,
) -> Result<ParsedPush, String> {
    let mut out = ParsedPush::default();
    if let Some(events) = &body.events {
        for raw in &events.events {
            let head: EventHead<'_> = serde_json::from_str(raw.get())
                .map_err(|e| format!("a replay event is not valid: {e}"))?;
            let ts = head.timestamp as i64;
            out.events += 1;
            out.first_ts = Some(out.first_ts.map_or(ts, |f| f.min(ts)));
            out.last_ts = Some(out.last_ts.map_or(ts, |l| l.max(ts)));
            if keep_raw_events {
                out.raw_events.push(raw.get().to_owned());
            }
            if out.timeline.len() < MAX_ITEMS_PER_PUSH {
                if let Some(item) = timeline_item(&head) {
                    if item.kind == "load" && out.first_url.is_none() {
                        out.first_url = serde_json::from_str::<Value>(&item.detail)
                            .ok()
                            .and_then(|d| d["url"].as_str().map(str::to_owned));
                    }
                    out.timeline.push(item);
                }
            }
        }
    }
    if let Some(messages) = &body.messages {
        for m in messages.items("messages")?.iter().take(MAX_ITEMS_PER_PUSH) {
            if let Some(m) = console_message(m, sent_at, now) {
                out.console.push(m);
            }
        }
    }
    if let Some(resources) = &body.resources {
        for r in resources
            .items("resources")?
            .iter()
            .take(MAX_ITEMS_PER_PUSH)
        {
            if let Some(r) = resource(r, sent_at, now) {
                out.resources.push(r);
            }
        }
    }
    if let Some(errors) = &body.errors {
        for e in errors.iter().take(MAX_ITEMS_PER_PUSH) {
            match error(e, sent_at, now) {
                Some(Ok(e)) => out.errors.push(e),
                Some(Err(_rule)) => out.dropped_errors += 1,
                None => {}
            }
        }
    }
    Ok(out)
}

/// A client time in ms (a number, a digit string or RFC 3339), if plausible.
pub fn client_time(value: &Value, now: i64) -> Option<i64> {
    let ms = match value {
        Value::Number(n) => n.as_f64().map(|f| f as i64),
        Value::String(s) => s.trim().parse::<f64>().ok().map(|f| f as i64).or_else(|| {
            chrono::DateTime::parse_from_rfc3339(s.trim())
                .ok()
                .map(|t| t.timestamp_millis())
        }),
        _ => None,
    }?;
    plausible(ms, now)
}

/// `ms` when it is within the accepted clock skew of `now`.
pub fn plausible(ms: i64, now: i64) -> Option<i64> {
    (ms > now - MAX_CLOCK_SKEW_MS && ms < now + MAX_FUTURE_MS).then_some(ms)
}

/// A value as text. The recorder JSON-encodes console arguments and error messages
/// (`"\"Uncaught Error: boom\""`): such a string is unwrapped once.
fn text(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => {
            let quoted = s.len() >= 2 && s.starts_with('"') && s.ends_with('"');
            Some(
                quoted
                    .then(|| serde_json::from_str::<String>(s).ok())
                    .flatten()
                    .unwrap_or_else(|| s.clone()),
            )
        }
        other => Some(other.to_string()),
    }
}

fn short(value: &Value) -> Option<String> {
    text(value).map(|s| redact::truncate(&s, MAX_TEXT_CHARS))
}

/// A navigation, reload, click or page load from a meta or custom event.
fn timeline_item(head: &EventHead<'_>) -> Option<NewTimelineItem> {
    let data = head.data?;
    let ts = head.timestamp as i64;
    let item = |kind: &str, detail: Value| NewTimelineItem {
        ts,
        kind: kind.to_owned(),
        detail: detail.to_string(),
    };
    match head.kind {
        EVENT_META => {
            #[derive(Deserialize)]
            struct Meta {
                href: Option<String>,
            }
            let meta: Meta = serde_json::from_str(data.get()).ok()?;
            Some(item(
                "load",
                serde_json::json!({ "url": redact::url(&redact::truncate(&meta.href?, MAX_TEXT_CHARS)) }),
            ))
        }
        EVENT_CUSTOM => {
            #[derive(Deserialize)]
            struct Custom<'a> {
                tag: String,
                #[serde(borrow)]
                payload: Option<&'a RawValue>,
            }
            let custom: Custom<'_> = serde_json::from_str(data.get()).ok()?;
            let payload: Value = custom
                .payload
                .and_then(|p| serde_json::from_str(p.get()).ok())
                .unwrap_or(Value::Null);
            match custom.tag.as_str() {
                "Navigate" => {
                    let url = match &payload {
                        Value::String(s) => s.clone(),
                        Value::Object(o) => o
                            .get("url")
                            .or_else(|| o.get("href"))
                            .and_then(Value::as_str)?
                            .to_owned(),
                        _ => return None,
                    };
                    Some(item(
                        "navigate",
                        serde_json::json!({ "url": redact::url(&redact::truncate(&url, MAX_TEXT_CHARS)) }),
                    ))
                }
                "Reload" => Some(item("reload", serde_json::json!({}))),
                "Click" => {
                    let field = |k: &str| payload.get(k).and_then(short);
                    Some(item(
                        "click",
                        serde_json::json!({
                            "target": field("clickTarget"),
                            "text": field("clickTextContent"),
                            "selector": field("clickSelector"),
                        }),
                    ))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn console_message(m: &Value, sent_at: i64, now: i64) -> Option<NewConsoleMessage> {
    let obj = m.as_object()?;
    let level = obj
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("log")
        .chars()
        .take(16)
        .collect::<String>();
    let message = match obj.get("value") {
        Some(Value::Array(parts)) => parts.iter().filter_map(text).collect::<Vec<_>>().join(" "),
        Some(v) => text(v).unwrap_or_default(),
        None => String::new(),
    };
    let ts = obj
        .get("time")
        .and_then(|t| client_time(t, now))
        .unwrap_or(sent_at);
    let trace = obj
        .get("trace")
        .filter(|t| t.is_array())
        .map(|t| frames(t).to_string());
    Some(NewConsoleMessage {
        ts,
        level,
        message: redact::truncate(&message, MAX_CONSOLE_CHARS),
        trace,
    })
}

fn resource(r: &Value, sent_at: i64, now: i64) -> Option<NewResource> {
    let obj = r.as_object()?;
    let pair = obj.get("requestResponsePairs").and_then(Value::as_object);
    let request = pair
        .and_then(|p| p.get("request"))
        .and_then(Value::as_object);
    let response = pair
        .and_then(|p| p.get("response"))
        .and_then(Value::as_object);
    let url = request
        .and_then(|q| q.get("url"))
        .or_else(|| obj.get("name"))
        .and_then(Value::as_str)?;
    let number = |v: Option<&Value>| v.and_then(Value::as_f64);
    let ts = obj
        .get("startTimeAbs")
        .and_then(|t| client_time(t, now))
        .unwrap_or(sent_at);
    let body = |v: Option<&Value>| {
        v.and_then(text)
            .map(|b| redact::body(&b, MAX_STORED_BODY_CHARS))
    };
    Some(NewResource {
        ts,
        initiator: obj
            .get("initiatorType")
            .and_then(Value::as_str)
            .unwrap_or("other")
            .chars()
            .take(32)
            .collect(),
        method: request
            .and_then(|q| q.get("verb"))
            .and_then(Value::as_str)
            .map(|m| m.chars().take(16).collect()),
        url: redact::url(&redact::truncate(url, MAX_TEXT_CHARS)),
        status: response
            .and_then(|s| s.get("status"))
            .and_then(Value::as_i64),
        duration_ms: number(obj.get("duration"))
            .or_else(|| Some(number(obj.get("responseEndAbs"))? - number(obj.get("startTimeAbs"))?))
            .or_else(|| Some(number(obj.get("responseEnd"))? - number(obj.get("startTime"))?))
            .filter(|d| d.is_finite() && *d >= 0.0),
        transfer_size: number(obj.get("transferSize"))
            .or_else(|| number(response.and_then(|s| s.get("size"))))
            .map(|n| n as i64),
        request_headers: request
            .and_then(|q| q.get("headers"))
            .and_then(redact::headers)
            .map(|h| h.to_string()),
        response_headers: response
            .and_then(|s| s.get("headers"))
            .and_then(redact::headers)
            .map(|h| h.to_string()),
        request_body: body(request.and_then(|q| q.get("body"))),
        response_body: body(response.and_then(|s| s.get("body"))),
    })
}

/// Up to [`MAX_STACK_FRAMES`] frames, each cut to the fields the console shows.
fn frames(trace: &Value) -> Value {
    let Some(items) = trace.as_array() else {
        return Value::Array(Vec::new());
    };
    Value::Array(
        items
            .iter()
            .take(MAX_STACK_FRAMES)
            .filter_map(|f| {
                let f = f.as_object()?;
                let s = |k: &str| f.get(k).and_then(short).map(Value::String);
                let n = |k: &str| f.get(k).and_then(Value::as_i64).map(Value::from);
                Some(serde_json::json!({
                    "functionName": s("functionName"),
                    "fileName": s("fileName").map(|u| Value::String(redact::url(u.as_str().unwrap_or("")))),
                    "lineNumber": n("lineNumber"),
                    "columnNumber": n("columnNumber"),
                }))
            })
            .collect(),
    )
}

/// An error occurrence, `Err(rule)` when the drop list drops it, `None` when the
/// item is not an error object.
fn error(e: &Value, sent_at: i64, now: i64) -> Option<Result<ParsedError, &'static str>> {
    let obj = e.as_object()?;
    let message = obj.get("event").and_then(text).unwrap_or_default();
    let stack_value = match obj.get("stackTrace").or_else(|| obj.get("trace")) {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).unwrap_or(Value::Null),
        Some(v) => v.clone(),
        None => Value::Null,
    };
    let stack = frames(&stack_value);
    let url = obj.get("url").and_then(short).map(|u| redact::url(&u));
    let source = obj.get("source").and_then(short).map(|u| redact::url(&u));
    let files: Vec<String> = stack
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["fileName"].as_str().map(str::to_owned))
        .chain(source.clone())
        .collect();
    if let Some(rule) = drop_list::error_rule(&message, files.iter().map(String::as_str)) {
        return Some(Err(rule));
    }
    let error_type = obj
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("error")
        .chars()
        .take(64)
        .collect::<String>();
    let top: Vec<(String, String)> = stack
        .as_array()
        .into_iter()
        .flatten()
        .take(3)
        .map(|f| {
            (
                normalise_file(f["fileName"].as_str().unwrap_or("")),
                f["functionName"].as_str().unwrap_or("?").to_owned(),
            )
        })
        .collect();
    let ts = obj
        .get("timestamp")
        .and_then(|t| client_time(t, now))
        .unwrap_or(sent_at);
    Some(Ok(ParsedError {
        fingerprint: fingerprint(&normalise_message(&message), &top),
        error_type,
        message: redact::truncate(&message, MAX_TEXT_CHARS),
        ts,
        url,
        source,
        stack: stack
            .as_array()
            .filter(|a| !a.is_empty())
            .map(|_| stack.to_string()),
    }))
}

/// The group key: the normalised message and the top frames' `file:function`.
pub fn fingerprint(normalised_message: &str, top_frames: &[(String, String)]) -> String {
    let mut h = Sha256::new();
    h.update(normalised_message.as_bytes());
    for (file, function) in top_frames.iter().take(3) {
        h.update(b"\n");
        h.update(file.as_bytes());
        h.update(b":");
        h.update(function.as_bytes());
    }
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The message with what varies between occurrences replaced: URLs by `<url>`,
/// UUIDs by `<uuid>`, hex ids by `<hex>`, numbers by `<n>`.
pub fn normalise_message(message: &str) -> String {
    let message = redact::truncate(message.trim(), MAX_TEXT_CHARS);
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(c) = rest.chars().next() {
        if let Some(len) = url_len(rest) {
            out.push_str("<url>");
            rest = &rest[len..];
        } else if is_uuid(rest) {
            out.push_str("<uuid>");
            rest = &rest[36..];
        } else if c.is_ascii_alphanumeric() {
            let len = rest
                .find(|ch: char| !ch.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            out.push_str(&normalise_word(&rest[..len]));
            rest = &rest[len..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn url_len(s: &str) -> Option<usize> {
    // `scheme://…` (http, https, file, ws, chrome-extension, …), `blob:` or `data:`.
    let scheme_url = s.get(..40).unwrap_or(s).find("://").is_some_and(|i| {
        i >= 2
            && s[..i]
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'+')
    });
    let lower = s.get(..5).unwrap_or("").to_ascii_lowercase();
    let is_url = scheme_url || lower == "blob:" || lower == "data:";
    is_url.then(|| {
        s.find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | '(' | '<' | '>' | ','))
            .unwrap_or(s.len())
    })
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 36
        && (0..36).all(|i| match i {
            8 | 13 | 18 | 23 => b[i] == b'-',
            _ => b[i].is_ascii_hexdigit(),
        })
        && b.get(36).is_none_or(|c| !c.is_ascii_alphanumeric())
}

fn normalise_word(word: &str) -> String {
    let hex_digits = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(h) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
        if hex_digits(h) {
            return "<hex>".into();
        }
    }
    if word.bytes().all(|b| b.is_ascii_digit()) {
        return "<n>".into();
    }
    if word.len() >= 8 && hex_digits(word) && word.bytes().any(|b| b.is_ascii_digit()) {
        return "<hex>".into();
    }
    // Digits inside a word: each run becomes <n> ("chunk42" → "chunk<n>").
    let mut out = String::new();
    let mut in_digits = false;
    for c in word.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push_str("<n>");
                in_digits = true;
            }
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

/// A stack frame's file for grouping: path only (no origin, query or fragment) and
/// without a build hash (`/assets/index-Bx7_a1q2.js` → `/assets/index.js`), so one
/// error keeps its group across deploys.
pub fn normalise_file(file: &str) -> String {
    let without_origin = match file.find("://") {
        Some(i) => {
            let after = &file[i + 3..];
            after.find('/').map_or("", |j| &after[j..])
        }
        None => file,
    };
    let path = without_origin
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_owned();
    let (dir, last) = match path.rfind('/') {
        Some(i) => (&path[..=i], &path[i + 1..]),
        None => ("", path.as_str()),
    };
    let (stem, ext) = match last.find('.') {
        Some(i) => (&last[..i], &last[i..]),
        None => (last, ""),
    };
    let stem = match stem.rfind('-') {
        Some(i) => {
            let hash = &stem[i + 1..];
            let hashy = hash.len() >= 6
                && hash.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && hash
                    .bytes()
                    .any(|b| b.is_ascii_digit() || b.is_ascii_uppercase());
            if hashy {
                &stem[..i]
            } else {
                stem
            }
        }
        None => stem,
    };
    format!("{dir}{stem}{ext}")
}

/// The replay events of one stored chunk, each with its timestamp, raw.
pub fn chunk_events(json: &str) -> Result<Vec<(f64, String)>, String> {
    #[derive(Deserialize)]
    struct Chunk<'a> {
        #[serde(borrow, default)]
        events: Option<EventsField<'a>>,
    }
    let chunk: Chunk<'_> = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let Some(events) = chunk.events else {
        return Ok(Vec::new());
    };
    events
        .events
        .iter()
        .map(|raw| {
            let head: EventHead<'_> = serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
            Ok((head.timestamp, raw.get().to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const NOW: i64 = 1_790_000_000_000;

    #[test]
    fn messages_are_normalised_for_grouping() {
        assert_eq!(
            normalise_message(
                "Cannot load https://moat.example/api/portfolios/42?x=1 (status 500)"
            ),
            "Cannot load <url> (status <n>)"
        );
        assert_eq!(
            normalise_message(
                "Portfolio 123 of 550e8400-e29b-41d4-a716-446655440000 at 0x1f2e failed"
            ),
            "Portfolio <n> of <uuid> at <hex> failed"
        );
        assert_eq!(
            normalise_message("Loading chunk42 deadbeef01 failed"),
            "Loading chunk<n> <hex> failed"
        );
        assert_eq!(normalise_message("시세 123건 실패"), "시세 <n>건 실패");
    }

    #[test]
    fn files_lose_origin_query_and_build_hash() {
        assert_eq!(
            normalise_file("https://moat.example/assets/index-Bx7_a1q2.js?v=3"),
            "/assets/index.js"
        );
        assert_eq!(
            normalise_file("/assets/stock-page-abc123.js"),
            "/assets/stock-page.js"
        );
        assert_eq!(normalise_file("/assets/date-fns.js"), "/assets/date-fns.js");
    }

    #[test]
    fn the_same_error_from_another_build_groups_together() {
        let err = |msg: &str, file: &str| {
            error(
                &json!({"event": msg, "type": "window.onerror", "stackTrace": [
                    {"functionName": "render", "fileName": file, "lineNumber": 1},
                ], "timestamp": "2026-09-21T10:00:00Z"}),
                NOW,
                NOW,
            )
            .unwrap()
            .unwrap()
        };
        let a = err(
            "Cannot read 'price' of portfolio 12",
            "https://m.example/assets/index-AAAA1111.js",
        );
        let b = err(
            "Cannot read 'price' of portfolio 99",
            "https://m.example/assets/index-BBBB2222.js",
        );
        let c = err(
            "Cannot read 'price' of portfolio 99",
            "https://m.example/assets/other-BBBB2222.js",
        );
        assert_eq!(a.fingerprint, b.fingerprint);
        assert_ne!(a.fingerprint, c.fingerprint);
        assert_eq!(
            a.ts,
            chrono::DateTime::parse_from_rfc3339("2026-09-21T10:00:00Z")
                .unwrap()
                .timestamp_millis()
        );
    }

    #[test]
    fn a_push_yields_its_parts() {
        let push = json!({
            "session_secure_id": "s1",
            "payload_id": "1790000000000",
            "events": {"events": [
                {"type": 4, "data": {"href": "https://m.example/stocks?token=abc", "width": 390}, "timestamp": NOW - 2000, "_sid": 1},
                {"type": 2, "data": {"node": {"childNodes": []}}, "timestamp": NOW - 1990, "_sid": 2},
                {"type": 5, "data": {"tag": "Navigate", "payload": "/portfolio"}, "timestamp": NOW - 1500, "_sid": 3},
                {"type": 5, "data": {"tag": "Click", "payload": {"clickTarget": "button", "clickTextContent": "매수", "clickSelector": "#buy"}}, "timestamp": NOW - 1000, "_sid": 4}
            ]},
            "messages": json!({"messages": [{"type": "warn", "value": ["slow", "quote"], "time": NOW - 900}]}).to_string(),
            "resources": json!({"resources": [{
                "name": "https://m.example/api/me?access_token=t", "initiatorType": "fetch", "duration": 12.5,
                "requestResponsePairs": {"request": {"url": "https://m.example/api/me?access_token=t", "verb": "GET",
                    "headers": {"Authorization": "Bearer x"}}, "response": {"status": 200, "headers": {"set-cookie": "a"}, "body": "{\"token\":\"jwt\"}"}}
            }]}).to_string(),
            "web_socket_events": "{\"webSocketEvents\":[]}",
            "errors": [
                {"event": "TypeError: Failed to fetch", "type": "window.onerror", "url": "/", "source": "", "lineNumber": 1, "columnNumber": 1, "stackTrace": [], "timestamp": "2026-09-21T10:00:00Z"},
                {"event": "boom 7", "type": "custom", "url": "https://m.example/?code=x", "source": "", "lineNumber": 1, "columnNumber": 1, "stackTrace": [], "timestamp": 42, "unknown": true},
                "not an object"
            ],
            "is_beacon": false,
            "has_session_unloaded": false,
            "something_new": {"ignored": true}
        })
        .to_string();
        let p = parse_push(&push, NOW, NOW, false).unwrap();
        assert_eq!(p.events, 4);
        assert_eq!(
            (p.first_ts, p.last_ts),
            (Some(NOW - 2000), Some(NOW - 1000))
        );
        assert_eq!(
            p.first_url.as_deref(),
            Some("https://m.example/stocks?token=[REDACTED]")
        );
        let kinds: Vec<_> = p.timeline.iter().map(|t| t.kind.as_str()).collect();
        assert_eq!(kinds, ["load", "navigate", "click"]);
        assert!(p.timeline[2].detail.contains("매수"));
        assert_eq!(p.console.len(), 1);
        assert_eq!(p.console[0].message, "slow quote");
        assert_eq!(p.console[0].ts, NOW - 900);
        let r = &p.resources[0];
        assert_eq!(r.url, "https://m.example/api/me?access_token=[REDACTED]");
        assert!(r.request_headers.as_deref().unwrap().contains("[REDACTED]"));
        assert!(!r.response_body.as_deref().unwrap().contains("jwt"));
        assert_eq!(r.status, Some(200));
        assert_eq!(p.dropped_errors, 1, "the failed fetch is on the drop list");
        assert_eq!(p.errors.len(), 1);
        assert_eq!(
            p.errors[0].ts, NOW,
            "an implausible client time falls back to the send time"
        );
        assert_eq!(
            p.errors[0].url.as_deref(),
            Some("https://m.example/?code=[REDACTED]")
        );
    }

    #[test]
    fn the_recorders_json_encoded_strings_are_unwrapped() {
        assert_eq!(
            text(&json!("\"Uncaught Error: boom\"")).unwrap(),
            "Uncaught Error: boom"
        );
        assert_eq!(text(&json!("plain")).unwrap(), "plain");
        assert_eq!(text(&json!("\"broken")).unwrap(), "\"broken");
        assert_eq!(text(&json!(7)).unwrap(), "7");
        let r = resource(
            &json!({"name": "/x", "initiatorType": "fetch", "startTimeAbs": NOW as f64 - 30.0, "responseEndAbs": NOW as f64 - 5.5}),
            NOW,
            NOW,
        )
        .unwrap();
        assert_eq!((r.ts, r.duration_ms), (NOW - 30, Some(24.5)));
    }

    #[test]
    fn wrong_envelope_types_refuse_the_push() {
        for bad in [
            json!({"events": {"events": "no"}}),
            json!({"events": {"events": [{"type": "x", "timestamp": 1}]}}),
            json!({"errors": "no"}),
            json!({"payload_id": "abc"}),
            json!({"messages": "{not json"}),
            json!([1, 2]),
        ] {
            assert!(
                parse_push(&bad.to_string(), NOW, NOW, false).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn chunk_events_keep_raw_json() {
        let events = chunk_events(
            r#"{"events":{"events":[{"type":3,"timestamp":5,"data":{"a":[[[1]]]}}]}}"#,
        )
        .unwrap();
        assert_eq!(
            events,
            vec![(
                5.0,
                r#"{"type":3,"timestamp":5,"data":{"a":[[[1]]]}}"#.to_owned()
            )]
        );
    }
}
