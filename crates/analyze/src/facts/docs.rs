//! Doc comments read from the source: the thrower's whole doc, the
//! `# Panics`/`# Errors` sections of the public fns a user calls to reach
//! it, and the contracts the docs of its type and trait state.

use super::*;

/// Words that make a doc sentence a contract: a requirement, a limit, a
/// failure.
const CONTRACT_WORDS: [&str; 16] = [
    " must",
    "must ",
    " only ",
    " never ",
    "require",
    "at most",
    "at least",
    "cannot",
    "can not",
    "panic",
    "invalid",
    " fail",
    " error",
    " limit",
    "not allowed",
    " expected ",
];

/// Doc sections quoted because the message names their topic.
const MAX_TOPICAL: usize = 2;

/// Headings every doc may have, whatever the message: never a topic.
const GENERIC_HEADINGS: [&str; 12] = [
    "example",
    "panic",
    "error",
    "safety",
    "note",
    "usage",
    "performance",
    "implementation",
    "platform",
    "behavior",
    "see",
    "also",
];

/// A word in the singular, lowercased (`Captures` → `capture`).
fn singular(w: &str) -> String {
    let w = w.to_lowercase();
    w.strip_suffix('s').map(str::to_string).unwrap_or(w)
}

/// True when every word of a doc heading (of four letters or more) is a
/// word of the message, plurals aside: the section is about what the
/// message names (`# Captures` for "For capture groups, use `{capture}`").
pub(super) fn heading_named_by(heading: &str, message: &str) -> bool {
    let words: Vec<String> = heading
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 4)
        .map(singular)
        .collect();
    if words.is_empty() || words.iter().any(|w| GENERIC_HEADINGS.contains(&w.as_str())) {
        return false;
    }
    let said: HashSet<String> = message
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(singular)
        .collect();
    words.iter().all(|w| said.contains(w))
}

/// Characters a quoted doc passage keeps.
const MAX_QUOTE: usize = 600;

/// Public fns whose docs are quoted.
const MAX_DOC_ENTRIES: usize = 4;

/// A `///` doc comment: its prose paragraphs and its `# Heading` sections,
/// code blocks left out.
#[derive(Debug, Default, PartialEq)]
pub(super) struct DocComment {
    /// The paragraphs before the first heading, each on one line.
    pub(super) paragraphs: Vec<String>,
    /// `(heading, text)` of each section.
    pub(super) sections: Vec<(String, String)>,
}

impl DocComment {
    /// The text under a heading (`Panics`, `Errors`), when there is one.
    pub(super) fn section(&self, heading: &str) -> Option<&str> {
        self.sections
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(heading))
            .map(|(_, t)| t.as_str())
    }

    /// The paragraphs (and sections other than examples) that state a
    /// contract, joined, at most [`MAX_QUOTE`] characters.
    pub(super) fn contracts(&self) -> Option<String> {
        let parts = self.paragraphs.iter().chain(
            self.sections
                .iter()
                .filter(|(h, _)| {
                    let h = h.to_lowercase();
                    !h.starts_with("example")
                        && !["panics", "errors", "safety"].contains(&h.as_str())
                })
                .map(|(_, t)| t),
        );
        let picked: Vec<&str> = parts
            .filter(|p| {
                let l = format!(" {} ", p.to_lowercase());
                CONTRACT_WORDS.iter().any(|w| l.contains(w))
            })
            .map(String::as_str)
            .chain(
                self.sections
                    .iter()
                    .filter(|(h, _)| {
                        ["panics", "errors", "safety"].contains(&h.to_lowercase().as_str())
                    })
                    .map(|(_, t)| t.as_str()),
            )
            .collect();
        quote(&picked)
    }
}

