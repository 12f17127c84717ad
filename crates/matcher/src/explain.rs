//! Explaining pasted output: each message's candidate sites from location
//! evidence and from the word index, verified against the compiled
//! templates, ranked, and decomposed (a hole's text explained in turn).

use crate::index::{file_name, literal_template, Index};
use crate::input::{self, Frame, Location, Message};
use crate::pattern::{normalize, Pattern};
use crate::score::{self, Features, Why};
use crate::select::{whole_score, Verdict, MAX_TEMPLATES};
use crate::stdtext;
use crate::versions::{Agreement, Versions};
use errdex_model::{is_test_path, Kind};
use serde::Serialize;
use std::collections::HashMap;
use std::rc::Rc;

/// Messages longer than this are matched on their first part only.
const MAX_MESSAGE: usize = 16 * 1024;
/// Sites listed per message at most.
const MAX_PER_MESSAGE: usize = 10;
/// Inner layers explained below a match (a printed value nests a few).
const MAX_DEPTH: u32 = 6;
/// Strings inside a printed value explained on their own, at most.
const MAX_STRINGS: usize = 4;
/// Inner matches explained per message, at most.
const MAX_INNER: usize = 24;
/// Sites of one template considered per query (besides located ones).
const MAX_SITES_PER_TEMPLATE: usize = 32;
/// How much of what a hole printed is explained, per layer, memoised per
/// query: (value, snapshot of the layer that printed it) → characters.
type Memo = std::cell::RefCell<HashMap<(String, i64, bool), f64>>;

/// The layer a value was printed in: its snapshot, and whether the value
/// is what its template's last hole took at the end of the text.
#[derive(Clone, Copy)]
struct Parent {
    snapshot: i64,
    trailing: bool,
}
/// Featuress weighed layer by layer per text, at most.
const CHOICES: usize = 8;
/// Featuress scanned for those templates, at most.
const MAX_CHOICE_SCAN: usize = 256;
/// Layers weighed below a candidate, at most.
const MAX_EXPLAINED_DEPTH: u32 = 4;
/// A layer from another snapshot than the one that printed it counts this
/// share of what it explains.
const OTHER_SNAPSHOT: f64 = 0.7;
/// A layer from a crate that the printing one does not depend on counts
/// this share (it can only have come through a trait object or a copy).
const UNRELATED_SNAPSHOT: f64 = 0.2;
/// A message is explained when its answer's layers cover this share of it.
const MIN_SHARE: f64 = 0.3;
/// A printed value is explained by a template covering this much of it.
const MIN_VALUE_TEXT: f64 = 0.4;
/// At most this many `words: ` prefixes are taken off a line no template
/// explains.
const MAX_CONTEXTS: usize = 3;
/// Literal characters of a partial match that make it a phrase, not a word.
const MIN_PHRASE: usize = 12;
/// A resemblance is an answer when this share of the text's words are the
/// template's (a typo or a cut keeps most; a sentence of the program's own
/// that shares a few words with a template does not).
const RESEMBLING_WORDS: f64 = 0.65;
/// A match scoring less explains too little of its message to be named.
const MIN_SCORE: f64 = 0.3;
/// An inner match is the root cause when its template explains more than
/// this share of the characters its wrapper's template does.
const ROOT_SHARE: f64 = 0.5;

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

/// A message's answer repo and the matches tied with it that differ only
/// by version: (index in its matches, revision).
type Tied = (String, Vec<(usize, String)>);

/// One paste comes from one build: where a message's answer is printed
/// alike by several versions of its crate, the version that answers the
/// most of the paste's messages is taken (else the one ranked first), and
/// the other versions are listed as printing the same text.
fn agree_on_versions(locals: &mut [Local]) {
    // Per message: the answer's repo and the matches tied with it that
    // differ only by version (the answer among them).
    let tied: Vec<Option<Tied>> = locals
        .iter()
        .map(|l| {
            let a = l.answer?;
            let ans = &l.matches[a];
            let ties = l
                .matches
                .iter()
                .enumerate()
                .filter(|(_, k)| {
                    k.repo == ans.repo
                        && k.template == ans.template
                        && k.score == ans.score
                        && k.inner_of == ans.inner_of
                        && k.same_text_as.is_none()
                })
                .map(|(j, k)| (j, k.revision.clone()))
                .collect();
            Some((ans.repo.clone(), ties))
        })
        .collect();
    let mut support: HashMap<(&str, &str), usize> = HashMap::new();
    for (repo, ties) in tied.iter().flatten() {
        for (_, v) in ties {
            *support.entry((repo, v)).or_default() += 1;
        }
    }
    for (l, t) in locals.iter_mut().zip(&tied) {
        let (Some((repo, ties)), Some(a)) = (t, l.answer) else {
            continue;
        };
        if ties.len() < 2 {
            continue;
        }
        let chosen = ties
            .iter()
            .max_by_key(|(j, v)| (support[&(repo.as_str(), v.as_str())], *j == a))
            .map_or(a, |(j, _)| *j);
        if chosen != a {
            l.matches.swap(a, chosen);
        }
        for (j, _) in ties {
            if *j != a {
                l.matches[*j].same_text_as = Some(a);
            }
        }
    }
}

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
fn is_data_shape(template: &str) -> bool {
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

/// What makes two candidates one choice: a template's literal segments
/// (templates alike but for their holes' names are one), or a literal.
enum ChoiceKey<'a> {
    Text(&'a Pattern),
    Literal(u32),
}

impl PartialEq for ChoiceKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (ChoiceKey::Text(a), ChoiceKey::Text(b)) => a.same_literals(b),
            (ChoiceKey::Literal(a), ChoiceKey::Literal(b)) => a == b,
            _ => false,
        }
    }
}

