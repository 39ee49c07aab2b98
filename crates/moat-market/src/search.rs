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

/// The form of a text that prefix lookups of a query with lone consonants use: every
/// syllable replaced by its initial consonant (`삼성전자` → `ㅅㅅㅈㅈ`), other characters
/// kept. A name matches a query at a position only if its initials match the query's
/// initials there, so looking up the query's initials finds every candidate.
fn initials(text: &[char]) -> Vec<char> {
    text.iter()
        .map(|&c| initial_consonant(c).unwrap_or(c))
        .collect()
}

/// Bits in an entry's bigram signature.
const SIGNATURE_BITS: usize = 256;
const SIGNATURE_WORDS: usize = SIGNATURE_BITS / 64;

/// A set of an entry's adjacent character pairs, hashed into [`SIGNATURE_BITS`] bits,
/// of its texts and of their [`initials`]: a query with a pair the entry lacks cannot
/// occur inside it, so the substring scan skips most entries with a few ANDs.
type Signature = [u64; SIGNATURE_WORDS];

fn pair_bit(a: char, b: char) -> usize {
    let mixed = (a as u32).wrapping_mul(0x9E37_79B9) ^ (b as u32).wrapping_mul(0x85EB_CA6B);
    (mixed.wrapping_mul(0xC2B2_AE35) >> 24) as usize % SIGNATURE_BITS
}

fn add_pairs(signature: &mut Signature, text: &[char]) {
    for pair in text.windows(2) {
        let bit = pair_bit(pair[0], pair[1]);
        signature[bit / 64] |= 1 << (bit % 64);
    }
}

/// Which text of an entry a prefix key was made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    /// The ticker or the whole id.
    Ticker,
    Name(u8),
    Alias(u8),
    /// The [`initials`] of a name with Hangul in it.
    NameInitials(u8),
    /// The [`initials`] of an alias with Hangul in it.
    AliasInitials(u8),
}

/// One sorted key of the prefix index.
struct Key {
    text: Box<str>,
    entry: u32,
    field: Field,
}

struct Entry {
    instrument: Arc<Instrument>,
    popularity: i32,
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
        Self {
            popularity: instrument.popularity,
            ticker: fold(instrument.ticker()),
            id: fold(&instrument.id.to_string()),
            names,
            aliases,
            instrument,
        }
    }

    fn texts(&self) -> impl Iterator<Item = &Vec<char>> {
        [&self.ticker, &self.id]
            .into_iter()
            .chain(&self.names)
            .chain(&self.aliases)
    }

    fn signature(&self) -> Signature {
        let mut signature = [0; SIGNATURE_WORDS];
        for text in self.texts() {
            add_pairs(&mut signature, text);
            add_pairs(&mut signature, &initials(text));
        }
        signature
    }

    /// The prefix-index keys of this entry.
    fn keys(&self, entry: u32) -> Vec<Key> {
        let key = |text: &[char], field| Key {
            text: text.iter().collect::<String>().into_boxed_str(),
            entry,
            field,
        };
        let has_hangul = |text: &[char]| text.iter().any(|&c| initial_consonant(c).is_some());
        let mut keys = vec![key(&self.ticker, Field::Ticker)];
        if self.id != self.ticker {
            keys.push(key(&self.id, Field::Ticker));
        }
        for (i, name) in self.names.iter().enumerate() {
            keys.push(key(name, Field::Name(i as u8)));
            if has_hangul(name) {
                keys.push(key(&initials(name), Field::NameInitials(i as u8)));
            }
        }
        for (i, alias) in self.aliases.iter().enumerate() {
            keys.push(key(alias, Field::Alias(i as u8)));
            if has_hangul(alias) {
                keys.push(key(&initials(alias), Field::AliasInitials(i as u8)));
            }
        }
        keys
    }

    /// The tier of a prefix-index hit, or `None` when the key only looked like a match
    /// (an initials key whose text does not match the query after all).
    fn prefix_tier(&self, field: Field, q: &[char]) -> Option<Tier> {
        match field {
            Field::Ticker if self.ticker == q || self.id == q => Some(Tier::ExactTicker),
            Field::Ticker => Some(Tier::TickerPrefix),
            Field::Name(i) if self.names[i as usize] == q => Some(Tier::ExactTicker),
            Field::Name(_) => Some(Tier::NamePrefix),
            Field::Alias(_) => Some(Tier::Alias),
            Field::NameInitials(i) => {
                starts_with(&self.names[i as usize], q).then_some(Tier::NamePrefix)
            }
            Field::AliasInitials(i) => {
                starts_with(&self.aliases[i as usize], q).then_some(Tier::Alias)
            }
        }
    }

    /// Whether `q` occurs inside a name, an alias or the ticker (not the id: `krx`
    /// would match every Korean stock).
    fn contains(&self, q: &[char]) -> bool {
        contains(&self.ticker, q)
            || self
                .names
                .iter()
                .chain(&self.aliases)
                .any(|t| contains(t, q))
    }
}

