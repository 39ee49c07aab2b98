//! The accept loop (`moat_server::server`) on the real app, over real sockets: the
//! header-read and idle timeouts, the connection cap, WebSockets past the idle
//! timeout, HTTP/2 without TLS (h2c), and draining on shutdown. Timeouts are set short
//! in the configuration; waits for something that must happen are bounded by
//! [`PATIENCE`].

mod helpers;

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use helpers::TestApp;
use moat_server::config::Config;
use moat_storage::testing::TestDatabase;
use serde_json::{json, Value};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_tungstenite::tungstenite::Message as Frame;

/// `header_read_timeout_secs` in these tests.
const HEADER_TIMEOUT: Duration = Duration::from_secs(1);
/// `idle_timeout_secs` in these tests: well above the header timeout, so the two
/// cannot be mistaken for each other.
const IDLE_TIMEOUT: Duration = Duration::from_secs(4);
/// The longest a test waits for something that must happen.
const PATIENCE: Duration = Duration::from_secs(20);
/// How long a test watches for something that must not happen.
const QUIET: Duration = Duration::from_millis(500);

async fn spawn(tweak: impl FnOnce(&mut Config)) -> TestApp {
    TestApp::spawn_with(TestDatabase::sqlite(), |c| {
        c.header_read_timeout_secs = HEADER_TIMEOUT.as_secs();
        c.idle_timeout_secs = IDLE_TIMEOUT.as_secs();
        tweak(c);
    })
    .await
}

fn addr(app: &TestApp) -> String {
    app.base.trim_start_matches("http://").to_owned()
}

/// Reads until the server closes the connection: what it sent, and when it closed.
async fn until_closed(stream: &mut TcpStream) -> (Vec<u8>, Instant) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buf))
            .await
            .expect("the server closes the connection");
        match read {
            Ok(0) | Err(_) => return (got, Instant::now()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Reads one response of `/healthz` (a small body with a Content-Length).
async fn read_response(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if body.len() >= length {
                return text;
            }
        }
        let n = tokio::time::timeout(PATIENCE, stream.read(&mut buf))
            .await
            .expect("a response")
            .expect("read");
        assert!(n > 0, "closed before the response was complete: {text}");
        got.extend_from_slice(&buf[..n]);
    }
}

const HEALTHZ: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: moat.test\r\n\r\n";

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_header_timeout() {
    let app = spawn(|_| {}).await;
    let started = Instant::now();
    let mut silent = TcpStream::connect(addr(&app)).await.unwrap();
    let (sent, closed) = until_closed(&mut silent).await;
    assert!(sent.is_empty(), "closed without a response");
    let waited = closed - started;
    assert!(
        waited >= HEADER_TIMEOUT,
        "not before the timeout: {waited:?}"
    );
    assert!(
        waited < IDLE_TIMEOUT,
        "by the header timeout, not the idle one: {waited:?}"
    );
}

#[tokio::test]
async fn a_request_head_trickled_in_is_closed_after_the_header_timeout() {
    let app = spawn(|_| {}).await;
    let mut slow = TcpStream::connect(addr(&app)).await.unwrap();
    let started = Instant::now();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: moat.test\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let mut line = 0;
    let closed = loop {
        assert!(started.elapsed() < PATIENCE, "the server closes a trickle");
        // One more header line every 100 ms, as a slowloris client sends them.
        if slow
            .write_all(format!("X-Trickle-{line}: a\r\n").as_bytes())
            .await
            .is_err()
        {
            break Instant::now();
        }
        line += 1;
        match tokio::time::timeout(Duration::from_millis(100), slow.read(&mut buf)).await {
            Err(_) => continue,
            Ok(Ok(0) | Err(_)) => break Instant::now(),
            Ok(Ok(n)) => panic!(
                "no response to an unfinished head: {}",
                String::from_utf8_lossy(&buf[..n])
            ),
        }
    };
    let waited = closed - started;
    assert!(waited >= HEADER_TIMEOUT, "{waited:?}");
    assert!(waited < IDLE_TIMEOUT, "{waited:?}");
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let app = spawn(|_| {}).await;
    let mut client = TcpStream::connect(addr(&app)).await.unwrap();
    client.write_all(HEALTHZ).await.unwrap();
    assert!(read_response(&mut client).await.starts_with("HTTP/1.1 200"));
    // Kept alive: a second request on the same connection is served.
    client.write_all(HEALTHZ).await.unwrap();
    assert!(read_response(&mut client).await.starts_with("HTTP/1.1 200"));
    let idle_since = Instant::now();
    let (sent, closed) = until_closed(&mut client).await;
    assert!(sent.is_empty(), "{}", String::from_utf8_lossy(&sent));
    let idle = closed - idle_since;
    assert!(
        idle + QUIET >= IDLE_TIMEOUT,
        "kept for the idle timeout, not the header one: {idle:?}"
    );
}

