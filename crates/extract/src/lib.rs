//! Extraction: per-language extractors turn source files into error sites
//! with message templates, plus the evidence and literals around them.
//!
//! Extraction never fails: a file yields what parses, and a count of syntax
//! errors. It knows nothing of storage; the catalogue consumes its output.

mod module_tree;
mod resolve;

pub use errdex_model::SourceFile;
use errdex_model::{Evidence, Literal, Site};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use errdex_model::{Extraction, SiteEvidence};
pub use module_tree::ModDecl;
pub use resolve::resolve;

/// The spec of a hole that stands for a macro invocation's tokens as
/// `stringify!` prints them (a macro body's `assert!($cond)`), filled in
/// by the resolution with the invocation's arguments.
pub const STRINGIFY: &str = "stringify";

/// A site whose keeping depends on facts about the whole snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    /// Always a site.
    Always,
    /// A site only when this type is an error type of the snapshot
    /// (`derive(Error)`, `impl Error for T`, or a name containing `Error`,
    /// such as `ErrorKind` or `ErrorCode`).
    ErrorType(String),
    /// A site only when this type is an error type by its own declaration
    /// (`impl Error`, a name containing `Error`), not merely held by one:
    /// the text of a `Position` printed inside an error's message is a
    /// part, not an error.
    NamedErrorType(String),
}

/// A site as one file sees it, before snapshot-wide resolution.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Candidate {
    /// The site.
    pub site: Site,
    /// When it counts.
    pub condition: Condition,
}

/// A `const`/`static` holding a message.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ConstDef {
    /// The const's name.
    pub name: String,
    /// Its text.
    pub template: errdex_model::Template,
    /// `path:line` where it is defined.
    pub location: String,
}

/// A `const`/`static` holding an integer a message may print
/// (`const LANGUAGE_VERSION: usize = 14;`, or another constant's name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberConst {
    /// The const's name.
    pub name: String,
    /// Its value.
    pub value: NumberValue,
}

/// What a numeric const is defined as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum NumberValue {
    /// An integer literal, in decimal (as `{}` and `{:?}` print it).
    Literal(String),
    /// Another constant, by its last path segment (`ffi::VERSION`).
    Alias(String),
}

/// An invocation of a macro that is not a known message macro; if the
/// snapshot defines it with error sites in its body, each is a site here.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MacroCall {
    /// The macro's name (last path segment).
    pub name: String,
    /// The site as it would be reported at this invocation (kind and
    /// template are filled from the macro body).
    pub proto: Site,
    /// The template of the invocation's own format arguments (first string
    /// literal argument and what follows), for bodies that pass them on.
    pub args_template: Option<errdex_model::Template>,
    /// The invocation's arguments as rustc prints tokens (what a body's
    /// `assert!($cond)` shows as its condition).
    pub args_text: String,
    /// Its arguments of the form `Name => "text"` (an identifier, then a
    /// string literal): what a [`MessageTable`] macro turns into messages.
    #[serde(default)]
    pub named_literals: Vec<NamedLiteral>,
}

/// A `Name => "text"` argument of a macro invocation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NamedLiteral {
    /// The identifier before the literal.
    pub name: String,
    /// The literal's text, decoded.
    pub text: String,
    /// The literal's line (1-based).
    pub line: u32,
    /// Its column (1-based, in characters).
    pub column: u32,
}

/// A `macro_rules!` that takes a repeated `$name:ident => $msg:expr` list
/// and writes each `$msg` in the arm `Type::$name` of a `Display` impl it
/// generates (url's `simple_enum_error!`): the string literals of its
/// invocations are the messages of `Type`'s variants.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MessageTable {
    /// The macro.
    pub macro_name: String,
    /// The type whose `Display` it generates.
    pub ty: String,
}

/// Everything one file yields.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FileExtraction {
    /// Sites found.
    pub candidates: Vec<Candidate>,
    /// String literals not used as a site's message.
    pub literals: Vec<Literal>,
    /// Message constants.
    pub consts: Vec<ConstDef>,
    /// `const`s and `static`s holding integers.
    pub numbers: Vec<NumberConst>,
    /// Names of types that are errors.
    pub error_types: Vec<String>,
    /// Each struct or enum declared here, with the type names its fields
    /// mention (`Box<Kind>` gives `Box` and `Kind`): what an error holds
    /// prints as part of it.
    pub type_fields: Vec<(String, Vec<String>)>,
    /// Derived-`Debug` candidates (by index in `candidates`) with the type
    /// name of each hole's field (`Cycle` for `Cycle<N>`), so a field whose
    /// type's `Debug` is derived too prints as that type's shape.
    pub debug_fields: Vec<(usize, Vec<String>)>,
    /// Invocations of other macros.
    pub macro_calls: Vec<MacroCall>,
    /// `macro_rules!` defined here that generate a `Display` impl from a
    /// list of messages.
    #[serde(default)]
    pub message_tables: Vec<MessageTable>,
    /// Modules declared `#[cfg(test)] mod name;` (their files are tests),
    /// as `root#module::path` keys (see `module_root`).
    pub test_modules: Vec<String>,
    /// The folder that roots this file's crate target (`src`, `tests`,
    /// `crates/x/src`), so module paths of different targets never collide.
    pub module_root: String,
    /// This file's module path.
    pub module_path: Vec<String>,
    /// This file's path in the snapshot.
    #[serde(default)]
    pub path: String,
    /// The out-of-line modules it declares (`mod name;`), also those
    /// written inside macros (`cfg_if!`).
    #[serde(default)]
    pub mods: Vec<ModDecl>,
    /// `#[should_panic(expected = ..)]` tests.
    pub should_panic: Vec<Evidence>,
    /// Doc comments of fns (with `# Panics`/`# Errors` sections split out).
    pub docs: Vec<Evidence>,
    /// Syntax errors met (the parts that parsed were still extracted).
    pub syntax_errors: usize,
    /// The file nests deeper than [`MAX_SYNTAX_DEPTH`](errdex_syntax::MAX_SYNTAX_DEPTH): nothing was
    /// extracted, and the file is to be skipped.
    #[serde(default)]
    pub too_deep: bool,
}

