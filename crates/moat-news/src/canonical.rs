//! Canonical article URLs.

/// Query parameters dropped as tracking noise (names compared lower-cased; `utm_*` by
/// prefix).
pub const TRACKING_PARAMS: &[&str] = &[];

/// The canonical form of an absolute http(s) URL, or `None` for anything else.
pub fn canonical_url(url: &str) -> Option<String> {
    let _ = url;
    todo!()
}

/// `href` resolved against `base`, kept only when http(s).
pub fn absolute_http_url(href: &str, base: Option<&str>) -> Option<String> {
    let _ = (href, base);
    todo!()
}
