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
            if b.seen(&format!("checkbefore:{}:{}", c.path, c.line)) {
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
}
