//! Instrument search, in memory: by ticker, English name, Korean name, Korean initial
//! consonants (`ㅅㅅㅈㅈ` finds 삼성전자, and so does a half-typed `삼성ㅈ`) and aliases.
//!
//! Ranking, best first (the [`Tier`]s):
//! 1. the ticker or the whole id equals the query;
//! 2. the ticker starts with the query;
//! 3. a name starts with the query (spaces ignored; jamo match initial consonants);
//! 4. an alias equals or starts with the query;
//! 5. the query (two characters or more) occurs inside a name, an alias or the ticker.
//!
//! Ties go to the more popular instrument, then the shorter ticker, then the id. The
//! index is immutable: the server builds a new one when instruments change and swaps
//! it in.

use std::sync::Arc;

use crate::Instrument;

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 64;
/// Shortest query matched inside names rather than only at their start.
pub const MIN_SUBSTRING_CHARS: usize = 2;
/// Most results one search returns.
pub const MAX_LIMIT: usize = 50;

/// How well an instrument matched; lower is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    ExactTicker,
    TickerPrefix,
    NamePrefix,
    Alias,
    Substring,
}

/// The 19 initial consonants of modern Hangul syllables, as compatibility jamo (the
/// characters a Korean keyboard types on their own), in Unicode's syllable order.
const CHOSEONG: [char; 19] = [
    'ㄱ', 'ㄲ', 'ㄴ', 'ㄷ', 'ㄸ', 'ㄹ', 'ㅁ', 'ㅂ', 'ㅃ', 'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅉ', 'ㅊ', 'ㅋ',
    'ㅌ', 'ㅍ', 'ㅎ',
];
const SYLLABLE_FIRST: u32 = 0xAC00;
const SYLLABLE_LAST: u32 = 0xD7A3;
/// Syllables per initial consonant (21 vowels × 28 finals).
const SYLLABLES_PER_INITIAL: u32 = 588;

/// The initial consonant of a precomposed Hangul syllable.
pub fn initial_consonant(c: char) -> Option<char> {
    let code = c as u32;
    (SYLLABLE_FIRST..=SYLLABLE_LAST)
        .contains(&code)
        .then(|| CHOSEONG[((code - SYLLABLE_FIRST) / SYLLABLES_PER_INITIAL) as usize])
}

fn is_choseong(c: char) -> bool {
    CHOSEONG.contains(&c)
}

/// Lower-case, without whitespace: the form both names and queries are compared in.
fn fold(s: &str) -> Vec<char> {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One query character against one name character: equal, or a lone initial
/// consonant against a syllable that starts with it.
fn char_matches(query: char, name: char) -> bool {
    query == name || (is_choseong(query) && initial_consonant(name) == Some(query))
}

fn starts_with(name: &[char], query: &[char]) -> bool {
    name.len() >= query.len() && query.iter().zip(name).all(|(q, n)| char_matches(*q, *n))
}

fn contains(name: &[char], query: &[char]) -> bool {
    query.is_empty()
        || (name.len() >= query.len() && name.windows(query.len()).any(|w| starts_with(w, query)))
}

/// A 64-bit set of the characters an entry has (and the initial consonants of its
/// syllables): a query with a character the entry lacks cannot match it, whatever
/// the tier, so most entries are skipped with one AND.
fn char_bit(c: char) -> u64 {
    1 << (mix_char(c) % 64)
}

fn mix_char(c: char) -> u32 {
    (c as u32).wrapping_mul(0x9E37_79B9) >> 16
}

fn signature<'a>(texts: impl IntoIterator<Item = &'a Vec<char>>) -> u64 {
    let mut bits = 0;
    for text in texts {
        for &c in text {
            bits |= char_bit(c);
            if let Some(initial) = initial_consonant(c) {
                bits |= char_bit(initial);
            }
        }
    }
    bits
}

struct Entry {
    instrument: Arc<Instrument>,
    /// [`signature`] of the ticker, id, names and aliases.
    chars: u64,
    ticker: Vec<char>,
    id: Vec<char>,
    names: Vec<Vec<char>>,
    aliases: Vec<Vec<char>>,
}