#[tokio::test]
async fn at_the_connection_cap_a_new_connection_waits_for_a_free_slot() {
    let app = spawn(|c| {
        c.max_connections = 2;
        // Nothing times out during this test.
        c.header_read_timeout_secs = PATIENCE.as_secs() * 2;
        c.idle_timeout_secs = PATIENCE.as_secs() * 2;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut c = TcpStream::connect(addr(&app)).await.unwrap();
        c.write_all(HEALTHZ).await.unwrap();
        assert!(read_response(&mut c).await.starts_with("HTTP/1.1 200"));
        held.push(c);
    }
    let mut third = TcpStream::connect(addr(&app)).await.unwrap();
    third.write_all(HEALTHZ).await.unwrap();
    let mut buf = [0u8; 64];
    assert!(
        tokio::time::timeout(QUIET, third.read(&mut buf))
            .await
            .is_err(),
        "the third connection is not served while two are open"
    );
    drop(held.pop());
    assert!(
        read_response(&mut third).await.starts_with("HTTP/1.1 200"),
        "served once a slot is free"
    );
}

#[tokio::test]
async fn a_websocket_stays_open_past_the_idle_timeout() {
    let app = spawn(|_| {}).await;
    let url = format!("{}/api/stream", app.base.replacen("http://", "ws://", 1));
    let (mut socket, response) = tokio_tungstenite::connect_async(url).await.unwrap();
    assert_eq!(response.status(), 101);
    // A kept-alive HTTP connection opened after the socket: once the idle timeout has
    // closed it, the socket has been idle longer than that.
    let mut witness = TcpStream::connect(addr(&app)).await.unwrap();
    witness.write_all(HEALTHZ).await.unwrap();
    read_response(&mut witness).await;
    until_closed(&mut witness).await;
    socket
        .send(Frame::text(json!({"op": "ping"}).to_string()))
        .await
        .expect("the socket is still open");
    let reply = loop {
        match tokio::time::timeout(PATIENCE, socket.next())
            .await
            .expect("a reply")
        {
            Some(Ok(Frame::Text(t))) => break serde_json::from_str::<Value>(t.as_str()).unwrap(),
            Some(Ok(Frame::Ping(_) | Frame::Pong(_))) => continue,
            other => panic!("the socket was closed: {other:?}"),
        }
    };
    assert_eq!(reply, json!({"op": "pong"}));
}

#[tokio::test]
async fn http2_without_tls_is_served_and_closed_when_idle() {
    let app = spawn(|_| {}).await;
    let stream = TcpStream::connect(addr(&app)).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .expect("an h2c handshake");
    let conn = tokio::spawn(conn);
    let request = hyper::Request::get(format!("{}/api/meta", app.base))
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.version(), hyper::Version::HTTP_2);
    use http_body_util::BodyExt;
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let meta: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(meta["default_locale"], "ko");
    let idle_since = Instant::now();
    tokio::time::timeout(PATIENCE, conn)
        .await
        .expect("the idle HTTP/2 connection is closed")
        .unwrap()
        .expect("with a GOAWAY, not an error");
    assert!(idle_since.elapsed() + QUIET >= IDLE_TIMEOUT);
}

#[tokio::test]
async fn shutdown_lets_a_request_in_flight_finish() {
    let app = spawn(|c| c.shutdown_grace_secs = PATIENCE.as_secs()).await;
    let address = addr(&app);
    let body = r#"{"email": "nobody@moat.test", "password": "not the password"}"#;
    let mut client = TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/auth/login HTTP/1.1\r\nHost: moat.test\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        body.len()
    );
    client.write_all(head.as_bytes()).await.unwrap();
    // 100 Continue: the handler is reading the body, so the request is in flight.
    let mut buf = [0u8; 256];
    let n = tokio::time::timeout(PATIENCE, client.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 100"));

    let started = Instant::now();
    let stopping = tokio::spawn(app.stop());
    // The listener closes first: new connections are refused while the old drains.
    while TcpStream::connect(&address).await.is_ok() {
        assert!(started.elapsed() < PATIENCE, "the listener closes");
        tokio::task::yield_now().await;
    }
    client.write_all(body.as_bytes()).await.unwrap();
    let (response, _) = until_closed(&mut client).await;
    let response = String::from_utf8_lossy(&response);
    assert!(
        response.starts_with("HTTP/1.1 401") || response.starts_with("HTTP/1.1 4"),
        "the request in flight got its answer: {response}"
    );
    stopping.await.unwrap().expect("a clean stop");
    assert!(
        started.elapsed() < PATIENCE,
        "drained, not cut at the grace period"
    );
}
