//! Market data in the server (docs/market.md): the instrument catalogue and its
//! search index, the latest quotes, the providers per market, the background jobs
//! (history backfill, simulator ticks, real-provider polling) and the live stream.
//!
//! The domain lives in `moat-market`; this module wires it to storage, the API
//! (`routes.rs`) and the WebSocket (`stream.rs`).

mod config;
mod member_data;
mod pages;
pub mod routes;
pub mod stream;

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
    time::Duration,
};

use axum::extract::FromRef;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use moat_market::{
    calendar, catalog, search::SearchIndex, simulator::Simulator, DailyCandle, Instrument,
    InstrumentId, Kind, Market, PriceProvider, ProviderKind, Quote, QuoteState,
};
use moat_storage::{MarketStorage, Storage};

use crate::hub::Hub;
pub use config::MarketConfig;
pub use member_data::MarketExport;
pub use pages::{PAGES, STOCK};

/// How often the simulator's quotes are recomputed and pushed (on the wall clock's
/// whole seconds, the simulator's price steps).
pub const SIMULATOR_TICK: Duration = Duration::from_secs(1);
/// How often the catalogue checks storage for instruments another process imported.
pub const CATALOG_CHECK_INTERVAL: Duration = Duration::from_secs(60);
/// How often changed quotes are written to the database.
pub const QUOTE_PERSIST_INTERVAL: Duration = Duration::from_secs(30);
/// How often the history catch-up runs (it is cheap once up to date).
pub const CATCH_UP_INTERVAL: Duration = Duration::from_secs(3600);
/// First wait after a real provider fails; doubles up to [`BACKOFF_MAX`].
pub const BACKOFF_START: Duration = Duration::from_secs(30);
pub const BACKOFF_MAX: Duration = Duration::from_secs(30 * 60);
/// Instruments on the home screen.
pub const OVERVIEW_INDICES: [&str; 4] = ["INDEX:KOSPI", "INDEX:KOSDAQ", "INDEX:SPX", "INDEX:IXIC"];
pub const OVERVIEW_FX: [&str; 1] = ["FX:USDKRW"];
/// Gainers and losers shown on the home screen.
pub const MOVERS: usize = 5;

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
    ) -> anyhow::Result<Self> {
        let storage: Arc<dyn MarketStorage> = storage;
        let service = MarketService::start(storage.clone(), &config.market, hub.clone()).await?;
        Ok(Self { service, storage })
    }

    /// The history catch-up, the simulator's ticks, real-provider polling and quote
    /// persistence.
    pub fn spawn_jobs(&self) {
        self.service.spawn_jobs();
    }
}

impl FromRef<crate::AppState> for MarketState {
    fn from_ref(state: &crate::AppState) -> Self {
        state.market.clone()
    }
}

/// The instruments and their search index, replaced as a whole when they change.
pub struct Catalog {
    pub by_id: HashMap<InstrumentId, Arc<Instrument>>,
    pub index: SearchIndex,
}

impl Catalog {
    fn new(instruments: Vec<Instrument>) -> Self {
        let all: Vec<Arc<Instrument>> = instruments.into_iter().map(Arc::new).collect();
        Self {
            index: SearchIndex::new(all.iter().cloned()),
            by_id: all.into_iter().map(|i| (i.id.clone(), i)).collect(),
        }
    }
}

/// One market's provider.
#[derive(Clone)]
pub struct ProviderSlot {
    pub kind: ProviderKind,
    pub provider: Arc<dyn PriceProvider>,
}

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
    config: MarketConfig,
}

fn market_name(market: Market) -> &'static str {
    match market {
        Market::Krx => "krx",
        Market::Us => "us",
        Market::Fx => "fx",
        Market::Crypto => "crypto",
    }
}

