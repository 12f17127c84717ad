//! Candidates scored and ordered: features of each site (text, location,
//! frames, versions, log target, dependencies) weighed by the scoring model.

use super::layers::{Memo, Parent, MIN_PHRASE};
use super::text::{truncate, MAX_MESSAGE};
use super::*;
use crate::index::file_name;
use crate::input::{self, Frame, Location};
use crate::pattern::{normalize, Pattern};
use crate::score::{self, Features};
use crate::select::{Verdict, MAX_TEMPLATES};
use crate::versions::Agreement;
use errdex_model::{is_test_path, Kind};
use std::collections::HashMap;
use std::rc::Rc;

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

/// Sites of one template considered per query (besides located ones).
const MAX_SITES_PER_TEMPLATE: usize = 32;

/// Featuress weighed layer by layer per text, at most.
const CHOICES: usize = 8;

/// Featuress scanned for those templates, at most.
const MAX_CHOICE_SCAN: usize = 256;

/// A printed value is explained by a template covering this much of it.
const MIN_VALUE_TEXT: f64 = 0.4;

/// What the paste says about a message besides its text.
#[derive(Default, Clone, Copy)]
pub(super) struct Around<'a> {
    /// Where the report places it.
    pub(super) location: Option<&'a Location>,
    /// The backtrace's frames.
    pub(super) frames: &'a [Frame],
    /// The log target that logged it.
    pub(super) target: Option<&'a str>,
    /// The message is std's own text, so only located sites can have
    /// printed it.
    pub(super) std_text: bool,
    /// A panic's message.
    pub(super) panic: bool,
    /// The snapshot of the layer that printed this text (a hole's value):
    /// its sites are weighed however many others share their template
    /// (`Empty` of a crate's own error kind among hundreds).
    pub(super) keep: Option<i64>,
    /// The snapshot whose build script printed std's `unwrap` text with
    /// no line of the script: its `unwrap` calls there are candidates.
    pub(super) script: Option<i64>,
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

/// `unwrap`/`expect` and kin: std prints the error value after them, and
/// they say nothing of it.
pub(super) fn unwraps(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Unwrap | Kind::UnwrapErr | Kind::Expect | Kind::ExpectErr
    )
}

/// A file of a package's build script: `build.rs` and the modules beside
/// it under `build/` (a script named elsewhere by the manifest's `build`
/// key is not known here).
fn is_build_script(path: &str) -> bool {
    path == "build.rs" || path.starts_with("build/")
}

/// Kinds whose text std writes (`unwrap`'s): located by the method call.
pub(super) fn is_std_wrapper(kind: Kind) -> bool {
    matches!(kind, Kind::Unwrap | Kind::UnwrapErr)
}

/// Whether a reported path names this site; and whether it names this
/// exact crate version.
pub(super) fn path_agrees(
    loc: &Location,
    repo: &str,
    revision: &str,
    site_path: &str,
) -> (bool, bool) {
    if let Some(r) = &loc.registry {
        let same_crate = repo == format!("crate:{}", r.name);
        return (
            same_crate && r.path == site_path,
            same_crate && r.version == revision,
        );
    }
    // An installed package's file is the package's own file: exactly that
    // path in a published package (not a vendored copy under another
    // folder), a path below the root in a repository's checkout.
    // A published package's site standing on the very line printed is
    // evidence of its version too: line numbers move between releases.
    let published = repo.starts_with("pypi:");
    if let Some(p) = &loc.package {
        let agrees = p == site_path || (!published && site_path.ends_with(&format!("/{p}")));
        return (agrees, agrees && published);
    }
    let p = loc.path.trim_start_matches("./").replace('\\', "/");
    let agrees = p == site_path
        || p.ends_with(&format!("/{site_path}"))
        || site_path.ends_with(&format!("/{p}"));
    (agrees, agrees && published)
}

