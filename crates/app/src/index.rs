//! `index`: load each source, extract it (reusing cached results of
//! unchanged files), trace its messages through git history, and store it
//! as one snapshot; a lock file's packages one by one.

use crate::languages::{self, Languages};
use crate::{AppError, Db, Event, Progress, Result};
use errdex_catalog::{Catalog, Location, SnapshotInput, WriteSummary};
use errdex_extract::{Extraction, Extractor, FileExtraction};
use errdex_model::{ErrorId, Origin};
use errdex_source::{Snapshot, SourceSpec};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What indexing one source did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexSummary {
    /// Repo slug.
    pub repo: String,
    /// Revision.
    pub revision: String,
    /// Date of the revision.
    pub date: Option<String>,
    /// Files read.
    pub files: usize,
    /// Files skipped, by reason.
    pub skipped: BTreeMap<&'static str, usize>,
    /// Sites written.
    pub sites: usize,
    /// Errors written.
    pub errors: usize,
    /// Sites by kind.
    pub by_kind: BTreeMap<&'static str, usize>,
    /// Sites in test code.
    pub test_sites: usize,
    /// Free literals.
    pub literals: usize,
    /// Syntax errors met (sites come from what parsed).
    pub syntax_errors: usize,
    /// Files parsed this time.
    pub parsed_files: usize,
    /// Files unchanged since an earlier snapshot, whose cached result was used.
    pub reused_files: usize,
    /// The revision was indexed before and replaced.
    pub replaced: bool,
    /// The revision was indexed before from the same input: nothing was
    /// written (the snapshot, its pages and the explain index stay).
    pub unchanged: bool,
    /// The history pass, for git sources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<HistorySummary>,
    /// Wall time.
    pub seconds: f64,
}

/// What the history pass found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistorySummary {
    /// First-parent commits walked.
    pub commits: usize,
    /// Errors whose introducing commit was found.
    pub traced: usize,
    /// Errors older than a shallow clone's history.
    pub before_shallow_boundary: usize,
    /// Errors with no message text long enough to trace.
    pub untraced: usize,
    /// Wall time.
    pub seconds: f64,
}

/// What indexing a lock file did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LockSummary {
    /// The lock file.
    pub lock: String,
    /// Packages it lists.
    pub packages: usize,
    /// `name@version` (and where from) of each package indexed now.
    pub indexed: Vec<String>,
    /// Packages indexed before.
    pub already_indexed: usize,
    /// Packages not indexed, by reason (the [`Unavailable::reason`]s
    /// counted).
    pub skipped: BTreeMap<&'static str, usize>,
    /// Each package not indexed, and why. Empty when the lock file was
    /// indexed whole; else the run was partial.
    pub unavailable: Vec<Unavailable>,
    /// Wall time.
    pub seconds: f64,
}

impl LockSummary {
    /// Some package of the lock file could not be had.
    pub fn is_partial(&self) -> bool {
        !self.unavailable.is_empty()
    }
}

/// A package of a lock file that could not be had.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unavailable {
    /// `name@version` (a requirement that pins nothing as written, a
    /// local project by its name or folder).
    pub package: String,
    /// Where the lock file says it comes from: `registry`, `path`, the git
    /// repository's URL, or the source as written.
    pub source: String,
    /// Why, a stable name: `not_in_registry`, `checksum_mismatch`,
    /// `yanked_not_cached`, `registry_unreachable`, `fetch_failed`,
    /// `unreadable_archive`, `git_without_clone`,
    /// `git_revision_not_in_clone`, `git_unreadable`, `unreadable_folder`,
    /// `path_outside_workspace`, `local_project` (a Python lock's own
    /// project or a folder: index it as a folder), `not_pinned` (a
    /// requirement without `==VERSION`), `unknown_source`.
    pub reason: &'static str,
    /// What happened, in one line.
    pub detail: String,
}

