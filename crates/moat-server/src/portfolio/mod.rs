//! Portfolios (docs/portfolio.md): the member's portfolios and transactions in storage,
//! valued with `moat-portfolio` against the market service's quotes, candles and FX
//! rates. Nothing derived is stored (editing or deleting a transaction is just storing
//! the change): the decoded transactions are kept between requests in
//! [`cache::TransactionCache`], and the results derived from them (daily value series,
//! ledgers in a currency) in [`derived::DerivedCache`], both checked against the
//! portfolio's `revision` and the derived ones also against the prices' versions.
//!
//! The area's shape: [`routes()`] (every route of the area), `handlers/` (one file per
//! resource, thin), [`dto`] (every request and response type), [`service`] (the
//! application logic, no axum and no SQL), [`cache`], [`derived`] and [`write`] (atomic ledger
//! writes), `config.rs`, `pages.rs`, `member_data.rs`.

pub mod cache;
mod config;
pub mod derived;
pub mod dto;
mod handlers;
mod member_data;
mod pages;
pub mod service;
pub mod write;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef};
use moat_portfolio::csv_file;
use moat_storage::{PortfolioStorage, Storage};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use handlers::{dividends, imports, portfolios, returns, transactions};

pub use config::PortfolioConfig;
pub use dto::{PortfolioDto, TransactionDto};
pub use member_data::PortfolioExport;
pub use pages::PAGES;

/// Largest CSV file an import accepts (5 MB): larger than other request bodies.
pub const MAX_IMPORT_BYTES: usize = csv_file::MAX_IMPORT_BYTES;

/// What the portfolio handlers reach: the area's storage, the market service (quotes,
/// candles, FX), the decoded ledgers and the configuration.
#[derive(Clone)]
pub struct PortfolioState {
    pub storage: Arc<dyn PortfolioStorage>,
    pub market: Arc<crate::market::MarketService>,
    pub ledgers: Arc<cache::TransactionCache>,
    /// Daily value series and ledgers kept between reads.
    pub derived: Arc<derived::DerivedCache>,
    /// Where "today" comes from (a performance series runs through it).
    pub clock: Arc<dyn crate::clock::Clock>,
    pub config: Arc<crate::Config>,
}

impl PortfolioState {
    pub fn start(
        config: &Arc<crate::Config>,
        storage: Arc<dyn Storage>,
        market: &crate::market::MarketState,
        clock: Arc<dyn crate::clock::Clock>,
    ) -> Self {
        Self {
            storage,
            market: market.service.clone(),
            ledgers: Default::default(),
            derived: Arc::new(derived::DerivedCache::new(
                config.portfolio.derived_cache_mb * 1024 * 1024,
            )),
            clock,
            config: config.clone(),
        }
    }
}

impl FromRef<AppState> for PortfolioState {
    fn from_ref(state: &AppState) -> Self {
        state.portfolio.clone()
    }
}

/// Every route of the portfolio area, documented.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(
            portfolios::list_portfolios,
            portfolios::create_portfolio
        ))
        .routes(routes!(
            portfolios::get_portfolio,
            portfolios::patch_portfolio,
            portfolios::delete_portfolio
        ))
        .routes(routes!(portfolios::reorder_portfolios))
        .routes(routes!(
            transactions::list_transactions,
            transactions::add_transaction
        ))
        .routes(routes!(
            transactions::update_transaction,
            transactions::delete_transaction
        ))
        .routes(routes!(returns::get_valuation))
        .routes(routes!(returns::get_performance))
        .routes(routes!(returns::get_allocation))
        // CSV imports may be larger than other bodies; this inner limit overrides the
        // instance's `body_limit_bytes` for these two routes only.
        .merge(
            OpenApiRouter::new()
                .routes(routes!(imports::import_preview))
                .routes(routes!(imports::import_apply))
                .layer(DefaultBodyLimit::max(MAX_IMPORT_BYTES)),
        )
        .routes(routes!(imports::export_csv))
        .routes(routes!(dividends::instrument_dividends))
        .routes(routes!(dividends::calendar))
        .routes(routes!(dividends::my_dividends))
        .routes(routes!(dividends::dividend_draft))
}
