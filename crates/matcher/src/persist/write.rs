//! Writes a built index to its file: the sections laid out in memory, the
//! block checksums, the header, then a temporary file in the same folder
//! renamed over the old one (readers keep the file they mapped).

use super::layout::{self, Header, Section, BLOCK, FORMAT, HEADER};
use super::record::{self, Meta, PatternRecord};
use super::{Key, SaveError};
use crate::index::{file_name, Built, Index, Store};
use std::io::Write;
use std::path::Path;

/// The body being laid out: sections one after another, 8-aligned.
#[derive(Default)]
struct Body {
    bytes: Vec<u8>,
    table: Vec<(u64, u64)>,
}

impl Body {
    /// Appends the next section.
    fn section(&mut self, s: Section, bytes: &[u8]) {
        debug_assert_eq!(self.table.len(), s.index(), "sections in file order");
        self.bytes.resize(self.bytes.len().next_multiple_of(8), 0);
        self.table
            .push((self.bytes.len() as u64, bytes.len() as u64));
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends a table of u64 offsets and the records it points into.
    fn records(&mut self, offsets: Section, data: Section, records: impl Iterator<Item = Vec<u8>>) {
        let mut offs: Vec<u64> = vec![0];
        let mut bytes = Vec::new();
        for r in records {
            bytes.extend_from_slice(&r);
            offs.push(bytes.len() as u64);
        }
        self.section(offsets, bytemuck::cast_slice(&offs));
        self.section(data, &bytes);
    }
}

/// An fst map from sorted keys to their ordinals.
fn ordinals<'a>(keys: impl Iterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut b = fst::MapBuilder::memory();
    for (i, k) in keys.enumerate() {
        b.insert(k, i as u64).expect("keys are sorted and distinct");
    }
    b.into_inner().expect("an fst in memory")
}

/// A line's key: the file name, 0xFF (never in UTF-8), the line.
pub(crate) fn line_key(file: &str, line: u32) -> Vec<u8> {
    let mut k = Vec::with_capacity(file.len() + 5);
    k.extend_from_slice(file.as_bytes());
    k.push(0xFF);
    k.extend_from_slice(&line.to_be_bytes());
    k
}

/// Lists of u32 laid out flat, with the u64 offset of each list.
fn flat<T: Copy + bytemuck::Pod>(
    lists: impl Iterator<Item = impl AsRef<[T]>>,
) -> (Vec<u64>, Vec<T>) {
    let mut offs = vec![0u64];
    let mut all = Vec::new();
    for l in lists {
        all.extend_from_slice(l.as_ref());
        offs.push(all.len() as u64);
    }
    (offs, all)
}

