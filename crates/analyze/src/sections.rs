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

    /// The public call a user makes to reach the site: the thrower when
    /// it is public, else the first public fn, public trait method or
    /// exported macro reaching it (from the public-entry facts).
    fn public_call(&self) -> Option<(&'a Fact, &'a str)> {
        if let Some((item, name)) = self.thrower() {
            if item.text.contains("the public fn") {
                return Some((item, name));
            }
        }
        self.all(FactKind::PublicEntry).into_iter().find_map(|e| {
            let named = e.text.starts_with("The public fn `")
                || e.text.starts_with("The exported macro `")
                || e.text.contains("` (the public trait `");
            if named {
                code_in(e).map(|n| (e, n))
            } else {
                None
            }
        })
    }

    /// What a user does that reaches the site through a trait impl the
    /// language or another crate calls (`formatting a `E` with `{}``), from
    /// the public-entry facts of implicit entry points.
    fn implicit_use(&self) -> Option<(&'a Fact, &'a str)> {
        self.all(FactKind::PublicEntry).into_iter().find_map(|e| {
            let (_, action) = e
                .text
                .split_once("a user reaches that by ")
                .or_else(|| e.text.split_once(" is reached by "))?;
            Some((e, action.trim_end_matches('.')))
        })
    }

    /// Documented conditions a user keeps to, from the user's side: the
    /// `# Panics`/`# Errors` sections of the thrower (when public) and of
    /// the public fns reaching it — (fact, fn, heading, quoted text).
    fn documented(&self) -> Vec<(&'a Fact, &'a str, &'static str, &'a str)> {
        let public_thrower = self
            .thrower()
            .filter(|(item, _)| item.text.contains("the public fn"))
            .map(|(_, n)| n);
        let mut out = Vec::new();
        for d in self.all(FactKind::Doc) {
            let heading = if d.text.contains("under `# Panics`") {
                "Panics"
            } else if d.text.contains("under `# Errors`") {
                "Errors"
            } else {
                continue;
            };
            let Some(quote) = d
                .text
                .split_once(": \"")
                .map(|(_, q)| q.trim_end_matches('"'))
            else {
                continue;
            };
            let who = if d.text.starts_with("Its doc comment") {
                public_thrower
            } else {
                code_in(d)
            };
            if let Some(who) = who {
                out.push((d, who, heading, quote));
            }
        }
        out
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
        for m in self.all(FactKind::Mechanism) {
            if let Some(text) = serde_trigger(&m.text) {
                out.push(say(text, &[m]));
            }
        }
        if out.is_empty() {
            // Nothing but the thrower is known: say which call a user
            // makes that gets it, when that call is public.
            if let Some((item, name)) = self
                .thrower()
                .filter(|(item, _)| item.text.contains("the public fn"))
            {
                out.push(say(
                    if self.kind.panics() {
                        format!("It panics in a call of the public fn `{name}`.")
                    } else {
                        format!("It is the error a call of the public fn `{name}` returns.")
                    },
                    &[item],
                ));
            }
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
        for (d, who, heading, quote) in self.documented().into_iter().take(2) {
            out.push(say(
                if heading == "Panics" {
                    format!("Before calling `{who}`, rule out what its doc lists under `# Panics`: \"{quote}\"")
                } else {
                    format!("`{who}` returns an error in the cases its doc lists under `# Errors` (\"{quote}\"): rule them out before the call, or handle the `Err` it returns.")
                },
                &[d],
            ));
        }
        if self.kind.panics() && !out.iter().any(|s| s.text.starts_with("Avoid the path")) {
            // The condition is at a caller: avoid it there.
            if let Some(g) = self
                .all(FactKind::Guard)
                .into_iter()
                .find(|g| g.text.starts_with("Where "))
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
            if let Some(fix) = self
                .twin_fix()
                .or_else(|| self.precondition_fix())
                .or_else(|| self.alternative_code())
            {
                return fix;
            }
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

impl<'a> Writer<'a> {
    /// Before/after code for an assertion in a public fn whose condition
    /// reads only what the caller passes (no `self`): check it before the
    /// call, with the constants' values the condition compares against.
    fn precondition_fix(&self) -> Option<(Vec<Sentence>, Option<String>)> {
        if !matches!(self.kind, Kind::Assert | Kind::AssertEq | Kind::AssertNe) {
            return None;
        }
        let (item, name) = self
            .thrower()
            .filter(|(item, _)| item.text.contains("the public fn"))?;
        let a = self.one(FactKind::Assertion)?;
        let cond = code_in(a)?;
        // The condition must read only the fn's parameters (and constants,
        // paths, methods): a local of its body means nothing to a caller.
        let params = params_of(item.text.split('`').nth(3)?);
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
        // `LIMIT` is 4096 (`const LIMIT: usize`, src/lib.rs:3).
        let stated: Vec<&str> = values
            .iter()
            .filter(|v| {
                code_in(v).is_some_and(|c| {
                    cond.contains(c)
                        && c.chars().all(|ch| {
                            ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_' || ch == ':'
                        })
                }) && v.text.contains("` is ")
            })
            .filter_map(|v| v.text.split(" (`").next())
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
            .find_map(|a| Some((a, a.twin.as_ref()?)))?;
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
    crate::syntax::parameters(signature)
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

/// What in the user's data makes serde call the method of a serde trait
/// impl an error is made in, from the mechanism fact ``in `Serializer::
/// serialize_i8` for `T` ``): serde's data model maps each Rust type to
/// one method (`serialize_i8` for an `i8`, `newtype_variant_seed` when the
/// Rust type expects a newtype variant).
pub fn serde_trigger(mechanism: &str) -> Option<String> {
    let (_, rest) = mechanism.split_once("serde's `Error::custom` in `")?;
    let (method, rest) = rest.split_once('`')?;
    let ty = rest
        .strip_prefix(" for `")
        .and_then(|r| r.split_once('`'))
        .map(|(t, _)| t)?;
    let (tr, m) = method.split_once("::")?;
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
