//! Facts about an error, from the snapshot's code and the catalogue.
//!
//! [`Analyzer`] parses a snapshot once; [`Analyzer::facts`] gathers an
//! error's facts site by site through the submodules, each adding one
//! kind of fact to a [`Builder`]: the call graph ([`callgraph`]) answers
//! who calls what, and the others read it — callers and public entries,
//! mechanisms, receivers and guards, constructors, the catalogue's
//! evidence, related errors and history.

mod callers;
mod callgraph;
mod configs;
mod constructors;
mod defaults;
mod docs;
mod evidence;
mod generated;
mod mechanisms;
mod python;
mod receivers;
mod related;
mod surface;
mod values;

use crate::{Detail, DocHeading, Fact, FactKind, Holds, Via};
use callgraph::*;
use configs::*;
use constructors::*;
use docs::*;
use errdex_catalog::{ErrorDetail, ErrorSummary, SiteRow, SnapshotRow};
use errdex_model::{EvidenceKind, Kind, Origin, SourceFile};
use errdex_syntax::items::{self as syntax, Call, Callee, FnDef, Guard, Owner, Symbols};
use evidence::*;
use mechanisms::*;
use receivers::*;
use related::*;
use std::collections::{HashMap, HashSet, VecDeque};
use values::*;

/// Sites of one error looked at (the first ones, library code first).
const MAX_SITES: usize = 3;
/// Callers listed.
const MAX_CALLERS: usize = 8;
/// Public fns listed.
const MAX_ENTRIES: usize = 6;
/// Calls followed back from the site to find public fns.
const MAX_HOPS: usize = 5;
/// Guards stated along the paths from the public API (beyond the direct
/// callers).
const MAX_PATH_GUARDS: usize = 4;
/// Fallible calls at the callers traced to where they fail.
const MAX_TRACED: usize = 3;
/// Constructions listed.
const MAX_CONSTRUCTORS: usize = 8;
/// Calls on the path whose `Err` a caller turns into a panic, stated.
const MAX_PANICKING: usize = 3;
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
    /// The distinct library fns of each name (see [`Analyzer::namesakes`]).
    namesakes: HashMap<String, Vec<usize>>,
    /// Call indices by the called name, ascending.
    calls_by_name: HashMap<String, Vec<usize>>,
    /// Call indices made by each fn (indexed like `symbols.fns`), ascending.
    calls_in_fn: Vec<Vec<usize>>,
    /// Every identifier token of the snapshot's files.
    identifiers: HashSet<String>,
    /// Every fn name.
    fn_names: HashSet<String>,
    /// Every `const`/`static` item.
    consts: Vec<ConstDef>,
    /// The declared type of each struct field, by (struct, field).
    field_types: HashMap<(String, String), String>,
    /// The declared type of each field name, when every struct declaring a
    /// field of that name gives it the same type (`None` otherwise).
    field_type_by_name: HashMap<String, Option<String>>,
    /// The types with an `impl` block in the snapshot.
    impl_types: HashSet<String>,
    /// The inline `mod m { .. }` of each file: name, first and last line.
    inline_mods: HashMap<String, Vec<(String, u32, u32)>>,
    /// The statics declared in `thread_local!`: name, file, line.
    thread_locals: Vec<(String, String, u32)>,
    /// The `struct`/`enum`/`union`/`trait` declarations of library files
    /// by name, in path order.
    type_decls: HashMap<String, Vec<TypeDecl>>,
    /// The `pub type NAME = …;` aliases of library files, in path order.
    type_aliases: Vec<TypeAlias>,
    /// The snapshot's Python code, when it has some.
    python: Option<errdex_lang_python::code::Code>,
}

