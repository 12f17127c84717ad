//! `ra-eval`: how well rust-analyzer's libraries find the callers of an error site's fn.
//!
//! Usage: `ra-eval CRATE_DIR FILE:LINE [FILE:LINE ...]`
//!
//! Loads the cargo package at `CRATE_DIR` (dependencies resolved by `cargo metadata`; no
//! sysroot and no proc-macro server, build scripts not run), then for each site finds the
//! innermost `fn` around `FILE:LINE` (FILE relative to `CRATE_DIR`), and asks
//! `incoming_calls` on it and on what `goto_declaration` names (the trait's method for an
//! impl method). Prints one line per caller found, then a summary line per site, and at
//! the end the load time, the time to the first answer and the peak resident memory.
//!
//! This is an evaluation tool kept outside errdex's workspace: CI never builds it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, Context, Result};
use ra_ap_ide::{
    AnalysisHost, CallHierarchyConfig, FileId, FilePosition, GotoDefinitionConfig, LineCol,
    TextSize,
};
use ra_ap_ide_db::ra_fixture::RaFixtureConfig;
use ra_ap_load_cargo::{load_workspace_at, LoadCargoConfig, ProcMacroServerChoice};
use ra_ap_paths::AbsPathBuf;
use ra_ap_project_model::CargoConfig;
use ra_ap_syntax::{ast, ast::HasName, AstNode};
use ra_ap_vfs::{Vfs, VfsPath};

/// One caller found: the calling fn and the line of the call.
struct Caller {
    /// `Container::name` of the calling item.
    name: String,
    /// `path:line` of the call (1-based line).
    at: String,
}

fn main() -> Result<()> {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (root, sites) = args
        .split_first()
        .ok_or_else(|| anyhow!("usage: ra-eval CRATE_DIR FILE:LINE [FILE:LINE ...]"))?;
    let root = std::fs::canonicalize(root).with_context(|| format!("no folder {root}"))?;

    let cargo_config = CargoConfig::default();
    let load_config = LoadCargoConfig {
        load_out_dirs_from_check: false,
        with_proc_macro_server: ProcMacroServerChoice::None,
        prefill_caches: false,
        num_worker_threads: 1,
        proc_macro_processes: 0,
    };
    let (db, vfs, _proc_macro) = load_workspace_at(&root, &cargo_config, &load_config, &|_| {})?;
    let loaded = start.elapsed();
    println!("loaded {} in {:.2} s", root.display(), loaded.as_secs_f64());
    let host = AnalysisHost::with_database(db);
    let analysis = host.analysis();

    let mut first_answer = None;
    for site in sites {
        let (file, line) = site
            .rsplit_once(':')
            .ok_or_else(|| anyhow!("site {site} is not FILE:LINE"))?;
        let line: u32 = line.parse().with_context(|| format!("line of {site}"))?;
        let t0 = Instant::now();
        let callers = callers_of_site(&analysis, &vfs, &root, file, line);
        if first_answer.is_none() {
            first_answer = Some(start.elapsed());
        }
        match callers {
            Ok((fn_name, via, callers)) => {
                for c in &callers {
                    println!("  caller {} at {}", c.name, c.at);
                }
                println!(
                    "site {site}: fn {fn_name}: {} callers (via {via}) in {:.2} s",
                    callers.len(),
                    t0.elapsed().as_secs_f64()
                );
            }
            Err(e) => println!("site {site}: no answer: {e:#}"),
        }
    }
    println!(
        "first answer {:.2} s after start; peak RSS {} MB",
        first_answer.unwrap_or_default().as_secs_f64(),
        peak_rss_kb().map_or(0, |kb| kb / 1024)
    );
    Ok(())
}

