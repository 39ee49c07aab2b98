//! The media store: files every instance can read (docs/scale-out.md, "Media store").
//!
//! One [`MediaStore`] trait with two implementations, chosen by `[media]`:
//!
//! - [`folder::FolderStore`] (the default): a folder under the data directory
//!   (`data_dir/media`). Writes go to a temporary file that is renamed into place, so a
//!   reader sees the old object or the new one, never half of one.
//! - [`s3::S3Store`]: an S3-compatible bucket (AWS S3, Garage, MinIO, s3s-fs …), through
//!   the `object_store` crate.
//!
//! Objects are served by Moat itself at `GET /media/{key}` ([`http`]): from its own
//! origin, so the CSP stays same-origin, ranged (206, `Content-Range`, 416, `If-Range`,
//! ETag), streamed chunk by chunk (never buffered whole) and never compressed.
//!
//! The first users are the operator's house logo and the share-card image
//! ([`branding`]).

pub mod branding;
mod config;
pub mod folder;
pub mod http;
pub mod s3;

use std::{fmt, io, ops::Range, sync::Arc};

use async_trait::async_trait;
use axum::extract::FromRef;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures_util::stream::BoxStream;
use moat_storage::Storage;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub use config::{MediaConfig, StoreKind};

/// The longest key, in bytes.
pub const MAX_KEY_BYTES: usize = 512;
/// The most `/`-separated segments in a key.
pub const MAX_KEY_SEGMENTS: usize = 8;

/// A validated object key: segments of `A–Z a–z 0–9 . _ -` joined by `/`, none empty,
/// none starting with `.` (so no `.`, `..` or hidden names), no leading `/`, at most
/// [`MAX_KEY_BYTES`] bytes and [`MAX_KEY_SEGMENTS`] segments. The same key is a relative
/// path under the folder store's root and an object name in a bucket.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MediaKey(String);

/// Why a key was refused (the 400 `invalid_media_key`'s message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyProblem {
    Empty,
    TooLong,
    TooDeep,
    Absolute,
    EmptySegment,
    DotSegment,
    Character,
}

impl fmt::Display for KeyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyProblem::Empty => "the key is empty",
            KeyProblem::TooLong => "the key is too long",
            KeyProblem::TooDeep => "the key has too many segments",
            KeyProblem::Absolute => "the key is an absolute path",
            KeyProblem::EmptySegment => "the key has an empty segment",
            KeyProblem::DotSegment => "a segment of the key starts with a dot",
            KeyProblem::Character => "the key may hold only letters, digits, '.', '_', '-' and '/'",
        })
    }
}

impl MediaKey {
    pub fn parse(key: &str) -> Result<Self, KeyProblem> {
        if key.is_empty() {
            return Err(KeyProblem::Empty);
        }
        if key.len() > MAX_KEY_BYTES {
            return Err(KeyProblem::TooLong);
        }
        if key.starts_with('/') || key.starts_with('\\') {
            return Err(KeyProblem::Absolute);
        }
        let mut segments = 0;
        for segment in key.split('/') {
            segments += 1;
            if segment.is_empty() {
                return Err(KeyProblem::EmptySegment);
            }
            if segment.starts_with('.') {
                return Err(KeyProblem::DotSegment);
            }
            if !segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
            {
                return Err(KeyProblem::Character);
            }
        }
        if segments > MAX_KEY_SEGMENTS {
            return Err(KeyProblem::TooDeep);
        }
        Ok(Self(key.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path that serves this object: `/media/<key>`.
    pub fn url_path(&self) -> String {
        format!("/media/{}", self.0)
    }
}

impl fmt::Debug for MediaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for MediaKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a store knows about an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectInfo {
    pub size: u64,
    pub content_type: String,
    /// A strong entity tag, quoted (`"…"`): changes whenever the object does.
    pub etag: String,
    pub last_modified: DateTime<Utc>,
}

/// Bytes as they arrive.
pub type ByteStream = BoxStream<'static, io::Result<Bytes>>;

/// An object being read: what it is, which bytes the body holds, and the body.
pub struct Object {
    pub info: ObjectInfo,
    /// The bytes of the object the body holds (the whole object when no range was asked).
    pub range: Range<u64>,
    pub body: ByteStream,
}

#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    #[error("no such object")]
    NotFound,
    /// The object changed since its ETag was read (`get`'s `if_match`).
    #[error("the object changed")]
    Changed,
    #[error("media store: {0}")]
    Other(#[from] anyhow::Error),
}

impl From<io::Error> for MediaError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::NotFound {
            MediaError::NotFound
        } else {
            MediaError::Other(e.into())
        }
    }
}

/// Where media objects live. Every instance behind a load balancer must see the same
/// objects: a shared folder (one machine or a network file system) or a bucket.
#[async_trait]
pub trait MediaStore: Send + Sync {
    /// `folder` or `s3`, for logs.
    fn kind(&self) -> &'static str;

