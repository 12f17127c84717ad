use super::layers::is_data_shape;
use super::text::{quoted_strings, strip_std_shapes};
use super::*;
use std::collections::HashMap;

#[test]
fn strings_inside_printed_values() {
    assert_eq!(
        quoted_strings(r#"Error { detail: "tried to use \"+\"", name: "<string>" }"#),
        vec![r#"tried to use "+""#.to_string(), "<string>".to_string()]
    );
    assert_eq!(strip_std_shapes("Some(Ok(Timeout))"), "Timeout");
    assert_eq!(strip_std_shapes("None"), "");
    assert_eq!(strip_std_shapes("Something(1)"), "Something(1)");
}

use errdex_model::{MatchData, MatchEntry, MatchSite, Template};

/// An error of `repo` (snapshot `snapshot`) whose template is `text`
/// with `{}` for its holes, at `path:line`.
fn error(repo: &str, snapshot: i64, kind: Kind, text: &str, line: u32) -> MatchEntry {
    let mut template = Template::new();
    for (i, part) in text.split("{}").enumerate() {
        if i > 0 {
            template.push_hole(errdex_model::Hole {
                arg: format!("a{i}"),
                spec: "?".into(),
            });
        }
        template.push_lit(part);
    }
    MatchEntry {
        id: format!("{repo}{line}"),
        repo: repo.into(),
        revision: "1.0.0".into(),
        snapshot_id: snapshot,
        kind,
        template,
        item_path: "m::f".into(),
        sites: vec![MatchSite {
            path: "src/lib.rs".into(),
            line,
            end_line: line,
            report_line: line,
            report_column: 5,
            reported_at_caller: false,
            is_test: false,
        }],
    }
}

/// `e` as the error of version `v` of its crate.
fn at_version(mut e: MatchEntry, v: &str) -> MatchEntry {
    e.revision = v.into();
    e
}

fn index(errors: Vec<MatchEntry>, deps: &[(i64, &[&str])]) -> Index {
    Index::from_data(MatchData {
        errors,
        literals: Vec::new(),
        deps: deps
            .iter()
            .map(|(s, d)| (*s, d.iter().map(|x| x.to_string()).collect()))
            .collect(),
        dates: HashMap::new(),
    })
}

#[test]
fn a_partial_match_inside_a_whole_matchs_hole_is_its_layer() {
    // ciborium's `Semantic(None, "…")` around serde's text: serde's
    // longer template matches only inside the quotes.
    let ix = index(
        vec![
            error("crate:cbor", 1, Kind::DebugVariant, "Semantic({}, {})", 26),
            error(
                "crate:cbor",
                1,
                Kind::Display,
                "invalid type: {}, expected {}",
                22,
            ),
            error(
                "crate:serde_core",
                2,
                Kind::Display,
                "invalid type: integer `{}`, expected {}",
                1398,
            ),
        ],
        &[(1, &["serde"]), (2, &[])],
    );
    let x = ix.explain("Semantic(None, \"invalid type: integer `1`, expected string\")");
    // The answer is the text inside the quotes, a layer of the variant.
    let wrapper = x.matches[0].inner_of.map(|w| &x.matches[w]);
    assert_eq!(
        wrapper.map(|w| (w.repo.as_str(), w.line)),
        Some(("crate:cbor", 26))
    );
    assert!(x.matches[0].unexplained.is_empty());
}

#[test]
fn a_tests_expectation_is_not_the_origin_of_a_message() {
    let text = "failed to parse two digit integer as month: parameter 'month' is not in the required range of 1..=12";
    let ix = Index::from_data(MatchData {
        errors: vec![
            error(
                "crate:jiff",
                1,
                Kind::Display,
                "failed to parse two digit integer as month",
                271,
            ),
            error(
                "crate:jiff-core",
                2,
                Kind::Display,
                "parameter '{}' is not in the required range of {}..={}",
                784,
            ),
        ],
        literals: vec![errdex_model::LiteralEntry {
            repo: "crate:jiff".into(),
            revision: "1.0.0".into(),
            snapshot_id: 1,
            path: "src/fmt/parser.rs".into(),
            line: 2138,
            text: text.into(),
            is_test: true,
        }],
        deps: HashMap::new(),
        dates: HashMap::new(),
    });
    // The library's own texts, not the test that expects them.
    let x = ix.explain(text);
    assert_eq!(x.matches[0].kind, MatchKind::Site(Kind::Display));
}

#[test]
fn a_facade_dependency_reaches_its_core() {
    let ix = index(Vec::new(), &[(1, &["serde"]), (2, &["serde_core"])]);
    assert!(ix.may_wrap(1, "crate:serde_core") && ix.may_wrap(2, "crate:serde_core"));
    assert!(!ix.may_wrap(1, "crate:toml_core") && !ix.may_wrap(2, "crate:serde"));
}

#[test]
fn a_report_is_about_the_crate_most_of_its_messages_come_from() {
    let ix = index(
        vec![
            error(
                "crate:kdl",
                1,
                Kind::Display,
                "Failed to parse KDL document",
                47,
            ),
            error(
                "crate:kdl",
                1,
                Kind::Display,
                "Expected end of document",
                265,
            ),
            error("crate:ron", 2, Kind::Display, "Expected integer", 143),
        ],
        &[],
    );
    let report = "Error:   × Failed to parse KDL document\n\nError: \n  × Expected integer\n   ╭─[2:6]\n   ╰────\n\nError: \n  × Expected end of document\n   ╭─[2:14]\n   ╰────\n";
    let x = ix.explain(report);
    assert_eq!(x.messages.len(), 3);
    assert_eq!(x.matches[0].repo, "crate:kdl");
}

#[test]
fn a_reports_reason_is_the_text_of_the_crate_whose_layout_printed_it() {
    let literal = |snapshot: i64, line: u32, text: &str| errdex_model::LiteralEntry {
        repo: if snapshot == 1 {
            "crate:peg"
        } else {
            "crate:json"
        }
        .into(),
        revision: "1.0.0".into(),
        snapshot_id: snapshot,
        path: "src/error.rs".into(),
        line,
        text: text.into(),
        is_test: false,
    };
    let ix = Index::from_data(MatchData {
        errors: vec![error("crate:json", 2, Kind::Display, "expected number", 98)],
        literals: vec![
            literal(1, 590, "expected {}"),
            literal(
                1,
                671,
                "{s}--> {p}{l}:{c}\n{s} |\n{l} | {line}\n{s} | {underline}\n{s} |\n{s} = {message}",
            ),
        ],
        deps: [(1, vec![]), (2, vec![])].into_iter().collect(),
        dates: HashMap::new(),
    });
    let report = " --> 1:6\n  |\n1 | 12 + * 3\n  |      ^---\n  |\n  = expected number\n";
    for text in [
        report.to_string(),
        format!(
            "Error: could not evaluate\n\nCaused by:\n    {}",
            report.replace('\n', "\n    ")
        ),
    ] {
        let x = ix.explain(&text);
        let first = &x.matches[0];
        assert_eq!(
            (first.repo.as_str(), first.line),
            ("crate:peg", 590),
            "{text}"
        );
        let layout = first.inner_of.map(|i| x.matches[i].line);
        assert_eq!(layout, Some(671), "{text}");
    }
    // Without the layout, the whole text of the other crate answers.
    let x = ix.explain("expected number");
    assert_eq!(x.matches[0].repo, "crate:json");
}

#[test]
fn a_log_target_orders_sites_that_print_the_same_text() {
    let mut errors = vec![
        error("crate:alpha", 1, Kind::Display, "channel closed", 10),
        error("crate:beta", 2, Kind::Display, "channel closed", 20),
        error("crate:beta", 2, Kind::Display, "channel closed", 30),
    ];
    errors[2].item_path = "sync::mpsc::Closed".into();
    let ix = index(errors, &[]);
    let first = |text: &str| {
        let x = ix.explain(text);
        (x.matches[0].repo.clone(), x.matches[0].line)
    };
    assert_eq!(first("channel closed"), ("crate:alpha".to_string(), 10));
    assert_eq!(
        first("[2026-12-03T10:00:00Z ERROR beta] channel closed"),
        ("crate:beta".to_string(), 20)
    );
    // The module too: the site in `beta::sync::mpsc`.
    let x = ix.explain("2026-12-03T10:00:00Z ERROR beta::sync::mpsc: channel closed");
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:beta", 30)
    );
    assert!(x.matches[0].evidence.contains(&Evidence::Target));
}

#[test]
fn hand_written_debug_in_the_derived_shape_is_data() {
    assert!(is_data_shape("TrySendError {{ kind: {:?} }}"));
    assert!(is_data_shape(
        "DecodeError {{ description: {:?}, stack: {:?} }}"
    ));
    assert!(is_data_shape("Error({:?})"));
    assert!(!is_data_shape("SendError(..)"));
    assert!(!is_data_shape("Timeout"));
    assert!(!is_data_shape("invalid key {{ {} }}"));
    assert!(!is_data_shape("{} at {}"));
}

#[test]
fn a_version_published_after_the_pastes_timestamps_did_not_print_it() {
    // Two versions print the same panic; the paste names neither, but its
    // log line ran in 2022, before the newer one was published.
    let mut old = error(
        "crate:subscriber",
        1,
        Kind::Expect,
        "Unable to install global subscriber",
        1203,
    );
    old.revision = "0.3.14".into();
    let mut new = error(
        "crate:subscriber",
        2,
        Kind::Expect,
        "Unable to install global subscriber",
        519,
    );
    new.revision = "0.3.22".into();
    let ix = Index::from_data(MatchData {
        errors: vec![old, new],
        literals: Vec::new(),
        deps: HashMap::new(),
        dates: [(1, "2022-07-01".to_string()), (2, "2025-11-29".to_string())].into(),
    });
    let paste = |day: &str| {
        format!(
            "{day}T19:39:28.148457Z  INFO tmp: Logs here\n\
             thread 'main' panicked at 'Unable to install global subscriber: SetLoggerError(())', "
        )
    };
    let x = ix.explain(&paste("2022-07-18"));
    assert_eq!(x.matches[0].revision, "0.3.14");
    // Without a date, or after both were published: the newest.
    let x = ix.explain(&paste("2026-01-02"));
    assert_eq!(x.matches[0].revision, "0.3.22");
}

#[test]
fn of_equal_texts_the_crate_more_code_runs_on_through_dependencies_leads() {
    // serde carries serde_core's text (a copy it re-exports); two apps
    // depend on serde only, but run serde_core's code through it.
    let text = "missing field `name`";
    let ix = index(
        vec![
            error("crate:serde", 1, Kind::Display, "missing field `{}`", 290),
            error(
                "crate:serde_core",
                2,
                Kind::Display,
                "missing field `{}`",
                290,
            ),
            error("crate:app_a", 3, Kind::Display, "app a failed", 1),
            error("crate:app_b", 4, Kind::Display, "app b failed", 1),
        ],
        &[
            (1, &["serde_core"]),
            (2, &[]),
            (3, &["serde"]),
            (4, &["serde"]),
        ],
    );
    assert_eq!(ix.dependents_of("crate:serde"), 2);
    assert_eq!(ix.dependents_of("crate:serde_core"), 3);
    assert_eq!(ix.explain(text).matches[0].repo, "crate:serde_core");
}

#[test]
fn of_messages_at_one_layer_a_whole_template_leads_a_part_of_one() {
    // openssl-sys's build report: its message whole, then `$HOST = ..`
    // lines whose value a crate's literal also holds (cc's target table).
    let ix = index(
        vec![
            error(
                "crate:sysprobe",
                1,
                Kind::Panic,
                "could not find the {} library on this system",
                10,
            ),
            error("crate:cc", 2, Kind::Display, "x86_64-unknown-linux-gnu", 20),
        ],
        &[(1, &[]), (2, &[])],
    );
    let x = ix.explain(
        "could not find the ssl library on this system\n\n$HOST = x86_64-unknown-linux-gnu\n$TARGET = x86_64-unknown-linux-gnu\n$BUILD = x86_64-unknown-linux-gnu\n",
    );
    assert_eq!(x.matches[0].repo, "crate:sysprobe");
}

#[test]
fn a_template_printing_the_whole_paste_leads_its_lines() {
    // lark's `UnexpectedCharacters.__str__`: its first line, the excerpt,
    // and what was expected; another package's `Expected {} {}` explains
    // one of its lines alone.
    let ix = index(
        vec![
            error(
                "pypi:lark",
                1,
                Kind::Display,
                "No terminal matches '{}' in the current parser context, at line {} col {}\n\n{}",
                202,
            ),
            error("pypi:other", 2, Kind::Display, "Expected {} {}", 9),
        ],
        &[],
    );
    let e = ix.explain(
        "No terminal matches '2' in the current parser context, at line 1 col 3\n\n1 2\n  ^\nExpected one of:\n\t* OP\n",
    );
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].line),
        ("pypi:lark", 202)
    );
}

