//! The route table (`moat routes`): kept in the repository as a snapshot, and its
//! access column checked against what the server does.

mod helpers;

use helpers::{signup, TestApp};
use moat_server::http::{route_table, route_table_text, Access};
use reqwest::Method;

const SNAPSHOT: &str = "tests/snapshots/routes.txt";

#[test]
fn the_route_table_matches_its_snapshot() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        route_table_text(),
        kept,
        "the routes changed: review them, then `cargo run -p moat -- routes > crates/moat-server/{SNAPSHOT}`"
    );
}

async fn log_in(app: &TestApp, email: &str) -> String {
    let r = app
        .post_json(
            "/api/auth/login",
            &serde_json::json!({"email": email, "password": helpers::PASSWORD}).to_string(),
        )
        .await;
    assert_eq!(r.status(), 200);
    r.json::<serde_json::Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A path of the table with each `{param}` filled in.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|seg| match seg {
            "{id}" | "{tx}" | "{user_id}" => "1",
            "{trace_id}" => "0123456789abcdef0123456789abcdef",
            "{secure_id}" => "session-1",
            "{pair}" => "USDKRW",
            "{nickname}" => "nobody",
            other => other,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Without a token, member and operator routes answer 401 and visitor routes do not;
/// with a member's token, operator routes answer 403 and the others do not.
#[tokio::test]
async fn the_access_column_is_what_the_server_enforces() {
    let app = TestApp::spawn().await;
    let _operator = signup(&app, "op@x.io", "operator1").await;
    signup(&app, "ant@x.io", "ant").await;
    let mut checked = 0;
    for row in route_table() {
        if !row.path.starts_with("/api/") || row.path == "/api/stream" {
            continue;
        }
        let method: Method = row.method.parse().unwrap();
        let url = app.url(&concrete(&row.path));
        let call = |token: Option<&str>| {
            let mut req = app.client.request(method.clone(), &url);
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            if method != Method::GET && method != Method::DELETE {
                req = req.header("content-type", "application/json").body("{}");
            }
            req.send()
        };
        let anonymous = call(None).await.unwrap().status().as_u16();
        // A fresh log-in per route: a route may end the session (log-out).
        let member = log_in(&app, "ant@x.io").await;
        let as_member = call(Some(&member)).await.unwrap().status().as_u16();
        let what = format!("{} {} ({:?})", row.method, row.path, row.access);
        match row.access {
            Access::Visitor => assert_ne!(anonymous, 401, "{what} is open to visitors"),
            Access::Member => {
                assert_eq!(anonymous, 401, "{what} needs a log-in");
                assert!(
                    ![401, 403].contains(&as_member),
                    "{what} is open to members: {as_member}"
                );
            }
            Access::Operator => {
                assert_eq!(anonymous, 401, "{what} needs a log-in");
                assert_eq!(as_member, 403, "{what} is for operators only");
            }
        }
        checked += 1;
    }
    assert!(checked > 50, "every API route was tried ({checked})");
    app.stop().await.unwrap();
}
