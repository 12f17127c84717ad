//! An index in two layers: a base (usually mapped from its file) and a
//! delta, the snapshots indexed since, built in memory from their data
//! alone, so that adding a crate to a catalogue costs that crate, not the
//! catalogue. The delta's entries, patterns and literals are numbered after
//! the base's, in the order a full build gives them (snapshot after
//! snapshot); a delta template the base already has is the base's pattern,
//! the delta's entries and literals listed after the base's, as one build
//! of both would list them. Catalogue-wide statistics (how many indexed
//! crates depend on a crate) are counted again over both layers.

use crate::filed::Filed;
use crate::index::{Built, Compiled, Index, Store};
use errdex_model::MatchData;
use std::borrow::Cow;
use std::collections::HashMap;

/// The upper layer: the snapshots indexed after the base.
pub(crate) struct Delta {
    /// Its data, numbered after the base's.
    pub built: Built,
    /// The base's counts of entries, patterns and literals: the delta's
    /// numbers start there.
    pub from: [u32; 3],
    /// Base patterns the delta's snapshots print too, with the delta's
    /// entries and literals added.
    pub merged: HashMap<u32, Compiled>,
    /// How many of the delta's templates are the base's (numbers the
    /// delta leaves unused).
    pub aliased: usize,
}

impl Delta {
    /// A base list followed by the delta's list of the same key.
    pub fn after<'a, T: Copy>(&self, base: &'a [T], mine: Option<&'a Vec<T>>) -> Cow<'a, [T]> {
        match mine {
            None => Cow::Borrowed(base),
            Some(m) if base.is_empty() => Cow::Borrowed(m),
            Some(m) => Cow::Owned(base.iter().chain(m).copied().collect()),
        }
    }
}

impl Index {
    /// This index (the base, without a delta of its own) with the
    /// snapshots of `data` indexed after it: answers as the index built
    /// from the data of both (a test compares). `data` holds the new
    /// snapshots' entries and literals, and the dependencies and days of
    /// any snapshots.
    pub fn layered(mut self, data: MatchData) -> Index {
        assert!(self.delta.is_none(), "a delta is laid on a base only");
        let fresh = Index::build(data.errors, data.literals);
        let Store::Built(mut b) = fresh.store else {
            unreachable!("a build is in memory")
        };
        let from = [
            self.len() as u32,
            self.templates() as u32,
            self.store.literal_count() as u32,
        ];
        // Each delta pattern's number: the base's, or after the base's.
        let numbers: Vec<Option<u32>> = b
            .keys
            .iter()
            .map(|&k| self.store.pattern_by_key(k))
            .collect();
        let number = |p: u32| numbers[p as usize].unwrap_or(from[1] + p);
        let mut merged = HashMap::new();
        for (p, c) in b.compiled.iter_mut().enumerate() {
            for e in &mut c.entries {
                *e += from[0];
            }
            for l in &mut c.literals {
                *l += from[2];
            }
            if let Some(base) = numbers[p] {
                let mut m = self.store.compiled(base).clone();
                m.entries.append(&mut c.entries);
                m.literals.append(&mut c.literals);
                merged.insert(base, m);
            }
        }
        for e in &mut b.entries {
            e.pattern = number(e.pattern as u32) as usize;
        }
        let own = |p: &u32| numbers[*p as usize].is_none();
        for list in b.words.values_mut() {
            list.retain(own);
            for p in list.iter_mut() {
                *p += from[1];
            }
        }
        b.words.retain(|_, l| !l.is_empty());
        for list in b.filed.values_mut() {
            list.retain(|f| own(&f.pattern()));
            for f in list.iter_mut() {
                *f = Filed::renumbered(*f, f.pattern() + from[1]);
            }
        }
        b.filed.retain(|_, l| !l.is_empty());
        for pairs in b.by_line.values_mut() {
            for pair in pairs.iter_mut() {
                pair[0] += from[0];
            }
        }
        self.reports
            .layouts
            .extend(fresh.reports.layouts.iter().map(|l| l + from[2]));
        for (snapshot, ids) in fresh.reports.short {
            self.reports
                .short
                .entry(snapshot)
                .or_default()
                .extend(ids.iter().map(|l| l + from[2]));
        }
        self.snapshots.extend(fresh.snapshots);
        let mut deps = std::mem::take(&mut self.deps);
        deps.extend(data.deps);
        self.dates.extend(data.dates);
        self.delta = Some(Box::new(Delta {
            aliased: numbers.iter().flatten().count(),
            built: *b,
            from,
            merged,
        }));
        self.with_dependencies(deps)
    }
}

