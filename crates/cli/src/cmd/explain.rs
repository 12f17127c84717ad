//! `errdex explain [TEXT | -]`: find the sites that produced pasted output.

use crate::Failure;
use errdex_app::{Db, ExplainRecord, IndexInfo};
use errdex_match::{input, Explanation};
use std::fmt::Write;
use std::io::Read;
use std::path::Path;

pub fn run(
    db_path: &errdex_app::Location,
    text: Option<&str>,
    lock: Option<&Path>,
    json: bool,
    why: bool,
) -> Result<u8, Failure> {
    let bytes = match text {
        Some(t) if t != "-" => t.as_bytes().to_vec(),
        _ => {
            // One byte past the limit tells whether there was more.
            let mut buf = Vec::new();
            std::io::stdin()
                .take(input::MAX_INPUT as u64 + 1)
                .read_to_end(&mut buf)
                .map_err(|e| Failure::input(format!("reading standard input: {e}")))?;
            buf
        }
    };
    let pasted = errdex_app::explain::read_pasted(&bytes)?;
    if pasted.cut {
        say_cut(&pasted.text);
    }
    let db = Db::open_existing(db_path)?;
    let only = lock.map(|l| locked_versions(&db, l)).transpose()?;
    let matcher = db.matcher(only.as_deref())?;
    let record = matcher.explain(&db, &pasted.text)?;
    let code = if record.matched() { 0 } else { 1 };
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&record).expect("answers serialise")
        );
    } else {
        print_human(&mut o, &db, &record, why)?;
    }
    crate::out::emit(&o, json);
    Ok(code)
}

/// Says on stderr that the input was cut at [`input::MAX_INPUT`], and where
/// (the byte, line and column after which nothing was read).
fn say_cut(kept: &str) {
    let line = kept.lines().count().max(1);
    let column = kept.rsplit('\n').next().map_or(0, |l| l.chars().count());
    eprintln!(
        "errdex: note: the input is longer than {} MiB; only its first {} bytes were read (up to line {line}, column {column})",
        input::MAX_INPUT >> 20,
        kept.len(),
    );
}

/// The `(repo, revision)` pairs of a lock file's packages; says on stderr
/// how many are not indexed yet.
fn locked_versions(db: &Db, lock: &Path) -> Result<Vec<(String, String)>, Failure> {
    let locked = db.locked_versions(lock)?;
    if locked.missing > 0 {
        eprintln!(
            "errdex: note: {} of {} locked packages are not indexed (run `errdex index lock:{}`)",
            locked.missing,
            locked.pairs.len(),
            crate::out::escape_controls(&lock.display().to_string())
        );
    }
    Ok(locked.pairs)
}

fn print_human(o: &mut String, db: &Db, record: &ExplainRecord, why: bool) -> Result<(), Failure> {
    let x: &Explanation = &record.explanation;
    let info: &IndexInfo = &record.index;
    if x.messages.is_empty() {
        let _ = writeln!(o, "no message found in the input");
    }
    // The answer first: the site that produced the most telling message,
    // with its excerpt, then the layers printed around it.
    if let Some(best) = x.matches.first() {
        let m = &x.messages[best.message];
        let _ = writeln!(o, "answer: {}", describe(best));
        print_values(o, best);
        print_why(o, best, why);
        if best.kind != errdex_match::MatchKind::Location {
            for (n, line) in db.excerpt(
                best.snapshot_id,
                &best.path,
                best.line.saturating_sub(1),
                best.end_line + 1,
            )? {
                let _ = writeln!(o, "     {n:>5} | {line}");
            }
        }
        if let Some(id) = &best.error_id {
            let _ = writeln!(o, "     errdex show {id}");
        }
        let mut up = best.inner_of;
        while let Some(i) = up {
            let _ = writeln!(o, "  printed inside: {}", describe(&x.matches[i]));
            up = x.matches[i].inner_of;
        }
        if let Some(s) = &m.std {
            let _ = writeln!(
                o,
                "  around it: {}'s text ({}): {}",
                s.runtime,
                s.source,
                s.template.replace('\n', "⏎")
            );
        }
    }
    for (mi, m) in x.messages.iter().enumerate() {
        let at = m
            .location
            .as_ref()
            .map(|l| format!(" at {}:{}", l.path, l.line))
            .unwrap_or_default();
        let _ = writeln!(o, "message {}{at}:", mi + 1);
        for l in m.text.lines() {
            let _ = writeln!(o, "    {l}");
        }
        let Some(best) = x.best(mi) else {
            let _ = writeln!(
                o,
                "  not explained by the index (the program's own text, or code that is not indexed)"
            );
            continue;
        };
        let _ = writeln!(o, "  site: {}", describe(best));
        print_why(o, best, why);
        // Other candidates; sites sharing a template are folded.
        let mut shown: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut folded = 0;
        let others: Vec<&errdex_match::Match> = x
            .matches
            .iter()
            .filter(|k| k.message == mi && !std::ptr::eq(*k, best))
            .collect();
        if !others.is_empty() {
            let _ = writeln!(o, "  also:");
        }
        for k in others {
            let seen = shown.entry(k.template.as_str()).or_insert(0);
            *seen += 1;
            if *seen > 2 {
                folded += 1;
                continue;
            }
            let role = if k.same_text_as.is_some() {
                " same text"
            } else if k.inner_of.is_some() {
                " inner"
            } else {
                ""
            };
            let _ = writeln!(o, "   -{role} {}", describe(k));
            print_values(o, k);
            print_why(o, k, why);
        }
        if folded > 0 {
            let _ = writeln!(o, "   ({folded} more sites with the same templates)");
        }
    }
    let _ = writeln!(
        o,
        "(index of {} templates, {} entries, built {} in {:.0} ms)",
        info.templates, info.entries, info.built, info.build_ms
    );
    Ok(())
}

/// One line: where, what kind, how sure, why, and the template.
fn describe(k: &errdex_match::Match) -> String {
    let evidence: Vec<&str> = k.evidence.iter().map(|e| e.as_str()).collect();
    let test = if k.is_test { " [test]" } else { "" };
    format!(
        "{}@{} {}:{} {} (score {:.2}; {}){test}\n     {}",
        k.repo,
        k.revision,
        k.path,
        k.line,
        k.kind.as_str(),
        k.score,
        evidence.join(", "),
        k.template.replace('\n', "⏎")
    )
}

/// With `--why`, how the match's score was made, one step a line.
fn print_why(o: &mut String, k: &errdex_match::Match, why: bool) {
    if why {
        let mut tree = String::new();
        k.why.render(6, &mut tree);
        o.push_str(&tree);
    }
}

fn print_values(o: &mut String, k: &errdex_match::Match) {
    if !k.captures.is_empty() {
        let vals: Vec<String> = k
            .captures
            .iter()
            .map(|c| {
                if c.arg.is_empty() {
                    format!("{:?}", c.value)
                } else {
                    format!("{} = {}", c.arg, c.value)
                }
            })
            .collect();
        let _ = writeln!(o, "     values: {}", vals.join(", "));
    }
    for u in &k.unexplained {
        let _ = writeln!(o, "     not explained by this template: {u:?}");
    }
}
