//! Accounts and identity: members, their social identities, token sessions, and the
//! short-lived OpenID Connect records (pending log-ins, sign-up and link tickets), and
//! the tokens of links sent by e-mail (verification, password reset).
//!
//! The SQL (`sql.rs`) is portable (`$n` parameters, which SQLite also accepts;
//! `RETURNING`; `ON CONFLICT`), so one implementation, generic over the database
//! ([`crate::sql::Sql`]), serves both backends. Each backend still owns its schema
//! (`migrations/{sqlite,postgres}/…_accounts.sql`).
//!
//! Callers validate and normalise (email lower-cased, nickname folded); storage
//! enforces uniqueness and reports it as [`StorageError::Conflict`] naming the field.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::StorageError;

mod sql;

/// A member's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Member,
    Operator,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Member => "member",
            Role::Operator => "operator",
        }
    }

    /// The role a stored value names; an unknown value is an error, never a member.
    fn parse(s: &str) -> Result<Self, StorageError> {
        match s {
            "member" => Ok(Role::Member),
            "operator" => Ok(Role::Operator),
            _ => Err(StorageError::Invalid("stored role is unknown")),
        }
    }
}

/// A member, or the tombstone of a deleted one (`deleted_at` set, personal fields
/// `None`).
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub id: i64,
    pub chat_user_id: Uuid,
    pub email: Option<String>,
    pub nickname: Option<String>,
    pub password_hash: Option<String>,
    pub role: Role,
    pub premium: bool,
    pub banned_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub deleted_at: Option<DateTime<Utc>>,
    /// When the current email was proved the member's (a link sent to it was opened).
    pub email_verified_at: Option<DateTime<Utc>>,
}

impl User {
    /// Neither banned nor deleted.
    pub fn is_active(&self) -> bool {
        self.banned_at.is_none() && self.deleted_at.is_none()
    }
}

/// A social identity to attach to a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewIdentity {
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
}

/// A stored social identity.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// What creating a member needs. The role is decided by storage: the first account
/// ever created is the operator.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub chat_user_id: Uuid,
    pub email: Option<String>,
    pub nickname: String,
    pub nickname_folded: String,
    pub password_hash: Option<String>,
    pub identity: Option<NewIdentity>,
    pub created_at: DateTime<Utc>,
}

/// One issued token. Times are Unix seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub jti: String,
    pub user_id: i64,
    pub issued_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
}

/// A session with its member, read in one query when a token is checked.
#[derive(Debug, Clone)]
pub struct SessionWithUser {
    pub session: Session,
    pub user: User,
}

/// An OpenID Connect log-in between `start` and `callback`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingLogin {
    pub state: String,
    pub provider: String,
    pub nonce: String,
    pub pkce_verifier: String,
    pub redirect_uri: String,
    pub next_path: String,
    pub intent: String,
    pub expires_at: i64,
}

/// What a ticket lets its holder do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TicketKind {
    /// Create an account for a new social identity.
    Signup,
    /// Link a social identity to the existing account with its email.
    Link,
}

impl TicketKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TicketKind::Signup => "signup",
            TicketKind::Link => "link",
        }
    }

    /// The kind a stored value names; an unknown value is an error.
    fn parse(s: &str) -> Result<Self, StorageError> {
        match s {
            "signup" => Ok(TicketKind::Signup),
            "link" => Ok(TicketKind::Link),
            _ => Err(StorageError::Invalid("stored ticket kind is unknown")),
        }
    }
}

/// A sign-up or link ticket, stored under the SHA-256 of the ticket string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    pub ticket_hash: String,
    pub kind: TicketKind,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    pub next_path: String,
    pub expires_at: i64,
}

/// What a link sent by e-mail lets its holder do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailTokenKind {
    /// Prove that the address is the member's.
    VerifyEmail,
    /// Set a new password without the old one.
    ResetPassword,
}

impl MailTokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MailTokenKind::VerifyEmail => "verify_email",
            MailTokenKind::ResetPassword => "reset_password",
        }
    }

    /// The kind a stored value names; an unknown value is an error.
    fn parse(s: &str) -> Result<Self, StorageError> {
        match s {
            "verify_email" => Ok(MailTokenKind::VerifyEmail),
            "reset_password" => Ok(MailTokenKind::ResetPassword),
            _ => Err(StorageError::Invalid("stored mail token kind is unknown")),
        }
    }
}

