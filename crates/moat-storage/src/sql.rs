//! The frame of the one SQL implementation: [`SqlStorage`], a pool of a sqlx database,
//! and [`Sql`], the databases it serves (SQLite and PostgreSQL) with what their SQL
//! does differently. Each area (`accounts`, `market`, `portfolio`, `observability`)
//! implements its storage trait once, in its `sql.rs`, for every `SqlStorage<DB>`
//! with `DB: Sql`.
//!
//! The bounds sqlx needs of a generic database cannot be implied by `DB: Sql` (Rust
//! implies supertraits only), so each area's `impl` states them in its `where` clause:
//! the executors (`&mut DB::Connection`, hence `&Pool<DB>`), the query arguments, the
//! column indexes, and the Rust types the area binds and reads.

use std::future::Future;

use sqlx::{Database, FromRow, Pool, QueryBuilder};

/// A storage of one database: the type behind [`crate::SqliteStorage`] and
/// [`crate::PostgresStorage`].
pub struct SqlStorage<DB: Database> {
    pub(crate) pool: Pool<DB>,
}

impl<DB: Database> Clone for SqlStorage<DB> {
    fn clone(&self) -> Self {
        Self {
            pool: self.pool.clone(),
        }
    }
}

impl<DB: Database> SqlStorage<DB> {
    /// The pool, for backend-specific tests.
    pub fn pool(&self) -> &Pool<DB> {
        &self.pool
    }
}

/// How a news search asks a full-text index that carries id buckets for the matches
/// in some buckets only ([`Sql::NEWS_SEARCH_BUCKETS`]).
pub struct BucketedSearch {
    /// Replaces [`Sql::NEWS_SEARCH_TAIL`], up to the bound buckets' query text.
    pub tail_open: &'static str,
    /// What follows the buckets' query text, ending inside a `WHERE` as the tail does.
    pub tail_close: &'static str,
    /// Replaces [`Sql::NEWS_SEARCH_ORDER`].
    pub order: &'static str,
}

/// A database Moat's SQL runs on, and the few fragments that differ between them.
/// Implemented for [`sqlx::Sqlite`] and [`sqlx::Postgres`] only (sealed).
pub trait Sql: Database<QueryResult: RowsAffected> + sealed::Sealed {
    /// Opens a transaction that writes a ledger: it must hold the write lock from its
    /// first statement on.
    const BEGIN_WRITE: &'static str;

    /// What a `SELECT` ends with to lock the rows it reads until the transaction ends:
    /// `FOR UPDATE` in PostgreSQL; nothing in SQLite, whose write transaction
    /// ([`Sql::BEGIN_WRITE`]) already holds the whole database.
    const FOR_UPDATE: &'static str;

    /// Run first in a transaction whose last moments a database crash may lose (the
    /// shared limits): PostgreSQL then commits without waiting for the WAL flush (the
    /// WAL writer flushes it within a few hundred milliseconds). Empty for SQLite, whose
    /// WAL mode with `synchronous = NORMAL` already commits without a sync.
    const RELAXED_COMMIT: &'static str;

    /// [`Sql::FOR_UPDATE`] that passes over rows another transaction holds instead of
    /// waiting for them (a sweep that must never wait on, or deadlock with, live steps).
    const FOR_UPDATE_SKIP_LOCKED: &'static str;

    /// The aggregate that turns a range of `daily_candles` rows into one JSON text:
    /// an array of `[date, open, high, low, close, volume]` ordered by date.
    const CANDLES_JSON: &'static str;

    /// News search, the start of the statement that finds the matches of a query whose
    /// text ([`Sql::news_match_text`]) is bound right after it: it selects the id, the
    /// published time and a relevance (higher is better) of the matches `a` of
    /// `news_articles`, and ends inside a `WHERE` that more `AND …` may extend (then
    /// `ORDER BY`, `LIMIT` and [`Sql::NEWS_SEARCH_END`]).
    const NEWS_SEARCH_HEAD: &'static str;

