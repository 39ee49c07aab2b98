//! Throw-away databases for tests: a SQLite file in a temporary directory, and, when
//! `MOAT_TEST_POSTGRES_URL` is set, a freshly created PostgreSQL database that is
//! dropped when the guard goes out of scope.

use std::sync::Arc;

use sqlx::{Connection, Executor, PgConnection};

use crate::{connect, Backend, ConnectOptions, Storage};

/// The environment variable naming the PostgreSQL server used by tests.
pub const POSTGRES_URL_VAR: &str = "MOAT_TEST_POSTGRES_URL";

/// A database that exists for one test. Dropping it removes the database.
pub struct TestDatabase {
    pub url: String,
    pub backend: Backend,
    _dir: Option<tempfile::TempDir>,
    pg_drop: Option<(String, String)>,
}

impl TestDatabase {
    /// A fresh SQLite database in its own temporary directory.
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("create temp dir");
        let url = format!("sqlite://{}", dir.path().join("moat.db").display());
        Self {
            url,
            backend: Backend::Sqlite,
            _dir: Some(dir),
            pg_drop: None,
        }
    }

    /// An existing SQLite database file (a restored backup), kept after the test.
    pub fn sqlite_file(path: &std::path::Path) -> Self {
        Self {
            url: format!("sqlite://{}", path.display()),
            backend: Backend::Sqlite,
            _dir: None,
            pg_drop: None,
        }
    }

    /// Another handle on this database (a second instance's, or a restarted one's),
    /// which does not remove it: the original does, so it must outlive this one.
    pub fn shared(&self) -> Self {
        Self {
            url: self.url.clone(),
            backend: self.backend,
            _dir: None,
            pg_drop: None,
        }
    }

    /// A fresh PostgreSQL database, or `None` (with a note on stderr) when
    /// `MOAT_TEST_POSTGRES_URL` is not set.
    pub async fn postgres() -> Option<Self> {
        let Ok(admin_url) = std::env::var(POSTGRES_URL_VAR) else {
            eprintln!("note: {POSTGRES_URL_VAR} is not set; skipping the PostgreSQL run");
            return None;
        };
        let name = format!("moat_test_{}", uuid::Uuid::new_v4().simple());
        let mut conn = PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("{POSTGRES_URL_VAR}={admin_url} is unreachable: {e}"));
        conn.execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .expect("create test database");
        let url = replace_database(&admin_url, &name);
        Some(Self {
            url,
            backend: Backend::Postgres,
            _dir: None,
            pg_drop: Some((admin_url, name)),
        })
    }

    /// Every backend available to this test run: SQLite always, PostgreSQL when set.
    pub async fn all() -> Vec<Self> {
        let mut dbs = vec![Self::sqlite()];
        dbs.extend(Self::postgres().await);
        dbs
    }

    /// Connects and migrates.
    pub async fn storage(&self) -> Arc<dyn Storage> {
        let storage = connect(&self.url, &ConnectOptions::default())
            .await
            .expect("connect");
        storage.migrate().await.expect("migrate");
        storage
    }

    /// Runs `sql` (one or more statements, one connection) behind storage's back:
    /// for tests that need a stored value storage itself would never write.
    pub async fn execute_raw(&self, sql: &str) {
        match self.backend {
            Backend::Sqlite => {
                let mut conn = sqlx::SqliteConnection::connect(&self.url)
                    .await
                    .expect("connect");
                sqlx::raw_sql(sql).execute(&mut conn).await.expect(sql);
                conn.close().await.expect("close");
            }
            Backend::Postgres => {
                let mut conn = PgConnection::connect(&self.url).await.expect("connect");
                sqlx::raw_sql(sql).execute(&mut conn).await.expect(sql);
                conn.close().await.expect("close");
            }
        }
    }
}

/// Column names that name a member without a foreign key (a recorded session's
/// `user_identifier` is the member's id as text, set once they bind it).
pub const MEMBER_COLUMN_NAMES: &[&str] = &["user_id", "user_identifier", "member_id", "author_id"];

