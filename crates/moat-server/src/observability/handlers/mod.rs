//! The observability area's handlers, one file per resource: each extracts, calls the
//! service and answers its DTOs. The console's handlers take the
//! [`Operator`](crate::accounts::extract::Operator) (401 without a token, 403 for a
//! member); the binding takes the [`Member`](crate::accounts::extract::Member); the
//! ingest's take neither.

pub mod errors;
pub mod feedback;
pub mod identity;
pub mod ingest;
pub mod sessions;
pub mod traces;
pub mod vitals;
