//! Password hashing (Argon2id, OWASP's minimum: m = 19 MiB, t = 2, p = 1) on blocking
//! threads, a few at once, and the password rules.

use std::{collections::HashSet, sync::Arc, sync::LazyLock};

use anyhow::Context;
use argon2::{
    password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher as _, SaltString},
    Algorithm, Argon2, Params, PasswordVerifier, Version,
};
use tokio::sync::{watch, OnceCell, OwnedSemaphorePermit, Semaphore};

use crate::http::error::{ErrorCode, FieldError};

/// Argon2id memory cost in KiB (19 MiB).
pub const ARGON2_MEMORY_KIB: u32 = 19_456;
/// Argon2id passes.
pub const ARGON2_ITERATIONS: u32 = 2;
/// Argon2id lanes.
pub const ARGON2_PARALLELISM: u32 = 1;
/// Hashes computed at the same time; more wait (each takes 19 MiB and a core).
pub const MAX_CONCURRENT_HASHES: usize = 4;
/// Shortest password, in characters.
pub const PASSWORD_MIN_CHARS: usize = 10;
/// Longest password, in characters.
pub const PASSWORD_MAX_CHARS: usize = 256;

static COMMON_PASSWORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common-passwords.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
});

fn argon2() -> Argon2<'static> {
    let params = Params::new(
        ARGON2_MEMORY_KIB,
        ARGON2_ITERATIONS,
        ARGON2_PARALLELISM,
        None,
    )
    .expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes and verifies off the async workers, bounded by a semaphore.
pub struct Passwords {
    permits: Arc<Semaphore>,
    /// A hash of a random password, verified against for unknown emails so that
    /// both answers take the same time.
    dummy: OnceCell<String>,
    /// Password checks started so far (verifications, dummy ones included).
    checks: watch::Sender<u64>,
}

impl Default for Passwords {
    fn default() -> Self {
        Self {
            permits: Arc::new(Semaphore::new(MAX_CONCURRENT_HASHES)),
            dummy: OnceCell::new(),
            checks: watch::Sender::new(0),
        }
    }
}

impl Passwords {
    /// The PHC string of `password`.
    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let password = password.to_owned();
        self.blocking(move || {
            let salt = SaltString::generate(&mut OsRng);
            argon2()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| anyhow::anyhow!("cannot hash a password: {e}"))
        })
        .await
    }

    /// Whether `password` matches `hash`; `false` for a malformed hash.
    pub async fn verify(&self, password: &str, hash: &str) -> anyhow::Result<bool> {
        self.checks.send_modify(|n| *n += 1);
        let password = password.to_owned();
        let hash = hash.to_owned();
        self.blocking(move || {
            Ok(PasswordHash::new(&hash)
                .map(|parsed| {
                    argon2()
                        .verify_password(password.as_bytes(), &parsed)
                        .is_ok()
                })
                .unwrap_or(false))
        })
        .await
    }

    /// Spends the time of one verification and answers `false` (unknown email).
    pub async fn verify_dummy(&self, password: &str) -> anyhow::Result<bool> {
        let dummy = self
            .dummy
            .get_or_try_init(|| async {
                let mut random = [0u8; 16];
                rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut random);
                self.hash(&format!("{random:?}")).await
            })
            .await?
            .clone();
        self.verify(password, &dummy).await?;
        Ok(false)
    }

    /// The number of password checks started so far, as a channel that tells of each
    /// new one: how tests see how many guesses reached the password check.
    pub fn checks(&self) -> watch::Receiver<u64> {
        self.checks.subscribe()
    }

    /// Holds every hashing slot until the guard is dropped, so that the password
    /// checks started meanwhile wait (tests use it to have attempts in flight at once).
    pub async fn pause(&self) -> anyhow::Result<OwnedSemaphorePermit> {
        self.permits
            .clone()
            .acquire_many_owned(MAX_CONCURRENT_HASHES as u32)
            .await
            .context("hash semaphore closed")
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let _permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .context("hash semaphore closed")?;
        tokio::task::spawn_blocking(f)
            .await
            .context("the hashing thread failed")?
    }
}

