//! The background jobs: catalogue refresh, history catch-up, simulator ticks,
//! real-provider polling and quote persistence.

use std::{collections::HashMap, sync::Arc, time::Duration};

use chrono::{Datelike, NaiveDate, Utc};
use moat_market::{
    calendar, DailyCandle, FxRate, Instrument, InstrumentId, Kind, Market, PriceProvider,
    ProviderError, ProviderKind, Quote, QuoteState,
};

use super::{history::last_finished_session, market_name, MarketService};

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
/// Longest wait between a failing real provider's retries.
pub const BACKOFF_MAX: Duration = Duration::from_secs(30 * 60);

impl MarketService {
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
                    self.simulate_quote(inst, now);
                }
            }
        }
    }

    /// Polls real providers for subscribed instruments every `poll_secs`, backing
    /// off per market after failures, while this instance holds the polling lease
    /// (service::cluster).
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
        tokio::spawn(self.clone().lease_loop());
        let mut backoff: HashMap<Market, (Duration, tokio::time::Instant)> = HashMap::new();
        let mut tick = tokio::time::interval(Duration::from_secs(self.config.poll_secs));
        loop {
            tick.tick().await;
            if !self.is_quote_leader() && !self.renew_lease().await {
                continue;
            }
            let catalog = self.catalog();
            for id in self.instruments_to_poll() {
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
                        let rates = fx_rates_of(inst, &candles);
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
        provider: &dyn PriceProvider,
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
            Err(ProviderError::Unsupported) => {}
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
}

/// FX rates from a currency pair's daily candles (`FX:USDKRW` → USD in KRW).
fn fx_rates_of(pair: &Instrument, candles: &[DailyCandle]) -> Vec<FxRate> {
    let symbol = pair.ticker();
    if symbol.len() != 6 {
        return Vec::new();
    }
    let (base, quote) = symbol.split_at(3);
    candles
        .iter()
        .map(|c| FxRate {
            date: c.date,
            base: base.to_owned(),
            quote: quote.to_owned(),
            rate: c.close,
        })
        .collect()
}

/// The first day of a backfill of `years` years before `today`.
fn backfill_start(today: NaiveDate, years: u32) -> NaiveDate {
    let year = today.year() - years as i32;
    NaiveDate::from_ymd_opt(year, today.month(), today.day().min(28)).unwrap_or(today)
}
