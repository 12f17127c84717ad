//! A persisted index, memory-mapped: opening it checks the header, the
//! tables and the small sections (the fst maps, the metadata); every other
//! byte is checked against its block's CRC-32 the first time a query reads
//! it, and records are decoded (patterns compiled) on first use, once per
//! process. A block that fails its check marks the index damaged: it
//! answers from placeholders (never a panic), and the caller rebuilds.

use super::layout::{self, Header, Section, BLOCK, FORMAT, HEADER, MAGIC};
use super::record::{self, Meta, PatternRecord};
use super::write::line_key;
use super::{Key, OpenError};
use crate::filed::Filed;
use crate::index::{
    has_debug_suffix, literal_template, Compiled, Entry, Index, ReportLiterals, Store,
};
use crate::lazy::LazyTable;
use crate::pattern::Pattern;
use errdex_model::{Kind, LiteralEntry, MatchEntry, Template};
use memmap2::Mmap;
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// A range of the mapped file, for the fst maps to read in place.
#[derive(Clone)]
pub(crate) struct Part {
    map: Arc<Mmap>,
    range: Range<usize>,
}

impl AsRef<[u8]> for Part {
    fn as_ref(&self) -> &[u8] {
        &self.map[self.range.clone()]
    }
}

/// The mapped file and what was decoded of it.
pub(crate) struct Mapped {
    map: Arc<Mmap>,
    /// Where the body starts in the file.
    body: usize,
    /// Each section's range in the file.
    sections: Vec<Range<usize>>,
    /// Where the block checksums are in the file.
    block_sums: usize,
    /// One bit per block: checked already.
    checked: Box<[AtomicU64]>,
    damaged: AtomicBool,
    words: fst::Map<Part>,
    lines: fst::Map<Part>,
    counts: [usize; 3],
    entries: LazyTable<Option<Entry>>,
    compiled: LazyTable<Option<Compiled>>,
    literals: LazyTable<Option<LiteralEntry>>,
    /// What a damaged record reads as.
    placeholder: (Entry, Compiled, LiteralEntry),
}

/// What a damaged record reads as: nothing that matches or locates.
fn placeholders() -> (Entry, Compiled, LiteralEntry) {
    let entry = Entry {
        error: MatchEntry {
            id: String::new(),
            repo: String::new(),
            revision: String::new(),
            snapshot_id: -1,
            kind: Kind::Panic,
            template: Template::new(),
            item_path: String::new(),
            sites: Vec::new(),
        },
        template_text: String::new(),
        pattern: u32::MAX as usize,
    };
    let compiled = Compiled {
        pattern: Pattern::new(&Template::new(), false),
        entries: Vec::new(),
        literals: Vec::new(),
    };
    let literal = LiteralEntry {
        repo: String::new(),
        revision: String::new(),
        snapshot_id: -1,
        path: String::new(),
        line: 0,
        text: String::new(),
        is_test: false,
    };
    (entry, compiled, literal)
}

/// A little-endian u64 of a table (the caller checked the length).
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

/// Whether block `b` of the body matches its checksum.
fn block_ok(map: &[u8], body: usize, block_sums: usize, b: usize) -> bool {
    let start = body + b * BLOCK;
    let block = &map[start..(start + BLOCK).min(map.len())];
    let at = block_sums + b * 4;
    let sum = u32::from_le_bytes(map[at..at + 4].try_into().expect("four bytes"));
    crc32fast::hash(block) == sum
}

impl Index {
    /// Opens the index persisted at `path` for the catalogue state `key`:
    /// an error says why it cannot be used (missing, another catalogue
    /// state, another format or build, damaged), and the caller rebuilds.
    pub fn open(path: &Path, key: &Key) -> Result<Index, OpenError> {
        Index::open_as(path, key.catalogue, Some(key.snapshots))
    }

    /// Opens the index persisted at `path` for catalogue `catalogue` (a
    /// [`Key::catalogue`]) whatever snapshots it was built from: see
    /// [`Index::members`] for which, and [`Index::layered`] to add those
    /// indexed since.
    pub fn open_base(path: &Path, catalogue: u64) -> Result<Index, OpenError> {
        Index::open_as(path, catalogue, None)
    }

