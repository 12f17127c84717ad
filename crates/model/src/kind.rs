//! The kinds of error site errdex recognises.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// serde's `de::Error` constructors and the text their default impls
/// print (`{0}`, `{1}` are the arguments).
pub const SERDE_ERRORS: &[(&str, &str)] = &[
    ("invalid_type", "invalid type: {0}, expected {1}"),
    ("invalid_value", "invalid value: {0}, expected {1}"),
    ("invalid_length", "invalid length {0}, expected {1}"),
    ("unknown_variant", "unknown variant `{0}`, expected {1}"),
    ("unknown_field", "unknown field `{0}`, expected {1}"),
    ("missing_field", "missing field `{0}`"),
    ("duplicate_field", "duplicate field `{0}`"),
];

/// True when `item_path` is one of serde's default `Error` constructors
/// (`…::Error::invalid_type`): where the text of every call of it is
/// written.
pub fn is_serde_default(kind: Kind, item_path: &str) -> bool {
    kind == Kind::SerdeCustom
        && SERDE_ERRORS.iter().any(|(name, _)| {
            item_path
                .strip_suffix(name)
                .is_some_and(|p| p.ends_with("Error::"))
        })
}

/// What a site does to the program, in any language: the language-neutral
/// half of a [`Kind`] (whose other half is the language's own construct).
/// Code that is not about one language asks this, not the kind. The names
/// are the stable strings of `--json` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mechanism {
    /// Stops the program (or its build, or the thread) with a report: a
    /// panic, an exit after printing, a refused compilation.
    Abort,
    /// A checked condition that stops the program when false.
    Assert,
    /// Makes an error value and hands it to the caller: a returned `Err`,
    /// a raised exception.
    Raise,
    /// Adds context around another error, which follows it as its cause.
    Wrap,
    /// A log line; the program goes on.
    Log,
    /// A warning the runtime prints; the program goes on.
    Warning,
    /// The text an error type prints for itself (`Display`, `__str__`, its
    /// documented default message).
    Display,
    /// The printed shape of a value (derived `Debug`), not an error site.
    Shape,
}

impl Mechanism {
    /// Every mechanism, in declaration order.
    pub const ALL: [Mechanism; 8] = [
        Mechanism::Abort,
        Mechanism::Assert,
        Mechanism::Raise,
        Mechanism::Wrap,
        Mechanism::Log,
        Mechanism::Warning,
        Mechanism::Display,
        Mechanism::Shape,
    ];

    /// The stable name (`snake_case`).
    pub fn as_str(self) -> &'static str {
        match self {
            Mechanism::Abort => "abort",
            Mechanism::Assert => "assert",
            Mechanism::Raise => "raise",
            Mechanism::Wrap => "wrap",
            Mechanism::Log => "log",
            Mechanism::Warning => "warning",
            Mechanism::Display => "display",
            Mechanism::Shape => "shape",
        }
    }
}

