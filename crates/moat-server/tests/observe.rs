//! The observability ingest on the real server (docs/observability.md): the recorder's
//! GraphQL operations at `/public`, OTLP at `/v1/traces` and `/v1/metrics`, the
//! server's own spans, and the operator's read API.

mod helpers;

use std::io::Write;

use base64::Engine;
use helpers::{assert_error, send, signup, wait_until, TestApp, PATIENCE, POLL_EVERY};
use moat_storage::{observability::ObsCounts, testing::TestDatabase};
use reqwest::Method;
use serde_json::{json, Value};

const SESSION: &str = "TestSession0001";

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A small app with tight ingest limits, so the limits can be reached in a test.
async fn spawn_with(
    db: TestDatabase,
    tweak: impl FnOnce(&mut moat_server::config::Config),
) -> TestApp {
    TestApp::spawn_with(db, |c| {
        c.observability.max_body_bytes = 256 * 1024;
        c.observability.max_decompressed_bytes = 512 * 1024;
        tweak(c);
    })
    .await
}

async fn spawn() -> TestApp {
    spawn_with(TestDatabase::sqlite(), |_| {}).await
}

async fn counts(app: &TestApp) -> ObsCounts {
    let storage = app.db.storage().await;
    let c = storage.obs_counts().await.unwrap();
    storage.close().await;
    c
}

fn query_of(op: &str) -> String {
    // The shapes the recorder sends (field names as in highlight.run's documents).
    match op {
        "initializeSession" => "mutation initializeSession($session_secure_id: String!, $organization_verbose_id: String!) {\n  initializeSession(session_secure_id: $session_secure_id, organization_verbose_id: $organization_verbose_id) {\n    secure_id\n    project_id\n    sampling { spans { samplingRatio } logs { samplingRatio } }\n  }\n}".into(),
        "PushSessionEvents" => "mutation PushSessionEvents($session_secure_id: String!, $payload_id: ID!, $data: String!) {\n  pushSessionEvents(session_secure_id: $session_secure_id, payload_id: $payload_id, data: $data)\n}".into(),
        "PushPayloadCompressed" => "mutation PushPayloadCompressed($session_secure_id: String!, $payload_id: ID!, $data: String!) {\n  pushPayloadCompressed(session_secure_id: $session_secure_id, payload_id: $payload_id, data: $data)\n}".into(),
        "PushPayload" => "mutation PushPayload($session_secure_id: String!, $payload_id: ID, $events: ReplayEventsInput!, $messages: String!, $resources: String!, $web_socket_events: String!, $errors: [ErrorObjectInput]!) {\n  pushPayload(session_secure_id: $session_secure_id, payload_id: $payload_id, events: $events, messages: $messages, resources: $resources, web_socket_events: $web_socket_events, errors: $errors)\n}".into(),
        "identifySession" => "mutation identifySession($session_secure_id: String!, $user_identifier: String!, $user_object: Any) {\n  identifySession(session_secure_id: $session_secure_id, user_identifier: $user_identifier, user_object: $user_object)\n}".into(),
        "addSessionProperties" => "mutation addSessionProperties($session_secure_id: String!, $properties_object: Any) {\n  addSessionProperties(session_secure_id: $session_secure_id, properties_object: $properties_object)\n}".into(),
        "addSessionFeedback" => "mutation addSessionFeedback($session_secure_id: String!, $user_name: String, $user_email: String, $verbatim: String!, $timestamp: Timestamp!) {\n  addSessionFeedback(session_secure_id: $session_secure_id, user_name: $user_name, user_email: $user_email, verbatim: $verbatim, timestamp: $timestamp)\n}".into(),
        "pushMetrics" => "mutation pushMetrics($metrics: [MetricInput]!) {\n  pushMetrics(metrics: $metrics)\n}".into(),
        "Ignore" => "query Ignore($id: ID!) {\n  ignore(id: $id)\n}".into(),
        "GetSamplingConfig" => "fragment MatchParts on MatchConfig {\n  regexValue\n  matchValue\n}\n\nquery GetSamplingConfig($organization_verbose_id: String!) {\n  sampling(organization_verbose_id: $organization_verbose_id) {\n    spans { name { ...MatchParts } }\n    logs { message { ...MatchParts } }\n  }\n}".into(),
        _ => "query X { x }".into(),
    }
}

async fn post_public(
    app: &TestApp,
    body: String,
    user_agent: Option<&str>,
) -> (u16, Option<String>, Value) {
    let mut req = app
        .client
        .post(app.url("/public"))
        .header("content-type", "application/json")
        .body(body);
    if let Some(ua) = user_agent {
        req = req.header("user-agent", ua);
    }
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = r.text().await.unwrap();
    let json =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
    (status, ct, json)
}

async fn gql_as(app: &TestApp, op: &str, variables: Value, ua: Option<&str>) -> (u16, Value) {
    let body =
        json!({"operationName": op, "query": query_of(op), "variables": variables}).to_string();
    let (status, ct, json) = post_public(app, body, ua).await;
    assert_eq!(ct.as_deref(), Some("application/json"), "{op}");
    (status, json)
}

async fn gql(app: &TestApp, op: &str, variables: Value) -> (u16, Value) {
    gql_as(app, op, variables, None).await
}

fn gzip_b64(payload: &Value) -> String {
    gzip_b64_bytes(payload.to_string().as_bytes())
}

fn gzip_b64_bytes(bytes: &[u8]) -> String {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    base64::engine::general_purpose::STANDARD.encode(e.finish().unwrap())
}

/// A push like the recorder's: events, a console message, a request, errors.
fn push_payload(payload_id: i64, t0: i64) -> Value {
    json!({
        "session_secure_id": SESSION,
        "payload_id": payload_id.to_string(),
        "events": {"events": [
            {"type": 4, "data": {"href": "https://moat.example/portfolio?token=secret", "width": 390, "height": 844}, "timestamp": t0, "_sid": 1},
            {"type": 2, "data": {"node": {"type": 0, "childNodes": []}, "initialOffset": {"top": 0, "left": 0}}, "timestamp": t0 + 5, "_sid": 2},
            {"type": 5, "data": {"tag": "Navigate", "payload": "https://moat.example/stocks/KRX:005930"}, "timestamp": t0 + 1000, "_sid": 3},
            {"type": 5, "data": {"tag": "Click", "payload": {"clickTarget": "button", "clickTextContent": "매수", "clickSelector": "button.buy"}}, "timestamp": t0 + 1500, "_sid": 4},
            {"type": 3, "data": {"source": 2, "type": 2, "id": 9, "x": 1, "y": 2}, "timestamp": t0 + 1400, "_sid": 5}
        ]},
        "messages": json!({"messages": [{"type": "error", "value": ["quote stream closed"], "time": t0 + 1600, "trace": []}]}).to_string(),
        "resources": json!({"resources": [{
            "name": "https://moat.example/api/me?access_token=abc", "initiatorType": "fetch", "startTime": 10.0, "responseEnd": 42.0,
            "requestResponsePairs": {
                "request": {"url": "https://moat.example/api/me?access_token=abc", "verb": "GET", "headers": {"Authorization": "Bearer jwt.jwt.jwt", "x-request-id": "r1"}, "body": ""},
                "response": {"status": 200, "headers": {"x-moat-token": "fresh.jwt", "content-type": "application/json"}, "body": "{\"token\":\"zzz\",\"nickname\":\"개미\"}", "size": 50}
            }
        }]}).to_string(),
        "web_socket_events": "{\"webSocketEvents\":[]}",
        "errors": [
            {"event": "TypeError: Cannot read properties of undefined (reading 'price') at 12", "type": "window.onerror",
             "url": "https://moat.example/stocks/KRX:005930", "source": "https://moat.example/assets/index-Ab12Cd34.js",
             "lineNumber": 10, "columnNumber": 5, "timestamp": chrono::DateTime::from_timestamp_millis(t0 + 1700).unwrap().to_rfc3339(),
             "stackTrace": [{"functionName": "renderPrice", "fileName": "https://moat.example/assets/index-Ab12Cd34.js", "lineNumber": 10, "columnNumber": 5}],
             "payload": "{}", "id": "0f8fad5b-d9cb-469f-a165-70867728950e"},
            {"event": "TypeError: Failed to fetch", "type": "window.onerror", "url": "/", "source": "", "lineNumber": 0, "columnNumber": 0,
             "stackTrace": [], "timestamp": "2026-01-01T00:00:00Z"}
        ],
        "is_beacon": false,
        "has_session_unloaded": false
    })
}

