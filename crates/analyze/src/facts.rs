//! Facts about an error, from the snapshot's code and the catalogue.

use crate::syntax::{self, Call, Callee, FnDef, Guard, Owner, Symbols};
use crate::{Fact, FactKind};
use errdex_catalog::{ErrorDetail, ErrorSummary, SiteRow, SnapshotRow};
use errdex_model::{EvidenceKind, Kind, Origin, SourceFile};
use std::collections::{HashMap, HashSet, VecDeque};

/// Sites of one error looked at (the first ones, library code first).
const MAX_SITES: usize = 3;
/// Callers listed.
const MAX_CALLERS: usize = 8;
/// Public fns listed.
const MAX_ENTRIES: usize = 6;
/// Calls followed back from the site to find public fns.
const MAX_HOPS: usize = 5;
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
    /// Call indices by the called name, ascending.
    calls_by_name: HashMap<String, Vec<usize>>,
    /// Call indices made by each fn (indexed like `symbols.fns`), ascending.
    calls_in_fn: Vec<Vec<usize>>,
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
    /// `P::f` where `P` is bounded by a trait of another crate (which may
    /// bring `f` through its supertraits).
    BoundExternal,
    /// A method call whose receiver type syntax cannot tell, and every fn of
    /// that name implements one trait's method.
    Trait,
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
        let mut calls_by_name: HashMap<String, Vec<usize>> = HashMap::new();
        let mut calls_in_fn = vec![Vec::new(); symbols.fns.len()];
        for (i, c) in symbols.calls.iter().enumerate() {
            calls_by_name.entry(c.name.clone()).or_default().push(i);
            if let Some(f) = c.caller.and_then(|f| calls_in_fn.get_mut(f)) {
                f.push(i);
            }
        }
        Analyzer {
            snapshot,
            files,
            symbols,
            errors,
            by_name,
            calls_by_name,
            calls_in_fn,
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
        self.const_message_facts(&mut b, error);
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
                self.mechanism_facts(b, error, fi, s);
                self.alternative_facts(b, fi, None);
                if !matches!(
                    error.kind,
                    Kind::Display | Kind::DebugImpl | Kind::ErrorAttr
                ) {
                    self.maker_facts(b, fi);
                }
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
                if let (Some(c), Some(fi)) =
                    (&parts.first_argument, self.enclosing_fn(&s.path, s.line))
                {
                    self.alternative_facts(b, fi, Some(c));
                }
                if let Some(c) = parts.first_argument {
                    b.push(
                        FactKind::Assertion,
                        match negate(&c) {
                            Some(n) => format!("It fires when the asserted condition `{c}` is false, that is when `{n}`."),
                            None => format!("It fires when the asserted condition `{c}` is false."),
                        },
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
                    let mut sub = Builder::default();
                    let is_option = self.receiver_facts(&mut sub, &r, &b.facts);
                    if let Some(fi) = self.enclosing_fn(&s.path, s.line) {
                        self.field_state_facts(&mut sub, fi, &r);
                    }
                    let case = match (error.kind, error.template.as_str(), is_option) {
                        (Kind::ExpectErr | Kind::UnwrapErr, _, _) => "an `Ok` value".to_string(),
                        (_, _, Some(true)) => "`None` (it is an `Option`)".to_string(),
                        (_, _, Some(false)) => "an `Err` (it is a `Result`)".to_string(),
                        (_, t, _) if t.contains("`Option::unwrap()`") => "`None`".to_string(),
                        (_, t, _) if t.contains("`Result::unwrap()`") => {
                            "an `Err` value".to_string()
                        }
                        _ => "without a value to take".to_string(),
                    };
                    b.push(
                        FactKind::Receiver,
                        format!("It fires when `{r}` is {case}."),
                        here.clone(),
                        None,
                    );
                    for f in sub.facts {
                        if !b.seen(&f.text) {
                            b.push(f.kind, f.text, f.path.zip(f.line), None);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sentinel_facts(&self, b: &mut Builder, error: &ErrorDetail, f: &FnDef, s: &SiteRow) {
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
                    "The body of `{}` is only this {}: whether it fails is decided where it is called (see its callers and their conditions).",
                    f.qualified(),
                    error.kind.as_str()
                ),
                Some((s.path.clone(), s.line)),
                None,
            );
        }
    }

    /// The fns a call may name for fn `fi`: itself, or — for a fn written
    /// in a `macro_rules!` body with metavariables in its name or impl —
    /// the fn each invocation generates.
    fn targets(&self, fi: usize) -> Vec<Target> {
        let f = &self.symbols.fns[fi];
        let (ty, of_trait, default_of) = match &f.owner {
            Owner::Impl { ty, of_trait } => (Some(ty.clone()), of_trait.clone(), None),
            Owner::TraitDefault(t) => (None, None, Some(t.clone())),
            Owner::Module => (None, None, None),
        };
        let own = Target {
            fi,
            name: f.name.clone(),
            ty,
            of_trait,
            default_of,
            generated_at: None,
        };
        let Some(m) = &f.in_macro else {
            return vec![own];
        };
        let templated = own.name.contains('$')
            || own.ty.as_deref().is_some_and(|t| t.contains('$'))
            || own.of_trait.as_deref().is_some_and(|t| t.contains('$'));
        let mut out = Vec::new();
        for inv in self.expansions(m, f.lines.0) {
            let sub = |s: &str| expand_text(s, &inv.bindings);
            out.push(Target {
                fi,
                name: last(&sub(&own.name)),
                ty: own.ty.as_deref().map(|t| last_segment_of(&sub(t))),
                of_trait: own.of_trait.as_deref().map(|t| last_segment_of(&sub(t))),
                default_of: own.default_of.clone(),
                generated_at: Some((inv.call.path.clone(), inv.call.line)),
            });
        }
        if out.is_empty() || !templated {
            out.truncate(usize::from(templated) * out.len());
            out.insert(0, own);
        }
        out
    }

    /// The invocations of `macro_rules! name` whose matched rule's body holds
    /// `line`, with their metavariable bindings.
    fn expansions(&self, name: &str, line: u32) -> Vec<Expansion<'_>> {
        let Some(def) = self.symbols.macros.iter().find(|m| {
            m.name == name
                && m.rules.iter().any(|(_, body, start)| {
                    *start <= line && line <= *start + body.lines().count() as u32
                })
        }) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for call in self.symbols.macro_calls.iter().filter(|c| c.name == name) {
            // The first rule that matches, as the compiler takes it.
            for (matcher, body, start) in &def.rules {
                if let Some(bindings) = bind(matcher, &call.args) {
                    if *start <= line && line <= *start + body.lines().count() as u32 {
                        out.push(Expansion { call, bindings });
                    }
                    break;
                }
            }
        }
        out
    }

    /// The traits a trait implies (itself and its supertraits, transitively,
    /// as far as the snapshot defines them).
    fn trait_closure(&self, name: &str) -> HashSet<String> {
        let mut seen = HashSet::from([name.to_string()]);
        let mut stack = vec![name.to_string()];
        while let Some(t) = stack.pop() {
            for d in self.symbols.traits.iter().filter(|d| d.name == t) {
                for s in &d.supertraits {
                    if seen.insert(s.clone()) {
                        stack.push(s.clone());
                    }
                }
            }
        }
        seen
    }

    fn is_local_trait(&self, name: &str) -> bool {
        self.symbols.traits.iter().any(|t| t.name == name)
    }

    /// Distinct fns of a name (a fn written twice under exclusive `cfg`s in
    /// one file counts once).
    fn namesakes(&self, name: &str) -> Vec<usize> {
        let mut seen = HashSet::new();
        self.by_name
            .get(name)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| {
                        let f = &self.symbols.fns[i];
                        !f.is_test && seen.insert((f.path.clone(), f.qualified()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// How call `c` resolves to target `t`, if it can.
    fn resolve(&self, t: &Target, c: &Call) -> Option<Resolution> {
        if c.name != t.name {
            return None;
        }
        let caller = c.caller.map(|i| &self.symbols.fns[i]);
        let caller_ty = caller.and_then(|f| match &f.owner {
            Owner::Impl { ty, .. } => Some(ty.as_str()),
            _ => None,
        });
        let caller_trait = caller.and_then(|f| match &f.owner {
            Owner::Impl { of_trait, .. } => of_trait.as_deref(),
            Owner::TraitDefault(t) => Some(t.as_str()),
            Owner::Module => None,
        });
        let the_trait = t.of_trait.as_deref().or(t.default_of.as_deref());
        match &c.callee {
            Callee::Path { qualifier: Some(q) } => {
                if t.ty.as_deref() == Some(q.as_str())
                    || (q == "Self" && caller_ty.is_some() && caller_ty == t.ty.as_deref())
                {
                    return Some(Resolution::Exact);
                }
                let tr = the_trait?;
                if q == tr || (q == "Self" && caller_trait == Some(tr)) {
                    return Some(Resolution::Exact);
                }
                let f = caller?;
                let bounds: Vec<&str> = f
                    .bounds
                    .iter()
                    .filter(|(p, _)| p == q)
                    .map(|(_, b)| b.as_str())
                    .collect();
                if bounds.iter().any(|b| self.trait_closure(b).contains(tr)) {
                    return Some(Resolution::Bound);
                }
                if bounds.iter().any(|b| !self.is_local_trait(b)) && !self.is_local_trait(tr) {
                    return Some(Resolution::BoundExternal);
                }
                None
            }
            Callee::Path { qualifier: None } => {
                let module = t.ty.is_none() && t.default_of.is_none();
                module.then(|| by_name(self.namesakes(&t.name).len()))
            }
            Callee::Method { on_self } => {
                let on_self = *on_self;
                if t.ty.is_none() && t.default_of.is_none() {
                    return None;
                }
                if on_self && caller_ty.is_some() && caller_ty == t.ty.as_deref() {
                    return Some(Resolution::Exact);
                }
                if on_self && t.default_of.is_some() && caller_trait == t.default_of.as_deref() {
                    return Some(Resolution::Exact);
                }
                let names = self.namesakes(&t.name);
                if names.len() <= 1 {
                    return Some(Resolution::NameUnique);
                }
                // Every fn of that name belongs to one trait: a call of that
                // trait's method.
                let tr = the_trait?;
                let same_trait = names.iter().all(|&i| match &self.symbols.fns[i].owner {
                    Owner::Impl {
                        of_trait: Some(x), ..
                    } => x == tr,
                    Owner::TraitDefault(x) => x == tr,
                    _ => false,
                });
                Some(if same_trait {
                    Resolution::Trait
                } else {
                    Resolution::NameAmbiguous
                })
            }
        }
    }

    /// Calls of fn `fi` (or of what a macro generates from it), each with
    /// how it was resolved.
    fn callers_of(&self, fi: usize) -> Vec<(usize, Resolution)> {
        let targets = self.targets(fi);
        // Only calls of a target's name can resolve to it; in call order.
        let mut candidates: Vec<usize> = Vec::new();
        let mut names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            candidates.extend(self.calls_by_name.get(name).into_iter().flatten());
        }
        candidates.sort_unstable();
        let mut out = Vec::new();
        for ci in candidates {
            let c = &self.symbols.calls[ci];
            let Some(caller) = c.caller else { continue };
            if caller == fi {
                continue;
            }
            if let Some(r) = targets.iter().find_map(|t| self.resolve(t, c)) {
                out.push((ci, r));
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
            if caller.is_test {
                continue;
            }
            let bound = match &c.callee {
                Callee::Path { qualifier: Some(q) } => caller
                    .bounds
                    .iter()
                    .filter(|(p, _)| p == q)
                    .map(|(p, tr)| format!("{p}: {tr}"))
                    .next()
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let how = match r {
                Resolution::Exact if matches!(c.callee, Callee::Method { .. }) => {
                    "resolved through the type of `self`".to_string()
                }
                Resolution::Exact => "resolved by its path".to_string(),
                Resolution::Bound => format!("resolved through the generic bound `{bound}`"),
                Resolution::BoundExternal => format!(
                    "resolved through the generic bound `{bound}`, a trait of another crate that brings the method"
                ),
                Resolution::Trait => format!(
                    "a call of the trait method `{}`; the impl that runs depends on the receiver's type",
                    t.name
                ),
                Resolution::NameUnique => {
                    format!("resolved by name only: the only fn named `{}`", t.name)
                }
                Resolution::NameAmbiguous => continue,
            };
            let key = format!("caller:{}:{}", c.path, c.line);
            if b.seen(&key) {
                continue;
            }
            let called = match &c.callee {
                Callee::Path { qualifier: Some(q) } => format!("{q}::{}", c.name),
                Callee::Path { qualifier: None } => c.name.clone(),
                Callee::Method { .. } => match &c.receiver {
                    Some(r) if r.len() <= 40 => format!("{r}.{}", c.name),
                    _ => format!(".{}", c.name),
                },
            };
            b.push(
                FactKind::Caller,
                format!(
                    "`{}` {} `{called}` ({how}).",
                    caller.qualified(),
                    if c.by_reference { "passes" } else { "calls" },
                ),
                Some((c.path.clone(), c.line)),
                None,
            );
            listed += 1;
            // The guard at the call is the trigger of a helper.
            if let Some(pf) = self.files.get(&c.path) {
                let guards = pf
                    .tree_at(c.line, c.column)
                    .map(|tr| syntax::guards_at(tr, &pf.file.text, c.line, c.column))
                    .unwrap_or_default();
                for g in guards.iter().take(3) {
                    let when = guard_text(g);
                    b.push(
                        FactKind::Guard,
                        format!(
                            "Where `{}` calls it ({}:{}), {}",
                            caller.qualified(),
                            c.path,
                            c.line,
                            crate::sections::lower_first(&when)
                        ),
                        Some((c.path.clone(), c.line)),
                        None,
                    );
                }
                // `match self` on a variant: the type's own accessor that
                // maps the same variant to a value names it in user terms.
                if let Some(Guard::Arm { pattern, value, .. }) = guards.first() {
                    if value == "self" {
                        if let Some((ty, accessor, tag)) = self.variant_meaning(caller, pattern) {
                            b.push(
                                FactKind::Guard,
                                format!(
                                    "Where `{}` calls it ({}:{}), the arm `{pattern}` is the `{ty}` whose `{accessor}()` is `{tag}`: it runs for `{tag}` values.",
                                    caller.qualified(),
                                    c.path,
                                    c.line
                                ),
                                Some((c.path.clone(), c.line)),
                                None,
                            );
                        }
                    }
                }
                // A count checked after a `zip`: the zip itself never sees
                // the surplus of the longer side.
                if let Some(Guard::If(cond)) = guards.first() {
                    if let Some(zip_line) = zip_before_count_check(caller, cond, c.line) {
                        b.push(
                            FactKind::Mechanism,
                            format!(
                                "`{}` pairs the items with `.zip(..)` ({}:{zip_line}) before the check `{cond}`: `zip` stops at the shorter side, so extra items on the longer side are silently ignored, never reported; the check only sees too few.",
                                caller.qualified(),
                                c.path,
                            ),
                            Some((c.path.clone(), zip_line)),
                            None,
                        );
                    }
                }
                if syntax::in_const_at(
                    pf.tree_at(c.line, c.column).unwrap_or(&pf.trees[0]),
                    c.line,
                    c.column,
                ) {
                    b.push(
                        FactKind::Mechanism,
                        format!(
                            "`{}` calls it inside a `const {{ .. }}` block: it is evaluated at compile time, so a failure is a build error (when the generic item is instantiated, not at `cargo check`), never a runtime panic.",
                            caller.qualified()
                        ),
                        Some((c.path.clone(), c.line)),
                        None,
                    );
                }
            }
            self.wrapper_fact(b, t, caller, c);
        }
        let ambiguous = callers
            .iter()
            .filter(|(_, r)| *r == Resolution::NameAmbiguous)
            .count();
        let implicit = matches!(&t.owner, Owner::Impl { ty, of_trait: Some(tr) } if implicit_call(tr, &t.name, ty).is_some());
        if ambiguous > 0 && !implicit {
            b.push(
                FactKind::Caller,
                format!(
                    "{ambiguous} more call(s) of a method named `{}` may reach it; syntax alone cannot tell which of the {} fns of that name they call.",
                    t.name,
                    self.namesakes(&t.name).len()
                ),
                None,
                None,
            );
        }
        self.entry_facts(b, target);
    }

    /// A wrapper impl whose method calls the same method on its inner type
    /// (`impl<B: Backend> Ops for Autodiff<B>` calling `B::op`) reaches
    /// itself only when the inner type is the wrapper again.
    fn wrapper_fact(&self, b: &mut Builder, t: &FnDef, caller: &FnDef, c: &Call) {
        let Callee::Path { qualifier: Some(q) } = &c.callee else {
            return;
        };
        let Some(self_ty) = &t.impl_self else {
            return;
        };
        let wrapper = last_segment_of(self_ty);
        // The wrapper's own generic parameters and their bounds.
        let args: Vec<&str> = self_ty
            .split(['<', '>', ',', ' '])
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
        let inner: Vec<&String> = t
            .impl_params
            .iter()
            .filter(|p| args.contains(&p.as_str()))
            .collect();
        let inner_bounds: HashSet<&str> = t
            .bounds
            .iter()
            .filter(|(p, _)| inner.contains(&p))
            .map(|(_, tr)| tr.as_str())
            .collect();
        let caller_bounds: Vec<&str> = caller
            .bounds
            .iter()
            .filter(|(p, _)| p == q)
            .map(|(_, tr)| tr.as_str())
            .collect();
        let same_impl = caller.impl_self.as_ref() == Some(self_ty)
            && caller.impl_params.iter().any(|p| p == q)
            && args.contains(&q.as_str());
        let same_bound = caller_bounds.iter().any(|tr| inner_bounds.contains(tr));
        if !(same_impl || same_bound) || wrapper == *q {
            return;
        }
        if b.seen(&format!("wrapper:{}", t.qualified())) {
            return;
        }
        let bound = caller_bounds
            .first()
            .map(|tr| format!("`{q}: {tr}`"))
            .unwrap_or_else(|| format!("`{q}`"));
        // The fn the calling impl is written in (a backward step defined
        // inside the op it belongs to).
        let outer = self
            .symbols
            .fns
            .iter()
            .filter(|o| {
                o.path == caller.path
                    && o.lines.0 < caller.lines.0
                    && caller.lines.1 <= o.lines.1
                    && o.impl_self.as_ref() == Some(self_ty)
            })
            .max_by_key(|o| o.lines.0)
            .map(|o| o.qualified());
        let through = outer
            .map(|o| format!(", that is higher-order use through `{o}`"))
            .unwrap_or_default();
        b.push(
            FactKind::Caller,
            format!(
                "`{}` calls `{q}::{}` on the inner type {bound}, not on `{self_ty}` itself: that call reaches this impl only when the inner `{q}` is itself `{wrapper}<..>` (nested `{wrapper}<{wrapper}<..>>`{through}); for any other `{q}` it runs that type's own `{}`. Apart from that, only a direct call of `{}` on `{wrapper}<..>` reaches it.",
                caller.qualified(),
                t.name,
                t.name,
                t.name
            ),
            Some((c.path.clone(), c.line)),
            None,
        );
    }

    /// Public fns and trait impls a user reaches it through, following
    /// resolved calls back a few steps.
    fn entry_facts(&self, b: &mut Builder, target: usize) {
        let t = &self.symbols.fns[target];
        let mut entries = 0;
        for tg in self.targets(target) {
            if let (Some(tr), Some(ty)) = (&tg.of_trait, &tg.ty) {
                if let Some(call) = implicit_call(tr, &tg.name, ty) {
                    if entries < MAX_ENTRIES && !b.seen(&format!("implicit:{tr}:{ty}:{}", tg.name))
                    {
                        let at = tg
                            .generated_at
                            .clone()
                            .unwrap_or((t.path.clone(), t.lines.0));
                        b.push(
                            FactKind::PublicEntry,
                            format!("`{tr}::{}` for `{ty}` is reached by {call}.", tg.name),
                            Some(at),
                            None,
                        );
                        entries += 1;
                    }
                }
            }
        }
        if t.is_pub && matches!(t.owner, Owner::Module | Owner::Impl { of_trait: None, .. }) {
            return;
        }
        let mut seen: HashSet<usize> = HashSet::from([target]);
        let mut queue = VecDeque::from([(target, 0usize, vec![t.qualified()])]);
        while let Some((f, hops, chain)) = queue.pop_front() {
            if hops == MAX_HOPS || entries == MAX_ENTRIES {
                continue;
            }
            let default_method = matches!(self.symbols.fns[f].owner, Owner::TraitDefault(_));
            for (ci, r) in self.callers_of(f) {
                if r == Resolution::NameAmbiguous
                    || (r == Resolution::Trait && !(hops == 0 && default_method))
                {
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
                let path: Vec<String> = chain.iter().rev().map(|c| format!("`{c}`")).collect();
                let implicit = match &cf.owner {
                    Owner::Impl {
                        ty,
                        of_trait: Some(tr),
                    } => implicit_call(tr, &cf.name, ty),
                    _ => None,
                };
                let public = cf.is_pub
                    && matches!(cf.owner, Owner::Module | Owner::Impl { of_trait: None, .. });
                if entries < MAX_ENTRIES && (public || implicit.is_some()) {
                    let text = match &implicit {
                        Some(call) => format!(
                            "`{}` reaches it ({}), and a user reaches that by {call}.",
                            cf.qualified(),
                            path.join(" → ")
                        ),
                        None => format!(
                            "The public fn `{}` reaches it: {}.",
                            cf.qualified(),
                            path.join(" → ")
                        ),
                    };
                    b.push(
                        FactKind::PublicEntry,
                        text,
                        Some((cf.path.clone(), cf.lines.0)),
                        None,
                    );
                    entries += 1;
                }
                queue.push_back((caller, hops + 1, chain));
            }
        }
        if entries == 0 {
            self.type_use_entries(b, target);
        }
    }

    /// For a method no call reaches (a trait impl driven by another crate,
    /// such as a serde `Serializer`), the public fns that use its type.
    fn type_use_entries(&self, b: &mut Builder, target: usize) {
        let t = &self.symbols.fns[target];
        let Owner::Impl { ty, .. } = &t.owner else {
            return;
        };
        let mut types = VecDeque::from([(ty.clone(), 0usize, vec![ty.clone()])]);
        let mut seen_types = HashSet::from([ty.clone()]);
        let mut found = 0;
        while let Some((ty, depth, chain)) = types.pop_front() {
            if depth == 5 || found == MAX_ENTRIES {
                break;
            }
            for f in &self.symbols.fns {
                if f.is_test || found == MAX_ENTRIES {
                    continue;
                }
                let own = matches!(&f.owner, Owner::Impl { ty: t2, .. } if *t2 == ty);
                if own || !mentions(&f.text, &ty) || !gates_compatible(&t.gates, &f.gates) {
                    continue;
                }
                let public = f.is_pub
                    && matches!(f.owner, Owner::Module | Owner::Impl { of_trait: None, .. });
                if public {
                    if b.seen(&format!("typeuse:{}", f.qualified())) {
                        continue;
                    }
                    let via: Vec<String> = chain.iter().map(|c| format!("`{c}`")).collect();
                    b.push(
                        FactKind::PublicEntry,
                        format!(
                            "`{}` (public) uses `{ty}`{}: the method runs when that fn drives it.",
                            f.qualified(),
                            if chain.len() > 1 {
                                format!(" (through {})", via.join(" ← "))
                            } else {
                                String::new()
                            }
                        ),
                        Some((f.path.clone(), f.lines.0)),
                        None,
                    );
                    found += 1;
                    if let Owner::Impl { ty: next, .. } = &f.owner {
                        if seen_types.insert(next.clone()) {
                            let mut c = chain.clone();
                            c.push(next.clone());
                            types.push_back((next.clone(), depth + 1, c));
                        }
                    }
                } else if let Owner::Impl { ty: next, .. } = &f.owner {
                    if seen_types.insert(next.clone()) {
                        let mut c = chain.clone();
                        c.push(next.clone());
                        types.push_back((next.clone(), depth + 1, c));
                    }
                }
            }
        }
    }

    /// How the site works: the thrower's attributes and `cfg` gates, the
    /// macro it is written in, `debug_assert!`, compile-time evaluation,
    /// a trait's default method and who overrides it, serde's `custom`.
    fn mechanism_facts(&self, b: &mut Builder, error: &ErrorDetail, fi: usize, s: &SiteRow) {
        let f = &self.symbols.fns[fi];
        let at = Some((f.path.clone(), f.lines.0));
        let name = f.qualified();
        for a in &f.attrs {
            let a = a.split_whitespace().collect::<Vec<_>>().join(" ");
            let text = if a == "cold" {
                format!("`{name}` is marked `#[cold]`: a helper the compiler keeps out of the hot path, called only on the failure path; the condition that leads here is the guard at its callers.")
            } else if a.starts_with("inline(never)") {
                format!("`{name}` is `#[inline(never)]`: it stays a separate frame in backtraces.")
            } else if a == "track_caller" {
                format!("`{name}` is `#[track_caller]`: the panic report names the location of the caller (your call site), not this line.")
            } else if a.starts_with("cfg_attr(") && a.contains("track_caller") {
                let cond = a
                    .trim_start_matches("cfg_attr(")
                    .rsplit_once(',')
                    .map(|(c, _)| c.trim().to_string())
                    .unwrap_or_default();
                format!("`{name}` is `#[track_caller]` only under `cfg({cond})` (`#[{a}]`): with it, the report names the caller's location; without it, this line.")
            } else {
                continue;
            };
            b.push(FactKind::Mechanism, text, at.clone(), None);
        }
        let mut gates: Vec<&String> = Vec::new();
        for g in &f.gates {
            if !gates.contains(&g) {
                gates.push(g);
            }
        }
        if !gates.is_empty() {
            let list: Vec<String> = gates.iter().map(|g| format!("`cfg({g})`")).collect();
            let features: Vec<String> = gates
                .iter()
                .flat_map(|g| features_in(g))
                .collect::<Vec<_>>();
            let mut text = format!(
                "`{name}` is compiled only when {} holds (on the fn, its impl or module, or the `mod` declaration of its file).",
                list.join(" and ")
            );
            if !features.is_empty() {
                text.push_str(&format!(
                    " It depends on the Cargo feature(s) {}.",
                    features
                        .iter()
                        .map(|x| format!("`{x}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if let Some(m) = module_of_path(&f.path).filter(|_| {
                gates.iter().any(|g| g.starts_with("not(")) && !f.path.ends_with("lib.rs")
            }) {
                text.push_str(&format!(
                    " The `{m}` module is the fallback compiled where the other configurations do not apply."
                ));
            }
            b.push(FactKind::Mechanism, text, at.clone(), None);
        }
        if let Some(m) = &f.in_macro {
            let inv = self.expansions(m, s.line);
            let shown: Vec<String> = inv
                .iter()
                .take(8)
                .map(|e| {
                    let args = e.call.args.split_whitespace().collect::<Vec<_>>().join(" ");
                    let args: String = args.chars().take(70).collect();
                    format!("`{m}!({args})` ({}:{})", e.call.path, e.call.line)
                })
                .collect();
            let total = self
                .symbols
                .macro_calls
                .iter()
                .filter(|c| c.name == *m)
                .count();
            let text = if shown.is_empty() {
                format!("The site is in the body of `macro_rules! {m}`: `{name}` is generated by the macro wherever it is invoked ({total} invocation(s)).")
            } else {
                format!(
                    "The site is in the body of `macro_rules! {m}`: the macro generates `{}` at each invocation; {} of {total} invocation(s) expand to this code: {}.",
                    f.name,
                    inv.len(),
                    shown.join(", ")
                )
            };
            b.push(FactKind::Mechanism, text, at.clone(), None);
        }
        if let Some(pf) = self.files.get(&s.path) {
            let parts = pf
                .tree_at(s.report_line, s.report_column)
                .map(|t| syntax::call_parts_at(t, &pf.file.text, s.report_line, s.report_column))
                .unwrap_or_default();
            if parts
                .macro_name
                .as_deref()
                .is_some_and(|m| m.starts_with("debug_"))
            {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "It is a `{}!`: checked only when `debug_assertions` are on (debug builds, `cargo test`); a release build compiles it out and goes on.",
                        parts.macro_name.as_deref().unwrap_or("debug_assert")
                    ),
                    Some((s.path.clone(), s.line)),
                    None,
                );
            }
            if parts.in_const {
                b.push(
                    FactKind::Mechanism,
                    "It is evaluated at compile time (inside a `const` block or item): a failure is a build error, never a runtime panic.".to_string(),
                    Some((s.path.clone(), s.line)),
                    None,
                );
            }
        }
        if f.is_const && error.kind.panics() {
            b.push(
                FactKind::Mechanism,
                format!("`{name}` is a `const fn`: called in a `const` context it fails at compile time (a build error); called at run time it panics."),
                at.clone(),
                None,
            );
        }
        match &f.owner {
            Owner::TraitDefault(t) => {
                let mut over = Vec::new();
                let mut not_over = Vec::new();
                for g in &self.symbols.fns {
                    if let Owner::Impl {
                        ty,
                        of_trait: Some(x),
                    } = &g.owner
                    {
                        if x == t && !g.is_test && !ty.contains('$') {
                            // The module names the type (`fmt::Subscriber`
                            // is not the `Subscriber` trait).
                            let ty = match module_of_path(&g.path) {
                                Some(m) if m.to_lowercase() != ty.to_lowercase() => {
                                    format!("{m}::{ty}")
                                }
                                _ => ty.clone(),
                            };
                            if g.name == f.name {
                                if !over.contains(&ty) {
                                    over.push(ty);
                                }
                            } else if !not_over.contains(&ty) {
                                not_over.push(ty);
                            }
                        }
                    }
                }
                not_over.retain(|t| !over.contains(t));
                let q = |v: &[String]| {
                    v.iter()
                        .take(8)
                        .map(|x| format!("`{x}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let mut text = format!(
                    "`{name}` is the default method (provided by the trait `{t}`): every implementor that does not override `{}` runs it.",
                    f.name
                );
                if !over.is_empty() {
                    text.push_str(&format!(" In this crate {} override it.", q(&over)));
                }
                if !not_over.is_empty() {
                    text.push_str(&format!(
                        " {} implement `{t}` without overriding it.",
                        q(&not_over)
                    ));
                }
                b.push(FactKind::Mechanism, text, at.clone(), None);
                // A match on the implementor's own method: its contract.
                if let Some(pf) = self.files.get(&s.path) {
                    let guards = pf
                        .tree_at(s.line, s.column)
                        .map(|tr| syntax::guards_at(tr, &pf.file.text, s.line, s.column))
                        .unwrap_or_default();
                    for g in guards {
                        let Guard::Arm { pattern, value, .. } = g else {
                            continue;
                        };
                        let Some(m) = value
                            .strip_prefix("self.")
                            .and_then(|r| r.split_once('('))
                            .map(|(m, _)| m.to_string())
                        else {
                            continue;
                        };
                        b.push(
                            FactKind::Alternative,
                            format!(
                                "If you implement `{t}`, your `{m}` must not return `{pattern}` where `{}` calls it: report the failure by returning an error (`Err`) instead; the default method treats `{pattern}` as a broken contract.",
                                f.name
                            ),
                            Some((s.path.clone(), s.line)),
                            None,
                        );
                        break;
                    }
                }
            }
            Owner::Impl {
                ty,
                of_trait: Some(t),
            } if matches!(
                error.kind,
                Kind::Unreachable | Kind::Unimplemented | Kind::Todo | Kind::Panic
            ) && f.statements <= 1 =>
            {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "`{}` exists because the trait `{t}` requires it for `{ty}`: its body is only this `{}!`, a stub for a method the authors expect never to be called on `{ty}`.",
                        f.name,
                        error.kind.as_str()
                    ),
                    at.clone(),
                    None,
                );
            }
            _ => {}
        }
        if error.kind == Kind::SerdeCustom {
            let role = match &f.owner {
                Owner::Impl {
                    of_trait: Some(t),
                    ty,
                } => format!(" in `{t}::{}` for `{ty}`", f.name),
                _ => String::new(),
            };
            b.push(
                FactKind::Mechanism,
                format!("The error is made with serde's `Error::custom`{role}: serde calls that method while (de)serializing, and the format's error carries this text."),
                at,
                None,
            );
        }
    }

    /// A message kept in a `const` or `static`: every use, each with its
    /// own enclosing fn and guard.
    fn const_message_facts(&self, b: &mut Builder, error: &ErrorDetail) {
        let Some(from) = error.sites.iter().find_map(|s| s.message_from.clone()) else {
            return;
        };
        let Some((path, line)) = from.rsplit_once(':') else {
            return;
        };
        let Ok(line) = line.parse::<u32>() else {
            return;
        };
        let Some(pf) = self.files.get(path) else {
            return;
        };
        // The declaration is the nearest `const NAME`/`static NAME` at or
        // above the literal.
        let lines: Vec<&str> = pf.file.text.lines().collect();
        let mut decl = None;
        for l in (line.saturating_sub(4)..=line).rev() {
            let Some(t) = lines.get(l.saturating_sub(1) as usize) else {
                continue;
            };
            for kw in ["const ", "static "] {
                if let Some(i) = t.find(kw) {
                    let rest = t[i + kw.len()..].trim_start().trim_start_matches("ref ");
                    let n: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !n.is_empty() {
                        decl = Some((n, kw.trim(), l));
                    }
                }
            }
            if decl.is_some() {
                break;
            }
        }
        let Some((name, kw, decl_line)) = decl else {
            return;
        };
        let mut uses = Vec::new();
        let mut paths: Vec<&String> = self.files.keys().collect();
        paths.sort();
        for p in paths {
            let f = &self.files[p];
            for (i, l) in f.file.text.lines().enumerate() {
                let ln = i as u32 + 1;
                if (p == path && ln == decl_line) || !mentions(l, &name) || syntax::is_test_path(p)
                {
                    continue;
                }
                let t = l.trim_start();
                if t.starts_with("//") || t.starts_with("use ") || t.starts_with("pub use ") {
                    continue;
                }
                let col = l.find(name.as_str()).unwrap_or(0) as u32 + 1;
                let owner = self.enclosing_fn(p, ln);
                if owner.is_some_and(|o| self.symbols.fns[o].is_test) {
                    continue;
                }
                uses.push((p.clone(), ln, col, owner));
            }
        }
        b.push(
            FactKind::Mechanism,
            format!(
                "The message is the `{kw} {name}` ({path}:{decl_line}), used in {} place(s); each use has its own trigger.",
                uses.len()
            ),
            Some((path.to_string(), decl_line)),
            None,
        );
        for (p, ln, col, owner) in uses.into_iter().take(MAX_CALLERS) {
            let who = owner
                .map(|o| format!("`{}`", self.symbols.fns[o].qualified()))
                .unwrap_or_else(|| "an item at module level".to_string());
            let guards = self
                .files
                .get(&p)
                .and_then(|pf| {
                    pf.tree_at(ln, col)
                        .map(|t| syntax::guards_at(t, &pf.file.text, ln, col))
                })
                .unwrap_or_default();
            let when: Vec<String> = guards
                .iter()
                .take(2)
                .map(|g| crate::sections::lower_first(guard_text(g).trim_end_matches('.')))
                .collect();
            let line_text = self
                .files
                .get(&p)
                .and_then(|pf| pf.file.text.lines().nth(ln as usize - 1))
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default();
            let line_text: String = line_text.chars().take(100).collect();
            b.push(
                FactKind::Mechanism,
                format!(
                    "`{name}` is used in {who} ({p}:{ln}: `{line_text}`){}.",
                    if when.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", when.join("; "))
                    }
                ),
                Some((p.clone(), ln)),
                None,
            );
        }
        // The module the declaration lives in may be gated.
        let gates = syntax::module_gates(path, &self.symbols.mod_decls, 0);
        if !gates.is_empty() {
            let m = module_of_path(path).unwrap_or_default();
            b.push(
                FactKind::Mechanism,
                format!(
                    "`{name}` is in the `{m}` module, compiled only when {} holds: there the functions above return it.",
                    gates
                        .iter()
                        .map(|g| format!("`cfg({g})`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
                Some((path.to_string(), decl_line)),
                None,
            );
        }
    }

    /// For an arm `Self::V(..)` of `match self` in `caller`, the method of
    /// the same type whose `match self` maps `Self::V(_)` to a tag of the
    /// same name in another type
    /// (`fn dtype(&self) -> DType { match self { Self::U8(_) => DType::U8, .. } }`):
    /// that tag is what a user knows the variant by.
    ///
    /// Gives the type, the accessor's name and the tag.
    fn variant_meaning(&self, caller: &FnDef, pattern: &str) -> Option<(String, String, String)> {
        let Owner::Impl { ty, .. } = &caller.owner else {
            return None;
        };
        let variant = pattern
            .strip_prefix("Self::")
            .or_else(|| pattern.strip_prefix(&format!("{ty}::")))?
            .split(['(', '{', ' '])
            .next()?
            .to_string();
        if variant.is_empty() || !variant.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let arm = format!("Self::{variant}(_) =>");
        for f in &self.symbols.fns {
            if f.is_test
                || !matches!(&f.owner, Owner::Impl { ty: t, .. } if t == ty)
                || !f.signature.contains("(&self)")
                || !f.signature.contains("->")
            {
                continue;
            }
            for line in f.text.lines() {
                let Some(rest) = line.trim().strip_prefix(&arm) else {
                    continue;
                };
                let value = rest.trim().trim_end_matches(',').trim();
                // A tag of the same name in another type: `DType::U8`.
                let plain = value.len() <= 40
                    && value.rsplit_once("::").is_some_and(|(head, last)| {
                        last == variant
                            && !head.is_empty()
                            && head
                                .chars()
                                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    });
                if plain {
                    return Some((ty.clone(), f.name.clone(), value.to_string()));
                }
            }
        }
        None
    }

    /// What `expect`/`unwrap` is called on: `Option` or `Result` when the
    /// code tells, and — for a crate fn — where it returns `None`/`Err`.
    /// `context` holds the facts gathered so far about the site.
    fn receiver_facts(&self, b: &mut Builder, receiver: &str, context: &[Fact]) -> Option<bool> {
        // The last call in the receiver.
        let head = receiver.trim_end_matches(|c: char| c == '.' || c.is_ascii_digit());
        let callee: String = {
            let t = head.trim_end();
            let t = t.strip_suffix(')').map(|t| {
                // Drop the argument list.
                let mut depth = 1;
                let mut cut = t.len();
                for (i, c) in t.char_indices().rev() {
                    match c {
                        ')' => depth += 1,
                        '(' => {
                            depth -= 1;
                            if depth == 0 {
                                cut = i;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                &t[..cut]
            });
            match t {
                Some(t) => t
                    .rsplit(['.', ':'])
                    .next()
                    .unwrap_or("")
                    .split('<')
                    .next()
                    .unwrap_or("")
                    .to_string(),
                None => String::new(),
            }
        };
        let field_access = receiver.trim_end().rsplit_once(").").is_some_and(|(_, f)| {
            f.chars()
                .all(|c| c.is_ascii_digit() || c.is_alphanumeric() || c == '_')
        });
        let mut is_option = if field_access {
            None
        } else {
            std_returns_option(&callee)
        };
        // `Type::callee(..)`: that type's fn before any namesake.
        let qualifier = head
            .split(&format!("::{callee}"))
            .next()
            .filter(|q| q.len() < head.len())
            .and_then(|q| q.rsplit([':', ' ', '(', '.', '!', '&']).next())
            .unwrap_or("")
            .to_string();
        let candidates: Vec<(usize, &FnDef)> = self
            .namesakes(&callee)
            .into_iter()
            .map(|i| (i, &self.symbols.fns[i]))
            .filter(|(_, f)| !f.is_test)
            .collect();
        let local = candidates
            .iter()
            .find(|(_, f)| matches!(&f.owner, Owner::Impl { ty, .. } if *ty == qualifier))
            .or_else(|| candidates.first())
            .copied();
        if let Some((fi, f)) = local {
            let ret = f
                .signature
                .rsplit_once("->")
                .map(|(_, r)| r.trim().to_string());
            if !field_access {
                if let Some(r) = &ret {
                    if r.starts_with("Option<") {
                        is_option = Some(true);
                    } else if r.starts_with("Result<") || r.contains("Result<") {
                        is_option = Some(false);
                    }
                }
            }
            self.failure_points(b, fi, field_access, 0);
            if f.text.contains("is_nan()") && float_arithmetic(receiver, context) {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "`{}` refuses NaN, and the value it checks is the result of float arithmetic: operands that are not NaN give NaN only in IEEE 754's invalid operations, `inf - inf` (or `inf + -inf`), `0 * inf`, `0 / 0`, `inf / inf`, `x % 0` and `inf % y`; any other result, infinities included, passes.",
                        f.qualified()
                    ),
                    Some((f.path.clone(), f.lines.0)),
                    None,
                );
            }
        }
        is_option
    }

    /// Where a crate fn gives up: its `Err(..)`/`None` returns with their
    /// guards, and the checked arithmetic it relies on.
    fn failure_points(&self, b: &mut Builder, fi: usize, field_access: bool, depth: usize) {
        let f = &self.symbols.fns[fi];
        let Some(pf) = self.files.get(&f.path) else {
            return;
        };
        let mut n = 0;
        let lines: Vec<&str> = pf.file.text.lines().collect();
        for ln in f.lines.0..=f.lines.1 {
            let Some(l) = lines.get(ln as usize - 1) else {
                continue;
            };
            let col = l.find("Err(").or_else(|| {
                l.match_indices("None")
                    .find(|(i, _)| mentions(&l[*i..], "None"))
                    .map(|(i, _)| i)
            });
            let Some(col) = col else { continue };
            if n == 4 {
                break;
            }
            let col = col as u32 + 1;
            let guards = pf
                .tree_at(ln, col)
                .map(|t| syntax::guards_at(t, &pf.file.text, ln, col))
                .unwrap_or_default();
            let Some(g) = guards.first() else { continue };
            let what = l.trim().trim_end_matches([',', ';']);
            let what: String = what.chars().take(90).collect();
            b.push(
                FactKind::Receiver,
                format!(
                    "`{}` gives `{what}` when {}",
                    f.qualified(),
                    crate::sections::lower_first(&guard_text(g))
                        .trim_start_matches("it runs only when ")
                        .trim_start_matches("it runs when ")
                ),
                Some((f.path.clone(), ln)),
                None,
            );
            n += 1;
        }
        if n == 0 && depth < 2 {
            // A fn that only passes on another crate fn's failure.
            for c in self.calls_in_fn[fi]
                .iter()
                .map(|&ci| &self.symbols.calls[ci])
            {
                let next = self.namesakes(&c.name).into_iter().find(|&i| {
                    i != fi && {
                        let r = &self.symbols.fns[i].signature;
                        r.contains("-> Result<") || r.contains("-> Option<")
                    }
                });
                if let Some(next) = next {
                    b.push(
                        FactKind::Receiver,
                        format!(
                            "`{}` passes on the failure of `{}`.",
                            f.qualified(),
                            self.symbols.fns[next].qualified()
                        ),
                        Some((c.path.clone(), c.line)),
                        None,
                    );
                    self.failure_points(b, next, field_access, depth + 1);
                    break;
                }
            }
        }
        let checked: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for w in f.text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                let std_checked = matches!(
                    w,
                    "checked_add"
                        | "checked_sub"
                        | "checked_mul"
                        | "checked_div"
                        | "checked_rem"
                        | "checked_pow"
                        | "checked_neg"
                        | "checked_shl"
                        | "checked_shr"
                        | "checked_next_power_of_two"
                );
                if std_checked && !v.iter().any(|x| x == w) {
                    v.push(w.to_string());
                }
            }
            v
        };
        if !checked.is_empty() {
            b.push(
                FactKind::Receiver,
                format!(
                    "`{}` uses {}, which gives `None` on overflow{}.",
                    f.qualified(),
                    checked
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if field_access {
                        " (the value unwrapped is one field of its result)"
                    } else {
                        ""
                    }
                ),
                Some((f.path.clone(), f.lines.0)),
                None,
            );
        }
    }

    /// A fallible sibling of the thrower or of the public fns reaching it
    /// (`try_x`, `checked_x`), and the fns that establish an asserted
    /// field's value.
    fn alternative_facts(&self, b: &mut Builder, fi: usize, asserted: Option<&str>) {
        let f = &self.symbols.fns[fi];
        let base = f.name.trim_start_matches("r#");
        for cand in [
            format!("try_{base}"),
            format!("checked_{base}"),
            format!("{base}_checked"),
            format!("try_{base}_mut"),
        ] {
            for i in self.namesakes(&cand) {
                let g = &self.symbols.fns[i];
                let same_owner = match (&g.owner, &f.owner) {
                    (Owner::Impl { ty: a, .. }, Owner::Impl { ty: c, .. }) => a == c,
                    (Owner::Module, Owner::Module) => true,
                    (Owner::TraitDefault(a), Owner::TraitDefault(c)) => a == c,
                    _ => false,
                };
                if !same_owner || b.seen(&format!("alt:{}", g.qualified())) {
                    continue;
                }
                let ret = g
                    .signature
                    .rsplit_once("->")
                    .map(|(_, r)| r.trim().to_string())
                    .unwrap_or_default();
                b.push(
                    FactKind::Alternative,
                    format!(
                        "`{}` is the fallible form of `{}`{}: use it to handle the failure instead of panicking.",
                        g.qualified(),
                        f.qualified(),
                        if ret.is_empty() { String::new() } else { format!(" (returns `{ret}`)") }
                    ),
                    Some((g.path.clone(), g.lines.0)),
                    None,
                );
            }
        }
        // `self.field` in an assertion: the fns of the type that set it.
        let Some(cond) = asserted else { return };
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        let fields = self_fields(cond);
        self.setter_facts(b, &fields, Some(ty));
    }

    /// The fns that call `start` (transitively, up to `hops` calls away),
    /// nearest first, at most `max`: calls resolved by path, bound or a
    /// unique name, not test code.
    fn reached_from(&self, start: &[usize], hops: usize, max: usize) -> Vec<usize> {
        let mut seen: HashSet<usize> = start.iter().copied().collect();
        let mut queue: VecDeque<(usize, usize)> = start.iter().map(|&i| (i, 0)).collect();
        let mut out = Vec::new();
        while let Some((f, depth)) = queue.pop_front() {
            if depth == hops {
                continue;
            }
            for (ci, r) in self.callers_of(f) {
                if matches!(r, Resolution::NameAmbiguous | Resolution::Trait) {
                    continue;
                }
                let Some(caller) = self.symbols.calls[ci].caller else {
                    continue;
                };
                if self.symbols.fns[caller].is_test || !seen.insert(caller) {
                    continue;
                }
                out.push(caller);
                if out.len() == max {
                    return out;
                }
                queue.push_back((caller, depth + 1));
            }
        }
        out
    }

    /// For a method of a type: the fns that create the type (which the
    /// user calls to get one), and — for a `Drop` impl — the methods that
    /// consume the value without running the destructor.
    fn maker_facts(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        let Owner::Impl {
            ty,
            of_trait: Some(of_trait),
        } = &f.owner
        else {
            return;
        };
        let of_trait = Some(of_trait.as_str());
        if ty.is_empty() || ty.contains('$') {
            return;
        }
        let mut makers = Vec::new();
        let mut maker_ids = Vec::new();
        for (gi, g) in self.symbols.fns.iter().enumerate() {
            if g.is_test
                || makers.len() == 6
                || matches!(
                    g.owner,
                    Owner::Impl {
                        of_trait: Some(_),
                        ..
                    }
                )
            {
                continue;
            }
            if matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty) && g.name != "new" {
                continue;
            }
            let ret = g.signature.rsplit_once("->").map(|(_, r)| r).unwrap_or("");
            let body: String = g.text.split_whitespace().collect();
            let builds = body.contains(&format!("{ty}{{"))
                || body.contains(&format!("{ty}::new("))
                || (mentions(ret, ty) && !mentions(ret, "Self"));
            if builds && g.name != f.name && !makers.contains(&g.qualified()) {
                makers.push(g.qualified());
                maker_ids.push(gi);
            }
        }
        if !makers.is_empty() && !b.seen(&format!("makers:{ty}")) {
            b.push(
                FactKind::Mechanism,
                format!(
                    "A `{ty}` is created by {}.",
                    makers
                        .iter()
                        .map(|m| format!("`{m}(..)`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
                None,
            );
            // Where those makers are called from: the user's way to a value.
            let reached = self.reached_from(&maker_ids, 4, 8);
            if !reached.is_empty() {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "The code that makes a `{ty}` is reached from {} (nearest first).",
                        reached
                            .iter()
                            .map(|&i| format!("`{}`", self.symbols.fns[i].qualified()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None,
                    None,
                );
            }
        }
        if of_trait == Some("Drop") {
            let defusers: Vec<String> = self
                .symbols
                .fns
                .iter()
                .filter(|g| {
                    !g.is_test
                        && matches!(&g.owner, Owner::Impl { ty: t, of_trait: None } if t == ty)
                        && g.text.contains("forget(self)")
                })
                .map(|g| format!("`{}`", g.qualified()))
                .collect();
            if !defusers.is_empty() {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "{} consume the `{ty}` with `mem::forget(self)`, so its destructor does not run: a `{ty}` must be completed with one of them; dropping it any other way (letting it go out of scope, an early return, `?`, a panic unwinding) runs this destructor — a drop bomb.",
                        defusers.join(", ")
                    ),
                    None,
                    None,
                );
            }
        }
    }

    /// For `self.field.expect(..)`/`unwrap()`: where the field is set and
    /// emptied; when every construction sets it and only consuming fns empty
    /// it, the check guards an internal invariant.
    fn field_state_facts(&self, b: &mut Builder, fi: usize, receiver: &str) {
        let f = &self.symbols.fns[fi];
        let Some(rest) = receiver.strip_prefix("self.") else {
            return;
        };
        let field: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        if field.is_empty() {
            return;
        }
        let mut sets = Vec::new();
        let mut empties = Vec::new();
        let mut all_some = true;
        let mut all_consuming = true;
        for g in &self.symbols.fns {
            if g.is_test {
                continue;
            }
            let body: String = g.text.split_whitespace().collect();
            if body.contains(&format!("{ty}{{")) {
                if let Some(i) = body.find(&format!("{field}:")) {
                    let v: String = body[i + field.len() + 1..]
                        .chars()
                        .scan(0i32, |d, c| {
                            match c {
                                '(' | '[' | '{' => *d += 1,
                                ')' | ']' | '}' => *d -= 1,
                                _ => {}
                            }
                            (*d >= 0 && !(*d == 0 && c == ',')).then_some(c)
                        })
                        .collect();
                    all_some &= v.starts_with("Some(");
                    sets.push(format!("`{}` (`{field}: {v}`)", g.qualified()));
                }
            }
            let own = matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty);
            if own
                && (body.contains(&format!("self.{field}.take()"))
                    || body.contains(&format!("self.{field}=None")))
            {
                let consuming = g.signature.contains("(self")
                    || g.signature.contains("(mut self")
                    || g.name == "drop";
                all_consuming &= consuming;
                empties.push(format!(
                    "`{}`{}",
                    g.qualified(),
                    if consuming && g.name != "drop" {
                        " (takes `self` by value: the value is gone afterwards)"
                    } else if g.name == "drop" {
                        " (the destructor)"
                    } else {
                        ""
                    }
                ));
            }
        }
        if sets.is_empty() && empties.is_empty() {
            return;
        }
        let mut text = format!("`self.{field}` of `{ty}`");
        if !sets.is_empty() {
            text.push_str(&format!(" is set by {}", sets.join(", ")));
        }
        if !empties.is_empty() {
            text.push_str(&format!(
                "{} emptied only by {}",
                if sets.is_empty() { " is" } else { " and" },
                empties.join(", ")
            ));
        }
        text.push('.');
        if !sets.is_empty() && all_some && all_consuming {
            text.push_str(" So the value is never missing while a method can still be called: this checks an internal invariant and should never fire; if it does, it is a bug in the crate.");
        }
        b.push(
            FactKind::Mechanism,
            text,
            Some((f.path.clone(), f.lines.0)),
            None,
        );
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
                    Some(("Self", v)) => match error_type_of(error) {
                        Some(ty) => (ty, v.to_string()),
                        None => return,
                    },
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
        let mut ctors: Vec<&syntax::Construct> = self
            .symbols
            .constructs
            .iter()
            .filter(|c| {
                !c.in_pattern
                    && c.variant == variant
                    && (c.ty == ty || (c.ty == "Self" && impl_ty(c.caller).as_deref() == Some(&ty)))
                    && !c.caller.is_some_and(|i| throwers.contains(&i))
                    && (c.caller.is_some() || c.in_macro.is_some())
            })
            .collect();
        // Library code first.
        ctors.sort_by_key(|c| c.caller.is_some_and(|i| self.symbols.fns[i].is_test));
        let mut entry_from: Vec<usize> = Vec::new();
        let mut gated_paths: Vec<String> = Vec::new();
        let mut macros: Vec<String> = Vec::new();
        let mut fields: Vec<String> = Vec::new();
        for c in ctors {
            if n == MAX_CONSTRUCTORS {
                break;
            }
            let caller = c.caller.map(|i| &self.symbols.fns[i]);
            let is_test = caller.is_some_and(|f| f.is_test);
            let place = match (caller, &c.in_macro) {
                (Some(f), None) => format!("`{}`", f.qualified()),
                (Some(f), Some(m)) => format!("`{}` in the body of `macro_rules! {m}`", f.name),
                (None, Some(m)) => format!("the body of `macro_rules! {m}`"),
                (None, None) => continue,
            };
            let gates = caller
                .filter(|f| !f.gates.is_empty())
                .map(|f| {
                    format!(
                        ", compiled only when {}",
                        f.gates
                            .iter()
                            .map(|g| format!("`cfg({g})`"))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    )
                })
                .unwrap_or_default();
            b.push(
                FactKind::Constructor,
                format!(
                    "`{ty}::{variant}` is constructed in {place}{}{gates}.",
                    if is_test { " (a test)" } else { "" }
                ),
                Some((c.path.clone(), c.line)),
                None,
            );
            n += 1;
            if is_test {
                continue;
            }
            if !gated_paths.contains(&c.path) {
                gated_paths.push(c.path.clone());
            }
            if let Some(m) = &c.in_macro {
                if !macros.contains(m) {
                    macros.push(m.clone());
                }
            } else if let Some(i) = c.caller {
                if !entry_from.contains(&i) {
                    entry_from.push(i);
                }
            }
            if let Some(pf) = self.files.get(&c.path) {
                let guards = pf
                    .tree_at(c.line, c.column)
                    .map(|t| syntax::guards_at(t, &pf.file.text, c.line, c.column))
                    .unwrap_or_default();
                for g in guards {
                    let when = guard_text(&g);
                    fields.extend(self_fields(&when));
                    let who = caller
                        .map(|f| format!("`{}`", f.qualified()))
                        .or(c.in_macro.as_ref().map(|m| format!("`{m}!`")))
                        .unwrap_or_default();
                    b.push(
                        FactKind::Guard,
                        format!(
                            "Where {who} creates it ({}:{}), {}",
                            c.path,
                            c.line,
                            crate::sections::lower_first(&when)
                        ),
                        Some((c.path.clone(), c.line)),
                        None,
                    );
                }
            }
        }
        self.gated_module_facts(b, &gated_paths);
        for m in &macros {
            let mut users: Vec<usize> = Vec::new();
            for call in self.symbols.macro_calls.iter().filter(|c| &c.name == m) {
                if let Some(i) = call.caller {
                    if !self.symbols.fns[i].is_test && !users.contains(&i) {
                        users.push(i);
                    }
                }
            }
            if users.is_empty() {
                continue;
            }
            b.push(
                FactKind::Constructor,
                format!(
                    "`{m}!` is invoked in {} fn(s): {}.",
                    users.len(),
                    users
                        .iter()
                        .take(8)
                        .map(|&i| format!("`{}`", self.symbols.fns[i].qualified()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
                None,
            );
            for i in users {
                if !entry_from.contains(&i) {
                    entry_from.push(i);
                }
            }
        }
        for i in entry_from.into_iter().take(3) {
            self.entry_facts(b, i);
        }
        fields.dedup();
        self.setter_facts(b, &fields, None);
        self.field_doc_facts(b, &fields);
        self.variant_doc_fact(b, &ty, &variant);
    }

    /// The doc comments of fields a condition reads (`pub flag: bool`).
    fn field_doc_facts(&self, b: &mut Builder, fields: &[String]) {
        let mut n = 0;
        // The most specific (the tail of a chain, listed later) first.
        for field in fields.iter().rev() {
            if n == 2 {
                break;
            }
            if field.len() < 4 {
                continue;
            }
            let mut paths: Vec<&String> = self.files.keys().collect();
            paths.sort();
            'files: for p in paths {
                let text = &self.files[p].file.text;
                for (i, l) in text.lines().enumerate() {
                    let t = l
                        .trim_start()
                        .trim_start_matches("pub(crate) ")
                        .trim_start_matches("pub ");
                    if t.starts_with(&format!("{field}:")) {
                        if let Some(d) = doc_above(text, i + 1) {
                            if !b.seen(&format!("fielddoc:{field}")) {
                                b.push(
                                    FactKind::Doc,
                                    format!("The field `{field}` is documented: \"{d}\""),
                                    Some((p.clone(), i as u32 + 1)),
                                    None,
                                );
                                n += 1;
                            }
                            break 'files;
                        }
                    }
                }
            }
        }
    }

    /// The doc comment of an enum variant.
    fn variant_doc_fact(&self, b: &mut Builder, ty: &str, variant: &str) {
        let mut paths: Vec<&String> = self.files.keys().collect();
        paths.sort();
        for p in paths {
            let text = &self.files[p].file.text;
            let mut in_enum = false;
            for (i, l) in text.lines().enumerate() {
                let t = l.trim_start();
                if t.contains(&format!("enum {ty}")) && mentions(t, ty) {
                    in_enum = true;
                    continue;
                }
                if in_enum && t.starts_with("pub ") && t.contains(" enum ") {
                    in_enum = false;
                }
                if in_enum
                    && t.starts_with(variant)
                    && !t[variant.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    if let Some(d) = doc_above(text, i + 1) {
                        b.push(
                            FactKind::Doc,
                            format!("The variant `{ty}::{variant}` is documented: \"{d}\""),
                            Some((p.clone(), i as u32 + 1)),
                            None,
                        );
                    }
                    return;
                }
            }
        }
    }

    /// A module that stands in for another under a `cfg` (`#[cfg(not(feature
    /// = "x"))] pub use dummy as real;`).
    fn gated_module_facts(&self, b: &mut Builder, paths: &[String]) {
        for p in paths {
            let Some(m) = module_of_path(p) else { continue };
            for (path, line, text, gates) in &self.symbols.gated_uses {
                let aliased =
                    text.contains(&format!("{m} as ")) || text.contains(&format!("::{m};"));
                if !aliased || b.seen(&format!("gateduse:{path}:{line}")) {
                    continue;
                }
                let features: Vec<String> = gates.iter().flat_map(|g| features_in(g)).collect();
                let mut t = format!(
                    "The `{m}` module ({p}) is put in use by `{text}` only when {} holds ({path}:{line}).",
                    gates
                        .iter()
                        .map(|g| format!("`cfg({g})`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                );
                if !features.is_empty() {
                    t.push_str(&format!(
                        " It depends on the Cargo feature(s) {}.",
                        features
                            .iter()
                            .map(|x| format!("`{x}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                b.push(FactKind::Mechanism, t, Some((path.clone(), *line)), None);
            }
        }
    }

    /// Public fns that set the given fields (`self.f = ..`, `f: ..` in a
    /// fn returning `Self`): the knobs a user turns.
    fn setter_facts(&self, b: &mut Builder, fields: &[String], only_ty: Option<&str>) {
        if fields.is_empty() {
            return;
        }
        let mut setters = Vec::new();
        for (gi, g) in self.symbols.fns.iter().enumerate() {
            if g.is_test || !g.is_pub || setters.len() == 6 {
                continue;
            }
            if let Some(ty) = only_ty {
                if !matches!(&g.owner, Owner::Impl { ty: t, of_trait: None } if t == ty) {
                    continue;
                }
            }
            let sets = sets_field(g, fields) || {
                // `Self::helper(..)` that sets it.
                g.signature.contains("-> Self")
                    && self.calls_in_fn[gi].iter().any(|&ci| {
                        let c = &self.symbols.calls[ci];
                        self.namesakes(&c.name).into_iter().any(|h| {
                            let h = &self.symbols.fns[h];
                            !std::ptr::eq(h, g) && sets_field(h, fields)
                        })
                    })
            };
            if sets && !setters.contains(&g.qualified()) {
                setters.push(g.qualified());
            }
        }
        if setters.is_empty() || b.seen(&format!("setters:{}", fields.join(","))) {
            return;
        }
        b.push(
            FactKind::Alternative,
            format!(
                "{} set {}, which the condition checks: call them first, or change the value they set, so it holds.",
                setters
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                fields
                    .iter()
                    .map(|x| format!("`{x}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None,
            None,
        );
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
/// Whether `receiver` computes a float arithmetic result: a binary `+ - * /
/// %`, a call of `add`/`sub`/`mul`/`div`/`rem`, or a `macro_rules!`
/// metavariable method (`.$method(..)`) whose invocations, as listed in the
/// macro fact already gathered, bind one of those methods.
fn float_arithmetic(receiver: &str, facts: &[Fact]) -> bool {
    const METHODS: [&str; 5] = ["add", "sub", "mul", "div", "rem"];
    if [" + ", " - ", " * ", " / ", " % "]
        .iter()
        .any(|op| receiver.contains(op))
        || METHODS.iter().any(|m| receiver.contains(&format!(".{m}(")))
    {
        return true;
    }
    receiver.contains(".$")
        && facts.iter().any(|f| {
            f.kind == FactKind::Mechanism
                && f.text.contains("macro_rules!")
                && METHODS.iter().any(|m| f.text.contains(&format!(", {m},")))
        })
}

/// The line of a `.zip(` in `caller` before `call_line`, when `cond` (the
/// guard of the call) compares a count: `a < b`, `a != b`, `a == b`, `a > b`
/// (not a boolean test or a pattern).
fn zip_before_count_check(caller: &FnDef, cond: &str, call_line: u32) -> Option<u32> {
    let compares = [" < ", " > ", " != ", " == ", " <= ", " >= "]
        .iter()
        .any(|op| cond.contains(op));
    if !compares {
        return None;
    }
    (caller.lines.0..)
        .zip(caller.text.lines())
        .take_while(|(line, _)| *line < call_line)
        .find(|(_, text)| text.split("//").next().unwrap_or("").contains(".zip("))
        .map(|(line, _)| line)
}

fn guard_text(g: &Guard) -> String {
    match g {
        Guard::If(c) => format!("It runs only when `{c}` is true."),
        Guard::Else(c) => format!("It runs only when `{c}` is false (the `else` branch)."),
        Guard::IfLet { pattern, value } => {
            format!("It runs only when `{value}` matches `{pattern}`.")
        }
        Guard::Arm {
            pattern,
            value,
            unless: Some(u),
        } => {
            format!("It runs when `{value}` matches the arm `{pattern}` and `{u}` is false (an earlier arm takes that case when `{u}` holds).")
        }
        Guard::Arm { pattern, value, .. } if value.is_empty() => {
            format!("It runs in the match arm `{pattern}`.")
        }
        Guard::Arm { pattern, value, .. } => {
            format!("It runs when `{value}` matches the arm `{pattern}`.")
        }
        Guard::ElseLet { pattern, value } => {
            format!(
                "It runs only when `{value}` does not match `{pattern}` (the `else` of `if let`)."
            )
        }
        Guard::Fallback { value, method } => {
            let case = match method.as_str() {
                "ok_or_else" | "ok_or" => "is `None`",
                "map_err" | "or_else" => "is an `Err`",
                _ => "has no value",
            };
            // A lookup miss: `map.get(key)`.
            let miss = value
                .strip_suffix(')')
                .and_then(|v| v.rsplit_once(".get("))
                .map(|(map, key)| {
                    let map = map.rsplit('.').next().unwrap_or(map);
                    format!(": `{key}` is not in the {map}")
                })
                .unwrap_or_default();
            format!("It runs when `{value}` {case}{miss} (the closure of `.{method}`).")
        }
        Guard::While(c) => format!("It runs inside the loop `while {c}`: only while `{c}` holds."),
        Guard::EarlyReturn(c) => {
            format!("It runs only when `{c}` is false (the fn returns early when it is true).")
        }
        Guard::LetElse { pattern, value } => {
            format!("It runs when `{value}` does not match `{pattern}` (`let … else`).")
        }
    }
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
            let (_, inner) = error.item_path.split_once('<')?;
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
        // The same sentence twice (two sites in one macro) says nothing new.
        let placed = matches!(
            kind,
            FactKind::Constructor | FactKind::Guard | FactKind::Caller
        );
        if !placed && self.facts.iter().any(|f| f.kind == kind && f.text == text) {
            return;
        }
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

/// A fn a call may name: a fn of the snapshot, or one a `macro_rules!`
/// invocation generates from it.
#[derive(Debug, Clone)]
struct Target {
    #[allow(dead_code)]
    fi: usize,
    name: String,
    ty: Option<String>,
    of_trait: Option<String>,
    default_of: Option<String>,
    /// The invocation that generates it.
    generated_at: Option<(String, u32)>,
}

/// A macro invocation and its metavariables' values.
struct Expansion<'a> {
    call: &'a syntax::MacroCall,
    bindings: Vec<(String, String)>,
}

/// The last path segment of a type, without generics or references.
fn last_segment_of(ty: &str) -> String {
    let t = ty.trim_start_matches(['&', ' ']).trim_start_matches("mut ");
    let t = t.split('<').next().unwrap_or(t);
    t.rsplit("::").next().unwrap_or(t).trim().to_string()
}

/// `$name` replaced by its value.
fn expand_text(s: &str, bindings: &[(String, String)]) -> String {
    let mut out = s.to_string();
    // Longest names first (`$a` must not eat `$ab`).
    let mut b: Vec<&(String, String)> = bindings.iter().collect();
    b.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
    for (n, v) in b {
        out = out.replace(&format!("${n}"), v);
    }
    out
}

/// One piece of a macro matcher.
#[derive(Debug, PartialEq)]
enum MatchPiece {
    Var(String),
    Lit(String),
}

/// Binds a `macro_rules!` matcher without repetitions to an invocation's
/// arguments: each `$name:frag` takes the text up to the next literal token
/// at the top level. `None` when the matcher has repetitions or the
/// literals do not match.
fn bind(matcher: &str, args: &str) -> Option<Vec<(String, String)>> {
    if matcher.contains("$(") {
        return None;
    }
    let mut pieces = Vec::new();
    let mut rest = matcher.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('$') {
            let name_end = r
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            let name = &r[..name_end];
            let r = r[name_end..].trim_start();
            let r = match r.strip_prefix(':') {
                Some(r) => {
                    let r = r.trim_start();
                    let e = r
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(r.len());
                    &r[e..]
                }
                None => r,
            };
            pieces.push(MatchPiece::Var(name.to_string()));
            rest = r.trim_start();
        } else {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '$')
                .unwrap_or(rest.len())
                .max(1);
            let end = (1..=end).rev().find(|&e| rest.is_char_boundary(e))?;
            pieces.push(MatchPiece::Lit(rest[..end].to_string()));
            rest = rest[end..].trim_start();
        }
    }
    let mut out = Vec::new();
    let mut a = args.trim();
    for (i, p) in pieces.iter().enumerate() {
        match p {
            MatchPiece::Lit(l) => {
                a = a.strip_prefix(l.as_str())?.trim_start();
            }
            MatchPiece::Var(name) => {
                let end = match pieces.get(i + 1) {
                    Some(MatchPiece::Lit(l)) => top_level_find(a, l)?,
                    Some(MatchPiece::Var(_)) => a.find(char::is_whitespace).unwrap_or(a.len()),
                    None => a.len(),
                };
                let v = a[..end].trim();
                if v.is_empty() {
                    return None;
                }
                out.push((name.clone(), v.to_string()));
                a = a[end..].trim_start();
            }
        }
    }
    a.is_empty().then_some(out)
}

/// The first occurrence of `needle` outside brackets and strings.
fn top_level_find(s: &str, needle: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut in_str = false;
    let mut prev = '\0';
    for (i, c) in s.char_indices() {
        if !in_str && depth == 0 && s[i..].starts_with(needle) {
            return Some(i);
        }
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => depth += 1,
            ')' | ']' | '}' if !in_str => depth -= 1,
            _ => {}
        }
        prev = c;
    }
    None
}

/// True when `text` holds `word` as a whole identifier.
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// How a user reaches a method of a standard (or serde) trait impl without
/// calling it by name.
fn implicit_call(tr: &str, method: &str, ty: &str) -> Option<String> {
    let op = |sym: &str| format!("the `{sym}` operator on a `{ty}` (`{tr}::{method}`)");
    Some(match tr {
        "Drop" => format!(
            "dropping a `{ty}`: its destructor (`impl Drop for {ty}`) runs when the value goes out of scope or is dropped"
        ),
        "Iterator" if method == "next" => format!(
            "iterating a `{ty}` (`for` loops, `.next()`, and every adapter or consumer that pulls items)"
        ),
        "Iterator" | "DoubleEndedIterator" | "ExactSizeIterator" => {
            format!("calling `.{method}()` on a `{ty}` iterator")
        }
        "FromIterator" => format!("`.collect()` into a `{ty}` (`FromIterator::from_iter`)"),
        "Extend" => format!("`.extend(..)` on a `{ty}`"),
        "IntoIterator" => format!("a `for` loop over a `{ty}` (`.into_iter()`)"),
        "Index" | "IndexMut" => format!("indexing a `{ty}` (`value[index]`)"),
        "Add" => op("+"),
        "Sub" => op("-"),
        "Mul" => op("*"),
        "Div" => op("/"),
        "Rem" => op("%"),
        "Neg" => op("unary -"),
        "Not" => op("!"),
        "BitAnd" => op("&"),
        "BitOr" => op("|"),
        "BitXor" => op("^"),
        "Shl" => op("<<"),
        "Shr" => op(">>"),
        "AddAssign" => op("+="),
        "SubAssign" => op("-="),
        "MulAssign" => op("*="),
        "DivAssign" => op("/="),
        "RemAssign" => op("%="),
        "Display" => format!("formatting a `{ty}` with `{{}}` or `.to_string()`"),
        "Debug" => format!("formatting a `{ty}` with `{{:?}}`"),
        "From" => format!("`{ty}::from(..)` or `.into()`"),
        "TryFrom" => format!("`{ty}::try_from(..)` or `.try_into()`"),
        "FromStr" => format!("`.parse::<{ty}>()` or `{ty}::from_str(..)`"),
        "Deref" | "DerefMut" => format!(
            "dereferencing a `{ty}` (`*value`, and every method called through it by auto-deref)"
        ),
        "Clone" => format!("`.clone()` on a `{ty}`"),
        "Default" => format!("`{ty}::default()`"),
        "PartialEq" | "Eq" => format!("comparing `{ty}` values with `==`"),
        "PartialOrd" | "Ord" => format!("comparing or sorting `{ty}` values (`<`, `.cmp()`, `sort`)"),
        "Hash" => format!("hashing a `{ty}` (a `HashMap` key)"),
        "Deserialize" => format!("deserializing a `{ty}` (`from_str`, `from_slice` of any serde format)"),
        "Serialize" => format!("serializing a `{ty}` (`to_string` of any serde format)"),
        "Future" => format!("`.await`ing a `{ty}`"),
        "Write" if method == "write_fmt" => format!("`write!` into a `{ty}`"),
        _ => return None,
    })
}

/// The Cargo features a `cfg` condition names.
fn features_in(cfg: &str) -> Vec<String> {
    cfg.match_indices("feature")
        .filter_map(|(i, _)| {
            let r = cfg[i + 7..].trim_start().strip_prefix('=')?.trim_start();
            let r = r.strip_prefix('"')?;
            Some(r[..r.find('"')?].to_string())
        })
        .collect()
}

/// The module a file is (`src/a/b.rs` → `b`, `src/a/mod.rs` → `a`).
fn module_of_path(path: &str) -> Option<String> {
    let stem = path.strip_suffix(".rs")?;
    let (dir, file) = stem.rsplit_once('/').unwrap_or(("", stem));
    match file {
        "lib" | "main" => None,
        "mod" => Some(dir.rsplit('/').next().unwrap_or(dir).to_string()),
        _ => Some(file.to_string()),
    }
}

/// Whether a std method returns an `Option` (`Some(true)`) or a `Result`
/// (`Some(false)`), for the common ones; `None` when unknown.
fn std_returns_option(method: &str) -> Option<bool> {
    if method.starts_with("checked_") || (method.starts_with("try_") && method.ends_with("_opt")) {
        return Some(true);
    }
    match method {
        "get" | "get_mut" | "first" | "last" | "first_mut" | "last_mut" | "next" | "next_back"
        | "pop" | "pop_front" | "pop_back" | "find" | "position" | "rposition" | "peek" | "max"
        | "min" | "max_by_key" | "min_by_key" | "var_os" | "as_ref" | "as_mut" | "take"
        | "upgrade" | "parent" | "file_name" | "extension" | "to_str" | "nth" | "strip_prefix"
        | "strip_suffix" | "split_once" | "rsplit_once" | "char_indices" | "chars" | "iter"
        | "remove_entry" | "get_key_value" | "find_map" | "last_key_value" | "first_key_value" => {
            Some(true)
        }
        "parse" | "try_from" | "try_into" | "var" | "lock" | "read" | "write" | "join" | "recv"
        | "send" | "try_recv" | "from_utf8" | "read_to_string" | "open" | "create" | "metadata"
        | "canonicalize" | "try_lock" | "into_inner" | "binary_search" => Some(false),
        _ => None,
    }
}

/// The negation of a simple comparison (`a < b` → `a >= b`).
fn negate(cond: &str) -> Option<String> {
    for (op, neg) in [
        (" <= ", " > "),
        (" >= ", " < "),
        (" == ", " != "),
        (" != ", " == "),
        (" < ", " >= "),
        (" > ", " <= "),
    ] {
        let parts: Vec<&str> = cond.split(op).collect();
        if parts.len() == 2 && !cond.contains("&&") && !cond.contains("||") {
            return Some(format!("{}{neg}{}", parts[0], parts[1]));
        }
    }
    None
}

/// The fields read as `self.x` in a text.
fn self_fields(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, _) in text.match_indices("self.") {
        let r = &text[i + 5..];
        let e = r
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        let f = &r[..e];
        // A method call is not a field.
        if !f.is_empty() && !r[e..].starts_with('(') && !out.iter().any(|x| x == f) {
            out.push(f.to_string());
        }
        // The last field of a chain (`self.state.config.flag`).
        let chain: String = r
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let tail_end = i + 5 + chain.len();
        if let Some(last) = chain.rsplit('.').next() {
            if !last.is_empty()
                && last != f
                && !text[tail_end..].starts_with('(')
                && !out.iter().any(|x| x == last)
            {
                out.push(last.to_string());
            }
        }
    }
    out
}

/// The first paragraph of the `///` doc comment right above line `at`
/// (1-based) of `text`.
fn doc_above(text: &str, at: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut i = at.checked_sub(1)?;
    let mut docs = Vec::new();
    while i > 0 {
        i -= 1;
        let t = lines.get(i)?.trim();
        if let Some(d) = t.strip_prefix("///") {
            docs.push(d.trim().to_string());
        } else if t.starts_with("#[") {
            continue;
        } else {
            break;
        }
    }
    docs.reverse();
    let para: Vec<String> = docs
        .into_iter()
        .skip_while(|d| d.is_empty())
        .take_while(|d| !d.is_empty())
        .collect();
    let joined = para.join(" ");
    (!joined.is_empty()).then(|| joined.chars().take(400).collect())
}

/// True when a fn sets one of the fields (`self.f = ..`, `f: ..` in a fn
/// returning `Self`).
fn sets_field(g: &FnDef, fields: &[String]) -> bool {
    let compact: String = g.text.split_whitespace().collect();
    fields.iter().any(|x| {
        compact.contains(&format!("self.{x}="))
            || compact.contains(&format!("self.{x}+="))
            || compact.contains(&format!(".{x}=Some("))
            || compact.contains(&format!(".{x}=None"))
            || ((compact.contains(&format!("{x}:")) || compact.contains(&format!("{x},")))
                && g.signature.contains("-> Self"))
    })
}

/// False when one fn is compiled only where the other is not (`x` against
/// `not(x)`).
fn gates_compatible(a: &[String], b: &[String]) -> bool {
    !a.iter().any(|g| {
        b.iter()
            .any(|h| *h == format!("not({g})") || *g == format!("not({h})"))
    })
}
