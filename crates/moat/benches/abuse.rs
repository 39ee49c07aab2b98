//! Memory and latency under abusive requests (issue 14 §3; prints figures, asserts
//! nothing). The real `moat` binary on a fresh SQLite database; for each attack, the
//! server's resident memory before, its peak (VmHWM, reset between attacks is not
//! possible, so each attack runs in a fresh server) and after, the attack's answers,
//! and `/healthz` latency measured every 5 ms while the attack runs (p50, p99, max):
//!
//! - a CSV import preview of 5 MB with 175,000 rows, once and three at once;
//! - a CSV import preview of 5 MB at the row cap (20,000 rows with long notes);
//! - 2,000 idle connections and 20 trickled request heads: how many are still open
//!   after 15 s.
//!
//!   cargo bench -p moat --bench abuse
//!   MOAT_BENCH_BIN=/path/to/other/moat cargo bench -p moat --bench abuse   # a baseline
//!
//! Run both in one sitting to compare: the machine is noisy. Gzip bombs against the
//! ingest have their own bench (`--bench bomb`).

use std::{
    process::{Command, Stdio},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use serde_json::{json, Value};

mod support;
use support::{percentile, rss_mb, status_kb, wait_ready, Server};

/// How often `/healthz` is probed during an attack.
const PROBE_EVERY: Duration = Duration::from_millis(5);
/// How long idle and trickling connections are watched.
const IDLE_WATCH: Duration = Duration::from_secs(15);

struct Running {
    server: Server,
    base: String,
    port: u16,
    _dir: tempfile::TempDir,
}

async fn start() -> Running {
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let bin = std::env::var("MOAT_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_moat").into());
    let server = Server(
        Command::new(bin)
            .args(["--port", &port.to_string(), "--data-dir"])
            .arg(dir.path())
            .env("MOAT_LOG_LEVEL", "error")
            .env("MOAT_MARKET_BACKFILL_YEARS", "0")
            .stdout(Stdio::null())
            .spawn()
            .expect("moat starts"),
    );
    let base = format!("http://127.0.0.1:{port}");
    wait_ready(&base).await;
    Running {
        server,
        base,
        port,
        _dir: dir,
    }
}

