//! What `expect`/`unwrap` is called on and where that value fails, the
//! guards' text, and the alternatives the code offers.

use super::*;

/// The statics declared in the `thread_local!` blocks of `text`: name
/// and line.
pub(super) fn thread_local_statics(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("thread_local!") {
        // The block: up to its closing delimiter at depth zero.
        let mut depth = 0;
        let mut end = text.len();
        for (j, c) in text[i..].char_indices() {
            match c {
                '(' | '{' | '[' => depth += 1,
                ')' | '}' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + j;
                        break;
                    }
                }
                _ => {}
            }
        }
        let block = &text[i..end];
        for (k, _) in block.match_indices("static ") {
            let name: String = block[k + 7..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((name, text[..i + k].matches('\n').count() as u32 + 1));
            }
        }
    }
    out
}

/// What a crate fn returns when it fails.
pub(super) enum Failing {
    /// `Err(..)` or `None`.
    ErrOrNone,
    /// A variant of the enum `ty` other than those in `ok` (the arms a
    /// caller matched before its failing arm).
    OtherVariant { ty: String, ok: Vec<String> },
}

impl Failing {
    /// The byte offset of a failing value in the line `l`.
    fn find(&self, l: &str) -> Option<usize> {
        match self {
            Failing::ErrOrNone => l.find("Err(").or_else(|| {
                l.match_indices("None")
                    .find(|(i, _)| mentions(&l[*i..], "None"))
                    .map(|(i, _)| i)
            }),
            Failing::OtherVariant { ty, ok } => {
                let head = format!("{ty}::");
                l.match_indices(&head).map(|(i, _)| i).find(|&i| {
                    let before = l[..i].chars().next_back();
                    let variant: String = l[i + head.len()..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                        && !variant.is_empty()
                        && !ok.contains(&variant)
                })
            }
        }
    }

    /// Whether a fn with this signature returns such a value.
    fn returned_by(&self, signature: &str) -> bool {
        let ret = syntax::return_type(signature).unwrap_or("");
        match self {
            Failing::ErrOrNone => ret.starts_with("Result<") || ret.starts_with("Option<"),
            Failing::OtherVariant { ty, .. } => type_name(ret) == *ty,
        }
    }

    /// For a `match value { earlier.. => .., pattern => site }` where
    /// `value` calls a fn with this signature: what the site's arm takes
    /// of its result, when it is a failure.
    pub(super) fn of_arm(signature: &str, pattern: &str, earlier: &[String]) -> Option<Failing> {
        let ret = syntax::return_type(signature)?;
        if ret.starts_with("Result<") || ret.starts_with("Option<") {
            let failing = pattern == "_" || pattern.starts_with("Err") || pattern == "None";
            return failing.then_some(Failing::ErrOrNone);
        }
        let ty = type_name(ret).to_string();
        let head = format!("{ty}::");
        let ok: Vec<String> = earlier
            .iter()
            .filter_map(|p| p.strip_prefix(&head))
            .map(|v| {
                v.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect()
            })
            .collect();
        (!ok.is_empty() && (pattern == "_" || pattern.starts_with(&head)))
            .then_some(Failing::OtherVariant { ty, ok })
    }
}

/// Whether `receiver` computes a float arithmetic result: a binary `+ - * /
/// %`, a call of `add`/`sub`/`mul`/`div`/`rem`, or a `macro_rules!`
/// metavariable method (`.$method(..)`) whose invocations, as listed in the
/// macro fact already gathered, bind one of those methods.
pub(super) fn float_arithmetic(receiver: &str, facts: &[Fact]) -> bool {
    const METHODS: [&str; 5] = ["add", "sub", "mul", "div", "rem"];
    if [" + ", " - ", " * ", " / ", " % "]
        .iter()
        .any(|op| receiver.contains(op))
        || METHODS.iter().any(|m| receiver.contains(&format!(".{m}(")))
    {
        return true;
    }
    receiver.contains(".$")
        && facts.iter().any(|f| {
            f.kind == FactKind::Mechanism
                && f.text.contains("macro_rules!")
                && METHODS.iter().any(|m| f.text.contains(&format!(", {m},")))
        })
}

/// The single characters of char and byte literals in patterns, in words
/// (`b' '` → space, `':'` → `` `:` ``); ranges and other patterns left out.
pub(super) fn literal_chars_in_words(patterns: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in patterns {
        for alt in p.split('|').map(str::trim) {
            if alt.contains("..") {
                continue;
            }
            let lit = alt.strip_prefix('b').unwrap_or(alt);
            let Some(inner) = lit.strip_prefix('\'').and_then(|l| l.strip_suffix('\'')) else {
                continue;
            };
            let word = match inner {
                " " => "space".to_string(),
                "\\t" => "tab".to_string(),
                "\\n" => "newline (`\\n`)".to_string(),
                "\\r" => "carriage return (`\\r`)".to_string(),
                "\\0" => "NUL".to_string(),
                c if c.chars().count() == 1 => format!("`{c}`"),
                _ => continue,
            };
            if !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}

pub(super) fn guard_text(g: &Guard) -> String {
    match g {
        Guard::If(c) => format!("It runs only when `{c}` is true."),
        Guard::Else(c) => format!("It runs only when `{c}` is false (the `else` branch)."),
        Guard::IfLet { pattern, value } => {
            format!("It runs only when `{value}` matches `{pattern}`.")
        }
        Guard::Arm {
            pattern,
            value,
            unless: Some(u),
            ..
        } => {
            format!("It runs when `{value}` matches the arm `{pattern}` and `{u}` is false (an earlier arm takes that case when `{u}` holds).")
        }
        Guard::Arm { pattern, value, .. } if value.is_empty() => {
            format!("It runs in the match arm `{pattern}`.")
        }
        Guard::Arm {
            pattern,
            value,
            earlier,
            ..
        } if !earlier.is_empty() => {
            let taken: Vec<String> = earlier.iter().map(|p| format!("`{p}`")).collect();
            let chars = literal_chars_in_words(earlier);
            format!(
                "It runs when `{value}` matches the arm `{pattern}`, that is none of the earlier arms {} took it{}.",
                taken.join(", "),
                if chars.is_empty() {
                    String::new()
                } else {
                    format!(" (those accept {})", chars.join(", "))
                }
            )
        }
        Guard::Arm { pattern, value, .. } => {
            format!("It runs when `{value}` matches the arm `{pattern}`.")
        }
        Guard::ElseLet { pattern, value } => {
            format!(
                "It runs only when `{value}` does not match `{pattern}` (the `else` of `if let`)."
            )
        }
        Guard::Fallback { value, method } => {
            let case = match method.as_str() {
                "ok_or_else" | "ok_or" => "is `None`",
                "map_err" | "or_else" => "is an `Err`",
                _ => "has no value",
            };
            // A lookup miss: `map.get(key)`.
            let miss = value
                .strip_suffix(')')
                .and_then(|v| v.rsplit_once(".get("))
                .map(|(map, key)| {
                    let map = map.rsplit('.').next().unwrap_or(map);
                    format!(": `{key}` is not in the {map}")
                })
                .unwrap_or_default();
            format!("It runs when `{value}` {case}{miss} (the closure of `.{method}`).")
        }
        Guard::While(c) => format!("It runs inside the loop `while {c}`: only while `{c}` holds."),
        Guard::EarlyReturn(c) => {
            format!("It runs only when `{c}` is false (the fn returns early when it is true).")
        }
        Guard::LetElse { pattern, value } => {
            format!("It runs when `{value}` does not match `{pattern}` (`let … else`).")
        }
        Guard::EarlyReturnLet { pattern, value } => {
            format!("It runs only when `{value}` does not match `{pattern}` (the fn returns early when it does).")
        }
    }
}

/// Whether a std method returns an `Option` (`Some(true)`) or a `Result`
/// (`Some(false)`), for the common ones; `None` when unknown.
pub(super) fn std_returns_option(method: &str) -> Option<bool> {
    if method.starts_with("checked_") || (method.starts_with("try_") && method.ends_with("_opt")) {
        return Some(true);
    }
    match method {
        "get" | "get_mut" | "first" | "last" | "first_mut" | "last_mut" | "next" | "next_back"
        | "pop" | "pop_front" | "pop_back" | "find" | "position" | "rposition" | "peek" | "max"
        | "min" | "max_by_key" | "min_by_key" | "var_os" | "as_ref" | "as_mut" | "take"
        | "upgrade" | "parent" | "file_name" | "extension" | "to_str" | "nth" | "strip_prefix"
        | "strip_suffix" | "split_once" | "rsplit_once" | "char_indices" | "chars" | "iter"
        | "remove_entry" | "get_key_value" | "find_map" | "last_key_value" | "first_key_value" => {
            Some(true)
        }
        "parse" | "try_from" | "try_into" | "var" | "lock" | "read" | "write" | "join" | "recv"
        | "send" | "try_recv" | "from_utf8" | "read_to_string" | "open" | "create" | "metadata"
        | "canonicalize" | "try_lock" | "into_inner" | "binary_search" => Some(false),
        _ => None,
    }
}

/// The two sides of a simple ordering comparison (`a <= b`), when the
/// condition is one.
pub(super) fn ordering_sides(cond: &str) -> Option<(&str, &str)> {
    if cond.contains("&&") || cond.contains("||") {
        return None;
    }
    [" <= ", " >= ", " < ", " > "]
        .iter()
        .find_map(|op| cond.split_once(op))
        .map(|(a, b)| (a.trim(), b.trim()))
}

/// The type written for parameter `name` in a signature.
pub(super) fn param_type<'a>(signature: &'a str, name: &str) -> Option<&'a str> {
    let (_, params) = signature.split_once('(')?;
    params.split([',', '(', ')']).find_map(|p| {
        let (n, ty) = p.split_once(':')?;
        let n = n.trim().trim_start_matches("mut ").trim();
        (n == name).then(|| ty.trim())
    })
}

/// The negation of a simple comparison (`a < b` → `a >= b`).
pub(super) fn negate(cond: &str) -> Option<String> {
    // `!x.is_empty()` → `x.is_empty()`: a negated operand, no operator.
    if let Some(r) = cond
        .trim()
        .strip_prefix('!')
        .filter(|r| !r.starts_with('='))
    {
        let operators = [
            "&&", "||", "==", "!=", "<", ">", " + ", " - ", " * ", " / ", " as ",
        ];
        if !r.is_empty() && !operators.iter().any(|o| r.contains(o)) {
            return Some(r.trim().to_string());
        }
    }
    for (op, neg) in [
        (" <= ", " > "),
        (" >= ", " < "),
        (" == ", " != "),
        (" != ", " == "),
        (" < ", " >= "),
        (" > ", " <= "),
    ] {
        let parts: Vec<&str> = cond.split(op).collect();
        if parts.len() == 2 && !cond.contains("&&") && !cond.contains("||") {
            return Some(format!("{}{neg}{}", parts[0], parts[1]));
        }
    }
    None
}

impl Analyzer {
    /// Why an ordering comparison in fn `fi` is only a partial order: a
    /// side is a float literal, or a parameter typed `f32`/`f64` or by a
    /// generic bounded by `PartialOrd` (or `Float`).
    pub(super) fn partial_order(&self, fi: usize, cond: &str) -> Option<String> {
        let (a, b) = ordering_sides(cond)?;
        let f = &self.symbols.fns[fi];
        for side in [a, b] {
            let digits = side.trim_start_matches('-');
            let float_literal = digits.starts_with(|c: char| c.is_ascii_digit())
                && (digits.contains('.') || digits.ends_with("f32") || digits.ends_with("f64"))
                && digits
                    .trim_end_matches("f32")
                    .trim_end_matches("f64")
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '_');
            if float_literal {
                return Some(format!("`{side}` is a float"));
            }
            let Some(ty) = param_type(&f.signature, side) else {
                continue;
            };
            let ty = ty.trim_start_matches('&');
            if ty == "f32" || ty == "f64" {
                return Some(format!("`{side}: {ty}`"));
            }
            if let Some((_, tr)) = f
                .bounds
                .iter()
                .find(|(p, tr)| p == ty && (tr.starts_with("PartialOrd") || tr == "Float"))
            {
                return Some(format!("`{ty}: {tr}`"));
            }
        }
        None
    }

