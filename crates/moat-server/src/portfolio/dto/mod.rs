//! Every request and response type of the portfolio API, as the OpenAPI document names
//! them. Amounts are decimal strings; where a DTO holds a [`rust_decimal::Decimal`],
//! serde writes it as such a string (the schema says `string`).

mod dividends;
mod imports;
mod portfolios;
mod returns;
mod transactions;

pub use dividends::*;
pub use imports::*;
pub use portfolios::*;
pub use returns::*;
pub use transactions::*;
