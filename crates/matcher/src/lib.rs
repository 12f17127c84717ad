//! Matching: parses pasted runtime output (panic reports, backtraces,
//! `Caused by:` chains, logs, bare lines) and finds the catalogue sites
//! that produced each message. The web server shares this engine.
//!
//! The index is built from the catalogue: distinct templates filed under
//! their rarest words, so a query verifies a handful of candidates instead
//! of scanning every template. It is kept in memory, or saved to a file
//! (`persist`) that later starts map and read on demand.

mod explain;
mod filed;
mod index;
pub mod input;
mod layered;
mod lazy;
mod pattern;
mod persist;
mod score;
mod select;
mod stdtext;
mod versions;

pub use explain::{Captured, Evidence, Explanation, Match, MatchKind};
pub use index::{Entry, Index};
pub use input::{InputError, Location, Message, Origin};
pub use pattern::{normalize, Pattern};
pub use persist::{Key, OpenError, SaveError};
pub use score::{weights, Weights, Why};
pub use stdtext::StdText;
pub use versions::SourceLines;
