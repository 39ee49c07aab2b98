//! The command line: `moat` (serve), `moat config`, `moat openapi`, `moat admin …`.

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};

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
    /// Manage members (uses the same configuration and database as `serve`).
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
        #[command(flatten)]
        serve: ServeArgs,
    },
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

    let url = config.effective_database_url();
    if url.starts_with("sqlite:") {
        std::fs::create_dir_all(&config.data_dir)?;
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
    let (AdminCommand::Promote { email }
    | AdminCommand::Demote { email }
    | AdminCommand::Ban { email }
    | AdminCommand::Unban { email }
    | AdminCommand::SetPassword { email, .. }
    | AdminCommand::Premium { email, .. }) = command;
    let email = crate::auth::validate::normalize_email(email);
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
                    if let Some(problem) = crate::auth::password::check_password(
                        p,
                        user.email.as_deref(),
                        user.nickname.as_deref(),
                    ) {
                        anyhow::bail!("the password is not accepted: {problem}");
                    }
                    (p.clone(), false)
                }
                None => (temporary_password(), true),
            };
            let hash = crate::auth::password::Passwords::default()
                .hash(&password)
                .await?;
            storage
                .set_password_hash(user.id, &hash, crate::auth::now())
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
    match cli.command {
        Some(Command::Config) => {
            print!("{}", Config::default_toml());
            ExitCode::SUCCESS
        }
        Some(Command::Openapi) => {
            println!("{}", crate::http::openapi_json());
            ExitCode::SUCCESS
        }
        Some(Command::Serve(args)) => serve(cli.config, args),
        Some(Command::Admin { command, serve }) => run_admin(cli.config, serve, command),
        None => serve(cli.config, cli.serve),
    }
}

fn load(file: Option<PathBuf>, args: ServeArgs) -> Result<Config, ExitCode> {
    let overrides = Overrides {
        host: args.host,
        port: args.port,
        data_dir: args.data_dir,
        database_url: args.database_url,
        webview_host: args.webview_host,
    };
    Config::load(file.as_deref(), &overrides).map_err(|e| {
        eprintln!("moat: configuration error: {e}");
        ExitCode::from(2)
    })
}

fn run_admin(file: Option<PathBuf>, args: ServeArgs, command: AdminCommand) -> ExitCode {
    let config = match load(file, args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let result = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|rt| rt.block_on(admin(&config, &command)));
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("moat admin: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn serve(file: Option<PathBuf>, args: ServeArgs) -> ExitCode {
    let config = match load(file, args) {
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
            eprintln!("moat: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = format!("{e:#}"), "moat stopped with an error");
            eprintln!("moat: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> anyhow::Result<()> {
    let app = crate::Application::build(config).await?;
    println!("Moat is running at http://{}", app.local_addr());
    app.run_until(crate::app::shutdown_signal()).await
}
