//! Explaining pasted output: each message's candidate sites from location
//! evidence and from the word index, verified against the compiled
//! templates, ranked, and decomposed (a hole's text explained in turn).
//!
//! The stages, one file each: [`answer`] (the paste's messages answered and
//! ordered), [`candidates`] (one message's candidate sites), [`rank`] (their
//! features scored and ordered), [`layers`] (what a hole printed, explained
//! in turn); [`text`] holds the text helpers they share.

mod answer;
mod candidates;
mod layers;
mod rank;
#[cfg(test)]
mod tests;
mod text;

use crate::index::Index;
use crate::input::Message;
use crate::score::Why;
use crate::versions::{NoSources, SourceLines, Versions};
use errdex_model::{Kind, Mechanism};
use serde::Serialize;

/// Why a match is believed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The report names this site's file and line (and column).
    Location,
    /// A backtrace frame names this site's file and line.
    Frame,
    /// The whole message is the template with its holes filled.
    Template,
    /// The template matches a part of the message.
    TemplatePart,
    /// The message resembles the template (truncated or edited).
    Resemblance,
    /// The report names this crate version.
    Version,
    /// The log line's target names this site's crate (and module).
    Target,
    /// A call of `unwrap` in the build script cargo says failed, where
    /// std's text names no line of it (`libcore/result.rs` of releases
    /// before track_caller).
    BuildScript,
}

impl Evidence {
    /// The stable name, as in JSON (`template_part`, `build_script`).
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Location => "location",
            Evidence::Frame => "frame",
            Evidence::Template => "template",
            Evidence::TemplatePart => "template_part",
            Evidence::Resemblance => "resemblance",
            Evidence::Version => "version",
            Evidence::Target => "target",
            Evidence::BuildScript => "build_script",
        }
    }
}

/// What matched: an error site, or a free string literal of the literal
/// index (text that is not a recognised site but may be a message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    /// An error site of this kind.
    Site(Kind),
    /// A string literal.
    Literal,
    /// The line a report names in an indexed snapshot, where no site was
    /// extracted (an implicit panic: indexing, arithmetic, a std call).
    Location,
}

impl MatchKind {
    /// The stable name: a kind's name, or `literal`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Site(k) => k.as_str(),
            MatchKind::Literal => "literal",
            MatchKind::Location => "location",
        }
    }

    /// What the site does, in any language's terms (none for a literal or
    /// a located line).
    pub fn mechanism(self) -> Option<Mechanism> {
        match self {
            MatchKind::Site(k) => Some(k.mechanism()),
            MatchKind::Literal | MatchKind::Location => None,
        }
    }
}

impl Serialize for MatchKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What one hole took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Captured {
    /// The argument the source prints there.
    pub arg: String,
    /// The text it printed.
    pub value: String,
}

/// A site that may have produced a message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Match {
    /// Index into [`Explanation::messages`].
    pub message: usize,
    /// The error's stable id (none for a literal).
    pub error_id: Option<String>,
    /// Repo slug.
    pub repo: String,
    /// Snapshot revision.
    pub revision: String,
    /// File.
    pub path: String,
    /// First line of the site.
    pub line: u32,
    /// Last line.
    pub end_line: u32,
    /// Kind (`literal` for the literal index).
    pub kind: MatchKind,
    /// The kind's language-neutral mechanism (`null` for a literal or a
    /// located line).
    pub mechanism: Option<Mechanism>,
    /// Template.
    pub template: String,
    /// Snapshot row id, for excerpts.
    #[serde(skip)]
    pub snapshot_id: i64,
    /// 0..1, higher is better.
    pub score: f64,
    /// Why.
    pub evidence: Vec<Evidence>,
    /// What the holes took.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<Captured>,
    /// Parts of the message this template does not explain.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unexplained: Vec<String>,
    /// This match explains a hole of match number N (its index here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inner_of: Option<usize>,
    /// How the score was made (the scoring model's steps).
    pub why: Why,
    /// This site prints the same text as match number N, and nothing in
    /// the input tells them apart (N was taken as the answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_text_as: Option<usize>,
    /// The site is test code.
    pub is_test: bool,
    /// Characters of literal template text the match explains.
    #[serde(skip)]
    pub literal_chars: usize,
    /// Other sites of the same snapshot print the same text: this one was
    /// taken among equals.
    #[serde(skip)]
    pub shared_text: bool,
    /// This layer fills a hole its parent names as a constant
    /// (`{GENERIC_MESSAGE}`): a fixed part of the parent's text, not an
    /// error the parent wraps.
    #[serde(skip)]
    pub constant_part: bool,
}

