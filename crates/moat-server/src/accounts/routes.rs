//! The account handlers and their DTOs: `/api/auth/*` (sign-up, log-in, log-out,
//! social sign-up), `/api/me*`, `/api/users/{nickname}`, `/api/admin/users/*`.

use std::collections::BTreeMap;

use axum::{
    extract::{Path, State},
    http::StatusCode,
};
use chrono::{DateTime, SecondsFormat, Utc};
use moat_storage::{NewIdentity, NewUser, Role, StorageError, TicketKind, User};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{
    extract::{ClientIp, Member, Operator},
    oidc::hash_ticket,
    password::check_password,
    rate_limit::{login_keys, LoginPermit, Outcome, SignupPermit},
    validate::{check_email, check_nickname, fold_nickname, normalize_email},
};
use crate::{
    accounts::AccountsState,
    http::{
        error::{ApiError, ErrorBody, ErrorCode, FieldError},
        json::ApiJson,
    },
};

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

pub(super) fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn invalid_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        ErrorCode::InvalidCredentials,
        "The email or password is not right.",
    )
}

/// `409 email_taken`: an account with this email exists.
pub(crate) fn email_taken() -> ApiError {
    ApiError::taken(
        "email",
        FieldError::new(
            ErrorCode::EmailTaken,
            "An account with this email exists already.",
        ),
    )
}

/// `409 nickname_taken`.
pub(crate) fn nickname_taken() -> ApiError {
    ApiError::taken(
        "nickname",
        FieldError::new(ErrorCode::NicknameTaken, "This nickname is taken."),
    )
}

/// Accounts' answer to a unique value storage found taken: the email, the nickname
/// or a social identity.
pub(crate) fn conflict(e: StorageError) -> ApiError {
    match e {
        StorageError::Conflict("email") => email_taken(),
        StorageError::Conflict("nickname") => nickname_taken(),
        StorageError::Conflict("identity") => ApiError::taken(
            "identity",
            FieldError::new(
                ErrorCode::IdentityTaken,
                "This social account is linked to another member.",
            ),
        ),
        other => other.into(),
    }
}

pub(crate) fn account_banned() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::AccountBanned,
        "This account has been suspended by an operator.",
    )
}

/// `Me` of a member, with the linked providers.
pub(crate) async fn me_of(state: &AccountsState, user: &User) -> Result<Me, ApiError> {
    let identities = state.storage.identities_of(user.id).await?;
    Ok(Me {
        user_id: user.id,
        chat_user_id: user.chat_user_id,
        email: user.email.clone(),
        nickname: user.nickname.clone().unwrap_or_default(),
        role: user.role.into(),
        premium: user.premium,
        has_password: user.password_hash.is_some(),
        providers: identities.into_iter().map(|i| i.provider).collect(),
        created_at: rfc3339(user.created_at),
    })
}

async fn issue(state: &AccountsState, user: &User) -> Result<String, ApiError> {
    state
        .auth
        .issue(state.storage.as_ref(), user)
        .await
        .map_err(ApiError::internal)
}

/// Creates an account with email and password; the first account of an install is
/// the operator.
#[utoipa::path(post, path = "/api/auth/signup", tag = "accounts", request_body = SignupRequest, responses(
    (status = 201, body = TokenResponse),
    (status = 409, description = "`email_taken` or `nickname_taken`", body = ErrorBody),
    (status = 422, description = "`invalid_input`, `fields` names each bad field", body = ErrorBody),
    (status = 429, description = "`rate_limited`", body = ErrorBody),
))]
pub async fn signup(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<SignupRequest>,
) -> Result<(StatusCode, ApiJson<TokenResponse>), ApiError> {
    let email = normalize_email(&body.email);
    let mut fields = BTreeMap::new();
    if let Some(m) = check_email(&email) {
        fields.insert("email".to_owned(), m);
    }
    if let Some(m) = check_nickname(&body.nickname) {
        fields.insert("nickname".to_owned(), m);
    }
    if let Some(m) = check_password(&body.password, Some(&email), Some(&body.nickname)) {
        fields.insert("password".to_owned(), m);
    }
    if !fields.is_empty() {
        return Err(ApiError::invalid_fields(fields));
    }
    let permit = state.auth.limiter.reserve_signup(ip).await?;
    let created = create_password_account(&state, email, &body).await;
    // Only a made account uses up the allowance.
    settle_signup(&state, permit, Outcome::of(&created)).await;
    let user = created?;
    tracing::info!(
        user_id = user.id,
        role = user.role.as_str(),
        "account created"
    );
    let token = issue(&state, &user).await?;
    Ok((StatusCode::CREATED, ApiJson(TokenResponse { token })))
}

