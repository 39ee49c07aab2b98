//! Full-text search tokenizer and query parser (see the crate description).
//!
//! Neither SQLite's FTS5 `unicode61` tokenizer nor PostgreSQL's `simple` parser can
//! split Korean (a Hangul run is one word to both, so "금리" misses "금리를"). Moat
//! therefore tokenizes in Rust, once, for both backends:
//!
//! - [`index_text`] turns a document into space-separated tokens, each of which both
//!   backends keep as exactly one word: Latin/digit words (`[a-z0-9]+`, at most
//!   [`MAX_TOKEN_CHARS`]), and, for every Hangul, Han or Kana run, its overlapping
//!   bigrams in order (a one-character run is a unigram). A phrase of consecutive
//!   bigrams then finds a word wherever it sits inside a longer run, particles and
//!   all: "삼성전자는" is indexed `삼성 성전 전자 자는`.
//! - [`parse_query`] turns what a user typed into a [`Query`] of terms that must all
//!   match: a phrase of bigrams for a Hangul word, a prefix for a Latin word.
//!
//! The storage renders a [`Query`] into FTS5 syntax ([`Query::to_fts5`]) and into a
//! PostgreSQL tsquery ([`Query::to_tsquery`]); tokens hold only `[a-z0-9]` or
//! letters of one script by construction, so neither syntax can be broken by what a
//! user types.

use unicode_normalization::UnicodeNormalization;

/// Longest Latin/digit token, in characters: longer words are cut (both in the index
/// and in queries, so a cut word still finds itself).
pub const MAX_TOKEN_CHARS: usize = 32;

/// Most terms a query keeps (the first ones typed); the rest are ignored.
pub const MAX_QUERY_TERMS: usize = 8;

/// Korean particles (조사) stripped from the end of a Hangul query word when at least
/// two syllables remain, longest first so that "에서" goes before "서"-less "에".
/// Stripping only ever shortens a word to a prefix of itself, so it never loses a
/// match the whole word would have found: at worst it finds a little more.
pub const PARTICLES: &[&str] = &[
    "에서부터",
    "으로부터",
    "이라고",
    "에게서",
    "으로서",
    "으로써",
    "에서는",
    "에서도",
    "에게는",
    "으로는",
    "이라는",
    "라는",
    "에서",
    "에게",
    "께서",
    "으로",
    "까지",
    "부터",
    "보다",
    "처럼",
    "이나",
    "이랑",
    "만큼",
    "마다",
    "한테",
    "에는",
    "에도",
    "와",
    "과",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "로",
    "도",
    "만",
    "나",
    "랑",
];

/// What separates the parts of [`index_parts`]: a token no query can produce (digits
/// only, one longer than [`MAX_TOKEN_CHARS`], and a query cuts its words to that), so
/// that a phrase never runs from the end of a title into the start of a summary.
const PART_SEPARATOR: &str = "000000000000000000000000000000000";

/// The writing system of a character, as far as tokens go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    /// `[a-z0-9]` (after folding).
    Latin,
    Hangul,
    Han,
    Hiragana,
    Katakana,
}

/// The script of an already normalised, lower-cased character; `None` for a
/// separator (punctuation, spaces, symbols, other scripts).
fn script(c: char) -> Option<Script> {
    match c {
        'a'..='z' | '0'..='9' => Some(Script::Latin),
        '\u{AC00}'..='\u{D7A3}' | '\u{3131}'..='\u{318E}' => Some(Script::Hangul),
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FCC}' => Some(Script::Han),
        '\u{3041}'..='\u{3096}' | '\u{309D}'..='\u{309F}' => Some(Script::Hiragana),
        '\u{30A1}'..='\u{30FA}' | '\u{30FC}'..='\u{30FF}' => Some(Script::Katakana),
        _ => None,
    }
}

/// A normalised character as the tokenizer sees it: Latin letters with diacritics
/// lose them (`é` → `e`), everything else stays.
fn fold(c: char) -> char {
    if c.is_ascii() || !('\u{00C0}'..='\u{024F}').contains(&c) {
        return c;
    }
    let mut base = None;
    unicode_normalization::char::decompose_canonical(c, |d| {
        if base.is_none() {
            base = Some(d);
        }
    });
    match base {
        Some(b) if b.is_ascii_alphabetic() => b.to_ascii_lowercase(),
        _ => c,
    }
}

