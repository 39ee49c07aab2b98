//! The accounts area's handlers, one file per resource: each extracts, calls the
//! service and answers its DTOs. Who may call what is decided by the extractors
//! ([`Member`](crate::accounts::extract::Member),
//! [`Operator`](crate::accounts::extract::Operator)), never here.

pub mod auth;
pub mod legal;
pub mod mail;
pub mod me;
pub mod oidc;
pub mod users;
