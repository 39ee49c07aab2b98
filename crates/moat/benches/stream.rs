//! Live-quote fan-out benchmark (prints figures, asserts nothing): the real `moat`
//! binary with 150 instruments ticking once a second, and a load client in this process
//! holding 2,000 WebSocket subscribers. Reports the delivery latency (receipt time minus
//! the quote's `as_of`, which the simulator sets to the tick's second) as median and
//! p99, frames delivered, and the server's resident memory before and under load.
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
use support::{percentile, rss_mb, Server};

const INSTRUMENTS: usize = 150;
const SUBSCRIBERS: usize = 2_000;
/// Topics each subscriber watches (round-robin over the instruments).
const TOPICS_PER_SUBSCRIBER: usize = 8;
const MEASURE: Duration = Duration::from_secs(20);

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

async fn seed(dir: &std::path::Path) -> Vec<InstrumentId> {
    let url = format!("sqlite://{}", dir.join("moat.db").display());
    let storage = moat_storage::connect(&url, &ConnectOptions::default())
        .await
        .unwrap();
    storage.migrate().await.unwrap();
    let instruments: Vec<Instrument> = (0..INSTRUMENTS)
        .map(|i| Instrument {
            id: format!("CRYPTO:BENCH{i:03}").parse().unwrap(),
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
    instruments.into_iter().map(|i| i.id).collect()
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let ids = seed(dir.path()).await;
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let server = Server(
        Command::new(env!("CARGO_BIN_EXE_moat"))
            .args(["--port", &port.to_string(), "--data-dir"])
            .arg(dir.path())
            .env("MOAT_LOG_LEVEL", "warn")
            .env("MOAT_MARKET_BACKFILL_YEARS", "0")
            .env("MOAT_MARKET_MAX_STREAM_CONNECTIONS", "5000")
            .stdout(Stdio::null())
            .spawn()
            .expect("moat starts"),
    );
    let pid = server.0.id();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let started = Instant::now();
    while client.get(format!("{base}/readyz")).send().await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "moat did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle = rss_mb(pid);

    let latencies = Arc::new(Mutex::new(Vec::<f64>::with_capacity(1 << 20)));
    let measuring = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ids = Arc::new(ids);
    let mut tasks = Vec::new();
    let connect_started = Instant::now();
    for n in 0..SUBSCRIBERS {
        let url = format!("ws://127.0.0.1:{port}/api/stream");
        let topics: Vec<String> = (0..TOPICS_PER_SUBSCRIBER)
            .map(|k| format!("quote:{}", ids[(n * TOPICS_PER_SUBSCRIBER + k) % ids.len()]))
            .collect();
        let (ws, _) = tokio_tungstenite::connect_async(&url)
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
                    continue;
                }
                // Only the fields needed, borrowed: the load client shares the
                // server's two cores and should cost as little as it can.
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
    println!(
        "{SUBSCRIBERS} subscribers × {TOPICS_PER_SUBSCRIBER} topics over {INSTRUMENTS} instruments connected in {:.1} s",
        connect_started.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    measuring.store(true, std::sync::atomic::Ordering::Relaxed);
    tokio::time::sleep(MEASURE).await;
    measuring.store(false, std::sync::atomic::Ordering::Relaxed);
    let loaded = rss_mb(pid);
    drop(server);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
    }
    let mut l = latencies.lock().unwrap().clone();
    if l.is_empty() {
        println!("no quotes delivered");
        return;
    }
    let expected = SUBSCRIBERS * TOPICS_PER_SUBSCRIBER * MEASURE.as_secs() as usize;
    println!(
        "delivered {} quote frames in {} s ({:.0}/s; one per subscription per second would be {expected})",
        l.len(),
        MEASURE.as_secs(),
        l.len() as f64 / MEASURE.as_secs_f64()
    );
    println!(
        "delivery latency (receipt − as_of): median {:.1} ms, p99 {:.1} ms (target p99 ≤ 100 ms)",
        percentile(&mut l, 0.5),
        percentile(&mut l, 0.99)
    );
    println!("server resident memory: idle {idle:.1} MB, under load {loaded:.1} MB");
}
