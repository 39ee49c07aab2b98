//! Moat's server: configuration, the HTTP application (JSON API, page metadata, the
//! embedded web app) and its start-up and shutdown. `main.rs` only calls [`cli::main`].

pub mod accounts;
pub mod app;
pub mod broker;
pub mod cli;
pub mod clock;
pub mod config;
pub mod http;
pub mod hub;
pub mod logging;
pub mod mail;
pub mod market;
pub mod media;
pub mod member_data;
pub mod news;
pub mod observability;
pub mod portfolio;
pub mod server;
pub mod shared_limits;

pub use app::{launch, AppState, Application};
pub use config::Config;
