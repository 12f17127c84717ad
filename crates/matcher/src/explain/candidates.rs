//! One message's candidates: the site its location names, the layout of
//! a report it sits in, the templates its text matches, a value inside it.

use super::layers::{explains_enough, Memo, Parent, MIN_SCORE, ROOT_SHARE};
use super::rank::{is_std_wrapper, path_agrees, Around};
use super::text::{
    debug_tuple_inner, quoted_strings, strip_std_shapes, truncate, unquote, MAX_MESSAGE,
};
use super::*;
use crate::index::{file_name, literal_template};
use crate::input::{self, Location, Message};
use crate::pattern::{normalize, Pattern};
use crate::score::{self, Features, Why};
use crate::select::whole_score;
use crate::stdtext;
use crate::versions::Agreement;
use errdex_model::{is_test_path, Kind};
use std::rc::Rc;

/// Sites listed per message at most.
pub(super) const MAX_PER_MESSAGE: usize = 10;

/// Strings inside a printed value explained on their own, at most.
const MAX_STRINGS: usize = 4;

/// `Debug` tuple variants no template explains, taken off a value at most
/// (a program's error enum wraps a library's error in one or two).
const MAX_PEELS: u32 = 3;

/// At most this many `words: ` prefixes are taken off a line no template
/// explains.
const MAX_CONTEXTS: usize = 3;

/// The text after a leading `words: `, when what follows is long enough
/// to be a message of its own.
pub(super) fn after_context(v: &str) -> Option<&str> {
    let (_, rest) = v.split_once(": ")?;
    let rest = rest.trim();
    (rest.chars().count() >= 3 && rest.chars().any(char::is_alphabetic)).then_some(rest)
}

/// How many lines around a package location are searched for a site of
/// the same file, to know which package ships it.
const PACKAGE_SCAN: u32 = 200;

/// How far the search goes on when none is that near (a long module whose
/// raises are far from the frame's line: pydantic's `main.py:176`, its
/// first raise at 455), stopping [`PACKAGE_SCAN`] lines past the first
/// found.
const PACKAGE_SCAN_FAR: u32 = 5000;

/// Segments of a path's tail tried as a package's file, at most.
const MAX_TAIL: usize = 4;

impl Index {
    /// The published packages' (repo, version) that ship the installed
    /// file a location names: those with a site in that file within
    /// [`PACKAGE_SCAN`] lines of it, or of the nearest one up to
    /// [`PACKAGE_SCAN_FAR`] away (the line index is by file name and line).
    pub(crate) fn shipping(&self, loc: &Location) -> Vec<(String, String)> {
        let Some(p) = loc.package.as_deref() else {
            return Vec::new();
        };
        let file = file_name(p);
        let mut found: Vec<(String, String)> = Vec::new();
        // Out to PACKAGE_SCAN lines; where nothing is that near, on until
        // something is, and PACKAGE_SCAN lines past it.
        let mut end = PACKAGE_SCAN;
        for d in 0..=PACKAGE_SCAN_FAR {
            if d > end {
                break;
            }
            let none_yet = found.is_empty();
            let lines = [loc.line.checked_sub(d), (d > 0).then(|| loc.line + d)];
            for line in lines.into_iter().flatten() {
                for &[e, s] in self.sites_at(file, line).iter() {
                    let e = &self.entry(e).error;
                    if e.repo.starts_with("pypi:") && e.sites[s as usize].path == p {
                        let key = (e.repo.clone(), e.revision.clone());
                        if !found.contains(&key) {
                            found.push(key);
                        }
                    }
                }
            }
            if found.is_empty() && d == end {
                end += 1;
            } else if none_yet && !found.is_empty() && d > PACKAGE_SCAN {
                end = d + PACKAGE_SCAN;
            }
        }
        found
    }

