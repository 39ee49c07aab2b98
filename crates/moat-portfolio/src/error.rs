//! The error of the computations that need valid transactions and market data.

use serde::{Deserialize, Serialize};

use crate::validation::Issue;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum PortfolioError {
    /// The transactions do not validate (every error found).
    #[error("the transactions have {} error(s)", .0.len())]
    Invalid(Vec<Issue>),
    /// A conversion needs an FX rate that was not given.
    #[error("no {from}/{to} exchange rate")]
    FxUnavailable { from: String, to: String },
    /// Portfolios to combine are valued in different currencies or modes.
    #[error("portfolios valued in different currencies cannot be combined")]
    MixedCurrencies,
}

impl From<Vec<Issue>> for PortfolioError {
    fn from(issues: Vec<Issue>) -> Self {
        PortfolioError::Invalid(issues)
    }
}
