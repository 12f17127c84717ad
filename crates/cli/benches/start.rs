//! `errdex explain` as a user runs it, one process per question, on a
//! SQLite catalogue of a million templates: the whole start (process,
//! catalogue, persisted explain index), the answer and its excerpt,
//! side by side with the start that rebuilds the index from the catalogue
//! (what every start did before the index was persisted).
//!
//! The catalogue: 14 real crates indexed from the registry, and one folder
//! of generated Rust whose `panic!` sites carry templates derived from the
//! real ones (about half their words swapped for words of the real
//! templates' vocabulary) until there are a million distinct templates;
//! both indexed by the real binary. It is built once into the target
//! folder (`-- --fresh` builds it again). The questions: messages rendered
//! from the real crates' templates, holes filled.
//!
//! Run: `cargo bench -p errdex --bench start [-- --fresh] [-- --runs N]`.

mod common;
#[path = "../../matcher/benches/synth/mod.rs"]
mod synth;

use common::{errdex, ok};
use errdex_extract::{extract_all, Extractor};
use errdex_lang_rust::RustExtractor;
use errdex_model::{Kind, Piece, Template};
use errdex_source::{load, SourceSpec};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use synth::{derive, render, vocabulary, Rng, CRATES, TARGET};

/// Generated functions per file.
const PER_FILE: usize = 1000;

/// The real crates' templates outside tests, extracted as `index` does,
/// each with the kind of its first site.
fn real_templates() -> Vec<(Template, Kind)> {
    let mut real = Vec::new();
    for spec in CRATES {
        let s = load(&SourceSpec::parse(spec).expect("a crate spec"), &|p| {
            RustExtractor.handles(p)
        })
        .expect("the crate loads");
        let x = extract_all(&RustExtractor, &s.files);
        real.extend(
            x.sites
                .into_iter()
                .filter(|s| !s.is_test && s.template.literal_len() > 0)
                .map(|s| (s.template, s.kind)),
        );
    }
    real.sort_by_key(|(t, _)| t.to_string());
    real.dedup_by(|a, b| a.0 == b.0);
    real
}

/// A template as the arguments of `panic!`: a string literal and one
/// argument per hole.
fn panic_args(t: &Template) -> String {
    let mut format = String::new();
    let mut holes = 0;
    for p in t.pieces() {
        match p {
            Piece::Hole(_) => {
                format.push_str("{}");
                holes += 1;
            }
            Piece::Lit(s) => {
                for c in s.chars() {
                    match c {
                        '{' => format.push_str("{{"),
                        '}' => format.push_str("}}"),
                        c => format.extend(c.escape_default()),
                    }
                }
            }
        }
    }
    format!("\"{format}\"{}", ", x".repeat(holes))
}

/// Indexes the real crates, then a folder of templates derived from
/// `real`.
fn build(dir: &Path, db: &str, real: &[Template]) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let t = Instant::now();
    ok({
        let mut c = errdex(db);
        c.arg("index").args(CRATES);
        c
    });
    println!(
        "indexed {} real crates in {:.1} s",
        CRATES.len(),
        t.elapsed().as_secs_f64()
    );
    let vocab = vocabulary(real);
    let folder = dir.join("derived");
    std::fs::create_dir_all(folder.join("src")).unwrap();
    std::fs::write(
        folder.join("Cargo.toml"),
        "[package]\nname = \"derived\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut calls = HashSet::new();
    let wanted = TARGET - real.len();
    let mut file = None;
    let mut n = 0;
    while calls.len() < wanted {
        let t = derive(&real[rng.below(real.len())], &vocab, &mut rng);
        let call = panic_args(&t);
        if !calls.insert(call.clone()) {
            continue;
        }
        if n % PER_FILE == 0 {
            let path = folder.join(format!("src/m{}.rs", n / PER_FILE));
            file = Some(std::io::BufWriter::new(
                std::fs::File::create(path).unwrap(),
            ));
        }
        let f = file.as_mut().expect("a file is open");
        writeln!(
            f,
            "pub fn f{n}(x: u32) {{\n    if x > 1 {{\n        panic!({call});\n    }}\n}}"
        )
        .unwrap();
        n += 1;
    }
    drop(file);
    let t = Instant::now();
    ok({
        let mut c = errdex(db);
        c.arg("index")
            .arg(&folder)
            .args(["--name", "bench/derived"]);
        c
    });
    println!(
        "indexed {n} generated sites ({} files) in {:.1} s, the explain index refreshed",
        n.div_ceil(PER_FILE),
        t.elapsed().as_secs_f64()
    );
}

