//! The server seen from outside: health, errors, limits, headers, the OpenAPI document.

mod helpers;

use helpers::{assert_error, TestApp};
use moat_storage::testing::TestDatabase;

#[tokio::test]
async fn healthz_answers_ok() {
    let app = TestApp::spawn().await;
    let r = app.get("/healthz").await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<serde_json::Value>().await.unwrap()["status"], "ok");
}

#[tokio::test]
async fn readyz_reports_the_database_and_migrations_on_every_backend() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |_| {}).await;
        let r = app.get("/readyz").await;
        assert_eq!(r.status(), 200, "{backend:?}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["status"], "ready");
        assert_eq!(body["database"], backend.as_str());
        assert!(body["migrations"].as_u64().unwrap() >= 1);
    }
}

#[tokio::test]
async fn readyz_is_503_when_the_schema_is_behind() {
    let app = TestApp::spawn().await;
    // Another process rolls the schema record back under the running server.
    let storage = moat_storage::SqliteStorage::connect(&app.db.url, &Default::default())
        .await
        .unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations")
        .execute(storage.pool())
        .await
        .unwrap();
    assert_error(app.get("/readyz").await, 503, "not_ready").await;
    assert_eq!(
        app.get("/healthz").await.status(),
        200,
        "alive but not ready"
    );
}

#[tokio::test]
async fn meta_tells_version_clock_and_defaults() {
    let app = TestApp::spawn().await;
    let body: serde_json::Value = app.get("/api/meta").await.json().await.unwrap();
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(body["default_locale"], "ko");
    assert_eq!(body["webview_host_enabled"], true);
    let server_time =
        chrono::DateTime::parse_from_rfc3339(body["server_time"].as_str().unwrap()).unwrap();
    let skew = (chrono::Utc::now() - server_time.with_timezone(&chrono::Utc))
        .num_seconds()
        .abs();
    assert!(skew < 5, "server_time is now");
    assert_eq!(
        body["contact_email"],
        serde_json::Value::Null,
        "no contact unless configured"
    );

    let app = TestApp::spawn_with(TestDatabase::sqlite(), |c| {
        c.contact_email = " help@moat.example ".into();
    })
    .await;
    let body: serde_json::Value = app.get("/api/meta").await.json().await.unwrap();
    assert_eq!(body["contact_email"], "help@moat.example");
}

#[tokio::test]
async fn an_unknown_api_route_is_a_404_in_the_error_shape() {
    let app = TestApp::spawn().await;
    for path in ["/api/nope", "/api/", "/api/deeply/nested/thing"] {
        assert_error(app.get(path).await, 404, "not_found").await;
    }
    let r = app
        .client
        .delete(app.url("/api/nope"))
        .send()
        .await
        .unwrap();
    assert_error(r, 404, "not_found").await;
}

#[tokio::test]
async fn a_wrong_method_is_a_405_in_the_error_shape() {
    let app = TestApp::spawn().await;
    assert_error(
        app.post_json("/api/meta", "{}").await,
        405,
        "method_not_allowed",
    )
    .await;
}

