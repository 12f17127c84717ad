//! Analysis: a grounded explanation for every error.
//!
//! From a snapshot read back from the catalogue, [`facts`] gathers what the
//! code says about an error — its enclosing fn and docs, the guard under
//! which it runs, who calls it, the tests that trigger it, related errors,
//! history — each fact with an id. [`sections`] writes the page's sections
//! from those facts by rules per kind, every sentence citing the facts it
//! rests on. A language model ([`llm`]) may rewrite the sections from the
//! same facts; [`verify`] accepts its text only when it names nothing the
//! snapshot does not hold and no other function as the thrower, and any
//! code it gives parses; otherwise the rule text stays.

mod error;
pub mod facts;
pub mod llm;
#[cfg(feature = "local-model")]
pub mod local;
pub mod sections;
pub mod verify;

use serde::{Deserialize, Serialize};

pub use error::ModelError;
pub use facts::Analyzer;

/// What a fact is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// The message and how it is produced.
    Message,
    /// The enclosing fn and its signature.
    Item,
    /// A doc comment of the enclosing fn (`# Panics`, `# Errors` quoted).
    Doc,
    /// A condition under which the site runs.
    Guard,
    /// The value of a constant or field default a condition compares
    /// against (`const LIMIT: usize = 1 << 12` → 4096).
    Value,
    /// The asserted condition of an assert (the site runs when it is false).
    Assertion,
    /// What `expect`/`unwrap` is called on.
    Receiver,
    /// The fn exists only to refuse: its body is this site, a trait's
    /// default method that panics, or an `unimplemented!`/`todo!` marker.
    Sentinel,
    /// A call of the enclosing fn.
    Caller,
    /// Where a crate fn fails whose failure a caller turns into this
    /// error (`self.try_x().unwrap_or_else(|_| fail())`).
    Failure,
    /// A public fn that reaches the site within a few calls.
    PublicEntry,
    /// A place that constructs the error variant.
    Constructor,
    /// A test of the repository that triggers the error.
    Test,
    /// How the site works: attributes (`#[cold]`, `#[track_caller]`), `cfg`
    /// gates, `debug_assert!`, compile-time evaluation, `macro_rules!`
    /// expansion, `const` messages, trait impls a user reaches implicitly.
    Mechanism,
    /// A way around it the code offers: a fallible sibling, a call that
    /// establishes the precondition.
    Alternative,
    /// A related error.
    Related,
    /// The commit that introduced the message.
    Origin,
    /// The versions holding the error.
    Versions,
}

/// One fact, with where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    /// `f1`, `f2`, … within one analysis.
    pub id: String,
    /// What it is about.
    pub kind: FactKind,
    /// The fact in one sentence, code in backticks.
    pub text: String,
    /// File, when it has a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Line, when it has a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Code that shows it (a test's body).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// For related errors: the other error's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_id: Option<String>,
    /// What the sentence states, as data, for the facts sections choose
    /// by what they say (the thrower, a public way in, a quoted doc…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Detail>,
}

impl Fact {
    /// The code the fact is about, what a sentence citing it must name:
    /// the names and expressions of its detail, with the code spans of its
    /// sentence (a span holding a backtick is whole only in the detail).
    pub fn subjects(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.text.split('`').skip(1).step_by(2).collect();
        if let Some(d) = &self.detail {
            out.extend(d.subjects());
        }
        out
    }
}

impl Detail {
    /// The names and expressions the detail holds.
    fn subjects(&self) -> Vec<&str> {
        match self {
            Detail::Thrower { name, .. } | Detail::Entry { name, .. } => vec![name],
            Detail::Assertion { condition } => vec![condition],
            Detail::Receiver { expr, .. } => vec![expr],
            Detail::Value { name, .. } => vec![name],
            Detail::Doc { of, .. } => of.iter().map(String::as_str).collect(),
            Detail::Constructor { variant, by, .. } => variant
                .iter()
                .map(String::as_str)
                .chain([by.as_str()])
                .collect(),
            Detail::Features { names, .. } => names.iter().map(String::as_str).collect(),
            Detail::SerdeMethod {
                serde_trait,
                method,
                ty,
            } => vec![serde_trait, method, ty],
            Detail::Twin(t) => vec![&t.fallible, &t.panicking],
            Detail::CallerCondition | Detail::ImplicitUse { .. } | Detail::Invariant => Vec::new(),
        }
    }
}

