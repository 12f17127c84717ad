//! The call graph: which fns a call may name (`macro_rules!`
//! expansions, trait closures, namesakes), how each call was resolved, and
//! the fns reached within a few calls.

use super::*;

/// How a call was tied to the fn it calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resolution {
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

pub(super) fn by_name(namesakes: usize) -> Resolution {
    if namesakes <= 1 {
        Resolution::NameUnique
    } else {
        Resolution::NameAmbiguous
    }
}

/// A fn a call may name: a fn of the snapshot, or one a `macro_rules!`
/// invocation generates from it.
#[derive(Debug, Clone)]
pub(super) struct Target {
    pub(super) fi: usize,
    pub(super) name: String,
    pub(super) ty: Option<String>,
    pub(super) of_trait: Option<String>,
    pub(super) default_of: Option<String>,
    /// The invocation that generates it.
    pub(super) generated_at: Option<(String, u32)>,
}

/// A macro invocation and its metavariables' values.
pub(super) struct Expansion<'a> {
    pub(super) call: &'a syntax::MacroCall,
    pub(super) bindings: Vec<(String, String)>,
}

/// The fields of the structs declared in `text` with braces: `(struct,
/// field, type)`, the type as the methods called on the field see it
/// (`Box<Inner>`, `Arc<Inner>`, `&'a mut Inner` → `Inner`).
pub(super) fn struct_fields(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    let mut depth = 0i32;
    for l in text.lines() {
        let code = l.split("//").next().unwrap_or("").trim();
        if current.is_none() {
            let t = code
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                .trim_start_matches("pub ");
            if let Some(rest) = t.strip_prefix("struct ") {
                if code.ends_with('{') {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    current = Some(name);
                    depth = 1;
                }
            }
            continue;
        }
        if depth == 1 {
            let t = code
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                .trim_start_matches("pub ");
            if let Some((field, ty)) = t.split_once(':') {
                let field = field.trim();
                if !field.is_empty() && field.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.push((
                        current.clone().unwrap_or_default(),
                        field.to_string(),
                        core_type(ty.trim().trim_end_matches(',')),
                    ));
                }
            }
        }
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            current = None;
        }
    }
    out
}

/// A type without the references in front of it: `&'a mut &T` → `T`.
/// A type's name: its last path segment, without references, lifetimes
/// or generics (`&'a mut foo::Bar<T>` → `Bar`).
pub(super) fn type_name(ty: &str) -> &str {
    errdex_syntax::last_segment(without_refs(ty))
}

pub(super) fn without_refs(ty: &str) -> &str {
    let mut t = ty.trim();
    loop {
        let before = t;
        t = t.trim_start_matches('&').trim_start();
        if t.starts_with('\'') {
            t = t.split_once(' ').map_or(t, |(_, r)| r).trim_start();
        }
        t = t.trim_start_matches("mut ").trim_start();
        if t == before {
            return t;
        }
    }
}

/// The type a method call sees through references and owning pointers:
/// `&'a mut Box<Inner<T>>` → `Inner`.
fn core_type(ty: &str) -> String {
    let mut t = ty.trim();
    loop {
        let before = t;
        t = without_refs(t);
        for w in ["Box<", "Arc<", "Rc<"] {
            if let Some(inner) = t.strip_prefix(w).and_then(|i| i.strip_suffix('>')) {
                t = inner.trim();
            }
        }
        if t == before {
            break;
        }
    }
    type_name(t).to_string()
}

