//! Broker exports, one fixture per format (`tests/fixtures/brokers/`): the format and
//! encoding are detected, columns mapped, trade words read, non-trades skipped with a
//! reason; a truncated EUC-KR file, a bad number and an unknown layout are refused.

use std::path::PathBuf;

use moat_market::InstrumentId;
use moat_portfolio::broker_csv::{FormatId, SkipReason};
use moat_portfolio::csv_file::{check, parse, parse_with, ImportPreview};
use moat_portfolio::text_decode::TextEncoding;
use moat_portfolio::{Field, IssueCode, Ledger, PortfolioSettings, TxKind};
use rust_decimal::Decimal;

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/brokers")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

/// What the server's catalogue lookup answers for the names and tickers the fixtures use.
fn catalogue(named: &str) -> Option<InstrumentId> {
    match named {
        "AAPL" | "애플" => "NASDAQ:AAPL".parse().ok(),
        "MSFT" => "NASDAQ:MSFT".parse().ok(),
        "삼성전자" => "KRX:005930".parse().ok(),
        "SK하이닉스" => "KRX:000660".parse().ok(),
        _ => None,
    }
}

fn preview_of(name: &str) -> ImportPreview {
    let settings = PortfolioSettings::default();
    let parsed = parse_with(fixture(name).as_slice(), &settings, 0, &catalogue).unwrap();
    check(parsed, &settings, &[])
}

fn kinds(p: &ImportPreview) -> Vec<(usize, TxKind)> {
    p.rows.iter().map(|r| (r.row, r.transaction.kind)).collect()
}

fn holdings(p: &ImportPreview) -> Vec<(String, Decimal)> {
    let txs: Vec<_> = p.rows.iter().map(|r| r.transaction.clone()).collect();
    let ledger = Ledger::build(&PortfolioSettings::default(), &txs).unwrap();
    let mut out: Vec<(String, Decimal)> = ledger
        .open_holdings()
        .map(|h| (h.instrument.to_string(), h.quantity()))
        .collect();
    out.sort();
    out
}

#[test]
fn kiwoom_euc_kr_history_is_read_with_its_words_and_skips() {
    let p = preview_of("kiwoom.csv");
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.format, FormatId::Kiwoom);
    assert_eq!(p.encoding, Some(TextEncoding::EucKr));
    assert_eq!(
        kinds(&p),
        [
            (2, TxKind::Deposit),
            (3, TxKind::Buy),
            (5, TxKind::Buy),
            (6, TxKind::Dividend),
            (7, TxKind::Sell),
            (9, TxKind::Withdrawal),
        ]
    );
    let buy = &p.rows[1].transaction;
    assert_eq!(buy.instrument.as_ref().unwrap().to_string(), "KRX:005930");
    assert_eq!(
        (buy.quantity, buy.price, buy.fee),
        (d("10"), d("55000"), d("80"))
    );
    assert_eq!(buy.note, "장내매수");
    let deposit = &p.rows[0].transaction;
    assert_eq!((deposit.quantity, deposit.price), (d("1"), d("10000000")));
    assert!(deposit.instrument.is_none());
    let dividend = &p.rows[3].transaction;
    assert_eq!((dividend.price, dividend.tax), (d("3610"), d("550")));
    let sell = &p.rows[4].transaction;
    assert_eq!(
        (sell.quantity, sell.fee, sell.tax),
        (d("3"), d("20"), d("313"))
    );
    let skipped: Vec<_> = p
        .skipped
        .iter()
        .map(|s| (s.row, s.reason, s.label.as_str()))
        .collect();
    assert_eq!(
        skipped,
        [
            (4, SkipReason::Interest, "예탁금이용료"),
            (8, SkipReason::Transfer, "대체입고"),
        ]
    );
    assert_eq!(
        holdings(&p),
        [
            ("KRX:000660".to_owned(), d("2")),
            ("KRX:005930".to_owned(), d("7")),
        ]
    );
}

