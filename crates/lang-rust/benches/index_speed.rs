//! Index speed on a large real tree fetched through cargo, side by side in
//! one run with the two baselines of the catalogue issue:
//!
//! - the scan limit: `rg` counting the trigger patterns over the same files;
//! - the parse floor: tree-sitter parsing every file, nothing else;
//!
//! then errdex's extraction alone, and the full index (extraction plus the
//! SQLite write). Both cores are used by each (rayon; rg's own threads);
//! one-thread runs show the parallel speed-up. Also prints the catalogue's
//! size against the source's.
//!
//! Run: `cargo bench -p errdex-lang-rust --bench index_speed` (needs `rg`).

mod tree;

use errdex_catalog::{Catalog, SnapshotInput};
use errdex_extract::{extract_all, extract_all_reusing, Extractor, SourceFile};
use errdex_lang_rust::RustExtractor;
use errdex_source::{load, SourceSpec};
use rayon::prelude::*;
use std::time::{Duration, Instant};
use tree::CRATES;

const TRIGGERS: &str = r"panic!|unreachable!|unimplemented!|todo!|assert|\.expect\(|\.unwrap|Err\(|map_err|ok_or|#\[error|impl.*Display|write!|writeln!|write_str|anyhow!|bail!|ensure!|context\(|Error::new|error!|warn!|eprintln!|compile_error!|::custom\(";

const RUNS: usize = 7;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time_once(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

fn time(mut f: impl FnMut()) -> Duration {
    median((0..RUNS).map(|_| time_once(&mut f)).collect())
}

fn parse_floor(files: &[SourceFile]) -> u32 {
    files
        .par_iter()
        .map_init(errdex_syntax::parser, |p, f| {
            p.parse(f.text.as_bytes(), None)
                .map(|t| t.root_node().child_count())
                .unwrap_or(0)
        })
        .sum()
}

/// The full index: extract each snapshot and write it (with its per-file
/// cache, as `errdex index` does) to a new catalogue.
fn index_all(db: &std::path::Path, snapshots: &[errdex_source::Snapshot]) {
    let mut c = Catalog::open(&db.into()).unwrap();
    for s in snapshots {
        let r = extract_all_reusing(&RustExtractor, &s.files, &|_| None, &|_| {});
        c.replace_snapshot(&SnapshotInput {
            meta: &s.meta,
            files: &s.files,
            extraction: &r.extraction,
            fingerprint: errdex_extract::FINGERPRINT,
            parsed: &r.parsed,
            origins: &[],
        })
        .unwrap();
    }
}

fn main() {
    let mut files = Vec::new();
    let mut snapshots = Vec::new();
    for spec in CRATES {
        let s = load(&SourceSpec::parse(spec).unwrap(), &|p| {
            RustExtractor.handles(p)
        })
        .expect("crate loads");
        for f in &s.files {
            files.push(SourceFile {
                path: format!("{}/{}", s.meta.repo.trim_start_matches("crate:"), f.path),
                text: f.text.clone(),
            });
        }
        snapshots.push(s);
    }
    let bytes: usize = files.iter().map(|f| f.text.len()).sum();
    println!(
        "tree: {} crates, {} files, {:.1} MB of Rust",
        CRATES.len(),
        files.len(),
        bytes as f64 / 1e6
    );

    let dir = tempfile::tempdir().unwrap();
    for f in &files {
        let p = dir.path().join(&f.path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, &f.text).unwrap();
    }
    // The steps alternate within each round, so that drift in the
    // machine's speed falls on all of them alike.
    let db_dir = tempfile::tempdir().unwrap();
    let (mut rg, mut parse, mut extract, mut index) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..RUNS {
        rg.push(time_once(|| {
            let out = std::process::Command::new("rg")
                .args(["-c", "--no-ignore", "-e", TRIGGERS])
                .arg(dir.path())
                .output()
                .expect("rg is installed (apt-get install ripgrep)");
            assert!(out.status.success());
        }));
        parse.push(time_once(|| {
            parse_floor(&files);
        }));
        extract.push(time_once(|| {
            extract_all(&RustExtractor, &files);
        }));
        index.push(time_once(|| {
            index_all(&db_dir.path().join(format!("run{round}.db")), &snapshots)
        }));
    }
    let (rg, parse, extract, index) = (median(rg), median(parse), median(extract), median(index));
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let parse1 = one.install(|| {
        time(|| {
            parse_floor(&files);
        })
    });
    let extract1 = one.install(|| {
        time(|| {
            extract_all(&RustExtractor, &files);
        })
    });

    let x = extract_all(&RustExtractor, &files);
    let db = db_dir.path().join("size.db");
    index_all(&db, &snapshots);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    drop(conn);
    let db_bytes = std::fs::metadata(&db).unwrap().len();

    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mbs = |d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();
    println!(
        "sites: {}, literals: {} (median of {RUNS} runs, {} threads)",
        x.sites.len(),
        x.literals.len(),
        rayon::current_num_threads()
    );
    println!("| step | ms | MB/s | × parse floor |");
    println!("|---|---:|---:|---:|");
    for (name, d) in [
        ("rg trigger scan (scan limit)", rg),
        ("tree-sitter parse (parse floor)", parse),
        ("errdex extract", extract),
        ("errdex index (extract + SQLite)", index),
        ("parse, 1 thread", parse1),
        ("extract, 1 thread", extract1),
    ] {
        println!(
            "| {name} | {:.0} | {:.1} | {:.2} |",
            ms(d),
            mbs(d),
            d.as_secs_f64() / parse.as_secs_f64()
        );
    }
    println!(
        "parallel speed-up: parse {:.2}×, extract {:.2}×",
        parse1.as_secs_f64() / parse.as_secs_f64(),
        extract1.as_secs_f64() / extract.as_secs_f64()
    );
    println!(
        "catalogue: {:.2} MB for {:.2} MB of source = {:.2}×",
        db_bytes as f64 / 1e6,
        bytes as f64 / 1e6,
        db_bytes as f64 / bytes as f64
    );
}
