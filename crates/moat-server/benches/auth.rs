//! Auth benchmarks that print medians (no assertions; compare figures of one run):
//! - token verification (HS256 signature + claims), µs per call (target ≤ 20 µs)
//! - password log-in latency through the real HTTP stack, including Argon2id, ms
//!
//!   cargo bench -p moat-server --bench auth

use std::time::{Duration, Instant};

use moat_server::accounts::token::{Claims, TokenData, TokenKeys};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench_verify() {
    let keys = TokenKeys::from_secret(&[7; 32]);
    let now = chrono::Utc::now().timestamp();
    let token = keys
        .sign(&Claims {
            exp: now + 3600,
            iat: now,
            jti: uuid::Uuid::new_v4().to_string(),
            data: TokenData {
                user_id: 12345,
                nickname: "개미투자자".into(),
                chat_user_id: uuid::Uuid::new_v4(),
            },
        })
        .unwrap();
    const CALLS: u32 = 2_000;
    let mut runs = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        for _ in 0..CALLS {
            std::hint::black_box(keys.verify(std::hint::black_box(&token), now).unwrap());
        }
        runs.push(t.elapsed() / CALLS);
    }
    println!(
        "token verification (HS256 + claims): median {:.2} µs per call",
        median(runs).as_secs_f64() * 1e6
    );
}

async fn bench_login() {
    let dir = tempfile::tempdir().unwrap();
    let config = moat_server::Config {
        port: 0,
        data_dir: dir.path().to_path_buf(),
        log_level: "warn".into(),
        // No price history: its first-start backfill would compete with the log-ins.
        market: moat_server::market::MarketConfig {
            backfill_years: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let app = moat_server::Application::build(config).await.unwrap();
    let base = format!("http://{}", app.local_addr());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(app.run_until(async move {
        let _ = rx.await;
    }));
    let client = reqwest::Client::new();
    let body = serde_json::json!({"email": "bench@moat.example", "password": "correct horse battery", "nickname": "bench"});
    let r = client
        .post(format!("{base}/api/auth/signup"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let mut runs = Vec::new();
    for _ in 0..15 {
        let t = Instant::now();
        let r = client
            .post(format!("{base}/api/auth/login"))
            .json(&body)
            .send()
            .await
            .unwrap();
        runs.push(t.elapsed());
        assert_eq!(r.status(), 200);
    }
    println!(
        "password log-in over HTTP (Argon2id m=19 MiB t=2 p=1): median {:.1} ms",
        median(runs).as_secs_f64() * 1e3
    );
    let token: serde_json::Value = client
        .post(format!("{base}/api/auth/login"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = token["token"].as_str().unwrap().to_owned();
    let mut runs = Vec::new();
    for _ in 0..201 {
        let t = Instant::now();
        let r = client
            .get(format!("{base}/api/me"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        runs.push(t.elapsed());
        assert_eq!(r.status(), 200);
    }
    println!(
        "authenticated GET /api/me over HTTP (token + session query, SQLite): median {:.3} ms",
        median(runs).as_secs_f64() * 1e3
    );
    let _ = tx.send(());
    let _ = server.await;
}

fn main() {
    bench_verify();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(bench_login());
}
