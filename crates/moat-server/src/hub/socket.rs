//! One socket of the live stream: the upgrade, a reader task that answers the
//! client's frames (subscriptions, `auth`, pings) and watches for revocation, and a
//! writer task that owns the socket's sending half and listens to the socket's topics
//! (a `StreamMap` of broadcast receivers) and to the reader's bounded command queue.
//! The writer sends every frame that is ready and then flushes once, so a tick that
//! moves eight of a client's instruments costs one write, not eight. Publishing never
//! waits for a subscriber: one that falls behind (its socket full, its writer stalled)
//! finds its receivers lagged, gets a `gap` frame and skips to the frames still kept,
//! and so never slows the others. Connections are capped by a semaphore.

use std::{collections::HashSet, sync::Arc, time::Duration};

use axum::{
    extract::{
        ws::{CloseFrame, Message, WebSocket},
        State, WebSocketUpgrade,
    },
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use tokio::sync::{broadcast, mpsc, OwnedSemaphorePermit};
use tokio_stream::{wrappers::BroadcastStream, StreamMap};

use super::{
    frames::{ClientFrame, Revocation, ServerFrame, CLOSE_POLICY_VIOLATION},
    Hub, Pushed, FRAMES_PER_FLUSH, MAX_CLIENT_FRAME, MAX_ERRORS_PER_SOCKET, MAX_FRAMES_PER_SECOND,
    MAX_TOPICS_PER_SOCKET, PING_INTERVAL, SOCKET_BUFFER, SOCKET_QUEUE,
};
use crate::{accounts::extract::Member, http::error::ApiError, AppState};

/// How long a closing socket's writer may take to send what is queued (a close frame).
const WRITER_DRAIN: Duration = Duration::from_secs(1);

/// `GET /api/stream`: upgrades to the live stream (503 `too_many_connections` when the
/// instance is full). With `Authorization: Bearer <token>` the socket starts
/// authenticated (a bad token: 401, no upgrade); browsers send the `auth` op instead.
pub async fn upgrade(
    State(state): State<AppState>,
    headers: HeaderMap,
    member: Result<Member, ApiError>,
    ws: WebSocketUpgrade,
) -> Response {
    let member = if headers.contains_key(header::AUTHORIZATION) {
        match member {
            Ok(m) => Some(m),
            Err(e) => return e.into_response(),
        }
    } else {
        None
    };
    let Ok(permit) = state.hub.connections.clone().try_acquire_owned() else {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            crate::http::error::ErrorCode::TooManyConnections,
            "The live stream is full; try again shortly.",
        )
        .into_response();
    };
    ws.max_message_size(MAX_CLIENT_FRAME)
        // Small per-socket buffers: the defaults (128 KiB each way) cost hundreds of
        // MB across thousands of sockets that only ever see small frames.
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |socket| serve(state, socket, permit, member))
}

/// What a socket's reader asks its writer to do.
enum Command {
    Send(Message),
    /// Start forwarding a topic; `last_seq` is the `seq` of the frame already sent for
    /// it (the snapshot), so that pushes up to it are not repeated.
    Watch {
        topic: String,
        rx: broadcast::Receiver<Arc<Pushed>>,
        last_seq: u64,
    },
    Unwatch(Vec<String>),
}

enum Event {
    Command(Option<Command>),
    Push(
        String,
        Result<Arc<Pushed>, tokio_stream::wrappers::errors::BroadcastStreamRecvError>,
    ),
    Ping,
}

/// The socket's writer: sends replies and the pushes of its topics, batching what is
/// ready into one flush, and pings when idle.
async fn write_loop(
    hub: Arc<Hub>,
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut commands: mpsc::Receiver<Command>,
) {
    use futures_util::{FutureExt, SinkExt, StreamExt};
    let mut topics: StreamMap<String, BroadcastStream<Arc<Pushed>>> = StreamMap::new();
    // The last seq sent per topic: pushes are deduplicated by seq, never by content.
    let mut sent: std::collections::HashMap<String, u64> = Default::default();
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
                last_seq,
            })) => {
                sent.insert(topic.clone(), last_seq);
                topics.insert(topic, BroadcastStream::new(rx));
                (None, false)
            }
            Event::Command(Some(Command::Unwatch(names))) => {
                for name in &names {
                    topics.remove(name);
                    sent.remove(name);
                }
                hub.prune();
                (None, false)
            }
            // Lagged, or frames lost between instances: the frames missed are
            // announced; the ones still kept follow.
            Event::Push(topic, Ok(pushed)) if pushed.gap => {
                let last_seq = sent.get(&topic).copied().unwrap_or(0);
                let gap = ServerFrame::Gap { topic, last_seq };
                (Some(Message::Text(gap.text())), false)
            }
            Event::Push(topic, Err(_)) => {
                let last_seq = sent.get(&topic).copied().unwrap_or(0);
                let gap = ServerFrame::Gap { topic, last_seq };
                (Some(Message::Text(gap.text())), false)
            }
            Event::Push(topic, Ok(pushed)) => {
                let last = sent.entry(topic).or_insert(0);
                if pushed.seq <= *last {
                    return (None, false);
                }
                *last = pushed.seq;
                (Some(Message::Text(pushed.frame.clone())), false)
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

/// Forgets an authenticated socket when its reader ends.
struct Registered<'a>(&'a Hub, u64);

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.0.forget_socket(self.1);
    }
}

