//! Naver Login (네이버 로그인): OAuth 2.0, not OpenID Connect. There is no discovery
//! document and no ID token; the person is whoever the profile API says the access
//! token belongs to. The protocol, as Naver documents it (docs/accounts.md, "Naver"):
//!
//! 1. The browser goes to `authorize_url` with `response_type=code`, `client_id`,
//!    `redirect_uri` and `state`; no `scope` (consent items are set in the developer
//!    console) and no PKCE (Naver does not document it, so nothing relies on it).
//!    Naver sends it back with `code` and `state`, or `state`, `error` and
//!    `error_description`.
//! 2. The server posts `grant_type=authorization_code`, `client_id`, `client_secret`,
//!    `code` and `state` to `token_url`. The answer is JSON `{access_token,
//!    refresh_token, token_type: "bearer", expires_in: "3600"}` (`expires_in` a
//!    string), or `{error, error_description}`, both with HTTP 200.
//! 3. `GET profile_url` with `Authorization: Bearer <access_token>` answers
//!    `{resultcode: "00", message: "success", response: {id, email?, nickname?, …}}`;
//!    any other `resultcode` (`"024"` Authentication failed, with HTTP 401) is a
//!    refusal. `id` is unique per member and application, the identity's subject.
//!
//! Every answer is read up to [`MAX_ANSWER_BYTES`], within the shared client's
//! timeout ([`super::oidc::PROVIDER_TIMEOUT`]); redirects are not followed.

use anyhow::{bail, Context};
use serde::Deserialize;

use super::oidc::VerifiedIdentity;

/// Naver's authorization endpoint.
pub const AUTHORIZE_URL: &str = "https://nid.naver.com/oauth2.0/authorize";
/// Naver's token endpoint.
pub const TOKEN_URL: &str = "https://nid.naver.com/oauth2.0/token";
/// Naver's profile API (회원 프로필 조회).
pub const PROFILE_URL: &str = "https://openapi.naver.com/v1/nid/me";
/// The profile API's `resultcode` of success.
const RESULT_OK: &str = "00";
/// The most of an answer (token or profile) read; Naver's are a few hundred bytes.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// The longest `id` kept as a subject (Naver's are a few dozen characters).
pub const MAX_SUBJECT_CHARS: usize = 255;

/// Where a Naver provider's three endpoints are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoints {
    pub authorize_url: String,
    pub token_url: String,
    pub profile_url: String,
}

impl Endpoints {
    /// Naver's own endpoints, each replaced by its override when not empty.
    pub fn with_overrides(authorize_url: &str, token_url: &str, profile_url: &str) -> Self {
        let or = |value: &str, default: &str| {
            if value.is_empty() {
                default.to_owned()
            } else {
                value.to_owned()
            }
        };
        Self {
            authorize_url: or(authorize_url, AUTHORIZE_URL),
            token_url: or(token_url, TOKEN_URL),
            profile_url: or(profile_url, PROFILE_URL),
        }
    }

    /// The authorization URL for a log-in that comes back to `redirect_uri` with
    /// `state`.
    pub fn authorize(
        &self,
        client_id: &str,
        redirect_uri: &str,
        state: &str,
    ) -> anyhow::Result<String> {
        let mut url = url::Url::parse(&self.authorize_url).context("invalid authorize_url")?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("state", state);
        Ok(url.into())
    }

    /// Code → access token → profile: the person's Naver `id`, email and nickname.
    pub async fn exchange(
        &self,
        http: &reqwest::Client,
        client_id: &str,
        client_secret: &str,
        code: &str,
        state: &str,
    ) -> anyhow::Result<VerifiedIdentity> {
        let response = http
            .post(&self.token_url)
            .header(reqwest::header::ACCEPT, "application/json")
            .form(&[
                ("grant_type", "authorization_code"),
                ("client_id", client_id),
                ("client_secret", client_secret),
                ("code", code),
                ("state", state),
            ])
            .send()
            .await
            .context("Naver token request failed")?;
        let status = response.status();
        let body = read_capped(response)
            .await
            .context("Naver token answer unreadable")?;
        let token: TokenAnswer = serde_json::from_slice(&body)
            .with_context(|| format!("Naver token answer is not JSON (HTTP {status})"))?;
        let access_token = token.access_token(status)?;

        let response = http
            .get(&self.profile_url)
            .bearer_auth(access_token)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .context("Naver profile request failed")?;
        let status = response.status();
        let body = read_capped(response)
            .await
            .context("Naver profile answer unreadable")?;
        let profile: ProfileAnswer = serde_json::from_slice(&body)
            .with_context(|| format!("Naver profile answer is not JSON (HTTP {status})"))?;
        profile.identity(status)
    }
}

/// The token endpoint's answer: a token, or an error (with HTTP 200 too).
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: Option<String>,
    token_type: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

impl TokenAnswer {
    fn access_token(&self, status: reqwest::StatusCode) -> anyhow::Result<&str> {
        if let Some(error) = self.error.as_deref().filter(|e| !e.is_empty()) {
            bail!(
                "Naver refused the code: {error:?} ({:?}, HTTP {status})",
                self.error_description.as_deref().unwrap_or_default()
            );
        }
        if !status.is_success() {
            bail!("Naver token endpoint answered HTTP {status}");
        }
        if let Some(kind) = &self.token_type {
            if !kind.eq_ignore_ascii_case("bearer") {
                bail!("Naver token of type {kind:?}, not bearer");
            }
        }
        self.access_token
            .as_deref()
            .filter(|t| !t.is_empty())
            .context("Naver token answer without access_token")
    }
}

