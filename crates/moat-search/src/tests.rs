//! Tests of the tokenizer and the query parser. `matches` plays the index: a
//! document matches when every term does (a word: one token equal; a prefix: one
//! token starting with it; a phrase: its bigrams as consecutive tokens), which is
//! what FTS5 and tsquery do with the same tokens (the storage tests check those).

use proptest::prelude::*;

use super::*;

fn matches(query: &str, document: &str) -> bool {
    let tokens: Vec<String> = index_text(document)
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect();
    let query = parse_query(query);
    !query.is_empty() && query.terms.iter().all(|term| term_matches(term, &tokens))
}

fn term_matches(term: &Term, tokens: &[String]) -> bool {
    match term {
        Term::Word(w) => tokens.contains(w),
        Term::Prefix(p) => tokens.iter().any(|t| t.starts_with(p.as_str())),
        Term::Phrase(bigrams) => tokens.windows(bigrams.len()).any(|w| w == &bigrams[..]),
    }
}

#[test]
fn two_syllable_korean_words_find_their_articles() {
    assert!(matches("삼성", "삼성전자, 3분기 실적 발표"));
    assert!(matches("금리", "한은, 기준금리 동결"));
    assert!(!matches("금리", "삼성전자, 3분기 실적 발표"));
}

#[test]
fn particles_on_either_side_do_not_matter() {
    assert!(matches("삼성전자가", "삼성전자는 오늘 신제품을 공개했다"));
    assert!(matches("금리", "한은이 금리를 올렸다"));
    assert!(matches("금리를", "금리 인상 우려"));
    assert!(matches("반도체에서", "반도체 수출이 늘었다"));
}

#[test]
fn a_longer_korean_word_must_appear_whole() {
    assert!(!matches("삼성전자", "삼성 그룹의 전자 계열사"));
    assert!(matches("삼성전자", "삼성전자우 급등"));
}

#[test]
fn english_words_match_possessives_and_longer_forms() {
    assert!(matches("apple", "Apple's new iPhone"));
    assert!(matches("APPLE", "apple pie"));
    assert!(matches("earn", "Quarterly earnings beat estimates"));
    assert!(!matches("earnings", "She will earn more"));
}

#[test]
fn stock_codes_match_as_whole_numbers() {
    assert!(matches("005930", "삼성전자(005930) 주가"));
    assert!(!matches("0059", "삼성전자(005930) 주가"));
}

#[test]
fn mixed_scripts_split_by_script() {
    assert_eq!(index_text("삼성SDI가"), "삼성 sdi 가");
    let q = parse_query("삼성SDI");
    assert_eq!(
        q.terms,
        vec![Term::Word("삼성".into()), Term::Prefix("sdi".into())]
    );
    assert!(matches("삼성SDI", "삼성SDI, 배터리 증설"));
    assert!(matches("삼성sdi", "삼성 SDI 배터리"));
}

#[test]
fn index_text_normalises_width_case_and_diacritics() {
    assert_eq!(index_text("ＡＢＣ１２３"), "abc123");
    assert_eq!(index_text("Café Crème"), "cafe creme");
    assert_eq!(index_text("삼성전자는"), "삼성 성전 전자 자는");
    assert_eq!(index_text("한 글"), "한 글");
}

#[test]
fn words_split_where_postgresql_splits_a_number_in_scientific_notation() {
    assert_eq!(
        index_text("2e10e 1e5 12e3abc e5 1ee5"),
        "2e10 e 1e5 12e3 abc e5 1ee5"
    );
    assert!(matches("12e3abc", "12E3ABC"));
}

#[test]
fn long_words_are_cut_alike_in_the_index_and_the_query() {
    let long = "a".repeat(100);
    assert_eq!(index_text(&long).len(), MAX_TOKEN_CHARS);
    assert!(matches(&long, &long));
}

#[test]
fn no_phrase_crosses_from_one_part_into_the_next() {
    let text = index_parts(&["실적 삼성", "전자 부품"]);
    let tokens: Vec<String> = text.split(' ').map(str::to_owned).collect();
    let q = parse_query("삼성전자");
    assert!(!q.terms.iter().all(|t| term_matches(t, &tokens)));
    assert!(!parse_query(PART_SEPARATOR)
        .terms
        .iter()
        .any(|t| term_matches(t, &[PART_SEPARATOR.to_owned()])));
}

