//! News in the server (docs/news.md): feeds the operator configures (or the default
//! list), polled politely into stored articles linked to the instruments they name,
//! served newest first per country and instrument, searchable in Korean and English,
//! announced live on the hub.
//!
//! The domain lives in `moat-news` (parsing, ids, canonical URLs, SimHash, linking,
//! schedule) and `moat-search` (the tokenizer both databases index); this module wires
//! them to storage, HTTP, the media store and the hub. The area's shape: [`routes`],
//! `handlers/`, [`dto`], [`service`] ([`NewsService`]), [`topics`] and [`pages`].

pub mod config;
pub mod dto;
mod handlers;
mod pages;
pub mod service;
pub mod topics;

use std::sync::Arc;

use axum::extract::FromRef;
use moat_storage::{NewsStorage, Storage};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{hub::Hub, market::MarketState, media::MediaState, AppState};
use handlers::{articles, feeds};

pub use config::NewsConfig;
pub use pages::PAGES;
pub use service::NewsService;

/// What the news handlers reach.
#[derive(Clone)]
pub struct NewsState {
    pub service: Arc<NewsService>,
}

impl NewsState {
    /// Builds the service and registers the `news:` topics.
    pub fn start(
        config: &crate::Config,
        storage: Arc<dyn Storage>,
        hub: &Arc<Hub>,
        bus: &Arc<crate::broker::Bus>,
        market: &MarketState,
        media: &MediaState,
    ) -> anyhow::Result<Self> {
        let leases: Arc<dyn moat_storage::ClusterStorage> = storage.clone();
        let news: Arc<dyn NewsStorage> = storage;
        let service = NewsService::new(
            news,
            leases,
            market.service.clone(),
            hub.clone(),
            media.store.clone(),
            config.news.clone(),
            bus.origin().to_owned(),
        )?;
        topics::register(hub, &market.service);
        Ok(Self { service })
    }

    /// The poller (one instance at a time) and retention.
    pub fn spawn_jobs(&self) {
        self.service.spawn_jobs();
    }
}

impl FromRef<AppState> for NewsState {
    fn from_ref(state: &AppState) -> Self {
        state.news.clone()
    }
}

/// Every route of the news area, documented.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(articles::list_news))
        .routes(routes!(articles::search_news))
        .routes(routes!(articles::get_article))
        .routes(routes!(articles::instrument_news))
        .routes(routes!(feeds::list_feeds, feeds::create_feed))
        .routes(routes!(feeds::update_feed, feeds::delete_feed))
        .routes(routes!(feeds::fetch_feed))
        .routes(routes!(feeds::use_defaults))
}
