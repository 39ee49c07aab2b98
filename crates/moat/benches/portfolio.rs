//! The portfolio API under a heavy member (prints figures, asserts nothing): the real
//! `moat` binary on a fresh SQLite database with 5 years of simulated history, and one
//! member with 10 portfolios holding 10,000 transactions over 200 instruments (imported
//! through the API's CSV import). Reports:
//! - the full valuation read (`GET /api/portfolios`, every portfolio valued, and one
//!   portfolio's `valuation`), p50 and p99, the first read after start-up apart, and
//!   the list right after an edit;
//! - editing the oldest transaction of a portfolio, then reading its figures and its
//!   5-year daily value history (`performance`), end to end;
//! - the server's peak resident memory (VmHWM) and the database growth the member
//!   causes (the SQLite file, its WAL and shared memory).
//!
//!   cargo bench -p moat --bench portfolio

use std::{
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{json, Value};

mod support;
use support::{db_bytes, percentile, status_kb, Server};

const PORTFOLIOS: usize = 10;
const TRANSACTIONS: usize = 10_000;
const INSTRUMENTS: usize = 200;

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let server = Server(
        Command::new(env!("CARGO_BIN_EXE_moat"))
            .args(["--port", &port.to_string(), "--data-dir"])
            .arg(dir.path())
            .env("MOAT_LOG_LEVEL", "warn")
            .env("MOAT_BODY_LIMIT_BYTES", "8388608")
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
    // The catch-up job backfills 5 years for every instrument; wait for it to settle.
    tokio::time::sleep(Duration::from_secs(20)).await;
    let token = client
        .post(format!("{base}/api/auth/signup"))
        .json(&json!({"email": "heavy@moat.example", "password": "correct horse battery", "nickname": "heavy"}))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let get = |path: String| {
        let client = client.clone();
        let token = token.clone();
        let base = base.clone();
        async move {
            let r = client
                .get(format!("{base}{path}"))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "{path}");
            r.bytes().await.unwrap()
        }
    };
    // 200 stocks and ETFs of the catalogue, Korean and US.
    let mut ids: Vec<(String, String)> = Vec::new();
    for q in [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "e", "i", "o", "s", "t",
    ] {
        let found: Vec<Value> = client
            .get(format!("{base}/api/instruments/search?q={q}&limit=50"))
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
    ids.truncate(INSTRUMENTS);
    let db_before = db_bytes(dir.path());
    // 10 portfolios × 1,000 transactions: deposits, then buys (and some sells) spread
    // over 5 years, 20 instruments each.
    let start = chrono::Utc::now().date_naive() - chrono::Duration::days(5 * 365);
    let mut portfolio_ids = Vec::new();
    let t_import = Instant::now();
    for p in 0..PORTFOLIOS {
        let created: Value = client
            .post(format!("{base}/api/portfolios"))
            .bearer_auth(&token)
            .json(&json!({"name": format!("P{p}"), "base_currency": "KRW"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = created["id"].as_i64().unwrap();
        portfolio_ids.push(id);
        let mut csv = String::from("date,type,instrument,quantity,price,fee,currency,fx_rate\n");
        let per = TRANSACTIONS / PORTFOLIOS;
        for k in 0..per {
            let date = start + chrono::Duration::days((k * 5 * 365 / per) as i64);
            if k % 20 == 0 {
                csv += &format!("{date},deposit,,1,100000000,0,KRW,\n");
                continue;
            }
            let (inst, ccy) = &ids[(p * 20 + k % 20) % ids.len()];
            let (price, fx) = if ccy == "KRW" {
                ("10000", "")
            } else {
                ("10", "1300")
            };
            csv += &format!("{date},buy,{inst},1,{price},0,{ccy},{fx}\n");
        }
        let r = client
            .post(format!("{base}/api/portfolios/{id}/import"))
            .bearer_auth(&token)
            .header("content-type", "text/csv")
            .body(csv)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    }
    println!(
        "imported {TRANSACTIONS} transactions in {PORTFOLIOS} portfolios over {} instruments in {:.1} s",
        ids.len(),
        t_import.elapsed().as_secs_f64()
    );
    // The first read after start-up finds nothing decoded or simulated yet (today's
    // quote of every instrument, every ledger): reported apart from the steady state.
    let t = Instant::now();
    get("/api/portfolios".into()).await;
    let cold = t.elapsed().as_secs_f64() * 1e3;
    let mut all = Vec::new();
    let mut one = Vec::new();
    for _ in 0..101 {
        let t = Instant::now();
        get("/api/portfolios".into()).await;
        all.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        get(format!("/api/portfolios/{}/valuation", portfolio_ids[0])).await;
        one.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("GET /api/portfolios, first read after start-up: {cold:.1} ms");
    println!(
        "GET /api/portfolios (all 10 valued + meta), 101 reads: p50 {:.1} ms, p99 {:.1} ms (target p50 ≤ 20, p99 ≤ 60)",
        percentile(&mut all.clone(), 0.5),
        percentile(&mut all, 0.99)
    );
    println!(
        "GET …/{{id}}/valuation (1,000 transactions): p50 {:.1} ms, p99 {:.1} ms",
        percentile(&mut one.clone(), 0.5),
        percentile(&mut one, 0.99)
    );
    // Edit the oldest transaction, then read the figures and the 5-year history.
    let p0 = portfolio_ids[0];
    let txs: Vec<Value> =
        serde_json::from_slice(&get(format!("/api/portfolios/{p0}/transactions")).await).unwrap();
    let oldest = &txs[0];
    let mut edits = Vec::new();
    let mut after_edit = Vec::new();
    for n in 0..5 {
        let t = Instant::now();
        let r = client
            .put(format!(
                "{base}/api/portfolios/{p0}/transactions/{}",
                oldest["id"]
            ))
            .bearer_auth(&token)
            .json(
                &json!({"kind": "deposit", "trade_date": oldest["trade_date"], "quantity": "1",
                "price": format!("{}", 100_000_000 + n), "currency": "KRW"}),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
        get(format!("/api/portfolios/{p0}/valuation")).await;
        let perf = get(format!("/api/portfolios/{p0}/performance")).await;
        edits.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        get("/api/portfolios".into()).await;
        after_edit.push(t.elapsed().as_secs_f64() * 1e3);
        if n == 0 {
            let v: Value = serde_json::from_slice(&perf).unwrap();
            println!(
                "  (history: {} daily points)",
                v["points"].as_array().unwrap().len()
            );
        }
    }
    println!(
        "edit the oldest transaction + valuation + 5-year performance: median {:.0} ms (target ≤ 500 ms)",
        percentile(&mut edits, 0.5)
    );
    println!(
        "GET /api/portfolios right after an edit (one ledger reloaded): median {:.1} ms",
        percentile(&mut after_edit, 0.5)
    );
    let t = Instant::now();
    get("/api/portfolios/meta/performance".into()).await;
    println!(
        "meta portfolio performance (10 portfolios, 5 years): {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    println!(
        "server memory: peak {:.1} MB (VmHWM), now {:.1} MB (target peak ≤ 200 MB)",
        status_kb(pid, "VmHWM:") / 1024.0,
        status_kb(pid, "VmRSS:") / 1024.0
    );
    println!(
        "database growth for this member: {:.1} MB (target ≤ 50 MB)",
        (db_bytes(dir.path()) as f64 - db_before as f64) / 1e6
    );
    drop(server);
}
