//! What a user sees of a site from outside the crate: the value an
//! assertion protects, a check a `cfg`-selected macro compiles out, the
//! exported macros that expand to a call reaching it, and the doc of the
//! type an operator works on.

use super::*;

/// Words of a condition that are not values it checks.
const NOT_VALUES: [&str; 12] = [
    "self", "true", "false", "as", "mut", "ref", "let", "if", "else", "usize", "u8", "i32",
];

/// Lines after a check quoted as what it protects.
const MAX_USES: usize = 2;

/// The values a condition reads: identifiers that are not called, not a
/// field or method name after `.`, not a type or a keyword (`self.len` is
/// read as `len` through `self.`).
pub(super) fn checked_values(cond: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let bytes = cond.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if !(c.is_ascii_alphabetic() || c == '_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        let word = &cond[start..i];
        let after_dot = cond[..start].ends_with('.') && !cond[..start].ends_with("self.");
        let called = cond[i..].trim_start().starts_with('(') || cond[i..].starts_with("::");
        let is_type = word.starts_with(|c: char| c.is_ascii_uppercase());
        let in_path = cond[..start].ends_with("::");
        if after_dot
            || called
            || is_type
            || in_path
            || NOT_VALUES.contains(&word)
            || out.iter().any(|w| w == word)
        {
            continue;
        }
        out.push(word.to_string());
    }
    out
}

/// The `cfg` a macro definition needs, shown as written; `None` when it
/// has none.
fn gate_text(m: &syntax::MacroDef) -> Option<String> {
    (!m.gates.is_empty()).then(|| cfg_list(&m.gates))
}

impl Analyzer {
    /// After an assertion, the first statements of the fn that use a value
    /// the condition checked: what the check protects (`let shift = BITS -
    /// ncb(shard_amount)` after `assert!(shard_amount.is_power_of_two())`).
    pub(super) fn checked_use_facts(&self, b: &mut Builder, fi: usize, cond: &str, end_line: u32) {
        let f = &self.symbols.fns[fi];
        let values = checked_values(cond);
        if values.is_empty() {
            return;
        }
        let mut found = 0;
        for (line, text) in (f.lines.0..).zip(f.text.lines()) {
            if line <= end_line || found == MAX_USES {
                continue;
            }
            let code = text.split("//").next().unwrap_or("").trim();
            let check = ["assert", "debug_assert", "ensure!", "if ", "}"]
                .iter()
                .any(|p| code.starts_with(p));
            if code.is_empty() || check || code.len() > 140 {
                continue;
            }
            let Some(v) = values.iter().find(|v| mentions(code, v)) else {
                continue;
            };
            if b.seen(&format!("use:{}:{line}", f.path)) {
                continue;
            }
            b.push(
                FactKind::Value,
                format!(
                    "After the check, `{v}` is used in `{code}` ({}:{line}): that is what the condition protects.",
                    f.path
                ),
                Some((f.path.clone(), line)),
                None,
            );
            found += 1;
        }
    }

    /// A site written through a crate-local macro that is defined twice
    /// under opposite `cfg`s, once as the check and once as nothing: the
    /// check exists only in one configuration.
    pub(super) fn gated_macro_facts(&self, b: &mut Builder, s: &SiteRow) {
        let Some(m) = &s.via_macro else {
            return;
        };
        let defs: Vec<&syntax::MacroDef> = self
            .symbols
            .macros
            .iter()
            .filter(|d| d.name == *m)
            .collect();
        let (empty, checking): (Vec<&syntax::MacroDef>, Vec<&syntax::MacroDef>) =
            defs.iter().partition(|d| expands_to_nothing(d));
        let (Some(on), Some(off)) = (checking.first(), empty.first()) else {
            return;
        };
        let (Some(on_cfg), Some(off_cfg)) = (gate_text(on), gate_text(off)) else {
            return;
        };
        if b.seen(&format!("gatedmacro:{m}")) {
            return;
        }
        let meaning = on
            .gates
            .iter()
            .find_map(|g| build_meaning(g))
            .map(|m| format!(" The check is in {m}."))
            .unwrap_or_default();
        let mut text = format!(
            "`{m}!` is defined twice: under {on_cfg} it expands to the check ({}:{}); under {off_cfg} it expands to nothing ({}:{}). Without that configuration the check is compiled out: no check, no panic, and the code goes on silently with the unchecked value.{meaning}",
            on.path, on.line, off.path, off.line
        );
        let at = Some((on.path.clone(), on.line));
        match feature_gates(&on.gates) {
            Some((sentence, detail)) => {
                text.push_str(&sentence);
                b.push_detailed(FactKind::Mechanism, text, at, detail);
            }
            None => b.push(FactKind::Mechanism, text, at, None),
        }
    }

