//! Portfolios as plain domain code: transactions and their validation, the ledger
//! (moving-average and FIFO cost, cash per currency), valuation in a currency mode and
//! the meta portfolio, performance (daily values, time- and money-weighted returns),
//! allocation, dividends and CSV import/export. No HTTP routes, no SQL, no I/O: every
//! function takes the transactions and market data it needs and is pure, so editing
//! or deleting a transaction is recomputing from the edited list.
//!
//! Money is `Decimal`, never `f64`, at full precision; rounding to a currency's minor
//! unit happens only for display or storage ([`money`]).

/// `dec!(1.5)` literals for unit tests, without another dependency.
#[cfg(test)]
macro_rules! dec {
    ($lit:literal) => {
        stringify!($lit).parse::<rust_decimal::Decimal>().unwrap()
    };
}

pub mod allocation;
pub mod broker_csv;
pub mod csv_file;
pub mod dividends;
pub mod error;
pub mod ledger;
pub mod money;
pub mod performance;
pub mod text_decode;
pub mod transaction;
pub mod validation;
pub mod valuation;

pub use allocation::{allocation, AllocationBy, AssetClass, InstrumentMeta, Slice};
pub use error::PortfolioError;
pub use ledger::{Holding, Ledger, Lot};
pub use money::{round_money, FxHistory, FxRates};
pub use performance::{
    daily_values, performance, period_return, time_weighted_return, xirr, DailyPoint, Period,
    PriceHistory, SeriesRun,
};
pub use transaction::{CostMethod, PortfolioSettings, SplitRatio, Transaction, TxKind};
pub use validation::{
    applicable, check_transaction, validate, Applicable, Field, Issue, IssueCode, ValidationReport,
};
pub use valuation::{
    combine, value_ledger, value_portfolio, CurrencyMode, MarketSnapshot, Valuation,
};