/// What a fact states, as data: the page's sections pick facts by this,
/// never by the words of their sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "is", rename_all = "snake_case")]
pub enum Detail {
    /// The fn the site is in (an `Item` fact).
    Thrower {
        /// Its path as a user names it (`Vec::reserve`).
        name: String,
        /// Its signature.
        signature: String,
        /// Users call it: a public fn, or a method of a public trait.
        public: bool,
    },
    /// The condition an assertion checks.
    Assertion {
        /// The first argument of the assert (`n <= LIMIT`).
        condition: String,
    },
    /// What `expect`/`unwrap` is called on, and what it holds when the
    /// call fails.
    Receiver {
        /// The receiver expression.
        expr: String,
        /// What the value holds when it fires.
        holds: Holds,
    },
    /// A condition under which the site runs that a caller or a
    /// constructor of the value decides (`Where f calls it, …`), not the
    /// thrower's own code.
    CallerCondition,
    /// A constant or field default a condition compares against.
    Value {
        /// The constant's name (`LIMIT`).
        name: String,
        /// Its value as the page states it, code in backticks (`` `4096` ``,
        /// `` `1 << 12` = 4096 ``).
        value: String,
    },
    /// A quoted doc comment.
    Doc {
        /// The public fn whose doc it is; none for the thrower's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        of: Option<String>,
        /// The section quoted, when it is one of the two a caller keeps to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        heading: Option<DocHeading>,
        /// The quoted text.
        quote: String,
    },
    /// A public way in a user calls by name.
    Entry {
        /// What the user calls (`Parser::parse`, `vec_of!`).
        name: String,
        /// What kind of item it is.
        via: Via,
    },
    /// A way in a user takes without naming the fn: a trait impl the
    /// language or another crate calls.
    ImplicitUse {
        /// What the user does, in words (`formatting a `E` with `{}``).
        action: String,
    },
    /// A place that makes the error variant.
    Constructor {
        /// The variant (`Error::Eof`); none for a macro that makes it,
        /// invoked in `by`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        variant: Option<String>,
        /// The fn that makes it.
        by: String,
        /// That fn is test code.
        in_test: bool,
    },
    /// The code exists only under `cfg`s naming Cargo features.
    Features {
        /// The features named, in order.
        names: Vec<String>,
        /// The first feature is negated (`not(feature = "x")`).
        negated: bool,
    },
    /// The check guards an invariant the crate keeps itself: nothing a
    /// user does should reach it.
    Invariant,
    /// serde calls a method of a serde trait impl the error is made in.
    SerdeMethod {
        /// The serde trait (`Serializer`).
        serde_trait: String,
        /// Its method (`serialize_i8`).
        method: String,
        /// The implementing type.
        ty: String,
    },
    /// A fallible form of the panicking call.
    Twin(Twin),
}

/// The doc sections a caller keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DocHeading {
    /// `# Panics`.
    Panics,
    /// `# Errors`.
    Errors,
}

/// How a public way in is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// A public fn or method.
    Fn,
    /// A method of a public trait, implemented for a type.
    TraitMethod,
    /// An exported `macro_rules!`.
    Macro,
}

/// What a receiver holds when unwrapping it fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Holds {
    /// `None` (an `Option`).
    None,
    /// An `Err` (a `Result`).
    Err,
    /// An `Ok` (`expect_err`, `unwrap_err`).
    Ok,
    /// Not known.
    Unknown,
}

/// A public fn that hands back the failure where another panics
/// (`Vec::try_reserve` beside `Vec::reserve`): what the example fix is
/// written from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Twin {
    /// The fallible fn, by path (`SmallVec::try_reserve`).
    pub fallible: String,
    /// The panicking fn, by path.
    pub panicking: String,
    /// What the fallible fn returns (`Result<(), E>`, `Option<&T>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<String>,
    /// Both as a user writes the calls on a value, for methods
    /// (`.left()`, `.unwrap_left()`; `[key]` for an `Index` impl).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<(String, String)>,
}

/// The sections of an error's page, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionName {
    /// What it means.
    Means,
    /// When it happens.
    When,
    /// How to fix it.
    Solutions,
    /// An example fix.
    ExampleFix,
}

