//! What a use case can fail with. Each front-end words these for its
//! users (an exit status and a line on stderr; an HTTP status and a page).

use std::path::PathBuf;

/// A use case's failure.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Bad input or usage, with a one-line reason.
    #[error("{0}")]
    Input(String),
    /// No catalogue file at this path.
    #[error("no catalogue at {}: run `errdex index` first", .0.display())]
    NoCatalogue(PathBuf),
    /// The text is not an error id (16 hex digits).
    #[error("`{0}` is not an error id (16 hex digits, see `errdex list`)")]
    NotAnId(String),
    /// No error with this id is indexed.
    #[error("no error {0} in the catalogue")]
    NoSuchError(String),
    /// No repo with this slug is indexed.
    #[error("no repo `{0}` in the catalogue (see `errdex list`)")]
    NoSuchRepo(String),
    /// The error has no site, hence no snapshot to read it from.
    #[error("error {0} has no snapshot")]
    NoSnapshot(String),
    /// The catalogue failed.
    #[error(transparent)]
    Catalog(#[from] errdex_catalog::CatalogError),
    /// The job queue failed.
    #[error(transparent)]
    Queue(#[from] errdex_queue::QueueError),
}

/// A use case's result.
pub type Result<T> = std::result::Result<T, AppError>;

impl AppError {
    /// An [`AppError::Input`] from anything displayable.
    pub fn input(reason: impl std::fmt::Display) -> Self {
        AppError::Input(reason.to_string())
    }
}
