//! The command line: `moat` (serve), `moat config`, `moat openapi`, `moat admin …`,
//! `moat import instruments FILE`, `moat import prices FILE`.
//!
//! [`main`] parses the process's arguments; [`run`] does the same for given arguments
//! and writers (what the tests call). Both go through one dispatcher.

use std::{
    collections::{HashMap, HashSet},
    ffi::OsString,
    fs::File,
    io::{BufReader, Write},
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use clap::{Parser, Subcommand};
use moat_market::{
    catalog::{self, ImportErrors, ImportOptions, ListingFormat, UsExchange},
    history::{self, PriceImportOptions, Progress},
    ticks::PriceGrid,
    Exchange, Instrument, InstrumentId, Kind, Market,
};
use moat_storage::Storage;

use crate::config::{Config, Overrides};

#[derive(Parser, Debug)]
#[command(
    name = "moat",
    version,
    about = "Moat: every portfolio, dividend, market story and investor conversation in one place."
)]
struct Cli {
    /// A TOML configuration file (default: ./moat.toml when present).
    #[arg(long, global = true, env = "MOAT_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(clap::Args, Debug, Default)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long)]
    host: Option<std::net::IpAddr>,
    /// Port to listen on (0 picks a free port).
    #[arg(long)]
    port: Option<u16>,
    /// Folder for the SQLite database and other files.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// postgres://… to use PostgreSQL instead of SQLite.
    #[arg(long)]
    database_url: Option<String>,
    /// Serve the web-view host page (development and tests).
    #[arg(long)]
    webview_host: Option<bool>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the server (the default).
    Serve(ServeArgs),
    /// Print the commented default configuration.
    Config,
    /// Print the OpenAPI 3.1 document of the JSON API.
    Openapi,
    /// Print every route: method, path, handler and who may call it.
    Routes,
    /// Manage members (uses the same configuration and database as `serve`).
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
        #[command(flatten)]
        database: AdminArgs,
    },
    /// Load instruments or daily prices from a CSV file into the database.
    ///
    /// Uses the same configuration and database as `serve`. All or nothing: a file with
    /// one bad row is refused, every problem is listed by row and nothing is written.
    Import {
        #[command(subcommand)]
        command: ImportCommand,
    },
    /// Copy the SQLite database to FILE while Moat runs (a consistent snapshot).
    ///
    /// Uses the same configuration as `serve`. FILE must not exist. For PostgreSQL use
    /// pg_dump (docs/scale-out.md).
    Backup {
        /// The new backup file.
        file: PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// News: fetch feeds now, with progress (uses the same configuration and database
    /// as `serve`).
    News {
        #[command(subcommand)]
        command: NewsCommand,
    },
    /// Restore a backup made by `moat backup` into a data directory without a database.
    ///
    /// Start Moat afterwards; it applies any newer migrations to the restored database.
    Restore {
        /// The backup file.
        file: PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
    },
}

/// `moat import …`.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum ImportCommand {
    /// Instruments: the curated format, a KRX listing or the S&P 500 constituents.
    ///
    /// The format is recognised from the header: the curated format (id,kind,board,…),
    /// a KRX listing (Code,ISU_CD,Name,Market,…) or the S&P 500 constituents
    /// (Symbol,Security,GICS Sector,…). Existing instruments are updated, never deleted.
    Instruments {
        /// The CSV file (UTF-8; a byte-order mark is fine).
        file: PathBuf,
        /// Put every symbol of an S&P 500 constituents file on this exchange (default:
        /// NASDAQ for the members Moat knows to be listed there, NYSE for the rest).
        #[arg(long, value_enum)]
        exchange: Option<UsListing>,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Daily prices: id,date,open,high,low,close,volume (one instrument's: --id).
    ///
    /// `id,date,open,high,low,close,volume` for any number of instruments, or
    /// `date,open,high,low,close,volume` (or a Yahoo Finance export,
    /// `Date,Open,High,Low,Close,Adj Close,Volume`; Close is used) of the instrument
    /// given by --id. Dates YYYY-MM-DD, prices plain decimals, volumes whole numbers;
    /// the instruments must be known.
    Prices {
        /// The CSV file (UTF-8; a byte-order mark is fine).
        file: PathBuf,
        /// The instrument of a file without an id column, e.g. KRX:005930.
        #[arg(long)]
        id: Option<InstrumentId>,
        #[command(flatten)]
        database: DatabaseArgs,
    },
}

/// `moat news …`.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum NewsCommand {
    /// Run one poll cycle now: the feeds that are due (every enabled feed with --all,
    /// or one with --feed), printing each feed's result as it finishes.
    Fetch {
        /// Fetch every enabled feed, due or not.
        #[arg(long)]
        all: bool,
        /// Fetch only this feed (its id on /operator/news).
        #[arg(long)]
        feed: Option<i64>,
        #[command(flatten)]
        database: DatabaseArgs,
    },
}

