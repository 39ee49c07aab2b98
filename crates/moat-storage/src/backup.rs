//! Online backup and restore of an SQLite database (`moat backup FILE`, `moat restore
//! FILE`; docs/scale-out.md).
//!
//! A backup is SQLite's `VACUUM INTO`: one read transaction over the live database,
//! written to a new file. It is a consistent snapshot (every write committed before
//! the backup's read began is in it, nothing half-written is), taken while the server
//! keeps writing (WAL mode: writers do not wait for the reader, and the reader does
//! not wait for them). The copy is then opened and checked (`PRAGMA integrity_check`,
//! Moat's migrations table) before it is reported good.
//!
//! A restore checks the file the same way and copies it into a data directory that has
//! no database yet: into a temporary file beside the target, made durable, then renamed
//! into place, so a restore that fails half-way leaves no database behind.
//!
//! PostgreSQL is backed up with its own tools (`pg_dump`, `pg_restore`).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, SqliteConnection};

/// How long the backup's connection waits for a lock held by a writer.
pub const BACKUP_BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// What a backup or restore wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupInfo {
    /// The file written.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The number of Moat migrations the database has applied.
    pub migrations: i64,
}

/// Why a backup or restore refused or failed. Nothing is left half-written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("backups of PostgreSQL use pg_dump and pg_restore (see docs/scale-out.md)")]
    NotSqlite,
    #[error("{0} already exists; choose a new file name")]
    DestinationExists(PathBuf),
    #[error("{0} already holds a database; restore into an empty data directory")]
    DatabaseExists(PathBuf),
    #[error("{path} is not a Moat database backup: {reason}")]
    NotABackup { path: PathBuf, reason: String },
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The database file of an SQLite URL, or [`BackupError::NotSqlite`].
pub fn sqlite_file(url: &str) -> Result<PathBuf, BackupError> {
    if !url.starts_with("sqlite:") || url.contains(":memory:") || url.contains("mode=memory") {
        return Err(BackupError::NotSqlite);
    }
    let options = SqliteConnectOptions::from_str(url)?;
    Ok(options.get_filename().to_path_buf())
}

/// Copies the live database of `url` to `dest` (a new file) while it may be written.
pub async fn backup_sqlite(url: &str, dest: &Path) -> Result<BackupInfo, BackupError> {
    let source = sqlite_file(url)?;
    if !source.is_file() {
        return Err(BackupError::NotABackup {
            path: source,
            reason: "there is no database file to back up".into(),
        });
    }
    if dest.exists() {
        return Err(BackupError::DestinationExists(dest.to_owned()));
    }
    let mut conn = SqliteConnectOptions::new()
        .filename(&source)
        .create_if_missing(false)
        .busy_timeout(BACKUP_BUSY_TIMEOUT)
        .connect()
        .await?;
    let target = dest.to_str().ok_or_else(|| BackupError::NotABackup {
        path: dest.to_owned(),
        reason: "the file name is not UTF-8".into(),
    })?;
    let written = sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(&mut conn)
        .await;
    conn.close().await?;
    if let Err(e) = written {
        let _ = std::fs::remove_file(dest);
        return Err(e.into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The copy holds password hashes and sessions, as the database does.
        let mode = std::fs::Permissions::from_mode(crate::DATABASE_FILE_MODE);
        std::fs::set_permissions(dest, mode).map_err(io(dest))?;
    }
    match check(dest).await {
        Ok(info) => Ok(info),
        Err(e) => {
            let _ = std::fs::remove_file(dest);
            Err(e)
        }
    }
}

/// Restores the backup `src` as the database of `url`, which must not exist yet.
pub async fn restore_sqlite(src: &Path, url: &str) -> Result<BackupInfo, BackupError> {
    let target = sqlite_file(url)?;
    let occupied = |p: &Path| std::fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false);
    let companions = ["-wal", "-shm", "-journal"].map(|s| {
        let mut name = target.clone().into_os_string();
        name.push(s);
        PathBuf::from(name)
    });
    if occupied(&target) || companions.iter().any(|p| occupied(p)) {
        return Err(BackupError::DatabaseExists(target));
    }
    check(src).await?;
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut partial = target.clone().into_os_string();
    partial.push(".restoring");
    let partial = PathBuf::from(partial);
    let copied = (|| -> std::io::Result<()> {
        std::fs::copy(src, &partial)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::Permissions::from_mode(crate::DATABASE_FILE_MODE);
            std::fs::set_permissions(&partial, mode)?;
        }
        std::fs::File::open(&partial)?.sync_all()?;
        // An empty database file left by an earlier start is replaced.
        for p in &companions {
            let _ = std::fs::remove_file(p);
        }
        std::fs::rename(&partial, &target)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(io(&target)(e));
    }
    check(&target).await
}

/// Opens `path` read-only and checks that it is a whole Moat database.
async fn check(path: &Path) -> Result<BackupInfo, BackupError> {
    let bad = |reason: String| BackupError::NotABackup {
        path: path.to_owned(),
        reason,
    };
    let bytes = std::fs::metadata(path).map_err(io(path))?.len();
    let mut conn: SqliteConnection = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .create_if_missing(false)
        .connect()
        .await
        .map_err(|e| bad(e.to_string()))?;
    let result = async {
        let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&mut conn)
            .await
            .map_err(|e| bad(e.to_string()))?;
        if verdict != "ok" {
            return Err(bad(format!("the integrity check found: {verdict}")));
        }
        let migrations: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
                .fetch_one(&mut conn)
                .await
                .map_err(|_| bad("it has no Moat migrations".into()))?;
        if migrations == 0 {
            return Err(bad("it has no Moat migrations".into()));
        }
        Ok(BackupInfo {
            path: path.to_owned(),
            bytes,
            migrations,
        })
    }
    .await;
    let _ = conn.close().await;
    result
}