    /// For an arm `Self::V(..)` of `match self` in `caller`, the method of
    /// the same type whose `match self` maps `Self::V(_)` to a tag of the
    /// same name in another type
    /// (`fn dtype(&self) -> DType { match self { Self::U8(_) => DType::U8, .. } }`):
    /// that tag is what a user knows the variant by.
    ///
    /// Gives the type, the accessor's name and the tag.
    pub(super) fn variant_meaning(
        &self,
        caller: &FnDef,
        pattern: &str,
    ) -> Option<(String, String, String)> {
        let Owner::Impl { ty, .. } = &caller.owner else {
            return None;
        };
        let variant = pattern
            .strip_prefix("Self::")
            .or_else(|| pattern.strip_prefix(&format!("{ty}::")))?
            .split(['(', '{', ' '])
            .next()?
            .to_string();
        if variant.is_empty() || !variant.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let arm = format!("Self::{variant}(_) =>");
        for f in &self.symbols.fns {
            if f.is_test
                || !matches!(&f.owner, Owner::Impl { ty: t, .. } if t == ty)
                || !f.signature.contains("(&self)")
                || !f.signature.contains("->")
            {
                continue;
            }
            for line in f.text.lines() {
                let Some(rest) = line.trim().strip_prefix(&arm) else {
                    continue;
                };
                let value = rest.trim().trim_end_matches(',').trim();
                // A tag of the same name in another type: `DType::U8`.
                let plain = value.len() <= 40
                    && value.rsplit_once("::").is_some_and(|(head, last)| {
                        last == variant
                            && !head.is_empty()
                            && head
                                .chars()
                                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    });
                if plain {
                    return Some((ty.clone(), f.name.clone(), value.to_string()));
                }
            }
        }
        None
    }

