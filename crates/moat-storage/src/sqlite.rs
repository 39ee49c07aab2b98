use std::str::FromStr;

use async_trait::async_trait;
use sqlx::{
    migrate::Migrator,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
    Sqlite,
};

use crate::{
    sql::{BucketedSearch, Sql, SqlStorage},
    status_from, validate_setting_key, Backend, ConnectOptions, MigrationStatus, Storage,
    StorageError,
};

static MIGRATOR: Migrator = sqlx::migrate!("./migrations/sqlite");

/// Rows buffered between SQLite's worker thread and the async reader (sqlx's default
/// is 50).
const SQLITE_ROW_BUFFER: usize = 1024;

/// SQLite storage: one file, WAL journal (readers never block the writer), foreign
/// keys enforced, a busy timeout so concurrent writers wait instead of failing.
pub type SqliteStorage = SqlStorage<Sqlite>;

impl Sql for Sqlite {
    /// SQLite takes the write lock at `BEGIN IMMEDIATE`, not at the first write.
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    const FOR_UPDATE: &'static str = "";
    const FOR_UPDATE_SKIP_LOCKED: &'static str = "";
    const RELAXED_COMMIT: &'static str = "";
    const CANDLES_JSON: &'static str =
        "json_group_array(json_array(date, open, high, low, close, volume) ORDER BY date)";
    /// The matches' times and countries come from a narrow covering index: SQLite
    /// would read the wide rows by rowid otherwise (three times slower at 500,000).
    const NEWS_SEARCH_HEAD: &'static str =
        "SELECT a.id, a.published_at, -bm25(news_fts) AS relevance
         FROM news_fts JOIN news_articles a INDEXED BY news_articles_search_cover
             ON a.id = news_fts.rowid
         WHERE news_fts MATCH ";
    const NEWS_SEARCH_TAIL: &'static str = "";
    const NEWS_SEARCH_END: &'static str = "";
    /// FTS5 walks a term's rowids newest first and stops at the window's end.
    const NEWS_SEARCH_BUCKETS: Option<BucketedSearch> = None;
    const NEWS_SEARCH_WORDS: bool = false;
    const NEWS_SEARCH_ORDER: &'static str = "news_fts.rowid DESC";

    fn news_match_text(query: &moat_search::Query) -> String {
        query.to_fts5()
    }

    fn execute_built<'a>(
        q: &'a mut sqlx::QueryBuilder<'_, Self>,
        conn: &'a mut sqlx::SqliteConnection,
    ) -> impl std::future::Future<Output = Result<Self::QueryResult, sqlx::Error>> + Send + 'a {
        q.build().execute(conn)
    }

    fn fetch_one_built<'a, O>(
        q: &'a mut sqlx::QueryBuilder<'_, Self>,
        conn: &'a mut sqlx::SqliteConnection,
    ) -> impl std::future::Future<Output = Result<O, sqlx::Error>> + Send + 'a
    where
        O: for<'r> sqlx::FromRow<'r, Self::Row> + Send + Unpin + 'a,
    {
        q.build_query_as().fetch_one(conn)
    }

    fn fetch_all_built_unprepared<'a, O>(
        q: &'a mut sqlx::QueryBuilder<'_, Self>,
        pool: &'a sqlx::Pool<Self>,
    ) -> impl std::future::Future<Output = Result<Vec<O>, sqlx::Error>> + Send + 'a
    where
        O: for<'r> sqlx::FromRow<'r, Self::Row> + Send + Unpin + 'a,
    {
        q.build_query_as().persistent(false).fetch_all(pool)
    }

    fn fetch_all_built<'a, O>(
        q: &'a mut sqlx::QueryBuilder<'_, Self>,
        pool: &'a sqlx::Pool<Self>,
    ) -> impl std::future::Future<Output = Result<Vec<O>, sqlx::Error>> + Send + 'a
    where
        O: for<'r> sqlx::FromRow<'r, Self::Row> + Send + Unpin + 'a,
    {
        q.build_query_as().fetch_all(pool)
    }
}

impl SqlStorage<Sqlite> {
    /// Opens (creating when missing) the database of `url`. A database file is readable
    /// and writable by its owner only, with its `-wal` and `-shm` files: see
    /// [`restrict_permissions`].
    pub async fn connect(url: &str, opts: &ConnectOptions) -> Result<Self, StorageError> {
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let options = SqliteConnectOptions::from_str(url)?;
        if !in_memory {
            restrict_permissions(options.get_filename());
        }
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(opts.busy_timeout)
            // Rows cross from SQLite's worker thread in batches of this many: larger
            // batches make long reads (years of candles) cheaper.
            .row_buffer_size(SQLITE_ROW_BUFFER);
        let pool = SqlitePoolOptions::new()
            .max_connections(opts.max_connections)
            .acquire_timeout(opts.acquire_timeout)
            .connect_with(options)
            .await?;
        Ok(Self { pool })
    }
}