/// Paragraphs joined and cut at [`MAX_QUOTE`] characters (at a sentence end
/// when there is one).
pub(super) fn quote(parts: &[&str]) -> Option<String> {
    let joined = parts.join(" ");
    if joined.trim().is_empty() {
        return None;
    }
    if joined.chars().count() <= MAX_QUOTE {
        return Some(joined);
    }
    let cut: String = joined.chars().take(MAX_QUOTE).collect();
    Some(match cut.rfind(". ") {
        Some(i) if i > MAX_QUOTE / 2 => cut[..=i].to_string(),
        _ => format!("{cut}…"),
    })
}

/// ` Its doc says: "…"` with the first paragraph of a doc, or nothing.
pub(super) fn summary(doc: Option<DocComment>) -> String {
    doc.and_then(|d| d.paragraphs.first().and_then(|p| quote(&[p.as_str()])))
        .map(|q| format!(" Its doc says: \"{q}\""))
        .unwrap_or_default()
}

/// `[`x`][y]`, `[`x`](y)` and `[`x`]` → `` `x` ``; `2<sup>96</sup>` →
/// `2^96`.
fn plain_links(s: &str) -> String {
    let s = s.replace("<sup>", "^").replace("</sup>", "");
    let s = s.as_str();
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let Some(j) = after.find(']') else {
            out.push_str(&rest[i..]);
            return out;
        };
        out.push_str(&after[..j]);
        let tail = &after[j + 1..];
        rest = match tail.chars().next() {
            Some('(') => tail.find(')').map_or(tail, |k| &tail[k + 1..]),
            Some('[') => tail.find(']').map_or(tail, |k| &tail[k + 1..]),
            _ => tail,
        };
    }
    out.push_str(rest);
    out
}

/// A line of an item's docs: a `///` line (or a `#[doc = "..."]`), or a
/// file the docs include (`#[doc = include_str!("../docs/route.md")]`).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum DocLine {
    Text(String),
    Include(String),
}

/// The doc lines above the item whose first line (after its attributes) is
/// `at` (1-based) in `text`, in order.
pub(super) fn doc_lines_above(text: &str, at: usize) -> Vec<DocLine> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(mut i) = at.checked_sub(1) else {
        return Vec::new();
    };
    let mut docs = Vec::new();
    let mut in_attr = false;
    while i > 0 {
        i -= 1;
        let Some(t) = lines.get(i).map(|l| l.trim()) else {
            break;
        };
        if let Some(d) = t.strip_prefix("///") {
            in_attr = false;
            docs.push(DocLine::Text(
                d.strip_prefix(' ').unwrap_or(d).trim_end().to_string(),
            ));
        } else if t.starts_with("#[") || t.starts_with("#![") {
            in_attr = false;
            let value = t
                .strip_prefix("#[doc")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('='))
                .map(str::trim)
                .and_then(|r| r.strip_suffix(']'))
                .map(str::trim);
            if let Some(v) = value {
                if let Some(file) = v
                    .strip_prefix("include_str!(\"")
                    .and_then(|r| r.strip_suffix("\")"))
                {
                    docs.push(DocLine::Include(file.to_string()));
                } else if let Some(lit) = v.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
                    docs.push(DocLine::Text(lit.trim().to_string()));
                }
            }
        } else if t.ends_with(")]") || t.ends_with("]") && !t.ends_with("[]") {
            // The last line of an attribute written on several lines.
            in_attr = true;
        } else if in_attr && !t.is_empty() && !t.ends_with(';') && !t.ends_with('}') {
            continue;
        } else {
            break;
        }
    }
    docs.reverse();
    docs
}

