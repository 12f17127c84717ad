//! What a page needs to know of a package's Python code, read once per
//! snapshot: every function and method (its qualified name, signature,
//! whether it is public or a test), the calls each makes by name, the
//! conditions around a line (`if …:` / `elif …:` / `else:`), and the
//! tests that expect an exception (`pytest.raises(E, match=…)`,
//! `self.assertRaises(E)`, `assertRaisesRegex(E, …)`).

use crate::paths;
use errdex_model::SourceFile;
use tree_sitter::Node;

/// Deepest nesting read (deeper subtrees are left alone).
const MAX_DEPTH: u32 = 200;

/// A function or method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Def {
    /// The file.
    pub path: String,
    /// The function's name.
    pub name: String,
    /// `module.Class.name`.
    pub qualname: String,
    /// `def name(args) -> ret`, as written, on one line.
    pub signature: String,
    /// First and last line.
    pub lines: (u32, u32),
    /// Reachable by a user: no `_`-prefixed name in its module path,
    /// class or own name (dunder methods count as public).
    pub is_public: bool,
    /// Test code (a test file, a `test_*` function, a `Test*` class).
    pub is_test: bool,
}

/// A call by name (`f(…)`, `obj.f(…)`, `mod.f(…)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The file.
    pub path: String,
    /// Its line.
    pub line: u32,
    /// The called name (the last segment).
    pub name: String,
    /// The function it is in (an index into [`Code::defs`]).
    pub caller: Option<usize>,
}

/// A test that expects an exception.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectsRaise {
    /// The file.
    pub path: String,
    /// The line of the `raises`/`assertRaises`.
    pub line: u32,
    /// The test function's qualified name.
    pub test: String,
    /// The exception type as written (`ValueError`, `idna.IDNAError`).
    pub exception: String,
    /// The `match=` / regex argument, when a string literal.
    pub pattern: Option<String>,
    /// The `with` block (or the call) as written.
    pub code: String,
}

/// A condition a line runs under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// The `if`/`elif`/`while` line.
    pub line: u32,
    /// The condition as written.
    pub text: String,
    /// The line is in the `else` branch (it runs when the text is false).
    pub negated: bool,
}

/// A snapshot's Python code, read for pages.
#[derive(Debug, Default)]
pub struct Code {
    /// Every function and method.
    pub defs: Vec<Def>,
    /// Every call by name.
    pub calls: Vec<Call>,
    /// Every test expecting an exception.
    pub expects: Vec<ExpectsRaise>,
    /// Indices into `calls` by the called name.
    by_name: std::collections::HashMap<String, Vec<usize>>,
    /// Each file's path, text and syntax tree (read once).
    files: Vec<(String, String, tree_sitter::Tree)>,
}

impl Code {
    /// Reads the `.py` files of a snapshot.
    pub fn read(files: &[SourceFile]) -> Code {
        let mut code = Code::default();
        let mut parser = crate::parser();
        for f in files.iter().filter(|f| f.path.ends_with(".py")) {
            let Some(tree) = parser.parse(&f.text, None) else {
                continue;
            };
            let mut r = Reader {
                code: &mut code,
                path: &f.path,
                src: &f.text,
                module: paths::module_name(&f.path),
                test_file: paths::is_test_path(&f.path),
                scope: Vec::new(),
                def: None,
            };
            r.visit(tree.root_node(), 0);
            code.files.push((f.path.clone(), f.text.clone(), tree));
        }
        for (i, c) in code.calls.iter().enumerate() {
            code.by_name.entry(c.name.clone()).or_default().push(i);
        }
        code
    }

    /// Line `line` of a file read, as written.
    pub fn line(&self, path: &str, line: u32) -> Option<&str> {
        let (_, text, _) = self.files.iter().find(|(p, _, _)| p == path)?;
        text.lines().nth(line.checked_sub(1)? as usize)
    }

