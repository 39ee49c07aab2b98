//! Events between instances (docs/scale-out.md): one [`Broker`] trait, in-process by
//! default ([`LocalBroker`]) and NATS core publish/subscribe when `broker_url` is set
//! ([`nats::NatsBroker`]). The database stays the source of truth; a message is a
//! doorbell carrying its topic and a sequence number, plus the small payload the
//! receiver needs to act at once. A receiver that finds a sequence number skipped, or
//! whose broker connection came back after a break, reconciles instead: the hub sends
//! its subscribers a `gap` frame (they re-fetch from the API, which reads the
//! database) and re-checks every socket's session against the database.
//!
//! The [`Bus`] sits on top of the broker: it stamps each message with this instance's
//! id (`origin`) and a per-channel sequence number, drops its own messages when they
//! come back, checks sequence numbers per (origin, channel), and hands each message to
//! the [`Channel`] registered for it (the hub's publications, revocations, quotes).

pub mod nats;

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex,
    },
};

use async_trait::async_trait;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::{broadcast, mpsc};

/// Every subject Moat uses starts with this; the channel's name follows.
pub const SUBJECT_PREFIX: &str = "moat.";
/// Largest message accepted from the broker, in bytes (NATS's default `max_payload`
/// is 1 MiB; Moat's messages are doorbells of a few hundred bytes).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// Messages queued from the broker's reader to the bus's dispatcher; past it the
/// oldest are dropped and the receivers reconcile as after a gap.
pub const INCOMING_QUEUE: usize = 8192;
/// Origins (instances) whose sequence numbers are remembered; the oldest heard-from
/// is forgotten past it (a restarted instance has a new origin).
pub const MAX_ORIGINS: usize = 1024;
/// Messages queued for the broker; past it a message is dropped (and counted), and
/// its receivers reconcile when they see its number skipped.
pub const OUTGOING_QUEUE: usize = 8192;

/// What arrives from a broker.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A message published on `subject` (by any instance, this one included).
    Message { subject: String, payload: Bytes },
    /// The connection to the broker came back after a break: messages may have been
    /// lost meanwhile.
    Reconnected,
}

/// A publish/subscribe transport between instances: at most once, in order per
/// publisher.
#[async_trait]
pub trait Broker: Send + Sync + 'static {
    /// `in-process` or `nats`.
    fn name(&self) -> &'static str;
    /// Publishes one message; an error means it was not handed to the broker.
    async fn publish(&self, subject: String, payload: Bytes) -> anyhow::Result<()>;
    /// Delivers every message under [`SUBJECT_PREFIX`], and reconnections, into `tx`
    /// until the sender is dropped.
    async fn listen(&self, tx: mpsc::Sender<Incoming>) -> anyhow::Result<()>;
    /// Whether the broker is reachable now (for `/readyz`).
    fn connected(&self) -> bool {
        true
    }
}

/// The single-binary broker: a channel inside the process. Instances built on one
/// `LocalBroker` (tests run two in one process) share its messages like NATS's.
pub struct LocalBroker {
    tx: broadcast::Sender<(String, Bytes)>,
}

impl Default for LocalBroker {
    fn default() -> Self {
        Self {
            tx: broadcast::channel(INCOMING_QUEUE).0,
        }
    }
}

#[async_trait]
impl Broker for LocalBroker {
    fn name(&self) -> &'static str {
        "in-process"
    }

    async fn publish(&self, subject: String, payload: Bytes) -> anyhow::Result<()> {
        let _ = self.tx.send((subject, payload));
        Ok(())
    }

    async fn listen(&self, tx: mpsc::Sender<Incoming>) -> anyhow::Result<()> {
        let mut rx = self.tx.subscribe();
        tokio::spawn(async move {
            loop {
                let incoming = match rx.recv().await {
                    Ok((subject, payload)) => Incoming::Message { subject, payload },
                    Err(broadcast::error::RecvError::Lagged(_)) => Incoming::Reconnected,
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                if tx.send(incoming).await.is_err() {
                    return;
                }
            }
        });
        Ok(())
    }
}

/// A message on the wire: `{"o": origin, "t": topic, "s": seq, "d": data}`.
#[derive(Serialize)]
struct OutEnvelope<'a, T: Serialize> {
    o: &'a str,
    t: &'a str,
    s: u64,
    d: &'a T,
}

