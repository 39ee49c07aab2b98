//! `[mail]`: the SMTP server Moat sends its e-mail through (docs/accounts.md).

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Secret, Section};

/// How the connection to the SMTP server is protected.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum MailTls {
    /// Plain connection upgraded with STARTTLS, which is required (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS, port 465).
    Tls,
    /// No encryption: a relay on the same machine or network only (and the tests).
    None,
}

/// `[mail]`. Without a `host`, Moat sends no e-mail: password resets go through the
/// operator (`moat admin set-password`) and emails stay unverified.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MailConfig {
    /// The SMTP server's host name; empty: no e-mail.
    pub host: String,
    pub port: u16,
    pub tls: MailTls,
    /// The SMTP log-in; empty: none.
    pub username: String,
    pub password: Secret,
    /// The sender, e.g. `Moat <no-reply@example.com>`.
    pub from: String,
}

impl Default for MailConfig {
    fn default() -> Self {
        Self {
            host: String::new(),
            port: 587,
            tls: MailTls::Starttls,
            username: String::new(),
            password: Secret::default(),
            from: String::new(),
        }
    }
}

impl MailConfig {
    /// Whether e-mail is configured.
    pub fn enabled(&self) -> bool {
        !self.host.is_empty()
    }
}

impl Section for MailConfig {
    const NAME: &'static str = "mail";
    const ENV_KEYS: &'static [&'static str] =
        &["host", "port", "tls", "username", "password", "from"];

    fn validate(&self) -> Result<(), ConfigError> {
        if !self.enabled() {
            return Ok(());
        }
        if self.port == 0 {
            return Err(ConfigError::key("mail.port", "1 to 65535"));
        }
        if self.from.parse::<lettre::message::Mailbox>().is_err() {
            return Err(ConfigError::key(
                "mail.from",
                "an address such as `Moat <no-reply@example.com>`",
            ));
        }
        if self.username.is_empty() != self.password.is_empty() {
            return Err(ConfigError::new(
                "`mail.username` and `mail.password` go together: set both or neither",
            ));
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[mail]
# The SMTP server for e-mail verification and password-reset links. Empty host: no
# e-mail (members who forget their password ask the operator: moat admin set-password).
# Needs public_url (the links point there). Also MOAT_MAIL_HOST, MOAT_MAIL_PORT, …
host = ""
port = {port}
# starttls (required STARTTLS, usually port 587), tls (SMTPS, usually 465), or none
# (plain text: a relay on this machine or a private network only).
tls = "starttls"
username = ""
# Also MOAT_MAIL_PASSWORD.
password = ""
# The sender, e.g. "Moat <no-reply@example.com>".
from = ""
"#,
            port = self.port,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mail_is_off_by_default_and_then_needs_no_other_key() {
        let c = MailConfig::default();
        assert!(!c.enabled());
        assert!(c.validate().is_ok());
    }

    #[test]
    fn a_configured_server_needs_a_sender_and_both_or_neither_credentials() {
        let ok = MailConfig {
            host: "smtp.example.com".into(),
            from: "Moat <no-reply@example.com>".into(),
            ..Default::default()
        };
        assert!(ok.validate().is_ok());
        let no_from = MailConfig {
            from: String::new(),
            ..ok.clone()
        };
        assert!(no_from
            .validate()
            .unwrap_err()
            .to_string()
            .contains("mail.from"));
        let half = MailConfig {
            username: "moat".into(),
            ..ok.clone()
        };
        assert!(half.validate().is_err());
        let both = MailConfig {
            username: "moat".into(),
            password: "pw".into(),
            ..ok
        };
        assert!(both.validate().is_ok());
    }
}
