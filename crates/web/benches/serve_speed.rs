//! wrk on loopback: the error page and `POST /api/explain` of `errdex
//! serve`, side by side in the same run with an axum hello-world (same
//! runtime, same machine). Needs `wrk` (Debian package).
//!
//! `cargo bench -p errdex-web --bench serve_speed [-- SECONDS]`

use errdex_catalog::{Catalog, SnapshotInput};
use errdex_extract::{extract_all_reusing, Extractor};
use errdex_lang_rust::RustExtractor;
use errdex_source::{load, SourceSpec};
use std::process::Command;
use std::sync::Arc;

/// What wrk measured.
struct Run {
    rps: f64,
    p50_ms: f64,
    p99_ms: f64,
}

fn ms(s: &str) -> f64 {
    let s = s.trim();
    if let Some(v) = s.strip_suffix("us") {
        v.parse::<f64>().unwrap_or(f64::NAN) / 1000.0
    } else if let Some(v) = s.strip_suffix("ms") {
        v.parse().unwrap_or(f64::NAN)
    } else if let Some(v) = s.strip_suffix('s') {
        v.parse::<f64>().unwrap_or(f64::NAN) * 1000.0
    } else {
        f64::NAN
    }
}

fn wrk(url: &str, seconds: u32, script: Option<&std::path::Path>) -> Run {
    let mut c = Command::new("wrk");
    c.args(["-t2", "-c32", &format!("-d{seconds}s"), "--latency"]);
    if let Some(s) = script {
        c.arg("-s").arg(s);
    }
    let out = c
        .arg(url)
        .output()
        .expect("wrk (Debian package wrk) must be installed");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && !text.contains("Non-2xx"),
        "wrk failed:\n{text}"
    );
    let rps = text
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(f64::NAN);
    let pct = |p: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(p).map(ms))
            .unwrap_or(f64::NAN)
    };
    Run {
        rps,
        p50_ms: pct("50%"),
        p99_ms: pct("99%"),
    }
}

fn main() {
    let seconds: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(8);
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("bench.db");
    {
        let spec = SourceSpec::parse("crate:serde_json@1.0.140").unwrap();
        let s = load(&spec, &|p| RustExtractor.handles(p)).expect("serde_json through cargo");
        let r = extract_all_reusing(&RustExtractor, &s.files, &|_| None, &|_| {});
        let mut c = Catalog::open(&db.clone().into()).unwrap();
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
    let id = Catalog::open_read_only(&db.clone().into())
        .unwrap()
        .list_errors(Some("crate:serde_json"), None)
        .unwrap()
        .into_iter()
        .find(|e| e.template.starts_with("EOF while parsing a value"))
        .expect("a known serde_json error")
        .id;

    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (hello, errdex) = rt.block_on(async {
        let h = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let e = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (ha, ea) = (h.local_addr().unwrap(), e.local_addr().unwrap());
        tokio::spawn(async move {
            let app =
                axum::Router::new().route("/", axum::routing::get(|| async { "Hello, World!" }));
            axum::serve(h, app).await.unwrap();
        });
        let state =
            errdex_web::state::State::open(db.clone().into(), format!("http://{ea}")).unwrap();
        tokio::spawn(errdex_web::serve(
            e,
            Arc::new(state),
            errdex_web::Limits::default(),
        ));
        (format!("http://{ha}/"), format!("http://{ea}"))
    });
    let page = format!("{errdex}/errors/{id}");
    // The first render (analysis from the code, highlighting), then cached.
    let t = std::time::Instant::now();
    let first = ureq::get(&page)
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    assert!(first.contains("id=\"means\""));

    let script = tmp.path().join("post.lua");
    std::fs::write(
        &script,
        "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\n\
         wrk.body = '{\"text\": \"Error: EOF while parsing a value at line 1 column 0\"}'\n",
    )
    .unwrap();
    let h = wrk(&hello, seconds, None);
    let p = wrk(&page, seconds, None);
    let x = wrk(&format!("{errdex}/api/explain"), seconds, Some(&script));
    println!("wrk -t2 -c32 -d{seconds}s on loopback, 2 cores shared by wrk and the server");
    println!("| target | req/s | p50 ms | p99 ms | vs hello-world |");
    println!("|---|---:|---:|---:|---:|");
    for (name, r) in [
        ("axum hello-world", &h),
        ("error page (cached, ETag)", &p),
        ("POST /api/explain", &x),
    ] {
        println!(
            "| {name} | {:.0} | {:.2} | {:.2} | {:.0}% |",
            r.rps,
            r.p50_ms,
            r.p99_ms,
            100.0 * r.rps / h.rps
        );
    }
    println!("first render of the error page (analysis + highlighting): {first_ms:.1} ms");
}
