//! Rust for errdex: the extractor of `.rs` files, a walk over
//! tree-sitter-rust syntax trees, and `fmt`, Rust's format strings as
//! templates.
//!
//! Macro arguments are flat token trees in tree-sitter; the walker re-parses
//! the inside of a token tree (in place, so positions stay true) whenever it
//! may hold error sites, which reaches code inside `cfg_if!`-style wrappers,
//! format arguments and `macro_rules!` bodies.

mod calls;
mod derive;
mod display;
pub mod fmt;
mod macros;
mod scope;
mod tokens;

use errdex_extract::{Extractor, FileExtraction, SourceFile, STRINGIFY};
use errdex_model::{Evidence, EvidenceKind, Literal, Template};
use errdex_syntax::attrs::{self, Attrs};
use errdex_syntax::MAX_SYNTAX_DEPTH;
use errdex_syntax::{last_segment, literal};
use scope::{Frame, Lines};
use std::collections::HashSet;
use tree_sitter::{Node, Parser};

/// Identifies this build of the Rust extractor (with
/// `errdex_extract::FINGERPRINT`): cached per-file results are reused only
/// by a build that would produce the same.
pub const FINGERPRINT: &str = env!("ERRDEX_RUST_FINGERPRINT");

/// Deepest nesting of token trees re-parsed as code.
const MAX_REPARSE: u32 = 6;

/// Extracts error sites from `.rs` files.
#[derive(Debug, Default, Clone, Copy)]
pub struct RustExtractor;

impl Extractor for RustExtractor {
    fn language(&self) -> &'static str {
        "rust"
    }

    fn handles(&self, path: &str) -> bool {
        path.ends_with(".rs")
    }

    fn unit_of(&self, path: &str) -> String {
        scope::crate_dir(path)
    }

    fn extract(&self, file: &SourceFile) -> FileExtraction {
        thread_local! {
            static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(errdex_syntax::parser());
        }
        PARSER.with_borrow_mut(|parser| {
            let _ = parser.set_included_ranges(&[]);
            let Some(tree) = parser.parse(file.text.as_bytes(), None) else {
                return FileExtraction::default();
            };
            // One pass checks the depth (so that no walk below can exhaust
            // the stack) and finds the describers.
            let Some(describers) = display::describers_within(
                tree.root_node(),
                file.text.as_bytes(),
                MAX_SYNTAX_DEPTH,
            ) else {
                return FileExtraction {
                    too_deep: true,
                    ..FileExtraction::default()
                };
            };
            let mut w = Walker::new(file, parser);
            w.out.syntax_errors = errdex_syntax::count_errors(tree.root_node());
            w.describers = describers;
            w.visit(tree.root_node());
            w.finish()
        })
    }
}

/// Names whose presence among a token tree's tokens makes it worth
/// re-parsing as code: message-carrying methods and constructors.
const TRIGGER_NAMES: &[&str] = &[
    "expect",
    "expect_err",
    "unwrap",
    "unwrap_err",
    "Err",
    "map_err",
    "ok_or",
    "ok_or_else",
    "context",
    "with_context",
    "wrap_err",
    "wrap_err_with",
    "custom",
    "msg",
    "other",
    "write_str",
    "pad",
    "fmt",
    "invalid_type",
    "invalid_value",
    "invalid_length",
    "missing_field",
    "duplicate_field",
    "unknown_field",
    "unknown_variant",
    "new",
];

/// Keywords that start items (code wrapped by `cfg_if!`-style macros).
const ITEM_KEYWORDS: &[&str] = &[
    "fn",
    "impl",
    "mod",
    "const",
    "static",
    "struct",
    "enum",
    "macro_rules",
];

/// Text without which a fn body cannot hold a site: macro calls, message
/// methods and constructors, and nested message items.
const SITE_TRIGGERS: &[&str] = &[
    "!(",
    "![",
    "!{",
    "! (",
    "! {",
    "! [",
    "!\n",
    ".expect",
    ".unwrap",
    "Err(",
    "Error",
    "error",
    "fmt",
    "custom(",
    "context",
    "ok_or",
    "map_err",
    "write_str",
    ".pad(",
    "invalid_",
    "_field(",
    "unknown_",
    "exit(",
    "const ",
    "static ",
    "msg(",
    "debug_",
];

