//! Member data across the areas (crate::member_data): every table that names a member
//! belongs to an area with hooks, the export carries each area's part, and deleting
//! the account leaves no row that names the member. On SQLite and PostgreSQL.

mod helpers;

use std::collections::{BTreeMap, BTreeSet};

use helpers::{send, signup, TestApp, PASSWORD};
use moat_storage::testing::TestDatabase;
use reqwest::Method;
use serde_json::{json, Value};

/// Every `(table, column)` the areas declare, with the area that declares it.
fn declared(app: &TestApp) -> BTreeMap<(String, String), Vec<&'static str>> {
    let mut out: BTreeMap<(String, String), Vec<&'static str>> = BTreeMap::new();
    for (area, tables) in moat_server::member_data::member_tables(&app.state) {
        for t in tables {
            out.entry((t.table.to_owned(), t.column.to_owned()))
                .or_default()
                .push(area);
        }
    }
    out
}

#[tokio::test]
async fn every_table_that_names_a_member_belongs_to_an_area_with_hooks() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |_| {}).await;
        let declared = declared(&app);
        let found = app.db.member_columns().await;
        assert!(
            found.iter().any(|(t, _)| t == "favorites"),
            "{backend:?}: the schema scan sees member tables: {found:?}"
        );
        for (table, column) in &found {
            let owners = declared.get(&(table.clone(), column.clone()));
            assert!(
                owners.is_some_and(|o| o.len() == 1),
                "{backend:?}: {table}.{column} names a member: exactly one area must declare it \
                 in its MemberData::TABLES and register hooks (declared by {owners:?})"
            );
        }
        for ((table, column), areas) in &declared {
            // The tables an area declares exist and name a member (users.id is the member).
            let n = app.db.count_rows(table, column, "-1").await;
            assert_eq!(
                n, 0,
                "{backend:?}: {table}.{column} ({areas:?}) can be read"
            );
            assert!(
                (table == "users" && column == "id")
                    || found.contains(&(table.clone(), column.clone())),
                "{backend:?}: {areas:?} declare {table}.{column}, which does not name a member"
            );
        }
        app.stop().await.unwrap();
    }
}