#[tokio::test]
async fn an_oversized_body_is_a_413_before_it_is_read() {
    let app = TestApp::spawn().await;
    let big = "x".repeat(64 * 1024 + 1);
    let body = assert_error(
        app.post_json("/api/meta", &big).await,
        413,
        "payload_too_large",
    )
    .await;
    assert!(
        body["message"].as_str().unwrap().contains("65536"),
        "{body}"
    );
    // The server is unharmed.
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn a_client_request_id_is_echoed_and_one_is_made_otherwise() {
    let app = TestApp::spawn().await;
    let r = app
        .client
        .get(app.url("/api/nope"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "abc-123");
    let r = app.get("/healthz").await;
    let id = r.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(id.len(), 36, "a UUID: {id}");
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::spawn().await;
    for path in ["/", "/api/meta", "/assets/index-abc123.js", "/api/nope"] {
        let r = app.get(path).await;
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("worker-src 'self' blob:"), "{path}");
        assert!(csp.contains("frame-ancestors 'self'"), "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            h["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        assert_eq!(h["x-frame-options"], "SAMEORIGIN", "{path}");
    }
}

#[tokio::test]
async fn the_openapi_document_is_3_1_and_describes_the_api() {
    let app = TestApp::spawn().await;
    let doc: serde_json::Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    for path in ["/api/meta", "/healthz", "/readyz"] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
}

#[tokio::test]
async fn the_web_app_types_are_generated_from_the_current_openapi_document() {
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/src/shared/api/openapi.json");
    let committed =
        std::fs::read_to_string(&committed).expect("web/src/shared/api/openapi.json is committed");
    let current = moat_server::http::openapi_json();
    assert!(
        committed.trim_end() == current.trim_end(),
        "the API changed: run `scripts/gen-api.sh` to regenerate web/src/shared/api/openapi.json and schema.d.ts"
    );
}

#[tokio::test]
async fn shutdown_drains_and_stops() {
    let app = TestApp::spawn().await;
    assert_eq!(app.get("/healthz").await.status(), 200);
    let url = app.url("/healthz");
    app.stop().await.expect("clean stop");
    assert!(reqwest::get(url).await.is_err());
}

#[cfg(unix)]
#[tokio::test]
async fn the_data_directory_and_the_database_are_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("moat-data");
    let app = TestApp::spawn_with(TestDatabase::sqlite(), |c| {
        // SQLite in a data directory the server creates itself.
        c.data_dir = data.clone();
        c.database_url = String::new();
    })
    .await;
    helpers::signup(&app, "owner@moat.test", "owner").await;
    let mode = |p: &std::path::Path| {
        std::fs::metadata(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(&data), 0o700, "the data directory");
    for file in ["moat.db", "moat.db-wal", "moat.db-shm", "token-key"] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
}

#[tokio::test]
async fn api_responses_to_requests_with_credentials_are_never_stored() {
    let app = TestApp::spawn().await;
    let token = helpers::signup(&app, "cache@moat.test", "cache").await;
    let cache_control = |r: &reqwest::Response| {
        r.headers()
            .get("cache-control")
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let get = |path: &'static str| app.client.get(app.url(path));
    let cases: Vec<(&str, reqwest::RequestBuilder, Option<&str>)> = vec![
        (
            "the member's own data",
            get("/api/me").bearer_auth(&token),
            Some("no-store"),
        ),
        (
            "the member's export",
            get("/api/me/export").bearer_auth(&token),
            Some("no-store"),
        ),
        (
            "a public route asked with a token",
            get("/api/meta").bearer_auth(&token),
            Some("no-store"),
        ),
        (
            "a member's list",
            get("/api/portfolios").bearer_auth(&token),
            Some("no-store"),
        ),
        (
            "a request with a cookie",
            get("/api/meta").header("cookie", "session=x"),
            Some("no-store"),
        ),
        ("/api/me without a token", get("/api/me"), Some("no-store")),
        ("a public route asked anonymously", get("/api/meta"), None),
    ];
    for (what, request, expected) in cases {
        let r = request.send().await.unwrap();
        assert_eq!(cache_control(&r).as_deref(), expected, "{what}");
    }
}

#[tokio::test]
async fn a_json_array_where_an_object_is_expected_is_refused_and_changes_nothing() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |_| {}).await;
        let token = helpers::signup(&app, "shape@moat.test", "shape").await;
        let r = helpers::send(
            &app,
            reqwest::Method::POST,
            "/api/portfolios",
            Some(&token),
            Some(serde_json::json!({"name": "연금", "base_currency": "KRW"})),
        )
        .await;
        assert_eq!(r.status(), 201, "{backend:?}");
        let created: serde_json::Value = r.json().await.unwrap();
        let path = format!("/api/portfolios/{}", created["id"]);
        let cases = [
            (serde_json::json!([null, null]), "an array for the body"),
            (
                serde_json::json!({"orderable_cash": ["1000", "KRW", null]}),
                "an array for a nested object",
            ),
            (
                serde_json::json!(["renamed", null, null, null]),
                "an array of the fields in order",
            ),
        ];
        for (body, what) in cases {
            let r = helpers::send(
                &app,
                reqwest::Method::PATCH,
                &path,
                Some(&token),
                Some(body),
            )
            .await;
            let error = assert_error(r, 422, "invalid_body").await;
            assert!(
                error["message"]
                    .as_str()
                    .unwrap()
                    .contains("invalid type: sequence"),
                "{backend:?} {what}: {error}"
            );
        }
        let r = helpers::send(&app, reqwest::Method::GET, &path, Some(&token), None).await;
        let after: serde_json::Value = r.json().await.unwrap();
        assert_eq!(after["name"], "연금", "{backend:?}: nothing changed");
        assert_eq!(
            after["orderable_cash"],
            serde_json::Value::Null,
            "{backend:?}"
        );
        let r = helpers::send(
            &app,
            reqwest::Method::PATCH,
            &path,
            Some(&token),
            Some(serde_json::json!({"name": "노후", "orderable_cash": {"amount": "1000", "currency": "KRW"}})),
        )
        .await;
        assert_eq!(r.status(), 200, "{backend:?}: objects still work");
    }
}

