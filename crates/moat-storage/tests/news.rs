//! News storage, run against every backend (SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, TimeZone, Utc};
use moat_market::InstrumentId;
use moat_search::{index_parts, parse_query};
use moat_storage::news::SEARCH_BUCKET_LEVELS;
use moat_storage::{
    testing::TestDatabase, ArticleCursor, ArticleFilter, Backend, Country, FeedFetchRecord,
    FeedPatch, FeedStatus, InsertOutcome, NewArticle, NewFeed, NewLink, SearchFilter, Storage,
    StorageError,
};

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0).unwrap()
}

fn instrument(s: &str) -> InstrumentId {
    s.parse().unwrap()
}

fn new_feed(url: &str, country: Country) -> NewFeed {
    NewFeed {
        url: url.into(),
        source_name: format!("outlet {url}"),
        country,
        language: if country == Country::Kr { "ko" } else { "en" }.into(),
        enabled: true,
        is_default: false,
        interval_secs: 900,
        created_at: at(1, 0),
    }
}

async fn feed(s: &dyn Storage, url: &str) -> i64 {
    s.create_feed(new_feed(url, Country::Kr)).await.unwrap().id
}

/// An article of `feed` whose guid, URL and SimHash are told apart by `n`.
fn article(feed_id: i64, n: u64, title: &str, published_at: DateTime<Utc>) -> NewArticle {
    NewArticle {
        feed_id,
        guid: format!("guid-{n}"),
        canonical_url: format!("https://news.example/{n}"),
        url: format!("https://news.example/{n}?utm_source=rss"),
        title: title.into(),
        summary: String::new(),
        source_name: "연합뉴스".into(),
        country: Country::Kr,
        language: "ko".into(),
        published_at,
        fetched_at: published_at,
        // Far apart: every n has its own bits in each band.
        simhash: (n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555_0000_AAAA_0000) as i64,
        image_key: None,
        search_text: index_parts(&[title]),
        links: Vec::new(),
    }
}

async fn count_rows(db: &TestDatabase, sql: &str) -> i64 {
    match db.backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
            sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap()
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
            sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap()
        }
    }
}

