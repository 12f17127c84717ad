//! How the site works: attributes, `cfg` gates, `debug_assert!`,
//! compile-time evaluation, `macro_rules!` expansion, `const` messages,
//! trait impls a user reaches implicitly.

use super::*;

/// How a user reaches a method of a standard (or serde) trait impl without
/// calling it by name.
pub(super) fn implicit_call(tr: &str, method: &str, ty: &str) -> Option<String> {
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
        // A serde data format: a derived `Deserialize` asks for these.
        "Deserializer" if method == "deserialize_any" => format!(
            "a `Deserialize` impl asking the `{ty}` to describe the input itself (`deserialize_any`): serde's derives do so for `#[serde(untagged)]` and internally tagged (`#[serde(tag = \"..\")]`) enums and `#[serde(flatten)]` fields, and types such as `serde_json::Value` always do; a format that is not self-describing cannot answer it, and serves externally tagged enums and concrete field types instead"
        ),
        "Deserializer" if method == "deserialize_identifier" => format!(
            "a `Deserialize` impl asking the `{ty}` for a field or variant name (`deserialize_identifier`), as derived impls do when the input names its fields (a map, a self-describing format)"
        ),
        "Deserializer" if method == "deserialize_ignored_any" => format!(
            "a `Deserialize` impl skipping, in a `{ty}`, a value it has no field for (`deserialize_ignored_any`): an unknown field or variant in the input"
        ),
        "Service" if method == "call" => {
            format!("calling a `{ty}` through the `Service` trait (`Service::call`)")
        }
        _ => return None,
    })
}

/// The Cargo features a `cfg` condition names.
pub(super) fn features_in(cfg: &str) -> Vec<String> {
    cfg.match_indices("feature")
        .filter_map(|(i, _)| {
            let r = cfg[i + 7..].trim_start().strip_prefix('=')?.trim_start();
            let r = r.strip_prefix('"')?;
            Some(r[..r.find('"')?].to_string())
        })
        .collect()
}

/// The Cargo features `gates` name: the sentence a fact about gated code
/// ends with, and the same as data.
pub(super) fn feature_gates<S: AsRef<str>>(gates: &[S]) -> Option<(String, Detail)> {
    let mut names: Vec<String> = gates.iter().flat_map(|g| features_in(g.as_ref())).collect();
    names.dedup();
    let first = names.first()?;
    let negated = gates
        .iter()
        .any(|g| g.as_ref().contains(&format!("not(feature = \"{first}\")")));
    let sentence = format!(
        " It depends on the Cargo feature(s) {}.",
        ticked(names.iter(), ", ")
    );
    Some((sentence, Detail::Features { names, negated }))
}

/// The module a file is (`src/a/b.rs` → `b`, `src/a/mod.rs` → `a`).
pub(super) fn module_of_path(path: &str) -> Option<String> {
    let stem = path.strip_suffix(".rs")?;
    let (dir, file) = stem.rsplit_once('/').unwrap_or(("", stem));
    match file {
        "lib" | "main" => None,
        "mod" => Some(dir.rsplit('/').next().unwrap_or(dir).to_string()),
        _ => Some(file.to_string()),
    }
}

