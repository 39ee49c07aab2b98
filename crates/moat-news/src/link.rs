//! The instrument linker.

/// One instrument the linker knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkEntry {
    /// `KRX:005930`, `NASDAQ:AAPL`.
    pub instrument_id: String,
    /// `005930`, `AAPL`, `BRK.B`.
    pub ticker: String,
    /// `KR` or `US`.
    pub country: String,
    /// Korean and English names and aliases.
    pub names: Vec<String>,
    /// The SEC CIK of a US company.
    pub cik: Option<u64>,
}

/// An article's link to an instrument.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Link {
    pub instrument_id: String,
    /// True when the instrument is named in the title.
    pub in_title: bool,
}

/// Names that link only with a second signal, besides the built-in rule (≤ 2 Latin
/// letters or 1 Hangul syllable).
pub const DEFAULT_AMBIGUOUS: &[&str] = &[];

/// Finds the instruments an article names.
#[derive(Debug)]
pub struct Linker {
    _entries: Vec<LinkEntry>,
}

impl Linker {
    /// Builds the matchers; `ambiguous` names (compared case-insensitively) link only
    /// with a second signal. Pass [`DEFAULT_AMBIGUOUS`] unless you know better.
    pub fn new(entries: Vec<LinkEntry>, ambiguous: &[&str]) -> Linker {
        let _ = (entries, ambiguous);
        todo!()
    }

    /// The instruments named in an article, deduplicated, in order of first mention.
    pub fn link(&self, title: &str, body: &str) -> Vec<Link> {
        let _ = (title, body);
        todo!()
    }

    /// The instruments of an SEC filer (an EDGAR item), `in_title` true.
    pub fn link_cik(&self, cik: u64) -> Vec<Link> {
        let _ = cik;
        todo!()
    }
}

/// The filer's CIK of an EDGAR item, from its title
/// (`8-K - COMPANY NAME (0001788060) (Filer)`) or its link
/// (`/Archives/edgar/data/{cik}/…`).
pub fn cik_from_edgar(title: &str, link: &str) -> Option<u64> {
    let _ = (title, link);
    todo!()
}

/// SEC CIKs of the US instruments in Moat's curated catalogue, by ticker.
pub fn known_ciks() -> &'static [(&'static str, u64)] {
    &[]
}
