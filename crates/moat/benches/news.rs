//! A news poll cycle under load (prints figures, asserts nothing): 300 feeds served by
//! 30 local HTTP servers on 127.0.0.2–127.0.0.31 (10 feeds each, 30 items per feed,
//! Korean and English stories naming catalogue instruments, some wire stories
//! carried by several feeds), fetched by `moat news fetch --all` (the real binary, the
//! poller's own code path) into a fresh SQLite database, with the default politeness
//! (16 fetches at once, 2 per host, 250 ms between two requests to one host).
//! Reports the cycle's wall time, the process's peak resident memory (VmHWM, sampled
//! every 10 ms until exit), articles stored, then a second cycle, where every feed
//! answers 304 to the conditional GET.
//!
//!   cargo bench -p moat --bench news

use std::{
    collections::HashMap,
    io::Write,
    process::{Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    extract::{Path, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};

mod support;
use support::{db_bytes, status_kb};

const HOSTS: u8 = 30;
const FEEDS_PER_HOST: usize = 10;
const ITEMS_PER_FEED: usize = 30;

const KR_NAMES: &[&str] = &[
    "삼성전자",
    "SK하이닉스",
    "현대차",
    "기아",
    "NAVER",
    "카카오",
    "LG에너지솔루션",
    "셀트리온",
    "POSCO홀딩스",
    "KB금융",
];
const US_NAMES: &[&str] = &[
    "Apple",
    "Microsoft",
    "NVIDIA",
    "Amazon",
    "Alphabet",
    "Tesla",
    "Meta Platforms",
    "Broadcom",
    "JPMorgan Chase",
    "Exxon Mobil",
];
const KR_WORDS: &[&str] = &[
    "실적",
    "금리",
    "반도체",
    "배당",
    "공시",
    "외국인",
    "매수",
    "상승",
    "하락",
    "전망",
    "수출",
    "환율",
];
const EN_WORDS: &[&str] = &[
    "earnings", "rates", "guidance", "dividend", "filing", "buyback", "shares", "rally", "slump",
    "outlook", "revenue", "tariffs",
];

struct Feeds(HashMap<String, (String, String)>); // path → (body, etag)

fn feed_body(host: u8, feed: usize) -> String {
    let korean = feed.is_multiple_of(2);
    let now = chrono::Utc::now();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>bench</title><link>http://example.com/</link><description>bench</description>\n");
    for i in 0..ITEMS_PER_FEED {
        // Every fifth item is a wire story every host carries (merged, not stored twice).
        let (key, wire) = if i.is_multiple_of(5) {
            (format!("wire-{i}"), true)
        } else {
            (format!("{host}-{feed}-{i}"), false)
        };
        let n = (host as usize * 7 + feed * 3 + i) % 10;
        let (title, body) = if korean {
            (
                format!(
                    "{}, {} {} 소식 {key}",
                    KR_NAMES[n],
                    KR_WORDS[i % 12],
                    KR_WORDS[(i + 5) % 12]
                ),
                format!(
                    "{}의 {}이 시장의 관심을 받고 있다. 증권가는 {} {}에 주목한다. ({key})",
                    KR_NAMES[n],
                    KR_WORDS[(i + 1) % 12],
                    KR_WORDS[(i + 2) % 12],
                    KR_WORDS[(i + 3) % 12]
                ),
            )
        } else {
            (
                format!(
                    "{} {} {} update {key}",
                    US_NAMES[n],
                    EN_WORDS[i % 12],
                    EN_WORDS[(i + 5) % 12]
                ),
                format!(
                    "{} reported {} as analysts watched {} and {}. ({key})",
                    US_NAMES[n],
                    EN_WORDS[(i + 1) % 12],
                    EN_WORDS[(i + 2) % 12],
                    EN_WORDS[(i + 3) % 12]
                ),
            )
        };
        let link = if wire {
            format!("http://wire.example.com/{key}")
        } else {
            format!("http://127.0.0.{host}/story/{feed}/{i}")
        };
        let date = (now - chrono::Duration::minutes((i * 37) as i64)).to_rfc2822();
        out.push_str(&format!(
            "<item><guid>{link}</guid><link>{link}</link><title>{title}</title><description>{body}</description><pubDate>{date}</pubDate></item>\n"
        ));
    }
    out.push_str("</channel></rss>");
    out
}

async fn serve(
    State(feeds): State<Arc<Feeds>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some((body, etag)) = feeds.0.get(&name) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag.clone())]).into_response();
    }
    (
        [
            (header::CONTENT_TYPE, "application/rss+xml".to_owned()),
            (header::ETAG, etag.clone()),
        ],
        body.clone(),
    )
        .into_response()
}