impl Entry {
    fn new(instrument: Arc<Instrument>) -> Self {
        let names: Vec<Vec<char>> = [&instrument.name_ko, &instrument.name_en]
            .into_iter()
            .filter(|n| !n.is_empty())
            .map(|n| fold(n))
            .collect();
        let aliases: Vec<Vec<char>> = instrument.aliases.iter().map(|a| fold(a)).collect();
        let ticker = fold(instrument.ticker());
        let id = fold(&instrument.id.to_string());
        let chars = signature(
            [&ticker, &id]
                .into_iter()
                .chain(names.iter())
                .chain(aliases.iter()),
        );
        Self {
            chars,
            ticker,
            id,
            names,
            aliases,
            instrument,
        }
    }

    fn tier(&self, q: &[char]) -> Option<Tier> {
        if self.ticker == q || self.id == q || self.names.iter().any(|n| n == q) {
            return Some(Tier::ExactTicker);
        }
        if self.ticker.starts_with(q) || self.id.starts_with(q) {
            return Some(Tier::TickerPrefix);
        }
        if self.names.iter().any(|n| starts_with(n, q)) {
            return Some(Tier::NamePrefix);
        }
        if self.aliases.iter().any(|a| starts_with(a, q)) {
            return Some(Tier::Alias);
        }
        // A single character matches tickers and name starts only: inside names it
        // would match half the catalogue.
        if q.len() < MIN_SUBSTRING_CHARS {
            return None;
        }
        let inside = |v: &Vec<char>| contains(v, q);
        if self.names.iter().any(inside) || self.aliases.iter().any(inside) || inside(&self.ticker)
        {
            return Some(Tier::Substring);
        }
        None
    }
}

/// An immutable search index over a set of instruments.
pub struct SearchIndex {
    entries: Vec<Entry>,
}