#[test]
fn a_constant_in_a_hole_is_a_part_of_the_message_not_its_cause() {
    // bs4's `FILENAME_MESSAGE = "…filename…" + GENERIC_MESSAGE`: the
    // constant's own site explains the hole, and the message is still the
    // outer one's.
    let mut outer = error(
        "pypi:bs4",
        1,
        Kind::ErrorDoc,
        "The input looks more like a filename than HTML.{}",
        50,
    );
    outer.template = Template::new();
    outer
        .template
        .push_lit("The input looks more like a filename than HTML.");
    outer.template.push_hole(errdex_model::Hole {
        arg: "GENERIC_MESSAGE".into(),
        spec: String::new(),
    });
    let ix = index(
        vec![
            outer,
            error(
                "pypi:bs4",
                1,
                Kind::ErrorDoc,
                "\n\nHowever, if you want to parse some data that looks like a {}, nothing has gone wrong.",
                33,
            ),
        ],
        &[],
    );
    let e = ix.explain(
        "The input looks more like a filename than HTML.\n\nHowever, if you want to parse some data that looks like a filename, nothing has gone wrong.",
    );
    assert_eq!(e.matches[0].line, 50);
    assert!(e.matches.iter().any(|m| m.line == 33));
}

#[test]
fn the_first_line_of_a_message_of_several_lines_finds_it() {
    // flask's `_no_app_msg`, pasted as its exception's last line.
    let ix = index(
        vec![error(
            "pypi:flask",
            1,
            Kind::ErrorDoc,
            "Working outside of application context.\n\nThis typically means that you attempted to use functionality that needed\nthe current application.",
            17,
        )],
        &[],
    );
    let e = ix.explain("RuntimeError: Working outside of application context.");
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].line),
        ("pypi:flask", 17)
    );
    // The whole text still finds the whole template first.
    let e = ix.explain("Working outside of application context.\n\nThis typically means that you attempted to use functionality that needed\nthe current application.");
    assert!(e.matches[0].evidence.contains(&Evidence::Template));
    assert!(e.matches[0].template.contains("typically"));
}