#[derive(Deserialize)]
struct InEnvelope<'a> {
    #[serde(borrow)]
    o: &'a str,
    #[serde(borrow)]
    t: std::borrow::Cow<'a, str>,
    s: u64,
    #[serde(borrow)]
    d: &'a RawValue,
}

/// A receiver of one channel's messages.
pub trait Channel: Send + Sync {
    /// A message from another instance. An error (an unknown topic, data of the wrong
    /// shape) is counted and logged; nothing else happens.
    fn deliver(&self, topic: &str, data: &RawValue) -> Result<(), Rejected>;
    /// Messages of this channel may have been lost (a skipped sequence number, or the
    /// broker reconnected): reconcile from the database.
    fn reconcile(&self);
}

/// Why a message from the broker was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    #[error("the message is not a Moat envelope")]
    Malformed,
    #[error("the message is larger than {MAX_MESSAGE_BYTES} bytes")]
    TooLarge,
    #[error("no channel has this subject")]
    UnknownChannel,
    #[error("the channel has no such topic")]
    UnknownTopic,
    #[error("the data does not fit the topic")]
    BadData,
}

impl Rejected {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Malformed => "malformed",
            Self::TooLarge => "too_large",
            Self::UnknownChannel => "unknown_channel",
            Self::UnknownTopic => "unknown_topic",
            Self::BadData => "bad_data",
        }
    }
}

/// Counts for `/metrics` and tests.
#[derive(Debug, Default)]
pub struct BusStats {
    pub published: AtomicU64,
    pub publish_failed: AtomicU64,
    pub delivered: AtomicU64,
    pub rejected: AtomicU64,
    pub gaps: AtomicU64,
    pub reconnects: AtomicU64,
}

/// The instance's side of the broker: numbering, origin, channels, gap detection.
pub struct Bus {
    broker: Arc<dyn Broker>,
    origin: String,
    /// The next sequence number per channel.
    out_seq: Mutex<HashMap<&'static str, u64>>,
    /// The last sequence number seen per (origin, channel), with when it was heard
    /// (a counter, for forgetting the oldest).
    seen: Mutex<HashMap<(String, String), (u64, u64)>>,
    heard: AtomicU64,
    channels: Mutex<HashMap<&'static str, Arc<dyn Channel>>>,
    /// Encoded messages, in the order of their numbers, for the sending task.
    out_tx: mpsc::Sender<(String, Bytes)>,
    out_rx: Mutex<Option<mpsc::Receiver<(String, Bytes)>>>,
    pub stats: BusStats,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Bus {
    /// A bus over `broker` for one instance (its origin is a new random id).
    pub fn new(broker: Arc<dyn Broker>) -> Arc<Self> {
        let (out_tx, out_rx) = mpsc::channel(OUTGOING_QUEUE);
        Arc::new(Self {
            out_tx,
            out_rx: Mutex::new(Some(out_rx)),
            broker,
            origin: uuid::Uuid::new_v4().simple().to_string(),
            out_seq: Mutex::default(),
            seen: Mutex::default(),
            heard: AtomicU64::new(0),
            channels: Mutex::default(),
            stats: BusStats::default(),
        })
    }

    /// This instance's id on the broker.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    pub fn broker_name(&self) -> &'static str {
        self.broker.name()
    }

    pub fn connected(&self) -> bool {
        self.broker.connected()
    }

    /// Registers the receiver of `channel` (a name of `a-z` and `_`).
    pub fn register(&self, channel: &'static str, receiver: Arc<dyn Channel>) {
        lock(&self.channels).insert(channel, receiver);
    }

