//! Moat's storage: one [`Storage`] trait with a SQLite implementation (the embedded
//! default) and a PostgreSQL one, selected by the database URL. Domain code talks to
//! the trait only. Each area (`accounts`, `market`, `news`, `portfolio`, `observability`) is a
//! folder with its trait and rows (`mod.rs`) and one SQL implementation generic over
//! the database ([`Sql`], `sql.rs`); each backend owns its connection and migrations.

pub mod accounts;
pub mod backup;
pub mod cluster;
pub mod limits;
pub mod market;
pub mod news;
pub mod observability;
pub mod portfolio;
mod postgres;
pub mod probe;
mod sql;
mod sqlite;
#[cfg(feature = "testing")]
pub mod testing;

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;

pub use accounts::{
    AccountsStorage, Consent, Identity, LegalDocument, LegalKind, MailToken, MailTokenKind,
    NewIdentity, NewUser, PendingLogin, Role, Session, SessionWithUser, Ticket, TicketKind, User,
};
pub use cluster::ClusterStorage;
pub use limits::{Limited, LimitsStorage, LoginRule};
pub use market::{fx_series, MarketStorage, PriceVersion, ProviderStatus, MAX_FAVORITES};
pub use news::{
    ArticleCursor, ArticleFilter, ArticleLink, ArticleRow, ArticleSource, Country, FeedFetchRecord,
    FeedPatch, FeedRow, FeedStatus, InsertOutcome, NewArticle, NewFeed, NewLink, NewsStatusRow,
    NewsStorage, SearchFilter,
};
pub use observability::ObservabilityStorage;
pub use portfolio::{
    IdempotentResponse, LedgerWrite, NewPortfolio, NewTransaction, OrderableCash, PortfolioRow,
    PortfolioStorage, PortfolioUpdate, TransactionRow, MAX_PORTFOLIOS, MAX_PORTFOLIO_NAME_CHARS,
    MAX_TRANSACTIONS_PER_PORTFOLIO, TRANSACTION_KINDS,
};
pub use postgres::PostgresStorage;
pub use sql::{RowsAffected, Sql, SqlStorage};
pub use sqlite::SqliteStorage;
#[cfg(unix)]
pub use sqlite::DATABASE_FILE_MODE;

/// Which database a [`Storage`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a database URL names, or `None` for an unsupported scheme.
    pub fn from_url(url: &str) -> Option<Self> {
        if url.starts_with("sqlite:") {
            Some(Self::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Self::Postgres)
        } else {
            None
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }
}

/// Errors from storage. `NotFound` is kept apart so callers can answer 404 without
/// inspecting database errors.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("not found")]
    NotFound,
    #[error("unsupported database URL (expected sqlite:… or postgres://…)")]
    UnsupportedUrl,
    #[error("invalid value: {0}")]
    Invalid(&'static str),
    /// A unique value is taken; names the field (`email`, `nickname`, `identity`).
    #[error("{0} is taken")]
    Conflict(&'static str),
    /// A cap is reached (names what: `portfolios`, `transactions`); nothing changed.
    #[error("too many {0}")]
    LimitReached(&'static str),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("migration failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// How far the database's schema is from the one this binary expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationStatus {
    /// Versions this binary ships.
    pub expected: Vec<i64>,
    /// Versions recorded as successfully applied in the database.
    pub applied: Vec<i64>,
}

impl MigrationStatus {
    /// True when every shipped migration is applied.
    pub fn is_current(&self) -> bool {
        self.expected.iter().all(|v| self.applied.contains(v))
    }
}

/// Connection settings shared by both backends.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    pub max_connections: u32,
    pub acquire_timeout: Duration,
    /// SQLite only: how long a writer waits for the lock before failing.
    pub busy_timeout: Duration,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        Self {
            max_connections: 8,
            acquire_timeout: Duration::from_secs(5),
            busy_timeout: Duration::from_secs(5),
        }
    }
}

/// Every storage operation Moat performs. Methods are named verb_noun; each area's
/// operations are a sub-trait (accounts: [`AccountsStorage`], market data:
/// [`MarketStorage`], portfolios: [`PortfolioStorage`], news: [`NewsStorage`], recorded sessions:
/// [`ObservabilityStorage`]; shared by instances: limits [`LimitsStorage`], leases
/// [`ClusterStorage`]).
#[async_trait]
pub trait Storage:
    AccountsStorage
    + ClusterStorage
    + MarketStorage
    + NewsStorage
    + PortfolioStorage
    + ObservabilityStorage
    + LimitsStorage
    + Send
    + Sync
    + 'static
{
    fn backend(&self) -> Backend;

    /// Applies every pending migration.
    async fn migrate(&self) -> Result<(), StorageError>;

    /// The applied and expected migration versions.
    async fn migration_status(&self) -> Result<MigrationStatus, StorageError>;

    /// A cheap round trip to the database.
    async fn ping(&self) -> Result<(), StorageError>;

    /// Reads one instance setting.
    async fn get_setting(&self, key: &str) -> Result<Option<String>, StorageError>;

    /// Writes one instance setting, replacing any value.
    async fn put_setting(&self, key: &str, value: &str) -> Result<(), StorageError>;

    /// Stores `value` under `key` unless a value exists; returns the stored value.
    /// Safe against concurrent callers (one wins, all see the winner).
    async fn insert_setting_if_absent(
        &self,
        key: &str,
        value: &str,
    ) -> Result<String, StorageError>;

    /// Closes the pool, waiting for connections to return.
    async fn close(&self);
}

/// Opens the database a URL names: `sqlite://path/to/file.db` (created if missing)
/// or `postgres://…`. Does not migrate.
pub async fn connect(url: &str, opts: &ConnectOptions) -> Result<Arc<dyn Storage>, StorageError> {
    match Backend::from_url(url) {
        Some(Backend::Sqlite) => Ok(Arc::new(SqliteStorage::connect(url, opts).await?)),
        Some(Backend::Postgres) => Ok(Arc::new(PostgresStorage::connect(url, opts).await?)),
        None => Err(StorageError::UnsupportedUrl),
    }
}

pub(crate) fn validate_setting_key(key: &str) -> Result<(), StorageError> {
    if key.is_empty() || key.len() > 128 {
        return Err(StorageError::Invalid("setting key must be 1 to 128 bytes"));
    }
    Ok(())
}

pub(crate) fn status_from(
    migrator: &sqlx::migrate::Migrator,
    applied: Vec<i64>,
) -> MigrationStatus {
    MigrationStatus {
        expected: migrator.iter().map(|m| m.version).collect(),
        applied,
    }
}
