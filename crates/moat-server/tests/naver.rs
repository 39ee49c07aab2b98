//! Naver log-in against a local provider that speaks Naver Login's protocol
//! (docs/accounts.md, "Naver"): `/oauth2.0/authorize` sends the browser back with
//! `code` and `state` (or `error=access_denied`), `/oauth2.0/token` answers Naver's
//! JSON (errors with HTTP 200 too, `expires_in` a string), `/v1/nid/me` answers
//! `{resultcode, message, response}` (`024` with HTTP 401 for a bad token). The test
//! plays the browser: it follows each redirect by hand, carrying the one cookie Moat
//! sets (the log-in's binding to this browser) as a browser would.

mod helpers;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    extract::{Query, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Form, Json, Router,
};
use helpers::{send, signup, TestApp, PASSWORD};
use moat_storage::{testing::TestDatabase, Storage};
use reqwest::Method;
use serde_json::{json, Value};

const CLIENT_ID: &str = "moat-naver-test";
const CLIENT_SECRET: &str = "naver-secret-0123456789";

/// The Naver member the local provider logs in.
#[derive(Clone)]
struct Person {
    id: &'static str,
    email: Option<&'static str>,
    nickname: &'static str,
}

const ANT: Person = Person {
    id: "32742776",
    email: Some("ant@naver.com"),
    nickname: "네이버개미",
};

/// How the local provider answers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Ok,
    /// The person presses "cancel" on the consent screen.
    Cancel,
    /// The token endpoint refuses every code (HTTP 200, Naver's error JSON).
    TokenError,
    /// The profile API refuses every token (HTTP 401, resultcode 024).
    ProfileError,
}

#[derive(Default)]
struct Provider {
    mode: Option<Mode>,
    person: Option<Person>,
    /// code → (state, redirect_uri) of the authorization that minted it.
    codes: HashMap<String, (String, String)>,
    /// access token → person.
    tokens: HashMap<String, Person>,
    /// Every token request's form, in order.
    token_requests: Vec<HashMap<String, String>>,
    profile_requests: usize,
    next: u64,
}

type Shared = Arc<Mutex<Provider>>;

/// A local Naver: its base URL and its state.
async fn start_naver() -> (String, Shared) {
    let shared: Shared = Arc::default();
    let app = Router::new()
        .route("/oauth2.0/authorize", get(authorize))
        .route("/oauth2.0/token", get(token_get).post(token_post))
        .route("/v1/nid/me", get(profile))
        .with_state(shared.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, shared)
}