    /// What `expect`/`unwrap` is called on: `Option` or `Result` when the
    /// code tells, and — for a crate fn — where it returns `None`/`Err`.
    /// `context` holds the facts gathered so far about the site.
    /// The crate fn a value ends by calling (`self.try_x(n)`,
    /// `Type::f(..)`): the called name, whether a field of the result is
    /// taken (`f(..).0`), and the fn when the crate has one of that name.
    pub(super) fn called_fn(&self, receiver: &str) -> (String, bool, Option<usize>) {
        self.called_fn_on(receiver, None)
    }

    /// The type a method call is made on when what comes before it is a
    /// call of a crate fn (`self.builder().spawn(f)`: the type `builder`
    /// returns, `ScopedThreadBuilder`); empty when unknown.
    fn type_made_before(&self, head: &str, callee: &str, self_ty: Option<&str>) -> String {
        let Some((before, _)) = head.trim_end().rsplit_once(&format!(".{callee}")) else {
            return String::new();
        };
        if !before.trim_end().ends_with(')') {
            return String::new();
        }
        let Some(fi) = self.called_fn_on(before, self_ty).2 else {
            return String::new();
        };
        let f = &self.symbols.fns[fi];
        let Some(ret) = syntax::return_type(&f.signature) else {
            return String::new();
        };
        // `&'a T`, `&mut T`: the type.
        let ret = ret.trim_start_matches('&');
        let ret = match ret.strip_prefix('\'') {
            Some(r) => r.split_once(' ').map_or(r, |(_, t)| t),
            None => ret,
        };
        match (type_name(ret), &f.owner) {
            ("Self", Owner::Impl { ty, .. }) => type_name(ty).to_string(),
            ("Self" | "Option" | "Result" | "Box" | "impl" | "dyn", _) | ("", _) => String::new(),
            (t, _) => t.to_string(),
        }
    }

