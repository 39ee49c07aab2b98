//! The news jobs: the poller (one instance at a time, by a lease in the database,
//! fetches the feeds that are due), retention, and seeding feeds from configuration.

use std::{sync::Arc, time::Duration};

use chrono::Utc;
use futures_util::{stream, StreamExt};
use moat_news::schedule;
use moat_storage::{Country, FeedRow, NewFeed, StorageError};

use super::{ingest::FeedRun, NewsService};

/// The poller's lease: one instance fetches feeds at a time.
pub const POLL_LEASE: &str = "news-poller";
/// How long the poller's lease lasts unless renewed (renewed every tick).
pub const POLL_LEASE_TTL: Duration = Duration::from_secs(120);
/// Feeds taken per look.
pub const DUE_BATCH: u32 = 500;
/// How often retention runs.
pub const RETENTION_INTERVAL: Duration = Duration::from_secs(3600);

/// Progress of a cycle, for `moat news fetch`.
pub trait Progress: Send + Sync {
    fn started(&self, _total: usize) {}
    fn feed_done(&self, _feed: &FeedRow, _run: &Result<FeedRun, StorageError>, _took: Duration) {}
}

/// No progress to show (the background poller).
pub struct Quiet;
impl Progress for Quiet {}

impl NewsService {
    /// Adds the configured feeds (once each, by URL) and, with `default_feeds`, the
    /// default list.
    pub async fn seed(&self) -> Result<(), StorageError> {
        for seed in &self.config.feeds {
            let Some(country) = Country::parse(&seed.country) else {
                continue; // refused by the configuration's checks
            };
            let feed = NewFeed {
                url: seed.url.clone(),
                source_name: seed.source_name.clone(),
                country,
                language: seed.language.clone(),
                enabled: seed.enabled,
                is_default: false,
                interval_secs: schedule::MIN_INTERVAL.as_secs() as i64,
                created_at: Utc::now(),
            };
            match self.storage.create_feed(feed).await {
                Ok(_) | Err(StorageError::Conflict(_)) => {}
                Err(e) => return Err(e),
            }
        }
        if self.config.default_feeds {
            self.add_default_feeds().await?;
        }
        if self.config.contact.trim().is_empty() {
            let feeds = self.storage.list_feeds().await?;
            let sec = feeds.iter().any(|f| {
                f.enabled
                    && url::Url::parse(&f.url)
                        .ok()
                        .and_then(|u| u.host_str().map(moat_news::user_agent::host_is_sec))
                        .unwrap_or(false)
            });
            if sec {
                tracing::warn!(
                    "news feeds from sec.gov are enabled but [news] contact is empty: SEC's \
                     fair-access policy asks every client for a contact in its User-Agent \
                     (MOAT_NEWS_CONTACT)"
                );
            }
        }
        Ok(())
    }

    /// Fetches `feeds`, as many at once as the limits allow (the fetcher holds each
    /// host to its own limits).
    pub async fn fetch_feeds(
        self: &Arc<Self>,
        feeds: Vec<FeedRow>,
        progress: &dyn Progress,
    ) -> Vec<FeedRun> {
        progress.started(feeds.len());
        let concurrency = self.config.max_concurrent_fetches.max(1);
        stream::iter(feeds)
            .map(|feed| async move {
                let started = std::time::Instant::now();
                let run = self.fetch_feed(&feed).await;
                progress.feed_done(&feed, &run, started.elapsed());
                match run {
                    Ok(run) => run,
                    Err(e) => {
                        tracing::warn!(feed = feed.id, error = %e, "cannot record a news fetch");
                        FeedRun {
                            error: Some(e.to_string()),
                            ..FeedRun::default()
                        }
                    }
                }
            })
            .buffer_unordered(concurrency)
            .collect()
            .await
    }

    /// One look: the feeds that are due, fetched.
    pub async fn poll_due(
        self: &Arc<Self>,
        progress: &dyn Progress,
    ) -> Result<Vec<FeedRun>, StorageError> {
        let due = self.storage.due_feeds(Utc::now(), DUE_BATCH).await?;
        Ok(self.fetch_feeds(due, progress).await)
    }

    async fn holds_lease(&self) -> bool {
        match self
            .leases
            .acquire_lease(
                POLL_LEASE,
                &self.holder,
                Utc::now().timestamp_millis(),
                POLL_LEASE_TTL.as_millis() as i64,
            )
            .await
        {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!(error = %e, "cannot renew the news poller's lease");
                false
            }
        }
    }

    /// Deletes articles older than the retention, and their images.
    pub async fn apply_retention(&self) -> Result<u64, StorageError> {
        let cutoff = Utc::now() - chrono::Duration::days(i64::from(self.config.retention_days));
        let (count, images) = self.storage.delete_articles_before(cutoff).await?;
        self.forget_images(&images).await;
        if count > 0 {
            tracing::info!(count, "old news articles deleted");
        }
        Ok(count)
    }

    /// Starts the poller and retention.
    pub fn spawn_jobs(self: &Arc<Self>) {
        let service = self.clone();
        tokio::spawn(async move {
            if let Err(e) = service.seed().await {
                tracing::warn!(error = %e, "cannot add the configured news feeds");
            }
            let mut tick =
                tokio::time::interval(Duration::from_secs(service.config.poll_tick_secs));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut last_retention: Option<std::time::Instant> = None;
            loop {
                tick.tick().await;
                if !service.holds_lease().await {
                    continue;
                }
                if let Err(e) = service.poll_due(&Quiet).await {
                    tracing::warn!(error = %e, "cannot look for due news feeds");
                }
                if last_retention.is_none_or(|t| t.elapsed() >= RETENTION_INTERVAL) {
                    last_retention = Some(std::time::Instant::now());
                    if let Err(e) = service.apply_retention().await {
                        tracing::warn!(error = %e, "news retention failed");
                    }
                }
            }
        });
    }
}
