//! Indexing speed: tree-sitter-python parsing alone against
//! `PythonExtractor::extract` (parse + walk) on every `.py` file under
//! `ERRDEX_PY_BENCH_DIR`, one thread; prints both times and their ratio.
//!
//! ```text
//! ERRDEX_PY_BENCH_DIR=/tmp/pyx/sqlalchemy==2.1.9 cargo bench -p errdex-lang-python
//! ```

use errdex_extract::{Extractor, SourceFile};
use errdex_lang_python::{parser, PythonExtractor};
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs of each measurement; the fastest counts.
const RUNS: usize = 5;

fn read_py(dir: &Path, out: &mut Vec<SourceFile>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            read_py(&p, out);
        } else if p.extension().is_some_and(|x| x == "py") {
            if let Ok(text) = std::fs::read_to_string(&p) {
                out.push(SourceFile {
                    path: p.to_string_lossy().into_owned(),
                    text,
                });
            }
        }
    }
}

fn best(mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut n = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        n = std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    (best, n)
}

fn main() {
    let Ok(dir) = std::env::var("ERRDEX_PY_BENCH_DIR") else {
        println!("index_speed: set ERRDEX_PY_BENCH_DIR to a folder of .py files; skipped");
        return;
    };
    let mut files = Vec::new();
    read_py(Path::new(&dir), &mut files);
    let bytes: usize = files.iter().map(|f| f.text.len()).sum();
    println!(
        "{} .py files, {:.1} MB under {dir}",
        files.len(),
        bytes as f64 / 1e6
    );
    let mut p = parser();
    let (parse, _) = best(|| {
        files
            .iter()
            .filter_map(|f| p.parse(f.text.as_bytes(), None))
            .map(|t| t.root_node().child_count() as usize)
            .sum::<usize>()
    });
    let (extract, sites) = best(|| {
        files
            .iter()
            .map(|f| PythonExtractor.extract(f).candidates.len())
            .sum::<usize>()
    });
    println!(
        "parse only: {:.1} ms; extract: {:.1} ms ({sites} candidates); ratio {:.2}x",
        parse.as_secs_f64() * 1e3,
        extract.as_secs_f64() * 1e3,
        extract.as_secs_f64() / parse.as_secs_f64()
    );
}
