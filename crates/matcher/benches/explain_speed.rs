//! Explain latency on a catalogue of over a million templates, side by
//! side with a linear scan that tries every template's matcher.
//!
//! The templates: every error of 14 real crates fetched through cargo
//! (extracted by errdex), then synthetic ones derived from them until there
//! are 1 000 000 distinct templates: each derived template is a real one
//! with about half its words replaced by words drawn from the real
//! templates' vocabulary (so word frequencies stay realistic). The queries:
//! the 61 captured real outputs of tests/corpus/raw, and messages rendered
//! from real templates with their holes filled.
//!
//! Three ways to answer, side by side: the index built in memory (as
//! every start did before it was persisted), the persisted index (saved,
//! then opened: mapped, records decoded and patterns compiled on first
//! use), and the linear scan.
//!
//! Run: `cargo bench -p errdex-match --bench explain_speed` (`-- --no-scan`
//! skips the slow baseline, `-- --rounds N` repeats the queries, `--
//! --slowest N` lists the N slowest queries, `-- --only TEXT` keeps only
//! the queries containing TEXT, to profile one class of them).

/// The allocator of the `errdex` binary, so that the bench measures what
/// it runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use errdex_extract::{extract_all, Extractor};
use errdex_lang_rust::RustExtractor;
use errdex_match::{normalize, Index, Key, Pattern};
use errdex_model::{MatchEntry, MatchSite, Template};
use errdex_source::{load, SourceSpec};
use std::path::Path;
use std::time::{Duration, Instant};

mod synth;
use synth::{derive, render, vocabulary, Rng, CRATES, TARGET};

fn rss_mb() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<f64>().ok())
        .map(|k| k / 1024.0)
        .unwrap_or(0.0)
}

