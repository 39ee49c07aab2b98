//! News on the live hub (crate::hub, docs/news.md "Live topics"): `news:KR`,
//! `news:US` and `news:<instrument id>` (`news:KRX:005930`) are public; each new
//! article is one frame (op `new`) on its country's topic and on each linked
//! instrument's. The web app counts them ("새 기사 N건") and re-fetches on a click; a
//! subscriber that falls behind gets the hub's `gap` frame and re-fetches likewise.

use std::sync::{Arc, Weak};

use moat_market::InstrumentId;
use serde::Serialize;

use crate::{
    hub::{Access, Hub, TopicPolicy},
    market::MarketService,
    news::config::COUNTRIES,
};

/// Topic prefix of news.
pub const NEWS_TOPIC: &str = "news:";
/// The `op` of a new article's frame.
pub const NEW_OP: &str = "new";

/// The topic of a country's news.
pub fn country_topic(country: &str) -> String {
    format!("{NEWS_TOPIC}{country}")
}

/// The topic of an instrument's news.
pub fn instrument_topic(instrument_id: &str) -> String {
    format!("{NEWS_TOPIC}{instrument_id}")
}

/// The `news:` topics: a country Moat keeps news for, or an instrument of the
/// catalogue.
pub struct NewsTopics(pub Weak<MarketService>);

#[async_trait::async_trait]
impl TopicPolicy for NewsTopics {
    fn access(&self, topic: &str) -> Option<Access> {
        let key = topic.strip_prefix(NEWS_TOPIC)?;
        if COUNTRIES.contains(&key) {
            return Some(Access::Public);
        }
        let market = self.0.upgrade()?;
        let id = key.parse::<InstrumentId>().ok()?;
        // One topic per instrument: its canonical spelling only.
        let instrument = market.instrument(&id)?;
        (instrument.id.to_string() == key).then_some(Access::Public)
    }
}

/// Registers the `news:` topics on the hub.
pub fn register(hub: &Hub, market: &Arc<MarketService>) {
    hub.register(NEWS_TOPIC, Arc::new(NewsTopics(Arc::downgrade(market))));
}

/// The data of a new article's frame.
#[derive(Debug, Serialize)]
pub struct NewArticleEvent<'a> {
    pub id: i64,
    pub country: &'a str,
    pub instrument_ids: &'a [String],
}

/// Announces a new article on every instance: on its country's topic and its
/// instruments' topics.
pub fn publish_new(hub: &Hub, event: &NewArticleEvent<'_>) {
    hub.publish(&country_topic(event.country), NEW_OP, event);
    for id in event.instrument_ids {
        hub.publish(&instrument_topic(id), NEW_OP, event);
    }
}