#[test]
fn mirae_overseas_history_resolves_tickers_and_splits_buy_and_sell_columns() {
    let p = preview_of("mirae.csv");
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.format, FormatId::Mirae);
    assert_eq!(p.encoding, Some(TextEncoding::Utf8));
    assert_eq!(
        kinds(&p),
        [(2, TxKind::Buy), (3, TxKind::Sell), (4, TxKind::Buy)]
    );
    let buy = &p.rows[0].transaction;
    assert_eq!(buy.instrument.as_ref().unwrap().to_string(), "NASDAQ:AAPL");
    assert_eq!(buy.currency, "USD");
    assert_eq!(buy.fx_rate, Some(d("1450.5")));
    assert_eq!(
        (buy.quantity, buy.price, buy.fee),
        (d("10"), d("230.5"), d("1.15"))
    );
    let sell = &p.rows[1].transaction;
    assert_eq!(
        (sell.quantity, sell.price, sell.fee, sell.tax),
        (d("4"), d("235"), d("0.47"), d("0.02"))
    );
    assert_eq!(p.skipped.len(), 1);
    assert_eq!(
        (p.skipped[0].row, p.skipped[0].reason),
        (5, SkipReason::NoTrade)
    );
    assert_eq!(
        holdings(&p),
        [
            ("NASDAQ:AAPL".to_owned(), d("6")),
            ("NASDAQ:MSFT".to_owned(), d("2")),
        ]
    );
}

#[test]
fn mirae_tickers_the_catalogue_does_not_know_are_named_per_row() {
    let settings = PortfolioSettings::default();
    let parsed = parse(fixture("mirae.csv").as_slice(), &settings, 0).unwrap();
    let rows: Vec<_> = parsed
        .errors
        .iter()
        .map(|e| (e.row, e.column, e.code))
        .collect();
    assert_eq!(
        rows,
        [
            (2, Some(Field::Instrument), IssueCode::UnknownInstrument),
            (3, Some(Field::Instrument), IssueCode::UnknownInstrument),
            (4, Some(Field::Instrument), IssueCode::UnknownInstrument),
        ]
    );
    assert!(parsed.rows.is_empty());
}

#[test]
fn kis_trade_diary_gives_a_buy_and_a_sell_per_row() {
    let p = preview_of("kis.csv");
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.format, FormatId::Kis);
    assert_eq!(p.encoding, Some(TextEncoding::Utf8));
    assert_eq!(
        kinds(&p),
        [(2, TxKind::Buy), (3, TxKind::Buy), (4, TxKind::Sell)]
    );
    let first = &p.rows[0].transaction;
    assert_eq!(
        (first.quantity, first.price, first.fee),
        (d("10"), d("55000"), d("80"))
    );
    let sell = &p.rows[2].transaction;
    assert_eq!(
        (sell.quantity, sell.price, sell.fee, sell.tax),
        (d("3"), d("58000"), d("20"), d("313"))
    );
    assert_eq!(
        holdings(&p),
        [
            ("KRX:000660".to_owned(), d("2")),
            ("KRX:005930".to_owned(), d("7")),
        ]
    );
}

#[test]
fn a_truncated_euc_kr_file_is_refused_whole() {
    let p = preview_of("kiwoom-truncated.csv");
    assert_eq!(p.encoding, Some(TextEncoding::EucKr));
    assert!(p.rows.is_empty());
    assert_eq!(p.errors.len(), 1);
    assert_eq!(p.errors[0].code, IssueCode::InvalidEncoding);
    assert!(p.into_new_transactions().is_err());
}

#[test]
fn a_bad_number_in_a_broker_row_is_named() {
    let p = preview_of("kiwoom-bad-number.csv");
    assert_eq!(p.format, FormatId::Kiwoom);
    let errors: Vec<_> = p.errors.iter().map(|e| (e.row, e.column, e.code)).collect();
    assert_eq!(
        errors,
        [(3, Some(Field::Quantity), IssueCode::InvalidNumber)]
    );
    assert!(p.into_new_transactions().is_err());
}

