//! Market data over real HTTP and a real WebSocket (docs/market.md): search,
//! instruments, quotes, candles, FX, the home overview, favourites, the operator's
//! provider view, the live stream, and a real provider that fails.
//!
//! The default providers are the simulator, which is deterministic: answers are
//! compared with a `Simulator::default()` computed here for the same instrument and
//! moment. Tests that touch storage run on SQLite and, with `MOAT_TEST_POSTGRES_URL`,
//! PostgreSQL, each with fresh databases.

mod helpers;

use std::{collections::HashSet, sync::OnceLock, time::Duration};

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use futures_util::{SinkExt, StreamExt};
use helpers::{
    assert_error, has_field_error, send, signup,
    ws::{connect, next_json, send_json, stream_url, Socket},
    yahoo::FakeYahoo,
    TestApp, PASSWORD,
};
use moat_market::{
    calendar, catalog, simulator::Simulator, ticks, Bar, DailyCandle, Instrument, Kind, Quote,
    QuoteState,
};
use moat_storage::testing::TestDatabase;
use reqwest::{Method, Response};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, Message as Frame};

/// The longest a test waits for something the server does in the background.
const PATIENCE: Duration = Duration::from_secs(10);
/// Between two looks at something the server does in the background.
const POLL: Duration = Duration::from_millis(50);

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

async fn spawn(db: TestDatabase) -> TestApp {
    spawn_with(db, |_| {}).await
}

async fn spawn_with(db: TestDatabase, tweak: impl FnOnce(&mut moat_server::Config)) -> TestApp {
    TestApp::spawn_with(db, |c| {
        c.accounts.signups_per_ip_per_hour = 1000;
        tweak(c);
    })
    .await
}

/// GETs a path that must answer 200 with JSON.
async fn get_json(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    let status = r.status();
    let body = r.text().await.unwrap();
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap()
}

async fn user_id(app: &TestApp, token: &str) -> i64 {
    let me: Value = send(app, Method::GET, "/api/me", Some(token), None)
        .await
        .json()
        .await
        .unwrap();
    me["user_id"].as_i64().expect("a user id")
}

async fn get_favorites(app: &TestApp, token: &str) -> Vec<String> {
    let r = send(app, Method::GET, "/api/me/favorites", Some(token), None).await;
    assert_eq!(r.status(), 200);
    ids_of(&r.json::<Value>().await.unwrap())
}

async fn put_favorites(app: &TestApp, token: &str, ids: Value) -> Response {
    send(
        app,
        Method::PUT,
        "/api/me/favorites",
        Some(token),
        Some(json!({ "ids": ids })),
    )
    .await
}

/// The `id`s of a JSON array of instruments, in order.
fn ids_of(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|i| i["id"].as_str().expect("an id").to_owned())
        .collect()
}

fn curated() -> &'static [Instrument] {
    static CURATED: OnceLock<Vec<Instrument>> = OnceLock::new();
    CURATED.get_or_init(catalog::curated)
}

fn instrument(id: &str) -> &'static Instrument {
    curated()
        .iter()
        .find(|i| i.id.to_string() == id)
        .unwrap_or_else(|| panic!("{id} is in the curated list"))
}

fn sim() -> &'static Simulator {
    static SIM: OnceLock<Simulator> = OnceLock::new();
    SIM.get_or_init(Simulator::default)
}

/// A price as the API must send it: a plain decimal string (no float, no exponent).
fn decimal(v: &Value, what: &str) -> Decimal {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("{what} is a string: {v}"));
    assert!(
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '-'),
        "{what} is a plain decimal string: {s:?}"
    );
    s.parse()
        .unwrap_or_else(|_| panic!("{what} parses as a decimal: {s:?}"))
}

fn state_name(state: QuoteState) -> &'static str {
    match state {
        QuoteState::Live => "live",
        QuoteState::Delayed => "delayed",
        QuoteState::Stale => "stale",
        QuoteState::Closed => "closed",
    }
}

/// Moments from `before` to `after`, close enough together that the simulator's
/// answer at the moment the server computed lies among the answers at these.
fn moments(before: DateTime<Utc>, after: DateTime<Utc>) -> Vec<DateTime<Utc>> {
    let mut out = vec![before];
    let mut t = before;
    while t < after {
        t = (t + chrono::Duration::milliseconds(500)).min(after);
        out.push(t);
    }
    out
}

/// Whether a quote from the API is the simulator's quote `q`.
fn is_quote(dto: &Value, q: &Quote) -> bool {
    dto["instrument_id"] == q.instrument_id.to_string()
        && dto["price"] == q.price.to_string()
        && dto["previous_close"] == q.previous_close.to_string()
        && dto["open"] == q.open.to_string()
        && dto["high"] == q.high.to_string()
        && dto["low"] == q.low.to_string()
        && dto["volume"] == q.volume
        && dto["state"] == state_name(q.state)
        && dto["source"] == "simulator"
}

/// Asserts a quote from the API is the simulator's at some moment of the request.
fn assert_simulated_quote(
    dto: &Value,
    inst: &Instrument,
    before: DateTime<Utc>,
    after: DateTime<Utc>,
) {
    let candidates: Vec<Quote> = moments(before, after)
        .into_iter()
        .map(|t| sim().quote_at(inst, t))
        .collect();
    assert!(
        candidates.iter().any(|q| is_quote(dto, q)),
        "{} quote {dto} is the simulator's between {before} and {after}: {:?}",
        inst.id,
        candidates.first()
    );
}

/// The last session of `market` that has closed by `now`.
fn last_finished_session(market: moat_market::Market, now: DateTime<Utc>) -> NaiveDate {
    let today = calendar::local_date(market, now);
    match calendar::session(market, today) {
        Some(s) if s.close <= now => today,
        _ => calendar::previous_trading_day(market, today),
    }
}

/// Daily candles in `from..=to` as documented: the finished sessions, plus the
/// session under way so far (its candle agrees with the live quote).
fn expected_daily(
    inst: &Instrument,
    from: NaiveDate,
    to: NaiveDate,
    now: DateTime<Utc>,
) -> Vec<DailyCandle> {
    let market = inst.market();
    let finished = last_finished_session(market, now);
    let mut days = sim().daily(inst, from, to.min(finished));
    let q = sim().quote_at(inst, now);
    let date = calendar::local_date(market, q.as_of);
    if q.state == QuoteState::Live && date >= from && date <= to && date > finished {
        days.push(DailyCandle {
            date,
            open: q.open,
            high: q.high,
            low: q.low,
            close: q.price,
            volume: q.volume,
        });
    }
    days
}

fn midnight(date: NaiveDate) -> i64 {
    date.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp()
}

fn daily_json(c: &DailyCandle) -> Value {
    json!({"t": midnight(c.date), "o": c.open.to_string(), "h": c.high.to_string(),
           "l": c.low.to_string(), "c": c.close.to_string(), "v": c.volume})
}

fn bar_json(b: &Bar) -> Value {
    json!({"t": b.start.timestamp(), "o": b.open.to_string(), "h": b.high.to_string(),
           "l": b.low.to_string(), "c": b.close.to_string(), "v": b.volume})
}

/// Merges candles (JSON, oldest first) whose `key` is equal and adjacent: first open,
/// highest high, lowest low, last close, summed volume.
fn merge_by<K: PartialEq>(candles: Vec<Value>, key: impl Fn(&Value) -> K) -> Vec<Value> {
    let mut out: Vec<(K, Value)> = Vec::new();
    for c in candles {
        let k = key(&c);
        match out.last_mut() {
            Some((last_key, last)) if *last_key == k => {
                let d = |v: &Value| v.as_str().unwrap().parse::<Decimal>().unwrap();
                last["h"] = d(&last["h"]).max(d(&c["h"])).to_string().into();
                last["l"] = d(&last["l"]).min(d(&c["l"])).to_string().into();
                last["c"] = c["c"].clone();
                last["v"] = (last["v"].as_i64().unwrap() + c["v"].as_i64().unwrap()).into();
            }
            _ => out.push((k, c)),
        }
    }
    out.into_iter().map(|(_, c)| c).collect()
}

/// GETs a chart and returns it with the moments just before and after the request.
async fn candles(app: &TestApp, id: &str, range: &str) -> (Value, DateTime<Utc>, DateTime<Utc>) {
    let before = Utc::now();
    let body = get_json(app, &format!("/api/instruments/{id}/candles?range={range}")).await;
    (body, before, Utc::now())
}

