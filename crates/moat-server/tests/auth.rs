//! Accounts and identity over real HTTP (docs/accounts.md), on SQLite and, with
//! `MOAT_TEST_POSTGRES_URL`, PostgreSQL: each test gets fresh databases.

mod helpers;

use std::sync::Arc;

use base64::Engine;
use futures_util::{stream::FuturesUnordered, StreamExt};
use helpers::{assert_error, field_code, has_field_error, login, send, signup, TestApp, PASSWORD};
use moat_server::{
    accounts::{
        rate_limit::{FIRST_BACKOFF, FREE_LOGIN_FAILURES},
        token::{Claims, TokenKeys},
    },
    clock::ManualClock,
};
use moat_storage::{testing::TestDatabase, Storage, Ticket, TicketKind};
use reqwest::{Method, Response};
use serde_json::{json, Value};

/// The signing key the test apps use, so tests can forge tokens.
const KEY: [u8; 32] = [42; 32];

fn key_b64() -> String {
    base64::engine::general_purpose::STANDARD.encode(KEY)
}

async fn spawn(db: TestDatabase) -> TestApp {
    spawn_with(db, |_| {}).await
}

async fn spawn_with(db: TestDatabase, tweak: impl FnOnce(&mut moat_server::Config)) -> TestApp {
    TestApp::spawn_with(db, |c| {
        c.accounts.token_key = key_b64().into();
        c.accounts.signups_per_ip_per_hour = 1000;
        tweak(c);
    })
    .await
}

/// An app whose limits, tokens and sessions read a clock that stands still until the
/// test moves it, so a wait never runs out while a test is slow and no test sleeps.
async fn spawn_frozen(
    db: TestDatabase,
    tweak: impl FnOnce(&mut moat_server::Config),
) -> (TestApp, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_now());
    let app = TestApp::spawn_with_clock(
        db,
        |c| {
            c.accounts.token_key = key_b64().into();
            c.accounts.signups_per_ip_per_hour = 1000;
            tweak(c);
        },
        clock.clone(),
    )
    .await;
    (app, clock)
}

/// Password checks the app has started so far.
fn password_checks(app: &TestApp) -> u64 {
    *app.state.accounts.auth.passwords.checks().borrow()
}

/// Asserts `429 rate_limited` with a `Retry-After` of at least a second.
async fn assert_rate_limited(r: Response) {
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1, "{retry}");
    assert_error(r, 429, "rate_limited").await;
}

async fn storage(app: &TestApp) -> Arc<dyn Storage> {
    moat_storage::connect(&app.db.url, &Default::default())
        .await
        .unwrap()
}

async fn me(app: &TestApp, token: &str) -> Response {
    send(app, Method::GET, "/api/me", Some(token), None).await
}

fn claims(token: &str) -> Claims {
    TokenKeys::from_secret(&KEY)
        .verify(token, chrono::Utc::now().timestamp())
        .expect("a valid token")
}

#[tokio::test]
async fn sign_up_log_in_me_and_log_out() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let token = signup(&app, "  Ant@Moat.Example ", "개미").await;
        let c = claims(&token);
        assert_eq!(c.data.nickname, "개미");
        assert!(c.exp - c.iat == 30 * 24 * 3600, "30 days by default");
        let r = me(&app, &token).await;
        assert_eq!(r.status(), 200, "{backend:?}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["email"], "ant@moat.example", "normalised");
        assert_eq!(body["nickname"], "개미");
        assert_eq!(
            body["role"], "operator",
            "the first account is the operator"
        );
        assert_eq!(body["premium"], false);
        assert_eq!(body["has_password"], true);
        assert_eq!(body["providers"], json!([]));
        assert_eq!(body["user_id"], c.data.user_id);
        assert_eq!(body["chat_user_id"], c.data.chat_user_id.to_string());

        let second = signup(&app, "bee@moat.example", "Bee").await;
        let body: Value = me(&app, &second).await.json().await.unwrap();
        assert_eq!(body["role"], "member", "the second is a member");

        let r = login(&app, "ANT@moat.example", PASSWORD).await;
        assert_eq!(r.status(), 200);
        let fresh = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(me(&app, &fresh).await.status(), 200);

        let r = send(&app, Method::POST, "/api/auth/logout", Some(&token), None).await;
        assert_eq!(r.status(), 204);
        assert_error(me(&app, &token).await, 401, "token_invalid").await;
        assert_eq!(
            me(&app, &fresh).await.status(),
            200,
            "other sessions live on"
        );
    }
}

#[tokio::test]
async fn no_token_is_unauthenticated_and_garbage_is_token_invalid() {
    let app = spawn(TestDatabase::sqlite()).await;
    for path in ["/api/me", "/api/me/export"] {
        assert_error(app.get(path).await, 401, "unauthenticated").await;
    }
    assert_error(
        send(&app, Method::POST, "/api/auth/logout", None, None).await,
        401,
        "unauthenticated",
    )
    .await;
    for bad in ["Bearer", "Bearer x.y.z", "Basic abc", "Bearer \u{7f}"] {
        let r = app
            .client
            .get(app.url("/api/me"))
            .header("authorization", bad)
            .send()
            .await;
        if let Ok(r) = r {
            assert_error(r, 401, "token_invalid").await;
        }
    }
}

