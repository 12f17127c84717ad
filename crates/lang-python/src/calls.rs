//! Statements and calls that produce messages: `raise`, `assert`, logging,
//! `warnings.warn`, exception constructors, usage errors, messages bound
//! to names, module constants and dicts of messages.

use crate::message::{is_constant_name, last_segment, Message, MESSAGE_KEYWORDS};
use crate::strings::{self, PercentArgs};
use crate::walker::{Binding, Walker};
use errdex_extract::{Condition, ConstDef};
use errdex_model::{Kind, Template};
use tree_sitter::Node;

/// Logging methods and the kind of site each makes.
const LOG_METHODS: &[(&str, Kind)] = &[
    ("error", Kind::LogError),
    ("exception", Kind::LogError),
    ("critical", Kind::LogError),
    ("fatal", Kind::LogError),
    ("warning", Kind::LogWarn),
    ("warn", Kind::LogWarn),
    ("info", Kind::LogInfo),
    ("debug", Kind::LogInfo),
    ("log", Kind::LogInfo),
    ("severe", Kind::LogError),
];

/// Methods that raise a usage error with a message (argparse's
/// `parser.error`, click's `ctx.fail`, `sys.exit("…")`).
const USAGE_METHODS: &[&str] = &["error", "fail", "exit"];

/// Names a dict of messages is assigned to contain one of these.
const MESSAGE_DICT_WORDS: &[&str] = &["message", "error", "msg"];

/// Functions and methods whose name holds one of these raise an error
/// with the message they are given (`raise_error`, `raise_syntax_error`,
/// `self.fail`, `self.unsupported`).
const RAISING_WORDS: &[&str] = &["raise", "error", "fail", "abort", "unsupported"];

/// Functions whose name holds one of these return a message (`__str__`
/// aside): `format_error_message`, `_undefined_message`.
const MESSAGE_FN_WORDS: &[&str] = &["message", "msg", "error", "describe"];

/// Module constants and class attributes whose name holds one of these
/// hold a message (`_no_app_msg`, `FILENAME_MESSAGE`).
pub const MESSAGE_NAME_WORDS: &[&str] = &["message", "msg", "error", "warning"];

/// Shortest literal text of a message constant found by its name alone.
const MIN_NAMED_MESSAGE_CHARS: usize = 8;

/// Functions and methods whose name holds one of these check a condition
/// and raise the message they are given (`validate`, `_check_arg`,
/// `ensure`, `expect`).
const CHECK_WORDS: &[&str] = &["validate", "check", "ensure", "require", "verify", "expect"];

/// True when a call passes `*args` or `**kwargs`.
fn has_splat(call: Node) -> bool {
    call.child_by_field_name("arguments").is_some_and(|args| {
        let mut c = args.walk();
        let found = args
            .named_children(&mut c)
            .any(|a| matches!(a.kind(), "list_splat" | "dictionary_splat"));
        found
    })
}

/// Keywords of logging calls that are no formatting arguments.
const LOG_KEYWORDS: &[&str] = &["exc_info", "stack_info", "stacklevel", "extra"];

/// The kind of a logging helper function named for a logger and a level
/// (`logger_warning`, `log_error`, `_log_debug`); `None` for other names.
fn log_helper_kind(name: &str) -> Option<Kind> {
    let lower = name.to_ascii_lowercase();
    let words: Vec<&str> = lower.split('_').filter(|w| !w.is_empty()).collect();
    if words.len() < 2
        || words.contains(&"raise")
        || !words
            .iter()
            .any(|w| matches!(*w, "log" | "logger" | "logging"))
    {
        return None;
    }
    words
        .iter()
        .find_map(|w| LOG_METHODS.iter().find(|(m, _)| m == w && *m != "log"))
        .map(|(_, k)| *k)
}

/// True when an object (`logger`, `self.log`, `_LOG`, `logging`,
/// docutils' `self.reporter`) is a logger.
fn is_logger(object: &str) -> bool {
    let last = last_segment(object).to_ascii_lowercase();
    last.contains("log") || last.contains("reporter")
}

