//! The social log-in flow: sending the browser to the provider, and on its return
//! logging the member in, or handing out a ticket to link the identity to an account
//! or to sign up with it. Each step answers an [`OidcRedirect`]; results reach the web app
//! in URL fragments (docs/accounts.md, "Routes").

use anyhow::Context;
use moat_storage::{PendingLogin, Ticket, TicketKind};

use crate::{
    accounts::{
        dto::CallbackParams,
        oidc::{hash_ticket, new_ticket, sanitize_next, Provider, VerifiedIdentity},
        AccountsState, OIDC_TTL,
    },
    http::error::ApiError,
};

/// The name prefix of the cookie that binds a pending log-in to the browser that
/// started it; the rest of the name comes from the `state` ([`state_cookie_name`]), so
/// log-ins started in several tabs do not overwrite each other.
pub const STATE_COOKIE_PREFIX: &str = "moat_oidc_";

/// The cookie that proves the browser presenting `state` at the callback is the one
/// that started the log-in: `moat_oidc_` and 16 hex digits of the state's SHA-256 (the
/// state itself never sits in a cookie).
pub fn state_cookie_name(state: &str) -> String {
    format!("{STATE_COOKIE_PREFIX}{}", &hash_ticket(state)[..16])
}

/// Whether the `Cookie` header values `cookies` (`a=1; b=2`, possibly several headers
/// joined with `; `) hold a cookie named `name`.
pub fn has_cookie(cookies: &str, name: &str) -> bool {
    cookies
        .split(';')
        .filter_map(|c| c.split_once('='))
        .any(|(k, v)| k.trim() == name && !v.trim().is_empty())
}

/// Where a step of the social log-in sends the browser.
#[derive(Debug, PartialEq, Eq)]
pub enum OidcRedirect {
    /// To the provider's authorization URL, setting the cookie named `cookie` that
    /// binds the log-in to this browser (for [`super::super::OIDC_TTL`]). `cross_site`:
    /// the provider comes back with a cross-site form POST (Apple), which only
    /// `SameSite=None` cookies accompany.
    Provider {
        url: String,
        cookie: String,
        cross_site: bool,
    },
    /// To a page of the web app, with values in the URL fragment.
    Page {
        path: &'static str,
        fragment: Vec<(&'static str, String)>,
    },
}

impl OidcRedirect {
    /// `/login#error={code}`.
    fn failed(code: &str) -> Self {
        OidcRedirect::Page {
            path: "/login",
            fragment: vec![("error", code.to_owned())],
        }
    }
}

/// Starts a social log-in with provider `id`: keeps the pending log-in (its `state`,
/// nonce, PKCE verifier, `next` and intent) and sends the browser to the provider,
/// which sends it back to `{origin}/api/auth/oidc/{id}/callback`. A provider that
/// cannot be reached sends it to `/login#error=oidc_failed`.
pub async fn oidc_start(
    state: &AccountsState,
    id: &str,
    origin: &str,
    next: Option<&str>,
    intent: Option<&str>,
) -> Result<OidcRedirect, ApiError> {
    let providers = &state.auth.oidc;
    let provider = providers
        .get(id)
        .ok_or_else(|| ApiError::not_found("There is no such log-in provider."))?;
    let redirect_uri = format!("{origin}/api/auth/oidc/{}/callback", provider.id);
    let request = match providers.authorize(provider, &redirect_uri).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(provider = ?provider.id, error = format!("{e:#}"), "social log-in unavailable");
            return Ok(OidcRedirect::failed("oidc_failed"));
        }
    };
    let intent = match intent {
        Some("signup") => "signup",
        _ => "login",
    };
    let cookie = state_cookie_name(&request.state);
    state
        .storage
        .insert_pending_login(&PendingLogin {
            state: request.state,
            provider: provider.id.clone(),
            nonce: request.nonce,
            pkce_verifier: request.pkce_verifier,
            redirect_uri,
            next_path: sanitize_next(next),
            intent: intent.into(),
            expires_at: state.auth.now() + OIDC_TTL.as_secs() as i64,
        })
        .await?;
    Ok(OidcRedirect::Provider {
        url: request.url,
        cookie,
        cross_site: provider.form_post(),
    })
}

