//! Extraction recall and precision against hand labels: three real crates
//! not used elsewhere in the tests, every error site of three files of each
//! labelled by hand in `docs/labels/` (see its README for what counts).

use errdex_extract::{extract_all, Extractor};
use errdex_lang_rust::RustExtractor;
use errdex_source::{load, SourceSpec};
use std::path::Path;

const LABELLED: &[(&str, &[&str])] = &[
    (
        "semver@1.0.26",
        &["src/error.rs", "src/parse.rs", "src/identifier.rs"],
    ),
    (
        "http@1.3.1",
        &["src/uri/port.rs", "src/status.rs", "src/method.rs"],
    ),
    (
        "humantime@2.2.0",
        &["src/duration.rs", "src/wrapper.rs", "src/date.rs"],
    ),
];

fn labels(crate_at: &str, path: &str) -> Vec<(u32, String)> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/labels")
        .join(crate_at)
        .join(format!("{path}.labels"));
    std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split_whitespace();
            let line = parts.next().unwrap().parse().unwrap();
            (line, parts.next().unwrap().to_string())
        })
        .collect()
}

#[test]
fn recall_and_precision_against_hand_labels() {
    let (mut labelled, mut found, mut matched) = (0usize, 0usize, 0usize);
    println!("| crate | file | labelled | extracted | matched |");
    println!("|---|---|---:|---:|---:|");
    for (crate_at, paths) in LABELLED {
        let spec = SourceSpec::parse(&format!("crate:{crate_at}")).unwrap();
        let snapshot = load(&spec, &|p| RustExtractor.handles(p)).unwrap();
        let x = extract_all(&RustExtractor, &snapshot.files);
        for path in *paths {
            let want = labels(crate_at, path);
            let mut got: Vec<(u32, u32, String)> = x
                .sites
                .iter()
                .filter(|s| s.path == *path)
                .map(|s| (s.line, s.report_line, s.kind.as_str().to_string()))
                .collect();
            let extracted = got.len();
            let mut hits = 0;
            let mut missed = Vec::new();
            for (line, kind) in &want {
                match got
                    .iter()
                    .position(|(l, r, k)| k == kind && (l == line || r == line))
                {
                    Some(i) => {
                        got.swap_remove(i);
                        hits += 1;
                    }
                    None => missed.push(format!("{line} {kind}")),
                }
            }
            println!(
                "| {crate_at} | {path} | {} | {extracted} | {hits} |",
                want.len()
            );
            if !missed.is_empty() || !got.is_empty() {
                println!("  missed: {missed:?}; not labelled: {got:?}");
            }
            labelled += want.len();
            found += extracted;
            matched += hits;
        }
    }
    let recall = matched as f64 / labelled as f64;
    let precision = matched as f64 / found as f64;
    println!(
        "recall {:.1}% ({matched}/{labelled}), precision {:.1}% ({matched}/{found})",
        recall * 100.0,
        precision * 100.0
    );
    assert!(recall >= 0.99, "recall {recall}");
    assert!(precision >= 0.98, "precision {precision}");
}
