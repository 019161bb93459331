//! The bottom of the rewrite: the edits it makes to a source ([`Edit`], applied by
//! [`apply`]) and the names and limits every part of it shares ([`CHECKED_OPS`],
//! [`RESERVED_PREFIX`], [`MAX_DEPTH`]). Edits only replace whole tokens or insert text, never
//! a line break, so the rewritten lines are the source's.

/// The arithmetic operators that are checked: (helper suffix, operator).
pub const CHECKED_OPS: [(&str, &str); 7] =
    [("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("idiv", "//"), ("mod", "%"), ("pow", "^")];

/// The prefix of every name the rewrite introduces (refused in behaviour sources).
pub const RESERVED_PREFIX: &str = "__arbor";

/// How deeply expressions, blocks and types may nest for the rewrite.
pub const MAX_DEPTH: u32 = 400;

/// How edits at one position are ordered: closers, then replacements, then openers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Class {
    /// A `)` (or other text) ending an expression: at one position, inner ones first.
    Close,
    /// A token replaced by other text.
    Replace,
    /// Text starting an expression: at one position, outer ones first.
    Open,
}

/// One change to the source: the bytes `start..end` become `text`.
#[derive(Clone, Debug)]
pub(super) struct Edit {
    /// First byte replaced (or the insertion point).
    pub(super) start: usize,
    /// Byte after the last one replaced (`start` for an insertion).
    pub(super) end: usize,
    /// What goes there.
    pub(super) text: String,
    /// How edits at one position are ordered.
    pub(super) class: Class,
    /// Order of creation, which orders edits of one class at one position.
    pub(super) seq: u32,
}

/// `src` with `edits` applied, in their order at each position.
pub(super) fn apply(src: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by(|a, b| {
        let key = |e: &Edit| match e.class {
            Class::Open => i64::from(u32::MAX) - i64::from(e.seq),
            _ => i64::from(e.seq),
        };
        (a.start, a.class, key(a)).cmp(&(b.start, b.class, key(b)))
    });
    let extra: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(src.len() + extra);
    let mut pos = 0;
    for e in edits {
        if e.start > pos {
            out.push_str(&src[pos..e.start]);
            pos = e.start;
        }
        out.push_str(&e.text);
        pos = pos.max(e.end);
    }
    out.push_str(&src[pos..]);
    out
}