    /// `#[macro_export]` macros whose body calls a fn on a path to the
    /// site (`hex!` expanding to `$crate::decode(..)`): users reach it by
    /// invoking the macro. In a `const` item or block, the call runs at
    /// compile time.
    pub(super) fn exported_macro_entries(&self, b: &mut Builder, reached: &[(usize, Vec<String>)]) {
        for m in self.symbols.macros.iter().filter(|m| m.exported) {
            for (fi, chain) in reached {
                let f = &self.symbols.fns[*fi];
                if f.is_test {
                    continue;
                }
                let calls = m.rules.iter().find(|(_, body, _)| {
                    let compact: String = body.split_whitespace().collect();
                    [
                        format!("$crate::{}(", f.name),
                        format!("$crate::{}::<", f.name),
                        format!("::{}(", f.name),
                    ]
                    .iter()
                    .any(|p| compact.contains(p.as_str()))
                });
                let Some((_, body, body_line)) = calls else {
                    continue;
                };
                if b.seen(&format!("exported:{}", m.name)) {
                    break;
                }
                let path: Vec<String> = chain.iter().rev().map(|c| format!("`{c}`")).collect();
                let doc = summary(self.doc_at(&m.path, m.line as usize));
                b.push_detailed(
                    FactKind::PublicEntry,
                    format!(
                        "The exported macro `{}!` reaches it: its expansion calls `{}` ({}).{doc}",
                        m.name,
                        f.name,
                        std::iter::once(format!("`{}!`", m.name))
                            .chain(path)
                            .collect::<Vec<_>>()
                            .join(" → ")
                    ),
                    Some((m.path.clone(), m.line)),
                    Detail::Entry {
                        name: format!("{}!", m.name),
                        via: Via::Macro,
                    },
                );
                let compact: String = body.split_whitespace().collect();
                if compact.contains("const{") || compact.contains("const_:") {
                    b.push(
                        FactKind::Mechanism,
                        format!(
                            "`{}!` makes that call inside a `const` block: it is evaluated at compile time, so a failure is a build error (error[E0080], evaluation panicked) at the line invoking `{}!`, never a runtime panic.",
                            m.name, m.name
                        ),
                        Some((m.path.clone(), *body_line)),
                        None,
                    );
                }
                break;
            }
        }
    }

    /// The first paragraph of the doc of the type an operator impl works
    /// on (`A big unsigned integer type.`): what the values are.
    pub(super) fn operand_type_doc(&self, b: &mut Builder, ty: &str) {
        let name = type_name(ty);
        if b.seen(&format!("operand:{name}")) {
            return;
        }
        let Some((path, line, d)) = self.type_doc(name) else {
            return;
        };
        let Some(first) = d.paragraphs.first() else {
            return;
        };
        let Some(q) = quote(&[first.as_str()]) else {
            return;
        };
        b.push(
            FactKind::Doc,
            format!("The doc of the type `{name}` (the type of the operands) says: \"{q}\""),
            Some((path, line)),
            None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_a_condition_leave_out_calls_fields_and_types() {
        assert_eq!(
            checked_values("shard_amount.is_power_of_two()"),
            vec!["shard_amount"]
        );
        assert_eq!(checked_values("bit < self.length"), vec!["bit", "length"]);
        assert_eq!(checked_values("x.len() <= T::MAX as usize"), vec!["x"]);
    }
}
