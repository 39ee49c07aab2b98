//! Quotes: computed on request for simulated instruments, polled from real providers
//! (kept, marked stale, when they fail), held in memory and published on change.

use std::{sync::Arc, time::Duration};

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)
use chrono::{DateTime, Utc};
use moat_market::{Instrument, InstrumentId, Kind, Quote, QuoteState};

use super::{market_name, MarketService};
use crate::http::error::{ApiError, ErrorCode};

impl MarketService {
    /// The latest quote: computed now for simulated instruments, else the last polled
    /// one while it is younger than `poll_secs`; an older one (or none) is asked for
    /// again, and kept, marked stale, when the provider fails. Only the instance
    /// holding the polling lease asks the provider; another answers what the leader
    /// shared and asks the leader to poll the instrument.
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
        if !self.is_quote_leader() && !self.renew_lease().await {
            self.bus
                .publish(super::INTEREST_CHANNEL, "ids", &[instrument.id.to_string()]);
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

    /// Reads the held quote of `id` under the lock quotes are published under, so
    /// that what `read` makes of it agrees with the topic's `seq`.
    pub(in crate::market) fn with_quote<R>(
        &self,
        id: &InstrumentId,
        read: impl FnOnce(&Quote) -> R,
    ) -> Option<R> {
        let quotes = self.quotes.read().unwrap_or_else(|e| e.into_inner());
        quotes.get(id).map(read)
    }

    /// Asks a real provider for a quote; on failure marks the last one stale.
    pub(super) async fn poll_quote(
        &self,
        instrument: &Instrument,
        now: DateTime<Utc>,
    ) -> Option<Quote> {
        let slot = self.slot(instrument);
        let market = market_name(instrument.market());
        self.polled
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(instrument.id.clone(), tokio::time::Instant::now());
        self.provider_requests
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match slot.provider.quote(instrument, now).await {
            Ok(quote) => {
                let _ = self
                    .storage
                    .record_provider_success(market, slot.kind.as_str(), now)
                    .await;
                if self.accept_quote(quote.clone()) {
                    self.share_quote(&quote);
                }
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
                    self.share_quote(q);
                }
                drop(quotes);
                stale
            }
        }
    }

    /// Recomputes a simulated instrument's quote at `now`, pushing it if it changed.
    pub(in crate::market) fn simulate_quote(&self, instrument: &Instrument, now: DateTime<Utc>) {
        self.accept_quote(self.simulator.quote_at(instrument, now));
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

    /// A real quote the leader polled, taken as if polled here.
    pub(super) fn take_shared_quote(&self, quote: Quote) {
        self.polled
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(quote.instrument_id.clone(), tokio::time::Instant::now());
        self.accept_quote(quote);
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
}

/// The latest quote of `instrument`, or `quote_unavailable` (503) while its source has
/// given no price yet.
pub async fn available_quote(
    service: &MarketService,
    instrument: &Instrument,
) -> Result<Quote, ApiError> {
    service.quote(instrument).await.ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::QuoteUnavailable,
            "No price is available for this instrument yet.",
        )
    })
}