/// Makes the account of a sign-up whose fields are valid; `409` for a taken email or
/// nickname, checked before the password is hashed (a taken one costs no hash).
async fn create_password_account(
    state: &AccountsState,
    email: String,
    body: &SignupRequest,
) -> Result<User, ApiError> {
    let folded = fold_nickname(&body.nickname);
    if state.storage.user_by_email(&email).await?.is_some() {
        return Err(email_taken());
    }
    if state.storage.user_by_nickname(&folded).await?.is_some() {
        return Err(nickname_taken());
    }
    let hash = state
        .auth
        .passwords
        .hash(&body.password)
        .await
        .map_err(ApiError::internal)?;
    // The unique indexes decide races between parallel sign-ups.
    state
        .storage
        .create_user(&NewUser {
            chat_user_id: Uuid::new_v4(),
            email: Some(email),
            nickname: body.nickname.clone(),
            nickname_folded: folded,
            password_hash: Some(hash),
            identity: None,
            created_at: state.auth.now_utc(),
        })
        .await
        .map_err(conflict)
}

/// Settles a reserved sign-up; a limiter that cannot record it is logged, not fatal
/// (the sign-up has been decided already).
async fn settle_signup(state: &AccountsState, permit: SignupPermit, outcome: Outcome) {
    if let Err(e) = state.auth.limiter.settle_signup(permit, outcome).await {
        tracing::warn!(
            error = format!("{e:#}"),
            "cannot settle a sign-up with the limiter"
        );
    }
}

/// Settles a reserved log-in attempt (see [`settle_signup`] for failures).
async fn settle_login(state: &AccountsState, permit: LoginPermit, outcome: Outcome) {
    if let Err(e) = state.auth.limiter.settle_login(permit, outcome).await {
        tracing::warn!(
            error = format!("{e:#}"),
            "cannot settle a log-in with the limiter"
        );
    }
}

/// Logs in with email and password; with a `link_ticket`, also links the social
/// identity it names.
#[utoipa::path(post, path = "/api/auth/login", tag = "accounts", request_body = LoginRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, description = "`invalid_credentials` (same answer for an unknown email)", body = ErrorBody),
    (status = 403, description = "`account_banned`", body = ErrorBody),
    (status = 422, description = "`invalid_input` (an expired or unknown `link_ticket`)", body = ErrorBody),
    (status = 429, description = "`rate_limited`", body = ErrorBody),
))]
pub async fn login(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<LoginRequest>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    let email = normalize_email(&body.email);
    let auth = &state.auth;
    // The slot is taken before the password is checked: parallel guesses share the
    // allowance instead of each passing a check made before the others failed.
    let permit = auth.limiter.reserve_login(&login_keys(ip, &email)).await?;
    let user = state.storage.user_by_email(&email).await?;
    let ok = match user.as_ref().and_then(|u| u.password_hash.as_deref()) {
        Some(hash) => auth.passwords.verify(&body.password, hash).await,
        None => auth.passwords.verify_dummy(&body.password).await,
    }
    .map_err(ApiError::internal)?;
    let user = match user {
        Some(user) if ok => user,
        _ => {
            settle_login(&state, permit, Outcome::Failed).await;
            return Err(invalid_credentials());
        }
    };
    settle_login(&state, permit, Outcome::Succeeded).await;
    if user.banned_at.is_some() {
        return Err(account_banned());
    }
    if let Some(ticket) = body.link_ticket.as_deref().filter(|t| !t.is_empty()) {
        let expired = || {
            ApiError::invalid_field(
                "link_ticket",
                FieldError::new(
                    ErrorCode::TicketExpired,
                    "This link request has expired. Log in with the provider again.",
                ),
            )
        };
        let ticket = state
            .storage
            .take_ticket(&hash_ticket(ticket), TicketKind::Link, state.auth.now())
            .await?
            .ok_or_else(expired)?;
        if ticket.email.as_deref() != user.email.as_deref() {
            return Err(expired());
        }
        let identity = NewIdentity {
            provider: ticket.provider,
            subject: ticket.subject,
            email: ticket.email,
        };
        match state
            .storage
            .link_identity(user.id, &identity, state.auth.now_utc())
            .await
        {
            Ok(()) | Err(StorageError::Conflict(_)) => {}
            Err(e) => return Err(e.into()),
        }
        tracing::info!(user_id = user.id, provider = ?identity.provider, "social identity linked");
    }
    Ok(ApiJson(TokenResponse {
        token: issue(&state, &user).await?,
    }))
}

