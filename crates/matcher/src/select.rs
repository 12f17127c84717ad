//! Which templates a message's text matches, of those whose every word it
//! contains: the few that can rank among the best are verified, best bound
//! first; the others are left unverified once the best are known.
//!
//! A match's score depends only on the template's literal length (a whole
//! match scores more than a part of the text), so each template's best
//! possible score is known before it is tried. Templates are tried in the
//! order of that bound; once [`MAX_TEMPLATES`] matches outrank every bound
//! left, no other template can be kept. When nothing matches well enough,
//! resemblance is tried, and that needs every template's verdict: all are
//! then verified, as a scan of the candidates would.

use crate::explain::Evidence;
use crate::filed::Query;
use crate::index::Index;
use crate::pattern::{words, Found};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Templates whose sites are ranked per query, at most (besides those of
/// located sites).
pub(crate) const MAX_TEMPLATES: usize = 64;
/// Templates tried for resemblance per query, at most.
const MAX_RESEMBLANCE: usize = 48;
/// Resemblance is tried only when no whole or partial match scores this.
const RESEMBLANCE_BELOW: f64 = 0.75;
/// A resemblance counts from this share of the template's words on.
const MIN_RESEMBLANCE: f64 = 0.4;

/// A template the text matches.
pub(crate) struct Verdict {
    /// The pattern.
    pub pattern: u32,
    /// What matched (none for a resemblance).
    pub found: Option<Found>,
    /// How well the text matches, 0..1.
    pub score: f64,
    /// Whole, part, or resemblance.
    pub evidence: Evidence,
}

/// The score of a whole match of a template with `literal` characters of
/// literal text in a text of `chars` characters.
pub(crate) fn whole_score(literal: usize, chars: usize) -> f64 {
    0.5 + 0.5 * (literal as f64 / chars as f64).min(1.0)
}

/// The score of a match of such a template within the text.
fn part_score(literal: usize, chars: usize) -> f64 {
    0.2 + 0.45 * (literal as f64 / chars as f64).min(1.0)
}

/// Where a score stands in the ranking of templates: higher first, then the
/// lower pattern (scores are never negative, so their bits order as they
/// do).
type Rank = (u64, Reverse<u32>);

fn rank(score: f64, pattern: u32) -> Rank {
    (score.to_bits(), Reverse(pattern))
}

/// A candidate not tried yet, by the best rank it can reach.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Pending {
    bound: Rank,
    /// Characters of literal text.
    literal: usize,
    /// A whole match is still possible.
    whole: bool,
    /// Its words were found in the text (not only their signature).
    checked: bool,
}

impl Pending {
    fn pattern(&self) -> u32 {
        self.bound.1 .0
    }
}

/// The matches found so far, and the ranks of the best of them.
#[derive(Default)]
struct Tally {
    verdicts: Vec<Verdict>,
    /// The best [`MAX_TEMPLATES`] ranks (the lowest on top).
    best: BinaryHeap<Reverse<Rank>>,
    /// Some match scores [`RESEMBLANCE_BELOW`] or more.
    strong: bool,
}

impl Tally {
    fn add(&mut self, v: Verdict) {
        self.strong |= v.score >= RESEMBLANCE_BELOW;
        self.best.push(Reverse(rank(v.score, v.pattern)));
        if self.best.len() > MAX_TEMPLATES {
            self.best.pop();
        }
        self.verdicts.push(v);
    }

    /// Whether a match of this rank would be among the best kept.
    fn may_enter(&self, bound: Rank) -> bool {
        self.best.len() < MAX_TEMPLATES || self.best.peek().is_some_and(|w| bound > w.0)
    }
}

