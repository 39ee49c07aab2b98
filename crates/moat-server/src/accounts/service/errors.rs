//! The accounts' own errors: taken emails, nicknames and identities, wrong credentials,
//! banned accounts.

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)
use moat_storage::StorageError;

use crate::http::error::{ApiError, ErrorCode, FieldError};

/// `401 invalid_credentials`, the same for an unknown email and a wrong password.
pub fn invalid_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        ErrorCode::InvalidCredentials,
        "The email or password is not right.",
    )
}

/// `409 email_taken`: an account with this email exists.
pub fn email_taken() -> ApiError {
    ApiError::taken(
        "email",
        FieldError::new(
            ErrorCode::EmailTaken,
            "An account with this email exists already.",
        ),
    )
}

/// `409 nickname_taken`.
pub fn nickname_taken() -> ApiError {
    ApiError::taken(
        "nickname",
        FieldError::new(ErrorCode::NicknameTaken, "This nickname is taken."),
    )
}

/// Accounts' answer to a unique value storage found taken: the email, the nickname
/// or a social identity.
pub fn conflict(e: StorageError) -> ApiError {
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

/// `403 account_banned`.
pub fn account_banned() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::AccountBanned,
        "This account has been suspended by an operator.",
    )
}

/// `404 not_found` for a member id that names nobody.
pub fn no_such_member() -> ApiError {
    ApiError::not_found("No such member.")
}
