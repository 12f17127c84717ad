//! Facts about an error, from the snapshot's code and the catalogue.

use crate::syntax::{self, Callee, FnDef, Guard, Owner, Symbols};
use crate::{Fact, FactKind};
use errdex_catalog::{ErrorDetail, ErrorSummary, SiteRow, SnapshotRow};
use errdex_model::{EvidenceKind, Kind, Origin, SourceFile};
use std::collections::{HashMap, HashSet, VecDeque};

/// Sites of one error looked at (the first ones, library code first).
const MAX_SITES: usize = 3;
/// Callers listed.
const MAX_CALLERS: usize = 8;
/// Public fns listed.
const MAX_ENTRIES: usize = 5;
/// Calls followed back from the site to find public fns.
const MAX_HOPS: usize = 3;
/// Constructions listed.
const MAX_CONSTRUCTORS: usize = 8;
/// Tests listed.
const MAX_TESTS: usize = 3;
/// Related errors listed.
const MAX_RELATED: usize = 8;

/// One snapshot, parsed once, answering facts for any of its errors.
pub struct Analyzer {
    snapshot: SnapshotRow,
    files: HashMap<String, syntax::ParsedFile>,
    symbols: Symbols,
    errors: Vec<ErrorSummary>,
    /// Fn indices by name.
    by_name: HashMap<String, Vec<usize>>,
    /// Every identifier token of the snapshot's files.
    identifiers: HashSet<String>,
    /// Every fn name.
    fn_names: HashSet<String>,
}

/// How a call was tied to the fn it calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolution {
    /// `Type::f`, `Self::f` in the same impl, `self.f()` in the same impl.
    Exact,
    /// `P::f` where the caller bounds `P` by the fn's trait.
    Bound,
    /// A method call whose receiver type syntax cannot tell; the only fn
    /// of that name.
    NameUnique,
    /// By name, among several fns of that name.
    NameAmbiguous,
}