#[tokio::test]
async fn feeds_are_added_changed_fetched_and_deleted() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let status = s.news_status().await.unwrap();
        assert_eq!(status.enabled_feeds, 0, "{b:?}: nothing configured");

        let a = s
            .create_feed(new_feed("https://a.example/rss", Country::Kr))
            .await
            .unwrap();
        assert_eq!(a.last_status, FeedStatus::Pending);
        assert_eq!(a.next_poll_at, None, "{b:?}: a new feed is due at once");
        let duplicate = s
            .create_feed(new_feed("https://a.example/rss", Country::Us))
            .await;
        assert!(
            matches!(duplicate, Err(StorageError::Conflict("url"))),
            "{b:?}: {duplicate:?}"
        );
        let c = s
            .create_feed(new_feed("https://c.example/rss", Country::Us))
            .await
            .unwrap();

        let fetched = s
            .record_feed_fetch(
                a.id,
                FeedFetchRecord {
                    at: at(2, 10),
                    status: FeedStatus::Ok,
                    etag: Some("\"abc\"".into()),
                    last_modified: Some("Mon, 02 Nov 2026 10:00:00 GMT".into()),
                    next_poll_at: at(2, 11),
                    interval_secs: 3600,
                    error_count: 0,
                    last_error: None,
                    items_added: 7,
                    items_in_fetch: 30,
                    retry_after_until: None,
                },
            )
            .await
            .unwrap();
        assert_eq!(
            fetched.etag.as_deref(),
            Some("\"abc\""),
            "{b:?}: kept as received"
        );
        assert_eq!(fetched.last_success_at, Some(at(2, 10)));
        assert_eq!((fetched.items_total, fetched.items_last_fetch), (7, 30));

        let failed = s
            .record_feed_fetch(
                c.id,
                FeedFetchRecord {
                    at: at(2, 10),
                    status: FeedStatus::Error,
                    etag: None,
                    last_modified: None,
                    next_poll_at: at(2, 12),
                    interval_secs: 900,
                    error_count: 1,
                    last_error: Some("HTTP 503".into()),
                    items_added: 0,
                    items_in_fetch: 0,
                    retry_after_until: Some(at(2, 12)),
                },
            )
            .await
            .unwrap();
        assert_eq!(failed.last_status, FeedStatus::Error);
        assert_eq!(failed.last_success_at, None);
        assert_eq!(failed.retry_after_until, Some(at(2, 12)));

        let status = s.news_status().await.unwrap();
        assert_eq!(
            (status.enabled_feeds, status.ok_feeds, status.error_feeds),
            (2, 1, 1),
            "{b:?}"
        );
        assert_eq!(status.last_success_at, Some(at(2, 10)));

        // Due: a's next poll at 11:00, c's at 12:00.
        let due = |t| {
            let s = s.clone();
            async move {
                s.due_feeds(t, 10)
                    .await
                    .unwrap()
                    .iter()
                    .map(|f| f.id)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(due(at(2, 10)).await, Vec::<i64>::new(), "{b:?}");
        assert_eq!(due(at(2, 11)).await, vec![a.id], "{b:?}");
        assert_eq!(
            due(at(2, 13)).await,
            vec![a.id, c.id],
            "{b:?}: longest overdue first"
        );
        s.record_feed_fetch(
            c.id,
            FeedFetchRecord {
                at: at(2, 12),
                status: FeedStatus::Error,
                etag: None,
                last_modified: None,
                next_poll_at: at(2, 13),
                interval_secs: 900,
                error_count: 2,
                last_error: Some("HTTP 429".into()),
                items_added: 0,
                items_in_fetch: 0,
                retry_after_until: Some(at(2, 15)),
            },
        )
        .await
        .unwrap();
        assert_eq!(
            due(at(2, 14)).await,
            vec![a.id],
            "{b:?}: the server said retry after 15:00"
        );
        assert_eq!(due(at(2, 15)).await, vec![a.id, c.id], "{b:?}");

        let off = s
            .update_feed(
                a.id,
                FeedPatch {
                    enabled: Some(false),
                    source_name: Some("한국경제".into()),
                    ..FeedPatch::default()
                },
            )
            .await
            .unwrap();
        assert!(!off.enabled);
        assert_eq!(off.source_name, "한국경제");
        assert_eq!(
            off.etag.as_deref(),
            Some("\"abc\""),
            "{b:?}: same URL keeps validators"
        );
        assert_eq!(
            due(at(2, 16)).await,
            vec![c.id],
            "{b:?}: a disabled feed is never due"
        );

        let moved = s
            .update_feed(
                a.id,
                FeedPatch {
                    url: Some("https://a.example/atom".into()),
                    ..FeedPatch::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(moved.etag, None, "{b:?}: a new URL starts over");
        assert_eq!(moved.last_status, FeedStatus::Pending);
        let taken = s
            .update_feed(
                a.id,
                FeedPatch {
                    url: Some("https://c.example/rss".into()),
                    ..FeedPatch::default()
                },
            )
            .await;
        assert!(
            matches!(taken, Err(StorageError::Conflict("url"))),
            "{b:?}: {taken:?}"
        );

        s.delete_feed(a.id).await.unwrap();
        assert!(matches!(
            s.get_feed(a.id).await,
            Err(StorageError::NotFound)
        ));
        assert!(matches!(
            s.delete_feed(a.id).await,
            Err(StorageError::NotFound)
        ));
        assert!(matches!(
            s.update_feed(a.id, FeedPatch::default()).await,
            Err(StorageError::NotFound)
        ));
        assert_eq!(s.list_feeds().await.unwrap().len(), 1);
    }
}

#[tokio::test]
async fn the_dedup_ladder_merges_one_story_from_many_feeds() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f1 = feed(s.as_ref(), "https://a.example/rss").await;
        let f2 = feed(s.as_ref(), "https://b.example/rss").await;
        let t = at(10, 9);

        let mut first = article(f1, 1, "삼성전자, 3분기 실적 발표", t);
        first.links = vec![NewLink {
            instrument_id: instrument("KRX:005930"),
            in_title: true,
        }];
        let id = match s.insert_article(first.clone()).await.unwrap() {
            InsertOutcome::Inserted(id) => id,
            other => panic!("{b:?}: {other:?}"),
        };
        assert_eq!(
            s.insert_article(first.clone()).await.unwrap(),
            InsertOutcome::Seen(id),
            "{b:?}: the same feed's guid again"
        );

        // Another feed, same canonical URL.
        let mut copy = article(f2, 2, "다른 제목", t);
        copy.canonical_url = first.canonical_url.clone();
        copy.source_name = "한국경제".into();
        assert_eq!(
            s.insert_article(copy).await.unwrap(),
            InsertOutcome::Merged(id)
        );

        // Near-duplicates: within 3 bits, not at 5, not outside the window.
        let near = |n: u64, bits: i64, days: i64| {
            let mut a = article(f2, n, "연합 기사 재작성", t + Duration::days(days));
            a.simhash = first.simhash ^ bits;
            a.source_name = format!("outlet {n}");
            a
        };
        assert_eq!(
            s.insert_article(near(3, 0b1011, 2)).await.unwrap(),
            InsertOutcome::Merged(id),
            "{b:?}: 3 bits apart, 2 days later"
        );
        // 5 bits spread over the four bands: no band is equal either.
        let five = 1 | (1 << 16) | (1 << 32) | (1 << 48) | (1 << 49);
        assert!(
            matches!(
                s.insert_article(near(4, five, 1)).await.unwrap(),
                InsertOutcome::Inserted(_)
            ),
            "{b:?}: 5 bits apart"
        );
        // 5 bits all in one band: three bands equal, still too far.
        assert!(
            matches!(
                s.insert_article(near(5, 0b11111, 1)).await.unwrap(),
                InsertOutcome::Inserted(_)
            ),
            "{b:?}: 5 bits apart in one band"
        );
        assert!(
            matches!(
                s.insert_article(near(6, 0b1, 15)).await.unwrap(),
                InsertOutcome::Inserted(_)
            ),
            "{b:?}: 1 bit apart but 15 days later"
        );

        let stored = s.get_article(id).await.unwrap();
        assert_eq!(
            stored.source_count, 3,
            "{b:?}: 연합뉴스, 한국경제, outlet 3"
        );
        assert_eq!(stored.sources.len(), 3);
        assert_eq!(
            stored.sources[0].source_name, "연합뉴스",
            "{b:?}: first first"
        );
        assert_eq!(stored.source_name, "연합뉴스");
        assert_eq!(stored.title, "삼성전자, 3분기 실적 발표");
        assert_eq!(stored.links.len(), 1);
        assert!(stored.links[0].in_title);
        assert_eq!(s.count_articles().await.unwrap(), 4);

        // A deleted feed's appearances stay, without their feed.
        s.delete_feed(f2).await.unwrap();
        let stored = s.get_article(id).await.unwrap();
        assert_eq!(stored.sources[1].feed_id, None, "{b:?}");
        assert_eq!(stored.sources[0].feed_id, Some(f1));

        s.set_article_image(id, "news/ab/cdef.webp").await.unwrap();
        assert_eq!(
            s.get_article(id).await.unwrap().image_key.as_deref(),
            Some("news/ab/cdef.webp")
        );
        assert!(matches!(
            s.set_article_image(id + 100, "x").await,
            Err(StorageError::NotFound)
        ));
        assert!(matches!(
            s.get_article(id + 100).await,
            Err(StorageError::NotFound)
        ));
        assert!(matches!(
            s.insert_article(article(f2, 9, "x", t)).await,
            Err(StorageError::NotFound)
        ));
    }
}

