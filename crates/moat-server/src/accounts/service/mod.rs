//! The accounts area's application logic: no axum, no SQL. Handlers call it with what
//! they extracted; it checks the input, reads and writes the area's storage, hashes and
//! verifies passwords, issues tokens and tells the hub, and answers tokens, domain
//! values or the area's DTOs (errors as [`ApiError`]).

mod consent;
mod errors;
mod mail;
mod oidc;
mod profile;
mod sessions;
mod signup;

pub use consent::*;
pub use errors::*;
pub use mail::*;
pub use oidc::*;
pub use profile::*;
pub use sessions::*;
pub use signup::*;

use moat_storage::User;

use super::AccountsState;
use crate::http::error::ApiError;

/// Opens a session for `user` and signs its token.
async fn issue(state: &AccountsState, user: &User) -> Result<String, ApiError> {
    state
        .auth
        .issue(state.storage.as_ref(), user)
        .await
        .map_err(ApiError::internal)
}
