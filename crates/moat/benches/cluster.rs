//! Scale-out benchmark (prints figures, asserts nothing; docs/scale-out.md):
//!
//! 1. Cross-instance delivery: two instances in this process share a real
//!    `nats-server` (started here on a free port). Instance A publishes 1,000 frames a
//!    second on a public topic; a WebSocket client subscribed on instance B records
//!    the time from A's publish to its receipt. Beside it, the same run with the
//!    in-process broker and with the subscriber on A itself (no broker on the path)
//!    gives the baselines.
//! 2. Memory per idle socket: the real `moat` binary, resident memory before and after
//!    2,000 idle WebSockets connect.
//!
//!   cargo bench -p moat --bench cluster

use std::{
    process::{Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt};
use moat_server::{broker::Broker, config::Config, Application};
use tokio_tungstenite::tungstenite::Message;

mod support;
use support::{free_port, percentile, rss_mb, start_nats, Server};

/// Publications per second.
const RATE: u64 = 1_000;
/// How long each delivery run publishes.
const RUN: Duration = Duration::from_secs(10);
/// Idle sockets for the memory figure.
const IDLE_SOCKETS: usize = 2_000;
/// The topic: a public one every instance knows.
const TOPIC: &str = "quote:KRX:005930";

fn micros_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_micros() as u64
}

async fn instance(
    db_url: &str,
    broker: Arc<dyn Broker>,
) -> (moat_server::AppState, String, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let config = Config {
        port: 0,
        data_dir: data.path().to_path_buf(),
        database_url: db_url.to_owned(),
        log_level: "warn".into(),
        market: moat_server::market::MarketConfig {
            backfill_years: 0,
            ..Default::default()
        },
        accounts: moat_server::accounts::AccountsConfig {
            token_key: "bW9hdC1iZW5jaC1jbHVzdGVyLXRva2VuLWtleS0zMi1ieXRlcyE=".into(),
            ..Default::default()
        },
        ..Config::default()
    };
    let app = Application::build_on(config, Arc::new(moat_server::clock::SystemClock), broker)
        .await
        .expect("the instance starts");
    let state = app.state().clone();
    let url = format!("ws://{}/api/stream", app.local_addr());
    tokio::spawn(app.run_until(std::future::pending()));
    (state, url, data)
}

/// What a delivery run saw.
struct Delivery {
    latencies_ms: Vec<f64>,
    sent: u64,
    /// `gap` frames: the subscriber fell behind (or the broker lost messages) and was
    /// told so instead of getting the frames.
    gaps: u64,
}

