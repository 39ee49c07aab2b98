//! Consent to the terms and the privacy policy: operators publish versions; a sign-up
//! accepts the current ones; a member who has not accepted a newer version is asked at
//! the next log-in (`Me.consent_required`) and accepts it with
//! `POST /api/me/consents`.

use std::collections::BTreeMap;

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)

use moat_storage::{LegalDocument, LegalKind, StorageError, User};

use super::me_of;
use crate::{
    accounts::{
        dto::{rfc3339, ConsentGiven, LegalDocumentInfo, Me},
        AccountsState,
    },
    http::error::{ApiError, ErrorCode, FieldError},
};

/// The longest document an operator may publish, in characters.
pub const LEGAL_BODY_MAX_CHARS: usize = 200_000;

fn info(d: LegalDocument) -> LegalDocumentInfo {
    LegalDocumentInfo {
        kind: d.kind.as_str().to_owned(),
        version: d.version,
        body: d.body,
        published_at: rfc3339(d.published_at),
    }
}

/// The current version of each published document.
pub async fn legal_documents(state: &AccountsState) -> Result<Vec<LegalDocumentInfo>, ApiError> {
    Ok(state
        .storage
        .current_legal_documents()
        .await?
        .into_iter()
        .map(info)
        .collect())
}

/// Publishes a new version of `kind` (`terms` or `privacy`): every member accepts it
/// at their next log-in.
pub async fn publish_legal(
    state: &AccountsState,
    kind: &str,
    body: &str,
) -> Result<LegalDocumentInfo, ApiError> {
    let kind = LegalKind::parse(kind)
        .ok_or_else(|| ApiError::not_found("No such document: terms or privacy."))?;
    let chars = body.trim().chars().count();
    if chars == 0 {
        return Err(ApiError::invalid_field(
            "body",
            FieldError::new(ErrorCode::Required, "Write the document's text."),
        ));
    }
    if chars > LEGAL_BODY_MAX_CHARS {
        return Err(ApiError::invalid_field(
            "body",
            FieldError::new(ErrorCode::TooLong, "The document is too long.")
                .param("max", LEGAL_BODY_MAX_CHARS),
        ));
    }
    let doc = match state
        .storage
        .publish_legal_document(kind, body.trim(), state.auth.now_utc())
        .await
    {
        Ok(doc) => doc,
        Err(StorageError::Conflict(_)) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                ErrorCode::Conflict,
                "Another version was published at the same time: try again.",
            ))
        }
        Err(e) => return Err(e.into()),
    };
    tracing::info!(
        kind = kind.as_str(),
        version = doc.version,
        "legal document published"
    );
    Ok(info(doc))
}

/// `422` on `consents`: the current versions of `kinds` must be accepted
/// (`params.kinds`: comma-separated).
fn consent_required(kinds: &[LegalKind]) -> ApiError {
    let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
    ApiError::invalid_field(
        "consents",
        FieldError::new(
            ErrorCode::ConsentRequired,
            format!("Accept the current {} first.", names.join(" and ")),
        )
        .param("kinds", names.join(",")),
    )
}

/// The documents whose current version `given` does not accept (with their versions).
async fn missing(
    state: &AccountsState,
    accepted: impl Fn(LegalKind, i64) -> bool,
) -> Result<(Vec<LegalKind>, BTreeMap<LegalKind, i64>), ApiError> {
    let current: BTreeMap<LegalKind, i64> = state
        .storage
        .current_legal_documents()
        .await?
        .into_iter()
        .map(|d| (d.kind, d.version))
        .collect();
    let missing = current
        .iter()
        .filter(|(k, v)| !accepted(**k, **v))
        .map(|(k, _)| *k)
        .collect();
    Ok((missing, current))
}

fn given_accepts(given: &[ConsentGiven]) -> impl Fn(LegalKind, i64) -> bool + '_ {
    move |kind, version| {
        given
            .iter()
            .any(|c| c.kind == kind.as_str() && c.version == version)
    }
}

/// Checks that a sign-up accepts the current version of every published document;
/// answers the versions to record once the account exists.
pub async fn check_signup_consents(
    state: &AccountsState,
    given: &[ConsentGiven],
) -> Result<Vec<(LegalKind, i64)>, ApiError> {
    let (missing, current) = missing(state, given_accepts(given)).await?;
    if !missing.is_empty() {
        return Err(consent_required(&missing));
    }
    Ok(current.into_iter().collect())
}

/// Records the consents of a new account.
pub async fn record_consents(
    state: &AccountsState,
    user_id: i64,
    versions: &[(LegalKind, i64)],
) -> Result<(), ApiError> {
    for (kind, version) in versions {
        state
            .storage
            .record_consent(user_id, *kind, *version, state.auth.now_utc())
            .await?;
    }
    Ok(())
}

/// The documents whose current version the member has not accepted.
pub async fn consent_required_of(
    state: &AccountsState,
    user_id: i64,
) -> Result<Vec<String>, ApiError> {
    let consents = state.storage.consents_of(user_id).await?;
    let (missing, _) = missing(state, |kind, version| {
        consents
            .iter()
            .any(|c| c.kind == kind && c.version == version)
    })
    .await?;
    Ok(missing.iter().map(|k| k.as_str().to_owned()).collect())
}

/// The member accepts the current versions in `given`; `422 consent_required` unless
/// they cover every document still to accept. Answers the account.
pub async fn accept_consents(
    state: &AccountsState,
    user: &User,
    given: &[ConsentGiven],
) -> Result<Me, ApiError> {
    let consents = state.storage.consents_of(user.id).await?;
    let accepts = given_accepts(given);
    let (missing, current) = missing(state, |kind, version| {
        accepts(kind, version)
            || consents
                .iter()
                .any(|c| c.kind == kind && c.version == version)
    })
    .await?;
    if !missing.is_empty() {
        return Err(consent_required(&missing));
    }
    let chosen: Vec<(LegalKind, i64)> = current
        .into_iter()
        .filter(|(k, v)| accepts(*k, *v))
        .collect();
    record_consents(state, user.id, &chosen).await?;
    me_of(state, user).await
}
