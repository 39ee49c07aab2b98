//! Page metadata rendered by the server. Link previews (KakaoTalk, Slack, search
//! engines) run no JavaScript, so the title, description and Open Graph tags of every
//! app route are written into `index.html` here. Each area lists its pages (`PAGES` in
//! `<area>/pages.rs`, with a lookup for pages that name something); [`pages`] is the
//! one route table, composed from one line per area.

use axum::http::{HeaderMap, StatusCode};
use futures_util::future::BoxFuture;

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

/// Looks up the card of a page that names something (a member, a stock): the card
/// and status for the requested path, in the language asked for.
pub type LookupCard = for<'a> fn(&'a AppState, &'a str, Lang) -> BoxFuture<'a, (Card, StatusCode)>;

/// One app route and its link-preview card.
pub struct PageRoute {
    /// The path; a `{name}` segment matches any one segment.
    pub path: &'static str,
    pub title: Text,
    pub description: Text,
    /// Ask search engines not to index it (`<meta name="robots" content="noindex">`).
    pub noindex: bool,
    /// For a page that names something: how its card is looked up (else the title
    /// and description above are the card).
    pub lookup: Option<LookupCard>,
    /// The page's document may play a session replay (the operator console, one
    /// document for all its pages): its Content-Security-Policy allows inline styles.
    pub replay_styles: bool,
}

impl std::fmt::Debug for PageRoute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageRoute")
            .field("path", &self.path)
            .field("noindex", &self.noindex)
            .field("lookup", &self.lookup.is_some())
            .finish_non_exhaustive()
    }
}

pub const SITE_DESCRIPTION: Text = Text {
    ko: "한국·미국 주식 포트폴리오, 다가오는 배당, 시장 뉴스, 투자자 커뮤니티와 종목 채팅을 한곳에서.",
    en: "Every Korean and US portfolio, upcoming dividends, market news, and investor community and stock chat in one place.",
};

/// The shell's own pages: home, settings and the operator's start page.
const SHELL: &[PageRoute] = &[
    PageRoute {
        path: "/",
        title: Text {
            ko: "Moat — 모든 투자를 한곳에",
            en: "Moat — all your investing in one place",
        },
        description: SITE_DESCRIPTION,
        noindex: false,
        lookup: None,
        replay_styles: false,
    },
    PageRoute {
        path: "/settings",
        title: Text {
            ko: "설정 — Moat",
            en: "Settings — Moat",
        },
        description: Text {
            ko: "언어, 계정, 약관과 문의 등 Moat 설정.",
            en: "Language, account, terms, contact and other Moat settings.",
        },
        noindex: false,
        lookup: None,
        replay_styles: false,
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
        lookup: None,
        replay_styles: true,
    },
];

/// Every area's pages, one line per area: the one route table of the web app.
/// Unknown paths get [`NOT_FOUND`] and status 404.
const AREAS: &[&[PageRoute]] = &[
    SHELL,
    crate::accounts::PAGES,
    crate::market::PAGES,
    crate::portfolio::PAGES,
    crate::observability::PAGES,
    crate::news::PAGES,
];

/// Every app route the web app knows.
pub fn pages() -> impl Iterator<Item = &'static PageRoute> {
    AREAS.iter().flat_map(|area| area.iter())
}

/// The card for a path that is not an app route.
pub const NOT_FOUND: PageRoute = PageRoute {
    path: "",
    title: Text {
        ko: "페이지를 찾을 수 없습니다 — Moat",
        en: "Page not found — Moat",
    },
    description: SITE_DESCRIPTION,
    noindex: false,
    lookup: None,
    replay_styles: false,
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

/// The path without a trailing slash (`/` stays).
pub fn trim(path: &str) -> &str {
    if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    }
}

