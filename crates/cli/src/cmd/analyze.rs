//! `errdex analyze [REPO | ID]`: the analyze use case with a progress bar
//! on a terminal, and its summary as text or JSON.

use crate::Failure;
use errdex_app::analyze::AnalyzeOptions;
use errdex_app::{Event, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write;
use std::sync::Mutex;

/// The model flags and how many errors.
pub struct Options {
    /// `--llm`.
    pub llm: Option<String>,
    /// `--model` (else `$ERRDEX_LLM_MODEL`).
    pub model: Option<String>,
    /// `--limit`: at most this many errors per repo, library code first.
    pub limit: Option<usize>,
}

pub fn run(
    db: &errdex_app::Location,
    target: Option<&str>,
    opts: &Options,
    json: bool,
) -> Result<u8, Failure> {
    let options = AnalyzeOptions {
        llm: opts.llm.clone(),
        model: opts
            .model
            .clone()
            .or_else(|| std::env::var("ERRDEX_LLM_MODEL").ok()),
        key: std::env::var("ERRDEX_LLM_KEY").ok(),
        limit: opts.limit,
    };
    let summary = errdex_app::analyze::analyze(db, target, &options, &Bar::default())?;
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&summary).expect("summaries serialise")
        );
    } else {
        let _ = writeln!(
            o,
            "analysed {} errors of {} ({} from the cache) in {:.2}s: {} with a concrete trigger fact ({:.0}%; library code: {} of {}), facts {:.1} ms per error",
            summary.errors,
            summary.repos.join(", "),
            summary.cached,
            summary.seconds,
            summary.with_trigger,
            100.0 * summary.with_trigger as f64 / summary.errors.max(1) as f64,
            summary.library_with_trigger,
            summary.library_errors,
            summary.facts_ms_per_error,
        );
        if let Some(ms) = summary.model_ms_per_error {
            let _ = writeln!(
                o,
                "  model {}: {} sections accepted, {} refused by the verifier, {ms:.0} ms per error",
                summary.model, summary.model_sections_accepted, summary.model_sections_rejected
            );
        }
    }
    crate::out::emit(&o, json);
    Ok(0)
}

/// An indicatif bar over each snapshot's errors (drawn only on a terminal).
#[derive(Default)]
struct Bar {
    bar: Mutex<Option<ProgressBar>>,
}

impl Progress for Bar {
    fn event(&self, event: Event<'_>) {
        let mut bar = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            Event::Analysing { errors } => {
                let b = ProgressBar::new(errors as u64);
                b.set_style(
                    ProgressStyle::with_template(
                        "{spinner} analysing {pos}/{len} errors {wide_bar} {eta}",
                    )
                    .expect("static template"),
                );
                *bar = Some(b);
            }
            Event::Step => {
                if let Some(b) = bar.as_ref() {
                    b.inc(1);
                }
            }
            Event::Done => {
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
            }
            _ => {}
        }
    }
}
