//! Facts of an error raised in Python code, from the snapshot's Python
//! code as `errdex_lang_python::code` reads it: the function that raises
//! it, the conditions it runs under, who calls that function by name and
//! which public functions reach it, the repository's tests that expect the
//! exception (`pytest.raises`, `assertRaises`), and a way to catch it.

use super::{
    doc_facts, history_facts, ticked, Analyzer, Builder, MAX_CALLERS, MAX_ENTRIES, MAX_HOPS,
    MAX_TESTS,
};
use crate::{Detail, Fact, FactKind, Via};
use errdex_catalog::{ErrorDetail, SiteRow};
use errdex_lang_python::code::Code;
use errdex_model::Kind;
use std::collections::{HashSet, VecDeque};

/// Public functions named in the advice to catch the exception, at most.
const MAX_NAMED_CALLS: usize = 3;

impl Analyzer {
    /// The facts of an error whose sites are in Python files.
    pub(super) fn python_facts(&self, code: &Code, error: &ErrorDetail) -> Vec<Fact> {
        let mut b = Builder::default();
        let sites = self.sites_looked_at(error);
        let raised = sites.iter().find_map(|s| raised_type(code, s));
        let how = match (error.kind, &raised) {
            (Kind::Raise, Some(t)) => format!("raised as `{t}`"),
            (Kind::Assert, _) => {
                "an `assert` (an `AssertionError` when it fails; gone under `python -O`)".into()
            }
            (Kind::Warning, _) => {
                "a warning (`warnings.warn`; an error only under `-W error`)".into()
            }
            (Kind::LogError | Kind::LogWarn | Kind::LogInfo, _) => "a log line".into(),
            (Kind::ErrorDoc, _) => "an exception class's documented meaning".into(),
            (Kind::Display, _) => "an exception's `__str__`".into(),
            (Kind::DebugImpl, _) => "an exception's `__repr__`".into(),
            _ => "a raised exception".into(),
        };
        b.push(
            FactKind::Message,
            format!(
                "The message `{}` is {how} in `{}`.",
                error.template, error.item_path
            ),
            None,
            None,
        );
        let mut throwers: Vec<usize> = Vec::new();
        for s in &sites {
            let Some(d) = code.enclosing(&s.path, s.line) else {
                continue;
            };
            if !throwers.contains(&d) {
                throwers.push(d);
                let def = &code.defs[d];
                b.push_detailed(
                    FactKind::Item,
                    format!(
                        "It is raised in {}`{}`: `{}`.",
                        if def.is_public {
                            "the public function "
                        } else {
                            ""
                        },
                        def.qualname,
                        def.signature
                    ),
                    Some((def.path.clone(), def.lines.0)),
                    Detail::Thrower {
                        name: def.qualname.clone(),
                        signature: def.signature.clone(),
                        public: def.is_public,
                    },
                );
            }
            for c in code.conditions_at(&s.path, s.line) {
                let truth = if c.negated { "false" } else { "true" };
                b.push(
                    FactKind::Guard,
                    format!("It runs when `{}` is {truth}.", c.text),
                    Some((s.path.clone(), c.line)),
                    None,
                );
            }
        }
        doc_facts(&mut b, error);
        let entries = callers_and_entries(&mut b, code, &throwers);
        if let (Kind::Raise, Some(t)) = (error.kind, &raised) {
            let mut calls: Vec<String> = Vec::new();
            for &d in entries.iter().chain(&throwers) {
                let name = format!("`{}`", code.defs[d].name);
                if !calls.contains(&name) && calls.len() < MAX_NAMED_CALLS {
                    calls.push(name);
                }
            }
            if !calls.is_empty() {
                let calls = match calls.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => calls.concat(),
                };
                b.push(
                    FactKind::Alternative,
                    format!(
                        "Catch `{t}` where your code calls {calls} (`try: … except {t} as e:`) and handle it there, or keep to the conditions it is raised under."
                    ),
                    None,
                    None,
                );
            }
        }
        if let Some(t) = &raised {
            let mut names: Vec<&str> = throwers
                .iter()
                .map(|&d| code.defs[d].name.as_str())
                .collect();
            names.extend(entries.iter().map(|&d| code.defs[d].name.as_str()));
            expecting_tests(&mut b, code, t, &error.template, &names);
        }
        self.related_facts(&mut b, error);
        history_facts(&mut b, error);
        b.facts
    }
}

