//! Accounts storage, run against every backend (SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database.

use std::sync::Arc;

use chrono::Utc;
use moat_storage::{
    testing::TestDatabase, LegalKind, MailToken, MailTokenKind, NewIdentity, NewUser, PendingLogin,
    Role, Session, Storage, StorageError, Ticket, TicketKind,
};
use uuid::Uuid;

fn new_user(email: &str, nickname: &str) -> NewUser {
    NewUser {
        chat_user_id: Uuid::new_v4(),
        email: Some(email.into()),
        nickname: nickname.into(),
        nickname_folded: nickname.to_lowercase(),
        password_hash: Some("$argon2id$fake".into()),
        identity: None,
        created_at: Utc::now(),
    }
}

fn session(jti: &str, user_id: i64) -> Session {
    let now = Utc::now().timestamp();
    Session {
        jti: jti.into(),
        user_id,
        issued_at: now,
        expires_at: now + 3600,
        revoked_at: None,
    }
}

#[tokio::test]
async fn the_first_account_is_the_operator_and_the_next_are_members() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let a = s.create_user(&new_user("a@x.io", "first")).await.unwrap();
        let b = s.create_user(&new_user("b@x.io", "second")).await.unwrap();
        assert_eq!(a.role, Role::Operator, "{:?}", db.backend);
        assert_eq!(b.role, Role::Member, "{:?}", db.backend);
        assert!(b.id > a.id);
        assert_eq!(b.email.as_deref(), Some("b@x.io"));
        assert!(!b.premium);
    }
}

#[tokio::test]
async fn concurrent_first_sign_ups_make_exactly_one_operator() {
    for db in TestDatabase::all().await {
        let s: Arc<dyn Storage> = db.storage().await;
        let mut tasks = Vec::new();
        for i in 0..8 {
            let s = s.clone();
            tasks.push(tokio::spawn(async move {
                s.create_user(&new_user(&format!("u{i}@x.io"), &format!("user{i}")))
                    .await
                    .unwrap()
            }));
        }
        let mut operators = 0;
        for t in tasks {
            if t.await.unwrap().role == Role::Operator {
                operators += 1;
            }
        }
        assert_eq!(operators, 1, "{:?}", db.backend);
    }
}

#[tokio::test]
async fn duplicate_email_nickname_and_identity_are_conflicts_naming_the_field() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let mut first = new_user("a@x.io", "Ant");
        first.identity = Some(NewIdentity {
            provider: "google".into(),
            subject: "sub-1".into(),
            email: None,
        });
        s.create_user(&first).await.unwrap();
        let err = s
            .create_user(&new_user("a@x.io", "other"))
            .await
            .unwrap_err();
        assert!(matches!(err, StorageError::Conflict("email")), "{err:?}");
        let err = s.create_user(&new_user("b@x.io", "ANT")).await.unwrap_err();
        assert!(matches!(err, StorageError::Conflict("nickname")), "{err:?}");
        let mut dup = new_user("c@x.io", "third");
        dup.identity = first.identity.clone();
        let err = s.create_user(&dup).await.unwrap_err();
        assert!(matches!(err, StorageError::Conflict("identity")), "{err:?}");
        assert_eq!(s.count_users().await.unwrap(), 1, "nothing else stored");
    }
}

#[tokio::test]
async fn lookups_by_email_nickname_and_identity() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let u = s.create_user(&new_user("a@x.io", "개미")).await.unwrap();
        let id = NewIdentity {
            provider: "kakao".into(),
            subject: "42".into(),
            email: Some("a@x.io".into()),
        };
        s.link_identity(u.id, &id, Utc::now()).await.unwrap();
        assert!(matches!(
            s.link_identity(u.id, &id, Utc::now()).await,
            Err(StorageError::Conflict("identity"))
        ));
        assert_eq!(s.user_by_email("a@x.io").await.unwrap().unwrap().id, u.id);
        assert_eq!(s.user_by_nickname("개미").await.unwrap().unwrap().id, u.id);
        assert_eq!(
            s.user_by_identity("kakao", "42").await.unwrap().unwrap().id,
            u.id
        );
        assert!(s.user_by_identity("kakao", "43").await.unwrap().is_none());
        assert_eq!(s.identities_of(u.id).await.unwrap().len(), 1);
        assert_eq!(s.user_by_id(u.id).await.unwrap().unwrap(), u);
    }
}

