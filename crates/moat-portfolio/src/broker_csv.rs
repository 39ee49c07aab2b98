//! Korean brokers' trade-history exports: which broker a file is from (by its header
//! row), where its columns are, and what its trade-type words mean.
//!
//! Each format is one [`BrokerFormat`] in [`BROKERS`], written from a published
//! source (the sources are in `docs/portfolio.md`). A format whose columns could not be
//! found is not here: such a file is read as Moat's own format or as generic Korean
//! headers ([`crate::csv_file`]), and is refused when neither fits.
//!
//! A broker row is one of: a transaction, two (a row with a day's buys *and* sells of
//! one stock), nothing worth importing (interest, a transfer of shares, a currency
//! exchange: [`SkipReason`]), or an error (a word the format does not know, a number
//! that is not one).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::transaction::TxKind;

/// The stable name of a file's format, as the preview reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FormatId {
    /// Moat's own columns (English headers, as export writes them).
    #[default]
    Moat,
    /// Moat's columns under Korean headers (일자, 구분, 종목코드, 수량, 단가…).
    GenericKorean,
    /// 키움증권 영웅문 계좌거래내역.
    Kiwoom,
    /// 미래에셋증권 해외주식 기간별 매매내역.
    Mirae,
    /// 미래에셋증권 국내주식 기간별 매매내역 (a two-row header; names, no codes).
    MiraeDomestic,
    /// 한국투자증권 매매일지 (국내).
    Kis,
    /// NH투자증권 (나무, QV) 종합거래내역: a paged report, two lines per record
    /// ([`NH`]).
    Nh,
}

impl FormatId {
    pub fn as_str(self) -> &'static str {
        match self {
            FormatId::Moat => "moat",
            FormatId::GenericKorean => "generic_korean",
            FormatId::Kiwoom => "kiwoom",
            FormatId::Mirae => "mirae",
            FormatId::MiraeDomestic => "mirae_domestic",
            FormatId::Kis => "kis",
            FormatId::Nh => "nh",
        }
    }
}

/// Why a broker row is listed but not imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Interest on the cash balance (예탁금이용료).
    Interest,
    /// Shares moved in or out without a trade (대체입고, 이벤트입고…).
    Transfer,
    /// A currency exchange (외화매수, 환전).
    Exchange,
    /// The share movement of a split or merger (액면분할병합입고); record the split.
    SplitMovement,
    /// A CMA or RP sweep (환매도, 조건부매수).
    Sweep,
    /// A day-and-stock row with neither a buy nor a sell.
    NoTrade,
}

impl SkipReason {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Interest => "interest",
            SkipReason::Transfer => "transfer",
            SkipReason::Exchange => "exchange",
            SkipReason::SplitMovement => "split_movement",
            SkipReason::Sweep => "sweep",
            SkipReason::NoTrade => "no_trade",
        }
    }
}

/// What a trade-type word means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    Tx(TxKind),
    Skip(SkipReason),
}