impl<'a> Walker<'a> {
    /// `raise X(…)`, `raise X`, `raise X(…) from e`.
    pub fn visit_raise(&mut self, node: Node<'a>) {
        let cause = node.child_by_field_name("cause").map(|c| c.id());
        let mut c = node.walk();
        let Some(expr) = node
            .named_children(&mut c)
            .find(|n| Some(n.id()) != cause && n.kind() != "comment")
        else {
            return;
        };
        let msg = match expr.kind() {
            "call" => {
                self.claimed.insert(expr.start_byte());
                let f = expr
                    .child_by_field_name("function")
                    .map(|f| self.text(f))
                    .unwrap_or("");
                match self.constructor_message(expr, 0) {
                    Some(m) => m,
                    None => Message {
                        template: Template::hole(last_segment(f), ""),
                        from_line: None,
                        approx: false,
                    },
                }
            }
            "identifier" | "attribute" => {
                let name = last_segment(self.text(expr));
                // `raise err` re-raises a value; `raise NotFound` makes one;
                // `raise error` of an exception built earlier with a message
                // (`error = ParseError.new(msg)`) raises that message.
                if expr.kind() == "identifier" {
                    let bound = self.message(expr);
                    if bound.has_text() {
                        self.use_strings(expr);
                        let site =
                            self.site(Kind::Raise, bound.template, node, node, bound.from_line);
                        self.push(site, Condition::Always);
                        return;
                    }
                }
                let class_like =
                    name.starts_with(|c: char| c.is_ascii_uppercase()) && !is_constant_name(name);
                if !class_like && !self.is_exception_name(name) {
                    return;
                }
                Message {
                    template: Template::hole(name, ""),
                    from_line: None,
                    approx: false,
                }
            }
            _ => return,
        };
        self.use_strings(expr);
        let mut site = self.site(Kind::Raise, msg.template, node, node, msg.from_line);
        if let [errdex_model::Piece::Hole(h)] = site.template.pieces() {
            if !h.arg.starts_with(|c: char| c.is_ascii_uppercase()) {
                site.delegates_to = Some(h.arg.clone());
            }
        }
        self.push(site, Condition::Always);
    }

    /// `assert cond, "message"`.
    pub fn visit_assert(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        let parts: Vec<Node> = node
            .named_children(&mut c)
            .filter(|n| n.kind() != "comment")
            .collect();
        let [_, msg_node] = parts[..] else {
            return;
        };
        let msg = self.message(msg_node);
        if !msg.has_text() {
            return;
        }
        self.use_strings(msg_node);
        let site = self.site(Kind::Assert, msg.template, node, node, msg.from_line);
        self.push(site, Condition::Always);
    }

    /// Logging, warnings, usage errors, exception constructors outside a
    /// `raise`, and `super().__init__(msg)` in exception classes.
    pub fn visit_call(&mut self, call: Node<'a>) {
        if self.claimed.contains(&call.start_byte()) {
            return;
        }
        let Some(f) = call.child_by_field_name("function") else {
            return;
        };
        let fname = self.text(f);
        let (method, object) = match f.kind() {
            "attribute" => (
                f.child_by_field_name("attribute")
                    .map(|a| self.text(a))
                    .unwrap_or(""),
                f.child_by_field_name("object")
                    .map(|o| self.text(o))
                    .unwrap_or(""),
            ),
            _ => (fname, ""),
        };
        if method == "append" && f.kind() == "attribute" {
            self.append_to_binding(call, object);
            return;
        }
        if !object.is_empty() && is_logger(object) {
            if let Some((_, kind)) = LOG_METHODS.iter().find(|(m, _)| *m == method) {
                self.log_site(call, *kind, method == "log");
                return;
            }
        }
        if let Some(kind) = log_helper_kind(method) {
            self.log_site(call, kind, false);
            return;
        }
        let last = last_segment(fname);
        let lower = method.to_ascii_lowercase();
        let site = if matches!(fname, "warnings.warn" | "warn" | "warnings.warn_explicit")
            || lower.contains("deprecat")
            || (lower.contains("warn") && f.kind() == "attribute")
        {
            self.message_site(call, Kind::Warning, Condition::Always)
        } else if method == "__init__" && (object == "super()" || self.is_exception_name(object)) {
            match self.class_condition() {
                Some(cond) => self.message_site(call, Kind::Display, cond),
                None => false,
            }
        } else if (!object.is_empty() && USAGE_METHODS.contains(&method))
            || RAISING_WORDS.iter().any(|w| lower.contains(w))
            || self.is_exception_name(last)
        {
            self.message_site(call, Kind::Raise, Condition::Always)
        } else if last.starts_with(|c: char| c.is_ascii_uppercase())
            && last.chars().any(|c| c.is_ascii_lowercase())
        {
            // `Invalid("…")`: a site when the class is an error type of
            // the snapshot.
            self.message_site(call, Kind::Raise, Condition::ErrorType(last.to_string()))
        } else if CHECK_WORDS.iter().any(|w| lower.contains(w)) {
            self.check_site(call)
        } else {
            false
        };
        if site {
            self.claimed.insert(call.start_byte());
        }
    }