/// Whether `schema` says what a body holds: a `$ref`, or a `type` whose objects list
/// their properties (or the type of their values) and whose arrays type their items.
/// An empty schema `{}`, a bare `type: object` or a missing schema does not.
fn is_typed(schema: &serde_json::Value) -> bool {
    let Some(s) = schema.as_object().filter(|s| !s.is_empty()) else {
        return false;
    };
    if s.contains_key("$ref") {
        return true;
    }
    if let Some(parts) = ["oneOf", "anyOf", "allOf"].iter().find_map(|k| s.get(*k)) {
        return parts
            .as_array()
            .is_some_and(|p| !p.is_empty() && p.iter().all(is_typed));
    }
    let types: Vec<&str> = match s.get("type") {
        Some(serde_json::Value::String(t)) => vec![t.as_str()],
        Some(serde_json::Value::Array(ts)) => ts.iter().filter_map(|t| t.as_str()).collect(),
        _ => return false,
    };
    types.iter().all(|t| match *t {
        "object" => {
            s.get("properties")
                .and_then(|p| p.as_object())
                .is_some_and(|p| !p.is_empty())
                || s.get("additionalProperties").is_some_and(|a| a.is_object())
        }
        "array" => s.get("items").is_some_and(is_typed),
        _ => true,
    })
}

/// The untyped properties of `schema` and of the components it refers to, as
/// `Name.field` paths (each component visited once).
fn untyped_properties(
    doc: &serde_json::Value,
    schema: &serde_json::Value,
    at: &str,
    seen: &mut std::collections::HashSet<String>,
    out: &mut Vec<String>,
) {
    if let Some(name) = schema["$ref"]
        .as_str()
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
    {
        if seen.insert(name.to_owned()) {
            let target = &doc["components"]["schemas"][name];
            untyped_properties(doc, target, name, seen, out);
        }
        return;
    }
    if let Some(props) = schema["properties"].as_object() {
        for (field, prop) in props {
            let here = format!("{at}.{field}");
            if !is_typed(prop) {
                out.push(here.clone());
            }
            untyped_properties(doc, prop, &here, seen, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if schema[key].is_object() {
            untyped_properties(doc, &schema[key], &format!("{at}[]"), seen, out);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for part in schema[key].as_array().into_iter().flatten() {
            untyped_properties(doc, part, at, seen, out);
        }
    }
}

#[test]
fn every_json_body_in_the_openapi_document_is_typed() {
    let doc: serde_json::Value = serde_json::from_str(&moat_server::http::openapi_json()).unwrap();
    let mut untyped = Vec::new();
    let mut untyped_portfolio_fields = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut bodies = 0;
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let Some(responses) = op["responses"].as_object() else {
                continue;
            };
            let portfolio = op["tags"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "portfolio"));
            let request = op["requestBody"]["content"]
                .get("application/json")
                .map(|c| ("request".to_owned(), c));
            let answers = responses.iter().filter_map(|(status, r)| {
                r["content"]
                    .get("application/json")
                    .map(|c| (status.clone(), c))
            });
            for (which, content) in request.into_iter().chain(answers) {
                bodies += 1;
                let schema = &content["schema"];
                if !is_typed(schema) {
                    untyped.push(format!(
                        "{} {path} {which}: {schema}",
                        method.to_uppercase()
                    ));
                } else if portfolio {
                    untyped_properties(&doc, schema, "", &mut seen, &mut untyped_portfolio_fields);
                }
            }
        }
    }
    assert!(bodies > 50, "the walk found the JSON bodies ({bodies})");
    assert!(
        untyped.is_empty(),
        "JSON bodies without a typed schema:\n{}",
        untyped.join("\n")
    );
    assert!(
        untyped_portfolio_fields.is_empty(),
        "untyped fields in the portfolio area's bodies:\n{}",
        untyped_portfolio_fields.join("\n")
    );
}