/// Asserts the chart's candles are what `expected` gives at some moment of the request.
fn assert_candles_at_some_moment(
    body: &Value,
    before: DateTime<Utc>,
    after: DateTime<Utc>,
    expected: impl Fn(DateTime<Utc>) -> Vec<Value>,
) {
    let got = body["candles"].as_array().unwrap();
    let candidates: Vec<Vec<Value>> = moments(before, after).into_iter().map(expected).collect();
    assert!(
        candidates.iter().any(|want| want == got),
        "{} {}: {} candles, the simulator's: {:?}\nfirst got {:?}\nfirst want {:?}\nlast got {:?}\nlast want {:?}",
        body["instrument_id"],
        body["range"],
        got.len(),
        candidates.iter().map(Vec::len).collect::<Vec<_>>(),
        got.first(),
        candidates[0].first(),
        got.last(),
        candidates[0].last(),
    );
}

// ---------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------

async fn search(app: &TestApp, query: &str) -> Vec<String> {
    let url = reqwest::Url::parse_with_params(&app.url("/api/instruments/search"), [("q", query)])
        .unwrap();
    let r = app.client.get(url).send().await.unwrap();
    assert_eq!(r.status(), 200, "search {query:?}");
    ids_of(&r.json().await.unwrap())
}

#[tokio::test]
async fn search_finds_tickers_names_initial_consonants_and_aliases_best_first() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let cases = [
            (
                "ㅅㅅㅈㅈ",
                "KRX:005930",
                "Korean initial consonants of 삼성전자",
            ),
            ("삼전", "KRX:005930", "the alias 삼전"),
            ("삼성전자", "KRX:005930", "the Korean name"),
            ("AAPL", "NASDAQ:AAPL", "the exact ticker"),
            ("aapl", "NASDAQ:AAPL", "the ticker in lower case"),
            ("apple", "NASDAQ:AAPL", "the English name"),
            ("005930", "KRX:005930", "a Korean ticker"),
            ("비트코인", "CRYPTO:BTC", "a Korean crypto name"),
        ];
        for (query, first, why) in cases {
            let hits = search(&app, query).await;
            assert_eq!(
                hits.first().map(String::as_str),
                Some(first),
                "{why} ({query:?} on {backend:?}): {hits:?}"
            );
            assert_eq!(
                hits.iter().collect::<HashSet<_>>().len(),
                hits.len(),
                "no instrument twice for {query:?}"
            );
        }
    }
}

#[tokio::test]
async fn search_results_are_instruments_labelled_simulated() {
    let app = spawn(TestDatabase::sqlite()).await;
    let hits = get_json(&app, "/api/instruments/search?q=%EC%82%BC%EC%84%B1").await;
    let hits = hits.as_array().unwrap();
    assert!(hits.len() > 1, "삼성 finds several: {hits:?}");
    assert!(hits.len() <= 20, "twenty at most by default");
    for hit in hits {
        assert_eq!(hit["simulated"], true, "{hit}");
    }
    let samsung = hits.iter().find(|h| h["id"] == "KRX:005930").unwrap();
    assert_eq!(
        samsung,
        &json!({"id": "KRX:005930", "ticker": "005930", "exchange": "KRX", "board": "KOSPI",
                "kind": "stock", "currency": "KRW", "country": "KR", "name_ko": "삼성전자",
                "name_en": "Samsung Electronics", "sector": "Information Technology",
                "shares_outstanding": 5919637922_i64, "simulated": true})
    );
}

#[tokio::test]
async fn an_empty_search_finds_nothing_and_the_limit_caps_the_results() {
    let app = spawn(TestDatabase::sqlite()).await;
    for (path, why) in [
        ("/api/instruments/search", "no q"),
        ("/api/instruments/search?q=", "empty q"),
        ("/api/instruments/search?q=%20%20", "blank q"),
    ] {
        assert_eq!(get_json(&app, path).await, json!([]), "{why}");
    }
    let one = get_json(&app, "/api/instruments/search?q=a&limit=1").await;
    assert_eq!(one.as_array().unwrap().len(), 1, "limit=1");
    let fifty = get_json(&app, "/api/instruments/search?q=a&limit=50").await;
    assert!(
        fifty.as_array().unwrap().len() > 20,
        "limit=50 lifts the default of 20"
    );
    assert!(fifty.as_array().unwrap().len() <= 50);
}

#[tokio::test]
async fn a_search_over_64_characters_is_refused_naming_q() {
    let app = spawn(TestDatabase::sqlite()).await;
    for (query, ok, why) in [
        ("가".repeat(64), true, "64 Korean characters are fine"),
        ("a".repeat(64), true, "64 Latin characters are fine"),
        ("가".repeat(65), false, "65 Korean characters are too many"),
        ("a".repeat(65), false, "65 Latin characters are too many"),
    ] {
        let url =
            reqwest::Url::parse_with_params(&app.url("/api/instruments/search"), [("q", &query)])
                .unwrap();
        let r = app.client.get(url).send().await.unwrap();
        if ok {
            assert_eq!(r.status(), 200, "{why}");
        } else {
            let e = assert_error(r, 400, "invalid_parameter").await;
            assert!(has_field_error(&e, "q"), "{why}: {e}");
        }
    }
}

#[tokio::test]
async fn search_limits_outside_one_to_fifty_are_refused_with_the_error_shape() {
    let app = spawn(TestDatabase::sqlite()).await;
    let cases = [
        ("0", "zero results make no sense"),
        ("51", "more than fifty"),
        ("-1", "negative"),
        ("ten", "not a number"),
        ("1.5", "not a whole number"),
    ];
    for (limit, why) in cases {
        let r = app
            .get(&format!("/api/instruments/search?q=a&limit={limit}"))
            .await;
        let e = assert_error(r, 400, "invalid_parameter").await;
        assert!(has_field_error(&e, "limit"), "{why} (limit={limit}): {e}");
    }
}

// ---------------------------------------------------------------------------------
// Instruments and quotes
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn an_instrument_reads_the_same_with_a_plain_or_an_encoded_colon() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let before = Utc::now();
        let plain = get_json(&app, "/api/instruments/KRX:005930").await;
        let encoded = get_json(&app, "/api/instruments/KRX%3A005930").await;
        let lower = get_json(&app, "/api/instruments/krx%3a005930").await;
        let after = Utc::now();
        let without_prices = |v: &Value| {
            let mut v = v.clone();
            let o = v.as_object_mut().unwrap();
            o.remove("quote");
            o.remove("stats");
            v
        };
        assert_eq!(without_prices(&plain), without_prices(&encoded));
        assert_eq!(
            without_prices(&plain),
            without_prices(&lower),
            "exchanges are case-insensitive"
        );
        assert_eq!(plain["id"], "KRX:005930");
        assert_eq!(plain["name_ko"], "삼성전자");
        assert_eq!(plain["simulated"], true);
        let samsung = instrument("KRX:005930");
        for body in [&plain, &encoded, &lower] {
            assert_simulated_quote(&body["quote"], samsung, before, after);
        }
    }
}

#[tokio::test]
async fn unknown_instruments_are_not_found_and_malformed_ids_name_id() {
    let app = spawn(TestDatabase::sqlite()).await;
    for suffix in ["", "/quote", "/candles?range=1M"] {
        let r = app
            .get(&format!("/api/instruments/KRX:999999{suffix}"))
            .await;
        assert_error(r, 404, "not_found").await;
        let r = app
            .get(&format!("/api/instruments/NYSE:NOPE{suffix}"))
            .await;
        assert_error(r, 404, "not_found").await;
        let malformed = [
            ("005930", "no exchange"),
            ("LSE:VOD", "an exchange Moat does not know"),
            ("KRX:%3Cscript%3E", "markup in the symbol"),
            ("KRX:", "no symbol"),
            ("KRX:ABCDEFGHIJKLMNOPQRSTU", "a symbol over 20 characters"),
            ("KRX:005930:1", "two colons"),
        ];
        for (id, why) in malformed {
            let r = app.get(&format!("/api/instruments/{id}{suffix}")).await;
            let e = assert_error(r, 400, "invalid_parameter").await;
            assert!(has_field_error(&e, "id"), "{why} ({id}{suffix}): {e}");
            assert!(
                !e.to_string().contains("<script>"),
                "the input is not echoed as markup: {e}"
            );
        }
    }
}

