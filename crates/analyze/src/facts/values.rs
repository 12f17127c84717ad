//! Values a condition compares against: the `const`/`static` items it
//! names, evaluated where their expression is arithmetic of literals and
//! other constants, and the defaults a constructor gives the fields it reads.

use super::*;

/// Constant definitions followed from one name (`A = B`, `B = [..]`).
const MAX_CONST_DEPTH: usize = 3;
/// Names whose values one page states.
const MAX_VALUES: usize = 6;

/// A `const` or `static` item of the snapshot.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ConstDef {
    /// `const` or `static`.
    pub(super) keyword: &'static str,
    /// Its name.
    pub(super) name: String,
    /// Its declared type.
    pub(super) ty: String,
    /// Its value as written, on one line.
    pub(super) expr: String,
    /// File and line.
    pub(super) path: String,
    /// Line of the declaration.
    pub(super) line: u32,
    /// The `cfg` conditions written right above it.
    pub(super) gates: Vec<String>,
}

/// The `const`/`static` items of a file (module level, impls and fns alike).
pub(super) fn const_defs(path: &str, text: &str) -> Vec<ConstDef> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let mut t = l.trim_start();
        if t.starts_with("pub") {
            t = match t.strip_prefix("pub(") {
                Some(r) => r.split_once(')').map_or("", |(_, r)| r.trim_start()),
                None => t.trim_start_matches("pub ").trim_start(),
            };
        }
        let (keyword, rest) = if let Some(r) = t.strip_prefix("const ") {
            ("const", r)
        } else if let Some(r) = t.strip_prefix("static ") {
            ("static", r.trim_start_matches("mut "))
        } else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || name == "fn" || name == "_" {
            continue;
        }
        // The declaration up to its `;` (a few lines at most).
        let mut decl = rest[name.len()..].to_string();
        let mut j = i;
        while !decl.contains(';') && j + 1 < lines.len() && j < i + 12 {
            j += 1;
            decl.push(' ');
            decl.push_str(lines[j].trim());
        }
        let Some(decl) = decl.split(';').next() else {
            continue;
        };
        let Some((ty, expr)) = decl
            .trim_start()
            .strip_prefix(':')
            .and_then(|r| r.split_once('='))
        else {
            continue;
        };
        let expr = expr.split_whitespace().collect::<Vec<_>>().join(" ");
        if expr.is_empty() {
            continue;
        }
        let mut gates = Vec::new();
        for above in lines[..i].iter().rev() {
            let a = above.trim();
            if let Some(c) = a.strip_prefix("#[cfg(").and_then(|r| r.strip_suffix(")]")) {
                gates.push(c.to_string());
            } else if !(a.starts_with("#[") || a.starts_with("///")) {
                break;
            }
        }
        out.push(ConstDef {
            keyword,
            name,
            ty: ty.trim().to_string(),
            expr,
            path: path.to_string(),
            line: i as u32 + 1,
            gates,
        });
    }
    out
}

/// An expression's tokens: numbers, paths, operators, brackets.
fn tokens(expr: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let cs: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let s = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_' || cs[i] == ':') {
                i += 1;
            }
            out.push(cs[s..i].iter().collect());
        } else if (c == '<' || c == '>') && cs.get(i + 1) == Some(&c) {
            out.push(format!("{c}{c}"));
            i += 2;
        } else if "+-*/%&|^()!".contains(c) {
            out.push(c.to_string());
            i += 1;
        } else {
            return None;
        }
    }
    Some(out)
}

