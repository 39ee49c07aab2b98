//! The SQL of [`NewsStorage`], one implementation for both backends. The only
//! difference, the full-text match (and PostgreSQL's id buckets), comes from [`Sql`]
//! (`NEWS_SEARCH_*`).

use chrono::{DateTime, Utc};
use sqlx::{ColumnIndex, Decode, Encode, Executor, IntoArguments, QueryBuilder, Type};

use crate::news::{
    ArticleFilter, ArticleLink, ArticleRow, ArticleSource, Country, FeedFetchRecord, FeedPatch,
    FeedRow, FeedStatus, InsertOutcome, NewArticle, NewFeed, NewsStatusRow, NewsStorage,
    SearchFilter, MAX_FEEDS, MAX_LINKS_PER_ARTICLE, MAX_PAGE_ARTICLES, NEAR_DUP_MAX_DISTANCE,
    NEAR_DUP_WINDOW_DAYS, SEARCH_BUCKET_LEVELS, SEARCH_FIRST_PROBE_IDS,
    SEARCH_PROBE_MARGIN_PERCENT, SEARCH_RANK_WINDOW, SEARCH_RECENCY_DAYS,
};
use crate::sql::{RowsAffected, Sql, SqlStorage};
use crate::StorageError;

const FEED_COLUMNS: &str = "id, url, source_name, country, language, enabled, is_default, etag,
    last_modified, next_poll_at, interval_secs, error_count, last_error, last_status,
    last_fetch_at, last_success_at, items_total, items_last_fetch, retry_after_until, created_at";

const ARTICLE_COLUMNS: &str = "id, canonical_url, url, title, summary, source_name, country,
    language, published_at, fetched_at, image_key, simhash, source_count";

const MS_PER_DAY: i64 = 86_400_000;

/// A `news_feeds` row as both backends return it.
#[derive(sqlx::FromRow)]
struct FeedDbRow {
    id: i64,
    url: String,
    source_name: String,
    country: String,
    language: String,
    enabled: bool,
    is_default: bool,
    etag: Option<String>,
    last_modified: Option<String>,
    next_poll_at: Option<i64>,
    interval_secs: i64,
    error_count: i64,
    last_error: Option<String>,
    last_status: String,
    last_fetch_at: Option<i64>,
    last_success_at: Option<i64>,
    items_total: i64,
    items_last_fetch: i64,
    retry_after_until: Option<i64>,
    created_at: i64,
}

impl FeedDbRow {
    fn into_row(self) -> Result<FeedRow, StorageError> {
        Ok(FeedRow {
            id: self.id,
            url: self.url,
            source_name: self.source_name,
            country: country(&self.country)?,
            language: self.language,
            enabled: self.enabled,
            is_default: self.is_default,
            etag: self.etag,
            last_modified: self.last_modified,
            next_poll_at: self.next_poll_at.map(time).transpose()?,
            interval_secs: self.interval_secs,
            error_count: self.error_count,
            last_error: self.last_error,
            last_status: FeedStatus::parse(&self.last_status)
                .ok_or(StorageError::Invalid("stored feed status is unknown"))?,
            last_fetch_at: self.last_fetch_at.map(time).transpose()?,
            last_success_at: self.last_success_at.map(time).transpose()?,
            items_total: self.items_total,
            items_last_fetch: self.items_last_fetch,
            retry_after_until: self.retry_after_until.map(time).transpose()?,
            created_at: time(self.created_at)?,
        })
    }
}

/// A `news_articles` row as both backends return it.
#[derive(sqlx::FromRow)]
struct ArticleDbRow {
    id: i64,
    canonical_url: String,
    url: String,
    title: String,
    summary: String,
    source_name: String,
    country: String,
    language: String,
    published_at: i64,
    fetched_at: i64,
    image_key: Option<String>,
    simhash: i64,
    source_count: i64,
}

impl ArticleDbRow {
    fn into_row(self, links: Vec<ArticleLink>) -> Result<ArticleRow, StorageError> {
        Ok(ArticleRow {
            id: self.id,
            canonical_url: self.canonical_url,
            url: self.url,
            title: self.title,
            summary: self.summary,
            source_name: self.source_name,
            country: country(&self.country)?,
            language: self.language,
            published_at: time(self.published_at)?,
            fetched_at: time(self.fetched_at)?,
            image_key: self.image_key,
            simhash: self.simhash,
            source_count: self.source_count,
            sources: Vec::new(),
            links,
        })
    }
}

fn country(s: &str) -> Result<Country, StorageError> {
    Country::parse(s).ok_or(StorageError::Invalid("stored country is unknown"))
}

