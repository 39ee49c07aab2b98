//! The NATS broker: core publish/subscribe only (no JetStream, no key-value: the
//! machines' server is 2.9.10, where the client's key-value API fails). One client
//! per instance subscribes to `moat.>`; the client reconnects by itself, and each
//! reconnection is passed on as [`Incoming::Reconnected`] so that receivers reconcile
//! what they may have missed while it was away.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::Duration,
};

use async_trait::async_trait;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};

use super::{Broker, Incoming, SUBJECT_PREFIX};

/// How long the first connection may take at start before Moat gives up (it then
/// keeps trying in the background and `/readyz` says the broker is down).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The client's ping interval: how soon a dead connection is noticed.
pub const PING_INTERVAL: Duration = Duration::from_secs(5);

pub struct NatsBroker {
    client: async_nats::Client,
    connected: Arc<AtomicBool>,
    /// Bumped on every connection after the first.
    reconnects: watch::Receiver<u64>,
}

impl NatsBroker {
    /// Connects to `url` (`nats://host:port`), retrying in the background when the
    /// server is not there yet.
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        let connected = Arc::new(AtomicBool::new(false));
        let (tx, reconnects) = watch::channel(0u64);
        let tx = Arc::new(tx);
        let (flag, events) = (connected.clone(), tx.clone());
        let first = Arc::new(AtomicBool::new(true));
        let client = async_nats::ConnectOptions::new()
            .name("moat")
            .ping_interval(PING_INTERVAL)
            .connection_timeout(CONNECT_TIMEOUT)
            .retry_on_initial_connect()
            .event_callback(move |event| {
                let (flag, events, first) = (flag.clone(), events.clone(), first.clone());
                async move {
                    match event {
                        async_nats::Event::Connected => {
                            flag.store(true, Ordering::Relaxed);
                            if !first.swap(false, Ordering::Relaxed) {
                                events.send_modify(|n| *n += 1);
                            }
                        }
                        async_nats::Event::Disconnected => {
                            flag.store(false, Ordering::Relaxed);
                            tracing::warn!("the broker (NATS) connection is down");
                        }
                        other => tracing::debug!(event = %other, "nats"),
                    }
                }
            })
            .connect(url)
            .await?;
        Ok(Self {
            client,
            connected,
            reconnects,
        })
    }
}

#[async_trait]
impl Broker for NatsBroker {
    fn name(&self) -> &'static str {
        "nats"
    }

    async fn publish(&self, subject: String, payload: Bytes) -> anyhow::Result<()> {
        self.client.publish(subject, payload).await?;
        Ok(())
    }

    async fn listen(&self, tx: mpsc::Sender<Incoming>) -> anyhow::Result<()> {
        let mut sub = self.client.subscribe(format!("{SUBJECT_PREFIX}>")).await?;
        let mut reconnects = self.reconnects.clone();
        tokio::spawn(async move {
            loop {
                let incoming = tokio::select! {
                    m = sub.next() => match m {
                        Some(m) => Incoming::Message {
                            subject: m.subject.to_string(),
                            payload: m.payload,
                        },
                        None => return,
                    },
                    changed = reconnects.changed() => match changed {
                        Ok(()) => Incoming::Reconnected,
                        Err(_) => return,
                    },
                };
                // Full: the oldest wait; a message that cannot be queued is lost,
                // which receivers see as a skipped number.
                if tx.send(incoming).await.is_err() {
                    return;
                }
            }
        });
        Ok(())
    }

    fn connected(&self) -> bool {
        self.connected.load(Ordering::Relaxed)
    }
}
