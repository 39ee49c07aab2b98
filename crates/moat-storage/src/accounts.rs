//! Accounts and identity: members, their social identities, token sessions, and the
//! short-lived OpenID Connect records (pending log-ins, sign-up and link tickets).
//!
//! The SQL here is portable (`$n` parameters, which SQLite also accepts; `RETURNING`;
//! `ON CONFLICT`), so one implementation, instantiated by [`impl_account_storage`]
//! for each pool type, serves both backends. Each backend still owns its schema
//! (`migrations/{sqlite,postgres}/…_accounts.sql`).
//!
//! Callers validate and normalise (email lower-cased, nickname folded); storage
//! enforces uniqueness and reports it as [`StorageError::Conflict`] naming the field.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::StorageError;

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

    fn parse(s: &str) -> Self {
        if s == "operator" {
            Role::Operator
        } else {
            Role::Member
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
pub trait AccountStorage: Send + Sync {
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
            role: Role::parse(&self.role),
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

impl From<TicketRow> for Ticket {
    fn from(r: TicketRow) -> Self {
        Ticket {
            ticket_hash: r.ticket_hash,
            kind: if r.kind == "link" {
                TicketKind::Link
            } else {
                TicketKind::Signup
            },
            provider: r.provider,
            subject: r.subject,
            email: r.email,
            next_path: r.next_path,
            expires_at: r.expires_at,
        }
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

/// The one implementation of [`AccountStorage`], for a storage type with a `pool`
/// field of a sqlx pool type.
macro_rules! impl_account_storage {
    ($ty:ty) => {
        #[async_trait::async_trait]
        impl $crate::accounts::AccountStorage for $ty {
            async fn create_user(
                &self,
                new: &$crate::accounts::NewUser,
            ) -> Result<$crate::accounts::User, $crate::StorageError> {
                let _db = $crate::probe::op("create_user");
                use $crate::accounts::{conflict_or, FIRST_USER_SETTING, USER_COLUMNS};
                let mut tx = self.pool.begin().await?;
                // The first account is the operator: exactly one transaction can insert
                // this setting (the unique key serialises concurrent sign-ups).
                let first = sqlx::query(
                    "INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                )
                .bind(FIRST_USER_SETTING)
                .bind(new.chat_user_id.to_string())
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                let role = if first { "operator" } else { "member" };
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO users (chat_user_id, email, nickname, nickname_folded, password_hash, role, premium, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                )
                .bind(new.chat_user_id.to_string())
                .bind(new.email.as_deref())
                .bind(&new.nickname)
                .bind(&new.nickname_folded)
                .bind(new.password_hash.as_deref())
                .bind(role)
                .bind(false)
                .bind(new.created_at)
                .fetch_one(&mut *tx)
                .await
                .map_err(conflict_or)?;
                if let Some(identity) = &new.identity {
                    sqlx::query(
                        "INSERT INTO user_identities (provider, subject, user_id, email, created_at)
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&identity.provider)
                    .bind(&identity.subject)
                    .bind(id)
                    .bind(identity.email.as_deref())
                    .bind(new.created_at)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| match conflict_or(e) {
                        $crate::StorageError::Conflict(_) => $crate::StorageError::Conflict("identity"),
                        other => other,
                    })?;
                }
                let row: $crate::accounts::UserRow =
                    sqlx::query_as(&format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"))
                        .bind(id)
                        .fetch_one(&mut *tx)
                        .await?;
                tx.commit().await?;
                row.into_user()
            }

            async fn user_by_id(
                &self,
                id: i64,
            ) -> Result<Option<$crate::accounts::User>, $crate::StorageError> {
                let _db = $crate::probe::op("user_by_id");
                use $crate::accounts::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> =
                    sqlx::query_as(&format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"))
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                row.map(UserRow::into_user).transpose()
            }

            async fn user_by_email(
                &self,
                email: &str,
            ) -> Result<Option<$crate::accounts::User>, $crate::StorageError> {
                let _db = $crate::probe::op("user_by_email");
                use $crate::accounts::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM users u WHERE u.email = $1"
                ))
                .bind(email)
                .fetch_optional(&self.pool)
                .await?;
                row.map(UserRow::into_user).transpose()
            }

            async fn user_by_nickname(
                &self,
                folded: &str,
            ) -> Result<Option<$crate::accounts::User>, $crate::StorageError> {
                let _db = $crate::probe::op("user_by_nickname");
                use $crate::accounts::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM users u WHERE u.nickname_folded = $1"
                ))
                .bind(folded)
                .fetch_optional(&self.pool)
                .await?;
                row.map(UserRow::into_user).transpose()
            }

            async fn user_by_identity(
                &self,
                provider: &str,
                subject: &str,
            ) -> Result<Option<$crate::accounts::User>, $crate::StorageError> {
                let _db = $crate::probe::op("user_by_identity");
                use $crate::accounts::{UserRow, USER_COLUMNS};
                let row: Option<UserRow> = sqlx::query_as(&format!(
                    "SELECT {USER_COLUMNS} FROM user_identities i JOIN users u ON u.id = i.user_id
                     WHERE i.provider = $1 AND i.subject = $2"
                ))
                .bind(provider)
                .bind(subject)
                .fetch_optional(&self.pool)
                .await?;
                row.map(UserRow::into_user).transpose()
            }

            async fn count_users(&self) -> Result<i64, $crate::StorageError> {
                let _db = $crate::probe::op("count_users");
                Ok(sqlx::query_scalar("SELECT COUNT(*) FROM users")
                    .fetch_one(&self.pool)
                    .await?)
            }

            async fn set_nickname(
                &self,
                id: i64,
                nickname: &str,
                folded: &str,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("set_nickname");
                let done = sqlx::query(
                    "UPDATE users SET nickname = $1, nickname_folded = $2 WHERE id = $3 AND deleted_at IS NULL",
                )
                .bind(nickname)
                .bind(folded)
                .bind(id)
                .execute(&self.pool)
                .await
                .map_err($crate::accounts::conflict_or)?;
                if done.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                Ok(())
            }

            async fn set_password_hash(
                &self,
                id: i64,
                hash: &str,
                now: i64,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("set_password_hash");
                let mut tx = self.pool.begin().await?;
                let done = sqlx::query(
                    "UPDATE users SET password_hash = $1 WHERE id = $2 AND deleted_at IS NULL",
                )
                .bind(hash)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                sqlx::query(
                    "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
                )
                .bind(now)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn set_role(
                &self,
                id: i64,
                role: $crate::accounts::Role,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("set_role");
                let done =
                    sqlx::query("UPDATE users SET role = $1 WHERE id = $2 AND deleted_at IS NULL")
                        .bind(role.as_str())
                        .bind(id)
                        .execute(&self.pool)
                        .await?;
                if done.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                Ok(())
            }

            async fn set_premium(&self, id: i64, premium: bool) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("set_premium");
                let done = sqlx::query(
                    "UPDATE users SET premium = $1 WHERE id = $2 AND deleted_at IS NULL",
                )
                .bind(premium)
                .bind(id)
                .execute(&self.pool)
                .await?;
                if done.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                Ok(())
            }

            async fn set_banned(
                &self,
                id: i64,
                banned_at: Option<chrono::DateTime<chrono::Utc>>,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("set_banned");
                let mut tx = self.pool.begin().await?;
                let done = sqlx::query(
                    "UPDATE users SET banned_at = $1 WHERE id = $2 AND deleted_at IS NULL",
                )
                .bind(banned_at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                if let Some(at) = banned_at {
                    sqlx::query(
                        "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
                    )
                    .bind(at.timestamp())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn delete_user(
                &self,
                id: i64,
                at: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("delete_user");
                let mut tx = self.pool.begin().await?;
                let done = sqlx::query(
                    "UPDATE users SET email = NULL, nickname = NULL, nickname_folded = NULL,
                         password_hash = NULL, premium = $1, deleted_at = $2
                     WHERE id = $3 AND deleted_at IS NULL",
                )
                .bind(false)
                .bind(at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() == 0 {
                    return Err($crate::StorageError::NotFound);
                }
                sqlx::query("DELETE FROM user_identities WHERE user_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM favorites WHERE user_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn link_identity(
                &self,
                user_id: i64,
                identity: &$crate::accounts::NewIdentity,
                at: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("link_identity");
                sqlx::query(
                    "INSERT INTO user_identities (provider, subject, user_id, email, created_at)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&identity.provider)
                .bind(&identity.subject)
                .bind(user_id)
                .bind(identity.email.as_deref())
                .bind(at)
                .execute(&self.pool)
                .await
                .map_err(|e| match $crate::accounts::conflict_or(e) {
                    $crate::StorageError::Conflict(_) => $crate::StorageError::Conflict("identity"),
                    other => other,
                })?;
                Ok(())
            }

            async fn identities_of(
                &self,
                user_id: i64,
            ) -> Result<Vec<$crate::accounts::Identity>, $crate::StorageError> {
                let _db = $crate::probe::op("identities_of");
                let rows: Vec<$crate::accounts::IdentityRow> = sqlx::query_as(
                    "SELECT provider, subject, email, created_at FROM user_identities
                     WHERE user_id = $1 ORDER BY created_at, provider",
                )
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .map(|r| $crate::accounts::Identity {
                        provider: r.provider,
                        subject: r.subject,
                        email: r.email,
                        created_at: r.created_at,
                    })
                    .collect())
            }

            async fn insert_session(
                &self,
                s: &$crate::accounts::Session,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("insert_session");
                sqlx::query(
                    "INSERT INTO sessions (jti, user_id, issued_at, expires_at, revoked_at)
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&s.jti)
                .bind(s.user_id)
                .bind(s.issued_at)
                .bind(s.expires_at)
                .bind(s.revoked_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn session_with_user(
                &self,
                jti: &str,
            ) -> Result<Option<$crate::accounts::SessionWithUser>, $crate::StorageError> {
                let _db = $crate::probe::op("session_with_user");
                use $crate::accounts::{SessionUserRow, USER_COLUMNS};
                let row: Option<SessionUserRow> = sqlx::query_as(&format!(
                    "SELECT s.jti, s.user_id, s.issued_at, s.expires_at, s.revoked_at, {USER_COLUMNS}
                     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.jti = $1"
                ))
                .bind(jti)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|r| {
                    Ok($crate::accounts::SessionWithUser {
                        session: $crate::accounts::Session {
                            jti: r.jti,
                            user_id: r.user_id,
                            issued_at: r.issued_at,
                            expires_at: r.expires_at,
                            revoked_at: r.revoked_at,
                        },
                        user: r.user.into_user()?,
                    })
                })
                .transpose()
            }

            async fn revoke_session(&self, jti: &str, now: i64) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("revoke_session");
                sqlx::query(
                    "UPDATE sessions SET revoked_at = $1 WHERE jti = $2 AND revoked_at IS NULL",
                )
                .bind(now)
                .bind(jti)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn revoke_sessions(
                &self,
                user_id: i64,
                now: i64,
            ) -> Result<u64, $crate::StorageError> {
                let _db = $crate::probe::op("revoke_sessions");
                Ok(sqlx::query(
                    "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
                )
                .bind(now)
                .bind(user_id)
                .execute(&self.pool)
                .await?
                .rows_affected())
            }

            async fn sessions_of(
                &self,
                user_id: i64,
            ) -> Result<Vec<$crate::accounts::Session>, $crate::StorageError> {
                let _db = $crate::probe::op("sessions_of");
                let rows: Vec<$crate::accounts::SessionRow> = sqlx::query_as(
                    "SELECT jti, user_id, issued_at, expires_at, revoked_at FROM sessions
                     WHERE user_id = $1 ORDER BY issued_at, jti",
                )
                .bind(user_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows.into_iter().map(Into::into).collect())
            }

            async fn insert_pending_login(
                &self,
                p: &$crate::accounts::PendingLogin,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("insert_pending_login");
                let now = chrono::Utc::now().timestamp();
                sqlx::query("DELETE FROM oidc_pending WHERE expires_at <= $1")
                    .bind(now)
                    .execute(&self.pool)
                    .await?;
                sqlx::query(
                    "INSERT INTO oidc_pending (state, provider, nonce, pkce_verifier, redirect_uri, next_path, intent, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(&p.state)
                .bind(&p.provider)
                .bind(&p.nonce)
                .bind(&p.pkce_verifier)
                .bind(&p.redirect_uri)
                .bind(&p.next_path)
                .bind(&p.intent)
                .bind(p.expires_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn take_pending_login(
                &self,
                state: &str,
                now: i64,
            ) -> Result<Option<$crate::accounts::PendingLogin>, $crate::StorageError> {
                let _db = $crate::probe::op("take_pending_login");
                let row: Option<$crate::accounts::PendingRow> = sqlx::query_as(
                    "DELETE FROM oidc_pending WHERE state = $1
                     RETURNING state, provider, nonce, pkce_verifier, redirect_uri, next_path, intent, expires_at",
                )
                .bind(state)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into).filter(|p: &$crate::accounts::PendingLogin| p.expires_at > now))
            }

            async fn insert_ticket(
                &self,
                t: &$crate::accounts::Ticket,
            ) -> Result<(), $crate::StorageError> {
                let _db = $crate::probe::op("insert_ticket");
                let now = chrono::Utc::now().timestamp();
                sqlx::query("DELETE FROM oidc_tickets WHERE expires_at <= $1")
                    .bind(now)
                    .execute(&self.pool)
                    .await?;
                sqlx::query(
                    "INSERT INTO oidc_tickets (ticket_hash, kind, provider, subject, email, next_path, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&t.ticket_hash)
                .bind(t.kind.as_str())
                .bind(&t.provider)
                .bind(&t.subject)
                .bind(t.email.as_deref())
                .bind(&t.next_path)
                .bind(t.expires_at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn peek_ticket(
                &self,
                ticket_hash: &str,
                kind: $crate::accounts::TicketKind,
                now: i64,
            ) -> Result<Option<$crate::accounts::Ticket>, $crate::StorageError> {
                let _db = $crate::probe::op("peek_ticket");
                let row: Option<$crate::accounts::TicketRow> = sqlx::query_as(
                    "SELECT ticket_hash, kind, provider, subject, email, next_path, expires_at
                     FROM oidc_tickets WHERE ticket_hash = $1 AND kind = $2 AND expires_at > $3",
                )
                .bind(ticket_hash)
                .bind(kind.as_str())
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into))
            }

            async fn take_ticket(
                &self,
                ticket_hash: &str,
                kind: $crate::accounts::TicketKind,
                now: i64,
            ) -> Result<Option<$crate::accounts::Ticket>, $crate::StorageError> {
                let _db = $crate::probe::op("take_ticket");
                let row: Option<$crate::accounts::TicketRow> = sqlx::query_as(
                    "DELETE FROM oidc_tickets WHERE ticket_hash = $1 AND kind = $2
                     RETURNING ticket_hash, kind, provider, subject, email, next_path, expires_at",
                )
                .bind(ticket_hash)
                .bind(kind.as_str())
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(Into::into).filter(|t: &$crate::accounts::Ticket| t.expires_at > now))
            }
        }
    };
}
pub(crate) use impl_account_storage;
