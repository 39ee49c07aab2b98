//! Session-recording ingest under load (prints figures, asserts nothing): the real
//! `moat` binary on a fresh SQLite database, and a load client in this process playing
//! 500 recorded browser sessions at once. Each session calls `initializeSession`, then
//! sends `PushSessionEvents` every 2 s for a minute, as highlight.run 9.20.0 does
//! (design/recorder-protocol.md): base64 of gzip of a push JSON with rrweb events (a
//! full DOM snapshot first, then mutations, mouse moves, scrolls and clicks), console
//! messages, recorded network requests with bodies and, now and then, an error. Pushes
//! are 5–50 KB compressed. Reports:
//! - pushes sent, errors (non-2xx or a GraphQL `errors` reply), reply latency
//!   p50/p90/p99/max;
//! - the server's CPU over the run (utime + stime from /proc/<pid>/stat) as % of one
//!   core and of the machine, its resident memory (VmRSS at the end, VmHWM peak) and
//!   the database growth;
//! - throughput (pushes/s, compressed MB/s);
//! - a 30-minute session (900 pushes 2 s apart, sent as fast as possible) read back as
//!   an operator through `GET /api/operator/observe/sessions/{id}/replay`, paged as the
//!   console pages it: the first page's time (the player starts on it) and all pages',
//!   medians of 5; then, in headless Chromium, the console's session page: time to the
//!   recorded page shown in the player, and to the whole replay loaded
//!   (`bench/replay.mjs`; set `MOAT_WEB_DIR=web/dist` so the binary serves the app).
//!   Its pushes have the same 5–50 KB mix, so it is a busy session (about 18 MB
//!   compressed, 90 MB of events); an idle tab's pushes are far smaller.
//!
//! The payloads are generated before the clock starts (both cores are shared with the
//! server; gzip on the fly would take CPU from it). Every session's address is
//! 127.0.0.1, so the per-address byte budget is raised (500 real visitors come from
//! 500 addresses); any other `MOAT_OBSERVE_*` set in the environment is passed on.
//!
//!   cargo bench -p moat --bench ingest

use std::{
    io::Write,
    process::Command,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use base64::Engine;

mod support;
use serde_json::{json, Value};
use support::{cpu_seconds, db_bytes, loadavg, percentile, status_kb, wait_ready, Server};

const SESSIONS: usize = 500;
const PUSH_INTERVAL_MS: u64 = 2_000;
/// Pushes per session: one minute at one every 2 s.
const PUSHES: usize = 30;
/// The 30-minute session read back through the replay API.
const REPLAY_PUSHES: usize = 900;
/// The console's replay pages, in chunks: the first, and each later one
/// (the operator feature's session API in web/src/features/operator).
const REPLAY_FIRST_PAGE: usize = 15;
const REPLAY_PAGE: usize = 150;
/// Compressed size of a push: the first (full snapshot) and the later ones.
const FIRST_PUSH_KB: (f64, f64) = (35.0, 50.0);
const PUSH_KB: (f64, f64) = (5.0, 50.0);
/// What the per-address budget is raised to (1 TiB an hour): see the module comment.
const IP_BUDGET: &str = "1099511627776";

const PUSH_QUERY: &str = "mutation PushSessionEvents($session_secure_id: String!, $payload_id: ID!, $data: String!) {\n  pushSessionEvents(\n    session_secure_id: $session_secure_id\n    payload_id: $payload_id\n    data: $data\n  )\n}\n";
const INIT_QUERY: &str = "mutation initializeSession($session_secure_id: String!, $organization_verbose_id: String!, $enable_strict_privacy: Boolean!, $privacy_setting: String!, $enable_recording_network_contents: Boolean!, $clientVersion: String!, $firstloadVersion: String!, $clientConfig: String!, $environment: String!, $id: String!, $appVersion: String, $serviceName: String!, $client_id: String!, $network_recording_domains: [String!], $disable_session_recording: Boolean) {\n  initializeSession(\n    session_secure_id: $session_secure_id\n    organization_verbose_id: $organization_verbose_id\n    enable_strict_privacy: $enable_strict_privacy\n    privacy_setting: $privacy_setting\n    enable_recording_network_contents: $enable_recording_network_contents\n    clientVersion: $clientVersion\n    firstloadVersion: $firstloadVersion\n    clientConfig: $clientConfig\n    environment: $environment\n    appVersion: $appVersion\n    serviceName: $serviceName\n    fingerprint: $id\n    client_id: $client_id\n    network_recording_domains: $network_recording_domains\n    disable_session_recording: $disable_session_recording\n  ) {\n    secure_id\n    project_id\n    sampling {\n      spans {\n        name {\n          operator\n          value\n        }\n        samplingRatio\n      }\n    }\n  }\n}\n";
const USER_AGENT: &str = "Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const ORIGIN: &str = "https://moat.example";

// ---------------------------------------------------------------------------------
// The server.

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

// ---------------------------------------------------------------------------------
// Payloads: what highlight.run sends from a Moat page.

/// splitmix64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn hex(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from_digit(self.below(16) as u32, 16).unwrap())
            .collect()
    }
    fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..n).map(|_| *self.pick(A) as char).collect()
    }
}

