//! A template compiled for matching: literal segments (whitespace folded)
//! and holes that match any text, with the text each hole took.

use errdex_model::{Piece, Template};

/// Backtracking steps allowed per match attempt (hostile text cannot make
/// matching slow).
const BUDGET: u32 = 20_000;

/// One segment of a compiled template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Lit(String),
    /// A hole, with the argument it prints and what its text can be.
    Hole(String, Class),
}

/// What a hole's spec lets it print: any text, or (Python's `!r`/`!a`
/// conversions, `%r`) a value's `repr`, or (`%d`, `{:d}`) an integer.
/// Rust's specs (`?`, `#?`, `>8`, `x`) print any text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Any,
    Repr,
    Int,
}

impl Class {
    /// The class a hole's spec gives it.
    fn of(spec: &str) -> Class {
        if spec.starts_with("!r") || spec.starts_with("!a") {
            return Class::Repr;
        }
        // `%d`, `%5d`, `%-3i`, `{:d}`, `{:02d}` (Rust has no `d`).
        let body = spec.trim_start_matches(['#', '0', '-', ' ', '+']);
        let digits = body.trim_start_matches(|c: char| c.is_ascii_digit());
        if matches!(digits, "d" | "i" | "u") {
            return Class::Int;
        }
        Class::Any
    }

    /// Whether a hole of this class can have printed `v`.
    fn admits(self, v: &str) -> bool {
        match self {
            Class::Any => true,
            Class::Int => {
                let d = v.trim().strip_prefix(['-', '+']).unwrap_or(v.trim());
                !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
            }
            Class::Repr => is_repr(v.trim()),
        }
    }
}

/// Whether `v` reads as what Python's `repr` prints: a quoted string
/// (`'a b'`, `b"x"`), a bracketed or angled value (`[1, 2]`, `{..}`,
/// `<Foo at 0x1>`), a call-like value (`Decimal('1')`, `Point(x=1)`), a
/// number, or one token without spaces (a custom `__repr__`, `None`).
fn is_repr(v: &str) -> bool {
    let Some(first) = v.chars().next() else {
        return false;
    };
    let last = v.chars().next_back().unwrap_or(first);
    // A string's prefix (`b`, `rb`) is at most two letters.
    let prefix = v
        .char_indices()
        .take(3)
        .find(|(_, c)| !matches!(c, 'b' | 'r' | 'u' | 'B' | 'R' | 'U'))
        .filter(|&(_, c)| c == '\'' || c == '"');
    if let Some((i, q)) = prefix {
        return v.len() >= i + 2 && v.ends_with(q);
    }
    let opens = matches!(first, '[' | '(' | '{' | '<');
    if opens {
        return matches!(
            (first, last),
            ('[', ']') | ('(', ')') | ('{', '}') | ('<', '>')
        );
    }
    // `Name(...)`, `mod.Name<...>`.
    if let Some(open) = v.find(['(', '<', '[', '{']) {
        let head = &v[..open];
        let named = !head.is_empty()
            && head
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        if named && matches!(last, ')' | '>' | ']' | '}') {
            return true;
        }
    }
    !v.contains(char::is_whitespace)
}

/// A compiled template.
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern {
    segs: Vec<Seg>,
    /// Where the optional `: {err:?}` of `expect` begins: a whole match may
    /// end before it (`Option::expect` prints the message alone).
    optional_from: Option<usize>,
    /// Characters of literal text, the optional suffix's left out (as in
    /// `literal_weight`).
    literal_len: usize,
    /// Literal characters weighed by run length: a long run of text is
    /// stronger evidence than the same characters in short pieces.
    literal_weight: f64,
    /// A hash of the literal segments (joined by NULs): two patterns whose
    /// literals differ almost never share it, so comparing literals starts
    /// here.
    skeleton: u64,
}

/// Runs of literal text this long or longer count in full; shorter ones
/// count in proportion.
const FULL_RUN: f64 = 12.0;