#[tokio::test]
async fn instrument_detail_carries_the_quote_and_key_figures() {
    let app = spawn(TestDatabase::sqlite()).await;
    for id in ["KRX:005930", "NASDAQ:AAPL", "INDEX:KOSPI", "CRYPTO:BTC"] {
        let inst = instrument(id);
        let before = Utc::now();
        let body = get_json(&app, &format!("/api/instruments/{id}")).await;
        let after = Utc::now();
        let quote = &body["quote"];
        assert_simulated_quote(quote, inst, before, after);
        let stats = &body["stats"];
        for (stat, field) in [
            ("previous_close", "previous_close"),
            ("open", "open"),
            ("day_high", "high"),
            ("day_low", "low"),
            ("volume", "volume"),
        ] {
            assert_eq!(stats[stat], quote[field], "{id}: stats.{stat}");
        }
        let price = decimal(&quote["price"], "price");
        match inst.kind {
            Kind::Stock => {
                let shares = Decimal::from(inst.shares_outstanding.unwrap());
                assert_eq!(
                    decimal(&stats["market_cap"], "market_cap"),
                    (price * shares).round(),
                    "{id}: market cap = price × shares"
                );
            }
            _ => assert!(stats["market_cap"].is_null(), "{id}: no market cap"),
        }
        // The trailing year's simulated dividends over the price, in per cent.
        match inst.kind {
            Kind::Stock | Kind::Etf => {
                let today = before.date_naive();
                let paid: Decimal = sim()
                    .dividends(inst, today - chrono::Duration::days(365), today)
                    .iter()
                    .map(|d| d.amount)
                    .sum();
                assert_eq!(
                    decimal(&stats["dividend_yield"], "dividend_yield"),
                    (paid * Decimal::ONE_HUNDRED / price).round_dp(2),
                    "{id}: dividend yield"
                );
            }
            _ => assert!(stats["dividend_yield"].is_null(), "{id}: no dividends"),
        }
        // The 52-week range: the last 365 days of candles, today so far included.
        let today = before.date_naive();
        let year = |t| expected_daily(inst, today - chrono::Duration::days(365), today, t);
        let ranges: Vec<(String, String)> = moments(before, after)
            .into_iter()
            .map(|t| {
                let days = year(t);
                (
                    days.iter().map(|c| c.high).max().unwrap().to_string(),
                    days.iter().map(|c| c.low).min().unwrap().to_string(),
                )
            })
            .collect();
        let got = (
            stats["week52_high"].as_str().unwrap().to_owned(),
            stats["week52_low"].as_str().unwrap().to_owned(),
        );
        assert!(
            ranges.contains(&got),
            "{id}: 52 weeks {got:?}, want {ranges:?}"
        );
        let (high, low) = (
            decimal(&stats["week52_high"], "high"),
            decimal(&stats["week52_low"], "low"),
        );
        assert!(
            low <= price && price <= high,
            "{id}: {low} ≤ {price} ≤ {high}"
        );
    }
}