/// Publishes on `from` at [`RATE`] for [`RUN`]; a subscriber at `to_url` records the
/// latencies (ms).
async fn deliver(from: &moat_server::AppState, to_url: &str) -> Delivery {
    let (ws, _) = tokio_tungstenite::connect_async(to_url).await.unwrap();
    let (mut tx, mut rx) = ws.split();
    tx.send(Message::Text(
        serde_json::json!({"op": "subscribe", "topics": [TOPIC]})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    // Wait for the subscription to be in place.
    while let Some(Ok(m)) = rx.next().await {
        if let Message::Text(t) = m {
            if t.contains("\"subscribed\"") {
                break;
            }
        }
    }
    let reader = tokio::spawn(async move {
        let _keep = tx;
        let (mut got, mut gaps) = (Vec::new(), 0);
        let end = tokio::time::Instant::now() + RUN + Duration::from_secs(2);
        while let Ok(Some(Ok(m))) = tokio::time::timeout_at(end, rx.next()).await {
            let Message::Text(t) = m else { continue };
            let received = micros_now();
            let v: serde_json::Value = serde_json::from_str(&t).unwrap();
            if v["op"] == "bench" {
                let sent = v["data"]["sent_us"].as_u64().unwrap();
                got.push(received.saturating_sub(sent) as f64 / 1e3);
            } else if v["op"] == "gap" {
                gaps += 1;
            }
        }
        (got, gaps)
    });
    // Let the subscription reach the other instance's hub.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut tick = tokio::time::interval(Duration::from_micros(1_000_000 / RATE));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let mut sent = 0;
    let start = Instant::now();
    while start.elapsed() < RUN {
        tick.tick().await;
        from.hub.publish(
            TOPIC,
            "bench",
            &serde_json::json!({"sent_us": micros_now()}),
        );
        sent += 1;
    }
    let (latencies_ms, gaps) = reader.await.unwrap();
    Delivery {
        latencies_ms,
        sent,
        gaps,
    }
}

fn report(name: &str, d: Delivery) -> f64 {
    let (mut l, sent, gaps) = (d.latencies_ms, d.sent, d.gaps);
    if l.is_empty() {
        println!("{name:<44} nothing received of {sent}");
        return f64::NAN;
    }
    let n = l.len();
    let (p50, p99) = (percentile(&mut l, 0.5), percentile(&mut l, 0.99));
    println!(
        "{name:<44} {n:>6}/{sent:<6} received, {gaps} gap frames   median {p50:>6.2} ms   p99 {p99:>6.2} ms   max {:>6.2} ms",
        l[n - 1]
    );
    p99
}

async fn cross_instance() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("moat.db").display());
    let (_nats, nats_url) = start_nats();
    let connect = || async {
        let b: Arc<dyn Broker> = Arc::new(
            moat_server::broker::nats::NatsBroker::connect(&nats_url)
                .await
                .unwrap(),
        );
        b
    };
    let (a, a_url, _da) = instance(&db, connect().await).await;
    let (_b, b_url, _db) = instance(&db, connect().await).await;
    println!(
        "cross-instance delivery: {RATE} publications/s for {} s on one topic, publish → receipt",
        RUN.as_secs()
    );
    let base = report(
        "baseline: subscriber on the publishing instance",
        deliver(&a, &a_url).await,
    );
    let p99 = report(
        "A → NATS → B (target p99 ≤ 20 ms)",
        deliver(&a, &b_url).await,
    );

    let dir2 = tempfile::tempdir().unwrap();
    let db2 = format!("sqlite://{}", dir2.path().join("moat.db").display());
    let shared: Arc<dyn Broker> = Arc::new(moat_server::broker::LocalBroker::default());
    let (c, _c_url, _dc) = instance(&db2, shared.clone()).await;
    let (_d, d_url, _dd) = instance(&db2, shared).await;
    let inp = report("A → in-process broker → B", deliver(&c, &d_url).await);
    println!(
        "p99 ratios: NATS / same instance {:.2}×, NATS / in-process broker {:.2}×",
        p99 / base,
        p99 / inp
    );
}

async fn idle_sockets() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = Server(
        Command::new(env!("CARGO_BIN_EXE_moat"))
            .args(["--port", &port.to_string(), "--data-dir"])
            .arg(dir.path())
            .env("MOAT_LOG_LEVEL", "warn")
            .env("MOAT_MARKET_BACKFILL_YEARS", "0")
            .env("MOAT_MARKET_MAX_STREAM_CONNECTIONS", "5000")
            .env("MOAT_MAX_CONNECTIONS", "6000")
            .stdout(Stdio::null())
            .spawn()
            .expect("moat starts"),
    );
    let pid = server.0.id();
    let client = reqwest::Client::new();
    let started = Instant::now();
    while client
        .get(format!("http://127.0.0.1:{port}/readyz"))
        .send()
        .await
        .is_err()
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "moat did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle = rss_mb(pid);
    let mut sockets = Vec::with_capacity(IDLE_SOCKETS);
    let url = format!("ws://127.0.0.1:{port}/api/stream");
    let mut steps = Vec::new();
    for n in 1..=IDLE_SOCKETS {
        let (ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        sockets.push(ws);
        if n % 500 == 0 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            steps.push((n, rss_mb(pid)));
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let full = rss_mb(pid);
    println!("memory per idle socket (the moat binary, resident memory):");
    println!("  0 sockets: {idle:.1} MB");
    for (n, mb) in &steps {
        println!("  {n} sockets: {mb:.1} MB");
    }
    println!(
        "  {IDLE_SOCKETS} sockets after 2 s: {full:.1} MB → {:.1} KB per idle socket",
        (full - idle) * 1024.0 / IDLE_SOCKETS as f64
    );
    drop(sockets);
}

#[tokio::main]
async fn main() {
    cross_instance().await;
    idle_sockets().await;
}
