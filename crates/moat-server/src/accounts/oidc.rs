//! Social log-in, the protocol side: the configured providers, their discovery, the
//! authorization request (code flow with PKCE S256, `state` and `nonce`) and the code
//! exchange, the ID token's signature checked against the issuer's JWKS (the
//! `openidconnect` crate); the `next` paths and tickets the flow carries. The `naver`
//! preset is not OpenID Connect: its provider speaks Naver Login's OAuth 2.0
//! ([`super::naver`]) behind the same two calls, [`Providers::authorize`] and
//! [`Providers::exchange`]. The flow itself (pending log-ins, tickets, accounts) is in
//! [`super::service`]; its routes in `handlers/oidc.rs`.
//!
//! Discovery is fetched on first use and kept for [`DISCOVERY_TTL`], so start-up needs
//! no network. Pending log-ins live in the database (any instance can finish them),
//! single use, for [`super::OIDC_TTL`]. Results reach the web app in URL fragments
//! (docs/accounts.md, "Routes").

use std::time::{Duration, Instant};

use anyhow::Context;
use moat_storage::PendingLogin;
use openidconnect::{
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata},
    AuthType, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse as _,
};
use rand::RngCore;
use sha2::Digest;

use crate::accounts::{naver, OidcProviderConfig};

/// How long discovery (and with it the JWKS) is kept before it is fetched again.
pub const DISCOVERY_TTL: Duration = Duration::from_secs(60 * 60);
/// Timeout of each request to a provider.
pub const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest `next` path kept.
pub const NEXT_MAX_BYTES: usize = 1024;