/// The profile API's answer.
#[derive(Deserialize)]
struct ProfileAnswer {
    resultcode: Option<String>,
    message: Option<String>,
    response: Option<Profile>,
}

#[derive(Deserialize)]
struct Profile {
    id: Option<String>,
    email: Option<String>,
    nickname: Option<String>,
}

impl ProfileAnswer {
    fn identity(self, status: reqwest::StatusCode) -> anyhow::Result<VerifiedIdentity> {
        let code = self.resultcode.as_deref().unwrap_or_default();
        if code != RESULT_OK || !status.is_success() {
            bail!(
                "Naver profile refused: resultcode {code:?} ({:?}, HTTP {status})",
                self.message.as_deref().unwrap_or_default()
            );
        }
        let profile = self
            .response
            .context("Naver profile answer without response")?;
        let subject = profile
            .id
            .filter(|id| {
                !id.is_empty()
                    && id.chars().count() <= MAX_SUBJECT_CHARS
                    && !id.chars().any(char::is_control)
            })
            .context("Naver profile without a usable id")?;
        // Naver says nothing about verification: its email is the account's contact
        // address, used as OpenID Connect's when not marked unverified.
        let email = profile
            .email
            .map(|e| super::validate::normalize_email(&e))
            .filter(|e| super::validate::check_email(e).is_none());
        let nickname = profile
            .nickname
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty());
        Ok(VerifiedIdentity {
            subject,
            email,
            nickname,
        })
    }
}

/// The body, refused past [`MAX_ANSWER_BYTES`].
async fn read_capped(mut response: reqwest::Response) -> anyhow::Result<Vec<u8>> {
    if response
        .content_length()
        .is_some_and(|n| n > MAX_ANSWER_BYTES as u64)
    {
        bail!("answer over {MAX_ANSWER_BYTES} bytes");
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > MAX_ANSWER_BYTES {
            bail!("answer over {MAX_ANSWER_BYTES} bytes");
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authorization_url_carries_naver_parameters_only() {
        let e = Endpoints::with_overrides("", "", "");
        assert_eq!(e.token_url, TOKEN_URL);
        assert_eq!(e.profile_url, PROFILE_URL);
        let url = e
            .authorize(
                "client",
                "https://moat.example/api/auth/oidc/naver/callback",
                "s t",
            )
            .unwrap();
        assert_eq!(
            url,
            "https://nid.naver.com/oauth2.0/authorize?response_type=code&client_id=client&redirect_uri=https%3A%2F%2Fmoat.example%2Fapi%2Fauth%2Foidc%2Fnaver%2Fcallback&state=s+t"
        );
        let local = Endpoints::with_overrides("http://127.0.0.1:9/authorize?x=1", "", "");
        assert_eq!(
            local.authorize("c", "r", "s").unwrap(),
            "http://127.0.0.1:9/authorize?x=1&response_type=code&client_id=c&redirect_uri=r&state=s"
        );
    }

    #[test]
    fn token_answers_in_naver_shapes() {
        let ok: TokenAnswer = serde_json::from_str(
            r#"{"access_token":"AAAA","refresh_token":"r","token_type":"bearer","expires_in":"3600"}"#,
        )
        .unwrap();
        assert_eq!(ok.access_token(reqwest::StatusCode::OK).unwrap(), "AAAA");
        let refused: TokenAnswer = serde_json::from_str(
            r#"{"error":"invalid_request","error_description":"no valid data in session"}"#,
        )
        .unwrap();
        let e = refused
            .access_token(reqwest::StatusCode::OK)
            .unwrap_err()
            .to_string();
        assert!(e.contains("invalid_request"), "{e}");
        let empty: TokenAnswer = serde_json::from_str("{}").unwrap();
        assert!(empty.access_token(reqwest::StatusCode::OK).is_err());
        assert!(ok.access_token(reqwest::StatusCode::BAD_GATEWAY).is_err());
    }

    #[test]
    fn profile_answers_in_naver_shapes() {
        let ok: ProfileAnswer = serde_json::from_str(
            r#"{"resultcode":"00","message":"success","response":{"id":"32742776","nickname":"개미","email":" Ant@Naver.com ","name":"김개미"}}"#,
        )
        .unwrap();
        let id = ok.identity(reqwest::StatusCode::OK).unwrap();
        assert_eq!(id.subject, "32742776");
        assert_eq!(id.email.as_deref(), Some("ant@naver.com"));
        assert_eq!(id.nickname.as_deref(), Some("개미"));

        let without_email: ProfileAnswer =
            serde_json::from_str(r#"{"resultcode":"00","message":"success","response":{"id":"1","email":"not-an-email"}}"#)
                .unwrap();
        let id = without_email.identity(reqwest::StatusCode::OK).unwrap();
        assert_eq!(id.email, None);
        assert_eq!(id.nickname, None);

        for (body, status) in [
            (
                r#"{"resultcode":"024","message":"Authentication failed"}"#,
                reqwest::StatusCode::UNAUTHORIZED,
            ),
            (
                r#"{"resultcode":"00","message":"success","response":{"id":""}}"#,
                reqwest::StatusCode::OK,
            ),
            (
                r#"{"resultcode":"00","message":"success"}"#,
                reqwest::StatusCode::OK,
            ),
            (
                r#"{"resultcode":"00","message":"success","response":{"id":"1"}}"#,
                reqwest::StatusCode::INTERNAL_SERVER_ERROR,
            ),
        ] {
            let a: ProfileAnswer = serde_json::from_str(body).unwrap();
            assert!(a.identity(status).is_err(), "{body}");
        }
    }
}
