//! Social log-in over OpenID Connect: authorization code flow with PKCE (S256),
//! `state` and `nonce`, the ID token's signature checked against the issuer's JWKS
//! (the `openidconnect` crate).
//!
//! Discovery is fetched on first use and kept for [`DISCOVERY_TTL`], so start-up needs
//! no network. Pending log-ins live in the database (any instance can finish them),
//! single use, for [`super::OIDC_TTL`]. Results reach the web app in URL fragments
//! (docs/accounts.md, "Routes").

use std::time::{Duration, Instant};

use anyhow::Context;
use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    Form,
};
use moat_storage::{PendingLogin, Ticket, TicketKind};
use openidconnect::{
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata},
    url::form_urlencoded,
    AuthType, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse as _,
};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::Digest;
use utoipa::{IntoParams, ToSchema};

use super::{routes::account_banned, OIDC_TTL};
use crate::{
    accounts::AccountsState,
    accounts::OidcProviderConfig,
    http::{error::ApiError, json::ApiJson, pages::Origin},
};

/// How long discovery (and with it the JWKS) is kept before it is fetched again.
pub const DISCOVERY_TTL: Duration = Duration::from_secs(60 * 60);
/// Timeout of each request to a provider.
pub const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest `next` path kept.
pub const NEXT_MAX_BYTES: usize = 1024;