#[tokio::test]
async fn forged_expired_and_wrong_algorithm_tokens_are_refused() {
    let app = spawn(TestDatabase::sqlite()).await;
    let token = signup(&app, "ant@x.io", "ant").await;
    let good = claims(&token);
    let enc = |c: &Claims, alg: jsonwebtoken::Algorithm, key: &[u8]| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::new(alg),
            c,
            &jsonwebtoken::EncodingKey::from_secret(key),
        )
        .unwrap()
    };
    // Sanity: a re-signed copy of the real claims is accepted.
    assert_eq!(
        me(&app, &enc(&good, jsonwebtoken::Algorithm::HS256, &KEY))
            .await
            .status(),
        200
    );

    let expired = Claims {
        exp: chrono::Utc::now().timestamp() - 1,
        ..good.clone()
    };
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let payload = b64.encode(serde_json::to_vec(&good).unwrap());
    let none = format!("{}.{payload}.", b64.encode(r#"{"alg":"none","typ":"JWT"}"#));
    let rs256 = {
        let parts: Vec<&str> = token.split('.').collect();
        format!(
            "{}.{}.{}",
            b64.encode(r#"{"alg":"RS256","typ":"JWT"}"#),
            parts[1],
            parts[2]
        )
    };
    let no_exp = {
        let mut v = serde_json::to_value(&good).unwrap();
        v.as_object_mut().unwrap().remove("exp");
        jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
            &v,
            &jsonwebtoken::EncodingKey::from_secret(&KEY),
        )
        .unwrap()
    };
    let cases = [
        (
            "expired",
            enc(&expired, jsonwebtoken::Algorithm::HS256, &KEY),
        ),
        (
            "another key",
            enc(&good, jsonwebtoken::Algorithm::HS256, &[1; 32]),
        ),
        ("alg none", none),
        ("HS384", enc(&good, jsonwebtoken::Algorithm::HS384, &KEY)),
        ("HS512", enc(&good, jsonwebtoken::Algorithm::HS512, &KEY)),
        ("RS256 header", rs256),
        ("no exp", no_exp),
        (
            "unknown session",
            enc(
                &Claims {
                    jti: "nope".into(),
                    ..good.clone()
                },
                jsonwebtoken::Algorithm::HS256,
                &KEY,
            ),
        ),
        (
            "another member's id",
            enc(
                &Claims {
                    data: moat_server::accounts::token::TokenData {
                        user_id: 999,
                        ..good.data.clone()
                    },
                    ..good.clone()
                },
                jsonwebtoken::Algorithm::HS256,
                &KEY,
            ),
        ),
    ];
    for (why, t) in cases {
        let body = assert_error(me(&app, &t).await, 401, "token_invalid").await;
        assert!(!body.to_string().contains("ant@x.io"), "{why}");
    }
}

#[tokio::test]
async fn tokens_of_banned_or_deleted_members_stop_working() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        signup(&app, "op@x.io", "operator_1").await;
        let token = signup(&app, "ant@x.io", "ant").await;
        let id = claims(&token).data.user_id;
        s.set_banned(id, Some(chrono::Utc::now())).await.unwrap();
        assert_error(me(&app, &token).await, 401, "token_invalid").await;
        assert_error(
            login(&app, "ant@x.io", PASSWORD).await,
            403,
            "account_banned",
        )
        .await;
        // A wrong password still says only invalid_credentials.
        assert_error(
            login(&app, "ant@x.io", "wrong password!").await,
            401,
            "invalid_credentials",
        )
        .await;
        s.set_banned(id, None).await.unwrap();
        assert_error(me(&app, &token).await, 401, "token_invalid").await;
        let token = login(&app, "ant@x.io", PASSWORD)
            .await
            .json::<Value>()
            .await
            .unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(me(&app, &token).await.status(), 200);
        s.delete_user(id, chrono::Utc::now()).await.unwrap();
        assert_error(me(&app, &token).await, 401, "token_invalid").await;
    }
}

#[tokio::test]
async fn duplicate_email_or_nickname_in_any_case_is_409_naming_the_field() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        signup(&app, "ant@x.io", "AntKing").await;
        let cases = [
            (
                json!({"email": "ANT@X.IO", "password": PASSWORD, "nickname": "other"}),
                "email_taken",
                "email",
            ),
            (
                json!({"email": "new@x.io", "password": PASSWORD, "nickname": "antking"}),
                "nickname_taken",
                "nickname",
            ),
            (
                json!({"email": "new@x.io", "password": PASSWORD, "nickname": "ANTKING"}),
                "nickname_taken",
                "nickname",
            ),
        ];
        for (body, code, field) in cases {
            let r = send(&app, Method::POST, "/api/auth/signup", None, Some(body)).await;
            let e = assert_error(r, 409, code).await;
            assert!(has_field_error(&e, field), "{e}");
        }
        // Hangul nicknames too, and on nickname change.
        signup(&app, "b@x.io", "개미왕").await;
        let t = signup(&app, "c@x.io", "other").await;
        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&t),
            Some(json!({"nickname": "ANTKING"})),
        )
        .await;
        assert_error(r, 409, "nickname_taken").await;
        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&t),
            Some(json!({"nickname": "개미왕"})),
        )
        .await;
        assert_error(r, 409, "nickname_taken").await;
        assert_eq!(s.count_users().await.unwrap(), 3);
    }
}

