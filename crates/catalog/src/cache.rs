//! Per-file extraction results kept for the next snapshot: a file whose
//! path and text are unchanged is not parsed again. Entries are opaque
//! bytes to the catalogue, tagged with the extractor build that wrote them
//! and stored like source texts, several to a compressed pack (the entries
//! of one snapshot resemble each other, so packing them compresses far
//! better than one frame each).

use crate::backend::{args, Conn};
use crate::{blob, Catalog, Result, SnapshotInput};
use std::collections::{BTreeSet, HashMap, HashSet};

impl Catalog {
    /// The cached per-file results of `fingerprint` for these `(path,
    /// content hash)` pairs, by pair index.
    pub fn cached_files(
        &self,
        fingerprint: &str,
        files: &[(&str, &str)],
    ) -> Result<HashMap<usize, Vec<u8>>> {
        let mut packs = blob::Packs::new(&self.conn, "cache_packs");
        let wanted: HashMap<(&str, &str), usize> = files
            .iter()
            .enumerate()
            .map(|(i, &pair)| (pair, i))
            .collect();
        // By path: the first column of the table's key.
        let paths: Vec<&str> = files.iter().map(|&(path, _)| path).collect();
        let mut found: Vec<(usize, i64, i64, i64)> = Vec::new();
        self.conn.query_in(
            "SELECT path, hash, pack_id, \"offset\", len FROM file_cache
             WHERE fingerprint = ?1 AND path IN (KEYS)",
            args![fingerprint],
            &paths,
            |r| {
                let (path, hash): (String, String) = (r.get(0)?, r.get(1)?);
                if let Some(&i) = wanted.get(&(path.as_str(), hash.as_str())) {
                    found.push((i, r.get(2)?, r.get(3)?, r.get(4)?));
                }
                Ok(())
            },
        )?;
        let mut out = HashMap::new();
        for (i, pack_id, offset, len) in found {
            out.insert(i, packs.get(pack_id, offset, len)?.to_vec());
        }
        Ok(out)
    }
}

/// Inside the snapshot's transaction: adds this snapshot's parsed files and
/// drops entries of other builds, and of the `replaced` snapshot's files
/// (path, content hash) that no snapshot holds any more.
pub(crate) fn store(tx: &Conn, input: &SnapshotInput, replaced: &[(String, String)]) -> Result<()> {
    tx.inserting(
        "INSERT INTO file_cache (path, hash, fingerprint, pack_id, \"offset\", len)",
        "ON CONFLICT (path, hash) DO UPDATE SET fingerprint = excluded.fingerprint,
             pack_id = excluded.pack_id, \"offset\" = excluded.\"offset\", len = excluded.len",
        |rows| {
            let mut record = |(path, hash): (&str, String), pack_id: i64, offset: i64, len: i64| {
                rows.row(args![path, hash, input.fingerprint, pack_id, offset, len])
            };
            let mut packs = blob::PackWriter::new("cache_packs");
            // One entry per file: a statement may not update a row twice.
            let mut seen = HashSet::new();
            for (i, bytes) in input.parsed {
                let Some(f) = input.files.get(*i).filter(|_| seen.insert(*i)) else {
                    continue;
                };
                packs.push(
                    tx,
                    (f.path.as_str(), blob::hash(&f.text)),
                    bytes,
                    &mut record,
                )?;
            }
            packs.flush(tx, &mut record)
        },
    )?;
    // Entries of other extractor builds (an index on the fingerprint finds
    // them without a scan), and those of the replaced snapshot's files that
    // no snapshot holds now; then the packs left without an entry.
    let mut packs: BTreeSet<i64> = tx
        .query_vec(
            "DELETE FROM file_cache WHERE fingerprint < ?1 OR fingerprint > ?1 RETURNING pack_id",
            args![input.fingerprint],
            |r| r.get(0),
        )?
        .into_iter()
        .collect();
    for (path, hash) in replaced {
        packs.extend(tx.query_vec(
            "DELETE FROM file_cache WHERE path = ?1 AND hash = ?2
               AND NOT EXISTS (SELECT 1 FROM files WHERE files.hash = ?2 AND files.path = ?1)
             RETURNING pack_id",
            args![path, hash],
            |r| r.get::<i64>(0),
        )?);
    }
    for p in packs {
        tx.execute(
            "DELETE FROM cache_packs WHERE id = ?1
               AND NOT EXISTS (SELECT 1 FROM file_cache WHERE file_cache.pack_id = ?1)",
            args![p],
        )?;
    }
    Ok(())
}