    /// Publishes `data` on `channel` for `topic`, numbered; returns at once (one task
    /// sends the queued messages in order). At most once: a message the broker loses
    /// shows up at the receivers as a skipped number.
    pub fn publish(&self, channel: &'static str, topic: &str, data: &impl Serialize) {
        let subject = format!("{SUBJECT_PREFIX}{channel}");
        // Numbered and queued under one lock, so that messages leave in number order.
        let mut seqs = lock(&self.out_seq);
        let seq = seqs.entry(channel).or_insert(0);
        let body = OutEnvelope {
            o: &self.origin,
            t: topic,
            s: *seq + 1,
            d: data,
        };
        let payload = match serde_json::to_vec(&body) {
            Ok(v) => Bytes::from(v),
            Err(e) => {
                tracing::error!(error = %e, channel, "cannot encode a broker message");
                return;
            }
        };
        *seq += 1;
        if self.out_tx.try_send((subject, payload)).is_err() {
            self.stats.publish_failed.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Starts listening: every message is checked and handed to its channel, in order.
    pub async fn start(self: &Arc<Self>) -> anyhow::Result<()> {
        let (tx, mut rx) = mpsc::channel(INCOMING_QUEUE);
        self.broker.listen(tx).await?;
        if let Some(mut out) = lock(&self.out_rx).take() {
            let (broker, me) = (self.broker.clone(), Arc::downgrade(self));
            tokio::spawn(async move {
                while let Some((subject, payload)) = out.recv().await {
                    let result = broker.publish(subject, payload).await;
                    let Some(bus) = me.upgrade() else { return };
                    match result {
                        Ok(()) => bus.stats.published.fetch_add(1, Ordering::Relaxed),
                        Err(e) => {
                            tracing::warn!(error = %e, "broker publish failed");
                            bus.stats.publish_failed.fetch_add(1, Ordering::Relaxed)
                        }
                    };
                }
            });
        }
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(incoming) = rx.recv().await {
                let Some(bus) = me.upgrade() else { return };
                bus.receive(incoming);
            }
        });
        Ok(())
    }

    /// Handles one incoming message or reconnection.
    pub fn receive(&self, incoming: Incoming) {
        match incoming {
            Incoming::Reconnected => {
                self.stats.reconnects.fetch_add(1, Ordering::Relaxed);
                tracing::info!("broker reconnected: reconciling from the database");
                lock(&self.seen).clear();
                let channels: Vec<_> = lock(&self.channels).values().cloned().collect();
                for c in channels {
                    c.reconcile();
                }
            }
            Incoming::Message { subject, payload } => {
                if let Err(why) = self.handle(&subject, &payload) {
                    self.stats.rejected.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(subject, reason = why.as_str(), "broker message refused");
                }
            }
        }
    }