/// Ends this session (the token stops working).
#[utoipa::path(post, path = "/api/auth/logout", tag = "accounts", security(("bearer" = [])), responses(
    (status = 204, description = "Logged out"),
    (status = 401, body = ErrorBody),
))]
pub async fn logout(
    State(state): State<AccountsState>,
    member: Member,
) -> Result<StatusCode, ApiError> {
    state
        .storage
        .revoke_session(&member.session.jti, state.auth.now())
        .await?;
    state.hub.revoke_session(&member.session.jti);
    Ok(StatusCode::NO_CONTENT)
}

/// The logged-in member's account.
#[utoipa::path(get, path = "/api/me", tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = Me),
    (status = 401, body = ErrorBody),
))]
pub async fn get_me(
    State(state): State<AccountsState>,
    member: Member,
) -> Result<ApiJson<Me>, ApiError> {
    Ok(ApiJson(me_of(&state, &member.user).await?))
}

/// Changes the nickname; the answer is a new token carrying it.
#[utoipa::path(patch, path = "/api/me", tag = "accounts", security(("bearer" = [])), request_body = UpdateMeRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, body = ErrorBody),
    (status = 409, description = "`nickname_taken`", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update_me(
    State(state): State<AccountsState>,
    member: Member,
    ApiJson(body): ApiJson<UpdateMeRequest>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    if let Some(m) = check_nickname(&body.nickname) {
        return Err(ApiError::invalid_field("nickname", m));
    }
    let id = member.user.id;
    state
        .storage
        .set_nickname(id, &body.nickname, &fold_nickname(&body.nickname))
        .await
        .map_err(conflict)?;
    let user = state
        .storage
        .user_by_id(id)
        .await?
        .ok_or_else(|| ApiError::not_found("No such member."))?;
    let token = issue(&state, &user).await?;
    // The old token carries the old nickname: end it.
    state
        .storage
        .revoke_session(&member.session.jti, state.auth.now())
        .await?;
    super::topics::session_renewed(&state, &member.session.jti, &token);
    super::topics::account_changed(&state.hub, id);
    Ok(ApiJson(TokenResponse { token }))
}

/// Checks a password the member re-entered (rate limited like log-ins).
pub(super) async fn confirm_password(
    state: &AccountsState,
    ip: std::net::IpAddr,
    user: &User,
    field: &str,
    given: Option<&str>,
) -> Result<(), ApiError> {
    let Some(hash) = user.password_hash.as_deref() else {
        return Ok(());
    };
    let Some(given) = given.filter(|p| !p.is_empty()) else {
        return Err(ApiError::invalid_field(
            field,
            FieldError::new(ErrorCode::Required, "Enter your current password."),
        ));
    };
    let account = user
        .email
        .clone()
        .unwrap_or_else(|| format!("#{}", user.id));
    let permit = state
        .auth
        .limiter
        .reserve_login(&login_keys(ip, &account))
        .await?;
    let ok = state
        .auth
        .passwords
        .verify(given, hash)
        .await
        .map_err(ApiError::internal)?;
    if !ok {
        settle_login(state, permit, Outcome::Failed).await;
        return Err(ApiError::invalid_field(
            field,
            FieldError::new(ErrorCode::PasswordWrong, "The password is not right."),
        ));
    }
    settle_login(state, permit, Outcome::Succeeded).await;
    Ok(())
}

/// Sets a new password (the current one is required when there is one). Every
/// session ends; the answer is a new token.
#[utoipa::path(post, path = "/api/me/password", tag = "accounts", security(("bearer" = [])), request_body = ChangePasswordRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, body = ErrorBody),
    (status = 422, description = "`fields.current_password` or `fields.new_password`", body = ErrorBody),
    (status = 429, body = ErrorBody),
))]
pub async fn change_password(
    State(state): State<AccountsState>,
    ClientIp(ip): ClientIp,
    member: Member,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> Result<ApiJson<TokenResponse>, ApiError> {
    let user = &member.user;
    if let Some(m) = check_password(
        &body.new_password,
        user.email.as_deref(),
        user.nickname.as_deref(),
    ) {
        return Err(ApiError::invalid_field("new_password", m));
    }
    confirm_password(
        &state,
        ip,
        user,
        "current_password",
        body.current_password.as_deref(),
    )
    .await?;
    let hash = state
        .auth
        .passwords
        .hash(&body.new_password)
        .await
        .map_err(ApiError::internal)?;
    state
        .storage
        .set_password_hash(user.id, &hash, state.auth.now())
        .await?;
    tracing::info!(user_id = user.id, "password changed; sessions revoked");
    super::topics::account_changed(&state.hub, user.id);
    state
        .hub
        .revoke_member(user.id, crate::hub::Revocation::SessionEnded);
    Ok(ApiJson(TokenResponse {
        token: issue(&state, user).await?,
    }))
}

/// A member's public profile.
#[utoipa::path(get, path = "/api/users/{nickname}", tag = "accounts", params(("nickname" = String, Path)), responses(
    (status = 200, body = PublicProfile),
    (status = 404, body = ErrorBody),
))]
pub async fn get_user(
    State(state): State<AccountsState>,
    Path(nickname): Path<String>,
) -> Result<ApiJson<PublicProfile>, ApiError> {
    public_profile(&state, &nickname)
        .await?
        .map(ApiJson)
        .ok_or_else(|| ApiError::not_found("There is no member with this nickname."))
}

