//! Many versions of one real crate as a git history: every published
//! version in order (from the registry, through cargo), one commit and tag
//! each; then `errdex index` of every tag, with and without the unchanged-
//! file path, and the history pass's time.
//!
//! `cargo bench -p errdex --bench versions [-- CRATE FIRST_PATCH LAST_PATCH]`
//! (default: serde_json 1.0.111 to 1.0.140, 30 versions).

mod repo;

use errdex_source::{load, SourceSpec};
use repo::git;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Indexes `rev` of `repo` into `db`; the `--json` summary.
fn index(db: &Path, repo: &Path, rev: &str, extra: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_errdex"))
        .env("ERRDEX_DB", db)
        .args(["index", "--json"])
        .args(extra)
        .arg(format!("{}@{rev}", repo.display()))
        .output()
        .expect("errdex runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON summary")
}

/// The catalogue's bytes on disk (the file and its write-ahead log).
fn db_size(db: &Path) -> u64 {
    ["", "-wal"]
        .iter()
        .filter_map(|x| std::fs::metadata(format!("{}{x}", db.display())).ok())
        .map(|m| m.len())
        .sum()
}

fn stats(xs: &[f64]) -> String {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    format!(
        "mean {:.3}s, median {:.3}s, max {:.3}s",
        mean,
        v[v.len() / 2],
        v[v.len() - 1]
    )
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let name = args.first().map_or("serde_json", String::as_str);
    let first: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(111);
    let last: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(140);
    let tmp = tempfile::tempdir().expect("a temp dir");
    let repo = tmp.path().join(name);
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"], None);

    let started = Instant::now();
    let mut tags = Vec::new();
    for patch in first..=last {
        let version = format!("1.0.{patch}");
        let Ok(s) = load(
            &SourceSpec::parse(&format!("crate:{name}@{version}")).unwrap(),
            &|p| p.ends_with(".rs"),
        ) else {
            eprintln!("{name}@{version}: not in the registry, left out");
            continue;
        };
        for e in std::fs::read_dir(&repo).unwrap().flatten() {
            if e.file_name() != ".git" {
                let p = e.path();
                if p.is_dir() {
                    std::fs::remove_dir_all(p).unwrap();
                } else {
                    std::fs::remove_file(p).unwrap();
                }
            }
        }
        for f in &s.files {
            let p = repo.join(&f.path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, &f.text).unwrap();
        }
        git(&repo, &["add", "-A"], None);
        let subject = format!("{name} {version}");
        git(
            &repo,
            &["commit", "-q", "--allow-empty", "-m", &subject],
            s.meta.date.as_deref(),
        );
        git(&repo, &["tag", &format!("v{version}")], None);
        tags.push(format!("v{version}"));
    }
    println!(
        "{name}: {} versions as a git history, made in {:.1}s",
        tags.len(),
        started.elapsed().as_secs_f64()
    );

    let mut runs = Vec::new();
    for (label, extra) in [
        ("reusing unchanged files", &[][..]),
        ("parsing every file", &["--no-reuse"][..]),
    ] {
        let db = tmp.path().join(format!("{}.db", runs.len()));
        let mut seconds = Vec::new();
        let mut history = Vec::new();
        let mut reused = 0u64;
        let mut files = 0u64;
        let mut first_size = 0;
        for tag in &tags {
            let t = Instant::now();
            let s = index(&db, &repo, tag, extra);
            seconds.push(t.elapsed().as_secs_f64());
            if first_size == 0 {
                first_size = db_size(&db);
            }
            history.push(s["history"]["seconds"].as_f64().unwrap_or(0.0));
            reused += s["reused_files"].as_u64().unwrap_or(0);
            files += s["files"].as_u64().unwrap_or(0);
        }
        println!(
            "{label:>24}: per version {} (total {:.2}s); files reused {reused}/{files}",
            stats(&seconds),
            seconds.iter().sum::<f64>()
        );
        println!("{:>24}  history pass {}", "", stats(&history));
        let size = db_size(&db);
        println!(
            "{:>24}  catalogue {:.1} MB after the first version, {:.1} MB after {}: \
             {:.0} KB per further version ({:.1}% of the first)",
            "",
            first_size as f64 / 1e6,
            size as f64 / 1e6,
            tags.len(),
            size.saturating_sub(first_size) as f64 / 1e3 / (tags.len() - 1).max(1) as f64,
            size.saturating_sub(first_size) as f64 * 100.0
                / (tags.len() - 1).max(1) as f64
                / first_size as f64
        );
        runs.push(seconds.iter().sum::<f64>());
    }
    println!("ratio (reuse / full): {:.2}x the time", runs[0] / runs[1]);
    // One changed file against a full index of the same revision.
    let last_tag = tags.last().expect("versions");
    let one = repo.join("src/lib.rs");
    let mut text = std::fs::read_to_string(&one).unwrap();
    text.push_str("\n// one changed file\n");
    std::fs::write(&one, text).unwrap();
    git(&repo, &["commit", "-q", "-am", "one changed file"], None);
    let db = tmp.path().join("0.db");
    let t = Instant::now();
    let changed = index(&db, &repo, "HEAD", &["--no-history"]);
    let incremental = t.elapsed().as_secs_f64();
    let fresh = tmp.path().join("fresh.db");
    let t = Instant::now();
    index(&fresh, &repo, "HEAD", &["--no-history", "--no-reuse"]);
    let full = t.elapsed().as_secs_f64();
    println!(
        "one file changed after {last_tag}: re-index {incremental:.3}s ({} parsed) vs full index {full:.3}s: {:.2}x",
        changed["parsed_files"],
        incremental / full
    );
}