    /// The innermost function holding `path:line`.
    pub fn enclosing(&self, path: &str, line: u32) -> Option<usize> {
        self.defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.path == path && d.lines.0 <= line && line <= d.lines.1)
            .min_by_key(|(_, d)| d.lines.1 - d.lines.0)
            .map(|(i, _)| i)
    }

    /// The calls of a function by its name (of methods, by any receiver).
    pub fn callers_of(&self, def: usize) -> impl Iterator<Item = &Call> {
        let calls = self.by_name.get(&self.defs[def].name);
        calls
            .into_iter()
            .flatten()
            .map(|&i| &self.calls[i])
            .filter(move |c| c.caller != Some(def))
    }

    /// The conditions `path:line` runs under, innermost first, within its
    /// function.
    pub fn conditions_at(&self, path: &str, line: u32) -> Vec<Condition> {
        let Some((_, text, tree)) = self.files.iter().find(|(p, _, _)| p == path) else {
            return Vec::new();
        };
        let point = tree_sitter::Point {
            row: line.saturating_sub(1) as usize,
            column: indent(text, line),
        };
        let Some(mut node) = tree.root_node().descendant_for_point_range(point, point) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let src = text.as_bytes();
        while let Some(parent) = node.parent() {
            if matches!(
                parent.kind(),
                "function_definition" | "class_definition" | "lambda"
            ) {
                break;
            }
            let cond = |n: Node| {
                n.child_by_field_name("condition")
                    .and_then(|c| c.utf8_text(src).ok())
                    .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            };
            let first = |n: Node| n.start_position().row as u32 + 1;
            // The branches of the `if` before `branch` (its `elif`s), whose
            // conditions were false for it to run.
            let earlier = |stmt: Node, branch: Node, out: &mut Vec<Condition>| {
                if let Some(t) = cond(stmt) {
                    out.push(Condition {
                        line: first(stmt),
                        text: t,
                        negated: true,
                    });
                }
                let mut cursor = stmt.walk();
                let elifs: Vec<Node> = stmt
                    .children(&mut cursor)
                    .filter(|c| c.kind() == "elif_clause")
                    .take_while(|c| c.start_byte() < branch.start_byte())
                    .collect();
                for e in elifs {
                    if let Some(t) = cond(e) {
                        out.push(Condition {
                            line: first(e),
                            text: t,
                            negated: true,
                        });
                    }
                }
            };
            match parent.kind() {
                "if_statement" | "elif_clause" | "while_statement"
                    if parent.child_by_field_name("consequence") == Some(node)
                        || parent.child_by_field_name("body") == Some(node) =>
                {
                    if let Some(t) = cond(parent) {
                        out.push(Condition {
                            line: first(parent),
                            text: t,
                            negated: false,
                        });
                    }
                    if parent.kind() == "elif_clause" {
                        if let Some(stmt) = parent.parent() {
                            earlier(stmt, parent, &mut out);
                        }
                    }
                }
                // `if c: … elif d: … else: <here>` — every branch before
                // is false.
                "else_clause" => {
                    if let Some(stmt) = parent.parent().filter(|p| p.kind() == "if_statement") {
                        earlier(stmt, parent, &mut out);
                    }
                }
                _ => {}
            }
            node = parent;
        }
        out
    }
}

/// The column of the first non-blank character of `line`.
fn indent(text: &str, line: u32) -> usize {
    text.lines()
        .nth(line.saturating_sub(1) as usize)
        .map_or(0, |l| l.len() - l.trim_start().len())
}

struct Reader<'a> {
    code: &'a mut Code,
    path: &'a str,
    src: &'a str,
    module: String,
    test_file: bool,
    /// Enclosing class and function names.
    scope: Vec<String>,
    /// The innermost function.
    def: Option<usize>,
}