impl SectionName {
    /// Every section, in page order.
    pub const ALL: [SectionName; 4] = [
        SectionName::Means,
        SectionName::When,
        SectionName::Solutions,
        SectionName::ExampleFix,
    ];

    /// The heading.
    pub fn title(self) -> &'static str {
        match self {
            SectionName::Means => "What it means",
            SectionName::When => "When it happens",
            SectionName::Solutions => "Solutions",
            SectionName::ExampleFix => "Example fix",
        }
    }

    /// The stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            SectionName::Means => "means",
            SectionName::When => "when",
            SectionName::Solutions => "solutions",
            SectionName::ExampleFix => "example_fix",
        }
    }
}

/// A sentence and the facts it rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sentence {
    /// The text (code in backticks).
    pub text: String,
    /// Ids of the facts it rests on.
    pub facts: Vec<String>,
}

/// Who wrote a section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Author {
    /// The rules, from the facts.
    Rules,
    /// A model, checked by the verifier.
    Model {
        /// Which model.
        model: String,
    },
}

/// One section of the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// Which.
    pub name: SectionName,
    /// Its sentences.
    pub sentences: Vec<Sentence>,
    /// Code (the example fix), Rust.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Who wrote it.
    pub author: Author,
}

/// A model section the verifier refused, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    /// Which section.
    pub section: SectionName,
    /// Why (one line).
    pub reason: String,
}

/// How an analysis was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// `owner/repo` or `crate:NAME`.
    pub repo: String,
    /// The snapshot's revision.
    pub revision: String,
    /// Its date.
    pub date: Option<String>,
    /// A hash of the facts (the cache key with the error id and model).
    pub facts_hash: String,
    /// The model asked, if any.
    pub model: Option<String>,
    /// Model sections refused by the verifier.
    pub rejected: Vec<Rejection>,
}

/// An error's analysis: facts, sections, provenance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    /// The error.
    pub error_id: String,
    /// What the code says.
    pub facts: Vec<Fact>,
    /// The page's sections, in order.
    pub sections: Vec<Section>,
    /// How it was made.
    pub provenance: Provenance,
}

impl Analysis {
    /// Facts of a kind.
    pub fn facts_of(&self, kind: FactKind) -> impl Iterator<Item = &Fact> {
        self.facts.iter().filter(move |f| f.kind == kind)
    }

    /// True when a concrete trigger is known: a test, a caller, a guard, an
    /// asserted condition, the `None`/`Err` receiver, or a constructor.
    pub fn has_trigger(&self) -> bool {
        self.facts.iter().any(|f| {
            matches!(
                f.kind,
                FactKind::Test
                    | FactKind::Caller
                    | FactKind::Guard
                    | FactKind::Assertion
                    | FactKind::Receiver
                    | FactKind::Constructor
            )
        })
    }
}

/// The rules' source (sections and facts): a cached analysis made by other
/// rules is stale.
const RULES: &[&str] = &[
    include_str!("sections.rs"),
    include_str!("facts/mod.rs"),
    include_str!("facts/callgraph.rs"),
    include_str!("facts/callers.rs"),
    include_str!("facts/configs.rs"),
    include_str!("facts/mechanisms.rs"),
    include_str!("facts/receivers.rs"),
    include_str!("facts/constructors.rs"),
    include_str!("facts/evidence.rs"),
    include_str!("facts/generated.rs"),
    include_str!("facts/docs.rs"),
    include_str!("facts/values.rs"),
    include_str!("facts/related.rs"),
];

/// The rest of the analyser's source: the syntax helpers, the shared
/// syntax front-end's rules (recursion limit, test paths), the verifier and
/// the model clients.
const OTHER_SOURCE: &[&str] = &[
    include_str!("lib.rs"),
    include_str!("../../syntax/src/items.rs"),
    include_str!("../../syntax/src/attrs.rs"),
    include_str!("../../syntax/src/lib.rs"),
    include_str!("../../model/src/paths.rs"),
    include_str!("verify.rs"),
    include_str!("error.rs"),
    include_str!("llm.rs"),
    include_str!("local/mod.rs"),
    include_str!("local/bpe.rs"),
];

