//! Accounts and identity: members, their social identities, token sessions, and the
//! short-lived OpenID Connect records (pending log-ins, sign-up and link tickets).
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
     u.role, u.premium, u.banned_at, u.created_at, u.deleted_at";

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
