//! The page's sections written from facts by rules per kind: correct first,
//! specific where the facts allow, and every sentence citing its facts.

use crate::{
    Author, Detail, DocHeading, Fact, FactKind, Holds, Section, SectionName, Sentence, Via,
};
use errdex_model::Kind;

/// Writes the four sections for an error of `kind`, in code of
/// `language` (`rust`, `python`), from its `facts`.
pub fn write(kind: Kind, language: &str, facts: &[Fact]) -> Vec<Section> {
    let w = Writer {
        kind,
        python: language == "python",
        facts,
    };
    vec![
        section(SectionName::Means, w.means(), None),
        section(SectionName::When, w.when(), None),
        section(SectionName::Solutions, w.solutions(), None),
        {
            let (sentences, code) = w.example_fix();
            section(SectionName::ExampleFix, sentences, code)
        },
    ]
}

fn section(name: SectionName, sentences: Vec<Sentence>, code: Option<String>) -> Section {
    Section {
        name,
        sentences,
        code,
        author: Author::Rules,
    }
}

/// The longest receiver a solution quotes (a longer one is a block).
const MAX_QUOTED_RECEIVER: usize = 120;

/// The fn the site is in.
#[derive(Clone, Copy)]
struct Thrower<'a> {
    fact: &'a Fact,
    name: &'a str,
    signature: &'a str,
    /// Users call it.
    public: bool,
}

struct Writer<'a> {
    kind: Kind,
    /// Python's `assert` raises `AssertionError`; it does not panic.
    python: bool,
    facts: &'a [Fact],
}

fn say(text: impl Into<String>, facts: &[&Fact]) -> Sentence {
    Sentence {
        text: text.into(),
        facts: facts.iter().map(|f| f.id.clone()).collect(),
    }
}

