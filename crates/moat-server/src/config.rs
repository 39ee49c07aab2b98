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
    /// Accounts and sign-in (`[auth]`, `[[auth.oidc]]`).
    #[serde(default)]
    pub auth: AuthConfig,
    /// Market data providers and the live stream (`[market]`).
    #[serde(default)]
    pub market: MarketConfig,
    /// Portfolios and dividends (`[portfolio]`).
    #[serde(default)]
    pub portfolio: PortfolioConfig,
    /// The observability ingest and its data (`[observe]`).
    #[serde(default)]
    pub observe: ObserveConfig,
}

/// `[observe]`: limits of the session-recording and OTLP ingest and how long its
/// data is kept (docs/observability.md).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ObserveConfig {
    /// Days recorded sessions, errors, metrics and spans are kept.
    pub retention_days: u32,
    /// Largest ingest request body (`/public`, `/v1/traces`, `/v1/metrics`).
    pub max_body_bytes: usize,
    /// Largest payload after decompression (a push's gzip, a gzipped OTLP body).
    pub max_decompressed_bytes: usize,
    /// Decompressed bytes all ingest requests together may hold at once; a request
    /// whose decompression would pass it gets 503 with `Retry-After`. At least
    /// `max_decompressed_bytes`.
    pub max_decompressed_in_flight_bytes: usize,
    /// Compressed bytes one recorded session may send in all; past it the recorder
    /// is told `BillingQuotaExceeded` and stops.
    pub session_budget_bytes: u64,
    /// Bytes one client address may send to the ingest per hour (per instance).
    pub ip_budget_bytes_per_hour: u64,
    /// Ingest requests processed at once; others wait up to 2 s, then get 503.
    pub ingest_concurrency: usize,
    /// Record a span for each API request that carries a W3C `traceparent`.
    pub server_spans: bool,
}

impl Default for ObserveConfig {
    fn default() -> Self {
        Self {
            retention_days: 30,
            max_body_bytes: 8 * 1024 * 1024,
            max_decompressed_bytes: 32 * 1024 * 1024,
            max_decompressed_in_flight_bytes: 64 * 1024 * 1024,
            session_budget_bytes: 64 * 1024 * 1024,
            ip_budget_bytes_per_hour: 1024 * 1024 * 1024,
            ingest_concurrency: 16,
            server_spans: true,
        }
    }
}

/// `[portfolio]`: dividend withholding tax by the paying company's country, as
/// fractions (docs/portfolio.md). Defaults: 15.4 % for Korean dividends to residents
/// (14 % income tax + 1.4 % local tax), 15 % for US dividends under the Korea–US treaty.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct PortfolioConfig {
    pub withholding_kr: rust_decimal::Decimal,
    pub withholding_us: rust_decimal::Decimal,
}

impl Default for PortfolioConfig {
    fn default() -> Self {
        let rates = moat_portfolio::dividends::WithholdingRates::default();
        Self {
            withholding_kr: rates.rate_for("KR"),
            withholding_us: rates.rate_for("US"),
        }
    }
}

impl PortfolioConfig {
    pub fn withholding(&self) -> moat_portfolio::dividends::WithholdingRates {
        let mut rates = moat_portfolio::dividends::WithholdingRates::default();
        rates.by_country.insert("KR".into(), self.withholding_kr);
        rates.by_country.insert("US".into(), self.withholding_us);
        rates
    }
}

/// `[market]`: which provider serves each market, and stream limits (docs/market.md).
#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MarketConfig {
    /// Provider of Korean prices: `simulator`, `yahoo` or `alpha_vantage`.
    pub krx: String,
    /// Provider of US prices: `simulator`, `yahoo` or `alpha_vantage`.
    pub us: String,
    /// Provider of FX rates: `simulator`, `ecb`, `yahoo` or `alpha_vantage`.
    pub fx: String,
    /// The Alpha Vantage API key (needed when a market uses `alpha_vantage`).
    pub alpha_vantage_key: String,
    /// Seconds between quote polls of a real provider.
    pub poll_secs: u64,
    /// Base URL of Yahoo Finance (tests point it at a local server).
    pub yahoo_url: String,
    /// Base URL of Alpha Vantage.
    pub alpha_vantage_url: String,
    /// Years of daily history the simulator backfills on first start (0: none).
    pub backfill_years: u32,
    /// WebSocket connections one instance accepts on `/api/stream`.
    pub max_stream_connections: usize,
}

