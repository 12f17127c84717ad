//! errdex's application core: the use cases — [`index`](index::index),
//! [`explain`](Db::matcher), the [error record](Db::error_record),
//! [listing](Db::list) and [`analyze`](analyze::analyze) — over the stages
//! (source, extract, catalog, match, analyze), returning typed,
//! serialisable records. The command line and the web server are
//! front-ends over this crate only: they parse arguments or requests and
//! render these records.

pub mod analyze;
mod db;
mod error;
pub mod explain;
mod explain_index;
pub mod index;
pub mod languages;
pub mod record;
pub mod worker;

pub use db::{Db, ErrorSummary, RepoSummary};
pub use errdex_catalog::{Changes, EvidenceRow, Location, PgUrl, SiteRow};
pub use error::{AppError, Result};
pub use explain::{ExplainRecord, IndexInfo, Matcher, Pasted};
pub use record::{Analyzers, ErrorRecord, SiteRecord, Sites, Version};

/// What a long use case is doing, for a front-end to show progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// A source is being read (what, in words).
    Loading(&'a str),
    /// Extraction of this many files starts; each file is a [`Event::Step`].
    Extracting {
        /// Files to extract.
        files: usize,
    },
    /// Messages are being traced through git history.
    Tracing,
    /// The catalogue is being written.
    Writing,
    /// The persisted explain index is being rebuilt from the catalogue
    /// (after `index` wrote snapshots); [`Event::Done`] when it is saved.
    Refreshing,
    /// A lock file's packages are being indexed; each is a [`Event::Step`].
    Packages {
        /// Packages to index.
        count: usize,
    },
    /// The lock file's package being indexed (`name@version`).
    Package(&'a str),
    /// Analysis of this many errors starts; each is a [`Event::Step`].
    Analysing {
        /// Errors to analyse.
        errors: usize,
    },
    /// One more file, package or error done.
    Step,
    /// The current stage ended.
    Done,
}

/// Receives [`Event`]s (from several threads at once while extracting).
pub trait Progress: Sync {
    /// Something happened.
    fn event(&self, event: Event<'_>);
}

/// Progress nobody watches.
pub struct Quiet;

impl Progress for Quiet {
    fn event(&self, _: Event<'_>) {}
}
