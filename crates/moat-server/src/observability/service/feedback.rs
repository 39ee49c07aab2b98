//! Feedback: the operator's list, and feedback sent without the recorder.

use std::{collections::BTreeMap, net::IpAddr, time::Duration};

use moat_storage::observability::{NewFeedback, NewObsSession};
use serde_json::json;

use super::params::{id_param, limit_param};
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    observability::{
        dto::{FeedbackDto, FeedbackList, FeedbackParams, SendFeedbackRequest},
        limits::BudgetError,
        now_ms, ObservabilityState,
    },
};

/// Longest feedback text accepted by `POST /api/feedback`, in characters (the web
/// form's limit).
pub const MAX_DIRECT_FEEDBACK_CHARS: usize = 4_000;
/// Longest name, in characters.
pub const MAX_FEEDBACK_NAME_CHARS: usize = 200;
/// Longest e-mail address, in characters.
pub const MAX_FEEDBACK_EMAIL_CHARS: usize = 320;
/// Feedback one client address may send per hour without the recorder (in memory, per
/// instance): plenty for a person, a wall for a script.
pub const FEEDBACK_PER_IP_PER_HOUR: u64 = 10;
/// The window of [`FEEDBACK_PER_IP_PER_HOUR`].
pub const FEEDBACK_WINDOW: Duration = Duration::from_secs(3600);
/// The environment of the session a direct feedback is stored under (it has no replay).
pub const DIRECT_FEEDBACK_ENVIRONMENT: &str = "feedback";

/// Who sent a direct feedback.
pub struct FeedbackSender<'a> {
    pub ip: IpAddr,
    pub user_agent: Option<String>,
    /// The member, by the request's token: `(user id, nickname)`.
    pub member: Option<(i64, Option<&'a str>)>,
}

/// Checks a direct feedback: the text's and fields' sizes, the address's shape.
fn check(
    request: &SendFeedbackRequest,
) -> Result<(String, Option<String>, Option<String>), ApiError> {
    let mut fields = BTreeMap::new();
    let verbatim = request.verbatim.trim();
    if verbatim.is_empty() {
        fields.insert(
            "verbatim".to_owned(),
            FieldError::new(ErrorCode::Required, "Write what you want to tell us."),
        );
    } else if verbatim.chars().count() > MAX_DIRECT_FEEDBACK_CHARS {
        fields.insert(
            "verbatim".to_owned(),
            FieldError::new(
                ErrorCode::TooLong,
                format!("At most {MAX_DIRECT_FEEDBACK_CHARS} characters."),
            )
            .param("max", MAX_DIRECT_FEEDBACK_CHARS),
        );
    }
    let text = |value: &Option<String>| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let name = text(&request.user_name);
    if name
        .as_ref()
        .is_some_and(|n| n.chars().count() > MAX_FEEDBACK_NAME_CHARS)
    {
        fields.insert(
            "user_name".to_owned(),
            FieldError::new(
                ErrorCode::TooLong,
                format!("At most {MAX_FEEDBACK_NAME_CHARS} characters."),
            )
            .param("max", MAX_FEEDBACK_NAME_CHARS),
        );
    }
    let email = text(&request.user_email);
    if let Some(e) = &email {
        if e.chars().count() > MAX_FEEDBACK_EMAIL_CHARS {
            fields.insert(
                "user_email".to_owned(),
                FieldError::new(
                    ErrorCode::TooLong,
                    format!("At most {MAX_FEEDBACK_EMAIL_CHARS} characters."),
                )
                .param("max", MAX_FEEDBACK_EMAIL_CHARS),
            );
        } else if !looks_like_email(e) {
            fields.insert(
                "user_email".to_owned(),
                FieldError::new(ErrorCode::EmailInvalid, "Not an e-mail address."),
            );
        }
    }
    if fields.is_empty() {
        Ok((verbatim.to_owned(), name, email))
    } else {
        Err(ApiError::invalid_fields(fields))
    }
}

/// Deliberately loose, as the web form: `something@something.something`, no spaces.
fn looks_like_email(e: &str) -> bool {
    let Some((local, domain)) = e.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !e.contains(char::is_whitespace)
        && !domain.contains('@')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|part| !part.is_empty())
}

/// Stores feedback sent without the recorder (`POST /api/feedback`) in the same store as
/// the recorder's: under a session of its own (environment
/// [`DIRECT_FEEDBACK_ENVIRONMENT`], no replay), bound to the member when the request
/// carried one, so the operator finds it in the feedback list and by member. Checked
/// first (nothing is stored for a refused request), then counted against the address's
/// hourly allowance.
pub async fn send_feedback(
    state: &ObservabilityState,
    sender: FeedbackSender<'_>,
    request: SendFeedbackRequest,
) -> Result<(), ApiError> {
    let (verbatim, user_name, user_email) = check(&request)?;
    state
        .observe
        .feedback_budgets
        .charge(sender.ip, 1)
        .await
        .map_err(|e| match e {
            BudgetError::Spent(secs) => ApiError::rate_limited(Duration::from_secs(secs)),
            BudgetError::Failed(e) => ApiError::internal(e.context("the feedback budget failed")),
        })?;
    let now = now_ms();
    let session = state
        .storage
        .obs_upsert_session(&NewObsSession {
            secure_id: format!("feedback-{}", uuid::Uuid::new_v4().simple()),
            environment: DIRECT_FEEDBACK_ENVIRONMENT.to_owned(),
            user_agent: sender.user_agent,
            ip_hash: Some(state.observe.hash_ip(sender.ip)),
            now_ms: now,
            ..NewObsSession::default()
        })
        .await?;
    if let Some((user_id, nickname)) = sender.member {
        let object = json!({ "nickname": nickname.unwrap_or_default() });
        state
            .storage
            .obs_bind_session(session.id, &user_id.to_string(), &object.to_string())
            .await?;
    }
    state
        .storage
        .obs_add_feedback(&NewFeedback {
            session_id: session.id,
            user_name,
            user_email,
            verbatim,
            ts: now,
        })
        .await?;
    Ok(())
}

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