/// An integer literal (`1_000`, `0x10`, `4096usize`).
fn int_literal(t: &str) -> Option<i128> {
    let t = t.replace('_', "");
    let (digits, radix) = match t.get(..2) {
        Some("0x") => (&t[2..], 16),
        Some("0b") => (&t[2..], 2),
        Some("0o") => (&t[2..], 8),
        _ => (t.as_str(), 10),
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let suffix = &digits[end..];
    let ok_suffix = suffix.is_empty()
        || [
            "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        ]
        .contains(&suffix);
    if end == 0 || !ok_suffix {
        return None;
    }
    i128::from_str_radix(&digits[..end], radix).ok()
}

/// `u8::MAX`, `i32::MIN`, `usize::BITS` (a 64-bit target).
fn std_int_const(t: &str) -> Option<i128> {
    let (ty, c) = t.split_once("::")?;
    let bits: u32 = match ty {
        "u8" | "i8" => 8,
        "u16" | "i16" => 16,
        "u32" | "i32" => 32,
        "u64" | "i64" | "usize" | "isize" => 64,
        _ => return None,
    };
    let signed = ty.starts_with('i');
    Some(match (c, signed) {
        ("BITS", _) => bits as i128,
        ("MAX", false) => (1i128 << bits) - 1,
        ("MAX", true) => (1i128 << (bits - 1)) - 1,
        ("MIN", false) => 0,
        ("MIN", true) => -(1i128 << (bits - 1)),
        _ => return None,
    })
}

/// Evaluates integer arithmetic of literals and named constants (`lookup`
/// gives a name's value); `None` for anything else.
pub(super) fn eval(expr: &str, lookup: &dyn Fn(&str) -> Option<i128>) -> Option<i128> {
    let toks = tokens(expr)?;
    let mut p = Eval {
        toks: &toks,
        at: 0,
        lookup,
    };
    let v = p.binary(0)?;
    (p.at == toks.len()).then_some(v)
}

struct Eval<'a> {
    toks: &'a [String],
    at: usize,
    lookup: &'a dyn Fn(&str) -> Option<i128>,
}

impl Eval<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(String::as_str)
    }

    fn binary(&mut self, min: u8) -> Option<i128> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek() {
            let prec = match op {
                "|" => 1,
                "^" => 2,
                "&" => 3,
                "<<" | ">>" => 4,
                "+" | "-" => 5,
                "*" | "/" | "%" => 6,
                "as" => 7,
                _ => break,
            };
            if prec < min {
                break;
            }
            let op = op.to_string();
            self.at += 1;
            if op == "as" {
                // A cast to another integer type keeps the value.
                self.at += 1;
                continue;
            }
            let rhs = self.binary(prec + 1)?;
            lhs = match op.as_str() {
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "<<" => lhs.checked_shl(u32::try_from(rhs).ok()?)?,
                ">>" => lhs.checked_shr(u32::try_from(rhs).ok()?)?,
                "+" => lhs.checked_add(rhs)?,
                "-" => lhs.checked_sub(rhs)?,
                "*" => lhs.checked_mul(rhs)?,
                "/" => lhs.checked_div(rhs)?,
                _ => lhs.checked_rem(rhs)?,
            };
        }
        Some(lhs)
    }

    fn unary(&mut self) -> Option<i128> {
        let t = self.peek()?.to_string();
        self.at += 1;
        match t.as_str() {
            "-" => self.unary()?.checked_neg(),
            "(" => {
                let v = self.binary(0)?;
                (self.peek() == Some(")")).then(|| self.at += 1)?;
                Some(v)
            }
            _ => int_literal(&t)
                .or_else(|| std_int_const(&t))
                .or_else(|| (self.lookup)(&t)),
        }
    }
}

/// The identifiers of a text that look like constants (`UPPER_CASE`, at
/// least two characters), last path segment.
fn const_like_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')) {
        let last = w.rsplit("::").next().unwrap_or(w);
        let upper = last.len() >= 2
            && last.chars().any(|c| c.is_ascii_uppercase())
            && last
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            && last.starts_with(|c: char| c.is_ascii_uppercase());
        if upper && !out.iter().any(|x| x == last) {
            out.push(last.to_string());
        }
    }
    out
}

impl Analyzer {
    /// The value of a constant by name, when every definition of it
    /// evaluates to the same integer.
    fn const_value(&self, name: &str, depth: usize) -> Option<i128> {
        if depth > MAX_CONST_DEPTH {
            return None;
        }
        let defs: Vec<&ConstDef> = self.consts.iter().filter(|c| c.name == name).collect();
        let mut value = None;
        for d in defs {
            let v = eval(&d.expr, &|n| {
                self.const_value(n.rsplit("::").next().unwrap_or(n), depth + 1)
            })?;
            if value.is_some_and(|x| x != v) {
                return None;
            }
            value = Some(v);
        }
        value
    }