/// Where `--exchange` puts US symbols.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsListing {
    Nyse,
    Nasdaq,
}

impl From<UsListing> for Exchange {
    fn from(listing: UsListing) -> Self {
        match listing {
            UsListing::Nyse => Exchange::Nyse,
            UsListing::Nasdaq => Exchange::Nasdaq,
        }
    }
}

/// The database flags of `moat import …` (as for `serve` and `admin`).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct DatabaseArgs {
    /// Folder for the SQLite database and other files.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// postgres://… to use PostgreSQL instead of SQLite.
    #[arg(long)]
    database_url: Option<String>,
}

impl From<DatabaseArgs> for ServeArgs {
    fn from(args: DatabaseArgs) -> Self {
        ServeArgs {
            data_dir: args.data_dir,
            database_url: args.database_url,
            ..ServeArgs::default()
        }
    }
}

/// The database flags of `moat admin …`: accepted before or after the subcommand
/// (`moat admin ban EMAIL --data-dir X`), like every other flag.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct AdminArgs {
    /// Folder for the SQLite database and other files.
    #[arg(long, global = true)]
    data_dir: Option<PathBuf>,
    /// postgres://… to use PostgreSQL instead of SQLite.
    #[arg(long, global = true)]
    database_url: Option<String>,
}

/// `moat admin …`: one member, named by email.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum AdminCommand {
    /// Make the member an operator.
    Promote { email: String },
    /// Make the operator a member.
    Demote { email: String },
    /// Ban the member (their tokens stop working at once).
    Ban { email: String },
    /// Lift a ban.
    Unban { email: String },
    /// Set a password (ends every session); without --password a strong temporary
    /// one is generated and printed.
    SetPassword {
        email: String,
        #[arg(long)]
        password: Option<String>,
    },
    /// Turn premium on or off.
    Premium { email: String, state: OnOff },
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnOff {
    On,
    Off,
}

/// Length of a generated temporary password.
const TEMP_PASSWORD_CHARS: usize = 20;

/// Runs an admin command against the configured database; the line to print.
pub async fn admin(config: &Config, command: &AdminCommand) -> anyhow::Result<String> {
    use anyhow::Context;
    use moat_storage::Role;

    let storage = open_database(config).await?;
    let (AdminCommand::Promote { email }
    | AdminCommand::Demote { email }
    | AdminCommand::Ban { email }
    | AdminCommand::Unban { email }
    | AdminCommand::SetPassword { email, .. }
    | AdminCommand::Premium { email, .. }) = command;
    let email = crate::accounts::validate::normalize_email(email);
    let user = storage
        .user_by_email(&email)
        .await?
        .with_context(|| format!("no member has the email {email}"))?;
    let out = match command {
        AdminCommand::Promote { .. } => {
            storage.set_role(user.id, Role::Operator).await?;
            format!("{email} is now an operator")
        }
        AdminCommand::Demote { .. } => {
            storage.set_role(user.id, Role::Member).await?;
            format!("{email} is now a member")
        }
        AdminCommand::Ban { .. } => {
            storage
                .set_banned(user.id, Some(chrono::Utc::now()))
                .await?;
            format!("{email} is banned; their sessions have ended")
        }
        AdminCommand::Unban { .. } => {
            storage.set_banned(user.id, None).await?;
            format!("{email} is no longer banned")
        }
        AdminCommand::SetPassword { password, .. } => {
            let (password, generated) = match password {
                Some(p) => {
                    if let Some(problem) = crate::accounts::password::check_password(
                        p,
                        user.email.as_deref(),
                        user.nickname.as_deref(),
                    ) {
                        anyhow::bail!("the password is not accepted: {}", problem.message);
                    }
                    (p.clone(), false)
                }
                None => (temporary_password(), true),
            };
            let hash = crate::accounts::password::Passwords::default()
                .hash(&password)
                .await?;
            storage
                .set_password_hash(user.id, &hash, chrono::Utc::now().timestamp())
                .await?;
            if generated {
                format!("{email}: password set to {password} (temporary: ask them to change it); their sessions have ended")
            } else {
                format!("{email}: password set; their sessions have ended")
            }
        }
        AdminCommand::Premium { state, .. } => {
            let on = *state == OnOff::On;
            storage.set_premium(user.id, on).await?;
            format!("{email}: premium {}", if on { "on" } else { "off" })
        }
    };
    storage.close().await;
    Ok(out)
}

