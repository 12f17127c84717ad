//! The writes of `Display` and `Debug` impls: each statement-level write
//! (or run of them) as one message, writes in loops or beside others as
//! parts, `debug_struct`-style builders, and delegation to an inner error.

use super::calls::{call_args, is_fmt_path};
use super::scope::{one_line, type_name, Frame};
use super::tokens;
use super::Walker;
use errdex_extract::{Candidate, Condition};
use errdex_model::{Kind, Site, Template};
use errdex_syntax::last_segment;
use errdex_syntax::literal;
use tree_sitter::Node;

/// A method whose returned text a `Display`/`Debug` impl prints
/// (`f.write_str(self.description())`, `write!(f, "{}", self.as_str())`).
#[derive(Debug, Clone)]
pub(crate) struct Describer {
    /// The type the impl is for, generics stripped.
    pub ty: String,
    /// The method called on `self`.
    pub method: String,
    /// Printed by a `Debug` impl rather than `Display`.
    pub debug: bool,
}

/// The zero-argument `self.NAME()` calls in each `Display`/`Debug` impl of
/// a file (in code and in macro arguments alike), or `None` when some node
/// lies more than `limit` levels below `root` (the file is too deep to
/// walk). One cursor pass over the whole tree does both, without recursion
/// and without a cursor or child list per node.
pub(crate) fn describers_within(root: Node, src: &[u8], limit: usize) -> Option<Vec<Describer>> {
    let mut impls: Vec<Node> = Vec::new();
    let mut cursor = root.walk();
    let mut depth = 0usize;
    'walk: loop {
        let n = cursor.node();
        if n.kind() == "impl_item" {
            impls.push(n);
        }
        if cursor.goto_first_child() {
            depth += 1;
            if depth > limit {
                return None;
            }
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if depth == 0 || !cursor.goto_parent() {
                break 'walk;
            }
            depth -= 1;
        }
    }
    // The first describer found for a method wins, in the order of a
    // pre-order walk that takes the children last to first: outer impls
    // before the impls inside them, later impls before earlier ones.
    impls.sort_by_key(|n| (std::cmp::Reverse(n.end_byte()), n.start_byte()));
    let mut out: Vec<Describer> = Vec::new();
    for n in impls {
        describe_impl(n, src, &mut out);
    }
    Some(out)
}

