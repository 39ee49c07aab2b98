//! Bad input: validation of transactions and CSV previews, each bad row named; the
//! CSV round trip and duplicate detection.

mod common;

use common::*;
use moat_portfolio::csv_file::{export, parse, preview, recheck, FileTooLarge, MAX_IMPORT_ROWS};
use moat_portfolio::money::KRW;
use moat_portfolio::{
    validate, CostMethod, Field, IssueCode, Ledger, PortfolioSettings, Transaction, TxKind,
};

fn krw() -> PortfolioSettings {
    PortfolioSettings::default()
}

fn codes(txs: &[Transaction]) -> Vec<(i64, Option<Field>, IssueCode)> {
    validate(&krw(), txs)
        .errors
        .into_iter()
        .map(|e| (e.transaction_id, e.field, e.code))
        .collect()
}

#[test]
fn each_bad_transaction_is_named_with_its_field_and_code() {
    let txs = vec![
        tx(
            1,
            TxKind::Buy,
            day(2024, 1, 2),
            "KRX:005930",
            "0",
            "70000",
            KRW,
        ),
        tx(
            2,
            TxKind::Buy,
            day(2024, 1, 2),
            "KRX:005930",
            "1.5",
            "70000",
            KRW,
        ),
        tx(
            3,
            TxKind::Buy,
            day(2024, 1, 2),
            "NASDAQ:AAPL",
            "1",
            "150",
            "USD",
        ),
        with_costs(
            tx(
                4,
                TxKind::Buy,
                day(2024, 1, 2),
                "KRX:000660",
                "1",
                "-5",
                KRW,
            ),
            "-1",
            "-2",
        ),
        tx(
            5,
            TxKind::Sell,
            day(2024, 1, 3),
            "KRX:035420",
            "1",
            "100",
            KRW,
        ),
        split(6, day(2024, 1, 3), "KRX:035720", 2, 1, KRW),
        tx(7, TxKind::Buy, day(2024, 1, 2), "", "1", "100", KRW),
        tx(
            8,
            TxKind::Deposit,
            day(2024, 1, 2),
            "KRX:005930",
            "1",
            "100",
            KRW,
        ),
        split(9, day(2024, 1, 3), "KRX:005930", 0, 1, KRW),
        tx(
            10,
            TxKind::Buy,
            day(2024, 1, 2),
            "KRX:005930",
            "1",
            "100",
            "EUR",
        ),
    ];
    let found = codes(&txs);
    let expect = [
        (1, Some(Field::Quantity), IssueCode::QuantityNotPositive),
        (2, Some(Field::Quantity), IssueCode::FractionalShares),
        (3, Some(Field::FxRate), IssueCode::FxRateMissing),
        (4, Some(Field::Price), IssueCode::PriceNotPositive),
        (4, Some(Field::Fee), IssueCode::FeeNegative),
        (4, Some(Field::Tax), IssueCode::TaxNegative),
        (5, Some(Field::Quantity), IssueCode::InsufficientQuantity),
        (6, Some(Field::Instrument), IssueCode::SplitNotHeld),
        (7, Some(Field::Instrument), IssueCode::InstrumentMissing),
        (8, Some(Field::Instrument), IssueCode::InstrumentUnexpected),
        (9, Some(Field::Ratio), IssueCode::SplitRatioInvalid),
        (10, Some(Field::Currency), IssueCode::CurrencyUnsupported),
    ];
    for e in expect {
        assert!(found.contains(&e), "missing {e:?} in {found:?}");
    }
    assert!(Ledger::build(&krw(), &txs).is_err());
}

#[test]
fn a_sell_of_more_than_is_held_at_its_date_names_that_sell() {
    let txs = vec![
        tx(
            1,
            TxKind::Buy,
            day(2024, 1, 2),
            "KRX:005930",
            "10",
            "70000",
            KRW,
        ),
        // Sold before the second buy: only 10 are held then.
        tx(
            2,
            TxKind::Sell,
            day(2024, 1, 3),
            "KRX:005930",
            "15",
            "71000",
            KRW,
        ),
        tx(
            3,
            TxKind::Buy,
            day(2024, 1, 4),
            "KRX:005930",
            "10",
            "70000",
            KRW,
        ),
    ];
    assert_eq!(
        codes(&txs),
        vec![(2, Some(Field::Quantity), IssueCode::InsufficientQuantity)]
    );
}

