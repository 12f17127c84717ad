//! The languages errdex reads, each an [`Extractor`] found by file name.
//! A snapshot may hold several: each file goes to the extractor that
//! handles it, and the snapshot's language (part of every error's
//! identity) is the one most of its files are written in. A new language
//! plugs in here, and nowhere else in the app.

use errdex_extract::{Extractor, FileExtraction, SourceFile};
use errdex_lang_python::PythonExtractor;
use errdex_lang_rust::RustExtractor;

/// Every language's extractor, in the order they are asked.
const ALL: [&(dyn Extractor + 'static); 2] = [&RustExtractor, &PythonExtractor];

/// True when some language reads the file.
pub fn handles(path: &str) -> bool {
    ALL.iter().any(|x| x.handles(path))
}

/// The fingerprint of every extractor together: per-file results cached
/// under it are reused only by a build whose extractors are all the same.
pub fn fingerprint() -> String {
    format!(
        "{}+rs{}+py{}",
        errdex_extract::FINGERPRINT,
        errdex_lang_rust::FINGERPRINT,
        errdex_lang_python::FINGERPRINT
    )
}

/// The extractors of one snapshot: each file to its language's.
#[derive(Clone, Copy)]
pub struct Languages {
    primary: &'static dyn Extractor,
}

impl Languages {
    /// The languages of `files`, the snapshot's own being the one most of
    /// them are written in (Rust when none is).
    pub fn of(files: &[SourceFile]) -> Self {
        let primary = ALL
            .iter()
            .copied()
            .enumerate()
            .max_by_key(|(i, x)| {
                let n = files.iter().filter(|f| x.handles(&f.path)).count();
                // Ties go to the first language.
                (n, usize::MAX - i)
            })
            .map_or(ALL[0], |(_, x)| x);
        Languages { primary }
    }

    /// Rust alone (a Cargo lock file's packages).
    pub fn rust() -> Self {
        Languages {
            primary: &RustExtractor,
        }
    }

    fn of_path(&self, path: &str) -> Option<&'static dyn Extractor> {
        if self.primary.handles(path) {
            return Some(self.primary);
        }
        ALL.iter().copied().find(|x| x.handles(path))
    }
}

impl Extractor for Languages {
    fn language(&self) -> &'static str {
        self.primary.language()
    }

    fn handles(&self, path: &str) -> bool {
        self.of_path(path).is_some()
    }

    fn extract(&self, file: &SourceFile) -> FileExtraction {
        match self.of_path(&file.path) {
            Some(x) => x.extract(file),
            None => FileExtraction::default(),
        }
    }

    fn unit_of(&self, path: &str) -> String {
        self.of_path(path).unwrap_or(self.primary).unit_of(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: String::new(),
        }
    }

    #[test]
    fn the_snapshot_language_is_the_most_files() {
        let py = [file("pkg/__init__.py"), file("pkg/a.py"), file("build.rs")];
        assert_eq!(Languages::of(&py).language(), "python");
        let rs = [file("src/lib.rs"), file("src/a.rs"), file("tools/gen.py")];
        let l = Languages::of(&rs);
        assert_eq!(l.language(), "rust");
        // Each file still goes to its own language.
        assert!(l.handles("tools/gen.py") && l.handles("src/a.rs"));
        assert!(!l.handles("README.md"));
        assert_eq!(Languages::of(&[]).language(), "rust");
    }
}
