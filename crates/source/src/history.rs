//! When each message entered a git repository's history, for all messages
//! in one pass.
//!
//! Walking first parents back from the snapshot's commit, the pass keeps,
//! per message key, how many of the commit's files contain it. Only files a
//! commit changed are read (a tree diff), and each blob is searched once
//! for every key at the same time (Aho-Corasick). When a key's count drops
//! to zero going from a commit to its parent, that commit introduced the
//! message. A message that moves between lines or files keeps its count
//! and so keeps its origin; a reworded message is a new key, introduced by
//! the commit that reworded it.

use crate::SourceError;
use aho_corasick::AhoCorasick;
use errdex_model::{Introduction, Origin};
use gix::ObjectId;
use std::collections::HashMap;
use std::path::Path;

/// Blob search results kept at most (older ones are dropped).
const CACHE_BLOBS: usize = 50_000;

/// What the pass found, one entry per key (in the order given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// The origin of each key; `None` when the key is not in the starting
    /// commit's files.
    pub origins: Vec<Option<Origin>>,
    /// Commits walked.
    pub commits: usize,
}

/// Finds, for every key, the first-parent commit of `rev` that introduced
/// it, reading only files `wanted` accepts.
pub fn introductions(
    dir: &Path,
    rev: &str,
    keys: &[String],
    wanted: &dyn Fn(&str) -> bool,
) -> Result<History, SourceError> {
    let git = |what: &str, e: &dyn std::fmt::Display| crate::gitrev::git_error(dir, what, e);
    let (repo, start) = crate::gitrev::open_commit(dir, rev)?;
    let start = repo
        .find_commit(start)
        .map_err(|e| git("reading the revision", &e))?;
    let shallow: Vec<ObjectId> = repo
        .shallow_commits()
        .map_err(|e| git("reading the shallow file", &e))?
        .map(|c| c.iter().copied().collect())
        .unwrap_or_default();
    let automaton = AhoCorasick::new(keys).map_err(|e| git("building the key search", &e))?;
    let mut search = Search {
        repo: &repo,
        automaton: &automaton,
        keys: keys.len(),
        cache: HashMap::new(),
    };

    // Presence in the starting commit: every wanted file.
    let mut count = vec![0u32; keys.len()];
    for e in &crate::gitrev::tree_entries(dir, &start)?.0 {
        if e.mode.is_blob() && wanted(&e.filepath) {
            for k in search
                .keys_in(e.oid)
                .map_err(|e| git("reading a file", &e))?
            {
                count[k as usize] += 1;
            }
        }
    }
    let mut origins: Vec<Option<Origin>> = vec![None; keys.len()];
    // A key is traced while the commits walked so far all contain it.
    let mut active: Vec<bool> = count.iter().map(|&c| c > 0).collect();
    let mut open = active.iter().filter(|&&a| a).count();
    let mut commit = start;
    let mut commits = 0;
    let mut state = gix::diff::tree::State::default();
    while open > 0 {
        commits += 1;
        let parent_id = commit.parent_ids().next().map(|id| id.detach());
        let parent = match parent_id {
            Some(id) if !shallow.contains(&commit.id) => Some(
                repo.find_commit(id)
                    .map_err(|e| git(&format!("reading commit {id}"), &e))?,
            ),
            _ => None,
        };
        let Some(parent) = parent else {
            // The root commit introduced what is left; at a shallow
            // boundary, what is left is older than the clone's history.
            let origin = if parent_id.is_some() {
                Origin::BeforeShallowBoundary {
                    boundary: commit.id.to_string(),
                }
            } else {
                Origin::Commit(introduction(&commit)?)
            };
            for (k, a) in active.iter().enumerate() {
                if *a {
                    origins[k] = Some(origin.clone());
                }
            }
            break;
        };
        let changes =
            diff(&repo, &parent, &commit, &mut state).map_err(|e| git("diffing trees", &e))?;
        // Only keys of the files this commit changed can drop to zero.
        let mut touched = Vec::new();
        for (path, old, new) in changes {
            if !wanted(&path) {
                continue;
            }
            if let Some(new) = new {
                for k in search.keys_in(new).map_err(|e| git("reading a file", &e))? {
                    count[k as usize] = count[k as usize].saturating_sub(1);
                    touched.push(k as usize);
                }
            }
            if let Some(old) = old {
                for k in search.keys_in(old).map_err(|e| git("reading a file", &e))? {
                    count[k as usize] += 1;
                }
            }
        }
        let mut here = None;
        for k in touched {
            if active[k] && count[k] == 0 {
                if here.is_none() {
                    here = Some(Origin::Commit(introduction(&commit)?));
                }
                origins[k] = here.clone();
                active[k] = false;
                open -= 1;
            }
        }
        commit = parent;
    }
    Ok(History { origins, commits })
}