#[tokio::test]
async fn quotes_are_decimal_strings_that_agree_with_the_calendar_and_the_tick_grid() {
    let app = spawn(TestDatabase::sqlite()).await;
    let krx: Vec<&Instrument> = curated()
        .iter()
        .filter(|i| i.id.exchange() == moat_market::Exchange::Krx)
        .take(12)
        .collect();
    let others = [
        "NASDAQ:AAPL",
        "NYSE:BRK.B",
        "INDEX:SPX",
        "FX:USDKRW",
        "CRYPTO:BTC",
    ]
    .map(instrument);
    for inst in krx.iter().copied().chain(others) {
        let id = inst.id.to_string();
        let before = Utc::now();
        let q = get_json(&app, &format!("/api/instruments/{id}/quote")).await;
        let after = Utc::now();
        assert_simulated_quote(&q, inst, before, after);
        assert_eq!(q["instrument_id"], id.as_str());
        assert_eq!(q["simulated"], true, "{id}");
        let price = decimal(&q["price"], "price");
        let previous = decimal(&q["previous_close"], "previous_close");
        for field in ["open", "high", "low"] {
            decimal(&q[field], field);
        }
        assert!(q["volume"].is_i64(), "{id}: volume is an integer");
        assert_eq!(
            decimal(&q["change"], "change"),
            price - previous,
            "{id}: change = price − previous close"
        );
        let percent = q["change_percent"].as_str().unwrap();
        assert_eq!(
            percent.split_once('.').map(|(_, d)| d.len()),
            Some(2),
            "{id}: change_percent has two decimals: {percent}"
        );
        let exact = (price - previous) * Decimal::ONE_HUNDRED / previous;
        assert!(
            (decimal(&q["change_percent"], "change_percent") - exact).abs() <= Decimal::new(5, 3),
            "{id}: {percent} rounds {exact}"
        );
        let open_now = |t| calendar::status(inst.market(), t).is_open();
        if open_now(before) == open_now(after) {
            let want = if open_now(before) { "live" } else { "closed" };
            assert_eq!(q["state"], want, "{id} at {before}");
        }
        DateTime::parse_from_rfc3339(q["as_of"].as_str().unwrap()).expect("as_of is RFC 3339");
        if inst.id.exchange() == moat_market::Exchange::Krx {
            for field in ["price", "previous_close", "open", "high", "low"] {
                let p = decimal(&q[field], field);
                assert!(
                    ticks::is_on_tick(inst, p),
                    "{id}: {field} {p} on the KRX tick grid"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Candles
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn every_chart_range_has_its_documented_interval() {
    let app = spawn(TestDatabase::sqlite()).await;
    let ranges = [
        ("1D", "5m"),
        ("1W", "30m"),
        ("1M", "1d"),
        ("3M", "1d"),
        ("1Y", "1d"),
        ("5Y", "1w"),
    ];
    for id in ["KRX:005930", "NASDAQ:AAPL", "CRYPTO:BTC"] {
        for (range, interval) in ranges {
            let (body, _, _) = candles(&app, id, range).await;
            assert_eq!(body["instrument_id"], id);
            assert_eq!(body["range"], range);
            assert_eq!(body["interval"], interval, "{id} {range}");
            let list = body["candles"].as_array().unwrap();
            assert!(!list.is_empty(), "{id} {range} has candles");
            let times: Vec<i64> = list.iter().map(|c| c["t"].as_i64().unwrap()).collect();
            assert!(
                times.windows(2).all(|w| w[0] < w[1]),
                "{id} {range}: oldest first, no repeats"
            );
            for c in list {
                let (o, h, l, cl) = (
                    decimal(&c["o"], "o"),
                    decimal(&c["h"], "h"),
                    decimal(&c["l"], "l"),
                    decimal(&c["c"], "c"),
                );
                assert!(l <= o.min(cl) && o.max(cl) <= h, "{id} {range}: {c}");
                assert!(c["v"].as_i64().is_some_and(|v| v >= 0), "{id} {range}: {c}");
            }
        }
    }
}

#[tokio::test]
async fn an_unknown_chart_range_is_refused_naming_range() {
    let app = spawn(TestDatabase::sqlite()).await;
    for (range, why) in [
        ("2D", "not a range"),
        ("1d", "ranges are upper-case"),
        ("", "empty"),
        ("5Y%20", "trailing space"),
    ] {
        let r = app
            .get(&format!(
                "/api/instruments/KRX:005930/candles?range={range}"
            ))
            .await;
        let e = assert_error(r, 400, "invalid_parameter").await;
        assert!(has_field_error(&e, "range"), "{why}: {e}");
    }
}

#[tokio::test]
async fn one_day_bars_are_five_minutes_apart_within_the_latest_session() {
    let app = spawn(TestDatabase::sqlite()).await;
    for id in ["KRX:005930", "NASDAQ:AAPL", "CRYPTO:BTC"] {
        let inst = instrument(id);
        let (body, before, after) = candles(&app, id, "1D").await;
        let date = calendar::latest_session_date(inst.market(), before);
        let session = calendar::session(inst.market(), date).unwrap();
        let times: Vec<i64> = body["candles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["t"].as_i64().unwrap())
            .collect();
        assert_eq!(times[0], session.open.timestamp(), "{id}: from the open");
        assert!(
            times.windows(2).all(|w| w[1] - w[0] == 300),
            "{id}: five minutes apart"
        );
        assert!(
            *times.last().unwrap() < session.close.timestamp(),
            "{id}: within the session"
        );
        assert_candles_at_some_moment(&body, before, after, |t| {
            let date = calendar::latest_session_date(inst.market(), t);
            sim().bars(inst, date, t).iter().map(bar_json).collect()
        });
    }
}

#[tokio::test]
async fn one_week_is_thirty_minute_bars_of_the_last_five_sessions() {
    let app = spawn(TestDatabase::sqlite()).await;
    for id in ["KRX:005930", "NASDAQ:AAPL"] {
        let inst = instrument(id);
        let market = inst.market();
        let (body, before, after) = candles(&app, id, "1W").await;
        let list = body["candles"].as_array().unwrap();
        let dates: Vec<NaiveDate> = list
            .iter()
            .map(|c| {
                let t = DateTime::from_timestamp(c["t"].as_i64().unwrap(), 0).unwrap();
                assert_eq!(t.timestamp() % 1800, 0, "{id}: on the half hour");
                calendar::local_date(market, t)
            })
            .collect();
        let mut sessions: Vec<NaiveDate> = dates.clone();
        sessions.dedup();
        assert_eq!(sessions.len(), 5, "{id}: five sessions: {sessions:?}");
        assert_eq!(
            *sessions.last().unwrap(),
            calendar::latest_session_date(market, before)
        );
        assert_candles_at_some_moment(&body, before, after, |t| {
            let mut days = vec![calendar::latest_session_date(market, t)];
            while days.len() < 5 {
                let before = calendar::previous_trading_day(market, *days.last().unwrap());
                days.push(before);
            }
            let bars: Vec<Value> = days
                .iter()
                .rev()
                .flat_map(|d| sim().bars(inst, *d, t))
                .map(|b| bar_json(&b))
                .collect();
            merge_by(bars, |c| c["t"].as_i64().unwrap().div_euclid(1800))
        });
    }
}

#[tokio::test]
async fn daily_candles_are_the_simulators_and_a_running_session_shows_the_day_so_far() {
    let app = spawn(TestDatabase::sqlite()).await;
    // Crypto trades around the clock, so its chart always ends in a session under way.
    for id in ["KRX:005930", "NASDAQ:AAPL", "CRYPTO:BTC"] {
        let inst = instrument(id);
        for (range, days) in [("1M", 31), ("3M", 92), ("1Y", 366)] {
            let (body, before, after) = candles(&app, id, range).await;
            assert_candles_at_some_moment(&body, before, after, |t| {
                let today = calendar::local_date(inst.market(), t);
                let from = today - chrono::Duration::days(days);
                expected_daily(inst, from, today, t)
                    .iter()
                    .map(daily_json)
                    .collect()
            });
        }
    }
    // The last crypto candle is today's so far: its close is the quote's price.
    let before = Utc::now();
    let (body, _, _) = candles(&app, "CRYPTO:BTC", "1M").await;
    let after = Utc::now();
    let last = body["candles"].as_array().unwrap().last().unwrap().clone();
    let today = midnight(before.date_naive());
    if today == midnight(after.date_naive()) {
        assert_eq!(last["t"], today, "today's candle is there");
        let closes: Vec<String> = moments(before, after)
            .into_iter()
            .map(|t| {
                sim()
                    .quote_at(instrument("CRYPTO:BTC"), t)
                    .price
                    .to_string()
            })
            .collect();
        assert!(
            closes.iter().any(|c| last["c"] == c.as_str()),
            "today's close {} is the live price {closes:?}",
            last["c"]
        );
    }
}

#[tokio::test]
async fn five_year_candles_are_weeks_aggregated_from_the_days() {
    let app = spawn(TestDatabase::sqlite()).await;
    for id in ["KRX:005930", "INDEX:SPX"] {
        let inst = instrument(id);
        let (body, before, after) = candles(&app, id, "5Y").await;
        let list = body["candles"].as_array().unwrap();
        assert!(
            (255..=265).contains(&list.len()),
            "{id}: about 261 weeks in five years: {}",
            list.len()
        );
        let week_of = |c: &Value| {
            let d = DateTime::from_timestamp(c["t"].as_i64().unwrap(), 0)
                .unwrap()
                .date_naive();
            (d.iso_week().year(), d.iso_week().week())
        };
        let weeks: Vec<_> = list.iter().map(week_of).collect();
        assert_eq!(
            weeks.iter().collect::<HashSet<_>>().len(),
            weeks.len(),
            "{id}: one candle per week"
        );
        // Each week's high is at least every one of its days' highs (and is one of them).
        let first = DateTime::from_timestamp(list[0]["t"].as_i64().unwrap(), 0)
            .unwrap()
            .date_naive();
        let days = expected_daily(
            inst,
            first,
            calendar::local_date(inst.market(), before),
            before,
        );
        for week in list {
            let k = week_of(week);
            let highs: Vec<Decimal> = days
                .iter()
                .filter(|d| (d.date.iso_week().year(), d.date.iso_week().week()) == k)
                .map(|d| d.high)
                .collect();
            let high = decimal(&week["h"], "h");
            assert!(!highs.is_empty(), "{id}: week {k:?} has days");
            assert!(highs.iter().all(|h| *h <= high), "{id}: week {k:?}");
            assert!(highs.contains(&high), "{id}: week {k:?} high is a day's");
        }
        assert_candles_at_some_moment(&body, before, after, |t| {
            let today = calendar::local_date(inst.market(), t);
            let days = expected_daily(inst, today - chrono::Duration::days(5 * 366), today, t);
            merge_by(days.iter().map(daily_json).collect(), week_of)
        });
    }
}

// ---------------------------------------------------------------------------------
// FX
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn fx_rates_appear_once_the_history_is_written() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |c| c.market.backfill_years = 1).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let body = loop {
            let body = get_json(&app, "/api/fx/USDKRW").await;
            if !body["rates"].as_array().unwrap().is_empty() {
                break body;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{backend:?}: no USD/KRW rates a minute after start"
            );
            tokio::time::sleep(POLL).await;
        };
        assert_eq!(body["pair"], "USDKRW");
        let usdkrw = instrument("FX:USDKRW");
        let now = Utc::now();
        let to = now.date_naive();
        let from = to - chrono::Duration::days(30);
        let want: Vec<Value> = sim()
            .fx_rates(usdkrw, from, last_finished_session(usdkrw.market(), now))
            .iter()
            .map(|r| json!({"date": r.date.to_string(), "rate": r.rate.to_string()}))
            .collect();
        assert_eq!(
            body["rates"],
            Value::from(want),
            "{backend:?}: the last 30 days of finished sessions, oldest first"
        );
        for r in body["rates"].as_array().unwrap() {
            decimal(&r["rate"], "rate");
        }
        // An explicit range, and lower-case pairs.
        let week = get_json(&app, "/api/fx/usdkrw?from=2026-01-05&to=2026-01-09").await;
        let dates: Vec<&str> = week["rates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["date"].as_str().unwrap())
            .collect();
        assert_eq!(
            dates,
            [
                "2026-01-05",
                "2026-01-06",
                "2026-01-07",
                "2026-01-08",
                "2026-01-09"
            ]
        );
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        assert_eq!(
            week["rates"][0]["rate"],
            sim().fx_rates(usdkrw, d("2026-01-05"), d("2026-01-05"))[0]
                .rate
                .to_string()
        );
        let five_years = get_json(&app, "/api/fx/USDKRW?from=2021-11-01&to=2026-11-01").await;
        assert!(
            !five_years["rates"].as_array().unwrap().is_empty(),
            "exactly five years is allowed"
        );
    }
}

#[tokio::test]
async fn a_pairs_rate_on_a_date_is_the_last_fixing_on_or_before_it_either_way_round() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn_with(db, |c| c.market.backfill_years = 1).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while get_json(&app, "/api/fx/USDKRW").await["rates"]
            .as_array()
            .unwrap()
            .is_empty()
        {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{backend:?}: no USD/KRW rates a minute after start"
            );
            tokio::time::sleep(POLL).await;
        }
        let usdkrw = instrument("FX:USDKRW");
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        // A Saturday takes the week's last fixing; a weekday its own.
        for date in ["2026-01-10", "2026-01-07"] {
            let want = sim()
                .fx_rates(usdkrw, d(date) - chrono::Duration::days(14), d(date))
                .last()
                .cloned()
                .expect("the simulator fixes rates on weekdays");
            let on = get_json(&app, &format!("/api/fx/usdkrw/rate?date={date}")).await;
            assert_eq!(
                on,
                json!({"pair": "USDKRW", "date": date, "rate": want.rate.to_string(), "rate_date": want.date.to_string()}),
                "{backend:?}: {date}"
            );
            assert!(want.date <= d(date));
            // The other way round: one won in dollars, from the same fixing.
            let inverse = get_json(&app, &format!("/api/fx/KRWUSD/rate?date={date}")).await;
            let expected = (Decimal::ONE / want.rate).round_dp(10).normalize();
            assert_eq!(inverse["rate"], expected.to_string(), "{backend:?}: {date}");
            assert_eq!(inverse["rate_date"], want.date.to_string());
        }
        // Before the stored history (more than 14 days before its first fixing): no rate.
        let before = get_json(&app, "/api/fx/USDKRW/rate?date=2001-01-02").await;
        assert_eq!(before["rate"], Value::Null, "{backend:?}");
        assert_eq!(before["rate_date"], Value::Null, "{backend:?}");
    }
}

#[tokio::test]
async fn a_rate_for_a_bad_date_is_refused_and_for_an_unknown_pair_not_found() {
    let app = spawn(TestDatabase::sqlite()).await;
    for query in ["date=2026-02-30", "date=2026/01/05", "date=today"] {
        let e = assert_error(
            app.get(&format!("/api/fx/USDKRW/rate?{query}")).await,
            400,
            "invalid_parameter",
        )
        .await;
        assert!(has_field_error(&e, "date"), "{query}: {e}");
    }
    for pair in [
        "XXXYYY",
        "USDEUR",
        "USDKR",
        "KRWKRW",
        "%EC%9B%90%EC%9B%90%EC%9B%90",
    ] {
        assert_error(
            app.get(&format!("/api/fx/{pair}/rate")).await,
            404,
            "not_found",
        )
        .await;
    }
}

#[tokio::test]
async fn fx_requests_with_bad_dates_are_refused_and_unknown_pairs_are_not_found() {
    let app = spawn(TestDatabase::sqlite()).await;
    assert_eq!(
        get_json(&app, "/api/fx/USDKRW").await["rates"],
        json!([]),
        "no history written: no rates, and no error"
    );
    let cases = [
        ("from=2026-02-30", "from", "no such day"),
        ("from=2026/01/05", "from", "slashes"),
        ("from=20260105", "from", "no dashes"),
        ("to=yesterday", "to", "a word"),
        ("to=2026-1-5x", "to", "trailing garbage"),
        ("from=2026-03-01&to=2026-02-01", "from", "from after to"),
        ("from=2020-01-01&to=2026-01-01", "from", "six years"),
        ("from=1900-01-01", "from", "over five years before today"),
    ];
    for (query, field, why) in cases {
        let r = app.get(&format!("/api/fx/USDKRW?{query}")).await;
        let e = assert_error(r, 400, "invalid_parameter").await;
        assert!(has_field_error(&e, field), "{why} ({query}): {e}");
    }
    for pair in ["XXXYYY", "KRWUSD", "USDKR", "USDKRWX", "USD-KRW"] {
        assert_error(app.get(&format!("/api/fx/{pair}")).await, 404, "not_found").await;
    }
}

// ---------------------------------------------------------------------------------
// Overview
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn the_overview_has_the_indices_the_dollar_and_the_days_movers() {
    let app = spawn(TestDatabase::sqlite()).await;
    let before = Utc::now();
    let body = get_json(&app, "/api/market/overview").await;
    let after = Utc::now();
    let listed = |key: &str| -> Vec<String> {
        body[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["instrument"]["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        listed("indices"),
        ["INDEX:KOSPI", "INDEX:KOSDAQ", "INDEX:SPX", "INDEX:IXIC"]
    );
    assert_eq!(listed("fx"), ["FX:USDKRW"]);
    for priced in body["indices"]
        .as_array()
        .unwrap()
        .iter()
        .chain(body["fx"].as_array().unwrap())
    {
        let id = priced["instrument"]["id"].as_str().unwrap();
        assert_simulated_quote(&priced["quote"], instrument(id), before, after);
    }
    for (side, sign) in [
        ("gainers", std::cmp::Ordering::Greater),
        ("losers", std::cmp::Ordering::Less),
    ] {
        let movers = body["movers"][side].as_array().unwrap();
        assert!(movers.len() <= 5, "{side}: five at most");
        for m in movers {
            assert_eq!(m["instrument"]["kind"], "stock", "{side}: stocks");
            let change = decimal(&m["quote"]["change"], "change");
            assert_eq!(
                change.cmp(&Decimal::ZERO),
                sign,
                "{side}: {} changed {change}",
                m["instrument"]["id"]
            );
        }
        let percents: Vec<Decimal> = movers
            .iter()
            .map(|m| decimal(&m["quote"]["change_percent"], "change_percent").abs())
            .collect();
        assert!(
            percents.windows(2).all(|w| w[0] >= w[1]),
            "{side}: biggest move first: {percents:?}"
        );
    }
    let gainers = body["movers"]["gainers"].as_array().unwrap();
    let losers = body["movers"]["losers"].as_array().unwrap();
    assert!(
        !gainers.is_empty() || !losers.is_empty(),
        "among 200-odd stocks something moved"
    );
}

// ---------------------------------------------------------------------------------
// Favourites
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn favourites_are_for_members_only() {
    let app = spawn(TestDatabase::sqlite()).await;
    assert_error(app.get("/api/me/favorites").await, 401, "unauthenticated").await;
    let r = send(
        &app,
        Method::PUT,
        "/api/me/favorites",
        None,
        Some(json!({"ids": ["KRX:005930"]})),
    )
    .await;
    assert_error(r, 401, "unauthenticated").await;
}

#[tokio::test]
async fn favourites_keep_their_order_and_a_second_put_replaces_them() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let ant = signup(&app, "ant@x.io", "ant").await;
        assert!(get_favorites(&app, &ant).await.is_empty(), "none at first");
        let order = ["NASDAQ:AAPL", "KRX:005930", "CRYPTO:BTC", "INDEX:KOSPI"];
        let r = put_favorites(&app, &ant, json!(order)).await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.unwrap();
        assert_eq!(ids_of(&body), order, "{backend:?}: PUT answers the list");
        assert_eq!(body[1]["name_ko"], "삼성전자", "full instruments");
        assert_eq!(body[1]["simulated"], true);
        assert_eq!(get_favorites(&app, &ant).await, order, "{backend:?}");

        let r = put_favorites(
            &app,
            &ant,
            json!(["krx:005930", "NYSE:BRK.B", "nasdaq:aapl"]),
        )
        .await;
        assert_eq!(r.status(), 200);
        let replaced = ["KRX:005930", "NYSE:BRK.B", "NASDAQ:AAPL"];
        assert_eq!(
            ids_of(&r.json().await.unwrap()),
            replaced,
            "ids are canonical"
        );
        assert_eq!(
            get_favorites(&app, &ant).await,
            replaced,
            "replaced, not merged"
        );

        let hundred: Vec<String> = curated()
            .iter()
            .rev()
            .take(100)
            .map(|i| i.id.to_string())
            .collect();
        let r = put_favorites(&app, &ant, json!(hundred)).await;
        assert_eq!(r.status(), 200, "a hundred is allowed");
        assert_eq!(get_favorites(&app, &ant).await, hundred, "{backend:?}");

        let r = put_favorites(&app, &ant, json!([])).await;
        assert_eq!(r.status(), 200);
        assert!(get_favorites(&app, &ant).await.is_empty(), "emptied");
    }
}

#[tokio::test]
async fn invalid_favourites_are_refused_naming_ids_and_change_nothing() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let ant = signup(&app, "ant@x.io", "ant").await;
        let kept = ["KRX:005930", "NASDAQ:AAPL"];
        assert_eq!(put_favorites(&app, &ant, json!(kept)).await.status(), 200);
        let many: Vec<String> = curated()
            .iter()
            .take(101)
            .map(|i| i.id.to_string())
            .collect();
        let cases = [
            (json!(["KRX:000660", "KRX:000660"]), "a duplicate"),
            (
                json!(["KRX:005930", "krx:005930"]),
                "a duplicate in another case",
            ),
            (json!(["KRX:000660", "KRX:999999"]), "an unknown id"),
            (json!(["KRX:000660", "005930"]), "a malformed id"),
            (json!(["LSE:VOD"]), "an unknown exchange"),
            (json!(["KRX:<script>"]), "markup"),
            (json!(many), "101 ids"),
        ];
        for (ids, why) in cases {
            let r = put_favorites(&app, &ant, ids).await;
            let e = assert_error(r, 422, "invalid_input").await;
            assert!(has_field_error(&e, "ids"), "{why}: {e}");
            assert_eq!(
                get_favorites(&app, &ant).await,
                kept,
                "{backend:?}: {why} changed nothing"
            );
        }
        let bodies = [
            (json!({}), "no ids"),
            (json!({"ids": "KRX:005930"}), "ids not a list"),
            (json!({"ids": [5930]}), "an id not a string"),
        ];
        for (body, why) in bodies {
            let r = send(
                &app,
                Method::PUT,
                "/api/me/favorites",
                Some(&ant),
                Some(body),
            )
            .await;
            let status = r.status().as_u16();
            assert!(status == 400 || status == 422, "{why}: {status}");
            assert_eq!(
                get_favorites(&app, &ant).await,
                kept,
                "{backend:?}: {why} changed nothing"
            );
        }
    }
}

