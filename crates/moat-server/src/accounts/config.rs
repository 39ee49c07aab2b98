//! `[accounts]`: tokens, limits and the OpenID Connect providers (docs/accounts.md).

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Secret, Section};

/// `[accounts]` (formerly `[auth]`, still read).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AccountsConfig {
    /// Base64 of at least 32 random bytes signing the tokens. Empty: a key is made on
    /// first start in `<data_dir>/token-key`. Required (the same value everywhere)
    /// when several instances share one PostgreSQL database.
    pub token_key: Secret,
    /// How long a token is valid, in days.
    pub token_lifetime_days: u32,
    /// Tests only: a lifetime in seconds that replaces `token_lifetime_days` when
    /// non-zero.
    pub token_lifetime_secs: u64,
    /// Sign-ups allowed per client IP per hour.
    pub signups_per_ip_per_hour: u32,
    /// Social log-in providers.
    pub oidc: Vec<OidcProviderConfig>,
}

impl Default for AccountsConfig {
    fn default() -> Self {
        Self {
            token_key: Secret::default(),
            token_lifetime_days: 30,
            token_lifetime_secs: 0,
            signups_per_ip_per_hour: 10,
            oidc: Vec::new(),
        }
    }
}

/// One `[[accounts.oidc]]` provider. A `preset` fills `issuer` and `scopes`; the
/// `naver` preset is not OpenID Connect but Naver Login's OAuth 2.0 (authorization
/// code, then the profile API), whose endpoints `authorize_url`, `token_url` and
/// `profile_url` may be overridden (a local test provider).
#[derive(Clone, Serialize, Deserialize, PartialEq, Debug, Default)]
#[serde(default, deny_unknown_fields)]
pub struct OidcProviderConfig {
    /// Short id used in URLs (`/api/auth/oidc/{id}/start`): a-z, 0-9, `-`, `_`.
    pub id: String,
    /// The name shown on the log-in button.
    pub name: String,
    /// The issuer URL (discovery is read from `<issuer>/.well-known/openid-configuration`).
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Secret,
    /// Scopes besides `openid`. Empty: the preset's, or `email profile`.
    pub scopes: Vec<String>,
    /// `kakao`, `naver`, `google`, `apple` or empty.
    pub preset: String,
    /// `naver` only: the authorization endpoint. Empty: Naver's
    /// (`https://nid.naver.com/oauth2.0/authorize`).
    pub authorize_url: String,
    /// `naver` only: the token endpoint. Empty: `https://nid.naver.com/oauth2.0/token`.
    pub token_url: String,
    /// `naver` only: the profile API. Empty: `https://openapi.naver.com/v1/nid/me`.
    pub profile_url: String,
}

impl OidcProviderConfig {
    /// Whether this provider speaks Naver Login's OAuth 2.0 rather than OpenID Connect.
    pub fn is_naver(&self) -> bool {
        self.preset == "naver"
    }
}

/// The presets `[[accounts.oidc]] preset` accepts.
pub const OIDC_PRESETS: [&str; 4] = ["kakao", "naver", "google", "apple"];

