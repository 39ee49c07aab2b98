//! Who is calling: the one place authorization is decided. Handlers take [`Member`]
//! or [`Operator`] as an argument and never check roles themselves.
//!
//! - no `Authorization` header → `401 unauthenticated`
//! - a malformed, forged, wrongly-signed (any `alg` but HS256), expired or revoked
//!   token, or one of a banned or deleted member → `401 token_invalid`
//! - a member where an operator is needed → `403 forbidden`
//!
//! A token past half its lifetime is renewed: the response carries a fresh one in
//! `X-Moat-Token` (written by [`renew_tokens`]).

use std::{
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex},
};

use axum::{
    extract::{ConnectInfo, FromRef, FromRequestParts, Request},
    http::{header, request::Parts, HeaderValue},
    middleware::Next,
    response::Response,
};
use moat_storage::{Role, Session, SessionWithUser, User};

use super::RENEWED_TOKEN_HEADER;
use crate::{accounts::AccountsState, http::error::ApiError};

/// A logged-in member whose token and session are valid.
#[derive(Debug, Clone)]
pub struct Member {
    pub user: User,
    pub session: Session,
}

/// A member with the operator role.
#[derive(Debug, Clone)]
pub struct Operator(pub Member);

/// The client's address: the socket peer, or behind a trusted proxy the address it
/// forwarded (`trusted_proxies`, crate::http::client_addr).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

/// Where an extractor leaves a renewed token for [`renew_tokens`] to send.
#[derive(Clone, Default)]
struct RenewalSlot(Arc<Mutex<Option<String>>>);

/// Middleware: sends a token renewed during the request in `X-Moat-Token`.
pub async fn renew_tokens(mut request: Request, next: Next) -> Response {
    let slot = RenewalSlot::default();
    request.extensions_mut().insert(slot.clone());
    let mut response = next.run(request).await;
    let renewed = slot.0.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(token) = renewed.and_then(|t| HeaderValue::from_str(&t).ok()) {
        if response.status().is_success() {
            response.headers_mut().insert(RENEWED_TOKEN_HEADER, token);
        }
    }
    response
}

/// The token of `Authorization: Bearer <token>`, `Ok(None)` without the header.
fn bearer(parts: &Parts) -> Result<Option<&str>, ApiError> {
    let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value.to_str().map_err(|_| ApiError::token_invalid())?;
    match value.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(Some(token.trim()))
        }
        _ => Err(ApiError::token_invalid()),
    }
}

/// Checks a token: its signature, its session (not revoked, not expired, the token's
/// member) and the member (neither banned nor deleted). The one check behind [`Member`]
/// and the live stream's `auth` op; `401 token_invalid` when it fails.
pub async fn verify_token(state: &AccountsState, token: &str) -> Result<Member, ApiError> {
    let claims = state
        .auth
        .keys
        .verify(token, state.auth.now())
        .map_err(|_| ApiError::token_invalid())?;
    let found = state.storage.session_with_user(&claims.jti).await?;
    let now = state.auth.now();
    let Some(found) = found.filter(|f| session_holds(f, claims.data.user_id, now)) else {
        return Err(ApiError::token_invalid());
    };
    Ok(Member {
        user: found.user,
        session: found.session,
    })
}

/// Whether a session of `user_id` still holds now: not revoked, not expired, and its
/// member neither banned nor deleted.
pub fn session_holds(found: &SessionWithUser, user_id: i64, now: i64) -> bool {
    found.session.revoked_at.is_none()
        && found.session.expires_at > now
        && found.session.user_id == user_id
        && found.user.is_active()
}

impl<S> FromRequestParts<S> for Member
where
    AccountsState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if let Some(member) = parts.extensions.get::<Member>() {
            return Ok(member.clone());
        }
        let state = &AccountsState::from_ref(state);
        let token = bearer(parts)?.ok_or_else(ApiError::unauthenticated)?;
        let member = verify_token(state, token).await?;
        let now = state.auth.now();
        let half_life = (member.session.expires_at - member.session.issued_at) / 2;
        if now - member.session.issued_at >= half_life {
            if let Some(slot) = parts.extensions.get::<RenewalSlot>() {
                match state.auth.issue(state.storage.as_ref(), &member.user).await {
                    Ok(fresh) => *slot.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(fresh),
                    Err(e) => tracing::warn!(error = format!("{e:#}"), "cannot renew a token"),
                }
            }
        }
        parts.extensions.insert(member.clone());
        Ok(member)
    }
}

impl<S> FromRequestParts<S> for Operator
where
    AccountsState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let member = Member::from_request_parts(parts, state).await?;
        if member.user.role != Role::Operator {
            return Err(ApiError::forbidden());
        }
        Ok(Operator(member))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        // The address behind trusted proxies (crate::http::client_addr), else the peer.
        let ip = parts
            .extensions
            .get::<crate::http::client_addr::ClientAddr>()
            .map(|c| c.0)
            .or_else(|| {
                parts
                    .extensions
                    .get::<ConnectInfo<SocketAddr>>()
                    .map(|c| c.0.ip())
            })
            .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
        Ok(ClientIp(ip))
    }
}
