//! Error groups and their latest occurrences.

use std::collections::BTreeSet;

use super::params::{id_param, limit_param};
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    observability::{
        dto::{ErrorGroupDetail, ErrorGroupDto, ErrorGroupList, ErrorOccurrenceDto, PageParams},
        ObservabilityState,
    },
};

/// Occurrences listed with an error group.
pub const MAX_OCCURRENCES: i64 = 200;

/// Error groups, most recently seen first, a page at a time.
pub async fn list_error_groups(
    state: &ObservabilityState,
    p: PageParams,
) -> Result<ErrorGroupList, ApiError> {
    let limit = limit_param(p.limit.as_deref())?;
    let offset = match p.offset.as_deref() {
        None | Some("") => 0,
        Some(s) => s.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
            ApiError::invalid_parameter(
                "offset",
                FieldError::new(ErrorCode::OutOfRange, "Zero or more.").param("min", 0),
            )
        })?,
    };
    let rows = state.storage.obs_error_groups(limit, offset).await?;
    Ok(ErrorGroupList {
        next_offset: (rows.len() as i64 == limit).then_some(offset + limit),
        groups: rows.iter().map(ErrorGroupDto::from).collect(),
    })
}

/// An error group (`raw_id` as in the path) with its newest occurrences and the
/// distinct members among them.
pub async fn error_group(
    state: &ObservabilityState,
    raw_id: &str,
) -> Result<ErrorGroupDetail, ApiError> {
    let id = id_param("id", Some(raw_id))?.ok_or_else(|| {
        ApiError::invalid_parameter(
            "id",
            FieldError::new(ErrorCode::Required, "A positive number."),
        )
    })?;
    let group = state
        .storage
        .obs_error_group(id)
        .await?
        .ok_or_else(|| ApiError::not_found("There is no such error group."))?;
    let occurrences = state
        .storage
        .obs_error_occurrences(id, MAX_OCCURRENCES)
        .await?;
    let members: BTreeSet<String> = occurrences
        .iter()
        .filter_map(|o| o.user_identifier.clone())
        .collect();
    Ok(ErrorGroupDetail {
        group: ErrorGroupDto::from(&group),
        occurrences: occurrences.iter().map(ErrorOccurrenceDto::from).collect(),
        members: members.into_iter().collect(),
    })
}
