//! Moat's server: configuration, the HTTP application (JSON API, page metadata, the
//! embedded web app) and its start-up and shutdown. `main.rs` only calls [`cli::main`].

pub mod app;
pub mod auth;
pub mod cli;
pub mod clock;
pub mod config;
pub mod http;
pub mod hub;
pub mod logging;
pub mod market;
pub mod observe;
pub mod portfolio;
pub mod server;

pub use app::{launch, AppState, Application};
pub use config::Config;