    /// Value facts for the constants and fields named in the conditions
    /// gathered so far (guards, assertions, receivers).
    pub(super) fn value_facts(&self, b: &mut Builder) {
        let conditions: Vec<String> = b
            .facts
            .iter()
            .filter(|f| {
                matches!(
                    f.kind,
                    FactKind::Guard | FactKind::Assertion | FactKind::Receiver
                )
            })
            .flat_map(|f| {
                f.text
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut stated = 0;
        let mut queue: VecDeque<(String, usize)> = conditions
            .iter()
            .flat_map(|c| const_like_names(c))
            .map(|n| (n, 0))
            .collect();
        while let Some((name, depth)) = queue.pop_front() {
            if stated == MAX_VALUES || depth > MAX_CONST_DEPTH {
                break;
            }
            let defs: Vec<&ConstDef> = self
                .consts
                .iter()
                .filter(|c| c.name == name && !errdex_syntax::is_test_or_example_path(&c.path))
                .collect();
            if defs.is_empty() || b.seen(&format!("value:{name}")) {
                continue;
            }
            let value = self.const_value(&name, 0);
            let (text, shown) = match (value, defs.as_slice()) {
                (Some(v), [d, ..]) => {
                    let shown = if int_literal(&d.expr) == Some(v) {
                        format!("`{v}`")
                    } else {
                        format!("`{}` = {v}", d.expr)
                    };
                    (
                        format!(
                            "`{name}` is {shown} (`{} {name}: {}`, {}:{}).",
                            d.keyword, d.ty, d.path, d.line
                        ),
                        Some(shown),
                    )
                }
                (None, [d]) => (
                    format!(
                        "`{name}` is `{}` (`{} {name}: {}`, {}:{}).",
                        d.expr, d.keyword, d.ty, d.path, d.line
                    ),
                    Some(format!("`{}`", d.expr)),
                ),
                (None, many) => {
                    let each: Vec<String> = many
                        .iter()
                        .take(4)
                        .map(|d| {
                            let when = if d.gates.is_empty() {
                                String::new()
                            } else {
                                format!(" under {}", cfg_list(&d.gates))
                            };
                            format!("`{}`{when} ({}:{})", d.expr, d.path, d.line)
                        })
                        .collect();
                    (
                        format!(
                            "`{name}` has {} definitions, chosen by configuration: {}.",
                            many.len(),
                            each.join("; ")
                        ),
                        None,
                    )
                }
                (Some(_), []) => continue,
            };
            let at = defs.first().map(|d| (d.path.clone(), d.line));
            match shown {
                Some(value) => b.push_detailed(
                    FactKind::Value,
                    text,
                    at,
                    Detail::Value {
                        name: name.clone(),
                        value,
                    },
                ),
                None => b.push(FactKind::Value, text, at, None),
            }
            stated += 1;
            // A constant defined as another (`A = B_IMPL`): state that too.
            for d in &defs {
                for n in const_like_names(&d.expr) {
                    if n != name {
                        queue.push_back((n, depth + 1));
                    }
                }
            }
        }
        let fields: Vec<String> = conditions
            .iter()
            .flat_map(|c| constructors::self_fields(c))
            .collect();
        self.field_default_facts(b, &fields);
    }

    /// The literal a constructor gives a field (`Config { limit: 50, .. }`
    /// in `Config::default`): the value a user gets unless they set it.
    fn field_default_facts(&self, b: &mut Builder, fields: &[String]) {
        let mut stated = 0;
        for field in fields.iter().rev() {
            if stated == 2 || field.len() < 3 {
                break;
            }
            let needle = format!("{field}:");
            for f in self.symbols.fns.iter().filter(|f| !f.is_test) {
                let Some(i) = f.text.match_indices(&needle).map(|(i, _)| i).find(|&i| {
                    !f.text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
                }) else {
                    continue;
                };
                let value: String = f.text[i + needle.len()..]
                    .trim_start()
                    .chars()
                    .take_while(|c| !matches!(c, ',' | '}' | '\n'))
                    .collect();
                let value = value.trim();
                let literal = int_literal(value).is_some()
                    || value == "true"
                    || value == "false"
                    || (!const_like_names(value).is_empty()
                        && const_like_names(value).len() == 1
                        && self
                            .const_value(value.rsplit("::").next().unwrap_or(value), 0)
                            .is_some());
                if !literal || b.seen(&format!("fielddefault:{field}")) {
                    continue;
                }
                let line = f.lines.0 + f.text[..i].matches('\n').count() as u32;
                b.push(
                    FactKind::Value,
                    format!(
                        "`{}` sets `{field}` to `{value}`: that is its value unless it is set otherwise.",
                        f.qualified()
                    ),
                    Some((f.path.clone(), line)),
                    None,
                );
                stated += 1;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_literals_shifts_and_named_constants() {
        let lookup = |n: &str| (n == "BASE").then_some(4096);
        assert_eq!(eval("1 << 12", &lookup), Some(4096));
        assert_eq!(eval("BASE * 2 + 0x10", &lookup), Some(8208));
        assert_eq!(eval("(1usize << 4) - 1", &lookup), Some(15));
        assert_eq!(eval("u8::MAX as usize + 1", &lookup), Some(256));
        assert_eq!(eval("1_000", &lookup), Some(1000));
        assert_eq!(eval("OTHER + 1", &lookup), None);
        assert_eq!(eval("\"text\"", &lookup), None);
    }

    #[test]
    fn finds_consts_with_their_cfg() {
        let src = "#[cfg(windows)]\nconst SET: &[i32] = &[1, 2];\n#[cfg(not(windows))]\nconst SET: &[i32] = &[\n    3,\n];\npub(crate) const LIMIT: usize = 1 << 12;\n";
        let d = const_defs("src/lib.rs", src);
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].gates, vec!["windows".to_string()]);
        assert_eq!(d[1].expr, "&[ 3, ]");
        assert_eq!(
            (d[2].name.as_str(), d[2].expr.as_str()),
            ("LIMIT", "1 << 12")
        );
    }
}
