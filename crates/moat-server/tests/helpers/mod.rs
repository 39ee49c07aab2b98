//! `TestApp`: the real server on port 0 with a fresh database and a small web build of
//! its own, one per test. Dropping it shuts the server down.

#![allow(dead_code)]

pub mod feeds;
pub mod smtp;
pub mod ws;
pub mod yahoo;

use std::{future::Future, path::Path, sync::Arc, time::Duration};

use moat_server::{
    clock::{Clock, SystemClock},
    config::Config,
    AppState, Application,
};
use moat_storage::testing::TestDatabase;
use reqwest::{Client, Response};

pub const INDEX_HTML: &str = r#"<!doctype html>
<html lang="ko">
  <head>
    <meta charset="UTF-8" />
    <!--moat-head-->
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
"#;

/// How long a test waits for something the server does off the request path (a span
/// written, an ingest slot given back) before failing: generous, machines are noisy.
pub const PATIENCE: Duration = Duration::from_secs(10);
/// How often such a wait looks again.
pub const POLL_EVERY: Duration = Duration::from_millis(10);

/// Waits until `check` holds, looking every [`POLL_EVERY`]; fails the test, naming
/// `what`, when it still does not after [`PATIENCE`].
pub async fn wait_until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !check().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "still not {what} after {PATIENCE:?}"
        );
        tokio::time::sleep(POLL_EVERY).await;
    }
}

/// The token key of [`TestApp::spawn_pair`]'s instances (base64 of 32 bytes).
pub const PAIR_TOKEN_KEY: &str = "bW9hdC10ZXN0LXBhaXItdG9rZW4ta2V5LTMyLWJ5dGVzIQ==";

pub struct TestApp {
    pub base: String,
    pub client: Client,
    pub raw_client: Client,
    pub db: TestDatabase,
    /// The running server's state (its configuration, limiter, password hasher,
    /// storage, the ingest's budgets …).
    pub state: AppState,
    _web: tempfile::TempDir,
    _data: tempfile::TempDir,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    handle: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

/// A web build with an index page, a hashed script and the web-view host page.
fn write_web_build(dir: &Path) {
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), INDEX_HTML).unwrap();
    std::fs::write(
        dir.join("assets/index-abc123.js"),
        "export const moat = 'moat';\n".repeat(400),
    )
    .unwrap();
    std::fs::write(
        dir.join("webview-host.html"),
        "<!doctype html><title>host</title>",
    )
    .unwrap();
    std::fs::write(
        dir.join("favicon.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg'/>",
    )
    .unwrap();
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(TestDatabase::sqlite(), |_| {}).await
    }

    pub async fn spawn_with(db: TestDatabase, tweak: impl FnOnce(&mut Config)) -> Self {
        Self::spawn_with_clock(db, tweak, Arc::new(SystemClock)).await
    }

    /// [`TestApp::spawn_with`], its time-based limits, tokens and sessions reading
    /// `clock`.
    pub async fn spawn_with_clock(
        db: TestDatabase,
        tweak: impl FnOnce(&mut Config),
        clock: Arc<dyn Clock>,
    ) -> Self {
        let broker = Arc::new(moat_server::broker::LocalBroker::default());
        Self::spawn_on(db, tweak, clock, broker).await
    }

    /// Two instances of one deployment: both on `db` (which the caller keeps, so that
    /// either may stop), sharing events through one in-process broker (as two
    /// processes would through NATS).
    pub async fn spawn_pair(db: &TestDatabase, tweak: impl Fn(&mut Config)) -> (Self, Self) {
        let broker: Arc<dyn moat_server::broker::Broker> =
            Arc::new(moat_server::broker::LocalBroker::default());
        let (db, shared) = (db.shared(), db.shared());
        // One token key, as a deployment's instances share (MOAT_ACCOUNTS_TOKEN_KEY).
        let tweak = |c: &mut Config| {
            c.accounts.token_key = PAIR_TOKEN_KEY.into();
            tweak(c);
        };
        let a = Self::spawn_on(db, tweak, Arc::new(SystemClock), broker.clone()).await;
        let b = Self::spawn_on(shared, tweak, Arc::new(SystemClock), broker).await;
        (a, b)
    }

    /// A server on `db` whose bus runs over `broker`.
    pub async fn spawn_on(
        db: TestDatabase,
        tweak: impl FnOnce(&mut Config),
        clock: Arc<dyn Clock>,
        broker: Arc<dyn moat_server::broker::Broker>,
    ) -> Self {
        let web = tempfile::tempdir().unwrap();
        write_web_build(web.path());
        let data = tempfile::tempdir().unwrap();
        let mut config = Config {
            port: 0,
            data_dir: data.path().to_path_buf(),
            database_url: db.url.clone(),
            web_dir: web.path().to_path_buf(),
            body_limit_bytes: 64 * 1024,
            webview_host: true,
            shutdown_grace_secs: 1,
            // No price history unless a test asks for it: a 5-year backfill per test
            // would cost seconds each.
            market: moat_server::market::MarketConfig {
                backfill_years: 0,
                ..Default::default()
            },
            ..Config::default()
        };
        tweak(&mut config);
        let app = Application::build_on(config, clock, broker)
            .await
            .expect("the app builds");
        let state = app.state().clone();
        let base = format!("http://{}", app.local_addr());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(app.run_until(async move {
            let _ = rx.await;
        }));
        Self {
            base,
            client: Client::new(),
            raw_client: Client::builder().no_gzip().no_brotli().build().unwrap(),
            db,
            state,
            _web: web,
            _data: data,
            shutdown: Some(tx),
            handle: Some(handle),
        }
    }

    /// The web build this app serves (tests may add or edit files in it).
    pub fn web_dir(&self) -> &Path {
        self._web.path()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request")
    }

    pub async fn post_json(&self, path: &str, body: &str) -> Response {
        self.client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .expect("request")
    }

    /// Stops the server and waits for it to finish draining.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = self.shutdown.take().unwrap().send(());
        self.handle.take().unwrap().await.expect("server task")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Asserts the API error shape and returns the body.