impl<'a> Writer<'a> {
    fn all(&self, kind: FactKind) -> Vec<&'a Fact> {
        self.facts.iter().filter(|f| f.kind == kind).collect()
    }

    fn one(&self, kind: FactKind) -> Option<&'a Fact> {
        self.facts.iter().find(|f| f.kind == kind)
    }

    /// The facts of `kind` with what they state.
    fn detailed(&self, kind: FactKind) -> impl Iterator<Item = (&'a Fact, &'a Detail)> {
        self.facts
            .iter()
            .filter(move |f| f.kind == kind)
            .filter_map(|f| Some((f, f.detail.as_ref()?)))
    }

    /// The thrower: its fact, qualified name and signature, and whether
    /// users call it.
    fn thrower(&self) -> Option<Thrower<'a>> {
        self.detailed(FactKind::Item).find_map(|(fact, d)| match d {
            Detail::Thrower {
                name,
                signature,
                public,
            } => Some(Thrower {
                fact,
                name,
                signature,
                public: *public,
            }),
            _ => None,
        })
    }

    /// The thrower when users call it.
    fn public_thrower(&self) -> Option<Thrower<'a>> {
        self.thrower().filter(|t| t.public)
    }

    /// The public ways in a user calls by name, in order.
    fn entries(&self) -> impl Iterator<Item = (&'a Fact, &'a str, Via)> {
        self.detailed(FactKind::PublicEntry)
            .filter_map(|(f, d)| match d {
                Detail::Entry { name, via } => Some((f, name.as_str(), *via)),
                _ => None,
            })
    }

    /// The public call a user makes to reach the site: the thrower when
    /// it is public, else the first public fn, public trait method or
    /// exported macro reaching it.
    fn public_call(&self) -> Option<(&'a Fact, &'a str)> {
        if let Some(t) = self.public_thrower() {
            return Some((t.fact, t.name));
        }
        self.entries().next().map(|(f, name, _)| (f, name))
    }

    /// What a user does that reaches the site through a trait impl the
    /// language or another crate calls (`formatting a `E` with `{}``).
    fn implicit_use(&self) -> Option<(&'a Fact, &'a str)> {
        self.detailed(FactKind::PublicEntry)
            .find_map(|(f, d)| match d {
                Detail::ImplicitUse { action } => Some((f, action.as_str())),
                _ => None,
            })
    }

    /// Documented conditions a user keeps to, from the user's side: the
    /// `# Panics`/`# Errors` sections of the thrower (when public) and of
    /// the public fns reaching it — (fact, fn, heading, quoted text).
    fn documented(&self) -> Vec<(&'a Fact, &'a str, DocHeading, &'a str)> {
        let public_thrower = self.public_thrower().map(|t| t.name);
        self.detailed(FactKind::Doc)
            .filter_map(|(f, d)| match d {
                Detail::Doc {
                    of,
                    heading: Some(heading),
                    quote,
                } => {
                    let who = of.as_deref().or(public_thrower)?;
                    Some((f, who, *heading, quote.as_str()))
                }
                _ => None,
            })
            .collect()
    }

    /// The first receiver fact: the fact, the receiver, what it holds
    /// when the call fails; none when the receiver is too long to quote
    /// or holds a comment (a closure's whole body).
    fn receiver(&self) -> Option<(&'a Fact, &'a str, Holds)> {
        self.detailed(FactKind::Receiver)
            .find_map(|(f, d)| match d {
                Detail::Receiver { expr, holds }
                    if expr.len() <= MAX_QUOTED_RECEIVER && !expr.contains("//") =>
                {
                    Some((f, expr.as_str(), *holds))
                }
                _ => None,
            })
    }

    /// The assertion's fact and condition.
    fn assertion(&self) -> Option<(&'a Fact, &'a str)> {
        self.detailed(FactKind::Assertion)
            .find_map(|(f, d)| match d {
                Detail::Assertion { condition } => Some((f, condition.as_str())),
                _ => None,
            })
    }

    /// The check guards an invariant of the crate's own.
    fn invariant(&self) -> Option<&'a Fact> {
        self.detailed(FactKind::Mechanism)
            .find(|(_, d)| matches!(d, Detail::Invariant))
            .map(|(f, _)| f)
    }

    /// A condition decided by a caller or a maker of the value, not by
    /// the thrower's own code.
    fn at_caller(f: &Fact) -> bool {
        matches!(f.detail, Some(Detail::CallerCondition))
    }

    fn means(&self) -> Vec<Sentence> {
        let mut out = Vec::new();
        let message = self.one(FactKind::Message);
        let m: Vec<&Fact> = message.into_iter().collect();
        let text = match self.kind {
            Kind::Assert if self.python => "An `assert` failed: Python raised `AssertionError` because a condition the code relies on did not hold (and `python -O` removes asserts, so the check may not run at all).",
            k if k.panics() => match k {
                Kind::Unreachable => "The program reached code its authors believed impossible to reach and panicked: this is a bug in the library or an invariant broken by its caller, not an error to handle.",
                Kind::Unimplemented | Kind::Todo => "The program called functionality that is not written yet and panicked.",
                Kind::Assert | Kind::AssertEq | Kind::AssertNe => "An assertion failed and the program panicked: a condition the code relies on did not hold.",
                Kind::Expect | Kind::Unwrap | Kind::ExpectErr | Kind::UnwrapErr => "The program unwrapped a value that was not there (or not the expected variant) and panicked.",
                _ => "The program panicked: the code met a situation it does not handle and stopped the thread.",
            },
            Kind::ErrorAttr | Kind::Display | Kind::DebugImpl => "This is the text of an error value: the operation failed and returned this error to its caller, which printed it.",
            Kind::Context => "This is context added around another error: the underlying cause is the error printed after it (`Caused by:`).",
            Kind::Bail | Kind::Ensure | Kind::Anyhow => "The operation gave up and returned this error to its caller.",
            Kind::LogError | Kind::LogWarn => "The program logged this error; it may have continued after it.",
            Kind::LogInfo => "The program logged this message on its way and went on: it reports what happened (often a failure it recovered from or will retry).",
            Kind::Eprintln => "The program printed this error and exited.",
            Kind::Raise | Kind::ErrorDoc => "The code raised this exception: the operation failed, and unless a caller catches it the program stops with this traceback.",
            Kind::Warning => "The library issued a warning and went on: something it relies on (an argument, a deprecated API, the input) is not as it should be.",
            Kind::CompileError => "The crate refused to compile in this configuration (`compile_error!`): a feature or target combination it does not support.",
            _ => "The operation failed and returned this error to its caller.",
        };
        out.push(say(text, &m));
        if let Some(t) = self.thrower() {
            out.push(say(format!("It is raised in `{}`.", t.name), &[t.fact]));
        }
        for s in self.all(FactKind::Sentinel) {
            out.push(say(s.text.clone(), &[s]));
        }
        for m in self.all(FactKind::Mechanism) {
            out.push(say(m.text.clone(), &[m]));
        }
        out
    }

    fn when(&self) -> Vec<Sentence> {
        let mut out = Vec::new();
        for f in self.all(FactKind::Assertion) {
            out.push(say(f.text.clone(), &[f]));
        }
        for f in self.all(FactKind::Receiver) {
            out.push(say(f.text.clone(), &[f]));
        }
        let (at_callers, own): (Vec<&Fact>, Vec<&Fact>) = self
            .all(FactKind::Guard)
            .into_iter()
            .partition(|f| Self::at_caller(f));
        for f in own {
            out.push(say(f.text.clone(), &[f]));
        }
        for f in self.all(FactKind::Value) {
            out.push(say(f.text.clone(), &[f]));
        }
        for f in self.all(FactKind::Doc) {
            out.push(say(f.text.clone(), &[f]));
        }
        for f in self.all(FactKind::Caller) {
            let at = match (&f.path, f.line) {
                (Some(p), Some(l)) => format!(" ({p}:{l})"),
                _ => String::new(),
            };
            out.push(say(
                format!("{}{at}", f.text.trim_end_matches('.')) + ".",
                &[f],
            ));
        }
        for f in at_callers {
            out.push(say(f.text.clone(), &[f]));
        }
        for f in self.all(FactKind::Failure) {
            out.push(say(f.text.clone(), &[f]));
        }
        for e in self.all(FactKind::PublicEntry) {
            out.push(say(e.text.clone(), &[e]));
        }
        let ctors = self.all(FactKind::Constructor);
        for c in &ctors {
            let at = match (&c.path, c.line) {
                (Some(p), Some(l)) => format!(" ({p}:{l})"),
                _ => String::new(),
            };
            out.push(say(
                format!("{}{at}", c.text.trim_end_matches('.')) + ".",
                &[c],
            ));
        }
        for t in self.all(FactKind::Test) {
            out.push(say(t.text.clone(), &[t]));
        }
        for (m, d) in self.detailed(FactKind::Mechanism) {
            if let Detail::SerdeMethod {
                serde_trait,
                method,
                ty,
            } = d
            {
                if let Some(text) = serde_trigger(serde_trait, method, ty) {
                    out.push(say(text, &[m]));
                }
            }
        }
        if out.is_empty() {
            // Nothing but the thrower is known: say which call a user
            // makes that gets it, when that call is public.
            if let Some(t) = self.public_thrower() {
                let name = t.name;
                out.push(say(
                    if self.python {
                        format!("It is raised in a call of the public function `{name}`.")
                    } else if self.kind.panics() {
                        format!("It panics in a call of the public fn `{name}`.")
                    } else {
                        format!("It is the error a call of the public fn `{name}` returns.")
                    },
                    &[t.fact],
                ));
            }
        }
        out
    }

    fn solutions(&self) -> Vec<Sentence> {
        let mut out = Vec::new();
        let thrower = self.thrower();
        let item: Vec<&Fact> = thrower.map(|t| t.fact).into_iter().collect();
        let name = thrower.map(|t| t.name);
        for a in self.all(FactKind::Alternative) {
            out.push(say(a.text.clone(), &[a]));
        }
        for (m, d) in self.detailed(FactKind::Mechanism) {
            if let Detail::Features { names, negated } = d {
                let Some(feature) = names.first() else {
                    continue;
                };
                out.push(say(
                    if *negated {
                        format!("Build with the `{feature}` feature (`--features {feature}`): this code exists only without it.")
                    } else {
                        format!("This code exists only with the `{feature}` feature (`--features {feature}`); without it, it is not compiled.")
                    },
                    &[m],
                ));
            }
        }
        if let Some((a, cond)) = self.assertion() {
            if self.kind == Kind::Assert || self.kind == Kind::Ensure {
                out.push(say(
                    format!(
                        "Make sure `{cond}` holds before calling{}.",
                        name.map(|n| format!(" `{n}`")).unwrap_or_default()
                    ),
                    &[a],
                ));
            } else {
                out.push(say(
                    "Check the values compared by the assertion (printed as `left` and `right`).",
                    &[a],
                ));
            }
        }
        let invariant = self.invariant();
        if let Some(m) = invariant {
            out.push(say(
                "Nothing in your code should reach it: if it fires, report it to the crate's maintainers with the steps that led there.",
                &[m],
            ));
        }
        if let Some((r, v, holds)) = self.receiver().filter(|_| invariant.is_none()) {
            let how = match holds {
                Holds::None => " (`if let Some(..)`, `unwrap_or`, `?` in a fn returning `Option`)",
                Holds::Err => " (`match` on `Ok`/`Err`, or `?`)",
                Holds::Ok | Holds::Unknown => "",
            };
            out.push(say(
                format!("Handle the failure of `{v}` instead of unwrapping it{how}."),
                &[r],
            ));
        }
        let own_guard = self
            .all(FactKind::Guard)
            .into_iter()
            .find(|g| !Self::at_caller(g));
        if let Some(g) = own_guard {
            out.push(say(
                format!("Avoid the path that leads here: {}", lower_first(&g.text)),
                &[g],
            ));
        }
        // (A raised exception is caught, not returned: its facts say how.)
        if !self.kind.panics()
            && !matches!(
                self.kind,
                Kind::Display | Kind::DebugImpl | Kind::ErrorAttr | Kind::Raise
            )
        {
            if let Some(n) = name {
                out.push(say(
                    format!("Handle the `Err` returned through `{n}`: match on it, add context, or propagate it with `?`."),
                    &item,
                ));
            }
        }
        let ctors: Vec<(&Fact, Option<&str>, &str)> = self
            .detailed(FactKind::Constructor)
            .filter_map(|(f, d)| match d {
                Detail::Constructor {
                    variant,
                    by,
                    in_test: false,
                } => Some((f, variant.as_deref(), by.as_str())),
                _ => None,
            })
            .collect();
        if !ctors.is_empty() {
            let variant = ctors.iter().find_map(|c| c.1).unwrap_or("the error");
            let mut names: Vec<&str> = ctors.iter().map(|(_, _, by)| *by).collect();
            names.dedup();
            let cited: Vec<&Fact> = ctors.iter().map(|(f, _, _)| *f).collect();
            out.push(say(
                format!(
                    "Expect `{variant}` from {} and handle it there: match on the variant, or propagate it with `?`.",
                    list(&names)
                ),
                &cited,
            ));
        }
        for (d, who, heading, quote) in self.documented().into_iter().take(2) {
            out.push(say(
                if heading == DocHeading::Panics {
                    format!("Before calling `{who}`, rule out what its doc lists under `# Panics`: \"{quote}\"")
                } else {
                    format!("`{who}` returns an error in the cases its doc lists under `# Errors` (\"{quote}\"): rule them out before the call, or handle the `Err` it returns.")
                },
                &[d],
            ));
        }
        if self.kind.panics() && own_guard.is_none() {
            // The condition is at a caller: avoid it there.
            if let Some(g) = self
                .all(FactKind::Guard)
                .into_iter()
                .find(|g| Self::at_caller(g))
            {
                out.push(say(
                    format!("Avoid the path that leads here: {}", lower_first(&g.text)),
                    &[g],
                ));
            }
        }
        if self.kind == Kind::Unreachable {
            // Code its authors hold impossible: whatever path leads there,
            // reaching it is a bug.
            if let Some((e, call)) = self.public_call() {
                out.push(say(
                    format!("No input of `{call}` should reach it: if a call of `{call}` does, it is a bug of the crate — report it to its maintainers with that input."),
                    &[e],
                ));
            } else if let Some((e, action)) = self.implicit_use() {
                out.push(say(
                    format!("Nothing you do should reach it: if {action} does, it is a bug of the crate — report it to its maintainers with the value and the steps that led there."),
                    &[e],
                ));
            }
        }
        out
    }

    fn example_fix(&self) -> (Vec<Sentence>, Option<String>) {
        if let Some(t) = self
            .all(FactKind::Test)
            .into_iter()
            .find(|t| t.code.is_some())
        {
            return (
                vec![say(
                    "The repository's own test shows an input that triggers it (avoid that input, or handle the failure as shown in the solutions):",
                    &[t],
                )],
                t.code.clone(),
            );
        }
        let Some(thrower) = self.thrower() else {
            return (Vec::new(), None);
        };
        if self.kind.panics()
            || matches!(
                self.kind,
                Kind::LogError
                    | Kind::LogWarn
                    | Kind::LogInfo
                    | Kind::Eprintln
                    | Kind::CompileError
                    | Kind::Warning
            )
        {
            if let Some(fix) = self
                .twin_fix()
                .or_else(|| self.precondition_fix())
                .or_else(|| self.alternative_code())
            {
                return fix;
            }
            let receiver = self
                .receiver()
                .filter(|_| self.invariant().is_none())
                .filter(|(_, v, _)| crate::verify::parses(&format!("fn f() {{ let _ = {v}; }}")));
            if let Some((r, v, holds)) = receiver {
                let code = match holds {
                    Holds::None => format!(
                        "match {v} {{\n    Some(value) => {{ /* use value */ }}\n    None => {{ /* handle the missing value */ }}\n}}"
                    ),
                    Holds::Err => format!(
                        "match {v} {{\n    Ok(value) => {{ /* use value */ }}\n    Err(err) => {{ /* handle err */ }}\n}}"
                    ),
                    Holds::Ok | Holds::Unknown => return (Vec::new(), None),
                };
                return (
                    vec![say(
                        format!("Instead of unwrapping `{v}`, handle both cases:"),
                        &[r, thrower.fact],
                    )],
                    Some(code),
                );
            }
            return (Vec::new(), None);
        }
        // (The code below is Rust's `match` on a `Result`.)
        if self.python || matches!(self.kind, Kind::Display | Kind::DebugImpl | Kind::ErrorAttr) {
            return (Vec::new(), None);
        }
        // What a user calls: the thrower when public, else a public fn
        // or trait method reaching it.
        let entry = self
            .entries()
            .find(|(_, _, via)| *via != Via::Macro)
            .map(|(f, n, _)| (f, n));
        let (fact, name) = match entry {
            _ if thrower.public => (thrower.fact, thrower.name),
            Some(e) => e,
            None => return (Vec::new(), None),
        };
        let call = name.rsplit("::").next().unwrap_or(name);
        if !call.chars().all(|c| c.is_alphanumeric() || c == '_')
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        {
            return (Vec::new(), None);
        }
        let code = format!(
            "match {name}(/* … */) {{\n    Ok(value) => {{ /* use value */ }}\n    Err(err) => eprintln!(\"{call} failed: {{err}}\"),\n}}"
        );
        (
            vec![say(
                format!("Handle the error where you call `{name}`:"),
                &[fact],
            )],
            Some(code),
        )
    }
}

