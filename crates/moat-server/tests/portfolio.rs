//! The portfolio API over HTTP (docs/portfolio.md): a worked example to the won,
//! validation that stores nothing, another member's portfolio as a 404, import and
//! export round trips, and the meta portfolio.

mod helpers;

use helpers::{
    add_transaction, assert_error, create_portfolio, has_field_error, member_json, send, signup,
    TestApp,
};
use reqwest::Method;
use serde_json::{json, Value};

/// Deposit 2,000,000; buy 10 @ 70,000 (fee 1,000); buy 10 @ 80,000 (fee 1,000); sell 5
/// @ 90,000 (fee 500, tax 900).
async fn samsung_trades(app: &TestApp, token: &str, id: i64) {
    let txs = [
        json!({"kind": "deposit", "trade_date": "2024-01-02", "quantity": "1", "price": "2000000", "currency": "KRW"}),
        json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "KRX:005930", "quantity": "10", "price": "70000", "fee": "1000", "currency": "KRW"}),
        json!({"kind": "buy", "trade_date": "2024-02-01", "instrument_id": "KRX:005930", "quantity": "10", "price": "80000", "fee": "1000", "currency": "KRW"}),
        json!({"kind": "sell", "trade_date": "2024-03-04", "instrument_id": "KRX:005930", "quantity": "5", "price": "90000", "fee": "500", "tax": "900", "currency": "KRW"}),
    ];
    for tx in txs {
        let r = add_transaction(app, token, id, &tx).await;
        assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    }
}

#[tokio::test]
async fn a_worked_example_to_the_won_with_both_cost_methods() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "a@moat.example", "alice").await;
    let id = create_portfolio(&app, &token, "키움", "KRW").await;
    samsung_trades(&app, &token, id).await;

    let v = member_json(&app, &token, &format!("/api/portfolios/{id}/valuation")).await;
    let h = &v["holdings"][0];
    assert_eq!(h["instrument"], "KRX:005930");
    assert_eq!(h["name_ko"], "삼성전자");
    assert_eq!(h["quantity"], "15");
    // Moving average: 1,502,000 for 20 shares is 75,100 a share; 5 sold leave 1,126,500.
    assert_eq!(h["average_cost"], "75100");
    assert_eq!(h["cost_basis"], "1126500");
    // Proceeds 450,000 − 500 − 900 = 448,600 against 375,500 of cost.
    assert_eq!(h["realised_gain"], "73100");
    assert_eq!(v["totals"]["cash"], "946600");

    // FIFO: the sell takes half the first lot (350,500): realised 98,100.
    let r = send(
        &app,
        Method::PATCH,
        &format!("/api/portfolios/{id}"),
        Some(&token),
        Some(json!({"cost_method": "fifo"})),
    )
    .await;
    assert_eq!(r.status(), 200);
    let v = member_json(&app, &token, &format!("/api/portfolios/{id}/valuation")).await;
    assert_eq!(v["holdings"][0]["cost_basis"], "1151500");
    assert_eq!(v["holdings"][0]["realised_gain"], "98100");
    app.stop().await.unwrap();
}

