//! Layers of a printed value: what a template's holes printed, explained
//! in turn, and how much of a message each layer accounts for.

use super::candidates::{after_context, MAX_PER_MESSAGE};
use super::rank::{is_vendored, unwraps, Around};
use super::text::{strip_std_shapes, unquote};
use super::*;
use crate::pattern::normalize;
use crate::score::{self, Features};
use errdex_model::{is_test_path, Kind};
use std::collections::HashMap;

/// Inner layers explained below a match (a printed value nests a few).
const MAX_DEPTH: u32 = 6;

/// Inner matches explained per message, at most.
const MAX_INNER: usize = 24;

/// How much of what a hole printed is explained, per layer, memoised per
/// query: (value, snapshot of the layer that printed it) → characters.
pub(super) type Memo = std::cell::RefCell<HashMap<(String, i64, bool), f64>>;

/// The layer a value was printed in: its snapshot, and whether the value
/// is what its template's last hole took at the end of the text.
#[derive(Clone, Copy)]
pub(super) struct Parent {
    pub(super) snapshot: i64,
    pub(super) trailing: bool,
}

/// Layers weighed below a candidate, at most.
const MAX_EXPLAINED_DEPTH: u32 = 4;

/// A layer from another snapshot than the one that printed it counts this
/// share of what it explains.
const OTHER_SNAPSHOT: f64 = 0.7;

/// A layer from a crate that the printing one does not depend on counts
/// this share (it can only have come through a trait object or a copy).
const UNRELATED_SNAPSHOT: f64 = 0.2;

/// Literal characters of a partial match that make it a phrase, not a word.
pub(super) const MIN_PHRASE: usize = 12;

/// A resemblance is an answer when this share of the text's words are the
/// template's (a typo or a cut keeps most; a sentence of the program's own
/// that shares a few words with a template does not).
const RESEMBLING_WORDS: f64 = 0.65;

/// A match scoring less explains too little of its message to be named.
pub(super) const MIN_SCORE: f64 = 0.3;

/// An inner match is the root cause when its template explains more than
/// this share of the characters its wrapper's template does.
pub(super) const ROOT_SHARE: f64 = 0.5;

/// How telling a layer of a printed value is: a message a crate wrote,
/// then an enum variant (which error), then a struct (its data). A
/// hand-written `Debug` that prints the derived shape (`Name { field: .. }`,
/// `Name(..)`) around its holes is a struct's data too.
fn layer_class(k: &Match) -> u8 {
    match k.kind {
        MatchKind::Site(Kind::DebugDerive) => 1,
        MatchKind::Site(Kind::DebugVariant) => 2,
        MatchKind::Site(_) if is_data_shape(&k.template) => 1,
        MatchKind::Site(_) => 3,
        MatchKind::Literal | MatchKind::Location => 0,
    }
}

/// Whether a template (as shown, `{{` for a brace) prints a value the way
/// derived `Debug` does: a type name, then its fields or tuple in braces or
/// parentheses, with holes inside.
pub(super) fn is_data_shape(template: &str) -> bool {
    let name_end = template
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(template.len());
    let (name, rest) = template.split_at(name_end);
    let holes_inside = |inner: &str| inner.replace("{{", "").contains('{');
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && ((rest.starts_with(" {{ ")
            && rest.ends_with(" }}")
            && holes_inside(&rest[4..rest.len() - 3]))
            || (rest.starts_with('(')
                && rest.ends_with(')')
                && holes_inside(&rest[1..rest.len() - 1])))
}

/// Whether an answer explains enough of its message to be named: a whole
/// template; a part of one that is a phrase (a run of literal text) or
/// most of the text; a close resemblance. One common word (`invalid`,
/// `string`) inside the program's own sentence is not enough.
pub(super) fn explains_enough(k: &Match, text: &str) -> bool {
    if k.score < MIN_SCORE {
        return false;
    }
    if k.evidence.contains(&Evidence::Template) || k.kind == MatchKind::Location {
        return true;
    }
    if k.evidence.contains(&Evidence::Location) || k.evidence.contains(&Evidence::Frame) {
        return true;
    }
    if k.evidence.contains(&Evidence::TemplatePart) {
        let chars = normalize(text).chars().count().max(1);
        return k.literal_chars >= MIN_PHRASE || k.literal_chars as f64 >= 0.5 * chars as f64;
    }
    // A resemblance: most of the text's words are the template's (a typo,
    // a cut), not a few of them inside the program's own sentence.
    let template_words: Vec<&str> = crate::pattern::words(&k.template).collect();
    let text_words: Vec<&str> = crate::pattern::words(text).collect();
    let last = text_words.len().saturating_sub(1);
    let shared = text_words
        .iter()
        .enumerate()
        .filter(|(i, m)| {
            template_words
                .iter()
                .any(|w| crate::pattern::same_word(m, w, *i == last))
        })
        .count();
    k.score >= MIN_SCORE && shared as f64 >= RESEMBLING_WORDS * text_words.len() as f64
}