#[test]
fn a_template_of_several_lines_stands_as_its_prefixes_of_whole_lines() {
    use crate::index::line_prefixes;
    let t = |s: &str| Template::literal(s);
    let texts =
        |s: &str| -> Vec<String> { line_prefixes(&t(s)).iter().map(|p| p.to_string()).collect() };
    assert_eq!(
        texts("Working outside of application context.\n\nThis means…"),
        ["Working outside of application context."]
    );
    assert_eq!(
        texts("module has no attribute x.\nIt was an alias, use y.\n\nSee the notes."),
        [
            "module has no attribute x.",
            "module has no attribute x.\nIt was an alias, use y."
        ]
    );
    // Too short, one line, or nothing after it.
    assert!(texts("Error:\nmore text here").is_empty());
    assert!(texts("one line of text that is long").is_empty());
    assert!(texts("a line of text that is long\n  ").is_empty());
}

#[test]
fn a_message_of_several_lines_pasted_cut_at_a_line_break_finds_it() {
    // numpy's `__former_attrs__` message, its last lines not pasted: the
    // hole before the cut takes the rest of the text.
    let numpy = "module 'numpy' has no attribute '{}'.\n`np.{}` was a deprecated alias for the builtin `{}`. Doing this is safe. {}\nThe aliases was originally deprecated in NumPy 1.20; for more details see the release note.";
    let ix = index(
        vec![
            error("pypi:numpy", 1, Kind::ErrorDoc, numpy, 166),
            error(
                "pypi:setuptools",
                2,
                Kind::Raise,
                "{} has no attribute {}",
                77,
            ),
        ],
        &[],
    );
    let e = ix.explain(
        "AttributeError: module 'numpy' has no attribute 'float'.\n`np.float` was a deprecated alias for the builtin `float`. Doing this is safe. If you wanted the numpy scalar type, use `np.float64` here.",
    );
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].line),
        ("pypi:numpy", 166)
    );
}

#[test]
fn a_one_line_template_whose_hole_took_other_lines_leads_nothing() {
    // espflash's `Serial port: {}` matches the paste's first lines whole
    // as a paragraph; its error is the line a template prints alone.
    let ix = index(
        vec![
            error("crate:espflash", 1, Kind::Display, "Serial port: {}", 55),
            error(
                "crate:espflash",
                1,
                Kind::Display,
                "Error while connecting to device",
                21,
            ),
        ],
        &[],
    );
    let e = ix.explain(
        "Serial port: /dev/tty0\nConnecting...\nUnable to connect, retrying...\n\nError while connecting to device\n",
    );
    assert_eq!(e.matches[0].line, 21);
}

#[test]
fn the_strings_of_an_error_chain_printed_with_debug_are_its_messages() {
    // reqwest's error as `{:?}` (hyper-util 0.1.16's `ConnectError::new("dns
    // error", e)`): nothing prints the whole text, a site prints a string in it.
    let ix = index(
        vec![
            error("crate:hyper-util", 1, Kind::ErrorNew, "dns error", 669),
            error("crate:tonic", 2, Kind::ErrorNew, "{}", 10),
        ],
        &[],
    );
    let e = ix.explain("Request failed with error: Transport(reqwest::Error { kind: Request, url: \"https://app.example.dev/ai\", source: hyper_util::client::legacy::Error(Connect, ConnectError(\"dns error\", Os { code: 11001, kind: Uncategorized, message: \"No such host is known.\" })) })");
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].line),
        ("crate:hyper-util", 669)
    );
    // A sentence quoting a word no template prints whole names nothing.
    let e = ix.explain("could not read \"settings\" (\"x y\")");
    assert!(e.matches.is_empty());
}