#[tokio::test]
async fn members_never_see_each_others_favourites() {
    for db in TestDatabase::all().await {
        let app = spawn(db).await;
        let ant = signup(&app, "ant@x.io", "ant").await;
        let bee = signup(&app, "bee@x.io", "bee").await;
        assert_eq!(
            put_favorites(&app, &ant, json!(["KRX:005930", "CRYPTO:BTC"]))
                .await
                .status(),
            200
        );
        assert!(get_favorites(&app, &bee).await.is_empty(), "bee has none");
        assert_eq!(
            put_favorites(&app, &bee, json!(["NASDAQ:AAPL"]))
                .await
                .status(),
            200
        );
        assert_eq!(
            get_favorites(&app, &ant).await,
            ["KRX:005930", "CRYPTO:BTC"],
            "bee's PUT leaves ant's alone"
        );
        assert_eq!(get_favorites(&app, &bee).await, ["NASDAQ:AAPL"]);
    }
}

#[tokio::test]
async fn a_deleted_members_favourites_vanish() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let storage = app.db.storage().await;
        let ant = signup(&app, "ant@x.io", "ant").await;
        let bee = signup(&app, "bee@x.io", "bee").await;
        let ant_id = user_id(&app, &ant).await;
        for t in [&ant, &bee] {
            assert_eq!(
                put_favorites(&app, t, json!(["KRX:005930"])).await.status(),
                200
            );
        }
        let r = send(
            &app,
            Method::DELETE,
            "/api/me",
            Some(&ant),
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(r.status(), 204);
        assert_error(app.get("/api/me/favorites").await, 401, "unauthenticated").await;
        assert_error(
            send(&app, Method::GET, "/api/me/favorites", Some(&ant), None).await,
            401,
            "token_invalid",
        )
        .await;
        assert!(
            storage.favorites(ant_id).await.unwrap().is_empty(),
            "{backend:?}: the deleted member's favourites are gone"
        );
        assert_eq!(
            get_favorites(&app, &bee).await,
            ["KRX:005930"],
            "bee keeps hers"
        );
        get_json(&app, "/api/market/overview").await;
        let again = signup(&app, "ant@x.io", "ant").await;
        assert!(
            get_favorites(&app, &again).await.is_empty(),
            "a new account starts empty"
        );
    }
}

