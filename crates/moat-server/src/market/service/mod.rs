//! The market area's application logic: no axum, no SQL. [`MarketService`] holds the
//! catalogue, the latest quotes and a provider per market; the handlers, the `quote:`
//! topics, the portfolio area and the background jobs all go through it. The
//! functions beside it are what the API asks of it (search, key figures, chart ranges,
//! FX spans, the overview, favourites, the providers' status); they answer domain
//! values, or [`ApiError`] when the request is wrong.

mod candles;
mod catalog;
mod cluster;
mod favorites;
mod fx;
mod history;
mod instruments;
mod jobs;
mod overview;
mod providers;
mod quotes;

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, RwLock},
};

use chrono::NaiveDate;
use moat_market::{
    catalog as curated, simulator::Simulator, Instrument, InstrumentId, Market, ProviderKind, Quote,
};
use moat_storage::MarketStorage;

pub use candles::*;
pub use catalog::*;
pub use cluster::*;
pub use favorites::*;
pub use fx::*;
pub use instruments::*;
pub use jobs::*;
pub use overview::*;
pub use providers::*;
pub use quotes::*;

use super::MarketConfig;
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    hub::Hub,
};

/// The market-data service: shared by handlers, the stream and background jobs.
pub struct MarketService {
    storage: Arc<dyn MarketStorage>,
    simulator: Simulator,
    providers: HashMap<Market, ProviderSlot>,
    catalog: RwLock<Arc<Catalog>>,
    quotes: RwLock<HashMap<InstrumentId, Quote>>,
    /// When a real provider was last asked for each quote, successfully or not.
    polled: RwLock<HashMap<InstrumentId, tokio::time::Instant>>,
    /// Where quotes are published (the hub lives in `AppState`).
    hub: Arc<Hub>,
    /// Real-provider quotes to and from the other instances (service::cluster).
    bus: Arc<crate::broker::Bus>,
    /// The polling lease.
    leases: Arc<dyn moat_storage::ClusterStorage>,
    /// Whether this instance holds the polling lease.
    leader: std::sync::atomic::AtomicBool,
    /// Real instruments other instances watch, with when they last said so.
    interest: std::sync::Mutex<HashMap<InstrumentId, tokio::time::Instant>>,
    /// Quotes asked of real providers by this instance.
    provider_requests: std::sync::atomic::AtomicU64,
    /// Set when the server stops: the lease is given up and never taken again.
    stopped: std::sync::atomic::AtomicBool,
    config: MarketConfig,
}

impl MarketService {
    /// Loads the curated instruments into storage, reads the catalogue and the last
    /// stored quotes, and registers the `quote:` topics on `hub`. Background jobs start
    /// with [`MarketService::spawn_jobs`].
    pub async fn start(
        storage: Arc<dyn MarketStorage>,
        config: &MarketConfig,
        hub: Arc<Hub>,
        bus: Arc<crate::broker::Bus>,
        leases: Arc<dyn moat_storage::ClusterStorage>,
    ) -> anyhow::Result<Arc<Self>> {
        let simulator = Simulator::default();
        let providers = providers_for(config, &simulator);
        // The curated list fills in what is missing; it never undoes an operator's
        // import (which may carry newer names, shares and prices).
        let known: HashSet<InstrumentId> = storage
            .list_instruments()
            .await?
            .into_iter()
            .map(|i| i.id)
            .collect();
        let missing: Vec<Instrument> = curated::curated()
            .into_iter()
            .filter(|i| !known.contains(&i.id))
            .collect();
        if !missing.is_empty() {
            storage.upsert_instruments(&missing).await?;
        }
        let instruments = storage.list_instruments().await?;
        let quotes = storage
            .list_quotes()
            .await?
            .into_iter()
            .map(|q| (q.instrument_id.clone(), q))
            .collect();
        let service = Arc::new(Self {
            storage,
            simulator,
            providers,
            catalog: RwLock::new(Arc::new(Catalog::new(instruments))),
            quotes: RwLock::new(quotes),
            polled: RwLock::default(),
            hub,
            bus,
            leases,
            leader: Default::default(),
            interest: Default::default(),
            provider_requests: Default::default(),
            stopped: Default::default(),
            config: config.clone(),
        });
        service.register_topics();
        service.register_channels();
        Ok(service)
    }

    /// Where the `quote:` topics are published.
    pub(in crate::market) fn hub(&self) -> &Hub {
        &self.hub
    }

    fn slot(&self, instrument: &Instrument) -> &ProviderSlot {
        &self.providers[&instrument.market()]
    }

    /// Whether an instrument's prices come from the simulator.
    pub fn is_simulated(&self, instrument: &Instrument) -> bool {
        self.slot(instrument).kind == ProviderKind::Simulator
    }
}

/// A market's name in provider statuses (`krx`, `us`, `fx`, `crypto`).
fn market_name(market: Market) -> &'static str {
    match market {
        Market::Krx => "krx",
        Market::Us => "us",
        Market::Fx => "fx",
        Market::Crypto => "crypto",
    }
}

/// A date parameter of a request (`YYYY-MM-DD`), `default` when absent or empty;
/// `invalid_parameter` on `field` otherwise.
pub fn parse_date(
    field: &str,
    raw: Option<&str>,
    default: NaiveDate,
) -> Result<NaiveDate, ApiError> {
    match raw {
        None | Some("") => Ok(default),
        Some(s) => NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| {
            ApiError::invalid_parameter(
                field,
                FieldError::new(ErrorCode::InvalidDate, "A date as YYYY-MM-DD."),
            )
        }),
    }
}
