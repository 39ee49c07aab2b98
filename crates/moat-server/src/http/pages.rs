//! Page metadata rendered by the server. Link previews (KakaoTalk, Slack, search
//! engines) run no JavaScript, so the title, description and Open Graph tags of every
//! app route are written into `index.html` here. [`PAGES`] is the one route table;
//! each area adds its routes to it.

use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use moat_market::{Instrument, InstrumentId, Kind, Quote};
use rust_decimal::{Decimal, RoundingStrategy};

use crate::AppState;

/// The two locales Moat speaks; Korean is the default (PRODUCT.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Ko,
    En,
}

impl Lang {
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    fn og_locale(self) -> &'static str {
        match self {
            Lang::Ko => "ko_KR",
            Lang::En => "en_US",
        }
    }

    /// `?lang=` wins; otherwise the first language of `Accept-Language`; else Korean.
    pub fn negotiate(query: Option<&str>, headers: &HeaderMap) -> Self {
        let from_query = query.and_then(|q| {
            q.split('&').find_map(|kv| match kv.split_once('=') {
                Some(("lang", "en")) => Some(Lang::En),
                Some(("lang", "ko")) => Some(Lang::Ko),
                _ => None,
            })
        });
        if let Some(lang) = from_query {
            return lang;
        }
        let accept = headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let first = accept
            .split(',')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if first.starts_with("en") {
            Lang::En
        } else {
            Lang::Ko
        }
    }
}

/// Text in both locales.
#[derive(Debug, Clone, Copy)]
pub struct Text {
    pub ko: &'static str,
    pub en: &'static str,
}

impl Text {
    pub fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Ko => self.ko,
            Lang::En => self.en,
        }
    }
}

/// One app route and its link-preview card.
#[derive(Debug)]
pub struct PageRoute {
    /// The path; a `{name}` segment matches any one segment.
    pub path: &'static str,
    pub title: Text,
    pub description: Text,
    /// Ask search engines not to index it (`<meta name="robots" content="noindex">`).
    pub noindex: bool,
}

/// The public profile route; its card names the member (looked up in [`card`]).
pub const MEMBER_PROFILE: &str = "/u/{nickname}";

/// A stock's page; its card names the instrument and its price (looked up in [`card`]).
pub const STOCK: &str = "/stocks/{id}";

/// How long a link preview waits for a price from a real provider before it is
/// rendered without one (the simulator answers at once).
const STOCK_QUOTE_WAIT: Duration = Duration::from_secs(2);

const SITE_DESCRIPTION: Text = Text {
    ko: "한국·미국 주식 포트폴리오, 다가오는 배당, 시장 뉴스, 투자자 커뮤니티와 종목 채팅을 한곳에서.",
    en: "Every Korean and US portfolio, upcoming dividends, market news, and investor community and stock chat in one place.",
};

