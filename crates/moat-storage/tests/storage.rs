//! One storage story, run against every backend: SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set. Each test gets its own fresh database.

use moat_storage::{connect, testing::TestDatabase, Backend, ConnectOptions, StorageError};

#[tokio::test]
async fn a_fresh_database_is_migrated_and_reports_current() {
    for db in TestDatabase::all().await {
        let storage = connect(&db.url, &ConnectOptions::default()).await.unwrap();
        let before = storage.migration_status().await.unwrap();
        assert!(
            !before.is_current(),
            "{:?}: nothing applied before migrate",
            db.backend
        );
        assert!(before.applied.is_empty(), "{:?}", db.backend);

        storage.migrate().await.unwrap();
        let after = storage.migration_status().await.unwrap();
        assert!(after.is_current(), "{:?}: {after:?}", db.backend);
        assert!(!after.expected.is_empty());
        storage.ping().await.unwrap();
    }
}

#[tokio::test]
async fn migrating_twice_changes_nothing() {
    for db in TestDatabase::all().await {
        let storage = db.storage().await;
        storage.put_setting("install.id", "abc").await.unwrap();
        storage.migrate().await.unwrap();
        assert_eq!(
            storage.get_setting("install.id").await.unwrap().as_deref(),
            Some("abc")
        );
        assert!(storage.migration_status().await.unwrap().is_current());
    }
}

#[tokio::test]
async fn settings_round_trip_and_overwrite() {
    for db in TestDatabase::all().await {
        let storage = db.storage().await;
        assert_eq!(
            storage.get_setting("missing").await.unwrap(),
            None,
            "{:?}",
            db.backend
        );
        storage.put_setting("k", "v1").await.unwrap();
        storage.put_setting("k", "v2").await.unwrap();
        assert_eq!(
            storage.get_setting("k").await.unwrap().as_deref(),
            Some("v2")
        );
        // Unicode and quotes survive unchanged.
        storage
            .put_setting("name", "모트 'quoted' \"x\"")
            .await
            .unwrap();
        assert_eq!(
            storage.get_setting("name").await.unwrap().as_deref(),
            Some("모트 'quoted' \"x\"")
        );
    }
}

#[tokio::test]
async fn insert_if_absent_keeps_the_first_value_under_concurrency() {
    for db in TestDatabase::all().await {
        let storage = db.storage().await;
        let mut tasks = Vec::new();
        for i in 0..16 {
            let s = storage.clone();
            tasks.push(tokio::spawn(async move {
                s.insert_setting_if_absent("install.id", &format!("value-{i}"))
                    .await
                    .unwrap()
            }));
        }
        let mut seen = Vec::new();
        for t in tasks {
            seen.push(t.await.unwrap());
        }
        let first = seen[0].clone();
        assert!(
            seen.iter().all(|v| *v == first),
            "{:?}: every caller sees the winner: {seen:?}",
            db.backend
        );
        assert_eq!(
            storage.get_setting("install.id").await.unwrap(),
            Some(first)
        );
    }
}

#[tokio::test]
async fn invalid_keys_are_refused_and_change_nothing() {
    for db in TestDatabase::all().await {
        let storage = db.storage().await;
        let long = "k".repeat(129);
        for key in ["", long.as_str()] {
            let err = storage.put_setting(key, "v").await.unwrap_err();
            assert!(
                matches!(err, StorageError::Invalid(_)),
                "{:?}: key of {} bytes: {err:?}",
                db.backend,
                key.len()
            );
            assert_eq!(storage.get_setting(key).await.unwrap(), None);
        }
    }
}

#[tokio::test]
async fn sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout() {
    let db = TestDatabase::sqlite();
    let storage = moat_storage::SqliteStorage::connect(&db.url, &ConnectOptions::default())
        .await
        .unwrap();
    let pool = storage.pool();
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(mode.to_lowercase(), "wal");
    let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(fk, 1, "foreign keys are enforced");
    let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(busy, 5000, "writers wait 5 s for the lock");
}

#[tokio::test]
async fn an_unsupported_url_is_a_clear_error() {
    assert!(matches!(
        connect("mysql://localhost/x", &ConnectOptions::default()).await,
        Err(StorageError::UnsupportedUrl)
    ));
    assert_eq!(
        Backend::from_url("postgresql://h/db"),
        Some(Backend::Postgres)
    );
    assert_eq!(Backend::from_url("sqlite://x.db"), Some(Backend::Sqlite));
}

/// Mode bits of a file, or `None` when it does not exist.
#[cfg(unix)]
fn mode_of(path: &std::path::Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

#[cfg(unix)]
#[tokio::test]
async fn the_sqlite_files_are_private_to_their_owner_whether_new_or_existing() {
    use std::os::unix::fs::PermissionsExt;
    // A SQLite-only property: PostgreSQL keeps its files itself.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("moat.db");
    let companions = ["moat.db-wal", "moat.db-shm"].map(|f| dir.path().join(f));
    let url = format!("sqlite://{}", db.display());

    let storage = connect(&url, &ConnectOptions::default()).await.unwrap();
    storage.migrate().await.unwrap();
    storage.put_setting("k", "v").await.unwrap();
    for file in std::iter::once(&db).chain(&companions) {
        assert_eq!(
            mode_of(file),
            Some(moat_storage::DATABASE_FILE_MODE),
            "{} of a new database",
            file.display()
        );
    }
    storage.close().await;

    // Files left world-readable by an older version are narrowed on the next start.
    for file in std::iter::once(&db).chain(&companions) {
        if file.exists() {
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    let storage = connect(&url, &ConnectOptions::default()).await.unwrap();
    storage.put_setting("k", "w").await.unwrap();
    for file in std::iter::once(&db).chain(&companions) {
        assert_eq!(
            mode_of(file),
            Some(moat_storage::DATABASE_FILE_MODE),
            "{} of an existing database",
            file.display()
        );
    }
    storage.close().await;
}
