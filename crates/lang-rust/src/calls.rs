//! Calls that carry messages: `expect`/`unwrap`, `Err(..)`, `map_err`,
//! `ok_or`, `context`, `io::Error::new`, serde's `custom`, constructors of
//! error types (the writes of `Display` impls are in `display`, derived
//! and `thiserror` messages in `derive`).

use super::Walker;
use errdex_extract::{Candidate, Condition};
use errdex_model::{Kind, Template};
use errdex_syntax::last_segment;
use errdex_syntax::literal;
use tree_sitter::Node;

/// Methods whose result is an `Option` (so `.unwrap()` prints the `None` text).
const OPTION_METHODS: &[&str] = &[
    "get",
    "get_mut",
    "first",
    "last",
    "first_mut",
    "last_mut",
    "next",
    "next_back",
    "pop",
    "pop_front",
    "pop_back",
    "peek",
    "find",
    "find_map",
    "position",
    "rposition",
    "max",
    "min",
    "max_by",
    "min_by",
    "max_by_key",
    "min_by_key",
    "nth",
    "checked_add",
    "checked_sub",
    "checked_mul",
    "checked_div",
    "checked_rem",
    "checked_pow",
    "checked_shl",
    "checked_shr",
    "checked_neg",
    "strip_prefix",
    "strip_suffix",
    "split_once",
    "rsplit_once",
    "take",
    "to_str",
    "file_name",
    "file_stem",
    "extension",
    "parent",
    "upgrade",
    "downcast_ref",
    "downcast_mut",
    "to_digit",
    "from_digit",
    "from_u32",
    "get_key_value",
    "as_deref",
    "as_deref_mut",
    "iter_mut",
    "last_key_value",
    "first_key_value",
    "chars",
    "var_os",
    "ok",
    "err",
];

/// Methods whose result is a `Result`.
const RESULT_METHODS: &[&str] = &[
    "parse",
    "lock",
    "read",
    "write",
    "try_lock",
    "try_read",
    "try_write",
    "join",
    "recv",
    "send",
    "try_recv",
    "try_send",
    "try_into",
    "try_from",
    "from_utf8",
    "from_str",
    "open",
    "create",
    "read_to_string",
    "read_to_end",
    "write_all",
    "flush",
    "metadata",
    "canonicalize",
    "read_dir",
    "bind",
    "connect",
    "accept",
    "spawn",
    "wait",
    "output",
    "status",
    "decode",
    "encode",
    "serialize",
    "deserialize",
    "from_slice",
    "to_vec",
    "to_writer",
    "from_reader",
    "build",
    "try_clone",
    "duration_since",
    "elapsed",
    "var",
    "block_on",
    "to_string_pretty",
    "from_value",
    "to_value",
    "compile",
    "new_with",
    "send_timeout",
    "recv_timeout",
];

/// How serde prints `Unexpected` values.
const UNEXPECTED: &[(&str, &str)] = &[
    ("Bool", "boolean `{}`"),
    ("Unsigned", "integer `{}`"),
    ("Signed", "integer `{}`"),
    ("Float", "floating point `{}`"),
    ("Char", "character `{}`"),
    ("Str", "string {:?}"),
    ("Bytes", "byte array"),
    ("Unit", "unit value"),
    ("Option", "Option value"),
    ("NewtypeStruct", "newtype struct"),
    ("Seq", "sequence"),
    ("Map", "map"),
    ("Enum", "enum"),
    ("UnitVariant", "unit variant"),
    ("NewtypeVariant", "newtype variant"),
    ("TupleVariant", "tuple variant"),
    ("StructVariant", "struct variant"),
];

/// Types that are never a crate's error type, whatever their constructor.
pub(super) const NOT_ERROR_TYPES: &[&str] = &[
    "String", "Box", "Arc", "Rc", "Cow", "PathBuf", "Path", "Vec", "Some", "Ok", "Option",
    "Result", "OsString", "CString", "Regex", "Command", "HashMap", "BTreeMap", "HashSet",
];

impl<'a> Walker<'a> {
    pub(super) fn visit_call(&mut self, node: Node) {
        self.begin_site();
        if self.is_claimed(node) {
            return;
        }
        let Some(func) = node.child_by_field_name("function") else {
            return;
        };
        let args = call_args(node);
        match func.kind() {
            "field_expression" => self.method_call(node, func, &args),
            "identifier" if self.text(func) == "Err" && args.len() == 1 => {
                self.err_call(node, func, args[0])
            }
            "scoped_identifier" | "identifier" => self.path_call(node, func, &args),
            _ => {}
        }
    }