const STOCKS: &[(&str, &str)] = &[
    ("KRX:005930", "삼성전자"),
    ("KRX:000660", "SK하이닉스"),
    ("KRX:373220", "LG에너지솔루션"),
    ("KRX:207940", "삼성바이오로직스"),
    ("KRX:005380", "현대차"),
    ("KRX:000270", "기아"),
    ("KRX:068270", "셀트리온"),
    ("KRX:035420", "NAVER"),
    ("KRX:035720", "카카오"),
    ("KRX:105560", "KB금융"),
    ("KRX:055550", "신한지주"),
    ("KRX:005490", "POSCO홀딩스"),
    ("KRX:051910", "LG화학"),
    ("KRX:006400", "삼성SDI"),
    ("KRX:012330", "현대모비스"),
    ("KRX:028260", "삼성물산"),
    ("KRX:066570", "LG전자"),
    ("KRX:003550", "LG"),
    ("KRX:017670", "SK텔레콤"),
    ("KRX:030200", "KT"),
    ("NASDAQ:AAPL", "Apple"),
    ("NASDAQ:MSFT", "Microsoft"),
    ("NASDAQ:NVDA", "NVIDIA"),
    ("NASDAQ:AMZN", "Amazon.com"),
    ("NASDAQ:GOOGL", "Alphabet"),
    ("NASDAQ:META", "Meta Platforms"),
    ("NASDAQ:TSLA", "Tesla"),
    ("NYSE:BRK.B", "Berkshire Hathaway"),
    ("NYSE:JPM", "JPMorgan Chase"),
    ("NYSE:V", "Visa"),
];
const CLASSES: &[&str] = &[
    "flex",
    "inline-flex",
    "grid",
    "grid-cols-2",
    "grid-cols-[1fr_auto]",
    "items-center",
    "items-start",
    "justify-between",
    "justify-end",
    "gap-1",
    "gap-2",
    "gap-3",
    "px-2",
    "px-3",
    "px-4",
    "py-1",
    "py-2",
    "py-3",
    "mt-1",
    "mt-2",
    "mb-4",
    "w-full",
    "h-10",
    "h-12",
    "min-w-0",
    "truncate",
    "text-xs",
    "text-sm",
    "text-base",
    "text-lg",
    "font-medium",
    "font-semibold",
    "tabular-nums",
    "text-right",
    "text-neutral-500",
    "text-neutral-900",
    "dark:text-neutral-100",
    "text-red-600",
    "text-blue-600",
    "bg-white",
    "dark:bg-neutral-900",
    "rounded-lg",
    "rounded-xl",
    "border",
    "border-neutral-200",
    "dark:border-neutral-800",
    "shadow-sm",
    "hover:bg-neutral-50",
    "active:bg-neutral-100",
    "transition-colors",
    "sr-only",
    "overflow-hidden",
    "sticky",
    "top-0",
    "z-10",
    "backdrop-blur",
];
const WORDS_KO: &[&str] = &[
    "코스피",
    "코스닥",
    "외국인",
    "기관",
    "순매수",
    "순매도",
    "반도체",
    "실적",
    "발표",
    "전망",
    "상승",
    "하락",
    "마감",
    "장중",
    "급등",
    "배당",
    "공시",
    "목표가",
    "상향",
    "하향",
    "증권가",
    "분기",
    "영업이익",
    "매출",
    "시장",
    "투자자",
    "금리",
    "환율",
    "달러",
    "원화",
    "연준",
    "동결",
    "인하",
    "인상",
    "수출",
    "회복",
    "우려",
    "기대감",
];
const WORDS_EN: &[&str] = &[
    "Portfolio",
    "Watchlist",
    "Market",
    "Dividend",
    "Return",
    "Today",
    "Total",
    "Holdings",
    "Value",
    "Cash",
    "Buy",
    "Sell",
    "Price",
    "Volume",
    "Change",
    "Open",
    "High",
    "Low",
    "Close",
    "News",
    "Earnings",
    "Settings",
    "Search",
    "Home",
];
const TAGS: &[&str] = &[
    "div", "div", "div", "span", "span", "p", "a", "button", "li",
];
const FUNCTIONS: &[&str] = &[
    "onQuote",
    "renderRow",
    "useQuotes",
    "formatPrice",
    "QuoteRow",
    "Watchlist",
    "PortfolioSummary",
    "dispatch",
    "commitRoot",
    "performWorkUntilDeadline",
    "flushSyncCallbacks",
    "handleMessage",
    "fetchJson",
    "parseQuote",
];

fn classes(rng: &mut Rng, n: usize) -> String {
    let mut out: Vec<&str> = (0..n).map(|_| *rng.pick(CLASSES)).collect();
    out.dedup();
    out.join(" ")
}