impl Analyzer {
    /// Parses the snapshot's files; `errors` are the snapshot's errors
    /// (for related errors).
    pub fn new(snapshot: SnapshotRow, files: Vec<SourceFile>, errors: Vec<ErrorSummary>) -> Self {
        let (parsed, symbols) = syntax::symbols(files);
        let files: HashMap<String, syntax::ParsedFile> = parsed
            .into_iter()
            .map(|p| (p.file.path.clone(), p))
            .collect();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, f) in symbols.fns.iter().enumerate() {
            by_name.entry(f.name.clone()).or_default().push(i);
        }
        let mut identifiers = HashSet::new();
        for p in files.values() {
            for t in &p.trees {
                syntax::code_identifiers(t, &p.file.text, &mut identifiers);
            }
        }
        let fn_names = by_name.keys().cloned().collect();
        Analyzer {
            snapshot,
            files,
            symbols,
            errors,
            by_name,
            identifiers,
            fn_names,
        }
    }

    /// Every identifier token of the snapshot's code.
    pub fn identifiers(&self) -> &HashSet<String> {
        &self.identifiers
    }

    /// Every fn name of the snapshot.
    pub fn fn_names(&self) -> &HashSet<String> {
        &self.fn_names
    }

    /// The names the fns raising `error` go by (`f`, `Type::f`), from its
    /// sites in this snapshot.
    pub fn thrower_names(&self, error: &ErrorDetail) -> Vec<String> {
        let mut out = Vec::new();
        for s in error
            .sites
            .iter()
            .filter(|s| s.snapshot_id == self.snapshot.id)
        {
            if let Some(i) = self.enclosing_fn(&s.path, s.line) {
                let f = &self.symbols.fns[i];
                for n in [f.qualified(), f.name.clone()] {
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
            }
        }
        out
    }

    /// The snapshot analysed.
    pub fn snapshot(&self) -> &SnapshotRow {
        &self.snapshot
    }

    /// Every fn, call and variant path of the snapshot.
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// The enclosing fn of a position.
    pub fn enclosing_fn(&self, path: &str, line: u32) -> Option<usize> {
        self.symbols
            .fns
            .iter()
            .enumerate()
            .filter(|(_, f)| f.path == path && f.lines.0 <= line && line <= f.lines.1)
            .max_by_key(|(_, f)| f.lines.0)
            .map(|(i, _)| i)
    }

    /// The facts about `error` in this snapshot.
    pub fn facts(&self, error: &ErrorDetail) -> Vec<Fact> {
        let mut b = Builder::default();
        let mut sites: Vec<&SiteRow> = error
            .sites
            .iter()
            .filter(|s| s.snapshot_id == self.snapshot.id)
            .collect();
        sites.sort_by_key(|s| (s.is_test, s.path.clone(), s.line));
        sites.truncate(MAX_SITES);

        b.push(
            FactKind::Message,
            format!(
                "The message `{}` is produced by {} in `{}`.",
                error.template,
                describe_kind(error.kind),
                display_item(&error.item_path)
            ),
            None,
            None,
        );
        let mut throwers: Vec<usize> = Vec::new();
        for s in &sites {
            self.site_facts(&mut b, error, s, &mut throwers);
        }
        for &f in &throwers {
            self.caller_facts(&mut b, f);
        }
        self.constructor_facts(&mut b, error, &throwers);
        self.test_facts(&mut b, error, &sites, &throwers);
        self.related_facts(&mut b, error);
        history_facts(&mut b, error);
        b.facts
    }

    fn site_facts(
        &self,
        b: &mut Builder,
        error: &ErrorDetail,
        s: &SiteRow,
        throwers: &mut Vec<usize>,
    ) {
        let here = Some((s.path.clone(), s.line));
        if let Some(fi) = self.enclosing_fn(&s.path, s.line) {
            let f = &self.symbols.fns[fi];
            if !throwers.contains(&fi) {
                throwers.push(fi);
                b.push(
                    FactKind::Item,
                    format!(
                        "It is raised in {}`{}`: `{}`.",
                        if f.is_pub { "the public fn " } else { "" },
                        f.qualified(),
                        f.signature
                    ),
                    Some((f.path.clone(), f.lines.0)),
                    None,
                );
                self.sentinel_facts(b, error, f, s);
            }
        }
        doc_facts(b, error);
        let Some(pf) = self.files.get(&s.path) else {
            return;
        };
        let file = &pf.file;
        if error.kind != Kind::ErrorAttr {
            let guards = pf
                .tree_at(s.line, s.column)
                .map(|t| syntax::guards_at(t, &file.text, s.line, s.column))
                .unwrap_or_default();
            for g in guards {
                let text = guard_text(&g);
                if !b.seen(&text) {
                    b.push(FactKind::Guard, text, here.clone(), None);
                }
            }
        }
        let parts = pf
            .tree_at(s.report_line, s.report_column)
            .map(|t| syntax::call_parts_at(t, &file.text, s.report_line, s.report_column))
            .unwrap_or_default();
        match error.kind {
            Kind::Assert | Kind::Ensure => {
                if let Some(c) = parts.first_argument {
                    b.push(
                        FactKind::Assertion,
                        format!("It fires when the asserted condition `{c}` is false."),
                        here.clone(),
                        None,
                    );
                }
            }
            Kind::AssertEq | Kind::AssertNe => {
                if let Some(c) = parts.first_argument {
                    b.push(
                        FactKind::Assertion,
                        format!(
                            "It fires when the two sides compared (the first is `{c}`) are {}.",
                            if error.kind == Kind::AssertEq {
                                "not equal"
                            } else {
                                "equal"
                            }
                        ),
                        here.clone(),
                        None,
                    );
                }
            }
            Kind::Expect | Kind::Unwrap | Kind::ExpectErr | Kind::UnwrapErr => {
                if let Some(r) = parts.receiver {
                    let case = match (error.kind, error.template.as_str()) {
                        (Kind::ExpectErr | Kind::UnwrapErr, _) => "an `Ok` value".to_string(),
                        (_, t) if t.contains("`Option::unwrap()`") => "`None`".to_string(),
                        (_, t) if t.contains("`Result::unwrap()`") => "an `Err` value".to_string(),
                        _ => "`None` or an `Err` value".to_string(),
                    };
                    b.push(
                        FactKind::Receiver,
                        format!("It fires when `{r}` is {case}."),
                        here.clone(),
                        None,
                    );
                }
            }
            _ => {}
        }
    }

    fn sentinel_facts(&self, b: &mut Builder, error: &ErrorDetail, f: &FnDef, s: &SiteRow) {
        let panics = error.kind.panics();
        if matches!(error.kind, Kind::Unimplemented | Kind::Todo) {
            b.push(
                FactKind::Sentinel,
                format!(
                    "`{}` is marked as not written yet ({}!): it fails every time it is reached.",
                    f.qualified(),
                    error.kind.as_str()
                ),
                Some((s.path.clone(), s.line)),
                None,
            );
        } else if error.kind == Kind::Panic && f.statements == 1 {
            b.push(
                FactKind::Sentinel,
                format!(
                    "The body of `{}` is only this {}: the fn deliberately refuses every call.",
                    f.qualified(),
                    error.kind.as_str()
                ),
                Some((s.path.clone(), s.line)),
                None,
            );
        }
        if let (true, Owner::TraitDefault(t)) = (panics, &f.owner) {
            b.push(
                FactKind::Sentinel,
                format!(
                    "`{}` is a default method of the trait `{t}`: a type implementing `{t}` without overriding `{}` gets this panic.",
                    f.qualified(),
                    f.name
                ),
                Some((f.path.clone(), f.lines.0)),
                None,
            );
        }
    }

    /// Calls of fn `target`, each with how it was resolved.
    fn callers_of(&self, target: usize) -> Vec<(usize, Resolution)> {
        let t = &self.symbols.fns[target];
        let namesakes = self.by_name.get(&t.name).map_or(0, Vec::len);
        let mut out = Vec::new();
        for (ci, c) in self.symbols.calls.iter().enumerate() {
            if c.name != t.name {
                continue;
            }
            let caller = c.caller.map(|i| &self.symbols.fns[i]);
            let caller_ty = caller.and_then(|f| match &f.owner {
                Owner::Impl { ty, .. } => Some(ty.as_str()),
                _ => None,
            });
            let res = match (&t.owner, &c.callee) {
                (Owner::Impl { ty, of_trait }, Callee::Path { qualifier: Some(q) }) => {
                    if q == ty || (q == "Self" && caller_ty == Some(ty)) {
                        Some(Resolution::Exact)
                    } else if of_trait.as_deref().is_some_and(|tr| bounded(caller, q, tr)) {
                        Some(Resolution::Bound)
                    } else {
                        None
                    }
                }
                (Owner::TraitDefault(tr), Callee::Path { qualifier: Some(q) }) => {
                    if q == tr || bounded(caller, q, tr) {
                        Some(if q == tr {
                            Resolution::Exact
                        } else {
                            Resolution::Bound
                        })
                    } else {
                        None
                    }
                }
                (Owner::Impl { ty, .. }, Callee::Method { on_self: true })
                    if caller_ty == Some(ty) =>
                {
                    Some(Resolution::Exact)
                }
                (Owner::Impl { .. } | Owner::TraitDefault(_), Callee::Method { .. }) => {
                    Some(by_name(namesakes))
                }
                (Owner::Module, Callee::Path { qualifier }) => {
                    // `module::f(..)` or `f(..)`; `Type::f` is a method.
                    if qualifier
                        .as_deref()
                        .is_some_and(|q| q.starts_with(|ch: char| ch.is_ascii_uppercase()))
                    {
                        None
                    } else {
                        Some(by_name(namesakes))
                    }
                }
                _ => None,
            };
            if let (Some(r), Some(caller)) = (res, c.caller) {
                if caller != target {
                    out.push((ci, r));
                }
            }
        }
        out
    }

    fn caller_facts(&self, b: &mut Builder, target: usize) {
        let t = &self.symbols.fns[target];
        if t.is_test {
            return;
        }
        let callers = self.callers_of(target);
        let mut listed = 0;
        for (ci, r) in callers
            .iter()
            .filter(|(_, r)| *r != Resolution::NameAmbiguous)
        {
            if listed == MAX_CALLERS {
                break;
            }
            let c = &self.symbols.calls[*ci];
            let Some(caller) = c.caller.map(|i| &self.symbols.fns[i]) else {
                continue;
            };
            let how = match r {
                Resolution::Exact => "resolved by its path".to_string(),
                Resolution::Bound => {
                    let bound = caller
                        .bounds
                        .iter()
                        .find(|(p, tr)| {
                            matches!(&c.callee, Callee::Path { qualifier: Some(q) } if q == p)
                                && matches!(&t.owner, Owner::Impl { of_trait: Some(x), .. } | Owner::TraitDefault(x) if x == tr)
                        })
                        .map(|(p, tr)| format!("{p}: {tr}"))
                        .unwrap_or_default();
                    format!("resolved through the generic bound `{bound}`")
                }
                Resolution::NameUnique => {
                    format!("resolved by name only: the only fn named `{}`", t.name)
                }
                Resolution::NameAmbiguous => unreachable!("filtered out"),
            };
            let key = format!("caller:{}:{}", c.path, c.line);
            if b.seen(&key) {
                continue;
            }
            b.push(
                FactKind::Caller,
                format!(
                    "`{}`{} calls `{}` ({how}).",
                    caller.qualified(),
                    if caller.is_test { " (a test)" } else { "" },
                    t.qualified()
                ),
                Some((c.path.clone(), c.line)),
                None,
            );
            listed += 1;
        }
        let ambiguous = callers
            .iter()
            .filter(|(_, r)| *r == Resolution::NameAmbiguous)
            .count();
        if ambiguous > 0 {
            b.push(
                FactKind::Caller,
                format!(
                    "{ambiguous} more call(s) of a method named `{}` may reach it; syntax alone cannot tell which of the {} fns of that name they call.",
                    t.name,
                    self.by_name.get(&t.name).map_or(0, Vec::len)
                ),
                None,
                None,
            );
        }
        // Public fns reaching it within a few calls (certain resolutions only).
        if t.is_pub {
            return;
        }
        let mut seen: HashSet<usize> = HashSet::from([target]);
        let mut queue = VecDeque::from([(target, 0usize, vec![t.qualified()])]);
        let mut entries = 0;
        while let Some((f, hops, chain)) = queue.pop_front() {
            if hops == MAX_HOPS || entries == MAX_ENTRIES {
                continue;
            }
            for (ci, r) in self.callers_of(f) {
                if r == Resolution::NameAmbiguous {
                    continue;
                }
                let Some(caller) = self.symbols.calls[ci].caller else {
                    continue;
                };
                if !seen.insert(caller) {
                    continue;
                }
                let cf = &self.symbols.fns[caller];
                if cf.is_test {
                    continue;
                }
                let mut chain = chain.clone();
                chain.push(cf.qualified());
                if cf.is_pub && hops > 0 && entries < MAX_ENTRIES {
                    let path: Vec<String> = chain.iter().rev().map(|c| format!("`{c}`")).collect();
                    b.push(
                        FactKind::PublicEntry,
                        format!(
                            "The public fn `{}` reaches it: {}.",
                            cf.qualified(),
                            path.join(" → ")
                        ),
                        Some((cf.path.clone(), cf.lines.0)),
                        None,
                    );
                    entries += 1;
                }
                queue.push_back((caller, hops + 1, chain));
            }
        }
    }

    fn constructor_facts(&self, b: &mut Builder, error: &ErrorDetail, throwers: &[usize]) {
        let (ty, variant) = match error.kind {
            Kind::ErrorAttr => match error.item_path.rsplit_once("::") {
                Some((ty, v)) => (last(ty), v.to_string()),
                None => return,
            },
            Kind::Display | Kind::DebugImpl => {
                let Some(arm) = error.sites.first().and_then(|s| s.arm.as_deref()) else {
                    return;
                };
                let head = arm.split(['(', '{', ' ']).next().unwrap_or(arm);
                match head.rsplit_once("::") {
                    Some((ty, v)) => (last(ty), v.to_string()),
                    None => return,
                }
            }
            _ => return,
        };
        let impl_ty = |i: Option<usize>| {
            i.and_then(|i| match &self.symbols.fns[i].owner {
                Owner::Impl { ty, .. } => Some(ty.clone()),
                _ => None,
            })
        };
        let mut n = 0;
        for c in &self.symbols.constructs {
            if c.in_pattern || c.variant != variant || n == MAX_CONSTRUCTORS {
                continue;
            }
            if !(c.ty == ty || (c.ty == "Self" && impl_ty(c.caller).as_deref() == Some(&ty))) {
                continue;
            }
            if c.caller.is_some_and(|i| throwers.contains(&i)) {
                continue;
            }
            let Some(caller) = c.caller.map(|i| &self.symbols.fns[i]) else {
                continue;
            };
            b.push(
                FactKind::Constructor,
                format!(
                    "`{ty}::{variant}` is constructed in `{}`{}.",
                    caller.qualified(),
                    if caller.is_test { " (a test)" } else { "" }
                ),
                Some((c.path.clone(), c.line)),
                None,
            );
            n += 1;
            if caller.is_test {
                continue;
            }
            if let Some(pf) = self.files.get(&c.path) {
                let guards = pf
                    .tree_at(c.line, c.column)
                    .map(|t| syntax::guards_at(t, &pf.file.text, c.line, c.column))
                    .unwrap_or_default();
                for g in guards {
                    let when = guard_text(&g);
                    b.push(
                        FactKind::Guard,
                        format!(
                            "Where `{}` creates it, {}",
                            caller.qualified(),
                            crate::sections::lower_first(&when)
                        ),
                        Some((c.path.clone(), c.line)),
                        None,
                    );
                }
            }
        }
    }

    fn test_facts(
        &self,
        b: &mut Builder,
        error: &ErrorDetail,
        sites: &[&SiteRow],
        throwers: &[usize],
    ) {
        let mut n = 0;
        for e in error
            .evidence
            .iter()
            .filter(|e| e.kind == EvidenceKind::ShouldPanic)
        {
            let Some(fi) =
                self.symbols.fns.iter().position(|f| {
                    f.path == e.path && f.lines.0 <= e.line + 3 && e.line <= f.lines.1
                })
            else {
                continue;
            };
            let f = &self.symbols.fns[fi];
            if n == MAX_TESTS || b.seen(&format!("test:{fi}")) {
                continue;
            }
            b.push(
                FactKind::Test,
                format!(
                    "The repository's test `{}` triggers it: it is marked `#[should_panic(expected = \"{}\")]`.",
                    f.qualified(),
                    e.text
                ),
                Some((f.path.clone(), f.lines.0)),
                Some(f.text.clone()),
            );
            n += 1;
        }
        // Tests that check the message's text.
        let sources: Vec<&str> = sites
            .iter()
            .filter_map(|s| self.files.get(&s.path).map(|p| p.file.text.as_str()))
            .collect();
        let Some(key) = error.pieces.key_in(&sources) else {
            return;
        };
        for (fi, f) in self.symbols.fns.iter().enumerate() {
            if n == MAX_TESTS {
                break;
            }
            if !f.is_test_fn || throwers.contains(&fi) || !f.text.contains(&key) {
                continue;
            }
            if b.seen(&format!("test:{fi}")) {
                continue;
            }
            b.push(
                FactKind::Test,
                format!(
                    "The repository's test `{}` checks for this message's text (`{key}`).",
                    f.qualified()
                ),
                Some((f.path.clone(), f.lines.0)),
                Some(f.text.clone()),
            );
            n += 1;
        }
    }

    fn related_facts(&self, b: &mut Builder, error: &ErrorDetail) {
        let shape = shape_of(&error.template);
        let ty = error_type_of(error);
        let first = error
            .sites
            .iter()
            .find(|s| s.snapshot_id == self.snapshot.id);
        let mut n = 0;
        let mut push = |b: &mut Builder, e: &ErrorSummary, why: String| {
            if n < MAX_RELATED && !b.seen(&format!("related:{}", e.id)) {
                b.facts.push(Fact {
                    id: String::new(),
                    kind: FactKind::Related,
                    text: format!("`{}` ({}) {why}.", e.template, e.kind.as_str()),
                    path: Some(e.path.clone()),
                    line: Some(e.line),
                    code: None,
                    error_id: Some(e.id.clone()),
                });
                n += 1;
            }
        };
        let others: Vec<&ErrorSummary> = self
            .errors
            .iter()
            .filter(|e| e.id != error.id && !e.is_test)
            .collect();
        for e in &others {
            if !error.item_path.is_empty() && e.item_path == error.item_path {
                push(
                    b,
                    e,
                    format!(
                        "is raised in the same item `{}`",
                        display_item(&e.item_path)
                    ),
                );
            }
        }
        if let Some(ty) = &ty {
            for e in &others {
                if e.item_path.starts_with(&format!("{ty}::"))
                    || e.item_path.contains(&format!("<{ty} as "))
                {
                    push(b, e, format!("is another message of the error type `{ty}`"));
                }
            }
        }
        for e in &others {
            if shape.is_some() && shape_of(&e.template) == shape {
                push(b, e, "has the same message shape".to_string());
            }
        }
        if let Some(s) = first {
            for e in &others {
                if e.path == s.path && e.line.abs_diff(s.line) <= 40 {
                    push(b, e, format!("is raised nearby in `{}`", e.path));
                }
            }
        }
        b.renumber();
    }
}