#[test]
fn a_traceback_cut_to_its_last_source_line_is_placed_by_that_line() {
    // requests 2.31.0 re-raises json's error with its fields: the message
    // is json's text, the printed `raise` line is requests' (models.py:975).
    struct Files;
    impl crate::versions::SourceLines for Files {
        fn line(&self, _: i64, _: &str, _: u32) -> Option<String> {
            None
        }
        fn find_line(&self, snapshot: i64, text: &str) -> Option<(String, u32)> {
            (snapshot == 1 && text == "raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)")
                .then(|| ("requests/models.py".to_string(), 975))
        }
    }
    let mut requests = error("pypi:requests", 1, Kind::Raise, "{}", 975);
    requests.sites[0].path = "requests/models.py".into();
    let mut toml = error(
        "pypi:pip",
        2,
        Kind::Raise,
        "Expecting value: line {} column {} (char {})",
        56,
    );
    toml.sites[0].path = "pip/_vendor/toml/decoder.py".into();
    let ix = index(vec![requests, toml], &[]);
    let paste = "  raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)\nrequests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)";
    let e = ix.explain_with(paste, &Files);
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].line),
        ("pypi:requests", 975)
    );
    // Under its frame line the source line is the frame's, not a place.
    let lines = [
        "  File \"/x/site-packages/requests/models.py\", line 975, in json",
        "    raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)",
        "requests.exceptions.JSONDecodeError: Expecting value",
    ];
    assert_eq!(crate::input::python::raising_line(&lines, 2), None);
    // A mangled paste: a blank line between.
    let e = ix.explain_with(&paste.replace('\n', "\n\n"), &Files);
    assert_eq!(e.matches[0].line, 975);
    assert_eq!(
        crate::input::python::raising_line(&lines[1..], 1).as_deref(),
        Some("raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)")
    );
}

#[test]
fn a_package_frame_far_from_any_site_still_names_its_version() {
    // pydantic 2.7.1: pydantic-core (compiled, not indexed) raised under
    // `main.py:176`; the file's first site is at 455; pydantic's own
    // `v1` copy prints the same shape of text.
    let mut main = error(
        "pypi:pydantic",
        1,
        Kind::Raise,
        "Concrete names should only be generated for generic models.",
        455,
    );
    main.sites[0].path = "pydantic/main.py".into();
    let mut v1 = error(
        "pypi:pydantic",
        1,
        Kind::Display,
        "{} validation error{} for {}",
        73,
    );
    v1.sites[0].path = "pydantic/v1/error_wrappers.py".into();
    let ix = index(vec![main, v1], &[]);
    let e = ix.explain("Traceback (most recent call last):\n  File \"C:\\Python311\\Lib\\site-packages\\pydantic\\main.py\", line 176, in __init__\n    self.__pydantic_validator__.validate_python(data, self_instance=self)\npydantic_core._pydantic_core.ValidationError: 2 validation errors for Settings\nAPI_ID\n  Field required [type=missing, input_value={}, input_type=dict]");
    assert_eq!(
        (e.matches[0].path.as_str(), e.matches[0].line),
        ("pydantic/main.py", 176)
    );
}

#[test]
fn an_exceptions_str_is_in_the_module_its_printed_type_names() {
    // werkzeug moved `BuildError` from `werkzeug/routing.py` (2.1) to
    // `werkzeug/routing/exceptions.py` (2.2): the printed type tells them.
    let text = "Could not build url for endpoint {}. Did you mean {} instead?";
    let mut old = error("pypi:werkzeug", 1, Kind::Display, text, 335);
    old.revision = "2.1.2".into();
    old.sites[0].path = "werkzeug/routing.py".into();
    old.item_path = "werkzeug.routing.BuildError.__str__".into();
    let mut new = error("pypi:werkzeug", 2, Kind::Display, text, 106);
    new.revision = "2.2.2".into();
    new.sites[0].path = "werkzeug/routing/exceptions.py".into();
    new.item_path = "werkzeug.routing.exceptions.BuildError.__str__".into();
    let ix = index(vec![old, new], &[]);
    let e = ix.explain("werkzeug.routing.BuildError: Could not build url for endpoint 'auth.login'. Did you mean 'auth.logout' instead?");
    assert_eq!(e.matches[0].revision, "2.1.2");
    let e = ix.explain("werkzeug.routing.exceptions.BuildError: Could not build url for endpoint 'auth.login'. Did you mean 'auth.logout' instead?");
    assert_eq!(e.matches[0].revision, "2.2.2");
}

#[test]
fn a_printed_values_field_is_first_its_own_crates_among_many_namesakes() {
    // num-bigint's `ParseBigIntError { kind: Empty }`: `Empty` is a variant
    // of dozens of crates' enums, listed before num-bigint's own.
    let mut errors: Vec<MatchEntry> = (0..40)
        .map(|i| {
            error(
                &format!("crate:other{i}"),
                10 + i,
                Kind::DebugVariant,
                "Empty",
                7,
            )
        })
        .collect();
    errors.push(error(
        "crate:bigint",
        1,
        Kind::DebugDerive,
        "ParseBigIntError { kind: {} }",
        143,
    ));
    errors.push(error("crate:bigint", 1, Kind::DebugVariant, "Empty", 149));
    let ix = index(errors, &[(1, &[])]);
    let x =
        ix.explain("called `Result::unwrap()` on an `Err` value: ParseBigIntError { kind: Empty }");
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:bigint", 149)
    );
}