/// A path outside any registry that is a checkout of the site's package:
/// a folder above the site's path bears its name (a developer's
/// `…/wasmer/lib/api/src/js/module.rs` for crate `wasmer`'s
/// `src/js/module.rs`, a workspace's `…/crates/NAME/src/…`). Such a place
/// is the library's own line, not a program's file named alike.
pub(super) fn names_the_package(loc: &Location, repo: &str, site_path: &str) -> bool {
    let Some((_, name)) = repo.split_once(':') else {
        return false;
    };
    let norm = |s: &str| s.replace('-', "_").to_ascii_lowercase();
    let name = norm(name);
    let p = loc.path.replace('\\', "/");
    let Some(above) = p.strip_suffix(site_path).and_then(|a| a.strip_suffix('/')) else {
        return false;
    };
    above.split('/').any(|folder| norm(folder) == name)
}

impl Query<'_> {
    /// Whether another site of the same snapshot matches with the same
    /// template as candidate `i`, as well.
    pub(super) fn shares_text(&self, ranked: &[(Target, Features)], i: usize) -> bool {
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
    pub(super) fn default_definition(
        &self,
        ranked: &[(Target, Features)],
        chosen: usize,
    ) -> Option<usize> {
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

    /// The patterns of the `unwrap`-like sites in the build scripts of
    /// snapshot `script` (a scan of every entry: only a failed build
    /// script's paste asks).
    fn script_patterns(&self, script: i64) -> Vec<u32> {
        (0..self.len() as u32)
            .map(|e| self.entry(e))
            .filter(|e| {
                e.error.snapshot_id == script
                    && is_std_wrapper(e.error.kind)
                    && e.error.sites.iter().any(|s| is_build_script(&s.path))
            })
            .map(|e| e.pattern as u32)
            .collect()
    }

    /// When the candidate at `top` is a free literal and a site of the same
    /// snapshot explains another part of the text (a hint a helper appends
    /// to the message the site raises: `f"{msg} {hint}"`) or a span around
    /// the literal's (`_("Missing option")` bound to the site's first
    /// hole), the first such site: the literal is a piece of its message,
    /// not its rival.
    pub(super) fn site_beside(&self, ranked: &[(Target, Features)], top: usize) -> Option<usize> {
        let (t, c) = ranked.get(top)?;
        let Target::Literal(_) = t else { return None };
        let f = c.found.as_ref()?;
        let snapshot = self.snapshot_of(*t);
        ranked.iter().take(MAX_CHOICE_SCAN).position(|(t2, c2)| {
            matches!(t2, Target::Site(..))
                && !c2.at_location
                && !self.in_tests(*t2, c2)
                && c2.score() >= super::layers::MIN_SCORE
                && self.snapshot_of(*t2) == snapshot
                && c2
                    .found
                    .as_ref()
                    .is_some_and(|g| !(f.start <= g.start && g.end <= f.end))
        })
    }

    /// Of the first candidates that explain enough of a value, the one that
    /// explains the most of it layer by layer (one of the parent layer's
    /// snapshot counting a little more).
    pub(super) fn choose(
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
            if c.found.as_ref().is_some_and(|f| splits_a_value(f, norm)) {
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

    pub(super) fn to_match(
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
            mechanism: kind.mechanism(),
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
            constant_part: false,
        }
    }

    /// Features sites for a message, best first, given what the paste says
    /// around it.
    pub(super) fn rank(&self, text: &str, around: Around) -> Vec<(Target, Features)> {
        let Around {
            location,
            frames,
            target,
            std_text,
            panic,
            keep,
            script,
        } = around;
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
            for &[entry, site] in self.sites_at(file_name(&loc.path), loc.line).iter() {
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
                if ev == Evidence::Location
                    && (loc.is_library() || names_the_package(loc, &e.error.repo, &s.path))
                {
                    c.at_location = true;
                }
                if version {
                    c.evidence.push(Evidence::Version);
                }
            }
        }

        let mut located_patterns: Vec<u32> = cands
            .keys()
            .filter_map(|t| match t {
                Target::Site(entry, _) => Some(self.entry(*entry).pattern as u32),
                Target::Literal(_) => None,
            })
            .collect();
        // The failed build script's `unwrap`s are ranked whatever else
        // shares their shape: an `unwrap`'s hole names its receiver, so the
        // catalogue holds thousands of patterns of the one text, and which
        // of them fill the selection would depend on indexing order.
        if let Some(script) = script {
            located_patterns.extend(self.script_patterns(script));
        }
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
                    if taken >= MAX_SITES_PER_TEMPLATE && !seen && keep != Some(e.error.snapshot_id)
                    {
                        continue;
                    }
                    // std's texts (`unwrap`) and messages std wrote are
                    // printed by std: a site holding them is the answer only
                    // where the report locates it.
                    let scripted = script == Some(e.error.snapshot_id)
                        && is_std_wrapper(e.error.kind)
                        && is_build_script(&s.path);
                    if !seen && !scripted && (std_text || is_std_wrapper(e.error.kind)) {
                        continue;
                    }
                    taken += 1;
                    let c = cands.entry(key).or_default();
                    if scripted {
                        c.location = c.location.max(w.frame);
                        c.evidence.push(Evidence::BuildScript);
                    }
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
            match self
                .versions
                .agreement(repo, revision, self.snapshot_of(*t))
            {
                Agreement::Named => c.evidence.push(Evidence::Version),
                Agreement::Other => c.other_version = true,
                Agreement::Later => c.published_later = true,
                Agreement::Silent => {}
            }
            match t {
                Target::Site(e, s) => {
                    let e = &self.entry(*e).error;
                    let site = &e.sites[*s as usize];
                    c.is_test = site.is_test;
                    c.vendored = is_vendored(&site.path);
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
            // Rust's `crate::module`, Python's `package.module`.
            let sep = if t.contains("::") { "::" } else { "." };
            let (krate, module) = t.split_once(sep).unwrap_or((t, ""));
            let krate = krate.replace('-', "_");
            let named = |e: &errdex_model::MatchEntry| {
                // A Python package's top module may differ from its name
                // (`yaml` of PyYAML): its items' paths begin with it.
                let top = e.item_path.split([':', '.']).next().unwrap_or("");
                crate::index::crate_name(&e.repo) == krate || top == krate
            };
            // Sites of other packages print the text too: where the
            // named one has some, those are the less likely.
            let named_prints = cands.iter().any(|(t, c)| {
                matches!(t, Target::Site(e, _) if c.text > 0.0 && named(&self.entry(*e).error))
            });
            let type_module = t;
            for (t, c) in cands.iter_mut() {
                let Target::Site(e, s) = t else { continue };
                let e = &self.entry(*e).error;
                if c.text == 0.0 {
                    continue;
                }
                if !named(e) {
                    c.other_package = named_prints;
                    continue;
                }
                // A Python exception's `__str__` is its class's, in the very
                // module its printed type names (`werkzeug.routing.BuildError`
                // is not 2.2's `werkzeug.routing.exceptions`); other sites
                // may raise it from anywhere below that module.
                let path = &e.sites[*s as usize].path;
                let in_module = if e.kind == Kind::Display && path.ends_with(".py") {
                    python_module(path) == type_module
                } else {
                    !module.is_empty()
                        && (e.item_path.starts_with(&format!("{module}{sep}"))
                            || e.item_path.starts_with(&format!("{krate}.{module}.")))
                };
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
        let mut scored: Vec<(f64, u32, &str, Place, Target, Features)> = cands
            .into_iter()
            .map(|(t, c)| {
                let dependents = self.dependents_of(self.repo_of(t));
                let version = self.version_of(t).1;
                (c.rank_value(), dependents, version, self.place(t), t, c)
            })
            .collect();
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(b.1.cmp(&a.1))
                .then_with(|| {
                    if a.3 .0 == b.3 .0 {
                        crate::index::version_order(b.2, a.2)
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

/// Whether a match's holes cut through a value printed in brackets: a
/// hole took a closing bracket that nothing it took opened (`{}: Failed to
/// establish a new connection: {}` over `ConnectionError(<conn>: Failed …)
/// caused by: …`). Its words are then a part of a value some other
/// template printed whole, not the message's frame. (A paste cut short
/// leaves brackets open, never closes one.) Brackets quoted (`"…"`,
/// `` `]` ``, `']'`) are text, not structure.
fn splits_a_value(found: &crate::pattern::Found, norm: &str) -> bool {
    found.spans.iter().any(|&(a, b)| {
        // A value the template quotes (`` `{char}` ``) is text whatever it
        // holds.
        let before = norm.get(..a).and_then(|t| t.chars().next_back());
        let after = norm.get(b..).and_then(|t| t.chars().next());
        if before.is_some_and(|q| matches!(q, '`' | '\'' | '"') && after == Some(q)) {
            return false;
        }
        let mut open: Vec<char> = Vec::new();
        let chars: Vec<char> = norm.get(a..b).unwrap_or("").chars().collect();
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for (i, &ch) in chars.iter().enumerate() {
            if let Some(q) = quote {
                match ch {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    c if c == q => quote = None,
                    _ => {}
                }
                continue;
            }
            let single = |j: usize| chars.get(j) == Some(&'\'');
            let quoted_char = i > 0 && single(i - 1) && single(i + 1);
            match ch {
                '"' | '`' => quote = Some(ch),
                _ if quoted_char => {}
                '(' | '[' | '{' => open.push(ch),
                ')' | ']' | '}' => {
                    let opener = match ch {
                        ')' => '(',
                        ']' => '[',
                        _ => '{',
                    };
                    if open.pop() != Some(opener) {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    })
}

/// True for a file inside a vendored copy of another package
/// (`pip/_vendor/…`, `invoke/vendor/yaml/…`, `third_party/…`).
pub(super) fn is_vendored(path: &str) -> bool {
    path.split('/').rev().skip(1).any(|seg| {
        matches!(
            seg,
            "vendor"
                | "_vendor"
                | "vendored"
                | "_vendored"
                | "third_party"
                | "_third_party"
                | "extern"
                | "_extern"
        )
    })
}

/// The dotted module an installed Python file is (`werkzeug/routing/exceptions.py`
/// → `werkzeug.routing.exceptions`; a package's `__init__.py`, its folder).
fn python_module(path: &str) -> String {
    let p = path.strip_suffix(".py").unwrap_or(path);
    let p = p.strip_suffix("/__init__").unwrap_or(p);
    p.replace('/', ".")
}

#[cfg(test)]
mod tests {
    use super::splits_a_value;
    use crate::pattern::Found;

    /// Whether a hole over all of `value` splits a bracketed value.
    fn splits(value: &str) -> bool {
        let found = Found {
            start: 0,
            end: value.len(),
            literal: 0,
            spans: vec![(0, value.len())],
        };
        splits_a_value(&found, value)
    }

    #[test]
    fn a_hole_closing_what_it_did_not_open_splits_a_value() {
        assert!(splits("[Errno 61] Connection refused) caused by: E(x)"));
        assert!(splits("a] b"));
        assert!(
            !splits("E(<conn at 0x7f>"),
            "a paste cut short leaves one open"
        );
        assert!(!splits("Some(\"[server\\nport = 1\\n\")"));
        assert!(!splits("\"unclosed table, expected `]`\""));
        assert!(!splits("expected `]` or ')'"));
        assert!(!splits("Error { kind: Io(Os { code: 2 }) }"));
        // serde_qs's `unexpected character `{char}` while parsing …`.
        let text = "unexpected character `]` while parsing";
        let found = Found {
            start: 0,
            end: text.len(),
            literal: 0,
            spans: vec![(22, 23)],
        };
        assert!(!splits_a_value(&found, text));
    }
}