impl Unavailable {
    fn new(
        p: &errdex_source::lock::LockedPackage,
        reason: &'static str,
        detail: impl std::fmt::Display,
    ) -> Self {
        use errdex_source::lock::LockedSource;
        let source = match &p.source {
            LockedSource::Registry { .. } => "registry".to_string(),
            LockedSource::Git { url, .. } => url.clone(),
            LockedSource::Path => "path".to_string(),
            LockedSource::Pypi { .. } => "pypi".to_string(),
            LockedSource::Unpinned => "unpinned".to_string(),
            LockedSource::Other(s) => s.clone(),
        };
        let package = match &p.source {
            LockedSource::Unpinned => format!("{}{}", p.name, p.version),
            _ if p.version.is_empty() => p.name.clone(),
            _ => format!("{}@{}", p.name, p.version),
        };
        Unavailable {
            package,
            source,
            reason,
            detail: detail.to_string(),
        }
    }

    /// A registry package whose archive could not be had.
    fn registry(p: &errdex_source::lock::LockedPackage, e: &errdex_source::SourceError) -> Self {
        use errdex_source::SourceError as E;
        let reason = match e {
            E::UnknownCrate(_) | E::UnknownPackage(_) | E::NoSuchVersion(_) => "not_in_registry",
            E::Checksum(_) => "checksum_mismatch",
            E::YankedNotCached(_) => "yanked_not_cached",
            E::Unreachable(_) => "registry_unreachable",
            E::Archive(_) | E::Io(..) => "unreadable_archive",
            _ => "fetch_failed",
        };
        Unavailable::new(p, reason, e)
    }
}

/// What indexing one source did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Indexed {
    /// A folder, git revision or crate.
    Snapshot(IndexSummary),
    /// A lock file's packages.
    Lock(LockSummary),
    /// A snapshot the catalogue held already, left as it was (only under
    /// [`IndexOptions::skip_indexed`]).
    Present(PresentSnapshot),
}

/// A snapshot found in the catalogue already.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PresentSnapshot {
    /// Repo slug.
    pub repo: String,
    /// Revision.
    pub revision: String,
    /// Always true: tells this summary apart from an [`IndexSummary`].
    pub already_indexed: bool,
}

/// How to index.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// Reuse cached results of unchanged files.
    pub reuse: bool,
    /// Trace each message's origin in git history.
    pub history: bool,
    /// Local clones of git dependencies: `(repository URL, folder)`.
    pub clones: Vec<(String, PathBuf)>,
    /// The repo name for the one folder or git source.
    pub name: Option<String>,
    /// Leave a snapshot the catalogue holds already as it is, instead of
    /// indexing it again and replacing it (queued jobs: a published
    /// version or a commit never changes).
    pub skip_indexed: bool,
}

/// Checks a repo name given for one source: one source, a folder or git
/// repository, and a name of printable characters without spaces that is
/// not a crate's.
fn check_name(name: &str, specs: &[SourceSpec]) -> Result<()> {
    if specs.len() != 1 || !matches!(specs[0], SourceSpec::Dir(_) | SourceSpec::Git(..)) {
        return Err(AppError::input(
            "--name takes exactly one DIR or GITDIR source",
        ));
    }
    let bad = name.is_empty()
        || name.len() > 200
        || name.starts_with("crate:")
        || name.starts_with('/')
        || name.ends_with('/')
        || name.chars().any(|c| c.is_control() || c.is_whitespace())
        || name
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..");
    if bad {
        return Err(AppError::input(format!(
            "--name {name:?}: expected a name like owner/repo (no spaces, no empty, `.` or `..` parts)"
        )));
    }
    Ok(())
}

/// Parses `URL=DIR` clone values: DIR must be a git repository.
pub fn parse_clones(values: &[String]) -> Result<Vec<(String, PathBuf)>> {
    values
        .iter()
        .map(|v| {
            let (url, dir) = v
                .rsplit_once('=')
                .ok_or_else(|| AppError::input(format!("--clone {v}: expected URL=DIR")))?;
            let dir = PathBuf::from(dir);
            if !SourceSpec::parse(&dir.to_string_lossy())
                .is_ok_and(|s| matches!(s, SourceSpec::Git(..)))
            {
                return Err(AppError::input(format!(
                    "--clone {v}: {} is not a git repository",
                    dir.display()
                )));
            }
            Ok((url.to_string(), dir))
        })
        .collect()
}

