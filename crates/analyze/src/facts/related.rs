//! Related errors (same type, same shape, nearby) and the commit that
//! introduced the message.

use super::*;

pub(super) fn history_facts(b: &mut Builder, error: &ErrorDetail) {
    match &error.origin {
        Some(Origin::Commit(c)) => b.push(
            FactKind::Origin,
            format!(
                "The message was introduced by commit `{}`{}: \"{}\"{}.",
                &c.commit[..c.commit.len().min(12)],
                c.date
                    .as_deref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default(),
                c.subject,
                c.pr.map(|n| format!(", pull request #{n}"))
                    .unwrap_or_default()
            ),
            None,
            None,
        ),
        Some(Origin::BeforeShallowBoundary { boundary }) => b.push(
            FactKind::Origin,
            format!(
                "The message is older than the history at hand (a shallow clone starting at `{}`).",
                &boundary[..boundary.len().min(12)]
            ),
            None,
            None,
        ),
        None => {}
    }
    let mut revisions: Vec<&str> = Vec::new();
    for s in error.sites.iter().rev() {
        if revisions.last() != Some(&s.revision.as_str()) {
            revisions.push(&s.revision);
        }
    }
    if revisions.len() > 1 {
        b.push(
            FactKind::Versions,
            format!(
                "It is present in {} indexed versions, first seen in {} and last in {}.",
                revisions.len(),
                revisions[0],
                revisions[revisions.len() - 1]
            ),
            None,
            None,
        );
    }
}

impl Analyzer {
    pub(super) fn related_facts(&self, b: &mut Builder, error: &ErrorDetail) {
        let shape = shape_of(&error.template);
        let ty = error_type_of(error);
        let first = error
            .sites
            .iter()
            .find(|s| s.snapshot_id == self.snapshot.id);
        let mut n = 0;
        let mut push = |b: &mut Builder, e: &ErrorSummary, why: String| {
            if n < MAX_RELATED && !b.seen(&format!("related:{}", e.id)) {
                b.facts.push(Fact {
                    id: String::new(),
                    kind: FactKind::Related,
                    text: format!("`{}` ({}) {why}.", e.template, e.kind.as_str()),
                    path: Some(e.path.clone()),
                    line: Some(e.line),
                    code: None,
                    error_id: Some(e.id.clone()),
                    detail: None,
                });
                n += 1;
            }
        };
        let others: Vec<&ErrorSummary> = self
            .errors
            .iter()
            .filter(|e| e.id != error.id && !e.is_test)
            .collect();
        for e in &others {
            if !error.item_path.is_empty() && e.item_path == error.item_path {
                push(
                    b,
                    e,
                    format!(
                        "is raised in the same item `{}`",
                        display_item(&e.item_path)
                    ),
                );
            }
        }
        if let Some(ty) = &ty {
            for e in &others {
                if e.item_path.starts_with(&format!("{ty}::"))
                    || e.item_path.contains(&format!("<{ty} as "))
                {
                    push(b, e, format!("is another message of the error type `{ty}`"));
                }
            }
        }
        for e in &others {
            if shape.is_some() && shape_of(&e.template) == shape {
                push(b, e, "has the same message shape".to_string());
            }
        }
        if let Some(s) = first {
            for e in &others {
                if e.path == s.path && e.line.abs_diff(s.line) <= 40 {
                    push(b, e, format!("is raised nearby in `{}`", e.path));
                }
            }
        }
        b.renumber();
    }
}