impl Section for AccountsConfig {
    const NAME: &'static str = "accounts";
    const LEGACY_NAME: Option<&'static str> = Some("auth");
    const ENV_KEYS: &'static [&'static str] = &[
        "token_key",
        "token_lifetime_days",
        "signups_per_ip_per_hour",
    ];

    fn validate(&self) -> Result<(), ConfigError> {
        if !self.token_key.is_empty() {
            use base64::Engine;
            let ok = base64::engine::general_purpose::STANDARD
                .decode(self.token_key.expose().trim())
                .is_ok_and(|k| k.len() >= 32);
            if !ok {
                return Err(ConfigError::key(
                    "accounts.token_key",
                    "base64 of at least 32 bytes (e.g. `openssl rand -base64 32`)",
                ));
            }
        }
        if self.token_lifetime_days == 0 || self.token_lifetime_days > 3650 {
            return Err(ConfigError::key(
                "accounts.token_lifetime_days",
                "1 to 3650",
            ));
        }
        let mut ids = std::collections::HashSet::new();
        for p in &self.oidc {
            let valid_id = !p.id.is_empty()
                && p.id.len() <= 32
                && p.id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
            if !valid_id {
                return Err(ConfigError::key(
                    "accounts.oidc.id",
                    format!("{:?} must be 1 to 32 of a-z, 0-9, - and _", p.id),
                ));
            }
            if !ids.insert(p.id.clone()) {
                return Err(ConfigError::key(
                    "accounts.oidc.id",
                    format!("{:?} is used twice", p.id),
                ));
            }
            if !(p.preset.is_empty() || OIDC_PRESETS.contains(&p.preset.as_str())) {
                return Err(ConfigError::new(format!(
                    "invalid value for `accounts.oidc.preset` of {:?}: kakao, naver, google, apple or empty",
                    p.id
                )));
            }
            let endpoints = [
                ("authorize_url", &p.authorize_url),
                ("token_url", &p.token_url),
                ("profile_url", &p.profile_url),
            ];
            if p.is_naver() {
                if !p.issuer.is_empty() {
                    return Err(ConfigError::new(format!(
                        "`accounts.oidc` {:?}: Naver Login is OAuth 2.0, not OpenID Connect, so it has no `issuer`; to point it elsewhere set `authorize_url`, `token_url` and `profile_url`",
                        p.id
                    )));
                }
                for (key, url) in endpoints {
                    let http_url = url.starts_with("https://") || url.starts_with("http://");
                    if !(url.is_empty() || http_url && url::Url::parse(url).is_ok()) {
                        return Err(ConfigError::new(format!(
                            "invalid value for `accounts.oidc.{key}` of {:?}: must be an http(s) URL",
                            p.id
                        )));
                    }
                }
                if p.client_secret.is_empty() {
                    return Err(ConfigError::new(format!(
                        "`accounts.oidc` {:?} needs a `client_secret` (Naver's token endpoint requires it)",
                        p.id
                    )));
                }
            } else if let Some((key, _)) = endpoints.iter().find(|(_, url)| !url.is_empty()) {
                return Err(ConfigError::new(format!(
                    "`accounts.oidc.{key}` of {:?} is for the naver preset only: OpenID Connect providers read their endpoints from discovery",
                    p.id
                )));
            }
            if p.issuer.is_empty() && p.preset.is_empty() {
                return Err(ConfigError::new(format!(
                    "`accounts.oidc` {:?} needs an `issuer` or a `preset`",
                    p.id
                )));
            }
            let http_url = p.issuer.starts_with("https://") || p.issuer.starts_with("http://");
            if !(p.issuer.is_empty() || http_url) {
                return Err(ConfigError::new(format!(
                    "invalid value for `accounts.oidc.issuer` of {:?}: must be an http(s) URL",
                    p.id
                )));
            }
            if p.client_id.is_empty() {
                return Err(ConfigError::new(format!(
                    "`accounts.oidc` {:?} needs a `client_id`",
                    p.id
                )));
            }
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[accounts]
# Base64 of at least 32 random bytes signing the log-in tokens (openssl rand -base64 32).
# Empty: a key is made on first start in <data_dir>/token-key (mode 0600). Set the same
# value on every instance when several share one PostgreSQL database.
# Also MOAT_ACCOUNTS_TOKEN_KEY.
token_key = ""
# Days a log-in token stays valid; past half of it, requests get a fresh one.
token_lifetime_days = {lifetime}
# Tests only: a lifetime in seconds replacing token_lifetime_days when not 0.
token_lifetime_secs = 0
# Sign-ups allowed per client IP per hour.
signups_per_ip_per_hour = {signups}

# Social log-in, one block per provider. A preset (kakao, google, apple) fills issuer
# and scopes of an OpenID Connect provider; preset = "naver" is Naver Login's OAuth 2.0
# (no issuer; its endpoints are built in). The redirect URI to register with the
# provider is <public_url>/api/auth/oidc/<id>/callback (docs/accounts.md).
# [[accounts.oidc]]
# id = "google"
# name = "Google"
# preset = "google"
# client_id = "…"
# client_secret = "…"
"#,
            lifetime = self.token_lifetime_days,
            signups = self.signups_per_ip_per_hour,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(provider: OidcProviderConfig) -> Result<(), String> {
        AccountsConfig {
            oidc: vec![provider],
            ..Default::default()
        }
        .validate()
        .map_err(|e| e.to_string())
    }

    fn naver() -> OidcProviderConfig {
        OidcProviderConfig {
            id: "naver".into(),
            name: "네이버".into(),
            preset: "naver".into(),
            client_id: "client".into(),
            client_secret: "secret".into(),
            ..Default::default()
        }
    }

    #[test]
    fn naver_needs_a_secret_and_no_issuer_and_takes_endpoint_urls() {
        assert_eq!(with(naver()), Ok(()));
        assert_eq!(
            with(OidcProviderConfig {
                authorize_url: "http://127.0.0.1:8081/oauth2.0/authorize".into(),
                token_url: "http://127.0.0.1:8081/oauth2.0/token".into(),
                profile_url: "http://127.0.0.1:8081/v1/nid/me".into(),
                ..naver()
            }),
            Ok(())
        );
        let e = with(OidcProviderConfig {
            issuer: "https://nid.naver.com".into(),
            ..naver()
        })
        .unwrap_err();
        assert!(e.contains("OAuth 2.0"), "{e}");
        let e = with(OidcProviderConfig {
            client_secret: "".into(),
            ..naver()
        })
        .unwrap_err();
        assert!(e.contains("client_secret"), "{e}");
        let e = with(OidcProviderConfig {
            token_url: "ftp://x".into(),
            ..naver()
        })
        .unwrap_err();
        assert!(e.contains("accounts.oidc.token_url"), "{e}");
    }

    #[test]
    fn endpoint_urls_are_for_naver_only() {
        let e = with(OidcProviderConfig {
            id: "kakao".into(),
            preset: "kakao".into(),
            client_id: "c".into(),
            profile_url: "https://kapi.kakao.com/v2/user/me".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.contains("accounts.oidc.profile_url"), "{e}");
    }
}