#[test]
fn an_unknown_layout_is_refused_with_the_missing_columns() {
    let p = preview_of("unknown-layout.csv");
    assert_eq!(p.format, FormatId::GenericKorean);
    let errors: Vec<_> = p.errors.iter().map(|e| (e.row, e.column, e.code)).collect();
    assert_eq!(
        errors,
        [
            (1, Some(Field::Date), IssueCode::MissingColumn),
            (1, Some(Field::Type), IssueCode::MissingColumn),
        ]
    );
}

#[test]
fn moat_and_korean_headers_are_named_apart() {
    let settings = PortfolioSettings::default();
    let moat = "date,type,instrument,quantity,price\n2025-02-03,buy,KRX:005930,1,55000\n";
    let parsed = parse(moat.as_bytes(), &settings, 0).unwrap();
    assert_eq!(parsed.format, FormatId::Moat);
    let korean = "일자,구분,종목코드,수량,단가\n2025.02.03,매수,005930,1,\"55,000\"\n";
    let parsed = parse(korean.as_bytes(), &settings, 0).unwrap();
    assert_eq!(parsed.format, FormatId::GenericKorean);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    assert_eq!(parsed.rows[0].transaction.price, d("55000"));
    // The same Korean file in EUC-KR reads the same.
    let (euc, _, _) = encoding_rs::EUC_KR.encode(korean);
    let parsed_euc = parse(euc.as_ref(), &settings, 0).unwrap();
    assert_eq!(parsed_euc.encoding, Some(TextEncoding::EucKr));
    assert_eq!(parsed_euc.rows, parsed.rows);
}

#[test]
fn a_kiwoom_file_starting_with_its_version_line_is_read_with_true_line_numbers() {
    let mut bytes = b"Version=1.0\r\n".to_vec();
    bytes.extend(fixture("kiwoom.csv"));
    let settings = PortfolioSettings::default();
    let parsed = parse(bytes.as_slice(), &settings, 0).unwrap();
    assert_eq!(parsed.format, FormatId::Kiwoom);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    // The header is line 2, so the first trade is line 3.
    assert_eq!(parsed.rows[0].row, 3);
    assert_eq!(parsed.rows.len(), 6);
}

#[test]
fn nh_paged_report_is_read_two_lines_a_record_across_pages() {
    let p = preview_of("nh.csv");
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.format, FormatId::Nh);
    assert_eq!(p.encoding, Some(TextEncoding::EucKr));
    // Each record is reported at its first line; page 2's title, page number, print
    // date and its own (differently spaced) header lines are passed over.
    assert_eq!(
        kinds(&p),
        [
            (9, TxKind::Deposit),
            (15, TxKind::Buy),
            (17, TxKind::Buy),
            (25, TxKind::Buy),
            (27, TxKind::Sell),
            (29, TxKind::Withdrawal),
        ]
    );
    let skipped: Vec<(usize, SkipReason)> = p.skipped.iter().map(|s| (s.row, s.reason)).collect();
    assert_eq!(skipped, [(11, SkipReason::Sweep), (13, SkipReason::Sweep)]);
    // Codes that lost their leading zeros, the price from the second line, fee and tax.
    let buy = &p.rows[1].transaction;
    assert_eq!(buy.instrument.as_ref().unwrap().to_string(), "KRX:005930");
    assert_eq!(
        (buy.quantity, buy.price, buy.fee),
        (d("10"), d("54000"), d("80"))
    );
    let sell = &p.rows[4].transaction;
    assert_eq!(sell.instrument.as_ref().unwrap().to_string(), "KRX:112040");
    assert_eq!(
        (sell.quantity, sell.price, sell.fee, sell.tax),
        (d("5"), d("24000"), d("18"), d("216"))
    );
    assert_eq!(p.rows[0].transaction.price, d("5000000"));
    assert_eq!(p.rows[5].transaction.price, d("200000"));
    assert_eq!(
        holdings(&p),
        [
            ("KRX:000660".to_owned(), d("1")),
            ("KRX:005930".to_owned(), d("10")),
            ("KRX:112040".to_owned(), d("15")),
        ]
    );
}

