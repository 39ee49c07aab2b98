use std::str::FromStr;

use async_trait::async_trait;
use sqlx::{
    migrate::Migrator,
    postgres::{PgConnectOptions, PgPoolOptions},
    Postgres,
};

use crate::{
    sql::{BucketedSearch, Sql, SqlStorage},
    status_from, validate_setting_key, Backend, ConnectOptions, MigrationStatus, Storage,
    StorageError,
};

static MIGRATOR: Migrator = sqlx::migrate!("./migrations/postgres");

/// PostgreSQL storage, for several `moat` instances sharing one database.
pub type PostgresStorage = SqlStorage<Postgres>;

impl Sql for Postgres {
    /// The ledger's first statement locks the portfolio's row, which serialises writers.
    const BEGIN_WRITE: &'static str = "BEGIN";
    const FOR_UPDATE: &'static str = "FOR UPDATE";
    const FOR_UPDATE_SKIP_LOCKED: &'static str = "FOR UPDATE SKIP LOCKED";
    const RELAXED_COMMIT: &'static str = "SET LOCAL synchronous_commit = off";
    const CANDLES_JSON: &'static str =
        "json_agg(json_build_array(date, open, high, low, close, volume) ORDER BY date)::text";
    /// The matches with their vectors in a subquery, its `ORDER BY … LIMIT n` inside;
    /// `ts_rank_cd` outside it, so that only the `n` kept rows are ranked (a wide probe
    /// hands over three times the rows it keeps).
    const NEWS_SEARCH_HEAD: &'static str =
        "SELECT w.id, w.published_at, ts_rank_cd(w.search_vector, w.q)::float8 AS relevance
         FROM (SELECT a.id, a.published_at, a.search_vector, q FROM to_tsquery('simple', ";
    const NEWS_SEARCH_TAIL: &'static str =
        ") q JOIN news_articles a ON a.search_vector @@ q WHERE TRUE";
    const NEWS_SEARCH_END: &'static str = ") w";
    /// The GIN index answers the query and the buckets together, so only the matches
    /// in the buckets are read from the table (and checked: phrases need positions).
    /// The buckets are a second `@@` condition, not `q && buckets`: as two scan keys
    /// the index intersects the buckets' entries with the query's, where one combined
    /// query has its whole tree checked for every candidate (`tesla & earnings` over 16
    /// buckets at 500,000 articles: the index scan 17.5 ms combined, 3.3–4.7 ms as two
    /// keys; the whole probe 24 ms before, 9.6 ms with the ranking after the limit).
    /// Ordered by `a.id + 0`, so that the plan is always that bitmap, never the primary
    /// key walked backwards with every row's vector checked.
    const NEWS_SEARCH_BUCKETS: Option<BucketedSearch> = Some(BucketedSearch {
        tail_open: ") q JOIN news_articles a ON a.search_vector @@ q AND a.search_vector @@ CAST(",
        tail_close: " AS tsquery) WHERE TRUE",
        order: "a.id + 0 DESC",
    });
    const NEWS_SEARCH_ORDER: &'static str = "a.id DESC";
    const NEWS_SEARCH_WORDS: bool = true;

    fn news_match_text(query: &moat_search::Query) -> String {
        query.to_tsquery()
    }

    fn execute_built<'a>(
        q: &'a mut sqlx::QueryBuilder<'_, Self>,
        conn: &'a mut sqlx::PgConnection,
    ) -> impl std::future::Future<Output = Result<Self::QueryResult, sqlx::Error>> + Send + 'a {
        q.build().execute(conn)
    }

    fn fetch_one_built<'a, O>(
        q: &'a mut sqlx::QueryBuilder<'_, Self>,
        conn: &'a mut sqlx::PgConnection,
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

impl SqlStorage<Postgres> {
    pub async fn connect(url: &str, opts: &ConnectOptions) -> Result<Self, StorageError> {
        let options = PgConnectOptions::from_str(url)?.application_name("moat");
        let pool = PgPoolOptions::new()
            .max_connections(opts.max_connections)
            .acquire_timeout(opts.acquire_timeout)
            .connect_with(options)
            .await?;
        Ok(Self { pool })
    }
}

#[async_trait]
impl Storage for PostgresStorage {
    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    async fn migrate(&self) -> Result<(), StorageError> {
        let _db = crate::probe::op("migrate");
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    async fn migration_status(&self) -> Result<MigrationStatus, StorageError> {
        let _db = crate::probe::op("migration_status");
        let table: Option<String> =
            sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations')::text")
                .fetch_one(&self.pool)
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
            sqlx::query_scalar("SELECT value FROM app_settings WHERE key = $1")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    async fn put_setting(&self, key: &str, value: &str) -> Result<(), StorageError> {
        let _db = crate::probe::op("put_setting");
        validate_setting_key(key)?;
        sqlx::query(
            "INSERT INTO app_settings (key, value) VALUES ($1, $2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()",
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
            "INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
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
