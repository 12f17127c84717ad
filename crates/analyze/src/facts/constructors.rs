//! Where the error variant is constructed, and what the docs and setters
//! of the fields involved say.

use super::*;

/// The error type an error belongs to (`PackError` for a variant or a
/// `Display` arm of it).
pub(super) fn error_type_of(error: &ErrorDetail) -> Option<String> {
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
pub(super) fn shape_of(template: &str) -> Option<String> {
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

/// The fields read as `self.x` in a text.
pub(super) fn self_fields(text: &str) -> Vec<String> {
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
pub(super) fn doc_above(text: &str, at: usize) -> Option<String> {
    let first = doc_comment_above(text, at)?.paragraphs.into_iter().next()?;
    Some(first.chars().take(400).collect())
}

/// The offset in `text` of an expression building a value of the struct
/// `ty` (`ty`, `path::ty`, `ty { .. }`, `ty(..)` in an expression), not a
/// type position (`-> ty`, `: ty`, `<ty>`, `impl .. for ty`).
pub(super) fn builds_struct(text: &str, ty: &str) -> Option<usize> {
    text.match_indices(ty).map(|(i, _)| i).find(|&i| {
        let before =
            text[..i].trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
        // The path before the name is part of it (`crate::result::ty`).
        let path_start = before.len();
        if !text[path_start..i].is_empty() && !text[path_start..i].ends_with("::") {
            return false;
        }
        let prev = before.trim_end().chars().next_back();
        let after = text[i + ty.len()..].trim_start();
        let next = after.chars().next();
        let word_end = !text[i + ty.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
        word_end
            && matches!(prev, Some('(' | '=' | ',' | '{' | '>'))
            && !before.trim_end().ends_with("->")
            && matches!(next, Some(')' | ',' | ';' | '{' | '(' | '}'))
            && !(next == Some('{') && before.trim_end().ends_with("for"))
    })
}

/// A variant of an enum: its name, the first paragraph of its doc, and
/// whether it is the `#[default]`.
pub(super) struct Variant {
    pub(super) name: String,
    pub(super) doc: Option<String>,
    pub(super) is_default: bool,
}

/// The variants of the enum declared on line `at` (0-based) of `lines`:
/// the identifiers that start a line at depth one of its braces.
fn variants_after(lines: &[&str], at: usize) -> Vec<Variant> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut doc: Vec<String> = Vec::new();
    let mut doc_done = false;
    let mut is_default = false;
    for l in &lines[at..] {
        let t = l.trim();
        if depth == 1 {
            if let Some(d) = t.strip_prefix("///") {
                let d = d.trim();
                if d.is_empty() {
                    doc_done |= !doc.is_empty();
                } else if !doc_done {
                    doc.push(d.to_string());
                }
            } else if t.starts_with("#[") {
                is_default |= t == "#[default]";
            } else if t.starts_with(|c: char| c.is_ascii_uppercase()) {
                let name: String = t
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let d = doc.join(" ");
                out.push(Variant {
                    name,
                    doc: (!d.is_empty()).then(|| d.chars().take(160).collect()),
                    is_default,
                });
                doc.clear();
                doc_done = false;
                is_default = false;
            }
        }
        for c in t.split("//").next().unwrap_or("").chars() {
            match c {
                '{' | '(' => depth += 1,
                '}' | ')' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 && t.contains('}') {
            break;
        }
    }
    out
}

/// True when a fn sets one of the fields (`self.f = ..`, `f: ..` in a fn
/// returning `Self`).
pub(super) fn sets_field(g: &FnDef, fields: &[String]) -> bool {
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

impl Analyzer {
    pub(super) fn constructor_facts(
        &self,
        b: &mut Builder,
        error: &ErrorDetail,
        throwers: &[usize],
    ) {
        let (ty, variant) = match error.kind {
            Kind::ErrorAttr => match error.item_path.rsplit_once("::") {
                Some((ty, v)) => (last(ty), v.to_string()),
                None => return,
            },
            Kind::Display | Kind::DebugImpl => {
                let Some(arm) = error.sites.first().and_then(|s| s.arm.as_deref()) else {
                    if let Some(ty) = error_type_of(error) {
                        self.struct_constructor_facts(b, &ty, throwers);
                    }
                    return;
                };
                let head = arm.split(['(', '{', ' ']).next().unwrap_or(arm);
                match head.rsplit_once("::") {
                    Some(("Self", v)) => match error_type_of(error) {
                        Some(ty) => (ty, v.to_string()),
                        None => return,
                    },
                    Some((ty, v)) => (last(ty), v.to_string()),
                    // `use Error::*;` then `WontImplement => ".."`: the
                    // variant of the type the impl (or describer) is for.
                    None if head.starts_with(|c: char| c.is_ascii_uppercase())
                        && head.chars().all(|c| c.is_alphanumeric() || c == '_') =>
                    {
                        let owner =
                            throwers
                                .first()
                                .and_then(|&i| match &self.symbols.fns[i].owner {
                                    Owner::Impl { ty, .. } => Some(type_name(ty).to_string()),
                                    _ => None,
                                });
                        match error_type_of(error).or(owner) {
                            Some(ty) => (ty, head.to_string()),
                            None => return,
                        }
                    }
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
            let (place, by) = match (caller, &c.in_macro) {
                (Some(f), None) => (format!("`{}`", f.qualified()), f.qualified()),
                (Some(f), Some(m)) => (
                    format!("`{}` in the body of `macro_rules! {m}`", f.name),
                    f.name.clone(),
                ),
                (None, Some(m)) => (format!("the body of `macro_rules! {m}`"), format!("{m}!")),
                (None, None) => continue,
            };
            let gates = caller
                .filter(|f| !f.gates.is_empty())
                .map(|f| format!(", compiled only when {}", cfg_list(&f.gates)))
                .unwrap_or_default();
            let default = c
                .caller
                .filter(|_| !is_test)
                .map(|i| self.default_method_note(i))
                .unwrap_or_default();
            b.push_detailed(
                FactKind::Constructor,
                format!(
                    "`{ty}::{variant}` is constructed in {place}{}{default}{gates}.",
                    if is_test { " (a test)" } else { "" }
                ),
                Some((c.path.clone(), c.line)),
                Detail::Constructor {
                    variant: Some(format!("{ty}::{variant}")),
                    by,
                    in_test: is_test,
                },
            );
            n += 1;
            if is_test {
                continue;
            }
            if let Some(i) = c.caller {
                self.maker_doc_fact(b, i);
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
                for (gi, g) in guards.into_iter().enumerate() {
                    let when = guard_text(&g);
                    fields.extend(self_fields(&when));
                    let who = caller
                        .map(|f| format!("`{}`", f.qualified()))
                        .or(c.in_macro.as_ref().map(|m| format!("`{m}!`")))
                        .unwrap_or_default();
                    b.push_detailed(
                        FactKind::Guard,
                        format!(
                            "Where {who} creates it ({}:{}), {}",
                            c.path,
                            c.line,
                            crate::sections::lower_first(&when)
                        ),
                        Some((c.path.clone(), c.line)),
                        Detail::CallerCondition,
                    );
                    if let Some(i) = c.caller.filter(|_| gi == 0) {
                        self.exhausted_slice_fact(b, i, &g, (c.path.clone(), c.line));
                    }
                    self.field_writer_facts(b, &when);
                }
                self.wrapping_macro_facts(b, &c.path, c.line);
                if let Some(i) = c.caller {
                    self.default_result_facts(b, i, &c.path, c.line);
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
            b.push_detailed(
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
                Detail::Constructor {
                    variant: None,
                    by: self.symbols.fns[users[0]].qualified(),
                    in_test: false,
                },
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

    /// Where a struct error type (`struct Unexpected;`) is made: the fns
    /// whose code builds a value of it (`Err(Box::new(Unexpected))`,
    /// `Unexpected { .. }`, `Unexpected(..)`), with the public fns that
    /// reach them.
    pub(super) fn struct_constructor_facts(&self, b: &mut Builder, ty: &str, throwers: &[usize]) {
        let mut makers = Vec::new();
        for (fi, f) in self.symbols.fns.iter().enumerate() {
            if makers.len() == MAX_CONSTRUCTORS {
                break;
            }
            if f.is_test
                || throwers.contains(&fi)
                || matches!(&f.owner, Owner::Impl { ty: t, of_trait: Some(_) } if t == ty)
            {
                continue;
            }
            let Some(off) = builds_struct(&f.text, ty) else {
                continue;
            };
            let line = f.lines.0 + f.text[..off].matches('\n').count() as u32;
            let gates = if f.gates.is_empty() {
                String::new()
            } else {
                format!(", compiled only when {}", cfg_list(&f.gates))
            };
            b.push_detailed(
                FactKind::Constructor,
                format!(
                    "`{ty}` is constructed in `{}`{}{gates}.",
                    f.qualified(),
                    self.default_method_note(fi)
                ),
                Some((f.path.clone(), line)),
                Detail::Constructor {
                    variant: Some(ty.to_string()),
                    by: f.qualified(),
                    in_test: false,
                },
            );
            self.maker_doc_fact(b, fi);
            makers.push(fi);
        }
        for fi in makers.into_iter().take(3) {
            self.entry_facts(b, fi);
        }
    }

    /// `, the default method of the trait `T` (…)` for a trait's provided
    /// method; empty otherwise.
    pub(super) fn default_method_note(&self, fi: usize) -> String {
        let f = &self.symbols.fns[fi];
        match &f.owner {
            Owner::TraitDefault(t) => {
                // The impls that override it, by their self type as
                // written (`Option<T>`).
                let mut over: Vec<String> = Vec::new();
                for g in &self.symbols.fns {
                    let overrides = !g.is_test
                        && g.name == f.name
                        && matches!(&g.owner, Owner::Impl { of_trait: Some(x), .. } if x == t);
                    if let Some(ty) = g
                        .impl_self
                        .as_ref()
                        .filter(|ty| overrides && !ty.contains('$'))
                    {
                        if !over.contains(ty) {
                            over.push(ty.clone());
                        }
                    }
                }
                let over = if over.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (in this crate the impls for {} override it)",
                        ticked(over.iter().take(6), ", ")
                    )
                };
                format!(
                    ", the default method of the trait `{t}`: every implementor that does not override `{}` runs it{over}",
                    f.name
                )
            }
            _ => String::new(),
        }
    }

    /// The doc of a fn that makes the error (its prose paragraphs), and the
    /// contracts the doc of its type or trait states.
    fn maker_doc_fact(&self, b: &mut Builder, fi: usize) {
        match &self.symbols.fns[fi].owner {
            Owner::Impl { ty, of_trait } => {
                self.contract_fact(b, ty, "type");
                if let Some(t) = of_trait {
                    self.contract_fact(b, t, "trait");
                }
            }
            Owner::TraitDefault(t) => self.contract_fact(b, t, "trait"),
            Owner::Module => {}
        }
        let Some(d) = self.fn_doc(fi) else { return };
        let parts: Vec<&str> = d.paragraphs.iter().map(String::as_str).collect();
        let Some(q) = docs::quote(&parts) else { return };
        if b.seen(&format!("makerdoc:{fi}")) {
            return;
        }
        let f = &self.symbols.fns[fi];
        b.push(
            FactKind::Doc,
            format!(
                "The doc of `{}`, which makes it, says: \"{q}\"",
                f.qualified()
            ),
            Some((f.path.clone(), f.lines.0)),
            None,
        );
    }

    /// The doc comments of fields a condition reads (`pub flag: bool`).
    pub(super) fn field_doc_facts(&self, b: &mut Builder, fields: &[String]) {
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
            let declared = format!("{field}:");
            'files: for p in paths {
                let text = &self.files[p].file.text;
                for (i, l) in text.lines().enumerate() {
                    let t = l
                        .trim_start()
                        .trim_start_matches("pub(crate) ")
                        .trim_start_matches("pub ");
                    if t.starts_with(&declared) {
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
    pub(super) fn variant_doc_fact(&self, b: &mut Builder, ty: &str, variant: &str) {
        let mut paths: Vec<&String> = self.files.keys().collect();
        paths.sort();
        let declared = format!("enum {ty}");
        for p in paths {
            let text = &self.files[p].file.text;
            let mut in_enum = false;
            for (i, l) in text.lines().enumerate() {
                let t = l.trim_start();
                if t.contains(&declared) && mentions(t, ty) {
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

    /// The variants of the enum `ty` (the first one found, a `pub` one
    /// first), with where it is.
    pub(super) fn enum_variants(&self, ty: &str) -> Option<(String, u32, Vec<Variant>)> {
        let decls = self.type_decls.get(ty).into_iter().flatten();
        let mut enums = decls.filter(|t| t.is_enum).peekable();
        let first = enums.peek().map(|t| (t.path.clone(), t.line));
        let (path, line) = enums
            .find(|t| t.public)
            .map(|t| (t.path.clone(), t.line))
            .or(first)?;
        let lines: Vec<&str> = self.files[&path].file.text.lines().collect();
        let variants = variants_after(&lines, line as usize - 1);
        Some((path, line, variants))
    }

    /// Public fns that set the given fields (`self.f = ..`, `f: ..` in a
    /// fn returning `Self`): the knobs a user turns.
    pub(super) fn setter_facts(&self, b: &mut Builder, fields: &[String], only_ty: Option<&str>) {
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
                        self.namesakes(&c.name).iter().any(|&h| {
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
                ticked(setters.iter(), ", "),
                ticked(fields.iter(), ", ")
            ),
            None,
            None,
        );
    }
}
