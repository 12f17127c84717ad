//! std::fmt format strings: parsing into literal text and argument holes,
//! and binding holes to the call's arguments.

use errdex_model::{Hole, Template};

/// Which argument a placeholder refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgRef {
    /// `{}`: the next positional argument.
    Next,
    /// `{2}`: a positional argument by index.
    Index(usize),
    /// `{name}`: a named argument or an inline capture.
    Name(String),
}

/// One parsed piece of a format string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FmtPiece {
    /// Text printed as is (braces already unescaped).
    Lit(String),
    /// A placeholder.
    Arg {
        /// The argument it prints.
        arg: ArgRef,
        /// The spec after `:`, e.g. `?`, `>8.2`.
        spec: String,
    },
}

/// Parses a format string; `None` when it is malformed (rustc would reject
/// it, so it is not a format string the program uses).
pub fn parse(s: &str) -> Option<Vec<FmtPiece>> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                lit.push('}');
            }
            '}' => return None,
            '{' => {
                let mut inner = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        '{' => return None,
                        c => inner.push(c),
                    }
                }
                if !lit.is_empty() {
                    out.push(FmtPiece::Lit(std::mem::take(&mut lit)));
                }
                let (arg, spec) = match inner.split_once(':') {
                    Some((a, s)) => (a.trim(), s.to_string()),
                    None => (inner.trim(), String::new()),
                };
                let arg = if arg.is_empty() {
                    ArgRef::Next
                } else if let Ok(i) = arg.parse() {
                    ArgRef::Index(i)
                } else if arg.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    ArgRef::Name(arg.to_string())
                } else {
                    return None;
                };
                out.push(FmtPiece::Arg { arg, spec });
            }
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(FmtPiece::Lit(lit));
    }
    Some(out)
}

/// An argument expression passed to a formatting macro.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FmtArg {
    /// `name` of `name = expr`, for named arguments.
    pub name: Option<String>,
    /// The expression's source text.
    pub text: String,
    /// Its template when the expression is itself a message: a string
    /// literal (folded into the text) or a resolved local binding.
    pub value: Option<Template>,
    /// The value prints the same with `{:?}` as with `{}` (a number or a
    /// bool literal), so it folds under either.
    pub debug_same: bool,
}

/// How placeholders name their values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// `format!` and friends: positional arguments, named arguments, inline
    /// captures of variables in scope.
    Format,
    /// thiserror `#[error]`: `{0}` and `{name}` are fields of the value
    /// (`.0`, `.name`) unless extra arguments are given.
    Fields,
}

/// Builds the template of a format string with its arguments. Literal
/// arguments printed with `{}` are folded into the text.
pub fn bind(pieces: &[FmtPiece], args: &[FmtArg], naming: Naming) -> Template {
    let positional: Vec<&FmtArg> = args.iter().filter(|a| a.name.is_none()).collect();
    let mut next = 0usize;
    let mut t = Template::new();
    for p in pieces {
        match p {
            FmtPiece::Lit(s) => t.push_lit(s),
            FmtPiece::Arg { arg, spec } => {
                if spec.contains(".*") {
                    next += 1; // the precision argument comes first
                }
                let found: Option<&FmtArg> = match arg {
                    ArgRef::Next => {
                        next += 1;
                        positional.get(next - 1).copied()
                    }
                    ArgRef::Index(i) => positional.get(*i).copied(),
                    ArgRef::Name(n) => args.iter().find(|a| a.name.as_deref() == Some(n)),
                };
                match found {
                    Some(FmtArg {
                        value: Some(v),
                        debug_same,
                        ..
                    }) if spec.is_empty() || (*debug_same && spec == "?") => t.append(v),
                    Some(a) => t.push_hole(Hole {
                        arg: a.text.clone(),
                        spec: spec.clone(),
                    }),
                    None => {
                        let arg = match (arg, naming) {
                            (ArgRef::Name(n), _) => n.clone(),
                            (ArgRef::Index(i), Naming::Fields) => i.to_string(),
                            (ArgRef::Index(i), Naming::Format) => i.to_string(),
                            (ArgRef::Next, _) => String::new(),
                        };
                        t.push_hole(Hole {
                            arg,
                            spec: spec.clone(),
                        });
                    }
                }
            }
        }
    }
    t
}

/// A format string's template when it is used as it stands (no arguments
/// at all; inline captures become holes).
pub fn template_of(s: &str, naming: Naming) -> Template {
    match parse(s) {
        Some(p) => bind(&p, &[], naming),
        None => Template::literal(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(text: &str) -> FmtArg {
        FmtArg {
            name: None,
            text: text.into(),
            value: None,
            debug_same: false,
        }
    }

    #[test]
    fn grammar() {
        let p = parse("a {{b}} {} {0:>8.2} {name:?} {:#x}").unwrap();
        assert_eq!(p[0], FmtPiece::Lit("a {b} ".into()));
        assert_eq!(
            p[1],
            FmtPiece::Arg {
                arg: ArgRef::Next,
                spec: String::new()
            }
        );
        assert_eq!(
            p[3],
            FmtPiece::Arg {
                arg: ArgRef::Index(0),
                spec: ">8.2".into()
            }
        );
        assert_eq!(
            p[5],
            FmtPiece::Arg {
                arg: ArgRef::Name("name".into()),
                spec: "?".into()
            }
        );
        assert!(parse("unbalanced }").is_none());
        assert!(parse("open {").is_none());
    }

    #[test]
    fn binds_positional_named_and_captured() {
        let p = parse("x {} {1} {y} {z:?} {}").unwrap();
        let args = vec![
            arg("a"),
            arg("b"),
            FmtArg {
                name: Some("y".into()),
                text: "self.y".into(),
                value: None,
                debug_same: false,
            },
        ];
        let t = bind(&p, &args, Naming::Format);
        assert_eq!(t.to_string(), "x {a} {b} {} {z:?} {b}");
    }

    #[test]
    fn folds_literal_args_and_precision_star() {
        let p = parse("{}-{:.*}").unwrap();
        let lit = FmtArg {
            name: None,
            text: "\"text\"".into(),
            value: Some(Template::literal("text")),
            debug_same: false,
        };
        let t = bind(&p, &[lit, arg("prec"), arg("v")], Naming::Format);
        assert_eq!(t.to_string(), "text-{v:.*}");
    }
}
