//! The observability area's application logic: no axum, no SQL. The console's queries
//! and the member's binding of a recorded session (one file per resource, answering
//! the area's DTOs, errors as [`ApiError`](crate::http::error::ApiError)), and the
//! ingest's two protocols, [`graphql`] and [`otlp`], which answer in their own
//! shapes with their own error types.

pub mod graphql;
pub mod otlp;

mod errors;
mod feedback;
mod identity;
mod params;
mod sessions;
mod traces;
mod vitals;

pub use errors::*;
pub use feedback::*;
pub use identity::*;
pub use params::{DEFAULT_PAGE, MAX_PAGE};
pub use sessions::*;
pub use traces::*;
pub use vitals::*;
