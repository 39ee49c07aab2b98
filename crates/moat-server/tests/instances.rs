//! Two instances of one deployment (docs/scale-out.md): one database, events shared
//! through one broker. Here the broker is the in-process one, shared by two servers in
//! this process, so that every case runs fast on SQLite and PostgreSQL; the cluster
//! test (crates/moat/tests/cluster.rs) runs the same over NATS and HAProxy with real
//! processes.

mod helpers;

use std::time::Duration;

use bytes::Bytes;
use helpers::{login_token, send, signup, ws::*, TestApp};
use moat_server::{
    broker::Incoming,
    hub::frames::{CLOSE_BANNED, CLOSE_SESSION_ENDED},
};
use moat_storage::{testing::TestDatabase, Role};
use reqwest::Method;
use serde_json::{json, Value};

/// A close that happens "at once" comes within this.
const PROMPTLY: Duration = Duration::from_secs(2);

async fn pair(db: &TestDatabase) -> (TestApp, TestApp) {
    TestApp::spawn_pair(db, |c| c.accounts.signups_per_ip_per_hour = 1000).await
}

/// An operator's token, signed up on `app`.
async fn operator(app: &TestApp, email: &str) -> String {
    let token = signup(app, email, "operator1").await;
    let id = user_id(app, &token).await;
    app.state
        .storage
        .set_role(id, Role::Operator)
        .await
        .unwrap();
    token
}

#[tokio::test]
async fn a_socket_on_one_instance_hears_what_the_other_publishes() {
    for db in TestDatabase::all().await {
        let (a, b) = pair(&db).await;
        // The member's socket is on A; the operator changes the member through B.
        let (_token, id, mut socket) = member_socket(&a, "m@x.io", "member1").await;
        let topic = format!("member:{id}:account");
        let (subscribed, errors) = subscribe(&mut socket, &topic).await;
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(subscribed["topics"], json!([topic]));
        let op = operator(&b, "op@x.io").await;
        let r = send(
            &b,
            Method::PUT,
            &format!("/api/admin/users/{id}/premium"),
            Some(&op),
            Some(json!({"premium": true})),
        )
        .await;
        assert_eq!(r.status(), 200);
        let event = until_op(&mut socket, "event").await;
        assert_eq!(event["topic"], topic);
        assert_eq!(event["data"], json!({"kind": "account_changed"}));
        assert!(event["seq"].as_u64().unwrap() > 0);
    }
}

#[tokio::test]
async fn a_ban_or_a_log_out_through_one_instance_closes_sockets_on_the_other() {
    for db in TestDatabase::all().await {
        let (a, b) = pair(&db).await;
        // Socket checks of the session are far apart: only the bus can close it promptly.
        a.state.hub.set_session_recheck(Duration::from_secs(3600));
        let (token, id, mut on_a) = member_socket(&a, "m@x.io", "member1").await;
        // Log-out through B closes that session's socket on A.
        let r = send(&b, Method::POST, "/api/auth/logout", Some(&token), None).await;
        assert!(r.status().is_success(), "{}", r.status());
        let (code, _) = closed_with(&mut on_a, PROMPTLY).await;
        assert_eq!(code, CLOSE_SESSION_ENDED);

        // A ban through B closes every socket of the member on A with 4403.
        let token = login_token(&a, "m@x.io").await;
        let mut on_a = connect(&a).await;
        assert_eq!(authenticate(&mut on_a, &token).await["op"], "authed");
        let op = operator(&b, "op@x.io").await;
        let r = send(
            &b,
            Method::PUT,
            &format!("/api/admin/users/{id}/ban"),
            Some(&op),
            Some(json!({"banned": true})),
        )
        .await;
        assert_eq!(r.status(), 204, "{}", r.text().await.unwrap());
        let (code, reason) = closed_with(&mut on_a, PROMPTLY).await;
        assert_eq!((code, reason.as_str()), (CLOSE_BANNED, "banned"));
        // And the member's token no longer works on either instance.
        for app in [&a, &b] {
            let r = send(app, Method::GET, "/api/me", Some(&token), None).await;
            assert_eq!(r.status(), 401);
        }
    }
}

