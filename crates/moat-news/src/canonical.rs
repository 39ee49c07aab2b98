//! Canonical article URLs.
//!
//! Korean outlets repeat one article in several section feeds, with tracking
//! parameters that differ per feed; the canonical form makes those one URL. It is a
//! deduplication key, never shown: the article keeps its original URL.
//!
//! The rules: http and https only (the scheme is kept: the two may differ); no
//! credentials; the host lower-cased (and IDNA-encoded) by the WHATWG parser, default
//! ports dropped, `.`/`..` segments resolved; the fragment dropped; tracking
//! parameters ([`TRACKING_PARAMS`], and every `utm_*`) dropped; the remaining
//! parameters sorted (as written, so `a=1&a=2` keeps both); a trailing `/` dropped from
//! paths other than `/`.

use url::Url;

/// Query parameters dropped as tracking noise, compared lower-cased; every `utm_*`
/// parameter is dropped too. `ref` and `ref_src` are referrer tags (Twitter, Substack,
/// many CMSs), never an article's identity.
pub const TRACKING_PARAMS: &[&str] = &[
    "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "twclid", "igshid",
    "mc_cid", "mc_eid", "_ga", "_gl", "ref", "ref_src",
];

/// The longest URL kept (longer ones are not article links we want to store).
pub const MAX_URL_LEN: usize = 2048;

fn is_tracking(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("utm_") || TRACKING_PARAMS.contains(&lower.as_str())
}

/// The canonical form of an absolute http(s) URL, or `None` for anything else.
pub fn canonical_url(url: &str) -> Option<String> {
    let mut url = parse_http(url, None)?;
    url.set_fragment(None);
    // Setting these cannot fail on an http(s) URL with a host.
    let _ = url.set_username("");
    let _ = url.set_password(None);

    let kept = url.query().map(|query| {
        let mut pairs: Vec<&str> = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .filter(|pair| {
                let name = pair.split('=').next().unwrap_or_default();
                !is_tracking(&percent_decode(name))
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs.join("&")
    });
    match kept {
        Some(query) if !query.is_empty() => url.set_query(Some(&query)),
        _ => url.set_query(None),
    }

    let path = url.path().to_owned();
    if path.len() > 1 && path.ends_with('/') {
        url.set_path(path.trim_end_matches('/'));
        if url.path().is_empty() {
            url.set_path("/");
        }
    }
    Some(url.to_string())
}

/// `href` resolved against `base`, kept only when http(s) with a host and at most
/// [`MAX_URL_LEN`] long (`javascript:`, `data:`, `mailto:` and the rest give `None`).
pub fn absolute_http_url(href: &str, base: Option<&str>) -> Option<String> {
    parse_http(href, base).map(String::from)
}

fn parse_http(href: &str, base: Option<&str>) -> Option<Url> {
    let href = href.trim();
    if href.is_empty() || href.len() > MAX_URL_LEN {
        return None;
    }
    let url = match base.and_then(|b| Url::parse(b).ok()) {
        Some(base) => base.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    let http = matches!(url.scheme(), "http" | "https");
    let has_host = url.host_str().is_some_and(|h| !h.is_empty());
    (http && has_host && url.as_str().len() <= MAX_URL_LEN).then_some(url)
}

/// Percent-decodes a query parameter's name (lossy: only to compare it).
fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(s.as_bytes())
        .next()
        .map(|(name, _)| name.into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        let cases = [
            (
                "https://WWW.Hankyung.com/article/2026112812345",
                "https://www.hankyung.com/article/2026112812345",
            ),
            (
                "https://www.mk.co.kr/news/stock/1234/?utm_source=rss&utm_medium=feed",
                "https://www.mk.co.kr/news/stock/1234",
            ),
            (
                "https://example.com/a?b=2&a=1#comments",
                "https://example.com/a?a=1&b=2",
            ),
            (
                "https://example.com:443/a?fbclid=xyz&id=5&gclid=1&UTM_Campaign=x",
                "https://example.com/a?id=5",
            ),
            ("http://example.com:80/", "http://example.com/"),
            ("http://example.com:8080/x/", "http://example.com:8080/x"),
            (
                "https://example.com/x/?ref=feed&mc_cid=1&mc_eid=2",
                "https://example.com/x",
            ),
            ("https://user:pw@example.com/a", "https://example.com/a"),
            ("https://example.com/a/./b/../c", "https://example.com/a/c"),
            ("https://example.com/?", "https://example.com/"),
            (
                "https://example.com/a?x=1&&x=1",
                "https://example.com/a?x=1",
            ),
            (
                "https://example.com/a?q=%ED%95%9C",
                "https://example.com/a?q=%ED%95%9C",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                canonical_url(input).as_deref(),
                Some(want),
                "input {input:?}"
            );
        }
    }

    #[test]
    fn only_http_and_https_are_urls() {
        for input in [
            "javascript:alert(1)",
            "java\tscript:alert(1)",
            "data:text/html,<b>x",
            "mailto:a@b.c",
            "ftp://x.org/a",
            "/relative",
            "",
            "https://",
        ] {
            assert_eq!(canonical_url(input), None, "input {input:?}");
            assert_eq!(absolute_http_url(input, None), None, "input {input:?}");
        }
    }

    #[test]
    fn relative_links_resolve_against_the_feed() {
        let base = Some("https://www.sec.gov/news/pressreleases.rss");
        assert_eq!(
            absolute_http_url("/newsroom/press-releases/2025-31", base).as_deref(),
            Some("https://www.sec.gov/newsroom/press-releases/2025-31")
        );
        assert_eq!(absolute_http_url("javascript:alert(1)", base), None);
        assert_eq!(
            absolute_http_url(" https://a.example/x ", base).as_deref(),
            Some("https://a.example/x")
        );
    }
}
