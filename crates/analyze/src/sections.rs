//! The page's sections written from facts by rules per kind: correct first,
//! specific where the facts allow, and every sentence citing its facts.

use crate::{Author, Fact, FactKind, Section, SectionName, Sentence};
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

/// The text between the first pair of backticks of a fact.
fn code_in(f: &Fact) -> Option<&str> {
    let (_, rest) = f.text.split_once('`')?;
    Some(rest.split_once('`')?.0)
}

impl<'a> Writer<'a> {
    fn all(&self, kind: FactKind) -> Vec<&'a Fact> {
        self.facts.iter().filter(|f| f.kind == kind).collect()
    }

    fn one(&self, kind: FactKind) -> Option<&'a Fact> {
        self.facts.iter().find(|f| f.kind == kind)
    }

    /// The thrower's qualified name (from the item fact).
    fn thrower(&self) -> Option<(&'a Fact, &'a str)> {
        let f = self.one(FactKind::Item)?;
        code_in(f).map(|name| (f, name))
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
        if let Some((item, name)) = self.thrower() {
            out.push(say(format!("It is raised in `{name}`."), &[item]));
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
            .partition(|f| f.text.starts_with("Where "));
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
        out
    }

    fn solutions(&self) -> Vec<Sentence> {
        let mut out = Vec::new();
        let thrower = self.thrower();
        let item: Vec<&Fact> = thrower.map(|(f, _)| f).into_iter().collect();
        let name = thrower.map(|(_, n)| n);
        for a in self.all(FactKind::Alternative) {
            out.push(say(a.text.clone(), &[a]));
        }
        for m in self.all(FactKind::Mechanism) {
            if let Some(feature) = m
                .text
                .split("the Cargo feature(s) `")
                .nth(1)
                .and_then(|r| r.split('`').next())
            {
                let negated = m.text.contains(&format!("not(feature = \"{feature}\")"));
                out.push(say(
                    if negated {
                        format!("Build with the `{feature}` feature (`--features {feature}`): this code exists only without it.")
                    } else {
                        format!("This code exists only with the `{feature}` feature (`--features {feature}`); without it, it is not compiled.")
                    },
                    &[m],
                ));
            }
        }
        if let Some(a) = self.one(FactKind::Assertion) {
            if let Some(cond) =
                code_in(a).filter(|_| self.kind == Kind::Assert || self.kind == Kind::Ensure)
            {
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
        let invariant = self
            .all(FactKind::Mechanism)
            .iter()
            .any(|m| m.text.contains("checks an internal invariant"));
        if let Some(m) = self
            .all(FactKind::Mechanism)
            .into_iter()
            .find(|m| m.text.contains("checks an internal invariant"))
        {
            out.push(say(
                "Nothing in your code should reach it: if it fires, report it to the crate's maintainers with the steps that led there.",
                &[m],
            ));
        }
        if let Some(r) = self.one(FactKind::Receiver).filter(|_| !invariant) {
            if let Some(v) = code_in(r) {
                let how = if r.text.contains("is `None`") {
                    " (`if let Some(..)`, `unwrap_or`, `?` in a fn returning `Option`)"
                } else if r.text.contains("is an `Err`") {
                    " (`match` on `Ok`/`Err`, or `?`)"
                } else {
                    ""
                };
                out.push(say(
                    format!("Handle the failure of `{v}` instead of unwrapping it{how}."),
                    &[r],
                ));
            }
        }
        for g in self
            .all(FactKind::Guard)
            .into_iter()
            .filter(|g| !g.text.starts_with("Where "))
            .take(1)
        {
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
        let ctors: Vec<&Fact> = self
            .all(FactKind::Constructor)
            .into_iter()
            .filter(|f| !f.text.contains("(a test)"))
            .collect();
        if let Some(first) = ctors.first() {
            let mut names: Vec<&str> = ctors
                .iter()
                .filter_map(|f| f.text.split('`').nth(3))
                .collect();
            names.dedup();
            let variant = code_in(first).unwrap_or("the error");
            out.push(say(
                format!(
                    "Expect `{variant}` from {} and handle it there: match on the variant, or propagate it with `?`.",
                    list(&names)
                ),
                &ctors,
            ));
        }
        if let Some(d) = self
            .all(FactKind::Doc)
            .into_iter()
            .find(|d| d.text.contains("# Panics") || d.text.contains("# Errors"))
        {
            out.push(say(
                "Read the documented conditions quoted above and keep to them.",
                &[d],
            ));
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
        let Some((item, name)) = self.thrower() else {
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
            let invariant = self
                .all(FactKind::Mechanism)
                .iter()
                .any(|m| m.text.contains("checks an internal invariant"));
            if let Some(r) = self.one(FactKind::Receiver).filter(|_| !invariant) {
                if let Some(v) = code_in(r)
                    .filter(|v| crate::verify::parses(&format!("fn f() {{ let _ = {v}; }}")))
                {
                    let code = if r.text.contains("is `None`") {
                        format!(
                            "match {v} {{\n    Some(value) => {{ /* use value */ }}\n    None => {{ /* handle the missing value */ }}\n}}"
                        )
                    } else if r.text.contains("is an `Err`") {
                        format!(
                            "match {v} {{\n    Ok(value) => {{ /* use value */ }}\n    Err(err) => {{ /* handle err */ }}\n}}"
                        )
                    } else {
                        return (Vec::new(), None);
                    };
                    return (
                        vec![say(
                            format!("Instead of unwrapping `{v}`, handle both cases:"),
                            &[r, item],
                        )],
                        Some(code),
                    );
                }
            }
            return (Vec::new(), None);
        }
        if matches!(self.kind, Kind::Display | Kind::DebugImpl | Kind::ErrorAttr) {
            return (Vec::new(), None);
        }
        // What a user calls: the thrower when public, else a public fn
        // reaching it.
        let entry = self
            .all(FactKind::PublicEntry)
            .into_iter()
            .find(|e| e.text.contains(" reaches it: "))
            .and_then(|e| code_in(e).map(|n| (e, n)));
        let (fact, name) = match entry {
            Some(e) if !item.text.contains("the public fn") => e,
            _ => (item, name),
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
