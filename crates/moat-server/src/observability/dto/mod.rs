//! Every request and response type of the observability API (the operator console's
//! `/api/operator/observe/…`), as the OpenAPI document names them. Session, error and
//! feedback times are RFC 3339; replay and timeline times are the client's epoch
//! milliseconds, as the replay events carry them. The member's binding
//! (`PUT /api/observe/sessions/{secure_id}/member`) has no body either way.

mod errors;
mod feedback;
mod sessions;
mod traces;
mod vitals;

pub use errors::*;
pub use feedback::*;
pub use sessions::*;
pub use traces::*;
pub use vitals::*;

use chrono::{DateTime, Utc};
use serde_json::Value;

/// Epoch milliseconds as RFC 3339 with milliseconds, UTC.
pub(crate) fn rfc3339_ms(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A stored JSON column as JSON (`None` when absent or unreadable).
pub(crate) fn json_field(s: Option<&str>) -> Option<Value> {
    s.and_then(|s| serde_json::from_str(s).ok())
}
