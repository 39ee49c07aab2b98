//! News storage at size (issue 19): loads a synthetic corpus, then measures search and
//! the newest-first lists through `NewsStorage`, on SQLite and (with
//! `MOAT_TEST_POSTGRES_URL`) PostgreSQL. Prints figures; no assertions.
//!
//!   NEWS_BENCH_ARTICLES=100000 MOAT_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
//!   cargo bench -p moat-storage --bench news
//!
//! The corpus: `NEWS_BENCH_ARTICLES` articles (default 500,000) over 180 days, half
//! Korean, half English, titles and summaries made of the catalogue's instrument
//! names (popular ones more often) and common market words, a Korean particle after
//! some words, one rare word in one article of 2,000, 1–3 instrument links each. It
//! is bulk-loaded with multi-row inserts (the schema's triggers and indexes do their
//! work as on any insert); `insert_article`, the ingest path with its dedup ladder,
//! is timed apart on 1,000 more.

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use moat_market::{catalog::curated, Instrument};
use moat_search::{index_parts, parse_query};
use moat_storage::{
    testing::TestDatabase, ArticleCursor, ArticleFilter, Backend, Country, NewArticle, NewFeed,
    NewLink, SearchFilter, Storage,
};

const DEFAULT_ARTICLES: usize = 500_000;
const LOAD_CHUNK: usize = 500;
const SPAN_DAYS: i64 = 180;
const RARE_EVERY: u64 = 2_000;
const SEARCH_ROUNDS: usize = 20;
const LIST_ITERATIONS: usize = 400;
const INSERT_SAMPLE: usize = 1_000;
const PAGE: u32 = 20;

const KO_WORDS: &[&str] = &[
    "실적",
    "주가",
    "급등",
    "급락",
    "영업이익",
    "매출",
    "반도체",
    "금리",
    "환율",
    "외국인",
    "순매수",
    "순매도",
    "목표주가",
    "상향",
    "하향",
    "배당",
    "증설",
    "수주",
    "발표",
    "전망",
    "코스피",
    "코스닥",
    "투자",
    "시장",
    "분기",
    "최대",
    "감소",
    "증가",
    "신제품",
    "인수",
    "합병",
    "규제",
    "수출",
    "기관",
    "개인",
    "공시",
    "자사주",
    "소각",
    "신고가",
    "약세",
];
const KO_PARTICLES: &[&str] = &["", "", "", "가", "는", "를", "의", "에", "이", "은", "에서"];
const EN_WORDS: &[&str] = &[
    "shares",
    "earnings",
    "revenue",
    "guidance",
    "rally",
    "slump",
    "stock",
    "market",
    "investors",
    "dividend",
    "buyback",
    "forecast",
    "analysts",
    "upgrade",
    "downgrade",
    "fed",
    "rates",
    "inflation",
    "quarter",
    "record",
    "profit",
    "loss",
    "deal",
    "acquisition",
    "chips",
    "demand",
    "outlook",
    "beats",
    "misses",
    "estimates",
    "surge",
    "falls",
    "rises",
    "trading",
    "index",
    "futures",
    "bond",
    "yields",
    "tariffs",
    "exports",
];

/// A small deterministic generator (SplitMix64), so runs compare.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Skewed to the front: index `n·u²`.
    fn skewed(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((u * u) * n as f64) as usize
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }
}

fn rare_word(i: u64, korean: bool) -> String {
    // Words that appear nowhere else: a syllable pair or a Latin stem per number.
    if korean {
        let a = char::from_u32(0xAC00 + (i % 11_172) as u32).unwrap_or('가');
        let b = char::from_u32(0xAC00 + ((i * 7 + 3) % 11_172) as u32).unwrap_or('나');
        format!("희귀{a}{b}")
    } else {
        format!("zq{i}rare")
    }
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 0, 0, 0).unwrap()
}

