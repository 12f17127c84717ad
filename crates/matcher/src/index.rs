//! The matcher's index over every template of the catalogue: distinct
//! templates compiled once, an inverted index from rare words to
//! templates (so a query verifies a few candidates, never all), and the
//! sites by file name and reported line for location evidence.

use crate::filed::{Filed, Query};
use crate::layered::Delta;
use crate::pattern::Pattern;
use crate::persist::Mapped;
use errdex_model::{Kind, LiteralEntry, MatchData, MatchEntry, Piece, Template};
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// A free literal read as a format string needs this many literal
/// characters to be matched.
const MIN_FORMAT_LITERAL: usize = 10;
/// Each template is filed under this many of its rarest words.
const ANCHORS: usize = 2;
/// Templates sharing only some anchor words with a query that are tried
/// for resemblance, at most.
const MAX_PARTIAL: usize = 64;

/// An error of one snapshot, with its sites.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The catalogue entry.
    pub error: MatchEntry,
    /// Its template as users read it.
    pub template_text: String,
    /// Index of its compiled pattern.
    pub pattern: usize,
}

/// A distinct template compiled, with the entries and free literals that
/// print it.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub pattern: Pattern,
    pub entries: Vec<u32>,
    pub literals: Vec<u32>,
}

/// The index built in memory from the catalogue's data.
pub(crate) struct Built {
    pub entries: Vec<Entry>,
    pub compiled: Vec<Compiled>,
    /// Free literals of the catalogue (the recall safety net).
    pub literals: Vec<LiteralEntry>,
    /// Anchor word → patterns filed under it.
    pub words: HashMap<String, Vec<u32>>,
    /// Anchor word → the patterns whose rarest word it is.
    pub filed: HashMap<String, Vec<Filed>>,
    /// Number of anchor words of each pattern.
    pub anchors: Vec<u8>,
    /// Hashes of each pattern's whole words (lowercased): a message it
    /// matches contains them all, a check far cheaper than matching.
    pub pattern_words: Vec<Box<[u64]>>,
    /// Each pattern's [`template_key`].
    pub keys: Vec<u64>,
    /// (key, pattern) pairs by key, to find a template by its key.
    pub key_order: Vec<[u64; 2]>,
    /// (file name, reported line) → (entry, site index).
    pub by_line: HashMap<(String, u32), Vec<[u32; 2]>>,
}

/// Where the index's data is: built in memory, or a persisted file mapped
/// and decoded on demand.
pub(crate) enum Store {
    Built(Box<Built>),
    Mapped(Box<Mapped>),
}

impl Store {
    /// Number of entries.
    fn entry_count(&self) -> usize {
        match self {
            Store::Built(b) => b.entries.len(),
            Store::Mapped(m) => m.entry_count(),
        }
    }

    /// Number of distinct templates.
    fn pattern_count(&self) -> usize {
        match self {
            Store::Built(b) => b.compiled.len(),
            Store::Mapped(m) => m.pattern_count(),
        }
    }

    /// Number of free literals.
    pub(crate) fn literal_count(&self) -> usize {
        match self {
            Store::Built(b) => b.literals.len(),
            Store::Mapped(m) => m.literal_count(),
        }
    }

    fn entry(&self, e: u32) -> &Entry {
        match self {
            Store::Built(b) => &b.entries[e as usize],
            Store::Mapped(m) => m.entry(e),
        }
    }

    pub(crate) fn compiled(&self, p: u32) -> &Compiled {
        match self {
            Store::Built(b) => &b.compiled[p as usize],
            Store::Mapped(m) => m.compiled(p),
        }
    }

    fn literal(&self, l: u32) -> &LiteralEntry {
        match self {
            Store::Built(b) => &b.literals[l as usize],
            Store::Mapped(m) => m.literal(l),
        }
    }

    fn sites_at(&self, file: &str, line: u32) -> &[[u32; 2]] {
        match self {
            Store::Built(b) => b
                .by_line
                .get(&(file.to_string(), line))
                .map_or(&[], Vec::as_slice),
            Store::Mapped(m) => m.sites_at(file, line),
        }
    }

    fn anchored(&self, word: &str) -> &[u32] {
        match self {
            Store::Built(b) => b.words.get(word).map_or(&[], Vec::as_slice),
            Store::Mapped(m) => m.anchored(word),
        }
    }

