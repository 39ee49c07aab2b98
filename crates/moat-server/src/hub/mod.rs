//! The live hub: one WebSocket per browser tab at `/api/stream`, multiplexed by topic
//! (docs/stream.md). The hub knows no area: areas register a [`TopicPolicy`] per topic
//! prefix (market: `quote:`; accounts: `member:`) and publish frames on their topics
//! with [`Hub::publish`].
//!
//! Topic names: `<area-prefix>:<key>` are public (`quote:KRX:005930`);
//! `member:<id>:<area>` are private to member `id` (`member:7:account`).
//!
//! - [`frames`]: the typed client and server frames
//! - [`policy`]: who may subscribe to what, and the snapshot sent on subscribing
//! - [`socket`]: the upgrade, the socket's reader and writer tasks
//!
//! One `broadcast` channel per topic, made on first subscription and dropped with its
//! last subscriber. Every published frame carries a `seq`, increasing per topic (one
//! counter for the instance, so a topic dropped and made again never goes back); a
//! subscriber that falls behind gets a `gap` frame instead of the frames it missed.
//! Authenticated sockets are registered by session so that a log-out, a password
//! change, a ban or a deletion closes them at once ([`Hub::revoke_session`],
//! [`Hub::revoke_member`]).
//!
//! Across instances (crate::broker): [`Hub::publish`] and the revocations also go out
//! on the bus (channels `hub` and `revoke`), and what other instances publish is
//! published here to this instance's subscribers ([`Hub::publish_local`], which areas
//! use for what every instance computes itself, like simulated quotes). When the bus
//! may have lost messages, every topic's subscribers get a `gap` frame (they re-fetch
//! from the API) and every authenticated socket re-checks its session at once.

pub mod frames;
pub mod policy;
pub mod socket;

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex, MutexGuard,
    },
    time::Duration,
};

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use tokio::sync::{broadcast, mpsc, Semaphore};

pub use frames::Revocation;
pub use policy::{Access, TopicPolicy};

/// Topics one socket may subscribe to at once.
pub const MAX_TOPICS_PER_SOCKET: usize = 64;
/// Frames a topic keeps for slow subscribers; one that falls further behind gets a
/// `gap` frame and continues with the frames still kept.
pub const TOPIC_CAPACITY: usize = 16;
/// Replies and commands queued from a socket's reader to its writer; a client whose
/// queue is full (it sends faster than it reads) is disconnected.
pub const SOCKET_QUEUE: usize = 256;
/// Most frames one socket's writer sends before it flushes.
pub const FRAMES_PER_FLUSH: usize = 64;
/// Read and write buffer of one socket, in bytes.
pub const SOCKET_BUFFER: usize = 8 * 1024;
/// Largest client frame accepted, in bytes.
pub const MAX_CLIENT_FRAME: usize = 4096;
/// A ping keeps idle connections (and their proxies) alive.
pub const PING_INTERVAL: Duration = Duration::from_secs(30);
/// Error frames one socket may earn (malformed frames, unknown or forbidden topics,
/// refused tokens, going over the topic cap) before the server closes it as abusive.
pub const MAX_ERRORS_PER_SOCKET: usize = 20;
/// Client frames one socket may send per second before it is closed as abusive.
pub const MAX_FRAMES_PER_SECOND: u32 = 50;
/// How often an authenticated socket checks that its session still holds: the
/// backstop for sessions ended in another process (`moat admin ban`) or instance.
/// Sessions ended through this instance's API close their sockets at once.
pub const SESSION_RECHECK_INTERVAL: Duration = Duration::from_secs(30);

/// A frame published on a topic, with its `seq`.
#[derive(Debug, Clone)]
pub struct Pushed {
    pub seq: u64,
    pub frame: Utf8Bytes,
    /// A `gap` announcement rather than a frame: each socket sends its own `gap` frame
    /// (with the last `seq` it sent on the topic).
    pub gap: bool,
}

struct Topic {
    tx: broadcast::Sender<Arc<Pushed>>,
    /// `seq` of the last frame published on the topic, 0 before the first.
    last_seq: u64,
}

/// An authenticated socket, for revocation.
struct SocketEntry {
    member: i64,
    session: String,
    close: mpsc::Sender<Revocation>,
}

