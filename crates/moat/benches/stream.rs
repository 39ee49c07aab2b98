//! Live-quote fan-out benchmark (prints figures, asserts nothing): the real `moat`
//! binary with 150 instruments ticking once a second, and a load client holding 2,000
//! WebSocket subscribers × 8 topics. Reports the delivery latency (receipt time minus
//! the quote's `as_of`, which the simulator sets to the tick's second) as median and
//! p99, frames delivered, and the servers' resident memory before and under load.
//!
//! Two runs, side by side:
//! 1. **baseline**: one instance, the load client in this process and network
//!    namespace (the set-up of earlier measurements);
//! 2. **scale-out**: two instances sharing one database and a `nats-server`, the load
//!    client connected directly to both (1,000 sockets each; HAProxy would need two
//!    file descriptors per connection) and running in its own network namespace, over
//!    a veth pair (root and `ip` needed; otherwise it runs here and says so).
//!
//! The instruments are crypto (they trade around the clock), so the figures do not
//! depend on the time of day the benchmark runs.
//!
//!   cargo bench -p moat --bench stream

use std::{
    process::{Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt};
use moat_market::{Instrument, InstrumentId, Kind};
use moat_storage::ConnectOptions;
use tokio_tungstenite::tungstenite::Message;

mod support;
use support::{free_port, percentile, rss_mb, start_nats, wait_ready, Server};

const INSTRUMENTS: usize = 150;
const SUBSCRIBERS: usize = 2_000;
/// Topics each subscriber watches (round-robin over the instruments).
const TOPICS_PER_SUBSCRIBER: usize = 8;
const MEASURE: Duration = Duration::from_secs(20);
/// Set in the re-executed load client: the stream URLs to spread sockets over.
const CLIENT_ENV: &str = "MOAT_BENCH_STREAM_CLIENT";
/// The veth pair's addresses (host side, client namespace side).
const HOST_ADDR: &str = "10.231.77.1";
const CLIENT_ADDR: &str = "10.231.77.2";

#[derive(serde::Deserialize)]
struct PushFrame<'a> {
    op: &'a str,
    #[serde(borrow)]
    data: Option<PushData<'a>>,
}

#[derive(serde::Deserialize)]
struct PushData<'a> {
    as_of: &'a str,
}

fn instrument_ids() -> Vec<InstrumentId> {
    (0..INSTRUMENTS)
        .map(|i| format!("CRYPTO:BENCH{i:03}").parse().unwrap())
        .collect()
}

async fn seed(dir: &std::path::Path) {
    let url = format!("sqlite://{}", dir.join("moat.db").display());
    let storage = moat_storage::connect(&url, &ConnectOptions::default())
        .await
        .unwrap();
    storage.migrate().await.unwrap();
    let instruments: Vec<Instrument> = instrument_ids()
        .into_iter()
        .enumerate()
        .map(|(i, id)| Instrument {
            id,
            kind: Kind::Crypto,
            board: None,
            currency: "USD".into(),
            country: String::new(),
            name_ko: format!("벤치 {i}"),
            name_en: format!("Bench {i}"),
            sector: String::new(),
            shares_outstanding: None,
            reference_price: Some((100 + i as i64).into()),
            popularity: 0,
            aliases: vec![],
        })
        .collect();
    storage.upsert_instruments(&instruments).await.unwrap();
    storage.close().await;
}

/// One `moat` process on `host:port` over the database in `dir`.
fn start_moat(host: &str, port: u16, dir: &std::path::Path, broker: Option<&str>) -> Server {
    let data = dir.join(format!("data-{port}"));
    std::fs::create_dir_all(&data).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_moat"));
    cmd.args(["--host", host, "--port", &port.to_string(), "--data-dir"])
        .arg(&data)
        .env(
            "MOAT_DATABASE_URL",
            format!("sqlite://{}", dir.join("moat.db").display()),
        )
        .env("MOAT_LOG_LEVEL", "warn")
        .env("MOAT_MARKET_BACKFILL_YEARS", "0")
        .env("MOAT_MARKET_MAX_STREAM_CONNECTIONS", "5000")
        .env("MOAT_MAX_CONNECTIONS", "6000")
        .stdout(Stdio::null());
    if let Some(url) = broker {
        cmd.env("MOAT_BROKER_URL", url);
    }
    Server(cmd.spawn().expect("moat starts"))
}

