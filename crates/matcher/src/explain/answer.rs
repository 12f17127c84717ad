//! The paste's answer: every message explained, versions agreed across
//! the paste, the messages ordered so that what ended the program leads.

use super::*;
use crate::input::{self};
use crate::stdtext;
use std::collections::{HashMap, HashSet};

/// A message's answer repo and the matches tied with it that differ only
/// by version: (index in its matches, revision).
type Tied = (String, Vec<(usize, String)>);

/// One paste comes from one build: where a message's answer is printed
/// alike by several versions of its crate, the version that answers the
/// most of the paste's messages is taken (then the one whose templates
/// explain more of the message's text, else the one ranked first), and
/// the other versions are listed as printing the same text.
fn agree_on_versions(locals: &mut [Local]) {
    // Per message: the answer's repo and the matches tied with it that
    // differ only by version (the answer among them).
    let tied: Vec<Option<Tied>> = locals
        .iter()
        .map(|l| {
            let a = l.answer?;
            let ans = &l.matches[a];
            let ties = l
                .matches
                .iter()
                .enumerate()
                .filter(|(_, k)| {
                    k.repo == ans.repo
                        && k.template == ans.template
                        && k.score == ans.score
                        && k.inner_of == ans.inner_of
                        && k.same_text_as.is_none()
                })
                .map(|(j, k)| (j, k.revision.clone()))
                .collect();
            Some((ans.repo.clone(), ties))
        })
        .collect();
    let mut support: HashMap<(&str, &str), usize> = HashMap::new();
    for (repo, ties) in tied.iter().flatten() {
        for (_, v) in ties {
            *support.entry((repo, v)).or_default() += 1;
        }
    }
    for (l, t) in locals.iter_mut().zip(&tied) {
        let (Some((repo, ties)), Some(a)) = (t, l.answer) else {
            continue;
        };
        if ties.len() < 2 {
            continue;
        }
        // Then the version whose templates explain more of this message's
        // text (log4rs 0.5.2 prints `error deserializing component: {err}`
        // around the `no {} deserializer…` 1.4.0 prints too).
        let coverage = |v: &str| {
            let mut seen = HashSet::new();
            l.matches
                .iter()
                .filter(|k| {
                    k.repo == *repo
                        && k.revision == v
                        && (k.evidence.contains(&Evidence::Template)
                            || k.evidence.contains(&Evidence::TemplatePart))
                        && seen.insert(k.template.as_str())
                })
                .map(|k| k.literal_chars)
                .sum::<usize>()
        };
        // What the paste says of a version (its location, its number)
        // outweighs how much of the text a version's templates explain.
        let named = |j: usize| {
            let e = &l.matches[j].evidence;
            e.contains(&Evidence::Location) || e.contains(&Evidence::Version)
        };
        let chosen = ties
            .iter()
            .max_by_key(|(j, v)| {
                (
                    support[&(repo.as_str(), v.as_str())],
                    named(*j),
                    coverage(v),
                    *j == a,
                )
            })
            .map_or(a, |(j, _)| *j);
        if chosen != a {
            l.matches.swap(a, chosen);
        }
        for (j, _) in ties {
            if *j != a {
                l.matches[*j].same_text_as = Some(a);
            }
        }
    }
}

