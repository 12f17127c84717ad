//! A `compile_error!` under a Cargo feature's `cfg`: the page says what
//! to write in the user's own `Cargo.toml` (the feature on, through a
//! direct dependency when the crate comes in through another), and two
//! build errors whose texts differ only where the build fills them in
//! (`env!`) stay two errors with their own conditions. On a crate the
//! test writes, shaped like getrandom's backends.

mod common;

use common::{error_of, section, written_crate};
use errdex_analyze::{analyze, Analysis, SectionName};

const LIB: &str = r#"
cfg_if! {
    if #[cfg(feature = "custom")] {
        mod custom;
    } else if #[cfg(target_os = "none")] {
        cfg_if! {
            if #[cfg(feature = "wasm_js")] {
                mod wasm_js;
            } else {
                compile_error!(concat!(
                    "this target needs the \"wasm_js\" feature; see https://docs.rs/rng/",
                    env!("CARGO_PKG_VERSION"),
                    "/#webassembly"
                ));
            }
        }
    } else {
        compile_error!(concat!(
            "target is not supported; see https://docs.rs/rng/",
            env!("CARGO_PKG_VERSION"),
            "/#custom"
        ));
    }
}
"#;

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "rng", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "rng", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn a_build_error_without_a_feature_says_how_to_turn_it_on() {
    let a = analysed(
        "this target needs the \"wasm_js\" feature; see https://docs.rs/rng/{}/#webassembly",
    );
    let solutions = section(&a, SectionName::Solutions);
    assert!(
        // (A folder has no published version: `*`.)
        solutions.contains(
            "add `rng = { version = \"*\", features = [\"wasm_js\"] }` to your `Cargo.toml`"
        ) && solutions.contains("cargo tree -i rng"),
        "{solutions}"
    );
    // Its own conditions only: the outer arm it sits in holds.
    let when = section(&a, SectionName::When);
    assert!(
        !when.contains("`[cfg(target_os = \"none\")]` is false"),
        "{when}"
    );
}

#[test]
fn the_other_build_error_is_an_error_of_its_own() {
    let a = analysed("target is not supported; see https://docs.rs/rng/{}/#custom");
    let solutions = section(&a, SectionName::Solutions);
    assert!(!solutions.contains("wasm_js"), "{solutions}");
}