async fn authorize(State(p): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    // Naver shows its own error page for a wrong client or callback: no redirect.
    if q.get("response_type").map(String::as_str) != Some("code")
        || q.get("client_id").map(String::as_str) != Some(CLIENT_ID)
    {
        return (StatusCode::BAD_REQUEST, "invalid client").into_response();
    }
    let (Some(redirect_uri), Some(state)) = (q.get("redirect_uri"), q.get("state")) else {
        return (StatusCode::BAD_REQUEST, "missing redirect_uri or state").into_response();
    };
    let mut p = p.lock().unwrap();
    let mut url = url::Url::parse(redirect_uri).unwrap();
    if p.mode == Some(Mode::Cancel) {
        url.query_pairs_mut()
            .append_pair("state", state)
            .append_pair("error", "access_denied")
            .append_pair("error_description", "Canceled By User");
    } else {
        p.next += 1;
        let code = format!("code-{}", p.next);
        p.codes
            .insert(code.clone(), (state.clone(), redirect_uri.clone()));
        url.query_pairs_mut()
            .append_pair("code", &code)
            .append_pair("state", state);
    }
    // Naver answers with a 302.
    (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
}

async fn token_get(State(p): State<Shared>, Query(q): Query<HashMap<String, String>>) -> Response {
    token(p, q)
}

async fn token_post(State(p): State<Shared>, Form(f): Form<HashMap<String, String>>) -> Response {
    token(p, f)
}

/// Naver's token endpoint: errors are JSON with HTTP 200.
fn token(p: Shared, f: HashMap<String, String>) -> Response {
    let mut p = p.lock().unwrap();
    p.token_requests.push(f.clone());
    let error =
        |e: &str, d: &str| Json(json!({"error": e, "error_description": d})).into_response();
    if p.mode == Some(Mode::TokenError) {
        return error("invalid_request", "no valid data in session");
    }
    if f.get("grant_type").map(String::as_str) != Some("authorization_code")
        || f.get("client_id").map(String::as_str) != Some(CLIENT_ID)
        || f.get("client_secret").map(String::as_str) != Some(CLIENT_SECRET)
    {
        return error("invalid_client", "client authentication failed");
    }
    let code = f.get("code").cloned().unwrap_or_default();
    let Some((state, _)) = p.codes.remove(&code) else {
        return error("invalid_request", "no valid data in session");
    };
    if f.get("state") != Some(&state) {
        return error("invalid_request", "state mismatch");
    }
    p.next += 1;
    let access = format!("AAAA-{}", p.next);
    let person = p.person.clone().unwrap_or(ANT);
    p.tokens.insert(access.clone(), person);
    Json(json!({
        "access_token": access,
        "refresh_token": "refresh",
        "token_type": "bearer",
        "expires_in": "3600",
    }))
    .into_response()
}

/// Naver's profile API.
async fn profile(State(p): State<Shared>, headers: HeaderMap) -> Response {
    let mut p = p.lock().unwrap();
    p.profile_requests += 1;
    let unauthorized = (
        StatusCode::UNAUTHORIZED,
        Json(json!({"resultcode": "024", "message": "Authentication failed"})),
    )
        .into_response();
    if p.mode == Some(Mode::ProfileError) {
        return unauthorized;
    }
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    let Some(person) = p.tokens.get(token) else {
        return unauthorized;
    };
    let mut response = json!({
        "id": person.id,
        "nickname": person.nickname,
        "name": "김개미",
        "profile_image": "https://phinf.pstatic.net/x.png",
    });
    if let Some(email) = person.email {
        response["email"] = json!(email);
    }
    Json(json!({"resultcode": "00", "message": "success", "response": response})).into_response()
}

/// Provider `naver` with the local Naver's log-in and token endpoints at `naver` and
/// its profile API at `profile`.
fn naver_provider(naver: &str, profile: &str) -> moat_server::accounts::OidcProviderConfig {
    moat_server::accounts::OidcProviderConfig {
        id: "naver".into(),
        name: "네이버".into(),
        preset: "naver".into(),
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        authorize_url: format!("{naver}/oauth2.0/authorize"),
        token_url: format!("{naver}/oauth2.0/token"),
        profile_url: format!("{profile}/v1/nid/me"),
        ..Default::default()
    }
}

/// Moat with the local Naver as provider `naver`.
async fn spawn_with_naver(naver: &str) -> TestApp {
    let provider = naver_provider(naver, naver);
    TestApp::spawn_with(TestDatabase::sqlite(), move |c| {
        c.accounts.signups_per_ip_per_hour = 1000;
        c.accounts.oidc = vec![provider];
    })
    .await
}

/// A client that follows no redirect, so each step is seen.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn location(r: &reqwest::Response) -> String {
    assert_eq!(r.status(), 302, "a redirect");
    r.headers()[header::LOCATION].to_str().unwrap().to_owned()
}

/// The values of a web-app redirect's fragment (`/path#a=1&b=2`).
fn fragment(location: &str) -> (String, HashMap<String, String>) {
    let (path, fragment) = location.split_once('#').unwrap_or((location, ""));
    let values = url::form_urlencoded::parse(fragment.as_bytes())
        .into_owned()
        .collect();
    (path.to_owned(), values)
}

