//! News: the feeds the operator configured, the articles read from them (one per
//! story, with every outlet that carried it), their links to instruments, and the
//! full-text index (docs/news.md).
//!
//! Times are stored as unix milliseconds (`BIGINT`) on both backends, so that
//! keyset paging, the near-duplicate window and the recency part of the search
//! ranking are the same integer arithmetic on SQLite and PostgreSQL.
//!
//! Full text: the caller stores `moat_search::index_parts(&[title, summary])` as an
//! article's `search_text`; SQLite indexes it in an FTS5 external-content table
//! (`unicode61`, kept in sync by triggers), PostgreSQL in a generated
//! `to_tsvector('simple', search_text)` column with a GIN index. A
//! [`moat_search::Query`] is rendered into each backend's syntax and bound as a
//! parameter, so both find the same articles (`tests/news.rs` checks one table of
//! queries on both).
//!
//! Search ranking, within the newest [`SEARCH_RANK_WINDOW`] matches, "newest" meaning
//! the most recently stored (highest ids), so that a word with 100,000 matches costs
//! what one with 1,000 does (a feed's backfill of old items therefore counts as new
//! here). FTS5 walks a word's rowids newest first and stops at the window's end;
//! PostgreSQL's GIN index has no order, so each article's vector also carries its id
//! buckets ([`SEARCH_BUCKET_LEVELS`]) and a search probes from the newest buckets back,
//! reading from the table only the matches in the buckets it asks for. Within
//! the window, `score = relevance / (1 + age_days / SEARCH_RECENCY_DAYS)`, where
//! relevance is `-bm25()` on SQLite and `ts_rank_cd()` on PostgreSQL (both grow with
//! the number and closeness of matched tokens), age is counted from the newest match
//! in the window (not the clock, so that a result page does not drift while the user
//! pages), ties broken by published time then id, newest first; the window's
//! `(id, published_at, relevance)` leave the database and Rust ranks them. Both
//! backends find the same set; the orders may differ a little (two relevance
//! measures). Scoring the window is most of a frequent word's cost
//! (`benches/news.rs`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use moat_market::InstrumentId;

use crate::StorageError;

mod sql;

/// Most feeds an instance keeps ([`NewsStorage::create_feed`] answers
/// `LimitReached("feeds")` past it).
pub const MAX_FEEDS: i64 = 500;

/// Most articles one list or search page returns (larger limits are cut to it).
pub const MAX_PAGE_ARTICLES: u32 = 100;

/// Two stories published this many days apart or more are never near-duplicates.
pub const NEAR_DUP_WINDOW_DAYS: i64 = 14;

/// Largest Hamming distance between two SimHashes of one story (Manku et al.: 3 of 64
/// bits, which the 4 bands of 16 bits find by pigeonhole).
pub const NEAR_DUP_MAX_DISTANCE: u32 = 3;

/// A search ranks only the newest this many matches (older ones are not returned).
pub const SEARCH_RANK_WINDOW: i64 = 1_000;

/// The age at which the search ranking's recency factor halves a match's relevance
/// (it thirds it at twice this age: `1 / (1 + age / this)`), in days.
pub const SEARCH_RECENCY_DAYS: i64 = 7;

/// PostgreSQL: the id buckets in an article's search vector, a lexeme per level
/// (`#a<id / 2048>`, `#b<id / 16384>`, `#c<id / 131072>`), so that the GIN index can
/// hand over the matches among the newest ids only instead of every match (a word in
/// 9 % of 500,000 articles is 45,000 rows to read and check, where the window needs
/// the newest thousand). Three levels keep a probe's bucket query short: the index
/// checks each candidate against it, and a hundred lexemes cost more than they saved
/// (measured when the buckets and the query were one tsquery). The PostgreSQL
/// migration `20261201000001_news_search_buckets.sql` spells the same numbers (a test
/// checks).
pub const SEARCH_BUCKET_LEVELS: [(i64, char); 3] = [(2_048, 'a'), (16_384, 'b'), (131_072, 'c')];

/// PostgreSQL: the newest ids a search's first probe covers; each further probe covers
/// what the matches found so far predict the rest of the window needs, with a margin
/// of [`SEARCH_PROBE_MARGIN_PERCENT`].
pub const SEARCH_FIRST_PROBE_IDS: i64 = 4_096;

/// PostgreSQL: how much more than predicted a further probe covers, in per cent.
pub const SEARCH_PROBE_MARGIN_PERCENT: i64 = 25;

/// Most instrument links one article keeps.
pub const MAX_LINKS_PER_ARTICLE: usize = 20;

/// The country of a feed and of its articles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Country {
    Kr,
    Us,
}

impl Country {
    pub const ALL: [Country; 2] = [Country::Kr, Country::Us];

    /// `KR` or `US`, as stored and as the API spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Country::Kr => "KR",
            Country::Us => "US",
        }
    }

    /// Exactly `KR` or `US`.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// How a feed's last fetch went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedStatus {
    /// Never fetched since it was added (or its URL changed).
    Pending,
    Ok,
    Error,
}

