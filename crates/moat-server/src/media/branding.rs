//! The operator's house logo and share-card image, the media store's first users.
//!
//! An upload is checked by its first bytes (PNG, JPEG or WebP; SVG and anything else
//! are refused: an SVG can carry script), stored under a content-addressed key
//! (`branding/<slot>-<sha256 prefix>.<ext>`, so a new image is a new URL and caches
//! never show an old one), and named in the instance settings (`media.branding.*`),
//! which every instance reads from the shared database. The previous image is deleted
//! from the store once the setting names the new one.

use axum::{body::Body, extract::State, http::StatusCode};
use bytes::Bytes;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{MediaKey, MediaState};
use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody, ErrorCode},
        json::ApiJson,
    },
};

/// The largest branding image, in bytes.
pub const MAX_IMAGE_BYTES: usize = 2 * 1024 * 1024;

/// The paths of the branding uploads (their bodies may exceed `body_limit_bytes`, up to
/// [`MAX_IMAGE_BYTES`]).
pub const UPLOAD_PATH_PREFIX: &str = "/api/admin/branding/";

/// One of the branding images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Logo,
    ShareCard,
}

impl Slot {
    /// The setting naming the current image's key.
    fn setting(self) -> &'static str {
        match self {
            Slot::Logo => "media.branding.logo",
            Slot::ShareCard => "media.branding.share_card",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Slot::Logo => "logo",
            Slot::ShareCard => "share-card",
        }
    }
}

/// An accepted image type, known by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageType {
    Png,
    Jpeg,
    Webp,
}

impl ImageType {
    /// The type of `bytes` by their magic number; `None` for anything else (SVG, GIF,
    /// text …).
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Self::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Self::Jpeg)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(Self::Webp)
        } else {
            None
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Webp => "image/webp",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Jpeg => "jpg",
            Self::Webp => "webp",
        }
    }
}

/// The current branding images: where each is served, when one is set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Branding {
    /// `/media/…` of the house logo; absent: the built-in mark.
    pub logo_url: Option<String>,
    /// `/media/…` of the share card (`og:image`); absent: the built-in `/og-image.png`.
    pub share_card_url: Option<String>,
}

async fn current_key(state: &MediaState, slot: Slot) -> Result<Option<MediaKey>, ApiError> {
    let value = state.storage.get_setting(slot.setting()).await?;
    Ok(value
        .filter(|v| !v.is_empty())
        .and_then(|v| MediaKey::parse(&v).ok()))
}

/// The current branding images. A database failure is logged and reads as none (a
/// page still renders with the built-in images).
pub async fn current(state: &MediaState) -> Branding {
    let mut branding = Branding::default();
    for (slot, url) in [
        (Slot::Logo, &mut branding.logo_url),
        (Slot::ShareCard, &mut branding.share_card_url),
    ] {
        match current_key(state, slot).await {
            Ok(key) => *url = key.map(|k| k.url_path()),
            Err(e) => tracing::warn!(error = %e.message, "cannot read the branding settings"),
        }
    }
    branding
}

fn unsupported() -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::UnsupportedImage,
        "Upload a PNG, JPEG or WebP image.",
    )
}

/// Reads the body up to [`MAX_IMAGE_BYTES`].
async fn read_image(body: Body) -> Result<(Bytes, ImageType), ApiError> {
    let bytes = axum::body::to_bytes(body, MAX_IMAGE_BYTES)
        .await
        .map_err(|_| ApiError::payload_too_large(MAX_IMAGE_BYTES))?;
    let kind = ImageType::sniff(&bytes).ok_or_else(unsupported)?;
    Ok((bytes, kind))
}

async fn replace(state: &MediaState, slot: Slot, body: Body) -> Result<Branding, ApiError> {
    let (bytes, kind) = read_image(body).await?;
    let hash = Sha256::digest(&bytes);
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    let key = MediaKey::parse(&format!(
        "branding/{}-{hex}.{}",
        slot.name(),
        kind.extension()
    ))
    .map_err(|p| ApiError::internal(anyhow::anyhow!("a branding key is not valid: {p}")))?;
    let old = current_key(state, slot).await?;
    state
        .store
        .put_bytes(&key, bytes, kind.mime())
        .await
        .map_err(ApiError::internal)?;
    state
        .storage
        .put_setting(slot.setting(), key.as_str())
        .await?;
    if let Some(old) = old.filter(|old| *old != key) {
        forget(state, &old).await;
    }
    Ok(current(state).await)
}