/// What a hole took from the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The hole's argument (`offset`, `self.line`), empty when unnamed.
    pub arg: String,
    /// The text it took.
    pub value: String,
}

/// A successful match against a (normalised) text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte range of the text the template covers.
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// Characters of literal template text matched.
    pub literal: usize,
    /// Byte range of the text each hole took (values are made on demand by
    /// [`Pattern::captures`], so rejected candidates cost no allocation).
    pub spans: Vec<(usize, usize)>,
}

/// Folds runs of whitespace into one space and trims the ends.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

impl Pattern {
    /// Compiles a template; `debug_suffix` adds the optional `: {err:?}`
    /// that `Result::expect` prints after its message (`Option::expect`
    /// prints the message alone, and the receiver's type is not known).
    pub fn new(t: &Template, debug_suffix: bool) -> Self {
        let mut segs: Vec<Seg> = Vec::new();
        // The last literal ended a line; the current hole begins one.
        let (mut after_break, mut line_start_hole) = (false, false);
        for p in t.pieces() {
            match p {
                Piece::Lit(s) => {
                    // Keep one space at either end when there was some, so
                    // that words next to holes stay apart.
                    let lead = s.starts_with(char::is_whitespace) && !segs.is_empty();
                    let trail = s.ends_with(char::is_whitespace);
                    let mut n = normalize(s);
                    if n.is_empty() {
                        n = if s.is_empty() || segs.is_empty() {
                            String::new()
                        } else {
                            " ".into()
                        };
                    } else {
                        if lead {
                            n.insert(0, ' ');
                        }
                        if trail {
                            n.push(' ');
                        }
                    }
                    // A hole that begins a line may print only spaces (`{s}
                    // |`, an indentation): they fold into the line break's
                    // space in the text, so the space after it is optional.
                    if line_start_hole && n.starts_with(' ') {
                        n.remove(0);
                    }
                    line_start_hole = false;
                    after_break = s.trim_end_matches([' ', '\t']).ends_with('\n');
                    if n.is_empty() {
                        continue;
                    }
                    match segs.last_mut() {
                        Some(Seg::Lit(prev)) => prev.push_str(&n),
                        _ => segs.push(Seg::Lit(n)),
                    }
                }
                Piece::Hole(h) => {
                    line_start_hole = after_break;
                    match segs.last_mut() {
                        // Adjacent holes print one run of any text.
                        Some(Seg::Hole(_, class)) => *class = Class::Any,
                        _ => segs.push(Seg::Hole(h.arg.clone(), Class::of(&h.spec))),
                    }
                }
            }
        }
        // A trailing space before the end of the text never matches.
        if let Some(Seg::Lit(l)) = segs.last_mut() {
            while l.ends_with(' ') {
                l.pop();
            }
        }
        if let Some(Seg::Lit(l)) = segs.first_mut() {
            while l.starts_with(' ') {
                l.remove(0);
            }
        }
        segs.retain(|s| !matches!(s, Seg::Lit(l) if l.is_empty()));
        let literal_len = segs
            .iter()
            .map(|s| match s {
                Seg::Lit(l) => l.chars().count(),
                Seg::Hole(..) => 0,
            })
            .sum();
        let literal_weight = segs
            .iter()
            .map(|s| match s {
                Seg::Lit(l) => {
                    let n = l.trim().chars().count() as f64;
                    n * (n / FULL_RUN).min(1.0)
                }
                Seg::Hole(..) => 0.0,
            })
            .sum();
        // std's suffix: neither literal length nor weight of the template.
        let mut optional_from = None;
        if debug_suffix && !segs.is_empty() {
            optional_from = Some(segs.len());
            segs.push(Seg::Lit(": ".into()));
            segs.push(Seg::Hole("error".into(), Class::Any));
        }
        let mut hasher = std::hash::DefaultHasher::new();
        for s in &segs {
            if let Seg::Lit(l) = s {
                std::hash::Hash::hash(l, &mut hasher);
            }
        }
        Pattern {
            skeleton: std::hash::Hasher::finish(&hasher),
            segs,
            optional_from,
            literal_len,
            literal_weight,
        }
    }