#[test]
fn a_variant_name_of_a_crate_the_printer_does_not_use_is_a_namesake() {
    // rmp's `InvalidDataRead(E)` holds std's `io::Error` (`Kind(..)`); a
    // crate rmp does not depend on copies std's io error and its kinds.
    let ix = index(
        vec![
            error(
                "crate:rmp",
                1,
                Kind::DebugVariant,
                "InvalidDataRead({})",
                151,
            ),
            error("crate:io2", 2, Kind::DebugImpl, "Kind({})", 624),
            error("crate:io2", 2, Kind::DebugVariant, "UnexpectedEof", 158),
        ],
        &[(1, &["num-traits"]), (2, &[])],
    );
    let x = ix.explain("InvalidDataRead(Kind(UnexpectedEof))");
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:rmp", 151)
    );
    // Where the printing crate depends on it, the variant is the cause.
    let ix = index(
        vec![
            error(
                "crate:rmp",
                1,
                Kind::DebugVariant,
                "InvalidDataRead({})",
                151,
            ),
            error("crate:io2", 2, Kind::DebugImpl, "Kind({})", 624),
            error("crate:io2", 2, Kind::DebugVariant, "UnexpectedEof", 158),
        ],
        &[(1, &["io2"]), (2, &[])],
    );
    let x = ix.explain("InvalidDataRead(Kind(UnexpectedEof))");
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:io2", 158)
    );
}

#[test]
fn the_interpreters_text_in_a_package_file_without_sites_is_placed_there() {
    // uvicorn 0.11.5's `asgi2.py:6` calls the program's app, which takes
    // other arguments: Python raised there, in a file with no site; a
    // literal of another package only resembles the text.
    struct Files;
    impl crate::versions::SourceLines for Files {
        fn line(&self, snapshot: i64, path: &str, line: u32) -> Option<String> {
            (snapshot == 1 && path == "uvicorn/middleware/asgi2.py" && line <= 9)
                .then(|| "        instance = self.app(scope)".to_string())
        }
        fn find_line(&self, _: i64, _: &str) -> Option<(String, u32)> {
            None
        }
    }
    let mut uvicorn = error("pypi:uvicorn", 1, Kind::Raise, "Invalid HTTP request", 40);
    uvicorn.sites[0].path = "uvicorn/protocols/http/h11_impl.py".into();
    let mut sklearn = error(
        "pypi:scikit-learn",
        2,
        Kind::Raise,
        "Missing required positional argument: Xt",
        86,
    );
    sklearn.sites[0].path = "sklearn/cluster/_feature_agglomeration.py".into();
    let ix = index(vec![uvicorn, sklearn], &[]);
    let paste = "Traceback (most recent call last):\n  File \"/h/.local/lib/python3.7/site-packages/uvicorn/middleware/asgi2.py\", line 6, in __call__\n    instance = self.app(scope)\nTypeError: __call__() missing 1 required positional argument: 'start_response'";
    let e = ix.explain_with(paste, &Files);
    assert_eq!(
        (
            e.matches[0].repo.as_str(),
            e.matches[0].path.as_str(),
            e.matches[0].line
        ),
        ("pypi:uvicorn", "uvicorn/middleware/asgi2.py", 6)
    );
    // Without the file stored, no place is made up.
    let e = ix.explain_with(paste, &crate::versions::NoSources);
    assert!(e
        .matches
        .iter()
        .all(|m| m.path != "uvicorn/middleware/asgi2.py"));
}

#[test]
fn a_test_site_on_the_printed_line_is_the_answer() {
    // `cargo test` in csvlens's checkout: the panic names `src/app.rs:2870`,
    // where the crate's own test asserts; other crates assert alike.
    let mut test = error(
        "crate:csvlens",
        1,
        Kind::AssertEq,
        "assertion `left == right` failed\n  left: {}\n right: {}",
        2870,
    );
    test.sites[0].path = "src/app.rs".into();
    test.sites[0].is_test = true;
    let mut other = error(
        "crate:arboard",
        2,
        Kind::AssertEq,
        "assertion `left == right` failed\n  left: {}",
        302,
    );
    other.sites[0].path = "src/platform/windows.rs".into();
    let ix = index(vec![test, other], &[]);
    let x = ix.explain("thread 'app::tests::test_copy' (3536) panicked at src/app.rs:2870:9:\nassertion `left == right` failed\n  left: [\"a\"]\n right: [\"b\"]\n");
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:csvlens", 2870)
    );
    // Cut after its first lines, as an issue's excerpt often is.
    let x = ix.explain("thread 'app::tests::test_copy' (3536) panicked at src/app.rs:2870:9:\nassertion `left == right` failed\n  left: [\"a\"]\n");
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:csvlens", 2870)
    );
}

#[test]
fn a_checkout_of_the_package_is_its_line_whatever_std_text_it_printed() {
    // A panic in the browser from wasmer's developer checkout
    // (`…/wasmer/lib/api/src/js/module.rs:74`): std's `Option::unwrap`
    // text, where the extractor read the receiver as a `Result`. The
    // folder named after the package makes the line the library's own.
    let mut site = error(
        "crate:wasmer",
        1,
        Kind::Unwrap,
        "called `Result::unwrap()` on an `Err` value: {:?}",
        74,
    );
    site.sites[0].path = "src/js/module.rs".into();
    let ix = index(vec![site], &[]);
    let paste = "panicked at /Users/s/Development/wasmer/lib/api/src/js/module.rs:74:77:\ncalled `Option::unwrap()` on a `None` value\n\nStack:\n\nf@https://x.in/index.mjs:11:40940\n";
    let x = ix.explain(paste);
    assert_eq!(
        (x.matches[0].repo.as_str(), x.matches[0].line),
        ("crate:wasmer", 74)
    );
    let checkout = x.matches[0].score;
    // A program's own file of the same name is weaker evidence for it.
    let x = ix.explain("panicked at /home/u/app/src/js/module.rs:74:77:\ncalled `Option::unwrap()` on a `None` value\n");
    assert!(
        x.matches.iter().all(|m| m.score < checkout),
        "{:?}",
        x.matches
    );
}

