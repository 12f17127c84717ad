//! Per-file extraction results kept for the next snapshot: a file whose
//! path and text are unchanged is not parsed again. Entries are opaque
//! bytes to the catalogue, compressed, and tagged with the extractor build
//! that wrote them.

use crate::{blob, Catalog, CatalogError, Result, SnapshotInput};
use rusqlite::params;
use std::collections::HashMap;

/// zstd level for cache entries: small and fast to decompress.
const LEVEL: i32 = 3;

impl Catalog {
    /// The cached per-file results of `fingerprint` for these `(path,
    /// content hash)` pairs, decompressed, by pair index.
    pub fn cached_files(
        &self,
        fingerprint: &str,
        files: &[(&str, &str)],
    ) -> Result<HashMap<usize, Vec<u8>>> {
        let mut get = self.conn.prepare_cached(
            "SELECT data FROM file_cache WHERE path = ?1 AND hash = ?2 AND fingerprint = ?3",
        )?;
        let mut out = HashMap::new();
        for (i, (path, hash)) in files.iter().enumerate() {
            let mut rows = get.query(params![path, hash, fingerprint])?;
            if let Some(row) = rows.next()? {
                let data: Vec<u8> = row.get(0)?;
                let raw = zstd::stream::decode_all(data.as_slice())
                    .map_err(|_| CatalogError::Corrupt("file cache entry"))?;
                out.insert(i, raw);
            }
        }
        Ok(out)
    }
}

/// Inside the snapshot's transaction: adds this snapshot's parsed files and
/// drops entries of other builds or of files no snapshot holds any more.
pub(crate) fn store(tx: &rusqlite::Transaction, input: &SnapshotInput) -> Result<()> {
    let mut add = tx.prepare_cached(
        "INSERT OR REPLACE INTO file_cache (path, hash, fingerprint, data) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (i, bytes) in input.parsed {
        let Some(f) = input.files.get(*i) else {
            continue;
        };
        let data = zstd::bulk::compress(bytes, LEVEL).expect("compressing into memory cannot fail");
        add.execute(params![
            f.path,
            blob::hash(&f.text),
            input.fingerprint,
            data
        ])?;
    }
    tx.execute(
        "DELETE FROM file_cache WHERE fingerprint != ?1
            OR NOT EXISTS (SELECT 1 FROM files WHERE files.hash = file_cache.hash AND files.path = file_cache.path)",
        [input.fingerprint],
    )?;
    Ok(())
}
