//! The walk over one file's syntax tree: the stack of enclosing classes
//! and functions, turning nodes into located sites, free literals and
//! docstrings.

use crate::classes::ClassInfo;
use crate::paths;
use errdex_extract::{Candidate, Condition, FileExtraction};
use errdex_model::{Evidence, EvidenceKind, Kind, Literal, Site, SourceFile, Template};
use std::cell::RefCell;
use std::collections::HashSet;
use tree_sitter::Node;

/// Messages a name may hold at one place, at most (`msg = "a"` in one
/// branch, `msg = "b"` in another).
const MAX_ALTERNATIVES: usize = 4;

/// Deepest syntax nesting walked; deeper subtrees are left alone (no file
/// a person writes nests this deep, and the walk recurses).
pub const MAX_DEPTH: u32 = 200;

/// Free literals shorter than this (in characters) are not kept.
const MIN_LITERAL_CHARS: usize = 8;

/// Lines shown before and after a site.
const EXCERPT_CONTEXT: u32 = 2;

/// One enclosing class or function.
#[derive(Debug, Default)]
pub struct Frame {
    /// Its name (a path component).
    pub name: String,
    /// A class (else a function).
    pub class: Option<ClassInfo>,
    /// Test code from here down (`test_*` functions, `Test*` classes).
    pub test: bool,
    /// `name = <message>` bindings of a function seen so far.
    pub bindings: Vec<Binding>,
}

/// A message bound to a name in a function (`msg = "…"`).
#[derive(Debug, Clone)]
pub struct Binding {
    /// The name.
    pub name: String,
    /// Its text.
    pub template: Template,
    /// The line of its literal.
    pub line: u32,
    /// Its text is one of several it may hold (`"a" if c else "b"`): a
    /// whole message may use it, a part of one keeps a hole.
    pub approx: bool,
    /// The blocks (`if`, `else`, loops, `try`, `with`) that enclose it in
    /// its function: text added in a block it is not in (deeper, or a
    /// sibling branch) is added only sometimes.
    pub blocks: Vec<usize>,
    /// Those of `blocks` that end in a `raise` or `return`: past them the
    /// binding no longer holds (the code left instead of falling through).
    pub exits: Vec<usize>,
}

/// The walker's state over one file.
pub struct Walker<'a> {
    /// The file's bytes.
    pub src: &'a [u8],
    /// The file's path.
    pub path: &'a str,
    /// Dotted module name.
    pub module: String,
    /// The whole file is test code.
    pub file_test: bool,
    /// Enclosing classes and functions.
    pub frames: Vec<Frame>,
    /// What the file yields.
    pub out: FileExtraction,
    /// Exception classes of this file (by name).
    pub exception_classes: HashSet<String>,
    /// Start bytes of string nodes that are some site's message or a
    /// docstring (not free literals).
    pub used: HashSet<usize>,
    /// Start bytes of call nodes already handled as part of a site.
    pub claimed: HashSet<usize>,
    /// Names read while making a message that may hold one of several
    /// bound messages there, with how many (see [`Walker::with_alternatives`]).
    forks: RefCell<Vec<(String, usize)>>,
    /// The alternative a name takes in the message being made (0, the
    /// latest binding, unless set).
    choice: Option<(String, usize)>,
    /// Free literals with their start bytes, filtered in [`Walker::finish`].
    literals: Vec<(usize, Literal)>,
    lines: u32,
    depth: u32,
}

impl<'a> Walker<'a> {
    /// A walker over `file`.
    pub fn new(file: &'a SourceFile) -> Self {
        Walker {
            src: file.text.as_bytes(),
            path: &file.path,
            module: paths::module_name(&file.path),
            file_test: paths::is_test_path(&file.path),
            frames: Vec::new(),
            out: FileExtraction {
                path: file.path.clone(),
                module_path: paths::module_name(&file.path)
                    .split('.')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                ..FileExtraction::default()
            },
            exception_classes: HashSet::new(),
            used: HashSet::new(),
            claimed: HashSet::new(),
            forks: RefCell::new(Vec::new()),
            choice: None,
            literals: Vec::new(),
            lines: file.text.lines().count().max(1) as u32,
            depth: 0,
        }
    }

