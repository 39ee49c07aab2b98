//! Configuration: defaults in code → an optional TOML file → `MOAT_…` environment
//! variables → command-line flags, each layer overriding the one before.

use std::{fmt, net::IpAddr, path::PathBuf};

use figment::{
    providers::{Env, Format, Serialized, Toml},
    Figment,
};
use serde::{Deserialize, Serialize};

use crate::{
    accounts::AccountsConfig, mail::MailConfig, market::MarketConfig, media::MediaConfig,
    observability::ObservabilityConfig, portfolio::PortfolioConfig,
};

/// Every setting of the server. Field names are the TOML keys; the environment
/// variable of a key is `MOAT_` + the key in upper case (e.g. `MOAT_DATABASE_URL`).
#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Address to listen on.
    pub host: IpAddr,
    /// Port to listen on (0 picks a free one).
    pub port: u16,
    /// Folder for the SQLite database and other files the server keeps.
    pub data_dir: PathBuf,
    /// `postgres://…` to use PostgreSQL; empty for SQLite in `data_dir`.
    pub database_url: String,
    /// The address people reach Moat at: the origin of link previews' absolute URLs
    /// (`og:url`, `og:image`, the canonical link) and of social log-in redirect URIs.
    /// Empty: pages carry no absolute URL (never one from the request's Host header),
    /// and redirect URIs use the request's host.
    pub public_url: String,
    /// Log filter in `tracing` syntax, e.g. `info` or `moat_server=debug,info`.
    pub log_level: String,
    /// `pretty` for people, `json` for log collectors.
    pub log_format: LogFormat,
    /// Largest request body accepted, in bytes.
    pub body_limit_bytes: usize,
    /// Largest number of pooled database connections.
    pub database_max_connections: u32,
    /// Serve the web app from this folder (a `web/dist` build) instead of the copy
    /// embedded in the binary. Empty: the embedded copy.
    pub web_dir: PathBuf,
    /// Serve the web-view host page (`/webview-host.html`) used to develop and test
    /// the mobile bridge. On in debug builds, off in release builds unless set.
    pub webview_host: bool,
    /// Seconds that in-flight requests get to finish after SIGTERM/SIGINT.
    pub shutdown_grace_secs: u64,
    /// Seconds a request head may take to arrive, from the connection's accept or the
    /// first byte of its next request; then the connection is closed (crate::server).
    pub header_read_timeout_secs: u64,
    /// Seconds a kept-alive connection may sit without a request before it is closed.
    /// Never applies to WebSockets.
    pub idle_timeout_secs: u64,
    /// Sockets open at once, WebSockets included. At the cap, new connections wait
    /// (they are accepted once one closes). Keep it below the open-file limit.
    pub max_connections: usize,
    /// Third-party scripts loaded late (spec §2 delayed scripts): each URL becomes a
    /// `<script delay="URL">` tag in the page and is allowed by the CSP.
    pub delayed_scripts: Vec<String>,
    /// Proxies (load balancers) in front of Moat, as addresses or CIDRs
    /// (`10.0.0.0/8`, `127.0.0.1`). A request from one of them has its client address
    /// read from `X-Forwarded-For` (crate::http::client_addr); from anyone else the
    /// header is ignored. Every per-address limit uses that address.
    pub trusted_proxies: Vec<String>,
    /// The broker between instances (crate::broker): `nats://host:4222` for NATS
    /// core publish/subscribe; empty for the in-process one of a single instance.
    pub broker_url: String,
    /// The operator's contact address, shown to everyone on the settings page (`GET
    /// /api/meta`). Empty: no contact is shown.
    pub contact_email: String,
    // The areas' sections, one line each (and one in `Config::sections`).
    /// Accounts and sign-in (`[accounts]`, `[[accounts.oidc]]`).
    #[serde(default)]
    pub accounts: AccountsConfig,
    /// Market data providers and the live stream (`[market]`).
    #[serde(default)]
    pub market: MarketConfig,
    /// Portfolios and dividends (`[portfolio]`).
    #[serde(default)]
    pub portfolio: PortfolioConfig,
    /// The observability ingest and its data (`[observability]`).
    #[serde(default)]
    pub observability: ObservabilityConfig,
    /// The SMTP server for e-mail (`[mail]`).
    #[serde(default)]
    pub mail: MailConfig,
    /// The media store: uploaded files every instance reads (`[media]`).
    #[serde(default)]
    pub media: MediaConfig,
    /// News feeds, polling and retention (`[news]`).
    #[serde(default)]
    pub news: crate::news::NewsConfig,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Pretty,
    Json,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            data_dir: PathBuf::from("./data"),
            database_url: String::new(),
            public_url: String::new(),
            log_level: "info".into(),
            log_format: LogFormat::Pretty,
            body_limit_bytes: 1024 * 1024,
            database_max_connections: 8,
            web_dir: PathBuf::new(),
            webview_host: cfg!(debug_assertions),
            shutdown_grace_secs: 10,
            header_read_timeout_secs: 10,
            idle_timeout_secs: 75,
            max_connections: 10_000,
            delayed_scripts: Vec::new(),
            trusted_proxies: Vec::new(),
            broker_url: String::new(),
            contact_email: String::new(),
            accounts: AccountsConfig::default(),
            market: MarketConfig::default(),
            portfolio: PortfolioConfig::default(),
            observability: ObservabilityConfig::default(),
            mail: MailConfig::default(),
            media: MediaConfig::default(),
            news: crate::news::NewsConfig::default(),
        }
    }
}