/// The runs of one script in `text`, after NFKC and lower-casing.
fn runs(text: &str) -> Vec<(Script, Vec<char>)> {
    let mut out: Vec<(Script, Vec<char>)> = Vec::new();
    let mut current: Option<(Script, Vec<char>)> = None;
    for c in text.nfkc().flat_map(char::to_lowercase).map(fold) {
        match (script(c), current.as_mut()) {
            (Some(s), Some((cs, chars))) if *cs == s => chars.push(c),
            (Some(s), _) => {
                out.extend(current.take());
                current = Some((s, vec![c]));
            }
            (None, _) => out.extend(current.take()),
        }
    }
    out.extend(current);
    out
}

/// The tokens of a Latin run: the word cut to [`MAX_TOKEN_CHARS`], split where
/// PostgreSQL's parser would split it. That parser reads digits, `e` and digits as
/// a number in scientific notation (`2e10`) and starts a new word at a letter after
/// it (`2e10x` is `2e10` and `x` to it, one word to FTS5), so Moat splits there too.
fn latin_tokens(chars: &[char]) -> Vec<String> {
    let word = &chars[..chars.len().min(MAX_TOKEN_CHARS)];
    let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && word.get(digits) == Some(&'e') {
        let exponent = word[digits + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let end = digits + 1 + exponent;
        if exponent > 0 && word.get(end).is_some_and(|c| c.is_ascii_lowercase()) {
            return vec![word[..end].iter().collect(), word[end..].iter().collect()];
        }
    }
    vec![word.iter().collect()]
}

/// The tokens of one run: a Latin word ([`latin_tokens`]), the bigrams of a longer
/// run of another script, or its one character.
fn run_tokens(script: Script, chars: &[char], out: &mut Vec<String>) {
    if script == Script::Latin {
        out.extend(latin_tokens(chars));
    } else if chars.len() == 1 {
        out.push(chars[0].to_string());
    } else {
        out.extend(chars.windows(2).map(|w| w.iter().collect::<String>()));
    }
}

/// Tokens of `text` for the index, space-separated: NFKC + lower-case; Latin/digit
/// words whole (a token is only [a-z0-9] or only Hangul/CJK characters, never
/// punctuation, so that FTS5 unicode61 and PostgreSQL's 'simple' parser both keep
/// each token as one word); for each Hangul/CJK run, overlapping bigrams in order
/// (so that a phrase of consecutive bigrams matches), and a one-character run as a
/// unigram. Words longer than MAX_TOKEN_CHARS are cut.
pub fn index_text(text: &str) -> String {
    let mut tokens = Vec::new();
    for (script, chars) in runs(text) {
        run_tokens(script, &chars, &mut tokens);
    }
    tokens.join(" ")
}

/// [`index_text`] of several fields (a title and a summary), joined so that no
/// phrase crosses from one field into the next.
pub fn index_parts(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts {
        let tokens = index_text(part);
        if tokens.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
            out.push_str(PART_SEPARATOR);
            out.push(' ');
        }
        out.push_str(&tokens);
    }
    out
}

/// A parsed query: every term must match (AND).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Query {
    pub terms: Vec<Term>,
}

/// One term of a [`Query`]. Every token is an [`index_text`] token: `[a-z0-9]+` or
/// characters of one script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// Consecutive bigrams (a Hangul/CJK word of three characters or more).
    Phrase(Vec<String>),
    /// One whole token (a two-character Hangul word, a number, a one-letter word).
    Word(String),
    /// Any token starting with this (a Latin word: `earn` finds `earnings`; a
    /// one-syllable Hangul word).
    Prefix(String),
}

impl Term {
    /// The word this term stands for, as the user typed it (lower-cased, particles
    /// stripped): a phrase's bigrams joined back.
    fn word(&self) -> String {
        match self {
            Term::Word(w) | Term::Prefix(w) => w.clone(),
            Term::Phrase(bigrams) => {
                let mut word = bigrams.first().cloned().unwrap_or_default();
                for b in bigrams.iter().skip(1) {
                    word.extend(b.chars().last());
                }
                word
            }
        }
    }
}

/// Strips the longest particle of [`PARTICLES`] that leaves at least two syllables.
fn strip_particle(chars: &[char]) -> &[char] {
    for particle in PARTICLES {
        let p: Vec<char> = particle.chars().collect();
        if chars.len() >= p.len() + 2 && chars.ends_with(&p) {
            return &chars[..chars.len() - p.len()];
        }
    }
    chars
}

