//! One test per construct: Python text written here, the sites it yields
//! compared exactly (kind, lines, template).

use errdex_extract::{Condition, Extractor, FileExtraction, SourceFile};
use errdex_lang_python::PythonExtractor;
use errdex_model::{Kind, Piece, Template};
use pretty_assertions::assert_eq;

fn extract(path: &str, text: &str) -> FileExtraction {
    PythonExtractor.extract(&SourceFile {
        path: path.into(),
        text: text.into(),
    })
}

/// A template as text: literal parts as written, holes as `{arg|spec}`.
fn render(t: &Template) -> String {
    t.pieces()
        .iter()
        .map(|p| match p {
            Piece::Lit(s) => s.clone(),
            Piece::Hole(h) if h.spec.is_empty() => format!("{{{}}}", h.arg),
            Piece::Hole(h) => format!("{{{}|{}}}", h.arg, h.spec),
        })
        .collect()
}

/// Each candidate as `(kind, line, end_line, template)`.
fn sites(text: &str) -> Vec<(Kind, u32, u32, String)> {
    extract("pkg/mod.py", text)
        .candidates
        .iter()
        .map(|c| {
            (
                c.site.kind,
                c.site.line,
                c.site.end_line,
                render(&c.site.template),
            )
        })
        .collect()
}

fn one(kind: Kind, line: u32, end: u32, t: &str) -> Vec<(Kind, u32, u32, String)> {
    vec![(kind, line, end, t.to_string())]
}

#[test]
fn raise_literal() {
    assert_eq!(
        sites("def f():\n    raise ValueError(\"bad value\")\n"),
        one(Kind::Raise, 2, 2, "bad value")
    );
}

#[test]
fn raise_fstring_with_conversion_and_spec() {
    assert_eq!(
        sites("def f(url, n):\n    raise InvalidSchema(f\"No adapters for {url!r} ({n:>4})\")\n"),
        one(Kind::Raise, 2, 2, "No adapters for {url|!r} ({n|>4})")
    );
}

#[test]
fn raise_percent_tuple_and_mapping() {
    let text = "def f(a, b):\n    raise E(\"got %s and %r, 100%%\" % (a, b))\n\ndef g(d):\n    raise E(\"%(name)s is bad\" % d)\n";
    assert_eq!(
        sites(text),
        vec![
            (Kind::Raise, 2, 2, "got {a} and {b|!r}, 100%".into()),
            (Kind::Raise, 5, 5, "{name} is bad".into()),
        ]
    );
}

#[test]
fn raise_str_format() {
    assert_eq!(
        sites("def f(a):\n    raise E(\"{} is {{not}} {k}\".format(a, k=a.x))\n"),
        one(Kind::Raise, 2, 2, "{a} is {not} {a.x}")
    );
}

#[test]
fn raise_concatenation_and_str() {
    assert_eq!(
        sites("def f(b):\n    raise E(\"a \" + str(b) + \" c\")\n"),
        one(Kind::Raise, 2, 2, "a {b} c")
    );
}

#[test]
fn raise_implicit_concatenation_over_lines() {
    let text = "def f(x):\n    raise E(\n        \"first part, \"\n        f\"then {x}\"\n    )\n";
    assert_eq!(sites(text), one(Kind::Raise, 2, 5, "first part, then {x}"));
}

#[test]
fn raise_triple_quoted_and_escapes() {
    let text = "def f():\n    raise E(\"\"\"two\nlines\\t\"\"\")\n";
    assert_eq!(sites(text), one(Kind::Raise, 2, 3, "two\nlines\t"));
}

#[test]
fn raise_message_bound_earlier() {
    let text = "def f(x):\n    msg = f\"bad {x}\"\n    log(x)\n    raise E(msg)\n";
    let x = extract("pkg/mod.py", text);
    let s = &x.candidates[0].site;
    assert_eq!(
        (s.kind, s.line, s.end_line, s.report_line),
        (Kind::Raise, 2, 4, 4)
    );
    assert_eq!(render(&s.template), "bad {x}");
}