/// One `errdex explain` process answering `text`: its wall time and output.
fn explain(db: &str, text: &str, json: bool) -> (Duration, String) {
    let mut c = errdex(db);
    c.arg("explain");
    if json {
        c.arg("--json");
    }
    c.arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let t = Instant::now();
    let mut child = c.spawn().expect("errdex starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let took = t.elapsed();
    (took, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args
        .iter()
        .skip_while(|a| *a != "--runs")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("start-bench");
    let path = dir.join("catalogue.sqlite");
    let db = path.to_str().expect("a UTF-8 target folder");
    let marker = dir.join("built");
    let real = real_templates();
    if args.iter().any(|a| a == "--fresh") || !marker.exists() {
        let templates: Vec<Template> = real.iter().map(|(t, _)| t.clone()).collect();
        build(&dir, db, &templates);
        std::fs::write(&marker, "").unwrap();
    }
    // The questions: the crates' own words (not std's text of an `unwrap`
    // or an `assert_eq!`, which only a report's location can place).
    let own: Vec<&Template> = real
        .iter()
        .filter(|(_, k)| {
            !matches!(
                k,
                Kind::Unwrap | Kind::UnwrapErr | Kind::AssertEq | Kind::AssertNe
            )
        })
        .map(|(t, _)| t)
        .collect();
    let mut rng = Rng(0x2545f4914f6cdd1d);
    // Messages of three words or more (`{}: {}` explains nothing).
    let questions: Vec<String> =
        std::iter::repeat_with(|| render(own[rng.below(own.len())], &mut rng))
            .filter(|m| m.split_whitespace().count() >= 3)
            .take(runs)
            .collect();

    // The index as the first question finds it, and what it holds.
    let (_, first) = explain(db, &questions[0], true);
    let record: serde_json::Value = serde_json::from_str(&first).expect("explain prints JSON");
    let info = &record["index"];
    println!(
        "catalogue: {} templates, {} entries ({} MB, explain index {} MB)",
        info["templates"],
        info["entries"],
        std::fs::metadata(&path).map_or(0, |m| m.len()) / 1_000_000,
        std::fs::metadata(dir.join("catalogue.sqlite.xidx")).map_or(0, |m| m.len()) / 1_000_000,
    );

    // The floor: a process that starts and prints its version.
    let mut floor: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            ok({
                let mut c = errdex(db);
                c.arg("--version");
                c
            });
            t.elapsed()
        })
        .collect();
    floor.sort();

    // Each question in a process of its own, text output with the excerpt.
    let mut walls = Vec::new();
    let mut opened = Vec::new();
    let mut answered = 0;
    for q in &questions {
        let (wall, out) = explain(db, q, false);
        walls.push(wall);
        if out.contains("not explained by the index") {
            println!("  not answered: {}", q.lines().next().unwrap_or(""));
        } else {
            answered += 1;
        }
        let (_, json) = explain(db, q, true);
        let r: serde_json::Value = serde_json::from_str(&json).expect("explain prints JSON");
        assert_eq!(r["index"]["built"], "from its file", "the index is opened");
        opened.push(r["index"]["build_ms"].as_f64().unwrap_or(f64::NAN));
    }
    walls.sort();
    opened.sort_by(f64::total_cmp);
    let p = |v: &[Duration], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    println!(
        "explain, one process per question ({runs} questions, {answered} answered): \
         wall p50 {:.1} ms, p99 {:.1} ms; of which the index obtained in p50 {:.2} ms; \
         process floor (`--version`) p50 {:.1} ms",
        ms(p(&walls, 0.5)),
        ms(p(&walls, 0.99)),
        opened[opened.len() / 2],
        ms(p(&floor, 0.5)),
    );

    // Before persistence every start rebuilt the index: remove the file,
    // so that the start rebuilds it from the catalogue (and saves it).
    let mut rebuilt = Vec::new();
    for q in questions.iter().take(2) {
        std::fs::remove_file(dir.join("catalogue.sqlite.xidx")).unwrap();
        let (wall, _) = explain(db, q, false);
        rebuilt.push(wall);
    }
    rebuilt.sort();
    println!(
        "explain rebuilding the index at start (as before persistence): wall {:.2} s (best of {}); \
         persisted start is {:.0}x faster",
        rebuilt[0].as_secs_f64(),
        rebuilt.len(),
        rebuilt[0].as_secs_f64() / p(&walls, 0.5).as_secs_f64(),
    );
}
