//! `errdex serve`: the web site and JSON API over the catalogue.

use crate::Failure;
use std::io::Write;
use std::sync::Arc;

pub fn run(
    db: &errdex_app::Location,
    addr: &str,
    base_url: Option<&str>,
    limits: errdex_web::Limits,
) -> Result<u8, Failure> {
    if let errdex_app::Location::Sqlite(path) = db {
        if !path.exists() {
            return Err(errdex_app::AppError::NoCatalogue(path.clone()).into());
        }
    }
    init_logging();
    // Idle connections must not run the process out of descriptors.
    let fds = errdex_web::raise_fd_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(crate::THREAD_STACK_BYTES)
        .build()
        .map_err(|e| Failure::input(format!("starting the server: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Failure::input(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| Failure::input(format!("cannot listen on {addr}: {e}")))?;
        let base = base_url
            .map(|b| b.trim_end_matches('/').to_string())
            .unwrap_or_else(|| format!("http://{local}"));
        let db = db.clone();
        let state = tokio::task::spawn_blocking(move || errdex_web::state::State::open(db, base))
            .await
            .map_err(|e| Failure::input(e.to_string()))??;
        // The first line says where: tests and scripts read it.
        println!("errdex: serving http://{local}");
        let _ = std::io::stdout().flush();
        tracing::info!(
            addr = %local,
            base_url = %state.base_url,
            max_connections = limits.max_connections,
            open_files = fds,
            "serving"
        );
        errdex_web::serve(listener, Arc::new(state), limits)
            .await
            .map_err(|e| Failure::input(format!("server: {e}")))?;
        Ok(0)
    })
}

/// Logs to stderr through a `tracing` subscriber filtered by `RUST_LOG`
/// (`info` when unset or unreadable).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