#[test]
fn raise_an_exception_built_earlier_by_an_alternative_constructor() {
    // sqlglot's `raise_error`: the message formatted, the error made by a
    // classmethod, raised (or kept) later.
    let text = "def f(self, message, token):\n    formatted = f\"{message}. Line {token.line}.\"\n    error = ParseError.new(formatted, line=token.line)\n    if self.immediate:\n        raise error\n";
    let x = extract("pkg/mod.py", text);
    let s = &x.candidates[0].site;
    assert_eq!((s.kind, s.line, s.report_line), (Kind::Raise, 2, 5));
    assert_eq!(render(&s.template), "{message}. Line {token.line}.");
    // A value re-raised is no site of its own.
    assert_eq!(
        sites("def f():\n    try:\n        g()\n    except E as err:\n        raise err\n"),
        vec![]
    );
}

#[test]
fn raise_module_constant_makes_const() {
    let text = "NOT_FOUND = \"no such thing\"\n\ndef f():\n    raise E(NOT_FOUND)\n";
    let x = extract("pkg/mod.py", text);
    assert_eq!(x.consts.len(), 1);
    assert_eq!(x.consts[0].name, "NOT_FOUND");
    assert_eq!(x.consts[0].location, "pkg/mod.py:1");
    assert_eq!(render(&x.consts[0].template), "no such thing");
    assert_eq!(render(&x.candidates[0].site.template), "{NOT_FOUND}");
}

#[test]
fn raise_from_and_keyword_message() {
    let text = "def f():\n    try:\n        g()\n    except KeyError as e:\n        raise LookupFailed(code=3, message=\"lookup failed\") from e\n";
    assert_eq!(sites(text), one(Kind::Raise, 5, 5, "lookup failed"));
}

#[test]
fn raise_bare_class_takes_docstring() {
    let text = "class NXDOMAIN(DNSException):\n    \"\"\"The DNS query name does not exist.\"\"\"\n\ndef f():\n    raise NXDOMAIN\n";
    let x = extract("dns/resolver.py", text);
    let kinds: Vec<(Kind, String)> = x
        .candidates
        .iter()
        .map(|c| (c.site.kind, render(&c.site.template)))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (Kind::ErrorDoc, "The DNS query name does not exist.".into()),
            (Kind::Raise, "{NXDOMAIN}".into()),
        ]
    );
    // Resolution fills the bare raise from the class's const.
    assert_eq!(x.consts[0].name, "NXDOMAIN");
    assert_eq!(x.consts[0].location, "dns/resolver.py:2");
    assert_eq!(x.candidates[0].condition, Condition::Always);
    // A base not named as an error: the site waits for the snapshot.
    let y = extract(
        "dns/x.py",
        "class Timeout(Base):\n    \"\"\"Timed out.\"\"\"\n",
    );
    assert_eq!(
        y.candidates[0].condition,
        Condition::ErrorType("Base".into())
    );
}

#[test]
fn reraise_of_a_value_is_no_site() {
    assert_eq!(
        sites("def f():\n    try:\n        g()\n    except E as e:\n        raise e\n    raise\n"),
        vec![]
    );
}

#[test]
fn assert_with_message() {
    let text = "def f(view, name):\n    assert view is None, (\n        \"View function mapping is overwriting: %s\" % name\n    )\n";
    assert_eq!(
        sites(text),
        one(
            Kind::Assert,
            2,
            4,
            "View function mapping is overwriting: {name}"
        )
    );
}

#[test]
fn logging_calls_by_level() {
    let text = "import logging\nlogger = logging.getLogger(__name__)\n\ndef f(n, e):\n    logger.warning(\"Retrying (%r) after %s\", n, e)\n    self.logger.error(\"failed: %s\", e)\n    logging.info(\"done %d%%\")\n    _log.debug(f\"state {n}\")\n    log.log(logging.ERROR, \"bad %s\", n)\n";
    assert_eq!(
        sites(text),
        vec![
            (Kind::LogWarn, 5, 5, "Retrying ({n|!r}) after {e}".into()),
            (Kind::LogError, 6, 6, "failed: {e}".into()),
            (Kind::LogInfo, 7, 7, "done %d%%".into()),
            (Kind::LogInfo, 8, 8, "state {n}".into()),
            (Kind::LogError, 9, 9, "bad {n}".into()),
        ]
    );
}

