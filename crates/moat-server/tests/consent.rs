//! Consent to the terms and the privacy policy (docs/accounts.md): operators publish
//! versions, a sign-up accepts the current ones, a new version is asked for again.

mod helpers;

use helpers::{assert_error, field_code, send, signup, TestApp, PASSWORD};
use reqwest::Method;
use serde_json::{json, Value};

async fn publish(app: &TestApp, operator: &str, kind: &str, body: &str) -> Value {
    let r = send(
        app,
        Method::PUT,
        &format!("/api/admin/legal/{kind}"),
        Some(operator),
        Some(json!({ "body": body })),
    )
    .await;
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

async fn me(app: &TestApp, token: &str) -> Value {
    send(app, Method::GET, "/api/me", Some(token), None)
        .await
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn without_published_documents_nothing_is_asked() {
    let app = TestApp::spawn().await;
    let legal: Value = app.get("/api/legal").await.json().await.unwrap();
    assert_eq!(legal, json!([]));
    let token = signup(&app, "op@moat.test", "operator1").await;
    assert_eq!(me(&app, &token).await["consent_required"], json!([]));
}

#[tokio::test]
async fn a_sign_up_accepts_the_current_versions_and_a_new_version_is_asked_again() {
    let app = TestApp::spawn().await;
    let operator = signup(&app, "op@moat.test", "operator1").await;
    let terms = publish(&app, &operator, "terms", "Terms, first version.").await;
    assert_eq!(terms["version"], 1);
    publish(&app, &operator, "privacy", "Privacy, first version.").await;
    let legal: Value = app.get("/api/legal").await.json().await.unwrap();
    assert_eq!(legal.as_array().unwrap().len(), 2);
    assert_eq!(legal[0]["kind"], "terms");
    assert_eq!(legal[0]["body"], "Terms, first version.");

    // Without accepting both, no account.
    let refused = send(
        &app,
        Method::POST,
        "/api/auth/signup",
        None,
        Some(json!({
            "email": "ant@moat.test", "password": PASSWORD, "nickname": "ant",
            "consents": [{"kind": "terms", "version": 1}],
        })),
    )
    .await;
    let e = assert_error(refused, 422, "invalid_input").await;
    assert_eq!(field_code(&e, "consents"), "consent_required");
    assert_eq!(e["fields"]["consents"]["params"]["kinds"], "privacy");

    let r = send(
        &app,
        Method::POST,
        "/api/auth/signup",
        None,
        Some(json!({
            "email": "ant@moat.test", "password": PASSWORD, "nickname": "ant",
            "consents": [{"kind": "terms", "version": 1}, {"kind": "privacy", "version": 1}],
        })),
    )
    .await;
    assert_eq!(r.status(), 201);
    let token = r.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(me(&app, &token).await["consent_required"], json!([]));

    // A new version of the terms: asked again; an old version does not answer it.
    publish(&app, &operator, "terms", "Terms, second version.").await;
    assert_eq!(me(&app, &token).await["consent_required"], json!(["terms"]));
    let stale = send(
        &app,
        Method::POST,
        "/api/me/consents",
        Some(&token),
        Some(json!({"consents": [{"kind": "terms", "version": 1}]})),
    )
    .await;
    assert_error(stale, 422, "invalid_input").await;
    let ok = send(
        &app,
        Method::POST,
        "/api/me/consents",
        Some(&token),
        Some(json!({"consents": [{"kind": "terms", "version": 2}]})),
    )
    .await;
    assert_eq!(ok.status(), 200);
    assert_eq!(
        ok.json::<Value>().await.unwrap()["consent_required"],
        json!([])
    );

    let export: Value = send(&app, Method::GET, "/api/me/export", Some(&token), None)
        .await
        .json()
        .await
        .unwrap();
    let consents = export["consents"].as_array().cloned().unwrap_or_default();
    assert_eq!(consents.len(), 3, "{export}");
}

#[tokio::test]
async fn only_operators_publish_and_only_known_documents() {
    let app = TestApp::spawn().await;
    let operator = signup(&app, "op@moat.test", "operator1").await;
    let member = signup(&app, "ant@moat.test", "ant").await;
    let r = send(
        &app,
        Method::PUT,
        "/api/admin/legal/terms",
        Some(&member),
        Some(json!({"body": "x"})),
    )
    .await;
    assert_error(r, 403, "forbidden").await;
    let r = send(
        &app,
        Method::PUT,
        "/api/admin/legal/cookies",
        Some(&operator),
        Some(json!({"body": "x"})),
    )
    .await;
    assert_error(r, 404, "not_found").await;
    let r = send(
        &app,
        Method::PUT,
        "/api/admin/legal/terms",
        Some(&operator),
        Some(json!({"body": "   "})),
    )
    .await;
    let e = assert_error(r, 422, "invalid_input").await;
    assert_eq!(field_code(&e, "body"), "required");
}