impl MarketService {
    /// Loads the curated instruments into storage, reads the catalogue and the last
    /// stored quotes, and registers the `quote:` topics on `hub`. Background jobs start
    /// with [`MarketService::spawn_jobs`].
    pub async fn start(
        storage: Arc<dyn MarketStorage>,
        config: &MarketConfig,
        hub: Arc<Hub>,
    ) -> anyhow::Result<Arc<Self>> {
        let simulator = Simulator::default();
        let providers = providers_for(config, &simulator);
        // The curated list fills in what is missing; it never undoes an operator's
        // import (which may carry newer names, shares and prices).
        let known: std::collections::HashSet<InstrumentId> = storage
            .list_instruments()
            .await?
            .into_iter()
            .map(|i| i.id)
            .collect();
        let missing: Vec<Instrument> = catalog::curated()
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
            config: config.clone(),
        });
        service.register_topics();
        Ok(service)
    }

    pub fn catalog(&self) -> Arc<Catalog> {
        self.catalog
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn instrument(&self, id: &InstrumentId) -> Option<Arc<Instrument>> {
        self.catalog().by_id.get(id).cloned()
    }

    fn slot(&self, instrument: &Instrument) -> &ProviderSlot {
        &self.providers[&instrument.market()]
    }

    /// Whether an instrument's prices come from the simulator.
    pub fn is_simulated(&self, instrument: &Instrument) -> bool {
        self.slot(instrument).kind == ProviderKind::Simulator
    }

    /// The latest quote: computed now for simulated instruments, else the last polled
    /// one while it is younger than `poll_secs`; an older one (or none) is asked for
    /// again, and kept, marked stale, when the provider fails.
    pub async fn quote(&self, instrument: &Instrument) -> Option<Quote> {
        let now = Utc::now();
        if self.is_simulated(instrument) {
            return Some(self.simulator.quote_at(instrument, now));
        }
        let known = self.cached_quote(&instrument.id);
        let fresh = self
            .polled
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&instrument.id)
            .is_some_and(|at| at.elapsed() < Duration::from_secs(self.config.poll_secs));
        if known.is_some() && fresh {
            return known;
        }
        self.poll_quote(instrument, now).await.or(known)
    }

    fn cached_quote(&self, id: &InstrumentId) -> Option<Quote> {
        self.quotes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Asks a real provider for a quote; on failure marks the last one stale.
    async fn poll_quote(&self, instrument: &Instrument, now: DateTime<Utc>) -> Option<Quote> {
        let slot = self.slot(instrument);
        let market = market_name(instrument.market());
        self.polled
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(instrument.id.clone(), tokio::time::Instant::now());
        match slot.provider.quote(instrument, now).await {
            Ok(quote) => {
                let _ = self
                    .storage
                    .record_provider_success(market, slot.kind.as_str(), now)
                    .await;
                self.accept_quote(quote.clone());
                Some(quote)
            }
            Err(e) => {
                tracing::warn!(instrument = %instrument.id, error = %e, "quote fetch failed");
                let _ = self
                    .storage
                    .record_provider_error(market, slot.kind.as_str(), &e.to_string(), now)
                    .await;
                let mut quotes = self.quotes.write().unwrap_or_else(|e| e.into_inner());
                let stale = quotes.get_mut(&instrument.id).map(|q| {
                    q.state = QuoteState::Stale;
                    q.clone()
                });
                if let Some(q) = &stale {
                    self.publish_quote(q);
                }
                drop(quotes);
                stale
            }
        }
    }

    /// Stores a quote in memory and pushes it when it differs from the last one.
    /// Returns whether it changed.
    fn accept_quote(&self, quote: Quote) -> bool {
        let mut quotes = self.quotes.write().unwrap_or_else(|e| e.into_inner());
        let changed = quotes.get(&quote.instrument_id).is_none_or(|old| {
            old.price != quote.price || old.volume != quote.volume || old.state != quote.state
        });
        if changed {
            self.publish_quote(&quote);
            quotes.insert(quote.instrument_id.clone(), quote);
        }
        changed
    }

    /// Daily candles in `from..=to`, plus today's candle so far while a session runs.
    /// The first day of `instrument`'s price history: its first stored daily candle,
    /// or, for a simulated instrument, the simulator's first day if that is earlier.
    /// `None` when nothing is known (a real provider that has not answered yet): then
    /// no trade date can be refused for it.
    pub async fn history_start(
        &self,
        instrument: &Instrument,
    ) -> anyhow::Result<Option<NaiveDate>> {
        let stored = self.storage.first_candle_date(&instrument.id).await?;
        if self.is_simulated(instrument) {
            let first = moat_market::simulator::HISTORY_START;
            return Ok(Some(stored.map_or(first, |d| d.min(first))));
        }
        Ok(stored)
    }

    pub async fn daily_candles(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> anyhow::Result<Vec<DailyCandle>> {
        let mut candles = if self.is_simulated(instrument) {
            // The simulator knows every day in full, today's and the future's too: only
            // finished sessions are history; the one under way comes from the quote.
            // Stored candles win over simulated ones: they are the backfill (the same
            // prices) or real history an operator imported with `moat import prices`.
            let market = instrument.market();
            let finished = last_finished_session(market, Utc::now());
            let to = to.min(finished);
            let stored = self.storage.daily_candles(&instrument.id, from, to).await?;
            match (stored.first(), stored.last()) {
                // The stored days form one unbroken run (the backfill, or an import):
                // simulate only the days before and after it. Simulating a day costs
                // its whole intraday path, so a range reaching a week before the
                // backfill must not simulate years.
                (Some(first), Some(last))
                    if stored.len()
                        >= calendar::trading_days(market, first.date, last.date).count() =>
                {
                    let mut candles = match first.date.pred_opt() {
                        Some(before) if from <= before => {
                            self.simulator.daily(instrument, from, before)
                        }
                        _ => Vec::new(),
                    };
                    let after = last.date.succ_opt().filter(|d| *d <= to);
                    candles.extend(stored);
                    if let Some(after) = after {
                        candles.extend(self.simulator.daily(instrument, after, to));
                    }
                    candles
                }
                // Nothing stored, or gaps: simulate the range, stored days winning.
                _ => {
                    let mut simulated = self.simulator.daily(instrument, from, to);
                    if !stored.is_empty() {
                        let dates: std::collections::HashSet<NaiveDate> =
                            stored.iter().map(|c| c.date).collect();
                        simulated.retain(|c| !dates.contains(&c.date));
                        simulated.extend(stored);
                        simulated.sort_by_key(|c| c.date);
                    }
                    simulated
                }
            }
        } else {
            self.storage.daily_candles(&instrument.id, from, to).await?
        };
        if let Some(q) = self.quote(instrument).await {
            let date = calendar::local_date(instrument.market(), q.as_of);
            let in_range = date >= from && date <= to;
            if in_range
                && q.state != QuoteState::Closed
                && candles.last().is_none_or(|c| c.date < date)
            {
                candles.push(DailyCandle {
                    date,
                    open: q.open,
                    high: q.high,
                    low: q.low,
                    close: q.price,
                    volume: q.volume,
                });
            }
        }
        Ok(candles)
    }

    /// Dividends with an ex-date in `from..=to`: for simulated instruments the
    /// simulator's schedule, up to its horizon of announced and expected ones
    /// ([`moat_market::simulator::DIVIDEND_HORIZON_DAYS`] ahead); else what providers
    /// stored.
    pub async fn dividends(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> anyhow::Result<Vec<moat_market::Dividend>> {
        if self.is_simulated(instrument) {
            let horizon = Utc::now().date_naive()
                + chrono::Duration::days(moat_market::simulator::DIVIDEND_HORIZON_DAYS);
            return Ok(self.simulator.dividends(instrument, from, to.min(horizon)));
        }
        Ok(self.storage.dividends(&instrument.id, from, to).await?)
    }

    /// Intraday bars of the session on `date`, up to now.
    pub async fn intraday_bars(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
    ) -> anyhow::Result<Vec<moat_market::Bar>> {
        let now = Utc::now();
        if self.is_simulated(instrument) {
            return Ok(self.simulator.bars(instrument, date, now));
        }
        let Some(session) = calendar::session(instrument.market(), date) else {
            return Ok(Vec::new());
        };
        let slot = self.slot(instrument);
        match slot.provider.intraday_bars(instrument, date, now).await {
            Ok(bars) if !bars.is_empty() => {
                self.storage
                    .upsert_intraday_bars(&instrument.id, &bars, slot.kind.as_str())
                    .await?;
                Ok(bars)
            }
            Ok(_) | Err(_) => Ok(self
                .storage
                .intraday_bars(&instrument.id, session.open, session.close)
                .await?),
        }
    }

    /// Quotes of all instruments of one kind with the latest prices (for movers).
    pub async fn quotes_of_kind(&self, kind: Kind) -> Vec<(Arc<Instrument>, Quote)> {
        let catalog = self.catalog();
        let mut out = Vec::new();
        for inst in catalog.by_id.values().filter(|i| i.kind == kind) {
            let quote = if self.is_simulated(inst) {
                Some(self.simulator.quote_at(inst, Utc::now()))
            } else {
                self.cached_quote(&inst.id)
            };
            if let Some(q) = quote {
                out.push((inst.clone(), q));
            }
        }
        out
    }

    /// Reloads the catalogue when the stored instruments differ from it (an operator
    /// ran `moat import instruments` against this database). Returns whether it did.
    pub async fn refresh_catalog(&self) -> anyhow::Result<bool> {
        let stored = self.storage.list_instruments().await?;
        let catalog = self.catalog();
        let same = stored.len() == catalog.by_id.len()
            && stored
                .iter()
                .all(|i| catalog.by_id.get(&i.id).is_some_and(|c| **c == *i));
        if same {
            return Ok(false);
        }
        tracing::info!(
            instruments = stored.len(),
            "instruments changed: search rebuilt"
        );
        *self.catalog.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(Catalog::new(stored));
        Ok(true)
    }

    /// Starts the background jobs: history catch-up, simulator ticks, quote
    /// persistence, catalogue refresh. They stop when the process does.
    pub fn spawn_jobs(self: &Arc<Self>) {
        let me = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(CATALOG_CHECK_INTERVAL);
            tick.tick().await;
            loop {
                tick.tick().await;
                match me.refresh_catalog().await {
                    // New instruments get their history now rather than within the hour.
                    Ok(true) => {
                        if let Err(e) = me.catch_up_history().await {
                            tracing::error!(error = %e, "market history catch-up failed");
                        }
                    }
                    Ok(false) => {}
                    Err(e) => tracing::warn!(error = %e, "could not check instruments"),
                }
            }
        });
        let me = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = me.catch_up_history().await {
                    tracing::error!(error = %e, "market history catch-up failed");
                }
                tokio::time::sleep(CATCH_UP_INTERVAL).await;
            }
        });
        let me = self.clone();
        tokio::spawn(async move {
            // Start on a whole second, just after the simulator's price step.
            let into_second = Utc::now().timestamp_subsec_millis();
            let start = tokio::time::Instant::now()
                + Duration::from_millis(u64::from(1000 - into_second.min(999)))
                + Duration::from_millis(2);
            let mut tick = tokio::time::interval_at(start, SIMULATOR_TICK);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tick.tick().await;
                me.simulator_tick();
            }
        });
        let me = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(QUOTE_PERSIST_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tick.tick().await;
                me.persist_quotes().await;
            }
        });
        let me = self.clone();
        tokio::spawn(async move { me.poll_real_providers().await });
    }

    /// Recomputes the simulated quotes of subscribed instruments and pushes changes.
    fn simulator_tick(&self) {
        let now = Utc::now();
        let catalog = self.catalog();
        for id in self.quote_topics() {
            if let Some(inst) = catalog.by_id.get(&id) {
                if self.is_simulated(inst) {
                    self.accept_quote(self.simulator.quote_at(inst, now));
                }
            }
        }
    }

    /// Polls real providers for subscribed instruments every `poll_secs`, backing
    /// off per market after failures.
    async fn poll_real_providers(self: Arc<Self>) {
        let real: Vec<Market> = self
            .providers
            .iter()
            .filter(|(_, s)| s.kind != ProviderKind::Simulator)
            .map(|(m, _)| *m)
            .collect();
        if real.is_empty() {
            return;
        }
        let mut backoff: HashMap<Market, (Duration, tokio::time::Instant)> = HashMap::new();
        let mut tick = tokio::time::interval(Duration::from_secs(self.config.poll_secs));
        loop {
            tick.tick().await;
            let catalog = self.catalog();
            for id in self.quote_topics() {
                let Some(inst) = catalog.by_id.get(&id) else {
                    continue;
                };
                let market = inst.market();
                if !real.contains(&market) {
                    continue;
                }
                if backoff
                    .get(&market)
                    .is_some_and(|(_, until)| tokio::time::Instant::now() < *until)
                {
                    continue;
                }
                let ok = self
                    .poll_quote(inst, Utc::now())
                    .await
                    .is_some_and(|q| q.state != QuoteState::Stale);
                if ok {
                    backoff.remove(&market);
                } else {
                    let wait = backoff
                        .get(&market)
                        .map_or(BACKOFF_START, |(w, _)| (*w * 2).min(BACKOFF_MAX));
                    backoff.insert(market, (wait, tokio::time::Instant::now() + wait));
                }
            }
        }
    }

    async fn persist_quotes(&self) {
        let quotes: Vec<Quote> = self
            .quotes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        if let Err(e) = self.storage.upsert_quotes(&quotes).await {
            tracing::warn!(error = %e, "could not store quotes");
        }
    }

    /// Writes missing daily history up to the last finished session: the first start
    /// backfills `backfill_years` for every instrument, later runs add the days since.
    pub async fn catch_up_history(&self) -> anyhow::Result<()> {
        let started = std::time::Instant::now();
        let now = Utc::now();
        let latest: HashMap<InstrumentId, NaiveDate> = self
            .storage
            .latest_candle_dates()
            .await?
            .into_iter()
            .collect();
        let catalog = self.catalog();
        let mut instruments: Vec<&Arc<Instrument>> = catalog.by_id.values().collect();
        instruments.sort_by(|a, b| a.id.cmp(&b.id));
        let total = instruments.len();
        let (mut written, mut failed) = (0usize, 0usize);
        let mut last_report = 0;
        for (n, inst) in instruments.into_iter().enumerate() {
            let market = inst.market();
            let today = calendar::local_date(market, now);
            let last_done = last_finished_session(market, now);
            let from = match latest.get(&inst.id) {
                Some(d) => *d + chrono::Duration::days(1),
                None => backfill_start(today, self.config.backfill_years),
            };
            if from > last_done {
                continue;
            }
            let slot = self.slot(inst);
            let candles = if slot.kind == ProviderKind::Simulator {
                Ok(self.simulator.daily(inst, from, last_done))
            } else {
                slot.provider.daily_candles(inst, from, last_done).await
            };
            match candles {
                Ok(candles) => {
                    self.storage
                        .upsert_daily_candles(&inst.id, &candles, slot.kind.as_str())
                        .await?;
                    written += candles.len();
                    if slot.kind != ProviderKind::Simulator {
                        // The simulator's dividends are computed on demand; a real
                        // provider's are stored for the days fetched.
                        self.store_corporate_actions(inst, &*slot.provider, from, last_done)
                            .await;
                    }
                    if inst.kind == Kind::Currency {
                        let rates = self.simulator_fx(inst, &candles);
                        self.storage
                            .upsert_fx_rates(&rates, slot.kind.as_str())
                            .await?;
                    }
                }
                Err(e) => {
                    failed += 1;
                    tracing::warn!(instrument = %inst.id, error = %e, "history fetch failed");
                    let _ = self
                        .storage
                        .record_provider_error(
                            market_name(market),
                            slot.kind.as_str(),
                            &e.to_string(),
                            now,
                        )
                        .await;
                }
            }
            let percent = (n + 1) * 100 / total.max(1);
            if percent >= last_report + 10 {
                last_report = percent;
                tracing::info!(percent, candles = written, "market history catch-up");
            }
        }
        if written > 0 || failed > 0 {
            tracing::info!(
                candles = written,
                failed,
                seconds = started.elapsed().as_secs_f64(),
                "market history up to date"
            );
        }
        Ok(())
    }

    /// Stores the dividends and splits a real provider reports for `from..=to`. A
    /// provider without them says so and is skipped; a failure is logged and the next
    /// catch-up asks again only for later days (the candles were stored), so it is
    /// reported to the operator as a provider error.
    async fn store_corporate_actions(
        &self,
        inst: &Instrument,
        provider: &dyn moat_market::PriceProvider,
        from: NaiveDate,
        to: NaiveDate,
    ) {
        match provider.corporate_actions(inst, from, to).await {
            Ok((dividends, splits)) => {
                let stored = async {
                    self.storage
                        .upsert_dividends(&inst.id, &dividends, provider.kind().as_str())
                        .await?;
                    self.storage
                        .upsert_splits(&inst.id, &splits, provider.kind().as_str())
                        .await
                };
                if let Err(e) = stored.await {
                    tracing::warn!(instrument = %inst.id, error = %e, "could not store dividends");
                }
            }
            Err(moat_market::ProviderError::Unsupported) => {}
            Err(e) => {
                tracing::warn!(instrument = %inst.id, error = %e, "dividend fetch failed");
                let _ = self
                    .storage
                    .record_provider_error(
                        market_name(inst.market()),
                        provider.kind().as_str(),
                        &format!("dividends: {e}"),
                        Utc::now(),
                    )
                    .await;
            }
        }
    }

    /// FX rates from a currency pair's daily candles (`FX:USDKRW` → USD in KRW).
    fn simulator_fx(&self, pair: &Instrument, candles: &[DailyCandle]) -> Vec<moat_market::FxRate> {
        let symbol = pair.ticker();
        if symbol.len() != 6 {
            return Vec::new();
        }
        let (base, quote) = symbol.split_at(3);
        candles
            .iter()
            .map(|c| moat_market::FxRate {
                date: c.date,
                base: base.to_owned(),
                quote: quote.to_owned(),
                rate: c.close,
            })
            .collect()
    }

    /// Which provider serves each market, with its last success and error.
    pub fn provider_kinds(&self) -> Vec<(&'static str, ProviderKind)> {
        let mut out: Vec<_> = self
            .providers
            .iter()
            .map(|(m, s)| (market_name(*m), s.kind))
            .collect();
        out.sort_by_key(|(m, _)| *m);
        out
    }

    pub fn storage(&self) -> &Arc<dyn MarketStorage> {
        &self.storage
    }
}