    fn filed(&self, word: &str) -> &[Filed] {
        match self {
            Store::Built(b) => b.filed.get(word).map_or(&[], Vec::as_slice),
            Store::Mapped(m) => m.filed(word),
        }
    }

    fn anchor_count(&self, p: u32) -> usize {
        match self {
            Store::Built(b) => b.anchors[p as usize] as usize,
            Store::Mapped(m) => m.anchor_count(p),
        }
    }

    fn words_of(&self, p: u32) -> &[u64] {
        match self {
            Store::Built(b) => &b.pattern_words[p as usize],
            Store::Mapped(m) => m.words_of(p),
        }
    }

    /// The pattern whose [`template_key`] is `key`, if any.
    pub(crate) fn pattern_by_key(&self, key: u64) -> Option<u32> {
        match self {
            Store::Built(b) => b
                .key_order
                .binary_search_by_key(&key, |kp| kp[0])
                .ok()
                .map(|i| b.key_order[i][1] as u32),
            Store::Mapped(m) => m.pattern_by_key(key),
        }
    }
}

/// The index. Built once, or opened from its file; shared by every query
/// (it is `Send + Sync`).
pub struct Index {
    /// The base: all of it, or what a file holds when a delta follows.
    pub(crate) store: Store,
    /// The snapshots indexed since the base was saved, built in memory.
    pub(crate) delta: Option<Box<Delta>>,
    /// The snapshots the base was built from: (row id, when each was
    /// indexed), as the catalogue recorded them.
    pub(crate) members: Vec<(i64, String)>,
    /// (repo, revision) → snapshot row id, for locations in indexed code.
    pub(crate) snapshots: HashMap<(String, String), i64>,
    /// Snapshot row id → the crates it depends on, where known.
    pub(crate) deps: HashMap<i64, Vec<String>>,
    /// Snapshot row id → the day its code was published (`YYYY-MM-DD`).
    pub(crate) dates: HashMap<i64, String>,
    /// Crate name (`_` for `-`) → how many indexed snapshots depend on it.
    pub(crate) dependents: HashMap<String, u32>,
    /// Free literals that the word index cannot reach, for reports only.
    pub(crate) reports: ReportLiterals,
}

/// Format strings the word index leaves out, which a report reaches
/// another way: the layouts that print a whole report (`{s}--> {p}{l}:{c}
/// \n{s} |\n…{s} = {message}`, no word of their own), found by matching
/// the report against each; and each snapshot's format strings too short to
/// search the whole index with (`expected {}`), tried on a report's reason
/// once a layout of that snapshot printed the report.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct ReportLiterals {
    /// Literal ids of multi-line layouts without a word.
    pub layouts: Vec<u32>,
    /// Snapshot row id → ids of its short format strings.
    pub short: HashMap<i64, Vec<u32>>,
}

/// Kinds whose runtime text may carry `: {err:?}` after the template.
pub(crate) fn has_debug_suffix(kind: Kind) -> bool {
    matches!(kind, Kind::Expect | Kind::ExpectErr)
}

/// A free literal as a template: one that reads as a format string
/// (`expected {}, found {name:?}`, braces doubled elsewhere) has holes
/// where it has placeholders; any other is literal text. A literal that
/// ends in a space (`"unexpected character at index "`) is the head of a
/// text a value completes: a hole follows it.
pub(crate) fn literal_template(text: &str) -> Template {
    let mut t = format_literal(text);
    let open_end = text.ends_with(' ') && !text.trim().is_empty();
    if open_end && !matches!(t.pieces().last(), Some(Piece::Hole(_))) {
        t.push_hole(errdex_model::Hole {
            arg: String::new(),
            spec: String::new(),
        });
    }
    t
}

