//! Sessions: log-in (and the social identity it may link), log-out, and the password
//! or recent log-in that confirms a sensitive change.

use std::net::IpAddr;

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)
use moat_storage::{NewIdentity, Session, StorageError, TicketKind, User};

use super::{account_banned, invalid_credentials, issue};
use crate::{
    accounts::{
        dto::LoginRequest,
        extract::Member,
        oidc::hash_ticket,
        rate_limit::{login_keys, LoginPermit, Outcome, SignupPermit},
        validate::normalize_email,
        AccountsState, RECENT_LOGIN,
    },
    http::error::{ApiError, ErrorCode, FieldError},
};

/// Logs in with email and password; with a `link_ticket`, also links the social
/// identity it names. Answers the new session's token.
pub async fn login(
    state: &AccountsState,
    ip: IpAddr,
    body: &LoginRequest,
) -> Result<String, ApiError> {
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
            settle_login(state, permit, Outcome::Failed).await;
            return Err(invalid_credentials());
        }
    };
    settle_login(state, permit, Outcome::Succeeded).await;
    if user.banned_at.is_some() {
        return Err(account_banned());
    }
    if let Some(ticket) = body.link_ticket.as_deref().filter(|t| !t.is_empty()) {
        link_identity(state, &user, ticket).await?;
    }
    issue(state, &user).await
}

/// Links the social identity of a link ticket to the member who just proved the
/// account with its password; `422 ticket_expired` for an unknown, used or expired
/// ticket, or one made for another email.
async fn link_identity(state: &AccountsState, user: &User, ticket: &str) -> Result<(), ApiError> {
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
    Ok(())
}

/// Ends `session`: its token stops working and its sockets close.
pub async fn logout(state: &AccountsState, session: &Session) -> Result<(), ApiError> {
    state
        .storage
        .revoke_session(&session.jti, state.auth.now())
        .await?;
    state.hub.revoke_session(&session.jti);
    Ok(())
}

/// Checks a password the member re-entered (rate limited like log-ins); `422` on
/// `field` when it is missing or wrong. Members without a password pass.
pub async fn confirm_password(
    state: &AccountsState,
    ip: IpAddr,
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

/// Checks that the member may delete their account now: the password when the
/// account has one, else a log-in under [`RECENT_LOGIN`] old (`403
/// reauthentication_required`).
pub async fn confirm_deletion(
    state: &AccountsState,
    ip: IpAddr,
    member: &Member,
    password: Option<&str>,
) -> Result<(), ApiError> {
    let user = &member.user;
    if user.password_hash.is_some() {
        confirm_password(state, ip, user, "password", password).await
    } else if state.auth.now() - member.session.issued_at > RECENT_LOGIN.as_secs() as i64 {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::ReauthenticationRequired,
            "Log in again, then delete the account within 10 minutes.",
        ))
    } else {
        Ok(())
    }
}

/// Settles a reserved sign-up; a limiter that cannot record it is logged, not fatal
/// (the sign-up has been decided already).
pub(super) async fn settle_signup(state: &AccountsState, permit: SignupPermit, outcome: Outcome) {
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
