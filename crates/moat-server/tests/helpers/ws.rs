//! A WebSocket client of the live hub (docs/stream.md) for tests: connect,
//! authenticate, subscribe, read frames, wait for the close.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::Method;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message as Frame;

use super::{send, signup, TestApp};

/// The longest a test waits for something the server does in the background.
pub const PATIENCE: Duration = Duration::from_secs(10);

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub fn stream_url(app: &TestApp) -> String {
    format!("{}/api/stream", app.base.replacen("http://", "ws://", 1))
}

pub async fn connect(app: &TestApp) -> Socket {
    let (socket, response) = tokio_tungstenite::connect_async(stream_url(app))
        .await
        .expect("the stream accepts the connection");
    assert_eq!(response.status(), 101);
    socket
}

pub async fn send_json(socket: &mut Socket, value: Value) {
    socket
        .send(Frame::text(value.to_string()))
        .await
        .expect("send a frame");
}

/// The next JSON text frame within `wait`, or `None` when none came.
pub async fn next_json(socket: &mut Socket, wait: Duration) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let frame = tokio::time::timeout_at(deadline, socket.next())
            .await
            .ok()?;
        match frame {
            Some(Ok(Frame::Text(t))) => {
                return Some(serde_json::from_str(t.as_str()).expect("JSON frames"))
            }
            Some(Ok(Frame::Ping(_) | Frame::Pong(_))) => continue,
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

/// Reads frames until one has `op`; returns it (panics after [`PATIENCE`]).
pub async fn until_op(socket: &mut Socket, op: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    loop {
        let wait = deadline.saturating_duration_since(tokio::time::Instant::now());
        match next_json(socket, wait).await {
            Some(f) if f["op"] == op => return f,
            Some(f) => seen.push(f),
            None => panic!("no {op} frame; frames so far: {seen:#?}"),
        }
    }
}

/// Sends one frame and returns the first answer with one of `ops`.
pub async fn ask(socket: &mut Socket, value: Value, ops: &[&str]) -> Value {
    send_json(socket, value).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let wait = deadline.saturating_duration_since(tokio::time::Instant::now());
        let f = next_json(socket, wait).await.expect("an answer");
        if ops.iter().any(|op| f["op"] == *op) {
            return f;
        }
    }
}

/// Subscribes to one topic; the `subscribed` frame and the errors before it.
pub async fn subscribe(socket: &mut Socket, topic: &str) -> (Value, Vec<Value>) {
    send_json(socket, json!({"op": "subscribe", "topics": [topic]})).await;
    let mut errors = Vec::new();
    loop {
        let f = next_json(socket, PATIENCE).await.expect("an answer");
        match f["op"].as_str() {
            Some("subscribed") => return (f, errors),
            Some("error") => errors.push(f),
            _ => {}
        }
    }
}

/// Subscribing to `topic` is refused with one `forbidden` error.
pub async fn assert_forbidden(socket: &mut Socket, topic: &str, why: &str) {
    let (subscribed, errors) = subscribe(socket, topic).await;
    assert_eq!(subscribed["topics"], json!([]), "{why}");
    assert_eq!(errors.len(), 1, "{why}: {errors:#?}");
    assert_eq!(errors[0]["code"], "forbidden", "{why}");
    assert!(
        errors[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains(topic)),
        "{why}: names the topic: {}",
        errors[0]
    );
}

pub async fn authenticate(socket: &mut Socket, token: &str) -> Value {
    ask(
        socket,
        json!({"op": "auth", "token": token}),
        &["authed", "error"],
    )
    .await
}

pub async fn user_id(app: &TestApp, token: &str) -> i64 {
    let me: Value = send(app, Method::GET, "/api/me", Some(token), None)
        .await
        .json()
        .await
        .unwrap();
    me["user_id"].as_i64().expect("a user id")
}

/// A member with a socket authenticated as them: token, id, socket.
pub async fn member_socket(app: &TestApp, email: &str, nickname: &str) -> (String, i64, Socket) {
    let token = signup(app, email, nickname).await;
    let id = user_id(app, &token).await;
    let mut socket = connect(app).await;
    let authed = authenticate(&mut socket, &token).await;
    assert_eq!(authed, json!({"op": "authed", "member": id}));
    (token, id, socket)
}

/// Waits for the server to close the socket; the close code and reason.
pub async fn closed_with(socket: &mut Socket, within: Duration) -> (u16, String) {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => panic!("the socket was not closed within {within:?}"),
            Ok(Some(Ok(Frame::Close(Some(c))))) => {
                return (u16::from(c.code), c.reason.as_str().to_owned())
            }
            Ok(Some(Ok(Frame::Close(None)))) => panic!("closed without a code"),
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => panic!("closed without a close frame: {e}"),
            Ok(None) => panic!("closed without a close frame"),
        }
    }
}