/// Whether `inner`, an error printed in a hole of `outer`, is the cause to
/// report: always under std's `unwrap`/`expect` texts (they say nothing of
/// the cause), else when it explains enough text of its own. A literal of
/// the literal index is never the cause of its wrapper (it is the value a
/// hole printed, such as a position's name).
/// Whether a hole's argument names a constant (`GENERIC_MESSAGE`,
/// `Self::MSG`, `cls.URL_MESSAGE`): a fixed text, not a value.
fn names_constant(arg: &str) -> bool {
    let last = arg.rsplit(['.', ':']).next().unwrap_or(arg);
    last.chars().any(|c| c.is_ascii_uppercase())
        && last
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn is_root_cause(outer: &Match, inner: &Match) -> bool {
    let wrapper = match outer.kind {
        MatchKind::Site(k) => unwraps(k) || k == Kind::DebugImpl || k.is_debug_shape(),
        MatchKind::Literal | MatchKind::Location => false,
    };
    let site = matches!(inner.kind, MatchKind::Site(_));
    site && (wrapper || inner.literal_chars as f64 > outer.literal_chars as f64 * ROOT_SHARE)
}

impl Query<'_> {
    /// The deepest, most telling layer under match `root` that a site
    /// explains whole.
    pub(super) fn innermost(&self, out: &[Match], root: usize) -> usize {
        let depth = |mut i: usize| {
            let mut d = 0;
            while let Some(p) = out[i].inner_of {
                d += 1;
                i = p;
            }
            d
        };
        let mut best = root;
        // An `unwrap`/`expect` says nothing of the error it printed: any
        // layer a site explains inside it is more telling.
        let wrapper = matches!(out[root].kind, MatchKind::Site(k) if unwraps(k));
        let mut best_key = (if wrapper { 0 } else { layer_class(&out[root]) }, 0u32);
        // Breadth first, holes in order: of equal layers the first printed wins.
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(i) = queue.pop_front() {
            for (j, k) in out.iter().enumerate() {
                if k.inner_of != Some(i) || k.same_text_as.is_some() || k.constant_part {
                    continue;
                }
                // Another crate's text inside a value must be a whole
                // message of some length; a part of one only counts within
                // the crate that printed the value.
                let same = k.snapshot_id == out[i].snapshot_id;
                // A value's shape or variant name (`UnexpectedEof`) of a
                // crate the printing one does not depend on is a namesake,
                // not what it printed.
                // So is a vendored copy's text (`telegram/vendor/…/urllib3`):
                // only the package that ships the copy raises from it.
                let namesake = !same
                    && (layer_class(k) < 3 || is_vendored(&k.path))
                    && !self.may_wrap(out[i].snapshot_id, &k.repo);
                // Nor are the layers a namesake holds.
                if namesake {
                    continue;
                }
                queue.push_back(j);
                let whole = (k.evidence.contains(&Evidence::Template)
                    && (same || k.literal_chars >= 8))
                    || ((same || k.literal_chars >= 12)
                        && k.evidence.contains(&Evidence::TemplatePart)
                        && layer_class(k) == 3);
                if !whole || !is_root_cause(&out[i], k) {
                    continue;
                }
                // One of several equal sites does not replace a layer
                // that is unique.
                if k.shared_text && !out[best].shared_text && best_key.0 > 0 {
                    continue;
                }
                let key = (layer_class(k), depth(j));
                if key > best_key {
                    best = j;
                    best_key = key;
                }
            }
        }
        best
    }

    /// Characters of `norm` that candidate `c` explains: its literal text
    /// and, hole by hole, what the best explanation of the hole's value
    /// explains.
    pub(super) fn explained(
        &self,
        t: Target,
        c: &Features,
        norm: &str,
        depth: u32,
        memo: &Memo,
    ) -> f64 {
        self.explained_as(t, c, norm, depth, memo, false)
            .unwrap_or(0.0)
    }

    /// [`Query::explained`]; `lead_must_explain`: none when what the first
    /// hole took is not explained.
    pub(super) fn explained_as(
        &self,
        t: Target,
        c: &Features,
        norm: &str,
        depth: u32,
        memo: &Memo,
        lead_must_explain: bool,
    ) -> Option<f64> {
        let Some(f) = &c.found else {
            return Some(c.text * norm.chars().count() as f64 * 0.5);
        };
        let pattern = match t {
            Target::Site(entry, _) => Some(self.entry(entry).pattern),
            Target::Literal(_) => None,
        };
        let mut total = match (t, pattern) {
            (Target::Site(..), Some(p)) => self.pattern(p).literal_weight(),
            (Target::Literal(l), _) => {
                let l = &self.literal(l);
                let w = score::weights();
                let weight = if l.is_test || is_test_path(&l.path) {
                    w.test_literal
                } else {
                    w.literal
                };
                f.literal as f64 * weight
            }
            (Target::Site(..), None) => 0.0,
        };
        let Target::Site(entry, _) = t else {
            return Some(total);
        };
        if depth >= MAX_EXPLAINED_DEPTH {
            return (!lead_must_explain).then_some(total);
        }
        let snapshot = self.snapshot_of(t);
        let pattern = self.pattern(self.entry(entry).pattern);
        let caps = pattern.captures(f, norm);
        let n = caps.len();
        for (ci, cap) in caps.into_iter().enumerate() {
            let trailing = ci + 1 == n && pattern.ends_with_hole();
            let v = unquote(strip_std_shapes(&cap.value));
            let v = v.trim();
            let lead = ci == 0 && lead_must_explain;
            if v.chars().count() < 3 || !v.chars().any(char::is_alphabetic) {
                if lead {
                    return None;
                }
                continue;
            }
            let key = (v.to_string(), snapshot, trailing);
            if let Some(x) = memo.borrow().get(&key).copied() {
                if lead && x == 0.0 {
                    return None;
                }
                total += x;
                continue;
            }
            let layer = |v: &str| {
                let ranked = self.rank(
                    v,
                    Around {
                        keep: Some(snapshot),
                        ..Around::default()
                    },
                );
                let vn = normalize(v);
                self.choose(
                    &ranked,
                    &vn,
                    Some(Parent { snapshot, trailing }),
                    depth + 1,
                    memo,
                )
                .map_or(0.0, |i| {
                    let (t2, c2) = &ranked[i];
                    self.explained(*t2, c2, &vn, depth + 1, memo) * self.layer_weight(snapshot, *t2)
                })
            };
            let mut x = layer(v);
            if x == 0.0 {
                // The program's words before a message (`reading x: msg`).
                if let Some(rest) = after_context(v) {
                    x = layer(rest);
                }
            }
            memo.borrow_mut().insert(key, x);
            if lead && x == 0.0 {
                return None;
            }
            total += x;
        }
        Some(total)
    }

    /// How much a layer `t` printed inside one of snapshot `outer` counts:
    /// fully in the same snapshot, less in a dependency, little in a crate
    /// the outer one does not depend on (it cannot print its errors).
    pub(super) fn layer_weight(&self, outer: i64, t: Target) -> f64 {
        if self.snapshot_of(t) == outer {
            1.0
        } else if self.may_wrap(outer, self.repo_of(t)) {
            OTHER_SNAPSHOT
        } else {
            UNRELATED_SNAPSHOT
        }
    }

    /// Explains the hole texts of match `parent` as messages of their own
    /// (an inner error printed by a wrapper, a field of a printed value).
    pub(super) fn explain_holes(&self, mi: usize, parent: usize, out: &mut Vec<Match>, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        let values: Vec<(String, bool)> = out[parent]
            .captures
            .iter()
            .map(|c| (c.value.clone(), names_constant(&c.arg)))
            .collect();
        let ends_with_hole =
            out[parent].template.ends_with('}') && !out[parent].template.ends_with("}}");
        let n = values.len();
        for (vi, (value, constant)) in values.into_iter().enumerate() {
            if out.len() >= MAX_PER_MESSAGE + MAX_INNER {
                return;
            }
            let layer = Parent {
                snapshot: out[parent].snapshot_id,
                trailing: ends_with_hole && vi + 1 == n,
            };
            let Some(mut k) = self.explain_value(mi, &value, Some((parent, layer))) else {
                continue;
            };
            k.constant_part = constant;
            out.push(k);
            let child = out.len() - 1;
            self.explain_holes(mi, child, out, depth + 1);
        }
    }
}