#[test]
fn a_dividend_on_an_instrument_not_held_is_accepted_with_a_warning() {
    let txs = vec![tx(
        1,
        TxKind::Dividend,
        day(2024, 4, 20),
        "KRX:005930",
        "10",
        "361",
        KRW,
    )];
    let report = validate(&krw(), &txs);
    assert!(report.is_ok());
    assert_eq!(report.warnings[0].code, IssueCode::DividendNotHeld);
}

#[test]
fn csv_preview_reports_every_bad_row_and_imports_nothing() {
    let file = "\
일자,종류,종목,수량,단가,수수료,세금,통화,환율,메모
2024-01-02,매수,005930,10,\"70,000\",1000,0,,,첫 매수
2024-13-01,매수,005930,10,70000,,,,,bad date
2024-01-03,swap,005930,10,70000,,,,,bad type
2024-01-03,buy,NOPE:1,10,70000,,,,,bad instrument
2024-01-03,buy,005930,ten,70000,,,,,bad number
2024-01-04,buy,NASDAQ:AAPL,1,150,,,USD,,no fx rate
2024-01-05,sell,005930,50,71000,,,,,more than held
2024-01-06,split,005930,,,,,,,no ratio
";
    let p = preview(file, &krw(), &[]).unwrap();
    let got: Vec<(usize, Option<Field>, IssueCode)> =
        p.errors.iter().map(|e| (e.row, e.column, e.code)).collect();
    assert_eq!(
        got,
        vec![
            (3, Some(Field::Date), IssueCode::InvalidDate),
            (4, Some(Field::Type), IssueCode::InvalidType),
            (5, Some(Field::Instrument), IssueCode::InvalidInstrument),
            (6, Some(Field::Quantity), IssueCode::InvalidNumber),
            (7, Some(Field::FxRate), IssueCode::FxRateMissing),
            (8, Some(Field::Quantity), IssueCode::InsufficientQuantity),
            (9, Some(Field::Ratio), IssueCode::SplitRatioInvalid),
        ]
    );
    // The good row parsed (thousands separator, bare KRX code, Korean type).
    assert_eq!(p.rows[0].row, 2);
    assert_eq!(p.rows[0].transaction.price, d("70000"));
    assert_eq!(
        p.rows[0]
            .transaction
            .instrument
            .as_ref()
            .unwrap()
            .to_string(),
        "KRX:005930"
    );
    assert!(p.into_new_transactions().is_err());
}

#[test]
fn csv_file_level_errors() {
    let p = preview("", &krw(), &[]).unwrap();
    assert_eq!(p.errors[0].code, IssueCode::EmptyFile);
    let p = preview("instrument,quantity\nKRX:005930,1\n", &krw(), &[]).unwrap();
    let missing: Vec<_> = p.errors.iter().map(|e| (e.row, e.column, e.code)).collect();
    assert_eq!(
        missing,
        vec![
            (1, Some(Field::Date), IssueCode::MissingColumn),
            (1, Some(Field::Type), IssueCode::MissingColumn)
        ]
    );
}

#[test]
fn csv_headers_in_any_order_and_unknown_columns_ignored() {
    let file = "Memo,Price,Type,Trade Date,Symbol,Qty,Broker\nhello,150.5,buy,2024.03.04,NASDAQ:AAPL,0.5,x\n";
    let s = PortfolioSettings {
        base_currency: "USD".into(),
        cost_method: CostMethod::Fifo,
    };
    let p = preview(file, &s, &[]).unwrap();
    assert!(p.is_ok(), "{:?}", p.errors);
    assert_eq!(p.ignored_columns, vec!["Broker".to_owned()]);
    let t = &p.rows[0].transaction;
    assert_eq!(
        (t.trade_date, t.quantity, t.price, t.currency.as_str()),
        (day(2024, 3, 4), d("0.5"), d("150.5"), "USD")
    );
    assert_eq!(t.note, "hello");
}

