//! Which templates a message's text matches, of those whose every word it
//! contains: the few that can rank among the best are verified, best bound
//! first; the others are left unverified once the best are known.
//!
//! A match's score depends only on the template's literal length (a whole
//! match scores more than a part of the text), so each template's best
//! possible score is known before it is tried. Templates are tried in the
//! order of that bound; once [`MAX_TEMPLATES`] matches outrank every bound
//! left, no other template can be kept. When nothing matches well enough,
//! resemblance is tried on the first unmatched templates in pattern order:
//! the candidates are decided in that order until those are known, then
//! the rest only while a match could still be kept. A candidate whose
//! joins the text lacks (see [`crate::filed`]) cannot match and is never
//! tried.

use crate::explain::Evidence;
use crate::filed::Query;
use crate::index::Index;
use crate::pattern::{words, Found};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Templates whose sites are ranked per query, at most (besides those of
/// located sites).
pub(crate) const MAX_TEMPLATES: usize = 64;
/// Templates tried for resemblance per query, at most.
const MAX_RESEMBLANCE: usize = 48;
/// Resemblance is tried only when no whole or partial match scores this.
const RESEMBLANCE_BELOW: f64 = 0.75;
/// A resemblance counts from this share of the template's words on.
const MIN_RESEMBLANCE: f64 = 0.4;
/// A resemblance scores this times its share, at most this: less than any
/// whole match.
const RESEMBLANCE_SCORE: f64 = 0.5;

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
    /// The text has every join of its literal text: it may match at all.
    joined: bool,
}

impl Pending {
    fn pattern(&self) -> u32 {
        self.bound.1 .0
    }
}

/// What trying a candidate told.
enum Tried {
    /// It matches.
    Match(Verdict),
    /// It does not match whole: a part of the text at best, at that bound.
    Part(Pending),
    /// It holds every word of the template but matches nothing.
    Unmatched(u32),
    /// The text lacks one of its words: not a candidate.
    Lacking,
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

    /// Whether the best kept all score more than `score`: nothing scoring
    /// that can be kept.
    fn above(&self, score: f64) -> bool {
        !self.may_enter(rank(score, 0))
    }
}

/// The text a query's candidates are tried on, and what each shape of
/// template matched in it: templates that differ only in their holes'
/// names (thousands of `assert_eq!` messages print the same text around
/// different expressions) match alike, so each shape is matched once.
struct Trial<'q> {
    query: Query<'q>,
    norm: &'q str,
    chars: usize,
    /// By skeleton: a template of each shape met, its whole match and its
    /// match within the text (`None` until tried).
    shapes: HashMap<u64, Vec<Shape>>,
}

/// One shape's matches in the text, as one of its templates found them.
struct Shape {
    pattern: u32,
    whole: Option<Option<Found>>,
    within: Option<Option<Found>>,
}

impl Trial<'_> {
    /// Pattern `pid` matched against the whole of the text (`whole`) or a
    /// part of it, as a pattern of its shape did if one was tried.
    fn matched(&mut self, index: &Index, pid: u32, whole: bool) -> Option<Found> {
        let p = index.pattern(pid as usize);
        let met = self.shapes.entry(p.skeleton()).or_default();
        let i = match met
            .iter()
            .position(|s| index.pattern(s.pattern as usize).same_shape(p))
        {
            Some(i) => i,
            None => {
                met.push(Shape {
                    pattern: pid,
                    whole: None,
                    within: None,
                });
                met.len() - 1
            }
        };
        let norm = self.norm;
        let slot = if whole {
            &mut met[i].whole
        } else {
            &mut met[i].within
        };
        slot.get_or_insert_with(|| if whole { p.full(norm) } else { p.within(norm) })
            .clone()
    }
}

impl Index {
    /// The resemblance verdicts of the unmatched templates (in pattern
    /// order) and, when they are few, of those sharing the text's rarest
    /// words: at most [`MAX_RESEMBLANCE`] tried.
    fn resemblances(&self, mut unmatched: Vec<u32>, query: &Query, norm: &str) -> Vec<Verdict> {
        unmatched.sort_unstable();
        let partial = if unmatched.len() < MAX_RESEMBLANCE {
            self.partial(query)
        } else {
            Vec::new()
        };
        let mwords: Vec<&str> = words(norm).collect();
        unmatched
            .into_iter()
            .chain(partial)
            .take(MAX_RESEMBLANCE)
            .filter_map(|pid| {
                let r = self.pattern(pid as usize).resemblance_to(&mwords);
                (r >= MIN_RESEMBLANCE).then_some(Verdict {
                    pattern: pid,
                    found: None,
                    score: RESEMBLANCE_SCORE * r,
                    evidence: Evidence::Resemblance,
                })
            })
            .collect()
    }

