//! Source texts, stored in zstd-compressed packs of several files so that
//! small files do not each waste a page, and addressed by a hash of their
//! text so that a file unchanged between snapshots is stored once.

use crate::backend::{args, Conn};
use crate::{CatalogError, Result};
use xxhash_rust::xxh3::xxh3_128;

/// A pack is closed once its uncompressed texts reach this size; reading a
/// file decompresses its whole pack, so this bounds the cost of an excerpt.
pub const PACK_BYTES: usize = 256 * 1024;

/// zstd level: 6 stores within 2% of level 15 at a quarter of its time.
const LEVEL: i32 = 6;

/// The content address of a text.
pub fn hash(text: &str) -> String {
    format!("{:032x}", xxh3_128(text.as_bytes()))
}

/// Compresses a pack's concatenated texts.
pub fn pack(raw: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(raw, LEVEL).expect("compressing into memory cannot fail")
}

/// Decompresses a pack and returns the text at `offset..offset + len`.
pub fn unpack(data: &[u8], offset: usize, len: usize) -> Result<String> {
    let raw = decompress(data)?;
    let bytes = slice(&raw, offset, len)?;
    String::from_utf8(bytes.to_vec()).map_err(|_| CatalogError::Corrupt("source text"))
}

/// Entries queued for packs of `table` (`packs` or `cache_packs`): a pack
/// is written once its bytes reach [`PACK_BYTES`], and `record` is told
/// where each entry went (`key, pack id, offset, len`).
pub struct PackWriter<K> {
    table: &'static str,
    raw: Vec<u8>,
    pending: Vec<(K, usize, usize)>,
}

impl<K> PackWriter<K> {
    /// Nothing queued yet.
    pub fn new(table: &'static str) -> Self {
        PackWriter {
            table,
            raw: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Queues `bytes` under `key`, writing a pack when full.
    pub fn push(
        &mut self,
        tx: &Conn,
        key: K,
        bytes: &[u8],
        record: &mut impl FnMut(K, i64, i64, i64) -> Result<()>,
    ) -> Result<()> {
        self.pending.push((key, self.raw.len(), bytes.len()));
        self.raw.extend_from_slice(bytes);
        if self.raw.len() >= PACK_BYTES {
            self.flush(tx, record)?;
        }
        Ok(())
    }

    /// Writes what is queued as one pack.
    pub fn flush(
        &mut self,
        tx: &Conn,
        record: &mut impl FnMut(K, i64, i64, i64) -> Result<()>,
    ) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pack_id: i64 = tx.query_one(
            &format!("INSERT INTO {} (data) VALUES (?1) RETURNING id", self.table),
            args![pack(&self.raw)],
            |r| r.get(0),
        )?;
        for (key, offset, len) in self.pending.drain(..) {
            record(key, pack_id, offset as i64, len as i64)?;
        }
        self.raw.clear();
        Ok(())
    }
}

/// Reads entries of packs, decompressing each pack once.
pub struct Packs<'c> {
    conn: &'c Conn,
    sql: String,
    raw: std::collections::HashMap<i64, Vec<u8>>,
}

impl<'c> Packs<'c> {
    /// Packs of `table` (`packs` or `cache_packs`: a fixed table name).
    pub fn new(conn: &'c Conn, table: &'static str) -> Self {
        Packs {
            conn,
            sql: format!("SELECT data FROM {table} WHERE id = ?1"),
            raw: Default::default(),
        }
    }

    /// `offset..offset + len` of pack `id`.
    pub fn get(&mut self, id: i64, offset: i64, len: i64) -> Result<&[u8]> {
        let raw = match self.raw.entry(id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let data: Vec<u8> = self.conn.query_one(&self.sql, args![id], |r| r.get(0))?;
                v.insert(decompress(&data)?)
            }
        };
        slice(raw, offset as usize, len as usize)
    }
}

/// A whole pack's bytes.
pub fn decompress(data: &[u8]) -> Result<Vec<u8>> {
    zstd::stream::decode_all(data).map_err(|_| CatalogError::Corrupt("pack"))
}

/// `offset..offset + len` of a decompressed pack.
pub fn slice(raw: &[u8], offset: usize, len: usize) -> Result<&[u8]> {
    raw.get(offset..offset.saturating_add(len))
        .ok_or(CatalogError::Corrupt("pack offset"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let raw = b"fn a() {}\nfn b() {}\n";
        let p = pack(raw);
        assert_eq!(unpack(&p, 10, 10).unwrap(), "fn b() {}\n");
        assert!(unpack(&p, 15, 100).is_err());
        assert!(unpack(b"garbage", 0, 1).is_err());
    }
}
