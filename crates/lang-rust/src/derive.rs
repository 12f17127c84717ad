//! Messages declared rather than raised: `#[error(..)]` of `thiserror` on
//! structs, enums and variants, and what derived `Debug` prints for a type
//! or variant.

use super::calls::NOT_ERROR_TYPES;
use super::scope;
use super::scope::Frame;
use super::tokens;
use super::Walker;
use crate::fmt::{self, FmtArg, Naming};
use errdex_extract::{Candidate, Condition};
use errdex_model::{Kind, Site, Template};
use errdex_syntax::attrs::Attrs;
use errdex_syntax::last_segment;
use errdex_syntax::literal;
use tree_sitter::Node;

impl<'a> Walker<'a> {
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
        if attrs.derive_error || attrs.derive_display {
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

    /// The error types a return type names: `E` of every `Result<T, E>` in
    /// it (`Result<Vec<N>, Cycle<N>>`, `Poll<Result<(), RecvError>>`).
    pub(super) fn result_error_types(&mut self, ret: Node) {
        let mut stack = vec![ret];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
            if n.kind() != "generic_type" {
                continue;
            }
            let is_result = n
                .child_by_field_name("type")
                .is_some_and(|t| last_segment(self.text(t)) == "Result");
            let Some(args) = n.child_by_field_name("type_arguments") else {
                continue;
            };
            let mut c = args.walk();
            let Some(err) = args.named_children(&mut c).nth(1).filter(|_| is_result) else {
                continue;
            };
            let name = scope::type_name(err, self.src());
            let name = last_segment(&name);
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && !NOT_ERROR_TYPES.contains(&name)
            {
                self.out.error_types.push(name.to_string());
            }
        }
    }

    /// Derived `Debug`: one site per struct, or per variant of an enum,
    /// whose template is what `{:?}` prints (`Name`, `Name({0:?})`,
    /// `Name { field: {field:?} }`), so that a printed value leads to its
    /// declaration.
    pub(super) fn debug_derive_sites(&mut self, node: Node) {
        let body = node.child_by_field_name("body");
        if node.kind() != "enum_item" {
            let name = node.child_by_field_name("name");
            if let Some(name) = name {
                let ty = self.text(name);
                let (template, types) = debug_shape(ty, body, self.src());
                let site = self.new_site(node, name, Kind::DebugDerive, template);
                self.push_debug(site, ty, types);
            }
            return;
        }
        let Some(body) = body else { return };
        let ty = node
            .child_by_field_name("name")
            .map_or("", |n| self.text(n));
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
            self.push_debug(site, ty, types);
            self.frames.pop();
        }
    }

    /// Pushes a derived-`Debug` site of type `ty` with its holes' field
    /// types. It counts only where the type is an error or held by one:
    /// what `{:?}` prints of an opcode or a config is not an error's text.
    fn push_debug(&mut self, site: Site, ty: &str, types: Vec<String>) {
        if types.iter().any(|t| !t.is_empty()) {
            self.out
                .debug_fields
                .push((self.out.candidates.len(), types));
        }
        self.out.candidates.push(Candidate {
            site,
            condition: Condition::ErrorType(ty.to_string()),
        });
    }

    pub(super) fn thiserror_variants(&mut self, body: Node, default: Option<Node>) {
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

    pub(super) fn thiserror_site(&mut self, tt: Node, tuple: bool) {
        let all = tokens::split_args(tt);
        // The text: the first argument, or the one a name gives it
        // (`fmt = ".."` of derive_more, `to_string = ".."` of strum), and the
        // arguments after it.
        let src = self.src();
        let named_text = all.iter().position(|a| {
            a.named(src).is_some_and(|(n, e)| {
                matches!(n.as_str(), "to_string" | "fmt" | "message") && e.as_literal().is_some()
            })
        });
        let args: Vec<tokens::Arg> = match named_text {
            Some(k) => {
                let (_, text) = all[k].named(src).expect("named above");
                std::iter::once(text)
                    .chain(all[k + 1..].iter().cloned())
                    .collect()
            }
            None if all.first().is_some_and(|a| a.named(src).is_some()) => return,
            None => all,
        };
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
