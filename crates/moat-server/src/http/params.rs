//! Query parameters every area reads the same way: they arrive as text and a bad one
//! is a 400 `invalid_parameter` naming it (never echoing it).

use crate::http::error::{ApiError, ErrorCode, FieldError};

/// `limit`: `default` when absent, else 1 to `max`.
pub fn bounded_limit(raw: Option<&str>, default: i64, max: i64) -> Result<i64, ApiError> {
    match raw {
        None | Some("") => Ok(default),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| {
                ApiError::invalid_parameter(
                    "limit",
                    FieldError::new(ErrorCode::OutOfRange, format!("1 to {max}."))
                        .param("min", 1)
                        .param("max", max),
                )
            }),
    }
}