#[tokio::test]
async fn invalid_transactions_name_their_field_and_store_nothing() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "a@moat.example", "alice").await;
    let id = create_portfolio(&app, &token, "Main", "KRW").await;
    samsung_trades(&app, &token, id).await;
    // 15 held; sell 12 more, leaving 3.
    let sell = json!({"kind": "sell", "trade_date": "2024-03-06", "instrument_id": "KRX:005930", "quantity": "12", "price": "91000", "currency": "KRW"});
    assert_eq!(add_transaction(&app, &token, id, &sell).await.status(), 201);
    let path = format!("/api/portfolios/{id}/transactions");
    let before = member_json(&app, &token, &path).await;

    let cases = [
        (
            json!({"kind": "borrow", "trade_date": "2024-01-02", "currency": "KRW"}),
            "kind",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-13-40", "instrument_id": "KRX:005930", "quantity": "1", "price": "1", "currency": "KRW"}),
            "trade_date",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "KRX:005930", "quantity": "ten", "price": "1", "currency": "KRW"}),
            "quantity",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "KRX:999999", "quantity": "1", "price": "1", "currency": "KRW"}),
            "instrument_id",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "KRX:005930", "quantity": "1.5", "price": "70000", "currency": "KRW"}),
            "quantity",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "NASDAQ:AAPL", "quantity": "1", "price": "180", "currency": "USD"}),
            "fx_rate",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "KRX:005930", "quantity": "-1", "price": "70000", "currency": "KRW"}),
            "quantity",
        ),
        (
            json!({"kind": "deposit", "trade_date": "2999-01-02", "quantity": "1", "price": "5", "currency": "KRW"}),
            "trade_date",
        ),
        (
            json!({"kind": "buy", "trade_date": "2024-01-02", "instrument_id": "KRX:005930", "quantity": "1", "price": "0", "currency": "KRW"}),
            "price",
        ),
        // Before the instrument's price history (simulated history starts in 2000).
        (
            json!({"kind": "buy", "trade_date": "1999-12-01", "instrument_id": "KRX:005930", "quantity": "1", "price": "1000", "currency": "KRW"}),
            "trade_date",
        ),
        // More than is held at the date.
        (
            json!({"kind": "sell", "trade_date": "2024-03-05", "instrument_id": "KRX:005930", "quantity": "16", "price": "90000", "currency": "KRW"}),
            "quantity",
        ),
    ];
    for (tx, field) in cases {
        let body = assert_error(
            add_transaction(&app, &token, id, &tx).await,
            422,
            "invalid_input",
        )
        .await;
        assert!(has_field_error(&body, field), "{tx} → {body}");
    }
    // The refusal names its reason and values, for the page to word in its language.
    let body = assert_error(
        add_transaction(
            &app,
            &token,
            id,
            &json!({"kind": "sell", "trade_date": "2024-03-05", "instrument_id": "KRX:005930", "quantity": "16", "price": "90000", "currency": "KRW"}),
        )
        .await,
        422,
        "invalid_input",
    )
    .await;
    assert_eq!(
        body["fields"]["quantity"]["code"], "insufficient_quantity",
        "{body}"
    );
    assert_eq!(
        body["fields"]["quantity"]["params"],
        json!({"instrument": "KRX:005930", "quantity": "16", "held": "15", "date": "2024-03-05"}),
        "{body}"
    );
    // Deleting the first buy would leave the sells (17 shares) with only 10 bought.
    let first_buy = before.as_array().unwrap()[1]["id"].as_i64().unwrap();
    let r = send(
        &app,
        Method::DELETE,
        &format!("{path}/{first_buy}"),
        Some(&token),
        None,
    )
    .await;
    let body = assert_error(r, 422, "invalid_input").await;
    assert!(has_field_error(&body, "quantity"), "{body}");
    assert_eq!(
        member_json(&app, &token, &path).await,
        before,
        "nothing changed"
    );

    // Bad parameters are 400s.
    assert_error(
        send(&app, Method::GET, "/api/portfolios/abc", Some(&token), None).await,
        400,
        "invalid_parameter",
    )
    .await;
    assert_error(
        send(
            &app,
            Method::GET,
            &format!("/api/portfolios/{id}/valuation?currency=EUR"),
            Some(&token),
            None,
        )
        .await,
        400,
        "invalid_parameter",
    )
    .await;
    app.stop().await.unwrap();
}

#[tokio::test]
async fn another_members_portfolio_is_not_found_and_unchanged() {
    let app = TestApp::spawn().await;
    let alice = signup(&app, "a@moat.example", "alice").await;
    let bob = signup(&app, "b@moat.example", "bob").await;
    let id = create_portfolio(&app, &alice, "Alice's", "KRW").await;
    samsung_trades(&app, &alice, id).await;
    let tx_path = format!("/api/portfolios/{id}/transactions");
    let before = member_json(&app, &alice, &tx_path).await;
    let tx_id = before[0]["id"].as_i64().unwrap();
    let deposit = json!({"kind": "deposit", "trade_date": "2024-01-02", "quantity": "1", "price": "5", "currency": "KRW"});

    for (method, path, body) in [
        (Method::GET, format!("/api/portfolios/{id}"), None),
        (
            Method::PATCH,
            format!("/api/portfolios/{id}"),
            Some(json!({"name": "mine"})),
        ),
        (Method::DELETE, format!("/api/portfolios/{id}"), None),
        (Method::GET, tx_path.clone(), None),
        (Method::POST, tx_path.clone(), Some(deposit.clone())),
        (
            Method::PUT,
            format!("{tx_path}/{tx_id}"),
            Some(deposit.clone()),
        ),
        (Method::DELETE, format!("{tx_path}/{tx_id}"), None),
        (Method::GET, format!("/api/portfolios/{id}/valuation"), None),
        (
            Method::GET,
            format!("/api/portfolios/{id}/performance"),
            None,
        ),
        (
            Method::GET,
            format!("/api/portfolios/{id}/export.csv"),
            None,
        ),
    ] {
        let r = send(&app, method.clone(), &path, Some(&bob), body).await;
        assert_error(r, 404, "not_found").await;
    }
    let r = app
        .client
        .post(app.url(&format!("/api/portfolios/{id}/import")))
        .bearer_auth(&bob)
        .body("date,type,quantity,price,currency\n2024-01-02,deposit,1,5,KRW\n")
        .send()
        .await
        .unwrap();
    assert_error(r, 404, "not_found").await;
    // Bob's own list and meta portfolio know nothing of Alice's.
    let list = member_json(&app, &bob, "/api/portfolios").await;
    assert_eq!(list["portfolios"], json!([]));
    let meta = member_json(&app, &bob, "/api/portfolios/meta/valuation").await;
    assert_eq!(meta["holdings"], json!([]));
    assert_eq!(member_json(&app, &alice, &tx_path).await, before);
    assert_eq!(
        member_json(&app, &alice, &format!("/api/portfolios/{id}")).await["name"],
        "Alice's"
    );
    // Alice's export carries her portfolio; Bob's does not.
    let export = member_json(&app, &alice, "/api/me/export").await;
    assert_eq!(export["portfolios"][0]["portfolio"]["name"], "Alice's");
    assert_eq!(export["portfolios"][0]["transactions"], before);
    assert_eq!(
        member_json(&app, &bob, "/api/me/export").await["portfolios"],
        json!([])
    );
    // Without a token: 401.
    assert_error(app.get("/api/portfolios").await, 401, "unauthenticated").await;
    app.stop().await.unwrap();
}