#[tokio::test]
async fn keyset_pages_have_no_gaps_or_repeats_on_equal_times() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        let samsung = instrument("KRX:005930");
        let mut expected = Vec::new();
        for n in 0..25u64 {
            // Three distinct times only; every third article names Samsung.
            let mut a = article(f, n, &format!("기사 {n}"), at(10 + (n % 3) as u32, 9));
            if n % 2 == 1 {
                a.country = Country::Us;
            }
            if n % 3 == 0 {
                a.links = vec![NewLink {
                    instrument_id: samsung.clone(),
                    in_title: false,
                }];
            }
            let id = s.insert_article(a.clone()).await.unwrap().article_id();
            expected.push((a.published_at, id, a.country, n % 3 == 0));
        }
        expected.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));

        let page_through = |country: Option<Country>, instrument_id: Option<InstrumentId>| {
            let s = s.clone();
            async move {
                let mut ids = Vec::new();
                let mut before = None;
                loop {
                    let page = s
                        .list_articles(ArticleFilter {
                            country,
                            instrument_id: instrument_id.clone(),
                            before,
                            limit: 4,
                        })
                        .await
                        .unwrap();
                    let Some(last) = page.last() else { break };
                    before = Some(ArticleCursor {
                        published_at: last.published_at,
                        id: last.id,
                    });
                    ids.extend(page.iter().map(|a| a.id));
                }
                ids
            }
        };
        let all: Vec<i64> = expected.iter().map(|e| e.1).collect();
        assert_eq!(
            page_through(None, None).await,
            all,
            "{b:?}: every article once, newest first"
        );
        let us: Vec<i64> = expected
            .iter()
            .filter(|e| e.2 == Country::Us)
            .map(|e| e.1)
            .collect();
        assert_eq!(page_through(Some(Country::Us), None).await, us, "{b:?}: US");
        let linked: Vec<i64> = expected.iter().filter(|e| e.3).map(|e| e.1).collect();
        assert_eq!(linked.len(), 9);
        assert_eq!(
            page_through(None, Some(samsung.clone())).await,
            linked,
            "{b:?}: Samsung's"
        );
        let linked_us: Vec<i64> = expected
            .iter()
            .filter(|e| e.3 && e.2 == Country::Us)
            .map(|e| e.1)
            .collect();
        assert_eq!(
            page_through(Some(Country::Us), Some(samsung.clone())).await,
            linked_us,
            "{b:?}: Samsung's in US news"
        );
        let one = s
            .list_articles(ArticleFilter {
                country: None,
                instrument_id: Some(samsung.clone()),
                before: None,
                limit: 1,
            })
            .await
            .unwrap();
        assert_eq!(one[0].links.len(), 1, "{b:?}: rows carry their links");
        assert_eq!(one[0].links[0].instrument_id, samsung);
    }
}