    pub(super) fn method_call(&mut self, node: Node, func: Node, args: &[Node]) {
        let Some(field) = func.child_by_field_name("field") else {
            return;
        };
        let method = self.text(field);
        let receiver = func.child_by_field_name("value");
        let site = match (method, args) {
            ("expect" | "expect_err", [arg]) => {
                let kind = if method == "expect" {
                    Kind::Expect
                } else {
                    Kind::ExpectErr
                };
                let t = self
                    .message_of(*arg, 0)
                    .unwrap_or_else(|| Template::hole(self.text(*arg), ""));
                Some((kind, t))
            }
            ("unwrap", []) => Some((Kind::Unwrap, self.unwrap_template(receiver))),
            ("unwrap_err", []) => {
                let recv = receiver.map(|r| self.text(r)).unwrap_or("");
                let t = Template::literal("called `Result::unwrap_err()` on an `Ok` value: ")
                    .then(&Template::hole(recv, "?"));
                Some((Kind::UnwrapErr, t))
            }
            ("map_err", [arg]) => self.message_of(*arg, 0).map(|t| (Kind::MapErr, t)),
            ("ok_or" | "ok_or_else", [arg]) => self.message_of(*arg, 0).map(|t| (Kind::OkOr, t)),
            ("context" | "with_context" | "wrap_err" | "wrap_err_with", [arg]) => {
                self.message_of(*arg, 0).map(|t| (Kind::Context, t))
            }
            ("write_str" | "pad" | "write_fmt", [_]) | ("finish" | "finish_non_exhaustive", [])
                if self.display().is_some() =>
            {
                if let Some(site) = self.display_write_site(node) {
                    self.push_display(site);
                }
                None
            }
            ("fmt", [_]) if self.display().is_some() => {
                let inner = receiver.map(|r| self.text(r)).unwrap_or("").to_string();
                self.push_delegation(node, func, inner);
                None
            }
            _ => None,
        };
        if let Some((kind, template)) = site {
            let s = self.new_site(node, field, kind, template);
            self.push(s);
        }
    }

    pub(super) fn unwrap_template(&self, receiver: Option<Node>) -> Template {
        let recv_method = receiver
            .filter(|r| r.kind() == "call_expression")
            .and_then(|r| {
                let f = r.child_by_field_name("function")?;
                let name = match f.kind() {
                    "field_expression" => f.child_by_field_name("field")?,
                    "scoped_identifier" => f.child_by_field_name("name")?,
                    _ => f,
                };
                Some(self.text(name))
            });
        let declared = receiver
            .filter(|r| r.kind() == "identifier")
            .and_then(|r| self.declared_type(self.text(r)))
            .map(|t| last_segment(t).to_string());
        let is_option = recv_method
            .is_some_and(|m| OPTION_METHODS.contains(&m) || m.starts_with("checked_"))
            || declared.as_deref() == Some("Option");
        let is_result = recv_method
            .is_some_and(|m| RESULT_METHODS.contains(&m) || m.starts_with("try_"))
            || declared.as_deref().is_some_and(|t| t.ends_with("Result"));
        if is_option && !is_result {
            Template::literal("called `Option::unwrap()` on a `None` value")
        } else {
            let recv = receiver.map(|r| self.text(r)).unwrap_or("");
            Template::literal("called `Result::unwrap()` on an `Err` value: ")
                .then(&Template::hole(recv, "?"))
        }
    }

    pub(super) fn err_call(&mut self, node: Node, func: Node, arg: Node) {
        // A more specific kind stands inside: let the inner call be the site.
        if arg.kind() == "call_expression" {
            if let Some(f) = arg.child_by_field_name("function") {
                let path = self.text(f);
                let anyhow_msg = path.ends_with("::msg")
                    && (path.contains("anyhow") || path.contains("eyre") || path == "Error::msg");
                if is_io_error_ctor(path, &call_args(arg), self)
                    || path.ends_with("::custom")
                    || errdex_model::SERDE_ERRORS
                        .iter()
                        .any(|(m, _)| path.ends_with(&format!("::{m}")))
                    || anyhow_msg
                {
                    return;
                }
            }
        }
        if arg.kind() == "macro_invocation" {
            let name = arg
                .child_by_field_name("macro")
                .map(|m| last_segment(self.text(m)))
                .unwrap_or("");
            if matches!(name, "anyhow" | "format_err" | "eyre") {
                return;
            }
        }
        if let Some(t) = self.message_of(arg, 0) {
            let s = self.new_site(node, func, Kind::ErrReturn, t);
            self.push(s);
        }
    }

