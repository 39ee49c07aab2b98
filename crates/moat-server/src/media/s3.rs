//! The S3-compatible store, through `object_store` (SigV4 signing, retries, multipart
//! uploads). An object's content type is its `Content-Type`, its ETag the bucket's.
//!
//! Writes up to [`PART_BYTES`] are one `PUT`; larger ones a multipart upload of
//! [`PART_BYTES`] parts (S3 wants at least 5 MiB per part), which the bucket makes
//! visible at once when it completes. Reads are one ranged `GET` streamed as it
//! arrives.

use std::{ops::Range, sync::Arc};

use anyhow::Context;
use async_trait::async_trait;
use futures_util::{StreamExt, TryStreamExt};
use object_store::{
    aws::AmazonS3Builder, buffered::BufWriter, path::Path, Attribute, AttributeValue, Attributes,
    GetOptions, GetRange, ObjectMeta, ObjectStore, ObjectStoreExt,
};
use tokio::io::AsyncWriteExt;

use super::{ByteStream, MediaConfig, MediaError, MediaKey, MediaStore, Object, ObjectInfo};

/// Bytes buffered per part of an upload (and the largest single `PUT`).
pub const PART_BYTES: usize = 8 * 1024 * 1024;

pub struct S3Store {
    store: Arc<dyn ObjectStore>,
    bucket: String,
}

impl S3Store {
    pub fn open(config: &MediaConfig) -> anyhow::Result<Self> {
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(&config.bucket)
            .with_region(config.region_or_default())
            .with_virtual_hosted_style_request(!config.path_style);
        if !config.endpoint.is_empty() {
            builder = builder
                .with_endpoint(config.endpoint.trim_end_matches('/'))
                .with_allow_http(config.endpoint.starts_with("http://"));
        }
        if !config.access_key_id.is_empty() {
            builder = builder
                .with_access_key_id(&config.access_key_id)
                .with_secret_access_key(config.secret_access_key.expose());
        }
        let store = builder
            .build()
            .context("cannot set up the S3 media store (`[media]`)")?;
        Ok(Self {
            store: Arc::new(store),
            bucket: config.bucket.clone(),
        })
    }

    fn path(key: &MediaKey) -> Path {
        // Keys are plain segments already (MediaKey), which object_store keeps as they are.
        Path::from(key.as_str())
    }
}

fn error(e: object_store::Error) -> MediaError {
    match e {
        object_store::Error::NotFound { .. } => MediaError::NotFound,
        object_store::Error::Precondition { .. } => MediaError::Changed,
        other => MediaError::Other(other.into()),
    }
}

/// An ETag as HTTP writes it: quoted.
fn quoted(etag: Option<&str>) -> String {
    match etag {
        Some(t) if t.starts_with('"') || t.starts_with("W/\"") => t.to_owned(),
        Some(t) => format!("\"{t}\""),
        None => "\"\"".to_owned(),
    }
}

fn info(meta: &ObjectMeta, attributes: Option<&Attributes>) -> ObjectInfo {
    let content_type = attributes
        .and_then(|a| a.get(&Attribute::ContentType))
        .map(|v| v.as_ref().to_owned())
        .unwrap_or_else(|| {
            mime_guess::from_path(meta.location.as_ref())
                .first_or_octet_stream()
                .essence_str()
                .to_owned()
        });
    ObjectInfo {
        size: meta.size,
        content_type,
        etag: quoted(meta.e_tag.as_deref()),
        last_modified: meta.last_modified,
    }
}

#[async_trait]
impl MediaStore for S3Store {
    fn kind(&self) -> &'static str {
        "s3"
    }

    async fn put(
        &self,
        key: &MediaKey,
        mut body: ByteStream,
        content_type: &str,
    ) -> Result<ObjectInfo, MediaError> {
        let mut attributes = Attributes::new();
        attributes.insert(
            Attribute::ContentType,
            AttributeValue::from(content_type.to_owned()),
        );
        let mut writer = BufWriter::with_capacity(self.store.clone(), Self::path(key), PART_BYTES)
            .with_attributes(attributes);
        while let Some(chunk) = body.next().await {
            let written = match chunk {
                Ok(bytes) => writer.put(bytes).await.map_err(error),
                Err(e) => Err(MediaError::Other(e.into())),
            };
            if let Err(e) = written {
                // Cancels a multipart upload begun; nothing was written before one.
                let _ = writer.abort().await;
                return Err(e);
            }
        }
        // Completes the upload (or sends the one PUT); a failure leaves the old object.
        writer
            .shutdown()
            .await
            .map_err(|e| MediaError::Other(e.into()))?;
        self.head(key).await
    }

    async fn get(
        &self,
        key: &MediaKey,
        range: Option<Range<u64>>,
        if_match: Option<&str>,
    ) -> Result<Object, MediaError> {
        let options = GetOptions {
            if_match: if_match.map(str::to_owned),
            range: range.clone().and_then(|r| {
                // An empty range is not a GET: asked only of an empty object, whole.
                (r.start < r.end).then_some(GetRange::Bounded(r))
            }),
            ..Default::default()
        };
        let result = self
            .store
            .get_opts(&Self::path(key), options)
            .await
            .map_err(error)?;
        let info = info(&result.meta, Some(&result.attributes));
        // Checked here too: not every S3-compatible server honours If-Match on GET.
        if if_match.is_some_and(|tag| tag != info.etag) {
            return Err(MediaError::Changed);
        }
        let range = result.range.clone();
        let body: ByteStream = result
            .into_stream()
            .map_err(|e| std::io::Error::other(e.to_string()))
            .boxed();
        Ok(Object { info, range, body })
    }

    async fn head(&self, key: &MediaKey) -> Result<ObjectInfo, MediaError> {
        // A HEAD through get_opts, which also returns the object's Content-Type.
        let result = self
            .store
            .get_opts(
                &Self::path(key),
                GetOptions {
                    head: true,
                    ..Default::default()
                },
            )
            .await
            .map_err(error)?;
        if result.meta.e_tag.is_some() {
            return Ok(info(&result.meta, Some(&result.attributes)));
        }
        // A server whose HEAD carries no ETag (s3s-fs): its GET's headers do; the body is
        // dropped unread.
        let result = self
            .store
            .get_opts(&Self::path(key), GetOptions::default())
            .await
            .map_err(error)?;
        Ok(info(&result.meta, Some(&result.attributes)))
    }

    async fn delete(&self, key: &MediaKey) -> Result<(), MediaError> {
        // object_store deletes through DeleteObjects, and some S3-compatible servers
        // (s3s-fs) answer it for a missing key with an empty result it cannot read: a
        // missing object is looked up first, and deleting it is a no-op anyway.
        match self.head(key).await {
            Err(MediaError::NotFound) => return Ok(()),
            Err(e) => return Err(e),
            Ok(_) => {}
        }
        match self.store.delete(&Self::path(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(MediaError::Other(
                anyhow::Error::from(e).context(format!("bucket {}", self.bucket)),
            )),
        }
    }
}
