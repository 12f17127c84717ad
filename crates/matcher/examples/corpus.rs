//! Scores the matcher on a corpus of real outputs in one process (the
//! index is built once), with the rules of `shared/corpus/score.py`:
//! `matches[0]` (top-1) and `matches[0..3]` (top-3) against any truth
//! entry, ±3 lines. For development; `score.py` stays the measure.
//!
//! With `--persisted`, the answers come from the index saved to a file and
//! opened again (mapped, decoded on demand), and each is checked against
//! the in-memory index's. The digest of every answer tells whether two
//! builds answer alike.
//!
//! ```sh
//! cargo run --release -p errdex-match --example corpus -- DB CASES.jsonl [--persisted] [--show ID]...
//! ```

use errdex_catalog::Catalog;
use errdex_match::Index;
use serde_json::Value;
use std::collections::BTreeMap;

fn norm(s: &str) -> String {
    s.replace('-', "_").to_lowercase()
}

fn hit(m: &Value, truth: &[Value]) -> bool {
    let repo = m["repo"].as_str().unwrap_or("");
    let Some(krate) = repo.strip_prefix("crate:") else {
        return false;
    };
    let line = m["line"].as_i64().unwrap_or(0);
    let end = m["end_line"].as_i64().unwrap_or(line);
    truth.iter().any(|t| {
        norm(t["crate"].as_str().unwrap_or("")) == norm(krate)
            && m["revision"].as_str() == t["version"].as_str()
            && m["path"].as_str().unwrap_or("").trim_start_matches("./")
                == t["path"].as_str().unwrap_or("").trim_start_matches("./")
            && (line - 3..=end + 3).contains(&t["line"].as_i64().unwrap_or(-100))
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (db, cases) = (&args[0], &args[1]);
    let show: Vec<&String> = args
        .windows(2)
        .filter(|w| w[0] == "--show")
        .map(|w| &w[1])
        .collect();
    let catalog =
        Catalog::open_read_only(&std::path::Path::new(db).into()).expect("catalogue opens");
    let index = Index::from_data(catalog.match_data(None).expect("catalogue reads"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let persisted = args.iter().any(|a| a == "--persisted").then(|| {
        let (file, key) = (
            dir.path().join("c.xidx"),
            errdex_match::Key::new(db, "corpus"),
        );
        index.save(&file, &key).expect("the index saves");
        Index::open(&file, &key).expect("the index opens")
    });
    let mut differing = 0;
    if let Some(p) = &persisted {
        let inputs: Vec<String> = std::fs::read_to_string(cases)
            .expect("cases")
            .lines()
            .map(|l| {
                let c: Value = serde_json::from_str(l).expect("case");
                c["input"].as_str().unwrap_or("").to_string()
            })
            .collect();
        for (what, ix) in [
            ("in-memory", &index),
            ("persisted", p),
            ("in-memory", &index),
            ("persisted", p),
        ] {
            let t = std::time::Instant::now();
            for _ in 0..5 {
                for q in &inputs {
                    std::hint::black_box(ix.explain(q));
                }
            }
            eprintln!(
                "TIMING {what}: {:.3} ms per query",
                t.elapsed().as_secs_f64() * 1e3 / (5 * inputs.len()) as f64
            );
        }
    }
    let mut per: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    // The chains' top lines are the programs' own context (`Error: ctx`):
    // no indexed site wrote them.
    let (mut context, mut context_left) = (0, 0);
    let mut misses = Vec::new();
    // Every answer hashed: two builds with the same digest answered alike.
    let mut digest = std::hash::DefaultHasher::new();
    for line in std::fs::read_to_string(cases).expect("cases").lines() {
        let c: Value = serde_json::from_str(line).expect("case");
        let id = c["id"].as_str().unwrap_or("");
        let input = c["input"].as_str().unwrap_or("");
        let x = index.explain(input);
        let x = match &persisted {
            Some(p) => {
                let y = p.explain(input);
                differing += usize::from(y != x);
                y
            }
            None => x,
        };
        std::hash::Hash::hash(&format!("{x:?}"), &mut digest);
        let v = serde_json::to_value(&x).expect("serialises");
        let ms = v["matches"].as_array().cloned().unwrap_or_default();
        let truth = c["truth"].as_array().cloned().unwrap_or_default();
        let kind = c["input_kind"].as_str().unwrap_or("");
        if kind.ends_with("_chain") && !x.messages.is_empty() && x.messages[0].layer == 0 {
            context += 1;
            context_left += x.unexplained.contains(&0) as usize;
        }
        let t1 = ms.first().is_some_and(|m| hit(m, &truth));
        let t3 = ms.iter().take(3).any(|m| hit(m, &truth));
        let k = per
            .entry(c["input_kind"].as_str().unwrap_or("").to_string())
            .or_default();
        k[0] += 1;
        k[1] += t1 as usize;
        k[2] += t3 as usize;
        if !t1 {
            let got = ms.first().map_or("no match".to_string(), |m| {
                format!(
                    "{} {}:{} {}",
                    m["repo"], m["path"], m["line"], m["template"]
                )
            });
            let t = &truth[0];
            misses.push(format!(
                "{id} [{}] want {} {}:{} got {got}{}",
                c["input_kind"],
                t["crate"],
                t["path"],
                t["line"],
                if t3 { " (top3 ok)" } else { "" }
            ));
        }
        if show.iter().any(|s| *s == id) {
            println!("== {id}\n{}", c["input"].as_str().unwrap_or(""));
            println!("{}", serde_json::to_string_pretty(&v).expect("json"));
        }
    }
    let (mut n, mut a, mut b) = (0, 0, 0);
    for (kind, [k, t1, t3]) in &per {
        println!(
            "{kind:16} {k:4} {:6.3} {:6.3}",
            *t1 as f64 / *k as f64,
            *t3 as f64 / *k as f64
        );
        n += k;
        a += t1;
        b += t3;
    }
    for m in &misses {
        println!("  {m}");
    }
    println!("context lines left unexplained: {context_left}/{context}");
    println!("answers digest {:016x}", std::hash::Hasher::finish(&digest));
    if persisted.is_some() {
        println!("persisted index: {differing} answers differ from the in-memory index's");
    }
    println!(
        "top1={:.3} top3={:.3} n={n}",
        a as f64 / n as f64,
        b as f64 / n as f64
    );
}
