//! Gzip bombs against the telemetry ingest (prints figures, asserts nothing): the real
//! `moat` binary on a fresh SQLite database, and 16 parallel `POST /v1/traces` bodies
//! of about 31 KB, each a gzip of 31 MiB (whitespace, then a valid empty OTLP
//! document), as in issue 14 §3. Reports the answers (200 / 503 with `Retry-After`),
//! the server's resident memory before, at its peak (VmHWM) and 2 s after, and whether
//! a normal push still works.
//!
//!   cargo bench -p moat --bench bomb
//!
//! `MOAT_BENCH_BIN=/path/to/moat` runs another build (e.g. one without the shared
//! decompression budget, for a before/after figure); `ROUNDS` (default 3) repeats the
//! volley.

use std::{
    io::Write,
    process::Command,
    time::{Duration, Instant},
};

mod support;
use support::{status_kb, wait_ready, Server};

/// Parallel bombs per volley.
const BOMBS: usize = 16;
/// What each bomb decompresses to.
const BOMB_BYTES: usize = 31 * 1024 * 1024;
/// How long the server is left to settle before the residue is read.
const SETTLE: Duration = Duration::from_secs(2);

fn mb(kb: f64) -> String {
    format!("{:.0} MB", kb / 1024.0)
}

#[tokio::main]
async fn main() {
    let bin = std::env::var("MOAT_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_moat").into());
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let server = Server(
        Command::new(&bin)
            .args(["--port", &port.to_string(), "--data-dir"])
            .arg(dir.path())
            .env("MOAT_LOG_LEVEL", "warn")
            .env("MOAT_MARKET_BACKFILL_YEARS", "0")
            .spawn()
            .expect("moat starts"),
    );
    let pid = server.0.id();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    wait_ready(&base).await;

    let mut doc = vec![b' '; BOMB_BYTES - 32];
    doc.extend_from_slice(br#"{"resourceSpans":[]}"#);
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(&doc).unwrap();
    let bomb = e.finish().unwrap();
    drop(doc);
    println!("binary: {bin}");
    println!(
        "{BOMBS} parallel bombs of {} KB each, {} MiB decompressed, {rounds} volleys",
        bomb.len() / 1024,
        BOMB_BYTES / 1024 / 1024
    );
    let before = status_kb(pid, "VmRSS:");
    println!("resident before: {}", mb(before));
    for round in 1..=rounds {
        let t0 = Instant::now();
        let sends = (0..BOMBS).map(|_| {
            client
                .post(format!("{base}/v1/traces"))
                .header("content-type", "application/json")
                .header("content-encoding", "gzip")
                .body(bomb.clone())
                .send()
        });
        let (mut ok, mut busy, mut other) = (0, 0, Vec::new());
        for r in futures_util::future::join_all(sends).await {
            match r.map(|r| (r.status().as_u16(), r.headers().contains_key("retry-after"))) {
                Ok((200, _)) => ok += 1,
                Ok((503, true)) => busy += 1,
                Ok((status, _)) => other.push(status.to_string()),
                Err(e) => other.push(e.to_string()),
            }
        }
        println!(
            "volley {round}: {ok} × 200, {busy} × 503 with Retry-After, other {other:?}, {:.2} s",
            t0.elapsed().as_secs_f64()
        );
    }
    let peak = status_kb(pid, "VmHWM:");
    tokio::time::sleep(SETTLE).await;
    let after = status_kb(pid, "VmRSS:");
    println!(
        "resident peak (VmHWM): {} (+{} over before)",
        mb(peak),
        mb(peak - before)
    );
    println!(
        "resident {} s after: {} (+{} over before)",
        SETTLE.as_secs(),
        mb(after),
        mb(after - before)
    );
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(br#"{"resourceSpans":[]}"#).unwrap();
    let normal = client
        .post(format!("{base}/v1/traces"))
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(e.finish().unwrap())
        .send()
        .await
        .map(|r| r.status().as_u16());
    println!("a normal push afterwards: {normal:?}");
    drop(server);
}
