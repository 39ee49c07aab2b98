//! The text encoding of an imported file: UTF-8 (with or without a byte-order mark)
//! or EUC-KR (read as Windows-949, its superset, which Korean brokers' HTS exports
//! use), detected from the file's first bytes and decoded as the file streams in.
//!
//! [`DecodingReader`] never holds the file whole: it keeps one chunk of input and one
//! of output. A byte sequence the detected encoding cannot have (a file cut in the
//! middle of a character, or one mixing encodings) stops the read with an error, and
//! the reader remembers it ([`DecodingReader::malformed`]), so the import reports a
//! clear problem instead of guessing at the text.

use std::io::{self, Read};

use encoding_rs::{Decoder, DecoderResult, Encoding, EUC_KR, UTF_8};
use serde::{Deserialize, Serialize};

/// Bytes read before deciding the encoding: a broker's header row and many rows fit.
pub const SNIFF_BYTES: usize = 16 * 1024;
/// Bytes decoded at a time.
const CHUNK_BYTES: usize = 8 * 1024;

/// The encodings an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextEncoding {
    #[serde(rename = "utf-8")]
    Utf8,
    #[serde(rename = "euc-kr")]
    EucKr,
}

impl TextEncoding {
    /// `utf-8`, `euc-kr`: the value the preview sends.
    pub fn as_str(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::EucKr => "euc-kr",
        }
    }

    fn encoding(self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 => UTF_8,
            TextEncoding::EucKr => EUC_KR,
        }
    }
}

/// UTF-8 when `prefix` starts with a UTF-8 byte-order mark or is valid UTF-8 (a
/// character cut at its end included), else EUC-KR.
pub fn detect(prefix: &[u8]) -> TextEncoding {
    if prefix.starts_with(b"\xEF\xBB\xBF") {
        return TextEncoding::Utf8;
    }
    match std::str::from_utf8(prefix) {
        Ok(_) => TextEncoding::Utf8,
        // Cut inside a character at the end of the sniffed bytes: still UTF-8.
        Err(e) if e.error_len().is_none() => TextEncoding::Utf8,
        Err(_) => TextEncoding::EucKr,
    }
}

/// A [`Read`] that yields `inner`'s text as UTF-8, whatever of [`TextEncoding`] it is
/// in. A UTF-8 byte-order mark is dropped, and Windows line ends (`\r\n`, what HTS
/// exports write) become `\n`, so that the CSV reader numbers lines as an editor does.
pub struct DecodingReader<R> {
    inner: R,
    encoding: TextEncoding,
    decoder: Decoder,
    /// Undecoded input: `input[start..end]`.
    input: Vec<u8>,
    start: usize,
    end: usize,
    /// Decoded output not yet handed out: `output[out_start..out_end]`.
    output: Vec<u8>,
    out_start: usize,
    out_end: usize,
    inner_done: bool,
    finished: bool,
    malformed: bool,
    /// A `\r` ended the last output: held back until the next byte shows whether it
    /// is a `\r\n`.
    pending_cr: bool,
}