impl Index {
    /// Explains pasted text.
    pub fn explain(&self, text: &str) -> Explanation {
        Query {
            index: self,
            versions: Versions::named_in(self, text),
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
}

impl std::ops::Deref for Query<'_> {
    type Target = Index;

    fn deref(&self) -> &Index {
        self.index
    }
}

impl Query<'_> {
    /// The answer to the paste `text`.
    fn answer(&self, text: &str) -> Explanation {
        let mut messages = input::parse(text);
        let mut locals = Vec::with_capacity(messages.len());
        for (mi, m) in messages.iter_mut().enumerate() {
            m.std = stdtext::recognise(&m.text).or_else(|| {
                // A panic located in code that is not indexed: the user's
                // `expect` (without a location, it may be a crate's).
                let outside = m.location.as_ref().is_some_and(|l| !self.locates(l));
                (m.origin == input::Origin::Panic && outside)
                    .then(|| stdtext::expect_payload(&m.text))
                    .flatten()
            });
            let local = self.explain_message(mi, m);
            let local = match local.answer {
                None if m.std.is_none() => self.explain_context_value(mi, &m.text).unwrap_or(local),
                _ => local,
            };
            locals.push(local);
        }
        agree_on_versions(&mut locals);
        // The most telling message first: one with an answer, the deepest
        // layer of a chain, the best answer.
        let mut order: Vec<usize> = (0..messages.len()).collect();
        let answer_score = |l: &Local| l.answer.map_or(-1.0, |a| l.matches[a].score);
        // A whole template (or a location) is stronger than a resemblance.
        let whole = |l: &Local| {
            l.answer.is_some_and(|a| {
                let k = &l.matches[a];
                !k.evidence.contains(&Evidence::Resemblance)
                    || k.evidence.contains(&Evidence::Template)
            })
        };
        // One report is about one library: of messages at the same layer,
        // one answered in the crate that answers the most messages leads.
        fn repo(l: &Local) -> Option<&str> {
            l.answer.map(|a| l.matches[a].repo.as_str())
        }
        let support =
            |l: &Local| repo(l).map_or(0, |r| locals.iter().filter(|o| repo(o) == Some(r)).count());
        // What ended the program leads: a panic the report locates, then
        // any panic, then what is not a log line of progress (info, debug,
        // trace).
        let ended = |mi: usize| {
            let l = &locals[mi];
            let m = &messages[mi];
            match (m.origin, l.answer) {
                (input::Origin::Panic, Some(a))
                    if l.matches[a].evidence.contains(&Evidence::Location) =>
                {
                    3
                }
                (input::Origin::Panic, _) => 2,
                _ if m.level.is_some_and(|v| !v.is_problem()) => 0,
                _ => 1,
            }
        };
        order.sort_by(|&a, &b| {
            let (la, lb) = (&locals[a], &locals[b]);
            lb.answer
                .is_some()
                .cmp(&la.answer.is_some())
                .then(ended(b).cmp(&ended(a)))
                .then(whole(lb).cmp(&whole(la)))
                .then(messages[b].layer.cmp(&messages[a].layer))
                .then(support(lb).cmp(&support(la)))
                .then(answer_score(lb).total_cmp(&answer_score(la)))
                .then(a.cmp(&b))
        });
        let mut matches = Vec::new();
        let mut best = vec![None; messages.len()];
        let mut unexplained = Vec::new();
        for mi in order {
            let local = std::mem::replace(
                &mut locals[mi],
                Local {
                    matches: Vec::new(),
                    answer: None,
                },
            );
            if local.answer.is_none() {
                unexplained.push(mi);
            }
            // The answer, the layers wrapping it (innermost first), the rest.
            let mut seq: Vec<usize> = Vec::new();
            let mut cur = local.answer;
            while let Some(i) = cur {
                seq.push(i);
                cur = local.matches[i].inner_of;
            }
            for i in 0..local.matches.len() {
                if !seq.contains(&i) {
                    seq.push(i);
                }
            }
            let base = matches.len();
            let mut new_index = vec![0; local.matches.len()];
            for (pos, &i) in seq.iter().enumerate() {
                new_index[i] = base + pos;
            }
            best[mi] = local.answer.map(|a| new_index[a]);
            let mut ms = local.matches;
            for m in &mut ms {
                m.inner_of = m.inner_of.map(|p| new_index[p]);
                m.same_text_as = m.same_text_as.map(|p| new_index[p]);
            }
            let mut slots: Vec<Option<Match>> = ms.into_iter().map(Some).collect();
            for i in seq {
                matches.push(slots[i].take().expect("each match is placed once"));
            }
        }
        unexplained.sort_unstable();
        Explanation {
            messages,
            matches,
            best,
            unexplained,
        }
    }

    /// One message: the sites its location names, the templates its text
    /// matches and, layer by layer, what their holes printed; the answer is
    /// the located site, else the innermost layer a site explains.
    fn explain_message(&self, mi: usize, m: &Message) -> Local {
        if let Some(local) = m
            .report
            .as_deref()
            .and_then(|r| self.explain_in_layout(mi, r, &m.text))
        {
            return local;
        }
        let mut out: Vec<Match> = Vec::new();
        // std's text in a located report: only a located site printed it; a
        // bare text the same as std's may be a crate's copy of it.
        let std_located = m.std.is_some() && m.location.is_some();
        let panic = m.origin == input::Origin::Panic && m.std.is_none();
        let mut ranked = self.rank(
            &m.text,
            m.location.as_ref(),
            &m.frames,
            m.target.as_deref(),
            std_located,
            panic,
        );
        let located = ranked.first().is_some_and(|(_, c)| c.at_location);
        let memo = Memo::default();
        if !located {
            // The template that, with what its holes print, explains the
            // most of the message leads.
            let norm = normalize(truncate(&m.text, MAX_MESSAGE));
            let chosen = self
                .choose(&ranked, &norm, None, 0, &memo)
                .map(|i| self.default_definition(&ranked, i).unwrap_or(i));
            if let Some(i) = chosen {
                let (t, c) = &ranked[i];
                let share =
                    self.explained(*t, c, &norm, 0, &memo) / norm.chars().count().max(1) as f64;
                if share >= MIN_SHARE {
                    let top = ranked.remove(i);
                    ranked.insert(0, top);
                }
            }
        }
        for (target, c) in ranked.iter().take(MAX_PER_MESSAGE) {
            if c.score() < MIN_SCORE && !c.at_location {
                continue;
            }
            out.push(self.to_match(mi, *target, c, &m.text, None));
        }
        if !located {
            if let Some(place) = m.location.as_ref().and_then(|l| self.place_match(mi, l)) {
                out.insert(0, place);
            }
        }
        // The report's location names an indexed line: a registry path, or
        // a path of an indexed folder whose site there says this text.
        let located = out.first().is_some_and(|k| {
            k.kind == MatchKind::Location
                || (k.evidence.contains(&Evidence::Location)
                    && (m.location.as_ref().is_some_and(|l| l.registry.is_some())
                        || k.evidence.contains(&Evidence::Template)))
        });
        // std's `unwrap` text called from an indexed crate (a frame names
        // the call, the header names the crate's caller under
        // `#[track_caller]`): that call panicked; the value is its layer.
        let framed_std = m.std.is_some()
            && out.first().is_some_and(|k| {
                m.frames.iter().any(|f| {
                    f.at.as_ref().and_then(|a| a.registry.as_ref()).is_some_and(|r| {
                        k.repo == format!("crate:{}", r.name) && k.path == r.path
                    })
                }) && k.evidence.contains(&Evidence::Frame)
                    && k.evidence.contains(&Evidence::Template)
                    && matches!(k.kind, MatchKind::Site(kind) if is_std_wrapper(kind) || kind == Kind::Expect)
            });
        // A library's line (a registry path, a frame) is where it panicked:
        // the answer. A located line of other indexed code (the program's
        // own folder) is the outer layer of what it printed.
        let library_located =
            framed_std || (located && m.location.as_ref().is_some_and(|l| l.registry.is_some()));
        let located = located || framed_std;
        // What std printed around a value: the value is the next layer.
        let mut roots: Vec<usize> = Vec::new();
        let payload = m.std.as_ref().and_then(|s| s.payload.as_deref());
        if let Some(payload) = payload {
            let first = out.len();
            let parent = located.then(|| {
                let snapshot = out[0].snapshot_id;
                (
                    0,
                    Parent {
                        snapshot,
                        trailing: false,
                    },
                )
            });
            if located {
                roots.push(0);
            }
            if let Some((k, equals)) = self.explain_value_among_equals(mi, payload, parent, true) {
                out.push(k);
                if !located {
                    roots.push(first);
                }
                self.explain_holes(mi, first, &mut out, 1);
                // The sites that print the same value, after its layers.
                for mut e in equals {
                    e.same_text_as = Some(first);
                    out.push(e);
                }
            }
        } else if let Some(top) = out.iter().position(|k| k.inner_of.is_none()) {
            roots.push(top);
            self.explain_holes(mi, top, &mut out, 1);
        }
        // A string inside a printed value is a message of its own, even where
        // no template gave it a hole (a hand-written `Debug`, a field the
        // template did not foresee).
        if let Some(&root) = roots.first() {
            let printed = payload.unwrap_or(&m.text);
            let explained: Vec<String> = out
                .iter()
                .flat_map(|k| k.captures.iter().map(|c| unquote(&c.value)))
                .collect();
            for s in quoted_strings(printed).into_iter().take(MAX_STRINGS) {
                if explained.contains(&s) || s.split_whitespace().count() < 3 {
                    continue;
                }
                let snapshot = out[root].snapshot_id;
                let parent = Some((
                    root,
                    Parent {
                        snapshot,
                        trailing: false,
                    },
                ));
                if let Some(k) = self.explain_value(mi, &s, parent) {
                    out.push(k);
                }
            }
        }
        let answer = if library_located {
            Some(0)
        } else if located {
            Some(self.innermost(&out, 0))
        } else {
            roots
                .first()
                .map(|&r| self.innermost(&out, r))
                .filter(|&a| explains_enough(&out[a], &m.text))
        };
        if answer.is_none() {
            // Nothing explains the message well enough to name a site: it is
            // the program's own text (context, prose), not an indexed one.
            out.clear();
        }
        Local {
            matches: out,
            answer,
        }
    }

