//! How many truth lines of a Python corpus the extracted sites cover.
//!
//! ```text
//! cargo run --release -p errdex-lang-python --example coverage -- \
//!     CASES.jsonl ROOT [--misses] [--only pkg,pkg]
//! ```
//! `ROOT` holds one folder per package, named `name==version`, with the
//! unzipped wheel inside (site-packages layout). A case's `truth[0]` is
//! covered when a site of the same package and path spans it, with ±3
//! lines of slack (the corpus's scoring rule); "any" counts any truth
//! entry, "from" also a site's `message_from` line. A case counts only
//! when its package is indexed at the case's version.

use errdex_extract::{extract_all_with, SourceFile};
use errdex_lang_python::PythonExtractor;
use errdex_model::Site;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Slack around a site's lines, as the corpus scores.
const SLACK: u32 = 3;

fn norm(pkg: &str) -> String {
    pkg.to_ascii_lowercase().replace(['_', '.'], "-")
}

fn read_py(dir: &Path, root: &Path, out: &mut Vec<SourceFile>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            read_py(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "py") {
            if let Ok(text) = std::fs::read_to_string(&p) {
                let rel = p.strip_prefix(root).unwrap_or(&p);
                out.push(SourceFile {
                    path: rel.to_string_lossy().replace('\\', "/"),
                    text,
                });
            }
        }
    }
}

fn covers(s: &Site, line: u32) -> bool {
    s.line.saturating_sub(SLACK) <= line && line <= s.end_line + SLACK
}

fn from_covers(s: &Site, path: &str, line: u32) -> bool {
    s.message_from.as_deref().is_some_and(|m| {
        m.rsplit_once(':').is_some_and(|(p, l)| {
            p == path && l.parse::<u32>().is_ok_and(|l| l.abs_diff(line) <= SLACK)
        })
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(cases), Some(root)) = (args.first(), args.get(1)) else {
        eprintln!("usage: coverage CASES.jsonl ROOT [--misses] [--only pkg,pkg]");
        std::process::exit(2);
    };
    let misses = args.iter().any(|a| a == "--misses");
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.split(',').map(norm).collect());

    // (package, version) → path → sites
    let mut sites: HashMap<(String, String), HashMap<String, Vec<Site>>> = HashMap::new();
    let mut texts: HashMap<(String, String, String), String> = HashMap::new();
    let mut total_sites = 0;
    let mut total_files = 0;
    let started = std::time::Instant::now();
    let mut dirs: Vec<_> = std::fs::read_dir(root)
        .expect("ROOT is a folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap_or_default().to_string_lossy();
        let pkg = norm(name.split("==").next().unwrap_or(&name));
        let version = name.split("==").nth(1).unwrap_or("").to_string();
        if only.as_ref().is_some_and(|o| !o.contains(&pkg)) {
            continue;
        }
        let mut files = Vec::new();
        read_py(&dir, &dir, &mut files);
        total_files += files.len();
        let x = extract_all_with(&PythonExtractor, &files, &|_| {});
        total_sites += x.sites.len();
        for f in files {
            texts.insert((pkg.clone(), version.clone(), f.path), f.text);
        }
        let by_path = sites.entry((pkg, version)).or_default();
        for s in x.sites {
            by_path.entry(s.path.clone()).or_default().push(s);
        }
    }
    eprintln!(
        "indexed {total_files} files, {total_sites} sites in {:.1}s",
        started.elapsed().as_secs_f64()
    );

    let text = std::fs::read_to_string(cases).expect("cases file reads");
    let (mut n, mut first, mut any, mut with_from) = (0, 0, 0, 0);
    let mut per_pkg: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("case is JSON");
        let truth: Vec<((String, String), String, u32)> = case["truth"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                (
                    (
                        norm(t["package"].as_str().unwrap_or("")),
                        t["version"].as_str().unwrap_or("").to_string(),
                    ),
                    t["path"].as_str().unwrap_or("").to_string(),
                    t["line"].as_u64().unwrap_or(0) as u32,
                )
            })
            .collect();
        let Some((key, path, tline)) = truth.first().cloned() else {
            continue;
        };
        if !sites.contains_key(&key) {
            continue;
        }
        let pkg = format!("{}=={}", key.0, key.1);
        n += 1;
        let hit = |(p, f, l): &((String, String), String, u32)| {
            sites
                .get(p)
                .and_then(|m| m.get(f))
                .is_some_and(|v| v.iter().any(|s| covers(s, *l)))
        };
        let from_hit = |(p, f, l): &((String, String), String, u32)| {
            sites
                .get(p)
                .into_iter()
                .flat_map(|m| m.values().flatten())
                .any(|s| from_covers(s, f, *l))
        };
        let h1 = hit(&truth[0]);
        let e = per_pkg.entry(pkg.clone()).or_default();
        e.0 += 1;
        if h1 {
            first += 1;
            e.1 += 1;
        }
        if truth.iter().any(hit) {
            any += 1;
        }
        if h1 || from_hit(&truth[0]) {
            with_from += 1;
        }
        if misses && !h1 {
            let src = texts
                .get(&(key.0.clone(), key.1.clone(), path.clone()))
                .and_then(|t| t.lines().nth(tline as usize - 1))
                .unwrap_or("?");
            println!(
                "MISS {} {path}:{tline}  {}",
                case["id"].as_str().unwrap_or(""),
                src.trim()
            );
        }
    }
    for (p, (cases, hits)) in &per_pkg {
        println!("{p:<26} {hits}/{cases}");
    }
    let pct = |k: u32| 100.0 * f64::from(k) / f64::from(n.max(1));
    println!(
        "truth[0] covered: {first}/{n} ({:.1}%); any truth entry: {any}/{n} ({:.1}%); truth[0] by site or message_from: {with_from}/{n} ({:.1}%)",
        pct(first),
        pct(any),
        pct(with_from)
    );
}
