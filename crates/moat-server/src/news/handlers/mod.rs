//! The news area's handlers, one file per resource: thin (extractors, a service call,
//! DTOs).

pub mod articles;
pub mod feeds;

use crate::http::error::{ApiError, ErrorCode, FieldError};

/// A row id from the path: a positive number, else 400 naming the parameter.
pub(crate) fn parse_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| {
        ApiError::invalid_parameter(
            "id",
            FieldError::new(ErrorCode::InvalidId, "A positive number."),
        )
    })
}