/// [`literal_template`]'s placeholders, where the literal is a format string.
fn format_literal(text: &str) -> Template {
    let mut t = Template::new();
    let mut lit = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        lit.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            lit.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let close = tail.starts_with('{').then(|| tail.find('}')).flatten();
        let inner = close.map(|c| &tail[1..c]);
        let (arg, spec) = match inner {
            // `{s    }`: the name may be padded.
            Some(inner) => inner
                .split_once(':')
                .map_or((inner.trim(), ""), |(a, s)| (a.trim(), s)),
            None => return Template::literal(text),
        };
        let is_arg = arg
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        if !is_arg || spec.contains(['{', '}']) {
            return Template::literal(text);
        }
        t.push_lit(&std::mem::take(&mut lit));
        t.push_hole(errdex_model::Hole {
            arg: arg.to_string(),
            spec: spec.to_string(),
        });
        rest = &tail[close.expect("a hole has its brace") + 1..];
    }
    lit.push_str(rest);
    t.push_lit(&lit);
    t
}

/// Literal characters a template's first lines need to stand alone.
const MIN_FIRST_LINE: usize = 16;

/// Prefixes of whole lines a template of several lines stands as, at most.
const MAX_LINE_PREFIXES: usize = 4;

/// The prefixes of whole lines of a template whose text goes on over
/// further lines (`"Working outside of application context.\n\nThis
/// typically…"`): a message of several lines is often pasted cut at a line
/// break (Python's `Type: message` line prints only the first; a user
/// copies the first lines of a long one). Each prefix says enough alone:
/// [`MIN_FIRST_LINE`] literal characters, two words or more; the first
/// [`MAX_LINE_PREFIXES`] of them, shortest first.
pub(crate) fn line_prefixes(t: &Template) -> Vec<Template> {
    let mut out: Vec<Template> = Vec::new();
    let mut head = Template::new();
    let pieces = t.pieces();
    for (i, p) in pieces.iter().enumerate() {
        match p {
            Piece::Hole(h) => head.push_hole(h.clone()),
            Piece::Lit(s) => {
                let mut rest = s.as_str();
                while let Some((line, after)) = rest.split_once('\n') {
                    let mut cut = head.clone();
                    cut.push_lit(line.trim_end());
                    head.push_lit(line);
                    head.push_lit("\n");
                    rest = after;
                    let goes_on = !rest.trim().is_empty() || pieces.len() > i + 1;
                    let text: String = cut.literals().collect();
                    let says = text.trim().chars().count() >= MIN_FIRST_LINE
                        && crate::pattern::words(&text).count() >= 2;
                    let new = out
                        .last()
                        .is_none_or(|l| l.to_string().trim_end() != cut.to_string().trim_end());
                    if goes_on && says && new {
                        out.push(cut);
                        if out.len() == MAX_LINE_PREFIXES {
                            return out;
                        }
                    }
                }
                head.push_lit(rest);
            }
        }
    }
    out
}

/// Crate names, each numbered once in order of first sight.
#[derive(Default)]
struct Names {
    number: HashMap<String, u32>,
    list: Vec<String>,
}

impl Names {
    /// The number of `name`, given it if new.
    fn number(&mut self, name: &str) -> u32 {
        if let Some(&n) = self.number.get(name) {
            return n;
        }
        let n = self.list.len() as u32;
        self.number.insert(name.to_string(), n);
        self.list.push(name.to_string());
        n
    }

    fn len(&self) -> usize {
        self.list.len()
    }
}

/// The crate name of a repo slug as manifests and symbols spell it
/// (`crate:serde-json` → `serde_json`); a Python package's as its
/// dependents' `Requires-Dist` name it (`pypi:Python-Telegram-Bot` →
/// `python_telegram_bot`).
pub(crate) fn crate_name(repo: &str) -> String {
    match repo.strip_prefix("pypi:") {
        // As `Requires-Dist` names are kept: PEP 503's, with `_`.
        Some(package) => crate::versions::package_key(package),
        None => repo
            .strip_prefix("crate:")
            .unwrap_or(repo)
            .replace('-', "_"),
    }
}

/// `Option`'s and `Result`'s variants as derived `Debug` prints them.
fn is_std_shape(template: &str) -> bool {
    template == "None" || STD_WRAPPERS.iter().any(|p| template.starts_with(p))
}

/// How `Debug` opens `Option`'s and `Result`'s variants around a value.
pub(crate) const STD_WRAPPERS: [&str; 3] = ["Some(", "Ok(", "Err("];

/// A word's hash, for the cheap all-words check (the same in every
/// process: a persisted index holds them).
pub(crate) fn word_hash(w: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(w.as_bytes())
}

