//! The portfolio API's reads and edits, end to end over HTTP against the real `moat`
//! binary (release build) on SQLite and, when `MOAT_TEST_POSTGRES_URL` is set, on a
//! fresh PostgreSQL database, with the instance's 5-year price backfill in place.
//! Prints figures, asserts nothing. Two members:
//! - **peer**: one portfolio of 2,000 activities over 5 instruments and 5 years (the
//!   shape of the side-by-side run against a tracker that stores daily snapshots):
//!   import, import to the first complete read, performance and holdings reads, an
//!   edit of the oldest activity to the figures shown;
//! - **heavy**: 10 portfolios × 1,000 transactions over 120 instruments and 5 years:
//!   the list of portfolios with the meta portfolio's totals, one portfolio's
//!   performance, the meta portfolio's performance, an edit of the oldest transaction
//!   then valuation and performance, and the server's peak memory with the cache's
//!   bound and hit rate (`GET /metrics`).
//!
//! Each figure is measured with the derived-results cache on (the default), then again
//! by the same binary on the same database restarted with `derived_cache_mb = 0` (every
//! read computed from the ledger): the baseline printed beside it.
//!
//!   cargo bench -p moat --bench portfolio
//!   MOAT_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test cargo bench -p moat --bench portfolio
//!   (PORTFOLIO_BENCH_SKIP_SQLITE=1 runs PostgreSQL only)

use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{json, Value};

mod support;
use support::{cpu_seconds, free_port, percentile, status_kb, wait_ready, Server};

const HEAVY_PORTFOLIOS: usize = 10;
const HEAVY_TRANSACTIONS: usize = 10_000;
const HEAVY_INSTRUMENTS: usize = 120;
const PEER_ACTIVITIES: usize = 2_000;
const PEER_INSTRUMENTS: usize = 5;
/// Reads per steady-state figure (p50 and p99 by nearest rank).
const READS: usize = 101;
/// Reads of the meta portfolio's performance (slow without the cache).
const META_READS: usize = 21;
/// Edits of the oldest transaction.
const EDITS: usize = 5;

struct Moat {
    server: Server,
    base: String,
    client: reqwest::Client,
}

impl Moat {
    /// `moat` on `database_url` (data in `dir`), the cache bound `cache_mb`; returns
    /// once it answers and its history catch-up has gone quiet.
    async fn start(database_url: &str, dir: &Path, cache_mb: u64) -> Self {
        let port = free_port();
        let server = Server(
            Command::new(env!("CARGO_BIN_EXE_moat"))
                .args(["--port", &port.to_string(), "--data-dir"])
                .arg(dir)
                .env("MOAT_DATABASE_URL", database_url)
                .env("MOAT_LOG_LEVEL", "warn")
                .env("MOAT_BODY_LIMIT_BYTES", "8388608")
                .env("MOAT_PORTFOLIO_DERIVED_CACHE_MB", cache_mb.to_string())
                .stdout(Stdio::null())
                .spawn()
                .expect("moat starts"),
        );
        let base = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        let started = Instant::now();
        wait_ready(&base).await;
        // The catch-up job backfills 5 years for every instrument: wait until the
        // process is idle for a second (at most 3 minutes).
        let pid = server.0.id().to_string();
        let mut last = cpu_seconds(&pid);
        while started.elapsed() < Duration::from_secs(180) {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let now = cpu_seconds(&pid);
            if now - last < 0.05 {
                break;
            }
            last = now;
        }
        Self {
            server,
            base,
            client,
        }
    }

    fn pid(&self) -> u32 {
        self.server.0.id()
    }

    async fn token(&self, email: &str, signup: bool) -> String {
        let (path, body) = if signup {
            (
                "/api/auth/signup",
                json!({"email": email, "password": "correct horse battery", "nickname": email.split('@').next().unwrap()}),
            )
        } else {
            (
                "/api/auth/login",
                json!({"email": email, "password": "correct horse battery"}),
            )
        };
        let v: Value = self
            .client
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        v["token"].as_str().expect("a token").to_owned()
    }

    async fn get(&self, token: &str, path: &str) -> Vec<u8> {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        r.bytes().await.unwrap().to_vec()
    }