impl<'a> Writer<'a> {
    /// Before/after code for an assertion in a public fn whose condition
    /// reads only what the caller passes (no `self`): check it before the
    /// call, with the constants' values the condition compares against.
    fn precondition_fix(&self) -> Option<(Vec<Sentence>, Option<String>)> {
        // (The code is Rust's.)
        if self.python || !matches!(self.kind, Kind::Assert | Kind::AssertEq | Kind::AssertNe) {
            return None;
        }
        let t = self.public_thrower()?;
        let (item, name) = (t.fact, t.name);
        let (a, cond) = self.assertion()?;
        // The condition must read only the fn's parameters (and constants,
        // paths, methods): a local of its body means nothing to a caller.
        let params = params_of(t.signature);
        if cond.contains("self") || roots(cond).iter().any(|r| !params.contains(r)) {
            return None;
        }
        let code = format!(
            "if {cond} {{\n    {name}(/* … */);\n}} else {{\n    /* `{name}` would panic: handle this case */\n}}"
        );
        if !crate::verify::parses(&format!("fn f() {{ {code} }}")) {
            return None;
        }
        let values: Vec<&Fact> = self.all(FactKind::Value);
        let mut cited = vec![a, item];
        cited.extend(values.iter().copied());
        // `LIMIT` is `4096`.
        let stated: Vec<String> = self
            .detailed(FactKind::Value)
            .filter_map(|(_, d)| match d {
                Detail::Value { name, value }
                    if cond.contains(name.as_str())
                        && name.chars().all(|ch| {
                            ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_' || ch == ':'
                        }) =>
                {
                    Some(format!("`{name}` is {value}"))
                }
                _ => None,
            })
            .collect();
        let with = if stated.is_empty() {
            String::new()
        } else {
            format!(" ({})", stated.join("; "))
        };
        Some((
            vec![say(
                format!("Check `{cond}` before calling `{name}`{with}:"),
                &cited,
            )],
            Some(code),
        ))
    }

