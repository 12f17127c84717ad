//! The results of explaining pasted output: each message with its matches.

use super::{error_path, PageError};
use askama::Template;
use errdex_app::ExplainRecord;

struct CaptureView {
    arg: String,
    value: String,
}

struct MatchView {
    best: bool,
    url: Option<String>,
    template: String,
    repo: String,
    revision: String,
    path: String,
    line: u32,
    kind: String,
    score: String,
    is_test: bool,
    captures: Vec<CaptureView>,
}

struct MessageView {
    text: String,
    matches: Vec<MatchView>,
}

#[derive(Template)]
#[template(path = "explain.html")]
struct ExplainPage {
    first_line: String,
    input: String,
    messages: Vec<MessageView>,
}

/// Matches shown per message.
const MATCHES_SHOWN: usize = 8;

/// The results of explaining pasted output.
pub fn explain_page(input: &str, record: &ExplainRecord) -> Result<String, PageError> {
    let x = &record.explanation;
    let messages = x
        .messages
        .iter()
        .enumerate()
        .map(|(mi, m)| {
            let best = x.best(mi).map(|b| b as *const _);
            let mut matches: Vec<&errdex_match::Match> =
                x.matches.iter().filter(|k| k.message == mi).collect();
            matches.sort_by_key(|k| Some(*k as *const _) != best);
            MessageView {
                text: m.text.clone(),
                matches: matches
                    .into_iter()
                    .take(MATCHES_SHOWN)
                    .map(|k| MatchView {
                        best: Some(k as *const _) == best,
                        url: k.error_id.as_deref().map(error_path),
                        template: k.template.clone(),
                        repo: k.repo.clone(),
                        revision: k.revision.clone(),
                        path: k.path.clone(),
                        line: k.line,
                        kind: k.kind.as_str().to_string(),
                        score: format!("{:.2}", k.score),
                        is_test: k.is_test,
                        captures: k
                            .captures
                            .iter()
                            .map(|c| CaptureView {
                                arg: c.arg.clone(),
                                value: c.value.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    let first_line: String = input
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(80)
        .collect();
    Ok(ExplainPage {
        first_line,
        input: input.to_string(),
        messages,
    }
    .render()?)
}