/// The topics and their channels, the topic policies, the authenticated sockets and
/// the connection cap.
pub struct Hub {
    topics: Mutex<HashMap<String, Topic>>,
    policies: Mutex<Vec<(&'static str, Arc<dyn TopicPolicy>)>>,
    sockets: Mutex<HashMap<u64, SocketEntry>>,
    /// The instance's `seq` counter.
    seq: AtomicU64,
    /// Socket ids.
    next_socket: AtomicU64,
    /// [`SESSION_RECHECK_INTERVAL`], in milliseconds (tests shorten it).
    recheck_ms: AtomicU64,
    connections: Arc<Semaphore>,
    max_connections: usize,
    /// The bus to other instances, once the server has one.
    bus: std::sync::OnceLock<Arc<crate::broker::Bus>>,
    /// Bumped when every authenticated socket must re-check its session now.
    recheck_all: tokio::sync::watch::Sender<u64>,
}

/// The bus channel of the hub's publications.
pub const HUB_CHANNEL: &str = "hub";
/// The bus channel of revocations.
pub const REVOKE_CHANNEL: &str = "revoke";

/// A publication on the bus.
#[derive(Serialize, serde::Deserialize)]
struct Publication<'a, T> {
    op: &'a str,
    data: T,
}

/// A revocation on the bus (its topic is the member's id).
#[derive(Debug, Serialize, serde::Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum RevokeMessage {
    Session { jti: String },
    Member { member: i64, why: Revocation },
    Renew { old: String, new: String },
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    pub fn new(max_connections: usize) -> Self {
        Self {
            topics: Mutex::default(),
            policies: Mutex::default(),
            sockets: Mutex::default(),
            seq: AtomicU64::new(0),
            next_socket: AtomicU64::new(0),
            recheck_ms: AtomicU64::new(SESSION_RECHECK_INTERVAL.as_millis() as u64),
            connections: Arc::new(Semaphore::new(max_connections)),
            max_connections,
            bus: std::sync::OnceLock::new(),
            recheck_all: tokio::sync::watch::channel(0).0,
        }
    }

    /// Joins the bus: publications and revocations go out on it, and other
    /// instances' come in.
    pub fn attach(self: &Arc<Self>, bus: &Arc<crate::broker::Bus>) {
        if self.bus.set(bus.clone()).is_ok() {
            bus.register(HUB_CHANNEL, Arc::new(HubChannel(Arc::downgrade(self))));
            bus.register(
                REVOKE_CHANNEL,
                Arc::new(RevokeChannel(Arc::downgrade(self))),
            );
        }
    }

    fn on_bus(&self, channel: &'static str, topic: &str, data: &impl Serialize) {
        if let Some(bus) = self.bus.get() {
            bus.publish(channel, topic, data);
        }
    }

    /// Tells every subscriber of every topic here that frames may have been lost.
    pub fn announce_gaps(&self) {
        let topics = lock(&self.topics);
        for t in topics.values() {
            let _ = t.tx.send(Arc::new(Pushed {
                seq: t.last_seq,
                frame: Utf8Bytes::from_static(""),
                gap: true,
            }));
        }
    }

    /// Makes every authenticated socket re-check its session against the database now.
    pub fn recheck_sessions(&self) {
        self.recheck_all.send_modify(|n| *n += 1);
    }

    fn recheck_signal(&self) -> tokio::sync::watch::Receiver<u64> {
        self.recheck_all.subscribe()
    }

    /// Registers the policy of the topics starting with `prefix` (e.g. `"quote:"`).
    pub fn register(&self, prefix: &'static str, policy: Arc<dyn TopicPolicy>) {
        lock(&self.policies).push((prefix, policy));
    }

    fn policy(&self, topic: &str) -> Option<Arc<dyn TopicPolicy>> {
        lock(&self.policies)
            .iter()
            .find(|(prefix, _)| topic.starts_with(prefix))
            .map(|(_, p)| p.clone())
    }

    /// How often authenticated sockets opened from now on re-check their session.
    pub fn session_recheck(&self) -> Duration {
        Duration::from_millis(self.recheck_ms.load(Ordering::Relaxed))
    }

    /// Changes [`Hub::session_recheck`] (tests make it short).
    pub fn set_session_recheck(&self, every: Duration) {
        self.recheck_ms
            .store(every.as_millis().max(1) as u64, Ordering::Relaxed);
    }

    fn subscribe(&self, topic: &str) -> broadcast::Receiver<Arc<Pushed>> {
        lock(&self.topics)
            .entry(topic.to_owned())
            .or_insert_with(|| Topic {
                tx: broadcast::channel(TOPIC_CAPACITY).0,
                last_seq: 0,
            })
            .tx
            .subscribe()
    }

    /// Drops topics nobody listens to any more.
    fn prune(&self) {
        lock(&self.topics).retain(|_, t| t.tx.receiver_count() > 0);
    }

    /// Publishes `{"op": op, "topic": topic, "seq": …, "data": data}` to the topic's
    /// subscribers on every instance. Returns the frame's `seq` here, or `None` when
    /// nobody subscribes here.
    pub fn publish(&self, topic: &str, op: &str, data: &impl Serialize) -> Option<u64> {
        self.on_bus(HUB_CHANNEL, topic, &Publication { op, data });
        self.publish_local(topic, op, data)
    }

    /// [`Hub::publish`] to this instance's subscribers only. Returns the frame's `seq`,
    /// or `None` when nobody subscribes (then nothing is sent and no `seq` is used).
    pub fn publish_local(&self, topic: &str, op: &str, data: &impl Serialize) -> Option<u64> {
        let mut topics = lock(&self.topics);
        let entry = topics.get_mut(topic)?;
        // Numbered and sent under the lock: subscribers see seqs in order.
        let seq = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let frame = frames::PushFrame {
            op,
            topic,
            seq,
            data,
        }
        .text();
        entry.last_seq = seq;
        let _ = entry.tx.send(Arc::new(Pushed {
            seq,
            frame,
            gap: false,
        }));
        Some(seq)
    }

    /// A frame of `topic` carrying the topic's latest `seq` (0 before any publish), for
    /// a policy's snapshot. Make it while holding whatever lock the area publishes
    /// under, so that the data and the `seq` agree.
    pub fn current(&self, topic: &str, op: &str, data: &impl Serialize) -> Pushed {
        let seq = lock(&self.topics).get(topic).map_or(0, |t| t.last_seq);
        let frame = frames::PushFrame {
            op,
            topic,
            seq,
            data,
        }
        .text();
        Pushed {
            seq,
            frame,
            gap: false,
        }
    }

    /// The subscribed topics that start with `prefix`.
    pub fn topics_with_prefix(&self, prefix: &str) -> Vec<String> {
        lock(&self.topics)
            .iter()
            .filter(|(name, t)| t.tx.receiver_count() > 0 && name.starts_with(prefix))
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Whether anybody subscribes to `topic`.
    pub fn has_subscribers(&self, topic: &str) -> bool {
        lock(&self.topics)
            .get(topic)
            .is_some_and(|t| t.tx.receiver_count() > 0)
    }

    /// Connections open now.
    pub fn connections(&self) -> usize {
        self.max_connections - self.connections.available_permits()
    }

    /// Closes the sockets authenticated with session `jti` (log-out) with
    /// [`Revocation::SessionEnded`], on every instance.
    pub fn revoke_session(&self, jti: &str) {
        self.on_bus(
            REVOKE_CHANNEL,
            "session",
            &RevokeMessage::Session { jti: jti.into() },
        );
        self.revoke_session_here(jti);
    }

    fn revoke_session_here(&self, jti: &str) {
        for s in lock(&self.sockets).values() {
            if s.session == jti {
                let _ = s.close.try_send(Revocation::SessionEnded);
            }
        }
    }

    /// Closes every socket authenticated as `member` (password change, ban, deletion),
    /// on every instance.
    pub fn revoke_member(&self, member: i64, why: Revocation) {
        self.on_bus(
            REVOKE_CHANNEL,
            "member",
            &RevokeMessage::Member { member, why },
        );
        self.revoke_member_here(member, why);
    }

    fn revoke_member_here(&self, member: i64, why: Revocation) {
        for s in lock(&self.sockets).values() {
            if s.member == member {
                let _ = s.close.try_send(why);
            }
        }
    }

    /// Moves the sockets of session `old` to session `new` of the same member (the
    /// old session ended because a new token replaced it, e.g. after a nickname change).
    pub fn renew_session(&self, old: &str, new: &str) {
        self.on_bus(
            REVOKE_CHANNEL,
            "renew",
            &RevokeMessage::Renew {
                old: old.into(),
                new: new.into(),
            },
        );
        self.renew_session_here(old, new);
    }

    fn renew_session_here(&self, old: &str, new: &str) {
        for s in lock(&self.sockets).values_mut() {
            if s.session == old {
                new.clone_into(&mut s.session);
            }
        }
    }

    /// Authenticated sockets now open (all members).
    pub fn authenticated_sockets(&self) -> usize {
        lock(&self.sockets).len()
    }

    fn socket_id(&self) -> u64 {
        self.next_socket.fetch_add(1, Ordering::Relaxed)
    }

    fn set_identity(&self, id: u64, member: i64, session: &str, close: &mpsc::Sender<Revocation>) {
        lock(&self.sockets).insert(
            id,
            SocketEntry {
                member,
                session: session.to_owned(),
                close: close.clone(),
            },
        );
    }

    /// The session a socket acts for now (it may have been renewed).
    fn session_of(&self, id: u64) -> Option<String> {
        lock(&self.sockets).get(&id).map(|s| s.session.clone())
    }

    fn forget_socket(&self, id: u64) {
        lock(&self.sockets).remove(&id);
    }
}