/// The inline modules of a file (`mod m { .. }`): name, first and last
/// line.
pub(super) fn inline_mods(text: &str) -> Vec<(String, u32, u32)> {
    let mut out = Vec::new();
    let mut open: Vec<(String, u32, i32)> = Vec::new();
    let mut depth = 0i32;
    for (i, l) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let code = l.split("//").next().unwrap_or("");
        let t = code
            .trim_start()
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ");
        if let Some(rest) = t.strip_prefix("mod ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if code.contains('{') {
                open.push((name, line, depth));
            }
        }
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if open.last().is_some_and(|(_, _, d)| *d == depth) {
                        let (name, start, _) = open.pop().unwrap_or_default();
                        out.push((name, start, line));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The traits bounding the type of a receiver that is a parameter of
/// `f` declared with a generic type (`x: T`, `x: &T` with `T: Tr`, or
/// `x: impl Tr`), with that type as written: no bounds when the receiver
/// is anything else.
pub(super) fn receiver_bounds(f: &FnDef, receiver: &str) -> (String, Vec<String>) {
    let none = (String::new(), Vec::new());
    let receiver = receiver.trim().trim_start_matches(['*', '&']);
    if receiver.is_empty() || !receiver.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return none;
    }
    for p in syntax::parameters(&f.signature) {
        let Some((name, ty)) = p.split_once(':') else {
            continue;
        };
        if name.trim().trim_start_matches("mut ").trim() != receiver {
            continue;
        }
        let ty = without_refs(ty);
        if let Some(tr) = ty.strip_prefix("impl ") {
            let bounds = tr
                .split('+')
                .map(|b| type_name(b).to_string())
                .filter(|b| !b.is_empty() && !b.starts_with('\''))
                .collect();
            return (ty.to_string(), bounds);
        }
        let bounds = f
            .bounds
            .iter()
            .filter(|(param, _)| param == ty)
            .map(|(_, b)| type_name(b).to_string())
            .collect();
        return (ty.to_string(), bounds);
    }
    none
}

