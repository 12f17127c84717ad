//! What the analysis needs from a snapshot's syntax: every fn (with its
//! owner, visibility, signature, generic bounds), every call and every
//! enum-variant path, test fns, and the guards around a given position.

use crate::attrs::Attrs;
use crate::{is_test_or_example_path, last_segment, line, parse, parser, text, MAX_SYNTAX_DEPTH};
use errdex_model::SourceFile;
use tree_sitter::{Node, Parser, Tree};

/// Where a fn is defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// A free fn.
    Module,
    /// In `impl [Trait for] Type`.
    Impl {
        /// The type's last path segment, without generics.
        ty: String,
        /// The trait's last segment, when a trait impl.
        of_trait: Option<String>,
    },
    /// A trait's provided (default) method.
    TraitDefault(String),
}

/// A fn definition.
#[derive(Debug, Clone)]
pub struct FnDef {
    /// File.
    pub path: String,
    /// Name.
    pub name: String,
    /// Where it is defined.
    pub owner: Owner,
    /// `pub` (not `pub(crate)` and kin).
    pub is_pub: bool,
    /// In test code (`#[test]`, `#[cfg(test)]` module, `tests/`).
    pub is_test: bool,
    /// `#[test]` fn.
    pub is_test_fn: bool,
    /// First and last line (1-based).
    pub lines: (u32, u32),
    /// The signature as written, up to the body.
    pub signature: String,
    /// Generic parameters bounded by traits: `(param, trait)`.
    pub bounds: Vec<(String, String)>,
    /// The body is one macro call and nothing else (`panic!(..)`,
    /// `unimplemented!()`): a `match` or `if` with other arms is not.
    pub body_is_one_macro: bool,
    /// The fn's whole text (for test fns shown as trigger examples).
    pub text: String,
    /// Its attributes as written inside `#[...]` (`cold`, `track_caller`,
    /// `cfg_attr(feature = "x", track_caller)`).
    pub attrs: Vec<String>,
    /// `cfg` conditions on the fn, its enclosing items and modules (its
    /// file's `mod` declarations included), innermost first.
    pub gates: Vec<String>,
    /// The `macro_rules!` whose body holds it.
    pub in_macro: Option<String>,
    /// The self type of the enclosing impl, as written (`Autodiff<B>`).
    pub impl_self: Option<String>,
    /// The generic parameters of the enclosing impl.
    pub impl_params: Vec<String>,
    /// A `const fn`.
    pub is_const: bool,
    /// For a fn declared inside another fn's body: that fn (its index
    /// among the snapshot's fns, and its qualified name). Only calls
    /// within it reach it.
    pub nested_in: Option<(usize, String)>,
}