/// Issuer and scopes of a preset (`scopes` besides `openid`; whether the provider
/// answers with a form POST).
fn preset(name: &str) -> Option<(&'static str, &'static [&'static str], bool)> {
    Some(match name {
        // Kakao Login's OIDC: consent items as scopes.
        "kakao" => (
            "https://kauth.kakao.com",
            &["profile_nickname", "account_email"],
            false,
        ),
        "naver" => ("https://nid.naver.com", &["email"], false),
        "google" => ("https://accounts.google.com", &["email", "profile"], false),
        // Apple sends the result as a form POST when email or name is asked for.
        "apple" => ("https://appleid.apple.com", &["email"], true),
        _ => return None,
    })
}

/// One configured provider, its discovery cached.
pub struct Provider {
    pub id: String,
    pub name: String,
    pub preset: Option<String>,
    issuer: String,
    client_id: String,
    client_secret: String,
    scopes: Vec<String>,
    form_post: bool,
    metadata: tokio::sync::Mutex<Option<(Instant, CoreProviderMetadata)>>,
}

/// Every configured provider and the HTTP client that talks to them.
pub struct Providers {
    list: Vec<Provider>,
    http: openidconnect::reqwest::Client,
}

impl Providers {
    pub fn new(config: &[OidcProviderConfig]) -> anyhow::Result<Self> {
        let http = openidconnect::reqwest::ClientBuilder::new()
            // Following redirects would open the client to SSRF.
            .redirect(openidconnect::reqwest::redirect::Policy::none())
            .timeout(PROVIDER_TIMEOUT)
            .build()
            .context("cannot build the OpenID Connect HTTP client")?;
        let list = config
            .iter()
            .map(|c| {
                let p = preset(&c.preset);
                let issuer = if c.issuer.is_empty() {
                    p.map(|p| p.0.to_owned()).unwrap_or_default()
                } else {
                    c.issuer.clone()
                };
                let scopes = if c.scopes.is_empty() {
                    p.map(|p| p.1.iter().map(|s| s.to_string()).collect())
                        .unwrap_or_else(|| vec!["email".into(), "profile".into()])
                } else {
                    c.scopes.clone()
                };
                Provider {
                    id: c.id.clone(),
                    name: if c.name.is_empty() {
                        c.id.clone()
                    } else {
                        c.name.clone()
                    },
                    preset: (!c.preset.is_empty()).then(|| c.preset.clone()),
                    issuer,
                    client_id: c.client_id.clone(),
                    client_secret: c.client_secret.expose().to_owned(),
                    scopes: scopes.into_iter().filter(|s| s != "openid").collect(),
                    form_post: p.is_some_and(|p| p.2),
                    metadata: tokio::sync::Mutex::new(None),
                }
            })
            .collect();
        Ok(Self { list, http })
    }

    pub fn get(&self, id: &str) -> Option<&Provider> {
        self.list.iter().find(|p| p.id == id)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Provider> {
        self.list.iter()
    }

    /// The provider's discovery document, fetched on first use and cached.
    async fn metadata(&self, p: &Provider) -> anyhow::Result<CoreProviderMetadata> {
        let mut cached = p.metadata.lock().await;
        if let Some((at, m)) = cached.as_ref() {
            if at.elapsed() < DISCOVERY_TTL {
                return Ok(m.clone());
            }
        }
        let issuer = IssuerUrl::new(p.issuer.clone()).context("invalid issuer URL")?;
        let m = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .with_context(|| format!("OpenID discovery of {} failed", p.issuer))?;
        *cached = Some((Instant::now(), m.clone()));
        Ok(m)
    }
}

/// A provider as the log-in screen lists it.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ProviderInfo {
    pub id: String,
    pub name: String,
    /// `kakao`, `naver`, `google`, `apple` or `null`.
    pub preset: Option<String>,
}

/// `next` as a path of this site, normalised as a browser would resolve it (dot
/// segments, `%2e` among them, removed); anything else becomes `/`.
///
/// Refused: more than [`NEXT_MAX_BYTES`], control characters or backslashes anywhere,
/// and any value whose resolved path, or that path decoded once (`%2f` → `/`,
/// `%5c` → `\`) and resolved again, does not start with one `/` followed by something
/// other than `/` or `\`: such a value could become protocol-relative (`//host`) on
/// its way to a `Location` header or the router. The web app's `safeNext`
/// (web/src/shared/auth/next.ts) applies the same rule.
pub fn sanitize_next(next: Option<&str>) -> String {
    next.and_then(same_site_path)
        .unwrap_or_else(|| "/".to_owned())
}

fn same_site_path(raw: &str) -> Option<String> {
    let unsafe_char = |c: char| c.is_control() || c == '\\';
    if raw.len() > NEXT_MAX_BYTES || !one_leading_slash(raw) || raw.contains(unsafe_char) {
        return None;
    }
    let base = url::Url::parse("https://moat.invalid/").ok()?;
    let resolved = base.join(raw).ok()?;
    if resolved.origin() != base.origin() || !one_leading_slash(resolved.path()) {
        return None;
    }
    let decoded = percent_decode_strict(resolved.path())?;
    if decoded.contains(unsafe_char) {
        return None;
    }
    let again = base.join(&decoded).ok()?;
    if again.origin() != base.origin() || !one_leading_slash(again.path()) {
        return None;
    }
    let mut out = resolved.path().to_owned();
    if let Some(query) = resolved.query() {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = resolved.fragment() {
        out.push('#');
        out.push_str(fragment);
    }
    Some(out)
}

/// `/` followed by anything but `/` or `\` (or by nothing).
fn one_leading_slash(path: &str) -> bool {
    let b = path.as_bytes();
    b.first() == Some(&b'/') && !matches!(b.get(1), Some(b'/' | b'\\'))
}

/// `%XX` escapes decoded once, as JavaScript's `decodeURIComponent` does; `None` for a
/// broken escape or bytes that are not UTF-8.
fn percent_decode_strict(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A random URL-safe ticket (256 bits).
pub fn new_ticket() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a ticket: hex SHA-256.
pub fn hash_ticket(ticket: &str) -> String {
    sha2::Sha256::digest(ticket.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A 302 to a web-app path with a fragment (never logged nor sent as `Referer`).
fn redirect_fragment(path: &str, pairs: &[(&str, &str)]) -> Response {
    let mut fragment = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        fragment.append_pair(k, v);
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

fn fail(code: &str) -> Response {
    redirect_fragment("/login", &[("error", code)])
}

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

#[derive(Deserialize, IntoParams)]
pub struct StartQuery {
    /// Where to go after log-in: a same-site path.
    next: Option<String>,
    /// `login` (default) or `signup`.
    intent: Option<String>,
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
    let providers = &state.auth.oidc;
    let provider = providers
        .get(&id)
        .ok_or_else(|| ApiError::not_found("There is no such log-in provider."))?;
    let origin = Origin::from_request(&state.config.public_url, &headers);
    let redirect_uri = format!("{}/api/auth/oidc/{}/callback", origin.0, provider.id);
    let metadata = match providers.metadata(provider).await {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(provider = ?provider.id, error = format!("{e:#}"), "social log-in unavailable");
            return Ok(fail("oidc_failed"));
        }
    };
    let client = client(provider, metadata, &redirect_uri)?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let mut request = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .set_pkce_challenge(challenge);
    for s in &provider.scopes {
        request = request.add_scope(Scope::new(s.clone()));
    }
    if provider.form_post {
        request = request.add_extra_param("response_mode", "form_post");
    }
    let (url, csrf, nonce) = request.url();
    let intent = match q.intent.as_deref() {
        Some("signup") => "signup",
        _ => "login",
    };
    state
        .storage
        .insert_pending_login(&PendingLogin {
            state: csrf.secret().clone(),
            provider: provider.id.clone(),
            nonce: nonce.secret().clone(),
            pkce_verifier: verifier.secret().clone(),
            redirect_uri,
            next_path: sanitize_next(q.next.as_deref()),
            intent: intent.into(),
            expires_at: state.auth.now() + OIDC_TTL.as_secs() as i64,
        })
        .await?;
    Ok((
        StatusCode::FOUND,
        [
            (header::LOCATION, url.to_string()),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
    )
        .into_response())
}

type Client = openidconnect::Client<
    openidconnect::EmptyAdditionalClaims,
    openidconnect::core::CoreAuthDisplay,
    openidconnect::core::CoreGenderClaim,
    openidconnect::core::CoreJweContentEncryptionAlgorithm,
    openidconnect::core::CoreJsonWebKey,
    openidconnect::core::CoreAuthPrompt,
    openidconnect::StandardErrorResponse<openidconnect::core::CoreErrorResponseType>,
    openidconnect::core::CoreTokenResponse,
    openidconnect::core::CoreTokenIntrospectionResponse,
    openidconnect::core::CoreRevocableToken,
    openidconnect::core::CoreRevocationErrorResponse,
    openidconnect::EndpointSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointNotSet,
    openidconnect::EndpointMaybeSet,
    openidconnect::EndpointMaybeSet,
>;

fn client(
    provider: &Provider,
    metadata: CoreProviderMetadata,
    redirect_uri: &str,
) -> Result<Client, ApiError> {
    // Client secret in the body when the provider does not take HTTP Basic.
    let basic = metadata
        .token_endpoint_auth_methods_supported()
        .is_none_or(|m| m.iter().any(|a| a.as_ref() == "client_secret_basic"));
    let secret = (!provider.client_secret.is_empty())
        .then(|| ClientSecret::new(provider.client_secret.clone()));
    let redirect = RedirectUrl::new(redirect_uri.to_owned()).map_err(ApiError::internal)?;
    Ok(CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(provider.client_id.clone()),
        secret,
    )
    .set_redirect_uri(redirect)
    .set_auth_type(if basic {
        AuthType::BasicAuth
    } else {
        AuthType::RequestBody
    }))
}

/// The provider's answer (query string, or form body for `form_post`).
#[derive(Deserialize, IntoParams, ToSchema)]
pub struct CallbackParams {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
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
    finish(&state, &id, params).await
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
    finish(&state, &id, params).await
}

/// What a verified ID token says about the person.
pub struct VerifiedIdentity {
    pub subject: String,
    /// Only when the provider does not say it is unverified.
    pub email: Option<String>,
}

async fn finish(state: &AccountsState, id: &str, params: CallbackParams) -> Response {
    match finish_inner(state, id, params).await {
        Ok(r) => r,
        Err(e) => {
            // `id` comes from the path: a field, Debug-formatted, so a line break in it
            // is written escaped and cannot start a forged log line.
            tracing::warn!(provider = ?id, error = format!("{e:#}"), "social log-in failed");
            fail("oidc_failed")
        }
    }
}

async fn finish_inner(
    state: &AccountsState,
    id: &str,
    params: CallbackParams,
) -> anyhow::Result<Response> {
    // `state` first: it is single use even when the provider reports an error.
    let pending = match params.state.as_deref() {
        Some(s) if !s.is_empty() && s.len() <= 512 => {
            state
                .storage
                .take_pending_login(s, state.auth.now())
                .await?
        }
        _ => None,
    };
    if let Some(error) = params.error.as_deref() {
        let code = if error == "access_denied" {
            "oidc_cancelled"
        } else {
            "oidc_failed"
        };
        return Ok(fail(code));
    }
    let pending = pending
        .filter(|p| p.provider == id)
        .context("unknown, used, expired or foreign state")?;
    let code = params.code.filter(|c| !c.is_empty()).context("no code")?;
    let provider = state
        .auth
        .oidc
        .get(id)
        .context("provider no longer configured")?;
    let identity = exchange(state, provider, &pending, code).await?;
    complete(state, provider, &pending.next_path, identity).await
}

/// Code → tokens (with the PKCE verifier) → ID token checked (signature against the
/// JWKS, issuer, audience, expiry, nonce).
async fn exchange(
    state: &AccountsState,
    provider: &Provider,
    pending: &PendingLogin,
    code: String,
) -> anyhow::Result<VerifiedIdentity> {
    let providers = &state.auth.oidc;
    let metadata = providers.metadata(provider).await?;
    let client = client(provider, metadata, &pending.redirect_uri)
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    let response = client
        .exchange_code(AuthorizationCode::new(code))?
        .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier.clone()))
        .request_async(&providers.http)
        .await
        .context("token request failed")?;
    let id_token = response.id_token().context("no ID token")?;
    let claims = id_token
        .claims(
            &client.id_token_verifier(),
            &Nonce::new(pending.nonce.clone()),
        )
        .context("ID token rejected")?;
    let mut email = usable_email(claims.email(), claims.email_verified());
    // In the code flow many providers put profile claims only in the UserInfo answer
    // (OpenID Connect Core §5.4); ask it, bound to the ID token's subject.
    if email.is_none() {
        if let Ok(request) = client.user_info(
            openidconnect::OAuth2TokenResponse::access_token(&response).clone(),
            Some(claims.subject().clone()),
        ) {
            match request.request_async(&providers.http).await {
                Ok(info) => {
                    let info: openidconnect::core::CoreUserInfoClaims = info;
                    email = usable_email(info.email(), info.email_verified());
                }
                Err(e) => {
                    tracing::info!(provider = ?provider.id, error = format!("{e:#}"), "UserInfo request failed; continuing without an email")
                }
            }
        }
    }
    Ok(VerifiedIdentity {
        subject: claims.subject().to_string(),
        email,
    })
}

/// A provider's email, when it is not marked unverified and is a valid address.
fn usable_email(
    email: Option<&openidconnect::EndUserEmail>,
    verified: Option<bool>,
) -> Option<String> {
    email
        .filter(|_| verified != Some(false))
        .map(|e| super::validate::normalize_email(e))
        .filter(|e| super::validate::check_email(e).is_none())
}

/// Known identity → log in; unknown identity with a member's email → link ticket;
/// else → sign-up ticket.
pub async fn complete(
    state: &AccountsState,
    provider: &Provider,
    next: &str,
    identity: VerifiedIdentity,
) -> anyhow::Result<Response> {
    let storage = state.storage.as_ref();
    if let Some(user) = storage
        .user_by_identity(&provider.id, &identity.subject)
        .await?
    {
        if user.banned_at.is_some() || user.deleted_at.is_some() {
            let _ = account_banned();
            return Ok(fail("account_banned"));
        }
        let token = state.auth.issue(storage, &user).await?;
        return Ok(redirect_fragment(
            "/auth/complete",
            &[("token", &token), ("next", next)],
        ));
    }
    let existing = match identity.email.as_deref() {
        Some(e) => storage.user_by_email(e).await?,
        None => None,
    };
    let ticket = new_ticket();
    let kind = if existing.is_some() {
        TicketKind::Link
    } else {
        TicketKind::Signup
    };
    storage
        .insert_ticket(&Ticket {
            ticket_hash: hash_ticket(&ticket),
            kind,
            provider: provider.id.clone(),
            subject: identity.subject,
            email: identity.email.clone(),
            next_path: next.to_owned(),
            expires_at: state.auth.now() + OIDC_TTL.as_secs() as i64,
        })
        .await?;
    let email = identity.email.unwrap_or_default();
    Ok(match kind {
        TicketKind::Link => redirect_fragment(
            "/login",
            &[
                ("link_ticket", &ticket),
                ("email", &email),
                ("provider", &provider.id),
            ],
        ),
        TicketKind::Signup => redirect_fragment(
            "/signup/social",
            &[("ticket", &ticket), ("next", next), ("email", &email)],
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_is_kept_only_as_a_same_site_path() {
        let cases: &[(&str, &str)] = &[
            ("/portfolio?x=1#y", "/portfolio?x=1#y"),
            ("/", "/"),
            ("/settings/account", "/settings/account"),
            ("/stocks/KRX%3A005930", "/stocks/KRX%3A005930"),
            ("/u/%EA%B0%9C%EB%AF%B8", "/u/%EA%B0%9C%EB%AF%B8"),
            ("/./settings", "/settings"),
            ("/a/../settings", "/settings"),
            ("/%2e%2e/%2E%2e/settings", "/settings"),
            ("/x?next=//evil.example", "/x?next=//evil.example"),
            ("/x#//evil.example", "/x#//evil.example"),
            ("/%252f%252fevil.example", "/%252f%252fevil.example"),
            ("/javascript:alert(1)", "/javascript:alert(1)"),
            // Protocol-relative once resolved or decoded.
            ("/.//evil.example", "/"),
            ("/x/..//evil.example", "/"),
            ("/%2e%2e//evil.example", "/"),
            ("/%2E%2E//evil.example", "/"),
            ("/.%2e//evil.example", "/"),
            ("/a/b/../../..//evil.example", "/"),
            ("/%2f/evil.example", "/"),
            ("/%2F%2Fevil.example", "/"),
            ("/x/..%2f%2fevil.example", "/"),
            ("/%5cevil.example", "/"),
            ("/%5C%5Cevil.example", "/"),
            ("//evil.example", "/"),
            ("///evil.example", "/"),
            ("/\\evil.example", "/"),
            ("/x\\y", "/"),
            ("\\\\evil.example", "/"),
            // Control characters, raw or encoded.
            ("/a\nb", "/"),
            ("/\t/evil.example", "/"),
            ("/x\r\nSet-Cookie: a=b", "/"),
            ("/a%0Ab", "/"),
            ("/a%09b", "/"),
            ("/%zz", "/"),
            ("/%ff", "/"),
            // Not a path.
            ("https://evil.example", "/"),
            ("http:/evil.example", "/"),
            ("javascript:alert(1)", "/"),
            ("evil", "/"),
            (" /x", "/"),
            ("", "/"),
        ];
        for (raw, expected) in cases {
            assert_eq!(sanitize_next(Some(raw)), *expected, "{raw:?}");
        }
        assert_eq!(sanitize_next(None), "/");
        assert_eq!(sanitize_next(Some(&format!("/{}", "a".repeat(2000)))), "/");
    }

    #[test]
    fn tickets_are_random_and_stored_hashed() {
        let a = new_ticket();
        assert_eq!(a.len(), 64);
        assert_ne!(a, new_ticket());
        assert_eq!(hash_ticket(&a), hash_ticket(&a));
        assert_ne!(hash_ticket(&a), a);
    }

    #[test]
    fn presets_fill_issuer_and_scopes() {
        let p = Providers::new(&[
            OidcProviderConfig {
                id: "kakao".into(),
                preset: "kakao".into(),
                client_id: "c".into(),
                ..Default::default()
            },
            OidcProviderConfig {
                id: "local".into(),
                issuer: "http://127.0.0.1:9999".into(),
                client_id: "c".into(),
                scopes: vec!["openid".into(), "email".into()],
                ..Default::default()
            },
        ])
        .unwrap();
        let k = p.get("kakao").unwrap();
        assert_eq!(k.issuer, "https://kauth.kakao.com");
        assert_eq!(k.scopes, ["profile_nickname", "account_email"]);
        assert_eq!(k.name, "kakao");
        let l = p.get("local").unwrap();
        assert_eq!(l.scopes, ["email"], "openid is always sent, not repeated");
        assert!(p.get("nope").is_none());
    }

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
