//! Code that exists in one configuration only: a fn or macro under a
//! `cfg` whose sibling under the negated `cfg` is compiled instead
//! (`#[cfg(debug_assertions)]` / `#[cfg(not(debug_assertions))]`,
//! `feature = "x"` / `not(feature = "x")`), and a check such a macro makes
//! before the site in one configuration only.

use super::*;

/// The negation of a `cfg` predicate: `not(X)` ↔ `X`.
pub(super) fn negation(cfg: &str) -> String {
    let c = cfg.trim();
    match c.strip_prefix("not(").and_then(|r| r.strip_suffix(')')) {
        Some(inner) => inner.trim().to_string(),
        None => format!("not({c})"),
    }
}

/// What a `cfg` predicate means for the builds a user makes, when it is
/// about the build profile.
pub(super) fn build_meaning(cfg: &str) -> Option<&'static str> {
    match cfg.split_whitespace().collect::<String>().as_str() {
        "debug_assertions" => Some(
            "debug builds only (`debug_assertions` is on in `cargo build`, `cargo run` and `cargo test`, off in `--release` builds)",
        ),
        "not(debug_assertions)" => Some(
            "release builds only (`--release`, where `debug_assertions` is off)",
        ),
        _ => None,
    }
}

/// `` `cfg(X)` `` and, for the build profile, what that means.
fn cfg_words(cfg: &str) -> String {
    match build_meaning(cfg) {
        Some(m) => format!("`cfg({cfg})`, {m}"),
        None => format!("`cfg({cfg})`"),
    }
}

/// True when every rule of a macro expands to nothing (`=> {}`, `=> ()`).
pub(super) fn expands_to_nothing(m: &syntax::MacroDef) -> bool {
    !m.rules.is_empty()
        && m.rules.iter().all(|(_, body, _)| {
            let b: String = body.split_whitespace().collect();
            b.is_empty() || b == "()" || b == "{}" || b == ";"
        })
}

impl Analyzer {
    /// The thrower under a `cfg` that has a namesake under the negated
    /// `cfg`: that one is compiled instead.
    pub(super) fn cfg_sibling_facts(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        for g in &f.gates {
            let neg = negation(g);
            let neg_compact: String = neg.split_whitespace().collect();
            let sibling = self.symbols.fns.iter().find(|h| {
                h.name == f.name
                    && h.owner == f.owner
                    && (h.path != f.path || h.lines != f.lines)
                    && h.gates
                        .iter()
                        .any(|x| x.split_whitespace().collect::<String>() == neg_compact)
            });
            let Some(h) = sibling else { continue };
            if b.seen(&format!("cfgsibling:{}:{}", h.path, h.lines.0)) {
                continue;
            }
            b.push(
                FactKind::Mechanism,
                format!(
                    "This `{}` exists only under {}; under `cfg({neg})` the crate compiles the other `{}` ({}:{}) instead, and a build in that configuration runs that one, not this code.",
                    f.qualified(),
                    cfg_words(g),
                    h.qualified(),
                    h.path,
                    h.lines.0
                ),
                Some((h.path.clone(), h.lines.0)),
                None,
            );
        }
    }

