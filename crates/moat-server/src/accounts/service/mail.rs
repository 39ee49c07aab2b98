//! Links sent by e-mail: password reset without the old password, and verification
//! of the member's address. Tokens are random, stored hashed, single use and live
//! [`MAIL_LINK_TTL`].
//!
//! "Send me a reset link" answers at once and the same way whether or not the
//! address belongs to a member: the lookup, the token and the mail happen after the
//! answer, off the request, so neither the answer nor its timing tells.

use std::net::IpAddr;

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)
use moat_storage::{MailToken, MailTokenKind, User};

use super::issue;
use crate::{
    accounts::{
        dto::MailLanguage,
        mail_texts,
        oidc::{hash_ticket, new_ticket},
        password::check_password,
        rate_limit::LimitError,
        topics,
        validate::{check_email, normalize_email},
        AccountsState, MAIL_LINK_TTL,
    },
    http::error::{ApiError, ErrorCode, FieldError},
    mail::Mailer,
};

/// Whether "forgot password" can send a link.
pub fn password_reset_available(state: &AccountsState) -> bool {
    state.mailer.is_some()
}

fn mailer(state: &AccountsState) -> Result<std::sync::Arc<dyn Mailer>, ApiError> {
    state.mailer.clone().ok_or_else(|| {
        ApiError::new(
            StatusCode::CONFLICT,
            ErrorCode::MailNotConfigured,
            "This server sends no e-mail: ask its operator to set a new password.",
        )
    })
}

/// `422` on `token`: the link expired, was used, or was never sent.
fn link_expired() -> ApiError {
    ApiError::invalid_field(
        "token",
        FieldError::new(
            ErrorCode::LinkExpired,
            "This link has expired or was used already. Ask for a new one.",
        ),
    )
}

/// "Send me a reset link": `Ok` for any well-formed address (the mail goes only to a
/// member's), sent after the answer. `429` past [`RESET_REQUESTS_PER_IP`] requests
/// from one address an hour.
///
/// [`RESET_REQUESTS_PER_IP`]: crate::accounts::rate_limit::RESET_REQUESTS_PER_IP
pub async fn request_password_reset(
    state: &AccountsState,
    ip: IpAddr,
    email: &str,
    language: MailLanguage,
) -> Result<(), ApiError> {
    let mailer = mailer(state)?;
    let email = normalize_email(email);
    if let Some(m) = check_email(&email) {
        return Err(ApiError::invalid_field("email", m));
    }
    state.mail_limits.reset_per_ip.take(&ip.to_string()).await?;
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(e) = send_reset_link(&state, mailer.as_ref(), &email, language).await {
            tracing::warn!(
                error = format!("{e:#}"),
                "cannot send a password-reset mail"
            );
        }
    });
    Ok(())
}

/// Sends the reset link when `email` is an active member's and the address has mail
/// left this hour; otherwise nothing.
async fn send_reset_link(
    state: &AccountsState,
    mailer: &dyn Mailer,
    email: &str,
    language: MailLanguage,
) -> anyhow::Result<()> {
    let Some(user) = state.storage.user_by_email(email).await? else {
        return Ok(());
    };
    if !user.is_active() {
        return Ok(());
    }
    let taken = state
        .mail_limits
        .per_address
        .take(&format!("reset:{email}"))
        .await;
    if let Err(e) = taken {
        if let LimitError::Failed(e) = e {
            return Err(e);
        }
        tracing::info!(
            user_id = user.id,
            "password-reset mail skipped: over the hourly limit"
        );
        return Ok(());
    }
    let link = new_link(
        state,
        &user,
        email,
        MailTokenKind::ResetPassword,
        "reset-password",
    )
    .await?;
    mailer
        .send(mail_texts::password_reset(language, email, &link))
        .await?;
    tracing::info!(user_id = user.id, "password-reset mail sent");
    Ok(())
}

/// Stores a new token of `kind` for `user` and answers the link carrying it:
/// `<public_url>/<page>#token=…` (a fragment: it never reaches server logs or
/// `Referer`).
async fn new_link(
    state: &AccountsState,
    user: &User,
    email: &str,
    kind: MailTokenKind,
    page: &str,
) -> anyhow::Result<String> {
    let token = new_ticket();
    let now = state.auth.now();
    state
        .storage
        .insert_mail_token(&MailToken {
            token_hash: hash_ticket(&token),
            kind,
            user_id: user.id,
            email: email.to_owned(),
            created_at: now,
            expires_at: now + MAIL_LINK_TTL.as_secs() as i64,
        })
        .await?;
    let origin = state.config.public_url.trim_end_matches('/');
    Ok(format!("{origin}/{page}#token={token}"))
}

