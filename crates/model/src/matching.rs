//! What the matcher indexes, as the catalogue hands it over: each error of
//! a snapshot with its sites, the free literals, and each snapshot's
//! dependencies.

use crate::{Kind, Template};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One occurrence of an error, as the matcher needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSite {
    /// File.
    pub path: String,
    /// First line.
    pub line: u32,
    /// Last line.
    pub end_line: u32,
    /// Line a panic header reports.
    pub report_line: u32,
    /// Column a panic header reports.
    pub report_column: u32,
    /// `#[track_caller]`: a report names the caller.
    pub reported_at_caller: bool,
    /// Test code.
    pub is_test: bool,
}

/// An error of one snapshot with its template and sites: what the matcher
/// indexes.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchEntry {
    /// Stable id.
    pub id: String,
    /// Repo slug.
    pub repo: String,
    /// Snapshot revision.
    pub revision: String,
    /// Snapshot row id (for excerpts).
    pub snapshot_id: i64,
    /// Kind.
    pub kind: Kind,
    /// Template.
    pub template: Template,
    /// Enclosing item.
    pub item_path: String,
    /// Sites in this snapshot.
    pub sites: Vec<MatchSite>,
}

/// A free string literal of a snapshot, for the matcher's safety net.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiteralEntry {
    /// Repo slug.
    pub repo: String,
    /// Snapshot revision.
    pub revision: String,
    /// Snapshot row id.
    pub snapshot_id: i64,
    /// File.
    pub path: String,
    /// Line.
    pub line: u32,
    /// The literal's text.
    pub text: String,
    /// In test code.
    pub is_test: bool,
}

/// Everything the matcher's index is built from.
#[derive(Debug, Clone, Default)]
pub struct MatchData {
    /// Every (error, snapshot) pair with its sites.
    pub errors: Vec<MatchEntry>,
    /// Every free literal.
    pub literals: Vec<LiteralEntry>,
    /// Snapshot row id → the crates it depends on, where known.
    pub deps: HashMap<i64, Vec<String>>,
    /// Snapshot row id → the day its code was published (`YYYY-MM-DD`: a
    /// crate version's publication, a commit's date), where known.
    pub dates: HashMap<i64, String>,
}
