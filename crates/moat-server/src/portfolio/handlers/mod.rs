//! The portfolio area's handlers, one file per resource: each extracts, calls the
//! service and answers its DTOs. Every handler takes the [`Member`](crate::accounts::extract::Member)
//! and passes their id on: storage scopes each query to that member, so another
//! member's portfolio is a 404 exactly like a missing one.

pub mod dividends;
pub mod imports;
pub mod portfolios;
pub mod returns;
pub mod transactions;