    /// The templates `norm` (normalised, `chars` characters, at least 1)
    /// matches, best first: the best [`MAX_TEMPLATES`] of those whose every
    /// word it contains, and every one of the `located` patterns that
    /// matches (those of sites its report locates).
    pub(crate) fn verdicts(&self, norm: &str, chars: usize, located: &[u32]) -> Vec<Verdict> {
        let mut trial = Trial {
            query: Query::new(norm),
            norm,
            chars,
            shapes: HashMap::new(),
        };
        let mut located = located.to_vec();
        located.sort_unstable();
        located.dedup();
        let mut tally = Tally::default();
        let mut unmatched = Vec::new();
        for &pid in &located {
            if self.pattern(pid as usize).literal_len() == 0 {
                continue;
            }
            let whole = trial.matched(self, pid, true);
            let v = match whole {
                Some(f) => Some(verdict(pid, f, chars, true)),
                None => trial
                    .matched(self, pid, false)
                    .map(|f| verdict(pid, f, chars, false)),
            };
            match v {
                Some(v) => tally.add(v),
                None => unmatched.push(pid),
            }
        }
        // The templates whose every word the text may hold, by bound; those
        // with more literal text than the text has match nothing.
        let mut pending = Vec::new();
        let mut longer = Vec::new();
        let query = &trial.query;
        for w in &query.words {
            for f in self.filed(w).iter() {
                let pid = f.pattern();
                if f.literal() == 0 || !query.may_hold(f) || located.binary_search(&pid).is_ok() {
                    continue;
                }
                if f.literal() > chars {
                    longer.push(pid);
                    continue;
                }
                let joined = query.may_join(f);
                let whole = joined && query.may_be_whole(f);
                let score = if whole { whole_score } else { part_score };
                pending.push(Pending {
                    bound: rank(score(f.literal(), chars), pid),
                    literal: f.literal(),
                    whole,
                    checked: false,
                    joined,
                });
            }
        }
        let mut pending = BinaryHeap::from(pending);
        // Resemblance is certain once no candidate left can score enough.
        let mut resembling = false;
        while let Some(next) = pending.peek() {
            if !tally.strong && f64::from_bits(next.bound.0) < RESEMBLANCE_BELOW {
                resembling = true;
                break;
            }
            if !tally.may_enter(next.bound) {
                break;
            }
            let c = pending.pop().expect("a candidate was peeked");
            match self.try_candidate(c, &mut trial) {
                Tried::Match(v) => tally.add(v),
                Tried::Part(c) => pending.push(c),
                Tried::Unmatched(pid) => unmatched.push(pid),
                Tried::Lacking => {}
            }
        }
        // A resemblance is kept only where it resembles a located template
        // or outranks a match kept: the matches that could outrank every
        // resemblance are tried first, best bound first, and once the best
        // kept all do, resemblance changes nothing.
        let mut outranked = false;
        if resembling && located.is_empty() {
            while let Some(next) = pending.peek() {
                let bound = f64::from_bits(next.bound.0);
                if bound <= RESEMBLANCE_SCORE || !tally.may_enter(next.bound) {
                    break;
                }
                let c = pending.pop().expect("a candidate was peeked");
                match self.try_candidate(c, &mut trial) {
                    Tried::Match(v) => tally.add(v),
                    Tried::Part(c) => pending.push(c),
                    Tried::Unmatched(pid) => unmatched.push(pid),
                    Tried::Lacking => {}
                }
            }
            // The candidates left cannot be kept either.
            outranked = tally.above(RESEMBLANCE_SCORE);
        }
        if !tally.strong && !outranked {
            // Resemblance, to the templates that matched nothing in pattern
            // order, then to those sharing only some anchor words.
            for pid in longer {
                if trial.query.holds(self.words_of(pid)) {
                    unmatched.push(pid);
                }
            }
            if resembling {
                pending = self.first_unmatched(pending, &mut trial, &mut tally, &mut unmatched);
            }
            for v in self.resemblances(unmatched, &trial.query, norm) {
                tally.add(v);
            }
            // The candidates left come after those resembled in pattern
            // order: only a match among the best counts.
            while let Some(next) = pending.peek() {
                if !tally.may_enter(next.bound) {
                    break;
                }
                let c = pending.pop().expect("a candidate was peeked");
                match self.try_candidate(c, &mut trial) {
                    Tried::Match(v) => tally.add(v),
                    Tried::Part(c) => pending.push(c),
                    Tried::Unmatched(_) | Tried::Lacking => {}
                }
            }
        }
        // Only the best-matching templates (and those of located sites) can
        // reach the answer.
        let mut verdicts = tally.verdicts;
        verdicts.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.pattern.cmp(&b.pattern)));
        let mut kept = 0;
        verdicts.retain(|v| {
            kept += 1;
            kept <= MAX_TEMPLATES || located.binary_search(&v.pattern).is_ok()
        });
        verdicts
    }

    /// Decides the candidates left, in pattern order, until
    /// [`MAX_RESEMBLANCE`] unmatched templates (`unmatched` holds those
    /// known) come before the next: resemblance takes no other. Returns
    /// the candidates not decided, which can only count as matches.
    fn first_unmatched(
        &self,
        pending: BinaryHeap<Pending>,
        trial: &mut Trial<'_>,
        tally: &mut Tally,
        unmatched: &mut Vec<u32>,
    ) -> BinaryHeap<Pending> {
        let mut rest = pending.into_vec();
        rest.sort_unstable_by_key(Pending::pattern);
        unmatched.sort_unstable();
        let known = unmatched.len();
        // Templates known unmatched with a lower pattern than the next.
        let mut below = 0;
        let mut rest = rest.into_iter();
        let mut undecided = Vec::new();
        for c in rest.by_ref() {
            let pid = c.pattern();
            while below < known && unmatched[below] < pid {
                below += 1;
            }
            // Those found here all come before it.
            if below + unmatched.len() - known >= MAX_RESEMBLANCE {
                undecided.push(c);
                break;
            }
            let mut c = c;
            loop {
                match self.try_candidate(c, trial) {
                    Tried::Match(v) => tally.add(v),
                    Tried::Part(part) => {
                        c = part;
                        continue;
                    }
                    Tried::Unmatched(pid) => unmatched.push(pid),
                    Tried::Lacking => {}
                }
                break;
            }
        }
        // One that cannot match is never tried again.
        undecided.extend(rest);
        undecided.retain(|c| c.joined);
        BinaryHeap::from(undecided)
    }

    /// Tries candidate `c` on the text: whole while that is possible, else
    /// within it.
    fn try_candidate(&self, mut c: Pending, trial: &mut Trial<'_>) -> Tried {
        let pid = c.pattern();
        if !c.checked && !trial.query.holds(self.words_of(pid)) {
            return Tried::Lacking;
        }
        if c.whole {
            if let Some(f) = trial.matched(self, pid, true) {
                return Tried::Match(verdict(pid, f, trial.chars, true));
            }
            c.whole = false;
            c.checked = true;
            c.bound = rank(part_score(c.literal, trial.chars), pid);
            return Tried::Part(c);
        }
        match c.joined.then(|| trial.matched(self, pid, false)).flatten() {
            Some(f) => Tried::Match(verdict(pid, f, trial.chars, false)),
            None => Tried::Unmatched(pid),
        }
    }
}