#[test]
fn warnings_warn() {
    let text = "import warnings\n\ndef f(tz):\n    warnings.warn(\"tzname {} identified but not understood.\".format(tz), UnknownTimezoneWarning, stacklevel=2)\n    warn(f\"old {tz}\", DeprecationWarning)\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::Warning,
                4,
                4,
                "tzname {tz} identified but not understood.".into()
            ),
            (Kind::Warning, 5, 5, "old {tz}".into()),
        ]
    );
}

#[test]
fn a_helpers_message_keyword_is_its_message() {
    // matplotlib 3.1's deprecation helper: the version first, the message
    // by name, its `%(name)s` fields filled by the helper.
    let text = "def f(ls):\n    cbook.warn_deprecated(\n        \"3.1\", message=\"Passing the drawstyle with the linestyle \"\n        \"is deprecated since Matplotlib %(since)s and support will be \"\n        \"removed %(removal)s.\")\n";
    assert_eq!(
        sites(text),
        one(
            Kind::Warning,
            2,
            5,
            "Passing the drawstyle with the linestyle is deprecated since Matplotlib {since} and support will be removed {removal}."
        )
    );
}

#[test]
fn exception_class_texts() {
    let text = "class HTTPError(Exception):\n    \"\"\"An HTTP error.\"\"\"\n\nclass NotFound(HTTPError):\n    code = 404\n    description = (\n        \"The requested URL was not found.\"\n    )\n\n    def __str__(self):\n        return f\"{self.code} Not Found: {self.description}\"\n\n    def __repr__(self):\n        return \"<NotFound %s>\" % self.code\n";
    assert_eq!(
        sites(text),
        vec![
            (Kind::ErrorDoc, 2, 2, "An HTTP error.".into()),
            (
                Kind::ErrorDoc,
                6,
                8,
                "The requested URL was not found.".into()
            ),
            (
                Kind::Display,
                11,
                11,
                "{self.code} Not Found: {self.description}".into()
            ),
            (Kind::DebugImpl, 14, 14, "<NotFound {self.code}>".into()),
        ]
    );
    let x = extract("pkg/mod.py", text);
    assert_eq!(x.error_types, vec!["HTTPError", "NotFound"]);
    // `NotFound` raised bare prints its description.
    let c = x.consts.iter().find(|c| c.name == "NotFound").unwrap();
    assert_eq!(render(&c.template), "The requested URL was not found.");
}

#[test]
fn exception_init_passes_message_to_super() {
    let text = "class UnexpectedCharError(ParseError):\n    def __init__(self, line, col, char):\n        message = f\"Unexpected character: {char!r}\"\n        super().__init__(line, col, message=message)\n";
    assert_eq!(
        sites(text),
        one(Kind::Display, 3, 4, "Unexpected character: {char|!r}")
    );
}

#[test]
fn message_dict_values() {
    let text = "class String(Field):\n    default_error_messages = {\n        \"invalid\": \"Not a valid string.\",\n        \"invalid_utf8\": \"Not a valid utf-8 string.\",\n    }\n";
    let x = extract("marshmallow/fields.py", text);
    let got: Vec<(u32, String, String)> = x
        .candidates
        .iter()
        .map(|c| {
            (
                c.site.line,
                c.site.item_path.clone(),
                render(&c.site.template),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                3,
                "marshmallow.fields.String.default_error_messages.invalid".into(),
                "Not a valid string.".into()
            ),
            (
                4,
                "marshmallow.fields.String.default_error_messages.invalid_utf8".into(),
                "Not a valid utf-8 string.".into()
            ),
        ]
    );
    assert_eq!(x.candidates[0].site.kind, Kind::ErrorDoc);
}

