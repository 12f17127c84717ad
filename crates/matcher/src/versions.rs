//! The crate versions a paste names — in a location's path, a backtrace
//! frame, a tool's banner, cargo's build failure — that the index holds:
//! evidence for the sites of those versions, and against the other
//! versions of the same crates. A Python traceback names versions by
//! the source lines it prints: the versions whose files hold those lines
//! at those line numbers. Where it names no version of a crate, the days
//! it prints (log timestamps) rule out the versions published after.

use crate::index::Index;
use crate::input;
use std::collections::{HashMap, HashSet};

/// The source lines of a traceback compared with the files, at most (the
/// innermost frames).
const MAX_PRINTED: usize = 16;

/// Lines above a frame's line searched for the `def` of the function it
/// names.
const MAX_FUNCTION_LINES: u32 = 400;

/// The text of indexed files, as the catalogue stores them: what the
/// source lines a traceback prints are checked against.
pub trait SourceLines {
    /// Line `line` (from 1) of `path` in the snapshot whose row id is
    /// `snapshot`, when the file is stored.
    fn line(&self, snapshot: i64, path: &str, line: u32) -> Option<String>;

    /// Lines `from..=to` (from 1) of `path` in snapshot `snapshot`, as
    /// many as the file has.
    fn lines(&self, snapshot: i64, path: &str, from: u32, to: u32) -> Vec<String> {
        (from.max(1)..=to)
            .map_while(|n| self.line(snapshot, path, n))
            .collect()
    }

    /// The first file of snapshot `snapshot` (path order) holding a line
    /// that reads `text` once trimmed, with that line's number.
    fn find_line(&self, snapshot: i64, text: &str) -> Option<(String, u32)>;
}

/// No file texts at hand: versions are told only by what the paste names.
pub struct NoSources;

impl SourceLines for NoSources {
    fn line(&self, _: i64, _: &str, _: u32) -> Option<String> {
        None
    }

    fn find_line(&self, _: i64, _: &str) -> Option<(String, u32)> {
        None
    }
}

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
    /// The snapshot of the one indexed package whose build script the
    /// paste says failed.
    pub(crate) build_script: Option<i64>,
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
    pub(crate) fn named_in(index: &Index, text: &str, files: &dyn SourceLines) -> Self {
        let indexed: HashSet<(String, &str)> = index
            .snapshots
            .keys()
            .map(|(repo, rev)| (package_key(repo), rev.as_str()))
            .collect();
        let mut v = Versions::default();
        for m in input::mentions(text) {
            let name = package_key(&m.name);
            if indexed.contains(&(name.clone(), m.version.as_str())) {
                v.crates.insert(name.clone());
                v.named.insert((name, m.version));
            }
        }
        for (repo, revision) in printed_versions(index, text, files) {
            let name = package_key(&repo);
            v.crates.insert(name.clone());
            v.named.insert((name, revision));
        }
        let scripts: Vec<i64> = input::build_scripts(text)
            .into_iter()
            .filter_map(|m| {
                let key = (format!("crate:{}", m.name), m.version);
                index.snapshots.get(&key).copied()
            })
            .collect();
        if let [one] = scripts[..] {
            v.build_script = Some(one);
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
        let name = package_key(repo);
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

/// The indexed package versions whose files hold the source lines a
/// traceback prints under its frames, at the lines printed — or, for a
/// frame that prints none (a zipped egg's), whose line there sits in the
/// function the frame names: of each package, the versions that agree
/// with the most of them.
fn printed_versions(index: &Index, text: &str, files: &dyn SourceLines) -> Vec<(String, String)> {
    let printed = input::python::printed_frames(text);
    let innermost = printed.len().saturating_sub(MAX_PRINTED);
    // repo → version → lines agreeing.
    let mut agree: HashMap<String, HashMap<String, usize>> = HashMap::new();
    for p in &printed[innermost..] {
        let mut at = p.at.clone();
        if at.package.is_none() {
            at.package = index.package_tail(&at);
        }
        let Some(path) = at.package.as_deref() else {
            continue;
        };
        let repos: HashSet<String> = index.shipping(&at).into_iter().map(|(r, _)| r).collect();
        for ((repo, revision), &id) in &index.snapshots {
            if !repos.contains(repo) {
                continue;
            }
            let same = match (&p.source, &p.function) {
                (Some(source), _) => files
                    .line(id, path, at.line)
                    .is_some_and(|l| l.trim() == source),
                (None, Some(function)) => {
                    let from = at.line.saturating_sub(MAX_FUNCTION_LINES);
                    input::python::runs_in(&files.lines(id, path, from, at.line), function)
                }
                (None, None) => false,
            };
            if same {
                *agree
                    .entry(repo.clone())
                    .or_default()
                    .entry(revision.clone())
                    .or_default() += 1;
            }
        }
    }
    let mut out = Vec::new();
    for (repo, versions) in agree {
        let most = versions.values().copied().max().unwrap_or(0);
        out.extend(
            versions
                .into_iter()
                .filter(|&(_, n)| n == most)
                .map(|(revision, _)| (repo.clone(), revision)),
        );
    }
    out
}

/// A package's name as versions are compared: without the `crate:` or
/// `pypi:` of its repo, in lower case, with `_` for `-` and `.` (both
/// registries treat names so: `Jinja2-2.8.egg` is `pypi:jinja2` 2.8,
/// `serde-json` is `serde_json`).
pub(crate) fn package_key(repo: &str) -> String {
    let name = repo
        .strip_prefix("crate:")
        .or_else(|| repo.strip_prefix("pypi:"))
        .unwrap_or(repo);
    name.to_lowercase().replace(['-', '.'], "_")
}