#[tokio::test]
async fn newest_first_lists_are_index_range_scans() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        for n in 0..50 {
            s.insert_article(article(f, n, "x", at(10, 9)))
                .await
                .unwrap();
        }
        let lists = [
            "SELECT id FROM news_articles WHERE TRUE AND country = 'KR'
             AND (published_at, id) < (1, 2) ORDER BY published_at DESC, id DESC LIMIT 20",
            "SELECT id FROM news_articles WHERE TRUE
             AND (published_at, id) < (1, 2) ORDER BY published_at DESC, id DESC LIMIT 20",
            "SELECT article_id AS id FROM news_article_instruments
             WHERE instrument_id = 'KRX:005930' AND (published_at, article_id) < (1, 2)
             ORDER BY published_at DESC, article_id DESC LIMIT 20",
        ];
        for sql in lists {
            let plan: Vec<String> = match db.backend {
                Backend::Sqlite => {
                    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
                    let rows: Vec<(i64, i64, i64, String)> =
                        sqlx::query_as(&format!("EXPLAIN QUERY PLAN {sql}"))
                            .fetch_all(&pool)
                            .await
                            .unwrap();
                    rows.into_iter().map(|r| r.3).collect()
                }
                Backend::Postgres => {
                    let mut conn = sqlx::PgPool::connect(&db.url)
                        .await
                        .unwrap()
                        .acquire()
                        .await
                        .unwrap()
                        .detach();
                    // A 50-row table is read whole otherwise.
                    sqlx::query("SET enable_seqscan = off")
                        .execute(&mut conn)
                        .await
                        .unwrap();
                    sqlx::query_scalar(&format!("EXPLAIN {sql}"))
                        .fetch_all(&mut conn)
                        .await
                        .unwrap()
                }
            };
            let plan = plan.join("\n");
            assert!(
                plan.contains("INDEX") || plan.contains("Index"),
                "{sql}\n{plan}"
            );
            assert!(
                !plan.contains("TEMP B-TREE") && !plan.contains("Sort"),
                "no sort: {sql}\n{plan}"
            );
        }
        drop(s);
    }
}