/// The return type of a fn signature as written (`-> io::Result<T>` →
/// `io::Result<T>`), without its `where` clause; none for `()`. An `->`
/// inside the generics (`F: Fn() -> u8`) or the where clause is not it.
pub fn return_type(signature: &str) -> Option<&str> {
    // After the `fn` keyword: not `pub(crate)`'s parentheses.
    let start = signature
        .match_indices("fn ")
        .find(|(i, _)| *i == 0 || signature[..*i].ends_with(char::is_whitespace))
        .map_or(0, |(i, _)| i);
    let mut angle = 0i32;
    let mut prev = ' ';
    let mut open = None;
    for (i, c) in signature.char_indices().skip_while(|(i, _)| *i < start) {
        match c {
            '<' => angle += 1,
            '>' if prev != '-' => angle -= 1,
            '(' if angle == 0 => {
                open = Some(i);
                break;
            }
            _ => {}
        }
        prev = c;
    }
    let mut depth = 0;
    let mut close = None;
    for (i, c) in signature[open?..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open? + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let rest = signature[close? + 1..].trim_start().strip_prefix("->")?;
    let end = rest
        .match_indices("where")
        .find(|(i, _)| {
            let before = rest[..*i].chars().next_back();
            let after = rest[i + 5..].chars().next();
            before.is_some_and(char::is_whitespace)
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map_or(rest.len(), |(i, _)| i);
    Some(rest[..end].trim()).filter(|r| !r.is_empty())
}

/// The parameters of a fn signature as written (`&self`, `key: K`,
/// `f: fn(u8) -> u8`), split at the list's own commas (not those inside
/// `<..>`, `(..)` or `[..]`), each trimmed.
pub fn parameters(signature: &str) -> Vec<String> {
    let Some((_, rest)) = signature.split_once('(') else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    let mut prev = ' ';
    for c in rest.chars() {
        match c {
            // (`->` of a fn type closes nothing.)
            '>' if prev == '-' => {}
            ')' | '>' | ']' if depth == 0 => break,
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        prev = c;
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out.retain(|p| !p.is_empty());
    out
}

impl FnDef {
    /// `Type::name`, `Trait::name` or `name`.
    pub fn qualified(&self) -> String {
        if let Some((_, outer)) = &self.nested_in {
            return format!("{outer}::{}", self.name);
        }
        match &self.owner {
            Owner::Module => self.name.clone(),
            Owner::Impl { ty, .. } => format!("{ty}::{}", self.name),
            Owner::TraitDefault(t) => format!("{t}::{}", self.name),
        }
    }
}

/// How a call names its callee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Callee {
    /// `f(..)`, `module::f(..)`.
    Path {
        /// The segment before the name, if any (`Type` in `Type::f`).
        qualifier: Option<String>,
    },
    /// `x.f(..)`.
    Method {
        /// The receiver is `self`.
        on_self: bool,
    },
}

/// A call expression.
#[derive(Debug, Clone)]
pub struct Call {
    /// File.
    pub path: String,
    /// Line.
    pub line: u32,
    /// The called name (last segment).
    pub name: String,
    /// How it is named.
    pub callee: Callee,
    /// The enclosing fn (index into [`Symbols::fns`]).
    pub caller: Option<usize>,
    /// Column (1-based).
    pub column: u32,
    /// The receiver as written, for a method call (`self.inner`, `v`).
    pub receiver: Option<String>,
    /// A path used as a value (`map(B::u8)`), not called here.
    pub by_reference: bool,
}

/// A path `Enum::Variant` used as a value or pattern constructor.
#[derive(Debug, Clone)]
pub struct Construct {
    /// File.
    pub path: String,
    /// Line.
    pub line: u32,
    /// Column (1-based).
    pub column: u32,
    /// `Enum` (or `Self`).
    pub ty: String,
    /// `Variant`.
    pub variant: String,
    /// The enclosing fn.
    pub caller: Option<usize>,
    /// Inside a pattern (a `match` arm, `if let`): not a construction.
    pub in_pattern: bool,
    /// The `macro_rules!` whose body holds it.
    pub in_macro: Option<String>,
}

/// A trait definition.
#[derive(Debug, Clone)]
pub struct TraitDef {
    /// File.
    pub path: String,
    /// Line.
    pub line: u32,
    /// Name.
    pub name: String,
    /// Its supertraits' last segments.
    pub supertraits: Vec<String>,
    /// `pub`.
    pub is_pub: bool,
}

/// A `macro_rules!` definition.
#[derive(Debug, Clone)]
pub struct MacroDef {
    /// File.
    pub path: String,
    /// Line.
    pub line: u32,
    /// Name.
    pub name: String,
    /// Each rule: the matcher's inside and the body's inside, as written,
    /// with the body's first line.
    pub rules: Vec<(String, String, u32)>,
    /// `cfg` conditions on it and its enclosing items.
    pub gates: Vec<String>,
    /// `#[macro_export]`: users of the crate invoke it.
    pub exported: bool,
}

/// A macro invocation.
#[derive(Debug, Clone)]
pub struct MacroCall {
    /// File.
    pub path: String,
    /// Line.
    pub line: u32,
    /// The macro's name (last segment, without `!`).
    pub name: String,
    /// The token tree's inside, as written.
    pub args: String,
    /// The enclosing fn.
    pub caller: Option<usize>,
}

/// A `mod name;` declaration and its `cfg` conditions.
#[derive(Debug, Clone)]
pub struct ModDecl {
    /// The declaring file.
    pub path: String,
    /// The module's name.
    pub name: String,
    /// `cfg` conditions on it and its enclosing items.
    pub gates: Vec<String>,
}

/// Every symbol of a snapshot.
#[derive(Debug, Default)]
pub struct Symbols {
    /// Fn definitions.
    pub fns: Vec<FnDef>,
    /// Calls.
    pub calls: Vec<Call>,
    /// Variant paths.
    pub constructs: Vec<Construct>,
    /// Trait definitions.
    pub traits: Vec<TraitDef>,
    /// `macro_rules!` definitions.
    pub macros: Vec<MacroDef>,
    /// Macro invocations (outside macro definitions).
    pub macro_calls: Vec<MacroCall>,
    /// `mod name;` declarations.
    pub mod_decls: Vec<ModDecl>,
    /// `use` declarations under a `cfg`: (file, line, text, gates).
    pub gated_uses: Vec<(String, u32, String, Vec<String>)>,
}

/// A condition under which a position runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guard {
    /// Inside `if COND { here }`.
    If(String),
    /// Inside the `else` of `if COND`.
    Else(String),
    /// Inside `if let PAT = EXPR { here }` / `while let`.
    IfLet {
        /// The pattern.
        pattern: String,
        /// The matched value.
        value: String,
    },
    /// Inside the arm `PAT => here` of `match VALUE`.
    Arm {
        /// The arm's pattern (with its guard).
        pattern: String,
        /// The matched value.
        value: String,
        /// The guard of an earlier arm of the same shape, which takes the
        /// value first when it holds.
        unless: Option<String>,
        /// For a catch-all arm (`_`, a binding, a range): the patterns of
        /// the earlier arms, which take those values first.
        earlier: Vec<String>,
    },
    /// Inside the `else` of `if let PAT = VALUE`.
    ElseLet {
        /// The pattern.
        pattern: String,
        /// The value.
        value: String,
    },
    /// Inside a closure given to `VALUE.ok_or_else(..)` (or `map_err`,
    /// `unwrap_or_else`, `or_else`): it runs when `VALUE` has no value.
    Fallback {
        /// The receiver.
        value: String,
        /// The method.
        method: String,
    },
    /// Inside the body of `while COND`.
    While(String),
    /// After `if COND { return }` earlier in the same block: it runs only
    /// when `COND` is false.
    EarlyReturn(String),
    /// After `if let PAT = VALUE { return }` earlier in the same block: it
    /// runs only when `VALUE` does not match `PAT`.
    EarlyReturnLet {
        /// The pattern.
        pattern: String,
        /// The value.
        value: String,
    },
    /// Inside `let PAT = VALUE else { here }`.
    LetElse {
        /// The pattern.
        pattern: String,
        /// The value.
        value: String,
    },
}

/// One file parsed: its main tree, then a tree per macro token tree
/// re-parsed in place as code (`cfg_if!`, `cfg_*! { impl … }`, arguments of
/// `assert!(f(x))`), all in the file's coordinates.
pub struct ParsedFile {
    /// The file.
    pub file: SourceFile,
    /// Main tree first, then re-parsed token trees.
    pub trees: Vec<Tree>,
}

impl ParsedFile {
    /// The innermost tree holding a position: a re-parsed token tree when
    /// the position is inside one, else the main tree.
    pub fn tree_at(&self, line: u32, column: u32) -> Option<&Tree> {
        let p = tree_sitter::Point {
            row: line.saturating_sub(1) as usize,
            column: column.saturating_sub(1) as usize,
        };
        self.trees
            .iter()
            .filter(|t| {
                let r = t.root_node();
                r.start_position() <= p && p < r.end_position()
            })
            .min_by_key(|t| {
                let r = t.root_node();
                r.end_byte() - r.start_byte()
            })
            .or(self.trees.first())
    }
}

/// Re-parsed token trees nest at most this deep.
const MAX_REPARSE_DEPTH: usize = 4;

/// Parses every file and collects the symbols of all of them.
pub fn symbols(files: Vec<SourceFile>) -> (Vec<ParsedFile>, Symbols) {
    let mut out = Symbols::default();
    let mut parsed = Vec::new();
    let mut p = parser();
    for f in files {
        if !f.path.ends_with(".rs") {
            parsed.push(ParsedFile {
                file: f,
                trees: Vec::new(),
            });
            continue;
        }
        let Some(tree) = parse(&mut p, &f.text) else {
            parsed.push(ParsedFile {
                file: f,
                trees: Vec::new(),
            });
            continue;
        };
        let mut extra = Vec::new();
        {
            let mut w = Walk {
                file: &f,
                out: &mut out,
                owner: Vec::new(),
                current_fn: Vec::new(),
                fn_owners: Vec::new(),
                test_scope: is_test_or_example_path(&f.path),
                parser: &mut p,
                reparsed: &mut extra,
                reparse_depth: 0,
                gates: Vec::new(),
                impls: Vec::new(),
                in_macro: None,
                dollarless: None,
            };
            w.visit(tree.root_node(), 0, false);
        }
        let mut trees = vec![tree];
        trees.extend(extra);
        parsed.push(ParsedFile { file: f, trees });
    }
    // A file's own gates: those of the `mod` declarations leading to it.
    let paths: Vec<String> = parsed.iter().map(|p| p.file.path.clone()).collect();
    let mut file_gates: std::collections::HashMap<String, Vec<String>> =
        std::collections::HashMap::new();
    for path in &paths {
        file_gates.insert(path.clone(), module_gates(path, &out.mod_decls, 0));
    }
    for f in &mut out.fns {
        if let Some(g) = file_gates.get(&f.path) {
            f.gates.extend(g.iter().cloned());
        }
    }
    (parsed, out)
}

/// The `cfg` conditions of the `mod` declarations that include a file.
pub fn module_gates(path: &str, decls: &[ModDecl], depth: usize) -> Vec<String> {
    let Some((dir, name)) = module_of(path) else {
        return Vec::new();
    };
    if depth > 16 {
        return Vec::new();
    }
    let parents = if dir.ends_with("src") || dir.is_empty() {
        vec![format!("{dir}/lib.rs"), format!("{dir}/main.rs")]
    } else {
        vec![format!("{dir}.rs"), format!("{dir}/mod.rs")]
    };
    let mut out = Vec::new();
    for d in decls {
        if d.name == name && parents.iter().any(|p| p.trim_start_matches('/') == d.path) {
            out.extend(d.gates.iter().cloned());
            out.extend(module_gates(&d.path, decls, depth + 1));
            break;
        }
    }
    out
}

/// `src/a/b.rs` → (`src/a`, `b`); `src/a/b/mod.rs` → (`src/a`, `b`); the
/// crate root (`lib.rs`, `main.rs`) → `None`.
fn module_of(path: &str) -> Option<(String, String)> {
    let stem = path.strip_suffix(".rs")?;
    let (dir, file) = stem.rsplit_once('/').unwrap_or(("", stem));
    match file {
        "lib" | "main" => None,
        "mod" => {
            let (d, n) = dir.rsplit_once('/').unwrap_or(("", dir));
            Some((d.to_string(), n.to_string()))
        }
        _ => Some((dir.to_string(), file.to_string())),
    }
}

/// What an enclosing impl says about its fns.
struct ImplCtx {
    self_ty: String,
    params: Vec<String>,
    bounds: Vec<(String, String)>,
}

struct Walk<'a> {
    file: &'a SourceFile,
    out: &'a mut Symbols,
    owner: Vec<Owner>,
    current_fn: Vec<usize>,
    /// For each fn of `current_fn`, the depth of `owner` inside its body:
    /// an item declared at that depth is declared in the body itself.
    fn_owners: Vec<usize>,
    test_scope: bool,
    parser: &'a mut Parser,
    reparsed: &'a mut Vec<Tree>,
    reparse_depth: usize,
    /// `cfg` conditions of the enclosing items, outermost first.
    gates: Vec<String>,
    impls: Vec<ImplCtx>,
    in_macro: Option<String>,
    /// The file with every `$` as `_` (same offsets), to parse macro bodies.
    dollarless: Option<String>,
}

impl Walk<'_> {
    fn src(&self) -> &str {
        &self.file.text
    }

    fn visit(&mut self, n: Node, depth: usize, in_pattern: bool) {
        if depth > MAX_SYNTAX_DEPTH {
            return;
        }
        let mut pushed_owner = false;
        let mut pushed_fn = false;
        let mut pushed_impl = false;
        let saved_test = self.test_scope;
        let saved_gates = self.gates.len();
        let (mut cfg_test, mut test_fn) = (false, false);
        if matches!(
            n.kind(),
            "mod_item" | "impl_item" | "trait_item" | "function_item"
        ) {
            let attrs = Attrs::before(n, self.src().as_bytes());
            self.gates.extend(attrs.cfgs);
            (cfg_test, test_fn) = (attrs.cfg_test, attrs.test_fn);
        }
        match n.kind() {
            "mod_item" if cfg_test => self.test_scope = true,
            "mod_item" if n.child_by_field_name("body").is_none() => {
                if let Some(name) = n.child_by_field_name("name") {
                    let mut gates = self.gates.clone();
                    gates.reverse();
                    self.out.mod_decls.push(ModDecl {
                        path: self.file.path.clone(),
                        name: text(name, self.src()).to_string(),
                        gates,
                    });
                }
            }
            "impl_item" => {
                let ty = n
                    .child_by_field_name("type")
                    .map(|t| last_segment(text(t, self.src())).to_string())
                    .unwrap_or_default();
                let of_trait = n
                    .child_by_field_name("trait")
                    .map(|t| last_segment(text(t, self.src())).to_string());
                self.owner.push(Owner::Impl { ty, of_trait });
                pushed_owner = true;
                let mut bounds = Vec::new();
                let mut params = Vec::new();
                if let Some(tp) = n.child_by_field_name("type_parameters") {
                    collect_bounds(tp, self.src(), &mut bounds);
                    let mut c = tp.walk();
                    for p in tp.named_children(&mut c) {
                        if let Some(name) = p.child_by_field_name("name") {
                            params.push(text(name, self.src()).to_string());
                        } else if p.kind() == "type_identifier" {
                            params.push(text(p, self.src()).to_string());
                        }
                    }
                }
                let mut c = n.walk();
                if let Some(w) = n.children(&mut c).find(|ch| ch.kind() == "where_clause") {
                    collect_where(w, self.src(), &mut bounds);
                }
                let self_ty = n
                    .child_by_field_name("type")
                    .map(|t| squash(text(t, self.src())))
                    .unwrap_or_default();
                self.impls.push(ImplCtx {
                    self_ty,
                    params,
                    bounds,
                });
                pushed_impl = true;
            }
            "trait_item" => {
                let name = n
                    .child_by_field_name("name")
                    .map(|t| text(t, self.src()).to_string())
                    .unwrap_or_default();
                let mut supertraits = Vec::new();
                if let Some(b) = n.child_by_field_name("bounds") {
                    let mut c = b.walk();
                    for t in b.named_children(&mut c) {
                        let t = text(t, self.src()).trim_start_matches('?');
                        if !t.starts_with('\'') {
                            supertraits.push(last_segment(t).to_string());
                        }
                    }
                }
                let is_pub = {
                    let mut c = n.walk();
                    let p = n.children(&mut c).any(|ch| {
                        ch.kind() == "visibility_modifier" && text(ch, self.src()) == "pub"
                    });
                    p
                };
                self.out.traits.push(TraitDef {
                    path: self.file.path.clone(),
                    line: line(n),
                    name: name.clone(),
                    supertraits,
                    is_pub,
                });
                self.owner.push(Owner::TraitDefault(name));
                pushed_owner = true;
                // A trait's methods are not in an impl.
                self.impls.push(ImplCtx {
                    self_ty: String::new(),
                    params: Vec::new(),
                    bounds: Vec::new(),
                });
                pushed_impl = true;
            }
            "function_item" => {
                let idx = self.function(n, test_fn);
                self.current_fn.push(idx);
                pushed_fn = true;
                // Items nested in a fn body are free fns again.
                self.owner.push(Owner::Module);
                self.fn_owners.push(self.owner.len());
                pushed_owner = true;
                self.impls.push(ImplCtx {
                    self_ty: String::new(),
                    params: Vec::new(),
                    bounds: Vec::new(),
                });
                pushed_impl = true;
            }
            "call_expression" => self.call(n),
            "use_declaration" => {
                let mut gates = self.gates.clone();
                gates.extend(Attrs::before(n, self.src().as_bytes()).cfgs);
                if !gates.is_empty() {
                    self.out.gated_uses.push((
                        self.file.path.clone(),
                        line(n),
                        squash(text(n, self.src())),
                        gates,
                    ));
                }
            }
            "macro_invocation" => {
                self.macro_call(n);
                self.reparse(n, depth);
            }
            "macro_definition" => {
                self.macro_definition(n, depth);
                self.test_scope = saved_test;
                self.gates.truncate(saved_gates);
                return;
            }
            "scoped_identifier" | "scoped_type_identifier" => {
                self.construct(n, in_pattern);
                self.reference(n);
            }
            _ => {}
        }
        let pattern_here = in_pattern
            || matches!(
                n.kind(),
                "match_pattern"
                    | "tuple_struct_pattern"
                    | "struct_pattern"
                    | "let_condition"
                    | "or_pattern"
            );
        let mut c = n.walk();
        for child in n.children(&mut c) {
            // In `if let P = v`, only the pattern is a pattern.
            let child_pattern = if n.kind() == "let_condition" || n.kind() == "let_declaration" {
                n.child_by_field_name("pattern")
                    .is_some_and(|p| p.id() == child.id())
            } else {
                pattern_here
            };
            self.visit(child, depth + 1, child_pattern);
        }
        if pushed_owner {
            self.owner.pop();
        }
        if pushed_fn {
            self.current_fn.pop();
            self.fn_owners.pop();
        }
        if pushed_impl {
            self.impls.pop();
        }
        self.gates.truncate(saved_gates);
        self.test_scope = saved_test;
    }

    /// Records a `macro_rules!` and walks each rule's body as code (its
    /// metavariables read as identifiers), marking what it finds as inside
    /// the macro.
    fn macro_definition(&mut self, n: Node, depth: usize) {
        let src = self.src();
        let Some(name) = n
            .child_by_field_name("name")
            .map(|x| text(x, src).to_string())
        else {
            return;
        };
        let mut rules = Vec::new();
        let mut bodies = Vec::new();
        let mut c = n.walk();
        for rule in n.named_children(&mut c) {
            if rule.kind() != "macro_rule" {
                continue;
            }
            let (Some(left), Some(right)) = (
                rule.child_by_field_name("left"),
                rule.child_by_field_name("right"),
            ) else {
                continue;
            };
            let inner = |t: Node| {
                let s = text(t, src);
                s.get(1..s.len().saturating_sub(1))
                    .unwrap_or("")
                    .to_string()
            };
            rules.push((inner(left), inner(right), line(right)));
            bodies.push(right);
        }
        let mut gates = self.gates.clone();
        gates.extend(Attrs::before(n, src.as_bytes()).cfgs);
        self.out.macros.push(MacroDef {
            path: self.file.path.clone(),
            line: line(n),
            name: name.clone(),
            rules,
            gates,
            exported: preceding_attributes(n, src)
                .iter()
                .any(|a| a == "macro_export"),
        });
        if self.reparse_depth >= MAX_REPARSE_DEPTH {
            return;
        }
        if self.dollarless.is_none() {
            self.dollarless = Some(self.file.text.replace('$', "_"));
        }
        let saved = self.in_macro.replace(name);
        for body in bodies {
            let (Some(open), Some(close)) = (
                body.child(0),
                body.child(body.child_count().saturating_sub(1)),
            ) else {
                continue;
            };
            if close.start_byte() <= open.end_byte() {
                continue;
            }
            let range = tree_sitter::Range {
                start_byte: open.end_byte(),
                end_byte: close.start_byte(),
                start_point: open.end_position(),
                end_point: close.start_position(),
            };
            if self.parser.set_included_ranges(&[range]).is_err() {
                continue;
            }
            let text = self.dollarless.as_deref().unwrap_or_default();
            let tree = self.parser.parse(text.as_bytes(), None);
            let _ = self.parser.set_included_ranges(&[]);
            let Some(tree) = tree else { continue };
            self.reparse_depth += 1;
            self.visit(tree.root_node(), depth + 1, false);
            self.reparse_depth -= 1;
            self.reparsed.push(tree);
        }
        self.in_macro = saved;
    }

    fn macro_call(&mut self, n: Node) {
        if self.in_macro.is_some() {
            return;
        }
        let src = self.src();
        let Some(m) = n.child_by_field_name("macro") else {
            return;
        };
        let name = last_segment(text(m, src)).to_string();
        let mut c = n.walk();
        let Some(tt) = n.named_children(&mut c).find(|c| c.kind() == "token_tree") else {
            return;
        };
        let t = text(tt, src);
        let args = t
            .get(1..t.len().saturating_sub(1))
            .unwrap_or("")
            .to_string();
        self.out.macro_calls.push(MacroCall {
            path: self.file.path.clone(),
            line: line(n),
            name,
            args,
            caller: self.current_fn.last().copied(),
        });
    }

    /// `Type::f` used as a value (`map(B::u8)`): a use of `f`.
    fn reference(&mut self, n: Node) {
        let src = self.src();
        if n.kind() != "scoped_identifier" {
            return;
        }
        let Some(parent) = n.parent() else { return };
        if matches!(
            parent.kind(),
            "call_expression"
                | "generic_function"
                | "scoped_identifier"
                | "use_declaration"
                | "scoped_use_list"
                | "use_as_clause"
                | "use_list"
        ) || parent.kind().contains("pattern")
        {
            return;
        }
        let Some(name) = n.child_by_field_name("name").map(|x| text(x, src)) else {
            return;
        };
        if !name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
            return;
        }
        let qualifier = n
            .child_by_field_name("path")
            .map(|p| last_segment(text(p, src)).to_string());
        self.out.calls.push(Call {
            path: self.file.path.clone(),
            line: line(n),
            name: name.to_string(),
            callee: Callee::Path { qualifier },
            caller: self.current_fn.last().copied(),
            column: n.start_position().column as u32 + 1,
            receiver: None,
            by_reference: true,
        });
    }

    /// Walks a macro's token tree as code, in the current context.
    fn reparse(&mut self, n: Node, depth: usize) {
        if self.reparse_depth >= MAX_REPARSE_DEPTH {
            return;
        }
        let mut c = n.walk();
        let Some(tt) = n.named_children(&mut c).find(|c| c.kind() == "token_tree") else {
            return;
        };
        let source = match (&self.in_macro, &self.dollarless) {
            (Some(_), Some(d)) => d.as_bytes(),
            _ => self.file.text.as_bytes(),
        };
        let Some(tree) = crate::reparse_token_tree(self.parser, source, tt) else {
            return;
        };
        self.reparse_depth += 1;
        self.visit(tree.root_node(), depth + 1, false);
        self.reparse_depth -= 1;
        self.reparsed.push(tree);
    }

    /// Records fn `n` (`is_test_fn`: its attributes mark a test).
    fn function(&mut self, n: Node, is_test_fn: bool) -> usize {
        let src = self.src();
        let name = n
            .child_by_field_name("name")
            .map(|t| text(t, src).to_string())
            .unwrap_or_default();
        let body = n.child_by_field_name("body");
        let sig_end = body.map_or(n.end_byte(), |b| b.start_byte());
        let signature = src[n.start_byte()..sig_end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // `pub` alone: `pub(crate)` and kin are not the public API.
        let is_pub = {
            let mut c = n.walk();
            let public = n
                .children(&mut c)
                .any(|ch| ch.kind() == "visibility_modifier" && text(ch, src) == "pub");
            public
        };
        let mut bounds = Vec::new();
        let (impl_self, impl_params) = match self.impls.last() {
            Some(i) if !i.self_ty.is_empty() => {
                bounds.extend(i.bounds.iter().cloned());
                (Some(i.self_ty.clone()), i.params.clone())
            }
            _ => (None, Vec::new()),
        };
        if let Some(tp) = n.child_by_field_name("type_parameters") {
            collect_bounds(tp, src, &mut bounds);
        }
        let mut c = n.walk();
        if let Some(w) = n.children(&mut c).find(|ch| ch.kind() == "where_clause") {
            collect_where(w, src, &mut bounds);
        }
        let body_is_one_macro = body.is_some_and(|b| {
            let mut c = b.walk();
            let statements: Vec<Node> = b
                .named_children(&mut c)
                .filter(|s| !matches!(s.kind(), "line_comment" | "block_comment"))
                .collect();
            let one = match statements.as_slice() {
                [s] if s.kind() == "expression_statement" => s.named_child(0),
                [s] => Some(*s),
                _ => None,
            };
            one.is_some_and(|s| s.kind() == "macro_invocation")
        });
        // Declared in a fn's body itself (not in an impl or trait there).
        let nested_in = self
            .current_fn
            .last()
            .filter(|_| self.fn_owners.last() == Some(&self.owner.len()))
            .map(|&i| (i, self.out.fns[i].qualified()));
        let owner = self.owner.last().cloned().unwrap_or(Owner::Module);
        let start = line(n);
        let attr_start = attrs_start_line(n).unwrap_or(start);
        let mut gates = self.gates.clone();
        gates.reverse();
        let is_const = {
            let mut c = n.walk();
            let k = n.children(&mut c).any(|ch| {
                ch.kind() == "function_modifiers"
                    && text(ch, src).split_whitespace().any(|w| w == "const")
            });
            k
        };
        self.out.fns.push(FnDef {
            attrs: preceding_attributes(n, src),
            gates,
            in_macro: self.in_macro.clone(),
            impl_self,
            impl_params,
            is_const,
            nested_in,
            path: self.file.path.clone(),
            name,
            owner,
            is_pub,
            is_test: self.test_scope || is_test_fn,
            is_test_fn,
            lines: (start, n.end_position().row as u32 + 1),
            signature,
            bounds,
            body_is_one_macro,
            text: src
                .lines()
                .skip(attr_start as usize - 1)
                .take((n.end_position().row as u32 + 2 - attr_start) as usize)
                .collect::<Vec<_>>()
                .join("\n"),
        });
        self.out.fns.len() - 1
    }

    fn call(&mut self, n: Node) {
        let src = self.src();
        let Some(mut f) = n.child_by_field_name("function") else {
            return;
        };
        // `f::<T>(..)`, `self.f::<_, true>(..)`: the call of `f`.
        if f.kind() == "generic_function" {
            match f.child_by_field_name("function") {
                Some(inner) => f = inner,
                None => return,
            }
        }
        let mut receiver = None;
        let (name, callee) = match f.kind() {
            "identifier" => (text(f, src).to_string(), Callee::Path { qualifier: None }),
            "scoped_identifier" => {
                let name = f
                    .child_by_field_name("name")
                    .map(|x| text(x, src).to_string())
                    .unwrap_or_default();
                let qualifier = f
                    .child_by_field_name("path")
                    .map(|p| last_segment(text(p, src)).to_string());
                (name, Callee::Path { qualifier })
            }
            "field_expression" => {
                let name = f
                    .child_by_field_name("field")
                    .map(|x| text(x, src).to_string())
                    .unwrap_or_default();
                let on_self = f
                    .child_by_field_name("value")
                    .is_some_and(|v| text(v, src) == "self");
                receiver = f.child_by_field_name("value").map(|v| squash(text(v, src)));
                (name, Callee::Method { on_self })
            }
            _ => return,
        };
        if name.is_empty() {
            return;
        }
        self.out.calls.push(Call {
            path: self.file.path.clone(),
            line: line(n),
            name,
            callee,
            caller: self.current_fn.last().copied(),
            column: n.start_position().column as u32 + 1,
            receiver,
            by_reference: false,
        });
    }

    fn construct(&mut self, n: Node, in_pattern: bool) {
        let src = self.src();
        let (Some(path), Some(name)) =
            (n.child_by_field_name("path"), n.child_by_field_name("name"))
        else {
            return;
        };
        let variant = text(name, src);
        if !variant.starts_with(|c: char| c.is_ascii_uppercase()) {
            return;
        }
        // The callee of `Type::f(..)` is a call, not a variant.
        if n.parent().is_some_and(|p| {
            p.kind() == "call_expression"
                && p.child_by_field_name("function")
                    .is_some_and(|f| f.id() == n.id())
                && !variant.starts_with(|c: char| c.is_ascii_uppercase())
        }) {
            return;
        }
        self.out.constructs.push(Construct {
            path: self.file.path.clone(),
            line: line(n),
            column: n.start_position().column as u32 + 1,
            ty: last_segment(text(path, src)).to_string(),
            variant: variant.to_string(),
            caller: self.current_fn.last().copied(),
            in_pattern,
            in_macro: self.in_macro.clone(),
        });
    }
}

/// The attributes right before an item as written inside `#[...]` (what
/// they mean to the build — tests, `cfg` — is read by [`Attrs`]).
fn preceding_attributes(n: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut prev = n.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => {
                let t = text(p, src);
                out.push(
                    t.trim_start_matches("#[")
                        .trim_end_matches(']')
                        .trim()
                        .to_string(),
                );
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        prev = p.prev_sibling();
    }
    out
}

/// The first line of the attributes right before an item.
fn attrs_start_line(n: Node) -> Option<u32> {
    let mut first = None;
    let mut prev = n.prev_sibling();
    while let Some(p) = prev {
        if p.kind() != "attribute_item" {
            break;
        }
        first = Some(line(p));
        prev = p.prev_sibling();
    }
    first
}

fn collect_bounds(tp: Node, src: &str, out: &mut Vec<(String, String)>) {
    let mut c = tp.walk();
    for p in tp.named_children(&mut c) {
        if p.kind() == "type_parameter" {
            let (Some(left), Some(b)) = (
                p.child_by_field_name("name"),
                p.child_by_field_name("bounds"),
            ) else {
                continue;
            };
            push_bounds(text(left, src), b, src, out);
        }
    }
}

fn collect_where(w: Node, src: &str, out: &mut Vec<(String, String)>) {
    let mut c = w.walk();
    for p in w.named_children(&mut c) {
        if p.kind() == "where_predicate" {
            let (Some(left), Some(b)) = (
                p.child_by_field_name("left"),
                p.child_by_field_name("bounds"),
            ) else {
                continue;
            };
            push_bounds(text(left, src), b, src, out);
        }
    }
}

fn push_bounds(param: &str, bounds: Node, src: &str, out: &mut Vec<(String, String)>) {
    let mut c = bounds.walk();
    for b in bounds.named_children(&mut c) {
        let t = text(b, src).trim_start_matches('?');
        if !t.starts_with('\'') {
            out.push((param.to_string(), last_segment(t).to_string()));
        }
    }
}

/// Every identifier of the code (names of fns, types, fields, variables,
/// macros, lifetimes' names excluded) — not the words of comments or
/// string literals, so a comment cannot make a name "exist".
pub fn code_identifiers(tree: &Tree, src: &str, out: &mut std::collections::HashSet<String>) {
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "identifier"
            | "type_identifier"
            | "field_identifier"
            | "primitive_type"
            | "shorthand_field_identifier" => {
                out.insert(text(n, src).to_string());
            }
            "line_comment" | "block_comment" | "string_literal" | "raw_string_literal"
            | "char_literal" => continue,
            // Macro bodies are token trees: their identifiers are code too.
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
}

/// The smallest node at a 1-based position.
fn node_at(tree: &Tree, line: u32, column: u32) -> Option<Node<'_>> {
    let point = tree_sitter::Point {
        row: line.saturating_sub(1) as usize,
        column: column.saturating_sub(1) as usize,
    };
    tree.root_node().descendant_for_point_range(point, point)
}