/// A template's identity as a pattern (its pieces, and whether a `: {err:?}`
/// may follow), the same in every process: a delta's template is found in
/// its base by it.
pub(crate) fn template_key(t: &Template, suffix: bool) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&[u8::from(suffix)]);
    for p in t.pieces() {
        match p {
            Piece::Lit(s) => {
                h.update(&[0]);
                h.update(s.as_bytes());
            }
            Piece::Hole(hole) => {
                h.update(&[1]);
                h.update(hole.arg.as_bytes());
                h.update(&[0]);
                h.update(hole.spec.as_bytes());
            }
        }
        h.update(&[0xFF]);
    }
    h.digest()
}

/// The (key, pattern) pairs of patterns keyed `keys`, by key.
pub(crate) fn key_order(keys: &[u64]) -> Vec<[u64; 2]> {
    let mut order: Vec<[u64; 2]> = keys
        .iter()
        .enumerate()
        .map(|(p, &k)| [k, p as u64])
        .collect();
    order.sort_unstable();
    order
}

/// The file name of a path.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

impl Index {
    /// Builds the index from what the catalogue hands over: entries, free
    /// literals, each snapshot's dependencies and publication day.
    pub fn from_data(data: MatchData) -> Self {
        let mut index = Index::build(data.errors, data.literals).with_dependencies(data.deps);
        index.dates = data.dates;
        index
    }