/// Indexes each source into the catalogue at `db` (created after the
/// first source loads, so a bad source leaves no file or schema),
/// calling `done` with each source's summary as it is stored.
pub fn index(
    db: &Location,
    sources: &[String],
    opts: &IndexOptions,
    progress: &dyn Progress,
    done: &mut dyn FnMut(Indexed),
) -> Result<()> {
    let specs = sources
        .iter()
        .map(|s| SourceSpec::parse(s).map_err(AppError::input))
        .collect::<Result<Vec<_>>>()?;
    if let Some(name) = &opts.name {
        check_name(name, &specs)?;
    }
    let mut catalog: Option<Catalog> = None;
    for spec in &specs {
        if let SourceSpec::Lock(path) = spec {
            let c = match &mut catalog {
                Some(c) => c,
                None => catalog.insert(Catalog::open(db)?),
            };
            done(Indexed::Lock(index_lock(
                c,
                &Languages::rust(),
                path,
                opts,
                progress,
            )?));
            continue;
        }
        let started = Instant::now();
        let mut snapshot = load(spec, progress)?;
        let extractor = Languages::of(&snapshot.files);
        if let Some(name) = &opts.name {
            snapshot.meta.repo = name.clone();
        }
        let catalog = match &mut catalog {
            Some(c) => c,
            None => catalog.insert(Catalog::open(db)?),
        };
        if opts.skip_indexed
            && catalog.has_current_snapshot(
                &snapshot.meta.repo,
                &snapshot.meta.revision,
                &languages::fingerprint(),
            )?
        {
            done(Indexed::Present(PresentSnapshot {
                repo: snapshot.meta.repo,
                revision: snapshot.meta.revision,
                already_indexed: true,
            }));
            continue;
        }
        let git_dir = match spec {
            SourceSpec::Git(dir, _) if opts.history => Some(dir.as_path()),
            _ => None,
        };
        let summary = index_one(
            catalog, &extractor, snapshot, git_dir, started, opts, progress,
        )?;
        done(Indexed::Snapshot(summary));
    }
    if catalog.take().is_some() {
        refresh_explain_index(db, progress);
    }
    Ok(())
}

/// Rebuilds a SQLite catalogue's persisted explain index after snapshots
/// were written, so that the next `explain` maps it instead of rebuilding
/// it (a failure here only means that `explain` will rebuild it). A
/// PostgreSQL catalogue's is left to the node that next reads it: a pool of
/// workers would otherwise each rebuild it after every crate.
fn refresh_explain_index(db: &Location, progress: &dyn Progress) {
    if matches!(db, Location::Postgres(_)) {
        return;
    }
    progress.event(Event::Refreshing);
    if let Err(e) = Db::open(db).and_then(|d| d.refresh_explain_index()) {
        tracing::warn!("the explain index was not refreshed: {e}");
    }
    progress.event(Event::Done);
}

fn load(spec: &SourceSpec, progress: &dyn Progress) -> Result<Snapshot> {
    let what = match spec {
        SourceSpec::Dir(d) => format!("reading {}", d.display()),
        SourceSpec::Git(d, rev) => format!("reading {}@{rev} from git", d.display()),
        SourceSpec::Crate(c) => format!("fetching crate {} through cargo", c.name),
        SourceSpec::Lock(p) => format!("reading {}", p.display()),
        SourceSpec::Pypi(p) => format!("fetching package {} through pip", p.name),
    };
    progress.event(Event::Loading(&what));
    let snapshot = errdex_source::with_doc_includes(
        |wanted| errdex_source::load(spec, wanted),
        &languages::handles,
    )
    .map_err(AppError::input);
    progress.event(Event::Done);
    snapshot
}