#[tokio::test]
async fn sessions_are_read_with_their_member_and_revoked() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let u = s.create_user(&new_user("a@x.io", "ant")).await.unwrap();
        s.insert_session(&session("j1", u.id)).await.unwrap();
        s.insert_session(&session("j2", u.id)).await.unwrap();
        let got = s.session_with_user("j1").await.unwrap().unwrap();
        assert_eq!(got.user.id, u.id);
        assert_eq!(got.session.revoked_at, None);
        s.revoke_session("j1", 5).await.unwrap();
        assert_eq!(
            s.session_with_user("j1")
                .await
                .unwrap()
                .unwrap()
                .session
                .revoked_at,
            Some(5)
        );
        assert_eq!(s.revoke_sessions(u.id, 6).await.unwrap(), 1);
        assert!(s.session_with_user("nope").await.unwrap().is_none());
        // A password change revokes every session.
        s.insert_session(&session("j3", u.id)).await.unwrap();
        s.set_password_hash(u.id, "$argon2id$new", 7).await.unwrap();
        assert_eq!(
            s.session_with_user("j3")
                .await
                .unwrap()
                .unwrap()
                .session
                .revoked_at,
            Some(7)
        );
        // So does a ban.
        s.insert_session(&session("j4", u.id)).await.unwrap();
        s.set_banned(u.id, Some(Utc::now())).await.unwrap();
        let got = s.session_with_user("j4").await.unwrap().unwrap();
        assert!(got.session.revoked_at.is_some());
        assert!(!got.user.is_active());
        s.set_banned(u.id, None).await.unwrap();
        assert!(s.user_by_id(u.id).await.unwrap().unwrap().is_active());
    }
}

#[tokio::test]
async fn deletion_leaves_a_tombstone_and_frees_email_and_nickname() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let u = s.create_user(&new_user("a@x.io", "ant")).await.unwrap();
        s.link_identity(
            u.id,
            &NewIdentity {
                provider: "google".into(),
                subject: "s".into(),
                email: None,
            },
            Utc::now(),
        )
        .await
        .unwrap();
        s.insert_session(&session("j1", u.id)).await.unwrap();
        s.delete_user(u.id, Utc::now()).await.unwrap();
        let t = s.user_by_id(u.id).await.unwrap().unwrap();
        assert!(t.deleted_at.is_some());
        assert_eq!((t.email, t.nickname, t.password_hash), (None, None, None));
        assert_eq!(
            t.chat_user_id, u.chat_user_id,
            "content keeps its author id"
        );
        assert!(s.identities_of(u.id).await.unwrap().is_empty());
        assert!(s.sessions_of(u.id).await.unwrap().is_empty());
        assert!(s.user_by_identity("google", "s").await.unwrap().is_none());
        assert!(matches!(
            s.delete_user(u.id, Utc::now()).await,
            Err(StorageError::NotFound)
        ));
        // Email and nickname can be used again; the id is never reused.
        let again = s.create_user(&new_user("a@x.io", "ant")).await.unwrap();
        assert!(again.id > u.id);
        assert_eq!(s.count_users().await.unwrap(), 2);
    }
}

#[tokio::test]
async fn role_premium_and_nickname_updates() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        s.create_user(&new_user("a@x.io", "ant")).await.unwrap();
        let u = s.create_user(&new_user("b@x.io", "bee")).await.unwrap();
        s.set_role(u.id, Role::Operator).await.unwrap();
        s.set_premium(u.id, true).await.unwrap();
        let got = s.user_by_id(u.id).await.unwrap().unwrap();
        assert_eq!((got.role, got.premium), (Role::Operator, true));
        assert!(matches!(
            s.set_nickname(u.id, "ANT", "ant").await,
            Err(StorageError::Conflict("nickname"))
        ));
        s.set_nickname(u.id, "Wasp", "wasp").await.unwrap();
        assert_eq!(
            s.user_by_id(u.id)
                .await
                .unwrap()
                .unwrap()
                .nickname
                .as_deref(),
            Some("Wasp")
        );
        assert!(matches!(
            s.set_premium(9999, true).await,
            Err(StorageError::NotFound)
        ));
    }
}