    /// `parts.append("…")` on a list bound to a message: the text grows
    /// by a part (joined by what `SEP.join(parts)` later says, else a
    /// space).
    fn append_to_binding(&mut self, call: Node<'a>, object: &str) {
        if self.binding(object).is_none() {
            return;
        }
        let (pos, _) = self.call_args(call);
        let Some(first) = pos.first() else { return };
        let mut msg = self.message(*first);
        if msg.has_text() {
            let mut t = Template::literal(strings::LIST_SEP);
            t.append(&msg.template);
            msg.template = t;
        }
        self.grow_binding(object, *first, msg);
    }

    /// A site for a call whose message argument has literal text.
    fn message_site(&mut self, call: Node<'a>, kind: Kind, condition: Condition) -> bool {
        let Some(mut msg) = self.constructor_message(call, 0).filter(Message::has_text) else {
            return false;
        };
        let fname = call
            .child_by_field_name("function")
            .map_or("", |f| self.text(f));
        if !self.is_exception_name(last_segment(fname)) {
            let (pos, kw) = self.call_args(call);
            // A helper's argument named the message is the message
            // (`warn_deprecated("3.1", message="… %(since)s …")`); the
            // helper fills its `%(name)s` fields.
            let named = kw
                .iter()
                .filter(|(k, _)| MESSAGE_KEYWORDS.contains(k))
                .map(|(_, v)| self.message(*v))
                .find(Message::has_text);
            if let Some(named) = named {
                msg = named;
                if msg.template.literals().any(|s| s.contains("%(")) {
                    msg.template = strings::percent(&msg.template, &PercentArgs::Mapping);
                }
            } else if let Some(i) = pos.iter().position(|a| self.message(*a).has_text()) {
                // A helper (`self.error("bad %s", x)`) formats what follows.
                msg.template = self.percent_with(call, &msg.template, &pos[i + 1..]);
            }
        }
        if let Some(args) = call.child_by_field_name("arguments") {
            self.use_strings(args);
        }
        let site = self.site(kind, msg.template, call, call, msg.from_line);
        self.push(site, condition);
        true
    }

    /// `%`-formatting of `fmt` by the arguments a call passes after it
    /// (`rest`, or `*args`); `fmt` unchanged when none follow.
    fn percent_with(&self, call: Node, fmt: &Template, rest: &[Node]) -> Template {
        if rest.is_empty() && !has_splat(call) {
            return fmt.clone();
        }
        let args = if fmt.literals().any(|s| s.contains("%(")) {
            PercentArgs::Mapping
        } else {
            PercentArgs::Positional(rest.iter().map(|a| self.text(*a).to_string()).collect())
        };
        strings::percent(fmt, &args)
    }

    /// `validate(regex, value, "Illegal header value {!r}", value)`,
    /// `self._check(ok, "expected %s", x)`: a checking helper given a
    /// message (a string literal after its first argument, with a space)
    /// raises it, formatted by the arguments that follow.
    fn check_site(&mut self, call: Node<'a>) -> bool {
        let (pos, _) = self.call_args(call);
        let Some(i) = pos.iter().skip(1).position(|a| {
            matches!(a.kind(), "string" | "concatenated_string")
                && self
                    .message(*a)
                    .template
                    .literals()
                    .any(|s| s.contains(' '))
        }) else {
            return false;
        };
        let i = i + 1;
        let msg = self.message(pos[i]);
        if msg.template.literal_len() < MIN_NAMED_MESSAGE_CHARS {
            return false;
        }
        let template = self.percent_with(call, &msg.template, &pos[i + 1..]);
        self.use_strings(pos[i]);
        let site = self.site(Kind::Raise, template, call, call, msg.from_line);
        self.push(site, Condition::Always);
        true
    }