    /// The code of the first alternative that comes with code (a check
    /// written on the value the user calls a method on).
    fn alternative_code(&self) -> Option<(Vec<Sentence>, Option<String>)> {
        let a = self
            .all(FactKind::Alternative)
            .into_iter()
            .find(|a| a.code.is_some())?;
        Some((
            vec![say(
                "Check the condition on your value before the call:",
                &[a],
            )],
            a.code.clone(),
        ))
    }

    /// Before/after code for a panicking public fn with a fallible twin
    /// (`` `Vec::try_reserve` is the fallible form of `Vec::reserve` (returns
    /// `Result<(), E>`) ``): the call that panics, then the twin with `?`
    /// (or `let .. else` for an `Option`).
    fn twin_fix(&self) -> Option<(Vec<Sentence>, Option<String>)> {
        let (a, t) = self
            .all(FactKind::Alternative)
            .into_iter()
            .find_map(|a| match &a.detail {
                Some(Detail::Twin(t)) => Some((a, t)),
                _ => None,
            })?;
        let (twin, panicking) = (t.fallible.as_str(), t.panicking.as_str());
        let ret = t.returns.as_deref();
        let path = |n: &str| {
            n.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        };
        if !path(twin) || !path(panicking) {
            return None;
        }
        // A method's calls as the user writes them (`x.left()`).
        let (twin_call, panicking_call) = match &t.calls {
            Some((t, p)) => (t.replace('…', "/* … */"), p.replace('…', "/* … */")),
            None => (format!("{twin}(/* … */)"), format!("{panicking}(/* … */)")),
        };
        let after = match ret {
            Some(r) if r.starts_with("Option") => format!(
                "let Some(value) = {twin_call} else {{\n    /* handle the failure */\n    return;\n}};"
            ),
            Some(r) if r.starts_with("Result") || r.ends_with("Result") || r.contains("Result<") => {
                format!("let value = {twin_call}?;")
            }
            _ => format!("let value = {twin_call}; // check what it returns"),
        };
        let code = format!("// before: panics on failure\nlet value = {panicking_call};\n// after: the failure is a value you handle\n{after}");
        if !crate::verify::parses(&format!("fn f() -> Result<(), ()> {{ {code} Ok(()) }}")) {
            return None;
        }
        Some((
            vec![say(
                format!("Call `{twin}` instead of `{panicking}`, and handle its failure:"),
                &[a],
            )],
            Some(code),
        ))
    }
}