/// What surrounds the position `(line, column)` (1-based) of a file: the
/// guards from the innermost outwards, up to the enclosing fn or closure.
pub fn guards_at(tree: &Tree, src: &str, line: u32, column: u32) -> Vec<Guard> {
    let Some(mut n) = node_at(tree, line, column) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut child_id = n.id();
    while let Some(parent) = n.parent() {
        match parent.kind() {
            "function_item" => break,
            "closure_expression" => {
                // `x.ok_or_else(|| here)`: the closure runs when `x` fails.
                let call = parent
                    .parent()
                    .filter(|a| a.kind() == "arguments")
                    .and_then(|a| a.parent())
                    .filter(|c| c.kind() == "call_expression");
                let method = call
                    .and_then(|c| c.child_by_field_name("function"))
                    .filter(|f| f.kind() == "field_expression");
                let Some(m) = method else { break };
                let name = m
                    .child_by_field_name("field")
                    .map(|x| text(x, src).to_string())
                    .unwrap_or_default();
                if !matches!(
                    name.as_str(),
                    "ok_or_else" | "map_err" | "unwrap_or_else" | "or_else" | "ok_or"
                ) {
                    break;
                }
                let value = m
                    .child_by_field_name("value")
                    .map(|v| squash(text(v, src)))
                    .unwrap_or_default();
                out.push(Guard::Fallback {
                    value,
                    method: name,
                });
            }
            "if_expression" => {
                if let Some(cond) = parent.child_by_field_name("condition") {
                    let in_then = parent
                        .child_by_field_name("consequence")
                        .is_some_and(|c| c.id() == child_id);
                    let in_else = parent
                        .child_by_field_name("alternative")
                        .is_some_and(|c| c.id() == child_id);
                    if cond.kind() == "let_condition" || cond.kind() == "let_chain" {
                        if in_else {
                            let pattern = cond
                                .child_by_field_name("pattern")
                                .map(|p| squash(text(p, src)))
                                .unwrap_or_default();
                            let value = cond
                                .child_by_field_name("value")
                                .map(|p| squash(text(p, src)))
                                .unwrap_or_else(|| squash(text(cond, src)));
                            out.push(Guard::ElseLet { pattern, value });
                        }
                        if in_then {
                            let pattern = cond
                                .child_by_field_name("pattern")
                                .map(|p| text(p, src).to_string())
                                .unwrap_or_default();
                            let value = cond
                                .child_by_field_name("value")
                                .map(|p| text(p, src).to_string())
                                .unwrap_or_else(|| text(cond, src).to_string());
                            out.push(Guard::IfLet { pattern, value });
                        }
                    } else if in_then {
                        out.push(Guard::If(squash(text(cond, src))));
                    } else if in_else {
                        out.push(Guard::Else(squash(text(cond, src))));
                    }
                }
            }
            "match_arm" => {
                let mut unless = None;
                let pattern = parent
                    .child_by_field_name("pattern")
                    .map(|p| squash(text(p, src)))
                    .unwrap_or_default();
                // An earlier arm of the same shape with a guard takes the
                // value first when its guard holds.
                let head = pattern
                    .split(['(', '{', ' '])
                    .next()
                    .unwrap_or("")
                    .to_string();
                let mut prev = parent.prev_named_sibling();
                while let Some(p) = prev {
                    if p.kind() == "match_arm" {
                        let other = p
                            .child_by_field_name("pattern")
                            .map(|x| squash(text(x, src)))
                            .unwrap_or_default();
                        if let Some((shape, cond)) = other.split_once(" if ") {
                            if shape.split(['(', '{', ' ']).next() == Some(head.as_str()) {
                                unless = Some(cond.to_string());
                                break;
                            }
                        }
                    }
                    prev = p.prev_named_sibling();
                }
                let value = parent
                    .parent()
                    .and_then(|b| b.parent())
                    .filter(|m| m.kind() == "match_expression")
                    .and_then(|m| m.child_by_field_name("value"))
                    .map(|v| squash(text(v, src)))
                    .unwrap_or_default();
                let catch_all = pattern == "_"
                    || pattern.contains("..=")
                    || pattern.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                let mut earlier = Vec::new();
                if catch_all {
                    let mut prev = parent.prev_named_sibling();
                    while let Some(p) = prev {
                        if p.kind() == "match_arm" {
                            if let Some(x) = p.child_by_field_name("pattern") {
                                // Long patterns say little in a sentence.
                                let x = squash(text(x, src));
                                if x.chars().count() <= 80 {
                                    earlier.push(x);
                                }
                            }
                        }
                        prev = p.prev_named_sibling();
                    }
                    earlier.reverse();
                    earlier.truncate(8);
                }
                out.push(Guard::Arm {
                    pattern,
                    value,
                    unless,
                    earlier,
                });
            }
            "while_expression"
                if parent
                    .child_by_field_name("body")
                    .is_some_and(|b| b.id() == child_id) =>
            {
                if let Some(cond) = parent.child_by_field_name("condition") {
                    if cond.kind() != "let_condition" {
                        out.push(Guard::While(squash(text(cond, src))));
                    }
                }
            }
            "block" => {
                // `if cond { return; }` before this statement.
                let mut prev = n.prev_named_sibling();
                while let Some(p) = prev {
                    let e = if p.kind() == "expression_statement" {
                        p.named_child(0)
                    } else {
                        Some(p)
                    };
                    if let Some(e) = e.filter(|e| e.kind() == "if_expression") {
                        let exits = e.child_by_field_name("consequence").is_some_and(|c| {
                            let t = text(c, src);
                            t.contains("return") || t.contains("continue") || t.contains("break")
                        });
                        if exits && e.child_by_field_name("alternative").is_none() {
                            if let Some(cond) = e.child_by_field_name("condition") {
                                if cond.kind() != "let_condition" {
                                    out.push(Guard::EarlyReturn(squash(text(cond, src))));
                                } else if let (Some(pattern), Some(value)) = (
                                    cond.child_by_field_name("pattern"),
                                    cond.child_by_field_name("value"),
                                ) {
                                    // `if let Ok(x) = f() { return .. }`.
                                    out.push(Guard::EarlyReturnLet {
                                        pattern: squash(text(pattern, src)),
                                        value: squash(text(value, src)),
                                    });
                                }
                            }
                        }
                    }
                    prev = p.prev_named_sibling();
                }
            }
            "let_declaration"
                if parent
                    .child_by_field_name("alternative")
                    .is_some_and(|a| a.id() == child_id) =>
            {
                let pattern = parent
                    .child_by_field_name("pattern")
                    .map(|p| squash(text(p, src)))
                    .unwrap_or_default();
                let value = parent
                    .child_by_field_name("value")
                    .map(|p| squash(text(p, src)))
                    .unwrap_or_default();
                out.push(Guard::LetElse { pattern, value });
            }
            _ => {}
        }
        child_id = parent.id();
        n = parent;
    }
    out
}

