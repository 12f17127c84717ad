//! The catalogue as the front-ends see it: opened for reading or writing,
//! listed, and read as excerpts.

use crate::{AppError, Result};
use errdex_catalog::{Catalog, Location};
use errdex_model::Kind;

pub use errdex_catalog::{ErrorSummary, RepoSummary};

/// An open catalogue.
pub struct Db {
    pub(crate) catalog: Catalog,
    /// Where the catalogue lives.
    pub(crate) location: Location,
}

impl Db {
    /// Opens (creating and migrating if needed) the catalogue for writing.
    pub fn open(location: &Location) -> Result<Db> {
        Ok(Db {
            catalog: Catalog::open(location)?,
            location: location.clone(),
        })
    }

    /// Opens a catalogue that must exist already, read-only.
    pub fn open_existing(location: &Location) -> Result<Db> {
        check_exists(location)?;
        Ok(Db {
            catalog: Catalog::open_read_only(location)?,
            location: location.clone(),
        })
    }

    /// A counter that changes whenever the catalogue does.
    pub fn generation(&self) -> Result<u64> {
        Ok(self.catalog.generation()?)
    }

    /// Every repo with its revisions and error count.
    pub fn repos(&self) -> Result<Vec<RepoSummary>> {
        Ok(self.catalog.repos()?)
    }

    /// The errors of each repo's newest snapshot (or only `repo`'s, which
    /// must be indexed), optionally of one kind.
    pub fn list(&self, repo: Option<&str>, kind: Option<Kind>) -> Result<Vec<ErrorSummary>> {
        if let Some(r) = repo {
            if !self.catalog.repos()?.iter().any(|x| x.slug == r) {
                return Err(AppError::NoSuchRepo(r.to_string()));
            }
        }
        Ok(self.catalog.list_errors(repo, kind)?)
    }

    /// Lines `start..=end` of a file of a snapshot, numbered (empty when
    /// the file is not stored).
    pub fn excerpt(
        &self,
        snapshot_id: i64,
        path: &str,
        start: u32,
        end: u32,
    ) -> Result<Vec<(u32, String)>> {
        Ok(self.catalog.excerpt(snapshot_id, path, start, end)?)
    }

    /// Lines `start..=end` of `path` in `repo@revision`, numbered; `None`
    /// when that snapshot is not indexed or holds no such (non-empty) file.
    pub fn source(
        &self,
        repo: &str,
        revision: &str,
        path: &str,
        start: u32,
        end: u32,
    ) -> Result<Option<Vec<(u32, String)>>> {
        let Some(snapshot) = self.catalog.snapshot_at(repo, revision)? else {
            return Ok(None);
        };
        let lines = self.catalog.excerpt(snapshot.id, path, start, end)?;
        Ok((!lines.is_empty()).then_some(lines))
    }
}

/// [`AppError::NoCatalogue`] for a SQLite file that is not there (a
/// PostgreSQL database without the catalogue is refused when opened).
pub(crate) fn check_exists(location: &Location) -> Result<()> {
    match location {
        Location::Sqlite(path) if !path.exists() => Err(AppError::NoCatalogue(path.clone())),
        _ => Ok(()),
    }
}
