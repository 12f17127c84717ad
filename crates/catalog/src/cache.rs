//! Per-file extraction results kept for the next snapshot: a file whose
//! path and text are unchanged is not parsed again. Entries are opaque
//! bytes to the catalogue, tagged with the extractor build that wrote them
//! and stored like source texts, several to a compressed pack (the entries
//! of one snapshot resemble each other, so packing them compresses far
//! better than one frame each).

use crate::{blob, Catalog, Result, SnapshotInput};
use rusqlite::params;
use std::collections::HashMap;

impl Catalog {
    /// The cached per-file results of `fingerprint` for these `(path,
    /// content hash)` pairs, by pair index.
    pub fn cached_files(
        &self,
        fingerprint: &str,
        files: &[(&str, &str)],
    ) -> Result<HashMap<usize, Vec<u8>>> {
        let mut get = self.conn.prepare_cached(
            "SELECT pack_id, offset, len FROM file_cache
             WHERE path = ?1 AND hash = ?2 AND fingerprint = ?3",
        )?;
        let mut packs = blob::Packs::new(&self.conn, "cache_packs")?;
        let mut out = HashMap::new();
        for (i, (path, hash)) in files.iter().enumerate() {
            let mut rows = get.query(params![path, hash, fingerprint])?;
            let Some(row) = rows.next()? else { continue };
            let (pack_id, offset, len): (i64, i64, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
            out.insert(i, packs.get(pack_id, offset, len)?.to_vec());
        }
        Ok(out)
    }
}

/// Inside the snapshot's transaction: adds this snapshot's parsed files and
/// drops entries of other builds or of files no snapshot holds any more.
pub(crate) fn store(tx: &rusqlite::Transaction, input: &SnapshotInput) -> Result<()> {
    let mut add = tx.prepare_cached(
        "INSERT OR REPLACE INTO file_cache (path, hash, fingerprint, pack_id, offset, len)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut record = |(path, hash): (&str, String), pack_id: i64, offset: i64, len: i64| {
        add.execute(params![path, hash, input.fingerprint, pack_id, offset, len])?;
        Ok(())
    };
    let mut packs = blob::PackWriter::new("cache_packs");
    for (i, bytes) in input.parsed {
        let Some(f) = input.files.get(*i) else {
            continue;
        };
        packs.push(
            tx,
            (f.path.as_str(), blob::hash(&f.text)),
            bytes,
            &mut record,
        )?;
    }
    packs.flush(tx, &mut record)?;
    tx.execute(
        "DELETE FROM file_cache WHERE fingerprint != ?1
            OR NOT EXISTS (SELECT 1 FROM files WHERE files.hash = file_cache.hash AND files.path = file_cache.path)",
        [input.fingerprint],
    )?;
    tx.execute(
        "DELETE FROM cache_packs WHERE NOT EXISTS (SELECT 1 FROM file_cache WHERE file_cache.pack_id = cache_packs.id)",
        [],
    )?;
    Ok(())
}