    fn handle(&self, subject: &str, payload: &[u8]) -> Result<(), Rejected> {
        if payload.len() > MAX_MESSAGE_BYTES {
            return Err(Rejected::TooLarge);
        }
        let channel = subject
            .strip_prefix(SUBJECT_PREFIX)
            .ok_or(Rejected::UnknownChannel)?;
        let receiver = lock(&self.channels)
            .get(channel)
            .cloned()
            .ok_or(Rejected::UnknownChannel)?;
        let env: InEnvelope<'_> =
            serde_json::from_slice(payload).map_err(|_| Rejected::Malformed)?;
        if env.o == self.origin {
            return Ok(());
        }
        if env.o.is_empty() || env.o.len() > 64 || env.s == 0 {
            return Err(Rejected::Malformed);
        }
        let skipped = self.check_seq(env.o, channel, env.s);
        if skipped {
            self.stats.gaps.fetch_add(1, Ordering::Relaxed);
            tracing::info!(
                channel,
                origin = env.o,
                "broker messages were lost: reconciling"
            );
            receiver.reconcile();
        }
        receiver.deliver(&env.t, env.d)?;
        self.stats.delivered.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Records `seq` from `origin` on `channel`; true when numbers were skipped since
    /// the last one seen (the first message of an origin starts its count).
    fn check_seq(&self, origin: &str, channel: &str, seq: u64) -> bool {
        let now = self.heard.fetch_add(1, Ordering::Relaxed);
        let mut seen = lock(&self.seen);
        if seen.len() >= MAX_ORIGINS * 8 {
            if let Some(oldest) = seen
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(k, _)| k.clone())
            {
                seen.remove(&oldest);
            }
        }
        let entry = seen
            .entry((origin.to_owned(), channel.to_owned()))
            .or_insert((seq - 1, now));
        let skipped = seq > entry.0 + 1;
        // An older number (reordered or replayed) leaves the count where it is.
        if seq > entry.0 {
            *entry = (seq, now);
        }
        skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[derive(Default)]
    struct Recorder {
        got: Mutex<Vec<(String, String)>>,
        reconciled: AtomicUsize,
    }

    impl Channel for Recorder {
        fn deliver(&self, topic: &str, data: &RawValue) -> Result<(), Rejected> {
            if topic == "nope" {
                return Err(Rejected::UnknownTopic);
            }
            lock(&self.got).push((topic.to_owned(), data.get().to_owned()));
            Ok(())
        }
        fn reconcile(&self) {
            self.reconciled.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn msg(channel: &str, body: &str) -> Incoming {
        Incoming::Message {
            subject: format!("moat.{channel}"),
            payload: Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn messages_reach_their_channel_and_skipped_numbers_reconcile() {
        let bus = Bus::new(Arc::new(LocalBroker::default()));
        let rec = Arc::new(Recorder::default());
        bus.register("hub", rec.clone());
        bus.receive(msg("hub", r#"{"o":"a","t":"x","s":5,"d":{"n":1}}"#));
        bus.receive(msg("hub", r#"{"o":"a","t":"y","s":6,"d":2}"#));
        assert_eq!(
            rec.reconciled.load(Ordering::Relaxed),
            0,
            "a first number starts the count"
        );
        bus.receive(msg("hub", r#"{"o":"a","t":"x","s":8,"d":3}"#));
        assert_eq!(rec.reconciled.load(Ordering::Relaxed), 1, "7 was lost");
        // Another origin counts on its own.
        bus.receive(msg("hub", r#"{"o":"b","t":"x","s":1,"d":4}"#));
        assert_eq!(rec.reconciled.load(Ordering::Relaxed), 1);
        assert_eq!(
            *lock(&rec.got),
            vec![
                ("x".into(), r#"{"n":1}"#.into()),
                ("y".into(), "2".into()),
                ("x".into(), "3".into()),
                ("x".into(), "4".into())
            ]
        );
        bus.receive(Incoming::Reconnected);
        assert_eq!(rec.reconciled.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn bad_messages_are_refused_and_change_nothing() {
        let bus = Bus::new(Arc::new(LocalBroker::default()));
        let rec = Arc::new(Recorder::default());
        bus.register("hub", rec.clone());
        for (subject, body, why) in [
            ("moat.hub", "not json", Rejected::Malformed),
            ("moat.hub", r#"{"o":"a","t":"x"}"#, Rejected::Malformed),
            (
                "moat.hub",
                r#"{"o":"a","t":"x","s":0,"d":1}"#,
                Rejected::Malformed,
            ),
            (
                "moat.hub",
                r#"{"o":"","t":"x","s":1,"d":1}"#,
                Rejected::Malformed,
            ),
            (
                "moat.hub",
                r#"{"o":"a","t":"x","s":-1,"d":1}"#,
                Rejected::Malformed,
            ),
            (
                "moat.chat",
                r#"{"o":"a","t":"x","s":1,"d":1}"#,
                Rejected::UnknownChannel,
            ),
            (
                "other.hub",
                r#"{"o":"a","t":"x","s":1,"d":1}"#,
                Rejected::UnknownChannel,
            ),
            (
                "moat.hub",
                r#"{"o":"a","t":"nope","s":1,"d":1}"#,
                Rejected::UnknownTopic,
            ),
        ] {
            assert_eq!(
                bus.handle(subject, body.as_bytes()),
                Err(why),
                "{subject} {body}"
            );
        }
        let big = format!(
            r#"{{"o":"a","t":"x","s":2,"d":"{}"}}"#,
            "x".repeat(MAX_MESSAGE_BYTES)
        );
        assert_eq!(
            bus.handle("moat.hub", big.as_bytes()),
            Err(Rejected::TooLarge)
        );
        assert!(lock(&rec.got).is_empty());
    }

    #[tokio::test]
    async fn an_instance_ignores_its_own_messages_and_hears_the_others() {
        let broker: Arc<dyn Broker> = Arc::new(LocalBroker::default());
        let (a, b) = (Bus::new(broker.clone()), Bus::new(broker));
        let (ra, rb) = (Arc::new(Recorder::default()), Arc::new(Recorder::default()));
        a.register("hub", ra.clone());
        b.register("hub", rb.clone());
        a.start().await.unwrap();
        b.start().await.unwrap();
        a.publish("hub", "t:1", &serde_json::json!({"k": 1}));
        for _ in 0..100 {
            if !lock(&rb.got).is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(*lock(&rb.got), vec![("t:1".into(), r#"{"k":1}"#.into())]);
        assert!(
            lock(&ra.got).is_empty(),
            "its own message is not delivered again"
        );
    }
}
