//! The folder store: `<root>/<key>` holds an object's bytes, `<root>/.types/<key>` its
//! content type (a one-line sidecar; without one the type is guessed from the key's
//! extension). Keys never start a segment with `.`, so `.types` and `.tmp` cannot be
//! named by a key.
//!
//! A write streams into `<root>/.tmp/<uuid>`, syncs it and renames it over the key
//! (rename is atomic on one file system), so readers see the old object or the new
//! one. The sidecar is renamed into place just before the bytes; two writers racing
//! on one key may leave one's type beside the other's bytes until the next write
//! (Moat's own keys are content-addressed, so it never rewrites a key).
//!
//! The ETag is `"<inode>-<size>-<mtime ns>"` of the file, in hex: every write is a
//! new file (a new inode), so it changes with every write.

use std::{
    io::SeekFrom,
    ops::Range,
    path::{Path, PathBuf},
};

use anyhow::Context;
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use tokio::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt};
use tokio_util::io::ReaderStream;

use super::{ByteStream, MediaError, MediaKey, MediaStore, Object, ObjectInfo};

/// Bytes read from disk per chunk of a served body.
pub const READ_CHUNK_BYTES: usize = 64 * 1024;

const TYPES_DIR: &str = ".types";
const TMP_DIR: &str = ".tmp";

pub struct FolderStore {
    root: PathBuf,
}

impl FolderStore {
    /// Opens (and creates) the folder.
    pub fn open(root: PathBuf) -> anyhow::Result<Self> {
        for dir in [root.clone(), root.join(TYPES_DIR), root.join(TMP_DIR)] {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create the media folder {}", dir.display()))?;
        }
        Ok(Self { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &MediaKey) -> PathBuf {
        self.root.join(key.as_str())
    }

    fn type_path(&self, key: &MediaKey) -> PathBuf {
        self.root.join(TYPES_DIR).join(key.as_str())
    }

    fn tmp_path(&self) -> PathBuf {
        self.root
            .join(TMP_DIR)
            .join(uuid::Uuid::new_v4().simple().to_string())
    }

    async fn content_type(&self, key: &MediaKey) -> String {
        match tokio::fs::read_to_string(self.type_path(key)).await {
            Ok(t) if !t.trim().is_empty() => t.trim().to_owned(),
            _ => mime_guess::from_path(key.as_str())
                .first_or_octet_stream()
                .essence_str()
                .to_owned(),
        }
    }

    async fn info(&self, key: &MediaKey, meta: &std::fs::Metadata) -> ObjectInfo {
        let modified = meta.modified().ok();
        let nanos = modified
            .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0u64;
        ObjectInfo {
            size: meta.len(),
            content_type: self.content_type(key).await,
            etag: format!("\"{inode:x}-{:x}-{nanos:x}\"", meta.len()),
            last_modified: modified.map_or_else(Utc::now, DateTime::<Utc>::from),
        }
    }

    async fn write_tmp(&self, mut body: ByteStream) -> Result<PathBuf, MediaError> {
        let tmp = self.tmp_path();
        let result = async {
            let mut file = tokio::fs::File::create(&tmp).await?;
            while let Some(chunk) = body.next().await {
                file.write_all(&chunk?).await?;
            }
            file.sync_all().await?;
            Ok::<_, std::io::Error>(())
        }
        .await;
        match result {
            Ok(()) => Ok(tmp),
            Err(e) => {
                let _ = tokio::fs::remove_file(&tmp).await;
                Err(MediaError::Other(
                    anyhow::Error::from(e).context("cannot write a media object"),
                ))
            }
        }
    }
}

async fn rename_into(tmp: &Path, to: &Path) -> Result<(), MediaError> {
    if let Some(parent) = to.parent() {
        tokio::fs::create_dir_all(parent)
            .await
            .map_err(|e| MediaError::Other(e.into()))?;
    }
    if let Err(e) = tokio::fs::rename(tmp, to).await {
        let _ = tokio::fs::remove_file(tmp).await;
        return Err(MediaError::Other(
            anyhow::Error::from(e).context("cannot move a media object into place"),
        ));
    }
    Ok(())
}

#[async_trait]
impl MediaStore for FolderStore {
    fn kind(&self) -> &'static str {
        "folder"
    }

    async fn put(
        &self,
        key: &MediaKey,
        body: ByteStream,
        content_type: &str,
    ) -> Result<ObjectInfo, MediaError> {
        let data = self.write_tmp(body).await?;
        let kind: ByteStream = Box::pin(futures_util::stream::once({
            let t = bytes::Bytes::from(content_type.to_owned());
            async move { Ok(t) }
        }));
        let kind = match self.write_tmp(kind).await {
            Ok(p) => p,
            Err(e) => {
                let _ = tokio::fs::remove_file(&data).await;
                return Err(e);
            }
        };
        if let Err(e) = rename_into(&kind, &self.type_path(key)).await {
            let _ = tokio::fs::remove_file(&data).await;
            return Err(e);
        }
        rename_into(&data, &self.path(key)).await?;
        self.head(key).await
    }

    async fn get(
        &self,
        key: &MediaKey,
        range: Option<Range<u64>>,
        if_match: Option<&str>,
    ) -> Result<Object, MediaError> {
        let mut file = tokio::fs::File::open(self.path(key)).await?;
        let meta = file.metadata().await?;
        if !meta.is_file() {
            return Err(MediaError::NotFound);
        }
        let info = self.info(key, &meta).await;
        if if_match.is_some_and(|tag| tag != info.etag) {
            return Err(MediaError::Changed);
        }
        let range = range.unwrap_or(0..info.size);
        if range.start > range.end || range.end > info.size {
            return Err(MediaError::Other(anyhow::anyhow!(
                "range {range:?} outside an object of {} bytes",
                info.size
            )));
        }
        file.seek(SeekFrom::Start(range.start)).await?;
        let reader = file.take(range.end - range.start);
        let body = ReaderStream::with_capacity(reader, READ_CHUNK_BYTES).boxed();
        Ok(Object { info, range, body })
    }

    async fn head(&self, key: &MediaKey) -> Result<ObjectInfo, MediaError> {
        let meta = tokio::fs::metadata(self.path(key)).await?;
        if !meta.is_file() {
            return Err(MediaError::NotFound);
        }
        Ok(self.info(key, &meta).await)
    }

    async fn delete(&self, key: &MediaKey) -> Result<(), MediaError> {
        for path in [self.path(key), self.type_path(key)] {
            match tokio::fs::remove_file(&path).await {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(MediaError::Other(e.into())),
            }
        }
        Ok(())
    }
}