    /// A site in the body of a `macro_rules!` defined under a `cfg`: the
    /// definition compiled under the negated `cfg`, and what it expands to.
    pub(super) fn gated_macro_body_facts(&self, b: &mut Builder, s: &SiteRow) {
        let Some(def) = self.symbols.macros.iter().find(|m| {
            m.path == s.path
                && m.rules.iter().any(|(_, body, start)| {
                    *start <= s.line && s.line <= *start + body.lines().count() as u32
                })
        }) else {
            return;
        };
        for g in &def.gates {
            let neg: String = negation(g).split_whitespace().collect();
            let Some(other) = self.symbols.macros.iter().find(|m| {
                m.name == def.name
                    && (m.path != def.path || m.line != def.line)
                    && m.gates
                        .iter()
                        .any(|x| x.split_whitespace().collect::<String>() == neg)
            }) else {
                continue;
            };
            if b.seen(&format!("gatedbody:{}:{}", other.path, other.line)) {
                continue;
            }
            let expands = if expands_to_nothing(other) {
                "to nothing: there is no check, and the code after each invocation runs unchecked"
                    .to_string()
            } else {
                let body: String = other
                    .rules
                    .first()
                    .map(|(_, body, _)| body.split_whitespace().collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                format!("to `{}`", body.chars().take(120).collect::<String>())
            };
            b.push(
                FactKind::Mechanism,
                format!(
                    "`{}!` is defined here under {}; under `cfg({})` it is the definition at {}:{}, which expands {expands}.",
                    def.name,
                    cfg_words(g),
                    negation(g),
                    other.path,
                    other.line
                ),
                Some((other.path.clone(), other.line)),
                None,
            );
        }
    }

    /// Checks fn `fi` makes before `line` through a crate macro defined
    /// twice under opposite `cfg`s, once as a check and once as nothing:
    /// in one configuration that check fails first, with its own message;
    /// in the other the code goes on to `line`.
    pub(super) fn gated_check_before_facts(&self, b: &mut Builder, fi: usize, line: u32) {
        let f = &self.symbols.fns[fi];
        let calls = self
            .symbols
            .macro_calls
            .iter()
            .filter(|c| c.caller == Some(fi) && c.path == f.path && c.line < line);
        for c in calls {
            let defs: Vec<&syntax::MacroDef> = self
                .symbols
                .macros
                .iter()
                .filter(|d| d.name == c.name)
                .collect();
            let (empty, checking): (Vec<&syntax::MacroDef>, Vec<&syntax::MacroDef>) =
                defs.iter().partition(|d| expands_to_nothing(d));
            let (Some(on), Some(off)) = (checking.first(), empty.first()) else {
                continue;
            };
            let (Some(on_cfg), Some(off_cfg)) = (on.gates.first(), off.gates.first()) else {
                continue;
            };
            // One statement per macro: its other callers say the same.
            if b.seen(&format!("checkbefore:{}", c.name)) {
                continue;
            }
            // The check's own message: the error made in its body.
            let message = self
                .errors
                .iter()
                .find(|e| !e.is_test && e.item_path.ends_with(&format!("{}!", c.name)))
                .map(|e| format!(" and fails with its own message \"{}\"", e.template))
                .unwrap_or_default();
            b.push(
                FactKind::Mechanism,
                format!(
                    "Before this, `{}` runs `{}!` ({}:{}), which is defined twice: under {} it checks{message} ({}:{}); under {} it expands to nothing ({}:{}). So this error is what a build without that check reports: there `{}` goes on to line {line}.",
                    f.qualified(),
                    c.name,
                    c.path,
                    c.line,
                    cfg_words(on_cfg),
                    on.path,
                    on.line,
                    cfg_words(off_cfg),
                    off.path,
                    off.line,
                    f.qualified()
                ),
                Some((c.path.clone(), c.line)),
                None,
            );
        }
    }
}

/// The fields a condition reads (`.name` not called): `!$this.flag &&
/// self.depth == 0` → `flag`, `depth`.
pub(super) fn fields_read(cond: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, _) in cond.match_indices('.') {
        let r = &cond[i + 1..];
        let e = r
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        let name = &r[..e];
        let called = r[e..].trim_start().starts_with('(') || r[e..].starts_with("::");
        if name.is_empty()
            || called
            || name.starts_with(|c: char| c.is_ascii_digit() || c.is_uppercase())
            || out.iter().any(|x| x == name)
        {
            continue;
        }
        out.push(name.to_string());
    }
    out
}

/// True when `text` assigns the field `field` (`x.field = ..`,
/// `x.field += ..`), not only compares it.
fn assigns_field(text: &str, field: &str) -> bool {
    let pat = format!(".{field}");
    text.match_indices(&pat).any(|(i, _)| {
        let r = &text[i + pat.len()..];
        if r.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let r = r.trim_start();
        let op = ["=", "+=", "-=", "*=", "/=", "|=", "&=", "^="]
            .iter()
            .find(|o| r.starts_with(**o));
        op.is_some_and(|o| !r[o.len()..].starts_with('='))
    })
}

impl Analyzer {
    /// The crate macros whose invocation (`name! { .. }`) encloses a
    /// position of a file: their names, innermost first.
    fn enclosing_invocations(&self, path: &str, line: u32) -> Vec<String> {
        let Some(pf) = self.files.get(path) else {
            return Vec::new();
        };
        let lines: Vec<&str> = pf.file.text.lines().collect();
        let end = (line as usize).saturating_sub(1).min(lines.len());
        let mut out: Vec<String> = Vec::new();
        for start in (end.saturating_sub(30)..end).rev() {
            let l = lines[start];
            for (i, _) in l.match_indices('!') {
                let name = errdex_syntax::trailing_ident(&l[..i]);
                let after = l[i + 1..].trim_start();
                if name.is_empty() || !after.starts_with(['{', '(', '[']) {
                    continue;
                }
                if !self.symbols.macros.iter().any(|m| m.name == name) {
                    continue;
                }
                // Brackets opened at the invocation and still open at the
                // start of `line`.
                let open = l.len() - after.len();
                let mut depth = 0i32;
                let between =
                    std::iter::once(&l[open..]).chain(lines[start + 1..end].iter().copied());
                for t in between {
                    let code = t.split("//").next().unwrap_or("");
                    for c in code.chars() {
                        match c {
                            '{' | '(' | '[' => depth += 1,
                            '}' | ')' | ']' => depth -= 1,
                            _ => {}
                        }
                    }
                }
                if depth > 0 && !out.iter().any(|o| o == name) {
                    out.push(name.to_string());
                }
            }
        }
        out
    }