/// The node at a position and the text of the macro or method call it is
/// part of: for an assert, its condition; for `expect`/`unwrap`, the
/// receiver.
pub fn call_parts_at(tree: &Tree, src: &str, line: u32, column: u32) -> CallParts {
    let mut parts = CallParts::default();
    let Some(mut n) = node_at(tree, line, column) else {
        return parts;
    };
    parts.in_const = in_const_context(n);
    for _ in 0..8 {
        match n.kind() {
            "macro_invocation" => {
                parts.macro_name = n
                    .child_by_field_name("macro")
                    .map(|m| last_segment(text(m, src)).to_string());
                if let Some(tt) = n
                    .named_children(&mut n.walk())
                    .find(|c| c.kind() == "token_tree")
                {
                    let inner = text(tt, src);
                    let inner = inner.get(1..inner.len().saturating_sub(1)).unwrap_or("");
                    parts.first_argument = Some(squash(first_top_level_argument(inner)));
                }
                return parts;
            }
            "call_expression" => {
                if let Some(f) = n.child_by_field_name("function") {
                    if f.kind() == "field_expression" {
                        parts.receiver =
                            f.child_by_field_name("value").map(|v| squash(text(v, src)));
                        return parts;
                    }
                }
            }
            _ => {}
        }
        match n.parent() {
            Some(p) => n = p,
            None => break,
        }
    }
    parts
}