#[tokio::test]
async fn pending_logins_and_tickets_are_single_use_and_expire() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let now = Utc::now().timestamp();
        let pending = |state: &str, expires_at| PendingLogin {
            state: state.into(),
            provider: "google".into(),
            nonce: "n".into(),
            pkce_verifier: "v".into(),
            redirect_uri: "http://x/cb".into(),
            next_path: "/".into(),
            intent: "login".into(),
            expires_at,
        };
        s.insert_pending_login(&pending("s1", now + 600))
            .await
            .unwrap();
        s.insert_pending_login(&pending("s2", now + 1))
            .await
            .unwrap();
        assert_eq!(
            s.take_pending_login("s1", now).await.unwrap(),
            Some(pending("s1", now + 600))
        );
        assert_eq!(
            s.take_pending_login("s1", now).await.unwrap(),
            None,
            "single use"
        );
        assert_eq!(
            s.take_pending_login("s2", now + 2).await.unwrap(),
            None,
            "expired"
        );

        let ticket = Ticket {
            ticket_hash: "h".into(),
            kind: TicketKind::Signup,
            provider: "google".into(),
            subject: "sub".into(),
            email: Some("a@x.io".into()),
            next_path: "/x".into(),
            expires_at: now + 600,
        };
        s.insert_ticket(&ticket).await.unwrap();
        assert!(s
            .peek_ticket("h", TicketKind::Link, now)
            .await
            .unwrap()
            .is_none());
        assert_eq!(
            s.peek_ticket("h", TicketKind::Signup, now).await.unwrap(),
            Some(ticket.clone())
        );
        assert!(s
            .peek_ticket("h", TicketKind::Signup, now + 601)
            .await
            .unwrap()
            .is_none());
        assert_eq!(
            s.take_ticket("h", TicketKind::Signup, now).await.unwrap(),
            Some(ticket)
        );
        assert!(s
            .take_ticket("h", TicketKind::Signup, now)
            .await
            .unwrap()
            .is_none());
    }
}

#[tokio::test]
async fn a_stored_role_that_is_unknown_is_an_error_not_a_member() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let a = s.create_user(&new_user("a@x.io", "first")).await.unwrap();
        assert_eq!(a.role, Role::Operator);
        // The schema refuses such a role: step around its check as a corrupt or
        // newer database would.
        db.execute_raw(match db.backend {
            moat_storage::Backend::Sqlite => {
                "PRAGMA ignore_check_constraints = ON; UPDATE users SET role = 'owner'"
            }
            moat_storage::Backend::Postgres => {
                "ALTER TABLE users DROP CONSTRAINT users_role_check; \
                 UPDATE users SET role = 'owner'"
            }
        })
        .await;
        assert!(
            matches!(s.user_by_id(a.id).await, Err(StorageError::Invalid(_))),
            "{:?}",
            db.backend
        );
    }
}

fn mail_token(hash: &str, kind: MailTokenKind, user_id: i64, now: i64) -> MailToken {
    MailToken {
        token_hash: hash.into(),
        kind,
        user_id,
        email: "a@x.io".into(),
        created_at: now,
        expires_at: now + 1800,
    }
}

#[tokio::test]
async fn a_mail_token_is_taken_once_of_its_own_kind_and_not_after_it_expires() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let u = s.create_user(&new_user("a@x.io", "first")).await.unwrap();
        let now = 1_000_000;
        let t = mail_token("h1", MailTokenKind::ResetPassword, u.id, now);
        s.insert_mail_token(&t).await.unwrap();
        s.insert_mail_token(&mail_token("h2", MailTokenKind::ResetPassword, u.id, now))
            .await
            .unwrap();
        let backend = db.backend;
        assert_eq!(
            s.peek_mail_token("h1", MailTokenKind::ResetPassword, now)
                .await
                .unwrap()
                .as_ref(),
            Some(&t),
            "a peek leaves it in place ({backend:?})"
        );
        assert_eq!(
            s.take_mail_token("h1", MailTokenKind::VerifyEmail, now)
                .await
                .unwrap(),
            None,
            "another kind does not take it ({backend:?})"
        );
        assert_eq!(
            s.take_mail_token("h1", MailTokenKind::ResetPassword, now + 1)
                .await
                .unwrap(),
            Some(t),
            "{backend:?}"
        );
        assert_eq!(
            s.take_mail_token("h1", MailTokenKind::ResetPassword, now + 1)
                .await
                .unwrap(),
            None,
            "single use ({backend:?})"
        );
        assert_eq!(
            s.take_mail_token("h2", MailTokenKind::ResetPassword, now + 1800)
                .await
                .unwrap(),
            None,
            "expired at expires_at ({backend:?})"
        );
    }
}