/// `/start`: the provider's URL and the `Cookie` header the browser sends back to the
/// callback (the binding cookie, whose attributes are checked here).
async fn start(app: &TestApp, query: &str) -> (String, String) {
    let r = browser()
        .get(app.url(&format!("/api/auth/oidc/naver/start{query}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()[header::CACHE_CONTROL], "no-store");
    let set_cookie = r.headers()[header::SET_COOKIE].to_str().unwrap().to_owned();
    let (pair, attributes) = set_cookie.split_once("; ").unwrap();
    assert!(pair.starts_with("moat_oidc_"), "{set_cookie}");
    assert_eq!(
        attributes,
        "Path=/api/auth/oidc/naver/callback; Max-Age=600; HttpOnly; SameSite=Lax"
    );
    (location(&r), pair.to_owned())
}

/// Start → the provider's authorize → back to Moat's callback: the last redirect.
async fn log_in(app: &TestApp) -> String {
    let b = browser();
    let (to_naver, cookie) = start(app, "?next=/portfolio").await;
    let back = location(&b.get(&to_naver).send().await.unwrap());
    location(
        &b.get(&back)
            .header(header::COOKIE, cookie)
            .send()
            .await
            .unwrap(),
    )
}

async fn storage(app: &TestApp) -> Arc<dyn Storage> {
    moat_storage::connect(&app.db.url, &Default::default())
        .await
        .unwrap()
}

#[tokio::test]
async fn naver_log_in_signs_up_a_new_member_then_logs_them_in() {
    let (naver, provider) = start_naver().await;
    let app = spawn_with_naver(&naver).await;

    let providers: Value = app
        .get("/api/auth/oidc/providers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        providers,
        json!([{"id": "naver", "name": "네이버", "preset": "naver"}])
    );

    // Start: to Naver's authorize endpoint with Naver's four parameters and nothing
    // else (no scope, no PKCE, no nonce).
    let b = browser();
    let (to_naver, cookie) = start(&app, "?next=/portfolio").await;
    let to_naver = url::Url::parse(&to_naver).unwrap();
    assert_eq!(
        to_naver.as_str().split('?').next().unwrap(),
        format!("{naver}/oauth2.0/authorize")
    );
    let q: HashMap<String, String> = to_naver.query_pairs().into_owned().collect();
    let mut keys: Vec<&str> = q.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        ["client_id", "redirect_uri", "response_type", "state"]
    );
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], CLIENT_ID);
    assert_eq!(q["redirect_uri"], app.url("/api/auth/oidc/naver/callback"));
    assert!(q["state"].len() >= 16, "an unguessable state");

    // Naver sends the browser back; Moat exchanges the code and reads the profile, and
    // clears the binding cookie.
    let back = location(&b.get(to_naver.as_str()).send().await.unwrap());
    let r = b
        .get(&back)
        .header(header::COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    let cleared = r.headers()[header::SET_COOKIE].to_str().unwrap();
    let name = cookie.split('=').next().unwrap();
    assert!(
        cleared.starts_with(&format!(
            "{name}=; Path=/api/auth/oidc/naver/callback; Max-Age=0"
        )),
        "{cleared}"
    );
    let done = location(&r);
    let (path, values) = fragment(&done);
    assert_eq!(path, "/signup/social");
    assert_eq!(values["email"], "ant@naver.com");
    assert_eq!(values["nickname"], "네이버개미");
    assert_eq!(values["next"], "/portfolio");
    {
        let p = provider.lock().unwrap();
        assert_eq!(p.token_requests.len(), 1);
        let t = &p.token_requests[0];
        assert_eq!(
            t["state"], q["state"],
            "the token request carries the state"
        );
        assert_eq!(t["client_secret"], CLIENT_SECRET);
        assert_eq!(p.profile_requests, 1);
    }

    // The member keeps Naver's nickname and the account is made.
    let r = send(
        &app,
        Method::POST,
        "/api/auth/oidc/signup",
        None,
        Some(json!({"ticket": values["ticket"], "nickname": values["nickname"]})),
    )
    .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let token = r.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let me: Value = send(&app, Method::GET, "/api/me", Some(&token), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["email"], "ant@naver.com");
    assert_eq!(me["nickname"], "네이버개미");
    assert_eq!(me["providers"], json!(["naver"]));
    assert_eq!(me["has_password"], false);

    // Next time the same Naver id logs straight in.
    let (path, values) = fragment(&log_in(&app).await);
    assert_eq!(path, "/auth/complete");
    assert_eq!(values["next"], "/portfolio");
    let me: Value = send(&app, Method::GET, "/api/me", Some(&values["token"]), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["nickname"], "네이버개미");
}

#[tokio::test]
async fn a_naver_email_of_an_existing_member_asks_for_the_password_to_link() {
    let (naver, _provider) = start_naver().await;
    let app = spawn_with_naver(&naver).await;
    signup(&app, "ant@naver.com", "개미").await;

    let (path, values) = fragment(&log_in(&app).await);
    assert_eq!(path, "/login");
    assert_eq!(values["email"], "ant@naver.com");
    assert_eq!(values["provider"], "naver");
    let r = send(
        &app,
        Method::POST,
        "/api/auth/login",
        None,
        Some(json!({"email": "ant@naver.com", "password": PASSWORD, "link_ticket": values["link_ticket"]})),
    )
    .await;
    assert_eq!(r.status(), 200);
    let (path, _) = fragment(&log_in(&app).await);
    assert_eq!(path, "/auth/complete", "the linked Naver id now logs in");
    let user = storage(&app)
        .await
        .user_by_identity("naver", ANT.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(user.email.as_deref(), Some("ant@naver.com"));
}

#[tokio::test]
async fn a_wrong_replayed_or_carried_state_is_refused_before_naver_is_asked() {
    let (naver, provider) = start_naver().await;
    let app = spawn_with_naver(&naver).await;
    let b = browser();
    let callback = |url: &str, cookie: &str| {
        let mut request = b.get(url);
        if !cookie.is_empty() {
            request = request.header(header::COOKIE, cookie.to_owned());
        }
        request.send()
    };
    let token_requests = || provider.lock().unwrap().token_requests.len();

    let (to_naver, cookie) = start(&app, "").await;
    let back = url::Url::parse(&location(&b.get(&to_naver).send().await.unwrap())).unwrap();
    let q: HashMap<String, String> = back.query_pairs().into_owned().collect();
    let with_state = |state: &str| {
        let mut u = back.clone();
        u.query_pairs_mut()
            .clear()
            .append_pair("code", &q["code"])
            .append_pair("state", state);
        u.to_string()
    };

    // A state Moat never made (a forged callback): refused, Naver not asked.
    for forged in ["forged-state", "", &"x".repeat(600)] {
        let r = callback(&with_state(forged), &cookie).await.unwrap();
        assert_eq!(location(&r), "/login#error=oidc_failed", "{forged:?}");
    }
    assert_eq!(token_requests(), 0);

    // The real callback URL carried to another browser (which has only its own log-in's
    // cookie): refused before Naver is asked, and the pending log-in is used up.
    let (_, other_cookie) = start(&app, "").await;
    let r = callback(back.as_str(), &other_cookie).await.unwrap();
    assert_eq!(location(&r), "/login#error=oidc_failed");
    assert_eq!(token_requests(), 0);
    let r = callback(back.as_str(), &cookie).await.unwrap();
    assert_eq!(location(&r), "/login#error=oidc_failed", "used up");

    // Without any cookie: refused too.
    let (to_naver, _) = start(&app, "").await;
    let back = location(&b.get(&to_naver).send().await.unwrap());
    let r = callback(&back, "").await.unwrap();
    assert_eq!(location(&r), "/login#error=oidc_failed");
    assert_eq!(token_requests(), 0);

    // In the browser that started it, a log-in works once; the same callback again is
    // refused.
    let (to_naver, cookie) = start(&app, "").await;
    let back = location(&b.get(&to_naver).send().await.unwrap());
    let (path, _) = fragment(&location(&callback(&back, &cookie).await.unwrap()));
    assert_eq!(path, "/signup/social");
    let r = callback(&back, &cookie).await.unwrap();
    assert_eq!(location(&r), "/login#error=oidc_failed", "replayed");
    assert_eq!(token_requests(), 1);
}

#[tokio::test]
async fn naver_refusals_and_failures_make_no_account() {
    let (naver, provider) = start_naver().await;
    let app = spawn_with_naver(&naver).await;
    let s = storage(&app).await;

    for (mode, expected) in [
        (Mode::TokenError, "/login#error=oidc_failed"),
        (Mode::ProfileError, "/login#error=oidc_failed"),
        (Mode::Cancel, "/login#error=oidc_cancelled"),
    ] {
        provider.lock().unwrap().mode = Some(mode);
        assert_eq!(log_in(&app).await, expected, "{mode:?}");
        assert!(
            s.user_by_identity("naver", ANT.id).await.unwrap().is_none(),
            "{mode:?}"
        );
    }
    {
        let p = provider.lock().unwrap();
        assert_eq!(p.token_requests.len(), 2, "cancel asks no token");
        assert_eq!(p.profile_requests, 1, "a refused code asks no profile");
    }

    // A profile without an id is no identity either.
    provider.lock().unwrap().mode = Some(Mode::Ok);
    provider.lock().unwrap().person = Some(Person {
        id: "",
        email: Some("ant@naver.com"),
        nickname: "개미",
    });
    assert_eq!(log_in(&app).await, "/login#error=oidc_failed");
    assert!(s.user_by_email("ant@naver.com").await.unwrap().is_none());
}

#[tokio::test]
async fn an_unreachable_naver_is_a_failed_log_in_not_an_error_page() {
    // Endpoints on a port nothing listens on (bound, then closed).
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let (naver, provider) = start_naver().await;
    let unreachable_profile = naver_provider(&naver, &closed);
    let app = TestApp::spawn_with(TestDatabase::sqlite(), move |c| {
        c.accounts.oidc = vec![unreachable_profile];
    })
    .await;
    assert_eq!(log_in(&app).await, "/login#error=oidc_failed");
    assert_eq!(provider.lock().unwrap().token_requests.len(), 1);
    let s = storage(&app).await;
    assert!(s.user_by_identity("naver", ANT.id).await.unwrap().is_none());
}

#[tokio::test]
async fn without_naver_configured_there_is_no_naver() {
    let app = TestApp::spawn().await;
    let providers: Value = app
        .get("/api/auth/oidc/providers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(providers, json!([]));
    let r = browser()
        .get(app.url("/api/auth/oidc/naver/start"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    let r = browser()
        .get(app.url("/api/auth/oidc/naver/callback?code=c&state=s"))
        .send()
        .await
        .unwrap();
    assert_eq!(location(&r), "/login#error=oidc_failed");
}