    /// The file's result, free literals that became messages left out.
    pub fn finish(mut self) -> FileExtraction {
        let used = &self.used;
        self.out.literals = self
            .literals
            .into_iter()
            .filter(|(b, _)| !used.contains(b))
            .map(|(_, l)| l)
            .collect();
        self.out
    }

    /// A node's source text.
    pub fn text(&self, n: Node) -> &'a str {
        std::str::from_utf8(&self.src[n.start_byte()..n.end_byte()]).unwrap_or("")
    }

    /// True inside test code.
    pub fn in_test(&self) -> bool {
        self.file_test || self.frames.iter().any(|f| f.test)
    }

    /// The dotted path of the innermost class or function.
    pub fn item_path(&self) -> String {
        let mut p = self.module.clone();
        for f in &self.frames {
            if !p.is_empty() {
                p.push('.');
            }
            p.push_str(&f.name);
        }
        p
    }

    /// 1-based line and character column of a byte.
    fn position(&self, n: Node) -> (u32, u32) {
        let pos = n.start_position();
        let line_start = n.start_byte() - pos.column;
        let col = String::from_utf8_lossy(&self.src[line_start..n.start_byte()])
            .chars()
            .count();
        (pos.row as u32 + 1, col as u32 + 1)
    }

    /// A site spanning `span`, reported at `report` (the line a traceback
    /// prints), beginning earlier at `from_line` when its message was
    /// bound before; `str.format` fields left in its text (and `%` ones in
    /// a stored message's) are holes.
    pub fn site(
        &self,
        kind: Kind,
        template: Template,
        span: Node,
        report: Node,
        from_line: Option<u32>,
    ) -> Site {
        let (start, column) = self.position(span);
        let (report_line, report_column) = self.position(report);
        let end = span.end_position();
        let end_line = if end.column == 0 && end.row > span.start_position().row {
            end.row as u32
        } else {
            end.row as u32 + 1
        };
        let line = from_line.map_or(start, |l| l.min(start));
        Site {
            kind,
            // Fields still in the text are filled later.
            template: crate::strings::pending_fields(&template, kind),
            path: self.path.to_string(),
            line,
            column,
            end_line,
            report_line,
            report_column,
            reported_at_caller: false,
            item_path: self.item_path(),
            arm: None,
            is_test: self.in_test(),
            excerpt_start: line.saturating_sub(EXCERPT_CONTEXT).max(1),
            excerpt_end: (end_line + EXCERPT_CONTEXT).min(self.lines.max(end_line)),
            via_macro: None,
            message_from: None,
            partial: false,
            delegates_to: None,
        }
    }

    /// Records a site.
    pub fn push(&mut self, site: Site, condition: Condition) {
        self.out.candidates.push(Candidate { site, condition });
    }

    /// Walks a whole file; its docstring is no free literal.
    pub fn visit_module(&mut self, root: Node<'a>) {
        if let Some(doc) = self.docstring(root) {
            self.used.insert(doc.start_byte());
        }
        self.visit(root);
    }

    /// Walks a node and its children.
    pub fn visit(&mut self, node: Node<'a>) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        match node.kind() {
            "class_definition" => self.visit_class(node),
            "function_definition" => self.visit_function(node),
            "string" | "concatenated_string" => self.record_literal(node),
            "raise_statement" => {
                self.with_alternatives(|w| w.visit_raise(node));
                self.visit_children(node);
            }
            "assert_statement" => {
                self.with_alternatives(|w| w.visit_assert(node));
                self.visit_children(node);
            }
            "call" => {
                // (Each run claims the call it makes a site of.)
                let claimed = self.claimed.contains(&node.start_byte());
                self.with_alternatives(|w| {
                    if !claimed {
                        w.claimed.remove(&node.start_byte());
                    }
                    w.visit_call(node);
                });
                self.visit_children(node);
            }
            "assignment" | "augmented_assignment" => {
                self.visit_children(node);
                self.visit_assignment(node);
            }
            "return_statement" => {
                self.visit_return(node);
                self.visit_children(node);
            }
            "comment" | "import_statement" | "import_from_statement" => {}
            _ => self.visit_children(node),
        }
        self.depth -= 1;
    }

    /// Walks the children of a node.
    pub fn visit_children(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        if !c.goto_first_child() {
            return;
        }
        loop {
            let child = c.node();
            if child.child_count() > 0 || child.kind() == "string" {
                self.visit(child);
            }
            if !c.goto_next_sibling() {
                break;
            }
        }
    }

    /// The docstring of a body (its first statement, a string), if any.
    pub fn docstring(&self, body: Node<'a>) -> Option<Node<'a>> {
        let first = body.named_child(0)?;
        if first.kind() != "expression_statement" {
            return None;
        }
        let s = first.named_child(0)?;
        matches!(s.kind(), "string" | "concatenated_string").then_some(s)
    }

    /// A docstring's text, decoded and trimmed.
    pub fn string_text(&self, s: Node) -> Option<String> {
        let t = crate::message::plain_string(self, s)?;
        Some(t.trim().to_string())
    }

    fn visit_function(&mut self, node: Node<'a>) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or("")
            .to_string();
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let test = name.starts_with("test_") || name == "test";
        self.frames.push(Frame {
            name,
            class: None,
            test,
            bindings: Vec::new(),
        });
        if let Some(doc) = self.docstring(body) {
            self.used.insert(doc.start_byte());
            if let Some(text) = self.string_text(doc) {
                let summary = first_paragraph(&text);
                if !summary.is_empty() {
                    self.out.docs.push(Evidence {
                        kind: EvidenceKind::Doc,
                        path: self.path.to_string(),
                        line: doc.start_position().row as u32 + 1,
                        item_path: self.item_path(),
                        text: summary,
                    });
                }
            }
        }
        if let Some(params) = node.child_by_field_name("parameters") {
            self.visit_children(params);
        }
        self.visit_children(body);
        self.frames.pop();
    }

    /// Keeps a string (or implicit concatenation) of at least
    /// [`MIN_LITERAL_CHARS`] as a free literal; an f-string keeps its
    /// longest literal part.
    pub fn record_literal(&mut self, node: Node<'a>) {
        if node.kind() == "string"
            && node
                .parent()
                .is_some_and(|p| p.kind() == "concatenated_string")
        {
            return;
        }
        let Some(t) = crate::message::string_node_template(self, node) else {
            return;
        };
        // A format string of `%`: its conversions are values, not text
        // (sqlalchemy's `"…sqlalche.me/e/%s/%s)" % (…)` prints the codes).
        let t = if is_percent_format(node) {
            crate::strings::percent(&t, &crate::strings::PercentArgs::Mapping)
        } else {
            t
        };
        let text = t
            .literals()
            .max_by_key(|s| s.chars().count())
            .unwrap_or("")
            .to_string();
        if text.chars().count() < MIN_LITERAL_CHARS {
            // Replacement fields may hold calls.
            self.visit_interpolations(node);
            return;
        }
        let (line, column) = self.position(node);
        self.literals.push((
            node.start_byte(),
            Literal {
                path: self.path.to_string(),
                line,
                column,
                text,
                is_test: self.in_test(),
            },
        ));
        self.visit_interpolations(node);
    }

    /// Walks the expressions inside an f-string's replacement fields.
    fn visit_interpolations(&mut self, node: Node<'a>) {
        if !self.text(node).contains('{') {
            return;
        }
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            for child in n.named_children(&mut c) {
                match child.kind() {
                    "interpolation" => {
                        if let Some(e) = child.child_by_field_name("expression") {
                            self.visit(e);
                        }
                    }
                    "string" | "string_content" | "format_specifier" => stack.push(child),
                    _ => {}
                }
            }
        }
    }

    /// The condition under which a class-made site counts: that of the
    /// innermost enclosing class.
    pub fn class_condition(&self) -> Option<Condition> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.class.as_ref())
            .and_then(|c| c.condition.clone())
    }

    /// The name of the innermost function and whether it is a method of a
    /// class.
    pub fn current_function(&self) -> Option<(&str, bool)> {
        let i = self.frames.iter().rposition(|f| f.class.is_none())?;
        let is_method = i > 0 && self.frames[i - 1].class.is_some();
        Some((self.frames[i].name.as_str(), is_method))
    }

    /// True at module level (no enclosing class or function).
    pub fn at_module_level(&self) -> bool {
        self.frames.is_empty()
    }

    /// The innermost function's bindings.
    pub fn bindings_mut(&mut self) -> Option<&mut Vec<Binding>> {
        self.frames
            .iter_mut()
            .rev()
            .find(|f| f.class.is_none())
            .map(|f| &mut f.bindings)
    }

    /// The message bound to `name` in the innermost function.
    pub fn binding(&self, name: &str) -> Option<&Binding> {
        let f = self.frames.iter().rev().find(|f| f.class.is_none())?;
        f.bindings.iter().rev().find(|b| b.name == name)
    }

    /// The bindings of `name` in the innermost function that may hold its
    /// value at `at`, latest first (their indices): the latest, and before
    /// it each earlier one until one whose blocks all enclose `at` (bound
    /// on every path there). `if c: msg = "a"` / `else: msg = "b"` gives
    /// both at a `raise` after them.
    pub fn live_bindings(&self, name: &str, at: Node) -> Vec<usize> {
        let Some(f) = self.frames.iter().rev().find(|f| f.class.is_none()) else {
            return Vec::new();
        };
        let here = self.blocks(at);
        let mut out = Vec::new();
        for (i, b) in f.bindings.iter().enumerate().rev() {
            if b.name != name {
                continue;
            }
            let left = b.exits.iter().any(|x| !here.contains(x));
            if left {
                continue;
            }
            out.push(i);
            if b.blocks.iter().all(|x| here.contains(x)) || out.len() == MAX_ALTERNATIVES {
                break;
            }
        }
        out
    }

    /// The message `name` holds at `at`: the latest binding, or the one
    /// [`Walker::with_alternatives`] chose. A name that may hold several
    /// is noted.
    pub fn binding_at(&self, name: &str, at: Node) -> Option<&Binding> {
        let live = self.live_bindings(name, at);
        if live.len() > 1 {
            let mut forks = self.forks.borrow_mut();
            if !forks.iter().any(|(n, _)| n == name) {
                forks.push((name.to_string(), live.len()));
            }
        }
        let k = match &self.choice {
            Some((n, k)) if n == name => *k,
            _ => 0,
        };
        let f = self.frames.iter().rev().find(|f| f.class.is_none())?;
        f.bindings.get(*live.get(k)?)
    }

    /// Runs `visit` (which records the sites of one statement or call),
    /// then again once for each other message a name its message read may
    /// hold there (bound differently in sibling branches): one site per
    /// message the code can print. Alternatives printing the same text
    /// give one site.
    pub fn with_alternatives(&mut self, mut visit: impl FnMut(&mut Self)) {
        let before = self.out.candidates.len();
        self.forks.borrow_mut().clear();
        visit(self);
        let forks = std::mem::take(&mut *self.forks.borrow_mut());
        let Some((name, n)) = forks.into_iter().next() else {
            return;
        };
        if self.out.candidates.len() == before {
            return;
        }
        for k in 1..n {
            self.choice = Some((name.clone(), k));
            visit(self);
        }
        self.choice = None;
        self.forks.borrow_mut().clear();
        let mut seen = HashSet::new();
        let mut i = before;
        while i < self.out.candidates.len() {
            let s = &self.out.candidates[i].site;
            if seen.insert((s.template.clone(), s.line)) {
                i += 1;
            } else {
                self.out.candidates.remove(i);
            }
        }
    }

    /// The compound statements and clauses (`if`, `elif`, `else`, loops,
    /// `try`, `except`, `with`, `match`, `case`) that enclose `node`
    /// within its function, each by its first byte.
    pub fn blocks(&self, node: Node) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = node.parent();
        while let Some(p) = cur {
            match p.kind() {
                "function_definition" | "class_definition" | "module" | "lambda" => break,
                "if_statement" | "elif_clause" | "else_clause" | "for_statement"
                | "while_statement" | "try_statement" | "except_clause" | "finally_clause"
                | "with_statement" | "match_statement" | "case_clause" => {
                    // An `if`'s own block, not its `else` (a child of it).
                    let own = p.kind() != "if_statement"
                        || p.child_by_field_name("consequence").is_some_and(|c| {
                            c.start_byte() <= node.start_byte() && node.end_byte() <= c.end_byte()
                        });
                    if own {
                        out.push(p.start_byte());
                    }
                }
                _ => {}
            }
            cur = p.parent();
        }
        out
    }

    /// Those of [`Walker::blocks`] of `node` whose body ends in a `raise`
    /// or `return` (the code does not fall through past them).
    pub fn exits(&self, node: Node) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = node.parent();
        while let Some(p) = cur {
            if matches!(
                p.kind(),
                "function_definition" | "class_definition" | "module" | "lambda"
            ) {
                break;
            }
            let body = match p.kind() {
                "if_statement" | "elif_clause" => p.child_by_field_name("consequence"),
                "else_clause" | "except_clause" | "finally_clause" | "for_statement"
                | "while_statement" | "with_statement" | "case_clause" => {
                    p.child_by_field_name("body").or_else(|| {
                        p.named_children(&mut p.walk())
                            .find(|c| c.kind() == "block")
                    })
                }
                _ => None,
            };
            let inside = body.is_some_and(|b| {
                b.start_byte() <= node.start_byte() && node.end_byte() <= b.end_byte()
            });
            let leaves = body
                .and_then(|b| {
                    let mut c = b.walk();
                    b.named_children(&mut c)
                        .filter(|n| n.kind() != "comment")
                        .last()
                })
                .is_some_and(|last| matches!(last.kind(), "raise_statement" | "return_statement"));
            if inside && leaves {
                out.push(p.start_byte());
            }
            cur = p.parent();
        }
        out
    }

    /// A hole for an expression (its text, whitespace collapsed, cut).
    pub fn hole_for(&self, n: Node) -> Template {
        Template::hole(crate::message::arg_text(self.text(n)), "")
    }

    /// Marks every string inside `node` as used by a site.
    pub fn use_strings(&mut self, node: Node) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "string" | "concatenated_string") {
                self.used.insert(n.start_byte());
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
}

/// The first paragraph of a docstring, its lines joined by spaces.
pub fn first_paragraph(doc: &str) -> String {
    doc.trim()
        .split("\n\n")
        .next()
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The string is the left operand of `%` (through parentheses): a format.
fn is_percent_format(node: Node) -> bool {
    let mut child = node;
    while let Some(parent) = child.parent() {
        match parent.kind() {
            "parenthesized_expression" => child = parent,
            "binary_operator" => {
                let left = parent.child_by_field_name("left");
                let op = parent.child_by_field_name("operator");
                return left.is_some_and(|l| l.id() == child.id())
                    && op.is_some_and(|o| o.kind() == "%");
            }
            _ => return false,
        }
    }
    false
}
