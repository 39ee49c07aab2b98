//! The news area's application logic, no axum and no SQL: reading lists, search and
//! articles ([`read`]), the operator's feeds ([`feeds`]), one feed's fetch from bytes
//! to stored articles ([`ingest`]), images into the media store ([`images`]), and the
//! poller and retention jobs ([`jobs`]).

pub mod feeds;
pub mod fetch;
pub mod images;
pub mod ingest;
pub mod jobs;
pub mod read;

use std::sync::{Arc, Mutex};

use moat_news::link::{LinkEntry, Linker};
use moat_storage::{ClusterStorage, NewsStorage};

use crate::{
    hub::Hub,
    market::{Catalog, MarketService},
    media::MediaStore,
    news::NewsConfig,
};
use fetch::{FetchLimits, Fetcher};

/// The news service: what the handlers, the jobs and `moat news fetch` share.
pub struct NewsService {
    pub storage: Arc<dyn NewsStorage>,
    pub leases: Arc<dyn ClusterStorage>,
    pub market: Arc<MarketService>,
    pub hub: Arc<Hub>,
    pub media: Arc<dyn MediaStore>,
    pub config: NewsConfig,
    pub fetcher: Fetcher,
    /// Who this instance is in the poller's lease (the broker's origin).
    pub holder: String,
    /// The linker over the catalogue it was built from (rebuilt when the catalogue is
    /// replaced).
    linker: Mutex<Option<(Arc<Catalog>, Arc<Linker>)>>,
    /// Image fetches running in the background.
    images: Mutex<tokio::task::JoinSet<()>>,
}

impl NewsService {
    pub fn new(
        storage: Arc<dyn NewsStorage>,
        leases: Arc<dyn ClusterStorage>,
        market: Arc<MarketService>,
        hub: Arc<Hub>,
        media: Arc<dyn MediaStore>,
        config: NewsConfig,
        holder: String,
    ) -> anyhow::Result<Arc<Self>> {
        let contact = (!config.contact.trim().is_empty()).then(|| config.contact.trim());
        let agent = moat_news::user_agent::user_agent(env!("CARGO_PKG_VERSION"), contact);
        let fetcher = Fetcher::new(FetchLimits::from_config(&config), &agent)?;
        Ok(Arc::new(Self {
            storage,
            leases,
            market,
            hub,
            media,
            config,
            fetcher,
            holder,
            linker: Mutex::new(None),
            images: Mutex::new(tokio::task::JoinSet::new()),
        }))
    }

    /// Runs `task` in the background among the image fetches.
    pub(crate) fn spawn_image_task(
        &self,
        task: impl std::future::Future<Output = ()> + Send + 'static,
    ) {
        let mut set = self.images.lock().unwrap_or_else(|e| e.into_inner());
        // Reap the finished ones so the set stays small.
        while set.try_join_next().is_some() {}
        set.spawn(task);
    }

    /// Waits until the image fetches started so far are done (`moat news fetch`,
    /// tests).
    pub async fn wait_for_images(&self) {
        let mut set = std::mem::take(&mut *self.images.lock().unwrap_or_else(|e| e.into_inner()));
        while set.join_next().await.is_some() {}
    }

    /// The instrument linker over the current catalogue.
    pub fn linker(&self) -> Arc<Linker> {
        let catalog = self.market.catalog();
        let mut slot = self.linker.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((built_from, linker)) = slot.as_ref() {
            if Arc::ptr_eq(built_from, &catalog) {
                return linker.clone();
            }
        }
        let linker = Arc::new(build_linker(&catalog));
        *slot = Some((catalog, linker.clone()));
        linker
    }
}

/// The linker's entries: every stock and ETF of the catalogue with its names, aliases
/// and, for US listings Moat knows, its SEC CIK.
pub fn build_linker(catalog: &Catalog) -> Linker {
    let ciks: std::collections::HashMap<&str, u64> =
        moat_news::link::known_ciks().iter().copied().collect();
    let entries = catalog
        .by_id
        .values()
        .filter(|i| matches!(i.kind, moat_market::Kind::Stock | moat_market::Kind::Etf))
        .map(|i| {
            let mut names = vec![i.name_ko.clone(), i.name_en.clone()];
            names.extend(i.aliases.iter().cloned());
            names.retain(|n| !n.trim().is_empty());
            LinkEntry {
                instrument_id: i.id.to_string(),
                ticker: i.ticker().to_owned(),
                country: i.country.clone(),
                names,
                cik: (i.country == "US")
                    .then(|| ciks.get(i.ticker()).copied())
                    .flatten(),
            }
        })
        .collect();
    Linker::new(entries, moat_news::link::DEFAULT_AMBIGUOUS)
}
