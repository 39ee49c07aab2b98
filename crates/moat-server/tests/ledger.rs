//! Writes that cannot corrupt a ledger, and ledgers that stay readable (issue 14 §1–2),
//! over HTTP against the real server, each on SQLite and (with
//! `MOAT_TEST_POSTGRES_URL`) PostgreSQL: parallel sells of the same shares through two
//! instances, idempotent creation, an invalid ledger shown up to the transaction that
//! breaks it, imports racing each other, and the other checks that precede a write.

mod helpers;

use std::str::FromStr;

use futures_util::future::join_all;
use helpers::{
    add_transaction, assert_error, create_portfolio, has_field_error, member_json, send, signup,
    TestApp,
};
use moat_storage::testing::TestDatabase;
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};

async fn add_with_key(
    app: &TestApp,
    token: &str,
    id: i64,
    key: &str,
    tx: &Value,
) -> reqwest::Response {
    app.client
        .post(app.url(&format!("/api/portfolios/{id}/transactions")))
        .bearer_auth(token)
        .header("Idempotency-Key", key)
        .json(tx)
        .send()
        .await
        .unwrap()
}

fn dec(v: &Value) -> Decimal {
    Decimal::from_str(
        v.as_str()
            .unwrap_or_else(|| panic!("a decimal string: {v}")),
    )
    .unwrap()
}

fn buy(date: &str, quantity: &str, price: &str) -> Value {
    json!({"kind": "buy", "trade_date": date, "instrument_id": "KRX:005930",
           "quantity": quantity, "price": price, "currency": "KRW"})
}

fn sell(date: &str, quantity: &str, price: &str) -> Value {
    json!({"kind": "sell", "trade_date": date, "instrument_id": "KRX:005930",
           "quantity": quantity, "price": price, "currency": "KRW"})
}

/// The token key two instances share, as a deployment would.
const SHARED_KEY: &str = "bW9hdCBsZWRnZXIgdGVzdHMgc2hhcmUgYSAzMi1ieXRlIGtleSEhIQ==";

/// Two instances on one database (the same SQLite file, or one PostgreSQL database).
async fn two_instances(db: TestDatabase) -> (TestApp, TestApp) {
    let url = db.url.clone();
    let a = TestApp::spawn_with(db, |c| c.accounts.token_key = SHARED_KEY.into()).await;
    let b = TestApp::spawn_with(TestDatabase::sqlite(), |c| {
        c.database_url = url;
        c.accounts.token_key = SHARED_KEY.into();
    })
    .await;
    (a, b)
}

/// 10 shares held; 8 sells of all 10 sent at once, alternately through two instances:
/// exactly one is recorded, the others are refused naming the quantity, and the
/// member's list, meta valuation, performance, allocation and dividends all still
/// answer.
#[tokio::test]
async fn parallel_sells_of_the_same_shares_record_one() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let (a, b) = two_instances(db).await;
        let token = signup(&a, "racer@moat.example", "racer").await;
        let id = create_portfolio(&a, &token, "Main", "KRW").await;
        let r = add_transaction(&a, &token, id, &buy("2024-01-02", "10", "70000")).await;
        assert_eq!(r.status(), 201);
        let tx = sell("2024-02-01", "10", "75000");
        let sends = (0..8).map(|i| {
            let app = if i % 2 == 0 { &a } else { &b };
            add_transaction(app, &token, id, &tx)
        });
        let mut statuses = Vec::new();
        for r in join_all(sends).await {
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap();
            if status == 422 {
                assert!(has_field_error(&body, "quantity"), "{backend:?}: {body}");
            }
            statuses.push(status);
        }
        statuses.sort_unstable();
        assert_eq!(
            statuses,
            [201, 422, 422, 422, 422, 422, 422, 422],
            "{backend:?}: one sell recorded"
        );
        let txs = member_json(&b, &token, &format!("/api/portfolios/{id}/transactions")).await;
        assert_eq!(txs.as_array().unwrap().len(), 2, "{backend:?}");
        for app in [&a, &b] {
            let list = member_json(app, &token, "/api/portfolios").await;
            assert!(
                list["portfolios"][0]["ledger_issue"].is_null(),
                "{backend:?}"
            );
            member_json(app, &token, "/api/portfolios/meta/valuation").await;
            member_json(app, &token, &format!("/api/portfolios/{id}/performance")).await;
            member_json(app, &token, &format!("/api/portfolios/{id}/allocation")).await;
            member_json(app, &token, "/api/me/dividends").await;
        }
    }
}

