//! Reading news: the newest-first lists (per country, per instrument), search, one
//! article, and the status that keeps a screen from showing a bare empty list.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use moat_storage::{ArticleCursor, ArticleFilter, ArticleRow, Country, SearchFilter};

use super::NewsService;
use crate::{
    http::{
        error::{ApiError, ErrorCode, FieldError},
        params::bounded_limit,
    },
    news::dto::{
        rfc3339, ArticleDto, ArticleSourceDto, ArticleSummaryDto, InstrumentLinkDto, NewsListDto,
        NewsSearchDto, NewsState, NewsStatusDto,
    },
};

/// Default and largest page sizes.
pub const DEFAULT_PAGE: i64 = 20;
pub const MAX_PAGE: i64 = 50;
/// The longest search query, in characters (after trimming).
pub const MAX_QUERY_CHARS: usize = 100;
/// Search ranks within the newest this many matches (docs/news.md); a page never
/// starts beyond it.
pub use moat_storage::news::SEARCH_RANK_WINDOW;

fn bad_param(name: &str, message: &str) -> ApiError {
    ApiError::invalid_parameter(name, FieldError::new(ErrorCode::Invalid, message))
}

/// `limit`: [`DEFAULT_PAGE`] when absent, else 1 to [`MAX_PAGE`].
pub fn limit_param(raw: Option<&str>) -> Result<i64, ApiError> {
    bounded_limit(raw, DEFAULT_PAGE, MAX_PAGE)
}

/// `country`: `KR` or `US` (any case).
pub fn country_param(raw: Option<&str>) -> Result<Option<Country>, ApiError> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(c) => Country::parse(&c.to_ascii_uppercase())
            .map(Some)
            .ok_or_else(|| bad_param("country", "KR or US.")),
    }
}

/// A list's cursor: `<published unix ms>.<id>` of the last article of a page.
pub fn encode_cursor(row: &ArticleRow) -> String {
    format!("{}.{}", row.published_at.timestamp_millis(), row.id)
}

pub fn cursor_param(raw: Option<&str>) -> Result<Option<ArticleCursor>, ApiError> {
    let Some(raw) = raw.filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let bad = || bad_param("cursor", "Not a cursor this API gave.");
    let (ms, id) = raw.split_once('.').ok_or_else(bad)?;
    let ms: i64 = ms.parse().map_err(|_| bad())?;
    let id: i64 = id.parse().map_err(|_| bad())?;
    let published_at = Utc.timestamp_millis_opt(ms).single().ok_or_else(bad)?;
    Ok(Some(ArticleCursor { published_at, id }))
}

/// A search page's cursor: the offset of its first result.
fn offset_param(raw: Option<&str>) -> Result<i64, ApiError> {
    match raw.filter(|s| !s.is_empty()) {
        None => Ok(0),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|n| (0..SEARCH_RANK_WINDOW).contains(n))
            .ok_or_else(|| bad_param("cursor", "Not a cursor this API gave.")),
    }
}

fn day_param(name: &str, raw: Option<&str>, end: bool) -> Result<Option<DateTime<Utc>>, ApiError> {
    let Some(raw) = raw.filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let day = NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map_err(|_| bad_param(name, "A date as YYYY-MM-DD."))?;
    let day = if end {
        day.succ_opt().unwrap_or(day)
    } else {
        day
    };
    Ok(day.and_hms_opt(0, 0, 0).map(|t| Utc.from_utc_datetime(&t)))
}

/// What a search asks for, checked.
pub struct SearchRequest<'a> {
    pub q: &'a str,
    pub country: Option<&'a str>,
    pub instrument: Option<&'a str>,
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub cursor: Option<&'a str>,
    pub limit: Option<&'a str>,
}

impl NewsService {
    /// Where the news stands.
    pub async fn status(&self) -> Result<NewsStatusDto, ApiError> {
        let s = self.storage.news_status().await?;
        let state = if s.enabled_feeds == 0 {
            NewsState::NotConfigured
        } else if s.error_feeds == s.enabled_feeds {
            NewsState::Unreachable
        } else {
            NewsState::Ok
        };
        Ok(NewsStatusDto {
            state,
            last_success_at: s.last_success_at.map(rfc3339),
        })
    }

    fn summary_of(&self, row: &ArticleRow) -> ArticleSummaryDto {
        let instruments = row
            .links
            .iter()
            .filter_map(|l| {
                let i = self.market.instrument(&l.instrument_id)?;
                Some(InstrumentLinkDto {
                    instrument_id: i.id.to_string(),
                    ticker: i.ticker().to_owned(),
                    name_ko: i.name_ko.clone(),
                    name_en: i.name_en.clone(),
                    in_title: l.in_title,
                })
            })
            .collect();
        ArticleSummaryDto {
            id: row.id,
            title: row.title.clone(),
            summary: row.summary.clone(),
            url: row.url.clone(),
            source: row.source_name.clone(),
            source_count: row.source_count,
            published_at: rfc3339(row.published_at),
            country: row.country.into(),
            language: row.language.clone(),
            image_url: row.image_key.as_ref().map(|k| format!("/media/{k}")),
            instruments,
        }
    }