impl FeedStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            FeedStatus::Pending => "pending",
            FeedStatus::Ok => "ok",
            FeedStatus::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [FeedStatus::Pending, FeedStatus::Ok, FeedStatus::Error]
            .into_iter()
            .find(|f| f.as_str() == s)
    }
}

/// A stored feed.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedRow {
    pub id: i64,
    pub url: String,
    pub source_name: String,
    pub country: Country,
    /// `ko`, `en`.
    pub language: String,
    pub enabled: bool,
    /// Added from the default list.
    pub is_default: bool,
    /// The validators exactly as the server last sent them (quotes included).
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// When the feed is due; `None`: at once.
    pub next_poll_at: Option<DateTime<Utc>>,
    pub interval_secs: i64,
    /// Failures in a row since the last success.
    pub error_count: i64,
    /// The last failure, in English for the operator.
    pub last_error: Option<String>,
    pub last_status: FeedStatus,
    pub last_fetch_at: Option<DateTime<Utc>>,
    pub last_success_at: Option<DateTime<Utc>>,
    /// Articles this feed brought in (new stories and merged appearances).
    pub items_total: i64,
    /// Items the last successful fetch held.
    pub items_last_fetch: i64,
    /// The feed's server asked not to be fetched before this (`Retry-After`).
    pub retry_after_until: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// What adding a feed needs. It starts `pending` and due at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFeed {
    pub url: String,
    pub source_name: String,
    pub country: Country,
    pub language: String,
    pub enabled: bool,
    pub is_default: bool,
    pub interval_secs: i64,
    pub created_at: DateTime<Utc>,
}

/// A change to a feed: `None` leaves a field as it is. A new URL resets the feed's
/// validators and status (`pending`, due at once).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedPatch {
    pub url: Option<String>,
    pub source_name: Option<String>,
    pub country: Option<Country>,
    pub language: Option<String>,
    pub enabled: Option<bool>,
}

/// The outcome of one fetch of a feed, written as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedFetchRecord {
    /// When the fetch happened (`last_fetch_at`; `last_success_at` too when `Ok`).
    pub at: DateTime<Utc>,
    /// `Ok` or `Error` (`Pending` is `Invalid`).
    pub status: FeedStatus,
    /// The validators to keep: pass the stored ones to keep them (a failed or
    /// unparsable fetch must not replace them).
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub next_poll_at: DateTime<Utc>,
    pub interval_secs: i64,
    pub error_count: i64,
    /// `None` clears it.
    pub last_error: Option<String>,
    /// Added to `items_total`.
    pub items_added: i64,
    /// Becomes `items_last_fetch` when `Ok` (kept on an error).
    pub items_in_fetch: i64,
    pub retry_after_until: Option<DateTime<Utc>>,
}

/// The news area's health, for `NewsStatus`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewsStatusRow {
    /// Enabled feeds.
    pub enabled_feeds: i64,
    /// Enabled feeds whose last fetch succeeded.
    pub ok_feeds: i64,
    /// Enabled feeds whose last fetch failed (`not_configured` when
    /// `enabled_feeds == 0`; `unreachable` when `error_feeds == enabled_feeds`).
    pub error_feeds: i64,
    /// The newest success of any feed.
    pub last_success_at: Option<DateTime<Utc>>,
}

/// A link from an article to an instrument it names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NewLink {
    pub instrument_id: InstrumentId,
    /// Named in the title (not only in the summary).
    pub in_title: bool,
}

/// What storing one feed item needs ([`NewsStorage::insert_article`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NewArticle {
    pub feed_id: i64,
    /// The item's stable id within its feed.
    pub guid: String,
    pub canonical_url: String,
    /// The link as the feed gave it.
    pub url: String,
    pub title: String,
    pub summary: String,
    pub source_name: String,
    pub country: Country,
    pub language: String,
    pub published_at: DateTime<Utc>,
    pub fetched_at: DateTime<Utc>,
    /// The 64-bit SimHash of the story's text, its bits as an `i64`.
    pub simhash: i64,
    /// The media store's key of its image.
    pub image_key: Option<String>,
    /// `moat_search::index_parts(&[title, summary])`.
    pub search_text: String,
    /// At most [`MAX_LINKS_PER_ARTICLE`] (more are ignored); one per instrument.
    pub links: Vec<NewLink>,
}

/// What [`NewsStorage::insert_article`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertOutcome {
    /// A new story.
    Inserted(i64),
    /// Another outlet's (or feed's) copy of a stored story: recorded as one more
    /// source of it.
    Merged(i64),
    /// This feed's item was stored before: nothing changed.
    Seen(i64),
}

impl InsertOutcome {
    /// The article the item is (part of).
    pub fn article_id(self) -> i64 {
        match self {
            InsertOutcome::Inserted(id) | InsertOutcome::Merged(id) | InsertOutcome::Seen(id) => id,
        }
    }
}

/// One appearance of a story in a feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleSource {
    /// `None` once the feed was deleted.
    pub feed_id: Option<i64>,
    pub guid: String,
    pub url: String,
    pub source_name: String,
}

/// A stored link to an instrument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleLink {
    pub instrument_id: InstrumentId,
    pub in_title: bool,
}

