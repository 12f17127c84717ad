//! Macro invocations: the panic and assert families, anyhow, logging,
//! `compile_error!`, `write!` in `Display` impls, format arguments, and
//! crate-local `macro_rules!` definitions and calls.

use super::scope::Frame;
use super::tokens::{self, Arg};
use super::{Walker, STRINGIFY};
use crate::fmt::{self, FmtArg, Naming};
use errdex_extract::{MacroCall, MessageTable, NamedLiteral};
use errdex_model::{Kind, Template};
use errdex_syntax::attrs::Attrs;
use errdex_syntax::literal;
use tree_sitter::Node;

/// Macros that only format or build values: never sites themselves.
const NOT_SITES: &[&str] = &[
    "format",
    "format_args",
    "print",
    "println",
    "vec",
    "matches",
    "concat",
    "stringify",
    "include_str",
    "include_bytes",
    "include",
    "env",
    "option_env",
    "cfg",
    "line",
    "file",
    "column",
    "module_path",
    "debug",
    "info",
    "trace",
    "dbg",
    "assert_matches",
    "quote",
    "quote_spanned",
    "parse_quote",
    "thread_local",
    "lazy_static",
    "cfg_if",
    "pin",
    "ready",
    "select",
    "join",
    "try_join",
    "tri",
    "try",
    "write",
    "writeln",
    "macro_rules",
];

impl<'a> Walker<'a> {
    pub(super) fn visit_macro(&mut self, node: Node) {
        self.begin_site();
        let Some(name_node) = node.child_by_field_name("macro") else {
            return;
        };
        let path = self.text(name_node).to_string();
        let name = errdex_syntax::last_segment(&path).to_string();
        let Some(tt) = last_token_tree(node) else {
            return;
        };
        let report = name_node;
        let claimed = self.is_claimed(node);
        let args = tokens::split_args(tt);
        let site = match name.as_str() {
            "panic" | "unreachable" | "unimplemented" | "todo" => {
                Some(self.panic_site(node, report, &name, &args))
            }
            "assert" | "debug_assert" => {
                Some(self.condition_site(node, report, &args, Kind::Assert))
            }
            "assert_eq" | "debug_assert_eq" | "assert_ne" | "debug_assert_ne" => {
                Some(self.assert_eq_site(node, report, &name, &args))
            }
            "anyhow" | "format_err" | "eyre" if !claimed => {
                let t = self.format_args_template(&args);
                Some(self.new_site(node, report, Kind::Anyhow, t))
            }
            "bail" => {
                let t = self.format_args_template(&args);
                Some(self.new_site(node, report, Kind::Bail, t))
            }
            "ensure" => Some(self.condition_site(node, report, &args, Kind::Ensure)),
            "error" | "warn" if is_log_path(&path) => {
                let kind = if name == "error" {
                    Kind::LogError
                } else {
                    Kind::LogWarn
                };
                let t = self.log_template(&args);
                Some(self.new_site(node, report, kind, t))
            }
            "eprintln" | "eprint" => {
                let rest = self.rest_of_fn(node.end_byte());
                let exits = rest.match_indices("exit(").any(|(i, _)| {
                    i == 0
                        || !rest.as_bytes()[i - 1].is_ascii_alphanumeric()
                            && rest.as_bytes()[i - 1] != b'_'
                });
                exits.then(|| {
                    let t = self.format_args_template(&args);
                    self.new_site(node, report, Kind::Eprintln, t)
                })
            }
            "compile_error" => {
                let t = args.first().map(|a| self.plain_arg(a)).unwrap_or_default();
                Some(self.new_site(node, report, Kind::CompileError, t))
            }
            "write" | "writeln" if !claimed && self.display().is_some() => {
                if let Some(site) = self.display_write_site(node) {
                    self.push_display(site);
                }
                None
            }
            _ => None,
        };
        if let Some(site) = site {
            self.push(site);
        } else if !NOT_SITES.contains(&name.as_str()) && !is_known(&name) {
            self.record_macro_call(node, report, &name, &args);
        }
        self.record_token_literals(tt);
        self.declare_token_modules(tt);
        // Code passed to the macro (format arguments, wrapped items).
        self.reparse(tt);
    }

