//! Exception classes: which classes are exceptions, and the texts they
//! carry (docstring, default message attributes), printed when they are
//! raised without arguments.

use crate::message::{is_error_name, last_segment};
use crate::walker::{Frame, Walker};
use errdex_extract::{Condition, ConstDef};
use errdex_model::{Kind, Template};
use tree_sitter::Node;

/// Class attributes that hold an exception's default message.
pub const MESSAGE_ATTRS: &[&str] = &[
    "message",
    "msg",
    "default_message",
    "default_msg",
    "description",
    "default_detail",
    "detail",
    "fmt",
    "error_message",
];

/// What the walk knows of an enclosing class.
#[derive(Debug, Clone, Default)]
pub struct ClassInfo {
    /// When its texts are sites: always (an exception class by its bases),
    /// when its base is an error type of the snapshot, or never (`None`:
    /// no base, or only `object`).
    pub condition: Option<Condition>,
    /// Its own text (a default message attribute, else its docstring) and
    /// where that is, for `raise Name` without arguments.
    pub text: Option<(Template, u32, bool)>,
}

impl<'a> Walker<'a> {
    /// A class: whether it is an exception, its docstring and default
    /// message attributes, then its body.
    pub fn visit_class(&mut self, node: Node<'a>) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n))
            .unwrap_or("")
            .to_string();
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let mut bases: Vec<&str> = Vec::new();
        if let Some(sup) = node.child_by_field_name("superclasses") {
            let mut c = sup.walk();
            for b in sup.named_children(&mut c) {
                if matches!(b.kind(), "identifier" | "attribute") {
                    bases.push(last_segment(self.text(b)));
                }
            }
            // Keyword and call bases (`metaclass=`, `with_metaclass(..)`)
            // may hold expressions worth walking.
            self.visit_children(sup);
        }
        let condition = if bases
            .iter()
            .any(|b| is_error_name(b) || *b == "error" || self.exception_classes.contains(*b))
        {
            self.exception_classes.insert(name.clone());
            self.out.error_types.push(name.clone());
            Some(Condition::Always)
        } else {
            bases
                .iter()
                .find(|b| !matches!(**b, "object" | "Generic" | "Protocol"))
                .map(|b| Condition::ErrorType(b.to_string()))
        };
        let mut info = ClassInfo {
            condition: condition.clone(),
            text: None,
        };
        if let Some(doc) = self.docstring(body) {
            self.used.insert(doc.start_byte());
            if let (Some(cond), Some(text)) = (&condition, self.string_text(doc)) {
                if !text.is_empty() {
                    let line = doc.start_position().row as u32 + 1;
                    info.text = Some((Template::literal(&text), line, false));
                    self.frames.push(Frame {
                        name: name.clone(),
                        ..Frame::default()
                    });
                    let site = self.site(Kind::ErrorDoc, Template::literal(text), doc, doc, None);
                    self.frames.pop();
                    self.push(site, cond.clone());
                }
            }
        }
        self.frames.push(Frame {
            name: name.clone(),
            class: Some(info),
            test: name.starts_with("Test"),
            bindings: Vec::new(),
        });
        self.visit_children(body);
        let frame = self.frames.pop().unwrap_or_default();
        if let Some((template, line, _)) = frame.class.and_then(|c| c.text) {
            if condition.is_some() {
                self.out.consts.push(ConstDef {
                    name,
                    template: crate::strings::pending_fields(&template, Kind::ErrorDoc),
                    location: format!("{}:{line}", self.path),
                });
            }
        }
    }

    /// `message = "…"` in a class body: an exception's default message.
    pub fn visit_class_attribute(&mut self, node: Node<'a>, name: &str, right: Node<'a>) {
        let named = crate::calls::is_message_name(name);
        if !MESSAGE_ATTRS.contains(&name) && !named {
            return;
        }
        let msg = self.message(right);
        if !msg.has_text() {
            return;
        }
        // A message-named attribute of any class is a message; the
        // default-message attributes count in exception classes.
        let cond = match self.class_condition() {
            Some(c) => c,
            None if named && msg.template.literal_len() >= 8 => Condition::Always,
            None => return,
        };
        self.use_strings(right);
        let line = right.start_position().row as u32 + 1;
        if let Some(info) = self.frames.last_mut().and_then(|f| f.class.as_mut()) {
            // An attribute wins over the docstring; the first attribute wins.
            if !info.text.as_ref().is_some_and(|t| t.2) {
                info.text = Some((msg.template.clone(), line, true));
            }
        }
        let site = self.site(Kind::ErrorDoc, msg.template, node, right, None);
        self.push(site, cond);
    }
}
