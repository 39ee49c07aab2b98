//! The portfolio area's application logic: no axum, no SQL. Handlers call it with what
//! they extracted; it reads storage and the market service, computes with
//! `moat_portfolio`, and answers domain values or the area's DTOs (errors as
//! [`ApiError`](crate::http::error::ApiError) for now).

mod derived;
mod dividends;
mod imports;
mod ledger;
mod market_data;
mod portfolios;
mod returns;
mod transactions;

pub(crate) use derived::*;
pub use dividends::*;
pub use imports::*;
pub use ledger::*;
pub use market_data::*;
pub use portfolios::*;
pub use returns::*;
pub use transactions::*;