fn index_one(
    catalog: &mut Catalog,
    extractor: &Languages,
    mut snapshot: Snapshot,
    git_dir: Option<&Path>,
    started: Instant,
    opts: &IndexOptions,
    progress: &dyn Progress,
) -> Result<IndexSummary> {
    progress.event(Event::Extracting {
        files: snapshot.files.len(),
    });
    let rev = snapshot.meta.revision.clone();
    let trace = git_dir.map(|dir| History { dir, rev: &rev });
    let stored = extract_and_store(
        catalog,
        extractor,
        &mut snapshot,
        opts.reuse,
        trace,
        progress,
    );
    progress.event(Event::Done);
    let Stored {
        extraction,
        written,
        parsed,
        reused,
        history,
    } = stored?;
    let mut by_kind = BTreeMap::new();
    for s in &extraction.sites {
        *by_kind.entry(s.kind.as_str()).or_insert(0) += 1;
    }
    let mut skipped = BTreeMap::new();
    for s in &snapshot.skips {
        *skipped.entry(s.reason.as_str()).or_insert(0) += 1;
    }
    Ok(IndexSummary {
        repo: snapshot.meta.repo.clone(),
        revision: snapshot.meta.revision.clone(),
        date: snapshot.meta.date.clone(),
        files: snapshot.files.len(),
        skipped,
        sites: written.sites,
        errors: written.errors,
        by_kind,
        test_sites: extraction.sites.iter().filter(|s| s.is_test).count(),
        literals: extraction.literals.len(),
        syntax_errors: extraction.syntax_errors,
        parsed_files: parsed,
        reused_files: reused,
        replaced: written.replaced,
        unchanged: written.unchanged,
        history,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Indexes every package of a lock file that is not indexed yet (a
/// published version never changes, so it is never indexed twice), as far
/// as each can be had: a package that cannot (not in the registry, a
/// checksum mismatch, a git dependency without a clone…) is named in the
/// summary's `unavailable` and the others are indexed all the same. Only a
/// catalogue failure ends the run (the packages stored before stay).
fn index_lock(
    catalog: &mut Catalog,
    extractor: &Languages,
    path: &Path,
    opts: &IndexOptions,
    progress: &dyn Progress,
) -> Result<LockSummary> {
    use errdex_source::lock::{member_folders, packages, same_repository, LockedSource};
    let started = Instant::now();
    let locked = packages(path).map_err(AppError::input)?;
    let mut unavailable = Vec::new();
    let mut todo = Vec::new();
    let mut local = Vec::new();
    let mut already = 0;
    // Packages this errdex build has indexed are kept; those an older
    // build extracted are indexed again.
    let build = languages::fingerprint();
    let python = errdex_source::lock::python_format(path).is_some();
    let members = if !python && locked.iter().any(|p| p.source == LockedSource::Path) {
        member_folders(path).ok()
    } else {
        None
    };
    for p in &locked {
        match &p.source {
            LockedSource::Registry { checksum } => {
                if catalog.has_current_snapshot(&format!("crate:{}", p.name), &p.version, &build)? {
                    already += 1;
                } else {
                    todo.push((p, Fetch::Crate(checksum.clone())));
                }
            }
            LockedSource::Pypi { hashes } => {
                if catalog.has_current_snapshot(
                    &errdex_source::pypi::repo_name(&p.name),
                    &p.version,
                    &build,
                )? {
                    already += 1;
                } else {
                    todo.push((p, Fetch::Pypi(hashes.clone())));
                }
            }
            LockedSource::Unpinned => unavailable.push(Unavailable::new(
                p,
                "not_pinned",
                format!(
                    "`{}{}` pins no version (write NAME==VERSION)",
                    p.name, p.version
                ),
            )),
            LockedSource::Path if python => unavailable.push(Unavailable::new(
                p,
                "local_project",
                "the project's own folder or a local one: index it as a folder",
            )),
            LockedSource::Path => {
                match members
                    .as_ref()
                    .and_then(|m| m.get(&(p.name.clone(), p.version.clone())))
                {
                    Some(dir) => local.push((p, Local::Path(dir.clone()))),
                    None => unavailable.push(Unavailable::new(
                        p,
                        "path_outside_workspace",
                        "a path package that is not a member of the lock file's workspace",
                    )),
                }
            }
            LockedSource::Git { url, commit } => {
                let clone = opts
                    .clones
                    .iter()
                    .find(|(u, _)| same_repository(u, url))
                    .map(|(_, d)| d);
                match (clone, commit) {
                    (Some(dir), Some(c)) => local.push((p, Local::Git(dir.clone(), c.clone()))),
                    _ => unavailable.push(Unavailable::new(
                        p,
                        "git_without_clone",
                        format!("no local clone of {url} (give one with --clone URL=DIR)"),
                    )),
                }
            }
            LockedSource::Other(s) => unavailable.push(Unavailable::new(
                p,
                "unknown_source",
                format!("source {s} is neither a registry, git nor a path"),
            )),
        }
    }
    if todo.iter().any(|(_, f)| matches!(f, Fetch::Crate(_))) {
        errdex_source::prefetch_lock(path);
    }
    progress.event(Event::Packages {
        count: todo.len() + local.len(),
    });
    let result = index_packages(
        catalog,
        extractor,
        todo,
        local,
        opts,
        &mut unavailable,
        progress,
    );
    progress.event(Event::Done);
    let (indexed, more) = result?;
    let mut skipped: BTreeMap<&'static str, usize> = BTreeMap::new();
    for u in &unavailable {
        *skipped.entry(u.reason).or_insert(0) += 1;
    }
    Ok(LockSummary {
        lock: path.display().to_string(),
        packages: locked.len(),
        indexed,
        already_indexed: already + more,
        skipped,
        unavailable,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// How a lock file's published package is had.
enum Fetch {
    /// From the crate registry, with the archive's checksum.
    Crate(String),
    /// From the Python package index, with the hashes its files may have.
    Pypi(Vec<String>),
}

/// Indexes a lock file's registry packages (by checksum) and local ones,
/// each stored as it is read; returns the labels of those indexed and how
/// many were indexed before, and adds those that could not be read to
/// `unavailable`.
fn index_packages(
    catalog: &mut Catalog,
    extractor: &Languages,
    todo: Vec<(&errdex_source::lock::LockedPackage, Fetch)>,
    local: Vec<(&errdex_source::lock::LockedPackage, Local)>,
    opts: &IndexOptions,
    unavailable: &mut Vec<Unavailable>,
    progress: &dyn Progress,
) -> Result<(Vec<String>, usize)> {
    use errdex_source::lock::LockedSource;
    let mut indexed = Vec::new();
    let mut already = 0;
    let wanted = |f: &str| extractor.handles(f);
    for (p, fetch) in todo {
        progress.event(Event::Package(&format!("{}@{}", p.name, p.version)));
        let loaded = match fetch {
            Fetch::Crate(checksum) => errdex_source::with_doc_includes(
                |w| errdex_source::load_locked(&p.name, &p.version, &checksum, w),
                &wanted,
            ),
            Fetch::Pypi(hashes) => {
                let spec = errdex_source::PypiSpec {
                    name: p.name.clone(),
                    version: Some(p.version.clone()),
                    hashes,
                };
                errdex_source::load(&SourceSpec::Pypi(spec), &wanted)
            }
        };
        match loaded {
            Ok(mut snapshot) => {
                extract_and_store(
                    catalog,
                    extractor,
                    &mut snapshot,
                    opts.reuse,
                    None,
                    &crate::Quiet,
                )?;
                indexed.push(format!("{}@{}", p.name, p.version));
            }
            Err(e) => unavailable.push(Unavailable::registry(p, &e)),
        }
        progress.event(Event::Step);
    }
    for (p, from) in local {
        progress.event(Event::Package(&format!("{}@{}", p.name, p.version)));
        progress.event(Event::Step);
        let (mut snapshot, label) = match &from {
            Local::Path(dir) => match errdex_source::with_doc_includes(
                |w| errdex_source::load_path_package(&p.name, dir, w),
                &wanted,
            ) {
                Ok(s) => (
                    s,
                    format!("{}@{} (path {})", p.name, p.version, dir.display()),
                ),
                Err(e) => {
                    unavailable.push(Unavailable::new(p, "unreadable_folder", e));
                    continue;
                }
            },
            Local::Git(dir, commit) => {
                let spec = SourceSpec::Git(dir.clone(), commit.clone());
                match errdex_source::with_doc_includes(|w| errdex_source::load(&spec, w), &wanted) {
                    Ok(mut s) => {
                        // Named after the locked URL, as `explain --lock` looks it up.
                        if let LockedSource::Git { url, .. } = &p.source {
                            s.meta.repo = errdex_source::lock::git_repo_slug(url, &p.name);
                            s.meta.remote.get_or_insert_with(|| url.clone());
                        }
                        let label = format!(
                            "{}@{} (git {})",
                            p.name,
                            p.version,
                            &commit[..commit.len().min(12)]
                        );
                        (s, label)
                    }
                    Err(e @ errdex_source::SourceError::UnknownRevision(_)) => {
                        unavailable.push(Unavailable::new(p, "git_revision_not_in_clone", e));
                        continue;
                    }
                    Err(e) => {
                        unavailable.push(Unavailable::new(p, "git_unreadable", e));
                        continue;
                    }
                }
            }
        };
        if catalog.has_current_snapshot(
            &snapshot.meta.repo,
            &snapshot.meta.revision,
            &languages::fingerprint(),
        )? {
            already += 1;
            continue;
        }
        extract_and_store(
            catalog,
            extractor,
            &mut snapshot,
            opts.reuse,
            None,
            &crate::Quiet,
        )?;
        indexed.push(label);
    }
    Ok((indexed, already))
}

/// A lock file's package read from a local folder or clone.
enum Local {
    /// A workspace member's folder.
    Path(PathBuf),
    /// A local clone and the locked commit.
    Git(PathBuf, String),
}

/// A snapshot extracted and written.
struct Stored {
    extraction: Extraction,
    written: WriteSummary,
    /// Files parsed.
    parsed: usize,
    /// Files unchanged since an earlier snapshot, not parsed again.
    reused: usize,
    /// The history pass, when one ran.
    history: Option<HistorySummary>,
}

/// A git repository whose history the snapshot's messages are traced in.
#[derive(Clone, Copy)]
struct History<'a> {
    dir: &'a Path,
    rev: &'a str,
}

/// Extracts a snapshot, reusing the cached result of every file whose path
/// and text an earlier snapshot already had (unless `reuse` is off), and
/// writes it with the results of the files it parsed. Files nested too
/// deeply to walk are taken out of the snapshot and counted as skipped.
fn extract_and_store(
    catalog: &mut Catalog,
    extractor: &Languages,
    snapshot: &mut Snapshot,
    reuse: bool,
    history: Option<History>,
    progress: &dyn Progress,
) -> Result<Stored> {
    let cached = if reuse {
        let hashes: Vec<String> = snapshot
            .files
            .iter()
            .map(|f| errdex_catalog::content_hash(&f.text))
            .collect();
        let keys: Vec<(&str, &str)> = snapshot
            .files
            .iter()
            .zip(&hashes)
            .map(|(f, h)| (f.path.as_str(), h.as_str()))
            .collect();
        catalog.cached_files(&languages::fingerprint(), &keys)?
    } else {
        Default::default()
    };
    let earlier = |i: usize| cached.get(&i).and_then(|b| FileExtraction::decode(b));
    let mut r = errdex_extract::extract_all_reusing(extractor, &snapshot.files, &earlier, &|_| {
        progress.event(Event::Step)
    });
    drop_too_deep(snapshot, &mut r);
    let snapshot = &*snapshot;
    let (origins, history) = match history {
        Some(h) => {
            progress.event(Event::Tracing);
            let (origins, summary) = trace(h, snapshot, &r.extraction, extractor)?;
            (origins, Some(summary))
        }
        None => (Vec::new(), None),
    };
    progress.event(Event::Writing);
    let fingerprint = languages::fingerprint();
    let written = catalog.replace_snapshot(&SnapshotInput {
        meta: &snapshot.meta,
        files: &snapshot.files,
        extraction: &r.extraction,
        fingerprint: &fingerprint,
        parsed: &r.parsed,
        origins: &origins,
    })?;
    Ok(Stored {
        parsed: r.parsed.len(),
        reused: r.reused,
        extraction: r.extraction,
        written,
        history,
    })
}

/// Takes the files the extractor found too deep out of the snapshot (so
/// their text is neither stored nor parsed again by analysis or the web
/// server) and counts them as skipped; renumbers the parsed results.
fn drop_too_deep(snapshot: &mut Snapshot, r: &mut errdex_extract::Reused) {
    if r.too_deep.is_empty() {
        return;
    }
    let deep: HashSet<usize> = r.too_deep.iter().copied().collect();
    let mut renumber = vec![usize::MAX; snapshot.files.len()];
    let mut kept = Vec::with_capacity(snapshot.files.len() - deep.len());
    for (i, f) in std::mem::take(&mut snapshot.files).into_iter().enumerate() {
        if deep.contains(&i) {
            snapshot.skips.push(errdex_source::Skip {
                path: f.path,
                reason: errdex_source::SkipReason::TooDeep,
            });
        } else {
            renumber[i] = kept.len();
            kept.push(f);
        }
    }
    snapshot.files = kept;
    r.parsed.retain(|(i, _)| !deep.contains(i));
    for (i, _) in &mut r.parsed {
        *i = renumber[*i];
    }
}

/// One history pass for every site's message: each distinct key is
/// traced once, and its origin given to every site carrying it.
fn trace(
    h: History,
    snapshot: &Snapshot,
    extraction: &Extraction,
    extractor: &Languages,
) -> Result<(Vec<(usize, Origin)>, HistorySummary)> {
    use errdex_source::history;
    let started = Instant::now();
    let mut keys: Vec<String> = Vec::new();
    let mut key_index: HashMap<String, usize> = HashMap::new();
    let texts: HashMap<&str, &str> = snapshot
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.text.as_str()))
        .collect();
    let site_keys: Vec<Option<usize>> = extraction
        .sites
        .iter()
        .map(|s| {
            let from = s.message_from.as_deref().and_then(|m| m.rsplit_once(':'));
            let sources: Vec<&str> = [Some(s.path.as_str()), from.map(|(p, _)| p)]
                .into_iter()
                .flatten()
                .filter_map(|p| texts.get(p).copied())
                .collect();
            let k = s.template.key_in(&sources)?;
            Some(*key_index.entry(k.clone()).or_insert_with(|| {
                keys.push(k);
                keys.len() - 1
            }))
        })
        .collect();
    let found = history::introductions(h.dir, h.rev, &keys, &|p| extractor.handles(p))
        .map_err(AppError::input)?;
    // Counted per error (the catalogue's identity), not per site.
    let ids: Vec<ErrorId> = extraction
        .sites
        .iter()
        .map(|s| {
            ErrorId::compute(
                &snapshot.meta.repo,
                &extraction.language,
                s.kind,
                &s.template,
                &s.item_path,
            )
        })
        .collect();
    let mut origins = Vec::new();
    let mut by_error: HashMap<ErrorId, &Origin> = HashMap::new();
    for (i, k) in site_keys.iter().enumerate() {
        if let Some(o) = k.and_then(|k| found.origins[k].as_ref()) {
            by_error.insert(ids[i], o);
            origins.push((i, o.clone()));
        }
    }
    let traced = by_error
        .values()
        .filter(|o| matches!(o, Origin::Commit(_)))
        .count();
    let shallow = by_error.len() - traced;
    let errors: HashSet<ErrorId> = ids.into_iter().collect();
    Ok((
        origins,
        HistorySummary {
            commits: found.commits,
            traced,
            before_shallow_boundary: shallow,
            untraced: errors.len() - by_error.len(),
            seconds: started.elapsed().as_secs_f64(),
        },
    ))
}