/// True unless `body` lacks every [`SITE_TRIGGERS`] text (one pass over it).
fn may_hold_sites(body: &str) -> bool {
    static AC: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let ac = AC.get_or_init(|| {
        aho_corasick::AhoCorasick::new(SITE_TRIGGERS).expect("static patterns build")
    });
    ac.is_match(body)
}

/// Syntax kinds whose subtrees cannot hold an error site.
const SKIPPED: &[&str] = &[
    "use_declaration",
    "type_identifier",
    "primitive_type",
    "generic_type",
    "reference_type",
    "scoped_type_identifier",
    "type_arguments",
    "type_parameters",
    "where_clause",
    "trait_bounds",
    "lifetime",
    "visibility_modifier",
    "function_modifiers",
    "extern_crate_declaration",
    "field_identifier",
    "scoped_identifier",
    "abstract_type",
    "dynamic_type",
    "pointer_type",
    "tuple_type",
    "array_type",
    "function_type",
];

pub(crate) struct Walker<'a> {
    src: &'a [u8],
    path: &'a str,
    lines: Lines,
    parser: &'a mut Parser,
    pub(crate) out: FileExtraction,
    frames: Vec<Frame>,
    /// The crate's folder name, leading item paths in a workspace of several
    /// crates (none for a crate at the root).
    crate_prefix: Option<String>,
    file_test: bool,
    depth: u32,
    reparse_depth: u32,
    /// Literal start bytes already recorded (re-parsing sees them again).
    seen_literals: HashSet<usize>,
    /// Literal start bytes that are some site's message.
    used_literals: HashSet<usize>,
    /// Call nodes (by start byte and kind) already covered by an outer site.
    consumed: HashSet<(usize, usize)>,
    /// The first line of a `let` whose message the site being built uses
    /// (`let msg = format!(…); … panic!("{}", msg)`): the site begins there.
    let_line: std::cell::Cell<Option<u32>>,
    /// Methods a `Display`/`Debug` impl of this file prints the result of
    /// (`f.write_str(self.description())`), as `(type, method, debug)`.
    describers: Vec<display::Describer>,
}

impl<'a> Walker<'a> {
    fn new(file: &'a SourceFile, parser: &'a mut Parser) -> Self {
        let module_path = scope::module_path(&file.path);
        let file_test = errdex_syntax::is_test_path(&file.path);
        Walker {
            src: file.text.as_bytes(),
            path: &file.path,
            lines: Lines::new(&file.text),
            parser,
            out: FileExtraction {
                module_path,
                path: file.path.clone(),
                module_root: scope::module_root(&file.path),
                ..FileExtraction::default()
            },
            frames: Vec::new(),
            crate_prefix: scope::crate_prefix(&file.path),
            file_test,
            depth: 0,
            reparse_depth: 0,
            seen_literals: HashSet::new(),
            used_literals: HashSet::new(),
            consumed: HashSet::new(),
            let_line: std::cell::Cell::new(None),
            describers: Vec::new(),
        }
    }

    fn finish(mut self) -> FileExtraction {
        self.out
            .literals
            .retain(|l| !self.used_literals.contains(&(l.column as usize)));
        // `column` held the start byte until here; turn it into a column.
        for l in &mut self.out.literals {
            let (_, col) = self.lines.position(l.column as usize, self.src);
            l.column = col;
        }
        self.out
    }

