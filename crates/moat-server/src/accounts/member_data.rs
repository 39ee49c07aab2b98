//! The accounts' part of a member's data: the account, its linked log-ins, its
//! sessions, its unused mail links and its consents; deleting it turns the account into a tombstone and closes the member's
//! sockets.

use async_trait::async_trait;
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    dto::{rfc3339, Me},
    service::me_of,
    AccountsState,
};
use crate::{
    accounts::extract::Member,
    http::error::ApiError,
    member_data::{MemberData, MemberTable},
};

/// The account, as the member downloads it.
#[derive(Serialize, ToSchema)]
pub struct AccountsExport {
    pub account: Me,
    pub identities: Vec<ExportedIdentity>,
    pub sessions: Vec<ExportedSession>,
    /// Links sent by e-mail that are still usable (the tokens themselves are kept
    /// only hashed, and are not exported).
    pub mail_links: Vec<ExportedMailLink>,
    /// The versions of the terms and the privacy policy accepted.
    pub consents: Vec<ExportedConsent>,
}

#[derive(Serialize, ToSchema)]
pub struct ExportedConsent {
    /// `terms` or `privacy`.
    pub kind: String,
    pub version: i64,
    pub accepted_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct ExportedMailLink {
    /// `verify_email` or `reset_password`.
    pub kind: String,
    /// The address it was sent to.
    pub email: String,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ExportedIdentity {
    pub provider: String,
    /// The provider's id for the member.
    pub subject: String,
    pub email: Option<String>,
    pub linked_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct ExportedSession {
    /// Unix seconds.
    pub issued_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
    /// The session of this request.
    pub current: bool,
}

#[async_trait]
impl MemberData for AccountsState {
    type Export = AccountsExport;

    const TABLES: &'static [MemberTable] = &[
        MemberTable {
            table: "users",
            column: "id",
        },
        MemberTable {
            table: "user_identities",
            column: "user_id",
        },
        MemberTable {
            table: "sessions",
            column: "user_id",
        },
        MemberTable {
            table: "mail_tokens",
            column: "user_id",
        },
        MemberTable {
            table: "consents",
            column: "user_id",
        },
    ];

    async fn export(&self, member: &Member) -> Result<AccountsExport, ApiError> {
        let user = &member.user;
        let identities = self.storage.identities_of(user.id).await?;
        let sessions = self.storage.sessions_of(user.id).await?;
        let mail_tokens = self
            .storage
            .mail_tokens_of(user.id, self.auth.now())
            .await?;
        let consents = self.storage.consents_of(user.id).await?;
        Ok(AccountsExport {
            account: me_of(self, user).await?,
            identities: identities
                .into_iter()
                .map(|i| ExportedIdentity {
                    provider: i.provider,
                    subject: i.subject,
                    email: i.email,
                    linked_at: rfc3339(i.created_at),
                })
                .collect(),
            sessions: sessions
                .into_iter()
                .map(|s| ExportedSession {
                    current: s.jti == member.session.jti,
                    issued_at: s.issued_at,
                    expires_at: s.expires_at,
                    revoked_at: s.revoked_at,
                })
                .collect(),
            mail_links: mail_tokens
                .into_iter()
                .map(|t| ExportedMailLink {
                    kind: t.kind.as_str().to_owned(),
                    email: t.email,
                    created_at: t.created_at,
                    expires_at: t.expires_at,
                })
                .collect(),
            consents: consents
                .into_iter()
                .map(|c| ExportedConsent {
                    kind: c.kind.as_str().to_owned(),
                    version: c.version,
                    accepted_at: rfc3339(c.accepted_at),
                })
                .collect(),
        })
    }

    /// The tombstone: personal fields cleared, identities and sessions deleted, the
    /// member's sockets closed on this instance.
    async fn delete(&self, member: &Member) -> Result<(), ApiError> {
        let id = member.user.id;
        match self.storage.delete_user(id, self.auth.now_utc()).await {
            Ok(()) | Err(moat_storage::StorageError::NotFound) => {}
            Err(e) => return Err(e.into()),
        }
        self.hub.revoke_member(id, crate::hub::Revocation::Deleted);
        Ok(())
    }
}