impl Analyzer {
    /// For a site in the `None` arm of `match x.take()` whose `Some(f)`
    /// arm calls `f`: `take()` empties `x` before `f` runs, so a panic in
    /// `f` leaves it empty and every later call fails here.
    pub(super) fn taken_callable_fact(
        &self,
        b: &mut Builder,
        fi: usize,
        guard: &Guard,
        at: (String, u32),
    ) {
        let Guard::Arm { pattern, value, .. } = guard else {
            return;
        };
        let Some(field) = value.strip_suffix(".take()") else {
            return;
        };
        if pattern != "None" {
            return;
        }
        // The `Some(f) => f(..)` arm of the same `match`.
        let body: String = self.symbols.fns[fi].text.split_whitespace().collect();
        let compact: String = value.split_whitespace().collect();
        let Some(start) = body.find(&format!("match{compact}{{")) else {
            return;
        };
        let arms: String = body[start..].chars().take(300).collect();
        let called = arms.split("Some(").skip(1).find_map(|r| {
            let (name, rest) = r.split_once(")=>")?;
            let rest = rest.trim_start_matches('{');
            (!name.is_empty()
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
                && rest.starts_with(&format!("{name}(")))
            .then(|| name.to_string())
        });
        let Some(f) = called else { return };
        if b.seen(&format!("taken:{value}")) {
            return;
        }
        b.push(
            FactKind::Mechanism,
            format!(
                "`{value}` empties `{field}` before the taken `{f}` runs (`Some({f}) => {f}(..)`): if `{f}` panics, nothing puts it back, so every later call finds `None` and fails here. This error follows an earlier panic in `{f}` (the first panic, caught with `catch_unwind`, or raised in another thread or an earlier test of the same process); look for that first panic."
            ),
            Some(at),
            None,
        );
    }

