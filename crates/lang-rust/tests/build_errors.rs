//! `compile_error!` whose text is built by `concat!` with what the build
//! sets (`env!("CARGO_PKG_VERSION")`): the literals are the template, the
//! macro a hole (getrandom's unsupported-target error), inside `cfg_if!`.

mod common;

use errdex_model::Kind;

const CRATE: &str = r#"
cfg_if! {
    if #[cfg(feature = "js")] {
        mod js;
    } else {
        compile_error!(concat!(
            "The wasm32-unknown-unknown target is not supported by default; \
            enable the \"js\" feature. See: https://docs.rs/getrandom/",
            env!("CARGO_PKG_VERSION"),
            "/#webassembly-support"
        ));
    }
}
"#;

#[test]
fn a_concat_with_a_build_variable_is_a_template_with_a_hole() {
    let sites = common::lib_sites(CRATE);
    let site = sites
        .iter()
        .find(|s| s.kind == Kind::CompileError)
        .expect("the compile_error! site");
    assert_eq!(
        site.template.to_string(),
        "The wasm32-unknown-unknown target is not supported by default; enable the \"js\" feature. See: https://docs.rs/getrandom/{}/#webassembly-support"
    );
}

/// Holes printing integer constants take their values, aliases followed,
/// so the text tells versions apart (tree-sitter's language versions).
#[test]
fn integer_constants_print_their_values() {
    let sites = common::lib_sites(
        r#"
mod ffi {
    pub const TREE_SITTER_LANGUAGE_VERSION: usize = 14;
}
pub const LANGUAGE_VERSION: usize = ffi::TREE_SITTER_LANGUAGE_VERSION;
pub const MIN_COMPATIBLE_LANGUAGE_VERSION: usize = 0xd;
static mut LIMIT: usize = 3;
#[cfg(unix)]
const WIDTH: u32 = 8;
#[cfg(windows)]
const WIDTH: u32 = 16;

pub fn check(version: usize) {
    if version < MIN_COMPATIBLE_LANGUAGE_VERSION {
        panic!(
            "Incompatible language version {}. Expected minimum {}, maximum {}",
            version, MIN_COMPATIBLE_LANGUAGE_VERSION, LANGUAGE_VERSION,
        );
    }
    unsafe {
        if version > LIMIT {
            panic!("over the limit {LIMIT}, width {WIDTH}");
        }
    }
}
"#,
    );
    let texts: Vec<String> = sites.iter().map(|s| s.template.to_string()).collect();
    assert!(
        texts.contains(
            &"Incompatible language version {version}. Expected minimum 13, maximum 14".to_string()
        ),
        "{texts:?}"
    );
    // A `static mut`, and a const with a value per `cfg`, stay holes.
    assert!(
        texts.contains(&"over the limit {LIMIT}, width {WIDTH}".to_string()),
        "{texts:?}"
    );
}