impl Reader<'_> {
    fn text(&self, n: Node) -> &str {
        n.utf8_text(self.src.as_bytes()).unwrap_or("")
    }

    fn visit(&mut self, node: Node, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        match node.kind() {
            "class_definition" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n).to_string())
                    .unwrap_or_default();
                self.scope.push(name);
                self.children(node, depth);
                self.scope.pop();
                return;
            }
            "function_definition" => {
                self.function(node, depth);
                return;
            }
            "call" => self.call(node),
            "with_statement" => self.with_raises(node),
            _ => {}
        }
        self.children(node, depth);
    }

    fn children(&mut self, node: Node, depth: u32) {
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.children(&mut cursor).collect();
        for k in kids {
            self.visit(k, depth + 1);
        }
    }

    fn function(&mut self, node: Node, depth: u32) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_string())
            .unwrap_or_default();
        let mut qual = vec![self.module.clone()];
        qual.extend(self.scope.iter().cloned());
        qual.push(name.clone());
        let private = |s: &str| s.starts_with('_') && !(s.starts_with("__") && s.ends_with("__"));
        let is_public = !self.module.split('.').any(private)
            && !self.scope.iter().any(|s| private(s))
            && !private(&name);
        let is_test = self.test_file
            || name.starts_with("test")
            || self.scope.iter().any(|s| s.starts_with("Test"));
        let signature = {
            let end = node
                .child_by_field_name("body")
                .map_or(node.end_byte(), |b| b.start_byte());
            let head = &self.src[node.start_byte()..end];
            head.trim_end()
                .trim_end_matches(':')
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        self.code.defs.push(Def {
            path: self.path.to_string(),
            name: name.clone(),
            qualname: qual.join("."),
            signature,
            lines: (
                node.start_position().row as u32 + 1,
                node.end_position().row as u32 + 1,
            ),
            is_public,
            is_test,
        });
        let outer = self.def.replace(self.code.defs.len() - 1);
        self.scope.push(name);
        self.children(node, depth);
        self.scope.pop();
        self.def = outer;
    }

    fn call(&mut self, node: Node) {
        let Some(f) = node.child_by_field_name("function") else {
            return;
        };
        let name = match f.kind() {
            "identifier" => self.text(f).to_string(),
            "attribute" => f
                .child_by_field_name("attribute")
                .map(|a| self.text(a).to_string())
                .unwrap_or_default(),
            _ => return,
        };
        if name.is_empty() {
            return;
        }
        // `self.assertRaises(E, f, …)` used as a call, not a `with`.
        if is_raises_name(&name) && node.parent().is_some_and(|p| p.kind() != "with_item") {
            self.expectation(node, node);
        }
        self.code.calls.push(Call {
            path: self.path.to_string(),
            line: node.start_position().row as u32 + 1,
            name,
            caller: self.def,
        });
    }

    /// `with pytest.raises(E, match=…):` and `with self.assertRaises(E):`.
    fn with_raises(&mut self, node: Node) {
        let mut cursor = node.walk();
        let clause = node
            .children(&mut cursor)
            .find(|c| c.kind() == "with_clause");
        let Some(clause) = clause else {
            return;
        };
        let mut c2 = clause.walk();
        let items: Vec<Node> = clause.children(&mut c2).collect();
        for item in items.into_iter().filter(|i| i.kind() == "with_item") {
            let call = item
                .child_by_field_name("value")
                .map(|v| {
                    if v.kind() == "as_pattern" {
                        v.named_child(0).unwrap_or(v)
                    } else {
                        v
                    }
                })
                .filter(|v| v.kind() == "call");
            let Some(call) = call else { continue };
            let named = call
                .child_by_field_name("function")
                .map(|f| self.text(f).rsplit('.').next().unwrap_or("").to_string());
            if named.as_deref().is_some_and(is_raises_name) {
                self.expectation(call, node);
            }
        }
    }

    /// A `raises`/`assertRaises` call `call`, shown as `shown`.
    fn expectation(&mut self, call: Node, shown: Node) {
        let Some(args) = call.child_by_field_name("arguments") else {
            return;
        };
        let mut cursor = args.walk();
        let list: Vec<Node> = args.named_children(&mut cursor).collect();
        let Some(first) = list.first().filter(|a| a.kind() != "keyword_argument") else {
            return;
        };
        let exception = self.text(*first).to_string();
        // `match=`/`expected_regex=`, or assertRaisesRegex's second argument.
        let regex_call = call
            .child_by_field_name("function")
            .is_some_and(|f| self.text(f).contains("Regex"));
        let pattern = list.iter().enumerate().skip(1).find_map(|(i, a)| {
            let value = if a.kind() == "keyword_argument" {
                let key = a.child_by_field_name("name").map(|n| self.text(n))?;
                (key == "match" || key == "expected_regex")
                    .then(|| a.child_by_field_name("value"))??
            } else if regex_call && i == 1 {
                *a
            } else {
                return None;
            };
            (value.kind() == "string").then(|| string_content(self.text(value)))
        });
        let test = {
            let mut q = vec![self.module.clone()];
            q.extend(self.scope.iter().cloned());
            q.join(".")
        };
        let lines: Vec<&str> = self.text(shown).lines().take(MAX_SHOWN_LINES).collect();
        self.code.expects.push(ExpectsRaise {
            path: self.path.to_string(),
            line: call.start_position().row as u32 + 1,
            test,
            exception,
            pattern,
            code: lines.join("\n"),
        });
    }
}