    pub(super) fn path_call(&mut self, node: Node, func: Node, args: &[Node]) {
        let path = self.text(func).to_string();
        let segments: Vec<&str> = path.split("::").map(str::trim).collect();
        let last = *segments.last().unwrap_or(&"");
        if is_io_error_ctor(&path, args, self) {
            let msg = args.last().copied();
            let t = msg
                .and_then(|m| self.message_of(m, 0))
                .unwrap_or_else(|| Template::hole(msg.map(|m| self.text(m)).unwrap_or(""), ""));
            let s = self.new_site(node, func, Kind::IoError, t);
            self.push(s);
            return;
        }
        if last == "msg"
            && args.len() == 1
            && (path.contains("anyhow") || path.contains("eyre") || path == "Error::msg")
        {
            let t = self
                .message_of(args[0], 0)
                .unwrap_or_else(|| Template::hole(self.text(args[0]), ""));
            let s = self.new_site(node, func, Kind::Anyhow, t);
            self.push(s);
            return;
        }
        if segments.len() >= 2 {
            if let Some(t) = self.serde_error_template(last, args) {
                let s = self.new_site(node, func, Kind::SerdeCustom, t);
                self.push(s);
                return;
            }
        }
        if last == "custom" && args.len() == 1 && segments.len() >= 2 {
            let t = self
                .message_of(args[0], 0)
                .unwrap_or_else(|| Template::hole(self.text(args[0]), ""));
            let s = self.new_site(node, func, Kind::SerdeCustom, t);
            self.push(s);
            return;
        }
        if last == "fmt"
            && matches!(
                segments.get(segments.len().wrapping_sub(2)),
                Some(&"Display") | Some(&"Debug")
            )
        {
            if self.display().is_some() && args.len() == 2 {
                let inner = self.text(args[0]).trim_start_matches('&').to_string();
                self.push_delegation(node, func, inner);
            }
            return;
        }
        if segments.len() < 2 {
            return;
        }
        let mut ty = segments[segments.len() - 2].to_string();
        if ty == "Self" {
            ty = self
                .self_type()
                .map(|t| last_segment(t).to_string())
                .unwrap_or(ty);
        }
        if NOT_ERROR_TYPES.contains(&ty.as_str()) || !ty.starts_with(|c: char| c.is_uppercase()) {
            return;
        }
        let message = args.iter().find_map(|a| {
            matches!(
                a.kind(),
                "string_literal" | "raw_string_literal" | "macro_invocation" | "call_expression"
            )
            .then(|| self.message_of(*a, 1))
            .flatten()
        });
        if let Some(t) = message.filter(|t| !t.is_dynamic()) {
            let site = self.new_site(node, func, Kind::ErrorNew, t);
            self.out.candidates.push(Candidate {
                site,
                condition: Condition::ErrorType(ty),
            });
        }
    }

    /// serde's `Error::invalid_type(..)` and kin: the default text, with
    /// `Unexpected::X(..)` and `&"expected"` arguments folded in.
    pub(super) fn serde_error_template(&mut self, method: &str, args: &[Node]) -> Option<Template> {
        let (_, text) = errdex_model::SERDE_ERRORS
            .iter()
            .find(|(m, _)| *m == method)?;
        let arity = if text.contains("{1}") { 2 } else { 1 };
        if args.len() != arity {
            return None;
        }
        let parts: Vec<Template> = args.iter().map(|a| self.serde_arg(*a)).collect();
        let mut t = Template::new();
        let mut rest = *text;
        while let Some(i) = rest.find('{') {
            t.push_lit(&rest[..i]);
            let n: usize = rest[i + 1..i + 2].parse().ok()?;
            t.append(&parts[n]);
            rest = &rest[i + 3..];
        }
        t.push_lit(rest);
        Some(t)
    }

    pub(super) fn serde_arg(&mut self, a: Node) -> Template {
        let inner = if a.kind() == "reference_expression" {
            a.named_child(a.named_child_count().saturating_sub(1) as u32)
                .unwrap_or(a)
        } else {
            a
        };
        if let Some(t) = self.message_of(inner, 4) {
            return t;
        }
        if let Some(f) = inner
            .child_by_field_name("function")
            .filter(|_| inner.kind() == "call_expression")
        {
            let variant = last_segment(self.text(f)).to_string();
            if let Some((_, shape)) = UNEXPECTED.iter().find(|(v, _)| *v == variant) {
                let value = call_args(inner)
                    .first()
                    .map(|v| self.text(*v).to_string())
                    .unwrap_or_default();
                let (spec, marker) = if shape.contains("{:?}") {
                    ("?", "{:?}")
                } else {
                    ("", "{}")
                };
                let is_literal =
                    value == "true" || value == "false" || value.parse::<f64>().is_ok();
                let shown = if is_literal {
                    Template::literal(&value)
                } else {
                    Template::hole(value, spec)
                };
                return match shape.split_once(marker) {
                    Some((before, after)) => Template::literal(before)
                        .then(&shown)
                        .then(&Template::literal(after)),
                    None => Template::literal(*shape),
                };
            }
        }
        if inner.kind() == "scoped_identifier" {
            let variant = last_segment(self.text(inner));
            if let Some((_, shape)) = UNEXPECTED.iter().find(|(v, _)| *v == variant) {
                return Template::literal(*shape);
            }
        }
        Template::hole(self.text(a), "")
    }