impl SearchIndex {
    pub fn new(instruments: impl IntoIterator<Item = Arc<Instrument>>) -> Self {
        Self {
            entries: instruments.into_iter().map(Entry::new).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The best `limit` matches (at most [`MAX_LIMIT`]) for `query`, best first.
    /// A blank query matches nothing; a query is cut at [`MAX_QUERY_CHARS`].
    pub fn search(&self, query: &str, limit: usize) -> Vec<Arc<Instrument>> {
        self.ranked(query, limit)
            .into_iter()
            .map(|(_, i)| i)
            .collect()
    }

    /// Like [`search`](Self::search), with each result's tier.
    pub fn ranked(&self, query: &str, limit: usize) -> Vec<(Tier, Arc<Instrument>)> {
        let truncated: String = query.chars().take(MAX_QUERY_CHARS).collect();
        let q = fold(&truncated);
        if q.is_empty() {
            return Vec::new();
        }
        let needed = q.iter().fold(0u64, |bits, &c| bits | char_bit(c));
        let mut hits: Vec<(Tier, &Entry)> = self
            .entries
            .iter()
            .filter(|e| e.chars & needed == needed)
            .filter_map(|e| e.tier(&q).map(|t| (t, e)))
            .collect();
        let order = |(ta, a): &(Tier, &Entry), (tb, b): &(Tier, &Entry)| {
            ta.cmp(tb)
                .then(b.instrument.popularity.cmp(&a.instrument.popularity))
                .then(a.ticker.len().cmp(&b.ticker.len()))
                .then(a.instrument.id.cmp(&b.instrument.id))
        };
        // Only the best `limit` are sorted: a one-letter query can match thousands.
        let limit = limit.min(MAX_LIMIT);
        if hits.len() > limit && limit > 0 {
            hits.select_nth_unstable_by(limit - 1, order);
            hits.truncate(limit);
        }
        hits.sort_by(order);
        hits.into_iter()
            .take(limit)
            .map(|(t, e)| (t, e.instrument.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Kind};

    fn inst(id: &str, ko: &str, en: &str, popularity: i32, aliases: &[&str]) -> Arc<Instrument> {
        let id: crate::InstrumentId = id.parse().unwrap();
        Arc::new(Instrument {
            kind: Kind::Stock,
            board: (id.exchange() == crate::Exchange::Krx).then_some(Board::Kospi),
            currency: "KRW".into(),
            country: "KR".into(),
            name_ko: ko.into(),
            name_en: en.into(),
            sector: String::new(),
            shares_outstanding: None,
            reference_price: None,
            popularity,
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            id,
        })
    }

    fn index() -> SearchIndex {
        SearchIndex::new([
            inst(
                "KRX:005930",
                "삼성전자",
                "Samsung Electronics",
                1000,
                &["삼전"],
            ),
            inst(
                "KRX:005935",
                "삼성전자우",
                "Samsung Electronics (Pref)",
                500,
                &[],
            ),
            inst("KRX:006400", "삼성SDI", "Samsung SDI", 700, &[]),
            inst("KRX:028260", "삼성물산", "Samsung C&T", 600, &[]),
            inst(
                "KRX:000660",
                "SK하이닉스",
                "SK hynix",
                990,
                &["하이닉스", "하닉"],
            ),
            inst("NASDAQ:AAPL", "애플", "Apple", 990, &[]),
            inst(
                "NASDAQ:AAL",
                "아메리칸 에어라인",
                "American Airlines",
                100,
                &[],
            ),
            inst("NYSE:A", "애질런트", "Agilent Technologies", 50, &[]),
            inst(
                "NASDAQ:GOOGL",
                "알파벳 A",
                "Alphabet Class A",
                900,
                &["구글", "google"],
            ),
        ])
    }

    fn ids(index: &SearchIndex, q: &str) -> Vec<String> {
        index
            .search(q, 10)
            .iter()
            .map(|i| i.id.to_string())
            .collect()
    }

    #[test]
    fn initial_consonants_of_syllables() {
        let got: String = "삼성전자".chars().filter_map(initial_consonant).collect();
        assert_eq!(got, "ㅅㅅㅈㅈ");
        assert_eq!(initial_consonant('a'), None);
        assert_eq!(initial_consonant('ㅅ'), None);
    }

    #[test]
    fn initial_consonants_find_the_korean_name() {
        assert_eq!(ids(&index(), "ㅅㅅㅈㅈ")[0], "KRX:005930");
        // Half typed: syllables then a lone consonant.
        assert_eq!(ids(&index(), "삼성ㅈ")[0], "KRX:005930");
    }

    #[test]
    fn an_alias_finds_the_instrument() {
        assert_eq!(ids(&index(), "삼전"), ["KRX:005930"]);
        assert_eq!(ids(&index(), "하닉"), ["KRX:000660"]);
        assert_eq!(ids(&index(), "구글"), ["NASDAQ:GOOGL"]);
    }

    #[test]
    fn an_exact_ticker_beats_a_more_popular_prefix() {
        // `A` is Agilent's ticker; Apple and AAL merely start with it.
        let got = ids(&index(), "a");
        assert_eq!(got[0], "NYSE:A");
        assert_eq!(got[1], "NASDAQ:AAPL", "then ticker prefixes by popularity");
    }

    #[test]
    fn name_prefixes_rank_by_popularity_and_ignore_case_and_spaces() {
        let got = ids(&index(), "SAMSUNG elec");
        assert_eq!(got, ["KRX:005930", "KRX:005935"]);
        let got = ids(&index(), "삼성");
        assert_eq!(
            got,
            ["KRX:005930", "KRX:006400", "KRX:028260", "KRX:005935"]
        );
    }

    #[test]
    fn substrings_come_last() {
        let ranked = index().ranked("하이닉스", 10);
        assert_eq!(ranked[0].1.id.to_string(), "KRX:000660");
        let ranked = index().ranked("전자", 10);
        assert!(ranked.iter().all(|(t, _)| *t == Tier::Substring));
        assert_eq!(ranked.len(), 2);
    }

    #[test]
    fn the_whole_id_and_the_six_digit_code_find_the_stock() {
        assert_eq!(ids(&index(), "KRX:005930")[0], "KRX:005930");
        assert_eq!(ids(&index(), "005930")[0], "KRX:005930");
        assert_eq!(ids(&index(), "0059")[..2], ["KRX:005930", "KRX:005935"]);
    }

    #[test]
    fn blank_and_unmatched_queries_find_nothing_and_limits_hold() {
        assert!(ids(&index(), "   ").is_empty());
        assert!(ids(&index(), "zzzz").is_empty());
        assert_eq!(index().search("삼", 2).len(), 2);
        let long = "삼".repeat(1000);
        assert!(index().search(&long, 10).is_empty());
    }
}