    /// The snapshots the index persisted at `path` for catalogue
    /// `catalogue` was built from (see [`Index::members`]), read without
    /// opening the index: enough to decide whether to lay a delta on it.
    pub fn saved_members(path: &Path, catalogue: u64) -> Result<Vec<(i64, String)>, OpenError> {
        let file = std::fs::File::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => OpenError::Missing,
            _ => OpenError::Io(e),
        })?;
        // SAFETY: as in `open_as`.
        let map = Arc::new(unsafe { Mmap::map(&file)? });
        let meta: Meta = Mapped::new(map, catalogue, None)?
            .section(Section::Meta)
            .and_then(record::decode)
            .ok_or(OpenError::Corrupt("the metadata does not decode"))?;
        Ok(meta.members)
    }

    /// [`Index::open`], checking the snapshot set only when given.
    fn open_as(path: &Path, catalogue: u64, snapshots: Option<u64>) -> Result<Index, OpenError> {
        let file = std::fs::File::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => OpenError::Missing,
            _ => OpenError::Io(e),
        })?;
        // SAFETY: the file is only ever replaced by a rename, never written
        // in place, so the mapping does not change under us; every byte
        // read from it is bounds-checked and checksummed first.
        let map = Arc::new(unsafe { Mmap::map(&file)? });
        let mapped = Mapped::new(map, catalogue, snapshots)?;
        let meta: Meta = mapped
            .section(Section::Meta)
            .and_then(record::decode)
            .ok_or(OpenError::Corrupt("the metadata does not decode"))?;
        let mut deps: HashMap<i64, Vec<String>> = HashMap::new();
        for (id, d) in meta.deps {
            deps.insert(id, d);
        }
        let snapshots = meta
            .snapshots
            .into_iter()
            .map(|(r, v, id)| ((r, v), id))
            .collect();
        let mapped = mapped.with_counts([
            meta.entries as usize,
            meta.patterns as usize,
            meta.literals as usize,
        ])?;
        let index = Index {
            store: Store::Mapped(Box::new(mapped)),
            delta: None,
            members: meta.members,
            snapshots,
            deps: HashMap::new(),
            dates: meta.dates.into_iter().collect(),
            dependents: HashMap::new(),
            reports: ReportLiterals {
                layouts: meta.layouts,
                short: meta.short.into_iter().collect(),
            },
        };
        Ok(index.with_dependencies(deps))
    }

    /// True when a query read a damaged part of a persisted index: its
    /// answers may lack candidates, and the index must be rebuilt.
    pub fn damaged(&self) -> bool {
        match &self.store {
            Store::Built(_) => false,
            Store::Mapped(m) => m.damaged.load(Ordering::Relaxed),
        }
    }
}

