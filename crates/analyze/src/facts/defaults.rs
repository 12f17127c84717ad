//! An error a fn holds as its default result (`let mut result =
//! Err(E)`) and returns unless a later step replaces it, with the exits
//! that leave it in place; and a condition that is a slice the caller
//! passes running out (`iter.next()` of its elements is `None`,
//! `out.len() < n`): the caller's buffer is too small.

use super::*;

/// Exits stated for one default result.
const MAX_EXITS: usize = 3;

/// `let mut NAME = Err(` (or `let mut NAME: T = Err(`) on a line: NAME.
fn default_err_binding(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("let mut ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let after = &rest[name.len()..];
    let value = after.split_once('=')?.1.trim_start();
    (!name.is_empty() && value.starts_with("Err(")).then_some(name)
}

/// The 1-based columns where `needle` starts, as a whole word, in `line`.
fn word_columns(line: &str, needle: &str) -> Vec<u32> {
    line.match_indices(needle)
        .filter(|(i, _)| {
            let before = line[..*i].chars().next_back();
            let after = line[i + needle.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(i, _)| line[..i].chars().count() as u32 + 1)
        .collect()
}

/// The declared type of parameter `name` in a signature, as written.
pub(super) fn param_type<'s>(signature: &'s str, name: &str) -> Option<&'s str> {
    let open = signature.find('(')?;
    let params = &signature[open + 1..];
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in params.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ']' | '>' if depth > 0 => depth -= 1,
            ')' if depth == 0 => return pick(&params[start..i], name),
            ')' => depth -= 1,
            ',' if depth == 0 => {
                if let Some(t) = pick(&params[start..i], name) {
                    return Some(t);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

fn pick<'s>(param: &'s str, name: &str) -> Option<&'s str> {
    let (n, ty) = param.split_once(':')?;
    let n = n.trim().trim_start_matches("mut ").trim();
    (n == name).then(|| ty.trim())
}

/// True when a type is a slice behind references (`&mut [T]`,
/// `&mut &mut [MaybeUninit<T>]`): a buffer the caller sizes.
fn is_slice(ty: &str) -> bool {
    let t = super::callgraph::without_refs(ty);
    t.starts_with('[') && !t.contains(';')
}

impl Analyzer {
    /// The slice parameter of fn `fi` a guard's condition is about running
    /// out of: `P.len() < n`, `n > P.len()`, `P.is_empty()`, or the
    /// `None` of `I.next()` where `I` walks `P` (`let mut I =
    /// x.P.iter_mut()`). `(P, its type, how)`.
    pub(super) fn exhausted_slice(&self, fi: usize, g: &Guard) -> Option<(String, String, String)> {
        let f = &self.symbols.fns[fi];
        let param = |p: &str| param_type(&f.signature, p).filter(|t| is_slice(t));
        match g {
            Guard::Arm { value, pattern, .. } if pattern.trim() == "None" => {
                self.walked_slice(fi, value)
            }
            Guard::ElseLet { value, .. } => self.walked_slice(fi, value),
            Guard::If(cond) => {
                let words: Vec<&str> = cond
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '('))
                    .collect();
                words.iter().find_map(|w| {
                    let p = w
                        .strip_suffix(".len(")
                        .or_else(|| w.strip_suffix(".is_empty("))?;
                    let short = cond.contains(&format!("{p}.len() <"))
                        || cond.contains(&format!("> {p}.len()"))
                        || cond.contains(&format!("{p}.is_empty()"));
                    let ty = param(p).filter(|_| short)?;
                    Some((
                        p.to_string(),
                        ty.to_string(),
                        format!("`{cond}`: the slice passed as `{p}` is shorter than needed"),
                    ))
                })
            }
            _ => None,
        }
    }

    /// `I.next()` where fn `fi` binds `I` to the elements of a slice
    /// parameter.
    fn walked_slice(&self, fi: usize, value: &str) -> Option<(String, String, String)> {
        let f = &self.symbols.fns[fi];
        let it = value.trim().strip_suffix(".next()")?;
        if !it.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let bound = [format!("let mut {it} = "), format!("let {it} = ")]
            .iter()
            .find_map(|p| f.text.split_once(p.as_str()).map(|(_, r)| r))?;
        let expr = bound.split(';').next()?.trim();
        let walked = expr
            .strip_suffix(".iter_mut()")
            .or_else(|| expr.strip_suffix(".iter()"))?;
        let p = walked.rsplit('.').next()?.trim();
        let ty = param_type(&f.signature, p).filter(|t| is_slice(t))?;
        Some((
            p.to_string(),
            ty.to_string(),
            format!(
                "`{it}` (`{expr}`) has no element left: the slice passed as `{p}` has fewer elements than the input needs"
            ),
        ))
    }

    /// A fact saying the error comes from a caller's slice that is too
    /// small, for a guard `g` in fn `fi`; true when stated.
    pub(super) fn exhausted_slice_fact(
        &self,
        b: &mut Builder,
        fi: usize,
        g: &Guard,
        at: (String, u32),
    ) -> bool {
        let Some((p, ty, how)) = self.exhausted_slice(fi, g) else {
            return false;
        };
        let f = &self.symbols.fns[fi];
        if b.seen(&format!("slice:{fi}:{p}")) {
            return false;
        }
        b.push(
            FactKind::Guard,
            format!(
                "In `{}`, {how} (`{p}: {ty}`, sized by whoever calls it): the error means the buffer the caller passed is too small for the input. Pass a larger slice (more elements), or one sized from the input.",
                f.qualified()
            ),
            Some(at),
            None,
        );
        true
    }

    /// For a construction that is a fn's default result (`let mut result
    /// = Err(E)`): where the fn replaces it, and the exits that return it
    /// still in place, each with its condition.
    pub(super) fn default_result_facts(&self, b: &mut Builder, fi: usize, path: &str, line: u32) {
        let Some(pf) = self.files.get(path) else {
            return;
        };
        let lines: Vec<&str> = pf.file.text.lines().collect();
        // The binding's line, or one of the two above when the `Err(..)`
        // is written over several lines.
        let at = line.saturating_sub(1) as usize;
        let Some((line, name)) = (at.saturating_sub(2)..=at).rev().find_map(|i| {
            let name = default_err_binding(lines.get(i)?)?;
            let open = lines[i..at].iter().all(|l| !l.trim_end().ends_with(';'));
            open.then_some((i as u32 + 1, name))
        }) else {
            return;
        };
        let f = &self.symbols.fns[fi];
        if b.seen(&format!("default:{fi}:{name}")) {
            return;
        }
        let range = line as usize..(f.lines.1 as usize).min(lines.len());
        // Where it is replaced: `name = ..` after the binding.
        let assign = format!("{name} =");
        let replaced: Vec<u32> = range
            .clone()
            .filter(|&i| {
                let t = lines[i].trim_start();
                t.starts_with(&assign) && !t.starts_with(&format!("{name} =="))
            })
            .map(|i| i as u32 + 1)
            .collect();
        if replaced.is_empty() {
            return;
        }
        b.push(
            FactKind::Guard,
            format!(
                "`{}` holds it as its default result (`let mut {name} = Err(..)`, {path}:{line}) and returns it unless `{name}` is replaced ({}): it is the answer whenever the fn stops before reaching those.",
                f.qualified(),
                replaced
                    .iter()
                    .map(|l| format!("{path}:{l}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some((path.to_string(), line)),
            None,
        );
        // The loops whose body replaces it, by label, and the `break`s
        // out of them that leave it in place.
        let labels: Vec<String> = range
            .clone()
            .filter_map(|i| {
                let t = lines[i].trim_start();
                let label = t.strip_prefix('\'')?;
                let (l, rest) = label.split_once(':')?;
                let rest = rest.trim_start();
                (["loop", "while ", "for "]
                    .iter()
                    .any(|k| rest.starts_with(k))
                    && replaced.iter().any(|&r| r as usize > i + 1))
                .then(|| format!("'{l}"))
            })
            .collect();
        let mut exits = 0;
        for i in range {
            if exits == MAX_EXITS {
                break;
            }
            for label in &labels {
                let brk = format!("break {label}");
                for col in word_columns(lines[i], &brk) {
                    let at = (path.to_string(), i as u32 + 1);
                    let Some(tree) = pf.tree_at(at.1, col) else {
                        continue;
                    };
                    let guards = syntax::guards_at(tree, &pf.file.text, at.1, col);
                    let Some(g) = guards.first() else { continue };
                    b.push(
                        FactKind::Guard,
                        format!(
                            "`{}` leaves the loop `{label}` with the error still in `{name}` at {path}:{} (`{brk}`): {}",
                            f.qualified(),
                            at.1,
                            crate::sections::lower_first(&guard_text(g))
                        ),
                        Some(at.clone()),
                        None,
                    );
                    self.exhausted_slice_fact(b, fi, g, at.clone());
                    exits += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_errors_params_and_slices_are_read_from_the_text() {
        assert_eq!(
            default_err_binding("    let mut result = Err(Error::Full);").as_deref(),
            Some("result")
        );
        assert_eq!(
            default_err_binding("let mut r: Result<u8, E> = Err(E::X);").as_deref(),
            Some("r")
        );
        assert_eq!(default_err_binding("let mut r = Ok(1);"), None);
        let sig = "fn parse<'a>( headers: &mut &mut [MaybeUninit<Header<'a>>], bytes: &mut Bytes<'a>, n: [u8; 4] ) -> Result<usize>";
        assert_eq!(
            param_type(sig, "headers"),
            Some("&mut &mut [MaybeUninit<Header<'a>>]")
        );
        assert!(is_slice(param_type(sig, "headers").unwrap()));
        assert!(!is_slice(param_type(sig, "bytes").unwrap()));
        assert!(!is_slice(param_type(sig, "n").unwrap()));
        assert_eq!(
            word_columns("  None => break 'headers", "break 'headers"),
            vec![11]
        );
    }
}