/// True when a node is inside a `const { .. }` block or a `const`/`static`
/// item's value (compile-time evaluation).
fn in_const_context(mut n: Node) -> bool {
    while let Some(p) = n.parent() {
        match p.kind() {
            "const_block" | "const_item" | "static_item" => return true,
            "function_item" | "closure_expression" => return false,
            _ => {}
        }
        n = p;
    }
    false
}

/// True when the position is inside a `const { .. }` block or a `const`
/// item's value.
pub fn in_const_at(tree: &Tree, line: u32, column: u32) -> bool {
    node_at(tree, line, column).is_some_and(in_const_context)
}

/// The call expression starting at `(line, column)`: its text (whitespace
/// folded) and, when its result is unwrapped right there, the unwrapping
/// method (`unwrap`, `expect`).
pub fn call_at(tree: &Tree, src: &str, line: u32, column: u32) -> Option<(String, Option<String>)> {
    let start = node_at(tree, line, column)?.start_position();
    let mut n = node_at(tree, line, column)?;
    // The outermost call expression starting here (`a.b(x)` of `a.b(x).c()`
    // is the inner one: the first met going up).
    while n.kind() != "call_expression" {
        n = n.parent()?;
        if n.start_position() != start {
            return None;
        }
    }
    let unwrapped = n
        .parent()
        .filter(|p| p.kind() == "field_expression")
        .and_then(|p| p.child_by_field_name("field"))
        .map(|f| text(f, src).to_string())
        .filter(|f| f == "unwrap" || f == "expect");
    Some((squash(text(n, src)), unwrapped))
}