#[tokio::test]
async fn import_previews_bad_rows_applies_all_or_nothing_and_round_trips() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "a@moat.example", "alice").await;
    let id = create_portfolio(&app, &token, "Source", "KRW").await;
    samsung_trades(&app, &token, id).await;
    let import = |id: i64, path: &'static str, body: String| {
        app.client
            .post(app.url(&format!("/api/portfolios/{id}/{path}")))
            .bearer_auth(&token)
            .header("content-type", "text/csv")
            .body(body)
            .send()
    };

    // A file with two bad rows: the preview names both; the import stores nothing.
    let bad = "일자,종류,종목,수량,단가,통화\n2024-05-02,매수,KRX:005930,1,70000,KRW\n2024-05-03,매수,KRX:005930,abc,70000,KRW\n2024-99-01,매도,KRX:005930,1,70000,KRW\n2999-01-02,입금,,1,5,KRW\n1999-06-01,매수,KRX:005930,1,1000,KRW\n";
    let preview: Value = import(id, "import/preview", bad.into())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let rows: Vec<i64> = preview["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_i64().unwrap())
        .collect();
    assert_eq!(rows, [3, 4, 5, 6], "{preview}");
    let before_history = &preview["errors"][3];
    assert_eq!(before_history["column"], "date", "{preview}");
    assert!(
        before_history["message"]
            .as_str()
            .unwrap()
            .contains("starts on 2000-01-03"),
        "{preview}"
    );
    let r = import(id, "import", bad.into()).await.unwrap();
    assert_eq!(r.status(), 422);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], "invalid_import");
    assert_eq!(body["errors"].as_array().unwrap().len(), 4);
    let tx_path = format!("/api/portfolios/{id}/transactions");
    assert_eq!(
        member_json(&app, &token, &tx_path)
            .await
            .as_array()
            .unwrap()
            .len(),
        4
    );

    // Export, then import into an empty portfolio: the same holdings.
    let csv = send(
        &app,
        Method::GET,
        &format!("/api/portfolios/{id}/export.csv"),
        Some(&token),
        None,
    )
    .await
    .text()
    .await
    .unwrap();
    let copy = create_portfolio(&app, &token, "Copy", "KRW").await;
    let r: Value = import(copy, "import", csv.clone())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["imported"], 4, "{r}");
    let holdings = |id: i64| {
        let path = format!("/api/portfolios/{id}/valuation");
        let app = &app;
        let token = &token;
        async move {
            let v = member_json(app, token, &path).await;
            (
                v["holdings"].clone(),
                v["totals"]["cash"].clone(),
                v["totals"]["realised_gain"].clone(),
            )
        }
    };
    assert_eq!(holdings(copy).await, holdings(id).await);
    // The same file again: every row is a duplicate, nothing added.
    let r: Value = import(copy, "import", csv)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (r["imported"].as_i64(), r["skipped_duplicates"].as_i64()),
        (Some(0), Some(4))
    );

    // A file larger than the instance's body limit (64 KiB in tests) is still taken, up
    // to 5 MB; beyond that, 413.
    let mut big = String::from("date,type,quantity,price,currency\n");
    while big.len() < 200 * 1024 {
        big += "2024-01-02,deposit,1,5,KRW\n";
    }
    let r = import(copy, "import/preview", big).await.unwrap();
    assert_eq!(r.status(), 200);
    let huge = "x".repeat(6 * 1024 * 1024);
    assert_eq!(
        import(copy, "import/preview", huge).await.unwrap().status(),
        413
    );

    // The meta portfolio is the sum of its parts.
    let meta = member_json(&app, &token, "/api/portfolios/meta/valuation").await;
    assert_eq!(meta["totals"]["cost_basis"], "2253000");
    assert_eq!(meta["totals"]["cash"], "1893200");
    let list = member_json(&app, &token, "/api/portfolios").await;
    assert_eq!(list["meta"]["cost_basis"], "2253000");
    assert_eq!(list["portfolios"].as_array().unwrap().len(), 2);
    app.stop().await.unwrap();
}