/// With an `Idempotency-Key`, a repeat answers the first answer and records nothing
/// more, also when the repeats arrive together; the same key with another body is
/// refused; a refused request stored nothing, so its corrected retry goes through; a
/// malformed key is refused; another member's key is theirs.
#[tokio::test]
async fn an_idempotency_key_records_one_trade() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |_| {}).await;
        let token = signup(&app, "tap@moat.example", "tapper").await;
        let id = create_portfolio(&app, &token, "Main", "KRW").await;
        let tx = buy("2024-01-02", "10", "70000");

        let first = add_with_key(&app, &token, id, "double-tap-1", &tx).await;
        assert_eq!(first.status(), 201);
        assert!(first.headers().get("idempotent-replayed").is_none());
        let first: Value = first.json().await.unwrap();
        let again = add_with_key(&app, &token, id, "double-tap-1", &tx).await;
        assert_eq!(again.status(), 201, "{backend:?}");
        assert_eq!(again.headers().get("idempotent-replayed").unwrap(), "true");
        assert_eq!(again.json::<Value>().await.unwrap(), first);

        // Five at once with one key: one trade.
        let tx2 = buy("2024-01-03", "1", "71000");
        let answers = join_all((0..5).map(|_| add_with_key(&app, &token, id, "burst", &tx2))).await;
        let mut ids = Vec::new();
        for r in answers {
            assert_eq!(r.status(), 201, "{backend:?}");
            ids.push(r.json::<Value>().await.unwrap()["id"].as_i64().unwrap());
        }
        ids.dedup();
        assert_eq!(ids.len(), 1, "{backend:?}: every answer names one trade");
        let txs = member_json(&app, &token, &format!("/api/portfolios/{id}/transactions")).await;
        assert_eq!(txs.as_array().unwrap().len(), 2, "{backend:?}");

        // The same key with another body.
        let other = buy("2024-01-02", "11", "70000");
        assert_error(
            add_with_key(&app, &token, id, "double-tap-1", &other).await,
            409,
            "idempotency_key_reused",
        )
        .await;
        // A refused request (more sold than held) stores nothing: corrected, it passes.
        let too_many = sell("2024-02-01", "50", "75000");
        assert_error(
            add_with_key(&app, &token, id, "retry-me", &too_many).await,
            422,
            "invalid_input",
        )
        .await;
        let corrected = sell("2024-02-01", "5", "75000");
        assert_eq!(
            add_with_key(&app, &token, id, "retry-me", &corrected)
                .await
                .status(),
            201
        );
        // Malformed keys.
        for key in ["has space", &"k".repeat(300)] {
            assert_error(
                add_with_key(&app, &token, id, key, &tx).await,
                400,
                "invalid_parameter",
            )
            .await;
        }
        // Another member's key of the same name is another key.
        let bob = signup(&app, "bob@moat.example", "bob").await;
        let bobs = create_portfolio(&app, &bob, "Bob", "KRW").await;
        assert_eq!(
            add_with_key(&app, &bob, bobs, "double-tap-1", &tx)
                .await
                .status(),
            201
        );
        let txs = member_json(&app, &token, &format!("/api/portfolios/{id}/transactions")).await;
        assert_eq!(txs.as_array().unwrap().len(), 3, "{backend:?}");
    }
}