/// The date of the last session of `market` that has closed by `now`.
fn last_finished_session(market: Market, now: DateTime<Utc>) -> NaiveDate {
    let today = calendar::local_date(market, now);
    match calendar::session(market, today) {
        Some(s) if s.close <= now => today,
        _ => calendar::previous_trading_day(market, today),
    }
}

/// The first day of a backfill of `years` years before `today`.
fn backfill_start(today: NaiveDate, years: u32) -> NaiveDate {
    let year = today.year() - years as i32;
    NaiveDate::from_ymd_opt(year, today.month(), today.day().min(28)).unwrap_or(today)
}

/// The providers the configuration names, per market. Crypto follows the US
/// setting; FX quotes follow `fx` when it names a price provider, else the simulator
/// (ECB publishes daily rates, not quotes).
fn providers_for(config: &MarketConfig, simulator: &Simulator) -> HashMap<Market, ProviderSlot> {
    let sim = ProviderSlot {
        kind: ProviderKind::Simulator,
        provider: Arc::new(simulator.clone()),
    };
    let pick = |name: &str| -> ProviderSlot {
        match name {
            "yahoo" | "alpha_vantage" => real_provider(name, config).unwrap_or_else(|| sim.clone()),
            _ => sim.clone(),
        }
    };
    HashMap::from([
        (Market::Krx, pick(&config.krx)),
        (Market::Us, pick(&config.us)),
        (Market::Crypto, pick(&config.us)),
        (Market::Fx, pick(&config.fx)),
    ])
}

fn real_provider(name: &str, config: &MarketConfig) -> Option<ProviderSlot> {
    use moat_market::providers::{alpha_vantage, http, yahoo};
    match name {
        "yahoo" => Some(ProviderSlot {
            kind: ProviderKind::Yahoo,
            provider: Arc::new(yahoo::YahooProvider::new(http::client(), &config.yahoo_url)),
        }),
        "alpha_vantage" => Some(ProviderSlot {
            kind: ProviderKind::AlphaVantage,
            provider: Arc::new(alpha_vantage::AlphaVantageProvider::new(
                http::client(),
                &config.alpha_vantage_url,
                config.alpha_vantage_key.expose(),
            )),
        }),
        _ => None,
    }
}