impl Mapped {
    /// Checks the header and tables against `key` and the small sections
    /// in full.
    fn new(map: Arc<Mmap>, catalogue: u64, snapshots: Option<u64>) -> Result<Mapped, OpenError> {
        let head: &[u8; HEADER] = map
            .get(..HEADER)
            .and_then(|h| h.try_into().ok())
            .ok_or(OpenError::Foreign)?;
        if &head[..8] != MAGIC {
            return Err(OpenError::Foreign);
        }
        let h = Header::read(head);
        if h.format != FORMAT {
            return Err(OpenError::Version {
                found: h.format,
                wanted: FORMAT,
            });
        }
        if h.sections as usize != Section::ALL.len() {
            return Err(OpenError::Corrupt("the section table has another length"));
        }
        let body = h
            .body_start()
            .ok_or(OpenError::Corrupt("the tables' lengths overflow"))?;
        let end = usize::try_from(h.body_len)
            .ok()
            .and_then(|l| body.checked_add(l));
        if end != Some(map.len()) {
            return Err(OpenError::Corrupt("the file's length is not the header's"));
        }
        if (h.body_len as usize).div_ceil(BLOCK) as u64 != h.blocks {
            return Err(OpenError::Corrupt("the block count is not the body's"));
        }
        let tables_len = h.sections as usize * 16 + h.blocks as usize * 4;
        let tables = &map[HEADER..HEADER + tables_len];
        if layout::header_crc(head, tables) != h.crc {
            return Err(OpenError::Corrupt("the header's checksum does not match"));
        }
        if h.fingerprint != layout::fingerprint() {
            return Err(OpenError::Build);
        }
        if h.catalogue != catalogue || snapshots.is_some_and(|s| s != h.snapshots) {
            return Err(OpenError::Stale);
        }
        let mut sections = Vec::with_capacity(Section::ALL.len());
        for i in 0..Section::ALL.len() {
            let (off, len) = (u64_at(tables, i * 16), u64_at(tables, i * 16 + 8));
            let range = usize::try_from(off)
                .ok()
                .zip(usize::try_from(len).ok())
                .and_then(|(o, l)| Some(body + o..body.checked_add(o)?.checked_add(l)?))
                .filter(|r| r.end <= map.len() && r.start % 8 == 0)
                .ok_or(OpenError::Corrupt("a section lies outside the file"))?;
            sections.push(range);
        }
        let block_sums = HEADER + h.sections as usize * 16;
        for s in [Section::Words, Section::Lines, Section::Meta] {
            let r = &sections[s.index()];
            if !r.is_empty() {
                let (first, last) = ((r.start - body) / BLOCK, (r.end - 1 - body) / BLOCK);
                if !(first..=last).all(|b| block_ok(&map, body, block_sums, b)) {
                    return Err(OpenError::Corrupt("a checksum does not match"));
                }
            }
        }
        let part = |s: Section| Part {
            map: map.clone(),
            range: sections[s.index()].clone(),
        };
        let words = fst::Map::new(part(Section::Words))
            .map_err(|_| OpenError::Corrupt("the word map does not read"))?;
        let lines = fst::Map::new(part(Section::Lines))
            .map_err(|_| OpenError::Corrupt("the line map does not read"))?;
        Ok(Mapped {
            body,
            block_sums,
            checked: (0..(h.blocks as usize).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            damaged: AtomicBool::new(false),
            words,
            lines,
            counts: [0; 3],
            entries: LazyTable::new(0),
            compiled: LazyTable::new(0),
            literals: LazyTable::new(0),
            placeholder: placeholders(),
            sections,
            map,
        })
    }

    /// Sets the record counts and checks them against the offset tables.
    fn with_counts(mut self, counts: [usize; 3]) -> Result<Mapped, OpenError> {
        let tables = [
            Section::EntryOffsets,
            Section::PatternOffsets,
            Section::LiteralOffsets,
        ];
        let hashes = Section::WordHashOffsets;
        for (n, s) in counts.iter().zip(tables) {
            if self.sections[s.index()].len() != (n + 1) * 8 {
                return Err(OpenError::Corrupt("a record table has another length"));
            }
        }
        if self.sections[hashes.index()].len() != (counts[1] + 1) * 8
            || self.sections[Section::Anchors.index()].len() != counts[1]
            || self.sections[Section::PatternKeys.index()].len() != counts[1] * 16
        {
            return Err(OpenError::Corrupt("a pattern table has another length"));
        }
        self.counts = counts;
        self.entries = LazyTable::new(counts[0]);
        self.compiled = LazyTable::new(counts[1]);
        self.literals = LazyTable::new(counts[2]);
        Ok(self)
    }

    /// Bytes `range` of the file, each block checked once; `None` (and the
    /// index marked damaged) when one fails.
    fn checked(&self, range: Range<usize>) -> Option<&[u8]> {
        if range.start < self.body || range.end > self.map.len() || range.start > range.end {
            self.damaged.store(true, Ordering::Relaxed);
            return None;
        }
        if range.is_empty() {
            return Some(&[]);
        }
        let first = (range.start - self.body) / BLOCK;
        let last = (range.end - 1 - self.body) / BLOCK;
        for b in first..=last {
            let (word, bit) = (&self.checked[b / 64], 1u64 << (b % 64));
            if word.load(Ordering::Relaxed) & bit != 0 {
                continue;
            }
            if !block_ok(&self.map, self.body, self.block_sums, b) {
                tracing::warn!(
                    block = b,
                    "a block of the persisted explain index is damaged"
                );
                self.damaged.store(true, Ordering::Relaxed);
                return None;
            }
            word.fetch_or(bit, Ordering::Relaxed);
        }
        Some(&self.map[range])
    }

    /// A whole section, checked.
    fn section(&self, s: Section) -> Option<&[u8]> {
        self.checked(self.sections[s.index()].clone())
    }

    /// Items `from..to` of a section of `T`s, checked.
    fn items<T: bytemuck::Pod>(&self, s: Section, from: u64, to: u64) -> Option<&[T]> {
        let size = std::mem::size_of::<T>() as u64;
        let sec = &self.sections[s.index()];
        let (a, b) = (from.checked_mul(size)?, to.checked_mul(size)?);
        if a > b || b > sec.len() as u64 {
            self.damaged.store(true, Ordering::Relaxed);
            return None;
        }
        let bytes = self.checked(sec.start + a as usize..sec.start + b as usize)?;
        bytemuck::try_cast_slice(bytes).ok()
    }

    /// The `i`th list of a flat section of `T`s, through its offset table.
    fn list<T: bytemuck::Pod>(&self, offsets: Section, data: Section, i: u64) -> &[T] {
        self.items::<u64>(offsets, i, i + 2)
            .and_then(|o| self.items::<T>(data, o[0], o[1]))
            .unwrap_or(&[])
    }

    /// The `i`th record of a data section, through its offset table.
    fn record(&self, offsets: Section, data: Section, i: u64) -> Option<&[u8]> {
        let o = self.items::<u64>(offsets, i, i + 2)?;
        self.items::<u8>(data, o[0], o[1])
    }

    /// A record that did not decode: the index is damaged.
    fn undecoded(&self) {
        tracing::warn!("a record of the persisted explain index does not decode");
        self.damaged.store(true, Ordering::Relaxed);
    }

    /// Number of entries.
    pub fn entry_count(&self) -> usize {
        self.counts[0]
    }

    /// Number of distinct templates.
    pub fn pattern_count(&self) -> usize {
        self.counts[1]
    }

    /// Number of free literals.
    pub fn literal_count(&self) -> usize {
        self.counts[2]
    }

    /// The pattern whose template key is `key`, if any.
    pub fn pattern_by_key(&self, key: u64) -> Option<u32> {
        let n = self.sections[Section::PatternKeys.index()].len() as u64 / 16;
        let at = |i: u64| {
            self.items::<[u64; 2]>(Section::PatternKeys, i, i + 1)
                .map(|p| p[0])
        };
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let [k, p] = at(mid)?;
            match k.cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return u32::try_from(p).ok(),
            }
        }
        None
    }

    /// Entry `e`, decoded on first use.
    pub fn entry(&self, e: u32) -> &Entry {
        if e as usize >= self.counts[0] {
            self.damaged.store(true, Ordering::Relaxed);
            return &self.placeholder.0;
        }
        let decoded = self.entries.get_or(e as usize, || {
            let r = self.record(Section::EntryOffsets, Section::EntryData, e.into());
            r.and_then(record::decode_entry)
        });
        decoded.as_ref().unwrap_or_else(|| {
            self.undecoded();
            &self.placeholder.0
        })
    }

    /// Pattern `p` compiled, with what prints it, on first use.
    pub fn compiled(&self, p: u32) -> &Compiled {
        if p as usize >= self.counts[1] {
            self.damaged.store(true, Ordering::Relaxed);
            return &self.placeholder.1;
        }
        let made = self.compiled.get_or(p as usize, || {
            let r = self.record(Section::PatternOffsets, Section::PatternData, p.into());
            let r: PatternRecord = r.and_then(record::decode)?;
            let pattern = match (r.entries.first(), r.literals.first()) {
                (Some(&e), _) => {
                    let e = &self.entry(e).error;
                    Pattern::new(&e.template, has_debug_suffix(e.kind))
                }
                (None, Some(&l)) => Pattern::new(&literal_template(&self.literal(l).text), false),
                (None, None) => return None,
            };
            Some(Compiled {
                pattern,
                entries: r.entries,
                literals: r.literals,
            })
        });
        made.as_ref().unwrap_or_else(|| {
            self.undecoded();
            &self.placeholder.1
        })
    }

    /// Free literal `l`, decoded on first use.
    pub fn literal(&self, l: u32) -> &LiteralEntry {
        if l as usize >= self.counts[2] {
            self.damaged.store(true, Ordering::Relaxed);
            return &self.placeholder.2;
        }
        let decoded = self.literals.get_or(l as usize, || {
            let r = self.record(Section::LiteralOffsets, Section::LiteralData, l.into());
            r.and_then(record::decode_literal)
        });
        decoded.as_ref().unwrap_or_else(|| {
            self.undecoded();
            &self.placeholder.2
        })
    }

    /// The patterns filed under an anchor word.
    pub fn anchored(&self, word: &str) -> &[u32] {
        match self.words.get(word) {
            Some(i) => self.list(Section::PostingOffsets, Section::Postings, i),
            None => &[],
        }
    }

    /// The patterns whose rarest word is `word`.
    pub fn filed(&self, word: &str) -> &[Filed] {
        match self.words.get(word) {
            Some(i) => self.list(Section::FiledOffsets, Section::Filed, i),
            None => &[],
        }
    }

    /// How many anchor words pattern `p` is filed under.
    pub fn anchor_count(&self, p: u32) -> usize {
        self.items::<u8>(Section::Anchors, p.into(), u64::from(p) + 1)
            .map_or(0, |a| a[0] as usize)
    }

    /// The hashes of pattern `p`'s whole words.
    pub fn words_of(&self, p: u32) -> &[u64] {
        self.list(Section::WordHashOffsets, Section::WordHashes, p.into())
    }

    /// The (entry, site) pairs a report naming `file` at `line` points at.
    pub fn sites_at(&self, file: &str, line: u32) -> &[[u32; 2]] {
        let Some(i) = self.lines.get(line_key(file, line)) else {
            return &[];
        };
        let pairs: &[[u32; 2]] = self.list(Section::LineOffsets, Section::LineSites, i);
        // A pair must name a site its entry has.
        if pairs
            .iter()
            .all(|&[e, s]| (s as usize) < self.entry(e).error.sites.len())
        {
            pairs
        } else {
            self.damaged.store(true, Ordering::Relaxed);
            &[]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::{Hole, MatchSite};

    fn entry(i: usize, template: Template) -> MatchEntry {
        MatchEntry {
            id: format!("{i:016x}"),
            repo: "crate:demo".into(),
            revision: "1.0.0".into(),
            snapshot_id: 1,
            kind: Kind::Panic,
            template,
            item_path: "demo::f".into(),
            sites: vec![MatchSite {
                path: "src/lib.rs".into(),
                line: i as u32 + 1,
                end_line: i as u32 + 1,
                report_line: i as u32 + 1,
                report_column: 5,
                reported_at_caller: false,
                is_test: false,
            }],
        }
    }

    fn demo() -> Index {
        let mut errors = Vec::new();
        for i in 0..200 {
            let mut t =
                Template::literal(format!("widget number{i} failed to frobnicate the gizmo "));
            t.push_hole(Hole {
                arg: "why".into(),
                spec: String::new(),
            });
            errors.push(entry(i, t));
        }
        Index::build(errors, Vec::new())
    }

    const KEY: Key = Key {
        catalogue: 1,
        snapshots: 2,
    };

    #[test]
    fn opened_answers_as_built_and_other_keys_are_stale() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.xidx");
        let built = demo();
        built.save(&path, &KEY).unwrap();
        let opened = Index::open(&path, &KEY).unwrap();
        assert_eq!(
            (opened.len(), opened.templates()),
            (built.len(), built.templates())
        );
        for q in [
            "widget number7 failed to frobnicate the gizmo: out of cheese",
            "thread 'main' panicked at src/lib.rs:8:5:\nwidget number7 failed",
            "nothing of the kind",
        ] {
            assert_eq!(opened.explain(q), built.explain(q), "{q}");
        }
        assert!(!opened.damaged());
        let other = Key {
            snapshots: 3,
            ..KEY
        };
        assert!(matches!(Index::open(&path, &other), Err(OpenError::Stale)));
        assert!(matches!(
            opened.save(&path, &KEY),
            Err(crate::persist::SaveError::NotBuilt)
        ));
    }

    #[test]
    fn a_damaged_record_marks_the_index_damaged_without_panicking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.xidx");
        demo().save(&path, &KEY).unwrap();
        let Store::Mapped(m) = Index::open(&path, &KEY).unwrap().store else {
            unreachable!("opened indexes are mapped")
        };
        let entries = m.sections[Section::EntryData.index()].clone();
        // Not in a block the small sections after it share (opening checks
        // those).
        let block = |at: usize| (at - m.body) / BLOCK;
        let shared = block(m.sections[Section::Lines.index()].start);
        let damaged: Vec<usize> = entries
            .step_by(BLOCK / 2)
            .filter(|&at| block(at) < shared)
            .collect();
        assert!(!damaged.is_empty());
        drop(m);
        let mut bytes = std::fs::read(&path).unwrap();
        for at in damaged {
            bytes[at] ^= 0xff;
        }
        std::fs::write(&path, &bytes).unwrap();
        let opened = Index::open(&path, &KEY).unwrap();
        let x = opened.explain("widget number7 failed to frobnicate the gizmo: out of cheese");
        assert!(opened.damaged());
        assert!(!x.matched());
    }
}
