//! The shared limits' storage, run against every backend (SQLite always, PostgreSQL
//! when `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database. The limiters'
//! semantics are tested in the server (`accounts::rate_limit`); here: the steps'
//! atomicity under parallel callers over several pools, the sweep and bad rows.

use std::sync::Arc;

use moat_storage::{testing::TestDatabase, Limited, LoginRule, Storage, StorageError};

const T0: i64 = 1_790_000_000_000;

const RULE: LoginRule = LoginRule {
    free_failures: 5,
    first_backoff_ms: 1_000,
    max_backoff_ms: 60_000,
};

fn keys(account: &str) -> Vec<String> {
    vec!["ip:127.0.0.1".to_owned(), format!("account:{account}")]
}

#[tokio::test]
async fn a_reservation_is_charged_to_every_key_or_to_none() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        // Keys are charged together and in any order given.
        let mut reversed = keys("a@x.io");
        reversed.reverse();
        for _ in 0..RULE.free_failures {
            let got = s.reserve_login_attempt(&reversed, &RULE, T0).await.unwrap();
            assert!(matches!(got, Limited::Granted(_)), "{:?}", db.backend);
        }
        assert_eq!(
            s.reserve_login_attempt(&keys("a@x.io"), &RULE, T0)
                .await
                .unwrap(),
            Limited::Wait(1_000)
        );
        // The blocked IP refuses another account's attempt and charges it nothing.
        assert_eq!(
            s.reserve_login_attempt(&keys("b@x.io"), &RULE, T0)
                .await
                .unwrap(),
            Limited::Wait(1_000)
        );
        let other = vec!["ip:10.0.0.1".to_owned(), "account:b@x.io".to_owned()];
        assert_eq!(
            s.reserve_login_attempt(&other, &RULE, T0).await.unwrap(),
            Limited::Granted(vec![
                ("account:b@x.io".to_owned(), 1),
                ("ip:10.0.0.1".to_owned(), 1)
            ]),
            "{:?}: b's account was not charged by the refused attempt",
            db.backend
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_steps_over_several_pools_are_atomic() {
    const TASKS: usize = 120;
    for db in TestDatabase::all().await {
        // Three pools: three instances.
        let pools: Vec<Arc<dyn Storage>> =
            vec![db.storage().await, db.storage().await, db.storage().await];
        let barrier = Arc::new(tokio::sync::Barrier::new(TASKS));
        let tasks: Vec<_> = (0..TASKS)
            .map(|i| {
                let (s, barrier) = (pools[i % pools.len()].clone(), barrier.clone());
                tokio::spawn(async move {
                    barrier.wait().await;
                    let login = s.reserve_login_attempt(&keys("a@x.io"), &RULE, T0).await;
                    let window = s
                        .take_window_event("signup:1.2.3.4", 7, 3_600_000, T0)
                        .await;
                    let budget = s
                        .charge_budget("ingest:1.2.3.4", 10, 95, 3_600_000, T0)
                        .await;
                    (login.unwrap(), window.unwrap(), budget.unwrap())
                })
            })
            .collect();
        let (mut logins, mut events, mut charges) = (0, 0, 0);
        for t in tasks {
            let (login, window, budget) = t.await.unwrap();
            logins += usize::from(matches!(login, Limited::Granted(_)));
            events += usize::from(window == Limited::Granted(()));
            charges += usize::from(budget == Limited::Granted(()));
        }
        assert_eq!(logins, RULE.free_failures as usize, "{:?}", db.backend);
        assert_eq!(events, 7, "{:?}", db.backend);
        assert_eq!(charges, 9, "{:?}", db.backend);
    }
}

#[tokio::test]
async fn settling_a_success_clears_and_a_failure_restarts_the_wait() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let k = keys("a@x.io");
        let mut last = Vec::new();
        for _ in 0..RULE.free_failures {
            match s.reserve_login_attempt(&k, &RULE, T0).await.unwrap() {
                Limited::Granted(charged) => last = charged,
                other => panic!("{other:?}"),
            }
        }
        s.settle_login_attempt(&last, false, &RULE, T0 + 700)
            .await
            .unwrap();
        assert_eq!(
            s.reserve_login_attempt(&k, &RULE, T0 + 700).await.unwrap(),
            Limited::Wait(1_000),
            "{:?}: the wait runs from the failure",
            db.backend
        );
        s.settle_login_attempt(&last, true, &RULE, T0 + 800)
            .await
            .unwrap();
        assert!(matches!(
            s.reserve_login_attempt(&k, &RULE, T0 + 800).await.unwrap(),
            Limited::Granted(c) if c.iter().all(|(_, n)| *n == 1)
        ));
    }
}