#[test]
fn parse_query_builds_phrases_words_and_prefixes() {
    let q = parse_query("삼성전자가 금리 earn 5 a 금");
    assert_eq!(
        q.terms,
        vec![
            Term::Phrase(vec!["삼성".into(), "성전".into(), "전자".into()]),
            Term::Word("금리".into()),
            Term::Prefix("earn".into()),
            Term::Word("5".into()),
            Term::Word("a".into()),
            Term::Prefix("금".into()),
        ]
    );
    assert_eq!(
        q.highlight_words(),
        vec!["삼성전자", "금리", "earn", "5", "a", "금"]
    );
}

#[test]
fn a_query_of_punctuation_is_empty() {
    assert!(parse_query("  !!! ... \"*'-:&|()  ").is_empty());
    assert_eq!(parse_query("").to_fts5(), "");
}

#[test]
fn queries_keep_at_most_max_query_terms() {
    let q = parse_query("a1 b2 c3 d4 e5 f6 g7 h8 i9 j10 a1");
    assert_eq!(q.terms.len(), MAX_QUERY_TERMS);
}

#[test]
fn queries_render_into_fts5_and_tsquery() {
    let q = parse_query("삼성전자 apple 005930");
    assert_eq!(
        q.to_fts5(),
        "\"삼성 성전 전자\" AND \"apple\"* AND \"005930\""
    );
    assert_eq!(
        q.to_tsquery(),
        "('삼성' <-> '성전' <-> '전자') & 'apple':* & '005930'"
    );
}

/// A character of the kinds a user or a feed may send: Latin, digits, Hangul,
/// Han, Kana, punctuation of both query syntaxes, spaces, full-width forms.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::char::range('a', 'z'),
        prop::char::range('A', 'Z'),
        prop::char::range('0', '9'),
        prop::char::range('가', '힣'),
        prop::char::range('一', '龥'),
        prop::char::range('ぁ', 'ヺ'),
        prop::sample::select(vec![
            ' ', '"', '\'', '*', '-', ':', '&', '|', '!', '(', ')', '<', '>', '\\', 'é', 'Ａ',
            '１', '\u{3000}', '\u{1100}', '\u{0301}', '.', ','
        ]),
        any::<char>(),
    ]
}

proptest! {
    #[test]
    fn index_tokens_are_one_script_and_never_punctuation(
        text in prop::collection::vec(any_char(), 0..60).prop_map(|v| v.into_iter().collect::<String>())
    ) {
        for token in index_text(&text).split(' ').filter(|t| !t.is_empty()) {
            let latin = token.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
            let first = script(token.chars().next().unwrap_or(' '));
            let one_script = first.is_some() && token.chars().all(|c| script(c) == first);
            prop_assert!(latin || one_script, "token {token:?} of {text:?}");
            prop_assert!(token.chars().count() <= MAX_TOKEN_CHARS);
        }
    }

    #[test]
    fn a_query_finds_a_document_that_is_the_query(
        text in prop::collection::vec(any_char(), 0..40).prop_map(|v| v.into_iter().collect::<String>())
    ) {
        let query = parse_query(&text);
        prop_assert!(query.terms.len() <= MAX_QUERY_TERMS);
        let tokens: Vec<String> = index_text(&text)
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect();
        for term in &query.terms {
            prop_assert!(term_matches(term, &tokens), "{term:?} of {text:?} not in {tokens:?}");
        }
        let _ = (query.to_fts5(), query.to_tsquery(), query.highlight_words());
    }
}

#[test]
fn a_prefix_expands_into_the_words_given() {
    let q = parse_query("earn 삼성");
    let text = q.to_tsquery_expanding(|p| {
        (p == "earn").then(|| vec!["earn".to_owned(), "earnings".to_owned()])
    });
    assert_eq!(text, "('earn' | 'earnings') & '삼성'");
    // No words: matches nothing; no expansion: the prefix.
    assert_eq!(
        parse_query("zzz").to_tsquery_expanding(|_| Some(Vec::new())),
        "'#none'"
    );
    assert_eq!(
        parse_query("earn").to_tsquery_expanding(|_| None),
        "'earn':*"
    );
}