fn run_cycle(
    bin: &str,
    config: &std::path::Path,
    data: &std::path::Path,
    which: &[&str],
) -> (f64, f64, String) {
    let started = Instant::now();
    let mut child = Command::new(bin)
        .args(["news", "fetch"])
        .args(which)
        .arg("--config")
        .arg(config)
        .arg("--data-dir")
        .arg(data)
        .env("MOAT_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("moat news fetch");
    let pid = child.id();
    let mut peak_kb: f64 = 0.0;
    loop {
        peak_kb = peak_kb.max(status_kb(pid, "VmHWM:"));
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = started.elapsed().as_secs_f64();
    let mut out = String::new();
    use std::io::Read;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let summary = out.lines().last().unwrap_or_default().to_owned();
    (wall, peak_kb / 1024.0, summary)
}

fn main() {
    let bin = env!("CARGO_BIN_EXE_moat");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut config = std::fs::File::create(dir.path().join("moat.toml")).unwrap();
    writeln!(config, "[news]\nimages = false").unwrap();
    for host in 2..2 + HOSTS {
        let feeds: HashMap<String, (String, String)> = (0..FEEDS_PER_HOST)
            .map(|f| {
                let body = feed_body(host, f);
                let etag = format!("\"{host}-{f}-{}\"", body.len());
                (format!("{f}.xml"), (body, etag))
            })
            .collect();
        let state = Arc::new(Feeds(feeds));
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(format!("127.0.0.{host}:0")))
            .expect("bind a loopback address");
        let addr = listener.local_addr().unwrap();
        let router = axum::Router::new()
            .route("/feeds/{name}", axum::routing::get(serve))
            .with_state(state);
        runtime.spawn(async move { axum::serve(listener, router).await });
        for f in 0..FEEDS_PER_HOST {
            let country = if f.is_multiple_of(2) { "KR" } else { "US" };
            let language = if f.is_multiple_of(2) { "ko" } else { "en" };
            writeln!(
                config,
                "[[news.feeds]]\nurl = \"http://{addr}/feeds/{f}.xml\"\ncountry = \"{country}\"\nlanguage = \"{language}\"\nsource_name = \"Bench {host}-{f}\"\n"
            )
            .unwrap();
        }
    }
    drop(config);
    let data = dir.path().join("data");
    println!(
        "news poll cycle: {} feeds on {} loopback hosts, {} items each",
        HOSTS as usize * FEEDS_PER_HOST,
        HOSTS,
        ITEMS_PER_FEED
    );
    let config = dir.path().join("moat.toml");
    let (wall, peak, summary) = run_cycle(bin, &config, &data, &["--all"]);
    println!("  first cycle:  {wall:.2} s wall, peak RSS {peak:.1} MB — {summary}");
    println!(
        "  database after it: {:.1} MB",
        db_bytes(&data) as f64 / 1e6
    );
    let (wall, peak, summary) = run_cycle(bin, &config, &data, &["--all"]);
    println!("  second cycle (all 304): {wall:.2} s wall, peak RSS {peak:.1} MB — {summary}");
    // The floor: the same process, its database and catalogue open, fetching nothing.
    let (wall, peak, _) = run_cycle(bin, &config, &data, &["--feed", "999999"]);
    println!(
        "  baseline (start, open, stop; nothing fetched): {wall:.2} s wall, peak RSS {peak:.1} MB"
    );
}
