//! The log-in token: a JWT signed with HS256 only (docs/accounts.md, "The token").
//!
//! Verification here is the cryptographic part only (signature, algorithm, `exp`);
//! the session check (revoked, banned, deleted) is one indexed query done by the
//! extractors in [`super::extract`].

use std::path::Path;

use anyhow::Context;
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Bytes of a generated signing key.
pub const KEY_BYTES: usize = 32;
/// The file in `data_dir` holding the generated key (base64).
pub const KEY_FILE: &str = "token-key";

/// What a token says, as in the spec: `exp` and `iat` in Unix seconds, `jti` the
/// session id, `data` the member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub exp: i64,
    pub iat: i64,
    pub jti: String,
    pub data: TokenData,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenData {
    pub user_id: i64,
    pub nickname: String,
    pub chat_user_id: Uuid,
}

/// Signs and verifies tokens with one HS256 key.
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

/// Why a token was refused (all answered as `401 token_invalid`).
#[derive(Debug, thiserror::Error)]
#[error("invalid token: {0}")]
pub struct TokenError(#[from] jsonwebtoken::errors::Error);

impl TokenKeys {
    pub fn from_secret(secret: &[u8]) -> Self {
        // Pinned: HS256 only (so `none`, HS384, RS256… are refused), `exp` required.
        // `exp` is checked by [`TokenKeys::verify`] against the caller's clock (the
        // library's check would read the system's), with no leeway.
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.leeway = 0;
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.validate_aud = false;
        validation.set_required_spec_claims(&["exp"]);
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        }
    }

    /// Signs claims.
    pub fn sign(&self, claims: &Claims) -> anyhow::Result<String> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .context("cannot sign a token")
    }

    /// Checks the signature, the algorithm and `exp` (against `now`, Unix seconds: a
    /// token is good through its `exp` second); the claims when all hold.
    pub fn verify(&self, token: &str, now: i64) -> Result<Claims, TokenError> {
        let claims =
            jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)?.claims;
        if claims.exp < now {
            return Err(TokenError(
                jsonwebtoken::errors::ErrorKind::ExpiredSignature.into(),
            ));
        }
        Ok(claims)
    }
}

/// The signing key: `auth.token_key` when set, else `<data_dir>/token-key`, created
/// with mode 0600 on first start. A key file readable by others is refused.
pub fn load_key(configured: &str, data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    let b64 = base64::engine::general_purpose::STANDARD;
    if !configured.is_empty() {
        return b64
            .decode(configured.trim())
            .context("`auth.token_key` is not valid base64");
    }
    let path = data_dir.join(KEY_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            check_permissions(&path)?;
            let key = b64
                .decode(text.trim())
                .with_context(|| format!("{} is not valid base64", path.display()))?;
            anyhow::ensure!(
                key.len() >= KEY_BYTES,
                "{} holds fewer than {KEY_BYTES} bytes; delete it to make a new key (every member is logged out)",
                path.display()
            );
            Ok(key)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(data_dir)
                .with_context(|| format!("cannot create data_dir {}", data_dir.display()))?;
            let mut key = vec![0u8; KEY_BYTES];
            rand::rngs::OsRng.fill_bytes(&mut key);
            write_private(&path, b64.encode(&key).as_bytes())
                .with_context(|| format!("cannot write the token key {}", path.display()))?;
            tracing::info!(path = %path.display(), "made a new token-signing key");
            Ok(key)
        }
        Err(e) => Err(e).with_context(|| format!("cannot read the token key {}", path.display())),
    }
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::{io::Write, os::unix::fs::OpenOptionsExt};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

#[cfg(not(unix))]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

#[cfg(unix)]
fn check_permissions(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode();
    anyhow::ensure!(
        mode & 0o077 == 0,
        "the token key {} can be read by other users (mode {:o}); run `chmod 600 {}`",
        path.display(),
        mode & 0o777,
        path.display()
    );
    Ok(())
}

#[cfg(not(unix))]
fn check_permissions(_: &Path) -> anyhow::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(exp: i64) -> Claims {
        Claims {
            exp,
            iat: 1,
            jti: "j".into(),
            data: TokenData {
                user_id: 1,
                nickname: "개미".into(),
                chat_user_id: Uuid::nil(),
            },
        }
    }

    #[test]
    fn signs_and_verifies_and_refuses_another_key() {
        let keys = TokenKeys::from_secret(&[7; 32]);
        let now = 1_800_000_000;
        let exp = now + 60;
        let token = keys.sign(&claims(exp)).unwrap();
        assert_eq!(keys.verify(&token, now).unwrap(), claims(exp));
        assert!(TokenKeys::from_secret(&[8; 32])
            .verify(&token, now)
            .is_err());
        let expired = keys.sign(&claims(now - 1)).unwrap();
        assert!(keys.verify(&expired, now).is_err());
    }

    #[test]
    fn expiry_is_judged_by_the_given_clock_not_the_system_s() {
        let keys = TokenKeys::from_secret(&[7; 32]);
        // Long past by the system's clock, still good by the caller's.
        let then = 1_000_000_000;
        let token = keys.sign(&claims(then)).unwrap();
        assert_eq!(
            keys.verify(&token, then).unwrap(),
            claims(then),
            "good through exp"
        );
        assert!(keys.verify(&token, then + 1).is_err(), "no leeway");
        // Good by the system's clock, expired by the caller's.
        let soon = chrono::Utc::now().timestamp() + 60;
        let token = keys.sign(&claims(soon)).unwrap();
        assert!(keys.verify(&token, soon + 1).is_err());
    }

    #[test]
    fn a_key_file_is_made_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let a = load_key("", dir.path()).unwrap();
        let b = load_key("", dir.path()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), KEY_BYTES);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = dir.path().join(KEY_FILE);
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let err = load_key("", dir.path()).unwrap_err().to_string();
            assert!(err.contains("chmod 600"), "{err}");
        }
    }
}