    /// Declares the modules written as `mod name;` among a token tree's
    /// tokens (`cfg_if! { if #[cfg(unix)] { mod unix; } }`, a macro's
    /// body), whatever `cfg` is around them: a file they name is compiled
    /// for some program.
    fn declare_token_modules(&mut self, tt: Node) {
        let mut stack = vec![tt];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            let children: Vec<Node> = n.children(&mut c).collect();
            for (i, child) in children.iter().enumerate() {
                if child.kind() == "token_tree" {
                    stack.push(*child);
                    continue;
                }
                let (Some(name), Some(end)) = (children.get(i + 1), children.get(i + 2)) else {
                    continue;
                };
                if self.text(*child) == "mod"
                    && name.kind() == "identifier"
                    && self.text(*end) == ";"
                {
                    let name = self.text(*name).to_string();
                    self.declare_module(name, &Attrs::default());
                }
            }
        }
    }

    /// Records the string literals among a token tree's tokens.
    fn record_token_literals(&mut self, tt: Node) {
        let mut stack = vec![tt];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            for child in n.children(&mut c) {
                match child.kind() {
                    "token_tree" => stack.push(child),
                    "string_literal" | "raw_string_literal" => self.record_literal(child),
                    _ => {}
                }
            }
        }
    }

    fn panic_site(
        &mut self,
        node: Node,
        report: Node,
        name: &str,
        args: &[Arg],
    ) -> errdex_model::Site {
        let (kind, bare, prefix) = match name {
            "panic" => (Kind::Panic, "explicit panic", ""),
            "unreachable" => (
                Kind::Unreachable,
                "internal error: entered unreachable code",
                "internal error: entered unreachable code: ",
            ),
            "unimplemented" => (Kind::Unimplemented, "not implemented", "not implemented: "),
            _ => (Kind::Todo, "not yet implemented", "not yet implemented: "),
        };
        let t = if args.is_empty() {
            Template::literal(bare)
        } else {
            self.format_args_template(args).prefixed(prefix)
        };
        self.new_site(node, report, kind, t)
    }

    /// `assert!(cond[, fmt, ..])` and `ensure!(cond[, fmt, ..])`: the custom
    /// message, or the default text around the condition as rustc prints it.
    fn condition_site(
        &mut self,
        node: Node,
        report: Node,
        args: &[Arg],
        kind: Kind,
    ) -> errdex_model::Site {
        let t = if args.len() > 1 {
            self.format_args_template(&args[1..])
        } else {
            let cond = args
                .first()
                .map(|a| tokens::pretty(&a.tokens, self.src()))
                .unwrap_or_default();
            let (before, after) = match kind {
                Kind::Ensure => ("Condition failed: `", "`"),
                _ => ("assertion failed: ", ""),
            };
            if cond.starts_with('$') {
                // A macro body's condition is its invocation's tokens.
                let mut t = Template::literal(before);
                t.push_hole(errdex_model::Hole {
                    arg: cond,
                    spec: STRINGIFY.into(),
                });
                t.push_lit(after);
                t
            } else {
                Template::literal(format!("{before}{cond}{after}"))
            }
        };
        self.new_site(node, report, kind, t)
    }

    fn assert_eq_site(
        &mut self,
        node: Node,
        report: Node,
        name: &str,
        args: &[Arg],
    ) -> errdex_model::Site {
        let (kind, op) = if name.ends_with("_eq") {
            (Kind::AssertEq, "==")
        } else {
            (Kind::AssertNe, "!=")
        };
        let mut t = Template::literal(format!("assertion `left {op} right` failed"));
        if args.len() > 2 {
            t.push_lit(": ");
            t.append(&self.format_args_template(&args[2..]));
        }
        for (i, label) in [(0, "\n  left: "), (1, "\n right: ")] {
            t.push_lit(label);
            let side = args.get(i);
            match side.map(|a| (a.tokens.as_slice(), a.text(self.src()))) {
                Some(([tok], text))
                    if matches!(
                        tok.kind(),
                        "integer_literal" | "float_literal" | "boolean_literal"
                    ) =>
                {
                    t.push_lit(&number_text(text))
                }
                other => t.push_hole(errdex_model::Hole {
                    arg: other.map(|(_, text)| text.to_string()).unwrap_or_default(),
                    spec: "?".into(),
                }),
            }
        }
        self.new_site(node, report, kind, t)
    }

    /// The message of `error!`/`warn!`: skips `target:`/`parent:`/`name:`
    /// and tracing fields; the first string literal is the format string.
    fn log_template(&mut self, args: &[Arg]) -> Template {
        let mut rest: &[Arg] = args;
        // `target: "x", "msg"` is split at the comma; drop `key: value` heads.
        while let Some(first) = rest.first() {
            let is_key = matches!(first.tokens.as_slice(), [k, colon, ..] if k.kind() == "identifier" && colon.kind() == ":");
            if is_key {
                rest = &rest[1..];
            } else {
                break;
            }
        }
        match rest.iter().position(|a| {
            a.as_literal().is_some() || a.as_macro(self.src()).is_some_and(|(n, _)| n == "concat")
        }) {
            Some(i) => self.format_args_template(&rest[i..]),
            None => Template::hole(
                rest.iter()
                    .map(|a| a.text(self.src()))
                    .collect::<Vec<_>>()
                    .join(", "),
                "",
            ),
        }
    }

    /// The template of format arguments: a format string (literal, or
    /// `concat!` of literals) and its arguments; a lone expression is one
    /// hole (a message passed through).
    pub(crate) fn format_args_template(&mut self, args: &[Arg]) -> Template {
        let Some(first) = args.first() else {
            return Template::new();
        };
        let fmt_text = if let Some(lit) = first.as_literal() {
            self.use_literal(lit);
            literal::decode(self.text(lit))
        } else if let Some((name, group)) = first.as_macro(self.src()) {
            (name == "concat")
                .then(|| self.concat_text(group))
                .flatten()
        } else {
            None
        };
        let Some(fmt_text) = fmt_text else {
            let text = first.text(self.src()).to_string();
            return self
                .lookup_let(&text)
                .unwrap_or_else(|| Template::hole(text, ""));
        };
        let fmt_args: Vec<FmtArg> = args[1..].iter().map(|a| self.fmt_arg(a)).collect();
        match fmt::parse(&fmt_text) {
            Some(pieces) => fmt::bind(&pieces, &fmt_args, Naming::Format),
            None => Template::literal(fmt_text),
        }
    }

    fn fmt_arg(&mut self, a: &Arg) -> FmtArg {
        let (name, expr) = match a.named(self.src()) {
            Some((n, e)) => (Some(n), e),
            None => (None, a.clone()),
        };
        let text = expr.text(self.src()).to_string();
        let mut debug_same = false;
        let value = if let Some(lit) = expr.as_literal() {
            self.use_literal(lit);
            literal::decode(self.text(lit)).map(Template::literal)
        } else if let [tok] = expr.tokens.as_slice() {
            match tok.kind() {
                "integer_literal" | "float_literal" | "boolean_literal" => {
                    debug_same = true;
                    Some(Template::literal(number_text(&text)))
                }
                _ => self.lookup_let(&text),
            }
        } else {
            self.lookup_let(&text)
        };
        FmtArg {
            name,
            text,
            value,
            debug_same,
        }
    }

    /// A plain (not format) string argument, or a hole for an expression.
    pub(crate) fn plain_arg(&mut self, a: &Arg) -> Template {
        if let Some(lit) = a.as_literal() {
            self.use_literal(lit);
            if let Some(s) = literal::decode(self.text(lit)) {
                return Template::literal(s);
            }
        }
        if let Some((name, group)) = a.as_macro(self.src()) {
            if name == "concat" {
                if let Some(t) = self.concat_parts(group) {
                    return t;
                }
            }
        }
        Template::hole(a.text(self.src()), "")
    }

    /// `concat!(..)` as a template: its literals as text, a macro among
    /// them (`env!("CARGO_PKG_VERSION")`, what the build sets) a hole;
    /// `None` when another part is not a literal.
    fn concat_parts(&mut self, group: Node) -> Option<Template> {
        let mut t = Template::new();
        for a in tokens::split_args(group) {
            if a.as_macro(self.src()).is_some() {
                t.push_hole(errdex_model::Hole {
                    arg: a.text(self.src()).to_string(),
                    spec: String::new(),
                });
                continue;
            }
            let lit = a.as_literal();
            if let Some(lit) = lit {
                self.use_literal(lit);
                t.push_lit(&literal::decode(self.text(lit))?);
            } else if let [tok] = a.tokens.as_slice() {
                match tok.kind() {
                    "integer_literal" | "float_literal" | "boolean_literal" => {
                        t.push_lit(self.text(*tok))
                    }
                    "char_literal" => t.push_lit(self.text(*tok).trim_matches('\'')),
                    _ => return None,
                }
            } else {
                return None;
            }
        }
        Some(t)
    }

    /// `concat!("a", "b", 1)` as text; `None` when a part is not a literal.
    fn concat_text(&mut self, group: Node) -> Option<String> {
        let mut out = String::new();
        for p in self.concat_parts(group)?.pieces() {
            match p {
                errdex_model::Piece::Lit(s) => out.push_str(s),
                errdex_model::Piece::Hole(_) => return None,
            }
        }
        Some(out)
    }

    /// `concat!(..)` used as a value (a const's initialiser).
    pub(crate) fn concat_template(&mut self, node: Node) -> Option<Template> {
        let name = node.child_by_field_name("macro").map(|n| self.text(n))?;
        if errdex_syntax::last_segment(name) != "concat" {
            return None;
        }
        let tt = last_token_tree(node)?;
        self.concat_parts(tt)
    }

    /// The template of a format-building macro used as a value
    /// (`format!`, `anyhow!`, ...), with the macro's name.
    pub(crate) fn format_macro_template(&mut self, node: Node) -> Option<(Template, String)> {
        let name = node.child_by_field_name("macro").map(|n| self.text(n))?;
        let last = errdex_syntax::last_segment(name).to_string();
        if !matches!(
            last.as_str(),
            "format" | "anyhow" | "format_err" | "eyre" | "format_args" | "concat"
        ) {
            return None;
        }
        let tt = last_token_tree(node)?;
        if last == "concat" {
            return self.concat_text(tt).map(|s| (Template::literal(s), last));
        }
        let args = tokens::split_args(tt);
        Some((self.format_args_template(&args), last))
    }

    fn record_macro_call(&mut self, node: Node, report: Node, name: &str, args: &[Arg]) {
        let proto = self.new_site(node, report, Kind::Panic, Template::new());
        let first_lit = args.iter().position(|a| a.as_literal().is_some());
        let args_template = first_lit.map(|i| {
            let fmt_args: Vec<FmtArg> = args[i + 1..].iter().map(|a| self.fmt_arg(a)).collect();
            let lit = args[i].as_literal().expect("position found a literal");
            let text = literal::decode(self.text(lit)).unwrap_or_default();
            match fmt::parse(&text) {
                Some(p) => fmt::bind(&p, &fmt_args, Naming::Format),
                None => Template::literal(text),
            }
        });
        let args_text = args
            .iter()
            .map(|a| tokens::pretty(&a.tokens, self.src()))
            .collect::<Vec<_>>()
            .join(", ");
        // `Name => "text"`: an identifier, punctuation, a string literal.
        let mut named_literals = Vec::new();
        for a in args {
            let [first, between @ .., last] = a.tokens.as_slice() else {
                continue;
            };
            if first.kind() != "identifier"
                || !tokens::is_string(last)
                || between.iter().any(|t| t.is_named())
            {
                continue;
            }
            let Some(text) = literal::decode(self.text(*last)) else {
                continue;
            };
            let (line, column) = self.lines.position(last.start_byte(), self.src);
            named_literals.push(NamedLiteral {
                name: self.text(*first).to_string(),
                text,
                line,
                column,
            });
        }
        self.out.macro_calls.push(MacroCall {
            name: name.to_string(),
            proto,
            args_template,
            args_text,
            named_literals,
        });
    }

    pub(super) fn visit_macro_definition(&mut self, node: Node, test: bool) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or("")
            .to_string();
        let mut c = node.walk();
        let rules: Vec<Node> = node
            .children(&mut c)
            .filter(|n| n.kind() == "macro_rule")
            .collect();
        for rule in &rules {
            let (Some(left), Some(right)) = (
                rule.child_by_field_name("left"),
                rule.child_by_field_name("right"),
            ) else {
                continue;
            };
            if let Some(ty) = message_table(self.text(left), self.text(right)) {
                if !self.out.message_tables.iter().any(|t| t.macro_name == name) {
                    self.out.message_tables.push(MessageTable {
                        macro_name: name.clone(),
                        ty,
                    });
                }
            }
        }
        let mut frame = Frame::named(&format!("{name}!"));
        frame.test = test;
        frame.in_macro = Some(name);
        self.frames.push(frame);
        for rule in rules {
            if let Some(right) = rule.child_by_field_name("right") {
                self.declare_token_modules(right);
                self.reparse(right);
            }
        }
        self.frames.pop();
    }
}

