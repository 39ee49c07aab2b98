//! The live hub over a real WebSocket (docs/stream.md): visitors and members, the
//! `auth` op, private `member:{id}:…` topics, revocation close codes, `seq` and `gap`.
//! Tests that touch accounts run on SQLite and, with `MOAT_TEST_POSTGRES_URL`,
//! PostgreSQL, each with fresh databases.

mod helpers;

use std::time::Duration;

use helpers::{send, signup, ws::*, TestApp, PASSWORD};
use moat_server::hub::frames::{CLOSE_BANNED, CLOSE_SESSION_ENDED};
use moat_storage::testing::TestDatabase;
use reqwest::Method;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest};

/// A close that happens "at once" comes within this.
const PROMPTLY: Duration = Duration::from_secs(2);
/// The session re-check interval of the apps in these tests.
const TEST_RECHECK: Duration = Duration::from_millis(200);

async fn spawn(db: TestDatabase) -> TestApp {
    let app = TestApp::spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = 1000).await;
    app.state.hub.set_session_recheck(TEST_RECHECK);
    app
}

// ---------------------------------------------------------------------------------
// Visitors and authentication
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn a_visitor_gets_quotes_but_no_private_topic() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    let (subscribed, errors) = subscribe(&mut socket, "quote:KRX:005930").await;
    assert_eq!(subscribed["topics"], json!(["quote:KRX:005930"]));
    assert!(errors.is_empty(), "{errors:#?}");
    assert_forbidden(&mut socket, "member:1:account", "a visitor").await;
    // An unknown private area is unknown, not forbidden.
    let (_, errors) = subscribe(&mut socket, "member:1:nothing").await;
    assert_eq!(errors[0]["code"], "unknown_topic");
}

#[tokio::test]
async fn the_auth_op_accepts_a_valid_token_and_refuses_bad_or_ended_ones() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let (token, id, mut socket) = member_socket(&app, "ant@x.io", "ant").await;
        // Garbage is refused; the socket still acts for the member.
        for bad in ["garbage", "", "a.b.c"] {
            let reply = authenticate(&mut socket, bad).await;
            assert_eq!(reply["op"], "error", "{backend:?} {bad:?}");
            assert_eq!(reply["code"], "unauthorized", "{backend:?} {bad:?}");
        }
        let (subscribed, _) = subscribe(&mut socket, &format!("member:{id}:account")).await;
        assert_eq!(
            subscribed["topics"],
            json!([format!("member:{id}:account")]),
            "{backend:?}: a refused token changes nothing"
        );

        // A logged-out token is refused on a new socket, which stays a visitor.
        let other = helpers::signup(&app, "bee@x.io", "bee").await;
        let r = send(&app, Method::POST, "/api/auth/logout", Some(&other), None).await;
        assert_eq!(r.status(), 204);
        let mut visitor = connect(&app).await;
        let reply = authenticate(&mut visitor, &other).await;
        assert_eq!(reply["code"], "unauthorized", "{backend:?}");
        assert_forbidden(
            &mut visitor,
            &format!("member:{id}:account"),
            "after a refused token",
        )
        .await;
        // A second member's valid token on the first member's socket is refused.
        let login: Value = send(
            &app,
            Method::POST,
            "/api/auth/login",
            None,
            Some(json!({"email": "bee@x.io", "password": PASSWORD})),
        )
        .await
        .json()
        .await
        .unwrap();
        let bee = login["token"].as_str().unwrap();
        let reply = authenticate(&mut socket, bee).await;
        assert_eq!(reply["code"], "forbidden", "{backend:?}");
        // The same member's other token is accepted (the socket moves to its session).
        let login: Value = send(
            &app,
            Method::POST,
            "/api/auth/login",
            None,
            Some(json!({"email": "ant@x.io", "password": PASSWORD})),
        )
        .await
        .json()
        .await
        .unwrap();
        let again = login["token"].as_str().unwrap();
        assert_ne!(again, token);
        let reply = authenticate(&mut socket, again).await;
        assert_eq!(reply, json!({"op": "authed", "member": id}), "{backend:?}");
    }
}

