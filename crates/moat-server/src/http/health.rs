//! Liveness and readiness for load balancers and orchestrators.

use axum::{extract::State, http::StatusCode};
use serde::Serialize;

use super::{
    error::{ApiError, ErrorCode},
    json::ApiJson,
};
use crate::AppState;

#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    /// Always `ok` while the process serves requests.
    status: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct Readiness {
    /// `ready` when the database answers and its schema is current.
    status: &'static str,
    /// `sqlite` or `postgres`.
    database: &'static str,
    /// Number of applied migrations.
    migrations: usize,
    /// `in-process` or `nats` (crate::broker).
    broker: &'static str,
    /// Whether the broker answers now. A broker that is down does not make the
    /// instance unready: it serves from the database and catches up when the broker
    /// is back (docs/scale-out.md).
    broker_connected: bool,
}

/// The process is alive.
#[utoipa::path(get, path = "/healthz", tag = "ops", responses((status = 200, body = Health)))]
pub async fn healthz() -> ApiJson<Health> {
    ApiJson(Health { status: "ok" })
}

/// The database is reachable and every migration is applied.
#[utoipa::path(get, path = "/readyz", tag = "ops", responses(
    (status = 200, body = Readiness),
    (status = 503, body = super::error::ErrorBody),
))]
pub async fn readyz(State(state): State<AppState>) -> Result<ApiJson<Readiness>, ApiError> {
    let not_ready = |message: &str| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::NotReady,
            message,
        )
    };
    if let Err(e) = state.storage.ping().await {
        tracing::warn!(error = %e, "readiness: database unreachable");
        return Err(not_ready("The database is not reachable."));
    }
    let status = state
        .storage
        .migration_status()
        .await
        .map_err(|_| not_ready("The migration state cannot be read."))?;
    if !status.is_current() {
        return Err(not_ready("Database migrations are not applied."));
    }
    Ok(ApiJson(Readiness {
        status: "ready",
        database: state.storage.backend().as_str(),
        migrations: status.applied.len(),
        broker: state.bus.broker_name(),
        broker_connected: state.bus.connected(),
    }))
}
