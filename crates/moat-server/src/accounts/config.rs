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

/// One `[[accounts.oidc]]` provider. A `preset` fills `issuer` and `scopes`.
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

# Social log-in over OpenID Connect, one block per provider. A preset (kakao, naver,
# google, apple) fills issuer and scopes. The redirect URI to register with the
# provider is <public_url>/api/auth/oidc/<id>/callback.
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