#[tokio::test]
async fn performance_gives_daily_values_and_every_period() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "a@moat.example", "alice").await;
    let id = create_portfolio(&app, &token, "Main", "KRW").await;
    samsung_trades(&app, &token, id).await;
    let p = member_json(&app, &token, &format!("/api/portfolios/{id}/performance")).await;
    assert_eq!(p["currency"], "KRW");
    assert_eq!(p["benchmark"], "INDEX:KOSPI");
    let points = p["points"].as_array().unwrap();
    assert!(points.len() > 500, "a point per day since 2024-01-01");
    assert!(points.iter().any(|p| p["benchmark_return"].is_string()));
    assert!(points.iter().all(|p| p["cumulative_return"].is_string()));
    let periods: Vec<&str> = p["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["period"].as_str().unwrap())
        .collect();
    assert_eq!(periods, ["1M", "3M", "YTD", "1Y", "ALL"]);
    assert_error(
        send(
            &app,
            Method::GET,
            &format!("/api/portfolios/{id}/performance?benchmark=KRX:005930"),
            Some(&token),
            None,
        )
        .await,
        400,
        "invalid_parameter",
    )
    .await;
    let a = member_json(
        &app,
        &token,
        &format!("/api/portfolios/{id}/allocation?by=sector"),
    )
    .await;
    assert!(
        a.as_array()
            .unwrap()
            .iter()
            .any(|s| s["key"] == "Information Technology"),
        "{a}"
    );
    app.stop().await.unwrap();
}

#[tokio::test]
async fn the_dividend_calendar_filters_by_country_and_checks_its_range() {
    let app = TestApp::spawn().await;
    let app_ref = &app;
    let cal = |q: String| async move { app_ref.get(&format!("/api/dividends/calendar?{q}")).await };
    let today = chrono::Utc::now().date_naive();
    let from = today;
    let to = today + chrono::Duration::days(120);
    let r = cal(format!("from={from}&to={to}&country=KR")).await;
    assert_eq!(r.status(), 200);
    let kr: Vec<Value> = r.json().await.unwrap();
    assert!(!kr.is_empty(), "Korean dividends in the next four months");
    for d in &kr {
        assert!(
            d["instrument_id"].as_str().unwrap().starts_with("KRX:"),
            "{d}"
        );
        let ex = d["ex_date"].as_str().unwrap().to_owned();
        let pay = d["pay_date"].as_str().map(str::to_owned);
        let inside = |s: &str| s >= from.to_string().as_str() && s <= to.to_string().as_str();
        assert!(inside(&ex) || pay.as_deref().is_some_and(inside), "{d}");
        assert!(d["name_ko"].as_str().is_some_and(|n| !n.is_empty()));
    }
    let us: Vec<Value> = cal(format!("from={from}&to={to}&country=US"))
        .await
        .json()
        .await
        .unwrap();
    assert!(!us.is_empty());
    assert!(us
        .iter()
        .all(|d| !d["instrument_id"].as_str().unwrap().starts_with("KRX:")));
    for q in [
        "country=JP",
        "from=2026-13-01",
        "from=2026-05-01&to=2026-04-01",
        "from=2026-01-01&to=2027-06-01",
    ] {
        assert_error(cal(q.to_owned()).await, 400, "invalid_parameter").await;
    }
    // One instrument's dividends; an unknown one is a 404.
    let r = app.get("/api/instruments/KRX:005930/dividends").await;
    let list: Vec<Value> = r.json().await.unwrap();
    assert!(list.len() >= 4, "Samsung pays quarterly: {list:?}");
    assert_error(
        app.get("/api/instruments/KRX:999999/dividends").await,
        404,
        "not_found",
    )
    .await;
    app.stop().await.unwrap();
}

#[tokio::test]
async fn a_members_dividends_offer_entitlements_until_recorded() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "a@moat.example", "alice").await;
    assert_error(app.get("/api/me/dividends").await, 401, "unauthenticated").await;
    let id = create_portfolio(&app, &token, "Main", "KRW").await;
    let bought = chrono::Utc::now().date_naive() - chrono::Duration::days(400);
    let buy = json!({"kind": "buy", "trade_date": bought.to_string(), "instrument_id": "KRX:005930", "quantity": "100", "price": "70000", "currency": "KRW"});
    assert_eq!(add_transaction(&app, &token, id, &buy).await.status(), 201);

    let mine = member_json(&app, &token, "/api/me/dividends").await;
    let owed = mine["entitlements"].as_array().unwrap();
    assert!(owed.len() >= 3, "a year of quarterly dividends: {mine}");
    let e = &owed[0];
    assert_eq!(e["quantity"], "100");
    // Korean dividends to residents: 15.4 % withheld.
    let gross: rust_decimal::Decimal = e["gross"].as_str().unwrap().parse().unwrap();
    let tax: rust_decimal::Decimal = e["tax"].as_str().unwrap().parse().unwrap();
    assert_eq!(tax, (gross * rust_decimal::Decimal::new(154, 3)).round());
    let projection = mine["projection"].as_array().unwrap();
    assert_eq!(projection.len(), 12);
    assert!(projection.iter().any(|m| m["gross"] != "0"));
    assert!(
        mine["trailing_yield"].is_string() && mine["yield_on_cost"].is_string(),
        "{mine}"
    );

    // Recording it (one tap in the app) takes it off the list.
    let record = json!({"kind": "dividend", "trade_date": e["pay_date"], "instrument_id": "KRX:005930",
        "quantity": e["quantity"], "price": e["per_share"], "tax": e["tax"], "currency": "KRW"});
    assert_eq!(
        add_transaction(&app, &token, id, &record).await.status(),
        201
    );
    let after = member_json(&app, &token, "/api/me/dividends").await;
    assert_eq!(
        after["entitlements"].as_array().unwrap().len(),
        owed.len() - 1
    );
    assert_eq!(after["received"][0]["net"], e["net"]);
    assert_error(
        send(
            &app,
            Method::GET,
            "/api/me/dividends?currency=EUR",
            Some(&token),
            None,
        )
        .await,
        400,
        "invalid_parameter",
    )
    .await;
    app.stop().await.unwrap();
}

