//! Feedback sent from recorded sessions.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use moat_storage::observability::FeedbackRow;

use super::rfc3339_ms;

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct FeedbackDto {
    pub id: i64,
    pub session_secure_id: String,
    pub member: Option<String>,
    pub user_name: Option<String>,
    pub user_email: Option<String>,
    pub verbatim: String,
    /// When the user sent it (their clock).
    pub created_at: String,
}

impl From<FeedbackRow> for FeedbackDto {
    fn from(f: FeedbackRow) -> Self {
        Self {
            id: f.id,
            session_secure_id: f.session_secure_id,
            member: f.user_identifier,
            user_name: f.user_name,
            user_email: f.user_email,
            verbatim: f.verbatim,
            created_at: rfc3339_ms(f.ts),
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FeedbackList {
    pub feedback: Vec<FeedbackDto>,
    /// Pass as `before` for the next page; absent on the last page.
    pub next_before: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
pub struct FeedbackParams {
    /// 1 to 200 (default 50).
    pub limit: Option<String>,
    /// `next_before` of the previous page.
    pub before: Option<String>,
}

/// `POST /api/feedback`: feedback sent without the session recorder (recording off, a
/// browser the recorder skips). A member's feedback is theirs by the request's token.
#[derive(Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
pub struct SendFeedbackRequest {
    /// What the person wrote: 1 to 4,000 characters (blank is refused).
    pub verbatim: String,
    /// A name to answer to (at most 200 characters); optional.
    #[serde(default)]
    pub user_name: Option<String>,
    /// An address to answer to (at most 320 characters); optional.
    #[serde(default)]
    pub user_email: Option<String>,
}
