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

/// Where a step of the social log-in sends the browser.
#[derive(Debug, PartialEq, Eq)]
pub enum OidcRedirect {
    /// To the provider's authorization URL.
    Provider(String),
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
    let metadata = match providers.metadata(provider).await {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(provider = ?provider.id, error = format!("{e:#}"), "social log-in unavailable");
            return Ok(OidcRedirect::failed("oidc_failed"));
        }
    };
    let request = provider
        .authorize(metadata, &redirect_uri)
        .map_err(ApiError::internal)?;
    let intent = match intent {
        Some("signup") => "signup",
        _ => "login",
    };
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
    Ok(OidcRedirect::Provider(request.url))
}

/// Finishes the social log-in provider `id` answered with `params`; every failure is
/// logged and sends the browser to `/login#error=oidc_failed` (`oidc_cancelled` when
/// the person declined).
pub async fn oidc_finish(state: &AccountsState, id: &str, params: CallbackParams) -> OidcRedirect {
    match finish_inner(state, id, params).await {
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
            ],
        },
    })
}