/// An immutable search index over a set of instruments.
///
/// Prefix tiers (1–4) come from one sorted list of keys (tickers, ids, names, aliases
/// and the initials of Korean ones) found by binary search; the substring tier (5)
/// scans only when the prefix tiers found fewer results than asked for, and skips the
/// entries whose bigram signature lacks one of the query's pairs.
pub struct SearchIndex {
    entries: Vec<Entry>,
    signatures: Vec<Signature>,
    keys: Vec<Key>,
}

impl SearchIndex {
    pub fn new(instruments: impl IntoIterator<Item = Arc<Instrument>>) -> Self {
        let entries: Vec<Entry> = instruments.into_iter().map(Entry::new).collect();
        let signatures = entries.iter().map(Entry::signature).collect();
        let mut keys: Vec<Key> = entries
            .iter()
            .enumerate()
            .flat_map(|(i, e)| e.keys(i as u32))
            .collect();
        keys.sort_unstable_by(|a, b| a.text.cmp(&b.text));
        Self {
            entries,
            signatures,
            keys,
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

    /// The keys that start with `prefix`, as a slice of the sorted list.
    fn keys_starting_with(&self, prefix: &str) -> &[Key] {
        let start = self.keys.partition_point(|k| &*k.text < prefix);
        let len = self.keys[start..].partition_point(|k| k.text.starts_with(prefix));
        &self.keys[start..start + len]
    }

    /// Like [`search`](Self::search), with each result's tier.
    pub fn ranked(&self, query: &str, limit: usize) -> Vec<(Tier, Arc<Instrument>)> {
        let truncated: String = query.chars().take(MAX_QUERY_CHARS).collect();
        let q = fold(&truncated);
        let limit = limit.min(MAX_LIMIT);
        if q.is_empty() || limit == 0 {
            return Vec::new();
        }
        // A query with lone consonants is looked up by its initials; the hits are then
        // checked against the real text.
        let jamo = q.iter().any(|&c| is_choseong(c));
        let lookup: String = if jamo {
            initials(&q).into_iter().collect()
        } else {
            q.iter().collect()
        };
        let mut hits: Vec<(Tier, u32)> = self
            .keys_starting_with(&lookup)
            .iter()
            .filter(|k| jamo == matches!(k.field, Field::NameInitials(_) | Field::AliasInitials(_)))
            .filter_map(|k| {
                let entry = &self.entries[k.entry as usize];
                entry.prefix_tier(k.field, &q).map(|t| (t, k.entry))
            })
            .collect();
        // One hit per entry, its best tier.
        hits.sort_unstable_by_key(|&(tier, entry)| (entry, tier));
        hits.dedup_by_key(|&mut (_, entry)| entry);

        // Substrings rank below every prefix hit: look for them only when needed.
        if hits.len() < limit && q.len() >= MIN_SUBSTRING_CHARS {
            let pairs = if jamo { initials(&q) } else { q.clone() };
            let mut needed = [0; SIGNATURE_WORDS];
            add_pairs(&mut needed, &pairs);
            let already: std::collections::HashSet<u32> = hits.iter().map(|h| h.1).collect();
            for (i, signature) in self.signatures.iter().enumerate() {
                if signature.iter().zip(&needed).any(|(s, n)| s & n != *n) {
                    continue;
                }
                let i = i as u32;
                if !already.contains(&i) && self.entries[i as usize].contains(&q) {
                    hits.push((Tier::Substring, i));
                }
            }
        }

        let order = |(ta, a): &(Tier, u32), (tb, b): &(Tier, u32)| {
            let (a, b) = (&self.entries[*a as usize], &self.entries[*b as usize]);
            ta.cmp(tb)
                .then(b.popularity.cmp(&a.popularity))
                .then(a.ticker.len().cmp(&b.ticker.len()))
                .then(a.instrument.id.cmp(&b.instrument.id))
        };
        // Only the best `limit` are sorted: a one-letter query can match thousands.
        if hits.len() > limit {
            hits.select_nth_unstable_by(limit - 1, order);
            hits.truncate(limit);
        }
        hits.sort_by(order);
        hits.into_iter()
            .map(|(t, i)| (t, self.entries[i as usize].instrument.clone()))
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

    /// The ranking rules applied naively to every entry: the index must agree.
    fn reference(index: &SearchIndex, query: &str, limit: usize) -> Vec<(Tier, String)> {
        let q = fold(&query.chars().take(MAX_QUERY_CHARS).collect::<String>());
        if q.is_empty() {
            return Vec::new();
        }
        let mut hits: Vec<(Tier, &Entry)> = index
            .entries
            .iter()
            .filter_map(|e| {
                let tier = if e.ticker == q || e.id == q || e.names.contains(&q) {
                    Tier::ExactTicker
                } else if e.ticker.starts_with(&q) || e.id.starts_with(&q) {
                    Tier::TickerPrefix
                } else if e.names.iter().any(|n| starts_with(n, &q)) {
                    Tier::NamePrefix
                } else if e.aliases.iter().any(|a| starts_with(a, &q)) {
                    Tier::Alias
                } else if q.len() >= MIN_SUBSTRING_CHARS && e.contains(&q) {
                    Tier::Substring
                } else {
                    return None;
                };
                Some((tier, e))
            })
            .collect();
        hits.sort_by(|(ta, a), (tb, b)| {
            ta.cmp(tb)
                .then(b.popularity.cmp(&a.popularity))
                .then(a.ticker.len().cmp(&b.ticker.len()))
                .then(a.instrument.id.cmp(&b.instrument.id))
        });
        hits.into_iter()
            .take(limit.min(MAX_LIMIT))
            .map(|(t, e)| (t, e.instrument.id.to_string()))
            .collect()
    }

    fn curated_index() -> SearchIndex {
        SearchIndex::new(crate::catalog::curated().into_iter().map(Arc::new))
    }

    proptest::proptest! {
        #[test]
        fn the_index_agrees_with_the_naive_ranking(
            query in "[삼성전자하이닉스현대차ㅅㅈㅎㄷㅋㄱa-eA-Es-uk0-9 ]{1,5}",
            limit in 1usize..30,
        ) {
            let index = curated_index();
            let got: Vec<(Tier, String)> = index
                .ranked(&query, limit)
                .into_iter()
                .map(|(t, i)| (t, i.id.to_string()))
                .collect();
            proptest::prop_assert_eq!(got, reference(&index, &query, limit));
        }
    }

    #[test]
    fn the_exchange_alone_is_a_prefix_not_a_substring() {
        // `krx` starts every Korean id; inside an id it must not match everything.
        let index = index();
        assert!(index.ranked("rx", 10).is_empty());
        assert_eq!(index.ranked("krx:", 10).len(), 5);
    }
}