/// The parameter names of a fn signature (`fn f(a: u8, mut b: &[T])` →
/// `a`, `b`); `self` is not one.
fn params_of(signature: &str) -> Vec<String> {
    errdex_syntax::items::parameters(signature)
        .iter()
        .filter_map(|p| p.split_once(':').map(|(n, _)| n.trim()))
        .map(|n| n.trim_start_matches("mut ").trim().to_string())
        .filter(|n| !n.is_empty() && n != "self" && n != "&self" && n != "&mut self")
        .collect()
}

/// The lowercase identifiers an expression reads as variables: not a
/// field or method after `.`, not a path segment, not a called fn
/// (`n <= LIMIT && v.len() > 0` → `n`, `v`).
fn roots(expr: &str) -> Vec<String> {
    let chars: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let before = chars[..start].iter().rev().find(|c| !c.is_whitespace());
            let after: String = chars[i..]
                .iter()
                .collect::<String>()
                .trim_start()
                .chars()
                .take(2)
                .collect();
            let member = matches!(before, Some('.'))
                || (start >= 2 && chars[start - 2..start] == [':', ':']);
            let lower = word.starts_with(|c: char| c.is_lowercase() || c == '_');
            let keyword = matches!(
                word.as_str(),
                "as" | "true"
                    | "false"
                    | "usize"
                    | "isize"
                    | "u8"
                    | "u16"
                    | "u32"
                    | "u64"
                    | "u128"
                    | "i8"
                    | "i16"
                    | "i32"
                    | "i64"
                    | "i128"
                    | "f32"
                    | "f64"
            );
            if lower
                && !member
                && !keyword
                && !after.starts_with('(')
                && !after.starts_with("::")
                && (!after.starts_with('!') || after.starts_with("!="))
            {
                out.push(word);
            }
        } else if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// What in the user's data makes serde call the method `m` of the serde