/// Which keys each blob holds, searched once per blob.
struct Search<'a> {
    repo: &'a gix::Repository,
    automaton: &'a AhoCorasick,
    keys: usize,
    cache: HashMap<ObjectId, Vec<u32>>,
}

impl Search<'_> {
    fn keys_in(&mut self, blob: ObjectId) -> Result<Vec<u32>, Box<dyn std::error::Error>> {
        if let Some(found) = self.cache.get(&blob) {
            return Ok(found.clone());
        }
        let object = self.repo.find_object(blob)?;
        let mut seen = vec![false; self.keys];
        let mut found = Vec::new();
        for m in self.automaton.find_overlapping_iter(&object.data[..]) {
            let k = m.pattern().as_usize();
            if !seen[k] {
                seen[k] = true;
                found.push(k as u32);
            }
        }
        if self.cache.len() >= CACHE_BLOBS {
            self.cache.clear();
        }
        self.cache.insert(blob, found.clone());
        Ok(found)
    }
}

/// A file that differs: its path, its blob in the parent, in the commit.
type FileChange = (String, Option<ObjectId>, Option<ObjectId>);

/// Every file that differs between `parent` and `commit`.
fn diff(
    repo: &gix::Repository,
    parent: &gix::Commit,
    commit: &gix::Commit,
    state: &mut gix::diff::tree::State,
) -> Result<Vec<FileChange>, Box<dyn std::error::Error>> {
    use gix::diff::tree::recorder::Change;
    let old = parent.tree()?;
    let new = commit.tree()?;
    let mut recorder = gix::diff::tree::Recorder::default();
    gix::diff::tree(
        gix::objs::TreeRefIter::from_bytes(&old.data, old.id.kind()),
        gix::objs::TreeRefIter::from_bytes(&new.data, new.id.kind()),
        state,
        &repo.objects,
        &mut recorder,
    )?;
    let mut out = Vec::new();
    for c in recorder.records {
        match c {
            Change::Addition {
                entry_mode,
                oid,
                path,
                ..
            } if entry_mode.is_blob() => out.push((path.to_string(), None, Some(oid))),
            Change::Deletion {
                entry_mode,
                oid,
                path,
                ..
            } if entry_mode.is_blob() => out.push((path.to_string(), Some(oid), None)),
            Change::Modification {
                previous_entry_mode,
                previous_oid,
                entry_mode,
                oid,
                path,
            } => out.push((
                path.to_string(),
                previous_entry_mode.is_blob().then_some(previous_oid),
                entry_mode.is_blob().then_some(oid),
            )),
            _ => {}
        }
    }
    Ok(out)
}

/// A commit's sha, committer date, subject and PR number.
fn introduction(commit: &gix::Commit) -> Result<Introduction, SourceError> {
    let bad =
        |e: &dyn std::fmt::Display| SourceError::Git(format!("reading commit {}: {e}", commit.id));
    let seconds = commit.time().map_err(|e| bad(&e))?.seconds;
    let message = commit.message_raw().map_err(|e| bad(&e))?.to_string();
    let subject = message.lines().next().unwrap_or("").trim().to_string();
    Ok(Introduction {
        commit: commit.id.to_string(),
        date: crate::rfc3339(seconds),
        pr: pr_number(&subject),
        subject,
    })
}

/// The pull request a subject names: `… (#1234)` (squash merges) or
/// `Merge pull request #1234 from …`.
pub fn pr_number(subject: &str) -> Option<u32> {
    if let Some(rest) = subject.strip_prefix("Merge pull request #") {
        return rest
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok();
    }
    let open = subject.trim_end().strip_suffix(')')?.rfind("(#")?;
    subject.trim_end().strip_suffix(')')?[open + 2..]
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_request_numbers() {
        assert_eq!(pr_number("Fix overflow in parser (#1234)"), Some(1234));
        assert_eq!(pr_number("Merge pull request #77 from a/b"), Some(77));
        assert_eq!(pr_number("Fix (#12) in the middle"), None);
        assert_eq!(pr_number("Bump to (#x)"), None);
        assert_eq!(pr_number("plain"), None);
    }
}