    /// For a method of a type declared inside a fn body: only that fn
    /// can name the type, so its own uses of the type's values are the
    /// only ways to the method (a crate macro among them is shown expanded).
    pub(super) fn fn_local_type_fact(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        let Some(pf) = self.files.get(&f.path) else {
            return;
        };
        let lines: Vec<&str> = pf.file.text.lines().collect();
        let declares = |l: &str| {
            let t = l.trim_start();
            ["struct ", "enum "].iter().any(|kw| {
                t.strip_prefix(kw).is_some_and(|r| {
                    r.starts_with(ty.as_str())
                        && !r[ty.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
        };
        let Some(decl) = lines.iter().position(|l| declares(l)) else {
            return;
        };
        let decl = decl as u32 + 1;
        // The fn whose body holds the declaration.
        let Some(outer) = self
            .symbols
            .fns
            .iter()
            .filter(|g| {
                g.path == f.path
                    && g.lines.0 < decl
                    && decl <= g.lines.1
                    && !matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty)
            })
            .max_by_key(|g| g.lines.0)
        else {
            return;
        };
        if b.seen(&format!("fnlocal:{ty}")) {
            return;
        }
        // Its values: `static NAME: Ty`, and the lines of the fn (outside
        // the type's own impl) that use them.
        let statics: Vec<String> = (outer.lines.0..=outer.lines.1)
            .filter_map(|ln| lines.get(ln as usize - 1))
            .filter_map(|l| {
                let r = l.trim_start().strip_prefix("static ")?;
                let (name, t) = r.split_once(':')?;
                (t.trim_start().split(['=', ';']).next()?.trim() == ty)
                    .then(|| name.trim().to_string())
            })
            .collect();
        let inner: Vec<(u32, u32)> = self
            .symbols
            .fns
            .iter()
            .filter(|g| {
                matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty) && g.path == f.path
            })
            .map(|g| g.lines)
            .collect();
        let mut uses: Vec<String> = Vec::new();
        for ln in outer.lines.0..=outer.lines.1 {
            if inner.iter().any(|(a, z)| *a <= ln && ln <= *z) {
                continue;
            }
            let Some(l) = lines.get(ln as usize - 1) else {
                continue;
            };
            let t = l.trim();
            if t.starts_with("static ") || !statics.iter().any(|s| mentions(t, s)) {
                continue;
            }
            let mut u = format!("`{}` (line {ln})", t.trim_end_matches([',', ';']));
            for m in &self.symbols.macros {
                if t.contains(&format!("{}!(", m.name)) {
                    if let Some((_, body, _)) = m.rules.first() {
                        let body: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
                        u.push_str(&format!(", where `{}!` expands to `{body}`", m.name));
                    }
                }
            }
            uses.push(u);
        }
        let how = if uses.is_empty() {
            "no value of it leaves that fn".to_string()
        } else {
            format!("its values are used only at {}", uses.join("; "))
        };
        b.push(
            FactKind::Mechanism,
            format!(
                "`{ty}` is declared inside `{}` ({}:{decl}): no code outside that fn can name it, and {how}. Unless one of these hands the value to code that calls `{}`, the method cannot be reached.",
                outer.qualified(),
                f.path,
                f.name
            ),
            Some((f.path.clone(), decl)),
            None,
        );
    }

    /// How the site works: the thrower's attributes and `cfg` gates, the
    /// macro it is written in, `debug_assert!`, compile-time evaluation,
    /// a trait's default method and who overrides it, serde's `custom`.
    pub(super) fn mechanism_facts(
        &self,
        b: &mut Builder,
        error: &ErrorDetail,
        fi: usize,
        s: &SiteRow,
    ) {
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
            let features = feature_gates(&gates);
            let mut text = format!(
                "`{name}` is compiled only when {} holds (on the fn, its impl or module, or the `mod` declaration of its file).",
                cfg_list(&gates)
            );
            if let Some((sentence, _)) = &features {
                text.push_str(sentence);
            }
            if let Some(m) = module_of_path(&f.path).filter(|_| {
                gates.iter().any(|g| g.starts_with("not(")) && !f.path.ends_with("lib.rs")
            }) {
                text.push_str(&format!(
                    " The `{m}` module is the fallback compiled where the other configurations do not apply."
                ));
            }
            match features {
                Some((_, detail)) => b.push_detailed(FactKind::Mechanism, text, at.clone(), detail),
                None => b.push(FactKind::Mechanism, text, at.clone(), None),
            }
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
                        "It is a `{}!`: checked only when `debug_assertions` are on (debug builds, `cargo test`); a release build compiles it out: there is no check, and the code goes on silently with whatever values it was given.",
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
                let q = |v: &[String]| ticked(v.iter().take(8), ", ");
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
            ) && f.body_is_one_macro =>
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
            let text = |role: &str| {
                format!("The error is made with serde's `Error::custom`{role}: serde calls that method while (de)serializing, and the format's error carries this text.")
            };
            match &f.owner {
                Owner::Impl {
                    of_trait: Some(t),
                    ty,
                } => b.push_detailed(
                    FactKind::Mechanism,
                    text(&format!(" in `{t}::{}` for `{ty}`", f.name)),
                    at,
                    Detail::SerdeMethod {
                        serde_trait: t.rsplit("::").next().unwrap_or(t).to_string(),
                        method: f.name.clone(),
                        ty: ty.clone(),
                    },
                ),
                _ => b.push(FactKind::Mechanism, text(""), at, None),
            }
        }
    }

    /// A message kept in a `const` or `static`: every use, each with its
    /// own enclosing fn and guard.
    pub(super) fn const_message_facts(&self, b: &mut Builder, error: &ErrorDetail) {
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
                if (p == path && ln == decl_line)
                    || !mentions(l, &name)
                    || errdex_syntax::is_test_or_example_path(p)
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
                    cfg_list(&gates)
                ),
                Some((path.to_string(), decl_line)),
                None,
            );
        }
    }

    /// A module that stands in for another under a `cfg` (`#[cfg(not(feature
    /// = "x"))] pub use dummy as real;`).
    pub(super) fn gated_module_facts(&self, b: &mut Builder, paths: &[String]) {
        for p in paths {
            let Some(m) = module_of_path(p) else { continue };
            for (path, line, text, gates) in &self.symbols.gated_uses {
                let aliased =
                    text.contains(&format!("{m} as ")) || text.contains(&format!("::{m};"));
                if !aliased || b.seen(&format!("gateduse:{path}:{line}")) {
                    continue;
                }
                let mut t = format!(
                    "The `{m}` module ({p}) is put in use by `{text}` only when {} holds ({path}:{line}).",
                    cfg_list(gates.iter())
                );
                let at = Some((path.clone(), *line));
                match feature_gates(gates) {
                    Some((sentence, detail)) => {
                        t.push_str(&sentence);
                        b.push_detailed(FactKind::Mechanism, t, at, detail);
                    }
                    None => b.push(FactKind::Mechanism, t, at, None),
                }
            }
        }
    }
}
