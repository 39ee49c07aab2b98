//! Sign-ups: with email and password, or with a social identity's ticket.

use std::{collections::BTreeMap, net::IpAddr};

use moat_storage::{NewIdentity, NewUser, StorageError, TicketKind, User};
use uuid::Uuid;

use super::{
    check_signup_consents, conflict, email_taken, issue, nickname_taken, record_consents,
    settle_signup,
};
use crate::{
    accounts::{
        dto::{OidcSignupRequest, SignupRequest},
        oidc::hash_ticket,
        password::check_password,
        rate_limit::Outcome,
        validate::{check_email, check_nickname, fold_nickname, normalize_email},
        AccountsState,
    },
    http::error::{ApiError, ErrorCode, FieldError},
};

/// Creates an account with email and password (the first account of an install is
/// the operator); answers its first session's token.
pub async fn signup(
    state: &AccountsState,
    ip: IpAddr,
    body: &SignupRequest,
) -> Result<String, ApiError> {
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
    let consents = check_signup_consents(state, &body.consents).await?;
    let permit = state.auth.limiter.reserve_signup(ip).await?;
    let created = create_password_account(state, email, body).await;
    // Only a made account uses up the allowance.
    settle_signup(state, permit, Outcome::of(&created)).await;
    let user = created?;
    record_consents(state, user.id, &consents).await?;
    tracing::info!(
        user_id = user.id,
        role = user.role.as_str(),
        "account created"
    );
    super::send_verification_in_background(state, &user, body.language);
    issue(state, &user).await
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

/// Creates the account of a new social identity from the ticket of its redirect and a
/// nickname; answers its first session's token. The ticket is used up only once the
/// account exists.
pub async fn oidc_signup(
    state: &AccountsState,
    ip: IpAddr,
    body: &OidcSignupRequest,
) -> Result<String, ApiError> {
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
    let consents = check_signup_consents(state, &body.consents).await?;
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
    settle_signup(state, permit, Outcome::of(&created)).await;
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
    record_consents(state, user.id, &consents).await?;
    tracing::info!(user_id = user.id, provider = ?ticket.provider, "account created (social)");
    issue(state, &user).await
}
