//! The file's layout: a fixed header (magic, format, the build and the
//! catalogue state it was made from, lengths, a CRC-32 of the header and
//! its tables), a table of sections, a table of block checksums, then the
//! sections (8-byte aligned) in 4 KiB blocks each with its CRC-32.
//!
//! ```text
//! 0   magic "ERRDEXIX"        8  format u32         12 sections u32
//! 16  build fingerprint u64   24 catalogue u64      32 snapshot set u64
//! 40  body length u64         48 blocks u64         56 header CRC u32
//! 64  sections × (offset u64, length u64) · blocks × CRC u32 · body
//! ```

/// The file's first bytes.
pub(crate) const MAGIC: &[u8; 8] = b"ERRDEXIX";
/// The layout's version: raised whenever the file changes shape, or
/// what the index derives from the catalogue changes (6: each message of
/// several lines also stands as its first prefixes of whole lines; 7:
/// those prefixes stand at their sites' lines too).
pub(crate) const FORMAT: u32 = 7;
/// Bytes of the fixed header.
pub(crate) const HEADER: usize = 64;
/// Bytes of body covered by one checksum.
pub(crate) const BLOCK: usize = 4096;

/// A hash of the sources that decide the file's content (the index
/// builder, the record shapes, the model), made at build time: a file
/// written by another build of errdex is rebuilt, never misread.
pub(crate) fn fingerprint() -> u64 {
    u64::from_str_radix(env!("ERRDEX_MATCH_FINGERPRINT"), 16).unwrap_or(0)
}

/// The sections, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    /// fst map: anchor word → its ordinal.
    Words,
    /// u64 per word + 1: where its patterns start in `Postings`.
    PostingOffsets,
    /// u32 pattern ids, word after word.
    Postings,
    /// u64 per word + 1: where the patterns whose rarest word it is start
    /// in `Filed`.
    FiledOffsets,
    /// Those patterns, word after word, as `Filed` records.
    Filed,
    /// u8 per pattern: how many anchor words it is filed under.
    Anchors,
    /// u64 per pattern + 1: where its word hashes start in `WordHashes`.
    WordHashOffsets,
    /// u64 hashes of each pattern's whole words.
    WordHashes,
    /// u64 per pattern + 1: where its record starts in `PatternData`.
    PatternOffsets,
    /// Pattern records: the entries and literals that print it.
    PatternData,
    /// u64 per entry + 1.
    EntryOffsets,
    /// Entry records.
    EntryData,
    /// u64 per literal + 1.
    LiteralOffsets,
    /// Literal records.
    LiteralData,
    /// fst map: file name, 0xFF, reported line (big-endian u32) → ordinal.
    Lines,
    /// u64 per line key + 1: where its sites start in `LineSites`.
    LineOffsets,
    /// (entry, site) u32 pairs; the offsets count pairs.
    LineSites,
    /// (template key, pattern) u64 pairs, by key.
    PatternKeys,
    /// Snapshots, dependencies and counts (decoded at load).
    Meta,
}

impl Section {
    /// Every section, in file order.
    pub const ALL: [Section; 19] = [
        Section::Words,
        Section::PostingOffsets,
        Section::Postings,
        Section::FiledOffsets,
        Section::Filed,
        Section::Anchors,
        Section::WordHashOffsets,
        Section::WordHashes,
        Section::PatternOffsets,
        Section::PatternData,
        Section::EntryOffsets,
        Section::EntryData,
        Section::LiteralOffsets,
        Section::LiteralData,
        Section::Lines,
        Section::LineOffsets,
        Section::LineSites,
        Section::PatternKeys,
        Section::Meta,
    ];

    /// The section's place in the table.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The fixed header's fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Header {
    pub format: u32,
    pub sections: u32,
    pub fingerprint: u64,
    pub catalogue: u64,
    pub snapshots: u64,
    pub body_len: u64,
    pub blocks: u64,
    pub crc: u32,
}

/// A little-endian integer at `at` (the caller checked the length).
fn le<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    b[at..at + N].try_into().expect("a fixed-size field")
}

impl Header {
    /// Reads the header from the file's first [`HEADER`] bytes.
    pub fn read(b: &[u8; HEADER]) -> Header {
        Header {
            format: u32::from_le_bytes(le(b, 8)),
            sections: u32::from_le_bytes(le(b, 12)),
            fingerprint: u64::from_le_bytes(le(b, 16)),
            catalogue: u64::from_le_bytes(le(b, 24)),
            snapshots: u64::from_le_bytes(le(b, 32)),
            body_len: u64::from_le_bytes(le(b, 40)),
            blocks: u64::from_le_bytes(le(b, 48)),
            crc: u32::from_le_bytes(le(b, 56)),
        }
    }

    /// The header's bytes.
    pub fn write(&self) -> [u8; HEADER] {
        let mut b = [0u8; HEADER];
        b[..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&self.format.to_le_bytes());
        b[12..16].copy_from_slice(&self.sections.to_le_bytes());
        b[16..24].copy_from_slice(&self.fingerprint.to_le_bytes());
        b[24..32].copy_from_slice(&self.catalogue.to_le_bytes());
        b[32..40].copy_from_slice(&self.snapshots.to_le_bytes());
        b[40..48].copy_from_slice(&self.body_len.to_le_bytes());
        b[48..56].copy_from_slice(&self.blocks.to_le_bytes());
        b[56..60].copy_from_slice(&self.crc.to_le_bytes());
        b
    }

    /// Where the body starts: after the header, the section table and the
    /// block checksums, 8-aligned.
    pub fn body_start(&self) -> Option<usize> {
        let tables = (self.sections as usize)
            .checked_mul(16)?
            .checked_add(usize::try_from(self.blocks).ok()?.checked_mul(4)?)?;
        Some(HEADER.checked_add(tables)?.next_multiple_of(8))
    }
}

/// The CRC-32 of the header (its checksum field left out) and the tables.
pub(crate) fn header_crc(header: &[u8; HEADER], tables: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&header[..56]);
    h.update(tables);
    h.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips() {
        let h = Header {
            format: FORMAT,
            sections: 18,
            fingerprint: 1,
            catalogue: 2,
            snapshots: 3,
            body_len: 4,
            blocks: 5,
            crc: 6,
        };
        assert_eq!(Header::read(&h.write()), h);
        assert_eq!(
            h.body_start(),
            Some((64 + 18 * 16 + 20usize).next_multiple_of(8))
        );
        assert_eq!(
            Section::ALL.iter().position(|s| *s == Section::Meta),
            Some(18)
        );
        assert_eq!(Section::Meta.index(), 18);
    }
}