/// Article `i` of the corpus.
fn make(i: u64, n: usize, rng: &mut Rng, kr: &[Instrument], us: &[Instrument]) -> NewArticle {
    let korean = i.is_multiple_of(2);
    let pool = if korean { kr } else { us };
    let mut links = Vec::new();
    let mut title = Vec::new();
    let mut summary = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let inst = &pool[rng.skewed(pool.len())];
        let name = if korean { &inst.name_ko } else { &inst.name_en };
        if links.iter().all(|l: &NewLink| l.instrument_id != inst.id) {
            let in_title = links.is_empty();
            if korean && rng.below(4) == 0 {
                summary.push(format!("({})", inst.id.symbol()));
            }
            (if in_title { &mut title } else { &mut summary }).push(if korean {
                format!("{name}{}", rng.pick(KO_PARTICLES))
            } else {
                name.clone()
            });
            links.push(NewLink {
                instrument_id: inst.id.clone(),
                in_title,
            });
        }
    }
    for (words, count) in [(&mut title, 4), (&mut summary, 14)] {
        for _ in 0..count {
            words.push(if korean {
                format!("{}{}", rng.pick(KO_WORDS), rng.pick(KO_PARTICLES))
            } else {
                rng.pick(EN_WORDS).to_owned()
            });
        }
    }
    if i % RARE_EVERY == 1 || i % RARE_EVERY == 2 {
        summary.push(rare_word(i / RARE_EVERY, korean));
    }
    let title = title.join(" ");
    let summary = summary.join(" ");
    // Ids follow time, with a little disorder (feeds report late).
    let step = SPAN_DAYS * 86_400_000 / n.max(1) as i64;
    let published =
        start() + chrono::Duration::milliseconds(i as i64 * step - (rng.below(3_600_000) as i64));
    NewArticle {
        feed_id: 1 + (i % 2) as i64,
        guid: format!("g{i}"),
        canonical_url: format!("https://news.example/{i}"),
        url: format!("https://news.example/{i}"),
        search_text: index_parts(&[&title, &summary]),
        title,
        summary,
        source_name: if korean { "연합뉴스" } else { "Reuters" }.into(),
        country: if korean { Country::Kr } else { Country::Us },
        language: if korean { "ko" } else { "en" }.into(),
        published_at: published,
        fetched_at: published,
        simhash: rng.next() as i64,
        image_key: None,
        links,
    }
}

macro_rules! bulk_insert {
    ($name:ident, $db:ty) => {
        async fn $name(pool: &sqlx::Pool<$db>, articles: &[(i64, NewArticle)]) {
            let mut tx = pool.begin().await.expect("begin");
            let mut q = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO news_articles (id, canonical_url, url, title, summary, source_name,
                     country, language, published_at, fetched_at, simhash, band0, band1, band2,
                     band3, search_text) ",
            );
            if <$db as sqlx::Database>::NAME == "PostgreSQL" {
                q.push(" OVERRIDING SYSTEM VALUE ");
            }
            q.push_values(articles, |mut b, (id, a)| {
                let bits = a.simhash as u64;
                b.push_bind(*id)
                    .push_bind(&a.canonical_url)
                    .push_bind(&a.url)
                    .push_bind(&a.title)
                    .push_bind(&a.summary)
                    .push_bind(&a.source_name)
                    .push_bind(a.country.as_str())
                    .push_bind(&a.language)
                    .push_bind(a.published_at.timestamp_millis())
                    .push_bind(a.fetched_at.timestamp_millis())
                    .push_bind(a.simhash)
                    .push_bind((bits & 0xFFFF) as i32)
                    .push_bind(((bits >> 16) & 0xFFFF) as i32)
                    .push_bind(((bits >> 32) & 0xFFFF) as i32)
                    .push_bind(((bits >> 48) & 0xFFFF) as i32)
                    .push_bind(&a.search_text);
            });
            q.build().execute(&mut *tx).await.expect("articles");
            let mut q = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO news_article_sources (article_id, feed_id, guid, url, source_name) ",
            );
            q.push_values(articles, |mut b, (id, a)| {
                b.push_bind(*id)
                    .push_bind(a.feed_id)
                    .push_bind(&a.guid)
                    .push_bind(&a.url)
                    .push_bind(&a.source_name);
            });
            q.build().execute(&mut *tx).await.expect("sources");
            let links: Vec<(i64, &NewArticle, &NewLink)> = articles
                .iter()
                .flat_map(|(id, a)| a.links.iter().map(move |l| (*id, a, l)))
                .collect();
            let mut q = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO news_article_instruments
                     (article_id, instrument_id, in_title, published_at, country) ",
            );
            q.push_values(links, |mut b, (id, a, l)| {
                b.push_bind(id)
                    .push_bind(l.instrument_id.to_string())
                    .push_bind(l.in_title)
                    .push_bind(a.published_at.timestamp_millis())
                    .push_bind(a.country.as_str());
            });
            q.build().execute(&mut *tx).await.expect("links");
            tx.commit().await.expect("commit");
        }
    };
}

bulk_insert!(bulk_sqlite, sqlx::Sqlite);
bulk_insert!(bulk_postgres, sqlx::Postgres);

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn line(label: &str, times: &mut [Duration], extra: &str) {
    times.sort();
    println!(
        "  {label:<34} p50 {:>8} ms  p99 {:>8} ms  {extra}",
        ms(percentile(times, 0.50)),
        ms(percentile(times, 0.99)),
    );
}