/// The exception type a `raise` site names (`raise errors.IDNAError(…)` →
/// `errors.IDNAError`).
fn raised_type(code: &Code, s: &SiteRow) -> Option<String> {
    let line = code.line(&s.path, s.line)?;
    let rest = line.trim_start().strip_prefix("raise ")?.trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.'))
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Direct callers of the throwers (by name) as facts, and the public
/// functions reaching them within [`MAX_HOPS`] calls; returns those.
fn callers_and_entries(b: &mut Builder, code: &Code, throwers: &[usize]) -> Vec<usize> {
    let mut seen: HashSet<usize> = throwers.iter().copied().collect();
    let mut queue: VecDeque<(usize, usize, Vec<String>)> = throwers
        .iter()
        .map(|&d| (d, 0, vec![code.defs[d].name.clone()]))
        .collect();
    let mut callers = 0;
    let mut entries = Vec::new();
    while let Some((d, hops, path)) = queue.pop_front() {
        if hops >= MAX_HOPS {
            continue;
        }
        for c in code.callers_of(d) {
            let Some(by) = c.caller else { continue };
            let def = &code.defs[by];
            if def.is_test || !seen.insert(by) {
                continue;
            }
            if hops == 0 && callers < MAX_CALLERS {
                callers += 1;
                b.push(
                    FactKind::Caller,
                    format!("`{}` calls `{}`", def.qualname, code.defs[d].name),
                    Some((c.path.clone(), c.line)),
                    None,
                );
            }
            let mut via = path.clone();
            via.insert(0, def.name.clone());
            if def.is_public && entries.len() < MAX_ENTRIES {
                entries.push(by);
                b.push_detailed(
                    FactKind::PublicEntry,
                    format!(
                        "The public function `{}` reaches it ({}).",
                        def.qualname,
                        ticked(via.iter(), " → ")
                    ),
                    Some((def.path.clone(), def.lines.0)),
                    Detail::Entry {
                        name: def.qualname.clone(),
                        via: Via::Fn,
                    },
                );
            }
            queue.push_back((by, hops + 1, via));
        }
    }
    entries
}

/// The repository's tests expecting the raised type (by its last name):
/// those whose `match=` pattern matches the message, else (no pattern)
/// those whose code calls the raising function or a public one reaching
/// it (`names`).
fn expecting_tests(b: &mut Builder, code: &Code, raised: &str, template: &str, names: &[&str]) {
    let last = |t: &str| t.rsplit('.').next().unwrap_or(t).to_string();
    let want = last(raised);
    // The message with its holes as `x`, for a pattern to search.
    let holes = regex::Regex::new(r"\{[^{}]*\}").expect("valid regex");
    let sample = holes.replace_all(template, "x");
    let mut n = 0;
    for e in &code.expects {
        if n >= MAX_TESTS || last(&e.exception) != want {
            continue;
        }
        let matches = match e.pattern.as_deref() {
            Some(p) => {
                regex::Regex::new(p).map_or_else(|_| sample.contains(p), |r| r.is_match(&sample))
            }
            None => names.iter().any(|n| e.code.contains(&format!("{n}("))),
        };
        if !matches {
            continue;
        }
        let how = match &e.pattern {
            Some(p) => format!("expects `{}` with a message matching `{p}`", e.exception),
            None => format!("expects `{}`", e.exception),
        };
        b.push(
            FactKind::Test,
            format!("The repository's test `{}` {how}.", e.test),
            Some((e.path.clone(), e.line)),
            Some(e.code.clone()),
        );
        n += 1;
    }
}
