//! `GET /api/meta`: what the web app needs to know about this server before anything
//! else (version, clock, defaults).

use axum::extract::State;
use serde::Serialize;

use super::json::ApiJson;
use crate::AppState;

#[derive(Serialize, utoipa::ToSchema)]
pub struct Meta {
    /// The server's version.
    version: &'static str,
    /// The server's clock (RFC 3339), for correcting the browser's.
    server_time: String,
    /// The locale used when the member has not chosen one.
    default_locale: &'static str,
    /// Whether `/webview-host.html` is served.
    webview_host_enabled: bool,
    /// The operator's contact e-mail address (`contact_email`), when configured.
    contact_email: Option<String>,
    /// `/media/…` of the operator's house logo, when one is uploaded (the header shows
    /// it instead of the built-in mark).
    logo_url: Option<String>,
    /// `/media/…` of the operator's share card (link previews' image), when uploaded.
    share_card_url: Option<String>,
}

/// Server version, clock and defaults.
#[utoipa::path(get, path = "/api/meta", tag = "meta", responses((status = 200, body = Meta)))]
pub async fn get_meta(State(state): State<AppState>) -> ApiJson<Meta> {
    let branding = crate::media::branding::current(&state.media).await;
    ApiJson(Meta {
        logo_url: branding.logo_url,
        share_card_url: branding.share_card_url,
        version: env!("CARGO_PKG_VERSION"),
        server_time: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        default_locale: "ko",
        webview_host_enabled: state.config.webview_host,
        contact_email: Some(state.config.contact_email.trim())
            .filter(|c| !c.is_empty())
            .map(str::to_owned),
    })
}