    /// The file a frame names by its base name alone (a crash reporter's
    /// `File "base.py", line 289`), in the package whose module `module`
    /// is (the exception's type's: `git.exc` → `git/`): the file of that
    /// name below the module's folder with a site nearest the line.
    pub(crate) fn named_file(&self, loc: &Location, module: &str) -> Option<String> {
        if loc.package.is_some() || loc.path.contains(['/', '\\']) || !loc.path.ends_with(".py") {
            return None;
        }
        let folder = format!("{}/", module.split('.').next()?);
        (0..=PACKAGE_SCAN).find_map(|d| {
            let lines = [loc.line.checked_sub(d), (d > 0).then(|| loc.line + d)];
            lines.into_iter().flatten().find_map(|line| {
                self.sites_at(&loc.path, line).iter().find_map(|&[e, s]| {
                    let e = &self.entry(e).error;
                    let path = &e.sites[s as usize].path;
                    (e.repo.starts_with("pypi:")
                        && path.starts_with(&folder)
                        && file_name(path) == loc.path)
                        .then(|| path.clone())
                })
            })
        })
    }

    /// The file an installed package ships that a path outside any
    /// installed-packages folder names (a package copied into the
    /// program's `libs/`, a folder on `PYTHONPATH`): the shortest tail of
    /// at least two segments that is an indexed package's file there.
    pub(crate) fn package_tail(&self, loc: &Location) -> Option<String> {
        if loc.package.is_some() || loc.registry.is_some() || !loc.path.ends_with(".py") {
            return None;
        }
        let segs: Vec<&str> = loc
            .path
            .split(['/', '\\'])
            .filter(|s| !s.is_empty())
            .collect();
        (2..=segs.len().min(MAX_TAIL)).find_map(|k| {
            let tail = segs[segs.len() - k..].join("/");
            let at = Location {
                package: Some(tail.clone()),
                ..loc.clone()
            };
            (!self.shipping(&at).is_empty()).then_some(tail)
        })
    }
}