    /// Whether two patterns have the same literal segments (they differ at
    /// most in their holes' names).
    pub fn same_literals(&self, other: &Pattern) -> bool {
        std::ptr::eq(self, other)
            || (self.skeleton == other.skeleton && self.literals().eq(other.literals()))
    }

    /// Whether two patterns match every text alike: the same literal
    /// segments and holes in the same places (their holes' names may
    /// differ; a [`Found`] holds spans, not names).
    pub fn same_shape(&self, other: &Pattern) -> bool {
        std::ptr::eq(self, other)
            || (self.skeleton == other.skeleton
                && self.optional_from == other.optional_from
                && self.segs.len() == other.segs.len()
                && self.segs.iter().zip(&other.segs).all(|pair| match pair {
                    (Seg::Lit(a), Seg::Lit(b)) => a == b,
                    (Seg::Hole(_, a), Seg::Hole(_, b)) => a == b,
                    _ => false,
                }))
    }

    /// A hash of the literal segments: patterns of the same shape share it.
    pub(crate) fn skeleton(&self) -> u64 {
        self.skeleton
    }

    /// The words a message that this template matches must contain: the
    /// words of its literal segments, less those glued to a hole (a hole's
    /// value may extend them, `v{}` printing `v42`).
    pub fn whole_words(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let n = self.segs.len();
        for (i, seg) in self.segs.iter().enumerate() {
            let Seg::Lit(l) = seg else { continue };
            let mut ws: Vec<&str> = words(l).collect();
            let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            let hole = |j: usize| matches!(self.segs.get(j), Some(Seg::Hole(..)));
            if i + 1 < n && hole(i + 1) && glued(l.chars().last()) {
                ws.pop();
            }
            if i > 0 && hole(i - 1) && glued(l.chars().next()) && !ws.is_empty() {
                ws.remove(0);
            }
            out.extend(ws);
        }
        out
    }

    /// Characters of literal text.
    pub fn literal_len(&self) -> usize {
        self.literal_len
    }

    /// True when the template begins with a hole (`{} at line {}`): a
    /// wrapper around what precedes its literal text.
    pub fn starts_with_hole(&self) -> bool {
        matches!(self.segs.first(), Some(Seg::Hole(..)))
    }

    /// True when the template ends with a hole.
    pub fn ends_with_hole(&self) -> bool {
        matches!(self.segs.last(), Some(Seg::Hole(..)))
    }

    /// Characters of literal text, runs shorter than a few words counting
    /// in proportion to their length.
    pub fn literal_weight(&self) -> f64 {
        self.literal_weight
    }

    /// The literal text a whole match begins with: the first segment when
    /// it is literal, else nothing.
    pub fn head(&self) -> &str {
        match self.segs.first() {
            Some(Seg::Lit(l)) => l,
            _ => "",
        }
    }

    /// The literal text a whole match ends with: the last segment when it
    /// is literal, else nothing.
    pub fn tail(&self) -> &str {
        match self.segs.last() {
            Some(Seg::Lit(l)) => l,
            _ => "",
        }
    }

    /// The literal segments.
    pub fn literals(&self) -> impl Iterator<Item = &str> {
        self.segs.iter().filter_map(|s| match s {
            Seg::Lit(l) => Some(l.as_str()),
            Seg::Hole(..) => None,
        })
    }

    /// Matches the whole of `text` (already normalised).
    pub fn full(&self, text: &str) -> Option<Found> {
        let mut caps = Vec::new();
        let mut budget = BUDGET;
        let end = self.glob(0, text, 0, &mut caps, true, &mut budget)?;
        debug_assert_eq!(end, text.len());
        Some(self.found(0, end, caps))
    }