/// For a `macro_rules!` rule whose matcher repeats `$name:ident ..
/// $msg:expr` and whose body writes `$msg` in the arm `Type::$name => ..`
/// of a `Display` impl: `Type` (the impl's type for `Self::$name`).
pub(crate) fn message_table(matcher: &str, body: &str) -> Option<String> {
    let group = matcher.split_once("$(")?.1;
    let var = |frag: &[&str]| -> Option<String> {
        group.match_indices('$').find_map(|(i, _)| {
            let r = &group[i + 1..];
            let e = r.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            let (n, rest) = r.split_at(e);
            let f = rest.trim_start().strip_prefix(':')?.trim_start();
            let fe = f
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(f.len());
            (!n.is_empty() && frag.contains(&&f[..fe])).then(|| n.to_string())
        })
    };
    let name = var(&["ident"])?;
    let msg = var(&["expr", "literal", "tt"])?;
    if !body.contains("Display") {
        return None;
    }
    let arm_key = format!("::${name}");
    for (i, _) in body.match_indices(&arm_key) {
        let after = &body[i + arm_key.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(arm) = after.trim_start().strip_prefix("=>") else {
            continue;
        };
        let arm: String = arm.chars().take(160).collect();
        // The arm ends at a `,` or `}` outside brackets.
        let mut depth = 0i32;
        let end = arm
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' => depth -= 1,
                    '}' if depth > 0 => depth -= 1,
                    _ => {}
                }
                depth < 0 || (depth == 0 && (c == ',' || c == '}'))
            })
            .map_or(arm.len(), |(i, _)| i);
        let writes =
            arm[..end].contains(&format!("${msg}")) && !arm[..end].contains(&format!("${msg}_"));
        if !writes {
            continue;
        }
        let ty = errdex_syntax::trailing_ident(&body[..i]).to_string();
        let ty = if ty == "Self" {
            let r = body.split_once("Display for")?.1.trim_start();
            errdex_syntax::leading_ident(r).to_string()
        } else {
            ty
        };
        if !ty.is_empty() && !ty.starts_with('$') {
            return Some(ty);
        }
    }
    None
}