impl Query<'_> {
    /// Names the installed package's file a Python location or frame
    /// outside an installed-packages folder is (see
    /// [`Index::package_tail`]); a frame that names its file alone, in
    /// the package the exception's module names ([`Index::named_file`]).
    fn find_packages(&self, m: &mut input::Message) {
        let module = m.target.clone();
        let locations = m
            .location
            .iter_mut()
            .chain(m.frames.iter_mut().filter_map(|f| f.at.as_mut()));
        for l in locations {
            let found = self
                .package_tail(l)
                .or_else(|| self.named_file(l, module.as_deref()?));
            if let Some(path) = found {
                l.package = Some(path);
            }
        }
    }

    /// Where an exception whose traceback was cut to its last source
    /// line was raised: the line of a file of the package its type's
    /// module names that reads as printed (the newest version first).
    fn raising_place(&self, m: &input::Message) -> Option<input::Location> {
        let source = m.source_line.as_deref()?;
        let package = m.target.as_deref()?.split('.').next()?;
        let key = crate::versions::package_key(package);
        let mut snapshots: Vec<(&(String, String), &i64)> = self
            .snapshots
            .iter()
            .filter(|((repo, _), _)| {
                repo.starts_with("pypi:") && crate::versions::package_key(repo) == key
            })
            .collect();
        snapshots.sort_by(|a, b| b.1.cmp(a.1));
        snapshots.into_iter().find_map(|(_, &id)| {
            let (path, line) = self.files.find_line(id, source)?;
            Some(input::Location {
                package: Some(path.clone()),
                path,
                line,
                column: None,
                registry: None,
            })
        })
    }

    /// The answer to the paste `text`.
    pub(super) fn answer(&self, text: &str) -> Explanation {
        let mut messages = input::parse(text);
        let mut locals = Vec::with_capacity(messages.len());
        for (mi, m) in messages.iter_mut().enumerate() {
            if matches!(m.origin, input::Origin::Exception | input::Origin::Cause) {
                self.find_packages(m);
            }
            if m.location.is_none() {
                m.location = self.raising_place(m);
            }
            m.std = stdtext::recognise(&m.text).or_else(|| {
                // A panic located in code that is not indexed: the user's
                // `expect` (without a location, it may be a crate's).
                let outside = m.location.as_ref().is_some_and(|l| !self.locates(l));
                (m.origin == input::Origin::Panic && outside)
                    .then(|| stdtext::expect_payload(&m.text))
                    .flatten()
                    .or_else(|| {
                        // A Python exception raised in the program's own
                        // file (not indexed): the program's text, or
                        // Python's; no library's site printed it.
                        let program = m.location.as_ref().is_some_and(|l| {
                            outside
                                && !l.is_library()
                                && !input::python::is_runtime_path(&l.path)
                                && is_absolute(&l.path)
                        });
                        (m.origin == input::Origin::Exception && program)
                            .then_some(stdtext::PROGRAM)
                    })
            });
            let local = self.explain_message(mi, m);
            // A paragraph's lines were each asked alone, with their
            // `words: ` contexts; the paragraph stands for a template that
            // spans its lines whole.
            let local = match local.answer {
                None if m.std.is_none() && m.origin != input::Origin::Paragraph => {
                    self.explain_context_value(mi, &m.text).unwrap_or(local)
                }
                _ => local,
            };
            locals.push(local);
        }
        agree_on_versions(&mut locals);
        // The most telling message first: one with an answer, the deepest
        // layer of a chain, the best answer.
        let mut order: Vec<usize> = (0..messages.len()).collect();
        let answer_score = |l: &Local| l.answer.map_or(-1.0, |a| l.matches[a].score);
        // A whole template (or a location) is stronger than a resemblance.
        let whole = |l: &Local| {
            l.answer.is_some_and(|a| {
                let k = &l.matches[a];
                !k.evidence.contains(&Evidence::Resemblance)
                    || k.evidence.contains(&Evidence::Template)
            })
        };
        // Of messages at the same layer, a whole template (or a location)
        // is stronger than a template matching a part of its message.
        let entire = |l: &Local| {
            l.answer.is_some_and(|a| {
                let k = &l.matches[a];
                k.evidence.contains(&Evidence::Template) || k.evidence.contains(&Evidence::Location)
            })
        };
        // One report is about one library: of messages at the same layer,
        // one answered in the crate that answers the most messages leads.
        fn repo(l: &Local) -> Option<&str> {
            l.answer.map(|a| l.matches[a].repo.as_str())
        }
        let support =
            |l: &Local| repo(l).map_or(0, |r| locals.iter().filter(|o| repo(o) == Some(r)).count());
        // The `Error: …` line `main` (or a CLI's handler) prints last, with
        // the `Caused by:` chain below it: what ended the program.
        let mut error_report = vec![false; messages.len()];
        let mut in_report = false;
        for (mi, m) in messages.iter().enumerate() {
            if m.layer == 0 {
                in_report = m.origin == input::Origin::ErrorLine;
            }
            error_report[mi] = in_report;
        }
        // What ended the program leads: a panic the report locates, then
        // any panic, an `Error: ` report or a problem the report locates
        // (a warning printed after its `path:line:`), then what is not a
        // log line of progress (info, debug, trace).
        let ended = |mi: usize| {
            let l = &locals[mi];
            let m = &messages[mi];
            let located = |evidence: &[Evidence]| {
                evidence.contains(&Evidence::Location) || evidence.contains(&Evidence::Frame)
            };
            match (m.origin, l.answer) {
                (input::Origin::Exception, Some(a)) if passed_through(m, &l.matches[a]) => 1,
                (input::Origin::Panic | input::Origin::Exception, Some(a))
                    if l.matches[a].evidence.contains(&Evidence::Location) =>
                {
                    3
                }
                (input::Origin::Panic | input::Origin::Exception, _) => 2,
                _ if m.level.is_some_and(|v| !v.is_problem()) => 0,
                _ if error_report[mi] => 2,
                (_, Some(a)) if located(&l.matches[a].evidence) => 2,
                _ => 1,
            }
        };
        // A template of several lines that prints several lines of the
        // paste whole explains each of them: the lines' own answers are
        // parts of it (a one-line template whose hole took the other lines
        // explains nothing of them).
        let spans = |mi: usize| {
            let l = &locals[mi];
            let mut cur = l.answer;
            let mut root = None;
            while let Some(i) = cur {
                root = Some(i);
                cur = l.matches[i].inner_of;
            }
            messages[mi].origin == input::Origin::Paragraph
                && root.is_some_and(|r| {
                    let k = &l.matches[r];
                    k.evidence.contains(&Evidence::Template) && k.template.contains('\n')
                })
        };
        // `deeper` orders a chain's layers (the root cause first); between
        // records it says nothing.
        let compare = |a: usize, b: usize, deeper: bool| {
            let (la, lb) = (&locals[a], &locals[b]);
            let layer = if deeper {
                messages[b].layer.cmp(&messages[a].layer)
            } else {
                std::cmp::Ordering::Equal
            };
            lb.answer
                .is_some()
                .cmp(&la.answer.is_some())
                .then(ended(b).cmp(&ended(a)))
                .then(spans(b).cmp(&spans(a)))
                .then(whole(lb).cmp(&whole(la)))
                .then(layer)
                .then(entire(lb).cmp(&entire(la)))
                .then(support(lb).cmp(&support(la)))
                .then(answer_score(lb).total_cmp(&answer_score(la)))
                .then(a.cmp(&b))
        };
        // An event at layer 0 (a log line, a panic, an exception) opens a
        // record; the messages after it (its chain, a report's sections)
        // are its own. A record is told by its chain's first message;
        // records compete as equals, whatever the depth of their chains (a
        // log line's `error=` field is below its own event, not below the
        // other lines).
        // Records are runs of messages: each run's first in chain order
        // leads it.
        let mut lead = vec![false; messages.len()];
        let mut run_best: Option<usize> = None;
        for (i, m) in messages.iter().enumerate() {
            let event = matches!(
                m.origin,
                input::Origin::Log | input::Origin::Panic | input::Origin::Exception
            );
            if m.layer == 0 && event {
                if let Some(b) = run_best.take() {
                    lead[b] = true;
                }
            }
            run_best = match run_best {
                Some(b) if compare(b, i, true).is_le() => Some(b),
                _ => Some(i),
            };
        }
        if let Some(b) = run_best {
            lead[b] = true;
        }
        order.sort_by(|&a, &b| lead[b].cmp(&lead[a]).then(compare(a, b, false)));
        let mut matches = Vec::new();
        let mut best = vec![None; messages.len()];
        let mut unexplained = Vec::new();
        for mi in order {
            let local = std::mem::replace(
                &mut locals[mi],
                Local {
                    matches: Vec::new(),
                    answer: None,
                },
            );
            if local.answer.is_none() {
                unexplained.push(mi);
            }
            // The answer, the layers wrapping it (innermost first), the rest.
            let mut seq: Vec<usize> = Vec::new();
            let mut cur = local.answer;
            while let Some(i) = cur {
                seq.push(i);
                cur = local.matches[i].inner_of;
            }
            for i in 0..local.matches.len() {
                if !seq.contains(&i) {
                    seq.push(i);
                }
            }
            let base = matches.len();
            let mut new_index = vec![0; local.matches.len()];
            for (pos, &i) in seq.iter().enumerate() {
                new_index[i] = base + pos;
            }
            best[mi] = local.answer.map(|a| new_index[a]);
            let mut ms = local.matches;
            for m in &mut ms {
                m.inner_of = m.inner_of.map(|p| new_index[p]);
                m.same_text_as = m.same_text_as.map(|p| new_index[p]);
            }
            let mut slots: Vec<Option<Match>> = ms.into_iter().map(Some).collect();
            for i in seq {
                matches.push(slots[i].take().expect("each match is placed once"));
            }
        }
        unexplained.sort_unstable();
        Explanation {
            messages,
            matches,
            best,
            unexplained,
        }
    }
}

/// Whether an exception only passed through the place that answers it:
/// its type is another package's (`twisted.internet.error.…` at a frame of
/// scrapy's, thrown into a generator there), no template of the place
/// printed its text, and the text is not the runtime's. The frame is where
/// it went by, not what ended the program: a record the place's package
/// logged about it says more.
fn passed_through(m: &input::Message, k: &Match) -> bool {
    let top = |s: &str| s.split(['.', '/']).next().unwrap_or_default().to_string();
    k.evidence.contains(&Evidence::Location)
        && !k.evidence.contains(&Evidence::Template)
        && m.std.is_none()
        && m.target.as_deref().is_some_and(|t| top(t) != top(&k.path))
}

/// An absolute path (`/…`, `C:\…`): a program's file, not a frozen
/// module's relative name.
fn is_absolute(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with('/')
        || path.starts_with('~')
        || (b.len() > 2
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'\\' | b'/'))
}