fn sample() -> Vec<Transaction> {
    vec![
        deposit(1, day(2024, 1, 2), "10000000", KRW),
        with_costs(
            tx(
                2,
                TxKind::Buy,
                day(2024, 1, 2),
                "KRX:005930",
                "10",
                "70000",
                KRW,
            ),
            "1000",
            "0",
        ),
        with_fx(
            with_costs(
                tx(
                    3,
                    TxKind::Buy,
                    day(2024, 1, 3),
                    "NASDAQ:AAPL",
                    "2.5",
                    "150.25",
                    "USD",
                ),
                "1",
                "0",
            ),
            "1300.5",
        ),
        split(4, day(2024, 2, 1), "NASDAQ:AAPL", 4, 1, "USD"),
        with_costs(
            tx(
                5,
                TxKind::Sell,
                day(2024, 3, 4),
                "KRX:005930",
                "5",
                "90000",
                KRW,
            ),
            "500",
            "900",
        ),
        with_costs(
            tx(
                6,
                TxKind::Dividend,
                day(2024, 4, 20),
                "KRX:005930",
                "5",
                "361",
                KRW,
            ),
            "0",
            "278",
        ),
        with_fx(
            tx(
                7,
                TxKind::Sell,
                day(2024, 5, 1),
                "NASDAQ:AAPL",
                "3",
                "40",
                "USD",
            ),
            "1370",
        ),
        tx(8, TxKind::Withdrawal, day(2024, 6, 1), "", "1", "5000", KRW),
        tx(9, TxKind::Fee, day(2024, 6, 30), "", "1", "300", KRW),
    ]
}

#[test]
fn csv_round_trip_gives_identical_holdings() {
    for method in [CostMethod::MovingAverage, CostMethod::Fifo] {
        let s = PortfolioSettings {
            base_currency: KRW.into(),
            cost_method: method,
        };
        let txs = sample();
        let file = export(&txs);
        let imported = preview(&file, &s, &[])
            .unwrap()
            .into_new_transactions()
            .unwrap();
        assert_eq!(imported.len(), txs.len());
        let a = Ledger::build(&s, &txs).unwrap();
        let b = Ledger::build(&s, &imported).unwrap();
        assert_eq!(a, b);
        // And the export of the import is the same file.
        assert_eq!(export(&imported), file);
    }
}

#[test]
fn rows_already_imported_are_counted_not_merged() {
    let s = krw();
    let fill = |id| {
        tx(
            id,
            TxKind::Buy,
            day(2024, 1, 2),
            "KRX:005930",
            "10",
            "70000",
            KRW,
        )
    };
    // Two identical real fills on one day; only one was imported before.
    let existing = vec![fill(1)];
    let file = export(&[fill(1), fill(2)]);
    let p = preview(&file, &s, &existing).unwrap();
    assert!(p.is_ok());
    assert_eq!(p.rows.iter().filter(|r| r.duplicate).count(), 1);
    assert_eq!(p.into_new_transactions().unwrap().len(), 1);
    // Re-importing a file already fully imported adds nothing.
    let p = preview(&file, &s, &[fill(1), fill(2)]).unwrap();
    assert_eq!(p.into_new_transactions().unwrap().len(), 0);
}

/// A cell that a spreadsheet would run (`=HYPERLINK(…)`, `+1+1`, `@SUM`, `-2+3`) is
/// exported with a leading `'`, a plain (negative) number is not, and the import
/// reads the note back as it was.
#[test]
fn export_neutralises_formulas_and_imports_them_back() {
    let s = krw();
    let mut notes = Vec::new();
    let mut txs = Vec::new();
    for (i, note) in [
        "=HYPERLINK(\"http://evil.example\",\"click\")",
        "+1+1",
        "@SUM(A1:A2)",
        "-2+3",
        "\tTAB",
        "plain 메모",
        "-5",
    ]
    .iter()
    .enumerate()
    {
        let mut t = tx(
            i as i64 + 1,
            TxKind::Deposit,
            day(2024, 1, 2),
            "",
            "1",
            "1000",
            KRW,
        );
        t.note = (*note).to_owned();
        notes.push(*note);
        txs.push(t);
    }
    let file = export(&txs);
    let mut reader = csv::Reader::from_reader(file.as_bytes());
    for (record, note) in reader.records().zip(&notes) {
        let record = record.unwrap();
        let cell = record.get(10).unwrap();
        let dangerous =
            note.starts_with(['=', '+', '-', '@', '\t']) && note.parse::<f64>().is_err();
        assert_eq!(
            cell.starts_with('\''),
            dangerous,
            "{note:?} exported as {cell:?}"
        );
        assert_eq!(cell.trim_start_matches('\''), *note);
    }
    let back = preview(&file, &s, &[])
        .unwrap()
        .into_new_transactions()
        .unwrap();
    let read: Vec<&str> = back.iter().map(|t| t.note.as_str()).collect();
    assert_eq!(read, notes);
}