    /// [`Self::called_fn`] in a method of `self_ty`: `self.f(..)` is that
    /// type's `f` before any namesake.
    pub(super) fn called_fn_on(
        &self,
        receiver: &str,
        self_ty: Option<&str>,
    ) -> (String, bool, Option<usize>) {
        // The last call in the receiver.
        let head = receiver.trim_end_matches(|c: char| c == '.' || c.is_ascii_digit());
        let callee: String = {
            let t = head.trim_end();
            let t = t.strip_suffix(')').map(|t| {
                // Drop the argument list.
                let mut depth = 1;
                let mut cut = t.len();
                for (i, c) in t.char_indices().rev() {
                    match c {
                        ')' => depth += 1,
                        '(' => {
                            depth -= 1;
                            if depth == 0 {
                                cut = i;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                &t[..cut]
            });
            match t {
                Some(t) => t
                    .rsplit(['.', ':'])
                    .next()
                    .unwrap_or("")
                    .split('<')
                    .next()
                    .unwrap_or("")
                    .to_string(),
                None => String::new(),
            }
        };
        let field_access = receiver.trim_end().rsplit_once(").").is_some_and(|(_, f)| {
            f.chars()
                .all(|c| c.is_ascii_digit() || c.is_alphanumeric() || c == '_')
        });
        // `Type::callee(..)`: that type's fn before any namesake.
        let qualifier = head
            .split(&format!("::{callee}"))
            .next()
            .filter(|q| q.len() < head.len())
            .and_then(|q| q.rsplit([':', ' ', '(', '.', '!', '&']).next())
            .unwrap_or("")
            .to_string();
        let on_self = head.trim_start().starts_with(&format!("self.{callee}("));
        let qualifier = match self_ty {
            Some(ty) if qualifier.is_empty() && on_self => type_name(ty).to_string(),
            _ if qualifier.is_empty() => self.type_made_before(head, &callee, self_ty),
            _ => qualifier,
        };
        let candidates: Vec<(usize, &FnDef)> = self
            .namesakes(&callee)
            .iter()
            .map(|&i| (i, &self.symbols.fns[i]))
            .filter(|(_, f)| !f.is_test)
            .collect();
        let local = candidates
            .iter()
            .find(|(_, f)| {
                matches!(&f.owner, Owner::Impl { ty, .. }
                    if *ty == qualifier || type_name(ty) == qualifier)
            })
            .or_else(|| candidates.first())
            .map(|(i, _)| *i);
        (callee, field_access, local)
    }

    pub(super) fn receiver_facts(
        &self,
        b: &mut Builder,
        receiver: &str,
        context: &[Fact],
    ) -> Option<bool> {
        let (callee, field_access, local) = self.called_fn(receiver);
        let mut is_option = if field_access {
            None
        } else {
            std_returns_option(&callee)
        };
        let local = local.map(|i| (i, &self.symbols.fns[i]));
        if let Some((fi, f)) = local {
            let ret = syntax::return_type(&f.signature).map(str::to_string);
            if !field_access {
                if let Some(r) = &ret {
                    if r.starts_with("Option<") {
                        is_option = Some(true);
                    } else if r.starts_with("Result<") || r.contains("Result<") {
                        is_option = Some(false);
                    }
                }
            }
            self.failure_points(b, fi, field_access, 0, &Failing::ErrOrNone);
            if !field_access {
                self.callee_doc_fact(b, fi);
                self.freed_key_fact(b, fi);
            }
            self.thread_local_fact(b, fi);
            if f.text.contains("is_nan()") && float_arithmetic(receiver, context) {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "`{}` refuses NaN, and the value it checks is the result of float arithmetic: operands that are not NaN give NaN only in IEEE 754's invalid operations, `inf - inf` (or `inf + -inf`), `0 * inf`, `0 / 0`, `inf / inf`, `x % 0` and `inf % y`; any other result, infinities included, passes.",
                        f.qualified()
                    ),
                    Some((f.path.clone(), f.lines.0)),
                    None,
                );
            }
        }
        is_option
    }

    /// For a site in the arm `pattern` of `match value { .. }` where
    /// `value` calls a crate fn and the arm takes its failures: where that
    /// fn fails, and its doc.
    pub(super) fn arm_failure_facts(
        &self,
        b: &mut Builder,
        value: &str,
        pattern: &str,
        earlier: &[String],
        self_ty: Option<&str>,
    ) {
        if !value.trim_end().ends_with(')') || b.seen(&format!("armfail:{value}")) {
            return;
        }
        let (_, field_access, Some(fi)) = self.called_fn_on(value, self_ty) else {
            return;
        };
        let Some(failing) = Failing::of_arm(&self.symbols.fns[fi].signature, pattern, earlier)
        else {
            return;
        };
        if field_access {
            return;
        }
        let mut sub = Builder::default();
        self.failure_points(&mut sub, fi, false, 0, &failing);
        self.callee_doc_fact(&mut sub, fi);
        b.adopt_failures(sub);
    }

    /// Where a crate fn gives up: its failing returns (`Err(..)`/`None`,
    /// or the variants `failing` names) with their guards, and the checked
    /// arithmetic it relies on.
    pub(super) fn failure_points(
        &self,
        b: &mut Builder,
        fi: usize,
        field_access: bool,
        depth: usize,
        failing: &Failing,
    ) {
        let f = &self.symbols.fns[fi];
        let Some(pf) = self.files.get(&f.path) else {
            return;
        };
        let mut n = 0;
        let lines: Vec<&str> = pf.file.text.lines().collect();
        for ln in f.lines.0..=f.lines.1 {
            let Some(l) = lines.get(ln as usize - 1) else {
                continue;
            };
            if l.trim_start().starts_with("//") {
                continue;
            }
            let Some(col) = failing.find(l) else { continue };
            if n == 4 {
                break;
            }
            let col = col as u32 + 1;
            let guards = pf
                .tree_at(ln, col)
                .map(|t| syntax::guards_at(t, &pf.file.text, ln, col))
                .unwrap_or_default();
            if guards.is_empty() {
                continue;
            }
            // The innermost guard and the one around it.
            let when: Vec<String> = guards
                .iter()
                .take(2)
                .map(|g| {
                    crate::sections::lower_first(&guard_text(g))
                        .trim_start_matches("it runs only when ")
                        .trim_start_matches("it runs when ")
                        .trim_end_matches('.')
                        .to_string()
                })
                .collect();
            let what = l.trim().trim_end_matches([',', ';']);
            let what: String = what.chars().take(90).collect();
            b.push(
                FactKind::Receiver,
                format!(
                    "`{}` gives `{what}` when {}.",
                    f.qualified(),
                    when.join(", and ")
                ),
                Some((f.path.clone(), ln)),
                None,
            );
            n += 1;
        }
        if n == 0 && depth < 2 {
            // A fn that only passes on another crate fn's failure: a call
            // whose failure it forwards (`?`, `.ok_or(..)`, `.map_err(..)`)
            // first. A method of a field (`self.items.get(..)`) is the
            // field type's, not a namesake here.
            let forwards = |c: &Call| {
                lines.get(c.line as usize - 1).is_some_and(|l| {
                    let after = l.get(c.column as usize..).unwrap_or("");
                    let tail = l.trim_start().trim_start_matches("return ");
                    after.contains(")?")
                        || [".ok_or", ".map_err"].iter().any(|m| after.contains(m))
                        || tail.starts_with(&format!("{}(", c.name))
                })
            };
            let mut calls: Vec<&Call> = self.calls_in_fn[fi]
                .iter()
                .map(|&ci| &self.symbols.calls[ci])
                .filter(|c| {
                    !c.receiver
                        .as_deref()
                        .is_some_and(|r| r.starts_with("self."))
                })
                .collect();
            calls.sort_by_key(|c| !forwards(c));
            for c in calls {
                let next = self
                    .namesakes(&c.name)
                    .iter()
                    .copied()
                    .find(|&i| i != fi && failing.returned_by(&self.symbols.fns[i].signature));
                if let Some(next) = next {
                    b.push(
                        FactKind::Receiver,
                        format!(
                            "`{}` passes on the failure of `{}`.",
                            f.qualified(),
                            self.symbols.fns[next].qualified()
                        ),
                        Some((c.path.clone(), c.line)),
                        None,
                    );
                    self.failure_points(b, next, field_access, depth + 1, failing);
                    break;
                }
            }
        }
        let checked: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for w in f.text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                let std_checked = matches!(
                    w,
                    "checked_add"
                        | "checked_sub"
                        | "checked_mul"
                        | "checked_div"
                        | "checked_rem"
                        | "checked_pow"
                        | "checked_neg"
                        | "checked_shl"
                        | "checked_shr"
                        | "checked_next_power_of_two"
                );
                if std_checked && !v.iter().any(|x| x == w) {
                    v.push(w.to_string());
                }
            }
            v
        };
        if !checked.is_empty() {
            b.push(
                FactKind::Receiver,
                format!(
                    "`{}` uses {}, which gives `None` on overflow{}.",
                    f.qualified(),
                    ticked(checked.iter(), ", "),
                    if field_access {
                        " (the value unwrapped is one field of its result)"
                    } else {
                        ""
                    }
                ),
                Some((f.path.clone(), f.lines.0)),
                None,
            );
        }
        if n == 0 && matches!(failing, Failing::ErrOrNone) {
            for (cond, line) in option_filters(f) {
                b.push(
                    FactKind::Receiver,
                    format!(
                        "`{}` gives `None` when {cond} (its `Option` is filtered on that).",
                        f.qualified()
                    ),
                    Some((f.path.clone(), line)),
                    None,
                );
            }
        }
    }