/// Sets a new password from a reset link: every session ends, every other reset link
/// stops working, the email counts as verified (the link proved it); answers a new
/// session's token. `422` on `token` for an expired, used or unknown link; `422` on
/// `new_password` for a password the rules refuse (the link stays usable).
pub async fn reset_password(
    state: &AccountsState,
    token: &str,
    new_password: &str,
) -> Result<String, ApiError> {
    let hash = hash_ticket(token);
    let now = state.auth.now();
    let found = state
        .storage
        .peek_mail_token(&hash, MailTokenKind::ResetPassword, now)
        .await?
        .ok_or_else(link_expired)?;
    let user = state
        .storage
        .user_by_id(found.user_id)
        .await?
        .filter(|u| u.is_active() && u.email.as_deref() == Some(found.email.as_str()))
        .ok_or_else(link_expired)?;
    if let Some(m) = check_password(
        new_password,
        user.email.as_deref(),
        user.nickname.as_deref(),
    ) {
        return Err(ApiError::invalid_field("new_password", m));
    }
    // Taking it is the single-use step: of two requests with one link, one wins.
    state
        .storage
        .take_mail_token(&hash, MailTokenKind::ResetPassword, now)
        .await?
        .ok_or_else(link_expired)?;
    let password_hash = state
        .auth
        .passwords
        .hash(new_password)
        .await
        .map_err(ApiError::internal)?;
    state
        .storage
        .set_password_hash(user.id, &password_hash, now)
        .await?;
    state
        .storage
        .delete_mail_tokens(user.id, MailTokenKind::ResetPassword)
        .await?;
    state
        .storage
        .set_email_verified(user.id, &found.email, state.auth.now_utc())
        .await?;
    tracing::info!(
        user_id = user.id,
        "password reset by mail; sessions revoked"
    );
    topics::account_changed(&state.hub, user.id);
    state
        .hub
        .revoke_member(user.id, crate::hub::Revocation::SessionEnded);
    issue(state, &user).await
}

/// Sends the member a link that verifies their email, unless there is none, it is
/// verified already or no mail is configured. Errors are logged (called after
/// sign-up, whose answer does not wait for it).
pub fn send_verification_in_background(state: &AccountsState, user: &User, language: MailLanguage) {
    let Some(mailer) = state.mailer.clone() else {
        return;
    };
    let (state, user) = (state.clone(), user.clone());
    tokio::spawn(async move {
        if let Err(e) = send_verification(&state, mailer.as_ref(), &user, language).await {
            tracing::warn!(error = format!("{e:#}"), "cannot send a verification mail");
        }
    });
}

async fn send_verification(
    state: &AccountsState,
    mailer: &dyn Mailer,
    user: &User,
    language: MailLanguage,
) -> anyhow::Result<()> {
    let Some(email) = user.email.as_deref() else {
        return Ok(());
    };
    if user.email_verified_at.is_some() {
        return Ok(());
    }
    let link = new_link(
        state,
        user,
        email,
        MailTokenKind::VerifyEmail,
        "verify-email",
    )
    .await?;
    mailer
        .send(mail_texts::verify_email(language, email, &link))
        .await?;
    tracing::info!(user_id = user.id, "verification mail sent");
    Ok(())
}

/// "Send the verification link again" for the logged-in member: `409
/// mail_not_configured` without mail, `429` past [`MAILS_PER_ADDRESS`] an hour;
/// nothing is sent for a verified or missing email.
///
/// [`MAILS_PER_ADDRESS`]: crate::accounts::rate_limit::MAILS_PER_ADDRESS
pub async fn request_verification(
    state: &AccountsState,
    user: &User,
    language: MailLanguage,
) -> Result<(), ApiError> {
    let mailer = mailer(state)?;
    if user.email.is_none() || user.email_verified_at.is_some() {
        return Ok(());
    }
    state
        .mail_limits
        .per_address
        .take(&format!("verify:{}", user.id))
        .await?;
    send_verification(state, mailer.as_ref(), user, language)
        .await
        .map_err(ApiError::internal)
}

/// Opens a verification link: the address it was sent to becomes verified if it is
/// still the member's. `422` on `token` for an expired, used or unknown link.
pub async fn confirm_verification(state: &AccountsState, token: &str) -> Result<(), ApiError> {
    let found = state
        .storage
        .take_mail_token(
            &hash_ticket(token),
            MailTokenKind::VerifyEmail,
            state.auth.now(),
        )
        .await?
        .ok_or_else(link_expired)?;
    let verified = state
        .storage
        .set_email_verified(found.user_id, &found.email, state.auth.now_utc())
        .await?;
    if !verified {
        return Err(link_expired());
    }
    tracing::info!(user_id = found.user_id, "email verified");
    topics::account_changed(&state.hub, found.user_id);
    Ok(())
}