#[tokio::test]
async fn retention_removes_articles_with_their_sources_links_and_index_entries() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        for n in 0..6u64 {
            let mut a = article(f, n, "금리 동결", at(1 + n as u32, 9));
            a.links = vec![NewLink {
                instrument_id: instrument("KRX:005930"),
                in_title: true,
            }];
            let id = s.insert_article(a).await.unwrap().article_id();
            s.set_article_image(id, &format!("news/{id}-abc.jpg"))
                .await
                .unwrap();
        }
        let (deleted, images) = s.delete_articles_before(at(4, 0)).await.unwrap();
        assert_eq!(deleted, 3, "{b:?}");
        assert_eq!(
            images.len(),
            3,
            "the deleted articles' images, for the media store"
        );
        assert_eq!(s.count_articles().await.unwrap(), 3);
        assert_eq!(
            count_rows(&db, "SELECT COUNT(*) FROM news_article_sources").await,
            3
        );
        assert_eq!(
            count_rows(&db, "SELECT COUNT(*) FROM news_article_instruments").await,
            3
        );
        if b == Backend::Sqlite {
            // The index's own record of documents, not the content table.
            assert_eq!(
                count_rows(&db, "SELECT COUNT(*) FROM news_fts_docsize").await,
                3,
                "FTS rows of deleted articles are gone"
            );
        }
        let found = s
            .search_articles(&parse_query("금리"), &SearchFilter::default(), 0, 50)
            .await
            .unwrap();
        assert_eq!(found.len(), 3, "{b:?}");
        assert!(found.iter().all(|a| a.published_at >= at(4, 0)));
    }
}

/// One article of the search corpus: (key, country, days after Nov 1, title,
/// summary, instrument).
type Doc = (
    &'static str,
    Country,
    u32,
    &'static str,
    &'static str,
    Option<&'static str>,
);

const CORPUS: &[Doc] = &[
    (
        "samsung_q3",
        Country::Kr,
        1,
        "삼성전자, 3분기 실적 발표",
        "반도체 부문 영업이익 증가",
        Some("KRX:005930"),
    ),
    (
        "samsung_particle",
        Country::Kr,
        2,
        "삼성전자는 오늘 신제품을 공개했다",
        "갤럭시 신작",
        Some("KRX:005930"),
    ),
    (
        "samsung_apart",
        Country::Kr,
        3,
        "삼성 그룹의 전자 계열사 인사",
        "인사 발표",
        None,
    ),
    (
        "rate",
        Country::Kr,
        4,
        "한은이 금리를 동결했다",
        "기준금리 3.25% 유지",
        None,
    ),
    (
        "rate_hike",
        Country::Kr,
        5,
        "미국 금리 인상 우려",
        "연준 발언",
        None,
    ),
    (
        "sdi",
        Country::Kr,
        6,
        "삼성SDI, 배터리 증설",
        "005930 아님: 006400",
        Some("KRX:006400"),
    ),
    (
        "code",
        Country::Kr,
        7,
        "삼성전자(005930) 주가 급등",
        "외국인 순매수",
        Some("KRX:005930"),
    ),
    (
        "apple",
        Country::Us,
        8,
        "Apple's new iPhone sells out",
        "Cupertino",
        Some("NASDAQ:AAPL"),
    ),
    (
        "earnings",
        Country::Us,
        9,
        "Nvidia earnings beat estimates",
        "Data center revenue",
        Some("NASDAQ:NVDA"),
    ),
    (
        "earn",
        Country::Us,
        10,
        "How to earn more from dividends",
        "Yield",
        None,
    ),
    (
        "apple_pie",
        Country::Us,
        11,
        "Apple pie recipe",
        "Not a stock",
        None,
    ),
    (
        "quotes",
        Country::Us,
        12,
        "\"Quoted\" title: with * and - and (parens) & | !",
        "Odd text",
        None,
    ),
];

/// Queries and the keys they find, the same on both backends.
const SEARCHES: &[(&str, &[&str])] = &[
    (
        "삼성",
        &[
            "samsung_q3",
            "samsung_particle",
            "samsung_apart",
            "sdi",
            "code",
        ],
    ),
    ("금리", &["rate", "rate_hike"]),
    ("금리를", &["rate", "rate_hike"]),
    ("삼성전자가", &["samsung_q3", "samsung_particle", "code"]),
    ("삼성전자", &["samsung_q3", "samsung_particle", "code"]),
    ("삼성SDI", &["sdi"]),
    ("005930", &["sdi", "code"]),
    ("apple", &["apple", "apple_pie"]),
    ("Apple's", &["apple"]),
    ("earn", &["earnings", "earn"]),
    ("earnings", &["earnings"]),
    ("apple iphone", &["apple"]),
    ("반도체 삼성", &["samsung_q3"]),
    ("quoted", &["quotes"]),
    ("!!! ... ***", &[]),
    ("", &[]),
    ("테슬라", &[]),
];