/// A ledger left invalid by old data (a sell of 50 when 10 were held, written past the
/// API): its figures stop before that sell and name it; the list, the meta portfolio
/// and dividends still answer with the other portfolio whole; new trades that leave
/// the problem as it was are accepted; deleting the bad sell mends it.
#[tokio::test]
async fn an_invalid_ledger_stays_readable() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |_| {}).await;
        let token = signup(&app, "old@moat.example", "olddata").await;
        let broken = create_portfolio(&app, &token, "Old", "KRW").await;
        let good = create_portfolio(&app, &token, "Good", "KRW").await;
        assert_eq!(
            add_transaction(&app, &token, broken, &buy("2024-01-02", "10", "70000"))
                .await
                .status(),
            201
        );
        assert_eq!(
            add_transaction(&app, &token, good, &buy("2024-01-02", "3", "70000"))
                .await
                .status(),
            201
        );
        // Written past the API, as an old import or a past bug could have.
        let storage = moat_storage::connect(&app.db.url, &Default::default())
            .await
            .unwrap();
        let me = member_json(&app, &token, "/api/me").await;
        let user_id = me["user_id"].as_i64().unwrap();
        let mut bad = moat_storage::NewTransaction::new(
            "sell",
            chrono::NaiveDate::from_ymd_opt(2024, 3, 4).unwrap(),
            "KRW",
        );
        bad.instrument_id = Some("KRX:005930".parse().unwrap());
        bad.quantity = Decimal::from(50);
        bad.price = Decimal::from(80_000);
        let bad = storage
            .add_transaction(user_id, broken, &bad)
            .await
            .unwrap()
            .unwrap();
        let mut later = moat_storage::NewTransaction::new(
            "deposit",
            chrono::NaiveDate::from_ymd_opt(2024, 4, 1).unwrap(),
            "KRW",
        );
        later.quantity = Decimal::ONE;
        later.price = Decimal::from(1_000_000);
        storage
            .add_transaction(user_id, broken, &later)
            .await
            .unwrap();

        let list = member_json(&app, &token, "/api/portfolios").await;
        let issue = &list["portfolios"][0]["ledger_issue"];
        assert_eq!(issue["transaction_id"], bad.id, "{backend:?}: {list}");
        assert_eq!(issue["code"], "insufficient_quantity");
        assert_eq!(issue["field"], "quantity");
        assert_eq!(issue["trade_date"], "2024-03-04");
        assert!(list["portfolios"][1]["ledger_issue"].is_null());
        // Everything before the sell: the 10 shares; nothing after it (the deposit).
        let v = member_json(&app, &token, &format!("/api/portfolios/{broken}/valuation")).await;
        assert_eq!(v["holdings"][0]["quantity"], "10", "{backend:?}");
        assert_eq!(v["totals"]["cash"], "0");
        assert_eq!(v["ledger_issues"][0]["transaction_id"], bad.id);
        let meta = member_json(&app, &token, "/api/portfolios/meta/valuation").await;
        assert_eq!(meta["holdings"][0]["quantity"], "13", "{backend:?}");
        assert_eq!(meta["ledger_issues"].as_array().unwrap().len(), 1);
        let p = member_json(
            &app,
            &token,
            &format!("/api/portfolios/{broken}/performance"),
        )
        .await;
        assert_eq!(p["ledger_issues"][0]["transaction_id"], bad.id);
        member_json(&app, &token, "/api/portfolios/meta/performance").await;
        member_json(
            &app,
            &token,
            &format!("/api/portfolios/{broken}/allocation"),
        )
        .await;
        let div = member_json(&app, &token, "/api/me/dividends").await;
        assert_eq!(div["ledger_issues"][0]["transaction_id"], bad.id);

        // A trade that does not add a problem is taken; one that does is refused.
        assert_eq!(
            add_transaction(&app, &token, broken, &buy("2024-05-02", "1", "70000"))
                .await
                .status(),
            201,
            "{backend:?}"
        );
        let r = add_transaction(&app, &token, broken, &sell("2024-05-03", "100", "70000")).await;
        assert_error(r, 422, "invalid_input").await;
        // Deleting the bad sell mends the ledger.
        let r = send(
            &app,
            Method::DELETE,
            &format!("/api/portfolios/{broken}/transactions/{}", bad.id),
            Some(&token),
            None,
        )
        .await;
        assert_eq!(r.status(), 204, "{backend:?}");
        let list = member_json(&app, &token, "/api/portfolios").await;
        assert!(list["portfolios"][0]["ledger_issue"].is_null());
        let v = member_json(&app, &token, &format!("/api/portfolios/{broken}/valuation")).await;
        assert_eq!(v["holdings"][0]["quantity"], "11");
        // The deposit, less the buy of 1 @ 70,000 made since.
        assert_eq!(v["totals"]["cash"], "930000");
    }
}

/// The same file imported twice at once: its rows are recorded once (the second
/// import finds them under the lock and skips them); a sell in a file checked against
/// shares that are sold meanwhile is refused at import.
#[tokio::test]
async fn imports_racing_each_other_record_each_row_once() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let (a, b) = two_instances(db).await;
        let token = signup(&a, "imp@moat.example", "importer").await;
        let id = create_portfolio(&a, &token, "Main", "KRW").await;
        let mut csv = String::from("date,type,instrument,quantity,price,currency\n");
        for day in 2..=20 {
            csv += &format!("2024-01-{day:02},buy,KRX:005930,1,70000,KRW\n");
        }
        let import = |app: &TestApp| {
            app.client
                .post(app.url(&format!("/api/portfolios/{id}/import")))
                .bearer_auth(&token)
                .header("content-type", "text/csv")
                .body(csv.clone())
                .send()
        };
        let (r1, r2) = tokio::join!(import(&a), import(&b));
        let mut imported = 0;
        let mut skipped = 0;
        for r in [r1.unwrap(), r2.unwrap()] {
            assert_eq!(r.status(), 200, "{backend:?}");
            let body: Value = r.json().await.unwrap();
            imported += body["imported"].as_i64().unwrap();
            skipped += body["skipped_duplicates"].as_i64().unwrap();
        }
        assert_eq!((imported, skipped), (19, 19), "{backend:?}");
        let txs = member_json(&a, &token, &format!("/api/portfolios/{id}/transactions")).await;
        assert_eq!(txs.as_array().unwrap().len(), 19, "{backend:?}");
    }
}

