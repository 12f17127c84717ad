//! The explain index on disk, so that a start does not rebuild it: one
//! file per catalogue state, written whole and renamed into place, mapped
//! and read on demand. See `layout` for the bytes, `write` for how a built
//! index is saved and `mapped` for how a saved one is read.

mod layout;
mod mapped;
mod record;
mod write;

pub(crate) use mapped::Mapped;

/// The catalogue state an index file was built from: which catalogue, and
/// which set of snapshots (a file for another is stale).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// A hash of the catalogue's identity (its path, its URL).
    pub catalogue: u64,
    /// A hash of its snapshot set (ids, revisions, when each was indexed).
    pub snapshots: u64,
}

impl Key {
    /// The key of catalogue `identity` holding the snapshots `state`
    /// describes.
    pub fn new(identity: &str, state: &str) -> Key {
        Key {
            catalogue: xxhash_rust::xxh3::xxh3_64(identity.as_bytes()),
            snapshots: xxhash_rust::xxh3::xxh3_64(state.as_bytes()),
        }
    }
}

/// Why a persisted index cannot be used (the caller rebuilds it).
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// There is no file yet.
    #[error("no persisted index yet")]
    Missing,
    /// The file was built from another catalogue or snapshot set.
    #[error("the persisted index was built from another catalogue state")]
    Stale,
    /// The file is not an explain index.
    #[error("the file is not an errdex explain index")]
    Foreign,
    /// The file has another layout version.
    #[error("the persisted index has format {found}, this errdex reads {wanted}")]
    Version {
        /// The file's format.
        found: u32,
        /// This build's.
        wanted: u32,
    },
    /// The file was written by another build of errdex.
    #[error("the persisted index was written by another build of errdex")]
    Build,
    /// A length or checksum does not match.
    #[error("the persisted index is damaged: {0}")]
    Corrupt(&'static str),
    /// The file could not be read.
    #[error("reading the persisted index: {0}")]
    Io(#[from] std::io::Error),
}

/// Why an index could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Only an index built in memory is written.
    #[error("only an index built in memory can be saved")]
    NotBuilt,
    /// The file could not be written.
    #[error("writing the persisted index: {0}")]
    Io(#[from] std::io::Error),
}
