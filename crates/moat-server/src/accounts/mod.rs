//! Accounts and identity (docs/accounts.md): password and OpenID Connect log-in,
//! tokens and their sessions, the extractors that enforce who may call what, profiles,
//! roles and account deletion.
//!
//! The area's shape: [`routes()`] (every route of the area), `handlers/` (one file per
//! resource, thin), [`dto`] (every request and response type), [`service`] (the
//! application logic, no axum and no SQL), and its own parts:
//!
//! - [`token`]: the HS256 token and its key
//! - [`password`]: Argon2id hashing and password rules; [`validate`]: email, nickname
//! - [`extract`]: `Member`, `Operator`, `ClientIp`: the one place authorization happens
//! - [`oidc`]: the social log-in providers (discovery, authorization, code exchange);
//!   [`naver`]: Naver Login, OAuth 2.0 and its profile API rather than OpenID Connect
//! - [`topics`]: the private `member:{id}:…` topics of the live stream
//! - [`rate_limit`]: the log-in back-off and sign-up limits behind the
//!   [`rate_limit::Limiter`] trait, and the mail limits
//! - `service::mail`, `mail_texts`: password reset and email verification by e-mail

mod config;
pub mod dto;
pub mod extract;
mod handlers;
mod mail_texts;
mod member_data;
pub mod naver;
pub mod oidc;
mod pages;
pub mod password;
pub mod rate_limit;
pub mod service;
pub mod token;
pub mod topics;
pub mod validate;

use std::{path::Path, sync::Arc, time::Duration};

use axum::extract::FromRef;
use moat_storage::{AccountsStorage, Session, Storage, User};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{
    clock::{Clock, SystemClock},
    AppState,
};
use handlers::{auth, me, users};

pub use config::{AccountsConfig, OidcProviderConfig, OIDC_PRESETS};
pub use member_data::AccountsExport;
pub use pages::{MEMBER_PROFILE, PAGES};

/// Pending social log-ins and tickets live this long.
pub const OIDC_TTL: Duration = Duration::from_secs(10 * 60);
/// A social-only member may delete the account with a session this young.
pub const RECENT_LOGIN: Duration = Duration::from_secs(10 * 60);
/// A link sent by e-mail (password reset, email verification) works this long, once.
pub const MAIL_LINK_TTL: Duration = Duration::from_secs(30 * 60);
/// The response header carrying a renewed token.
pub const RENEWED_TOKEN_HEADER: &str = "x-moat-token";

/// What the accounts handlers reach: the area's storage, the token and password
/// machinery, the hub (to close a member's sockets) and the configuration.
#[derive(Clone)]
pub struct AccountsState {
    pub storage: Arc<dyn AccountsStorage>,
    pub auth: Arc<Auth>,
    pub hub: Arc<crate::hub::Hub>,
    pub config: Arc<crate::Config>,
    /// Where the links of password resets and verifications go; `None` without
    /// `[mail]`.
    pub mailer: Option<Arc<dyn crate::mail::Mailer>>,
    pub mail_limits: Arc<MailLimits>,
}

/// The limits of mail requests (see [`rate_limit::MAIL_WINDOW`]), shared by every
/// instance through the database.
pub struct MailLimits {
    /// "Send me a reset link" per client IP.
    pub reset_per_ip: Box<dyn rate_limit::WindowLimit>,
    /// Mails per address (reset) or member (verification).
    pub per_address: Box<dyn rate_limit::WindowLimit>,
}

impl AccountsState {
    /// Loads (or makes) the token key, sets up the providers and registers the
    /// private `member:{id}:account` topics on the hub; no network.
    pub fn start(
        config: &Arc<crate::Config>,
        storage: Arc<dyn Storage>,
        hub: &Arc<crate::hub::Hub>,
        clock: Arc<dyn Clock>,
    ) -> anyhow::Result<Self> {
        let mut auth = Auth::with_clock(&config.accounts, &config.data_dir, clock.clone())?;
        // The limits every instance shares, in the database.
        auth.limiter = Arc::new(rate_limit::DbLimiter::new(
            storage.clone(),
            config.accounts.signups_per_ip_per_hour,
            clock.clone(),
        ));
        topics::register(hub);
        let mailer = crate::mail::SmtpMailer::from_config(&config.mail)?
            .map(|m| Arc::new(m) as Arc<dyn crate::mail::Mailer>);
        let window = |name, limit| -> Box<dyn rate_limit::WindowLimit> {
            Box::new(rate_limit::DbWindowLimiter::new(
                storage.clone(),
                name,
                limit,
                rate_limit::MAIL_WINDOW,
                clock.clone(),
            ))
        };
        let mail_limits = Arc::new(MailLimits {
            reset_per_ip: window("mail-reset-ip", rate_limit::RESET_REQUESTS_PER_IP),
            per_address: window("mail-to", rate_limit::MAILS_PER_ADDRESS),
        });
        Ok(Self {
            storage,
            auth: Arc::new(auth),
            hub: hub.clone(),
            config: config.clone(),
            mailer,
            mail_limits,
        })
    }
}

