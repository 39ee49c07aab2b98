//! The operator's feeds: checks of what they type, the list with each feed's status,
//! the default list, and a fetch now.

use std::{collections::HashSet, sync::Arc};

use chrono::Utc;
use moat_news::schedule;
use moat_storage::{Country, FeedPatch, FeedRow, NewFeed, StorageError};

use super::NewsService;
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    news::dto::{
        rfc3339, DefaultsResultDto, FeedDto, FeedInput, FeedListDto, FeedPatchInput, FeedState,
        FetchResultDto,
    },
};

/// The longest feed URL.
pub const MAX_FEED_URL: usize = 2_000;
/// The longest source name, in characters.
pub const MAX_SOURCE_NAME: usize = 80;

/// A feed URL as the operator typed it: http or https, a host, no credentials.
pub fn check_url(raw: &str) -> Result<String, FieldError> {
    let raw = raw.trim();
    let bad = || {
        FieldError::new(
            ErrorCode::InvalidFeedUrl,
            "An http:// or https:// address without a user name or password.",
        )
    };
    if raw.is_empty() || raw.len() > MAX_FEED_URL {
        return Err(bad().param("max", MAX_FEED_URL));
    }
    let url = url::Url::parse(raw).map_err(|_| bad())?;
    if !matches!(url.scheme(), "http" | "https")
        || url.host_str().is_none_or(str::is_empty)
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(bad());
    }
    Ok(url.to_string())
}

fn check_country(raw: &str) -> Result<Country, FieldError> {
    Country::parse(&raw.trim().to_ascii_uppercase())
        .ok_or_else(|| FieldError::new(ErrorCode::Invalid, "KR or US.").param("allowed", "KR, US"))
}

fn check_language(raw: &str) -> Result<String, FieldError> {
    let l = raw.trim().to_ascii_lowercase();
    if (2..=8).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
        Ok(l)
    } else {
        Err(FieldError::new(
            ErrorCode::Invalid,
            "A language code such as ko or en.",
        ))
    }
}

fn check_source(raw: &str) -> Result<String, FieldError> {
    let s = raw.trim();
    if s.is_empty() {
        return Err(FieldError::new(ErrorCode::Required, "Name the outlet."));
    }
    if s.chars().count() > MAX_SOURCE_NAME || s.chars().any(char::is_control) {
        return Err(
            FieldError::new(ErrorCode::TooLong, "At most 80 characters.")
                .param("max", MAX_SOURCE_NAME),
        );
    }
    Ok(s.to_owned())
}

/// Collects every field's problem, so the form shows them all at once.
struct Checks(std::collections::BTreeMap<String, FieldError>);

impl Checks {
    fn new() -> Self {
        Self(Default::default())
    }
    fn take<T>(&mut self, field: &str, r: Result<T, FieldError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.0.insert(field.to_owned(), e);
                None
            }
        }
    }
    fn finish(self) -> Result<(), ApiError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(ApiError::invalid_fields(self.0))
        }
    }
}

fn exists() -> ApiError {
    ApiError::taken(
        "url",
        FieldError::new(
            ErrorCode::NewsFeedExists,
            "This feed is already on the list.",
        ),
    )
}

fn feed_not_found() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::NOT_FOUND,
        ErrorCode::NewsFeedNotFound,
        "There is no such feed.",
    )
}

fn map_storage(e: StorageError) -> ApiError {
    match e {
        StorageError::NotFound => feed_not_found(),
        StorageError::Conflict(_) => exists(),
        other => other.into(),
    }
}

/// How a feed is doing, for the operator.
pub fn feed_status(feed: &FeedRow) -> FeedState {
    if !feed.enabled {
        FeedState::Disabled
    } else if feed.last_fetch_at.is_none() {
        FeedState::Pending
    } else if feed.error_count > 0 {
        FeedState::Error
    } else {
        FeedState::Ok
    }
}

impl From<&FeedRow> for FeedDto {
    fn from(f: &FeedRow) -> Self {
        Self {
            id: f.id,
            url: f.url.clone(),
            source_name: f.source_name.clone(),
            country: f.country.into(),
            language: f.language.clone(),
            enabled: f.enabled,
            is_default: f.is_default,
            status: feed_status(f),
            last_fetch_at: f.last_fetch_at.map(rfc3339),
            last_success_at: f.last_success_at.map(rfc3339),
            last_error: f.last_error.clone(),
            error_count: f.error_count,
            items_total: f.items_total,
            items_last_fetch: f.items_last_fetch,
            next_poll_at: if f.enabled {
                f.next_poll_at.map(rfc3339)
            } else {
                None
            },
            interval_secs: f.interval_secs,
        }
    }
}