/// trait `tr` implemented for `ty` an error is made in: serde's data model
/// maps each Rust type to one method (`serialize_i8` for an `i8`,
/// `newtype_variant_seed` when the Rust type expects a newtype variant).
fn serde_trigger(tr: &str, m: &str, ty: &str) -> Option<String> {
    let what = |name: &str| -> Option<&'static str> {
        Some(match name {
            "bool" => "a `bool`",
            "i8" => "an `i8`",
            "i16" => "an `i16`",
            "i32" => "an `i32`",
            "i64" => "an `i64`",
            "i128" => "an `i128`",
            "u8" => "a `u8`",
            "u16" => "a `u16`",
            "u32" => "a `u32`",
            "u64" => "a `u64`",
            "u128" => "a `u128`",
            "f32" => "an `f32`",
            "f64" => "an `f64`",
            "char" => "a `char`",
            "str" | "string" | "borrowed_str" => "a string (`&str`, `String`)",
            "bytes" | "byte_buf" | "borrowed_bytes" => "bytes (`&[u8]`, `serde_bytes`)",
            "none" => "`None` (an `Option`)",
            "some" => "`Some(..)` (an `Option`)",
            "option" => "an `Option`",
            "unit" => "`()`",
            "unit_struct" => "a unit struct (`struct S;`)",
            "unit_variant" => "a unit variant of an enum (`E::A`)",
            "newtype_struct" => "a newtype struct (`struct S(T)`)",
            "newtype_variant" | "newtype_variant_seed" => {
                "a newtype variant of an enum (`E::A(T)`)"
            }
            "seq" => "a sequence (`Vec`, slice, set)",
            "tuple" => "a tuple",
            "tuple_struct" => "a tuple struct (`struct S(A, B)`)",
            "tuple_variant" => "a tuple variant of an enum (`E::A(x, y)`)",
            "map" => "a map (`HashMap`, `BTreeMap`)",
            "struct" => "a struct with named fields",
            "struct_variant" => "a struct variant of an enum (`E::A { .. }`)",
            "enum" => "an enum",
            "identifier" => "a field or variant name",
            _ => return None,
        })
    };
    let text = match tr {
        "Serializer" => {
            let v = what(m.strip_prefix("serialize_")?)?;
            format!("serde calls `{m}` when the value you serialize through `{ty}` holds {v}: that is when this error is returned.")
        }
        "Deserializer" => {
            let v = what(m.strip_prefix("deserialize_")?)?;
            format!("serde calls `{m}` when the type you deserialize from `{ty}` asks for {v}: that is when this error is returned.")
        }
        "Visitor" => {
            let v = what(m.strip_prefix("visit_")?)?;
            format!("serde calls `{m}` when the input read through `{ty}` holds {v} where the target type is visited: that is when this error is returned.")
        }
        "VariantAccess" => {
            let v = what(m)?;
            format!("serde calls `{m}` on `{ty}` when the type you deserialize expects {v} there: that is when this error is returned.")
        }
        _ => return None,
    };
    Some(text)
}

/// `It runs…` → `it runs…`.
pub(crate) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}
