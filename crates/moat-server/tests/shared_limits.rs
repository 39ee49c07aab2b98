//! The limits shared through the database (issue 18, docs/scale-out.md "Shared
//! limits"), over real HTTP: two servers on one database (PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set, and SQLite) see one log-in back-off, one sign-up
//! allowance and one feedback budget; a server restarted on the same database still
//! refuses.

mod helpers;

use std::sync::Arc;

use base64::Engine;
use helpers::{assert_error, login, send, signup, TestApp, PASSWORD};
use moat_server::{
    accounts::rate_limit::{FIRST_BACKOFF, FREE_LOGIN_FAILURES},
    clock::ManualClock,
    observability::service::FEEDBACK_PER_IP_PER_HOUR,
};
use moat_storage::testing::TestDatabase;
use reqwest::{Method, Response};
use serde_json::json;

/// Sign-ups each address may make per hour in these tests.
const SIGNUPS: u32 = 3;

/// An instance on `db`, reading `clock`, with the key every instance shares.
async fn instance(db: TestDatabase, clock: &Arc<ManualClock>) -> TestApp {
    TestApp::spawn_with_clock(
        db,
        |c| {
            c.accounts.token_key = base64::engine::general_purpose::STANDARD
                .encode([42u8; 32])
                .into();
            c.accounts.signups_per_ip_per_hour = SIGNUPS;
        },
        clock.clone(),
    )
    .await
}

fn retry_after(r: &Response) -> u64 {
    r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn two_servers_on_one_database_share_the_back_off_the_sign_ups_and_the_budgets() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let clock = Arc::new(ManualClock::starting_now());
        let other = db.shared();
        let a = instance(db, &clock).await;
        let b = instance(other, &clock).await;
        let servers = [&a, &b];

        signup(&a, "ant@x.io", "ant").await;
        // The free failures, taken in turns on both servers, are shared.
        for i in 0..FREE_LOGIN_FAILURES as usize {
            let r = login(servers[i % 2], "ant@x.io", "wrong password!").await;
            assert_error(r, 401, "invalid_credentials").await;
        }
        for app in servers {
            let r = login(app, "ant@x.io", PASSWORD).await;
            assert_eq!(retry_after(&r), FIRST_BACKOFF.as_secs(), "{backend:?}");
            assert_error(r, 429, "rate_limited").await;
        }
        // The wait over, the right password on B clears the count for A too.
        clock.advance(FIRST_BACKOFF);
        assert_eq!(login(&b, "ant@x.io", PASSWORD).await.status(), 200);
        for _ in 0..FREE_LOGIN_FAILURES {
            assert_eq!(login(&a, "ant@x.io", "wrong!").await.status(), 401);
        }

        // One sign-up allowance per address across both (one is used above).
        signup(&b, "bee@x.io", "bee").await;
        signup(&a, "cat@x.io", "cat").await;
        for app in servers {
            let r = send(
                app,
                Method::POST,
                "/api/auth/signup",
                None,
                Some(json!({"email": "dog@x.io", "password": PASSWORD, "nickname": "dog"})),
            )
            .await;
            assert_error(r, 429, "rate_limited").await;
        }

        // One feedback budget per address across both.
        for i in 0..FEEDBACK_PER_IP_PER_HOUR as usize {
            let r = send(
                servers[i % 2],
                Method::POST,
                "/api/feedback",
                None,
                Some(json!({"verbatim": format!("note {i}")})),
            )
            .await;
            assert!(r.status().is_success(), "{backend:?}: {}", r.status());
        }
        for app in servers {
            let r = send(
                app,
                Method::POST,
                "/api/feedback",
                None,
                Some(json!({"verbatim": "one too many"})),
            )
            .await;
            assert_error(r, 429, "rate_limited").await;
        }
        drop(b);
    }
}

#[tokio::test]
async fn a_restarted_server_still_refuses() {
    let db = TestDatabase::sqlite();
    let clock = Arc::new(ManualClock::starting_now());
    let first = instance(db.shared(), &clock).await;
    signup(&first, "ant@x.io", "ant").await;
    for _ in 0..FREE_LOGIN_FAILURES {
        let r = login(&first, "ant@x.io", "wrong password!").await;
        assert_error(r, 401, "invalid_credentials").await;
    }
    first.stop().await.unwrap();

    let restarted = instance(db.shared(), &clock).await;
    let r = login(&restarted, "ant@x.io", PASSWORD).await;
    assert_eq!(retry_after(&r), FIRST_BACKOFF.as_secs());
    assert_error(r, 429, "rate_limited").await;
    clock.advance(FIRST_BACKOFF);
    assert_eq!(login(&restarted, "ant@x.io", PASSWORD).await.status(), 200);
    drop(restarted);
    drop(db);
}

#[tokio::test]
async fn when_the_limits_cannot_be_read_attempts_are_refused_not_let_through() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let clock = Arc::new(ManualClock::starting_now());
        let app = instance(db.shared(), &clock).await;
        signup(&app, "ant@x.io", "ant").await;
        // The limits' tables are gone behind the servers' back.
        db.execute_raw(
            "DROP TABLE limit_failures; DROP TABLE limit_windows; DROP TABLE limit_budgets",
        )
        .await;
        let r = login(&app, "ant@x.io", PASSWORD).await;
        assert_error(r, 500, "internal_error").await;
        let r = send(
            &app,
            Method::POST,
            "/api/auth/signup",
            None,
            Some(json!({"email": "bee@x.io", "password": PASSWORD, "nickname": "bee"})),
        )
        .await;
        assert_error(r, 500, "internal_error").await;
        let r = send(
            &app,
            Method::POST,
            "/api/feedback",
            None,
            Some(json!({"verbatim": "hello"})),
        )
        .await;
        assert_error(r, 500, "internal_error").await;
        // The ingest answers "busy, retry later".
        let r = app
            .client
            .post(app.url("/v1/traces"))
            .header("content-type", "application/json")
            .body(json!({"resourceSpans": []}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 503, "{backend:?}");
        assert!(r.headers().contains_key("retry-after"));
        let body = json!({"operationName": "initializeSession", "query": "mutation initializeSession { x }", "variables": {}});
        let r = app
            .client
            .post(app.url("/public"))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 503, "{backend:?}");
        drop(app);
    }
}