#[tokio::test]
async fn search_finds_the_same_articles_on_both_backends() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        let mut ids: std::collections::HashMap<i64, &'static str> =
            std::collections::HashMap::new();
        for (n, (key, country, day, title, summary, link)) in CORPUS.iter().enumerate() {
            let mut a = article(f, n as u64, title, at(1 + day, 9));
            a.summary = (*summary).into();
            a.search_text = index_parts(&[title, summary]);
            a.country = *country;
            a.links = link
                .iter()
                .map(|id| NewLink {
                    instrument_id: instrument(id),
                    in_title: true,
                })
                .collect();
            let id = s.insert_article(a).await.unwrap();
            assert!(matches!(id, InsertOutcome::Inserted(_)), "{b:?}: {key}");
            ids.insert(id.article_id(), *key);
        }
        let search = |q: &'static str, filter: SearchFilter| {
            let s = s.clone();
            let ids = ids.clone();
            let query = parse_query(q);
            async move {
                let found = s
                    .search_articles(&query, &filter, 0, 50)
                    .await
                    .unwrap_or_else(|e| panic!("{q}: {e}"));
                found
                    .iter()
                    .map(|a| ids[&a.id])
                    .collect::<BTreeSet<&'static str>>()
            }
        };
        for (q, expected) in SEARCHES {
            let expected: BTreeSet<&str> = expected.iter().copied().collect();
            assert_eq!(
                search(q, SearchFilter::default()).await,
                expected,
                "{b:?}: {q:?}"
            );
        }

        let kr = SearchFilter {
            country: Some(Country::Kr),
            ..SearchFilter::default()
        };
        assert_eq!(search("삼성", kr.clone()).await.len(), 5, "{b:?}");
        let us = SearchFilter {
            country: Some(Country::Us),
            ..SearchFilter::default()
        };
        assert!(search("삼성", us).await.is_empty(), "{b:?}");
        let samsung = SearchFilter {
            instrument_id: Some(instrument("KRX:005930")),
            ..SearchFilter::default()
        };
        assert_eq!(
            search("삼성", samsung).await,
            BTreeSet::from(["samsung_q3", "samsung_particle", "code"]),
            "{b:?}: by instrument"
        );
        // Days 2..=3 after Nov 1 are Nov 3 and Nov 4.
        let days = SearchFilter {
            from: Some(at(3, 0)),
            to: Some(at(5, 0)),
            ..SearchFilter::default()
        };
        assert_eq!(
            search("삼성", days).await,
            BTreeSet::from(["samsung_particle", "samsung_apart"]),
            "{b:?}: by date"
        );

        // Ranking: more of the query's words first; among equals, the newest.
        let ranked = s
            .search_articles(&parse_query("apple"), &SearchFilter::default(), 0, 50)
            .await
            .unwrap();
        assert_eq!(ranked.len(), 2);
        let paged = s
            .search_articles(&parse_query("삼성"), &SearchFilter::default(), 2, 2)
            .await
            .unwrap();
        let all = s
            .search_articles(&parse_query("삼성"), &SearchFilter::default(), 0, 50)
            .await
            .unwrap();
        assert_eq!(
            paged.iter().map(|a| a.id).collect::<Vec<_>>(),
            all[2..4].iter().map(|a| a.id).collect::<Vec<_>>(),
            "{b:?}: offset pages through the same order"
        );
    }
}