/// Two servers on one database (the scale-out setup): each keeps decoded transactions
/// between requests, and a write through one is seen by the next read through the
/// other, for a portfolio's valuation, the list and the meta portfolio.
#[tokio::test]
async fn a_write_through_one_instance_is_read_by_another() {
    // The instances share the database and the token key, as a deployment would.
    const KEY: &str = "bW9hdCBwb3J0Zm9saW8gdGVzdHMgc2hhcmUgYSAzMi1ieXRlIGtleSE=";
    let a = TestApp::spawn_with(moat_storage::testing::TestDatabase::sqlite(), |c| {
        c.accounts.token_key = KEY.into()
    })
    .await;
    let url = a.db.url.clone();
    let b = TestApp::spawn_with(moat_storage::testing::TestDatabase::sqlite(), |c| {
        c.database_url = url;
        c.accounts.token_key = KEY.into();
    })
    .await;
    let token = signup(&a, "a@moat.example", "alice").await;
    let id = create_portfolio(&a, &token, "Main", "KRW").await;
    samsung_trades(&a, &token, id).await;
    let quantity = |v: &Value| v["holdings"][0]["quantity"].as_str().unwrap().to_owned();
    let valuation = format!("/api/portfolios/{id}/valuation");
    // Both instances read (and keep) the ledger: 15 shares.
    assert_eq!(quantity(&member_json(&a, &token, &valuation).await), "15");
    assert_eq!(quantity(&member_json(&b, &token, &valuation).await), "15");
    let meta_cash = |v: &Value| v["portfolios"][0]["totals"]["cash"].clone();
    let list_before = member_json(&b, &token, "/api/portfolios").await;

    // A buy through A: B's next reads see it.
    let buy = json!({"kind": "buy", "trade_date": "2024-04-01", "instrument_id": "KRX:005930", "quantity": "2", "price": "75000", "currency": "KRW"});
    assert_eq!(add_transaction(&a, &token, id, &buy).await.status(), 201);
    assert_eq!(quantity(&member_json(&b, &token, &valuation).await), "17");
    assert_eq!(
        quantity(&member_json(&b, &token, "/api/portfolios/meta/valuation").await),
        "17"
    );
    let list_after = member_json(&b, &token, "/api/portfolios").await;
    assert_ne!(
        meta_cash(&list_before),
        meta_cash(&list_after),
        "{list_after}"
    );

    // Deleting it through B: A's next read sees 15 again.
    let txs = member_json(&b, &token, &format!("/api/portfolios/{id}/transactions")).await;
    let last = txs.as_array().unwrap().last().unwrap()["id"]
        .as_i64()
        .unwrap();
    let r = send(
        &b,
        Method::DELETE,
        &format!("/api/portfolios/{id}/transactions/{last}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status(), 204);
    assert_eq!(quantity(&member_json(&a, &token, &valuation).await), "15");
    b.stop().await.unwrap();
    a.stop().await.unwrap();
}

/// Imports are bounded (issue 14 §3): a 175,000-row file (5 MB) is refused as too many
/// rows without being read to its end; a body past 5 MB without a declared length is
/// refused too; a file at the 20,000-row cap is previewed as a summary with its first
/// 100 rows and every error, not sent back whole. A bad body changes nothing.
#[tokio::test]
async fn imports_are_bounded_and_previews_are_summaries() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "caps@moat.example", "caps").await;
    let id = create_portfolio(&app, &token, "Caps", "KRW").await;
    let post = |body: reqwest::Body, path: &'static str| {
        app.client
            .post(app.url(&format!("/api/portfolios/{id}/{path}")))
            .bearer_auth(&token)
            .header("content-type", "text/csv")
            .body(body)
            .send()
    };
    let header = "date,type,quantity,price,currency\n";
    let row = "2024-01-02,deposit,1,5,KRW\n";
    let many = format!("{header}{}", row.repeat(175_000));
    assert!(many.len() < 5 * 1024 * 1024);
    for path in ["import/preview", "import"] {
        let r = post(many.clone().into(), path).await.unwrap();
        assert_error(r, 413, "too_many_rows").await;
    }
    // Chunked, with no length declared: 6 MB of one long row.
    let chunks: Vec<Result<http_body::Frame<bytes::Bytes>, std::io::Error>> =
        std::iter::once(header.to_owned())
            .chain((0..96).map(|_| "x".repeat(64 * 1024)))
            .map(|c| Ok(http_body::Frame::data(bytes::Bytes::from(c))))
            .collect();
    let body = reqwest::Body::wrap(http_body_util::StreamBody::new(futures_util::stream::iter(
        chunks,
    )));
    assert_error(
        post(body, "import/preview").await.unwrap(),
        413,
        "payload_too_large",
    )
    .await;

    // At the cap: a summary.
    let mut at_cap = String::from(header);
    for i in 0..csv_cap() {
        // One bad row in every thousand.
        if i % 1000 == 999 {
            at_cap += "2024-01-02,deposit,x,5,KRW\n";
        } else {
            at_cap += row;
        }
    }
    let r = post(at_cap.into(), "import/preview").await.unwrap();
    assert_eq!(r.status(), 200);
    let p: Value = r.json().await.unwrap();
    assert_eq!(p["format"], "moat");
    assert_eq!(p["total_rows"], csv_cap() - csv_cap() / 1000);
    assert_eq!(p["new_rows"], p["total_rows"]);
    assert_eq!(p["duplicate_rows"], 0);
    assert_eq!(p["first_date"], "2024-01-02");
    assert_eq!(p["rows"].as_array().unwrap().len(), 100);
    assert_eq!(p["errors"].as_array().unwrap().len(), csv_cap() / 1000);
    assert_eq!(p["errors"][0]["line"], 1001);
    assert_eq!(p["errors"][0]["column"], "quantity");
    // Nothing stored by any of it.
    let txs = member_json(&app, &token, &format!("/api/portfolios/{id}/transactions")).await;
    assert!(txs.as_array().unwrap().is_empty());
}