/// The answer: the messages found and the sites that explain them, in one
/// ranked list whose first entry is the site the user is looking for (the
/// innermost layer a library site explains).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// Messages found in the input.
    pub messages: Vec<Message>,
    /// Matches, best first: the answer of the most telling message, the
    /// layers that wrap it, the alternatives, then the other messages.
    pub matches: Vec<Match>,
    /// Per message, the index in `matches` of its answer (the root cause
    /// under wrappers, or the site at the reported location).
    pub best: Vec<Option<usize>>,
    /// Messages that no indexed site explains (the user's own context
    /// lines, prose, text from code that is not indexed).
    pub unexplained: Vec<usize>,
}

impl Explanation {
    /// True when some message found a site.
    pub fn matched(&self) -> bool {
        self.best.iter().any(Option::is_some)
    }

    /// The answer for message `mi`.
    pub fn best(&self, mi: usize) -> Option<&Match> {
        self.best
            .get(mi)
            .copied()
            .flatten()
            .map(|i| &self.matches[i])
    }
}

/// A candidate: site `s` of entry `e`, or literal `l`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Target {
    Site(u32, u32),
    Literal(u32),
}

/// Where a candidate stands: its repo, path and line.
type Place<'a> = (&'a str, &'a str, u32);

/// One message's matches before they are merged into the answer's list.
struct Local {
    matches: Vec<Match>,
    answer: Option<usize>,
}

impl Index {
    /// Explains pasted text.
    pub fn explain(&self, text: &str) -> Explanation {
        self.explain_with(text, &NoSources)
    }

    /// Explains pasted text, checking the source lines a traceback prints
    /// against the indexed files `files` reads.
    pub fn explain_with(&self, text: &str, files: &dyn SourceLines) -> Explanation {
        Query {
            index: self,
            versions: Versions::named_in(self, text, files),
            files,
        }
        .answer(text)
    }
}

/// One paste's question: the index, and what the whole paste says beside
/// each message's own text.
struct Query<'i> {
    index: &'i Index,
    /// The indexed crate versions the paste names.
    versions: Versions,
    /// The indexed files' lines.
    files: &'i dyn SourceLines,
}

impl std::ops::Deref for Query<'_> {
    type Target = Index;

    fn deref(&self) -> &Index {
        self.index
    }
}

impl Query<'_> {
    /// The template text of a target, as written.
    pub(super) fn template_text(&self, t: Target) -> &str {
        match t {
            Target::Site(e, _) => &self.entry(e).template_text,
            Target::Literal(l) => &self.literal(l).text,
        }
    }

    /// The repo slug of a target.
    pub(super) fn repo_of(&self, t: Target) -> &str {
        match t {
            Target::Site(e, _) => &self.entry(e).error.repo,
            Target::Literal(l) => &self.literal(l).repo,
        }
    }

    /// Whether a target's template begins with a hole.
    pub(super) fn starts_with_hole(&self, t: Target) -> bool {
        match t {
            Target::Site(e, _) => self.pattern(self.entry(e).pattern).starts_with_hole(),
            Target::Literal(_) => false,
        }
    }

    /// The snapshot row of a target.
    pub(super) fn snapshot_of(&self, t: Target) -> i64 {
        match t {
            Target::Site(e, _) => self.entry(e).error.snapshot_id,
            Target::Literal(l) => self.literal(l).snapshot_id,
        }
    }

    /// The repo and revision a target stands in.
    pub(super) fn version_of(&self, t: Target) -> (&str, &str) {
        match t {
            Target::Site(e, _) => {
                let e = &self.entry(e).error;
                (&e.repo, &e.revision)
            }
            Target::Literal(l) => {
                let l = self.literal(l);
                (&l.repo, &l.revision)
            }
        }
    }

    /// (repo, path, line) of a target, for stable ordering.
    pub(super) fn place(&self, t: Target) -> Place<'_> {
        match t {
            Target::Site(e, s) => {
                let e = &self.entry(e).error;
                (&e.repo, &e.sites[s as usize].path, e.sites[s as usize].line)
            }
            Target::Literal(l) => {
                let l = &self.literal(l);
                (&l.repo, &l.path, l.line)
            }
        }
    }
}