/// Other checks that precede a write: 25 portfolios created at once stop at 20; one
/// nickname taken by several members at once goes to one; one e-mail signed up several
/// times at once makes one account; favourites replaced at once end as one of the
/// lists sent, whole.
#[tokio::test]
async fn other_checks_before_writes_hold_under_concurrency() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = 1000).await;
        let token = signup(&app, "many@moat.example", "many").await;
        let creates = (0..25).map(|i| {
            send(
                &app,
                Method::POST,
                "/api/portfolios",
                Some(&token),
                Some(json!({"name": format!("P{i}"), "base_currency": "KRW"})),
            )
        });
        let mut statuses: Vec<u16> = join_all(creates)
            .await
            .iter()
            .map(|r| r.status().as_u16())
            .collect();
        statuses.sort_unstable();
        assert_eq!(
            statuses.iter().filter(|s| **s == 201).count(),
            20,
            "{backend:?}: {statuses:?}"
        );
        assert_eq!(
            statuses.iter().filter(|s| **s == 409).count(),
            5,
            "{backend:?}"
        );
        let list = member_json(&app, &token, "/api/portfolios").await;
        assert_eq!(list["portfolios"].as_array().unwrap().len(), 20);

        let mut tokens = Vec::new();
        for i in 0..4 {
            tokens.push(signup(&app, &format!("n{i}@moat.example"), &format!("nick{i}")).await);
        }
        let renames = tokens.iter().map(|t| {
            send(
                &app,
                Method::PATCH,
                "/api/me",
                Some(t),
                Some(json!({"nickname": "sameName"})),
            )
        });
        let mut statuses: Vec<u16> = join_all(renames)
            .await
            .iter()
            .map(|r| r.status().as_u16())
            .collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409, 409, 409], "{backend:?}");

        let signups = (0..4).map(|i| {
            send(
                &app,
                Method::POST,
                "/api/auth/signup",
                None,
                Some(
                    json!({"email": "twin@moat.example", "password": helpers::PASSWORD,
                            "nickname": format!("twin{i}")}),
                ),
            )
        });
        let mut statuses: Vec<u16> = join_all(signups)
            .await
            .iter()
            .map(|r| r.status().as_u16())
            .collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409, 409, 409], "{backend:?}");

        let lists: Vec<Vec<&str>> = vec![
            vec!["KRX:005930", "NASDAQ:AAPL", "NASDAQ:MSFT"],
            vec!["NASDAQ:MSFT", "KRX:000660"],
            vec!["NASDAQ:AAPL", "KRX:005930", "KRX:000660", "NASDAQ:NVDA"],
            vec!["KRX:035420"],
        ];
        let puts = lists.iter().cycle().take(12).map(|ids| {
            send(
                &app,
                Method::PUT,
                "/api/me/favorites",
                Some(&token),
                Some(json!({"ids": ids})),
            )
        });
        for r in join_all(puts).await {
            assert_eq!(r.status(), 200, "{backend:?}: {}", r.text().await.unwrap());
        }
        let now = member_json(&app, &token, "/api/me/favorites").await;
        let now: Vec<&str> = now
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap())
            .collect();
        assert!(
            lists.contains(&now),
            "{backend:?}: {now:?} is one list sent"
        );
    }
}

