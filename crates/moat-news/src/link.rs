//! The instrument linker: which instruments an article names.
//!
//! Signals, strongest first:
//!
//! - **Codes.** Cashtags (`$AAPL`, `$BRK.B`; `$` + a letter + up to 5 letters or
//!   digits, an optional `.A`-style class; `$100` is money), KRX codes (four digits, a
//!   digit or a letter A–Z except I, O and U, a digit: `005930`, `0015N0`; an `A` prefix
//!   as brokers write it, `A005930`; never inside a longer run of letters or digits),
//!   and tickers in parentheses with an exchange (`(NASDAQ: AAPL)`, `(NYSE:BRK.B)`) or
//!   without (`(AAPL)`). A code links its instrument by itself, except a parenthesised
//!   ticker without an exchange that is one or two letters long or a common
//!   abbreviation ([`COMMON_ABBREVIATIONS`]: `(CEO)`, `(IPO)`, `(ETF)`…), which only
//!   confirms a name.
//! - **Names and aliases**, matched by one aho-corasick automaton, leftmost-longest,
//!   ASCII letters case-insensitively: `삼성전자우` beats `삼성전자`, `SK하이닉스` beats
//!   `하이닉스`. Edges are checked: a name that starts (ends) with a Latin letter or a
//!   digit needs a non-alphanumeric neighbour there (`Apple` is not in `Applebee's`,
//!   `Meta` not in `metadata`); a name that starts with Hangul must not follow another
//!   Hangul syllable; a name that ends with Hangul may be followed by a particle or a
//!   common suffix ([`PARTICLE_STARTS`]: `삼성전자가`, `애플의`, `현대차그룹`) but not by
//!   other syllables (`애플리케이션` is not Apple, `메타버스` not Meta). A Latin match
//!   written all in lower case is a common word ("apple" is the fruit); `Apple`,
//!   `APPLE` and `iPhone` are names.
//! - **Ambiguous names** link only with a second signal: one of the instrument's codes
//!   anywhere in the article, or the name in the title AND in the body. Ambiguous are
//!   the names on the caller's list ([`DEFAULT_AMBIGUOUS`]: common words and short
//!   group names) and every name of at most two Latin letters or digits (`KT`, `LG`,
//!   `3M`) or of one Hangul syllable (`금`).
//!
//! An article links each instrument once; `in_title` says whether any of its signals
//! was in the title. Links come in order of first mention (title first).
//!
//! SEC EDGAR items are linked by CIK instead ([`cik_from_edgar`], [`Linker::link_cik`]).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};
use regex::Regex;

/// One instrument the linker knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkEntry {
    /// `KRX:005930`, `NASDAQ:AAPL`.
    pub instrument_id: String,
    /// `005930`, `AAPL`, `BRK.B`.
    pub ticker: String,
    /// `KR` or `US`.
    pub country: String,
    /// Korean and English names and aliases.
    pub names: Vec<String>,
    /// The SEC CIK of a US company.
    pub cik: Option<u64>,
}

/// An article's link to an instrument.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Link {
    pub instrument_id: String,
    /// True when the instrument is named (or its code given) in the title.
    pub in_title: bool,
}

