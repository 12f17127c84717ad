//! `errdex`: index sources into the catalogue, list and show their errors.

mod cmd;
mod db;
mod out;

/// mimalloc: a query's many small allocations cost a third less than
/// with the system allocator (README, "explain").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Every error message of a codebase, findable and explained.
#[derive(Parser)]
#[command(name = "errdex", version, about)]
struct Cli {
    /// The catalogue: a SQLite file, or a PostgreSQL database as
    /// postgres://USER[:PASSWORD]@HOST:PORT/DB (default: $ERRDEX_DB, else
    /// the platform data folder's errdex/errdex.db).
    #[arg(long, global = true, value_name = "PATH|URL")]
    db: Option<std::ffi::OsString>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract every error site of a source into the catalogue. Exits 3
    /// when a lock file could be indexed only in part (the summary names
    /// each package not indexed and why).
    Index {
        /// DIR, GITDIR[@REV], crate:NAME@VERSION (crate:NAME for the
        /// newest) or lock:PATH/Cargo.lock.
        #[arg(required = true)]
        sources: Vec<String>,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
        /// Parse every file again, even those unchanged since an earlier
        /// snapshot (by default their cached results are reused).
        #[arg(long)]
        no_reuse: bool,
        /// Skip tracing each message to the commit that introduced it (git
        /// sources only).
        #[arg(long)]
        no_history: bool,
        /// A local clone of a git dependency of a lock file, `URL=DIR`
        /// (repeatable): its locked commit is read from DIR.
        #[arg(long = "clone", value_name = "URL=DIR")]
        clones: Vec<String>,
        /// The repo's name in the catalogue (`owner/repo`) for one DIR or
        /// GITDIR source, instead of its `origin` remote or folder name.
        #[arg(long, value_name = "OWNER/REPO")]
        name: Option<String>,
    },
    /// Find the error sites that produced pasted output (a panic, a
    /// backtrace, an error chain, a log line, a bare message).
    Explain {
        /// The text; `-` or nothing reads standard input.
        text: Option<String>,
        /// Match only the crate versions of this Cargo.lock.
        #[arg(long)]
        lock: Option<PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Show how each site's score was made.
        #[arg(long)]
        why: bool,
    },
    /// List errors of the newest snapshot of each repo (or of REPO).
    List {
        /// A repo slug (`crate:serde_json`, `owner/repo`).
        repo: Option<String>,
        /// Only this kind (panic, expect, error_attr, ...).
        #[arg(long)]
        kind: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Analyse errors: facts from the code and the page's sections (what it
    /// means, when it happens, solutions, example fix), cached.
    Analyze {
        /// A repo slug or an error id (default: every repo).
        target: Option<String>,
        /// An OpenAI-compatible server to rewrite the sections,
        /// `http://HOST:PORT/v1` (its text is checked by the verifier).
        #[arg(long)]
        llm: Option<String>,
        /// The model name to ask for (default: $ERRDEX_LLM_MODEL, else
        /// `default`); the key, if any, comes from $ERRDEX_LLM_KEY.
        #[arg(long)]
        model: Option<String>,
        /// Analyse at most N errors per repo (library code first).
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve the catalogue as a web site and a JSON API.
    Serve {
        /// Address to listen on (loopback by default; port 0 picks one).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// The public base URL used in links, the sitemap and JSON `url`s
        /// (default: http://ADDR).
        #[arg(long)]
        base_url: Option<String>,
        /// Connections held open at once. Past it, a newcomer takes the
        /// place of the connection idle the longest (no whole request yet,
        /// or between keep-alive requests); it is closed only when every
        /// connection is serving a request.
        #[arg(long, default_value_t = errdex_web::Limits::default().max_connections)]
        max_connections: usize,
        /// Seconds a connection may take to send its request headers, and
        /// may stay idle between requests, before it is closed.
        #[arg(long, default_value_t = errdex_web::Limits::default().header_read_timeout.as_secs())]
        header_timeout: u64,
    },
    /// Queue sources to index (or an analysis) for `errdex worker`s, in a
    /// PostgreSQL catalogue. A `lock:` source becomes one job per registry
    /// package; a job already queued, running or done is not added again.
    Enqueue {
        /// Sources as `index` takes them (with --analyze: a repo slug or
        /// error id, none for every repo).
        sources: Vec<String>,
        /// Queue an analysis instead of indexing.
        #[arg(long)]
        analyze: bool,
        /// With --analyze: the model server (as `analyze --llm`).
        #[arg(long, requires = "analyze")]
        llm: Option<String>,
        /// With --analyze: the model name.
        #[arg(long, requires = "analyze")]
        model: Option<String>,
        /// With --analyze: at most N errors per repo.
        #[arg(long, value_name = "N", requires = "analyze")]
        limit: Option<usize>,
        /// Index jobs: parse every file again.
        #[arg(long)]
        no_reuse: bool,
        /// Index jobs: skip the git history pass.
        #[arg(long)]
        no_history: bool,
        /// Index jobs: the repo's name for one DIR or GITDIR source.
        #[arg(long, value_name = "OWNER/REPO")]
        name: Option<String>,
        /// Attempts before a job is `failed`.
        #[arg(long, default_value_t = 3)]
        attempts: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Take jobs from the queue of a PostgreSQL catalogue and run them.
    Worker {
        /// Exit once no job is queued or running.
        #[arg(long)]
        once: bool,
        /// Jobs run at once.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Seconds a job is held without renewal (renewed every third);
        /// a killed worker's job is taken again after this.
        #[arg(long, default_value_t = 60)]
        lease: u64,
        /// Seconds before a failed job's first retry (doubled per attempt).
        #[arg(long, default_value_t = 10)]
        backoff: u64,
        /// Print one JSON line per job.
        #[arg(long)]
        json: bool,
    },
    /// Print the weights of explain's scoring model in force, as JSON (the
    /// defaults, or those of the file `ERRDEX_WEIGHTS` names): for
    /// `tools/fit_weights.py`.
    Weights,
    /// List the queue's jobs: state, attempts, error, timings.
    Jobs {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one error: its page (sections with the facts they rest on), its
    /// sites with code excerpts, versions and history.
    Show {
        /// The error's 16-hex id.
        id: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// A failure reported to the user as one line; `code` is the exit status.
pub struct Failure {
    /// Exit status.
    pub code: u8,
    /// The one-line reason.
    pub message: String,
}

impl Failure {
    /// A usage or input error (exit 2).
    pub fn input(message: impl std::fmt::Display) -> Self {
        Failure {
            code: 2,
            message: message.to_string(),
        }
    }
}

impl From<errdex_app::AppError> for Failure {
    fn from(e: errdex_app::AppError) -> Self {
        let code = match e {
            errdex_app::AppError::NoSuchError(_) => 1,
            _ => 2,
        };
        Failure {
            code,
            message: e.to_string(),
        }
    }
}

/// Stack of every thread that walks syntax trees: the command's own
/// thread, rayon's workers and the server's threads. Recursive walks are
/// bounded (`errdex_syntax::MAX_SYNTAX_DEPTH`); this leaves them ample
/// room (it is address space, touched only as far as used).
pub const THREAD_STACK_BYTES: usize = 64 << 20;

use errdex_app::worker::{AnalyzeJobOptions, IndexJobOptions, Work, WorkerOptions};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Ignored if a pool already exists (it cannot here: nothing ran yet).
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(THREAD_STACK_BYTES)
        .build_global();
    let result = std::thread::Builder::new()
        .name("errdex".into())
        .stack_size(THREAD_STACK_BYTES)
        .spawn(move || run(cli))
        .map_err(|e| Failure::input(format!("starting: {e}")))
        .and_then(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            eprintln!("errdex: {}", out::escape_controls(&f.message));
            ExitCode::from(f.code)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let db = db::location(cli.db)?;
    match cli.command {
        Command::Index {
            sources,
            json,
            no_reuse,
            no_history,
            clones,
            name,
        } => cmd::index::run(
            &db,
            &sources,
            &cmd::index::Options {
                json,
                index: errdex_app::index::IndexOptions {
                    reuse: !no_reuse,
                    history: !no_history,
                    clones: errdex_app::index::parse_clones(&clones)?,
                    name,
                    skip_indexed: false,
                },
            },
        ),
        Command::Explain {
            text,
            lock,
            json,
            why,
        } => cmd::explain::run(&db, text.as_deref(), lock.as_deref(), json, why),
        Command::List { repo, kind, json } => {
            cmd::list::run(&db, repo.as_deref(), kind.as_deref(), json)
        }
        Command::Analyze {
            target,
            llm,
            model,
            limit,
            json,
        } => cmd::analyze::run(
            &db,
            target.as_deref(),
            &cmd::analyze::Options { llm, model, limit },
            json,
        ),
        Command::Serve {
            addr,
            base_url,
            max_connections,
            header_timeout,
        } => cmd::serve::run(
            &db,
            &addr,
            base_url.as_deref(),
            errdex_web::Limits {
                max_connections,
                header_read_timeout: std::time::Duration::from_secs(header_timeout.max(1)),
            },
        ),
        Command::Show { id, json } => cmd::show::run(&db, &id, json),
        Command::Enqueue {
            sources,
            analyze,
            llm,
            model,
            limit,
            no_reuse,
            no_history,
            name,
            attempts,
            json,
        } => {
            let work = if analyze {
                if sources.len() > 1 {
                    return Err(Failure::input(
                        "enqueue --analyze takes one repo or error id",
                    ));
                }
                Work::Analyze(
                    sources.into_iter().next(),
                    AnalyzeJobOptions { llm, model, limit },
                )
            } else {
                if sources.is_empty() {
                    return Err(Failure::input("enqueue: name at least one source"));
                }
                Work::Index(
                    sources,
                    IndexJobOptions {
                        no_reuse,
                        no_history,
                        name,
                    },
                )
            };
            cmd::queue::enqueue(&db, &work, attempts.max(1), json)
        }
        Command::Worker {
            once,
            concurrency,
            lease,
            backoff,
            json,
        } => cmd::queue::work(
            &db,
            &WorkerOptions {
                concurrency: concurrency.max(1),
                once,
                lease: std::time::Duration::from_secs(lease.max(1)),
                backoff: std::time::Duration::from_secs(backoff),
                ..WorkerOptions::default()
            },
            json,
        ),
        Command::Jobs { json } => cmd::queue::jobs(&db, json),
        Command::Weights => {
            let w =
                serde_json::to_string_pretty(errdex_match::weights()).expect("weights serialise");
            println!("{w}");
            Ok(0)
        }
    }
}
