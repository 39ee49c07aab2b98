//! Live quotes on the hub (crate::hub, docs/stream.md): the `quote:` topic policy and
//! its publisher. `quote:<instrument id>` (`quote:KRX:005930`) is public; subscribing
//! sends the current quote at once, then each change (op `quote`, data a `QuoteDto`).

use std::sync::{Arc, Weak};

use moat_market::{Instrument, InstrumentId, Quote};

use super::{dto::QuoteDto, MarketService};
use crate::hub::{Access, Hub, Pushed, TopicPolicy};

pub use crate::hub::{
    MAX_CLIENT_FRAME, MAX_ERRORS_PER_SOCKET, MAX_FRAMES_PER_SECOND, MAX_TOPICS_PER_SOCKET,
    PING_INTERVAL, SOCKET_BUFFER, SOCKET_QUEUE, TOPIC_CAPACITY,
};

/// Topic prefix of live quotes.
pub const QUOTE_TOPIC: &str = "quote:";
/// The `op` of a quote frame.
pub const QUOTE_OP: &str = "quote";

fn topic_of(id: &InstrumentId) -> String {
    format!("{QUOTE_TOPIC}{id}")
}

/// The `quote:` topics: public, one per instrument in the catalogue.
pub struct QuoteTopics(pub Weak<MarketService>);

#[async_trait::async_trait]
impl TopicPolicy for QuoteTopics {
    fn access(&self, topic: &str) -> Option<Access> {
        let service = self.0.upgrade()?;
        let id = topic
            .strip_prefix(QUOTE_TOPIC)?
            .parse::<InstrumentId>()
            .ok()?;
        service.instrument(&id).map(|_| Access::Public)
    }

    async fn snapshot(&self, topic: &str, hub: &Hub) -> Option<Pushed> {
        let service = self.0.upgrade()?;
        let id = topic
            .strip_prefix(QUOTE_TOPIC)?
            .parse::<InstrumentId>()
            .ok()?;
        let instrument = service.instrument(&id)?;
        service.stream_snapshot(&instrument, topic, hub).await
    }
}

impl MarketService {
    /// Registers the `quote:` topics on the hub.
    pub fn register_topics(self: &Arc<Self>) {
        self.hub()
            .register(QUOTE_TOPIC, Arc::new(QuoteTopics(Arc::downgrade(self))));
    }

    /// Publishes a quote to its topic's subscribers here, if any (real quotes reach
    /// the other instances on the market's own bus channel, service::cluster).
    pub(super) fn publish_quote(&self, quote: &Quote) {
        self.hub().publish_local(
            &topic_of(&quote.instrument_id),
            QUOTE_OP,
            &QuoteDto::from(quote),
        );
    }

    /// Instruments somebody is watching.
    pub fn quote_topics(&self) -> Vec<InstrumentId> {
        self.hub()
            .topics_with_prefix(QUOTE_TOPIC)
            .iter()
            .filter_map(|t| t.strip_prefix(QUOTE_TOPIC)?.parse().ok())
            .collect()
    }

    /// The current quote of a new subscriber, numbered with the topic's latest `seq`:
    /// the quote is brought up to date first (a change is published to the others),
    /// then read under the lock quotes are published under, so quote and seq agree.
    async fn stream_snapshot(
        &self,
        instrument: &Instrument,
        topic: &str,
        hub: &Hub,
    ) -> Option<Pushed> {
        if self.is_simulated(instrument) {
            self.simulate_quote(instrument, chrono::Utc::now());
        } else {
            self.quote(instrument).await?;
        }
        self.with_quote(&instrument.id, |quote| {
            hub.current(topic, QUOTE_OP, &QuoteDto::from(quote))
        })
    }
}
