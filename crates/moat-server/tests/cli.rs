//! `moat import instruments` and `moat import prices` through the command line's own
//! entry point (`moat_server::cli::run`, what the `moat` binary's `main` runs: argument
//! parsing, configuration, the database, exit codes), against a fresh data directory
//! each; the result is read back from the database and, once, served by the real
//! application.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use chrono::NaiveDate;
use moat_market::{catalog, InstrumentId};
use moat_storage::Storage;

/// What one command did.
struct Outcome {
    code: ExitCode,
    out: String,
    err: String,
}

impl Outcome {
    fn assert_success(&self) {
        assert_eq!(
            self.code,
            ExitCode::SUCCESS,
            "stdout:\n{}\nstderr:\n{}",
            self.out,
            self.err
        );
    }

    fn assert_failure(&self) {
        assert_eq!(
            self.code,
            ExitCode::FAILURE,
            "stdout:\n{}\nstderr:\n{}",
            self.out,
            self.err
        );
    }
}

/// `moat ARGS… --data-dir DIR`.
fn moat(data: &Path, args: &[&str]) -> Outcome {
    let mut argv: Vec<String> = vec!["moat".into()];
    argv.extend(args.iter().map(|a| (*a).to_owned()));
    argv.push("--data-dir".into());
    argv.push(data.display().to_string());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = moat_server::cli::run(argv, &mut out, &mut err);
    Outcome {
        code,
        out: String::from_utf8(out).unwrap(),
        err: String::from_utf8(err).unwrap(),
    }
}

fn market_fixture(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../moat-market/tests/fixtures")
        .join(path)
        .display()
        .to_string()
}

fn database(data: &Path) -> PathBuf {
    data.join("moat.db")
}

fn id(s: &str) -> InstrumentId {
    s.parse().unwrap()
}

fn date(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

/// Runs `f` against the data directory's database.
fn with_storage<T>(data: &Path, f: impl AsyncFnOnce(&dyn Storage) -> T) -> T {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let url = format!("sqlite://{}", database(data).display());
        let storage = moat_storage::connect(&url, &moat_storage::ConnectOptions::default())
            .await
            .unwrap();
        let out = f(storage.as_ref()).await;
        storage.close().await;
        out
    })
}

#[test]
fn importing_instruments_writes_them_and_the_server_then_serves_them() {
    let data = tempfile::tempdir().unwrap();
    let file = market_fixture("listings/curated-good.csv");
    let first = moat(data.path(), &["import", "instruments", &file]);
    first.assert_success();
    assert!(
        first
            .out
            .contains("parsed 5 rows (curated instrument list)"),
        "{}",
        first.out
    );
    assert!(
        first
            .out
            .contains("imported 5 instruments (5 new, 0 updated), skipped 0"),
        "{}",
        first.out
    );
    let curated = catalog::curated().len();
    assert!(
        first
            .out
            .contains(&format!("also added {} curated instruments", curated - 5)),
        "{}",
        first.out
    );

    let (count, samsung) = with_storage(data.path(), async |s| {
        (
            s.list_instruments().await.unwrap().len(),
            s.instrument(&id("KRX:005930")).await.unwrap().unwrap(),
        )
    });
    assert_eq!(count, curated, "the curated list and the import");
    assert_eq!(samsung.name_en, "Samsung Electronics");
    assert_eq!(
        samsung.reference_price,
        Some(70500.into()),
        "the import's price"
    );
    assert_eq!(samsung.aliases, ["삼전", "samsung"]);
    assert_eq!(samsung.popularity, 1000);

    let again = moat(data.path(), &["import", "instruments", &file]);
    again.assert_success();
    assert!(
        again
            .out
            .contains("imported 5 instruments (0 new, 5 updated), skipped 0"),
        "{}",
        again.out
    );
    assert!(!again.out.contains("also added"), "{}", again.out);

    // The real application on that data directory serves what was imported.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let config = moat_server::Config {
            port: 0,
            data_dir: data.path().to_path_buf(),
            market: moat_server::market::MarketConfig {
                backfill_years: 0,
                ..Default::default()
            },
            ..moat_server::Config::default()
        };
        let app = moat_server::Application::build(config).await.unwrap();
        let base = format!("http://{}", app.local_addr());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(app.run_until(async move {
            let _ = rx.await;
        }));
        let body: serde_json::Value = reqwest::get(format!("{base}/api/instruments/KRX:005930"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(body["name_en"], "Samsung Electronics", "{body}");
        assert_eq!(body["name_ko"], "삼성전자", "{body}");
        let _ = tx.send(());
        let _ = server.await;
    });
}

