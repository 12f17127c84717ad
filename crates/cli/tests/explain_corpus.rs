//! `errdex explain` over a corpus of real outputs: tests/corpus/raw holds
//! what tests/corpus/generator printed when it triggered real errors of real
//! crates (pinned in its Cargo.lock); tests/corpus/fragments holds messages
//! cut or edited from those outputs, as a user types them from memory;
//! tests/corpus/expected.txt says where each message came from, found by
//! hand. The crates are indexed from the registry, the generator as a
//! folder, as a user would.

mod common;

use common::errdex;
use serde_json::Value;
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &[
    "crate:serde_json@1.0.140",
    "crate:serde@1.0.219",
    "crate:semver@1.0.26",
    "crate:http@1.3.1",
    "crate:humantime@2.2.0",
    "crate:url@2.5.4",
    "crate:base64@0.22.1",
    "crate:uuid@1.17.0",
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus")
}

#[test]
fn explain_finds_the_true_site_of_real_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let out = errdex(&db)
        .arg("index")
        .args(CRATES)
        .arg(corpus().join("generator"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let expected = std::fs::read_to_string(corpus().join("expected.txt")).unwrap();
    let (mut total, mut top1) = (0, 0);
    let mut failures = Vec::new();
    for line in expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (case, message, repo, path, want_line) = (
            f[0],
            f[1].parse::<usize>().unwrap(),
            f[2],
            f[3],
            f[4].parse::<u64>().unwrap(),
        );
        let file = ["raw", "fragments"]
            .iter()
            .map(|d| corpus().join(d).join(format!("{case}.txt")))
            .find(|p| p.exists())
            .unwrap();
        let input = std::fs::read(&file).unwrap();
        let out = errdex(&db)
            .args(["explain", "--json", "-"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{case}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
        total += 1;
        let best = answer["best"][message]
            .as_u64()
            .map(|i| &answer["matches"][i as usize]);
        let hit = best.is_some_and(|b| {
            b["repo"] == repo
                && b["path"] == path
                && b["line"].as_u64().unwrap() <= want_line
                && want_line <= b["end_line"].as_u64().unwrap()
        });
        if hit {
            top1 += 1;
        } else {
            let got = best
                .map(|b| format!("{} {} {}", b["repo"], b["path"], b["line"]))
                .unwrap_or_else(|| "nothing".into());
            failures.push(format!(
                "{case}#{message}: want {repo} {path} {want_line}, got {got}"
            ));
        }
    }
    let accuracy = top1 as f64 / total as f64;
    println!(
        "explain top-1 accuracy: {:.1}% ({top1}/{total})",
        accuracy * 100.0
    );
    for f in &failures {
        println!("  miss: {f}");
    }
    assert!(total >= 60, "the corpus has {total} messages");
    assert!(accuracy >= 0.95, "top-1 accuracy {accuracy}: {failures:#?}");
}