/// A member with something in every area: favourites, a portfolio with a trade (sent
/// with an Idempotency-Key, so its answer is kept), a recorded session bound to them.
async fn member_with_data(app: &TestApp, email: &str, nickname: &str) -> (String, i64) {
    let token = signup(app, email, nickname).await;
    let r = send(
        app,
        Method::PUT,
        "/api/me/favorites",
        Some(&token),
        Some(json!({"ids": ["KRX:005930", "NASDAQ:AAPL"]})),
    )
    .await;
    assert_eq!(r.status(), 200);
    let r = send(
        app,
        Method::POST,
        "/api/portfolios",
        Some(&token),
        Some(json!({"name": format!("{nickname}'s"), "base_currency": "KRW"})),
    )
    .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let portfolio: Value = r.json().await.unwrap();
    let id = portfolio["id"].as_i64().unwrap();
    let r = app
        .client
        .post(app.url(&format!("/api/portfolios/{id}/transactions")))
        .bearer_auth(&token)
        .header("idempotency-key", format!("key-{nickname}"))
        .json(&json!({"kind": "deposit", "trade_date": "2024-01-02", "quantity": "1", "price": "1000000", "currency": "KRW"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let secure_id = format!("rec-{nickname}");
    let r = app
        .client
        .post(app.url("/public"))
        .json(&json!({
            "operationName": "initializeSession",
            "query": "mutation initializeSession($session_secure_id: String!, $organization_verbose_id: String!) { initializeSession(session_secure_id: $session_secure_id, organization_verbose_id: $organization_verbose_id) { secure_id project_id } }",
            "variables": {"session_secure_id": secure_id, "organization_verbose_id": "moat",
                          "clientVersion": "9.20.0", "environment": "production"},
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let r = send(
        app,
        Method::PUT,
        &format!("/api/observe/sessions/{secure_id}/member"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.status(), 204, "{}", r.text().await.unwrap());
    let me: Value = send(app, Method::GET, "/api/me", Some(&token), None)
        .await
        .json()
        .await
        .unwrap();
    (token, me["user_id"].as_i64().unwrap())
}

#[tokio::test]
async fn the_export_carries_every_areas_part() {
    for db in TestDatabase::all().await {
        let app = TestApp::spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = 100).await;
        let (token, _) = member_with_data(&app, "ant@x.io", "ant").await;
        member_with_data(&app, "bee@x.io", "bee").await;
        let r = send(&app, Method::GET, "/api/me/export", Some(&token), None).await;
        assert_eq!(r.status(), 200);
        let text = r.text().await.unwrap();
        let export: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(export["account"]["nickname"], "ant", "accounts: {export}");
        assert_eq!(
            export["sessions"].as_array().unwrap().len(),
            1,
            "accounts' log-in sessions"
        );
        assert_eq!(
            export["favorites"],
            json!(["KRX:005930", "NASDAQ:AAPL"]),
            "market"
        );
        assert_eq!(
            export["portfolios"][0]["portfolio"]["name"], "ant's",
            "portfolio"
        );
        assert_eq!(
            export["portfolios"][0]["transactions"][0]["kind"], "deposit",
            "portfolio: {export}"
        );
        assert_eq!(
            export["recorded_sessions"][0]["secure_id"], "rec-ant",
            "observability: {export}"
        );
        assert!(!text.contains("bee"), "nothing of another member: {text}");
        app.stop().await.unwrap();
    }
}

/// Each area's part of the export is flattened into one object: no two parts may use
/// the same key, or one would hide the other.
#[tokio::test]
async fn no_two_areas_export_the_same_key() {
    let doc: Value = serde_json::from_str(&moat_server::http::openapi_json()).unwrap();
    let schemas = &doc["components"]["schemas"];
    let parts = schemas["MemberExport"]["allOf"]
        .as_array()
        .expect("the export is all of the areas' parts");
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for part in parts {
        let (name, props) = match part["$ref"].as_str() {
            Some(r) => {
                let name = r.trim_start_matches("#/components/schemas/").to_owned();
                (name.clone(), schemas[&name]["properties"].clone())
            }
            None => ("MemberExport".to_owned(), part["properties"].clone()),
        };
        for key in props.as_object().expect("an object").keys() {
            if let Some(other) = seen.insert(key.clone(), name.clone()) {
                panic!("`{key}` is exported by both {other} and {name}");
            }
        }
    }
    assert!(seen.len() >= 7, "the parts were read: {seen:?}");
}

#[tokio::test]
async fn deleting_the_account_leaves_no_row_that_names_the_member() {
    for db in TestDatabase::all().await {
        let backend = db.backend;
        let app = TestApp::spawn_with(db, |c| c.accounts.signups_per_ip_per_hour = 100).await;
        let (token, id) = member_with_data(&app, "ant@x.io", "ant").await;
        let (_, other) = member_with_data(&app, "bee@x.io", "bee").await;
        let columns = app.db.member_columns().await;
        let count_all = |member: i64| {
            let db = &app.db;
            let columns = columns.clone();
            async move {
                let mut counts = BTreeMap::new();
                for (table, column) in &columns {
                    counts.insert(
                        format!("{table}.{column}"),
                        db.count_rows(table, column, &member.to_string()).await,
                    );
                }
                counts
            }
        };
        let before = count_all(id).await;
        for table in [
            "favorites.user_id",
            "portfolios.user_id",
            "idempotency_keys.user_id",
            "obs_sessions.user_identifier",
            "sessions.user_id",
        ] {
            assert!(
                before.get(table).copied().unwrap_or(0) > 0,
                "{backend:?}: the member has rows in {table} before: {before:?}"
            );
        }
        let others_before = count_all(other).await;
        let r = send(
            &app,
            Method::DELETE,
            "/api/me",
            Some(&token),
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(r.status(), 204, "{}", r.text().await.unwrap());
        let after = count_all(id).await;
        let left: BTreeSet<_> = after.iter().filter(|(_, n)| **n > 0).collect();
        assert!(
            left.is_empty(),
            "{backend:?}: rows still name the deleted member: {left:?}"
        );
        assert_eq!(
            app.db.count_rows("users", "id", &id.to_string()).await,
            1,
            "the tombstone stays"
        );
        assert_eq!(
            count_all(other).await,
            others_before,
            "{backend:?}: another member's data is untouched"
        );
        app.stop().await.unwrap();
    }
}