/// An exclusive lock on `<database>.migrate-lock`, held until the file is dropped;
/// `None` for an in-memory database.
async fn migration_lock(db: &std::path::Path) -> Result<Option<std::fs::File>, StorageError> {
    let name = db.as_os_str();
    if name.is_empty() || name == ":memory:" || db.to_string_lossy().contains("mode=memory") {
        return Ok(None);
    }
    let mut lock = db.as_os_str().to_owned();
    lock.push(".migrate-lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(std::path::PathBuf::from(lock))
        .map_err(|e| StorageError::Database(sqlx::Error::Io(e)))?;
    tokio::task::spawn_blocking(move || file.lock().map(|()| Some(file)))
        .await
        .map_err(|e| StorageError::Database(sqlx::Error::Io(std::io::Error::other(e))))?
        .map_err(|e| StorageError::Database(sqlx::Error::Io(e)))
}

/// Mode of the database file and its `-wal`, `-shm` and `-journal` files: the owner's
/// only (they hold password hashes and sessions).
#[cfg(unix)]
pub const DATABASE_FILE_MODE: u32 = 0o600;

/// Creates the database file with [`DATABASE_FILE_MODE`] before SQLite opens it, and
/// narrows an existing one and its companions to it. SQLite creates the `-wal` and
/// `-shm` files with the database file's permissions, so they follow. Failures are
/// logged, not fatal (e.g. a file owned by another user): SQLite then reports what it
/// cannot open.
#[cfg(unix)]
fn restrict_permissions(path: &std::path::Path) {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};

    let created = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(DATABASE_FILE_MODE)
        .open(path);
    match created {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "cannot create the database file")
        }
    }
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let file = std::path::PathBuf::from(name);
        let narrow = std::fs::metadata(&file)
            .is_ok_and(|m| m.permissions().mode() & 0o777 != DATABASE_FILE_MODE);
        if narrow {
            let mode = std::fs::Permissions::from_mode(DATABASE_FILE_MODE);
            if let Err(e) = std::fs::set_permissions(&file, mode) {
                tracing::warn!(path = %file.display(), error = %e, "cannot make the database file private (chmod 600 it)");
            }
        }
    }
}

#[cfg(not(unix))]
fn restrict_permissions(_path: &std::path::Path) {}

#[async_trait]
impl Storage for SqliteStorage {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }

    async fn migrate(&self) -> Result<(), StorageError> {
        let _db = crate::probe::op("migrate");
        // sqlx takes no lock on SQLite (it does on PostgreSQL): two processes starting
        // at once on a new file would both run the first migration. A lock on a file
        // beside the database makes them take turns; the second finds them applied.
        let _turn = migration_lock(self.pool.connect_options().get_filename()).await?;
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    async fn migration_status(&self) -> Result<MigrationStatus, StorageError> {
        let _db = crate::probe::op("migration_status");
        let table: Option<(String,)> = sqlx::query_as(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
        )
        .fetch_optional(&self.pool)
        .await?;
        let applied = if table.is_some() {
            sqlx::query_scalar(
                "SELECT version FROM _sqlx_migrations WHERE success ORDER BY version",
            )
            .fetch_all(&self.pool)
            .await?
        } else {
            Vec::new()
        };
        Ok(status_from(&MIGRATOR, applied))
    }

    async fn ping(&self) -> Result<(), StorageError> {
        let _db = crate::probe::op("ping");
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn get_setting(&self, key: &str) -> Result<Option<String>, StorageError> {
        let _db = crate::probe::op("get_setting");
        Ok(
            sqlx::query_scalar("SELECT value FROM app_settings WHERE key = ?")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    async fn put_setting(&self, key: &str, value: &str) -> Result<(), StorageError> {
        let _db = crate::probe::op("put_setting");
        validate_setting_key(key)?;
        sqlx::query(
            "INSERT INTO app_settings (key, value) VALUES (?, ?)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value,
                 updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn insert_setting_if_absent(
        &self,
        key: &str,
        value: &str,
    ) -> Result<String, StorageError> {
        let _db = crate::probe::op("insert_setting_if_absent");
        validate_setting_key(key)?;
        sqlx::query(
            "INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        self.get_setting(key).await?.ok_or(StorageError::NotFound)
    }

    async fn close(&self) {
        let _db = crate::probe::op("close");
        self.pool.close().await;
    }
}