/// Issue 14's reproduction: an empty KRW portfolio buys 삼성전자 10 @ ₩52,000 on
/// 2025-02-03, then Microsoft 3 @ $410 (or $650) on 2025-02-04. The time-weighted return is the
/// chain of each day's gain over the money at work (flows at the start of the day), as
/// recomputed here from the points the server sends; it is above −100 % even with the
/// Microsoft buy far above its price; the meta portfolio's lies between the two
/// portfolios'; the chart's cumulative return ends at the since-inception TWR.
#[tokio::test]
async fn fill_prices_away_from_the_close_give_a_sane_time_weighted_return() {
    // Two years of stored daily prices and USD/KRW rates, back past February 2025.
    let app = TestApp::spawn_with(TestDatabase::sqlite(), |c| c.market.backfill_years = 2).await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(120);
    while app
        .get("/api/fx/USDKRW?from=2025-02-03&to=2025-02-04")
        .await
        .json::<Value>()
        .await
        .unwrap()["rates"]
        .as_array()
        .unwrap()
        .is_empty()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no USD/KRW history two minutes after start"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let token = signup(&app, "repro@moat.example", "repro").await;
    // $410 as in the report, and $650: 30 % above Microsoft's price today ($500), far
    // above its simulated close in February 2025.
    for (i, price) in ["410", "650"].iter().enumerate() {
        let id = create_portfolio(&app, &token, &format!("Repro {i}"), "KRW").await;
        let price = Decimal::from_str(price).unwrap();
        for tx in [
            buy("2025-02-03", "10", "52000"),
            json!({"kind": "buy", "trade_date": "2025-02-04", "instrument_id": "NASDAQ:MSFT",
                   "quantity": "3", "price": price.to_string(), "fx_rate": "1460", "currency": "USD"}),
        ] {
            let r = add_transaction(&app, &token, id, &tx).await;
            assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
        }
        let p = member_json(&app, &token, &format!("/api/portfolios/{id}/performance")).await;
        let points = p["points"].as_array().unwrap();
        // The chart's base is the day before the first trade, at 0 %.
        assert_eq!(points[0]["date"], "2025-02-02");
        assert_eq!(dec(&points[0]["cumulative_return"]), Decimal::ZERO);
        assert_eq!(dec(&points[2]["flow"]), price * Decimal::from(3 * 1460));
        let mut growth = Decimal::ONE;
        for pair in points.windows(2) {
            let (v0, v1, f) = (
                dec(&pair[0]["value"]),
                dec(&pair[1]["value"]),
                dec(&pair[1]["flow"]),
            );
            if v0 + f > Decimal::ZERO {
                growth *= Decimal::ONE + (v1 - v0 - f) / (v0 + f);
            }
        }
        let all = p["periods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["period"] == "ALL")
            .unwrap();
        let twr = dec(&all["twr"]);
        let expected = (growth - Decimal::ONE) * Decimal::ONE_HUNDRED;
        // The points are rounded to the won: the chain of rounded values agrees to
        // a hundredth of a per cent.
        assert!(
            (twr - expected).abs() < Decimal::new(1, 2),
            "at ${price}: TWR {twr} vs the chain of the points {expected}"
        );
        assert!(twr > Decimal::from(-100), "at ${price}: {twr}");
        let last = points.last().unwrap();
        assert!((dec(&last["cumulative_return"]) - twr).abs() < Decimal::new(1, 3));
        assert!(last["benchmark_return"].is_string());
        // Day 2 is a mean of the parts' returns: 삼성전자 from its close, Microsoft
        // from its fill price; below Samsung's, since Microsoft lost from its fill.
        let day2 = (dec(&points[2]["value"]) - dec(&points[1]["value"]) - dec(&points[2]["flow"]))
            / (dec(&points[1]["value"]) + dec(&points[2]["flow"]));
        assert!(day2 > Decimal::from(-1));
    }
    // The meta portfolio combines the two; on a day both hold, its return is between
    // theirs, and its TWR is between their TWRs.
    let twr_of = |p: &Value| {
        dec(&p["periods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["period"] == "ALL")
            .unwrap()["twr"])
    };
    let list = member_json(&app, &token, "/api/portfolios").await;
    let ids: Vec<i64> = list["portfolios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["portfolio"]["id"].as_i64().unwrap())
        .collect();
    let a = twr_of(
        &member_json(
            &app,
            &token,
            &format!("/api/portfolios/{}/performance", ids[0]),
        )
        .await,
    );
    let b = twr_of(
        &member_json(
            &app,
            &token,
            &format!("/api/portfolios/{}/performance", ids[1]),
        )
        .await,
    );
    let meta = twr_of(&member_json(&app, &token, "/api/portfolios/meta/performance").await);
    assert!(
        meta >= a.min(b) - Decimal::new(1, 2) && meta <= a.max(b) + Decimal::new(1, 2),
        "meta {meta} between {a} and {b}"
    );
}