    /// Writes `body` as `key` with `content_type`, replacing any object of that key; a
    /// reader sees the old object or the new one, never part of one. A failing body
    /// leaves the old object.
    async fn put(
        &self,
        key: &MediaKey,
        body: ByteStream,
        content_type: &str,
    ) -> Result<ObjectInfo, MediaError>;

    /// [`MediaStore::put`] of bytes in memory.
    async fn put_bytes(
        &self,
        key: &MediaKey,
        bytes: Bytes,
        content_type: &str,
    ) -> Result<ObjectInfo, MediaError> {
        let body: ByteStream = Box::pin(futures_util::stream::once(async move { Ok(bytes) }));
        self.put(key, body, content_type).await
    }

    /// Reads `range` of the object (the whole object when `None`) as a stream. `range`
    /// must lie within the object (the caller checked it against [`MediaStore::head`]);
    /// with `if_match`, an object whose ETag is no longer that one is
    /// [`MediaError::Changed`] (it was replaced between the two calls).
    async fn get(
        &self,
        key: &MediaKey,
        range: Option<Range<u64>>,
        if_match: Option<&str>,
    ) -> Result<Object, MediaError>;

    /// What the store knows about the object, without its bytes.
    async fn head(&self, key: &MediaKey) -> Result<ObjectInfo, MediaError>;

    /// Deletes the object; deleting a missing one is not an error.
    async fn delete(&self, key: &MediaKey) -> Result<(), MediaError>;
}

/// Opens the store `[media]` names.
pub fn open(config: &crate::Config) -> anyhow::Result<Arc<dyn MediaStore>> {
    Ok(match config.media.store {
        StoreKind::Folder => Arc::new(folder::FolderStore::open(
            config.media.folder_root(&config.data_dir),
        )?),
        StoreKind::S3 => Arc::new(s3::S3Store::open(&config.media)?),
    })
}

/// What the media handlers reach: the store, and the settings that name the current
/// branding images (shared by every instance through the database).
#[derive(Clone)]
pub struct MediaState {
    pub store: Arc<dyn MediaStore>,
    pub storage: Arc<dyn Storage>,
}

impl MediaState {
    pub fn start(config: &crate::Config, storage: Arc<dyn Storage>) -> anyhow::Result<Self> {
        let store = open(config)?;
        tracing::info!(store = store.kind(), "media store");
        Ok(Self { store, storage })
    }
}

impl FromRef<AppState> for MediaState {
    fn from_ref(state: &AppState) -> Self {
        state.media.clone()
    }
}

/// The documented routes: the operator's branding uploads.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(branding::put_logo, branding::delete_logo))
        .routes(routes!(
            branding::put_share_card,
            branding::delete_share_card
        ))
}

/// `GET`/`HEAD /media/{*key}`, outside the OpenAPI document (bytes, not JSON).
pub fn serving_routes() -> axum::Router<AppState> {
    axum::Router::new().route("/media/{*key}", axum::routing::get(http::serve))
}

/// The path prefix of served objects; the compression layer leaves these responses alone.
pub const PATH_PREFIX: &str = "/media/";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_relative_paths_of_plain_segments() {
        for good in [
            "logo.png",
            "branding/logo-0123abcd.png",
            "a/b/c/d/e/f/g/h",
            "A_b-c.9",
        ] {
            assert!(MediaKey::parse(good).is_ok(), "{good}");
        }
        let bad: &[(&str, KeyProblem)] = &[
            ("", KeyProblem::Empty),
            ("..", KeyProblem::DotSegment),
            ("../etc/passwd", KeyProblem::DotSegment),
            ("a/../b", KeyProblem::DotSegment),
            ("a/./b", KeyProblem::DotSegment),
            (".hidden", KeyProblem::DotSegment),
            ("/etc/passwd", KeyProblem::Absolute),
            ("\\etc", KeyProblem::Absolute),
            ("a//b", KeyProblem::EmptySegment),
            ("a/", KeyProblem::EmptySegment),
            ("a\\b", KeyProblem::Character),
            ("%2e%2e", KeyProblem::Character),
            ("a b", KeyProblem::Character),
            ("a\0b", KeyProblem::Character),
            ("로고.png", KeyProblem::Character),
            ("a/b/c/d/e/f/g/h/i", KeyProblem::TooDeep),
        ];
        for (key, problem) in bad {
            assert_eq!(MediaKey::parse(key), Err(*problem), "{key:?}");
        }
        let long = "a".repeat(MAX_KEY_BYTES + 1);
        assert_eq!(MediaKey::parse(&long), Err(KeyProblem::TooLong));
        assert!(MediaKey::parse(&"a".repeat(MAX_KEY_BYTES)).is_ok());
        assert_eq!((MAX_KEY_BYTES, MAX_KEY_SEGMENTS), (512, 8));
    }
}