// ---------------------------------------------------------------------------------
// Providers
// ---------------------------------------------------------------------------------

#[tokio::test]
async fn only_the_operator_sees_the_market_providers() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = spawn(db).await;
        let operator = signup(&app, "op@x.io", "operator_1").await;
        let member = signup(&app, "ant@x.io", "ant").await;
        assert_error(
            app.get("/api/market/providers").await,
            401,
            "unauthenticated",
        )
        .await;
        let r = send(
            &app,
            Method::GET,
            "/api/market/providers",
            Some(&member),
            None,
        )
        .await;
        assert_error(r, 403, "forbidden").await;
        let r = send(
            &app,
            Method::GET,
            "/api/market/providers",
            Some(&operator),
            None,
        )
        .await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.unwrap();
        let mut markets: Vec<&str> = body
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["market"].as_str().unwrap())
            .collect();
        markets.sort_unstable();
        assert_eq!(markets, ["crypto", "fx", "krx", "us"], "{backend:?}");
        for p in body.as_array().unwrap() {
            assert_eq!(p["provider"], "simulator", "{p}");
            assert!(p["last_error"].is_null(), "the simulator never fails: {p}");
        }
    }
}

// ---------------------------------------------------------------------------------
// A real provider that fails
// ---------------------------------------------------------------------------------

async fn aapl_quote(app: &TestApp) -> Value {
    get_json(app, "/api/instruments/NASDAQ:AAPL/quote").await
}

/// Polls the AAPL quote until its state is `state`.
async fn aapl_quote_until(app: &TestApp, state: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let q = aapl_quote(app).await;
        if q["state"] == state {
            return q;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the quote never became {state}: {q}"
        );
        tokio::time::sleep(POLL).await;
    }
}

async fn us_provider(app: &TestApp, operator: &str) -> Value {
    let r = send(
        app,
        Method::GET,
        "/api/market/providers",
        Some(operator),
        None,
    )
    .await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    body.as_array()
        .unwrap()
        .iter()
        .find(|p| p["market"] == "us")
        .expect("the us market")
        .clone()
}

#[tokio::test]
async fn a_failing_real_provider_keeps_the_last_good_quote_marked_stale() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let yahoo = FakeYahoo::start().await;
        let app = spawn_with(db, |c| {
            c.market.us = "yahoo".into();
            c.market.yahoo_url = yahoo.url.clone();
            c.market.poll_secs = 1;
        })
        .await;
        let operator = signup(&app, "op@x.io", "operator_1").await;

        let q = aapl_quote(&app).await;
        // On the US price grid: two decimals.
        let good = json!({"price": "189.43", "previous_close": "187.10", "change": "2.33",
                          "open": "187.30", "high": "190.12", "low": "186.50",
                          "volume": 51234567, "as_of": "2026-11-20T21:00:00Z",
                          "source": "yahoo", "simulated": false});
        for (field, want) in good.as_object().unwrap() {
            assert_eq!(&q[field], want, "{backend:?}: {field} from the chart");
        }
        assert_eq!(q["state"], "delayed", "Yahoo's prices are delayed");
        assert_eq!(q["change_percent"], "1.25");
        for (id, change, percent) in [
            ("NASDAQ:MSFT", "0.00", "0.00"),
            ("NASDAQ:NVDA", "18.71", "10.00"),
        ] {
            let q = get_json(&app, &format!("/api/instruments/{id}/quote")).await;
            assert_eq!(
                (&q["change"], &q["change_percent"]),
                (&json!(change), &json!(percent)),
                "{id}: always two decimals"
            );
        }
        let detail = get_json(&app, "/api/instruments/NASDAQ:AAPL").await;
        assert_eq!(
            detail["simulated"], false,
            "the instrument is not simulated"
        );
        assert_eq!(detail["quote"]["price"], "189.43");
        let p = us_provider(&app, &operator).await;
        assert_eq!(p["provider"], "yahoo");
        assert!(p["last_success"].is_string(), "{p}");
        assert!(p["last_error"].is_null(), "{p}");

        for status in [500, 429] {
            yahoo.answer(status);
            let q = aapl_quote_until(&app, "stale").await;
            for (field, want) in good.as_object().unwrap() {
                assert_eq!(&q[field], want, "{backend:?} after {status}: {field} kept");
            }
            let deadline = tokio::time::Instant::now() + PATIENCE;
            let p = loop {
                let p = us_provider(&app, &operator).await;
                let error = p["last_error"].as_str().unwrap_or_default().to_lowercase();
                let named = match status {
                    429 => error.contains("rate") || error.contains("429"),
                    _ => error.contains("500"),
                };
                if named {
                    break p;
                }
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "{backend:?}: last_error never told of the {status}: {p}"
                );
                aapl_quote(&app).await;
                tokio::time::sleep(POLL).await;
            };
            assert!(p["last_error_at"].is_string(), "{p}");
            assert!(
                p["last_success"].is_string(),
                "the last success is kept: {p}"
            );
            let detail = get_json(&app, "/api/instruments/NASDAQ:AAPL").await;
            assert_eq!(detail["quote"]["price"], "189.43");
            assert_eq!(detail["quote"]["state"], "stale");
        }

        yahoo.answer(200);
        let q = aapl_quote_until(&app, "delayed").await;
        assert_eq!(q["price"], "189.43", "{backend:?}: recovered");
    }
}