/// `$name` replaced by its value.
pub(super) fn expand_text(s: &str, bindings: &[(String, String)]) -> String {
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
pub(super) enum MatchPiece {
    Var(String),
    Lit(String),
}

/// Binds a `macro_rules!` matcher without repetitions to an invocation's
/// arguments: each `$name:frag` takes the text up to the next literal token
/// at the top level. `None` when the matcher has repetitions or the
/// literals do not match.
pub(super) fn bind(matcher: &str, args: &str) -> Option<Vec<(String, String)>> {
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
pub(super) fn top_level_find(s: &str, needle: &str) -> Option<usize> {
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

/// False when one fn is compiled only where the other is not (`x` against
/// `not(x)`).
pub(super) fn gates_compatible(a: &[String], b: &[String]) -> bool {
    !a.iter().any(|g| {
        b.iter()
            .any(|h| *h == format!("not({g})") || *g == format!("not({h})"))
    })
}

impl Analyzer {
    /// The fns a call may name for fn `fi`: itself, or — for a fn written
    /// in a `macro_rules!` body with metavariables in its name or impl —
    /// the fn each invocation generates.
    pub(super) fn targets(&self, fi: usize) -> Vec<Target> {
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
                ty: own.ty.as_deref().map(|t| type_name(&sub(t)).to_string()),
                of_trait: own
                    .of_trait
                    .as_deref()
                    .map(|t| type_name(&sub(t)).to_string()),
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
    pub(super) fn expansions(&self, name: &str, line: u32) -> Vec<Expansion<'_>> {
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
    pub(super) fn trait_closure(&self, name: &str) -> HashSet<String> {
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

    pub(super) fn is_local_trait(&self, name: &str) -> bool {
        self.symbols.traits.iter().any(|t| t.name == name)
    }

    /// Distinct fns of a name (a fn written twice under exclusive `cfg`s in
    /// one file counts once).
    pub(super) fn namesakes(&self, name: &str) -> &[usize] {
        self.namesakes.get(name).map_or(&[], Vec::as_slice)
    }

    /// How call `c` resolves to target `t`, if it can.
    /// Whether fn `fi` is in the module `m`: its file is `m.rs` or
    /// `m/mod.rs`, or it stands in an inline `mod m { .. }` of its file.
    fn in_module(&self, fi: usize, m: &str) -> bool {
        let f = &self.symbols.fns[fi];
        if module_of_path(&f.path).as_deref() == Some(m) {
            return true;
        }
        // The innermost inline `mod` holding the fn.
        self.inline_mods
            .get(&f.path)
            .into_iter()
            .flatten()
            .filter(|(_, a, b)| *a <= f.lines.0 && f.lines.1 <= *b)
            .max_by_key(|(_, a, _)| *a)
            .is_some_and(|(n, _, _)| n == m)
    }

    pub(super) fn resolve(&self, t: &Target, c: &Call) -> Option<Resolution> {
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
            Callee::Path { qualifier: Some(q) }
                if t.ty.is_none()
                    && t.default_of.is_none()
                    && q.starts_with(|c: char| c.is_ascii_lowercase()) =>
            {
                // A module path (`emulated::make`, `super::make`): the fn
                // of that module.
                if ["self", "super", "crate"].contains(&q.as_str()) {
                    return Some(by_name(self.namesakes(&t.name).len()));
                }
                self.in_module(t.fi, q).then_some(Resolution::Exact)
            }
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
                // A fn declared in a fn's body is called only from within
                // it, and there it hides its namesakes.
                let within = |outer: usize| {
                    let mut cur = c.caller;
                    while let Some(i) = cur {
                        if i == outer {
                            return true;
                        }
                        cur = self.symbols.fns[i].nested_in.as_ref().map(|n| n.0);
                    }
                    false
                };
                if let Some((outer, _)) = &self.symbols.fns[t.fi].nested_in {
                    return within(*outer).then_some(Resolution::Exact);
                }
                let hidden = self.namesakes(&t.name).iter().any(|&i| {
                    self.symbols.fns[i]
                        .nested_in
                        .as_ref()
                        .is_some_and(|n| within(n.0))
                });
                if hidden {
                    return None;
                }
                let module = t.ty.is_none() && t.default_of.is_none();
                if !module {
                    return None;
                }
                // An unqualified call names the fn of its own module first:
                // the namesake in the caller's file when there is one.
                let names = self.namesakes(&t.name);
                let target_path = &self.symbols.fns[t.fi].path;
                if let Some(f) = caller {
                    let local = names.iter().any(|&i| {
                        let g = &self.symbols.fns[i];
                        g.path == f.path && g.owner == Owner::Module
                    });
                    if local {
                        return (*target_path == f.path).then_some(Resolution::Exact);
                    }
                }
                Some(by_name(names.len()))
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
                // `self.field.m(..)`: the method of the field's declared
                // type, when that is a type of the crate.
                if let (Some(field), Some(ct)) = (
                    c.receiver.as_deref().and_then(|r| r.strip_prefix("self.")),
                    caller_ty,
                ) {
                    let ft = self.field_types.get(&(ct.to_string(), field.to_string()));
                    if let Some(ft) = ft.filter(|ft| self.impl_types.contains(*ft)) {
                        return (t.ty.as_deref() == Some(ft.as_str())).then_some(Resolution::Exact);
                    }
                }
                // `x.field.m(..)` where syntax cannot tell the type of `x`
                // (a local, a macro's binding): the field's declared type
                // when every struct of the crate with a field of that name
                // declares the same type of the crate.
                if let Some(ft) = c.receiver.as_deref().and_then(|r| self.field_type_of(r)) {
                    return (t.ty.as_deref() == Some(ft)).then_some(Resolution::Exact);
                }
                // `x.m(..)` where the caller declares `x: T` (or `&T`, `impl
                // Tr`) and bounds `T` by the fn's trait: a call of that
                // trait's method on whatever type the caller is given.
                if let (Some(f), Some(tr)) = (caller, the_trait) {
                    let (_, bounds) = receiver_bounds(f, c.receiver.as_deref().unwrap_or(""));
                    if bounds.iter().any(|b| self.trait_closure(b).contains(tr)) {
                        return Some(Resolution::Bound);
                    }
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

    /// The type of a receiver written `x.field` (`this.path_router`) from
    /// the field's name alone: the one crate type every struct declaring a
    /// field of that name gives it.
    pub(super) fn field_type_of(&self, receiver: &str) -> Option<&str> {
        let (_, field) = receiver.rsplit_once('.')?;
        if field.is_empty() || !field.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        self.field_type_by_name
            .get(field)?
            .as_deref()
            .filter(|ft| self.impl_types.contains(*ft))
    }

    /// Calls of fn `fi` (or of what a macro generates from it), each with
    /// how it was resolved.
    pub(super) fn callers_of(&self, fi: usize) -> Vec<(usize, Resolution)> {
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

    /// The fns that call `start` (transitively, up to `hops` calls away),
    /// nearest first, at most `max`: calls resolved by path, bound or a
    /// unique name, not test code.
    pub(super) fn reached_from(&self, start: &[usize], hops: usize, max: usize) -> Vec<usize> {
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
}
