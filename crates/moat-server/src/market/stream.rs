//! The live stream: one WebSocket per browser tab at `/api/stream`, multiplexed by
//! topic (`quote:KRX:005930`; later areas add `chat:…`). JSON text frames, see
//! docs/market.md.
//!
//! One `broadcast` channel per topic, made on first subscription and dropped with its
//! last subscriber. Each socket has two tasks: a reader that answers the client's
//! frames, and a writer that owns the socket's sending half and listens to the
//! socket's topics (a `StreamMap` of broadcast receivers) and to the reader's bounded
//! command queue. The writer sends every frame that is ready and then flushes once,
//! so a tick that moves eight of a client's instruments costs one write, not eight.
//! Broadcasting never waits for a subscriber: one that falls behind (its socket full,
//! its writer stalled) finds its receivers lagged and skips to the newest quotes, and
//! so never slows the others. Connections are capped by a semaphore.

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
use tokio_stream::{wrappers::BroadcastStream, StreamMap};

use super::routes::QuoteDto;
use crate::{http::error::ApiError, AppState};

/// Topics one socket may subscribe to at once.
pub const MAX_TOPICS_PER_SOCKET: usize = 64;
/// Messages a topic keeps for slow subscribers before they skip ahead.
pub const TOPIC_CAPACITY: usize = 16;
/// Replies and commands queued from a socket's reader to its writer; a client whose
/// queue is full (it sends faster than it reads) is disconnected.
pub const SOCKET_QUEUE: usize = 256;
/// Most frames one socket's writer sends before it flushes.
const FRAMES_PER_FLUSH: usize = 64;
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

/// What a socket's reader asks its writer to do.
enum Command {
    Send(Message),
    /// Start forwarding a topic; `last` is the frame already sent for it, so that the
    /// first push does not repeat it.
    Watch {
        topic: String,
        rx: broadcast::Receiver<Utf8Bytes>,
        last: Option<Utf8Bytes>,
    },
    Unwatch(Vec<String>),
}

/// The socket's writer: sends replies and the pushes of its topics, batching what is
/// ready into one flush, and pings when idle.
async fn write_loop(
    hub: Arc<Hub>,
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut commands: mpsc::Receiver<Command>,
) {
    use futures_util::{FutureExt, SinkExt, StreamExt};
    let mut topics: StreamMap<String, BroadcastStream<Utf8Bytes>> = StreamMap::new();
    let mut last: HashMap<String, Utf8Bytes> = HashMap::new();
    let mut ping = tokio::time::interval(PING_INTERVAL);
    ping.tick().await;
    // Applies one event; returns the frame to send, if any, and whether to stop.
    let mut apply = |event: Event, topics: &mut StreamMap<_, _>| -> (Option<Message>, bool) {
        match event {
            Event::Command(None) => (None, true),
            Event::Command(Some(Command::Send(m))) => (Some(m), false),
            Event::Command(Some(Command::Watch {
                topic,
                rx,
                last: sent,
            })) => {
                if let Some(frame) = sent {
                    last.insert(topic.clone(), frame);
                }
                topics.insert(topic, BroadcastStream::new(rx));
                (None, false)
            }
            Event::Command(Some(Command::Unwatch(names))) => {
                for name in &names {
                    topics.remove(name);
                    last.remove(name);
                }
                hub.prune();
                (None, false)
            }
            // Lagged: the quotes missed are skipped; a newer one follows.
            Event::Push(_, Err(_)) => (None, false),
            Event::Push(topic, Ok(frame)) => {
                if last.get(&topic) == Some(&frame) {
                    return (None, false);
                }
                last.insert(topic, frame.clone());
                (Some(Message::Text(frame)), false)
            }
            Event::Ping => (Some(Message::Ping(Default::default())), false),
        }
    };
    'socket: loop {
        let first = tokio::select! {
            c = commands.recv() => Event::Command(c),
            Some((t, f)) = topics.next(), if !topics.is_empty() => Event::Push(t, f),
            _ = ping.tick() => Event::Ping,
        };
        let mut pending = 0;
        let mut event = Some(first);
        while let Some(e) = event.take() {
            let (message, stop) = apply(e, &mut topics);
            if let Some(m) = message {
                if sink.feed(m).await.is_err() {
                    break 'socket;
                }
                pending += 1;
            }
            if stop {
                let _ = sink.flush().await;
                break 'socket;
            }
            if pending >= FRAMES_PER_FLUSH {
                break;
            }
            // Whatever else is ready now goes into the same flush.
            event = match commands.try_recv() {
                Ok(c) => Some(Event::Command(Some(c))),
                Err(mpsc::error::TryRecvError::Disconnected) => Some(Event::Command(None)),
                Err(mpsc::error::TryRecvError::Empty) => topics
                    .next()
                    .now_or_never()
                    .flatten()
                    .map(|(t, f)| Event::Push(t, f)),
            };
        }
        if pending > 0 && sink.flush().await.is_err() {
            break;
        }
    }
    drop(topics);
    hub.prune();
}