#[tokio::test]
async fn a_bearer_header_on_the_upgrade_authenticates_and_a_bad_one_is_refused() {
    let app = spawn(TestDatabase::sqlite()).await;
    let token = signup(&app, "ant@x.io", "ant").await;
    let id = user_id(&app, &token).await;
    let mut request = stream_url(&app).into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let (subscribed, errors) = subscribe(&mut socket, &format!("member:{id}:account")).await;
    assert_eq!(
        subscribed["topics"],
        json!([format!("member:{id}:account")])
    );
    assert!(errors.is_empty(), "{errors:#?}");

    let mut request = stream_url(&app).into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", "Bearer garbage".parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 401),
        other => panic!("a bad token is refused: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------
// Private topics
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn a_member_hears_their_account_change_and_nobody_else_may_listen() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        // The first member is the operator.
        let (operator, _, _op_socket) = member_socket(&app, "op@x.io", "operator_1").await;
        let (token, id, mut socket) = member_socket(&app, "ant@x.io", "ant").await;
        let topic = format!("member:{id}:account");
        let (subscribed, errors) = subscribe(&mut socket, &topic).await;
        assert_eq!(subscribed["topics"], json!([topic]), "{backend:?}");
        assert!(errors.is_empty(), "{backend:?}: {errors:#?}");
        // Nothing comes before the account changes.
        assert_eq!(
            next_json(&mut socket, Duration::from_millis(300)).await,
            None
        );

        let (_, _, mut bee) = member_socket(&app, "bee@x.io", "bee").await;
        assert_forbidden(&mut bee, &topic, "another member").await;

        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&token),
            Some(json!({"nickname": "ant2"})),
        )
        .await;
        assert_eq!(r.status(), 200, "{backend:?}");
        let event = until_op(&mut socket, "event").await;
        assert_eq!(event["topic"], json!(topic), "{backend:?}");
        assert_eq!(event["data"], json!({"kind": "account_changed"}));
        let first_seq = event["seq"].as_u64().expect("a seq");
        // The socket follows the renewed session: it stays open past a re-check.
        tokio::time::sleep(TEST_RECHECK * 3).await;
        let pong = ask(&mut socket, json!({"op": "ping"}), &["pong"]).await;
        assert_eq!(pong, json!({"op": "pong"}), "{backend:?}");

        // An operator turning premium on is heard too, with a later seq.
        let r = send(
            &app,
            Method::PUT,
            &format!("/api/admin/users/{id}/premium"),
            Some(&operator),
            Some(json!({"premium": true})),
        )
        .await;
        assert_eq!(r.status(), 200, "{backend:?}");
        let event = until_op(&mut socket, "event").await;
        assert_eq!(event["data"]["kind"], "account_changed");
        assert!(event["seq"].as_u64().unwrap() > first_seq, "{event}");
        // The other member heard nothing.
        assert_eq!(next_json(&mut bee, Duration::from_millis(300)).await, None);
    }
}

// ---------------------------------------------------------------------------------
// Revocation
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn logging_out_closes_that_sessions_sockets_at_once() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = 1000).await;
        // The default re-check (30 s) is far off: the close comes from the log-out.
        let (token, _, mut socket) = member_socket(&app, "ant@x.io", "ant").await;
        // Another session of the same member stays.
        let login: Value = send(
            &app,
            Method::POST,
            "/api/auth/login",
            None,
            Some(json!({"email": "ant@x.io", "password": PASSWORD})),
        )
        .await
        .json()
        .await
        .unwrap();
        let mut other = connect(&app).await;
        authenticate(&mut other, login["token"].as_str().unwrap()).await;
        let mut visitor = connect(&app).await;

        let r = send(&app, Method::POST, "/api/auth/logout", Some(&token), None).await;
        assert_eq!(r.status(), 204);
        let (code, reason) = closed_with(&mut socket, PROMPTLY).await;
        assert_eq!(
            (code, reason.as_str()),
            (CLOSE_SESSION_ENDED, "session ended"),
            "{backend:?}"
        );
        for s in [&mut other, &mut visitor] {
            let pong = ask(s, json!({"op": "ping"}), &["pong"]).await;
            assert_eq!(pong["op"], "pong", "{backend:?}: the others stay");
        }
    }
}

