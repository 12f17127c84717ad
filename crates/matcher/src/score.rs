//! The one scoring model of a candidate site: its `Features` (what the
//! paste and the index say of it), the `Weights` that combine them, and
//! the score with how it was made (`Why`, a tree as tantivy's
//! `Explanation`: `errdex explain --why` prints it, the JSON carries it).
//!
//! The weights' defaults were fitted on the development corpora by
//! `tools/fit_weights.py`, which sets them through `ERRDEX_WEIGHTS` (a
//! JSON file of any of the fields below) and keeps what raises top-1 on
//! one half of each corpus and holds on the other half.

use crate::explain::Evidence;
use crate::pattern::Found;
use serde::{Deserialize, Serialize};
use std::rc::Rc;
use std::sync::OnceLock;

/// The weights of the model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Score of a site a registry location names, before its text counts.
    pub located: f64,
    /// Share the text adds to a located site (the rest of its score).
    pub located_text: f64,
    /// Bonus per unit of location agreement for a site whose text matches.
    pub location_bonus: f64,
    /// Bonus of a site in the crate version the paste names.
    pub version_bonus: f64,
    /// Location agreement a backtrace frame gives.
    pub frame: f64,
    /// Location agreement of a log target naming the site's module.
    pub target_module: f64,
    /// Location agreement of a log target naming only the site's crate.
    pub target_crate: f64,
    /// Share of a free string literal (not a recognised site).
    pub literal: f64,
    /// Share of a free string literal in test code.
    pub test_literal: f64,
    /// Factor of a site in test code (an expectation, not an origin).
    pub test_site: f64,
    /// Factor of a site that does not panic, for a panic's message.
    pub not_a_panic: f64,
    /// Factor of a panicking site whose report would have named its own
    /// line where the report names another.
    pub located_elsewhere: f64,
    /// Factor of a site in a version of its crate the paste does not name,
    /// where it names another.
    pub other_version: f64,
    /// Factor of a site in a version published after the latest day the
    /// paste prints (naming no version of its crate).
    pub published_later: f64,
    /// Factor of a site outside the package (crate) the report's target
    /// names (a log target, an exception's module), where sites of that
    /// package print the text too.
    pub other_package: f64,
    /// Factor of a site in a vendored copy of another package
    /// (`_vendor/`, `vendor/`, `third_party/`): the original printed it
    /// as well.
    pub vendored: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            located: 0.8,
            located_text: 0.2,
            location_bonus: 0.15,
            version_bonus: 0.02,
            frame: 0.6,
            target_module: 0.6,
            target_crate: 0.3,
            literal: 0.9,
            test_literal: 0.5,
            test_site: 0.5,
            not_a_panic: 0.85,
            located_elsewhere: 0.6,
            other_version: 0.6,
            published_later: 0.6,
            other_package: 0.6,
            vendored: 0.9,
        }
    }
}

/// The weights in force: the defaults, or those of the JSON file
/// `ERRDEX_WEIGHTS` names (for fitting; a bad file is reported once on
/// stderr and the defaults kept).
pub fn weights() -> &'static Weights {
    static W: OnceLock<Weights> = OnceLock::new();
    W.get_or_init(|| {
        let Some(path) = std::env::var_os("ERRDEX_WEIGHTS") else {
            return Weights::default();
        };
        let read = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
        read.unwrap_or_else(|e| {
            eprintln!(
                "errdex: warning: ERRDEX_WEIGHTS ({}) not used: {e}",
                path.to_string_lossy()
            );
            Weights::default()
        })
    })
}

/// A score and how it was made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Why {
    /// The value.
    pub value: f64,
    /// What it is.
    pub description: String,
    /// The values it was made of, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Why>,
}

impl Why {
    /// The score of a line a registry location names where no site was
    /// extracted.
    pub(crate) fn located_line(value: f64) -> Self {
        Why {
            value,
            description: "score".into(),
            details: vec![Why::leaf(
                value,
                "a registry location names this line (no site extracted there)",
            )],
        }
    }

    fn leaf(value: f64, description: impl Into<String>) -> Self {
        Why {
            value: (value * 1000.0).round() / 1000.0,
            description: description.into(),
            details: Vec::new(),
        }
    }

    /// The tree as indented lines, `indent` deep.
    pub fn render(&self, indent: usize, out: &mut String) {
        out.push_str(&format!(
            "{:indent$}{:.3}  {}\n",
            "", self.value, self.description
        ));
        for d in &self.details {
            d.render(indent + 2, out);
        }
    }
}

/// A set of [`Evidence`], one bit each.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EvidenceSet(u8);

impl EvidenceSet {
    /// Every evidence, in the order JSON lists them.
    pub(crate) const ALL: [Evidence; 8] = [
        Evidence::Location,
        Evidence::Frame,
        Evidence::Template,
        Evidence::TemplatePart,
        Evidence::Resemblance,
        Evidence::Version,
        Evidence::Target,
        Evidence::BuildScript,
    ];

    fn bit(e: Evidence) -> u8 {
        1 << Self::ALL
            .iter()
            .position(|x| *x == e)
            .expect("every evidence is listed")
    }