/// Keys read from the environment; other `MOAT_…` variables (e.g. the test suite's
/// `MOAT_TEST_POSTGRES_URL`) are not configuration and are left alone.
const ENV_KEYS: &[&str] = &[
    "host",
    "port",
    "data_dir",
    "database_url",
    "public_url",
    "log_level",
    "log_format",
    "body_limit_bytes",
    "database_max_connections",
    "web_dir",
    "webview_host",
    "shutdown_grace_secs",
    "header_read_timeout_secs",
    "idle_timeout_secs",
    "max_connections",
    "delayed_scripts",
    "trusted_proxies",
    "broker_url",
    "contact_email",
];

/// Values given on the command line; `None` leaves the lower layers in charge.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Overrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<IpAddr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webview_host: Option<bool>,
}

/// A configuration problem, worded for the person starting the server.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl ConfigError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }

    /// "invalid value for `key`: rule".
    pub fn key(key: &str, rule: impl fmt::Display) -> Self {
        Self(format!("invalid value for `{key}`: {rule}"))
    }
}

/// One area's table of the configuration (`[accounts]`, `[market]` …): its defaults
/// (`Default`), its environment keys, its checks and its commented defaults. The area
/// owns it (`<area>/config.rs`); [`Config`] only lists the sections.
pub trait Section: Default + Serialize + serde::de::DeserializeOwned {
    /// The table's name; its environment variables are `MOAT_<NAME>_<KEY>`.
    const NAME: &'static str;
    /// A former name of the table, still read from files and the environment.
    const LEGACY_NAME: Option<&'static str> = None;
    /// The keys read from the environment (others, e.g. lists of tables, are not).
    const ENV_KEYS: &'static [&'static str];
    /// Checks the values; an error names the key as `<name>.<key>`.
    fn validate(&self) -> Result<(), ConfigError>;
    /// The table with these values and a comment per key, for `moat config`.
    fn default_toml(&self) -> String;
}

/// A [`Section`] seen without its type, so that [`Config::sections`] can list them.
trait AnySection {
    fn name(&self) -> &'static str;
    fn legacy_name(&self) -> Option<&'static str>;
    fn env_keys(&self) -> &'static [&'static str];
    fn check(&self) -> Result<(), ConfigError>;
    fn commented(&self) -> String;
}

impl<S: Section> AnySection for S {
    fn name(&self) -> &'static str {
        S::NAME
    }

    fn legacy_name(&self) -> Option<&'static str> {
        S::LEGACY_NAME
    }

    fn env_keys(&self) -> &'static [&'static str] {
        S::ENV_KEYS
    }

    fn check(&self) -> Result<(), ConfigError> {
        self.validate()
    }

    fn commented(&self) -> String {
        self.default_toml()
    }
}

/// A configured secret (a signing key, an API key, a client secret): read and written
/// as a plain string, shown as `***` by `Debug`, so it never reaches a log.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that uses it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "\"\"" } else { "***" })
    }
}

