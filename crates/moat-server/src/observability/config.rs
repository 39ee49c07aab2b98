//! `[observability]`: limits of the session-recording and OTLP ingest and how long
//! its data is kept (docs/observability.md).

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Section};

/// `[observability]` (formerly `[observe]`, still read).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ObservabilityConfig {
    /// Days recorded sessions, errors, metrics and spans are kept.
    pub retention_days: u32,
    /// Largest ingest request body (`/public`, `/v1/traces`, `/v1/metrics`).
    pub max_body_bytes: usize,
    /// Largest payload after decompression (a push's gzip, a gzipped OTLP body).
    pub max_decompressed_bytes: usize,
    /// Decompressed bytes all ingest requests together may hold at once; a request
    /// whose decompression would pass it gets 503 with `Retry-After`. At least
    /// `max_decompressed_bytes`.
    pub max_decompressed_in_flight_bytes: usize,
    /// Compressed bytes one recorded session may send in all; past it the recorder
    /// is told `BillingQuotaExceeded` and stops.
    pub session_budget_bytes: u64,
    /// Bytes one client address may send to the ingest per hour (per instance).
    pub ip_budget_bytes_per_hour: u64,
    /// Ingest requests processed at once; others wait up to 2 s, then get 503.
    pub ingest_concurrency: usize,
    /// Record a span for each API request that carries a W3C `traceparent`.
    pub server_spans: bool,
}

impl Default for ObservabilityConfig {
    fn default() -> Self {
        Self {
            retention_days: 30,
            max_body_bytes: 8 * 1024 * 1024,
            max_decompressed_bytes: 32 * 1024 * 1024,
            max_decompressed_in_flight_bytes: 64 * 1024 * 1024,
            session_budget_bytes: 64 * 1024 * 1024,
            ip_budget_bytes_per_hour: 1024 * 1024 * 1024,
            ingest_concurrency: 16,
            server_spans: true,
        }
    }
}

impl Section for ObservabilityConfig {
    const NAME: &'static str = "observability";
    const LEGACY_NAME: Option<&'static str> = Some("observe");
    const ENV_KEYS: &'static [&'static str] = &[
        "retention_days",
        "max_body_bytes",
        "max_decompressed_bytes",
        "max_decompressed_in_flight_bytes",
        "session_budget_bytes",
        "ip_budget_bytes_per_hour",
        "ingest_concurrency",
        "server_spans",
    ];

    fn validate(&self) -> Result<(), ConfigError> {
        let checks: [(&str, bool, &str); 7] = [
            (
                "retention_days",
                (1..=3650).contains(&self.retention_days),
                "1 to 3650",
            ),
            (
                "max_body_bytes",
                self.max_body_bytes >= 1024,
                "at least 1024",
            ),
            (
                "max_decompressed_bytes",
                self.max_decompressed_bytes >= 1024,
                "at least 1024",
            ),
            (
                "max_decompressed_in_flight_bytes",
                self.max_decompressed_in_flight_bytes >= self.max_decompressed_bytes,
                "at least max_decompressed_bytes",
            ),
            (
                "session_budget_bytes",
                self.session_budget_bytes >= 1024,
                "at least 1024",
            ),
            (
                "ip_budget_bytes_per_hour",
                self.ip_budget_bytes_per_hour >= 1024,
                "at least 1024",
            ),
            (
                "ingest_concurrency",
                self.ingest_concurrency >= 1,
                "at least 1",
            ),
        ];
        for (key, ok, rule) in checks {
            if !ok {
                return Err(ConfigError::key(&format!("observability.{key}"), rule));
            }
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[observability]
# Session recording and telemetry ingest (/public, /v1/traces, /v1/metrics).
# Days recorded sessions, errors, metrics and spans are kept.
retention_days = {retention}
# Largest ingest body, and largest payload after decompression, in bytes.
max_body_bytes = {body}
max_decompressed_bytes = {unzipped}
# Decompressed bytes all ingest requests may hold at once (at least the above); past
# it a request gets 503 with Retry-After, which the clients honour.
max_decompressed_in_flight_bytes = {in_flight}
# Compressed bytes one recorded session may send; then the recorder is told to stop.
session_budget_bytes = {session}
# Bytes one client address may send to the ingest per hour (per instance).
ip_budget_bytes_per_hour = {ip}
# Ingest requests processed at once (others wait up to 2 s, then get 503).
ingest_concurrency = {concurrency}
# Record a span for each API request that continues a browser trace (traceparent).
server_spans = {spans}
"#,
            retention = self.retention_days,
            body = self.max_body_bytes,
            unzipped = self.max_decompressed_bytes,
            in_flight = self.max_decompressed_in_flight_bytes,
            session = self.session_budget_bytes,
            ip = self.ip_budget_bytes_per_hour,
            concurrency = self.ingest_concurrency,
            spans = self.server_spans,
        )
    }
}