    pub(crate) fn push(&mut self, e: Evidence) {
        self.0 |= Self::bit(e);
    }

    pub(crate) fn contains(&self, e: Evidence) -> bool {
        self.0 & Self::bit(e) != 0
    }

    pub(crate) fn to_vec(self) -> Vec<Evidence> {
        Self::ALL
            .into_iter()
            .filter(|e| self.contains(*e))
            .collect()
    }
}

/// What is known of one candidate site for one message.
#[derive(Default, Clone)]
pub(crate) struct Features {
    /// How much of the message its template explains (0–1; weighted for
    /// free literals).
    pub text: f64,
    /// The template's match in the message.
    pub found: Option<Rc<Found>>,
    /// Why it is a candidate.
    pub evidence: EvidenceSet,
    /// Agreement of the report's location, frames or log target (0–1).
    pub location: f64,
    /// The report's location names this site's crate version and file
    /// (a registry path): where the panic happened, whatever the text.
    pub at_location: bool,
    /// Test code.
    pub is_test: bool,
    /// The message is a panic's and this site does not panic.
    pub panic_mismatch: bool,
    /// The report names a location, and this site would have named its
    /// own: it panics, not at the caller's line (`#[track_caller]`), and
    /// is not in a macro expanded elsewhere.
    pub located_elsewhere: bool,
    /// The paste names another version of this site's crate.
    pub other_version: bool,
    /// This site's version was published after the paste's run.
    pub published_later: bool,
    /// The report's target names another package, whose sites print the
    /// text too.
    pub other_package: bool,
    /// The site is in a vendored copy of another package.
    pub vendored: bool,
}

impl Features {
    /// The score shown (0–1).
    pub(crate) fn score(&self) -> f64 {
        self.rank_value().min(1.0)
    }

    /// The score before it is capped at 1: what orders candidates (a
    /// frame's evidence still counts on a whole match).
    pub(crate) fn rank_value(&self) -> f64 {
        self.combine(weights(), |_, _| {})
    }

    /// How the score was made.
    pub(crate) fn why(&self) -> Why {
        let mut details = Vec::new();
        let value = self.combine(weights(), |what, v| details.push(Why::leaf(v, what)));
        Why {
            value: (value.min(1.0) * 1000.0).round() / 1000.0,
            description: "score".into(),
            details,
        }
    }

    /// The model: a site the report locates comes first (its text orders
    /// those); else the text it explains with a bonus for agreeing
    /// locations and the named version; then the factors against it.
    /// `note` hears each step (its description and value).
    fn combine(&self, w: &Weights, mut note: impl FnMut(&'static str, f64)) -> f64 {
        let mut s = if self.at_location {
            note("a registry location names this site", w.located);
            let t = w.located_text * self.text.max(self.location * 0.5);
            note("+ its text agreement", t);
            w.located + t
        } else if self.location > 0.0 && self.text > 0.0 {
            note("text explained", self.text);
            let b = w.location_bonus * self.location;
            note("+ location, frame or log target agreement", b);
            self.text + b
        } else {
            note("text explained", self.text);
            self.text
        };
        if self.evidence.contains(Evidence::Version) {
            note("+ the paste names this version", w.version_bonus);
            s += w.version_bonus;
        }
        let factors = [
            // Test code holds expectations of messages; where the report
            // places the message in it, a test ran and failed there.
            (
                self.is_test && self.location == 0.0,
                w.test_site,
                "× test code",
            ),
            (
                self.panic_mismatch,
                w.not_a_panic,
                "× does not panic, the message is a panic's",
            ),
            (
                self.located_elsewhere,
                w.located_elsewhere,
                "× would report its own line, the report names another",
            ),
            (
                self.other_version,
                w.other_version,
                "× the paste names another version of its crate",
            ),
            (
                self.published_later,
                w.published_later,
                "× published after the days the paste prints",
            ),
            (
                self.other_package,
                w.other_package,
                "× outside the package the report's target names",
            ),
            (
                self.vendored,
                w.vendored,
                "× in a vendored copy of another package",
            ),
        ];
        for (applies, factor, what) in factors {
            if applies {
                note(what, factor);
                s *= factor;
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_adds_up_to_the_score() {
        let f = Features {
            text: 0.9,
            is_test: true,
            ..Features::default()
        };
        let why = f.why();
        assert_eq!(why.value, (f.score() * 1000.0).round() / 1000.0);
        let steps: Vec<&str> = why.details.iter().map(|d| d.description.as_str()).collect();
        assert_eq!(steps, vec!["text explained", "× test code"]);
        let mut text = String::new();
        why.render(0, &mut text);
        assert!(
            text.starts_with(&format!(
                "{:.3}  score\n  0.900  text explained\n",
                why.value
            )),
            "{text}"
        );
    }

    #[test]
    fn weights_read_from_json_keep_defaults_for_the_rest() {
        let w: Weights = serde_json::from_str(r#"{"other_version": 0.4}"#).unwrap();
        assert_eq!(w.other_version, 0.4);
        assert_eq!(w.located, Weights::default().located);
        assert!(serde_json::from_str::<Weights>(r#"{"nonsense": 1}"#).is_err());
    }
}