/// A stored article.
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleRow {
    pub id: i64,
    pub canonical_url: String,
    pub url: String,
    pub title: String,
    pub summary: String,
    /// The first outlet that carried it.
    pub source_name: String,
    pub country: Country,
    pub language: String,
    pub published_at: DateTime<Utc>,
    pub fetched_at: DateTime<Utc>,
    pub image_key: Option<String>,
    pub simhash: i64,
    /// Outlets (feed appearances) that carried it.
    pub source_count: i64,
    /// Every appearance, first first: filled by [`NewsStorage::get_article`] only
    /// (empty in lists and searches).
    pub sources: Vec<ArticleSource>,
    /// Its instruments, ordered by id.
    pub links: Vec<ArticleLink>,
}

/// Where a newest-first page starts: after the article with this published time
/// and id (the last one of the previous page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArticleCursor {
    pub published_at: DateTime<Utc>,
    pub id: i64,
}

/// Which articles [`NewsStorage::list_articles`] pages through, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleFilter {
    pub country: Option<Country>,
    /// Only articles linked to this instrument.
    pub instrument_id: Option<InstrumentId>,
    /// Only articles strictly older than this (by published time, then id).
    pub before: Option<ArticleCursor>,
    /// At most [`MAX_PAGE_ARTICLES`].
    pub limit: u32,
}

/// What narrows a search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchFilter {
    pub country: Option<Country>,
    pub instrument_id: Option<InstrumentId>,
    /// Published at or after.
    pub from: Option<DateTime<Utc>>,
    /// Published before (exclusive).
    pub to: Option<DateTime<Utc>>,
}

#[async_trait]
pub trait NewsStorage: Send + Sync {
    /// Adds a feed. `Conflict("url")` when a feed has this URL;
    /// `LimitReached("feeds")` at [`MAX_FEEDS`].
    async fn create_feed(&self, new: NewFeed) -> Result<FeedRow, StorageError>;

    /// Changes a feed; `NotFound`, or `Conflict("url")` for another feed's URL.
    async fn update_feed(&self, id: i64, patch: FeedPatch) -> Result<FeedRow, StorageError>;

    /// Deletes a feed; its articles stay (their sources lose the feed). `NotFound`.
    async fn delete_feed(&self, id: i64) -> Result<(), StorageError>;

    /// One feed, or `NotFound`.
    async fn get_feed(&self, id: i64) -> Result<FeedRow, StorageError>;

    /// Every feed, by id.
    async fn list_feeds(&self) -> Result<Vec<FeedRow>, StorageError>;

    /// Enabled feeds due at `now` (`next_poll_at` unset or not after `now`, and no
    /// `retry_after_until` after `now`), the longest overdue first (unset first), at
    /// most `limit`.
    async fn due_feeds(&self, now: DateTime<Utc>, limit: u32)
        -> Result<Vec<FeedRow>, StorageError>;

    /// Records how a fetch went. `NotFound`.
    async fn record_feed_fetch(
        &self,
        id: i64,
        record: FeedFetchRecord,
    ) -> Result<FeedRow, StorageError>;

    /// The area's health.
    async fn news_status(&self) -> Result<NewsStatusRow, StorageError>;

    /// Stores one feed item, in one transaction, going down the dedup ladder: this
    /// feed's guid seen before → `Seen`; an article with this canonical URL → a new
    /// source of it, `Merged`; an article published within [`NEAR_DUP_WINDOW_DAYS`]
    /// whose SimHash is within [`NEAR_DUP_MAX_DISTANCE`] bits (found through the
    /// four 16-bit bands) → `Merged` likewise (the closest, then the oldest); else a
    /// new article with its source and links → `Inserted`. `NotFound` for an
    /// unknown feed.
    async fn insert_article(&self, new: NewArticle) -> Result<InsertOutcome, StorageError>;

    /// Sets (or replaces) an article's image key. `NotFound`.
    async fn set_article_image(&self, id: i64, key: &str) -> Result<(), StorageError>;

    /// One article with its sources and links, or `NotFound`.
    async fn get_article(&self, id: i64) -> Result<ArticleRow, StorageError>;

    /// A page of articles, newest first (published time, then id; keyset paging).
    async fn list_articles(&self, filter: ArticleFilter) -> Result<Vec<ArticleRow>, StorageError>;

    /// A page of the articles matching `query` (all its terms) and `filter`, ranked
    /// (see the module docs) within the newest [`SEARCH_RANK_WINDOW`] matches;
    /// `offset` counts in that ranking (past the window: nothing). An empty query
    /// finds nothing.
    async fn search_articles(
        &self,
        query: &moat_search::Query,
        filter: &SearchFilter,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<ArticleRow>, StorageError>;

    /// Deletes the articles published before `cutoff`, with their sources, links and
    /// index entries (retention). Returns how many, and the media keys of their images
    /// (for the caller to delete from the media store).
    async fn delete_articles_before(
        &self,
        cutoff: DateTime<Utc>,
    ) -> Result<(u64, Vec<String>), StorageError>;

    /// How many articles are stored.
    async fn count_articles(&self) -> Result<i64, StorageError>;
}
