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

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CRATES: &[&str] = &[
    "crate:tokio@1.47.1",
    "crate:regex-automata@0.4.9",
    "crate:clap_builder@4.5.47",
    "crate:regex-syntax@0.8.5",
    "crate:syn@2.0.106",
    "crate:hyper@1.7.0",
    "crate:serde_json@1.0.140",
    "crate:serde@1.0.219",
    "crate:semver@1.0.26",
    "crate:http@1.3.1",
    "crate:humantime@2.2.0",
    "crate:url@2.5.4",
    "crate:base64@0.22.1",
    "crate:uuid@1.17.0",
];
/// Distinct templates in the catalogue.
const TARGET: usize = 1_000_000;
/// Generated functions per file.
const PER_FILE: usize = 1000;

fn errdex(db: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_errdex"));
    c.arg("--db").arg(db);
    c
}

fn ok(mut c: Command) -> String {
    let out = c.output().expect("errdex runs");
    assert!(
        out.status.success(),
        "{:?}: {}",
        c,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A piece of a template as `list` shows it (`{{` for a brace).
enum Part {
    Lit(String),
    Hole,
}

/// Splits a shown template into literal text and holes.
fn parts(shown: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = shown.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                out.push(Part::Lit(std::mem::take(&mut lit)));
                out.push(Part::Hole);
            }
            c => lit.push(c),
        }
    }
    out.push(Part::Lit(lit));
    out
}

/// A real template with about half its words swapped for vocabulary
/// words, as the arguments of `panic!`: a string literal and one argument
/// per hole.
fn derived_call(real: &[Part], vocab: &[String], rng: &mut Rng) -> String {
    let mut format = String::new();
    let mut holes = 0;
    for p in real {
        match p {
            Part::Hole => {
                format.push_str("{}");
                holes += 1;
            }
            Part::Lit(s) => {
                for (i, w) in s.split(' ').enumerate() {
                    if i > 0 {
                        format.push(' ');
                    }
                    let w = if w.len() >= 2 && rng.below(2) == 0 {
                        &vocab[rng.below(vocab.len())]
                    } else {
                        w
                    };
                    for c in w.chars() {
                        match c {
                            '{' => format.push_str("{{"),
                            '}' => format.push_str("}}"),
                            c => format.extend(c.escape_default()),
                        }
                    }
                }
            }
        }
    }
    let mut call = format!("\"{format}\"");
    for _ in 0..holes {
        call.push_str(", x");
    }
    call
}

/// A message a template prints, holes filled.
fn render(real: &[Part], rng: &mut Rng) -> String {
    let mut s = String::new();
    for p in real {
        match p {
            Part::Lit(l) => s.push_str(l),
            Part::Hole => s.push_str(&format!("v{}", rng.below(1000))),
        }
    }
    s
}

/// The real crates' templates outside tests, as `list --json` shows them.
fn real_templates(db: &Path) -> Vec<String> {
    let list: serde_json::Value = serde_json::from_str(&ok({
        let mut c = errdex(db);
        c.args(["list", "--json"]);
        c
    }))
    .expect("list prints JSON");
    let mut out: Vec<String> = list
        .as_array()
        .expect("a list")
        .iter()
        .filter(|e| e["is_test"] == false && e["repo"] != "bench/derived")
        .filter_map(|e| e["template"].as_str().map(str::to_string))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Indexes the real crates, then a folder of derived templates.
fn build(dir: &Path, db: &Path) {
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
    let real = real_templates(db);
    let vocab: Vec<String> = {
        let mut v: Vec<String> = real
            .iter()
            .flat_map(|t| {
                parts(t)
                    .into_iter()
                    .filter_map(|p| match p {
                        Part::Lit(l) => Some(l),
                        Part::Hole => None,
                    })
                    .collect::<Vec<_>>()
            })
            .flat_map(|l| l.split(' ').map(str::to_string).collect::<Vec<_>>())
            .filter(|w| w.len() >= 3 && w.chars().all(char::is_alphanumeric))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let real: Vec<Vec<Part>> = real.iter().map(|t| parts(t)).collect();
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
        let call = derived_call(&real[rng.below(real.len())], &vocab, &mut rng);
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
fn explain(db: &Path, text: &str, json: bool) -> (Duration, String) {
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
    let db: PathBuf = dir.join("catalogue.sqlite");
    let marker = dir.join("built");
    if args.iter().any(|a| a == "--fresh") || !marker.exists() {
        build(&dir, &db);
        std::fs::write(&marker, "").unwrap();
    }
    let mut rng = Rng(0x2545f4914f6cdd1d);
    let real: Vec<Vec<Part>> = real_templates(&db).iter().map(|t| parts(t)).collect();
    let questions: Vec<String> = (0..runs)
        .map(|_| render(&real[rng.below(real.len())], &mut rng))
        .collect();

    // The index as the first question finds it, and what it holds.
    let (_, first) = explain(&db, &questions[0], true);
    let record: serde_json::Value = serde_json::from_str(&first).expect("explain prints JSON");
    let info = &record["index"];
    println!(
        "catalogue: {} templates, {} entries ({} MB, explain index {} MB)",
        info["templates"],
        info["entries"],
        std::fs::metadata(&db).map_or(0, |m| m.len()) / 1_000_000,
        std::fs::metadata(dir.join("catalogue.sqlite.xidx")).map_or(0, |m| m.len()) / 1_000_000,
    );

    // The floor: a process that starts and prints its version.
    let mut floor: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            ok({
                let mut c = errdex(&db);
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
        let (wall, out) = explain(&db, q, false);
        walls.push(wall);
        answered += usize::from(!out.contains("not explained by the index"));
        let (_, json) = explain(&db, q, true);
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
        let (wall, _) = explain(&db, q, false);
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