fn time(ms: i64) -> Result<DateTime<Utc>, StorageError> {
    DateTime::from_timestamp_millis(ms).ok_or(StorageError::Invalid("stored time is out of range"))
}

fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

/// The four 16-bit bands of a SimHash, low to high.
fn bands(simhash: i64) -> [i64; 4] {
    let bits = simhash as u64;
    [0, 16, 32, 48].map(|shift| ((bits >> shift) & 0xFFFF) as i64)
}

fn hamming(a: i64, b: i64) -> u32 {
    (a ^ b).count_ones()
}

/// Maps a unique violation on a feed's URL to `Conflict("url")`.
fn url_conflict_or(e: sqlx::Error) -> StorageError {
    match crate::accounts::conflict_or(e) {
        StorageError::Conflict(_) => StorageError::Conflict("url"),
        other => other,
    }
}

#[async_trait::async_trait]
impl<DB: Sql> NewsStorage for SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    Option<String>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB>,
    Option<i64>: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    bool: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    f64: for<'r> Decode<'r, DB> + Type<DB>,
{
    async fn create_feed(&self, new: NewFeed) -> Result<FeedRow, StorageError> {
        let _db = crate::probe::op("create_feed");
        let mut tx = self.pool.begin_with(DB::BEGIN_WRITE).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM news_feeds")
            .fetch_one(&mut *tx)
            .await?;
        if count >= MAX_FEEDS {
            return Err(StorageError::LimitReached("feeds"));
        }
        let row: FeedDbRow = sqlx::query_as(&format!(
            "INSERT INTO news_feeds (url, source_name, country, language, enabled, is_default,
                 interval_secs, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {FEED_COLUMNS}"
        ))
        .bind(&new.url)
        .bind(&new.source_name)
        .bind(new.country.as_str())
        .bind(&new.language)
        .bind(new.enabled)
        .bind(new.is_default)
        .bind(new.interval_secs)
        .bind(ms(new.created_at))
        .fetch_one(&mut *tx)
        .await
        .map_err(url_conflict_or)?;
        tx.commit().await?;
        row.into_row()
    }

    async fn update_feed(&self, id: i64, patch: FeedPatch) -> Result<FeedRow, StorageError> {
        let _db = crate::probe::op("update_feed");
        let mut tx = self.pool.begin_with(DB::BEGIN_WRITE).await?;
        let current: FeedDbRow = sqlx::query_as(&format!(
            "SELECT {FEED_COLUMNS} FROM news_feeds WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StorageError::NotFound)?;
        let url_changed = patch.url.as_ref().is_some_and(|u| *u != current.url);
        let row: FeedDbRow = sqlx::query_as(&format!(
            "UPDATE news_feeds SET url = $1, source_name = $2, country = $3, language = $4,
                 enabled = $5,
                 etag = CASE WHEN $6 THEN NULL ELSE etag END,
                 last_modified = CASE WHEN $6 THEN NULL ELSE last_modified END,
                 last_status = CASE WHEN $6 THEN 'pending' ELSE last_status END,
                 next_poll_at = CASE WHEN $6 THEN NULL ELSE next_poll_at END,
                 error_count = CASE WHEN $6 THEN 0 ELSE error_count END,
                 last_error = CASE WHEN $6 THEN NULL ELSE last_error END,
                 retry_after_until = CASE WHEN $6 THEN NULL ELSE retry_after_until END
             WHERE id = $7 RETURNING {FEED_COLUMNS}"
        ))
        .bind(patch.url.unwrap_or(current.url))
        .bind(patch.source_name.unwrap_or(current.source_name))
        .bind(
            patch
                .country
                .map_or(current.country, |c| c.as_str().to_owned()),
        )
        .bind(patch.language.unwrap_or(current.language))
        .bind(patch.enabled.unwrap_or(current.enabled))
        .bind(url_changed)
        .bind(id)
        .fetch_one(&mut *tx)
        .await
        .map_err(url_conflict_or)?;
        tx.commit().await?;
        row.into_row()
    }

    async fn delete_feed(&self, id: i64) -> Result<(), StorageError> {
        let _db = crate::probe::op("delete_feed");
        let done = sqlx::query("DELETE FROM news_feeds WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StorageError::NotFound);
        }
        Ok(())
    }

    async fn get_feed(&self, id: i64) -> Result<FeedRow, StorageError> {
        let _db = crate::probe::op("get_feed");
        let row: Option<FeedDbRow> = sqlx::query_as(&format!(
            "SELECT {FEED_COLUMNS} FROM news_feeds WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.ok_or(StorageError::NotFound)?.into_row()
    }

    async fn list_feeds(&self) -> Result<Vec<FeedRow>, StorageError> {
        let _db = crate::probe::op("list_feeds");
        let rows: Vec<FeedDbRow> = sqlx::query_as(&format!(
            "SELECT {FEED_COLUMNS} FROM news_feeds ORDER BY id"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(FeedDbRow::into_row).collect()
    }

    async fn due_feeds(
        &self,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<FeedRow>, StorageError> {
        let _db = crate::probe::op("due_feeds");
        let rows: Vec<FeedDbRow> = sqlx::query_as(&format!(
            "SELECT {FEED_COLUMNS} FROM news_feeds
             WHERE enabled AND (next_poll_at IS NULL OR next_poll_at <= $1)
                 AND (retry_after_until IS NULL OR retry_after_until <= $1)
             ORDER BY next_poll_at IS NOT NULL, next_poll_at, id LIMIT $2"
        ))
        .bind(ms(now))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(FeedDbRow::into_row).collect()
    }

    async fn record_feed_fetch(
        &self,
        id: i64,
        record: FeedFetchRecord,
    ) -> Result<FeedRow, StorageError> {
        let _db = crate::probe::op("record_feed_fetch");
        let ok = match record.status {
            FeedStatus::Ok => true,
            FeedStatus::Error => false,
            FeedStatus::Pending => {
                return Err(StorageError::Invalid("a fetch ends ok or in error"));
            }
        };
        let row: Option<FeedDbRow> = sqlx::query_as(&format!(
            "UPDATE news_feeds SET last_status = $1, etag = $2, last_modified = $3,
                 next_poll_at = $4, interval_secs = $5, error_count = $6, last_error = $7,
                 items_total = items_total + $8,
                 items_last_fetch = CASE WHEN $9 THEN $10 ELSE items_last_fetch END,
                 retry_after_until = $11, last_fetch_at = $12,
                 last_success_at = CASE WHEN $9 THEN $12 ELSE last_success_at END
             WHERE id = $13 RETURNING {FEED_COLUMNS}"
        ))
        .bind(record.status.as_str())
        .bind(record.etag)
        .bind(record.last_modified)
        .bind(ms(record.next_poll_at))
        .bind(record.interval_secs)
        .bind(record.error_count)
        .bind(record.last_error)
        .bind(record.items_added)
        .bind(ok)
        .bind(record.items_in_fetch)
        .bind(record.retry_after_until.map(ms))
        .bind(ms(record.at))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.ok_or(StorageError::NotFound)?.into_row()
    }

    async fn news_status(&self) -> Result<NewsStatusRow, StorageError> {
        let _db = crate::probe::op("news_status");
        let (enabled_feeds, ok_feeds, error_feeds): (i64, i64, i64) = sqlx::query_as(
            "SELECT COUNT(*),
                 COALESCE(SUM(CASE WHEN last_status = 'ok' THEN 1 ELSE 0 END), 0),
                 COALESCE(SUM(CASE WHEN last_status = 'error' THEN 1 ELSE 0 END), 0)
             FROM news_feeds WHERE enabled",
        )
        .fetch_one(&self.pool)
        .await?;
        let newest: Option<i64> = sqlx::query_scalar("SELECT MAX(last_success_at) FROM news_feeds")
            .fetch_one(&self.pool)
            .await?;
        Ok(NewsStatusRow {
            enabled_feeds,
            ok_feeds,
            error_feeds,
            last_success_at: newest.map(time).transpose()?,
        })
    }

    async fn insert_article(&self, new: NewArticle) -> Result<InsertOutcome, StorageError> {
        let _db = crate::probe::op("insert_article");
        let mut tx = self.pool.begin_with(DB::BEGIN_WRITE).await?;
        let feed: Option<i64> = sqlx::query_scalar("SELECT id FROM news_feeds WHERE id = $1")
            .bind(new.feed_id)
            .fetch_optional(&mut *tx)
            .await?;
        if feed.is_none() {
            return Err(StorageError::NotFound);
        }
        // 1. This feed's item, seen before.
        let seen: Option<i64> = sqlx::query_scalar(
            "SELECT article_id FROM news_article_sources WHERE feed_id = $1 AND guid = $2",
        )
        .bind(new.feed_id)
        .bind(&new.guid)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(id) = seen {
            return Ok(InsertOutcome::Seen(id));
        }
        // 2. The same canonical URL; 3. a near-duplicate within the window.
        let mut same: Option<i64> =
            sqlx::query_scalar("SELECT id FROM news_articles WHERE canonical_url = $1")
                .bind(&new.canonical_url)
                .fetch_optional(&mut *tx)
                .await?;
        if same.is_none() {
            same = near_duplicate(&mut tx, &new).await?;
        }
        let outcome = match same {
            Some(id) => InsertOutcome::Merged(id),
            None => {
                let [b0, b1, b2, b3] = bands(new.simhash);
                let inserted: Option<i64> = sqlx::query_scalar(
                    "INSERT INTO news_articles (canonical_url, url, title, summary, source_name,
                         country, language, published_at, fetched_at, image_key, simhash,
                         band0, band1, band2, band3, search_text, source_count)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                         $16, 1)
                     ON CONFLICT (canonical_url) DO NOTHING RETURNING id",
                )
                .bind(&new.canonical_url)
                .bind(&new.url)
                .bind(&new.title)
                .bind(&new.summary)
                .bind(&new.source_name)
                .bind(new.country.as_str())
                .bind(&new.language)
                .bind(ms(new.published_at))
                .bind(ms(new.fetched_at))
                .bind(new.image_key.as_deref())
                .bind(new.simhash)
                .bind(b0)
                .bind(b1)
                .bind(b2)
                .bind(b3)
                .bind(&new.search_text)
                .fetch_optional(&mut *tx)
                .await?;
                match inserted {
                    Some(id) => {
                        insert_links(&mut tx, id, &new).await?;
                        InsertOutcome::Inserted(id)
                    }
                    // Another writer stored this URL since our look (PostgreSQL).
                    None => InsertOutcome::Merged(
                        sqlx::query_scalar("SELECT id FROM news_articles WHERE canonical_url = $1")
                            .bind(&new.canonical_url)
                            .fetch_one(&mut *tx)
                            .await?,
                    ),
                }
            }
        };
        let id = outcome.article_id();
        let added = sqlx::query(
            "INSERT INTO news_article_sources (article_id, feed_id, guid, url, source_name)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (feed_id, guid) DO NOTHING",
        )
        .bind(id)
        .bind(new.feed_id)
        .bind(&new.guid)
        .bind(&new.url)
        .bind(&new.source_name)
        .execute(&mut *tx)
        .await?;
        if added.rows_affected() == 0 {
            // Another writer stored this very item since our look (PostgreSQL).
            let id: i64 = sqlx::query_scalar(
                "SELECT article_id FROM news_article_sources WHERE feed_id = $1 AND guid = $2",
            )
            .bind(new.feed_id)
            .bind(&new.guid)
            .fetch_one(&mut *tx)
            .await?;
            tx.rollback().await?;
            return Ok(InsertOutcome::Seen(id));
        }
        if let InsertOutcome::Merged(id) = outcome {
            sqlx::query(
                "UPDATE news_articles SET source_count = (
                     SELECT COUNT(DISTINCT source_name) FROM news_article_sources
                     WHERE article_id = $1)
                 WHERE id = $1",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(outcome)
    }

    async fn set_article_image(&self, id: i64, key: &str) -> Result<(), StorageError> {
        let _db = crate::probe::op("set_article_image");
        let done = sqlx::query("UPDATE news_articles SET image_key = $1 WHERE id = $2")
            .bind(key)
            .bind(id)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StorageError::NotFound);
        }
        Ok(())
    }

    async fn get_article(&self, id: i64) -> Result<ArticleRow, StorageError> {
        let _db = crate::probe::op("get_article");
        let mut rows = self.articles_by_ids(&[id]).await?;
        let mut article = rows.pop().ok_or(StorageError::NotFound)?;
        let sources: Vec<(Option<i64>, String, String, String)> = sqlx::query_as(
            "SELECT feed_id, guid, url, source_name FROM news_article_sources
             WHERE article_id = $1 ORDER BY id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        article.sources = sources
            .into_iter()
            .map(|(feed_id, guid, url, source_name)| ArticleSource {
                feed_id,
                guid,
                url,
                source_name,
            })
            .collect();
        Ok(article)
    }

    async fn list_articles(&self, filter: ArticleFilter) -> Result<Vec<ArticleRow>, StorageError> {
        let _db = crate::probe::op("list_articles");
        let limit = i64::from(filter.limit.min(MAX_PAGE_ARTICLES));
        if limit == 0 {
            return Ok(Vec::new());
        }
        // Per instrument, its own index (instrument_id, published_at, article_id), which
        // carries the country and time; else the articles' (country, published_at, id).
        let (mut q, id) = match &filter.instrument_id {
            Some(instrument) => {
                let mut q = QueryBuilder::<DB>::new(
                    "SELECT article_id AS id FROM news_article_instruments WHERE instrument_id = ",
                );
                q.push_bind(instrument.to_string());
                (q, "article_id")
            }
            None => (
                QueryBuilder::<DB>::new("SELECT id FROM news_articles WHERE TRUE"),
                "id",
            ),
        };
        if let Some(c) = filter.country {
            q.push(" AND country = ");
            q.push_bind(c.as_str());
        }
        if let Some(cursor) = filter.before {
            q.push(format!(" AND (published_at, {id}) < ("));
            q.push_bind(ms(cursor.published_at));
            q.push(", ");
            q.push_bind(cursor.id);
            q.push(")");
        }
        q.push(format!(" ORDER BY published_at DESC, {id} DESC LIMIT "));
        q.push_bind(limit);
        let ids: Vec<(i64,)> = DB::fetch_all_built(&mut q, &self.pool).await?;
        let ids: Vec<i64> = ids.into_iter().map(|(id,)| id).collect();
        self.articles_by_ids(&ids).await
    }

    async fn search_articles(
        &self,
        query: &moat_search::Query,
        filter: &SearchFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<ArticleRow>, StorageError> {
        let _db = crate::probe::op("search_articles");
        let limit = limit.min(MAX_PAGE_ARTICLES) as usize;
        if query.is_empty() || limit == 0 || i64::from(offset) >= SEARCH_RANK_WINDOW {
            return Ok(Vec::new());
        }
        let window_size = SEARCH_RANK_WINDOW as usize;
        let text = self.match_text(query).await?;
        // A filter on an instrument or dates checks rows the buckets cannot tell apart
        // (a word's matches in the buckets may all fail it): those searches leave the
        // plan to the database.
        let bucketed = DB::NEWS_SEARCH_BUCKETS.is_some()
            && filter.instrument_id.is_none()
            && filter.from.is_none()
            && filter.to.is_none();
        let mut window = match bucketed {
            false => self.search_window(&text, filter, None, window_size).await?,
            true => {
                // Probes from the newest ids back, each asking the index for the
                // matches in a range of buckets, until the window is full.
                let max_id: i64 =
                    sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM news_articles")
                        .fetch_one(&self.pool)
                        .await?;
                let finest = SEARCH_BUCKET_LEVELS[0].0;
                let top = (max_id / finest + 1) * finest;
                let mut window = Vec::new();
                let (mut at, mut span) = (top, SEARCH_FIRST_PROBE_IDS);
                loop {
                    let (buckets, below) = cover(at, span);
                    let rows = self
                        .search_window(&text, filter, Some(&buckets), window_size - window.len())
                        .await?;
                    window.extend(rows);
                    if window.len() >= window_size || below == 0 {
                        break window;
                    }
                    span = next_probe_span(top - below, window.len());
                    at = below;
                }
            }
        };
        rank_window(&mut window);
        let page: Vec<i64> = window
            .into_iter()
            .skip(offset as usize)
            .take(limit)
            .map(|m| m.id)
            .collect();
        self.articles_by_ids(&page).await
    }

    async fn delete_articles_before(
        &self,
        cutoff: DateTime<Utc>,
    ) -> Result<(u64, Vec<String>), StorageError> {
        let _db = crate::probe::op("delete_articles_before");
        let images: Vec<String> = sqlx::query_scalar(
            "SELECT image_key FROM news_articles WHERE published_at < $1 AND image_key IS NOT NULL",
        )
        .bind(ms(cutoff))
        .fetch_all(&self.pool)
        .await?;
        let done = sqlx::query("DELETE FROM news_articles WHERE published_at < $1")
            .bind(ms(cutoff))
            .execute(&self.pool)
            .await?;
        Ok((done.rows_affected(), images))
    }

    async fn count_articles(&self) -> Result<i64, StorageError> {
        let _db = crate::probe::op("count_articles");
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM news_articles")
            .fetch_one(&self.pool)
            .await?)
    }
}

impl<DB: Sql> SqlStorage<DB>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> &'r str: ColumnIndex<DB::Row>,
    usize: ColumnIndex<DB::Row>,
    Option<String>: for<'r> Decode<'r, DB>,
    String: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
    bool: for<'r> Decode<'r, DB> + Type<DB>,
    f64: for<'r> Decode<'r, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
{
    /// `query` in this database's full-text syntax; on PostgreSQL, each Latin prefix
    /// with at most [`MAX_PREFIX_WORDS`] indexed words written as their OR
    /// ([`Sql::NEWS_SEARCH_WORDS`]).
    async fn match_text(&self, query: &moat_search::Query) -> Result<String, StorageError> {
        if !DB::NEWS_SEARCH_WORDS {
            return Ok(DB::news_match_text(query));
        }
        let mut expansions = std::collections::HashMap::new();
        for term in &query.terms {
            let moat_search::Term::Prefix(p) = term else {
                continue;
            };
            if expansions.contains_key(p) || !p.bytes().all(|b| b.is_ascii_alphanumeric()) {
                continue;
            }
            let words: Vec<String> = sqlx::query_scalar(
                "SELECT word FROM news_search_words WHERE word LIKE $1 ORDER BY word LIMIT $2",
            )
            .bind(format!("{p}%"))
            .bind(MAX_PREFIX_WORDS as i64 + 1)
            .fetch_all(&self.pool)
            .await?;
            if words.len() <= MAX_PREFIX_WORDS {
                expansions.insert(p.clone(), words);
            }
        }
        Ok(query.to_tsquery_expanding(|p| expansions.get(p).cloned()))
    }

    /// The newest `limit` matches of the query `text` (in the database's syntax) under
    /// `filter` (in the id `buckets` only,
    /// a query of their lexemes, where the index carries them), newest stored first.
    async fn search_window(
        &self,
        text: &str,
        filter: &SearchFilter,
        buckets: Option<&str>,
        limit: usize,
    ) -> Result<Vec<SearchMatch>, StorageError> {
        let mut q = QueryBuilder::<DB>::new(DB::NEWS_SEARCH_HEAD);
        q.push_bind(text.to_owned());
        let bucketed = buckets.zip(DB::NEWS_SEARCH_BUCKETS.as_ref());
        match bucketed {
            Some((buckets, b)) => {
                q.push(b.tail_open);
                q.push_bind(buckets.to_owned());
                q.push(b.tail_close);
            }
            None => {
                q.push(DB::NEWS_SEARCH_TAIL);
            }
        }
        if let Some(c) = filter.country {
            q.push(" AND a.country = ");
            q.push_bind(c.as_str());
        }
        if let Some(from) = filter.from {
            q.push(" AND a.published_at >= ");
            q.push_bind(ms(from));
        }
        if let Some(to) = filter.to {
            q.push(" AND a.published_at < ");
            q.push_bind(ms(to));
        }
        if let Some(instrument) = &filter.instrument_id {
            q.push(
                " AND EXISTS (SELECT 1 FROM news_article_instruments l
                   WHERE l.article_id = a.id AND l.instrument_id = ",
            );
            q.push_bind(instrument.to_string());
            q.push(")");
        }
        q.push(" ORDER BY ");
        q.push(bucketed.map_or(DB::NEWS_SEARCH_ORDER, |(_, b)| b.order));
        q.push(" LIMIT ");
        q.push_bind(limit as i64);
        q.push(DB::NEWS_SEARCH_END);
        let rows: Vec<(i64, i64, f64)> = DB::fetch_all_built_unprepared(&mut q, &self.pool).await?;
        Ok(rows
            .into_iter()
            .map(|(id, published_at, relevance)| SearchMatch {
                id,
                published_at,
                relevance,
            })
            .collect())
    }

    /// The articles of `ids` with their links, in the order of `ids` (missing ones
    /// left out).
    async fn articles_by_ids(&self, ids: &[i64]) -> Result<Vec<ArticleRow>, StorageError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = QueryBuilder::<DB>::new(format!(
            "SELECT {ARTICLE_COLUMNS} FROM news_articles WHERE id IN ("
        ));
        push_ids(&mut q, ids);
        let rows: Vec<ArticleDbRow> = DB::fetch_all_built(&mut q, &self.pool).await?;
        let mut q = QueryBuilder::<DB>::new(
            "SELECT article_id, instrument_id, in_title FROM news_article_instruments
             WHERE article_id IN (",
        );
        push_ids(&mut q, ids);
        q.push(" ORDER BY article_id, instrument_id");
        let links: Vec<(i64, String, bool)> = DB::fetch_all_built(&mut q, &self.pool).await?;
        let mut by_article: std::collections::HashMap<i64, Vec<ArticleLink>> =
            std::collections::HashMap::new();
        for (article_id, instrument_id, in_title) in links {
            let instrument_id = instrument_id
                .parse()
                .map_err(|_| StorageError::Invalid("stored instrument id is malformed"))?;
            by_article.entry(article_id).or_default().push(ArticleLink {
                instrument_id,
                in_title,
            });
        }
        let mut rows: std::collections::HashMap<i64, ArticleDbRow> =
            rows.into_iter().map(|r| (r.id, r)).collect();
        ids.iter()
            .filter_map(|id| rows.remove(id))
            .map(|r| {
                let links = by_article.remove(&r.id).unwrap_or_default();
                r.into_row(links)
            })
            .collect()
    }
}

/// Pushes `ids` as a bound list and the closing parenthesis.
fn push_ids<DB: Sql>(q: &mut QueryBuilder<'_, DB>, ids: &[i64])
where
    i64: for<'q> Encode<'q, DB> + Type<DB>,
{
    let mut list = q.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    list.push_unseparated(")");
}

/// The closest (then oldest) stored article published within the window whose
/// SimHash is within [`NEAR_DUP_MAX_DISTANCE`] bits of `new`'s: by pigeonhole it
/// shares one of the four bands exactly, which the band indexes find.
async fn near_duplicate<DB: Sql>(
    tx: &mut sqlx::Transaction<'_, DB>,
    new: &NewArticle,
) -> Result<Option<i64>, StorageError>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    usize: ColumnIndex<DB::Row>,
    i64: for<'q> Encode<'q, DB> + for<'r> Decode<'r, DB> + Type<DB>,
{
    let [b0, b1, b2, b3] = bands(new.simhash);
    let published = ms(new.published_at);
    let window = NEAR_DUP_WINDOW_DAYS * MS_PER_DAY;
    let candidates: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, simhash FROM news_articles
         WHERE (band0 = $1 AND published_at > $5 AND published_at < $6)
            OR (band1 = $2 AND published_at > $5 AND published_at < $6)
            OR (band2 = $3 AND published_at > $5 AND published_at < $6)
            OR (band3 = $4 AND published_at > $5 AND published_at < $6)",
    )
    .bind(b0)
    .bind(b1)
    .bind(b2)
    .bind(b3)
    .bind(published.saturating_sub(window))
    .bind(published.saturating_add(window))
    .fetch_all(&mut **tx)
    .await?;
    Ok(candidates
        .into_iter()
        .map(|(id, simhash)| (hamming(simhash, new.simhash), id))
        .filter(|(distance, _)| *distance <= NEAR_DUP_MAX_DISTANCE)
        .min()
        .map(|(_, id)| id))
}

/// Stores an article's instrument links (at most [`MAX_LINKS_PER_ARTICLE`], one per
/// instrument).
async fn insert_links<DB: Sql>(
    tx: &mut sqlx::Transaction<'_, DB>,
    article_id: i64,
    new: &NewArticle,
) -> Result<(), StorageError>
where
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    String: for<'q> Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    i64: for<'q> Encode<'q, DB> + Type<DB>,
    bool: for<'q> Encode<'q, DB> + Type<DB>,
{
    let mut links: Vec<&crate::news::NewLink> = Vec::new();
    for link in &new.links {
        if let Some(same) = links
            .iter_mut()
            .find(|l| l.instrument_id == link.instrument_id)
        {
            if link.in_title {
                *same = link;
            }
        } else if links.len() < MAX_LINKS_PER_ARTICLE {
            links.push(link);
        }
    }
    if links.is_empty() {
        return Ok(());
    }
    let mut q = QueryBuilder::<DB>::new(
        "INSERT INTO news_article_instruments
             (article_id, instrument_id, in_title, published_at, country) ",
    );
    q.push_values(links, |mut b, link| {
        b.push_bind(article_id)
            .push_bind(link.instrument_id.to_string())
            .push_bind(link.in_title)
            .push_bind(ms(new.published_at))
            .push_bind(new.country.as_str());
    });
    DB::execute_built(&mut q, &mut **tx).await?;
    Ok(())
}

/// Most words a prefix expands into (PostgreSQL); a prefix with more stays a prefix.
const MAX_PREFIX_WORDS: usize = 32;

/// Most buckets of one level a probe names (besides the finer ones down to the
/// level's first boundary).
const MAX_PROBE_BLOCKS: i64 = 8;

/// One match in a search's window.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SearchMatch {
    id: i64,
    published_at: i64,
    relevance: f64,
}

/// The buckets that cover the ids below `at` (a multiple of the finest bucket) for
/// about `span` ids, as a query of their lexemes (`'#a12' | '#b1'`, which the
/// full-text engine takes as they are: a cast, not its parser), and the lowest id
/// they cover. Few lexemes, so that the index's check of each candidate stays cheap:
/// the finest level that spans it in at most [`MAX_PROBE_BLOCKS`] buckets, finer
/// buckets only down to its first boundary; the far end may overshoot by less than a
/// bucket.
fn cover(at: i64, span: i64) -> (String, i64) {
    let level = SEARCH_BUCKET_LEVELS
        .iter()
        .position(|(size, _)| span / size <= MAX_PROBE_BLOCKS)
        .unwrap_or(SEARCH_BUCKET_LEVELS.len() - 1);
    let target = at.saturating_sub(span).max(0);
    let mut lexemes = Vec::new();
    let mut at = at;
    while at > target {
        let (size, tag) = SEARCH_BUCKET_LEVELS[..=level]
            .iter()
            .rev()
            .find(|(size, _)| at % size == 0)
            .copied()
            .unwrap_or(SEARCH_BUCKET_LEVELS[0]);
        lexemes.push(format!("'#{tag}{}'", at / size - 1));
        at -= size;
    }
    (lexemes.join(" | "), at)
}

/// The ids the next probe covers: what the `found` matches among the `covered` newest
/// ids predict the rest of the window needs, with the margin; four times as many
/// when nothing was found yet.
fn next_probe_span(covered: i64, found: usize) -> i64 {
    let missing = SEARCH_RANK_WINDOW - found as i64;
    let predicted = if found == 0 {
        covered.saturating_mul(4)
    } else {
        missing.saturating_mul(covered) / found as i64 * (100 + SEARCH_PROBE_MARGIN_PERCENT) / 100
    };
    predicted.max(SEARCH_BUCKET_LEVELS[0].0)
}

/// Orders the window by score (module docs): relevance over
/// `1 + age / SEARCH_RECENCY_DAYS`, age counted from the window's newest match, then
/// newest published, then highest id.
fn rank_window(window: &mut [SearchMatch]) {
    let Some(newest) = window.iter().map(|m| m.published_at).max() else {
        return;
    };
    let days = (SEARCH_RECENCY_DAYS * MS_PER_DAY) as f64;
    let score = |m: &SearchMatch| m.relevance / (1.0 + (newest - m.published_at) as f64 / days);
    window.sort_by(|a, b| {
        score(b)
            .total_cmp(&score(a))
            .then(b.published_at.cmp(&a.published_at))
            .then(b.id.cmp(&a.id))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_postgres_migration_buckets_ids_by_the_constants() {
        let sql = include_str!("../../migrations/postgres/20261201000001_news_search_buckets.sql");
        for (size, tag) in SEARCH_BUCKET_LEVELS {
            let lexeme = format!("'#{tag}' || (id / {size})::text");
            assert!(sql.contains(&lexeme), "{lexeme} in {sql}");
        }
    }

    #[test]
    fn buckets_cover_the_span_below_with_few_lexemes() {
        // The first probe: the two newest finest buckets.
        assert_eq!(
            cover(10 * 2_048, 4_096),
            ("'#a9' | '#a8'".to_owned(), 8 * 2_048)
        );
        // 100,000 ids below 20 finest buckets (40,960): finest down to 32,768, then
        // middle buckets of 16,384 down to 0 (the far end reached).
        assert_eq!(
            cover(20 * 2_048, 100_000),
            (
                "'#a19' | '#a18' | '#a17' | '#a16' | '#b1' | '#b0'".to_owned(),
                0
            )
        );
        // A wide span in the largest buckets, overshooting by less than one.
        let (lexemes, below) = cover(4 * 131_072, 300_000);
        assert_eq!(lexemes, "'#c3' | '#c2' | '#c1'");
        assert_eq!(below, 131_072);
        // Nothing below 0.
        assert_eq!(cover(2_048, 1_000_000), ("'#a0'".to_owned(), 0));
    }

    #[test]
    fn a_probe_covers_what_the_matches_so_far_predict() {
        // 100 matches in 4,096 ids: 900 more need 36,864 ids, and a quarter more.
        assert_eq!(next_probe_span(4_096, 100), 46_080);
        // Nothing yet: four times as far.
        assert_eq!(next_probe_span(4_096, 0), 16_384);
        // Never less than one bucket.
        assert_eq!(next_probe_span(4_096, 999), 2_048);
    }

    #[test]
    fn the_window_ranks_relevance_over_age_then_newest() {
        let day = MS_PER_DAY;
        let m = |id, published_at, relevance| SearchMatch {
            id,
            published_at,
            relevance,
        };
        let mut window = vec![
            m(1, 0, 3.0),        // 3 / (1 + 14/7) = 1
            m(2, 14 * day, 1.0), // the newest: 1
            m(3, 14 * day, 1.0), // equal: the higher id first
            m(4, 7 * day, 3.0),  // 3 / 2 = 1.5
        ];
        rank_window(&mut window);
        let ids: Vec<i64> = window.iter().map(|m| m.id).collect();
        assert_eq!(ids, vec![4, 3, 2, 1]);
    }
}