#[tokio::test]
async fn changing_the_password_or_deleting_the_account_closes_every_socket() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = 1000).await;
        let (token, _, mut socket) = member_socket(&app, "ant@x.io", "ant").await;
        let mut second = connect(&app).await;
        authenticate(&mut second, &token).await;
        let r = send(
            &app,
            Method::POST,
            "/api/me/password",
            Some(&token),
            Some(json!({"current_password": PASSWORD, "new_password": "a different horse 42"})),
        )
        .await;
        assert_eq!(r.status(), 200, "{backend:?}");
        let fresh = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        for s in [&mut socket, &mut second] {
            let (code, _) = closed_with(s, PROMPTLY).await;
            assert_eq!(code, CLOSE_SESSION_ENDED, "{backend:?}");
        }

        let mut socket = connect(&app).await;
        authenticate(&mut socket, &fresh).await;
        let r = send(
            &app,
            Method::DELETE,
            "/api/me",
            Some(&fresh),
            Some(json!({"password": "a different horse 42"})),
        )
        .await;
        assert_eq!(r.status(), 204, "{backend:?}");
        let (code, reason) = closed_with(&mut socket, PROMPTLY).await;
        assert_eq!(
            (code, reason.as_str()),
            (CLOSE_SESSION_ENDED, "account deleted"),
            "{backend:?}"
        );
    }
}

#[tokio::test]
async fn a_ban_from_another_process_closes_the_socket_at_the_next_recheck() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let (_, id, mut socket) = member_socket(&app, "ant@x.io", "ant").await;
        let (_, _, mut bee) = member_socket(&app, "bee@x.io", "bee").await;
        // As `moat admin ban` does: its own connection to the database.
        let storage = moat_storage::connect(&app.db.url, &Default::default())
            .await
            .unwrap();
        storage
            .set_banned(id, Some(chrono::Utc::now()))
            .await
            .unwrap();
        let (code, reason) = closed_with(&mut socket, TEST_RECHECK * 10).await;
        assert_eq!(
            (code, reason.as_str()),
            (CLOSE_BANNED, "banned"),
            "{backend:?}"
        );
        tokio::time::sleep(TEST_RECHECK * 2).await;
        let pong = ask(&mut bee, json!({"op": "ping"}), &["pong"]).await;
        assert_eq!(pong["op"], "pong", "{backend:?}: the other member stays");
        storage.close().await;
    }
}

// ---------------------------------------------------------------------------------
// seq and gap
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn a_subscriber_that_falls_behind_gets_a_gap_then_newer_frames() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let (_, id, mut socket) = member_socket(&app, "ant@x.io", "ant").await;
        let topic = format!("member:{id}:account");
        subscribe(&mut socket, &topic).await;
        let hub = &app.state.hub;
        let first = hub
            .publish(&topic, "event", &json!({"kind": "test", "n": 0}))
            .expect("a subscriber");
        let event = until_op(&mut socket, "event").await;
        assert_eq!(event["seq"], first);
        // Far more than a topic keeps, published without letting the socket's writer run
        // (this test's runtime has one thread).
        let count = moat_server::hub::TOPIC_CAPACITY as u64 * 4;
        let mut last = first;
        for n in 1..=count {
            last = hub
                .publish(&topic, "event", &json!({"kind": "test", "n": n}))
                .unwrap();
        }
        let gap = until_op(&mut socket, "gap").await;
        assert_eq!(gap, json!({"op": "gap", "topic": topic, "last_seq": first}));
        // Then the newest frames, in order, up to the last published.
        let mut seqs = Vec::new();
        while seqs.last() != Some(&last) {
            let f = until_op(&mut socket, "event").await;
            seqs.push(f["seq"].as_u64().unwrap());
        }
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
        assert!(seqs[0] > first, "{seqs:?}");
        assert!(
            seqs.len() <= moat_server::hub::TOPIC_CAPACITY,
            "only what the topic kept: {seqs:?}"
        );
    }
}

#[tokio::test]
async fn quote_frames_carry_a_seq_that_only_goes_up() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    let topic = "quote:CRYPTO:BTC";
    send_json(&mut socket, json!({"op": "subscribe", "topics": [topic]})).await;
    let mut seqs: Vec<u64> = Vec::new();
    while seqs.len() < 3 {
        let f = until_op(&mut socket, "quote").await;
        assert_eq!(f["topic"], topic);
        seqs.push(f["seq"].as_u64().expect("a seq"));
    }
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
}