/// Names that link only with a second signal, besides the built-in rule (≤ 2 Latin
/// letters or digits, or 1 Hangul syllable). Compared case-insensitively.
///
/// - US companies named by an everyday English word: Target, Visa, Meta, Block, Gap,
///   Square, Snap, Ford, Match, Ball, Progressive, Regions, Discover, Strategy, Shell,
///   Gold. (Apple, Oracle and Amazon are not: in finance news they mean the company,
///   and the capital-letter rule already keeps out "apple" and "oracle".)
/// - Catalogue aliases that are common words or people: 골드, 비자 (visa), 메타, 스파이
///   (spy), 다이아, 아크, 마스, 코크, 릴리, 존슨, 시티, 다빈치, 카페, 에코, 유한 (finite),
///   리노, 레인보우, 방탄, 카이, 주성, 월배당, 장기채, 미국장기채, 레버리지, 인버스,
///   곱버스, 단기채권, 조선해양 (shipbuilding), 어플라이드, 삼중 (triple), 대항 (against),
///   대만반도체, and coke, spy, citi, lilly, soil (S-Oil), cadence, rtx (also a GPU).
/// - Group names shared by many listed companies: 삼성, 현대, 한화, 롯데, 두산, 한솔,
///   삼양, 신세계, samsung, hyundai.
/// - Korean company names that are common words: 대상 (target), 동원 (mobilisation),
///   대교 (bridge), 한샘, 오뚜기, 진로 (career), 효성, 태영, 하이브 (hive).
pub const DEFAULT_AMBIGUOUS: &[&str] = &[
    // English words
    "target",
    "visa",
    "meta",
    "block",
    "gap",
    "square",
    "snap",
    "ford",
    "match",
    "ball",
    "progressive",
    "regions",
    "discover",
    "strategy",
    "shell",
    "gold",
    "coke",
    "spy",
    "citi",
    "lilly",
    "soil",
    "cadence",
    "rtx",
    // Korean common words and people in the catalogue's aliases
    "골드",
    "비자",
    "메타",
    "스파이",
    "다이아",
    "아크",
    "마스",
    "코크",
    "릴리",
    "존슨",
    "시티",
    "다빈치",
    "카페",
    "에코",
    "유한",
    "리노",
    "레인보우",
    "방탄",
    "카이",
    "주성",
    "월배당",
    "장기채",
    "미국장기채",
    "레버리지",
    "인버스",
    "곱버스",
    "단기채권",
    "조선해양",
    "어플라이드",
    "삼중",
    "대항",
    "대만반도체",
    // Group names
    "삼성",
    "현대",
    "한화",
    "롯데",
    "두산",
    "한솔",
    "삼양",
    "신세계",
    "samsung",
    "hyundai",
    // Korean company names that are common words
    "대상",
    "동원",
    "대교",
    "한샘",
    "오뚜기",
    "진로",
    "효성",
    "태영",
    "하이브",
];

/// Upper-case abbreviations that are not tickers when in parentheses without an
/// exchange (`(CEO)`): they only confirm a name.
pub const COMMON_ABBREVIATIONS: &[&str] = &[
    "CEO", "CFO", "CTO", "COO", "IPO", "ETF", "ETN", "EPS", "GDP", "CPI", "PPI", "PCE", "FOMC",
    "FED", "SEC", "FDA", "ECB", "BOJ", "BOK", "IMF", "ESG", "USD", "KRW", "EUR", "JPY", "CNY",
    "YOY", "QOQ", "MOU", "API", "NFT", "AGM", "PER", "PBR", "ROE", "ROA", "EBITDA", "SPAC", "LNG",
    "HBM", "DRAM", "NAND", "GPU", "CPU", "AP", "OLED", "LCD", "SUV", "EV", "USA", "UAE", "NYSE",
    "NASDAQ", "KOSPI", "KOSDAQ", "KRX", "OTC", "ADR", "REIT", "REITS",
];

/// Syllables that may follow a Korean name: particles (이 가 은 는 을 를 의 에 와 과 도
/// 로 으로 만 까지 부터 보다 처럼 이나 나 랑 께 한테 조차 마저 뿐 마다 야 이다 였 라는
/// 란) and suffixes common in finance news (측, 발, 주, 등, 내, 외, 그룹, 서, 엔).
pub const PARTICLE_STARTS: &[char] = &[
    '이', '가', '은', '는', '을', '를', '의', '에', '와', '과', '도', '로', '으', '만', '까', '부',
    '보', '처', '나', '랑', '께', '한', '조', '마', '뿐', '야', '여', '다', '였', '라', '란', '며',
    '인', '측', '발', '주', '등', '내', '외', '그', '서', '엔', '쪽',
];

/// Exchanges written before a ticker in parentheses (compared case-insensitively).
const EXCHANGE_PREFIXES: &[&str] = &[
    "nasdaq",
    "nyse",
    "nyse american",
    "nysearca",
    "nyse arca",
    "amex",
    "otc",
    "krx",
    "kospi",
    "kosdaq",
    "코스피",
    "코스닥",
    "나스닥",
    "뉴욕증권거래소",
    "유가증권시장",
];

#[derive(Debug)]
struct Pattern {
    /// The instruments this name belongs to.
    entries: Vec<usize>,
    ambiguous: bool,
}

/// Finds the instruments an article names.
#[derive(Debug)]
pub struct Linker {
    entries: Vec<LinkEntry>,
    names: Option<AhoCorasick>,
    patterns: Vec<Pattern>,
    by_ticker: HashMap<String, Vec<usize>>,
    by_krx_code: HashMap<String, Vec<usize>>,
    by_cik: HashMap<u64, Vec<usize>>,
}

