//! Articles' images: fetched by the server (size- and type-checked), decoded and
//! re-encoded as JPEG at most [`MAX_IMAGE_WIDTH`] wide (which drops whatever else the
//! file carried: metadata, trailing bytes, a polyglot's script), stored in the media
//! store and served from Moat's own origin, so the CSP stays same-origin and readers
//! are not tracked by publishers. An image that cannot be fetched or decoded is simply
//! not shown.

use std::{io::Cursor, net::IpAddr};

use bytes::Bytes;
use sha2::{Digest, Sha256};

use super::NewsService;
use crate::media::MediaKey;

/// The widest stored image, in pixels (a phone's list and the article view).
pub const MAX_IMAGE_WIDTH: u32 = 800;
/// The largest image accepted, in pixels per side (a decompression bomb stops here).
pub const MAX_IMAGE_SIDE: u32 = 8_000;
/// Memory the decoder may allocate.
pub const MAX_DECODE_ALLOC: u64 = 256 * 1024 * 1024;
/// JPEG quality of the stored copy.
pub const JPEG_QUALITY: u8 = 80;

/// Whether `host` is this machine or a private network (an image URL from a feed must
/// not make the server fetch from inside unless the feed itself is there).
pub fn is_internal_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.eq_ignore_ascii_case("localhost") || host.ends_with(".localhost") {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => {
            ip.is_loopback()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || ip.is_broadcast()
        }
        Ok(IpAddr::V6(ip)) => {
            ip.is_loopback()
                || ip.is_unspecified()
                || (ip.segments()[0] & 0xfe00) == 0xfc00
                || (ip.segments()[0] & 0xffc0) == 0xfe80
        }
        Err(_) => false,
    }
}

/// Decodes `bytes` (PNG, JPEG or WebP, by their first bytes) and re-encodes them as a
/// JPEG at most [`MAX_IMAGE_WIDTH`] wide.
pub fn reencode(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let format = image::guess_format(bytes).map_err(|e| e.to_string())?;
    if !matches!(
        format,
        image::ImageFormat::Png | image::ImageFormat::Jpeg | image::ImageFormat::WebP
    ) {
        return Err(format!("{format:?} is not accepted"));
    }
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| e.to_string())?;
    let decoded = if decoded.width() > MAX_IMAGE_WIDTH {
        decoded.resize(
            MAX_IMAGE_WIDTH,
            MAX_IMAGE_SIDE,
            image::imageops::FilterType::Triangle,
        )
    } else {
        decoded
    };
    let rgb = decoded.to_rgb8();
    let mut out = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
    rgb.write_with_encoder(encoder).map_err(|e| e.to_string())?;
    Ok(out)
}

impl NewsService {
    /// Fetches, checks, re-encodes and stores the image of article `id`; any failure
    /// is logged and leaves the article without an image.
    pub async fn store_image(&self, id: i64, url: &str, feed_url: &str) {
        if let Err(e) = self.try_store_image(id, url, feed_url).await {
            tracing::debug!(article = id, url, error = %e, "article image not kept");
        }
    }

    async fn try_store_image(&self, id: i64, url: &str, feed_url: &str) -> anyhow::Result<()> {
        let host = |u: &str| {
            url::Url::parse(u)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_default()
        };
        if is_internal_host(&host(url)) && !is_internal_host(&host(feed_url)) {
            anyhow::bail!("an internal address from an outside feed");
        }
        let bytes: Bytes = self.fetcher.image(url, self.config.max_image_bytes).await?;
        let jpeg = tokio::task::spawn_blocking(move || reencode(&bytes))
            .await?
            .map_err(anyhow::Error::msg)?;
        let digest = Sha256::digest(&jpeg);
        let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
        let key =
            MediaKey::parse(&format!("news/{id}-{hex}.jpg")).map_err(|p| anyhow::anyhow!("{p}"))?;
        self.media
            .put_bytes(&key, Bytes::from(jpeg), "image/jpeg")
            .await?;
        self.storage.set_article_image(id, key.as_str()).await?;
        Ok(())
    }

    /// Deletes stored images that retention released (a failure leaves a stray file).
    pub async fn forget_images(&self, keys: &[String]) {
        for key in keys {
            if let Ok(key) = MediaKey::parse(key) {
                if let Err(e) = self.media.delete(&key).await {
                    tracing::warn!(%key, error = %e, "cannot delete a news image");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_hosts() {
        for h in [
            "127.0.0.1",
            "localhost",
            "10.1.2.3",
            "192.168.0.1",
            "169.254.169.254",
            "[::1]",
            "0.0.0.0",
        ] {
            assert!(is_internal_host(h), "{h}");
        }
        for h in ["example.com", "8.8.8.8", "news.naver.com"] {
            assert!(!is_internal_host(h), "{h}");
        }
    }

    #[test]
    fn a_png_becomes_a_jpeg_within_the_width() {
        let img = image::RgbImage::from_pixel(1600, 900, image::Rgb([200, 10, 10]));
        let mut png = Vec::new();
        image::DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let jpeg = reencode(&png).unwrap();
        assert_eq!(&jpeg[..3], &[0xFF, 0xD8, 0xFF]);
        let back = image::load_from_memory(&jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (800, 450));
    }

    #[test]
    fn html_and_svg_are_refused() {
        assert!(reencode(b"<html><script>alert(1)</script></html>").is_err());
        assert!(reencode(b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>").is_err());
        assert!(reencode(b"\x89PNG\r\n\x1a\n garbage").is_err());
    }
}
