//! News (docs/news.md) end to end against a real HTTP feed server on the loopback: the
//! operator adds a feed, fetches it, and the articles reach the lists, the stock's
//! news, search (Korean with particles, English prefixes), the article view, its
//! link-preview card and live subscribers (on both instances of a pair); hostile feeds
//! are recorded as errors, backed off, and never stop the others; bad requests get
//! stable codes.

mod helpers;

use std::time::Duration;

use helpers::{
    assert_error,
    feeds::{rss, Answer, FeedServer, Item},
    field_code, send, signup, ws, TestApp,
};
use moat_server::config::Config;
use moat_storage::testing::TestDatabase;
use reqwest::Method;
use serde_json::{json, Value};

fn tweak(c: &mut Config) {
    // The background poller looks once at start (no feeds yet), then not for an hour:
    // the tests fetch when they choose.
    c.news.poll_tick_secs = 3600;
    c.news.per_host_interval_ms = 0;
    c.news.fetch_timeout_secs = 3;
    c.news.contact = "ops@example.com".into();
}

async fn app() -> TestApp {
    TestApp::spawn_with(TestDatabase::sqlite(), tweak).await
}

async fn app_on(db: TestDatabase) -> TestApp {
    TestApp::spawn_with(db, tweak).await
}

fn now_rfc2822(days_ago: i64) -> String {
    (chrono::Utc::now() - chrono::Duration::days(days_ago)).to_rfc2822()
}

fn korean_feed(base: &str) -> String {
    let d0 = now_rfc2822(0);
    let d1 = now_rfc2822(1);
    rss(
        "한국 경제",
        &[
            Item {
                guid: Some("kr-1"),
                link: Some(&format!("{base}/a/1?utm_source=rss")),
                title: "삼성전자, 3분기 영업이익 10조 돌파",
                description: "삼성전자는 반도체 업황 회복에 힘입어 3분기 영업이익이 10조원을 넘었다고 밝혔다.",
                pub_date: Some(&d0),
            },
            Item {
                guid: Some("kr-2"),
                link: Some(&format!("{base}/a/2")),
                title: "한은, 기준금리 동결…인하 기대감 커져",
                description: "한국은행이 기준금리를 연 3.25%로 동결했다. 시장은 내년 금리를 주목한다.",
                pub_date: Some(&d1),
            },
        ],
    )
}

async fn operator(app: &TestApp) -> String {
    signup(app, "ops@example.com", "ops_lead").await
}

async fn add_feed(app: &TestApp, token: &str, url: &str, country: &str) -> Value {
    let r = send(
        app,
        Method::POST,
        "/api/admin/news/feeds",
        Some(token),
        Some(json!({"url": url, "source_name": "테스트경제", "country": country, "language": if country == "KR" {"ko"} else {"en"}})),
    )
    .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    r.json().await.unwrap()
}