/// What one article says about one instrument.
#[derive(Debug, Default, Clone, Copy)]
struct Evidence {
    strong: bool,
    code: bool,
    ambiguous_title: bool,
    ambiguous_body: bool,
    in_title: bool,
    /// (0 title / 1 body, byte offset) of the first mention.
    first: (u8, usize),
    seen: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Signal {
    /// A name not on the ambiguous list.
    Name,
    /// An ambiguous name.
    AmbiguousName,
    /// A code that links by itself.
    Code,
    /// A code that only confirms a name.
    WeakCode,
}

impl Linker {
    /// Builds the matchers; `ambiguous` names (compared case-insensitively) link only
    /// with a second signal. Pass [`DEFAULT_AMBIGUOUS`] unless you know better.
    ///
    /// # Panics
    ///
    /// When the names exceed aho-corasick's limits (billions of automaton states; a
    /// catalogue of millions of names is far below them).
    pub fn new(entries: Vec<LinkEntry>, ambiguous: &[&str]) -> Linker {
        let ambiguous: HashSet<String> = ambiguous.iter().map(|n| fold(n)).collect();
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut pattern_texts: Vec<String> = Vec::new();
        let mut pattern_of: HashMap<String, usize> = HashMap::new();
        let mut by_ticker: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_krx_code: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_cik: HashMap<u64, Vec<usize>> = HashMap::new();

        for (index, entry) in entries.iter().enumerate() {
            for name in &entry.names {
                let name = name.trim();
                if name.is_empty() {
                    continue;
                }
                let key = fold(name);
                let id = *pattern_of.entry(key.clone()).or_insert_with(|| {
                    patterns.push(Pattern {
                        entries: Vec::new(),
                        ambiguous: ambiguous.contains(&key) || too_short(name),
                    });
                    pattern_texts.push(key.clone());
                    patterns.len() - 1
                });
                let pattern = &mut patterns[id];
                if !pattern.entries.contains(&index) {
                    pattern.entries.push(index);
                }
            }
            let ticker = entry.ticker.trim();
            if let Some(code) = krx_code(ticker) {
                by_krx_code.entry(code.to_owned()).or_default().push(index);
            } else if !ticker.is_empty() {
                by_ticker.entry(ticker_key(ticker)).or_default().push(index);
            }
            if let Some(cik) = entry.cik.filter(|c| *c > 0) {
                by_cik.entry(cik).or_default().push(index);
            }
        }

        let names = (!pattern_texts.is_empty()).then(|| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .ascii_case_insensitive(true)
                .build(&pattern_texts)
                .expect("names within aho-corasick's limits")
        });
        Linker {
            entries,
            names,
            patterns,
            by_ticker,
            by_krx_code,
            by_cik,
        }
    }

    /// How many instruments the linker knows.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the linker knows no instrument.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The instruments named in an article (its plain-text title and body),
    /// deduplicated, in order of first mention.
    pub fn link(&self, title: &str, body: &str) -> Vec<Link> {
        let mut evidence: HashMap<usize, Evidence> = HashMap::new();
        for (part, text) in [(0u8, title), (1u8, body)] {
            let mut note = |entries: &[usize], signal: Signal, at: usize| {
                for &entry in entries {
                    let e = evidence.entry(entry).or_default();
                    if !e.seen {
                        e.seen = true;
                        e.first = (part, at);
                    }
                    match signal {
                        Signal::Name => e.strong = true,
                        Signal::Code => {
                            e.strong = true;
                            e.code = true;
                        }
                        Signal::WeakCode => e.code = true,
                        Signal::AmbiguousName if part == 0 => e.ambiguous_title = true,
                        Signal::AmbiguousName => e.ambiguous_body = true,
                    }
                    if part == 0 {
                        e.in_title = true;
                    }
                }
            };
            self.scan_names(text, &mut note);
            self.scan_codes(text, &mut note);
        }

        let mut linked: Vec<(usize, Evidence)> = evidence
            .into_iter()
            .filter(|(_, e)| {
                e.strong
                    || ((e.ambiguous_title || e.ambiguous_body)
                        && (e.code || (e.ambiguous_title && e.ambiguous_body)))
            })
            .collect();
        linked.sort_by_key(|(entry, e)| (e.first, *entry));
        let mut seen_ids = HashSet::new();
        linked
            .into_iter()
            .filter(|(entry, _)| seen_ids.insert(self.entries[*entry].instrument_id.as_str()))
            .map(|(entry, e)| Link {
                instrument_id: self.entries[entry].instrument_id.clone(),
                in_title: e.in_title,
            })
            .collect()
    }