    async fn page(&self, filter: ArticleFilter, limit: i64) -> Result<NewsListDto, ApiError> {
        let rows = self
            .storage
            .list_articles(ArticleFilter {
                limit: (limit + 1) as u32,
                ..filter
            })
            .await?;
        let more = rows.len() as i64 > limit;
        let rows = &rows[..rows.len().min(limit as usize)];
        Ok(NewsListDto {
            items: rows.iter().map(|r| self.summary_of(r)).collect(),
            next_cursor: if more {
                rows.last().map(encode_cursor)
            } else {
                None
            },
            status: self.status().await?,
        })
    }

    /// A country's news, newest first.
    pub async fn country_news(
        &self,
        country: Option<&str>,
        cursor: Option<&str>,
        limit: Option<&str>,
    ) -> Result<NewsListDto, ApiError> {
        let country = country_param(country)?.unwrap_or(Country::Kr);
        let filter = ArticleFilter {
            country: Some(country),
            instrument_id: None,
            before: cursor_param(cursor)?,
            limit: 0,
        };
        self.page(filter, limit_param(limit)?).await
    }

    /// An instrument's news, newest first.
    pub async fn instrument_news(
        &self,
        raw_id: &str,
        cursor: Option<&str>,
        limit: Option<&str>,
    ) -> Result<NewsListDto, ApiError> {
        let instrument = self.market.find(raw_id)?;
        let filter = ArticleFilter {
            country: None,
            instrument_id: Some(instrument.id.clone()),
            before: cursor_param(cursor)?,
            limit: 0,
        };
        self.page(filter, limit_param(limit)?).await
    }

    /// Full-text search, by relevance and recency.
    pub async fn search(&self, req: SearchRequest<'_>) -> Result<NewsSearchDto, ApiError> {
        let q = req.q.trim();
        if q.is_empty() || q.chars().count() > MAX_QUERY_CHARS {
            return Err(ApiError::invalid_parameter(
                "q",
                FieldError::new(ErrorCode::InvalidNewsQuery, "1 to 100 characters.")
                    .param("max", MAX_QUERY_CHARS),
            ));
        }
        let limit = limit_param(req.limit)?;
        let offset = offset_param(req.cursor)?;
        let country = country_param(req.country)?;
        let instrument_id = match req.instrument.filter(|s| !s.is_empty()) {
            Some(raw) => Some(self.market.find(raw)?.id.clone()),
            None => None,
        };
        let from = day_param("from", req.from, false)?;
        let to = day_param("to", req.to, true)?;
        if let (Some(f), Some(t)) = (from, to) {
            if f >= t {
                return Err(ApiError::invalid_parameter(
                    "from",
                    FieldError::new(ErrorCode::DatesReversed, "from is after to."),
                ));
            }
        }
        let query = moat_search::parse_query(q);
        let terms = query.highlight_words();
        let status = self.status().await?;
        if query.is_empty() {
            return Ok(NewsSearchDto {
                items: Vec::new(),
                next_cursor: None,
                terms,
                status,
            });
        }
        let filter = SearchFilter {
            country,
            instrument_id,
            from,
            to,
        };
        let take = (limit + 1).min(SEARCH_RANK_WINDOW - offset);
        let rows = self
            .storage
            .search_articles(&query, &filter, offset as u32, take as u32)
            .await?;
        let more = rows.len() as i64 > limit && offset + limit < SEARCH_RANK_WINDOW;
        let rows = &rows[..rows.len().min(limit as usize)];
        Ok(NewsSearchDto {
            items: rows.iter().map(|r| self.summary_of(r)).collect(),
            next_cursor: more.then(|| (offset + limit).to_string()),
            terms,
            status,
        })
    }

    /// One article, whole.
    pub async fn article(&self, id: i64) -> Result<ArticleDto, ApiError> {
        let row = self.storage.get_article(id).await.map_err(|e| match e {
            moat_storage::StorageError::NotFound => ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                ErrorCode::NewsArticleNotFound,
                "There is no such article.",
            ),
            other => other.into(),
        })?;
        Ok(ArticleDto {
            summary: self.summary_of(&row),
            sources: row
                .sources
                .iter()
                .map(|s| ArticleSourceDto {
                    name: s.source_name.clone(),
                    url: s.url.clone(),
                })
                .collect(),
            fetched_at: rfc3339(row.fetched_at),
        })
    }
}