/// The queries: (label, text), 1 and 2 terms, Korean and English, rare and frequent.
fn queries(kr: &[Instrument], us: &[Instrument]) -> Vec<(String, String)> {
    let mut q = vec![
        ("ko 1 frequent".into(), "실적".into()),
        ("ko 1 frequent+particle".into(), "주가가".into()),
        ("ko 1 name (popular)".into(), kr[0].name_ko.clone()),
        ("ko 1 name (rare)".into(), kr[kr.len() - 1].name_ko.clone()),
        ("ko 1 rare word".into(), rare_word(3, true)),
        ("ko 2 frequent".into(), "반도체 수출".into()),
        ("ko 2 name+word".into(), format!("{} 실적", kr[1].name_ko)),
        (
            "ko 2 rare+frequent".into(),
            format!("{} 금리", rare_word(5, true)),
        ),
        ("code".into(), kr[0].id.symbol().to_owned()),
        ("en 1 frequent".into(), "earnings".into()),
        ("en 1 prefix".into(), "earn".into()),
        ("en 1 name (popular)".into(), us[0].name_en.clone()),
        ("en 1 rare word".into(), rare_word(3, false)),
        ("en 2 frequent".into(), "chips demand".into()),
        (
            "en 2 name+word".into(),
            format!("{} earnings", us[1].name_en),
        ),
        (
            "en 2 rare+frequent".into(),
            format!("{} market", rare_word(5, false)),
        ),
        ("nothing".into(), "없는단어".into()),
    ];
    q.retain(|(_, text)| !parse_query(text).is_empty());
    q
}

async fn run(name: &str, db: &TestDatabase, n: usize, kr: &[Instrument], us: &[Instrument]) {
    let s = db.storage().await;
    for (url, country) in [
        ("https://kr.example/rss", Country::Kr),
        ("https://us.example/rss", Country::Us),
    ] {
        s.create_feed(NewFeed {
            url: url.into(),
            source_name: "bench".into(),
            country,
            language: "ko".into(),
            enabled: true,
            is_default: false,
            interval_secs: 900,
            created_at: start(),
        })
        .await
        .expect("feed");
    }
    println!("{name}: {n} articles");

    // Load.
    let mut rng = Rng(19);
    let started = Instant::now();
    let sqlite_pool;
    let pg_pool;
    match db.backend {
        Backend::Sqlite => {
            sqlite_pool = Some(sqlx::SqlitePool::connect(&db.url).await.expect("pool"));
            pg_pool = None;
        }
        Backend::Postgres => {
            pg_pool = Some(sqlx::PgPool::connect(&db.url).await.expect("pool"));
            sqlite_pool = None;
        }
    }
    let mut i = 0u64;
    while (i as usize) < n {
        let chunk: Vec<(i64, NewArticle)> = (i..(i + LOAD_CHUNK as u64).min(n as u64))
            .map(|j| (j as i64 + 1, make(j, n, &mut rng, kr, us)))
            .collect();
        i += chunk.len() as u64;
        if let Some(pool) = &sqlite_pool {
            bulk_sqlite(pool, &chunk).await;
        }
        if let Some(pool) = &pg_pool {
            bulk_postgres(pool, &chunk).await;
        }
    }
    if let Some(pool) = &pg_pool {
        sqlx::query(&format!(
            "ALTER TABLE news_articles ALTER COLUMN id RESTART WITH {}",
            n + 1
        ))
        .execute(pool)
        .await
        .expect("restart identity");
        sqlx::query("VACUUM ANALYZE")
            .execute(pool)
            .await
            .expect("analyze");
    }
    if let Some(pool) = &sqlite_pool {
        sqlx::query("ANALYZE").execute(pool).await.expect("analyze");
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(pool)
            .await
            .expect("checkpoint");
    }
    let load = started.elapsed();
    let bytes: i64 = match (&sqlite_pool, &pg_pool) {
        (Some(pool), _) => sqlx::query_scalar(
            "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
        )
        .fetch_one(pool)
        .await
        .expect("size"),
        (_, Some(pool)) => sqlx::query_scalar(
            "SELECT pg_total_relation_size('news_articles') + pg_total_relation_size('news_article_sources') + pg_total_relation_size('news_article_instruments')",
        )
        .fetch_one(pool)
        .await
        .expect("size"),
        _ => 0,
    };
    println!(
        "  load (bulk)                          {:.1} s ({:.0} articles/s)",
        load.as_secs_f64(),
        n as f64 / load.as_secs_f64()
    );
    println!(
        "  size                                 {:.1} MB per 100,000 articles ({:.1} MB in all{})",
        bytes as f64 / 1e6 / (n as f64 / 100_000.0),
        bytes as f64 / 1e6,
        if db.backend == Backend::Postgres {
            ", the news tables with their indexes and TOAST"
        } else {
            ", the whole file"
        }
    );

    // The ingest path.
    let mut times = Vec::new();
    for j in 0..INSERT_SAMPLE {
        let mut a = make(n as u64 + j as u64, n, &mut rng, kr, us);
        a.published_at = start() + chrono::Duration::days(SPAN_DAYS);
        let t = Instant::now();
        s.insert_article(a).await.expect("insert");
        times.push(t.elapsed());
    }
    line("insert_article (dedup ladder)", &mut times, "");

    // Search.
    let mut all = Vec::new();
    println!("  search, limit {PAGE}, {SEARCH_ROUNDS} rounds:");
    for (label, text) in queries(kr, us) {
        let query = parse_query(&text);
        let mut times = Vec::new();
        let mut found = 0;
        for round in 0..SEARCH_ROUNDS + 2 {
            let t = Instant::now();
            let rows = s
                .search_articles(&query, &SearchFilter::default(), 0, PAGE)
                .await
                .expect("search");
            if round >= 2 {
                times.push(t.elapsed());
            }
            found = rows.len();
        }
        let matches = count_matches(s.as_ref(), &query).await;
        all.extend(times.iter().copied());
        line(
            &format!("{label} ({text})"),
            &mut times,
            &format!("{found} shown, {matches} in window"),
        );
    }
    line("ALL QUERIES", &mut all, "");

    // Filtered search: a country and an instrument.
    let mut times = Vec::new();
    let q = parse_query("실적");
    let filter = SearchFilter {
        instrument_id: Some(kr[0].id.clone()),
        country: Some(Country::Kr),
        ..SearchFilter::default()
    };
    for _ in 0..SEARCH_ROUNDS {
        let t = Instant::now();
        s.search_articles(&q, &filter, 0, PAGE)
            .await
            .expect("search");
        times.push(t.elapsed());
    }
    line("search 실적 + KR + instrument", &mut times, "");

    // Lists.
    for (label, country, instrument) in [
        ("list KR, newest first", Some(Country::Kr), None),
        ("list US, newest first", Some(Country::Us), None),
        ("list popular instrument", None, Some(kr[0].id.clone())),
        (
            "list rare instrument",
            None,
            Some(us[us.len() - 1].id.clone()),
        ),
    ] {
        let mut first = Vec::new();
        let mut deep = Vec::new();
        for k in 0..LIST_ITERATIONS {
            let before = if k % 2 == 0 {
                None
            } else {
                // A page somewhere in the 180 days.
                let day = rng.below(SPAN_DAYS as usize) as i64;
                Some(ArticleCursor {
                    published_at: start() + chrono::Duration::days(day),
                    id: i64::MAX,
                })
            };
            let t = Instant::now();
            let page = s
                .list_articles(ArticleFilter {
                    country,
                    instrument_id: instrument.clone(),
                    before,
                    limit: PAGE,
                })
                .await
                .expect("list");
            std::hint::black_box(page);
            if before.is_none() {
                &mut first
            } else {
                &mut deep
            }
            .push(t.elapsed());
        }
        line(&format!("{label}, first page"), &mut first, "");
        line(&format!("{label}, a page within"), &mut deep, "");
    }
    s.close().await;
    if std::env::var_os("NEWS_BENCH_KEEP").is_some() {
        println!("  kept: {}", db.url);
    }
}