/// The doc comments of the enclosing fn, each quoted once (however many
/// sites ask).
fn doc_facts(b: &mut Builder, error: &ErrorDetail) {
    for e in &error.evidence {
        let label = match e.kind {
            EvidenceKind::DocPanics => "Its doc comment says under `# Panics`",
            EvidenceKind::DocErrors => "Its doc comment says under `# Errors`",
            EvidenceKind::Doc => "Its doc comment says",
            EvidenceKind::ShouldPanic => continue,
        };
        if b.seen(&format!("doc:{}:{}", e.kind.as_str(), e.text)) {
            continue;
        }
        b.push(
            FactKind::Doc,
            format!("{label}: \"{}\"", e.text.replace('\n', " ")),
            Some((e.path.clone(), e.line)),
            None,
        );
    }
}

/// A guard as a sentence.
fn guard_text(g: &Guard) -> String {
    match g {
        Guard::If(c) => format!("It runs only when `{c}` is true."),
        Guard::Else(c) => format!("It runs only when `{c}` is false (the `else` branch)."),
        Guard::IfLet { pattern, value } => {
            format!("It runs only when `{value}` matches `{pattern}`.")
        }
        Guard::Arm { pattern, value } if value.is_empty() => {
            format!("It runs in the match arm `{pattern}`.")
        }
        Guard::Arm { pattern, value } => {
            format!("It runs when `{value}` matches the arm `{pattern}`.")
        }
        Guard::LetElse { pattern, value } => {
            format!("It runs when `{value}` does not match `{pattern}` (`let … else`).")
        }
    }
}

