//! The member's account and profile: `Me`, the nickname, the password, the public
//! profile and the premium flag operators set.

use std::net::IpAddr;

use moat_storage::User;

use super::{confirm_password, conflict, issue, no_such_member};
use crate::{
    accounts::{
        dto::{rfc3339, Me, PublicProfile},
        extract::Member,
        password::check_password,
        topics,
        validate::{check_nickname, fold_nickname, NICKNAME_MAX_CHARS},
        AccountsState,
    },
    http::error::ApiError,
};

/// `Me` of a member, with the linked providers.
pub async fn me_of(state: &AccountsState, user: &User) -> Result<Me, ApiError> {
    let identities = state.storage.identities_of(user.id).await?;
    Ok(Me {
        user_id: user.id,
        chat_user_id: user.chat_user_id,
        email: user.email.clone(),
        nickname: user.nickname.clone().unwrap_or_default(),
        role: user.role.into(),
        premium: user.premium,
        has_password: user.password_hash.is_some(),
        email_verified: user.email.is_some() && user.email_verified_at.is_some(),
        providers: identities.into_iter().map(|i| i.provider).collect(),
        consent_required: super::consent_required_of(state, user.id).await?,
        created_at: rfc3339(user.created_at),
    })
}

/// Changes the member's nickname; answers a new token carrying it (the old one ends,
/// its sockets move to the new session).
pub async fn rename(
    state: &AccountsState,
    member: &Member,
    nickname: &str,
) -> Result<String, ApiError> {
    if let Some(m) = check_nickname(nickname) {
        return Err(ApiError::invalid_field("nickname", m));
    }
    let id = member.user.id;
    state
        .storage
        .set_nickname(id, nickname, &fold_nickname(nickname))
        .await
        .map_err(conflict)?;
    let user = state
        .storage
        .user_by_id(id)
        .await?
        .ok_or_else(no_such_member)?;
    let token = issue(state, &user).await?;
    // The old token carries the old nickname: end it.
    state
        .storage
        .revoke_session(&member.session.jti, state.auth.now())
        .await?;
    topics::session_renewed(state, &member.session.jti, &token);
    topics::account_changed(&state.hub, id);
    Ok(token)
}

/// Sets a new password, `current` required when there is one. Every session ends;
/// answers a new token.
pub async fn change_password(
    state: &AccountsState,
    ip: IpAddr,
    user: &User,
    current: Option<&str>,
    new: &str,
) -> Result<String, ApiError> {
    if let Some(m) = check_password(new, user.email.as_deref(), user.nickname.as_deref()) {
        return Err(ApiError::invalid_field("new_password", m));
    }
    confirm_password(state, ip, user, "current_password", current).await?;
    let hash = state
        .auth
        .passwords
        .hash(new)
        .await
        .map_err(ApiError::internal)?;
    state
        .storage
        .set_password_hash(user.id, &hash, state.auth.now())
        .await?;
    tracing::info!(user_id = user.id, "password changed; sessions revoked");
    topics::account_changed(&state.hub, user.id);
    state
        .hub
        .revoke_member(user.id, crate::hub::Revocation::SessionEnded);
    issue(state, user).await
}

/// The public profile of an active member, if any (also used by page metadata).
pub async fn public_profile(
    state: &AccountsState,
    nickname: &str,
) -> Result<Option<PublicProfile>, ApiError> {
    if nickname.chars().count() > NICKNAME_MAX_CHARS {
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

/// Turns member `user_id`'s premium flag on or off; answers their account.
/// Bans a member (their sessions end and their sockets close on every instance) or
/// lifts the ban (operators only; an operator cannot ban themselves).
pub async fn set_banned(
    state: &AccountsState,
    operator: i64,
    user_id: i64,
    banned: bool,
) -> Result<(), ApiError> {
    if banned && operator == user_id {
        return Err(ApiError::bad_request(
            crate::http::error::ErrorCode::BadRequest,
            "An operator cannot ban themselves.",
        ));
    }
    let at = banned.then(|| state.auth.now_utc());
    state.storage.set_banned(user_id, at).await?;
    if banned {
        state
            .hub
            .revoke_member(user_id, crate::hub::Revocation::Banned);
    }
    Ok(())
}

pub async fn set_premium(
    state: &AccountsState,
    user_id: i64,
    premium: bool,
) -> Result<Me, ApiError> {
    state.storage.set_premium(user_id, premium).await?;
    let user = state
        .storage
        .user_by_id(user_id)
        .await?
        .ok_or_else(no_such_member)?;
    topics::account_changed(&state.hub, user_id);
    me_of(state, &user).await
}