impl NewsService {
    /// The feeds, and how many default feeds are not on the list yet.
    pub async fn feed_list(&self) -> Result<FeedListDto, ApiError> {
        let feeds = self.storage.list_feeds().await?;
        let urls: HashSet<&str> = feeds.iter().map(|f| f.url.as_str()).collect();
        let defaults_available = moat_news::defaults::default_feeds()
            .iter()
            .filter(|d| !urls.contains(d.url))
            .count() as i64;
        Ok(FeedListDto {
            feeds: feeds.iter().map(FeedDto::from).collect(),
            defaults_available,
        })
    }

    pub async fn create_feed(&self, input: FeedInput) -> Result<FeedDto, ApiError> {
        let mut checks = Checks::new();
        let url = checks.take("url", check_url(&input.url));
        let source = checks.take("source_name", check_source(&input.source_name));
        let country = checks.take("country", check_country(&input.country));
        let language = checks.take("language", check_language(&input.language));
        checks.finish()?;
        let (Some(url), Some(source_name), Some(country), Some(language)) =
            (url, source, country, language)
        else {
            unreachable!("checks passed");
        };
        let row = self
            .storage
            .create_feed(NewFeed {
                url,
                source_name,
                country,
                language,
                enabled: input.enabled,
                is_default: false,
                interval_secs: schedule::MIN_INTERVAL.as_secs() as i64,
                created_at: Utc::now(),
            })
            .await
            .map_err(map_storage)?;
        Ok(FeedDto::from(&row))
    }

    pub async fn update_feed(&self, id: i64, input: FeedPatchInput) -> Result<FeedDto, ApiError> {
        let mut checks = Checks::new();
        let patch = FeedPatch {
            url: input
                .url
                .as_deref()
                .and_then(|u| checks.take("url", check_url(u))),
            source_name: input
                .source_name
                .as_deref()
                .and_then(|s| checks.take("source_name", check_source(s))),
            country: input
                .country
                .as_deref()
                .and_then(|c| checks.take("country", check_country(c))),
            language: input
                .language
                .as_deref()
                .and_then(|l| checks.take("language", check_language(l))),
            enabled: input.enabled,
        };
        checks.finish()?;
        let row = self
            .storage
            .update_feed(id, patch)
            .await
            .map_err(map_storage)?;
        Ok(FeedDto::from(&row))
    }

    pub async fn delete_feed(&self, id: i64) -> Result<(), ApiError> {
        self.storage.delete_feed(id).await.map_err(map_storage)
    }

    /// Fetches one feed now, whatever its schedule.
    pub async fn fetch_now(self: &Arc<Self>, id: i64) -> Result<FetchResultDto, ApiError> {
        let feed = self.storage.get_feed(id).await.map_err(map_storage)?;
        let run = self.fetch_feed(&feed).await?;
        let feed = self.storage.get_feed(id).await.map_err(map_storage)?;
        Ok(FetchResultDto {
            feed: FeedDto::from(&feed),
            new_articles: run.new_articles,
            merged: run.merged,
        })
    }

    /// Adds the default feeds not on the list yet, enabled.
    pub async fn add_default_feeds(&self) -> Result<i64, StorageError> {
        let mut added = 0;
        for d in moat_news::defaults::default_feeds() {
            let Some(country) = Country::parse(d.country) else {
                continue;
            };
            let feed = NewFeed {
                url: d.url.to_owned(),
                source_name: d.source_name.to_owned(),
                country,
                language: d.language.to_owned(),
                enabled: true,
                is_default: true,
                interval_secs: schedule::MIN_INTERVAL.as_secs() as i64,
                created_at: Utc::now(),
            };
            match self.storage.create_feed(feed).await {
                Ok(_) => added += 1,
                Err(StorageError::Conflict(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(added)
    }

    pub async fn use_defaults(&self) -> Result<DefaultsResultDto, ApiError> {
        let added = self.add_default_feeds().await?;
        let list = self.feed_list().await?;
        Ok(DefaultsResultDto {
            added,
            feeds: list.feeds,
        })
    }
}