#[tokio::test]
async fn a_returned_event_frees_its_slot() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        for at in [T0, T0 + 1] {
            assert_eq!(
                s.take_window_event("k", 2, 1_000, at).await.unwrap(),
                Limited::Granted(())
            );
        }
        assert_eq!(
            s.take_window_event("k", 2, 1_000, T0 + 2).await.unwrap(),
            Limited::Wait(998)
        );
        s.return_window_event("k", T0 + 1).await.unwrap();
        // Returning what is not there (or a key never seen) changes nothing.
        s.return_window_event("k", T0 + 5).await.unwrap();
        s.return_window_event("never", T0).await.unwrap();
        assert_eq!(
            s.take_window_event("k", 2, 1_000, T0 + 3).await.unwrap(),
            Limited::Granted(())
        );
        assert_eq!(
            s.take_window_event("k", 2, 1_000, T0 + 3).await.unwrap(),
            Limited::Wait(997),
            "{:?}",
            db.backend
        );
    }
}

/// Rows of `table`, read behind storage's back.
async fn count(db: &TestDatabase, table: &str) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    match db.backend {
        moat_storage::Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
            sqlx::query_scalar(&sql).fetch_one(&pool).await.unwrap()
        }
        moat_storage::Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
            sqlx::query_scalar(&sql).fetch_one(&pool).await.unwrap()
        }
    }
}

#[tokio::test]
async fn the_sweep_deletes_expired_rows_only_in_bounded_batches() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let k = keys("a@x.io");
        assert!(matches!(
            s.reserve_login_attempt(&k, &RULE, T0).await.unwrap(),
            Limited::Granted(_)
        ));
        for i in 0..5 {
            let key = format!("k{i}");
            s.take_window_event(&key, 3, 10_000, T0).await.unwrap();
            s.charge_budget(&key, 1, 100, 10_000, T0).await.unwrap();
        }
        // Nothing has expired yet.
        assert_eq!(s.delete_expired_limits(T0 + 9_999, 100).await.unwrap(), 0);
        // Windows and budgets expire with their window, in batches of two per table.
        assert_eq!(s.delete_expired_limits(T0 + 10_000, 2).await.unwrap(), 4);
        assert_eq!(count(&db, "limit_windows").await, 3);
        assert_eq!(count(&db, "limit_failures").await, 2, "not yet quiet");
        assert_eq!(s.delete_expired_limits(T0 + 10_000, 100).await.unwrap(), 6);
        // Failures once quiet for the longest wait.
        assert_eq!(s.delete_expired_limits(T0 + 60_000, 100).await.unwrap(), 2);
        for table in ["limit_failures", "limit_windows", "limit_budgets"] {
            assert_eq!(count(&db, table).await, 0, "{table}");
        }
        // A swept key starts afresh.
        assert_eq!(
            s.reserve_login_attempt(&k, &RULE, T0 + 60_000)
                .await
                .unwrap(),
            Limited::Granted(vec![
                ("account:a@x.io".to_owned(), 1),
                ("ip:127.0.0.1".to_owned(), 1)
            ])
        );
    }
}

#[tokio::test]
async fn a_malformed_stored_window_is_invalid_and_changes_nothing() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        db.execute_raw(
            "INSERT INTO limit_windows (key, events, expires_at_ms) VALUES ('bad', '1,x', 0)",
        )
        .await;
        assert!(matches!(
            s.take_window_event("bad", 3, 1_000, T0).await,
            Err(StorageError::Invalid(_))
        ));
        assert!(matches!(
            s.return_window_event("bad", 1).await,
            Err(StorageError::Invalid(_))
        ));
        assert_eq!(count(&db, "limit_windows").await, 1);
    }
}