    /// Builds the index from catalogue entries and free literals. Patterns
    /// are numbered in the order of their first use, snapshot after
    /// snapshot (by row id), each snapshot's entries before its literals:
    /// the numbering a base and a delta built apart give (see
    /// [`Index::layered`]).
    pub fn build(errors: Vec<MatchEntry>, literals: Vec<LiteralEntry>) -> Self {
        let mut pattern_ids: HashMap<(Template, bool), u32> = HashMap::new();
        let mut compiled: Vec<Compiled> = Vec::new();
        let mut keys: Vec<u64> = Vec::new();
        let mut by_line: HashMap<(String, u32), Vec<[u32; 2]>> = HashMap::new();
        let mut snapshots: HashMap<(String, String), i64> = HashMap::new();
        let mut add = |t: &Template, suffix: bool| {
            *pattern_ids.entry((t.clone(), suffix)).or_insert_with(|| {
                compiled.push(Compiled {
                    pattern: Pattern::new(t, suffix),
                    entries: Vec::new(),
                    literals: Vec::new(),
                });
                keys.push(template_key(t, suffix));
                (compiled.len() - 1) as u32
            })
        };
        // std's own shapes (`Some(..)`, `None`, `Ok(..)`, `Err(..)`) are
        // printed by `Option` and `Result`, whoever else declares the name.
        let errors: Vec<MatchEntry> = errors
            .into_iter()
            .filter(|e| !(e.kind.is_debug_shape() && is_std_shape(&e.template.to_string())))
            .collect();
        // Each free literal's template, or where a report finds it.
        let mut reports = ReportLiterals::default();
        let mut templates: Vec<Option<Template>> = Vec::with_capacity(literals.len());
        for (i, l) in literals.iter().enumerate() {
            let t = literal_template(&l.text);
            // A format string of a few characters around holes (`{} or {}`)
            // matches any text.
            let has_hole = t.pieces().iter().any(|p| matches!(p, Piece::Hole(_)));
            if has_hole && t.literal_len() < MIN_FORMAT_LITERAL {
                if t.literal_len() > 0 {
                    reports
                        .short
                        .entry(l.snapshot_id)
                        .or_default()
                        .push(i as u32);
                }
                templates.push(None);
                continue;
            }
            // (compiled here only for the few multi-line format strings)
            if has_hole && l.text.contains('\n') && Pattern::new(&t, false).whole_words().is_empty()
            {
                reports.layouts.push(i as u32);
                templates.push(None);
                continue;
            }
            templates.push(Some(t));
        }
        let mut entries = Vec::with_capacity(errors.len());
        let mut filed: Vec<(u32, u32)> = Vec::with_capacity(errors.len());
        let mut filed_literals = Vec::new();
        // A message of several lines is often pasted cut at a line break
        // (Python's `Type: message` line prints only the first): each such
        // template also stands as its prefixes of whole lines, entries of
        // their own at the same places (a located report cut at a line
        // break is that site's).
        let mut errors = errors
            .into_iter()
            .flat_map(|e| {
                let heads: Vec<MatchEntry> = line_prefixes(&e.template)
                    .into_iter()
                    .map(|template| MatchEntry {
                        template,
                        ..e.clone()
                    })
                    .collect();
                std::iter::once(e).chain(heads)
            })
            .peekable();
        let mut literals_left = literals.iter().zip(templates).enumerate().peekable();
        loop {
            // The next entry, unless a literal of an earlier snapshot is due.
            let literal_due = match (errors.peek(), literals_left.peek()) {
                (None, None) => break,
                (Some(e), Some((_, (l, _)))) => l.snapshot_id < e.snapshot_id,
                (None, Some(_)) => true,
                (Some(_), None) => false,
            };
            if literal_due {
                let (i, (_, t)) = literals_left.next().expect("a literal was peeked");
                if let Some(t) = t {
                    filed_literals.push((add(&t, false), i as u32));
                }
                continue;
            }
            let error = errors.next().expect("an entry was peeked");
            let i = entries.len();
            snapshots
                .entry((error.repo.clone(), error.revision.clone()))
                .or_insert(error.snapshot_id);
            let pid = add(&error.template, has_debug_suffix(error.kind));
            filed.push((pid, i as u32));
            for (si, s) in error.sites.iter().enumerate() {
                // Python before 3.8 reports a statement of several lines at
                // its last line (a `raise X(\n  "…"\n)`'s closing line).
                let last =
                    (s.path.ends_with(".py") && s.end_line > s.report_line).then_some(s.end_line);
                for line in std::iter::once(s.report_line).chain(last) {
                    by_line
                        .entry((file_name(&s.path).to_string(), line))
                        .or_default()
                        .push([i as u32, si as u32]);
                }
            }
            entries.push(Entry {
                template_text: error.template.to_string(),
                error,
                pattern: pid as usize,
            });
        }
        for (pid, e) in filed {
            compiled[pid as usize].entries.push(e);
        }
        for (pid, l) in filed_literals {
            compiled[pid as usize].literals.push(l);
        }
        // Document frequency of each word over distinct templates.
        let lowered: Vec<Vec<String>> = compiled
            .iter()
            .map(|c| {
                let mut w: Vec<String> = c
                    .pattern
                    .whole_words()
                    .into_iter()
                    .map(str::to_lowercase)
                    .collect();
                w.sort();
                w.dedup();
                w
            })
            .collect();
        let pattern_words: Vec<Box<[u64]>> = lowered
            .iter()
            .map(|ws| ws.iter().map(|w| word_hash(w)).collect())
            .collect();
        let mut df: HashMap<&str, u32> = HashMap::new();
        for ws in &lowered {
            for w in ws {
                *df.entry(w.as_str()).or_insert(0) += 1;
            }
        }
        let mut index_words: HashMap<String, Vec<u32>> = HashMap::new();
        let mut filed: HashMap<String, Vec<Filed>> = HashMap::new();
        let mut anchors = Vec::with_capacity(lowered.len());
        for (pid, ws) in lowered.iter().enumerate() {
            let mut ranked: Vec<&String> = ws.iter().collect();
            ranked.sort_by_key(|w| (df[w.as_str()], std::cmp::Reverse(w.len())));
            ranked.truncate(ANCHORS);
            anchors.push(ranked.len() as u8);
            if let Some(rarest) = ranked.first() {
                let p = &compiled[pid].pattern;
                let f = Filed::new(pid as u32, p, &pattern_words[pid]);
                filed.entry((*rarest).clone()).or_default().push(f);
            }
            for w in ranked {
                index_words.entry(w.clone()).or_default().push(pid as u32);
            }
        }
        Index {
            store: Store::Built(Box::new(Built {
                entries,
                compiled,
                literals,
                words: index_words,
                filed,
                anchors,
                pattern_words,
                key_order: key_order(&keys),
                keys,
                by_line,
            })),
            delta: None,
            members: Vec::new(),
            snapshots,
            deps: HashMap::new(),
            dates: HashMap::new(),
            dependents: HashMap::new(),
            reports,
        }
    }

