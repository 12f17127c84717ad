//! The message an expression prints, as a template: string literals,
//! f-strings, `%` and `str.format`, `+` concatenation, `str(x)`, gettext
//! wrappers, and names bound to a message earlier in the function.

use crate::strings::{self, PercentArgs};
use crate::walker::Walker;
use errdex_model::{Piece, Template};
use tree_sitter::Node;

/// How deep message expressions are followed (`"a" + b + "c" + …` nests
/// to the left).
const MAX_MESSAGE_DEPTH: u32 = 40;

/// Longest hole argument kept, in bytes (a whole call's text says little).
const MAX_ARG_BYTES: usize = 120;

/// Calls that print their first argument's text (gettext and friends;
/// `__` is sphinx's console translation).
const PASS_THROUGH: &[&str] = &[
    "_",
    "__",
    "gettext",
    "ugettext",
    "gettext_lazy",
    "lazy_gettext",
    "ngettext",
    "N_",
    "_l",
    "str",
    "dedent",
    "textwrap.dedent",
    "inspect.cleandoc",
];

/// A message: its template and, when it was bound to a name earlier, the
/// line of that binding's literal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Message {
    /// What it prints.
    pub template: Template,
    /// The first line of an earlier binding it uses.
    pub from_line: Option<u32>,
    /// Its text is one of several the expression may print (`"a" if c
    /// else "b"`): usable as a whole message, a hole inside a larger one.
    pub approx: bool,
}

impl Message {
    fn of(template: Template) -> Self {
        Message {
            template,
            from_line: None,
            approx: false,
        }
    }

    fn then(mut self, other: Message) -> Self {
        self.template.append(&other.template);
        self.from_line = min_line(self.from_line, other.from_line);
        self.approx |= other.approx;
        self
    }

    /// True when some literal text is known.
    pub fn has_text(&self) -> bool {
        self.template.literal_len() > 0
    }
}