impl Analyzer {
    /// Parses the snapshot's files; `errors` are the snapshot's errors
    /// (for related errors).
    pub fn new(snapshot: SnapshotRow, files: Vec<SourceFile>, errors: Vec<ErrorSummary>) -> Self {
        let (py, files): (Vec<SourceFile>, Vec<SourceFile>) =
            files.into_iter().partition(|f| f.path.ends_with(".py"));
        let python = (!py.is_empty()).then(|| errdex_lang_python::code::Code::read(&py));
        let (parsed, symbols) = syntax::symbols(files);
        let files: HashMap<String, syntax::ParsedFile> = parsed
            .into_iter()
            .map(|p| (p.file.path.clone(), p))
            .collect();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, f) in symbols.fns.iter().enumerate() {
            by_name.entry(f.name.clone()).or_default().push(i);
        }
        let namesakes = by_name
            .iter()
            .map(|(name, fns)| {
                // A fn written twice under exclusive `cfg`s in one file
                // counts once.
                let mut seen = HashSet::new();
                let distinct = fns
                    .iter()
                    .copied()
                    .filter(|&i| {
                        let f = &symbols.fns[i];
                        !f.is_test && seen.insert((f.path.as_str(), f.qualified()))
                    })
                    .collect();
                (name.clone(), distinct)
            })
            .collect();
        let mut identifiers = HashSet::new();
        for p in files.values() {
            for t in &p.trees {
                syntax::code_identifiers(t, &p.file.text, &mut identifiers);
            }
        }
        let fn_names = by_name.keys().cloned().collect();
        let mut consts = Vec::new();
        let mut field_types = HashMap::new();
        let mut inline = HashMap::new();
        let mut paths: Vec<&String> = files.keys().collect();
        paths.sort();
        let mut thread_locals = Vec::new();
        let mut type_decls: HashMap<String, Vec<TypeDecl>> = HashMap::new();
        let mut type_aliases = Vec::new();
        // In path order: what is read here is listed and chosen in this
        // order (a const defined per `cfg`, a field declared twice), so
        // that every run states the same.
        for path in paths {
            let text = &files[path].file.text;
            consts.extend(const_defs(path, text));
            if !errdex_syntax::is_test_or_example_path(path) {
                for (name, decl) in type_declarations(path, text) {
                    type_decls.entry(name).or_default().push(decl);
                }
                type_aliases.extend(public_type_aliases(path, text));
                for (st, field, ty) in struct_fields(text) {
                    field_types.insert((st, field), ty);
                }
            }
            thread_locals.extend(
                thread_local_statics(text)
                    .into_iter()
                    .map(|(n, l)| (n, path.clone(), l)),
            );
            inline.insert(path.clone(), inline_mods(text));
        }
        let mut field_type_by_name: HashMap<String, Option<String>> = HashMap::new();
        for ((_, field), ty) in &field_types {
            field_type_by_name
                .entry(field.clone())
                .and_modify(|t| {
                    if t.as_deref() != Some(ty.as_str()) {
                        *t = None;
                    }
                })
                .or_insert_with(|| Some(ty.clone()));
        }
        let impl_types = symbols
            .fns
            .iter()
            .filter_map(|f| match &f.owner {
                Owner::Impl { ty, .. } => Some(ty.clone()),
                _ => None,
            })
            .collect();
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
            namesakes,
            calls_by_name,
            calls_in_fn,
            identifiers,
            fn_names,
            consts,
            field_types,
            field_type_by_name,
            impl_types,
            inline_mods: inline,
            thread_locals,
            type_decls,
            type_aliases,
            python,
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
        let in_python = error
            .sites
            .iter()
            .any(|s| s.snapshot_id == self.snapshot.id && s.path.ends_with(".py"));
        if let Some(code) = self.python.as_ref().filter(|_| in_python) {
            return self.python_facts(code, error);
        }
        let mut b = Builder {
            returned: matches!(
                error.kind,
                Kind::ErrReturn
                    | Kind::Bail
                    | Kind::Ensure
                    | Kind::Anyhow
                    | Kind::ErrorNew
                    | Kind::IoError
                    | Kind::MapErr
                    | Kind::OkOr
                    | Kind::SerdeCustom
                    | Kind::Context
            ),
            ..Builder::default()
        };
        let sites = self.sites_looked_at(error);

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
        self.doc_comment_facts(&mut b, &throwers, &error.template);
        self.constructor_facts(&mut b, error, &throwers);
        self.value_facts(&mut b);
        self.test_facts(&mut b, error, &sites, &throwers);
        self.related_facts(&mut b, error);
        history_facts(&mut b, error);
        b.facts
    }

    /// The error's sites in this snapshot looked at: the first
    /// [`MAX_SITES`], library code first.
    fn sites_looked_at<'e>(&self, error: &'e ErrorDetail) -> Vec<&'e SiteRow> {
        let mut sites: Vec<&SiteRow> = error
            .sites
            .iter()
            .filter(|s| s.snapshot_id == self.snapshot.id)
            .collect();
        sites.sort_by_key(|s| (s.is_test, s.path.clone(), s.line));
        sites.truncate(MAX_SITES);
        sites
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
                // A method a macro generates in `impl Trait for $T` is
                // `Trait::f`, public when the trait is.
                let generated_pub = self
                    .generated(fi)
                    .and_then(|g| g.of_trait)
                    .is_some_and(|tr| self.is_pub_trait(&tr));
                let public = f.is_pub || generated_pub;
                let name = self.user_name(fi);
                b.push_detailed(
                    FactKind::Item,
                    format!(
                        "It is raised in {}`{name}`: `{}`.",
                        if public { "the public fn " } else { "" },
                        f.signature
                    ),
                    Some((f.path.clone(), f.lines.0)),
                    Detail::Thrower {
                        name: name.clone(),
                        signature: f.signature.clone(),
                        public,
                    },
                );
                if let Some((outer, name)) = &f.nested_in {
                    let o = &self.symbols.fns[*outer];
                    let what = match &o.owner {
                        Owner::TraitDefault(t) => format!(
                            ", a default method of the trait `{t}` (a provided method, which every implementer inherits unless it overrides it)"
                        ),
                        Owner::Impl { of_trait: Some(t), ty } => {
                            format!(", the impl of the trait `{t}` for `{ty}`")
                        }
                        _ => String::new(),
                    };
                    b.push(
                        FactKind::Mechanism,
                        format!(
                            "`{}` is declared inside `{name}`{what}: only `{name}` calls it.",
                            f.name
                        ),
                        Some((o.path.clone(), o.lines.0)),
                        None,
                    );
                }
                self.sentinel_facts(b, error, f, s);
                self.mechanism_facts(b, error, fi, s);
                self.generated_facts(b, fi);
                self.cfg_sibling_facts(b, fi);
                self.gated_check_before_facts(b, fi, s.line);
                self.fn_local_type_fact(b, fi);
                if error.kind.panics() {
                    self.sibling_maker_facts(b, fi);
                }
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
        self.gated_macro_facts(b, s);
        self.gated_macro_body_facts(b, s);
        let Some(pf) = self.files.get(&s.path) else {
            return;
        };
        let file = &pf.file;
        if error.kind != Kind::ErrorAttr {
            let guards = pf
                .tree_at(s.line, s.column)
                .map(|t| syntax::guards_at(t, &file.text, s.line, s.column))
                .unwrap_or_default();
            for (gi, g) in guards.into_iter().enumerate() {
                let text = guard_text(&g);
                if !b.seen(&text) {
                    b.push(FactKind::Guard, text.clone(), here.clone(), None);
                }
                if error.kind == Kind::CompileError {
                    self.feature_fix_fact(b, &g, here.clone());
                }
                self.field_writer_facts(b, &text);
                if let Guard::Arm {
                    pattern,
                    value,
                    earlier,
                    ..
                } = &g
                {
                    let self_ty = self.enclosing_fn(&s.path, s.line).and_then(|fi| {
                        match &self.symbols.fns[fi].owner {
                            Owner::Impl { ty, .. } => Some(ty.as_str()),
                            _ => None,
                        }
                    });
                    self.arm_failure_facts(b, value, pattern, earlier, self_ty);
                }
                if let Some(fi) = self.enclosing_fn(&s.path, s.line) {
                    self.taken_callable_fact(b, fi, &g, (s.path.clone(), s.line));
                    // Only for an error handed back: a panic under the
                    // same condition is no report of a short buffer.
                    if gi == 0 && b.returned {
                        self.exhausted_slice_fact(b, fi, &g, (s.path.clone(), s.line));
                    }
                }
            }
            if let Some(fi) = self.enclosing_fn(&s.path, s.line) {
                self.default_result_facts(b, fi, &s.path, s.line);
            }
            self.wrapping_macro_facts(b, &s.path, s.line);
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
                if let (Some(c), Some(fi)) =
                    (&parts.first_argument, self.enclosing_fn(&s.path, s.line))
                {
                    self.checked_use_facts(b, fi, c, s.end_line);
                    if error.kind.panics() {
                        self.receiver_precondition_facts(b, fi, c);
                    }
                }
                if let Some(c) = parts.first_argument {
                    let partial = self
                        .enclosing_fn(&s.path, s.line)
                        .and_then(|fi| self.partial_order(fi, &c));
                    let nan = if partial.is_some() {
                        " or either side is NaN"
                    } else {
                        ""
                    };
                    b.push_detailed(
                        FactKind::Assertion,
                        match negate(&c) {
                            Some(n) => format!("It fires when the asserted condition `{c}` is false, that is when `{n}`{nan}."),
                            None => format!("It fires when the asserted condition `{c}` is false."),
                        },
                        here.clone(),
                        Detail::Assertion { condition: c.clone() },
                    );
                    if let Some(why) = partial {
                        b.push(
                            FactKind::Mechanism,
                            format!(
                                "`{c}` compares values that are only partially ordered ({why}): a NaN compares false with everything, so the assertion also fails when a side is NaN; check the values (`is_nan()`) or order the bounds before the call."
                            ),
                            here.clone(),
                            None,
                        );
                    }
                }
            }
            Kind::AssertEq | Kind::AssertNe => {
                if let Some(c) = parts.first_argument {
                    b.push_detailed(
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
                        Detail::Assertion {
                            condition: c.clone(),
                        },
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
                    let (holds, case) = match (error.kind, error.template.as_str(), is_option) {
                        (Kind::ExpectErr | Kind::UnwrapErr, _, _) => (Holds::Ok, "an `Ok` value"),
                        (_, _, Some(true)) => (Holds::None, "`None` (it is an `Option`)"),
                        (_, _, Some(false)) => (Holds::Err, "an `Err` (it is a `Result`)"),
                        (_, t, _) if t.contains("`Option::unwrap()`") => (Holds::None, "`None`"),
                        (_, t, _) if t.contains("`Result::unwrap()`") => {
                            (Holds::Err, "an `Err` value")
                        }
                        _ => (Holds::Unknown, "without a value to take"),
                    };
                    b.push_detailed(
                        FactKind::Receiver,
                        format!("It fires when `{r}` is {case}."),
                        here.clone(),
                        Detail::Receiver {
                            expr: r.clone(),
                            holds,
                        },
                    );
                    for f in sub.facts {
                        b.adopt(f.kind, f);
                    }
                }
            }
            _ => {}
        }
    }

    /// A build error under a Cargo feature's `cfg` (`compile_error!` in the
    /// `else` of `cfg(feature = "wasm_js")`): what the user writes in their
    /// own `Cargo.toml` to turn the feature on, or to find who turns it on —
    /// also when the crate comes in through another crate, as features of
    /// one version of a crate are unified across the build.
    fn feature_fix_fact(&self, b: &mut Builder, g: &Guard, here: Option<(String, u32)>) {
        let (cond, missing) = match g {
            Guard::Else(c) => (c, true),
            Guard::If(c) => (c, false),
            _ => return,
        };
        let cond = cond.trim_start_matches('#').trim_start_matches('[');
        let Some(inner) = cond
            .strip_prefix("cfg(")
            .and_then(|c| c.trim_end_matches(']').strip_suffix(')'))
        else {
            return;
        };
        let (inner, missing) = match inner.strip_prefix("not(").and_then(|c| c.strip_suffix(')')) {
            Some(i) => (i, !missing),
            None => (inner, missing),
        };
        // The condition is one feature, nothing else (`all(..)`/`any(..)`
        // say more than one switch can).
        let features = mechanisms::features_in(inner);
        let [feature] = features.as_slice() else {
            return;
        };
        if !inner.trim().starts_with("feature")
            || !feature
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return;
        }
        // `crate:NAME`, or a checkout named after its folder.
        let repo = &self.snapshot.repo;
        let name = repo
            .strip_prefix("crate:")
            .unwrap_or_else(|| repo.rsplit(['/', ':']).next().unwrap_or(repo));
        if name.is_empty() {
            return;
        }
        let revision = &self.snapshot.revision;
        let semver = revision.split(['-', '+']).next().is_some_and(|v| {
            v.split('.').count() == 3 && v.split('.').all(|n| n.parse::<u64>().is_ok())
        });
        let version = if semver { revision.as_str() } else { "*" };
        let text = if missing {
            format!(
                "The build fails unless the Cargo feature `{feature}` of `{name}` is on: add `{name} = {{ version = \"{version}\", features = [\"{feature}\"] }}` to your `Cargo.toml`. When `{name}` comes in through another crate (`cargo tree -i {name}` shows which), this direct dependency turns the feature on for it too: Cargo unifies the features of one version of a crate across the build."
            )
        } else {
            format!(
                "The build fails when the Cargo feature `{feature}` of `{name}` is on: `cargo tree -e features -i {name}` shows which crate turns it on; turn it off there (`default-features = false` or without `\"{feature}\"` in its `features`)."
            )
        };
        if !b.seen(&text) {
            b.push(FactKind::Alternative, text, here, None);
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
        } else if error.kind == Kind::Panic && f.body_is_one_macro {
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
}