/// What the load client measured.
#[derive(serde::Serialize, serde::Deserialize)]
struct Measured {
    connect_secs: f64,
    latencies_ms: Vec<f64>,
}

/// The load client: [`SUBSCRIBERS`] sockets spread over `urls`, each watching
/// [`TOPICS_PER_SUBSCRIBER`] topics; measures for [`MEASURE`] after a warm-up.
async fn load(urls: &[String]) -> Measured {
    let ids = instrument_ids();
    let latencies = Arc::new(Mutex::new(Vec::<f64>::with_capacity(1 << 20)));
    let measuring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut tasks = Vec::new();
    let connect_started = Instant::now();
    for n in 0..SUBSCRIBERS {
        let url = &urls[n % urls.len()];
        let topics: Vec<String> = (0..TOPICS_PER_SUBSCRIBER)
            .map(|k| format!("quote:{}", ids[(n * TOPICS_PER_SUBSCRIBER + k) % ids.len()]))
            .collect();
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        let (mut tx, mut rx) = ws.split();
        tx.send(Message::Text(
            serde_json::json!({"op": "subscribe", "topics": topics})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        let latencies = latencies.clone();
        let measuring = measuring.clone();
        tasks.push(tokio::spawn(async move {
            let _keep = tx;
            let mut mine = Vec::new();
            while let Some(Ok(msg)) = rx.next().await {
                let Message::Text(text) = msg else { continue };
                let received = chrono::Utc::now();
                if !measuring.load(std::sync::atomic::Ordering::Relaxed) {
                    // Measuring is over: hand in what was measured.
                    if !mine.is_empty() {
                        latencies.lock().unwrap().append(&mut mine);
                    }
                    continue;
                }
                // Only the fields needed, borrowed: the load client shares the
                // servers' two cores and should cost as little as it can.
                let Ok(frame) = serde_json::from_str::<PushFrame>(&text) else {
                    continue;
                };
                if frame.op == "quote" {
                    if let Some(as_of) = frame
                        .data
                        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d.as_of).ok())
                    {
                        mine.push(
                            (received - as_of.with_timezone(&chrono::Utc))
                                .num_microseconds()
                                .unwrap_or(0) as f64
                                / 1e3,
                        );
                    }
                }
                if mine.len() >= 256 {
                    latencies.lock().unwrap().append(&mut mine);
                }
            }
            latencies.lock().unwrap().append(&mut mine);
        }));
    }
    let connect_secs = connect_started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(3)).await;
    measuring.store(true, std::sync::atomic::Ordering::Relaxed);
    tokio::time::sleep(MEASURE).await;
    measuring.store(false, std::sync::atomic::Ordering::Relaxed);
    // Every subscriber gets a frame a second or more, and hands in its figures on it.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for t in &tasks {
        t.abort();
    }
    let latencies_ms = latencies.lock().unwrap().clone();
    Measured {
        connect_secs,
        latencies_ms,
    }
}

fn report(name: &str, m: Measured, idle: f64, loaded: f64) -> f64 {
    let mut l = m.latencies_ms;
    println!("{name}:");
    println!(
        "  {SUBSCRIBERS} subscribers × {TOPICS_PER_SUBSCRIBER} topics over {INSTRUMENTS} instruments connected in {:.1} s",
        m.connect_secs
    );
    if l.is_empty() {
        println!("  no quotes delivered");
        return f64::NAN;
    }
    let expected = SUBSCRIBERS * TOPICS_PER_SUBSCRIBER;
    println!(
        "  delivered {} quote frames in {} s ({:.0}/s; a change on every subscription every second would be {expected}/s; quotes are sent when they change)",
        l.len(),
        MEASURE.as_secs(),
        l.len() as f64 / MEASURE.as_secs_f64()
    );
    let (p50, p99) = (percentile(&mut l, 0.5), percentile(&mut l, 0.99));
    println!(
        "  delivery latency (receipt − as_of): median {p50:.1} ms, p99 {p99:.1} ms (target p99 ≤ 100 ms)"
    );
    println!("  servers' resident memory: idle {idle:.1} MB, under load {loaded:.1} MB");
    p99
}

/// A network namespace with a veth pair to this one, removed when dropped.
struct Netns(String);