impl TestDatabase {
    /// Every `(table, column)` of the schema that names a member: a foreign key to
    /// `users`, or a column called one of [`MEMBER_COLUMN_NAMES`]. Sorted.
    pub async fn member_columns(&self) -> Vec<(String, String)> {
        let (by_key, by_name) = match self.backend {
            Backend::Sqlite => (
                "SELECT m.name, p.\"from\" FROM sqlite_master m
                 JOIN pragma_foreign_key_list(m.name) p
                 WHERE m.type = 'table' AND p.\"table\" = 'users'",
                "SELECT m.name, c.name FROM sqlite_master m
                 JOIN pragma_table_info(m.name) c
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND c.name IN ({names})",
            ),
            Backend::Postgres => (
                "SELECT kcu.table_name::text, kcu.column_name::text
                 FROM information_schema.referential_constraints rc
                 JOIN information_schema.key_column_usage kcu
                   ON kcu.constraint_name = rc.constraint_name
                  AND kcu.constraint_schema = rc.constraint_schema
                 JOIN information_schema.constraint_column_usage ccu
                   ON ccu.constraint_name = rc.unique_constraint_name
                  AND ccu.constraint_schema = rc.unique_constraint_schema
                 WHERE ccu.table_name = 'users' AND kcu.table_schema = current_schema()",
                "SELECT table_name::text, column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema() AND column_name IN ({names})",
            ),
        };
        let names = MEMBER_COLUMN_NAMES
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ");
        let by_name = by_name.replace("{names}", &names);
        let mut found = Vec::new();
        for sql in [by_key, by_name.as_str()] {
            found.extend(self.rows_of_two_texts(sql).await);
        }
        found.sort();
        found.dedup();
        found
    }

    /// How many rows of `table` have `column` (compared as text) equal to `value`.
    pub async fn count_rows(&self, table: &str, column: &str, value: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE CAST({column} AS TEXT) = $1");
        match self.backend {
            Backend::Sqlite => {
                let mut conn = sqlx::SqliteConnection::connect(&self.url)
                    .await
                    .expect("connect");
                let n: i64 = sqlx::query_scalar(&sql)
                    .bind(value)
                    .fetch_one(&mut conn)
                    .await
                    .expect(&sql);
                conn.close().await.expect("close");
                n
            }
            Backend::Postgres => {
                let mut conn = PgConnection::connect(&self.url).await.expect("connect");
                let n: i64 = sqlx::query_scalar(&sql)
                    .bind(value)
                    .fetch_one(&mut conn)
                    .await
                    .expect(&sql);
                conn.close().await.expect("close");
                n
            }
        }
    }

    async fn rows_of_two_texts(&self, sql: &str) -> Vec<(String, String)> {
        match self.backend {
            Backend::Sqlite => {
                let mut conn = sqlx::SqliteConnection::connect(&self.url)
                    .await
                    .expect("connect");
                let rows = sqlx::query_as(sql).fetch_all(&mut conn).await.expect(sql);
                conn.close().await.expect("close");
                rows
            }
            Backend::Postgres => {
                let mut conn = PgConnection::connect(&self.url).await.expect("connect");
                let rows = sqlx::query_as(sql).fetch_all(&mut conn).await.expect(sql);
                conn.close().await.expect("close");
                rows
            }
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let Some((admin_url, name)) = self.pg_drop.take() else {
            return;
        };
        // Drop runs outside async context guarantees: use a private runtime on a thread.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async {
                let mut conn = PgConnection::connect(&admin_url).await?;
                conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
                    .await?;
                Ok::<_, sqlx::Error>(())
            })
            .map_err(std::io::Error::other)
        })
        .join();
    }
}

/// Replaces the database name (the URL path) of a PostgreSQL URL.
fn replace_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_end = base[scheme_end..]
        .find('/')
        .map(|i| scheme_end + i)
        .unwrap_or(base.len());
    let mut out = format!("{}/{}", &base[..host_end], name);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::replace_database;

    #[test]
    fn replaces_the_database_name_and_keeps_the_query() {
        assert_eq!(
            replace_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(replace_database("postgres://h", "x"), "postgres://h/x");
        assert_eq!(
            replace_database("postgres://h/db?sslmode=disable", "x"),
            "postgres://h/x?sslmode=disable"
        );
    }
}
