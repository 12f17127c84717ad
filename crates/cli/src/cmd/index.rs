//! `errdex index SOURCE...`: the index use case with progress bars on a
//! terminal, and each source's summary as text or JSON.

use crate::Failure;
use errdex_app::index::{IndexOptions, IndexSummary, Indexed, LockSummary};
use errdex_app::{Event, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write;
use std::sync::Mutex;

/// How to index, and how to print.
pub struct Options {
    /// Print JSON summaries.
    pub json: bool,
    /// What the use case needs.
    pub index: IndexOptions,
}

/// Exit status of a run that indexed what it could of a lock file but
/// not every package (each one missing is named in the summary).
pub const PARTIAL: u8 = 3;

pub fn run(db: &errdex_app::Location, sources: &[String], opts: &Options) -> Result<u8, Failure> {
    let bars = Bars::default();
    let json = opts.json;
    let mut partial = false;
    errdex_app::index::index(db, sources, &opts.index, &bars, &mut |done| {
        partial |= matches!(&done, Indexed::Lock(s) if s.is_partial());
        let mut o = String::new();
        if json {
            let _ = writeln!(
                o,
                "{}",
                serde_json::to_string(&done).expect("summaries serialise")
            );
        } else {
            match &done {
                Indexed::Snapshot(s) => print_summary(&mut o, s),
                Indexed::Lock(s) => print_lock(&mut o, s),
                Indexed::Present(s) => {
                    let _ = writeln!(o, "{}@{} is indexed already", s.repo, s.revision);
                }
            }
        }
        crate::out::emit(&o, json);
    })?;
    Ok(if partial { PARTIAL } else { 0 })
}

/// indicatif bars for the use case's events (drawn only on a terminal).
#[derive(Default)]
struct Bars {
    bar: Mutex<Option<ProgressBar>>,
}

impl Progress for Bars {
    fn event(&self, event: Event<'_>) {
        let mut bar = self.bar.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            Event::Loading(what) => {
                let spinner = ProgressBar::new_spinner();
                spinner.set_message(what.to_string());
                spinner.enable_steady_tick(std::time::Duration::from_millis(120));
                *bar = Some(spinner);
            }
            Event::Extracting { files } => {
                let b = ProgressBar::new(files as u64);
                b.set_style(
                    ProgressStyle::with_template(
                        "{spinner} extracting {pos}/{len} files {wide_bar} {eta}",
                    )
                    .expect("static template")
                    .progress_chars("=> "),
                );
                *bar = Some(b);
            }
            Event::Tracing => restyle(
                bar.as_ref(),
                "{spinner} tracing messages through git history",
            ),
            Event::Writing => restyle(bar.as_ref(), "{spinner} writing the catalogue"),
            Event::Refreshing => {
                let spinner = ProgressBar::new_spinner();
                spinner.set_message("updating the explain index");
                spinner.enable_steady_tick(std::time::Duration::from_millis(120));
                *bar = Some(spinner);
            }
            Event::Packages { count } => {
                let b = ProgressBar::new(count as u64);
                b.set_style(
                    ProgressStyle::with_template(
                        "{spinner} indexing {pos}/{len} locked packages {wide_bar} {msg}",
                    )
                    .expect("static template"),
                );
                *bar = Some(b);
            }
            Event::Package(label) => {
                if let Some(b) = bar.as_ref() {
                    b.set_message(label.to_string());
                }
            }
            Event::Analysing { .. } => {}
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
        }
    }
}

/// A spinner with a new line of text.
fn restyle(bar: Option<&ProgressBar>, template: &str) {
    if let Some(b) = bar {
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b.set_style(ProgressStyle::with_template(template).expect("static template"));
    }
}

fn print_lock(o: &mut String, s: &LockSummary) {
    let skips: Vec<String> = s.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(
        o,
        "indexed {}: {} packages, {} indexed, {} already indexed{}{} in {:.2}s",
        s.lock,
        s.packages,
        s.indexed.len(),
        s.already_indexed,
        if skips.is_empty() { "" } else { ", skipped: " },
        skips.join(", "),
        s.seconds
    );
    if s.is_partial() {
        let _ = writeln!(
            o,
            "  not indexed ({} of {} packages):",
            s.unavailable.len(),
            s.packages
        );
        for u in &s.unavailable {
            let _ = writeln!(
                o,
                "    {} ({}): {}: {}",
                u.package, u.source, u.reason, u.detail
            );
        }
    }
}

fn print_summary(o: &mut String, s: &IndexSummary) {
    let _ = writeln!(
        o,
        "indexed {}@{}: {} files ({} unchanged, not parsed again), {} sites ({} in tests), {} errors, {} literals in {:.2}s{}",
        s.repo,
        s.revision,
        s.files,
        s.reused_files,
        s.sites,
        s.test_sites,
        s.errors,
        s.literals,
        s.seconds,
        if s.unchanged {
            " (already indexed from the same files: kept as it was)"
        } else if s.replaced {
            " (replaced the previous index of this revision)"
        } else {
            ""
        }
    );
    let kinds: Vec<String> = s.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
    if !kinds.is_empty() {
        let _ = writeln!(o, "  sites by kind: {}", kinds.join(", "));
    }
    if !s.skipped.is_empty() {
        let skips: Vec<String> = s.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(o, "  skipped files: {}", skips.join(", "));
    }
    if s.syntax_errors > 0 {
        let _ = writeln!(
            o,
            "  syntax errors: {} (sites extracted from what parsed)",
            s.syntax_errors
        );
    }
}