/// The hub's publications from other instances.
struct HubChannel(std::sync::Weak<Hub>);

impl crate::broker::Channel for HubChannel {
    fn deliver(
        &self,
        topic: &str,
        data: &serde_json::value::RawValue,
    ) -> Result<(), crate::broker::Rejected> {
        use crate::broker::Rejected;
        let hub = self.0.upgrade().ok_or(Rejected::UnknownChannel)?;
        let p: Publication<'_, &serde_json::value::RawValue> =
            serde_json::from_str(data.get()).map_err(|_| Rejected::BadData)?;
        if p.op.is_empty() || p.op.len() > 32 {
            return Err(Rejected::BadData);
        }
        // Only topics an area knows: a message can't make up a topic.
        hub.policy(topic)
            .and_then(|policy| policy.access(topic))
            .ok_or(Rejected::UnknownTopic)?;
        hub.publish_local(topic, p.op, &p.data);
        Ok(())
    }

    fn reconcile(&self) {
        if let Some(hub) = self.0.upgrade() {
            hub.announce_gaps();
        }
    }
}

/// Revocations from other instances.
struct RevokeChannel(std::sync::Weak<Hub>);

impl crate::broker::Channel for RevokeChannel {
    fn deliver(
        &self,
        _topic: &str,
        data: &serde_json::value::RawValue,
    ) -> Result<(), crate::broker::Rejected> {
        use crate::broker::Rejected;
        let hub = self.0.upgrade().ok_or(Rejected::UnknownChannel)?;
        match serde_json::from_str(data.get()).map_err(|_| Rejected::BadData)? {
            RevokeMessage::Session { jti } => hub.revoke_session_here(&jti),
            RevokeMessage::Member { member, why } => hub.revoke_member_here(member, why),
            RevokeMessage::Renew { old, new } => hub.renew_session_here(&old, &new),
        }
        Ok(())
    }