    /// The instruments of an SEC filer (an EDGAR item), `in_title` true.
    pub fn link_cik(&self, cik: u64) -> Vec<Link> {
        self.by_cik
            .get(&cik)
            .map(|entries| {
                entries
                    .iter()
                    .map(|&i| Link {
                        instrument_id: self.entries[i].instrument_id.clone(),
                        in_title: true,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn scan_names(&self, text: &str, note: &mut impl FnMut(&[usize], Signal, usize)) {
        let Some(names) = &self.names else { return };
        let mut from = 0;
        while from < text.len() {
            let Some(m) = names.find(Input::new(text).span(from..text.len())) else {
                break;
            };
            let pattern = &self.patterns[m.pattern().as_usize()];
            let matched = &text[m.start()..m.end()];
            if at_word_edges(text, m.start(), m.end()) && case_fits(matched) {
                let signal = if pattern.ambiguous {
                    Signal::AmbiguousName
                } else {
                    Signal::Name
                };
                note(&pattern.entries, signal, m.start());
                from = m.end();
            } else {
                // Rejected: look again from the next character, where a shorter or
                // later name may fit.
                from = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }

    fn scan_codes(&self, text: &str, note: &mut impl FnMut(&[usize], Signal, usize)) {
        // Cashtags.
        for caps in cashtag_re().captures_iter(text) {
            let (Some(whole), Some(ticker)) = (caps.get(0), caps.get(1)) else {
                continue;
            };
            let before_ok =
                !prev_char(text, whole.start()).is_some_and(|c| c.is_ascii_alphanumeric());
            let after_ok = !next_char(text, whole.end()).is_some_and(|c| c.is_ascii_alphanumeric());
            if before_ok && after_ok {
                if let Some(entries) = self.by_ticker.get(&ticker_key(ticker.as_str())) {
                    note(entries, Signal::Code, whole.start());
                }
            }
        }
        // KRX codes: whole runs of ASCII letters and digits.
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            match (c.is_ascii_alphanumeric(), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    if let Some(entries) =
                        krx_code(&text[s..i]).and_then(|code| self.by_krx_code.get(code))
                    {
                        note(entries, Signal::Code, s);
                    }
                    start = None;
                }
                _ => {}
            }
        }
        // Tickers in parentheses.
        for caps in paren_ticker_re().captures_iter(text) {
            let (Some(whole), Some(ticker)) = (caps.get(0), caps.get(2)) else {
                continue;
            };
            let Some(entries) = self.by_ticker.get(&ticker_key(ticker.as_str())) else {
                continue;
            };
            let exchange = caps.get(1).map(|m| m.as_str().trim().to_lowercase());
            let signal = match exchange {
                Some(x) if EXCHANGE_PREFIXES.contains(&x.as_str()) => Signal::Code,
                Some(_) => Signal::WeakCode,
                None if ticker.as_str().len() <= 2
                    || COMMON_ABBREVIATIONS.contains(&ticker.as_str()) =>
                {
                    Signal::WeakCode
                }
                None => Signal::Code,
            };
            note(entries, signal, whole.start());
        }
    }
}

fn cashtag_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\$([A-Za-z][A-Za-z0-9]{0,5}(?:[.\-/][A-Za-z]{1,2})?)").expect("a valid regex")
    })
}

fn paren_ticker_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"[(（]\s*(?:([A-Za-z가-힣][A-Za-z가-힣 ]{0,20}?)\s*[:：]\s*)?([A-Z][A-Z0-9]{0,5}(?:[.\-/][A-Z]{1,2})?)\s*[)）]")
            .expect("a valid regex")
    })
}

/// The KRX code in a token: `005930`, `0015N0`, `A005930` → `005930`.
fn krx_code(token: &str) -> Option<&str> {
    let code = match token.len() {
        7 if token.starts_with('A') => &token[1..],
        6 => token,
        _ => return None,
    };
    let b = code.as_bytes();
    let fifth_ok =
        b[4].is_ascii_digit() || (b[4].is_ascii_uppercase() && !matches!(b[4], b'I' | b'O' | b'U'));
    (b[..4].iter().all(u8::is_ascii_digit) && fifth_ok && b[5].is_ascii_digit()).then_some(code)
}

/// Tickers compared upper-case with `.` for the share-class separator (`BRK-B`,
/// `BRK/B` → `BRK.B`).
fn ticker_key(ticker: &str) -> String {
    ticker.trim().to_ascii_uppercase().replace(['-', '/'], ".")
}

