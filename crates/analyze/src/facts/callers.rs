//! Who calls the enclosing fn (with how each call was resolved), the
//! wrappers that pass a caller's value through, and the public fns a user
//! reaches the site from.

use super::*;

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

/// An arithmetic, bit or comparison operator trait (`Sub`, `MulAssign`,
/// `ops::Neg`).
fn is_operator(tr: &str) -> bool {
    const OPS: [&str; 10] = [
        "Add", "Sub", "Mul", "Div", "Rem", "Neg", "Shl", "Shr", "BitAnd", "BitOr",
    ];
    let t = type_name(tr);
    let base = t.trim_end_matches("Assign");
    OPS.contains(&base)
}

impl Analyzer {
    pub(super) fn caller_facts(&self, b: &mut Builder, target: usize) {
        let t = &self.symbols.fns[target];
        if t.is_test {
            return;
        }
        let callers = self.callers_of(target);
        let mut listed = 0;
        let mut traced = 0;
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
                Callee::Method { .. } => {
                    let (ty, bounds) = receiver_bounds(caller, c.receiver.as_deref().unwrap_or(""));
                    let receiver = c.receiver.as_deref().unwrap_or("");
                    match bounds.first() {
                        Some(_) if ty.starts_with("impl ") => format!("{receiver}: {ty}"),
                        Some(b) => format!("{receiver}: {ty}` with `{ty}: {b}"),
                        None => String::new(),
                    }
                }
                _ => String::new(),
            };
            let how = match r {
                Resolution::Exact if matches!(c.callee, Callee::Method { .. }) => {
                    match c.receiver.as_deref() {
                        Some(field) if field.starts_with("self.") => {
                            format!("resolved through the declared type of `{field}`")
                        }
                        Some(r) if r.contains('.') => {
                            let (_, field) = r.rsplit_once('.').unwrap_or(("", r));
                            format!(
                                "resolved through the declared type of the field `{field}`: `{}` wherever the crate declares a field of that name",
                                self.field_type_of(r).unwrap_or("?")
                            )
                        }
                        _ => "resolved through the type of `self`".to_string(),
                    }
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
            if let Some(ci) = c.caller {
                // A check the caller makes first in one configuration only.
                self.gated_check_before_facts(b, ci, c.line);
                // An `Index` impl that calls it: the type's `get`.
                if matches!(&caller.owner, Owner::Impl { of_trait: Some(tr), .. } if tr == "Index" || tr == "IndexMut")
                {
                    self.alternative_facts(b, ci, None);
                }
            }
            // The guard at the call is the trigger of a helper.
            if let Some(pf) = self.files.get(&c.path) {
                let guards = pf
                    .tree_at(c.line, c.column)
                    .map(|tr| syntax::guards_at(tr, &pf.file.text, c.line, c.column))
                    .unwrap_or_default();
                for g in guards.iter().take(3) {
                    if let Guard::Fallback { value, .. } = g {
                        if traced < MAX_TRACED {
                            traced += self.fallback_failure_facts(b, value) as usize;
                        }
                    }
                    let when = guard_text(g);
                    b.push_detailed(
                        FactKind::Guard,
                        format!(
                            "Where `{}` calls it ({}:{}), {}",
                            caller.qualified(),
                            c.path,
                            c.line,
                            crate::sections::lower_first(&when)
                        ),
                        Some((c.path.clone(), c.line)),
                        Detail::CallerCondition,
                    );
                }
                // `match self` on a variant: the type's own accessor that
                // maps the same variant to a value names it in user terms.
                if let Some(Guard::Arm { pattern, value, .. }) = guards.first() {
                    if value == "self" {
                        if let Some((ty, accessor, tag)) = self.variant_meaning(caller, pattern) {
                            b.push_detailed(
                                FactKind::Guard,
                                format!(
                                    "Where `{}` calls it ({}:{}), the arm `{pattern}` is the `{ty}` whose `{accessor}()` is `{tag}`: it runs for `{tag}` values.",
                                    caller.qualified(),
                                    c.path,
                                    c.line
                                ),
                                Some((c.path.clone(), c.line)),
                                Detail::CallerCondition,
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

    /// For a caller that calls the target when `value` fails (the
    /// closure of `.unwrap_or_else`/`.ok_or_else`), where that crate fn
    /// fails; true when `value` was traced.
    fn fallback_failure_facts(&self, b: &mut Builder, value: &str) -> bool {
        if b.seen(&format!("fallback:{value}")) {
            return false;
        }
        let mut sub = Builder::default();
        self.receiver_facts(&mut sub, value, &b.facts);
        b.adopt_failures(sub);
        true
    }

    /// A wrapper impl whose method calls the same method on its inner type
    /// (`impl<B: Backend> Ops for Autodiff<B>` calling `B::op`) reaches
    /// itself only when the inner type is the wrapper again.
    pub(super) fn wrapper_fact(&self, b: &mut Builder, t: &FnDef, caller: &FnDef, c: &Call) {
        let Callee::Path { qualifier: Some(q) } = &c.callee else {
            return;
        };
        let Some(self_ty) = &t.impl_self else {
            return;
        };
        let wrapper = type_name(self_ty);
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
    pub(super) fn entry_facts(&self, b: &mut Builder, target: usize) {
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
                        b.push_detailed(
                            FactKind::PublicEntry,
                            format!("`{tr}::{}` for `{ty}` is reached by {call}.", tg.name),
                            Some(at),
                            Detail::ImplicitUse {
                                action: call.clone(),
                            },
                        );
                        entries += 1;
                        self.checked_operator_fact(b, tr, &tg.name, ty);
                        if is_operator(tr) {
                            self.operand_type_doc(b, ty);
                        }
                        if tr == "Service" && tg.name == "call" {
                            self.readiness_fact(b, ty);
                        }
                    }
                }
            }
        }
        // A public thrower is an entry itself; the fns that call it
        // directly are listed as its callers. Still, the trait impls and
        // the public fns further up are how users reach it too.
        let public_target =
            t.is_pub && matches!(t.owner, Owner::Module | Owner::Impl { of_trait: None, .. });
        if let Owner::Impl { ty, of_trait: None } = &t.owner {
            self.setting_enum_fact(b, ty, t);
        }
        let mut seen: HashSet<usize> = HashSet::from([target]);
        let mut queue = VecDeque::from([(target, 0usize, vec![self.user_name(target)])]);
        let mut reached: Vec<(usize, Vec<String>)> = Vec::new();
        let mut path_guards = 0;
        let mut panicking = 0;
        while let Some((f, hops, chain)) = queue.pop_front() {
            reached.push((f, chain.clone()));
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
                if b.returned && panicking < MAX_PANICKING {
                    panicking += self.err_to_panic_fact(b, ci, f) as usize;
                }
                // Direct callers' guards are listed with them; further up,
                // the condition under which each step calls the next.
                if hops > 0 && path_guards < MAX_PATH_GUARDS {
                    path_guards += self.path_guard_fact(b, ci, cf, &self.symbols.fns[f]) as usize;
                }
                if let Owner::Impl { ty, of_trait: None } = &cf.owner {
                    self.setting_enum_fact(b, ty, cf);
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
                // A method of the crate's own public trait: users call it
                // on any implementor.
                let pub_trait = match &cf.owner {
                    Owner::Impl {
                        ty,
                        of_trait: Some(tr),
                    } if implicit.is_none() => self
                        .symbols
                        .traits
                        .iter()
                        .find(|d| d.name == *tr && d.is_pub)
                        .map(|d| (ty.clone(), d)),
                    _ => None,
                };
                if let Some((ty, d)) = pub_trait.filter(|_| entries < MAX_ENTRIES) {
                    if !b.seen(&format!("traitentry:{}:{}", d.name, cf.name)) {
                        // What the trait is and, next, what uses it.
                        let doc = self
                            .doc_at(&d.path, d.line as usize)
                            .and_then(|doc| {
                                let p: Vec<&str> =
                                    doc.paragraphs.iter().take(2).map(String::as_str).collect();
                                quote(&p)
                            })
                            .map(|q| format!(" The trait's doc says: \"{q}\""))
                            .unwrap_or_default();
                        let blanket = cf.impl_params.contains(&ty);
                        b.push_detailed(
                            FactKind::PublicEntry,
                            format!(
                                "`{}::{}` (the public trait `{}`, here its {}) reaches it: {}.{}",
                                d.name,
                                cf.name,
                                d.name,
                                if blanket {
                                    format!("blanket impl for any `{ty}` it covers")
                                } else {
                                    format!("impl for `{ty}`")
                                },
                                path.join(" → "),
                                doc
                            ),
                            Some((cf.path.clone(), cf.lines.0)),
                            Detail::Entry {
                                name: format!("{}::{}", d.name, cf.name),
                                via: Via::TraitMethod,
                            },
                        );
                        entries += 1;
                    }
                }
                let listed_as_caller = public_target && hops == 0 && implicit.is_none();
                if entries < MAX_ENTRIES && (public || implicit.is_some()) && !listed_as_caller {
                    let (text, detail) = match &implicit {
                        Some(call) => (
                            format!(
                                "`{}` reaches it ({}), and a user reaches that by {call}.",
                                cf.qualified(),
                                path.join(" → ")
                            ),
                            Detail::ImplicitUse {
                                action: call.clone(),
                            },
                        ),
                        None => (
                            format!(
                                "The public fn `{}` reaches it: {}.{}",
                                cf.qualified(),
                                path.join(" → "),
                                self.doc_summary(caller)
                            ),
                            Detail::Entry {
                                name: cf.qualified(),
                                via: Via::Fn,
                            },
                        ),
                    };
                    b.push_detailed(
                        FactKind::PublicEntry,
                        text,
                        Some((cf.path.clone(), cf.lines.0)),
                        detail,
                    );
                    entries += 1;
                    // A panic reached through a public fn: that fn's
                    // fallible twin is what the user calls instead.
                    if !b.returned {
                        self.alternative_facts(b, caller, None);
                    }
                    if let Owner::Impl {
                        ty,
                        of_trait: Some(tr),
                    } = &cf.owner
                    {
                        self.checked_operator_fact(b, tr, &cf.name, ty);
                        if is_operator(tr) {
                            self.operand_type_doc(b, ty);
                        }
                    }
                }
                queue.push_back((caller, hops + 1, chain));
            }
        }
        self.exported_macro_entries(b, &reached);
        if entries == 0 && !public_target {
            self.type_use_entries(b, target);
        }
    }

    /// A call on the path whose `Err` the caller turns into a panic —
    /// `.unwrap()`, `.expect(..)`, or a macro of the crate whose `Err` arm
    /// panics (`panic_on_err!(this.router.route(..))`): there the error
    /// stops being a value and reaches the caller's caller as a panic.
    /// True when stated.
    fn err_to_panic_fact(&self, b: &mut Builder, ci: usize, callee: usize) -> bool {
        let c = &self.symbols.calls[ci];
        let g = &self.symbols.fns[callee];
        let returns_result =
            syntax::return_type(&g.signature).is_some_and(|r| r.contains("Result"));
        let (Some(caller), true) = (c.caller, returns_result) else {
            return false;
        };
        let Some(pf) = self.files.get(&c.path) else {
            return false;
        };
        let Some((call, unwrapped)) = pf
            .tree_at(c.line, c.column)
            .and_then(|t| syntax::call_at(t, &pf.file.text, c.line, c.column))
        else {
            return false;
        };
        let how = match unwrapped.as_deref() {
            Some("unwrap") => Some(("`.unwrap()`".to_string(), None, true)),
            Some(_) => Some(("`.expect(..)`".to_string(), None, true)),
            None => {
                let folded: String = call.split_whitespace().collect();
                self.symbols
                    .macro_calls
                    .iter()
                    .filter(|m| {
                        m.caller == Some(caller)
                            && m.path == c.path
                            && m.line <= c.line
                            && m.args
                                .split_whitespace()
                                .collect::<String>()
                                .contains(&folded)
                    })
                    .find_map(|m| {
                        let def = self.symbols.macros.iter().find(|d| d.name == m.name)?;
                        let carries = def
                            .rules
                            .iter()
                            .find_map(|(_, body, _)| err_arm_panics(body))?;
                        Some((
                            format!(
                                "`{}!`, a macro of the crate whose `Err` arm panics ({}:{})",
                                m.name, def.path, def.line
                            ),
                            Some((def.path.clone(), def.line)),
                            carries,
                        ))
                    })
            }
        };
        let Some((how, _, carries)) = how else {
            return false;
        };
        let cf = &self.symbols.fns[caller];
        if b.seen(&format!("errpanic:{}:{}", c.path, c.line)) {
            return false;
        }
        let call = call.replace(" .", ".");
        let shown = if call.chars().count() > 60 {
            format!("{}(..)", call.split('(').next().unwrap_or(&call))
        } else {
            call.clone()
        };
        let text = if carries { " carrying its text" } else { "" };
        let track = if cf.attrs.iter().any(|a| a == "track_caller") {
            format!(
                " `{}` is `#[track_caller]`: the panic report names the location of its caller (your call site).",
                cf.qualified()
            )
        } else {
            String::new()
        };
        b.push(
            FactKind::Mechanism,
            format!(
                "`{}` turns the `Err` of `{shown}` ({}:{}) into a panic with {how}: through `{}` this error is not returned to you but panics{text}.{track}",
                cf.qualified(),
                c.path,
                c.line,
                cf.qualified()
            ),
            Some((c.path.clone(), c.line)),
            None,
        );
        true
    }

    /// The first guard of call `ci` (made in `caller`, calling `callee`)
    /// on a path up to the public API; true when one was stated.
    fn path_guard_fact(&self, b: &mut Builder, ci: usize, caller: &FnDef, callee: &FnDef) -> bool {
        let c = &self.symbols.calls[ci];
        let Some(pf) = self.files.get(&c.path) else {
            return false;
        };
        let guards = pf
            .tree_at(c.line, c.column)
            .map(|tr| syntax::guards_at(tr, &pf.file.text, c.line, c.column))
            .unwrap_or_default();
        let Some(g) = guards.first() else {
            return false;
        };
        if b.seen(&format!("pathguard:{}:{}", c.path, c.line)) {
            return false;
        }
        b.push_detailed(
            FactKind::Guard,
            format!(
                "Where `{}` calls `{}` on the way ({}:{}), {}",
                caller.qualified(),
                callee.qualified(),
                c.path,
                c.line,
                crate::sections::lower_first(&guard_text(g))
            ),
            Some((c.path.clone(), c.line)),
            Detail::CallerCondition,
        );
        true
    }

    /// For a method of an enum with a default value on the path that
    /// decides by the enum's value (`match self`, `matches!(self, ..)`):
    /// the enum is a setting, and its variants' docs say what each value
    /// does.
    fn setting_enum_fact(&self, b: &mut Builder, ty: &str, method: &FnDef) {
        let body: String = method.text.split_whitespace().collect();
        let decides = [
            "matchself",
            "match*self",
            "match(self,",
            "matches!(self,",
            "matches!(*self,",
            "*self==",
        ]
        .iter()
        .any(|p| body.contains(p));
        if !decides || b.seen(&format!("setting:{ty}")) {
            return;
        }
        let Some((path, line, variants)) = self.enum_variants(ty) else {
            return;
        };
        // A setting has a default value: a `#[default]` variant or an
        // `impl Default` (an error kind has none).
        let has_default = variants.iter().any(|v| v.is_default)
            || self.by_name.get("default").is_some_and(|v| {
                v.iter().any(|&i| {
                    matches!(&self.symbols.fns[i].owner, Owner::Impl { ty: t, of_trait: Some(tr) } if t == ty && tr == "Default")
                })
            });
        if variants.len() < 2 || !has_default {
            return;
        }
        let listed: Vec<String> = variants
            .iter()
            .take(8)
            .map(|v| {
                let default = if v.is_default { " (the default)" } else { "" };
                match &v.doc {
                    Some(d) => format!("`{ty}::{}`{default}: \"{d}\"", v.name),
                    None => format!("`{ty}::{}`{default}", v.name),
                }
            })
            .collect();
        b.push(
            FactKind::Mechanism,
            format!(
                "`{}` decides by the value of the enum `{ty}`, a setting: whether it fails depends on which variant is in use. {}.",
                method.qualified(),
                listed.join("; ")
            ),
            Some((path, line)),
            None,
        );
    }

    /// For `Service::call` of a type whose `Service` impl also has
    /// `poll_ready`: the readiness contract `call` relies on.
    fn readiness_fact(&self, b: &mut Builder, ty: &str) {
        let Some(ready) = self.by_name.get("poll_ready").and_then(|v| {
            v.iter().copied().find(|&i| {
                let f = &self.symbols.fns[i];
                !f.is_test
                    && matches!(&f.owner, Owner::Impl { ty: t, of_trait: Some(tr) } if t == ty && tr == "Service")
            })
        }) else {
            return;
        };
        if b.seen(&format!("readiness:{ty}")) {
            return;
        }
        let f = &self.symbols.fns[ready];
        b.push(
            FactKind::Mechanism,
            format!(
                "`{ty}` implements `Service` with `poll_ready`: its contract is that `call` comes only after `poll_ready` returned `Poll::Ready(Ok(()))`, once for each `call` (a `call` without it, a second `call` after one `poll_ready`, or `poll_ready` on one clone and `call` on another breaks it); `ServiceExt::ready().await`, `ServiceExt::oneshot` and `call_all` drive `poll_ready` before `call`."
            ),
            Some((f.path.clone(), f.lines.0)),
            None,
        );
    }

    /// For an arithmetic operator impl (`Sub::sub`, `MulAssign::mul_assign`)
    /// of a type that also has `checked_OP` (inherent or through a trait
    /// such as `CheckedSub`): the call that returns `None` instead.
    pub(super) fn checked_operator_fact(&self, b: &mut Builder, tr: &str, method: &str, ty: &str) {
        const OPS: [&str; 8] = ["add", "sub", "mul", "div", "rem", "neg", "shl", "shr"];
        let op = method.trim_end_matches("_assign");
        if !OPS.contains(&op) || !tr.to_lowercase().starts_with(op) {
            return;
        }
        let base = type_name(ty);
        let name = format!("checked_{op}");
        let Some(&i) = self.by_name.get(&name).and_then(|v| {
            v.iter().find(|&&i| {
                let f = &self.symbols.fns[i];
                !f.is_test && matches!(&f.owner, Owner::Impl { ty: t, .. } if type_name(t) == base)
            })
        }) else {
            return;
        };
        if b.seen(&format!("checked:{base}:{op}")) {
            return;
        }
        let f = &self.symbols.fns[i];
        let via = match &f.owner {
            Owner::Impl {
                of_trait: Some(t), ..
            } => format!(" (from the trait `{t}`)"),
            _ => String::new(),
        };
        b.push(
            FactKind::Alternative,
            format!(
                "`{base}::{name}`{via} is the fallible form of the operator (`{tr}`): it returns `None` instead of panicking; use `a.{name}(&b)` where the operands can be out of range."
            ),
            Some((f.path.clone(), f.lines.0)),
            None,
        );
    }

    /// For a method no call reaches (a trait impl driven by another crate,
    /// such as a serde `Serializer`), the public fns that use its type.
    pub(super) fn type_use_entries(&self, b: &mut Builder, target: usize) {
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
                    b.push_detailed(
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
                        Detail::Entry {
                            name: f.qualified(),
                            via: Via::Fn,
                        },
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
}

/// Whether a macro body turns an `Err` into a panic (`Err(e) => panic!(..)`):
/// `Some(true)` when the panic prints the error, `Some(false)` when it
/// prints a message of its own, `None` when it does not panic on `Err`.
fn err_arm_panics(body: &str) -> Option<bool> {
    let (_, after) = body.split_once("Err(")?;
    let (bound, rest) = after.split_once(')')?;
    let rest = rest.trim_start().strip_prefix("=>")?.trim_start();
    let args = rest.strip_prefix("panic!")?;
    let bound = bound.trim();
    // The panic's arguments: up to the parenthesis closing `panic!(`.
    let mut depth = 0i32;
    let end = args
        .char_indices()
        .find(|&(_, ch)| {
            match ch {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .map_or(args.len(), |(i, _)| i);
    let args = &args[..end];
    Some(
        bound != "_"
            && !bound.is_empty()
            && (mentions(args, bound) || args.contains(&format!("{{{bound}"))),
    )
}
