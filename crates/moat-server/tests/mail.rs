//! Password reset and email verification by e-mail (docs/accounts.md), over real HTTP
//! and real SMTP: the app sends through lettre to a local SMTP sink
//! (`helpers::smtp`), and the tests read the links from the mail received. On SQLite
//! and, with `MOAT_TEST_POSTGRES_URL`, PostgreSQL.

mod helpers;

use std::{sync::Arc, time::Duration};

use helpers::{assert_error, field_code, send, signup, smtp::SmtpSink, TestApp, PASSWORD};
use moat_server::{accounts::MAIL_LINK_TTL, clock::ManualClock};
use moat_storage::testing::TestDatabase;
use reqwest::Method;
use serde_json::json;

const NEW_PASSWORD: &str = "a brand new passphrase";

/// An app sending mail to `sink`, its clock standing still until the test moves it.
async fn spawn(db: TestDatabase, sink: &SmtpSink) -> (TestApp, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_now());
    let port = sink.port;
    let app = TestApp::spawn_with_clock(
        db,
        move |c| {
            c.public_url = "https://moat.test".into();
            c.accounts.signups_per_ip_per_hour = 1000;
            c.mail.host = "127.0.0.1".into();
            c.mail.port = port;
            c.mail.tls = moat_server::mail::MailTls::None;
            c.mail.from = "Moat <no-reply@moat.test>".into();
        },
        clock.clone(),
    )
    .await;
    (app, clock)
}

async fn ask_reset(app: &TestApp, email: &str) -> reqwest::Response {
    send(
        app,
        Method::POST,
        "/api/auth/password-reset",
        None,
        Some(json!({"email": email, "language": "en"})),
    )
    .await
}

async fn confirm_reset(app: &TestApp, token: &str, password: &str) -> reqwest::Response {
    send(
        app,
        Method::POST,
        "/api/auth/password-reset/confirm",
        None,
        Some(json!({"token": token, "new_password": password})),
    )
    .await
}

async fn confirm_verification(app: &TestApp, token: String) -> reqwest::Response {
    send(
        app,
        Method::POST,
        "/api/auth/email-verification",
        None,
        Some(json!({ "token": token })),
    )
    .await
}

async fn verify_again(app: &TestApp, token: &str) -> reqwest::Response {
    send(
        app,
        Method::POST,
        "/api/me/email/verification",
        Some(token),
        Some(json!({"language": "ko"})),
    )
    .await
}

async fn login(app: &TestApp, email: &str, password: &str) -> u16 {
    send(
        app,
        Method::POST,
        "/api/auth/login",
        None,
        Some(json!({"email": email, "password": password})),
    )
    .await
    .status()
    .as_u16()
}

#[test]
fn mail_links_live_thirty_minutes() {
    assert_eq!(MAIL_LINK_TTL, Duration::from_secs(30 * 60));
}

#[tokio::test]
async fn a_reset_link_by_mail_sets_a_new_password_once_and_ends_every_session() {
    for db in TestDatabase::all().await {
        let sink = SmtpSink::start().await;
        let (app, _) = spawn(db, &sink).await;
        let old = signup(&app, "ant@moat.test", "ant").await;
        let r = ask_reset(&app, "Ant@Moat.test ").await;
        assert_eq!(r.status(), 202);
        // The sign-up's verification mail and this one, in either order.
        sink.wait_for("ant@moat.test", 2).await;
        let mail = sink
            .mails_to("ant@moat.test")
            .into_iter()
            .find(|m| m.link().contains("/reset-password#"))
            .expect("a reset mail");
        assert!(
            mail.data.contains("Subject: [Moat] Reset your password"),
            "{}",
            mail.data
        );
        assert_eq!(mail.from, "no-reply@moat.test");
        assert!(
            mail.link()
                .starts_with("https://moat.test/reset-password#token="),
            "the link points at public_url, the token in the fragment: {}",
            mail.link()
        );
        let token = mail.token();

        let weak = confirm_reset(&app, &token, "short").await;
        let e = assert_error(weak, 422, "invalid_input").await;
        assert_eq!(field_code(&e, "new_password"), "password_length");

        let r = confirm_reset(&app, &token, NEW_PASSWORD).await;
        assert_eq!(r.status(), 200, "a refused password leaves the link usable");
        let fresh = r.json::<serde_json::Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let me = send(&app, Method::GET, "/api/me", Some(&fresh), None).await;
        assert_eq!(me.status(), 200);
        let me: serde_json::Value = me.json().await.unwrap();
        assert_eq!(me["email_verified"], true, "the link proved the address");
        let before = send(&app, Method::GET, "/api/me", Some(&old), None).await;
        assert_error(before, 401, "token_invalid").await;
        assert_eq!(login(&app, "ant@moat.test", PASSWORD).await, 401);
        assert_eq!(login(&app, "ant@moat.test", NEW_PASSWORD).await, 200);

        let again = confirm_reset(&app, &token, "yet another passphrase").await;
        let e = assert_error(again, 422, "invalid_input").await;
        assert_eq!(field_code(&e, "token"), "link_expired", "single use");
    }
}