/// Names are compared with ASCII letters lower-cased (what the automaton does).
fn fold(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

/// At most two Latin letters or digits, or one Hangul syllable.
fn too_short(name: &str) -> bool {
    let chars: Vec<char> = name.chars().filter(|c| !c.is_whitespace()).collect();
    match chars.as_slice() {
        [c] => is_hangul(*c) || c.is_ascii_alphanumeric(),
        [a, b] => a.is_ascii_alphanumeric() && b.is_ascii_alphanumeric(),
        _ => false,
    }
}

fn is_hangul(c: char) -> bool {
    ('\u{ac00}'..='\u{d7a3}').contains(&c)
}

fn prev_char(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

fn next_char(text: &str, at: usize) -> Option<char> {
    text[at..].chars().next()
}

fn at_word_edges(text: &str, start: usize, end: usize) -> bool {
    let matched = &text[start..end];
    let (Some(first), Some(last)) = (matched.chars().next(), matched.chars().next_back()) else {
        return false;
    };
    let before = prev_char(text, start);
    let after = next_char(text, end);
    if first.is_ascii_alphanumeric() && before.is_some_and(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    if is_hangul(first) && before.is_some_and(is_hangul) {
        return false;
    }
    if last.is_ascii_alphanumeric() && after.is_some_and(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    if is_hangul(last) && after.is_some_and(|c| is_hangul(c) && !PARTICLE_STARTS.contains(&c)) {
        return false;
    }
    true
}

/// A Latin match written all in lower case ("apple", "target", "google") is a common
/// word; any capital ("Apple", "iPhone", "APPLE") makes it a name. (The catalogue
/// lower-cases Latin aliases, so how a name is stored says nothing.)
fn case_fits(matched: &str) -> bool {
    let has_letters = matched.chars().any(|c| c.is_ascii_alphabetic());
    !has_letters || matched.chars().any(|c| c.is_ascii_uppercase())
}

/// The filer's CIK of an EDGAR item, from its title
/// (`8-K - COMPANY NAME (0001788060) (Filer)`) or its link
/// (`/Archives/edgar/data/{cik}/…`).
pub fn cik_from_edgar(title: &str, link: &str) -> Option<u64> {
    static TITLE: OnceLock<Regex> = OnceLock::new();
    static LINK: OnceLock<Regex> = OnceLock::new();
    let title_re = TITLE.get_or_init(|| {
        Regex::new(r"\((\d{1,10})\)\s*\((?:Filer|Subject|Reporting|Issuer|Filed by|Filed By|Subject Company)\)")
            .expect("a valid regex")
    });
    let link_re = LINK.get_or_init(|| {
        Regex::new(r"/Archives/edgar/data/(\d{1,10})(?:/|$)").expect("a valid regex")
    });
    let from_title = title_re
        .captures(title)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str());
    let from_link = || {
        link_re
            .captures(link)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str())
    };
    from_title
        .or_else(from_link)
        .and_then(|digits| digits.parse::<u64>().ok())
        .filter(|cik| *cik > 0)
}

/// SEC CIKs of the US instruments in Moat's curated catalogue
/// (`crates/moat-market/data/instruments.csv`), by ticker; checked against the SEC's
/// `company_tickers_exchange.json`. ETFs that are not SEC registrants in their own name
/// (VOO, IVV…) have none. Both Alphabet classes share one CIK.
pub fn known_ciks() -> &'static [(&'static str, u64)] {
    KNOWN_CIKS
}