    /// Matches a part of `text`: the template's first literal anywhere, its
    /// end anywhere after. Leading and trailing holes take nothing.
    pub fn within(&self, text: &str) -> Option<Found> {
        let first = self.segs.iter().position(|s| matches!(s, Seg::Lit(_)))?;
        let Seg::Lit(lit) = &self.segs[first] else {
            unreachable!("position found a literal")
        };
        let mut budget = BUDGET;
        for pos in occurrences(text, lit) {
            let mut caps = Vec::new();
            if let Some(end) = self.glob(first, text, pos, &mut caps, false, &mut budget) {
                let mut all = vec![(pos, pos); first];
                all.extend(caps);
                return Some(self.found(pos, end, all));
            }
            if budget == 0 {
                break;
            }
        }
        None
    }

    fn found(&self, start: usize, end: usize, spans: Vec<(usize, usize)>) -> Found {
        Found {
            start,
            end,
            literal: self.literal_len,
            spans,
        }
    }

    /// What each hole of a match took from `text` (the text it was found in).
    pub fn captures(&self, found: &Found, text: &str) -> Vec<Capture> {
        let holes = self.segs.iter().filter_map(|s| match s {
            Seg::Hole(a, _) => Some(a),
            Seg::Lit(_) => None,
        });
        holes
            .zip(&found.spans)
            .map(|(arg, &(a, b))| Capture {
                arg: arg.clone(),
                value: text.get(a..b).unwrap_or("").to_string(),
            })
            .collect()
    }

    /// Matches segments `si..` at `ti`; returns the end of the match.
    /// `anchored`: the match must end at the end of the text.
    fn glob(
        &self,
        si: usize,
        text: &str,
        ti: usize,
        caps: &mut Vec<(usize, usize)>,
        anchored: bool,
        budget: &mut u32,
    ) -> Option<usize> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if Some(si) == self.optional_from {
            // The message is whole here; the suffix may follow (a failed
            // attempt leaves `caps` as it was).
            if ti == text.len() {
                return Some(ti);
            }
            if !anchored {
                return self.step(si, text, ti, caps, anchored, budget).or(Some(ti));
            }
        }
        self.step(si, text, ti, caps, anchored, budget)
    }

    /// [`Pattern::glob`]'s work for segment `si`.
    fn step(
        &self,
        si: usize,
        text: &str,
        ti: usize,
        caps: &mut Vec<(usize, usize)>,
        anchored: bool,
        budget: &mut u32,
    ) -> Option<usize> {
        let Some(seg) = self.segs.get(si) else {
            return (!anchored || ti == text.len()).then_some(ti);
        };
        match seg {
            Seg::Lit(l) => {
                if text[ti..].starts_with(l.as_str()) {
                    self.glob(si + 1, text, ti + l.len(), caps, anchored, budget)
                } else {
                    None
                }
            }
            Seg::Hole(_, class) => match self.segs.get(si + 1) {
                None => {
                    // Unanchored, a trailing hole takes nothing.
                    let end = if anchored { text.len() } else { ti };
                    if anchored && !class.admits(&text[ti..end]) {
                        return None;
                    }
                    caps.push((ti, end));
                    Some(end)
                }
                Some(Seg::Lit(next)) => {
                    let mut from = ti;
                    while let Some(off) =
                        memchr::memmem::find(&text.as_bytes()[from..], next.as_bytes())
                    {
                        let pos = from + off;
                        if !class.admits(&text[ti..pos]) {
                            if *budget == 0 {
                                return None;
                            }
                            *budget -= 1;
                            from = pos + text[pos..].chars().next().map_or(1, char::len_utf8);
                            continue;
                        }
                        caps.push((ti, pos));
                        if let Some(end) = self.glob(si + 1, text, pos, caps, anchored, budget) {
                            return Some(end);
                        }
                        caps.pop();
                        if *budget == 0 {
                            return None;
                        }
                        from = pos + text[pos..].chars().next().map_or(1, char::len_utf8);
                    }
                    // The message's last hole, the optional suffix absent:
                    // the hole takes the rest.
                    if Some(si + 1) == self.optional_from {
                        let end = if anchored { text.len() } else { ti };
                        caps.push((ti, end));
                        return Some(end);
                    }
                    None
                }
                Some(Seg::Hole(..)) => unreachable!("adjacent holes are merged"),
            },
        }
    }

    /// A score in 0..1 for a text that the template does not match but
    /// resembles (truncated, edited): the share of the template's words
    /// found in order in the text, weighed by how much of the text they
    /// cover.
    pub fn resemblance(&self, text: &str) -> f64 {
        let mwords: Vec<&str> = words(text).collect();
        self.resemblance_to(&mwords)
    }

    /// [`Pattern::resemblance`] to a text already split into [`words`].
    pub fn resemblance_to(&self, mwords: &[&str]) -> f64 {
        let mut j = 0;
        let mut hit_chars = 0;
        let mut tchars = 0;
        let last = mwords.len().saturating_sub(1);
        for w in self.literals().flat_map(words) {
            tchars += w.len();
            if let Some(k) = mwords[j..]
                .iter()
                .enumerate()
                .position(|(i, m)| same_word(m, w, j + i == last))
            {
                hit_chars += w.len().min(mwords[j + k].len());
                j += k + 1;
            }
        }
        // Words are two bytes or more: none when there are no characters.
        if tchars == 0 {
            return 0.0;
        }
        let mchars: usize = mwords.iter().map(|w| w.len()).sum::<usize>().max(1);
        let covered_template = hit_chars as f64 / tchars as f64;
        let covered_text = hit_chars as f64 / mchars as f64;
        covered_template.min(1.0) * covered_text.min(1.0).sqrt()
    }
}

