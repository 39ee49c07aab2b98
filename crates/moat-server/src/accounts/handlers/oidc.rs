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

/// Sends the browser to the provider (authorization code + PKCE S256, `state`, `nonce`).
#[utoipa::path(get, path = "/api/auth/oidc/{id}/start", tag = "accounts",
    params(("id" = String, Path), StartQuery), responses(
    (status = 302, description = "To the provider, or to `/login#error=oidc_failed`"),
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
    Ok(respond(redirect))
}

/// Where the provider sends the browser back; redirects to the web app.
#[utoipa::path(get, path = "/api/auth/oidc/{id}/callback", tag = "accounts",
    params(("id" = String, Path), CallbackParams), responses(
    (status = 302, description = "`/auth/complete#token=…`, `/signup/social#ticket=…`, `/login#link_ticket=…` or `/login#error=…`"),
))]
pub async fn callback(
    State(state): State<AccountsState>,
    Path(id): Path<String>,
    Query(params): Query<CallbackParams>,
) -> Response {
    respond(service::oidc_finish(&state, &id, params).await)
}

/// The same, for providers that answer with a form POST (Apple).
#[utoipa::path(post, path = "/api/auth/oidc/{id}/callback", tag = "accounts",
    params(("id" = String, Path)),
    request_body(content = CallbackParams, content_type = "application/x-www-form-urlencoded"),
    responses((status = 302, description = "As the GET callback")))]
pub async fn callback_form(
    State(state): State<AccountsState>,
    Path(id): Path<String>,
    Form(params): Form<CallbackParams>,
) -> Response {
    respond(service::oidc_finish(&state, &id, params).await)
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

/// A 302 for a step of the social log-in, never cached.
fn respond(redirect: OidcRedirect) -> Response {
    match redirect {
        OidcRedirect::Provider(url) => (
            StatusCode::FOUND,
            [
                (header::LOCATION, url),
                (header::CACHE_CONTROL, "no-store".to_owned()),
            ],
        )
            .into_response(),
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