/// A link sent by e-mail, stored under the SHA-256 of its token. Times are Unix
/// seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailToken {
    pub token_hash: String,
    pub kind: MailTokenKind,
    pub user_id: i64,
    /// The address the link was sent to.
    pub email: String,
    pub created_at: i64,
    pub expires_at: i64,
}

#[derive(sqlx::FromRow)]
pub(crate) struct MailTokenRow {
    pub token_hash: String,
    pub kind: String,
    pub user_id: i64,
    pub email: String,
    pub created_at: i64,
    pub expires_at: i64,
}

impl TryFrom<MailTokenRow> for MailToken {
    type Error = StorageError;

    fn try_from(r: MailTokenRow) -> Result<Self, StorageError> {
        Ok(MailToken {
            token_hash: r.token_hash,
            kind: MailTokenKind::parse(&r.kind)?,
            user_id: r.user_id,
            email: r.email,
            created_at: r.created_at,
            expires_at: r.expires_at,
        })
    }
}

/// A document members consent to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LegalKind {
    Terms,
    Privacy,
}

impl LegalKind {
    /// Every kind, in the order they are shown.
    pub const ALL: [LegalKind; 2] = [LegalKind::Terms, LegalKind::Privacy];

    pub fn as_str(self) -> &'static str {
        match self {
            LegalKind::Terms => "terms",
            LegalKind::Privacy => "privacy",
        }
    }

    /// The kind a value names (`terms`, `privacy`), if any.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "terms" => Some(LegalKind::Terms),
            "privacy" => Some(LegalKind::Privacy),
            _ => None,
        }
    }

    fn parse_stored(s: &str) -> Result<Self, StorageError> {
        Self::parse(s).ok_or(StorageError::Invalid(
            "stored legal document kind is unknown",
        ))
    }
}

/// One published version of the terms or the privacy policy.
#[derive(Debug, Clone, PartialEq)]
pub struct LegalDocument {
    pub kind: LegalKind,
    /// 1, 2, … per kind.
    pub version: i64,
    pub body: String,
    pub published_at: DateTime<Utc>,
}

/// A member's acceptance of one version.
#[derive(Debug, Clone, PartialEq)]
pub struct Consent {
    pub kind: LegalKind,
    pub version: i64,
    pub accepted_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
pub(crate) struct LegalRow {
    pub kind: String,
    pub version: i64,
    pub body: String,
    pub published_at: DateTime<Utc>,
}

impl TryFrom<LegalRow> for LegalDocument {
    type Error = StorageError;