#[tokio::test]
async fn invalid_sign_up_input_is_422_naming_the_field_and_stores_nothing() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        let long = "x".repeat(257);
        let cases: Vec<(Value, &str)> = vec![
            (
                json!({"email": "not-an-email", "password": PASSWORD, "nickname": "ant"}),
                "email",
            ),
            (
                json!({"email": "", "password": PASSWORD, "nickname": "ant"}),
                "email",
            ),
            (
                json!({"email": "a@x.io", "password": "short", "nickname": "ant"}),
                "password",
            ),
            (
                json!({"email": "a@x.io", "password": long, "nickname": "ant"}),
                "password",
            ),
            (
                json!({"email": "a@x.io", "password": "qwertyuiop", "nickname": "ant"}),
                "password",
            ),
            (
                json!({"email": "a@x.io", "password": "1234567890", "nickname": "ant"}),
                "password",
            ),
            (
                json!({"email": "longname@x.io", "password": "LONGNAME@X.IO", "nickname": "ant"}),
                "password",
            ),
            (
                json!({"email": "a@x.io", "password": "nickname_equal", "nickname": "Nickname_Equal"}),
                "password",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "a"}),
                "nickname",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "이름이너무길어서스무자를넘어가는닉네임입니다"}),
                "nickname",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "ant-1"}),
                "nickname",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "ant 1"}),
                "nickname",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "ㄱㄴㄷ"}),
                "nickname",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "Admin"}),
                "nickname",
            ),
            (
                json!({"email": "a@x.io", "password": PASSWORD, "nickname": "운영자"}),
                "nickname",
            ),
        ];
        for (body, field) in cases {
            let r = send(
                &app,
                Method::POST,
                "/api/auth/signup",
                None,
                Some(body.clone()),
            )
            .await;
            let e = assert_error(r, 422, "invalid_input").await;
            assert!(has_field_error(&e, field), "{body} → {e}");
        }
        // Each refusal carries its own code.
        let r = send(
            &app,
            Method::POST,
            "/api/auth/signup",
            None,
            Some(json!({"email": "a@x.io", "password": "password123456", "nickname": "ant"})),
        )
        .await;
        let e = assert_error(r, 422, "invalid_input").await;
        assert_eq!(field_code(&e, "password"), "password_too_common", "{e}");
        // Every bad field at once.
        let r = send(
            &app,
            Method::POST,
            "/api/auth/signup",
            None,
            Some(json!({"email": "x", "password": "y", "nickname": "z"})),
        )
        .await;
        let e = assert_error(r, 422, "invalid_input").await;
        for f in ["email", "password", "nickname"] {
            assert!(has_field_error(&e, f), "{e}");
        }
        // Wrong shapes never reach the handler.
        let r = send(
            &app,
            Method::POST,
            "/api/auth/signup",
            None,
            Some(json!({"email": 1})),
        )
        .await;
        assert_error(r, 422, "invalid_body").await;
        assert_eq!(s.count_users().await.unwrap(), 0, "nothing stored");
    }
}

#[tokio::test]
async fn unknown_email_and_wrong_password_get_the_same_answer() {
    let app = spawn(TestDatabase::sqlite()).await;
    signup(&app, "ant@x.io", "ant").await;
    // Two of each (four failures: under the back-off threshold of five).
    let mut unknown = Vec::new();
    let mut wrong = Vec::new();
    let mut messages = Vec::new();
    for i in 0..2 {
        let t = std::time::Instant::now();
        let r = login(&app, &format!("nobody{i}@x.io"), PASSWORD).await;
        unknown.push(t.elapsed().as_secs_f64());
        messages.push(assert_error(r, 401, "invalid_credentials").await["message"].clone());
        let t = std::time::Instant::now();
        let r = login(&app, "ant@x.io", &format!("wrong password {i}")).await;
        wrong.push(t.elapsed().as_secs_f64());
        messages.push(assert_error(r, 401, "invalid_credentials").await["message"].clone());
    }
    assert!(messages.iter().all(|m| *m == messages[0]), "{messages:?}");
    // Both spend one Argon2id verification (a generous bound: machines are noisy).
    let u = unknown.iter().cloned().fold(f64::MAX, f64::min);
    let w = wrong.iter().cloned().fold(f64::MAX, f64::min);
    assert!(
        u > w / 3.0 && w > u / 3.0,
        "unknown {u:.3}s vs wrong {w:.3}s"
    );
}

#[tokio::test]
async fn repeated_failed_log_ins_are_rate_limited_with_retry_after() {
    let (app, clock) = spawn_frozen(TestDatabase::sqlite(), |_| {}).await;
    signup(&app, "ant@x.io", "ant").await;
    for _ in 0..FREE_LOGIN_FAILURES {
        assert_error(
            login(&app, "ant@x.io", "wrong password!").await,
            401,
            "invalid_credentials",
        )
        .await;
    }
    let r = login(&app, "ant@x.io", PASSWORD).await;
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(retry, FIRST_BACKOFF.as_secs());
    assert_error(r, 429, "rate_limited").await;
    // After the wait, the right password works and clears the count.
    clock.advance(FIRST_BACKOFF);
    assert_eq!(login(&app, "ant@x.io", PASSWORD).await.status(), 200);
    for _ in 0..FREE_LOGIN_FAILURES {
        assert_eq!(login(&app, "ant@x.io", "wrong!").await.status(), 401);
    }
}

/// Parallel log-ins: the slot is taken before the password check, so guesses in flight
/// use up the allowance (issue 14 §4: 40 of 50 parallel guesses used to be checked).
#[tokio::test]
async fn fifty_parallel_wrong_passwords_reach_the_password_check_at_most_five_times() {
    const ATTEMPTS: usize = 50;
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let (app, _clock) = spawn_frozen(db, |_| {}).await;
        signup(&app, "ant@x.io", "ant").await;
        let before = password_checks(&app);
        let answers = futures_util::future::join_all((0..ATTEMPTS).map(|i| {
            let app = &app;
            async move { login(app, "ant@x.io", &format!("wrong password {i}")).await }
        }))
        .await;
        let checked = password_checks(&app) - before;
        assert!(
            checked <= u64::from(FREE_LOGIN_FAILURES),
            "{backend:?}: {checked} passwords checked"
        );
        let mut refused = 0;
        for r in answers {
            if r.status() == 429 {
                refused += 1;
                assert_rate_limited(r).await;
            } else {
                assert_error(r, 401, "invalid_credentials").await;
            }
        }
        assert_eq!(
            (ATTEMPTS - refused) as u64,
            checked,
            "{backend:?}: every attempt not refused was checked, and only those"
        );
        assert_eq!(checked, u64::from(FREE_LOGIN_FAILURES), "no slot is lost");
    }
}

