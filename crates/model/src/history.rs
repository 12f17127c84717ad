//! Where an error's message came from in its repository's history.

use serde::{Deserialize, Serialize};

/// The commit that introduced a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Introduction {
    /// The commit sha.
    pub commit: String,
    /// Its committer date (RFC 3339).
    pub date: Option<String>,
    /// The first line of its message.
    pub subject: String,
    /// The pull request the subject names (`(#1234)`, `Merge pull request #1234`).
    pub pr: Option<u32>,
}

/// What the history pass could say of a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Origin {
    /// Introduced by this commit.
    Commit(Introduction),
    /// Already present at the oldest commit of a shallow clone: older than
    /// the history at hand.
    BeforeShallowBoundary {
        /// The shallow clone's oldest commit.
        boundary: String,
    },
}
