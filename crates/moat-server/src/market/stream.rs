//! The live stream: one WebSocket per browser tab at `/api/stream`, multiplexed by
//! topic (`quote:KRX:005930`; later areas add `chat:…`). JSON text frames, see
//! docs/market.md.
//!
//! One `broadcast` channel per topic, made on first subscription and dropped with its
//! last subscriber. Each socket has a writer task fed by a bounded queue and one
//! forwarding task per subscribed topic. A subscriber that falls behind skips the
//! quotes it missed (broadcast lag, or a full socket queue) and so never slows the
//! others. Connections are capped by a semaphore.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    extract::{
        ws::{Message, Utf8Bytes, WebSocket},
        State, WebSocketUpgrade,
    },
    http::StatusCode,
    response::{IntoResponse, Response},
};
use moat_market::{InstrumentId, Quote};
use serde::Deserialize;
use tokio::sync::{broadcast, mpsc, OwnedSemaphorePermit, Semaphore};

use super::routes::QuoteDto;
use crate::{http::error::ApiError, AppState};

/// Topics one socket may subscribe to at once.
pub const MAX_TOPICS_PER_SOCKET: usize = 64;
/// Messages a topic keeps for slow subscribers before they skip ahead.
pub const TOPIC_CAPACITY: usize = 16;
/// Frames queued for one socket before new ones are dropped.
pub const SOCKET_QUEUE: usize = 256;
/// Read and write buffer of one socket, in bytes.
pub const SOCKET_BUFFER: usize = 8 * 1024;
/// Largest client frame accepted, in bytes.
pub const MAX_CLIENT_FRAME: usize = 4096;
/// A ping keeps idle connections (and their proxies) alive.
pub const PING_INTERVAL: Duration = Duration::from_secs(30);
/// Error frames one socket may earn (malformed frames, unknown topics, going over
/// the topic cap) before the server closes it as abusive.
pub const MAX_ERRORS_PER_SOCKET: usize = 20;
/// Client frames one socket may send per second before it is closed as abusive.
pub const MAX_FRAMES_PER_SECOND: u32 = 50;
/// WebSocket close code for a policy violation (RFC 6455 §7.4.1).
const CLOSE_POLICY_VIOLATION: u16 = 1008;
/// Topic prefix of live quotes.
pub const QUOTE_TOPIC: &str = "quote:";

/// The topics and their channels, and the connection cap.
pub struct Hub {
    topics: Mutex<HashMap<String, broadcast::Sender<Utf8Bytes>>>,
    connections: Arc<Semaphore>,
}

impl Hub {
    pub fn new(max_connections: usize) -> Self {
        Self {
            topics: Mutex::default(),
            connections: Arc::new(Semaphore::new(max_connections)),
        }
    }

