//! Every request and response type of the accounts API, as the OpenAPI document names
//! them. Times are RFC 3339 strings ([`rfc3339`]).

use chrono::{DateTime, SecondsFormat, Utc};
use moat_storage::Role;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

/// `{email, password, nickname}` of a new account.
#[derive(Deserialize, ToSchema)]
pub struct SignupRequest {
    pub email: String,
    pub password: String,
    pub nickname: String,
    /// The current version of every published document (`GET /api/legal`), accepted.
    #[serde(default)]
    pub consents: Vec<ConsentGiven>,
    /// The language of the verification mail (default `ko`).
    #[serde(default)]
    pub language: MailLanguage,
}

/// A log-in token (spec §3).
#[derive(Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    /// The JWT; send it as `Authorization: Bearer <token>`.
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
    /// From the social log-in redirect: links that identity once the password proves
    /// the account.
    #[serde(default)]
    pub link_ticket: Option<String>,
}

/// A member's role.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum RoleName {
    Member,
    Operator,
}

impl From<Role> for RoleName {
    fn from(r: Role) -> Self {
        match r {
            Role::Member => RoleName::Member,
            Role::Operator => RoleName::Operator,
        }
    }
}

/// The logged-in member's own account.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct Me {
    pub user_id: i64,
    pub chat_user_id: Uuid,
    /// `null` for social-only members whose provider gave none.
    pub email: Option<String>,
    pub nickname: String,
    pub role: RoleName,
    pub premium: bool,
    /// Whether the account has a password (else social log-in only).
    pub has_password: bool,
    /// Whether a link sent to `email` has been opened (always `false` without one).
    pub email_verified: bool,
    /// Ids of the linked social log-in providers.
    pub providers: Vec<String>,
    /// Documents (`terms`, `privacy`) whose current version the member has not accepted
    /// yet: the web app asks before going on.
    pub consent_required: Vec<String>,
    /// RFC 3339.
    pub created_at: String,
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateMeRequest {
    pub nickname: String,
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    /// Required when the account has a password.
    #[serde(default)]
    pub current_password: Option<String>,
    pub new_password: String,
}

/// What anyone may see of a member.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct PublicProfile {
    pub nickname: String,
    /// RFC 3339.
    pub joined_at: String,
}

#[derive(Deserialize, ToSchema)]
pub struct SetPremiumRequest {
    pub premium: bool,
}

#[derive(Deserialize, ToSchema)]
pub struct SetBannedRequest {
    /// `true` bans (every session ends and the member's sockets close on every
    /// instance); `false` lifts the ban.
    pub banned: bool,
}

#[derive(Deserialize, ToSchema)]
pub struct OidcSignupRequest {
    /// The ticket from `/signup/social#ticket=…`.
    pub ticket: String,
    pub nickname: String,
    /// The current version of every published document, accepted.
    #[serde(default)]
    pub consents: Vec<ConsentGiven>,
}

/// A provider as the log-in screen lists it.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ProviderInfo {
    pub id: String,
    pub name: String,
    /// `kakao`, `naver`, `google`, `apple` or `null`.
    pub preset: Option<String>,
}

#[derive(Deserialize, IntoParams)]
pub struct StartQuery {
    /// Where to go after log-in: a same-site path.
    pub next: Option<String>,
    /// `login` (default) or `signup`.
    pub intent: Option<String>,
}

/// The provider's answer (query string, or form body for `form_post`).
#[derive(Deserialize, IntoParams, ToSchema)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// The language of a mail's text.
#[derive(Deserialize, ToSchema, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[serde(rename_all = "lowercase")]
pub enum MailLanguage {
    #[default]
    Ko,
    En,
}

/// Whether "forgot password" can send a link (`[mail]` is configured); when not,
/// members ask the operator (`moat admin set-password`).
#[derive(Serialize, Deserialize, ToSchema)]
pub struct PasswordResetAvailability {
    pub available: bool,
}

/// "Send me a reset link."
#[derive(Deserialize, ToSchema)]
pub struct PasswordResetRequest {
    pub email: String,
    /// The language of the mail (default `ko`).
    #[serde(default)]
    pub language: MailLanguage,
}

/// A new password set from the link of a reset mail.
#[derive(Deserialize, ToSchema)]
pub struct PasswordResetConfirm {
    /// The token of the link (`/reset-password#token=…`).
    pub token: String,
    pub new_password: String,
}

/// "Send the verification link again."
#[derive(Deserialize, ToSchema, Default)]
pub struct EmailVerificationRequest {
    /// The language of the mail (default `ko`).
    #[serde(default)]
    pub language: MailLanguage,
}

/// The token of a verification link (`/verify-email#token=…`).
#[derive(Deserialize, ToSchema)]
pub struct EmailVerificationConfirm {
    pub token: String,
}

/// One version of the terms (`terms`) or the privacy policy (`privacy`).
#[derive(Serialize, Deserialize, ToSchema)]
pub struct LegalDocumentInfo {
    pub kind: String,
    pub version: i64,
    /// The text (plain, paragraphs separated by blank lines).
    pub body: String,
    /// RFC 3339.
    pub published_at: String,
}

/// The acceptance of one version of one document.
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
pub struct ConsentGiven {
    /// `terms` or `privacy`.
    pub kind: String,
    pub version: i64,
}

#[derive(Deserialize, ToSchema)]
pub struct AcceptConsentsRequest {
    pub consents: Vec<ConsentGiven>,
}

/// A new version of a document, published by an operator.
#[derive(Deserialize, ToSchema)]
pub struct PublishLegalRequest {
    pub body: String,
}

/// A time as the accounts API writes it: RFC 3339, whole seconds, `Z`.
pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}
