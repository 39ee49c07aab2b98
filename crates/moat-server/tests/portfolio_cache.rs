//! Derived results kept between reads (portfolio::derived, docs/ARCHITECTURE.md) are
//! the results computed afresh. Two instances share one database: one keeps series and
//! ledgers, the other keeps nothing (`derived_cache_mb = 0`). A seeded random run of
//! edits — transactions added, edited and deleted on either instance, old closes and
//! FX rates corrected in storage, days passing on the shared clock — is read on both
//! after every step, and every figure that does not move with the live quotes must be
//! the same: the whole performance series and its periods (through a past "today"),
//! and the ledgers' holdings, costs, realised gains and cash.

mod helpers;

use std::{
    sync::Arc,
    time::{Duration, SystemTime},
};

use chrono::{Days, NaiveDate};
use helpers::{add_transaction, create_portfolio, login_token, member_json, send, signup, TestApp};
use moat_market::{DailyCandle, FxRate};
use moat_server::clock::{Clock, ManualClock};
use moat_storage::testing::TestDatabase;
use rand::{rngs::StdRng, Rng, SeedableRng};
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};

/// Steps of the random run per backend.
const STEPS: usize = 18;
/// How far in the past the shared clock starts, and the closest it comes to the real
/// present (so that every day it calls "today" has settled prices on both instances).
const START_DAYS_AGO: u64 = 60;
const NEAREST_DAYS_AGO: u64 = 4;
/// Trade dates fall in this many days before the clock's start.
const SPAN_DAYS: u64 = 500;

const KRW_BUYS: [&str; 2] = ["KRX:005930", "KRX:000660"];
const USD_BUYS: [&str; 2] = ["NASDAQ:AAPL", "NYSE:KO"];

struct Run {
    kept: TestApp,
    fresh: TestApp,
    clock: Arc<ManualClock>,
    email: String,
    token: String,
    portfolios: Vec<(i64, &'static str)>,
    rng: StdRng,
}

fn today(clock: &ManualClock) -> NaiveDate {
    clock.now_utc().date_naive()
}

impl Run {
    fn app(&mut self) -> &TestApp {
        if self.rng.gen_bool(0.5) {
            &self.kept
        } else {
            &self.fresh
        }
    }

    fn date(&mut self) -> NaiveDate {
        let back = self.rng.gen_range(0..SPAN_DAYS);
        today(&self.clock) - Days::new(START_DAYS_AGO - NEAREST_DAYS_AGO) - Days::new(back)
    }

    fn amount(&mut self, lo: i64, hi: i64) -> String {
        self.rng.gen_range(lo..hi).to_string()
    }

    /// A random transaction for the portfolio of base `base`.
    fn transaction(&mut self, base: &str) -> Value {
        let date = self.date().to_string();
        match self.rng.gen_range(0..10) {
            0..=2 => {
                let price = if base == "KRW" {
                    self.amount(1_000_000, 9_000_000)
                } else {
                    self.amount(1_000, 9_000)
                };
                json!({"kind": "deposit", "trade_date": date, "quantity": "1", "price": price, "currency": base})
            }
            3 => {
                let price = if base == "KRW" {
                    self.amount(10_000, 500_000)
                } else {
                    self.amount(10, 500)
                };
                json!({"kind": "withdrawal", "trade_date": date, "quantity": "1", "price": price, "currency": base})
            }
            n => {
                let kind = if n <= 7 { "buy" } else { "sell" };
                let quantity = self.amount(1, 12);
                // A won portfolio buys Korean shares in won and, now and then, a US one
                // in dollars at the day's rate; a dollar one buys US shares.
                let (instrument, currency, price, fx_rate) =
                    if base == "KRW" && self.rng.gen_bool(0.75) {
                        let i = KRW_BUYS[self.rng.gen_range(0..2)];
                        (i, "KRW", self.amount(50_000, 200_000), None)
                    } else {
                        let i = USD_BUYS[self.rng.gen_range(0..2)];
                        let rate = (base == "KRW").then(|| self.amount(1_250, 1_450));
                        (i, "USD", self.amount(50, 300), rate)
                    };
                let mut tx = json!({"kind": kind, "trade_date": date, "instrument_id": instrument,
                    "quantity": quantity, "price": price, "fee": "1", "currency": currency});
                if let Some(rate) = fx_rate {
                    tx["fx_rate"] = json!(rate);
                }
                tx
            }
        }
    }

