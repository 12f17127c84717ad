//! The explain index of a catalogue, kept in a file beside it
//! (`CATALOGUE.xidx`) so that a start maps it instead of rebuilding it:
//! opened when it was built from the catalogue's current snapshots, else
//! rebuilt from the catalogue and saved (atomically) for the next start.
//! `errdex index` refreshes it after writing snapshots.

use crate::{Db, Result};
use errdex_match::{Index, Key, OpenError};
use std::path::PathBuf;

/// How the index at hand was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Obtained {
    /// Mapped from its file.
    Opened,
    /// Built from the catalogue (and saved, where the folder allows).
    Rebuilt,
}

impl Db {
    /// Where this catalogue's explain index is kept: beside the catalogue
    /// file, its name with `.xidx` added. (A catalogue that is not a file
    /// would keep it in a cache folder, under a hash of its identity.)
    pub fn explain_index_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(".xidx");
        PathBuf::from(name)
    }

    /// The catalogue state an index must have been built from: this
    /// catalogue (its canonical path) and its snapshot set.
    fn explain_index_key(&self) -> Result<Key> {
        let identity = std::fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        Ok(Key::new(
            &identity.to_string_lossy(),
            &self.catalog.snapshots_state()?,
        ))
    }

    /// The persisted index if it is current, else one rebuilt from the
    /// catalogue and saved. A damaged, foreign or outdated file is
    /// replaced, never read.
    pub(crate) fn explain_index(&self) -> Result<(Index, Obtained)> {
        let path = self.explain_index_path();
        let key = self.explain_index_key()?;
        match Index::open(&path, &key) {
            Ok(index) => return Ok((index, Obtained::Opened)),
            Err(OpenError::Missing) => {}
            Err(e @ (OpenError::Stale | OpenError::Version { .. } | OpenError::Build)) => {
                tracing::info!(path = %path.display(), "{e}: rebuilding it");
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), "{e}: rebuilding it from the catalogue");
            }
        }
        Ok((self.save_explain_index(key)?, Obtained::Rebuilt))
    }

    /// Rebuilds the persisted explain index from the catalogue (after
    /// `errdex index` wrote snapshots, or when a query found it damaged).
    pub fn refresh_explain_index(&self) -> Result<()> {
        self.rebuild_explain_index().map(drop)
    }

    /// [`Db::refresh_explain_index`], keeping the index built in memory.
    pub(crate) fn rebuild_explain_index(&self) -> Result<Index> {
        let key = self.explain_index_key()?;
        self.save_explain_index(key)
    }

    /// Builds the index from the catalogue and saves it for `key`; a file
    /// that cannot be written is only warned about.
    fn save_explain_index(&self, key: Key) -> Result<Index> {
        let index = Index::from_data(self.catalog.match_data(None)?);
        let path = self.explain_index_path();
        if let Err(e) = index.save(&path, &key) {
            tracing::warn!(path = %path.display(), "{e}");
        }
        Ok(index)
    }
}
