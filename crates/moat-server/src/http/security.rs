//! Security headers on every response. The Content-Security-Policy allows exactly what
//! the web app needs: its own scripts and styles, same-origin API and WebSocket calls,
//! workers from `blob:` (the session recorder runs its uploads in one), and framing
//! only by its own pages (the web-view host page frames the app).

use axum::{
    extract::Request,
    http::{header, HeaderName, HeaderValue},
    middleware::Next,
    response::Response,
};
use tower::ServiceBuilder;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::config::Config;

/// Middleware on `/api`: `Cache-Control: no-store` on every response to a request
/// that carried credentials (an `Authorization` header or a cookie), whatever the
/// route and status, and on every `/api/me…` response. What a member's token unlocks
/// must not be kept by the browser's cache or a shared one; the rule looks at the
/// request, not the route, so a new member-only route cannot forget it.
pub async fn no_store_when_private(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let private = request.headers().contains_key(header::AUTHORIZATION)
        || request.headers().contains_key(header::COOKIE)
        || path == "/api/me"
        || path.starts_with("/api/me/");
    let mut response = next.run(request).await;
    if private {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// The policy, with the origins of configured delayed scripts added to `script-src`.
pub fn content_security_policy(config: &Config) -> String {
    policy(config, "'self'")
}

/// The policy of a document that may replay a session (a page with
/// `replay_styles`: the operator console): the same, but for inline styles. A replay
/// rebuilds the recorded page in a frame that inherits this document's policy, and the
/// recorded page's `<style>` text and `style` attributes are inline. Scripts stay as
/// strict (rrweb never runs recorded scripts). A document keeps the policy it was
/// loaded with through client-side navigation, so this one only holds when the console
/// is loaded as a document of its own: the account page's link to it is a plain
/// document link (`AppLink reloadDocument`), `e2e/tests/observability.test.mjs` takes it.
pub fn replay_content_security_policy(config: &Config) -> String {
    policy(config, "'self' 'unsafe-inline'")
}

fn policy(config: &Config, style_src: &str) -> String {
    let mut script_src = String::from("'self'");
    for url in &config.delayed_scripts {
        if let Some(origin) = origin_of(url) {
            script_src.push(' ');
            script_src.push_str(&origin);
        }
    }
    format!(
        "default-src 'self'; script-src {script_src}; style-src {style_src}; img-src 'self' data: blob:; \
         font-src 'self'; connect-src 'self'; worker-src 'self' blob:; frame-src 'self'; \
         frame-ancestors 'self'; base-uri 'self'; form-action 'self'; object-src 'none'; manifest-src 'self'"
    )
}

fn origin_of(url: &str) -> Option<String> {
    let rest = url.strip_prefix("https://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty()).then(|| format!("https://{host}"))
}

type Layers = tower::layer::util::Stack<
    SetResponseHeaderLayer<HeaderValue>,
    tower::layer::util::Stack<
        SetResponseHeaderLayer<HeaderValue>,
        tower::layer::util::Stack<
            SetResponseHeaderLayer<HeaderValue>,
            tower::layer::util::Stack<
                SetResponseHeaderLayer<HeaderValue>,
                tower::layer::util::Stack<
                    SetResponseHeaderLayer<HeaderValue>,
                    tower::layer::util::Stack<
                        SetResponseHeaderLayer<HeaderValue>,
                        tower::layer::util::Identity,
                    >,
                >,
            >,
        >,
    >,
>;

pub fn headers_layer(config: &Config) -> ServiceBuilder<Layers> {
    let csp =
        HeaderValue::from_str(&content_security_policy(config)).expect("CSP is a valid header");
    let set =
        |name: HeaderName, value: HeaderValue| SetResponseHeaderLayer::if_not_present(name, value);
    ServiceBuilder::new()
        .layer(set(header::CONTENT_SECURITY_POLICY, csp))
        .layer(set(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(set(
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ))
        .layer(set(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("SAMEORIGIN"),
        ))
        .layer(set(
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=()"),
        ))
        .layer(set(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_replay_policy_allows_inline_styles() {
        let config = Config::default();
        assert!(content_security_policy(&config).contains("style-src 'self';"));
        let replay = replay_content_security_policy(&config);
        assert!(
            replay.contains("style-src 'self' 'unsafe-inline';"),
            "{replay}"
        );
        assert!(replay.contains("script-src 'self';"), "{replay}");
    }

    #[test]
    fn the_policy_allows_blob_workers_and_only_self_framing() {
        let csp = content_security_policy(&Config::default());
        assert!(csp.contains("worker-src 'self' blob:"));
        assert!(csp.contains("frame-ancestors 'self'"));
        assert!(csp.contains("script-src 'self';"));
    }

    #[test]
    fn delayed_script_origins_are_allowed_to_load() {
        let config = Config {
            delayed_scripts: vec![
                "https://cdn.example.com/x.js?a=1".into(),
                "/local.js".into(),
            ],
            ..Config::default()
        };
        let csp = content_security_policy(&config);
        assert!(
            csp.contains("script-src 'self' https://cdn.example.com;"),
            "{csp}"
        );
    }
}
