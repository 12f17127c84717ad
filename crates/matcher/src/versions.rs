//! The crate versions a paste names — in a location's path, a backtrace
//! frame, a tool's banner, cargo's build failure — that the index holds:
//! evidence for the sites of those versions, and against the other
//! versions of the same crates. Where it names no version of a crate, the
//! days it prints (log timestamps) rule out the versions published after.

use crate::index::{crate_name, Index};
use crate::input;
use std::collections::HashSet;

/// Indexed crate versions a paste names.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Versions {
    /// (crate name with `_` for `-`, version).
    named: HashSet<(String, String)>,
    /// The crates of `named`.
    crates: HashSet<String>,
    /// Snapshots (row ids) published after the latest day the paste
    /// prints with a time.
    later: HashSet<i64>,
}

/// What a paste's named versions say of a site's snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agreement {
    /// The paste names this version of the crate.
    Named,
    /// The paste names other versions of the crate, not this one.
    Other,
    /// The paste names no version of the crate, and this one was
    /// published after the paste's run.
    Later,
    /// The paste names no version of the crate.
    Silent,
}

impl Versions {
    /// The versions `text` names that are indexed snapshots.
    pub(crate) fn named_in(index: &Index, text: &str) -> Self {
        let indexed: HashSet<(String, &str)> = index
            .snapshots
            .keys()
            .map(|(repo, rev)| (crate_name(repo), rev.as_str()))
            .collect();
        let mut v = Versions::default();
        for m in input::mentions(text) {
            let name = crate_name(&m.name);
            if indexed.contains(&(name.clone(), m.version.as_str())) {
                v.crates.insert(name.clone());
                v.named.insert((name, m.version));
            }
        }
        if let Some(day) = input::latest_day(text) {
            v.later = index
                .dates
                .iter()
                .filter(|(_, d)| d.as_str() > day.as_str())
                .map(|(id, _)| *id)
                .collect();
        }
        v
    }

    /// Whether the paste names this snapshot's version of its crate (or,
    /// naming none, ran before it was published). `snapshot` is its row id.
    pub(crate) fn agreement(&self, repo: &str, revision: &str, snapshot: i64) -> Agreement {
        let name = crate_name(repo);
        if !self.crates.contains(&name) {
            if self.later.contains(&snapshot) {
                Agreement::Later
            } else {
                Agreement::Silent
            }
        } else if self.named.contains(&(name, revision.to_string())) {
            Agreement::Named
        } else {
            Agreement::Other
        }
    }
}