#[test]
fn usage_errors() {
    let text = "def main(parser, ctx, value):\n    parser.error(\"the following arguments are required: %s\" % value)\n    ctx.fail(_(\"{value!r} is not a valid integer.\").format(value=value))\n    raise click.BadParameter(\"must be positive\")\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::Raise,
                2,
                2,
                "the following arguments are required: {value}".into()
            ),
            (
                Kind::Raise,
                3,
                3,
                "{value|!r} is not a valid integer.".into()
            ),
            (Kind::Raise, 4, 4, "must be positive".into()),
        ]
    );
}

#[test]
fn exception_made_without_raise() {
    let text = "def check(instance):\n    yield ValidationError(f\"{instance!r} is not of type 'string'\")\n";
    assert_eq!(
        sites(text),
        one(Kind::Raise, 2, 2, "{instance|!r} is not of type 'string'")
    );
}

#[test]
fn literals_and_docs() {
    let text = "def f():\n    \"\"\"Frobnicates the widget.\n\n    More detail here.\n    \"\"\"\n    x = \"a free literal\"\n    y = \"short\"\n";
    let x = extract("pkg/mod.py", text);
    let lits: Vec<(u32, u32, &str, bool)> = x
        .literals
        .iter()
        .map(|l| (l.line, l.column, l.text.as_str(), l.is_test))
        .collect();
    assert_eq!(lits, vec![(6, 9, "a free literal", false)]);
    assert_eq!(x.docs.len(), 1);
    assert_eq!(x.docs[0].text, "Frobnicates the widget.");
    assert_eq!(x.docs[0].item_path, "pkg.mod.f");
}

#[test]
fn a_percent_format_literal_is_kept_without_its_conversions() {
    // sqlalchemy's `_code_str`: the codes are values, the rest is text.
    let text = "def code_str(v, code):\n    return (\n        \"(Background on this error at: \"\n        \"https://sqlalche.me/e/%s/%s)\" % (v, code)\n    )\n";
    let x = extract("sqlalchemy/exc.py", text);
    let lits: Vec<&str> = x.literals.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        lits,
        vec!["(Background on this error at: https://sqlalche.me/e/"]
    );
}

#[test]
fn site_fields() {
    let text = "class Session:\n    def send(self, url):\n        if not url:\n            raise InvalidURL(\n                f\"Invalid URL {url!r}\"\n            )\n";
    let x = extract("src/requests/sessions.py", text);
    let s = &x.candidates[0].site;
    assert_eq!(s.path, "src/requests/sessions.py");
    assert_eq!(s.item_path, "requests.sessions.Session.send");
    assert_eq!((s.line, s.end_line, s.column), (4, 6, 13));
    assert_eq!((s.report_line, s.report_column), (4, 13));
    assert_eq!((s.excerpt_start, s.excerpt_end), (2, 6));
    assert!(!s.is_test);
}

#[test]
fn test_code_is_marked() {
    let in_test_fn = extract(
        "pkg/mod.py",
        "def test_it():\n    raise ValueError(\"boom boom\")\n",
    );
    assert!(in_test_fn.candidates[0].site.is_test);
    for path in [
        "tests/helpers.py",
        "pkg/test_x.py",
        "pkg/x_test.py",
        "conftest.py",
    ] {
        let x = extract(path, "def f():\n    raise ValueError(\"boom boom\")\n");
        assert!(x.candidates[0].site.is_test, "{path}");
        assert!(x.literals.is_empty());
    }
}

#[test]
fn syntax_errors_are_counted_and_the_rest_extracted() {
    let x = extract(
        "pkg/mod.py",
        "def f(:\n    pass\n\ndef g():\n    raise ValueError(\"still found\")\n",
    );
    assert!(x.syntax_errors > 0);
    assert_eq!(render(&x.candidates[0].site.template), "still found");
}