/// The verdict of a match of pattern `pid` in a text of `chars`
/// characters: of the whole text, or of a part of it.
fn verdict(pid: u32, found: Found, chars: usize, whole: bool) -> Verdict {
    let (score, evidence) = if whole {
        (whole_score(found.literal, chars), Evidence::Template)
    } else {
        (part_score(found.literal, chars), Evidence::TemplatePart)
    };
    Verdict {
        pattern: pid,
        score,
        found: Some(found),
        evidence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_model::{Hole, Kind, MatchEntry, MatchSite, Template};

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    const WORDS: [&str; 10] = [
        "left",
        "right",
        "assertion",
        "failed",
        "value",
        "step",
        "with",
        "not",
        "does",
        "current",
    ];
    const JOINS: [&str; 5] = [" ", ": ", " `", "` ", ", "];

    /// A text of `n` words with random joins, a hole (`{}`) now and then
    /// when `holes`.
    fn text(rng: &mut Rng, n: usize, holes: bool) -> String {
        let mut s = String::new();
        for k in 0..n {
            if k > 0 {
                s.push_str(JOINS[rng.below(JOINS.len())]);
            }
            if holes && rng.below(4) == 0 {
                s.push_str("{}");
            } else {
                s.push_str(WORDS[rng.below(WORDS.len())]);
            }
        }
        s
    }

    /// Entry `i` of a text: its holes named after `i` (one text, three
    /// names: templates of the same shape).
    fn entry(i: usize, text: &str) -> MatchEntry {
        let mut template = Template::new();
        for (k, part) in text.split("{}").enumerate() {
            if k > 0 {
                template.push_hole(Hole {
                    arg: ["", "x", "y"][i % 3].into(),
                    spec: String::new(),
                });
            }
            template.push_lit(part);
        }
        MatchEntry {
            id: format!("{i}"),
            repo: "crate:demo".into(),
            revision: "1.0.0".into(),
            snapshot_id: 1,
            kind: Kind::Panic,
            template,
            item_path: "demo::f".into(),
            sites: vec![MatchSite {
                path: "src/lib.rs".into(),
                line: i as u32 + 1,
                end_line: i as u32 + 1,
                report_line: i as u32 + 1,
                report_column: 5,
                reported_at_caller: false,
                is_test: false,
            }],
        }
    }

    /// The verdicts with every candidate tried and resemblance given every
    /// unmatched template, as a scan of the candidates gives them.
    fn scanned(index: &Index, norm: &str, chars: usize) -> Vec<Compared> {
        let query = Query::new(norm);
        let (mut verdicts, mut unmatched) = (Vec::new(), Vec::new());
        for w in &query.words {
            for f in index.filed(w).iter() {
                let pid = f.pattern();
                if f.literal() == 0 || !query.holds(index.words_of(pid)) {
                    continue;
                }
                let p = index.pattern(pid as usize);
                let whole = p.full(norm).map(|f| verdict(pid, f, chars, true));
                match whole.or_else(|| p.within(norm).map(|f| verdict(pid, f, chars, false))) {
                    Some(v) => verdicts.push(v),
                    None => unmatched.push(pid),
                }
            }
        }
        if verdicts.iter().all(|v| v.score < RESEMBLANCE_BELOW) {
            verdicts.extend(index.resemblances(unmatched, &query, norm));
        }
        verdicts.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.pattern.cmp(&b.pattern)));
        verdicts.truncate(MAX_TEMPLATES);
        verdicts.iter().map(compared).collect()
    }

    /// What two verdicts must agree on: the template, the score, the
    /// evidence and the spans matched.
    type Compared = (
        u32,
        u64,
        Evidence,
        Option<(usize, usize, Vec<(usize, usize)>)>,
    );

    fn compared(v: &Verdict) -> Compared {
        let found = v.found.as_ref().map(|f| (f.start, f.end, f.spans.clone()));
        (v.pattern, v.score.to_bits(), v.evidence, found)
    }

    #[test]
    fn the_candidates_left_undecided_change_no_verdict() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut errors: Vec<MatchEntry> = (0..800)
            .map(|i| {
                let n = 1 + rng.below(4);
                entry(i, &text(&mut rng, n, true))
            })
            .collect();
        // Texts that many templates match whole, weakly (each a few of its
        // words between holes): more weak matches than are kept, all
        // outranking any resemblance.
        let weak: Vec<String> = (0..4)
            .map(|_| {
                let words: Vec<&str> = (0..24).map(|_| WORDS[rng.below(WORDS.len())]).collect();
                for i in 0..words.len() {
                    for j in i + 1..words.len().min(i + 6) {
                        let inner = words[i..j].join(" ");
                        errors.push(entry(errors.len(), &format!("{{}} {inner} {{}}")));
                    }
                }
                words.join(" ")
            })
            .collect();
        let index = Index::build(errors, Vec::new());
        // Many templates share a shape with another (differing only in
        // their holes' names): each shape is matched once per text.
        let shared = (1..index.templates())
            .filter(|&p| (0..p).any(|q| index.pattern(q).same_shape(index.pattern(p))))
            .count();
        assert!(shared > 20, "{shared}");
        let (mut resembled, mut strong) = (0, 0);
        for q in 0..300 {
            let n = 2 + rng.below(12);
            let text = weak
                .get(q)
                .cloned()
                .unwrap_or_else(|| text(&mut rng, n, false));
            let norm = crate::pattern::normalize(&text);
            let chars = norm.chars().count().max(1);
            let want = scanned(&index, &norm, chars);
            let got: Vec<Compared> = index
                .verdicts(&norm, chars, &[])
                .iter()
                .map(compared)
                .collect();
            assert_eq!(got, want, "{norm}");
            resembled += usize::from(want.iter().any(|v| v.2 == Evidence::Resemblance));
            strong += usize::from(want.first().is_some_and(|v| f64::from_bits(v.1) >= 0.75));
        }
        // Both ways were taken, many times.
        assert!(resembled > 20 && strong > 20, "{resembled} {strong}");
    }
}