fn bounded(caller: Option<&FnDef>, param: &str, tr: &str) -> bool {
    caller.is_some_and(|f| f.bounds.iter().any(|(p, t)| p == param && t == tr))
}

fn by_name(namesakes: usize) -> Resolution {
    if namesakes <= 1 {
        Resolution::NameUnique
    } else {
        Resolution::NameAmbiguous
    }
}

fn last(path: &str) -> String {
    path.rsplit("::").next().unwrap_or(path).to_string()
}

/// The error type an error belongs to (`PackError` for a variant or a
/// `Display` arm of it).
fn error_type_of(error: &ErrorDetail) -> Option<String> {
    match error.kind {
        Kind::ErrorAttr => error.item_path.rsplit_once("::").map(|(t, _)| last(t)),
        Kind::Display | Kind::DebugImpl => {
            let inner = error.item_path.strip_prefix('<')?;
            Some(last(inner.split(" as ").next()?))
        }
        _ => None,
    }
}

/// A template's shape: its literal words with holes as `{}` and words that
/// name things (with `_`, `::` or digits) as `*`; `None` when too short to
/// say anything.
fn shape_of(template: &str) -> Option<String> {
    let words: Vec<String> = template
        .split_whitespace()
        .map(|w| {
            if w.contains('{') {
                "{}".to_string()
            } else if w.contains('_') || w.contains("::") || w.chars().any(|c| c.is_ascii_digit()) {
                "*".to_string()
            } else {
                w.to_string()
            }
        })
        .collect();
    let literal = words.iter().filter(|w| *w != "*" && *w != "{}").count();
    (literal >= 2 && words.len() >= 3 && words.iter().any(|w| w == "*" || w == "{}"))
        .then(|| words.join(" "))
}

