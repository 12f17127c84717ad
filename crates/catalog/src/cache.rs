//! Per-file extraction results kept for the next snapshot: a file whose
//! path and text are unchanged is not parsed again. Entries are opaque
//! bytes to the catalogue, tagged with the extractor build that wrote them
//! and stored like source texts, several to a compressed pack (the entries
//! of one snapshot resemble each other, so packing them compresses far
//! better than one frame each).

use crate::backend::{args, Conn};
use crate::{blob, Catalog, Result, SnapshotInput};
use std::collections::HashMap;

impl Catalog {
    /// The cached per-file results of `fingerprint` for these `(path,
    /// content hash)` pairs, by pair index.
    pub fn cached_files(
        &self,
        fingerprint: &str,
        files: &[(&str, &str)],
    ) -> Result<HashMap<usize, Vec<u8>>> {
        let mut packs = blob::Packs::new(&self.conn, "cache_packs");
        let mut out = HashMap::new();
        for (i, (path, hash)) in files.iter().enumerate() {
            let found = self.conn.query_opt(
                "SELECT pack_id, \"offset\", len FROM file_cache
                 WHERE path = ?1 AND hash = ?2 AND fingerprint = ?3",
                args![path, hash, fingerprint],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            let Some((pack_id, offset, len)) = found else {
                continue;
            };
            out.insert(i, packs.get(pack_id, offset, len)?.to_vec());
        }
        Ok(out)
    }
}

/// Inside the snapshot's transaction: adds this snapshot's parsed files and
/// drops entries of other builds or of files no snapshot holds any more.
pub(crate) fn store(tx: &Conn, input: &SnapshotInput) -> Result<()> {
    let mut record = |(path, hash): (&str, String), pack_id: i64, offset: i64, len: i64| {
        tx.execute(
            "INSERT INTO file_cache (path, hash, fingerprint, pack_id, \"offset\", len)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (path, hash) DO UPDATE SET fingerprint = excluded.fingerprint,
                 pack_id = excluded.pack_id, \"offset\" = excluded.\"offset\", len = excluded.len",
            args![path, hash, input.fingerprint, pack_id, offset, len],
        )?;
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
        args![input.fingerprint],
    )?;
    tx.execute(
        "DELETE FROM cache_packs WHERE NOT EXISTS (SELECT 1 FROM file_cache WHERE file_cache.pack_id = cache_packs.id)",
        args![],
    )?;
    Ok(())
}