impl Index {
    /// The templates `norm` (normalised, `chars` characters, at least 1)
    /// matches, best first: the best [`MAX_TEMPLATES`] of those whose every
    /// word it contains, and every one of the `located` patterns that
    /// matches (those of sites its report locates).
    pub(crate) fn verdicts(&self, norm: &str, chars: usize, located: &[u32]) -> Vec<Verdict> {
        let query = Query::new(norm);
        let mut located = located.to_vec();
        located.sort_unstable();
        located.dedup();
        let mut tally = Tally::default();
        let mut unmatched = Vec::new();
        for &pid in &located {
            if self.pattern(pid as usize).literal_len() == 0 {
                continue;
            }
            let v = self.whole(pid, norm, chars);
            match v.or_else(|| self.part(pid, norm, chars)) {
                Some(v) => tally.add(v),
                None => unmatched.push(pid),
            }
        }
        // The templates whose every word the text may hold, by bound; those
        // with more literal text than the text has match nothing.
        let mut pending = Vec::new();
        let mut longer = Vec::new();
        for w in &query.words {
            for f in self.filed(w) {
                let pid = f.pattern();
                if f.literal() == 0 || !query.may_hold(f) || located.binary_search(&pid).is_ok() {
                    continue;
                }
                if f.literal() > chars {
                    longer.push(pid);
                    continue;
                }
                let whole = query.may_be_whole(f);
                let score = if whole { whole_score } else { part_score };
                pending.push(Pending {
                    bound: rank(score(f.literal(), chars), pid),
                    literal: f.literal(),
                    whole,
                    checked: false,
                });
            }
        }
        let mut pending = BinaryHeap::from(pending);
        // Every candidate's verdict counts once resemblance is certain.
        let mut exhaustive = false;
        while let Some(next) = pending.peek() {
            if !exhaustive {
                if !tally.strong && f64::from_bits(next.bound.0) < RESEMBLANCE_BELOW {
                    exhaustive = true;
                } else if !tally.may_enter(next.bound) {
                    break;
                }
            }
            let mut c = pending.pop().expect("a candidate was peeked");
            let pid = c.pattern();
            if !c.checked && !query.holds(self.words_of(pid)) {
                continue;
            }
            if c.whole {
                if let Some(v) = self.whole(pid, norm, chars) {
                    tally.add(v);
                    continue;
                }
                // A part of the text at best: tried again at that bound.
                c.whole = false;
                c.checked = true;
                c.bound = rank(part_score(c.literal, chars), pid);
                pending.push(c);
                continue;
            }
            match self.part(pid, norm, chars) {
                Some(v) => tally.add(v),
                None => unmatched.push(pid),
            }
        }
        let Tally {
            mut verdicts,
            strong,
            ..
        } = tally;
        if !strong {
            // Resemblance, to the templates that matched nothing (every
            // candidate was tried) in pattern order, then to those sharing
            // only some anchor words.
            for pid in longer {
                if query.holds(self.words_of(pid)) {
                    unmatched.push(pid);
                }
            }
            unmatched.sort_unstable();
            let partial = if unmatched.len() < MAX_RESEMBLANCE {
                self.partial(&query)
            } else {
                Vec::new()
            };
            let mwords: Vec<&str> = words(norm).collect();
            for pid in unmatched.into_iter().chain(partial).take(MAX_RESEMBLANCE) {
                let r = self.pattern(pid as usize).resemblance_to(&mwords);
                if r >= MIN_RESEMBLANCE {
                    verdicts.push(Verdict {
                        pattern: pid,
                        found: None,
                        score: 0.5 * r,
                        evidence: Evidence::Resemblance,
                    });
                }
            }
        }
        // Only the best-matching templates (and those of located sites) can
        // reach the answer.
        verdicts.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.pattern.cmp(&b.pattern)));
        let mut kept = 0;
        verdicts.retain(|v| {
            kept += 1;
            kept <= MAX_TEMPLATES || located.binary_search(&v.pattern).is_ok()
        });
        verdicts
    }

    /// Pattern `pid` matched against the whole of `norm`.
    fn whole(&self, pid: u32, norm: &str, chars: usize) -> Option<Verdict> {
        let f = self.pattern(pid as usize).full(norm)?;
        Some(Verdict {
            pattern: pid,
            score: whole_score(f.literal, chars),
            found: Some(f),
            evidence: Evidence::Template,
        })
    }

    /// Pattern `pid` matched against a part of `norm`.
    fn part(&self, pid: u32, norm: &str, chars: usize) -> Option<Verdict> {
        let f = self.pattern(pid as usize).within(norm)?;
        Some(Verdict {
            pattern: pid,
            score: part_score(f.literal, chars),
            found: Some(f),
            evidence: Evidence::TemplatePart,
        })
    }
}