fn last(path: &str) -> String {
    path.rsplit("::").next().unwrap_or(path).to_string()
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
    /// The error is a value returned to callers (not a panic): a caller
    /// may still turn it into a panic.
    returned: bool,
}

impl Builder {
    /// Pushes a fact with what it states as data.
    fn push_detailed(
        &mut self,
        kind: FactKind,
        text: String,
        at: Option<(String, u32)>,
        detail: Detail,
    ) {
        let before = self.facts.len();
        self.push(kind, text, at, None);
        if self.facts.len() > before {
            if let Some(f) = self.facts.last_mut() {
                f.detail = Some(detail);
            }
        }
    }

    /// Takes a fact gathered by another builder (`kind` may recast it),
    /// unless its sentence was seen; its id is this builder's.
    fn adopt(&mut self, kind: FactKind, f: Fact) {
        if self.seen(&f.text) {
            return;
        }
        let before = self.facts.len();
        self.push(kind, f.text, f.path.zip(f.line), f.code);
        if self.facts.len() > before {
            if let Some(last) = self.facts.last_mut() {
                last.detail = f.detail;
            }
        }
    }

    /// Takes the facts gathered on a fn whose failure a caller falls back
    /// from: what fails in it is a failure here, not this site's receiver.
    fn adopt_failures(&mut self, sub: Builder) {
        for f in sub.facts {
            let kind = match f.kind {
                FactKind::Receiver => FactKind::Failure,
                k => k,
            };
            self.adopt(kind, f);
        }
    }

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
            detail: None,
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

/// True when `text` holds `word` as a whole identifier.
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Items in backticks, joined by `sep` (`` `a`, `b` ``).
fn ticked<T: std::fmt::Display>(items: impl IntoIterator<Item = T>, sep: &str) -> String {
    items
        .into_iter()
        .map(|x| format!("`{x}`"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Conditions as a page writes them: `` `cfg(a)` and `cfg(b)` ``.
fn cfg_list<T: std::fmt::Display>(gates: impl IntoIterator<Item = T>) -> String {
    gates
        .into_iter()
        .map(|g| format!("`cfg({g})`"))
        .collect::<Vec<_>>()
        .join(" and ")
}
