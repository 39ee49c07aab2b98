//! The accept loop: HTTP/1.1 and h2c (HTTP/2 with prior knowledge) on one port, with
//! upgrades (the `/api/stream` WebSocket), a connection cap and two timeouts that
//! `axum::serve` does not have.
//!
//! - **Connection cap** (`max_connections`): every open socket holds a permit of one
//!   semaphore, WebSockets included (the permit lives in the socket, so it follows an
//!   upgraded connection to its WebSocket). At the cap the loop stops accepting until
//!   a socket closes: new clients wait in the kernel's backlog instead of being
//!   refused, and get in as soon as a slot frees.
//! - **Header-read timeout** (`header_read_timeout_secs`): a request head must arrive
//!   complete within this time of the connection being accepted, or of its first byte
//!   on a kept-alive connection. A connection that sends nothing, or trickles its
//!   head, is closed.
//! - **Idle timeout** (`idle_timeout_secs`): a kept-alive connection with no request
//!   in flight and no new request started is closed after this time (gracefully:
//!   an HTTP/2 client gets a GOAWAY). It never applies while a request is in flight
//!   (its response still streaming) nor to an upgraded socket: the WebSocket has left
//!   the HTTP connection and keeps itself alive with pings.
//!
//! hyper's own HTTP/1 header timeout is not used: it also runs while a kept-alive
//! connection waits for its next request, so it could not be shorter than the idle
//! timeout. Instead each connection has an [`Activity`] record (fed by its socket's
//! reads and by its requests and responses) and a watchdog that closes it when its
//! phase has lasted too long.
//!
//! Shutdown: the loop stops accepting (the listener is closed), every connection is
//! told to finish its in-flight requests and close, and [`serve`] returns when all
//! have, or when the grace period is over.

use std::{
    convert::Infallible,
    future::Future,
    io,
    net::SocketAddr,
    pin::Pin,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::{body::Body, extract::ConnectInfo, Router};
use bytes::Bytes;
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::conn::auto,
};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::{watch, Notify, OwnedSemaphorePermit, Semaphore},
    time::Instant,
};
use tower::Service;

/// How long the loop waits before accepting again after an error that is not about
/// one connection (e.g. out of file descriptors), so it does not spin.
pub const ACCEPT_ERROR_BACKOFF: Duration = Duration::from_secs(1);

/// The limits of [`serve`] (from the top-level configuration).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time a request head may take to arrive (see the module comment).
    pub header_read_timeout: Duration,
    /// Time a kept-alive connection may sit without a request.
    pub idle_timeout: Duration,
    /// Sockets open at once.
    pub max_connections: usize,
    /// Time in-flight requests get to finish once shutdown begins.
    pub shutdown_grace: Duration,
}

impl Limits {
    pub fn from_config(config: &crate::Config) -> Self {
        Self {
            header_read_timeout: Duration::from_secs(config.header_read_timeout_secs),
            idle_timeout: Duration::from_secs(config.idle_timeout_secs),
            max_connections: config.max_connections,
            shutdown_grace: Duration::from_secs(config.shutdown_grace_secs),
        }
    }
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains (see the
/// module comment). Handlers see the peer address as `ConnectInfo<SocketAddr>`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // Our watchdog times heads (see the module comment); hyper's would need a timer.
    builder.http1().header_read_timeout(None);
    let builder = Arc::new(builder);
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    // Each connection holds a receiver: `send(true)` asks them to finish, and
    // `closed()` resolves when the last one has.
    let (drain_tx, drain_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            biased;
            () = &mut shutdown => break,
            permit = permits.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let (stream, peer) = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    tracing::error!(error = %e, "cannot accept connections");
                    tokio::time::sleep(ACCEPT_ERROR_BACKOFF).await;
                    continue;
                }
            },
        };
        tokio::spawn(connection(
            builder.clone(),
            stream,
            peer,
            permit,
            router.clone(),
            limits,
            drain_rx.clone(),
        ));
    }
    drop(listener);
    drop(drain_rx);
    tracing::info!("shutting down: draining in-flight requests");
    let _ = drain_tx.send(true);
    if tokio::time::timeout(limits.shutdown_grace, drain_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!("grace period over, closing remaining connections");
    }
}