/// Matches in the search window (up to 5,000), by paging the ranking's ids.
async fn count_matches(s: &dyn Storage, query: &moat_search::Query) -> usize {
    let mut count = 0;
    loop {
        let page = s
            .search_articles(query, &SearchFilter::default(), count as u32, 100)
            .await
            .expect("search");
        count += page.len();
        if page.len() < 100 {
            return count;
        }
    }
}

fn instruments_of(country: &str) -> Vec<Instrument> {
    let mut list: Vec<Instrument> = curated()
        .into_iter()
        .filter(|i| i.country == country && i.kind != moat_market::Kind::Index)
        .collect();
    list.sort_by_key(|i| std::cmp::Reverse(i.popularity));
    list
}

#[tokio::main]
async fn main() {
    let n = std::env::var("NEWS_BENCH_ARTICLES")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(DEFAULT_ARTICLES);
    let kr = instruments_of("KR");
    let us = instruments_of("US");
    println!(
        "news storage benchmark: {n} articles, {} KR and {} US instruments",
        kr.len(),
        us.len()
    );
    // NEWS_BENCH_KEEP: leave the databases behind, to look at their plans.
    let keep = std::env::var_os("NEWS_BENCH_KEEP").is_some();
    if std::env::var_os("NEWS_BENCH_SKIP_SQLITE").is_none() {
        let sqlite = TestDatabase::sqlite();
        run("SQLite", &sqlite, n, &kr, &us).await;
        if keep {
            std::mem::forget(sqlite);
        }
    }
    match TestDatabase::postgres().await {
        Some(pg) => {
            run("PostgreSQL", &pg, n, &kr, &us).await;
            if keep {
                std::mem::forget(pg);
            }
        }
        None => println!("(PostgreSQL skipped: MOAT_TEST_POSTGRES_URL is not set)"),
    }
}