/// Finishes the social log-in provider `id` answered with `params`, presented by a
/// browser whose `Cookie` header values are `cookies`; every failure is logged and
/// sends the browser to `/login#error=oidc_failed` (`oidc_cancelled` when the person
/// declined).
pub async fn oidc_finish(
    state: &AccountsState,
    id: &str,
    params: CallbackParams,
    cookies: &str,
) -> OidcRedirect {
    match finish_inner(state, id, params, cookies).await {
        Ok(r) => r,
        Err(e) => {
            // `id` comes from the path: a field, Debug-formatted, so a line break in it
            // is written escaped and cannot start a forged log line.
            tracing::warn!(provider = ?id, error = format!("{e:#}"), "social log-in failed");
            OidcRedirect::failed("oidc_failed")
        }
    }
}

async fn finish_inner(
    state: &AccountsState,
    id: &str,
    params: CallbackParams,
    cookies: &str,
) -> anyhow::Result<OidcRedirect> {
    // `state` first: it is single use even when the provider reports an error.
    let pending = match params.state.as_deref() {
        Some(s) if !s.is_empty() && s.len() <= 512 => {
            state
                .storage
                .take_pending_login(s, state.auth.now())
                .await?
        }
        _ => None,
    };
    if let Some(error) = params.error.as_deref() {
        let code = if error == "access_denied" {
            "oidc_cancelled"
        } else {
            "oidc_failed"
        };
        return Ok(OidcRedirect::failed(code));
    }
    let pending = pending
        .filter(|p| p.provider == id)
        .context("unknown, used, expired or foreign state")?;
    // A callback URL carried to another browser (log-in CSRF: someone else's log-in
    // finished in the victim's browser) lacks the cookie `/start` set.
    if !has_cookie(cookies, &state_cookie_name(&pending.state)) {
        anyhow::bail!("state presented by a browser that did not start the log-in");
    }
    let code = params.code.filter(|c| !c.is_empty()).context("no code")?;
    let providers = &state.auth.oidc;
    let provider = providers.get(id).context("provider no longer configured")?;
    let identity = providers.exchange(provider, &pending, code).await?;
    complete(state, provider, &pending.next_path, identity).await
}

/// Known identity → log in; unknown identity with a member's email → link ticket;
/// else → sign-up ticket.
async fn complete(
    state: &AccountsState,
    provider: &Provider,
    next: &str,
    identity: VerifiedIdentity,
) -> anyhow::Result<OidcRedirect> {
    let storage = state.storage.as_ref();
    if let Some(user) = storage
        .user_by_identity(&provider.id, &identity.subject)
        .await?
    {
        if user.banned_at.is_some() || user.deleted_at.is_some() {
            return Ok(OidcRedirect::failed("account_banned"));
        }
        let token = state.auth.issue(storage, &user).await?;
        return Ok(OidcRedirect::Page {
            path: "/auth/complete",
            fragment: vec![("token", token), ("next", next.to_owned())],
        });
    }
    let existing = match identity.email.as_deref() {
        Some(e) => storage.user_by_email(e).await?,
        None => None,
    };
    let ticket = new_ticket();
    let kind = if existing.is_some() {
        TicketKind::Link
    } else {
        TicketKind::Signup
    };
    storage
        .insert_ticket(&Ticket {
            ticket_hash: hash_ticket(&ticket),
            kind,
            provider: provider.id.clone(),
            subject: identity.subject,
            email: identity.email.clone(),
            next_path: next.to_owned(),
            expires_at: state.auth.now() + OIDC_TTL.as_secs() as i64,
        })
        .await?;
    let email = identity.email.unwrap_or_default();
    // The provider's nickname, offered on the sign-up form when it would be accepted
    // as it is (Naver's and Kakao's often are Hangul; a taken one is refused there).
    let nickname = identity
        .nickname
        .filter(|n| crate::accounts::validate::check_nickname(n).is_none())
        .unwrap_or_default();
    Ok(match kind {
        TicketKind::Link => OidcRedirect::Page {
            path: "/login",
            fragment: vec![
                ("link_ticket", ticket),
                ("email", email),
                ("provider", provider.id.clone()),
            ],
        },
        TicketKind::Signup => OidcRedirect::Page {
            path: "/signup/social",
            fragment: vec![
                ("ticket", ticket),
                ("next", next.to_owned()),
                ("email", email),
                ("nickname", nickname),
            ],
        },
    })
}