/// Lines of a test's `with` block shown at most.
const MAX_SHOWN_LINES: usize = 8;

fn is_raises_name(name: &str) -> bool {
    matches!(
        name,
        "raises" | "assertRaises" | "assertRaisesRegex" | "assertRaisesRegexp"
    )
}

/// A string literal's content: prefixes (`r`, `b`, `f`) and quotes off.
fn string_content(lit: &str) -> String {
    let t = lit.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    for q in ["\"\"\"", "'''", "\"", "'"] {
        if let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner.to_string();
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: text.into(),
        }
    }

    #[test]
    fn defs_calls_conditions_and_expectations() {
        let lib = "\
def encode(s):
    return _check(s)

def _check(label):
    if not label:
        raise ValueError('Empty Label')
    elif len(label) > 63:
        raise ValueError('too long')
    else:
        raise ValueError(f'bad {label!r}')

class Codec:
    def encode(self, s):
        return encode(s)
";
        let tests = "\
import pytest
from pkg.core import encode

def test_empty():
    with pytest.raises(ValueError, match='Empty Label'):
        encode('')

class TestCodec(unittest.TestCase):
    def test_long(self):
        self.assertRaises(ValueError, encode, 'x' * 64)
";
        let code = Code::read(&[file("pkg/core.py", lib), file("tests/test_core.py", tests)]);
        let names: Vec<(&str, bool, bool)> = code
            .defs
            .iter()
            .map(|d| (d.qualname.as_str(), d.is_public, d.is_test))
            .collect();
        assert_eq!(
            names,
            vec![
                ("pkg.core.encode", true, false),
                ("pkg.core._check", false, false),
                ("pkg.core.Codec.encode", true, false),
                ("tests.test_core.test_empty", true, true),
                ("tests.test_core.TestCodec.test_long", true, true),
            ]
        );
        assert_eq!(code.defs[1].signature, "def _check(label)");
        let check = code.enclosing("pkg/core.py", 6).unwrap();
        assert_eq!(check, 1);
        let callers: Vec<&str> = code
            .callers_of(check)
            .map(|c| code.defs[c.caller.unwrap()].qualname.as_str())
            .collect();
        assert_eq!(callers, vec!["pkg.core.encode"]);
        assert_eq!(
            code.conditions_at("pkg/core.py", 6),
            vec![Condition {
                line: 5,
                text: "not label".into(),
                negated: false
            }]
        );
        let long = code.conditions_at("pkg/core.py", 8);
        assert_eq!(long[0].text, "len(label) > 63");
        assert!(!long[0].negated && long[1].negated, "{long:?}");
        assert_eq!(long[1].text, "not label");
        let other = code.conditions_at("pkg/core.py", 10);
        let texts: Vec<(&str, bool)> = other.iter().map(|c| (c.text.as_str(), c.negated)).collect();
        assert_eq!(texts, vec![("not label", true), ("len(label) > 63", true)]);
        let e = &code.expects;
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].exception, "ValueError");
        assert_eq!(e[0].pattern.as_deref(), Some("Empty Label"));
        assert_eq!(e[0].test, "tests.test_core.test_empty");
        assert!(e[0].code.contains("encode('')"), "{}", e[0].code);
        assert_eq!(e[1].test, "tests.test_core.TestCodec.test_long");
        assert_eq!(e[1].pattern, None);
    }
}