/// The route for a path (a trailing slash is ignored), and the status to answer with.
pub fn resolve(path: &str) -> (&'static PageRoute, StatusCode) {
    let trimmed = trim(path);
    match pages()
        .find(|p| p.path == trimmed)
        .or_else(|| pages().find(|p| matches(p.path, trimmed)))
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

/// The card and status of a path: the page's own card, or the one its area looks up
/// (a member's profile names the member, a stock's page its price).
pub async fn card(state: &AppState, path: &str, lang: Lang) -> (Card, StatusCode) {
    let (page, status) = resolve(path);
    match page.lookup {
        Some(lookup) => lookup(state, path, lang).await,
        None => (Card::of(page, lang), status),
    }
}

/// Decodes `%XX` escapes (invalid UTF-8 is replaced).
pub fn percent_decode(s: &str) -> String {
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

/// The built-in share card, served from the web build.
pub const BUILT_IN_SHARE_CARD: &str = "/og-image.png";

/// Marker in `index.html` replaced by the head tags.
pub const HEAD_MARKER: &str = "<!--moat-head-->";

/// Writes the page's head tags (and delayed-script tags) into the template.
///
/// `origin` is [`public_origin`]. With it, the card carries absolute `og:url`,
/// `og:image` and canonical URLs. Without it there is no absolute URL at all: no
/// `og:url` and no `og:image` (Open Graph wants both absolute), a `summary` Twitter
/// card, and a canonical link relative to the page (which HTML allows).
///
/// `share_card` is the path of the operator's share card (`/media/…`), when one is
/// uploaded; otherwise `og:image` is the built-in `/og-image.png` (1200 × 630).
pub fn render(
    template: &str,
    card: &Card,
    lang: Lang,
    origin: Option<&str>,
    path: &str,
    delayed_scripts: &[String],
    share_card: Option<&str>,
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
            let image = escape(&format!(
                "{origin}{}",
                share_card.unwrap_or(BUILT_IN_SHARE_CARD)
            ));
            // The built-in card's size is known; an uploaded one's is the crawler's to read.
            let size = if share_card.is_none() {
                concat!(
                    "    <meta property=\"og:image:width\" content=\"1200\">\n",
                    "    <meta property=\"og:image:height\" content=\"630\">\n",
                )
            } else {
                ""
            };
            head.push_str(&format!(
                concat!(
                    "\n    <meta property=\"og:url\" content=\"{url}\">\n",
                    "    <meta property=\"og:image\" content=\"{image}\">\n",
                    "{size}",
                    "    <meta name=\"twitter:card\" content=\"summary_large_image\">\n",
                    "    <link rel=\"canonical\" href=\"{url}\">"
                ),
                url = url,
                image = image,
                size = size,
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
        for page in pages() {
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
    fn the_operator_console_is_one_document_that_may_replay() {
        for page in pages() {
            assert_eq!(
                page.replay_styles,
                page.path == "/operator" || page.path.starts_with("/operator/"),
                "{}: every page of the console (and only those) may replay a session",
                page.path
            );
        }
    }

    #[test]
    fn known_paths_resolve_and_unknown_ones_are_404() {
        assert_eq!(resolve("/").0.path, "/");
        assert_eq!(resolve("/settings/").0.path, "/settings");
        assert_eq!(resolve("/nope").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/u/개미").0.path, crate::accounts::MEMBER_PROFILE);
        assert_eq!(resolve("/u/").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/u/a/b").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/settings/account").0.path, "/settings/account");
        assert_eq!(resolve("/stocks/KRX:005930").0.path, crate::market::STOCK);
        assert_eq!(
            resolve("/stocks/KRX%3A005930/").0.path,
            crate::market::STOCK
        );
        assert_eq!(resolve("/stocks/").1, StatusCode::NOT_FOUND);
        assert_eq!(resolve("/search").0.path, "/search");
        assert_eq!(resolve("/favorites").0.path, "/favorites");
    }
    #[test]
    fn auth_pages_are_not_indexed() {
        for path in [
            "/login",
            "/signup",
            "/signup/social",
            "/auth/complete",
            "/settings/account",
            "/forgot-password",
            "/reset-password",
            "/verify-email",
        ] {
            let html = render(
                TEMPLATE,
                &Card::of(resolve(path).0, Lang::Ko),
                Lang::Ko,
                None,
                path,
                &[],
                None,
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
            None,
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
            None,
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
            None,
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
            None,
        );
        assert!(
            html.contains("<script delay=\"https://cdn.example/a.js\"></script>"),
            "{html}"
        );
    }
}