impl Default for MarketConfig {
    fn default() -> Self {
        Self {
            krx: "simulator".into(),
            us: "simulator".into(),
            fx: "simulator".into(),
            alpha_vantage_key: String::new(),
            poll_secs: 60,
            yahoo_url: moat_market::providers::yahoo::DEFAULT_BASE_URL.into(),
            alpha_vantage_url: moat_market::providers::alpha_vantage::DEFAULT_BASE_URL.into(),
            backfill_years: 5,
            max_stream_connections: 10_000,
        }
    }
}

impl fmt::Debug for MarketConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MarketConfig")
            .field("krx", &self.krx)
            .field("us", &self.us)
            .field("fx", &self.fx)
            .field(
                "alpha_vantage_key",
                &if self.alpha_vantage_key.is_empty() {
                    ""
                } else {
                    "***"
                },
            )
            .finish_non_exhaustive()
    }
}

/// `[auth]`: tokens, limits and the OpenID Connect providers (docs/accounts.md).
#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct AuthConfig {
    /// Base64 of at least 32 random bytes signing the tokens. Empty: a key is made on
    /// first start in `<data_dir>/token-key`. Required (the same value everywhere)
    /// when several instances share one PostgreSQL database.
    pub token_key: String,
    /// How long a token is valid, in days.
    pub token_lifetime_days: u32,
    /// Tests only: a lifetime in seconds that replaces `token_lifetime_days` when
    /// non-zero.
    pub token_lifetime_secs: u64,
    /// Sign-ups allowed per client IP per hour.
    pub signups_per_ip_per_hour: u32,
    /// Social log-in providers.
    pub oidc: Vec<OidcProviderConfig>,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            token_key: String::new(),
            token_lifetime_days: 30,
            token_lifetime_secs: 0,
            signups_per_ip_per_hour: 10,
            oidc: Vec::new(),
        }
    }
}

/// One `[[auth.oidc]]` provider. A `preset` fills `issuer` and `scopes`.
#[derive(Clone, Serialize, Deserialize, PartialEq, Debug, Default)]
#[serde(default, deny_unknown_fields)]
pub struct OidcProviderConfig {
    /// Short id used in URLs (`/api/auth/oidc/{id}/start`): a-z, 0-9, `-`, `_`.
    pub id: String,
    /// The name shown on the log-in button.
    pub name: String,
    /// The issuer URL (discovery is read from `<issuer>/.well-known/openid-configuration`).
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
    /// Scopes besides `openid`. Empty: the preset's, or `email profile`.
    pub scopes: Vec<String>,
    /// `kakao`, `naver`, `google`, `apple` or empty.
    pub preset: String,
}

impl fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthConfig")
            .field(
                "token_key",
                &if self.token_key.is_empty() { "" } else { "***" },
            )
            .field("token_lifetime_days", &self.token_lifetime_days)
            .field("oidc", &self.oidc.iter().map(|p| &p.id).collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
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
            auth: AuthConfig::default(),
            market: MarketConfig::default(),
            portfolio: PortfolioConfig::default(),
            observe: ObserveConfig::default(),
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
];

/// `[auth]` keys read from `MOAT_AUTH_…` (e.g. `MOAT_AUTH_TOKEN_KEY`).
const AUTH_ENV_KEYS: &[&str] = &[
    "token_key",
    "token_lifetime_days",
    "signups_per_ip_per_hour",
];

/// `[market]` keys read from `MOAT_MARKET_…` (e.g. `MOAT_MARKET_ALPHA_VANTAGE_KEY`).
/// `MOAT_PORTFOLIO_*` variables read into `[portfolio]` (figment's `only`: these keys
/// and no others, so an unrelated `MOAT_PORTFOLIO_…` variable is not an unknown key).
const PORTFOLIO_ENV_KEYS: &[&str] = &["withholding_kr", "withholding_us"];

/// `[observe]` keys read from `MOAT_OBSERVE_…` (e.g. `MOAT_OBSERVE_RETENTION_DAYS`).
const OBSERVE_ENV_KEYS: &[&str] = &[
    "retention_days",
    "max_body_bytes",
    "max_decompressed_bytes",
    "max_decompressed_in_flight_bytes",
    "session_budget_bytes",
    "ip_budget_bytes_per_hour",
    "ingest_concurrency",
    "server_spans",
];