/// The key of a whole-snapshot analysis run: this analyser's source, the
/// model, the `--limit`, and the catalogue's snapshots
/// ([`errdex_catalog::Catalog::snapshots_state`]). A run with the same key
/// gathers the same facts, so its (error, facts hash) pairs can be reused
/// without parsing the snapshot again (xxh3, hex).
pub fn run_key(model: &str, limit: Option<usize>, snapshots_state: &str) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for part in RULES.iter().chain(OTHER_SOURCE) {
        h.update(part.as_bytes());
        h.update(&[0]);
    }
    h.update(model.as_bytes());
    h.update(&[0]);
    h.update(format!("{limit:?}").as_bytes());
    h.update(&[0]);
    h.update(snapshots_state.as_bytes());
    format!("{:016x}", h.digest())
}

/// A stable hash of facts and of the rules that write sections from them
/// (xxh3, hex).
pub fn facts_hash(facts: &[Fact]) -> String {
    let json = serde_json::to_string(facts).expect("facts serialise");
    let mut rules = xxhash_rust::xxh3::Xxh3::new();
    for part in RULES {
        rules.update(part.as_bytes());
    }
    let rules = rules.digest();
    format!(
        "{:016x}",
        xxhash_rust::xxh3::xxh3_64_with_seed(json.as_bytes(), rules)
    )
}

/// Analyses one error of the analyser's snapshot: its facts (see
/// [`Analyzer::facts`]), rule sections, and — with a model — the model's
/// sections where the verifier accepts them. `excerpt` is the code around
/// the site (given to the model).
pub fn analyze(
    analyzer: &Analyzer,
    error: &errdex_catalog::ErrorDetail,
    facts: Vec<Fact>,
    model: Option<&llm::Endpoint>,
    excerpt: &str,
) -> Analysis {
    let mut sections = sections::write(error.kind, &error.language, &facts);
    let mut rejected = Vec::new();
    if let Some(endpoint) = model {
        let thrower = analyzer.thrower_names(error);
        let prompt = llm::Prompt {
            message: &error.template,
            kind: error.kind.as_str(),
            thrower: thrower.first().map(String::as_str),
            facts: &facts,
            excerpt,
            draft: &sections,
        };
        match llm::complete(endpoint, &prompt).and_then(|c| llm::parse_reply(&c)) {
            Ok(reply) => {
                // Quoted doc comments are the repository's words, not
                // facts about names: they ground nothing.
                let facts_text = std::iter::once(error.template.clone())
                    .chain(
                        facts
                            .iter()
                            .filter(|f| f.kind != FactKind::Doc)
                            .map(|f| format!("{} {}", f.text, f.code.as_deref().unwrap_or(""))),
                    )
                    .collect::<Vec<_>>()
                    .join("\n");
                let fact_code: std::collections::HashMap<String, Vec<String>> = facts
                    .iter()
                    .map(|f| {
                        let subjects = f.subjects().into_iter().map(str::to_string).collect();
                        (f.id.clone(), subjects)
                    })
                    .collect();
                let ground = verify::Ground {
                    identifiers: analyzer.identifiers(),
                    facts_text: &facts_text,
                    thrower: &thrower,
                    fn_names: analyzer.fn_names(),
                    fact_code: &fact_code,
                };
                for s in sections.iter_mut() {
                    let (sentences, code) = reply.get(s.name);
                    match verify::check(&sentences, code.as_deref(), &ground) {
                        Ok(()) => {
                            *s = Section {
                                name: s.name,
                                sentences: sentences
                                    .into_iter()
                                    .map(|(text, facts)| Sentence { text, facts })
                                    .collect(),
                                code,
                                author: Author::Model {
                                    model: endpoint.name(),
                                },
                            }
                        }
                        Err(refusal) => rejected.push(Rejection {
                            section: s.name,
                            reason: refusal.to_string(),
                        }),
                    }
                }
            }
            Err(e) => {
                let reason = e.to_string();
                for s in &sections {
                    rejected.push(Rejection {
                        section: s.name,
                        reason: reason.clone(),
                    });
                }
            }
        }
    }
    let snapshot = analyzer.snapshot();
    Analysis {
        error_id: error.id.clone(),
        provenance: Provenance {
            repo: snapshot.repo.clone(),
            revision: snapshot.revision.clone(),
            date: snapshot.date.clone(),
            facts_hash: facts_hash(&facts),
            model: model.map(llm::Endpoint::name),
            rejected,
        },
        facts,
        sections,
    }
}