    async fn metrics(&self) -> String {
        self.client
            .get(format!("{}/metrics", self.base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// Creates a portfolio and imports `csv` into it; returns its id.
    async fn import(&self, token: &str, name: &str, csv: String) -> i64 {
        let created: Value = self
            .client
            .post(format!("{}/api/portfolios", self.base))
            .bearer_auth(token)
            .json(&json!({"name": name, "base_currency": "KRW"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = created["id"].as_i64().unwrap();
        let r = self
            .client
            .post(format!("{}/api/portfolios/{id}/import", self.base))
            .bearer_auth(token)
            .header("content-type", "text/csv")
            .body(csv)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
        id
    }

    /// The id and trade date of the oldest transaction of `portfolio`.
    async fn oldest(&self, token: &str, portfolio: i64) -> (i64, String) {
        let txs: Value = serde_json::from_slice(
            &self
                .get(token, &format!("/api/portfolios/{portfolio}/transactions"))
                .await,
        )
        .unwrap();
        let oldest = &txs[0];
        (
            oldest["id"].as_i64().unwrap(),
            oldest["trade_date"].as_str().unwrap().to_owned(),
        )
    }

    /// Changes the amount of the oldest transaction (a deposit) of `portfolio` (the
    /// `n`th edit).
    async fn edit_oldest(&self, token: &str, portfolio: i64, oldest: &(i64, String), n: usize) {
        let r = self
            .client
            .put(format!(
                "{}/api/portfolios/{portfolio}/transactions/{}",
                self.base, oldest.0
            ))
            .bearer_auth(token)
            .json(
                &json!({"kind": "deposit", "trade_date": oldest.1, "quantity": "1",
                "price": format!("{}", 500_000_000 + n), "currency": "KRW"}),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    }

    /// `reads` timings of GET `path`, in ms.
    async fn time_reads(&self, token: &str, path: &str, reads: usize) -> Vec<f64> {
        let mut out = Vec::with_capacity(reads);
        for _ in 0..reads {
            let t = Instant::now();
            self.get(token, path).await;
            out.push(ms(t));
        }
        out
    }

    /// The median of `EDITS` edits of the oldest transaction each followed by the
    /// valuation and performance reads, in ms.
    async fn time_edits(&self, token: &str, portfolio: i64) -> f64 {
        let oldest = self.oldest(token, portfolio).await;
        let mut edits = Vec::new();
        for n in 0..EDITS {
            let t = Instant::now();
            self.edit_oldest(token, portfolio, &oldest, n).await;
            self.get(token, &format!("/api/portfolios/{portfolio}/valuation"))
                .await;
            self.get(token, &format!("/api/portfolios/{portfolio}/performance"))
                .await;
            edits.push(ms(t));
        }
        percentile(&mut edits, 0.5)
    }
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// p50 and p99 of `v`.
fn p50_p99(v: &[f64]) -> (f64, f64) {
    let mut v = v.to_vec();
    (percentile(&mut v, 0.5), percentile(&mut v, 0.99))
}

/// Instruments of the catalogue, stocks and ETFs, Korean and US: (id, currency).
async fn instruments(moat: &Moat, n: usize) -> Vec<(String, String)> {
    let mut ids: Vec<(String, String)> = Vec::new();
    for q in [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "e", "i", "o", "s", "t",
    ] {
        let found: Vec<Value> = moat
            .client
            .get(format!(
                "{}/api/instruments/search?q={q}&limit=50",
                moat.base
            ))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        for i in found {
            let kind = i["kind"].as_str().unwrap();
            let id = i["id"].as_str().unwrap().to_owned();
            if (kind == "stock" || kind == "etf") && !ids.iter().any(|(x, _)| *x == id) {
                ids.push((id, i["currency"].as_str().unwrap().to_owned()));
            }
        }
    }
    ids.truncate(n);
    ids
}

fn trade(date: chrono::NaiveDate, kind: &str, (inst, ccy): &(String, String), qty: u32) -> String {
    let (price, fx) = if ccy == "KRW" {
        ("10000", "")
    } else {
        ("10", "1300")
    };
    format!("{date},{kind},{inst},{qty},{price},0,{ccy},{fx}\n")
}

/// `count` transactions over 5 years: a deposit every 20th, buys of `ids` in turn,
/// and (with `sells`) a sell of one share after every fourth buy of an instrument.
fn ledger_csv(ids: &[(String, String)], count: usize, sells: bool) -> String {
    let start = chrono::Utc::now().date_naive() - chrono::Duration::days(5 * 365);
    let mut csv = String::from("date,type,instrument,quantity,price,fee,currency,fx_rate\n");
    for k in 0..count {
        let date = start + chrono::Duration::days((k * 5 * 365 / count) as i64);
        if k % 20 == 0 {
            csv += &format!("{date},deposit,,1,100000000,0,KRW,\n");
            continue;
        }
        let inst = &ids[k % ids.len()];
        if sells && k % (ids.len() * 4) < ids.len() && k > ids.len() * 4 {
            csv += &trade(date, "sell", inst, 1);
        } else {
            csv += &trade(date, "buy", inst, 2);
        }
    }
    csv
}

/// What one run (cache on or off) measured.
#[derive(Default)]
struct Figures {
    peer_performance: Vec<f64>,
    peer_holdings: Vec<f64>,
    peer_edit: f64,
    heavy_list: Vec<f64>,
    heavy_one: Vec<f64>,
    heavy_meta: Vec<f64>,
    heavy_edit: f64,
    heavy_list_after_edit: f64,
}

/// The steady-state reads and edits of both members.
async fn measure(moat: &Moat, peer: (&str, i64), heavy: (&str, &[i64])) -> Figures {
    let (peer_token, peer_id) = peer;
    let (heavy_token, heavy_ids) = heavy;
    let mut f = Figures {
        peer_performance: moat
            .time_reads(
                peer_token,
                &format!("/api/portfolios/{peer_id}/performance"),
                READS,
            )
            .await,
        peer_holdings: moat
            .time_reads(
                peer_token,
                &format!("/api/portfolios/{peer_id}/valuation"),
                READS,
            )
            .await,
        ..Default::default()
    };
    f.peer_edit = moat.time_edits(peer_token, peer_id).await;
    // The list first read (each ledger, then the list's own figures).
    moat.get(heavy_token, "/api/portfolios").await;
    f.heavy_list = moat.time_reads(heavy_token, "/api/portfolios", READS).await;
    let one = format!("/api/portfolios/{}/performance", heavy_ids[1]);
    moat.get(heavy_token, &one).await;
    f.heavy_one = moat.time_reads(heavy_token, &one, READS).await;
    moat.get(heavy_token, "/api/portfolios/meta/performance")
        .await;
    f.heavy_meta = moat
        .time_reads(heavy_token, "/api/portfolios/meta/performance", META_READS)
        .await;
    f.heavy_edit = moat.time_edits(heavy_token, heavy_ids[0]).await;
    let t = Instant::now();
    moat.get(heavy_token, "/api/portfolios").await;
    f.heavy_list_after_edit = ms(t);
    f
}

fn line(what: &str, target: &str, cached: &[f64], baseline: &[f64]) {
    let (c50, c99) = p50_p99(cached);
    let (b50, b99) = p50_p99(baseline);
    println!(
        "  {what}: p50 {c50:.2} ms, p99 {c99:.2} ms ({target}) | without the cache: p50 {b50:.2} ms, p99 {b99:.2} ms | p50 {:.1}× faster",
        b50 / c50
    );
}

async fn run(backend: &str, database_url: &str, dir: &Path) {
    println!("== {backend} ==");
    let moat = Moat::start(database_url, dir, 64).await;
    let pid = moat.pid();
    let peer_token = moat.token("peer@moat.example", true).await;
    let heavy_token = moat.token("heavy@moat.example", true).await;
    let ids = instruments(&moat, HEAVY_INSTRUMENTS).await;
    assert!(
        ids.len() >= HEAVY_INSTRUMENTS,
        "{} instruments found",
        ids.len()
    );

    // The peer's shape: import, then the first complete read (holdings and performance).
    let peer_csv = ledger_csv(&ids[..PEER_INSTRUMENTS], PEER_ACTIVITIES, true);
    let t = Instant::now();
    let peer_id = moat.import(&peer_token, "peer", peer_csv).await;
    let import = ms(t);
    moat.get(&peer_token, &format!("/api/portfolios/{peer_id}/valuation"))
        .await;
    let perf = moat
        .get(
            &peer_token,
            &format!("/api/portfolios/{peer_id}/performance"),
        )
        .await;
    let first_read = ms(t);
    let points = serde_json::from_slice::<Value>(&perf).unwrap()["points"]
        .as_array()
        .unwrap()
        .len();
    println!(
        "peer: {PEER_ACTIVITIES} activities over {PEER_INSTRUMENTS} instruments ({points} daily points): import {import:.1} ms, import to the first complete read {first_read:.1} ms"
    );

    // The heavy member: 10 portfolios of 1,000, 12 instruments each out of 120.
    let t = Instant::now();
    let mut heavy_ids = Vec::new();
    let per = HEAVY_TRANSACTIONS / HEAVY_PORTFOLIOS;
    let share = HEAVY_INSTRUMENTS / HEAVY_PORTFOLIOS;
    for p in 0..HEAVY_PORTFOLIOS {
        let mine = &ids[p * share..(p + 1) * share];
        heavy_ids.push(
            moat.import(&heavy_token, &format!("P{p}"), ledger_csv(mine, per, false))
                .await,
        );
    }
    println!(
        "heavy: imported {HEAVY_TRANSACTIONS} transactions in {HEAVY_PORTFOLIOS} portfolios over {HEAVY_INSTRUMENTS} instruments in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    moat.get(&heavy_token, "/api/portfolios").await;
    println!(
        "heavy: the list's first read after the imports: {:.1} ms",
        ms(t)
    );
    let t = Instant::now();
    moat.get(&heavy_token, "/api/portfolios/meta/performance")
        .await;
    println!(
        "heavy: the meta portfolio's first performance read (every series computed): {:.1} ms",
        ms(t)
    );

    let cached = measure(&moat, (&peer_token, peer_id), (&heavy_token, &heavy_ids)).await;
    let peak = status_kb(pid, "VmHWM:") / 1024.0;
    let rss = status_kb(pid, "VmRSS:") / 1024.0;
    let metrics = moat.metrics().await;
    drop(moat);

    // The baseline: the same binary and database, nothing kept.
    let moat = Moat::start(database_url, dir, 0).await;
    let peer_token = moat.token("peer@moat.example", false).await;
    let heavy_token = moat.token("heavy@moat.example", false).await;
    let baseline = measure(&moat, (&peer_token, peer_id), (&heavy_token, &heavy_ids)).await;
    let baseline_peak = status_kb(moat.pid(), "VmHWM:") / 1024.0;
    drop(moat);

    println!("peer (2,000 activities, 5 instruments, 5 years):");
    line(
        "performance read",
        "target p50 ≤ 5 ms",
        &cached.peer_performance,
        &baseline.peer_performance,
    );
    line(
        "holdings read",
        "valuation",
        &cached.peer_holdings,
        &baseline.peer_holdings,
    );
    println!(
        "  edit the oldest activity, then valuation and performance: median {:.1} ms | without the cache {:.1} ms",
        cached.peer_edit, baseline.peer_edit
    );
    println!("heavy (10 × 1,000 transactions, 120 instruments, 5 years):");
    line(
        "list of 10 portfolios + meta",
        "target p50 ≤ 15, p99 ≤ 40 ms",
        &cached.heavy_list,
        &baseline.heavy_list,
    );
    line(
        "one portfolio's performance",
        "target p50 ≤ 20 ms",
        &cached.heavy_one,
        &baseline.heavy_one,
    );
    line(
        "the meta portfolio's performance",
        "target p50 ≤ 100 ms",
        &cached.heavy_meta,
        &baseline.heavy_meta,
    );
    println!(
        "  edit the oldest transaction, then valuation and performance: median {:.1} ms (target ≤ 100 ms) | without the cache {:.1} ms",
        cached.heavy_edit, baseline.heavy_edit
    );
    println!(
        "  the list right after an edit: {:.1} ms | without the cache {:.1} ms",
        cached.heavy_list_after_edit, baseline.heavy_list_after_edit
    );
    println!(
        "server memory: peak {peak:.1} MB (VmHWM, target ≤ 120 MB), {rss:.1} MB at the end | without the cache: peak {baseline_peak:.1} MB"
    );
    for l in metrics.lines().filter(|l| !l.starts_with('#')) {
        println!("  {l}");
    }
}

#[tokio::main]
async fn main() {
    if std::env::var_os("PORTFOLIO_BENCH_SKIP_SQLITE").is_none() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("moat.db").display());
        run("SQLite", &url, dir.path()).await;
    }
    if let Some(db) = moat_storage::testing::TestDatabase::postgres().await {
        let dir = tempfile::tempdir().unwrap();
        run("PostgreSQL", &db.url, dir.path()).await;
    }
}