/// Opens and migrates the configured database (creating the SQLite folder).
async fn open_database(config: &Config) -> anyhow::Result<std::sync::Arc<dyn Storage>> {
    use anyhow::Context;

    let url = config.effective_database_url();
    if url.starts_with("sqlite:") {
        config.create_data_dir()?;
    }
    let storage = moat_storage::connect(&url, &moat_storage::ConnectOptions::default())
        .await
        .with_context(|| {
            format!(
                "cannot open the database {}",
                crate::config::redact_url(&url)
            )
        })?;
    storage
        .migrate()
        .await
        .context("cannot apply database migrations")?;
    Ok(storage)
}

/// A random password of letters and digits (about 119 bits).
fn temporary_password() -> String {
    use rand::{distributions::Alphanumeric, Rng};
    rand::rngs::OsRng
        .sample_iter(&Alphanumeric)
        .take(TEMP_PASSWORD_CHARS)
        .map(char::from)
        .collect()
}

/// Parses the command line and runs the command; the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    dispatch(cli, &mut std::io::stdout(), &mut std::io::stderr())
}

/// Runs the command line `args` (the program name first), writing what [`main`] would
/// print to `out` and `err`; the exit code. Serving still prints to the process's
/// standard output.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match Cli::try_parse_from(args) {
        Ok(cli) => dispatch(cli, out, err),
        Err(e) => {
            let _ = if e.use_stderr() {
                write!(err, "{}", e.render())
            } else {
                write!(out, "{}", e.render())
            };
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
        }
    }
}

fn dispatch(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    match cli.command {
        Some(Command::Config) => {
            let _ = write!(out, "{}", Config::default_toml());
            ExitCode::SUCCESS
        }
        Some(Command::Openapi) => {
            let _ = writeln!(out, "{}", crate::http::openapi_json());
            ExitCode::SUCCESS
        }
        Some(Command::Routes) => {
            let _ = write!(out, "{}", crate::http::route_table_text());
            ExitCode::SUCCESS
        }
        Some(Command::Serve(args)) => serve(cli.config, args, err),
        Some(Command::Admin { command, database }) => {
            // `moat --data-dir X admin …` works too; the admin's own flags win.
            let args = ServeArgs {
                data_dir: database.data_dir.or(cli.serve.data_dir),
                database_url: database.database_url.or(cli.serve.database_url),
                ..ServeArgs::default()
            };
            run_admin(cli.config, args, command, out, err)
        }
        Some(Command::Import { command }) => run_import(cli.config, command, out, err),
        Some(Command::Backup { file, database }) => {
            run_backup(cli.config, database, BackupOp::Backup(file), out, err)
        }
        Some(Command::News { command }) => run_news(cli.config, command, out, err),
        Some(Command::Restore { file, database }) => {
            run_backup(cli.config, database, BackupOp::Restore(file), out, err)
        }
        None => serve(cli.config, cli.serve, err),
    }
}