    /// A revocation may have been lost: every socket asks the database now.
    fn reconcile(&self) {
        if let Some(hub) = self.0.upgrade() {
            hub.recheck_sessions();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishing_numbers_frames_per_topic_and_skips_unwatched_topics() {
        let hub = Hub::new(10);
        assert_eq!(hub.publish("t:a", "event", &1), None, "nobody listens");
        let mut rx = hub.subscribe("t:a");
        let _rx_b = hub.subscribe("t:b");
        let first = hub.publish("t:a", "event", &1).unwrap();
        let other = hub.publish("t:b", "event", &2).unwrap();
        let second = hub.publish("t:a", "event", &3).unwrap();
        assert!(first < other && other < second);
        let got = rx.try_recv().unwrap();
        assert_eq!(got.seq, first);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(got.frame.as_str()).unwrap(),
            serde_json::json!({"op": "event", "topic": "t:a", "seq": first, "data": 1})
        );
        assert_eq!(rx.try_recv().unwrap().seq, second);
        assert_eq!(hub.current("t:a", "event", &0).seq, second);
        assert_eq!(hub.current("t:c", "event", &0).seq, 0);
    }

    #[test]
    fn a_topic_made_again_keeps_counting_up() {
        let hub = Hub::new(10);
        let rx = hub.subscribe("t:a");
        let before = hub.publish("t:a", "event", &1).unwrap();
        drop(rx);
        hub.prune();
        assert!(!hub.has_subscribers("t:a"));
        let _rx = hub.subscribe("t:a");
        assert!(hub.publish("t:a", "event", &1).unwrap() > before);
    }
}