/// A provider whose top-level tables named by a section's legacy name are read as
/// the section (`[auth]` as `[accounts]`), so files written for older versions load.
struct LegacyNames<P>(P);

impl<P: figment::Provider> figment::Provider for LegacyNames<P> {
    fn metadata(&self) -> figment::Metadata {
        self.0.metadata()
    }

    fn data(
        &self,
    ) -> Result<figment::value::Map<figment::Profile, figment::value::Dict>, figment::Error> {
        let mut data = self.0.data()?;
        for dict in data.values_mut() {
            for section in Config::default().sections() {
                let (name, Some(legacy)) = (section.name(), section.legacy_name()) else {
                    continue;
                };
                if let Some(old) = dict.remove(legacy) {
                    if dict.contains_key(name) {
                        return Err(figment::Error::from(format!(
                            "`[{legacy}]` is the former name of `[{name}]`: keep one of them"
                        )));
                    }
                    tracing::warn!("`[{legacy}]` is now called `[{name}]`");
                    dict.insert(name.to_owned(), old);
                }
            }
        }
        Ok(data)
    }
}

impl Config {
    /// The areas' sections: one line per area (beside its field above).
    fn sections(&self) -> [&dyn AnySection; 7] {
        [
            &self.accounts,
            &self.market,
            &self.portfolio,
            &self.observability,
            &self.mail,
            &self.media,
            &self.news,
        ]
    }