/// Trade-type words every broker format reads (exact, after trimming). Skips come first
/// so that 외화매수 (buying dollars) is never read as a buy.
pub const TRADE_WORDS: &[(&str, Word)] = &[
    ("예탁금이용료", Word::Skip(SkipReason::Interest)),
    ("이자", Word::Skip(SkipReason::Interest)),
    ("이자입금", Word::Skip(SkipReason::Interest)),
    ("대체입고", Word::Skip(SkipReason::Transfer)),
    ("대체출고", Word::Skip(SkipReason::Transfer)),
    ("이벤트입고", Word::Skip(SkipReason::Transfer)),
    ("입고", Word::Skip(SkipReason::Transfer)),
    ("출고", Word::Skip(SkipReason::Transfer)),
    ("액면분할병합입고", Word::Skip(SkipReason::SplitMovement)),
    ("액면분할병합출고", Word::Skip(SkipReason::SplitMovement)),
    ("외화매수", Word::Skip(SkipReason::Exchange)),
    ("외화매도", Word::Skip(SkipReason::Exchange)),
    ("외화매수환전", Word::Skip(SkipReason::Exchange)),
    ("환전", Word::Skip(SkipReason::Exchange)),
    ("환매도", Word::Skip(SkipReason::Sweep)),
    ("조건부매수", Word::Skip(SkipReason::Sweep)),
    ("매수", Word::Tx(TxKind::Buy)),
    ("장내매수", Word::Tx(TxKind::Buy)),
    ("현금매수", Word::Tx(TxKind::Buy)),
    ("코스닥매수", Word::Tx(TxKind::Buy)),
    ("KOSDAQ매수", Word::Tx(TxKind::Buy)),
    ("외화증권매수", Word::Tx(TxKind::Buy)),
    ("해외주식매수", Word::Tx(TxKind::Buy)),
    ("매도", Word::Tx(TxKind::Sell)),
    ("장내매도", Word::Tx(TxKind::Sell)),
    ("현금매도", Word::Tx(TxKind::Sell)),
    ("코스닥매도", Word::Tx(TxKind::Sell)),
    ("KOSDAQ매도", Word::Tx(TxKind::Sell)),
    ("외화증권매도", Word::Tx(TxKind::Sell)),
    ("해외주식매도", Word::Tx(TxKind::Sell)),
    ("배당", Word::Tx(TxKind::Dividend)),
    ("배당금", Word::Tx(TxKind::Dividend)),
    ("배당금입금", Word::Tx(TxKind::Dividend)),
    ("현금배당", Word::Tx(TxKind::Dividend)),
    ("외화배당금입금", Word::Tx(TxKind::Dividend)),
    ("입금", Word::Tx(TxKind::Deposit)),
    ("이체입금", Word::Tx(TxKind::Deposit)),
    ("은행이체입금", Word::Tx(TxKind::Deposit)),
    ("대체입금", Word::Tx(TxKind::Deposit)),
    ("출금", Word::Tx(TxKind::Withdrawal)),
    ("이체출금", Word::Tx(TxKind::Withdrawal)),
    ("은행이체출금", Word::Tx(TxKind::Withdrawal)),
    ("대체출금", Word::Tx(TxKind::Withdrawal)),
];

/// The meaning of a trade-type word, if a broker format knows it.
pub fn trade_word(s: &str) -> Option<Word> {
    let s = s.trim();
    TRADE_WORDS
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(s))
        .map(|(_, m)| *m)
}

/// How a format's rows carry the trade.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// One row per event, a word column saying what it is.
    Typed {
        /// The trade-type word column.
        kind: &'static str,
        quantity: &'static str,
        /// Per share; for a trade.
        price: &'static str,
        /// The cash amount; for a dividend, deposit or withdrawal.
        amount: &'static str,
    },
    /// One row per day and stock, its buys and sells side by side. The row's fee and
    /// tax go with the sell when there is one, else with the buy.
    BuySell {
        buy_quantity: &'static str,
        buy_price: &'static str,
        sell_quantity: &'static str,
        sell_price: &'static str,
    },
}

/// One broker's export.
#[derive(Debug, Clone, Copy)]
pub struct BrokerFormat {
    pub id: FormatId,
    /// Headers that must all be present for a file to be this format.
    pub signature: &'static [&'static str],
    pub date: &'static str,
    /// The instrument's code (6-digit KRX code, or a US ticker); read first.
    pub code: Option<&'static str>,
    /// The instrument's name; resolved through the catalogue when there is no code.
    pub name: Option<&'static str>,
    pub currency: Option<&'static str>,
    /// Base currency per unit of the row's currency.
    pub fx_rate: Option<&'static str>,
    /// Columns summed into the fee.
    pub fee: &'static [&'static str],
    /// Columns summed into the tax.
    pub tax: &'static [&'static str],
    pub layout: Layout,
}

