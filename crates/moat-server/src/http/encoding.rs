//! Content codings made by the server itself rather than by the compression layer: the
//! web app's files (compressed once, at the best level) and JSON replies kept between
//! requests ([`KeptJson`]: compressed once per coding, at the fast level, then only
//! copied). A response that carries `Content-Encoding` passes the compression layer
//! untouched.

use std::sync::OnceLock;

use axum::{
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use bytes::Bytes;

use super::DYNAMIC_COMPRESSION_QUALITY;

/// A content coding the server makes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Encoding {
    Br,
    Gzip,
}

/// How hard to compress.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effort {
    /// The codecs' best (brotli 11, gzip 9): files compressed once and served for long.
    Best,
    /// The level of responses made per request ([`DYNAMIC_COMPRESSION_QUALITY`]).
    Fast,
}

impl Encoding {
    /// The suffix of a precompressed copy (`x.js.br`), also used to tell ETags apart.
    pub fn suffix(self) -> &'static str {
        match self {
            Encoding::Br => "br",
            Encoding::Gzip => "gz",
        }
    }

    pub fn header(self) -> HeaderValue {
        HeaderValue::from_static(match self {
            Encoding::Br => "br",
            Encoding::Gzip => "gzip",
        })
    }
}

/// The coding to answer a request with: brotli when `Accept-Encoding` offers it, else
/// gzip, else none (a coding offered with `q=0` is refused).
pub fn accepted_encoding(headers: &HeaderMap) -> Option<Encoding> {
    let accept = headers.get(header::ACCEPT_ENCODING)?.to_str().ok()?;
    let offers = |name: &str| {
        accept.split(',').any(|part| {
            let mut it = part.trim().split(';');
            let token = it.next().unwrap_or("").trim();
            let q_zero = it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            token.eq_ignore_ascii_case(name) && !q_zero
        })
    };
    if offers("br") {
        Some(Encoding::Br)
    } else if offers("gzip") {
        Some(Encoding::Gzip)
    } else {
        None
    }
}

/// `data` in `encoding`.
pub fn compress(encoding: Encoding, data: &[u8], effort: Effort) -> Vec<u8> {
    use std::io::Write;
    let quality = match effort {
        Effort::Best => None,
        Effort::Fast => Some(DYNAMIC_COMPRESSION_QUALITY),
    };
    match encoding {
        Encoding::Br => {
            let mut out = Vec::with_capacity(data.len() / 3);
            let params = brotli::enc::BrotliEncoderParams {
                quality: quality.map_or(11, |q| q as i32),
                lgwin: 22,
                ..Default::default()
            };
            let _ = brotli::BrotliCompress(&mut &data[..], &mut out, &params);
            out
        }
        Encoding::Gzip => {
            let level = quality.map_or(flate2::Compression::best(), flate2::Compression::new);
            let mut enc = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 3), level);
            let _ = enc.write_all(data);
            enc.finish().unwrap_or_default()
        }
    }
}

/// A JSON reply kept between requests, with its compressed copies made on first use.
#[derive(Debug)]
pub struct KeptJson {
    json: Bytes,
    br: OnceLock<Bytes>,
    gzip: OnceLock<Bytes>,
}

impl KeptJson {
    pub fn new(json: Bytes) -> Self {
        Self {
            json,
            br: OnceLock::new(),
            gzip: OnceLock::new(),
        }
    }

    /// Bytes it may come to hold: the text and a compressed copy in each coding (JSON
    /// compresses to well under half).
    pub fn weight(&self) -> u64 {
        self.json.len() as u64 * 2
    }

    /// The reply in `encoding`: compressed on first use, then copied.
    pub fn encoded(&self, encoding: Encoding) -> Bytes {
        let cell = match encoding {
            Encoding::Br => &self.br,
            Encoding::Gzip => &self.gzip,
        };
        cell.get_or_init(|| Bytes::from(compress(encoding, &self.json, Effort::Fast)))
            .clone()
    }

    /// A 200 response in the coding `request_headers` accept best.
    pub fn respond(&self, request_headers: &HeaderMap) -> Response {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        let body = match accepted_encoding(request_headers) {
            Some(encoding) => {
                headers.insert(header::CONTENT_ENCODING, encoding.header());
                self.encoded(encoding)
            }
            None => self.json.clone(),
        };
        (StatusCode::OK, headers, body).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn headers(accept: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(accept).unwrap(),
        );
        h
    }

    #[test]
    fn brotli_is_preferred_then_gzip_and_q0_refuses() {
        assert_eq!(
            accepted_encoding(&headers("gzip, deflate, br")),
            Some(Encoding::Br)
        );
        assert_eq!(accepted_encoding(&headers("gzip")), Some(Encoding::Gzip));
        assert_eq!(
            accepted_encoding(&headers("br;q=0, gzip")),
            Some(Encoding::Gzip)
        );
        assert_eq!(accepted_encoding(&headers("identity")), None);
        assert_eq!(accepted_encoding(&HeaderMap::new()), None);
    }

    #[test]
    fn compressed_copies_decompress_to_the_original_at_either_effort() {
        let data = "const moat = 'moat';\n".repeat(200).into_bytes();
        for effort in [Effort::Best, Effort::Fast] {
            let gz = compress(Encoding::Gzip, &data, effort);
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, data);
            let br = compress(Encoding::Br, &data, effort);
            let mut out = Vec::new();
            brotli::BrotliDecompress(&mut &br[..], &mut out).unwrap();
            assert_eq!(out, data);
            assert!(br.len() < data.len() / 10);
        }
    }

    #[test]
    fn a_kept_reply_decodes_to_its_json_in_every_coding() {
        let json = Bytes::from(format!("[{}0]", "{\"date\":\"2026-11-27\"},".repeat(500)));
        let kept = KeptJson::new(json.clone());
        let mut gz = String::new();
        flate2::read::GzDecoder::new(&kept.encoded(Encoding::Gzip)[..])
            .read_to_string(&mut gz)
            .unwrap();
        assert_eq!(gz.as_bytes(), &json[..]);
        let mut br = Vec::new();
        brotli::BrotliDecompress(&mut &kept.encoded(Encoding::Br)[..], &mut br).unwrap();
        assert_eq!(br, json);
        // Made once: the same bytes on the next use.
        assert_eq!(
            kept.encoded(Encoding::Br).as_ptr(),
            kept.encoded(Encoding::Br).as_ptr()
        );
        assert!(kept.encoded(Encoding::Gzip).len() < json.len() / 4);
    }
}