pub async fn assert_error(response: Response, status: u16, code: &str) -> serde_json::Value {
    assert_eq!(response.status().as_u16(), status, "status for {code}");
    let request_id = response
        .headers()
        .get("x-request-id")
        .map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/json"),
        "errors are JSON"
    );
    let body: serde_json::Value = response.json().await.expect("JSON error body");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "a human message: {body}"
    );
    assert_eq!(
        body["request_id"].as_str(),
        request_id.as_deref(),
        "request id in body and header: {body}"
    );
    assert!(!body["request_id"].as_str().unwrap_or("").is_empty());
    body
}

/// Sends `method path` with an optional bearer token and JSON body.
pub async fn send(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> Response {
    let mut req = app.client.request(method, app.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    req.send().await.expect("request")
}

/// The password test members sign up with.
pub const PASSWORD: &str = "correct horse battery";

/// `POST /api/auth/login` with `email` and `password`.
pub async fn login(app: &TestApp, email: &str, password: &str) -> Response {
    send(
        app,
        reqwest::Method::POST,
        "/api/auth/login",
        None,
        Some(serde_json::json!({"email": email, "password": password})),
    )
    .await
}

/// Logs `email` in with [`PASSWORD`] and returns the new token (tokens follow the
/// app's clock).
pub async fn login_token(app: &TestApp, email: &str) -> String {
    let r = login(app, email, PASSWORD).await;
    assert_eq!(r.status(), 200);
    r.json::<serde_json::Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Signs a member up with [`PASSWORD`] and returns their token.
pub async fn signup(app: &TestApp, email: &str, nickname: &str) -> String {
    let r = send(
        app,
        reqwest::Method::POST,
        "/api/auth/signup",
        None,
        Some(serde_json::json!({"email": email, "password": PASSWORD, "nickname": nickname})),
    )
    .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    r.json::<serde_json::Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Creates a portfolio named `name` in `base` for the member of `token`; its id.
pub async fn create_portfolio(app: &TestApp, token: &str, name: &str, base: &str) -> i64 {
    let r = send(
        app,
        reqwest::Method::POST,
        "/api/portfolios",
        Some(token),
        Some(serde_json::json!({"name": name, "base_currency": base})),
    )
    .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    r.json::<serde_json::Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}

/// Records the transaction `tx` in portfolio `id` as the member of `token`.
pub async fn add_transaction(
    app: &TestApp,
    token: &str,
    id: i64,
    tx: &serde_json::Value,
) -> Response {
    send(
        app,
        reqwest::Method::POST,
        &format!("/api/portfolios/{id}/transactions"),
        Some(token),
        Some(tx.clone()),
    )
    .await
}

/// `GET path` as the member of `token`: it must answer 200; its JSON.
pub async fn member_json(app: &TestApp, token: &str, path: &str) -> serde_json::Value {
    let r = send(app, reqwest::Method::GET, path, Some(token), None).await;
    assert_eq!(r.status(), 200, "{path}: {}", r.text().await.unwrap());
    r.json().await.unwrap()
}

/// Whether the error body `e` names `field` as `{code, params, message}`: a stable
/// code, its parameters and an English message.
pub fn has_field_error(e: &serde_json::Value, field: &str) -> bool {
    let f = &e["fields"][field];
    f["code"].as_str().is_some_and(|c| !c.is_empty())
        && f["params"].is_object()
        && f["message"].as_str().is_some_and(|m| !m.is_empty())
}

/// The code of the error `e` gives for `field`.
pub fn field_code<'a>(e: &'a serde_json::Value, field: &str) -> &'a str {
    e["fields"][field]["code"].as_str().unwrap_or_default()
}