    async fn step(&mut self) -> String {
        let (id, base) = self.portfolios[self.rng.gen_range(0..self.portfolios.len())];
        let token = self.token.clone();
        match self.rng.gen_range(0..12) {
            0..=4 => {
                let tx = self.transaction(base);
                let app = self.app();
                let r = add_transaction(app, &token, id, &tx).await;
                let status = r.status().as_u16();
                assert!(status < 500, "{tx}: {status} {}", r.text().await.unwrap());
                format!("add to {id}: {tx} → {status}")
            }
            5 | 6 => {
                let txs = self
                    .read(&format!("/api/portfolios/{id}/transactions"))
                    .await;
                let Some(txs) = txs.as_array().filter(|t| !t.is_empty()).cloned() else {
                    return "nothing to edit".into();
                };
                let mut tx = txs[self.rng.gen_range(0..txs.len())].clone();
                let tx_id = tx["id"].as_i64().unwrap();
                let delete = self.rng.gen_bool(0.4);
                let path = format!("/api/portfolios/{id}/transactions/{tx_id}");
                let date = self.date().to_string();
                let app = self.app();
                let r = if delete {
                    send(app, Method::DELETE, &path, Some(&token), None).await
                } else {
                    // Moved to another day (often the oldest's: the whole series changes).
                    tx["trade_date"] = json!(date);
                    let body = json!({"kind": tx["kind"], "trade_date": tx["trade_date"],
                        "instrument_id": tx["instrument_id"], "quantity": tx["quantity"],
                        "price": tx["price"], "fee": tx["fee"], "tax": tx["tax"],
                        "currency": tx["currency"], "fx_rate": tx["fx_rate"]});
                    send(app, Method::PUT, &path, Some(&token), Some(body)).await
                };
                let status = r.status().as_u16();
                assert!(status < 500, "{path}: {status} {}", r.text().await.unwrap());
                format!(
                    "{} {path} → {status}",
                    if delete { "delete" } else { "move" }
                )
            }
            7 | 8 => {
                // A stored close corrected (or filled in) on an old day.
                let all = [KRW_BUYS, USD_BUYS].concat();
                let instrument: moat_market::InstrumentId =
                    all[self.rng.gen_range(0..all.len())].parse().unwrap();
                let date = self.date();
                let close: Decimal = if instrument.to_string().starts_with("KRX") {
                    self.amount(40_000, 250_000).parse().unwrap()
                } else {
                    self.amount(40, 400).parse().unwrap()
                };
                let candle = DailyCandle {
                    date,
                    open: close,
                    high: close,
                    low: close,
                    close,
                    volume: 1,
                };
                self.kept
                    .state
                    .storage
                    .upsert_daily_candles(&instrument, &[candle], "csv")
                    .await
                    .unwrap();
                format!("close of {instrument} on {date} set to {close}")
            }
            9 => {
                let date = self.date();
                let rate: Decimal = self.amount(1_200, 1_500).parse().unwrap();
                self.kept
                    .state
                    .storage
                    .upsert_fx_rates(
                        &[FxRate {
                            date,
                            base: "USD".into(),
                            quote: "KRW".into(),
                            rate,
                        }],
                        "ecb",
                    )
                    .await
                    .unwrap();
                format!("USD/KRW on {date} set to {rate}")
            }
            _ => {
                // Days pass (the series kept are extended, not recomputed), never
                // closer than NEAREST_DAYS_AGO to the real present.
                let latest = SystemTime::now() - Duration::from_secs(NEAREST_DAYS_AGO * 86_400);
                let days = self.rng.gen_range(1..4u64);
                let next = self.clock.now() + Duration::from_secs(days * 86_400);
                if next <= latest {
                    self.clock.advance(Duration::from_secs(days * 86_400));
                }
                self.token = login_token(&self.kept, &self.email).await;
                format!("today is {}", today(&self.clock))
            }
        }
    }