/// Issuer and scopes of an OpenID Connect preset (`scopes` besides `openid`; whether
/// the provider answers with a form POST). `naver` is OAuth 2.0: [`super::naver`].
fn preset(name: &str) -> Option<(&'static str, &'static [&'static str], bool)> {
    Some(match name {
        // Kakao Login's OIDC: consent items as scopes.
        "kakao" => (
            "https://kauth.kakao.com",
            &["profile_nickname", "account_email"],
            false,
        ),
        "google" => ("https://accounts.google.com", &["email", "profile"], false),
        // Apple sends the result as a form POST when email or name is asked for.
        "apple" => ("https://appleid.apple.com", &["email"], true),
        _ => return None,
    })
}

/// One configured provider.
pub struct Provider {
    pub id: String,
    pub name: String,
    pub preset: Option<String>,
    client_id: String,
    client_secret: String,
    protocol: Protocol,
}

/// How a provider is spoken to.
enum Protocol {
    /// OpenID Connect, its discovery cached.
    Oidc {
        issuer: String,
        scopes: Vec<String>,
        form_post: bool,
        /// Boxed: the cached document is large.
        metadata: Box<tokio::sync::Mutex<Option<(Instant, CoreProviderMetadata)>>>,
    },
    /// Naver Login's OAuth 2.0 and profile API.
    Naver(naver::Endpoints),
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
                let protocol = if c.is_naver() {
                    Protocol::Naver(naver::Endpoints::with_overrides(
                        &c.authorize_url,
                        &c.token_url,
                        &c.profile_url,
                    ))
                } else {
                    let p = preset(&c.preset);
                    let issuer = if c.issuer.is_empty() {
                        p.map(|p| p.0.to_owned()).unwrap_or_default()
                    } else {
                        c.issuer.clone()
                    };
                    let scopes: Vec<String> = if c.scopes.is_empty() {
                        p.map(|p| p.1.iter().map(|s| s.to_string()).collect())
                            .unwrap_or_else(|| vec!["email".into(), "profile".into()])
                    } else {
                        c.scopes.clone()
                    };
                    Protocol::Oidc {
                        issuer,
                        scopes: scopes.into_iter().filter(|s| s != "openid").collect(),
                        form_post: p.is_some_and(|p| p.2),
                        metadata: Box::new(tokio::sync::Mutex::new(None)),
                    }
                };
                Provider {
                    id: c.id.clone(),
                    name: if c.name.is_empty() {
                        c.id.clone()
                    } else {
                        c.name.clone()
                    },
                    preset: (!c.preset.is_empty()).then(|| c.preset.clone()),
                    client_id: c.client_id.clone(),
                    client_secret: c.client_secret.expose().to_owned(),
                    protocol,
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

    /// An OpenID Connect provider's discovery document, fetched on first use and
    /// cached.
    async fn metadata(
        &self,
        issuer: &str,
        cache: &tokio::sync::Mutex<Option<(Instant, CoreProviderMetadata)>>,
    ) -> anyhow::Result<CoreProviderMetadata> {
        let mut cached = cache.lock().await;
        if let Some((at, m)) = cached.as_ref() {
            if at.elapsed() < DISCOVERY_TTL {
                return Ok(m.clone());
            }
        }
        let issuer_url = IssuerUrl::new(issuer.to_owned()).context("invalid issuer URL")?;
        let m = CoreProviderMetadata::discover_async(issuer_url, &self.http)
            .await
            .with_context(|| format!("OpenID discovery of {issuer} failed"))?;
        *cached = Some((Instant::now(), m.clone()));
        Ok(m)
    }

    /// The provider's authorization URL for a log-in that comes back to
    /// `redirect_uri`, with what finishing it needs. An OpenID Connect provider's
    /// discovery must be reachable.
    pub async fn authorize(
        &self,
        provider: &Provider,
        redirect_uri: &str,
    ) -> anyhow::Result<Authorization> {
        match &provider.protocol {
            Protocol::Oidc {
                issuer, metadata, ..
            } => {
                let metadata = self.metadata(issuer, metadata).await?;
                provider.authorize_oidc(metadata, redirect_uri)
            }
            Protocol::Naver(endpoints) => {
                // `state` alone binds the answer to the pending log-in: Naver has no
                // nonce (no ID token) and documents no PKCE.
                let state = CsrfToken::new_random().secret().clone();
                Ok(Authorization {
                    url: endpoints.authorize(&provider.client_id, redirect_uri, &state)?,
                    state,
                    nonce: String::new(),
                    pkce_verifier: String::new(),
                })
            }
        }
    }

    /// Code → who the person is. OpenID Connect: tokens (with the PKCE verifier) → ID
    /// token checked (signature against the JWKS, issuer, audience, expiry, nonce).
    /// Naver: access token → profile API.
    pub async fn exchange(
        &self,
        provider: &Provider,
        pending: &PendingLogin,
        code: String,
    ) -> anyhow::Result<VerifiedIdentity> {
        let (issuer, cache) = match &provider.protocol {
            Protocol::Oidc {
                issuer, metadata, ..
            } => (issuer, metadata),
            Protocol::Naver(endpoints) => {
                return endpoints
                    .exchange(
                        &self.http,
                        &provider.client_id,
                        &provider.client_secret,
                        &code,
                        &pending.state,
                    )
                    .await;
            }
        };
        let metadata = self.metadata(issuer, cache).await?;
        let client = client(provider, metadata, &pending.redirect_uri)?;
        let response = client
            .exchange_code(AuthorizationCode::new(code))?
            .set_pkce_verifier(PkceCodeVerifier::new(pending.pkce_verifier.clone()))
            .request_async(&self.http)
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
                match request.request_async(&self.http).await {
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
            nickname: claims
                .nickname()
                .and_then(|n| n.get(None))
                .map(|n| n.trim().to_owned())
                .filter(|n| !n.is_empty()),
        })
    }
}

impl Provider {
    /// Whether the provider comes back with a cross-site form POST (Apple).
    pub fn form_post(&self) -> bool {
        matches!(
            self.protocol,
            Protocol::Oidc {
                form_post: true,
                ..
            }
        )
    }

    /// An OpenID Connect authorization request.
    fn authorize_oidc(
        &self,
        metadata: CoreProviderMetadata,
        redirect_uri: &str,
    ) -> anyhow::Result<Authorization> {
        let Protocol::Oidc {
            scopes, form_post, ..
        } = &self.protocol
        else {
            anyhow::bail!("not an OpenID Connect provider");
        };
        let client = client(self, metadata, redirect_uri)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .set_pkce_challenge(challenge);
        for s in scopes {
            request = request.add_scope(Scope::new(s.clone()));
        }
        if *form_post {
            request = request.add_extra_param("response_mode", "form_post");
        }
        let (url, csrf, nonce) = request.url();
        Ok(Authorization {
            url: url.to_string(),
            state: csrf.secret().clone(),
            nonce: nonce.secret().clone(),
            pkce_verifier: verifier.secret().clone(),
        })
    }
}

/// A log-in sent to a provider: where the browser goes, and the secrets kept until it
/// comes back.
pub struct Authorization {
    /// The provider's authorization URL.
    pub url: String,
    /// The `state` parameter (single use, names the pending log-in).
    pub state: String,
    /// Empty for Naver (no ID token).
    pub nonce: String,
    /// Empty for Naver (no PKCE).
    pub pkce_verifier: String,
}

/// Who the provider says the person is: a verified ID token's claims, or Naver's
/// profile.
pub struct VerifiedIdentity {
    /// Stable per provider (and, for Naver, per application).
    pub subject: String,
    /// Only when the provider does not say it is unverified.
    pub email: Option<String>,
    /// The provider's nickname, a suggestion for the sign-up form.
    pub nickname: Option<String>,
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
) -> anyhow::Result<Client> {
    // Client secret in the body when the provider does not take HTTP Basic.
    let basic = metadata
        .token_endpoint_auth_methods_supported()
        .is_none_or(|m| m.iter().any(|a| a.as_ref() == "client_secret_basic"));
    let secret = (!provider.client_secret.is_empty())
        .then(|| ClientSecret::new(provider.client_secret.clone()));
    let redirect = RedirectUrl::new(redirect_uri.to_owned()).context("invalid redirect URI")?;
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
        let Protocol::Oidc { issuer, scopes, .. } = &k.protocol else {
            panic!("kakao is OpenID Connect");
        };
        assert_eq!(issuer, "https://kauth.kakao.com");
        assert_eq!(scopes, &["profile_nickname", "account_email"]);
        assert_eq!(k.name, "kakao");
        let l = p.get("local").unwrap();
        let Protocol::Oidc { scopes, .. } = &l.protocol else {
            panic!("an issuer is OpenID Connect");
        };
        assert_eq!(scopes, &["email"], "openid is always sent, not repeated");
        assert!(p.get("nope").is_none());
    }

    #[test]
    fn the_naver_preset_speaks_oauth2_to_naver_unless_overridden() {
        let p = Providers::new(&[
            OidcProviderConfig {
                id: "naver".into(),
                name: "네이버".into(),
                preset: "naver".into(),
                client_id: "c".into(),
                client_secret: "s".into(),
                ..Default::default()
            },
            OidcProviderConfig {
                id: "naver-local".into(),
                preset: "naver".into(),
                client_id: "c".into(),
                client_secret: "s".into(),
                token_url: "http://127.0.0.1:9/oauth2.0/token".into(),
                ..Default::default()
            },
        ])
        .unwrap();
        let Protocol::Naver(e) = &p.get("naver").unwrap().protocol else {
            panic!("naver is OAuth 2.0");
        };
        assert_eq!(e.authorize_url, "https://nid.naver.com/oauth2.0/authorize");
        assert_eq!(e.token_url, "https://nid.naver.com/oauth2.0/token");
        assert_eq!(e.profile_url, "https://openapi.naver.com/v1/nid/me");
        let Protocol::Naver(e) = &p.get("naver-local").unwrap().protocol else {
            panic!("naver is OAuth 2.0");
        };
        assert_eq!(e.token_url, "http://127.0.0.1:9/oauth2.0/token");
        assert_eq!(e.profile_url, "https://openapi.naver.com/v1/nid/me");
    }
}
