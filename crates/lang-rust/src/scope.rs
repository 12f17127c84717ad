//! Where a site stands: module paths from the file layout, the stack of
//! enclosing items, and turning a syntax node into a located [`Site`].

use super::Walker;
use errdex_model::{Kind, Site, Template};
use tree_sitter::Node;

/// The type whose `Display` (or `Debug`) an `impl` block writes.
#[derive(Debug, Clone)]
pub struct DisplayImpl {
    /// The type, generics stripped.
    pub ty: String,
    /// A `Debug` impl rather than `Display`.
    pub debug: bool,
}

/// One enclosing item (module, impl, trait, fn) or a test-only region.
#[derive(Debug, Default, Clone)]
pub struct Frame {
    /// Path component; empty for regions that add none.
    pub name: String,
    /// Test code from here down.
    pub test: bool,
    /// The fn has `#[track_caller]`.
    pub track_caller: bool,
    /// A fn (not a module, impl, or region).
    pub is_fn: bool,
    /// An inline module (`mod name { .. }`).
    pub module: bool,
    /// The fn's lines and end byte.
    pub start_line: u32,
    /// Last line of the fn.
    pub end_line: u32,
    /// End byte of the fn.
    pub end_byte: usize,
    /// The `Self` type inside an impl.
    pub self_type: Option<String>,
    /// Set on an impl frame of `Display`/`Debug`.
    pub display_impl: Option<DisplayImpl>,
    /// Set on the `fmt` fn frame of such an impl.
    pub display: Option<DisplayImpl>,
    /// Loops entered within this frame.
    pub loops: u32,
    /// The enclosing `match` arm's pattern, as a byte range.
    pub arm: Option<(usize, usize)>,
    /// `let name = <message>` bindings seen so far in a fn.
    pub lets: Vec<(String, Template, u32)>,
    /// Declared types of parameters and annotated `let`s in a fn.
    pub types: Vec<(String, String)>,
    /// The `macro_rules!` whose body this is.
    pub in_macro: Option<String>,
    /// Writes in this block are parts of a message built at run time.
    pub partial: bool,
}

impl Frame {
    /// A frame adding `name` to the item path.
    pub fn named(name: &str) -> Self {
        Frame {
            name: name.to_string(),
            ..Frame::default()
        }
    }
}

/// Line starts of a file, for byte → (line, column) conversion.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// Indexes `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines { starts }
    }

    /// Number of lines.
    pub fn count(&self) -> u32 {
        self.starts.len() as u32
    }

    /// 1-based line and 1-based column in characters, as rustc reports them.
    pub fn position(&self, byte: usize, src: &[u8]) -> (u32, u32) {
        let line = self
            .starts
            .partition_point(|&s| s <= byte)
            .saturating_sub(1);
        let start = self.starts[line];
        let col = String::from_utf8_lossy(&src[start..byte.min(src.len())])
            .chars()
            .count();
        (line as u32 + 1, col as u32 + 1)
    }
}