/// Every broker format read, checked in order against a file's header row.
pub const BROKERS: &[BrokerFormat] = &[
    BrokerFormat {
        id: FormatId::Kiwoom,
        signature: &[
            "거래일자",
            "종목코드",
            "적요명",
            "거래수량",
            "거래단가/환율",
        ],
        date: "거래일자",
        code: Some("종목코드"),
        name: Some("종목명"),
        currency: Some("통화"),
        fx_rate: None,
        fee: &["수수료(외)", "인지세"],
        tax: &["세금합"],
        layout: Layout::Typed {
            kind: "적요명",
            quantity: "거래수량",
            price: "거래단가/환율",
            amount: "거래금액",
        },
    },
    BrokerFormat {
        id: FormatId::Mirae,
        signature: &["매매일", "통화", "종목번호", "매수 수량", "매도 수량"],
        date: "매매일",
        code: Some("종목번호"),
        name: Some("종목명"),
        currency: Some("통화"),
        fx_rate: Some("매매일환율"),
        fee: &["수수료"],
        tax: &["세금"],
        layout: Layout::BuySell {
            buy_quantity: "매수 수량",
            buy_price: "매수단가",
            sell_quantity: "매도 수량",
            sell_price: "매도단가",
        },
    },
    // Named by [`MIRAE_DOMESTIC_COLUMNS`]: its own header is two rows, read by position.
    BrokerFormat {
        id: FormatId::MiraeDomestic,
        signature: &["일자", "종목명", "매수평균단가", "매도평균단가", "매매비용"],
        date: "일자",
        code: None,
        name: Some("종목명"),
        currency: None,
        fx_rate: None,
        fee: &["매매비용"],
        tax: &[],
        layout: Layout::BuySell {
            buy_quantity: "매수수량",
            buy_price: "매수평균단가",
            sell_quantity: "매도수량",
            sell_price: "매도평균단가",
        },
    },
    BrokerFormat {
        id: FormatId::Kis,
        signature: &["매매일자", "종목코드", "매입단가", "매수수량", "매도수량"],
        date: "매매일자",
        code: Some("종목코드"),
        name: Some("종목명"),
        currency: None,
        fx_rate: None,
        fee: &["수수료"],
        tax: &["제세금"],
        layout: Layout::BuySell {
            buy_quantity: "매수수량",
            buy_price: "매입단가",
            sell_quantity: "매도수량",
            sell_price: "매도단가",
        },
    },
];

/// NH투자증권's 종합거래내역 (나무, QV): a report, not a table. Each page repeats a
/// title, the page number, the print date and time, then a header in two lines
/// (`거래일자, 종목번호, 수량, 거래금액, 이자, 잔고수량` over `거래종류, 종목명, 단가,
/// 수수료, 세금, 잔고금액`, with blank spacer columns that differ from page to page);
/// each record is two lines, matched to the two header lines by position. `.` is an
/// empty amount. Read by `csv_file` in its own loop ([`NH_TITLE`], [`NH_TOP`],
/// [`NH_BOTTOM`]); the names below are those of the two header lines.
pub const NH: BrokerFormat = BrokerFormat {
    id: FormatId::Nh,
    signature: &["거래일자", "종목번호", "거래종류", "종목명", "단가"],
    date: "거래일자",
    code: Some("종목번호"),
    name: Some("종목명"),
    currency: None,
    fx_rate: None,
    fee: &["수수료"],
    tax: &["세금"],
    layout: Layout::Typed {
        kind: "거래종류",
        quantity: "수량",
        price: "단가",
        amount: "거래금액",
    },
};
/// The report's title, on the first line of each page.
pub const NH_TITLE: &str = "종합거래내역";
/// The first cell of the header's first line.
pub const NH_TOP: &str = "거래일자";
/// The first cell of the header's second line.
pub const NH_BOTTOM: &str = "거래종류";

/// 미래에셋증권 국내계좌's 기간별 매매내역 opens with a header of two rows: 일자, 종목명,
/// "기간 중 매수", "기간 중 매도", 매매비용, 손익금액, 수익률 over 수량, 평균단가, 금액
/// for each group. These cells on the first row mark it ([`is_mirae_domestic`]).
pub const MIRAE_DOMESTIC_MARKS: [&str; 3] = ["일자", "종목명", "기간 중 매수"];
/// The file's eleven columns by position, named for [`BROKERS`]'s entry.
pub const MIRAE_DOMESTIC_COLUMNS: [&str; 11] = [
    "일자",
    "종목명",
    "매수수량",
    "매수평균단가",
    "매수금액",
    "매도수량",
    "매도평균단가",
    "매도금액",
    "매매비용",
    "손익금액",
    "수익률",
];

/// Whether a header row is the first of 미래에셋 국내's two.
pub fn is_mirae_domestic<'a>(headers: impl Iterator<Item = &'a str>) -> bool {
    let have: Vec<String> = headers.map(normalise).collect();
    MIRAE_DOMESTIC_MARKS
        .iter()
        .all(|m| have.iter().any(|h| *h == normalise(m)))
}

/// A header as compared: without spaces, `_`, `-`, `.` and a byte-order mark,
/// lower-case.
pub fn normalise(h: &str) -> String {
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The broker format whose signature a header row has.
pub fn detect<'a>(headers: impl Iterator<Item = &'a str> + Clone) -> Option<&'static BrokerFormat> {
    let have: Vec<String> = headers.map(normalise).collect();
    BROKERS.iter().find(|b| {
        b.signature
            .iter()
            .all(|s| have.iter().any(|h| *h == normalise(s)))
    })
}