    /// A report's reason line, where a multi-line template of some crate
    /// prints the whole report (header, excerpt, reason): that layout is the
    /// outer layer and the reason is a value it printed, explained as the
    /// layout's crate's own text first.
    fn explain_in_layout(&self, mi: usize, report: &str, text: &str) -> Option<Local> {
        let layout = self.layout_of(report)?;
        let mut out = vec![self.to_match(mi, layout.0, &layout.1, report, None)];
        let snapshot = out[0].snapshot_id;
        let parent = Parent {
            snapshot,
            trailing: false,
        };
        // The reason's candidates, and the layout's crate's format strings
        // too short for the index that print it whole (their own text most
        // of it: `{}, or {}` explains nothing).
        let norm = normalize(truncate(text, MAX_MESSAGE));
        let chars = norm.chars().count().max(1);
        let mut ranked = self.rank(text, None, &[], None, false, false);
        for &l in self.reports.short.get(&snapshot).into_iter().flatten() {
            let c = self.whole_literal(l, &norm, chars).filter(|c| {
                c.found
                    .as_ref()
                    .is_some_and(|f| f.literal as f64 > ROOT_SHARE * chars as f64)
            });
            if let Some(c) = c {
                ranked.push((Target::Literal(l), c));
            }
        }
        let memo = Memo::default();
        let i = self.choose(&ranked, &norm, Some(parent), 1, &memo)?;
        let (target, c) = &ranked[i];
        out.push(self.to_match(mi, *target, c, text, Some(0)));
        self.explain_holes(mi, 1, &mut out, 1);
        // The layout is decoration: the reason (or a layer inside it) is
        // the answer.
        let answer = self.innermost(&out, 1);
        Some(Local {
            matches: out,
            answer: Some(answer),
        })
    }

    /// The multi-line template that prints a whole report: one the word
    /// index finds, else a layout without words of its own.
    fn layout_of(&self, report: &str) -> Option<(Target, Features)> {
        let ranked = self.rank(report, None, &[], None, false, false);
        if let Some(found) = ranked.into_iter().find(|(t, c)| {
            c.evidence.contains(Evidence::Template) && self.template_text(*t).contains('\n')
        }) {
            return Some(found);
        }
        let norm = normalize(truncate(report, MAX_MESSAGE));
        let chars = norm.chars().count().max(1);
        let literal = |c: &Features| c.found.as_ref().map_or(0, |f| f.literal);
        let mut best: Option<(Target, Features)> = None;
        for &l in &self.reports.layouts {
            let Some(c) = self.whole_literal(l, &norm, chars) else {
                continue;
            };
            if best.as_ref().is_none_or(|(_, b)| literal(b) < literal(&c)) {
                best = Some((Target::Literal(l), c));
            }
        }
        best
    }

    /// Free literal `l` as a candidate when, read as a format string, it
    /// matches the whole of `norm` (`chars` characters).
    fn whole_literal(&self, l: u32, norm: &str, chars: usize) -> Option<Features> {
        let lit = self.literal(l);
        let f = Pattern::new(&literal_template(&lit.text), false).full(norm)?;
        let mut c = Features {
            text: whole_score(f.literal, chars) * score::weights().literal,
            found: Some(Rc::new(f)),
            is_test: lit.is_test || is_test_path(&lit.path),
            ..Features::default()
        };
        c.evidence.push(Evidence::Template);
        Some(c)
    }

    /// The template text of a target, as written.
    fn template_text(&self, t: Target) -> &str {
        match t {
            Target::Site(e, _) => &self.entry(e).template_text,
            Target::Literal(l) => &self.literal(l).text,
        }
    }

    /// A line no template explains whole that begins with the program's
    /// words (`context: message`, `context: Value`): the message or the
    /// value's layers after them, the words left unexplained.
    fn explain_context_value(&self, mi: usize, text: &str) -> Option<Local> {
        let mut rests: Vec<&str> = stdtext::debug_value_after_colon(text).into_iter().collect();
        let mut from = text;
        while let Some(rest) = after_context(from).filter(|_| rests.len() < MAX_CONTEXTS) {
            rests.push(rest);
            from = rest;
        }
        rests.into_iter().find_map(|value| {
            let k = self.explain_value(mi, value, None)?;
            let mut out = vec![k];
            self.explain_holes(mi, 0, &mut out, 1);
            let answer = self.innermost(&out, 0);
            explains_enough(&out[answer], value).then_some(Local {
                matches: out,
                answer: Some(answer),
            })
        })
    }

