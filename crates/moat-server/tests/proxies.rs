//! `trusted_proxies`: the client address comes from `X-Forwarded-For` only when the
//! peer is a trusted proxy, and the per-address limits (here: sign-ups per address per
//! hour) count that address. The test client's peer is 127.0.0.1.

mod helpers;

use helpers::{assert_error, TestApp};
use moat_storage::testing::TestDatabase;
use reqwest::Response;
use serde_json::json;

/// Sign-ups allowed per address per hour in these tests.
const PER_ADDRESS: u32 = 2;

async fn signup_from(app: &TestApp, n: &mut u32, forwarded: Option<&str>) -> Response {
    *n += 1;
    let mut req = app.client.post(app.url("/api/auth/signup")).json(&json!({
        "email": format!("proxy{n}@example.com"),
        "password": helpers::PASSWORD,
        "nickname": format!("proxy{n}"),
    }));
    if let Some(f) = forwarded {
        req = req.header("x-forwarded-for", f);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn a_forged_x_forwarded_for_from_an_untrusted_peer_changes_nothing() {
    let app = TestApp::spawn_with(TestDatabase::sqlite(), |c| {
        c.accounts.signups_per_ip_per_hour = PER_ADDRESS;
    })
    .await;
    let mut n = 0;
    for i in 0..PER_ADDRESS {
        let r = signup_from(&app, &mut n, Some(&format!("198.51.100.{i}"))).await;
        assert_eq!(r.status(), 201);
    }
    // A new forged address each time does not buy another sign-up: the peer counts.
    let r = signup_from(&app, &mut n, Some("198.51.100.200")).await;
    assert_error(r, 429, "rate_limited").await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget() {
    let app = TestApp::spawn_with(TestDatabase::sqlite(), |c| {
        c.accounts.signups_per_ip_per_hour = PER_ADDRESS;
        c.trusted_proxies = vec!["127.0.0.1/32".into(), "10.0.0.0/8".into()];
    })
    .await;
    let mut n = 0;
    for _ in 0..PER_ADDRESS {
        assert_eq!(
            signup_from(&app, &mut n, Some("203.0.113.5"))
                .await
                .status(),
            201
        );
    }
    assert_error(
        signup_from(&app, &mut n, Some("203.0.113.5")).await,
        429,
        "rate_limited",
    )
    .await;
    // What the client wrote to the left of what the proxy appended is not read: the
    // same client forging another address is still itself.
    let forged = signup_from(&app, &mut n, Some("192.0.2.77, 203.0.113.5")).await;
    assert_error(forged, 429, "rate_limited").await;
    // Through a second trusted proxy (10.x), the same client again.
    let chained = signup_from(&app, &mut n, Some("203.0.113.5, 10.1.1.1")).await;
    assert_error(chained, 429, "rate_limited").await;
    // Another client behind the proxy has its own budget.
    assert_eq!(
        signup_from(&app, &mut n, Some("203.0.113.6"))
            .await
            .status(),
        201
    );
    // A request without the header, or with garbage in it, is the proxy's own.
    for _ in 0..PER_ADDRESS {
        assert_eq!(signup_from(&app, &mut n, None).await.status(), 201);
    }
    assert_error(
        signup_from(&app, &mut n, Some("not an address")).await,
        429,
        "rate_limited",
    )
    .await;
}

#[test]
fn a_bad_trusted_proxies_entry_is_a_configuration_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("moat.toml");
    std::fs::write(
        &file,
        "trusted_proxies = [\"10.0.0.0/8\", \"proxy.internal\"]\n",
    )
    .unwrap();
    let loaded = moat_server::Config::load(Some(&file), &Default::default());
    let e = loaded
        .expect_err("a host name is not an address")
        .to_string();
    assert!(
        e.contains("trusted_proxies") && e.contains("proxy.internal"),
        "{e}"
    );
}