#[test]
fn a_bad_instrument_file_exits_non_zero_naming_each_row_and_writes_nothing() {
    let data = tempfile::tempdir().unwrap();
    let file = market_fixture("listings/curated-bad.csv");
    let outcome = moat(data.path(), &["import", "instruments", &file]);
    outcome.assert_failure();
    for expected in [
        "is refused, nothing was written",
        "4 problems:",
        "row 3: id `KRX:5930`",
        "row 4: unknown kind `fund`",
        "row 5: reference_price must be positive",
        "row 6: duplicate id KRX:005930: also on row 2",
    ] {
        assert!(
            outcome.err.contains(expected),
            "{expected}:\n{}",
            outcome.err
        );
    }
    assert!(
        !database(data.path()).exists(),
        "the database is not even opened for a refused file"
    );
}

#[test]
fn sp500_symbols_go_on_the_exchange_given() {
    let data = tempfile::tempdir().unwrap();
    let file = market_fixture("listings/sp500-small.csv");
    let outcome = moat(
        data.path(),
        &["import", "instruments", &file, "--exchange", "nasdaq"],
    );
    outcome.assert_success();
    let brk = with_storage(data.path(), async |s| {
        s.instrument(&id("NASDAQ:BRK.B")).await.unwrap()
    });
    assert_eq!(brk.unwrap().name_en, "Berkshire Hathaway");

    let wrong = moat(
        data.path(),
        &["import", "instruments", &file, "--exchange", "krx"],
    );
    assert_eq!(
        wrong.code,
        ExitCode::from(2),
        "a usage error: {}",
        wrong.err
    );
}

#[test]
fn importing_prices_writes_candles_per_instrument_and_fx_rates() {
    let data = tempfile::tempdir().unwrap();
    let file = market_fixture("history/many-good.csv");
    let first = moat(data.path(), &["import", "prices", &file]);
    first.assert_success();
    assert!(
        first
            .out
            .contains("imported 8 daily prices for 5 instruments (8 new, 0 replaced), skipped 0"),
        "{}",
        first.out
    );
    assert!(
        first.out.contains("added 5 curated instruments"),
        "a fresh database gets the curated instruments it needs: {}",
        first.out
    );
    assert!(first.out.contains("(and 1 FX rate)"), "{}", first.out);
    assert!(
        first.out.contains(
            r#"note: with [market] fx = "simulator", krx = "simulator", us = "simulator""#
        ),
        "the default configuration simulates every market: {}",
        first.out
    );

    let (samsung, rates) = with_storage(data.path(), async |s| {
        (
            s.daily_candles(&id("KRX:005930"), date("2024-01-01"), date("2024-01-31"))
                .await
                .unwrap(),
            s.fx_rates("USD", "KRW", date("2024-01-01"), date("2024-01-31"))
                .await
                .unwrap(),
        )
    });
    let closes: Vec<String> = samsung.iter().map(|c| c.close.to_string()).collect();
    assert_eq!(closes, ["79600", "77000", "76600"]);
    assert_eq!(samsung[0].volume, 17_142_847);
    assert_eq!(rates.len(), 1);
    assert_eq!(rates[0].rate.to_string(), "1303.95");

    let again = moat(data.path(), &["import", "prices", &file]);
    again.assert_success();
    assert!(again.out.contains("(0 new, 8 replaced)"), "{}", again.out);

    let yahoo = moat(
        data.path(),
        &[
            "import",
            "prices",
            &market_fixture("history/yahoo-aapl.csv"),
            "--id",
            "NASDAQ:AAPL",
        ],
    );
    yahoo.assert_success();
    assert!(
        yahoo.out.contains("(Yahoo Finance export)"),
        "{}",
        yahoo.out
    );
    assert!(yahoo.out.contains("rounded 14 prices"), "{}", yahoo.out);
    assert!(
        yahoo
            .out
            .contains("imported 4 daily prices for 1 instrument (2 new, 2 replaced), skipped 1"),
        "{}",
        yahoo.out
    );
    let aapl = with_storage(data.path(), async |s| {
        s.daily_candles(&id("NASDAQ:AAPL"), date("2024-01-01"), date("2024-01-31"))
            .await
            .unwrap()
    });
    let closes: Vec<String> = aapl.iter().map(|c| c.close.to_string()).collect();
    assert_eq!(closes, ["185.64", "184.25", "181.91", "185.56"]);
}