    /// `logger.error("… %s …", x)`: `%` applies when arguments follow
    /// (positional, `*args`, or the keywords of a logging helper such as
    /// `logger_warning("… %(n)d", source=s, n=n)`); `logger.log(level,
    /// msg, …)` takes its kind from the level.
    fn log_site(&mut self, call: Node<'a>, mut kind: Kind, leveled: bool) {
        let (mut pos, kw) = self.call_args(call);
        if leveled {
            let Some(level) = pos.first() else { return };
            let level = self.text(*level).to_ascii_uppercase();
            if level.contains("ERROR") || level.contains("CRITICAL") || level.contains("FATAL") {
                kind = Kind::LogError;
            } else if level.contains("WARN") {
                kind = Kind::LogWarn;
            }
            pos.remove(0);
        }
        let Some(first) = pos.first().copied() else {
            return;
        };
        let msg = self.message(first);
        if !msg.has_text() {
            return;
        }
        let splat = has_splat(call);
        let mapping = msg.template.literals().any(|s| s.contains("%("));
        let values = kw.iter().any(|(k, _)| !LOG_KEYWORDS.contains(k));
        let template = if mapping && (pos.len() > 1 || values || splat) {
            strings::percent(&msg.template, &PercentArgs::Mapping)
        } else if pos.len() > 1 || splat {
            let args = pos[1..].iter().map(|a| self.text(*a).to_string()).collect();
            strings::percent(&msg.template, &PercentArgs::Positional(args))
        } else {
            msg.template
        };
        self.use_strings(first);
        let site = self.site(kind, template, call, call, msg.from_line);
        self.push(site, Condition::Always);
    }

    /// `name = <message>`: a binding in a function, a constant at module
    /// level, a default message attribute of an exception class, a dict
    /// of messages.
    pub fn visit_assignment(&mut self, node: Node<'a>) {
        let (Some(left), Some(right)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            return;
        };
        let augmented = node.kind() == "augmented_assignment";
        let name = self.text(left);
        if left.kind() == "attribute" {
            self.visit_attribute_assignment(node, name, right);
            return;
        }
        if left.kind() != "identifier" {
            return;
        }
        if right.kind() == "dictionary"
            && !augmented
            && MESSAGE_DICT_WORDS
                .iter()
                .any(|w| name.to_ascii_lowercase().contains(w))
        {
            self.visit_message_dict(name, right);
            return;
        }
        let in_class_body = self.frames.last().is_some_and(|f| f.class.is_some());
        if in_class_body {
            if !augmented {
                self.visit_class_attribute(node, name, right);
            }
            return;
        }
        let msg = self.message(right);
        if augmented && !self.at_module_level() {
            self.grow_binding(name, right, msg);
            return;
        }
        if !msg.has_text() {
            return;
        }
        let own_line = right.start_position().row as u32 + 1;
        let line = msg.from_line.map_or(own_line, |l| l.min(own_line));
        if self.at_module_level() {
            if !augmented {
                if is_message_name(name) && msg.template.literal_len() >= MIN_NAMED_MESSAGE_CHARS {
                    self.use_strings(right);
                    let site = self.site(Kind::ErrorDoc, msg.template.clone(), node, right, None);
                    self.push(site, Condition::Always);
                }
                self.out.consts.push(ConstDef {
                    name: name.to_string(),
                    template: strings::pending_fields(&msg.template, Kind::ErrorDoc),
                    location: format!("{}:{line}", self.path),
                });
            }
            return;
        }
        let name = name.to_string();
        let blocks = self.blocks(node);
        let exits = self.exits(node);
        if let Some(bindings) = self.bindings_mut() {
            bindings.push(Binding {
                name,
                template: msg.template,
                line,
                approx: msg.approx,
                blocks,
                exits,
            });
        }
    }