enum Event {
    Command(Option<Command>),
    Push(
        String,
        Result<Utf8Bytes, tokio_stream::wrappers::errors::BroadcastStreamRecvError>,
    ),
    Ping,
}

async fn serve(state: AppState, socket: WebSocket, _permit: OwnedSemaphorePermit) {
    use futures_util::StreamExt;
    let (sink, mut stream) = socket.split();
    let (out_tx, out_rx) = mpsc::channel::<Command>(SOCKET_QUEUE);
    let writer = tokio::spawn(write_loop(state.market.hub.clone(), sink, out_rx));
    let send = |m: Message| out_tx.try_send(Command::Send(m));
    let mut subscriptions: std::collections::HashSet<String> = Default::default();
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
            let _ = send(Message::Text(error_frame(
                "abuse",
                "Too many messages or errors: closing the connection.",
            )));
            let _ = send(Message::Close(Some(axum::extract::ws::CloseFrame {
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
                let _ = send(Message::Text(error_frame(
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
                    subscriptions.remove(t);
                }
                let reply = frame(serde_json::json!({ "op": "unsubscribed", "topics": topics }));
                if out_tx.try_send(Command::Unwatch(topics)).is_err() {
                    break;
                }
                reply
            }
            Ok(ClientMessage::Subscribe { topics }) => {
                let Some((reply, bad)) =
                    subscribe(&state, &mut subscriptions, topics, &out_tx).await
                else {
                    break;
                };
                errors += bad;
                reply
            }
        };
        if send(Message::Text(reply)).is_err() {
            break;
        }
    }
    drop(out_tx);
    // Let the writer flush what is queued (a closing frame), but not for long.
    let _ = tokio::time::timeout(Duration::from_secs(1), writer).await;
    state.market.hub.prune();
}

async fn subscribe(
    state: &AppState,
    subscriptions: &mut std::collections::HashSet<String>,
    topics: Vec<String>,
    out: &mpsc::Sender<Command>,
) -> Option<(Utf8Bytes, usize)> {
    let service = &state.market;
    let send = |m: Message| out.try_send(Command::Send(m));
    let mut added = Vec::new();
    let mut errors = 0;
    let total = topics.len();
    for (n, topic) in topics.into_iter().enumerate() {
        if subscriptions.contains(&topic) {
            added.push(topic);
            continue;
        }
        if subscriptions.len() >= MAX_TOPICS_PER_SOCKET {
            // One error for the rest of the batch.
            errors += 1;
            let _ = send(Message::Text(error_frame(
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
            let _ = send(Message::Text(error_frame(
                "unknown_topic",
                &format!("There is no topic {topic:?}."),
            )));
            continue;
        };
        let rx = service.hub.subscribe(&topic);
        // The current quote at once, then every change.
        let mut last = None;
        if let Some(q) = service.quote(&instrument).await {
            let frame = quote_frame(&topic, &q);
            let _ = send(Message::Text(frame.clone()));
            last = Some(frame);
        }
        // A full queue means the client reads nothing: it is disconnected.
        if out
            .try_send(Command::Watch {
                topic: topic.clone(),
                rx,
                last,
            })
            .is_err()
        {
            return None;
        }
        subscriptions.insert(topic.clone());
        added.push(topic);
    }
    Some((
        frame(serde_json::json!({ "op": "subscribed", "topics": added })),
        errors,
    ))
}