#[test]
fn deep_nesting_does_not_overflow() {
    let deep = format!("x = {}1{}\n", "(".repeat(50_000), ")".repeat(50_000));
    let _ = extract("pkg/deep.py", &deep);
    let chain = format!("def f(a):\n    raise E(\"a\"{})\n", " + a".repeat(20_000));
    let x = extract("pkg/chain.py", &chain);
    assert_eq!(x.candidates.len(), 1);
    let lists = format!("y = {}{}\n", "[".repeat(20_000), "]".repeat(20_000));
    let _ = extract("pkg/lists.py", &lists);
    let garbage: String = (0..20_000)
        .map(|i| ["(", "[", "{", "'", "\"", "f'{"][i % 6])
        .collect();
    let _ = extract("pkg/garbage.py", &garbage);
}

#[test]
fn bound_messages_inside_fstrings_and_formats() {
    let text = "def f(paths):\n    msg = \"Resource not found.\"\n    msg += \" Searched: %s\" % paths\n    sep = \"*\" * 70\n    banner = f\"\\n{sep}\\n{msg}\\n\"\n    raise LookupError(banner)\n";
    assert_eq!(
        sites(text),
        one(
            Kind::Raise,
            2,
            6,
            "\n{sep}\nResource not found. Searched: {paths}\n"
        )
    );
}

#[test]
fn token_soup_never_panics() {
    let tokens = [
        "raise ",
        "E(",
        ")",
        "f'",
        "'",
        "\"\"\"",
        "{",
        "}",
        "!r",
        ":",
        "\n",
        "    ",
        "class ",
        "def ",
        "msg",
        " = ",
        " % ",
        "(",
        "logger.error(",
        "warnings.warn(",
        ",",
        "é",
        "\\",
        "assert x, ",
        "\"%s\"",
        ".format(",
        "+",
        "[",
        "]",
        "return ",
        "__str__",
        "from ",
    ];
    let mut seed = 11u32;
    for _ in 0..300 {
        let mut text = String::new();
        for _ in 0..200 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            text.push_str(tokens[(seed >> 16) as usize % tokens.len()]);
        }
        let _ = extract("pkg/soup.py", &text);
    }
}

#[test]
fn logging_with_splat_and_keyword_arguments_formats() {
    let text = "def f(log, level, details):\n    msg = \"Giving up %s(...) after %d tries (%s)\"\n    log_args = [details['target'], details['tries']]\n    log.log(level, msg, *log_args)\n    logger_warning(\"incorrect startxref pointer(%(nr)d)\", source=__name__, nr=3)\n    logger.info(\"100%% %s\", exc_info=True)\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::LogInfo,
                2,
                4,
                "Giving up {|}(...) after {|d} tries ({|})".replace("{|}", "{}"),
            ),
            (
                Kind::LogWarn,
                5,
                5,
                "incorrect startxref pointer({nr|d})".into()
            ),
            (Kind::LogInfo, 6, 6, "100%% %s".into()),
        ]
    );
}

#[test]
fn conditional_binding_inside_a_message_is_a_hole() {
    let text = "def f(template, paths):\n    plural = \"path\" if len(paths) == 1 else \"paths\"\n    raise TemplateNotFound(template, f\"{template!r} not found in search {plural}: {paths}\")\n\ndef g(n):\n    raise ValueError(\"need \" + (\"one item\" if n == 1 else \"many items\") + \" here\")\n\ndef h(n):\n    msg = \"too small\" if n < 0 else \"too large\"\n    raise ValueError(msg)\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::Raise,
                3,
                3,
                "{template|!r} not found in search {plural}: {paths}".into()
            ),
            (
                Kind::Raise,
                6,
                6,
                "need {(\"one item\" if n == 1 else \"many items\")} here".into()
            ),
            (Kind::Raise, 9, 10, "too small".into()),
        ]
    );
}