async fn fetch_now(app: &TestApp, token: &str, id: i64) -> Value {
    let r = send(
        app,
        Method::POST,
        &format!("/api/admin/news/feeds/{id}/fetch"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    r.json().await.unwrap()
}

async fn get_json(app: &TestApp, path: &str) -> Value {
    let r = app.get(path).await;
    assert_eq!(r.status(), 200, "{path}: {}", r.text().await.unwrap());
    r.json().await.unwrap()
}

fn titles(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_feed_reaches_the_lists_the_stock_search_and_the_article() {
    for db in TestDatabase::all().await {
        a_feed_reaches_the_lists_the_stock_search_and_the_article_on(db).await;
    }
}

async fn a_feed_reaches_the_lists_the_stock_search_and_the_article_on(db: TestDatabase) {
    let server = FeedServer::start().await;
    server.rss("/kr.xml", korean_feed(&server.base));
    let app = app_on(db).await;
    let token = operator(&app).await;

    // Before any feed: the screens say news is not set up.
    let empty = get_json(&app, "/api/news?country=KR").await;
    assert_eq!(empty["status"]["state"], "not_configured");
    assert_eq!(empty["items"].as_array().unwrap().len(), 0);

    let feed = add_feed(&app, &token, &server.url("/kr.xml"), "KR").await;
    assert_eq!(feed["status"], "pending");
    let id = feed["id"].as_i64().unwrap();
    let result = fetch_now(&app, &token, id).await;
    assert_eq!(result["new_articles"], 2, "{result}");
    assert_eq!(result["feed"]["status"], "ok");
    assert_eq!(result["feed"]["items_total"], 2);
    assert!(result["feed"]["next_poll_at"].is_string());
    // The User-Agent names Moat and the operator's contact.
    let agent = server.last_header("/kr.xml", "user-agent").unwrap();
    assert!(
        agent.contains("Moat") && agent.contains("ops@example.com"),
        "{agent}"
    );

    let list = get_json(&app, "/api/news?country=KR").await;
    assert_eq!(list["status"]["state"], "ok");
    assert_eq!(
        titles(&list),
        [
            "삼성전자, 3분기 영업이익 10조 돌파",
            "한은, 기준금리 동결…인하 기대감 커져"
        ],
        "newest first"
    );
    let samsung = &list["items"][0];
    assert_eq!(samsung["instruments"][0]["instrument_id"], "KRX:005930");
    assert_eq!(samsung["instruments"][0]["name_ko"], "삼성전자");
    assert_eq!(samsung["instruments"][0]["in_title"], true);
    // Tracking parameters are not part of the article's identity, but the link works.
    assert!(samsung["url"].as_str().unwrap().starts_with(&server.base));
    assert_eq!(
        get_json(&app, "/api/news?country=US").await["items"]
            .as_array()
            .unwrap()
            .len(),
        0
    );

    // The stock's news.
    let stock = get_json(&app, "/api/instruments/KRX:005930/news").await;
    assert_eq!(titles(&stock), ["삼성전자, 3분기 영업이익 10조 돌파"]);

    // Search: a particle on the query's side and on the text's, a two-syllable word.
    let found = get_json(&app, &search_path("삼성전자가")).await;
    assert_eq!(titles(&found), ["삼성전자, 3분기 영업이익 10조 돌파"]);
    assert_eq!(found["terms"], json!(["삼성전자"]));
    let rates = get_json(&app, &search_path("금리")).await;
    assert_eq!(titles(&rates), ["한은, 기준금리 동결…인하 기대감 커져"]);
    let nothing = get_json(&app, &format!("{}&country=US", search_path("삼성"))).await;
    assert_eq!(titles(&nothing).len(), 0, "the country filter holds");

    // The article, and its link-preview card.
    let article_id = samsung["id"].as_i64().unwrap();
    let article = get_json(&app, &format!("/api/news/articles/{article_id}")).await;
    assert_eq!(article["sources"][0]["name"], "테스트경제");
    assert!(article["fetched_at"].is_string());
    let page = app
        .get(&format!("/news/{article_id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("삼성전자, 3분기 영업이익 10조 돌파 — 테스트경제 | Moat"),
        "{page}"
    );

    // A second fetch is conditional: the server answers 304 and nothing is new.
    let again = fetch_now(&app, &token, id).await;
    assert_eq!(again["new_articles"], 0);
    assert!(server.last_header("/kr.xml", "if-none-match").is_some());
    assert_eq!(
        get_json(&app, "/api/news?country=KR").await["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test]
async fn unreachable_feeds_say_so_and_back_off() {
    let app = app().await;
    let token = operator(&app).await;
    // A port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/rss", closed.local_addr().unwrap());
    drop(closed);
    let feed = add_feed(&app, &token, &url, "KR").await;
    let result = fetch_now(&app, &token, feed["id"].as_i64().unwrap()).await;
    assert_eq!(result["feed"]["status"], "error");
    assert_eq!(result["feed"]["error_count"], 1);
    assert!(
        result["feed"]["last_error"]
            .as_str()
            .unwrap()
            .contains("connect"),
        "{result}"
    );
    let list = get_json(&app, "/api/news?country=KR").await;
    assert_eq!(list["status"]["state"], "unreachable");
    assert!(list["status"]["last_success_at"].is_null());
    let next: chrono::DateTime<chrono::Utc> = result["feed"]["next_poll_at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        next > chrono::Utc::now() + chrono::Duration::seconds(30),
        "backed off: {next}"
    );
}

#[tokio::test]
async fn hostile_feeds_are_recorded_and_the_others_keep_flowing() {
    let server = FeedServer::start().await;
    server.rss("/good.xml", korean_feed(&server.base));
    server.rss(
        "/malformed.xml",
        "<?xml version=\"1.0\"?><rss><channel><item><title>broken</channel>",
    );
    server.set(
        "/page.html",
        Answer::Feed {
            body: "<!doctype html><html><head><title>Not a feed</title></head><body><p>hi</p></body></html>".into(),
            content_type: "text/html",
        },
    );
    server.set(
        "/huge.xml",
        Answer::Huge {
            size: 50 * 1024 * 1024,
        },
    );
    server.set(
        "/bomb.xml",
        Answer::GzipBomb {
            inflated: 200 * 1024 * 1024,
        },
    );
    server.set("/hang.xml", Answer::Hang);
    server.set("/loop.xml", Answer::RedirectLoop);
    server.set(
        "/busy.xml",
        Answer::Status {
            status: 429,
            retry_after: Some("3600"),
        },
    );
    let app = app().await;
    let token = operator(&app).await;
    let bad = [
        ("/malformed.xml", ""),
        ("/page.html", ""),
        ("/huge.xml", "larger"),
        ("/bomb.xml", "larger"),
        ("/hang.xml", "no answer"),
        ("/loop.xml", "redirect"),
        ("/busy.xml", "429"),
    ];
    let mut ids = Vec::new();
    for (path, _) in &bad {
        ids.push(
            add_feed(&app, &token, &server.url(path), "KR").await["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let good = add_feed(&app, &token, &server.url("/good.xml"), "KR").await["id"]
        .as_i64()
        .unwrap();

    // One poll cycle over all of them, as the background poller runs it.
    let service = app.state.news.service.clone();
    let started = std::time::Instant::now();
    service
        .poll_due(&moat_server::news::service::jobs::Quiet)
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the hanging feed was cut off"
    );

    let r = send(
        &app,
        Method::GET,
        "/api/admin/news/feeds",
        Some(&token),
        None,
    )
    .await;
    let feeds: Value = r.json().await.unwrap();
    let by_id = |id: i64| {
        feeds["feeds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .unwrap()
            .clone()
    };
    for ((path, needle), id) in bad.iter().zip(&ids) {
        let f = by_id(*id);
        assert_eq!(f["status"], "error", "{path}: {f}");
        let error = f["last_error"].as_str().unwrap_or_default();
        assert!(!error.is_empty(), "{path}: an error is recorded");
        assert!(error.to_lowercase().contains(needle), "{path}: {error}");
        let next: chrono::DateTime<chrono::Utc> =
            f["next_poll_at"].as_str().unwrap().parse().unwrap();
        assert!(
            next > chrono::Utc::now() + chrono::Duration::seconds(30),
            "{path} backed off"
        );
    }
    // Retry-After: 3600 holds the feed for an hour at least.
    let busy = by_id(ids[6]);
    let next: chrono::DateTime<chrono::Utc> =
        busy["next_poll_at"].as_str().unwrap().parse().unwrap();
    assert!(
        next > chrono::Utc::now() + chrono::Duration::minutes(55),
        "{busy}"
    );
    assert_eq!(by_id(good)["status"], "ok");
    assert_eq!(
        get_json(&app, "/api/news?country=KR").await["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test]
async fn unsafe_links_markup_and_dates_never_reach_the_page() {
    let server = FeedServer::start().await;
    let future = (chrono::Utc::now() + chrono::Duration::days(400)).to_rfc2822();
    let body = rss(
        "evil",
        &[
            Item {
                guid: Some("e1"),
                link: Some("javascript:alert(1)"),
                title: "<script>alert(1)</script>자바스크립트 링크 기사",
                description: "<img src=x onerror=alert(1)>본문 <b onclick=\"steal()\">강조</b>",
                pub_date: Some(&future),
            },
            Item {
                guid: Some("e2"),
                link: Some("data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="),
                title: "데이터 링크 기사",
                description: "<a href=\"javascript:alert(2)\">클릭</a> 설명",
                pub_date: Some("Thu, 01 Jan 1970 00:00:00 +0000"),
            },
        ],
    );
    server.rss("/evil.xml", body);
    let app = app().await;
    let token = operator(&app).await;
    let feed = add_feed(&app, &token, &server.url("/evil.xml"), "KR").await;
    let result = fetch_now(&app, &token, feed["id"].as_i64().unwrap()).await;
    assert_eq!(result["new_articles"], 2, "{result}");
    let list = get_json(&app, "/api/news?country=KR").await;
    let now = chrono::Utc::now();
    for item in list["items"].as_array().unwrap() {
        let text = format!("{} {}", item["title"], item["summary"]);
        for bad in [
            "<script",
            "onerror",
            "onclick",
            "<img",
            "<a ",
            "javascript:",
            "<b",
        ] {
            assert!(!text.contains(bad), "{bad} in {text}");
        }
        let url = item["url"].as_str().unwrap();
        assert!(url.is_empty() || url.starts_with("http"), "{url}");
        let published: chrono::DateTime<chrono::Utc> =
            item["published_at"].as_str().unwrap().parse().unwrap();
        assert!(
            published <= now + chrono::Duration::days(1),
            "future date clamped: {published}"
        );
        assert!(
            published.timestamp() > 631_152_000,
            "1970 read as unknown: {published}"
        );
    }
    assert!(titles(&list)
        .iter()
        .any(|t| t.contains("자바스크립트 링크 기사")));
}

#[tokio::test]
async fn a_feed_that_changes_every_guid_does_not_duplicate_its_stories() {
    for db in TestDatabase::all().await {
        a_feed_that_changes_every_guid_does_not_duplicate_its_stories_on(db).await;
    }
}

async fn a_feed_that_changes_every_guid_does_not_duplicate_its_stories_on(db: TestDatabase) {
    let server = FeedServer::start().await;
    let app = app_on(db).await;
    let token = operator(&app).await;
    let feed = add_feed(&app, &token, &server.url("/shifty.xml"), "KR").await;
    let id = feed["id"].as_i64().unwrap();
    for poll in 0..3 {
        let guid = format!("random-{poll}-{}", uuid::Uuid::new_v4());
        let d = now_rfc2822(0);
        server.rss(
            "/shifty.xml",
            rss(
                "shifty",
                &[Item {
                    guid: Some(&guid),
                    link: Some(&format!("{}/story/7?fbclid=abc{poll}", server.base)),
                    title: "코스피, 외국인 매수에 2% 상승",
                    description: "코스피가 외국인 매수세에 힘입어 2% 올랐다.",
                    pub_date: Some(&d),
                }],
            ),
        );
        fetch_now(&app, &token, id).await;
    }
    let list = get_json(&app, "/api/news?country=KR").await;
    assert_eq!(list["items"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(
        list["items"][0]["source_count"], 1,
        "one outlet, however many guids"
    );
}

#[tokio::test]
async fn the_same_wire_story_from_two_outlets_is_one_article_with_two_sources() {
    for db in TestDatabase::all().await {
        the_same_wire_story_from_two_outlets_is_one_article_with_two_sources_on(db).await;
    }
}

async fn the_same_wire_story_from_two_outlets_is_one_article_with_two_sources_on(db: TestDatabase) {
    let server = FeedServer::start().await;
    let d = now_rfc2822(0);
    let story = "정부가 내년 반도체 산업에 33조원 규모의 금융 지원을 하기로 했다고 밝혔다. 업계는 환영의 뜻을 나타냈다.";
    server.rss(
        "/one.xml",
        rss(
            "one",
            &[Item {
                guid: Some("w1"),
                link: Some(&format!("{}/one/1", server.base)),
                title: "정부, 반도체에 33조 금융 지원",
                description: story,
                pub_date: Some(&d),
            }],
        ),
    );
    server.rss(
        "/two.xml",
        rss(
            "two",
            &[Item {
                guid: Some("w2"),
                link: Some(&format!("{}/two/9", server.base)),
                title: "정부, 반도체에 33조 금융 지원",
                description: story,
                pub_date: Some(&d),
            }],
        ),
    );
    let app = app_on(db).await;
    let token = operator(&app).await;
    let a = add_feed(&app, &token, &server.url("/one.xml"), "KR").await["id"]
        .as_i64()
        .unwrap();
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds",
        Some(&token),
        Some(json!({"url": server.url("/two.xml"), "source_name": "둘째일보", "country": "KR", "language": "ko"})),
    )
    .await;
    let b = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    assert_eq!(fetch_now(&app, &token, a).await["new_articles"], 1);
    let second = fetch_now(&app, &token, b).await;
    assert_eq!(
        (second["new_articles"].as_i64(), second["merged"].as_i64()),
        (Some(0), Some(1)),
        "{second}"
    );
    let list = get_json(&app, "/api/news?country=KR").await;
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert_eq!(list["items"][0]["source_count"], 2);
    let article = get_json(
        &app,
        &format!("/api/news/articles/{}", list["items"][0]["id"]),
    )
    .await;
    let names: Vec<&str> = article["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["테스트경제", "둘째일보"]);
}

#[tokio::test]
async fn an_euc_kr_feed_decodes() {
    let server = FeedServer::start().await;
    let xml = rss(
        "euc",
        &[Item {
            guid: Some("k1"),
            link: Some("http://example.com/k1"),
            title: "현대차, 전기차 판매 신기록",
            description: "현대자동차가 전기차 판매 신기록을 세웠다.",
            pub_date: Some(&now_rfc2822(0)),
        }],
    )
    .replace("encoding=\"UTF-8\"", "encoding=\"EUC-KR\"");
    let (bytes, _, _) = encoding_rs::EUC_KR.encode(&xml);
    server.set(
        "/euc.xml",
        Answer::Feed {
            body: bytes.into_owned().into(),
            content_type: "application/rss+xml",
        },
    );
    let app = app().await;
    let token = operator(&app).await;
    let feed = add_feed(&app, &token, &server.url("/euc.xml"), "KR").await;
    fetch_now(&app, &token, feed["id"].as_i64().unwrap()).await;
    let list = get_json(&app, "/api/news?country=KR").await;
    assert_eq!(titles(&list), ["현대차, 전기차 판매 신기록"]);
}

#[tokio::test]
async fn pages_follow_the_cursor_without_gaps_or_repeats() {
    for db in TestDatabase::all().await {
        pages_follow_the_cursor_without_gaps_or_repeats_on(db).await;
    }
}

async fn pages_follow_the_cursor_without_gaps_or_repeats_on(db: TestDatabase) {
    let server = FeedServer::start().await;
    let base = chrono::Utc::now() - chrono::Duration::hours(30);
    let items: Vec<(String, String, String)> = (0..25)
        .map(|i| {
            // Pairs of items share a time: the cursor must break ties.
            let t = base + chrono::Duration::minutes((i / 2) * 10);
            (
                format!("p{i}"),
                format!("{}/p/{i}", server.base),
                t.to_rfc2822(),
            )
        })
        .collect();
    let titles_src: Vec<String> = (0..25)
        .map(|i| format!("기사 번호 {i}번 시장 소식"))
        .collect();
    let descs: Vec<String> = (0..25)
        .map(|i| format!("서로 다른 내용 {i} {}", "가나다라마바사".repeat(i % 5 + 1)))
        .collect();
    let item_list: Vec<Item> = items
        .iter()
        .enumerate()
        .map(|(i, (g, l, d))| Item {
            guid: Some(g),
            link: Some(l),
            title: &titles_src[i],
            description: &descs[i],
            pub_date: Some(d),
        })
        .collect();
    server.rss("/many.xml", rss("many", &item_list));
    let app = app_on(db).await;
    let token = operator(&app).await;
    let feed = add_feed(&app, &token, &server.url("/many.xml"), "KR").await;
    let result = fetch_now(&app, &token, feed["id"].as_i64().unwrap()).await;
    assert_eq!(
        result["new_articles"].as_i64().unwrap() + result["merged"].as_i64().unwrap(),
        25
    );
    let total = result["new_articles"].as_i64().unwrap() as usize;
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut last_time = String::from("9999");
    for _ in 0..10 {
        let path = match &cursor {
            Some(c) => format!("/api/news?country=KR&limit=10&cursor={c}"),
            None => "/api/news?country=KR&limit=10".to_owned(),
        };
        let page = get_json(&app, &path).await;
        for item in page["items"].as_array().unwrap() {
            let t = item["published_at"].as_str().unwrap().to_owned();
            assert!(t <= last_time, "newest first");
            last_time = t;
            seen.push(item["id"].as_i64().unwrap());
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), seen.len(), "no repeats");
    assert_eq!(seen.len(), total, "no gaps");
}

#[tokio::test]
async fn new_articles_are_announced_live_on_both_instances() {
    let server = FeedServer::start().await;
    server.rss("/kr.xml", korean_feed(&server.base));
    let db = TestDatabase::sqlite();
    let (a, b) = TestApp::spawn_pair(&db, tweak).await;
    let token = operator(&a).await;
    let mut socket = ws::connect(&b).await;
    ws::subscribe(&mut socket, "news:KR").await;
    let mut stock_socket = ws::connect(&a).await;
    ws::subscribe(&mut stock_socket, "news:KRX:005930").await;
    let feed = add_feed(&a, &token, &server.url("/kr.xml"), "KR").await;
    fetch_now(&a, &token, feed["id"].as_i64().unwrap()).await;
    let frame = ws::until_op(&mut socket, "new").await;
    assert_eq!(frame["topic"], "news:KR");
    assert_eq!(frame["data"]["country"], "KR");
    let frame = ws::until_op(&mut stock_socket, "new").await;
    assert_eq!(frame["topic"], "news:KRX:005930");
    assert_eq!(frame["data"]["instrument_ids"], json!(["KRX:005930"]));
    // Unknown topics are refused.
    let (subscribed, errors) = ws::subscribe(&mut socket, "news:XX").await;
    assert_eq!(subscribed["topics"], json!([]));
    assert_eq!(errors[0]["code"], "unknown_topic", "{errors:?}");
}

#[tokio::test]
async fn images_are_reencoded_into_the_media_store() {
    let server = FeedServer::start().await;
    let mut png = Vec::new();
    image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(
        1200,
        600,
        image::Rgb([10, 120, 200]),
    ))
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .unwrap();
    server.set(
        "/img.png",
        Answer::Feed {
            body: png.into(),
            content_type: "image/png",
        },
    );
    server.set(
        "/fake.png",
        Answer::Feed {
            body: "<html><script>alert(1)</script>".into(),
            content_type: "image/png",
        },
    );
    let d = now_rfc2822(0);
    let xml = rss(
        "img",
        &[
            Item { guid: Some("i1"), link: Some(&format!("{}/i/1", server.base)), title: "이미지 있는 기사", description: "사진과 함께", pub_date: Some(&d) },
            Item { guid: Some("i2"), link: Some(&format!("{}/i/2", server.base)), title: "가짜 이미지 기사", description: "스크립트가 든 가짜 그림", pub_date: Some(&d) },
        ],
    )
    .replacen("</item>", &format!("<enclosure url=\"{}/img.png\" type=\"image/png\" length=\"1\"/></item>", server.base), 1)
    .replacen("<guid isPermaLink=\"false\">i2</guid>", &format!("<guid isPermaLink=\"false\">i2</guid><enclosure url=\"{}/fake.png\" type=\"image/png\" length=\"1\"/>", server.base), 1);
    server.rss("/img.xml", xml);
    let app = app().await;
    let token = operator(&app).await;
    let feed = add_feed(&app, &token, &server.url("/img.xml"), "KR").await;
    fetch_now(&app, &token, feed["id"].as_i64().unwrap()).await;
    app.state.news.service.wait_for_images().await;
    let list = get_json(&app, "/api/news?country=KR").await;
    let with = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["title"] == "이미지 있는 기사")
        .unwrap();
    let url = with["image_url"].as_str().expect("an image");
    assert!(
        url.starts_with("/media/news/") && url.ends_with(".jpg"),
        "{url}"
    );
    let r = app.get(url).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "image/jpeg");
    let bytes = r.bytes().await.unwrap();
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!(decoded.width(), 800, "scaled to the stored width");
    let fake = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["title"] == "가짜 이미지 기사")
        .unwrap();
    assert!(
        fake["image_url"].is_null(),
        "a fake image is simply not shown"
    );
}

#[tokio::test]
async fn bad_requests_get_stable_codes_and_change_nothing() {
    let server = FeedServer::start().await;
    let app = app().await;
    let token = operator(&app).await;
    let member = signup(&app, "member@example.com", "just_member").await;

    // Who may.
    let r = send(&app, Method::GET, "/api/admin/news/feeds", None, None).await;
    assert_error(r, 401, "unauthenticated").await;
    let r = send(
        &app,
        Method::GET,
        "/api/admin/news/feeds",
        Some(&member),
        None,
    )
    .await;
    assert_error(r, 403, "forbidden").await;
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds/defaults",
        Some(&member),
        None,
    )
    .await;
    assert_error(r, 403, "forbidden").await;

    // Feed addresses.
    for url in [
        "javascript:alert(1)",
        "ftp://example.com/rss",
        "http://user:pw@example.com/rss",
        "not a url",
        "",
    ] {
        let r = send(
            &app,
            Method::POST,
            "/api/admin/news/feeds",
            Some(&token),
            Some(json!({"url": url, "source_name": "x", "country": "KR", "language": "ko"})),
        )
        .await;
        let e = assert_error(r, 422, "invalid_input").await;
        assert_eq!(field_code(&e, "url"), "invalid_feed_url", "{url}: {e}");
    }
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds",
        Some(&token),
        Some(json!({"url": server.url("/x.xml"), "source_name": " ", "country": "JP", "language": "한국어"})),
    )
    .await;
    let e = assert_error(r, 422, "invalid_input").await;
    for field in ["source_name", "country", "language"] {
        assert!(!field_code(&e, field).is_empty(), "{field}: {e}");
    }
    add_feed(&app, &token, &server.url("/x.xml"), "KR").await;
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds",
        Some(&token),
        Some(json!({"url": server.url("/x.xml"), "source_name": "again", "country": "KR", "language": "ko"})),
    )
    .await;
    assert_eq!(r.status(), 409);
    let r = send(
        &app,
        Method::PATCH,
        "/api/admin/news/feeds/999999",
        Some(&token),
        Some(json!({"enabled": false})),
    )
    .await;
    assert_error(r, 404, "news_feed_not_found").await;
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds/abc/fetch",
        Some(&token),
        None,
    )
    .await;
    assert_error(r, 400, "invalid_parameter").await;
    let feeds: Value = send(
        &app,
        Method::GET,
        "/api/admin/news/feeds",
        Some(&token),
        None,
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        feeds["feeds"].as_array().unwrap().len(),
        1,
        "nothing else was added"
    );

    // Reading.
    for path in [
        "/api/news?country=JP",
        "/api/news?limit=0",
        "/api/news?limit=51",
        "/api/news?cursor=abc",
        "/api/news/search?q=",
        "/api/news/search?q=%20%20",
        "/api/news/articles/x",
        "/api/news/search?q=a&from=2026-13-01",
        "/api/news/search?q=a&cursor=-1",
    ] {
        let r = app.get(path).await;
        assert_eq!(r.status(), 400, "{path}");
    }
    let long = "가".repeat(101);
    let r = app.get(&format!("/api/news/search?q={long}")).await;
    let e = assert_error(r, 400, "invalid_parameter").await;
    assert_eq!(field_code(&e, "q"), "invalid_news_query");
    let r = app.get("/api/news/articles/424242").await;
    assert_error(r, 404, "news_article_not_found").await;
    let r = app.get("/api/instruments/KRX:999999/news").await;
    assert!(r.status() == 404 || r.status() == 400);
    // Query syntax of either database never leaks through.
    for q in [
        "\"",
        "*",
        "a OR b",
        "-x",
        "x:y",
        "&|!",
        "(삼성",
        "NEAR(a b)",
        "'; DROP TABLE news_articles; --",
    ] {
        let r = app.get(&search_path(q)).await;
        assert_eq!(r.status(), 200, "{q}");
    }
}

/// `/api/news/search?q=<q>` with `q` percent-encoded.
fn search_path(q: &str) -> String {
    let q: String = url::form_urlencoded::byte_serialize(q.as_bytes()).collect();
    format!("/api/news/search?q={q}")
}

#[tokio::test]
async fn retention_deletes_old_articles() {
    for db in TestDatabase::all().await {
        retention_deletes_old_articles_on(db).await;
    }
}

async fn retention_deletes_old_articles_on(db: TestDatabase) {
    let server = FeedServer::start().await;
    let old = now_rfc2822(200);
    let new = now_rfc2822(1);
    server.rss(
        "/old.xml",
        rss(
            "old",
            &[
                Item {
                    guid: Some("o1"),
                    link: Some("http://example.com/o1"),
                    title: "오래된 기사",
                    description: "200일 전",
                    pub_date: Some(&old),
                },
                Item {
                    guid: Some("o2"),
                    link: Some("http://example.com/o2"),
                    title: "최근 기사",
                    description: "어제",
                    pub_date: Some(&new),
                },
            ],
        ),
    );
    let app = app_on(db).await;
    let token = operator(&app).await;
    let feed = add_feed(&app, &token, &server.url("/old.xml"), "KR").await;
    fetch_now(&app, &token, feed["id"].as_i64().unwrap()).await;
    assert_eq!(
        titles(&get_json(&app, "/api/news?country=KR").await).len(),
        2
    );
    let deleted = app.state.news.service.apply_retention().await.unwrap();
    assert_eq!(deleted, 1);
    assert_eq!(
        titles(&get_json(&app, "/api/news?country=KR").await),
        ["최근 기사"]
    );
    assert_eq!(
        get_json(&app, &search_path("기사")).await["items"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "the index forgot it too"
    );
}

#[tokio::test]
async fn the_default_list_is_off_until_the_operator_turns_it_on() {
    let app = app().await;
    let token = operator(&app).await;
    let r = send(
        &app,
        Method::GET,
        "/api/admin/news/feeds",
        Some(&token),
        None,
    )
    .await;
    let list: Value = r.json().await.unwrap();
    assert_eq!(
        list["feeds"].as_array().unwrap().len(),
        0,
        "a fresh install has no feed"
    );
    let available = list["defaults_available"].as_i64().unwrap();
    assert!(available >= 5, "{list}");
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds/defaults",
        Some(&token),
        None,
    )
    .await;
    let added: Value = r.json().await.unwrap();
    assert_eq!(added["added"].as_i64().unwrap(), available);
    let urls: Vec<&str> = added["feeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["url"].as_str().unwrap())
        .collect();
    assert!(urls.iter().any(|u| u.contains("sec.gov")), "{urls:?}");
    assert!(added["feeds"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["is_default"] == true && f["enabled"] == true));
    // Twice adds nothing.
    let r = send(
        &app,
        Method::POST,
        "/api/admin/news/feeds/defaults",
        Some(&token),
        None,
    )
    .await;
    assert_eq!(r.json::<Value>().await.unwrap()["added"], 0);
}

/// `moat news fetch`: one cycle from the command line with a line per feed and a total;
/// the configured feeds are added first; a second cycle is all 304s.
#[test]
fn moat_news_fetch_runs_a_cycle_with_progress() {
    // The feed server runs on its own runtime: the command makes its own.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(async {
        let server = FeedServer::start().await;
        server.rss("/kr.xml", korean_feed(&server.base));
        server
    });
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("moat.toml");
    std::fs::write(
        &config,
        format!(
            "[news]\nper_host_interval_ms = 0\n[[news.feeds]]\nurl = \"{}\"\ncountry = \"KR\"\nlanguage = \"ko\"\nsource_name = \"테스트경제\"\n",
            server.url("/kr.xml")
        ),
    )
    .unwrap();
    let data = dir.path().join("data");
    let run = |args: &[&str]| {
        let mut argv: Vec<String> = vec!["moat".into(), "news".into(), "fetch".into()];
        argv.extend(args.iter().map(|a| (*a).to_owned()));
        argv.extend(["--config".into(), config.display().to_string()]);
        argv.extend(["--data-dir".into(), data.display().to_string()]);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = moat_server::cli::run(argv, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    };
    let (code, out, err) = run(&["--all"]);
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{out}\n{err}");
    let url = server.url("/kr.xml");
    assert!(
        out.contains(&format!(
            "[1/1] 테스트경제 ({url}): 2 new, 0 merged, 0 seen"
        )),
        "{out}"
    );
    assert!(
        out.contains("1 feeds in") && out.contains("2 new articles, 0 merged, 0 failed"),
        "{out}"
    );
    let (code, out, _) = run(&["--all"]);
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    assert!(out.contains("not modified"), "{out}");
    let (code, _, err) = run(&["--feed", "999"]);
    assert_eq!(code, std::process::ExitCode::FAILURE);
    assert!(err.contains("there is no feed 999"), "{err}");
    drop(runtime);
}