/// Probes `/healthz` until `stop` is set; the latencies in ms.
fn probe(base: String, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<Vec<f64>> {
    tokio::spawn(async move {
        let client = reqwest::Client::new();
        let mut out = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            if client
                .get(format!("{base}/healthz"))
                .timeout(Duration::from_secs(30))
                .send()
                .await
                .is_ok()
            {
                out.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            tokio::time::sleep(PROBE_EVERY).await;
        }
        out
    })
}

fn report(
    name: &str,
    pid: u32,
    before_mb: f64,
    mut healthz: Vec<f64>,
    answers: &[String],
    took: Duration,
) {
    let peak = status_kb(pid, "VmHWM:") / 1024.0;
    let after = rss_mb(pid);
    let (p50, p99, max) = if healthz.is_empty() {
        (f64::NAN, f64::NAN, f64::NAN)
    } else {
        let max = healthz.iter().copied().fold(0.0, f64::max);
        (
            percentile(&mut healthz, 0.5),
            percentile(&mut healthz, 0.99),
            max,
        )
    };
    println!(
        "{name}: {took:.2?}; RSS before {before_mb:.0} MB, peak {peak:.0} MB (+{:.0}), after {after:.0} MB; \
         /healthz n={} p50 {p50:.1} ms p99 {p99:.1} ms max {max:.1} ms; answers {answers:?}",
        peak - before_mb,
        healthz.len(),
    );
}

async fn signup_and_portfolio(base: &str) -> (String, i64) {
    let client = reqwest::Client::new();
    let token = client
        .post(format!("{base}/api/auth/signup"))
        .json(&json!({"email": "abuse@moat.example", "password": "correct horse battery", "nickname": "abuser"}))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = client
        .post(format!("{base}/api/portfolios"))
        .bearer_auth(&token)
        .json(&json!({"name": "P", "base_currency": "KRW"}))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    (token, id)
}

/// Sends `copies` previews of `file` at once; the answers' status and size.
async fn csv_attack(name: &str, file: &str, copies: usize) {
    let run = start().await;
    let pid = run.server.0.id();
    let (token, id) = signup_and_portfolio(&run.base).await;
    let before = rss_mb(pid);
    let stop = Arc::new(AtomicBool::new(false));
    let probing = probe(run.base.clone(), stop.clone());
    let client = reqwest::Client::new();
    let t = Instant::now();
    let sends = (0..copies).map(|_| {
        client
            .post(format!("{}/api/portfolios/{id}/import/preview", run.base))
            .bearer_auth(&token)
            .header("content-type", "text/csv")
            .body(file.to_owned())
            .send()
    });
    let mut answers = Vec::new();
    for r in futures_util::future::join_all(sends).await {
        let r = r.unwrap();
        let status = r.status().as_u16();
        let bytes = r.bytes().await.unwrap().len();
        answers.push(format!("{status} ({bytes} B)"));
    }
    let took = t.elapsed();
    stop.store(true, Ordering::Relaxed);
    let healthz = probing.await.unwrap();
    report(name, pid, before, healthz, &answers, took);
}

async fn idle_connections() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let run = start().await;
    let pid = run.server.0.id();
    let before = rss_mb(pid);
    let mut idle = Vec::new();
    for _ in 0..2000 {
        match tokio::net::TcpStream::connect(("127.0.0.1", run.port)).await {
            Ok(s) => idle.push(s),
            Err(_) => break,
        }
    }
    let opened = idle.len();
    let mut trickled = Vec::new();
    for _ in 0..20 {
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", run.port))
            .await
            .unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        trickled.push(s);
    }
    let watch_started = Instant::now();
    // Keep trickling one header byte a second on the slow ones.
    while watch_started.elapsed() < IDLE_WATCH {
        for s in &mut trickled {
            let _ = s.write_all(b"X").await;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    let during = rss_mb(pid);
    let still_open = |streams: &mut Vec<tokio::net::TcpStream>| {
        let mut open = 0;
        for s in streams.iter_mut() {
            let mut buf = [0u8; 64];
            match s.try_read(&mut buf) {
                Ok(0) => {}
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => open += 1,
                Err(_) => {}
            }
        }
        open
    };
    // Let any close reach us.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let idle_open = still_open(&mut idle);
    let trickled_open = still_open(&mut trickled);
    let mut probe_client = tokio::net::TcpStream::connect(("127.0.0.1", run.port))
        .await
        .unwrap();
    probe_client
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        probe_client.read_to_end(&mut answer),
    )
    .await;
    println!(
        "{opened} idle connections and 20 trickled heads, after {IDLE_WATCH:?}: {idle_open} idle and \
         {trickled_open} trickled still open; RSS {before:.0} → {during:.0} MB; a new request answered: {}",
        String::from_utf8_lossy(&answer).lines().next().unwrap_or("nothing")
    );
}

#[tokio::main]
async fn main() {
    println!(
        "binary: {}",
        std::env::var("MOAT_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_moat").into())
    );
    let header = "date,type,quantity,price,currency\n";
    let many = format!("{header}{}", "2024-01-02,deposit,1,5,KRW\n".repeat(175_000));
    println!("the 175,000-row file: {} bytes", many.len());
    csv_attack("preview of 175,000 rows (5 MB), once", &many, 1).await;
    csv_attack("preview of 175,000 rows (5 MB), three at once", &many, 3).await;
    let note = "n".repeat(200);
    let mut at_cap = String::from("date,type,quantity,price,currency,note\n");
    for _ in 0..20_000 {
        at_cap += &format!("2024-01-02,deposit,1,5,KRW,{note}\n");
    }
    println!(
        "the file at the row cap: 20,000 rows, {} bytes",
        at_cap.len()
    );
    csv_attack("preview at the row cap (20,000 rows)", &at_cap, 1).await;
    idle_connections().await;
}