fn close_message(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Whether the session socket `id` acts for still holds; the revocation if not. A
/// storage error keeps the socket (the next check decides).
async fn recheck(state: &AppState, id: u64, member: i64) -> Option<Revocation> {
    let jti = state.hub.session_of(id)?;
    match state.accounts.storage.session_with_user(&jti).await {
        Err(e) => {
            tracing::warn!(error = %e, "cannot re-check a stream session");
            None
        }
        Ok(None) => Some(Revocation::SessionEnded),
        Ok(Some(found)) if found.user.banned_at.is_some() => Some(Revocation::Banned),
        Ok(Some(found)) if found.user.deleted_at.is_some() => Some(Revocation::Deleted),
        Ok(Some(found)) => {
            (!crate::accounts::extract::session_holds(&found, member, state.accounts.auth.now()))
                .then_some(Revocation::SessionEnded)
        }
    }
}

async fn serve(
    state: AppState,
    socket: WebSocket,
    _permit: OwnedSemaphorePermit,
    member: Option<Member>,
) {
    use futures_util::StreamExt;
    let hub = state.hub.clone();
    let (sink, mut stream) = socket.split();
    let (out_tx, out_rx) = mpsc::channel::<Command>(SOCKET_QUEUE);
    let writer = tokio::spawn(write_loop(hub.clone(), sink, out_rx));
    let send = |m: Message| out_tx.try_send(Command::Send(m));
    let text = |f: ServerFrame| Message::Text(f.text());

    let id = hub.socket_id();
    let _registered = Registered(&hub, id);
    let (close_tx, mut close_rx) = mpsc::channel::<Revocation>(1);
    // The member this socket acts for, if any.
    let mut acting: Option<i64> = None;
    if let Some(m) = member {
        hub.set_identity(id, m.user.id, &m.session.jti, &close_tx);
        acting = Some(m.user.id);
    }
    let every = hub.session_recheck();
    let mut recheck_tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    recheck_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut recheck_now = hub.recheck_signal();

    let mut subscriptions: HashSet<String> = Default::default();
    let mut errors = 0usize;
    let mut window = (tokio::time::Instant::now(), 0u32);
    loop {
        let msg = tokio::select! {
            m = stream.next() => match m {
                Some(Ok(m)) => m,
                _ => break,
            },
            Some(why) = close_rx.recv() => {
                let (code, reason) = why.close();
                let _ = send(close_message(code, reason));
                break;
            }
            // On the interval, or at once when the bus may have lost a revocation.
            () = async {
                tokio::select! {
                    _ = recheck_tick.tick() => {}
                    Ok(()) = recheck_now.changed() => {}
                }
            }, if acting.is_some() => {
                if let Some(why) = recheck(&state, id, acting.unwrap_or_default()).await {
                    let (code, reason) = why.close();
                    let _ = send(close_message(code, reason));
                    break;
                }
                continue;
            }
        };
        // Abuse: too many frames a second, or too many errors, closes the socket; the
        // other sockets never notice.
        let now = tokio::time::Instant::now();
        if now.duration_since(window.0) >= Duration::from_secs(1) {
            window = (now, 0);
        }
        window.1 += 1;
        if window.1 > MAX_FRAMES_PER_SECOND || errors >= MAX_ERRORS_PER_SOCKET {
            let _ = send(text(ServerFrame::error(
                "abuse",
                "Too many messages or errors: closing the connection.",
            )));
            let _ = send(close_message(
                CLOSE_POLICY_VIOLATION,
                "too many messages or errors",
            ));
            break;
        }
        let body = match msg {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                errors += 1;
                let _ = send(text(ServerFrame::error(
                    "bad_message",
                    "Send JSON text frames.",
                )));
                continue;
            }
            _ => continue,
        };
        let reply = match serde_json::from_str::<ClientFrame>(body.as_str()) {
            Err(_) => {
                errors += 1;
                ServerFrame::error(
                    "bad_message",
                    "Expected {\"op\": \"subscribe\"|\"unsubscribe\"|\"auth\"|\"ping\", …}.",
                )
            }
            Ok(ClientFrame::Ping) => ServerFrame::Pong,
            Ok(ClientFrame::Auth { token }) => {
                match crate::accounts::extract::verify_token(&state.accounts, &token).await {
                    Ok(m) if acting.is_some_and(|a| a != m.user.id) => {
                        errors += 1;
                        ServerFrame::error(
                            "forbidden",
                            "This connection acts for another member: open a new one.",
                        )
                    }
                    Ok(m) => {
                        hub.set_identity(id, m.user.id, &m.session.jti, &close_tx);
                        acting = Some(m.user.id);
                        ServerFrame::Authed { member: m.user.id }
                    }
                    Err(e) if e.status.is_server_error() => ServerFrame::error(
                        "unavailable",
                        "The token cannot be checked now; try again shortly.",
                    ),
                    Err(_) => {
                        errors += 1;
                        ServerFrame::error(
                            "unauthorized",
                            "The token is not valid (malformed, expired or logged out); \
                             the connection carries on as before.",
                        )
                    }
                }
            }
            Ok(ClientFrame::Unsubscribe { topics }) => {
                for t in &topics {
                    subscriptions.remove(t);
                }
                let reply = ServerFrame::Unsubscribed {
                    topics: topics.clone(),
                };
                if out_tx.try_send(Command::Unwatch(topics)).is_err() {
                    break;
                }
                reply
            }
            Ok(ClientFrame::Subscribe { topics }) => {
                let Some((reply, bad)) =
                    subscribe(&hub, acting, &mut subscriptions, topics, &out_tx).await
                else {
                    break;
                };
                errors += bad;
                reply
            }
        };
        if send(text(reply)).is_err() {
            break;
        }
    }
    drop(out_tx);
    // Let the writer flush what is queued (a closing frame), but not for long.
    let _ = tokio::time::timeout(WRITER_DRAIN, writer).await;
    hub.prune();
}

