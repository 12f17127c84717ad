//! The records of a persisted index, encoded with postcard: an entry (the
//! catalogue's error of one snapshot, with its sites and pattern), a free
//! literal, a pattern (what prints it), and the small metadata decoded at
//! load.

use crate::index::Entry;
use errdex_model::{Hole, Kind, LiteralEntry, MatchEntry, MatchSite, Piece, Template};
use serde::{Deserialize, Serialize};

/// A template piece as stored (the model's own encoding is untagged,
/// which postcard cannot read back).
#[derive(Serialize, Deserialize)]
enum PieceRecord {
    Lit(String),
    Hole(String, String),
}

/// An entry as stored.
#[derive(Serialize, Deserialize)]
struct EntryRecord {
    id: String,
    repo: String,
    revision: String,
    snapshot_id: i64,
    /// The kind's stable name.
    kind: String,
    pieces: Vec<PieceRecord>,
    item_path: String,
    sites: Vec<MatchSite>,
    pattern: u32,
}

/// The entries and free literals that print one pattern (its template is
/// the first entry's, or the first literal's read as a template).
#[derive(Serialize, Deserialize, Default)]
pub(crate) struct PatternRecord {
    pub entries: Vec<u32>,
    pub literals: Vec<u32>,
}

/// What is decoded at load: counts, snapshots and their dependencies.
#[derive(Serialize, Deserialize, Default)]
pub(crate) struct Meta {
    pub entries: u64,
    pub patterns: u64,
    pub literals: u64,
    /// (repo, revision, snapshot row id).
    pub snapshots: Vec<(String, String, i64)>,
    /// Snapshot row id → the crates it depends on.
    pub deps: Vec<(i64, Vec<String>)>,
    /// Snapshot row id → its publication day.
    pub dates: Vec<(i64, String)>,
    /// Literal ids of report layouts.
    pub layouts: Vec<u32>,
    /// Snapshot row id → its short format strings' literal ids.
    pub short: Vec<(i64, Vec<u32>)>,
    /// The snapshots the index was built from: (row id, when indexed).
    pub members: Vec<(i64, String)>,
}

/// Encodes an entry.
pub(crate) fn encode_entry(e: &Entry) -> Vec<u8> {
    let error = &e.error;
    let pieces = error
        .template
        .pieces()
        .iter()
        .map(|p| match p {
            Piece::Lit(s) => PieceRecord::Lit(s.clone()),
            Piece::Hole(h) => PieceRecord::Hole(h.arg.clone(), h.spec.clone()),
        })
        .collect();
    encode(&EntryRecord {
        id: error.id.clone(),
        repo: error.repo.clone(),
        revision: error.revision.clone(),
        snapshot_id: error.snapshot_id,
        kind: error.kind.as_str().to_string(),
        pieces,
        item_path: error.item_path.clone(),
        sites: error.sites.clone(),
        pattern: e.pattern as u32,
    })
}

/// Decodes an entry; `None` when the bytes are not one.
pub(crate) fn decode_entry(bytes: &[u8]) -> Option<Entry> {
    let r: EntryRecord = postcard::from_bytes(bytes).ok()?;
    let mut template = Template::new();
    for p in r.pieces {
        match p {
            PieceRecord::Lit(s) => template.push_lit(&s),
            PieceRecord::Hole(arg, spec) => template.push_hole(Hole { arg, spec }),
        }
    }
    let kind: Kind = r.kind.parse().ok()?;
    Some(Entry {
        template_text: template.to_string(),
        error: MatchEntry {
            id: r.id,
            repo: r.repo,
            revision: r.revision,
            snapshot_id: r.snapshot_id,
            kind,
            template,
            item_path: r.item_path,
            sites: r.sites,
        },
        pattern: r.pattern as usize,
    })
}

/// Encodes a free literal.
pub(crate) fn encode_literal(l: &LiteralEntry) -> Vec<u8> {
    encode(l)
}

/// Decodes a free literal.
pub(crate) fn decode_literal(bytes: &[u8]) -> Option<LiteralEntry> {
    postcard::from_bytes(bytes).ok()
}

/// Encodes any record.
pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_stdvec(value).expect("records encode in memory")
}

/// Decodes any record.
pub(crate) fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut template = Template::literal("bad token ");
        template.push_hole(Hole {
            arg: "tok".into(),
            spec: "?".into(),
        });
        let e = Entry {
            template_text: template.to_string(),
            error: MatchEntry {
                id: "00ff".into(),
                repo: "crate:x".into(),
                revision: "1.0.0".into(),
                snapshot_id: 3,
                kind: Kind::Expect,
                template,
                item_path: "x::y".into(),
                sites: vec![MatchSite {
                    path: "src/lib.rs".into(),
                    line: 4,
                    end_line: 5,
                    report_line: 4,
                    report_column: 9,
                    reported_at_caller: true,
                    is_test: false,
                }],
            },
            pattern: 7,
        };
        let back = decode_entry(&encode_entry(&e)).unwrap();
        assert_eq!(back.error, e.error);
        assert_eq!((back.template_text, back.pattern), (e.template_text, 7));
        assert!(decode_entry(b"\xff\xff").is_none());
    }
}