fn csv_cap() -> usize {
    moat_portfolio::csv_file::MAX_IMPORT_ROWS
}

/// Checks `value` against `schema` of the OpenAPI document `doc`: every key of an
/// object is a documented property, every required one is there, and strings, numbers,
/// booleans and nulls are where the schema says. Problems are pushed as `at: why`.
fn check_against(doc: &Value, schema: &Value, value: &Value, at: &str, problems: &mut Vec<String>) {
    if let Some(name) = schema["$ref"]
        .as_str()
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
    {
        return check_against(
            doc,
            &doc["components"]["schemas"][name],
            value,
            at,
            problems,
        );
    }
    if let Some(parts) = schema["oneOf"].as_array() {
        let fits = parts.iter().any(|p| {
            let mut inner = Vec::new();
            check_against(doc, p, value, at, &mut inner);
            inner.is_empty()
        });
        if !fits {
            problems.push(format!("{at}: {value} fits none of {schema}"));
        }
        return;
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(|t| t.as_str()).collect(),
        _ => {
            problems.push(format!("{at}: untyped schema {schema}"));
            return;
        }
    };
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let fits = types.contains(&kind) || (kind == "integer" && types.contains(&"number"));
    if !fits {
        problems.push(format!("{at}: a {kind} where the schema says {types:?}"));
        return;
    }
    match value {
        Value::Object(fields) => {
            let props = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for (key, v) in fields {
                match props.get(key) {
                    Some(s) => check_against(doc, s, v, &format!("{at}.{key}"), problems),
                    None => problems.push(format!("{at}.{key}: not in the schema")),
                }
            }
            for req in schema["required"].as_array().into_iter().flatten() {
                let req = req.as_str().unwrap();
                if !fields.contains_key(req) {
                    problems.push(format!("{at}.{req}: required but missing"));
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                check_against(doc, &schema["items"], v, &format!("{at}[{i}]"), problems);
            }
        }
        _ => {}
    }
}

/// The answers the OpenAPI document once left as `Object` (valuation, performance,
/// allocation, the member's dividends, the list's totals) are exactly what their
/// schemas say, with holdings, cash, periods, received dividends and empty figures.
#[tokio::test]
async fn the_answers_match_their_documented_schemas() {
    let app = TestApp::spawn().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let token = signup(&app, "schema@moat.example", "schema").await;
    let id = create_portfolio(&app, &token, "키움", "KRW").await;
    let empty = create_portfolio(&app, &token, "Empty", "USD").await;
    samsung_trades(&app, &token, id).await;
    let dividend = json!({"kind": "dividend", "trade_date": "2024-04-19", "instrument_id": "KRX:005930", "quantity": "15", "price": "361", "currency": "KRW"});
    let r = add_transaction(&app, &token, id, &dividend).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let reads = [
        ("/api/portfolios", "/api/portfolios".to_owned()),
        (
            "/api/portfolios/{id}/valuation",
            format!("/api/portfolios/{id}/valuation"),
        ),
        (
            "/api/portfolios/{id}/valuation",
            "/api/portfolios/meta/valuation".to_owned(),
        ),
        (
            "/api/portfolios/{id}/valuation",
            format!("/api/portfolios/{empty}/valuation"),
        ),
        (
            "/api/portfolios/{id}/performance",
            format!("/api/portfolios/{id}/performance"),
        ),
        (
            "/api/portfolios/{id}/performance",
            format!("/api/portfolios/{empty}/performance"),
        ),
        (
            "/api/portfolios/{id}/allocation",
            format!("/api/portfolios/{id}/allocation?by=sector"),
        ),
        ("/api/me/dividends", "/api/me/dividends".to_owned()),
    ];
    let mut problems = Vec::new();
    for (documented, path) in reads {
        let body = member_json(&app, &token, &path).await;
        let schema = &doc["paths"][documented]["get"]["responses"]["200"]["content"]
            ["application/json"]["schema"];
        check_against(&doc, schema, &body, &path, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let v = member_json(&app, &token, &format!("/api/portfolios/{id}/valuation")).await;
    assert_eq!(v["holdings"][0]["sector"], "Information Technology", "{v}");
    let d = member_json(&app, &token, "/api/me/dividends").await;
    assert_eq!(d["received"][0]["gross"], "5415", "{d}");
    app.stop().await.unwrap();
}

#[tokio::test]
async fn a_dividend_draft_has_the_shares_held_on_the_ex_date_and_the_withholding() {
    use rust_decimal::Decimal;
    let app = TestApp::spawn().await;
    let token = signup(&app, "a@moat.example", "alice").await;
    let id = create_portfolio(&app, &token, "Main", "KRW").await;
    let today = chrono::Utc::now().date_naive();
    let bought = today - chrono::Duration::days(400);
    let buy = json!({"kind": "buy", "trade_date": bought.to_string(), "instrument_id": "KRX:005930", "quantity": "100", "price": "70000", "currency": "KRW"});
    assert_eq!(add_transaction(&app, &token, id, &buy).await.status(), 201);
    // The last Samsung dividend already paid; 50 more shares bought on its ex-date do not count.
    let list: Vec<Value> = app
        .get("/api/instruments/KRX:005930/dividends")
        .await
        .json()
        .await
        .unwrap();
    let paid = list
        .iter()
        .filter(|d| {
            d["pay_date"]
                .as_str()
                .is_some_and(|p| p <= today.to_string().as_str())
        })
        .max_by_key(|d| d["ex_date"].as_str().unwrap().to_owned())
        .expect("a paid dividend in the past year")
        .clone();
    let more = json!({"kind": "buy", "trade_date": paid["ex_date"], "instrument_id": "KRX:005930", "quantity": "50", "price": "70000", "currency": "KRW"});
    assert_eq!(add_transaction(&app, &token, id, &more).await.status(), 201);

    let pay_date = paid["pay_date"].as_str().unwrap();
    let draft = member_json(
        &app,
        &token,
        &format!("/api/portfolios/{id}/dividend-draft?instrument=KRX:005930&date={pay_date}"),
    )
    .await;
    assert_eq!(draft["ex_date"], paid["ex_date"], "{draft}");
    assert_eq!(
        draft["quantity"], "100",
        "held the day before the ex-date: {draft}"
    );
    assert_eq!(draft["per_share"], paid["amount"]);
    assert_eq!(draft["country"], "KR");
    assert_eq!(draft["withholding_rate"], "0.154");
    let per_share: Decimal = paid["amount"].as_str().unwrap().parse().unwrap();
    let tax: Decimal = draft["tax"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        tax,
        (Decimal::from(100) * per_share * Decimal::new(154, 3)).round()
    );

    // A US stock: 15 % under the Korea–US treaty; nothing held, nothing withheld.
    let us = member_json(
        &app,
        &token,
        &format!("/api/portfolios/{id}/dividend-draft?instrument=NASDAQ:AAPL"),
    )
    .await;
    assert_eq!(us["country"], "US");
    assert_eq!(us["withholding_rate"], "0.15");
    assert_eq!(us["quantity"], "0");
    assert_eq!(us["currency"], "USD");

    // Another member's portfolio is not found; bad input is a 400.
    let other = signup(&app, "b@moat.example", "bob").await;
    assert_error(
        send(
            &app,
            Method::GET,
            &format!("/api/portfolios/{id}/dividend-draft?instrument=KRX:005930"),
            Some(&other),
            None,
        )
        .await,
        404,
        "not_found",
    )
    .await;
    for q in ["instrument=005930", "instrument=KRX:005930&date=2026-13-01"] {
        assert_error(
            send(
                &app,
                Method::GET,
                &format!("/api/portfolios/{id}/dividend-draft?{q}"),
                Some(&token),
                None,
            )
            .await,
            400,
            "invalid_parameter",
        )
        .await;
    }
    app.stop().await.unwrap();
}

/// A broker fixture of `moat-portfolio` (`tests/fixtures/brokers/`), as bytes.
fn broker_fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../moat-portfolio/tests/fixtures/brokers")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[tokio::test]
async fn broker_files_are_named_in_the_preview_and_import_their_holdings() {
    let app = TestApp::spawn().await;
    let token = signup(&app, "b@moat.example", "broker").await;
    let post = |id: i64, path: &'static str, body: Vec<u8>| {
        app.client
            .post(app.url(&format!("/api/portfolios/{id}/{path}")))
            .bearer_auth(&token)
            .header("content-type", "text/csv")
            .body(body)
            .send()
    };
    let holdings = |id: i64| {
        let path = format!("/api/portfolios/{id}/valuation");
        let app = &app;
        let token = &token;
        async move {
            let v = member_json(app, token, &path).await;
            let mut out: Vec<(String, String)> = v["holdings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| {
                    (
                        h["instrument"].as_str().unwrap().to_owned(),
                        h["quantity"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            out.sort();
            out
        }
    };
    struct Case {
        file: &'static str,
        format: &'static str,
        encoding: &'static str,
        rows: usize,
        skipped: usize,
        held: &'static [(&'static str, &'static str)],
    }
    let cases = [
        Case {
            file: "kiwoom.csv",
            format: "kiwoom",
            encoding: "euc-kr",
            rows: 6,
            skipped: 2,
            held: &[("KRX:000660", "2"), ("KRX:005930", "7")],
        },
        // Tickers resolved through the catalogue (AAPL, MSFT → NASDAQ).
        Case {
            file: "mirae.csv",
            format: "mirae",
            encoding: "utf-8",
            rows: 3,
            skipped: 1,
            held: &[("NASDAQ:AAPL", "6"), ("NASDAQ:MSFT", "2")],
        },
        Case {
            file: "kis.csv",
            format: "kis",
            encoding: "utf-8",
            rows: 3,
            skipped: 0,
            held: &[("KRX:000660", "2"), ("KRX:005930", "7")],
        },
        // A two-row header, names resolved through the catalogue.
        Case {
            file: "mirae-domestic.csv",
            format: "mirae_domestic",
            encoding: "utf-8",
            rows: 5,
            skipped: 0,
            held: &[("KRX:000660", "2"), ("KRX:005930", "7")],
        },
        // A paged report, two lines a record (EUC-KR).
        Case {
            file: "nh.csv",
            format: "nh",
            encoding: "euc-kr",
            rows: 6,
            skipped: 2,
            held: &[
                ("KRX:000660", "1"),
                ("KRX:005930", "10"),
                ("KRX:112040", "15"),
            ],
        },
    ];
    for Case {
        file,
        format,
        encoding,
        rows,
        skipped,
        held,
    } in cases
    {
        let id = create_portfolio(&app, &token, file, "KRW").await;
        let preview: Value = post(id, "import/preview", broker_fixture(file))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(preview["format"], format, "{file}: {preview}");
        assert_eq!(preview["encoding"], encoding, "{file}: {preview}");
        assert_eq!(preview["errors"], json!([]), "{file}: {preview}");
        assert_eq!(preview["new_rows"], rows, "{file}: {preview}");
        assert_eq!(
            preview["skipped"].as_array().unwrap().len(),
            skipped,
            "{file}: {preview}"
        );
        let r: Value = post(id, "import", broker_fixture(file))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(r["imported"], rows, "{file}: {r}");
        let want: Vec<(String, String)> = held
            .iter()
            .map(|(i, q)| ((*i).to_owned(), (*q).to_owned()))
            .collect();
        assert_eq!(holdings(id).await, want, "{file}");
    }

    // Bad input stores nothing: a truncated EUC-KR file, a bad number, an unknown layout.
    let id = create_portfolio(&app, &token, "Bad", "KRW").await;
    for (file, line, code) in [
        ("kiwoom-truncated.csv", 1, "invalid_encoding"),
        ("kiwoom-bad-number.csv", 3, "invalid_number"),
        ("unknown-layout.csv", 1, "missing_column"),
    ] {
        let preview: Value = post(id, "import/preview", broker_fixture(file))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(preview["errors"][0]["line"], line, "{file}: {preview}");
        assert_eq!(preview["errors"][0]["code"], code, "{file}: {preview}");
        let r = post(id, "import", broker_fixture(file)).await.unwrap();
        assert_eq!(r.status(), 422, "{file}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["code"], "invalid_import");
    }
    assert_eq!(
        member_json(&app, &token, &format!("/api/portfolios/{id}/transactions")).await,
        json!([])
    );
    app.stop().await.unwrap();
}