    async fn read(&self, path: &str) -> Value {
        member_json(&self.kept, &self.token, path).await
    }

    /// Every figure read on both instances; they must agree.
    async fn compare(&self, step: usize, what: &str) {
        let mut paths = vec!["/api/portfolios".to_owned()];
        let scopes: Vec<String> = self
            .portfolios
            .iter()
            .map(|(id, _)| id.to_string())
            .chain(["meta".to_owned()])
            .collect();
        for scope in &scopes {
            for currency in ["", "?currency=USD"] {
                paths.push(format!("/api/portfolios/{scope}/performance{currency}"));
                paths.push(format!("/api/portfolios/{scope}/valuation{currency}"));
            }
        }
        for path in paths {
            let kept = settled(&path, member_json(&self.kept, &self.token, &path).await);
            let fresh = settled(&path, member_json(&self.fresh, &self.token, &path).await);
            assert_eq!(
                kept, fresh,
                "step {step} ({what}): {path} differs between the instance that keeps results and the one that does not"
            );
        }
    }
}

/// The figures of a reply that do not move with the live quotes: a performance reply
/// whole (its "today" is a past day), and of a valuation or the list, what comes from
/// the ledger (quantities, costs, realised gains, dividends, cash).
fn settled(path: &str, v: Value) -> Value {
    if path.contains("/performance") {
        return v;
    }
    let totals = |t: &Value| {
        json!([
            t["currency"],
            t["cost_basis"],
            t["realised_gain"],
            t["dividends_net"]
        ])
    };
    if path == "/api/portfolios" {
        return json!({
            "portfolios": v["portfolios"].as_array().unwrap().iter()
                .map(|p| json!([p["portfolio"]["id"], totals(&p["totals"]), p["ledger_issue"]]))
                .collect::<Vec<_>>(),
            "meta": totals(&v["meta"]),
        });
    }
    json!({
        "holdings": v["holdings"].as_array().unwrap().iter()
            .map(|h| json!([h["instrument"], h["quantity"], h["cost_basis"], h["average_cost"],
                h["realised_gain"], h["dividends_net"]]))
            .collect::<Vec<_>>(),
        "cash": v["cash"],
        "totals": totals(&v["totals"]),
        "ledger_issues": v["ledger_issues"],
    })
}

/// Daily USD/KRW rates over the whole span, as a deployment's catch-up stores them.
async fn store_rates(app: &TestApp, from: NaiveDate, to: NaiveDate) {
    let mut rates = Vec::new();
    let mut day = from;
    let mut n = 0i64;
    while day <= to {
        rates.push(FxRate {
            date: day,
            base: "USD".into(),
            quote: "KRW".into(),
            rate: Decimal::new(13_000 + (n * 37) % 900, 1),
        });
        day = day.succ_opt().unwrap();
        n += 1;
    }
    app.state
        .storage
        .upsert_fx_rates(&rates, "ecb")
        .await
        .unwrap();
}

/// The instance's cache lookups by outcome, from `GET /metrics`.
async fn lookups(app: &TestApp, kind: &str) -> [u64; 3] {
    let text = app.get("/metrics").await.text().await.unwrap();
    ["hit", "extended", "miss"].map(|outcome| {
        let prefix =
            format!("moat_portfolio_cache_lookups_total{{kind=\"{kind}\",outcome=\"{outcome}\"}} ");
        text.lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no {prefix} in {text}"))
            .parse()
            .unwrap()
    })
}

/// Two instances on `db` sharing a broker, a token key and a manual clock standing
/// [`START_DAYS_AGO`] in the past: the first keeps derived results, the second keeps
/// none (`derived_cache_mb = 0`).
async fn pair(db: &TestDatabase) -> (TestApp, TestApp, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at(
        SystemTime::now() - Duration::from_secs(START_DAYS_AGO * 86_400),
    ));
    let broker: Arc<dyn moat_server::broker::Broker> =
        Arc::new(moat_server::broker::LocalBroker::default());
    let config = |cache_mb: u64| {
        move |c: &mut moat_server::config::Config| {
            c.accounts.token_key = helpers::PAIR_TOKEN_KEY.into();
            c.portfolio.derived_cache_mb = cache_mb;
        }
    };
    let kept = TestApp::spawn_on(db.shared(), config(64), clock.clone(), broker.clone()).await;
    let fresh = TestApp::spawn_on(db.shared(), config(0), clock.clone(), broker).await;
    (kept, fresh, clock)
}