    fn topics(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Utf8Bytes>>> {
        self.topics.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn subscribe(&self, topic: &str) -> broadcast::Receiver<Utf8Bytes> {
        self.topics()
            .entry(topic.to_owned())
            .or_insert_with(|| broadcast::channel(TOPIC_CAPACITY).0)
            .subscribe()
    }

    /// Drops topics nobody listens to any more.
    fn prune(&self) {
        self.topics().retain(|_, tx| tx.receiver_count() > 0);
    }

    /// Sends a frame to a topic's subscribers, if it has any.
    pub fn publish(&self, topic: &str, frame: Utf8Bytes) {
        if let Some(tx) = self.topics().get(topic) {
            let _ = tx.send(frame);
        }
    }

    pub fn publish_quote(&self, quote: &Quote) {
        let topic = format!("{QUOTE_TOPIC}{}", quote.instrument_id);
        if self.topics().contains_key(&topic) {
            self.publish(&topic, quote_frame(&topic, quote));
        }
    }

    /// Instruments somebody is watching.
    pub fn quote_topics(&self) -> Vec<InstrumentId> {
        self.topics()
            .iter()
            .filter(|(_, tx)| tx.receiver_count() > 0)
            .filter_map(|(t, _)| t.strip_prefix(QUOTE_TOPIC)?.parse().ok())
            .collect()
    }

    /// Connections open now.
    pub fn connections(&self, max: usize) -> usize {
        max - self.connections.available_permits()
    }
}

fn quote_frame(topic: &str, quote: &Quote) -> Utf8Bytes {
    serde_json::json!({ "op": "quote", "topic": topic, "data": QuoteDto::from(quote) })
        .to_string()
        .into()
}

fn frame(value: serde_json::Value) -> Utf8Bytes {
    value.to_string().into()
}

fn error_frame(code: &str, message: &str) -> Utf8Bytes {
    frame(serde_json::json!({ "op": "error", "code": code, "message": message }))
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum ClientMessage {
    Subscribe { topics: Vec<String> },
    Unsubscribe { topics: Vec<String> },
    Ping,
}

/// `GET /api/stream`: upgrades to the live stream (503 `too_many_connections` when the
/// instance is full).
pub async fn upgrade(State(state): State<AppState>, ws: WebSocketUpgrade) -> Response {
    let Ok(permit) = state.market.hub.connections.clone().try_acquire_owned() else {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too_many_connections",
            "The live stream is full; try again shortly.",
        )
        .into_response();
    };
    ws.max_message_size(MAX_CLIENT_FRAME)
        // Small per-socket buffers: the defaults (128 KiB each way) cost hundreds of
        // MB across thousands of sockets that only ever see small frames.
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |socket| serve(state, socket, permit))
}

async fn serve(state: AppState, socket: WebSocket, _permit: OwnedSemaphorePermit) {
    use futures_util::{SinkExt, StreamExt};
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Message>(SOCKET_QUEUE);
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(PING_INTERVAL);
        ping.tick().await;
        loop {
            let msg = tokio::select! {
                m = out_rx.recv() => match m { Some(m) => m, None => break },
                _ = ping.tick() => Message::Ping(Default::default()),
            };
            if sink.send(msg).await.is_err() {
                break;
            }
        }
    });
    let mut subscriptions: HashMap<String, tokio::task::JoinHandle<()>> = HashMap::new();
    let mut errors = 0usize;
    let mut window = (tokio::time::Instant::now(), 0u32);
    while let Some(Ok(msg)) = stream.next().await {
        // Abuse: too many frames a second, or too many errors, closes the socket; the
        // other sockets never notice.
        let now = tokio::time::Instant::now();
        if now.duration_since(window.0) >= Duration::from_secs(1) {
            window = (now, 0);
        }
        window.1 += 1;
        if window.1 > MAX_FRAMES_PER_SECOND || errors >= MAX_ERRORS_PER_SOCKET {
            let _ = out_tx.try_send(Message::Text(error_frame(
                "abuse",
                "Too many messages or errors: closing the connection.",
            )));
            let _ = out_tx.try_send(Message::Close(Some(axum::extract::ws::CloseFrame {
                code: CLOSE_POLICY_VIOLATION,
                reason: "too many messages or errors".into(),
            })));
            break;
        }
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                errors += 1;
                let _ = out_tx.try_send(Message::Text(error_frame(
                    "bad_message",
                    "Send JSON text frames.",
                )));
                continue;
            }
            _ => continue,
        };
        let reply = match serde_json::from_str::<ClientMessage>(text.as_str()) {
            Err(_) => {
                errors += 1;
                error_frame(
                    "bad_message",
                    "Expected {\"op\": \"subscribe\"|\"unsubscribe\"|\"ping\", …}.",
                )
            }
            Ok(ClientMessage::Ping) => frame(serde_json::json!({ "op": "pong" })),
            Ok(ClientMessage::Unsubscribe { topics }) => {
                for t in &topics {
                    if let Some(task) = subscriptions.remove(t) {
                        task.abort();
                    }
                }
                state.market.hub.prune();
                frame(serde_json::json!({ "op": "unsubscribed", "topics": topics }))
            }
            Ok(ClientMessage::Subscribe { topics }) => {
                let (reply, bad) = subscribe(&state, &mut subscriptions, topics, &out_tx).await;
                errors += bad;
                reply
            }
        };
        if out_tx.try_send(Message::Text(reply)).is_err() {
            break;
        }
    }
    for (_, task) in subscriptions {
        task.abort();
    }
    drop(out_tx);
    // Let the writer flush what is queued (a closing frame), but not for long.
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
    state.market.hub.prune();
}

async fn subscribe(
    state: &AppState,
    subscriptions: &mut HashMap<String, tokio::task::JoinHandle<()>>,
    topics: Vec<String>,
    out: &mpsc::Sender<Message>,
) -> (Utf8Bytes, usize) {
    let service = &state.market;
    let mut added = Vec::new();
    let mut errors = 0;
    let total = topics.len();
    for (n, topic) in topics.into_iter().enumerate() {
        if subscriptions.contains_key(&topic) {
            added.push(topic);
            continue;
        }
        if subscriptions.len() >= MAX_TOPICS_PER_SOCKET {
            // One error for the rest of the batch.
            errors += 1;
            let _ = out.try_send(Message::Text(error_frame(
                "too_many_subscriptions",
                &format!(
                    "At most {MAX_TOPICS_PER_SOCKET} topics per connection: {} topics from {topic:?} on were not added.",
                    total - n
                ),
            )));
            break;
        }
        let instrument = topic
            .strip_prefix(QUOTE_TOPIC)
            .and_then(|id| id.parse::<InstrumentId>().ok())
            .and_then(|id| service.instrument(&id));
        // A bad topic is reported and skipped; the rest of the batch goes on.
        let Some(instrument) = instrument else {
            errors += 1;
            let _ = out.try_send(Message::Text(error_frame(
                "unknown_topic",
                &format!("There is no topic {topic:?}."),
            )));
            continue;
        };
        let mut rx = service.hub.subscribe(&topic);
        // The current quote at once, then every change.
        let mut last = None;
        if let Some(q) = service.quote(&instrument).await {
            let frame = quote_frame(&topic, &q);
            let _ = out.try_send(Message::Text(frame.clone()));
            last = Some(frame);
        }
        let out = out.clone();
        let task = tokio::spawn(async move {
            loop {
                match rx.recv().await {
                    // A full socket queue drops this quote: a newer one follows.
                    Ok(frame) => {
                        if out.is_closed() {
                            break;
                        }
                        // The first push can repeat the quote sent on subscribing.
                        if last.as_ref() == Some(&frame) {
                            continue;
                        }
                        last = Some(frame.clone());
                        let _ = out.try_send(Message::Text(frame));
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        subscriptions.insert(topic.clone(), task);
        added.push(topic);
    }
    (
        frame(serde_json::json!({ "op": "subscribed", "topics": added })),
        errors,
    )
}