    /// The deepest, most telling layer under match `root` that a site
    /// explains whole.
    fn innermost(&self, out: &[Match], root: usize) -> usize {
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
                if k.inner_of != Some(i) || k.same_text_as.is_some() {
                    continue;
                }
                queue.push_back(j);
                // Another crate's text inside a value must be a whole
                // message of some length; a part of one only counts within
                // the crate that printed the value.
                let same = k.snapshot_id == out[i].snapshot_id;
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

    /// The best whole explanation of a printed value (a hole's text, an
    /// `unwrap`'s payload), if a site explains it.
    /// Of equally good sites, one in the snapshot of the parent layer
    /// (which printed the value) is taken.
    fn explain_value(
        &self,
        mi: usize,
        value: &str,
        parent: Option<(usize, Parent)>,
    ) -> Option<Match> {
        self.explain_value_among_equals(mi, value, parent, false)
            .map(|(k, _)| k)
    }

    /// [`Index::explain_value`], with (when `equals`) the other sites that
    /// print the same text as well as the answer (`Timeout` of two crates'
    /// channels): nothing in the value tells them apart.
    fn explain_value_among_equals(
        &self,
        mi: usize,
        value: &str,
        parent: Option<(usize, Parent)>,
        equals: bool,
    ) -> Option<(Match, Vec<Match>)> {
        let shaped = strip_std_shapes(value).trim();
        let inner = unquote(shaped);
        let t = inner.trim();
        if t.chars().count() < 3 || !t.chars().any(char::is_alphabetic) {
            return None;
        }
        let memo = Memo::default();
        let whole = |t: &str| {
            let ranked = self.rank(t, None, &[], None, false, false);
            let norm = normalize(t);
            let i = self.choose(&ranked, &norm, parent.map(|p| p.1), 1, &memo)?;
            let i = self.default_definition(&ranked, i).unwrap_or(i);
            let (target, c) = &ranked[i];
            let mut k = self.to_match(mi, *target, c, t, parent.map(|p| p.0));
            k.shared_text = self.shares_text(&ranked, i);
            let equal: Vec<Match> = if equals {
                self.equal_sites(&ranked, i)
                    .map(|j| self.to_match(mi, ranked[j].0, &ranked[j].1, t, parent.map(|p| p.0)))
                    .collect()
            } else {
                Vec::new()
            };
            Some((k, equal))
        };
        // A quoted string may be what a `Debug` printed whole, quotes and
        // all (`"SendError(..)".fmt(f)`); else its content is the message,
        // or the message after the program's words (`reading x: msg`).
        let quoted = (shaped.len() > t.len())
            .then(|| whole(shaped))
            .flatten()
            .filter(|(k, _)| k.evidence.contains(&Evidence::Template));
        quoted
            .or_else(|| whole(t))
            .or_else(|| after_context(t).and_then(whole))
    }

    /// Other sites (at most [`MAX_PER_MESSAGE`]) that print candidate `i`'s
    /// text with the same template and score the same.
    fn equal_sites<'r>(
        &'r self,
        ranked: &'r [(Target, Features)],
        i: usize,
    ) -> impl Iterator<Item = usize> + 'r {
        let (t, c) = &ranked[i];
        let pattern = match *t {
            Target::Site(e, _) => Some(self.entry(e).pattern),
            Target::Literal(_) => None,
        };
        ranked
            .iter()
            .enumerate()
            .filter(move |(j, (t2, c2))| {
                *j != i
                    && pattern.is_some()
                    && matches!(*t2, Target::Site(e2, _) if Some(self.entry(e2).pattern) == pattern)
                    && c2.rank_value() == c.rank_value()
            })
            .map(|(j, _)| j)
            .take(MAX_PER_MESSAGE)
    }

    /// Whether another site of the same snapshot matches with the same
    /// template as candidate `i`, as well.
    fn shares_text(&self, ranked: &[(Target, Features)], i: usize) -> bool {
        let (t, c) = &ranked[i];
        let Target::Site(e, _) = *t else {
            return false;
        };
        let pattern = self.entry(e).pattern;
        let snapshot = self.snapshot_of(*t);
        ranked.iter().enumerate().any(|(j, (t2, c2))| {
            j != i
                && matches!(*t2, Target::Site(e2, _) if self.entry(e2).pattern == pattern)
                && self.snapshot_of(*t2) == snapshot
                && c2.text == c.text
        })
    }

    /// When the chosen site calls a library's default error constructor
    /// (serde's `Error::invalid_type` and kin) and the constructor matches
    /// the whole text too: the constructor, where the text is written.
    fn default_definition(&self, ranked: &[(Target, Features)], chosen: usize) -> Option<usize> {
        let is_default = |t: &Target| match *t {
            Target::Site(e, _) => {
                let e = &self.entry(e).error;
                errdex_model::is_serde_default(e.kind, &e.item_path)
            }
            Target::Literal(_) => false,
        };
        let top = ranked.get(chosen)?;
        let top_is_call = matches!(top.0, Target::Site(e, _)
            if self.entry(e).error.kind == Kind::SerdeCustom);
        if !top_is_call || is_default(&top.0) {
            return None;
        }
        ranked
            .iter()
            .take(MAX_TEMPLATES)
            .position(|(t, c)| is_default(t) && c.evidence.contains(Evidence::Template))
    }

    /// Of the first candidates that explain enough of a value, the one that
    /// explains the most of it layer by layer (one of the parent layer's
    /// snapshot counting a little more).
    fn choose(
        &self,
        ranked: &[(Target, Features)],
        norm: &str,
        parent: Option<Parent>,
        depth: u32,
        memo: &Memo,
    ) -> Option<usize> {
        let parent_snapshot = parent.map(|p| p.snapshot);
        let mut best: Option<(usize, f64)> = None;
        // The first few templates (sites sharing one count once), and
        // those of the parent layer's snapshot.
        let mut seen: Vec<ChoiceKey> = Vec::new();
        let mut tried = Vec::new();
        for (i, (t, c)) in ranked.iter().enumerate().take(MAX_CHOICE_SCAN) {
            // Templates alike but for their holes' names count once.
            let key = match t {
                Target::Site(e, _) => ChoiceKey::Text(self.pattern(self.entry(*e).pattern)),
                Target::Literal(l) => ChoiceKey::Literal(*l),
            };
            let new = !seen.contains(&key);
            if new && seen.len() < CHOICES {
                seen.push(key);
                tried.push((i, (t, c)));
            } else if parent_snapshot == Some(self.snapshot_of(*t))
                || (!new && seen.len() <= CHOICES && seen.contains(&key))
            {
                tried.push((i, (t, c)));
            }
        }
        // A literal explains a value when it is a phrase, or when it is a
        // whole match in the crate that printed the value.
        let usable = |target: &Target, c: &Features| {
            c.text >= MIN_VALUE_TEXT
                && !c.at_location
                && (!matches!(target, Target::Literal(_))
                    || c.found.as_ref().is_some_and(|f| f.literal >= MIN_PHRASE)
                    || (c.evidence.contains(Evidence::Template)
                        && parent_snapshot == Some(self.snapshot_of(*target))))
        };
        // What the holes of whole matches took: a partial match inside one
        // is that hole's layer (weighed there), not a rival of its wrapper.
        let held: Vec<(usize, usize)> = tried
            .iter()
            .filter(|(_, (t, c))| usable(t, c) && c.evidence.contains(Evidence::Template))
            .filter_map(|(_, (_, c))| c.found.as_ref())
            .flat_map(|f| f.spans.iter().copied())
            .collect();
        // Test code holds expectations of messages, not their origins: it
        // answers only when no phrase of other code explains the text.
        let outside_tests = tried.iter().any(|(_, (t, c))| {
            usable(t, c)
                && !self.in_tests(**t, c)
                && c.found.as_ref().is_some_and(|f| f.literal >= MIN_PHRASE)
        });
        for (i, (target, c)) in tried {
            if !usable(target, c) || (outside_tests && self.in_tests(*target, c)) {
                continue;
            }
            if !c.evidence.contains(Evidence::Template)
                && c.found
                    .as_ref()
                    .is_some_and(|f| held.iter().any(|&(a, b)| a <= f.start && f.end <= b))
            {
                continue;
            }
            // A wrapper that begins with a hole (`{} at line {}`) in what a
            // parent's last hole took is its content only when what its own
            // first hole took is a message; else (`u16 at line 1`) it is the
            // parent's wrapper: the parent's text ends inside it.
            let wrapper_in_tail =
                parent.is_some_and(|p| p.trailing) && self.starts_with_hole(*target);
            let Some(mut v) = self.explained_as(*target, c, norm, depth, memo, wrapper_in_tail)
            else {
                continue;
            };
            if let Some(p) = parent_snapshot {
                v *= self.layer_weight(p, *target);
            }
            if c.is_test {
                v *= score::weights().test_site;
            }
            if best.is_none_or(|(_, b)| v > b + 1e-9) {
                best = Some((i, v));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Whether a candidate stands in test code.
    fn in_tests(&self, t: Target, c: &Features) -> bool {
        match t {
            Target::Site(..) => c.is_test,
            Target::Literal(l) => {
                let l = &self.literal(l);
                l.is_test || is_test_path(&l.path)
            }
        }
    }

    /// Characters of `norm` that candidate `c` explains: its literal text
    /// and, hole by hole, what the best explanation of the hole's value
    /// explains.
    fn explained(&self, t: Target, c: &Features, norm: &str, depth: u32, memo: &Memo) -> f64 {
        self.explained_as(t, c, norm, depth, memo, false)
            .unwrap_or(0.0)
    }

    /// [`Index::explained`]; `lead_must_explain`: none when what the first
    /// hole took is not explained.
    fn explained_as(
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
                let ranked = self.rank(v, None, &[], None, false, false);
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
    fn layer_weight(&self, outer: i64, t: Target) -> f64 {
        if self.snapshot_of(t) == outer {
            1.0
        } else if self.may_wrap(outer, self.repo_of(t)) {
            OTHER_SNAPSHOT
        } else {
            UNRELATED_SNAPSHOT
        }
    }

    /// The repo slug of a target.
    fn repo_of(&self, t: Target) -> &str {
        match t {
            Target::Site(e, _) => &self.entry(e).error.repo,
            Target::Literal(l) => &self.literal(l).repo,
        }
    }

    /// Whether a target's template begins with a hole.
    fn starts_with_hole(&self, t: Target) -> bool {
        match t {
            Target::Site(e, _) => self.pattern(self.entry(e).pattern).starts_with_hole(),
            Target::Literal(_) => false,
        }
    }

    /// The snapshot row of a target.
    fn snapshot_of(&self, t: Target) -> i64 {
        match t {
            Target::Site(e, _) => self.entry(e).error.snapshot_id,
            Target::Literal(l) => self.literal(l).snapshot_id,
        }
    }

    /// Explains the hole texts of match `parent` as messages of their own
    /// (an inner error printed by a wrapper, a field of a printed value).
    fn explain_holes(&self, mi: usize, parent: usize, out: &mut Vec<Match>, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        let values: Vec<String> = out[parent]
            .captures
            .iter()
            .map(|c| c.value.clone())
            .collect();
        let ends_with_hole =
            out[parent].template.ends_with('}') && !out[parent].template.ends_with("}}");
        let n = values.len();
        for (vi, value) in values.into_iter().enumerate() {
            if out.len() >= MAX_PER_MESSAGE + MAX_INNER {
                return;
            }
            let layer = Parent {
                snapshot: out[parent].snapshot_id,
                trailing: ends_with_hole && vi + 1 == n,
            };
            let Some(k) = self.explain_value(mi, &value, Some((parent, layer))) else {
                continue;
            };
            out.push(k);
            let child = out.len() - 1;
            self.explain_holes(mi, child, out, depth + 1);
        }
    }

    /// True when a location names a file of an indexed snapshot.
    fn locates(&self, loc: &Location) -> bool {
        match &loc.registry {
            Some(r) => self
                .snapshots
                .contains_key(&(format!("crate:{}", r.name), r.version.clone())),
            None => self
                .sites_at(file_name(&loc.path), loc.line)
                .iter()
                .any(|&[e, s]| {
                    let e = &self.entry(e).error;
                    path_agrees(loc, &e.repo, &e.revision, &e.sites[s as usize].path).0
                }),
        }
    }

    /// A match for the line a registry location names in an indexed
    /// snapshot where no site stands (an implicit panic).
    fn place_match(&self, mi: usize, loc: &Location) -> Option<Match> {
        let r = loc.registry.as_ref()?;
        let snapshot_id = *self
            .snapshots
            .get(&(format!("crate:{}", r.name), r.version.clone()))?;
        Some(Match {
            message: mi,
            error_id: None,
            repo: format!("crate:{}", r.name),
            revision: r.version.clone(),
            path: r.path.clone(),
            line: loc.line,
            end_line: loc.line,
            kind: MatchKind::Location,
            template: String::new(),
            snapshot_id,
            score: score::weights().located,
            why: Why::located_line(score::weights().located),
            evidence: vec![Evidence::Location, Evidence::Version],
            captures: Vec::new(),
            unexplained: Vec::new(),
            inner_of: None,
            same_text_as: None,
            is_test: false,
            literal_chars: 0,
            shared_text: false,
        })
    }

    fn to_match(
        &self,
        mi: usize,
        target: Target,
        c: &Features,
        text: &str,
        inner_of: Option<usize>,
    ) -> Match {
        let norm = normalize(truncate(text, MAX_MESSAGE));
        let mut unexplained = Vec::new();
        if let Some(f) = &c.found {
            for part in [&norm[..f.start], &norm[f.end..]] {
                let part = part.trim();
                if !part.is_empty() {
                    unexplained.push(part.to_string());
                }
            }
        }
        let evidence = c.evidence.to_vec();
        let captures = match (target, &c.found) {
            (Target::Site(entry, _), Some(f)) => self
                .pattern(self.entry(entry).pattern)
                .captures(f, &norm)
                .into_iter()
                .map(|k| Captured {
                    arg: k.arg,
                    value: k.value,
                })
                .collect(),
            _ => Vec::new(),
        };
        let (error_id, repo, revision, path, line, end_line, kind, template, snapshot_id) =
            match target {
                Target::Site(entry, site) => {
                    let e = self.entry(entry);
                    let s = &e.error.sites[site as usize];
                    (
                        Some(e.error.id.clone()),
                        e.error.repo.clone(),
                        e.error.revision.clone(),
                        s.path.clone(),
                        s.line,
                        s.end_line,
                        MatchKind::Site(e.error.kind),
                        e.template_text.clone(),
                        e.error.snapshot_id,
                    )
                }
                Target::Literal(l) => {
                    let l = &self.literal(l);
                    (
                        None,
                        l.repo.clone(),
                        l.revision.clone(),
                        l.path.clone(),
                        l.line,
                        l.line,
                        MatchKind::Literal,
                        l.text.clone(),
                        l.snapshot_id,
                    )
                }
            };
        Match {
            message: mi,
            error_id,
            repo,
            revision,
            path,
            line,
            end_line,
            kind,
            template,
            snapshot_id,
            score: (c.score() * 1000.0).round() / 1000.0,
            why: c.why(),
            evidence,
            captures,
            unexplained,
            inner_of,
            same_text_as: None,
            is_test: c.is_test,
            literal_chars: c.found.as_ref().map_or(0, |f| f.literal),
            shared_text: false,
        }
    }

    /// The repo and revision a target stands in.
    fn version_of(&self, t: Target) -> (&str, &str) {
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
    fn place(&self, t: Target) -> Place<'_> {
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

    /// Features sites for a message, best first. `std_text`: the message
    /// is std's own text, so only located sites can have printed it.
    fn rank(
        &self,
        text: &str,
        location: Option<&Location>,
        frames: &[Frame],
        target: Option<&str>,
        std_text: bool,
        panic: bool,
    ) -> Vec<(Target, Features)> {
        let w = score::weights();
        let norm = normalize(truncate(text, MAX_MESSAGE));
        let chars = norm.chars().count().max(1);
        let mut cands: HashMap<Target, Features> = HashMap::new();

        let located = location.into_iter().map(|l| (l, 1.0, Evidence::Location));
        let framed = frames
            .iter()
            .take(16)
            .filter_map(|f| f.at.as_ref())
            .map(|l| (l, w.frame, Evidence::Frame));
        for (loc, weight, ev) in located.chain(framed) {
            for &[entry, site] in self.sites_at(file_name(&loc.path), loc.line) {
                let e = self.entry(entry);
                let s = &e.error.sites[site as usize];
                let (agrees, version) = path_agrees(loc, &e.error.repo, &e.error.revision, &s.path);
                if !agrees {
                    continue;
                }
                let column_ok = loc.column.is_none_or(|c| c == s.report_column);
                let c = cands.entry(Target::Site(entry, site)).or_default();
                c.location = c
                    .location
                    .max(if column_ok { weight } else { weight * 0.9 });
                c.evidence.push(ev);
                if ev == Evidence::Location && loc.registry.is_some() {
                    c.at_location = true;
                }
                if version {
                    c.evidence.push(Evidence::Version);
                }
            }
        }

        let located_patterns: Vec<u32> = cands
            .keys()
            .filter_map(|t| match t {
                Target::Site(entry, _) => Some(self.entry(*entry).pattern as u32),
                Target::Literal(_) => None,
            })
            .collect();
        let verdicts = self.verdicts(&norm, chars, &located_patterns);
        for Verdict {
            pattern: pid,
            found,
            score: text_score,
            evidence: ev,
        } in verdicts
        {
            let found = found.map(Rc::new);
            // Sites sharing a template score alike; beyond a few, only
            // those with location evidence can rank apart.
            let mut taken = 0;
            for &entry in &self.compiled(pid).entries {
                let e = self.entry(entry);
                for (site, s) in e.error.sites.iter().enumerate() {
                    let key = Target::Site(entry, site as u32);
                    let seen = cands.contains_key(&key);
                    if taken >= MAX_SITES_PER_TEMPLATE && !seen {
                        continue;
                    }
                    // std's texts (`unwrap`) and messages std wrote are
                    // printed by std: a site holding them is the answer only
                    // where the report locates it.
                    if !seen && (std_text || is_std_wrapper(e.error.kind)) {
                        continue;
                    }
                    taken += 1;
                    let c = cands.entry(key).or_default();
                    c.text = text_score;
                    c.found = found.clone();
                    c.evidence.push(ev);
                    c.is_test = s.is_test;
                }
            }
            if std_text {
                continue;
            }
            for &l in &self.compiled(pid).literals {
                let lit = &self.literal(l);
                let in_tests = lit.is_test || is_test_path(&lit.path);
                let c = cands.entry(Target::Literal(l)).or_default();
                c.text = text_score * if in_tests { w.test_literal } else { w.literal };
                c.found = found.clone();
                c.evidence.push(ev);
            }
        }
        for (t, c) in cands.iter_mut() {
            let (repo, revision) = self.version_of(*t);
            match self.versions.agreement(repo, revision) {
                Agreement::Named => c.evidence.push(Evidence::Version),
                Agreement::Other => c.other_version = true,
                Agreement::Silent => {}
            }
            match t {
                Target::Site(e, s) => {
                    let e = &self.entry(*e).error;
                    let site = &e.sites[*s as usize];
                    c.is_test = site.is_test;
                    c.panic_mismatch = panic && !e.kind.panics();
                    c.located_elsewhere = panic
                        && location.is_some()
                        && e.kind.panics()
                        && !site.reported_at_caller
                        && !e.item_path.contains('!')
                        && !c.evidence.contains(Evidence::Location);
                }
                Target::Literal(_) => c.panic_mismatch = false,
            }
        }
        // Frames name functions: a site in one of them, of the crate the
        // symbol names, is where the message came from.
        let named: Vec<(String, Vec<String>)> = frames
            .iter()
            .take(16)
            .filter_map(|f| f.symbol.as_deref().and_then(input::symbol_path))
            .collect();
        if !named.is_empty() {
            for (t, c) in cands.iter_mut() {
                let Target::Site(e, _) = t else { continue };
                let e = &self.entry(*e).error;
                if c.text > 0.0 && named.iter().any(|(k, path)| in_function(e, k, path)) {
                    c.evidence.push(Evidence::Frame);
                    c.location = c.location.max(w.frame);
                }
            }
        }
        // A log line's target names the crate (and module) that logged
        // it: of sites that print the text, one there.
        if let Some(t) = target {
            let (krate, module) = t.split_once("::").unwrap_or((t, ""));
            let krate = krate.replace('-', "_");
            for (t, c) in cands.iter_mut() {
                let Target::Site(e, _) = t else { continue };
                let e = &self.entry(*e).error;
                if c.text == 0.0 || crate::index::crate_name(&e.repo) != krate {
                    continue;
                }
                let in_module =
                    !module.is_empty() && e.item_path.starts_with(&format!("{module}::"));
                c.evidence.push(Evidence::Target);
                c.location = c.location.max(if in_module {
                    w.target_module
                } else {
                    w.target_crate
                });
            }
        }
        // A location outside the registry (a relative path) is only
        // evidence for a site whose template also explains the text.
        cands.retain(|_, c| c.at_location || c.text > 0.0);
        // Equal scores: the crate more indexed code depends on, then the
        // place (a stable order).
        // Of one crate's versions printing the text alike, the newest; a
        // total order to the end (never the hash map's).
        let mut scored: Vec<(f64, u32, Option<semver::Version>, Place, Target, Features)> = cands
            .into_iter()
            .map(|(t, c)| {
                let dependents = self.dependents_of(self.repo_of(t));
                let version = semver::Version::parse(self.version_of(t).1).ok();
                (c.rank_value(), dependents, version, self.place(t), t, c)
            })
            .collect();
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(b.1.cmp(&a.1))
                .then_with(|| {
                    if a.3 .0 == b.3 .0 {
                        b.2.cmp(&a.2)
                    } else {
                        std::cmp::Ordering::Equal
                    }
                })
                .then_with(|| a.3.cmp(&b.3))
                .then_with(|| a.4.cmp(&b.4))
        });
        scored
            .into_iter()
            .map(|(_, _, _, _, t, c)| (t, c))
            .collect()
    }
}

/// Whether error `e` stands in the function a frame names: the crate
/// (`-` and `_` alike) and the last two segments of its item path.
fn in_function(e: &errdex_model::MatchEntry, krate: &str, path: &[String]) -> bool {
    if crate::index::crate_name(&e.repo) != krate.replace('-', "_") {
        return false;
    }
    let item: Vec<&str> = e.item_path.split("::").collect();
    let n = path.len().min(2).min(item.len());
    n > 0
        && item[item.len() - n..]
            .iter()
            .zip(&path[path.len() - n..])
            .all(|(a, b)| a == b)
}

/// The text after a leading `words: `, when what follows is long enough
/// to be a message of its own.
fn after_context(v: &str) -> Option<&str> {
    let (_, rest) = v.split_once(": ")?;
    let rest = rest.trim();
    (rest.chars().count() >= 3 && rest.chars().any(char::is_alphabetic)).then_some(rest)
}

/// `unwrap`/`expect` and kin: std prints the error value after them, and
/// they say nothing of it.
fn unwraps(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Unwrap | Kind::UnwrapErr | Kind::Expect | Kind::ExpectErr
    )
}

/// Kinds whose text std writes (`unwrap`'s): located by the method call.
fn is_std_wrapper(kind: Kind) -> bool {
    matches!(kind, Kind::Unwrap | Kind::UnwrapErr)
}

/// Whether a reported path names this site; and whether it names this
/// exact crate version.
fn path_agrees(loc: &Location, repo: &str, revision: &str, site_path: &str) -> (bool, bool) {
    if let Some(r) = &loc.registry {
        let same_crate = repo == format!("crate:{}", r.name);
        return (
            same_crate && r.path == site_path,
            same_crate && r.version == revision,
        );
    }
    let p = loc.path.trim_start_matches("./").replace('\\', "/");
    (
        p == site_path
            || p.ends_with(&format!("/{site_path}"))
            || site_path.ends_with(&format!("/{p}")),
        false,
    )
}

/// Whether an answer explains enough of its message to be named: a whole
/// template; a part of one that is a phrase (a run of literal text) or
/// most of the text; a close resemblance. One common word (`invalid`,
/// `string`) inside the program's own sentence is not enough.
fn explains_enough(k: &Match, text: &str) -> bool {
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
fn is_root_cause(outer: &Match, inner: &Match) -> bool {
    let wrapper = match outer.kind {
        MatchKind::Site(k) => unwraps(k) || k == Kind::DebugImpl || k.is_debug_shape(),
        MatchKind::Literal | MatchKind::Location => false,
    };
    let site = matches!(inner.kind, MatchKind::Site(_));
    site && (wrapper || inner.literal_chars as f64 > outer.literal_chars as f64 * ROOT_SHARE)
}

/// The strings a `Debug` output holds (`"…"` with Rust's escapes), read
/// back.
fn quoted_strings(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut text = String::new();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    Some(o) => text.push(o),
                    None => break,
                },
                '"' => {
                    closed = true;
                    break;
                }
                c => text.push(c),
            }
        }
        if closed {
            out.push(text);
        }
    }
    out
}