static KNOWN_CIKS: &[(&str, u64)] = &[
    ("AAPL", 320193),
    ("MSFT", 789019),
    ("NVDA", 1045810),
    ("AMZN", 1018724),
    ("GOOGL", 1652044),
    ("GOOG", 1652044),
    ("META", 1326801),
    ("TSLA", 1318605),
    ("AVGO", 1730168),
    ("COST", 909832),
    ("NFLX", 1065280),
    ("AMD", 2488),
    ("ADBE", 796343),
    ("PEP", 77476),
    ("CSCO", 858877),
    ("INTC", 50863),
    ("QCOM", 804328),
    ("TXN", 97476),
    ("AMGN", 318154),
    ("INTU", 896878),
    ("PYPL", 1633917),
    ("SBUX", 829224),
    ("MU", 723125),
    ("PLTR", 1321655),
    ("ISRG", 1035267),
    ("BKNG", 1075531),
    ("AMAT", 6951),
    ("LRCX", 707549),
    ("GILD", 882095),
    ("CMCSA", 1166691),
    ("TMUS", 1283699),
    ("HON", 773840),
    ("MDLZ", 1103982),
    ("ADP", 8670),
    ("VRTX", 875320),
    ("REGN", 872589),
    ("PANW", 1327567),
    ("ABNB", 1559720),
    ("COIN", 1679788),
    ("CRWD", 1535527),
    ("SNPS", 883241),
    ("CDNS", 813672),
    ("KLAC", 319201),
    ("ADI", 6281),
    ("SMCI", 1375365),
    ("ARM", 1973239),
    ("MRVL", 1835632),
    ("MSTR", 1050446),
    ("ASML", 937966),
    ("BRK.B", 1067983),
    ("JPM", 19617),
    ("V", 1403161),
    ("MA", 1141391),
    ("JNJ", 200406),
    ("WMT", 104169),
    ("PG", 80424),
    ("XOM", 34088),
    ("UNH", 731766),
    ("HD", 354950),
    ("KO", 21344),
    ("DIS", 1744489),
    ("BAC", 70858),
    ("CVX", 93410),
    ("MCD", 63908),
    ("ABBV", 1551152),
    ("PFE", 78003),
    ("NKE", 320187),
    ("T", 732717),
    ("VZ", 732712),
    ("O", 726728),
    ("IBM", 51143),
    ("GS", 886982),
    ("CAT", 18230),
    ("BA", 12927),
    ("MMM", 66740),
    ("LLY", 59478),
    ("ORCL", 1341439),
    ("CRM", 1108524),
    ("ACN", 1467373),
    ("TMO", 97745),
    ("ABT", 1800),
    ("WFC", 72971),
    ("MS", 895421),
    ("C", 831001),
    ("AXP", 4962),
    ("GE", 40545),
    ("UNP", 100885),
    ("RTX", 101829),
    ("LMT", 936468),
    ("NEE", 753308),
    ("PM", 1413329),
    ("UBER", 1543151),
    ("BLK", 2012383),
    ("SPGI", 64040),
    ("TSM", 1046179),
    ("SPY", 884394),
    ("DIA", 1041130),
    ("GLD", 1222333),
    ("QQQ", 1067839),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn krx_codes_have_their_shape() {
        for (token, want) in [
            ("005930", Some("005930")),
            ("A005930", Some("005930")),
            ("0015N0", Some("0015N0")),
            ("0009K0", Some("0009K0")),
            ("0015I0", None),
            ("0015O0", None),
            ("0015U0", None),
            ("0059301", None),
            ("05930", None),
            ("B005930", None),
            ("0015n0", None),
        ] {
            assert_eq!(krx_code(token), want, "token {token:?}");
        }
    }

    #[test]
    fn short_names_are_ambiguous() {
        for (name, want) in [
            ("KT", true),
            ("LG", true),
            ("3M", true),
            ("금", true),
            ("기아", false),
            ("IBM", false),
            ("S-Oil", false),
        ] {
            assert_eq!(too_short(name), want, "{name}");
        }
    }

    #[test]
    fn ciks_come_from_the_title_or_the_link() {
        assert_eq!(
            cik_from_edgar("8-K - Apple Inc. (0000320193) (Filer)", ""),
            Some(320193)
        );
        assert_eq!(
            cik_from_edgar("4 - Cook Timothy D (0001214156) (Reporting)", ""),
            Some(1214156)
        );
        assert_eq!(
            cik_from_edgar("8-K  - Current report", "https://www.sec.gov/Archives/edgar/data/1889983/000121390025006497/0001213900-25-006497-index.htm"),
            Some(1889983)
        );
        assert_eq!(
            cik_from_edgar(
                "Acting Chairman names staff",
                "https://www.sec.gov/newsroom/press-releases/2025-31"
            ),
            None
        );
        assert_eq!(cik_from_edgar("8-K - X (0000000000) (Filer)", ""), None);
    }

    #[test]
    fn known_ciks_are_unique_per_ticker() {
        let mut tickers = HashSet::new();
        for (ticker, cik) in known_ciks() {
            assert!(tickers.insert(*ticker), "{ticker} twice");
            assert!(*cik > 0);
        }
        assert!(known_ciks().contains(&("AAPL", 320193)));
        assert!(known_ciks().contains(&("NVDA", 1045810)));
    }
}