#[tokio::test]
async fn a_members_mail_tokens_are_listed_deleted_by_kind_and_go_with_the_account() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let u = s.create_user(&new_user("a@x.io", "first")).await.unwrap();
        let now = 1_000_000;
        for (h, k) in [
            ("r1", MailTokenKind::ResetPassword),
            ("r2", MailTokenKind::ResetPassword),
            ("v1", MailTokenKind::VerifyEmail),
        ] {
            s.insert_mail_token(&mail_token(h, k, u.id, now))
                .await
                .unwrap();
        }
        assert_eq!(s.mail_tokens_of(u.id, now).await.unwrap().len(), 3);
        assert_eq!(
            s.delete_mail_tokens(u.id, MailTokenKind::ResetPassword)
                .await
                .unwrap(),
            2
        );
        let left = s.mail_tokens_of(u.id, now).await.unwrap();
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].kind, MailTokenKind::VerifyEmail);
        assert!(s.mail_tokens_of(u.id, now + 1800).await.unwrap().is_empty());
        s.delete_user(u.id, Utc::now()).await.unwrap();
        assert!(
            s.take_mail_token("v1", MailTokenKind::VerifyEmail, now)
                .await
                .unwrap()
                .is_none(),
            "deletion removes the tokens ({:?})",
            db.backend
        );
    }
}

#[tokio::test]
async fn an_email_is_verified_only_while_it_is_the_members_and_forgotten_on_deletion() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let u = s.create_user(&new_user("a@x.io", "first")).await.unwrap();
        assert_eq!(u.email_verified_at, None);
        let at = Utc::now();
        assert!(!s.set_email_verified(u.id, "old@x.io", at).await.unwrap());
        assert!(s.set_email_verified(u.id, "a@x.io", at).await.unwrap());
        let read = s.user_by_id(u.id).await.unwrap().unwrap();
        assert_eq!(
            read.email_verified_at.map(|t| t.timestamp()),
            Some(at.timestamp()),
            "{:?}",
            db.backend
        );
        s.delete_user(u.id, Utc::now()).await.unwrap();
        let gone = s.user_by_id(u.id).await.unwrap().unwrap();
        assert_eq!(gone.email_verified_at, None);
    }
}

#[tokio::test]
async fn legal_documents_get_versions_per_kind_and_consents_go_with_the_account() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let backend = db.backend;
        assert!(s.current_legal_documents().await.unwrap().is_empty());
        let t1 = s
            .publish_legal_document(LegalKind::Terms, "terms v1", Utc::now())
            .await
            .unwrap();
        let t2 = s
            .publish_legal_document(LegalKind::Terms, "terms v2", Utc::now())
            .await
            .unwrap();
        let p1 = s
            .publish_legal_document(LegalKind::Privacy, "privacy v1", Utc::now())
            .await
            .unwrap();
        assert_eq!(
            (t1.version, t2.version, p1.version),
            (1, 2, 1),
            "{backend:?}"
        );
        let current = s.current_legal_documents().await.unwrap();
        let summary: Vec<_> = current
            .iter()
            .map(|d| (d.kind, d.version, d.body.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                (LegalKind::Terms, 2, "terms v2"),
                (LegalKind::Privacy, 1, "privacy v1")
            ],
            "{backend:?}"
        );

        let u = s.create_user(&new_user("a@x.io", "first")).await.unwrap();
        s.record_consent(u.id, LegalKind::Terms, 2, Utc::now())
            .await
            .unwrap();
        s.record_consent(u.id, LegalKind::Terms, 2, Utc::now())
            .await
            .expect("accepting again changes nothing");
        s.record_consent(u.id, LegalKind::Privacy, 1, Utc::now())
            .await
            .unwrap();
        let consents: Vec<_> = s
            .consents_of(u.id)
            .await
            .unwrap()
            .into_iter()
            .map(|c| (c.kind, c.version))
            .collect();
        assert_eq!(consents, [(LegalKind::Terms, 2), (LegalKind::Privacy, 1)]);
        s.delete_user(u.id, Utc::now()).await.unwrap();
        assert!(s.consents_of(u.id).await.unwrap().is_empty(), "{backend:?}");
    }
}