#[test]
fn format_fields_filled_later_are_holes() {
    let text = "class Field:\n    default_error_messages = {\"invalid\": \"Not a valid {obj_type}.\"}\n\ndef f(self, sym, name):\n    self._grammar_error(False, \"{Type} '{name}' used but not defined\", sym, name)\n    raise ValueError(\"literal {{braces}} and {\\\"json\\\": 1}\")\n";
    let holes: Vec<(String, usize)> = extract("pkg/mod.py", text)
        .candidates
        .iter()
        .map(|c| {
            let t = &c.site.template;
            let n = t
                .pieces()
                .iter()
                .filter(|p| matches!(p, Piece::Hole(_)))
                .count();
            (render(t), n)
        })
        .collect();
    assert_eq!(
        holes,
        vec![
            ("Not a valid {obj_type}.".into(), 1),
            ("{Type} '{name}' used but not defined".into(), 2),
            ("literal {{braces}} and {\"json\": 1}".into(), 0),
        ]
    );
}

#[test]
fn text_added_only_sometimes_is_a_hole() {
    let text = "class E(Exception):\n    def __str__(self):\n        message = \"No terminal %s\" % self.char\n        message += \"\\n\\n\" + self._context\n        if self.allowed:\n            message += \"\\nExpected one of: %s\" % self.allowed\n        message += self._tail()\n        return message\n\ndef f(v):\n    parts = [\"Function is deprecated.\"]\n    if v:\n        parts.append(\"Since {v}.\")\n    parts.append(\"Will be removed.\")\n    raise ValueError(\" \".join(parts))\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::Display,
                3,
                8,
                "No terminal {self.char}\n\n{self._context}{\"\\nExpected one of: %s\" % self.allowed}{self._tail()}".into()
            ),
            (
                Kind::Raise,
                11,
                15,
                "Function is deprecated.{\"Since {v}.\"} Will be removed.".into()
            ),
        ]
    );
}

#[test]
fn a_list_of_parts_is_joined_by_what_join_says() {
    // werkzeug's `BuildError.__str__`: parts joined by `""`, some added
    // only sometimes; an append in a sibling branch of the list's own is
    // added only sometimes too.
    let text = "class BuildError(Exception):\n    def __str__(self):\n        message = [f\"Could not build url for endpoint {self.endpoint!r}\"]\n        if self.method:\n            message.append(f\" ({self.method!r})\")\n        message.append(\".\")\n        return \"\".join(message)\n\ndef f(a):\n    if a:\n        msg = \"first\"\n    else:\n        msg = \"second\"\n        msg += \" always\"\n    raise ValueError(msg)\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::Display,
                3,
                7,
                "Could not build url for endpoint {self.endpoint|!r}{f\" ({self.method!r})\"}."
                    .into()
            ),
            (Kind::Raise, 13, 15, "second always".into()),
            (Kind::Raise, 11, 15, "first".into()),
        ]
    );
}

#[test]
fn a_name_bound_in_sibling_branches_gives_a_site_per_message() {
    // jinja2's `Parser._fail_ut_eof`: the list starts as one of two
    // messages, every later part is added to either.
    let text = "def fail_eof(self, name, looking):\n    if name is None:\n        message = [\"Unexpected end of template.\"]\n    else:\n        message = [f\"Encountered unknown tag {name!r}.\"]\n    if looking:\n        message.append(f\"Jinja was looking for: {looking}.\")\n    self.fail(\" \".join(message))\n\ndef g(n):\n    msg = \"small\"\n    if n > 9:\n        msg = \"large\"\n    raise ValueError(msg)\n\ndef h(n):\n    msg = \"small\"\n    msg = \"large\"\n    raise ValueError(msg)\n\ndef k(r):\n    if r.code:\n        if r.code == 1:\n            msg = \"not found\"\n        else:\n            msg = \"gone\"\n        raise NotFound(msg)\n    if r.status == 401:\n        msg = \"unauthorized\"\n    raise NotFound(msg)\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::Raise,
                5,
                8,
                "Encountered unknown tag {name|!r}.{f\"Jinja was looking for: {looking}.\"}".into()
            ),
            (
                Kind::Raise,
                3,
                8,
                "Unexpected end of template.{f\"Jinja was looking for: {looking}.\"}".into()
            ),
            (Kind::Raise, 13, 14, "large".into()),
            (Kind::Raise, 11, 14, "small".into()),
            (Kind::Raise, 18, 19, "large".into()),
            (Kind::Raise, 26, 27, "gone".into()),
            (Kind::Raise, 24, 27, "not found".into()),
            // The branches that raised are left: only the `if` that falls
            // through binds the message here.
            (Kind::Raise, 29, 30, "unauthorized".into()),
        ]
    );
}

