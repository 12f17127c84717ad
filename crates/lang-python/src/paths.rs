//! What a file's path says: its dotted module name, its package, whether
//! it is test code.

/// The path without a leading `src/`.
fn without_src(path: &str) -> &str {
    path.strip_prefix("src/").unwrap_or(path)
}

/// The dotted module a file defines: `pkg/sub/mod.py` → `pkg.sub.mod`,
/// `pkg/__init__.py` → `pkg`, a leading `src/` dropped.
pub fn module_name(path: &str) -> String {
    let p = without_src(path);
    let p = p.strip_suffix(".py").unwrap_or(p);
    let p = p.strip_suffix("/__init__").unwrap_or(p);
    let p = if p == "__init__" { "" } else { p };
    p.replace('/', ".")
}

/// The top-level package folder of a file (`requests` for
/// `requests/adapters.py`, `src/pkg` for `src/pkg/a.py`); empty for a
/// module at the top.
pub fn unit_of(path: &str) -> String {
    let p = without_src(path);
    let prefix = &path[..path.len() - p.len()];
    match p.split_once('/') {
        Some((top, _)) => format!("{prefix}{top}"),
        None => String::new(),
    }
}

/// True for test files: under a `tests`/`test` folder, `test_*.py`,
/// `*_test.py`, `conftest.py`.
pub fn is_test_path(path: &str) -> bool {
    let mut parts = path.split('/');
    let file = parts.next_back().unwrap_or("");
    parts.any(|d| d == "tests" || d == "test")
        || file.starts_with("test_")
        || file.ends_with("_test.py")
        || file == "conftest.py"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_units_tests() {
        assert_eq!(module_name("requests/models.py"), "requests.models");
        assert_eq!(module_name("src/pkg/__init__.py"), "pkg");
        assert_eq!(module_name("xmltodict.py"), "xmltodict");
        assert_eq!(unit_of("requests/models.py"), "requests");
        assert_eq!(unit_of("src/pkg/a/b.py"), "src/pkg");
        assert_eq!(unit_of("xmltodict.py"), "");
        assert!(is_test_path("tests/test_x.py"));
        assert!(is_test_path("pkg/conftest.py"));
        assert!(is_test_path("pkg/a_test.py"));
        assert!(!is_test_path("pkg/testing.py"));
    }
}
