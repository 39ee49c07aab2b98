//! Real-provider quotes on several instances (docs/scale-out.md): one instance polls,
//! chosen by a lease in the database ([`QUOTE_LEASE`]); it publishes each quote on the
//! bus's `quotes` channel, and the others take it as if they had polled it (they poll
//! nothing and publish nothing). The others tell the leader which real instruments
//! their sockets watch on the `quote_interest` channel. When the leader fails, its
//! lease runs out and the next instance to renew takes over. Simulated quotes need no
//! fan-out: every instance computes the same ones.

use std::{
    collections::HashMap,
    sync::{atomic::Ordering, Arc, Weak},
    time::Duration,
};

use moat_market::{InstrumentId, Quote};
use serde_json::value::RawValue;

use super::MarketService;
use crate::broker::{Channel, Rejected};

/// The lease of real-provider polling.
pub const QUOTE_LEASE: &str = "market.quotes";
/// How long a lease holds without renewal: a failed leader is replaced within it
/// (plus one [`LEASE_RENEW_INTERVAL`]).
pub const QUOTE_LEASE_TTL: Duration = Duration::from_secs(15);
/// How often every instance renews or tries to take the lease, and followers repeat
/// their interest.
pub const LEASE_RENEW_INTERVAL: Duration = Duration::from_secs(5);
/// How long the leader keeps polling an instrument another instance asked for
/// without hearing the request again.
pub const INTEREST_TTL: Duration = Duration::from_secs(15);
/// The bus channel of real-provider quotes.
pub const QUOTES_CHANNEL: &str = "quotes";
/// The bus channel of followers' watched instruments.
pub const INTEREST_CHANNEL: &str = "quote_interest";
/// Instruments one interest message may name.
pub const MAX_INTEREST: usize = 2000;

impl MarketService {
    /// Joins the bus: quotes and interest from the other instances come in.
    pub(super) fn register_channels(self: &Arc<Self>) {
        self.bus.register(
            QUOTES_CHANNEL,
            Arc::new(QuotesChannel(Arc::downgrade(self))),
        );
        self.bus.register(
            INTEREST_CHANNEL,
            Arc::new(InterestChannel(Arc::downgrade(self))),
        );
    }

    /// Whether this instance polls the real providers now.
    pub fn is_quote_leader(&self) -> bool {
        self.leader.load(Ordering::Relaxed)
    }

    /// Quotes this instance asked of real providers since it started.
    pub fn provider_requests(&self) -> u64 {
        self.provider_requests.load(Ordering::Relaxed)
    }

    /// Gives the polling lease up (a clean stop), so that another instance takes over
    /// at its next renewal rather than when the lease runs out.
    pub async fn release_lease(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        if self.leader.swap(false, Ordering::Relaxed) {
            if let Err(e) = self
                .leases
                .release_lease(QUOTE_LEASE, self.bus.origin())
                .await
            {
                tracing::warn!(error = %e, "cannot release the quote lease");
            }
        }
    }

    /// Takes or renews the polling lease; returns whether this instance holds it.
    pub(super) async fn renew_lease(&self) -> bool {
        if self.stopped.load(Ordering::Relaxed) {
            return false;
        }
        let now = chrono::Utc::now().timestamp_millis();
        let held = match self
            .leases
            .acquire_lease(
                QUOTE_LEASE,
                self.bus.origin(),
                now,
                QUOTE_LEASE_TTL.as_millis() as i64,
            )
            .await
        {
            Ok(held) => held,
            Err(e) => {
                // Unsure: stop polling rather than poll twice.
                tracing::warn!(error = %e, "cannot renew the quote lease");
                false
            }
        };
        let was = self.leader.swap(held, Ordering::Relaxed);
        if held != was {
            tracing::info!(leader = held, "real-provider quote polling lease");
        }
        held
    }

    /// Renews the lease every [`LEASE_RENEW_INTERVAL`]; a follower repeats its
    /// interest each time.
    pub(super) async fn lease_loop(self: Arc<Self>) {
        let mut tick = tokio::time::interval(LEASE_RENEW_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !self.stopped.load(Ordering::Relaxed) {
            tick.tick().await;
            if !self.renew_lease().await {
                self.send_interest();
            }
        }
    }

    /// Tells the leader which real instruments this instance's sockets watch.
    pub(super) fn send_interest(&self) {
        let ids: Vec<String> = self
            .quote_topics()
            .into_iter()
            .filter(|id| {
                self.instrument(id)
                    .is_some_and(|inst| !self.is_simulated(&inst))
            })
            .take(MAX_INTEREST)
            .map(|id| id.to_string())
            .collect();
        if !ids.is_empty() {
            self.bus.publish(INTEREST_CHANNEL, "ids", &ids);
        }
    }

    /// The real instruments to poll: those watched here, and, on the leader, those
    /// other instances asked for lately.
    pub(super) fn instruments_to_poll(&self) -> Vec<InstrumentId> {
        let mut ids = self.quote_topics();
        let mut interest = self.interest.lock().unwrap_or_else(|e| e.into_inner());
        interest.retain(|_, at| at.elapsed() < INTEREST_TTL);
        for id in interest.keys() {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        ids
    }

    /// Shares a polled (or newly stale) real quote with the other instances.
    pub(super) fn share_quote(&self, quote: &Quote) {
        self.bus
            .publish(QUOTES_CHANNEL, &quote.instrument_id.to_string(), quote);
    }
}

/// Quotes the leader polled.
struct QuotesChannel(Weak<MarketService>);

impl Channel for QuotesChannel {
    fn deliver(&self, topic: &str, data: &RawValue) -> Result<(), Rejected> {
        let service = self.0.upgrade().ok_or(Rejected::UnknownChannel)?;
        let quote: Quote = serde_json::from_str(data.get()).map_err(|_| Rejected::BadData)?;
        let id = topic
            .parse::<InstrumentId>()
            .map_err(|_| Rejected::UnknownTopic)?;
        if quote.instrument_id != id {
            return Err(Rejected::BadData);
        }
        let instrument = service.instrument(&id).ok_or(Rejected::UnknownTopic)?;
        if service.is_simulated(&instrument) {
            return Err(Rejected::UnknownTopic);
        }
        service.take_shared_quote(quote);
        Ok(())
    }

    /// A quote lost on the way is replaced by the leader's next poll; the sockets
    /// re-fetch meanwhile through the hub's own gap.
    fn reconcile(&self) {}
}

/// Instruments the followers watch.
struct InterestChannel(Weak<MarketService>);

impl Channel for InterestChannel {
    fn deliver(&self, _topic: &str, data: &RawValue) -> Result<(), Rejected> {
        let service = self.0.upgrade().ok_or(Rejected::UnknownChannel)?;
        let ids: Vec<String> = serde_json::from_str(data.get()).map_err(|_| Rejected::BadData)?;
        if ids.len() > MAX_INTEREST {
            return Err(Rejected::BadData);
        }
        if !service.is_quote_leader() {
            return Ok(());
        }
        let now = tokio::time::Instant::now();
        let mut known: HashMap<InstrumentId, tokio::time::Instant> = HashMap::new();
        for id in ids {
            let id: InstrumentId = id.parse().map_err(|_| Rejected::BadData)?;
            if service.instrument(&id).is_some() {
                known.insert(id, now);
            }
        }
        service
            .interest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(known);
        Ok(())
    }

    /// Interest is repeated every few seconds: nothing to catch up.
    fn reconcile(&self) {}
}
