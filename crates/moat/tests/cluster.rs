//! The cluster test (docs/scale-out.md): `scripts/cluster.sh` starts a fresh
//! PostgreSQL database, a nats-server, two `moat` processes and HAProxy in front of
//! them; this test drives it as clients would. It needs PostgreSQL
//! (`MOAT_TEST_POSTGRES_URL`, set in CI), `nats-server` and `haproxy` (scripts/test.sh
//! installs them).

use std::{
    collections::{BTreeSet, HashMap},
    path::{Path, PathBuf},
    process::Stdio,
    sync::{Arc, Mutex},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use reqwest::{Client, Method};
use serde_json::{json, Value};
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::{Child, Command},
};
use tokio_tungstenite::tungstenite::Message as Frame;

/// How long the cluster may take to start.
const START_PATIENCE: Duration = Duration::from_secs(90);
/// How long a test waits for something to happen across processes.
const PATIENCE: Duration = Duration::from_secs(20);
const PASSWORD: &str = "correct horse battery";
/// Close code of a banned member's socket (docs/stream.md).
const CLOSE_BANNED: u16 = 4403;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Cluster {
    script: Child,
    state: tempfile::TempDir,
    ports: HashMap<String, String>,
    http: Client,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A base port with it and the next two free, and another free port for NATS.
fn free_ports() -> (u16, u16) {
    loop {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = l.local_addr().unwrap().port();
        drop(l);
        if base > 60000 {
            continue;
        }
        let free = |p: u16| std::net::TcpListener::bind(("127.0.0.1", p)).is_ok();
        if (base..base + 3).all(free) {
            let nats = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let nats_port = nats.local_addr().unwrap().port();
            if !(base..base + 3).contains(&nats_port) {
                return (base, nats_port);
            }
        }
    }
}

impl Cluster {
    /// Starts `scripts/cluster.sh`, or `None` without PostgreSQL.
    async fn start() -> Option<Self> {
        let Ok(pg) = std::env::var("MOAT_TEST_POSTGRES_URL") else {
            eprintln!("note: MOAT_TEST_POSTGRES_URL is not set; skipping the cluster test");
            return None;
        };
        let state = tempfile::tempdir().unwrap();
        let (port, nats_port) = free_ports();
        let mut script = Command::new("bash")
            .arg(repo_root().join("scripts/cluster.sh"))
            .env("CLUSTER_PORT", port.to_string())
            .env("CLUSTER_NATS_PORT", nats_port.to_string())
            .env("CLUSTER_STATE_DIR", state.path())
            .env("PG_ADMIN_URL", &pg)
            .env("MOAT_BIN", env!("CARGO_BIN_EXE_moat"))
            // No five-year price backfill: the test needs none, and it costs CPU.
            .env("MOAT_MARKET_BACKFILL_YEARS", "0")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("scripts/cluster.sh starts");
        let mut lines = BufReader::new(script.stdout.take().unwrap()).lines();
        let line = tokio::time::timeout(START_PATIENCE, lines.next_line())
            .await
            .expect("the cluster starts in time")
            .unwrap()
            .expect("cluster.sh prints the URL");
        assert!(line.starts_with("Moat cluster: http://"), "{line}");
        let ports = std::fs::read_to_string(state.path().join("ports"))
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        Some(Self {
            script,
            state,
            ports,
            http: Client::new(),
        })
    }

    fn url(&self, which: &str) -> &str {
        &self.ports[which]
    }

    fn pid(&self, file: &str) -> i32 {
        std::fs::read_to_string(self.state.path().join(file))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    async fn send(
        &self,
        which: &str,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Result<reqwest::Response> {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.url(which)));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        req.send().await
    }

    async fn json(
        &self,
        which: &str,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        status: u16,
    ) -> Value {
        let r = self
            .send(which, method, path, token, body)
            .await
            .expect("request");
        let got = r.status().as_u16();
        let text = r.text().await.unwrap();
        assert_eq!(got, status, "{path} via {which}: {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    async fn signup(&self, which: &str, email: &str, nickname: &str) -> (String, i64) {
        let v = self
            .json(
                which,
                Method::POST,
                "/api/auth/signup",
                None,
                Some(json!({"email": email, "password": PASSWORD, "nickname": nickname})),
                201,
            )
            .await;
        let token = v["token"].as_str().unwrap().to_owned();
        let me = self
            .json(which, Method::GET, "/api/me", Some(&token), None, 200)
            .await;
        (token, me["user_id"].as_i64().unwrap())
    }

    async fn login(&self, which: &str, email: &str) -> String {
        let v = self
            .json(
                which,
                Method::POST,
                "/api/auth/login",
                None,
                Some(json!({"email": email, "password": PASSWORD})),
                200,
            )
            .await;
        v["token"].as_str().unwrap().to_owned()
    }

    /// `moat admin promote EMAIL` on the cluster's database.
    async fn promote(&self, email: &str) {
        let out = Command::new(env!("CARGO_BIN_EXE_moat"))
            .args([
                "admin",
                "promote",
                email,
                "--database-url",
                self.url("database_url"),
            ])
            .env("MOAT_DATA_DIR", self.state.path().join("admin"))
            .output()
            .await
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    async fn socket(&self, which: &str, token: &str) -> Socket {
        let url = format!(
            "{}/api/stream",
            self.url(which).replacen("http://", "ws://", 1)
        );
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("socket");
        send_json(&mut socket, json!({"op": "auth", "token": token})).await;
        let authed = until(&mut socket, |f| f["op"] == "authed" || f["op"] == "error").await;
        assert_eq!(authed["op"], "authed", "{authed}");
        socket
    }

    fn kill(&self, pid: i32, signal: &str) {
        let ok = std::process::Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill {signal} {pid}");
    }

    /// Starts a nats-server again on the cluster's port.
    fn restart_nats(&self) -> Nats {
        let child = std::process::Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", self.url("nats_port")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::fs::write(self.state.path().join("nats.pid"), child.id().to_string()).unwrap();
        Nats(child)
    }
}

/// A nats-server this test started, stopped when dropped.
struct Nats(std::process::Child);

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // cluster.sh stops everything on SIGTERM.
        if let Some(pid) = self.script.id() {
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.script.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

async fn send_json(socket: &mut Socket, value: Value) {
    socket.send(Frame::text(value.to_string())).await.unwrap();
}

/// The next text frame that `pick` accepts, within [`PATIENCE`].
async fn until(socket: &mut Socket, pick: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => panic!("no such frame within {PATIENCE:?}; got {seen:?}"),
            Ok(Some(Ok(Frame::Text(t)))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if pick(&v) {
                    return v;
                }
                seen.push(v);
            }
            Ok(Some(Ok(Frame::Close(c)))) => panic!("closed: {c:?}; got {seen:?}"),
            Ok(Some(Ok(_))) => {}
            other => panic!("socket ended: {other:?}; got {seen:?}"),
        }
    }
}

async fn subscribe(socket: &mut Socket, topic: &str) {
    send_json(socket, json!({"op": "subscribe", "topics": [topic]})).await;
    let v = until(socket, |f| f["op"] == "subscribed").await;
    assert_eq!(v["topics"], json!([topic]));
}

async fn close_code(socket: &mut Socket) -> u16 {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => panic!("not closed within {PATIENCE:?}"),
            Ok(Some(Ok(Frame::Close(Some(c))))) => return u16::from(c.code),
            Ok(Some(Ok(_))) => {}
            other => panic!("ended without a close frame: {other:?}"),
        }
    }
}

