//! Snapshot-wide resolution: what one file cannot know alone. Constants
//! holding messages (across files), which types are errors, which files are
//! test modules, crate-local macros whose invocations are sites, and which
//! tests and doc comments speak of which sites.

use crate::{Condition, FileExtraction};
use errdex_model::{Evidence, Extraction, Hole, Piece, Site, SiteEvidence, Template};
use std::collections::{HashMap, HashSet};

/// At most this many sites are linked to one `should_panic` expectation
/// (a short expectation matches too much to say anything).
const MAX_SHOULD_PANIC_LINKS: usize = 8;

/// How many levels of fields below an error type still print as part of
/// its message (`Error { kind: Kind }`, `Kind::Io(Repr)`).
const HELD_DEPTH: usize = 2;

/// The types an error type holds in its fields, down [`HELD_DEPTH`]
/// levels: their `Display` prints inside the error's.
fn held_by_errors(files: &[FileExtraction], is_error: impl Fn(&str) -> bool) -> HashSet<&str> {
    // Types of one name in several modules count together.
    let mut fields: HashMap<&str, Vec<&str>> = HashMap::new();
    for (t, held) in files.iter().flat_map(|f| &f.type_fields) {
        fields
            .entry(t.as_str())
            .or_default()
            .extend(held.iter().map(String::as_str));
    }
    let mut level: Vec<&str> = fields.keys().copied().filter(|t| is_error(t)).collect();
    let mut held: HashSet<&str> = HashSet::new();
    for _ in 0..HELD_DEPTH {
        let next: Vec<&str> = level
            .iter()
            .filter_map(|t| fields.get(t))
            .flatten()
            .copied()
            .filter(|t| fields.contains_key(t) && !is_error(t) && held.insert(t))
            .collect();
        level = next;
    }
    held
}

/// Structs of the snapshot whose `Debug` is derived, by name, with what
/// it prints; names declared twice are left out (which one a field means
/// is unknown).
fn derived_structs(files: &[FileExtraction]) -> HashMap<&str, &Template> {
    let mut by_name: HashMap<&str, Option<&Template>> = HashMap::new();
    for c in files.iter().flat_map(|f| &f.candidates) {
        let s = &c.site;
        if s.kind != errdex_model::Kind::DebugDerive || s.is_test {
            continue;
        }
        let name = s.item_path.rsplit("::").next().unwrap_or(&s.item_path);
        by_name
            .entry(name)
            .and_modify(|t| *t = None)
            .or_insert(Some(&s.template));
    }
    by_name
        .into_iter()
        .filter_map(|(n, t)| t.map(|t| (n, t)))
        .collect()
}

/// A derived `Debug` template with each hole whose field type is another
/// derived struct of the snapshot replaced by that struct's shape
/// (`Cycle({0:?})` holding a `Cycle<N>` prints `Cycle(Cycle({0:?}))`); one
/// level deep. `own`: the struct's own name, never nested in itself.
fn nest_derived(
    t: &Template,
    types: &[String],
    own: Option<&str>,
    derived: &HashMap<&str, &Template>,
) -> Template {
    let mut out = Template::new();
    let mut hole = 0;
    for piece in t.pieces() {
        match piece {
            Piece::Lit(l) => out.push_lit(l),
            Piece::Hole(h) => {
                let inner = types
                    .get(hole)
                    .filter(|ty| Some(ty.as_str()) != own)
                    .and_then(|ty| derived.get(ty.as_str()));
                hole += 1;
                match inner {
                    Some(inner) => {
                        for p in inner.pieces() {
                            match p {
                                Piece::Lit(l) => out.push_lit(l),
                                Piece::Hole(h) => out.push_hole(h.clone()),
                            }
                        }
                    }
                    None => out.push_hole(h.clone()),
                }
            }
        }
    }
    out
}

