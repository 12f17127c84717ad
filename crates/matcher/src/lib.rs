//! Matching: parses pasted runtime output (panic reports, backtraces,
//! `Caused by:` chains, logs, bare lines) and finds the catalogue sites
//! that produced each message. The web server shares this engine.
//!
//! The index is built in memory from the catalogue: distinct templates are
//! compiled once and filed under their rarest words, so a query verifies a
//! handful of candidates instead of scanning every template.

mod explain;
mod index;
pub mod input;
mod pattern;
mod stdtext;

pub use explain::{Captured, Evidence, Explanation, Match, MatchKind};
pub use index::{Entry, Index};
pub use input::{InputError, Location, Message, Origin};
pub use pattern::{normalize, Pattern};
pub use stdtext::StdText;