// ---------------------------------------------------------------------------------
// The stream
// ---------------------------------------------------------------------------------

/// Reads frames until `done` holds for the frames so far; panics after [`PATIENCE`].
async fn frames_until(socket: &mut Socket, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut frames = Vec::new();
    while !done(&frames) {
        let wait = deadline.saturating_duration_since(tokio::time::Instant::now());
        match next_json(socket, wait).await {
            Some(f) => frames.push(f),
            None => panic!("timed out; frames so far: {frames:#?}"),
        }
    }
    frames
}

fn has_op(frames: &[Value], op: &str) -> bool {
    frames.iter().any(|f| f["op"] == op)
}

fn quotes_of<'a>(frames: &'a [Value], topic: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|f| f["op"] == "quote" && f["topic"] == topic)
        .collect()
}

#[tokio::test]
async fn subscribing_lists_the_topics_and_sends_each_current_quote_at_once() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    let topics = ["quote:KRX:005930", "quote:NASDAQ:AAPL"];
    let before = Utc::now();
    send_json(&mut socket, json!({"op": "subscribe", "topics": topics})).await;
    let frames = frames_until(&mut socket, |f| {
        has_op(f, "subscribed") && topics.iter().all(|t| !quotes_of(f, t).is_empty())
    })
    .await;
    let after = Utc::now();
    let subscribed = frames.iter().find(|f| f["op"] == "subscribed").unwrap();
    assert_eq!(subscribed["topics"], json!(topics));
    for (topic, id) in topics.iter().zip(["KRX:005930", "NASDAQ:AAPL"]) {
        let q = quotes_of(&frames, topic)[0];
        assert_simulated_quote(&q["data"], instrument(id), before, after);
        assert_eq!(q["data"]["simulated"], true);
    }
    assert!(!has_op(&frames, "error"), "{frames:#?}");
    // Subscribing again is harmless: listed, and no error.
    send_json(
        &mut socket,
        json!({"op": "subscribe", "topics": [topics[0]]}),
    )
    .await;
    let frames = frames_until(&mut socket, |f| has_op(f, "subscribed")).await;
    let subscribed = frames.iter().find(|f| f["op"] == "subscribed").unwrap();
    assert_eq!(subscribed["topics"], json!([topics[0]]));
    assert!(!has_op(&frames, "error"), "{frames:#?}");
}

#[tokio::test]
async fn an_unknown_topic_in_a_batch_is_reported_and_the_others_subscribed() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    let bad = [
        "quote:KRX:999999",
        "quote:LSE:VOD",
        "chat:lobby",
        "KRX:005930",
        "",
    ];
    let mut topics = vec!["quote:KRX:005930"];
    topics.extend(bad);
    send_json(&mut socket, json!({"op": "subscribe", "topics": topics})).await;
    let frames = frames_until(&mut socket, |f| has_op(f, "subscribed")).await;
    let subscribed = frames.iter().find(|f| f["op"] == "subscribed").unwrap();
    assert_eq!(subscribed["topics"], json!(["quote:KRX:005930"]));
    let errors: Vec<&Value> = frames.iter().filter(|f| f["op"] == "error").collect();
    assert_eq!(
        errors.len(),
        bad.len(),
        "one error per bad topic: {errors:#?}"
    );
    for e in &errors {
        assert_eq!(e["code"], "unknown_topic", "{e}");
        assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    }
    assert_eq!(
        quotes_of(&frames, "quote:KRX:005930").len(),
        1,
        "{frames:#?}"
    );
}

#[tokio::test]
async fn bad_messages_are_reported_and_ping_gets_pong() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    let texts = [
        ("not json", "not JSON"),
        ("{\"op\": \"dance\"}", "an unknown op"),
        ("{\"topics\": []}", "no op"),
        ("{\"op\": \"subscribe\"}", "subscribe without topics"),
        (
            "{\"op\": \"subscribe\", \"topics\": \"quote:KRX:005930\"}",
            "topics not a list",
        ),
        ("[]", "an array"),
    ];
    for (text, why) in texts {
        socket.send(Frame::text(text)).await.unwrap();
        let reply = next_json(&mut socket, PATIENCE).await.expect("a reply");
        assert_eq!(reply["op"], "error", "{why}: {reply}");
        assert_eq!(reply["code"], "bad_message", "{why}: {reply}");
    }
    socket
        .send(Frame::binary(b"{\"op\": \"ping\"}".to_vec()))
        .await
        .unwrap();
    let reply = next_json(&mut socket, PATIENCE).await.expect("a reply");
    assert_eq!(reply["code"], "bad_message", "binary frames: {reply}");
    send_json(&mut socket, json!({"op": "ping"})).await;
    assert_eq!(
        next_json(&mut socket, PATIENCE).await,
        Some(json!({"op": "pong"})),
        "the socket still works after bad messages"
    );
}

#[tokio::test]
async fn more_than_64_topics_on_one_socket_are_refused() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    let topics: Vec<String> = curated()
        .iter()
        .take(65)
        .map(|i| format!("quote:{}", i.id))
        .collect();
    send_json(&mut socket, json!({"op": "subscribe", "topics": topics})).await;
    let frames = frames_until(&mut socket, |f| has_op(f, "subscribed")).await;
    let subscribed = frames.iter().find(|f| f["op"] == "subscribed").unwrap();
    assert_eq!(subscribed["topics"], json!(topics[..64]), "the first 64");
    // One current quote per topic (a live crypto push may come on top: count topics).
    let quoted: std::collections::HashSet<&Value> = frames
        .iter()
        .filter(|f| f["op"] == "quote")
        .map(|f| &f["topic"])
        .collect();
    assert_eq!(quoted.len(), 64);
    let errors: Vec<&Value> = frames.iter().filter(|f| f["op"] == "error").collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0]["code"], "too_many_subscriptions");
    assert!(
        errors[0]["message"].as_str().unwrap().contains(&topics[64]),
        "names the topic left out: {}",
        errors[0]
    );
    // One more in a later batch is refused too.
    send_json(
        &mut socket,
        json!({"op": "subscribe", "topics": [topics[64]]}),
    )
    .await;
    let frames = frames_until(&mut socket, |f| has_op(f, "subscribed")).await;
    // Live pushes of the subscribed topics may arrive in between: look for the error.
    let error = frames.iter().find(|f| f["op"] == "error");
    assert_eq!(
        error.map(|e| &e["code"]),
        Some(&json!("too_many_subscriptions")),
        "{frames:#?}"
    );
    assert_eq!(frames.last().unwrap()["topics"], json!([]));
    // Unsubscribing makes room again.
    send_json(
        &mut socket,
        json!({"op": "unsubscribe", "topics": [topics[0]]}),
    )
    .await;
    send_json(
        &mut socket,
        json!({"op": "subscribe", "topics": [topics[64]]}),
    )
    .await;
    let frames = frames_until(&mut socket, |f| has_op(f, "subscribed")).await;
    let subscribed = frames.iter().find(|f| f["op"] == "subscribed").unwrap();
    assert_eq!(subscribed["topics"], json!([topics[64]]));
    assert!(!has_op(&frames, "error"), "{frames:#?}");
}

#[tokio::test]
async fn live_quotes_are_pushed_until_unsubscribed() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    // Crypto trades around the clock, so its quotes always move.
    let (btc, eth) = ("quote:CRYPTO:BTC", "quote:CRYPTO:ETH");
    send_json(
        &mut socket,
        json!({"op": "subscribe", "topics": [btc, eth]}),
    )
    .await;
    let frames = frames_until(&mut socket, |f| quotes_of(f, btc).len() >= 2).await;
    let quotes = quotes_of(&frames, btc);
    assert_ne!(quotes[0]["data"], quotes[1]["data"], "a push is a change");
    for q in &quotes {
        assert_eq!(q["data"]["state"], "live");
        assert_eq!(q["data"]["instrument_id"], "CRYPTO:BTC");
    }

    send_json(&mut socket, json!({"op": "unsubscribe", "topics": [btc]})).await;
    // Messages are handled in order: once the pong is here, so is the unsubscription
    // (a BTC quote sent before it may still come first).
    send_json(&mut socket, json!({"op": "ping"})).await;
    frames_until(&mut socket, |f| has_op(f, "pong")).await;
    // ETH keeps moving; two of its pushes later, nothing more of BTC has come.
    let frames = frames_until(&mut socket, |f| quotes_of(f, eth).len() >= 2).await;
    assert!(
        quotes_of(&frames, btc).is_empty(),
        "no BTC after unsubscribing: {frames:#?}"
    );
}