    /// Loads the layers. `file` is an explicit `--config` path (must exist); without
    /// it, `moat.toml` in the working directory is read when present.
    pub fn load(
        file: Option<&std::path::Path>,
        overrides: &Overrides,
    ) -> Result<Self, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        match file {
            Some(path) if !path.exists() => {
                return Err(ConfigError(format!(
                    "config file {} does not exist",
                    path.display()
                )))
            }
            Some(path) => figment = figment.merge(LegacyNames(Toml::file_exact(path))),
            None if std::path::Path::new("moat.toml").exists() => {
                figment = figment.merge(LegacyNames(Toml::file_exact("moat.toml")))
            }
            None => {}
        }
        // figment's `only`: these keys and no others (not a test filter), so an
        // unrelated `MOAT_…` variable is not an unknown key.
        figment = figment.merge(Env::prefixed("MOAT_").only(ENV_KEYS));
        for section in Config::default().sections() {
            let name = section.name();
            for prefix in section.legacy_name().into_iter().chain([name]) {
                figment = figment.merge(
                    Env::prefixed(&format!("MOAT_{}_", prefix.to_ascii_uppercase()))
                        .only(section.env_keys())
                        .map(move |k| format!("{name}.{k}").into()),
                );
            }
        }
        figment = figment.merge(Serialized::defaults(overrides));
        let config: Config = figment.extract().map_err(describe)?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if !self.database_url.is_empty()
            && moat_storage::Backend::from_url(&self.database_url).is_none()
        {
            return Err(ConfigError::key(
                "database_url",
                "expected postgres://… or sqlite:… (or empty for SQLite in data_dir)",
            ));
        }
        if self.body_limit_bytes < 1024 {
            return Err(ConfigError::key("body_limit_bytes", "at least 1024"));
        }
        for (key, value) in [
            ("header_read_timeout_secs", self.header_read_timeout_secs),
            ("idle_timeout_secs", self.idle_timeout_secs),
            ("max_connections", self.max_connections as u64),
            (
                "database_max_connections",
                u64::from(self.database_max_connections),
            ),
        ] {
            if value == 0 {
                return Err(ConfigError::key(key, "at least 1"));
            }
        }
        let has_scheme =
            self.public_url.starts_with("http://") || self.public_url.starts_with("https://");
        if !self.public_url.is_empty() && !has_scheme {
            return Err(ConfigError::key(
                "public_url",
                "must start with http:// or https://",
            ));
        }
        if self.mail.enabled() && self.public_url.is_empty() {
            // The links in mail point there; never at a request's Host header.
            return Err(ConfigError::key(
                "public_url",
                "required when `[mail]` is configured (the links in e-mail point there)",
            ));
        }
        if let Err(bad) = crate::http::client_addr::TrustedProxies::parse(&self.trusted_proxies) {
            return Err(ConfigError(format!(
                "invalid value in `trusted_proxies`: {bad:?} must be an IP address or a CIDR (10.0.0.0/8)"
            )));
        }
        if !self.broker_url.is_empty() && !self.broker_url.starts_with("nats://") {
            return Err(ConfigError::key(
                "broker_url",
                "must be nats://host:port, or empty for a single instance",
            ));
        }
        for url in &self.delayed_scripts {
            if !(url.starts_with("https://") || url.starts_with('/')) {
                return Err(ConfigError(format!(
                    "invalid value in `delayed_scripts`: {url:?} must be https://… or a /path"
                )));
            }
        }
        let contact = self.contact_email.trim();
        if !contact.is_empty()
            && (contact.len() > 254
                || !contact.contains('@')
                || contact.contains(char::is_whitespace))
        {
            return Err(ConfigError::key(
                "contact_email",
                "must be an e-mail address (name@example.com)",
            ));
        }
        self.sections().iter().try_for_each(|s| s.check())
    }

    /// Creates `data_dir` and its missing parents, readable by the owner only (0700 on
    /// Unix; the database in it is made 0600 by the storage). A folder that exists is
    /// left as it is; [`Config::data_dir_is_shared`] tells whether others can read it.
    pub fn create_data_dir(&self) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&self.data_dir)
        }
        #[cfg(not(unix))]
        {
            std::fs::create_dir_all(&self.data_dir)
        }
    }

    /// The permission bits of `data_dir` when its group or other users may enter or
    /// read it (start-up warns); `None` when it is private or not on Unix.
    pub fn data_dir_is_shared(&self) -> Option<u32> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&self.data_dir).ok()?.permissions().mode() & 0o777;
            (mode & 0o077 != 0).then_some(mode)
        }
        #[cfg(not(unix))]
        {
            None
        }
    }

    /// The database URL in effect: the configured one, or SQLite in `data_dir`.
    pub fn effective_database_url(&self) -> String {
        if self.database_url.is_empty() {
            format!("sqlite://{}", self.data_dir.join("moat.db").display())
        } else {
            self.database_url.clone()
        }
    }

    /// The commented default configuration, printed by `moat config`.
    pub fn default_toml() -> String {
        let d = Config::default();
        format!(
            r#"# Moat configuration. Every key is optional; the values below are the defaults.
# Each key can also be set by an environment variable: MOAT_ + the key in upper case
# (MOAT_PORT=9000), and some by flags (--port, --host, --data-dir, --database-url).
# Order of precedence: flags > environment > this file > defaults.

# Address and port to listen on.
host = "{host}"
port = {port}

# Folder for the embedded SQLite database (moat.db) and other files.
data_dir = "{data_dir}"

# Empty: SQLite in data_dir. postgres://user:password@host:5432/db: PostgreSQL,
# for several moat instances behind a load balancer.
database_url = ""
database_max_connections = {maxc}

# The address people reach Moat at (https://moat.example): link previews' og:url,
# og:image and canonical link, and social log-in redirect URIs. Empty: pages carry no
# absolute URL (og:url and og:image are left out), and redirect URIs use the
# request's host. Set it in production.
public_url = ""

# Logging: a tracing filter, and "pretty" or "json".
log_level = "{log_level}"
log_format = "pretty"

# Largest request body accepted, in bytes.
body_limit_bytes = {limit}

# Serve the web app from this folder (a web/dist build) instead of the embedded copy.
web_dir = ""

# Serve /webview-host.html, the page that loads Moat with a recording mobile bridge
# (for developing and testing the app integration). Off in release builds.
webview_host = {webview}

# Seconds in-flight requests get to finish on shutdown.
shutdown_grace_secs = {grace}

# Connections: a request head must arrive within header_read_timeout_secs (of the
# connection opening, or of the first byte of its next request), a kept-alive
# connection without requests is closed after idle_timeout_secs (WebSockets are not
# affected), and at most max_connections sockets are open at once (WebSockets
# included; further clients wait until one closes). Keep max_connections below the
# process's open-file limit (ulimit -n).
header_read_timeout_secs = {header_timeout}
idle_timeout_secs = {idle_timeout}
max_connections = {max_conns}

# Third-party scripts loaded 5 s after load or on first interaction (spec §2).
delayed_scripts = []

# Load balancers in front of Moat (addresses or CIDRs, e.g. ["10.0.0.0/8"]). Only a
# request from one of them has its client address read from X-Forwarded-For; the
# per-address limits (log-in, sign-up, mail, the telemetry ingest) use that address.
trusted_proxies = []

# Several instances: the broker they share events through (docs/scale-out.md), e.g.
# "nats://127.0.0.1:4222". Empty: one instance, events stay in the process.
broker_url = ""

# The operator's contact e-mail address, shown on the settings page. Empty: none.
contact_email = ""

{sections}"#,
            host = d.host,
            port = d.port,
            data_dir = d.data_dir.display(),
            maxc = d.database_max_connections,
            log_level = d.log_level,
            limit = d.body_limit_bytes,
            webview = d.webview_host,
            grace = d.shutdown_grace_secs,
            header_timeout = d.header_read_timeout_secs,
            idle_timeout = d.idle_timeout_secs,
            max_conns = d.max_connections,
            sections = d
                .sections()
                .iter()
                .map(|s| s.commented())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }
}