#[cfg(test)]
mod tests {
    use crate::Index;
    use errdex_model::{Hole, Kind, LiteralEntry, MatchData, MatchEntry, MatchSite, Template};
    use std::collections::HashMap;

    /// An error of snapshot `snapshot` (crate `c{snapshot}`) printing
    /// `text`, `{}` for a hole, at `src/lib.rs:line`.
    fn error(snapshot: i64, text: &str, line: u32) -> MatchEntry {
        let mut template = Template::new();
        for (i, part) in text.split("{}").enumerate() {
            if i > 0 {
                template.push_hole(Hole {
                    arg: "v".into(),
                    spec: String::new(),
                });
            }
            template.push_lit(part);
        }
        MatchEntry {
            id: format!("{snapshot}-{line}"),
            repo: format!("crate:c{snapshot}"),
            revision: "1.0.0".into(),
            snapshot_id: snapshot,
            kind: Kind::Panic,
            template,
            item_path: "m::f".into(),
            sites: vec![MatchSite {
                path: "src/lib.rs".into(),
                line,
                end_line: line,
                report_line: line,
                report_column: 5,
                reported_at_caller: false,
                is_test: false,
            }],
        }
    }

    fn literal(snapshot: i64, text: &str, line: u32) -> LiteralEntry {
        LiteralEntry {
            repo: format!("crate:c{snapshot}"),
            revision: "1.0.0".into(),
            snapshot_id: snapshot,
            path: "src/text.rs".into(),
            line,
            text: text.into(),
            is_test: false,
        }
    }

    fn data(snapshots: &[i64], deps: &[(i64, &str)]) -> MatchData {
        let texts = [
            "connection reset by peer while reading {}",
            "invalid header value {} for key",
            "the widget was dropped twice",
            "expected {} bytes, found {}",
            "index out of range for slice of length {}",
        ];
        let mut errors = Vec::new();
        let mut literals = Vec::new();
        for &s in snapshots {
            // Each snapshot prints some texts of the others, and one of its
            // own, and holds a free literal.
            for (i, t) in texts.iter().enumerate() {
                if (i as i64 + s) % 3 != 0 {
                    errors.push(error(s, t, 10 * i as u32 + s as u32));
                }
            }
            errors.push(error(s, &format!("crate c{s} failed to start {{}}"), 99));
            literals.push(literal(s, "a free literal shared by all the crates", 5));
            literals.push(literal(s, &format!("literal text only in crate c{s}"), 6));
        }
        MatchData {
            errors,
            literals,
            deps: deps
                .iter()
                .map(|(s, d)| (*s, vec![d.to_string()]))
                .collect(),
            dates: HashMap::new(),
        }
    }

    #[test]
    fn a_delta_on_a_base_answers_as_one_build_of_both() {
        let deps = [(1, "c2"), (3, "c2"), (4, "c1"), (5, "c4")];
        let full = Index::from_data(data(&[1, 2, 3, 4, 5], &deps));
        let layered = Index::from_data(data(&[1, 2, 3], &deps)).layered(data(&[4, 5], &deps));
        assert_eq!(layered.len(), full.len());
        assert_eq!(layered.templates(), full.templates());
        assert_eq!(layered.dependents, full.dependents);
        let queries = [
            "connection reset by peer while reading body",
            "invalid header value \"x\" for key",
            "the widget was dropped twice",
            "expected 4 bytes, found 2",
            "crate c4 failed to start now",
            "crate c5 failed to start",
            "a free literal shared by all the crates",
            "literal text only in crate c5",
            "index out of range for slice of length 3",
            "index out of range for slce of length",
            "thread 'main' panicked at src/lib.rs:99:5:\ncrate c5 failed to start x",
            "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/c4-1.0.0/src/lib.rs:14:5:\nthe widget was dropped twice",
        ];
        for q in queries {
            assert_eq!(layered.explain(q), full.explain(q), "{q}");
        }
        assert!(full.explain(queries[4]).matched());
    }
}