    fn try_from(r: LegalRow) -> Result<Self, StorageError> {
        Ok(LegalDocument {
            kind: LegalKind::parse_stored(&r.kind)?,
            version: r.version,
            body: r.body,
            published_at: r.published_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct ConsentRow {
    pub kind: String,
    pub version: i64,
    pub accepted_at: DateTime<Utc>,
}

impl TryFrom<ConsentRow> for Consent {
    type Error = StorageError;

    fn try_from(r: ConsentRow) -> Result<Self, StorageError> {
        Ok(Consent {
            kind: LegalKind::parse_stored(&r.kind)?,
            version: r.version,
            accepted_at: r.accepted_at,
        })
    }
}

/// The setting whose insertion decides the operator: the transaction that creates it
/// created the first account.
pub(crate) const FIRST_USER_SETTING: &str = "accounts.first_user";

/// Storage of accounts. Part of [`crate::Storage`].
#[async_trait]
pub trait AccountsStorage: Send + Sync {
    /// Creates a member (and its identity, if any) in one transaction. The first
    /// account ever created gets [`Role::Operator`], decided inside the transaction.
    /// A taken email or nickname is `Conflict("email" | "nickname")`; a taken identity
    /// `Conflict("identity")`.
    async fn create_user(&self, new: &NewUser) -> Result<User, StorageError>;

    /// Any member by id, tombstones included.
    async fn user_by_id(&self, id: i64) -> Result<Option<User>, StorageError>;

    /// The member with this (normalised) email.
    async fn user_by_email(&self, email: &str) -> Result<Option<User>, StorageError>;

    /// The member with this folded nickname.
    async fn user_by_nickname(&self, folded: &str) -> Result<Option<User>, StorageError>;

    /// The member a social identity belongs to.
    async fn user_by_identity(
        &self,
        provider: &str,
        subject: &str,
    ) -> Result<Option<User>, StorageError>;

    /// Number of rows in the members table (tombstones included).
    async fn count_users(&self) -> Result<i64, StorageError>;

    /// Changes the nickname; `Conflict("nickname")` when taken, `NotFound` when the
    /// member does not exist or is deleted.
    async fn set_nickname(&self, id: i64, nickname: &str, folded: &str)
        -> Result<(), StorageError>;

    /// Replaces the password hash and revokes every session of the member.
    async fn set_password_hash(&self, id: i64, hash: &str, now: i64) -> Result<(), StorageError>;

    async fn set_role(&self, id: i64, role: Role) -> Result<(), StorageError>;

    async fn set_premium(&self, id: i64, premium: bool) -> Result<(), StorageError>;

    /// Bans (revoking every session) or unbans.
    async fn set_banned(
        &self,
        id: i64,
        banned_at: Option<DateTime<Utc>>,
    ) -> Result<(), StorageError>;

    /// Turns the member into a tombstone: personal fields nulled, `deleted_at` set,
    /// identities and sessions deleted; the nickname and email become free.
    async fn delete_user(&self, id: i64, at: DateTime<Utc>) -> Result<(), StorageError>;

    /// Links a social identity; `Conflict("identity")` when it is linked already.
    async fn link_identity(
        &self,
        user_id: i64,
        identity: &NewIdentity,
        at: DateTime<Utc>,
    ) -> Result<(), StorageError>;

    async fn identities_of(&self, user_id: i64) -> Result<Vec<Identity>, StorageError>;

    async fn insert_session(&self, session: &Session) -> Result<(), StorageError>;

    /// The session and its member: one indexed query (token checks).
    async fn session_with_user(&self, jti: &str) -> Result<Option<SessionWithUser>, StorageError>;

    async fn revoke_session(&self, jti: &str, now: i64) -> Result<(), StorageError>;

    /// Revokes every live session of a member; returns how many.
    async fn revoke_sessions(&self, user_id: i64, now: i64) -> Result<u64, StorageError>;

    async fn sessions_of(&self, user_id: i64) -> Result<Vec<Session>, StorageError>;

    /// Stores a pending log-in (and drops expired ones).
    async fn insert_pending_login(&self, pending: &PendingLogin) -> Result<(), StorageError>;

    /// Removes and returns the pending log-in of `state` unless it has expired.
    /// Single use: a second call returns `None`.
    async fn take_pending_login(
        &self,
        state: &str,
        now: i64,
    ) -> Result<Option<PendingLogin>, StorageError>;

    /// Stores a ticket (and drops expired ones).
    async fn insert_ticket(&self, ticket: &Ticket) -> Result<(), StorageError>;

    /// The live ticket of this hash and kind, left in place.
    async fn peek_ticket(
        &self,
        ticket_hash: &str,
        kind: TicketKind,
        now: i64,
    ) -> Result<Option<Ticket>, StorageError>;

    /// Removes and returns the live ticket; a second call returns `None`.
    async fn take_ticket(
        &self,
        ticket_hash: &str,
        kind: TicketKind,
        now: i64,
    ) -> Result<Option<Ticket>, StorageError>;

    /// Stores the token of a link sent by e-mail (and drops expired ones).
    async fn insert_mail_token(&self, token: &MailToken) -> Result<(), StorageError>;

    /// The live token of this hash and kind, left in place.
    async fn peek_mail_token(
        &self,
        token_hash: &str,
        kind: MailTokenKind,
        now: i64,
    ) -> Result<Option<MailToken>, StorageError>;

    /// Removes and returns the live token of this hash and kind: single use, a second
    /// call (or one after `expires_at`) returns `None`.
    async fn take_mail_token(
        &self,
        token_hash: &str,
        kind: MailTokenKind,
        now: i64,
    ) -> Result<Option<MailToken>, StorageError>;

    /// Deletes the member's tokens of this kind (the other links stop working);
    /// returns how many.
    async fn delete_mail_tokens(
        &self,
        user_id: i64,
        kind: MailTokenKind,
    ) -> Result<u64, StorageError>;

    /// The member's unexpired and unused tokens, oldest first (the member's export).
    async fn mail_tokens_of(&self, user_id: i64, now: i64) -> Result<Vec<MailToken>, StorageError>;

    /// Publishes a new version of `kind` (the latest plus one, from 1); a version
    /// published in parallel is `Conflict("version")`.
    async fn publish_legal_document(
        &self,
        kind: LegalKind,
        body: &str,
        at: DateTime<Utc>,
    ) -> Result<LegalDocument, StorageError>;

    /// The latest version of each kind that has one.
    async fn current_legal_documents(&self) -> Result<Vec<LegalDocument>, StorageError>;

    /// Records that the member accepted `version` of `kind` (again: no change).
    async fn record_consent(
        &self,
        user_id: i64,
        kind: LegalKind,
        version: i64,
        at: DateTime<Utc>,
    ) -> Result<(), StorageError>;

    /// Every version the member accepted, by kind and version.
    async fn consents_of(&self, user_id: i64) -> Result<Vec<Consent>, StorageError>;

    /// Marks the member's email as verified at `at`, if it is still `email`; returns
    /// whether it was.
    async fn set_email_verified(
        &self,
        user_id: i64,
        email: &str,
        at: DateTime<Utc>,
    ) -> Result<bool, StorageError>;
}

/// A `users` row as both backends return it.
#[derive(sqlx::FromRow)]
pub(crate) struct UserRow {
    pub id: i64,
    pub chat_user_id: String,
    pub email: Option<String>,
    pub nickname: Option<String>,
    pub password_hash: Option<String>,
    pub role: String,
    pub premium: bool,
    pub banned_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub deleted_at: Option<DateTime<Utc>>,
    pub email_verified_at: Option<DateTime<Utc>>,
}

impl UserRow {
    pub(crate) fn into_user(self) -> Result<User, StorageError> {
        Ok(User {
            id: self.id,
            chat_user_id: Uuid::parse_str(&self.chat_user_id)
                .map_err(|_| StorageError::Invalid("stored chat_user_id is not a UUID"))?,
            email: self.email,
            nickname: self.nickname,
            password_hash: self.password_hash,
            role: Role::parse(&self.role)?,
            premium: self.premium,
            banned_at: self.banned_at,
            created_at: self.created_at,
            deleted_at: self.deleted_at,
            email_verified_at: self.email_verified_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SessionUserRow {
    pub jti: String,
    pub user_id: i64,
    pub issued_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
    #[sqlx(flatten)]
    pub user: UserRow,
}

#[derive(sqlx::FromRow)]
pub(crate) struct SessionRow {
    pub jti: String,
    pub user_id: i64,
    pub issued_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
}

impl From<SessionRow> for Session {
    fn from(r: SessionRow) -> Self {
        Session {
            jti: r.jti,
            user_id: r.user_id,
            issued_at: r.issued_at,
            expires_at: r.expires_at,
            revoked_at: r.revoked_at,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct TicketRow {
    pub ticket_hash: String,
    pub kind: String,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    pub next_path: String,
    pub expires_at: i64,
}

impl TryFrom<TicketRow> for Ticket {
    type Error = StorageError;

    fn try_from(r: TicketRow) -> Result<Self, StorageError> {
        Ok(Ticket {
            ticket_hash: r.ticket_hash,
            kind: TicketKind::parse(&r.kind)?,
            provider: r.provider,
            subject: r.subject,
            email: r.email,
            next_path: r.next_path,
            expires_at: r.expires_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct PendingRow {
    pub state: String,
    pub provider: String,
    pub nonce: String,
    pub pkce_verifier: String,
    pub redirect_uri: String,
    pub next_path: String,
    pub intent: String,
    pub expires_at: i64,
}

impl From<PendingRow> for PendingLogin {
    fn from(r: PendingRow) -> Self {
        PendingLogin {
            state: r.state,
            provider: r.provider,
            nonce: r.nonce,
            pkce_verifier: r.pkce_verifier,
            redirect_uri: r.redirect_uri,
            next_path: r.next_path,
            intent: r.intent,
            expires_at: r.expires_at,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct IdentityRow {
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    pub created_at: DateTime<Utc>,
}

pub(crate) const USER_COLUMNS: &str =
    "u.id, u.chat_user_id, u.email, u.nickname, u.password_hash, \
     u.role, u.premium, u.banned_at, u.created_at, u.deleted_at, u.email_verified_at";

/// Maps a unique-constraint failure to `Conflict(field)`; other errors pass through.
pub(crate) fn conflict_or(e: sqlx::Error) -> StorageError {
    if let sqlx::Error::Database(db) = &e {
        if db.is_unique_violation() {
            let what = format!("{} {}", db.constraint().unwrap_or(""), db.message());
            let field = if what.contains("email") {
                "email"
            } else if what.contains("nickname") {
                "nickname"
            } else if what.contains("identit") || what.contains("provider") {
                "identity"
            } else {
                "unique"
            };
            return StorageError::Conflict(field);
        }
    }
    StorageError::Database(e)
}