/// Where `needle` (not empty) occurs in `text`, without overlaps, as
/// `str::match_indices` finds it (memchr's search costs less to set up,
/// and a query tries many short needles once each).
fn occurrences<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + memchr::memmem::find(text.as_bytes().get(from..)?, needle.as_bytes())?;
        from = at + needle.len().max(1);
        Some(at)
    })
}

/// Whether word `m` of a text is template word `w`: the same, one typo
/// apart (both of five letters or more), or, for the text's last word, a
/// cut of it (`exceed` for `exceeded`).
pub fn same_word(m: &str, w: &str, last: bool) -> bool {
    m == w
        || (m.len() >= 5 && w.len() >= 5 && one_edit_apart(m, w))
        || (last && m.len() >= 4 && w.starts_with(m))
}

/// One insertion, deletion or substitution turns `a` into `b`.
fn one_edit_apart(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return one_edit_apart_in(a.as_bytes(), b.as_bytes());
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    one_edit_apart_in(&a, &b)
}

/// [`one_edit_apart`] over characters (bytes, for ASCII text).
fn one_edit_apart_in<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let prefix = short
        .iter()
        .zip(long.iter())
        .take_while(|(x, y)| x == y)
        .count();
    if short.len() == long.len() {
        short[prefix + 1..] == long[prefix + 1..]
    } else {
        short[prefix..] == long[prefix + 1..]
    }
}