#[tokio::test]
async fn an_oversized_frame_closes_the_connection_and_the_server_lives_on() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut socket = connect(&app).await;
    // Up to 4096 bytes is fine.
    let ping = |bytes: usize| format!("{{\"op\": \"ping\"{}}}", " ".repeat(bytes - 14));
    let padded = ping(4096);
    assert_eq!(padded.len(), 4096);
    socket.send(Frame::text(padded)).await.unwrap();
    assert_eq!(
        next_json(&mut socket, PATIENCE).await,
        Some(json!({"op": "pong"}))
    );
    let oversized = ping(4097);
    let _ = socket.send(Frame::text(oversized)).await;
    let closed = tokio::time::timeout(PATIENCE, async {
        loop {
            match socket.next().await {
                Some(Ok(Frame::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the server closed the connection");
    assert_eq!(app.get("/healthz").await.status(), 200);
    let mut again = connect(&app).await;
    send_json(&mut again, json!({"op": "ping"})).await;
    assert_eq!(
        next_json(&mut again, PATIENCE).await,
        Some(json!({"op": "pong"}))
    );
}

#[tokio::test]
async fn connections_over_the_cap_are_refused_with_503_until_one_closes() {
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.market.max_stream_connections = 2;
    })
    .await;
    let mut first = connect(&app).await;
    let mut second = connect(&app).await;
    match tokio_tungstenite::connect_async(stream_url(&app)).await {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 503);
            let body = String::from_utf8_lossy(response.body().as_deref().unwrap_or_default())
                .into_owned();
            assert!(body.contains("too_many_connections"), "{body}");
        }
        other => panic!("the third connection is refused: {other:?}"),
    }
    // The two open ones still work.
    for socket in [&mut first, &mut second] {
        send_json(socket, json!({"op": "ping"})).await;
        assert_eq!(
            next_json(socket, PATIENCE).await,
            Some(json!({"op": "pong"}))
        );
    }
    first.close(None).await.unwrap();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut third = loop {
        match tokio_tungstenite::connect_async(stream_url(&app)).await {
            Ok((socket, _)) => break socket,
            Err(tungstenite::Error::Http(r)) if r.status() == 503 => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "closing a connection frees its slot"
                );
                tokio::time::sleep(POLL).await;
            }
            Err(e) => panic!("{e}"),
        }
    };
    send_json(&mut third, json!({"op": "ping"})).await;
    assert_eq!(
        next_json(&mut third, PATIENCE).await,
        Some(json!({"op": "pong"}))
    );
}

#[tokio::test]
async fn a_socket_that_keeps_sending_garbage_is_closed_and_others_carry_on() {
    let app = spawn(TestDatabase::sqlite()).await;
    let mut good = connect(&app).await;
    send_json(
        &mut good,
        json!({"op": "subscribe", "topics": ["quote:CRYPTO:BTC"]}),
    )
    .await;
    frames_until(&mut good, |f| !quotes_of(f, "quote:CRYPTO:BTC").is_empty()).await;

    let mut abuser = connect(&app).await;
    let mut closed = false;
    let mut errors = 0;
    // Each garbage frame earns an error frame; past the allowance the server closes.
    for _ in 0..(moat_server::market::stream::MAX_ERRORS_PER_SOCKET + 5) {
        if abuser.send(Frame::text("not json")).await.is_err() {
            closed = true;
            break;
        }
    }
    while !closed {
        match tokio::time::timeout(PATIENCE, abuser.next()).await {
            Ok(Some(Ok(Frame::Text(t)))) => {
                let f: Value = serde_json::from_str(t.as_str()).unwrap();
                if f["code"] == "bad_message" {
                    errors += 1;
                }
            }
            Ok(Some(Ok(Frame::Close(c)))) => {
                assert_eq!(c.map(|c| u16::from(c.code)), Some(1008), "policy violation");
                closed = true;
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(_)) | None) => closed = true,
            Err(_) => panic!("the abusive socket was not closed"),
        }
    }
    assert_eq!(
        errors,
        moat_server::market::stream::MAX_ERRORS_PER_SOCKET,
        "an error frame per bad frame until the close"
    );
    // The well-behaved socket still gets pushes and answers.
    send_json(&mut good, json!({"op": "ping"})).await;
    frames_until(&mut good, |f| has_op(f, "pong")).await;
    frames_until(&mut good, |f| !quotes_of(f, "quote:CRYPTO:BTC").is_empty()).await;
}

#[tokio::test]
async fn a_client_that_never_reads_does_not_slow_the_others() {
    let app = spawn(TestDatabase::sqlite()).await;
    let topics: Vec<String> = curated()
        .iter()
        .take(64)
        .map(|i| format!("quote:{}", i.id))
        .collect();
    // A slow client: subscribes to everything, then never reads a frame.
    let mut slow = connect(&app).await;
    send_json(&mut slow, json!({"op": "subscribe", "topics": topics})).await;
    // Several readers watching crypto, which ticks around the clock.
    let mut readers = Vec::new();
    for _ in 0..4 {
        let mut s = connect(&app).await;
        send_json(
            &mut s,
            json!({"op": "subscribe", "topics": ["quote:CRYPTO:BTC", "quote:CRYPTO:ETH"]}),
        )
        .await;
        readers.push(s);
    }
    // Each reader sees BTC move twice within the usual patience, as without the slow one.
    let started = tokio::time::Instant::now();
    for s in &mut readers {
        frames_until(s, |f| quotes_of(f, "quote:CRYPTO:BTC").len() >= 3).await;
    }
    assert!(started.elapsed() < PATIENCE, "readers kept pace");
    // And the server answers HTTP as usual.
    assert_eq!(app.get("/healthz").await.status(), 200);
    drop(slow);
}

#[tokio::test]
async fn instruments_imported_by_another_process_become_searchable() {
    let data = tempfile::tempdir().unwrap();
    let config = moat_server::Config {
        port: 0,
        data_dir: data.path().to_path_buf(),
        market: moat_server::market::MarketConfig {
            backfill_years: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let app = moat_server::Application::build(config).await.unwrap();
    let market = app.state().market.service.clone();
    assert!(market.catalog().index.search("무트전자", 5).is_empty());
    let mut new = instrument("KRX:005930").clone();
    new.id = "KRX:999990".parse().unwrap();
    new.name_ko = "무트전자".into();
    new.name_en = "Moat Electronics".into();
    new.aliases.clear();
    // What `moat import instruments` does, from outside the server.
    let url = format!("sqlite://{}", data.path().join("moat.db").display());
    let other = moat_storage::connect(&url, &Default::default())
        .await
        .unwrap();
    other.upsert_instruments(&[new]).await.unwrap();
    assert!(
        market.refresh_catalog().await.unwrap(),
        "the change is noticed"
    );
    let hits = market.catalog().index.search("ㅁㅌㅈㅈ", 5);
    assert_eq!(hits[0].id.to_string(), "KRX:999990");
    assert!(
        !market.refresh_catalog().await.unwrap(),
        "nothing more to do"
    );
}

/// A real provider's dividends are fetched with its history and stored: the
/// instrument's dividends (and the calendar) show them, not simulated ones.
#[tokio::test]
async fn a_real_providers_dividends_are_stored_with_its_history() {
    let yahoo = FakeYahoo::start().await;
    let app = spawn_with(TestDatabase::sqlite(), |c| {
        c.market.us = "yahoo".into();
        c.market.yahoo_url = yahoo.url.clone();
        c.market.backfill_years = 1;
    })
    .await;
    let deadline = tokio::time::Instant::now() + PATIENCE * 6;
    let dividends = loop {
        let list = get_json(
            &app,
            "/api/instruments/NASDAQ:AAPL/dividends?from=2026-11-01&to=2026-11-30",
        )
        .await;
        if !list.as_array().unwrap().is_empty() {
            break list;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the catch-up never stored the dividend"
        );
        tokio::time::sleep(POLL * 10).await;
    };
    assert_eq!(dividends.as_array().unwrap().len(), 1, "{dividends}");
    assert_eq!(dividends[0]["ex_date"], "2026-11-17", "{dividends}");
    assert_eq!(dividends[0]["amount"], "0.26", "{dividends}");
    assert_eq!(dividends[0]["currency"], "USD", "{dividends}");
    app.stop().await.unwrap();
}