fn load(file: Option<PathBuf>, args: ServeArgs, err: &mut dyn Write) -> Result<Config, ExitCode> {
    let overrides = Overrides {
        host: args.host,
        port: args.port,
        data_dir: args.data_dir,
        database_url: args.database_url,
        webview_host: args.webview_host,
    };
    Config::load(file.as_deref(), &overrides).map_err(|e| {
        let _ = writeln!(err, "moat: configuration error: {e}");
        ExitCode::from(2)
    })
}

/// A current-thread runtime for a one-off command.
fn block_on<F: std::future::Future<Output = anyhow::Result<T>>, T>(future: F) -> anyhow::Result<T> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|rt| rt.block_on(future))
}

fn run_admin(
    file: Option<PathBuf>,
    args: ServeArgs,
    command: AdminCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let config = match load(file, args, err) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match block_on(admin(&config, &command)) {
        Ok(line) => {
            let _ = writeln!(out, "{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(err, "moat admin: {e:#}");
            ExitCode::FAILURE
        }
    }
}

enum BackupOp {
    Backup(PathBuf),
    Restore(PathBuf),
}

/// `moat backup FILE` and `moat restore FILE` (docs/scale-out.md).
fn run_backup(
    file: Option<PathBuf>,
    database: DatabaseArgs,
    op: BackupOp,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    use moat_storage::backup;

    let config = match load(file, database.into(), err) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let url = config.effective_database_url();
    let result = block_on(async {
        Ok(match &op {
            BackupOp::Backup(dest) => backup::backup_sqlite(&url, dest).await,
            BackupOp::Restore(src) => backup::restore_sqlite(src, &url).await,
        })
    });
    let (verb, name) = match op {
        BackupOp::Backup(_) => ("backed up", "moat backup"),
        BackupOp::Restore(_) => ("restored", "moat restore"),
    };
    match result {
        Ok(Ok(info)) => {
            let _ = writeln!(
                out,
                "{verb} {} ({} bytes, {} migrations)",
                info.path.display(),
                info.bytes,
                info.migrations
            );
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => {
            let _ = writeln!(err, "{name}: {e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            let _ = writeln!(err, "{name}: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_import(
    file: Option<PathBuf>,
    command: ImportCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let database = match &command {
        ImportCommand::Instruments { database, .. } | ImportCommand::Prices { database, .. } => {
            database.clone()
        }
    };
    let config = match load(file, database.into(), err) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let result = block_on(async {
        match &command {
            ImportCommand::Instruments { file, exchange, .. } => {
                import_instruments(&config, file, exchange.map(Exchange::from), out).await
            }
            ImportCommand::Prices { file, id, .. } => {
                import_prices(&config, file, id.clone(), out).await
            }
        }
    });
    match result {
        Ok(summary) => {
            let _ = writeln!(out, "{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(err, "moat import: {e:#}");
            ExitCode::FAILURE
        }
    }
}

// ---------------------------------------------------------------------------------------
// moat import

/// A file of at least this size gets parse progress (every 10 %).
const LARGE_FILE_BYTES: u64 = 512 * 1024;
/// At least this many daily prices get write progress (every 10 %).
const LARGE_WRITE_ROWS: usize = 10_000;
/// The `source` of imported candles and rates.
pub const IMPORT_SOURCE: &str = "csv";

/// Why a file was refused: every problem found, by row. Nothing was written.
#[derive(Debug, thiserror::Error)]
#[error("{file} is refused, nothing was written: {errors}")]
pub struct FileRefused {
    pub file: String,
    pub errors: ImportErrors,
}

fn open_file(path: &Path) -> anyhow::Result<(BufReader<File>, u64)> {
    use anyhow::Context;
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    Ok((BufReader::new(file), len))
}

/// `moat import instruments FILE`: parses the whole file (nothing is written if any
/// row is bad), merges each row onto the stored instrument ([`catalog::merge`]) and
/// writes them all in one transaction. A database that lacks some of the curated
/// instruments gets them in the same transaction, as the server's start would add
/// them, so that a listing imported into a fresh database updates the curated names
/// rather than standing in for them. Returns the summary line.
pub async fn import_instruments(
    config: &Config,
    path: &Path,
    exchange: Option<Exchange>,
    out: &mut dyn Write,
) -> anyhow::Result<String> {
    let started = Instant::now();
    let (reader, len) = open_file(path)?;
    writeln!(out, "reading {} ({})", path.display(), size(len))?;
    let options = ImportOptions {
        us_exchange: exchange.map_or(UsExchange::KnownNasdaq, UsExchange::Always),
    };
    let parsed =
        catalog::parse_instruments_csv_with(reader, &options).map_err(|errors| FileRefused {
            file: path.display().to_string(),
            errors,
        })?;
    let skipped = parsed.skipped;
    writeln!(
        out,
        "parsed {} ({}): {}{}",
        count(parsed.instruments.len() + skipped, "row"),
        parsed.format,
        count(parsed.instruments.len(), "instrument"),
        if skipped > 0 {
            format!(", {} skipped", count(skipped, "KONEX row"))
        } else {
            String::new()
        },
    )?;
    if exchange.is_some() && parsed.format != ListingFormat::Sp500Constituents {
        writeln!(
            out,
            "note: --exchange applies to the S&P 500 constituents only; a {} names its \
             exchanges",
            parsed.format
        )?;
    }

    let storage = open_database(config).await?;
    let result = write_instruments(storage.as_ref(), parsed.instruments, out).await;
    storage.close().await;
    let (total, new, updated, seeded) = result?;
    if seeded > 0 {
        writeln!(
            out,
            "also added {} the database did not have yet",
            count(seeded, "curated instrument")
        )?;
    }
    writeln!(out, "took {}", seconds(started))?;
    Ok(format!(
        "imported {} ({} new, {} updated), skipped {}",
        count(total, "instrument"),
        thousands(new),
        thousands(updated),
        thousands(skipped)
    ))
}

/// Merges and writes; `(imported, new, updated, curated added)`.
async fn write_instruments(
    storage: &dyn Storage,
    imported: Vec<Instrument>,
    out: &mut dyn Write,
) -> anyhow::Result<(usize, usize, usize, usize)> {
    let stored: HashMap<InstrumentId, Instrument> = storage
        .list_instruments()
        .await?
        .into_iter()
        .map(|i| (i.id.clone(), i))
        .collect();
    let curated: HashMap<InstrumentId, Instrument> = catalog::curated()
        .into_iter()
        .filter(|i| !stored.contains_key(&i.id))
        .map(|i| (i.id.clone(), i))
        .collect();
    let total = imported.len();
    let (mut new, mut updated) = (0, 0);
    let mut ids = HashSet::new();
    let mut rows = Vec::with_capacity(total + curated.len());
    for instrument in imported {
        if stored.contains_key(&instrument.id) {
            updated += 1;
        } else {
            new += 1;
        }
        ids.insert(instrument.id.clone());
        let base = stored
            .get(&instrument.id)
            .or_else(|| curated.get(&instrument.id));
        rows.push(catalog::merge(base, instrument));
    }
    let before = rows.len();
    rows.extend(curated.into_values().filter(|i| !ids.contains(&i.id)));
    let seeded = rows.len() - before;
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    writeln!(out, "writing {}…", count(rows.len(), "instrument"))?;
    let writing = Instant::now();
    storage.upsert_instruments(&rows).await?;
    writeln!(
        out,
        "wrote {} in {}",
        count(rows.len(), "instrument"),
        seconds(writing)
    )?;
    Ok((total, new, updated, seeded))
}

/// `moat import prices FILE`: parses the whole file against the known instruments (the
/// database's and the curated list's; nothing is written if any row is bad), then
/// writes each instrument's candles with `upsert_daily_candles` (source `csv`, one
/// transaction per instrument), and for currency pairs the closes as daily FX rates
/// too. A curated instrument the database lacks is added first. Returns the summary
/// line.
pub async fn import_prices(
    config: &Config,
    path: &Path,
    id: Option<InstrumentId>,
    out: &mut dyn Write,
) -> anyhow::Result<String> {
    let started = Instant::now();
    let (reader, len) = open_file(path)?;
    writeln!(out, "reading {} ({})", path.display(), size(len))?;
    let storage = open_database(config).await?;
    let result = import_prices_into(config, storage.as_ref(), path, reader, len, id, out).await;
    storage.close().await;
    let summary = result?;
    writeln!(out, "took {}", seconds(started))?;
    Ok(summary)
}

async fn import_prices_into(
    config: &Config,
    storage: &dyn Storage,
    path: &Path,
    reader: BufReader<File>,
    len: u64,
    id: Option<InstrumentId>,
    out: &mut dyn Write,
) -> anyhow::Result<String> {
    let mut known: HashMap<InstrumentId, (Instrument, bool)> = storage
        .list_instruments()
        .await?
        .into_iter()
        .map(|i| (i.id.clone(), (i, true)))
        .collect();
    for instrument in catalog::curated() {
        known
            .entry(instrument.id.clone())
            .or_insert((instrument, false));
    }
    let options = PriceImportOptions {
        id,
        latest_date: chrono::Utc::now().date_naive().succ_opt(),
    };
    let parsing = Instant::now();
    let mut shown = 0u64;
    let parsed = history::parse_prices_csv_with_progress(
        reader,
        &options,
        |id| known.get(id).map(|(i, _)| PriceGrid::from(i)),
        |p: Progress| {
            if len >= LARGE_FILE_BYTES {
                let tenth = (p.bytes * 10 / len.max(1)).min(9);
                if tenth > shown {
                    shown = tenth;
                    let _ = writeln!(out, "parsing: {}0 % ({} rows)", tenth, thousands(p.rows));
                }
            }
        },
    )
    .map_err(|errors| FileRefused {
        file: path.display().to_string(),
        errors,
    })?;
    let total = parsed.candle_count();
    writeln!(
        out,
        "parsed {} ({}) in {}: {} of {}",
        count(parsed.rows, "row"),
        parsed.format,
        seconds(parsing),
        count(total, "daily price"),
        count(parsed.series.len(), "instrument")
    )?;
    if parsed.rounded > 0 {
        writeln!(
            out,
            "rounded {} to their instruments' decimals",
            count(parsed.rounded, "price")
        )?;
    }

    let missing: Vec<Instrument> = parsed
        .series
        .iter()
        .filter_map(|s| match known.get(&s.id) {
            Some((instrument, false)) => Some(instrument.clone()),
            _ => None,
        })
        .collect();
    if !missing.is_empty() {
        storage.upsert_instruments(&missing).await?;
        writeln!(
            out,
            "added {} the database did not have yet",
            count(missing.len(), "curated instrument")
        )?;
    }
    let writing = Instant::now();
    let (mut written, mut replaced, mut rates, mut shown) = (0usize, 0usize, 0usize, 0usize);
    for series in &parsed.series {
        let (Some(first), Some(last)) = (series.candles.first(), series.candles.last()) else {
            continue;
        };
        let dates: HashSet<_> = series.candles.iter().map(|c| c.date).collect();
        replaced += storage
            .daily_candles(&series.id, first.date, last.date)
            .await?
            .iter()
            .filter(|c| dates.contains(&c.date))
            .count();
        storage
            .upsert_daily_candles(&series.id, &series.candles, IMPORT_SOURCE)
            .await?;
        if let Some((instrument, _)) = known.get(&series.id) {
            if instrument.kind == Kind::Currency && instrument.ticker().len() == 6 {
                let (base, quote) = instrument.ticker().split_at(3);
                let fx: Vec<moat_market::FxRate> = series
                    .candles
                    .iter()
                    .map(|c| moat_market::FxRate {
                        date: c.date,
                        base: base.to_owned(),
                        quote: quote.to_owned(),
                        rate: c.close,
                    })
                    .collect();
                storage.upsert_fx_rates(&fx, IMPORT_SOURCE).await?;
                rates += fx.len();
            }
        }
        written += series.candles.len();
        if total >= LARGE_WRITE_ROWS {
            let tenth = written * 10 / total;
            if tenth > shown && tenth < 10 {
                shown = tenth;
                writeln!(
                    out,
                    "writing: {tenth}0 % ({} of {} prices)",
                    thousands(written),
                    thousands(total)
                )?;
            }
        }
    }
    writeln!(
        out,
        "wrote {} in {}{}",
        count(written, "daily price"),
        seconds(writing),
        if rates > 0 {
            format!(" (and {})", count(rates, "FX rate"))
        } else {
            String::new()
        }
    )?;
    let mut simulated: Vec<&str> = parsed
        .series
        .iter()
        .filter_map(|s| known.get(&s.id))
        .filter_map(|(instrument, _)| simulated_market_key(config, instrument.market()))
        .collect();
    simulated.sort_unstable();
    simulated.dedup();
    if !simulated.is_empty() {
        let settings: Vec<String> = simulated
            .iter()
            .map(|key| format!("{key} = \"{}\"", config_value(config, key)))
            .collect();
        writeln!(
            out,
            "note: with [market] {} the server shows simulated prices for these \
             instruments; the imported history is kept, and served once a real provider \
             (yahoo, alpha_vantage) is configured",
            settings.join(", "),
        )?;
    }
    Ok(format!(
        "imported {} for {} ({} new, {} replaced), skipped {}",
        count(written, "daily price"),
        count(parsed.series.len(), "instrument"),
        thousands(written - replaced),
        thousands(replaced),
        thousands(parsed.skipped)
    ))
}

/// The `[market]` key of a market whose daily prices the server takes from the
/// simulator in this configuration (the server's rule: only `yahoo` and
/// `alpha_vantage` are real price providers; crypto follows `us`).
fn simulated_market_key(config: &Config, market: Market) -> Option<&'static str> {
    let key = match market {
        Market::Krx => "krx",
        Market::Us | Market::Crypto => "us",
        Market::Fx => "fx",
    };
    let real = matches!(config_value(config, key), "yahoo" | "alpha_vantage");
    (!real).then_some(key)
}

fn config_value<'a>(config: &'a Config, key: &str) -> &'a str {
    match key {
        "krx" => config.market.krx.trim(),
        "us" => config.market.us.trim(),
        _ => config.market.fx.trim(),
    }
}

/// `2769 instruments`, `1 instrument`.
fn count(n: usize, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `1234567` → `1,234,567`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let head = match digits.len() % 3 {
        0 => 3.min(digits.len()),
        r => r,
    };
    let mut out = digits[..head].to_owned();
    for group in digits.as_bytes()[head..].chunks(3) {
        out.push(',');
        out.push_str(std::str::from_utf8(group).unwrap_or_default());
    }
    out
}

fn size(bytes: u64) -> String {
    match bytes {
        0..=1023 => format!("{bytes} bytes"),
        1024..=1_048_575 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

fn seconds(since: Instant) -> String {
    format!("{:.2} s", since.elapsed().as_secs_f64())
}

fn serve(file: Option<PathBuf>, args: ServeArgs, err: &mut dyn Write) -> ExitCode {
    let config = match load(file, args, err) {
        Ok(c) => c,
        Err(code) => return code,
    };
    crate::logging::init(&config);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            let _ = writeln!(err, "moat: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run_server(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = format!("{e:#}"), "moat stopped with an error");
            let _ = writeln!(err, "moat: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run_server(config: Config) -> anyhow::Result<()> {
    let app = crate::Application::build(config).await?;
    println!("Moat is running at http://{}", app.local_addr());
    app.run_until(crate::app::shutdown_signal()).await
}

/// `moat news fetch`: one cycle with progress, then a total.
fn run_news(
    file: Option<PathBuf>,
    command: NewsCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let NewsCommand::Fetch {
        all,
        feed,
        database,
    } = command;
    let config = match load(file, database.into(), err) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let lines = std::sync::Mutex::new(Vec::<u8>::new());
    let result = block_on(news_fetch(&config, all, feed, &lines));
    let _ = out.write_all(&lines.into_inner().unwrap_or_default());
    match result {
        Ok(summary) => {
            let _ = writeln!(out, "{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(err, "moat news fetch: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints each feed's result as it finishes (to stderr at once, and into `lines`).
struct FetchProgress<'a> {
    total: std::sync::atomic::AtomicUsize,
    done: std::sync::atomic::AtomicUsize,
    lines: &'a std::sync::Mutex<Vec<u8>>,
}

impl crate::news::service::jobs::Progress for FetchProgress<'_> {
    fn started(&self, total: usize) {
        self.total
            .store(total, std::sync::atomic::Ordering::Relaxed);
    }

    fn feed_done(
        &self,
        feed: &moat_storage::FeedRow,
        run: &Result<crate::news::service::ingest::FeedRun, moat_storage::StorageError>,
        took: std::time::Duration,
    ) {
        use std::sync::atomic::Ordering::Relaxed;
        let n = self.done.fetch_add(1, Relaxed) + 1;
        let total = self.total.load(Relaxed);
        let what = match run {
            Ok(r) if r.error.is_some() => format!("error: {}", r.error.as_deref().unwrap_or("")),
            Ok(r) if r.not_modified => "not modified".to_owned(),
            Ok(r) => format!(
                "{} new, {} merged, {} seen",
                r.new_articles, r.merged, r.seen
            ),
            Err(e) => format!("error: {e}"),
        };
        let line = format!(
            "[{n}/{total}] {} ({}): {what} ({:.1} s)\n",
            feed.source_name,
            feed.url,
            took.as_secs_f64()
        );
        eprint!("{line}");
        if let Ok(mut lines) = self.lines.lock() {
            lines.extend_from_slice(line.as_bytes());
        }
    }
}

async fn news_fetch(
    config: &Config,
    all: bool,
    feed: Option<i64>,
    lines: &std::sync::Mutex<Vec<u8>>,
) -> anyhow::Result<String> {
    use std::sync::Arc;

    let storage = open_database(config).await?;
    let bus = crate::broker::Bus::new(Arc::new(crate::broker::LocalBroker::default()));
    let hub = Arc::new(crate::hub::Hub::new(1));
    let market = crate::market::MarketState::start(config, storage.clone(), &hub, &bus).await?;
    let media = crate::media::MediaState::start(config, storage.clone())?;
    let news = crate::news::NewsState::start(config, storage.clone(), &hub, &bus, &market, &media)?;
    let service = news.service;
    service.seed().await?;
    let feeds: Vec<moat_storage::FeedRow> = match feed {
        Some(id) => vec![storage.get_feed(id).await.map_err(|e| match e {
            moat_storage::StorageError::NotFound => anyhow::anyhow!("there is no feed {id}"),
            other => other.into(),
        })?],
        None if all => storage
            .list_feeds()
            .await?
            .into_iter()
            .filter(|f| f.enabled)
            .collect(),
        None => {
            storage
                .due_feeds(chrono::Utc::now(), crate::news::service::jobs::DUE_BATCH)
                .await?
        }
    };
    if feeds.is_empty() {
        return Ok("no feed is due (--all fetches every enabled feed)".to_owned());
    }
    let progress = FetchProgress {
        total: Default::default(),
        done: Default::default(),
        lines,
    };
    let started = Instant::now();
    let runs = service.fetch_feeds(feeds, &progress).await;
    service.wait_for_images().await;
    let failed = runs.iter().filter(|r| r.error.is_some()).count();
    let new: i64 = runs.iter().map(|r| r.new_articles).sum();
    let merged: i64 = runs.iter().map(|r| r.merged).sum();
    Ok(format!(
        "{} feeds in {:.1} s: {new} new articles, {merged} merged, {failed} failed",
        runs.len(),
        started.elapsed().as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated_by_commas() {
        for (n, want) in [
            (0, "0"),
            (12, "12"),
            (999, "999"),
            (1_000, "1,000"),
            (20_000, "20,000"),
            (2_769, "2,769"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(thousands(n), want);
        }
        assert_eq!(count(1, "instrument"), "1 instrument");
        assert_eq!(count(2_769, "instrument"), "2,769 instruments");
    }
}