/// The body of a built index.
fn body(b: &Built, index: &Index) -> Body {
    let mut body = Body::default();
    let mut words: Vec<(&String, &Vec<u32>)> = b.words.iter().collect();
    words.sort_by(|x, y| x.0.cmp(y.0));
    body.section(
        Section::Words,
        &ordinals(words.iter().map(|w| w.0.as_bytes())),
    );
    let (offs, postings) = flat(words.iter().map(|w| w.1));
    body.section(Section::PostingOffsets, bytemuck::cast_slice(&offs));
    body.section(Section::Postings, bytemuck::cast_slice(&postings));
    let none = Vec::new();
    let (offs, filed) = flat(words.iter().map(|w| b.filed.get(w.0).unwrap_or(&none)));
    body.section(Section::FiledOffsets, bytemuck::cast_slice(&offs));
    body.section(Section::Filed, bytemuck::cast_slice(&filed));
    body.section(Section::Anchors, &b.anchors);
    let (offs, hashes) = flat(b.pattern_words.iter());
    body.section(Section::WordHashOffsets, bytemuck::cast_slice(&offs));
    body.section(Section::WordHashes, bytemuck::cast_slice(&hashes));
    body.records(
        Section::PatternOffsets,
        Section::PatternData,
        b.compiled.iter().map(|c| {
            record::encode(&PatternRecord {
                entries: c.entries.clone(),
                literals: c.literals.clone(),
            })
        }),
    );
    body.records(
        Section::EntryOffsets,
        Section::EntryData,
        b.entries.iter().map(record::encode_entry),
    );
    body.records(
        Section::LiteralOffsets,
        Section::LiteralData,
        b.literals.iter().map(record::encode_literal),
    );
    let mut lines: Vec<(Vec<u8>, &Vec<[u32; 2]>)> = b
        .by_line
        .iter()
        .map(|((f, l), sites)| (line_key(file_name(f), *l), sites))
        .collect();
    lines.sort_by(|x, y| x.0.cmp(&y.0));
    body.section(
        Section::Lines,
        &ordinals(lines.iter().map(|l| l.0.as_slice())),
    );
    let (offs, sites) = flat(lines.iter().map(|l| l.1));
    body.section(Section::LineOffsets, bytemuck::cast_slice(&offs));
    body.section(Section::LineSites, bytemuck::cast_slice(&sites));
    body.section(Section::PatternKeys, bytemuck::cast_slice(&b.key_order));
    let mut snapshots: Vec<(String, String, i64)> = index
        .snapshots
        .iter()
        .map(|((r, v), id)| (r.clone(), v.clone(), *id))
        .collect();
    snapshots.sort();
    let mut deps: Vec<(i64, Vec<String>)> =
        index.deps.iter().map(|(k, v)| (*k, v.clone())).collect();
    deps.sort();
    let mut dates: Vec<(i64, String)> = index.dates.iter().map(|(k, v)| (*k, v.clone())).collect();
    dates.sort();
    let mut short: Vec<(i64, Vec<u32>)> = index
        .reports
        .short
        .iter()
        .map(|(k, v)| (*k, v.clone()))
        .collect();
    short.sort();
    let meta = Meta {
        entries: b.entries.len() as u64,
        patterns: b.compiled.len() as u64,
        literals: b.literals.len() as u64,
        snapshots,
        deps,
        dates,
        layouts: index.reports.layouts.clone(),
        short,
        members: index.members.clone(),
    };
    body.section(Section::Meta, &record::encode(&meta));
    body
}

impl Index {
    /// Writes the index to `path` for the catalogue state `key`, atomically
    /// (a temporary file in the same folder, then renamed). Only an index
    /// built in memory, without a delta, is written.
    pub fn save(&self, path: &Path, key: &Key) -> Result<(), SaveError> {
        let (Store::Built(b), None) = (&self.store, &self.delta) else {
            return Err(SaveError::NotBuilt);
        };
        let body = body(b, self);
        let blocks: Vec<u32> = body.bytes.chunks(BLOCK).map(crc32fast::hash).collect();
        let mut tables = Vec::with_capacity(body.table.len() * 16 + blocks.len() * 4);
        for (off, len) in &body.table {
            tables.extend_from_slice(&off.to_le_bytes());
            tables.extend_from_slice(&len.to_le_bytes());
        }
        for c in &blocks {
            tables.extend_from_slice(&c.to_le_bytes());
        }
        let mut header = Header {
            format: FORMAT,
            sections: body.table.len() as u32,
            fingerprint: layout::fingerprint(),
            catalogue: key.catalogue,
            snapshots: key.snapshots,
            body_len: body.bytes.len() as u64,
            blocks: blocks.len() as u64,
            crc: 0,
        };
        header.crc = layout::header_crc(&header.write(), &tables);
        let start = header.body_start().expect("a written header has a body");
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = dir.unwrap_or(Path::new("."));
        let mut builder = tempfile::Builder::new();
        builder.prefix(".errdex-xidx-");
        // Readable by whoever may read the catalogue (a temporary file is
        // private by default).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
        let mut tmp = builder.tempfile_in(dir)?;
        {
            let mut w = std::io::BufWriter::new(tmp.as_file_mut());
            w.write_all(&header.write())?;
            w.write_all(&tables)?;
            w.write_all(&vec![0u8; start - HEADER - tables.len()])?;
            w.write_all(&body.bytes)?;
            w.flush()?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| SaveError::Io(e.error))?;
        Ok(())
    }
}
