//! The console's query parameters: all arrive as text and are checked here, so a bad
//! one is a 400 `invalid_parameter` naming it (never echoing it).

use chrono::{DateTime, NaiveDate};

use crate::http::error::{ApiError, ErrorCode, FieldError};
pub use crate::http::params::bounded_limit;

/// Default and largest page sizes.
pub const DEFAULT_PAGE: i64 = 50;
pub const MAX_PAGE: i64 = 200;

/// `limit`: 1 to [`MAX_PAGE`], [`DEFAULT_PAGE`] when absent.
pub fn limit_param(raw: Option<&str>) -> Result<i64, ApiError> {
    bounded_limit(raw, DEFAULT_PAGE, MAX_PAGE)
}

/// A positive id, `None` when absent.
pub fn id_param(name: &str, raw: Option<&str>) -> Result<Option<i64>, ApiError> {
    match raw {
        None | Some("") => Ok(None),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .map(Some)
            .ok_or_else(|| {
                ApiError::invalid_parameter(
                    name,
                    FieldError::new(ErrorCode::OutOfRange, "A positive number.").param("min", 1),
                )
            }),
    }
}

/// `true` or `false`, `None` when absent.
pub fn bool_param(name: &str, raw: Option<&str>) -> Result<Option<bool>, ApiError> {
    match raw {
        None | Some("") => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(ApiError::invalid_parameter(
            name,
            FieldError::new(ErrorCode::Invalid, "true or false."),
        )),
    }
}

/// An RFC 3339 time or a `YYYY-MM-DD` date (midnight UTC), as epoch ms.
pub fn time_param(name: &str, raw: Option<&str>) -> Result<Option<i64>, ApiError> {
    match raw {
        None | Some("") => Ok(None),
        Some(s) => DateTime::parse_from_rfc3339(s)
            .map(|t| t.timestamp_millis())
            .or_else(|_| {
                NaiveDate::parse_from_str(s, "%Y-%m-%d").map(|d| {
                    d.and_hms_opt(0, 0, 0)
                        .unwrap_or_default()
                        .and_utc()
                        .timestamp_millis()
                })
            })
            .map(Some)
            .map_err(|_| {
                ApiError::invalid_parameter(
                    name,
                    FieldError::new(ErrorCode::InvalidDate, "An RFC 3339 time or YYYY-MM-DD."),
                )
            }),
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::observability::dto::rfc3339_ms;

    #[test]
    fn times_parse_as_rfc3339_or_dates() {
        assert_eq!(
            time_param("from", Some("1970-01-02")).unwrap(),
            Some(86_400_000)
        );
        assert_eq!(
            time_param("from", Some("1970-01-01T00:00:01Z")).unwrap(),
            Some(1000)
        );
        assert!(time_param("from", Some("yesterday")).is_err());
        assert_eq!(rfc3339_ms(1000), "1970-01-01T00:00:01.000Z");
    }

    #[test]
    fn page_parameters_are_checked() {
        assert_eq!(limit_param(None).unwrap(), DEFAULT_PAGE);
        assert!(limit_param(Some("0")).is_err());
        assert!(limit_param(Some("201")).is_err());
        assert_eq!(bool_param("x", Some("true")).unwrap(), Some(true));
        assert!(bool_param("x", Some("yes")).is_err());
    }
}
