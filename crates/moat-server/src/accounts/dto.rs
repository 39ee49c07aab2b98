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
    /// Ids of the linked social log-in providers.
    pub providers: Vec<String>,
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
pub struct OidcSignupRequest {
    /// The ticket from `/signup/social#ticket=…`.
    pub ticket: String,
    pub nickname: String,
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

/// A time as the accounts API writes it: RFC 3339, whole seconds, `Z`.
pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}