#[tokio::test]
async fn kept_results_equal_fresh_ones_over_random_ledgers_edits_and_days() {
    for (n, db) in TestDatabase::all().await.into_iter().enumerate() {
        let (kept, fresh, clock) = pair(&db).await;
        let start = today(&clock) - Days::new(START_DAYS_AGO + SPAN_DAYS + 30);
        store_rates(&kept, start, chrono::Utc::now().date_naive()).await;
        let email = format!("cache{n}@moat.example");
        let token = signup(&kept, &email, "cache").await;
        let mut portfolios = Vec::new();
        for (name, base) in [("원화", "KRW"), ("달러", "USD")] {
            portfolios.push((create_portfolio(&kept, &token, name, base).await, base));
        }
        let mut run = Run {
            kept,
            fresh,
            clock,
            email,
            token,
            portfolios,
            rng: StdRng::seed_from_u64(2026 + n as u64),
        };
        // A first ledger in each, so that most steps change something held.
        for (id, base) in run.portfolios.clone() {
            for _ in 0..6 {
                let tx = run.transaction(base);
                let r = add_transaction(&run.kept, &run.token, id, &tx).await;
                assert!(r.status().as_u16() < 500);
            }
        }
        run.compare(0, "the first ledgers").await;
        for step in 1..=STEPS {
            let what = run.step().await;
            run.compare(step, &what).await;
        }
        // The keeping instance did keep, carry on and recompute; the other kept nothing.
        let [hits, extended, misses] = lookups(&run.kept, "series").await;
        assert!(
            hits > 0 && misses > 0,
            "series lookups {hits}/{extended}/{misses}"
        );
        let [ledger_hits, _, _] = lookups(&run.kept, "ledger").await;
        assert!(ledger_hits > 0);
        let text = run.fresh.get("/metrics").await.text().await.unwrap();
        assert!(
            text.contains("moat_portfolio_cache_entries 0"),
            "the instance without a cache keeps nothing: {text}"
        );
    }
}

/// Days passing extend a kept series rather than recompute it, and the result is the
/// one computed afresh.
#[tokio::test]
async fn a_new_day_extends_a_kept_series() {
    let db = TestDatabase::sqlite();
    let (kept, fresh, clock) = pair(&db).await;
    let token = signup(&kept, "days@moat.example", "days").await;
    let id = create_portfolio(&kept, &token, "원화", "KRW").await;
    let first = (today(&clock) - Days::new(200)).to_string();
    for tx in [
        json!({"kind": "deposit", "trade_date": first, "quantity": "1", "price": "10000000", "currency": "KRW"}),
        json!({"kind": "buy", "trade_date": first, "instrument_id": "KRX:005930", "quantity": "20", "price": "70000", "currency": "KRW"}),
    ] {
        assert_eq!(add_transaction(&kept, &token, id, &tx).await.status(), 201);
    }
    let path = format!("/api/portfolios/{id}/performance");
    let before = member_json(&kept, &token, &path).await;
    assert_eq!(lookups(&kept, "series").await, [0, 0, 1]);
    clock.advance(Duration::from_secs(3 * 86_400));
    let token = login_token(&kept, "days@moat.example").await;
    let after = member_json(&kept, &token, &path).await;
    assert_eq!(
        lookups(&kept, "series").await,
        [0, 1, 1],
        "three days later the kept series is carried on, not recomputed"
    );
    let points = |v: &Value| v["points"].as_array().unwrap().len();
    assert_eq!(
        points(&after),
        points(&before) + 3,
        "three more daily points"
    );
    assert_eq!(
        after,
        member_json(&fresh, &token, &path).await,
        "the same as computed afresh"
    );
    // Read again the same day: kept as it is, the finished reply too.
    assert_eq!(after, member_json(&kept, &token, &path).await);
    assert_eq!(lookups(&kept, "series").await, [1, 1, 1]);
    assert_eq!(
        lookups(&kept, "reply").await,
        [1, 0, 2],
        "a new day is a new reply; the same day's is kept"
    );
}