#[tokio::test]
async fn the_ban_endpoint_is_for_operators_and_checks_its_target() {
    let db = TestDatabase::sqlite();
    let (a, _b) = pair(&db).await;
    let op = operator(&a, "op@x.io").await;
    let op_id = user_id(&a, &op).await;
    let member = signup(&a, "m@x.io", "member1").await;
    let id = user_id(&a, &member).await;
    let path = format!("/api/admin/users/{id}/ban");
    let body = json!({"banned": true});
    let r = send(&a, Method::PUT, &path, None, Some(body.clone())).await;
    assert_eq!(r.status(), 401);
    let r = send(&a, Method::PUT, &path, Some(&member), Some(body.clone())).await;
    helpers::assert_error(r, 403, "forbidden").await;
    let r = send(
        &a,
        Method::PUT,
        "/api/admin/users/999999/ban",
        Some(&op),
        Some(body.clone()),
    )
    .await;
    helpers::assert_error(r, 404, "not_found").await;
    let r = send(
        &a,
        Method::PUT,
        &format!("/api/admin/users/{op_id}/ban"),
        Some(&op),
        Some(body.clone()),
    )
    .await;
    helpers::assert_error(r, 400, "bad_request").await;
    let r = send(
        &a,
        Method::PUT,
        &path,
        Some(&op),
        Some(json!({"banned": "yes"})),
    )
    .await;
    assert_eq!(r.status(), 422);
    // None of that banned anybody.
    let r = send(&a, Method::GET, "/api/me", Some(&member), None).await;
    assert_eq!(r.status(), 200);
    // Lifting a ban lets the member log in again.
    let r = send(&a, Method::PUT, &path, Some(&op), Some(body)).await;
    assert_eq!(r.status(), 204);
    let r = send(
        &a,
        Method::PUT,
        &path,
        Some(&op),
        Some(json!({"banned": false})),
    )
    .await;
    assert_eq!(r.status(), 204);
    login_token(&a, "m@x.io").await;
}

/// A raw message from the broker, as a faulty or hostile peer would send it.
async fn inject(app: &TestApp, subject: &str, payload: &str) {
    app.state.bus.receive(Incoming::Message {
        subject: subject.to_owned(),
        payload: Bytes::from(payload.to_owned()),
    });
}