/// The first rule a new password breaks, as a message for the `password` field.
pub fn check_password(
    password: &str,
    email: Option<&str>,
    nickname: Option<&str>,
) -> Option<FieldError> {
    let chars = password.chars().count();
    let length = |message: String| {
        FieldError::new(ErrorCode::PasswordLength, message)
            .param("min", PASSWORD_MIN_CHARS)
            .param("max", PASSWORD_MAX_CHARS)
    };
    if chars < PASSWORD_MIN_CHARS {
        return Some(length(format!(
            "Use at least {PASSWORD_MIN_CHARS} characters."
        )));
    }
    if chars > PASSWORD_MAX_CHARS {
        return Some(length(format!(
            "Use at most {PASSWORD_MAX_CHARS} characters."
        )));
    }
    let lower = password.to_lowercase();
    if COMMON_PASSWORDS.contains(lower.as_str()) {
        return Some(FieldError::new(
            ErrorCode::PasswordTooCommon,
            "This password is too common; choose another.",
        ));
    }
    if email.is_some_and(|e| !e.is_empty() && e.to_lowercase() == lower) {
        return Some(
            FieldError::new(
                ErrorCode::PasswordPersonal,
                "The password must not be your email.",
            )
            .param("part", "email"),
        );
    }
    if nickname.is_some_and(|n| !n.is_empty() && n.to_lowercase() == lower) {
        return Some(
            FieldError::new(
                ErrorCode::PasswordPersonal,
                "The password must not be your nickname.",
            )
            .param("part", "nickname"),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_rules_each_have_a_message() {
        assert!(check_password("short", None, None)
            .unwrap()
            .message
            .contains("10"));
        assert!(check_password(&"x".repeat(257), None, None)
            .unwrap()
            .message
            .contains("256"));
        assert!(check_password("Password123", None, None)
            .unwrap()
            .message
            .contains("common"));
        assert!(
            check_password("ant@moat.example", Some("ANT@moat.example"), None)
                .unwrap()
                .message
                .contains("email")
        );
        assert!(
            check_password("개미개미개미개미개미", None, Some("개미개미개미개미개미"))
                .unwrap()
                .message
                .contains("nickname")
        );
        assert_eq!(check_password("correct horse battery", None, None), None);
        assert_eq!(
            check_password(&"가".repeat(10), None, None),
            None,
            "counts characters"
        );
        assert!(COMMON_PASSWORDS.len() > 300);
        assert!(COMMON_PASSWORDS.iter().all(|p| p.chars().count() >= 10));
    }

    #[tokio::test]
    async fn hashes_are_argon2id_with_the_owasp_parameters_and_verify() {
        let p = Passwords::default();
        let h = p.hash("correct horse battery").await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(p.verify("correct horse battery", &h).await.unwrap());
        assert!(!p.verify("wrong horse battery", &h).await.unwrap());
        assert!(!p.verify("x", "not a hash").await.unwrap());
        assert!(!p.verify_dummy("anything").await.unwrap());
    }

    #[tokio::test]
    async fn checks_are_counted_when_they_start_and_wait_while_paused() {
        let p = Arc::new(Passwords::default());
        let h = p.hash("correct horse battery").await.unwrap();
        let mut checks = p.checks();
        assert_eq!(*checks.borrow_and_update(), 0, "hashing is not a check");
        let pause = p.pause().await.unwrap();
        let waiting = tokio::spawn({
            let p = p.clone();
            async move { p.verify("correct horse battery", &h).await }
        });
        checks.changed().await.unwrap();
        assert_eq!(*checks.borrow(), 1, "counted while it waits");
        assert!(!waiting.is_finished());
        drop(pause);
        assert!(waiting.await.unwrap().unwrap());
        p.verify_dummy("x").await.unwrap();
        assert_eq!(*checks.borrow(), 2, "a dummy check counts once");
    }
}