    /// The message an expression carries, if it is built from a literal or a
    /// formatting macro (possibly wrapped in conversions, constructors,
    /// closures or struct literals). Claims the calls it looks through.
    pub(crate) fn message_of(&mut self, node: Node, depth: u32) -> Option<Template> {
        if depth > 5 {
            return None;
        }
        match node.kind() {
            "string_literal" | "raw_string_literal" => {
                self.use_literal(node);
                literal::decode(self.text(node)).map(Template::literal)
            }
            "macro_invocation" => {
                let (t, _) = self.format_macro_template(node)?;
                self.claim(node);
                Some(t)
            }
            "reference_expression" | "parenthesized_expression" | "try_expression" => {
                let inner = node.named_child(node.named_child_count().saturating_sub(1) as u32)?;
                self.message_of(inner, depth + 1)
            }
            "call_expression" => {
                let func = node.child_by_field_name("function")?;
                let args = call_args(node);
                let t = if func.kind() == "field_expression" {
                    let method = func
                        .child_by_field_name("field")
                        .map(|f| self.text(f))
                        .unwrap_or("");
                    if !matches!(
                        method,
                        "into"
                            | "to_string"
                            | "to_owned"
                            | "into_boxed_str"
                            | "as_str"
                            | "as_ref"
                            | "clone"
                    ) {
                        return None;
                    }
                    self.message_of(func.child_by_field_name("value")?, depth + 1)
                } else {
                    args.iter().find_map(|a| self.message_of(*a, depth + 1))
                };
                if t.is_some() {
                    self.claim(node);
                }
                t
            }
            "struct_expression" => {
                let body = node.child_by_field_name("body")?;
                let mut c = body.walk();
                let values: Vec<Node> = body
                    .named_children(&mut c)
                    .filter_map(|f| f.child_by_field_name("value"))
                    .collect();
                values
                    .into_iter()
                    .find_map(|v| self.message_of(v, depth + 1))
            }
            "closure_expression" => self.message_of(node.child_by_field_name("body")?, depth + 1),
            "block" => {
                let last = node.named_child(node.named_child_count().checked_sub(1)? as u32)?;
                let last = if last.kind() == "expression_statement" {
                    last.named_child(0)?
                } else {
                    last
                };
                self.message_of(last, depth + 1)
            }
            "identifier" => {
                let name = self.text(node);
                self.lookup_let(name)
                    .or_else(|| is_const_name(name).then(|| Template::hole(name, "")))
            }
            "scoped_identifier" => {
                let text = self.text(node);
                is_const_name(last_segment(text)).then(|| Template::hole(text, ""))
            }
            _ => None,
        }
    }
}

/// The argument expressions of a call.
pub(crate) fn call_args(node: Node) -> Vec<Node> {
    let Some(args) = node.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut c = args.walk();
    let v: Vec<Node> = args
        .named_children(&mut c)
        .filter(|n| {
            !matches!(
                n.kind(),
                "line_comment" | "block_comment" | "attribute_item"
            )
        })
        .collect();
    v
}

/// `io::Error::new(ErrorKind::X, msg)` or `io::Error::other(msg)`.
fn is_io_error_ctor(path: &str, args: &[Node], w: &Walker) -> bool {
    let path = path.trim();
    (path.ends_with("Error::new") && args.len() == 2 && w.text(args[0]).contains("ErrorKind"))
        || (path.ends_with("io::Error::other") || path == "Error::other") && args.len() == 1
}

/// formatting trait's method called as a path.
pub(super) fn is_fmt_path(path: &str) -> bool {
    let mut segs = path.rsplit("::");
    segs.next() == Some("fmt")
        && matches!(
            segs.next(),
            Some("Display" | "Debug" | "LowerHex" | "UpperHex")
        )
}

/// `SCREAMING_CASE` names (constants).
fn is_const_name(s: &str) -> bool {
    s.len() > 1
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && s.chars().any(|c| c.is_ascii_uppercase())
}