fn sentence(rng: &mut Rng, words: usize) -> String {
    (0..words)
        .map(|_| {
            if rng.chance(0.8) {
                *rng.pick(WORDS_KO)
            } else {
                *rng.pick(WORDS_EN)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn price(rng: &mut Rng) -> String {
    let p = rng.range(1_000, 900_000);
    let s = p.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn change(rng: &mut Rng) -> String {
    let c = rng.range(-1_500, 1_500) as f64 / 100.0;
    format!("{c:+.2}%")
}

/// One recorded session: its ids and the state its DOM snapshot left behind.
struct SessionGen {
    rng: Rng,
    secure_id: String,
    next_node: u64,
    sid: u64,
    /// Node ids of the page, for mutations that touch existing nodes.
    nodes: Vec<u64>,
    /// Text node ids (prices, changes), updated by quote ticks.
    texts: Vec<u64>,
    page: String,
    ratio: f64,
}

impl SessionGen {
    fn new(seed: u64, secure_id: String) -> Self {
        Self {
            rng: Rng(seed),
            secure_id,
            next_node: 1,
            sid: 0,
            nodes: Vec::new(),
            texts: Vec::new(),
            page: "/".into(),
            ratio: 5.0,
        }
    }

    fn id(&mut self) -> u64 {
        let id = self.next_node;
        self.next_node += 1;
        self.nodes.push(id);
        id
    }

    fn text(&mut self, content: String, tracked: bool) -> Value {
        let id = self.id();
        if tracked {
            self.texts.push(id);
        }
        json!({"type": 3, "textContent": content, "id": id})
    }

    fn el(&mut self, tag: &str, attrs: Value, children: Vec<Value>) -> Value {
        let id = self.id();
        json!({"type": 2, "tagName": tag, "attributes": attrs, "childNodes": children, "id": id})
    }

    /// A watchlist or holdings row: name, code, price, change, a sparkline.
    fn quote_row(&mut self) -> Value {
        let (code, name) = *self.rng.pick(STOCKS);
        let c1 = classes(&mut self.rng, 5);
        let name_t = self.text(name.to_owned(), false);
        let code_t = self.text(code.split(':').nth(1).unwrap_or(code).to_owned(), false);
        let (p, c) = (price(&mut self.rng), change(&mut self.rng));
        let price_t = self.text(p, true);
        let change_t = self.text(c, true);
        let mut d = String::from("M0 20");
        for x in 1..40 {
            d += &format!("L{} {:.1}", x * 3, self.rng.range(0, 400) as f64 / 10.0);
        }
        let path = self.el(
            "path",
            json!({"d": d, "fill": "none", "stroke": "currentColor", "stroke-width": "1.5"}),
            vec![],
        );
        let svg = self.el(
            "svg",
            json!({"viewBox": "0 0 120 40", "class": "h-8 w-20 text-red-600", "aria-hidden": "true"}),
            vec![path],
        );
        let c3 = classes(&mut self.rng, 3);
        let spans = vec![
            self.el("span", json!({"class": c3}), vec![name_t]),
            self.el(
                "span",
                json!({"class": "text-xs text-neutral-500"}),
                vec![code_t],
            ),
        ];
        let left = self.el("div", json!({"class": "min-w-0 flex flex-col"}), spans);
        let nums = vec![
            self.el(
                "span",
                json!({"class": "tabular-nums font-semibold"}),
                vec![price_t],
            ),
            self.el(
                "span",
                json!({"class": "tabular-nums text-xs"}),
                vec![change_t],
            ),
        ];
        let right = self.el("div", json!({"class": "text-right"}), nums);
        let a = self.el(
            "a",
            json!({"href": format!("/stocks/{code}"), "class": c1, "data-discover": "true"}),
            vec![left, svg, right],
        );
        let c = classes(&mut self.rng, 3);
        self.el("li", json!({"class": c}), vec![a])
    }

    /// A news item: headline, summary, source and time.
    fn news_item(&mut self) -> Value {
        let n = self.rng.range(6, 14) as usize;
        let title = sentence(&mut self.rng, n);
        let title = self.text(title, false);
        let n = self.rng.range(14, 40) as usize;
        let body = sentence(&mut self.rng, n);
        let body = self.text(body, false);
        let when = format!("{}시간 전", self.rng.range(1, 23));
        let when = self.text(when, false);
        let h = self.el("h3", json!({"class": "text-sm font-medium"}), vec![title]);
        let p = self.el(
            "p",
            json!({"class": "text-xs text-neutral-500 line-clamp-2"}),
            vec![body],
        );
        let t = self.el("time", json!({"class": "text-xs"}), vec![when]);
        let href = format!("/news/{}", self.rng.range(100_000, 999_999));
        let c = classes(&mut self.rng, 4);
        let a = self.el("a", json!({"href": href, "class": c}), vec![h, p, t]);
        self.el("li", json!({}), vec![a])
    }

    /// Some generic markup (cards, buttons, labels) `depth` levels deep.
    fn generic(&mut self, depth: usize) -> Value {
        let tag = *self.rng.pick(TAGS);
        let mut children = Vec::new();
        if depth > 0 {
            for _ in 0..self.rng.range(1, 3) {
                children.push(self.generic(depth - 1));
            }
        } else {
            let n = self.rng.range(1, 4) as usize;
            let words = (0..n)
                .map(|_| *self.rng.pick(WORDS_EN))
                .collect::<Vec<_>>()
                .join(" ");
            children.push(self.text(words, false));
        }
        let mut attrs = json!({"class": classes(&mut self.rng, 4)});
        if tag == "button" {
            attrs["type"] = json!("button");
            attrs["aria-label"] = json!(sentence(&mut self.rng, 2));
        }
        if tag == "a" {
            attrs["href"] = json!(format!("/stocks/{}", self.rng.pick(STOCKS).0));
        }
        self.el(tag, attrs, children)
    }

    /// A section of the page: a heading and rows until `bytes` of JSON are reached.
    fn section(&mut self, bytes: usize) -> Value {
        let heading = sentence(&mut self.rng, 2);
        let heading = self.text(heading, false);
        let h2 = self.el(
            "h2",
            json!({"class": "text-lg font-semibold px-4"}),
            vec![heading],
        );
        let kind = self.rng.below(3);
        let mut items = Vec::new();
        let mut size = 0;
        while size < bytes {
            let item = match kind {
                0 => self.quote_row(),
                1 => self.news_item(),
                _ => self.generic(3),
            };
            size += item.to_string().len();
            items.push(item);
        }
        let ul = self.el("ul", json!({"class": "divide-y divide-neutral-200"}), items);
        let c = classes(&mut self.rng, 4);
        self.el("section", json!({"class": c}), vec![h2, ul])
    }

    /// The page's style sheet, as rrweb inlines it (`_cssText`).
    fn css(&mut self) -> String {
        let mut css = String::new();
        for c in CLASSES {
            let sel = c
                .replace(':', "\\:")
                .replace('[', "\\[")
                .replace(']', "\\]");
            css += &format!(
                ".{sel}{{--tw-{}:{};margin:{}px {}px;color:rgb({} {} {} / var(--tw-text-opacity))}}",
                self.rng.hex(3),
                self.rng.range(0, 99),
                self.rng.range(0, 24),
                self.rng.range(0, 24),
                self.rng.range(0, 255),
                self.rng.range(0, 255),
                self.rng.range(0, 255)
            );
        }
        css += "@media (prefers-color-scheme:dark){:root{color-scheme:dark}}";
        css
    }

    /// Meta, a full snapshot of a page of about `bytes` of JSON, and what follows a load.
    fn page_load(&mut self, ts: i64, bytes: usize) -> Vec<Value> {
        self.next_node = 1;
        self.nodes.clear();
        self.texts.clear();
        let doctype =
            json!({"type": 1, "name": "html", "publicId": "", "systemId": "", "id": self.id()});
        let css = self.css();
        let style_text = json!({"type": 3, "textContent": "", "isStyle": true, "id": self.id()});
        let style = self.el("style", json!({"_cssText": css}), vec![style_text]);
        let title = self.text("Moat".into(), false);
        let title = self.el("title", json!({}), vec![title]);
        let meta = self.el("meta", json!({"name": "viewport", "content": "width=device-width, initial-scale=1, viewport-fit=cover"}), vec![]);
        let head = self.el("head", json!({}), vec![meta, title, style]);
        let mut sections = Vec::new();
        let n = self.rng.range(3, 6) as usize;
        for _ in 0..n {
            sections.push(self.section(bytes / n));
        }
        let main = self.el(
            "main",
            json!({"class": "mx-auto max-w-screen-md pb-20"}),
            sections,
        );
        let nav = self.generic(2);
        let header = self.el(
            "header",
            json!({"class": "sticky top-0 z-10 backdrop-blur"}),
            vec![nav],
        );
        let root = self.el("div", json!({"id": "root"}), vec![header, main]);
        let body = self.el(
            "body",
            json!({"class": "bg-white dark:bg-neutral-950"}),
            vec![root],
        );
        let html = self.el("html", json!({"lang": "ko"}), vec![head, body]);
        let doc = json!({"type": 0, "childNodes": [doctype, html], "compatMode": "CSS1Compat", "id": self.id()});
        let href = format!("{ORIGIN}{}", self.page);
        vec![
            json!({"type": 4, "data": {"href": href, "width": 360, "height": 740}, "timestamp": ts}),
            json!({"type": 2, "data": {"node": doc, "initialOffset": {"left": 0, "top": 0}}, "timestamp": ts + 3}),
            json!({"type": 5, "data": {"tag": "Viewport", "payload": {"height": 740, "width": 360, "availHeight": 740, "availWidth": 360}}, "timestamp": ts + 5}),
            json!({"type": 0, "data": {}, "timestamp": ts + 40}),
            json!({"type": 1, "data": {}, "timestamp": ts + 120}),
        ]
    }

    fn some_node(&mut self) -> u64 {
        if self.nodes.is_empty() {
            1
        } else {
            *self.rng.pick(&self.nodes)
        }
    }

    /// Incremental events across one push interval, about `bytes` of JSON.
    fn incremental(&mut self, from: i64, to: i64, bytes: usize) -> Vec<Value> {
        let mut events = Vec::new();
        let mut size = 0usize;
        while size < bytes {
            let ts = self.rng.range(from, to);
            let ev = match self.rng.below(10) {
                // Mouse/touch moves.
                0..=2 => {
                    let n = self.rng.range(3, 12);
                    let positions: Vec<Value> = (0..n)
                        .map(|i| json!({"x": self.rng.range(0, 360), "y": self.rng.range(0, 740), "id": self.some_node(), "timeOffset": -(i * 50)}))
                        .collect();
                    json!({"type": 3, "data": {"source": 6, "positions": positions}, "timestamp": ts})
                }
                // Quote ticks: text updates of prices.
                3..=4 => {
                    let n = self.rng.range(4, 30);
                    let texts: Vec<Value> = (0..n)
                        .filter_map(|_| {
                            if self.texts.is_empty() {
                                return None;
                            }
                            let id = *self.rng.pick(&self.texts);
                            Some(json!({"id": id, "value": if self.rng.chance(0.5) { price(&mut self.rng) } else { change(&mut self.rng) }}))
                        })
                        .collect();
                    let attributes: Vec<Value> = (0..n / 3)
                        .map(|_| json!({"id": self.some_node(), "attributes": {"class": classes(&mut self.rng, 3)}}))
                        .collect();
                    json!({"type": 3, "data": {"source": 0, "texts": texts, "attributes": attributes, "removes": [], "adds": []}, "timestamp": ts})
                }
                // A re-render: nodes removed and added.
                5..=7 => {
                    let parent = self.some_node();
                    let removes: Vec<Value> = (0..self.rng.range(0, 6))
                        .map(|_| json!({"parentId": parent, "id": self.some_node()}))
                        .collect();
                    let n = self.rng.range(1, 5);
                    let adds: Vec<Value> = (0..n)
                        .map(|_| {
                            let node = match self.rng.below(3) {
                                0 => self.quote_row(),
                                1 => self.news_item(),
                                _ => self.generic(3),
                            };
                            json!({"parentId": parent, "nextId": null, "node": node})
                        })
                        .collect();
                    json!({"type": 3, "data": {"source": 0, "texts": [], "attributes": [], "removes": removes, "adds": adds}, "timestamp": ts})
                }
                // Scroll.
                8 => {
                    json!({"type": 3, "data": {"source": 3, "id": 1, "x": 0, "y": self.rng.range(0, 4000)}, "timestamp": ts})
                }
                // A tap: touch start/end, then highlight's Click event.
                _ => {
                    let id = self.some_node();
                    let (x, y) = (self.rng.range(0, 360), self.rng.range(0, 740));
                    let (code, name) = *self.rng.pick(STOCKS);
                    let target = format!(
                        "<a href=\"/stocks/{code}\" class=\"{}\">",
                        classes(&mut self.rng, 4)
                    );
                    events.push(json!({"type": 3, "data": {"source": 2, "type": 7, "id": id, "x": x, "y": y}, "timestamp": ts}));
                    events.push(json!({"type": 3, "data": {"source": 2, "type": 9, "id": id, "x": x, "y": y}, "timestamp": ts + 60}));
                    json!({"type": 5, "data": {"tag": "Click", "payload": {"clickTarget": target, "clickTextContent": name, "clickSelector": format!("main > section > ul > li > a[href=\"/stocks/{code}\"]")}}, "timestamp": ts + 61})
                }
            };
            size += ev.to_string().len();
            events.push(ev);
        }
        events
    }

    fn frames(&mut self) -> Vec<Value> {
        let n = self.rng.range(3, 9);
        (0..n)
            .map(|_| json!({
                "functionName": self.rng.pick(FUNCTIONS),
                "fileName": format!("{ORIGIN}/assets/index-{}.js", self.rng.alnum(8)),
                "lineNumber": 1,
                "columnNumber": self.rng.range(100, 400_000),
                "source": format!("    at {} ({ORIGIN}/assets/index-{}.js:1:{})", self.rng.pick(FUNCTIONS), self.rng.alnum(8), self.rng.range(100, 400_000)),
            }))
            .collect()
    }

    fn console(&mut self, from: i64, to: i64) -> Vec<Value> {
        (0..self.rng.range(0, 3))
            .map(|_| {
                let level = *self.rng.pick(&["log", "log", "info", "warn", "debug"]);
                let detail = json!({"id": self.rng.pick(STOCKS).0, "price": price(&mut self.rng), "seq": self.rng.range(0, 1 << 20)});
                let n = self.rng.range(2, 6) as usize;
                json!({
                    "type": level,
                    "trace": self.frames(),
                    "time": self.rng.range(from, to),
                    "value": [json!(format!("[stream] {}", sentence(&mut self.rng, n))).to_string(), detail.to_string()],
                })
            })
            .collect()
    }

    fn resources(&mut self, from: i64, to: i64) -> Vec<Value> {
        (0..self.rng.range(0, 4))
            .map(|_| {
                let n = self.rng.range(3, 15);
                let picked: Vec<&str> = (0..n).map(|_| self.rng.pick(STOCKS).0).collect();
                let body: Vec<Value> = picked
                    .iter()
                    .map(|id| json!({"id": id, "price": price(&mut self.rng).replace(',', ""), "change": change(&mut self.rng), "volume": self.rng.range(1_000, 50_000_000), "as_of": chrono::DateTime::from_timestamp_millis(from).unwrap().to_rfc3339()}))
                    .collect();
                let body = Value::Array(body).to_string();
                let url = format!("{ORIGIN}/api/quotes?ids={}", picked.join(","));
                let start = self.rng.range(from, to);
                let dur = self.rng.range(20, 400);
                json!({
                    "name": url,
                    "initiatorType": "fetch",
                    "startTimeAbs": start,
                    "responseEndAbs": start + dur,
                    "transferSize": body.len() + 300,
                    "requestResponsePairs": {
                        "request": {"url": url, "verb": "GET", "headers": {
                            "accept": "application/json",
                            "authorization": format!("Bearer {}", self.rng.alnum(43)),
                            "traceparent": format!("00-{}-{}-01", self.rng.hex(32), self.rng.hex(16)),
                            "x-highlight-request": format!("{}/{}", self.secure_id, self.rng.alnum(10)),
                        }, "body": ""},
                        "response": {"status": 200, "headers": {
                            "content-type": "application/json",
                            "cache-control": "no-store",
                            "x-request-id": self.rng.hex(16),
                        }, "body": body, "size": body.len()},
                        "urlBlocked": false,
                    },
                })
            })
            .collect()
    }

    fn error(&mut self, ts: i64) -> Value {
        let message = *self.rng.pick(&[
            "TypeError: Cannot read properties of undefined (reading 'price')",
            "TypeError: e.map is not a function",
            "RangeError: Invalid time value",
            "Error: Minified React error #185",
        ]);
        json!({
            "event": json!(message).to_string(),
            "type": "window.onerror",
            "url": format!("{ORIGIN}{}", self.page),
            "source": format!("{ORIGIN}/assets/index-BkF3a9xQ.js"),
            "lineNumber": 1,
            "columnNumber": self.rng.range(100, 400_000),
            "stackTrace": self.frames(),
            "timestamp": chrono::DateTime::from_timestamp_millis(ts).unwrap().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "payload": "{}",
            "id": format!("{}-{}-4{}-a{}-{}", self.rng.hex(8), self.rng.hex(4), self.rng.hex(3), self.rng.hex(3), self.rng.hex(12)),
        })
    }

    /// One push: its `PushSessionEvents` request body and its compressed size.
    fn push(&mut self, payload_id: i64, first: bool) -> (Vec<u8>, usize) {
        let (lo, hi) = if first { FIRST_PUSH_KB } else { PUSH_KB };
        // Log-uniform: mostly small pushes, some large.
        let target_kb = lo * (hi / lo).powf(self.rng.unit());
        let target = (target_kb * 1024.0 * self.ratio) as usize;
        let (from, to) = (payload_id - PUSH_INTERVAL_MS as i64 + 1, payload_id);
        let console = self.console(from, to);
        let resources = self.resources(from, to);
        let errors: Vec<Value> = if !first && self.rng.chance(0.03) {
            vec![self.error(to - 5)]
        } else {
            vec![]
        };
        let side = json!([console, resources, errors]).to_string().len();
        let budget = target.saturating_sub(side);
        let mut events = if first {
            self.page_load(from, budget)
        } else if self.rng.chance(0.02) {
            // A navigation in the app: a Navigate event and a new page's DOM.
            let (code, _) = *self.rng.pick(STOCKS);
            self.page = format!("/stocks/{code}");
            let mut ev = vec![
                json!({"type": 5, "data": {"tag": "Navigate", "payload": format!("{ORIGIN}{}", self.page)}, "timestamp": from}),
            ];
            ev.extend(self.incremental(from + 1, to, budget));
            ev
        } else {
            self.incremental(from, to, budget)
        };
        events.sort_by_key(|e| e["timestamp"].as_i64().unwrap_or(0));
        for e in &mut events {
            self.sid += 1;
            e["_sid"] = json!(self.sid);
        }
        let push = json!({
            "session_secure_id": self.secure_id,
            "payload_id": payload_id.to_string(),
            "events": {"events": events},
            "messages": json!({"messages": console}).to_string(),
            "resources": json!({"resources": resources}).to_string(),
            "web_socket_events": json!({"webSocketEvents": []}).to_string(),
            "errors": errors,
            "is_beacon": false,
            "has_session_unloaded": false,
        })
        .to_string();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        gz.write_all(push.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        // Learn this content's compression ratio, so the next target lands closer.
        self.ratio = 0.8 * self.ratio + 0.2 * (push.len() as f64 / gz.len() as f64);
        let data = base64::engine::general_purpose::STANDARD.encode(&gz);
        let body = json!({
            "operationName": "PushSessionEvents",
            "variables": {"session_secure_id": self.secure_id, "payload_id": payload_id.to_string(), "data": data},
            "query": PUSH_QUERY,
        });
        (serde_json::to_vec(&body).unwrap(), gz.len())
    }

    fn init_body(&mut self) -> Vec<u8> {
        let body = json!({
            "operationName": "initializeSession",
            "variables": {
                "session_secure_id": self.secure_id,
                "organization_verbose_id": "1",
                "enable_strict_privacy": false,
                "privacy_setting": "none",
                "enable_recording_network_contents": true,
                "clientVersion": "9.20.0",
                "firstloadVersion": "9.20.0",
                "clientConfig": json!({"backendUrl": "/public", "otlpEndpoint": ORIGIN, "tracingOrigins": ["moat.example"], "networkRecording": {"enabled": true, "recordHeadersAndBody": true}}).to_string(),
                "environment": "production",
                "id": self.rng.alnum(20),
                "appVersion": "1.0.0",
                "serviceName": "moat-web",
                "client_id": self.rng.alnum(28),
                "network_recording_domains": [],
                "disable_session_recording": false,
            },
            "query": INIT_QUERY,
        });
        serde_json::to_vec(&body).unwrap()
    }
}

struct Prepared {
    init: Vec<u8>,
    /// (planned send offset from the run's start in ms, request body).
    pushes: Vec<(u64, Vec<u8>)>,
}

/// Generates every session's requests, sessions split over the cores.
fn prepare(
    sessions: usize,
    pushes: usize,
    base_ms: i64,
    seed: u64,
    sizes: &Mutex<Vec<f64>>,
) -> Vec<Prepared> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let per = sessions.div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    let mut my_sizes = Vec::new();
                    for i in (t * per)..((t + 1) * per).min(sessions) {
                        let mut rng = Rng(seed ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
                        let secure_id = rng.alnum(28);
                        let mut g = SessionGen::new(rng.next(), secure_id);
                        // Sessions start spread over one push interval.
                        let start = i as u64 * PUSH_INTERVAL_MS / sessions as u64;
                        let init = g.init_body();
                        let mut list = Vec::with_capacity(pushes);
                        for k in 0..pushes {
                            // The first push 1 s after start, then every 2 s.
                            let offset = start + 1_000 + k as u64 * PUSH_INTERVAL_MS;
                            let (body, gz) = g.push(base_ms + offset as i64, k == 0);
                            my_sizes.push(gz as f64);
                            list.push((offset, body));
                        }
                        out.push(Prepared { init, pushes: list });
                    }
                    sizes.lock().unwrap().append(&mut my_sizes);
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

// ---------------------------------------------------------------------------------
// The load.

#[derive(Default)]
struct Outcome {
    latencies: Vec<f64>,
    init_latencies: Vec<f64>,
    errors: u64,
}

/// Sends one request; `Err` with a description when it failed (non-2xx or `errors`).
async fn send(client: &reqwest::Client, url: &str, body: Vec<u8>) -> Result<(), String> {
    let r = client
        .post(url)
        .header("content-type", "application/json")
        .header("user-agent", USER_AGENT)
        .body(body)
        .send()
        .await
        .map_err(|e| format!("transport: {e}"))?;
    let status = r.status();
    let text = r.text().await.map_err(|e| format!("reading: {e}"))?;
    if !status.is_success() {
        return Err(format!(
            "{status}: {}",
            text.chars().take(300).collect::<String>()
        ));
    }
    let v: Value =
        serde_json::from_str(&text).map_err(|_| format!("{status}: not JSON: {text:.200}"))?;
    if v.get("errors").is_some() || !v["data"].is_object() {
        return Err(format!(
            "{status}: {}",
            text.chars().take(300).collect::<String>()
        ));
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let log_path = dir.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_moat"));
    cmd.args(["--port", &port.to_string(), "--data-dir"])
        .arg(dir.path())
        .env("MOAT_LOG_LEVEL", "warn")
        .env("MOAT_MARKET_BACKFILL_YEARS", "0")
        .stdout(log.try_clone().unwrap())
        .stderr(log);
    if std::env::var_os("MOAT_OBSERVE_IP_BUDGET_BYTES_PER_HOUR").is_none() {
        cmd.env("MOAT_OBSERVE_IP_BUDGET_BYTES_PER_HOUR", IP_BUDGET);
    }
    let settings: Vec<String> = ["MOAT_OBSERVE_IP_BUDGET_BYTES_PER_HOUR"]
        .into_iter()
        .map(str::to_owned)
        .chain(std::env::vars().map(|(k, _)| k).filter(|k| {
            k.starts_with("MOAT_OBSERVE_") && k != "MOAT_OBSERVE_IP_BUDGET_BYTES_PER_HOUR"
        }))
        .map(|k| {
            let v = std::env::var(&k).unwrap_or_else(|_| IP_BUDGET.into());
            format!("{k}={v}")
        })
        .collect();
    let server = Server(cmd.spawn().expect("moat starts"));
    let pid = server.0.id();
    let pid_s = pid.to_string();
    let base = format!("http://127.0.0.1:{port}");
    let url = format!("{base}/public");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(SESSIONS * 2)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    wait_ready(&base).await;
    println!(
        "server settings: {} (other [observe] keys at their defaults)",
        settings.join(", ")
    );
    // The first account is the operator (the replay API needs one).
    let signup: Value = client
        .post(format!("{base}/api/auth/signup"))
        .json(&json!({"email": "ops@moat.example", "password": "correct horse battery", "nickname": "benchops"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = signup["token"]
        .as_str()
        .unwrap_or_else(|| panic!("sign-up failed: {signup}"))
        .to_owned();

    // Payloads, before the clock starts.
    let t_gen = Instant::now();
    let base_ms = now_ms();
    let sizes = Mutex::new(Vec::new());
    let sessions = prepare(SESSIONS, PUSHES, base_ms, 0x6d6f_6174, &sizes);
    let mut sizes = sizes.into_inner().unwrap();
    let total_gz: f64 = sizes.iter().sum();
    let total_body: usize = sessions
        .iter()
        .flat_map(|s| s.pushes.iter().map(|p| p.1.len()))
        .sum();
    println!(
        "generated {} pushes for {SESSIONS} sessions in {:.1} s: compressed size min {:.1} KB, p50 {:.1} KB, mean {:.1} KB, p90 {:.1} KB, max {:.1} KB ({:.0} MB compressed, {:.0} MB of request bodies)",
        sizes.len(),
        t_gen.elapsed().as_secs_f64(),
        percentile(&mut sizes, 0.0) / 1024.0,
        percentile(&mut sizes, 0.5) / 1024.0,
        total_gz / sizes.len() as f64 / 1024.0,
        percentile(&mut sizes, 0.9) / 1024.0,
        percentile(&mut sizes, 1.0) / 1024.0,
        total_gz / 1e6,
        total_body as f64 / 1e6,
    );

    // Idle baseline.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (idle_cpu0, idle_t0) = (cpu_seconds(&pid_s), Instant::now());
    tokio::time::sleep(Duration::from_secs(5)).await;
    let idle_cpu = (cpu_seconds(&pid_s) - idle_cpu0) / idle_t0.elapsed().as_secs_f64();
    let idle_rss = status_kb(pid, "VmRSS:") / 1024.0;
    let db_before = db_bytes(dir.path());
    let load_before = loadavg();

    // The load: every session on its own task.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let samples = Arc::new(Mutex::new(Vec::<f64>::new()));
    let running = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let (samples, running, pid_s) = (samples.clone(), running.clone(), pid_s.clone());
        tokio::spawn(async move {
            let mut last = (cpu_seconds(&pid_s), Instant::now());
            while running.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let now = (cpu_seconds(&pid_s), Instant::now());
                samples
                    .lock()
                    .unwrap()
                    .push((now.0 - last.0) / (now.1 - last.1).as_secs_f64());
                last = now;
            }
        })
    };
    let error_samples = Arc::new(Mutex::new(Vec::<String>::new()));
    let in_flight = Arc::new(AtomicU64::new(0));
    let max_in_flight = Arc::new(AtomicU64::new(0));
    let cpu0 = cpu_seconds(&pid_s);
    let self0 = cpu_seconds("self");
    let t0 = Instant::now();
    let run_start = tokio::time::Instant::now() + Duration::from_millis(100);
    let mut tasks = Vec::new();
    for (i, s) in sessions.into_iter().enumerate() {
        let (client, url) = (client.clone(), url.clone());
        let (error_samples, in_flight, max_in_flight) = (
            error_samples.clone(),
            in_flight.clone(),
            max_in_flight.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut out = Outcome::default();
            let mut record = |r: Result<(), String>, ms: f64, init: bool| {
                if init {
                    out.init_latencies.push(ms);
                } else {
                    out.latencies.push(ms);
                }
                if let Err(e) = r {
                    out.errors += 1;
                    let mut es = error_samples.lock().unwrap();
                    if es.len() < 10 {
                        es.push(e);
                    }
                }
            };
            let start = i as u64 * PUSH_INTERVAL_MS / SESSIONS as u64;
            tokio::time::sleep_until(run_start + Duration::from_millis(start)).await;
            let t = Instant::now();
            let r = send(&client, &url, s.init).await;
            record(r, t.elapsed().as_secs_f64() * 1e3, true);
            for (offset, body) in s.pushes {
                tokio::time::sleep_until(run_start + Duration::from_millis(offset)).await;
                let n = in_flight.fetch_add(1, Ordering::Relaxed) + 1;
                max_in_flight.fetch_max(n, Ordering::Relaxed);
                let t = Instant::now();
                let r = send(&client, &url, body).await;
                in_flight.fetch_sub(1, Ordering::Relaxed);
                record(r, t.elapsed().as_secs_f64() * 1e3, false);
            }
            out
        }));
    }
    let mut all = Outcome::default();
    for t in tasks {
        let o = t.await.unwrap();
        all.latencies.extend(o.latencies);
        all.init_latencies.extend(o.init_latencies);
        all.errors += o.errors;
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds(&pid_s) - cpu0;
    let self_cpu = cpu_seconds("self") - self0;
    running.store(false, Ordering::Relaxed);
    let _ = sampler.await;
    let rss_end = status_kb(pid, "VmRSS:") / 1024.0;
    let hwm = status_kb(pid, "VmHWM:") / 1024.0;
    let db_after = db_bytes(dir.path());
    let mut per_second = samples.lock().unwrap().clone();
    let load_after = loadavg();

    let pushes = all.latencies.len();
    println!(
        "load: {SESSIONS} sessions × (initializeSession + {PUSHES} PushSessionEvents every 2 s) in {elapsed:.1} s"
    );
    println!(
        "pushes sent: {pushes} (+ {} initializeSession); errors: {} (non-2xx or GraphQL errors)",
        all.init_latencies.len(),
        all.errors
    );
    for e in error_samples.lock().unwrap().iter() {
        println!("  error: {e}");
    }
    let mut l = all.latencies;
    println!(
        "push reply latency: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms (at most {} in flight)",
        percentile(&mut l, 0.5),
        percentile(&mut l, 0.9),
        percentile(&mut l, 0.99),
        percentile(&mut l, 1.0),
        max_in_flight.load(Ordering::Relaxed)
    );
    let mut il = all.init_latencies;
    println!(
        "initializeSession latency: p50 {:.1} ms, p99 {:.1} ms",
        percentile(&mut il, 0.5),
        percentile(&mut il, 0.99)
    );
    println!(
        "throughput: {:.0} pushes/s, {:.2} MB/s compressed ({:.2} MB/s of request bodies, base64)",
        pushes as f64 / elapsed,
        total_gz / 1e6 / elapsed,
        total_body as f64 / 1e6 / elapsed
    );
    println!(
        "server CPU over the run: {:.1} s = {:.0} % of one core, {:.0} % of the machine ({cores} cores); busiest second {:.0} % of one core; idle before: {:.1} % of one core",
        cpu,
        cpu / elapsed * 100.0,
        cpu / elapsed / cores * 100.0,
        percentile(&mut per_second, 1.0) * 100.0,
        idle_cpu * 100.0
    );
    println!(
        "load client (this process, same machine) CPU over the run: {:.0} % of one core",
        self_cpu / elapsed * 100.0
    );
    println!(
        "machine load average (1 min): {load_before} before the run, {load_after} after (other work on the machine shows here)"
    );
    println!(
        "server memory: idle {idle_rss:.1} MB, at the end {rss_end:.1} MB (VmRSS), peak {hwm:.1} MB (VmHWM)"
    );
    println!(
        "database growth: {:.1} MB (moat.db + WAL + shm; {:.0} MB compressed pushes received)",
        (db_after as f64 - db_before as f64) / 1e6,
        total_gz / 1e6
    );

    // A 30-minute session, read back through the replay API.
    let replay_base = now_ms() - (REPLAY_PUSHES as i64 + 1) * PUSH_INTERVAL_MS as i64;
    let mut g = SessionGen::new(0x5e55_1011, Rng(0x0bad_cafe).alnum(28));
    let secure_id = g.secure_id.clone();
    let init = g.init_body();
    let mut bodies = Vec::with_capacity(REPLAY_PUSHES);
    let mut replay_gz = 0usize;
    for k in 0..REPLAY_PUSHES {
        let (body, gz) = g.push(
            replay_base + 1_000 + k as i64 * PUSH_INTERVAL_MS as i64,
            k == 0,
        );
        replay_gz += gz;
        bodies.push(body);
    }
    let events_sent = g.sid;
    send(&client, &url, init)
        .await
        .expect("replay session initialised");
    let t = Instant::now();
    let mut replay_errors = 0;
    for body in bodies {
        if let Err(e) = send(&client, &url, body).await {
            replay_errors += 1;
            if replay_errors <= 3 {
                println!("  replay push error: {e}");
            }
        }
    }
    println!(
        "30-minute session: {REPLAY_PUSHES} pushes ({events_sent} events, {:.1} MB compressed) sent one after another in {:.1} s, {replay_errors} errors",
        replay_gz as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let replay_url = format!("{base}/api/operator/observe/sessions/{secure_id}/replay");
    // As the console asks: a first page of REPLAY_FIRST_PAGE chunks (the player starts
    // on it), then pages of REPLAY_PAGE behind it; compressed on the wire as a browser
    // accepts, timed to the last byte received.
    let raw = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let page_url = |after: Option<i64>| match after {
        None => format!("{replay_url}?limit={REPLAY_FIRST_PAGE}"),
        Some(a) => format!("{replay_url}?limit={REPLAY_PAGE}&after={a}"),
    };
    let page = |after: Option<i64>| {
        let raw = raw.clone();
        let token = token.clone();
        let url = page_url(after);
        async move {
            let r = raw
                .get(&url)
                .bearer_auth(&token)
                .header("accept-encoding", "gzip, deflate, br, zstd")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200, "replay page");
            let encoding = r
                .headers()
                .get("content-encoding")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("identity")
                .to_owned();
            let body = r.bytes().await.unwrap();
            (body, encoding)
        }
    };
    // The pages' JSON, once, uncompressed: their cursors and the events they hold.
    let plain = reqwest::Client::new();
    let mut cursors = vec![None];
    let mut events = 0;
    let mut json_bytes = 0;
    loop {
        let r = plain
            .get(page_url(*cursors.last().unwrap()))
            .bearer_auth(&token)
            .header("accept-encoding", "identity")
            .send()
            .await
            .unwrap();
        let body = r.bytes().await.unwrap();
        json_bytes += body.len();
        let v: Value = serde_json::from_slice(&body).unwrap();
        events += v["events"].as_array().map(Vec::len).unwrap_or(0);
        match v["next_after"].as_i64() {
            Some(next) => cursors.push(Some(next)),
            None => break,
        }
    }
    let mut first_times = Vec::new();
    let mut all_times = Vec::new();
    let mut wire = 0;
    let mut encoding = String::new();
    for _ in 0..5 {
        let t = Instant::now();
        wire = 0;
        for (i, after) in cursors.iter().enumerate() {
            let (body, enc) = page(*after).await;
            wire += body.len();
            encoding = enc;
            if i == 0 {
                first_times.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        all_times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let list = |v: &[f64]| {
        v.iter()
            .map(|t| format!("{t:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "replay of the 30-minute session through GET …/sessions/{{id}}/replay, as the console pages it ({} pages: {REPLAY_FIRST_PAGE} chunks, then {REPLAY_PAGE} a page): first page median {:.0} ms [{}]; every page, one after another, median {:.0} ms [{}] ({encoding}: {:.1} MB on the wire; {:.1} MB of JSON, {events} events)",
        cursors.len(),
        percentile(&mut first_times.clone(), 0.5),
        list(&first_times),
        percentile(&mut all_times.clone(), 0.5),
        list(&all_times),
        wire as f64 / 1e6,
        json_bytes as f64 / 1e6,
    );
    // In the console itself: from opening the session page to the recorded page shown
    // in the player, and to the whole replay loaded (bench/replay.mjs, headless
    // Chromium; needs the web app served: MOAT_WEB_DIR, and e2e/node_modules).
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/replay.mjs");
    match Command::new("node")
        .args([script, &base, &token, &secure_id])
        .output()
    {
        Ok(out) => {
            print!("{}", String::from_utf8_lossy(&out.stdout));
            if !out.status.success() {
                println!(
                    "bench/replay.mjs failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                        .lines()
                        .take(5)
                        .collect::<Vec<_>>()
                        .join(" | ")
                );
            }
        }
        Err(e) => println!("bench/replay.mjs not run: {e}"),
    }
    println!(
        "server memory after the replay reads: {:.1} MB (VmRSS), peak {:.1} MB (VmHWM)",
        status_kb(pid, "VmRSS:") / 1024.0,
        status_kb(pid, "VmHWM:") / 1024.0
    );
    drop(server);
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    println!("server log: {} warning/error lines", lines.len());
    for l in lines.iter().take(10) {
        println!("  {}", l.chars().take(400).collect::<String>());
    }
}