#[tokio::test]
async fn malformed_or_unknown_broker_messages_are_refused_and_change_nothing() {
    let db = TestDatabase::sqlite();
    let (a, _b) = pair(&db).await;
    let (_token, id, mut socket) = member_socket(&a, "m@x.io", "member1").await;
    let topic = format!("member:{id}:account");
    subscribe(&mut socket, &topic).await;
    let before = a
        .state
        .bus
        .stats
        .rejected
        .load(std::sync::atomic::Ordering::Relaxed);
    let bad = [
        ("moat.hub", "{not json".to_owned()),
        ("moat.hub", r#"{"o":"x","t":"member:1:account"}"#.to_owned()),
        (
            "moat.nosuch",
            r#"{"o":"x","t":"a","s":1,"d":{}}"#.to_owned(),
        ),
        // A topic no area knows, and a private topic of another shape.
        (
            "moat.hub",
            r#"{"o":"x","t":"nosuch:1","s":1,"d":{"op":"event","data":1}}"#.to_owned(),
        ),
        (
            "moat.hub",
            r#"{"o":"x","t":"member:07:account","s":2,"d":{"op":"event","data":1}}"#.to_owned(),
        ),
        (
            "moat.hub",
            format!(r#"{{"o":"x","t":"{topic}","s":3,"d":{{"data":1}}}}"#),
        ),
        (
            "moat.revoke",
            r#"{"o":"x","t":"member","s":1,"d":{"kind":"member","member":"all"}}"#.to_owned(),
        ),
        (
            "moat.quotes",
            r#"{"o":"x","t":"KRX:005930","s":1,"d":{"price":"1"}}"#.to_owned(),
        ),
        (
            "moat.quotes",
            r#"{"o":"x","t":"NOPE:1","s":2,"d":{}}"#.to_owned(),
        ),
    ];
    for (subject, payload) in &bad {
        inject(&a, subject, payload).await;
    }
    let after = a
        .state
        .bus
        .stats
        .rejected
        .load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(after - before, bad.len() as u64);
    // The socket is still open and got nothing from them.
    assert_eq!(
        next_json(&mut socket, Duration::from_millis(300)).await,
        None
    );
    let r = send(&a, Method::GET, "/api/me", None, None).await;
    assert_eq!(r.status(), 401, "the server still answers");
}

#[tokio::test]
async fn a_lost_broker_message_sends_the_subscribers_a_gap_frame() {
    let db = TestDatabase::sqlite();
    let (a, _b) = pair(&db).await;
    let (_token, id, mut socket) = member_socket(&a, "m@x.io", "member1").await;
    let topic = format!("member:{id}:account");
    subscribe(&mut socket, &topic).await;
    let publication = |seq: u64| {
        format!(
            r#"{{"o":"peer","t":"{topic}","s":{seq},"d":{{"op":"event","data":{{"kind":"account_changed"}}}}}}"#
        )
    };
    inject(&a, "moat.hub", &publication(1)).await;
    let first = until_op(&mut socket, "event").await;
    // Number 2 never arrives: the next one announces the gap first.
    inject(&a, "moat.hub", &publication(3)).await;
    let gap = next_json(&mut socket, PATIENCE).await.unwrap();
    assert_eq!(gap["op"], "gap", "{gap}");
    assert_eq!(gap["topic"], topic);
    assert_eq!(gap["last_seq"], first["seq"]);
    let next = next_json(&mut socket, PATIENCE).await.unwrap();
    assert_eq!(next["op"], "event");
    assert!(next["seq"].as_u64() > first["seq"].as_u64());
    // A reconnection to the broker does the same for every topic.
    a.state.bus.receive(Incoming::Reconnected);
    let gap = next_json(&mut socket, PATIENCE).await.unwrap();
    assert_eq!(gap["op"], "gap", "{gap}");
}

#[tokio::test]
async fn a_reconnected_broker_makes_every_socket_recheck_its_session_at_once() {
    for db in TestDatabase::all().await {
        let (a, _b) = pair(&db).await;
        a.state.hub.set_session_recheck(Duration::from_secs(3600));
        let (_token, id, mut socket) = member_socket(&a, "m@x.io", "member1").await;
        // Banned in the database while the broker was away (another process).
        a.state
            .storage
            .set_banned(id, Some(chrono::Utc::now()))
            .await
            .unwrap();
        assert_eq!(
            next_json(&mut socket, Duration::from_millis(300)).await,
            None
        );
        a.state.bus.receive(Incoming::Reconnected);
        let (code, _) = closed_with(&mut socket, PROMPTLY).await;
        assert_eq!(code, CLOSE_BANNED);
    }
}

#[tokio::test]
async fn the_readiness_check_names_the_broker() {
    let db = TestDatabase::sqlite();
    let (a, _b) = pair(&db).await;
    let ready: Value = a.get("/readyz").await.json().await.unwrap();
    assert_eq!(ready["broker"], "in-process");
    assert_eq!(ready["broker_connected"], true);
}

#[tokio::test]
async fn two_instances_starting_at_once_on_an_empty_database_migrate_it_once() {
    for db in TestDatabase::all().await {
        let shared = db.shared();
        let (a, b) = tokio::join!(
            TestApp::spawn_with(db, |_| {}),
            TestApp::spawn_with(shared, |_| {})
        );
        for app in [&a, &b] {
            let ready: Value = app.get("/readyz").await.json().await.unwrap();
            assert_eq!(ready["status"], "ready", "{ready}");
        }
        let status = a.state.storage.migration_status().await.unwrap();
        assert!(status.is_current());
        let mut applied = status.applied.clone();
        applied.dedup();
        assert_eq!(applied, status.applied, "each migration recorded once");
        assert_eq!(status.applied.len(), status.expected.len());
        // Both serve the same data.
        let token = signup(&a, "m@x.io", "member1").await;
        let r = send(&b, Method::GET, "/api/me", Some(&token), None).await;
        assert_eq!(
            r.status(),
            401,
            "separate token keys: B can't read A's token"
        );
        let _ = b
            .state
            .storage
            .user_by_email("m@x.io")
            .await
            .unwrap()
            .unwrap();
    }
}

#[tokio::test]
async fn the_quote_lease_is_held_by_one_instance_and_taken_over_when_it_runs_out() {
    for db in TestDatabase::all().await {
        let storage = db.storage().await;
        let ttl = 1_000;
        let now = 1_700_000_000_000i64;
        assert!(storage
            .acquire_lease("market.quotes", "a", now, ttl)
            .await
            .unwrap());
        assert!(!storage
            .acquire_lease("market.quotes", "b", now + 10, ttl)
            .await
            .unwrap());
        // The holder renews.
        assert!(storage
            .acquire_lease("market.quotes", "a", now + 900, ttl)
            .await
            .unwrap());
        assert!(!storage
            .acquire_lease("market.quotes", "b", now + 1_000, ttl)
            .await
            .unwrap());
        // A failed holder's lease runs out; the next to ask takes it.
        assert!(storage
            .acquire_lease("market.quotes", "b", now + 1_900, ttl)
            .await
            .unwrap());
        assert!(!storage
            .acquire_lease("market.quotes", "a", now + 1_901, ttl)
            .await
            .unwrap());
        assert_eq!(
            storage.lease_holder("market.quotes").await.unwrap(),
            Some(("b".to_owned(), now + 2_900))
        );
        // Released on a clean stop: free at once. A non-holder's release does nothing.
        storage.release_lease("market.quotes", "a").await.unwrap();
        assert!(!storage
            .acquire_lease("market.quotes", "a", now + 1_902, ttl)
            .await
            .unwrap());
        storage.release_lease("market.quotes", "b").await.unwrap();
        assert!(storage
            .acquire_lease("market.quotes", "a", now + 1_903, ttl)
            .await
            .unwrap());
        // Bad arguments change nothing.
        assert!(storage.acquire_lease("", "a", now, ttl).await.is_err());
        assert!(storage
            .acquire_lease("x", &"h".repeat(65), now, ttl)
            .await
            .is_err());
        assert!(storage.acquire_lease("x", "a", now, 0).await.is_err());
        assert_eq!(storage.lease_holder("x").await.unwrap(), None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_instances_asking_for_the_lease_at_once_get_one_holder() {
    for db in TestDatabase::all().await {
        let storage = db.storage().await;
        let now = 1_700_000_000_000i64;
        let tasks: Vec<_> = (0..32)
            .map(|i| {
                let storage = storage.clone();
                tokio::spawn(async move {
                    storage
                        .acquire_lease("market.quotes", &format!("i{i}"), now, 15_000)
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut held = 0;
        for t in tasks {
            held += usize::from(t.await.unwrap());
        }
        assert_eq!(held, 1);
    }
}

#[tokio::test]
async fn real_quotes_are_polled_by_the_lease_holder_alone_and_reach_the_other_instance() {
    for db in TestDatabase::all().await {
        let yahoo = helpers::yahoo::FakeYahoo::start().await;
        let url = yahoo.url.clone();
        let (a, b) = TestApp::spawn_pair(&db, move |c| {
            c.market.us = "yahoo".into();
            c.market.yahoo_url = url.clone();
            c.market.poll_secs = 1;
        })
        .await;
        let leader_of = |a: &TestApp, b: &TestApp| {
            (
                a.state.market.service.is_quote_leader(),
                b.state.market.service.is_quote_leader(),
            )
        };
        helpers::wait_until("one instance holds the quote lease", || async {
            matches!(leader_of(&a, &b), (true, false) | (false, true))
        })
        .await;
        let (leader, follower) = if leader_of(&a, &b).0 { (a, b) } else { (b, a) };
        // A socket on the follower watches a real instrument: the leader polls it and
        // the follower passes its quote on.
        let mut socket = connect(&follower).await;
        subscribe(&mut socket, "quote:NASDAQ:AAPL").await;
        let quote = until_op(&mut socket, "quote").await;
        assert_eq!(quote["data"]["price"], "189.43", "{quote}");
        assert_eq!(quote["data"]["source"], "yahoo");
        let r: Value = follower
            .get("/api/instruments/NASDAQ:AAPL/quote")
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(r["price"], "189.43");
        assert_eq!(
            follower.state.market.service.provider_requests(),
            0,
            "the follower polls nothing"
        );
        assert!(leader.state.market.service.provider_requests() > 0);
        // The leader stops cleanly: it gives the lease up and the other takes over.
        leader.stop().await.unwrap();
        helpers::wait_until("the other instance takes the lease", || async {
            follower.state.market.service.is_quote_leader()
        })
        .await;
        let before = yahoo.requests.load(std::sync::atomic::Ordering::SeqCst);
        helpers::wait_until("the new leader polls", || async {
            yahoo.requests.load(std::sync::atomic::Ordering::SeqCst) > before
        })
        .await;
        assert!(follower.state.market.service.provider_requests() > 0);
    }
}