/// The public profile of an active member, if any (also used by page metadata).
pub async fn public_profile(
    state: &AccountsState,
    nickname: &str,
) -> Result<Option<PublicProfile>, ApiError> {
    if nickname.chars().count() > super::validate::NICKNAME_MAX_CHARS {
        return Ok(None);
    }
    let user = state
        .storage
        .user_by_nickname(&fold_nickname(nickname))
        .await?;
    Ok(user.filter(User::is_active).map(|u| PublicProfile {
        nickname: u.nickname.unwrap_or_default(),
        joined_at: rfc3339(u.created_at),
    }))
}

/// Turns a member's premium flag on or off (operators only).
#[utoipa::path(put, path = "/api/admin/users/{user_id}/premium", tag = "accounts", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    params(("user_id" = i64, Path)), request_body = SetPremiumRequest, responses(
    (status = 200, body = Me),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn set_premium(
    State(state): State<AccountsState>,
    _operator: Operator,
    Path(user_id): Path<i64>,
    ApiJson(body): ApiJson<SetPremiumRequest>,
) -> Result<ApiJson<Me>, ApiError> {
    state.storage.set_premium(user_id, body.premium).await?;
    let user = state
        .storage
        .user_by_id(user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("No such member."))?;
    super::topics::account_changed(&state.hub, user_id);
    Ok(ApiJson(me_of(&state, &user).await?))
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
    let expired = || {
        ApiError::invalid_field(
            "ticket",
            FieldError::new(
                ErrorCode::TicketExpired,
                "This sign-up has expired. Log in with the provider again.",
            ),
        )
    };
    let hash = hash_ticket(&body.ticket);
    let ticket = state
        .storage
        .peek_ticket(&hash, TicketKind::Signup, state.auth.now())
        .await?
        .ok_or_else(expired)?;
    if let Some(m) = check_nickname(&body.nickname) {
        return Err(ApiError::invalid_field("nickname", m));
    }
    let permit = state.auth.limiter.reserve_signup(ip).await?;
    let created = state
        .storage
        .create_user(&NewUser {
            chat_user_id: Uuid::new_v4(),
            email: ticket.email.clone(),
            nickname: body.nickname.clone(),
            nickname_folded: fold_nickname(&body.nickname),
            password_hash: None,
            identity: Some(NewIdentity {
                provider: ticket.provider.clone(),
                subject: ticket.subject.clone(),
                email: ticket.email.clone(),
            }),
            created_at: state.auth.now_utc(),
        })
        .await;
    settle_signup(&state, permit, Outcome::of(&created)).await;
    let user = match created {
        Ok(user) => user,
        // The identity exists: the ticket was used already.
        Err(StorageError::Conflict("identity")) => return Err(expired()),
        Err(e) => return Err(conflict(e)),
    };
    state
        .storage
        .take_ticket(&hash, TicketKind::Signup, state.auth.now())
        .await?;
    tracing::info!(user_id = user.id, provider = ?ticket.provider, "account created (social)");
    let token = issue(&state, &user).await?;
    Ok((StatusCode::CREATED, ApiJson(TokenResponse { token })))
}