async fn set_premium(c: &Cluster, which: &str, op: &str, id: i64, premium: bool) {
    c.json(
        which,
        Method::PUT,
        &format!("/api/admin/users/{id}/premium"),
        Some(op),
        Some(json!({"premium": premium})),
        200,
    )
    .await;
}

fn deposit(n: usize) -> Value {
    json!({"kind": "deposit", "trade_date": "2024-01-02", "quantity": "1",
        "price": (1000 + n).to_string(), "currency": "KRW"})
}

/// The ids of a portfolio's transactions, read through `which`.
async fn transaction_ids(c: &Cluster, which: &str, token: &str, portfolio: i64) -> BTreeSet<i64> {
    let v = c
        .json(
            which,
            Method::GET,
            &format!("/api/portfolios/{portfolio}/transactions"),
            Some(token),
            None,
            200,
        )
        .await;
    let items = v
        .as_array()
        .cloned()
        .or_else(|| v["items"].as_array().cloned())
        .expect("a list");
    items.iter().map(|t| t["id"].as_i64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_behind_haproxy_share_writes_events_bans_and_survive_failures() {
    let Some(c) = Cluster::start().await else {
        return;
    };

    // Sign up and log in through HAProxy; an operator made with the CLI.
    let (_, member) = c.signup("url", "member@x.io", "member1").await;
    let token = c.login("url", "member@x.io").await;
    let (_, _op_id) = c.signup("url", "op@x.io", "operator1").await;
    c.promote("op@x.io").await;
    let op = c.login("url", "op@x.io").await;

    // Portfolios and transactions written alternately through both instances.
    let p = c
        .json(
            "a",
            Method::POST,
            "/api/portfolios",
            Some(&token),
            Some(json!({"name": "A", "base_currency": "KRW"})),
            201,
        )
        .await["id"]
        .as_i64()
        .unwrap();
    let q = c
        .json(
            "b",
            Method::POST,
            "/api/portfolios",
            Some(&token),
            Some(json!({"name": "B", "base_currency": "KRW"})),
            201,
        )
        .await["id"]
        .as_i64()
        .unwrap();
    let mut written = BTreeSet::new();
    for n in 0..10 {
        let which = if n % 2 == 0 { "a" } else { "b" };
        let v = c
            .json(
                which,
                Method::POST,
                &format!("/api/portfolios/{p}/transactions"),
                Some(&token),
                Some(deposit(n)),
                201,
            )
            .await;
        written.insert(v["id"].as_i64().unwrap());
    }
    assert_eq!(transaction_ids(&c, "a", &token, p).await, written);
    assert_eq!(transaction_ids(&c, "b", &token, p).await, written);
    let list = c
        .json(
            "url",
            Method::GET,
            "/api/portfolios",
            Some(&token),
            None,
            200,
        )
        .await;
    let names = list.to_string();
    assert!(
        names.contains(&format!("\"id\":{q}")) && names.contains(&format!("\"id\":{p}")),
        "{names}"
    );

    // A socket on A hears what B publishes.
    let topic = format!("member:{member}:account");
    let mut on_a = c.socket("a", &token).await;
    subscribe(&mut on_a, &topic).await;
    set_premium(&c, "b", &op, member, true).await;
    let event = until(&mut on_a, |f| f["op"] == "event").await;
    assert_eq!(event["topic"], topic);

    // NATS restarts: what B published while it was down reaches A's socket as a gap,
    // and the database has it; then delivery resumes.
    c.kill(c.pid("nats.pid"), "-KILL");
    tokio::time::sleep(Duration::from_millis(300)).await;
    set_premium(&c, "b", &op, member, false).await;
    let nats = c.restart_nats();
    let gap = until(&mut on_a, |f| f["op"] == "gap").await;
    assert_eq!(gap["topic"], topic);
    let me = c
        .json("a", Method::GET, "/api/me", Some(&token), None, 200)
        .await;
    assert_eq!(me["premium"], false, "the re-fetch finds the change: {me}");
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        set_premium(&c, "b", &op, member, true).await;
        let got = tokio::time::timeout(
            Duration::from_secs(1),
            until(&mut on_a, |f| f["op"] == "event"),
        )
        .await;
        if got.is_ok() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "delivery did not resume after NATS came back"
        );
    }

    // A ban through B closes the member's socket on A.
    let (_, banned) = c.signup("url", "banned@x.io", "banned1").await;
    let banned_token = c.login("url", "banned@x.io").await;
    let mut banned_on_a = c.socket("a", &banned_token).await;
    let r = c
        .send(
            "b",
            Method::PUT,
            &format!("/api/admin/users/{banned}/ban"),
            Some(&op),
            Some(json!({"banned": true})),
        )
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    assert_eq!(close_code(&mut banned_on_a).await, CLOSE_BANNED);

    // kill -9 one instance during a write load through HAProxy: every acknowledged
    // write is there afterwards, and sockets reconnect through HAProxy to the survivor.
    let mut through_lb = c.socket("url", &token).await;
    subscribe(&mut through_lb, &topic).await;
    let acked = Arc::new(Mutex::new(BTreeSet::new()));
    let failed = Arc::new(Mutex::new(0usize));
    let stop = tokio::time::Instant::now() + Duration::from_secs(4);
    let c = Arc::new(c);
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let (c, token, acked, failed) =
                (c.clone(), token.clone(), acked.clone(), failed.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while tokio::time::Instant::now() < stop {
                    n += 1;
                    let r = c
                        .send(
                            "url",
                            Method::POST,
                            &format!("/api/portfolios/{q}/transactions"),
                            Some(&token),
                            Some(deposit(w * 10_000 + n)),
                        )
                        .await;
                    match r {
                        Ok(r) if r.status() == 201 => {
                            let v: Value = r.json().await.unwrap();
                            acked.lock().unwrap().insert(v["id"].as_i64().unwrap());
                        }
                        _ => *failed.lock().unwrap() += 1,
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    c.kill(c.pid("a/pid"), "-KILL");
    for w in writers {
        w.await.unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() > 20,
        "the load went on: {} acknowledged",
        acked.len()
    );
    let stored = transaction_ids(&c, "url", &token, q).await;
    let lost: Vec<_> = acked.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged but missing: {lost:?}");
    eprintln!(
        "kill -9 under load: {} acknowledged, {} refused or cut, none lost",
        acked.len(),
        failed.lock().unwrap()
    );
    // The socket through HAProxy: if it was on A it is gone; a client reconnects
    // through HAProxy, lands on B, and hears publications again.
    drop(through_lb);
    let mut again = c.socket("url", &token).await;
    subscribe(&mut again, &topic).await;
    set_premium(&c, "url", &op, member, false).await;
    let event = until(&mut again, |f| f["op"] == "event").await;
    assert_eq!(event["topic"], topic);
    drop(nats);
}
