//! The SQL of [`NewsStorage`], one implementation for both backends.

use chrono::{DateTime, Utc};

use crate::news::{
    ArticleFilter, ArticleRow, FeedFetchRecord, FeedPatch, FeedRow, InsertOutcome, NewArticle,
    NewFeed, NewsStatusRow, NewsStorage, SearchFilter,
};
use crate::sql::{Sql, SqlStorage};
use crate::StorageError;

// The first milestone: the API only; the bodies follow.
#[allow(clippy::todo)]
#[async_trait::async_trait]
impl<DB: Sql> NewsStorage for SqlStorage<DB> {
    async fn create_feed(&self, _new: NewFeed) -> Result<FeedRow, StorageError> {
        todo!()
    }
    async fn update_feed(&self, _id: i64, _patch: FeedPatch) -> Result<FeedRow, StorageError> {
        todo!()
    }
    async fn delete_feed(&self, _id: i64) -> Result<(), StorageError> {
        todo!()
    }
    async fn get_feed(&self, _id: i64) -> Result<FeedRow, StorageError> {
        todo!()
    }
    async fn list_feeds(&self) -> Result<Vec<FeedRow>, StorageError> {
        todo!()
    }
    async fn due_feeds(
        &self,
        _now: DateTime<Utc>,
        _limit: u32,
    ) -> Result<Vec<FeedRow>, StorageError> {
        todo!()
    }
    async fn record_feed_fetch(
        &self,
        _id: i64,
        _record: FeedFetchRecord,
    ) -> Result<FeedRow, StorageError> {
        todo!()
    }
    async fn news_status(&self) -> Result<NewsStatusRow, StorageError> {
        todo!()
    }
    async fn insert_article(&self, _new: NewArticle) -> Result<InsertOutcome, StorageError> {
        todo!()
    }
    async fn set_article_image(&self, _id: i64, _key: &str) -> Result<(), StorageError> {
        todo!()
    }
    async fn get_article(&self, _id: i64) -> Result<ArticleRow, StorageError> {
        todo!()
    }
    async fn list_articles(&self, _filter: ArticleFilter) -> Result<Vec<ArticleRow>, StorageError> {
        todo!()
    }
    async fn search_articles(
        &self,
        _query: &moat_search::Query,
        _filter: &SearchFilter,
        _offset: u32,
        _limit: u32,
    ) -> Result<Vec<ArticleRow>, StorageError> {
        todo!()
    }
    async fn delete_articles_before(&self, _cutoff: DateTime<Utc>) -> Result<u64, StorageError> {
        todo!()
    }
    async fn count_articles(&self) -> Result<i64, StorageError> {
        todo!()
    }
}
