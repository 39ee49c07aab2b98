//! `moat backup FILE` and `moat restore FILE` (docs/scale-out.md) through the command
//! line's own entry point, against a running server that keeps writing: every write
//! acknowledged before the backup began is in the restored database, and the refusals
//! (an existing file, a data directory that has a database, a file that is not a Moat
//! backup, PostgreSQL) change nothing.

mod helpers;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use helpers::{send, signup, TestApp};
use moat_storage::testing::TestDatabase;
use reqwest::Method;
use serde_json::{json, Value};

/// Writers adding transactions while the backup runs.
const WRITERS: usize = 4;
/// Acknowledged writes wanted before the backup starts.
const WRITES_BEFORE: usize = 60;

struct Outcome {
    code: ExitCode,
    out: String,
    err: String,
}

/// `moat ARGS…`, in a blocking thread (the command runs its own runtime).
async fn moat(args: Vec<String>) -> Outcome {
    tokio::task::spawn_blocking(move || {
        let mut argv: Vec<String> = vec!["moat".into()];
        argv.extend(args);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = moat_server::cli::run(argv, &mut out, &mut err);
        Outcome {
            code,
            out: String::from_utf8(out).unwrap(),
            err: String::from_utf8(err).unwrap(),
        }
    })
    .await
    .unwrap()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

async fn transaction_ids(url: &str, user: i64, portfolio: i64) -> BTreeSet<i64> {
    let storage = moat_storage::connect(url, &Default::default())
        .await
        .expect("open the restored database");
    storage
        .transactions(user, portfolio)
        .await
        .unwrap()
        .iter()
        .map(|t| t.id)
        .collect()
}

#[tokio::test]
async fn a_backup_taken_during_writes_restores_every_write_acknowledged_before_it() {
    let db = TestDatabase::sqlite();
    let url = db.url.clone();
    let app = Arc::new(TestApp::spawn_with(db, |_| {}).await);
    let token = signup(&app, "backup@example.com", "backup").await;
    let me: Value = send(&app, Method::GET, "/api/me", Some(&token), None)
        .await
        .json()
        .await
        .unwrap();
    let user = me["user_id"].as_i64().unwrap();
    let r = send(
        &app,
        Method::POST,
        "/api/portfolios",
        Some(&token),
        Some(json!({"name": "백업", "base_currency": "KRW"})),
    )
    .await;
    let portfolio = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();

    // Writers: each acknowledged deposit's id, in order of acknowledgement.
    let acknowledged = Arc::new(Mutex::new(Vec::<i64>::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut writers = Vec::new();
    for w in 0..WRITERS {
        let (app, token, acknowledged, stop) = (
            app.clone(),
            token.clone(),
            acknowledged.clone(),
            stop.clone(),
        );
        writers.push(tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                n += 1;
                let r = send(
                    &app,
                    Method::POST,
                    &format!("/api/portfolios/{portfolio}/transactions"),
                    Some(&token),
                    Some(
                        json!({"kind": "deposit", "trade_date": "2025-01-02", "quantity": "1",
                        "price": format!("{}", 1000 + w * 100_000 + n), "currency": "KRW"}),
                    ),
                )
                .await;
                if r.status() == 201 {
                    let id = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
                    acknowledged.lock().unwrap().push(id);
                }
            }
        }));
    }
    while acknowledged.lock().unwrap().len() < WRITES_BEFORE {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("moat-backup.db");
    // Every write acknowledged by now must be in the backup.
    let before: Vec<i64> = acknowledged.lock().unwrap().clone();
    let backup = moat(vec![
        "backup".into(),
        s(&file),
        "--database-url".into(),
        url.clone(),
    ])
    .await;
    let during = acknowledged.lock().unwrap().len() - before.len();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for w in writers {
        w.await.unwrap();
    }
    assert_eq!(
        backup.code,
        ExitCode::SUCCESS,
        "{}{}",
        backup.out,
        backup.err
    );
    assert!(backup.out.starts_with("backed up "), "{}", backup.out);

    // A second backup to the same file is refused and leaves the first intact.
    let again = moat(vec![
        "backup".into(),
        s(&file),
        "--database-url".into(),
        url.clone(),
    ])
    .await;
    assert_eq!(again.code, ExitCode::FAILURE);
    assert!(again.err.contains("already exists"), "{}", again.err);

    // Restore into an empty data directory.
    let restored = tempfile::tempdir().unwrap();
    let restore = moat(vec![
        "restore".into(),
        s(&file),
        "--data-dir".into(),
        s(restored.path()),
    ])
    .await;
    assert_eq!(
        restore.code,
        ExitCode::SUCCESS,
        "{}{}",
        restore.out,
        restore.err
    );
    let restored_url = format!("sqlite://{}", restored.path().join("moat.db").display());
    let ids = transaction_ids(&restored_url, user, portfolio).await;
    let missing: Vec<&i64> = before.iter().filter(|id| !ids.contains(id)).collect();
    assert!(
        missing.is_empty(),
        "{} of {} writes acknowledged before the backup are missing: {missing:?}",
        missing.len(),
        before.len()
    );
    // The backup is a snapshot: nothing in it that the live database lacks.
    let live = transaction_ids(&url, user, portfolio).await;
    assert!(ids.is_subset(&live));
    eprintln!(
        "backup: {} writes before it, {during} while it ran, {} in the copy",
        before.len(),
        ids.len()
    );

    // The restored data directory serves: the member logs in and sees the portfolio.
    let served = TestApp::spawn_with(
        TestDatabase::sqlite_file(&restored.path().join("moat.db")),
        |_| {},
    )
    .await;
    let login = served
        .post_json(
            "/api/auth/login",
            &json!({"email": "backup@example.com", "password": helpers::PASSWORD}).to_string(),
        )
        .await;
    assert_eq!(login.status(), 200);
    let token = login.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let txs = send(
        &served,
        Method::GET,
        &format!("/api/portfolios/{portfolio}/transactions"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(txs.status(), 200);
    assert_eq!(
        txs.json::<Vec<Value>>().await.unwrap().len(),
        ids.len(),
        "the restored server shows what the copy holds"
    );

    // A restore into a data directory that has a database is refused and changes nothing.
    let refused = moat(vec![
        "restore".into(),
        s(&file),
        "--data-dir".into(),
        s(restored.path()),
    ])
    .await;
    assert_eq!(refused.code, ExitCode::FAILURE);
    assert!(
        refused.err.contains("already holds a database"),
        "{}",
        refused.err
    );
}

#[tokio::test]
async fn files_that_are_not_moat_backups_and_postgres_urls_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database at all, just text").unwrap();
    let empty_sqlite = dir.path().join("other.db");
    {
        let other = format!("sqlite://{}?mode=rwc", empty_sqlite.display());
        let pool = sqlx::SqlitePool::connect(&other).await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    for (file, why) in [
        (&junk, "not a database"),
        (
            &empty_sqlite,
            "an SQLite database without Moat's migrations",
        ),
    ] {
        let target = tempfile::tempdir().unwrap();
        let r = moat(vec![
            "restore".into(),
            s(file),
            "--data-dir".into(),
            s(target.path()),
        ])
        .await;
        assert_eq!(r.code, ExitCode::FAILURE, "{why}");
        assert!(
            r.err.contains("is not a Moat database backup"),
            "{why}: {}",
            r.err
        );
        assert!(
            !target.path().join("moat.db").exists(),
            "{why}: a refused restore leaves no database"
        );
    }
    let missing = moat(vec![
        "restore".into(),
        s(&dir.path().join("nope.db")),
        "--data-dir".into(),
        s(dir.path()),
    ])
    .await;
    assert_eq!(missing.code, ExitCode::FAILURE);

    let pg = moat(vec![
        "backup".into(),
        s(&dir.path().join("pg.db")),
        "--database-url".into(),
        "postgres://postgres@127.0.0.1:5432/test".into(),
    ])
    .await;
    assert_eq!(pg.code, ExitCode::FAILURE);
    assert!(pg.err.contains("pg_dump"), "{}", pg.err);
    assert!(!dir.path().join("pg.db").exists());
}