#[test]
fn a_bad_price_file_exits_non_zero_naming_each_row_and_writes_nothing() {
    let data = tempfile::tempdir().unwrap();
    let outcome = moat(
        data.path(),
        &["import", "prices", &market_fixture("history/bad-rows.csv")],
    );
    outcome.assert_failure();
    for expected in [
        "is refused, nothing was written: 13 problems:",
        "row 3: unknown instrument KRX:999999",
        "row 8: high 78000 is below the open 78200",
        "row 13: duplicate date 2024-01-02 for KRX:005930: also on row 2",
        "row 15: open is empty",
    ] {
        assert!(
            outcome.err.contains(expected),
            "{expected}:\n{}",
            outcome.err
        );
    }
    let (instruments, candles) = with_storage(data.path(), async |s| {
        (
            s.list_instruments().await.unwrap().len(),
            s.latest_candle_dates().await.unwrap().len(),
        )
    });
    assert_eq!(
        (instruments, candles),
        (0, 0),
        "not even row 2, which was good"
    );
}

#[test]
fn usage_errors_and_unreadable_files() {
    let data = tempfile::tempdir().unwrap();
    let file = market_fixture("history/one-bom.csv");
    let bad_id = moat(data.path(), &["import", "prices", &file, "--id", "KRX"]);
    assert_eq!(bad_id.code, ExitCode::from(2), "{}", bad_id.err);
    assert!(bad_id.err.contains("EXCHANGE:SYMBOL"), "{}", bad_id.err);

    let no_id = moat(data.path(), &["import", "prices", &file]);
    no_id.assert_failure();
    assert!(
        no_id.err.contains("row 1: the file has no id column"),
        "{}",
        no_id.err
    );

    let missing = moat(
        data.path(),
        &["import", "prices", "/nonexistent/prices.csv"],
    );
    missing.assert_failure();
    assert!(
        missing.err.contains("cannot read /nonexistent/prices.csv"),
        "{}",
        missing.err
    );
}

#[test]
fn a_large_price_file_reports_progress_and_its_time() {
    let data = tempfile::tempdir().unwrap();
    let ids: Vec<String> = catalog::curated()
        .iter()
        .filter(|i| {
            i.id.exchange() == moat_market::Exchange::Krx && i.kind == moat_market::Kind::Stock
        })
        .take(20)
        .map(|i| i.id.to_string())
        .collect();
    assert_eq!(ids.len(), 20);
    let days: Vec<NaiveDate> = date("2021-01-01")
        .iter_days()
        .filter(|d| moat_market::calendar::is_trading_day(moat_market::Market::Krx, *d))
        .take(1_000)
        .collect();
    let mut text = String::from("id,date,open,high,low,close,volume\n");
    for (n, instrument) in ids.iter().enumerate() {
        for (k, day) in days.iter().enumerate() {
            let close = 10_000 + ((n * 37 + k * 11) % 500) * 10;
            text.push_str(&format!(
                "{instrument},{day},{},{},{},{close},{}\n",
                close - 10,
                close + 50,
                close - 60,
                100_000 + k
            ));
        }
    }
    let file = data.path().join("large.csv");
    std::fs::write(&file, &text).unwrap();

    let started = Instant::now();
    let outcome = moat(
        data.path(),
        &["import", "prices", &file.display().to_string()],
    );
    let took = started.elapsed();
    outcome.assert_success();
    println!(
        "imported 20,000 daily prices ({} KiB) in {took:.2?}:\n{}",
        text.len() / 1024,
        outcome.out
    );
    assert!(outcome.out.contains("parsing: 50 %"), "{}", outcome.out);
    assert!(
        outcome
            .out
            .contains("writing: 50 % (10,000 of 20,000 prices)"),
        "{}",
        outcome.out
    );
    assert!(
        outcome
            .out
            .contains("imported 20,000 daily prices for 20 instruments (20,000 new, 0 replaced)"),
        "{}",
        outcome.out
    );
    let latest = with_storage(data.path(), async |s| {
        s.latest_candle_dates().await.unwrap()
    });
    assert_eq!(latest.len(), 20);
    assert!(latest.iter().all(|(_, d)| d == days.last().unwrap()));
}

