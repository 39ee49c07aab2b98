//! Sending e-mail: the [`Mailer`] trait and its SMTP implementation (`lettre` over
//! rustls), configured by `[mail]` (docs/accounts.md). Without a configured host
//! there is no mailer, and the areas that would send mail say so instead.

mod config;

use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use lettre::{
    message::{header::ContentType, Mailbox},
    transport::smtp::authentication::Credentials,
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
};

pub use config::{MailConfig, MailTls};

/// How long one message may take to reach the SMTP server before it is given up.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(30);

/// One plain-text message to one recipient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Where e-mail goes.
#[async_trait]
pub trait Mailer: Send + Sync {
    async fn send(&self, mail: Mail) -> anyhow::Result<()>;
}

/// The [`Mailer`] that speaks SMTP to the configured server.
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// The mailer of `[mail]`, or `None` when no host is configured. No network: the
    /// first connection is made by the first message.
    pub fn from_config(config: &MailConfig) -> anyhow::Result<Option<Self>> {
        if !config.enabled() {
            return Ok(None);
        }
        let builder = match config.tls {
            MailTls::Starttls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&config.host)
                .context("mail.host")?,
            MailTls::Tls => {
                AsyncSmtpTransport::<Tokio1Executor>::relay(&config.host).context("mail.host")?
            }
            MailTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host),
        };
        let mut builder = builder.port(config.port).timeout(Some(SEND_TIMEOUT));
        if !config.username.is_empty() {
            builder = builder.credentials(Credentials::new(
                config.username.clone(),
                config.password.expose().to_owned(),
            ));
        }
        let from = config
            .from
            .parse::<Mailbox>()
            .context("mail.from is not an address")?;
        Ok(Some(Self {
            transport: builder.build(),
            from,
        }))
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: Mail) -> anyhow::Result<()> {
        let to = mail
            .to
            .parse::<Mailbox>()
            .context("the recipient is not an address")?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body)
            .context("cannot build the message")?;
        self.transport
            .send(message)
            .await
            .context("the SMTP server did not take the message")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_send_timeout_is_thirty_seconds() {
        assert_eq!(SEND_TIMEOUT, Duration::from_secs(30));
    }

    #[test]
    fn without_a_host_there_is_no_mailer() {
        assert!(SmtpMailer::from_config(&MailConfig::default())
            .unwrap()
            .is_none());
    }
}