#[test]
fn of_versions_tied_on_a_message_the_one_explaining_more_of_it_leads() {
    // log4rs 0.5.2 and 1.4.0 both print the inner text; only 0.5.2 the
    // wrapper around it.
    let inner_old = at_version(
        error(
            "crate:log4rs",
            1,
            Kind::Display,
            "no {} deserializer for kind `{}` registered",
            310,
        ),
        "0.5.2",
    );
    let outer_old = at_version(
        error(
            "crate:log4rs",
            1,
            Kind::Display,
            "error deserializing component: {}",
            332,
        ),
        "0.5.2",
    );
    let inner_new = at_version(
        error(
            "crate:log4rs",
            2,
            Kind::Display,
            "no {} deserializer for kind `{}` registered",
            303,
        ),
        "1.4.0",
    );
    let ix = index(vec![inner_old, outer_old, inner_new], &[]);
    let x = ix.explain("log4rs: error deserializing component: no appender deserializer for kind `rolling_file` registered\n");
    assert_eq!(x.matches[0].revision, "0.5.2", "{:?}", x.matches);
    // Alone, the inner text goes to the newest version.
    let x = ix.explain("no appender deserializer for kind `rolling_file` registered\n");
    assert_eq!(x.matches[0].revision, "1.4.0", "{:?}", x.matches);
    // A place the paste prints decides before that.
    let x = ix.explain("thread 'main' panicked at /h/.cargo/registry/src/i/log4rs-1.4.0/src/lib.rs:303:5:\nlog4rs: error deserializing component: no appender deserializer for kind `rolling_file` registered\n");
    assert_eq!(x.matches[0].revision, "1.4.0", "{:?}", x.matches);
}

#[test]
fn a_warning_its_report_locates_leads_over_lines_a_generic_template_takes() {
    // distributed's `path:line: UserWarning:` whose message goes on for
    // several lines: the lines after the first are each taken by another
    // package's two-hole template, more often than the warning's package
    // answers; the located warning still leads.
    let mut warn = error(
        "pypi:distributed",
        1,
        Kind::Warning,
        "Large object of size {} detected in task graph: \n  {}\nConsider scattering large objects ahead of time",
        2988,
    );
    warn.sites[0].path = "distributed/worker.py".into();
    let mut generic = error("pypi:twisted", 2, Kind::Raise, "{} to {}", 123);
    generic.sites[0].path = "twisted/web/error.py".into();
    let ix = index(vec![warn, generic], &[]);
    let paste = "/env/lib/python3.11/site-packages/distributed/worker.py:2988: UserWarning: Large object of size 1.53 MiB detected in task graph: \n  ([('points',), 1],)\nConsider scattering large objects ahead of time\nwith client.scatter to reduce scheduler burden and \nkeep data on workers\n  warnings.warn(";
    let e = ix.explain(paste);
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].line),
        ("pypi:distributed", 2988),
        "{:?}",
        e.matches
            .iter()
            .map(|m| (&m.repo, m.line))
            .collect::<Vec<_>>()
    );
}

#[test]
fn an_unwrap_std_places_in_its_own_file_is_one_of_the_failed_build_scripts() {
    // alsa-sys 0.1.2's build script, built by a Rust before track_caller:
    // std's text is located in `src/libcore/result.rs`, and only cargo's
    // header says whose script ran (zemeroth#487, pxl#68).
    let script = |repo: &str, snapshot: i64, path: &str, line: u32| {
        let mut e = at_version(
            error(
                repo,
                snapshot,
                Kind::Unwrap,
                "called `Result::unwrap()` on an `Err` value: {:?}",
                line,
            ),
            "0.1.2",
        );
        e.sites[0].path = path.into();
        e
    };
    // Other crates' `unwrap`s, indexed first: each hole names its own
    // receiver, so each is a pattern of its own, more than the selection
    // keeps.
    let mut errors: Vec<MatchEntry> = (0..100)
        .map(|i| {
            let mut e = script(&format!("crate:pad{i}"), 10 + i, "src/lib.rs", 7);
            let mut t = Template::new();
            t.push_lit("called `Result::unwrap()` on an `Err` value: ");
            t.push_hole(errdex_model::Hole {
                arg: format!("receiver{i}"),
                spec: "?".into(),
            });
            e.template = t;
            e
        })
        .collect();
    errors.extend([
        script("crate:alsa-sys", 1, "build.rs", 4),
        script("crate:alsa-sys", 1, "src/lib.rs", 40),
        script("crate:other-sys", 2, "build.rs", 9),
    ]);
    let ix = index(errors, &[]);
    let paste = "error: failed to run custom build command for `alsa-sys v0.1.2`\n\
        process didn't exit successfully: `/p/target/release/build/alsa-sys-caa7/build-script-build` (exit code: 101)\n\
        --- stderr\n\
        thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: \"`\\\"pkg-config\\\" \\\"--libs\\\" \\\"alsa\\\"` did not exit successfully: exit code: 1\"', src/libcore/result.rs:997:5\n\
        note: Run with `RUST_BACKTRACE=1` environment variable to display a backtrace.\n";
    let x = ix.explain(paste);
    let answer = x
        .matches
        .iter()
        .find(|m| m.evidence.contains(&Evidence::BuildScript));
    let answer = answer.map(|m| (m.repo.as_str(), m.path.as_str(), m.line));
    assert_eq!(
        answer,
        Some(("crate:alsa-sys", "build.rs", 4)),
        "{:?}",
        x.matches
    );
    assert!(x
        .best(1)
        .is_some_and(|m| m.path == "build.rs" && m.line == 4));
    // A value the script's own code printed is the answer, the `unwrap`
    // its outer layer (clang-sys 0.28.1's `couldn't find any valid shared
    // libraries …`, corpus-wild).
    let mut own = at_version(
        error(
            "crate:alsa-sys",
            1,
            Kind::ErrReturn,
            "`{}` did not exit successfully: exit code: {}",
            30,
        ),
        "0.1.2",
    );
    own.sites[0].path = "build/probe.rs".into();
    let mut with_own = vec![own];
    with_own.extend([
        script("crate:alsa-sys", 1, "build.rs", 4),
        script("crate:other-sys", 2, "build.rs", 9),
    ]);
    let x = index(with_own, &[]).explain(paste);
    let best = x.best(1).map(|m| (m.path.as_str(), m.line));
    assert_eq!(best, Some(("build/probe.rs", 30)), "{:?}", x.matches);
    // Without cargo's header nothing says whose `unwrap` it was.
    let bare = paste.split_once("--- stderr\n").map(|(_, b)| b).unwrap();
    assert!(
        ix.explain(bare).matches.is_empty(),
        "{:?}",
        ix.explain(bare).matches
    );
}

#[test]
fn evidence_prints_its_json_name() {
    for e in crate::score::EvidenceSet::ALL {
        assert_eq!(serde_json::to_value(e).unwrap(), e.as_str());
    }
}