async fn clear(state: &MediaState, slot: Slot) -> Result<Branding, ApiError> {
    let old = current_key(state, slot).await?;
    state.storage.put_setting(slot.setting(), "").await?;
    if let Some(old) = old {
        forget(state, &old).await;
    }
    Ok(current(state).await)
}

/// Deletes an image no setting names any more; a failure only leaves a stray file.
async fn forget(state: &MediaState, key: &MediaKey) {
    if let Err(e) = state.store.delete(key).await {
        tracing::warn!(%key, error = %e, "cannot delete a replaced branding image");
    }
}

/// Sets the house logo (operators only): the raw image as the body, PNG, JPEG or
/// WebP, at most 2 MiB.
#[utoipa::path(put, path = "/api/admin/branding/logo", tag = "media", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    request_body(content = String, content_type = "application/octet-stream", description = "The image's bytes (PNG, JPEG or WebP)"), responses(
    (status = 200, body = Branding),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
    (status = 413, description = "`payload_too_large`", body = ErrorBody),
    (status = 415, description = "`unsupported_image`: not PNG, JPEG or WebP", body = ErrorBody),
))]
pub async fn put_logo(
    State(state): State<MediaState>,
    _operator: Operator,
    body: Body,
) -> Result<ApiJson<Branding>, ApiError> {
    Ok(ApiJson(replace(&state, Slot::Logo, body).await?))
}

/// Goes back to the built-in logo (operators only).
#[utoipa::path(delete, path = "/api/admin/branding/logo", tag = "media", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), responses(
    (status = 200, body = Branding),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
))]
pub async fn delete_logo(
    State(state): State<MediaState>,
    _operator: Operator,
) -> Result<ApiJson<Branding>, ApiError> {
    Ok(ApiJson(clear(&state, Slot::Logo).await?))
}

/// Sets the share card, the image of link previews (`og:image`; 1200 × 630 suits every
/// network), operators only: the raw image as the body, PNG, JPEG or WebP, at most 2 MiB.
#[utoipa::path(put, path = "/api/admin/branding/share-card", tag = "media", security(("bearer" = [])), extensions(("x-access" = json!("operator"))),
    request_body(content = String, content_type = "application/octet-stream", description = "The image's bytes (PNG, JPEG or WebP)"), responses(
    (status = 200, body = Branding),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
    (status = 413, description = "`payload_too_large`", body = ErrorBody),
    (status = 415, description = "`unsupported_image`: not PNG, JPEG or WebP", body = ErrorBody),
))]
pub async fn put_share_card(
    State(state): State<MediaState>,
    _operator: Operator,
    body: Body,
) -> Result<ApiJson<Branding>, ApiError> {
    Ok(ApiJson(replace(&state, Slot::ShareCard, body).await?))
}

/// Goes back to the built-in share card (operators only).
#[utoipa::path(delete, path = "/api/admin/branding/share-card", tag = "media", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), responses(
    (status = 200, body = Branding),
    (status = 401, body = ErrorBody),
    (status = 403, description = "`forbidden`: not an operator", body = ErrorBody),
))]
pub async fn delete_share_card(
    State(state): State<MediaState>,
    _operator: Operator,
) -> Result<ApiJson<Branding>, ApiError> {
    Ok(ApiJson(clear(&state, Slot::ShareCard).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_known_by_their_first_bytes() {
        assert_eq!(
            ImageType::sniff(b"\x89PNG\r\n\x1a\nrest"),
            Some(ImageType::Png)
        );
        assert_eq!(
            ImageType::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(ImageType::Jpeg)
        );
        assert_eq!(
            ImageType::sniff(b"RIFF\x10\0\0\0WEBPVP8 "),
            Some(ImageType::Webp)
        );
        for refused in [
            &b"<svg xmlns='http://www.w3.org/2000/svg'/>"[..],
            b"<?xml version='1.0'?><svg/>",
            b"GIF89a",
            b"RIFF\x10\0\0\0WAVE",
            b"",
            b"\x89PNG",
        ] {
            assert_eq!(ImageType::sniff(refused), None, "{refused:?}");
        }
        assert_eq!(MAX_IMAGE_BYTES, 2 * 1024 * 1024);
    }
}
