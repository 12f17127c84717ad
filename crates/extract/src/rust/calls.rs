//! Calls that carry messages: `expect`/`unwrap`, `Err(..)`, `map_err`,
//! `ok_or`, `context`, `io::Error::new`, serde's `custom`, constructors of
//! error types, and the writes of `Display` impls.

use super::attrs::Attrs;
use super::scope::{last_segment, Frame};
use super::tokens;
use super::Walker;
use crate::fmt::{self, FmtArg, Naming};
use crate::{literal, Candidate, Condition};
use errdex_model::{Kind, Site, Template};
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
const NOT_ERROR_TYPES: &[&str] = &[
    "String", "Box", "Arc", "Rc", "Cow", "PathBuf", "Path", "Vec", "Some", "Ok", "Option",
    "Result", "OsString", "CString", "Regex", "Command", "HashMap", "BTreeMap", "HashSet",
];

impl<'a> Walker<'a> {
    pub(super) fn visit_call(&mut self, node: Node) {
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

    fn method_call(&mut self, node: Node, func: Node, args: &[Node]) {
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

    fn unwrap_template(&self, receiver: Option<Node>) -> Template {
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
            .map(|t| last_segment(t.split('<').next().unwrap_or(t)).to_string());
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

    fn err_call(&mut self, node: Node, func: Node, arg: Node) {
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

    fn path_call(&mut self, node: Node, func: Node, args: &[Node]) {
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
    fn serde_error_template(&mut self, method: &str, args: &[Node]) -> Option<Template> {
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

    fn serde_arg(&mut self, a: Node) -> Template {
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

    /// One write of a `Display`/`Debug` impl as a site (not yet pushed).
    pub(crate) fn display_write_site(&mut self, node: Node) -> Option<Site> {
        let (t, report) = self.display_template(node)?;
        let display = self.display()?.clone();
        let kind = if display.debug {
            Kind::DebugImpl
        } else {
            Kind::Display
        };
        let mut site = self.new_site(node, report, kind, t);
        if site.template.is_dynamic() && site.template.pieces().len() == 1 {
            if let Some(errdex_model::Piece::Hole(h)) = site.template.pieces().first() {
                if h.spec.is_empty() {
                    site.delegates_to = Some(h.arg.clone());
                }
            }
        }
        site.partial = self.loops_in_fn() > 0
            || self
                .frames
                .iter()
                .rev()
                .take_while(|f| !f.is_fn)
                .any(|f| f.partial);
        Some(site)
    }

    /// The template a write call prints, and the node a report names.
    fn display_template<'t>(&mut self, node: Node<'t>) -> Option<(Template, Node<'t>)> {
        let node = if node.kind() == "try_expression" {
            node.named_child(0)?
        } else {
            node
        };
        match node.kind() {
            "macro_invocation" => {
                let name_node = node.child_by_field_name("macro")?;
                let name = last_segment(self.text(name_node)).to_string();
                if name != "write" && name != "writeln" {
                    return None;
                }
                let tt = super::macros::last_token_tree(node)?;
                let args = tokens::split_args(tt);
                let mut t = if args.len() > 1 {
                    self.format_args_template(&args[1..])
                } else {
                    Template::new()
                };
                if name == "writeln" {
                    t.push_lit("\n");
                }
                Some((t, name_node))
            }
            "call_expression" => {
                let func = node.child_by_field_name("function")?;
                let args = call_args(node);
                if func.kind() == "scoped_identifier"
                    && is_fmt_path(self.text(func))
                    && args.len() == 2
                {
                    let inner = self.text(args[0]).trim_start_matches('&').to_string();
                    return Some((Template::hole(inner, ""), func));
                }
                let field = func.child_by_field_name("field")?;
                let method = self.text(field);
                if matches!(method, "finish" | "finish_non_exhaustive") && args.is_empty() {
                    return self.debug_builder_template(node).map(|t| (t, field));
                }
                if method == "fmt" && args.len() == 1 {
                    let inner = func
                        .child_by_field_name("value")
                        .map(|v| self.text(v))
                        .unwrap_or("");
                    return Some((Template::hole(inner, ""), field));
                }
                let arg = *args.first()?;
                let t = match method {
                    "write_str" | "pad" => self
                        .message_of(arg, 0)
                        .unwrap_or_else(|| Template::hole(self.text(arg), "")),
                    "write_fmt" => self.message_of(arg, 0)?,
                    _ => return None,
                };
                Some((t, field))
            }
            _ => None,
        }
    }

    /// `f.debug_struct("Name").field("a", &x).finish()` (and
    /// `debug_tuple`) as the text it prints: `Name { a: {x:?} }`.
    fn debug_builder_template(&mut self, finish: Node) -> Option<Template> {
        let non_exhaustive = finish
            .child_by_field_name("function")
            .and_then(|f| f.child_by_field_name("field"))
            .is_some_and(|f| self.text(f) == "finish_non_exhaustive");
        let mut fields: Vec<(Option<String>, String)> = Vec::new();
        let mut cur = finish
            .child_by_field_name("function")?
            .child_by_field_name("value")?;
        loop {
            let func = cur.child_by_field_name("function")?;
            let method = self.text(func.child_by_field_name("field")?);
            let args = call_args(cur);
            match (method, args.as_slice()) {
                ("field", [name, value]) => {
                    let name = literal::decode(self.text(*name))
                        .unwrap_or_else(|| self.text(*name).to_string());
                    fields.push((
                        Some(name),
                        self.text(*value).trim_start_matches('&').to_string(),
                    ));
                }
                ("field", [value]) => {
                    fields.push((None, self.text(*value).trim_start_matches('&').to_string()))
                }
                ("debug_struct" | "debug_tuple", [name]) => {
                    let name = literal::decode(self.text(*name))?;
                    fields.reverse();
                    let tuple = method == "debug_tuple";
                    let mut t = Template::literal(name);
                    if fields.is_empty() && !non_exhaustive {
                        return Some(t);
                    }
                    t.push_lit(if tuple { "(" } else { " { " });
                    for (i, (fname, value)) in fields.iter().enumerate() {
                        if i > 0 {
                            t.push_lit(", ");
                        }
                        if let Some(n) = fname {
                            t.push_lit(&format!("{n}: "));
                        }
                        t.push_hole(errdex_model::Hole {
                            arg: value.clone(),
                            spec: "?".into(),
                        });
                    }
                    if non_exhaustive {
                        t.push_lit(if fields.is_empty() { ".." } else { ", .." });
                    }
                    t.push_lit(if tuple { ")" } else { " }" });
                    return Some(t);
                }
                _ => return None,
            }
            cur = func.child_by_field_name("value")?;
        }
    }

    pub(crate) fn push_display(&mut self, site: Site) {
        let ty = self
            .display()
            .map(|d| last_segment(&d.ty).to_string())
            .unwrap_or_default();
        self.out.candidates.push(Candidate {
            site,
            condition: Condition::ErrorType(ty),
        });
    }

    fn push_delegation(&mut self, node: Node, report: Node, inner: String) {
        let Some(display) = self.display().cloned() else {
            return;
        };
        let kind = if display.debug {
            Kind::DebugImpl
        } else {
            Kind::Display
        };
        // `"SendError(..)".fmt(f)`: the string itself, quoted where it is
        // printed with `Debug`.
        if let Some(text) = literal::decode(&inner) {
            let shown = if display.debug {
                format!("{text:?}")
            } else {
                text
            };
            let site = self.new_site(node, report, kind, Template::literal(&shown));
            self.push_display(site);
            return;
        }
        let mut site = self.new_site(node, report, kind, Template::hole(inner.clone(), ""));
        site.delegates_to = Some(inner);
        self.push_display(site);
    }

    /// A block inside a `Display` impl: consecutive statement-level writes
    /// form one message; writes in loops or beside other writes are parts.
    pub(super) fn visit_block(&mut self, node: Node) {
        if self.display().is_none() {
            self.visit_children(node);
            return;
        }
        let mut c = node.walk();
        let stmts: Vec<Node> = node.named_children(&mut c).collect();
        let direct: Vec<Node> = stmts.iter().filter_map(|s| self.direct_write(*s)).collect();
        let nested_writes = stmts
            .iter()
            .any(|s| self.direct_write(*s).is_none() && contains_write(*s, self.src()));
        let mut frame = Frame::named("");
        frame.partial = nested_writes && !direct.is_empty();
        self.frames.push(frame);
        if direct.len() >= 2 {
            let mut merged: Option<Site> = None;
            for w in &direct {
                let Some(site) = self.display_write_site(*w) else {
                    continue;
                };
                self.claim(*w);
                merged = Some(match merged {
                    None => site,
                    Some(mut m) => {
                        m.template.append(&site.template);
                        m.end_line = site.end_line;
                        m.excerpt_end = m.excerpt_end.max(site.excerpt_end);
                        m.delegates_to = None;
                        m
                    }
                });
            }
            if let Some(m) = merged {
                self.push_display(m);
            }
        }
        self.visit_children(node);
        self.frames.pop();
    }

    /// The write call a statement consists of (`write!(..)?;`, a trailing
    /// `f.write_str(..)`).
    fn direct_write<'t>(&self, stmt: Node<'t>) -> Option<Node<'t>> {
        let e = if stmt.kind() == "expression_statement" {
            stmt.named_child(0)?
        } else {
            stmt
        };
        let e = if e.kind() == "try_expression" {
            e.named_child(0)?
        } else {
            e
        };
        match e.kind() {
            "macro_invocation" => {
                let n = e.child_by_field_name("macro")?;
                matches!(last_segment(self.text(n)), "write" | "writeln").then_some(e)
            }
            "call_expression" => {
                let f = e.child_by_field_name("function")?;
                let name = match f.kind() {
                    "field_expression" => self.text(f.child_by_field_name("field")?),
                    "scoped_identifier" => self.text(f),
                    _ => return None,
                };
                let write = matches!(
                    name,
                    "write_str" | "pad" | "write_fmt" | "fmt" | "finish" | "finish_non_exhaustive"
                ) || is_fmt_path(name);
                write.then_some(e)
            }
            _ => None,
        }
    }

    /// thiserror: `#[error(..)]` on a struct, an enum, or its variants.
    pub(super) fn visit_type(&mut self, node: Node, attrs: &Attrs, test: bool) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or("")
            .to_string();
        if attrs.derive_error {
            self.out.error_types.push(name.clone());
        }
        if let Some(body) = node.child_by_field_name("body") {
            let held = self.type_names_in(body);
            self.out.type_fields.push((name.clone(), held));
        }
        let mut frame = Frame::named(&name);
        frame.test = test;
        self.frames.push(frame);
        if attrs.derive_error {
            let body = node.child_by_field_name("body");
            if node.kind() == "enum_item" {
                if let Some(body) = body {
                    self.thiserror_variants(body, attrs.error);
                }
            } else if let Some(tt) = attrs.error {
                let fields = body
                    .map(|b| b.kind() == "ordered_field_declaration_list")
                    .unwrap_or(false);
                self.thiserror_site(tt, fields);
            }
        }
        if attrs.derive_debug && !self.in_test() {
            self.debug_derive_sites(node);
        }
        self.visit_children(node);
        self.frames.pop();
    }

    /// The type names mentioned in a struct's or enum's body, once each.
    fn type_names_in(&self, body: Node) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "type_identifier" {
                let t = self.text(n);
                if !names.iter().any(|x| x == t) {
                    names.push(t.to_string());
                }
                continue;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        names
    }

    /// Derived `Debug`: one site per struct, or per variant of an enum,
    /// whose template is what `{:?}` prints (`Name`, `Name({0:?})`,
    /// `Name { field: {field:?} }`), so that a printed value leads to its
    /// declaration.
    fn debug_derive_sites(&mut self, node: Node) {
        let body = node.child_by_field_name("body");
        if node.kind() != "enum_item" {
            let name = node.child_by_field_name("name");
            if let Some(name) = name {
                let (template, types) = debug_shape(self.text(name), body, self.src());
                let site = self.new_site(node, name, Kind::DebugDerive, template);
                self.push_debug(site, types);
            }
            return;
        }
        let Some(body) = body else { return };
        let mut c = body.walk();
        let variants: Vec<Node> = body
            .named_children(&mut c)
            .filter(|v| v.kind() == "enum_variant")
            .collect();
        for v in variants {
            let Some(name) = v.child_by_field_name("name") else {
                continue;
            };
            let vname = self.text(name);
            let (template, types) = debug_shape(vname, v.child_by_field_name("body"), self.src());
            self.frames.push(Frame::named(vname));
            let site = self.new_site(v, name, Kind::DebugVariant, template);
            self.push_debug(site, types);
            self.frames.pop();
        }
    }

    /// Pushes a derived-`Debug` site with its holes' field types.
    fn push_debug(&mut self, site: Site, types: Vec<String>) {
        if types.iter().any(|t| !t.is_empty()) {
            self.out
                .debug_fields
                .push((self.out.candidates.len(), types));
        }
        self.push(site);
    }

    fn thiserror_variants(&mut self, body: Node, default: Option<Node>) {
        let mut attrs = Attrs::default();
        let mut c = body.walk();
        let children: Vec<Node> = body.children(&mut c).collect();
        for child in children {
            match child.kind() {
                "attribute_item" | "line_comment" | "block_comment" => attrs.add(child, self.src()),
                "enum_variant" => {
                    let a = std::mem::take(&mut attrs);
                    let Some(tt) = a.error.or(default) else {
                        continue;
                    };
                    let vname = child
                        .child_by_field_name("name")
                        .map(|n| self.text(n))
                        .unwrap_or("");
                    let tuple = child
                        .child_by_field_name("body")
                        .is_some_and(|b| b.kind() == "ordered_field_declaration_list");
                    self.frames.push(Frame::named(vname));
                    self.thiserror_site(tt, tuple);
                    self.frames.pop();
                }
                _ => attrs = Attrs::default(),
            }
        }
    }

    fn thiserror_site(&mut self, tt: Node, tuple: bool) {
        let args = tokens::split_args(tt);
        let Some(first) = args.first() else { return };
        let attr_item = tt.parent().and_then(|a| a.parent()).unwrap_or(tt);
        let first_text = first.text(self.src()).to_string();
        let (template, delegates) = if first_text == "transparent" {
            let field = if tuple { "0" } else { "source" };
            (Template::hole(field, ""), Some(field.to_string()))
        } else if let Some(lit) = first.as_literal() {
            self.use_literal(lit);
            let text = literal::decode(self.text(lit)).unwrap_or_default();
            let extra: Vec<FmtArg> = args[1..]
                .iter()
                .map(|a| FmtArg {
                    name: a.named(self.src()).map(|(n, _)| n),
                    text: a
                        .named(self.src())
                        .map(|(_, e)| e)
                        .unwrap_or_else(|| a.clone())
                        .text(self.src())
                        .to_string(),
                    value: None,
                    debug_same: false,
                })
                .collect();
            let t = match fmt::parse(&text) {
                Some(p) => fmt::bind(&p, &extra, Naming::Fields),
                None => Template::literal(text),
            };
            (t, None)
        } else {
            (Template::hole(first_text, ""), None)
        };
        let mut site = self.new_site(attr_item, attr_item, Kind::ErrorAttr, template);
        site.delegates_to = delegates;
        self.push(site);
    }
}

/// What derived `Debug` prints for a type or variant named `name` with
/// fields `body`: `Name`, `Name({0:?}, {1:?})`, `Name { a: {a:?} }`.
fn debug_shape(name: &str, body: Option<Node>, src: &[u8]) -> (Template, Vec<String>) {
    let mut t = Template::literal(name);
    let mut types = Vec::new();
    let Some(body) = body else {
        return (t, types);
    };
    let mut c = body.walk();
    let fields: Vec<Node> = body
        .named_children(&mut c)
        .filter(|f| f.kind() == "field_declaration")
        .collect();
    let hole = |arg: String| errdex_model::Hole {
        arg,
        spec: "?".into(),
    };
    match body.kind() {
        "ordered_field_declaration_list" => {
            // Tuple fields are the list's type children; a `()` field
            // prints as itself.
            let mut c = body.walk();
            let fields_types: Vec<&str> = body
                .named_children(&mut c)
                .filter(|f| {
                    !matches!(
                        f.kind(),
                        "attribute_item" | "visibility_modifier" | "line_comment" | "block_comment"
                    )
                })
                .map(|f| f.utf8_text(src).unwrap_or(""))
                .collect();
            if fields_types.is_empty() {
                return (t, types);
            }
            t.push_lit("(");
            for (i, ty) in fields_types.iter().enumerate() {
                if i > 0 {
                    t.push_lit(", ");
                }
                if *ty == "()" {
                    t.push_lit("()");
                } else {
                    t.push_hole(hole(i.to_string()));
                    types.push(type_name(ty));
                }
            }
            t.push_lit(")");
        }
        "field_declaration_list" if !fields.is_empty() => {
            t.push_lit(" { ");
            for (i, f) in fields.iter().enumerate() {
                let fname = f
                    .child_by_field_name("name")
                    .and_then(|n| n.utf8_text(src).ok())
                    .unwrap_or("");
                let fname = fname.strip_prefix("r#").unwrap_or(fname);
                if i > 0 {
                    t.push_lit(", ");
                }
                t.push_lit(&format!("{fname}: "));
                t.push_hole(hole(fname.to_string()));
                let ty = f
                    .child_by_field_name("type")
                    .and_then(|n| n.utf8_text(src).ok())
                    .unwrap_or("");
                types.push(type_name(ty));
            }
            t.push_lit(" }");
        }
        _ => {}
    }
    (t, types)
}

/// The name a type's derived `Debug` prints (`Cycle` for
/// `crate::algo::Cycle<N>`); empty for references, tuples, arrays.
fn type_name(ty: &str) -> String {
    let base = ty.split('<').next().unwrap_or("").trim();
    let last = base.rsplit("::").next().unwrap_or("");
    if last.chars().all(|c| c.is_alphanumeric() || c == '_') {
        last.to_string()
    } else {
        String::new()
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

/// `Display::fmt`, `fmt::Debug::fmt`, `core::fmt::Display::fmt`: a
/// formatting trait's method called as a path.
fn is_fmt_path(path: &str) -> bool {
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

/// True when a subtree holds a write call (macro or method).
fn contains_write(node: Node, src: &[u8]) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "macro_invocation" => {
                if let Some(m) = n.child_by_field_name("macro") {
                    if matches!(m.utf8_text(src).map(last_segment), Ok("write" | "writeln")) {
                        return true;
                    }
                }
            }
            "field_identifier" => {
                if matches!(n.utf8_text(src), Ok("write_str" | "pad" | "write_fmt")) {
                    return true;
                }
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    false
}
