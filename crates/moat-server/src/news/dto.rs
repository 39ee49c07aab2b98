//! Every request and response type of the news API (docs/news.md "API"). Times are
//! RFC 3339 in UTC, whole seconds.

pub use crate::market::dto::rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Where the news stands.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum NewsState {
    /// No enabled feed.
    NotConfigured,
    /// Enabled feeds exist and each failed at its last attempt.
    Unreachable,
    Ok,
}

/// A country news is kept for.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewsCountry {
    #[serde(rename = "KR")]
    Kr,
    #[serde(rename = "US")]
    Us,
}

impl From<moat_storage::Country> for NewsCountry {
    fn from(c: moat_storage::Country) -> Self {
        match c {
            moat_storage::Country::Kr => Self::Kr,
            moat_storage::Country::Us => Self::Us,
        }
    }
}

/// How a feed is doing.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FeedState {
    /// Never fetched.
    Pending,
    Ok,
    /// The last fetch failed (`last_error`).
    Error,
    Disabled,
}

/// Where the news stands, so that a screen never shows a bare empty list.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct NewsStatusDto {
    /// `not_configured`: no enabled feed; `unreachable`: enabled feeds exist and none
    /// succeeded at its last attempt; `ok` otherwise.
    pub state: NewsState,
    /// The newest successful fetch of any feed.
    pub last_success_at: Option<String>,
}

/// An instrument an article names.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct InstrumentLinkDto {
    /// `KRX:005930`.
    pub instrument_id: String,
    pub ticker: String,
    pub name_ko: String,
    pub name_en: String,
    /// Named in the title (not only in the summary).
    pub in_title: bool,
}

/// An article in a list.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct ArticleSummaryDto {
    pub id: i64,
    /// Plain text.
    pub title: String,
    /// Plain text, at most 300 characters.
    pub summary: String,
    /// The original article (http or https).
    pub url: String,
    /// The first outlet that carried it.
    pub source: String,
    /// Outlets that carried the story (a wire story in several papers is one article).
    pub source_count: i64,
    pub published_at: String,
    pub country: NewsCountry,
    /// `ko`, `en`, …
    pub language: String,
    /// The article's image, copied to Moat's media store (`/media/news/…`).
    pub image_url: Option<String>,
    pub instruments: Vec<InstrumentLinkDto>,
}

/// An outlet that carried an article.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct ArticleSourceDto {
    pub name: String,
    pub url: String,
}

/// One article, whole.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct ArticleDto {
    #[serde(flatten)]
    pub summary: ArticleSummaryDto,
    pub sources: Vec<ArticleSourceDto>,
    pub fetched_at: String,
}

/// A page of articles, newest first.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct NewsListDto {
    pub items: Vec<ArticleSummaryDto>,
    /// Pass as `cursor` for the next page; `null` at the end.
    pub next_cursor: Option<String>,
    pub status: NewsStatusDto,
}

/// A page of search results, by relevance and recency.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct NewsSearchDto {
    pub items: Vec<ArticleSummaryDto>,
    pub next_cursor: Option<String>,
    /// The words to highlight: the query's words with Korean particles stripped
    /// (`삼성전자가` → `삼성전자`), lower-cased.
    pub terms: Vec<String>,
    pub status: NewsStatusDto,
}

/// `GET /api/news`.
#[derive(Deserialize, IntoParams, Debug)]
pub struct ListParams {
    /// `KR` or `US` (default `KR`).
    pub country: Option<String>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// 1 to 50 (default 20).
    #[param(value_type = Option<u32>)]
    pub limit: Option<String>,
}

/// `GET /api/instruments/{id}/news`.
#[derive(Deserialize, IntoParams, Debug)]
pub struct InstrumentNewsParams {
    pub cursor: Option<String>,
    #[param(value_type = Option<u32>)]
    pub limit: Option<String>,
}

/// `GET /api/news/search`.
#[derive(Deserialize, IntoParams, Debug)]
pub struct SearchParams {
    /// 1 to 100 characters.
    #[serde(default)]
    pub q: String,
    /// `KR` or `US`; both when absent.
    pub country: Option<String>,
    /// Only articles naming this instrument (`KRX:005930`).
    pub instrument: Option<String>,
    /// First day (`YYYY-MM-DD`, UTC), inclusive.
    pub from: Option<String>,
    /// Last day (`YYYY-MM-DD`, UTC), inclusive.
    pub to: Option<String>,
    pub cursor: Option<String>,
    #[param(value_type = Option<u32>)]
    pub limit: Option<String>,
}

/// A feed, with how its fetches go (operators).
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct FeedDto {
    pub id: i64,
    pub url: String,
    pub source_name: String,
    pub country: NewsCountry,
    pub language: String,
    pub enabled: bool,
    /// One of Moat's default feeds.
    pub is_default: bool,
    pub status: FeedState,
    pub last_fetch_at: Option<String>,
    pub last_success_at: Option<String>,
    /// The last fetch's error, in English.
    pub last_error: Option<String>,
    /// Failed fetches in a row.
    pub error_count: i64,
    pub items_total: i64,
    /// New articles from the last fetch.
    pub items_last_fetch: i64,
    pub next_poll_at: Option<String>,
    /// Seconds between polls, from the feed's posting rate (or its back-off).
    pub interval_secs: i64,
}

/// The operator's feeds.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct FeedListDto {
    pub feeds: Vec<FeedDto>,
    /// Default feeds not added yet.
    pub defaults_available: i64,
}

/// A new feed.
#[derive(Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct FeedInput {
    pub url: String,
    pub source_name: String,
    /// `KR` or `US`.
    pub country: String,
    /// `ko`, `en`, … (2 to 8 letters).
    pub language: String,
    #[serde(default = "yes")]
    pub enabled: bool,
}

fn yes() -> bool {
    true
}

/// Changes to a feed: the fields given.
#[derive(Deserialize, ToSchema, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct FeedPatchInput {
    pub url: Option<String>,
    pub source_name: Option<String>,
    pub country: Option<String>,
    pub language: Option<String>,
    pub enabled: Option<bool>,
}

/// What a fetch now did.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct FetchResultDto {
    pub feed: FeedDto,
    /// New articles.
    pub new_articles: i64,
    /// Items that joined an article already kept (the same story from another outlet).
    pub merged: i64,
}

/// What adding the default feeds did.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct DefaultsResultDto {
    pub added: i64,
    pub feeds: Vec<FeedDto>,
}
