//! Start-up and shutdown: open storage, migrate, bind, serve, drain.

use std::{future::Future, net::SocketAddr, sync::Arc, time::Instant};

use anyhow::Context;
use moat_storage::{ConnectOptions, Storage};
use tokio::net::TcpListener;

use crate::{config::Config, http};

/// What the server holds while it runs: the cross-cutting parts, then one state per
/// area. A handler takes its own area's state (`State<PortfolioState>`, through
/// `FromRef`), which reaches only that area's storage sub-trait.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    /// The whole storage: for the cross-cutting parts only (health, migrations).
    pub storage: Arc<dyn Storage>,
    pub assets: Arc<http::assets::Assets>,
    /// The live stream's topics and sockets (crate::hub).
    pub hub: Arc<crate::hub::Hub>,
    /// Events to and from the other instances (crate::broker).
    pub bus: Arc<crate::broker::Bus>,
    pub started_at: Instant,
    // The areas, one line each.
    pub accounts: crate::accounts::AccountsState,
    pub market: crate::market::MarketState,
    pub portfolio: crate::portfolio::PortfolioState,
    pub observability: crate::observability::ObservabilityState,
    pub news: crate::news::NewsState,
    /// The media store (cross-cutting: areas and branding keep files in it).
    pub media: crate::media::MediaState,
}

impl AppState {
    /// Starts every area on an open, migrated storage: the composition of the server.
    pub async fn start(
        config: Config,
        storage: Arc<dyn Storage>,
        clock: Arc<dyn crate::clock::Clock>,
        install_id: String,
        broker: Arc<dyn crate::broker::Broker>,
    ) -> anyhow::Result<Self> {
        let config = Arc::new(config);
        let bus = crate::broker::Bus::new(broker);
        let hub = Arc::new(crate::hub::Hub::new(config.market.max_stream_connections));
        hub.attach(&bus);
        // The areas, one line each (in the order they depend on each other).
        let accounts =
            crate::accounts::AccountsState::start(&config, storage.clone(), &hub, clock.clone())
                .context("cannot set up accounts")?;
        let market = crate::market::MarketState::start(&config, storage.clone(), &hub, &bus)
            .await
            .context("cannot load market data")?;
        let portfolio = crate::portfolio::PortfolioState::start(
            &config,
            storage.clone(),
            &market,
            clock.clone(),
        );
        let observability = crate::observability::ObservabilityState::start(
            &config,
            storage.clone(),
            install_id,
            clock.clone(),
        );
        let media = crate::media::MediaState::start(&config, storage.clone())
            .context("cannot open the media store")?;
        let news =
            crate::news::NewsState::start(&config, storage.clone(), &hub, &bus, &market, &media)
                .context("cannot set up news")?;
        bus.start().await.context("cannot listen to the broker")?;
        Ok(Self {
            media,
            assets: Arc::new(http::assets::Assets::load(&config)),
            hub,
            bus,
            config,
            storage,
            started_at: Instant::now(),
            accounts,
            market,
            portfolio,
            observability,
            news,
        })
    }
}

impl AppState {
    /// Starts the sweep of the shared limits' dead rows, then the areas' background
    /// jobs (one line per area that has some).
    pub fn spawn_jobs(&self) {
        crate::shared_limits::spawn(self.storage.clone(), self.accounts.auth.clock.clone());
        self.market.spawn_jobs();
        self.observability.spawn_jobs();
        self.news.spawn_jobs();
    }
}

/// A built server: storage open and migrated, listener bound.
pub struct Application {
    listener: TcpListener,
    state: AppState,
}

impl Application {
    /// Opens the database named by the configuration, applies migrations and binds the
    /// listener (so that port 0 resolves before anyone needs the address).
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        Self::build_with_clock(config, Arc::new(crate::clock::SystemClock)).await
    }

    /// [`Application::build`], with the log-in limits, tokens and sessions reading
    /// `clock` (tests hold time still or move it on with a
    /// [`crate::clock::ManualClock`]).
    pub async fn build_with_clock(
        config: Config,
        clock: Arc<dyn crate::clock::Clock>,
    ) -> anyhow::Result<Self> {
        let broker = connect_broker(&config).await?;
        Self::build_on(config, clock, broker).await
    }

    /// [`Application::build_with_clock`] on a given broker (tests run two instances in
    /// one process on one [`crate::broker::LocalBroker`]).
    pub async fn build_on(
        config: Config,
        clock: Arc<dyn crate::clock::Clock>,
        broker: Arc<dyn crate::broker::Broker>,
    ) -> anyhow::Result<Self> {
        let url = config.effective_database_url();
        if url.starts_with("sqlite:") {
            config
                .create_data_dir()
                .with_context(|| format!("cannot create data_dir {}", config.data_dir.display()))?;
            if let Some(mode) = config.data_dir_is_shared() {
                tracing::warn!(
                    data_dir = %config.data_dir.display(),
                    mode = format!("{mode:o}"),
                    "data_dir can be read by other users: chmod 700 it (the database in it is 0600)"
                );
            }
        }
        let opts = ConnectOptions {
            max_connections: config.database_max_connections,
            ..ConnectOptions::default()
        };
        let storage = moat_storage::connect(&url, &opts).await.with_context(|| {
            format!(
                "cannot open the database {}",
                crate::config::redact_url(&url)
            )
        })?;
        storage
            .migrate()
            .await
            .context("cannot apply database migrations")?;
        let install_id = storage
            .insert_setting_if_absent("install.id", &uuid::Uuid::new_v4().to_string())
            .await
            .context("cannot record the install id")?;
        if config.accounts.token_key.is_empty()
            && storage.backend() == moat_storage::Backend::Postgres
        {
            tracing::warn!(
                "accounts.token_key is not set: tokens are signed with a key made in data_dir; \
                 instances sharing this PostgreSQL database must share one key (MOAT_ACCOUNTS_TOKEN_KEY)"
            );
        }
        let addr = SocketAddr::new(config.host, config.port);
        let listener = TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let state = AppState::start(config, storage, clock, install_id, broker).await?;
        state.spawn_jobs();
        Ok(Self { listener, state })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("bound listener has an address")
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then drains in-flight requests.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        launch(self.state, self.listener, shutdown).await
    }
}

/// The broker `broker_url` names: NATS, or the in-process one when it is empty.
pub async fn connect_broker(config: &Config) -> anyhow::Result<Arc<dyn crate::broker::Broker>> {
    if config.broker_url.is_empty() {
        return Ok(Arc::new(crate::broker::LocalBroker::default()));
    }
    let nats = crate::broker::nats::NatsBroker::connect(&config.broker_url)
        .await
        .with_context(|| {
            format!(
                "cannot reach the broker {}",
                crate::config::redact_url(&config.broker_url)
            )
        })?;
    Ok(Arc::new(nats))
}

/// Serves `state` on `listener` until `shutdown` resolves: the seam tests use. The
/// accept loop (crate::server) caps connections, times request heads and idle
/// connections, and drains in-flight requests for up to `shutdown_grace_secs`.
pub async fn launch(
    state: AppState,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let storage = state.storage.clone();
    let market = state.market.service.clone();
    let limits = crate::server::Limits::from_config(&state.config);
    let router = http::router(state);
    tracing::info!(addr = %listener.local_addr()?, "listening");
    crate::server::serve(listener, router, limits, shutdown).await;
    market.release_lease().await;
    storage.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = term => {} }
}
