//! Fetching feeds and images over HTTP, politely and within limits: conditional GET
//! (`If-None-Match`, `If-Modified-Since` with the validators exactly as received), a
//! cap on the decompressed body (so a gzip bomb stops at the cap like a plain 50 MB
//! body), a deadline for the whole exchange (a server that never finishes), a cap on
//! redirects (loops end there), and per host: a limit of requests in flight, a gap
//! between two requests' starts, and the host's `Retry-After`.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use bytes::{Bytes, BytesMut};
use chrono::{DateTime, Utc};
use reqwest::{header, StatusCode};
use tokio::{sync::Semaphore, time::Instant};

use crate::news::NewsConfig;

/// The least gap between two requests to one of SEC's hosts: its fair-access policy
/// allows 10 requests per second per address.
pub const SEC_MIN_INTERVAL: Duration =
    Duration::from_millis(1000 / moat_news::user_agent::SEC_MAX_REQUESTS_PER_SEC as u64);
/// How long a connection may take to open.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// What a feed fetch accepts.
const FEED_ACCEPT: &str = "application/rss+xml, application/atom+xml, application/feed+json, \
     application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.1";
/// What an image fetch accepts.
const IMAGE_ACCEPT: &str = "image/webp, image/jpeg, image/png;q=0.9";

/// The limits of one fetcher.
#[derive(Clone, Debug)]
pub struct FetchLimits {
    pub max_concurrent: usize,
    pub per_host_concurrency: usize,
    pub per_host_interval: Duration,
    pub timeout: Duration,
    pub max_redirects: usize,
}

impl FetchLimits {
    pub fn from_config(config: &NewsConfig) -> Self {
        Self {
            max_concurrent: config.max_concurrent_fetches,
            per_host_concurrency: config.per_host_concurrency,
            per_host_interval: Duration::from_millis(config.per_host_interval_ms),
            timeout: Duration::from_secs(config.fetch_timeout_secs),
            max_redirects: config.max_redirects,
        }
    }
}

/// The validators a feed's last successful fetch returned.
#[derive(Clone, Debug, Default)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// A successful exchange.
#[derive(Debug)]
pub enum Fetched {
    /// 304: the feed has not changed since the validators.
    NotModified,
    /// 2xx with its body (decompressed, within the cap).
    Body {
        bytes: Bytes,
        content_type: Option<String>,
        validators: Validators,
    },
}

/// Why a fetch failed; `Display` is the operator's English error text.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("HTTP {status}")]
    Status {
        status: u16,
        /// The server's `Retry-After`, clamped.
        retry_after: Option<Duration>,
    },
    #[error("no answer within {0} s")]
    Timeout(u64),
    #[error("the body is larger than {0} bytes")]
    TooLarge(u64),
    #[error("too many redirects (a loop, or more than {0})")]
    Redirects(usize),
    #[error("cannot connect: {0}")]
    Connect(String),
    #[error("the host asked to wait (Retry-After) until {0}")]
    HostWaiting(DateTime<Utc>),
    #[error("not an image: {0}")]
    NotImage(String),
    #[error("{0}")]
    Other(String),
}

impl FetchError {
    /// The wait the server asked for, if it did.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// One host's politeness state.
struct Host {
    in_flight: Semaphore,
    /// When the next request to this host may start.
    next_start: Mutex<Instant>,
    /// The host's `Retry-After`: no request before this.
    waiting_until: Mutex<Option<(Instant, DateTime<Utc>)>>,
}

/// The news area's HTTP client.
pub struct Fetcher {
    client: reqwest::Client,
    limits: FetchLimits,
    global: Semaphore,
    hosts: Mutex<HashMap<String, Arc<Host>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Fetcher {
    pub fn new(limits: FetchLimits, user_agent: &str) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .user_agent(user_agent)
            .connect_timeout(CONNECT_TIMEOUT.min(limits.timeout))
            .timeout(limits.timeout)
            .redirect(reqwest::redirect::Policy::limited(limits.max_redirects))
            // Feeds are fetched from their own addresses, never through a proxy the
            // environment names by accident.
            .no_proxy()
            .build()?;
        Ok(Self {
            client,
            global: Semaphore::new(limits.max_concurrent),
            limits,
            hosts: Mutex::new(HashMap::new()),
        })
    }

    fn host(&self, host: &str) -> Arc<Host> {
        lock(&self.hosts)
            .entry(host.to_owned())
            .or_insert_with(|| {
                Arc::new(Host {
                    in_flight: Semaphore::new(self.limits.per_host_concurrency),
                    next_start: Mutex::new(Instant::now()),
                    waiting_until: Mutex::new(None),
                })
            })
            .clone()
    }