    /// Records the snapshots the index is built from (row id, when each
    /// was indexed), saved with it: see [`Index::members`].
    pub fn with_members(mut self, members: Vec<(i64, String)>) -> Self {
        self.members = members;
        self
    }

    /// The snapshots a saved index was built from, as
    /// [`Index::with_members`] recorded them (none if it was not told).
    pub fn members(&self) -> &[(i64, String)] {
        &self.members
    }

    /// Adds what each snapshot depends on (by row id): a layer printed
    /// inside another comes from the same snapshot or one of its
    /// dependencies. A crate's dependents are counted through the indexed
    /// crates' own dependencies too: code that runs on `serde` runs on
    /// `serde_core`, which `serde` depends on.
    pub fn with_dependencies(mut self, deps: HashMap<i64, Vec<String>>) -> Self {
        // Crate names numbered once, so that the walks below index arrays
        // instead of hashing names (a thousand snapshots reach hundreds of
        // crates each).
        let mut names = Names::default();
        let crate_of: HashMap<i64, u32> = self
            .snapshots
            .iter()
            .map(|((repo, _), id)| (*id, names.number(&crate_name(repo))))
            .collect();
        let direct: Vec<(Option<u32>, Vec<u32>)> = deps
            .iter()
            .map(|(id, d)| {
                let own = crate_of.get(id).copied();
                (own, d.iter().map(|n| names.number(n)).collect())
            })
            .collect();
        // Crate → what any of its indexed snapshots depends on.
        let mut graph: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
        for (own, d) in &direct {
            if let Some(own) = own {
                graph[*own as usize].extend(d);
            }
        }
        for edges in &mut graph {
            edges.sort_unstable();
            edges.dedup();
        }
        // One walk per snapshot; `seen[c] == walk` marks what it reached.
        let mut count = vec![0u32; names.len()];
        let mut seen = vec![u32::MAX; names.len()];
        let mut stack = Vec::new();
        for (walk, (own, d)) in direct.iter().enumerate() {
            let walk = walk as u32;
            stack.extend(d.iter().copied());
            while let Some(c) = stack.pop() {
                if Some(c) == *own || seen[c as usize] == walk {
                    continue;
                }
                seen[c as usize] = walk;
                count[c as usize] += 1;
                stack.extend(graph[c as usize].iter().copied());
            }
        }
        self.dependents = names
            .list
            .into_iter()
            .zip(count)
            .filter(|&(_, n)| n > 0)
            .collect();
        self.deps = deps;
        self
    }

    /// How many indexed snapshots depend on the crate of `repo`: of two
    /// crates printing the same text, the one more code runs on.
    pub(crate) fn dependents_of(&self, repo: &str) -> u32 {
        self.dependents.get(&crate_name(repo)).copied().unwrap_or(0)
    }

    /// Whether a message of snapshot `outer` may print one of `inner`
    /// inside it: the same snapshot, one of its dependencies, or unknown.
    /// A dependency on a facade `x` is one on its core `x_core` too (serde
    /// re-exports serde_core, whose texts a crate depending on serde prints).
    pub(crate) fn may_wrap(&self, outer: i64, inner_repo: &str) -> bool {
        let Some(deps) = self.deps.get(&outer) else {
            return true;
        };
        let inner = crate_name(inner_repo);
        deps.contains(&inner)
            || inner
                .strip_suffix("_core")
                .is_some_and(|facade| deps.iter().any(|d| d == facade))
    }

    /// Number of (error, snapshot) entries.
    pub fn len(&self) -> usize {
        match &self.delta {
            Some(d) => d.from[0] as usize + d.built.entries.len(),
            None => self.store.entry_count(),
        }
    }

    /// True when nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of distinct templates.
    pub fn templates(&self) -> usize {
        match &self.delta {
            Some(d) => d.from[1] as usize + d.built.compiled.len() - d.aliased,
            None => self.store.pattern_count(),
        }
    }

    /// Entry `e`.
    pub(crate) fn entry(&self, e: u32) -> &Entry {
        match &self.delta {
            Some(d) if e >= d.from[0] => &d.built.entries[(e - d.from[0]) as usize],
            _ => self.store.entry(e),
        }
    }