/// The callers of the fn enclosing `file:line`: those of the fn itself, then those of the
/// declaration `goto_declaration` gives when it is another item (a trait method).
fn callers_of_site(
    analysis: &ra_ap_ide::Analysis,
    vfs: &Vfs,
    root: &Path,
    file: &str,
    line: u32,
) -> Result<(String, String, Vec<Caller>)> {
    let abs = AbsPathBuf::assert_utf8(root.join(file));
    let (file_id, _) = vfs
        .file_id(&VfsPath::from(abs))
        .ok_or_else(|| anyhow!("{file} is not loaded"))?;
    let index = cancelled(analysis.file_line_index(file_id))?;
    let offset = index
        .offset(LineCol {
            line: line.saturating_sub(1),
            col: 0,
        })
        .ok_or_else(|| anyhow!("no line {line} in {file}"))?;
    let tree = cancelled(analysis.parse(file_id))?;
    let func = tree
        .syntax()
        .descendants()
        .filter_map(ast::Fn::cast)
        .filter(|f| f.syntax().text_range().contains(offset))
        .min_by_key(|f| f.syntax().text_range().len())
        .ok_or_else(|| anyhow!("no fn around {file}:{line} in the syntax tree"))?;
    let name = func.name().ok_or_else(|| anyhow!("fn without a name"))?;
    let fn_name = name.text().to_string();
    let pos = FilePosition {
        file_id,
        offset: name.syntax().text_range().start(),
    };

    let call_config = CallHierarchyConfig {
        exclude_tests: false,
        ra_fixture: RaFixtureConfig::default(),
    };
    let goto_config = GotoDefinitionConfig {
        ra_fixture: RaFixtureConfig::default(),
    };
    let mut callers = Vec::new();
    let mut via = vec!["fn".to_string()];
    collect_callers(analysis, vfs, root, &call_config, pos, &mut callers)?;
    if let Some(decl) = cancelled(analysis.goto_declaration(pos, &goto_config))? {
        for target in decl.info {
            let at = target.focus_range.unwrap_or(target.full_range).start();
            if target.file_id == file_id && at == pos.offset {
                continue;
            }
            via.push(format!("declaration {}", target.name.as_str()));
            let decl_pos = FilePosition {
                file_id: target.file_id,
                offset: at,
            };
            collect_callers(analysis, vfs, root, &call_config, decl_pos, &mut callers)?;
        }
    }
    Ok((fn_name, via.join(" + "), callers))
}

/// Appends the callers `incoming_calls` gives at `pos`, one per call range.
fn collect_callers(
    analysis: &ra_ap_ide::Analysis,
    vfs: &Vfs,
    root: &Path,
    config: &CallHierarchyConfig<'_>,
    pos: FilePosition,
    out: &mut Vec<Caller>,
) -> Result<()> {
    let Some(items) = cancelled(analysis.incoming_calls(config, pos))? else {
        return Ok(());
    };
    for item in items {
        let name = match &item.target.container_name {
            Some(c) => format!("{}::{}", c.as_str(), item.target.name.as_str()),
            None => item.target.name.as_str().to_string(),
        };
        for range in &item.ranges {
            let at = place(analysis, vfs, root, range.file_id, range.range.start())?;
            out.push(Caller {
                name: name.clone(),
                at,
            });
        }
    }
    Ok(())
}

/// `path:line` of an offset, the path relative to `root` when under it.
fn place(
    analysis: &ra_ap_ide::Analysis,
    vfs: &Vfs,
    root: &Path,
    file_id: FileId,
    offset: TextSize,
) -> Result<String> {
    let index = cancelled(analysis.file_line_index(file_id))?;
    let line = index.line_col(offset).line + 1;
    let path = vfs.file_path(file_id).to_string();
    let path = PathBuf::from(&path);
    let shown = path
        .strip_prefix(root)
        .unwrap_or(&path)
        .display()
        .to_string();
    Ok(format!("{shown}:{line}"))
}

/// A query's result, a cancellation as an error.
fn cancelled<T, E>(r: Result<T, E>) -> Result<T> {
    r.map_err(|_| anyhow!("query cancelled"))
}

/// Peak resident set size of this process, from `/proc/self/status` (`VmHWM`).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
