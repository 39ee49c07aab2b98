//! Configuration: defaults in code → an optional TOML file → `MOAT_…` environment
//! variables → command-line flags, each layer overriding the one before.

use std::{fmt, net::IpAddr, path::PathBuf};

use figment::{
    providers::{Env, Format, Serialized, Toml},
    Figment,
};
use serde::{Deserialize, Serialize};

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
    /// The address people reach Moat at, used in link previews (`og:url`).
    /// Empty: derived from each request's Host header.
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
    /// Third-party scripts loaded late (spec §2 delayed scripts): each URL becomes a
    /// `<script delay="URL">` tag in the page and is allowed by the CSP.
    pub delayed_scripts: Vec<String>,
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
            delayed_scripts: Vec::new(),
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
    "delayed_scripts",
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

impl Config {
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
            Some(path) => figment = figment.merge(Toml::file_exact(path)),
            None if std::path::Path::new("moat.toml").exists() => {
                figment = figment.merge(Toml::file_exact("moat.toml"))
            }
            None => {}
        }
        figment = figment
            .merge(Env::prefixed("MOAT_").only(ENV_KEYS))
            .merge(Serialized::defaults(overrides));
        let config: Config = figment.extract().map_err(describe)?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if !self.database_url.is_empty()
            && moat_storage::Backend::from_url(&self.database_url).is_none()
        {
            return Err(ConfigError(
                "invalid value for `database_url`: expected postgres://… or sqlite:… (or empty for SQLite in data_dir)".into(),
            ));
        }
        if self.body_limit_bytes < 1024 {
            return Err(ConfigError(
                "invalid value for `body_limit_bytes`: at least 1024".into(),
            ));
        }
        if self.database_max_connections == 0 {
            return Err(ConfigError(
                "invalid value for `database_max_connections`: at least 1".into(),
            ));
        }
        let has_scheme =
            self.public_url.starts_with("http://") || self.public_url.starts_with("https://");
        if !self.public_url.is_empty() && !has_scheme {
            return Err(ConfigError(
                "invalid value for `public_url`: must start with http:// or https://".into(),
            ));
        }
        for url in &self.delayed_scripts {
            if !(url.starts_with("https://") || url.starts_with('/')) {
                return Err(ConfigError(format!(
                    "invalid value in `delayed_scripts`: {url:?} must be https://… or a /path"
                )));
            }
        }
        Ok(())
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

# The address people reach Moat at, used in link previews (og:url).
# Empty: taken from each request's Host header.
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

# Third-party scripts loaded 5 s after load or on first interaction (spec §2).
delayed_scripts = []
"#,
            host = d.host,
            port = d.port,
            data_dir = d.data_dir.display(),
            maxc = d.database_max_connections,
            log_level = d.log_level,
            limit = d.body_limit_bytes,
            webview = d.webview_host,
            grace = d.shutdown_grace_secs,
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
}
