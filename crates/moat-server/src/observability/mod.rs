//! Moat's own observability ingest and the operator's read API (docs/observability.md).
//!
//! - [`graphql`]: `POST /public`, the session recorder's (highlight.run) GraphQL
//!   operations: sessions, replay pushes, identity, properties, feedback, metrics.
//! - [`otlp`]: `POST /v1/traces` and `/v1/metrics`, OTLP/HTTP in JSON or protobuf.
//! - [`spans`]: the server's own request spans, continuing a browser trace
//!   (`traceparent`), written off the request path.
//! - [`console`]: `/api/operator/observe/…`, what the operator console reads.
//! - [`identity`]: `PUT /api/observe/sessions/{secure_id}/member`, the member's own
//!   binding of a recorded session (the recorder's `identifySession` is only a claim).
//! - [`retention`]: deletes data older than `observe.retention_days`.
//! - [`ingest`], [`limits`], [`drop_list`], [`redact`], [`vitals`]: the pure parts.
//!
//! Ingest work is bounded: a semaphore of `observe.ingest_concurrency` slots (a
//! request waits [`limits::QUEUE_WAIT`] for one, then gets 503 with `Retry-After`),
//! body caps before and after decompression, a budget of decompressed bytes shared by
//! all requests (`observe.max_decompressed_in_flight_bytes`; past it, 503 with
//! `Retry-After`), a byte budget per session (stored) and per client address (in
//! memory, per instance).

mod config;
pub mod console;
pub mod drop_list;
pub mod graphql;
pub mod identity;
pub mod ingest;
pub mod limits;
mod member_data;
pub mod otlp;
mod pages;
pub mod redact;
pub mod retention;
pub mod spans;
pub mod vitals;

use std::{net::IpAddr, sync::Arc};

use axum::extract::FromRef;
use moat_storage::{observability::NewSpan, ObservabilityStorage, Storage};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

pub use config::ObservabilityConfig;
pub use member_data::ObservabilityExport;
pub use pages::PAGES;

/// Spans waiting for the writer; past this, new spans are dropped (never waited for).
const SPAN_QUEUE: usize = 4096;
/// Spans written per storage call.
const SPAN_BATCH: usize = 256;

/// What the observability handlers reach: the area's storage and the ingest's limits,
/// budgets and span writer.
#[derive(Clone)]
pub struct ObservabilityState {
    pub storage: Arc<dyn ObservabilityStorage>,
    pub observe: Arc<Observe>,
    /// `sqlite` or `postgres`: the `db.system` of the server's database spans.
    pub db_system: &'static str,
}

impl ObservabilityState {
    /// Sets up the ingest and starts its span writer. `install_id` salts the stored
    /// client-address hashes.
    pub fn start(config: &crate::Config, storage: Arc<dyn Storage>, install_id: String) -> Self {
        let db_system = storage.backend().as_str();
        let storage: Arc<dyn ObservabilityStorage> = storage;
        let observe = Observe::start(storage.clone(), &config.observability, install_id);
        Self {
            storage,
            observe,
            db_system,
        }
    }

    /// The retention job: deletes what is older than `retention_days`, hourly.
    pub fn spawn_jobs(&self) {
        retention::spawn(self.storage.clone(), self.observe.config.retention_days);
    }
}

impl FromRef<crate::AppState> for ObservabilityState {
    fn from_ref(state: &crate::AppState) -> Self {
        state.observability.clone()
    }
}

/// The ingest's shared state: limits, budgets and the span writer's queue.
pub struct Observe {
    pub config: ObservabilityConfig,
    permits: Arc<Semaphore>,
    pub ip_budgets: limits::IpBudgets,
    /// Decompressed bytes held by all ingest requests at once.
    pub inflate: limits::DecompressionBudget,
    /// Salt of the stored client-address hashes (the install id).
    ip_salt: String,
    spans: mpsc::Sender<NewSpan>,
}

impl Observe {
    /// Sets up the ingest and starts the span writer (a task that ends when the
    /// last `Observe` is dropped).
    pub fn start(
        storage: Arc<dyn ObservabilityStorage>,
        config: &ObservabilityConfig,
        ip_salt: String,
    ) -> Arc<Self> {
        let (tx, rx) = mpsc::channel(SPAN_QUEUE);
        tokio::spawn(spans::write_spans(storage, rx, SPAN_BATCH));
        Arc::new(Self {
            config: config.clone(),
            permits: Arc::new(Semaphore::new(config.ingest_concurrency)),
            ip_budgets: limits::IpBudgets::new(config.ip_budget_bytes_per_hour, limits::IP_WINDOW),
            inflate: limits::DecompressionBudget::new(config.max_decompressed_in_flight_bytes),
            ip_salt,
            spans: tx,
        })
    }

    /// An ingest slot, or `None` when none frees up within [`limits::QUEUE_WAIT`].
    pub async fn slot(&self) -> Option<OwnedSemaphorePermit> {
        tokio::time::timeout(limits::QUEUE_WAIT, self.permits.clone().acquire_owned())
            .await
            .ok()?
            .ok()
    }

    /// Ingest slots free now (tests wait on it instead of sleeping).
    pub fn free_slots(&self) -> usize {
        self.permits.available_permits()
    }

    /// Queues a span for the writer; drops it when the queue is full.
    pub fn record_span(&self, span: NewSpan) {
        if self.spans.try_send(span).is_err() {
            tracing::debug!("span queue full: a server span was dropped");
        }
    }

    /// The stored form of a client address: a salted SHA-256, 16 hex digits.
    pub fn hash_ip(&self, ip: IpAddr) -> String {
        let mut h = Sha256::new();
        h.update(self.ip_salt.as_bytes());
        h.update(b"|");
        h.update(ip.to_string().as_bytes());
        h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The ingest's paths (not under `/api`; they check their own body caps).
pub fn is_ingest_path(path: &str) -> bool {
    matches!(path, "/public" | "/v1/traces" | "/v1/metrics")
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Nanoseconds since the Unix epoch, now.
pub fn now_ns() -> i64 {
    chrono::Utc::now()
        .timestamp_nanos_opt()
        .unwrap_or_else(|| now_ms().saturating_mul(1_000_000))
}
