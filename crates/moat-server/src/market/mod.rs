//! Market data in the server (docs/market.md): the instrument catalogue and its
//! search index, the latest quotes, the providers per market, the background jobs
//! (history backfill, simulator ticks, real-provider polling) and the live stream.
//!
//! The domain lives in `moat-market`; this module wires it to storage, the API and the
//! live hub. The area's shape: [`routes`] (every route of the area), `handlers/` (one
//! file per resource, thin), [`dto`] (every request and response type), [`service`]
//! ([`MarketService`] and the application logic, no axum and no SQL) and [`stream`]
//! (the `quote:` topics).

mod config;
pub mod dto;
mod handlers;
mod member_data;
mod pages;
pub mod service;
pub mod stream;

use std::sync::Arc;

use axum::extract::FromRef;
use moat_storage::{MarketStorage, Storage};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{hub::Hub, AppState};
use handlers::{candles, favorites, fx, instruments, overview, providers, quotes};

pub use config::MarketConfig;
pub use member_data::MarketExport;
pub use pages::{stock_page, PAGES, STOCK};
pub use service::{Catalog, MarketService, ProviderSlot};

/// What the market handlers reach: the market service (catalogue, quotes, candles,
/// providers) and the area's storage.
#[derive(Clone)]
pub struct MarketState {
    pub service: Arc<MarketService>,
    pub storage: Arc<dyn MarketStorage>,
}

impl MarketState {
    /// Loads the catalogue and the last quotes and registers the `quote:` topics.
    pub async fn start(
        config: &crate::Config,
        storage: Arc<dyn Storage>,
        hub: &Arc<Hub>,
        bus: &Arc<crate::broker::Bus>,
    ) -> anyhow::Result<Self> {
        let leases: Arc<dyn moat_storage::ClusterStorage> = storage.clone();
        let storage: Arc<dyn MarketStorage> = storage;
        let service = MarketService::start(
            storage.clone(),
            &config.market,
            hub.clone(),
            bus.clone(),
            leases,
        )
        .await?;
        Ok(Self { service, storage })
    }

    /// The history catch-up, the simulator's ticks, real-provider polling and quote
    /// persistence.
    pub fn spawn_jobs(&self) {
        self.service.spawn_jobs();
    }
}

impl FromRef<AppState> for MarketState {
    fn from_ref(state: &AppState) -> Self {
        state.market.clone()
    }
}

/// The market's page routes, outside the API: a stock's page, where a bare code
/// (`/stocks/005930`, `/stocks/AAPL`) answers 308 to its canonical address so that
/// typed links and link previews reach it; everything else there is the web app.
pub fn page_routes() -> axum::Router<AppState> {
    axum::Router::new().route("/stocks/{code}", axum::routing::get(stock_page))
}

/// Every route of the market area, documented.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(instruments::search))
        .routes(routes!(instruments::get_instrument))
        .routes(routes!(quotes::get_quote))
        .routes(routes!(candles::get_candles))
        .routes(routes!(fx::get_fx))
        .routes(routes!(fx::get_fx_rate_on))
        .routes(routes!(overview::overview))
        .routes(routes!(providers::providers))
        .routes(routes!(favorites::get_favorites, favorites::put_favorites))
}