    /// Pattern `p`, compiled, with what prints it.
    pub(crate) fn compiled(&self, p: u32) -> &Compiled {
        if let Some(d) = &self.delta {
            if let Some(c) = d.merged.get(&p) {
                return c;
            }
            if p >= d.from[1] {
                return &d.built.compiled[(p - d.from[1]) as usize];
            }
        }
        self.store.compiled(p)
    }

    /// Pattern `p`, compiled.
    pub(crate) fn pattern(&self, p: usize) -> &Pattern {
        &self.compiled(p as u32).pattern
    }

    /// Free literal `l`.
    pub(crate) fn literal(&self, l: u32) -> &LiteralEntry {
        match &self.delta {
            Some(d) if l >= d.from[2] => &d.built.literals[(l - d.from[2]) as usize],
            _ => self.store.literal(l),
        }
    }

    /// The (entry, site) pairs whose report names `file` (a file name) at
    /// `line`.
    pub(crate) fn sites_at(&self, file: &str, line: u32) -> Cow<'_, [[u32; 2]]> {
        let base = self.store.sites_at(file, line);
        match &self.delta {
            Some(d) => d.after(base, d.built.by_line.get(&(file.to_string(), line))),
            None => Cow::Borrowed(base),
        }
    }

    /// The patterns filed under an anchor word (lowercased), in order.
    fn anchored(&self, word: &str) -> Cow<'_, [u32]> {
        let base = self.store.anchored(word);
        match &self.delta {
            Some(d) => d.after(base, d.built.words.get(word)),
            None => Cow::Borrowed(base),
        }
    }

    /// The patterns whose rarest word is `word` (lowercased).
    pub(crate) fn filed(&self, word: &str) -> Cow<'_, [Filed]> {
        let base = self.store.filed(word);
        match &self.delta {
            Some(d) => d.after(base, d.built.filed.get(word)),
            None => Cow::Borrowed(base),
        }
    }

    /// How many anchor words pattern `p` is filed under.
    fn anchor_count(&self, p: u32) -> usize {
        match &self.delta {
            Some(d) if p >= d.from[1] => d.built.anchors[(p - d.from[1]) as usize] as usize,
            _ => self.store.anchor_count(p),
        }
    }

    /// The hashes of pattern `p`'s whole words.
    pub(crate) fn words_of(&self, p: u32) -> &[u64] {
        match &self.delta {
            Some(d) if p >= d.from[1] => &d.built.pattern_words[(p - d.from[1]) as usize],
            _ => self.store.words_of(p),
        }
    }

    /// The templates sharing some but not all anchor words with a query
    /// (a resemblance at best), most shared first: a word that anchors few
    /// templates weighs more (a typo in one anchor still leaves the rare
    /// other one to find the template by).
    pub(crate) fn partial(&self, query: &Query) -> Vec<u32> {
        // Each word's templates (by pattern) and its weight, rarest first.
        let anchored: Vec<Cow<'_, [u32]>> = query
            .words
            .iter()
            .map(|w| self.anchored(w))
            .filter(|p| !p.is_empty())
            .collect();
        let mut lists: Vec<(&[u32], f32)> = anchored
            .iter()
            .map(|p| (&p[..], 1.0 / p.len() as f32))
            .collect();
        lists.sort_by_key(|l| l.0.len());
        // The rarest words' lists are read, as many as it takes for a
        // template met only in the others to weigh less than one met in the
        // last read; when that is not enough, all of them.
        let rest = |k: usize| lists[k..].iter().map(|l| f64::from(l.1)).sum::<f64>();
        let k = (1..lists.len())
            .find(|&k| rest(k) < f64::from(lists[k - 1].1))
            .unwrap_or(lists.len());
        self.partial_from(query, &lists, k)
            .or_else(|| self.partial_from(query, &lists, lists.len()))
            .unwrap_or_default()
    }

    /// [`Index::partial`] from the first `k` lists, the others only looked
    /// up for the templates met: none when a template met only in the
    /// others might be among the best.
    fn partial_from(&self, query: &Query, lists: &[(&[u32], f32)], k: usize) -> Option<Vec<u32>> {
        let (read, others) = lists.split_at(k);
        // What a template met only in the others weighs at most (with a
        // margin for the rounding of the sums).
        let bound = match others {
            [] => -1.0,
            _ => others.iter().map(|l| f64::from(l.1)).sum::<f64>() * (1.0 + 1e-4),
        };
        // The lists merged by pattern: each template with its weights,
        // summed in the order of their bits (the same sum whatever the
        // words' order), and how many of the query's words anchor it.
        let mut next = vec![0; read.len()];
        let mut heads: BinaryHeap<Reverse<(u32, usize)>> = read
            .iter()
            .enumerate()
            .map(|(i, l)| Reverse((l.0[0], i)))
            .collect();
        let mut by_weight: Vec<(u32, Reverse<u32>, usize)> = Vec::new();
        let mut weights: Vec<f32> = Vec::new();
        while let Some(Reverse((pid, _))) = heads.peek().copied() {
            weights.clear();
            while let Some(&Reverse((p, i))) = heads.peek() {
                if p != pid {
                    break;
                }
                heads.pop();
                weights.push(read[i].1);
                next[i] += 1;
                if let Some(&p) = read[i].0.get(next[i]) {
                    heads.push(Reverse((p, i)));
                }
            }
            let met = others.iter().filter(|l| l.0.binary_search(&pid).is_ok());
            weights.extend(met.map(|l| l.1));
            weights.sort_unstable_by_key(|w| w.to_bits());
            let sum: f32 = weights.iter().sum();
            by_weight.push((sum.to_bits(), Reverse(pid), weights.len()));
        }
        // Best weight first (then the lower pattern); only the best are
        // checked for being a complete candidate (every anchor and word in
        // the text).
        let mut by_weight = BinaryHeap::from(by_weight);
        let mut partial = Vec::with_capacity(MAX_PARTIAL);
        while partial.len() < MAX_PARTIAL {
            let Some((w, Reverse(pid), shared)) = by_weight.pop() else {
                return others.is_empty().then_some(partial);
            };
            if f64::from(f32::from_bits(w)) <= bound {
                return None;
            }
            let all_anchors = shared >= self.anchor_count(pid);
            if !(all_anchors && query.holds(self.words_of(pid))) {
                partial.push(pid);
            }
        }
        Some(partial)
    }
}