/// Subscribes to each topic the socket may see; the `subscribed` reply and the number
/// of errors earned. `None` when the client reads nothing (its queue is full).
async fn subscribe(
    hub: &Arc<Hub>,
    acting: Option<i64>,
    subscriptions: &mut HashSet<String>,
    topics: Vec<String>,
    out: &mpsc::Sender<Command>,
) -> Option<(ServerFrame, usize)> {
    let send = |f: ServerFrame| out.try_send(Command::Send(Message::Text(f.text())));
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
            let _ = send(ServerFrame::error(
                "too_many_subscriptions",
                format!(
                    "At most {MAX_TOPICS_PER_SOCKET} topics per connection: {} topics from {topic:?} on were not added.",
                    total - n
                ),
            ));
            break;
        }
        let policy = hub.policy(&topic);
        let access = policy.as_ref().and_then(|p| p.access(&topic));
        // A bad topic is reported and skipped; the rest of the batch goes on.
        let (Some(policy), Some(access)) = (policy, access) else {
            errors += 1;
            let _ = send(ServerFrame::error(
                "unknown_topic",
                format!("There is no topic {topic:?}."),
            ));
            continue;
        };
        if !access.allows(acting) {
            errors += 1;
            let why = if acting.is_none() {
                "log in (send the auth op) first"
            } else {
                "it belongs to another member"
            };
            let _ = send(ServerFrame::error(
                "forbidden",
                format!("You may not subscribe to {topic:?}: {why}."),
            ));
            continue;
        }
        // Subscribed before the snapshot is taken: nothing published in between is lost.
        let rx = hub.subscribe(&topic);
        let mut last_seq = 0;
        if let Some(snapshot) = policy.snapshot(&topic, hub).await {
            let _ = out.try_send(Command::Send(Message::Text(snapshot.frame)));
            last_seq = snapshot.seq;
        }
        // A full queue means the client reads nothing: it is disconnected.
        if out
            .try_send(Command::Watch {
                topic: topic.clone(),
                rx,
                last_seq,
            })
            .is_err()
        {
            return None;
        }
        subscriptions.insert(topic.clone());
        added.push(topic);
    }
    Some((ServerFrame::Subscribed { topics: added }, errors))
}