    /// For a fn whose check reads a `thread_local!` static
    /// (`ENTERED.with(..)`): the state is per thread.
    pub(super) fn thread_local_fact(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        let Some((name, path, line)) = self
            .thread_locals
            .iter()
            .find(|(n, _, _)| f.text.contains(&format!("{n}.with(")))
            .cloned()
        else {
            return;
        };
        if b.seen(&format!("threadlocal:{name}")) {
            return;
        }
        b.push(
            FactKind::Mechanism,
            format!(
                "`{}` reads the thread-local `{name}` (declared with `thread_local!`, {path}:{line}): that state is per thread, so the check concerns only the calling thread; code running on another thread (`std::thread::spawn`) starts from that thread's own value.",
                f.qualified()
            ),
            Some((path, line)),
            None,
        );
    }

    /// For a method that stores a key-like parameter in a field of its
    /// type (`self.next = key`) that public methods returning such a key
    /// read (`insert` returning `self.next`): a freed key is handed out
    /// again, so a key kept after its removal is stale.
    pub(super) fn freed_key_fact(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        let body: String = f.text.split_whitespace().collect();
        let params = f.signature.split_once('(').map_or("", |(_, p)| p);
        let params = params.split(')').next().unwrap_or("");
        for p in params.split(',') {
            let Some((name, pty)) = p.split_once(':') else {
                continue;
            };
            let name = name.trim().trim_start_matches("mut ");
            let pty = pty.trim();
            let key_like = ["usize", "u32", "u64"].contains(&pty)
                || ["Key", "Id", "Index"].iter().any(|k| pty.ends_with(k));
            if !key_like {
                continue;
            }
            let Some(field) = body.split(&format!("={name};")).next().and_then(|before| {
                let (_, field) = before.rsplit_once("self.")?;
                (!field.is_empty() && field.chars().all(|c| c.is_alphanumeric() || c == '_'))
                    .then(|| field.to_string())
            }) else {
                continue;
            };
            if !body.contains(&format!("self.{field}={name};")) {
                continue;
            }
            let readers: Vec<String> = self
                .symbols
                .fns
                .iter()
                .filter(|g| {
                    !g.is_test
                        && g.is_pub
                        && g.name != f.name
                        && matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty)
                        && syntax::return_type(&g.signature) == Some(pty)
                        && mentions(&g.text, &format!("self.{field}"))
                })
                .take(4)
                .map(|g| format!("`{}`", g.qualified()))
                .collect();
            if readers.is_empty() || b.seen(&format!("freedkey:{ty}:{field}")) {
                continue;
            }
            b.push(
                FactKind::Mechanism,
                format!(
                    "`{}` stores the `{name}` it frees in `self.{field}`, which {} read to hand out a new `{pty}`: a freed `{name}` is reused by the next insertion, so a `{name}` kept after its removal is stale and may name another value (or none).",
                    f.qualified(),
                    readers.join(", ")
                ),
                Some((f.path.clone(), f.lines.0)),
                None,
            );
        }
    }

    /// For a panicking public fn that makes an `r` (no `self`): the fns of
    /// the same type that make one and hand the failure back instead —
    /// `Result<r, E>`/`Option<r>` (`HeaderValue::from_str` beside
    /// `from_static`), `TryFrom`/`FromStr` impls — stated as its fallible
    /// forms.
    fn fallible_maker_facts(&self, b: &mut Builder, fi: usize, r: &str) {
        let f = &self.symbols.fns[fi];
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        let ty_name = type_name(ty);
        let makes = |t: &str| t == r || t == "Self" || type_name(t) == ty_name;
        let mut found = 0;
        for g in &self.symbols.fns {
            if found >= 3 {
                break;
            }
            let Owner::Impl { ty: gty, of_trait } = &g.owner else {
                continue;
            };
            let conversion = of_trait
                .as_deref()
                .is_some_and(|t| matches!(type_name(t), "TryFrom" | "FromStr"));
            if g.is_test
                || g.name == f.name
                || type_name(gty) != ty_name
                || !(g.is_pub && of_trait.is_none() || conversion)
                || g.signature.contains("self")
            {
                continue;
            }
            let Some(ret) = syntax::return_type(&g.signature) else {
                continue;
            };
            let ret = ret.split_whitespace().collect::<Vec<_>>().join(" ");
            let ret = ret.trim_end_matches(['{', ' ']).to_string();
            // `Result<T, E>`, `Option<T>`, an alias such as `io::Result<T>`.
            let Some((outer, inner)) = ret.split_once('<') else {
                continue;
            };
            let outer = type_name(outer);
            if outer != "Option" && !outer.ends_with("Result") {
                continue;
            }
            let made = inner.split([',', '>']).next().unwrap_or("").trim();
            if !makes(made) || b.seen(&format!("alt:{}", g.qualified())) {
                continue;
            }
            let how = match of_trait.as_deref().map(type_name) {
                Some("FromStr") => format!(" (`s.parse::<{ty_name}>()`)"),
                Some("TryFrom") => format!(" (`{ty_name}::try_from(x)`)"),
                _ => String::new(),
            };
            b.push_detailed(
                    FactKind::Alternative,
                format!(
                    "`{}` is the fallible form of `{}` (returns `{ret}`){how}: it makes a `{ty_name}` and hands the failure back instead of panicking.",
                    g.qualified(),
                    f.qualified(),
                ),
                Some((g.path.clone(), g.lines.0)),
                Detail::Twin(crate::Twin {
                    fallible: g.qualified(),
                    panicking: f.qualified(),
                    returns: Some(ret.clone()),
                    calls: None,
                }),
            );
            found += 1;
        }
    }

    /// For a public fn that makes a value (no `self`): the other public
    /// fns of the same module or type returning the same type that do not
    /// call it, a way to the value without this check.
    pub(super) fn sibling_maker_facts(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        let takes_self = |g: &FnDef| {
            let params = g.signature.split_once('(').map_or("", |(_, p)| p);
            mentions(params.split(')').next().unwrap_or(""), "self")
        };
        let ret = |g: &FnDef| -> String {
            syntax::return_type(&g.signature)
                .map(|r| r.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default()
        };
        let r = ret(f);
        if !f.is_pub || f.is_test || takes_self(f) || r.is_empty() || r == "Self" {
            return;
        }
        self.fallible_maker_facts(b, fi, &r);
        let siblings: Vec<String> = self
            .symbols
            .fns
            .iter()
            .filter(|g| {
                let same_owner = match (&g.owner, &f.owner) {
                    (Owner::Module, Owner::Module) => g.path == f.path,
                    (Owner::Impl { ty: a, .. }, Owner::Impl { ty: c, .. }) => a == c,
                    _ => false,
                };
                same_owner
                    && g.is_pub
                    && !g.is_test
                    && g.name != f.name
                    && !takes_self(g)
                    && ret(g) == r
                    && !mentions(&g.text, &f.name)
            })
            .take(4)
            .map(|g| format!("`{}`", g.qualified()))
            .collect();
        if siblings.is_empty() || b.seen(&format!("siblings:{fi}")) {
            return;
        }
        b.push(
            FactKind::Alternative,
            format!(
                "{} also return{} `{r}` without going through `{}` and its check.",
                siblings.join(", "),
                if siblings.len() == 1 { "s" } else { "" },
                f.qualified()
            ),
            Some((f.path.clone(), f.lines.0)),
            None,
        );
    }

    /// A fallible sibling of the thrower or of the public fns reaching it
    /// (`try_x`, `checked_x`), and the fns that establish an asserted
    /// field's value.
    pub(super) fn alternative_facts(&self, b: &mut Builder, fi: usize, asserted: Option<&str>) {
        let f = &self.symbols.fns[fi];
        let base = f.name.trim_start_matches("r#");
        // Rust's naming of a panicking method's fallible twin: `try_x`,
        // `checked_x`; `unwrap_x`/`expect_x` beside `x` (either's
        // `unwrap_left` and `left`); an `Index` impl beside `get`.
        let mut twins = vec![
            (format!("try_{base}"), false),
            (format!("checked_{base}"), false),
            (format!("{base}_checked"), false),
            (format!("try_{base}_mut"), false),
        ];
        if let Some(x) = base
            .strip_prefix("unwrap_")
            .or_else(|| base.strip_prefix("expect_"))
        {
            twins.push((x.to_string(), true));
        }
        // A public fallible variant of it (`try_extend_from_slice` beside
        // `extend`): it must return an `Option` or a `Result`.
        let variant = format!("try_{base}_");
        let mut variants: Vec<&String> = self
            .by_name
            .keys()
            .filter(|n| n.starts_with(&variant) && **n != format!("try_{base}_mut"))
            .collect();
        variants.sort();
        twins.extend(variants.into_iter().take(3).map(|n| (n.clone(), true)));
        let of_index = matches!(&f.owner, Owner::Impl { of_trait: Some(t), .. }
            if matches!(type_name(t), "Index" | "IndexMut"));
        if of_index && matches!(base, "index" | "index_mut") {
            let get = if base == "index" { "get" } else { "get_mut" };
            twins.push((get.to_string(), true));
        }
        for (cand, must_return_option) in twins {
            for &i in self.namesakes(&cand) {
                let g = &self.symbols.fns[i];
                let same_owner = match (&g.owner, &f.owner) {
                    (Owner::Impl { ty: a, .. }, Owner::Impl { ty: c, .. }) => {
                        type_name(a) == type_name(c)
                    }
                    (Owner::Module, Owner::Module) => true,
                    (Owner::TraitDefault(a), Owner::TraitDefault(c)) => a == c,
                    _ => false,
                };
                if !same_owner || b.seen(&format!("alt:{}", g.qualified())) {
                    continue;
                }
                let ret = syntax::return_type(&g.signature)
                    .unwrap_or_default()
                    .to_string();
                let outer = type_name(&ret);
                let fallible = outer == "Option" || outer.ends_with("Result");
                if must_return_option && (!g.is_pub || !fallible) {
                    continue;
                }
                // Methods: as a user writes the calls (`x.left()` where
                // `x.unwrap_left()` panics).
                let panics = if of_index {
                    // `x[key]`, as the user writes the call of `index`.
                    method_call(f).map(|c| {
                        let args = c
                            .split_once('(')
                            .map_or("", |(_, a)| a)
                            .trim_end_matches(')');
                        format!("[{args}]")
                    })
                } else {
                    method_call(f)
                };
                let calls = match (panics, method_call(g)) {
                    (Some(fc), Some(gc)) => Some((format!("x{gc}"), format!("x{fc}"))),
                    _ => None,
                };
                let how = match &calls {
                    Some((gc, fc)) => {
                        format!(": call `{gc}` where `{fc}` panics, and handle the failure")
                    }
                    None => ": use it to handle the failure instead of panicking".to_string(),
                };
                b.push_detailed(
                    FactKind::Alternative,
                    format!(
                        "`{}` is the fallible form of `{}`{}{how}.",
                        g.qualified(),
                        f.qualified(),
                        if ret.is_empty() {
                            String::new()
                        } else {
                            format!(" (returns `{ret}`)")
                        }
                    ),
                    Some((g.path.clone(), g.lines.0)),
                    Detail::Twin(crate::Twin {
                        fallible: g.qualified(),
                        panicking: f.qualified(),
                        returns: (!ret.is_empty()).then(|| ret.clone()),
                        calls,
                    }),
                );
            }
        }
        // `self.field` in an assertion: the fns of the type that set it.
        let Some(cond) = asserted else { return };
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        let fields = self_fields(cond);
        self.setter_facts(b, &fields, Some(ty));
    }

    /// For a method of a type: the fns that create the type (which the
    /// user calls to get one), and — for a `Drop` impl — the methods that
    /// consume the value without running the destructor.
    pub(super) fn maker_facts(&self, b: &mut Builder, fi: usize) {
        let f = &self.symbols.fns[fi];
        let Owner::Impl {
            ty,
            of_trait: Some(of_trait),
        } = &f.owner
        else {
            return;
        };
        let of_trait = Some(of_trait.as_str());
        if ty.is_empty() || ty.contains('$') {
            return;
        }
        let mut makers = Vec::new();
        let mut maker_ids = Vec::new();
        for (gi, g) in self.symbols.fns.iter().enumerate() {
            if g.is_test
                || makers.len() == 6
                || matches!(
                    g.owner,
                    Owner::Impl {
                        of_trait: Some(_),
                        ..
                    }
                )
            {
                continue;
            }
            // The type's own methods use a value; its associated fns
            // returning `Self` make one.
            let own = matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty);
            let params = g.signature.split_once('(').map_or("", |(_, p)| p);
            if own && mentions(params.split(')').next().unwrap_or(""), "self") {
                continue;
            }
            let ret = syntax::return_type(&g.signature).unwrap_or("");
            let body: String = g.text.split_whitespace().collect();
            let builds = body.contains(&format!("{ty}{{"))
                || body.contains(&format!("{ty}::new("))
                || (mentions(ret, ty) && !mentions(ret, "Self"))
                || (own && mentions(ret, "Self"));
            if builds && g.name != f.name && !makers.contains(&g.qualified()) {
                makers.push(g.qualified());
                maker_ids.push(gi);
            }
        }
        if !makers.is_empty() && !b.seen(&format!("makers:{ty}")) {
            b.push(
                FactKind::Mechanism,
                format!(
                    "A `{ty}` is created by {}.",
                    makers
                        .iter()
                        .map(|m| format!("`{m}(..)`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
                None,
            );
            // Where those makers are called from: the user's way to a value.
            let reached = self.reached_from(&maker_ids, 4, 8);
            if !reached.is_empty() {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "The code that makes a `{ty}` is reached from {} (nearest first).",
                        reached
                            .iter()
                            .map(|&i| format!("`{}`", self.symbols.fns[i].qualified()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None,
                    None,
                );
            }
        }
        if of_trait == Some("Drop") {
            let defusers: Vec<String> = self
                .symbols
                .fns
                .iter()
                .filter(|g| {
                    !g.is_test
                        && matches!(&g.owner, Owner::Impl { ty: t, of_trait: None } if t == ty)
                        && g.text.contains("forget(self)")
                })
                .map(|g| format!("`{}`", g.qualified()))
                .collect();
            if !defusers.is_empty() {
                b.push(
                    FactKind::Mechanism,
                    format!(
                        "{} consume the `{ty}` with `mem::forget(self)`, so its destructor does not run: a `{ty}` must be completed with one of them; dropping it any other way (letting it go out of scope, an early return, `?`, a panic unwinding) runs this destructor — a drop bomb.",
                        defusers.join(", ")
                    ),
                    None,
                    None,
                );
            }
        }
    }

    /// For `self.field.expect(..)`/`unwrap()`: where the field is set and
    /// emptied; when every construction sets it and only consuming fns empty
    /// it, the check guards an internal invariant.
    pub(super) fn field_state_facts(&self, b: &mut Builder, fi: usize, receiver: &str) {
        let f = &self.symbols.fns[fi];
        let Some(rest) = receiver.strip_prefix("self.") else {
            return;
        };
        let field: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Owner::Impl { ty, .. } = &f.owner else {
            return;
        };
        if field.is_empty() {
            return;
        }
        let mut sets = Vec::new();
        let mut empties = Vec::new();
        let mut all_some = true;
        let mut all_consuming = true;
        for g in &self.symbols.fns {
            if g.is_test {
                continue;
            }
            let body: String = g.text.split_whitespace().collect();
            if body.contains(&format!("{ty}{{")) {
                if let Some(i) = body.find(&format!("{field}:")) {
                    let v: String = body[i + field.len() + 1..]
                        .chars()
                        .scan(0i32, |d, c| {
                            match c {
                                '(' | '[' | '{' => *d += 1,
                                ')' | ']' | '}' => *d -= 1,
                                _ => {}
                            }
                            (*d >= 0 && !(*d == 0 && c == ',')).then_some(c)
                        })
                        .collect();
                    all_some &= v.starts_with("Some(");
                    sets.push(format!("`{}` (`{field}: {v}`)", g.qualified()));
                }
            }
            let own = matches!(&g.owner, Owner::Impl { ty: t, .. } if t == ty);
            if own
                && (body.contains(&format!("self.{field}.take()"))
                    || body.contains(&format!("self.{field}=None")))
            {
                let consuming = g.signature.contains("(self")
                    || g.signature.contains("(mut self")
                    || g.name == "drop";
                all_consuming &= consuming;
                empties.push(format!(
                    "`{}`{}",
                    g.qualified(),
                    if consuming && g.name != "drop" {
                        " (takes `self` by value: the value is gone afterwards)"
                    } else if g.name == "drop" {
                        " (the destructor)"
                    } else {
                        ""
                    }
                ));
            }
        }
        if sets.is_empty() && empties.is_empty() {
            return;
        }
        let mut text = format!("`self.{field}` of `{ty}`");
        if !sets.is_empty() {
            text.push_str(&format!(" is set by {}", sets.join(", ")));
        }
        if !empties.is_empty() {
            text.push_str(&format!(
                "{} emptied only by {}",
                if sets.is_empty() { " is" } else { " and" },
                empties.join(", ")
            ));
        }
        text.push('.');
        let at = Some((f.path.clone(), f.lines.0));
        if !sets.is_empty() && all_some && all_consuming {
            text.push_str(" So the value is never missing while a method can still be called: this checks an internal invariant and should never fire; if it does, it is a bug in the crate.");
            b.push_detailed(FactKind::Mechanism, text, at, Detail::Invariant);
        } else {
            b.push(FactKind::Mechanism, text, at, None);
        }
    }
}

/// How a method is called on a value (`.left()`, `.get(…)`); none for a
/// fn without `self`.
pub(super) fn method_call(f: &FnDef) -> Option<String> {
    let params = syntax::parameters(&f.signature);
    let mut parts = params.iter().map(String::as_str);
    let first = parts.next()?;
    if !first
        .trim_start_matches(['&', ' '])
        .trim_start_matches("mut ")
        .starts_with("self")
        && !first.starts_with("&'")
    {
        return None;
    }
    if !mentions(first, "self") {
        return None;
    }
    Some(format!(".{}({})", f.name, arg_names(parts).join(", ")))
}

/// The names of a fn's parameters as a call passes them (`key`, `new_cap`;
/// `…` for a pattern).
fn arg_names<'a>(params: impl Iterator<Item = &'a str>) -> Vec<String> {
    params
        .map(|p| {
            let name = p
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches("mut ");
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                name.to_string()
            } else {
                "…".to_string()
            }
        })
        .collect()
}

/// The conditions under which a fn's `Option` chain gives `None`: an
/// element looked up with `.get(i)` on a field that does not hold it, a
/// `.filter(|x| cond)` whose condition is false (slotmap's `get`: a key
/// whose version is not the slot's, a removed value) — with their lines.
fn option_filters(f: &FnDef) -> Vec<(String, u32)> {
    static GET: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static FILTER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let get = GET.get_or_init(|| {
        regex::Regex::new(r"(self(?:\.\w+)+)\.get(?:_mut)?\(([^()]{1,60})\)").expect("valid regex")
    });
    let filter = FILTER.get_or_init(|| {
        regex::Regex::new(r"\.filter\(\|\s*&?(\w+)\s*\|\s*([^{};]{1,120}?)\)\s*(?:\.|$|;)")
            .expect("valid regex")
    });
    let mut out = Vec::new();
    // The text ends at the fn's last line (it begins at its attributes).
    let total = f.text.lines().count() as u32;
    // A method chain continued on the next lines (`.get(..)` below
    // `self.values`) read as one line, at its first line.
    let mut chains: Vec<(u32, String)> = Vec::new();
    for (k, l) in f.text.lines().enumerate() {
        let line = (f.lines.1 + k as u32 + 1).saturating_sub(total);
        match chains.last_mut() {
            Some((_, prev)) if l.trim_start().starts_with('.') => prev.push_str(l.trim()),
            _ => chains.push((line, l.to_string())),
        }
    }
    for (line, l) in &chains {
        let (line, l) = (*line, l.as_str());
        if let Some(c) = get.captures(l) {
            out.push((
                format!("`{}` holds nothing at `{}`", &c[1], c[2].trim()),
                line,
            ));
        }
        if let Some(c) = filter.captures(l) {
            out.push((
                format!("`{}` is false (for `{}`)", c[2].trim(), &c[1]),
                line,
            ));
        }
        if out.len() >= 3 {
            break;
        }
    }
    out
}
