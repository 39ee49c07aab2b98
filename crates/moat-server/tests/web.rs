//! Serving the web app: pages with server-rendered metadata, hashed assets, caching,
//! compression, the SPA fallback and the web-view host page switch.

mod helpers;

use helpers::TestApp;

#[tokio::test]
async fn app_routes_get_the_index_with_their_link_preview_card() {
    let app = TestApp::spawn().await;
    let r = app
        .client
        .get(app.url("/settings"))
        .header("host", "moat.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["cache-control"],
        "no-cache",
        "index.html is never cached"
    );
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = r.text().await.unwrap();
    assert!(
        html.contains("<title>설정 — Moat</title>"),
        "Korean by default: {html}"
    );
    assert!(html.contains(r#"<meta property="og:title" content="설정 — Moat">"#));
    assert!(html.contains(r#"<meta name="description""#));
    assert!(html.contains(r#"<div id="root">"#), "the app still boots");
}

#[tokio::test]
async fn link_metadata_never_comes_from_the_requests_host() {
    let app = TestApp::spawn().await;
    let html = app
        .client
        .get(app.url("/settings"))
        .header("host", "evil.example")
        .header("x-forwarded-proto", "https")
        .header("x-forwarded-host", "evil.example")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !html.contains("evil.example"),
        "the Host header is not written into the page: {html}"
    );
    assert!(
        !html.contains("og:url"),
        "no og:url without public_url: {html}"
    );
    assert!(
        !html.contains("og:image"),
        "no og:image without public_url: {html}"
    );
    assert!(
        html.contains(r#"<link rel="canonical" href="/settings">"#),
        "a relative canonical link: {html}"
    );

    let public = TestApp::spawn_with(moat_storage::testing::TestDatabase::sqlite(), |c| {
        c.public_url = "https://moat.example/".into()
    })
    .await;
    let html = public
        .client
        .get(public.url("/settings"))
        .header("host", "evil.example")
        .header("x-forwarded-proto", "http")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!html.contains("evil.example"), "{html}");
    for tag in [
        r#"<meta property="og:url" content="https://moat.example/settings">"#,
        r#"<meta property="og:image" content="https://moat.example/og-image.png">"#,
        r#"<link rel="canonical" href="https://moat.example/settings">"#,
    ] {
        assert!(html.contains(tag), "{tag} from public_url: {html}");
    }
}

#[tokio::test]
async fn english_readers_get_an_english_card() {
    let app = TestApp::spawn().await;
    let r = app
        .client
        .get(app.url("/"))
        .header("accept-language", "en-US,en;q=0.9")
        .send()
        .await
        .unwrap();
    let html = r.text().await.unwrap();
    assert!(
        html.contains("<title>Moat — all your investing in one place</title>"),
        "{html}"
    );
    assert!(html.contains(r#"<html lang="en">"#));
}

#[tokio::test]
async fn an_unknown_page_is_a_404_that_still_boots_the_app() {
    let app = TestApp::spawn().await;
    let r = app.get("/no/such/page").await;
    assert_eq!(r.status(), 404);
    let html = r.text().await.unwrap();
    assert!(html.contains("페이지를 찾을 수 없습니다"));
    assert!(html.contains(r#"<div id="root">"#));
}

#[tokio::test]
async fn a_stock_page_card_names_the_instrument_with_its_price() {
    let app = TestApp::spawn().await;
    for path in [
        "/stocks/KRX:005930",
        "/stocks/KRX%3A005930",
        "/stocks/krx:005930/",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status(), 200, "{path}");
        let html = r.text().await.unwrap();
        let title = html
            .split_once("<title>")
            .and_then(|(_, rest)| rest.split_once("</title>"))
            .map(|(title, _)| title.to_owned())
            .unwrap_or_else(|| panic!("{path} has no title: {html}"));
        assert!(title.starts_with("삼성전자 (005930) ₩"), "{path}: {title}");
        // `₩71,200 +1.23%`: a whole-won price and a signed change in per cent.
        let price = title
            .trim_start_matches("삼성전자 (005930) ₩")
            .split(' ')
            .next()
            .unwrap();
        assert!(
            !price.is_empty() && price.chars().all(|c| c.is_ascii_digit() || c == ','),
            "{path}: {title}"
        );
        assert!(title.ends_with("% — Moat"), "{path}: {title}");
        assert!(html.contains(r#"<meta property="og:title" content="삼성전자 (005930) ₩"#));
        assert!(
            html.contains("모의 시세"),
            "the simulator's prices are labelled"
        );
        assert!(html.contains(r#"<html lang="ko">"#));
    }

    let r = app
        .client
        .get(app.url("/stocks/NASDAQ:AAPL"))
        .header("accept-language", "en-US,en;q=0.9")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let html = r.text().await.unwrap();
    assert!(html.contains("<title>Apple (AAPL) $"), "{html}");
    assert!(html.contains("Prices are simulated."), "{html}");
}

#[tokio::test]
async fn an_unknown_or_malformed_stock_is_the_404_page() {
    let app = TestApp::spawn().await;
    for path in [
        "/stocks/KRX:999999",
        "/stocks/LSE:VOD",
        "/stocks/999999",
        "/stocks/NOSUCH",
        "/stocks/KRX:%3Cscript%3E",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status(), 404, "{path}");
        let html = r.text().await.unwrap();
        assert!(html.contains("페이지를 찾을 수 없습니다"), "{path}");
        assert!(!html.contains("<script>"), "{path}");
        assert!(
            html.contains(r#"<div id="root">"#),
            "{path}: the app still boots"
        );
    }
}

#[tokio::test]
async fn a_bare_code_redirects_to_the_canonical_stock_page() {
    let app = TestApp::spawn().await;
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (path, to) in [
        ("/stocks/005930", "/stocks/KRX:005930"),
        ("/stocks/AAPL", "/stocks/NASDAQ:AAPL"),
        ("/stocks/aapl", "/stocks/NASDAQ:AAPL"),
        ("/stocks/JPM", "/stocks/NYSE:JPM"),
        ("/stocks/005930?lang=en", "/stocks/KRX:005930?lang=en"),
    ] {
        let r = no_redirects.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 308, "{path}");
        assert_eq!(r.headers()["location"], to, "{path}");
    }
    // A link preview follows the redirect to the stock's card.
    let r = app.get("/stocks/005930").await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.url().path(), "/stocks/KRX:005930");
    let html = r.text().await.unwrap();
    assert!(html.contains("<title>삼성전자 (005930) ₩"), "{html}");
    // Canonical addresses are not redirected.
    let r = no_redirects
        .get(app.url("/stocks/KRX:005930"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn search_and_favourites_have_their_cards() {
    let app = TestApp::spawn().await;
    let html = app.get("/search").await.text().await.unwrap();
    assert!(html.contains("<title>종목 검색 — Moat</title>"), "{html}");
    let r = app.get("/favorites").await;
    assert_eq!(r.status(), 200);
    let html = r.text().await.unwrap();
    assert!(html.contains("<title>관심 종목 — Moat</title>"), "{html}");
    assert!(
        html.contains(r#"<meta name="robots" content="noindex">"#),
        "a member's own list is not indexed"
    );
}

#[tokio::test]
async fn a_missing_file_is_a_plain_404_not_the_app() {
    let app = TestApp::spawn().await;
    let r = app.get("/assets/missing-123.js").await;
    assert_eq!(r.status(), 404);
    assert!(!r.text().await.unwrap().contains("<div id=\"root\">"));
}

#[tokio::test]
async fn path_traversal_reads_nothing_outside_the_web_root() {
    let app = TestApp::spawn().await;
    for path in [
        "/assets/../../etc/passwd",
        "/..%2f..%2fetc/passwd",
        "/assets//index-abc123.js",
    ] {
        let r = app.get(path).await;
        let text = r.text().await.unwrap();
        assert!(!text.contains("root:"), "{path}");
    }
}

#[tokio::test]
async fn hashed_assets_are_immutable_with_an_etag() {
    let app = TestApp::spawn().await;
    let r = app.get("/assets/index-abc123.js").await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
    let etag = r.headers()["etag"].to_str().unwrap().to_owned();
    let again = app
        .client
        .get(app.url("/assets/index-abc123.js"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
}

#[tokio::test]
async fn assets_and_pages_are_compressed_with_brotli_or_gzip() {
    let app = TestApp::spawn().await;
    for (accept, expected) in [("br, gzip", "br"), ("gzip", "gzip")] {
        for path in ["/assets/index-abc123.js", "/"] {
            let r = app
                .raw_client
                .get(app.url(path))
                .header("accept-encoding", accept)
                .send()
                .await
                .unwrap();
            assert_eq!(
                r.headers()
                    .get("content-encoding")
                    .map(|v| v.to_str().unwrap()),
                Some(expected),
                "{path} {accept}"
            );
        }
    }
    let r = app
        .raw_client
        .get(app.url("/assets/index-abc123.js"))
        .send()
        .await
        .unwrap();
    assert!(
        r.headers().get("content-encoding").is_none(),
        "identity when nothing is accepted"
    );
    assert_eq!(
        r.text().await.unwrap(),
        "export const moat = 'moat';\n".repeat(400)
    );
}

#[tokio::test]
async fn the_builds_precompressed_copy_is_sent_with_its_own_etag() {
    let app = TestApp::spawn().await;
    // The web build writes `x.js.br` beside `x.js`; the server must send those bytes.
    std::fs::write(
        app.web_dir().join("assets/index-abc123.js.br"),
        b"precompressed-by-the-build",
    )
    .unwrap();
    let get = |accept: &'static str, inm: Option<String>| {
        let mut req = app
            .raw_client
            .get(app.url("/assets/index-abc123.js"))
            .header("accept-encoding", accept);
        if let Some(tag) = inm {
            req = req.header("if-none-match", tag);
        }
        req.send()
    };
    let br = get("br", None).await.unwrap();
    assert_eq!(br.headers()["content-encoding"], "br");
    let br_tag = br.headers()["etag"].to_str().unwrap().to_owned();
    assert!(br_tag.ends_with("-br\""), "{br_tag}");
    assert_eq!(
        &br.bytes().await.unwrap()[..],
        b"precompressed-by-the-build"
    );

    let plain = get("identity", None).await.unwrap();
    let plain_tag = plain.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(plain_tag, br_tag, "each representation has its own ETag");
    assert_eq!(get("br", Some(br_tag)).await.unwrap().status(), 304);
    assert_eq!(
        get("br", Some(plain_tag)).await.unwrap().status(),
        200,
        "the identity ETag does not validate the brotli copy"
    );
}

#[tokio::test]
async fn a_file_edited_on_disk_is_never_answered_with_a_stale_compressed_copy() {
    use std::io::Read;
    let app = TestApp::spawn().await;
    let path = app.web_dir().join("robots.txt");
    let gunzip = |bytes: &[u8]| {
        let mut out = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut out)
            .unwrap();
        out
    };
    for version in ["one", "two"] {
        let body = format!("User-agent: *\n# version {version}\n").repeat(40);
        std::fs::write(&path, &body).unwrap();
        let r = app
            .raw_client
            .get(app.url("/robots.txt"))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(r.headers()["content-encoding"], "gzip");
        assert_eq!(gunzip(&r.bytes().await.unwrap()), body);
    }
}

#[tokio::test]
async fn the_webview_host_page_is_served_only_when_enabled() {
    let on = TestApp::spawn().await;
    assert_eq!(on.get("/webview-host.html").await.status(), 200);
    let off = TestApp::spawn_with(moat_storage::testing::TestDatabase::sqlite(), |c| {
        c.webview_host = false
    })
    .await;
    assert_eq!(off.get("/webview-host.html").await.status(), 404);
}

#[tokio::test]
async fn configured_delayed_scripts_are_rendered_and_allowed() {
    let app = TestApp::spawn_with(moat_storage::testing::TestDatabase::sqlite(), |c| {
        c.delayed_scripts = vec!["https://cdn.example.com/tag.js".into()];
    })
    .await;
    let r = app.get("/").await;
    assert!(r.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("https://cdn.example.com"));
    assert!(r
        .text()
        .await
        .unwrap()
        .contains(r#"<script delay="https://cdn.example.com/tag.js"></script>"#));
}

#[tokio::test]
async fn non_get_requests_to_pages_are_refused() {
    let app = TestApp::spawn().await;
    let r = app.client.post(app.url("/settings")).send().await.unwrap();
    assert_eq!(r.status(), 405);
}

/// The operator console's pages are app routes (200, not indexed), and only their
/// documents allow inline styles, which a session replay needs.
#[tokio::test]
async fn operator_pages_allow_inline_styles_for_the_replay_and_nothing_else_does() {
    let app = TestApp::spawn().await;
    for path in [
        "/operator/sessions",
        "/operator/sessions/abc123",
        "/operator/errors/7",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status(), 200, "{path}");
        let csp = r.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            csp.contains("style-src 'self' 'unsafe-inline';"),
            "{path}: {csp}"
        );
        assert!(csp.contains("script-src 'self';"), "{path}: {csp}");
        assert!(r.text().await.unwrap().contains("noindex"), "{path}");
    }
    for path in ["/", "/settings", "/operatorx"] {
        let r = app.get(path).await;
        let csp = r.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(csp.contains("style-src 'self';"), "{path}: {csp}");
    }
    app.stop().await.unwrap();
}