/// A value without std's `Option`/`Result` wrappers around it
/// (`Some(x)` → `x`); `None` prints nothing of a crate's.
fn strip_std_shapes(s: &str) -> &str {
    let mut t = s.trim();
    while let Some(inner) = crate::index::STD_WRAPPERS
        .iter()
        .find_map(|p| t.strip_prefix(p)?.strip_suffix(')'))
    {
        t = inner.trim();
    }
    if t == "None" {
        ""
    } else {
        t
    }
}

/// The text inside a Debug-printed string (`"a \"b\""` → `a "b"`).
fn unquote(s: &str) -> String {
    let t = s.trim();
    match t.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => inner
            .replace("\\\"", "\"")
            .replace("\\n", "\n")
            .replace("\\\\", "\\"),
        None => t.to_string(),
    }
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_inside_printed_values() {
        assert_eq!(
            quoted_strings(r#"Error { detail: "tried to use \"+\"", name: "<string>" }"#),
            vec![r#"tried to use "+""#.to_string(), "<string>".to_string()]
        );
        assert_eq!(strip_std_shapes("Some(Ok(Timeout))"), "Timeout");
        assert_eq!(strip_std_shapes("None"), "");
        assert_eq!(strip_std_shapes("Something(1)"), "Something(1)");
    }

    use errdex_model::{MatchData, MatchEntry, MatchSite, Template};

    /// An error of `repo` (snapshot `snapshot`) whose template is `text`
    /// with `{}` for its holes, at `path:line`.
    fn error(repo: &str, snapshot: i64, kind: Kind, text: &str, line: u32) -> MatchEntry {
        let mut template = Template::new();
        for (i, part) in text.split("{}").enumerate() {
            if i > 0 {
                template.push_hole(errdex_model::Hole {
                    arg: format!("a{i}"),
                    spec: "?".into(),
                });
            }
            template.push_lit(part);
        }
        MatchEntry {
            id: format!("{repo}{line}"),
            repo: repo.into(),
            revision: "1.0.0".into(),
            snapshot_id: snapshot,
            kind,
            template,
            item_path: "m::f".into(),
            sites: vec![MatchSite {
                path: "src/lib.rs".into(),
                line,
                end_line: line,
                report_line: line,
                report_column: 5,
                reported_at_caller: false,
                is_test: false,
            }],
        }
    }

    fn index(errors: Vec<MatchEntry>, deps: &[(i64, &[&str])]) -> Index {
        Index::from_data(MatchData {
            errors,
            literals: Vec::new(),
            deps: deps
                .iter()
                .map(|(s, d)| (*s, d.iter().map(|x| x.to_string()).collect()))
                .collect(),
        })
    }

    #[test]
    fn a_partial_match_inside_a_whole_matchs_hole_is_its_layer() {
        // ciborium's `Semantic(None, "…")` around serde's text: serde's
        // longer template matches only inside the quotes.
        let ix = index(
            vec![
                error("crate:cbor", 1, Kind::DebugVariant, "Semantic({}, {})", 26),
                error(
                    "crate:cbor",
                    1,
                    Kind::Display,
                    "invalid type: {}, expected {}",
                    22,
                ),
                error(
                    "crate:serde_core",
                    2,
                    Kind::Display,
                    "invalid type: integer `{}`, expected {}",
                    1398,
                ),
            ],
            &[(1, &["serde"]), (2, &[])],
        );
        let x = ix.explain("Semantic(None, \"invalid type: integer `1`, expected string\")");
        // The answer is the text inside the quotes, a layer of the variant.
        let wrapper = x.matches[0].inner_of.map(|w| &x.matches[w]);
        assert_eq!(
            wrapper.map(|w| (w.repo.as_str(), w.line)),
            Some(("crate:cbor", 26))
        );
        assert!(x.matches[0].unexplained.is_empty());
    }

    #[test]
    fn a_tests_expectation_is_not_the_origin_of_a_message() {
        let text = "failed to parse two digit integer as month: parameter 'month' is not in the required range of 1..=12";
        let ix = Index::from_data(MatchData {
            errors: vec![
                error(
                    "crate:jiff",
                    1,
                    Kind::Display,
                    "failed to parse two digit integer as month",
                    271,
                ),
                error(
                    "crate:jiff-core",
                    2,
                    Kind::Display,
                    "parameter '{}' is not in the required range of {}..={}",
                    784,
                ),
            ],
            literals: vec![errdex_model::LiteralEntry {
                repo: "crate:jiff".into(),
                revision: "1.0.0".into(),
                snapshot_id: 1,
                path: "src/fmt/parser.rs".into(),
                line: 2138,
                text: text.into(),
                is_test: true,
            }],
            deps: HashMap::new(),
        });
        // The library's own texts, not the test that expects them.
        let x = ix.explain(text);
        assert_eq!(x.matches[0].kind, MatchKind::Site(Kind::Display));
    }

    #[test]
    fn a_facade_dependency_reaches_its_core() {
        let ix = index(Vec::new(), &[(1, &["serde"]), (2, &["serde_core"])]);
        assert!(ix.may_wrap(1, "crate:serde_core") && ix.may_wrap(2, "crate:serde_core"));
        assert!(!ix.may_wrap(1, "crate:toml_core") && !ix.may_wrap(2, "crate:serde"));
    }

    #[test]
    fn a_report_is_about_the_crate_most_of_its_messages_come_from() {
        let ix = index(
            vec![
                error(
                    "crate:kdl",
                    1,
                    Kind::Display,
                    "Failed to parse KDL document",
                    47,
                ),
                error(
                    "crate:kdl",
                    1,
                    Kind::Display,
                    "Expected end of document",
                    265,
                ),
                error("crate:ron", 2, Kind::Display, "Expected integer", 143),
            ],
            &[],
        );
        let report = "Error:   × Failed to parse KDL document\n\nError: \n  × Expected integer\n   ╭─[2:6]\n   ╰────\n\nError: \n  × Expected end of document\n   ╭─[2:14]\n   ╰────\n";
        let x = ix.explain(report);
        assert_eq!(x.messages.len(), 3);
        assert_eq!(x.matches[0].repo, "crate:kdl");
    }

    #[test]
    fn a_reports_reason_is_the_text_of_the_crate_whose_layout_printed_it() {
        let literal = |snapshot: i64, line: u32, text: &str| errdex_model::LiteralEntry {
            repo: if snapshot == 1 {
                "crate:peg"
            } else {
                "crate:json"
            }
            .into(),
            revision: "1.0.0".into(),
            snapshot_id: snapshot,
            path: "src/error.rs".into(),
            line,
            text: text.into(),
            is_test: false,
        };
        let ix = Index::from_data(MatchData {
            errors: vec![error("crate:json", 2, Kind::Display, "expected number", 98)],
            literals: vec![
                literal(1, 590, "expected {}"),
                literal(
                    1,
                    671,
                    "{s}--> {p}{l}:{c}\n{s} |\n{l} | {line}\n{s} | {underline}\n{s} |\n{s} = {message}",
                ),
            ],
            deps: [(1, vec![]), (2, vec![])].into_iter().collect(),
        });
        let report = " --> 1:6\n  |\n1 | 12 + * 3\n  |      ^---\n  |\n  = expected number\n";
        for text in [
            report.to_string(),
            format!(
                "Error: could not evaluate\n\nCaused by:\n    {}",
                report.replace('\n', "\n    ")
            ),
        ] {
            let x = ix.explain(&text);
            let first = &x.matches[0];
            assert_eq!(
                (first.repo.as_str(), first.line),
                ("crate:peg", 590),
                "{text}"
            );
            let layout = first.inner_of.map(|i| x.matches[i].line);
            assert_eq!(layout, Some(671), "{text}");
        }
        // Without the layout, the whole text of the other crate answers.
        let x = ix.explain("expected number");
        assert_eq!(x.matches[0].repo, "crate:json");
    }

    #[test]
    fn a_log_target_orders_sites_that_print_the_same_text() {
        let mut errors = vec![
            error("crate:alpha", 1, Kind::Display, "channel closed", 10),
            error("crate:beta", 2, Kind::Display, "channel closed", 20),
            error("crate:beta", 2, Kind::Display, "channel closed", 30),
        ];
        errors[2].item_path = "sync::mpsc::Closed".into();
        let ix = index(errors, &[]);
        let first = |text: &str| {
            let x = ix.explain(text);
            (x.matches[0].repo.clone(), x.matches[0].line)
        };
        assert_eq!(first("channel closed"), ("crate:alpha".to_string(), 10));
        assert_eq!(
            first("[2026-12-03T10:00:00Z ERROR beta] channel closed"),
            ("crate:beta".to_string(), 20)
        );
        // The module too: the site in `beta::sync::mpsc`.
        let x = ix.explain("2026-12-03T10:00:00Z ERROR beta::sync::mpsc: channel closed");
        assert_eq!(
            (x.matches[0].repo.as_str(), x.matches[0].line),
            ("crate:beta", 30)
        );
        assert!(x.matches[0].evidence.contains(&Evidence::Target));
    }

    #[test]
    fn hand_written_debug_in_the_derived_shape_is_data() {
        assert!(is_data_shape("TrySendError {{ kind: {:?} }}"));
        assert!(is_data_shape(
            "DecodeError {{ description: {:?}, stack: {:?} }}"
        ));
        assert!(is_data_shape("Error({:?})"));
        assert!(!is_data_shape("SendError(..)"));
        assert!(!is_data_shape("Timeout"));
        assert!(!is_data_shape("invalid key {{ {} }}"));
        assert!(!is_data_shape("{} at {}"));
    }
}
