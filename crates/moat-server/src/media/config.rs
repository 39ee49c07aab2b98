//! `[media]`: where the media store keeps its objects (docs/scale-out.md).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Secret, Section};

/// Which store holds media objects.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    /// A folder on this machine (`folder`, default `data_dir/media`).
    #[default]
    Folder,
    /// An S3-compatible bucket.
    S3,
}

/// `[media]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
#[serde(default, deny_unknown_fields)]
pub struct MediaConfig {
    pub store: StoreKind,
    /// The folder store's root; empty: `data_dir/media`.
    pub folder: PathBuf,
    /// The S3 endpoint (`https://s3.example.com`, `http://127.0.0.1:3900`); empty: AWS.
    pub endpoint: String,
    pub bucket: String,
    /// The bucket's region (`us-east-1` when empty; Garage's default is `garage`).
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: Secret,
    /// Path-style URLs (`endpoint/bucket/key`) instead of virtual-hosted ones
    /// (`bucket.endpoint/key`): what most self-hosted servers want.
    pub path_style: bool,
}

/// The region used when `media.region` is empty.
pub const DEFAULT_REGION: &str = "us-east-1";

impl MediaConfig {
    /// The folder store's root: `folder`, or `data_dir/media`.
    pub fn folder_root(&self, data_dir: &Path) -> PathBuf {
        if self.folder.as_os_str().is_empty() {
            data_dir.join("media")
        } else {
            self.folder.clone()
        }
    }

    pub fn region_or_default(&self) -> &str {
        if self.region.is_empty() {
            DEFAULT_REGION
        } else {
            &self.region
        }
    }
}

impl Section for MediaConfig {
    const NAME: &'static str = "media";
    const ENV_KEYS: &'static [&'static str] = &[
        "store",
        "folder",
        "endpoint",
        "bucket",
        "region",
        "access_key_id",
        "secret_access_key",
        "path_style",
    ];

    fn validate(&self) -> Result<(), ConfigError> {
        if self.store != StoreKind::S3 {
            return Ok(());
        }
        if self.bucket.is_empty() {
            return Err(ConfigError::key(
                "media.bucket",
                "required when `media.store` is \"s3\"",
            ));
        }
        let http = self.endpoint.starts_with("http://") || self.endpoint.starts_with("https://");
        if !self.endpoint.is_empty() && !http {
            return Err(ConfigError::key(
                "media.endpoint",
                "must start with http:// or https://",
            ));
        }
        if self.access_key_id.is_empty() != self.secret_access_key.is_empty() {
            return Err(ConfigError::new(
                "`media.access_key_id` and `media.secret_access_key` go together: set both or neither",
            ));
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[media]
# Where uploaded files (the house logo, the share card; later community media) live.
# "folder": a folder on this machine (folder, empty: data_dir/media); several
# instances must then share it (one machine, or a network file system).
# "s3": an S3-compatible bucket every instance reaches (AWS S3, Garage, MinIO …).
# Files are always served by Moat itself at /media/… (same origin). Also
# MOAT_MEDIA_STORE, MOAT_MEDIA_BUCKET, …
store = "folder"
folder = "{folder}"
# S3 only: the endpoint (empty: AWS), the bucket, its region (empty: {region}), the
# credentials (both or neither; also MOAT_MEDIA_SECRET_ACCESS_KEY) and path-style URLs
# (endpoint/bucket/key, what most self-hosted servers want).
endpoint = ""
bucket = ""
region = ""
access_key_id = ""
secret_access_key = ""
path_style = {path_style}
"#,
            folder = self.folder.display(),
            region = DEFAULT_REGION,
            path_style = self.path_style,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_under_the_data_dir_unless_set() {
        let c = MediaConfig::default();
        assert_eq!(c.store, StoreKind::Folder);
        assert!(c.validate().is_ok());
        assert_eq!(c.folder_root(Path::new("/d")), PathBuf::from("/d/media"));
        let c = MediaConfig {
            folder: "/srv/media".into(),
            ..c
        };
        assert_eq!(c.folder_root(Path::new("/d")), PathBuf::from("/srv/media"));
    }

    #[test]
    fn s3_needs_a_bucket_an_http_endpoint_and_both_or_no_keys() {
        let ok = MediaConfig {
            store: StoreKind::S3,
            endpoint: "http://127.0.0.1:3900".into(),
            bucket: "moat".into(),
            access_key_id: "k".into(),
            secret_access_key: "s".into(),
            path_style: true,
            ..Default::default()
        };
        assert!(ok.validate().is_ok());
        assert_eq!(ok.region_or_default(), DEFAULT_REGION);
        let no_bucket = MediaConfig {
            bucket: String::new(),
            ..ok.clone()
        };
        assert!(no_bucket
            .validate()
            .unwrap_err()
            .to_string()
            .contains("media.bucket"));
        let bad_endpoint = MediaConfig {
            endpoint: "s3.example.com".into(),
            ..ok.clone()
        };
        assert!(bad_endpoint
            .validate()
            .unwrap_err()
            .to_string()
            .contains("media.endpoint"));
        let half = MediaConfig {
            secret_access_key: Secret::default(),
            ..ok.clone()
        };
        assert!(half.validate().is_err());
        let shown = format!("{ok:?}");
        assert!(!shown.contains("secret_access_key: \"s\""), "{shown}");
    }
}