/// The right password hidden among parallel wrong ones logs in only if it got one of
/// the free slots; otherwise it is refused like the rest. The password checks are held
/// until every attempt has either been refused or reached the check, so all of them
/// are in flight at once.
#[tokio::test]
async fn a_correct_password_among_fifty_parallel_wrong_ones_needs_one_of_the_free_slots() {
    const ATTEMPTS: usize = 50;
    const CORRECT: usize = 23;
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let (app, clock) = spawn_frozen(db, |_| {}).await;
        signup(&app, "ant@x.io", "ant").await;
        let mut checks = app.state.accounts.auth.passwords.checks();
        let before = *checks.borrow_and_update();
        let pause = app.state.accounts.auth.passwords.pause().await.unwrap();
        let mut pending: FuturesUnordered<_> = (0..ATTEMPTS)
            .map(|i| {
                let password = if i == CORRECT {
                    PASSWORD.to_owned()
                } else {
                    format!("wrong password {i}")
                };
                let app = &app;
                async move { (i, login(app, "ant@x.io", &password).await) }
            })
            .collect();
        let mut answers: Vec<Option<Response>> = (0..ATTEMPTS).map(|_| None).collect();
        let mut answered = 0;
        // Until each attempt is decided: answered (refused), or waiting in the check.
        while answered + (*checks.borrow() - before) < ATTEMPTS as u64 {
            tokio::select! {
                Some((i, r)) = pending.next() => {
                    answers[i] = Some(r);
                    answered += 1;
                }
                changed = checks.changed() => changed.unwrap(),
            }
        }
        drop(pause);
        while let Some((i, r)) = pending.next().await {
            answers[i] = Some(r);
        }
        let checked = password_checks(&app) - before;
        assert!(
            checked <= u64::from(FREE_LOGIN_FAILURES),
            "{backend:?}: {checked} passwords checked"
        );
        let mut wrong_checked = 0;
        let mut correct_status = 0;
        for (i, r) in answers.into_iter().enumerate() {
            let r = r.unwrap();
            let status = r.status().as_u16();
            match (i == CORRECT, status) {
                (true, 200) => correct_status = 200,
                (_, 429) => {
                    if i == CORRECT {
                        correct_status = 429;
                    }
                    assert_rate_limited(r).await;
                }
                (false, 401) => {
                    wrong_checked += 1;
                    assert_error(r, 401, "invalid_credentials").await;
                }
                other => panic!("{backend:?}: attempt {i} answered {other:?}"),
            }
        }
        let correct_checked = u64::from(correct_status == 200);
        assert_eq!(
            wrong_checked + correct_checked,
            checked,
            "{backend:?}: the right password logged in only if it was one of the checked"
        );
        // The account still works once the wait is over.
        clock.advance(FIRST_BACKOFF);
        assert_eq!(login(&app, "ant@x.io", PASSWORD).await.status(), 200);
    }
}

/// Re-entering the password (to change it or delete the account) shares the log-in
/// allowance, atomically too.
#[tokio::test]
async fn parallel_wrong_current_passwords_reach_the_check_at_most_five_times() {
    const ATTEMPTS: usize = 30;
    let (app, _clock) = spawn_frozen(TestDatabase::sqlite(), |_| {}).await;
    let token = signup(&app, "ant@x.io", "ant").await;
    let before = password_checks(&app);
    let answers = futures_util::future::join_all((0..ATTEMPTS).map(|i| {
        let (path, method, body) = if i % 2 == 0 {
            (
                "/api/me/password",
                Method::POST,
                json!({"current_password": format!("wrong {i}"), "new_password": "a brand new passphrase"}),
            )
        } else {
            ("/api/me", Method::DELETE, json!({"password": format!("wrong {i}")}))
        };
        send(&app, method, path, Some(&token), Some(body))
    }))
    .await;
    let checked = password_checks(&app) - before;
    assert!(
        checked <= u64::from(FREE_LOGIN_FAILURES),
        "{checked} passwords checked"
    );
    let refused = answers.iter().filter(|r| r.status() == 429).count();
    assert_eq!((ATTEMPTS - refused) as u64, checked);
    // And the account's log-in waits too: the same account key.
    assert_rate_limited(login(&app, "ant@x.io", PASSWORD).await).await;
    assert_eq!(me(&app, &token).await.status(), 200, "nothing changed");
}

#[tokio::test]
async fn sign_ups_are_limited_per_ip() {
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.accounts.signups_per_ip_per_hour = 2
    })
    .await;
    signup(&app, "a@x.io", "aaa").await;
    signup(&app, "b@x.io", "bbb").await;
    let r = send(
        &app,
        Method::POST,
        "/api/auth/signup",
        None,
        Some(json!({"email": "c@x.io", "password": PASSWORD, "nickname": "ccc"})),
    )
    .await;
    assert!(
        r.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            > 3000
    );
    assert_error(r, 429, "rate_limited").await;
    assert_eq!(storage(&app).await.count_users().await.unwrap(), 2);
}

/// Only a made account uses up the address's allowance: sign-ups refused as taken (409)
/// or invalid (422) give their slot back, by e-mail and password or socially.
#[tokio::test]
async fn sign_ups_refused_as_taken_do_not_use_up_the_allowance() {
    const ALLOWANCE: u32 = 2;
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = ALLOWANCE).await;
        let s = storage(&app).await;
        signup(&app, "a@x.io", "aaa").await;
        let post = |body: Value| send(&app, Method::POST, "/api/auth/signup", None, Some(body));
        for i in 0..3 {
            let r = post(
                json!({"email": "A@x.io", "password": PASSWORD, "nickname": format!("new{i}")}),
            )
            .await;
            assert_error(r, 409, "email_taken").await;
            let r = post(
                json!({"email": format!("new{i}@x.io"), "password": PASSWORD, "nickname": "AAA"}),
            )
            .await;
            assert_error(r, 409, "nickname_taken").await;
            let r = post(json!({"email": "not an email", "password": PASSWORD, "nickname": "bbb"}))
                .await;
            assert_error(r, 422, "invalid_input").await;
        }
        // Social sign-ups with a taken nickname, too.
        let now = chrono::Utc::now().timestamp();
        s.insert_ticket(&Ticket {
            ticket_hash: moat_server::accounts::oidc::hash_ticket("social"),
            kind: TicketKind::Signup,
            provider: "kakao".into(),
            subject: "s1".into(),
            email: None,
            next_path: "/".into(),
            expires_at: now + 600,
        })
        .await
        .unwrap();
        for _ in 0..3 {
            let r = send(
                &app,
                Method::POST,
                "/api/auth/oidc/signup",
                None,
                Some(json!({"ticket": "social", "nickname": "aaa"})),
            )
            .await;
            assert_error(r, 409, "nickname_taken").await;
        }
        assert_eq!(
            post(json!({"email": "b@x.io", "password": PASSWORD, "nickname": "bbb"}))
                .await
                .status(),
            201,
            "{backend:?}: the second account of the allowance"
        );
        let r = post(json!({"email": "c@x.io", "password": PASSWORD, "nickname": "ccc"})).await;
        assert_rate_limited(r).await;
        assert_eq!(s.count_users().await.unwrap(), i64::from(ALLOWANCE));
    }
}