/// How a number literal prints: suffix and `_` separators dropped.
fn number_text(lit: &str) -> String {
    let t: String = lit.chars().filter(|c| *c != '_').collect();
    for suffix in super::INTEGER_TYPES.iter().chain(&["f32", "f64"]) {
        if let Some(s) = t.strip_suffix(suffix) {
            if !s.is_empty() && !s.starts_with("0x") {
                return s.to_string();
            }
        }
    }
    t
}

/// The token tree of a macro invocation.
pub(crate) fn last_token_tree(node: Node) -> Option<Node> {
    let mut c = node.walk();
    let tt = node
        .children(&mut c)
        .filter(|n| n.kind() == "token_tree")
        .last();
    tt
}

/// `error!`/`warn!` of a logging facade: bare, a crate's own re-export
/// (`$crate::`), or a path whose modules name one (`log::`, `::tracing::`,
/// `bevy_log::`, `bevy_utils::tracing::`, `slog::`).
fn is_log_path(path: &str) -> bool {
    let Some((modules, _)) = path.rsplit_once("::") else {
        return true;
    };
    modules == "$crate"
        || modules
            .split("::")
            .flat_map(|m| m.trim_start_matches("::").split('_'))
            .any(|word| matches!(word, "log" | "slog" | "tracing"))
}

fn is_known(name: &str) -> bool {
    matches!(
        name,
        "panic"
            | "unreachable"
            | "unimplemented"
            | "assert"
            | "debug_assert"
            | "assert_eq"
            | "assert_ne"
            | "debug_assert_eq"
            | "debug_assert_ne"
            | "anyhow"
            | "format_err"
            | "eyre"
            | "bail"
            | "ensure"
            | "error"
            | "warn"
            | "eprintln"
            | "eprint"
            | "compile_error"
    )
}

#[cfg(test)]
mod tests {
    use super::is_log_path;

    #[test]
    fn a_log_macro_is_known_through_any_path_naming_a_facade() {
        for path in [
            "warn",
            "log::warn",
            "::log::error",
            "tracing::error",
            "$crate::warn",
            "bevy_log::warn",
            "bevy_utils::tracing::warn",
            "slog::error",
        ] {
            assert!(is_log_path(path), "{path}");
        }
        for path in ["ui::warn", "self::error", "catalog::error", "dialog::warn"] {
            assert!(!is_log_path(path), "{path}");
        }
    }
}
