//! The catalogue as the front-ends see it: opened for reading or writing,
//! listed, and read as excerpts.

use crate::{AppError, Result};
use errdex_catalog::Catalog;
use errdex_model::Kind;
use std::path::{Path, PathBuf};

pub use errdex_catalog::{ErrorSummary, RepoSummary};

/// An open catalogue.
pub struct Db {
    pub(crate) catalog: Catalog,
    /// The catalogue file.
    pub(crate) path: PathBuf,
}

impl Db {
    /// Opens (creating and migrating if needed) the catalogue for writing.
    pub fn open(path: &Path) -> Result<Db> {
        Ok(Db {
            catalog: Catalog::open(path)?,
            path: path.to_path_buf(),
        })
    }

    /// Opens a catalogue that must exist already, read-only.
    pub fn open_existing(path: &Path) -> Result<Db> {
        if !path.exists() {
            return Err(AppError::NoCatalogue(path.to_path_buf()));
        }
        Ok(Db {
            catalog: Catalog::open_read_only(path)?,
            path: path.to_path_buf(),
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
}