#[test]
fn an_nh_report_cut_inside_a_record_or_without_its_header_is_refused() {
    let settings = PortfolioSettings::default();
    let whole = String::from_utf8(
        std::fs::read(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/brokers/nh.csv"),
        )
        .map(|b| encoding_rs::EUC_KR.decode(&b).0.into_owned().into_bytes())
        .unwrap(),
    )
    .unwrap();
    // Cut after a record's first line.
    let cut: String = whole.lines().take(15).map(|l| format!("{l}\n")).collect();
    let parsed = parse(cut.as_bytes(), &settings, 0).unwrap();
    assert_eq!(parsed.format, FormatId::Nh);
    assert!(
        parsed
            .errors
            .iter()
            .any(|e| e.row == 15 && e.code == IssueCode::MalformedRow),
        "{:?}",
        parsed.errors
    );
    // The title but no header lines.
    let title_only: String = whole.lines().take(6).map(|l| format!("{l}\n")).collect();
    let parsed = parse(title_only.as_bytes(), &settings, 0).unwrap();
    assert!(
        parsed
            .errors
            .iter()
            .any(|e| e.code == IssueCode::MissingColumn),
        "{:?}",
        parsed.errors
    );
    assert!(parsed.rows.is_empty());
    // A bad number in a record's second line names the record's first line.
    let bad = whole.replace("장내매수,,삼성전자,54000", "장내매수,,삼성전자,5만4천");
    let parsed = parse(bad.as_bytes(), &settings, 0).unwrap();
    assert!(
        parsed.errors.iter().any(|e| e.row == 15
            && e.code == IssueCode::InvalidNumber
            && e.column == Some(Field::Price)),
        "{:?}",
        parsed.errors
    );
}

#[test]
fn mirae_domestic_two_row_header_is_read_by_position_with_names() {
    let p = preview_of("mirae-domestic.csv");
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    assert_eq!(p.format, FormatId::MiraeDomestic);
    assert_eq!(p.encoding, Some(TextEncoding::Utf8));
    // A day's buy and sell of one stock are two transactions; the fee goes with the sell.
    assert_eq!(
        kinds(&p),
        [
            (3, TxKind::Buy),
            (4, TxKind::Buy),
            (5, TxKind::Sell),
            (6, TxKind::Buy),
            (6, TxKind::Sell),
        ]
    );
    let sell = &p.rows[2].transaction;
    assert_eq!(sell.instrument.as_ref().unwrap().to_string(), "KRX:005930");
    assert_eq!(
        (sell.quantity, sell.price, sell.fee),
        (d("3"), d("58000"), d("420"))
    );
    assert_eq!(p.rows[3].transaction.fee, d("0"));
    assert_eq!(p.rows[4].transaction.fee, d("70"));
    assert_eq!(
        holdings(&p),
        [
            ("KRX:000660".to_owned(), d("2")),
            ("KRX:005930".to_owned(), d("7"))
        ]
    );
    // A name the catalogue does not know is that row's error.
    let settings = PortfolioSettings::default();
    let text = String::from_utf8(fixture("mirae-domestic.csv"))
        .unwrap()
        .replace("2025/02/05,SK하이닉스", "2025/02/05,없는회사");
    let parsed = parse_with(text.as_bytes(), &settings, 0, &catalogue).unwrap();
    assert!(
        parsed
            .errors
            .iter()
            .any(|e| e.row == 4 && e.code == IssueCode::UnknownInstrument),
        "{:?}",
        parsed.errors
    );
}