/// Orders two version strings of any scheme: by semver's rules where both
/// are semver (a pre-release before its release), else (PEP 440's `26.4`,
/// `2.0.post1`) numeric parts compared as numbers, others as text.
pub(crate) fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    if let (Ok(x), Ok(y)) = (semver::Version::parse(a), semver::Version::parse(b)) {
        return x.cmp(&y);
    }
    let parts = |v: &str| -> Vec<(u64, String)> {
        v.split(|c: char| !c.is_ascii_alphanumeric())
            .map(|p| {
                let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
                (digits.parse().unwrap_or(0), p[digits.len()..].to_string())
            })
            .collect()
    };
    parts(a).cmp(&parts(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_string_literals_get_holes() {
        let t = literal_template("expected identifier, found keyword `{}`");
        assert_eq!(t.to_string(), "expected identifier, found keyword `{}`");
        assert_eq!(
            t.literal_len(),
            "expected identifier, found keyword ``".len()
        );
        let t = literal_template("a {{literal}} brace and {name:?}");
        assert_eq!(t.pieces().len(), 2);
        // Not a format string: kept as text.
        let t = literal_template("match {x + 1} here");
        assert_eq!(t.pieces().len(), 1);
        assert!(is_std_shape("Some({0:?})") && is_std_shape("None") && !is_std_shape("Nothing"));
    }

    #[test]
    fn versions_of_any_scheme_are_ordered() {
        use std::cmp::Ordering::Less;
        assert_eq!(version_order("4.1", "6.7"), Less);
        assert_eq!(version_order("6.7", "6.10"), Less);
        assert_eq!(version_order("1.0.0-alpha.1", "1.0.0"), Less);
        assert_eq!(version_order("0.9.9", "0.10.0"), Less);
        assert_eq!(version_order("2.0", "2.0.post1"), Less);
    }

    #[test]
    fn a_literal_ending_in_a_space_is_completed_by_a_value() {
        let t = literal_template("unexpected character at index ");
        assert_eq!(t.to_string(), "unexpected character at index {}");
        assert_eq!(literal_template("no value follows").pieces().len(), 1);
        assert_eq!(literal_template("   ").pieces().len(), 1);
    }
}