/// Where a broker's columns are in one file.
#[derive(Debug, Clone)]
pub struct Columns {
    names: Vec<String>,
}

impl Columns {
    pub fn new<'a>(headers: impl Iterator<Item = &'a str>) -> Self {
        Self {
            names: headers.map(normalise).collect(),
        }
    }

    /// The index of the column `name`, the first one with it.
    pub fn index(&self, name: &str) -> Option<usize> {
        let n = normalise(name);
        self.names.iter().position(|h| *h == n)
    }
}

/// A broker's number: `,` thousands separators; blank, `.` and `-` alone are 0 (how
/// the exports write an empty amount).
pub fn broker_number(s: &str) -> Option<Decimal> {
    let cleaned: String = s
        .chars()
        .filter(|c| *c != ',' && !c.is_whitespace())
        .collect();
    match cleaned.as_str() {
        "" | "." | "-" => Some(Decimal::ZERO),
        c => c.parse::<Decimal>().ok(),
    }
}

/// A broker's currency cell: `KRW`, `USD`, or the Korean names (원, 원화, 달러, 미국달러).
pub fn broker_currency(s: &str) -> Option<&'static str> {
    match s.trim().to_ascii_uppercase().as_str() {
        "" => None,
        "KRW" | "원" | "원화" | "₩" => Some(crate::money::KRW),
        "USD" | "달러" | "미국달러" | "미달러" | "$" => Some(crate::money::USD),
        _ => Some("?"),
    }
}

/// A broker's instrument code: `A005930` and `005930` are KRX 005930; a bare number
/// shorter than 6 digits (a spreadsheet dropped its zeros) is padded.
pub fn broker_code(s: &str) -> String {
    let s = s.trim();
    let s = s
        .strip_prefix('A')
        .filter(|rest| rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or(s);
    if !s.is_empty() && s.len() < 6 && s.bytes().all(|b| b.is_ascii_digit()) {
        format!("{s:0>6}")
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_broker_by_its_header() {
        let kiwoom =
            "거래일자,종목코드,거래소,거래종류,적요명,종목명,통화,거래수량,거래단가/환율,거래금액";
        assert_eq!(detect(kiwoom.split(',')).unwrap().id, FormatId::Kiwoom);
        let mirae = "매매일,통화,종목번호,종목명,잔고 수량,매입평균환율,매매일환율,매수 수량,매수단가,매도 수량,매도단가";
        assert_eq!(detect(mirae.split(',')).unwrap().id, FormatId::Mirae);
        let kis =
            "매매일자,종목명,종목코드,구분,대출일자,보유수량,매입단가,매수수량,매도단가,매도수량";
        assert_eq!(detect(kis.split(',')).unwrap().id, FormatId::Kis);
        assert!(detect("일자,구분,종목코드,수량,단가".split(',')).is_none());
    }

    #[test]
    fn reads_trade_words_and_skips_non_trades() {
        assert_eq!(trade_word("장내매수"), Some(Word::Tx(TxKind::Buy)));
        assert_eq!(trade_word(" 현금매도 "), Some(Word::Tx(TxKind::Sell)));
        assert_eq!(trade_word("배당금입금"), Some(Word::Tx(TxKind::Dividend)));
        assert_eq!(trade_word("입금"), Some(Word::Tx(TxKind::Deposit)));
        assert_eq!(trade_word("출금"), Some(Word::Tx(TxKind::Withdrawal)));
        assert_eq!(
            trade_word("외화매수"),
            Some(Word::Skip(SkipReason::Exchange))
        );
        assert_eq!(
            trade_word("예탁금이용료"),
            Some(Word::Skip(SkipReason::Interest))
        );
        assert_eq!(trade_word("신용매수상환"), None);
    }

    #[test]
    fn reads_broker_numbers_and_codes() {
        assert_eq!(broker_number("1,234,500"), Some(Decimal::new(1_234_500, 0)));
        assert_eq!(broker_number("."), Some(Decimal::ZERO));
        assert_eq!(broker_number("12,3a"), None);
        assert_eq!(broker_code("A005930"), "005930");
        assert_eq!(broker_code("53300"), "053300");
        assert_eq!(broker_code("AAPL"), "AAPL");
    }
}