/// Resolves per-file extractions into one snapshot's sites. Files only
/// documentation builds compile (see [`crate::module_tree`]) yield none.
pub fn resolve(extractor: &dyn crate::Extractor, files: Vec<FileExtraction>) -> Extraction {
    let read = files.len();
    let files = compiled_files(files);
    let error_types: HashSet<&str> = files
        .iter()
        .flat_map(|f| f.error_types.iter().map(String::as_str))
        .collect();
    let mut consts: HashMap<&str, &crate::ConstDef> = HashMap::new();
    for c in files.iter().flat_map(|f| &f.consts) {
        consts.entry(c.name.as_str()).or_insert(c);
    }
    let numbers = number_values(&files);
    let test_modules: Vec<&str> = files
        .iter()
        .flat_map(|f| f.test_modules.iter().map(String::as_str))
        .collect();
    let named_error =
        |t: &str| error_types.contains(t) || t.contains("Error") || t.ends_with("Err");
    let held = held_by_errors(&files, named_error);
    let is_error_type = |t: &str| named_error(t) || held.contains(t);

    let derived = derived_structs(&files);
    let mut sites: Vec<Site> = Vec::new();
    let mut docs: HashMap<&str, Vec<&Evidence>> = HashMap::new();
    let mut macro_calls = Vec::new();
    for f in &files {
        let field_types: HashMap<usize, &[String]> = f
            .debug_fields
            .iter()
            .map(|(i, t)| (*i, t.as_slice()))
            .collect();
        let module = format!("{}#{}", f.module_root, f.module_path.join("::"));
        let file_is_test = test_modules
            .iter()
            .any(|m| module == *m || module.starts_with(&format!("{m}::")));
        for (ci, c) in f.candidates.iter().enumerate() {
            let keep = match &c.condition {
                Condition::Always => true,
                Condition::ErrorType(t) => is_error_type(t),
                Condition::NamedErrorType(t) => named_error(t),
            };
            if !keep {
                continue;
            }
            let mut site = c.site.clone();
            site.is_test |= file_is_test;
            resolve_consts(&mut site, &consts);
            resolve_numbers(&mut site, &numbers);
            if let Some(types) = field_types.get(&ci) {
                // A struct holding itself (`Box<Node>`) is not nested.
                let own = (site.kind == errdex_model::Kind::DebugDerive)
                    .then(|| site.item_path.rsplit("::").next().unwrap_or(""));
                site.template = nest_derived(&site.template, types, own, &derived);
            }
            sites.push(site);
        }
        for d in &f.docs {
            docs.entry(d.item_path.as_str()).or_default().push(d);
        }
        for m in &f.macro_calls {
            macro_calls.push((m, file_is_test));
        }
    }

    // Crate-local macros: every invocation is a site per error site of the body.
    let mut bodies: HashMap<String, Vec<Site>> = HashMap::new();
    for s in &sites {
        if let Some(m) = &s.via_macro {
            if s.item_path.ends_with(&format!("{m}!")) {
                bodies.entry(m.clone()).or_default().push(s.clone());
            }
        }
    }
    // Macros generating a `Display` from `Name => "text"` lists: each
    // literal of an invocation is the message of the variant it names.
    let tables: HashMap<&str, &str> = files
        .iter()
        .flat_map(|f| &f.message_tables)
        .map(|t| (t.macro_name.as_str(), t.ty.as_str()))
        .collect();
    for (call, file_is_test) in &macro_calls {
        let Some(ty) = tables.get(call.name.as_str()) else {
            continue;
        };
        for n in &call.named_literals {
            let mut site = call.proto.clone();
            site.kind = errdex_model::Kind::Display;
            site.template = Template::literal(&n.text);
            site.is_test |= *file_is_test;
            site.line = n.line;
            site.column = n.column;
            site.end_line = n.line;
            site.report_line = n.line;
            site.report_column = n.column;
            site.excerpt_start = n.line.saturating_sub(3).max(1);
            site.excerpt_end = n.line + 3;
            site.via_macro = Some(call.name.clone());
            site.arm = Some(format!("{ty}::{}", n.name));
            site.item_path = if site.item_path.is_empty() {
                format!("{ty}::{}", n.name)
            } else {
                format!("{}::{ty}::{}", site.item_path, n.name)
            };
            sites.push(site);
        }
    }
    for (call, file_is_test) in macro_calls {
        let Some(body_sites) = bodies.get(call.name.as_str()) else {
            continue;
        };
        for body in body_sites {
            let mut site = call.proto.clone();
            site.kind = body.kind;
            site.is_test |= file_is_test;
            site.via_macro = Some(call.name.clone());
            site.message_from = Some(format!("{}:{}", body.path, body.line));
            site.partial = body.partial;
            site.template = expand_template(&body.template, call.args_template.as_ref());
            site.template = stringify_args(&site.template, &call.args_text);
            resolve_consts(&mut site, &consts);
            sites.push(site);
        }
    }

    // One site per reported place and kind.
    let mut seen = HashSet::new();
    sites.retain(|s| {
        seen.insert((
            s.path.clone(),
            s.report_line,
            s.report_column,
            s.kind,
            s.template.clone(),
        ))
    });
    sites.sort_by(|a, b| (&a.path, a.line, a.column).cmp(&(&b.path, b.line, b.column)));

    let mut evidence = Vec::new();
    for (i, s) in sites.iter().enumerate() {
        for d in docs.get(s.item_path.as_str()).into_iter().flatten() {
            evidence.push(SiteEvidence {
                site: i,
                evidence: (*d).clone(),
            });
        }
    }
    let units: Vec<String> = sites.iter().map(|s| extractor.unit_of(&s.path)).collect();
    for sp in files.iter().flat_map(|f| &f.should_panic) {
        let unit = extractor.unit_of(&sp.path);
        let matching = |test: bool| {
            sites
                .iter()
                .enumerate()
                .filter(|(i, _)| units[*i] == unit)
                .filter(|(_, s)| s.is_test == test && (s.kind.panics() || s.via_macro.is_some()))
                .filter(|(_, s)| !s.template.is_dynamic() && s.template.could_contain(&sp.text))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let mut hits = matching(false);
        if hits.is_empty() {
            hits = matching(true);
        }
        if hits.len() <= MAX_SHOULD_PANIC_LINKS {
            for i in hits {
                evidence.push(SiteEvidence {
                    site: i,
                    evidence: sp.clone(),
                });
            }
        }
    }

    Extraction {
        language: extractor.language().to_string(),
        evidence,
        literals: files
            .iter()
            .flat_map(|f| f.literals.iter().cloned())
            .collect(),
        files: read,
        syntax_errors: files.iter().map(|f| f.syntax_errors).sum(),
        sites,
    }
}

/// The files a program build may compile: those only documentation builds
/// compile are left out.
fn compiled_files(mut files: Vec<FileExtraction>) -> Vec<FileExtraction> {
    let docs_only: HashSet<String> = {
        let view: Vec<(&str, &[crate::ModDecl])> = files
            .iter()
            .map(|f| (f.path.as_str(), f.mods.as_slice()))
            .collect();
        crate::module_tree::docs_only(&view)
            .into_iter()
            .map(str::to_string)
            .collect()
    };
    files.retain(|f| !docs_only.contains(&f.path));
    files
}

/// The value of each numeric const of the snapshot, aliases followed; a
/// name defined with two values (under two `cfg`s, in two types) has none.
fn number_values(files: &[FileExtraction]) -> HashMap<&str, String> {
    let mut defs: HashMap<&str, Option<&crate::NumberValue>> = HashMap::new();
    for n in files.iter().flat_map(|f| &f.numbers) {
        defs.entry(n.name.as_str())
            .and_modify(|v| {
                if *v != Some(&n.value) {
                    *v = None;
                }
            })
            .or_insert(Some(&n.value));
    }
    let value = |name: &str| {
        let mut name = name;
        // A few links at most (`LANGUAGE_VERSION` → `ffi::…VERSION` → 14).
        for _ in 0..4 {
            match defs.get(name).copied().flatten()? {
                crate::NumberValue::Literal(v) => return Some(v.clone()),
                crate::NumberValue::Alias(a) => name = a,
            }
        }
        None
    };
    defs.keys().filter_map(|n| Some((*n, value(n)?))).collect()
}

/// Replaces holes that print a numeric constant (`{}` or `{:?}`) by its
/// value: the text says which version printed it (tree-sitter's
/// `Expected minimum {}, maximum {}` of two constants that changed).
fn resolve_numbers(site: &mut Site, numbers: &HashMap<&str, String>) {
    let value = |h: &Hole| {
        if !(h.spec.is_empty() || h.spec == "?") {
            return None;
        }
        // A constant's name, not a variable that shares it.
        let name = h.arg.rsplit("::").next().unwrap_or(&h.arg);
        let constant = name.starts_with(|c: char| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        numbers.get(name).filter(|_| constant)
    };
    if !site
        .template
        .pieces()
        .iter()
        .any(|p| matches!(p, Piece::Hole(h) if value(h).is_some()))
    {
        return;
    }
    let mut t = Template::new();
    for p in site.template.pieces() {
        match p {
            Piece::Lit(s) => t.push_lit(s),
            Piece::Hole(h) => match value(h) {
                Some(v) => t.push_lit(v),
                None => t.push_hole(h.clone()),
            },
        }
    }
    site.template = t;
}

/// Replaces holes that print a message constant by the constant's text.
fn resolve_consts(site: &mut Site, consts: &HashMap<&str, &crate::ConstDef>) {
    let mut from = None;
    let mut t = Template::new();
    let mut changed = false;
    for p in site.template.pieces() {
        match p {
            Piece::Lit(s) => t.push_lit(s),
            Piece::Hole(h) => {
                let name = h.arg.rsplit("::").next().unwrap_or(&h.arg);
                match consts.get(name).filter(|_| h.spec.is_empty()) {
                    Some(c) => {
                        t.append(&c.template);
                        from.get_or_insert_with(|| c.location.clone());
                        changed = true;
                    }
                    None => t.push_hole(h.clone()),
                }
            }
        }
    }
    if changed {
        site.template = t;
        site.delegates_to = None;
        if site.message_from.is_none() {
            site.message_from = from;
        }
    }
}

/// A macro body's template at one invocation: holes naming macro
/// metavariables (`$msg`, `$($arg)*`) take the invocation's own format
/// arguments, when it passes a format string.
/// A body's stringified metavariable (`assert!($cond)`'s condition) as the
/// invocation's own tokens.
fn stringify_args(t: &Template, args_text: &str) -> Template {
    let mut out = Template::new();
    for p in t.pieces() {
        match p {
            Piece::Hole(h) if h.spec == crate::STRINGIFY => out.push_lit(args_text),
            Piece::Lit(s) => out.push_lit(s),
            Piece::Hole(h) => out.push_hole(h.clone()),
        }
    }
    out
}

fn expand_template(body: &Template, args: Option<&Template>) -> Template {
    let Some(args) = args else {
        return body.clone();
    };
    let is_meta = |h: &Hole| h.arg.starts_with('$');
    let pieces = body.pieces();
    let first_meta = pieces
        .iter()
        .position(|p| matches!(p, Piece::Hole(h) if is_meta(h)));
    let Some(first_meta) = first_meta else {
        return body.clone();
    };
    let mut t = Template::new();
    for p in &pieces[..first_meta] {
        match p {
            Piece::Lit(s) => t.push_lit(s),
            Piece::Hole(h) => t.push_hole(h.clone()),
        }
    }
    t.append(args);
    let mut rest_started = false;
    for p in &pieces[first_meta + 1..] {
        match p {
            Piece::Hole(h) if is_meta(h) && !rest_started => {}
            Piece::Lit(s) => {
                rest_started = true;
                t.push_lit(s);
            }
            Piece::Hole(h) => {
                rest_started = true;
                t.push_hole(h.clone());
            }
        }
    }
    t
}