/// Parts of the call at a site.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CallParts {
    /// A macro's first argument (an assert's condition).
    pub first_argument: Option<String>,
    /// A method call's receiver (what `expect` is called on).
    pub receiver: Option<String>,
    /// The macro's name (`debug_assert`).
    pub macro_name: Option<String>,
    /// Inside a `const { .. }` block or a `const` item: evaluated at compile
    /// time.
    pub in_const: bool,
}

/// The text before the first comma outside brackets and strings.
fn first_top_level_argument(s: &str) -> &str {
    let mut depth = 0i32;
    let mut in_str = false;
    let mut prev = '\0';
    for (i, c) in s.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => depth += 1,
            ')' | ']' | '}' if !in_str => depth -= 1,
            ',' if !in_str && depth == 0 => return &s[..i],
            _ => {}
        }
        prev = c;
    }
    s
}

/// Whitespace folded to single spaces; none before a method chain's `.`
/// or `?` (`self.builder()\n    .spawn(f)` → `self.builder().spawn(f)`).
fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        let chained = word.starts_with('?')
            || word
                .strip_prefix('.')
                .is_some_and(|w| w.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        if !out.is_empty() && !chained {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_return_type_is_after_the_parameters_and_before_where() {
        assert_eq!(
            return_type("pub fn spawn<F, T>(self, f: F) -> io::Result<H<'s, T>> where F: FnOnce(&S) -> T, T: Send"),
            Some("io::Result<H<'s, T>>")
        );
        assert_eq!(
            return_type("fn f<G: Fn() -> u8>(g: G) -> Option<u8>"),
            Some("Option<u8>")
        );
        assert_eq!(return_type("fn f(cb: fn(u8) -> u8)"), None);
        assert_eq!(
            return_type("fn nowhere(&self) -> Somewhere"),
            Some("Somewhere")
        );
        assert_eq!(
            return_type("pub(crate) fn mul_impl(d1: &Decimal, d2: &Decimal) -> CalculationResult"),
            Some("CalculationResult")
        );
    }

    #[test]
    fn a_chain_over_several_lines_is_one_line() {
        assert_eq!(
            squash("self.builder()\n            .spawn(f)"),
            "self.builder().spawn(f)"
        );
        assert_eq!(squash("a  ==\n b"), "a == b");
        assert_eq!(squash("E { .. }"), "E { .. }");
    }

    #[test]
    fn parameters_split_at_the_lists_own_commas() {
        assert_eq!(
            parameters("fn f(&self, m: HashMap<K, V>, g: fn(u8) -> u8) -> Option<(A, B)>"),
            vec!["&self", "m: HashMap<K, V>", "g: fn(u8) -> u8"]
        );
        assert!(parameters("fn f()").is_empty());
    }

    fn file(text: &str) -> SourceFile {
        SourceFile {
            path: "src/lib.rs".into(),
            text: text.into(),
        }
    }

    #[test]
    fn fns_calls_and_bounds() {
        let f = file(
            "pub trait Codec { fn decode(&self) -> u8 { panic!(\"no\") } fn id(&self); }\n\
             pub struct A;\n\
             impl Codec for A { fn id(&self) {} }\n\
             pub fn run<C: Codec>(c: &C) -> u8 { C::decode(c); c.decode() }\n\
             fn w<T>(t: T) where T: Codec + Clone { Self::x(); helper(1); }\n",
        );
        let s = symbols(vec![f]).1;
        let names: Vec<String> = s.fns.iter().map(FnDef::qualified).collect();
        // A trait's method without a body is a declaration, not a fn.
        assert_eq!(names, ["Codec::decode", "A::id", "run", "w"]);
        assert_eq!(s.fns[0].owner, Owner::TraitDefault("Codec".into()));
        assert_eq!(s.fns[2].bounds, [("C".to_string(), "Codec".to_string())]);
        assert!(s.fns[2].is_pub);
        assert!(!s.fns[3].is_pub);
        assert_eq!(
            s.fns[3].bounds,
            [
                ("T".to_string(), "Codec".to_string()),
                ("T".to_string(), "Clone".to_string())
            ]
        );
        let calls: Vec<(String, Callee)> = s
            .calls
            .iter()
            .map(|c| (c.name.clone(), c.callee.clone()))
            .collect();
        assert_eq!(
            calls[0],
            (
                "decode".to_string(),
                Callee::Path {
                    qualifier: Some("C".into())
                }
            )
        );
        assert_eq!(calls[1].1, Callee::Method { on_self: false });
        assert_eq!(
            calls[3],
            ("helper".to_string(), Callee::Path { qualifier: None })
        );
        assert_eq!(s.calls[0].caller, Some(2));
    }

    #[test]
    fn guards() {
        let src = "fn f(x: Option<u8>, n: u8) -> u8 {\n    if n > 3 {\n        match x {\n            Some(0) => panic!(\"zero\"),\n            _ => {}\n        }\n    } else {\n        let Some(v) = x else { panic!(\"none\") };\n    }\n    0\n}\n";
        let mut p = parser();
        let tree = parse(&mut p, src).unwrap();
        assert_eq!(
            guards_at(&tree, src, 4, 24),
            vec![
                Guard::Arm {
                    pattern: "Some(0)".into(),
                    value: "x".into(),
                    unless: None,
                    earlier: Vec::new(),
                },
                Guard::If("n > 3".into())
            ]
        );
        assert_eq!(
            guards_at(&tree, src, 8, 32),
            vec![
                Guard::LetElse {
                    pattern: "Some(v)".into(),
                    value: "x".into()
                },
                Guard::Else("n > 3".into())
            ]
        );
    }

    #[test]
    fn call_parts() {
        let src = "fn f(v: Vec<u8>) {\n    assert!(v.len() > 2, \"short: {}\", v.len());\n    let x = v.first().expect(\"empty\");\n}\n";
        let mut p = parser();
        let tree = parse(&mut p, src).unwrap();
        assert_eq!(
            call_parts_at(&tree, src, 2, 5).first_argument.as_deref(),
            Some("v.len() > 2")
        );
        assert_eq!(
            call_parts_at(&tree, src, 3, 23).receiver.as_deref(),
            Some("v.first()")
        );
    }

    #[test]
    fn macro_bodies_are_code() {
        let f = file(
            "macro_rules! make {\n    ($ty:ident, $m:ident) => {\n        impl Op for $ty {\n            fn $m(self) -> u8 {\n                if self.0 > 3 { return Err(E::Big) }\n                todo!(\"no\")\n            }\n        }\n    };\n}\nmacro_rules! step {\n    ($self:ident, $r:expr $(, $a:ident)?) => {{\n        let x = loop {\n            break match $r.read() $(.$a)? {\n                R::Eof(_) if $self.cfg.allow => Ok(1),\n                R::Eof(_) => Err(Error::Ill(Bad::Unclosed)),\n            };\n        };\n    }};\n}\nmake!(A, add);\n#[cfg(feature = \"x\")]\nmod inner;\n",
        );
        let s = symbols(vec![f]).1;
        let gen = s
            .fns
            .iter()
            .find(|f| f.in_macro.is_some())
            .expect("fn in macro");
        assert_eq!(gen.name, "$m");
        assert_eq!(gen.in_macro.as_deref(), Some("make"));
        assert!(s
            .constructs
            .iter()
            .any(|c| c.variant == "Big" && c.in_macro.as_deref() == Some("make")));
        assert!(
            s.constructs
                .iter()
                .any(|c| c.variant == "Unclosed" && c.in_macro.as_deref() == Some("step")),
            "{:?}",
            s.constructs
        );
        assert_eq!(s.macro_calls.iter().filter(|c| c.name == "make").count(), 1);
        assert_eq!(s.macros.len(), 2);
        assert_eq!(s.mod_decls[0].gates, ["feature = \"x\""]);
    }
}