#[tokio::test]
async fn a_token_past_half_its_life_is_renewed_in_a_header() {
    for db in TestDatabase::all().await {
        let (app, clock) = spawn_frozen(db, |c| c.accounts.token_lifetime_secs = 4).await;
        let token = signup(&app, "ant@x.io", "ant").await;
        let r = me(&app, &token).await;
        assert!(
            r.headers().get("x-moat-token").is_none(),
            "young tokens are kept"
        );
        clock.advance(std::time::Duration::from_millis(2100));
        let r = me(&app, &token).await;
        assert_eq!(r.status(), 200);
        let renewed = r.headers()["x-moat-token"].to_str().unwrap().to_owned();
        assert_ne!(renewed, token);
        let c = claims(&renewed);
        assert_eq!(c.exp - c.iat, 4);
        assert_eq!(me(&app, &renewed).await.status(), 200);
        // Past exp, the old token is refused.
        clock.advance(std::time::Duration::from_millis(2100));
        assert_error(me(&app, &token).await, 401, "token_invalid").await;
    }
}

#[tokio::test]
async fn changing_the_password_ends_every_session_and_returns_a_new_token() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let a = signup(&app, "ant@x.io", "ant").await;
        let b = login(&app, "ant@x.io", PASSWORD)
            .await
            .json::<Value>()
            .await
            .unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let new_pw = "a brand new passphrase";
        let r = send(
            &app,
            Method::POST,
            "/api/me/password",
            Some(&a),
            Some(json!({"new_password": new_pw})),
        )
        .await;
        let e = assert_error(r, 422, "invalid_input").await;
        assert!(has_field_error(&e, "current_password"));
        let r = send(
            &app,
            Method::POST,
            "/api/me/password",
            Some(&a),
            Some(json!({"current_password": "wrong password!", "new_password": new_pw})),
        )
        .await;
        assert_error(r, 422, "invalid_input").await;
        let r = send(
            &app,
            Method::POST,
            "/api/me/password",
            Some(&a),
            Some(json!({"current_password": PASSWORD, "new_password": "short"})),
        )
        .await;
        let e = assert_error(r, 422, "invalid_input").await;
        assert!(has_field_error(&e, "new_password"));
        let r = send(
            &app,
            Method::POST,
            "/api/me/password",
            Some(&a),
            Some(json!({"current_password": PASSWORD, "new_password": new_pw})),
        )
        .await;
        assert_eq!(r.status(), 200);
        let fresh = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_error(me(&app, &a).await, 401, "token_invalid").await;
        assert_error(me(&app, &b).await, 401, "token_invalid").await;
        assert_eq!(me(&app, &fresh).await.status(), 200);
        assert_error(
            login(&app, "ant@x.io", PASSWORD).await,
            401,
            "invalid_credentials",
        )
        .await;
        assert_eq!(login(&app, "ant@x.io", new_pw).await.status(), 200);
    }
}

#[tokio::test]
async fn changing_the_nickname_returns_a_token_with_it() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let t = signup(&app, "ant@x.io", "ant").await;
        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&t),
            Some(json!({"nickname": "bad name"})),
        )
        .await;
        let e = assert_error(r, 422, "invalid_input").await;
        assert!(has_field_error(&e, "nickname"));
        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&t),
            Some(json!({"nickname": "개미_King"})),
        )
        .await;
        assert_eq!(r.status(), 200);
        let fresh = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(claims(&fresh).data.nickname, "개미_King");
        assert_error(me(&app, &t).await, 401, "token_invalid").await;
        let body: Value = me(&app, &fresh).await.json().await.unwrap();
        assert_eq!(body["nickname"], "개미_King");
        // Only the case changes: allowed.
        let r = send(
            &app,
            Method::PATCH,
            "/api/me",
            Some(&fresh),
            Some(json!({"nickname": "개미_king"})),
        )
        .await;
        assert_eq!(r.status(), 200);
        // The public profile, found in any case; no private fields.
        let r = app.get("/api/users/%EA%B0%9C%EB%AF%B8_KING").await;
        assert_eq!(r.status(), 200);
        let p: Value = r.json().await.unwrap();
        assert_eq!(p["nickname"], "개미_king");
        assert!(p["joined_at"].is_string());
        assert!(
            p.get("email").is_none() && p.get("user_id").is_none(),
            "{p}"
        );
        assert_error(app.get("/api/users/ant").await, 404, "not_found").await;
    }
}