    pub(crate) fn text(&self, n: Node) -> &'a str {
        std::str::from_utf8(&self.src[n.start_byte()..n.end_byte()]).unwrap_or("")
    }

    pub(crate) fn src(&self) -> &'a [u8] {
        self.src
    }

    pub(crate) fn item_path(&self) -> String {
        let mut parts: Vec<&str> = self.crate_prefix.iter().map(String::as_str).collect();
        parts.extend(self.out.module_path.iter().map(String::as_str));
        parts.extend(
            self.frames
                .iter()
                .filter(|f| !f.name.is_empty())
                .map(|f| f.name.as_str()),
        );
        parts.join("::")
    }

    /// An out-of-line module (`mod name;`): where its file is, whether
    /// only documentation builds compile it, whether it is test code.
    pub(crate) fn declare_module(&mut self, name: String, attrs: &Attrs) {
        self.out.mods.push(errdex_extract::ModDecl {
            inline: self.inline_modules(),
            name: name.clone(),
            path: attrs.path.clone(),
            docs_only: attrs.cfg_docs,
        });
        if attrs.cfg_test || self.in_test() {
            let mut path = self.out.module_path.clone();
            path.extend(
                self.frames
                    .iter()
                    .filter(|f| !f.name.is_empty())
                    .map(|f| f.name.clone()),
            );
            path.push(name);
            self.out
                .test_modules
                .push(format!("{}#{}", self.out.module_root, path.join("::")));
        }
    }

    /// The inline modules around the current node (a macro's body expands
    /// where it is called: its frames are not modules).
    fn inline_modules(&self) -> Vec<String> {
        self.frames
            .iter()
            .filter(|f| f.module)
            .map(|f| f.name.clone())
            .collect()
    }

    pub(crate) fn in_test(&self) -> bool {
        self.file_test || self.frames.iter().any(|f| f.test)
    }

    fn visit(&mut self, node: Node) {
        if self.depth as usize >= MAX_SYNTAX_DEPTH {
            return;
        }
        self.depth += 1;
        match node.kind() {
            "string_literal" | "raw_string_literal" => self.record_literal(node),
            "macro_invocation" => self.visit_macro(node),
            "call_expression" => {
                self.visit_call(node);
                self.visit_children(node);
            }
            "let_declaration" => {
                self.visit_children(node);
                self.record_let(node);
            }
            "for_expression" | "while_expression" | "loop_expression" => {
                if let Some(f) = self.frames.last_mut() {
                    f.loops += 1;
                }
                self.visit_children(node);
                if let Some(f) = self.frames.last_mut() {
                    f.loops -= 1;
                }
            }
            "match_arm" => {
                let pat = node
                    .child_by_field_name("pattern")
                    .map(|p| (p.start_byte(), p.end_byte()));
                let saved = self
                    .frames
                    .last_mut()
                    .map(|f| std::mem::replace(&mut f.arm, pat));
                self.visit_children(node);
                if let (Some(f), Some(saved)) = (self.frames.last_mut(), saved) {
                    f.arm = saved;
                }
            }
            "block"
                if node.parent().is_some_and(|p| p.kind() == "function_item")
                    && !may_hold_sites(self.text(node)) =>
            {
                self.record_literals_only(node)
            }
            "block" => self.visit_block(node),
            "inner_attribute_item" => {
                let text = self.text(node);
                let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
                if compact.starts_with("#![cfg(test)]") && self.frames.is_empty() {
                    self.file_test = true;
                }
            }
            _ => self.visit_children(node),
        }
        self.depth -= 1;
    }

    /// Visits children, handing each item the attributes and doc comments
    /// that precede it.
    fn visit_children(&mut self, node: Node) {
        let mut attrs = Attrs::default();
        let mut c = node.walk();
        if !c.goto_first_child() {
            return;
        }
        loop {
            let child = c.node();
            // Leaves (punctuation, names, numbers) and type or import syntax
            // hold no site: skip them without a call.
            if child.child_count() == 0 || SKIPPED.contains(&child.kind()) {
                if !c.goto_next_sibling() {
                    break;
                }
                continue;
            }
            match child.kind() {
                "attribute_item" => {
                    attrs.add(child, self.src);
                    self.visit_attribute_literals(child);
                }
                "line_comment" | "block_comment" => attrs.add(child, self.src),
                _ => {
                    let a = std::mem::take(&mut attrs);
                    self.visit_item(child, a);
                }
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    fn visit_attribute_literals(&mut self, attr: Node) {
        // Literals in attributes (#[error("..")], #[doc = ".."]) are not
        // indexed as free literals: thiserror ones are sites, the rest docs.
        let mut stack = vec![attr];
        while let Some(n) = stack.pop() {
            if tokens::is_string(&n) {
                self.seen_literals.insert(n.start_byte());
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
    }

    fn visit_item(&mut self, node: Node, attrs: Attrs) {
        let test = attrs.test_fn || attrs.cfg_test || attrs.should_panic.is_some();
        match node.kind() {
            "function_item" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or("");
                let mut frame = Frame::named(name);
                frame.test = test;
                frame.track_caller = attrs.track_caller;
                frame.is_fn = true;
                frame.start_line = errdex_syntax::line(node);
                frame.end_line = node.end_position().row as u32 + 1;
                frame.end_byte = node.end_byte();
                if let Some(display) = self.frames.last().and_then(|f| f.display_impl.clone()) {
                    if name == "fmt" {
                        frame.display = Some(display);
                    }
                }
                let describes = self.describer_of(name);
                // What a public fn (or a trait's method) returns as an error
                // reaches users; a private fn's `Err(index)` is signalling.
                let public = {
                    let mut c = node.walk();
                    let visibility = node
                        .children(&mut c)
                        .find(|n| n.kind() == "visibility_modifier");
                    visibility.is_some_and(|v| self.text(v) == "pub")
                        || self
                            .frames
                            .last()
                            .is_some_and(|f| f.name.starts_with('<') && f.name.contains(" as "))
                };
                if let Some(ret) = node.child_by_field_name("return_type").filter(|_| public) {
                    self.result_error_types(ret);
                }
                self.frames.push(frame);
                if let (Some(d), Some(body)) = (describes, node.child_by_field_name("body")) {
                    self.describer_sites(body, &d);
                }
                if let Some(params) = node.child_by_field_name("parameters") {
                    let mut c = params.walk();
                    let params: Vec<Node> = params
                        .named_children(&mut c)
                        .filter(|p| p.kind() == "parameter")
                        .collect();
                    for p in params {
                        if let (Some(pat), Some(ty)) = (
                            p.child_by_field_name("pattern"),
                            p.child_by_field_name("type"),
                        ) {
                            self.declare(pat, ty);
                        }
                    }
                }
                let item = self.item_path();
                self.record_docs(&attrs, &item);
                if let Some(expected) = &attrs.should_panic {
                    if let Some(text) = expected.clone().filter(|t| !t.is_empty()) {
                        self.out.should_panic.push(Evidence {
                            kind: EvidenceKind::ShouldPanic,
                            path: self.path.to_string(),
                            line: errdex_syntax::line(node),
                            item_path: item,
                            text,
                        });
                    }
                }
                self.visit_children(node);
                self.frames.pop();
            }
            "mod_item" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or("")
                    .to_string();
                if node.child_by_field_name("body").is_some() {
                    let mut frame = Frame::named(&name);
                    frame.test = attrs.cfg_test;
                    frame.module = true;
                    self.frames.push(frame);
                    self.visit_children(node);
                    self.frames.pop();
                } else {
                    self.declare_module(name, &attrs);
                }
            }
            "impl_item" => self.visit_impl(node, test),
            "trait_item" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n))
                    .unwrap_or("");
                let mut frame = Frame::named(name);
                frame.test = test;
                self.frames.push(frame);
                self.visit_children(node);
                self.frames.pop();
            }
            "enum_item" | "struct_item" | "union_item" => self.visit_type(node, &attrs, test),
            "const_item" | "static_item" => {
                self.record_const(node);
                self.with_test(test, |w| w.visit(node));
            }
            "macro_definition" => self.visit_macro_definition(node, test),
            _ => {
                if test {
                    self.with_test(true, |w| w.visit(node));
                } else {
                    self.visit(node);
                }
            }
        }
    }

    fn with_test(&mut self, test: bool, f: impl FnOnce(&mut Self)) {
        if test {
            let mut frame = Frame::named("");
            frame.test = true;
            self.frames.push(frame);
            f(self);
            self.frames.pop();
        } else {
            f(self);
        }
    }

    fn record_docs(&mut self, attrs: &Attrs, item: &str) {
        if attrs.doc.trim().is_empty() {
            return;
        }
        let (summary, panics, errors) = attrs::doc_sections(&attrs.doc);
        let mut push = |kind, text: String| {
            self.out.docs.push(Evidence {
                kind,
                path: self.path.to_string(),
                line: attrs.doc_line,
                item_path: item.to_string(),
                text,
            })
        };
        if !summary.is_empty() {
            push(EvidenceKind::Doc, summary);
        }
        if let Some(p) = panics {
            push(EvidenceKind::DocPanics, p);
        }
        if let Some(e) = errors {
            push(EvidenceKind::DocErrors, e);
        }
    }

    fn visit_impl(&mut self, node: Node, test: bool) {
        let ty = node
            .child_by_field_name("type")
            .map(|t| scope::type_name(t, self.src))
            .unwrap_or_default();
        let tr = node
            .child_by_field_name("trait")
            .map(|t| scope::type_name(t, self.src));
        let name = match &tr {
            Some(tr) => format!("<{ty} as {tr}>"),
            None => ty.clone(),
        };
        let mut frame = Frame::named(&name);
        frame.test = test;
        frame.self_type = Some(ty.clone());
        if let Some(tr) = &tr {
            let last = tr.rsplit("::").next().unwrap_or(tr);
            match last {
                "Error" => self.out.error_types.push(last_segment(&ty).to_string()),
                "Display" => {
                    frame.display_impl = Some(scope::DisplayImpl {
                        ty: ty.clone(),
                        debug: false,
                    })
                }
                "Debug" => {
                    frame.display_impl = Some(scope::DisplayImpl {
                        ty: ty.clone(),
                        debug: true,
                    })
                }
                _ => {}
            }
        }
        self.frames.push(frame);
        self.visit_children(node);
        self.frames.pop();
    }

    pub(crate) fn record_literal(&mut self, node: Node) {
        let start = node.start_byte();
        if !self.seen_literals.insert(start) {
            return;
        }
        let Some(text) = literal::decode(self.text(node)) else {
            return;
        };
        if text.chars().count() < 8 {
            return;
        }
        let line = errdex_syntax::line(node);
        self.out.literals.push(Literal {
            path: self.path.to_string(),
            line,
            // The start byte, turned into a column in `finish`.
            column: start as u32,
            text,
            is_test: self.in_test(),
        });
    }

    /// Walks a subtree that holds no site for its string literals alone.
    fn record_literals_only(&mut self, node: Node) {
        if !self.text(node).contains('"') {
            return;
        }
        walk_below(node, |child| match child.kind() {
            "string_literal" | "raw_string_literal" => {
                self.record_literal(child);
                Below::Skip
            }
            "attribute_item" | "inner_attribute_item" => {
                self.visit_attribute_literals(child);
                Below::Skip
            }
            _ => Below::Descend,
        });
    }

    /// Marks a literal as a site's message (so it is not a free literal).
    pub(crate) fn use_literal(&mut self, node: Node) {
        self.used_literals.insert(node.start_byte());
    }

    fn record_let(&mut self, node: Node) {
        let (Some(pat), Some(value)) = (
            node.child_by_field_name("pattern"),
            node.child_by_field_name("value"),
        ) else {
            return;
        };
        if pat.kind() != "identifier" {
            return;
        }
        if let Some(ty) = node.child_by_field_name("type") {
            self.declare(pat, ty);
        }
        let name = self.text(pat).to_string();
        // A message built from earlier `let`s begins at the first of them.
        let outer = self.let_line.take();
        let template = match value.kind() {
            "macro_invocation" => self.format_macro_template(value).map(|(t, _)| t),
            "string_literal" | "raw_string_literal" => {
                literal::decode(self.text(value)).map(Template::literal)
            }
            _ => None,
        };
        let line = errdex_syntax::line(node);
        let line = self.let_line.replace(outer).map_or(line, |l| l.min(line));
        if let (Some(t), Some(f)) = (template, self.frames.iter_mut().rev().find(|f| f.is_fn)) {
            f.lets.push((name, t, line));
        }
    }

    /// The message a `let` of the enclosing fn bound to `name`; the site
    /// being built begins at that `let`.
    pub(crate) fn lookup_let(&self, name: &str) -> Option<Template> {
        let f = self.frames.iter().rev().find(|f| f.is_fn)?;
        let (_, t, line) = f.lets.iter().rev().find(|(n, _, _)| n == name)?;
        let first = self.let_line.get().map_or(*line, |l| l.min(*line));
        self.let_line.set(Some(first));
        Some(t.clone())
    }

    /// Forgets the `let` lines looked up so far: a new site is being built.
    pub(crate) fn begin_site(&self) {
        self.let_line.set(None);
    }

    /// The first line of the `let`s the site just built used, if any.
    pub(crate) fn take_let_line(&self) -> Option<u32> {
        self.let_line.take()
    }

    /// A `const`/`static`: a message's text (a string, `concat!`) or an
    /// integer (a literal, or another constant's name).
    fn record_const(&mut self, node: Node) {
        let (Some(name), Some(value)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("value"),
        ) else {
            return;
        };
        let number = match value.kind() {
            "integer_literal" => {
                integer_value(self.text(value)).map(errdex_extract::NumberValue::Literal)
            }
            "identifier" | "scoped_identifier" => Some(errdex_extract::NumberValue::Alias(
                last_segment(self.text(value)).to_string(),
            )),
            _ => None,
        };
        // A `static mut` may hold another value by the time it prints.
        let mut c = node.walk();
        let mutable = node
            .children(&mut c)
            .any(|n| n.kind() == "mutable_specifier");
        let is_integer = !mutable
            && node
                .child_by_field_name("type")
                .is_some_and(|t| INTEGER_TYPES.contains(&self.text(t)));
        if let Some(value) = number.filter(|_| is_integer) {
            self.out.numbers.push(errdex_extract::NumberConst {
                name: self.text(name).to_string(),
                value,
            });
            return;
        }
        let template = match value.kind() {
            "string_literal" | "raw_string_literal" => {
                literal::decode(self.text(value)).map(Template::literal)
            }
            "macro_invocation" => self.concat_template(value),
            _ => None,
        };
        if let Some(template) = template {
            self.out.consts.push(errdex_extract::ConstDef {
                name: self.text(name).to_string(),
                template,
                location: format!("{}:{}", self.path, node.start_position().row + 1),
            });
        }
    }

    /// Re-parses the inside of a token tree as Rust and walks it, so that
    /// code passed to macros is seen. Positions stay those of the file.
    pub(crate) fn reparse(&mut self, tt: Node) {
        if self.reparse_depth >= MAX_REPARSE
            || tt.child_count() < 3
            || !self.tokens_may_hold_sites(tt)
        {
            return;
        }
        let Some(tree) = errdex_syntax::reparse_token_tree(self.parser, self.src, tt) else {
            return;
        };
        self.reparse_depth += 1;
        self.visit(tree.root_node());
        self.reparse_depth -= 1;
    }

    /// True when a token tree's tokens (string literals aside) name a
    /// message method, call a macro, or start an item.
    fn tokens_may_hold_sites(&self, tt: Node) -> bool {
        walk_below(tt, |tok| match tok.kind() {
            "string_literal" | "raw_string_literal" => Below::Skip,
            "identifier" if TRIGGER_NAMES.contains(&self.text(tok)) => Below::Stop,
            "!" if tok.next_sibling().is_some_and(|s| s.kind() == "token_tree") => Below::Stop,
            k if ITEM_KEYWORDS.contains(&k) => Below::Stop,
            _ => Below::Descend,
        })
    }

    /// True the first time a node is claimed as (part of) a site.
    pub(crate) fn claim(&mut self, n: Node) -> bool {
        self.consumed.insert((n.start_byte(), n.kind_id() as usize))
    }

    pub(crate) fn is_claimed(&self, n: Node) -> bool {
        self.consumed
            .contains(&(n.start_byte(), n.kind_id() as usize))
    }
}