impl<R: Read> DecodingReader<R> {
    /// Reads up to [`SNIFF_BYTES`] of `inner`, detects the encoding, and decodes from
    /// the start. An error reading `inner` is returned as is.
    pub fn new(mut inner: R) -> io::Result<Self> {
        let mut input = vec![0u8; SNIFF_BYTES.max(CHUNK_BYTES)];
        let mut end = 0;
        let mut inner_done = false;
        while end < SNIFF_BYTES {
            match inner.read(&mut input[end..SNIFF_BYTES]) {
                Ok(0) => {
                    inner_done = true;
                    break;
                }
                Ok(n) => end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let encoding = detect(&input[..end]);
        let decoder = match encoding {
            TextEncoding::Utf8 => UTF_8.new_decoder_with_bom_removal(),
            TextEncoding::EucKr => encoding.encoding().new_decoder_without_bom_handling(),
        };
        Ok(Self {
            inner,
            encoding,
            decoder,
            input,
            start: 0,
            end,
            output: vec![0u8; CHUNK_BYTES * 3 + 1],
            out_start: 0,
            out_end: 0,
            inner_done,
            finished: false,
            malformed: false,
            pending_cr: false,
        })
    }

    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    /// The input had bytes its encoding cannot have (the read failed there).
    pub fn malformed(&self) -> bool {
        self.malformed
    }

    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Decodes more input into `output`, `\r\n` as `\n`; false when nothing is left.
    fn fill(&mut self) -> io::Result<bool> {
        loop {
            if self.finished {
                if self.pending_cr {
                    self.pending_cr = false;
                    self.output[0] = b'\r';
                    self.out_start = 0;
                    self.out_end = 1;
                    return Ok(true);
                }
                return Ok(false);
            }
            if self.start == self.end && !self.inner_done {
                self.start = 0;
                self.end = 0;
                let cap = self.input.len();
                match self.inner.read(&mut self.input[..cap]) {
                    Ok(0) => self.inner_done = true,
                    Ok(n) => self.end = n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            }
            let last = self.inner_done;
            // Decoded from offset 1, so that a held-back `\r` can go before it.
            let (result, read, written) = self.decoder.decode_to_utf8_without_replacement(
                &self.input[self.start..self.end],
                &mut self.output[1..],
                last,
            );
            self.start += read;
            let mut begin = 1;
            if self.pending_cr && written > 0 {
                self.pending_cr = false;
                if self.output[1] != b'\n' {
                    self.output[0] = b'\r';
                    begin = 0;
                }
            }
            let mut end = begin;
            let mut i = begin;
            let stop = 1 + written;
            while i < stop {
                let b = self.output[i];
                if b == b'\r' && i + 1 < stop && self.output[i + 1] == b'\n' {
                    i += 1;
                    continue;
                }
                self.output[end] = b;
                end += 1;
                i += 1;
            }
            if end > begin && self.output[end - 1] == b'\r' {
                self.pending_cr = true;
                end -= 1;
            }
            self.out_start = begin;
            self.out_end = end;
            let written = end - begin;
            match result {
                DecoderResult::Malformed(_, _) => {
                    self.malformed = true;
                    self.finished = true;
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("the file is not valid {}", self.encoding.as_str()),
                    ));
                }
                DecoderResult::InputEmpty if last => self.finished = true,
                DecoderResult::InputEmpty | DecoderResult::OutputFull => {}
            }
            if written > 0 {
                return Ok(true);
            }
        }
    }
}

impl<R: Read> Read for DecodingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_start == self.out_end && !self.fill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out_end - self.out_start);
        buf[..n].copy_from_slice(&self.output[self.out_start..self.out_start + n]);
        self.out_start += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(bytes: &[u8]) -> (TextEncoding, io::Result<String>) {
        let mut r = DecodingReader::new(bytes).unwrap();
        let mut s = String::new();
        let res = r.read_to_string(&mut s).map(|_| s);
        (r.encoding(), res)
    }

    #[test]
    fn reads_utf8_with_and_without_bom() {
        let (enc, text) = decode_all("\u{feff}일자,구분\n".as_bytes());
        assert_eq!(enc, TextEncoding::Utf8);
        assert_eq!(text.unwrap(), "일자,구분\n");
        let (enc, text) = decode_all("일자,구분\n".as_bytes());
        assert_eq!(enc, TextEncoding::Utf8);
        assert_eq!(text.unwrap(), "일자,구분\n");
    }

    #[test]
    fn reads_euc_kr() {
        let (bytes, _, _) = EUC_KR.encode("거래일자,적요명\n2025/02/03,장내매수\n");
        let (enc, text) = decode_all(&bytes);
        assert_eq!(enc, TextEncoding::EucKr);
        assert_eq!(text.unwrap(), "거래일자,적요명\n2025/02/03,장내매수\n");
    }

    #[test]
    fn a_truncated_euc_kr_file_is_malformed() {
        let (bytes, _, _) = EUC_KR.encode("거래일자,적요명");
        let cut = &bytes[..bytes.len() - 1];
        let mut r = DecodingReader::new(cut).unwrap();
        let mut s = String::new();
        assert!(r.read_to_string(&mut s).is_err());
        assert!(r.malformed());
    }

    #[test]
    fn windows_line_ends_become_newlines() {
        let (_, text) = decode_all(b"a,b\r\n1,2\r\n3\r4\r");
        assert_eq!(text.unwrap(), "a,b\n1,2\n3\r4\r");
        // A `\r\n` split across chunks.
        let mut bytes = vec![b'x'; SNIFF_BYTES - 1];
        bytes.extend_from_slice(b"\r\ny\r\n");
        let (_, text) = decode_all(&bytes);
        let text = text.unwrap();
        assert!(text.ends_with("x\ny\n"), "{:?}", &text[text.len() - 4..]);
        assert!(!text.contains('\r'));
    }

    #[test]
    fn decodes_across_chunks() {
        let line = "2025.02.03,매수,005930,10,70000\n";
        let text: String = std::iter::repeat_n(line, 2_000).collect();
        let (bytes, _, _) = EUC_KR.encode(&text);
        assert!(bytes.len() > SNIFF_BYTES + CHUNK_BYTES);
        let (enc, out) = decode_all(&bytes);
        assert_eq!(enc, TextEncoding::EucKr);
        assert_eq!(out.unwrap(), text);
    }
}