#[tokio::test]
async fn operators_set_premium_and_members_cannot() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let op = signup(&app, "op@x.io", "boss").await;
        let member = signup(&app, "ant@x.io", "ant").await;
        let member_id = claims(&member).data.user_id;
        let op_id = claims(&op).data.user_id;
        let path = format!("/api/admin/users/{op_id}/premium");
        let r = send(
            &app,
            Method::PUT,
            &path,
            Some(&member),
            Some(json!({"premium": true})),
        )
        .await;
        assert_error(r, 403, "forbidden").await;
        let r = send(
            &app,
            Method::PUT,
            &path,
            None,
            Some(json!({"premium": true})),
        )
        .await;
        assert_error(r, 401, "unauthenticated").await;
        let path = format!("/api/admin/users/{member_id}/premium");
        let r = send(
            &app,
            Method::PUT,
            &path,
            Some(&op),
            Some(json!({"premium": true})),
        )
        .await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["premium"], true);
        assert_eq!(body["user_id"], member_id);
        let body: Value = me(&app, &member).await.json().await.unwrap();
        assert_eq!(body["premium"], true, "Me carries premium");
        let r = send(
            &app,
            Method::PUT,
            "/api/admin/users/99999/premium",
            Some(&op),
            Some(json!({"premium": true})),
        )
        .await;
        assert_error(r, 404, "not_found").await;
        let body: Value = me(&app, &op).await.json().await.unwrap();
        assert_eq!(
            body["premium"], false,
            "the operator's own flag is untouched"
        );
    }
}

#[tokio::test]
async fn export_returns_the_members_own_data_as_a_download() {
    let app = spawn(TestDatabase::sqlite()).await;
    let t = signup(&app, "ant@x.io", "ant").await;
    let b = signup(&app, "bee@x.io", "bee").await;
    let favorites = |ids: &[&str]| json!({ "ids": ids });
    let r = send(
        &app,
        Method::PUT,
        "/api/me/favorites",
        Some(&t),
        Some(favorites(&["NASDAQ:AAPL", "KRX:005930"])),
    )
    .await;
    assert_eq!(r.status(), 200);
    let r = send(
        &app,
        Method::PUT,
        "/api/me/favorites",
        Some(&b),
        Some(favorites(&["NYSE:KO"])),
    )
    .await;
    assert_eq!(r.status(), 200);
    let r = send(&app, Method::GET, "/api/me/export", Some(&t), None).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment"));
    let text = r.text().await.unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["account"]["email"], "ant@x.io");
    assert_eq!(body["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(body["sessions"][0]["current"], true);
    assert_eq!(
        body["favorites"],
        json!(["NASDAQ:AAPL", "KRX:005930"]),
        "favourites in order"
    );
    assert!(!text.contains("NYSE:KO"), "not another member's favourites");
    assert!(!text.contains("argon2"), "no password hash");
    assert!(!text.contains("bee"), "nothing of another member");
}

#[tokio::test]
async fn deleting_the_account_removes_personal_data_and_frees_the_names() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        let t = signup(&app, "ant@x.io", "ant").await;
        let id = claims(&t).data.user_id;
        let r = send(&app, Method::DELETE, "/api/me", Some(&t), Some(json!({}))).await;
        let e = assert_error(r, 422, "invalid_input").await;
        assert!(has_field_error(&e, "password"));
        let r = send(
            &app,
            Method::DELETE,
            "/api/me",
            Some(&t),
            Some(json!({"password": "wrong password!"})),
        )
        .await;
        assert_error(r, 422, "invalid_input").await;
        let r = send(
            &app,
            Method::DELETE,
            "/api/me",
            Some(&t),
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(r.status(), 204);
        assert_error(me(&app, &t).await, 401, "token_invalid").await;
        assert_error(app.get("/api/users/ant").await, 404, "not_found").await;
        assert_error(
            login(&app, "ant@x.io", PASSWORD).await,
            401,
            "invalid_credentials",
        )
        .await;
        let tomb = s.user_by_id(id).await.unwrap().unwrap();
        assert!(tomb.deleted_at.is_some());
        assert_eq!(
            (tomb.email, tomb.nickname, tomb.password_hash),
            (None, None, None)
        );
        assert!(s.sessions_of(id).await.unwrap().is_empty());
        // The email and nickname are free again; the new account has a new id.
        let again = signup(&app, "ant@x.io", "ant").await;
        assert_ne!(claims(&again).data.user_id, id);
    }
}

#[tokio::test]
async fn social_only_members_delete_with_a_recent_session() {
    let app = spawn(TestDatabase::sqlite()).await;
    let s = storage(&app).await;
    let now = chrono::Utc::now().timestamp();
    let ticket = "t".repeat(64);
    s.insert_ticket(&Ticket {
        ticket_hash: moat_server::accounts::oidc::hash_ticket(&ticket),
        kind: TicketKind::Signup,
        provider: "google".into(),
        subject: "sub-1".into(),
        email: None,
        next_path: "/".into(),
        expires_at: now + 600,
    })
    .await
    .unwrap();
    let r = send(
        &app,
        Method::POST,
        "/api/auth/oidc/signup",
        None,
        Some(json!({"ticket": ticket, "nickname": "social"})),
    )
    .await;
    assert_eq!(r.status(), 201);
    let t = r.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let body: Value = me(&app, &t).await.json().await.unwrap();
    assert_eq!(body["email"], Value::Null);
    assert_eq!(body["has_password"], false);
    assert_eq!(body["providers"], json!(["google"]));
    // An old session is not enough.
    let id = claims(&t).data.user_id;
    let old = moat_storage::Session {
        jti: "old".into(),
        user_id: id,
        issued_at: now - 3600,
        expires_at: now + 3600,
        revoked_at: None,
    };
    s.insert_session(&old).await.unwrap();
    let old_token = TokenKeys::from_secret(&KEY)
        .sign(&Claims {
            exp: old.expires_at,
            iat: old.issued_at,
            jti: "old".into(),
            data: claims(&t).data,
        })
        .unwrap();
    let r = send(
        &app,
        Method::DELETE,
        "/api/me",
        Some(&old_token),
        Some(json!({})),
    )
    .await;
    assert_error(r, 403, "reauthentication_required").await;
    let r = send(&app, Method::DELETE, "/api/me", Some(&t), Some(json!({}))).await;
    assert_eq!(r.status(), 204);
    assert!(s
        .user_by_identity("google", "sub-1")
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn signup_tickets_are_single_use_and_expire() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        let now = chrono::Utc::now().timestamp();
        let put = |t: &str, subject: &str, expires_at: i64| Ticket {
            ticket_hash: moat_server::accounts::oidc::hash_ticket(t),
            kind: TicketKind::Signup,
            provider: "kakao".into(),
            subject: subject.into(),
            email: Some("k@x.io".into()),
            next_path: "/".into(),
            expires_at,
        };
        s.insert_ticket(&put("fresh", "s1", now + 600))
            .await
            .unwrap();
        s.insert_ticket(&put("stale", "s2", now - 1)).await.unwrap();
        let post = |ticket: &str, nickname: &str| {
            send(
                &app,
                Method::POST,
                "/api/auth/oidc/signup",
                None,
                Some(json!({"ticket": ticket, "nickname": nickname})),
            )
        };
        let e = assert_error(post("stale", "kko").await, 422, "invalid_input").await;
        assert!(has_field_error(&e, "ticket"));
        assert_error(post("unknown", "kko").await, 422, "invalid_input").await;
        // A bad nickname does not use the ticket up.
        let e = assert_error(post("fresh", "x").await, 422, "invalid_input").await;
        assert!(has_field_error(&e, "nickname"));
        assert_eq!(s.count_users().await.unwrap(), 0);
        let r = post("fresh", "kko").await;
        assert_eq!(r.status(), 201);
        assert_error(post("fresh", "kko2").await, 422, "invalid_input").await;
        assert_eq!(s.count_users().await.unwrap(), 1);
        let t = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let body: Value = me(&app, &t).await.json().await.unwrap();
        assert_eq!(body["email"], "k@x.io");
        assert_eq!(body["role"], "operator");
    }
}