#[tokio::test]
async fn a_reset_link_expires_after_thirty_minutes() {
    let sink = SmtpSink::start().await;
    let (app, clock) = spawn(TestDatabase::sqlite(), &sink).await;
    signup(&app, "ant@moat.test", "ant").await;
    assert_eq!(ask_reset(&app, "ant@moat.test").await.status(), 202);
    let token = sink.wait_for("ant@moat.test", 2).await.token();
    clock.advance(MAIL_LINK_TTL);
    let e = assert_error(
        confirm_reset(&app, &token, NEW_PASSWORD).await,
        422,
        "invalid_input",
    )
    .await;
    assert_eq!(field_code(&e, "token"), "link_expired");
    assert_eq!(login(&app, "ant@moat.test", PASSWORD).await, 200);
}

#[tokio::test]
async fn asking_for_a_reset_answers_the_same_for_a_member_and_a_stranger() {
    let sink = SmtpSink::start().await;
    let (app, _) = spawn(TestDatabase::sqlite(), &sink).await;
    signup(&app, "ant@moat.test", "ant").await;
    sink.wait_for("ant@moat.test", 1).await;
    let member = ask_reset(&app, "ant@moat.test").await;
    let stranger = ask_reset(&app, "nobody@moat.test").await;
    assert_eq!(member.status(), stranger.status());
    assert_eq!(member.status(), 202);
    let strip = |r: &reqwest::Response| {
        let mut h: Vec<(String, String)> = r
            .headers()
            .iter()
            .filter(|(k, _)| !["x-request-id", "date"].contains(&k.as_str()))
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_owned()))
            .collect();
        h.sort();
        h
    };
    assert_eq!(strip(&member), strip(&stranger), "the same headers");
    assert_eq!(
        member.bytes().await.unwrap(),
        stranger.bytes().await.unwrap(),
        "the same body"
    );
    sink.wait_for("ant@moat.test", 2).await;
    // The stranger's request is handled off the request path too: give it the time
    // the member's took, then check nothing went out.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(sink.mails_to("nobody@moat.test").is_empty());
    assert_eq!(sink.mails().len(), 2);
}

#[tokio::test]
async fn reset_requests_are_limited_per_ip_and_mails_per_address() {
    let sink = SmtpSink::start().await;
    let (app, _) = spawn(TestDatabase::sqlite(), &sink).await;
    signup(&app, "ant@moat.test", "ant").await;
    use moat_server::accounts::rate_limit::{MAILS_PER_ADDRESS, RESET_REQUESTS_PER_IP};
    for _ in 0..RESET_REQUESTS_PER_IP {
        assert_eq!(ask_reset(&app, "ant@moat.test").await.status(), 202);
    }
    let over = ask_reset(&app, "ant@moat.test").await;
    assert!(over.headers().contains_key("retry-after"));
    assert_error(over, 429, "rate_limited").await;
    let sent = 1 + MAILS_PER_ADDRESS as usize; // the verification mail, then resets
    sink.wait_for("ant@moat.test", sent).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        sink.mails_to("ant@moat.test").len(),
        sent,
        "no more than {MAILS_PER_ADDRESS} reset mails an hour"
    );
}

