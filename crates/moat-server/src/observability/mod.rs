//! Moat's own observability ingest and the operator's read API (docs/observability.md).
//!
//! The area's shape: [`routes()`] (the documented routes: the operator console's
//! `/api/operator/observe/…` and the member's `PUT /api/observe/sessions/{secure_id}/member`)
//! and [`ingest_routes()`] (`POST /public`, `/v1/traces`, `/v1/metrics`, outside the
//! OpenAPI document); `handlers/` (one file per resource, thin), [`dto`] (the
//! console's request and response types), [`service`] (the application logic, no axum
//! and no SQL: the console's queries, the member's binding, and the ingest's two
//! protocols, [`service::graphql`] for the session recorder (highlight.run) and
//! [`service::otlp`] for OTLP/HTTP in JSON or protobuf). Beside them:
//!
//! - [`spans`]: the server's own request spans, continuing a browser trace
//!   (`traceparent`), written off the request path.
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
pub mod drop_list;
pub mod dto;
mod handlers;
pub mod ingest;
pub mod limits;
mod member_data;
mod pages;
pub mod redact;
pub mod retention;
pub mod service;
pub mod spans;
pub mod vitals;

use std::{net::IpAddr, sync::Arc};

use axum::{extract::FromRef, routing::post, Router};
use moat_storage::{observability::NewSpan, ObservabilityStorage, Storage};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;
use handlers::{errors, feedback, identity, sessions, traces};

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
    pub fn start(
        config: &crate::Config,
        storage: Arc<dyn Storage>,
        install_id: String,
        clock: Arc<dyn crate::clock::Clock>,
    ) -> Self {
        let db_system = storage.backend().as_str();
        let budgets = Budgets::shared(storage.clone(), &config.observability, clock);
        let storage: Arc<dyn ObservabilityStorage> = storage;
        let observe = Observe::start(storage.clone(), &config.observability, install_id, budgets);
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

impl FromRef<AppState> for ObservabilityState {
    fn from_ref(state: &AppState) -> Self {
        state.observability.clone()
    }
}

/// Every documented route of the observability area: the operator console's reads
/// and the member's binding of a recorded session.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sessions::list_sessions))
        .routes(routes!(sessions::get_session))
        .routes(routes!(sessions::get_replay))
        .routes(routes!(errors::list_error_groups))
        .routes(routes!(errors::get_error_group))
        .routes(routes!(feedback::list_feedback))
        .routes(routes!(feedback::send_feedback))
        .routes(routes!(handlers::vitals::vitals_report))
        .routes(routes!(traces::get_trace))
        .routes(routes!(identity::bind_session))
}

/// The telemetry ingest (same origin, no auth, its own caps; see [`is_ingest_path`]),
/// outside the OpenAPI document: its bodies are the recorder's GraphQL and OTLP.
pub fn ingest_routes() -> Router<AppState> {
    Router::new()
        .route("/public", post(handlers::ingest::public))
        .route("/v1/traces", post(handlers::ingest::traces))
        .route("/v1/metrics", post(handlers::ingest::metrics))
}

/// The per-address budgets of the ingest and of direct feedback.
pub struct Budgets {
    pub ingest: Box<dyn limits::ByteBudget>,
    pub feedback: Box<dyn limits::ByteBudget>,
}

impl Budgets {
    /// The server's: in the database, shared by every instance.
    pub fn shared(
        storage: Arc<dyn moat_storage::LimitsStorage>,
        config: &ObservabilityConfig,
        clock: Arc<dyn crate::clock::Clock>,
    ) -> Self {
        Self {
            ingest: Box::new(limits::DbIpBudgets::new(
                storage.clone(),
                "ingest",
                config.ip_budget_bytes_per_hour,
                limits::IP_WINDOW,
                clock.clone(),
            )),
            feedback: Box::new(limits::DbIpBudgets::new(
                storage,
                "feedback",
                service::FEEDBACK_PER_IP_PER_HOUR,
                service::FEEDBACK_WINDOW,
                clock,
            )),
        }
    }

    /// In memory, per instance.
    pub fn in_memory(config: &ObservabilityConfig) -> Self {
        Self {
            ingest: Box::new(limits::IpBudgets::new(
                config.ip_budget_bytes_per_hour,
                limits::IP_WINDOW,
            )),
            feedback: Box::new(limits::IpBudgets::new(
                service::FEEDBACK_PER_IP_PER_HOUR,
                service::FEEDBACK_WINDOW,
            )),
        }
    }
}

/// The ingest's shared state: limits, budgets and the span writer's queue.
pub struct Observe {
    pub config: ObservabilityConfig,
    permits: Arc<Semaphore>,
    /// Bytes each client address may send per hour.
    pub ip_budgets: Box<dyn limits::ByteBudget>,
    /// Direct feedback (`POST /api/feedback`) each client address may send per hour.
    pub feedback_budgets: Box<dyn limits::ByteBudget>,
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
        budgets: Budgets,
    ) -> Arc<Self> {
        let (tx, rx) = mpsc::channel(SPAN_QUEUE);
        tokio::spawn(spans::write_spans(storage, rx, SPAN_BATCH));
        Arc::new(Self {
            config: config.clone(),
            permits: Arc::new(Semaphore::new(config.ingest_concurrency)),
            ip_budgets: budgets.ingest,
            feedback_budgets: budgets.feedback,
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