const MARKET_ENV_KEYS: &[&str] = &[
    "krx",
    "us",
    "fx",
    "alpha_vantage_key",
    "poll_secs",
    "yahoo_url",
    "alpha_vantage_url",
    "backfill_years",
    "max_stream_connections",
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
            .merge(
                Env::prefixed("MOAT_AUTH_")
                    .only(AUTH_ENV_KEYS)
                    .map(|k| format!("auth.{k}").into()),
            )
            // figment's `only`: these keys and no others (not a test filter).
            .merge(
                Env::prefixed("MOAT_MARKET_")
                    .only(MARKET_ENV_KEYS)
                    .map(|k| format!("market.{k}").into()),
            )
            .merge(
                Env::prefixed("MOAT_PORTFOLIO_")
                    .only(PORTFOLIO_ENV_KEYS)
                    .map(|k| format!("portfolio.{k}").into()),
            )
            .merge(
                Env::prefixed("MOAT_OBSERVE_")
                    .only(OBSERVE_ENV_KEYS)
                    .map(|k| format!("observe.{k}").into()),
            )
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
        for (key, value) in [
            ("header_read_timeout_secs", self.header_read_timeout_secs),
            ("idle_timeout_secs", self.idle_timeout_secs),
            ("max_connections", self.max_connections as u64),
        ] {
            if value == 0 {
                return Err(ConfigError(format!(
                    "invalid value for `{key}`: at least 1"
                )));
            }
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
        self.validate_auth()?;
        self.validate_market()?;
        self.validate_observe()?;
        for (key, rate) in [
            ("withholding_kr", self.portfolio.withholding_kr),
            ("withholding_us", self.portfolio.withholding_us),
        ] {
            if rate < rust_decimal::Decimal::ZERO || rate >= rust_decimal::Decimal::ONE {
                return Err(ConfigError(format!(
                    "invalid value for `portfolio.{key}`: a fraction from 0 to below 1 (0.154 is 15.4 %)"
                )));
            }
        }
        Ok(())
    }

    fn validate_market(&self) -> Result<(), ConfigError> {
        let m = &self.market;
        let prices = ["simulator", "yahoo", "alpha_vantage"];
        for (key, value, allowed) in [
            ("krx", &m.krx, &prices[..]),
            ("us", &m.us, &prices[..]),
            (
                "fx",
                &m.fx,
                &["simulator", "ecb", "yahoo", "alpha_vantage"][..],
            ),
        ] {
            if !allowed.contains(&value.as_str()) {
                return Err(ConfigError(format!(
                    "invalid value for `market.{key}`: {value:?} (one of {})",
                    allowed.join(", ")
                )));
            }
            if value == "alpha_vantage" && m.alpha_vantage_key.is_empty() {
                return Err(ConfigError(format!(
                    "`market.{key}` is alpha_vantage: set `market.alpha_vantage_key` (MOAT_MARKET_ALPHA_VANTAGE_KEY)"
                )));
            }
        }
        if m.poll_secs < 5 {
            return Err(ConfigError(
                "invalid value for `market.poll_secs`: at least 5".into(),
            ));
        }
        if m.backfill_years > 30 {
            return Err(ConfigError(
                "invalid value for `market.backfill_years`: 0 to 30".into(),
            ));
        }
        if m.max_stream_connections == 0 {
            return Err(ConfigError(
                "invalid value for `market.max_stream_connections`: at least 1".into(),
            ));
        }
        Ok(())
    }

    fn validate_observe(&self) -> Result<(), ConfigError> {
        let o = &self.observe;
        let checks: [(&str, bool, &str); 7] = [
            (
                "retention_days",
                (1..=3650).contains(&o.retention_days),
                "1 to 3650",
            ),
            ("max_body_bytes", o.max_body_bytes >= 1024, "at least 1024"),
            (
                "max_decompressed_bytes",
                o.max_decompressed_bytes >= 1024,
                "at least 1024",
            ),
            (
                "max_decompressed_in_flight_bytes",
                o.max_decompressed_in_flight_bytes >= o.max_decompressed_bytes,
                "at least max_decompressed_bytes",
            ),
            (
                "session_budget_bytes",
                o.session_budget_bytes >= 1024,
                "at least 1024",
            ),
            (
                "ip_budget_bytes_per_hour",
                o.ip_budget_bytes_per_hour >= 1024,
                "at least 1024",
            ),
            (
                "ingest_concurrency",
                o.ingest_concurrency >= 1,
                "at least 1",
            ),
        ];
        for (key, ok, rule) in checks {
            if !ok {
                return Err(ConfigError(format!(
                    "invalid value for `observe.{key}`: {rule}"
                )));
            }
        }
        Ok(())
    }

    fn validate_auth(&self) -> Result<(), ConfigError> {
        let auth = &self.auth;
        if !auth.token_key.is_empty() {
            use base64::Engine;
            let ok = base64::engine::general_purpose::STANDARD
                .decode(auth.token_key.trim())
                .is_ok_and(|k| k.len() >= 32);
            if !ok {
                return Err(ConfigError(
                    "invalid value for `auth.token_key`: base64 of at least 32 bytes (e.g. `openssl rand -base64 32`)".into(),
                ));
            }
        }
        if auth.token_lifetime_days == 0 || auth.token_lifetime_days > 3650 {
            return Err(ConfigError(
                "invalid value for `auth.token_lifetime_days`: 1 to 3650".into(),
            ));
        }
        let mut ids = std::collections::HashSet::new();
        for p in &auth.oidc {
            let valid_id = !p.id.is_empty()
                && p.id.len() <= 32
                && p.id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
            if !valid_id {
                return Err(ConfigError(format!(
                    "invalid value for `auth.oidc.id`: {:?} must be 1 to 32 of a-z, 0-9, - and _",
                    p.id
                )));
            }
            if !ids.insert(p.id.clone()) {
                return Err(ConfigError(format!(
                    "invalid value for `auth.oidc.id`: {:?} is used twice",
                    p.id
                )));
            }
            if !["", "kakao", "naver", "google", "apple"].contains(&p.preset.as_str()) {
                return Err(ConfigError(format!(
                    "invalid value for `auth.oidc.preset` of {:?}: kakao, naver, google, apple or empty",
                    p.id
                )));
            }
            if p.issuer.is_empty() && p.preset.is_empty() {
                return Err(ConfigError(format!(
                    "`auth.oidc` {:?} needs an `issuer` or a `preset`",
                    p.id
                )));
            }
            let http_url = p.issuer.starts_with("https://") || p.issuer.starts_with("http://");
            if !(p.issuer.is_empty() || http_url) {
                return Err(ConfigError(format!(
                    "invalid value for `auth.oidc.issuer` of {:?}: must be an http(s) URL",
                    p.id
                )));
            }
            if p.client_id.is_empty() {
                return Err(ConfigError(format!(
                    "`auth.oidc` {:?} needs a `client_id`",
                    p.id
                )));
            }
        }
        Ok(())
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

[auth]
# Base64 of at least 32 random bytes signing the log-in tokens (openssl rand -base64 32).
# Empty: a key is made on first start in <data_dir>/token-key (mode 0600). Set the same
# value on every instance when several share one PostgreSQL database.
# Also MOAT_AUTH_TOKEN_KEY.
token_key = ""
# Days a log-in token stays valid; past half of it, requests get a fresh one.
token_lifetime_days = {lifetime}
# Tests only: a lifetime in seconds replacing token_lifetime_days when not 0.
token_lifetime_secs = 0
# Sign-ups allowed per client IP per hour.
signups_per_ip_per_hour = {signups}

# Social log-in over OpenID Connect, one block per provider. A preset (kakao, naver,
# google, apple) fills issuer and scopes. The redirect URI to register with the
# provider is <public_url>/api/auth/oidc/<id>/callback.
# [[auth.oidc]]
# id = "google"
# name = "Google"
# preset = "google"
# client_id = "…"
# client_secret = "…"

[market]
# Where prices come from, per market: "simulator" (deterministic simulated prices,
# works offline, labelled as simulated), "yahoo" (Yahoo Finance, delayed, no key) or
# "alpha_vantage" (needs alpha_vantage_key). FX also takes "ecb" (daily reference rates).
krx = "{krx}"
us = "{us}"
fx = "{fx}"
# Also MOAT_MARKET_ALPHA_VANTAGE_KEY.
alpha_vantage_key = ""
# Seconds between quote polls of a real provider (the simulator ticks every 2 s).
poll_secs = {poll}
# Where the real providers are reached.
yahoo_url = "{yahoo_url}"
alpha_vantage_url = "{av_url}"
# Years of daily history the simulator writes on first start.
backfill_years = {backfill}
# Live-quote WebSocket connections one instance accepts.
max_stream_connections = {max_stream}

[observe]
# Session recording and telemetry ingest (/public, /v1/traces, /v1/metrics).
# Days recorded sessions, errors, metrics and spans are kept.
retention_days = {retention}
# Largest ingest body, and largest payload after decompression, in bytes.
max_body_bytes = {obs_body}
max_decompressed_bytes = {obs_unzipped}
# Decompressed bytes all ingest requests may hold at once (at least the above); past
# it a request gets 503 with Retry-After, which the clients honour.
max_decompressed_in_flight_bytes = {obs_in_flight}
# Compressed bytes one recorded session may send; then the recorder is told to stop.
session_budget_bytes = {obs_session}
# Bytes one client address may send to the ingest per hour (per instance).
ip_budget_bytes_per_hour = {obs_ip}
# Ingest requests processed at once (others wait up to 2 s, then get 503).
ingest_concurrency = {obs_concurrency}
# Record a span for each API request that continues a browser trace (traceparent).
server_spans = {obs_spans}
"#,
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
            lifetime = d.auth.token_lifetime_days,
            signups = d.auth.signups_per_ip_per_hour,
            krx = d.market.krx,
            us = d.market.us,
            fx = d.market.fx,
            poll = d.market.poll_secs,
            yahoo_url = d.market.yahoo_url,
            av_url = d.market.alpha_vantage_url,
            backfill = d.market.backfill_years,
            max_stream = d.market.max_stream_connections,
            retention = d.observe.retention_days,
            obs_body = d.observe.max_body_bytes,
            obs_unzipped = d.observe.max_decompressed_bytes,
            obs_in_flight = d.observe.max_decompressed_in_flight_bytes,
            obs_session = d.observe.session_budget_bytes,
            obs_ip = d.observe.ip_budget_bytes_per_hour,
            obs_concurrency = d.observe.ingest_concurrency,
            obs_spans = d.observe.server_spans,
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
            .field("auth", &self.auth)
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
    fn auth_settings_come_from_the_file_and_moat_auth_env() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "[auth]\ntoken_lifetime_days = 7\n[[auth.oidc]]\nid = \"google\"\npreset = \"google\"\nclient_id = \"c\"\n",
            )?;
            let key = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=";
            jail.set_env("MOAT_AUTH_TOKEN_KEY", key);
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.auth.token_lifetime_days, 7);
            assert_eq!(c.auth.token_key, key);
            assert_eq!(c.auth.oidc[0].preset, "google");
            assert!(!format!("{c:?}").contains(key), "the key is not logged");
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.set_env("MOAT_AUTH_TOKEN_KEY", "c2hvcnQ=");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("auth.token_key"), "{err}");
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.create_file(
                "moat.toml",
                "[[auth.oidc]]\nid = \"Bad Id\"\nissuer = \"https://x\"\nclient_id = \"c\"\n",
            )?;
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("auth.oidc.id"), "{err}");
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
    fn observe_settings_come_from_the_file_and_moat_observe_env() {
        Jail::expect_with(|jail| {
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.observe.retention_days, 30);
            jail.create_file("moat.toml", "[observe]\ningest_concurrency = 4")?;
            jail.set_env("MOAT_OBSERVE_RETENTION_DAYS", "7");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(
                (c.observe.retention_days, c.observe.ingest_concurrency),
                (7, 4)
            );
            jail.set_env("MOAT_OBSERVE_RETENTION_DAYS", "0");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.contains("observe.retention_days"), "{err}");
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
            assert_eq!(c.observe.max_decompressed_in_flight_bytes, 64 * 1024 * 1024);
            jail.set_env("MOAT_OBSERVE_MAX_DECOMPRESSED_IN_FLIGHT_BYTES", "1048576");
            let err = Config::load(None, &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("observe.max_decompressed_in_flight_bytes"),
                "{err}"
            );
            jail.set_env("MOAT_OBSERVE_MAX_DECOMPRESSED_BYTES", "1048576");
            let c = Config::load(None, &Overrides::default()).expect("loads");
            assert_eq!(c.observe.max_decompressed_in_flight_bytes, 1024 * 1024);
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