impl Query<'_> {
    /// One message: the sites its location names, the templates its text
    /// matches and, layer by layer, what their holes printed; the answer is
    /// the located site, else the innermost layer a site explains.
    pub(super) fn explain_message(&self, mi: usize, m: &Message) -> Local {
        self.explain_message_peeling(mi, m, MAX_PEELS)
    }

    /// [`Index::explain_message`]; when nothing explains a `Debug` tuple
    /// variant whole, what it holds is explained instead, `peels` times at
    /// most (the program's own error enum around a library's error).
    fn explain_message_peeling(&self, mi: usize, m: &Message, peels: u32) -> Local {
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
        // std's `unwrap` text that names no line of the code that called it
        // (std's own file, as releases before track_caller print), under
        // cargo's header of a failed build script: that script's `unwrap`s.
        let script = m
            .std
            .as_ref()
            .filter(|s| s.source.ends_with("::unwrap") || s.source.ends_with("::unwrap_err"))
            .filter(|_| m.location.as_ref().is_none_or(Location::is_std))
            .and(self.versions.build_script);
        let mut ranked = self.rank(
            &m.text,
            Around {
                location: m.location.as_ref(),
                frames: &m.frames,
                target: m.target.as_deref(),
                std_text: std_located,
                panic,
                keep: None,
                script,
            },
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
            let chosen = match chosen {
                Some(i) => self.site_beside(&ranked, i).or(Some(i)),
                None => self.site_beside(&ranked, 0),
            };
            // Never over a candidate the report's location, frames or
            // target agree with more (a vendored copy's quotes written out
            // do not outweigh the package the exception's module names).
            let agreed = ranked.first().map_or(0.0, |(_, c)| c.location);
            let chosen = chosen.filter(|&i| ranked[i].1.location >= agreed);
            if let Some(i) = chosen {
                let top = ranked.remove(i);
                ranked.insert(0, top);
            }
        }
        // One entry per place: the sites of one line (a message bound once
        // and raised from several statements reports its binding's line)
        // are the same answer to a user.
        let mut places = std::collections::HashSet::new();
        for (target, c) in &ranked {
            if out.len() == MAX_PER_MESSAGE {
                break;
            }
            if c.score() < MIN_SCORE && !c.at_location {
                continue;
            }
            let k = self.to_match(mi, *target, c, &m.text, None);
            if places.insert((k.snapshot_id, k.path.clone(), k.line)) {
                out.push(k);
            }
        }
        if !located {
            // Where the report locates it, else (Python, whose innermost
            // frame may be the standard library's) the innermost frame in
            // an installed package: when Python's own code raised it (a
            // program's own line raised its own error), or when the report
            // has no place of its own (a warning's `path:line:` is the
            // caller `stacklevel` names, a frame) and no template explains
            // the text.
            let explained = out.iter().any(|k| k.evidence.contains(&Evidence::Template));
            let by_runtime = m
                .location
                .as_ref()
                .is_some_and(|l| input::python::is_runtime_path(&l.path));
            let place = m
                .location
                .as_ref()
                .and_then(|l| self.place_match(mi, l, !explained))
                .or_else(|| {
                    (!explained && (by_runtime || m.location.is_none())).then_some(())?;
                    m.frames
                        .iter()
                        .filter_map(|f| f.at.as_ref())
                        .filter(|l| l.package.is_some())
                        .find_map(|l| self.place_match(mi, l, false))
                });
            if let Some(place) = place {
                out.insert(0, place);
            }
        }
        // The report's location names an indexed line: a registry path, or
        // a path of an indexed folder whose site there says this text.
        let located = out.first().is_some_and(|k| {
            k.kind == MatchKind::Location
                || (k.evidence.contains(&Evidence::Location)
                    && (m.location.as_ref().is_some_and(|l| l.is_library())
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
        // An `unwrap` of the failed build script (see `script` above): the
        // outer layer, as a program's own located line is — a value the
        // script's own code printed is the answer; several `unwrap`s there
        // are a guess.
        let scripted = out
            .first()
            .is_some_and(|k| k.evidence.contains(&Evidence::BuildScript));
        let library_located =
            framed_std || (located && m.location.as_ref().is_some_and(|l| l.is_library()));
        let located = located || framed_std || scripted;
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
            } else if let Some(k) = self.explain_debug_strings(mi, payload).filter(|_| !located) {
                // A value of a type no template prints (the program's, an
                // unindexed crate's) holding a library's message as a
                // string: cpal's `BackendSpecific { err: … { description:
                // "ALSA function '…' failed …" } }`.
                roots.push(out.len());
                out.push(k);
            }
        } else if let Some(top) = out.iter().position(|k| k.inner_of.is_none()) {
            roots.push(top);
            self.explain_holes(mi, top, &mut out, 1);
        } else if let Some(k) = self.explain_debug_strings(mi, &m.text) {
            roots.push(out.len());
            out.push(k);
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
            if let Some(inner) = debug_tuple_inner(&m.text).filter(|_| peels > 0) {
                let peeled = Message {
                    text: inner.to_string(),
                    ..m.clone()
                };
                let local = self.explain_message_peeling(mi, &peeled, peels - 1);
                if local.answer.is_some() {
                    return local;
                }
            }
            // Nothing explains the message well enough to name a site: it is
            // the program's own text (context, prose), not an indexed one.
            out.clear();
        }
        Local {
            matches: out,
            answer,
        }
    }

    /// A value printed with `{:?}` that no template explains as a whole
    /// (an error chain's `Debug`: `Transport(reqwest::Error { kind:
    /// Request, source: ConnectError("dns error", Os { .. }) })`) holds its
    /// messages as strings: the one a template prints whole, best first.
    fn explain_debug_strings(&self, mi: usize, text: &str) -> Option<Match> {
        if !(text.contains("(\"") || text.contains(": \"")) {
            return None;
        }
        quoted_strings(text)
            .into_iter()
            .take(MAX_STRINGS)
            .filter_map(|s| self.explain_value(mi, &s, None))
            .filter(|k| k.evidence.contains(&Evidence::Template))
            .max_by(|a, b| a.score.total_cmp(&b.score))
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
        let mut ranked = self.rank(
            text,
            Around {
                keep: Some(snapshot),
                ..Around::default()
            },
        );
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
        let ranked = self.rank(report, Around::default());
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

    /// A line no template explains whole that begins with the program's
    /// words (`context: message`, `context: Value`): the message or the
    /// value's layers after them, the words left unexplained.
    pub(super) fn explain_context_value(&self, mi: usize, text: &str) -> Option<Local> {
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

    /// The best whole explanation of a printed value (a hole's text, an
    /// `unwrap`'s payload), if a site explains it.
    /// Of equally good sites, one in the snapshot of the parent layer
    /// (which printed the value) is taken.
    pub(super) fn explain_value(
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
        // A value that is std's own text (a `ParseIntError` printed by
        // the layer above) came from std, not from a crate's copy of it.
        if stdtext::recognise(t).is_some() {
            return None;
        }
        let memo = Memo::default();
        let whole = |t: &str| {
            let ranked = self.rank(
                t,
                Around {
                    keep: parent.map(|p| p.1.snapshot),
                    ..Around::default()
                },
            );
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
        // A variant of the program's own error enum around the value: what
        // it holds.
        let peeled = || {
            std::iter::successors(debug_tuple_inner(t), |v| debug_tuple_inner(v))
                .take(MAX_PEELS as usize)
                .find_map(|v| whole(v).filter(|(k, _)| k.evidence.contains(&Evidence::Template)))
        };
        quoted
            .or_else(|| whole(t))
            .or_else(|| after_context(t).and_then(whole))
            .or_else(peeled)
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

    /// True when a location names a file of an indexed snapshot.
    pub(super) fn locates(&self, loc: &Location) -> bool {
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

    /// The published package (repo, version) that ships the installed
    /// file a location names (see [`Index::shipping`]); of several
    /// versions, the one the paste names, else one with a site on that
    /// very line, else the newest.
    fn package_of(&self, loc: &Location) -> Option<(String, String)> {
        let p = loc.package.as_deref()?;
        let found = self.shipping(loc);
        let named = |(repo, revision): &(String, String)| {
            let id = self.snapshots.get(&(repo.clone(), revision.clone()));
            id.is_some_and(|&id| {
                matches!(
                    self.versions.agreement(repo, revision, id),
                    Agreement::Named
                )
            })
        };
        // A version with a site on the very line (a raise the frame shows).
        let on_line = |(repo, revision): &(String, String)| {
            self.sites_at(file_name(p), loc.line).iter().any(|&[e, s]| {
                let e = &self.entry(e).error;
                &e.repo == repo && &e.revision == revision && e.sites[s as usize].path == p
            })
        };
        found.into_iter().max_by(|a, b| {
            (named(a), on_line(a))
                .cmp(&(named(b), on_line(b)))
                .then_with(|| crate::index::version_order(&a.1, &b.1))
                .then_with(|| a.cmp(b))
        })
    }

    /// The newest indexed version of the package a file path begins with
    /// (`uvicorn/middleware/asgi2.py`) whose stored file has line `line`:
    /// a file without any site (a call into the program's code, where the
    /// interpreter raised) is still that package's.
    fn holding_line(&self, path: &str, line: u32) -> Option<(String, String)> {
        let top = path.split('/').next()?;
        let key = crate::versions::package_key(top);
        let mut snapshots: Vec<(&(String, String), &i64)> = self
            .snapshots
            .iter()
            .filter(|((repo, _), _)| {
                repo.starts_with("pypi:") && crate::versions::package_key(repo) == key
            })
            .collect();
        snapshots.sort_by(|a, b| crate::index::version_order(&b.0 .1, &a.0 .1).then(b.1.cmp(a.1)));
        snapshots
            .into_iter()
            .find(|(_, &id)| self.files.line(id, path, line).is_some())
            .map(|(k, _)| k.clone())
    }

    /// A match for the line a registry location names in an indexed
    /// snapshot where no site stands (an implicit panic).
    /// `anywhere`: also a line of a package file without any site (where
    /// nothing explains the text: the interpreter raised there).
    fn place_match(&self, mi: usize, loc: &Location, anywhere: bool) -> Option<Match> {
        let (repo, revision, path) = match &loc.registry {
            Some(r) => (
                format!("crate:{}", r.name),
                r.version.clone(),
                r.path.clone(),
            ),
            None => {
                let p = loc.package.clone()?;
                let (repo, revision) = self
                    .package_of(loc)
                    .or_else(|| anywhere.then(|| self.holding_line(&p, loc.line)).flatten())?;
                (repo, revision, p)
            }
        };
        let snapshot_id = *self.snapshots.get(&(repo.clone(), revision.clone()))?;
        Some(Match {
            message: mi,
            error_id: None,
            repo,
            revision,
            path,
            line: loc.line,
            end_line: loc.line,
            kind: MatchKind::Location,
            mechanism: None,
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
            constant_part: false,
        })
    }
}