fn history_facts(b: &mut Builder, error: &ErrorDetail) {
    match &error.origin {
        Some(Origin::Commit(c)) => b.push(
            FactKind::Origin,
            format!(
                "The message was introduced by commit `{}`{}: \"{}\"{}.",
                &c.commit[..c.commit.len().min(12)],
                c.date
                    .as_deref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default(),
                c.subject,
                c.pr.map(|n| format!(", pull request #{n}"))
                    .unwrap_or_default()
            ),
            None,
            None,
        ),
        Some(Origin::BeforeShallowBoundary { boundary }) => b.push(
            FactKind::Origin,
            format!(
                "The message is older than the history at hand (a shallow clone starting at `{}`).",
                &boundary[..boundary.len().min(12)]
            ),
            None,
            None,
        ),
        None => {}
    }
    let mut revisions: Vec<&str> = Vec::new();
    for s in error.sites.iter().rev() {
        if revisions.last() != Some(&s.revision.as_str()) {
            revisions.push(&s.revision);
        }
    }
    if revisions.len() > 1 {
        b.push(
            FactKind::Versions,
            format!(
                "It is present in {} indexed versions, first seen in {} and last in {}.",
                revisions.len(),
                revisions[0],
                revisions[revisions.len() - 1]
            ),
            None,
            None,
        );
    }
}

