//! The SQL of [`AccountsStorage`], one implementation for both backends.

use chrono::{DateTime, Utc};
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, Type};

use crate::accounts::AccountsStorage;
use crate::sql::{RowsAffected, Sql, SqlStorage};

#[async_trait::async_trait]
impl<DB: Sql> AccountsStorage for SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    Option<i64>: for<'q> Encode<'q, DB>,
    Option<String>: for<'q> Encode<'q, DB>,
    Option<DateTime<Utc>>: for<'q> Encode<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    bool: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    DateTime<Utc>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn create_user(
        &self,
        new: &crate::accounts::NewUser,
    ) -> Result<crate::accounts::User, crate::StorageError> {
        let _db = crate::probe::op("create_user");
        use crate::accounts::{conflict_or, FIRST_USER_SETTING, USER_COLUMNS};
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
                crate::StorageError::Conflict(_) => crate::StorageError::Conflict("identity"),
                other => other,
            })?;
        }
        let row: crate::accounts::UserRow = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"
        ))
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        row.into_user()
    }

    async fn user_by_id(
        &self,
        id: i64,
    ) -> Result<Option<crate::accounts::User>, crate::StorageError> {
        let _db = crate::probe::op("user_by_id");
        use crate::accounts::{UserRow, USER_COLUMNS};
        let row: Option<UserRow> = sqlx::query_as(&format!(
            "SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(UserRow::into_user).transpose()
    }

    async fn user_by_email(
        &self,
        email: &str,
    ) -> Result<Option<crate::accounts::User>, crate::StorageError> {
        let _db = crate::probe::op("user_by_email");
        use crate::accounts::{UserRow, USER_COLUMNS};
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
    ) -> Result<Option<crate::accounts::User>, crate::StorageError> {
        let _db = crate::probe::op("user_by_nickname");
        use crate::accounts::{UserRow, USER_COLUMNS};
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
    ) -> Result<Option<crate::accounts::User>, crate::StorageError> {
        let _db = crate::probe::op("user_by_identity");
        use crate::accounts::{UserRow, USER_COLUMNS};
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

    async fn count_users(&self) -> Result<i64, crate::StorageError> {
        let _db = crate::probe::op("count_users");
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM users")
            .fetch_one(&self.pool)
            .await?)
    }

    async fn set_nickname(
        &self,
        id: i64,
        nickname: &str,
        folded: &str,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("set_nickname");
        let done = sqlx::query(
            "UPDATE users SET nickname = $1, nickname_folded = $2 WHERE id = $3 AND deleted_at IS NULL",
        )
        .bind(nickname)
        .bind(folded)
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(crate::accounts::conflict_or)?;
        if done.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
        }
        Ok(())
    }

    async fn set_password_hash(
        &self,
        id: i64,
        hash: &str,
        now: i64,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("set_password_hash");
        let mut tx = self.pool.begin().await?;
        let done =
            sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2 AND deleted_at IS NULL")
                .bind(hash)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        if done.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
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
        role: crate::accounts::Role,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("set_role");
        let done = sqlx::query("UPDATE users SET role = $1 WHERE id = $2 AND deleted_at IS NULL")
            .bind(role.as_str())
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
        }
        Ok(())
    }

    async fn set_premium(&self, id: i64, premium: bool) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("set_premium");
        let done =
            sqlx::query("UPDATE users SET premium = $1 WHERE id = $2 AND deleted_at IS NULL")
                .bind(premium)
                .bind(id)
                .execute(&self.pool)
                .await?;
        if done.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
        }
        Ok(())
    }

    async fn set_banned(
        &self,
        id: i64,
        banned_at: Option<chrono::DateTime<chrono::Utc>>,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("set_banned");
        let mut tx = self.pool.begin().await?;
        let done =
            sqlx::query("UPDATE users SET banned_at = $1 WHERE id = $2 AND deleted_at IS NULL")
                .bind(banned_at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        if done.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
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
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("delete_user");
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE users SET email = NULL, nickname = NULL, nickname_folded = NULL,
                 password_hash = NULL, premium = $1, deleted_at = $2,
                 email_verified_at = NULL
             WHERE id = $3 AND deleted_at IS NULL",
        )
        .bind(false)
        .bind(at)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(crate::StorageError::NotFound);
        }
        sqlx::query("DELETE FROM user_identities WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM mail_tokens WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM consents WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn link_identity(
        &self,
        user_id: i64,
        identity: &crate::accounts::NewIdentity,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("link_identity");
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
        .map_err(|e| match crate::accounts::conflict_or(e) {
            crate::StorageError::Conflict(_) => crate::StorageError::Conflict("identity"),
            other => other,
        })?;
        Ok(())
    }

    async fn identities_of(
        &self,
        user_id: i64,
    ) -> Result<Vec<crate::accounts::Identity>, crate::StorageError> {
        let _db = crate::probe::op("identities_of");
        let rows: Vec<crate::accounts::IdentityRow> = sqlx::query_as(
            "SELECT provider, subject, email, created_at FROM user_identities
             WHERE user_id = $1 ORDER BY created_at, provider",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| crate::accounts::Identity {
                provider: r.provider,
                subject: r.subject,
                email: r.email,
                created_at: r.created_at,
            })
            .collect())
    }

    async fn insert_session(
        &self,
        s: &crate::accounts::Session,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("insert_session");
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
    ) -> Result<Option<crate::accounts::SessionWithUser>, crate::StorageError> {
        let _db = crate::probe::op("session_with_user");
        use crate::accounts::{SessionUserRow, USER_COLUMNS};
        let row: Option<SessionUserRow> = sqlx::query_as(&format!(
            "SELECT s.jti, s.user_id, s.issued_at, s.expires_at, s.revoked_at, {USER_COLUMNS}
             FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.jti = $1"
        ))
        .bind(jti)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(crate::accounts::SessionWithUser {
                session: crate::accounts::Session {
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

    async fn revoke_session(&self, jti: &str, now: i64) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("revoke_session");
        sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE jti = $2 AND revoked_at IS NULL")
            .bind(now)
            .bind(jti)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn revoke_sessions(&self, user_id: i64, now: i64) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("revoke_sessions");
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
    ) -> Result<Vec<crate::accounts::Session>, crate::StorageError> {
        let _db = crate::probe::op("sessions_of");
        let rows: Vec<crate::accounts::SessionRow> = sqlx::query_as(
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
        p: &crate::accounts::PendingLogin,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("insert_pending_login");
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
    ) -> Result<Option<crate::accounts::PendingLogin>, crate::StorageError> {
        let _db = crate::probe::op("take_pending_login");
        let row: Option<crate::accounts::PendingRow> = sqlx::query_as(
            "DELETE FROM oidc_pending WHERE state = $1
             RETURNING state, provider, nonce, pkce_verifier, redirect_uri, next_path, intent, expires_at",
        )
        .bind(state)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(Into::into)
            .filter(|p: &crate::accounts::PendingLogin| p.expires_at > now))
    }

    async fn insert_ticket(&self, t: &crate::accounts::Ticket) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("insert_ticket");
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
        kind: crate::accounts::TicketKind,
        now: i64,
    ) -> Result<Option<crate::accounts::Ticket>, crate::StorageError> {
        let _db = crate::probe::op("peek_ticket");
        let row: Option<crate::accounts::TicketRow> = sqlx::query_as(
            "SELECT ticket_hash, kind, provider, subject, email, next_path, expires_at
             FROM oidc_tickets WHERE ticket_hash = $1 AND kind = $2 AND expires_at > $3",
        )
        .bind(ticket_hash)
        .bind(kind.as_str())
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(crate::accounts::Ticket::try_from).transpose()
    }

    async fn take_ticket(
        &self,
        ticket_hash: &str,
        kind: crate::accounts::TicketKind,
        now: i64,
    ) -> Result<Option<crate::accounts::Ticket>, crate::StorageError> {
        let _db = crate::probe::op("take_ticket");
        let row: Option<crate::accounts::TicketRow> = sqlx::query_as(
            "DELETE FROM oidc_tickets WHERE ticket_hash = $1 AND kind = $2
             RETURNING ticket_hash, kind, provider, subject, email, next_path, expires_at",
        )
        .bind(ticket_hash)
        .bind(kind.as_str())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(crate::accounts::Ticket::try_from)
            .transpose()?
            .filter(|t| t.expires_at > now))
    }

    async fn insert_mail_token(
        &self,
        t: &crate::accounts::MailToken,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("insert_mail_token");
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM mail_tokens WHERE expires_at <= $1")
            .bind(t.created_at)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO mail_tokens (token_hash, kind, user_id, email, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&t.token_hash)
        .bind(t.kind.as_str())
        .bind(t.user_id)
        .bind(&t.email)
        .bind(t.created_at)
        .bind(t.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn peek_mail_token(
        &self,
        token_hash: &str,
        kind: crate::accounts::MailTokenKind,
        now: i64,
    ) -> Result<Option<crate::accounts::MailToken>, crate::StorageError> {
        let _db = crate::probe::op("peek_mail_token");
        let row: Option<crate::accounts::MailTokenRow> = sqlx::query_as(
            "SELECT token_hash, kind, user_id, email, created_at, expires_at
             FROM mail_tokens WHERE token_hash = $1 AND kind = $2 AND expires_at > $3",
        )
        .bind(token_hash)
        .bind(kind.as_str())
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(crate::accounts::MailToken::try_from).transpose()
    }

    async fn take_mail_token(
        &self,
        token_hash: &str,
        kind: crate::accounts::MailTokenKind,
        now: i64,
    ) -> Result<Option<crate::accounts::MailToken>, crate::StorageError> {
        let _db = crate::probe::op("take_mail_token");
        let row: Option<crate::accounts::MailTokenRow> = sqlx::query_as(
            "DELETE FROM mail_tokens WHERE token_hash = $1 AND kind = $2
             RETURNING token_hash, kind, user_id, email, created_at, expires_at",
        )
        .bind(token_hash)
        .bind(kind.as_str())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(crate::accounts::MailToken::try_from)
            .transpose()?
            .filter(|t| t.expires_at > now))
    }

    async fn delete_mail_tokens(
        &self,
        user_id: i64,
        kind: crate::accounts::MailTokenKind,
    ) -> Result<u64, crate::StorageError> {
        let _db = crate::probe::op("delete_mail_tokens");
        let done = sqlx::query("DELETE FROM mail_tokens WHERE user_id = $1 AND kind = $2")
            .bind(user_id)
            .bind(kind.as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    async fn mail_tokens_of(
        &self,
        user_id: i64,
        now: i64,
    ) -> Result<Vec<crate::accounts::MailToken>, crate::StorageError> {
        let _db = crate::probe::op("mail_tokens_of");
        let rows: Vec<crate::accounts::MailTokenRow> = sqlx::query_as(
            "SELECT token_hash, kind, user_id, email, created_at, expires_at
             FROM mail_tokens WHERE user_id = $1 AND expires_at > $2
             ORDER BY created_at, token_hash",
        )
        .bind(user_id)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(crate::accounts::MailToken::try_from)
            .collect()
    }

    async fn set_email_verified(
        &self,
        user_id: i64,
        email: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<bool, crate::StorageError> {
        let _db = crate::probe::op("set_email_verified");
        let done = sqlx::query(
            "UPDATE users SET email_verified_at = $1
             WHERE id = $2 AND email = $3 AND deleted_at IS NULL",
        )
        .bind(at)
        .bind(user_id)
        .bind(email)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn publish_legal_document(
        &self,
        kind: crate::accounts::LegalKind,
        body: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<crate::accounts::LegalDocument, crate::StorageError> {
        let _db = crate::probe::op("publish_legal_document");
        let row: crate::accounts::LegalRow = sqlx::query_as(
            "INSERT INTO legal_documents (kind, version, body, published_at)
             SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3
             FROM legal_documents WHERE kind = $4
             RETURNING kind, version, body, published_at",
        )
        .bind(kind.as_str())
        .bind(body)
        .bind(at)
        .bind(kind.as_str())
        .fetch_one(&self.pool)
        .await
        .map_err(|e| match crate::accounts::conflict_or(e) {
            crate::StorageError::Conflict(_) => crate::StorageError::Conflict("version"),
            other => other,
        })?;
        row.try_into()
    }

    async fn current_legal_documents(
        &self,
    ) -> Result<Vec<crate::accounts::LegalDocument>, crate::StorageError> {
        let _db = crate::probe::op("current_legal_documents");
        let rows: Vec<crate::accounts::LegalRow> = sqlx::query_as(
            "SELECT d.kind, d.version, d.body, d.published_at FROM legal_documents d
             WHERE d.version = (SELECT MAX(l.version) FROM legal_documents l WHERE l.kind = d.kind)
             ORDER BY d.kind DESC",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    async fn record_consent(
        &self,
        user_id: i64,
        kind: crate::accounts::LegalKind,
        version: i64,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), crate::StorageError> {
        let _db = crate::probe::op("record_consent");
        sqlx::query(
            "INSERT INTO consents (user_id, kind, version, accepted_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id, kind, version) DO NOTHING",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .bind(version)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn consents_of(
        &self,
        user_id: i64,
    ) -> Result<Vec<crate::accounts::Consent>, crate::StorageError> {
        let _db = crate::probe::op("consents_of");
        let rows: Vec<crate::accounts::ConsentRow> = sqlx::query_as(
            "SELECT kind, version, accepted_at FROM consents WHERE user_id = $1
             ORDER BY kind DESC, version",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }
}