/// Errors of one connection that was never established; the next accept is fine.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Serves one connection until it ends, is upgraded, times out or is drained.
async fn connection(
    builder: Arc<auto::Builder<TokioExecutor>>,
    stream: TcpStream,
    peer: SocketAddr,
    permit: OwnedSemaphorePermit,
    router: Router,
    limits: Limits,
    mut drain: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Tracked {
        inner: stream,
        activity: activity.clone(),
        _permit: permit,
    });
    let service = hyper::service::service_fn({
        let activity = activity.clone();
        move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let in_flight = activity.begin(request.version() == hyper::Version::HTTP_2);
            let response = router.clone().call(request);
            async move {
                let response = match response.await {
                    Ok(r) => r,
                    Err(never) => match never {},
                };
                Ok::<_, Infallible>(response.map(|body| InFlightBody {
                    inner: body,
                    _in_flight: in_flight,
                }))
            }
        }
    });
    let conn = builder.serve_connection_with_upgrades(io, service);
    tokio::pin!(conn);
    let mut closing = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "connection ended with an error");
                }
                return;
            }
            _ = drain.changed(), if !closing => {
                conn.as_mut().graceful_shutdown();
                closing = true;
            }
            expired = activity.expired(limits), if !closing => match expired {
                // Mid-head: nothing to finish; dropping the connection closes it.
                Expired::Head => return,
                Expired::Idle => {
                    conn.as_mut().graceful_shutdown();
                    closing = true;
                }
            },
        }
    }
}

/// Where a connection is in its request cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Waiting for a request head to arrive, since the instant: the connection was
    /// accepted, or a kept-alive connection received its next request's first byte.
    Head(Instant),
    /// Requests whose responses have not been sent completely.
    Busy(usize),
    /// No request since the instant the last response was sent.
    Idle(Instant),
}

/// Which timeout ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expired {
    Head,
    Idle,
}

/// One connection's phase, and a signal for its watchdog when it changes.
struct Activity {
    phase: Mutex<Phase>,
    changed: Notify,
    /// HTTP/2 frames between requests (pings, settings) are not a request's head.
    http2: AtomicBool,
}

impl Activity {
    fn new() -> Self {
        Self {
            phase: Mutex::new(Phase::Head(Instant::now())),
            changed: Notify::new(),
            http2: AtomicBool::new(false),
        }
    }

    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the phase in one step (requests of an HTTP/2 connection begin and end on
    /// several threads) and wakes the watchdog when it changed.
    fn update(&self, next: impl FnOnce(Phase) -> Phase) {
        let mut phase = self.phase();
        let new = next(*phase);
        let changed = new != *phase;
        *phase = new;
        drop(phase);
        if changed {
            self.changed.notify_waiters();
        }
    }

    /// Bytes arrived: on an idle HTTP/1 connection, a new request has begun.
    fn received(&self) {
        if self.http2.load(Ordering::Relaxed) {
            return;
        }
        self.update(|phase| match phase {
            Phase::Idle(_) => Phase::Head(Instant::now()),
            other => other,
        });
    }

    /// A request head was read; the connection is busy until the guard is dropped
    /// (with the response's body, once it is sent or abandoned).
    fn begin(self: &Arc<Self>, http2: bool) -> InFlight {
        if http2 {
            self.http2.store(true, Ordering::Relaxed);
        }
        self.update(|phase| match phase {
            Phase::Busy(n) => Phase::Busy(n + 1),
            Phase::Head(_) | Phase::Idle(_) => Phase::Busy(1),
        });
        InFlight(self.clone())
    }

    fn end(&self) {
        self.update(|phase| match phase {
            Phase::Busy(n) if n > 1 => Phase::Busy(n - 1),
            _ => Phase::Idle(Instant::now()),
        });
    }

    /// Resolves when the current phase has lasted longer than its limit.
    async fn expired(&self, limits: Limits) -> Expired {
        loop {
            // Registered before the phase is read, so no change is missed.
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let phase = *self.phase();
            let (deadline, what) = match phase {
                Phase::Head(since) => (since + limits.header_read_timeout, Expired::Head),
                Phase::Idle(since) => (since + limits.idle_timeout, Expired::Idle),
                Phase::Busy(_) => {
                    changed.await;
                    continue;
                }
            };
            tokio::select! {
                () = tokio::time::sleep_until(deadline) => {
                    if *self.phase() == phase {
                        return what;
                    }
                }
                () = changed => {}
            }
        }
    }
}

/// A request in flight; dropping it ends it.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// A response body that keeps its request in flight until it is dropped.
struct InFlightBody {
    inner: Body,
    _in_flight: InFlight,
}

impl http_body::Body for InFlightBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// The socket: reports reads to its [`Activity`] and holds the connection's permit
/// for as long as it is open (also after an upgrade).
struct Tracked {
    inner: TcpStream,
    activity: Arc<Activity>,
    _permit: OwnedSemaphorePermit,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.received();
        }
        result
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
