//! Prints what [`PythonExtractor`] finds in the given `.py` files: one
//! line per candidate site (kind, lines, item path, template), then the
//! constants and the count of free literals.
//!
//! ```text
//! cargo run -p errdex-lang-python --example dump -- FILE.py [FILE.py…]
//! ```

use errdex_extract::{Extractor, SourceFile};
use errdex_lang_python::PythonExtractor;

fn main() {
    for path in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let x = PythonExtractor.extract(&SourceFile {
            path: path.clone(),
            text,
        });
        for c in &x.candidates {
            let s = &c.site;
            println!(
                "{}:{}-{} (report {}) {} {:?} {} :: {}",
                path,
                s.line,
                s.end_line,
                s.report_line,
                s.kind,
                c.condition,
                s.item_path,
                s.template
            );
        }
        for k in &x.consts {
            println!("const {} = {} @ {}", k.name, k.template, k.location);
        }
        println!(
            "{path}: {} candidates, {} literals, {} docs, {} syntax errors",
            x.candidates.len(),
            x.literals.len(),
            x.docs.len(),
            x.syntax_errors
        );
    }
}
