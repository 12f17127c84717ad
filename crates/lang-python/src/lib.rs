//! Python: error sites of `.py` files.
//!
//! [`PythonExtractor`] walks tree-sitter-python syntax trees and finds
//! where messages are made: `raise` (with f-strings, `%`, `str.format`,
//! concatenation, names bound earlier, module constants), `assert`,
//! logging and `warnings.warn` calls, exception constructors, usage
//! errors, and exception classes' own texts (docstrings, default message
//! attributes, `__str__`/`__repr__`), plus dicts of messages. Other string
//! literals are kept as a recall net; function docstrings as evidence.

mod calls;
mod classes;
pub mod code;
mod message;
mod paths;
pub mod strings;
mod walker;

use errdex_extract::{Extractor, FileExtraction, SourceFile};
use tree_sitter::Parser;

/// Identifies this build's Python extraction (see
/// `errdex_extract::FINGERPRINT`): cached per-file results are reused only
/// under the same.
pub const FINGERPRINT: &str = env!("ERRDEX_PYTHON_FINGERPRINT");

/// Extracts error sites from `.py` files. Never fails: a file that does
/// not parse yields what its parsed parts hold, with `syntax_errors`
/// counted.
#[derive(Debug, Default, Clone, Copy)]
pub struct PythonExtractor;

/// A parser for Python.
pub fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_python::LANGUAGE.into())
        .expect("tree-sitter-python matches the tree-sitter version");
    p
}

/// tree-sitter-python's own highlight query, compiled once (for the web
/// page's excerpts).
pub fn highlight_query() -> &'static tree_sitter::Query {
    static Q: std::sync::OnceLock<tree_sitter::Query> = std::sync::OnceLock::new();
    Q.get_or_init(|| {
        tree_sitter::Query::new(
            &tree_sitter_python::LANGUAGE.into(),
            tree_sitter_python::HIGHLIGHTS_QUERY,
        )
        .expect("tree-sitter-python's highlight query compiles")
    })
}

impl Extractor for PythonExtractor {
    fn language(&self) -> &'static str {
        "python"
    }

    fn handles(&self, path: &str) -> bool {
        path.ends_with(".py")
    }

    fn unit_of(&self, path: &str) -> String {
        paths::unit_of(path)
    }

    fn extract(&self, file: &SourceFile) -> FileExtraction {
        thread_local! {
            static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(parser());
        }
        PARSER.with_borrow_mut(|parser| {
            let Some(tree) = parser.parse(file.text.as_bytes(), None) else {
                return FileExtraction {
                    path: file.path.clone(),
                    ..FileExtraction::default()
                };
            };
            let root = tree.root_node();
            let mut w = walker::Walker::new(file);
            w.out.syntax_errors = errdex_syntax::count_errors(root);
            w.visit_module(root);
            w.finish()
        })
    }
}
