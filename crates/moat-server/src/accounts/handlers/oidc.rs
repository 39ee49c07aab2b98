//! `/api/auth/oidc/*`: social log-in. The browser goes to the provider and comes back
//! by redirects (302, values in the URL fragment); the web app then signs up with the
//! ticket it was given.

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Form,
};
use openidconnect::url::form_urlencoded;

use crate::{
    accounts::{
        dto::{CallbackParams, OidcSignupRequest, ProviderInfo, StartQuery, TokenResponse},
        extract::ClientIp,
        service::{self, OidcRedirect},
        AccountsState,
    },
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
        pages::Origin,
    },
};

/// The social log-in providers.
#[utoipa::path(get, path = "/api/auth/oidc/providers", tag = "accounts", responses(
    (status = 200, body = Vec<ProviderInfo>),
))]
pub async fn list_providers(State(state): State<AccountsState>) -> ApiJson<Vec<ProviderInfo>> {
    ApiJson(
        state
            .auth
            .oidc
            .iter()
            .map(|p| ProviderInfo {
                id: p.id.clone(),
                name: p.name.clone(),
                preset: p.preset.clone(),
            })
            .collect(),
    )
}

/// Sends the browser to the provider (OpenID Connect: authorization code + PKCE S256,
/// `state`, `nonce`; Naver: authorization code + `state`), with the cookie that binds
/// the log-in to this browser (docs/accounts.md, "Providers").
#[utoipa::path(get, path = "/api/auth/oidc/{id}/start", tag = "accounts",
    params(("id" = String, Path), StartQuery), responses(
    (status = 302, description = "To the provider, setting the `moat_oidc_…` cookie the callback requires; or to `/login#error=oidc_failed`"),
    (status = 404, body = crate::http::error::ErrorBody),
))]
pub async fn start(
    State(state): State<AccountsState>,
    Path(id): Path<String>,
    Query(q): Query<StartQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let origin = Origin::from_request(&state.config.public_url, &headers);
    let redirect = service::oidc_start(
        &state,
        &id,
        &origin.0,
        q.next.as_deref(),
        q.intent.as_deref(),
    )
    .await?;
    let secure = origin.0.starts_with("https://");
    Ok(respond(redirect, &id, secure))
}

/// Where the provider sends the browser back; redirects to the web app. A `state`
/// presented without the cookie `/start` set in this browser fails.
#[utoipa::path(get, path = "/api/auth/oidc/{id}/callback", tag = "accounts",
    params(("id" = String, Path), CallbackParams), responses(
    (status = 302, description = "`/auth/complete#token=…`, `/signup/social#ticket=…`, `/login#link_ticket=…` or `/login#error=…`"),
))]
pub async fn callback(
    State(state): State<AccountsState>,
    Path(id): Path<String>,
    Query(params): Query<CallbackParams>,
    headers: HeaderMap,
) -> Response {
    finish(&state, &id, params, &headers).await
}

/// The same, for providers that answer with a form POST (Apple).
#[utoipa::path(post, path = "/api/auth/oidc/{id}/callback", tag = "accounts",
    params(("id" = String, Path)),
    request_body(content = CallbackParams, content_type = "application/x-www-form-urlencoded"),
    responses((status = 302, description = "As the GET callback")))]
pub async fn callback_form(
    State(state): State<AccountsState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(params): Form<CallbackParams>,
) -> Response {
    finish(&state, &id, params, &headers).await
}

/// The callback's answer; the browser-binding cookie of its `state` is cleared.
async fn finish(
    state: &AccountsState,
    id: &str,
    params: CallbackParams,
    headers: &HeaderMap,
) -> Response {
    let cookies = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join("; ");
    let cookie = params
        .state
        .as_deref()
        .filter(|_| state.auth.oidc.get(id).is_some())
        .map(service::state_cookie_name)
        .filter(|name| service::has_cookie(&cookies, name));
    let mut response = respond(
        service::oidc_finish(state, id, params, &cookies).await,
        id,
        false,
    );
    if let Some(name) = cookie {
        // The cookie's path: the callback of this provider, as `/start` set it.
        let clear = format!(
            "{name}=; Path={}; Max-Age=0; HttpOnly; SameSite=Lax",
            callback_path(id)
        );
        if let Ok(v) = HeaderValue::from_str(&clear) {
            response.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    response
}

/// Where provider `id` sends the browser back (the state cookie's `Path`).
fn callback_path(id: &str) -> String {
    format!("/api/auth/oidc/{id}/callback")
}

/// Creates the account of a new social identity: the ticket from the redirect and a
/// nickname.
#[utoipa::path(post, path = "/api/auth/oidc/signup", tag = "accounts", request_body = OidcSignupRequest, responses(
    (status = 201, body = TokenResponse),
    (status = 409, description = "`email_taken` or `nickname_taken`", body = ErrorBody),
    (status = 422, description = "`fields.nickname`, or `fields.ticket` (expired or used)", body = ErrorBody),
    (status = 429, body = ErrorBody),
))]
pub async fn oidc_signup(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<OidcSignupRequest>,
) -> Result<(StatusCode, ApiJson<TokenResponse>), ApiError> {
    let token = service::oidc_signup(&state, ip, &body).await?;
    Ok((StatusCode::CREATED, ApiJson(TokenResponse { token })))
}

/// A 302 for a step of the social log-in, never cached. To a provider it sets the
/// cookie binding the log-in to this browser: only sent back to provider `id`'s
/// callback, for as long as the pending log-in lives, not readable by scripts;
/// `SameSite=Lax` (a top-level redirect back carries it) unless the provider answers
/// with a cross-site form POST, which needs `SameSite=None` and so `Secure`.
fn respond(redirect: OidcRedirect, id: &str, secure: bool) -> Response {
    match redirect {
        OidcRedirect::Provider {
            url,
            cookie,
            cross_site,
        } => {
            let same_site = if cross_site {
                "None; Secure"
            } else if secure {
                "Lax; Secure"
            } else {
                "Lax"
            };
            let set_cookie = format!(
                "{cookie}=1; Path={}; Max-Age={}; HttpOnly; SameSite={same_site}",
                callback_path(id),
                crate::accounts::OIDC_TTL.as_secs()
            );
            (
                StatusCode::FOUND,
                [
                    (header::LOCATION, url),
                    (header::CACHE_CONTROL, "no-store".to_owned()),
                    (header::SET_COOKIE, set_cookie),
                ],
            )
                .into_response()
        }
        OidcRedirect::Page { path, fragment } => redirect_fragment(path, &fragment),
    }
}

/// A 302 to a web-app path with a fragment (never logged nor sent as `Referer`).
fn redirect_fragment(path: &str, pairs: &[(&str, impl AsRef<str>)]) -> Response {
    let mut fragment = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        fragment.append_pair(k, v.as_ref());
    }
    let location = format!("{path}#{}", fragment.finish());
    (
        StatusCode::FOUND,
        [
            (
                header::LOCATION,
                HeaderValue::from_str(&location).unwrap_or(HeaderValue::from_static("/login")),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_put_values_in_the_fragment() {
        let r = redirect_fragment("/login", &[("error", "oidc_failed"), ("email", "a+b@x.io")]);
        assert_eq!(r.status(), StatusCode::FOUND);
        assert_eq!(
            r.headers()[header::LOCATION],
            "/login#error=oidc_failed&email=a%2Bb%40x.io"
        );
    }
}