/// Figment's errors name the key and the source; keep that, drop its noise.
fn describe(err: figment::Error) -> ConfigError {
    let mut parts = Vec::new();
    for e in err {
        let key = e.path.join(".");
        let source = e
            .metadata
            .as_ref()
            .map(
                |m| match &e.metadata.as_ref().and_then(|m| m.source.as_ref()) {
                    Some(src) => format!(" (from {} {src})", m.name),
                    None => format!(" (from {})", m.name),
                },
            )
            .unwrap_or_default();
        if key.is_empty() {
            parts.push(format!("{}{source}", e.kind));
        } else {
            parts.push(format!("invalid value for `{key}`: {}{source}", e.kind));
        }
    }
    ConfigError(parts.join("; "))
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("data_dir", &self.data_dir)
            .field("database_url", &redact_url(&self.database_url))
            .field("public_url", &self.public_url)
            .field("log_level", &self.log_level)
            .field("log_format", &self.log_format)
            .field("body_limit_bytes", &self.body_limit_bytes)
            .field("webview_host", &self.webview_host)
            .field("broker_url", &redact_url(&self.broker_url))
            .field("contact_email", &self.contact_email)
            .field("accounts", &self.accounts)
            .field("market", &self.market)
            .field("portfolio", &self.portfolio)
            .field("observability", &self.observability)
            .field("mail", &self.mail)
            .field("media", &self.media)
            .finish_non_exhaustive()
    }
}

/// Hides the password of a URL (`postgres://user:secret@host` → `postgres://user:***@host`).
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
#[allow(clippy::result_large_err)] // figment::Jail's closures return figment::Error
mod tests {
    use super::*;
    use figment::Jail;