async fn init(app: &TestApp, secure_id: &str) -> Value {
    let (status, body) = gql(
        app,
        "initializeSession",
        json!({"session_secure_id": secure_id, "organization_verbose_id": "moat", "enable_strict_privacy": false,
               "enable_recording_network_contents": true, "clientVersion": "9.20.0", "firstloadVersion": "9.20.0",
               "clientConfig": "{}", "environment": "production", "id": "fp1", "appVersion": "1.0.0",
               "client_id": "c1", "network_recording_domains": [], "disable_session_recording": false}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn push(app: &TestApp, payload_id: i64, payload: &Value) -> (u16, Value) {
    gql(
        app,
        "PushSessionEvents",
        json!({"session_secure_id": SESSION, "payload_id": payload_id.to_string(), "data": gzip_b64(payload)}),
    )
    .await
}

fn assert_gql_error(status: u16, body: &Value, why: &str) {
    assert!(
        (400..500).contains(&status),
        "{why}: status {status}: {body}"
    );
    assert_eq!(body["data"], Value::Null, "{why}: {body}");
    let message = body["errors"][0]["message"].as_str().unwrap_or("");
    assert!(!message.is_empty(), "{why}: {body}");
}

#[tokio::test]
async fn initialize_session_replies_exactly_and_upserts() {
    let app = spawn().await;
    let first = init(&app, SESSION).await;
    assert_eq!(
        first,
        json!({"data": {"initializeSession": {"secure_id": SESSION, "project_id": "1", "sampling": null}}})
    );
    // A reload or a second tab sends the same id again.
    assert_eq!(init(&app, SESSION).await, first);
    assert_eq!(counts(&app).await.sessions, 1);
}

#[tokio::test]
async fn every_operation_replies_in_the_shape_the_client_expects() {
    let app = spawn().await;
    init(&app, SESSION).await;
    let t0 = now_ms() - 5_000;
    let cases: Vec<(&str, Value, Value)> = vec![
        (
            "PushSessionEvents",
            json!({"session_secure_id": SESSION, "payload_id": (t0 + 1).to_string(), "data": gzip_b64(&push_payload(t0 + 1, t0))}),
            json!({"data": {"pushSessionEvents": null}}),
        ),
        (
            "PushPayloadCompressed",
            json!({"session_secure_id": SESSION, "payload_id": (t0 + 2).to_string(), "data": gzip_b64(&push_payload(t0 + 2, t0))}),
            json!({"data": {"pushPayloadCompressed": null}}),
        ),
        (
            "PushPayload",
            {
                let mut p = push_payload(t0 + 3, t0);
                p["payload_id"] = json!((t0 + 3).to_string());
                p
            },
            json!({"data": {"pushPayload": 5}}),
        ),
        (
            "identifySession",
            json!({"session_secure_id": SESSION, "user_identifier": "42", "user_object": {"nickname": "개미투자자", "user_id": "42"}}),
            json!({"data": {"identifySession": SESSION}}),
        ),
        (
            "addSessionProperties",
            json!({"session_secure_id": SESSION, "properties_object": {"plan": "premium"}}),
            json!({"data": {"addSessionProperties": SESSION}}),
        ),
        (
            "addSessionFeedback",
            json!({"session_secure_id": SESSION, "user_name": "개미", "user_email": "a@moat.example", "verbatim": "차트가 느려요", "timestamp": chrono::Utc::now().to_rfc3339()}),
            json!({"data": {"addSessionFeedback": SESSION}}),
        ),
        (
            "pushMetrics",
            json!({"metrics": [
                {"session_secure_id": SESSION, "name": "LCP", "value": 2100.0, "category": "WebVital", "group": "https://moat.example/portfolio", "timestamp": chrono::Utc::now().to_rfc3339(), "tags": [{"name": "url", "value": "https://moat.example/portfolio"}]},
                {"session_secure_id": SESSION, "name": "CLS", "value": 0.3, "category": "WebVital", "group": "https://moat.example/portfolio", "timestamp": chrono::Utc::now().to_rfc3339(), "tags": []}
            ]}),
            json!({"data": {"pushMetrics": 2}}),
        ),
        (
            "Ignore",
            json!({"id": "1"}),
            json!({"data": {"ignore": null}}),
        ),
        (
            "GetSamplingConfig",
            json!({"organization_verbose_id": "moat"}),
            json!({"data": {"sampling": {"spans": [], "logs": []}}}),
        ),
    ];
    for (op, vars, expected) in cases {
        let (status, body) = gql(&app, op, vars).await;
        assert_eq!(status, 200, "{op}: {body}");
        assert_eq!(body, expected, "{op}");
        assert!(body.get("errors").is_none(), "{op}");
    }
    let c = counts(&app).await;
    assert_eq!(c.replay_chunks, 3);
    assert_eq!(c.feedback, 1);
    assert_eq!(c.metrics, 2);
    assert_eq!(
        c.error_groups, 1,
        "one group for three occurrences; the failed fetch dropped"
    );
    assert_eq!(c.error_occurrences, 3);

    // Without a query text the default field names are used.
    let (_, _, body) = post_public(
        &app,
        json!({"operationName": "Ignore", "variables": {"id": "1"}}).to_string(),
        None,
    )
    .await;
    assert_eq!(body, json!({"data": {"ignore": null}}));
}

#[tokio::test]
async fn a_replayed_payload_is_stored_once() {
    let app = spawn().await;
    init(&app, SESSION).await;
    let t0 = now_ms() - 10_000;
    let payload = push_payload(t0 + 100, t0);
    for _ in 0..3 {
        let (status, body) = push(&app, t0 + 100, &payload).await;
        assert_eq!(
            (status, body),
            (200, json!({"data": {"pushSessionEvents": null}}))
        );
    }
    let c = counts(&app).await;
    assert_eq!(
        (
            c.replay_chunks,
            c.console,
            c.resources,
            c.error_occurrences,
            c.timeline
        ),
        (1, 1, 1, 1, 3),
        "{c:?}"
    );
    push(&app, t0 + 200, &push_payload(t0 + 200, t0)).await;
    assert_eq!(counts(&app).await.replay_chunks, 2);
}

#[tokio::test]
async fn bad_input_is_refused_and_stores_nothing() {
    let app = spawn().await;
    let payload_id = now_ms().to_string();
    let push_vars =
        |data: Value| json!({"session_secure_id": SESSION, "payload_id": payload_id, "data": data});
    let deep = "[".repeat(5_000) + &"]".repeat(5_000);
    // A gzip bomb: a few KB that would inflate to 64 MB; the cap is 512 KB.
    let bomb = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![b' '; 1024 * 1024];
        e.write_all(b"{\"events\":{\"events\":[]},\"pad\":\"")
            .unwrap();
        for _ in 0..64 {
            e.write_all(&zeros).unwrap();
        }
        base64::engine::general_purpose::STANDARD.encode(e.finish().unwrap())
    };
    assert!(
        bomb.len() < 200 * 1024,
        "the bomb itself is small: {}",
        bomb.len()
    );
    let cases: Vec<(&str, String)> = vec![
        ("invalid base64", json!({"operationName": "PushSessionEvents", "query": query_of("PushSessionEvents"), "variables": push_vars(json!("%%%not base64%%%"))}).to_string()),
        ("invalid gzip", json!({"operationName": "PushSessionEvents", "variables": push_vars(json!(base64::engine::general_purpose::STANDARD.encode(b"plain text, not gzip")))}).to_string()),
        ("gzip bomb", json!({"operationName": "PushSessionEvents", "variables": push_vars(json!(bomb))}).to_string()),
        ("gzip of something not JSON", json!({"operationName": "PushSessionEvents", "variables": push_vars(json!(gzip_b64_bytes(b"<html>")))}).to_string()),
        ("deeply nested variables", format!(r#"{{"operationName":"identifySession","variables":{{"session_secure_id":"{SESSION}","user_identifier":"1","user_object":{deep}}}}}"#)),
        ("deeply nested, just past serde's limit", format!(r#"{{"operationName":"identifySession","variables":{{"session_secure_id":"{SESSION}","user_identifier":"1","user_object":{{"a":{}{}}}}}}}"#, "[".repeat(200), "]".repeat(200))),
        ("deeply nested payload", json!({"operationName": "PushSessionEvents", "variables": push_vars(json!(gzip_b64_bytes(format!(r#"{{"events":{{"events":[{{"type":3,"timestamp":1,"data":{deep}}}]}}}}"#).as_bytes())))}).to_string()),
        ("payload_id of the wrong type", json!({"operationName": "PushSessionEvents", "variables": {"session_secure_id": SESSION, "payload_id": {"x": 1}, "data": gzip_b64(&json!({}))}}).to_string()),
        ("data of the wrong type", json!({"operationName": "PushSessionEvents", "variables": {"session_secure_id": SESSION, "payload_id": "1", "data": 17}}).to_string()),
        ("events of the wrong type", json!({"operationName": "PushSessionEvents", "variables": push_vars(json!(gzip_b64(&json!({"events": {"events": "nope"}}))))}).to_string()),
        ("an event of the wrong type", json!({"operationName": "PushSessionEvents", "variables": push_vars(json!(gzip_b64(&json!({"events": {"events": [{"type": "two", "timestamp": 1}]}}))))}).to_string()),
        ("a secure id that is not an id", json!({"operationName": "initializeSession", "variables": {"session_secure_id": "<script>"}}).to_string()),
        ("an empty secure id", json!({"operationName": "initializeSession", "variables": {"session_secure_id": ""}}).to_string()),
        ("an empty user identifier", json!({"operationName": "identifySession", "variables": {"session_secure_id": SESSION, "user_identifier": " "}}).to_string()),
        ("feedback with a bad timestamp", json!({"operationName": "addSessionFeedback", "variables": {"session_secure_id": SESSION, "verbatim": "x", "timestamp": "yesterday"}}).to_string()),
        ("metrics of the wrong type", json!({"operationName": "pushMetrics", "variables": {"metrics": [{"name": "LCP", "value": "fast"}]}}).to_string()),
        ("an unknown operation", json!({"operationName": "dropAllTables", "query": "mutation dropAllTables { x }", "variables": {}}).to_string()),
        ("no operation name", json!({"query": "{ x }"}).to_string()),
        ("not JSON", "operationName=initializeSession".to_owned()),
        ("not an object", "[1,2,3]".to_owned()),
    ];
    for (why, body) in cases {
        let (status, ct, json) = post_public(&app, body, None).await;
        assert_eq!(ct.as_deref(), Some("application/json"), "{why}");
        assert_gql_error(status, &json, why);
    }
    // Oversized: more than the 256 KB cap.
    let big = json!({"operationName": "PushSessionEvents", "variables": push_vars(json!("A".repeat(300 * 1024)))}).to_string();
    let (status, _, json) = post_public(&app, big, None).await;
    assert_eq!(status, 413, "{json}");
    assert_gql_error(status, &json, "oversized");
    assert_eq!(
        counts(&app).await,
        ObsCounts::default(),
        "nothing at all was stored"
    );
}

#[tokio::test]
async fn unknown_fields_are_accepted_and_ignored() {
    let app = spawn().await;
    let (status, body) = gql(
        &app,
        "initializeSession",
        json!({"session_secure_id": SESSION, "environment": "production", "brand_new_option": {"x": [1, 2]}, "privacy_setting": "default"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let t0 = now_ms() - 3_000;
    let mut payload = push_payload(t0 + 1, t0);
    payload["future_field"] = json!({"anything": true});
    payload["errors"][0]["brandNewKey"] = json!([1, 2, 3]);
    payload["events"]["events"][0]["extra"] = json!("kept raw");
    let (status, body) = push(&app, t0 + 1, &payload).await;
    assert_eq!(
        (status, body),
        (200, json!({"data": {"pushSessionEvents": null}}))
    );
    let c = counts(&app).await;
    assert_eq!((c.replay_chunks, c.error_occurrences), (1, 1));
}

#[tokio::test]
async fn past_a_budget_the_recorder_is_told_billing_quota_exceeded() {
    // Per session: 4 KB of compressed pushes.
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.observability.session_budget_bytes = 4096
    })
    .await;
    init(&app, SESSION).await;
    let t0 = now_ms() - 3_000;
    // Letters from a xorshift generator: they do not compress much.
    let mut x: u32 = 2463534242;
    let noise: String = (0..3000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            char::from(b'a' + (x % 26) as u8)
        })
        .collect();
    let mut payload = push_payload(t0 + 1, t0);
    payload["pad"] = json!(noise);
    let (status, body) = push(&app, t0 + 1, &payload).await;
    assert_eq!(
        (status, body),
        (200, json!({"data": {"pushSessionEvents": null}}))
    );
    let before = counts(&app).await;
    let (status, body) = push(&app, t0 + 2, &payload).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({"data": null, "errors": [{"message": "BillingQuotaExceeded"}]})
    );
    assert_eq!(
        counts(&app).await,
        before,
        "nothing of the refused push was stored"
    );

    // Per client address: 8 KB an hour.
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.observability.ip_budget_bytes_per_hour = 8192
    })
    .await;
    let mut last = Value::Null;
    for i in 0..20 {
        let (_, body) = gql(
            &app,
            "initializeSession",
            json!({"session_secure_id": format!("S{i}"), "pad": "x".repeat(1000)}),
        )
        .await;
        last = body;
    }
    assert_eq!(
        last,
        json!({"data": null, "errors": [{"message": "BillingQuotaExceeded"}]})
    );
    assert!(counts(&app).await.sessions < 20);
}

/// Issue 14 §5: a visitor who knows a session's id cannot make it show as a member's;
/// `identifySession` carries no token, so it is kept as a claim only.
#[tokio::test]
async fn an_unauthenticated_identify_cannot_label_a_session_as_a_member() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |_| {}).await;
        let (op, victim) = operator_and_member(&app).await;
        let victim_id = member_id_of(&app, &victim).await;
        init(&app, SESSION).await;
        let (status, _) = gql(&app, "identifySession", json!({"session_secure_id": SESSION, "user_identifier": victim_id, "user_object": {"nickname": "parkminsu"}})).await;
        assert_eq!(status, 200, "the recorder gets its usual reply");

        let listed = get_json(
            &app,
            &format!("/api/operator/observe/sessions?member={victim_id}"),
            &op,
        )
        .await;
        assert_eq!(listed["sessions"], json!([]), "{backend:?}: {listed}");
        let s = &get_json(
            &app,
            &format!("/api/operator/observe/sessions/{SESSION}"),
            &op,
        )
        .await["session"];
        assert_eq!(s["member"], Value::Null, "{backend:?}: {s}");
        assert_eq!(s["user_object"], Value::Null);
        // Kept as what it is: a claim.
        assert_eq!(s["properties"]["claimed_user_identifier"], victim_id);
        assert!(s["properties"]["claimed_user_object"]
            .as_str()
            .unwrap()
            .contains("parkminsu"));

        // Nor can it relabel a session a member has bound.
        let other = signup(&app, "o@moat.example", "leeseoyeon").await;
        assert_eq!(bind(&app, SESSION, &other).await.status(), 204);
        gql(&app, "identifySession", json!({"session_secure_id": SESSION, "user_identifier": victim_id, "user_object": {"nickname": "parkminsu"}})).await;
        let s = &get_json(
            &app,
            &format!("/api/operator/observe/sessions/{SESSION}"),
            &op,
        )
        .await["session"];
        assert_eq!(s["member"], member_id_of(&app, &other).await, "{backend:?}");
        assert_eq!(s["user_object"]["nickname"], "leeseoyeon");
    }
}

/// The member's own token binds a session to them; another member's token cannot
/// take it over, and nothing changes when it tries.
#[tokio::test]
async fn a_members_own_binding_labels_the_session_and_another_member_cannot_take_it() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |_| {}).await;
        let (op, member) = operator_and_member(&app).await;
        let member_id = member_id_of(&app, &member).await;
        let intruder = signup(&app, "i@moat.example", "choiyuna").await;
        init(&app, SESSION).await;

        assert_eq!(
            bind(&app, SESSION, &member).await.status(),
            204,
            "{backend:?}"
        );
        let listed = get_json(
            &app,
            &format!("/api/operator/observe/sessions?member={member_id}"),
            &op,
        )
        .await;
        assert_eq!(
            listed["sessions"][0]["secure_id"], SESSION,
            "{backend:?}: {listed}"
        );
        assert_eq!(
            listed["sessions"][0]["user_object"]["nickname"],
            "parkminsu"
        );

        let e = assert_error(bind(&app, SESSION, &intruder).await, 409, "session_bound").await;
        assert!(e["message"].as_str().unwrap().contains("another member"));
        let s = &get_json(
            &app,
            &format!("/api/operator/observe/sessions/{SESSION}"),
            &op,
        )
        .await["session"];
        assert_eq!(s["member"], member_id, "{backend:?}: unchanged");
        assert_eq!(s["user_object"]["nickname"], "parkminsu");

        // The member binds again after a new nickname: the console shows it.
        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&member),
            Some(json!({"nickname": "parkminsu2"})),
        )
        .await;
        let member = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(bind(&app, SESSION, &member).await.status(), 204);
        let s = &get_json(
            &app,
            &format!("/api/operator/observe/sessions/{SESSION}"),
            &op,
        )
        .await["session"];
        assert_eq!(s["user_object"]["nickname"], "parkminsu2");

        // Bad input changes nothing.
        assert_error(bind(&app, SESSION, "").await, 401, "unauthenticated").await;
        assert_error(
            bind(&app, "NoSuchSession", &intruder).await,
            404,
            "not_found",
        )
        .await;
        assert_error(
            bind(&app, "bad%20id", &intruder).await,
            400,
            "invalid_parameter",
        )
        .await;
        assert_error(
            bind(&app, &"x".repeat(65), &intruder).await,
            400,
            "invalid_parameter",
        )
        .await;
        let intruder_id = member_id_of(&app, &intruder).await;
        let none = get_json(
            &app,
            &format!("/api/operator/observe/sessions?member={intruder_id}"),
            &op,
        )
        .await;
        assert_eq!(none["sessions"], json!([]), "{backend:?}");
    }
}

async fn operator_and_member(app: &TestApp) -> (String, String) {
    let operator = signup(app, "op@moat.example", "kimjiwoo").await;
    let member = signup(app, "m@moat.example", "parkminsu").await;
    (operator, member)
}

/// The member's user id, as the console names members.
async fn member_id_of(app: &TestApp, token: &str) -> String {
    get_json(app, "/api/me", token).await["user_id"].to_string()
}

/// `PUT /api/observe/sessions/{secure_id}/member` with `token` (or none).
async fn bind(app: &TestApp, secure_id: &str, token: &str) -> reqwest::Response {
    let path = format!("/api/observe/sessions/{secure_id}/member");
    send(
        app,
        Method::PUT,
        &path,
        Some(token).filter(|t| !t.is_empty()),
        None,
    )
    .await
}

async fn get_json(app: &TestApp, path: &str, token: &str) -> Value {
    let r = send(app, Method::GET, path, Some(token), None).await;
    assert_eq!(r.status(), 200, "{path}");
    r.json().await.unwrap()
}

#[tokio::test]
async fn the_console_reads_sessions_replays_errors_feedback_and_vitals() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |_| {}).await;
        let (op, member) = operator_and_member(&app).await;
        let member_id = member_id_of(&app, &member).await;
        init(&app, SESSION).await;
        gql(&app, "identifySession", json!({"session_secure_id": SESSION, "user_identifier": member_id, "user_object": {"nickname": "parkminsu"}})).await;
        assert_eq!(bind(&app, SESSION, &member).await.status(), 204);
        let t0 = now_ms() - 60_000;
        // The second chunk arrives first; events inside a chunk are out of order.
        push(
            &app,
            t0 + 20_000,
            &json!({"events": {"events": [
                {"type": 3, "data": {}, "timestamp": t0 + 20_500},
                {"type": 3, "data": {}, "timestamp": t0 + 20_100}
            ]}}),
        )
        .await;
        push(&app, t0 + 10_000, &push_payload(t0 + 10_000, t0)).await;
        gql(&app, "addSessionFeedback", json!({"session_secure_id": SESSION, "verbatim": "좋아요", "timestamp": chrono::Utc::now().to_rfc3339()})).await;
        for (name, value) in [
            ("LCP", 2000.0),
            ("LCP", 3000.0),
            ("LCP", 5000.0),
            ("LCP", 2400.0),
            ("CLS", 0.05),
        ] {
            gql(&app, "pushMetrics", json!({"metrics": [{"session_secure_id": SESSION, "name": name, "value": value, "category": "WebVital", "group": "https://moat.example/stocks/123", "timestamp": chrono::Utc::now().to_rfc3339()}]})).await;
        }

        let list = get_json(
            &app,
            &format!("/api/operator/observe/sessions?has_errors=true&member={member_id}"),
            &op,
        )
        .await;
        assert_eq!(
            list["sessions"].as_array().unwrap().len(),
            1,
            "{backend:?}: {list}"
        );
        let s = &list["sessions"][0];
        assert_eq!(s["secure_id"], SESSION);
        assert_eq!(s["member"], member_id);
        assert_eq!(s["user_object"]["nickname"], "parkminsu");
        assert_eq!(s["has_feedback"], true);
        assert_eq!(s["environment"], "production");
        assert_eq!(
            s["first_url"],
            "https://moat.example/portfolio?token=[REDACTED]"
        );
        let none = get_json(&app, "/api/operator/observe/sessions?member=7", &op).await;
        assert_eq!(none["sessions"], json!([]));
        let none = get_json(&app, "/api/operator/observe/sessions?from=2999-01-01", &op).await;
        assert_eq!(none["sessions"], json!([]));

        let replay = get_json(
            &app,
            &format!("/api/operator/observe/sessions/{SESSION}/replay"),
            &op,
        )
        .await;
        let times: Vec<i64> = replay["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["timestamp"].as_i64().unwrap())
            .collect();
        assert_eq!(
            times,
            [
                t0,
                t0 + 5,
                t0 + 1000,
                t0 + 1400,
                t0 + 1500,
                t0 + 20_100,
                t0 + 20_500
            ],
            "{backend:?}: by payload id, then timestamp"
        );
        assert_eq!(
            replay["events"][0]["data"]["width"], 390,
            "events are served as recorded"
        );
        assert_eq!(replay["next_after"], Value::Null, "one page holds it all");
        let total = replay["total_chunks"].as_i64().unwrap();
        assert!(total >= 2, "{backend:?}: {total} chunks");
        assert_eq!(replay["chunks"], total);

        // Page by page, one chunk each: the same events in the same order.
        let mut paged = Vec::new();
        let mut after: Option<i64> = None;
        let mut pages = 0;
        loop {
            let cursor = after.map(|a| format!("&after={a}")).unwrap_or_default();
            let page = get_json(
                &app,
                &format!("/api/operator/observe/sessions/{SESSION}/replay?limit=1{cursor}"),
                &op,
            )
            .await;
            pages += 1;
            assert_eq!(page["total_chunks"], total);
            paged.extend(
                page["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["timestamp"].as_i64().unwrap()),
            );
            match page["next_after"].as_i64() {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        assert_eq!(paged, times, "{backend:?}: pages in order");
        // The last full page is followed by an empty one.
        assert!(pages == total + 1, "{backend:?}: {pages} pages for {total}");
        for bad in ["limit=0", "limit=201", "limit=x", "after=soon"] {
            helpers::assert_error(
                send(
                    &app,
                    Method::GET,
                    &format!("/api/operator/observe/sessions/{SESSION}/replay?{bad}"),
                    Some(&op),
                    None,
                )
                .await,
                400,
                "invalid_parameter",
            )
            .await;
        }

        let detail = get_json(
            &app,
            &format!("/api/operator/observe/sessions/{SESSION}"),
            &op,
        )
        .await;
        let kinds: Vec<&str> = detail["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["kind"].as_str().unwrap())
            .collect();
        for kind in ["load", "navigate", "click", "console", "network", "error"] {
            assert!(kinds.contains(&kind), "{backend:?}: {kind} in {kinds:?}");
        }
        let network = detail["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["kind"] == "network")
            .unwrap();
        assert_eq!(
            network["detail"]["url"],
            "https://moat.example/api/me?access_token=[REDACTED]"
        );
        assert_eq!(
            network["detail"]["request_headers"]["Authorization"],
            "[REDACTED]"
        );
        assert_eq!(
            network["detail"]["response_headers"]["x-moat-token"],
            "[REDACTED]"
        );
        assert!(!network["detail"]["response_body"]
            .as_str()
            .unwrap()
            .contains("zzz"));
        let error = detail["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["kind"] == "error")
            .unwrap();
        assert_eq!(error["offset_ms"], 1700);

        let groups = get_json(&app, "/api/operator/observe/errors", &op).await;
        let g = &groups["groups"][0];
        assert_eq!(groups["groups"].as_array().unwrap().len(), 1, "{groups}");
        assert_eq!(
            (
                g["occurrences"].as_i64(),
                g["affected_sessions"].as_i64(),
                g["affected_members"].as_i64()
            ),
            (Some(1), Some(1), Some(1))
        );
        assert_eq!(g["sample_stack"][0]["functionName"], "renderPrice");
        let group = get_json(
            &app,
            &format!("/api/operator/observe/errors/{}", g["id"]),
            &op,
        )
        .await;
        assert_eq!(group["occurrences"][0]["session_secure_id"], SESSION);
        assert_eq!(group["occurrences"][0]["replay_offset_ms"], 1700);
        assert_eq!(group["members"], json!([member_id]));

        let feedback = get_json(&app, "/api/operator/observe/feedback", &op).await;
        assert_eq!(feedback["feedback"][0]["verbatim"], "좋아요");
        assert_eq!(feedback["feedback"][0]["session_secure_id"], SESSION);
        assert_eq!(feedback["feedback"][0]["member"], member_id);

        let vitals = get_json(&app, "/api/operator/observe/vitals", &op).await;
        let lcp = vitals["overall"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "LCP")
            .unwrap();
        assert_eq!(
            (lcp["p75"].as_f64(), lcp["samples"].as_i64()),
            (Some(3000.0), Some(4)),
            "{vitals}"
        );
        assert_eq!(lcp["rating"], "needs_improvement");
        assert_eq!(vitals["pages"][0]["page"], "/stocks/:id");
        let cls = vitals["overall"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "CLS")
            .unwrap();
        assert_eq!(cls["rating"], "good");
        assert!(vitals["thresholds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "INP" && t["good"] == 200.0 && t["poor"] == 500.0));
    }
}

#[tokio::test]
async fn the_drop_list_applies_on_ingest() {
    let app = spawn().await;
    init(&app, SESSION).await;
    let t0 = now_ms() - 3_000;
    let error_of = |kind: &str, event: &str, source: &str| {
        json!({"event": event, "type": kind, "url": "https://moat.example/", "source": source,
        "lineNumber": 1, "columnNumber": 1, "stackTrace": [], "timestamp": chrono::Utc::now().to_rfc3339()})
    };
    let error = |event: &str, source: &str| error_of("window.onerror", event, source);
    // Console errors as the client records them: the logged values, JSON-encoded.
    let console_error = |event: &str| error_of("console.error", event, "");
    let payload = json!({"events": {"events": []}, "errors": [
        error("TypeError: Failed to fetch", ""),
        error("ResizeObserver loop completed with undelivered notifications.", ""),
        error("ChunkLoadError: Loading chunk 3 failed.", ""),
        error("Cannot read properties of null", "chrome-extension://abc/inject.js"),
        error("유효하지 않은 세션입니다.", ""),
        error("QuotaExceededError: The quota has been exceeded.", ""),
        error("ReferenceError: holdings is not defined", "https://moat.example/assets/index-x.js"),
        console_error("\"Error: 로그인이 만료되었습니다. 다시 로그인해 주세요.\""),
        console_error("\"IS_FOCUSED_FROM_APP=TRUE\""),
        console_error("\"Network Error\""),
        console_error("\"portfolio 12 failed to load\" 500"),
    ]});
    push(&app, t0 + 1, &payload).await;
    let c = counts(&app).await;
    assert_eq!(
        (c.error_groups, c.error_occurrences),
        (2, 2),
        "only the real error and the real console error are kept"
    );

    // A crawler gets the usual replies and nothing is stored.
    let app = spawn().await;
    let bot = Some("Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)");
    let (status, body) = gql_as(
        &app,
        "initializeSession",
        json!({"session_secure_id": SESSION}),
        bot,
    )
    .await;
    assert_eq!(
        (status, &body["data"]["initializeSession"]["project_id"]),
        (200, &json!("1"))
    );
    let vars = json!({"session_secure_id": SESSION, "payload_id": (t0 + 1).to_string(), "data": gzip_b64(&push_payload(t0 + 1, t0))});
    let (status, body) = gql_as(&app, "PushSessionEvents", vars, bot).await;
    assert_eq!(
        (status, body),
        (200, json!({"data": {"pushSessionEvents": null}}))
    );
    assert_eq!(counts(&app).await, ObsCounts::default());
}

fn otlp_spans(trace_id: &str, start_ns: i64) -> Value {
    json!({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "moat-web"}}]},
        "scopeSpans": [{"scope": {"name": "@opentelemetry/instrumentation-fetch"}, "spans": [{
            "traceId": trace_id, "spanId": "00f067aa0ba902b7", "parentSpanId": "",
            "name": "HTTP GET", "kind": 3,
            "startTimeUnixNano": start_ns.to_string(), "endTimeUnixNano": (start_ns + 12_000_000).to_string(),
            "attributes": [
                {"key": "highlight.session_id", "value": {"stringValue": SESSION}},
                {"key": "http.url", "value": {"stringValue": "https://moat.example/api/me?token=abc"}},
                {"key": "http.status_code", "value": {"intValue": "200"}},
                {"key": "empty", "value": {}}
            ],
            "status": {"code": 0}
        }]}]
    }]})
}

#[tokio::test]
async fn otlp_json_and_protobuf_are_stored_and_linked_to_sessions() {
    for db in TestDatabase::all().await {
        let app = spawn_with(db, |_| {}).await;
        let (op, _) = operator_and_member(&app).await;
        let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
        let start_ns = now_ms() * 1_000_000;
        let r = app
            .client
            .post(app.url("/v1/traces"))
            .header("content-type", "application/json")
            .body(otlp_spans(trace_id, start_ns).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.json::<Value>().await.unwrap(), json!({}));

        let metrics = json!({"resourceMetrics": [{"resource": {"attributes": []}, "scopeMetrics": [{"metrics": [
            {"name": "INP", "gauge": {"dataPoints": [{"asDouble": 650, "timeUnixNano": start_ns.to_string(), "attributes": [
                {"key": "highlight.session_id", "value": {"stringValue": SESSION}},
                {"key": "url", "value": {"stringValue": "https://moat.example/portfolio"}}]}]}}
        ]}]}]});
        let r = app
            .client
            .post(app.url("/v1/metrics"))
            .header("content-type", "application/json")
            .body(metrics.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.json::<Value>().await.unwrap(), json!({}));

        // Protobuf, gzipped, from another OTLP sender.
        use opentelemetry_proto::tonic::{
            collector::trace::v1::ExportTraceServiceRequest,
            trace::v1::{ResourceSpans, ScopeSpans, Span},
        };
        use prost::Message;
        let req = ExportTraceServiceRequest {
            resource_spans: vec![ResourceSpans {
                scope_spans: vec![ScopeSpans {
                    spans: vec![Span {
                        trace_id: hex_bytes(trace_id),
                        span_id: vec![7; 8],
                        parent_span_id: hex_bytes("00f067aa0ba902b7"),
                        name: "child".into(),
                        start_time_unix_nano: (start_ns + 1_000_000) as u64,
                        end_time_unix_nano: (start_ns + 2_000_000) as u64,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&req.encode_to_vec()).unwrap();
        let r = app
            .client
            .post(app.url("/v1/traces"))
            .header("content-type", "application/x-protobuf")
            .header("content-encoding", "gzip")
            .body(gz.finish().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "application/x-protobuf");
        assert!(
            r.bytes().await.unwrap().is_empty(),
            "an empty ExportTraceServiceResponse"
        );

        let trace = get_json(
            &app,
            &format!("/api/operator/observe/traces/{trace_id}"),
            &op,
        )
        .await;
        let spans = trace["spans"].as_array().unwrap();
        assert_eq!(spans.len(), 2, "{trace}");
        assert_eq!(spans[0]["session_secure_id"], SESSION);
        assert_eq!(spans[0]["service"], "moat-web");
        assert_eq!(spans[0]["duration_ms"], 12.0);
        assert_eq!(
            spans[0]["attributes"]["http.url"],
            "https://moat.example/api/me?token=[REDACTED]"
        );
        assert_eq!(spans[1]["parent_span_id"], "00f067aa0ba902b7");
        assert_eq!(spans[1]["start_offset_ms"], 1.0);

        let vitals = get_json(&app, "/api/operator/observe/vitals", &op).await;
        let inp = &vitals["overall"][0];
        assert_eq!(
            (
                inp["name"].as_str(),
                inp["p75"].as_f64(),
                inp["rating"].as_str()
            ),
            (Some("INP"), Some(650.0), Some("poor"))
        );
        assert_eq!(vitals["pages"][0]["page"], "/portfolio");

        // Sending the same spans again stores nothing new.
        app.client
            .post(app.url("/v1/traces"))
            .header("content-type", "application/json")
            .body(otlp_spans(trace_id, start_ns).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(counts(&app).await.spans, 2);
    }
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[tokio::test]
async fn otlp_bad_input_is_refused() {
    let app = spawn().await;
    let post = |body: Vec<u8>, ct: &'static str, ce: Option<&'static str>| {
        let mut r = app
            .client
            .post(app.url("/v1/traces"))
            .header("content-type", ct)
            .body(body);
        if let Some(ce) = ce {
            r = r.header("content-encoding", ce);
        }
        r.send()
    };
    let cases: Vec<(Vec<u8>, &str, Option<&str>, u16)> = vec![
        (b"{not json".to_vec(), "application/json", None, 400),
        (b"[1,2]".to_vec(), "application/json", None, 400),
        (vec![0xff, 0xff, 0xff], "application/x-protobuf", None, 400),
        (b"x".to_vec(), "application/xml", None, 415),
        (b"{}".to_vec(), "application/json", Some("br"), 415),
        (b"not gzip".to_vec(), "application/json", Some("gzip"), 400),
        (vec![b' '; 300 * 1024], "application/json", None, 413),
        (
            ("[".repeat(5000) + &"]".repeat(5000)).into_bytes(),
            "application/json",
            None,
            400,
        ),
    ];
    for (body, ct, ce, status) in cases {
        let r = post(body, ct, ce).await.unwrap();
        assert_eq!(r.status().as_u16(), status, "{ct} {ce:?}");
        assert_eq!(r.headers()["content-type"], "application/json");
    }
    // Spans with unusable ids are skipped and reported.
    let r = app
        .client
        .post(app.url("/v1/traces"))
        .header("content-type", "application/json")
        .body(otlp_spans("not-a-trace-id", now_ms() * 1_000_000).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.json::<Value>().await.unwrap()["partialSuccess"]["rejectedSpans"],
        "1"
    );
    assert_eq!(counts(&app).await, ObsCounts::default());
}

#[tokio::test]
async fn an_overloaded_ingest_answers_503_with_retry_after() {
    use tokio::io::AsyncWriteExt;
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.observability.ingest_concurrency = 1
    })
    .await;
    // A client that announces a body and sends only part of it holds the one slot.
    let addr = app.base.trim_start_matches("http://").to_owned();
    let mut slow = tokio::net::TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{").await.unwrap();
    let observe = &app.state.observability.observe;
    wait_until("held by the slow request", || async move {
        observe.free_slots() == 0
    })
    .await;
    let r = app
        .client
        .post(app.url("/v1/metrics"))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 503);
    assert!(
        r.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= 1
    );
    let (status, body) = gql(&app, "Ignore", json!({"id": "1"})).await;
    assert_eq!(status, 503, "{body}");
    drop(slow);
    wait_until("given back by the dropped request", || async move {
        observe.free_slots() == 1
    })
    .await;
    let (status, _) = gql(&app, "Ignore", json!({"id": "1"})).await;
    assert_eq!(status, 200, "the slot is free again");
}

#[tokio::test]
async fn parallel_gzip_bombs_share_one_decompression_budget() {
    // Each bomb is a valid OTLP document behind whitespace that decompresses to just
    // under the per-request cap; two at once do not fit in the shared budget.
    const CAP: usize = 4 * 1024 * 1024;
    const BUDGET: usize = CAP + CAP / 4;
    const BOMBS: usize = 16;
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.observability.max_decompressed_bytes = CAP;
        c.observability.max_decompressed_in_flight_bytes = BUDGET;
        c.observability.ingest_concurrency = BOMBS;
    })
    .await;
    let mut doc = vec![b' '; CAP - 64];
    doc.extend_from_slice(br#"{"resourceSpans":[]}"#);
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(&doc).unwrap();
    let bomb = e.finish().unwrap();
    assert!(bomb.len() < 16 * 1024, "a bomb: {} bytes", bomb.len());
    let sends = (0..BOMBS).map(|_| {
        app.client
            .post(app.url("/v1/traces"))
            .header("content-type", "application/json")
            .header("content-encoding", "gzip")
            .body(bomb.clone())
            .send()
    });
    let (mut accepted, mut busy) = (0, 0);
    for r in futures_util::future::join_all(sends).await {
        let r = r.unwrap();
        match r.status().as_u16() {
            200 => accepted += 1,
            503 => {
                let retry = r
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_owned());
                assert!(
                    retry
                        .and_then(|v| v.parse::<u64>().ok())
                        .is_some_and(|s| s >= 1),
                    "a 503 says when to retry"
                );
                busy += 1;
            }
            other => panic!("{other}: {}", r.text().await.unwrap()),
        }
    }
    assert!(
        busy > 0,
        "past the shared budget bombs are refused ({accepted} of {BOMBS} accepted)"
    );
    let budget = &app.state.observability.observe.inflate;
    assert!(
        budget.peak() <= BUDGET,
        "never more than the budget decompressed at once: {}",
        budget.peak()
    );
    assert_eq!(budget.in_use(), 0, "every request gave its bytes back");

    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(
        otlp_spans("4bf92f3577b34da6a3ce929d0e0e4736", now_ms() * 1_000_000)
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let r = app
        .client
        .post(app.url("/v1/traces"))
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(e.finish().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "a normal push works afterwards");
    assert_eq!(counts(&app).await.spans, 1);
}

/// The spans of a trace as the console reads them, once `done` holds of them (spans
/// are written off the request path); what is there after [`PATIENCE`] otherwise.
async fn wait_for_trace(
    app: &TestApp,
    op: &str,
    trace_id: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut spans = Vec::new();
    while tokio::time::Instant::now() < deadline {
        let r = send(
            app,
            Method::GET,
            &format!("/api/operator/observe/traces/{trace_id}"),
            Some(op),
            None,
        )
        .await;
        if r.status() == 200 {
            let trace: Value = r.json().await.unwrap();
            spans = trace["spans"].as_array().cloned().unwrap_or_default();
            if done(&spans) {
                break;
            }
        }
        tokio::time::sleep(POLL_EVERY).await;
    }
    spans
}

#[tokio::test]
async fn an_api_request_with_traceparent_continues_the_browser_trace() {
    let app = spawn().await;
    let (op, _) = operator_and_member(&app).await;
    let trace_id = "0af7651916cd43dd8448eb211c80319c";
    let r = app
        .client
        .get(app.url("/api/meta"))
        .header("traceparent", format!("00-{trace_id}-b7ad6b7169203331-01"))
        .header("x-highlight-request", format!("{SESSION}/req42"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // Written off the request path: wait for it.
    let spans = wait_for_trace(&app, &op, trace_id, |spans| !spans.is_empty()).await;
    let span = &spans[0];
    assert_eq!(span["name"], "GET /api/meta", "{spans:?}");
    assert_eq!(span["parent_span_id"], "b7ad6b7169203331");
    assert_eq!(span["service"], "moat-server");
    assert_eq!(span["session_secure_id"], SESSION);
    assert_eq!(span["attributes"]["http.response.status_code"], 200);
    assert_eq!(span["attributes"]["highlight.request_id"], "req42");
    assert_eq!(span["span_id"].as_str().unwrap().len(), 16);

    // Without the header (or with a malformed one) no span is written.
    app.client
        .get(app.url("/api/meta"))
        .header("traceparent", "garbage")
        .send()
        .await
        .unwrap();
    app.client.get(app.url("/api/meta")).send().await.unwrap();
    // Spans are recorded before the response leaves and written in order: once a
    // later traced request's span is stored, any span of the untraced ones would be.
    let later = "5b8aa5a2d2c872e8321cf37308d69df2";
    let r = app
        .client
        .get(app.url("/api/meta"))
        .header("traceparent", format!("00-{later}-00f067aa0ba902b7-01"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let later_spans = wait_for_trace(&app, &op, later, |spans| !spans.is_empty()).await;
    assert!(
        !later_spans.is_empty(),
        "the later request's span is written"
    );
    let c = counts(&app).await;
    assert!(c.spans >= 1);
    let storage = app.db.storage().await;
    let traced = storage.obs_trace_spans(trace_id).await.unwrap();
    let servers = traced.iter().filter(|s| s.kind == 2).count();
    assert_eq!(
        servers, 1,
        "one request span: the untraced requests have none"
    );
    let later_stored = storage.obs_trace_spans(later).await.unwrap().len();
    assert_eq!(
        c.spans,
        (traced.len() + later_stored) as i64,
        "every stored span is of one of the two traced requests"
    );
}

#[tokio::test]
async fn a_traced_request_shows_its_database_work_as_child_spans() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |_| {}).await;
        let (op, member) = operator_and_member(&app).await;
        let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
        let r = app
            .client
            .get(app.url("/api/portfolios"))
            .bearer_auth(&member)
            .header("traceparent", format!("00-{trace_id}-00f067aa0ba902b7-01"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        // Written off the request path: wait for the request's span and its children.
        let spans = wait_for_trace(&app, &op, trace_id, |spans| {
            spans.iter().any(|s| s["name"] == "GET /api/portfolios")
                && spans.iter().any(|s| s["kind"] == 3)
        })
        .await;
        let request = spans
            .iter()
            .find(|s| s["name"] == "GET /api/portfolios")
            .unwrap_or_else(|| panic!("{backend:?}: no request span in {spans:?}"));
        assert_eq!(request["parent_span_id"], "00f067aa0ba902b7");
        let db: Vec<&Value> = spans
            .iter()
            .filter(|s| s["name"].as_str().is_some_and(|n| n.starts_with("db ")))
            .collect();
        assert!(
            !db.is_empty(),
            "{backend:?}: no database spans in {spans:?}"
        );
        let system = backend.as_str();
        for child in &db {
            assert_eq!(child["parent_span_id"], request["span_id"], "{child}");
            assert_eq!(child["kind"], 3, "CLIENT");
            assert_eq!(child["attributes"]["db.system"], system);
            assert_eq!(
                format!(
                    "db {}",
                    child["attributes"]["db.operation"].as_str().unwrap()
                ),
                child["name"].as_str().unwrap()
            );
            // Inside the request's span.
            let (start, end) = (
                child["start_offset_ms"].as_f64().unwrap(),
                child["start_offset_ms"].as_f64().unwrap() + child["duration_ms"].as_f64().unwrap(),
            );
            let (rs, re) = (
                request["start_offset_ms"].as_f64().unwrap(),
                request["start_offset_ms"].as_f64().unwrap()
                    + request["duration_ms"].as_f64().unwrap(),
            );
            assert!(
                start >= rs - 0.001 && end <= re + 0.001,
                "{child} within {request}"
            );
        }
        assert!(
            db.iter().any(|s| s["name"] == "db list_portfolios"),
            "{backend:?}: {db:?}"
        );
    }
}

#[tokio::test]
async fn only_operators_read_the_console() {
    let app = spawn().await;
    let (_, member) = operator_and_member(&app).await;
    for path in [
        "/api/operator/observe/sessions".to_owned(),
        format!("/api/operator/observe/sessions/{SESSION}"),
        format!("/api/operator/observe/sessions/{SESSION}/replay"),
        "/api/operator/observe/errors".to_owned(),
        "/api/operator/observe/errors/1".to_owned(),
        "/api/operator/observe/feedback".to_owned(),
        "/api/operator/observe/vitals".to_owned(),
        "/api/operator/observe/traces/0af7651916cd43dd8448eb211c80319c".to_owned(),
    ] {
        helpers::assert_error(
            send(&app, Method::GET, &path, Some(&member), None).await,
            403,
            "forbidden",
        )
        .await;
        helpers::assert_error(
            send(&app, Method::GET, &path, None, None).await,
            401,
            "unauthenticated",
        )
        .await;
    }
}

#[tokio::test]
async fn the_console_refuses_bad_parameters() {
    let app = spawn().await;
    let (op, _) = operator_and_member(&app).await;
    for (path, status, code) in [
        (
            "/api/operator/observe/sessions?limit=0",
            400,
            "invalid_parameter",
        ),
        (
            "/api/operator/observe/sessions?has_errors=maybe",
            400,
            "invalid_parameter",
        ),
        (
            "/api/operator/observe/sessions?from=yesterday",
            400,
            "invalid_parameter",
        ),
        ("/api/operator/observe/errors/abc", 400, "invalid_parameter"),
        ("/api/operator/observe/errors/99", 404, "not_found"),
        ("/api/operator/observe/sessions/nope", 404, "not_found"),
        ("/api/operator/observe/traces/xyz", 400, "invalid_parameter"),
        (
            "/api/operator/observe/traces/0af7651916cd43dd8448eb211c80319c",
            404,
            "not_found",
        ),
        (
            "/api/operator/observe/vitals?from=2030-01-02&to=2030-01-01",
            400,
            "invalid_parameter",
        ),
    ] {
        helpers::assert_error(
            send(&app, Method::GET, path, Some(&op), None).await,
            status,
            code,
        )
        .await;
    }
}

#[tokio::test]
async fn retention_purges_data_older_than_the_cutoff() {
    let app = spawn().await;
    init(&app, SESSION).await;
    let t0 = now_ms() - 3_000;
    push(&app, t0 + 1, &push_payload(t0 + 1, t0)).await;
    gql(&app, "addSessionFeedback", json!({"session_secure_id": SESSION, "verbatim": "x", "timestamp": chrono::Utc::now().to_rfc3339()})).await;
    gql(&app, "pushMetrics", json!({"metrics": [{"session_secure_id": SESSION, "name": "FCP", "value": 900, "timestamp": chrono::Utc::now().to_rfc3339()}]})).await;
    app.client
        .post(app.url("/v1/traces"))
        .header("content-type", "application/json")
        .body(otlp_spans("4bf92f3577b34da6a3ce929d0e0e4736", now_ms() * 1_000_000).to_string())
        .send()
        .await
        .unwrap();
    let storage = app.db.storage().await;
    let before = storage.obs_counts().await.unwrap();
    assert!(before.sessions == 1 && before.data_rows() > 5, "{before:?}");

    // A cut-off 30 days back keeps today's data.
    let kept = moat_server::observability::retention::purge_before(
        storage.as_ref(),
        moat_server::observability::retention::cutoff(now_ms(), 30),
    )
    .await
    .unwrap();
    assert_eq!(kept, 0);
    assert_eq!(storage.obs_counts().await.unwrap(), before);
    // A cut-off in the future removes everything, in batches.
    let purged =
        moat_server::observability::retention::purge_before(storage.as_ref(), now_ms() + 60_000)
            .await
            .unwrap();
    assert_eq!(purged as i64, before.sessions + before.data_rows());
    assert_eq!(storage.obs_counts().await.unwrap(), ObsCounts::default());
}

/// Issue 17 §5: feedback works without the recorder. `POST /api/feedback` stores a
/// visitor's and a member's feedback in the same store the operator reads (a member's
/// bound to them by the token), refuses bad input with field codes and stores nothing
/// then, refuses a bad token, and limits each address to its hourly allowance.
#[tokio::test]
async fn feedback_without_the_recorder_reaches_the_operator() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |_| {}).await;
        let (op, member) = operator_and_member(&app).await;
        let member_id = member_id_of(&app, &member).await;

        let visitor = send(
            &app,
            Method::POST,
            "/api/feedback",
            None,
            Some(json!({"verbatim": "  차트가 느려요  ", "user_email": "ant@example.com"})),
        )
        .await;
        assert_eq!(
            visitor.status(),
            204,
            "{backend:?}: {}",
            visitor.text().await.unwrap()
        );
        let theirs = send(
            &app,
            Method::POST,
            "/api/feedback",
            Some(&member),
            Some(json!({"verbatim": "배당 달력이 좋아요", "user_name": "민수"})),
        )
        .await;
        assert_eq!(theirs.status(), 204, "{backend:?}");

        let listed = get_json(&app, "/api/operator/observe/feedback", &op).await;
        let feedback = listed["feedback"].as_array().unwrap();
        assert_eq!(feedback.len(), 2, "{backend:?}: {listed}");
        let (newest, oldest) = (&feedback[0], &feedback[1]);
        assert_eq!(newest["verbatim"], "배당 달력이 좋아요");
        assert_eq!(
            newest["member"],
            json!(member_id),
            "{backend:?}: bound to the member by the token"
        );
        assert_eq!(newest["user_name"], "민수");
        assert_eq!(oldest["verbatim"], "차트가 느려요", "trimmed");
        assert_eq!(oldest["member"], Value::Null, "a visitor's is nobody's");
        assert_eq!(oldest["user_email"], "ant@example.com");
        // The member's feedback is found by member, as a session with feedback.
        let sessions = get_json(
            &app,
            &format!("/api/operator/observe/sessions?member={member_id}&has_feedback=true"),
            &op,
        )
        .await;
        assert_eq!(
            sessions["sessions"].as_array().unwrap().len(),
            1,
            "{backend:?}: {sessions}"
        );

        // Bad input: a clear 422 with the field's code; nothing stored.
        for (body, field, code) in [
            (json!({"verbatim": "   "}), "verbatim", "required"),
            (
                json!({"verbatim": "가".repeat(4001)}),
                "verbatim",
                "too_long",
            ),
            (
                json!({"verbatim": "ok", "user_email": "not an address"}),
                "user_email",
                "email_invalid",
            ),
            (
                json!({"verbatim": "ok", "user_name": "x".repeat(201)}),
                "user_name",
                "too_long",
            ),
        ] {
            let r = send(&app, Method::POST, "/api/feedback", None, Some(body)).await;
            let e = assert_error(r, 422, "invalid_input").await;
            assert_eq!(helpers::field_code(&e, field), code, "{backend:?}: {e}");
        }
        let r = send(
            &app,
            Method::POST,
            "/api/feedback",
            None,
            Some(json!({"verbatim": "ok", "extra": 1})),
        )
        .await;
        assert_eq!(r.status(), 422, "{backend:?}: unknown fields are refused");
        let r = send(
            &app,
            Method::POST,
            "/api/feedback",
            None,
            Some(json!(["ok"])),
        )
        .await;
        assert_eq!(r.status(), 422);
        let r = send(
            &app,
            Method::POST,
            "/api/feedback",
            Some("not-a-token"),
            Some(json!({"verbatim": "ok"})),
        )
        .await;
        assert_error(r, 401, "token_invalid").await;
        assert_eq!(
            counts(&app).await.feedback,
            2,
            "{backend:?}: refused requests stored nothing"
        );

        // The address's allowance: 10 an hour (two used above), then 429 with Retry-After.
        for _ in 2..10 {
            let r = send(
                &app,
                Method::POST,
                "/api/feedback",
                None,
                Some(json!({"verbatim": "again"})),
            )
            .await;
            assert_eq!(r.status(), 204, "{backend:?}");
        }
        let r = send(
            &app,
            Method::POST,
            "/api/feedback",
            None,
            Some(json!({"verbatim": "one too many"})),
        )
        .await;
        assert!(r.headers().contains_key("retry-after"), "{backend:?}");
        assert_error(r, 429, "rate_limited").await;
        assert_eq!(counts(&app).await.feedback, 10, "{backend:?}");
    }
}
