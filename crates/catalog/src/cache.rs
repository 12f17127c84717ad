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
    let mut raw = Vec::new();
    let mut pending: Vec<(&str, String, usize, usize)> = Vec::new();
    for (i, bytes) in input.parsed {
        let Some(f) = input.files.get(*i) else {
            continue;
        };
        pending.push((&f.path, blob::hash(&f.text), raw.len(), bytes.len()));
        raw.extend_from_slice(bytes);
        if raw.len() >= blob::PACK_BYTES {
            write_pack(tx, input.fingerprint, &mut raw, &mut pending)?;
        }
    }
    write_pack(tx, input.fingerprint, &mut raw, &mut pending)?;
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

fn write_pack(
    tx: &rusqlite::Transaction,
    fingerprint: &str,
    raw: &mut Vec<u8>,
    pending: &mut Vec<(&str, String, usize, usize)>,
) -> Result<()> {
    if pending.is_empty() {
        return Ok(());
    }
    tx.execute(
        "INSERT INTO cache_packs (data) VALUES (?1)",
        [blob::pack(raw)],
    )?;
    let pack_id = tx.last_insert_rowid();
    let mut add = tx.prepare_cached(
        "INSERT OR REPLACE INTO file_cache (path, hash, fingerprint, pack_id, offset, len)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (path, hash, offset, len) in pending.drain(..) {
        add.execute(params![
            path,
            hash,
            fingerprint,
            pack_id,
            offset as i64,
            len as i64
        ])?;
    }
    raw.clear();
    Ok(())
}