    /// A position inside the invocation of a crate macro one of whose
    /// definitions, under a `cfg`, wraps its input in `if COND { .. }`:
    /// in that configuration the code runs only when `COND` holds. Then
    /// the public fns that write a field `COND` reads.
    pub(super) fn wrapping_macro_facts(&self, b: &mut Builder, path: &str, line: u32) {
        for name in self.enclosing_invocations(path, line) {
            for def in self.symbols.macros.iter().filter(|m| m.name == name) {
                let Some(gate) = def.gates.first() else {
                    continue;
                };
                let Some((_, body, body_line)) = def.rules.first() else {
                    continue;
                };
                let Some(rest) = body.trim_start().strip_prefix("if ") else {
                    continue;
                };
                let Some(brace) = rest.find('{') else {
                    continue;
                };
                let cond = rest[..brace]
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                if cond.is_empty() || b.seen(&format!("wrapping:{}:{}", def.path, def.line)) {
                    continue;
                }
                b.push(
                    FactKind::Guard,
                    format!(
                        "Under {}, `{name}!` ({}:{}) wraps the code given to it, this check included, in `if {cond} {{ .. }}`: in that configuration it runs only when `{cond}` holds.",
                        cfg_words(gate),
                        def.path,
                        def.line
                    ),
                    Some((def.path.clone(), *body_line)),
                    None,
                );
                self.field_writer_facts(b, &cond);
            }
        }
    }

    /// The public fns that write a field a condition reads, with the
    /// `cfg` (and Cargo features) they need: calling them changes whether
    /// the condition holds.
    pub(super) fn field_writer_facts(&self, b: &mut Builder, cond: &str) {
        for field in fields_read(cond) {
            if !self.field_type_by_name.contains_key(&field) {
                continue;
            }
            let writers: Vec<&FnDef> = self
                .symbols
                .fns
                .iter()
                .filter(|g| g.is_pub && !g.is_test && assigns_field(&g.text, &field))
                // A method of a type that declares the field.
                .filter(|g| match &g.owner {
                    Owner::Impl { ty, .. } => {
                        self.field_types.contains_key(&(ty.clone(), field.clone()))
                    }
                    _ => false,
                })
                .take(3)
                .collect();
            if writers.is_empty() || b.seen(&format!("writers:{field}")) {
                continue;
            }
            let described: Vec<String> = writers
                .iter()
                .map(|g| {
                    if g.gates.is_empty() {
                        return format!("`{}`", g.qualified());
                    }
                    let features: Vec<String> = g
                        .gates
                        .iter()
                        .flat_map(|x| features_in(x))
                        .map(|x| format!("`{x}`"))
                        .collect();
                    let needs = if features.is_empty() {
                        String::new()
                    } else {
                        format!(": build with the Cargo feature {}", features.join(", "))
                    };
                    format!(
                        "`{}` (compiled only when {} holds{needs})",
                        g.qualified(),
                        cfg_list(&g.gates)
                    )
                })
                .collect();
            let first = writers[0];
            b.push(
                FactKind::Alternative,
                format!(
                    "The condition reads the field `{field}`, which the public {} {} write{}: calling {} is how a user changes whether this check applies.",
                    if writers.len() == 1 { "fn" } else { "fns" },
                    described.join(", "),
                    if writers.len() == 1 { "s" } else { "" },
                    if writers.len() == 1 { "it" } else { "them" },
                ),
                Some((first.path.clone(), first.lines.0)),
                None,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_and_build_meaning() {
        assert_eq!(negation("debug_assertions"), "not(debug_assertions)");
        assert_eq!(negation("not(feature = \"x\")"), "feature = \"x\"");
        assert!(build_meaning("not( debug_assertions )").is_some());
        assert!(build_meaning("feature = \"x\"").is_none());
    }

    #[test]
    fn fields_of_a_condition_and_their_assignments() {
        assert_eq!(
            fields_read("!$this.flag && self.depth == 0 && v.len() > 1"),
            vec!["flag", "depth"]
        );
        assert!(assigns_field("self.flag = true;", "flag"));
        assert!(assigns_field("self.depth -= 1;", "depth"));
        assert!(!assigns_field("if self.flag == true {}", "flag"));
        assert!(!assigns_field("self.flags = 1;", "flag"));
    }
}
