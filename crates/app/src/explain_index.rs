//! The explain index of a catalogue, kept in a file beside it
//! (`CATALOGUE.xidx`; for a PostgreSQL catalogue, in the user's cache
//! folder under a hash of its URL) so that a start maps it instead of
//! rebuilding it:
//! opened when it was built from the catalogue's current snapshots, else
//! rebuilt from the catalogue and saved (atomically) for the next start.
//! `errdex index` refreshes a SQLite catalogue's after writing snapshots
//! (a PostgreSQL catalogue's is rebuilt by the node that next reads it, not
//! by every worker that writes). `explain --lock` keeps the index of the
//! lock file's packages beside it (`CATALOGUE.lock-HASH.xidx`, HASH naming
//! the packages), rebuilt when the catalogue changes.

use crate::{Db, Result};
use errdex_catalog::Location;
use errdex_match::{Index, Key, OpenError};
use sha2::{Digest, Sha256};
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
    /// Where this catalogue's explain index is kept: beside a SQLite
    /// catalogue, its name with `.xidx` added; for a PostgreSQL catalogue,
    /// `errdex/explain/HASH.xidx` in the user's cache folder, HASH naming
    /// its URL (without password).
    pub fn explain_index_path(&self) -> PathBuf {
        match &self.location {
            Location::Sqlite(path) => {
                let mut name = path.as_os_str().to_owned();
                name.push(".xidx");
                PathBuf::from(name)
            }
            Location::Postgres(url) => {
                let hash = Sha256::digest(url.to_string().as_bytes());
                let name: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
                dirs::cache_dir()
                    .unwrap_or_else(std::env::temp_dir)
                    .join("errdex/explain")
                    .join(format!("{name}.xidx"))
            }
        }
    }

    /// Where the index of only the packages `hash` names is kept: the
    /// catalogue's index path with `.lock-HASH` before `.xidx`.
    fn locked_index_path(&self, hash: &str) -> PathBuf {
        let path = self.explain_index_path();
        let stem = path.with_extension("");
        let mut name = stem.into_os_string();
        name.push(format!(".lock-{hash}.xidx"));
        PathBuf::from(name)
    }

    /// The catalogue state an index must have been built from: this
    /// catalogue (its canonical path, or its URL) and its snapshot set.
    fn explain_index_key(&self) -> Result<Key> {
        self.index_key(None)
    }

    /// [`Db::explain_index_key`] of the index of only the packages a hash
    /// names (`lock`), when given.
    fn index_key(&self, lock: Option<&str>) -> Result<Key> {
        let mut identity = match &self.location {
            Location::Sqlite(path) => std::fs::canonicalize(path)
                .unwrap_or_else(|_| path.clone())
                .to_string_lossy()
                .into_owned(),
            Location::Postgres(url) => url.to_string(),
        };
        if let Some(hash) = lock {
            identity.push_str("#lock-");
            identity.push_str(hash);
        }
        Ok(Key::new(&identity, &self.catalog.snapshots_state()?))
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

    /// The index of only the packages `only` names (a lock file's): opened
    /// from its file when built from the catalogue's current snapshots,
    /// else built from them and saved for the next `explain --lock`.
    pub(crate) fn locked_explain_index(
        &self,
        only: &[(String, String)],
    ) -> Result<(Index, Obtained)> {
        let hash = packages_hash(only);
        let path = self.locked_index_path(&hash);
        let key = self.index_key(Some(&hash))?;
        match Index::open(&path, &key) {
            Ok(index) => return Ok((index, Obtained::Opened)),
            Err(OpenError::Missing) => {}
            Err(e) => tracing::info!(path = %path.display(), "{e}: rebuilding it"),
        }
        let index = Index::from_data(self.catalog.match_data(Some(only))?);
        if let Err(e) = index.save(&path, &key) {
            tracing::warn!(path = %path.display(), "{e}");
        }
        Ok((index, Obtained::Rebuilt))
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
        if let Some(dir) = path
            .parent()
            .filter(|_| matches!(self.location, Location::Postgres(_)))
        {
            if let Err(e) = std::fs::create_dir_all(dir) {
                tracing::warn!(dir = %dir.display(), "{e}");
            }
        }
        if let Err(e) = index.save(&path, &key) {
            tracing::warn!(path = %path.display(), "{e}");
        }
        Ok(index)
    }
}

/// A short hash of a set of packages (in any order).
fn packages_hash(only: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = only.iter().collect();
    sorted.sort();
    let mut h = Sha256::new();
    for (repo, rev) in sorted {
        h.update(repo.as_bytes());
        h.update([0]);
        h.update(rev.as_bytes());
        h.update([0]);
    }
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