/// The module path a file's layout implies: the part after the last `src/`
/// (or `tests/`, `benches/`, `examples/`), `mod.rs`/`lib.rs`/`main.rs`
/// naming their folder.
pub fn module_path(path: &str) -> Vec<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let root = parts
        .iter()
        .rposition(|p| matches!(*p, "src" | "tests" | "benches" | "examples"))
        .map(|i| i + 1)
        .unwrap_or(0);
    let mut out: Vec<String> = parts[root..].iter().map(|s| s.to_string()).collect();
    if let Some(last) = out.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last);
        if !matches!(stem, "mod" | "lib" | "main") {
            out.push(stem.to_string());
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The folder rooting a file's crate target: the path up to its last
/// `src`, `tests`, `benches` or `examples` component (empty when none).
pub fn module_root(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let dirs = &parts[..parts.len().saturating_sub(1)];
    match dirs
        .iter()
        .rposition(|p| matches!(*p, "src" | "tests" | "benches" | "examples"))
    {
        Some(i) => dirs[..=i].join("/"),
        None => String::new(),
    }
}

/// The folder of the crate a file belongs to: its module root's parent
/// (`crates/x` for `crates/x/src/a.rs` and `crates/x/tests/t.rs`; empty at
/// the top).
pub fn crate_dir(path: &str) -> String {
    let root = module_root(path);
    match root.rsplit_once('/') {
        Some((parent, _)) => parent.to_string(),
        None => String::new(),
    }
}

/// The item-path prefix of a file in a workspace: its crate folder's name
/// as a crate name (`burn-tensor` → `burn_tensor`).
pub fn crate_prefix(path: &str) -> Option<String> {
    let dir = crate_dir(path);
    let name = dir.rsplit('/').next().filter(|n| !n.is_empty())?;
    Some(name.replace('-', "_"))
}

/// A type's name with generic arguments and references stripped.
pub fn type_name(node: Node, src: &[u8]) -> String {
    let text = node.utf8_text(src).unwrap_or("");
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out.trim_start_matches('&')
        .trim_start_matches("mut")
        .to_string()
}

impl Walker<'_> {
    /// A site for `node`, reported at `report` (the macro or method name).
    pub(crate) fn new_site(
        &self,
        node: Node,
        report: Node,
        kind: Kind,
        template: Template,
    ) -> Site {
        let (mut line, column) = self.lines.position(node.start_byte(), self.src);
        let end_line = node.end_position().row as u32 + 1;
        let (report_line, report_column) = self.lines.position(report.start_byte(), self.src);
        let fn_frame = self.frames.iter().rev().find(|f| f.is_fn);
        let (lo, hi) = fn_frame
            .map(|f| (f.start_line, f.end_line))
            .unwrap_or((1, self.lines.count()));
        // A message bound by a `let` earlier in the fn: the site is the
        // code from that `let` to the raise.
        if let Some(l) = self.take_let_line().filter(|&l| l < line && l >= lo) {
            line = l;
        }
        let excerpt_start = line.saturating_sub(5).max(lo).max(1);
        let excerpt_end = (end_line + 5).min(hi).max(end_line);
        let arm = self.frames.last().and_then(|f| f.arm).or_else(|| {
            self.frames
                .iter()
                .rev()
                .take_while(|f| !f.is_fn)
                .find_map(|f| f.arm)
        });
        Site {
            kind,
            template,
            path: self.path.to_string(),
            line,
            column,
            end_line,
            report_line,
            report_column,
            reported_at_caller: fn_frame.is_some_and(|f| f.track_caller),
            item_path: self.item_path(),
            arm: arm.map(|(a, b)| one_line(&String::from_utf8_lossy(&self.src[a..b]), 120)),
            is_test: self.in_test(),
            excerpt_start,
            excerpt_end,
            via_macro: self.frames.iter().rev().find_map(|f| f.in_macro.clone()),
            message_from: None,
            partial: false,
            delegates_to: None,
        }
    }

    /// The `Self` type of the enclosing impl.
    pub(crate) fn self_type(&self) -> Option<&str> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.self_type.as_deref())
    }

    /// The `Display`/`Debug` impl whose `fmt` encloses this point.
    pub(crate) fn display(&self) -> Option<&DisplayImpl> {
        let f = self.frames.iter().rev().find(|f| f.is_fn)?;
        f.display.as_ref()
    }

    /// The declared type of a parameter or annotated `let` of the enclosing fn.
    pub(crate) fn declared_type(&self, name: &str) -> Option<&str> {
        let f = self.frames.iter().rev().find(|f| f.is_fn)?;
        f.types
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }

    /// Records a declared type in the enclosing fn.
    pub(crate) fn declare(&mut self, pattern: Node, ty: Node) {
        if pattern.kind() != "identifier" {
            return;
        }
        let (name, ty) = (self.text(pattern).to_string(), self.text(ty).to_string());
        if let Some(f) = self.frames.iter_mut().rev().find(|f| f.is_fn) {
            f.types.push((name, ty));
        }
    }

    /// Loops entered inside the enclosing fn.
    pub(crate) fn loops_in_fn(&self) -> u32 {
        let mut n = 0;
        for f in self.frames.iter().rev() {
            n += f.loops;
            if f.is_fn {
                break;
            }
        }
        n
    }

    /// The enclosing fn's text after `byte` (for `eprintln!` + `exit`).
    pub(crate) fn rest_of_fn(&self, byte: usize) -> &str {
        let end = self
            .frames
            .iter()
            .rev()
            .find(|f| f.is_fn)
            .map(|f| f.end_byte)
            .unwrap_or(self.src.len());
        std::str::from_utf8(&self.src[byte.min(end)..end]).unwrap_or("")
    }

    /// Pushes a site, unconditionally kept.
    pub(crate) fn push(&mut self, site: Site) {
        self.out.candidates.push(errdex_extract::Candidate {
            site,
            condition: errdex_extract::Condition::Always,
        });
    }
}

/// Collapses whitespace and shortens to `max` characters.
pub fn one_line(s: &str, max: usize) -> String {
    let mut out = String::new();
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    if out.chars().count() > max {
        out = out.chars().take(max).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_paths() {
        assert_eq!(module_path("src/lib.rs"), Vec::<String>::new());
        assert_eq!(module_path("src/a/b.rs"), vec!["a", "b"]);
        assert_eq!(module_path("src/a/mod.rs"), vec!["a"]);
        assert_eq!(module_path("crates/x/src/y.rs"), vec!["y"]);
        assert_eq!(module_path("tests/it.rs"), vec!["it"]);
        assert_eq!(module_root("crates/x/src/a/b.rs"), "crates/x/src");
        assert_eq!(module_root("tests/meta/mod.rs"), "tests");
        assert_eq!(module_root("build.rs"), "");
        assert_eq!(crate_dir("crates/x-y/tests/t.rs"), "crates/x-y");
        assert_eq!(
            crate_prefix("crates/x-y/src/lib.rs").as_deref(),
            Some("x_y")
        );
        assert_eq!(crate_prefix("src/lib.rs"), None);
    }

    #[test]
    fn char_columns() {
        let text = "ab\nhé x\n";
        let l = Lines::new(text);
        assert_eq!(l.position(0, text.as_bytes()), (1, 1));
        assert_eq!(l.position(7, text.as_bytes()), (2, 4));
    }
}
