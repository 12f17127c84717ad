//! Plain data shared by every errdex stage: what an error site is, how its
//! message template is shaped, and what a snapshot of source code is.
//!
//! This crate knows nothing of parsing, storage or presentation; it only
//! defines the values that flow from `source` to `extract` to `catalog`.

mod history;
mod id;
mod kind;
mod matching;
mod paths;
mod site;
mod template;

pub use history::{Introduction, Origin};
pub use id::ErrorId;
pub use kind::{is_serde_default, Kind, Mechanism, SERDE_ERRORS};
pub use matching::{LiteralEntry, MatchData, MatchEntry, MatchSite};
pub use paths::{is_test_or_example_path, is_test_path};
pub use site::{
    forge_link, Evidence, EvidenceKind, Extraction, Literal, Site, SiteEvidence, SnapshotMeta,
    SourceFile, VcsPin,
};
pub use template::{Hole, Piece, Template};