    /// What follows the bound query text in [`Sql::NEWS_SEARCH_HEAD`]'s statement.
    const NEWS_SEARCH_TAIL: &'static str;

    /// What closes the statement after its `ORDER BY … LIMIT n`: PostgreSQL's head
    /// opens a subquery there, so that the relevance is computed for the `n` rows the
    /// limit keeps, not for every match the index handed over.
    const NEWS_SEARCH_END: &'static str;

    /// Where the full-text index also carries each article's id bucket (a lexeme
    /// `#a<id / 2048>` and coarser, PostgreSQL: `SEARCH_BUCKET_LEVELS`): how a search asks it for the matches
    /// in some buckets only. `None` where the index delivers a word's matches newest
    /// first by itself (FTS5).
    const NEWS_SEARCH_BUCKETS: Option<BucketedSearch>;

    /// The order of the search window, newest stored first.
    const NEWS_SEARCH_ORDER: &'static str;

    /// Whether a search expands a Latin prefix into the words of `news_search_words`
    /// that start with it (PostgreSQL: GIN collects every match of a prefix first;
    /// FTS5 walks its prefix's terms as it goes).
    const NEWS_SEARCH_WORDS: bool;

    /// A query in this database's full-text syntax.
    fn news_match_text(query: &moat_search::Query) -> String;

    /// Runs the statement `q` built (multi-row inserts). Generic code cannot call
    /// `q.build()` itself: sqlx ties the built arguments' lifetime to the borrow of `q`,
    /// which only a concrete database lets shrink.
    fn execute_built<'a>(
        q: &'a mut QueryBuilder<'_, Self>,
        conn: &'a mut Self::Connection,
    ) -> impl Future<Output = Result<Self::QueryResult, sqlx::Error>> + Send + 'a;

    /// Runs the query `q` built and reads its one row (see [`Sql::execute_built`]).
    fn fetch_one_built<'a, O>(
        q: &'a mut QueryBuilder<'_, Self>,
        conn: &'a mut Self::Connection,
    ) -> impl Future<Output = Result<O, sqlx::Error>> + Send + 'a
    where
        O: for<'r> FromRow<'r, Self::Row> + Send + Unpin + 'a;

    /// Runs the query `q` built and reads every row, planned for its parameters' values
    /// each time: PostgreSQL's generic plan of a prepared full-text search cannot tell
    /// a rare word from a frequent one and walks the whole table for a rare one.
    fn fetch_all_built_unprepared<'a, O>(
        q: &'a mut QueryBuilder<'_, Self>,
        pool: &'a Pool<Self>,
    ) -> impl Future<Output = Result<Vec<O>, sqlx::Error>> + Send + 'a
    where
        O: for<'r> FromRow<'r, Self::Row> + Send + Unpin + 'a;

    /// Runs the query `q` built and reads every row (see [`Sql::execute_built`]).
    fn fetch_all_built<'a, O>(
        q: &'a mut QueryBuilder<'_, Self>,
        pool: &'a Pool<Self>,
    ) -> impl Future<Output = Result<Vec<O>, sqlx::Error>> + Send + 'a
    where
        O: for<'r> FromRow<'r, Self::Row> + Send + Unpin + 'a;
}

/// How many rows a statement changed (sqlx has it per backend, not as a trait).
pub trait RowsAffected {
    fn rows_affected(&self) -> u64;
}

impl RowsAffected for sqlx::sqlite::SqliteQueryResult {
    fn rows_affected(&self) -> u64 {
        sqlx::sqlite::SqliteQueryResult::rows_affected(self)
    }
}

impl RowsAffected for sqlx::postgres::PgQueryResult {
    fn rows_affected(&self) -> u64 {
        sqlx::postgres::PgQueryResult::rows_affected(self)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for sqlx::Sqlite {}
    impl Sealed for sqlx::Postgres {}
}