/// Adds the describers of one impl (when it is a `Display`/`Debug` impl) to
/// `out`, each `(type, method, debug)` once.
fn describe_impl(n: Node, src: &[u8], out: &mut Vec<Describer>) {
    let (Some(tr), Some(ty), Some(body)) = (
        n.child_by_field_name("trait"),
        n.child_by_field_name("type"),
        n.child_by_field_name("body"),
    ) else {
        return;
    };
    let debug = match last_segment(&type_name(tr, src)) {
        "Display" => false,
        "Debug" => true,
        _ => return,
    };
    let ty = type_name(ty, src);
    let text = body.utf8_text(src).unwrap_or("");
    for (i, _) in text.match_indices("self.") {
        if i > 0 && text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[i + 5..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || !rest[name.len()..].trim_start().starts_with("()") {
            continue;
        }
        if !out
            .iter()
            .any(|d| d.ty == ty && d.method == name && d.debug == debug)
        {
            out.push(Describer {
                ty: ty.clone(),
                method: name,
                debug,
            });
        }
    }
}

/// The value of a `match` arm when it is only a string literal (`A =>
/// "text"`, `A => { "text" }`).
fn arm_literal(value: Node) -> Option<Node> {
    if super::tokens::is_string(&value) {
        return Some(value);
    }
    if value.kind() == "block" && value.named_child_count() == 1 {
        let inner = value.named_child(0)?;
        let inner = if inner.kind() == "expression_statement" {
            inner.named_child(0)?
        } else {
            inner
        };
        return super::tokens::is_string(&inner).then_some(inner);
    }
    None
}

impl<'a> Walker<'a> {
    /// The describer of the `Display`/`Debug` impl that fn `name`, in the
    /// impl being walked, is.
    pub(crate) fn describer_of(&self, name: &str) -> Option<Describer> {
        let impl_frame = self.frames.last()?;
        let ty = impl_frame.self_type.as_deref()?;
        if impl_frame.display_impl.is_some() {
            return None;
        }
        self.describers
            .iter()
            .find(|d| d.method == name && last_segment(&d.ty) == last_segment(ty))
            .cloned()
    }

    /// The literal arms of the `match` a describer fn returns, each a site
    /// of the type's `Display` (`Error::TooManyHeaders => "too many
    /// headers"`).
    pub(crate) fn describer_sites(&mut self, body: Node, d: &Describer) {
        let mut tail = body;
        // `{ match self { .. } }`, possibly inside nested blocks.
        for _ in 0..4 {
            let Some(last) = tail.named_child(tail.named_child_count().saturating_sub(1) as u32)
            else {
                return;
            };
            let last = if last.kind() == "expression_statement" {
                match last.named_child(0) {
                    Some(e) => e,
                    None => return,
                }
            } else {
                last
            };
            match last.kind() {
                "match_expression" => {
                    self.match_arm_sites(last, d.debug, &d.ty);
                    return;
                }
                "block" | "unsafe_block" => tail = last,
                _ => return,
            }
        }
    }

    /// A site per arm of `m` whose value is a string literal.
    fn match_arm_sites(&mut self, m: Node, debug: bool, ty: &str) -> usize {
        let Some(body) = m.child_by_field_name("body") else {
            return 0;
        };
        let mut c = body.walk();
        let arms: Vec<Node> = body
            .named_children(&mut c)
            .filter(|a| a.kind() == "match_arm")
            .collect();
        let mut n = 0;
        for arm in arms {
            let (Some(pat), Some(value)) = (
                arm.child_by_field_name("pattern"),
                arm.child_by_field_name("value"),
            ) else {
                continue;
            };
            if let Some(lit) = arm_literal(value) {
                let pattern = self.text(pat).to_string();
                n += self.push_arm_site(lit, &pattern, debug, ty) as usize;
            }
        }
        n
    }

    /// The same for a `match` written inside a macro's arguments
    /// (`write!(f, "{}", match self { .. })`), from its tokens.
    fn token_match_arm_sites(&mut self, tokens: &[Node], debug: bool, ty: &str) -> usize {
        let Some(body) = tokens
            .iter()
            .rev()
            .find(|t| t.kind() == "token_tree" && self.text(**t).starts_with('{'))
        else {
            return 0;
        };
        let inner = super::tokens::inner(*body);
        let mut n = 0;
        let mut start = 0;
        let mut i = 0;
        while i < inner.len() {
            if inner[i].kind() != "=>" {
                i += 1;
                continue;
            }
            let pattern: Vec<String> = inner[start..i]
                .iter()
                .map(|t| self.text(*t).to_string())
                .collect();
            let pattern = pattern.join(" ").replace(" :: ", "::");
            let value = inner.get(i + 1);
            let lit = value.and_then(|v| {
                if super::tokens::is_string(v) {
                    Some(*v)
                } else if v.kind() == "token_tree" && self.text(*v).starts_with('{') {
                    let vi = super::tokens::inner(*v);
                    (vi.len() == 1 && super::tokens::is_string(&vi[0])).then(|| vi[0])
                } else {
                    None
                }
            });
            if let Some(lit) = lit {
                n += self.push_arm_site(lit, &pattern, debug, ty) as usize;
            }
            // The arm ends at the next top-level comma, or after a block.
            let mut j = i + 1;
            while j < inner.len() && inner[j].kind() != "," {
                let block = inner[j].kind() == "token_tree" && self.text(inner[j]).starts_with('{');
                if block && j == i + 1 {
                    break;
                }
                j += 1;
            }
            if j < inner.len() && inner[j].kind() == "token_tree" {
                j += 1;
                if j < inner.len() && inner[j].kind() == "," {
                    j += 1;
                }
            } else {
                j += 1;
            }
            start = j;
            i = j;
        }
        n
    }

    /// One arm's literal as a `Display`/`Debug` site of `ty`.
    fn push_arm_site(&mut self, lit: Node, pattern: &str, debug: bool, ty: &str) -> bool {
        let Some(text) = literal::decode(self.text(lit)) else {
            return false;
        };
        if text.trim().is_empty() {
            return false;
        }
        let kind = if debug {
            Kind::DebugImpl
        } else {
            Kind::Display
        };
        let mut site = self.new_site(lit, lit, kind, Template::literal(&text));
        site.arm = Some(one_line(pattern, 120));
        self.use_literal(lit);
        self.out.candidates.push(Candidate {
            site,
            condition: Condition::NamedErrorType(last_segment(ty).to_string()),
        });
        true
    }

    /// One write of a `Display`/`Debug` impl as a site (not yet pushed).
    pub(crate) fn display_write_site(&mut self, node: Node) -> Option<Site> {
        if self.written_match_arms(node) {
            return None;
        }
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

    /// A write whose whole text is a `match` of string literals
    /// (`f.write_str(match self { .. })`, `write!(f, "{}", match self {
    /// .. })`): one site per arm, pushed here.
    fn written_match_arms(&mut self, node: Node) -> bool {
        let Some(display) = self.display().cloned() else {
            return false;
        };
        let node = if node.kind() == "try_expression" {
            match node.named_child(0) {
                Some(n) => n,
                None => return false,
            }
        } else {
            node
        };
        match node.kind() {
            "macro_invocation" => {
                let Some(tt) = super::macros::last_token_tree(node) else {
                    return false;
                };
                let args = tokens::split_args(tt);
                let [_, fmt, value] = args.as_slice() else {
                    return false;
                };
                let plain = fmt.tokens.len() == 1
                    && matches!(
                        literal::decode(self.text(fmt.tokens[0])).as_deref(),
                        Some("{}")
                    );
                let is_match = value
                    .tokens
                    .first()
                    .is_some_and(|t| self.text(*t) == "match");
                plain
                    && is_match
                    && self.token_match_arm_sites(&value.tokens, display.debug, &display.ty) > 0
            }
            "call_expression" => {
                let Some(func) = node.child_by_field_name("function") else {
                    return false;
                };
                let method = func
                    .child_by_field_name("field")
                    .map(|f| self.text(f))
                    .unwrap_or("");
                if !matches!(method, "write_str" | "pad") {
                    return false;
                }
                let args = call_args(node);
                let [arg] = args.as_slice() else {
                    return false;
                };
                let mut arg = *arg;
                while matches!(
                    arg.kind(),
                    "reference_expression" | "parenthesized_expression"
                ) {
                    match arg.named_child(arg.named_child_count().saturating_sub(1) as u32) {
                        Some(a) => arg = a,
                        None => return false,
                    }
                }
                arg.kind() == "match_expression"
                    && self.match_arm_sites(arg, display.debug, &display.ty) > 0
            }
            _ => false,
        }
    }

    /// The template a write call prints, and the node a report names.
    pub(super) fn display_template<'t>(&mut self, node: Node<'t>) -> Option<(Template, Node<'t>)> {
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
    pub(super) fn debug_builder_template(&mut self, finish: Node) -> Option<Template> {
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

    pub(super) fn push_delegation(&mut self, node: Node, report: Node, inner: String) {
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
    /// What a statement between them writes under a condition or in a loop
    /// (`if let Some(outer) = outer { write!(f, " in {outer}")?; }`) is a
    /// hole of the message: it printed something there, or nothing.
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
            // A conditional part seen since the last write: a hole before
            // the next one (or at the end).
            let mut optional = false;
            for stmt in &stmts {
                let Some(w) = self.direct_write(*stmt) else {
                    optional |= contains_write(*stmt, self.src());
                    continue;
                };
                let Some(mut site) = self.display_write_site(w) else {
                    continue;
                };
                self.claim(w);
                if std::mem::take(&mut optional) {
                    site.template = Template::hole("", "").then(&site.template);
                    site.delegates_to = None;
                }
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
            if let Some(mut m) = merged {
                if optional {
                    m.template.append(&Template::hole("", ""));
                }
                self.push_display(m);
            }
        }
        self.visit_children(node);
        self.frames.pop();
    }

    /// The write call a statement consists of (`write!(..)?;`, a trailing
    /// `f.write_str(..)`).
    pub(super) fn direct_write<'t>(&self, stmt: Node<'t>) -> Option<Node<'t>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use errdex_extract::Extractor;
    use errdex_syntax::MAX_SYNTAX_DEPTH;

    /// The walk `describers_within` replaced: a depth pre-walk, then a stack
    /// walk over named children. Kept to check the one pass against it.
    fn reference(root: Node, src: &[u8], limit: usize) -> Option<Vec<(String, String, bool)>> {
        if errdex_syntax::deeper_than(root, limit) {
            return None;
        }
        let mut impls = Vec::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
            if n.kind() == "impl_item" {
                impls.push(n);
            }
        }
        let mut out = Vec::new();
        for n in impls {
            describe_impl(n, src, &mut out);
        }
        Some(out.into_iter().map(|d| (d.ty, d.method, d.debug)).collect())
    }

    fn check(src: &str) {
        let tree = errdex_syntax::parse(&mut errdex_syntax::parser(), src).unwrap();
        for limit in [MAX_SYNTAX_DEPTH, 4] {
            let got = describers_within(tree.root_node(), src.as_bytes(), limit)
                .map(|v| v.into_iter().map(|d| (d.ty, d.method, d.debug)).collect());
            assert_eq!(
                got,
                reference(tree.root_node(), src.as_bytes(), limit),
                "{src}"
            );
        }
    }

    #[test]
    fn one_pass_orders_describers_like_the_walk_it_replaced() {
        // Later impls first, an outer impl before the impls inside it: the
        // first describer of `name` decides between Display and Debug.
        let src = r#"
impl fmt::Display for E { fn fmt(&self, f: &mut F) -> R { f.write_str(self.name()) } }
impl fmt::Debug for E {
    fn fmt(&self, f: &mut F) -> R {
        impl fmt::Display for Inner { fn fmt(&self, f: &mut F) -> R { f.write_str(self.inner()) } }
        write!(f, "{}", self.name())
    }
}
impl Debug for Other { fn fmt(&self, f: &mut F) -> R { f.write_str(self.name()) } }
"#;
        let tree = errdex_syntax::parse(&mut errdex_syntax::parser(), src).unwrap();
        let got: Vec<(String, String, bool)> =
            describers_within(tree.root_node(), src.as_bytes(), MAX_SYNTAX_DEPTH)
                .unwrap()
                .into_iter()
                .map(|d| (d.ty, d.method, d.debug))
                .collect();
        let d = |t: &str, m: &str, b| (t.to_string(), m.to_string(), b);
        assert_eq!(
            got,
            vec![
                d("Other", "name", true),
                d("E", "inner", true),
                d("E", "name", true),
                d("Inner", "inner", false),
                d("E", "name", false),
            ]
        );
        check(src);
    }

    #[test]
    fn one_pass_matches_the_walk_it_replaced_on_real_files() {
        // This crate's own sources, and any tree named by
        // ERRDEX_EQUIV_DIR (e.g. the cargo registry's sources).
        let mut dirs = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")];
        dirs.extend(std::env::var_os("ERRDEX_EQUIV_DIR").map(Into::into));
        let mut n = 0;
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    if let Ok(src) = std::fs::read_to_string(&p) {
                        check(&src);
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 5, "{n} files");
    }

    #[test]
    fn too_deep_files_are_refused_without_overflow() {
        let src = format!("fn f() {{ {}1{} }}", "(".repeat(2000), ")".repeat(2000));
        let tree = errdex_syntax::parse(&mut errdex_syntax::parser(), &src).unwrap();
        assert!(describers_within(tree.root_node(), src.as_bytes(), MAX_SYNTAX_DEPTH).is_none());
        let x = crate::RustExtractor.extract(&errdex_extract::SourceFile {
            path: "src/lib.rs".into(),
            text: src,
        });
        assert!(x.too_deep && x.candidates.is_empty());
    }
}