/// A performance reply is kept whole (with its compressed copies) and sent again while
/// what it is made from is the same; an edit or another currency makes a new one, and
/// it is the member's own.
#[tokio::test]
async fn a_kept_performance_reply_is_sent_until_what_it_is_made_from_changes() {
    use std::io::Read;
    let db = TestDatabase::sqlite();
    let (kept, fresh, clock) = pair(&db).await;
    let token = signup(&kept, "reply@moat.example", "reply").await;
    let id = create_portfolio(&kept, &token, "원화", "KRW").await;
    let first = today(&clock) - Days::new(300);
    store_rates(
        &kept,
        first - Days::new(30),
        chrono::Utc::now().date_naive(),
    )
    .await;
    let first = first.to_string();
    let add = |tx: Value| {
        let (kept, token) = (&kept, &token);
        async move {
            assert_eq!(add_transaction(kept, token, id, &tx).await.status(), 201);
        }
    };
    add(json!({"kind": "deposit", "trade_date": first, "quantity": "1", "price": "10000000", "currency": "KRW"})).await;
    add(json!({"kind": "buy", "trade_date": first, "instrument_id": "KRX:005930", "quantity": "20", "price": "70000", "currency": "KRW"})).await;
    let path = format!("/api/portfolios/{id}/performance");
    let made = member_json(&kept, &token, &path).await;
    assert_eq!(lookups(&kept, "reply").await, [0, 0, 1]);
    // Sent again, in each coding the client accepts, decoding to the same JSON.
    let raw = |encoding: &'static str| {
        let (kept, token, path) = (&kept, &token, &path);
        async move {
            let r = kept
                .raw_client
                .get(kept.url(path))
                .bearer_auth(token)
                .header("accept-encoding", encoding)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            let coding = r
                .headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap().to_owned());
            assert_eq!(r.headers()["vary"], "Accept-Encoding");
            let bytes = r.bytes().await.unwrap();
            let mut text = Vec::new();
            match coding.as_deref() {
                Some("gzip") => {
                    flate2::read::GzDecoder::new(&bytes[..])
                        .read_to_end(&mut text)
                        .unwrap();
                }
                Some("br") => brotli::BrotliDecompress(&mut &bytes[..], &mut text).unwrap(),
                None => text = bytes.to_vec(),
                Some(other) => panic!("unexpected coding {other}"),
            }
            (coding, serde_json::from_slice::<Value>(&text).unwrap())
        }
    };
    assert_eq!(raw("gzip").await, (Some("gzip".to_owned()), made.clone()));
    assert_eq!(raw("br, gzip").await, (Some("br".to_owned()), made.clone()));
    assert_eq!(raw("identity").await, (None, made.clone()));
    // Another spelling of the id is the same reply.
    assert_eq!(
        member_json(
            &kept,
            &token,
            &format!("/api/portfolios/00{id}/performance")
        )
        .await,
        made
    );
    assert_eq!(lookups(&kept, "reply").await, [4, 0, 1]);
    // Another member asking for the portfolio is refused, kept reply or not.
    let other = signup(&kept, "other-reply@moat.example", "other").await;
    let r = send(&kept, Method::GET, &path, Some(&other), None).await;
    assert_eq!(r.status(), 404);
    // Another currency is another reply.
    let usd = member_json(&kept, &token, &format!("{path}?currency=USD")).await;
    assert_eq!(usd["currency"], "USD");
    assert_eq!(lookups(&kept, "reply").await, [4, 0, 2]);
    // An edit makes a new one, the same as computed afresh.
    add(json!({"kind": "buy", "trade_date": first, "instrument_id": "KRX:005930", "quantity": "10", "price": "70000", "currency": "KRW"})).await;
    let edited = member_json(&kept, &token, &path).await;
    assert_eq!(lookups(&kept, "reply").await, [4, 0, 3]);
    assert_ne!(edited, made, "the new buy shows");
    assert_eq!(edited, member_json(&fresh, &token, &path).await);
}