#[test]
fn a_procedural_macros_panic_is_a_panicking_site() {
    // rust-embed-impl 5.5.1 panics with the text, 8.11.0 returns it as a
    // compile error: rustc's `proc-macro derive panicked` says which.
    let text = "#[derive(RustEmbed)] folder '{}' does not exist. cwd: '{}'";
    let ix = index(
        vec![
            at_version(
                error("crate:rust-embed-impl", 1, Kind::Panic, text, 151),
                "5.5.1",
            ),
            at_version(
                error("crate:rust-embed-impl", 2, Kind::ErrReturn, text, 386),
                "8.11.0",
            ),
        ],
        &[],
    );
    let paste = "error: proc-macro derive panicked\n --> cb_server/browser_ui_server.rs:4:10\n  |\n4 | #[derive(RustEmbed)]\n  |          ^^^^^^^^^\n  |\n  = help: message: #[derive(RustEmbed)] folder 'cb_browser_ui/dist/' does not exist. cwd: '/Users/user/citybound'\n\nerror: aborting due to previous error\n";
    let x = ix.explain(paste);
    let best = x.best(0).map(|m| (m.revision.as_str(), m.line));
    assert_eq!(best, Some(("5.5.1", 151)), "{:?}", x.matches);
}

#[test]
fn a_clis_error_line_leads_its_usage_and_a_hint_is_a_piece_of_the_raised_message() {
    // click's usage error: the usage and help hint above, `Error: ` and
    // the message last; the message is `f"{self.message} {hint}"`, where
    // the hint comes from a helper's free literal.
    let literal = |line: u32, text: &str| errdex_model::LiteralEntry {
        repo: "pypi:click".into(),
        revision: "8.5.1".into(),
        snapshot_id: 1,
        path: "click/exceptions.py".into(),
        line,
        text: text.into(),
        is_test: false,
    };
    let ix = Index::from_data(MatchData {
        errors: vec![error(
            "pypi:click",
            1,
            Kind::Display,
            "No such option {}.",
            249,
        )],
        literals: vec![
            literal(30, "(Did you mean one of: {}?)"),
            literal(99, "Try '{} {}' for help."),
        ],
        deps: [(1, vec![])].into_iter().collect(),
        dates: HashMap::new(),
    });
    let x = ix.explain(
        "Usage: export [OPTIONS] [SRC]\nTry 'export --help' for help.\n\nError: No such option '--nme'. (Did you mean one of: '--fmt', '--name'?)\n",
    );
    assert_eq!(x.matches[0].line, 249);
    // Alone, the hint is its own answer.
    let x = ix.explain("Try 'export --help' for help.");
    assert_eq!(x.matches[0].line, 99);
    // `f"{missing}{param_hint}.{msg}"` with `missing = _("Missing
    // option")`: the free literal explains more of the text than the
    // site's own words, but it is what the site's first hole printed.
    let ix = Index::from_data(MatchData {
        errors: vec![error(
            "pypi:click",
            1,
            Kind::Display,
            "Missing {}{}.{}",
            220,
        )],
        literals: vec![literal(216, "Missing option")],
        deps: [(1, vec![])].into_iter().collect(),
        dates: HashMap::new(),
    });
    let x = ix.explain("Usage: export [OPTIONS]\n\nError: Missing option '--name'.\n");
    assert_eq!(x.matches[0].line, 220);
}

#[test]
fn a_warnings_caller_line_is_the_place_when_no_template_explains_it() {
    // langchain's deprecation message is built piece by piece (`message
    // += …` in branches): no template holds it. The warning's `path:line:`
    // is the caller `stacklevel` names, inside the package: where to look.
    let mut e = error("pypi:langchain-core", 1, Kind::Warning, "{}", 413);
    e.sites[0].path = "langchain_core/_api/deprecation.py".into();
    let ix = index(vec![e], &[]);
    let paste = "/venv/lib/python3.12/site-packages/langchain_core/_api/deprecation.py:139: LangChainDeprecationWarning: The class `LLMChain` was deprecated in LangChain 0.1.17 and will be removed in 0.3.0.";
    let x = ix.explain(paste);
    let first = &x.matches[0];
    assert_eq!(
        (first.kind, first.path.as_str(), first.line),
        (
            MatchKind::Location,
            "langchain_core/_api/deprecation.py",
            139
        )
    );
}

#[test]
fn the_programs_own_variant_around_a_librarys_error_is_taken_off() {
    // `Error: DatabaseError(Conn(SqlxError(PoolTimedOut)))`: the program's
    // own enum (not indexed) wraps sea-orm's `DbErr::Conn`, which wraps its
    // `RuntimeErr::SqlxError`.
    let sites = || {
        vec![
            error("crate:seaorm", 1, Kind::DebugVariant, "Conn({})", 33),
            error("crate:seaorm", 1, Kind::DebugVariant, "SqlxError({})", 95),
        ]
    };
    let ix = index(sites(), &[(1, &[])]);
    for paste in [
        "Error: DatabaseError(Conn(SqlxError(PoolTimedOut)))",
        "called `Result::unwrap()` on an `Err` value: App(DatabaseError(Conn(SqlxError(PoolTimedOut))))",
    ] {
        let x = ix.explain(paste);
        let answer = x.best(0).unwrap_or_else(|| panic!("{paste}: no answer"));
        assert_eq!(answer.repo, "crate:seaorm", "{paste}");
        assert!([33, 95].contains(&answer.line), "{paste}");
    }
    // A value the program printed whole is not taken apart.
    let x = ix.explain("Error: Mystery(Unknown(Thing))");
    assert!(x.best(0).is_none());
}

