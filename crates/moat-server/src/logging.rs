//! Structured logs through `tracing`: human-readable or JSON, filtered by `log_level`
//! (overridden by `RUST_LOG` when set).

use tracing_subscriber::{fmt, prelude::*, EnvFilter};

use crate::config::{Config, LogFormat};

/// Installs the global subscriber. Safe to call more than once (later calls are no-ops).
pub fn init(config: &Config) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&config.log_level))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let registry = tracing_subscriber::registry().with(filter);
    let _ = match config.log_format {
        LogFormat::Json => registry
            .with(fmt::layer().json().flatten_event(true))
            .try_init(),
        LogFormat::Pretty => registry.with(fmt::layer().compact()).try_init(),
    };
}