    fn interval_for(&self, host: &str) -> Duration {
        if moat_news::user_agent::host_is_sec(host) {
            self.limits.per_host_interval.max(SEC_MIN_INTERVAL)
        } else {
            self.limits.per_host_interval
        }
    }

    /// Fetches a feed, conditionally.
    pub async fn feed(
        &self,
        url: &str,
        validators: &Validators,
        max_bytes: u64,
    ) -> Result<Fetched, FetchError> {
        self.get(url, FEED_ACCEPT, Some(validators), max_bytes)
            .await
    }

    /// Fetches an image (its type is checked by the caller from its bytes).
    pub async fn image(&self, url: &str, max_bytes: u64) -> Result<Bytes, FetchError> {
        match self.get(url, IMAGE_ACCEPT, None, max_bytes).await? {
            Fetched::Body {
                bytes,
                content_type,
                ..
            } => {
                if let Some(ct) = &content_type {
                    if !ct.starts_with("image/") {
                        return Err(FetchError::NotImage(ct.clone()));
                    }
                }
                Ok(bytes)
            }
            Fetched::NotModified => Err(FetchError::Other("304 without validators".into())),
        }
    }

    async fn get(
        &self,
        url: &str,
        accept: &str,
        validators: Option<&Validators>,
        max_bytes: u64,
    ) -> Result<Fetched, FetchError> {
        let parsed =
            url::Url::parse(url).map_err(|e| FetchError::Other(format!("bad URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(FetchError::Other("only http and https are fetched".into()));
        }
        let host_name = parsed.host_str().unwrap_or_default().to_ascii_lowercase();
        let host = self.host(&host_name);
        if let Some((until, at)) = *lock(&host.waiting_until) {
            if Instant::now() < until {
                return Err(FetchError::HostWaiting(at));
            }
        }
        let _global = self
            .global
            .acquire()
            .await
            .map_err(|_| FetchError::Other("closed".into()))?;
        let _slot = host
            .in_flight
            .acquire()
            .await
            .map_err(|_| FetchError::Other("closed".into()))?;
        let start = {
            let mut next = lock(&host.next_start);
            let start = (*next).max(Instant::now());
            *next = start + self.interval_for(&host_name);
            start
        };
        tokio::time::sleep_until(start).await;

        let mut request = self.client.get(parsed).header(header::ACCEPT, accept);
        if let Some(v) = validators {
            if let Some(etag) = &v.etag {
                request = request.header(header::IF_NONE_MATCH, etag);
            }
            if let Some(lm) = &v.last_modified {
                request = request.header(header::IF_MODIFIED_SINCE, lm);
            }
        }
        let timeout_secs = self.limits.timeout.as_secs();
        let map_err = |e: reqwest::Error| -> FetchError {
            if e.is_timeout() {
                FetchError::Timeout(timeout_secs)
            } else if e.is_redirect() {
                FetchError::Redirects(self.limits.max_redirects)
            } else if e.is_connect() {
                FetchError::Connect(root_cause(&e))
            } else {
                FetchError::Other(root_cause(&e))
            }
        };
        let mut response = request.send().await.map_err(map_err)?;
        let status = response.status();
        if status == StatusCode::NOT_MODIFIED {
            return Ok(Fetched::NotModified);
        }
        if !status.is_success() {
            let retry_after = response
                .headers()
                .get(header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| moat_news::schedule::parse_retry_after(v, Utc::now()));
            if let (Some(wait), true) = (
                retry_after,
                status == StatusCode::TOO_MANY_REQUESTS
                    || status == StatusCode::SERVICE_UNAVAILABLE,
            ) {
                let at = Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
                *lock(&host.waiting_until) = Some((Instant::now() + wait, at));
            }
            return Err(FetchError::Status {
                status: status.as_u16(),
                retry_after,
            });
        }
        if let Some(len) = response.content_length() {
            if len > max_bytes {
                return Err(FetchError::TooLarge(max_bytes));
            }
        }
        let header_text = |name: header::HeaderName| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let validators = Validators {
            etag: header_text(header::ETAG),
            last_modified: header_text(header::LAST_MODIFIED),
        };
        let content_type = header_text(header::CONTENT_TYPE);
        let mut body = BytesMut::new();
        // Chunks arrive decompressed: the cap holds for a gzip bomb as for a plain body.
        while let Some(chunk) = response.chunk().await.map_err(map_err)? {
            if body.len() as u64 + chunk.len() as u64 > max_bytes {
                return Err(FetchError::TooLarge(max_bytes));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Fetched::Body {
            bytes: body.freeze(),
            content_type,
            validators,
        })
    }
}

/// The innermost cause of an error, for the operator (reqwest's outer text is
/// "error sending request for url (…)").
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause: &(dyn std::error::Error + 'static) = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}