/// A file of more than 20,000 rows is refused whole, before any row is checked; one of
/// exactly 20,000 is read.
#[test]
fn a_file_past_the_row_cap_is_refused() {
    let row = "2024-01-02,deposit,,1,1000,,,KRW,,,\n";
    let header = "date,type,instrument,quantity,price,fee,tax,currency,fx_rate,ratio,note\n";
    let at_cap = format!("{header}{}", row.repeat(MAX_IMPORT_ROWS));
    let p = preview(&at_cap, &krw(), &[]).unwrap();
    assert_eq!(p.rows.len(), MAX_IMPORT_ROWS);
    let over = format!("{at_cap}{row}");
    assert_eq!(preview(&over, &krw(), &[]).unwrap_err(), FileTooLarge::Rows);
    // Bad rows count too.
    let bad = format!("{header}{}", "x,y\n".repeat(MAX_IMPORT_ROWS + 1));
    assert_eq!(preview(&bad, &krw(), &[]).unwrap_err(), FileTooLarge::Rows);
}

/// A stream larger than 5 MB is refused once the cap is passed, without reading the
/// rest (an endless stream ends).
#[test]
fn a_stream_past_the_byte_cap_is_refused() {
    struct Endless {
        header_sent: bool,
    }
    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let chunk: &[u8] = if self.header_sent {
                b"2024-01-02,deposit,,1,1000,,,KRW,,,a long note to fill the row\n"
            } else {
                self.header_sent = true;
                b"date,type,instrument,quantity,price,fee,tax,currency,fx_rate,ratio,note\n"
            };
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            Ok(n)
        }
    }
    // Long rows: the byte cap comes before the row cap.
    struct Wide(bool);
    impl std::io::Read for Wide {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !self.0 {
                self.0 = true;
                let h = b"date,type,note\n";
                buf[..h.len()].copy_from_slice(h);
                return Ok(h.len());
            }
            let n = buf.len().min(4096);
            buf[..n].fill(b'x');
            Ok(n)
        }
    }
    assert_eq!(
        parse(Wide(false), &krw(), 0).unwrap_err(),
        FileTooLarge::Bytes
    );
    assert_eq!(
        parse(Endless { header_sent: false }, &krw(), 0).unwrap_err(),
        FileTooLarge::Rows
    );
}

/// Rows previewed before are checked again against the ledger as it stands: imported
/// meanwhile, they are duplicates; a sell the ledger can no longer cover is an error.
#[test]
fn a_recheck_sees_what_changed_since_the_preview() {
    let s = krw();
    let buy = |id| {
        tx(
            id,
            TxKind::Buy,
            day(2024, 1, 2),
            "KRX:005930",
            "10",
            "70000",
            KRW,
        )
    };
    let file = export(&[buy(1)]);
    let p = preview(&file, &s, &[]).unwrap();
    assert_eq!(p.new_rows(), 1);
    // The same file was imported meanwhile (its row now has id 7).
    let mut imported = buy(7);
    imported.note = String::new();
    let rows = recheck(p.rows.clone(), &s, &[imported]).unwrap();
    assert!(rows[0].duplicate);
    // A sell previewed against 10 shares, which were sold meanwhile.
    let sell_file = export(&[tx(
        2,
        TxKind::Sell,
        day(2024, 1, 3),
        "KRX:005930",
        "10",
        "71000",
        KRW,
    )]);
    let preview_rows = preview(&sell_file, &s, &[buy(1)]).unwrap().rows;
    let sold = tx(
        3,
        TxKind::Sell,
        day(2024, 1, 3),
        "KRX:005930",
        "10",
        "72000",
        KRW,
    );
    let errors = recheck(preview_rows, &s, &[buy(1), sold]).unwrap_err();
    assert_eq!(
        errors[0].code,
        moat_portfolio::IssueCode::InsufficientQuantity
    );
}