#[test]
fn checking_helpers_and_error_helpers_format_their_arguments() {
    let text = "def f(self, name, value):\n    validate(_re, value, \"Illegal header value {!r}\", value)\n    self.error(\"unknown option %s\", name)\n    check_output(\"git status\")\n    self._check(value, \"no-space\")\n";
    assert_eq!(
        sites(text),
        vec![
            (Kind::Raise, 2, 2, "Illegal header value {|!r}".into()),
            (Kind::Raise, 3, 3, "unknown option {name}".into()),
        ]
    );
}

#[test]
fn stored_messages_and_check_returns_leave_fields_for_later() {
    let text = "class GuessedAtParserWarning(UserWarning):\n    MESSAGE: str = \"No parser was specified, using %(parser)s for %s here (100%%)\"\n\ndef check_key_length(key, n):\n    if len(key) < n:\n        return f\"The HMAC key is {len(key)} bytes long\"\n    return None\n\ndef check_mode(m):\n    return \"utf-8\"\n";
    assert_eq!(
        sites(text),
        vec![
            (
                Kind::ErrorDoc,
                2,
                2,
                "No parser was specified, using {parser} for {} here (100%)".into()
            ),
            (
                Kind::ErrorDoc,
                6,
                6,
                "The HMAC key is {len(key)} bytes long".into()
            ),
        ]
    );
}

#[test]
fn translated_messages_keep_their_text() {
    // sphinx marks console messages with `__`, most projects with `_`.
    let text = "def load(extname):\n    raise ExtensionError(__('Could not import extension %s') % extname)\n";
    assert_eq!(
        sites(text),
        one(Kind::Raise, 2, 2, "Could not import extension {extname}")
    );
}

#[test]
fn a_word_bound_in_branches_gives_one_message_per_branch() {
    // plotly's `prop_str = "property"` / `"properties"`, then a long
    // `.format(prop_str=prop_str, …)`: both messages, at the format.
    let text = "def f(props, name):\n    if len(props) == 1:\n        prop_str = \"property\"\n    else:\n        prop_str = \"properties\"\n    raise ValueError(\n        \"Invalid {prop_str} specified for object of type {name}\".format(\n            prop_str=prop_str, name=name\n        )\n    )\n";
    let mut got: Vec<(u32, String)> = sites(text).into_iter().map(|(_, l, _, t)| (l, t)).collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            (
                6,
                "Invalid properties specified for object of type {name}".to_string()
            ),
            (
                6,
                "Invalid property specified for object of type {name}".to_string()
            ),
        ]
    );
}

#[test]
fn a_detail_or_nothing_is_the_detail() {
    // pyparsing's `found_phrase = f", found {self.found}" if self.found
    // else ""`: printed whenever there is something to say.
    let text = "def f(value, found):\n    detail = f\", found {found}\" if found else \"\"\n    raise ValueError(f\"bad value {value!r}{detail}\")\n";
    assert_eq!(
        sites(text),
        // Placed at the literal that says the most of it.
        one(Kind::Raise, 3, 3, "bad value {value|!r}, found {found}")
    );
    // Two texts stay one of several: a hole in a larger message.
    let text = "def f(n):\n    word = \"path\" if n == 1 else \"paths\"\n    raise ValueError(f\"{n} {word} missing\")\n";
    assert_eq!(sites(text), one(Kind::Raise, 3, 3, "{n} {word} missing"));
    // click's `msg = f" {msg}" if msg else ""`: a separator and a value, or
    // nothing, is a hole (it may print nothing).
    let text = "def f(kind, msg):\n    msg = f\" {msg}\" if msg else \"\"\n    raise ValueError(f\"Missing {kind}.{msg}\")\n";
    assert_eq!(sites(text), one(Kind::Raise, 3, 3, "Missing {kind}.{msg}"));
}
