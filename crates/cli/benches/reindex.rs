//! Re-indexing a large real tree after one file changed, against a full
//! index of the same revision: the tree of `index_speed` (tokio,
//! regex-automata, clap_builder, regex-syntax, syn, hyper from the
//! registry; 853 `.rs` files, 12 MB) as a git repository of two commits,
//! the second changing one file; both indexed by the real binary
//! (`--no-history`: the history pass is the same in both and measured by
//! the `versions` bench).
//!
//! `cargo bench -p errdex --bench reindex [-- ROUNDS]` (default 7 rounds,
//! the two runs alternating; medians).

mod common;
mod repo;
#[path = "../../lang-rust/benches/tree/mod.rs"]
mod tree;

use common::{errdex, ok};
use errdex_source::{load, SourceSpec};
use repo::git;
use std::path::Path;
use std::time::Instant;
use tree::CRATES;

/// The file the second commit changes (a new error site in it).
const CHANGED: &str = "tokio-1.47.1/src/sync/mpsc/error.rs";

/// Seconds `errdex index` of `rev` into `db` takes; its `--json` summary.
fn index(db: &Path, repo: &Path, rev: &str) -> (f64, serde_json::Value) {
    let mut c = errdex(&db.display().to_string());
    c.args(["index", "--json", "--no-history"])
        .arg(format!("{}@{rev}", repo.display()));
    let t = Instant::now();
    let out = ok(c);
    let seconds = t.elapsed().as_secs_f64();
    (seconds, serde_json::from_str(&out).expect("a JSON summary"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(7);
    let tmp = tempfile::tempdir().expect("a temp dir");
    let repo = tmp.path().join("tree");
    std::fs::create_dir_all(&repo).unwrap();
    let mut bytes = 0;
    for spec in CRATES {
        let s =
            load(&SourceSpec::parse(spec).unwrap(), &|p| p.ends_with(".rs")).expect("crate loads");
        let folder = spec.trim_start_matches("crate:").replace('@', "-");
        for f in &s.files {
            let p = repo.join(&folder).join(&f.path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, &f.text).unwrap();
            bytes += f.text.len();
        }
    }
    git(&repo, &["init", "-q"], None);
    git(&repo, &["add", "-A"], None);
    git(&repo, &["commit", "-q", "-m", "the tree"], None);
    let changed = repo.join(CHANGED);
    let mut text = std::fs::read_to_string(&changed).expect("the changed file");
    text.push_str("\n/// Added by the bench.\npub fn checked(n: usize) {\n    assert!(n > 0, \"n must be positive, got {n}\");\n}\n");
    std::fs::write(&changed, text).unwrap();
    git(&repo, &["commit", "-q", "-am", "one changed file"], None);
    println!(
        "tree: {} crates, {:.1} MB of Rust, a second commit changing {CHANGED}",
        CRATES.len(),
        bytes as f64 / 1e6
    );

    let (mut full, mut re) = (Vec::new(), Vec::new());
    let mut parsed = serde_json::Value::Null;
    for round in 0..rounds {
        let fresh = tmp.path().join(format!("full{round}.db"));
        full.push(index(&fresh, &repo, "HEAD").0);
        let db = tmp.path().join(format!("re{round}.db"));
        index(&db, &repo, "HEAD~1");
        let (seconds, summary) = index(&db, &repo, "HEAD");
        re.push(seconds);
        parsed = summary["parsed_files"].clone();
    }
    let (full, re) = (median(full), median(re));
    println!("| run | s (median of {rounds}) | × full index |");
    println!("|---|---:|---:|");
    println!("| full index of the second commit | {full:.3} | 1.00 |");
    println!(
        "| re-index after the first commit ({parsed} file parsed) | {re:.3} | {:.3} |",
        re / full
    );
}
