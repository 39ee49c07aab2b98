//! Page metadata rendered by the server. Link previews (KakaoTalk, Slack, search
//! engines) run no JavaScript, so the title, description and Open Graph tags of every
//! app route are written into `index.html` here. [`PAGES`] is the one route table;
//! each area adds its routes to it.

use axum::http::{HeaderMap, StatusCode};

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
    pub path: &'static str,
    pub title: Text,
    pub description: Text,
}

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
};

/// The route for a path (a trailing slash is ignored), and the status to answer with.
pub fn resolve(path: &str) -> (&'static PageRoute, StatusCode) {
    let trimmed = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    match PAGES.iter().find(|p| p.path == trimmed) {
        Some(page) => (page, StatusCode::OK),
        None => (&NOT_FOUND, StatusCode::NOT_FOUND),
    }
}

/// Where the page was requested: scheme and host of the public address.
pub struct Origin(pub String);

impl Origin {
    /// `public_url` when configured; otherwise the request's Host header, kept only
    /// when it is a plain host[:port] (it is attacker-controlled and ends up in HTML).
    pub fn from_request(public_url: &str, headers: &HeaderMap) -> Self {
        if !public_url.is_empty() {
            return Origin(public_url.trim_end_matches('/').to_owned());
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

/// Marker in `index.html` replaced by the head tags.
pub const HEAD_MARKER: &str = "<!--moat-head-->";

/// Writes the page's head tags (and delayed-script tags) into the template.
pub fn render(
    template: &str,
    page: &PageRoute,
    lang: Lang,
    origin: &Origin,
    path: &str,
    delayed_scripts: &[String],
) -> String {
    let title = escape(page.title.get(lang));
    let description = escape(page.description.get(lang));
    let url = escape(&format!("{}{}", origin.0, path));
    let image = escape(&format!("{}/og-image.png", origin.0));
    let mut head = format!(
        concat!(
            "<title>{title}</title>\n",
            "    <meta name=\"description\" content=\"{description}\">\n",
            "    <meta property=\"og:type\" content=\"website\">\n",
            "    <meta property=\"og:site_name\" content=\"Moat\">\n",
            "    <meta property=\"og:locale\" content=\"{locale}\">\n",
            "    <meta property=\"og:title\" content=\"{title}\">\n",
            "    <meta property=\"og:description\" content=\"{description}\">\n",
            "    <meta property=\"og:url\" content=\"{url}\">\n",
            "    <meta property=\"og:image\" content=\"{image}\">\n",
            "    <meta property=\"og:image:width\" content=\"1200\">\n",
            "    <meta property=\"og:image:height\" content=\"630\">\n",
            "    <meta name=\"twitter:card\" content=\"summary_large_image\">\n",
            "    <link rel=\"canonical\" href=\"{url}\">"
        ),
        title = title,
        description = description,
        locale = lang.og_locale(),
        url = url,
        image = image,
    );
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
    }

    #[test]
    fn the_head_carries_title_description_and_open_graph_tags() {
        let origin = Origin::from_request("https://moat.example", &HeaderMap::new());
        let html = render(
            TEMPLATE,
            resolve("/settings").0,
            Lang::En,
            &origin,
            "/settings",
            &[],
        );
        assert!(html.contains("<title>Settings — Moat</title>"), "{html}");
        assert!(html.contains("property=\"og:url\" content=\"https://moat.example/settings\""));
        assert!(
            html.contains("property=\"og:image\" content=\"https://moat.example/og-image.png\"")
        );
        assert!(html.contains("<html lang=\"en\">"));
        assert!(!html.contains(HEAD_MARKER));
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
        let origin = Origin::from_request("", &HeaderMap::new());
        let html = render(
            TEMPLATE,
            resolve("/").0,
            Lang::Ko,
            &origin,
            "/",
            &["https://cdn.example/a.js".into()],
        );
        assert!(
            html.contains("<script delay=\"https://cdn.example/a.js\"></script>"),
            "{html}"
        );
    }
}
