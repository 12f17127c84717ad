//! Which files of a snapshot only documentation builds compile: the files
//! of modules declared under `#[cfg(doc)]` or `#[cfg(docsrs)]` (serde's
//! copy of serde_core under `src/core`, tokio's `src/doc`, rustix's
//! `not_implemented.rs`) that no other declaration reaches. A program never
//! runs their code, so no output a user pastes comes from them.
//!
//! Conservative by construction: only files a documentation-only
//! declaration names, or that lie in its module's folder, can be set
//! aside, and any of them an ordinary declaration reaches from the rest
//! of the tree (also one written inside a macro such as `cfg_if!`) stays.

use serde::{Deserialize, Serialize};
use std::collections::{HashSet, VecDeque};

/// An out-of-line module declaration (`mod name;`) of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModDecl {
    /// The inline modules around it (`mod a { mod b; }` gives `["a"]`).
    pub inline: Vec<String>,
    /// The module's name.
    pub name: String,
    /// Its `#[path = ".."]`, when given.
    pub path: Option<String>,
    /// Declared under a `cfg` only documentation builds set.
    pub docs_only: bool,
}

/// The parent folder of a path (`""` at the top).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `a/b` joined to `c` (either may be empty), `..` and `.` folded.
fn join(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Whether a file's child modules live in its own folder (`mod.rs`, a
/// crate root) rather than in a folder named after it.
fn owns_folder(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dir = parent(path);
    let dir_name = dir.rsplit('/').next().unwrap_or(dir);
    matches!(name, "mod.rs" | "lib.rs" | "main.rs" | "build.rs")
        || matches!(dir_name, "bin" | "tests" | "examples" | "benches")
}

/// The folder where the modules a file declares (inside `inline`) live.
fn children_folder(file: &str, inline: &[String]) -> String {
    let base = if owns_folder(file) {
        parent(file).to_string()
    } else {
        file.strip_suffix(".rs").unwrap_or(file).to_string()
    };
    join(&base, &inline.join("/"))
}

/// The files a declaration may name.
fn targets(file: &str, d: &ModDecl) -> Vec<String> {
    match &d.path {
        Some(p) if d.inline.is_empty() => vec![join(parent(file), p)],
        Some(p) => vec![join(&children_folder(file, &d.inline), p)],
        None => {
            let dir = children_folder(file, &d.inline);
            vec![
                join(&dir, &format!("{}.rs", d.name)),
                join(&dir, &format!("{}/mod.rs", d.name)),
            ]
        }
    }
}

/// The files (of `files`, each a path with its declarations) that only
/// documentation builds compile.
pub fn docs_only<'a>(files: &[(&'a str, &'a [ModDecl])]) -> HashSet<&'a str> {
    let paths: HashSet<&str> = files.iter().map(|(p, _)| *p).collect();
    let mut set_aside: HashSet<&str> = HashSet::new();
    for (file, decls) in files {
        for d in decls.iter().filter(|d| d.docs_only) {
            for t in targets(file, d) {
                let Some(&t) = paths.get(t.as_str()) else {
                    continue;
                };
                set_aside.insert(t);
                // The module's own folder: its children, declared or not
                // (a path module's folder only when it is not the
                // declaring file's own).
                let folder = if d.path.is_some() {
                    let own = parent(t);
                    (own != parent(file) && own.starts_with(parent(file))).then(|| own.to_string())
                } else {
                    Some(children_folder(t, &[]))
                };
                if let Some(folder) = folder.filter(|f| !f.is_empty()) {
                    let prefix = format!("{folder}/");
                    set_aside.extend(paths.iter().filter(|p| p.starts_with(&prefix)));
                }
            }
        }
    }
    if set_aside.is_empty() {
        return set_aside;
    }
    // What the rest of the tree reaches through ordinary declarations.
    let decls_of: std::collections::HashMap<&str, &[ModDecl]> = files.iter().copied().collect();
    let mut reached: HashSet<&str> = paths.difference(&set_aside).copied().collect();
    let mut queue: VecDeque<&str> = reached.iter().copied().collect();
    while let Some(file) = queue.pop_front() {
        for d in decls_of[file].iter().filter(|d| !d.docs_only) {
            for t in targets(file, d) {
                if let Some(&t) = paths.get(t.as_str()) {
                    if reached.insert(t) {
                        queue.push_back(t);
                    }
                }
            }
        }
    }
    set_aside.retain(|p| !reached.contains(p));
    set_aside
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(name: &str, path: Option<&str>, docs_only: bool) -> ModDecl {
        ModDecl {
            inline: Vec::new(),
            name: name.into(),
            path: path.map(Into::into),
            docs_only,
        }
    }

    fn run(files: &[(&'static str, Vec<ModDecl>)]) -> Vec<String> {
        let view: Vec<(&str, &[ModDecl])> = files.iter().map(|(p, d)| (*p, d.as_slice())).collect();
        let mut out: Vec<String> = docs_only(&view).into_iter().map(String::from).collect();
        out.sort();
        out
    }

    #[test]
    fn a_docs_path_module_sets_its_folder_aside() {
        // serde 1.0.229: `#[cfg(docsrs)] #[path = "core/crate_root.rs"]
        // mod crate_root;`, whose children are declared inside a macro.
        let files = vec![
            (
                "src/lib.rs",
                vec![
                    decl("crate_root", Some("core/crate_root.rs"), true),
                    decl("private", None, false),
                ],
            ),
            ("src/core/crate_root.rs", vec![]),
            ("src/core/de/mod.rs", vec![decl("impls", None, false)]),
            ("src/core/de/impls.rs", vec![]),
            ("src/private/mod.rs", vec![]),
        ];
        assert_eq!(
            run(&files),
            [
                "src/core/crate_root.rs",
                "src/core/de/impls.rs",
                "src/core/de/mod.rs"
            ]
        );
    }

    #[test]
    fn a_file_also_declared_for_programs_stays() {
        // curve25519-dalek: `#[cfg(docsrs)] pub mod backend;` beside
        // `#[cfg(not(docsrs))] pub(crate) mod backend;`.
        let files = vec![
            (
                "src/lib.rs",
                vec![decl("backend", None, true), decl("backend", None, false)],
            ),
            ("src/backend/mod.rs", vec![decl("serial", None, false)]),
            ("src/backend/serial.rs", vec![]),
        ];
        assert!(run(&files).is_empty());
        // tokio: `#[cfg(all(docsrs, unix))] pub mod doc;` (src/doc/os.rs).
        let files = vec![
            (
                "src/lib.rs",
                vec![decl("doc", None, true), decl("io", None, false)],
            ),
            ("src/doc/mod.rs", vec![decl("os", None, false)]),
            ("src/doc/os.rs", vec![]),
            ("src/io.rs", vec![]),
        ];
        assert_eq!(run(&files), ["src/doc/mod.rs", "src/doc/os.rs"]);
    }

    #[test]
    fn a_docs_module_next_to_others_takes_only_its_own_files() {
        // rustix: `#[cfg(doc)] pub mod not_implemented;` in src/lib.rs; a
        // path module in the declaring file's own folder takes no folder.
        let files = vec![
            (
                "src/lib.rs",
                vec![
                    decl("not_implemented", None, true),
                    decl("helpers", Some("doc_helpers.rs"), true),
                    decl("fs", None, false),
                ],
            ),
            ("src/not_implemented.rs", vec![]),
            ("src/doc_helpers.rs", vec![]),
            ("src/fs/mod.rs", vec![]),
            ("src/fs/abs.rs", vec![]),
        ];
        assert_eq!(
            run(&files),
            ["src/doc_helpers.rs", "src/not_implemented.rs"]
        );
    }

    #[test]
    fn paths_fold_parents_and_inline_modules() {
        assert_eq!(join("src/a", "../b/c.rs"), "src/b/c.rs");
        let d = ModDecl {
            inline: vec!["imp".into()],
            name: "unix".into(),
            path: None,
            docs_only: false,
        };
        assert_eq!(
            targets("src/sys.rs", &d),
            ["src/sys/imp/unix.rs", "src/sys/imp/unix/mod.rs"]
        );
    }
}