#[test]
fn frames_without_source_lines_tell_versions_by_the_functions_they_name() {
    // kubernetes from a zipped egg: the frames print no source lines; in
    // 2.0.0 (snapshot 1) line 40 of the file sits in `set_active_context`,
    // in the newer 30.1.0 (snapshot 2) it does not.
    struct Files;
    impl crate::versions::SourceLines for Files {
        fn line(&self, snapshot: i64, path: &str, line: u32) -> Option<String> {
            if path != "kubernetes/config/kube_config.py" || line > 60 {
                return None;
            }
            let def = if snapshot == 1 { 30 } else { 45 };
            Some(match line {
                10 => "class KubeConfigLoader(object):".into(),
                n if n == def => "    def set_active_context(self, context_name=None):".into(),
                20 => "    def _load_cluster_info(self):".into(),
                _ => "        self._current_context = context_name".into(),
            })
        }
        fn find_line(&self, _: i64, _: &str) -> Option<(String, u32)> {
            None
        }
    }
    let site = |snapshot, version| {
        let mut e = at_version(
            error(
                "pypi:kubernetes",
                snapshot,
                Kind::Raise,
                "Invalid kube-config file. Expected key {} in {}",
                52,
            ),
            version,
        );
        e.sites[0].path = "kubernetes/config/kube_config.py".into();
        e
    };
    let ix = index(vec![site(1, "2.0.0"), site(2, "30.1.0")], &[]);
    let paste = "  File \"1.py\", line 4, in <module>\n    config.load_kube_config()\n  File \"build/bdist.linux-x86_64/egg/kubernetes/config/kube_config.py\", line 40, in set_active_context\nkubernetes.config.config_exception.ConfigException: Invalid kube-config file. Expected key users in kube-config";
    let e = ix.explain_with(paste, &Files);
    assert_eq!(
        (e.matches[0].repo.as_str(), e.matches[0].revision.as_str()),
        ("pypi:kubernetes", "2.0.0")
    );
}

#[test]
fn a_vendored_copys_text_is_not_what_an_unrelated_package_printed() {
    // elasticsearch's `ConnectionError.__str__` prints urllib3's error;
    // urllib3 is not indexed, python-telegram-bot's vendored copy of it is.
    let site = |repo: &str, snapshot, text: &str, path: &str, line| {
        let mut e = error(repo, snapshot, Kind::Raise, text, line);
        e.sites[0].path = path.into();
        e
    };
    let errors = || {
        vec![
            site(
                "pypi:elasticsearch",
                1,
                "{}({}) caused by: {}({})",
                "elasticsearch/exceptions.py",
                98,
            ),
            site(
                "pypi:python-telegram-bot",
                2,
                "{}: Failed to establish a new connection: {}",
                "telegram/vendor/ptb_urllib3/urllib3/connection.py",
                149,
            ),
        ]
    };
    let paste = "ConnectionError(<urllib3.connection.HTTPConnection object at 0x7f8e>: Failed to establish a new connection: [Errno 61] Connection refused) caused by: NewConnectionError(<urllib3.connection.HTTPConnection object at 0x7f8e>: Failed to establish a new connection: [Errno 61] Connection refused)";
    let ix = index(errors(), &[(1, &["urllib3", "certifi"]), (2, &["certifi"])]);
    let x = ix.explain(paste);
    assert_eq!(
        x.best(0).map(|m| m.repo.as_str()),
        Some("pypi:elasticsearch")
    );
    // The package that ships the copy raises from it.
    let ix = index(errors(), &[(1, &["python_telegram_bot"]), (2, &[])]);
    let x = ix.explain(paste);
    assert_eq!(
        x.best(0).map(|m| m.repo.as_str()),
        Some("pypi:python-telegram-bot")
    );
}

#[test]
fn a_frame_naming_its_file_alone_is_found_in_the_exceptions_package() {
    // aider's crash report keeps base names: `File "base.py", line 289`;
    // the exception's module (`git.exc`) names GitPython's `git/` folder,
    // where `repo/base.py` raises at that line with the path alone.
    let mut git = error("pypi:gitpython", 1, Kind::Raise, "{}", 289);
    git.sites[0].path = "git/repo/base.py".into();
    let mut other = error("pypi:other", 2, Kind::Raise, "{}", 289);
    other.sites[0].path = "other/base.py".into();
    let ix = index(vec![git, other], &[]);
    let paste = "Traceback (most recent call last):\n  File \"repo.py\", line 102, in __init__\n    self.repo = git.Repo(path)\n  File \"base.py\", line 289, in __init__\n    raise InvalidGitRepositoryError(epath)\ngit.exc.InvalidGitRepositoryError: /Users/k/Library/Mobile Documents";
    let x = ix.explain(paste);
    let answer = x.best(0).expect("an answer");
    assert_eq!(
        (answer.repo.as_str(), answer.path.as_str(), answer.line),
        ("pypi:gitpython", "git/repo/base.py", 289)
    );
}

#[test]
fn an_old_pythons_frame_at_a_statements_last_line_is_that_statement() {
    // plotly 3.1.0 under Python 3.6: the `raise ValueError(` at line 2822
    // runs to 2829, the line the traceback prints.
    let mut plotly = error(
        "pypi:plotly",
        1,
        Kind::Raise,
        "Invalid property specified for object of type {}: {}",
        2822,
    );
    plotly.sites[0].path = "plotly/basedatatypes.py".into();
    plotly.sites[0].end_line = 2829;
    let ix = index(vec![plotly], &[]);
    let paste = "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.6/site-packages/plotly/basedatatypes.py\", line 2829, in _raise_on_invalid_property_error\n    prop_descriptions=self._prop_descriptions))\nValueError: Invalid property specified for object of type plotly.graph_objs.Bar: 'type'";
    let x = ix.explain(paste);
    let answer = x.best(0).expect("an answer");
    assert_eq!((answer.line, answer.end_line), (2822, 2829));
    assert!(matches!(answer.kind, MatchKind::Site(Kind::Raise)));
}

#[test]
fn a_string_inside_an_unwrapped_value_of_an_unindexed_type_is_a_message() {
    // cpal (not indexed) carries alsa's Display in a `description` field.
    let ix = index(
        vec![error(
            "crate:alsa",
            1,
            Kind::Display,
            "ALSA function '{}' failed with error '{}'",
            79,
        )],
        &[],
    );
    let x = ix.explain("thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: BackendSpecific { err: BackendSpecificError { description: \"ALSA function 'snd_pcm_sw_params' failed with error 'EINVAL: Invalid argument'\" } }', engine/src/sound.rs:286:14");
    let answer = x.best(0).expect("an answer");
    assert_eq!((answer.repo.as_str(), answer.line), ("crate:alsa", 79));
}