#[tokio::test]
async fn user_text_never_breaks_the_query_syntax() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        s.insert_article(article(f, 1, "Apple and 삼성 NOT OR NEAR", at(10, 9)))
            .await
            .unwrap();
        let hostile = [
            "\"",
            "'",
            "*",
            "-",
            ":",
            "&",
            "|",
            "!",
            "(",
            ")",
            "\"apple",
            "apple\"",
            "'삼성'",
            "apple*",
            "-apple",
            "apple:*",
            "a & b",
            "a | b",
            "!apple",
            "(apple",
            "apple)",
            "NOT apple",
            "apple OR",
            "NEAR(apple)",
            "AND",
            "\\",
            "<->",
            "apple <-> 삼성",
            "^apple",
            "{apple}",
            "col:apple",
            "\u{0}",
            "🍎",
            "ＡＰＰＬＥ",
        ];
        for q in hostile {
            let found = s
                .search_articles(&parse_query(q), &SearchFilter::default(), 0, 20)
                .await;
            assert!(found.is_ok(), "{b:?}: {q:?}: {found:?}");
        }
        let found = s
            .search_articles(
                &parse_query("\"apple\" -삼성"),
                &SearchFilter::default(),
                0,
                20,
            )
            .await
            .unwrap();
        assert_eq!(found.len(), 1, "{b:?}: punctuation is not syntax");
        let found = s
            .search_articles(
                &parse_query("not or near and"),
                &SearchFilter::default(),
                0,
                20,
            )
            .await
            .unwrap();
        assert_eq!(found.len(), 1, "{b:?}: FTS5 keywords are words");
    }
}

#[tokio::test]
async fn search_ranks_by_relevance_then_recency() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        let insert = |n: u64, title: &'static str, day: u32| {
            let s = s.clone();
            async move {
                s.insert_article(article(f, n, title, at(day, 9)))
                    .await
                    .unwrap()
                    .article_id()
            }
        };
        let old_once = insert(1, "금리 뉴스 하나 둘 셋", 1).await;
        let new_thrice = insert(2, "금리 금리 금리 뉴스 하나", 20).await;
        let new_once = insert(3, "금리 뉴스 하나 둘 셋", 20).await;
        let newer_once = insert(4, "금리 뉴스 하나 둘 셋", 21).await;
        let found: Vec<i64> = s
            .search_articles(&parse_query("금리"), &SearchFilter::default(), 0, 10)
            .await
            .unwrap()
            .iter()
            .map(|a| a.id)
            .collect();
        assert_eq!(
            found,
            vec![new_thrice, newer_once, new_once, old_once],
            "{b:?}: the word three times first; among equals the newest; 20 days old last"
        );
    }
}

/// Whether `query` matches `text` by the tokens alone (what both indexes should do):
/// every term, a word as one token, a prefix as the start of one, a phrase as
/// consecutive tokens.
fn model_matches(query: &moat_search::Query, text: &str) -> bool {
    use moat_search::Term;
    let tokens: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).collect();
    !query.is_empty()
        && query.terms.iter().all(|term| match term {
            Term::Word(w) => tokens.contains(&w.as_str()),
            Term::Prefix(p) => tokens.iter().any(|t| t.starts_with(p.as_str())),
            Term::Phrase(bigrams) => tokens
                .windows(bigrams.len())
                .any(|w| w.iter().zip(bigrams).all(|(t, b)| *t == b.as_str())),
        })
}

#[tokio::test]
async fn random_queries_find_what_the_tokens_say_on_both_backends() {
    // Words that test the tokenizer's agreement with FTS5 and PostgreSQL's parser:
    // particles, scientific-looking numbers, codes with letters, other scripts,
    // full-width forms, apostrophes and keywords of both query syntaxes.
    const WORDS: &[&str] = &[
        "삼성전자가",
        "삼성",
        "전자",
        "금리를",
        "금리",
        "반도체",
        "수출이",
        "가",
        "은행",
        "2e10x",
        "1e5",
        "12e3abc",
        "0015n0",
        "005930",
        "ＡＢＣ",
        "abc",
        "apple's",
        "apples",
        "earn",
        "earnings",
        "and",
        "or",
        "not",
        "near",
        "東京",
        "とうきょう",
        "トヨタ",
        "한국",
        "韓國",
        "café",
        "x",
        "7",
    ];
    let mut seed = 0x1234_5678_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut docs = Vec::new();
    for _ in 0..80 {
        let len = 1 + next(6);
        let words: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
        docs.push(words.join(if next(3) == 0 { "" } else { " " }));
    }
    let mut queries = Vec::new();
    for _ in 0..120 {
        let len = 1 + next(2);
        let words: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
        queries.push(words.join(" "));
    }
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        let mut stored = Vec::new();
        for (n, text) in docs.iter().enumerate() {
            let a = article(f, n as u64, text, at(10, 9));
            let id = s.insert_article(a.clone()).await.unwrap().article_id();
            stored.push((id, a.search_text));
        }
        let mut nonempty = 0;
        for q in &queries {
            let query = parse_query(q);
            let expected: BTreeSet<i64> = stored
                .iter()
                .filter(|(_, text)| model_matches(&query, text))
                .map(|(id, _)| *id)
                .collect();
            let found: BTreeSet<i64> = s
                .search_articles(&query, &SearchFilter::default(), 0, 100)
                .await
                .unwrap()
                .iter()
                .map(|a| a.id)
                .collect();
            assert_eq!(found, expected, "{b:?}: {q:?} ({query:?})");
            nonempty += usize::from(!found.is_empty());
        }
        assert!(
            nonempty > 60,
            "{b:?}: only {nonempty} queries found something"
        );
    }
}

