//! The command line: `moat` (serve), `moat config`, `moat openapi`.

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
        None => serve(cli.config, cli.serve),
    }
}

fn serve(file: Option<PathBuf>, args: ServeArgs) -> ExitCode {
    let overrides = Overrides {
        host: args.host,
        port: args.port,
        data_dir: args.data_dir,
        database_url: args.database_url,
        webview_host: args.webview_host,
    };
    let config = match Config::load(file.as_deref(), &overrides) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("moat: configuration error: {e}");
            return ExitCode::from(2);
        }
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