#[tokio::test]
async fn a_link_ticket_links_the_identity_when_the_password_proves_the_account() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        signup(&app, "ant@x.io", "ant").await;
        let now = chrono::Utc::now().timestamp();
        let ticket = |t: &str, email: &str| Ticket {
            ticket_hash: moat_server::accounts::oidc::hash_ticket(t),
            kind: TicketKind::Link,
            provider: "naver".into(),
            subject: "n-1".into(),
            email: Some(email.into()),
            next_path: "/".into(),
            expires_at: now + 600,
        };
        s.insert_ticket(&ticket("link-1", "ant@x.io"))
            .await
            .unwrap();
        s.insert_ticket(&ticket("link-other", "bee@x.io"))
            .await
            .unwrap();
        let with = |t: &str, pw: &str| {
            send(
                &app,
                Method::POST,
                "/api/auth/login",
                None,
                Some(json!({"email": "ant@x.io", "password": pw, "link_ticket": t})),
            )
        };
        // A wrong password links nothing and keeps the ticket.
        assert_error(
            with("link-1", "wrong password!").await,
            401,
            "invalid_credentials",
        )
        .await;
        // A ticket for another email is refused.
        let e = assert_error(with("link-other", PASSWORD).await, 422, "invalid_input").await;
        assert!(has_field_error(&e, "link_ticket"));
        let r = with("link-1", PASSWORD).await;
        assert_eq!(r.status(), 200);
        let t = r.json::<Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let body: Value = me(&app, &t).await.json().await.unwrap();
        assert_eq!(body["providers"], json!(["naver"]));
        assert_error(with("link-1", PASSWORD).await, 422, "invalid_input").await;
        assert_eq!(
            s.user_by_identity("naver", "n-1")
                .await
                .unwrap()
                .unwrap()
                .email
                .as_deref(),
            Some("ant@x.io")
        );
    }
}

#[tokio::test]
async fn oidc_start_and_callback_fail_safely_without_a_provider() {
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.accounts.oidc = vec![moat_server::accounts::OidcProviderConfig {
            id: "local".into(),
            name: "Local".into(),
            issuer: "http://127.0.0.1:9".into(),
            client_id: "moat".into(),
            ..Default::default()
        }];
    })
    .await;
    let list: Value = app
        .get("/api/auth/oidc/providers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        list,
        json!([{"id": "local", "name": "Local", "preset": null}])
    );
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let get = |path: &str| no_redirect.get(app.url(path)).send();
    assert_error(
        get("/api/auth/oidc/nope/start").await.unwrap(),
        404,
        "not_found",
    )
    .await;
    // The issuer is down: back to the log-in page with an error, not a 500.
    let r = get("/api/auth/oidc/local/start?next=/x").await.unwrap();
    assert_eq!(r.status(), 302);
    assert_eq!(r.headers()["location"], "/login#error=oidc_failed");
    for (query, code) in [
        ("?state=unknown&code=abc", "oidc_failed"),
        ("", "oidc_failed"),
        ("?error=access_denied&state=x", "oidc_cancelled"),
        ("?error=server_error", "oidc_failed"),
    ] {
        let r = get(&format!("/api/auth/oidc/local/callback{query}"))
            .await
            .unwrap();
        assert_eq!(r.status(), 302, "{query}");
        assert_eq!(
            r.headers()["location"],
            format!("/login#error={code}"),
            "{query}"
        );
    }
}

#[tokio::test]
async fn a_pending_social_log_in_is_single_use_and_bound_to_its_provider() {
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.accounts.oidc = vec![
            moat_server::accounts::OidcProviderConfig {
                id: "a".into(),
                issuer: "http://127.0.0.1:9".into(),
                client_id: "x".into(),
                ..Default::default()
            },
            moat_server::accounts::OidcProviderConfig {
                id: "b".into(),
                issuer: "http://127.0.0.1:9".into(),
                client_id: "x".into(),
                ..Default::default()
            },
        ];
    })
    .await;
    let s = storage(&app).await;
    let pending = moat_storage::PendingLogin {
        state: "st".into(),
        provider: "a".into(),
        nonce: "n".into(),
        pkce_verifier: "v".repeat(43),
        redirect_uri: app.url("/api/auth/oidc/a/callback"),
        next_path: "/".into(),
        intent: "login".into(),
        expires_at: chrono::Utc::now().timestamp() + 600,
    };
    s.insert_pending_login(&pending).await.unwrap();
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // Presented to the other provider's callback: refused, and used up.
    let r = no_redirect
        .get(app.url("/api/auth/oidc/b/callback?state=st&code=c"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["location"], "/login#error=oidc_failed");
    assert!(
        s.take_pending_login("st", 0).await.unwrap().is_none(),
        "single use"
    );
}

