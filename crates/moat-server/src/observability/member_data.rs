//! The observability area's part of a member's data: the recorded sessions bound to
//! them (a replay shows their screens). Deleting it removes those sessions with
//! everything recorded in them.

use async_trait::async_trait;
use serde::Serialize;
use utoipa::ToSchema;

use super::ObservabilityState;
use crate::{
    accounts::extract::Member,
    http::error::ApiError,
    member_data::{MemberData, MemberTable},
};

/// The member's recorded sessions, as they download them (the recordings stay on the
/// server; an operator can replay them until they expire or the account is deleted).
#[derive(Serialize, ToSchema)]
pub struct ObservabilityExport {
    pub recorded_sessions: Vec<RecordedSession>,
}

/// One recorded visit of the member.
#[derive(Serialize, ToSchema)]
pub struct RecordedSession {
    pub secure_id: String,
    /// Unix milliseconds.
    pub started_at: i64,
    /// Unix milliseconds of the last data received.
    pub last_push_at: i64,
    pub user_agent: Option<String>,
}

#[async_trait]
impl MemberData for ObservabilityState {
    type Export = ObservabilityExport;

    const TABLES: &'static [MemberTable] = &[MemberTable {
        table: "obs_sessions",
        column: "user_identifier",
    }];

    async fn export(&self, member: &Member) -> Result<ObservabilityExport, ApiError> {
        let sessions = self
            .storage
            .obs_member_sessions(&member.user.id.to_string())
            .await?;
        Ok(ObservabilityExport {
            recorded_sessions: sessions
                .into_iter()
                .map(|s| RecordedSession {
                    secure_id: s.secure_id,
                    started_at: s.started_at,
                    last_push_at: s.last_push_at,
                    user_agent: s.user_agent,
                })
                .collect(),
        })
    }

    async fn delete(&self, member: &Member) -> Result<(), ApiError> {
        self.storage
            .obs_delete_member_sessions(&member.user.id.to_string())
            .await?;
        Ok(())
    }
}