    /// `msg += …` or `parts.append(…)` on a message bound earlier: its
    /// text grows by `part`'s, or by a hole when the part has no text or is
    /// added only sometimes (under an `if` or in a loop the binding is not
    /// in).
    fn grow_binding(&mut self, name: &str, part_node: Node<'a>, part: Message) -> Option<()> {
        // Every binding that may hold the message there grows.
        let live = self.live_bindings(name, part_node);
        let here = self.blocks(part_node);
        let hole = self.hole_for(part_node);
        let mut used = false;
        let bindings = self.bindings_mut()?;
        for i in live {
            let b = &mut bindings[i];
            let sometimes = here.iter().any(|x| !b.blocks.contains(x));
            if sometimes {
                b.template.append(&hole);
            } else {
                b.template.append(&part.template);
                b.approx |= part.approx;
                used = true;
            }
        }
        if used {
            self.use_strings(part_node);
        }
        Some(())
    }

    /// `self.message = "…"` in an exception class's method: what it prints.
    fn visit_attribute_assignment(&mut self, node: Node<'a>, target: &str, right: Node<'a>) {
        let Some(attr) = target.strip_prefix("self.") else {
            return;
        };
        let named = is_message_name(attr);
        if !crate::classes::MESSAGE_ATTRS.contains(&attr) && !named {
            return;
        }
        let msg = self.message(right);
        if !msg.has_text() {
            return;
        }
        // In an exception class it is what the exception prints; a
        // message-named attribute elsewhere holds a message for later.
        let (kind, cond) = match self.class_condition() {
            Some(Condition::Always) => (Kind::Display, Condition::Always),
            _ if named => (Kind::ErrorDoc, Condition::Always),
            Some(c) => (Kind::Display, c),
            None => return,
        };
        self.use_strings(right);
        let site = self.site(kind, msg.template, node, node, msg.from_line);
        self.push(site, cond);
    }

    /// `default_error_messages = {"invalid": "Not a valid string."}`: each
    /// value is a message, its item path ending with the key.
    fn visit_message_dict(&mut self, name: &str, dict: Node<'a>) {
        let mut c = dict.walk();
        let pairs: Vec<Node> = dict
            .named_children(&mut c)
            .filter(|p| p.kind() == "pair")
            .collect();
        for pair in pairs {
            let (Some(k), Some(v)) = (
                pair.child_by_field_name("key"),
                pair.child_by_field_name("value"),
            ) else {
                continue;
            };
            let key =
                crate::message::plain_string(self, k).unwrap_or_else(|| self.text(k).to_string());
            let msg = self.message(v);
            if !msg.has_text() {
                continue;
            }
            self.use_strings(v);
            let mut site = self.site(Kind::ErrorDoc, msg.template, pair, v, msg.from_line);
            site.item_path = format!("{}.{name}.{key}", site.item_path);
            self.push(site, Condition::Always);
        }
    }

    /// `return f"…"` in an exception class's `__str__` (`Display`) or
    /// `__repr__` (`DebugImpl`), or a message method of one.
    pub fn visit_return(&mut self, node: Node<'a>) {
        let Some((name, is_method)) = self.current_function() else {
            return;
        };
        let lower = name.to_ascii_lowercase();
        let (kind, cond) = match name {
            "__repr__" | "__str__" | "__unicode__" if !is_method => return,
            "__repr__" => (Kind::DebugImpl, self.class_condition()),
            "__str__" | "__unicode__" => (Kind::Display, self.class_condition()),
            _ if MESSAGE_FN_WORDS.iter().any(|w| lower.contains(w)) => {
                (Kind::Display, Some(Condition::Always))
            }
            // `check_key_length` returns what is wrong (a sentence).
            _ if CHECK_WORDS.iter().any(|w| lower.contains(w)) => (Kind::ErrorDoc, None),
            _ => return,
        };
        let Some(value) = node.named_child(0) else {
            return;
        };
        let msg = self.message(value);
        if !msg.has_text() {
            return;
        }
        let sentence = || {
            msg.template.literal_len() >= MIN_NAMED_MESSAGE_CHARS
                && msg.template.literals().any(|s| s.trim().contains(' '))
        };
        let cond = match (kind, cond) {
            (Kind::ErrorDoc, None) if sentence() => Condition::Always,
            (_, Some(cond)) => cond,
            _ => return,
        };
        self.use_strings(value);
        let site = self.site(kind, msg.template, node, node, msg.from_line);
        self.push(site, cond);
    }
}

/// True for a name that says it holds a message (`_no_app_msg`,
/// `FILENAME_MESSAGE`).
pub fn is_message_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    MESSAGE_NAME_WORDS.iter().any(|w| lower.contains(w))
}