/// The earlier of two optional lines.
fn min_line(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The template of a `string` or `concatenated_string` node.
pub fn string_node_template(w: &Walker, node: Node) -> Option<Template> {
    match node.kind() {
        "string" => strings::literal_template(w.text(node)),
        "concatenated_string" => {
            let mut t = Template::new();
            let mut c = node.walk();
            for s in node.named_children(&mut c) {
                if s.kind() == "string" {
                    t.append(&strings::literal_template(w.text(s))?);
                }
            }
            Some(t)
        }
        _ => None,
    }
}

/// The text of a string node that holds no replacement field.
pub fn plain_string(w: &Walker, node: Node) -> Option<String> {
    let t = string_node_template(w, node)?;
    (t.literal_len() > 0 && t.pieces().len() == 1 || t.is_empty()).then(|| t.literals().collect())
}

/// True for a name written like a constant (`NOT_FOUND_MSG`).
pub fn is_constant_name(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// An expression's text as a hole argument: whitespace runs collapsed,
/// long texts cut.
pub fn arg_text(text: &str) -> String {
    let mut s = if text.contains('\n') {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        text.to_string()
    };
    if s.len() > MAX_ARG_BYTES {
        let mut cut = MAX_ARG_BYTES;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

/// The last segment of a dotted name (`exc.ArgumentError` → `ArgumentError`).
pub fn last_segment(s: &str) -> &str {
    s.rsplit('.').next().unwrap_or(s).trim()
}

impl<'a> Walker<'a> {
    /// A hole for an expression.
    fn hole(&self, n: Node) -> Message {
        Message::of(Template::hole(arg_text(self.text(n)), ""))
    }

    /// The message `n` prints.
    pub fn message(&self, n: Node) -> Message {
        self.message_at(n, 0)
    }

    fn message_at(&self, n: Node, depth: u32) -> Message {
        if depth > MAX_MESSAGE_DEPTH {
            return self.hole(n);
        }
        match n.kind() {
            "string" | "concatenated_string" => match string_node_template(self, n) {
                Some(t) => self.with_bindings(t, n),
                None => self.hole(n),
            },
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) if inner.kind() != "comment" => self.message_at(inner, depth + 1),
                _ => self.hole(n),
            },
            "binary_operator" => self.binary_message(n, depth),
            "call" => self.call_value_message(n, depth),
            "identifier" => {
                let name = self.text(n);
                match self.binding_at(name, n) {
                    Some(b) => Message {
                        template: b.template.clone(),
                        from_line: Some(b.line),
                        approx: b.approx,
                    },
                    None => self.hole(n),
                }
            }
            "attribute" => {
                let text = self.text(n);
                let last = last_segment(text);
                if is_constant_name(last) {
                    Message::of(Template::hole(last, ""))
                } else {
                    self.hole(n)
                }
            }
            "list" | "tuple" => self.joined(n, strings::LIST_SEP, depth),
            "conditional_expression" => {
                // `a if c else b`: the branch that says more, approximate
                // unless both print the same. A worded detail or nothing
                // (`f", found {x}" if x else ""`) is the detail: a message
                // prints it when there is one to say. A separator and a
                // value or nothing (`f" {msg}" if msg else ""`) stays a
                // hole, which may print nothing.
                let (Some(a), Some(b)) = (n.named_child(0), n.named_child(2)) else {
                    return self.hole(n);
                };
                let (ma, mb) = (self.message_at(a, depth + 1), self.message_at(b, depth + 1));
                let nothing = |m: &Message| m.template.is_empty() && !m.approx;
                let worded = |m: &Message| {
                    m.template
                        .literals()
                        .any(|s| s.chars().any(char::is_alphabetic))
                };
                if nothing(&mb) && worded(&ma) {
                    return ma;
                }
                if nothing(&ma) && worded(&mb) {
                    return mb;
                }
                let approx = ma.approx || mb.approx || ma.template != mb.template;
                let mut m = if mb.template.literal_len() > ma.template.literal_len() {
                    mb
                } else {
                    ma
                };
                m.approx = approx;
                m
            }
            _ => self.hole(n),
        }
    }

    fn binary_message(&self, n: Node, depth: u32) -> Message {
        let (Some(left), Some(op), Some(right)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("operator"),
            n.child_by_field_name("right"),
        ) else {
            return self.hole(n);
        };
        match self.text(op) {
            "+" => {
                let mut l = self.message_at(left, depth + 1);
                let mut r = self.message_at(right, depth + 1);
                if l.approx && r.has_text() {
                    l = self.hole(left);
                }
                if r.approx && l.has_text() {
                    r = self.hole(right);
                }
                if l.has_text() || r.has_text() {
                    l.then(r)
                } else {
                    self.hole(n)
                }
            }
            "%" => {
                let fmt = self.message_at(left, depth + 1);
                if !fmt.has_text() {
                    return self.hole(n);
                }
                let args = match right.kind() {
                    "tuple" => {
                        let mut c = right.walk();
                        PercentArgs::Positional(
                            right
                                .named_children(&mut c)
                                .filter(|a| a.kind() != "comment")
                                .map(|a| arg_text(self.text(a)))
                                .collect(),
                        )
                    }
                    "dictionary" => PercentArgs::Mapping,
                    _ if fmt.template.literals().any(|s| s.contains("%(")) => PercentArgs::Mapping,
                    _ => PercentArgs::Positional(vec![arg_text(self.text(right))]),
                };
                let m = self.with_bindings(strings::percent(&fmt.template, &args), n);
                Message {
                    from_line: min_line(m.from_line, fmt.from_line),
                    approx: m.approx || fmt.approx,
                    ..m
                }
            }
            _ => self.hole(n),
        }
    }

    /// `t` (read at `at`) with each plain hole that names a message bound
    /// earlier in the function (`f"{sep}{msg}"`) replaced by that message
    /// — one of them, where sibling branches bind it differently (`if n ==
    /// 1: s = "property"` / `else: s = "properties"`; see
    /// [`Walker::with_alternatives`]); a binding of one of several texts
    /// in one expression (`"path" if n == 1 else "paths"`) stays a hole.
    fn with_bindings(&self, t: Template, at: Node) -> Message {
        let bound = |p: &Piece| match p {
            Piece::Hole(h) if h.spec.is_empty() => self
                .binding_at(&h.arg, at)
                .filter(|b| !b.approx)
                .map(|b| (&b.template, b.line)),
            _ => None,
        };
        if !t.pieces().iter().any(|p| bound(p).is_some()) {
            return Message::of(t);
        }
        // The message is placed at the literal that says the most of it: a
        // bound message's line, unless the text around it says more (a
        // word bound in branches, `prop_str`, inside a long format).
        let mut most = t.literal_len();
        let mut out = Message::default();
        for p in t.pieces() {
            match (bound(p), p) {
                (Some((b, line)), _) => {
                    out.template.append(b);
                    if b.literal_len() > most {
                        most = b.literal_len();
                        out.from_line = Some(line);
                    }
                }
                (None, Piece::Lit(s)) => out.template.push_lit(s),
                (None, Piece::Hole(h)) => out.template.push_hole(h.clone()),
            }
        }
        out
    }

    /// The elements of a list or tuple literal joined by `sep` (a message
    /// built from parts); a hole when none has literal text.
    fn joined(&self, list: Node, sep: &str, depth: u32) -> Message {
        let mut c = list.walk();
        let parts: Vec<(Node, Message)> = list
            .named_children(&mut c)
            .filter(|e| e.kind() != "comment")
            .map(|e| (e, self.message_at(e, depth + 1)))
            .collect();
        // Beside an exact text, an approximate part is a hole.
        let exact_text = parts.iter().any(|(_, m)| !m.approx && m.has_text());
        let mut out = Message::default();
        for (i, (e, m)) in parts.into_iter().enumerate() {
            if i > 0 {
                out.template.push_lit(sep);
            }
            let m = if m.approx && exact_text {
                self.hole(e)
            } else {
                m
            };
            out = out.then(m);
        }
        if out.has_text() {
            out
        } else {
            self.hole(list)
        }
    }

    /// Positional and keyword arguments of a call.
    pub fn call_args(&self, call: Node<'a>) -> (Vec<Node<'a>>, Vec<(&'a str, Node<'a>)>) {
        let mut pos = Vec::new();
        let mut kw = Vec::new();
        let Some(args) = call.child_by_field_name("arguments") else {
            return (pos, kw);
        };
        let mut c = args.walk();
        for a in args.named_children(&mut c) {
            match a.kind() {
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (
                        a.child_by_field_name("name"),
                        a.child_by_field_name("value"),
                    ) {
                        kw.push((self.text(k), v));
                    }
                }
                "comment" | "list_splat" | "dictionary_splat" => {}
                _ => pos.push(a),
            }
        }
        (pos, kw)
    }

    /// The message of a call used as a value: gettext wrappers, `repr(x)`,
    /// `"…".format(…)`, an exception made with a message.
    fn call_value_message(&self, n: Node, depth: u32) -> Message {
        let Some(f) = n.child_by_field_name("function") else {
            return self.hole(n);
        };
        let fname = self.text(f);
        let (pos, kw) = self.call_args(n);
        if PASS_THROUGH.contains(&fname) {
            if let Some(first) = pos.first() {
                return self.message_at(*first, depth + 1);
            }
        }
        if fname == "repr" && pos.len() == 1 {
            return Message::of(Template::hole(arg_text(self.text(pos[0])), "!r"));
        }
        if f.kind() == "attribute" && last_segment(fname) == "format" {
            if let Some(obj) = f.child_by_field_name("object") {
                let fmt = self.message_at(obj, depth + 1);
                if fmt.has_text() {
                    let positional: Vec<String> =
                        pos.iter().map(|a| arg_text(self.text(*a))).collect();
                    let keywords: Vec<(String, String)> = kw
                        .iter()
                        .map(|(k, v)| (k.to_string(), arg_text(self.text(*v))))
                        .collect();
                    let m = self
                        .with_bindings(strings::format(&fmt.template, &positional, &keywords), n);
                    return Message {
                        from_line: min_line(m.from_line, fmt.from_line),
                        approx: m.approx || fmt.approx,
                        ..m
                    };
                }
            }
        }
        if f.kind() == "attribute" && last_segment(fname) == "join" && pos.len() == 1 {
            let sep = f
                .child_by_field_name("object")
                .and_then(|o| plain_string(self, o));
            if let Some(sep) = sep {
                return match pos[0].kind() {
                    "list" | "tuple" => self.joined(pos[0], &sep, depth + 1),
                    // A list bound earlier: its parts joined by `sep`.
                    _ => {
                        let mut m = self.message_at(pos[0], depth + 1);
                        m.template = strings::list_joined(&m.template, &sep);
                        m
                    }
                };
            }
        }
        // `ParseError(msg)`, or an alternative constructor of an exception
        // class (`ParseError.new(msg, line=…)`).
        let class = fname.rsplit_once('.').map(|(head, _)| last_segment(head));
        if self.is_exception_name(last_segment(fname))
            || class.is_some_and(|c| is_error_name(c) || self.exception_classes.contains(c))
        {
            if let Some(m) = self.constructor_message(n, depth + 1) {
                return m;
            }
        }
        self.hole(n)
    }

    /// The message a call passes on (an exception's constructor, a log or
    /// warning call): the first positional argument with literal text,
    /// else a message keyword (`msg=`, `message=`, `detail=`…), else the
    /// first positional argument; `None` for a call without arguments.
    pub fn constructor_message(&self, call: Node, depth: u32) -> Option<Message> {
        let (pos, kw) = self.call_args(call);
        let mut first = None;
        for a in &pos {
            let m = self.message_at(*a, depth);
            if m.has_text() {
                return Some(m);
            }
            first.get_or_insert(m);
        }
        for (k, v) in &kw {
            if MESSAGE_KEYWORDS.contains(k) {
                let m = self.message_at(*v, depth);
                if m.has_text() || first.is_none() {
                    return Some(m);
                }
            }
        }
        first
    }

    /// True for a name that is an exception class: one of this file's, or
    /// one whose name says so (`ValueError`, `InvalidURL` is not).
    pub fn is_exception_name(&self, name: &str) -> bool {
        is_error_name(name) || self.exception_classes.contains(name)
    }
}

/// Keyword arguments that carry an exception's message.
pub const MESSAGE_KEYWORDS: &[&str] = &[
    "msg",
    "message",
    "detail",
    "details",
    "description",
    "reason",
    "text",
];

/// Builtin exceptions whose names do not say `Error`.
const BUILTIN_EXCEPTIONS: &[&str] = &[
    "Exception",
    "BaseException",
    "StopIteration",
    "StopAsyncIteration",
    "KeyboardInterrupt",
    "SystemExit",
    "GeneratorExit",
];

/// True for a class name that names an exception (`…Error`,
/// `…Exception`, `…Warning`, builtins).
pub fn is_error_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && (name.contains("Error")
            || name.contains("Exception")
            || name.contains("Warning")
            || BUILTIN_EXCEPTIONS.contains(&name))
}