/// `<T as Trait>::f` → `<T as Trait>::f`; `` → the crate root.
fn display_item(item: &str) -> &str {
    if item.is_empty() {
        "the crate root"
    } else {
        item
    }
}

fn describe_kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Panic => "a `panic!`",
        Kind::Unreachable => "an `unreachable!` (a state the code believes impossible)",
        Kind::Unimplemented => "an `unimplemented!`",
        Kind::Todo => "a `todo!`",
        Kind::Assert => "an `assert!`",
        Kind::AssertEq => "an `assert_eq!`",
        Kind::AssertNe => "an `assert_ne!`",
        Kind::Expect => "an `.expect(..)`",
        Kind::ExpectErr => "an `.expect_err(..)`",
        Kind::Unwrap => "an `.unwrap()`",
        Kind::UnwrapErr => "an `.unwrap_err()`",
        Kind::ErrReturn => "a returned `Err(..)`",
        Kind::MapErr => "a `.map_err(..)`",
        Kind::OkOr => "an `.ok_or(..)`",
        Kind::ErrorAttr => "a `#[error(..)]` attribute (the error's `Display` text)",
        Kind::Display => "a `Display` impl of an error type",
        Kind::DebugImpl => "a `Debug` impl of an error type",
        Kind::Anyhow => "an `anyhow!`-style error",
        Kind::Bail => "a `bail!` (an early `return Err(..)`)",
        Kind::Ensure => "an `ensure!` (an early `return Err(..)` when a condition fails)",
        Kind::Context => "a `.context(..)` wrapping another error",
        Kind::IoError => "an `io::Error` built with a message",
        Kind::SerdeCustom => "a serde error (`Error::custom` and kin)",
        Kind::ErrorNew => "a constructor of the crate's error type",
        _ => "an error log line or message",
    }
}

/// Facts being gathered, numbered in order.
#[derive(Default)]
struct Builder {
    facts: Vec<Fact>,
    keys: HashSet<String>,
}

impl Builder {
    fn push(
        &mut self,
        kind: FactKind,
        text: String,
        at: Option<(String, u32)>,
        code: Option<String>,
    ) {
        let (path, line) = at.map_or((None, None), |(p, l)| (Some(p), Some(l)));
        self.facts.push(Fact {
            id: format!("f{}", self.facts.len() + 1),
            kind,
            text,
            path,
            line,
            code,
            error_id: None,
        });
    }

    /// True when `key` was seen before (and records it).
    fn seen(&mut self, key: &str) -> bool {
        !self.keys.insert(key.to_string())
    }

    fn renumber(&mut self) {
        for (i, f) in self.facts.iter_mut().enumerate() {
            f.id = format!("f{}", i + 1);
        }
    }
}