/// `dir/../x.md` → `x.md`: a path relative to the folder of `from`.
pub(super) fn relative_path(from: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for seg in rel.split('/') {
        match seg {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// The `///` doc comment of the item whose first line (after its
/// attributes) is `at` (1-based) in `text` (included files left out).
pub(super) fn doc_comment_above(text: &str, at: usize) -> Option<DocComment> {
    let docs = doc_lines_above(text, at)
        .into_iter()
        .filter_map(|d| match d {
            DocLine::Text(t) => Some(t),
            DocLine::Include(_) => None,
        })
        .collect();
    parse_doc(docs)
}

/// Doc lines (markdown) read as paragraphs and sections.
pub(super) fn parse_doc(docs: Vec<String>) -> Option<DocComment> {
    if docs.is_empty() {
        return None;
    }
    let mut out = DocComment::default();
    let mut para: Vec<String> = Vec::new();
    let mut heading: Option<String> = None;
    let mut in_code = false;
    let flush = |out: &mut DocComment, para: &mut Vec<String>, heading: &Option<String>| {
        let p = plain_links(&para.join(" "));
        para.clear();
        if p.trim().is_empty() {
            return;
        }
        match heading {
            None => out.paragraphs.push(p),
            Some(h) => match out.sections.iter_mut().find(|(x, _)| x == h) {
                Some((_, t)) => {
                    t.push(' ');
                    t.push_str(&p);
                }
                None => out.sections.push((h.clone(), p)),
            },
        }
    };
    for d in docs {
        // A markdown link definition (`[`Path`]: crate::extract::Path`) is
        // no prose.
        let t = d.trim_start();
        if t.starts_with('[')
            && t.split_once("]:")
                .is_some_and(|(l, _)| !l.contains(' ') || l.contains('`'))
        {
            continue;
        }
        if d.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(h) = d.trim_start().strip_prefix('#') {
            flush(&mut out, &mut para, &heading);
            heading = Some(h.trim_start_matches('#').trim().to_string());
        } else if d.trim().is_empty() {
            flush(&mut out, &mut para, &heading);
        } else {
            para.push(d.trim().to_string());
        }
    }
    flush(&mut out, &mut para, &heading);
    Some(out)
}

impl Analyzer {
    /// The doc comment of fn `fi`.
    pub(super) fn fn_doc(&self, fi: usize) -> Option<DocComment> {
        let f = &self.symbols.fns[fi];
        self.doc_at(&f.path, f.lines.0 as usize)
    }

    /// The docs of the item at line `at` of file `path`: its `///` lines
    /// and `#[doc = ".."]`s, with the files it includes
    /// (`#[doc = include_str!("../docs/route.md")]`) read from the
    /// snapshot in their place.
    pub(super) fn doc_at(&self, path: &str, at: usize) -> Option<DocComment> {
        let pf = self.files.get(path)?;
        let mut lines = Vec::new();
        for d in doc_lines_above(&pf.file.text, at) {
            match d {
                DocLine::Text(t) => lines.push(t),
                DocLine::Include(rel) => {
                    if let Some(inc) = self.files.get(&relative_path(path, &rel)) {
                        lines.extend(inc.file.text.lines().map(|l| l.trim_end().to_string()));
                    }
                }
            }
        }
        parse_doc(lines)
    }

    /// The doc comment of the `struct`, `enum`, `union` or `trait` named
    /// `name` (a `pub` one first), with where it is.
    pub(super) fn type_doc(&self, name: &str) -> Option<(String, u32, DocComment)> {
        let mut found = None;
        for t in self.type_decls.get(name).into_iter().flatten() {
            if let Some(d) = self.doc_at(&t.path, t.line as usize) {
                if t.public {
                    return Some((t.path.clone(), t.line, d));
                }
                found.get_or_insert((t.path.clone(), t.line, d));
            }
        }
        found
    }

    /// ` Its doc says: "…"` with the first paragraph of the doc of fn
    /// `fi` (what a user calling a public entry reads), or nothing.
    pub(super) fn doc_summary(&self, fi: usize) -> String {
        summary(self.fn_doc(fi))
    }

    /// The doc of a crate fn whose failure leads to the site (its result
    /// unwrapped, or fallen back from): what it promises and when it fails.
    pub(super) fn callee_doc_fact(&self, b: &mut Builder, fi: usize) {
        let Some(d) = self.fn_doc(fi) else { return };
        let parts: Vec<&str> = d
            .paragraphs
            .iter()
            .map(String::as_str)
            .chain(
                d.sections
                    .iter()
                    .filter(|(h, _)| !h.to_lowercase().starts_with("example"))
                    .map(|(_, t)| t.as_str()),
            )
            .collect();
        let Some(q) = quote(&parts) else { return };
        let f = &self.symbols.fns[fi];
        if b.seen(&format!("calleedoc:{fi}")) {
            return;
        }
        b.push(
            FactKind::Doc,
            format!(
                "The doc of `{}`, whose failure leads here, says: \"{q}\"",
                f.qualified()
            ),
            Some((f.path.clone(), f.lines.0)),
            None,
        );
    }

    /// The doc of a method as the trait `tr` declares it (what implementors
    /// must provide).
    fn trait_method_doc(&self, tr: &str, method: &str) -> Option<(usize, DocComment)> {
        let i = self.by_name.get(method)?.iter().copied().find(|&i| {
            let g = &self.symbols.fns[i];
            matches!(&g.owner, Owner::TraitDefault(t) if t == tr) && !g.is_test
        });
        if let Some(i) = i {
            return self.fn_doc(i).map(|d| (i, d));
        }
        None
    }

    /// Doc facts: the rest of the thrower's doc, the contracts stated by
    /// the docs of its type and trait, and the `# Panics`/`# Errors`
    /// sections of the public fns that reach it.
    pub(super) fn doc_comment_facts(&self, b: &mut Builder, throwers: &[usize], message: &str) {
        for &fi in throwers {
            let f = &self.symbols.fns[fi];
            let at = Some((f.path.clone(), f.lines.0));
            if let Some(d) = self.fn_doc(fi) {
                // The first paragraph and the `# Panics`/`# Errors` sections
                // are quoted from the catalogue's evidence.
                let rest: Vec<&str> = d
                    .paragraphs
                    .iter()
                    .skip(1)
                    .map(String::as_str)
                    .chain(
                        d.sections
                            .iter()
                            .filter(|(h, _)| {
                                let h = h.to_lowercase();
                                !h.starts_with("example") && h != "panics" && h != "errors"
                            })
                            .map(|(_, t)| t.as_str()),
                    )
                    .collect();
                if let Some(q) = quote(&rest) {
                    if !b.seen(&format!("docrest:{fi}")) {
                        b.push_detailed(
                            FactKind::Doc,
                            format!("Its doc comment goes on: \"{q}\""),
                            at.clone(),
                            Detail::Doc {
                                of: None,
                                heading: None,
                                quote: q,
                            },
                        );
                    }
                }
            }
            let (ty, tr) = match &f.owner {
                Owner::Impl { ty, of_trait } => (Some(ty.as_str()), of_trait.as_deref()),
                Owner::TraitDefault(t) => (None, Some(t.as_str())),
                Owner::Module => (None, None),
            };
            if let Some(tr) = tr {
                self.contract_fact(b, tr, "trait");
                if matches!(f.owner, Owner::Impl { .. }) {
                    if let Some((ti, d)) = self.trait_method_doc(tr, &f.name) {
                        let t = &self.symbols.fns[ti];
                        let parts: Vec<&str> = d.paragraphs.iter().map(String::as_str).collect();
                        if let Some(q) = quote(&parts) {
                            if !b.seen(&format!("traitmethoddoc:{tr}:{}", f.name)) {
                                b.push(
                                    FactKind::Doc,
                                    format!(
                                        "The trait `{tr}` documents `{}` (what every implementor must provide): \"{q}\"",
                                        f.name
                                    ),
                                    Some((t.path.clone(), t.lines.0)),
                                    None,
                                );
                            }
                        }
                    }
                }
            }
            if let Some(ty) = ty {
                self.contract_fact(b, ty, "type");
                self.alias_contract_facts(b, ty);
                // The section of the type's doc on what the message names.
                if let Some((path, line, d)) = self.type_doc(ty) {
                    for (h, t) in &d.sections {
                        if !heading_named_by(h, message) {
                            continue;
                        }
                        let Some(q) = quote(&[t.as_str()]) else {
                            continue;
                        };
                        if b.seen(&format!("topical:{q}")) {
                            continue;
                        }
                        b.push(
                            FactKind::Doc,
                            format!(
                                "The doc of the type `{ty}` has a section `# {h}` on what the message names: \"{q}\""
                            ),
                            Some((path.clone(), line)),
                            None,
                        );
                    }
                }
            }
        }
        let mut quoted = 0;
        let mut topical = 0;
        for e in self.public_reachers(throwers) {
            if quoted == MAX_DOC_ENTRIES {
                break;
            }
            let Some(d) = self.fn_doc(e) else { continue };
            let g = &self.symbols.fns[e];
            // The section of the entry's doc on what the message names
            // (`# Captures` for "For capture groups, use `{capture}`").
            for (h, t) in &d.sections {
                if topical == MAX_TOPICAL || !heading_named_by(h, message) {
                    continue;
                }
                let Some(q) = quote(&[t.as_str()]) else {
                    continue;
                };
                if b.seen(&format!("topical:{q}")) {
                    continue;
                }
                b.push(
                    FactKind::Doc,
                    format!(
                        "The doc of `{}` (a public fn that reaches it) has a section `# {h}` on what the message names: \"{q}\"",
                        g.qualified()
                    ),
                    Some((g.path.clone(), g.lines.0)),
                    None,
                );
                topical += 1;
            }
            for (h, heading) in [
                ("Panics", DocHeading::Panics),
                ("Errors", DocHeading::Errors),
            ] {
                if let Some(t) = d.section(h) {
                    let Some(q) = quote(&[t]) else { continue };
                    if b.seen(&format!("entrydoc:{e}:{h}")) {
                        continue;
                    }
                    b.push_detailed(
                        FactKind::Doc,
                        format!(
                            "The doc of `{}` (a public fn that reaches it) says under `# {h}`: \"{q}\"",
                            g.qualified()
                        ),
                        Some((g.path.clone(), g.lines.0)),
                        Detail::Doc {
                            of: Some(g.qualified()),
                            heading: Some(heading),
                            quote: q,
                        },
                    );
                    quoted += 1;
                }
            }
        }
    }

    /// The contract paragraphs of the docs of the public type aliases
    /// built on `ty` (`pub type Condvar = lock_api::Condvar<RawCondvar>`):
    /// the names users know the type by.
    fn alias_contract_facts(&self, b: &mut Builder, ty: &str) {
        for a in &self.type_aliases {
            let (name, rhs) = (&a.name, &a.rhs);
            if name == ty || !mentions(rhs, ty) || b.seen(&format!("alias:{name}")) {
                continue;
            }
            let Some(q) = self
                .doc_at(&a.path, a.line as usize)
                .and_then(|d| d.contracts())
            else {
                continue;
            };
            b.push(
                FactKind::Doc,
                format!(
                    "`{name}` is the public name of a type built on `{ty}` (`pub type {name} ={}`); its doc says: \"{q}\"",
                    rhs.trim_end().trim_end_matches(';')
                ),
                Some((a.path.clone(), a.line)),
                None,
            );
        }
    }

    /// The contract paragraphs of the doc of a type or trait.
    pub(super) fn contract_fact(&self, b: &mut Builder, name: &str, what: &str) {
        if b.seen(&format!("contract:{name}")) {
            return;
        }
        let Some((path, line, d)) = self.type_doc(name) else {
            return;
        };
        if let Some(q) = d.contracts() {
            b.push(
                FactKind::Doc,
                format!("The doc of the {what} `{name}` says: \"{q}\""),
                Some((path, line)),
                None,
            );
        }
    }

    /// The public fns (free or inherent) that reach any of `throwers`
    /// within a few resolved calls, nearest first; the throwers themselves
    /// left out.
    pub(super) fn public_reachers(&self, throwers: &[usize]) -> Vec<usize> {
        self.reached_from(throwers, MAX_HOPS, 40)
            .into_iter()
            .filter(|&i| {
                let f = &self.symbols.fns[i];
                f.is_pub
                    && matches!(f.owner, Owner::Module | Owner::Impl { of_trait: None, .. })
                    && !throwers.contains(&i)
            })
            .collect()
    }
}

/// A `struct`, `enum`, `union` or `trait` declaration, read from its
/// line's text.
pub(super) struct TypeDecl {
    /// The file.
    pub(super) path: String,
    /// Its 1-based line.
    pub(super) line: u32,
    /// Declared `pub`.
    pub(super) public: bool,
    /// An `enum`.
    pub(super) is_enum: bool,
}

/// The type declarations of a file by name (read once per snapshot;
/// [`Analyzer::type_doc`] and [`Analyzer::enum_variants`] look names up in
/// them).
pub(super) fn type_declarations(path: &str, text: &str) -> Vec<(String, TypeDecl)> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start();
        let public = t.starts_with("pub ");
        let t = t
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .trim_start_matches("unsafe ");
        let Some((kw, rest)) = ["struct ", "enum ", "union ", "trait "]
            .iter()
            .find_map(|kw| Some((*kw, t.strip_prefix(kw)?)))
        else {
            continue;
        };
        let name = errdex_syntax::leading_ident(rest);
        if !name.is_empty() {
            let decl = TypeDecl {
                path: path.to_string(),
                line: i as u32 + 1,
                public,
                is_enum: kw == "enum ",
            };
            out.push((name.to_string(), decl));
        }
    }
    out
}

/// A `pub type NAME = RHS` line.
pub(super) struct TypeAlias {
    /// The file.
    pub(super) path: String,
    /// Its 1-based line.
    pub(super) line: u32,
    /// The alias.
    pub(super) name: String,
    /// What follows the `=` on that line.
    pub(super) rhs: String,
}

/// The public type aliases of a file (read once per snapshot).
pub(super) fn public_type_aliases(path: &str, text: &str) -> Vec<TypeAlias> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let Some(rest) = l.trim_start().strip_prefix("pub type ") else {
            continue;
        };
        let Some((name, rhs)) = rest.split_once('=') else {
            continue;
        };
        out.push(TypeAlias {
            path: path.to_string(),
            line: i as u32 + 1,
            name: errdex_syntax::leading_ident(name.trim()).to_string(),
            rhs: rhs.to_string(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_comment_split_into_paragraphs_and_sections_without_code() {
        let src = "/// Returns the value.\n///\n/// The key must be [`Slab::contains`]ed.\n///\n/// # Panics\n///\n/// If `key` is vacant.\n///\n/// # Examples\n///\n/// ```\n/// # Panics here\n/// let a = 1;\n/// ```\n#[inline]\n#[cfg_attr(\n    feature = \"x\",\n    track_caller\n)]\npub fn get() {}\n";
        let at = src.lines().position(|l| l.starts_with("pub fn")).unwrap() + 1;
        let d = doc_comment_above(src, at).unwrap();
        assert_eq!(
            d.paragraphs,
            vec![
                "Returns the value.".to_string(),
                "The key must be `Slab::contains`ed.".to_string()
            ]
        );
        assert_eq!(d.section("panics"), Some("If `key` is vacant."));
        assert_eq!(d.section("Examples"), None);
        assert_eq!(
            d.contracts().as_deref(),
            Some("The key must be `Slab::contains`ed. If `key` is vacant.")
        );
    }
}