fn entry(id: usize, repo: &str, template: Template, path: &str, line: u32) -> MatchEntry {
    MatchEntry {
        id: format!("{id:016x}"),
        repo: repo.to_string(),
        revision: "1".into(),
        snapshot_id: 1,
        kind: errdex_model::Kind::Panic,
        template,
        item_path: String::new(),
        sites: vec![MatchSite {
            path: path.to_string(),
            line,
            end_line: line,
            report_line: line,
            report_column: 1,
            reported_at_caller: false,
            is_test: false,
        }],
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Latencies of one index over the queries.
struct Latency {
    /// The first round (records decoded, patterns compiled as met).
    first: (Duration, Duration),
    p50: Duration,
    p99: Duration,
    matched: usize,
    /// A hash of every answer of the first round: two builds (or the two
    /// indexes) with the same digest answered alike.
    digest: u64,
    /// Each query's fastest time over the rounds, with its index, slowest
    /// first.
    slowest: Vec<(Duration, usize)>,
}

impl Latency {
    fn print(&self, what: &str, described: &str) {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{what}: explain over {described}: p50 {:.3} ms, p99 {:.3} ms (first round p50 {:.3} ms, p99 {:.3} ms), {} matched, answers digest {:016x}",
            ms(self.p50),
            ms(self.p99),
            ms(self.first.0),
            ms(self.first.1),
            self.matched,
            self.digest
        );
    }

    /// The `n` slowest queries (by their fastest round) and their first
    /// line.
    fn print_slowest(&self, n: usize, queries: &[String]) {
        for &(d, i) in self.slowest.iter().take(n) {
            let line = queries[i].lines().next().unwrap_or("");
            let line: String = line.chars().take(70).collect();
            println!("  {:.3} ms  #{i} {line}", d.as_secs_f64() * 1e3);
        }
    }
}

/// Runs every query `rounds` times.
fn measure(index: &Index, queries: &[String], rounds: usize) -> Latency {
    let mut lat = Vec::with_capacity(queries.len() * rounds);
    let mut first = Vec::new();
    let mut matched = 0;
    let mut digest = std::hash::DefaultHasher::new();
    let mut fastest = vec![Duration::MAX; queries.len()];
    for round in 0..rounds {
        for (i, q) in queries.iter().enumerate() {
            let t = Instant::now();
            let x = index.explain(q);
            lat.push(t.elapsed());
            fastest[i] = fastest[i].min(t.elapsed());
            if round == 0 {
                first.push(*lat.last().expect("just pushed"));
                matched += usize::from(x.matched());
                std::hash::Hash::hash(&format!("{x:?}"), &mut digest);
            }
        }
    }
    lat.sort();
    first.sort();
    let mut slowest: Vec<(Duration, usize)> = fastest.into_iter().zip(0..).collect();
    slowest.sort_by(|a, b| b.cmp(a));
    Latency {
        first: (percentile(&first, 0.5), percentile(&first, 0.99)),
        p50: percentile(&lat, 0.5),
        p99: percentile(&lat, 0.99),
        matched,
        digest: std::hash::Hasher::finish(&digest),
        slowest,
    }
}

fn main() {
    let mut real: Vec<Template> = Vec::new();
    let mut entries = Vec::new();
    for spec in CRATES {
        let s = load(&SourceSpec::parse(spec).unwrap(), &|p| {
            RustExtractor.handles(p)
        })
        .expect("crate loads");
        let x = extract_all(&RustExtractor, &s.files);
        for site in x.sites {
            if site.template.literal_len() > 0 {
                entries.push(entry(
                    entries.len(),
                    &s.meta.repo,
                    site.template.clone(),
                    &site.path,
                    site.report_line,
                ));
                real.push(site.template);
            }
        }
    }
    real.sort_by_key(|t| t.to_string());
    real.dedup();
    let vocab = vocabulary(&real);
    let real_count = real.len();
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut distinct = std::collections::HashSet::new();
    for t in &real {
        distinct.insert(t.clone());
    }
    while distinct.len() < TARGET {
        let t = derive(&real[rng.below(real.len())], &vocab, &mut rng);
        if distinct.insert(t.clone()) {
            let n = entries.len();
            entries.push(entry(
                n,
                "synthetic",
                t,
                "src/lib.rs",
                (n % 5000) as u32 + 1,
            ));
        }
    }
    let templates: Vec<Template> = distinct.into_iter().collect();
    println!(
        "catalogue: {} entries, {} distinct templates ({} real from {} crates, the rest derived)",
        entries.len(),
        templates.len(),
        real_count,
        CRATES.len()
    );

    let before = rss_mb();
    let t = Instant::now();
    let index = Index::build(entries, Vec::new());
    let build = t.elapsed();
    let after = rss_mb();
    println!(
        "index: built in {:.2} s, {} templates, +{:.0} MB resident",
        build.as_secs_f64(),
        index.templates(),
        after - before
    );

    // Queries: captured real outputs, and messages rendered from real templates.
    let mut queries: Vec<String> = Vec::new();
    let raw = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/raw");
    let mut files: Vec<_> = std::fs::read_dir(&raw)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        queries.push(std::fs::read_to_string(f).unwrap());
    }
    let captured = queries.len();
    for _ in 0..1000 {
        queries.push(render(&real[rng.below(real.len())], &mut rng));
    }
    // `--only TEXT`: only the queries that contain TEXT (to profile one
    // class of queries).
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    let captured = match &only {
        Some(text) => {
            let kept = queries[..captured]
                .iter()
                .filter(|q| q.contains(text.as_str()))
                .count();
            queries.retain(|q| q.contains(text.as_str()));
            kept
        }
        None => captured,
    };
    let rounds: usize = std::env::args()
        .skip_while(|a| a != "--rounds")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let described = format!(
        "{} queries ({captured} captured outputs, {} rendered), {rounds} rounds",
        queries.len(),
        queries.len() - captured
    );
    let memory = measure(&index, &queries, rounds);
    memory.print("in-memory index", &described);
    let slowest: usize = std::env::args()
        .skip_while(|a| a != "--slowest")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    memory.print_slowest(slowest, &queries);

    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("bench.xidx");
    let key = Key::new("bench", "1");
    let t = Instant::now();
    index.save(&file, &key).expect("the index saves");
    let saved = t.elapsed();
    drop(index);
    let size = std::fs::metadata(&file).map_or(0, |m| m.len());
    let before = rss_mb();
    let t = Instant::now();
    let opened = Index::open(&file, &key).expect("the index opens");
    let open = t.elapsed();
    println!(
        "persisted index: saved in {:.2} s ({:.0} MB), opened in {:.2} ms, +{:.0} MB resident after opening",
        saved.as_secs_f64(),
        size as f64 / 1e6,
        open.as_secs_f64() * 1e3,
        rss_mb() - before
    );
    let persisted = measure(&opened, &queries, rounds);
    persisted.print("persisted index", &described);
    persisted.print_slowest(slowest, &queries);
    println!(
        "persisted index: +{:.0} MB resident after the queries",
        rss_mb() - before
    );
    let p50 = persisted.p50;

    if std::env::args().any(|a| a == "--no-scan") {
        return;
    }
    // Baseline: every template's matcher tried on the message.
    let patterns: Vec<Pattern> = templates.iter().map(|t| Pattern::new(t, false)).collect();
    let mut scan = Vec::new();
    for q in queries.iter().step_by(queries.len() / 40) {
        let text = normalize(q);
        let t = Instant::now();
        let hits = patterns
            .iter()
            .filter(|p| p.full(&text).is_some() || p.within(&text).is_some())
            .count();
        scan.push(t.elapsed());
        std::hint::black_box(hits);
    }
    scan.sort();
    let scan50 = percentile(&scan, 0.5);
    println!(
        "linear scan over {} queries: p50 {:.1} ms, p99 {:.1} ms",
        scan.len(),
        scan50.as_secs_f64() * 1e3,
        percentile(&scan, 0.99).as_secs_f64() * 1e3
    );
    println!(
        "speed-up at p50: {:.0}× (persisted index), {:.0}× (in-memory index)",
        scan50.as_secs_f64() / p50.as_secs_f64(),
        scan50.as_secs_f64() / memory.p50.as_secs_f64()
    );
}