    #[test]
    fn layers_override_in_order_defaults_file_env_flags() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "port = 9000\nlog_level = \"debug\"\ndata_dir = \"/srv/moat\"",
            )?;
            jail.set_env("MOAT_PORT", "9100");
            jail.set_env("MOAT_TEST_POSTGRES_URL", "postgres://ignored");
            let flags = Overrides {
                data_dir: Some("/flag".into()),
                ..Default::default()
            };
            let c = Config::load(None, &flags).expect("loads");
            assert_eq!(c.port, 9100, "env beats file");
            assert_eq!(c.log_level, "debug", "file beats default");
            assert_eq!(c.data_dir, PathBuf::from("/flag"), "flag beats file");
            assert_eq!(c.host.to_string(), "127.0.0.1", "default kept");
            Ok(())
        });
    }

    #[test]
    fn the_contact_must_be_an_address() {
        Jail::expect_with(|jail| {
            jail.set_env("MOAT_CONTACT_EMAIL", "call us");
            let err = Config::load(None, &Overrides::default()).expect_err("refused");
            assert!(err.to_string().contains("contact_email"), "{err}");
            jail.set_env("MOAT_CONTACT_EMAIL", "help@moat.example");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.contact_email, "help@moat.example");
            Ok(())
        });
    }

    #[test]
    fn bad_values_name_the_key() {
        Jail::expect_with(|jail| {
            jail.set_env("MOAT_PORT", "eighty");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("`port`"), "{err}");
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.create_file("moat.toml", "prot = 1")?;
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("prot"), "an unknown key is named: {err}");
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.set_env("MOAT_DATABASE_URL", "mysql://x");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("`database_url`"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn accounts_settings_come_from_the_file_and_moat_accounts_env() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "[accounts]\ntoken_lifetime_days = 7\n[[accounts.oidc]]\nid = \"google\"\npreset = \"google\"\nclient_id = \"c\"\nclient_secret = \"s3cr3t-client\"\n",
            )?;
            let key = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=";
            jail.set_env("MOAT_ACCOUNTS_TOKEN_KEY", key);
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.accounts.token_lifetime_days, 7);
            assert_eq!(c.accounts.token_key.expose(), key);
            assert_eq!(c.accounts.oidc[0].preset, "google");
            let shown = format!("{c:?}");
            assert!(!shown.contains(key), "the key is not logged: {shown}");
            assert!(
                !shown.contains("s3cr3t-client"),
                "nor the client secret: {shown}"
            );
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.set_env("MOAT_ACCOUNTS_TOKEN_KEY", "c2hvcnQ=");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("accounts.token_key"), "{err}");
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "[[accounts.oidc]]\nid = \"Bad Id\"\nissuer = \"https://x\"\nclient_id = \"c\"\n",
            )?;
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("accounts.oidc.id"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn the_former_section_names_still_load() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "[auth]\ntoken_lifetime_days = 7\n[observe]\ningest_concurrency = 4\n",
            )?;
            let key = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=";
            jail.set_env("MOAT_AUTH_TOKEN_KEY", key);
            jail.set_env("MOAT_OBSERVE_RETENTION_DAYS", "9");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.accounts.token_lifetime_days, 7);
            assert_eq!(c.accounts.token_key.expose(), key);
            assert_eq!(c.observability.ingest_concurrency, 4);
            assert_eq!(c.observability.retention_days, 9);
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "[auth]\ntoken_lifetime_days = 7\n[accounts]\ntoken_lifetime_days = 8\n",
            )?;
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("[auth]") && err.contains("[accounts]"),
                "{err}"
            );
            Ok(())
        });
    }

    #[test]
    fn a_missing_explicit_file_is_an_error() {
        let err = Config::load(
            Some(std::path::Path::new("/nope/moat.toml")),
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("/nope/moat.toml"));
    }

    #[test]
    fn the_printed_default_config_parses_back_to_the_defaults() {
        let parsed: Config = Figment::from(Toml::string(&Config::default_toml()))
            .extract()
            .unwrap();
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn sqlite_in_data_dir_is_the_default_database() {
        let c = Config {
            data_dir: "/d".into(),
            ..Config::default()
        };
        assert_eq!(c.effective_database_url(), "sqlite:///d/moat.db");
    }

    #[test]
    fn passwords_are_redacted_in_debug_output() {
        let c = Config {
            database_url: "postgres://moat:hunter2@db/moat".into(),
            ..Config::default()
        };
        let shown = format!("{c:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("moat:***@db"), "{shown}");
    }

    #[test]
    fn mail_settings_come_from_moat_mail_env_and_need_a_public_url() {
        Jail::expect_with(|jail| {
            jail.set_env("MOAT_MAIL_HOST", "smtp.example.com");
            jail.set_env("MOAT_MAIL_PORT", "465");
            jail.set_env("MOAT_MAIL_TLS", "tls");
            jail.set_env("MOAT_MAIL_USERNAME", "moat");
            jail.set_env("MOAT_MAIL_PASSWORD", "hunter2");
            jail.set_env("MOAT_MAIL_FROM", "Moat <no-reply@example.com>");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("public_url"), "{err}");
            jail.set_env("MOAT_PUBLIC_URL", "https://moat.example.com");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.mail.host, "smtp.example.com");
            assert_eq!(c.mail.port, 465);
            assert_eq!(c.mail.tls, crate::mail::MailTls::Tls);
            assert_eq!(c.mail.password.expose(), "hunter2");
            let shown = format!("{c:?}");
            assert!(
                !shown.contains("hunter2"),
                "the password is redacted: {shown}"
            );
            Ok(())
        });
    }

    #[test]
    fn media_settings_come_from_moat_media_env_and_the_secret_is_redacted() {
        Jail::expect_with(|jail| {
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.media.store, crate::media::StoreKind::Folder);
            jail.set_env("MOAT_MEDIA_STORE", "s3");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("media.bucket"), "{err}");
            jail.set_env("MOAT_MEDIA_BUCKET", "moat-media");
            jail.set_env("MOAT_MEDIA_ENDPOINT", "http://127.0.0.1:3900");
            jail.set_env("MOAT_MEDIA_ACCESS_KEY_ID", "GK31c2f218a2e44f485b94239e");
            jail.set_env("MOAT_MEDIA_SECRET_ACCESS_KEY", "hunter2-media");
            jail.set_env("MOAT_MEDIA_PATH_STYLE", "true");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.media.bucket, "moat-media");
            assert!(c.media.path_style);
            assert_eq!(c.media.secret_access_key.expose(), "hunter2-media");
            let shown = format!("{c:?}");
            assert!(!shown.contains("hunter2-media"), "redacted: {shown}");
            Ok(())
        });
    }

    #[test]
    fn observability_settings_come_from_the_file_and_moat_observability_env() {
        Jail::expect_with(|jail| {
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.observability.retention_days, 30);
            jail.create_file("moat.toml", "[observability]\ningest_concurrency = 4")?;
            jail.set_env("MOAT_OBSERVABILITY_RETENTION_DAYS", "7");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(
                (
                    c.observability.retention_days,
                    c.observability.ingest_concurrency
                ),
                (7, 4)
            );
            jail.set_env("MOAT_OBSERVABILITY_RETENTION_DAYS", "0");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("observability.retention_days"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn connection_limits_come_from_the_file_and_env_and_are_checked() {
        Jail::expect_with(|jail| {
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(
                (
                    c.header_read_timeout_secs,
                    c.idle_timeout_secs,
                    c.max_connections
                ),
                (10, 75, 10_000)
            );
            jail.create_file(
                "moat.toml",
                "header_read_timeout_secs = 5\nmax_connections = 100",
            )?;
            jail.set_env("MOAT_IDLE_TIMEOUT_SECS", "30");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(
                (
                    c.header_read_timeout_secs,
                    c.idle_timeout_secs,
                    c.max_connections
                ),
                (5, 30, 100)
            );
            for (key, var) in [
                ("header_read_timeout_secs", "MOAT_HEADER_READ_TIMEOUT_SECS"),
                ("idle_timeout_secs", "MOAT_IDLE_TIMEOUT_SECS"),
                ("max_connections", "MOAT_MAX_CONNECTIONS"),
            ] {
                jail.set_env(var, "0");
                let err = Config::load(None, &Overrides::default())
                    .unwrap_err()
                    .to_string();
                assert!(err.contains(&format!("`{key}`")), "{err}");
                jail.set_env(var, "7");
            }
            Ok(())
        });
    }

    #[test]
    fn the_decompression_budget_holds_at_least_one_request() {
        Jail::expect_with(|jail| {
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(
                c.observability.max_decompressed_in_flight_bytes,
                64 * 1024 * 1024
            );
            jail.set_env(
                "MOAT_OBSERVABILITY_MAX_DECOMPRESSED_IN_FLIGHT_BYTES",
                "1048576",
            );
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("observability.max_decompressed_in_flight_bytes"),
                "{err}"
            );
            jail.set_env("MOAT_OBSERVABILITY_MAX_DECOMPRESSED_BYTES", "1048576");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(
                c.observability.max_decompressed_in_flight_bytes,
                1024 * 1024
            );
            Ok(())
        });
    }

    #[test]
    fn withholding_rates_default_to_korean_law_and_can_be_set() {
        Jail::expect_with(|jail| {
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.portfolio.withholding_kr.to_string(), "0.154");
            assert_eq!(c.portfolio.withholding_us.to_string(), "0.15");
            jail.create_file("moat.toml", "[portfolio]\nwithholding_us = \"0.1\"")?;
            jail.set_env("MOAT_PORTFOLIO_WITHHOLDING_KR", "0.099");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            let rates = c.portfolio.withholding();
            assert_eq!(rates.rate_for("US").to_string(), "0.1");
            assert_eq!(rates.rate_for("KR").to_string(), "0.099");
            jail.set_env("MOAT_PORTFOLIO_WITHHOLDING_KR", "1.5");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("portfolio.withholding_kr"), "{err}");
            Ok(())
        });
    }
}