impl FromRef<AppState> for AccountsState {
    fn from_ref(state: &AppState) -> Self {
        state.accounts.clone()
    }
}

/// Every route of the accounts area, documented (the account's export and deletion,
/// `GET /api/me/export` and `DELETE /api/me`, are every area's: `crate::member_data`).
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(auth::signup))
        .routes(routes!(auth::login))
        .routes(routes!(auth::logout))
        .routes(routes!(me::get_me, me::update_me))
        .routes(routes!(me::change_password))
        .routes(routes!(users::get_user))
        .routes(routes!(users::set_premium))
        .routes(routes!(users::set_banned))
        .routes(routes!(handlers::oidc::list_providers))
        .routes(routes!(handlers::oidc::start))
        .routes(routes!(
            handlers::oidc::callback,
            handlers::oidc::callback_form
        ))
        .routes(routes!(handlers::oidc::oidc_signup))
        .routes(routes!(
            handlers::mail::password_reset_availability,
            handlers::mail::request_password_reset
        ))
        .routes(routes!(handlers::mail::reset_password))
        .routes(routes!(handlers::mail::request_verification))
        .routes(routes!(handlers::mail::confirm_verification))
        .routes(routes!(handlers::legal::list_legal))
        .routes(routes!(handlers::legal::publish_legal))
        .routes(routes!(handlers::legal::accept_consents))
}

/// Everything the auth handlers share, built once at start.
pub struct Auth {
    pub keys: token::TokenKeys,
    pub passwords: password::Passwords,
    /// The log-in back-off and sign-up limits: in memory from [`Auth::new`], shared
    /// through the database ([`rate_limit::DbLimiter`]) in a running server.
    pub limiter: Arc<dyn rate_limit::Limiter>,
    pub oidc: oidc::Providers,
    /// Token lifetime in seconds.
    pub lifetime_secs: i64,
    /// Where the log-in limits, tokens, sessions and tickets read the time.
    pub clock: Arc<dyn Clock>,
}

impl Auth {
    /// Loads (or makes) the signing key and sets up the providers; no network.
    pub fn new(config: &AccountsConfig, data_dir: &Path) -> anyhow::Result<Self> {
        Self::with_clock(config, data_dir, Arc::new(SystemClock))
    }

    /// [`Auth::new`], with the limits, tokens, sessions and tickets reading time from
    /// `clock`.
    pub fn with_clock(
        config: &AccountsConfig,
        data_dir: &Path,
        clock: Arc<dyn Clock>,
    ) -> anyhow::Result<Self> {
        let key = token::load_key(config.token_key.expose(), data_dir)?;
        let lifetime_secs = if config.token_lifetime_secs > 0 {
            config.token_lifetime_secs as i64
        } else {
            i64::from(config.token_lifetime_days) * 24 * 60 * 60
        };
        Ok(Self {
            keys: token::TokenKeys::from_secret(&key),
            passwords: password::Passwords::default(),
            limiter: Arc::new(rate_limit::MemoryLimiter::new(
                config.signups_per_ip_per_hour,
                clock.clone(),
            )),
            oidc: oidc::Providers::new(&config.oidc)?,
            lifetime_secs,
            clock,
        })
    }

    /// Now, in Unix seconds, by this `Auth`'s clock.
    pub fn now(&self) -> i64 {
        self.clock.unix_secs()
    }

    /// Now, as a date-time, by this `Auth`'s clock.
    pub fn now_utc(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now_utc()
    }

    /// Opens a session for `user` and signs its token.
    pub async fn issue(
        &self,
        storage: &dyn AccountsStorage,
        user: &User,
    ) -> anyhow::Result<String> {
        let now = self.now();
        let session = Session {
            jti: Uuid::new_v4().to_string(),
            user_id: user.id,
            issued_at: now,
            expires_at: now + self.lifetime_secs,
            revoked_at: None,
        };
        storage.insert_session(&session).await?;
        self.keys.sign(&token::Claims {
            exp: session.expires_at,
            iat: session.issued_at,
            jti: session.jti,
            data: token::TokenData {
                user_id: user.id,
                nickname: user.nickname.clone().unwrap_or_default(),
                chat_user_id: user.chat_user_id,
            },
        })
    }
}