/// PostgreSQL asks its index for the newest id buckets first, then as far back as the
/// matches found predict (`SEARCH_BUCKET_LEVELS`, `SEARCH_FIRST_PROBE_IDS`): matches far
/// apart in ids, with newer articles that do not match above them, are all found,
/// ranked, on both backends, and a filter still applies.
#[tokio::test]
async fn search_finds_matches_however_far_apart_their_ids_are() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let b = db.backend;
        let f = feed(s.as_ref(), "https://a.example/rss").await;
        let mut n = 0;
        let mut insert = |title: &'static str, day: u32, next_id: i64| {
            n += 1;
            let (s, db) = (s.clone(), &db);
            let n = n;
            async move {
                db.execute_raw(&match db.backend {
                    Backend::Sqlite => format!(
                        "UPDATE sqlite_sequence SET seq = {} WHERE name = 'news_articles'",
                        next_id - 1
                    ),
                    Backend::Postgres => {
                        format!("ALTER TABLE news_articles ALTER COLUMN id RESTART WITH {next_id}")
                    }
                })
                .await;
                let id = s
                    .insert_article(article(f, n, title, at(day, 9)))
                    .await
                    .unwrap()
                    .article_id();
                assert_eq!(id, next_id, "{:?}", db.backend);
                id
            }
        };
        let bucket = SEARCH_BUCKET_LEVELS[0].0;
        let oldest = insert("삼성전자 금리 발표", 1, 1).await;
        let old = insert("삼성전자는 금리를 본다", 2, 3 * bucket + 1).await;
        let middle = insert("삼성전자가 신제품 발표", 3, 20 * bucket).await;
        insert("환율 하락 마감", 4, 40 * bucket + 5).await;
        let new = insert("삼성전자 실적 발표", 5, 100 * bucket + 7).await;
        let newest = insert("삼성전자 실적 전망 실적", 5, 100 * bucket + 8).await;
        insert("환율 상승 마감", 6, 100 * bucket + 9).await;
        let ids = |query: &'static str, filter: SearchFilter| {
            let s = s.clone();
            async move {
                let mut found: Vec<i64> = s
                    .search_articles(&parse_query(query), &filter, 0, 20)
                    .await
                    .unwrap()
                    .iter()
                    .map(|a| a.id)
                    .collect();
                found.sort_unstable();
                found
            }
        };
        assert_eq!(
            ids("삼성전자", SearchFilter::default()).await,
            vec![oldest, old, middle, new, newest],
            "{b:?}: two matches in the newest buckets, three far below"
        );
        assert_eq!(
            ids("금리", SearchFilter::default()).await,
            vec![oldest, old],
            "{b:?}: nothing in the newest buckets, two far below"
        );
        assert_eq!(
            ids("실적", SearchFilter::default()).await,
            vec![new, newest],
            "{b:?}"
        );
        assert_eq!(
            ids("없는단어", SearchFilter::default()).await,
            Vec::<i64>::new()
        );
        let us = SearchFilter {
            country: Some(Country::Us),
            ..SearchFilter::default()
        };
        assert_eq!(ids("삼성전자", us).await, Vec::<i64>::new(), "{b:?}");
        // The newest, with the word twice, ranks first.
        let first = s
            .search_articles(&parse_query("실적"), &SearchFilter::default(), 0, 1)
            .await
            .unwrap();
        assert_eq!(first[0].id, newest, "{b:?}");
    }
}