/// A language's extractor. One implementation per language, chosen by file
/// name; each is independent of the others.
pub trait Extractor: Sync {
    /// The language's stable name (`rust`).
    fn language(&self) -> &'static str;
    /// True when this extractor reads the file.
    fn handles(&self, path: &str) -> bool;
    /// Extracts one file.
    fn extract(&self, file: &SourceFile) -> FileExtraction;
    /// The compilation unit (crate, package) a file belongs to, as a folder
    /// path; tests are linked only to sites of their own unit.
    fn unit_of(&self, path: &str) -> String;
}

/// Identifies this build's extraction: a per-file result cached under one
/// fingerprint is reused only by a build with the same fingerprint.
pub const FINGERPRINT: &str = env!("ERRDEX_EXTRACT_FINGERPRINT");

impl FileExtraction {
    /// The stable bytes of this result, for a cache.
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("file extractions serialise")
    }

    /// Reads bytes written by [`FileExtraction::encode`] of the same
    /// [`FINGERPRINT`]; `None` when they do not decode.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

/// An extraction that reused earlier per-file results.
pub struct Reused {
    /// The snapshot's resolved extraction.
    pub extraction: Extraction,
    /// Files parsed this time (indices into the input), with their encoded
    /// per-file results, to cache for the next snapshot.
    pub parsed: Vec<(usize, Vec<u8>)>,
    /// Files whose earlier result was reused.
    pub reused: usize,
    /// Files (indices into the input) nested deeper than
    /// [`MAX_SYNTAX_DEPTH`](errdex_syntax::MAX_SYNTAX_DEPTH): nothing was taken from them; the caller skips
    /// them.
    pub too_deep: Vec<usize>,
}

/// [`extract_all_with`], taking the per-file result of an unchanged file
/// from `earlier` (by index into `files`) instead of parsing it again.
/// Per-file results depend only on the file's path and text, so the
/// snapshot-wide resolution sees exactly what a full extraction would.
pub fn extract_all_reusing(
    extractor: &dyn Extractor,
    files: &[SourceFile],
    earlier: &(dyn Fn(usize) -> Option<FileExtraction> + Sync),
    progress: &(dyn Fn(&str) + Sync),
) -> Reused {
    let per_file: Vec<(usize, FileExtraction, Option<Vec<u8>>)> = files
        .par_iter()
        .enumerate()
        .filter(|(_, f)| extractor.handles(&f.path))
        .map(|(i, f)| {
            let out = match earlier(i) {
                Some(x) => (i, x, None),
                None => {
                    let x = extractor.extract(f);
                    let bytes = x.encode();
                    (i, x, Some(bytes))
                }
            };
            progress(&f.path);
            out
        })
        .collect();
    let mut parsed = Vec::new();
    let mut too_deep = Vec::new();
    let mut reused = 0;
    let mut results = Vec::with_capacity(per_file.len());
    for (i, x, bytes) in per_file {
        match bytes {
            Some(b) => parsed.push((i, b)),
            None => reused += 1,
        }
        if x.too_deep {
            too_deep.push(i);
        } else {
            results.push(x);
        }
    }
    Reused {
        extraction: resolve(extractor, results),
        parsed,
        reused,
        too_deep,
    }
}

/// Runs `extractor` over every file it handles, in parallel, then resolves
/// snapshot-wide facts (constants, macros, error types, test modules).
pub fn extract_all(extractor: &dyn Extractor, files: &[SourceFile]) -> Extraction {
    extract_all_with(extractor, files, &|_| {})
}

/// [`extract_all`] calling `progress` after each file.
pub fn extract_all_with(
    extractor: &dyn Extractor,
    files: &[SourceFile],
    progress: &(dyn Fn(&str) + Sync),
) -> Extraction {
    let per_file: Vec<FileExtraction> = files
        .par_iter()
        .filter(|f| extractor.handles(&f.path))
        .map(|f| {
            let out = extractor.extract(f);
            progress(&f.path);
            out
        })
        .filter(|x| !x.too_deep)
        .collect();
    resolve(extractor, per_file)
}
