//! One feed's fetch, from bytes to stored articles: conditional GET, parse (from
//! bytes, so EUC-KR and ISO-8859-1 decode), dedup ladder (guid, canonical URL,
//! near-duplicate text: in storage, in one transaction), instrument links, the next
//! poll (the feed's posting rate, or the error back-off and the host's
//! `Retry-After`), live frames, then images.

use std::{sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use moat_news::{
    parse::{parse_feed, FeedItem, ParseContext},
    schedule,
};
use moat_storage::{
    FeedFetchRecord, FeedRow, FeedStatus, InsertOutcome, NewArticle, NewLink, StorageError,
};

use super::{
    fetch::{FetchError, Fetched, Validators},
    NewsService,
};
use crate::news::topics::{publish_new, NewArticleEvent};

/// What one fetch of a feed did.
#[derive(Debug, Default, Clone)]
pub struct FeedRun {
    pub new_articles: i64,
    pub merged: i64,
    /// Items seen before (same feed and guid).
    pub seen: i64,
    /// The error, when the fetch failed (English, stored for the operator).
    pub error: Option<String>,
    pub not_modified: bool,
}

/// The canonical key of an item that has no usable link: stable (never random), one
/// per feed and guid.
fn key_without_url(feed_id: i64, guid: &str) -> String {
    format!("moat:feed/{feed_id}/{guid}")
}

impl NewsService {
    /// Fetches `feed` now and stores what it brings; the feed's record (status, error,
    /// counts, next poll) is written whatever happens. Fails only when storage does.
    pub async fn fetch_feed(self: &Arc<Self>, feed: &FeedRow) -> Result<FeedRun, StorageError> {
        let now = Utc::now();
        let validators = Validators {
            etag: feed.etag.clone(),
            last_modified: feed.last_modified.clone(),
        };
        let fetched = self
            .fetcher
            .feed(&feed.url, &validators, self.config.max_feed_bytes)
            .await;
        let mut run = FeedRun::default();
        let (bytes, new_validators) = match fetched {
            Err(error) => {
                return self
                    .record_error(feed, now, &error.to_string(), wait_of(&error, now))
                    .await
            }
            Ok(Fetched::NotModified) => {
                run.not_modified = true;
                let interval = Duration::from_secs(feed.interval_secs.max(0) as u64)
                    .max(schedule::MIN_INTERVAL);
                self.record_success(feed, now, &validators, interval, &run)
                    .await?;
                return Ok(run);
            }
            Ok(Fetched::Body {
                bytes, validators, ..
            }) => (bytes, validators),
        };
        let ctx = ParseContext::new(feed.country.as_str(), now);
        let parsed = match parse_feed(&bytes, &feed.url, &ctx) {
            Ok(parsed) => parsed,
            Err(e) => return self.record_error(feed, now, &e.to_string(), None).await,
        };
        drop(bytes);
        let linker = self.linker();
        let mut times = Vec::with_capacity(parsed.items.len());
        let mut images = Vec::new();
        for item in parsed.items {
            if item.title.trim().is_empty() {
                continue;
            }
            let published_at = item.published_at.unwrap_or(now);
            times.push(published_at);
            let article = self.article_of(feed, &item, published_at, now, &linker);
            let instrument_ids: Vec<String> = article
                .links
                .iter()
                .map(|l| l.instrument_id.to_string())
                .collect();
            match self.storage.insert_article(article).await? {
                InsertOutcome::Inserted(id) => {
                    run.new_articles += 1;
                    publish_new(
                        &self.hub,
                        &NewArticleEvent {
                            id,
                            country: feed.country.as_str(),
                            instrument_ids: &instrument_ids,
                        },
                    );
                    if let Some(url) = item.image_url {
                        images.push((id, url));
                    }
                }
                InsertOutcome::Merged(_) => run.merged += 1,
                InsertOutcome::Seen(_) => run.seen += 1,
            }
        }
        let interval = schedule::next_interval(&times, now);
        self.record_success(feed, now, &new_validators, interval, &run)
            .await?;
        if self.config.images && !images.is_empty() {
            // In the background: a slow image host delays neither the poller nor the
            // operator's "fetch now" (the fetcher's limits still hold).
            let service = self.clone();
            let feed_url = feed.url.clone();
            self.spawn_image_task(async move {
                for (id, url) in images {
                    service.store_image(id, &url, &feed_url).await;
                }
            });
        }
        Ok(run)
    }

    fn article_of(
        &self,
        feed: &FeedRow,
        item: &FeedItem,
        published_at: DateTime<Utc>,
        now: DateTime<Utc>,
        linker: &moat_news::link::Linker,
    ) -> NewArticle {
        let url = item.url.clone().unwrap_or_default();
        let canonical_url = match (&item.accession, item.url.as_deref()) {
            // EDGAR lists one filing as Filer, Subject, Reporting and Issuer: one
            // article per accession number.
            (Some(accession), _) => format!("sec:accession/{accession}"),
            (None, Some(u)) => moat_news::canonical::canonical_url(u)
                .unwrap_or_else(|| key_without_url(feed.id, &item.guid)),
            (None, None) => key_without_url(feed.id, &item.guid),
        };
        let mut links = linker.link(&item.title, &item.summary);
        if let Some(cik) = moat_news::link::cik_from_edgar(&item.title, &url) {
            for link in linker.link_cik(cik) {
                if !links.iter().any(|l| l.instrument_id == link.instrument_id) {
                    links.push(link);
                }
            }
        }
        NewArticle {
            feed_id: feed.id,
            guid: item.guid.clone(),
            canonical_url,
            url,
            title: item.title.clone(),
            summary: item.summary.clone(),
            source_name: feed.source_name.clone(),
            country: feed.country,
            language: feed.language.clone(),
            published_at,
            fetched_at: now,
            simhash: moat_news::simhash::simhash(&item.title, &item.summary) as i64,
            image_key: None,
            search_text: moat_search::index_parts(&[&item.title, &item.summary]),
            links: links
                .into_iter()
                .filter_map(|l| {
                    Some(NewLink {
                        instrument_id: l.instrument_id.parse().ok()?,
                        in_title: l.in_title,
                    })
                })
                .collect(),
        }
    }

    async fn record_success(
        &self,
        feed: &FeedRow,
        now: DateTime<Utc>,
        validators: &Validators,
        interval: Duration,
        run: &FeedRun,
    ) -> Result<(), StorageError> {
        let next = now + chrono_duration(schedule::jitter(interval, rand::random::<f64>()));
        self.storage
            .record_feed_fetch(
                feed.id,
                FeedFetchRecord {
                    at: now,
                    status: FeedStatus::Ok,
                    etag: validators.etag.clone(),
                    last_modified: validators.last_modified.clone(),
                    next_poll_at: next,
                    interval_secs: interval.as_secs() as i64,
                    error_count: 0,
                    last_error: None,
                    items_added: run.new_articles,
                    items_in_fetch: run.new_articles,
                    retry_after_until: None,
                },
            )
            .await
            .map(|_| ())
    }

    async fn record_error(
        &self,
        feed: &FeedRow,
        now: DateTime<Utc>,
        error: &str,
        wait: Option<Duration>,
    ) -> Result<FeedRun, StorageError> {
        let errors = feed.error_count.max(0) as u32 + 1;
        let backoff = schedule::error_backoff(errors).max(wait.unwrap_or_default());
        tracing::info!(feed = feed.id, url = %feed.url, error, errors, "news feed fetch failed");
        self.storage
            .record_feed_fetch(
                feed.id,
                FeedFetchRecord {
                    at: now,
                    status: FeedStatus::Error,
                    // Validators change only after a successful parse.
                    etag: feed.etag.clone(),
                    last_modified: feed.last_modified.clone(),
                    next_poll_at: now + chrono_duration(backoff),
                    interval_secs: feed.interval_secs,
                    error_count: errors as i64,
                    last_error: Some(error.chars().take(500).collect()),
                    items_added: 0,
                    items_in_fetch: 0,
                    retry_after_until: wait.map(|w| now + chrono_duration(w)),
                },
            )
            .await?;
        Ok(FeedRun {
            error: Some(error.to_owned()),
            ..FeedRun::default()
        })
    }
}

/// The wait a failed fetch asks for: the server's `Retry-After`, or the host's.
fn wait_of(error: &FetchError, now: DateTime<Utc>) -> Option<Duration> {
    match error {
        FetchError::HostWaiting(until) => (*until - now).to_std().ok(),
        other => other.retry_after(),
    }
}

pub(crate) fn chrono_duration(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::days(1))
}