#[tokio::test]
async fn the_admin_cli_manages_members_by_email() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let s = storage(&app).await;
        signup(&app, "op@x.io", "boss").await;
        let t = signup(&app, "ant@x.io", "ant").await;
        let config = moat_server::Config {
            database_url: app.db.url.clone(),
            ..Default::default()
        };
        use moat_server::cli::{admin, AdminCommand, OnOff};
        let email = || "ANT@x.io".to_string();
        let out = admin(&config, &AdminCommand::Promote { email: email() })
            .await
            .unwrap();
        assert!(out.contains("operator"), "{out}");
        assert_eq!(
            me(&app, &t).await.json::<Value>().await.unwrap()["role"],
            "operator"
        );
        admin(&config, &AdminCommand::Demote { email: email() })
            .await
            .unwrap();
        assert_eq!(
            me(&app, &t).await.json::<Value>().await.unwrap()["role"],
            "member"
        );
        admin(
            &config,
            &AdminCommand::Premium {
                email: email(),
                state: OnOff::On,
            },
        )
        .await
        .unwrap();
        assert_eq!(
            me(&app, &t).await.json::<Value>().await.unwrap()["premium"],
            true
        );
        admin(&config, &AdminCommand::Ban { email: email() })
            .await
            .unwrap();
        assert_error(me(&app, &t).await, 401, "token_invalid").await;
        admin(&config, &AdminCommand::Unban { email: email() })
            .await
            .unwrap();
        let out = admin(
            &config,
            &AdminCommand::SetPassword {
                email: email(),
                password: None,
            },
        )
        .await
        .unwrap();
        let temp = out
            .split("password set to ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(temp.len(), 20);
        assert_eq!(login(&app, "ant@x.io", temp).await.status(), 200);
        let err = admin(
            &config,
            &AdminCommand::SetPassword {
                email: email(),
                password: Some("short".into()),
            },
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains("10"), "{err}");
        admin(
            &config,
            &AdminCommand::SetPassword {
                email: email(),
                password: Some("a chosen passphrase".into()),
            },
        )
        .await
        .unwrap();
        assert_eq!(
            login(&app, "ant@x.io", "a chosen passphrase")
                .await
                .status(),
            200
        );
        let err = admin(
            &config,
            &AdminCommand::Promote {
                email: "nobody@x.io".into(),
            },
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains("nobody@x.io"), "{err}");
        assert_eq!(s.count_users().await.unwrap(), 2);
    }
}

#[tokio::test]
async fn member_pages_carry_a_card_naming_the_member() {
    let app = spawn(TestDatabase::sqlite()).await;
    signup(&app, "ant@x.io", "개미").await;
    let html = app.get("/u/%EA%B0%9C%EB%AF%B8").await.text().await.unwrap();
    assert!(html.contains("<title>개미 — Moat</title>"), "{html}");
    assert!(!html.contains("noindex"));
    let r = app.get("/u/nobody").await;
    assert_eq!(r.status(), 404);
    let html = app.get("/login").await.text().await.unwrap();
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(html.contains("<title>로그인 — Moat</title>"));
}

#[tokio::test]
async fn the_openapi_document_describes_the_account_api_and_bearer_auth() {
    let app = spawn(TestDatabase::sqlite()).await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    for path in [
        "/api/auth/signup",
        "/api/auth/login",
        "/api/auth/logout",
        "/api/me",
        "/api/me/password",
        "/api/me/export",
        "/api/users/{nickname}",
        "/api/admin/users/{user_id}/premium",
        "/api/auth/oidc/providers",
        "/api/auth/oidc/{id}/start",
        "/api/auth/oidc/{id}/callback",
        "/api/auth/oidc/signup",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
    assert!(doc["paths"]["/api/me"]["get"]["security"].is_array());
}

/// Log lines written by the server's own formatter, kept in memory.
#[derive(Clone, Default)]
struct LogBuffer(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogBuffer {
    type Writer = LogBuffer;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

impl LogBuffer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[tokio::test]
async fn a_line_break_in_a_provider_id_cannot_forge_a_log_line() {
    use tracing_subscriber::prelude::*;
    let forged = "2026-01-01T00:00:00.000000Z ERROR moat_server: FORGED admin logged in";
    let encoded: String = form_urlencoded_path(forged);
    for format in [
        moat_server::config::LogFormat::Pretty,
        moat_server::config::LogFormat::Json,
    ] {
        let logs = LogBuffer::default();
        // This test's thread only (the runtime is single-threaded, so the server's
        // tasks log here too).
        let _guard = tracing::subscriber::set_default(
            tracing_subscriber::registry()
                .with(tracing_subscriber::EnvFilter::new("info"))
                .with(moat_server::logging::layer(format, logs.clone())),
        );
        let app = spawn(TestDatabase::sqlite()).await;
        let no_redirect = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let r = no_redirect
            .get(app.url(&format!(
                "/api/auth/oidc/evil%0A{encoded}/callback?state=unknown&code=abc"
            )))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 302);
        let text = logs.text();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("FORGED") || l.contains("social log-in failed"))
            .collect();
        assert_eq!(
            lines.len(),
            1,
            "{format:?}: one line, with the id escaped in it:\n{text}"
        );
        assert!(
            lines[0].contains("social log-in failed"),
            "{format:?}: {text}"
        );
        assert!(
            !text.lines().any(|l| l.starts_with("2026-01-01T00:00:00")),
            "{format:?}: no forged line:\n{text}"
        );
    }
}

/// `s` with every byte outside `[A-Za-z0-9]` percent-encoded, for a path segment.
fn form_urlencoded_path(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