/// What a walk of a subtree does below a node it visited.
enum Below {
    /// Visit its children (if it has any).
    Descend,
    /// Leave them.
    Skip,
    /// End the walk.
    Stop,
}

/// Visits the descendants of `node` — each node's children in order,
/// those `visit` descends into kept on a stack for later — and tells
/// whether `visit` stopped the walk.
fn walk_below<'t>(node: Node<'t>, mut visit: impl FnMut(Node<'t>) -> Below) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let mut c = n.walk();
        if !c.goto_first_child() {
            continue;
        }
        loop {
            let child = c.node();
            match visit(child) {
                Below::Stop => return true,
                Below::Descend if child.child_count() > 0 => stack.push(child),
                Below::Descend | Below::Skip => {}
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }
    false
}

/// The integer types (a numeric const's, a literal's suffix).
pub(crate) const INTEGER_TYPES: [&str; 12] = [
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// An integer literal's value in decimal (`0x10` → `16`, `1_000u32` →
/// `1000`), as `{}` prints it; `None` for what does not parse.
fn integer_value(lit: &str) -> Option<String> {
    let t: String = lit.chars().filter(|c| *c != '_').collect();
    let (digits, radix) = match t.get(..2) {
        Some("0x") => (&t[2..], 16),
        Some("0o") => (&t[2..], 8),
        Some("0b") => (&t[2..], 2),
        _ => (t.as_str(), 10),
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let (digits, suffix) = digits.split_at(end);
    if !(suffix.is_empty() || INTEGER_TYPES.contains(&suffix)) {
        return None;
    }
    u128::from_str_radix(digits, radix)
        .ok()
        .map(|v| v.to_string())
}

#[cfg(test)]
mod number_tests {
    use super::integer_value;

    #[test]
    fn integer_literals_read_as_decimal() {
        assert_eq!(integer_value("14").as_deref(), Some("14"));
        assert_eq!(integer_value("0x10").as_deref(), Some("16"));
        assert_eq!(integer_value("1_000u32").as_deref(), Some("1000"));
        assert_eq!(integer_value("0b101").as_deref(), Some("5"));
        assert_eq!(integer_value("1e3"), None);
    }
}