impl fmt::Display for Mechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a site produces its message: a language's construct, with the
/// [`Mechanism`] it stands for. The names are the stable strings used in
/// the catalogue and in `--json` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `panic!`, with or without a message.
    Panic,
    /// `unreachable!`.
    Unreachable,
    /// `unimplemented!`.
    Unimplemented,
    /// `todo!`.
    Todo,
    /// `assert!` / `debug_assert!`.
    Assert,
    /// `assert_eq!` / `debug_assert_eq!`.
    AssertEq,
    /// `assert_ne!` / `debug_assert_ne!`.
    AssertNe,
    /// `.expect(msg)`: the message, then `: {err:?}` for a `Result`.
    Expect,
    /// `.expect_err(msg)`.
    ExpectErr,
    /// `.unwrap()`: std's fixed text, located by the method.
    Unwrap,
    /// `.unwrap_err()`.
    UnwrapErr,
    /// `Err(..)` carrying a message.
    ErrReturn,
    /// `.map_err(..)` producing a message.
    MapErr,
    /// `.ok_or(..)` / `.ok_or_else(..)` producing a message.
    OkOr,
    /// thiserror `#[error("..")]` on a type or variant.
    ErrorAttr,
    /// A write inside a hand-written `Display` impl of an error type.
    Display,
    /// A write inside a hand-written `Debug` impl of an error type.
    DebugImpl,
    /// `anyhow!`, `format_err!`, `eyre!`, `anyhow::Error::msg`.
    Anyhow,
    /// `bail!`.
    Bail,
    /// `ensure!`.
    Ensure,
    /// `.context(..)` / `.with_context(..)` / `.wrap_err(..)`.
    Context,
    /// `io::Error::new(kind, msg)` / `io::Error::other(msg)`.
    IoError,
    /// `serde::de::Error::custom(msg)` and its kin.
    SerdeCustom,
    /// A constructor of the crate's own error type called with a message.
    ErrorNew,
    /// `error!` of log or tracing.
    LogError,
    /// `warn!` of log or tracing.
    LogWarn,
    /// An info or debug log call (Python `logger.info(..)`): a message a
    /// program printed on its way, often about a failure it recovered from.
    LogInfo,
    /// `eprintln!` / `eprint!` followed by `process::exit`.
    Eprintln,
    /// `compile_error!`.
    CompileError,
    /// A struct whose derived `Debug` prints it (`Name`, `Name(..)`,
    /// `Name { field: .. }`): the declaration a `{:?}` of a value points to.
    DebugDerive,
    /// An enum variant whose derived `Debug` prints it: which error of an
    /// error enum a `{:?}` shows.
    DebugVariant,
    /// Python `raise X(msg)` (also `raise … from …`): an exception made
    /// with a message and raised.
    Raise,
    /// Python `warnings.warn(msg)`: printed as `path:line: Category: msg`.
    Warning,
    /// An exception class whose own text is its message: a default
    /// message attribute or the class docstring, printed when it is raised
    /// without arguments.
    ErrorDoc,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 34] = [
        Kind::Panic,
        Kind::Unreachable,
        Kind::Unimplemented,
        Kind::Todo,
        Kind::Assert,
        Kind::AssertEq,
        Kind::AssertNe,
        Kind::Expect,
        Kind::ExpectErr,
        Kind::Unwrap,
        Kind::UnwrapErr,
        Kind::ErrReturn,
        Kind::MapErr,
        Kind::OkOr,
        Kind::ErrorAttr,
        Kind::Display,
        Kind::DebugImpl,
        Kind::Anyhow,
        Kind::Bail,
        Kind::Ensure,
        Kind::Context,
        Kind::IoError,
        Kind::SerdeCustom,
        Kind::ErrorNew,
        Kind::LogError,
        Kind::LogWarn,
        Kind::LogInfo,
        Kind::Eprintln,
        Kind::CompileError,
        Kind::DebugDerive,
        Kind::DebugVariant,
        Kind::Raise,
        Kind::Warning,
        Kind::ErrorDoc,
    ];

    /// The stable name (`snake_case`).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Panic => "panic",
            Kind::Unreachable => "unreachable",
            Kind::Unimplemented => "unimplemented",
            Kind::Todo => "todo",
            Kind::Assert => "assert",
            Kind::AssertEq => "assert_eq",
            Kind::AssertNe => "assert_ne",
            Kind::Expect => "expect",
            Kind::ExpectErr => "expect_err",
            Kind::Unwrap => "unwrap",
            Kind::UnwrapErr => "unwrap_err",
            Kind::ErrReturn => "err_return",
            Kind::MapErr => "map_err",
            Kind::OkOr => "ok_or",
            Kind::ErrorAttr => "error_attr",
            Kind::Display => "display",
            Kind::DebugImpl => "debug_impl",
            Kind::Anyhow => "anyhow",
            Kind::Bail => "bail",
            Kind::Ensure => "ensure",
            Kind::Context => "context",
            Kind::IoError => "io_error",
            Kind::SerdeCustom => "serde_custom",
            Kind::ErrorNew => "error_new",
            Kind::LogError => "log_error",
            Kind::LogWarn => "log_warn",
            Kind::LogInfo => "log_info",
            Kind::Eprintln => "eprintln",
            Kind::CompileError => "compile_error",
            Kind::DebugDerive => "debug_derive",
            Kind::DebugVariant => "debug_variant",
            Kind::Raise => "raise",
            Kind::Warning => "warning",
            Kind::ErrorDoc => "error_doc",
        }
    }

    /// What the construct does, in any language's terms.
    pub fn mechanism(self) -> Mechanism {
        match self {
            Kind::Panic
            | Kind::Unreachable
            | Kind::Unimplemented
            | Kind::Todo
            | Kind::Expect
            | Kind::ExpectErr
            | Kind::Unwrap
            | Kind::UnwrapErr
            | Kind::Eprintln
            | Kind::CompileError => Mechanism::Abort,
            Kind::Assert | Kind::AssertEq | Kind::AssertNe => Mechanism::Assert,
            Kind::ErrReturn
            | Kind::MapErr
            | Kind::OkOr
            | Kind::Anyhow
            | Kind::Bail
            | Kind::Ensure
            | Kind::IoError
            | Kind::SerdeCustom
            | Kind::ErrorNew
            | Kind::Raise => Mechanism::Raise,
            Kind::Context => Mechanism::Wrap,
            Kind::LogError | Kind::LogWarn | Kind::LogInfo => Mechanism::Log,
            Kind::Warning => Mechanism::Warning,
            Kind::ErrorAttr | Kind::Display | Kind::DebugImpl | Kind::ErrorDoc => {
                Mechanism::Display
            }
            Kind::DebugDerive | Kind::DebugVariant => Mechanism::Shape,
        }
    }

    /// True for the printed shapes of values (a declaration, not a place
    /// that raises an error).
    pub fn is_debug_shape(self) -> bool {
        self.mechanism() == Mechanism::Shape
    }

    /// True for kinds that abort the thread with a panic report, whose header
    /// names a file and line.
    pub fn panics(self) -> bool {
        matches!(
            self,
            Kind::Panic
                | Kind::Unreachable
                | Kind::Unimplemented
                | Kind::Todo
                | Kind::Assert
                | Kind::AssertEq
                | Kind::AssertNe
                | Kind::Expect
                | Kind::ExpectErr
                | Kind::Unwrap
                | Kind::UnwrapErr
        )
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error returned when a string names no kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        write!(
            f,
            "unknown kind `{}` (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownKind {}

impl FromStr for Kind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(k.as_str().parse::<Kind>().unwrap(), k);
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
        }
        assert!("nope".parse::<Kind>().is_err());
    }

    #[test]
    fn every_mechanism_is_some_kinds_and_names_are_stable() {
        for m in Mechanism::ALL {
            assert!(Kind::ALL.iter().any(|k| k.mechanism() == m), "{m}");
            assert_eq!(serde_json::to_string(&m).unwrap(), format!("\"{m}\""));
        }
        // One construct of each language per mechanism it shares.
        assert_eq!(Kind::Unwrap.mechanism(), Mechanism::Abort);
        assert_eq!(Kind::Raise.mechanism(), Kind::ErrReturn.mechanism());
        assert_eq!(Kind::ErrorDoc.mechanism(), Kind::ErrorAttr.mechanism());
    }
}
