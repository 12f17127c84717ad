//! What a file's path says about its code, as pure functions (the
//! matcher uses them without a parser).

/// Test code by path: a `tests/` or `benches/` folder at any depth, or a
/// `tests.rs`/`test.rs` file (the usual body of a `#[cfg(test)] mod
/// tests;`). Sites in such files are test code.
pub fn is_test_path(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    parts[..parts.len().saturating_sub(1)]
        .iter()
        .any(|p| matches!(*p, "tests" | "benches"))
        || parts
            .last()
            .is_some_and(|f| *f == "tests.rs" || *f == "test.rs")
}

/// Not library code by path: test code ([`is_test_path`]) or an
/// `examples/` folder at any depth. The analysis needs this wider notion:
/// an example calling a fn is no caller a library user goes through, yet
/// an error raised in an example is still not test code for extraction.
pub fn is_test_or_example_path(path: &str) -> bool {
    is_test_path(path) || path.split('/').any(|p| p == "examples")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        assert!(is_test_path("tests/it.rs"));
        assert!(is_test_path("crates/a/benches/b.rs"));
        assert!(is_test_path("src/a/tests.rs"));
        assert!(is_test_path("src/test.rs"));
        assert!(!is_test_path("src/tests_helper.rs"));
        assert!(!is_test_path("examples/demo.rs"));
        assert!(!is_test_path("src/lib.rs"));
    }

    #[test]
    fn example_paths() {
        assert!(is_test_or_example_path("examples/demo.rs"));
        assert!(is_test_or_example_path("crates/a/examples/x/main.rs"));
        assert!(is_test_or_example_path("tests/it.rs"));
        assert!(!is_test_or_example_path("src/example.rs"));
    }
}