#[test]
fn the_real_krx_listing_imports_about_2769_instruments() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/listings/krx-listing-2026-03-20.csv");
    if !path.exists() {
        println!(
            "skipped: {} is not there (the shared data set is optional)",
            path.display()
        );
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let outcome = moat(
        data.path(),
        &["import", "instruments", &path.display().to_string()],
    );
    let took = started.elapsed();
    outcome.assert_success();
    println!("KRX listing imported in {took:.2?}:\n{}", outcome.out);
    let summary = outcome
        .out
        .lines()
        .find(|l| l.starts_with("imported "))
        .unwrap();
    let imported: usize = summary["imported ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(
        (2_700..=2_850).contains(&imported),
        "about 2,769 instruments: {summary}"
    );
    let (count, hynix, samsung) = with_storage(data.path(), async |s| {
        (
            s.list_instruments().await.unwrap().len(),
            s.instrument(&id("KRX:000660")).await.unwrap().unwrap(),
            s.instrument(&id("KRX:005930")).await.unwrap().unwrap(),
        )
    });
    assert!(count >= imported);
    assert_eq!(hynix.name_ko, "SK하이닉스");
    assert_eq!(
        samsung.name_en, "Samsung Electronics",
        "the curated English name survives a listing without one"
    );
}

#[test]
fn admin_flags_work_after_the_subcommand_like_every_other_flag() {
    let data = tempfile::tempdir().unwrap();
    // `moat admin ban EMAIL --data-dir DIR` (the helper puts --data-dir last).
    let missing = moat(data.path(), &["admin", "ban", "ant@moat.test"]);
    missing.assert_failure();
    assert!(
        missing
            .err
            .contains("no member has the email ant@moat.test"),
        "the flag was taken and the database opened: {}",
        missing.err
    );
    with_storage(data.path(), async |s| {
        s.create_user(&moat_storage::NewUser {
            chat_user_id: uuid::Uuid::new_v4(),
            email: Some("ant@moat.test".into()),
            nickname: "ant".into(),
            nickname_folded: "ant".into(),
            password_hash: None,
            identity: None,
            created_at: chrono::Utc::now(),
        })
        .await
        .unwrap();
    });
    let banned = moat(data.path(), &["admin", "ban", "ant@moat.test"]);
    banned.assert_success();
    assert!(banned.out.contains("is banned"), "{}", banned.out);
    let user = with_storage(data.path(), async |s| {
        s.user_by_email("ant@moat.test").await.unwrap().unwrap()
    });
    assert!(
        user.banned_at.is_some(),
        "banned in the data directory given"
    );
    // Before the subcommand works too, and so does the top-level position.
    let dir = data.path().display().to_string();
    for args in [
        vec![
            "moat",
            "admin",
            "--data-dir",
            &dir,
            "unban",
            "ant@moat.test",
        ],
        vec!["moat", "--data-dir", &dir, "admin", "ban", "ant@moat.test"],
    ] {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = moat_server::cli::run(args.clone(), &mut out, &mut err);
        assert_eq!(
            code,
            ExitCode::SUCCESS,
            "{args:?}: {}",
            String::from_utf8_lossy(&err)
        );
    }
    let user = with_storage(data.path(), async |s| {
        s.user_by_email("ant@moat.test").await.unwrap().unwrap()
    });
    assert!(
        user.banned_at.is_some(),
        "banned again through the top-level flag"
    );
}
