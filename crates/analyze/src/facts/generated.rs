//! Code as the user calls it: a method a `macro_rules!` invocation
//! generates in `impl Trait for $T` is `Trait::method` on the invocation's
//! types, and a method's `self` is the value the user calls it on (`x` in
//! `x.sqrt()`), so a condition on `*self` is a condition on `x`.

use super::*;

/// The receiver a page writes for the value a method is called on.
pub(super) const RECEIVER: &str = "x";

/// What a `macro_rules!` invocation generates from a fn written in
/// `impl Trait for $T`: the trait, the invocations' types, the macro.
pub(super) struct Generated {
    pub(super) of_trait: Option<String>,
    pub(super) types: Vec<String>,
    pub(super) macro_name: String,
}

/// A condition on `self` written on the user's value: `*self >= 0` →
/// `x >= 0`, `self.is_empty()` → `x.is_empty()`. `None` when the condition
/// does not read `self`, or reads one of its fields (private to the user).
pub(super) fn on_receiver(cond: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = cond;
    let mut found = false;
    while let Some(i) = rest.find("self") {
        let before = rest[..i].chars().next_back();
        let after = &rest[i + 4..];
        let word_before = before.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let word_after = after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        if word_before || word_after {
            out.push_str(&rest[..i + 4]);
            rest = after;
            continue;
        }
        // `self.name` not followed by `(` is a field.
        if let Some(m) = after.strip_prefix('.') {
            let e = m
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(m.len());
            if !m[e..].starts_with('(') && !m[e..].starts_with("::<") {
                return None;
            }
        }
        // `*self` (a `&self` method's value) is the value itself.
        let head = rest[..i].strip_suffix('*').unwrap_or(&rest[..i]);
        out.push_str(head);
        out.push_str(RECEIVER);
        rest = after;
        found = true;
    }
    out.push_str(rest);
    found.then_some(out)
}

impl Analyzer {
    /// For a fn of a `macro_rules!` body whose impl type is a
    /// metavariable (`impl Roots for $T`): the trait and the types the
    /// invocations give.
    pub(super) fn generated(&self, fi: usize) -> Option<Generated> {
        let f = &self.symbols.fns[fi];
        let m = f.in_macro.as_ref()?;
        let Owner::Impl { ty, of_trait } = &f.owner else {
            return None;
        };
        if !ty.contains('$') {
            return None;
        }
        let mut types: Vec<String> = Vec::new();
        let mut traits: Vec<String> = Vec::new();
        for t in self
            .targets(fi)
            .into_iter()
            .filter(|t| t.generated_at.is_some())
        {
            if let Some(ty) = t.ty.filter(|t| !t.contains('$') && !t.is_empty()) {
                if !types.contains(&ty) {
                    types.push(ty);
                }
            }
            if let Some(tr) = t.of_trait.filter(|t| !t.contains('$')) {
                if !traits.contains(&tr) {
                    traits.push(tr);
                }
            }
        }
        if types.is_empty() {
            return None;
        }
        // One trait for every invocation, or the one written.
        let of_trait = match (traits.len(), of_trait) {
            (1, _) => traits.pop(),
            (_, Some(t)) if !t.contains('$') => Some(t.clone()),
            _ => None,
        };
        Some(Generated {
            of_trait,
            types,
            macro_name: m.clone(),
        })
    }

    /// The name a page gives fn `fi`: `Trait::f` for a method a macro
    /// generates in `impl Trait for $T`, else its qualified name.
    pub(super) fn user_name(&self, fi: usize) -> String {
        let f = &self.symbols.fns[fi];
        match self.generated(fi).and_then(|g| g.of_trait) {
            Some(tr) => format!("{tr}::{}", f.name),
            None => f.qualified(),
        }
    }

    /// True when `tr` is a public trait of the crate.
    pub(super) fn is_pub_trait(&self, tr: &str) -> bool {
        self.symbols.traits.iter().any(|d| d.name == tr && d.is_pub)
    }

    /// The types a macro generates the thrower for, and how a user calls
    /// it there (`x.sqrt()` on an `i32`, with the trait in scope).
    pub(super) fn generated_facts(&self, b: &mut Builder, fi: usize) {
        let Some(g) = self.generated(fi) else {
            return;
        };
        let f = &self.symbols.fns[fi];
        if b.seen(&format!("generated:{}:{}", g.macro_name, f.name)) {
            return;
        }
        let types = g.types.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>();
        let types = match types.len() {
            1 => types[0].clone(),
            n => format!("{} and {}", types[..n - 1].join(", "), types[n - 1]),
        };
        let call = match receivers::method_call(f) {
            Some(c) => format!("`{RECEIVER}{c}`"),
            None => format!("`{}(..)`", f.name),
        };
        let text = match &g.of_trait {
            Some(tr) => format!(
                "`{}!` implements the trait `{tr}` for {types}: `{tr}::{}` of these types is this code, so {call} on a value `{RECEIVER}` of one of them (with `{tr}` in scope){} runs it.",
                g.macro_name,
                f.name,
                if self.is_pub_trait(tr) {
                    format!(", or any generic code calling `{tr}::{}`,", f.name)
                } else {
                    String::new()
                }
            ),
            None => format!(
                "`{}!` generates `{}` for {types}: {call} on a value `{RECEIVER}` of one of these types runs this code.",
                g.macro_name, f.name
            ),
        };
        b.push(
            FactKind::Mechanism,
            text,
            Some((f.path.clone(), f.lines.0)),
            None,
        );
    }

    /// For an assertion on `self` in a method: the condition on the
    /// user's value, checked before the call (an alternative with code).
    pub(super) fn receiver_precondition_facts(&self, b: &mut Builder, fi: usize, cond: &str) {
        let f = &self.symbols.fns[fi];
        let Some(call) = receivers::method_call(f) else {
            return;
        };
        let Some(user_cond) = on_receiver(cond) else {
            return;
        };
        let Some(negated) = negate(&user_cond) else {
            return;
        };
        let call = format!("{RECEIVER}{call}");
        let code = format!(
            "if {user_cond} {{\n    let value = {call};\n}} else {{\n    /* `{call}` would panic: handle {negated} here */\n}}"
        );
        if !crate::verify::parses(&format!("fn f() {{ {code} }}")) {
            return;
        }
        if b.seen(&format!("receiverpre:{call}:{user_cond}")) {
            return;
        }
        b.push(
            FactKind::Alternative,
            format!(
                "`self` is the value you call the method on: `{call}` panics when `{negated}`. Check `{user_cond}` before calling `{call}` (`{}`), or handle the case `{negated}` yourself.",
                self.user_name(fi)
            ),
            Some((f.path.clone(), f.lines.0)),
            Some(code),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_on_self_is_written_on_the_receiver() {
        assert_eq!(on_receiver("*self >= 0").as_deref(), Some("x >= 0"));
        assert_eq!(
            on_receiver("!self.is_empty() && n < self.len()").as_deref(),
            Some("!x.is_empty() && n < x.len()")
        );
        // A field is private to the user; no `self`, nothing to rewrite.
        assert_eq!(on_receiver("self.len > 0"), None);
        assert_eq!(on_receiver("n > 0"), None);
        assert_eq!(on_receiver("myself > 0"), None);
    }
}