/// Every app route the web app knows. Unknown paths get [`NOT_FOUND`] and status 404.
pub const PAGES: &[PageRoute] = &[
    PageRoute {
        path: "/",
        title: Text {
            ko: "Moat — 모든 투자를 한곳에",
            en: "Moat — all your investing in one place",
        },
        description: SITE_DESCRIPTION,
        noindex: false,
    },
    PageRoute {
        path: "/settings",
        title: Text {
            ko: "설정 — Moat",
            en: "Settings — Moat",
        },
        description: Text {
            ko: "언어와 앱 연동 등 Moat 설정.",
            en: "Language, app integration and other Moat settings.",
        },
        noindex: false,
    },
    PageRoute {
        path: "/login",
        title: Text {
            ko: "로그인 — Moat",
            en: "Log in — Moat",
        },
        description: Text {
            ko: "이메일 또는 카카오·네이버·구글·애플 계정으로 Moat에 로그인하세요.",
            en: "Log in to Moat with your email or a Kakao, Naver, Google or Apple account.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/signup",
        title: Text {
            ko: "회원가입 — Moat",
            en: "Sign up — Moat",
        },
        description: Text {
            ko: "Moat 계정을 만들고 포트폴리오, 배당, 커뮤니티를 한곳에서 관리하세요.",
            en: "Create a Moat account for your portfolios, dividends and community in one place.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/signup/social",
        title: Text {
            ko: "닉네임 정하기 — Moat",
            en: "Choose a nickname — Moat",
        },
        description: Text {
            ko: "소셜 계정으로 가입을 마치려면 닉네임을 정하세요.",
            en: "Choose a nickname to finish signing up with your social account.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/auth/complete",
        title: Text {
            ko: "로그인 중 — Moat",
            en: "Logging in — Moat",
        },
        description: Text {
            ko: "로그인을 마무리하는 중입니다.",
            en: "Finishing your log-in.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/settings/account",
        title: Text {
            ko: "계정 설정 — Moat",
            en: "Account settings — Moat",
        },
        description: Text {
            ko: "닉네임, 비밀번호, 내 데이터 내보내기와 회원 탈퇴.",
            en: "Nickname, password, exporting your data and deleting your account.",
        },
        noindex: true,
    },
    PageRoute {
        path: MEMBER_PROFILE,
        title: Text {
            ko: "회원 프로필 — Moat",
            en: "Member profile — Moat",
        },
        description: Text {
            ko: "Moat 회원의 프로필.",
            en: "A Moat member's profile.",
        },
        noindex: false,
    },
    PageRoute {
        path: STOCK,
        title: Text {
            ko: "종목 — Moat",
            en: "Stock — Moat",
        },
        description: Text {
            ko: "종목의 실시간 시세, 차트, 주요 지표.",
            en: "Live price, chart and key figures.",
        },
        noindex: false,
    },
    PageRoute {
        path: "/search",
        title: Text {
            ko: "종목 검색 — Moat",
            en: "Search stocks — Moat",
        },
        description: Text {
            ko: "한국·미국 주식, ETF, 지수를 이름·티커·초성으로 찾아보세요.",
            en: "Find Korean and US stocks, ETFs and indices by name or ticker.",
        },
        noindex: false,
    },
    PageRoute {
        path: "/favorites",
        title: Text {
            ko: "관심 종목 — Moat",
            en: "Favourites — Moat",
        },
        description: Text {
            ko: "관심 종목의 실시간 시세를 보고 순서를 바꿉니다.",
            en: "Live prices of your favourite stocks, in the order you choose.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/portfolios",
        title: Text {
            ko: "포트폴리오 — Moat",
            en: "Portfolios — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/portfolios/{id}",
        title: Text {
            ko: "포트폴리오 — Moat",
            en: "Portfolio — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/portfolios/{id}/transactions/new",
        title: Text {
            ko: "거래 추가 — Moat",
            en: "Add a transaction — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/portfolios/{id}/transactions/{tx}",
        title: Text {
            ko: "거래 수정 — Moat",
            en: "Edit a transaction — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/portfolios/{id}/import",
        title: Text {
            ko: "거래 가져오기 — Moat",
            en: "Import transactions — Moat",
        },
        description: Text {
            ko: "내 포트폴리오의 평가금액, 수익률, 배분과 거래 내역.",
            en: "Your portfolio's value, returns, allocation and transactions.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/dividends",
        title: Text {
            ko: "배당 캘린더 — Moat",
            en: "Dividend calendar — Moat",
        },
        description: Text {
            ko: "한국·미국 주식의 배당락일과 지급일, 내 배당 예상.",
            en: "Ex-dates and pay dates of Korean and US stocks, and your dividend projection.",
        },
        noindex: false,
    },
    PageRoute {
        path: "/operator",
        title: Text {
            ko: "운영 — Moat 운영",
            en: "Operator — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/market",
        title: Text {
            ko: "시세 제공자 — Moat 운영",
            en: "Market data providers — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/sessions",
        title: Text {
            ko: "세션 — Moat 운영",
            en: "Sessions — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/sessions/{id}",
        title: Text {
            ko: "세션 재생 — Moat 운영",
            en: "Session replay — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/errors",
        title: Text {
            ko: "오류 — Moat 운영",
            en: "Errors — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/errors/{id}",
        title: Text {
            ko: "오류 그룹 — Moat 운영",
            en: "Error group — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/feedback",
        title: Text {
            ko: "의견 — Moat 운영",
            en: "Feedback — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/vitals",
        title: Text {
            ko: "웹 바이탈 — Moat 운영",
            en: "Web vitals — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/traces",
        title: Text {
            ko: "트레이스 — Moat 운영",
            en: "Traces — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
    PageRoute {
        path: "/operator/traces/{id}",
        title: Text {
            ko: "트레이스 — Moat 운영",
            en: "Trace — Moat operator",
        },
        description: Text {
            ko: "운영자 화면: 세션 기록, 오류, 의견, 웹 바이탈, 트레이스.",
            en: "Operator console: session recordings, errors, feedback, web vitals, traces.",
        },
        noindex: true,
    },
];

/// The card for a path that is not an app route.
pub const NOT_FOUND: PageRoute = PageRoute {
    path: "",
    title: Text {
        ko: "페이지를 찾을 수 없습니다 — Moat",
        en: "Page not found — Moat",
    },
    description: SITE_DESCRIPTION,
    noindex: false,
};

fn matches(pattern: &str, path: &str) -> bool {
    let mut pat = pattern.split('/');
    let mut got = path.split('/');
    loop {
        match (pat.next(), got.next()) {
            (None, None) => return true,
            (Some(p), Some(g)) if p.starts_with('{') && p.ends_with('}') && !g.is_empty() => {}
            (Some(p), Some(g)) if p == g => {}
            _ => return false,
        }
    }
}

fn trim(path: &str) -> &str {
    if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    }
}

/// The route for a path (a trailing slash is ignored), and the status to answer with.
pub fn resolve(path: &str) -> (&'static PageRoute, StatusCode) {
    let trimmed = trim(path);
    match PAGES
        .iter()
        .find(|p| p.path == trimmed)
        .or_else(|| PAGES.iter().find(|p| matches(p.path, trimmed)))
    {
        Some(page) => (page, StatusCode::OK),
        None => (&NOT_FOUND, StatusCode::NOT_FOUND),
    }
}

/// The head of one page in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub title: String,
    pub description: String,
    pub noindex: bool,
}

impl Card {
    pub fn of(page: &PageRoute, lang: Lang) -> Self {
        Self {
            title: page.title.get(lang).to_owned(),
            description: page.description.get(lang).to_owned(),
            noindex: page.noindex,
        }
    }
}

/// The card and status of a path; a member's profile names the member (an unknown,
/// banned or deleted member is a 404; a database failure falls back to the generic
/// profile card); a stock's page names the instrument and its price (an unknown or
/// malformed id is a 404).
pub async fn card(state: &AppState, path: &str, lang: Lang) -> (Card, StatusCode) {
    let (page, status) = resolve(path);
    if page.path == STOCK {
        return stock_card(state, path, lang).await;
    }
    if page.path != MEMBER_PROFILE {
        return (Card::of(page, lang), status);
    }
    let nickname = percent_decode(trim(path).trim_start_matches("/u/"));
    match crate::accounts::routes::public_profile(&state.accounts, &nickname).await {
        Ok(Some(profile)) => {
            let n = &profile.nickname;
            let card = match lang {
                Lang::Ko => Card {
                    title: format!("{n} — Moat"),
                    description: format!("Moat 회원 {n}님의 프로필."),
                    noindex: false,
                },
                Lang::En => Card {
                    title: format!("{n} — Moat"),
                    description: format!("{n}'s profile on Moat."),
                    noindex: false,
                },
            };
            (card, StatusCode::OK)
        }
        Ok(None) => (Card::of(&NOT_FOUND, lang), StatusCode::NOT_FOUND),
        Err(_) => (Card::of(page, lang), StatusCode::OK),
    }
}

/// `/stocks/{id}`: `삼성전자 (005930) ₩71,200 +1.23% — Moat`. The id may carry its colon
/// as `%3A`; exchange and symbol are case-insensitive, as in the API.
async fn stock_card(state: &AppState, path: &str, lang: Lang) -> (Card, StatusCode) {
    let raw = percent_decode(trim(path).trim_start_matches("/stocks/"));
    let Some(instrument) = raw
        .parse::<InstrumentId>()
        .ok()
        .and_then(|id| state.market.service.instrument(&id))
    else {
        return (Card::of(&NOT_FOUND, lang), StatusCode::NOT_FOUND);
    };
    // A real provider may be slow or down; the card is then rendered without a price.
    let quote = tokio::time::timeout(STOCK_QUOTE_WAIT, state.market.service.quote(&instrument))
        .await
        .ok()
        .flatten();
    let simulated = state.market.service.is_simulated(&instrument);
    (
        stock_card_of(&instrument, quote.as_ref(), simulated, lang),
        StatusCode::OK,
    )
}

/// The card of an instrument with its quote (if any) in one language.
fn stock_card_of(
    instrument: &Instrument,
    quote: Option<&Quote>,
    simulated: bool,
    lang: Lang,
) -> Card {
    let (name, other) = match lang {
        Lang::Ko => (&instrument.name_ko, &instrument.name_en),
        Lang::En => (&instrument.name_en, &instrument.name_ko),
    };
    let name = if name.is_empty() { other } else { name };
    let ticker = instrument.ticker();
    let priced = quote.map(|q| {
        (
            format_price(q.price, instrument),
            format_percent(q.change_percent()),
        )
    });
    let title = match &priced {
        Some((price, change)) => format!("{name} ({ticker}) {price} {change} — Moat"),
        None => format!("{name} ({ticker}) — Moat"),
    };
    let mut description = match (lang, &priced) {
        (Lang::Ko, Some((price, change))) => format!(
            "{name}({ticker}) 현재가 {price}, 전일 대비 {change}. 실시간 시세, 차트, 주요 지표."
        ),
        (Lang::Ko, None) => format!("{name}({ticker})의 실시간 시세, 차트, 주요 지표."),
        (Lang::En, Some((price, change))) => format!(
            "{name} ({ticker}) at {price}, {change} from the previous close. Live price, chart and key figures."
        ),
        (Lang::En, None) => format!("Live price, chart and key figures of {name} ({ticker})."),
    };
    if simulated && priced.is_some() {
        description.push_str(match lang {
            Lang::Ko => " 모의 시세입니다.",
            Lang::En => " Prices are simulated.",
        });
    }
    Card {
        title,
        description,
        noindex: false,
    }
}

/// A price as the app writes it: money for stocks, ETFs and crypto (`₩71,200`,
/// `$189.43`), a plain number with two decimals for indices and exchange rates
/// (`3,150.00`); rounded half away from zero.
fn format_price(price: Decimal, instrument: &Instrument) -> String {
    let plain = matches!(instrument.kind, Kind::Index | Kind::Currency);
    let (symbol, decimals) = match instrument.currency.as_str() {
        _ if plain => ("", 2),
        "KRW" => ("₩", 0),
        "USD" => ("$", 2),
        _ => ("", 2),
    };
    let number = group_thousands(price, decimals);
    match (plain, symbol) {
        (true, _) => number,
        (false, "") => format!("{} {number}", instrument.currency),
        (false, symbol) => match number.strip_prefix('-') {
            Some(abs) => format!("-{symbol}{abs}"),
            None => format!("{symbol}{number}"),
        },
    }
}

/// A change in per cent with its sign and two decimals (`+1.23%`, `-0.45%`, `0.00%`).
fn format_percent(percent: Decimal) -> String {
    let rounded = percent.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    let text = group_thousands(rounded, 2);
    if rounded.is_sign_positive() && !rounded.is_zero() {
        format!("+{text}%")
    } else if rounded.is_zero() {
        format!("{}%", text.trim_start_matches('-'))
    } else {
        format!("{text}%")
    }
}

/// `decimals` places, rounded half away from zero, with `,` between thousands.
fn group_thousands(value: Decimal, decimals: u32) -> String {
    let rounded = value.round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero);
    let text = format!("{:.*}", decimals as usize, rounded.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut grouped = String::with_capacity(text.len() + int.len() / 3 + 1);
    if rounded.is_sign_negative() && !rounded.is_zero() {
        grouped.push('-');
    }
    for (i, digit) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if let Some(frac) = frac {
        grouped.push('.');
        grouped.push_str(frac);
    }
    grouped
}

/// Decodes `%XX` escapes (invalid UTF-8 is replaced).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where the page was requested: scheme and host of the public address.
pub struct Origin(pub String);

impl Origin {
    /// `public_url` when configured; otherwise the request's Host header, kept only
    /// when it is a plain host[:port]. For the OpenID Connect redirect URI only, which
    /// the provider checks against the URIs registered with it; link previews never
    /// use the request's host ([`public_origin`]).
    pub fn from_request(public_url: &str, headers: &HeaderMap) -> Self {
        if let Some(origin) = public_origin(public_url) {
            return Origin(origin);
        }
        let host = headers
            .get(axum::http::header::HOST)
            .and_then(|v| v.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.len() <= 255
                    && h.chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
            })
            .unwrap_or("localhost");
        let proto = match headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
        {
            Some("https") => "https",
            _ => "http",
        };
        Origin(format!("{proto}://{host}"))
    }
}

/// The configured public address without a trailing `/`; `None` when `public_url` is
/// not set. The only source of absolute URLs in a page: the request's `Host` and
/// `X-Forwarded-Proto` are the client's to choose, and a cache or a link preview
/// would keep what one client chose for everyone.
pub fn public_origin(public_url: &str) -> Option<String> {
    let origin = public_url.trim_end_matches('/');
    (!origin.is_empty()).then(|| origin.to_owned())
}

/// Marker in `index.html` replaced by the head tags.
pub const HEAD_MARKER: &str = "<!--moat-head-->";

/// Writes the page's head tags (and delayed-script tags) into the template.
///
/// `origin` is [`public_origin`]. With it, the card carries absolute `og:url`,
/// `og:image` and canonical URLs. Without it there is no absolute URL at all: no
/// `og:url` and no `og:image` (Open Graph wants both absolute), a `summary` Twitter
/// card, and a canonical link relative to the page (which HTML allows).
pub fn render(
    template: &str,
    card: &Card,
    lang: Lang,
    origin: Option<&str>,
    path: &str,
    delayed_scripts: &[String],
) -> String {
    let title = escape(&card.title);
    let description = escape(&card.description);
    let mut head = format!(
        concat!(
            "<title>{title}</title>\n",
            "    <meta name=\"description\" content=\"{description}\">\n",
            "    <meta property=\"og:type\" content=\"website\">\n",
            "    <meta property=\"og:site_name\" content=\"Moat\">\n",
            "    <meta property=\"og:locale\" content=\"{locale}\">\n",
            "    <meta property=\"og:title\" content=\"{title}\">\n",
            "    <meta property=\"og:description\" content=\"{description}\">"
        ),
        title = title,
        description = description,
        locale = lang.og_locale(),
    );
    match origin {
        Some(origin) => {
            let url = escape(&format!("{origin}{path}"));
            let image = escape(&format!("{origin}/og-image.png"));
            head.push_str(&format!(
                concat!(
                    "\n    <meta property=\"og:url\" content=\"{url}\">\n",
                    "    <meta property=\"og:image\" content=\"{image}\">\n",
                    "    <meta property=\"og:image:width\" content=\"1200\">\n",
                    "    <meta property=\"og:image:height\" content=\"630\">\n",
                    "    <meta name=\"twitter:card\" content=\"summary_large_image\">\n",
                    "    <link rel=\"canonical\" href=\"{url}\">"
                ),
                url = url,
                image = image,
            ));
        }
        None => head.push_str(&format!(
            concat!(
                "\n    <meta name=\"twitter:card\" content=\"summary\">\n",
                "    <link rel=\"canonical\" href=\"{path}\">"
            ),
            path = escape(path),
        )),
    }
    if card.noindex {
        head.push_str("\n    <meta name=\"robots\" content=\"noindex\">");
    }
    for src in delayed_scripts {
        head.push_str(&format!(
            "\n    <script delay=\"{}\"></script>",
            escape(src)
        ));
    }
    let html = template.replacen(HEAD_MARKER, &head, 1);
    html.replacen(
        "<html lang=\"ko\">",
        &format!("<html lang=\"{}\">", lang.tag()),
        1,
    )
}

/// Escapes text for HTML element content and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    const TEMPLATE: &str =
        "<!doctype html><html lang=\"ko\"><head><!--moat-head--></head><body></body></html>";

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn every_route_has_a_card_in_both_languages() {
        for page in PAGES {
            for lang in [Lang::Ko, Lang::En] {
                assert!(!page.title.get(lang).is_empty(), "{} {lang:?}", page.path);
                assert!(
                    !page.description.get(lang).is_empty(),
                    "{} {lang:?}",
                    page.path
                );
            }
        }
    }

    #[test]
    fn known_paths_resolve_and_unknown_ones_are_404() {
        assert_eq!(resolve("/").0.path, "/");
        assert_eq!(resolve("/settings/").0.path, "/settings");
        assert_eq!(resolve("/nope").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/u/개미").0.path, MEMBER_PROFILE);
        assert_eq!(resolve("/u/").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/u/a/b").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/settings/account").0.path, "/settings/account");
        assert_eq!(resolve("/stocks/KRX:005930").0.path, STOCK);
        assert_eq!(resolve("/stocks/KRX%3A005930/").0.path, STOCK);
        assert_eq!(resolve("/stocks/").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/search").0.path, "/search");
        assert_eq!(resolve("/favorites").0.path, "/favorites");
    }

    fn instrument(
        id: &str,
        kind: Kind,
        currency: &str,
        name_ko: &str,
        name_en: &str,
    ) -> Instrument {
        Instrument {
            id: id.parse().unwrap(),
            kind,
            board: None,
            currency: currency.into(),
            country: String::new(),
            name_ko: name_ko.into(),
            name_en: name_en.into(),
            sector: String::new(),
            shares_outstanding: None,
            reference_price: None,
            popularity: 0,
            aliases: vec![],
        }
    }

    fn quote(id: &str, price: &str, previous_close: &str) -> Quote {
        let price: Decimal = price.parse().unwrap();
        Quote {
            instrument_id: id.parse().unwrap(),
            price,
            previous_close: previous_close.parse().unwrap(),
            open: price,
            high: price,
            low: price,
            volume: 0,
            as_of: chrono::Utc::now(),
            state: moat_market::QuoteState::Live,
            source: "simulator".into(),
            simulated: true,
        }
    }

    #[test]
    fn prices_are_written_like_the_app_writes_them() {
        let samsung = instrument(
            "KRX:005930",
            Kind::Stock,
            "KRW",
            "삼성전자",
            "Samsung Electronics",
        );
        let apple = instrument("NASDAQ:AAPL", Kind::Stock, "USD", "애플", "Apple");
        let kospi = instrument("INDEX:KOSPI", Kind::Index, "KRW", "코스피", "KOSPI");
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        assert_eq!(format_price(d("71200"), &samsung), "₩71,200");
        assert_eq!(format_price(d("1234567.5"), &samsung), "₩1,234,568");
        assert_eq!(format_price(d("189.425"), &apple), "$189.43");
        assert_eq!(format_price(d("-0.5"), &apple), "-$0.50");
        assert_eq!(format_price(d("3150"), &kospi), "3,150.00");
        assert_eq!(format_price(d("999.999"), &kospi), "1,000.00");
        assert_eq!(format_percent(d("1.234")), "+1.23%");
        assert_eq!(format_percent(d("-0.455")), "-0.46%");
        assert_eq!(format_percent(d("-0.001")), "0.00%");
        assert_eq!(format_percent(d("0")), "0.00%");
    }

    #[test]
    fn a_stock_card_names_the_instrument_its_ticker_and_price() {
        let samsung = instrument(
            "KRX:005930",
            Kind::Stock,
            "KRW",
            "삼성전자",
            "Samsung Electronics",
        );
        let q = quote("KRX:005930", "72000", "71200");
        let ko = stock_card_of(&samsung, Some(&q), true, Lang::Ko);
        assert_eq!(ko.title, "삼성전자 (005930) ₩72,000 +1.12% — Moat");
        assert!(ko.description.contains("모의 시세"), "{}", ko.description);
        let en = stock_card_of(&samsung, Some(&q), false, Lang::En);
        assert_eq!(
            en.title,
            "Samsung Electronics (005930) ₩72,000 +1.12% — Moat"
        );
        assert!(!en.description.contains("simulated"));
        let none = stock_card_of(&samsung, None, true, Lang::Ko);
        assert_eq!(none.title, "삼성전자 (005930) — Moat");
        let unnamed = instrument("NYSE:XYZ", Kind::Stock, "USD", "", "XYZ Corp");
        assert_eq!(
            stock_card_of(&unnamed, None, false, Lang::Ko).title,
            "XYZ Corp (XYZ) — Moat"
        );
    }

    #[test]
    fn auth_pages_are_not_indexed() {
        for path in [
            "/login",
            "/signup",
            "/signup/social",
            "/auth/complete",
            "/settings/account",
        ] {
            let html = render(
                TEMPLATE,
                &Card::of(resolve(path).0, Lang::Ko),
                Lang::Ko,
                None,
                path,
                &[],
            );
            assert!(
                html.contains(r#"<meta name="robots" content="noindex">"#),
                "{path}"
            );
        }
        let html = render(
            TEMPLATE,
            &Card::of(resolve("/").0, Lang::Ko),
            Lang::Ko,
            None,
            "/",
            &[],
        );
        assert!(!html.contains("noindex"));
    }

    #[test]
    fn percent_escapes_are_decoded() {
        assert_eq!(percent_decode("%EA%B0%9C%EB%AF%B8"), "개미");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%zz%"), "%zz%");
    }

    #[test]
    fn the_head_carries_title_description_and_open_graph_tags() {
        let origin = public_origin("https://moat.example/");
        let html = render(
            TEMPLATE,
            &Card::of(resolve("/settings").0, Lang::En),
            Lang::En,
            origin.as_deref(),
            "/settings",
            &[],
        );
        assert!(html.contains("<title>Settings — Moat</title>"), "{html}");
        assert!(html.contains("property=\"og:url\" content=\"https://moat.example/settings\""));
        assert!(
            html.contains("property=\"og:image\" content=\"https://moat.example/og-image.png\"")
        );
        assert!(html.contains("rel=\"canonical\" href=\"https://moat.example/settings\""));
        assert!(html.contains("<html lang=\"en\">"));
        assert!(!html.contains(HEAD_MARKER));
    }

    #[test]
    fn without_a_public_url_the_head_has_no_absolute_url() {
        assert_eq!(public_origin(""), None);
        let html = render(
            TEMPLATE,
            &Card::of(resolve("/settings").0, Lang::En),
            Lang::En,
            None,
            "/settings",
            &[],
        );
        assert!(!html.contains("og:url"), "{html}");
        assert!(!html.contains("og:image"), "{html}");
        assert!(!html.contains("://"), "no absolute URL: {html}");
        assert!(
            html.contains("<link rel=\"canonical\" href=\"/settings\">"),
            "{html}"
        );
        assert!(html.contains("<meta name=\"twitter:card\" content=\"summary\">"));
        assert!(html.contains("property=\"og:title\" content=\"Settings — Moat\""));
    }

    #[test]
    fn a_hostile_host_header_cannot_inject_markup() {
        let origin = Origin::from_request("", &headers(&[("host", "evil\"><script>")]));
        assert_eq!(origin.0, "http://localhost");
        assert_eq!(
            escape("<a href=\"x\">'&"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;"
        );
    }

    #[test]
    fn language_comes_from_the_query_then_accept_language_then_korean() {
        assert_eq!(
            Lang::negotiate(Some("lang=en"), &HeaderMap::new()),
            Lang::En
        );
        assert_eq!(
            Lang::negotiate(None, &headers(&[("accept-language", "en-US,en;q=0.9")])),
            Lang::En
        );
        assert_eq!(
            Lang::negotiate(Some("lang=ko"), &headers(&[("accept-language", "en-US")])),
            Lang::Ko
        );
        assert_eq!(Lang::negotiate(None, &HeaderMap::new()), Lang::Ko);
    }

    #[test]
    fn delayed_scripts_become_script_tags_with_a_delay_attribute() {
        let html = render(
            TEMPLATE,
            &Card::of(resolve("/").0, Lang::Ko),
            Lang::Ko,
            None,
            "/",
            &["https://cdn.example/a.js".into()],
        );
        assert!(
            html.contains("<script delay=\"https://cdn.example/a.js\"></script>"),
            "{html}"
        );
    }
}