#[tokio::test]
async fn without_mail_the_reset_is_the_operators_and_says_so() {
    let app = TestApp::spawn().await;
    let r = app.get("/api/auth/password-reset").await;
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["available"],
        false
    );
    let e = assert_error(
        ask_reset(&app, "ant@moat.test").await,
        409,
        "mail_not_configured",
    )
    .await;
    assert!(e["message"].as_str().unwrap().contains("operator"));
}

#[tokio::test]
async fn a_bad_address_is_refused_before_anything_else() {
    let sink = SmtpSink::start().await;
    let (app, _) = spawn(TestDatabase::sqlite(), &sink).await;
    let r = app.get("/api/auth/password-reset").await;
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["available"],
        true
    );
    let e = assert_error(ask_reset(&app, "not an email").await, 422, "invalid_input").await;
    assert_eq!(field_code(&e, "email"), "email_invalid");
}

#[tokio::test]
async fn the_sign_up_mail_verifies_the_email_once() {
    for db in TestDatabase::all().await {
        let sink = SmtpSink::start().await;
        let (app, _) = spawn(db, &sink).await;
        let token = signup(&app, "ant@moat.test", "ant").await;
        let me: serde_json::Value = send(&app, Method::GET, "/api/me", Some(&token), None)
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(me["email_verified"], false);
        let mail = sink.wait_for("ant@moat.test", 1).await;
        assert!(mail
            .link()
            .starts_with("https://moat.test/verify-email#token="));
        assert_eq!(confirm_verification(&app, mail.token()).await.status(), 204);
        let me: serde_json::Value = send(&app, Method::GET, "/api/me", Some(&token), None)
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(me["email_verified"], true);
        let e = assert_error(
            confirm_verification(&app, mail.token()).await,
            422,
            "invalid_input",
        )
        .await;
        assert_eq!(field_code(&e, "token"), "link_expired");
    }
}

#[tokio::test]
async fn a_member_can_ask_for_the_verification_mail_again_within_limits() {
    let sink = SmtpSink::start().await;
    let (app, _) = spawn(TestDatabase::sqlite(), &sink).await;
    let token = signup(&app, "ant@moat.test", "ant").await;
    sink.wait_for("ant@moat.test", 1).await;
    use moat_server::accounts::rate_limit::MAILS_PER_ADDRESS;
    for n in 0..MAILS_PER_ADDRESS as usize {
        assert_eq!(verify_again(&app, &token).await.status(), 202);
        let mail = sink.mails_to("ant@moat.test")[n + 1].clone();
        assert!(
            mail.body().contains("이메일 주소를 확인"),
            "{}",
            mail.body()
        );
    }
    assert_error(verify_again(&app, &token).await, 429, "rate_limited").await;
    let anonymous = send(
        &app,
        Method::POST,
        "/api/me/email/verification",
        None,
        Some(json!({})),
    )
    .await;
    assert_error(anonymous, 401, "unauthenticated").await;
}

#[tokio::test]
async fn a_deleted_members_links_stop_working() {
    let sink = SmtpSink::start().await;
    let (app, _) = spawn(TestDatabase::sqlite(), &sink).await;
    let token = signup(&app, "ant@moat.test", "ant").await;
    let verify = sink.wait_for("ant@moat.test", 1).await.token();
    assert_eq!(ask_reset(&app, "ant@moat.test").await.status(), 202);
    let reset = sink.wait_for("ant@moat.test", 2).await.token();
    let r = send(
        &app,
        Method::DELETE,
        "/api/me",
        Some(&token),
        Some(json!({"password": PASSWORD})),
    )
    .await;
    assert_eq!(r.status(), 204);
    let e = assert_error(
        confirm_reset(&app, &reset, NEW_PASSWORD).await,
        422,
        "invalid_input",
    )
    .await;
    assert_eq!(field_code(&e, "token"), "link_expired");
    assert_error(
        confirm_verification(&app, verify).await,
        422,
        "invalid_input",
    )
    .await;
}
