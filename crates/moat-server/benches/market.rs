//! Market-data benchmarks that print medians and p99s (no assertions; compare figures
//! of one run, machines are noisy):
//! - first-start backfill of 150 instruments × 5 years into SQLite (target ≤ 5 s), and
//!   of the whole curated catalogue through the server's catch-up job
//! - 5 years of daily candles for one instrument read from SQLite (target p99 ≤ 3 ms),
//!   and the `range=5Y` endpoint over HTTP
//!
//! (Search has its own benchmark: `cargo bench -p moat-market --bench search`.)
//!
//!   cargo bench -p moat-server --bench market

use std::time::{Duration, Instant};

use chrono::{Duration as Days, Utc};
use moat_market::{catalog, simulator::Simulator, Instrument};
use moat_storage::ConnectOptions;

fn percentile(mut v: Vec<Duration>, p: f64) -> Duration {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

async fn bench_storage() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let storage = moat_storage::connect(&url, &ConnectOptions::default())
        .await
        .unwrap();
    storage.migrate().await.unwrap();
    let instruments: Vec<Instrument> = catalog::curated().into_iter().take(150).collect();
    storage.upsert_instruments(&instruments).await.unwrap();
    let sim = Simulator::default();
    let today = Utc::now().date_naive();
    let from = today - Days::days(5 * 365);
    let t = Instant::now();
    let mut rows = 0;
    for inst in &instruments {
        let candles = sim.daily(inst, from, today);
        rows += candles.len();
        storage
            .upsert_daily_candles(&inst.id, &candles, "simulator")
            .await
            .unwrap();
    }
    println!(
        "backfill of {} instruments × 5 years ({rows} candles) into SQLite: {:.2} s (target ≤ 5 s)",
        instruments.len(),
        t.elapsed().as_secs_f64()
    );
    let id = &instruments[0].id;
    let mut runs = Vec::new();
    for _ in 0..501 {
        let t = Instant::now();
        let c = storage.daily_candles(id, from, today).await.unwrap();
        runs.push(t.elapsed());
        assert!(c.len() > 1000);
    }
    println!(
        "5 years of daily candles for {id} from SQLite: median {:.3} ms, p99 {:.3} ms (target p99 ≤ 3 ms)",
        ms(percentile(runs.clone(), 0.5)),
        ms(percentile(runs, 0.99))
    );
}

async fn bench_server() {
    let dir = tempfile::tempdir().unwrap();
    let config = moat_server::Config {
        port: 0,
        data_dir: dir.path().to_path_buf(),
        log_level: "warn".into(),
        ..Default::default()
    };
    // A fresh install: the catch-up job starts with the server; wait until every
    // instrument has its history.
    let t = Instant::now();
    let app = moat_server::Application::build(config).await.unwrap();
    let market = app.state().market.clone();
    let count = market.service.catalog().by_id.len();
    while market.storage.latest_candle_dates().await.unwrap().len() < count {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    println!(
        "first start to full history of the curated catalogue ({count} instruments × 5 years): {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let base = format!("http://{}", app.local_addr());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async move {
        let _ = rx.await;
    }));
    let client = reqwest::Client::new();
    let mut runs = Vec::new();
    for _ in 0..101 {
        let t = Instant::now();
        let r = client
            .get(format!(
                "{base}/api/instruments/KRX:005930/candles?range=5Y"
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        r.bytes().await.unwrap();
        runs.push(t.elapsed());
    }
    println!(
        "GET …/candles?range=5Y over HTTP (simulated, computed per request): median {:.2} ms, p99 {:.2} ms",
        ms(percentile(runs.clone(), 0.5)),
        ms(percentile(runs, 0.99))
    );
    let _ = tx.send(());
    let _ = server.await;
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(bench_storage());
    rt.block_on(bench_server());
}
