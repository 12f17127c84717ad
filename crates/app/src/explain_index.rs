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
//!
//! A catalogue that grew since its file was saved is not rebuilt: the file
//! is the base, and the snapshots indexed since are laid on it as a delta
//! built from their data alone (see `errdex_match::Index::layered`), so
//! adding a crate costs that crate. The base is rebuilt (merged) when the
//! delta holds more than [`MAX_DELTA_SHARE`] of the catalogue's sites, or
//! when a snapshot of the base was removed or indexed again.

use crate::{Db, Result};
use errdex_catalog::{Location, Member, Snapshots};
use errdex_match::{Index, Key, OpenError};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// The share of the catalogue's sites a delta may hold; past it, the base
/// is rebuilt with them (each rebuild then follows a growth of the
/// catalogue by this share, so indexing crates one by one costs a bounded
/// multiple of indexing them at once).
pub const MAX_DELTA_SHARE: f64 = 0.1;

/// How the index at hand was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Obtained {
    /// Mapped from its file.
    Opened,
    /// Mapped from its file, with the snapshots indexed since laid on it.
    Layered,
    /// Built from the catalogue (and saved, where the folder allows).
    Rebuilt,
}

/// The snapshots indexed since a base was saved, when a delta can hold
/// them: those whose row id is above this one.
struct Plan {
    after: i64,
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
        if let Some(plan) = self.delta_plan(&key)? {
            match Index::open_base(&path, key.catalogue) {
                Ok(base) => {
                    let delta = Snapshots {
                        after: plan.after,
                        upto: i64::MAX,
                    };
                    let index = base.layered(self.catalog.match_data_between(delta)?);
                    return Ok((index, Obtained::Layered));
                }
                Err(e) => tracing::info!(path = %path.display(), "{e}: rebuilding it"),
            }
        }
        Ok((self.save_explain_index(key)?, Obtained::Rebuilt))
    }

    /// How to lay the snapshots indexed since on the persisted index of
    /// this catalogue, when they fit in a delta (see [`MAX_DELTA_SHARE`]):
    /// every snapshot of the base is still there, as it was indexed, and
    /// the new ones come after them. Reads only the file's list of members.
    fn delta_plan(&self, key: &Key) -> Result<Option<Plan>> {
        let path = self.explain_index_path();
        let base = match Index::saved_members(&path, key.catalogue) {
            Ok(base) => base,
            Err(OpenError::Missing) => return Ok(None),
            Err(e) => {
                tracing::info!(path = %path.display(), "{e}: rebuilding it");
                return Ok(None);
            }
        };
        let members = self.catalog.snapshot_members()?;
        Ok(delta_plan(&base, &members))
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

    /// Brings the persisted explain index up to date after `errdex index`
    /// wrote snapshots: nothing to do while they fit in a delta on the
    /// saved base (a reader lays them on it), else rebuilt.
    pub fn refresh_explain_index(&self) -> Result<()> {
        let key = self.explain_index_key()?;
        match Index::open(&self.explain_index_path(), &key) {
            Ok(_) => Ok(()),
            Err(_) if self.delta_plan(&key)?.is_some() => Ok(()),
            Err(_) => self.save_explain_index(key).map(drop),
        }
    }

    /// [`Db::refresh_explain_index`], keeping the index built in memory.
    pub(crate) fn rebuild_explain_index(&self) -> Result<Index> {
        let key = self.explain_index_key()?;
        self.save_explain_index(key)
    }

    /// Builds the index from the catalogue and saves it for `key`; a file
    /// that cannot be written is only warned about.
    fn save_explain_index(&self, key: Key) -> Result<Index> {
        // The members are read first, and the data of those alone: a
        // snapshot written meanwhile is left to a delta, never counted twice.
        let members = self.catalog.snapshot_members()?;
        let upto = members.last().map_or(0, |m| m.id);
        let data = self.catalog.match_data_between(Snapshots {
            after: i64::MIN,
            upto,
        })?;
        let index = Index::from_data(data)
            .with_members(members.into_iter().map(|m| (m.id, m.indexed_at)).collect());
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

/// Whether the catalogue's snapshots `now` are a base's (`base`: row id
/// and when indexed) and a delta of snapshots after them holding at most
/// [`MAX_DELTA_SHARE`] of the sites.
fn delta_plan(base: &[(i64, String)], now: &[Member]) -> Option<Plan> {
    let after = base.iter().map(|m| m.0).max()?;
    let current: std::collections::HashMap<i64, &str> =
        now.iter().map(|m| (m.id, m.indexed_at.as_str())).collect();
    if base
        .iter()
        .any(|(id, at)| current.get(id) != Some(&at.as_str()))
    {
        return None;
    }
    // A snapshot the base lacks among its own row ids is not a delta's.
    let newer: Vec<&Member> = now.iter().filter(|m| m.id > after).collect();
    if now.len() != base.len() + newer.len() {
        return None;
    }
    let total: i64 = now.iter().map(|m| m.sites).sum();
    let delta: i64 = newer.iter().map(|m| m.sites).sum();
    (delta as f64 <= MAX_DELTA_SHARE * total as f64).then_some(Plan { after })
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