/// The words of a text: runs of letters, digits and `_`, two or more long.
pub fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use errdex_model::Hole;

    /// A template from literal parts and `$arg` holes (shared with the
    /// other modules' tests).
    pub(crate) fn t(parts: &[&str]) -> Template {
        let mut t = Template::new();
        for p in parts {
            match p.strip_prefix('$') {
                Some(a) => t.push_hole(Hole {
                    arg: a.into(),
                    spec: String::new(),
                }),
                None => t.push_lit(p),
            }
        }
        t
    }

    #[test]
    fn full_match_with_captures() {
        let p = Pattern::new(
            &t(&["unexpected token ", "$tok", " at offset ", "$offset"]),
            false,
        );
        let text = "unexpected token '}' at offset 17";
        let f = p.captures(&p.full(text).unwrap(), text);
        assert_eq!(f[0].value, "'}'");
        assert_eq!(
            f[1],
            Capture {
                arg: "offset".into(),
                value: "17".into()
            }
        );
        assert!(p.full("unexpected token '}'").is_none());
    }

    #[test]
    fn a_shape_is_its_literals_and_where_its_holes_are() {
        let p = |parts: &[&str]| Pattern::new(&t(parts), false);
        let a = p(&["bad ", "$x", " here"]);
        assert!(a.same_shape(&p(&["bad ", "$y", " here"])));
        assert!(a.same_shape(&p(&["bad ", "$", " here"])));
        // The same literals, a hole moved or added: another shape.
        assert!(!p(&["$x", "ab"]).same_shape(&p(&["ab", "$x"])));
        assert!(!a.same_shape(&p(&["bad ", "$x", " here", "$z"])));
        // `expect`'s optional suffix is part of the shape.
        assert!(!a.same_shape(&Pattern::new(&t(&["bad ", "$x", " here"]), true)));
    }

    /// A template from literal parts and `$arg:spec` holes.
    fn specced(parts: &[&str]) -> Pattern {
        let mut t = Template::new();
        for p in parts {
            match p.strip_prefix('$') {
                Some(h) => {
                    let (arg, spec) = h.split_once(':').unwrap_or((h, ""));
                    t.push_hole(Hole {
                        arg: arg.into(),
                        spec: spec.into(),
                    })
                }
                None => t.push_lit(p),
            }
        }
        Pattern::new(&t, false)
    }

    #[test]
    fn a_repr_hole_takes_only_what_repr_prints() {
        // `f"{x!r} in {y!r}"` does not explain prose that says " in ".
        let p = specced(&["$x:!r", " in ", "$y:!r"]);
        assert!(p
            .full("The input passed in on this line looks more like a filename")
            .is_none());
        for ok in [
            "'a' in 'b c'",
            "[1, 2] in {'k': 3}",
            "<Foo at 0x7f> in Point(x=1, y=2)",
            "b'x' in -1.5",
            "None in frozenset({1})",
        ] {
            assert!(p.full(ok).is_some(), "{ok}");
        }
        // The hole skips a literal that is inside the quoted value.
        let text = "'a in b' in 'c'";
        let f = p.full(text).unwrap();
        assert_eq!(p.captures(&f, text)[0].value, "'a in b'");
        // `click`'s `Invalid value for '{name}': {arg!r}` is not a
        // message that goes on in words.
        let p = specced(&["Invalid value for '", "$name", "': ", "$arg:!r"]);
        assert!(p
            .full("Invalid value for '[SRC]': Path 'missing.csv' does not exist.")
            .is_none());
        assert!(p.full("Invalid value for 'n': 'x'").is_some());
        // Rust's `{:?}` and Python's `!s` print anything.
        let p = specced(&["$x:?", " in ", "$y:!s"]);
        assert!(p.full("any words in any words").is_some());
    }

    #[test]
    fn an_integer_hole_takes_digits() {
        let p = specced(&["at line ", "$l:d", " col ", "$c:5d"]);
        assert!(p.full("at line 3 col -12").is_some());
        assert!(p.full("at line three col 1").is_none());
        // Holes side by side print one run of any text.
        let p = specced(&["n=", "$a:d", "$b:!r"]);
        assert!(p.full("n=1'x'").is_some());
        // Other shapes than the same literals with other holes.
        assert!(!specced(&["a ", "$x:!r"]).same_shape(&specced(&["a ", "$x"])));
    }

    #[test]
    fn whitespace_is_folded() {
        let p = Pattern::new(
            &t(&["Diagonal operations require\n                tensors"]),
            false,
        );
        assert!(p
            .full(&normalize("Diagonal operations require tensors"))
            .is_some());
        let p = Pattern::new(
            &t(&[
                "assertion `left == right` failed\n  left: ",
                "$a",
                "\n right: ",
                "$b",
            ]),
            false,
        );
        let text = normalize("assertion `left == right` failed\n  left: 1\n right: 2");
        let f = p.captures(&p.full(&text).unwrap(), &text);
        assert_eq!(f[0].value, "1");
        assert_eq!(f[1].value, "2");
    }

    #[test]
    fn backtracks_when_a_literal_repeats() {
        let p = Pattern::new(&t(&["$a", "x", "$b", "y"]), false);
        let f = p.captures(&p.full("1x2y3x4y").unwrap(), "1x2y3x4y");
        assert_eq!(f[0].value, "1");
        assert_eq!(f[1].value, "2y3x4");
    }

    #[test]
    fn within_finds_a_wrapped_message() {
        let p = Pattern::new(&t(&["EOF while parsing a value"]), false);
        let f = p
            .within("Error: EOF while parsing a value at line 1 column 0")
            .unwrap();
        assert_eq!((f.start, f.end), (7, 32));
    }

    #[test]
    fn expect_suffix() {
        let p = Pattern::new(&t(&["failed to load config"]), true);
        let text = "failed to load config: MyErr { code: 7 }";
        let f = p.captures(&p.full(text).unwrap(), text);
        assert_eq!(f[0].value, "MyErr { code: 7 }");
        assert_eq!(p.literal_len(), "failed to load config".len());
    }

    #[test]
    fn expect_suffix_is_optional() {
        // `Option::expect` prints its message alone.
        let p = Pattern::new(&t(&["invalid key"]), true);
        assert!(p.full("invalid key").is_some());
        assert!(p.full("invalid keys").is_none());
        let f = p.within("panicked: invalid key here").unwrap();
        assert_eq!((f.start, f.end), (10, 21));
        // A message ending in a hole: the hole takes the rest, or the
        // suffix follows it.
        let p = Pattern::new(&t(&["no entry ", "$k"]), true);
        let text = "no entry alpha";
        assert_eq!(p.captures(&p.full(text).unwrap(), text)[0].value, "alpha");
        let text = "no entry alpha: NotFound";
        let caps = p.captures(&p.full(text).unwrap(), text);
        assert_eq!(
            (caps[0].value.as_str(), caps[1].value.as_str()),
            ("alpha", "NotFound")
        );
        // The words next to the suffix are whole words.
        assert_eq!(
            Pattern::new(&t(&["invalid key"]), true).whole_words(),
            ["invalid", "key"]
        );
    }

    #[test]
    fn occurrences_are_those_of_match_indices() {
        for (text, needle) in [
            ("aaaaa", "aa"),
            ("xé y é z", "é"),
            ("no match here", "zz"),
            ("ab ab ab", "ab "),
            ("", "a"),
        ] {
            let want: Vec<usize> = text.match_indices(needle).map(|m| m.0).collect();
            assert_eq!(
                occurrences(text, needle).collect::<Vec<_>>(),
                want,
                "{text}"
            );
        }
    }

    #[test]
    fn hostile_text_stays_bounded() {
        let p = Pattern::new(&t(&["$a", "a", "$b", "a", "$c", "a", "$d", "b"]), false);
        let text = "a".repeat(5000);
        assert!(p.full(&text).is_none());
    }

    #[test]
    fn resemblance_of_truncated_text() {
        let p = Pattern::new(
            &t(&[
                "the given key ",
                "$k",
                " was not found in the configuration store",
            ]),
            false,
        );
        let r = p.resemblance("the given key foo was not found in the");
        assert!(r > 0.5, "{r}");
        assert!(p.resemblance("completely unrelated words here") < 0.1);
    }
}
