//! Feedback sent from recorded sessions.

use super::params::{id_param, limit_param};
use crate::{
    http::error::ApiError,
    observability::{
        dto::{FeedbackDto, FeedbackList, FeedbackParams},
        ObservabilityState,
    },
};

/// Feedback, newest first, a page at a time.
pub async fn list_feedback(
    state: &ObservabilityState,
    p: FeedbackParams,
) -> Result<FeedbackList, ApiError> {
    let limit = limit_param(p.limit.as_deref())?;
    let before = id_param("before", p.before.as_deref())?;
    let rows = state.storage.obs_feedback(limit, before).await?;
    Ok(FeedbackList {
        next_before: (rows.len() as i64 == limit)
            .then(|| rows.last().map(|r| r.id))
            .flatten(),
        feedback: rows.into_iter().map(FeedbackDto::from).collect(),
    })
}