/// Parses a user's query: splits words, strips common Korean particles (조사) from the
/// end of Hangul words when at least 2 syllables remain ([`PARTICLES`], longest
/// first), turns a Hangul word into a phrase of bigrams (a 2-syllable word is one
/// bigram Word; a 1-syllable word a Prefix), a Latin word into a Prefix (English
/// "stemmed or prefix-matched": `earn` finds `earnings`; at least 2 characters for a
/// prefix, else Word), digits into Word. Other scripts (Han, Kana) go as Hangul does,
/// without particles. At most [`MAX_QUERY_TERMS`] terms; repeated terms count once.
pub fn parse_query(input: &str) -> Query {
    let mut terms: Vec<Term> = Vec::new();
    for (script, chars) in runs(input) {
        let new_terms = match script {
            Script::Latin => latin_tokens(&chars)
                .into_iter()
                .map(|word| {
                    if word.chars().count() >= 2 && !word.chars().all(|c| c.is_ascii_digit()) {
                        Term::Prefix(word)
                    } else {
                        Term::Word(word)
                    }
                })
                .collect(),
            _ => {
                let chars = if script == Script::Hangul {
                    strip_particle(&chars)
                } else {
                    &chars[..]
                };
                vec![match chars.len() {
                    1 => Term::Prefix(chars[0].to_string()),
                    2 => Term::Word(chars.iter().collect()),
                    _ => Term::Phrase(chars.windows(2).map(|w| w.iter().collect()).collect()),
                }]
            }
        };
        for term in new_terms {
            if terms.len() < MAX_QUERY_TERMS && !terms.contains(&term) {
                terms.push(term);
            }
        }
    }
    Query { terms }
}

impl Query {
    /// True when nothing searchable was typed (only punctuation, say): such a query
    /// matches nothing.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The words to highlight: the user's words after particle stripping, lower-cased
    /// ("삼성전자가" → "삼성전자"), each once.
    pub fn highlight_words(&self) -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        for term in &self.terms {
            let word = term.word();
            if !words.contains(&word) {
                words.push(word);
            }
        }
        words
    }

    /// The query in SQLite FTS5 syntax: every term quoted, joined by `AND`
    /// (`"삼성 성전 전자" AND "appl"*`). Empty for an empty query (which the caller
    /// must not run: FTS5 rejects an empty MATCH).
    pub fn to_fts5(&self) -> String {
        let quoted = |t: &str| format!("\"{}\"", t.replace('"', "\"\""));
        self.terms
            .iter()
            .map(|term| match term {
                Term::Word(w) => quoted(w),
                Term::Prefix(p) => format!("{}*", quoted(p)),
                Term::Phrase(bigrams) => quoted(&bigrams.join(" ")),
            })
            .collect::<Vec<_>>()
            .join(" AND ")
    }

    /// The query as PostgreSQL tsquery text for `to_tsquery('simple', …)`: lexemes
    /// quoted, phrases with `<->`, prefixes with `:*`, terms joined by `&`
    /// (`'삼성' <-> '성전' <-> '전자' & 'appl':*`). Empty for an empty query.
    pub fn to_tsquery(&self) -> String {
        self.to_tsquery_expanding(|_| None)
    }

    /// [`Query::to_tsquery`], with each prefix that `words` expands (to every indexed
    /// token that starts with it) written as the OR of those tokens, which a GIN index
    /// answers from exact entries instead of collecting every match of the prefix.
    /// An empty expansion matches nothing.
    pub fn to_tsquery_expanding(&self, words: impl Fn(&str) -> Option<Vec<String>>) -> String {
        let quoted = |t: &str| format!("'{}'", t.replace('\\', "\\\\").replace('\'', "''"));
        self.terms
            .iter()
            .map(|term| match term {
                Term::Word(w) => quoted(w),
                Term::Prefix(p) => match words(p) {
                    Some(list) if list.is_empty() => "'#none'".to_owned(),
                    Some(list) => format!(
                        "({})",
                        list.iter()
                            .map(|w| quoted(w))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    ),
                    None => format!("{}:*", quoted(p)),
                },
                Term::Phrase(bigrams) => format!(
                    "({})",
                    bigrams
                        .iter()
                        .map(|b| quoted(b))
                        .collect::<Vec<_>>()
                        .join(" <-> ")
                ),
            })
            .collect::<Vec<_>>()
            .join(" & ")
    }
}

#[cfg(test)]
mod tests;