impl Netns {
    fn create() -> Option<Self> {
        let name = format!("moatbench{}", std::process::id());
        let host_if = format!("mbh{}", std::process::id() % 100_000);
        let ns_if = format!("mbn{}", std::process::id() % 100_000);
        let ip = |args: &[&str]| {
            Command::new("ip")
                .args(args)
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        let ns = Self(name.clone());
        let ok = ip(&["netns", "add", &name])
            && ip(&[
                "link", "add", &host_if, "type", "veth", "peer", "name", &ns_if,
            ])
            && ip(&["link", "set", &ns_if, "netns", &name])
            && ip(&["addr", "add", &format!("{HOST_ADDR}/24"), "dev", &host_if])
            && ip(&["link", "set", &host_if, "up"])
            && ip(&[
                "netns",
                "exec",
                &name,
                "ip",
                "addr",
                "add",
                &format!("{CLIENT_ADDR}/24"),
                "dev",
                &ns_if,
            ])
            && ip(&["netns", "exec", &name, "ip", "link", "set", &ns_if, "up"])
            && ip(&["netns", "exec", &name, "ip", "link", "set", "lo", "up"]);
        ok.then_some(ns)
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        // Deleting the namespace deletes its end of the veth pair, and so the pair.
        let _ = Command::new("ip").args(["netns", "del", &self.0]).status();
    }
}

async fn baseline() -> f64 {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path()).await;
    let port = free_port();
    let server = start_moat("127.0.0.1", port, dir.path(), None);
    let pid = server.0.id();
    wait_ready(&format!("http://127.0.0.1:{port}")).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle = rss_mb(pid);
    let measured = load(&[format!("ws://127.0.0.1:{port}/api/stream")]).await;
    let loaded = rss_mb(pid);
    drop(server);
    report(
        "baseline: one instance, load client in this process",
        measured,
        idle,
        loaded,
    )
}

async fn scale_out() -> f64 {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path()).await;
    let netns = Netns::create();
    let host = if netns.is_some() {
        HOST_ADDR
    } else {
        "127.0.0.1"
    };
    let (_nats, nats) = start_nats();
    let (pa, pb) = (free_port(), free_port());
    let a = start_moat(host, pa, dir.path(), Some(&nats));
    let b = start_moat(host, pb, dir.path(), Some(&nats));
    wait_ready(&format!("http://{host}:{pa}")).await;
    wait_ready(&format!("http://{host}:{pb}")).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (ida, idb) = (a.0.id(), b.0.id());
    let idle = rss_mb(ida) + rss_mb(idb);
    let urls = vec![
        format!("ws://{host}:{pa}/api/stream"),
        format!("ws://{host}:{pb}/api/stream"),
    ];
    let (measured, loaded) = if let Some(ns) = &netns {
        let client = tokio::process::Command::new("ip")
            .args(["netns", "exec", &ns.0])
            .arg(std::env::current_exe().unwrap())
            .env(CLIENT_ENV, urls.join(","))
            .stdout(Stdio::piped())
            .spawn()
            .expect("the load client starts in its namespace");
        // Memory under load: read while the client measures.
        let sampler = tokio::spawn(async move {
            tokio::time::sleep(MEASURE).await;
            rss_mb(ida) + rss_mb(idb)
        });
        let out = client.wait_with_output().await.unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("RESULT "))
            .expect("the load client reports");
        (serde_json::from_str(line).unwrap(), sampler.await.unwrap())
    } else {
        println!("(not root or no `ip`: the load client runs in this network namespace)");
        let m = load(&urls).await;
        (m, rss_mb(ida) + rss_mb(idb))
    };
    drop((a, b));
    report(
        if netns.is_some() {
            "scale-out: two instances over NATS, load client in its own network namespace, 1,000 sockets each"
        } else {
            "scale-out: two instances over NATS, 1,000 sockets each"
        },
        measured,
        idle,
        loaded,
    )
}

#[tokio::main]
async fn main() {
    if let Ok(urls) = std::env::var(CLIENT_ENV) {
        let urls: Vec<String> = urls.split(',').map(str::to_owned).collect();
        let m = load(&urls).await;
        println!("RESULT {}", serde_json::to_string(&m).unwrap());
        return;
    }
    let base = baseline().await;
    let scaled = scale_out().await;
    println!("p99 ratio, scale-out / baseline: {:.2}×", scaled / base);
}
