//! Structured logs through `tracing`: human-readable or JSON, filtered by `log_level`
//! (overridden by `RUST_LOG` when set).
//!
//! Values that come from a request (a path, a header, a provider id from the URL) are
//! logged as fields with `?value` (Debug) formatting, never in the message and never
//! with `%value` (Display): Debug writes a line break as `\n`, so a value cannot end
//! its line and forge another. JSON logs escape every field anyway.

use tracing::Subscriber;
use tracing_subscriber::{
    fmt::{self, MakeWriter},
    prelude::*,
    registry::LookupSpan,
    EnvFilter, Layer,
};

use crate::config::{Config, LogFormat};

/// Installs the global subscriber. Safe to call more than once (later calls are no-ops).
pub fn init(config: &Config) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&config.log_level))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(layer(config.log_format, std::io::stdout))
        .try_init();
}

/// The formatting layer of `format`, writing to `writer` (standard output in the
/// server; a buffer in tests).
pub fn layer<S, W>(format: LogFormat, writer: W) -> Box<dyn Layer<S> + Send + Sync>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    match format {
        LogFormat::Json => fmt::layer()
            .json()
            .flatten_event(true)
            .with_writer(writer)
            .boxed(),
        LogFormat::Pretty => fmt::layer().compact().with_writer(writer).boxed(),
    }
}
